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
 * Column layout: inside the exponentiation every number (the operands,
 * the table, m, R^2) keeps limb p in register p % 5, lane p / 5, not in
 * register p / 4, lane p % 4.  A round divides the sum by 2^52, moving
 * every limb down one place; in this layout that is limb 5j + k + 1
 * becoming limb 5j + k, the same lane of the next register, so the move
 * is a renaming of the five registers (the rounds unrolled by five) and
 * one VALIGNQ, for register 0 into the top register, where the natural
 * layout takes five VALIGNQ a round, which compete with the IFMA for
 * the vector pipes.  b52y_to_cols() and b52y_from_cols() convert, once
 * at each end of an exponentiation.
 *
 * Squarings (five of every six products in the exponentiation) go to
 * b52y_sqr_x2(): the 40-limb square with each cross product computed
 * once and doubled, then a separate Montgomery reduction of 20 rounds of
 * q m, 320 IFMA per number where b52y_amm_x2(a, a) takes 400, with the
 * same result limb for limb (run 20 in docs/perf-handshake.md).
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

/* Where limb p lives in the column layout: register p % 5, lane p / 5. */
static inline size_t b52y_at(size_t p)
{
	return 4 * (p % B52Y_K) + p / B52Y_K;
}

/* The first 20 limbs of x from the natural layout to the column one. */
static void b52y_to_cols(u64 *x)
{
	u64 t[B52Y_L];
	size_t p;

	for (p = 0; p < B52Y_L; p++)
		t[b52y_at(p)] = x[p];
	memcpy(x, t, sizeof(t));
	memzero_explicit(t, sizeof(t));
}

/* And back. */
static void b52y_from_cols(u64 *x)
{
	u64 t[B52Y_L];
	size_t p;

	for (p = 0; p < B52Y_L; p++)
		t[p] = x[b52y_at(p)];
	memcpy(x, t, sizeof(t));
	memzero_explicit(t, sizeof(t));
}

/*
 * A register's four lane bits (lane j at bit j) to their limbs' places in
 * a 20-bit mask (bit 5j + k for register k), and back: the partial
 * products of these multiplications fall on distinct bits, so nothing
 * carries, and no instruction here takes time that depends on the mask.
 */
#define B52Y_COL	0x8421ULL	/* bits 0, 5, 10 and 15 */

static inline u64 b52y_spread(u64 lanes, int k)
{
	return ((lanes * 0x1111) & B52Y_COL) << k;
}

static inline __mmask8 b52y_gather(u64 bits, int k)
{
	return (__mmask8)(((((bits >> k) & B52Y_COL) * 0x8888) >> 15) & 0xf);
}

/*
 * Carries out of every limb into the next (limbs below 2^60 after the
 * rounds), as b52_normalise() does, in the column layout: the bits above
 * 52 of register k move to register k + 1, those of register 4 to
 * register 0 one lane up; then the carries of one that ripple through
 * limbs equal to 2^52 - 1 are found at once from the generate and
 * propagate masks, in limb order, with no branch.
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
	for (k = 1; k < B52Y_K; k++)
		a[k] = _mm256_add_epi64(a[k], hi[k - 1]);
	/* Lane j of register 0 takes lane j - 1 of register 4. */
	a[0] = _mm256_add_epi64(a[0],
				_mm256_alignr_epi64(hi[B52Y_K - 1], zero, 3));
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		g |= b52y_spread(_mm256_cmpgt_epu64_mask(a[k], mask), k);
		p |= b52y_spread(_mm256_cmpeq_epu64_mask(a[k], mask), k);
	}
	c = ((g << 1) + p) ^ p;
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		a[k] = _mm256_mask_add_epi64(a[k], b52y_gather(c, k), a[k],
					     _mm256_set1_epi64x(1));
		a[k] = _mm256_and_si256(a[k], mask);
	}
}

/* Register k of a number in memory. */
static __always_inline B52Y_TARGET __m256i b52y_load(const u64 *x, int k)
{
	return _mm256_load_si256((const __m256i *)(x + 4 * k));
}

/* Both results' carries, then out to r0 and r1 (column layout). */
static __always_inline B52Y_TARGET void
b52y_store_x2(u64 *r0, __m256i *x0, u64 *r1, __m256i *x1)
{
	int k;

	b52y_normalise(x0);
	b52y_normalise(x1);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		_mm256_store_si256((__m256i *)(r0 + 4 * k), x0[k]);
		_mm256_store_si256((__m256i *)(r1 + 4 * k), x1[k]);
	}
}

/*
 * x += lo(v b) (or hi(v b), @hi) limb by limb, register k of v into
 * x[(k + @off) % 5]: the logical registers of a round (see
 * b52y_amm_round()), whose rotation the offset is.
 */
static __always_inline B52Y_TARGET void
b52y_madd(__m256i *x, int off, const u64 *v, __m256i b, bool hi)
{
	int k;

	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		__m256i *d = &x[(k + off) % B52Y_K];

		*d = hi ? _mm256_madd52hi_epu64(*d, b52y_load(v, k), b) :
			  _mm256_madd52lo_epu64(*d, b52y_load(v, k), b);
	}
}

/*
 * One round of r = a b / R mod m on one number in the column layout, for
 * b_i = b: position 0 of the sum kept in a general register (*acc),
 * positions 1 to 19 in x (position 0's lane is not read: its value lives
 * in *acc).  @r is the round's place in its group of five: logical
 * register k (limbs 5j + k) is x[(k + r) % 5].
 *
 * Position 0 decides q = t_0 k0 mod 2^52, so it is the round-to-round
 * chain, and here it stays in general registers: t_0 takes the whole
 * products a_0 b and m_0 q (MULX), so t_0 / 2^52 is the carry with
 * hi(a_0 b) and hi(m_0 q) in it, and the next round's position 0 is that
 * carry plus position 1, which is its lane as this round found it plus
 * lo(a_1 b) and lo(m_1 q), formed in general registers too (limb 1 is
 * at index 4 in this layout).  Position 1 is read before this round's
 * vector work, so the vector results of round i are needed by round
 * i + 2, not i + 1: the IFMA latency is off the chain through q (which
 * is then a few scalar multiplications long).
 *
 * The vector side does what every round must: lo(a b) and lo(m q) into
 * every limb, the move down one limb (position 0 drops out; the
 * renaming and one VALIGNQ, see the top of the file), then hi(a b) and
 * hi(m q), which belong one position up, added after the move so that
 * they land in place.  20 IFMA and one VALIGNQ per number and round, in
 * place in five registers.  Bounds: a limb gains less than 4 * 2^52 a
 * round, so stays below 2^59 over 20 rounds, *acc below 2^60 and t below
 * 2^105: nothing wraps.
 */
static __always_inline B52Y_TARGET void
b52y_amm_round(__m256i *x, u64 *acc, const u64 *a, const u64 *m, u64 k0,
	       u64 b, const int r)
{
	unsigned __int128 t = (unsigned __int128)a[0] * b + *acc;
	u64 pos1 = (u64)_mm_cvtsi128_si64(
			_mm256_castsi256_si128(x[(1 + r) % B52Y_K]));
	u64 q = ((u64)t * k0) & B52_MASK;
	__m256i bb = _mm256_set1_epi64x((long long)b), qq;

	t += (unsigned __int128)m[0] * q;
	*acc = (u64)(t >> 52) + pos1 + ((a[4] * b) & B52_MASK) +
	       ((m[4] * q) & B52_MASK);
	qq = _mm256_set1_epi64x((long long)q);
	b52y_madd(x, r, a, bb, false);
	b52y_madd(x, r, m, qq, false);
	/* Limbs 5j down to 5j - 1: logical register 0 becomes 4. */
	x[r % B52Y_K] = _mm256_alignr_epi64(_mm256_setzero_si256(),
					    x[r % B52Y_K], 1);
	b52y_madd(x, r + 1, a, bb, true);
	b52y_madd(x, r + 1, m, qq, true);
}

/*
 * r_x = a_x b_x / R mod m_x (almost reduced) for x = 0, 1, R = 2^1040,
 * all in the column layout: two independent Montgomery multiplications,
 * a round of each in turn: their chains through q are independent, so
 * the core runs them side by side and fills the IFMA pipes from both.
 * Limb 5i + r of b, read in round 5i + r, is at index 4r + i.  Not
 * inlined: with five rounds unrolled each copy is about 5 KB, the
 * exponentiation calls it from six places, and one copy was as fast as
 * six (run 19 in docs/perf-handshake.md).
 */
static noinline B52Y_TARGET void
b52y_amm_x2(u64 *r0, const u64 *a0, const u64 *b0, const struct b52_mod *m0,
	    u64 *r1, const u64 *a1, const u64 *b1, const struct b52_mod *m1)
{
	__m256i x0[B52Y_K], x1[B52Y_K];
	u64 acc0 = 0, acc1 = 0;
	int i, k, r;

	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		x0[k] = _mm256_setzero_si256();
		x1[k] = _mm256_setzero_si256();
	}
	for (i = 0; i < B52Y_L / B52Y_K; i++) {
		#pragma GCC unroll 8
		for (r = 0; r < B52Y_K; r++) {
			b52y_amm_round(x0, &acc0, a0, m0->m, m0->k0,
				       b0[4 * r + i], r);
			b52y_amm_round(x1, &acc1, a1, m1->m, m1->k0,
				       b1[4 * r + i], r);
		}
	}
	/* Position 0 back into its lane, then the carries. */
	x0[0] = _mm256_mask_set1_epi64(x0[0], 1, (long long)acc0);
	x1[0] = _mm256_mask_set1_epi64(x1[0], 1, (long long)acc1);
	b52y_store_x2(r0, x0, r1, x1);
}

/*
 * The cross products a_i a_j (i < j) of a square, each once, into the
 * accumulators of one lane shift (@sh), or, with @diag, the products of
 * limbs of one register with each other (both orders, and the squares).
 *
 * Row i = 5g + r (multiplier a_i, broadcast) times register k of a
 * (limbs 5l + k) puts lane l at position 5(g + l) + r + k: class
 * (r + k) % 5, but lane l + g (+ 1 past class 4) of a 40-limb column
 * layout, which is two ymm wide.  So the products are summed in
 * accumulators per class and per lane shift sh = g or g + 1, and each
 * accumulator is shifted into place once (b52y_sqr_one()).  Registers
 * k > r are the cross products of distinct classes, each pair once
 * (doubled afterwards); k == r gives every pair of the class in both
 * orders and the squares, so it is not doubled.
 */
static __always_inline B52Y_TARGET void
b52y_sqr_rows(__m256i *acc, const u64 *a, const int sh, const bool diag)
{
	int g, r, k;

	#pragma GCC unroll 8
	for (g = sh - 1; g <= sh; g++) {
		if (g < 0 || g >= B52Y_L / B52Y_K)
			continue;
		#pragma GCC unroll 8
		for (r = 0; r < B52Y_K; r++) {
			__m256i bb = _mm256_set1_epi64x((long long)
							a[4 * r + g]);

			#pragma GCC unroll 8
			for (k = r; k < B52Y_K; k++) {
				int s = r + k;

				if (diag != (k == r))
					continue;
				if (g + (s >= B52Y_K) == sh)
					acc[s % B52Y_K] =
						_mm256_madd52lo_epu64(
							acc[s % B52Y_K],
							b52y_load(a, k), bb);
				if (g + (s + 1 >= B52Y_K) == sh)
					acc[(s + 1) % B52Y_K] =
						_mm256_madd52hi_epu64(
							acc[(s + 1) % B52Y_K],
							b52y_load(a, k), bb);
			}
		}
	}
}

/*
 * VALIGNQ of the concatenation a:b right by @n lanes (1 to 3).  The count
 * must be an immediate: gcc folds (4 - sh) once the loop below is
 * unrolled, clang asks for a constant expression, hence the switch, which
 * the unrolled code does not keep.
 */
static __always_inline B52Y_TARGET __m256i
b52y_alignr(__m256i a, __m256i b, int n)
{
	switch (n) {
	case 1:
		return _mm256_alignr_epi64(a, b, 1);
	case 2:
		return _mm256_alignr_epi64(a, b, 2);
	default:
		return _mm256_alignr_epi64(a, b, 3);
	}
}

/*
 * s = a^2, 40 unnormalised limbs in the column layout: limbs 0 to 19 in
 * lo (as a number's five registers), 20 to 39 in hi.  120 IFMA: 60
 * register products of 4 lanes for the 210 distinct products (the 20
 * k == r ones compute their 6 cross pairs per class twice), against 200
 * in a multiplication.  A position takes at most 40 halves of products
 * below 2^52, so stays below 2^58.
 */
static __always_inline B52Y_TARGET void
b52y_sqr_one(__m256i *lo, __m256i *hi, const u64 *a)
{
	const __m256i zero = _mm256_setzero_si256();
	int sh, k;

	#pragma GCC unroll 8
	for (sh = 0; sh <= B52Y_L / B52Y_K; sh++) {
		__m256i acc[B52Y_K];

		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++)
			acc[k] = zero;
		b52y_sqr_rows(acc, a, sh, false);
		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++)
			acc[k] = _mm256_add_epi64(acc[k], acc[k]);
		b52y_sqr_rows(acc, a, sh, true);
		/* Lane l to lane l + sh of the 8 lanes hi:lo. */
		#pragma GCC unroll 8
		for (k = 0; k < B52Y_K; k++) {
			if (sh == 0) {
				lo[k] = acc[k];
			} else if (sh == 4) {
				hi[k] = _mm256_add_epi64(hi[k], acc[k]);
			} else {
				lo[k] = _mm256_add_epi64(lo[k],
					b52y_alignr(acc[k], zero, 4 - sh));
				if (sh == 1)
					hi[k] = b52y_alignr(zero, acc[k],
							    4 - sh);
				else
					hi[k] = _mm256_add_epi64(hi[k],
						b52y_alignr(zero, acc[k],
							    4 - sh));
			}
		}
	}
}

/*
 * One round of the Montgomery reduction of s (b52y_sqr_one()): x += q m
 * and the move down one limb, position 0 in *acc, as b52y_amm_round()
 * without a b_i (10 IFMA).  The limbs of s above 19 are not in x: they
 * do not change q, and are added after the 20 rounds.
 *
 * The high halves go to registers of their own (y, moved down with x;
 * a position's value is x + y): with only 10 IFMA a round there is too
 * little work to hide a register taking two dependent IFMA a round (lo
 * then hi, 8 cycles), so each register takes one (run 20).
 */
static __always_inline B52Y_TARGET void
b52y_redc_round(__m256i *x, __m256i *y, u64 *acc, const u64 *m, u64 k0,
		const int r)
{
	u64 q = (*acc * k0) & B52_MASK;
	u64 hi = (u64)(((unsigned __int128)m[0] * q) >> 52);
	u64 pos1 = (u64)_mm_cvtsi128_si64(
			_mm256_castsi256_si128(x[(1 + r) % B52Y_K])) +
		   (u64)_mm_cvtsi128_si64(
			_mm256_castsi256_si128(y[(1 + r) % B52Y_K]));
	__m256i qq;

	/*
	 * (acc + m_0 q) / 2^52 without the 128-bit sum on the chain: the low
	 * 52 bits of m_0 q are (-acc) mod 2^52, so acc plus them is acc
	 * rounded up to a multiple of 2^52.
	 */
	*acc = ((*acc + B52_MASK) >> 52) + hi + pos1 + ((m[4] * q) & B52_MASK);
	qq = _mm256_set1_epi64x((long long)q);
	b52y_madd(x, r, m, qq, false);
	x[r % B52Y_K] = _mm256_alignr_epi64(_mm256_setzero_si256(),
					    x[r % B52Y_K], 1);
	y[r % B52Y_K] = _mm256_alignr_epi64(_mm256_setzero_si256(),
					    y[r % B52Y_K], 1);
	b52y_madd(y, r + 1, m, qq, true);
}

/*
 * r_x = a_x^2 / R mod m_x for x = 0, 1: the same value, so after
 * b52y_normalise() the same limbs, as b52y_amm_x2(r, a, a) (q depends
 * only on the sum mod 2^(52(i + 1)), whatever order its terms were
 * added in), with 320 IFMA per number where that takes 400.  The
 * squares one after the other, the reductions' rounds in turn (their
 * chains through q are the latency to hide).
 */
static noinline B52Y_TARGET void
b52y_sqr_x2(u64 *r0, const u64 *a0, const struct b52_mod *m0,
	    u64 *r1, const u64 *a1, const struct b52_mod *m1)
{
	__m256i x0[B52Y_K], x1[B52Y_K], h0[B52Y_K], h1[B52Y_K];
	__m256i y0[B52Y_K], y1[B52Y_K];
	u64 acc0, acc1;
	int i, k, r;

	b52y_sqr_one(x0, h0, a0);
	b52y_sqr_one(x1, h1, a1);
	acc0 = (u64)_mm_cvtsi128_si64(_mm256_castsi256_si128(x0[0]));
	acc1 = (u64)_mm_cvtsi128_si64(_mm256_castsi256_si128(x1[0]));
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		y0[k] = _mm256_setzero_si256();
		y1[k] = _mm256_setzero_si256();
	}
	for (i = 0; i < B52Y_L / B52Y_K; i++) {
		#pragma GCC unroll 8
		for (r = 0; r < B52Y_K; r++) {
			b52y_redc_round(x0, y0, &acc0, m0->m, m0->k0, r);
			b52y_redc_round(x1, y1, &acc1, m1->m, m1->k0, r);
		}
	}
	/* x + y; then position 0 (left-overs in both lanes) from acc. */
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		x0[k] = _mm256_add_epi64(x0[k], y0[k]);
		x1[k] = _mm256_add_epi64(x1[k], y1[k]);
	}
	x0[0] = _mm256_mask_set1_epi64(x0[0], 1, (long long)acc0);
	x1[0] = _mm256_mask_set1_epi64(x1[0], 1, (long long)acc1);
	#pragma GCC unroll 8
	for (k = 0; k < B52Y_K; k++) {
		x0[k] = _mm256_add_epi64(x0[k], h0[k]);
		x1[k] = _mm256_add_epi64(x1[k], h1[k]);
	}
	b52y_store_x2(r0, x0, r1, x1);
}

/*
 * r = table[idx], reading every entry (B52Y_K ymm each) and keeping the
 * one whose index matches by an all-ones mask: the addresses read are
 * the same for every idx.  (acc | (eq & entry) as one VPTERNLOGQ was
 * no faster: run 19 in docs/perf-handshake.md.)
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
	/* 1: limb 0 is at index 0 in the column layout too. */
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
			b52y_sqr_x2(s0->acc, s0->acc, &s0->mod,
				    s1->acc, s1->acc, &s1->mod);
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
	int i;

	/* Larger moduli (more than 20 limbs: 4m < 2^1040) on the zmm code. */
	if (m0->n * 64 + 2 > 52 * B52Y_L || m1->n * 64 + 2 > 52 * B52Y_L)
		return bn_exp_ct_x2_ifma(r0, a0, e0, m0, r1, a1, e1, m1,
					 ebits);
	if (!ebits || b52_pair_init(s, a0, m0, a1, m1, &lanes, false))
		return -EINVAL;
	for (i = 0; i < 2; i++) {
		b52y_to_cols(s[i].acc);
		b52y_to_cols(s[i].mod.m);
		b52y_to_cols(s[i].mod.rr);
	}
	b52y_exp_x2(&s[0], e0, &s[1], e1, elimbs, ebits);
	b52y_from_cols(s[0].acc);
	b52y_from_cols(s[1].acc);
	b52_pair_out(r0, m0, r1, m1, s, lanes, true);
	return 0;
}
