/* SPDX-License-Identifier: GPL-2.0 */
/*
 * h2_conn.h - one HTTP/2 connection, server side, without I/O
 * (docs/http2.md): bytes in (h2_conn_in_space(), h2_conn_in_commit()),
 * things to send out (h2_conn_next(), h2_conn_item_done()), and the
 * owner's table (struct h2_conn_ops) to plan a request's response
 * (resp.c, through the owner) and to log a stream that ended.
 *
 * Inside: the preface and SETTINGS (RFC 9113 3.4, 6.5), streams and
 * their states (5.1), header blocks (HEADERS + CONTINUATION, 4.3, 6.10)
 * decoded by HPACK, flow control (5.2, 6.9), PING (6.7), RST_STREAM
 * (6.4), GOAWAY (6.8), PRIORITY read and ignored (5.3), and the limits
 * of docs/http2.md's table.  The sender: control frames first, then
 * HEADERS in the order requests came, then one DATA frame per turn of
 * each stream with bytes due and window left (round robin).
 */
#ifndef TLSXD_H2_CONN_H
#define TLSXD_H2_CONN_H

#include <stdbool.h>
#include <stdint.h>

#include "../resp.h"
#include "h2_frame.h"
#include "h2_req.h"
#include "hpack.h"

/* The limits (docs/http2.md); h2_conf_default() fills the defaults. */
struct h2_conf {
	uint32_t max_streams;		/* SETTINGS_MAX_CONCURRENT_STREAMS */
	uint32_t header_list_max;	/* SETTINGS_MAX_HEADER_LIST_SIZE */
	uint32_t header_block_max;	/* compressed block, all frames */
	uint32_t block_frames_max;	/* HEADERS + CONTINUATIONs */
	uint32_t reset_budget;		/* streams the peer may reset early */
	uint32_t flood_burst;		/* free frames at once ... */
	uint32_t flood_per_s;		/* ... and per second after */
	uint32_t streams_total_max;	/* then a graceful GOAWAY */
	struct http_limits http;	/* the field count (431) */
};

void h2_conf_default(struct h2_conf *c);

/* A stream the owner plans a response for. */
struct h2_stream {
	struct h2_stream *next;		/* the connection's streams */
	struct h2_stream *rnext;	/* the DATA ring / HEADERS queue */
	uint32_t id;
	int64_t window;			/* our send window (6.9) */
	bool half_closed;		/* END_STREAM came: half-closed (remote) */
	bool queued_hdr;		/* in the HEADERS queue */
	bool in_ring;			/* in the DATA ring */
	bool headers_sent;		/* its HEADERS are in an item */
	unsigned int inflight;		/* its frames in the item being sent */
	bool gone;			/* reset (either side): free when idle */
	bool rst_after;			/* a body was announced: RST NO_ERROR */
	bool refuse;			/* set by ops->plan(): not served */
	int seg;			/* resp.seg[] being cut into DATA */
	uint64_t seg_off;		/* (advanced as frames are cut) */
	uint64_t body_sent;
	struct resp resp;		/* the owner's plan */
	struct http_req req;		/* valid during ops->plan() only */
	void *owner;			/* the owner's, per stream */
	/* Last: not cleared for a new stream (the plan writes it). */
	char rbuf[RESP_BUF_MIN];	/* the plan's head and part headers */
};

/*
 * Counters: each event is counted in h2_conn.counts and given to the
 * owner (h2_conn_ops.count) as it happens, so that a long connection's
 * streams show in the statistics before it ends.
 */
enum h2_count {
	H2_CNT_STREAMS,			/* streams taken (planned) */
	H2_CNT_RST_PEER,		/* RST_STREAM from the peer */
	H2_CNT_RST_SENT,		/* RST_STREAM from us, any code */
	H2_CNT_REFUSED,			/* over MAX_CONCURRENT_STREAMS (5.1.2) */
	/* The limits of docs/http2.md, each time one is hit. */
	H2_CNT_RAPID_RESET,		/* the reset budget ran out */
	H2_CNT_BLOCK_LIMIT,		/* header block octets or frames */
	H2_CNT_LIST_LIMIT,		/* decoded header list: 431 */
	H2_CNT_FLOOD,			/* the SETTINGS/PING/empty bucket */
	H2_CNT_OWED,			/* control answers owed */
	/* GOAWAYs sent, by error code (RFC 9113 7): + the code. */
	H2_CNT_GOAWAY,
	H2_CNT_N = H2_CNT_GOAWAY + H2_HTTP_1_1_REQUIRED + 1
};

struct h2_conn_ops {
	/*
	 * Plan @s's response: @status 0 means s->req is a request to
	 * serve (resp_plan()), else answer @status (resp_error()).  The
	 * plan goes into s->resp using s->rbuf.  Setting s->refuse
	 * refuses the stream instead: RST_STREAM REFUSED_STREAM (RFC 9113
	 * 8.7: not processed, the client may retry it), then done().
	 */
	void (*plan)(void *owner, struct h2_stream *s, int status);
	/* @s ends: @complete when its response went whole; release it. */
	void (*done)(void *owner, struct h2_stream *s, bool complete);
	/*
	 * Optional: memory for a stream (sizeof(struct h2_stream), from a
	 * pool: a turn ends many streams at once, and malloc() would give
	 * the heap back and fault it in again), and its return.  NULL:
	 * malloc() and free().
	 */
	void *(*stream_get)(void *owner);
	void (*stream_put)(void *owner, void *p);
	/* Optional: an event of @id happened (enum h2_count). */
	void (*count)(void *owner, enum h2_count id);
};

/* What to send next: @mem bytes, then @flen bytes of file @fd at @foff. */
struct h2_item {
	const uint8_t *mem;
	size_t mem_len;
	int fd;				/* -1: none */
	uint64_t foff;
	uint64_t flen;
	bool progress;			/* HEADERS or DATA: a stream moved */
};

/*
 * A turn (h2_conn_next_turn()): many frames, of several streams, as
 * pieces to send in order by one call (tlsx_sendv()).  The owner gives
 * the arena (frame headers, HEADERS blocks and small DATA payloads are
 * written there), the piece array and the budget; a piece's @mem points
 * into the arena, into the connection's control queue or is NULL for a
 * range of the file @fd.
 */
struct h2_piece {
	const uint8_t *mem;
	int fd;
	uint64_t off;
	uint64_t len;
};

struct h2_turn {
	uint8_t *arena;
	size_t arena_cap;
	struct h2_piece *p;
	unsigned int cap;		/* pieces, at least 8 */
	uint64_t max_bytes;		/* the turn stops once past this */
	/* Filled by h2_conn_next_turn(). */
	size_t arena_len;
	unsigned int n;
	uint64_t bytes;
	bool progress;			/* HEADERS or DATA: a stream moved */
};

/* Frames of streams one turn carries at most. */
#define H2_TURN_FRAMES	128

enum h2_phase {
	H2_PH_PREFACE,	/* the client's 24 octets (3.4) */
	H2_PH_SETTINGS,	/* its first frame must be SETTINGS */
	H2_PH_RUNNING,
};

struct h2_counts {
	uint64_t n[H2_CNT_N];
};

#define H2_CTL_CAP	2048		/* control frames owed */
#define H2_HDR_CAP	(2 * RESP_BUF_MIN)	/* one HEADERS block */
/* A DATA payload from memory (a part header) is copied: small. */
#define H2_MEM_DATA_MAX	1024
/* The arena room one HEADERS needs: its block, a first DATA frame. */
#define H2_UNIT_MAX	(H2_HDR_CAP + H2_FRAME_HDR_LEN + H2_MEM_DATA_MAX)

/* A stream's frame in the item being sent: committed when it went. */
struct h2_sent {
	struct h2_stream *s;
	uint64_t payload;
	bool end;			/* END_STREAM: the stream's last */
};

struct h2_conn {
	const struct h2_conf *conf;
	const struct h2_conn_ops *ops;
	void *owner;
	enum h2_phase phase;
	/* Input: one frame at most (our SETTINGS_MAX_FRAME_SIZE). */
	uint8_t *in;
	size_t in_len, in_cap;
	/* A header block being gathered (4.3). */
	uint8_t *blk;
	size_t blk_len;
	uint32_t blk_stream;		/* 0: none in progress */
	uint32_t blk_frames;
	bool blk_end_stream;
	bool blk_discard;		/* decode only: not a new stream */
	/* The request fields' strings while one is built. */
	char *fields;
	/* Output. */
	uint8_t ctl[H2_CTL_CAP];
	size_t ctl_len;
	/* h2_conn_next()'s arena: one HEADERS and a first DATA frame. */
	uint8_t hdr[H2_UNIT_MAX];
	/* The item (or turn) in flight. */
	bool item_busy;
	size_t item_ctl;		/* of h->ctl's bytes */
	struct h2_sent sent[H2_TURN_FRAMES];
	unsigned int nsent;
	/* Streams. */
	struct h2_stream *streams;
	unsigned int nstreams;		/* not yet ended */
	struct h2_stream *hq_head, *hq_tail;	/* HEADERS to send */
	struct h2_stream *ring_head, *ring_tail;	/* DATA due */
	uint32_t last_id;		/* the highest client stream id seen */
	uint32_t accepted;		/* streams taken */
	/* The peer's settings and our windows. */
	uint32_t peer_max_frame;
	int64_t peer_initial_window;
	int64_t send_window;		/* the connection's (6.9) */
	int64_t recv_window;		/* DATA the peer may still send */
	/* Limits. */
	uint32_t reset_budget;
	uint32_t flood_tokens;
	uint64_t flood_ms;
	/* Our SETTINGS not yet acknowledged (6.5.3). */
	unsigned int settings_unacked;
	/* GOAWAY. */
	bool goaway_sent;
	uint32_t goaway_last;
	bool peer_goaway;
	bool failed;			/* a connection error: close after GOAWAY */
	enum h2_error error;
	struct h2_counts counts;
	struct hpack_decoder dec;
	struct hpack_encoder enc;
};

/* 0, or -ENOMEM.  Queues our SETTINGS (3.4: the server's preface). */
int h2_conn_init(struct h2_conn *h, const struct h2_conf *conf,
		 const struct h2_conn_ops *ops, void *owner);
/* Every stream ended (ops->done(), not complete) and all freed. */
void h2_conn_free(struct h2_conn *h);

/* Where input goes: up to *@room bytes at the returned pointer. */
uint8_t *h2_conn_in_space(struct h2_conn *h, size_t *room);
/*
 * @n bytes were put there at @now_ms: frames processed.  Returns 0, or
 * -1 when the connection failed (a GOAWAY is queued: send what
 * h2_conn_next() gives, then close).
 */
int h2_conn_in_commit(struct h2_conn *h, size_t n, uint64_t now_ms);

/*
 * The next item to send, in *@it: true, or false when nothing can go
 * now (nothing due, or every window closed).  The item must be sent
 * whole and h2_conn_item_done() called before the next h2_conn_next().
 */
bool h2_conn_next(struct h2_conn *h, struct h2_item *it);
/*
 * A turn instead of one item (for a layer that seals in userspace, where
 * many frames in one tlsx_sendv() cost what one does): control frames,
 * then the HEADERS queued (each with its first DATA frame), then DATA
 * round robin across the streams with window, one frame per stream per
 * round, until @t's budget, arena, pieces or H2_TURN_FRAMES run out.
 * False when nothing can go.  Sent whole, then h2_conn_item_done().
 */
bool h2_conn_next_turn(struct h2_conn *h, struct h2_turn *t);
void h2_conn_item_done(struct h2_conn *h);

/*
 * The owner's SETTINGS timer expired (6.5.3): if our SETTINGS is still
 * not acknowledged, the connection error SETTINGS_TIMEOUT (a GOAWAY is
 * queued) and true; false when it was acknowledged.
 */
bool h2_conn_settings_expired(struct h2_conn *h);
/* Our SETTINGS awaits its ACK. */
static inline bool h2_conn_settings_pending(const struct h2_conn *h)
{
	return h->settings_unacked;
}

/* A graceful GOAWAY NO_ERROR (drain, 6.8): no new streams after. */
void h2_conn_goaway(struct h2_conn *h);

/* Nothing more will happen: GOAWAY sent (or failed) and no stream left. */
bool h2_conn_over(const struct h2_conn *h);
/* Streams with a response under way (the send timeout runs). */
bool h2_conn_busy(const struct h2_conn *h);

#endif
