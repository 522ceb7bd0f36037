/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conn_priv.h - what the files of a connection's life share (private to
 * conn*.c; worker.c sees conn.h only):
 *
 *   conn.c         the states: requests, the response's cursor, keep-alive,
 *                  linger, close, timeouts, completions dispatched by op;
 *   conn_hs.c      the handshake: record-exact reads, steps, the flight;
 *   conn_kernel.c  the kernel record layers (tlsx.ko, tls): bodies by
 *                  sendfile(2) or splice, the provided-buffer ring that
 *                  request bytes are received into, the pipe pool;
 *   conn_user.c    libtlsx's userspace record layer: pieces gathered into
 *                  records, files read and sealed by tlsx_sendfile().
 *
 * Every function here is called with the conn's op slot free (c->op is
 * OP_NONE) unless it says otherwise, and leaves at most one op in flight.
 */
#ifndef TLSXD_CONN_PRIV_H
#define TLSXD_CONN_PRIV_H

#include <errno.h>

#include "conn.h"

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

/* What a send step did. */
enum step {
	STEP_PROGRESS,	/* bytes went: go on */
	STEP_WAIT,	/* an operation is in flight */
	STEP_CLOSED,	/* the connection is closing */
};

static inline bool conn_is_reset(int err)
{
	return err == ECONNRESET || err == EPIPE || err == ETIMEDOUT;
}

/* ---- conn.c: the ring, the states ------------------------------------ */

/* An SQE, submitting the queue first when it is full. */
struct io_uring_sqe *conn_sqe(struct loop *lp);
/* @sqe is @c's one op (@op): tagged with the conn and its generation. */
void conn_set_op(struct conn *c, struct io_uring_sqe *sqe, enum conn_op op);
/* Waits for POLLOUT (@out) or POLLIN on @c's socket. */
void conn_poll(struct loop *lp, struct conn *c, bool out);
/*
 * Closes @c, close_notify first when @graceful (conn.c has the rules);
 * an op in flight is cancelled and @c freed at its completion.
 */
void conn_close(struct loop *lp, struct conn *c, bool graceful);
/* The peer went mid-way: counted (STAT_CLIENT_RESET), closed. */
void conn_reset(struct loop *lp, struct conn *c);
/* A libtlsx error @err on @c: a reset counted as one, then closed. */
void conn_tls_failed(struct loop *lp, struct conn *c, long err);
/* Waits for the next request; @first: the one after the handshake. */
void conn_to_idle(struct loop *lp, struct conn *c, bool first);

/* The response's cursor: the length of piece @piece (-1: the head). */
uint64_t conn_piece_len(const struct active *a, int piece);
/* @n bytes of the plan went: past the head, segments, empty pieces. */
void conn_advance(struct active *a, uint64_t n);

/* ---- conn_hs.c: the handshake ---------------------------------------- */

/* @c was accepted (c->tls NULL: its config failed): the first read. */
void conn_hs_start(struct loop *lp, struct conn *c);
/* The next read of a record (after POLLIN, too). */
void conn_hs_read(struct loop *lp, struct conn *c);
/* The send of a flight's remainder (after POLLOUT, too). */
void conn_hs_pend_send(struct loop *lp, struct conn *c);
/* Completions of those: OP_RECV, and OP_SEND in CS_HANDSHAKE. */
void conn_hs_recv_done(struct loop *lp, struct conn *c, int res);
void conn_hs_pend_done(struct loop *lp, struct conn *c, int res);

/* ---- conn_kernel.c: the kernel record layers ------------------------- */

/*
 * The piece due by the kernel path: memory by IORING_OP_SEND, a file
 * segment by sendfile(2) (taking from *@budget) or through the pipe.
 */
enum step conn_kernel_send(struct loop *lp, struct conn *c, size_t *budget);
/*
 * Before a response on the kernel's tls, which cannot change keys: does
 * it fit under the sending key's record limit (RFC 8446 5.5)?  KEY_LAST:
 * yes, but the connection ends after it; KEY_FULL: no.  KEY_FITS on the
 * other layers (tlsx sends a KeyUpdate when due: conn_kernel_send()).
 */
enum key_plan { KEY_FITS, KEY_LAST, KEY_FULL };
enum key_plan conn_kernel_key_plan(struct conn *c);
/* OP_SPLICE_IN completed: @res bytes in the pipe, now to the socket. */
void conn_kernel_splice_in_done(struct loop *lp, struct conn *c, int res);
/* The response is over: its pipe back to the pool (a full one closed). */
void conn_kernel_pipe_release(struct loop *lp, struct conn *c);
/* The pipe pool's pipes, closed (conn_pool_free()). */
void conn_kernel_pipes_free(struct loop *lp);
/* An IORING_OP_RECV of at most @len bytes into a ring buffer. */
void conn_kernel_recv(struct loop *lp, struct conn *c, size_t len);
/* Ring buffer @bid's bytes; given back by conn_kernel_buf_recycle(). */
const void *conn_kernel_buf(struct loop *lp, unsigned int bid);
void conn_kernel_buf_recycle(struct loop *lp, unsigned int bid);

/* ---- conn_user.c: libtlsx's userspace record layer ------------------- */

/* The piece(s) due, sealed by libtlsx, taking from *@budget. */
enum step conn_user_send(struct loop *lp, struct conn *c, size_t *budget);
/* The plan was taken whole: a record sealed but not yet sent pushed. */
enum step conn_user_flush(struct loop *lp, struct conn *c);

#endif
