// SPDX-License-Identifier: GPL-2.0
/*
 * worker.c - a worker thread's loop (docs/tlsxd.md, "A worker"): one
 * io_uring, multishot accepts on its listeners, the eventfd main writes
 * to wake it, and a once-a-second IORING_OP_TIMEOUT that expires the
 * connections' deadlines (timer.h) and flushes the access log.  The
 * loop is liburing's examples/echo-server.c shape: submit and wait,
 * walk the completions, decode user_data, call the handler, re-arm a
 * multishot request whose completion lacks IORING_CQE_F_MORE.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conn.h"
#include "fcache.h"

/* A small ring suffices: each connection has at most one op in flight. */
#define RING_ENTRIES	1024

#define UD_VAL_SHIFT	3

/* How long a closing connection's unread input is read away (nginx's). */
#define LINGER_MS	5000

static uint64_t ud_make(enum op_tag tag, uint64_t val)
{
	return (val << UD_VAL_SHIFT) | tag;
}

const int *worker_listen_fds(const struct worker *w, unsigned int *n)
{
	const struct server *s = w->srv;

	*n = s->nlisten;
	if (s->listen_shared)
		return s->listen_fds;
	return s->listen_fds + (size_t)w->id * s->nlisten;
}

void worker_wake(struct worker *w)
{
	uint64_t one = 1;

	/* A full counter (never, at 2^64 - 1) still leaves it readable. */
	if (write(w->wake_fd, &one, sizeof(one)) < 0)
		return;
}

static struct io_uring_sqe *sqe_get(struct loop *lp)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&lp->ring);

	if (!sqe) {
		io_uring_submit(&lp->ring);
		sqe = io_uring_get_sqe(&lp->ring);
	}
	return sqe;
}

static void clock_update(struct loop *lp)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	lp->now_ms = (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
	lp->now = time(NULL);
}

static void arm_accept(struct loop *lp, unsigned int i)
{
	struct io_uring_sqe *sqe = sqe_get(lp);

	/* accept4()'s flags: connections are non-blocking from the start. */
	io_uring_prep_multishot_accept(sqe, lp->listen_fds[i], NULL, NULL,
				       SOCK_NONBLOCK | SOCK_CLOEXEC);
	io_uring_sqe_set_data64(sqe, ud_make(TAG_ACCEPT, i));
	lp->accepts_armed |= 1u << i;
}

static void start_drain(struct loop *lp);

/*
 * The timeouts from the configuration (again after a SIGHUP: a timer
 * armed before keeps its deadline; timer.h's lists stay ordered but for
 * a shortened timeout, whose new timers may then fire late, at most at
 * the deadline of those armed before the reload).
 */
static void set_timeouts(struct loop *lp)
{
	lp->timers.l[TIMER_HANDSHAKE].timeout_ms =
		lp->conf->handshake_timeout_ms;
	lp->timers.l[TIMER_HEADER].timeout_ms = lp->conf->header_timeout_ms;
	lp->timers.l[TIMER_IDLE].timeout_ms = lp->conf->idle_timeout_ms;
	lp->timers.l[TIMER_SEND].timeout_ms = lp->conf->send_timeout_ms;
	lp->timers.l[TIMER_H2_SETTINGS].timeout_ms =
		lp->conf->h2_settings_timeout_ms;
}

/*
 * The eventfd by POLLIN, then read(2): main's eventfd may be
 * non-blocking, and an IORING_OP_READ on an O_NONBLOCK file completes at
 * once with -EAGAIN instead of waiting.
 */
static void arm_wake(struct loop *lp)
{
	struct io_uring_sqe *sqe = sqe_get(lp);

	io_uring_prep_poll_add(sqe, lp->w->wake_fd, POLLIN);
	io_uring_sqe_set_data64(sqe, ud_make(TAG_WAKE, 0));
}

static void on_wake(struct loop *lp)
{
	if (read(lp->w->wake_fd, &lp->wake_val, sizeof(lp->wake_val)) < 0 &&
	    errno != EAGAIN)
		log_msg(LOG_WARN, "worker %u: eventfd: %s", lp->w->id,
			strerror(errno));
	arm_wake(lp);
	/* SIGHUP: main swaps the settings while every worker waits here. */
	if (server_pause_point(lp->w))
		set_timeouts(lp);
	/* Stop; counters are read by main. */
	if (atomic_load(&lp->srv->stopping))
		start_drain(lp);
}

static void arm_tick(struct loop *lp)
{
	struct io_uring_sqe *sqe = sqe_get(lp);

	lp->tick.tv_sec = 1;
	lp->tick.tv_nsec = 0;
	io_uring_prep_timeout(sqe, &lp->tick, 0, 0);
	io_uring_sqe_set_data64(sqe, ud_make(TAG_TICK, 0));
}

/* SIGTERM: no more accepts, idle connections closed, the rest finish. */
/*
 * A drain stops listening, not only accepting: a connection the kernel
 * would queue for an accept that never comes would hang until the exit
 * and be reset, and a load balancer (HAProxy) that saw its connect
 * succeed cannot move it.  So what is queued already is accepted (and
 * served, one request: conn_accept() while stopping), then the socket
 * stops listening (shutdown(2) of a listener: later SYNs are refused,
 * and the balancer retries them on another server).  systemd's sockets
 * are its own to keep: those only stop being accepted from.
 */
static void stop_listening(struct loop *lp, unsigned int i)
{
	int fd = lp->listen_fds[i], c;
	bool proxy = lp->conf->listen_proxy >> i & 1;

	if (lp->srv->listen_shared)
		return;
	while ((c = accept4(fd, NULL, NULL,
			    SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0)
		conn_accept(lp, c, proxy);
	shutdown(fd, SHUT_RD);
}

static void start_drain(struct loop *lp)
{
	struct conn *c, *next;
	unsigned int i;

	if (lp->stopping)
		return;
	lp->stopping = true;
	lp->drain_deadline = lp->now_ms + lp->conf->drain_timeout_ms;
	for (i = 0; i < lp->nlisten; i++)
		stop_listening(lp, i);
	for (i = 0; i < lp->nlisten; i++) {
		struct io_uring_sqe *sqe;

		if (!(lp->accepts_armed & (1u << i)))
			continue;
		sqe = sqe_get(lp);
		io_uring_prep_cancel64(sqe, ud_make(TAG_ACCEPT, i), 0);
		io_uring_sqe_set_data64(sqe, TAG_CANCEL);
	}
	for (c = lp->live; c; c = next) {
		next = c->next;
		conn_drain(lp, c);
	}
}

static void abort_all(struct loop *lp)
{
	struct conn *c, *next;

	for (c = lp->live; c; c = next) {
		next = c->next;
		conn_abort(lp, c);
	}
}

static void on_accept(struct loop *lp, unsigned int i, struct io_uring_cqe *cqe)
{
	if (cqe->res >= 0)
		conn_accept(lp, cqe->res, !lp->srv->listen_shared &&
			    lp->conf->listen_proxy >> i & 1);
	else if (cqe->res != -ECANCELED && cqe->res != -EAGAIN)
		log_msg(LOG_WARN, "worker %u: accept: %s", lp->w->id,
			strerror(-cqe->res));
	if (cqe->flags & IORING_CQE_F_MORE)
		return;
	lp->accepts_armed &= ~(1u << i);
	/*
	 * Ended: re-armed now, or after an error (EMFILE...) at the next
	 * tick so that a persistent one does not spin.
	 */
	if (!lp->stopping && cqe->res >= 0)
		arm_accept(lp, i);
}

static void on_tick(struct loop *lp)
{
	struct timer_node *n;
	unsigned int i;
	int k;

	arm_tick(lp);
	for (k = 0; k < TIMER_KINDS; k++)
		while ((n = timer_expired(&lp->timers, k, lp->now_ms))) {
			/* Not a connection's own timer: conn_h2.c's. */
			if (k == TIMER_H2_SETTINGS) {
				conn_h2_settings_timeout(lp, n);
				continue;
			}
			conn_timeout(lp, (struct conn *)((char *)n -
				     offsetof(struct conn, timer)), k);
		}
	if (lp->alog)
		access_log_flush(lp->alog);
	if (atomic_load(&lp->srv->stopping))
		start_drain(lp);
	if (lp->stopping)
		return;
	for (i = 0; i < lp->nlisten; i++)
		if (!(lp->accepts_armed & (1u << i)))
			arm_accept(lp, i);
}

static void on_cqe(struct loop *lp, struct io_uring_cqe *cqe)
{
	uint64_t ud = io_uring_cqe_get_data64(cqe);
	struct conn *c;

	switch (ud & UD_TAG_MASK) {
	case TAG_CONN:
		c = (struct conn *)(uintptr_t)(ud & UD_PTR_MASK);
		/* A completion for a closed (and maybe reused) conn. */
		if (c->gen != (uint16_t)(ud >> UD_GEN_SHIFT) ||
		    c->op == OP_NONE)
			return;
		conn_complete(lp, c, cqe->res, cqe->flags);
		break;
	case TAG_ACCEPT:
		on_accept(lp, ud >> UD_VAL_SHIFT, cqe);
		break;
	case TAG_TICK:
		on_tick(lp);
		break;
	case TAG_WAKE:
		on_wake(lp);
		break;
	case TAG_CANCEL:
		break;
	}
}

static int ring_init(struct loop *lp)
{
	struct io_uring_params p;
	unsigned int cq = 2 * lp->conf->max_conns + 2 * RING_ENTRIES;
	int ret;

	memset(&p, 0, sizeof(p));
	p.flags = IORING_SETUP_CQSIZE | IORING_SETUP_SINGLE_ISSUER |
		  IORING_SETUP_DEFER_TASKRUN;
	p.cq_entries = cq;
	ret = io_uring_queue_init_params(RING_ENTRIES, &lp->ring, &p);
	if (ret == -EINVAL) {
		/* Before 6.1: without the single-issuer hints. */
		memset(&p, 0, sizeof(p));
		p.flags = IORING_SETUP_CQSIZE;
		p.cq_entries = cq;
		ret = io_uring_queue_init_params(RING_ENTRIES, &lp->ring, &p);
	}
	return ret;
}

static struct loop *loop_new(struct worker *w)
{
	const struct tlsxd_conf *conf = w->srv->conf;
	unsigned int to[TIMER_KINDS];
	struct loop *lp = calloc(1, sizeof(*lp));
	int ret;

	if (!lp)
		return NULL;
	lp->w = w;
	lp->srv = w->srv;
	lp->conf = conf;
	lp->st = &w->stats;
	lp->listen_fds = worker_listen_fds(w, &lp->nlisten);
	if (lp->nlisten > 32)
		lp->nlisten = 32;	/* accepts_armed's bits; CONF_LISTEN_MAX 8 */
	/* A head at the limit and what pipelining brings behind it. */
	lp->req_cap = conf->http.header_bytes_max + 4096;
	lp->gather_cap = 16384;
	/*
	 * auto is sendfile(2): one synchronous call per turn, no pipe and
	 * no io-wq hop, and less CPU per GB than splice as measured (the
	 * comment at SPLICE_CHUNK, conn.c).  Splice runs in io-wq, so a
	 * page-cache miss does not stall the loop: --body splice for
	 * roots larger than memory.
	 */
	lp->splice = conf->body == CONF_BODY_SPLICE;
	to[TIMER_HANDSHAKE] = conf->handshake_timeout_ms;
	to[TIMER_HEADER] = conf->header_timeout_ms;
	to[TIMER_IDLE] = conf->idle_timeout_ms;
	to[TIMER_SEND] = conf->send_timeout_ms;
	to[TIMER_LINGER] = LINGER_MS;
	to[TIMER_H2_SETTINGS] = conf->h2_settings_timeout_ms;
	timers_init(&lp->timers, to);
	lp->hs_out = malloc(TLSX_STEP_OUT_MIN);
	lp->gather = malloc(lp->gather_cap);
	if (!lp->hs_out || !lp->gather)
		goto fail;
	if (w->srv->alog) {
		lp->alog = access_log_buf_new(w->srv->alog);
		if (!lp->alog)
			goto fail;
	}
	ret = ring_init(lp);
	if (ret < 0) {
		log_msg(LOG_ERR, "worker %u: io_uring: %s", w->id,
			strerror(-ret));
		goto fail_ring;
	}
	return lp;
fail:
	log_msg(LOG_ERR, "worker %u: out of memory", w->id);
fail_ring:
	if (lp->alog)
		access_log_buf_free(lp->alog);
	free(lp->hs_out);
	free(lp->gather);
	free(lp);
	return NULL;
}

static void loop_free(struct loop *lp)
{
	/* Cancels what is left (the tick, the eventfd read). */
	io_uring_queue_exit(&lp->ring);
	conn_bufs_free(lp);
	conn_pool_free(lp);
	if (lp->alog) {
		access_log_flush(lp->alog);
		access_log_buf_free(lp->alog);
	}
	free(lp->hs_out);
	free(lp->gather);
	conn_h2_worker_free(lp);
	free(lp);
}

void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int fc_cap = w->srv->conf->open_file_cache;
	struct fcache *fc;
	struct loop *lp;
	unsigned int i;
	bool aborted = false;

	/* main ignores SIGPIPE: sendfile(2) to a reset peer is EPIPE. */
	lp = loop_new(w);
	if (!lp) {
		w->exit_code = 1;
		return NULL;
	}
	w->loop = lp;
	/* resp.c opens files through the thread's cache (fcache.h). */
	fc = fc_cap ? fcache_new(fc_cap) : NULL;
	if (fc_cap && !fc)
		log_msg(LOG_WARN, "worker %u: no open-file cache: out of memory",
			w->id);
	/* Its counters in the worker's (SIGUSR1, the exit dump). */
	fcache_set_stats(fc, &w->stats);
	fcache_set_thread(fc);
	clock_update(lp);
	for (i = 0; i < lp->nlisten; i++)
		arm_accept(lp, i);
	arm_wake(lp);
	arm_tick(lp);
	if (atomic_load(&w->srv->stopping))
		start_drain(lp);
	for (;;) {
		struct io_uring_cqe *cqe;
		unsigned int head, seen = 0;
		int ret;

		if (lp->stopping && !lp->nconns && !lp->accepts_armed)
			break;
		ret = io_uring_submit_and_wait(&lp->ring, 1);
		if (ret < 0 && ret != -EINTR && ret != -ETIME &&
		    ret != -EBUSY) {
			log_msg(LOG_ERR, "worker %u: io_uring_enter: %s",
				w->id, strerror(-ret));
			w->exit_code = 1;
			abort_all(lp);
			break;
		}
		clock_update(lp);
		io_uring_for_each_cqe(&lp->ring, head, cqe) {
			on_cqe(lp, cqe);
			seen++;
		}
		io_uring_cq_advance(&lp->ring, seen);
		if (lp->stopping && !aborted &&
		    lp->now_ms >= lp->drain_deadline) {
			/* Drain over: what is left is cut. */
			abort_all(lp);
			aborted = true;
		}
	}
	loop_free(lp);
	fcache_set_thread(NULL);
	fcache_free(fc);
	w->loop = NULL;
	return NULL;
}
