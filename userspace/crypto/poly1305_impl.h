/* SPDX-License-Identifier: GPL-2.0 */
/*
 * poly1305_impl.h - what the Poly1305 engines share.  Private to
 * poly1305_*.c: users include poly1305.h.
 *
 * poly1305_generic.c owns the API: it buffers partial blocks, runs the
 * scalar engine and hands runs of whole blocks that are long enough to a
 * vector engine.  A vector engine takes the accumulator in the scalar form
 * (radix 2^64) from the state, absorbs as many whole blocks as its width
 * allows, and puts the accumulator back in the scalar form, so every call
 * leaves the state usable by any engine.
 */
#ifndef TLSX_CRYPTO_POLY1305_IMPL_H
#define TLSX_CRYPTO_POLY1305_IMPL_H

#include "poly1305.h"

enum poly1305_engine {
	POLY1305_ENGINE_SCALAR = 0,
	POLY1305_ENGINE_AVX2,		/* poly1305_avx2.c */
	POLY1305_ENGINE_IFMA,		/* poly1305_avx512.c */
};

/*
 * Fewest whole blocks for which a vector engine beats the scalar code,
 * counting its one-time cost of computing powers of r (measured on AMD
 * Zen 4, see the commit messages).
 */
#define POLY1305_AVX2_MIN_BLOCKS	16
#define POLY1305_IFMA_MIN_BLOCKS	16

/*
 * tlsx_poly1305_blocks_scalar() - absorb @nblocks whole blocks at @p into
 * the accumulator @h (radix 2^64) with key @r; @hibit is 1 for full blocks
 * (the 2^128 pad bit) and 0 for the padded last partial block.
 */
void tlsx_poly1305_blocks_scalar(u64 h[3], const u64 r[2], const u8 *p,
				 size_t nblocks, u64 hibit);

/*
 * The vector engines: absorb the largest number of whole blocks at @p, at
 * most @nblocks, that their width allows, and return that number.  SIMD
 * code: call only inside a SIMD section.
 */
size_t tlsx_poly1305_blocks_avx2(struct tlsx_poly1305_state *st,
				 const u8 *p, size_t nblocks);
size_t tlsx_poly1305_blocks_ifma(struct tlsx_poly1305_state *st,
				 const u8 *p, size_t nblocks);

#define POLY1305_M26	0x3ffffffU

/*
 * poly1305_to26() - the 130-bit value @h (radix 2^64, h[2] < 8) in five
 * 26-bit limbs (the last one takes every bit from 104 up).
 */
static inline void poly1305_to26(u32 l[5], const u64 h[3])
{
	l[0] = (u32)h[0] & POLY1305_M26;
	l[1] = (u32)(h[0] >> 26) & POLY1305_M26;
	l[2] = (u32)((h[0] >> 52) | (h[1] << 12)) & POLY1305_M26;
	l[3] = (u32)(h[1] >> 14) & POLY1305_M26;
	l[4] = (u32)((h[1] >> 40) | (h[2] << 24));
}

/*
 * poly1305_mul26() - @a = @a * @b mod 2^130 - 5, fully reduced, for
 * computing powers of r (so speed does not matter: a handful per
 * message).  Both in 26-bit limbs, each below 2^26.  Constant time.
 */
static inline void poly1305_mul26(u32 a[5], const u32 b[5])
{
	u64 s1 = b[1] * 5ULL, s2 = b[2] * 5ULL, s3 = b[3] * 5ULL;
	u64 s4 = b[4] * 5ULL;
	u64 d[5], g[5], c, mask;
	int i;

	/* Schoolbook, with 2^130 = 5 folding the upper half in. */
	d[0] = (u64)a[0] * b[0] + a[1] * s4 + a[2] * s3 + a[3] * s2 +
	       a[4] * s1;
	d[1] = (u64)a[0] * b[1] + (u64)a[1] * b[0] + a[2] * s4 + a[3] * s3 +
	       a[4] * s2;
	d[2] = (u64)a[0] * b[2] + (u64)a[1] * b[1] + (u64)a[2] * b[0] +
	       a[3] * s4 + a[4] * s3;
	d[3] = (u64)a[0] * b[3] + (u64)a[1] * b[2] + (u64)a[2] * b[1] +
	       (u64)a[3] * b[0] + a[4] * s4;
	d[4] = (u64)a[0] * b[4] + (u64)a[1] * b[3] + (u64)a[2] * b[2] +
	       (u64)a[3] * b[1] + (u64)a[4] * b[0];

	/*
	 * Two carry rounds around the ring and one along it leave limbs 0-3
	 * below 2^26 and the value below 2^130 + 5 * 2^26 < 2p.
	 */
	for (i = 0; i < 2; i++) {
		c = d[0] >> 26;
		d[0] &= POLY1305_M26;
		d[1] += c;
		c = d[1] >> 26;
		d[1] &= POLY1305_M26;
		d[2] += c;
		c = d[2] >> 26;
		d[2] &= POLY1305_M26;
		d[3] += c;
		c = d[3] >> 26;
		d[3] &= POLY1305_M26;
		d[4] += c;
		c = d[4] >> 26;
		d[4] &= POLY1305_M26;
		d[0] += c * 5;
	}
	for (i = 0; i < 4; i++) {
		c = d[i] >> 26;
		d[i] &= POLY1305_M26;
		d[i + 1] += c;
	}

	/* g = d + 5 - 2^130; keep it when it did not go negative. */
	c = 5;
	for (i = 0; i < 5; i++) {
		g[i] = d[i] + c;
		c = g[i] >> 26;
		g[i] &= POLY1305_M26;
	}
	mask = 0 - c;		/* all ones when d + 5 >= 2^130 */
	for (i = 0; i < 5; i++)
		a[i] = (u32)((d[i] & ~mask) | (g[i] & mask));
}

#endif /* TLSX_CRYPTO_POLY1305_IMPL_H */
