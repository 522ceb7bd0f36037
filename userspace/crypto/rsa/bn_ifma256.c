// SPDX-License-Identifier: GPL-2.0
/*
 * bn_ifma256.c - the CRT pair of 1024-bit exponentiations (RSA-2048's
 * halves) on 256-bit vectors: VPMADD52LUQ/HUQ on ymm (AVX512IFMA with
 * AVX512VL), 20 radix-2^52 limbs in five ymm of four lanes.
 *
 * For AMD Zen 4 (family 0x19), which runs each 512-bit operation as two
 * 256-bit halves: the zmm code of bn_ifma.c holds 20 limbs in three zmm
 * (24 lanes, 4 of them zero), so six half-width slots per row where five
 * ymm do.  The Montgomery rounds compute what b52_amm_x2() in bn_ifma.c
 * does (see the comment at the top of that file for the radix, the
 * almost-reduced rounds and why there is no final subtraction), bit for
 * bit, but position 0 of the sum is kept in general registers
 * (b52y_amm_round()).  The radix-2^52 set-up, the window reads and the
 * conversion back are bn_ifma.c's (bn_b52.h).  Other sizes, and the
 * public exponentiations, stay on the zmm code.
 *
 * Constant time: the loops run over the public limb count, window width
 * and exponent bit count; the table is read whole at every window with
 * the wanted entry picked by a mask (b52y_select()); no branch or
 * address depends on the exponents or the operands, and the scalar
 * multiplications (MULX, IMUL) take the same time for every operand.
 */
#include <immintrin.h>

#include "rsa/bn_b52.h"

#define B52Y_K		5	/* ymm per number */
#define B52Y_L		20	/* radix-2^52 limbs, four per ymm */

/* BMI2 for MULX: the scalar side's products (bn_set_impl() checks it). */
#define B52Y_TARGET \
	__attribute__((target("avx512f,avx512vl,avx512ifma,bmi2")))

/*
 * Carries out of every lane into the next (lanes below 2^60 after the
 * rounds), as b52_normalise() does: the bits above 52 move up one lane,
 * and the carries of one that ripple through lanes equal to 2^52 - 1 are
 * found at once from the generate and propagate masks, with no branch.
 */
static __always_inline B52Y_TARGET void b52y_normalise(__m256i *a)
{
	const __m256i mask = _mm256_set1_epi64x(B52_MASK);
	const __m256i zero = _mm256_setzero_si256();
	__m256i hi[B52Y_K];
	u64 g = 0, p = 0, c;
	int k;

	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		hi[k] = _mm256_srli_epi64(a[k], 52);
		a[k] = _mm256_and_si256(a[k], mask);
	}
	#pragma GCC unroll 8
	for (k = B52Y_K - 1; k >= 0; k--) {
		/* Lane 0 takes the previous register's lane 3. */
		__m256i up = _mm256_alignr_epi64(hi[k], k ? hi[k - 1] : zero,
						 3);

		a[k] = _mm256_add_epi64(a[k], up);
	}
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		g |= (u64)_mm256_cmpgt_epu64_mask(a[k], mask) << (4 * k);
		p |= (u64)_mm256_cmpeq_epu64_mask(a[k], mask) << (4 * k);
	}
	c = ((g << 1) + p) ^ p;
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		__mmask8 ck = (__mmask8)((c >> (4 * k)) & 0xf);

		a[k] = _mm256_mask_add_epi64(a[k], ck, a[k],
					     _mm256_set1_epi64x(1));
		a[k] = _mm256_and_si256(a[k], mask);
	}
}

/*
 * One round of r = a b / R mod m on one number, for b_i = b: position 0
 * of the sum kept in a general register (*acc), positions 1 to 19 in
 * lanes 1 to 19 of x (lane 0 is not read: its value lives in *acc).
 *
 * Position 0 decides q = t_0 k0 mod 2^52, so it is the round-to-round
 * chain, and here it stays in general registers: t_0 takes the whole
 * products a_0 b and m_0 q (MULX), so t_0 / 2^52 is the carry with
 * hi(a_0 b) and hi(m_0 q) in it, and the next round's position 0 is that
 * carry plus position 1, which is lane 1 as this round found it plus
 * lo(a_1 b) and lo(m_1 q), formed in general registers too.  Lane 1 is
 * read before this round's vector work, so the vector results of round
 * i are needed by round i + 2, not i + 1: the IFMA latency is off the
 * chain through q (which is then a few scalar multiplications long).
 *
 * The vector side does what every round must: lo(a b) and lo(m q) into
 * every lane, the shift down one lane (position 0 drops out), then
 * hi(a b) and hi(m q), which belong one position up, added after the
 * shift so that they land in place.  20 IFMA and 5 VALIGNQ per number
 * and round, in place in five registers.  Bounds: a lane gains less than
 * 4 * 2^52 a round, so stays below 2^59 over 20 rounds, *acc below 2^60
 * and t below 2^105: nothing wraps.
 */
static __always_inline B52Y_TARGET void
b52y_amm_round(__m256i *x, u64 *acc, const u64 *a, const u64 *m, u64 k0,
	       u64 b)
{
	unsigned __int128 t = (unsigned __int128)a[0] * b + *acc;
	const __m256i zero = _mm256_setzero_si256();
	u64 lane1 = (u64)_mm_extract_epi64(_mm256_castsi256_si128(x[0]), 1);
	u64 q = ((u64)t * k0) & B52_MASK;
	__m256i bb = _mm256_set1_epi64x((long long)b), qq;
	int k;

	t += (unsigned __int128)m[0] * q;
	*acc = (u64)(t >> 52) + lane1 + ((a[1] * b) & B52_MASK) +
	       ((m[1] * q) & B52_MASK);
	qq = _mm256_set1_epi64x((long long)q);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		x[k] = _mm256_madd52lo_epu64(x[k], _mm256_load_si256(
				(const __m256i *)(a + 4 * k)), bb);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		x[k] = _mm256_madd52lo_epu64(x[k], _mm256_load_si256(
				(const __m256i *)(m + 4 * k)), qq);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		x[k] = _mm256_alignr_epi64(k + 1 < B52Y_K ? x[k + 1] : zero,
					   x[k], 1);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		x[k] = _mm256_madd52hi_epu64(x[k], _mm256_load_si256(
				(const __m256i *)(a + 4 * k)), bb);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		x[k] = _mm256_madd52hi_epu64(x[k], _mm256_load_si256(
				(const __m256i *)(m + 4 * k)), qq);
}

/*
 * r_x = a_x b_x / R mod m_x (almost reduced) for x = 0, 1, R = 2^1040:
 * two independent Montgomery multiplications, a round of each in turn:
 * their chains through q are independent, so the core runs them side by
 * side and fills the IFMA pipes from both.
 */
static __always_inline B52Y_TARGET void
b52y_amm_x2(u64 *r0, const u64 *a0, const u64 *b0, const struct b52_mod *m0,
	    u64 *r1, const u64 *a1, const u64 *b1, const struct b52_mod *m1)
{
	__m256i x0[B52Y_K], x1[B52Y_K];
	u64 acc0 = 0, acc1 = 0;
	int i, k;

	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		x0[k] = _mm256_setzero_si256();
		x1[k] = _mm256_setzero_si256();
	}
	for (i = 0; i < B52Y_L; i++) {
		b52y_amm_round(x0, &acc0, a0, m0->m, m0->k0, b0[i]);
		b52y_amm_round(x1, &acc1, a1, m1->m, m1->k0, b1[i]);
	}
	/* Position 0 back into its lane, then the carries. */
	x0[0] = _mm256_mask_set1_epi64(x0[0], 1, (long long)acc0);
	x1[0] = _mm256_mask_set1_epi64(x1[0], 1, (long long)acc1);
	b52y_normalise(x0);
	b52y_normalise(x1);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		_mm256_store_si256((__m256i *)(r0 + 4 * k), x0[k]);
		_mm256_store_si256((__m256i *)(r1 + 4 * k), x1[k]);
	}
}

/*
 * r = table[idx], reading every entry (B52Y_K ymm each) and keeping the
 * one whose index matches by an all-ones mask: the addresses read are
 * the same for every idx.  acc | (eq & entry) is one VPTERNLOGQ (truth
 * table 0xf8) with the entry as its memory operand.
 */
static __always_inline B52Y_TARGET void
b52y_select(u64 *r, const u64 *table, u64 idx)
{
	__m256i acc[B52Y_K];
	int i, k;

	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		acc[k] = _mm256_setzero_si256();
	for (i = 0; i < B52_TABLE; i++) {
		u64 d = (u64)i ^ idx;
		/* All ones when i == idx. */
		__m256i eq = _mm256_set1_epi64x((long long)
						(((d | (0 - d)) >> 63) - 1));
		const u64 *e = table + B52_MAX_LANES * i;

		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++)
			acc[k] = _mm256_ternarylogic_epi64(acc[k], eq,
				_mm256_load_si256((const __m256i *)(e + 4 * k)),
				0xf8);
	}
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++)
		_mm256_store_si256((__m256i *)(r + 4 * k), acc[k]);
}

/*
 * acc_x = acc_x^e_x mod m_x (plain in, at most m_x out), both exponents
 * read to ebits bits in fixed windows of B52_WIN, from the top.
 */
static B52Y_TARGET void b52y_exp_x2(struct b52_exp *s0, const u64 *e0,
				    struct b52_exp *s1, const u64 *e1,
				    size_t elimbs, size_t ebits)
{
	u64 one[B52_MAX_LANES] __aligned(64) = { 1 };
	const size_t stride = B52_MAX_LANES;
	size_t pos, i;

	/*
	 * table[1] = base R (the base, plain, is in acc); table[0] = R mod
	 * m = REDC(R^2 1); table[i] = table[i - 1] table[1].
	 */
	b52y_amm_x2(s0->table + stride, s0->acc, s0->mod.rr, &s0->mod,
		    s1->table + stride, s1->acc, s1->mod.rr, &s1->mod);
	b52y_amm_x2(s0->table, s0->mod.rr, one, &s0->mod,
		    s1->table, s1->mod.rr, one, &s1->mod);
	for (i = 2; i < B52_TABLE; i++)
		b52y_amm_x2(s0->table + i * stride,
			    s0->table + (i - 1) * stride, s0->table + stride,
			    &s0->mod, s1->table + i * stride,
			    s1->table + (i - 1) * stride, s1->table + stride,
			    &s1->mod);

	pos = (ebits + B52_WIN - 1) / B52_WIN * B52_WIN - B52_WIN;
	b52y_select(s0->acc, s0->table, b52_window(e0, elimbs, pos));
	b52y_select(s1->acc, s1->table, b52_window(e1, elimbs, pos));
	while (pos) {
		pos -= B52_WIN;
		for (i = 0; i < B52_WIN; i++)
			b52y_amm_x2(s0->acc, s0->acc, s0->acc, &s0->mod,
				    s1->acc, s1->acc, s1->acc, &s1->mod);
		b52y_select(s0->t, s0->table, b52_window(e0, elimbs, pos));
		b52y_select(s1->t, s1->table, b52_window(e1, elimbs, pos));
		b52y_amm_x2(s0->acc, s0->acc, s0->t, &s0->mod,
			    s1->acc, s1->acc, s1->t, &s1->mod);
	}
	/* Out of Montgomery form: REDC(acc 1), at most m. */
	b52y_amm_x2(s0->acc, s0->acc, one, &s0->mod,
		    s1->acc, s1->acc, one, &s1->mod);
}

int bn_exp_ct_x2_ifma256(u64 *r0, const u64 *a0, const u64 *e0,
			 const struct bn_mont *m0, u64 *r1, const u64 *a1,
			 const u64 *e1, const struct bn_mont *m1, size_t ebits)
{
	size_t elimbs = (ebits + 63) / 64, lanes;
	struct b52_exp s[2];

	/* Larger moduli (more than 20 limbs: 4m < 2^1040) on the zmm code. */
	if (m0->n * 64 + 2 > 52 * B52Y_L || m1->n * 64 + 2 > 52 * B52Y_L)
		return bn_exp_ct_x2_ifma(r0, a0, e0, m0, r1, a1, e1, m1,
					 ebits);
	if (!ebits || b52_pair_init(s, a0, m0, a1, m1, &lanes, false))
		return -EINVAL;
	b52y_exp_x2(&s[0], e0, &s[1], e1, elimbs, ebits);
	b52_pair_out(r0, m0, r1, m1, s, lanes, true);
	return 0;
}
