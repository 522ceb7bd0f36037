// SPDX-License-Identifier: GPL-2.0
/*
 * der.c - a strict DER reader (X.690 section 10 on top of BER, section 8).
 *
 * Every length is compared with the bytes that remain before anything is
 * read, and lengths are kept in size_t after a check that they fit, so
 * neither a read past the end nor an overflow can follow from the input.
 *
 * Private keys pass through here too.  The reader branches on tags and
 * lengths, which are the structure of a key, not its value; the only
 * branches on value bytes are the INTEGER minimality checks on the first
 * two bytes, which reveal at most whether the top bits are zero - what
 * the (public) length of the encoding says already.
 */
#include "x509/der.h"

int der_peek_tag(const struct der_cursor *c, u8 *tag)
{
	if (!c->len)
		return -EBADMSG;
	*tag = c->p[0];
	return 0;
}

int der_read_any(struct der_cursor *c, u8 *tag, struct der_span *val,
		 struct der_span *whole)
{
	const u8 *p = c->p;
	size_t left = c->len, len, hdr;

	if (left < 2)
		return -EBADMSG;
	/* Tag numbers >= 31 need more bytes: nothing we read uses them. */
	if ((p[0] & 0x1f) == 0x1f)
		return -EBADMSG;
	if (p[1] < 0x80) {
		len = p[1];
		hdr = 2;
	} else {
		/*
		 * Long form: the low bits count the length bytes.  0x80 is
		 * BER's indefinite length (not DER); more than 4 bytes
		 * would describe more than 4 GiB.  DER wants the fewest
		 * bytes: no leading zero, and no long form below 128.
		 */
		size_t n = p[1] & 0x7f, i;

		if (n == 0 || n > 4 || left - 2 < n)
			return -EBADMSG;
		if (p[2] == 0)
			return -EBADMSG;
		len = 0;
		for (i = 0; i < n; i++)
			len = (len << 8) | p[2 + i];
		if (len < 0x80)
			return -EBADMSG;
		hdr = 2 + n;
	}
	if (len > left - hdr)
		return -EBADMSG;
	*tag = p[0];
	val->p = p + hdr;
	val->len = len;
	if (whole) {
		whole->p = p;
		whole->len = hdr + len;
	}
	c->p += hdr + len;
	c->len -= hdr + len;
	return 0;
}

int der_read(struct der_cursor *c, u8 tag, struct der_span *val)
{
	struct der_cursor save = *c;
	u8 got;
	int err;

	err = der_read_any(c, &got, val, NULL);
	if (err)
		return err;
	if (got != tag) {
		*c = save;
		return -EBADMSG;
	}
	return 0;
}

int der_read_optional(struct der_cursor *c, u8 tag, struct der_span *val)
{
	int err;

	if (!c->len || c->p[0] != tag)
		return 0;
	err = der_read(c, tag, val);
	return err ? err : 1;
}

int der_enter(struct der_cursor *c, u8 tag, struct der_cursor *inner)
{
	struct der_span val;
	int err;

	if (!(tag & DER_CONSTRUCTED) || c->depth >= DER_MAX_DEPTH)
		return -EBADMSG;
	err = der_read(c, tag, &val);
	if (err)
		return err;
	inner->p = val.p;
	inner->len = val.len;
	inner->depth = c->depth + 1;
	return 0;
}

int der_enter_optional(struct der_cursor *c, u8 tag,
		       struct der_cursor *inner)
{
	int err;

	if (!c->len || c->p[0] != tag)
		return 0;
	err = der_enter(c, tag, inner);
	return err ? err : 1;
}

int der_finish(const struct der_cursor *c)
{
	return c->len ? -EBADMSG : 0;
}

/*
 * Minimal two's complement: no leading 0x00 before a byte whose top bit
 * is clear, no leading 0xff before one whose top bit is set, at least one
 * byte.
 */
static int check_integer(const struct der_span *v)
{
	if (!v->len)
		return -EBADMSG;
	if (v->len > 1) {
		if (v->p[0] == 0x00 && !(v->p[1] & 0x80))
			return -EBADMSG;
		if (v->p[0] == 0xff && (v->p[1] & 0x80))
			return -EBADMSG;
	}
	return 0;
}

int der_read_unsigned(struct der_cursor *c, struct der_span *mag,
		      bool nonzero)
{
	struct der_span v;
	int err;

	err = der_read(c, DER_INTEGER, &v);
	if (err)
		return err;
	err = check_integer(&v);
	if (err)
		return err;
	if (v.p[0] & 0x80)
		return -EBADMSG;	/* negative */
	if (v.p[0] == 0 && v.len > 1) {
		v.p++;
		v.len--;
	}
	if (nonzero && v.len == 1 && v.p[0] == 0)
		return -EBADMSG;
	*mag = v;
	return 0;
}

int der_read_u64(struct der_cursor *c, u64 *out)
{
	struct der_span m;
	u64 v = 0;
	size_t i;
	int err;

	err = der_read_unsigned(c, &m, false);
	if (err)
		return err;
	/* The magnitude has no leading zero byte unless it is 0 itself. */
	if (m.len > 8 || (m.len == 8 && (m.p[0] & 0x80)))
		return -EBADMSG;
	for (i = 0; i < m.len; i++)
		v = (v << 8) | m.p[i];
	*out = v;
	return 0;
}

int der_read_bool(struct der_cursor *c, bool *v)
{
	struct der_span s;
	int err;

	err = der_read(c, DER_BOOLEAN, &s);
	if (err)
		return err;
	if (s.len != 1 || (s.p[0] != 0x00 && s.p[0] != 0xff))
		return -EBADMSG;
	*v = s.p[0] == 0xff;
	return 0;
}

int der_read_null(struct der_cursor *c)
{
	struct der_span s;
	int err;

	err = der_read(c, DER_NULL, &s);
	if (err)
		return err;
	return s.len ? -EBADMSG : 0;
}

int der_read_bit_string(struct der_cursor *c, struct der_span *bits,
			unsigned int *unused)
{
	struct der_span s;
	unsigned int u;
	int err;

	err = der_read(c, DER_BIT_STRING, &s);
	if (err)
		return err;
	if (!s.len)
		return -EBADMSG;
	u = s.p[0];
	if (u > 7 || (s.len == 1 && u != 0))
		return -EBADMSG;
	/* DER: the unused bits of the last byte are zero. */
	if (u && (s.p[s.len - 1] & ((1u << u) - 1)))
		return -EBADMSG;
	bits->p = s.p + 1;
	bits->len = s.len - 1;
	*unused = u;
	return 0;
}

int der_read_bit_string_bytes(struct der_cursor *c, struct der_span *bytes)
{
	unsigned int unused;
	int err;

	err = der_read_bit_string(c, bytes, &unused);
	if (err)
		return err;
	return unused ? -EBADMSG : 0;
}

/*
 * Each subidentifier is base-128, high bit set on all bytes but its
 * last; the first byte of a subidentifier may not be 0x80 (a leading
 * zero digit).
 */
int der_check_oid(const struct der_span *oid)
{
	size_t i;
	bool start = true;

	if (!oid->len || (oid->p[oid->len - 1] & 0x80))
		return -EBADMSG;
	for (i = 0; i < oid->len; i++) {
		if (start && oid->p[i] == 0x80)
			return -EBADMSG;
		start = !(oid->p[i] & 0x80);
	}
	return 0;
}

int der_read_oid(struct der_cursor *c, struct der_span *oid)
{
	int err;

	err = der_read(c, DER_OID, oid);
	if (err)
		return err;
	return der_check_oid(oid);
}

bool der_oid_equal(const struct der_span *oid, const u8 *ref, size_t ref_len)
{
	return oid->len == ref_len && !memcmp(oid->p, ref, ref_len);
}

static int digits(const u8 *p, unsigned int n, unsigned int *v)
{
	unsigned int i, x = 0;

	for (i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -EBADMSG;
		x = x * 10 + (p[i] - '0');
	}
	*v = x;
	return 0;
}

static bool is_leap(unsigned int y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

/*
 * Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar.
 * Counting from March makes February the last month of a shifted year,
 * so a leap day never falls inside the year's month table: a shifted
 * year has 365 days plus one every 4 years, less every 100, plus every
 * 400; 719468 is the day number of 1970-01-01 counted the same way from
 * 0000-03-01.  Cumulative days at the start of month m (March = 0) are
 * (153 * m + 2) / 5, the 31/30 pattern of March..January.
 */
static s64 days_from_civil(unsigned int y, unsigned int m, unsigned int d)
{
	s64 yy = (s64)y - (m <= 2);
	s64 era = yy / 400;	/* yy >= 0 here: years are at least 1 - 1 */
	s64 yoe = yy - era * 400;
	s64 mp = m > 2 ? m - 3 : m + 9;
	s64 doy = (153 * mp + 2) / 5 + d - 1;
	s64 doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;

	return era * 146097 + doe - 719468;
}

int der_parse_time(u8 tag, const struct der_span *val, s64 *t)
{
	static const u8 mdays[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	unsigned int year, mon, day, hour, min, sec, dim;
	const u8 *p = val->p;

	if (tag == DER_UTC_TIME) {
		if (val->len != 13 || p[12] != 'Z' || digits(p, 2, &year))
			return -EBADMSG;
		year += year < 50 ? 2000 : 1900;
		p += 2;
	} else if (tag == DER_GENERALIZED_TIME) {
		if (val->len != 15 || p[14] != 'Z' || digits(p, 4, &year))
			return -EBADMSG;
		if (year == 0)
			return -EBADMSG;
		p += 4;
	} else {
		return -EBADMSG;
	}
	if (digits(p, 2, &mon) || digits(p + 2, 2, &day) ||
	    digits(p + 4, 2, &hour) || digits(p + 6, 2, &min) ||
	    digits(p + 8, 2, &sec))
		return -EBADMSG;
	if (mon < 1 || mon > 12)
		return -EBADMSG;
	dim = mdays[mon - 1] + (mon == 2 && is_leap(year));
	if (day < 1 || day > dim || hour > 23 || min > 59 || sec > 59)
		return -EBADMSG;
	*t = days_from_civil(year, mon, day) * 86400 +
	     (s64)(hour * 3600 + min * 60 + sec);
	return 0;
}

int der_read_time(struct der_cursor *c, s64 *t)
{
	struct der_span v;
	u8 tag;
	int err;

	err = der_peek_tag(c, &tag);
	if (err)
		return err;
	if (tag != DER_UTC_TIME && tag != DER_GENERALIZED_TIME)
		return -EBADMSG;
	err = der_read(c, tag, &v);
	if (err)
		return err;
	return der_parse_time(tag, &v, t);
}

/*
 * X.680's PrintableString set, plus '*' and '&', which real certificates
 * carry there often enough (wildcard names) that refusing them helps no
 * one.
 */
static bool printable(u8 ch)
{
	if ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
	    (ch >= '0' && ch <= '9'))
		return true;
	return ch && strchr(" '()+,-./:=?*&", ch);
}

int der_read_string(struct der_cursor *c, u8 *tag, struct der_span *s)
{
	struct der_cursor save = *c;
	size_t i;
	int err;

	err = der_read_any(c, tag, s, NULL);
	if (err)
		return err;
	switch (*tag) {
	case DER_PRINTABLE_STRING:
		for (i = 0; i < s->len; i++)
			if (!printable(s->p[i]))
				goto bad;
		return 0;
	case DER_IA5_STRING:
		for (i = 0; i < s->len; i++)
			if (s->p[i] & 0x80)
				goto bad;
		return 0;
	case DER_BMP_STRING:
		if (s->len % 2)
			goto bad;
		return 0;
	case DER_UNIVERSAL_STRING:
		if (s->len % 4)
			goto bad;
		return 0;
	case DER_UTF8_STRING:
	case DER_T61_STRING:
		return 0;
	}
bad:
	*c = save;
	return -EBADMSG;
}
