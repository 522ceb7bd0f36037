/* SPDX-License-Identifier: GPL-2.0 */
/*
 * server.h - what main.c shares with the workers (worker.c, conn.c):
 * the configuration, the document root, the TLS configuration (swapped
 * on SIGHUP), the listeners, the logs, and each worker's counters and
 * wake-up eventfd.
 */
#ifndef TLSXD_SERVER_H
#define TLSXD_SERVER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "conf.h"
#include "handshake/libtlsx/tlsx.h"
#include "log.h"
#include "resp.h"
#include "stats.h"

#define TLSXD_NAME	"tlsxd"
#define TLSXD_SERVER	TLSXD_NAME "/" TLSXD_VERSION	/* the Server field */
#define TLSXD_BACKLOG	4096

struct worker;

struct server {
	const struct tlsxd_conf *conf;
	struct site site;
	struct mime_table *mime;
	struct access_log *alog;	/* NULL: off */
	/*
	 * The current TLS configuration.  A worker takes a reference
	 * (server_tls_get) per handshake; SIGHUP builds a new one and
	 * publishes it here (server_tls_set drops the old reference: the
	 * handshakes still holding it finish on it).
	 */
	_Atomic(struct tlsx_config *) tls;
	pthread_mutex_t tls_lock;	/* get vs set, held for the ref only */
	/*
	 * Listeners: with SO_REUSEPORT each worker binds its own
	 * (listen_fds[worker * nlisten + i]); with systemd's sockets all
	 * workers share the nlisten fds (listen_shared).
	 */
	int *listen_fds;
	unsigned int nlisten;
	bool listen_shared;
	struct worker *workers;
	unsigned int nworkers;
	atomic_bool stopping;		/* SIGTERM: drain */
	atomic_uint reload_gen;		/* SIGHUP: bumped after the swap */
	/*
	 * SIGHUP's settings swap (server_pause()): main asks, every worker
	 * waits in server_pause_point() (from its eventfd's completion,
	 * between requests), main changes *conf and site in place, then
	 * lets them go.  The lock and cond are set up by server_pause_init().
	 */
	atomic_bool pause_req;
	pthread_mutex_t pause_lock;
	pthread_cond_t pause_cond;
	unsigned int paused;		/* workers waiting, under pause_lock */
	unsigned int root_gen;		/* bumped when site.root_fd changes */
};

struct worker {
	struct server *srv;
	unsigned int id;
	pthread_t thread;
	int wake_fd;		/* eventfd: main writes 1 to wake the ring */
	struct stats stats;	/* this worker's only */
	int exit_code;		/* 0, or why it stopped */
	void *loop;		/* worker.c's state */
	unsigned int root_gen;	/* the srv->root_gen its fcache is for */
};

/* The listeners of worker @w. */
const int *worker_listen_fds(const struct worker *w, unsigned int *n);

/*
 * The worker thread (worker.c): sets up its ring, accepts and serves
 * until srv->stopping, then stops accepting, lets its connections finish
 * their responses (at most conf->drain_timeout_ms), closes them, returns.
 */
void *worker_main(void *arg);

/* Wakes @w's ring (stop, reload, stats). */
void worker_wake(struct worker *w);

/*
 * The settings swap.  server_pause(): sets pause_req, wakes every
 * worker, waits until all of them wait in server_pause_point() (true),
 * or @ms pass (false: the ones waiting are let go, nothing may be
 * changed).  server_resume() lets them go.  Between the two, main alone
 * runs: it may change *s->conf and s->site (the workers read them only
 * on their own thread).
 *
 * server_pause_point(): called by a worker in its loop (worker.c, on
 * its eventfd); when a pause is asked, waits until server_resume().
 * Then, when the root changed, flushes the thread's open-file cache
 * (whose entries name files of the old root).  true when it waited: the
 * caller then re-reads what it copied from the configuration (its
 * timeouts).
 */
void server_pause_init(struct server *s);
bool server_pause(struct server *s, unsigned int ms);
void server_resume(struct server *s);
bool server_pause_point(struct worker *w);

/* A referenced TLS configuration (tlsx_config_free() when done). */
struct tlsx_config *server_tls_get(struct server *s);
/* Publishes @cfg (the server takes the caller's reference). */
void server_tls_set(struct server *s, struct tlsx_config *cfg);

/*
 * Builds a frozen server tlsx_config from @c (certs, tickets, ALPN
 * "http/1.1", record layer); NULL with a message in @err.
 */
struct tlsx_config *server_tls_build(const struct tlsxd_conf *c, char *err,
				     size_t errlen);

/*
 * main.c's side (server.c), before the workers start.
 *
 * server_listen(): for each worker and each of conf->listen, a
 * non-blocking SO_REUSEPORT socket bound and listening (backlog
 * TLSXD_BACKLOG): srv->listen_fds, nlisten, listen_shared = false.  An
 * IPv6 any address (":8443", "[::]:8443") is dual-stack.  -1 with
 * "listen ADDR: bind: Address already in use" in @err, or, when another
 * process listens on an address of ours all the same (it bound between
 * our trial bind and ours: listen_check.h), "listen ADDR: another
 * process listens there too (...)".  1 when that check could not run:
 * the listeners are made, @err says why (main warns).
 */
int server_listen(struct server *s, unsigned int nworkers, char *err,
		  size_t errlen);
/* Closes and frees srv->listen_fds. */
void server_listen_close(struct server *s);

/*
 * The document root: O_PATH | O_DIRECTORY, checked to work with
 * openat2(RESOLVE_BENEATH) (a kernel without it: -1 with the message).
 */
int server_root_open(const char *path, char *err, size_t errlen);

/*
 * The record layer the first connection will use with @want: tries
 * TCP_ULP "tlsx", then "tls", on a loopback TCP pair (a socketpair
 * cannot take a ULP).  For a forced layer, *@missing says it is not
 * there (its handshakes will fail).  Needs CAP_NET_ADMIN to load a
 * module: call before dropping privileges.
 */
enum tlsx_record_layer server_probe_record_layer(enum tlsx_record_layer want,
						 bool *missing);

#endif
