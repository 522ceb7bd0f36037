// SPDX-License-Identifier: GPL-2.0
/*
 * http_tlsx_load.c - "tlsx-bench http"'s load generator built on libtlsx,
 * for the new-connection rows h2load cannot run: h2load is OpenSSL 3.0's
 * and cannot offer X25519MLKEM768 (issue #30).  One job: N threads, each
 * taking connections from a shared count until the run's are done; each
 * connection a TCP connect to 127.0.0.1, a full TLS 1.3 handshake
 * offering the row's groups (libtlsx, tlsx_connect()), one HTTP/1.1 GET
 * of the file, its whole response read (status line, Content-Length, the
 * body), and close.  It counts connections per second, the latency of
 * each (connect to the last body byte), and its own CPU time.
 *
 * Like h2load it does not verify the server's certificate (the server's
 * cost is what the row measures) and resumes nothing: each connection a
 * full handshake.  Unlike h2load it checks every connection's group:
 * the one negotiated must be the row's first, else the run fails, so a
 * hybrid row cannot quietly measure a classical handshake.  Records in
 * userspace on the client (TLSX_RL_USER): the generator's record layer
 * is not what is measured, and a 1 KiB response is one record.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench.h"
#include "http.h"
#include "handshake/engine/group.h"
#include "handshake/libtlsx/tlsx.h"

/* Response heads are short (tlsxd's, nginx's): a bound, not a guess. */
#define TL_HEAD_MAX	4096

struct tl_run {
	struct tlsx_config *cfg;
	int port;
	char req[512];
	size_t req_len, size;
	uint16_t want_group;
	unsigned int conns;
	unsigned int next;		/* atomic: the next connection */
	double *lat_us;			/* per connection */
	/* Results, under @lock. */
	pthread_mutex_t lock;
	unsigned long ok, failed;
	unsigned long long data;
	double cpu;
	char why[HB_WHY_LEN];
};

static void tl_fail(struct tl_run *r, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&r->lock);
	if (!r->failed++) {
		va_start(ap, fmt);
		vsnprintf(r->why, sizeof(r->why), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&r->lock);
}

/* Reads the response: 0 and its body length, or -1 with @r->why set. */
static int tl_response(struct tl_run *r, struct tlsx_conn *c,
		       unsigned long long *body)
{
	char buf[TL_HEAD_MAX + 1], *end, *cl;
	size_t have = 0, head, want;
	ssize_t n;

	for (;;) {
		n = tlsx_read(c, buf + have, TL_HEAD_MAX - have);
		if (n <= 0) {
			tl_fail(r, "response head: %s (%d)",
				tlsx_strerror((int)n), (int)n);
			return -1;
		}
		have += (size_t)n;
		buf[have] = 0;
		end = strstr(buf, "\r\n\r\n");
		if (end)
			break;
		if (have == TL_HEAD_MAX) {
			tl_fail(r, "a response head over %d bytes",
				TL_HEAD_MAX);
			return -1;
		}
	}
	head = (size_t)(end - buf) + 4;
	cl = strcasestr(buf, "\r\ncontent-length:");
	if (strncmp(buf, "HTTP/1.1 200 ", 13) || !cl || cl > end) {
		tl_fail(r, "not a 200 with a Content-Length: %.40s", buf);
		return -1;
	}
	want = strtoul(cl + 17, NULL, 10);
	*body = have - head;
	while (*body < want) {
		n = tlsx_read(c, buf, TL_HEAD_MAX);
		if (n <= 0) {
			tl_fail(r, "response body: %s (%d)",
				tlsx_strerror((int)n), (int)n);
			return -1;
		}
		*body += (unsigned long long)n;
	}
	if (*body != want || want != r->size) {
		tl_fail(r, "a body of %llu bytes, not %zu", *body, r->size);
		return -1;
	}
	return 0;
}

/* One connection, start to close: its latency in us, or -1. */
static double tl_one(struct tl_run *r, unsigned long long *body)
{
	struct sockaddr_in sa = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)r->port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	uint64_t t0 = bench_now_ns();
	struct tlsx_conn *c = NULL;
	struct tlsx_conn_info info;
	int fd, ret, one = 1;
	double us = -1;

	fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		tl_fail(r, "socket: %s", strerror(errno));
		return -1;
	}
	/* h2load sets it too: no flight waits for an ACK (Nagle). */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		tl_fail(r, "connect: %s", strerror(errno));
		goto out;
	}
	ret = tlsx_connect(r->cfg, fd, NULL, &c);
	if (ret) {
		tl_fail(r, "handshake: %s (alert %d)", tlsx_strerror(ret),
			c ? tlsx_conn_alert(c) : -1);
		goto out;
	}
	if (tlsx_conn_info(c, &info)) {
		tl_fail(r, "tlsx_conn_info failed");
		goto out;
	}
	if (info.group != r->want_group) {
		tl_fail(r, "negotiated group %s, not the row's (0x%04x)",
			info.group_name, r->want_group);
		goto out;
	}
	if (tlsx_write(c, r->req, r->req_len) != (ssize_t)r->req_len) {
		tl_fail(r, "request: write failed");
		goto out;
	}
	if (tl_response(r, c, body))
		goto out;
	us = (double)(bench_now_ns() - t0) / 1e3;
out:
	if (c)
		tlsx_conn_free(c);
	close(fd);
	return us;
}

static double tl_thread_cpu(void)
{
	struct rusage ru;

	if (getrusage(RUSAGE_THREAD, &ru))
		return 0;
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void *tl_thread(void *arg)
{
	struct tl_run *r = arg;
	unsigned long ok = 0;
	unsigned long long data = 0, body;
	double cpu0 = tl_thread_cpu(), us;
	unsigned int i;

	for (;;) {
		i = __atomic_fetch_add(&r->next, 1, __ATOMIC_RELAXED);
		if (i >= r->conns)
			break;
		body = 0;
		us = tl_one(r, &body);
		r->lat_us[i] = us;
		if (us < 0)
			break;		/* a failed run stops early */
		ok++;
		data += body;
	}
	pthread_mutex_lock(&r->lock);
	r->ok += ok;
	r->data += data;
	r->cpu += tl_thread_cpu() - cpu0;
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

static int tl_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static struct tlsx_config *tl_config(const char *groups, char *why)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_CLIENT);

	if (!cfg) {
		hb_why(why, "tlsx_config_new: out of memory");
		return NULL;
	}
	if (tlsx_config_set_groups(cfg, groups) ||
	    tlsx_config_set_alpn(cfg, "http/1.1") ||
	    tlsx_config_set_verify_peer(cfg, false, false) ||
	    tlsx_config_set_record_layer(cfg, TLSX_RL_USER) ||
	    tlsx_config_freeze(cfg)) {
		hb_why(why, "libtlsx client configuration: %s",
		       tlsx_config_error(cfg));
		tlsx_config_free(cfg);
		return NULL;
	}
	return cfg;
}

int hb_tlsx_newconn(const struct hb_opts *o, int port, const char *path,
		    size_t size, const char *groups, unsigned int conns,
		    struct hb_load *out, struct hb_lat *lat, char *why)
{
	unsigned int nt = o->tlsx_load_conns < conns ? o->tlsx_load_conns :
			  conns;
	pthread_t th[64];
	struct tl_run r;
	uint64_t t0;
	unsigned int i, started;
	size_t len = strcspn(groups, ":,");
	const struct tlsx_group *g;
	char first[64];

	memset(out, 0, sizeof(*out));
	memset(lat, 0, sizeof(*lat));
	memset(&r, 0, sizeof(r));
	if (!conns || nt > 64 || len >= sizeof(first))
		return hb_why(why, "bad load: %u connections, %u threads",
			      conns, nt);
	memcpy(first, groups, len);
	first[len] = 0;
	g = tlsx_group_by_name(first, len);
	if (!g)
		return hb_why(why, "unknown group \"%s\"", first);
	r.want_group = g->code;
	r.cfg = tl_config(groups, why);
	if (!r.cfg)
		return -1;
	r.port = port;
	r.size = size;
	r.conns = conns;
	r.req_len = (size_t)snprintf(r.req, sizeof(r.req),
				     "GET /%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUser-Agent: tlsx-bench\r\n\r\n",
				     path, port);
	r.lat_us = calloc(conns, sizeof(*r.lat_us));
	pthread_mutex_init(&r.lock, NULL);
	if (!r.lat_us) {
		tlsx_config_free(r.cfg);
		return hb_why(why, "out of memory");
	}
	t0 = bench_now_ns();
	for (started = 0; started < nt; started++)
		if (pthread_create(&th[started], NULL, tl_thread, &r))
			break;
	if (!started)
		hb_why(why, "pthread_create failed");
	for (i = 0; i < started; i++)
		pthread_join(th[i], NULL);
	out->secs = (double)(bench_now_ns() - t0) / 1e9;
	out->done = r.ok + r.failed;
	out->ok = r.ok;
	out->status2xx = r.ok;
	out->failed = r.failed;
	out->data = r.data;
	out->cpu = r.cpu;
	if (r.failed)
		hb_why(why, "%lu of %u connections failed, the first: %s",
		       r.failed, conns, r.why);
	if (!r.failed && started) {
		qsort(r.lat_us, conns, sizeof(*r.lat_us), tl_cmp);
		lat->n = conns;
		lat->p50_us = r.lat_us[conns / 2];
		lat->p99_us = r.lat_us[(size_t)conns * 99 / 100];
		lat->max_us = r.lat_us[conns - 1];
	}
	free(r.lat_us);
	pthread_mutex_destroy(&r.lock);
	tlsx_config_free(r.cfg);
	return r.failed || !started ? -1 : 0;
}
