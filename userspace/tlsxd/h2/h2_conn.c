// SPDX-License-Identifier: GPL-2.0
/*
 * h2_conn.c - one HTTP/2 connection, server side, without I/O
 * (h2_conn.h, docs/http2.md).  Each rule is enforced where it is cited.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "h2_conn.h"
#include "h2_resp.h"

/* Our SETTINGS_HEADER_TABLE_SIZE: the RFC's initial value (6.5.2). */
#define H2_TABLE_SIZE		4096
/* Our encoder's table, whatever the peer allows. */
#define H2_ENC_TABLE_SIZE	4096
/*
 * TLS 1.3 records carry 16 KiB of plaintext (RFC 8446 5.1).  A DATA
 * frame whose header and payload fill whole records seals into full
 * records on every layer: the kernel's ends a record where a sendfile
 * ends, so a 16,384-octet payload after its 9-octet header would cost a
 * second, 9-octet record per frame (docs/http2.md).
 */
#define H2_RECORD		16384u
/* The most one stream sends per turn: 16 records (fairness). */
#define H2_DATA_QUANTUM		(16 * H2_RECORD - H2_FRAME_HDR_LEN)
/* The receive window is topped up once this much of it was used. */
#define H2_RECV_REFILL		(H2_WINDOW_INITIAL / 2)

void h2_conf_default(struct h2_conf *c)
{
	static const struct http_limits http = HTTP_LIMITS_DEFAULT;

	c->max_streams = 100;
	c->header_list_max = 16384;
	c->header_block_max = 16384;
	c->block_frames_max = 8;
	c->reset_budget = 100;
	c->flood_burst = 200;
	c->flood_per_s = 50;
	c->streams_total_max = 1000;
	c->http = http;
}

/* ---- counters ------------------------------------------------------------ */

static void count(struct h2_conn *h, enum h2_count id)
{
	h->counts.n[id]++;
	if (h->ops->count)
		h->ops->count(h->owner, id);
}

/* ---- output: control frames -------------------------------------------- */

/*
 * Room for a control frame of @len octets, or a connection error: the
 * peer makes us owe more answers (SETTINGS and PING acks) than we send
 * (docs/http2.md: the owed-frames limit).
 */
static uint8_t *ctl_room(struct h2_conn *h, size_t len)
{
	if (h->ctl_len + len > sizeof(h->ctl))
		return NULL;
	return h->ctl + h->ctl_len;
}

static void conn_fail(struct h2_conn *h, enum h2_error code);

/* No room for an answer we owe: the owed-frames limit. */
static void owed_full(struct h2_conn *h)
{
	count(h, H2_CNT_OWED);
	conn_fail(h, H2_ENHANCE_YOUR_CALM);
}

static void ctl_rst(struct h2_conn *h, uint32_t id, enum h2_error code)
{
	uint8_t *p = ctl_room(h, H2_FRAME_HDR_LEN + 4);

	if (!p) {
		owed_full(h);
		return;
	}
	h->ctl_len += h2_write_rst_stream(p, id, code);
	count(h, H2_CNT_RST_SENT);
}

/*
 * A connection error (5.4.1): GOAWAY with the last stream id we took
 * and @code, then the close.  Whatever was queued before goes first;
 * when there is no room for the GOAWAY the oldest control bytes not in
 * flight give way to it.
 */
static void conn_fail(struct h2_conn *h, enum h2_error code)
{
	size_t keep;

	if (h->failed)
		return;
	h->failed = true;
	h->error = code;
	if (h->ctl_len + H2_FRAME_HDR_LEN + 8 > sizeof(h->ctl)) {
		keep = h->item_ctl;
		h->ctl_len = keep;
	}
	/* After a graceful GOAWAY its last id stands (6.8). */
	if (!h->goaway_sent)
		h->goaway_last = h->last_id;
	h->ctl_len += h2_write_goaway(h->ctl + h->ctl_len, h->goaway_last,
				      code);
	h->goaway_sent = true;
	count(h, H2_CNT_GOAWAY + code);
}

void h2_conn_goaway(struct h2_conn *h)
{
	uint8_t *p;

	if (h->goaway_sent)
		return;
	p = ctl_room(h, H2_FRAME_HDR_LEN + 8);
	if (!p) {
		conn_fail(h, H2_NO_ERROR);
		return;
	}
	/* 6.8: the streams up to last_id are finished; none is taken after. */
	h->ctl_len += h2_write_goaway(p, h->last_id, H2_NO_ERROR);
	h->goaway_sent = true;
	h->goaway_last = h->last_id;
	count(h, H2_CNT_GOAWAY + H2_NO_ERROR);
}

bool h2_conn_settings_expired(struct h2_conn *h)
{
	if (!h->settings_unacked)
		return false;
	/* 6.5.3: no ACK "within a reasonable amount of time". */
	conn_fail(h, H2_SETTINGS_TIMEOUT);
	return true;
}

/* ---- streams ----------------------------------------------------------- */

static struct h2_stream *stream_find(struct h2_conn *h, uint32_t id)
{
	struct h2_stream *s;

	for (s = h->streams; s; s = s->next)
		if (s->id == id)
			return s;
	return NULL;
}

static void ring_remove(struct h2_conn *h, struct h2_stream *s)
{
	struct h2_stream **pp, *prev = NULL;

	if (!s->in_ring)
		return;
	for (pp = &h->ring_head; *pp; prev = *pp, pp = &(*pp)->rnext)
		if (*pp == s) {
			*pp = s->rnext;
			if (h->ring_tail == s)
				h->ring_tail = prev;
			break;
		}
	s->rnext = NULL;
	s->in_ring = false;
}

static void ring_add(struct h2_conn *h, struct h2_stream *s)
{
	if (s->in_ring || s->queued_hdr || s->gone || !s->headers_sent)
		return;
	s->rnext = NULL;
	if (h->ring_tail)
		h->ring_tail->rnext = s;
	else
		h->ring_head = s;
	h->ring_tail = s;
	s->in_ring = true;
}

static void hq_remove(struct h2_conn *h, struct h2_stream *s)
{
	struct h2_stream **pp, *prev = NULL;

	if (!s->queued_hdr)
		return;
	for (pp = &h->hq_head; *pp; prev = *pp, pp = &(*pp)->rnext)
		if (*pp == s) {
			*pp = s->rnext;
			if (h->hq_tail == s)
				h->hq_tail = prev;
			break;
		}
	s->rnext = NULL;
	s->queued_hdr = false;
}

/* @s leaves the connection (its item, if any, has been sent). */
static void stream_free(struct h2_conn *h, struct h2_stream *s,
			bool complete)
{
	struct h2_stream **pp;

	ring_remove(h, s);
	hq_remove(h, s);
	for (pp = &h->streams; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	h->nstreams--;
	if (h->ops->done)
		h->ops->done(h->owner, s, complete);
	if (h->ops->stream_put)
		h->ops->stream_put(h->owner, s);
	else
		free(s);
}

/* @s is reset (by us or the peer): freed now, or once its item went. */
static void stream_drop(struct h2_conn *h, struct h2_stream *s)
{
	s->gone = true;
	ring_remove(h, s);
	hq_remove(h, s);
	if (!s->inflight)
		stream_free(h, s, false);
}

/* Bytes of @s's plan still to send. */
static bool stream_has_body(const struct h2_stream *s)
{
	return s->seg < (int)s->resp.nseg;
}

/* A stream error (5.4.2): RST_STREAM, and the stream is gone. */
static void stream_err(struct h2_conn *h, uint32_t id, enum h2_error code)
{
	struct h2_stream *s = stream_find(h, id);

	ctl_rst(h, id, code);
	if (s && !s->gone)
		stream_drop(h, s);
}

/* ---- the flood bucket ------------------------------------------------- */

/*
 * A frame that costs us work and gives the peer nothing it needs
 * (SETTINGS, PING, PRIORITY, an empty DATA, HEADERS or CONTINUATION):
 * a token bucket (docs/http2.md); empty, ENHANCE_YOUR_CALM.  false: the
 * connection failed.
 */
static bool flood_take(struct h2_conn *h, uint64_t now)
{
	uint64_t add;

	if (now > h->flood_ms) {
		add = (now - h->flood_ms) * h->conf->flood_per_s / 1000;
		if (add) {
			h->flood_tokens = h->flood_tokens + add >
					  h->conf->flood_burst ?
					  h->conf->flood_burst :
					  h->flood_tokens + add;
			h->flood_ms = now;
		}
	}
	if (!h->flood_tokens) {
		count(h, H2_CNT_FLOOD);
		conn_fail(h, H2_ENHANCE_YOUR_CALM);
		return false;
	}
	h->flood_tokens--;
	return true;
}

/* ---- input: SETTINGS, PING, WINDOW_UPDATE, RST_STREAM, GOAWAY ---------- */

static void on_settings(struct h2_conn *h, const struct h2_frame *f,
			uint64_t now)
{
	size_t pos = 0;
	uint16_t id;
	uint32_t v;
	uint8_t *p;

	if (!flood_take(h, now))
		return;
	/* 6.5.3: an ACK of ours stops its timer; an unasked one is ignored. */
	if (f->h.flags & H2_F_ACK) {
		if (h->settings_unacked)
			h->settings_unacked--;
		return;
	}
	while (h2_settings_next(f, &pos, &id, &v)) {
		enum h2_error e = h2_setting_check(id, v);
		struct h2_stream *s;

		if (e) {
			conn_fail(h, e);
			return;
		}
		switch (id) {
		case H2_SET_HEADER_TABLE_SIZE:
			hpack_encoder_set_peer_table_size(&h->enc, v);
			break;
		case H2_SET_INITIAL_WINDOW_SIZE:
			/*
			 * 6.9.2: the difference applies to every stream's
			 * window; one past 2^31-1 is FLOW_CONTROL_ERROR on
			 * the connection.
			 */
			for (s = h->streams; s; s = s->next) {
				s->window += (int64_t)v - h->peer_initial_window;
				if (s->window > H2_WINDOW_MAX) {
					conn_fail(h, H2_FLOW_CONTROL_ERROR);
					return;
				}
				if (s->window > 0 && stream_has_body(s))
					ring_add(h, s);
			}
			h->peer_initial_window = v;
			break;
		case H2_SET_MAX_FRAME_SIZE:
			h->peer_max_frame = v;
			break;
		}
	}
	/* 6.5.3: applied in order, then acknowledged. */
	p = ctl_room(h, H2_FRAME_HDR_LEN);
	if (!p) {
		owed_full(h);
		return;
	}
	h->ctl_len += h2_write_settings_ack(p);
}

static void on_ping(struct h2_conn *h, const struct h2_frame *f, uint64_t now)
{
	uint8_t *p;

	if (!flood_take(h, now))
		return;
	/* 6.7: an ACK is not answered. */
	if (f->h.flags & H2_F_ACK)
		return;
	p = ctl_room(h, H2_FRAME_HDR_LEN + 8);
	if (!p) {
		owed_full(h);
		return;
	}
	h->ctl_len += h2_write_ping_ack(p, f->data);
}

/* 5.1: is @id idle (never used)?  Client streams are odd (5.1.1). */
static bool stream_idle(const struct h2_conn *h, uint32_t id)
{
	return id > h->last_id;
}

static void on_window_update(struct h2_conn *h, const struct h2_frame *f)
{
	uint32_t inc = h2_get32(f->data) & H2_WINDOW_MAX;
	struct h2_stream *s;

	if (!f->h.stream) {
		h->send_window += inc;
		/* 6.9.1: past 2^31-1 on the connection: FLOW_CONTROL_ERROR. */
		if (h->send_window > H2_WINDOW_MAX)
			conn_fail(h, H2_FLOW_CONTROL_ERROR);
		return;
	}
	/* 5.1: on an idle stream only HEADERS and PRIORITY may come. */
	if (stream_idle(h, f->h.stream)) {
		conn_fail(h, H2_PROTOCOL_ERROR);
		return;
	}
	s = stream_find(h, f->h.stream);
	if (!s || s->gone)
		return;		/* 5.1: closed: may come late, ignored */
	s->window += inc;
	/* 6.9.1: on a stream, a stream error FLOW_CONTROL_ERROR. */
	if (s->window > H2_WINDOW_MAX) {
		ctl_rst(h, s->id, H2_FLOW_CONTROL_ERROR);
		stream_drop(h, s);
		return;
	}
	if (s->window > 0 && stream_has_body(s))
		ring_add(h, s);
}

static void on_rst_stream(struct h2_conn *h, const struct h2_frame *f)
{
	struct h2_stream *s;

	/* 6.4: RST_STREAM on an idle stream is PROTOCOL_ERROR. */
	if (stream_idle(h, f->h.stream)) {
		conn_fail(h, H2_PROTOCOL_ERROR);
		return;
	}
	s = stream_find(h, f->h.stream);
	if (!s || s->gone)
		return;
	count(h, H2_CNT_RST_PEER);
	/*
	 * Rapid reset (CVE-2023-44487): a stream reset before its
	 * response ended cost us a plan for nothing; a budget of them,
	 * refilled by responses that complete (stream_complete()).
	 */
	if (!h->reset_budget) {
		count(h, H2_CNT_RAPID_RESET);
		conn_fail(h, H2_ENHANCE_YOUR_CALM);
		return;
	}
	h->reset_budget--;
	stream_drop(h, s);
}

static void on_goaway(struct h2_conn *h)
{
	/*
	 * 6.8: the peer starts no new stream; ours (none: no push) are
	 * unaffected.  What it asked for is finished, then the close.
	 */
	h->peer_goaway = true;
}

/* ---- input: DATA -------------------------------------------------------- */

static void on_data(struct h2_conn *h, const struct h2_frame *f, uint64_t now)
{
	uint32_t flow = f->h.len;	/* 6.1: padding counts too */
	struct h2_stream *s;
	uint8_t *p;

	if (stream_idle(h, f->h.stream)) {
		/* 5.1: DATA on an idle stream. */
		conn_fail(h, H2_PROTOCOL_ERROR);
		return;
	}
	/* 6.9: DATA past the window we gave: FLOW_CONTROL_ERROR. */
	if (flow > h->recv_window) {
		conn_fail(h, H2_FLOW_CONTROL_ERROR);
		return;
	}
	h->recv_window -= flow;
	/*
	 * 6.9: DATA counts against the connection's window even on a
	 * stream it is refused on; what bodies we drop is given back.
	 */
	if (h->recv_window <= H2_WINDOW_INITIAL - H2_RECV_REFILL) {
		p = ctl_room(h, H2_FRAME_HDR_LEN + 4);
		if (p) {
			h->ctl_len += h2_write_window_update(p, 0,
				H2_WINDOW_INITIAL - h->recv_window);
			h->recv_window = H2_WINDOW_INITIAL;
		}
	}
	if (!flow && !(f->h.flags & H2_F_END_STREAM) && !flood_take(h, now))
		return;
	s = stream_find(h, f->h.stream);
	/*
	 * 5.1: DATA on a closed or half-closed (remote) stream is a stream
	 * error STREAM_CLOSED.  A request body (the stream is open) is
	 * refused: the response (413) is under way, and the stream is
	 * reset NO_ERROR after it (8.1); the bytes are dropped.
	 */
	if (!s || s->gone) {
		ctl_rst(h, f->h.stream, H2_STREAM_CLOSED);
		return;
	}
	if (s->half_closed) {
		ctl_rst(h, s->id, H2_STREAM_CLOSED);
		stream_drop(h, s);
		return;
	}
	if (f->h.flags & H2_F_END_STREAM) {
		s->half_closed = true;
		s->rst_after = false;
	}
}

/* ---- input: header blocks ------------------------------------------------ */

/*
 * The encoded response head of @s into h->hdr: HEADERS, then
 * CONTINUATION frames past the peer's frame size (4.3: one block, no
 * other frame between).  -ENOSPC when it does not fit.
 */
struct enc_ctx {
	struct h2_conn *h;
	uint8_t *out;
	size_t len, cap;
};

static int enc_field(void *arg, const char *n, size_t nl, const char *v,
		     size_t vl)
{
	struct enc_ctx *e = arg;
	unsigned int flags = 0;
	ssize_t r;

	/* Values that change every response would only evict others. */
	if ((nl == 14 && !memcmp(n, "content-length", 14)) ||
	    (nl == 4 && !memcmp(n, "etag", 4)) ||
	    (nl == 13 && !memcmp(n, "last-modified", 13)) ||
	    (nl == 13 && !memcmp(n, "content-range", 13)))
		flags = HPACK_NO_INDEX;
	r = hpack_encode_field(&e->h->enc, e->out + e->len, e->cap - e->len,
			       n, nl, v, vl, flags);
	if (r < 0)
		return -ENOSPC;
	e->len += r;
	return 0;
}

/* @s's HEADERS (and CONTINUATIONs) at @out: their length, or -ENOSPC. */
static ssize_t encode_headers(struct h2_conn *h, struct h2_stream *s,
			      uint8_t *out_buf, size_t cap)
{
	uint8_t block[H2_HDR_CAP - 4 * H2_FRAME_HDR_LEN];
	struct enc_ctx e = { h, block, 0, sizeof(block) };
	size_t off = 0, n, out = 0;
	bool first = true;
	uint8_t flags;
	int r;

	hpack_encode_block_begin(&h->enc);
	r = h2_resp_fields(s->resp.head, s->resp.head_len, enc_field, &e);
	if (r < 0)
		return r;
	do {
		n = e.len - off;
		if (n > h->peer_max_frame)
			n = h->peer_max_frame;
		if (out + H2_FRAME_HDR_LEN + n > cap)
			return -ENOSPC;
		flags = off + n == e.len ? H2_F_END_HEADERS : 0;
		if (first && !stream_has_body(s))
			flags |= H2_F_END_STREAM;
		out += h2_write_hdr(out_buf + out, n,
				    first ? H2_HEADERS : H2_CONTINUATION,
				    flags, s->id);
		memcpy(out_buf + out, block + off, n);
		out += n;
		off += n;
		first = false;
	} while (off < e.len);
	return out;
}

/*
 * A stream is taken: the owner plans it, its HEADERS are queued; false
 * when the owner refused it (it is freed).
 */
static bool stream_plan(struct h2_conn *h, struct h2_stream *s, int verdict)
{
	h->ops->plan(h->owner, s, verdict > 0 ? verdict : 0);
	if (s->refuse) {
		ctl_rst(h, s->id, H2_REFUSED_STREAM);
		stream_drop(h, s);
		return false;
	}
	s->seg = 0;
	s->seg_off = 0;
	/* Empty segments are skipped before any DATA is cut. */
	while (stream_has_body(s) && !s->resp.seg[s->seg].len)
		s->seg++;
	s->queued_hdr = true;
	s->rnext = NULL;
	if (h->hq_tail)
		h->hq_tail->rnext = s;
	else
		h->hq_head = s;
	h->hq_tail = s;
	return true;
}

/*
 * The header block is whole: decoded (always: the HPACK tables must
 * stay in step even for a stream refused, RFC 9113 4.3), then the
 * request planned, refused, or ignored.
 */
static void block_done(struct h2_conn *h)
{
	uint32_t id = h->blk_stream;
	struct h2_req_build b;
	struct http_req req;
	struct h2_stream *s;
	int r, verdict;

	h->blk_stream = 0;
	h2_req_begin(&b, &req, h->fields, h->conf->header_list_max,
		     &h->conf->http);
	r = hpack_decode_block(&h->dec, h->blk, h->blk_len,
			       h->conf->header_list_max, h2_req_field, &b);
	if (r && r != HPACK_E_LIST_TOO_LARGE) {
		/* 4.3: a block that cannot be decoded: COMPRESSION_ERROR. */
		conn_fail(h, H2_COMPRESSION_ERROR);
		return;
	}
	/*
	 * Trailers (a refused stream's block), or a stream past our
	 * GOAWAY's last id (6.8): decoded, not taken.
	 */
	if (h->blk_discard || (h->goaway_sent && id > h->goaway_last))
		return;
	/*
	 * 5.1.2: past SETTINGS_MAX_CONCURRENT_STREAMS, REFUSED_STREAM
	 * (the peer may retry it); each costs from the reset budget, so
	 * a peer that keeps opening too many is stopped as a rapid reset.
	 */
	if (h->nstreams >= h->conf->max_streams) {
		count(h, H2_CNT_REFUSED);
		ctl_rst(h, id, H2_REFUSED_STREAM);
		if (!h->reset_budget) {
			count(h, H2_CNT_RAPID_RESET);
			conn_fail(h, H2_ENHANCE_YOUR_CALM);
		} else {
			h->reset_budget--;
		}
		return;
	}
	if (r == HPACK_E_LIST_TOO_LARGE)
		count(h, H2_CNT_LIST_LIMIT);
	verdict = r == HPACK_E_LIST_TOO_LARGE ? 431 :
		  h2_req_end(&b, h->blk_end_stream);
	if (verdict == H2_REQ_MALFORMED) {
		/* 8.1.1: a malformed request is a stream error. */
		ctl_rst(h, id, H2_PROTOCOL_ERROR);
		return;
	}
	s = h->ops->stream_get ? h->ops->stream_get(h->owner) :
				 malloc(sizeof(*s));
	if (!s) {
		ctl_rst(h, id, H2_REFUSED_STREAM);
		return;
	}
	memset(s, 0, offsetof(struct h2_stream, rbuf));
	s->id = id;
	s->window = h->peer_initial_window;
	s->half_closed = h->blk_end_stream;
	s->rst_after = !h->blk_end_stream;
	s->resp.fd = -1;
	s->req = req;
	s->next = h->streams;
	h->streams = s;
	h->nstreams++;
	h->accepted++;
	count(h, H2_CNT_STREAMS);
	/* The request's strings are not kept past the plan. */
	if (stream_plan(h, s, verdict))
		memset(&s->req, 0, sizeof(s->req));
	/* keepalive_requests: the last stream taken, then GOAWAY (6.8). */
	if (h->accepted >= h->conf->streams_total_max ||
	    id == H2_STREAM_ID_MAX)
		h2_conn_goaway(h);
}

static void on_headers(struct h2_conn *h, const struct h2_frame *f,
		       uint64_t now)
{
	uint32_t id = f->h.stream;
	struct h2_stream *s;

	if (!f->data_len && !(f->h.flags & H2_F_END_HEADERS) &&
	    !flood_take(h, now))
		return;
	if (!stream_idle(h, id)) {
		s = stream_find(h, id);
		/*
		 * A second HEADERS on a stream: trailers, which are
		 * refused (no request content is taken), or on a
		 * half-closed (remote) or closed stream STREAM_CLOSED (5.1).
		 * Its block is still decoded for the table's sake.
		 */
		if (s && !s->gone && !s->half_closed) {
			ctl_rst(h, id, H2_PROTOCOL_ERROR);
			stream_drop(h, s);
			h->blk_discard = true;
		} else {
			conn_fail(h, H2_STREAM_CLOSED);
			return;
		}
	} else if (!(id & 1)) {
		/* 5.1.1: a client's streams are odd-numbered. */
		conn_fail(h, H2_PROTOCOL_ERROR);
		return;
	}
	if (id > h->last_id) {
		h->last_id = id;
		h->blk_discard = false;
	}
	h->blk_stream = id;
	h->blk_len = 0;
	h->blk_frames = 0;
	h->blk_end_stream = f->h.flags & H2_F_END_STREAM;
}

/* A fragment of the block (HEADERS or CONTINUATION). */
static void block_add(struct h2_conn *h, const struct h2_frame *f)
{
	/*
	 * CONTINUATION flood (CVE-2024-27316 class): the block is
	 * bounded in octets and frames; nothing is kept past it.
	 */
	if (++h->blk_frames > h->conf->block_frames_max ||
	    f->data_len > h->conf->header_block_max - h->blk_len) {
		count(h, H2_CNT_BLOCK_LIMIT);
		conn_fail(h, H2_ENHANCE_YOUR_CALM);
		return;
	}
	memcpy(h->blk + h->blk_len, f->data, f->data_len);
	h->blk_len += f->data_len;
	if (f->h.flags & H2_F_END_HEADERS)
		block_done(h);
}

/* ---- input: the dispatch ---------------------------------------------- */

static void on_frame(struct h2_conn *h, const struct h2_frame *f,
		     uint64_t now)
{
	/*
	 * 6.2, 6.10: inside a header block only CONTINUATION of the same
	 * stream may come; a CONTINUATION outside one is an error too.
	 */
	if (h->blk_stream) {
		if (f->h.type != H2_CONTINUATION ||
		    f->h.stream != h->blk_stream) {
			conn_fail(h, H2_PROTOCOL_ERROR);
			return;
		}
		if (!f->data_len && !(f->h.flags & H2_F_END_HEADERS) &&
		    !flood_take(h, now))
			return;
		block_add(h, f);
		return;
	}
	switch (f->h.type) {
	case H2_DATA:
		on_data(h, f, now);
		break;
	case H2_HEADERS:
		on_headers(h, f, now);
		if (!h->failed)
			block_add(h, f);
		break;
	case H2_PRIORITY:
		/* 5.3.2: read and ignored; it costs from the bucket. */
		flood_take(h, now);
		break;
	case H2_RST_STREAM:
		on_rst_stream(h, f);
		break;
	case H2_SETTINGS:
		on_settings(h, f, now);
		break;
	case H2_PING:
		on_ping(h, f, now);
		break;
	case H2_GOAWAY:
		on_goaway(h);
		break;
	case H2_WINDOW_UPDATE:
		on_window_update(h, f);
		break;
	case H2_CONTINUATION:
		conn_fail(h, H2_PROTOCOL_ERROR);
		break;
	default:
		/* 5.5: an unknown type is ignored, but not for free. */
		flood_take(h, now);
		break;
	}
}

uint8_t *h2_conn_in_space(struct h2_conn *h, size_t *room)
{
	*room = h->in_cap - h->in_len;
	return h->in + h->in_len;
}

int h2_conn_in_commit(struct h2_conn *h, size_t n, uint64_t now)
{
	size_t off = 0;

	h->in_len += n;
	if (h->failed)
		return -1;
	if (h->phase == H2_PH_PREFACE) {
		size_t k = h->in_len < H2_PREFACE_LEN ? h->in_len :
			   H2_PREFACE_LEN;

		/* 3.4: anything but the preface is PROTOCOL_ERROR. */
		if (memcmp(h->in, H2_PREFACE, k)) {
			conn_fail(h, H2_PROTOCOL_ERROR);
			return -1;
		}
		if (h->in_len < H2_PREFACE_LEN)
			return 0;
		off = H2_PREFACE_LEN;
		h->phase = H2_PH_SETTINGS;
	}
	while (!h->failed) {
		struct h2_frame f;
		struct h2_frame_err err;
		size_t used = 0;
		enum h2_parse r;

		r = h2_frame_parse(h->in + off, h->in_len - off, H2_FRAME_SIZE_MIN,
				   &f, &used, &err);
		if (r == H2_PARSE_MORE)
			break;
		/* 3.4: the client's preface ends with a SETTINGS frame. */
		if (h->phase == H2_PH_SETTINGS) {
			if (r == H2_PARSE_FRAME && (f.h.type != H2_SETTINGS ||
						    (f.h.flags & H2_F_ACK))) {
				conn_fail(h, H2_PROTOCOL_ERROR);
				break;
			}
			h->phase = H2_PH_RUNNING;
		}
		if (r == H2_PARSE_ERROR) {
			/* A stream error inside a block is the connection's. */
			if (!err.stream || h->blk_stream) {
				conn_fail(h, err.code);
				break;
			}
			/*
			 * 6.4: no RST_STREAM on an idle stream; a HEADERS
			 * in error carries a block we will not decode: both
			 * end the connection (always allowed, 5.4.1).
			 */
			if (stream_idle(h, err.stream_id) ||
			    f.h.type == H2_HEADERS) {
				conn_fail(h, err.code);
				break;
			}
			stream_err(h, err.stream_id, err.code);
			off += used;
			continue;
		}
		on_frame(h, &f, now);
		off += used;
	}
	memmove(h->in, h->in + off, h->in_len - off);
	h->in_len -= off;
	return h->failed ? -1 : 0;
}

/* ---- output: the sender ------------------------------------------------ */

/* The largest DATA payload @s may send now. */
static uint64_t data_allowed(const struct h2_conn *h,
			     const struct h2_stream *s)
{
	const struct resp_seg *g = &s->resp.seg[s->seg];
	uint64_t n = g->len - s->seg_off;

	if (n > h->peer_max_frame)
		n = h->peer_max_frame;
	if (n > H2_DATA_QUANTUM)
		n = H2_DATA_QUANTUM;
	/* Header and payload in whole records, when over one. */
	if (n + H2_FRAME_HDR_LEN > H2_RECORD)
		n = (n + H2_FRAME_HDR_LEN) / H2_RECORD * H2_RECORD -
		    H2_FRAME_HDR_LEN;
	if ((int64_t)n > s->window)
		n = s->window > 0 ? s->window : 0;
	if ((int64_t)n > h->send_window)
		n = h->send_window > 0 ? h->send_window : 0;
	/* A memory payload is copied behind its header (small: parts). */
	if (g->mem && n > H2_MEM_DATA_MAX)
		n = H2_MEM_DATA_MAX;
	return n;
}

/* Is this the last of @s's body, @n octets from its cursor? */
static bool data_last(const struct h2_stream *s, uint64_t n)
{
	int i;

	if (s->seg_off + n < s->resp.seg[s->seg].len)
		return false;
	for (i = s->seg + 1; i < (int)s->resp.nseg; i++)
		if (s->resp.seg[i].len)
			return false;
	return true;
}

/* Room in @t for a unit of @arena arena octets and three pieces. */
static bool turn_fits(const struct h2_conn *h, const struct h2_turn *t,
		      size_t arena)
{
	return t->arena_cap - t->arena_len >= arena && t->n + 3 <= t->cap &&
	       h->nsent < H2_TURN_FRAMES && t->bytes < t->max_bytes;
}

/* The arena's next @len octets join the turn (one piece with the last). */
static void turn_mem(struct h2_turn *t, size_t len)
{
	const uint8_t *p = t->arena + t->arena_len;
	struct h2_piece *last = t->n ? &t->p[t->n - 1] : NULL;

	if (last && last->mem >= t->arena && last->mem + last->len == p)
		last->len += len;
	else
		t->p[t->n++] = (struct h2_piece){ p, -1, 0, len };
	t->arena_len += len;
	t->bytes += len;
}

/* A frame of @s in the item: committed by h2_conn_item_done(). */
static void turn_sent(struct h2_conn *h, struct h2_stream *s,
		      uint64_t payload, bool end)
{
	h->sent[h->nsent++] = (struct h2_sent){ s, payload, end };
	s->inflight++;
}

/*
 * A DATA frame of @n octets of @s, cut at its cursor: its header in the
 * arena, its payload copied behind it (memory) or a range of the file;
 * the cursor and the windows move now, the frame is committed when the
 * item went.  Returns END_STREAM.
 */
static bool emit_data(struct h2_conn *h, struct h2_stream *s,
		      struct h2_turn *t, uint64_t n)
{
	const struct resp_seg *g = &s->resp.seg[s->seg];
	bool end = data_last(s, n);
	uint8_t *p = t->arena + t->arena_len;

	h2_write_hdr(p, n, H2_DATA, end ? H2_F_END_STREAM : 0, s->id);
	if (g->mem) {
		memcpy(p + H2_FRAME_HDR_LEN, g->mem + s->seg_off, n);
		turn_mem(t, H2_FRAME_HDR_LEN + n);
	} else {
		turn_mem(t, H2_FRAME_HDR_LEN);
		t->p[t->n++] = (struct h2_piece){ NULL, s->resp.fd,
						  g->off + s->seg_off, n };
		t->bytes += n;
	}
	s->window -= n;
	h->send_window -= n;
	s->seg_off += n;
	while (stream_has_body(s) && s->seg_off >= s->resp.seg[s->seg].len) {
		s->seg++;
		s->seg_off = 0;
	}
	turn_sent(h, s, n, end);
	t->progress = true;
	return end;
}

/*
 * The next stream of the ring with window: one frame (at most the
 * quantum), then the tail (round robin, docs/http2.md).  False when no
 * stream can send.
 */
static bool next_data(struct h2_conn *h, struct h2_turn *t)
{
	struct h2_stream *s;
	uint64_t n;

	while ((s = h->ring_head)) {
		n = data_allowed(h, s);
		if (!n) {
			/*
			 * Its window is shut: out of the ring until a
			 * WINDOW_UPDATE; the connection's: nothing goes.
			 */
			if (h->send_window <= 0)
				return false;
			ring_remove(h, s);
			continue;
		}
		ring_remove(h, s);
		if (!emit_data(h, s, t, n))
			ring_add(h, s);
		return true;
	}
	return false;
}

/*
 * @s's HEADERS, with its first DATA frame behind them when its window
 * allows: a small response is one unit, so one record and one write on
 * the userspace layer (a header and a file range on the kernel ones).
 */
static int emit_headers(struct h2_conn *h, struct h2_stream *s,
			struct h2_turn *t)
{
	ssize_t n = encode_headers(h, s, t->arena + t->arena_len,
				   H2_HDR_CAP);
	uint64_t d;

	if (n < 0)
		return (int)n;
	turn_mem(t, n);
	s->headers_sent = true;
	t->progress = true;
	if (!stream_has_body(s)) {
		turn_sent(h, s, 0, true);
		return 0;
	}
	d = data_allowed(h, s);
	if (!d) {
		turn_sent(h, s, 0, false);
		ring_add(h, s);
		return 0;
	}
	/* Its HEADERS without END_STREAM are committed with the frame. */
	if (!emit_data(h, s, t, d))
		ring_add(h, s);
	return 0;
}

/*
 * Fills @t with up to @units units (a control queue, a HEADERS with its
 * first DATA, a DATA frame): h2_conn_next() asks for one, a turn for as
 * many as its budget takes.
 */
static bool turn_build(struct h2_conn *h, struct h2_turn *t,
		       unsigned int units)
{
	struct h2_stream *s;
	unsigned int done = 0;

	t->arena_len = 0;
	t->n = 0;
	t->bytes = 0;
	t->progress = false;
	if (h->item_busy)
		return false;
	h->nsent = 0;
	h->item_ctl = 0;
	if (h->ctl_len) {
		t->p[t->n++] = (struct h2_piece){ h->ctl, -1, 0, h->ctl_len };
		t->bytes += h->ctl_len;
		h->item_ctl = h->ctl_len;
		done++;
	}
	while (!h->failed && done < units && (s = h->hq_head) &&
	       turn_fits(h, t, H2_UNIT_MAX)) {
		hq_remove(h, s);
		if (emit_headers(h, s, t)) {
			/*
			 * A head HPACK cannot fit (never with resp.c's
			 * bounds): the encoder's table may have taken some
			 * of its fields, so the connection cannot go on.
			 * The GOAWAY goes in the next item.
			 */
			conn_fail(h, H2_INTERNAL_ERROR);
			stream_drop(h, s);
			break;
		}
		done++;
	}
	while (!h->failed && done < units &&
	       turn_fits(h, t, H2_FRAME_HDR_LEN + H2_MEM_DATA_MAX) &&
	       next_data(h, t))
		done++;
	if (!t->n) {
		/* A failure above queued a GOAWAY: it goes now. */
		if (h->ctl_len)
			return turn_build(h, t, units);
		return false;
	}
	h->item_busy = true;
	return true;
}

bool h2_conn_next_turn(struct h2_conn *h, struct h2_turn *t)
{
	t->arena_len = 0;
	t->n = 0;
	if (t->cap < 8 || t->arena_cap < H2_UNIT_MAX)
		return false;
	return turn_build(h, t, UINT32_MAX);
}

bool h2_conn_next(struct h2_conn *h, struct h2_item *it)
{
	struct h2_piece p[4];
	struct h2_turn t = {
		.arena = h->hdr, .arena_cap = sizeof(h->hdr),
		.p = p, .cap = ARRAY_SIZE(p), .max_bytes = UINT64_MAX,
	};

	memset(it, 0, sizeof(*it));
	it->fd = -1;
	if (!turn_build(h, &t, 1))
		return false;
	/* One unit: its octets in memory, then at most a file range. */
	it->mem = p[0].mem;
	it->mem_len = p[0].len;
	if (t.n > 1) {
		it->fd = p[1].fd;
		it->foff = p[1].off;
		it->flen = p[1].len;
	}
	it->progress = t.progress;
	return true;
}

/* @s's response went whole: logged, freed; a refused body is reset. */
static void stream_complete(struct h2_conn *h, struct h2_stream *s)
{
	if (h->reset_budget < h->conf->reset_budget)
		h->reset_budget++;
	/*
	 * 8.1: a response before the request's end: RST_STREAM NO_ERROR
	 * asks the client to stop sending it.
	 */
	if (s->rst_after)
		ctl_rst(h, s->id, H2_NO_ERROR);
	stream_free(h, s, true);
}

void h2_conn_item_done(struct h2_conn *h)
{
	unsigned int i;

	if (!h->item_busy)
		return;
	h->item_busy = false;
	if (h->item_ctl) {
		memmove(h->ctl, h->ctl + h->item_ctl, h->ctl_len - h->item_ctl);
		h->ctl_len -= h->item_ctl;
		h->item_ctl = 0;
	}
	/* In the order sent: a stream's last frame is its last record. */
	for (i = 0; i < h->nsent; i++) {
		struct h2_sent *r = &h->sent[i];
		struct h2_stream *s = r->s;

		s->inflight--;
		s->body_sent += r->payload;
		if (s->gone) {
			if (!s->inflight)
				stream_free(h, s, false);
		} else if (r->end) {
			stream_complete(h, s);
		}
	}
	h->nsent = 0;
}

/* ---- life ---------------------------------------------------------------- */

int h2_conn_init(struct h2_conn *h, const struct h2_conf *conf,
		 const struct h2_conn_ops *ops, void *owner)
{
	const struct h2_setting ours[] = {
		/* 6.5.2: a server that sends ENABLE_PUSH sends 0. */
		{ H2_SET_ENABLE_PUSH, 0 },
		{ H2_SET_MAX_CONCURRENT_STREAMS, conf->max_streams },
		{ H2_SET_MAX_HEADER_LIST_SIZE, conf->header_list_max },
	};

	memset(h, 0, sizeof(*h));
	h->conf = conf;
	h->ops = ops;
	h->owner = owner;
	h->phase = H2_PH_PREFACE;
	h->in_cap = H2_FRAME_HDR_LEN + H2_FRAME_SIZE_MIN;
	h->in = malloc(h->in_cap);
	h->blk = malloc(conf->header_block_max);
	h->fields = malloc(conf->header_list_max);
	if (!h->in || !h->blk || !h->fields)
		goto fail;
	if (hpack_decoder_init(&h->dec, H2_TABLE_SIZE))
		goto fail;
	if (hpack_encoder_init(&h->enc, H2_ENC_TABLE_SIZE)) {
		hpack_decoder_free(&h->dec);
		goto fail;
	}
	h->peer_max_frame = H2_FRAME_SIZE_MIN;
	h->peer_initial_window = H2_WINDOW_INITIAL;
	h->send_window = H2_WINDOW_INITIAL;
	h->recv_window = H2_WINDOW_INITIAL;
	h->reset_budget = conf->reset_budget;
	h->flood_tokens = conf->flood_burst;
	/* 3.4: the server's preface is its SETTINGS, sent at once. */
	h->ctl_len = h2_write_settings(h->ctl, ours, ARRAY_SIZE(ours));
	h->settings_unacked = 1;
	return 0;
fail:
	free(h->in);
	free(h->blk);
	free(h->fields);
	return -ENOMEM;
}

void h2_conn_free(struct h2_conn *h)
{
	while (h->streams) {
		h->streams->inflight = 0;
		stream_free(h, h->streams, false);
	}
	hpack_decoder_free(&h->dec);
	hpack_encoder_free(&h->enc);
	free(h->in);
	free(h->blk);
	free(h->fields);
	h->in = NULL;
	h->blk = NULL;
	h->fields = NULL;
}

bool h2_conn_over(const struct h2_conn *h)
{
	if (h->failed)
		return !h->ctl_len && !h->item_busy;
	return (h->goaway_sent || h->peer_goaway) && !h->streams &&
	       !h->ctl_len && !h->item_busy;
}

bool h2_conn_busy(const struct h2_conn *h)
{
	return h->streams || h->ctl_len;
}
