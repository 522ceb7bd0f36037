// SPDX-License-Identifier: GPL-2.0
/*
 * test_h2_conn.c - one HTTP/2 connection without I/O (h2/h2_conn.c)
 * driven by a client made of h2_frame.c's writers and HPACK, answering
 * from resp_plan() on a real document root, every DATA byte read back
 * from the plan's file: the preface and SETTINGS (RFC 9113 3.4, 6.5),
 * a GET, a HEAD, a 404, ranges; flow control (6.9: stalls at the
 * window, WINDOW_UPDATE, INITIAL_WINDOW_SIZE changes on open streams,
 * overflow); the round-robin sender; stream states (5.1: idle, closed,
 * even ids); header blocks (CONTINUATION, a frame inside a block,
 * COMPRESSION_ERROR); malformed requests and request bodies; GOAWAY;
 * and each limit of docs/http2.md's table with the code it ends with.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "site_test.h"
#include "tlsxd/h2/h2_conn.h"

#define OUT_CAP	(2u << 20)
#define BLK_CAP	32768
/* An odd size: the last DATA frame is short. */
#define BIG_LEN	((256 << 10) + 17)

struct rx {
	uint8_t type, flags;
	uint32_t stream, len;
	uint8_t *p;		/* payload, in the test's buffer */
};

struct tc {
	struct h2_conf conf;
	struct h2_conn h;
	struct hpack_encoder enc;	/* the client's */
	struct hpack_decoder dec;
	struct site site;
	struct mime_table *mime;
	uint8_t *out;			/* what the server sent */
	size_t out_len, out_read;
	unsigned int planned, done, complete;
	uint64_t counted[H2_CNT_N];	/* by ops.count */
	uint32_t refuse_from;		/* plan() refuses streams from it */
	int failed;
	uint64_t now;
	bool turns;			/* send by turns (the userspace layers) */
};

static void plan(void *owner, struct h2_stream *s, int status)
{
	struct tc *t = owner;

	t->planned++;
	/* As conn_h2.c's h2_key_plan() does near a key's record limit. */
	if (t->refuse_from && s->id >= t->refuse_from) {
		s->refuse = true;
		if (!t->h.goaway_sent)
			h2_conn_goaway(&t->h);
	}
	if (status)
		resp_error(&t->site, status, 1700000000, 0, false, s->rbuf,
			   sizeof(s->rbuf), &s->resp);
	else
		resp_plan(&t->site, &s->req, 1700000000, 0, s->rbuf,
			  sizeof(s->rbuf), &s->resp);
}

static void done(void *owner, struct h2_stream *s, bool complete)
{
	struct tc *t = owner;

	t->done++;
	t->complete += complete;
	resp_release(&s->resp);
}

static void count(void *owner, enum h2_count id)
{
	struct tc *t = owner;

	t->counted[id]++;
}

static const struct h2_conn_ops ops = {
	.plan = plan, .done = done, .count = count,
};

/* @id counted @times, in the connection and to its owner. */
#define EXPECT_COUNT(tc, id, times) do {				\
	ASSERT_EQ((uint64_t)(times), (tc)->h.counts.n[id]);		\
	ASSERT_EQ((uint64_t)(times), (tc)->counted[id]);		\
} while (0)

/* Input to the server, as the glue gives it: into its space. */
static int feed(struct tc *t, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len) {
		size_t room, n;
		uint8_t *dst = h2_conn_in_space(&t->h, &room);

		n = len < room ? len : room;
		if (!n)
			return -2;
		memcpy(dst, b, n);
		if (h2_conn_in_commit(&t->h, n, t->now))
			return -1;
		b += n;
		len -= n;
	}
	return 0;
}

/* A turn's pieces in order, as tlsx_sendv() sends them. */
static unsigned int pump_turns(struct tc *t)
{
	static uint8_t arena[64 << 10];
	struct h2_piece p[256];
	unsigned int turns = 0, i;

	for (;;) {
		struct h2_turn tn = {
			.arena = arena, .arena_cap = sizeof(arena),
			.p = p, .cap = 256, .max_bytes = 1 << 20,
		};
		uint64_t bytes = 0;

		if (!h2_conn_next_turn(&t->h, &tn))
			return turns;
		for (i = 0; i < tn.n; i++) {
			if (t->out_len + p[i].len > OUT_CAP)
				abort();
			if (p[i].mem)
				memcpy(t->out + t->out_len, p[i].mem, p[i].len);
			else if (pread(p[i].fd, t->out + t->out_len, p[i].len,
				       p[i].off) != (ssize_t)p[i].len)
				abort();
			t->out_len += p[i].len;
			bytes += p[i].len;
		}
		if (bytes != tn.bytes)
			abort();
		h2_conn_item_done(&t->h);
		turns++;
	}
}

/* Everything the server sends now, files read as sendfile would. */
static unsigned int pump(struct tc *t)
{
	struct h2_item it;
	unsigned int items = 0;

	if (t->turns)
		return pump_turns(t);
	while (h2_conn_next(&t->h, &it)) {
		if (t->out_len + it.mem_len + it.flen > OUT_CAP)
			abort();
		memcpy(t->out + t->out_len, it.mem, it.mem_len);
		t->out_len += it.mem_len;
		if (it.flen) {
			if (pread(it.fd, t->out + t->out_len, it.flen,
				  it.foff) != (ssize_t)it.flen)
				abort();
			t->out_len += it.flen;
		}
		h2_conn_item_done(&t->h);
		items++;
	}
	return items;
}

/* The next frame the server sent, or false. */
static bool next_rx(struct tc *t, struct rx *r)
{
	uint8_t *p = t->out + t->out_read;
	size_t left = t->out_len - t->out_read;

	if (left < 9)
		return false;
	r->len = p[0] << 16 | p[1] << 8 | p[2];
	r->type = p[3];
	r->flags = p[4];
	r->stream = h2_get32(p + 5) & 0x7fffffff;
	r->p = p + 9;
	if (left < 9 + r->len)
		abort();
	t->out_read += 9 + r->len;
	return true;
}

/*
 * One document root for every test, made before the harness forks them
 * (they only read it) and removed by the process that made it: a root
 * per test cost most of this program's time under ASan.
 */
static char root[SITE_DIR_MAX] = "/tmp/h2conn.XXXXXX";
static pid_t root_owner;

static void root_put(const char *name, const void *data, size_t len)
{
	struct timespec ts[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
	char path[SITE_PATH_MAX];
	int fd;

	site_path(path, root, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, data, len) != (ssize_t)len ||
	    futimens(fd, ts))
		abort();
	close(fd);
}

__attribute__((constructor)) static void root_make(void)
{
	static char big[BIG_LEN];
	size_t i;

	if (!mkdtemp(root))
		abort();
	root_owner = getpid();
	root_put("a.txt", "hello, h2\n", 10);
	for (i = 0; i < sizeof(big); i++)
		big[i] = (char)(i * 7 + (i >> 13));
	root_put("big", big, sizeof(big));
	root_put("empty", "", 0);
}

__attribute__((destructor)) static void root_remove(void)
{
	char cmd[SITE_DIR_MAX + 16];

	if (getpid() != root_owner)
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
}

static void setup(struct __test_metadata *_metadata, struct tc *t)
{
	memset(t, 0, sizeof(*t));
	t->out = malloc(OUT_CAP);
	ASSERT_NE(NULL, t->out);
	site_open(_metadata, &t->site, &t->mime, root);
	h2_conf_default(&t->conf);
	ASSERT_EQ(0, h2_conn_init(&t->h, &t->conf, &ops, t));
	ASSERT_EQ(0, hpack_encoder_init(&t->enc, 4096));
	ASSERT_EQ(0, hpack_decoder_init(&t->dec, 4096));
	t->now = 1000;
}

static void teardown(struct tc *t)
{
	h2_conn_free(&t->h);
	hpack_encoder_free(&t->enc);
	hpack_decoder_free(&t->dec);
	site_close(&t->site, t->mime);
	free(t->out);
}

static void fr(struct tc *t, uint8_t type, uint8_t flags, uint32_t id,
	       const void *p, uint32_t len)
{
	uint8_t b[9 + 70000];

	h2_write_hdr(b, len, type, flags, id);
	memcpy(b + 9, p, len);
	t->failed |= feed(t, b, 9 + len) == -1;
}

/* The preface and an empty SETTINGS (or @s, @n of them). */
static void hello(struct tc *t, const struct h2_setting *s, unsigned int n)
{
	uint8_t b[128];
	size_t len = h2_write_settings(b, s, n);

	t->failed |= feed(t, H2_PREFACE, H2_PREFACE_LEN) == -1;
	t->failed |= feed(t, b, len) == -1;
}

/* A request's header block, HPACK-encoded: @extra "name", "value", ... */
static size_t block(struct tc *t, uint8_t *out, const char *method,
		    const char *path, const char *const *extra)
{
	const char *f[32];
	size_t len = 0, n = 0, i;

	f[n++] = ":method";
	f[n++] = method;
	f[n++] = ":scheme";
	f[n++] = "https";
	f[n++] = ":path";
	f[n++] = path;
	f[n++] = ":authority";
	f[n++] = "localhost";
	for (; extra && *extra; extra++)
		f[n++] = *extra;
	hpack_encode_block_begin(&t->enc);
	for (i = 0; i < n; i += 2) {
		ssize_t r = hpack_encode_field(&t->enc, out + len, BLK_CAP - len,
					       f[i], strlen(f[i]), f[i + 1],
					       strlen(f[i + 1]), 0);
		if (r < 0)
			abort();
		len += r;
	}
	return len;
}

static void get(struct tc *t, uint32_t id, const char *method,
		const char *path, const char *const *extra)
{
	uint8_t b[BLK_CAP];
	size_t n = block(t, b, method, path, extra);

	fr(t, H2_HEADERS, H2_F_END_HEADERS | H2_F_END_STREAM, id, b, n);
}

/* The response fields of a HEADERS payload, "name: value\n" each. */
struct fields {
	char s[4096];
	size_t len;
};

static int field_cb(void *arg, const char *n, size_t nl, const char *v,
		    size_t vl, unsigned int flags)
{
	struct fields *f = arg;

	(void)flags;
	f->len += snprintf(f->s + f->len, sizeof(f->s) - f->len,
			   "%.*s: %.*s\n", (int)nl, n, (int)vl, v);
	return 0;
}

/* Every frame sent since the last call, summed per stream. */
struct seen {
	unsigned int settings, settings_ack, ping_ack, headers, data_frames;
	unsigned int rst, goaway, window_update;
	uint32_t rst_stream, rst_code, goaway_last, goaway_code;
	uint32_t max_data;
	uint8_t body[4][BIG_LEN + 65536];	/* streams 1, 3, 5, 7 */
	size_t body_len[4];
	bool end[4];
	struct fields f[4];
	uint32_t order[64];		/* stream ids of DATA frames */
	unsigned int norder;
};

static int slot(uint32_t id)
{
	return id >= 1 && id <= 7 && (id & 1) ? (int)(id / 2) : -1;
}

static void collect(struct tc *t, struct seen *s)
{
	struct rx r;
	int k;

	while (next_rx(t, &r)) {
		k = slot(r.stream);
		switch (r.type) {
		case H2_SETTINGS:
			if (r.flags & H2_F_ACK)
				s->settings_ack++;
			else
				s->settings++;
			break;
		case H2_PING:
			s->ping_ack += !!(r.flags & H2_F_ACK);
			break;
		case H2_HEADERS:
			s->headers++;
			if (k >= 0) {
				s->f[k].len = 0;
				if (hpack_decode_block(&t->dec, r.p, r.len,
						       SIZE_MAX, field_cb,
						       &s->f[k]))
					abort();
				s->end[k] |= r.flags & H2_F_END_STREAM;
			}
			break;
		case H2_DATA:
			s->data_frames++;
			if (r.len > s->max_data)
				s->max_data = r.len;
			if (s->norder < 64)
				s->order[s->norder++] = r.stream;
			if (k >= 0) {
				memcpy(s->body[k] + s->body_len[k], r.p, r.len);
				s->body_len[k] += r.len;
				s->end[k] |= r.flags & H2_F_END_STREAM;
			}
			break;
		case H2_RST_STREAM:
			s->rst++;
			s->rst_stream = r.stream;
			s->rst_code = h2_get32(r.p);
			break;
		case H2_GOAWAY:
			s->goaway++;
			s->goaway_last = h2_get32(r.p);
			s->goaway_code = h2_get32(r.p + 4);
			break;
		case H2_WINDOW_UPDATE:
			s->window_update++;
			break;
		}
	}
}

static struct seen *seen_new(void)
{
	return calloc(1, sizeof(struct seen));
}

/* The server's answer to a failing peer: GOAWAY with @code. */
#define EXPECT_GOAWAY(t, code) do {					\
	struct seen *_s = seen_new();					\
	pump(t);							\
	collect(t, _s);							\
	ASSERT_EQ(1, _s->goaway);					\
	ASSERT_EQ(code, _s->goaway_code);				\
	ASSERT_TRUE(h2_conn_over(&(t)->h));				\
	free(_s);							\
} while (0)

FIXTURE(h2) {
	struct tc t;
};

/* Every case twice: an item at a time (kernel layers), and by turns. */
FIXTURE_VARIANT(h2) {
	bool turns;
};

FIXTURE_VARIANT_ADD(h2, items) {
	.turns = false,
};

FIXTURE_VARIANT_ADD(h2, turns) {
	.turns = true,
};

FIXTURE_SETUP(h2)
{
	setup(_metadata, &self->t);
	self->t.turns = variant->turns;
}

FIXTURE_TEARDOWN(h2)
{
	teardown(&self->t);
}

TEST_F(h2, get_head_404_range)
{
	static const char *const range[] = { "range", "bytes=2-5", NULL };
	struct tc *t = &self->t;
	struct seen *s = seen_new();

	hello(t, NULL, 0);
	get(t, 1, "GET", "/a.txt", NULL);
	get(t, 3, "HEAD", "/a.txt", NULL);
	get(t, 5, "GET", "/nope", NULL);
	get(t, 7, "GET", "/a.txt", range);
	ASSERT_EQ(0, t->failed);
	pump(t);
	collect(t, s);
	/* 3.4: our SETTINGS first, then the ACK of the client's. */
	ASSERT_EQ(1, s->settings);
	ASSERT_EQ(1, s->settings_ack);
	ASSERT_EQ(H2_SETTINGS, t->out[3]);
	ASSERT_EQ(0, strncmp(s->f[0].s, ":status: 200\n", 13));
	ASSERT_NE(NULL, strstr(s->f[0].s, "content-length: 10\n"));
	ASSERT_NE(NULL, strstr(s->f[0].s, "content-type: text/plain"));
	ASSERT_EQ(10, s->body_len[0]);
	ASSERT_EQ(0, memcmp(s->body[0], "hello, h2\n", 10));
	ASSERT_TRUE(s->end[0]);
	/* HEAD: the GET's fields, END_STREAM on the HEADERS, no DATA. */
	ASSERT_NE(NULL, strstr(s->f[1].s, "content-length: 10\n"));
	ASSERT_EQ(0, s->body_len[1]);
	ASSERT_TRUE(s->end[1]);
	ASSERT_EQ(0, strncmp(s->f[2].s, ":status: 404\n", 13));
	ASSERT_TRUE(s->end[2]);
	ASSERT_EQ(0, strncmp(s->f[3].s, ":status: 206\n", 13));
	ASSERT_NE(NULL, strstr(s->f[3].s, "content-range: bytes 2-5/10\n"));
	ASSERT_EQ(4, s->body_len[3]);
	ASSERT_EQ(0, memcmp(s->body[3], "llo,", 4));
	ASSERT_EQ(NULL, strstr(s->f[0].s, "connection"));
	ASSERT_EQ(4, t->planned);
	ASSERT_EQ(4, t->complete);
	ASSERT_FALSE(h2_conn_busy(&t->h));
	free(s);
}

TEST_F(h2, big_body_exact_and_flow_control)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	uint8_t wu[4];
	FILE *f;
	char path[SITE_PATH_MAX];
	static char want[BIG_LEN];
	unsigned int rounds = 0;

	site_path(path, root, "big");
	f = fopen(path, "rb");
	ASSERT_NE(NULL, f);
	ASSERT_EQ(sizeof(want), fread(want, 1, sizeof(want), f));
	fclose(f);
	hello(t, NULL, 0);
	get(t, 1, "GET", "/big", NULL);
	pump(t);
	collect(t, s);
	/* 6.9.2: 65,535 octets, then the windows are shut. */
	ASSERT_EQ(65535, s->body_len[0]);
	/* Header and payload fill one 16 KiB record exactly. */
	ASSERT_EQ(16384 - 9, s->max_data);
	ASSERT_TRUE(h2_conn_busy(&t->h));
	/* Both windows opened: the rest, in frames of the peer's size. */
	while (!s->end[0] && rounds++ < 1000) {
		wu[0] = 0;
		wu[1] = 0x10;
		wu[2] = 0;
		wu[3] = 0;
		fr(t, H2_WINDOW_UPDATE, 0, 0, wu, 4);
		fr(t, H2_WINDOW_UPDATE, 0, 1, wu, 4);
		pump(t);
		collect(t, s);
	}
	ASSERT_EQ(sizeof(want), s->body_len[0]);
	ASSERT_EQ(0, memcmp(want, s->body[0], sizeof(want)));
	ASSERT_EQ(1, t->complete);
	free(s);
}

TEST_F(h2, frames_fill_whole_records)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting big[] = {
		{ H2_SET_MAX_FRAME_SIZE, 1 << 20 },
		{ H2_SET_INITIAL_WINDOW_SIZE, 0x7fffffff },
	};
	struct rx r;

	hello(t, big, 2);
	fr(t, H2_WINDOW_UPDATE, 0, 0, "\x7f\x00\x00\x00", 4);
	get(t, 1, "GET", "/big", NULL);
	pump(t);
	/* 9 + payload is a multiple of 16384 but for the last frame. */
	while (next_rx(t, &r))
		if (r.type == H2_DATA && !(r.flags & H2_F_END_STREAM)) {
			ASSERT_EQ(0, (r.len + 9) % 16384);
			s->data_frames++;
			if (r.len > s->max_data)
				s->max_data = r.len;
		}
	/* The scheduler's quantum: 16 records. */
	ASSERT_EQ(16 * 16384 - 9, s->max_data);
	ASSERT_EQ(1, s->data_frames);
	ASSERT_EQ(1, t->complete);
	free(s);
}

TEST_F(h2, initial_window_size_change_applies_to_open_streams)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting small = { H2_SET_INITIAL_WINDOW_SIZE, 100 };
	struct h2_setting more = { H2_SET_INITIAL_WINDOW_SIZE, 300 };
	uint8_t b[32];

	hello(t, &small, 1);
	get(t, 1, "GET", "/big", NULL);
	pump(t);
	collect(t, s);
	ASSERT_EQ(100, s->body_len[0]);
	/* 6.9.2: +200 on the open stream. */
	fr(t, H2_SETTINGS, 0, 0, b + 9, h2_write_settings(b, &more, 1) - 9);
	pump(t);
	collect(t, s);
	ASSERT_EQ(300, s->body_len[0]);
	/* Down to 0: the window goes negative, nothing more goes. */
	more.value = 0;
	fr(t, H2_SETTINGS, 0, 0, b + 9, h2_write_settings(b, &more, 1) - 9);
	pump(t);
	collect(t, s);
	ASSERT_EQ(300, s->body_len[0]);
	free(s);
}

TEST_F(h2, window_overflow_is_flow_control_error)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	/* 6.9.1: 65,535 + 2^31-1 on the connection. */
	fr(t, H2_WINDOW_UPDATE, 0, 0, "\x7f\xff\xff\xff", 4);
	ASSERT_EQ(1, t->failed);
	EXPECT_GOAWAY(t, H2_FLOW_CONTROL_ERROR);
}

TEST_F(h2, stream_window_overflow_is_a_stream_error)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting z = { H2_SET_INITIAL_WINDOW_SIZE, 0 };

	hello(t, &z, 1);
	get(t, 1, "GET", "/big", NULL);
	fr(t, H2_WINDOW_UPDATE, 0, 1, "\x7f\xff\xff\xff", 4);
	fr(t, H2_WINDOW_UPDATE, 0, 1, "\x00\x00\x00\x01", 4);
	ASSERT_EQ(0, t->failed);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->rst);
	ASSERT_EQ(1, s->rst_stream);
	ASSERT_EQ(H2_FLOW_CONTROL_ERROR, s->rst_code);
	ASSERT_EQ(0, s->goaway);
	free(s);
}

TEST_F(h2, round_robin_and_a_stalled_stream_beside)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	unsigned int i, alternations = 0;

	hello(t, NULL, 0);
	fr(t, H2_WINDOW_UPDATE, 0, 0, "\x01\x00\x00\x00", 4);
	get(t, 1, "GET", "/big", NULL);
	get(t, 3, "GET", "/big", NULL);
	pump(t);
	collect(t, s);
	for (i = 1; i < s->norder; i++)
		alternations += s->order[i] != s->order[i - 1];
	/* One frame each in turn, never two of one stream in a row. */
	ASSERT_EQ(s->norder - 1, alternations);
	ASSERT_EQ(65535, s->body_len[0]);
	ASSERT_EQ(65535, s->body_len[1]);
	/* Stream 3 is given window, 1 is not: 3 flows, 1 stays. */
	for (i = 0; i < 60; i++) {
		fr(t, H2_WINDOW_UPDATE, 0, 3, "\x00\x01\x00\x00", 4);
		pump(t);
		collect(t, s);
	}
	ASSERT_EQ(BIG_LEN, s->body_len[1]);
	ASSERT_TRUE(s->end[1]);
	ASSERT_EQ(65535, s->body_len[0]);
	ASSERT_TRUE(h2_conn_busy(&t->h));
	free(s);
}

/*
 * A turn carries many small responses: 100 streams of 10 octets, each
 * a HEADERS and its DATA, go in one turn (one tlsx_sendv(), a few
 * records), every body whole; an item at a time they are 100 items.
 */
TEST_F(h2, many_small_responses_one_turn)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	unsigned int i, n;

	hello(t, NULL, 0);
	pump(t);
	collect(t, s);
	for (i = 0; i < 100; i++)
		get(t, 1 + 2 * i, "GET", "/a.txt", NULL);
	ASSERT_EQ(0, t->failed);
	n = pump(t);
	collect(t, s);
	ASSERT_EQ(t->turns ? 1 : 100, n);
	ASSERT_EQ(100, t->complete);
	ASSERT_EQ(100, s->headers);
	ASSERT_EQ(100, s->data_frames);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(10, s->body_len[i]);
		ASSERT_EQ(0, memcmp(s->body[i], "hello, h2\n", 10));
		ASSERT_TRUE(s->end[i]);
	}
	ASSERT_FALSE(h2_conn_busy(&t->h));
	free(s);
}

/*
 * Within a turn, streams take one frame each in turn (fairness), and
 * a turn stops at its budget: four bodies of 256 KiB and 17 octets
 * (with their frame headers just over 1 MiB), windows wide open.
 */
TEST_F(h2, turn_round_robin_within_budget)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting wide = { H2_SET_INITIAL_WINDOW_SIZE, 0x7fffffff };
	unsigned int i, alternations = 0, n;

	hello(t, &wide, 1);
	fr(t, H2_WINDOW_UPDATE, 0, 0, "\x7f\x00\x00\x00", 4);
	pump(t);
	collect(t, s);
	for (i = 0; i < 4; i++)
		get(t, 1 + 2 * i, "GET", "/big", NULL);
	n = pump(t);
	collect(t, s);
	for (i = 1; i < s->norder; i++)
		alternations += s->order[i] != s->order[i - 1];
	ASSERT_EQ(s->norder - 1, alternations);
	ASSERT_EQ(64, s->norder);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(BIG_LEN, s->body_len[i]);
		ASSERT_TRUE(s->end[i]);
	}
	/* The budget cut the first turn: its rest is a second one. */
	ASSERT_EQ(t->turns ? 2 : 4 + 4 * 16, n);
	ASSERT_EQ(4, t->complete);
	free(s);
}

TEST_F(h2, preface_wrong)
{
	struct tc *t = &self->t;

	ASSERT_EQ(-1, feed(t, "GET / HTTP/1.1\r\n\r\n", 18));
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, first_frame_not_settings)
{
	struct tc *t = &self->t;

	feed(t, H2_PREFACE, H2_PREFACE_LEN);
	fr(t, H2_PING, 0, 0, "12345678", 8);
	ASSERT_EQ(1, t->failed);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, ping_settings_answered)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();

	hello(t, NULL, 0);
	fr(t, H2_PING, 0, 0, "12345678", 8);
	fr(t, H2_PING, H2_F_ACK, 0, "12345678", 8);
	fr(t, H2_SETTINGS, H2_F_ACK, 0, "", 0);
	fr(t, H2_PRIORITY, 0, 9, "\0\0\0\x01\x10", 5);
	fr(t, 0x42, 0, 0, "unknown", 7);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->ping_ack);
	ASSERT_EQ(1, s->settings_ack);
	ASSERT_EQ(0, s->goaway);
	ASSERT_EQ(0, t->failed);
	/* A PRIORITY on idle stream 9 does not open it: 9 is still new. */
	get(t, 9, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, t->complete);
	free(s);
}

TEST_F(h2, stream_states)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	get(t, 3, "GET", "/a.txt", NULL);
	/* 5.1.1: lower than one used: a closed stream's HEADERS. */
	get(t, 1, "GET", "/a.txt", NULL);
	ASSERT_EQ(1, t->failed);
	EXPECT_GOAWAY(t, H2_STREAM_CLOSED);
}

TEST_F(h2, even_stream_id)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	get(t, 2, "GET", "/a.txt", NULL);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, data_on_idle)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	fr(t, H2_DATA, 0, 5, "x", 1);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, rst_on_idle)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	fr(t, H2_RST_STREAM, 0, 5, "\0\0\0\x08", 4);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, window_update_on_idle)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	fr(t, H2_WINDOW_UPDATE, 0, 5, "\0\0\0\x08", 4);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, continuation_and_frames_inside_a_block)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	uint8_t b[BLK_CAP];
	size_t n = block(t, b, "GET", "/a.txt", NULL);

	hello(t, NULL, 0);
	/* One block in three frames (4.3). */
	fr(t, H2_HEADERS, H2_F_END_STREAM, 1, b, 3);
	fr(t, H2_CONTINUATION, 0, 1, b + 3, 3);
	fr(t, H2_CONTINUATION, H2_F_END_HEADERS, 1, b + 6, n - 6);
	pump(t);
	collect(t, s);
	ASSERT_EQ(0, strncmp(s->f[0].s, ":status: 200\n", 13));
	ASSERT_EQ(10, s->body_len[0]);
	/* 6.2: a PING inside a block is PROTOCOL_ERROR. */
	n = block(t, b, "GET", "/a.txt", NULL);
	fr(t, H2_HEADERS, H2_F_END_STREAM, 3, b, 3);
	fr(t, H2_PING, 0, 0, "12345678", 8);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
	free(s);
}

TEST_F(h2, continuation_without_headers)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	fr(t, H2_CONTINUATION, H2_F_END_HEADERS, 1, "\x82", 1);
	EXPECT_GOAWAY(t, H2_PROTOCOL_ERROR);
}

TEST_F(h2, continuation_flood)
{
	struct tc *t = &self->t;
	unsigned int i;

	hello(t, NULL, 0);
	fr(t, H2_HEADERS, H2_F_END_STREAM, 1, "\x82", 1);
	/* CVE-2024-27316 class: frames without end, bounded. */
	for (i = 0; i < 100 && !t->failed; i++)
		fr(t, H2_CONTINUATION, 0, 1, "\x40\x01\x61\x01\x62", 5);
	ASSERT_EQ(1, t->failed);
	ASSERT_GE(t->conf.block_frames_max, i);
	EXPECT_GOAWAY(t, H2_ENHANCE_YOUR_CALM);
	EXPECT_COUNT(t, H2_CNT_BLOCK_LIMIT, 1);
}

TEST_F(h2, header_block_octets_bounded)
{
	struct tc *t = &self->t;
	static uint8_t big[16000];

	memset(big, 0, sizeof(big));
	hello(t, NULL, 0);
	fr(t, H2_HEADERS, 0, 1, big, 16000);
	fr(t, H2_CONTINUATION, 0, 1, big, 16000);
	ASSERT_EQ(1, t->failed);
	EXPECT_GOAWAY(t, H2_ENHANCE_YOUR_CALM);
}

TEST_F(h2, compression_error)
{
	struct tc *t = &self->t;

	hello(t, NULL, 0);
	/* Index 0 is not a field (RFC 7541 6.1). */
	fr(t, H2_HEADERS, H2_F_END_HEADERS | H2_F_END_STREAM, 1, "\x80", 1);
	EXPECT_GOAWAY(t, H2_COMPRESSION_ERROR);
}

TEST_F(h2, malformed_request_is_a_stream_error)
{
	static const char *const up[] = { "X-Upper", "1", NULL };
	static const char *const conn[] = { "connection", "close", NULL };
	struct tc *t = &self->t;
	struct seen *s = seen_new();

	hello(t, NULL, 0);
	get(t, 1, "GET", "/a.txt", up);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->rst);
	ASSERT_EQ(1, s->rst_stream);
	ASSERT_EQ(H2_PROTOCOL_ERROR, s->rst_code);
	get(t, 3, "GET", "/a.txt", conn);
	/* The table stayed in step: a good request after them is served. */
	get(t, 5, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	ASSERT_EQ(2, s->rst);
	ASSERT_EQ(0, s->goaway);
	ASSERT_EQ(10, s->body_len[2]);
	free(s);
}

TEST_F(h2, request_body_refused)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	uint8_t b[BLK_CAP];
	size_t n = block(t, b, "GET", "/a.txt", NULL);

	hello(t, NULL, 0);
	/* No END_STREAM: content follows (8.1); answered 413, then reset. */
	fr(t, H2_HEADERS, H2_F_END_HEADERS, 1, b, n);
	fr(t, H2_DATA, 0, 1, "body", 4);
	pump(t);
	collect(t, s);
	ASSERT_EQ(0, strncmp(s->f[0].s, ":status: 413\n", 13));
	ASSERT_EQ(1, s->rst);
	ASSERT_EQ(H2_NO_ERROR, s->rst_code);
	ASSERT_EQ(0, s->goaway);
	free(s);
}

TEST_F(h2, trailers_refused)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting z = { H2_SET_INITIAL_WINDOW_SIZE, 0 };
	uint8_t b[BLK_CAP];
	size_t n = block(t, b, "GET", "/a.txt", NULL);

	hello(t, &z, 1);
	fr(t, H2_HEADERS, H2_F_END_HEADERS, 1, b, n);
	/* A second HEADERS (trailers), decoded but refused. */
	n = block(t, b, "GET", "/a.txt", NULL);
	fr(t, H2_HEADERS, H2_F_END_HEADERS | H2_F_END_STREAM, 1, b, n);
	get(t, 3, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->rst);
	ASSERT_EQ(1, s->rst_stream);
	ASSERT_EQ(H2_PROTOCOL_ERROR, s->rst_code);
	ASSERT_EQ(0, s->goaway);
	free(s);
}

TEST_F(h2, header_list_too_large_is_431)
{
	static char v[9000];
	const char *const big[] = { "x-a", v, "x-b", v, NULL };
	struct tc *t = &self->t;
	struct seen *s = seen_new();

	memset(v, 'a', sizeof(v) - 1);
	hello(t, NULL, 0);
	/* 2 x 9000 octets decoded: over SETTINGS_MAX_HEADER_LIST_SIZE. */
	get(t, 1, "GET", "/a.txt", big);
	pump(t);
	collect(t, s);
	ASSERT_EQ(0, strncmp(s->f[0].s, ":status: 431\n", 13));
	ASSERT_EQ(0, s->goaway);
	EXPECT_COUNT(t, H2_CNT_LIST_LIMIT, 1);
	EXPECT_COUNT(t, H2_CNT_STREAMS, 1);
	free(s);
}

TEST_F(h2, max_concurrent_streams)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting z = { H2_SET_INITIAL_WINDOW_SIZE, 0 };
	unsigned int i;

	hello(t, &z, 1);
	/* Window 0: every stream stays open with its body due. */
	for (i = 0; i <= t->conf.max_streams; i++)
		get(t, 1 + 2 * i, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->rst);
	ASSERT_EQ(1 + 2 * t->conf.max_streams, s->rst_stream);
	ASSERT_EQ(H2_REFUSED_STREAM, s->rst_code);
	ASSERT_EQ(0, s->goaway);
	ASSERT_EQ(t->conf.max_streams, t->planned);
	EXPECT_COUNT(t, H2_CNT_REFUSED, 1);
	EXPECT_COUNT(t, H2_CNT_RST_SENT, 1);
	EXPECT_COUNT(t, H2_CNT_STREAMS, t->conf.max_streams);
	free(s);
}

TEST_F(h2, rapid_reset)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting z = { H2_SET_INITIAL_WINDOW_SIZE, 0 };
	unsigned int i;

	hello(t, &z, 1);
	/* CVE-2023-44487: open, reset, open, reset... */
	for (i = 0; i < 1000 && !t->failed; i++) {
		get(t, 1 + 2 * i, "GET", "/a.txt", NULL);
		fr(t, H2_RST_STREAM, 0, 1 + 2 * i, "\0\0\0\x08", 4);
	}
	ASSERT_EQ(1, t->failed);
	ASSERT_EQ(t->conf.reset_budget + 1, i);
	pump(t);
	collect(t, s);
	ASSERT_EQ(H2_ENHANCE_YOUR_CALM, s->goaway_code);
	EXPECT_COUNT(t, H2_CNT_RAPID_RESET, 1);
	EXPECT_COUNT(t, H2_CNT_RST_PEER, t->conf.reset_budget + 1);
	EXPECT_COUNT(t, H2_CNT_GOAWAY + H2_ENHANCE_YOUR_CALM, 1);
	EXPECT_COUNT(t, H2_CNT_GOAWAY + H2_NO_ERROR, 0);
	free(s);
}

TEST_F(h2, completed_streams_refill_the_reset_budget)
{
	struct tc *t = &self->t;
	unsigned int i;

	hello(t, NULL, 0);
	/* A browser that cancels some of many: never stopped. */
	for (i = 0; i < 600 && !t->failed; i++) {
		get(t, 1 + 4 * i, "GET", "/a.txt", NULL);
		pump(t);
		get(t, 3 + 4 * i, "GET", "/big", NULL);
		fr(t, H2_RST_STREAM, 0, 3 + 4 * i, "\0\0\0\x08", 4);
		pump(t);
	}
	ASSERT_EQ(0, t->failed);
}

TEST_F(h2, ping_flood)
{
	struct tc *t = &self->t;
	unsigned int i;

	hello(t, NULL, 0);
	for (i = 0; i < 10000 && !t->failed; i++)
		fr(t, H2_PING, 0, 0, "12345678", 8);
	ASSERT_EQ(1, t->failed);
	ASSERT_GT(t->conf.flood_burst + 2, i);
	EXPECT_GOAWAY(t, H2_ENHANCE_YOUR_CALM);
	/* Unread, its ACKs fill the control queue before the bucket ends. */
	EXPECT_COUNT(t, H2_CNT_OWED, 1);
	EXPECT_COUNT(t, H2_CNT_FLOOD, 0);
}

TEST_F(h2, priority_flood_empties_the_bucket)
{
	struct tc *t = &self->t;
	unsigned int i;

	hello(t, NULL, 0);
	/* Frames that owe no answer: only the bucket stops them. */
	for (i = 0; i < 10000 && !t->failed; i++)
		fr(t, H2_PRIORITY, 0, 1, "\0\0\0\x03\x10", 5);
	ASSERT_EQ(1, t->failed);
	/* The burst, less the token the client's SETTINGS took. */
	ASSERT_EQ(t->conf.flood_burst, i);
	EXPECT_GOAWAY(t, H2_ENHANCE_YOUR_CALM);
	EXPECT_COUNT(t, H2_CNT_FLOOD, 1);
	EXPECT_COUNT(t, H2_CNT_OWED, 0);
}

TEST_F(h2, settings_flood_and_owed_acks)
{
	struct tc *t = &self->t;
	unsigned int i;

	t->conf.flood_burst = 100000;
	hello(t, NULL, 0);
	/* Never read: the acks owed pile up to their bound. */
	for (i = 0; i < 10000 && !t->failed; i++)
		fr(t, H2_SETTINGS, 0, 0, "", 0);
	ASSERT_EQ(1, t->failed);
	ASSERT_GT(H2_CTL_CAP / 9 + 2, i);
	EXPECT_GOAWAY(t, H2_ENHANCE_YOUR_CALM);
	EXPECT_COUNT(t, H2_CNT_OWED, 1);
	EXPECT_COUNT(t, H2_CNT_FLOOD, 0);
}

TEST_F(h2, empty_frames_flood_and_the_bucket_refills)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	unsigned int i;

	hello(t, NULL, 0);
	get(t, 1, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	/* At the rate allowed, forever. */
	for (i = 0; i < 1000; i++) {
		t->now += 1000 / t->conf.flood_per_s;
		fr(t, H2_PRIORITY, 0, 1, "\0\0\0\x03\x10", 5);
	}
	ASSERT_EQ(0, t->failed);
	/* Empty DATA without END_STREAM, all at once. */
	for (i = 0; i < 10000 && !t->failed; i++)
		fr(t, H2_DATA, 0, 1, "", 0);
	ASSERT_EQ(1, t->failed);
	EXPECT_GOAWAY(t, H2_ENHANCE_YOUR_CALM);
	/* Each owes a RST_STREAM (closed stream): whichever comes first. */
	ASSERT_EQ(1, t->h.counts.n[H2_CNT_FLOOD] + t->h.counts.n[H2_CNT_OWED]);
	free(s);
}

/*
 * The owner refuses a stream in plan() (conn_h2.c near the key's record
 * limit on the kernel's tls): GOAWAY NO_ERROR naming it, RST_STREAM
 * REFUSED_STREAM on it (RFC 9113 8.7), the streams before it served
 * whole, none after it taken, and the connection over once they are.
 */
TEST_F(h2, stream_refused_by_the_owner)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting w = { H2_SET_INITIAL_WINDOW_SIZE, 0x7fffffff };

	hello(t, &w, 1);
	fr(t, H2_WINDOW_UPDATE, 0, 0, "\x7f\x00\x00\x00", 4);
	t->refuse_from = 5;
	get(t, 1, "GET", "/big", NULL);
	get(t, 3, "GET", "/a.txt", NULL);
	get(t, 5, "GET", "/a.txt", NULL);
	get(t, 7, "GET", "/a.txt", NULL);
	ASSERT_EQ(0, t->failed);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->goaway);
	ASSERT_EQ(H2_NO_ERROR, s->goaway_code);
	ASSERT_EQ(5, s->goaway_last);
	ASSERT_EQ(1, s->rst);
	ASSERT_EQ(5, s->rst_stream);
	ASSERT_EQ(H2_REFUSED_STREAM, s->rst_code);
	/* 1 and 3 whole; 5 refused; 7 past the GOAWAY: not planned. */
	ASSERT_EQ(BIG_LEN, s->body_len[0]);
	ASSERT_TRUE(s->end[0]);
	ASSERT_EQ(10, s->body_len[1]);
	ASSERT_EQ(0, s->body_len[2]);
	ASSERT_EQ(0, s->f[2].len);
	ASSERT_EQ(0, s->f[3].len);
	ASSERT_EQ(3, t->planned);
	ASSERT_EQ(3, t->done);
	ASSERT_EQ(2, t->complete);
	ASSERT_TRUE(h2_conn_over(&t->h));
	free(s);
}

/* RFC 9113 6.5.3: our SETTINGS unacknowledged when the owner's timer ends. */
TEST_F(h2, settings_timeout_without_ack)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();

	hello(t, NULL, 0);
	get(t, 1, "GET", "/a.txt", NULL);
	pump(t);
	ASSERT_TRUE(h2_conn_settings_pending(&t->h));
	ASSERT_TRUE(h2_conn_settings_expired(&t->h));
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, t->complete);
	ASSERT_EQ(1, s->goaway);
	ASSERT_EQ(H2_SETTINGS_TIMEOUT, s->goaway_code);
	ASSERT_TRUE(h2_conn_over(&t->h));
	EXPECT_COUNT(t, H2_CNT_GOAWAY + H2_SETTINGS_TIMEOUT, 1);
	free(s);
}

TEST_F(h2, settings_acked_no_timeout)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();

	hello(t, NULL, 0);
	pump(t);
	fr(t, H2_SETTINGS, H2_F_ACK, 0, "", 0);
	ASSERT_FALSE(h2_conn_settings_pending(&t->h));
	ASSERT_FALSE(h2_conn_settings_expired(&t->h));
	/* An ACK we did not ask for changes nothing. */
	fr(t, H2_SETTINGS, H2_F_ACK, 0, "", 0);
	get(t, 1, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	ASSERT_EQ(0, s->goaway);
	ASSERT_EQ(1, t->complete);
	ASSERT_EQ(0, t->failed);
	EXPECT_COUNT(t, H2_CNT_STREAMS, 1);
	free(s);
}

TEST_F(h2, goaway_graceful_and_stream_total)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	unsigned int i;

	t->conf.streams_total_max = 3;
	hello(t, NULL, 0);
	for (i = 0; i < 4; i++)
		get(t, 1 + 2 * i, "GET", "/a.txt", NULL);
	pump(t);
	collect(t, s);
	/* 6.8: NO_ERROR, the last id taken; stream 7 is not served. */
	ASSERT_EQ(1, s->goaway);
	ASSERT_EQ(H2_NO_ERROR, s->goaway_code);
	ASSERT_EQ(5, s->goaway_last);
	ASSERT_EQ(3, t->complete);
	ASSERT_EQ(0, s->body_len[3]);
	ASSERT_EQ(0, t->failed);
	ASSERT_TRUE(h2_conn_over(&t->h));
	free(s);
}

TEST_F(h2, drain_goaway_finishes_streams_in_flight)
{
	struct tc *t = &self->t;
	struct seen *s = seen_new();
	struct h2_setting z = { H2_SET_INITIAL_WINDOW_SIZE, 0 };

	hello(t, &z, 1);
	get(t, 1, "GET", "/a.txt", NULL);
	pump(t);
	h2_conn_goaway(&t->h);
	pump(t);
	ASSERT_FALSE(h2_conn_over(&t->h));
	fr(t, H2_WINDOW_UPDATE, 0, 1, "\0\0\0\x10", 4);
	pump(t);
	collect(t, s);
	ASSERT_EQ(1, s->goaway);
	ASSERT_EQ(1, s->goaway_last);
	ASSERT_EQ(10, s->body_len[0]);
	ASSERT_TRUE(h2_conn_over(&t->h));
	free(s);
}

TEST_F(h2, oversized_frame)
{
	struct tc *t = &self->t;
	static uint8_t big[16385];

	hello(t, NULL, 0);
	fr(t, H2_DATA, 0, 1, big, sizeof(big));
	EXPECT_GOAWAY(t, H2_FRAME_SIZE_ERROR);
}

TEST_HARNESS_MAIN
