/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conn_priv.h - what the files of a connection's life share (private to
 * conn*.c; worker.c sees conn.h only):
 *
 *   conn.c         the states: requests, keep-alive, linger, close,
 *                  timeouts, completions dispatched by op; it calls the
 *                  record layer through its table only (conn_ops());
 *   conn_hs.c      the handshake: record-exact reads, steps, the flight,
 *                  and at the handoff the record layer's table;
 *   conn_layer.c   the tables: which functions serve which record layer,
 *                  and the choice of one (conn_layer_of());
 *   conn_kernel.c  the kernel record layers (tlsx.ko, tls): bodies by
 *                  sendfile(2) or splice, the provided-buffer ring that
 *                  request bytes are received into, the pipe pool;
 *   conn_user.c    libtlsx sealing: pieces gathered into records, files
 *                  read and sealed by tlsx_sendfile();
 *   conn_io.c      below them all: an SQE tagged with its conn, a poll,
 *                  the response's cursor, how a libtlsx error ends.
 *
 * The calls go down: conn.c calls the layers' files (through the table)
 * and conn_io.c; conn_kernel.c and conn_user.c call conn_io.c and
 * libtlsx, never conn.c: a step that ends the connection says how
 * (enum step) and conn.c closes it.
 *
 * Every function here is called with the conn's op slot free (c->op is
 * OP_NONE) unless it says otherwise, and leaves at most one op in flight.
 */
#ifndef TLSXD_CONN_PRIV_H
#define TLSXD_CONN_PRIV_H

#include <errno.h>

#include "conn.h"
#include "stats.h"

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

/* What a send step did, or how it ends the connection (conn.c does). */
enum step {
	STEP_PROGRESS,		/* bytes went: go on */
	STEP_WAIT,		/* an operation is in flight */
	STEP_CLOSE,		/* close, no close_notify: a failure */
	STEP_CLOSE_NOTIFY,	/* close_notify, then close */
	STEP_RESET,		/* the peer went: counted as a reset, closed */
};

/*
 * Before a response on the kernel's tls, which cannot change keys: does
 * it fit under the sending key's record limit (RFC 8446 5.5)?  KEY_LAST:
 * yes, but the connection ends after it; KEY_FULL: no.  KEY_FITS on the
 * other layers (tlsx sends a KeyUpdate when due: conn_kernel_send()).
 */
enum key_plan { KEY_FITS, KEY_LAST, KEY_FULL };

/*
 * A record layer as a connection's life sees it: one table per way of
 * moving bytes (conn_layer.c), picked at the handoff (conn_hs.c) and
 * called by conn.c (conn_ops()), which never asks which layer runs.
 */
struct conn_rl_ops {
	/* Waits for request bytes: an op in flight on return. */
	void (*wait_input)(struct loop *lp, struct conn *c);
	/*
	 * Input libtlsx holds (tlsx_pending()) that the socket's POLLIN
	 * would not announce: read it before waiting.
	 */
	bool (*input_kept)(const struct conn *c);
	/*
	 * After a read that gave bytes but no whole head: read again now
	 * (the kernel's recvmsg says EAGAIN cheaply), or wait (the
	 * userspace layer, unless libtlsx holds input: a read(2) that
	 * would only return EAGAIN is saved).
	 */
	bool (*read_again)(const struct conn *c);
	/*
	 * At the handoff, read at once: the request often follows the
	 * client's Finished (the userspace layer; the kernel modes' ring
	 * receive completes at once anyway).
	 */
	bool read_at_handoff;
	/*
	 * Bodies go past libtlsx (raw send/sendfile/splice): a write it
	 * owes (a KeyUpdate reply, RFC 8446 4.6.3) is paid first.  Through
	 * libtlsx, tlsx_write() pays it.
	 */
	bool tx_past_libtlsx;
	/*
	 * HTTP/2 sends turns by tlsx_sendv() (conn_h2.c): libtlsx seals in
	 * userspace, so many frames cost one call.  Not on "sized", where
	 * the kernel seals each send(2) as its own records (libtlsx cuts
	 * them): a frame header alone would be a record there; its items
	 * are gathered into records by conn_user.c.
	 */
	bool h2_turns;
	/* The piece(s) due, taking from *@budget. */
	enum step (*send)(struct loop *lp, struct conn *c, size_t *budget);
	/* The plan went whole: what the layer still holds, pushed. */
	enum step (*send_end)(struct loop *lp, struct conn *c);
	/* Before a keep-alive response: its records under the key. */
	enum key_plan (*key_plan)(struct conn *c);
	/*
	 * The same in records, for HTTP/2's streams (conn_h2.c): @need
	 * more after @due already promised to streams under way.
	 */
	enum key_plan (*key_plan_records)(struct conn *c, uint64_t due,
					  uint64_t need);
	/* The counter of a response with a file body (STAT_BODY_*). */
	enum stat_id (*body_stat)(const struct loop *lp);
};

/*
 * The tables (conn_layer.c), one per way of moving bytes; a connection
 * names its own by index (c->layer: one byte of struct conn, not a
 * pointer's eight).
 */
enum conn_layer {
	CONN_LAYER_TLSX,	/* tlsx.ko both ways */
	CONN_LAYER_TLS,		/* the kernel's tls both ways */
	CONN_LAYER_SIZED,	/* a kernel mode, libtlsx cutting records */
	CONN_LAYER_USER,	/* libtlsx's userspace layer */
	CONN_LAYERS,
};
extern const struct conn_rl_ops conn_layers[CONN_LAYERS];

/* @c's record layer, as the handoff chose it. */
static inline const struct conn_rl_ops *conn_ops(const struct conn *c)
{
	return &conn_layers[c->layer];
}

/*
 * conn_layer.c: the table for record layer @rl; @libtlsx_cuts: the
 * kernel does not cut records to the peer's record_size_limit.
 */
enum conn_layer conn_layer_of(enum tlsx_record_layer rl, bool libtlsx_cuts);


static inline bool conn_is_reset(int err)
{
	return err == ECONNRESET || err == EPIPE || err == ETIMEDOUT;
}

/* The plan went whole: every piece past the head. */
static inline bool conn_send_finished(const struct active *a)
{
	return a->piece >= (int)a->resp.nseg;
}

/* ---- conn_io.c: below the hub and the layers ------------------------- */

/* An SQE, submitting the queue first when it is full. */
struct io_uring_sqe *conn_sqe(struct loop *lp);
/* @sqe is @c's one op (@op): tagged with the conn and its generation. */
void conn_set_op(struct conn *c, struct io_uring_sqe *sqe, enum conn_op op);
/* Waits for POLLOUT (@out) or POLLIN on @c's socket. */
void conn_poll(struct loop *lp, struct conn *c, bool out);
/* The response's cursor: the length of piece @piece (-1: the head). */
uint64_t conn_piece_len(const struct active *a, int piece);
/* @n bytes of the plan went: past the head, segments, empty pieces. */
void conn_advance(struct active *a, uint64_t n);
/* How libtlsx error @err ends @c: STEP_RESET for a reset, else STEP_CLOSE. */
enum step conn_tls_step(const struct conn *c, long err);

/* ---- conn.c: the states ---------------------------------------------- */

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

/* A plan in c->a (the head, the segments) sent as a response is (h2). */
void conn_send_plan(struct loop *lp, struct conn *c);
/* @c's request buffer, taken from the worker's cache if it holds none. */
struct active *conn_active_get(struct loop *lp, struct conn *c);
/* An IORING_OP_NOP: the others' turn, then @c goes on (OP_YIELD). */
void conn_yield(struct loop *lp, struct conn *c);

/* ---- conn_h2.c: HTTP/2 (docs/http2.md) --------------------------------- */

/* ALPN chose h2: false when out of memory. */
bool conn_h2_start(struct loop *lp, struct conn *c);
void conn_h2_free(struct conn *c);
/* Read, send, wait: an HTTP/2 connection's turn. */
void conn_h2_pump(struct loop *lp, struct conn *c);
/* The plan conn_send_plan() was given went whole. */
void conn_h2_sent(struct loop *lp, struct conn *c);
/* Drain: GOAWAY, the streams taken finish, then the close. */
void conn_h2_drain(struct loop *lp, struct conn *c);
/* A completion of @c's that is HTTP/2's (true) or conn.c's (false). */
bool conn_h2_event(struct loop *lp, struct conn *c, enum conn_op op, int res);

/* ---- conn_hs.c: the handshake ---------------------------------------- */

/* @c was accepted (c->tls NULL: its config failed): the first read. */
void conn_hs_start(struct loop *lp, struct conn *c, bool armed);
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
/* The kernel's tls: the response under the sending key's limit? */
enum key_plan conn_kernel_key_plan(struct conn *c);
enum key_plan conn_kernel_key_plan_records(struct conn *c, uint64_t due,
					   uint64_t need);
/* How a file body goes on the kernel path (--body). */
enum stat_id conn_kernel_body_stat(const struct loop *lp);
/* Request bytes: the ring's receive, or POLLIN without the ring. */
void conn_kernel_wait_input(struct loop *lp, struct conn *c);
/* OP_SPLICE_IN completed: @res bytes in the pipe, now to the socket. */
enum step conn_kernel_splice_in_done(struct loop *lp, struct conn *c,
				     int res);
/* The response is over: its pipe back to the pool (a full one closed). */
void conn_kernel_pipe_release(struct loop *lp, struct conn *c);
/* The pipe pool's pipes, closed (conn_pool_free()). */
void conn_kernel_pipes_free(struct loop *lp);
/* Ring buffer @bid's bytes; given back by conn_kernel_buf_recycle(). */
const void *conn_kernel_buf(struct loop *lp, unsigned int bid);
void conn_kernel_buf_recycle(struct loop *lp, unsigned int bid);

/* ---- conn_user.c: libtlsx seals --------------------------------------- */

/* The piece(s) due, sealed by libtlsx, taking from *@budget. */
void conn_proxy_start(struct loop *lp, struct conn *c);
void conn_proxy_read(struct loop *lp, struct conn *c);

enum step conn_user_send(struct loop *lp, struct conn *c, size_t *budget);
/* The plan was taken whole: a record sealed but not yet sent pushed. */
enum step conn_user_flush(struct loop *lp, struct conn *c);
/* libtlsx holds input: tlsx_pending(). */
bool conn_user_input_kept(const struct conn *c);

#endif
