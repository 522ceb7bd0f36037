// SPDX-License-Identifier: GPL-2.0
/*
 * test_der_pem.c - the DER reader and the PEM/base64 decoder on
 * hand-made encodings (each DER rule: accepted and broken forms), times
 * against libc's timegm(), base64 against OpenSSL's encoder at every
 * length, and PEM files written by the openssl command.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "x509/der.h"
#include "x509/pem.h"

/* splitmix64: reproducible test data. */
static u64 rng_state = 0x5eed0fde5eedull;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int read1(const u8 *p, size_t len, u8 *tag, struct der_span *v)
{
	struct der_cursor c;
	int err;

	der_init(&c, p, len);
	err = der_read_any(&c, tag, v, NULL);
	if (!err && !der_empty(&c))
		return 1;	/* trailing bytes: reported apart */
	return err;
}

TEST(der_lengths)
{
	static const u8 short_form[] = { 0x04, 0x02, 0xaa, 0xbb };
	static const u8 empty[] = { 0x05, 0x00 };
	static const u8 indefinite[] = { 0x30, 0x80, 0x00, 0x00 };
	static const u8 long_small[] = { 0x04, 0x81, 0x02, 0xaa, 0xbb };
	static const u8 long_zero[] = { 0x04, 0x82, 0x00, 0x80 };
	static const u8 five[] = { 0x04, 0x85, 0x01, 0, 0, 0, 0 };
	static const u8 past_end[] = { 0x04, 0x03, 0xaa, 0xbb };
	static const u8 high_tag[] = { 0x1f, 0x22, 0x01, 0x00 };
	static const u8 one_byte[] = { 0x04 };
	u8 buf[300], tag;
	struct der_span v;

	ASSERT_EQ(0, read1(short_form, sizeof(short_form), &tag, &v));
	EXPECT_EQ(0x04, tag);
	EXPECT_EQ(2, v.len);
	EXPECT_EQ(&short_form[2], v.p);
	EXPECT_EQ(0, read1(empty, sizeof(empty), &tag, &v));
	EXPECT_EQ(0, v.len);
	EXPECT_EQ(-EBADMSG, read1(indefinite, sizeof(indefinite), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(long_small, sizeof(long_small), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(long_zero, sizeof(long_zero), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(five, sizeof(five), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(past_end, sizeof(past_end), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(high_tag, sizeof(high_tag), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(one_byte, sizeof(one_byte), &tag, &v));
	EXPECT_EQ(-EBADMSG, read1(one_byte, 0, &tag, &v));

	/* 0x81 0x80: the smallest long form; 0x82 0x01 0x00: 256 bytes. */
	memset(buf, 0, sizeof(buf));
	buf[0] = 0x04;
	buf[1] = 0x81;
	buf[2] = 0x80;
	ASSERT_EQ(0, read1(buf, 3 + 0x80, &tag, &v));
	EXPECT_EQ(0x80, v.len);
	EXPECT_EQ(-EBADMSG, read1(buf, 3 + 0x7f, &tag, &v));
	buf[2] = 0x7f;	/* 127 fits the short form: long form refused */
	EXPECT_EQ(-EBADMSG, read1(buf, 3 + 0x7f, &tag, &v));
	buf[1] = 0x82;
	buf[2] = 0x01;
	buf[3] = 0x00;
	ASSERT_EQ(0, read1(buf, 4 + 256, &tag, &v));
	EXPECT_EQ(256, v.len);
	EXPECT_EQ(1, read1(buf, 4 + 257, &tag, &v));
}

TEST(der_whole_and_optional)
{
	static const u8 in[] = { 0x30, 0x03, 0x02, 0x01, 0x05, 0xa0, 0x00 };
	struct der_cursor c, seq, ctx;
	struct der_span v, whole;
	u64 x;
	u8 tag;

	der_init(&c, in, sizeof(in));
	ASSERT_EQ(0, der_read_any(&c, &tag, &v, &whole));
	EXPECT_EQ(&in[0], whole.p);
	EXPECT_EQ(5, whole.len);
	EXPECT_EQ(0, der_read_optional(&c, DER_CONTEXT(1), &v));
	EXPECT_EQ(1, der_read_optional(&c, DER_CONTEXT(0), &v));
	EXPECT_EQ(0, der_finish(&c));
	EXPECT_EQ(0, der_read_optional(&c, DER_CONTEXT(0), &v));

	der_init(&c, in, sizeof(in));
	EXPECT_EQ(-EBADMSG, der_read(&c, DER_SET, &v));
	EXPECT_EQ(&in[0], c.p);	/* a wrong tag leaves the cursor alone */
	ASSERT_EQ(0, der_enter(&c, DER_SEQUENCE, &seq));
	EXPECT_EQ(1, seq.depth);
	ASSERT_EQ(0, der_read_u64(&seq, &x));
	EXPECT_EQ(5, x);
	EXPECT_EQ(0, der_finish(&seq));
	EXPECT_EQ(1, der_enter_optional(&c, DER_CONTEXT(0), &ctx));
	EXPECT_TRUE(der_empty(&ctx));
	EXPECT_EQ(-EBADMSG, der_peek_tag(&c, &tag));	/* at the end */
	/* Only a constructed tag can be entered. */
	der_init(&c, in + 2, 3);
	EXPECT_EQ(-EBADMSG, der_enter(&c, DER_INTEGER, &seq));
}

TEST(der_depth)
{
	u8 buf[2 * (DER_MAX_DEPTH + 2)];
	struct der_cursor c[DER_MAX_DEPTH + 3];
	unsigned int n = DER_MAX_DEPTH + 1, i;

	/* n nested empty-ending SEQUENCEs: 30 2(n-1) 30 2(n-2) ... 30 00 */
	for (i = 0; i < n; i++) {
		buf[2 * i] = 0x30;
		buf[2 * i + 1] = (u8)(2 * (n - 1 - i));
	}
	der_init(&c[0], buf, 2 * n);
	for (i = 0; i < DER_MAX_DEPTH; i++)
		ASSERT_EQ(0, der_enter(&c[i], DER_SEQUENCE, &c[i + 1]));
	EXPECT_EQ(DER_MAX_DEPTH, c[DER_MAX_DEPTH].depth);
	EXPECT_EQ(-EBADMSG, der_enter(&c[DER_MAX_DEPTH], DER_SEQUENCE,
				      &c[DER_MAX_DEPTH + 1]));
}

static int integer(const u8 *p, size_t len, struct der_span *m, bool nz)
{
	struct der_cursor c;

	der_init(&c, p, len);
	return der_read_unsigned(&c, m, nz);
}

static int integer_u64(const u8 *p, size_t len, u64 *v)
{
	struct der_cursor c;

	der_init(&c, p, len);
	return der_read_u64(&c, v);
}

TEST(der_integers)
{
	static const u8 zero[] = { 0x02, 0x01, 0x00 };
	static const u8 small[] = { 0x02, 0x01, 0x7f };
	static const u8 padded[] = { 0x02, 0x02, 0x00, 0x80 };
	static const u8 nonmin_pos[] = { 0x02, 0x02, 0x00, 0x7f };
	static const u8 nonmin_neg[] = { 0x02, 0x02, 0xff, 0x80 };
	static const u8 negative[] = { 0x02, 0x01, 0x80 };
	static const u8 empty[] = { 0x02, 0x00 };
	static const u8 max63[] = {
		0x02, 0x08, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	static const u8 two63[] = {
		0x02, 0x09, 0x00, 0x80, 0, 0, 0, 0, 0, 0, 0
	};
	struct der_span m;
	u64 v;

	ASSERT_EQ(0, integer(zero, sizeof(zero), &m, false));
	EXPECT_EQ(1, m.len);
	EXPECT_EQ(-EBADMSG, integer(zero, sizeof(zero), &m, true));
	ASSERT_EQ(0, integer(small, sizeof(small), &m, true));
	EXPECT_EQ(0x7f, m.p[0]);
	ASSERT_EQ(0, integer(padded, sizeof(padded), &m, true));
	EXPECT_EQ(1, m.len);	/* the sign byte is dropped */
	EXPECT_EQ(0x80, m.p[0]);
	EXPECT_EQ(-EBADMSG, integer(nonmin_pos, sizeof(nonmin_pos), &m, 0));
	EXPECT_EQ(-EBADMSG, integer(nonmin_neg, sizeof(nonmin_neg), &m, 0));
	EXPECT_EQ(-EBADMSG, integer(negative, sizeof(negative), &m, false));
	EXPECT_EQ(-EBADMSG, integer(empty, sizeof(empty), &m, false));
	ASSERT_EQ(0, integer_u64(max63, sizeof(max63), &v));
	EXPECT_EQ(0x7fffffffffffffffull, v);
	EXPECT_EQ(-EBADMSG, integer_u64(two63, sizeof(two63), &v));
	ASSERT_EQ(0, integer_u64(padded, sizeof(padded), &v));
	EXPECT_EQ(0x80, v);
}

TEST(der_bool_null_bits_oid)
{
	static const u8 t[] = { 0x01, 0x01, 0xff }, f[] = { 0x01, 0x01, 0 };
	static const u8 one[] = { 0x01, 0x01, 0x01 };
	static const u8 two[] = { 0x01, 0x02, 0xff, 0xff };
	static const u8 null[] = { 0x05, 0x00 }, null1[] = { 0x05, 0x01, 0 };
	static const u8 bits_ok[] = { 0x03, 0x02, 0x01, 0x86 };
	static const u8 bits_dirty[] = { 0x03, 0x02, 0x01, 0x87 };
	static const u8 bits_8[] = { 0x03, 0x02, 0x08, 0x00 };
	static const u8 bits_none[] = { 0x03, 0x00 };
	static const u8 bits_empty[] = { 0x03, 0x01, 0x00 };
	static const u8 bits_empty_u[] = { 0x03, 0x01, 0x03 };
	/* 1.2.840.113549 and broken forms */
	static const u8 oid[] = { 0x06, 0x06, 0x2a, 0x86, 0x48, 0x86, 0xf7,
				  0x0d };
	static const u8 oid_pad[] = { 0x06, 0x03, 0x2a, 0x80, 0x01 };
	static const u8 oid_open[] = { 0x06, 0x02, 0x2a, 0x86 };
	static const u8 oid_empty[] = { 0x06, 0x00 };
	struct der_cursor c;
	struct der_span s;
	unsigned int unused;
	bool b;

#define INIT(x) der_init(&c, (x), sizeof(x))
	INIT(t);
	ASSERT_EQ(0, der_read_bool(&c, &b));
	EXPECT_TRUE(b);
	INIT(f);
	ASSERT_EQ(0, der_read_bool(&c, &b));
	EXPECT_FALSE(b);
	INIT(one);
	EXPECT_EQ(-EBADMSG, der_read_bool(&c, &b));
	INIT(two);
	EXPECT_EQ(-EBADMSG, der_read_bool(&c, &b));
	INIT(null);
	EXPECT_EQ(0, der_read_null(&c));
	INIT(null1);
	EXPECT_EQ(-EBADMSG, der_read_null(&c));

	INIT(bits_ok);
	ASSERT_EQ(0, der_read_bit_string(&c, &s, &unused));
	EXPECT_EQ(1, unused);
	EXPECT_EQ(1, s.len);
	INIT(bits_ok);
	EXPECT_EQ(-EBADMSG, der_read_bit_string_bytes(&c, &s));
	INIT(bits_dirty);
	EXPECT_EQ(-EBADMSG, der_read_bit_string(&c, &s, &unused));
	INIT(bits_8);
	EXPECT_EQ(-EBADMSG, der_read_bit_string(&c, &s, &unused));
	INIT(bits_none);
	EXPECT_EQ(-EBADMSG, der_read_bit_string(&c, &s, &unused));
	INIT(bits_empty);
	ASSERT_EQ(0, der_read_bit_string_bytes(&c, &s));
	EXPECT_EQ(0, s.len);
	INIT(bits_empty_u);
	EXPECT_EQ(-EBADMSG, der_read_bit_string(&c, &s, &unused));

	INIT(oid);
	ASSERT_EQ(0, der_read_oid(&c, &s));
	EXPECT_TRUE(der_oid_equal(&s, oid + 2, 6));
	EXPECT_FALSE(der_oid_equal(&s, oid + 2, 5));
	INIT(oid_pad);
	EXPECT_EQ(-EBADMSG, der_read_oid(&c, &s));
	INIT(oid_open);
	EXPECT_EQ(-EBADMSG, der_read_oid(&c, &s));
	INIT(oid_empty);
	EXPECT_EQ(-EBADMSG, der_read_oid(&c, &s));
#undef INIT
}

static int parse_time(u8 tag, const char *s, s64 *t)
{
	struct der_span v = { (const u8 *)s, strlen(s) };

	return der_parse_time(tag, &v, t);
}

TEST(der_time_fixed)
{
	s64 t;

	ASSERT_EQ(0, parse_time(DER_UTC_TIME, "700101000000Z", &t));
	EXPECT_EQ(0, t);
	ASSERT_EQ(0, parse_time(DER_UTC_TIME, "491231235959Z", &t));
	EXPECT_EQ(2524607999, t);		/* 2049-12-31T23:59:59Z */
	ASSERT_EQ(0, parse_time(DER_UTC_TIME, "500101000000Z", &t));
	EXPECT_EQ(-631152000, t);		/* 1950 */
	ASSERT_EQ(0, parse_time(DER_GENERALIZED_TIME, "20240229120000Z", &t));
	EXPECT_EQ(1709208000, t);
	ASSERT_EQ(0, parse_time(DER_GENERALIZED_TIME, "99991231235959Z", &t));
	EXPECT_EQ(253402300799, t);
	ASSERT_EQ(0, parse_time(DER_GENERALIZED_TIME, "00010101000000Z", &t));
	EXPECT_EQ(-62135596800, t);

	EXPECT_EQ(-EBADMSG, parse_time(DER_GENERALIZED_TIME,
				       "20230229120000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_GENERALIZED_TIME,
				       "21000229120000Z", &t));
	EXPECT_EQ(0, parse_time(DER_GENERALIZED_TIME, "20000229120000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "7001010000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700101000000", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700101000000+0100",
				       &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_GENERALIZED_TIME,
				       "20240101000000.5Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "701301000000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700100000000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700431000000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700101240000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700101006000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "700101000060Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "70010100000 Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_UTC_TIME, "7-0101000000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_GENERALIZED_TIME,
				       "00000101000000Z", &t));
	EXPECT_EQ(-EBADMSG, parse_time(DER_OCTET_STRING, "700101000000Z",
				       &t));
}

/* Random valid dates against timegm(): 20000 of each form. */
TEST(der_time_random)
{
	static const int mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	unsigned int i;

	for (i = 0; i < 40000; i++) {
		bool utc = i & 1;
		int year = utc ? 1950 + (int)(rnd() % 100) :
				 1 + (int)(rnd() % 9999);
		int mon = 1 + (int)(rnd() % 12), leap, dim, day;
		struct tm tm = { 0 };
		char s[32];
		s64 t;

		leap = (year % 4 == 0 && year % 100) || year % 400 == 0;
		dim = mdays[mon - 1] + (mon == 2 && leap);
		day = 1 + (int)(rnd() % (u64)dim);
		tm.tm_year = year - 1900;
		tm.tm_mon = mon - 1;
		tm.tm_mday = day;
		tm.tm_hour = (int)(rnd() % 24);
		tm.tm_min = (int)(rnd() % 60);
		tm.tm_sec = (int)(rnd() % 60);
		if (utc)
			snprintf(s, sizeof(s), "%02d%02d%02d%02d%02d%02dZ",
				 year % 100, mon, day, tm.tm_hour, tm.tm_min,
				 tm.tm_sec);
		else
			snprintf(s, sizeof(s), "%04d%02d%02d%02d%02d%02dZ",
				 year, mon, day, tm.tm_hour, tm.tm_min,
				 tm.tm_sec);
		ASSERT_EQ(0, parse_time(utc ? DER_UTC_TIME :
					DER_GENERALIZED_TIME, s, &t))
			TH_LOG("%s", s);
		ASSERT_EQ((s64)timegm(&tm), t) TH_LOG("%s", s);
	}
}

TEST(der_strings)
{
	static const u8 printable[] = { 0x13, 0x03, 'a', ' ', '*' };
	static const u8 printable_bad[] = { 0x13, 0x02, 'a', '@' };
	static const u8 ia5_bad[] = { 0x16, 0x01, 0x80 };
	static const u8 bmp_odd[] = { 0x1e, 0x03, 0, 'a', 0 };
	static const u8 utf8[] = { 0x0c, 0x02, 0xc3, 0xa9 };
	static const u8 octets[] = { 0x04, 0x01, 'a' };
	struct der_cursor c;
	struct der_span s;
	u8 tag;

	der_init(&c, printable, sizeof(printable));
	EXPECT_EQ(0, der_read_string(&c, &tag, &s));
	der_init(&c, printable_bad, sizeof(printable_bad));
	EXPECT_EQ(-EBADMSG, der_read_string(&c, &tag, &s));
	der_init(&c, ia5_bad, sizeof(ia5_bad));
	EXPECT_EQ(-EBADMSG, der_read_string(&c, &tag, &s));
	der_init(&c, bmp_odd, sizeof(bmp_odd));
	EXPECT_EQ(-EBADMSG, der_read_string(&c, &tag, &s));
	der_init(&c, utf8, sizeof(utf8));
	EXPECT_EQ(0, der_read_string(&c, &tag, &s));
	EXPECT_EQ(DER_UTF8_STRING, tag);
	der_init(&c, octets, sizeof(octets));
	EXPECT_EQ(-EBADMSG, der_read_string(&c, &tag, &s));
}

/* Every length 0..400 of random bytes, encoded by OpenSSL, with lines. */
TEST(base64_against_openssl)
{
	static u8 raw[400], out[400];
	static char b64[600], lined[1200];
	size_t len, n, i, j;

	for (len = 0; len <= sizeof(raw); len++) {
		for (i = 0; i < len; i++)
			raw[i] = (u8)rnd();
		EVP_EncodeBlock((u8 *)b64, raw, (int)len);
		n = strlen(b64);
		ASSERT_EQ(0, pem_base64_decode(out, sizeof(out), &n, b64, n));
		ASSERT_EQ(len, n);
		ASSERT_EQ(0, memcmp(raw, out, len));
		/* Lines of 64 with CRLF, a tab and spaces here and there. */
		for (i = 0, j = 0; b64[i]; i++) {
			if (i && i % 64 == 0) {
				lined[j++] = '\r';
				lined[j++] = '\n';
			}
			if (i % 37 == 5)
				lined[j++] = i % 2 ? ' ' : '\t';
			lined[j++] = b64[i];
		}
		lined[j++] = '\n';
		ASSERT_EQ(0, pem_base64_decode(out, sizeof(out), &n, lined, j));
		ASSERT_EQ(len, n);
		ASSERT_EQ(0, memcmp(raw, out, len));
		/* One byte short of room: -ENOSPC, never an overrun. */
		if (len)
			ASSERT_EQ(-ENOSPC, pem_base64_decode(out, len - 1, &n,
							     b64,
							     strlen(b64)));
	}
}

static int b64(const char *s, u8 *out, size_t *n)
{
	return pem_base64_decode(out, 16, n, s, strlen(s));
}

TEST(base64_strict)
{
	u8 out[16];
	size_t n;

	ASSERT_EQ(0, b64("QQ==", out, &n));
	EXPECT_EQ(1, n);
	EXPECT_EQ('A', out[0]);
	ASSERT_EQ(0, b64("QUI=", out, &n));
	EXPECT_EQ(2, n);
	ASSERT_EQ(0, b64("", out, &n));
	EXPECT_EQ(0, n);
	ASSERT_EQ(0, b64("+/+/", out, &n));
	EXPECT_EQ(0xfb, out[0]);
	EXPECT_EQ(0xff, out[1]);
	EXPECT_EQ(0xbf, out[2]);
	EXPECT_EQ(-EBADMSG, b64("QR==", out, &n));	/* pad bits set */
	EXPECT_EQ(-EBADMSG, b64("QUJ=", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QQ", out, &n));	/* no padding */
	EXPECT_EQ(-EBADMSG, b64("QQ=", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QQ===", out, &n));
	EXPECT_EQ(-EBADMSG, b64("Q===", out, &n));
	EXPECT_EQ(-EBADMSG, b64("Q", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QQ==QUJD", out, &n));	/* data after pad */
	EXPECT_EQ(-EBADMSG, b64("=QUI", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QU-I", out, &n));	/* base64url */
	EXPECT_EQ(-EBADMSG, b64("QU_I", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QU.I", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QUI\x80", out, &n));
	EXPECT_EQ(-EBADMSG, b64("QU\vI", out, &n));
}

/* Every byte value in every position of a 4-digit group. */
TEST(base64_alphabet)
{
	static const char alpha[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	unsigned int ch, pos;
	char s[5] = "AAAA";
	u8 out[3];
	size_t n;

	for (pos = 0; pos < 4; pos++) {
		for (ch = 1; ch < 256; ch++) {
			const char *at = strchr(alpha, (int)ch);
			int want = at ? 0 : -EBADMSG;

			if (ch == ' ' || ch == '\t' || ch == '\r' ||
			    ch == '\n' || ch == '=')
				continue;
			memcpy(s, "AAAA", 4);
			s[pos] = (char)ch;
			ASSERT_EQ(want, pem_base64_decode(out, 3, &n, s, 4))
				TH_LOG("byte %u at %u", ch, pos);
			if (!want)
				ASSERT_EQ((u32)(at - alpha) << (18 - 6 * pos),
					  (u32)out[0] << 16 | out[1] << 8 |
					  out[2]);
		}
	}
}

TEST(pem_blocks)
{
	static const char two[] =
		"text before\n"
		"-----BEGIN ONE-----\nQQ==\n-----END ONE-----\n"
		"between\r\n"
		"-----BEGIN TWO THINGS-----\r\nQUJD\r\nREVG\r\n"
		"-----END TWO THINGS-----\r\n"
		"after\n";
	const char *pos = two, *end = two + strlen(two);
	struct pem_block b;
	u8 out[16];
	size_t n;

	ASSERT_EQ(1, pem_next(&pos, end, &b, out, sizeof(out)));
	EXPECT_STREQ("ONE", b.label);
	EXPECT_EQ(1, b.der_len);
	ASSERT_EQ(1, pem_next(&pos, end, &b, out, sizeof(out)));
	EXPECT_STREQ("TWO THINGS", b.label);
	ASSERT_EQ(6, b.der_len);
	EXPECT_EQ(0, memcmp(out, "ABCDEF", 6));
	EXPECT_EQ(0, pem_next(&pos, end, &b, out, sizeof(out)));
	EXPECT_EQ(end, pos);

	EXPECT_EQ(0, pem_find(two, strlen(two), "TWO THINGS", out,
			      sizeof(out), &n));
	EXPECT_EQ(6, n);
	EXPECT_EQ(-ENOENT, pem_find(two, strlen(two), "THREE", out,
				    sizeof(out), &n));
	EXPECT_EQ(-ENOSPC, pem_find(two, strlen(two), "TWO THINGS", out, 5,
				    &n));
}

static int pem1(const char *s)
{
	const char *pos = s;
	struct pem_block b;
	u8 out[64];

	return pem_next(&pos, s + strlen(s), &b, out, sizeof(out));
}

TEST(pem_malformed)
{
	EXPECT_EQ(1, pem1("-----BEGIN A-----\nQQ==\n-----END A-----"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A-----\nQQ==\n-----END B-----\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A-----\nQQ==\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A-----\nQQ==\n-----END A---\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A----- x\nQQ==\n-----END A-----\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A\nQQ==\n-----END A-----\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A-----\nQ-Q==\n-----END A-----\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A-----\nQQ==x-----END A-----\n"));
	EXPECT_EQ(-EBADMSG, pem1("-----BEGIN A-----\nQQ==\n-----END A----- x\n"));
	EXPECT_EQ(-EOPNOTSUPP, pem1("-----BEGIN RSA PRIVATE KEY-----\n"
				    "Proc-Type: 4,ENCRYPTED\n"
				    "DEK-Info: AES-128-CBC,00\n\nQQ==\n"
				    "-----END RSA PRIVATE KEY-----\n"));
	/* BEGIN not at the start of a line is text. */
	EXPECT_EQ(0, pem1("x-----BEGIN A-----\nQQ==\n-----END A-----\n"));
	EXPECT_EQ(0, pem1(""));
	EXPECT_EQ(0, pem1("-----BEGIN"));
}

/* Run a shell command in @dir; 0 when it exits 0. */
static int sh(const char *dir, const char *cmd)
{
	char buf[1024];

	snprintf(buf, sizeof(buf), "cd '%s' && (%s) >/dev/null 2>&1", dir,
		 cmd);
	return system(buf);
}

static size_t slurp(const char *dir, const char *name, void *buf,
		    size_t max)
{
	char path[256];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "rb");
	if (!f)
		return 0;
	n = fread(buf, 1, max, f);
	fclose(f);
	return n;
}

/*
 * A chain file and a key file from the openssl command: every block
 * decodes to the DER that `openssl ... -outform DER` writes.
 */
TEST(pem_openssl_files)
{
	static const char *const cmds[] = {
		"openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out k.pem",
		"openssl genpkey -algorithm RSA -out r.pem",
		"openssl req -x509 -key k.pem -subj /CN=a -days 1 -out c0.pem",
		"openssl req -x509 -key r.pem -subj /CN=b -days 1 -out c1.pem",
		"cat c0.pem c1.pem > chain.pem",
		"openssl x509 -in c1.pem -text >> chain.pem",
		"openssl x509 -in c0.pem -outform DER -out c0.der",
		"openssl x509 -in c1.pem -outform DER -out c1.der",
		"openssl pkcs8 -topk8 -nocrypt -in r.pem -outform DER -out r.der",
	};
	static char pem[16384];
	static u8 der[3][4096], out[4096];
	char dir[] = "/tmp/tlsx_pem_XXXXXX", cmd[256];
	const char *pos, *end;
	struct pem_block b;
	size_t n, dlen[3];
	int i;

	ASSERT_NE(NULL, mkdtemp(dir));
	for (i = 0; i < (int)ARRAY_SIZE(cmds); i++)
		ASSERT_EQ(0, sh(dir, cmds[i])) TH_LOG("%s", cmds[i]);
	dlen[0] = slurp(dir, "c0.der", der[0], sizeof(der[0]));
	dlen[1] = slurp(dir, "c1.der", der[1], sizeof(der[1]));
	n = slurp(dir, "chain.pem", pem, sizeof(pem));
	ASSERT_GT(n, 0);
	pos = pem;
	end = pem + n;
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, pem_next(&pos, end, &b, out, sizeof(out)));
		EXPECT_STREQ("CERTIFICATE", b.label);
		/* c0, c1, then c1 again after its -text dump */
		ASSERT_EQ(dlen[i ? 1 : 0], b.der_len);
		EXPECT_EQ(0, memcmp(out, der[i ? 1 : 0], b.der_len));
	}
	EXPECT_EQ(0, pem_next(&pos, end, &b, out, sizeof(out)));

	dlen[2] = slurp(dir, "r.der", der[2], sizeof(der[2]));
	n = slurp(dir, "r.pem", pem, sizeof(pem));
	ASSERT_EQ(0, pem_find(pem, n, "PRIVATE KEY", out, sizeof(out), &n));
	ASSERT_EQ(dlen[2], n);
	EXPECT_EQ(0, memcmp(out, der[2], n));

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	EXPECT_EQ(0, system(cmd));
}

TEST_HARNESS_MAIN
