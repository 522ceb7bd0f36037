// SPDX-License-Identifier: GPL-2.0
/*
 * poly1305_avx512.c - Poly1305 over eight blocks at a time with AVX-512
 * IFMA (52-bit multiply-add) on 512-bit vectors.
 *
 * Algorithm.  As in poly1305_avx2.c, the blocks are split into streams,
 * here eight (blocks 8t + j + 1, j = 0..7), each a Horner evaluation in
 * r^8, and the last multiplication applies r^(8-j) to stream j instead:
 *
 *   A = (h, 0, ..., 0)
 *   for t = 0 .. k-1:  A = (A + M_t) * (t < k-1 ? r^8 : (r^8, ..., r))
 *   h' = A_0 + ... + A_7
 *
 * Representation.  Numbers are in radix 2^44: limbs of 44, 44 and 42 bits
 * (130 in all), one limb of each of the eight streams per zmm register.
 * VPMADD52LUQ / VPMADD52HUQ add the low / high 52 bits of the 104-bit
 * product of two 52-bit lanes to a 64-bit accumulator, so a product of
 * limbs is split at bit 52 for free, and all inputs must stay below
 * 2^52.  With 2^132 = 4 * 2^130 = 20 (mod p), the product of a and r is
 *
 *   d0 = a0 r0 + a1 (20 r2) + a2 (20 r1)
 *   d1 = a0 r1 + a1 r0      + a2 (20 r2)
 *   d2 = a0 r2 + a1 r1      + a2 r0
 *
 * each di as a low sum Li and a high sum Hi (di = Li + 2^52 Hi).  Since
 * 2^52 = 2^8 * 2^44, H0 and H1 belong to the next limb shifted left by 8,
 * and H2, at 2^(88+52) = 2^10 * 2^130, joins the carry out of limb 2
 * shifted left by 10 before that carry is multiplied by 5.
 *
 * Bounds.  Limbs enter a multiplication below 2^45 (2^44 after a carry
 * pass, plus up to 2^44 of message); the powers of r are fully reduced so
 * r0, r1 < 2^44, r2 < 2^42 and 20 r1 < 2^49, 20 r2 < 2^47: every product
 * is below 2^94, so Li < 3 * 2^52 and Hi < 3 * 2^42, and the carry pass
 *
 *   L1 += H0 << 8;  L2 += H1 << 8
 *   c = (L2 >> 42) + (H2 << 10);  L2 &= 2^42-1;  L0 += 5c   (L0 < 2^55)
 *   L1 += L0 >> 44;  L0 &= 2^44-1
 *   L2 += L1 >> 44;  L1 &= 2^44-1                            (L2 < 2^43)
 *
 * leaves limbs below 2^44, 2^44 and 2^43.
 *
 * Register plan: three limbs of A, three of the message, six sums, five
 * broadcast key vectors (r0, r1, r2, 20 r1, 20 r2) and a few constants,
 * well within the 32 zmm registers.  Loading 128 bytes as two zmm of four
 * blocks each and unpacking their 64-bit halves puts the blocks in lane
 * order (0, 4, 1, 5, 2, 6, 3, 7), and the powers for the last step are
 * laid out in that order.
 *
 * The accumulator enters and leaves in the scalar form (radix 2^64), and
 * the powers of r are computed into the state's @simd area the first time
 * this engine runs on a message.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "poly1305_impl.h"

#define IFMA __attribute__((target("avx512f,avx512ifma")))

#define M44	((1ULL << 44) - 1)
#define M42	((1ULL << 42) - 1)

/* The layout of st->simd for this engine. */
struct poly1305_ifma_powers {
	/* r0, r1, r2, 20 r1, 20 r2 of r^8 */
	u64 r8[5];
	/* the same five of r^8, r^4, r^7, r^3, r^6, r^2, r^5, r in lanes */
	u64 last[5][8];
};

/* Three limbs of eight numbers, one per 64-bit lane. */
struct poly1305_ifma_vec {
	__m512i l0, l1, l2;
};

struct poly1305_ifma_key {
	__m512i r0, r1, r2, s1, s2;	/* s1 = 20 r1, s2 = 20 r2 */
};

/* @h (radix 2^64, h[2] < 8) in radix 2^44. */
static __always_inline void poly1305_to44(u64 l[3], const u64 h[3])
{
	l[0] = h[0] & M44;
	l[1] = ((h[0] >> 44) | (h[1] << 20)) & M44;
	l[2] = (h[1] >> 24) | (h[2] << 40);
}

static IFMA void poly1305_ifma_setup(struct tlsx_poly1305_state *st)
{
	struct poly1305_ifma_powers *pw = (void *)st->simd;
	/* r^8 r^4 r^7 r^3 r^6 r^2 r^5 r, less one */
	static const int lane_power[8] = { 7, 3, 6, 2, 5, 1, 4, 0 };
	u64 p64[8][3];		/* r .. r^8 */
	u64 p[8][3];
	int i, j;

	poly1305_powers(p64, st->r, 8);
	for (j = 0; j < 8; j++)
		poly1305_to44(p[j], p64[j]);
	for (i = 0; i < 3; i++) {
		pw->r8[i] = p[7][i];
		for (j = 0; j < 8; j++)
			pw->last[i][j] = p[lane_power[j]][i];
	}
	for (i = 1; i < 3; i++) {
		pw->r8[2 + i] = 20 * p[7][i];
		for (j = 0; j < 8; j++)
			pw->last[2 + i][j] = 20 * p[lane_power[j]][i];
	}
	memzero_explicit(p64, sizeof(p64));
	memzero_explicit(p, sizeof(p));
	st->simd_ready = POLY1305_ENGINE_IFMA;
}

/* Eight blocks as limbs of eight lanes, with the 2^128 pad bit. */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_load(const u8 *p)
{
	const __m512i m44 = _mm512_set1_epi64(M44);
	__m512i a = _mm512_loadu_si512((const void *)p);
	__m512i b = _mm512_loadu_si512((const void *)(p + 64));
	__m512i lo = _mm512_unpacklo_epi64(a, b);	/* bits 0..63 */
	__m512i hi = _mm512_unpackhi_epi64(a, b);	/* bits 64..127 */
	struct poly1305_ifma_vec m;

	m.l0 = _mm512_and_si512(lo, m44);
	/* (x | y) & z is ternary-logic function 0xa8 */
	m.l1 = _mm512_ternarylogic_epi64(_mm512_srli_epi64(lo, 44),
					 _mm512_slli_epi64(hi, 20), m44, 0xa8);
	m.l2 = _mm512_or_si512(_mm512_srli_epi64(hi, 24),
			       _mm512_set1_epi64(1ULL << 40));
	return m;
}

/* a * key, limbs below 2^44, 2^44, 2^43 (see the top of the file). */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul(struct poly1305_ifma_vec a, const struct poly1305_ifma_key *k)
{
	const __m512i zero = _mm512_setzero_si512();
	const __m512i m44 = _mm512_set1_epi64(M44);
	const __m512i m42 = _mm512_set1_epi64(M42);
	__m512i l0, l1, l2, h0, h1, h2, c;

	l0 = _mm512_madd52lo_epu64(zero, a.l0, k->r0);
	h0 = _mm512_madd52hi_epu64(zero, a.l0, k->r0);
	l1 = _mm512_madd52lo_epu64(zero, a.l0, k->r1);
	h1 = _mm512_madd52hi_epu64(zero, a.l0, k->r1);
	l2 = _mm512_madd52lo_epu64(zero, a.l0, k->r2);
	h2 = _mm512_madd52hi_epu64(zero, a.l0, k->r2);

	l0 = _mm512_madd52lo_epu64(l0, a.l1, k->s2);
	h0 = _mm512_madd52hi_epu64(h0, a.l1, k->s2);
	l1 = _mm512_madd52lo_epu64(l1, a.l1, k->r0);
	h1 = _mm512_madd52hi_epu64(h1, a.l1, k->r0);
	l2 = _mm512_madd52lo_epu64(l2, a.l1, k->r1);
	h2 = _mm512_madd52hi_epu64(h2, a.l1, k->r1);

	l0 = _mm512_madd52lo_epu64(l0, a.l2, k->s1);
	h0 = _mm512_madd52hi_epu64(h0, a.l2, k->s1);
	l1 = _mm512_madd52lo_epu64(l1, a.l2, k->s2);
	h1 = _mm512_madd52hi_epu64(h1, a.l2, k->s2);
	l2 = _mm512_madd52lo_epu64(l2, a.l2, k->r0);
	h2 = _mm512_madd52hi_epu64(h2, a.l2, k->r0);

	l1 = _mm512_add_epi64(l1, _mm512_slli_epi64(h0, 8));
	l2 = _mm512_add_epi64(l2, _mm512_slli_epi64(h1, 8));
	c = _mm512_add_epi64(_mm512_srli_epi64(l2, 42),
			     _mm512_slli_epi64(h2, 10));
	l2 = _mm512_and_si512(l2, m42);
	l0 = _mm512_add_epi64(l0, _mm512_add_epi64(c, _mm512_slli_epi64(c, 2)));
	l1 = _mm512_add_epi64(l1, _mm512_srli_epi64(l0, 44));
	l0 = _mm512_and_si512(l0, m44);
	l2 = _mm512_add_epi64(l2, _mm512_srli_epi64(l1, 44));
	l1 = _mm512_and_si512(l1, m44);

	a.l0 = l0;
	a.l1 = l1;
	a.l2 = l2;
	return a;
}

size_t IFMA tlsx_poly1305_blocks_ifma(struct tlsx_poly1305_state *st,
				      const u8 *p, size_t nblocks)
{
	unsigned __int128 d;
	const struct poly1305_ifma_powers *pw = (const void *)st->simd;
	struct poly1305_ifma_key k8, kl;
	struct poly1305_ifma_vec a, m;
	u64 l[3], t0, t1, t2, c;
	size_t n = nblocks / 8;

	if (!n)
		return 0;
	if (st->simd_ready != POLY1305_ENGINE_IFMA)
		poly1305_ifma_setup(st);

	k8.r0 = _mm512_set1_epi64(pw->r8[0]);
	k8.r1 = _mm512_set1_epi64(pw->r8[1]);
	k8.r2 = _mm512_set1_epi64(pw->r8[2]);
	k8.s1 = _mm512_set1_epi64(pw->r8[3]);
	k8.s2 = _mm512_set1_epi64(pw->r8[4]);

	/* The incoming accumulator joins stream 0 (lane 0). */
	poly1305_to44(l, st->h);
	a.l0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[0]);
	a.l1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[1]);
	a.l2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[2]);

	for (;;) {
		m = poly1305_ifma_load(p);
		p += 128;
		a.l0 = _mm512_add_epi64(a.l0, m.l0);
		a.l1 = _mm512_add_epi64(a.l1, m.l1);
		a.l2 = _mm512_add_epi64(a.l2, m.l2);
		if (!--n)
			break;
		a = poly1305_ifma_mul(a, &k8);
	}
	kl.r0 = _mm512_loadu_si512((const void *)pw->last[0]);
	kl.r1 = _mm512_loadu_si512((const void *)pw->last[1]);
	kl.r2 = _mm512_loadu_si512((const void *)pw->last[2]);
	kl.s1 = _mm512_loadu_si512((const void *)pw->last[3]);
	kl.s2 = _mm512_loadu_si512((const void *)pw->last[4]);
	a = poly1305_ifma_mul(a, &kl);

	/*
	 * Add the streams and return to radix 2^64.  Each limb sum is below
	 * 2^47, so h lands below 2^135 and one fold of bits 130 and up
	 * restores h2 <= 4 as the scalar code expects.
	 */
	t0 = _mm512_reduce_add_epi64(a.l0);
	t1 = _mm512_reduce_add_epi64(a.l1);
	t2 = _mm512_reduce_add_epi64(a.l2);
	d = (unsigned __int128)t0 + ((unsigned __int128)t1 << 44);
	st->h[0] = (u64)d;
	d = (d >> 64) + ((unsigned __int128)t2 << 24);
	st->h[1] = (u64)d;
	c = (u64)(d >> 64);
	st->h[2] = c & 3;
	c = (c >> 2) * 5;
	d = (unsigned __int128)st->h[0] + c;
	st->h[0] = (u64)d;
	d = (unsigned __int128)st->h[1] + (u64)(d >> 64);
	st->h[1] = (u64)d;
	st->h[2] += (u64)(d >> 64);

	memzero_explicit(l, sizeof(l));
	memzero_explicit(&k8, sizeof(k8));
	memzero_explicit(&kl, sizeof(kl));
	return nblocks & ~(size_t)7;
}
