// SPDX-License-Identifier: GPL-2.0
/*
 * test_codec.c - the bounded readers and push-block writers:
 *
 *  - integers and bytes read big-endian, a short input refused with
 *    decode_error and the reader left where it was;
 *  - u8/u16/u24-prefixed blocks: exact consumption required, bounds
 *    <min..max> enforced, a length past the parent refused, nested blocks
 *    bounded by their parent, an odd-length u16 list refused;
 *  - malformed input: every truncation and every one-byte length change
 *    of a small ClientHello-shaped message is refused by a parser built on
 *    the helpers, and the intact one accepted;
 *  - writers: lengths patched after the block, nesting, the buffer's
 *    capacity exact (every cap below the need fails with -ENOSPC, the
 *    error sticky, nothing written past cap), a block too long for its
 *    prefix (-EMSGSIZE), misuse (-EINVAL);
 *  - a round trip: what the writer builds, the reader parses.
 */
#include "kselftest_harness.h"
#include "handshake/engine/codec.h"
#include "handshake/engine/test/hs_test.h"

TEST(read_integers)
{
	static const u8 in[] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
				 0x08, 0x09, 0x0a };
	struct tlsx_rd r;
	u8 a;
	u16 b;
	u32 c, d;
	const u8 *p;

	tlsx_rd_init(&r, in, sizeof(in));
	ASSERT_EQ(0, tlsx_rd_u8(&r, &a));
	ASSERT_EQ(0, tlsx_rd_u16(&r, &b));
	ASSERT_EQ(0, tlsx_rd_u24(&r, &c));
	ASSERT_EQ(0, tlsx_rd_u32(&r, &d));
	EXPECT_EQ(0x01, a);
	EXPECT_EQ(0x0203, b);
	EXPECT_EQ(0x040506, c);
	EXPECT_EQ(0x0708090a, d);
	EXPECT_EQ(0, tlsx_rd_left(&r));
	EXPECT_EQ(0, tlsx_rd_done(&r));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_u8(&r, &a));
	EXPECT_EQ(0, tlsx_rd_bytes(&r, 0, &p));
}

TEST(read_short_leaves_reader)
{
	static const u8 in[] = { 0xaa, 0xbb, 0xcc };
	struct tlsx_rd r;
	u32 v;
	u16 s;
	u8 buf[4];

	tlsx_rd_init(&r, in, sizeof(in));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_u32(&r, &v));
	EXPECT_EQ(3, tlsx_rd_left(&r));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_copy(&r, buf, 4));
	EXPECT_EQ(3, tlsx_rd_left(&r));
	ASSERT_EQ(0, tlsx_rd_u24(&r, &v));
	EXPECT_EQ(0xaabbcc, v);
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_u16(&r, &s));
	EXPECT_EQ(0, tlsx_rd_done(&r));
}

/* One block of each prefix size, read exactly. */
TEST(open_prefixes)
{
	static const u8 in[] = { 0x02, 0xaa, 0xbb,
				 0x00, 0x01, 0xcc,
				 0x00, 0x00, 0x03, 0x01, 0x02, 0x03 };
	struct tlsx_rd r, b;
	const u8 *p;
	size_t n;
	u8 v;

	tlsx_rd_init(&r, in, sizeof(in));
	ASSERT_EQ(0, tlsx_rd_open(&r, 1, 0, 255, &b));
	EXPECT_EQ(2, tlsx_rd_left(&b));
	ASSERT_EQ(0, tlsx_rd_u8(&b, &v));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_done(&b));
	ASSERT_EQ(0, tlsx_rd_u8(&b, &v));
	EXPECT_EQ(0xbb, v);
	EXPECT_EQ(0, tlsx_rd_done(&b));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_u8(&b, &v));

	ASSERT_EQ(0, tlsx_rd_vec(&r, 2, 1, 65535, &p, &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ(0xcc, p[0]);
	ASSERT_EQ(0, tlsx_rd_vec(&r, 3, 0, (1 << 24) - 1, &p, &n));
	EXPECT_EQ(3, n);
	EXPECT_EQ(0x03, p[2]);
	EXPECT_EQ(0, tlsx_rd_done(&r));
}

TEST(open_bounds)
{
	static const u8 in[] = { 0x00, 0x03, 0x01, 0x02, 0x03 };
	struct tlsx_rd r, b;

	tlsx_rd_init(&r, in, sizeof(in));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_open(&r, 2, 4, 10, &b));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_open(&r, 2, 0, 2, &b));
	EXPECT_EQ(sizeof(in), tlsx_rd_left(&r));
	EXPECT_EQ(0, tlsx_rd_open(&r, 2, 3, 3, &b));
	EXPECT_EQ(0, tlsx_rd_left(&r));

	/* A prefix other than 1..3 is the caller's bug. */
	tlsx_rd_init(&r, in, sizeof(in));
	EXPECT_EQ(TLSX_ALERT_INTERNAL_ERROR, tlsx_rd_open(&r, 0, 0, 9, &b));
	EXPECT_EQ(TLSX_ALERT_INTERNAL_ERROR, tlsx_rd_open(&r, 4, 0, 9, &b));
}

/* A length that runs past the parent (not past the whole input). */
TEST(open_past_parent)
{
	static const u8 in[] = { 0x00, 0x03,		/* outer: 3 bytes */
				 0x00, 0x02, 0xaa,	/* inner claims 2 */
				 0xbb };		/* outside outer */
	struct tlsx_rd r, outer, inner;
	u8 hdr[2];

	tlsx_rd_init(&r, in, sizeof(in));
	ASSERT_EQ(0, tlsx_rd_open(&r, 2, 0, 65535, &outer));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  tlsx_rd_open(&outer, 2, 0, 65535, &inner));
	EXPECT_EQ(3, tlsx_rd_left(&outer));

	/* A truncated prefix. */
	tlsx_rd_init(&r, in, 1);
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_open(&r, 2, 0, 9, &inner));
	tlsx_rd_init(&r, in, 2);
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, tlsx_rd_open(&r, 3, 0, 9, &inner));
	EXPECT_EQ(0, tlsx_rd_copy(&r, hdr, 2));
}

/* cipher_suites<2..2^16-2>: an odd length cannot be read as u16s. */
TEST(odd_u16_list)
{
	static const u8 in[] = { 0x00, 0x03, 0x13, 0x01, 0x13 };
	struct tlsx_rd r, b;
	u16 s;
	int ret = 0;

	tlsx_rd_init(&r, in, sizeof(in));
	ASSERT_EQ(0, tlsx_rd_open(&r, 2, 2, 65534, &b));
	while (!ret && tlsx_rd_left(&b))
		ret = tlsx_rd_u16(&b, &s);
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, ret);
}

/*
 * A ClientHello-shaped body: u16 version, 32 bytes random, session id
 * <0..32>, suites <2..2^16-2>, compression <1..2^8-1>, extensions
 * <8..2^16-1> each { u16 type; opaque data<0..2^16-1> }, all behind a
 * handshake header (u8 type, u24 length).
 */
static int parse_hello(const u8 *msg, size_t len)
{
	struct tlsx_rd r, body, b, exts, ext;
	const u8 *p;
	size_t n;
	u16 v;
	u8 t;
	int ret;

	tlsx_rd_init(&r, msg, len);
	ret = tlsx_rd_u8(&r, &t);
	if (ret)
		return ret;
	ret = tlsx_rd_open(&r, 3, 0, (1 << 24) - 1, &body);
	if (ret)
		return ret;
	ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	if (tlsx_rd_u16(&body, &v) || tlsx_rd_bytes(&body, 32, &p) ||
	    tlsx_rd_vec(&body, 1, 0, 32, &p, &n))
		return TLSX_ALERT_DECODE_ERROR;
	ret = tlsx_rd_open(&body, 2, 2, 65534, &b);
	while (!ret && tlsx_rd_left(&b))
		ret = tlsx_rd_u16(&b, &v);
	if (ret || tlsx_rd_vec(&body, 1, 1, 255, &p, &n))
		return TLSX_ALERT_DECODE_ERROR;
	ret = tlsx_rd_open(&body, 2, 8, 65535, &exts);
	while (!ret && tlsx_rd_left(&exts)) {
		ret = tlsx_rd_u16(&exts, &v);
		if (!ret)
			ret = tlsx_rd_open(&exts, 2, 0, 65535, &ext);
		/* the extension's own contents: a u8 list */
		if (!ret && tlsx_rd_left(&ext)) {
			ret = tlsx_rd_open(&ext, 1, 1, 255, &b);
			while (!ret && tlsx_rd_left(&b))
				ret = tlsx_rd_u8(&b, &t);
			if (!ret)
				ret = tlsx_rd_done(&ext);
		}
	}
	if (!ret)
		ret = tlsx_rd_done(&body);
	return ret;
}

static const u8 hello_msg[] = {
	0x01, 0x00, 0x00, 0x42,			/* client_hello, 66 bytes */
	0x03, 0x03,
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,	/* random */
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17,
	0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f,
	0x04, 0xde, 0xad, 0xbe, 0xef,		/* session id */
	0x00, 0x04, 0x13, 0x01, 0x13, 0x03,	/* suites */
	0x01, 0x00,				/* compression */
	0x00, 0x11,				/* extensions, 17 bytes */
	0x00, 0x2d, 0x00, 0x02, 0x01, 0x01,	/* a u8 list of 1 */
	0x00, 0x00, 0x00, 0x00,			/* empty */
	0x00, 0x2b, 0x00, 0x03, 0x02, 0x03, 0x04, /* a u8 list of 2 */
};

static size_t hello(u8 *out)
{
	memcpy(out, hello_msg, sizeof(hello_msg));
	return sizeof(hello_msg);
}

TEST(hello_intact)
{
	u8 m[128];
	size_t n = hello(m);

	ASSERT_EQ(70, n);
	EXPECT_EQ(0, parse_hello(m, n));
}

/* Every truncation, and one extra byte, is refused. */
TEST(hello_truncated)
{
	u8 m[129];
	size_t n = hello(m), i;

	for (i = 0; i < n; i++)
		EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, parse_hello(m, i))
			TH_LOG("truncated to %zu", i);
	m[n] = 0;
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, parse_hello(m, n + 1));
}

/*
 * Each length byte (the handshake length, the session id, the suites,
 * the compression methods, the extensions block, each extension and the
 * list in it) one more and one less than it should be: refused.
 */
TEST(hello_lengths_off_by_one)
{
	static const size_t len_at[] = { 3, 38, 44, 49, 52, 56, 57, 62, 66,
					 67 };
	u8 m[128];
	size_t n = hello(m), i;
	int d;

	ASSERT_EQ(0x42, m[3]);
	ASSERT_EQ(0x04, m[38]);
	ASSERT_EQ(0x04, m[44]);
	ASSERT_EQ(0x01, m[49]);
	ASSERT_EQ(0x11, m[52]);
	ASSERT_EQ(0x02, m[56]);
	ASSERT_EQ(0x01, m[57]);
	ASSERT_EQ(0x00, m[62]);
	ASSERT_EQ(0x03, m[66]);
	ASSERT_EQ(0x02, m[67]);
	for (i = 0; i < ARRAY_SIZE(len_at); i++) {
		for (d = -1; d <= 1; d += 2) {
			m[len_at[i]] += d;
			EXPECT_NE(0, parse_hello(m, n))
				TH_LOG("length at %zu %+d", len_at[i], d);
			m[len_at[i]] -= d;
		}
	}
	EXPECT_EQ(0, parse_hello(m, n));
}

/*
 * Every value of every byte: accepted or decode_error, never a read out
 * of bounds (ASan checks the second part).
 */
TEST(hello_every_byte)
{
	u8 m[128];
	size_t n = hello(m), i;
	unsigned int v;
	int ret;

	for (i = 0; i < n; i++) {
		u8 keep = m[i];

		for (v = 0; v < 256; v++) {
			m[i] = (u8)v;
			ret = parse_hello(m, n);
			ASSERT_TRUE(ret == 0 || ret == TLSX_ALERT_DECODE_ERROR);
		}
		m[i] = keep;
	}
}

TEST(write_blocks)
{
	u8 buf[64];
	struct tlsx_wr w;
	size_t len;

	memset(buf, 0xee, sizeof(buf));
	tlsx_wr_init(&w, buf, sizeof(buf));
	tlsx_wr_u8(&w, 0x01);			/* handshake type */
	tlsx_wr_open(&w, 3);			/* its body */
	tlsx_wr_u16(&w, 0x0303);
	tlsx_wr_open(&w, 2);			/* extensions */
	tlsx_wr_u16(&w, 0x002b);
	tlsx_wr_open(&w, 2);
	tlsx_wr_open(&w, 1);
	tlsx_wr_u16(&w, 0x0304);
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	tlsx_wr_vec(&w, 1, NULL, 0);		/* an empty vector */
	tlsx_wr_u24(&w, 0xabcdef);
	tlsx_wr_u32(&w, 0x01020304);
	tlsx_wr_close(&w);
	ASSERT_EQ(0, tlsx_wr_finish(&w, &len));
	ASSERT_EQ(23, len);
	EXPECT_TRUE(hex_is(buf, "01000013 0303 0007 002b0003020304 00 abcdef 01020304"));
	EXPECT_EQ(0xee, buf[23]);
}

/* The exact capacity works; every smaller one fails, sticky, in bounds. */
TEST(write_capacity)
{
	u8 buf[32], ref[32];
	struct tlsx_wr w;
	size_t cap, len, want = 0;
	int ret;

	for (cap = 0; cap <= 20; cap++) {
		memset(buf, 0xee, sizeof(buf));
		tlsx_wr_init(&w, buf, cap);
		tlsx_wr_u8(&w, 0x16);
		tlsx_wr_open(&w, 2);
		tlsx_wr_bytes(&w, "0123456789", 10);
		tlsx_wr_u32(&w, 0xdeadbeef);
		tlsx_wr_close(&w);
		ret = tlsx_wr_finish(&w, &len);
		if (cap < 17) {
			EXPECT_EQ(-ENOSPC, ret) TH_LOG("cap %zu", cap);
			EXPECT_EQ(-ENOSPC, tlsx_wr_u8(&w, 0));
			EXPECT_EQ(-ENOSPC, tlsx_wr_close(&w));
		} else {
			EXPECT_EQ(0, ret);
			EXPECT_EQ(17, len);
			if (!want) {
				memcpy(ref, buf, 17);
				want = 1;
			}
			EXPECT_EQ(0, memcmp(ref, buf, 17));
		}
		EXPECT_LE(w.len, cap);
		EXPECT_EQ(0xee, buf[cap]) TH_LOG("cap %zu", cap);
	}
	EXPECT_TRUE(hex_is(ref, "16000e 30313233343536373839 deadbeef"));
}

/* A capacity near SIZE_MAX: no wrap in the checks. */
TEST(write_huge_request)
{
	u8 buf[8], *p;
	struct tlsx_wr w;

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(0, tlsx_wr_u32(&w, 1));
	EXPECT_EQ(-ENOSPC, tlsx_wr_reserve(&w, SIZE_MAX - 2, &p));
	EXPECT_EQ(NULL, p);
	EXPECT_EQ(4, w.len);
}

TEST(write_too_long_for_prefix)
{
	static u8 buf[70000], data[65536];
	struct tlsx_wr w;
	size_t len;

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(0, tlsx_wr_vec(&w, 1, data, 255));
	EXPECT_EQ(0, tlsx_wr_finish(&w, &len));
	EXPECT_EQ(0xff, buf[0]);

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(-EMSGSIZE, tlsx_wr_vec(&w, 1, data, 256));
	EXPECT_EQ(-EMSGSIZE, tlsx_wr_finish(&w, &len));

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(0, tlsx_wr_vec(&w, 2, data, 65535));
	EXPECT_EQ(0, tlsx_wr_finish(&w, &len));
	EXPECT_EQ(65537, len);

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(-EMSGSIZE, tlsx_wr_vec(&w, 2, data, 65536));

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(-EINVAL, tlsx_wr_u24(&w, 1 << 24));
	EXPECT_EQ(-EINVAL, tlsx_wr_u8(&w, 0));
}

TEST(write_misuse)
{
	u8 buf[64];
	struct tlsx_wr w;
	size_t len = 99;
	int i;

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(-EINVAL, tlsx_wr_close(&w));

	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(-EINVAL, tlsx_wr_open(&w, 0));
	tlsx_wr_init(&w, buf, sizeof(buf));
	EXPECT_EQ(-EINVAL, tlsx_wr_open(&w, 4));

	tlsx_wr_init(&w, buf, sizeof(buf));
	tlsx_wr_open(&w, 2);
	EXPECT_EQ(-EINVAL, tlsx_wr_finish(&w, &len));
	EXPECT_EQ(99, len);

	tlsx_wr_init(&w, buf, sizeof(buf));
	for (i = 0; i < TLSX_WR_DEPTH; i++)
		EXPECT_EQ(0, tlsx_wr_open(&w, 1));
	EXPECT_EQ(-EINVAL, tlsx_wr_open(&w, 1));
}

/* What the writer builds, the reader takes apart exactly. */
TEST(round_trip)
{
	u8 buf[256];
	struct tlsx_wr w;
	struct tlsx_rd r, list, inner;
	size_t len, n;
	const u8 *p;
	u16 v;
	int i;

	tlsx_wr_init(&w, buf, sizeof(buf));
	tlsx_wr_open(&w, 2);
	for (i = 0; i < 5; i++) {
		tlsx_wr_u16(&w, (u16)(0x1300 + i));
		tlsx_wr_vec(&w, 1, "abcdefg", (size_t)i);
	}
	tlsx_wr_close(&w);
	ASSERT_EQ(0, tlsx_wr_finish(&w, &len));

	tlsx_rd_init(&r, buf, len);
	ASSERT_EQ(0, tlsx_rd_open(&r, 2, 0, 65535, &list));
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, tlsx_rd_u16(&list, &v));
		EXPECT_EQ(0x1300 + i, v);
		ASSERT_EQ(0, tlsx_rd_open(&list, 1, 0, 255, &inner));
		ASSERT_EQ(0, tlsx_rd_bytes(&inner, (size_t)i, &p));
		EXPECT_EQ(0, memcmp(p, "abcdefg", (size_t)i));
		EXPECT_EQ(0, tlsx_rd_done(&inner));
	}
	EXPECT_EQ(0, tlsx_rd_done(&list));
	EXPECT_EQ(0, tlsx_rd_done(&r));
	ASSERT_EQ(0, tlsx_rd_vec(&(struct tlsx_rd){ buf, buf + len }, 2, 0,
				 65535, &p, &n));
	EXPECT_EQ(len - 2, n);
}

TEST_HARNESS_MAIN
