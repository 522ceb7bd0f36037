// SPDX-License-Identifier: GPL-2.0
/*
 * poly1305_avx512.c - Poly1305 over eight blocks at a time with AVX-512
 * IFMA (52-bit multiply-add) on 512-bit vectors.
 *
 * Algorithm.  As in poly1305_avx2.c, the blocks are split into streams,
 * here eight (blocks 8t + j + 1, j = 0..7), each a Horner evaluation in
 * r^8, and the last multiplication applies r^(8-j) to stream j instead.
 * With G_t the t-th group of eight blocks:
 *
 *   A = (h, 0, ..., 0)
 *   A = (A + G_t) * r^8  for the groups but the last
 *   A = (A + G_last) * (r^8, r^7, ..., r)
 *   h' = A_0 + ... + A_7
 *
 * One step is a chain of dependent multiply-adds and a carry pass, which
 * leaves most of the machine idle while it waits, so two groups go in at
 * once as A = (A + G_t) * r^16 + G_(t+1) * r^8: the product of G_(t+1)
 * does not depend on A, and the two products share one carry pass.
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
 * and H2, at 2^(88+52) = 2^10 * 2^130, is worth 5 * 2^10 * H2 in limb 0.
 * The carry pass then works on the three limbs in parallel, which keeps
 * it short on the critical path:
 *
 *   L0 += 5 * 2^10 * H2;  L1 += H0 << 8;  L2 += H1 << 8
 *   c0 = L0 >> 44;  c1 = L1 >> 44;  c2 = L2 >> 42
 *   L0 = (L0 & (2^44-1)) + 5 c2
 *   L1 = (L1 & (2^44-1)) + c0
 *   L2 = (L2 & (2^42-1)) + c1
 *
 * Bounds.  After a carry pass the limbs are below 2^44 + 2^16, 2^44 +
 * 2^16 and 2^42 + 2^16, so with the message added they are below 2^45.1,
 * 2^45.1 and 2^43.  The powers r..r^8 are fully reduced and r^16 (made by
 * the vector code) has limbs like a carried A, so 20 r1 < 2^48.4 and
 * 20 r2 < 2^46.4.  Every product is then below 2^92: with at most six per
 * sum, Li < 2^55 and Hi < 2^43, so L0 < 2^57 before the carry, the
 * carries are below 2^13 (5 c2 < 2^16) and the bounds above hold again.
 *
 * Register plan: three limbs of A, three of each message group, six sums,
 * ten broadcast key vectors (r0, r1, r2, 20 r1, 20 r2 of r^8 and r^16) and
 * three constants, within the 32 zmm registers.  Loading 128 bytes as two
 * zmm of four blocks each and unpacking their 64-bit halves puts the
 * blocks in lane order (0, 4, 1, 5, 2, 6, 3, 7), and the powers for the
 * last step are laid out in that order.
 *
 * The powers of r are computed into the state's @simd area the first time
 * this engine runs on a message.  The lanes stay there between calls,
 * with the last group added but not yet multiplied; the first call takes
 * the scalar accumulator into lane 0, and tlsx_poly1305_fold_*() applies
 * the per-lane powers and adds the lanes back into the scalar form
 * (radix 2^64) when the scalar code needs it (see poly1305_impl.h).
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
	/* r0, r1, r2, 20 r1, 20 r2 of r^8 and of r^16 */
	u64 r8[5];
	u64 r16[5];
	/* the same five of r^8, r^4, r^7, r^3, r^6, r^2, r^5, r in lanes */
	u64 last[5][8];
	/* the lanes of the accumulator between calls (st->simd_lanes) */
	u64 acc[3][8];
};

_Static_assert(sizeof(struct poly1305_ifma_powers) <= TLSX_POLY1305_SIMD_BYTES,
	       "poly1305_ifma_powers does not fit the state");

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

/* Six sums: the low and high halves of the three limbs of a product. */
struct poly1305_ifma_sums {
	__m512i l0, l1, l2, h0, h1, h2;
};

/* s += a * key (nine multiply-adds on each half, see the top of file) */
static __always_inline IFMA void
poly1305_ifma_madd(struct poly1305_ifma_sums *s, struct poly1305_ifma_vec a,
		   const struct poly1305_ifma_key *k)
{
	s->l0 = _mm512_madd52lo_epu64(s->l0, a.l0, k->r0);
	s->h0 = _mm512_madd52hi_epu64(s->h0, a.l0, k->r0);
	s->l1 = _mm512_madd52lo_epu64(s->l1, a.l0, k->r1);
	s->h1 = _mm512_madd52hi_epu64(s->h1, a.l0, k->r1);
	s->l2 = _mm512_madd52lo_epu64(s->l2, a.l0, k->r2);
	s->h2 = _mm512_madd52hi_epu64(s->h2, a.l0, k->r2);

	s->l0 = _mm512_madd52lo_epu64(s->l0, a.l1, k->s2);
	s->h0 = _mm512_madd52hi_epu64(s->h0, a.l1, k->s2);
	s->l1 = _mm512_madd52lo_epu64(s->l1, a.l1, k->r0);
	s->h1 = _mm512_madd52hi_epu64(s->h1, a.l1, k->r0);
	s->l2 = _mm512_madd52lo_epu64(s->l2, a.l1, k->r1);
	s->h2 = _mm512_madd52hi_epu64(s->h2, a.l1, k->r1);

	s->l0 = _mm512_madd52lo_epu64(s->l0, a.l2, k->s1);
	s->h0 = _mm512_madd52hi_epu64(s->h0, a.l2, k->s1);
	s->l1 = _mm512_madd52lo_epu64(s->l1, a.l2, k->s2);
	s->h1 = _mm512_madd52hi_epu64(s->h1, a.l2, k->s2);
	s->l2 = _mm512_madd52lo_epu64(s->l2, a.l2, k->r0);
	s->h2 = _mm512_madd52hi_epu64(s->h2, a.l2, k->r0);
}

/* The sums as limbs below 2^44 + 2^16, 2^44 + 2^16, 2^42 + 2^16. */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_carry(struct poly1305_ifma_sums s)
{
	const __m512i m44 = _mm512_set1_epi64(M44);
	const __m512i m42 = _mm512_set1_epi64(M42);
	struct poly1305_ifma_vec a;
	__m512i c0, c1, c2;

	/* 5 * 2^10 * H2 = 2^12 H2 + 2^10 H2 */
	s.l0 = _mm512_add_epi64(s.l0,
				_mm512_add_epi64(_mm512_slli_epi64(s.h2, 12),
						 _mm512_slli_epi64(s.h2, 10)));
	s.l1 = _mm512_add_epi64(s.l1, _mm512_slli_epi64(s.h0, 8));
	s.l2 = _mm512_add_epi64(s.l2, _mm512_slli_epi64(s.h1, 8));
	c0 = _mm512_srli_epi64(s.l0, 44);
	c1 = _mm512_srli_epi64(s.l1, 44);
	c2 = _mm512_srli_epi64(s.l2, 42);
	c2 = _mm512_add_epi64(c2, _mm512_slli_epi64(c2, 2));
	a.l0 = _mm512_add_epi64(_mm512_and_si512(s.l0, m44), c2);
	a.l1 = _mm512_add_epi64(_mm512_and_si512(s.l1, m44), c0);
	a.l2 = _mm512_add_epi64(_mm512_and_si512(s.l2, m42), c1);
	return a;
}

static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_add(struct poly1305_ifma_vec a, struct poly1305_ifma_vec b)
{
	a.l0 = _mm512_add_epi64(a.l0, b.l0);
	a.l1 = _mm512_add_epi64(a.l1, b.l1);
	a.l2 = _mm512_add_epi64(a.l2, b.l2);
	return a;
}

/* a * key */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul(struct poly1305_ifma_vec a, const struct poly1305_ifma_key *k)
{
	struct poly1305_ifma_sums s;

	s.l0 = _mm512_setzero_si512();
	s.l1 = s.l0;
	s.l2 = s.l0;
	s.h0 = s.l0;
	s.h1 = s.l0;
	s.h2 = s.l0;
	poly1305_ifma_madd(&s, a, k);
	return poly1305_ifma_carry(s);
}

/* a * k1 + b * k2, with one carry pass */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul2(struct poly1305_ifma_vec a, const struct poly1305_ifma_key *k1,
		   struct poly1305_ifma_vec b, const struct poly1305_ifma_key *k2)
{
	struct poly1305_ifma_sums s;

	s.l0 = _mm512_setzero_si512();
	s.l1 = s.l0;
	s.l2 = s.l0;
	s.h0 = s.l0;
	s.h1 = s.l0;
	s.h2 = s.l0;
	/* b first: it does not wait for the previous step */
	poly1305_ifma_madd(&s, b, k2);
	poly1305_ifma_madd(&s, a, k1);
	return poly1305_ifma_carry(s);
}

static __always_inline IFMA void
poly1305_ifma_key_load(struct poly1305_ifma_key *k, const u64 *src, int stride)
{
	if (stride) {
		k->r0 = _mm512_loadu_si512((const void *)(src + 0 * stride));
		k->r1 = _mm512_loadu_si512((const void *)(src + 1 * stride));
		k->r2 = _mm512_loadu_si512((const void *)(src + 2 * stride));
		k->s1 = _mm512_loadu_si512((const void *)(src + 3 * stride));
		k->s2 = _mm512_loadu_si512((const void *)(src + 4 * stride));
	} else {
		k->r0 = _mm512_set1_epi64(src[0]);
		k->r1 = _mm512_set1_epi64(src[1]);
		k->r2 = _mm512_set1_epi64(src[2]);
		k->s1 = _mm512_set1_epi64(src[3]);
		k->s2 = _mm512_set1_epi64(src[4]);
	}
}

static IFMA void poly1305_ifma_setup(struct tlsx_poly1305_state *st)
{
	struct poly1305_ifma_powers *pw = (void *)st->simd;
	/* r^8 r^4 r^7 r^3 r^6 r^2 r^5 r, less one */
	static const int lane_power[8] = { 7, 3, 6, 2, 5, 1, 4, 0 };
	u64 p64[8][3];		/* r .. r^8 */
	u64 p[8][3];
	struct poly1305_ifma_key k;
	struct poly1305_ifma_vec a;
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

	/* r^16 = r^8 * r^8 in the vector code, carried but not reduced */
	poly1305_ifma_key_load(&k, pw->r8, 0);
	a.l0 = k.r0;
	a.l1 = k.r1;
	a.l2 = k.r2;
	a = poly1305_ifma_mul(a, &k);
	pw->r16[0] = _mm_cvtsi128_si64(_mm512_castsi512_si128(a.l0));
	pw->r16[1] = _mm_cvtsi128_si64(_mm512_castsi512_si128(a.l1));
	pw->r16[2] = _mm_cvtsi128_si64(_mm512_castsi512_si128(a.l2));
	pw->r16[3] = 20 * pw->r16[1];
	pw->r16[4] = 20 * pw->r16[2];

	memzero_explicit(p64, sizeof(p64));
	memzero_explicit(p, sizeof(p));
	st->simd_ready = POLY1305_ENGINE_IFMA;
}

size_t IFMA tlsx_poly1305_blocks_ifma(struct tlsx_poly1305_state *st,
				      const u8 *p, size_t nblocks)
{
	struct poly1305_ifma_powers *pw = (void *)st->simd;
	struct poly1305_ifma_key k8, k16;
	struct poly1305_ifma_vec a;
	u64 l[3];
	size_t n = nblocks / 8;

	if (!n)
		return 0;
	if (st->simd_ready != POLY1305_ENGINE_IFMA)
		poly1305_ifma_setup(st);
	poly1305_ifma_key_load(&k8, pw->r8, 0);

	/*
	 * Groups of eight blocks G_0 .. G_(n-1).  a holds the lanes with the
	 * last group added but not yet multiplied: from the previous call,
	 * or the scalar accumulator (in lane 0) plus the first group.
	 */
	if (st->simd_lanes) {
		a.l0 = _mm512_loadu_si512((const void *)pw->acc[0]);
		a.l1 = _mm512_loadu_si512((const void *)pw->acc[1]);
		a.l2 = _mm512_loadu_si512((const void *)pw->acc[2]);
	} else {
		poly1305_to44(l, st->h);
		a.l0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[0]);
		a.l1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[1]);
		a.l2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[2]);
		memzero_explicit(l, sizeof(l));
		a = poly1305_ifma_add(a, poly1305_ifma_load(p));
		p += 128;
		n--;
	}

	/*
	 * a = a * r^8 + G, two groups at a time as
	 * a * r^16 + G * r^8 + G' with a single carry pass.
	 */
	if (n & 1) {
		a = poly1305_ifma_mul(a, &k8);
		a = poly1305_ifma_add(a, poly1305_ifma_load(p));
		p += 128;
	}
	n /= 2;
	if (n) {
		poly1305_ifma_key_load(&k16, pw->r16, 0);
		do {
			a = poly1305_ifma_mul2(a, &k16, poly1305_ifma_load(p),
					       &k8);
			a = poly1305_ifma_add(a, poly1305_ifma_load(p + 128));
			p += 256;
		} while (--n);
	}

	_mm512_storeu_si512((void *)pw->acc[0], a.l0);
	_mm512_storeu_si512((void *)pw->acc[1], a.l1);
	_mm512_storeu_si512((void *)pw->acc[2], a.l2);
	st->simd_lanes = 1;
	return nblocks & ~(size_t)7;
}

void IFMA tlsx_poly1305_fold_ifma(struct tlsx_poly1305_state *st)
{
	unsigned __int128 d;
	const struct poly1305_ifma_powers *pw = (const void *)st->simd;
	struct poly1305_ifma_key kl;
	struct poly1305_ifma_vec a;
	u64 t0, t1, t2, c;

	a.l0 = _mm512_loadu_si512((const void *)pw->acc[0]);
	a.l1 = _mm512_loadu_si512((const void *)pw->acc[1]);
	a.l2 = _mm512_loadu_si512((const void *)pw->acc[2]);
	poly1305_ifma_key_load(&kl, &pw->last[0][0], 8);
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
	st->simd_lanes = 0;
}
