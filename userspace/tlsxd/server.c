// SPDX-License-Identifier: GPL-2.0
/*
 * server.c - what main.c builds for the workers: the TLS configuration
 * (and its swap on SIGHUP), the listeners, the document root, and the
 * probe of the record layer the first connection will get.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "fcache.h"
#include "listen_check.h"
#include "server.h"

void server_pause_init(struct server *s)
{
	pthread_condattr_t ca;

	pthread_mutex_init(&s->pause_lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->pause_cond, &ca);
	pthread_condattr_destroy(&ca);
}

bool server_pause(struct server *s, unsigned int ms)
{
	struct timespec end;
	unsigned int i;
	bool all;
	int r = 0;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += ms / 1000;
	end.tv_nsec += (long)(ms % 1000) * 1000000;
	if (end.tv_nsec >= 1000000000) {
		end.tv_sec++;
		end.tv_nsec -= 1000000000;
	}
	pthread_mutex_lock(&s->pause_lock);
	atomic_store(&s->pause_req, true);
	pthread_mutex_unlock(&s->pause_lock);
	for (i = 0; i < s->nworkers; i++)
		worker_wake(&s->workers[i]);
	pthread_mutex_lock(&s->pause_lock);
	while (s->paused < s->nworkers && r == 0)
		r = pthread_cond_timedwait(&s->pause_cond, &s->pause_lock,
					   &end);
	all = s->paused == s->nworkers;
	pthread_mutex_unlock(&s->pause_lock);
	if (!all)
		server_resume(s);
	return all;
}

void server_resume(struct server *s)
{
	pthread_mutex_lock(&s->pause_lock);
	atomic_store(&s->pause_req, false);
	pthread_cond_broadcast(&s->pause_cond);
	pthread_mutex_unlock(&s->pause_lock);
}

bool server_pause_point(struct worker *w)
{
	struct server *s = w->srv;
	unsigned int gen;

	if (!atomic_load(&s->pause_req))
		return false;
	pthread_mutex_lock(&s->pause_lock);
	if (!atomic_load(&s->pause_req)) {
		pthread_mutex_unlock(&s->pause_lock);
		return false;
	}
	s->paused++;
	pthread_cond_broadcast(&s->pause_cond);
	while (atomic_load(&s->pause_req))
		pthread_cond_wait(&s->pause_cond, &s->pause_lock);
	s->paused--;
	gen = s->root_gen;
	pthread_mutex_unlock(&s->pause_lock);
	if (gen != w->root_gen) {
		/* Its entries are the old root's files: none may be served. */
		fcache_flush(fcache_thread());
		w->root_gen = gen;
	}
	return true;
}

struct tlsx_config *server_tls_get(struct server *s)
{
	struct tlsx_config *cfg;

	/*
	 * The lock makes "load the pointer, take a reference" one step
	 * against server_tls_set() dropping the last reference between.
	 */
	pthread_mutex_lock(&s->tls_lock);
	cfg = atomic_load_explicit(&s->tls, memory_order_acquire);
	if (cfg)
		tlsx_config_ref(cfg);
	pthread_mutex_unlock(&s->tls_lock);
	return cfg;
}

void server_tls_set(struct server *s, struct tlsx_config *cfg)
{
	struct tlsx_config *old;

	pthread_mutex_lock(&s->tls_lock);
	old = atomic_exchange_explicit(&s->tls, cfg, memory_order_acq_rel);
	pthread_mutex_unlock(&s->tls_lock);
	if (old)
		tlsx_config_free(old);
}

struct tlsx_config *server_tls_build(const struct tlsxd_conf *c, char *err,
				     size_t errlen)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_SERVER);
	unsigned int i;
	int r;

	if (!cfg) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	for (i = 0; i < c->ncerts; i++) {
		r = tlsx_config_add_cert(cfg, c->certs[i].cert_file,
					 c->certs[i].key_file);
		if (r)
			goto fail;
	}
	/*
	 * RFC 7301: h2 first where HTTP/2 is on (RFC 9113 3.2), then
	 * http/1.1; a client offering neither gets an alert.
	 */
	r = tlsx_config_set_alpn(cfg, c->http2 ? "h2,http/1.1" : "http/1.1");
	if (!r)
		r = tlsx_config_set_record_layer(cfg, c->record_layer);
	if (!r && c->groups)
		r = tlsx_config_set_groups(cfg, c->groups);
	if (!r && c->ticket_key_file)
		r = tlsx_config_load_ticket_keys(cfg, c->ticket_key_file);
	if (!r)
		r = tlsx_config_freeze(cfg);
	if (!r)
		return cfg;
fail:
	if (*tlsx_config_error(cfg))
		snprintf(err, errlen, "%s", tlsx_config_error(cfg));
	else
		snprintf(err, errlen, "TLS configuration: %s",
			 tlsx_strerror(r));
	tlsx_config_free(cfg);
	return NULL;
}

/* A TCP socket with our options; -1 with errno. */
static int tcp_socket(int family, bool reuseport)
{
	int fd, on = 1, off = 0, e;

	fd = socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on)) ||
	    (reuseport &&
	     setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on))) ||
	    /* "[::]" and ":PORT" take IPv4 too, whatever the sysctl says. */
	    (family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &off, sizeof(off)))) {
		e = errno;
		close(fd);
		errno = e;
		return -1;
	}
	return fd;
}

/*
 * One listening socket on @addr; with @first, the address is checked to
 * be free first.  SO_REUSEPORT lets any process of the same user join
 * the group: a second tlsxd (or a stale one) on the same port would
 * silently take part of the connections.  A socket bound without
 * SO_REUSEPORT fails with EADDRINUSE where any listener is.
 */
static int listen_one(const char *addr, bool first, char *err, size_t errlen)
{
	struct sockaddr_storage ss;
	socklen_t len;
	const char *what = "socket";
	int fd = -1;

	if (conf_parse_listen(addr, &ss, &len, err, errlen))
		return -1;
	if (first) {
		fd = tcp_socket(ss.ss_family, false);
		if (fd < 0)
			goto fail;
		what = "bind";
		if (bind(fd, (struct sockaddr *)&ss, len))
			goto fail;
		close(fd);
	}
	what = "socket";
	fd = tcp_socket(ss.ss_family, true);
	if (fd < 0)
		goto fail;
	what = "bind";
	if (bind(fd, (struct sockaddr *)&ss, len))
		goto fail;
	what = "listen";
	if (listen(fd, TLSXD_BACKLOG))
		goto fail;
	return fd;
fail:
	snprintf(err, errlen, "listen %s: %s: %s", addr, what,
		 strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * After every listener exists: another process's listener on one of
 * our addresses, bound between listen_one()'s trial bind and ours (or
 * joined to our SO_REUSEPORT group since), is an error.  0 when none,
 * -1 with the error, 1 when the check cannot run (the reason in @err).
 */
static int listen_foreign(const struct server *s, unsigned int n, char *err,
			  size_t errlen)
{
	const struct tlsxd_conf *c = s->conf;
	struct listen_span want[CONF_LISTEN_MAX];
	struct sockaddr_storage ss;
	unsigned int i, which = 0;
	char found[160];
	socklen_t len;
	struct stat st;
	ino_t *ours;
	int nl, r;

	ours = calloc(n, sizeof(*ours));
	if (!ours) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < n; i++) {
		if (fstat(s->listen_fds[i], &st))
			goto cannot;
		ours[i] = st.st_ino;
	}
	/* Worker 0's sockets: one per address, as bound. */
	for (i = 0; i < c->nlisten; i++) {
		len = sizeof(ss);
		if (getsockname(s->listen_fds[i], (struct sockaddr *)&ss,
				&len))
			goto cannot;
		/* tcp_socket() clears IPV6_V6ONLY on every IPv6 listener. */
		listen_span_of((struct sockaddr *)&ss, false, &want[i]);
	}
	nl = listen_check_open();
	if (nl < 0)
		goto cannot;
	r = listen_check(nl, want, c->nlisten, ours, n, &which, found,
			 sizeof(found));
	close(nl);
	free(ours);
	if (r < 0)
		snprintf(err, errlen,
			 "listen %s: another process listens there too (%s): a second server on this port?",
			 c->listen[which], found);
	else if (r > 0)
		snprintf(err, errlen, "cannot check for other listeners: %s",
			 found);
	return r;
cannot:
	snprintf(err, errlen, "cannot check for other listeners: %s",
		 strerror(errno));
	free(ours);
	return 1;
}

int server_listen(struct server *s, unsigned int nworkers, char *err,
		  size_t errlen)
{
	const struct tlsxd_conf *c = s->conf;
	unsigned int w, i, n = nworkers * c->nlisten;
	int r;

	s->listen_fds = malloc(sizeof(int) * n);
	if (!s->listen_fds) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->nlisten = c->nlisten;
	s->listen_shared = false;
	for (w = 0; w < nworkers; w++) {
		for (i = 0; i < c->nlisten; i++) {
			int fd = listen_one(c->listen[i], w == 0, err,
					    errlen);

			if (fd < 0)
				goto fail;
			s->listen_fds[w * c->nlisten + i] = fd;
		}
	}
	r = n ? listen_foreign(s, n, err, errlen) : 0;
	if (r >= 0)
		return r;
	/* All of them made: close them all. */
	w = nworkers;
	i = 0;
fail:
	n = w * c->nlisten + i;		/* the ones made so far */
	while (n--)
		close(s->listen_fds[n]);
	free(s->listen_fds);
	s->listen_fds = NULL;
	s->nlisten = 0;
	return -1;
}

void server_listen_close(struct server *s)
{
	unsigned int i, n;

	if (!s->listen_fds)
		return;
	n = s->listen_shared ? s->nlisten : s->nlisten * s->nworkers;
	for (i = 0; i < n; i++)
		close(s->listen_fds[i]);
	free(s->listen_fds);
	s->listen_fds = NULL;
}

int server_root_open(const char *path, char *err, size_t errlen)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS,
	};
	int fd, probe;

	fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "--root %s: %s", path, strerror(errno));
		return -1;
	}
	/*
	 * Every file is opened with openat2(RESOLVE_BENEATH) (path.h): a
	 * kernel before 5.6 lacks it, and there is no safe fallback.
	 */
	probe = (int)syscall(SYS_openat2, fd, ".", &how, sizeof(how));
	if (probe < 0) {
		if (errno == ENOSYS)
			snprintf(err, errlen,
				 "this kernel has no openat2(2) (Linux 5.6 or later): files cannot be opened safely beneath the root");
		else
			snprintf(err, errlen, "--root %s: openat2: %s", path,
				 strerror(errno));
		close(fd);
		return -1;
	}
	close(probe);
	return fd;
}

/* A connected loopback TCP pair (the client end in *@a): 0 or -1. */
static int tcp_pair(int *a, int *b)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int l, c = -1, s = -1;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0)
		return -1;
	if (bind(l, (struct sockaddr *)&sin, sizeof(sin)) || listen(l, 1) ||
	    getsockname(l, (struct sockaddr *)&sin, &len))
		goto out;
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c < 0 || connect(c, (struct sockaddr *)&sin, sizeof(sin)))
		goto out;
	s = accept4(l, NULL, NULL, SOCK_CLOEXEC);
out:
	close(l);
	if (s < 0) {
		if (c >= 0)
			close(c);
		return -1;
	}
	*a = c;
	*b = s;
	return 0;
}

/* Whether TCP_ULP @name can be set on an established socket. */
static bool ulp_works(const char *name)
{
	int a, b;
	bool ok;

	if (tcp_pair(&a, &b))
		return false;
	ok = !setsockopt(a, IPPROTO_TCP, TCP_ULP, name, strlen(name));
	close(a);
	close(b);
	return ok;
}

enum tlsx_record_layer server_probe_record_layer(enum tlsx_record_layer want,
						 bool *missing)
{
	*missing = false;
	switch (want) {
	case TLSX_RL_TLSX:
		*missing = !ulp_works("tlsx");
		return want;
	case TLSX_RL_TLS:
		*missing = !ulp_works("tls");
		return want;
	case TLSX_RL_USER:
		return want;
	default:
		if (ulp_works("tlsx"))
			return TLSX_RL_TLSX;
		if (ulp_works("tls"))
			return TLSX_RL_TLS;
		return TLSX_RL_USER;
	}
}
