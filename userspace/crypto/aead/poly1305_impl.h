/* SPDX-License-Identifier: GPL-2.0 */
/*
 * poly1305_impl.h - what the Poly1305 engines share.  Private to
 * poly1305_*.c and the one-call records of chachapoly_avx512.c: users
 * include poly1305.h.
 *
 * poly1305_generic.c owns the API: it buffers partial blocks, runs the
 * scalar engine and hands runs of whole blocks that are long enough to a
 * vector engine.
 *
 * A vector engine evaluates the MAC polynomial as several interleaved
 * streams, one per lane, which must finally be multiplied by different
 * powers of r and added.  Doing that at the end of every call would cost
 * a multiplication and a horizontal sum per piece of the message, so the
 * engine keeps its lanes in the state between calls instead (and sets
 * st->simd_lanes): the first call takes the scalar accumulator @h into
 * lane 0, later calls go on from the stored lanes, and the lanes are
 * combined back into @h only for the tag: tlsx_poly1305_*_fold().  Blocks
 * short of a whole group wait in the state's buffer for the next call
 * (poly1305_generic.c), so a message fed in pieces folds once too.
 */
#ifndef TLSX_CRYPTO_POLY1305_IMPL_H
#define TLSX_CRYPTO_POLY1305_IMPL_H

#include "aead/poly1305.h"

enum poly1305_engine {
	POLY1305_ENGINE_SCALAR = 0,
	POLY1305_ENGINE_AVX2,		/* poly1305_avx2.c */
	POLY1305_ENGINE_IFMA,		/* poly1305_avx512.c */
};

/*
 * Fewest whole blocks for which a vector engine beats the scalar code,
 * counting its one-time cost of computing powers of r (measured on AMD
 * Zen 5 with AEAD-shaped input: IFMA wins from 256 bytes, AVX2 from
 * 512-640).
 */
#define POLY1305_AVX2_MIN_BLOCKS	40
#define POLY1305_IFMA_MIN_BLOCKS	16
/* The same once a message has the powers (a later piece of the text). */
#define POLY1305_SIMD_MIN_BLOCKS_READY	8

/*
 * tlsx_poly1305_blocks_scalar() - absorb @nblocks whole blocks at @p into
 * the accumulator @h (radix 2^64) with key @r; @hibit is 1 for full blocks
 * (the 2^128 pad bit) and 0 for the padded last partial block.
 */
void tlsx_poly1305_blocks_scalar(u64 h[3], const u64 r[2], const u8 *p,
				 size_t nblocks, u64 hibit);

/*
 * The vector engines: *_blocks() absorbs the largest number of whole
 * blocks at @p, at most @nblocks, that the engine's width allows (4 for
 * AVX2, 8 for IFMA) and returns that number; *_fold() combines the lanes
 * back into st->h and clears st->simd_lanes.  SIMD code: call only inside
 * a SIMD section.
 */
#define POLY1305_AVX2_WIDTH	4
#define POLY1305_IFMA_WIDTH	8
size_t tlsx_poly1305_blocks_avx2(struct tlsx_poly1305_state *st,
				 const u8 *p, size_t nblocks);
void tlsx_poly1305_fold_avx2(struct tlsx_poly1305_state *st);
/*
 * tlsx_poly1305_wipe_avx2() - zero st->simd with vector stores (the
 * kernel's memset is `rep stosb`, see poly1305_avx2.c).  SIMD code.
 */
void tlsx_poly1305_wipe_avx2(struct tlsx_poly1305_state *st);
size_t tlsx_poly1305_blocks_ifma(struct tlsx_poly1305_state *st,
				 const u8 *p, size_t nblocks);
void tlsx_poly1305_fold_ifma(struct tlsx_poly1305_state *st);

/*
 * tlsx_poly1305_ifma_run() - for a message hashed in one call (the short
 * records of chachapoly_avx512.c): absorb @ngroups (at least one) groups
 * of eight whole blocks at @p into the accumulator @h (radix 2^64, as the
 * scalar code leaves it) with the clamped key @r, and leave h in that
 * form again.  The powers of r go to @scratch (POLY1305_IFMA_SCRATCH
 * bytes, any alignment), which the caller wipes.  SIMD code.
 */
#define POLY1305_IFMA_SCRATCH	768
void tlsx_poly1305_ifma_run(u64 h[3], const u64 r[2], const u8 *p,
			    size_t ngroups, u8 *scratch);

/*
 * poly1305_simd_area() - where a vector engine keeps its powers and lanes:
 * st->simd rounded up to 64 bytes, so that whole-vector loads and stores
 * never straddle cache lines (and the lanes stored at the end of one call
 * forward to the loads of the next) wherever the caller put the state.
 */
#define POLY1305_SIMD_ALIGN_SLACK	48	/* st->simd is 16-byte aligned */

static inline void *poly1305_simd_area(struct tlsx_poly1305_state *st)
{
	return (void *)(((unsigned long)st->simd + 63) & ~63UL);
}

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
 * poly1305_mul_r() - h = h * r mod 2^130 - 5, partially reduced, in radix
 * 2^64: the scalar engine's step, also used to compute powers of r.
 *
 * Clamping leaves r0, r1 < 2^60 and clears the low two bits of r1, so
 * with 2^130 = 5 (mod p), h1 * r1 * 2^128 = h1 * (r1 / 4) * 2^130 =
 * h1 * s1 with s1 = r1 + (r1 >> 2) = 5 * r1 / 4 exactly.  On entry h2 may
 * be up to 7 (so h2 * s1 fits 64 bits); on return h < 2^130 + 2^66 with
 * h2 <= 4.
 */
static __always_inline void poly1305_mul_r(u64 *h0p, u64 *h1p, u64 *h2p,
					   u64 r0, u64 r1, u64 s1)
{
	unsigned __int128 d0, d1;
	u64 h0 = *h0p, h1 = *h1p, h2 = *h2p, d2, c;

	d0 = (unsigned __int128)h0 * r0 + (unsigned __int128)h1 * s1;
	d1 = (unsigned __int128)h0 * r1 + (unsigned __int128)h1 * r0 +
	     h2 * s1 + (u64)(d0 >> 64);
	d2 = h2 * r0 + (u64)(d1 >> 64);
	h0 = (u64)d0;
	h1 = (u64)d1;

	/* Fold bits 130 and up back in: 2^130 * x = 5 * x. */
	c = (d2 >> 2) + (d2 & ~3ULL);
	h2 = d2 & 3;
	d0 = (unsigned __int128)h0 + c;
	d1 = (unsigned __int128)h1 + (u64)(d0 >> 64);
	*h0p = (u64)d0;
	*h1p = (u64)d1;
	*h2p = h2 + (u64)(d1 >> 64);
}

/*
 * poly1305_reduce() - h mod 2^130 - 5 for h < 2^130 + 2^66 < 2p (as
 * poly1305_mul_r() leaves it): h or h - p = h + 5 - 2^130, the latter
 * exactly when h + 5 reaches 2^130, chosen by masking.
 */
static __always_inline void poly1305_reduce(u64 h[3])
{
	unsigned __int128 d;
	u64 g0, g1, g2, mask;

	d = (unsigned __int128)h[0] + 5;
	g0 = (u64)d;
	d = (unsigned __int128)h[1] + (u64)(d >> 64);
	g1 = (u64)d;
	g2 = h[2] + (u64)(d >> 64);
	mask = 0 - (g2 >> 2);
	h[0] = (h[0] & ~mask) | (g0 & mask);
	h[1] = (h[1] & ~mask) | (g1 & mask);
	h[2] = (h[2] & ~mask) | (g2 & 3 & mask);
}

/*
 * poly1305_powers() - p[i] = r^(i+1) mod 2^130 - 5, fully reduced, for
 * i = 0 .. n-1 (radix 2^64), for the vector engines.  Constant time.
 */
static inline void poly1305_powers(u64 (*p)[3], const u64 r[2], int n)
{
	const u64 s1 = r[1] + (r[1] >> 2);
	u64 h0 = r[0], h1 = r[1], h2 = 0;
	int i;

	p[0][0] = h0;
	p[0][1] = h1;
	p[0][2] = 0;
	for (i = 1; i < n; i++) {
		poly1305_mul_r(&h0, &h1, &h2, r[0], r[1], s1);
		p[i][0] = h0;
		p[i][1] = h1;
		p[i][2] = h2;
		poly1305_reduce(p[i]);
	}
}

#endif /* TLSX_CRYPTO_POLY1305_IMPL_H */
