// SPDX-License-Identifier: GPL-2.0
/*
 * poly1305_avx2.c - Poly1305 over four blocks at a time with AVX2.
 *
 * Algorithm.  With blocks m_1..m_n (n = 4k) the MAC accumulator is
 * h' = (h + m_1) r^n + m_2 r^(n-1) + ... + m_n r.  Splitting the blocks
 * into four streams j = 0..3 (blocks 4t + j + 1), each stream is a Horner
 * evaluation in r^4, and the stream of block j is finally multiplied by
 * r^(4-j):
 *
 *   A = (h, 0, 0, 0)
 *   for t = 0 .. k-1:  A = (A + M_t) * (t < k-1 ? r^4 : (r^4, r^3, r^2, r))
 *   h' = A_0 + A_1 + A_2 + A_3
 *
 * so the last multiplication also applies the per-stream powers, and the
 * four products of one step are independent: one vector each.
 *
 * Representation.  Numbers are in radix 2^26, five limbs, one limb of
 * each of the four streams per ymm register (a 64-bit lane each), so
 * VPMULUDQ (32x32->64 per lane) forms four limb products at once.  With
 * 2^130 = 5 (mod p), (A * R)_i = sum over j+k=i of A_j R_k plus
 * 5 * sum over j+k=i+5 of A_j R_k; the factors 5 R_k (k = 1..4) are
 * precomputed.  Limbs stay below 2^27 between steps (a partial carry pass
 * after each multiplication), the message adds at most 2^26, and 5 R_k <
 * 2^29, so each of the five products in a sum is below 2^56 and the sums
 * fit 64 bits with room to spare.  Messages are split into limbs with
 * shifts and masks, the 2^128 pad bit being 1 << 24 in limb 4.
 *
 * Register plan per step: five sums d0..d4, the five limbs of A + M, the
 * mask and a product or two; the nine broadcast limbs of r^4 (r0..r4,
 * 5r1..5r4) would not fit in the 16 ymm registers as well, so they stay
 * on the stack and the multiplies read them as memory operands (the loop
 * hides their address from the optimiser so it does not hoist them and
 * spill sums instead).
 *
 * Loading 64 bytes as two ymm of two blocks each and unpacking their
 * 64-bit halves puts the blocks in lane order (0, 2, 1, 3), so the powers
 * for the last step are laid out as (r^4, r^2, r^3, r).
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

#define AVX2 __attribute__((target("avx2")))

/* The layout of st->simd for this engine. */
struct poly1305_avx2_powers {
	/* limb i (0..4), then 5 * limb i (i = 1..4), of r^4 */
	u32 r4[9];
	/* the same nine limbs of (r^4, r^2, r^3, r) in lane order */
	u32 last[9][4];
};

struct poly1305_avx2_key {
	__m256i r[5];	/* r_0..r_4 */
	__m256i s[5];	/* s[k] = 5 r_k for k = 1..4 (s[0] unused) */
};

static AVX2 void poly1305_avx2_setup(struct tlsx_poly1305_state *st)
{
	struct poly1305_avx2_powers *pw = (void *)st->simd;
	static const int lane_power[4] = { 3, 1, 2, 0 };	/* r^4 r^2 r^3 r */
	u64 p64[4][3];		/* r, r^2, r^3, r^4 */
	u32 p[4][5];
	int i, j;

	poly1305_powers(p64, st->r, 4);
	for (j = 0; j < 4; j++)
		poly1305_to26(p[j], p64[j]);
	for (i = 0; i < 5; i++) {
		pw->r4[i] = p[3][i];
		for (j = 0; j < 4; j++)
			pw->last[i][j] = p[lane_power[j]][i];
	}
	for (i = 1; i < 5; i++) {
		pw->r4[4 + i] = 5 * p[3][i];
		for (j = 0; j < 4; j++)
			pw->last[4 + i][j] = 5 * p[lane_power[j]][i];
	}
	memzero_explicit(p64, sizeof(p64));
	memzero_explicit(p, sizeof(p));
	st->simd_ready = POLY1305_ENGINE_AVX2;
}

/* Five limbs of four numbers, one per 64-bit lane. */
struct poly1305_avx2_vec {
	__m256i l0, l1, l2, l3, l4;
};

/* Four blocks as limbs of four lanes, with the 2^128 pad bit. */
static __always_inline AVX2 struct poly1305_avx2_vec
poly1305_avx2_load(const u8 *p)
{
	const __m256i mask = _mm256_set1_epi64x(POLY1305_M26);
	__m256i a = _mm256_loadu_si256((const __m256i *)p);
	__m256i b = _mm256_loadu_si256((const __m256i *)(p + 32));
	__m256i lo = _mm256_unpacklo_epi64(a, b);	/* bits 0..63 */
	__m256i hi = _mm256_unpackhi_epi64(a, b);	/* bits 64..127 */
	struct poly1305_avx2_vec m;

	m.l0 = _mm256_and_si256(lo, mask);
	m.l1 = _mm256_and_si256(_mm256_srli_epi64(lo, 26), mask);
	m.l2 = _mm256_and_si256(_mm256_or_si256(_mm256_srli_epi64(lo, 52),
						_mm256_slli_epi64(hi, 12)),
				mask);
	m.l3 = _mm256_and_si256(_mm256_srli_epi64(hi, 14), mask);
	m.l4 = _mm256_or_si256(_mm256_srli_epi64(hi, 40),
			       _mm256_set1_epi64x(1 << 24));
	return m;
}

static __always_inline AVX2 struct poly1305_avx2_vec
poly1305_avx2_add(struct poly1305_avx2_vec a, struct poly1305_avx2_vec b)
{
	a.l0 = _mm256_add_epi64(a.l0, b.l0);
	a.l1 = _mm256_add_epi64(a.l1, b.l1);
	a.l2 = _mm256_add_epi64(a.l2, b.l2);
	a.l3 = _mm256_add_epi64(a.l3, b.l3);
	a.l4 = _mm256_add_epi64(a.l4, b.l4);
	return a;
}

/* h * key, partially reduced: limbs below 2^26 + 2^10. */
static __always_inline AVX2 struct poly1305_avx2_vec
poly1305_avx2_mul(struct poly1305_avx2_vec h, const struct poly1305_avx2_key *k)
{
	const __m256i mask = _mm256_set1_epi64x(POLY1305_M26);
	__m256i d0, d1, d2, d3, d4, c;

#define MUL(a, b) _mm256_mul_epu32(a, b)
#define ADD(a, b) _mm256_add_epi64(a, b)
	/*
	 * Limb by limb of h, so that only the five sums, the limbs of h not
	 * yet used and a product are live: the key is read from memory.
	 */
	d0 = MUL(h.l0, k->r[0]);
	d1 = MUL(h.l0, k->r[1]);
	d2 = MUL(h.l0, k->r[2]);
	d3 = MUL(h.l0, k->r[3]);
	d4 = MUL(h.l0, k->r[4]);
	d0 = ADD(d0, MUL(h.l1, k->s[4]));
	d1 = ADD(d1, MUL(h.l1, k->r[0]));
	d2 = ADD(d2, MUL(h.l1, k->r[1]));
	d3 = ADD(d3, MUL(h.l1, k->r[2]));
	d4 = ADD(d4, MUL(h.l1, k->r[3]));
	d0 = ADD(d0, MUL(h.l2, k->s[3]));
	d1 = ADD(d1, MUL(h.l2, k->s[4]));
	d2 = ADD(d2, MUL(h.l2, k->r[0]));
	d3 = ADD(d3, MUL(h.l2, k->r[1]));
	d4 = ADD(d4, MUL(h.l2, k->r[2]));
	d0 = ADD(d0, MUL(h.l3, k->s[2]));
	d1 = ADD(d1, MUL(h.l3, k->s[3]));
	d2 = ADD(d2, MUL(h.l3, k->s[4]));
	d3 = ADD(d3, MUL(h.l3, k->r[0]));
	d4 = ADD(d4, MUL(h.l3, k->r[1]));
	d0 = ADD(d0, MUL(h.l4, k->s[1]));
	d1 = ADD(d1, MUL(h.l4, k->s[2]));
	d2 = ADD(d2, MUL(h.l4, k->s[3]));
	d3 = ADD(d3, MUL(h.l4, k->s[4]));
	d4 = ADD(d4, MUL(h.l4, k->r[0]));

	/*
	 * Two carry chains side by side, d0 -> d1 -> d2 -> d3 -> d4 and
	 * d3 -> d4 -> d0 (times 5, as 2^130 = 5): every limb ends below
	 * 2^26 except d1 and d4, which may exceed it by a small carry.
	 */
	c = _mm256_srli_epi64(d0, 26);
	d0 = _mm256_and_si256(d0, mask);
	d1 = ADD(d1, c);
	c = _mm256_srli_epi64(d3, 26);
	d3 = _mm256_and_si256(d3, mask);
	d4 = ADD(d4, c);

	c = _mm256_srli_epi64(d1, 26);
	d1 = _mm256_and_si256(d1, mask);
	d2 = ADD(d2, c);
	c = _mm256_srli_epi64(d4, 26);
	d4 = _mm256_and_si256(d4, mask);
	d0 = ADD(d0, ADD(c, _mm256_slli_epi64(c, 2)));

	c = _mm256_srli_epi64(d2, 26);
	d2 = _mm256_and_si256(d2, mask);
	d3 = ADD(d3, c);
	c = _mm256_srli_epi64(d0, 26);
	d0 = _mm256_and_si256(d0, mask);
	d1 = ADD(d1, c);

	c = _mm256_srli_epi64(d3, 26);
	d3 = _mm256_and_si256(d3, mask);
	d4 = ADD(d4, c);
#undef MUL
#undef ADD
	h.l0 = d0;
	h.l1 = d1;
	h.l2 = d2;
	h.l3 = d3;
	h.l4 = d4;
	return h;
}

/* Sum of the four 64-bit lanes of @v. */
static __always_inline AVX2 u64 poly1305_avx2_hsum(__m256i v)
{
	__m128i x = _mm_add_epi64(_mm256_castsi256_si128(v),
				  _mm256_extracti128_si256(v, 1));

	return (u64)_mm_cvtsi128_si64(_mm_add_epi64(x,
						    _mm_unpackhi_epi64(x, x)));
}

size_t AVX2 tlsx_poly1305_blocks_avx2(struct tlsx_poly1305_state *st,
				      const u8 *p, size_t nblocks)
{
	unsigned __int128 d;
	const struct poly1305_avx2_powers *pw = (const void *)st->simd;
	struct poly1305_avx2_key k4, kl, *kp;
	struct poly1305_avx2_vec h;
	u32 l[5];
	u64 t[5], c;
	size_t n = nblocks / 4, i;

	if (!n)
		return 0;
	if (st->simd_ready != POLY1305_ENGINE_AVX2)
		poly1305_avx2_setup(st);

	for (i = 0; i < 5; i++) {
		k4.r[i] = _mm256_set1_epi32(pw->r4[i]);
		kl.r[i] = _mm256_cvtepu32_epi64(
			_mm_loadu_si128((const __m128i *)pw->last[i]));
	}
	k4.s[0] = k4.r[0];
	kl.s[0] = kl.r[0];
	for (i = 1; i < 5; i++) {
		k4.s[i] = _mm256_set1_epi32(pw->r4[4 + i]);
		kl.s[i] = _mm256_cvtepu32_epi64(
			_mm_loadu_si128((const __m128i *)pw->last[4 + i]));
	}

	/* The incoming accumulator joins stream 0 (lane 0). */
	poly1305_to26(l, st->h);
	h.l0 = _mm256_set_epi64x(0, 0, 0, l[0]);
	h.l1 = _mm256_set_epi64x(0, 0, 0, l[1]);
	h.l2 = _mm256_set_epi64x(0, 0, 0, l[2]);
	h.l3 = _mm256_set_epi64x(0, 0, 0, l[3]);
	h.l4 = _mm256_set_epi64x(0, 0, 0, l[4]);

	for (;;) {
		h = poly1305_avx2_add(h, poly1305_avx2_load(p));
		p += 64;
		if (!--n)
			break;
		/*
		 * Hide the key's address from the optimiser, so that it
		 * reads the key as memory operands instead of hoisting it
		 * into registers and spilling partial products.
		 */
		kp = &k4;
		__asm__("" : "+r"(kp));
		h = poly1305_avx2_mul(h, kp);
	}
	h = poly1305_avx2_mul(h, &kl);

	/*
	 * Add the streams and return to radix 2^64.  Each limb sum is below
	 * 2^29, so h lands below 2^135 and one fold of bits 130 and up
	 * restores h2 <= 4 as the scalar code expects.
	 */
	t[0] = poly1305_avx2_hsum(h.l0);
	t[1] = poly1305_avx2_hsum(h.l1);
	t[2] = poly1305_avx2_hsum(h.l2);
	t[3] = poly1305_avx2_hsum(h.l3);
	t[4] = poly1305_avx2_hsum(h.l4);
	d = (unsigned __int128)t[0] + ((unsigned __int128)t[1] << 26) +
	    ((unsigned __int128)t[2] << 52);
	st->h[0] = (u64)d;
	d = (d >> 64) + ((unsigned __int128)t[3] << 14) +
	    ((unsigned __int128)t[4] << 40);
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
	memzero_explicit(&k4, sizeof(k4));
	memzero_explicit(&kl, sizeof(kl));
	return nblocks & ~(size_t)3;
}
