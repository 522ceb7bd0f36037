// SPDX-License-Identifier: GPL-2.0
/*
 * conn.c - a connection's life on the worker's ring (docs/tlsxd.md): its
 * states, the requests, keep-alive, linger, close and timeouts.  How
 * bytes move is the record layer's, reached through the connection's
 * table (conn_ops(), struct conn_rl_ops in conn_priv.h, picked at the
 * handoff): the handshake in conn_hs.c, bodies and the receive ring of
 * the kernel modes in conn_kernel.c, libtlsx's sealing in conn_user.c.
 * They report how a step ended (enum step) and the closing is done here.
 *
 *   idle/head  kernel modes: IORING_OP_RECV into a buffer the kernel
 *              picks from the worker's provided-buffer ring when bytes
 *              arrive (an idle connection holds none), copied into the
 *              request buffer; -EIO means a control record (KeyUpdate,
 *              alert, close_notify) is next, which only recvmsg(2) with
 *              a cmsg buffer takes: tlsx_read() handles it.  Userspace
 *              layer: IORING_OP_POLL_ADD POLLIN, then tlsx_read(), again
 *              while tlsx_pending() says libtlsx holds input (plaintext
 *              or whole records may wait inside libtlsx, so the
 *              socket's readiness is not the whole story; without them
 *              a further read(2) would only return EAGAIN).  Then
 *              http_req_parse_from(), which resumes where its last call
 *              stopped: a head that arrives a byte at a time costs
 *              linear work;
 *   send       the plan (resp.h), piece by piece, by the record layer's
 *              step (conn_kernel_send(), conn_user_send()), at most
 *              SEND_BUDGET bytes per turn; a full socket waits on
 *              POLLOUT;
 *   then the next pipelined head, keep-alive, or close (lingering when
 *   input is left unread).
 */
#include <errno.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conn_priv.h"

/* Request buffers kept for reuse, per worker. */
#define ACT_CACHE_MAX	64

/* ------------------------------------------------------------------ */
/* Buffers                                                             */
/* ------------------------------------------------------------------ */

static struct active *act_get(struct loop *lp)
{
	struct active *a = lp->act_free;

	if (a) {
		lp->act_free = a->next;
		lp->nact_free--;
	} else {
		a = malloc(sizeof(*a) + lp->req_cap);
		if (!a)
			return NULL;
	}
	a->next = NULL;
	a->scan = (struct http_scan)HTTP_SCAN_INIT;
	a->len = 0;
	a->head_len = 0;
	a->parsed = false;
	a->logged = false;
	a->resp.fd = -1;
	a->resp.nseg = 0;
	return a;
}

static void act_put(struct loop *lp, struct active *a)
{
	resp_release(&a->resp);
	if (lp->nact_free >= ACT_CACHE_MAX) {
		free(a);
		return;
	}
	a->next = lp->act_free;
	lp->act_free = a;
	lp->nact_free++;
}

static void wipe_free(void *p, size_t len)
{
	if (!p)
		return;
	explicit_bzero(p, len);
	free(p);
}

/* ------------------------------------------------------------------ */
/* Close                                                               */
/* ------------------------------------------------------------------ */

static void live_unlink(struct loop *lp, struct conn *c)
{
	if (c->prev)
		c->prev->next = c->next;
	else
		lp->live = c->next;
	if (c->next)
		c->next->prev = c->prev;
	c->next = NULL;
	c->prev = NULL;
}

/*
 * The access log line and the counters of a response, once: when it
 * was sent, or when the connection ended under it (the bytes sent so
 * far, as nginx logs a cut response).
 */
static void log_response(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;

	if (!a || a->logged || c->state != CS_SEND)
		return;
	a->logged = true;
	stats_add(lp->st, STAT_REQUESTS, 1);
	stats_add(lp->st, stats_status_id(a->resp.status), 1);
	stats_add(lp->st, STAT_BYTES_BODY, a->body_sent);
	if (lp->alog)
		access_log_add(lp->alog, &c->peer.sa, a->parsed ? &a->req : NULL,
			       a->resp.status, a->body_sent, lp->now);
}

/* Nothing in flight: everything goes back. */
static void finish_close(struct loop *lp, struct conn *c)
{
	struct tlsx_conn_info info;

	timer_disarm(&c->timer);
	if (c->tls && !tlsx_conn_info(c->tls, &info))
		stats_add(lp->st, STAT_KEY_UPDATES, info.key_updates_sent);
	if (c->tls)
		tlsx_conn_free(c->tls);
	c->tls = NULL;
	close(c->fd);
	c->fd = -1;
	wipe_free(c->hs_rec, c->hs_rec_len);
	c->hs_rec = NULL;
	wipe_free(c->pend, c->pend_len);
	c->pend = NULL;
	conn_h2_free(c);
	if (c->a)
		act_put(lp, c->a);
	c->a = NULL;
	conn_kernel_pipe_release(lp, c);
	stats_add(lp->st, STAT_CONN_ACTIVE, -1);
	live_unlink(lp, c);
	lp->nconns--;
	/* A stale completion carries the old generation: dropped. */
	c->gen++;
	c->state = CS_CLOSING;
	c->next = lp->free;
	lp->free = c;
	lp->nfree++;
}

/*
 * close_notify (RFC 8446 6.1) on an established @c, if the socket has
 * room for it now: libtlsx never waits on a non-blocking socket
 * (TLSX_WANT_WRITE, nothing sent), so a reader that never reads cannot
 * stall the worker; it just gets no close_notify.
 */
static void close_notify(struct conn *c)
{
	tlsx_close(c->tls);
}

/*
 * Closes @c: close_notify first when @graceful and the layer is up (and
 * not sent already: CS_LINGER).  An operation in flight is cancelled (and
 * the socket shut down so that it ends now); the conn is freed at its
 * completion.
 */
void conn_close(struct loop *lp, struct conn *c, bool graceful)
{
	struct io_uring_sqe *sqe;

	if (c->state == CS_CLOSING)
		return;
	log_response(lp, c);
	timer_disarm(&c->timer);
	if (graceful && c->established && c->state != CS_LINGER)
		close_notify(c);
	if (c->op == OP_NONE) {
		finish_close(lp, c);
		return;
	}
	c->state = CS_CLOSING;
	shutdown(c->fd, SHUT_RDWR);
	sqe = conn_sqe(lp);
	io_uring_prep_cancel64(sqe, conn_ud(c), 0);
	io_uring_sqe_set_data64(sqe, TAG_CANCEL);
}

/* A peer gone mid-way: counted once, closed, nothing logged. */
void conn_reset(struct loop *lp, struct conn *c)
{
	stats_add(lp->st, STAT_CLIENT_RESET, 1);
	conn_close(lp, c, false);
}

/*
 * A step that ended @c (STEP_CLOSE, STEP_CLOSE_NOTIFY, STEP_RESET): the
 * layers' files say how, the closing is done here.
 */
static void step_end(struct loop *lp, struct conn *c, enum step r)
{
	switch (r) {
	case STEP_PROGRESS:
	case STEP_WAIT:
		break;
	case STEP_CLOSE:
		conn_close(lp, c, false);
		break;
	case STEP_CLOSE_NOTIFY:
		conn_close(lp, c, true);
		break;
	case STEP_RESET:
		conn_reset(lp, c);
		break;
	}
}

/* A libtlsx error on @c: a reset is counted as one. */
void conn_tls_failed(struct loop *lp, struct conn *c, long err)
{
	step_end(lp, c, conn_tls_step(c, err));
}

void conn_abort(struct loop *lp, struct conn *c)
{
	conn_close(lp, c, false);
}


void conn_accept(struct loop *lp, int fd, bool proxy)
{
	const struct tlsxd_conf *conf = lp->conf;
	struct tlsx_config *cfg;
	struct conn *c;
	uint16_t gen;
	int one = 1;

	if (lp->nconns >= conf->max_conns) {
		/* A hard bound: the excess is refused, never queued. */
		close(fd);
		stats_add(lp->st, STAT_CONN_REFUSED_MAX, 1);
		return;
	}
	c = lp->free;
	if (c) {
		lp->free = c->next;
		lp->nfree--;
	} else {
		c = calloc(1, sizeof(*c));
		if (!c) {
			close(fd);
			return;
		}
	}
	gen = c->gen;
	memset(c, 0, sizeof(*c));
	c->gen = gen;
	timer_node_init(&c->timer);
	c->fd = fd;
	c->state = CS_HANDSHAKE;
	c->op = OP_NONE;
	/*
	 * The head, then the body, are separate writes on the userspace
	 * layer and without MSG_MORE: Nagle would hold the second for the
	 * client's delayed ACK.
	 */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (lp->alog || log_debug_enabled()) {
		socklen_t sl = sizeof(c->peer);

		if (getpeername(fd, &c->peer.sa, &sl))
			c->peer.sa.sa_family = AF_UNSPEC;
	}
	cfg = server_tls_get(lp->srv);
	c->tls = cfg ? tlsx_conn_new(cfg, fd) : NULL;
	if (cfg)
		tlsx_config_free(cfg);
	c->prev = NULL;
	c->next = lp->live;
	if (lp->live)
		lp->live->prev = c;
	lp->live = c;
	lp->nconns++;
	stats_add(lp->st, STAT_CONN_ACCEPTED, 1);
	stats_add(lp->st, STAT_CONN_ACTIVE, 1);
	/* Accepted while draining (worker.c's stop_listening()): one request. */
	c->close_after = lp->stopping;
	if (proxy)
		conn_proxy_start(lp, c);
	else
		conn_hs_start(lp, c, false);
}

/* ------------------------------------------------------------------ */
/* Sending a response                                                  */
/* ------------------------------------------------------------------ */


static void send_done(struct loop *lp, struct conn *c);

/*
 * Pays what libtlsx owes (a KeyUpdate reply, tlsx_conn_flush()): true
 * when it went; false when @c now waits on POLLOUT for room, or failed.
 */
static bool owed_paid(struct loop *lp, struct conn *c)
{
	int ret = tlsx_conn_flush(c->tls);

	if (!ret)
		return true;
	if (ret == TLSX_WANT_WRITE)
		conn_poll(lp, c, true);
	else
		conn_tls_failed(lp, c, ret);
	return false;
}

/* Sends what it can of the plan; returns with an op in flight, or done. */
static void send_more(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;
	size_t budget = SEND_BUDGET;
	enum step r;

	/*
	 * The kernel modes send bodies past libtlsx: a KeyUpdate the
	 * client asked for goes first (RFC 8446 4.6.3), when the socket
	 * has room for it.  (tlsx_write() does this through libtlsx.)
	 */
	if (conn_ops(c)->tx_past_libtlsx && tlsx_conn_want_write(c->tls) &&
	    !owed_paid(lp, c))
		return;
	while (!conn_send_finished(a)) {
		if (!budget) {
			/* Others' turn: POLLOUT completes at once. */
			conn_poll(lp, c, true);
			return;
		}
		r = conn_ops(c)->send(lp, c, &budget);
		if (r != STEP_PROGRESS) {
			step_end(lp, c, r);
			return;
		}
		/* The send timeout counts time without progress. */
		timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	}
	/* A record sealed but not yet sent is still ours to push. */
	r = conn_ops(c)->send_end(lp, c);
	if (r != STEP_PROGRESS) {
		step_end(lp, c, r);
		return;
	}
	send_done(lp, c);
}

/* A send or splice out of ours went (@res bytes, or failed). */
static void send_complete(struct loop *lp, struct conn *c, int res,
			  bool splice)
{
	if (res == -EAGAIN || res == -EINTR) {
		conn_poll(lp, c, true);
		return;
	}
	if (res <= 0) {
		if (!res || conn_is_reset(-res))
			conn_reset(lp, c);
		else
			conn_close(lp, c, false);
		return;
	}
	if (splice) {
		c->pipe_fill -= res;
		stats_add(lp->st, STAT_BYTES_SPLICE, res);
	}
	conn_advance(c->a, res);
	timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	send_more(lp, c);
}

static void begin_send(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;
	unsigned int i;

	c->state = CS_SEND;
	a->piece = -1;
	a->poff = 0;
	a->body_sent = 0;
	for (i = 0; i < a->resp.nseg; i++) {
		if (a->resp.seg[i].mem || !a->resp.seg[i].len)
			continue;
		stats_add(lp->st, conn_ops(c)->body_stat(lp), 1);
		break;
	}
	timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	send_more(lp, c);
}

void conn_send_plan(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;

	c->state = CS_SEND;
	a->piece = -1;
	a->poff = 0;
	a->body_sent = 0;
	timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	send_more(lp, c);
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */
/* ------------------------------------------------------------------ */

static void start_error(struct loop *lp, struct conn *c, int status)
{
	struct active *a = c->a;
	bool head = a->len >= 5 && !memcmp(a->buf, "HEAD ", 5);

	a->parsed = false;
	a->head_len = a->len;
	/* After a parse failure the framing is lost: always close. */
	resp_error(&lp->srv->site, status, lp->now, RESP_F_CLOSE, head,
		   a->rbuf, sizeof(a->rbuf), &a->resp);
	a->resp.close = true;
	begin_send(lp, c);
}

/*
 * The kernel's tls cannot change keys (6.12): keep-alive ends before the
 * sending key's record limit (RFC 8446 5.5), as a server ends it after
 * keepalive_requests.  The response that nears the limit says
 * "Connection: close" (planned again with it); one that no longer fits
 * is not started: the connection closes as an idle one may (RFC 9112
 * 9.6) and the client sends the request again on a new one (9.3.1).
 * Only a connection's first response goes on when it cannot fit whole:
 * it is cut short at the limit (conn_kernel.c).  false: @c closed.
 */
static bool key_plan_keeps_alive(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;

	switch (conn_ops(c)->key_plan(c)) {
	case KEY_FITS:
		return true;
	case KEY_FULL:
		if (c->requests) {
			stats_add(lp->st, STAT_KEY_LIMIT_CLOSE, 1);
			resp_release(&a->resp);
			conn_close(lp, c, true);
			return false;
		}
		break;
	case KEY_LAST:
		stats_add(lp->st, STAT_KEY_LIMIT_CLOSE, 1);
		break;
	}
	resp_release(&a->resp);
	resp_plan(&lp->srv->site, &a->req, lp->now, RESP_F_CLOSE, a->rbuf,
		  sizeof(a->rbuf), &a->resp);
	a->resp.close = true;
	return true;
}

static void start_response(struct loop *lp, struct conn *c, size_t head_len)
{
	struct active *a = c->a;
	unsigned int flags = 0;

	a->parsed = true;
	a->head_len = head_len;
	/* A body a GET may carry (body_max) is read and dropped. */
	c->discard = a->req.has_content_length ? a->req.content_length : 0;
	if (lp->stopping || c->close_after ||
	    c->requests + 1 >= lp->conf->keepalive_requests)
		flags |= RESP_F_CLOSE;
	/*
	 * RFC 9110 10.1.1: answered without 100 (Continue), the client may
	 * or may not send the body: the framing is unknown, so close.
	 */
	if (a->req.expect_continue && c->discard)
		flags |= RESP_F_CLOSE;
	resp_plan(&lp->srv->site, &a->req, lp->now, flags, a->rbuf,
		  sizeof(a->rbuf), &a->resp);
	if (!(flags & RESP_F_CLOSE) && !key_plan_keeps_alive(lp, c))
		return;
	if (flags & RESP_F_CLOSE)
		a->resp.close = true;
	begin_send(lp, c);
}

/*
 * What the buffer holds: a body to drop, then a head.  true when a
 * response started (or the connection closes), false for more bytes.
 */
static bool process(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;
	int r;

	if (c->discard) {
		size_t d = c->discard < a->len ? c->discard : a->len;

		memmove(a->buf, a->buf + d, a->len - d);
		a->len -= d;
		c->discard -= d;
		a->scan = (struct http_scan)HTTP_SCAN_INIT;
		if (!a->len)
			return false;
	}
	/* Only the bytes that came since the last call are scanned. */
	r = http_req_parse_from(&a->req, &a->scan, a->buf, a->len,
				&lp->conf->http);
	if (r > 0) {
		start_response(lp, c, r);
		return true;
	}
	if (r < 0) {
		start_error(lp, c, -r);
		return true;
	}
	if (a->len >= lp->req_cap) {
		/* The parser's limits are below the buffer: a safety net. */
		start_error(lp, c, 431);
		return true;
	}
	return false;
}

/*
 * A write libtlsx owes (the KeyUpdate a client asked for, RFC 8446
 * 4.6.3) that the socket has no room for: the connection waits on
 * POLLOUT, reading nothing more, under the send timeout, which closes a
 * client that asks and never reads.  true when it waits (or closed).
 */
static bool owed_write_wait(struct loop *lp, struct conn *c)
{
	int ret;

	if (!c->established || !tlsx_conn_want_write(c->tls))
		return false;
	ret = tlsx_conn_flush(c->tls);
	if (!ret)
		return false;
	if (ret == TLSX_WANT_WRITE) {
		stats_add(lp->st, STAT_TLS_OWED_WAIT, 1);
		timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
		conn_poll(lp, c, true);
	} else {
		conn_tls_failed(lp, c, ret);
	}
	return true;
}

/*
 * Waits for request bytes as the layer does (conn_ops(): the kernel modes in
 * IORING_OP_RECV with a buffer the kernel picks from the worker's ring
 * when they arrive, the userspace layer on POLLIN).  A write owed goes
 * first.
 */
static void wait_input(struct loop *lp, struct conn *c)
{
	if (owed_write_wait(lp, c))
		return;
	conn_ops(c)->wait_input(lp, c);
}

/* @c's request buffer, taken from the cache if it holds none. */
static struct active *active_of(struct loop *lp, struct conn *c)
{
	if (!c->a)
		c->a = act_get(lp);
	return c->a;
}

struct active *conn_active_get(struct loop *lp, struct conn *c)
{
	return active_of(lp, c);
}

/* While @c waits for input, an empty request buffer goes back. */
static void active_drop_empty(struct loop *lp, struct conn *c)
{
	if (c->a && !c->a->len) {
		act_put(lp, c->a);
		c->a = NULL;
	}
}

/* @n request bytes are in c->a: the header timeout runs from the first. */
static void bytes_arrived(struct loop *lp, struct conn *c, size_t n)
{
	if (c->state == CS_IDLE && !c->discard) {
		c->state = CS_HEAD;
		timer_arm(&lp->timers, &c->timer, TIMER_HEADER, lp->now_ms);
	}
	c->a->len += n;
}

/* @n request bytes arrived: into the connection's buffer. */
static bool take_bytes(struct loop *lp, struct conn *c, const void *p,
		       size_t n)
{
	struct active *a = active_of(lp, c);

	if (!a)
		return false;
	memcpy(a->buf + a->len, p, n);
	bytes_arrived(lp, c, n);
	return true;
}

static void conn_read(struct loop *lp, struct conn *c);

/* conn_read() again after the ring's other completions (IORING_OP_NOP). */
static void conn_read_later(struct loop *lp, struct conn *c)
{
	struct io_uring_sqe *sqe = conn_sqe(lp);

	io_uring_prep_nop(sqe);
	conn_set_op(c, sqe, OP_YIELD);
}

void conn_yield(struct loop *lp, struct conn *c)
{
	conn_read_later(lp, c);
}

/*
 * POLLOUT for a write owed while reading (owed_write_wait()): paid, the
 * state's own timeout again, and reading goes on.
 */
static void owed_write_ready(struct loop *lp, struct conn *c)
{
	if (!owed_paid(lp, c))
		return;
	timer_arm(&lp->timers, &c->timer,
		  c->state == CS_HEAD ? TIMER_HEADER : TIMER_IDLE, lp->now_ms);
	conn_read(lp, c);
}

/*
 * When the request buffer wants more: tlsx_read() if libtlsx holds input
 * (the userspace layer's tlsx_pending()), else wait as the layer does
 * (on the userspace layer POLLIN, which fires at once if the socket has
 * bytes: a record read in part, more than one read took; the read(2)
 * saved is the one that would return EAGAIN).
 */
static void read_or_wait(struct loop *lp, struct conn *c)
{
	if (conn_ops(c)->input_kept(c)) {
		conn_read(lp, c);
		return;
	}
	active_drop_empty(lp, c);
	wait_input(lp, c);
}

/*
 * An IORING_OP_RECV of ours: bytes in ring buffer @bid (given back at
 * once), or -EIO: a control record (KeyUpdate, alert, close_notify)
 * comes next, which a plain recv cannot take (net/tls wants a cmsg
 * buffer for it): tlsx_read() handles it.  -ENOBUFS: every ring buffer
 * was taken in this round; this connection waits on POLLIN instead.
 */
static void recv_buf_done(struct loop *lp, struct conn *c, int res, int bid)
{
	bool ok = true;

	if (res > 0 && bid >= 0)
		ok = take_bytes(lp, c, conn_kernel_buf(lp, bid), res);
	if (bid >= 0)
		conn_kernel_buf_recycle(lp, bid);
	if (res > 0) {
		if (!ok)
			conn_close(lp, c, false);
		else if (!process(lp, c))
			wait_input(lp, c);
		return;
	}
	if (res == -ENOBUFS) {
		conn_poll(lp, c, false);
		return;
	}
	if (res == -EIO) {
		conn_read(lp, c);
		return;
	}
	/* 0: a TCP close without close_notify (RFC 8446 6.1). */
	if (res < 0 && conn_is_reset(-res))
		conn_reset(lp, c);
	else if (res < 0)
		/*
		 * A record the kernel refused (a bad tag, over the size
		 * limit): its alert, as tlsx_read() would send it.
		 */
		conn_tls_failed(lp, c, tlsx_conn_rx_failed(c->tls, -res));
	else
		conn_close(lp, c, false);
}

/*
 * Reads into the request buffer until a head is whole or the layer has
 * nothing more (TLSX_WANT_READ: wait_input(); on the userspace layer
 * also when tlsx_pending() is 0 after a read).  An empty buffer goes
 * back to the worker while waiting.
 */
static void conn_read(struct loop *lp, struct conn *c)
{
	for (;;) {
		struct active *a = active_of(lp, c);
		ssize_t n;

		if (!a) {
			conn_close(lp, c, false);
			return;
		}
		n = tlsx_read(c->tls, a->buf + a->len, lp->req_cap - a->len);
		if (n > 0) {
			bytes_arrived(lp, c, n);
			if (process(lp, c))
				return;
			if (!conn_ops(c)->read_again(c)) {
				read_or_wait(lp, c);
				return;
			}
			continue;
		}
		if (n == TLSX_WANT_WRITE) {
			/* libtlsx reads nothing until it is paid. */
			active_drop_empty(lp, c);
			if (!owed_write_wait(lp, c))
				conn_read_later(lp, c);
			return;
		}
		if (n == TLSX_WANT_READ) {
			active_drop_empty(lp, c);
			/*
			 * The call met its bound with records still kept
			 * inside libtlsx: the others' turn, then read on
			 * (POLLIN would not fire for them).
			 */
			if (conn_ops(c)->input_kept(c))
				conn_read_later(lp, c);
			else
				wait_input(lp, c);
			return;
		}
		/* 0: the peer's close_notify; else a reset, EOF or an alert. */
		if (!n)
			conn_close(lp, c, true);
		else
			conn_tls_failed(lp, c, n);
		return;
	}
}

/* Waits for the next request; @first: the one after the handshake. */
void conn_to_idle(struct loop *lp, struct conn *c, bool first)
{
	if (c->h2) {
		conn_h2_pump(lp, c);
		return;
	}
	c->state = CS_IDLE;
	/* Until its first request a client gets the header timeout. */
	timer_arm(&lp->timers, &c->timer, first ? TIMER_HEADER : TIMER_IDLE,
		  lp->now_ms);
	/*
	 * After the handshake the request often follows the client's
	 * Finished at once: read it now where the layer says so.
	 */
	if (first && conn_ops(c)->read_at_handoff)
		conn_read(lp, c);
	else
		read_or_wait(lp, c);
}

/*
 * The last response went.  Closing now on input still unread (the rest
 * of a refused head, pipelined requests, a body) would make the kernel
 * answer with a RST, which can destroy the response before the client
 * read it (RFC 9112 9.6): close_notify and our FIN first, then the
 * client's bytes read away until its FIN, at most TIMER_LINGER.
 */
static void conn_linger(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;
	int unread = 0;

	if (ioctl(c->fd, FIONREAD, &unread))
		unread = 0;
	if (!unread && a->parsed && a->len == a->head_len && !c->discard) {
		conn_close(lp, c, true);
		return;
	}
	log_response(lp, c);
	if (c->established)
		close_notify(c);
	shutdown(c->fd, SHUT_WR);
	c->state = CS_LINGER;
	act_put(lp, a);
	c->a = NULL;
	timer_arm(&lp->timers, &c->timer, TIMER_LINGER, lp->now_ms);
	conn_poll(lp, c, false);
}

/* CS_LINGER: input is read raw and dropped (no TLS: nothing is kept). */
static void linger_read(struct loop *lp, struct conn *c)
{
	for (;;) {
		ssize_t n = recv(c->fd, lp->gather, lp->gather_cap,
				 MSG_DONTWAIT);

		if (n > 0)
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN) {
			conn_poll(lp, c, false);
			return;
		}
		conn_close(lp, c, false);
		return;
	}
}

static void send_done(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;

	if (c->h2) {
		conn_h2_sent(lp, c);
		return;
	}
	log_response(lp, c);
	c->requests++;
	resp_release(&a->resp);
	conn_kernel_pipe_release(lp, c);
	if (a->resp.close || c->close_after || lp->stopping) {
		conn_linger(lp, c);
		return;
	}
	/* Pipelining (RFC 9112 9.3.2): the next head may be here already. */
	a->len -= a->head_len;
	memmove(a->buf, a->buf + a->head_len, a->len);
	a->scan = (struct http_scan)HTTP_SCAN_INIT;
	a->head_len = 0;
	a->parsed = false;
	a->logged = false;
	if (a->len || c->discard) {
		c->state = CS_HEAD;
		timer_arm(&lp->timers, &c->timer, TIMER_HEADER, lp->now_ms);
		if (a->len && process(lp, c))
			return;
		if (c->discard && !a->len)
			c->state = CS_IDLE;
		read_or_wait(lp, c);
		return;
	}
	conn_to_idle(lp, c, false);
}

/* ------------------------------------------------------------------ */
/* Events                                                              */
/* ------------------------------------------------------------------ */

void conn_complete(struct loop *lp, struct conn *c, int res,
		   unsigned int flags)
{
	enum conn_op op = c->op;
	int bid = -1;

	c->op = OP_NONE;
	if (flags & IORING_CQE_F_BUFFER)
		bid = flags >> IORING_CQE_BUFFER_SHIFT;
	if (c->state == CS_CLOSING) {
		if (bid >= 0)
			conn_kernel_buf_recycle(lp, bid);
		finish_close(lp, c);
		return;
	}
	if (c->h2 && conn_h2_event(lp, c, op, res))
		return;
	switch (op) {
	case OP_RECV_BUF:
		recv_buf_done(lp, c, res, bid);
		break;
	case OP_RECV:
		conn_hs_recv_done(lp, c, res);
		break;
	case OP_SEND:
		if (c->state == CS_HANDSHAKE)
			conn_hs_pend_done(lp, c, res);
		else
			send_complete(lp, c, res, false);
		break;
	case OP_SPLICE_OUT:
		send_complete(lp, c, res, true);
		break;
	case OP_SPLICE_IN:
		step_end(lp, c, conn_kernel_splice_in_done(lp, c, res));
		break;
	case OP_POLL_IN:
		if (res < 0) {
			conn_close(lp, c, false);
			break;
		}
		if (c->state == CS_HANDSHAKE && c->proxy_wait)
			conn_proxy_read(lp, c);
		else if (c->state == CS_HANDSHAKE)
			conn_hs_read(lp, c);
		else if (c->state == CS_LINGER)
			linger_read(lp, c);
		else
			conn_read(lp, c);
		break;
	case OP_POLL_OUT:
		if (res < 0) {
			conn_close(lp, c, false);
			break;
		}
		if (c->state == CS_HANDSHAKE) {
			conn_hs_pend_send(lp, c);
			break;
		}
		if (c->state == CS_IDLE || c->state == CS_HEAD) {
			owed_write_ready(lp, c);
			break;
		}
		send_more(lp, c);
		break;
	case OP_YIELD:
		conn_read(lp, c);
		break;
	case OP_NONE:
		break;
	}
}

void conn_timeout(struct loop *lp, struct conn *c, enum timer_kind kind)
{
	static const enum stat_id id[TIMER_KINDS] = {
		[TIMER_HANDSHAKE] = STAT_TO_HANDSHAKE,
		[TIMER_HEADER] = STAT_TO_HEADER,
		[TIMER_IDLE] = STAT_TO_IDLE,
		[TIMER_SEND] = STAT_TO_SEND,
	};

	if (kind != TIMER_LINGER)
		stats_add(lp->st, id[kind], 1);
	/*
	 * No 408 for a slow head (nginx just closes too); close_notify for
	 * an idle or slow client, none for one that does not read.
	 */
	conn_close(lp, c, kind == TIMER_IDLE || kind == TIMER_HEADER);
}

void conn_drain(struct loop *lp, struct conn *c)
{
	if (c->h2) {
		conn_h2_drain(lp, c);
		return;
	}
	switch (c->state) {
	case CS_IDLE:
		/*
		 * A connection whose handshake ended but whose first request
		 * has not come (it may be on its way, sent with the
		 * Finished): that request is answered, then the end, as one
		 * still in its handshake.  A load balancer cannot move a
		 * connection it handed over.
		 */
		if (!c->requests) {
			c->close_after = true;
			break;
		}
		conn_close(lp, c, true);
		break;
	case CS_HANDSHAKE:
		c->close_after = true;
		break;
	case CS_LINGER:
		conn_close(lp, c, true);
		break;
	case CS_HEAD:
	case CS_SEND:
		/* The request in progress is answered, then the end. */
		c->close_after = true;
		break;
	default:
		break;
	}
}

void conn_pool_free(struct loop *lp)
{
	while (lp->free) {
		struct conn *c = lp->free;

		lp->free = c->next;
		free(c);
	}
	while (lp->act_free) {
		struct active *a = lp->act_free;

		lp->act_free = a->next;
		free(a);
	}
	conn_kernel_pipes_free(lp);
}
