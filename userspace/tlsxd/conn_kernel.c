// SPDX-License-Identifier: GPL-2.0
/*
 * conn_kernel.c - a connection on the kernel's record layers (tlsx.ko or
 * the kernel's tls, after tlsx_conn_handoff()): the socket seals what it
 * is given, so tlsxd moves plaintext with plain socket calls and no byte
 * of a body passes through userspace:
 *
 *   bodies     a file segment by sendfile(2) from the page cache, or by
 *              IORING_OP_SPLICE file -> pipe -> socket (--body splice);
 *              the head and memory segments by IORING_OP_SEND, with
 *              MSG_MORE / SPLICE_F_MORE while more of the plan follows so
 *              that head and body share records;
 *   keys       each of those sends passes no libtlsx call, so it is
 *              announced first (tlsx_conn_tx_reserve()): on tlsx our
 *              KeyUpdate goes before the sending key's record limit
 *              (RFC 8446 5.5); on the kernel's tls, which cannot rekey,
 *              keep-alive ends before it (conn_kernel_key_plan()) and
 *              only a response that alone passes it is cut short;
 *   requests   IORING_OP_RECV into a buffer the kernel picks from the
 *              worker's provided-buffer ring when bytes arrive: an idle
 *              connection holds none (conn.c copies them out at once).
 *              Control records (KeyUpdate, alerts) are libtlsx's: a
 *              receive that meets one fails with -EIO and conn.c hands
 *              it to tlsx_read().
 *
 * conn_layer.c puts these in the kernel modes' tables; nothing here calls
 * conn.c: a step that ends the connection returns how (enum step).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include "conn_priv.h"
#include "log.h"
#include "stats.h"

/* Pipes kept for reuse, per worker. */
#define PIPE_POOL_MAX	256

/* ------------------------------------------------------------------ */
/* The receive buffer ring                                             */
/* ------------------------------------------------------------------ */

const void *conn_kernel_buf(struct loop *lp, unsigned int bid)
{
	return lp->br_bufs + (size_t)bid * CONN_BUF_SIZE;
}

void conn_kernel_buf_recycle(struct loop *lp, unsigned int bid)
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

/* An IORING_OP_RECV of at most @len bytes into a ring buffer. */
static void ring_recv(struct loop *lp, struct conn *c, size_t len)
{
	struct io_uring_sqe *sqe = conn_sqe(lp);

	if (len > CONN_BUF_SIZE)
		len = CONN_BUF_SIZE;
	/* @len caps what the kernel puts in the buffer it picks. */
	io_uring_prep_recv(sqe, c->fd, NULL, len, 0);
	sqe->flags |= IOSQE_BUFFER_SELECT;
	sqe->buf_group = CONN_BUF_GROUP;
	conn_set_op(c, sqe, OP_RECV_BUF);
}

/*
 * Request bytes: by IORING_OP_RECV with a buffer the kernel picks from
 * the worker's ring when they arrive (the connection holds none while it
 * waits), or on POLLIN where the ring could not be set up, or while
 * libtlsx holds part of a KeyUpdate or alert: then the next record must
 * be its rest (RFC 8446 5.1), which only tlsx_read() checks.
 */
void conn_kernel_wait_input(struct loop *lp, struct conn *c)
{
	if (!lp->br || !tlsx_conn_rx_plain(c->tls))
		conn_poll(lp, c, false);
	else
		ring_recv(lp, c, lp->req_cap - (c->a ? c->a->len : 0));
}

/* ------------------------------------------------------------------ */
/* The pipe pool (splice bodies)                                       */
/* ------------------------------------------------------------------ */

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

void conn_kernel_pipe_release(struct loop *lp, struct conn *c)
{
	if (!c->pipe)
		return;
	pipe_put(lp, c->pipe, !c->pipe_fill);
	c->pipe = NULL;
	c->pipe_fill = 0;
}

void conn_kernel_pipes_free(struct loop *lp)
{
	while (lp->pipes) {
		struct pipe_pair *p = lp->pipes;

		lp->pipes = p->next;
		close(p->rd);
		close(p->wr);
		free(p);
	}
}

/* ------------------------------------------------------------------ */
/* Bodies                                                              */
/* ------------------------------------------------------------------ */

/*
 * Room under the sending key for a send of @len bytes (RFC 8446 5.5):
 * STEP_PROGRESS to send it; STEP_WAIT when our KeyUpdate met a full
 * socket (sent on POLLOUT); else how the connection ends.
 */
static enum step key_room(struct loop *lp, struct conn *c, uint64_t len)
{
	int r = tlsx_conn_tx_reserve(c->tls, len);

	if (!r)
		return STEP_PROGRESS;
	if (r == TLSX_WANT_WRITE) {
		conn_poll(lp, c, true);
		return STEP_WAIT;
	}
	if (r == TLSX_E_REKEY) {
		/*
		 * The last resort (conn_kernel_key_plan() closes keep-alive
		 * before this): a response larger than what the key may
		 * still seal.  Nothing passes the limit; the client sees a
		 * body shorter than its Content-Length.
		 */
		stats_add(lp->st, STAT_KEY_LIMIT_CUT, 1);
		log_msg(LOG_WARN, "response cut short after %llu body bytes: the sending key's record limit (RFC 8446 5.5) is reached and the kernel's tls cannot change keys; connection closed",
			(unsigned long long)c->a->body_sent);
		return STEP_CLOSE_NOTIFY;
	}
	return conn_tls_step(c, r);
}

/* Records the sends of @len bytes of one piece can make, at most. */
static uint64_t piece_records(uint64_t len)
{
	/* Sent at most SEND_BUDGET (= SPLICE_CHUNK) bytes at a time. */
	uint64_t full = len / SEND_BUDGET, rest = len % SEND_BUDGET;

	return full * tlsx_tx_records_max(SEND_BUDGET) +
	       (rest || !full ? tlsx_tx_records_max(rest) : 0);
}

enum key_plan conn_kernel_key_plan_records(struct conn *c, uint64_t due,
					   uint64_t need)
{
	uint64_t left;

	/* An error here is the sends' to report. */
	if (tlsx_conn_tx_left(c->tls, &left))
		return KEY_FITS;
	if (due > left || need > left - due)
		return KEY_FULL;
	/* The next response as large as this one would not fit. */
	if (left - due - need < need)
		return KEY_LAST;
	return KEY_FITS;
}

enum key_plan conn_kernel_key_plan(struct conn *c)
{
	const struct active *a = c->a;
	uint64_t need = piece_records(a->resp.head_len);
	unsigned int i;

	for (i = 0; i < a->resp.nseg; i++)
		need += piece_records(a->resp.seg[i].len);
	return conn_kernel_key_plan_records(c, 0, need);
}

static bool more_after(const struct active *a, uint64_t n)
{
	int i;

	if (a->poff + n < conn_piece_len(a, a->piece))
		return true;
	for (i = a->piece + 1; i < (int)a->resp.nseg; i++)
		if (a->resp.seg[i].len)
			return true;
	return false;
}

/* The kernel modes, a file segment by sendfile(2) on the socket. */
static enum step kernel_sendfile(struct loop *lp, struct conn *c,
				 size_t *budget)
{
	struct active *a = c->a;
	const struct resp_seg *s = &a->resp.seg[a->piece];
	uint64_t want = s->len - a->poff;
	off_t off = s->off + a->poff;
	enum step r;
	ssize_t n;

	if (want > *budget)
		want = *budget;
	r = key_room(lp, c, want);
	if (r != STEP_PROGRESS)
		return r;
	n = sendfile(c->fd, a->resp.fd, &off, want);
	if (n < 0 && errno == EINTR)
		return STEP_PROGRESS;
	if (n < 0 && errno == EAGAIN) {
		conn_poll(lp, c, true);
		return STEP_WAIT;
	}
	if (n <= 0) {
		/* 0: the file shrank under us; else the peer went. */
		if (n < 0 && conn_is_reset(errno))
			return STEP_RESET;
		return STEP_CLOSE;
	}
	conn_advance(a, n);
	stats_add(lp->st, STAT_BYTES_SENDFILE, n);
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
	if (!c->pipe_fill) {
		uint64_t want = s->len - a->poff;

		if (want > SPLICE_CHUNK)
			want = SPLICE_CHUNK;
		sqe = conn_sqe(lp);
		io_uring_prep_splice(sqe, a->resp.fd, s->off + a->poff,
				     c->pipe->wr, -1, want, 0);
		conn_set_op(c, sqe, OP_SPLICE_IN);
	} else {
		enum step r = key_room(lp, c, c->pipe_fill);

		if (r != STEP_PROGRESS)
			return r;
		sqe = conn_sqe(lp);
		io_uring_prep_splice(sqe, c->pipe->rd, -1, c->fd, -1,
				     c->pipe_fill,
				     more_after(a, c->pipe_fill) ?
				     SPLICE_F_MORE : 0);
		conn_set_op(c, sqe, OP_SPLICE_OUT);
	}
	return STEP_WAIT;
}

/* The kernel modes: memory by IORING_OP_SEND, files as configured. */
enum step conn_kernel_send(struct loop *lp, struct conn *c, size_t *budget)
{
	struct active *a = c->a;
	const struct resp_seg *s = a->piece >= 0 ? &a->resp.seg[a->piece] :
			      NULL;
	struct io_uring_sqe *sqe;
	const char *p;
	uint64_t len;
	enum step r;

	if (s && !s->mem)
		return lp->splice ? kernel_splice(lp, c) :
				    kernel_sendfile(lp, c, budget);
	p = s ? s->mem : a->resp.head;
	len = conn_piece_len(a, a->piece) - a->poff;
	if (!len) {
		conn_advance(a, 0);
		return STEP_PROGRESS;
	}
	/* A size tlsx_conn_tx_reserve() takes under any key limit. */
	if (len > SEND_BUDGET)
		len = SEND_BUDGET;
	r = key_room(lp, c, len);
	if (r != STEP_PROGRESS)
		return r;
	sqe = conn_sqe(lp);
	/* MSG_MORE: the head and the body share records. */
	io_uring_prep_send(sqe, c->fd, p + a->poff, len,
			   MSG_NOSIGNAL | (more_after(a, len) ? MSG_MORE : 0));
	conn_set_op(c, sqe, OP_SEND);
	return STEP_WAIT;
}

enum step conn_kernel_splice_in_done(struct loop *lp, struct conn *c,
				     int res)
{
	/* 0: the file shrank under us. */
	if (res <= 0)
		return STEP_CLOSE;
	c->pipe_fill = res;
	return kernel_splice(lp, c);
}

enum stat_id conn_kernel_body_stat(const struct loop *lp)
{
	return lp->splice ? STAT_BODY_SPLICE : STAT_BODY_SENDFILE;
}
