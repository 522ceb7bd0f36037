// SPDX-License-Identifier: GPL-2.0
/*
 * test_httpdate.c - HTTP dates (httpdate.c, RFC 9110 5.6.7): the
 * IMF-fixdate written for known times, the three forms read, the RFC 850
 * two-digit year read by the 50-year rule, a round trip over many times
 * against gmtime_r(), and malformed dates (bad days, months, widths,
 * case, zones) refused.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/httpdate.h"

static bool parse(const char *s, time_t *t)
{
	return httpdate_parse(s, strlen(s), t);
}

/* 2026-12-01 00:00:00 UTC: the RFC 850 tests' "now". */
#define NOW_2026 1796083200

TEST(format_known)
{
	char out[HTTPDATE_LEN + 1];

	httpdate_format(784111777, out);
	ASSERT_STREQ("Sun, 06 Nov 1994 08:49:37 GMT", out);
	httpdate_format(0, out);
	ASSERT_STREQ("Thu, 01 Jan 1970 00:00:00 GMT", out);
	httpdate_format(951782400, out);	/* a leap day of a century */
	ASSERT_STREQ("Tue, 29 Feb 2000 00:00:00 GMT", out);
	httpdate_format(2147483647, out);
	ASSERT_STREQ("Tue, 19 Jan 2038 03:14:07 GMT", out);
	httpdate_format(253402300799LL, out);
	ASSERT_STREQ("Fri, 31 Dec 9999 23:59:59 GMT", out);
	ASSERT_EQ(HTTPDATE_LEN, strlen(out));
}

TEST(format_out_of_range_is_epoch)
{
	char out[HTTPDATE_LEN + 1];

	httpdate_format(253402300800LL, out);	/* year 10000 */
	ASSERT_STREQ("Thu, 01 Jan 1970 00:00:00 GMT", out);
}

TEST(parse_three_forms)
{
	time_t t;

	ASSERT_TRUE(parse("Sun, 06 Nov 1994 08:49:37 GMT", &t));
	ASSERT_EQ(784111777, t);
	ASSERT_TRUE(httpdate_parse_at("Sunday, 06-Nov-94 08:49:37 GMT", 30,
				      NOW_2026, &t));
	ASSERT_EQ(784111777, t);
	ASSERT_TRUE(parse("Sun Nov  6 08:49:37 1994", &t));
	ASSERT_EQ(784111777, t);
	ASSERT_TRUE(parse("Sun Nov 16 08:49:37 1994", &t));
	ASSERT_EQ(784111777 + 10 * 86400, t);
	ASSERT_TRUE(parse("Thu, 01 Jan 1970 00:00:00 GMT", &t));
	ASSERT_EQ(0, t);
	ASSERT_TRUE(parse("Wed, 31 Dec 1969 23:59:59 GMT", &t));
	ASSERT_EQ(-1, t);
	ASSERT_TRUE(parse("Tue, 29 Feb 2000 00:00:00 GMT", &t));
	ASSERT_EQ(951782400, t);
	/* A leap second (second = 60) is the next minute's first. */
	ASSERT_TRUE(parse("Sat, 31 Dec 2016 23:59:60 GMT", &t));
	ASSERT_EQ(1483228800, t);
}

TEST(rfc850_fifty_year_rule)
{
	time_t t;
	char out[HTTPDATE_LEN + 1];

	/* From 2026: 76 is 2076 (50 years ahead), 77 is 1977. */
	ASSERT_TRUE(httpdate_parse_at("Tuesday, 01-Dec-76 00:00:00 GMT", 31,
				      NOW_2026, &t));
	httpdate_format(t, out);
	ASSERT_STREQ("Tue, 01 Dec 2076 00:00:00 GMT", out);
	ASSERT_TRUE(httpdate_parse_at("Wednesday, 01-Dec-77 00:00:00 GMT",
				      33, NOW_2026, &t));
	httpdate_format(t, out);
	ASSERT_STREQ("Thu, 01 Dec 1977 00:00:00 GMT", out);
	ASSERT_TRUE(httpdate_parse_at("Monday, 01-Jan-26 00:00:00 GMT", 30,
				      NOW_2026, &t));
	httpdate_format(t, out);
	ASSERT_STREQ("Thu, 01 Jan 2026 00:00:00 GMT", out);
	ASSERT_TRUE(httpdate_parse_at("Monday, 01-Jan-00 00:00:00 GMT", 30,
				      NOW_2026, &t));
	httpdate_format(t, out);
	ASSERT_STREQ("Sat, 01 Jan 2000 00:00:00 GMT", out);
	/* From 2089-12-31 (3786825600): 30 is 2130, 41 is 2041. */
	ASSERT_TRUE(httpdate_parse_at("Monday, 01-Jan-30 00:00:00 GMT", 30,
				      3786825600LL, &t));
	httpdate_format(t, out);
	ASSERT_STREQ("Sun, 01 Jan 2130 00:00:00 GMT", out);
	ASSERT_TRUE(httpdate_parse_at("Monday, 01-Jan-41 00:00:00 GMT", 30,
				      3786825600LL, &t));
	httpdate_format(t, out);
	ASSERT_STREQ("Tue, 01 Jan 2041 00:00:00 GMT", out);
}

/* Every IMF-fixdate written reads back, and agrees with gmtime_r(). */
TEST(round_trip)
{
	unsigned int seed = 16;
	char out[HTTPDATE_LEN + 1], asc[32];
	int i;

	for (i = 0; i < 200000; i++) {
		time_t t, back, t2;
		struct tm tm;

		/* Years 1970..9999, with many leap days and month ends. */
		t = (time_t)(((uint64_t)rand_r(&seed) << 31 | rand_r(&seed)) %
			     253402300800ULL);
		if (i & 1)
			t -= t % 86400;
		httpdate_format(t, out);
		ASSERT_TRUE(parse(out, &back));
		ASSERT_EQ(t, back);
		gmtime_r(&t, &tm);
		/* asctime of the same instant, built by strftime in "C". */
		strftime(asc, sizeof(asc), "%a %b %e %H:%M:%S %Y", &tm);
		ASSERT_TRUE(parse(asc, &t2)) TH_LOG("%s", asc);
		ASSERT_EQ(t, t2);
		strftime(asc, sizeof(asc), "%a, %d %b %Y %H:%M:%S GMT", &tm);
		ASSERT_STREQ(asc, out);
	}
}

TEST(invalid_refused)
{
	static const char *const bad[] = {
		"",
		"Sun, 06 Nov 1994 08:49:37",
		"Sun, 06 Nov 1994 08:49:37 UTC",
		"Sun, 06 Nov 1994 08:49:37 gmt",
		"sun, 06 Nov 1994 08:49:37 GMT",
		"Sun, 06 nov 1994 08:49:37 GMT",
		"Sun, 06 Foo 1994 08:49:37 GMT",
		"Sun, 6 Nov 1994 08:49:37 GMT",
		"Sun, 06 Nov 94 08:49:37 GMT",
		"Sun, 00 Nov 1994 08:49:37 GMT",
		"Sun, 31 Nov 1994 08:49:37 GMT",
		"Sun, 29 Feb 1900 08:49:37 GMT",
		"Sun, 29 Feb 2001 08:49:37 GMT",
		"Sun, 30 Feb 2000 08:49:37 GMT",
		"Sun, 32 Jan 1994 08:49:37 GMT",
		"Sun, 06 Nov 1994 24:00:00 GMT",
		"Sun, 06 Nov 1994 08:60:37 GMT",
		"Sun, 06 Nov 1994 08:49:61 GMT",
		"Sun, 06 Nov 1994 8:49:37 GMT ",
		"Sun, 06 Nov 1994 08:49:37 GMT ",
		" Sun, 06 Nov 1994 08:49:37 GMT",
		"Sun, 06 Nov +994 08:49:37 GMT",
		"Sun, -6 Nov 1994 08:49:37 GMT",
		"Xyz, 06 Nov 1994 08:49:37 GMT",
		"Sun,06 Nov 1994 08:49:37 GMT ",
		"Sunday, 06-Nov-1994 08:49:37 GMT",
		"Sunday, 31-Apr-94 08:49:37 GMT",
		"Sunday, 06-Nov-94 08:49:37 UTC",
		"Sundae, 06-Nov-94 08:49:37 GMT",
		"Sun, 06-Nov-94 08:49:37 GMT",
		"Sun Nov 6 08:49:37 1994",
		"Sun Nov  0 08:49:37 1994",
		"Sun Feb 30 08:49:37 1994",
		"Sun Nov 06 08:49:37 94",
		"Sun Nov  6 08:49:37 1994 GMT",
		"1994-11-06T08:49:37Z",
		"784111777",
	};
	unsigned int i;
	time_t t = 12345;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *s = bad[i];

		EXPECT_FALSE(parse(s, &t)) TH_LOG("accepted: '%s'", s);
	}
	ASSERT_EQ(12345, t);
}

/* The length bounds the read: no NUL is needed, none past @len read. */
TEST(length_bounds_the_read)
{
	const char *s = "Sun, 06 Nov 1994 08:49:37 GMTxxxx";
	char *h = malloc(29);
	time_t t;

	ASSERT_NE(NULL, h);
	memcpy(h, s, 29);
	ASSERT_TRUE(httpdate_parse(h, 29, &t));
	ASSERT_FALSE(httpdate_parse(h, 28, &t));
	ASSERT_FALSE(httpdate_parse(s, 33, &t));
	free(h);
}

TEST_HARNESS_MAIN
