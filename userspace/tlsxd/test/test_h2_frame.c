// SPDX-License-Identifier: GPL-2.0
/*
 * test_h2_frame.c - HTTP/2 frames (h2/h2_frame.c, RFC 9113 4, 6): the
 * header read (reserved bit ignored), an incomplete frame, the frame
 * size limit checked on the header alone, every per-type rule on stream
 * id, length, padding and priority with the error code and scope RFC
 * 9113 names, SETTINGS values (6.5.2), unknown types passed, and the
 * writers read back by the parser.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/h2/h2_frame.h"

/* A frame of @type into @b: header, then @plen payload octets. */
static size_t mk(uint8_t *b, uint8_t type, uint8_t flags, uint32_t stream,
		 const void *payload, uint32_t plen)
{
	b[0] = plen >> 16;
	b[1] = plen >> 8;
	b[2] = plen;
	b[3] = type;
	b[4] = flags;
	b[5] = stream >> 24;
	b[6] = stream >> 16;
	b[7] = stream >> 8;
	b[8] = stream;
	if (plen)
		memcpy(b + 9, payload, plen);
	return 9 + plen;
}

struct res {
	enum h2_parse r;
	struct h2_frame f;
	struct h2_frame_err e;
	size_t used;
};

static struct res parse(const uint8_t *b, size_t len)
{
	struct res x;

	memset(&x, 0, sizeof(x));
	x.r = h2_frame_parse(b, len, H2_FRAME_SIZE_MIN, &x.f, &x.used, &x.e);
	return x;
}

/* A frame that must fail as a connection error of @code. */
#define CONN_ERR(b, n, want) do {				\
	struct res _x = parse(b, n);				\
	ASSERT_EQ(H2_PARSE_ERROR, _x.r);			\
	ASSERT_EQ(want, _x.e.code);				\
	ASSERT_FALSE(_x.e.stream);				\
} while (0)

#define STREAM_ERR(b, n, want, id) do {				\
	struct res _x = parse(b, n);				\
	ASSERT_EQ(H2_PARSE_ERROR, _x.r);			\
	ASSERT_EQ(want, _x.e.code);				\
	ASSERT_TRUE(_x.e.stream);				\
	ASSERT_EQ(id, _x.e.stream_id);				\
	ASSERT_EQ(n, _x.used);					\
} while (0)

#define OK(b, n) do {						\
	struct res _x = parse(b, n);				\
	ASSERT_EQ(H2_PARSE_FRAME, _x.r);			\
	ASSERT_EQ(n, _x.used);					\
} while (0)

TEST(header_and_reserved_bit)
{
	uint8_t b[32];
	struct res x;

	mk(b, H2_PING, 0, 0, "12345678", 8);
	x = parse(b, 17);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(8, x.f.h.len);
	ASSERT_EQ(H2_PING, x.f.h.type);
	ASSERT_EQ(0, memcmp(x.f.data, "12345678", 8));
	/* 4.1: the reserved bit is ignored: stream 0x80000003 is 3. */
	mk(b, H2_HEADERS, H2_F_END_HEADERS, 3, "x", 1);
	b[5] |= 0x80;
	x = parse(b, 10);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(3, x.f.h.stream);
}

TEST(incomplete)
{
	uint8_t b[32];
	size_t i, n = mk(b, H2_PING, 0, 0, "12345678", 8);

	for (i = 0; i < n; i++)
		ASSERT_EQ(H2_PARSE_MORE, parse(b, i).r);
	OK(b, n);
}

TEST(frame_size_on_header_alone)
{
	uint8_t b[16] = { 0 };
	struct res x;

	/* 4.2: 16385 > SETTINGS_MAX_FRAME_SIZE; only the header is there. */
	b[0] = 0x00;
	b[1] = 0x40;
	b[2] = 0x01;
	b[3] = H2_DATA;
	b[8] = 1;
	x = parse(b, 9);
	ASSERT_EQ(H2_PARSE_ERROR, x.r);
	ASSERT_EQ(H2_FRAME_SIZE_ERROR, x.e.code);
	ASSERT_FALSE(x.e.stream);
	/* Exactly the limit is a frame, once its payload is in. */
	b[1] = 0x40;
	b[2] = 0x00;
	ASSERT_EQ(H2_PARSE_MORE, parse(b, 9).r);
	/* A larger limit lets it through. */
	b[2] = 0x01;
	{
		struct h2_frame f;
		struct h2_frame_err e;
		size_t used;

		ASSERT_EQ(H2_PARSE_MORE,
			  h2_frame_parse(b, 9, 1 << 20, &f, &used, &e));
	}
}

TEST(data_rules)
{
	uint8_t b[64], p[16];
	struct res x;
	size_t n;

	/* 6.1: DATA on stream 0 is PROTOCOL_ERROR. */
	n = mk(b, H2_DATA, 0, 0, "ab", 2);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* Padding: 1 + 3 octets of data + 2 of padding. */
	p[0] = 2;
	memcpy(p + 1, "abc\0\0", 5);
	n = mk(b, H2_DATA, H2_F_PADDED, 1, p, 6);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(3, x.f.data_len);
	ASSERT_EQ(2, x.f.pad_len);
	ASSERT_EQ(0, memcmp(x.f.data, "abc", 3));
	/* Padding of the whole rest: empty data, allowed. */
	p[0] = 5;
	n = mk(b, H2_DATA, H2_F_PADDED, 1, p, 6);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(0, x.f.data_len);
	/* 6.1: padding >= the payload length is PROTOCOL_ERROR. */
	p[0] = 6;
	n = mk(b, H2_DATA, H2_F_PADDED, 1, p, 6);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* PADDED with no Pad Length octet: too small (4.2). */
	n = mk(b, H2_DATA, H2_F_PADDED, 1, p, 0);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
}

TEST(headers_rules)
{
	uint8_t b[64], p[16];
	struct res x;
	size_t n;

	/* 6.2: stream 0. */
	n = mk(b, H2_HEADERS, H2_F_END_HEADERS, 0, "a", 1);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* Priority fields taken off: dep 1, weight, fragment "xy". */
	memcpy(p, "\x80\0\0\x01\x10xy", 7);
	n = mk(b, H2_HEADERS, H2_F_PRIORITY | H2_F_END_HEADERS, 3, p, 7);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_TRUE(x.f.has_priority);
	ASSERT_EQ(1, x.f.dep);
	ASSERT_EQ(2, x.f.data_len);
	ASSERT_EQ(0, memcmp(x.f.data, "xy", 2));
	/* 5.3.1: depending on itself is a stream error. */
	memcpy(p, "\0\0\0\x03\x10xy", 7);
	n = mk(b, H2_HEADERS, H2_F_PRIORITY, 3, p, 7);
	STREAM_ERR(b, n, H2_PROTOCOL_ERROR, 3);
	/* PRIORITY flag with four octets: too small. */
	n = mk(b, H2_HEADERS, H2_F_PRIORITY, 3, p, 4);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	/* Padded and prioritised: pad 1, 5 priority octets, "z", pad. */
	memcpy(p, "\x01\0\0\0\x01\x10z\0", 8);
	n = mk(b, H2_HEADERS, H2_F_PADDED | H2_F_PRIORITY, 3, p, 8);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(1, x.f.data_len);
	ASSERT_EQ('z', x.f.data[0]);
	/* Padding past the fragment (6.2). */
	p[0] = 3;
	n = mk(b, H2_HEADERS, H2_F_PADDED | H2_F_PRIORITY, 3, p, 8);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
}

TEST(priority_rules)
{
	uint8_t b[32];
	size_t n;

	n = mk(b, H2_PRIORITY, 0, 0, "\0\0\0\x01\x10", 5);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* 6.3: a length other than 5 is a stream error. */
	n = mk(b, H2_PRIORITY, 0, 5, "\0\0\0\x01", 4);
	STREAM_ERR(b, n, H2_FRAME_SIZE_ERROR, 5);
	n = mk(b, H2_PRIORITY, 0, 5, "\0\0\0\x05\x10", 5);
	STREAM_ERR(b, n, H2_PROTOCOL_ERROR, 5);
	n = mk(b, H2_PRIORITY, 0, 5, "\0\0\0\x07\x10", 5);
	OK(b, n);
}

TEST(rst_settings_ping_goaway_window_continuation)
{
	uint8_t b[64];
	size_t n;

	/* 6.4 */
	n = mk(b, H2_RST_STREAM, 0, 0, "\0\0\0\x08", 4);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	n = mk(b, H2_RST_STREAM, 0, 1, "\0\0\0", 3);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	n = mk(b, H2_RST_STREAM, 0, 1, "\0\0\0\x08", 4);
	OK(b, n);
	/* 6.5 */
	n = mk(b, H2_SETTINGS, 0, 1, "", 0);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	n = mk(b, H2_SETTINGS, H2_F_ACK, 0, "\0\x01\0\0\0\0", 6);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	n = mk(b, H2_SETTINGS, 0, 0, "\0\x01\0\0\0", 5);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	n = mk(b, H2_SETTINGS, 0, 0, "\0\x01\0\0\0\0", 6);
	OK(b, n);
	n = mk(b, H2_SETTINGS, H2_F_ACK, 0, "", 0);
	OK(b, n);
	/* 6.6, 8.4: a client's PUSH_PROMISE. */
	n = mk(b, H2_PUSH_PROMISE, H2_F_END_HEADERS, 1, "\0\0\0\x02", 4);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* 6.7 */
	n = mk(b, H2_PING, 0, 1, "12345678", 8);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	n = mk(b, H2_PING, 0, 0, "1234567", 7);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	/* 6.8 */
	n = mk(b, H2_GOAWAY, 0, 1, "\0\0\0\0\0\0\0\0", 8);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	n = mk(b, H2_GOAWAY, 0, 0, "\0\0\0\0\0\0\0", 7);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	n = mk(b, H2_GOAWAY, 0, 0, "\0\0\0\0\0\0\0\0debug", 13);
	OK(b, n);
	/* 6.9 */
	n = mk(b, H2_WINDOW_UPDATE, 0, 0, "\0\0\x01", 3);
	CONN_ERR(b, n, H2_FRAME_SIZE_ERROR);
	n = mk(b, H2_WINDOW_UPDATE, 0, 0, "\0\0\0\0", 4);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* The reserved bit alone is an increment of 0 too. */
	n = mk(b, H2_WINDOW_UPDATE, 0, 7, "\x80\0\0\0", 4);
	STREAM_ERR(b, n, H2_PROTOCOL_ERROR, 7);
	n = mk(b, H2_WINDOW_UPDATE, 0, 7, "\0\0\0\x01", 4);
	OK(b, n);
	/* 6.10 */
	n = mk(b, H2_CONTINUATION, H2_F_END_HEADERS, 0, "a", 1);
	CONN_ERR(b, n, H2_PROTOCOL_ERROR);
	/* 4.1, 5.5: an unknown type passes, whatever its fields. */
	n = mk(b, 0xfa, 0xff, 0, "anything", 8);
	OK(b, n);
}

TEST(setting_values)
{
	ASSERT_EQ(H2_NO_ERROR, h2_setting_check(H2_SET_ENABLE_PUSH, 0));
	ASSERT_EQ(H2_NO_ERROR, h2_setting_check(H2_SET_ENABLE_PUSH, 1));
	ASSERT_EQ(H2_PROTOCOL_ERROR, h2_setting_check(H2_SET_ENABLE_PUSH, 2));
	ASSERT_EQ(H2_NO_ERROR,
		  h2_setting_check(H2_SET_INITIAL_WINDOW_SIZE, 0x7fffffff));
	ASSERT_EQ(H2_FLOW_CONTROL_ERROR,
		  h2_setting_check(H2_SET_INITIAL_WINDOW_SIZE, 0x80000000));
	ASSERT_EQ(H2_PROTOCOL_ERROR,
		  h2_setting_check(H2_SET_MAX_FRAME_SIZE, 16383));
	ASSERT_EQ(H2_NO_ERROR, h2_setting_check(H2_SET_MAX_FRAME_SIZE, 16384));
	ASSERT_EQ(H2_NO_ERROR,
		  h2_setting_check(H2_SET_MAX_FRAME_SIZE, 16777215));
	ASSERT_EQ(H2_PROTOCOL_ERROR,
		  h2_setting_check(H2_SET_MAX_FRAME_SIZE, 16777216));
	/* Unknown: ignored. */
	ASSERT_EQ(H2_NO_ERROR, h2_setting_check(0x99, 0xffffffff));
}

TEST(writers_read_back)
{
	static const struct h2_setting s[] = {
		{ H2_SET_MAX_CONCURRENT_STREAMS, 100 },
		{ H2_SET_INITIAL_WINDOW_SIZE, 0 },
	};
	uint8_t b[64];
	struct res x;
	size_t n, pos = 0;
	uint16_t id;
	uint32_t v;

	n = h2_write_settings(b, s, 2);
	ASSERT_EQ(21, n);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_TRUE(h2_settings_next(&x.f, &pos, &id, &v));
	ASSERT_EQ(H2_SET_MAX_CONCURRENT_STREAMS, id);
	ASSERT_EQ(100, v);
	ASSERT_TRUE(h2_settings_next(&x.f, &pos, &id, &v));
	ASSERT_EQ(H2_SET_INITIAL_WINDOW_SIZE, id);
	ASSERT_EQ(0, v);
	ASSERT_FALSE(h2_settings_next(&x.f, &pos, &id, &v));

	n = h2_write_settings_ack(b);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(H2_F_ACK, x.f.h.flags);

	n = h2_write_ping_ack(b, (const uint8_t *)"abcdefgh");
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(H2_F_ACK, x.f.h.flags);
	ASSERT_EQ(0, memcmp(x.f.data, "abcdefgh", 8));

	n = h2_write_goaway(b, 0xffffffff, H2_ENHANCE_YOUR_CALM);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	/* The reserved bit of the last stream id is not set (6.8). */
	ASSERT_EQ(0x7fffffff, h2_get32(x.f.data));
	ASSERT_EQ(H2_ENHANCE_YOUR_CALM, h2_get32(x.f.data + 4));

	n = h2_write_rst_stream(b, 9, H2_REFUSED_STREAM);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(9, x.f.h.stream);
	ASSERT_EQ(H2_REFUSED_STREAM, h2_get32(x.f.data));

	n = h2_write_window_update(b, 0, 1000);
	x = parse(b, n);
	ASSERT_EQ(H2_PARSE_FRAME, x.r);
	ASSERT_EQ(1000, h2_get32(x.f.data));

	/* The reserved bit of a written header stays clear (4.1). */
	h2_write_hdr(b, 0, H2_DATA, H2_F_END_STREAM, 0xffffffff);
	ASSERT_EQ(0x7f, b[5]);
	ASSERT_STREQ("ENHANCE_YOUR_CALM", h2_error_name(H2_ENHANCE_YOUR_CALM));
	ASSERT_STREQ("UNKNOWN", h2_error_name(0x42));
}

TEST_HARNESS_MAIN
