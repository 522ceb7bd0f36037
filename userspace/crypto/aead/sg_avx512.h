/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sg_avx512.h - segment lists inside the AVX-512 engines' update_sg()
 * (aead_impl.h): 64-byte vectors loaded from and stored to a cursor
 * (sg_cursor.h).
 *
 * A vector that spans two segments is two byte-masked accesses: a
 * masked-off byte is neither read nor written, nor can it fault, so the
 * second access may start before its segment's first byte.  That takes
 * every segment strictly inside the text to hold a vector or nothing
 * (update_sg()'s rule, which the dispatcher checks), so a vector never
 * spans three.  The accesses are inline, with no call: around a call the
 * compiler would save the engine's vector state (keystream, GHASH sums)
 * on the stack.  Segment lengths are public, as the other lengths are.
 *
 * Private to gcm_vaes_template.h (512-bit) and chacha_avx512.c, whose
 * functions carry at least these targets; they include <immintrin.h>
 * first (the kernel build needs a define before it).
 */
#ifndef TLSX_CRYPTO_SG_AVX512_H
#define TLSX_CRYPTO_SG_AVX512_H

#include "aead/sg_cursor.h"

#define TLSX_SG_TARGET __attribute__((target("avx512f,avx512bw")))

_Static_assert(TLSX_AEAD_UPDATE_ALIGN == 64,
	       "update_sg()'s inner segments hold a 64-byte vector");

/* Bytes @lo to @lo + @n - 1 of a vector (1 <= @n, @lo + @n <= 64). */
static __always_inline __mmask64 tlsx_sg_range(size_t lo, size_t n)
{
	return (~(__mmask64)0 >> (64 - n)) << lo;
}

/*
 * The next @m bytes (1 to 64) at @c into a vector (bytes @m.. zero),
 * from the rest of a segment and the start of the next; @c moves past.
 */
static __always_inline TLSX_SG_TARGET __m512i
tlsx_sg_load64(struct tlsx_sg_cur *c, size_t m)
{
	size_t a;
	__m512i v;

	if (!c->left)
		tlsx_sg_cur_next(c);
	a = c->left < m ? c->left : m;
	v = _mm512_maskz_loadu_epi8(tlsx_sg_range(0, a), c->ptr);
	c->ptr += a;
	c->left -= a;
	if (a < m) {
		tlsx_sg_cur_next(c);
		v = _mm512_mask_loadu_epi8(v, tlsx_sg_range(a, m - a),
				(const void *)((uintptr_t)c->ptr - a));
		c->ptr += m - a;
		c->left -= m - a;
	}
	return v;
}

/* Bytes 0..@m-1 (1 to 64) of @v to the next @m bytes at @c, the same way. */
static __always_inline TLSX_SG_TARGET void
tlsx_sg_store64(struct tlsx_sg_cur *c, size_t m, __m512i v)
{
	size_t a;

	if (!c->left)
		tlsx_sg_cur_next(c);
	a = c->left < m ? c->left : m;
	_mm512_mask_storeu_epi8(c->ptr, tlsx_sg_range(0, a), v);
	c->ptr += a;
	c->left -= a;
	if (a < m) {
		tlsx_sg_cur_next(c);
		_mm512_mask_storeu_epi8((void *)((uintptr_t)c->ptr - a),
					tlsx_sg_range(a, m - a), v);
		c->ptr += m - a;
		c->left -= m - a;
	}
}

#endif /* TLSX_CRYPTO_SG_AVX512_H */
