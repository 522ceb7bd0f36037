// SPDX-License-Identifier: GPL-2.0
/*
 * test_range.c - Range (range.c, RFC 9110 14.1-14.2, 14.6): single,
 * open and suffix ranges; clamping to the size; sorting and coalescing
 * (overlapping, touching, many small ones); the cap; unsatisfiable sets
 * (416) and unsatisfiable members dropped; the zero-length file; every
 * syntax error and overflowing number ignored (served whole); the
 * multipart boundary, part headers and closing delimiter, and their
 * refusal of a short buffer.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/range.h"

static struct http_str S(const char *s)
{
	struct http_str h = { s, s ? (uint32_t)strlen(s) : 0 };

	return h;
}


static enum range_result parse(const char *h, uint64_t size, unsigned int max,
			       struct byte_range *r, unsigned int *n)
{
	return range_parse(S(h), size, r, max, n);
}

TEST(single_ranges)
{
	struct byte_range r[16];
	unsigned int n = 99;

	ASSERT_EQ(RANGE_OK, parse("bytes=0-499", 10000, 16, r, &n));
	ASSERT_EQ(1, n);
	ASSERT_EQ(0, r[0].first);
	ASSERT_EQ(499, r[0].last);
	ASSERT_EQ(RANGE_OK, parse("bytes=500-999", 10000, 16, r, &n));
	ASSERT_EQ(500, r[0].first);
	ASSERT_EQ(999, r[0].last);
	/* Open-ended, and a last-pos past the end clamped. */
	ASSERT_EQ(RANGE_OK, parse("bytes=9500-", 10000, 16, r, &n));
	ASSERT_EQ(9500, r[0].first);
	ASSERT_EQ(9999, r[0].last);
	ASSERT_EQ(RANGE_OK, parse("bytes=9500-20000", 10000, 16, r, &n));
	ASSERT_EQ(9999, r[0].last);
	ASSERT_EQ(RANGE_OK, parse("bytes=9999-9999", 10000, 16, r, &n));
	ASSERT_EQ(9999, r[0].first);
	ASSERT_EQ(9999, r[0].last);
	/* The unit is case-insensitive; leading zeros are digits. */
	ASSERT_EQ(RANGE_OK, parse("Bytes=007-010", 10000, 16, r, &n));
	ASSERT_EQ(7, r[0].first);
	ASSERT_EQ(10, r[0].last);
	/* A last-pos of UINT64_MAX is a number, not an overflow. */
	ASSERT_EQ(RANGE_OK, parse("bytes=1-18446744073709551615", 10, 16,
				  r, &n));
	ASSERT_EQ(1, r[0].first);
	ASSERT_EQ(9, r[0].last);
}

TEST(suffix_ranges)
{
	struct byte_range r[16];
	unsigned int n;

	/* RFC 9110 14.1.2's example: the final 500 bytes of 10000. */
	ASSERT_EQ(RANGE_OK, parse("bytes=-500", 10000, 16, r, &n));
	ASSERT_EQ(1, n);
	ASSERT_EQ(9500, r[0].first);
	ASSERT_EQ(9999, r[0].last);
	ASSERT_EQ(RANGE_OK, parse("bytes=-1", 10000, 16, r, &n));
	ASSERT_EQ(9999, r[0].first);
	/* Longer than the file: the whole file, which is served as 200. */
	ASSERT_EQ(RANGE_NONE, parse("bytes=-20000", 10000, 16, r, &n));
	ASSERT_EQ(0, n);
	/* A zero suffix is unsatisfiable (14.1.1). */
	ASSERT_EQ(RANGE_UNSATISFIABLE, parse("bytes=-0", 10000, 16, r, &n));
	/* Whole-file spellings are 200 too. */
	ASSERT_EQ(RANGE_NONE, parse("bytes=0-", 10000, 16, r, &n));
	ASSERT_EQ(RANGE_NONE, parse("bytes=0-9999", 10000, 16, r, &n));
	ASSERT_EQ(RANGE_NONE, parse("bytes=0-99,100-", 10000, 16, r, &n));
}

TEST(sorted_and_coalesced)
{
	struct byte_range r[16];
	unsigned int n;

	ASSERT_EQ(RANGE_OK, parse("bytes=500-599,0-99", 10000, 16, r, &n));
	ASSERT_EQ(2, n);
	ASSERT_EQ(0, r[0].first);
	ASSERT_EQ(99, r[0].last);
	ASSERT_EQ(500, r[1].first);
	ASSERT_EQ(599, r[1].last);
	/* Overlapping. */
	ASSERT_EQ(RANGE_OK, parse("bytes=0-99,50-149", 10000, 16, r, &n));
	ASSERT_EQ(1, n);
	ASSERT_EQ(0, r[0].first);
	ASSERT_EQ(149, r[0].last);
	/* Touching (99 then 100). */
	ASSERT_EQ(RANGE_OK, parse("bytes=100-199,0-99", 10000, 16, r, &n));
	ASSERT_EQ(1, n);
	ASSERT_EQ(199, r[0].last);
	/* One gap byte keeps two parts. */
	ASSERT_EQ(RANGE_OK, parse("bytes=0-99,101-199", 10000, 16, r, &n));
	ASSERT_EQ(2, n);
	/* A later range swallowing several earlier ones. */
	ASSERT_EQ(RANGE_OK, parse("bytes=10-10,20-20,30-30,40-40,5-35,-10",
				  10000, 16, r, &n));
	ASSERT_EQ(3, n);
	ASSERT_EQ(5, r[0].first);
	ASSERT_EQ(35, r[0].last);
	ASSERT_EQ(40, r[1].first);
	ASSERT_EQ(40, r[1].last);
	ASSERT_EQ(9990, r[2].first);
	ASSERT_EQ(9999, r[2].last);
	/* The list syntax: OWS around commas, empty elements. */
	ASSERT_EQ(RANGE_OK, parse("bytes=0-1 ,\t, 5-6,", 10000, 16, r, &n));
	ASSERT_EQ(2, n);
	ASSERT_EQ(5, r[1].first);
}

/* Many small overlapping ranges (14.2's attack) become one part. */
TEST(many_overlapping_ranges)
{
	char h[8192];
	struct byte_range r[16];
	unsigned int n, i;
	size_t len = 6;

	memcpy(h, "bytes=", 6);
	for (i = 0; i < 500; i++)
		len += snprintf(h + len, sizeof(h) - len, "%u-%u,", i, i + 1);
	ASSERT_EQ(RANGE_OK, parse(h, 100000, 16, r, &n));
	ASSERT_EQ(1, n);
	ASSERT_EQ(0, r[0].first);
	ASSERT_EQ(500, r[0].last);
}

/*
 * Random sets on small files against a bitmap: the result is sorted,
 * disjoint and never touching, and covers exactly the requested bytes.
 */
TEST(coalescing_oracle)
{
	unsigned int seed = 9110, iter;

	for (iter = 0; iter < 20000; iter++) {
		unsigned char want[64] = { 0 }, got[64] = { 0 };
		unsigned int size = rand_r(&seed) % 64, k = 1 + rand_r(&seed) % 6;
		struct byte_range r[16];
		char h[256];
		size_t len = 6;
		unsigned int i, n, b, covered = 0;
		enum range_result res;

		memcpy(h, "bytes=", 6);
		for (i = 0; i < k; i++) {
			unsigned int a = rand_r(&seed) % 70, z;

			z = a + rand_r(&seed) % 10;
			switch (rand_r(&seed) % 3) {
			case 0:
				len += snprintf(h + len, sizeof(h) - len,
						"%u-%u,", a, z);
				for (b = a; b <= z && b < size; b++)
					want[b] = 1;
				break;
			case 1:
				len += snprintf(h + len, sizeof(h) - len,
						"%u-,", a);
				for (b = a; b < size; b++)
					want[b] = 1;
				break;
			default:
				len += snprintf(h + len, sizeof(h) - len,
						"-%u,", a);
				for (b = a >= size ? 0 : size - a; b < size; b++)
					want[b] = a > 0;
				break;
			}
		}
		res = parse(h, size, 16, r, &n);
		for (b = 0; b < size; b++)
			covered += want[b];
		if (!covered) {
			ASSERT_NE(RANGE_OK, res) TH_LOG("%s", h);
			continue;
		}
		if (covered == size) {
			ASSERT_EQ(RANGE_NONE, res) TH_LOG("%s", h);
			continue;
		}
		ASSERT_EQ(RANGE_OK, res) TH_LOG("%s /%u", h, size);
		for (i = 0; i < n; i++) {
			ASSERT_LE(r[i].first, r[i].last);
			ASSERT_LT(r[i].last, size);
			if (i)
				ASSERT_LT(r[i - 1].last + 1, r[i].first);
			for (b = r[i].first; b <= r[i].last; b++)
				got[b] = 1;
		}
		ASSERT_EQ(0, memcmp(want, got, sizeof(want))) TH_LOG("%s", h);
	}
}

TEST(max_ranges)
{
	struct byte_range r[16];
	unsigned int n;

	ASSERT_EQ(RANGE_OK, parse("bytes=0-0,2-2,4-4", 100, 3, r, &n));
	ASSERT_EQ(3, n);
	/* One more than the cap: the whole file (nginx's max_ranges). */
	ASSERT_EQ(RANGE_NONE, parse("bytes=0-0,2-2,4-4,6-6", 100, 3, r, &n));
	ASSERT_EQ(0, n);
	/* The cap counts after coalescing. */
	ASSERT_EQ(RANGE_OK, parse("bytes=0-0,2-2,4-4,6-6,1-1,5-5", 100, 3,
				  r, &n));
	ASSERT_EQ(2, n);
	/* More disjoint ranges than the merge holds: ignored. */
	{
		char h[4096];
		size_t len = 6;
		unsigned int i;

		memcpy(h, "bytes=", 6);
		for (i = 0; i < 200; i++)
			len += snprintf(h + len, sizeof(h) - len, "%u-%u,",
					2 * i, 2 * i);
		ASSERT_EQ(RANGE_NONE, parse(h, 100000, 16, r, &n));
	}
}

TEST(unsatisfiable)
{
	struct byte_range r[16];
	unsigned int n;

	ASSERT_EQ(RANGE_UNSATISFIABLE, parse("bytes=10000-", 10000, 16, r, &n));
	ASSERT_EQ(0, n);
	ASSERT_EQ(RANGE_UNSATISFIABLE, parse("bytes=20000-30000,10000-", 10000,
					     16, r, &n));
	/* Unsatisfiable members among satisfiable ones are dropped. */
	ASSERT_EQ(RANGE_OK, parse("bytes=20000-30000,5-9", 10000, 16, r, &n));
	ASSERT_EQ(1, n);
	ASSERT_EQ(5, r[0].first);
	/* The zero-length file: no int-range is satisfiable. */
	ASSERT_EQ(RANGE_UNSATISFIABLE, parse("bytes=0-", 0, 16, r, &n));
	ASSERT_EQ(RANGE_UNSATISFIABLE, parse("bytes=0-0", 0, 16, r, &n));
	ASSERT_EQ(RANGE_UNSATISFIABLE, parse("bytes=-0", 0, 16, r, &n));
	/* ... a suffix range is, and means the (empty) whole: 200. */
	ASSERT_EQ(RANGE_NONE, parse("bytes=-5", 0, 16, r, &n));
}

TEST(invalid_ignored)
{
	static const char *const bad[] = {
		NULL, "", "bytes", "bytes=", "bytes=,", "bytes= ,, ",
		"items=0-1", "bytes 0-1", "bytes =0-1", "byte=0-1",
		"bytes=1", "bytes=-", "bytes=--1", "bytes=a-1", "bytes=1-a",
		"bytes=1-2-3", "bytes=5-4", "bytes=0-1;2-3", "bytes=0-1 2-3",
		"bytes=0 -1", "bytes=0- 1", "bytes=+1-2", "bytes=0x10-20",
		"bytes=0-1,,5-4",
		/* 2^64 and beyond: a number too large is invalid, not huge. */
		"bytes=18446744073709551616-", "bytes=0-18446744073709551616",
		"bytes=-18446744073709551616",
		"bytes=99999999999999999999999999999999-",
	};
	struct byte_range r[16];
	unsigned int i, n;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *h = bad[i];

		EXPECT_EQ(RANGE_NONE, parse(h, 10000, 16, r, &n))
			TH_LOG("'%s'", h ? h : "(absent)");
		EXPECT_EQ(0, n);
	}
}

/* The length bounds the read: a field is not NUL-terminated. */
TEST(length_bounds_the_read)
{
	struct http_str h = { "bytes=0-12345", 9 };	/* "bytes=0-1" */
	struct byte_range r[16];
	unsigned int n;

	ASSERT_EQ(RANGE_OK, range_parse(h, 10000, r, 16, &n));
	ASSERT_EQ(1, r[0].last);
}

TEST(boundary)
{
	char a[21], b[21], c[21];
	unsigned int i;

	memset(a, 'x', sizeof(a));
	range_boundary(1, a);
	range_boundary(2, b);
	range_boundary(1, c);
	ASSERT_EQ(20, strlen(a));
	for (i = 0; i < 20; i++)
		ASSERT_NE(NULL, strchr("0123456789abcdef", a[i]));
	ASSERT_STRNE(a, b);
	ASSERT_STREQ(a, c);
}

TEST(part_header_and_closing)
{
	struct byte_range r = { 500, 999 };
	const char *want = "\r\n--0123456789abcdef0123\r\n"
			   "Content-Type: text/plain; charset=utf-8\r\n"
			   "Content-Range: bytes 500-999/8000\r\n\r\n";
	char out[256];
	size_t len;

	len = range_part_header(out, sizeof(out), "0123456789abcdef0123",
				"text/plain; charset=utf-8", &r, 8000);
	ASSERT_EQ(strlen(want), len);
	ASSERT_EQ(0, memcmp(want, out, len));
	/* Exactly the room for it and its NUL, then one byte short. */
	ASSERT_EQ(len, range_part_header(out, len + 1, "0123456789abcdef0123",
					 "text/plain; charset=utf-8", &r,
					 8000));
	ASSERT_EQ(0, range_part_header(out, len, "0123456789abcdef0123",
				       "text/plain; charset=utf-8", &r, 8000));
	len = range_closing(out, sizeof(out), "0123456789abcdef0123");
	ASSERT_EQ(28, len);
	ASSERT_EQ(0, memcmp("\r\n--0123456789abcdef0123--\r\n", out, len));
	ASSERT_EQ(0, range_closing(out, 28, "0123456789abcdef0123"));
}

TEST_HARNESS_MAIN
