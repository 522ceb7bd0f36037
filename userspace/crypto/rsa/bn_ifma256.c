// SPDX-License-Identifier: GPL-2.0
/*
 * bn_ifma256.c - the CRT pair of 1024-bit exponentiations (RSA-2048's
 * halves) on 256-bit vectors: VPMADD52LUQ/HUQ on ymm (AVX512IFMA with
 * AVX512VL), 20 radix-2^52 limbs in five ymm of four lanes.
 *
 * For AMD Zen 4 (family 0x19), which runs each 512-bit operation as two
 * 256-bit halves: the zmm code of bn_ifma.c holds 20 limbs in three zmm
 * (24 lanes, 4 of them zero), so six half-width slots per row where five
 * ymm do.  The rounds are the same as b52_amm_x2() in bn_ifma.c (see the
 * comment at the top of that file for the radix, the almost-reduced
 * Montgomery rounds and why there is no final subtraction); only the
 * register width differs.  The radix-2^52 set-up, the window reads and
 * the conversion back are bn_ifma.c's (bn_b52.h).  Other sizes, and the
 * public exponentiations, stay on the zmm code.
 *
 * Constant time: the loops run over the public limb count, window width
 * and exponent bit count; the table is read whole at every window with
 * the wanted entry picked by a mask (b52y_select()); no branch or
 * address depends on the exponents or the operands.
 */
#include <immintrin.h>

#include "rsa/bn_b52.h"

#define B52Y_K		5	/* ymm per number */
#define B52Y_L		20	/* radix-2^52 limbs, four per ymm */

#define B52Y_TARGET __attribute__((target("avx512f,avx512vl,avx512ifma")))

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

/* A zeroing idiom per use, resolved at rename (see b52_zero()). */
static __always_inline B52Y_TARGET __m256i b52y_zero(void)
{
	__m256i z;

	__asm__ volatile("vpxord %0, %0, %0" : "=v"(z));
	return z;
}

/*
 * r_x = a_x b_x / R mod m_x (almost reduced) for x = 0, 1, R = 2^1040:
 * two independent Montgomery multiplications in one loop, the a b_i
 * terms and hi(m q) formed off the round-to-round chain through x.
 */
static __always_inline B52Y_TARGET void
b52y_amm_x2(u64 *r0, const u64 *a0, const u64 *b0, const struct b52_mod *m0,
	    u64 *r1, const u64 *a1, const u64 *b1, const struct b52_mod *m1)
{
	__m256i x0[B52Y_K], x1[B52Y_K], ma0[B52Y_K], ma1[B52Y_K];
	__m256i mm0[B52Y_K], mm1[B52Y_K], w0[B52Y_K], w1[B52Y_K];
	const __m256i zero = _mm256_setzero_si256();
	const __m256i kk0 = _mm256_set1_epi64x((long long)m0->k0);
	const __m256i kk1 = _mm256_set1_epi64x((long long)m1->k0);
	__m256i bp0 = zero, bp1 = zero;
	int i, k;

	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		x0[k] = zero;
		x1[k] = zero;
		w0[k] = zero;
		w1[k] = zero;
		ma0[k] = _mm256_load_si256((const __m256i *)(a0 + 4 * k));
		ma1[k] = _mm256_load_si256((const __m256i *)(a1 + 4 * k));
		mm0[k] = _mm256_load_si256((const __m256i *)(m0->m + 4 * k));
		mm1[k] = _mm256_load_si256((const __m256i *)(m1->m + 4 * k));
	}
	for (i = 0; i < B52Y_L; i++) {
		__m256i bb0 = _mm256_set1_epi64x((long long)b0[i]);
		__m256i bb1 = _mm256_set1_epi64x((long long)b1[i]);
		__m256i qq0, qq1, c0, c1;

		/* x += lo(a b_i) + hi(a b_(i-1)) + hi(m q_(i-1)). */
		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++) {
			__m256i y0 = _mm256_madd52lo_epu64(w0[k], ma0[k], bb0);
			__m256i y1 = _mm256_madd52lo_epu64(w1[k], ma1[k], bb1);

			y0 = _mm256_madd52hi_epu64(y0, ma0[k], bp0);
			y1 = _mm256_madd52hi_epu64(y1, ma1[k], bp1);
			x0[k] = _mm256_add_epi64(x0[k], y0);
			x1[k] = _mm256_add_epi64(x1[k], y1);
		}
		/* q = lo(t k0) in lane 0, broadcast. */
		qq0 = _mm256_madd52lo_epu64(b52y_zero(), x0[0], kk0);
		qq1 = _mm256_madd52lo_epu64(b52y_zero(), x1[0], kk1);
		qq0 = _mm256_broadcastq_epi64(_mm256_castsi256_si128(qq0));
		qq1 = _mm256_broadcastq_epi64(_mm256_castsi256_si128(qq1));
		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++) {
			x0[k] = _mm256_madd52lo_epu64(x0[k], mm0[k], qq0);
			x1[k] = _mm256_madd52lo_epu64(x1[k], mm1[k], qq1);
			w0[k] = _mm256_madd52hi_epu64(b52y_zero(), mm0[k], qq0);
			w1[k] = _mm256_madd52hi_epu64(b52y_zero(), mm1[k], qq1);
		}
		/* Lane 0 is a multiple of 2^52 now: its carry, then shift. */
		c0 = _mm256_maskz_srli_epi64(1, x0[0], 52);
		c1 = _mm256_maskz_srli_epi64(1, x1[0], 52);
		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++) {
			__m256i up0 = k + 1 < B52Y_K ? x0[k + 1] : zero;
			__m256i up1 = k + 1 < B52Y_K ? x1[k + 1] : zero;

			x0[k] = _mm256_alignr_epi64(up0, x0[k], 1);
			x1[k] = _mm256_alignr_epi64(up1, x1[k], 1);
		}
		x0[0] = _mm256_add_epi64(x0[0], c0);
		x1[0] = _mm256_add_epi64(x1[0], c1);
		bp0 = bb0;
		bp1 = bb1;
	}
	/* The last round's high halves. */
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		x0[k] = _mm256_add_epi64(x0[k],
			_mm256_madd52hi_epu64(w0[k], ma0[k], bp0));
		x1[k] = _mm256_add_epi64(x1[k],
			_mm256_madd52hi_epu64(w1[k], ma1[k], bp1));
	}
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
 * the same for every idx.
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
			acc[k] = _mm256_or_si256(acc[k],
				_mm256_and_si256(eq, _mm256_load_si256(
					(const __m256i *)(e + 4 * k))));
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
