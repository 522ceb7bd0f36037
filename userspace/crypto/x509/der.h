/* SPDX-License-Identifier: GPL-2.0 */
/*
 * der.h - a strict reader of DER (ITU-T X.690 Distinguished Encoding
 * Rules), the encoding of certificates and keys.
 *
 * A cursor walks a byte range; every read checks the bytes it needs
 * against what remains, so no input can make a read leave the range.
 * Only what X.509 and the key formats use is accepted: one-byte tags,
 * definite lengths in their shortest form (at most four length bytes),
 * constructed elements nested at most DER_MAX_DEPTH deep.  Nothing is
 * allocated: values come back as spans into the input.
 *
 * Every function returns 0 or -EBADMSG for input that is not strict DER
 * (or not the expected element); the optional forms return 1 when the
 * element is present, 0 when it is absent.
 */
#ifndef TLSX_DER_H
#define TLSX_DER_H

#include "aead/platform.h"

/* Universal tags (class bits 00), and the constructed bit. */
#define DER_BOOLEAN		0x01
#define DER_INTEGER		0x02
#define DER_BIT_STRING		0x03
#define DER_OCTET_STRING	0x04
#define DER_NULL		0x05
#define DER_OID			0x06
#define DER_UTF8_STRING		0x0c
#define DER_PRINTABLE_STRING	0x13
#define DER_T61_STRING		0x14
#define DER_IA5_STRING		0x16
#define DER_UTC_TIME		0x17
#define DER_GENERALIZED_TIME	0x18
#define DER_UNIVERSAL_STRING	0x1c
#define DER_BMP_STRING		0x1e
#define DER_CONSTRUCTED		0x20
#define DER_SEQUENCE		0x30
#define DER_SET			0x31
/* [n] context-specific, constructed (EXPLICIT or constructed IMPLICIT). */
#define DER_CONTEXT(n)		(0xa0 | (n))
/* [n] context-specific, primitive (IMPLICIT over a primitive type). */
#define DER_CONTEXT_PRIM(n)	(0x80 | (n))

/* Deeper than any certificate or key needs; bounds hostile nesting. */
#define DER_MAX_DEPTH		16

struct der_cursor {
	const u8 *p;		/* next unread byte */
	size_t len;		/* bytes left */
	unsigned int depth;	/* constructed elements entered to get here */
};

/* A span of the input: an element's contents or its whole encoding. */
struct der_span {
	const u8 *p;
	size_t len;
};

static inline void der_init(struct der_cursor *c, const u8 *p, size_t len)
{
	c->p = p;
	c->len = len;
	c->depth = 0;
}

static inline bool der_empty(const struct der_cursor *c)
{
	return c->len == 0;
}

/* 0 and the next tag, or -EBADMSG at the end of the input. */
int der_peek_tag(const struct der_cursor *c, u8 *tag);

/*
 * Reads one element of any tag: its tag, its contents (@val) and, when
 * @whole is not NULL, its whole encoding (tag and length included).
 */
int der_read_any(struct der_cursor *c, u8 *tag, struct der_span *val,
		 struct der_span *whole);
/* Reads one element that must have tag @tag. */
int der_read(struct der_cursor *c, u8 tag, struct der_span *val);
/* Reads it when the next tag is @tag: 1; when not (or at the end): 0. */
int der_read_optional(struct der_cursor *c, u8 tag, struct der_span *val);

/*
 * Enters a constructed element with tag @tag: @inner walks its contents,
 * one level deeper (-EBADMSG past DER_MAX_DEPTH), and @c moves past it.
 */
int der_enter(struct der_cursor *c, u8 tag, struct der_cursor *inner);
int der_enter_optional(struct der_cursor *c, u8 tag,
		       struct der_cursor *inner);

/* -EBADMSG unless the cursor is at the end (no trailing bytes). */
int der_finish(const struct der_cursor *c);

/*
 * INTEGER in minimal two's complement.  _unsigned requires a value >= 0
 * (> 0 when @nonzero) and returns its magnitude without the sign byte;
 * _u64 one that fits in 0..2^63-1.
 */
int der_read_unsigned(struct der_cursor *c, struct der_span *mag,
		      bool nonzero);
int der_read_u64(struct der_cursor *c, u64 *v);

/* BOOLEAN: DER allows only 0x00 and 0xff. */
int der_read_bool(struct der_cursor *c, bool *v);
/* NULL with empty contents. */
int der_read_null(struct der_cursor *c);

/*
 * BIT STRING: the contents after the unused-bits byte, and that count
 * (0..7, 0 for an empty string; the unused bits themselves must be 0).
 * _bytes requires a whole number of bytes (keys, signatures).
 */
int der_read_bit_string(struct der_cursor *c, struct der_span *bits,
			unsigned int *unused);
int der_read_bit_string_bytes(struct der_cursor *c, struct der_span *bytes);

/* OBJECT IDENTIFIER: the encoded contents, checked well-formed. */
int der_read_oid(struct der_cursor *c, struct der_span *oid);
int der_check_oid(const struct der_span *oid);
/* Whether @oid (contents) equals the encoded @ref of @ref_len bytes. */
bool der_oid_equal(const struct der_span *oid, const u8 *ref, size_t ref_len);

/*
 * UTCTime or GeneralizedTime in the RFC 5280 profile: seconds present,
 * 'Z' only, no fraction; UTCTime's years 50..99 are 19xx.  @t gets
 * seconds since 1970-01-01T00:00:00Z (negative before that).
 * GeneralizedTime years run 0001..9999.
 */
int der_read_time(struct der_cursor *c, s64 *t);
int der_parse_time(u8 tag, const struct der_span *val, s64 *t);

/*
 * A directory string or IA5String: the tag and raw contents (UTF8,
 * Printable, IA5, T61, BMP or Universal).  Printable and IA5 contents are
 * checked to be in their character sets.
 */
int der_read_string(struct der_cursor *c, u8 *tag, struct der_span *s);

#endif /* TLSX_DER_H */
