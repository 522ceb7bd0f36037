// SPDX-License-Identifier: GPL-2.0
/*
 * conn.c - a connection's life on the worker's ring (docs/tlsxd.md):
 *
 *   handshake  IORING_OP_RECV of a record's 5-byte header, then of its
 *              body (tlsx_conn_read_hint(): record-exact, so a request
 *              in the segment of the client's Finished stays in the
 *              socket for the record layer), tlsx_conn_step_inplace(),
 *              the flight from the worker's one output buffer, then
 *              tlsx_conn_handoff();
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
 *              http_req_parse();
 *   send       the plan (resp.h): head and memory segments by
 *              IORING_OP_SEND (MSG_MORE while a body follows), file
 *              segments by sendfile(2) or IORING_OP_SPLICE through a
 *              pipe in the kernel modes; tlsx_write()/tlsx_sendfile() on
 *              the userspace layer, the head and a small body gathered
 *              into one record; a full socket waits on POLLOUT;
 *   then the next pipelined head, keep-alive, or close (lingering when
 *   input is left unread).
 *
 * A handshake flight goes out by one send(2) from the worker's buffer
 * (a fresh socket has room for it); only what does not fit is copied
 * into the connection and sent by IORING_OP_SEND, so the worker's
 * buffer is free for the next connection's step.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conn.h"

#define TLS_REC_HDR	5
/* One record's plaintext (RFC 8446 5.1): the user-mode gather unit. */
#define TLS_PLAIN_MAX	16384
/* Bytes a connection may send per turn before the others get theirs. */
#define SEND_BUDGET	(1u << 20)
/*
 * What one splice moves into the pipe, whose capacity is raised to it
 * (the default pipe-max-size): with the default 64 KiB, two ring round
 * trips per 64 KiB cost splice 2.5-3x sendfile's CPU per GB; with 1 MiB,
 * 1.2-1.3x (0.60-0.65 s against 0.50 s per GB, loopback TCP without
 * TLS, 64 MiB bodies, Zen 5).
 * The pipe holds page references, not copies.
 */
#define SPLICE_CHUNK	(1 << 20)
/* Request buffers and pipes kept for reuse, per worker. */
#define ACT_CACHE_MAX	64
#define PIPE_POOL_MAX	256

enum step {
	STEP_PROGRESS,	/* bytes went: go on */
	STEP_WAIT,	/* an operation is in flight */
	STEP_CLOSED,	/* the connection is closing */
};

static struct io_uring_sqe *get_sqe(struct loop *lp)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&lp->ring);

	if (!sqe) {
		/* The SQ is full: hand it to the kernel, which empties it. */
		io_uring_submit(&lp->ring);
		sqe = io_uring_get_sqe(&lp->ring);
	}
	return sqe;
}

static void set_op(struct conn *c, struct io_uring_sqe *sqe, enum conn_op op)
{
	c->op = op;
	io_uring_sqe_set_data64(sqe, conn_ud(c));
}

static void poll_fd(struct loop *lp, struct conn *c, bool out)
{
	struct io_uring_sqe *sqe = get_sqe(lp);

	io_uring_prep_poll_add(sqe, c->fd, out ? POLLOUT : POLLIN);
	set_op(c, sqe, out ? OP_POLL_OUT : OP_POLL_IN);
}

static bool is_reset(int err)
{
	return err == ECONNRESET || err == EPIPE || err == ETIMEDOUT;
}

/* ------------------------------------------------------------------ */
/* The kernel modes' receive buffer ring                               */
/* ------------------------------------------------------------------ */

static void buf_recycle(struct loop *lp, unsigned int bid)
{
	io_uring_buf_ring_add(lp->br, lp->br_bufs + (size_t)bid * CONN_BUF_SIZE,
			      CONN_BUF_SIZE, bid,
			      io_uring_buf_ring_mask(CONN_BUF_COUNT), 0);
	io_uring_buf_ring_advance(lp->br, 1);
}

int conn_bufs_init(struct loop *lp)
{
	struct io_uring_buf_reg reg = { 0 };
	size_t ring_size = CONN_BUF_COUNT * sizeof(struct io_uring_buf);
	unsigned int i;
	void *ring;
	int ret;

	/* The ring is shared with the kernel: page-aligned. */
	ring = mmap(NULL, ring_size, PROT_READ | PROT_WRITE,
		    MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
	if (ring == MAP_FAILED)
		return -ENOMEM;
	lp->br_bufs = malloc((size_t)CONN_BUF_COUNT * CONN_BUF_SIZE);
	if (!lp->br_bufs) {
		munmap(ring, ring_size);
		return -ENOMEM;
	}
	reg.ring_addr = (unsigned long)ring;
	reg.ring_entries = CONN_BUF_COUNT;
	reg.bgid = CONN_BUF_GROUP;
	ret = io_uring_register_buf_ring(&lp->ring, &reg, 0);
	if (ret) {
		munmap(ring, ring_size);
		free(lp->br_bufs);
		lp->br_bufs = NULL;
		return ret;
	}
	lp->br = ring;
	io_uring_buf_ring_init(lp->br);
	for (i = 0; i < CONN_BUF_COUNT; i++)
		io_uring_buf_ring_add(lp->br,
				      lp->br_bufs + (size_t)i * CONN_BUF_SIZE,
				      CONN_BUF_SIZE, i,
				      io_uring_buf_ring_mask(CONN_BUF_COUNT), i);
	io_uring_buf_ring_advance(lp->br, CONN_BUF_COUNT);
	return 0;
}

/* After io_uring_queue_exit(): the kernel has let go of the ring. */
void conn_bufs_free(struct loop *lp)
{
	if (lp->br)
		munmap(lp->br, CONN_BUF_COUNT * sizeof(struct io_uring_buf));
	lp->br = NULL;
	free(lp->br_bufs);
	lp->br_bufs = NULL;
}

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

static struct pipe_pair *pipe_get(struct loop *lp)
{
	struct pipe_pair *p = lp->pipes;
	int fds[2];

	if (p) {
		lp->pipes = p->next;
		lp->npipes--;
		return p;
	}
	p = malloc(sizeof(*p));
	if (!p)
		return NULL;
	if (pipe2(fds, O_NONBLOCK | O_CLOEXEC)) {
		free(p);
		return NULL;
	}
	p->rd = fds[0];
	p->wr = fds[1];
	fcntl(p->wr, F_SETPIPE_SZ, SPLICE_CHUNK);
	return p;
}

/* A pipe still holding bytes of a response cut short is not reused. */
static void pipe_put(struct loop *lp, struct pipe_pair *p, bool empty)
{
	if (!empty || lp->npipes >= PIPE_POOL_MAX) {
		close(p->rd);
		close(p->wr);
		free(p);
		return;
	}
	p->next = lp->pipes;
	lp->pipes = p;
	lp->npipes++;
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
	timer_disarm(&c->timer);
	if (c->tls)
		tlsx_conn_free(c->tls);
	c->tls = NULL;
	close(c->fd);
	c->fd = -1;
	wipe_free(c->hs_rec, c->hs_rec_len);
	c->hs_rec = NULL;
	wipe_free(c->pend, c->pend_len);
	c->pend = NULL;
	if (c->a)
		act_put(lp, c->a);
	c->a = NULL;
	if (c->pipe)
		pipe_put(lp, c->pipe, !c->pipe_fill);
	c->pipe = NULL;
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
 * Closes @c: close_notify first when @graceful and the layer is up
 * (RFC 8446 6.1).  In the kernel modes libtlsx waits with poll(2) for
 * room to send a control record, so close_notify is only sent when the
 * socket has room now: a reader that never reads cannot stall the
 * worker.  An operation in flight is cancelled (and the socket shut
 * down so that it ends now); the conn is freed at its completion.
 */
static void conn_close(struct loop *lp, struct conn *c, bool graceful)
{
	struct io_uring_sqe *sqe;

	if (c->state == CS_CLOSING)
		return;
	log_response(lp, c);
	timer_disarm(&c->timer);
	if (graceful && c->established && c->state != CS_LINGER) {
		struct pollfd p = { .fd = c->fd, .events = POLLOUT };

		if (c->rl == TLSX_RL_USER ||
		    (poll(&p, 1, 0) == 1 && (p.revents & POLLOUT)))
			tlsx_close(c->tls);
	}
	if (c->op == OP_NONE) {
		finish_close(lp, c);
		return;
	}
	c->state = CS_CLOSING;
	shutdown(c->fd, SHUT_RDWR);
	sqe = get_sqe(lp);
	io_uring_prep_cancel64(sqe, conn_ud(c), 0);
	io_uring_sqe_set_data64(sqe, TAG_CANCEL);
}

/* A peer gone mid-way: counted once, closed, nothing logged. */
static void conn_reset(struct loop *lp, struct conn *c)
{
	stats_add(lp->st, STAT_CLIENT_RESET, 1);
	conn_close(lp, c, false);
}

/* A libtlsx error on @c: a reset is counted as one. */
static void tls_failed(struct loop *lp, struct conn *c, long err)
{
	if (err == TLSX_E_SYSCALL && is_reset(tlsx_conn_errno(c->tls)))
		conn_reset(lp, c);
	else
		conn_close(lp, c, false);
}

void conn_abort(struct loop *lp, struct conn *c)
{
	conn_close(lp, c, false);
}

/* ------------------------------------------------------------------ */
/* Handshake                                                           */
/* ------------------------------------------------------------------ */

static void hs_failed(struct loop *lp, struct conn *c)
{
	stats_add(lp->st, STAT_HS_FAILED, 1);
	if (log_debug_enabled()) {
		int err = c->tls ? tlsx_conn_errno(c->tls) : 0;

		log_msg(LOG_DEBUG, "conn %d: handshake failed (alert %d, %s)",
			c->fd, c->tls ? tlsx_conn_alert(c->tls) : -1,
			err ? strerror(err) : "-");
	}
	conn_close(lp, c, false);
}

/* The next read: a record's header, then exactly its body. */
static void hs_read(struct loop *lp, struct conn *c)
{
	struct io_uring_sqe *sqe;
	uint8_t *dst;
	size_t want;

	if (c->hs_hdr_len < TLS_REC_HDR) {
		want = tlsx_conn_read_hint(c->tls, c->hs_hdr, c->hs_hdr_len);
		dst = c->hs_hdr + c->hs_hdr_len;
	} else {
		want = tlsx_conn_read_hint(c->tls, c->hs_rec, c->hs_rec_len);
		dst = c->hs_rec + c->hs_rec_len;
	}
	sqe = get_sqe(lp);
	io_uring_prep_recv(sqe, c->fd, dst, want, 0);
	set_op(c, sqe, OP_RECV);
}

static void to_idle(struct loop *lp, struct conn *c, bool first);

static void peer_name(const struct conn *c, char *buf, size_t len)
{
	const void *addr = &c->peer.v4.sin_addr;

	if (c->peer.sa.sa_family == AF_INET6)
		addr = &c->peer.v6.sin6_addr;
	if (!inet_ntop(c->peer.sa.sa_family, addr, buf, len))
		snprintf(buf, len, "-");
}

static void hs_handoff(struct loop *lp, struct conn *c)
{
	static const enum stat_id rl_stat[] = {
		[TLSX_RL_TLSX] = STAT_RL_TLSX,
		[TLSX_RL_TLS] = STAT_RL_TLS,
		[TLSX_RL_USER] = STAT_RL_USER,
	};
	struct tlsx_conn_info info;
	int ret = tlsx_conn_handoff(c->tls);

	if (ret != TLSX_DONE || tlsx_conn_info(c->tls, &info)) {
		hs_failed(lp, c);
		return;
	}
	c->established = true;
	c->rl = info.record_layer;
	/*
	 * The kernel seals what the socket is given, but only libtlsx cuts
	 * records to the peer's record_size_limit (RFC 8449 4): with one,
	 * bodies go through tlsx_write()/tlsx_sendfile().
	 */
	c->kernel_tx = c->rl != TLSX_RL_USER && !info.peer_record_size_limit;
	if (c->rl != TLSX_RL_USER && !lp->br && !lp->br_failed &&
	    conn_bufs_init(lp)) {
		lp->br_failed = true;
		log_msg(LOG_INFO, "worker %u: no provided buffers: POLLIN",
			lp->w->id);
	}
	stats_add(lp->st, STAT_HS_DONE, 1);
	if (c->rl <= TLSX_RL_USER && c->rl != TLSX_RL_AUTO)
		stats_add(lp->st, rl_stat[c->rl], 1);
	if (log_debug_enabled()) {
		char peer[INET6_ADDRSTRLEN];

		peer_name(c, peer, sizeof(peer));
		log_msg(LOG_DEBUG,
			"conn %s: %s %s%s alpn \"%s\" sni \"%s\", record layer %s, state %zu + %zu bytes",
			peer, info.suite_name, info.group_name,
			info.resumed ? " resumed" : "", info.alpn,
			info.server_name, tlsx_record_layer_name(c->rl),
			info.state_bytes, sizeof(*c));
	}
	to_idle(lp, c, true);
}

/* After a step's output went out: hand off, or read the next record. */
static void hs_next(struct loop *lp, struct conn *c)
{
	if (c->hs_done)
		hs_handoff(lp, c);
	else
		hs_read(lp, c);
}

/*
 * Sends a step's output from the worker's buffer.  A socket has room
 * for a flight almost always, so it goes by one send(2) now; what does
 * not fit is copied into the connection (the worker's buffer is the next
 * step's) and goes by IORING_OP_SEND.  @fatal: the output is an alert,
 * best effort, then close.
 */
static void hs_pend_send(struct loop *lp, struct conn *c);

static void hs_send(struct loop *lp, struct conn *c, size_t len, bool fatal)
{
	ssize_t n = 0;

	if (len)
		n = send(c->fd, lp->hs_out, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	if (fatal) {
		hs_failed(lp, c);
		return;
	}
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		hs_failed(lp, c);
		return;
	}
	if (n < 0)
		n = 0;
	if ((size_t)n == len) {
		hs_next(lp, c);
		return;
	}
	c->pend_len = len - n;
	c->pend_off = 0;
	c->pend = malloc(c->pend_len);
	if (!c->pend) {
		hs_failed(lp, c);
		return;
	}
	memcpy(c->pend, lp->hs_out + n, c->pend_len);
	hs_pend_send(lp, c);
}

static void hs_pend_send(struct loop *lp, struct conn *c)
{
	struct io_uring_sqe *sqe = get_sqe(lp);

	io_uring_prep_send(sqe, c->fd, c->pend + c->pend_off,
			   c->pend_len - c->pend_off, MSG_NOSIGNAL);
	set_op(c, sqe, OP_SEND);
}

static void hs_pend_done(struct loop *lp, struct conn *c, int res)
{
	if (res == -EAGAIN) {
		poll_fd(lp, c, true);
		return;
	}
	if (res <= 0) {
		hs_failed(lp, c);
		return;
	}
	c->pend_off += res;
	if (c->pend_off < c->pend_len) {
		hs_pend_send(lp, c);
		return;
	}
	free(c->pend);
	c->pend = NULL;
	c->pend_len = 0;
	hs_next(lp, c);
}

/* A whole record (or a header the engine refuses alone): one step. */
static void hs_step(struct loop *lp, struct conn *c, uint8_t *in, size_t len)
{
	size_t used = 0, out_len = 0;
	int ret;

	ret = tlsx_conn_step_inplace(c->tls, in, len, &used, lp->hs_out,
				     TLSX_STEP_OUT_MIN, &out_len);
	/* The record now holds the peer's handshake in plaintext. */
	explicit_bzero(in, len);
	free(c->hs_rec);
	c->hs_rec = NULL;
	c->hs_rec_len = 0;
	c->hs_hdr_len = 0;
	if ((ret == TLSX_WANT_READ && used != len) ||
	    (ret != TLSX_WANT_READ && ret != TLSX_DONE)) {
		hs_send(lp, c, out_len, true);
		return;
	}
	c->hs_done = ret == TLSX_DONE;
	hs_send(lp, c, out_len, false);
}

static void hs_recv_done(struct loop *lp, struct conn *c, int res)
{
	size_t body;

	if (res == -EAGAIN) {
		poll_fd(lp, c, false);
		return;
	}
	if (res <= 0) {
		if (res < 0 && is_reset(-res))
			stats_add(lp->st, STAT_CLIENT_RESET, 1);
		hs_failed(lp, c);
		return;
	}
	if (c->hs_hdr_len < TLS_REC_HDR) {
		c->hs_hdr_len += res;
		if (c->hs_hdr_len < TLS_REC_HDR) {
			hs_read(lp, c);
			return;
		}
		body = tlsx_conn_read_hint(c->tls, c->hs_hdr, TLS_REC_HDR);
		if (!body) {
			/* Empty, or longer than a record may be (5.1). */
			hs_step(lp, c, c->hs_hdr, TLS_REC_HDR);
			return;
		}
		c->hs_rec = malloc(TLS_REC_HDR + body);
		if (!c->hs_rec) {
			hs_failed(lp, c);
			return;
		}
		memcpy(c->hs_rec, c->hs_hdr, TLS_REC_HDR);
		c->hs_rec_len = TLS_REC_HDR;
		hs_read(lp, c);
		return;
	}
	c->hs_rec_len += res;
	if (tlsx_conn_read_hint(c->tls, c->hs_rec, c->hs_rec_len)) {
		hs_read(lp, c);
		return;
	}
	hs_step(lp, c, c->hs_rec, c->hs_rec_len);
}

void conn_accept(struct loop *lp, int fd)
{
	const struct tlsxd_conf *conf = lp->conf;
	struct tlsx_config *cfg;
	struct conn *c;
	uint16_t gen;
	int one = 1;

	if (lp->stopping || lp->nconns >= conf->max_conns) {
		/* A hard bound: the excess is refused, never queued. */
		close(fd);
		if (!lp->stopping)
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
	if (!c->tls) {
		hs_failed(lp, c);
		return;
	}
	timer_arm(&lp->timers, &c->timer, TIMER_HANDSHAKE, lp->now_ms);
	hs_read(lp, c);
}

/* ------------------------------------------------------------------ */
/* Sending a response                                                  */
/* ------------------------------------------------------------------ */

static uint64_t piece_len(const struct active *a, int piece)
{
	return piece < 0 ? a->resp.head_len : a->resp.seg[piece].len;
}

static bool send_finished(const struct active *a)
{
	return a->piece >= (int)a->resp.nseg;
}

/* @n bytes went: past the head, segments, and empty pieces. */
static void advance(struct active *a, uint64_t n)
{
	while (!send_finished(a)) {
		uint64_t left = piece_len(a, a->piece) - a->poff;
		uint64_t take = n < left ? n : left;

		a->poff += take;
		if (a->piece >= 0)
			a->body_sent += take;
		n -= take;
		if (a->poff < piece_len(a, a->piece))
			break;
		a->piece++;
		a->poff = 0;
	}
}

static bool more_after(const struct active *a, uint64_t n)
{
	int i;

	if (a->poff + n < piece_len(a, a->piece))
		return true;
	for (i = a->piece + 1; i < (int)a->resp.nseg; i++)
		if (a->resp.seg[i].len)
			return true;
	return false;
}

/*
 * The userspace layer: what is due, gathered from the pieces into one
 * record's plaintext (the head and a small body share a record and a
 * send(2)), or a long file segment by tlsx_sendfile() (read into the
 * record and sealed where it lies).  libtlsx takes what it sealed, even
 * if the socket was full: only "nothing taken" is TLSX_WANT_WRITE.
 */
static enum step user_send(struct loop *lp, struct conn *c, size_t *budget)
{
	struct active *a = c->a;
	const struct resp_seg *s = a->piece >= 0 ? &a->resp.seg[a->piece] :
			      NULL;
	size_t glen = 0;
	ssize_t n;

	if (s && !s->mem && s->len - a->poff >= TLS_PLAIN_MAX) {
		off_t off = s->off + a->poff;
		uint64_t want = s->len - a->poff;

		if (want > *budget)
			want = *budget;
		n = tlsx_sendfile(c->tls, a->resp.fd, &off, want);
	} else {
		int piece = a->piece;
		uint64_t poff = a->poff;

		while (glen < lp->gather_cap && piece < (int)a->resp.nseg) {
			uint64_t left = piece_len(a, piece) - poff;
			size_t take = lp->gather_cap - glen;

			if (take > left)
				take = left;
			s = piece >= 0 ? &a->resp.seg[piece] : NULL;
			if (!s) {
				memcpy(lp->gather + glen, a->resp.head + poff,
				       take);
			} else if (s->mem) {
				memcpy(lp->gather + glen, s->mem + poff, take);
			} else if (take) {
				ssize_t got = pread(a->resp.fd,
						    lp->gather + glen, take,
						    s->off + poff);

				if (got <= 0) {
					/* The file shrank under us. */
					conn_close(lp, c, false);
					return STEP_CLOSED;
				}
				take = got;
			}
			glen += take;
			poff += take;
			if (poff == piece_len(a, piece)) {
				piece++;
				poff = 0;
			}
		}
		if (!glen) {
			advance(a, 0);
			return STEP_PROGRESS;
		}
		n = tlsx_write(c->tls, lp->gather, glen);
	}
	if (n == TLSX_WANT_WRITE) {
		poll_fd(lp, c, true);
		return STEP_WAIT;
	}
	if (n <= 0) {
		tls_failed(lp, c, n);
		return STEP_CLOSED;
	}
	advance(a, n);
	*budget = (size_t)n >= *budget ? 0 : *budget - n;
	return STEP_PROGRESS;
}

/* The kernel modes, a file segment by sendfile(2) on the socket. */
static enum step kernel_sendfile(struct loop *lp, struct conn *c,
				 size_t *budget)
{
	struct active *a = c->a;
	const struct resp_seg *s = &a->resp.seg[a->piece];
	uint64_t want = s->len - a->poff;
	off_t off = s->off + a->poff;
	ssize_t n;

	if (want > *budget)
		want = *budget;
	n = sendfile(c->fd, a->resp.fd, &off, want);
	if (n < 0 && errno == EINTR)
		return STEP_PROGRESS;
	if (n < 0 && errno == EAGAIN) {
		poll_fd(lp, c, true);
		return STEP_WAIT;
	}
	if (n <= 0) {
		/* 0: the file shrank under us; else the peer went. */
		if (n < 0 && is_reset(errno))
			conn_reset(lp, c);
		else
			conn_close(lp, c, false);
		return STEP_CLOSED;
	}
	advance(a, n);
	*budget = (size_t)n >= *budget ? 0 : *budget - n;
	return STEP_PROGRESS;
}

/* The kernel modes, a file segment through the pipe, both by the ring. */
static enum step kernel_splice(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;
	const struct resp_seg *s = &a->resp.seg[a->piece];
	struct io_uring_sqe *sqe;

	if (!c->pipe) {
		c->pipe = pipe_get(lp);
		if (!c->pipe) {
			size_t budget = SEND_BUDGET;

			return kernel_sendfile(lp, c, &budget);
		}
	}
	sqe = get_sqe(lp);
	if (!c->pipe_fill) {
		uint64_t want = s->len - a->poff;

		if (want > SPLICE_CHUNK)
			want = SPLICE_CHUNK;
		io_uring_prep_splice(sqe, a->resp.fd, s->off + a->poff,
				     c->pipe->wr, -1, want, 0);
		set_op(c, sqe, OP_SPLICE_IN);
	} else {
		io_uring_prep_splice(sqe, c->pipe->rd, -1, c->fd, -1,
				     c->pipe_fill,
				     more_after(a, c->pipe_fill) ?
				     SPLICE_F_MORE : 0);
		set_op(c, sqe, OP_SPLICE_OUT);
	}
	return STEP_WAIT;
}

/* The kernel modes: memory by IORING_OP_SEND, files as configured. */
static enum step kernel_send(struct loop *lp, struct conn *c, size_t *budget)
{
	struct active *a = c->a;
	const struct resp_seg *s = a->piece >= 0 ? &a->resp.seg[a->piece] :
			      NULL;
	struct io_uring_sqe *sqe;
	const char *p;
	uint64_t len;

	if (s && !s->mem)
		return lp->splice ? kernel_splice(lp, c) :
				    kernel_sendfile(lp, c, budget);
	p = s ? s->mem : a->resp.head;
	len = piece_len(a, a->piece) - a->poff;
	if (!len) {
		advance(a, 0);
		return STEP_PROGRESS;
	}
	sqe = get_sqe(lp);
	/* MSG_MORE: the head and the body share records. */
	io_uring_prep_send(sqe, c->fd, p + a->poff, len,
			   MSG_NOSIGNAL | (more_after(a, len) ? MSG_MORE : 0));
	set_op(c, sqe, OP_SEND);
	return STEP_WAIT;
}

static void send_done(struct loop *lp, struct conn *c);

/* Sends what it can of the plan; returns with an op in flight, or done. */
static void send_more(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;
	size_t budget = SEND_BUDGET;
	enum step r;
	int ret;

	while (!send_finished(a)) {
		if (!budget) {
			/* Others' turn: POLLOUT completes at once. */
			poll_fd(lp, c, true);
			return;
		}
		r = c->kernel_tx ? kernel_send(lp, c, &budget) :
				   user_send(lp, c, &budget);
		if (r != STEP_PROGRESS)
			return;
		/* The send timeout counts time without progress. */
		timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	}
	if (c->rl == TLSX_RL_USER) {
		/* A record sealed but not yet sent is still ours to push. */
		ret = tlsx_conn_flush(c->tls);
		if (ret == TLSX_WANT_WRITE) {
			poll_fd(lp, c, true);
			return;
		}
		if (ret) {
			tls_failed(lp, c, ret);
			return;
		}
	}
	send_done(lp, c);
}

/* A send or splice out of ours went (@res bytes, or failed). */
static void send_complete(struct loop *lp, struct conn *c, int res,
			  bool splice)
{
	if (res == -EAGAIN || res == -EINTR) {
		poll_fd(lp, c, true);
		return;
	}
	if (res <= 0) {
		if (!res || is_reset(-res))
			conn_reset(lp, c);
		else
			conn_close(lp, c, false);
		return;
	}
	if (splice)
		c->pipe_fill -= res;
	advance(c->a, res);
	timer_arm(&lp->timers, &c->timer, TIMER_SEND, lp->now_ms);
	send_more(lp, c);
}

static void splice_in_done(struct loop *lp, struct conn *c, int res)
{
	if (res <= 0) {
		/* 0: the file shrank under us. */
		conn_close(lp, c, false);
		return;
	}
	c->pipe_fill = res;
	kernel_splice(lp, c);
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
		stats_add(lp->st, !c->kernel_tx ? STAT_BODY_USER :
			  lp->splice ? STAT_BODY_SPLICE : STAT_BODY_SENDFILE, 1);
		break;
	}
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
		if (!a->len)
			return false;
	}
	r = http_req_parse(&a->req, a->buf, a->len, &lp->conf->http);
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
 * The kernel modes wait for request bytes in IORING_OP_RECV with a
 * buffer the kernel picks from the worker's ring when they arrive (the
 * connection holds none while it waits); the userspace layer, and the
 * kernel modes without the ring, on POLLIN.
 */
static void wait_input(struct loop *lp, struct conn *c)
{
	struct io_uring_sqe *sqe;
	size_t space = lp->req_cap - (c->a ? c->a->len : 0);

	if (c->rl == TLSX_RL_USER || !lp->br) {
		poll_fd(lp, c, false);
		return;
	}
	if (space > CONN_BUF_SIZE)
		space = CONN_BUF_SIZE;
	sqe = get_sqe(lp);
	/* @len caps what the kernel puts in the buffer it picks. */
	io_uring_prep_recv(sqe, c->fd, NULL, space, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = CONN_BUF_GROUP;
	set_op(c, sqe, OP_RECV_BUF);
}

/* @n request bytes arrived: into the connection's buffer. */
static bool take_bytes(struct loop *lp, struct conn *c, const void *p,
		       size_t n)
{
	struct active *a = c->a;

	if (!a) {
		a = c->a = act_get(lp);
		if (!a)
			return false;
	}
	if (c->state == CS_IDLE && !c->discard) {
		/* The header timeout runs from the first byte. */
		c->state = CS_HEAD;
		timer_arm(&lp->timers, &c->timer, TIMER_HEADER, lp->now_ms);
	}
	memcpy(a->buf + a->len, p, n);
	a->len += n;
	return true;
}

static void conn_read(struct loop *lp, struct conn *c);

/*
 * The userspace layer, when the request buffer wants more: tlsx_read()
 * if libtlsx holds input (tlsx_pending()), else POLLIN, which fires at
 * once if the socket has bytes (a record read in part, more than one
 * read took): the read(2) saved is the one that would return EAGAIN.
 */
static void user_read_or_wait(struct loop *lp, struct conn *c)
{
	if (tlsx_pending(c->tls)) {
		conn_read(lp, c);
		return;
	}
	if (c->a && !c->a->len) {
		act_put(lp, c->a);
		c->a = NULL;
	}
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
		ok = take_bytes(lp, c, lp->br_bufs + (size_t)bid * CONN_BUF_SIZE,
				res);
	if (bid >= 0)
		buf_recycle(lp, bid);
	if (res > 0) {
		if (!ok)
			conn_close(lp, c, false);
		else if (!process(lp, c))
			wait_input(lp, c);
		return;
	}
	if (res == -ENOBUFS) {
		poll_fd(lp, c, false);
		return;
	}
	if (res == -EIO) {
		conn_read(lp, c);
		return;
	}
	/* 0: a TCP close without close_notify (RFC 8446 6.1). */
	if (res < 0 && is_reset(-res))
		conn_reset(lp, c);
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
		struct active *a = c->a;
		ssize_t n;

		if (!a) {
			a = c->a = act_get(lp);
			if (!a) {
				conn_close(lp, c, false);
				return;
			}
		}
		n = tlsx_read(c->tls, a->buf + a->len, lp->req_cap - a->len);
		if (n > 0) {
			if (c->state == CS_IDLE && !c->discard) {
				/* The header timeout runs from the first byte. */
				c->state = CS_HEAD;
				timer_arm(&lp->timers, &c->timer, TIMER_HEADER,
					  lp->now_ms);
			}
			a->len += n;
			if (process(lp, c))
				return;
			if (c->rl == TLSX_RL_USER && !tlsx_pending(c->tls)) {
				user_read_or_wait(lp, c);
				return;
			}
			continue;
		}
		if (n == TLSX_WANT_READ || n == TLSX_WANT_WRITE) {
			if (!a->len) {
				act_put(lp, a);
				c->a = NULL;
			}
			wait_input(lp, c);
			return;
		}
		/* 0: the peer's close_notify; else a reset, EOF or an alert. */
		if (!n)
			conn_close(lp, c, true);
		else
			tls_failed(lp, c, n);
		return;
	}
}

/* Waits for the next request; @first: the one after the handshake. */
static void to_idle(struct loop *lp, struct conn *c, bool first)
{
	c->state = CS_IDLE;
	/* Until its first request a client gets the header timeout. */
	timer_arm(&lp->timers, &c->timer, first ? TIMER_HEADER : TIMER_IDLE,
		  lp->now_ms);
	if (c->rl == TLSX_RL_USER) {
		/*
		 * After the handshake the request often follows the
		 * client's Finished at once: read it now.
		 */
		if (first)
			conn_read(lp, c);
		else
			user_read_or_wait(lp, c);
		return;
	}
	if (c->a && !c->a->len) {
		act_put(lp, c->a);
		c->a = NULL;
	}
	wait_input(lp, c);
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
	if (c->established) {
		struct pollfd p = { .fd = c->fd, .events = POLLOUT };

		if (c->rl == TLSX_RL_USER ||
		    (poll(&p, 1, 0) == 1 && (p.revents & POLLOUT)))
			tlsx_close(c->tls);
	}
	shutdown(c->fd, SHUT_WR);
	c->state = CS_LINGER;
	act_put(lp, a);
	c->a = NULL;
	timer_arm(&lp->timers, &c->timer, TIMER_LINGER, lp->now_ms);
	poll_fd(lp, c, false);
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
			poll_fd(lp, c, false);
			return;
		}
		conn_close(lp, c, false);
		return;
	}
}

static void send_done(struct loop *lp, struct conn *c)
{
	struct active *a = c->a;

	log_response(lp, c);
	c->requests++;
	resp_release(&a->resp);
	if (c->pipe) {
		pipe_put(lp, c->pipe, !c->pipe_fill);
		c->pipe = NULL;
		c->pipe_fill = 0;
	}
	if (a->resp.close || c->close_after || lp->stopping) {
		conn_linger(lp, c);
		return;
	}
	/* Pipelining (RFC 9112 9.3.2): the next head may be here already. */
	a->len -= a->head_len;
	memmove(a->buf, a->buf + a->head_len, a->len);
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
		if (c->rl == TLSX_RL_USER) {
			user_read_or_wait(lp, c);
			return;
		}
		wait_input(lp, c);
		return;
	}
	to_idle(lp, c, false);
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
			buf_recycle(lp, bid);
		finish_close(lp, c);
		return;
	}
	switch (op) {
	case OP_RECV_BUF:
		recv_buf_done(lp, c, res, bid);
		break;
	case OP_RECV:
		hs_recv_done(lp, c, res);
		break;
	case OP_SEND:
		if (c->state == CS_HANDSHAKE)
			hs_pend_done(lp, c, res);
		else
			send_complete(lp, c, res, false);
		break;
	case OP_SPLICE_OUT:
		send_complete(lp, c, res, true);
		break;
	case OP_SPLICE_IN:
		splice_in_done(lp, c, res);
		break;
	case OP_POLL_IN:
		if (res < 0) {
			conn_close(lp, c, false);
			break;
		}
		if (c->state == CS_HANDSHAKE)
			hs_read(lp, c);
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
			hs_pend_send(lp, c);
			break;
		}
		send_more(lp, c);
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
	switch (c->state) {
	case CS_HANDSHAKE:
	case CS_IDLE:
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
	while (lp->pipes) {
		struct pipe_pair *p = lp->pipes;

		lp->pipes = p->next;
		close(p->rd);
		close(p->wr);
		free(p);
	}
}
