// SPDX-License-Identifier: GPL-2.0
/*
 * metrics.c - the Prometheus page (text exposition format 0.0.4) and
 * the plain-HTTP listener that serves it (--metrics ADDR:PORT, off by
 * default).
 *
 * The page is one table (metric_rows[]): a metric's name, its type and
 * help, and its series, each a label value and the counters (stats.h)
 * summed into it.  Conventions (Prometheus's "Metric and label naming"):
 * a counter's name ends in _total, sizes are in bytes, every metric has
 * its HELP and TYPE line, a label names a dimension (worker, class,
 * alert, ...), never a value that grows without bound.
 *
 * The thread: one blocking-free loop on poll(2) over the listener and a
 * stop eventfd; a scrape is accepted, its request read (at most 4 KiB,
 * at most 2 s), the page built from the workers' arrays (relaxed loads,
 * as SIGUSR1's dump: each worker keeps writing its own and never waits
 * for a reader) and written, the connection closed.  A slow or hostile
 * scraper delays only the next scrape, never a worker.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#include "handshake/libtlsx/tlsx.h"
#include "conf.h"
#include "log.h"
#include "metrics.h"
#include "server.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define SERIES_MAX	14
#define IDS_MAX		12
#define REQ_MAX		4096
#define SCRAPE_MS	2000

enum metric_type { M_COUNTER, M_GAUGE };

struct metric_series {
	const char *label;		/* the label's value; NULL: none */
	int ids[IDS_MAX];		/* summed; ends at the first -1 or 0 */
};

struct metric_row {
	const char *name;
	enum metric_type type;
	const char *help;
	const char *label_name;		/* NULL: one series, no label */
	bool per_worker;		/* a worker="N" label on each series */
	/*
	 * A series' counters, as stat_id + 1 (0 ends the list), so that a
	 * row's designated initialisers need no -1 fill.
	 */
	struct metric_series series[SERIES_MAX];
};

#define S(id)	((id) + 1)

static const struct metric_row metric_rows[] = {
	{ "tlsxd_connections_accepted_total", M_COUNTER,
	  "TCP connections accepted.", NULL, true,
	  { { NULL, { S(STAT_CONN_ACCEPTED) } } } },
	{ "tlsxd_connections_refused_total", M_COUNTER,
	  "Connections closed at accept: over --max-conns.", NULL, true,
	  { { NULL, { S(STAT_CONN_REFUSED_MAX) } } } },
	{ "tlsxd_connections_open", M_GAUGE,
	  "Connections open now.", NULL, true,
	  { { NULL, { S(STAT_CONN_ACTIVE) } } } },
	{ "tlsxd_handshakes_total", M_COUNTER,
	  "TLS handshakes completed, full or resumed (a session ticket).",
	  "type", false,
	  { { "full", { S(STAT_HS_DONE) } }, { "resumed", { S(STAT_HS_RESUMED) } } } },
	{ "tlsxd_record_layer_handshakes_total", M_COUNTER,
	  "Handshakes handed off to each record layer.", "layer", false,
	  { { "tlsx", { S(STAT_RL_TLSX) } }, { "tls", { S(STAT_RL_TLS) } },
	    { "user", { S(STAT_RL_USER) } } } },
	{ "tlsxd_requests_total", M_COUNTER,
	  "Responses sent, by status class.", "class", false,
	  { { "2xx", { S(STAT_S_2XX) } },
	    { "3xx", { S(STAT_S_304), S(STAT_S_3XX) } },
	    { "4xx", { S(STAT_S_400), S(STAT_S_403), S(STAT_S_404),
		       S(STAT_S_405), S(STAT_S_408), S(STAT_S_412),
		       S(STAT_S_413), S(STAT_S_414), S(STAT_S_416),
		       S(STAT_S_417), S(STAT_S_431) } },
	    { "5xx", { S(STAT_S_5XX) } } } },
	{ "tlsxd_response_body_bytes_total", M_COUNTER,
	  "Response body bytes sent (heads not counted).", NULL, true,
	  { { NULL, { S(STAT_BYTES_BODY) } } } },
	{ "tlsxd_file_body_bytes_total", M_COUNTER,
	  "File body bytes sent past userspace, by system call.", "method",
	  false,
	  { { "sendfile", { S(STAT_BYTES_SENDFILE) } },
	    { "splice", { S(STAT_BYTES_SPLICE) } } } },
	{ "tlsxd_file_bodies_total", M_COUNTER,
	  "Responses with a file body, by the way it was sent.", "method",
	  false,
	  { { "sendfile", { S(STAT_BODY_SENDFILE) } },
	    { "splice", { S(STAT_BODY_SPLICE) } },
	    { "user", { S(STAT_BODY_USER) } } } },
	{ "tlsxd_timeouts_total", M_COUNTER,
	  "Connections closed by a timeout, by phase.", "phase", false,
	  { { "handshake", { S(STAT_TO_HANDSHAKE) } },
	    { "header", { S(STAT_TO_HEADER) } },
	    { "idle", { S(STAT_TO_IDLE) } },
	    { "send", { S(STAT_TO_SEND) } } } },
	{ "tlsxd_client_resets_total", M_COUNTER,
	  "Connections the client reset or left mid-way.", NULL, false,
	  { { NULL, { S(STAT_CLIENT_RESET) } } } },
	{ "tlsxd_proxy_headers_total", M_COUNTER,
	  "PROXY protocol headers taken, by version.", "version", false,
	  { { "1", { S(STAT_PROXY_V1) } }, { "2", { S(STAT_PROXY_V2) } } } },
	{ "tlsxd_proxy_local_total", M_COUNTER,
	  "PROXY headers naming no client (LOCAL, UNKNOWN): health checks.",
	  NULL, false, { { NULL, { S(STAT_PROXY_LOCAL) } } } },
	{ "tlsxd_proxy_refused_total", M_COUNTER,
	  "Connections closed for an invalid or missing PROXY header.", NULL,
	  false, { { NULL, { S(STAT_PROXY_BAD) } } } },
	{ "tlsxd_fcache_hits_total", M_COUNTER,
	  "Open-file cache: requests served from an open file.", NULL, true,
	  { { NULL, { S(STAT_FC_HITS) } } } },
	{ "tlsxd_fcache_misses_total", M_COUNTER,
	  "Open-file cache: files opened.", NULL, true,
	  { { NULL, { S(STAT_FC_MISSES) } } } },
	{ "tlsxd_fcache_stale_total", M_COUNTER,
	  "Open-file cache: entries found changed and reopened.", NULL, false,
	  { { NULL, { S(STAT_FC_STALE) } } } },
	{ "tlsxd_fcache_evictions_total", M_COUNTER,
	  "Open-file cache: entries evicted for room.", NULL, false,
	  { { NULL, { S(STAT_FC_EVICTIONS) } } } },
	{ "tlsxd_fcache_uncached_total", M_COUNTER,
	  "Open-file cache: files served without an entry.", NULL, false,
	  { { NULL, { S(STAT_FC_UNCACHED) } } } },
	{ "tlsxd_fcache_negative_hits_total", M_COUNTER,
	  "Open-file cache: a failing open of a .br/.gz sibling saved.", NULL,
	  false, { { NULL, { S(STAT_FC_NEG_HITS) } } } },
	{ "tlsxd_fcache_negative_stored_total", M_COUNTER,
	  "Open-file cache: absent siblings remembered.", NULL, false,
	  { { NULL, { S(STAT_FC_NEG_STORED) } } } },
	{ "tlsxd_fcache_negative_stale_total", M_COUNTER,
	  "Open-file cache: remembered absences dropped.", NULL, false,
	  { { NULL, { S(STAT_FC_NEG_STALE) } } } },
	{ "tlsxd_fcache_entries", M_GAUGE,
	  "Open-file cache: entries now.", NULL, true,
	  { { NULL, { S(STAT_FC_ENTRIES) } } } },
	{ "tlsxd_fcache_orphans", M_GAUGE,
	  "Open-file cache: evicted files still being sent.", NULL, false,
	  { { NULL, { S(STAT_FC_ORPHANS) } } } },
	{ "tlsxd_key_updates_sent_total", M_COUNTER,
	  "TLS KeyUpdates sent (RFC 8446 5.5), by closed connections.", NULL,
	  false, { { NULL, { S(STAT_KEY_UPDATES) } } } },
	{ "tlsxd_key_limit_closes_total", M_COUNTER,
	  "Keep-alive ended before the sending key's limit (kernel tls).",
	  NULL, false, { { NULL, { S(STAT_KEY_LIMIT_CLOSE) } } } },
	{ "tlsxd_key_limit_cuts_total", M_COUNTER,
	  "Responses cut short at the sending key's limit (kernel tls).",
	  NULL, false, { { NULL, { S(STAT_KEY_LIMIT_CUT) } } } },
	{ "tlsxd_tls_owed_waits_total", M_COUNTER,
	  "Waits for room to send a KeyUpdate reply owed.", NULL, false,
	  { { NULL, { S(STAT_TLS_OWED_WAIT) } } } },
	{ "tlsxd_h2_connections_total", M_COUNTER,
	  "Connections that chose HTTP/2 by ALPN.", NULL, false,
	  { { NULL, { S(STAT_H2_CONNS) } } } },
	{ "tlsxd_h2_streams_total", M_COUNTER,
	  "HTTP/2 streams taken (requests planned).", NULL, false,
	  { { NULL, { S(STAT_H2_STREAMS) } } } },
	{ "tlsxd_h2_stream_resets_total", M_COUNTER,
	  "HTTP/2 RST_STREAM frames, by the side that sent them.", "by",
	  false,
	  { { "peer", { S(STAT_H2_RST_PEER) } },
	    { "server", { S(STAT_H2_RST_SENT) } } } },
	{ "tlsxd_h2_limits_total", M_COUNTER,
	  "HTTP/2 limits hit (docs/http2.md), by limit.", "limit", false,
	  { { "rapid_reset", { S(STAT_H2_RAPID_RESET) } },
	    { "header_block", { S(STAT_H2_BLOCK_LIMIT) } },
	    { "header_list", { S(STAT_H2_LIST_LIMIT) } },
	    { "flood", { S(STAT_H2_FLOOD) } },
	    { "owed_frames", { S(STAT_H2_OWED) } },
	    { "send_timeout", { S(STAT_H2_SEND_TIMEOUT) } },
	    { "concurrent_streams", { S(STAT_H2_REFUSED) } } } },
	{ "tlsxd_h2_goaways_sent_total", M_COUNTER,
	  "HTTP/2 GOAWAY frames sent, by error code.", "code", false,
	  { { "NO_ERROR", { S(STAT_H2_GOAWAY_NO_ERROR) } },
	    { "PROTOCOL_ERROR", { S(STAT_H2_GOAWAY_PROTOCOL_ERROR) } },
	    { "INTERNAL_ERROR", { S(STAT_H2_GOAWAY_INTERNAL_ERROR) } },
	    { "FLOW_CONTROL_ERROR", { S(STAT_H2_GOAWAY_FLOW_CONTROL_ERROR) } },
	    { "SETTINGS_TIMEOUT", { S(STAT_H2_GOAWAY_SETTINGS_TIMEOUT) } },
	    { "STREAM_CLOSED", { S(STAT_H2_GOAWAY_STREAM_CLOSED) } },
	    { "FRAME_SIZE_ERROR", { S(STAT_H2_GOAWAY_FRAME_SIZE_ERROR) } },
	    { "REFUSED_STREAM", { S(STAT_H2_GOAWAY_REFUSED_STREAM) } },
	    { "CANCEL", { S(STAT_H2_GOAWAY_CANCEL) } },
	    { "COMPRESSION_ERROR", { S(STAT_H2_GOAWAY_COMPRESSION_ERROR) } },
	    { "CONNECT_ERROR", { S(STAT_H2_GOAWAY_CONNECT_ERROR) } },
	    { "ENHANCE_YOUR_CALM", { S(STAT_H2_GOAWAY_ENHANCE_YOUR_CALM) } },
	    { "INADEQUATE_SECURITY", { S(STAT_H2_GOAWAY_INADEQUATE_SECURITY) } },
	    { "HTTP_1_1_REQUIRED", { S(STAT_H2_GOAWAY_HTTP_1_1_REQUIRED) } } } },
	{ "tlsxd_h2_data_bytes_total", M_COUNTER,
	  "HTTP/2 DATA payload octets sent, counted as each stream ends.",
	  NULL, false, { { NULL, { S(STAT_H2_DATA_BYTES) } } } },
};

static uint64_t load(const struct stats *s, unsigned int id)
{
	return __atomic_load_n(&s->v[id], __ATOMIC_RELAXED);
}

/* A series' value over workers [@from, @to). */
static uint64_t series_value(const struct metric_series *ms,
			     const struct stats *const *w, unsigned int from,
			     unsigned int to)
{
	uint64_t v = 0;
	unsigned int i, k;

	for (i = from; i < to; i++)
		for (k = 0; k < IDS_MAX && ms->ids[k]; k++)
			v += load(w[i], (unsigned int)ms->ids[k] - 1);
	return v;
}

static void write_row(FILE *f, const struct metric_row *r,
		      const struct stats *const *w, unsigned int n)
{
	unsigned int s, i;

	fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", r->name, r->help, r->name,
		r->type == M_COUNTER ? "counter" : "gauge");
	for (s = 0; s < SERIES_MAX && r->series[s].ids[0]; s++) {
		const struct metric_series *ms = &r->series[s];
		uint64_t v;

		if (!r->per_worker) {
			v = series_value(ms, w, 0, n);
			/* hs_done counts both kinds: full is the rest. */
			if (ms->ids[0] == S(STAT_HS_DONE))
				v -= series_value(&r->series[1], w, 0, n);
			if (ms->label)
				fprintf(f, "%s{%s=\"%s\"} %llu\n", r->name,
					r->label_name, ms->label,
					(unsigned long long)v);
			else
				fprintf(f, "%s %llu\n", r->name,
					(unsigned long long)v);
			continue;
		}
		for (i = 0; i < n; i++) {
			/* A gauge summed from workers may dip below 0. */
			int64_t sv = (int64_t)series_value(ms, w, i, i + 1);

			if (r->type == M_GAUGE && sv < 0)
				sv = 0;
			fprintf(f, "%s{worker=\"%u\"} %llu\n", r->name, i,
				(unsigned long long)sv);
		}
	}
}

void metrics_write(FILE *f, const struct stats *const *w, unsigned int n,
		   const struct metrics_extra *x)
{
	uint64_t none = 0;
	unsigned int i, a;

	for (i = 0; i < ARRAY_SIZE(metric_rows); i++)
		write_row(f, &metric_rows[i], w, n);

	fputs("# HELP tlsxd_handshakes_failed_total TLS handshakes failed, by the alert sent or received (none: the peer went, a timeout).\n"
	      "# TYPE tlsxd_handshakes_failed_total counter\n", f);
	for (a = 0; a < STATS_ALERTS; a++) {
		uint64_t v = 0;

		for (i = 0; i < n; i++)
			v += __atomic_load_n(&w[i]->hs_alert[a],
					     __ATOMIC_RELAXED);
		if (a == STATS_ALERT_NONE) {
			none = v;
			continue;
		}
		/* Only alerts seen: 256 series of zeroes say nothing. */
		if (v)
			fprintf(f, "tlsxd_handshakes_failed_total{alert=\"%s\"} %llu\n",
				tlsx_alert_string(a) ? tlsx_alert_string(a) :
				"unknown", (unsigned long long)v);
	}
	fprintf(f, "tlsxd_handshakes_failed_total{alert=\"none\"} %llu\n",
		(unsigned long long)none);

	fprintf(f, "# HELP tlsxd_record_layer_info The record layer new connections get (probed at start).\n"
		"# TYPE tlsxd_record_layer_info gauge\n"
		"tlsxd_record_layer_info{layer=\"%s\"} 1\n",
		x && x->record_layer ? x->record_layer : "unknown");
	fprintf(f, "# HELP tlsxd_access_log_lost_lines_total Access log lines lost to failed writes.\n"
		"# TYPE tlsxd_access_log_lost_lines_total counter\n"
		"tlsxd_access_log_lost_lines_total %llu\n",
		(unsigned long long)(x ? x->alog_lost : 0));
	fprintf(f, "# HELP tlsxd_workers Worker threads.\n"
		"# TYPE tlsxd_workers gauge\ntlsxd_workers %u\n", n);
}

/* ---- the listener -------------------------------------------------- */

static struct {
	pthread_t thread;
	bool running;
	int fd, stop_fd;
	struct server *srv;
	const char *record_layer;
} mt = { .fd = -1, .stop_fd = -1 };

int metrics_listen(const char *addr, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char msg[200];
	int fd, one = 1;

	if (conf_parse_listen(addr, &ss, &len, msg, sizeof(msg))) {
		snprintf(err, errlen, "--metrics: %s", msg);
		return -1;
	}
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0) {
		snprintf(err, errlen, "--metrics %s: socket: %s", addr,
			 strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) || listen(fd, 64)) {
		snprintf(err, errlen, "--metrics %s: %s", addr,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for @events on @fd until @deadline: false on timeout or error. */
static bool wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd p = { .fd = fd, .events = events };
	int64_t left = deadline - now_ms();

	if (left <= 0)
		return false;
	return poll(&p, 1, (int)left) == 1;
}

static bool send_all(int fd, const char *p, size_t len, int64_t deadline)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait_fd(fd, POLLOUT, deadline))
				return false;
			continue;
		}
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The page of the running server. */
static char *page(size_t *len)
{
	const struct stats *in[1024];
	struct metrics_extra x = { mt.record_layer, 0 };
	unsigned int i, n = mt.srv->nworkers;
	char *text = NULL;
	FILE *f;

	if (n > ARRAY_SIZE(in))
		n = ARRAY_SIZE(in);
	for (i = 0; i < n; i++)
		in[i] = &mt.srv->workers[i].stats;
	if (mt.srv->alog)
		x.alog_lost = access_log_lines_lost(mt.srv->alog);
	f = open_memstream(&text, len);
	if (!f)
		return NULL;
	metrics_write(f, in, n, &x);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static void serve_one(int fd)
{
	int64_t deadline = now_ms() + SCRAPE_MS;
	char req[REQ_MAX + 1], head[256];
	const char *status = "200 OK", *body = NULL;
	char *text = NULL;
	size_t len = 0, blen = 0;
	bool head_only;

	/* The request head, whole, within the deadline. */
	for (;;) {
		ssize_t n = recv(fd, req + len, REQ_MAX - len, MSG_DONTWAIT);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			if (!wait_fd(fd, POLLIN, deadline))
				return;
			continue;
		}
		if (n <= 0)
			return;
		len += (size_t)n;
		req[len] = '\0';
		if (strstr(req, "\r\n\r\n") || strstr(req, "\n\n"))
			break;
		if (len == REQ_MAX)
			return;
	}
	head_only = !strncmp(req, "HEAD ", 5);
	if (strncmp(req, "GET ", 4) && !head_only) {
		status = "405 Method Not Allowed";
		body = "GET /metrics\n";
	} else if (strncmp(req + (head_only ? 5 : 4), "/metrics", 8) ||
		   !strchr(" ?", req[(head_only ? 5 : 4) + 8])) {
		status = "404 Not Found";
		body = "GET /metrics\n";
	} else {
		text = page(&blen);
		if (!text) {
			status = "500 Internal Server Error";
			body = "out of memory\n";
		}
	}
	if (body)
		blen = strlen(body);
	snprintf(head, sizeof(head),
		 "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
		 status, text ? "text/plain; version=0.0.4; charset=utf-8" :
		 "text/plain", blen);
	if (send_all(fd, head, strlen(head), deadline) && !head_only)
		send_all(fd, text ? text : body, blen, deadline);
	free(text);
}

static void *metrics_main(void *arg)
{
	struct pollfd p[2] = {
		{ .fd = mt.fd, .events = POLLIN },
		{ .fd = mt.stop_fd, .events = POLLIN },
	};

	(void)arg;
	for (;;) {
		int c;

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			log_msg(LOG_ERR, "metrics: poll: %s", strerror(errno));
			return NULL;
		}
		if (p[1].revents)
			return NULL;
		c = accept4(mt.fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (c < 0)
			continue;
		serve_one(c);
		close(c);
	}
}

int metrics_start(struct server *srv, int fd, const char *record_layer)
{
	int r;

	mt.srv = srv;
	mt.fd = fd;
	mt.record_layer = record_layer;
	mt.stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (mt.stop_fd < 0)
		return -errno;
	r = pthread_create(&mt.thread, NULL, metrics_main, NULL);
	if (r) {
		close(mt.stop_fd);
		mt.stop_fd = -1;
		return -r;
	}
	pthread_setname_np(mt.thread, "tlsxd-metrics");
	mt.running = true;
	return 0;
}

void metrics_stop(void)
{
	uint64_t one = 1;

	if (mt.running) {
		if (write(mt.stop_fd, &one, sizeof(one)) != sizeof(one))
			pthread_cancel(mt.thread);
		pthread_join(mt.thread, NULL);
		mt.running = false;
	}
	if (mt.stop_fd >= 0)
		close(mt.stop_fd);
	if (mt.fd >= 0)
		close(mt.fd);
	mt.stop_fd = -1;
	mt.fd = -1;
}
