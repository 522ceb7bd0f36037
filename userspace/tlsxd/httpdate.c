// SPDX-License-Identifier: GPL-2.0
/*
 * httpdate.c - HTTP dates (RFC 9110 5.6.7).  Out: IMF-fixdate only (a
 * sender MUST generate it).  In: IMF-fixdate, RFC 850 and asctime (a
 * recipient MUST accept all three).  The names come from our own tables,
 * never from the locale; day and month names are case-sensitive
 * (5.6.7), every number has its exact width, and a day that its month
 * does not have (Feb 30, Feb 29 of a common year) is refused.
 */
#include <string.h>

#include "httpdate.h"

static const char wday_short[7][4] = {
	"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
};

static const char *const wday_long[7] = {
	"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday",
	"Saturday"
};

static const char month_short[12][4] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun",
	"Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
};

static void put2(char *p, unsigned int v)
{
	p[0] = '0' + v / 10 % 10;
	p[1] = '0' + v % 10;
}

void httpdate_format(time_t t, char *out)
{
	struct tm tm;
	unsigned int year;

	/* A time with no four-digit year is the epoch: never a wild string. */
	if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 > 9999 ||
	    tm.tm_year + 1900 < 0) {
		t = 0;
		gmtime_r(&t, &tm);
	}
	year = tm.tm_year + 1900;
	/* "Sun, 06 Nov 1994 08:49:37 GMT" */
	memcpy(out, wday_short[tm.tm_wday], 3);
	memcpy(out + 3, ", ", 2);
	put2(out + 5, tm.tm_mday);
	out[7] = ' ';
	memcpy(out + 8, month_short[tm.tm_mon], 3);
	out[11] = ' ';
	put2(out + 12, year / 100);
	put2(out + 14, year % 100);
	out[16] = ' ';
	put2(out + 17, tm.tm_hour);
	out[19] = ':';
	put2(out + 20, tm.tm_min);
	out[22] = ':';
	put2(out + 23, tm.tm_sec);
	memcpy(out + 25, " GMT", 5);	/* with the NUL */
}

static bool is_leap(long y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int month_days(long y, int mon)
{
	static const unsigned char days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};

	return mon == 1 && is_leap(y) ? 29 : days[mon];
}

/*
 * Days since 1970-01-01 of the proleptic Gregorian date (@mon 0-11):
 * the year is shifted to start in March so that Feb 29 is the last day
 * of a year, then whole 400-year eras (146097 days) are counted.
 */
static long days_from_civil(long y, int mon, int mday)
{
	long era, yoe, doy, doe;
	int m = mon + 1;

	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + mday - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Exactly @n digits at @s; -1 when one is not a digit. */
static long digits(const char *s, int n)
{
	long v = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int find_month(const char *s)
{
	int i;

	for (i = 0; i < 12; i++)
		if (!memcmp(s, month_short[i], 3))
			return i;
	return -1;
}

static bool find_wday_short(const char *s)
{
	int i;

	for (i = 0; i < 7; i++)
		if (!memcmp(s, wday_short[i], 3))
			return true;
	return false;
}

/* "HH:MM:SS" (time-of-day, 5.6.7; second 60 allows a leap second). */
static bool parse_tod(const char *s, long *sec)
{
	long h = digits(s, 2), m = digits(s + 3, 2), x = digits(s + 6, 2);

	if (s[2] != ':' || s[5] != ':' || h < 0 || h > 23 || m < 0 || m > 59 ||
	    x < 0 || x > 60)
		return false;
	*sec = h * 3600 + m * 60 + x;
	return true;
}

static bool make_time(long y, int mon, long mday, long tod, time_t *t)
{
	if (mon < 0 || mday < 1 || mday > month_days(y, mon))
		return false;
	*t = (time_t)days_from_civil(y, mon, mday) * 86400 + tod;
	return true;
}

/* IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT" (29 bytes). */
static bool parse_imf(const char *s, size_t len, time_t *t)
{
	long tod, y;

	if (len != 29 || !find_wday_short(s) || memcmp(s + 3, ", ", 2) ||
	    s[7] != ' ' || s[11] != ' ' || s[16] != ' ' ||
	    memcmp(s + 25, " GMT", 4) || !parse_tod(s + 17, &tod))
		return false;
	y = digits(s + 12, 4);
	return y >= 0 && make_time(y, find_month(s + 8), digits(s + 5, 2),
				   tod, t);
}

/*
 * RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT".  The two-digit year is the
 * one in the century that puts the date no more than 50 years after
 * @now (5.6.7: a date that appears to be more than 50 years in the
 * future is the most recent past year with the same last two digits).
 */
static bool parse_rfc850(const char *s, size_t len, time_t now, time_t *t)
{
	const char *comma = memchr(s, ',', len < 10 ? len : 10);
	long tod, yy, y, mday, cur;
	struct tm tm;
	size_t wl;
	int i, mon;

	if (!comma)
		return false;
	wl = comma - s;
	for (i = 0; i < 7; i++)
		if (strlen(wday_long[i]) == wl && !memcmp(s, wday_long[i], wl))
			break;
	if (i == 7)
		return false;
	s += wl;
	len -= wl;
	/* ", 06-Nov-94 08:49:37 GMT" */
	if (len != 24 || s[1] != ' ' || s[4] != '-' || s[8] != '-' ||
	    s[11] != ' ' || memcmp(s + 20, " GMT", 4) ||
	    !parse_tod(s + 12, &tod))
		return false;
	mday = digits(s + 2, 2);
	mon = find_month(s + 5);
	yy = digits(s + 9, 2);
	if (yy < 0 || !gmtime_r(&now, &tm))
		return false;
	if (mon < 0)
		return false;
	/* Year precision: the nearest year ending in @yy at most 50 ahead. */
	cur = tm.tm_year + 1900L;
	y = cur / 100 * 100 + yy;
	if (y + 100 <= cur + 50)
		y += 100;
	else if (y > cur + 50)
		y -= 100;
	return make_time(y, mon, mday, tod, t);
}

/* asctime: "Sun Nov  6 08:49:37 1994" (the day space-padded, 24 bytes). */
static bool parse_asctime(const char *s, size_t len, time_t *t)
{
	long tod, y, mday;

	if (len != 24 || !find_wday_short(s) || s[3] != ' ' || s[7] != ' ' ||
	    s[10] != ' ' || s[19] != ' ' || !parse_tod(s + 11, &tod))
		return false;
	if (s[8] == ' ')
		mday = digits(s + 9, 1);
	else
		mday = digits(s + 8, 2);
	y = digits(s + 20, 4);
	return y >= 0 && make_time(y, find_month(s + 4), mday, tod, t);
}

bool httpdate_parse_at(const char *s, size_t len, time_t now, time_t *t)
{
	if (len < 24)
		return false;
	if (s[3] == ',')
		return parse_imf(s, len, t);
	if (s[3] == ' ')
		return parse_asctime(s, len, t);
	return parse_rfc850(s, len, now, t);
}

bool httpdate_parse(const char *s, size_t len, time_t *t)
{
	return httpdate_parse_at(s, len, time(NULL), t);
}
