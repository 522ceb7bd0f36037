/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conn.h - one connection of a worker and the worker's loop state they
 * share (worker.c owns the ring; conn.c runs a connection's life:
 * handshake, request, response, keep-alive, close, with the record
 * layers' files behind it: conn_priv.h).
 *
 * Every completion names its connection by user_data: the conn pointer,
 * an op tag in its low 3 bits and the connection's generation in the top
 * 16 (x86-64 user addresses fit in 47 bits).  A connection has at most
 * one operation in flight; it goes back to the pool only once that has
 * completed, and a completion whose generation differs from the conn's
 * is dropped.
 */
#ifndef TLSXD_CONN_H
#define TLSXD_CONN_H

#include <liburing.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "server.h"
#include "timer.h"

/* user_data tags. */
enum op_tag {
	TAG_CONN = 0,		/* the conn's one operation: see conn->op */
	TAG_ACCEPT = 1,		/* high bits: the listener's index */
	TAG_TICK = 2,		/* the once-a-second timeout */
	TAG_WAKE = 3,		/* the eventfd read */
	TAG_CANCEL = 4,		/* a cancel request's own completion */
};

#define UD_TAG_MASK	7ull
#define UD_GEN_SHIFT	48
#define UD_PTR_MASK	((1ull << UD_GEN_SHIFT) - 1 - UD_TAG_MASK)

/* The operation a connection waits on. */
enum conn_op {
	OP_NONE,
	OP_RECV,	/* handshake: a record's header or body */
	OP_RECV_BUF,	/* kernel modes: request bytes, a ring buffer */
	OP_SEND,	/* handshake flight remainder, a head, a memory segment */
	OP_POLL_IN,
	OP_POLL_OUT,
	OP_SPLICE_IN,	/* file -> pipe */
	OP_SPLICE_OUT,	/* pipe -> socket */
	OP_YIELD,	/* a NOP: read on after the others' turn */
};

enum conn_state {
	CS_HANDSHAKE,
	CS_IDLE,	/* keep-alive: waiting for a request's first byte */
	CS_HEAD,	/* reading a request head */
	CS_SEND,	/* sending a response */
	CS_LINGER,	/* FIN sent: reading the client's rest away */
	CS_CLOSING,	/* waiting for the op in flight to end */
};

/* A pipe of the worker's pool (splice bodies). */
struct pipe_pair {
	int rd, wr;
	struct pipe_pair *next;
};

struct loop {
	struct io_uring ring;
	struct worker *w;
	struct server *srv;
	const struct tlsxd_conf *conf;
	struct stats *st;
	struct timers timers;
	uint64_t now_ms;	/* CLOCK_MONOTONIC, once per iteration */
	time_t now;		/* the wall clock, for Date */
	uint8_t *hs_out;	/* TLSX_STEP_OUT_MIN: every handshake's output */
	uint8_t *gather;	/* user mode: a record's plaintext gathered */
	size_t gather_cap;
	/* HTTP/2 turns on the userspace layers (conn_h2.c), at first use. */
	struct h2_turn_buf *h2_turn;
	struct access_log_buf *alog;
	struct conn *live;	/* every connection (drain, exit) */
	struct conn *free;	/* the pool: closed conns, reused */
	unsigned int nconns, nfree;
	struct active *act_free;	/* request/response buffers, reused */
	unsigned int nact_free;
	size_t req_cap;		/* a request buffer's size */
	struct io_uring_buf_ring *br;	/* conn_bufs_init(), or NULL */
	uint8_t *br_bufs;		/* CONN_BUF_COUNT x CONN_BUF_SIZE */
	bool br_failed;			/* not supported: POLLIN instead */
	struct pipe_pair *pipes;	/* the pipe pool */
	unsigned int npipes;
	bool splice;		/* bodies by splice, else sendfile */
	bool stopping;
	uint64_t drain_deadline;
	uint64_t wake_val;	/* the eventfd read's target */
	struct __kernel_timespec tick;
	unsigned int accepts_armed;	/* multishot accepts in flight */
	unsigned int nlisten;
	const int *listen_fds;
};

/*
 * A request being read and answered: the head's bytes, the parsed
 * request and the response plan with its buffer.  Taken from the
 * worker's cache at a request's first byte and given back when the
 * connection is idle: an idle connection holds none.
 */
struct active {
	struct active *next;		/* in the cache */
	struct http_req req;
	struct http_scan scan;		/* the head in buf so far */
	struct resp resp;
	size_t len;			/* bytes in buf */
	size_t head_len;		/* the head being answered */
	int piece;			/* -1: the head, else resp.seg[] */
	uint64_t poff;			/* bytes of that piece sent */
	uint64_t body_sent;
	bool parsed;			/* req is valid (for the log) */
	bool logged;			/* the access log has it */
	char rbuf[RESP_BUF_MIN];	/* the plan's head and part headers */
	char buf[];			/* loop->req_cap bytes */
};

struct conn {
	struct timer_node timer;
	struct conn *next, *prev;	/* loop->live, or loop->free */
	struct tlsx_conn *tls;
	struct active *a;
	struct pipe_pair *pipe;
	struct conn_h2 *h2;		/* ALPN h2: conn_h2.c, else NULL */
	int fd;
	uint16_t gen;
	uint8_t state;			/* enum conn_state */
	uint8_t op;			/* enum conn_op in flight */
	uint8_t layer;			/* enum conn_layer: c's table, conn_ops() */
	bool established;		/* the record layer is up */
	bool hs_done;			/* the engine finished: hand off */
	bool close_after;		/* the response in flight ends it */
	bool timed_out;
	bool proxy_wait;		/* a PROXY header is read first */
	uint8_t hs_hdr_len;
	uint8_t hs_hdr[5];		/* a handshake record's header */
	uint32_t hs_rec_len;		/* bytes of hs_rec read */
	uint8_t *hs_rec;		/* the record being read, whole size */
	uint8_t *pend;			/* bytes an OP_SEND of ours sends */
	uint32_t pend_len, pend_off;
	uint32_t pipe_fill;		/* bytes in the pipe, splice */
	unsigned int requests;
	uint64_t discard;		/* request body bytes to drop */
	union {
		struct sockaddr sa;
		struct sockaddr_in v4;
		struct sockaddr_in6 v6;
	} peer;
};

/*
 * Takes accepted socket @fd (non-blocking): starts its handshake, after
 * a PROXY protocol header when @proxy (conn_proxy.c).
 */
void conn_accept(struct loop *lp, int fd, bool proxy);

/* A completion for @c: the CQE's result and flags. */
void conn_complete(struct loop *lp, struct conn *c, int res,
		   unsigned int flags);

/*
 * The kernel modes' receive buffers: a provided-buffer ring (group
 * CONN_BUF_GROUP) the kernel takes one from when bytes arrive, so that
 * an idle connection waits in IORING_OP_RECV holding no buffer.  Set up
 * at the first kernel-mode connection; without it (an old kernel) they
 * wait on POLLIN and read with tlsx_read().
 */
#define CONN_BUF_GROUP	0
#define CONN_BUF_COUNT	256
#define CONN_BUF_SIZE	2048
int conn_bufs_init(struct loop *lp);
void conn_bufs_free(struct loop *lp);

/* @c's timer of @kind expired (timer.h has disarmed it). */
void conn_timeout(struct loop *lp, struct conn *c, enum timer_kind kind);
/* The SETTINGS timer @n (TIMER_H2_SETTINGS) of an h2 connection expired. */
void conn_h2_settings_timeout(struct loop *lp, struct timer_node *n);

/* Drain: closes @c if it has no response or request in progress. */
void conn_drain(struct loop *lp, struct conn *c);

/* Closes @c at once (drain over, exit): no close_notify if stuck. */
void conn_abort(struct loop *lp, struct conn *c);

/* Frees the pool, the buffer cache and the pipes (the ring is gone). */
void conn_pool_free(struct loop *lp);
/* The worker's HTTP/2 turn buffers and stream pool (conn_h2.c). */
void conn_h2_worker_free(struct loop *lp);

static inline uint64_t conn_ud(const struct conn *c)
{
	return (uint64_t)(uintptr_t)c | ((uint64_t)c->gen << UD_GEN_SHIFT) |
	       TAG_CONN;
}

#endif
