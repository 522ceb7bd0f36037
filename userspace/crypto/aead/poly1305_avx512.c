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
 * leaves most of the machine idle while it waits, so four groups go in at
 * once as A = (A + G_1) * r^32 + G_2 * r^24 + G_3 * r^16 + G_4 * r^8 (and
 * two, (A + G_1) * r^16 + G_2 * r^8, for shorter runs): the products of
 * the later groups do not depend on A, and all share one carry pass.
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
 * 2^45.1 and 2^43.  The powers of r are made by the same multiplication,
 * so their limbs are those of a carried A (r itself: below 2^44), and
 * 20 r1 < 2^48.4, 20 r2 < 2^46.4.  Every product is then below 2^92: with at
 * most twelve per sum, Li < 2^56 and Hi < 2^44, so L0 < 2^58 before the
 * carry, the carries are below 2^14 (5 c2 < 2^17) and the bounds above
 * hold again.
 *
 * Register plan: three limbs of A, three of each message group, six sums,
 * twenty broadcast key vectors (r0, r1, r2, 20 r1, 20 r2 of r^8 .. r^32)
 * and three constants: a little more than the 32 zmm registers, so the
 * compiler reads some key vectors from the stack.  Loading 128 bytes as two
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

#include "aead/poly1305_impl.h"

#define IFMA __attribute__((target("avx512f,avx512ifma")))

#define M44	((1ULL << 44) - 1)
#define M42	((1ULL << 42) - 1)

/* The layout of st->simd for this engine. */
struct poly1305_ifma_powers {
	/* r0, r1, r2, 20 r1, 20 r2 of r^8, r^4, r^7, r^3, r^6, r^2, r^5, r */
	u64 last[5][8];
	/* the lanes of the accumulator between calls (st->simd_lanes) */
	u64 acc[3][8];
	/* the same five of r^8, r^16, r^24 and r^32, for broadcasting */
	u64 r8[5];
	u64 r16[5];
	u64 r24[5];
	u64 r32[5];		/* r24 and r32 only when r32_ready */
	u64 r32_ready;
};

_Static_assert(sizeof(struct poly1305_ifma_powers) + POLY1305_SIMD_ALIGN_SLACK <=
	       TLSX_POLY1305_SIMD_BYTES,
	       "poly1305_ifma_powers does not fit the state");

/* Three limbs of eight numbers, one per 64-bit lane. */
struct poly1305_ifma_vec {
	__m512i l0, l1, l2;
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

/* A key's five factors r0, r1, r2, 20 r1, 20 r2, as vectors. */
struct poly1305_ifma_key {
	__m512i k[5];
};

/* s += a * key (nine multiply-adds on each half, see the top of file) */
static __always_inline IFMA void
poly1305_ifma_madd_key(struct poly1305_ifma_sums *s,
		       struct poly1305_ifma_vec a,
		       const struct poly1305_ifma_key *key)
{
	const __m512i *k = key->k;

	s->l0 = _mm512_madd52lo_epu64(s->l0, a.l0, k[0]);
	s->h0 = _mm512_madd52hi_epu64(s->h0, a.l0, k[0]);
	s->l1 = _mm512_madd52lo_epu64(s->l1, a.l0, k[1]);
	s->h1 = _mm512_madd52hi_epu64(s->h1, a.l0, k[1]);
	s->l2 = _mm512_madd52lo_epu64(s->l2, a.l0, k[2]);
	s->h2 = _mm512_madd52hi_epu64(s->h2, a.l0, k[2]);

	s->l0 = _mm512_madd52lo_epu64(s->l0, a.l1, k[4]);
	s->h0 = _mm512_madd52hi_epu64(s->h0, a.l1, k[4]);
	s->l1 = _mm512_madd52lo_epu64(s->l1, a.l1, k[0]);
	s->h1 = _mm512_madd52hi_epu64(s->h1, a.l1, k[0]);
	s->l2 = _mm512_madd52lo_epu64(s->l2, a.l1, k[1]);
	s->h2 = _mm512_madd52hi_epu64(s->h2, a.l1, k[1]);

	s->l0 = _mm512_madd52lo_epu64(s->l0, a.l2, k[3]);
	s->h0 = _mm512_madd52hi_epu64(s->h0, a.l2, k[3]);
	s->l1 = _mm512_madd52lo_epu64(s->l1, a.l2, k[4]);
	s->h1 = _mm512_madd52hi_epu64(s->h1, a.l2, k[4]);
	s->l2 = _mm512_madd52lo_epu64(s->l2, a.l2, k[0]);
	s->h2 = _mm512_madd52hi_epu64(s->h2, a.l2, k[0]);
}

/*
 * s += a * the key at @k: its factors broadcast from k[0..4] when @stride
 * is 0, else the vectors at k + i * stride.  The key is read from memory
 * at each call (its address is hidden from the optimiser): a step with
 * four products has twenty key vectors, and hoisting them all out of the
 * loop would run out of registers and spill key material to the stack.
 */
static __always_inline IFMA void
poly1305_ifma_madd(struct poly1305_ifma_sums *s, struct poly1305_ifma_vec a,
		   const u64 *k, int stride)
{
	struct poly1305_ifma_key key;

	__asm__ __volatile__("" : "+r"(k));
	if (stride) {
		key.k[0] = _mm512_loadu_si512((const void *)k);
		key.k[1] = _mm512_loadu_si512((const void *)(k + stride));
		key.k[2] = _mm512_loadu_si512((const void *)(k + 2 * stride));
		key.k[3] = _mm512_loadu_si512((const void *)(k + 3 * stride));
		key.k[4] = _mm512_loadu_si512((const void *)(k + 4 * stride));
	} else {
		key.k[0] = _mm512_set1_epi64(k[0]);
		key.k[1] = _mm512_set1_epi64(k[1]);
		key.k[2] = _mm512_set1_epi64(k[2]);
		key.k[3] = _mm512_set1_epi64(k[3]);
		key.k[4] = _mm512_set1_epi64(k[4]);
	}
	poly1305_ifma_madd_key(s, a, &key);
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

static __always_inline IFMA struct poly1305_ifma_sums poly1305_ifma_zero(void)
{
	struct poly1305_ifma_sums s;

	s.l0 = _mm512_setzero_si512();
	s.l1 = s.l0;
	s.l2 = s.l0;
	s.h0 = s.l0;
	s.h1 = s.l0;
	s.h2 = s.l0;
	return s;
}

/* a * key (see poly1305_ifma_k() for @k and @stride) */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul(struct poly1305_ifma_vec a, const u64 *k, int stride)
{
	struct poly1305_ifma_sums s = poly1305_ifma_zero();

	poly1305_ifma_madd(&s, a, k, stride);
	return poly1305_ifma_carry(s);
}

/* a * key */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul_key(struct poly1305_ifma_vec a,
		      const struct poly1305_ifma_key *key)
{
	struct poly1305_ifma_sums s = poly1305_ifma_zero();

	poly1305_ifma_madd_key(&s, a, key);
	return poly1305_ifma_carry(s);
}

/* The key whose limbs are @a (20 x = 16 x + 4 x). */
static __always_inline IFMA struct poly1305_ifma_key
poly1305_ifma_key_of(struct poly1305_ifma_vec a)
{
	struct poly1305_ifma_key key;

	key.k[0] = a.l0;
	key.k[1] = a.l1;
	key.k[2] = a.l2;
	key.k[3] = _mm512_add_epi64(_mm512_slli_epi64(a.l1, 4),
				    _mm512_slli_epi64(a.l1, 2));
	key.k[4] = _mm512_add_epi64(_mm512_slli_epi64(a.l2, 4),
				    _mm512_slli_epi64(a.l2, 2));
	return key;
}

/* a * k1 + b * k2 (broadcast keys), with one carry pass */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul2(struct poly1305_ifma_vec a, const u64 *k1,
		   struct poly1305_ifma_vec b, const u64 *k2)
{
	struct poly1305_ifma_sums s = poly1305_ifma_zero();

	/* b first: it does not wait for the previous step */
	poly1305_ifma_madd(&s, b, k2, 0);
	poly1305_ifma_madd(&s, a, k1, 0);
	return poly1305_ifma_carry(s);
}

/* a * k1 + b * k2 + c * k3 + d * k4 (broadcast keys), one carry pass */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_mul4(struct poly1305_ifma_vec a, const u64 *k1,
		   struct poly1305_ifma_vec b, const u64 *k2,
		   struct poly1305_ifma_vec c, const u64 *k3,
		   struct poly1305_ifma_vec d, const u64 *k4)
{
	struct poly1305_ifma_sums s = poly1305_ifma_zero();

	/* a last: the others do not wait for the previous step */
	poly1305_ifma_madd(&s, b, k2, 0);
	poly1305_ifma_madd(&s, c, k3, 0);
	poly1305_ifma_madd(&s, d, k4, 0);
	poly1305_ifma_madd(&s, a, k1, 0);
	return poly1305_ifma_carry(s);
}

/* The three limbs of the key at @k, broadcast. */
static __always_inline IFMA struct poly1305_ifma_vec
poly1305_ifma_bcast(const u64 *k)
{
	struct poly1305_ifma_vec a;

	a.l0 = _mm512_set1_epi64(k[0]);
	a.l1 = _mm512_set1_epi64(k[1]);
	a.l2 = _mm512_set1_epi64(k[2]);
	return a;
}

/* The five factors of the key in lane 0 of @a. */
static __always_inline IFMA void
poly1305_ifma_key_store(u64 k[5], struct poly1305_ifma_vec a)
{
	k[0] = _mm_cvtsi128_si64(_mm512_castsi512_si128(a.l0));
	k[1] = _mm_cvtsi128_si64(_mm512_castsi512_si128(a.l1));
	k[2] = _mm_cvtsi128_si64(_mm512_castsi512_si128(a.l2));
	k[3] = 20 * k[1];
	k[4] = 20 * k[2];
}

/*
 * The powers of r for this engine, computed in the vector unit by
 * doubling: r^2 = r * r in every lane, then (r, r^2, ...) * r^2 gives
 * r^3 and r^4, and (r, r^2, r^3, r^4, ...) * r^4 gives r^5 .. r^8; four
 * dependent multiplications with r^16.  The powers come out carried,
 * not fully reduced (see the bounds at the top of the file).
 */
static IFMA void poly1305_ifma_powers_of(struct poly1305_ifma_powers *pw,
					 const u64 rr[2])
{
	/* lane i of the result takes lane perm[i] of (r, r^2, .. r^8) */
	const __m512i perm = _mm512_set_epi64(0, 4, 1, 5, 2, 6, 3, 7);
	const __m512i seven = _mm512_set1_epi64(7);
	struct poly1305_ifma_key key;
	struct poly1305_ifma_vec r, x, y;
	u64 l[3];

	l[0] = rr[0] & M44;
	l[1] = ((rr[0] >> 44) | (rr[1] << 20)) & M44;
	l[2] = rr[1] >> 24;
	r.l0 = _mm512_set1_epi64(l[0]);
	r.l1 = _mm512_set1_epi64(l[1]);
	r.l2 = _mm512_set1_epi64(l[2]);
	memzero_explicit(l, sizeof(l));

	/* x = r^2 everywhere; y = (r, r^2, r, r^2, ...) */
	key = poly1305_ifma_key_of(r);
	x = poly1305_ifma_mul_key(r, &key);
	y.l0 = _mm512_mask_blend_epi64(0xaa, r.l0, x.l0);
	y.l1 = _mm512_mask_blend_epi64(0xaa, r.l1, x.l1);
	y.l2 = _mm512_mask_blend_epi64(0xaa, r.l2, x.l2);

	/* x = (r^3, r^4, ...); y = (r, r^2, r^3, r^4, r, r^2, r^3, r^4) */
	key = poly1305_ifma_key_of(x);
	x = poly1305_ifma_mul_key(y, &key);
	y.l0 = _mm512_mask_blend_epi64(0xcc, y.l0, x.l0);
	y.l1 = _mm512_mask_blend_epi64(0xcc, y.l1, x.l1);
	y.l2 = _mm512_mask_blend_epi64(0xcc, y.l2, x.l2);

	/* x = r^4 everywhere; then y = (r, r^2, .. r^8) */
	x.l0 = _mm512_permutexvar_epi64(_mm512_set1_epi64(3), y.l0);
	x.l1 = _mm512_permutexvar_epi64(_mm512_set1_epi64(3), y.l1);
	x.l2 = _mm512_permutexvar_epi64(_mm512_set1_epi64(3), y.l2);
	key = poly1305_ifma_key_of(x);
	x = poly1305_ifma_mul_key(y, &key);
	y.l0 = _mm512_mask_blend_epi64(0xf0, y.l0, x.l0);
	y.l1 = _mm512_mask_blend_epi64(0xf0, y.l1, x.l1);
	y.l2 = _mm512_mask_blend_epi64(0xf0, y.l2, x.l2);

	/* the last step's key, in lane order; r^8 for broadcasting */
	x.l0 = _mm512_permutexvar_epi64(perm, y.l0);
	x.l1 = _mm512_permutexvar_epi64(perm, y.l1);
	x.l2 = _mm512_permutexvar_epi64(perm, y.l2);
	key = poly1305_ifma_key_of(x);
	_mm512_storeu_si512((void *)pw->last[0], key.k[0]);
	_mm512_storeu_si512((void *)pw->last[1], key.k[1]);
	_mm512_storeu_si512((void *)pw->last[2], key.k[2]);
	_mm512_storeu_si512((void *)pw->last[3], key.k[3]);
	_mm512_storeu_si512((void *)pw->last[4], key.k[4]);
	x.l0 = _mm512_permutexvar_epi64(seven, y.l0);
	x.l1 = _mm512_permutexvar_epi64(seven, y.l1);
	x.l2 = _mm512_permutexvar_epi64(seven, y.l2);
	poly1305_ifma_key_store(pw->r8, x);

	/* r^16 = r^8 * r^8 */
	key = poly1305_ifma_key_of(x);
	poly1305_ifma_key_store(pw->r16, poly1305_ifma_mul_key(x, &key));
	pw->r32_ready = 0;
}

static IFMA void poly1305_ifma_setup(struct tlsx_poly1305_state *st)
{
	poly1305_ifma_powers_of(poly1305_simd_area(st), st->r);
	st->simd_ready = POLY1305_ENGINE_IFMA;
}

/*
 * r^24 = r^16 * r^8 and r^32 = r^16 * r^16, for the runs long enough to
 * take four groups at a time (so a 1 KiB record does without).
 */
static IFMA void poly1305_ifma_setup_r32(struct poly1305_ifma_powers *pw)
{
	struct poly1305_ifma_vec a = poly1305_ifma_bcast(pw->r16);

	poly1305_ifma_key_store(pw->r24, poly1305_ifma_mul(a, pw->r8, 0));
	poly1305_ifma_key_store(pw->r32, poly1305_ifma_mul(a, pw->r16, 0));
	pw->r32_ready = 1;
}

size_t IFMA tlsx_poly1305_blocks_ifma(struct tlsx_poly1305_state *st,
				      const u8 *p, size_t nblocks)
{
	struct poly1305_ifma_powers *pw = poly1305_simd_area(st);
	struct poly1305_ifma_vec a;
	u64 l[3];
	size_t n = nblocks / 8;

	if (!n)
		return 0;
	if (st->simd_ready != POLY1305_ENGINE_IFMA)
		poly1305_ifma_setup(st);

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
	 * a = a * r^8 + G, four groups G_1..G_4 at a time as
	 * a * r^32 + G_1 * r^24 + G_2 * r^16 + G_3 * r^8 + G_4 with a
	 * single carry pass (once the run is long enough to pay for r^24
	 * and r^32), then two at a time, then one.
	 */
	if (n >= 8 || (n >= 4 && pw->r32_ready)) {
		if (!pw->r32_ready)
			poly1305_ifma_setup_r32(pw);
		do {
			a = poly1305_ifma_mul4(a, pw->r32,
					       poly1305_ifma_load(p), pw->r24,
					       poly1305_ifma_load(p + 128),
					       pw->r16,
					       poly1305_ifma_load(p + 256),
					       pw->r8);
			a = poly1305_ifma_add(a, poly1305_ifma_load(p + 384));
			p += 512;
			n -= 4;
		} while (n >= 4);
	}
	if (n >= 2) {
		do {
			a = poly1305_ifma_mul2(a, pw->r16,
					       poly1305_ifma_load(p), pw->r8);
			a = poly1305_ifma_add(a, poly1305_ifma_load(p + 128));
			p += 256;
			n -= 2;
		} while (n >= 2);
	}
	if (n) {
		a = poly1305_ifma_mul(a, pw->r8, 0);
		a = poly1305_ifma_add(a, poly1305_ifma_load(p));
	}

	_mm512_storeu_si512((void *)pw->acc[0], a.l0);
	_mm512_storeu_si512((void *)pw->acc[1], a.l1);
	_mm512_storeu_si512((void *)pw->acc[2], a.l2);
	st->simd_lanes = 1;
	return nblocks & ~(size_t)7;
}

/*
 * h = the lanes @a (the last group added) times (r^8, .. r), summed, in
 * radix 2^64.
 */
static __always_inline IFMA void
poly1305_ifma_lanes_to_h(struct poly1305_ifma_vec a,
			 const struct poly1305_ifma_powers *pw, u64 h[3])
{
	unsigned __int128 d;
	u64 t0, t1, t2, c;

	a = poly1305_ifma_mul(a, &pw->last[0][0], 8);

	/*
	 * Add the streams and return to radix 2^64.  Each limb sum is below
	 * 2^47, so h lands below 2^135 and one fold of bits 130 and up
	 * restores h2 <= 4 as the scalar code expects.
	 */
	t0 = _mm512_reduce_add_epi64(a.l0);
	t1 = _mm512_reduce_add_epi64(a.l1);
	t2 = _mm512_reduce_add_epi64(a.l2);
	d = (unsigned __int128)t0 + ((unsigned __int128)t1 << 44);
	h[0] = (u64)d;
	d = (d >> 64) + ((unsigned __int128)t2 << 24);
	h[1] = (u64)d;
	c = (u64)(d >> 64);
	h[2] = c & 3;
	c = (c >> 2) * 5;
	d = (unsigned __int128)h[0] + c;
	h[0] = (u64)d;
	d = (unsigned __int128)h[1] + (u64)(d >> 64);
	h[1] = (u64)d;
	h[2] += (u64)(d >> 64);
}

void IFMA tlsx_poly1305_fold_ifma(struct tlsx_poly1305_state *st)
{
	const struct poly1305_ifma_powers *pw = poly1305_simd_area(st);
	struct poly1305_ifma_vec a;

	a.l0 = _mm512_loadu_si512((const void *)pw->acc[0]);
	a.l1 = _mm512_loadu_si512((const void *)pw->acc[1]);
	a.l2 = _mm512_loadu_si512((const void *)pw->acc[2]);
	poly1305_ifma_lanes_to_h(a, pw, st->h);
	st->simd_lanes = 0;
}

_Static_assert(sizeof(struct poly1305_ifma_powers) + 63 <=
	       POLY1305_IFMA_SCRATCH, "POLY1305_IFMA_SCRATCH too small");

void IFMA tlsx_poly1305_ifma_run(u64 h[3], const u64 r[2], const u8 *p,
				 size_t ngroups, u8 *scratch)
{
	struct poly1305_ifma_powers *pw = (void *)(((unsigned long)scratch +
						    63) & ~63UL);
	struct poly1305_ifma_vec a;
	u64 l[3];

	poly1305_ifma_powers_of(pw, r);
	poly1305_to44(l, h);
	a.l0 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[0]);
	a.l1 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[1]);
	a.l2 = _mm512_set_epi64(0, 0, 0, 0, 0, 0, 0, l[2]);
	memzero_explicit(l, sizeof(l));
	a = poly1305_ifma_add(a, poly1305_ifma_load(p));
	for (p += 128, ngroups--; ngroups >= 2; p += 256, ngroups -= 2) {
		a = poly1305_ifma_mul2(a, pw->r16, poly1305_ifma_load(p),
				       pw->r8);
		a = poly1305_ifma_add(a, poly1305_ifma_load(p + 128));
	}
	if (ngroups) {
		a = poly1305_ifma_mul(a, pw->r8, 0);
		a = poly1305_ifma_add(a, poly1305_ifma_load(p));
	}
	poly1305_ifma_lanes_to_h(a, pw, h);
}
