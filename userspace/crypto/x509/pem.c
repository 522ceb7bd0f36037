// SPDX-License-Identifier: GPL-2.0
/*
 * pem.c - PEM armour and strict base64.
 *
 * The body of a private key's PEM block is secret.  The decoder never
 * indexes a table by a character: each character's 6-bit value is
 * computed with range masks (below), and an invalid character only sets
 * bits in an error word checked once at the end.  The branches that
 * remain test a character's class - whitespace, '=', '-' or other,
 * itself computed with masks: for every base64 digit of a key their
 * outcome is the same ("other"), so they reveal the layout (line
 * breaks, the padding at the end), never the key.  ct_pkey.c checks this
 * under valgrind.
 */
#include "x509/pem.h"

/*
 * Whether a character is whitespace, '=', '-' or a digit is the layout
 * of the text, not its value: the constant-time check (ct_pkey.c) marks
 * that class public through this seam and checks that nothing else
 * about a character steers a branch or an address.
 */
#ifndef tlsx_pem_declassify
#define tlsx_pem_declassify(p, n) ((void)(p), (void)(n))
#endif

#define BEGIN	"-----BEGIN "
#define END	"-----END "
#define DASHES	"-----"

/* All ones when lo <= c <= hi, else 0; c, lo, hi in 0..255. */
static u32 range_mask(u32 c, u32 lo, u32 hi)
{
	/* Either difference wraps to a value with bit 31 set when outside. */
	u32 out = ((c - lo) | (hi - c)) >> 31;

	return out - 1;
}

/*
 * The value 0..63 of a base64 digit, or a value with bits above 5 set
 * for any other byte: A-Z 0..25, a-z 26..51, 0-9 52..61, '+' 62, '/' 63.
 */
static u32 b64_value(u8 ch)
{
	u32 c = ch, v = 0, ok = 0, m;

	m = range_mask(c, 'A', 'Z');
	v |= m & (c - 'A');
	ok |= m;
	m = range_mask(c, 'a', 'z');
	v |= m & (c - 'a' + 26);
	ok |= m;
	m = range_mask(c, '0', '9');
	v |= m & (c - '0' + 52);
	ok |= m;
	m = range_mask(c, '+', '+');
	v |= m & 62;
	ok |= m;
	m = range_mask(c, '/', '/');
	v |= m & 63;
	ok |= m;
	return v | (~ok & 0x100);
}

#define CLASS_SPACE	1
#define CLASS_PAD	2
#define CLASS_DASH	4
#define CLASS_NEWLINE	8

/* The layout class of a character, computed without branches. */
static u32 char_class(char ch)
{
	u32 c = (u8)ch, cls;

	cls = (range_mask(c, ' ', ' ') | range_mask(c, '\t', '\t') |
	       range_mask(c, '\r', '\r') | range_mask(c, '\n', '\n')) &
	      CLASS_SPACE;
	cls |= range_mask(c, '=', '=') & CLASS_PAD;
	cls |= range_mask(c, '-', '-') & CLASS_DASH;
	cls |= range_mask(c, '\n', '\n') & CLASS_NEWLINE;
	tlsx_pem_declassify(&cls, sizeof(cls));
	return cls;
}

static bool is_space(char ch)
{
	return char_class(ch) & CLASS_SPACE;
}

int pem_base64_decode(u8 *out, size_t out_max, size_t *out_len,
		      const char *in, size_t in_len)
{
	u32 acc = 0, bad = 0, v;
	size_t i, n = 0, digits = 0, pad = 0;

	for (i = 0; i < in_len; i++) {
		char ch = in[i];
		u32 cls = char_class(ch);

		if (cls & CLASS_SPACE)
			continue;
		if (cls & CLASS_PAD) {
			pad++;
			continue;
		}
		/* A digit after padding, or a third '=', is malformed. */
		if (pad)
			goto bad;
		v = b64_value((u8)ch);
		bad |= v >> 6;		/* an invalid digit */
		acc = ((acc << 6) | (v & 63)) & 0xffffff;
		if (++digits % 4 == 0) {
			if (out_max - n < 3)
				goto nospace;
			out[n] = (u8)(acc >> 16);
			out[n + 1] = (u8)(acc >> 8);
			out[n + 2] = (u8)acc;
			n += 3;
			acc = 0;
		}
	}
	/*
	 * The last group: 2 digits + "==" carry 12 bits for 1 byte, 3
	 * digits + "=" 18 bits for 2; the bits beyond the bytes are zero in
	 * the canonical encoding.
	 */
	switch (digits % 4) {
	case 0:
		if (pad)
			goto bad;
		break;
	case 2:
		if (pad != 2)
			goto bad;
		if (out_max - n < 1)
			goto nospace;
		bad |= acc & 0xf;
		out[n++] = (u8)(acc >> 4);
		break;
	case 3:
		if (pad != 1)
			goto bad;
		if (out_max - n < 2)
			goto nospace;
		bad |= acc & 0x3;
		out[n] = (u8)(acc >> 10);
		out[n + 1] = (u8)(acc >> 2);
		n += 2;
		break;
	default:
		goto bad;
	}
	acc = 0;
	/* Whether the text was valid base64 is public. */
	tlsx_pem_declassify(&bad, sizeof(bad));
	if (bad)
		goto bad;
	*out_len = n;
	return 0;
bad:
	memzero_explicit(out, n);
	return -EBADMSG;
nospace:
	memzero_explicit(out, n);
	return -ENOSPC;
}

/* Whether [p, end) starts with the NUL-terminated @s. */
static bool starts(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	return (size_t)(end - p) >= n && !memcmp(p, s, n);
}

/* Past the rest of a line that must hold only whitespace, or NULL. */
static const char *line_end(const char *p, const char *end)
{
	while (p < end && *p != '\n') {
		if (!is_space(*p))
			return NULL;
		p++;
	}
	return p < end ? p + 1 : p;
}

/* A BEGIN at the start of a line, from @p on; NULL when none. */
static const char *find_begin(const char *p, const char *end)
{
	const char *start = p;

	for (; p < end; p++) {
		if (*p != '-' || (p != start && p[-1] != '\n'))
			continue;
		if (starts(p, end, BEGIN))
			return p;
	}
	return NULL;
}

int pem_next(const char **pos, const char *end, struct pem_block *b,
	     u8 *out, size_t out_max)
{
	const char *p, *label, *body, *q;
	size_t label_len, i;
	int err;

	p = find_begin(*pos, end);
	if (!p) {
		*pos = end;
		return 0;
	}
	*pos = p + 1;	/* a malformed block is skipped by the next call */
	label = p + strlen(BEGIN);
	for (q = label; q < end && *q != '\n'; q++)
		if (starts(q, end, DASHES))
			break;
	if (!starts(q, end, DASHES))
		return -EBADMSG;
	label_len = (size_t)(q - label);
	if (label_len > PEM_LABEL_MAX)
		return -EBADMSG;
	for (i = 0; i < label_len; i++)
		if (label[i] < 0x20 || label[i] > 0x7e)
			return -EBADMSG;
	body = line_end(q + strlen(DASHES), end);
	if (!body)
		return -EBADMSG;
	/*
	 * RFC 1421 headers mean encryption.  This compares the first bytes
	 * of the body, which for a key encode its DER header (SEQUENCE and
	 * length): structure, not secret.
	 */
	if (starts(body, end, "Proc-Type:"))
		return -EOPNOTSUPP;
	/*
	 * The END line: the first '-' of the body.  No base64 digit is a
	 * '-', so this test gives the same answer on every digit.
	 */
	for (q = body; q < end && !(char_class(*q) & CLASS_DASH); q++)
		;
	if (!starts(q, end, END) ||
	    (q != body && !(char_class(q[-1]) & CLASS_NEWLINE)))
		return -EBADMSG;
	p = q + strlen(END);
	if ((size_t)(end - p) < label_len + strlen(DASHES) ||
	    memcmp(p, label, label_len) ||
	    memcmp(p + label_len, DASHES, strlen(DASHES)))
		return -EBADMSG;
	p = line_end(p + label_len + strlen(DASHES), end);
	if (!p)
		return -EBADMSG;
	err = pem_base64_decode(out, out_max, &b->der_len, body,
				(size_t)(q - body));
	if (err)
		return err;
	memcpy(b->label, label, label_len);
	b->label[label_len] = '\0';
	*pos = p;
	return 1;
}

int pem_find(const char *pem, size_t len, const char *label,
	     u8 *out, size_t out_max, size_t *der_len)
{
	const char *pos = pem, *end = pem + len;
	struct pem_block b;
	int ret;

	while ((ret = pem_next(&pos, end, &b, out, out_max)) != 0) {
		if (ret < 0)
			return ret;
		if (!strcmp(b.label, label)) {
			*der_len = b.der_len;
			return 0;
		}
		memzero_explicit(out, b.der_len);
	}
	return -ENOENT;
}
