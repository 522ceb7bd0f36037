/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg_cursor.h - a position in a segment list held in locals while an
 * engine's update_sg() runs (aead_impl.h), and the moves on it: plain C,
 * inline, so that an engine's vector state stays in registers around
 * them.  Segment lengths are public, as the other lengths are.  The
 * AVX-512 engines load and store vectors through it (sg_avx512.h); the
 * 256-bit and 128-bit AES-GCM engines copy a batch across a boundary
 * through it (gcm_vaes_template.h in 32-byte vectors, tlsx_sg_cur_copy()
 * for gcm_aesni_template.h).
 */
#ifndef TLSX_CRYPTO_SG_CURSOR_H
#define TLSX_CRYPTO_SG_CURSOR_H

#include "aead/aead_impl.h"

/* A position in a segment list, held in locals while an update runs. */
struct tlsx_sg_cur {
	const struct tlsx_aead_seg *seg;
	u8 *ptr;		/* the next byte */
	size_t left;		/* bytes left in *seg from ptr */
};

/* Take @p's position (which has bytes left) into @c. */
static inline void tlsx_sg_cur_get(struct tlsx_sg_cur *c,
				   struct tlsx_sg_pos *p)
{
	tlsx_sg_avail(p);
	c->seg = p->seg;
	c->ptr = tlsx_sg_ptr(p);
	c->left = p->seg->len - p->off;
}

/* Give @c's position back to @p. */
static inline void tlsx_sg_cur_put(const struct tlsx_sg_cur *c,
				   struct tlsx_sg_pos *p)
{
	p->nseg -= (unsigned int)(c->seg - p->seg);
	p->seg = c->seg;
	p->off = (size_t)(c->ptr - c->seg->data);
}

/* The next segment with bytes in it (the caller knows there is one). */
static __always_inline void tlsx_sg_cur_next(struct tlsx_sg_cur *c)
{
	do
		c->seg++;
	while (!c->seg->len);
	c->ptr = c->seg->data;
	c->left = c->seg->len;
}

/* Whether the next @n bytes at @c (there are so many) lie in one segment. */
static __always_inline bool tlsx_sg_cur_has(struct tlsx_sg_cur *c, size_t n)
{
	if (unlikely(!c->left))
		tlsx_sg_cur_next(c);
	return c->left >= n;
}

/* @n bytes at @c, of one segment, are done: past them. */
static __always_inline void tlsx_sg_cur_skip(struct tlsx_sg_cur *c, size_t n)
{
	c->ptr += n;
	c->left -= n;
}

/* Where @n bytes at @c lie, if in one segment (then past them), or NULL. */
static __always_inline u8 *tlsx_sg_cur_take(struct tlsx_sg_cur *c, size_t n)
{
	u8 *p;

	if (unlikely(!tlsx_sg_cur_has(c, n)))
		return NULL;
	p = c->ptr;
	tlsx_sg_cur_skip(c, n);
	return p;
}

/*
 * Copy @n bytes between @c and @buf (@in: into @buf), and past them: each
 * segment's part in 16-byte pieces, then 8-byte words, then bytes,
 * inline.  A call to memcpy() would make the caller's batch loop save its
 * vectors around it; and the kernel's memcpy() is a rep movsb on CPUs
 * with ERMS (6.1) or FSRM (6.12), which TCG's instruction count weighs
 * byte by byte.
 */
static __always_inline void tlsx_sg_cur_copy(struct tlsx_sg_cur *c, u8 *buf,
					     size_t n, const bool in)
{
	const u8 *from;
	u8 *to;
	size_t m, i;

#pragma GCC unroll 1
	while (n) {
		if (!c->left)
			tlsx_sg_cur_next(c);
		m = c->left < n ? c->left : n;
		from = in ? c->ptr : buf;
		to = in ? buf : c->ptr;
#pragma GCC unroll 1
		for (i = 0; i + 16 <= m; i += 16)
			__builtin_memcpy(to + i, from + i, 16);
#pragma GCC unroll 1
		for (; i + 8 <= m; i += 8)
			__builtin_memcpy(to + i, from + i, 8);
#pragma GCC unroll 1
		for (; i < m; i++)
			to[i] = from[i];
		tlsx_sg_cur_skip(c, m);
		buf += m;
		n -= m;
	}
}

#endif /* TLSX_CRYPTO_SG_CURSOR_H */
