// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_h2_conn.c - libFuzzer target: one HTTP/2 connection
 * (tlsxd/h2/h2_conn.c) fed arbitrary bytes after the client preface, in
 * pieces whose sizes the input's first octet picks, with everything it
 * sends taken after each piece.  Requests are answered with error plans
 * (resp_error(): memory bodies, no files), so the streams, flow
 * control, header blocks (HPACK), limits and the sender all run.
 * Checked: no crash or sanitizer report; every octet sent parses as
 * frames (h2_frame_parse() with a large limit), the first being our
 * SETTINGS; a failed connection's last frame is a GOAWAY; every stream
 * planned is ended exactly once by h2_conn_free() at the latest.  The
 * input's first octet also picks the sender: an item at a time (the
 * kernel layers') or by turns (h2_conn_next_turn(), the userspace
 * layers').
 */
#include <stdlib.h>
#include <string.h>

#include "tlsxd/h2/h2_conn.h"

static struct site site = { .server = "fuzz" };
static unsigned int planned, ended;

static void plan(void *owner, struct h2_stream *s, int status)
{
	(void)owner;
	planned++;
	resp_error(&site, status ? status : 404, 0, 0,
		   s->req.method == HTTP_M_HEAD, s->rbuf, sizeof(s->rbuf),
		   &s->resp);
}

static void done(void *owner, struct h2_stream *s, bool complete)
{
	(void)owner;
	(void)s;
	(void)complete;
	ended++;
}

static const struct h2_conn_ops ops = { .plan = plan, .done = done };

/* Every frame in @out[0..@len) parses; the type of the last. */
static int check_out(const uint8_t *out, size_t len, bool first)
{
	size_t off = 0;
	int last = -1;

	while (off < len) {
		struct h2_frame f;
		struct h2_frame_err e;
		size_t used = 0;

		if (h2_frame_parse(out + off, len - off, H2_FRAME_SIZE_MAX, &f,
				   &used, &e) == H2_PARSE_MORE)
			abort();
		if (first && !off && f.h.type != H2_SETTINGS)
			abort();
		last = f.h.type;
		off += H2_FRAME_HDR_LEN + f.h.len;
	}
	return last;
}

/*
 * By turns (the userspace layers' sender), with few pieces, an arena
 * just large enough and a small budget, so that every limit of a turn
 * is met.
 */
static void drain_turns(struct h2_conn *h, uint8_t *out, size_t *len)
{
	static uint8_t arena[H2_UNIT_MAX + 64];
	struct h2_piece p[8];
	struct h2_turn t = {
		.arena = arena, .arena_cap = sizeof(arena),
		.p = p, .cap = 8, .max_bytes = 4096,
	};
	unsigned int i;

	while (h2_conn_next_turn(h, &t)) {
		uint64_t bytes = 0;

		for (i = 0; i < t.n; i++) {
			if (!p[i].mem || *len + p[i].len > (1u << 20))
				abort();
			memcpy(out + *len, p[i].mem, p[i].len);
			*len += p[i].len;
			bytes += p[i].len;
		}
		if (bytes != t.bytes)
			abort();
		h2_conn_item_done(h);
	}
}

static bool by_turns;

static void drain(struct h2_conn *h, uint8_t *out, size_t *len)
{
	struct h2_item it;

	if (by_turns) {
		drain_turns(h, out, len);
		return;
	}
	while (h2_conn_next(h, &it)) {
		if (it.fd >= 0 || *len + it.mem_len > (1u << 20))
			abort();
		memcpy(out + *len, it.mem, it.mem_len);
		*len += it.mem_len;
		h2_conn_item_done(h);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[1u << 20];
	struct h2_conf conf;
	struct h2_conn h;
	size_t off = 1, len = 0, step;
	int failed = 0, last;
	bool whole = true;	/* out holds everything sent */
	bool expire;

	if (!size)
		return 0;
	step = 1 + data[0] % 64;
	by_turns = data[0] & 0x40;
	/* The first octet's top bit: the SETTINGS timer ends at the end. */
	expire = data[0] & 0x80;
	h2_conf_default(&conf);
	conf.max_streams = 8;
	planned = ended = 0;
	if (h2_conn_init(&h, &conf, &ops, NULL))
		return 0;
	{
		size_t room;
		uint8_t *p = h2_conn_in_space(&h, &room);

		memcpy(p, H2_PREFACE, H2_PREFACE_LEN);
		failed = h2_conn_in_commit(&h, H2_PREFACE_LEN, 0);
	}
	while (!failed && off < size) {
		size_t room, n;
		uint8_t *p = h2_conn_in_space(&h, &room);

		n = size - off < step ? size - off : step;
		if (n > room)
			n = room;
		if (!n)
			abort();
		memcpy(p, data + off, n);
		failed = h2_conn_in_commit(&h, n, off);
		off += n;
		drain(&h, out, &len);
		if (len > (1u << 19)) {
			/* Items are whole frames: what follows parses alone. */
			check_out(out, len, whole);
			len = 0;
			whole = false;
		}
	}
	/* 6.5.3: a connection error, or nothing if the peer acked. */
	if (!failed && expire && h2_conn_settings_expired(&h))
		failed = 1;
	drain(&h, out, &len);
	last = check_out(out, len, whole);
	if (failed && len && last != H2_GOAWAY)
		abort();
	h2_conn_free(&h);
	if (planned != ended)
		abort();
	return 0;
}
