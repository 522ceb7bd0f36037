/* SPDX-License-Identifier: GPL-2.0 */
/*
 * codec.h - bounded reading and writing of TLS's wire format (RFC 8446
 * section 3): big-endian integers and vectors behind a 1-, 2- or 3-byte
 * length.
 *
 * Reading: a struct tlsx_rd is a window [p, end) on the caller's bytes;
 * nothing is copied unless asked.  tlsx_rd_open() takes a length-prefixed
 * block off a reader and gives a reader over its contents only, so a
 * vector can never run past its parent; tlsx_rd_done() fails unless a
 * reader was consumed exactly.  Every read returns 0 or
 * TLSX_ALERT_DECODE_ERROR (RFC 8446 section 6.2: "some field was out of
 * the specified range or the length of the message was incorrect") and
 * leaves the reader where it was on failure.
 *
 *	struct tlsx_rd ch, suites;
 *
 *	if (tlsx_rd_open(&ch, 2, 2, 65534, &suites))	// <2..2^16-2>
 *		return TLSX_ALERT_DECODE_ERROR;
 *	while (tlsx_rd_left(&suites))
 *		if (tlsx_rd_u16(&suites, &suite)) ...	// odd length: fails
 *	ret = tlsx_rd_done(&suites);
 *
 * Writing: a struct tlsx_wr appends to a buffer the caller owns.
 * tlsx_wr_open() reserves a block's length prefix and tlsx_wr_close()
 * writes it once the contents are known, refusing a length its prefix
 * cannot hold; blocks nest up to TLSX_WR_DEPTH.  Sizes are checked
 * without arithmetic that can wrap.  The first error is sticky: every
 * later call does nothing and returns it, and tlsx_wr_finish() reports it,
 * so a message is written linearly and checked once.  Errors: -ENOSPC
 * (the buffer is full), -EMSGSIZE (a block too long for its prefix),
 * -EINVAL (a prefix other than 1..3 bytes, blocks nested too deep, a
 * close without an open, finish with a block open).
 */
#ifndef TLSX_HS_CODEC_H
#define TLSX_HS_CODEC_H

#include "aead/platform.h"
#include "handshake/engine/alert.h"

struct tlsx_rd {
	const u8 *p;
	const u8 *end;
};

static inline void tlsx_rd_init(struct tlsx_rd *r, const void *data,
				size_t len)
{
	r->p = data;
	r->end = r->p + len;
}

static inline size_t tlsx_rd_left(const struct tlsx_rd *r)
{
	return (size_t)(r->end - r->p);
}

/* 0 when @r has been read to its end, else TLSX_ALERT_DECODE_ERROR. */
static inline int tlsx_rd_done(const struct tlsx_rd *r)
{
	return r->p == r->end ? 0 : TLSX_ALERT_DECODE_ERROR;
}

int tlsx_rd_u8(struct tlsx_rd *r, u8 *v);
int tlsx_rd_u16(struct tlsx_rd *r, u16 *v);
int tlsx_rd_u24(struct tlsx_rd *r, u32 *v);
int tlsx_rd_u32(struct tlsx_rd *r, u32 *v);

/* Points *@p at the next @n bytes (not copied) and skips them. */
int tlsx_rd_bytes(struct tlsx_rd *r, size_t n, const u8 **p);

/* Copies the next @n bytes into @dst. */
int tlsx_rd_copy(struct tlsx_rd *r, void *dst, size_t n);

/*
 * Reads a @prefix-byte (1, 2 or 3) big-endian length L, checks
 * @min <= L <= @max and that L bytes follow, makes @blk a reader over
 * them and moves @r past them.  The caller ends with tlsx_rd_done(@blk).
 * A @prefix other than 1..3 is TLSX_ALERT_INTERNAL_ERROR (a bug here, not
 * in the peer).
 */
int tlsx_rd_open(struct tlsx_rd *r, unsigned int prefix, size_t min,
		 size_t max, struct tlsx_rd *blk);

/*
 * opaque v<min..max> behind a @prefix-byte length, in one call: *@p and
 * *@len describe its contents.
 */
int tlsx_rd_vec(struct tlsx_rd *r, unsigned int prefix, size_t min,
		size_t max, const u8 **p, size_t *len);

#define TLSX_WR_DEPTH	8

struct tlsx_wr {
	u8 *buf;
	size_t cap;
	size_t len;
	int err;			/* the first error, sticky */
	unsigned int depth;		/* blocks open */
	size_t start[TLSX_WR_DEPTH];	/* offset of each open prefix */
	u8 prefix[TLSX_WR_DEPTH];	/* its size in bytes */
};

/* Writes into @buf[0..@cap); nothing is written before the first push. */
void tlsx_wr_init(struct tlsx_wr *w, void *buf, size_t cap);

int tlsx_wr_u8(struct tlsx_wr *w, u8 v);
int tlsx_wr_u16(struct tlsx_wr *w, u16 v);
int tlsx_wr_u24(struct tlsx_wr *w, u32 v);	/* -EINVAL if v >= 2^24 */
int tlsx_wr_u32(struct tlsx_wr *w, u32 v);
int tlsx_wr_bytes(struct tlsx_wr *w, const void *p, size_t n);

/*
 * Reserves @n bytes and points *@p at them, for output written in place
 * (a signature, a MAC); *@p is NULL on failure.
 */
int tlsx_wr_reserve(struct tlsx_wr *w, size_t n, u8 **p);

/* Opens a block behind a @prefix-byte (1..3) length. */
int tlsx_wr_open(struct tlsx_wr *w, unsigned int prefix);

/* Writes the innermost open block's length into its prefix. */
int tlsx_wr_close(struct tlsx_wr *w);

/* opaque v<..> behind a @prefix-byte length, in one call. */
int tlsx_wr_vec(struct tlsx_wr *w, unsigned int prefix, const void *p,
		size_t n);

/*
 * The sticky error, or -EINVAL when a block is still open; on success
 * *@len (if not NULL) is the number of bytes written.
 */
int tlsx_wr_finish(struct tlsx_wr *w, size_t *len);

#endif /* TLSX_HS_CODEC_H */
