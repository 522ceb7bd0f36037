// SPDX-License-Identifier: GPL-2.0
/*
 * conn_io.c - what conn.c and the record layers' files (conn_kernel.c,
 * conn_user.c) share, below them all: an SQE tagged with its conn, a
 * poll, the response's cursor, and how a libtlsx error ends a
 * connection.  It calls nothing of theirs, so the layers need not call
 * up into conn.c for it.
 */
#include <poll.h>

#include "conn_priv.h"

struct io_uring_sqe *conn_sqe(struct loop *lp)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&lp->ring);

	if (!sqe) {
		/* The SQ is full: hand it to the kernel, which empties it. */
		io_uring_submit(&lp->ring);
		sqe = io_uring_get_sqe(&lp->ring);
	}
	return sqe;
}

void conn_set_op(struct conn *c, struct io_uring_sqe *sqe, enum conn_op op)
{
	c->op = op;
	io_uring_sqe_set_data64(sqe, conn_ud(c));
}

void conn_poll(struct loop *lp, struct conn *c, bool out)
{
	struct io_uring_sqe *sqe = conn_sqe(lp);

	io_uring_prep_poll_add(sqe, c->fd, out ? POLLOUT : POLLIN);
	conn_set_op(c, sqe, out ? OP_POLL_OUT : OP_POLL_IN);
}

uint64_t conn_piece_len(const struct active *a, int piece)
{
	return piece < 0 ? a->resp.head_len : a->resp.seg[piece].len;
}

/* @n bytes went: past the head, segments, and empty pieces. */
void conn_advance(struct active *a, uint64_t n)
{
	while (!conn_send_finished(a)) {
		uint64_t left = conn_piece_len(a, a->piece) - a->poff;
		uint64_t take = n < left ? n : left;

		a->poff += take;
		if (a->piece >= 0)
			a->body_sent += take;
		n -= take;
		if (a->poff < conn_piece_len(a, a->piece))
			break;
		a->piece++;
		a->poff = 0;
	}
}

enum step conn_tls_step(const struct conn *c, long err)
{
	if (err == TLSX_E_SYSCALL && conn_is_reset(tlsx_conn_errno(c->tls)))
		return STEP_RESET;
	return STEP_CLOSE;
}
