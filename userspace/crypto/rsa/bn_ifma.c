// SPDX-License-Identifier: GPL-2.0
/*
 * bn_ifma.c - two constant-time modular exponentiations at once (RSA's
 * CRT halves, mod p and mod q) with AVX-512 IFMA: VPMADD52LUQ/HUQ
 * multiply 52-bit lanes and add the low or high 52 bits of each 104-bit
 * product into 64-bit accumulators, eight lanes per instruction.
 *
 * Numbers are in radix 2^52, L limbs (20, 30 or 40: primes of up to
 * 1024, 1536 and 2048 bits), held in K = ceil(L / 8) zmm registers, the
 * lanes past L zero.  The multiplication is Montgomery's with
 * R = 2^(52 L), "almost" reduced (no final subtraction): for inputs below
 * 2m with 4m < R the output is below (4m^2 + R m) / R < 2m again, so the
 * exponentiation never subtracts; the 2 bits of headroom are why 52 L
 * must exceed the modulus' size by 2.
 *
 * One round i of the multiplication adds a b_i, then q m with
 * q = t_0 (-m^-1) mod 2^52 (t_0 the accumulator's lane 0), which makes
 * lane 0 a multiple of 2^52; its carry goes into lane 1 and the lanes
 * move down by one.  The low halves of the products land in lane j, the
 * high halves in lane j + 1, which after the move is lane j again: they
 * are added in the next round, with that round's low halves.  Lanes are
 * left unnormalised during the L rounds (each takes at most four 52-bit
 * terms per round, so below 2^59) and normalised at the end.
 *
 * q depends on the previous round: the round's critical path is IFMA
 * (q), broadcast, IFMA (q m), shift.  Everything else is kept off it
 * (see b52_amm_x2()), and running the exponentiation mod p and the one
 * mod q in the same loop gives the core two independent chains to
 * overlap.  Both use the same window sequence (the exponents are read to
 * the same public bit count).
 */
#include <immintrin.h>

#include "rsa/bn_b52.h"

#define B52_TARGET __attribute__((target("avx512f,avx512ifma")))

/* L radix-2^52 limbs from n 64-bit ones; lanes up to 8K zeroed. */
static void b52_from64(u64 *out, size_t lanes, const u64 *in, size_t n)
{
	size_t j;

	for (j = 0; j < lanes; j++) {
		size_t bit = 52 * j, w = bit / 64, sh = bit % 64;
		u64 lo = w < n ? in[w] : 0, hi = w + 1 < n ? in[w + 1] : 0;

		out[j] = ((lo >> sh) | ((hi << 1) << (63 - sh))) & B52_MASK;
	}
}

/* n 64-bit limbs from L normalised radix-2^52 ones (value below 2^64n). */
static void b52_to64(u64 *out, size_t n, const u64 *in, size_t lanes)
{
	size_t j;

	memset(out, 0, n * 8);
	for (j = 0; j < lanes; j++) {
		size_t bit = 52 * j, w = bit / 64, sh = bit % 64;

		if (w < n)
			out[w] |= in[j] << sh;
		if (sh > 12 && w + 1 < n)
			out[w + 1] |= in[j] >> (64 - sh);
	}
}

/*
 * Carries out of every lane into the next: after the rounds, lane values
 * are below 2^60.  Adding each lane's bits above 52 into the next leaves
 * carries of at most one, which ripple only through lanes equal to
 * 2^52 - 1; those ripples are found at once by adding bit masks
 * (generate shifted up, plus propagate, XOR propagate: the lanes that
 * receive a carry), with no branch.
 */
static __always_inline B52_TARGET void b52_normalise(__m512i *a, const int K)
{
	const __m512i mask = _mm512_set1_epi64(B52_MASK);
	const __m512i zero = _mm512_setzero_si512();
	__m512i hi[B52_MAX_K];
	u64 g = 0, p = 0, c;
	int k;

	#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		hi[k] = _mm512_srli_epi64(a[k], 52);
		a[k] = _mm512_and_si512(a[k], mask);
	}
	#pragma GCC unroll 8
	for (k = K - 1; k >= 0; k--) {
		__m512i up = _mm512_alignr_epi64(hi[k], k ? hi[k - 1] : zero,
						 7);

		a[k] = _mm512_add_epi64(a[k], up);
	}
	#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		g |= (u64)_mm512_cmpgt_epu64_mask(a[k], mask) << (8 * k);
		p |= (u64)_mm512_cmpeq_epu64_mask(a[k], mask) << (8 * k);
	}
	c = ((g << 1) + p) ^ p;
	#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		__mmask8 ck = (__mmask8)(c >> (8 * k));

		a[k] = _mm512_mask_add_epi64(a[k], ck, a[k],
					     _mm512_set1_epi64(1));
		a[k] = _mm512_and_si512(a[k], mask);
	}
}

/*
 * A zero register made by the zeroing idiom, which the core resolves at
 * rename, where a copy of one shared zero register (what the compiler
 * emits for every IFMA accumulator started at zero) takes a vector
 * pipe: the rounds are bound by those pipes.
 */
static __always_inline B52_TARGET __m512i b52_zero(void)
{
	__m512i z;

	__asm__ volatile("vpxord %0, %0, %0" : "=v"(z));
	return z;
}

/*
 * r_x = a_x b_x / R mod m_x (almost reduced) for x = 0, 1: two
 * independent Montgomery multiplications in one loop.
 *
 * The accumulator x is what the chain from one round to the next runs
 * through, so as little as possible touches it: the a b_i terms
 * (lo(a b_i) and the previous round's hi(a b_(i-1)), both landing in
 * lane j this round) are formed in a register of their own, off the
 * chain, and so is hi(m q); x gets them by plain additions.  q itself is
 * computed in the vector unit (lo(t k0) by IFMA, then broadcast), with
 * no trip through a general register.
 */
static __always_inline B52_TARGET void
b52_amm_x2(u64 *r0, const u64 *a0, const u64 *b0, const struct b52_mod *m0,
	   u64 *r1, const u64 *a1, const u64 *b1, const struct b52_mod *m1,
	   const int K, const int L)
{
	__m512i x0[B52_MAX_K], x1[B52_MAX_K], ma0[B52_MAX_K], ma1[B52_MAX_K];
	__m512i mm0[B52_MAX_K], mm1[B52_MAX_K], w0[B52_MAX_K], w1[B52_MAX_K];
	const __m512i zero = _mm512_setzero_si512();
	const __m512i kk0 = _mm512_set1_epi64((long long)m0->k0);
	const __m512i kk1 = _mm512_set1_epi64((long long)m1->k0);
	__m512i bp0 = zero, bp1 = zero;
	int i, k;

#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		x0[k] = zero;
		x1[k] = zero;
		w0[k] = zero;
		w1[k] = zero;
		ma0[k] = _mm512_load_si512(a0 + 8 * k);
		ma1[k] = _mm512_load_si512(a1 + 8 * k);
		mm0[k] = _mm512_load_si512(m0->m + 8 * k);
		mm1[k] = _mm512_load_si512(m1->m + 8 * k);
	}
	for (i = 0; i < L; i++) {
		__m512i bb0 = _mm512_set1_epi64((long long)b0[i]);
		__m512i bb1 = _mm512_set1_epi64((long long)b1[i]);
		__m512i qq0, qq1, c0, c1;

		/* x += lo(a b_i) + hi(a b_(i-1)) + hi(m q_(i-1)). */
#pragma GCC unroll 8
		for (k = 0; k < K; k++) {
			__m512i y0 = _mm512_madd52lo_epu64(w0[k], ma0[k], bb0);
			__m512i y1 = _mm512_madd52lo_epu64(w1[k], ma1[k], bb1);

			y0 = _mm512_madd52hi_epu64(y0, ma0[k], bp0);
			y1 = _mm512_madd52hi_epu64(y1, ma1[k], bp1);
			x0[k] = _mm512_add_epi64(x0[k], y0);
			x1[k] = _mm512_add_epi64(x1[k], y1);
		}
		/* q = lo(t k0) in lane 0, broadcast. */
		qq0 = _mm512_madd52lo_epu64(b52_zero(), x0[0], kk0);
		qq1 = _mm512_madd52lo_epu64(b52_zero(), x1[0], kk1);
		qq0 = _mm512_broadcastq_epi64(_mm512_castsi512_si128(qq0));
		qq1 = _mm512_broadcastq_epi64(_mm512_castsi512_si128(qq1));
#pragma GCC unroll 8
		for (k = 0; k < K; k++) {
			x0[k] = _mm512_madd52lo_epu64(x0[k], mm0[k], qq0);
			x1[k] = _mm512_madd52lo_epu64(x1[k], mm1[k], qq1);
			w0[k] = _mm512_madd52hi_epu64(b52_zero(), mm0[k], qq0);
			w1[k] = _mm512_madd52hi_epu64(b52_zero(), mm1[k], qq1);
		}
		/* Lane 0 is a multiple of 2^52 now: its carry, then shift. */
		c0 = _mm512_maskz_srli_epi64(1, x0[0], 52);
		c1 = _mm512_maskz_srli_epi64(1, x1[0], 52);
#pragma GCC unroll 8
		for (k = 0; k < K; k++) {
			__m512i up0 = k + 1 < K ? x0[k + 1] : zero;
			__m512i up1 = k + 1 < K ? x1[k + 1] : zero;

			x0[k] = _mm512_alignr_epi64(up0, x0[k], 1);
			x1[k] = _mm512_alignr_epi64(up1, x1[k], 1);
		}
		x0[0] = _mm512_add_epi64(x0[0], c0);
		x1[0] = _mm512_add_epi64(x1[0], c1);
		bp0 = bb0;
		bp1 = bb1;
	}
	/* The last round's high halves. */
#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		x0[k] = _mm512_add_epi64(x0[k],
			_mm512_madd52hi_epu64(w0[k], ma0[k], bp0));
		x1[k] = _mm512_add_epi64(x1[k],
			_mm512_madd52hi_epu64(w1[k], ma1[k], bp1));
	}
	b52_normalise(x0, K);
	b52_normalise(x1, K);
#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		_mm512_store_si512(r0 + 8 * k, x0[k]);
		_mm512_store_si512(r1 + 8 * k, x1[k]);
	}
}

/*
 * One multiplication alone, the same rounds as b52_amm_x2(): for the
 * public-exponent check of a whole signature (one modulus, n), where a
 * pair would compute the same thing twice.
 */
static __always_inline B52_TARGET void
b52_amm_x1(u64 *r0, const u64 *a0, const u64 *b0, const struct b52_mod *m0,
	   const int K, const int L)
{
	__m512i x0[B52_MAX_K], ma0[B52_MAX_K], mm0[B52_MAX_K], w0[B52_MAX_K];
	const __m512i zero = _mm512_setzero_si512();
	const __m512i kk0 = _mm512_set1_epi64((long long)m0->k0);
	__m512i bp0 = zero;
	int i, k;

#pragma GCC unroll 8
	for (k = 0; k < K; k++) {
		x0[k] = zero;
		w0[k] = zero;
		ma0[k] = _mm512_load_si512(a0 + 8 * k);
		mm0[k] = _mm512_load_si512(m0->m + 8 * k);
	}
	for (i = 0; i < L; i++) {
		__m512i bb0 = _mm512_set1_epi64((long long)b0[i]);
		__m512i qq0, c0;

#pragma GCC unroll 8
		for (k = 0; k < K; k++) {
			__m512i y0 = _mm512_madd52lo_epu64(w0[k], ma0[k], bb0);

			y0 = _mm512_madd52hi_epu64(y0, ma0[k], bp0);
			x0[k] = _mm512_add_epi64(x0[k], y0);
		}
		qq0 = _mm512_madd52lo_epu64(b52_zero(), x0[0], kk0);
		qq0 = _mm512_broadcastq_epi64(_mm512_castsi512_si128(qq0));
#pragma GCC unroll 8
		for (k = 0; k < K; k++) {
			x0[k] = _mm512_madd52lo_epu64(x0[k], mm0[k], qq0);
			w0[k] = _mm512_madd52hi_epu64(b52_zero(), mm0[k], qq0);
		}
		c0 = _mm512_maskz_srli_epi64(1, x0[0], 52);
#pragma GCC unroll 8
		for (k = 0; k < K; k++) {
			__m512i up0 = k + 1 < K ? x0[k + 1] : zero;

			x0[k] = _mm512_alignr_epi64(up0, x0[k], 1);
		}
		x0[0] = _mm512_add_epi64(x0[0], c0);
		bp0 = bb0;
	}
#pragma GCC unroll 8
	for (k = 0; k < K; k++)
		x0[k] = _mm512_add_epi64(x0[k],
			_mm512_madd52hi_epu64(w0[k], ma0[k], bp0));
	b52_normalise(x0, K);
#pragma GCC unroll 8
	for (k = 0; k < K; k++)
		_mm512_store_si512(r0 + 8 * k, x0[k]);
}

/* r = table[idx], reading all entries (K zmm each). */
static __always_inline B52_TARGET void
b52_select(u64 *r, const u64 *table, u64 idx, const int K)
{
	__m512i acc[B52_MAX_K];
	int i, k;

	#pragma GCC unroll 8
	for (k = 0; k < K; k++)
		acc[k] = _mm512_setzero_si512();
	for (i = 0; i < B52_TABLE; i++) {
		u64 d = (u64)i ^ idx;
		/* All ones when i == idx. */
		__m512i eq = _mm512_set1_epi64((long long)
					       (((d | (0 - d)) >> 63) - 1));

		#pragma GCC unroll 8
		for (k = 0; k < K; k++)
			acc[k] = _mm512_or_si512(acc[k],
				_mm512_and_si512(eq, _mm512_load_si512(
					table + (8 * B52_MAX_K) * i + 8 * k)));
	}
	#pragma GCC unroll 8
	for (k = 0; k < K; k++)
		_mm512_store_si512(r + 8 * k, acc[k]);
}

/* Bits [pos, pos + B52_WIN) of e (zeros past elimbs limbs). */
u64 b52_window(const u64 *e, size_t elimbs, size_t pos)
{
	size_t limb = pos / 64, sh = pos % 64;
	u64 lo = limb < elimbs ? e[limb] : 0;
	u64 hi = limb + 1 < elimbs ? e[limb + 1] : 0;

	return ((lo >> sh) | ((hi << 1) << (63 - sh))) & (B52_TABLE - 1);
}

/*
 * Radix-2^52 set-up from a bn_mont: m, k0 = -m^-1 mod 2^52 (the low bits
 * of -m^-1 mod 2^64) and R^2 = 2^(104 L) mod m, from the radix-2^64
 * Montgomery code: REDC(rr, 2^d) = 2^(64 n + d) and REDC of that with rr
 * again gives 2^(128 n + d), which is R^2 for d = 104 L - 128 n (when
 * 0 <= d < 64 n, so that 2^d fits; else a reduction of 2^(104 L)).
 * Numbers with one bit set: nothing secret in their shape.
 */
static void b52_mod_init(struct b52_mod *bm, const struct bn_mont *mt,
			 size_t lanes)
{
	u64 x[2 * BN_MAX_LIMBS + 2], r[BN_MAX_LIMBS];
	size_t n = mt->n, bit = 104 * lanes;

	memset(bm, 0, sizeof(*bm));
	b52_from64(bm->m, B52_MAX_LANES, mt->m, n);
	bm->k0 = mt->m0inv & B52_MASK;
	memset(x, 0, sizeof(x));
	if (bit >= 128 * n && bit - 128 * n < 64 * n) {
		bit -= 128 * n;
		x[bit / 64] = 1ULL << (bit % 64);
		bn_mont_mul(r, mt->rr, x, mt);
		bn_mont_mul(r, mt->rr, r, mt);
	} else {
		x[bit / 64] = 1ULL << (bit % 64);
		bn_mont_to_reduce(r, x, bit / 64 + 1, mt);
		bn_mont_from(r, r, mt);
	}
	b52_from64(bm->rr, B52_MAX_LANES, r, n);
	memzero_explicit(r, sizeof(r));
}

static __always_inline B52_TARGET void
b52_exp_x2(struct b52_exp *s0, const u64 *e0, struct b52_exp *s1,
	   const u64 *e1, size_t elimbs, size_t ebits, const int K,
	   const int L)
{
	u64 one[B52_MAX_LANES] __aligned(64) = { 1 };
	const size_t stride = B52_MAX_LANES;
	size_t pos, i;

	/*
	 * table[1] = base R (the base, plain, is in acc); table[0] = R mod
	 * m = REDC(R^2 1); table[i] = table[i - 1] table[1].
	 */
	b52_amm_x2(s0->table + stride, s0->acc, s0->mod.rr, &s0->mod,
		   s1->table + stride, s1->acc, s1->mod.rr, &s1->mod, K, L);
	b52_amm_x2(s0->table, s0->mod.rr, one, &s0->mod,
		   s1->table, s1->mod.rr, one, &s1->mod, K, L);
	for (i = 2; i < B52_TABLE; i++)
		b52_amm_x2(s0->table + i * stride, s0->table + (i - 1) * stride,
			   s0->table + stride, &s0->mod,
			   s1->table + i * stride, s1->table + (i - 1) * stride,
			   s1->table + stride, &s1->mod, K, L);

	pos = (ebits + B52_WIN - 1) / B52_WIN * B52_WIN - B52_WIN;
	b52_select(s0->acc, s0->table, b52_window(e0, elimbs, pos), K);
	b52_select(s1->acc, s1->table, b52_window(e1, elimbs, pos), K);
	while (pos) {
		pos -= B52_WIN;
		for (i = 0; i < B52_WIN; i++)
			b52_amm_x2(s0->acc, s0->acc, s0->acc, &s0->mod,
				   s1->acc, s1->acc, s1->acc, &s1->mod, K, L);
		b52_select(s0->t, s0->table, b52_window(e0, elimbs, pos), K);
		b52_select(s1->t, s1->table, b52_window(e1, elimbs, pos), K);
		b52_amm_x2(s0->acc, s0->acc, s0->t, &s0->mod,
			   s1->acc, s1->acc, s1->t, &s1->mod, K, L);
	}
	/* Out of Montgomery form: REDC(acc 1), at most m. */
	b52_amm_x2(s0->acc, s0->acc, one, &s0->mod,
		   s1->acc, s1->acc, one, &s1->mod, K, L);
}

static B52_TARGET void b52_exp_x2_3(struct b52_exp *s0, const u64 *e0,
				    struct b52_exp *s1, const u64 *e1,
				    size_t elimbs, size_t ebits)
{
	b52_exp_x2(s0, e0, s1, e1, elimbs, ebits, 3, 20);
}

static B52_TARGET void b52_exp_x2_4(struct b52_exp *s0, const u64 *e0,
				    struct b52_exp *s1, const u64 *e1,
				    size_t elimbs, size_t ebits)
{
	b52_exp_x2(s0, e0, s1, e1, elimbs, ebits, 4, 30);
}

static B52_TARGET void b52_exp_x2_5(struct b52_exp *s0, const u64 *e0,
				    struct b52_exp *s1, const u64 *e1,
				    size_t elimbs, size_t ebits)
{
	b52_exp_x2(s0, e0, s1, e1, elimbs, ebits, 5, 40);
}

/*
 * acc_x = acc_x^e mod m_x, plain in and out (below m_x): square and
 * multiply from the top bit of the public e, in Montgomery form.
 */
static __always_inline B52_TARGET void
b52_exp_pub_x2(struct b52_exp *s0, struct b52_exp *s1, u64 e, const int K,
	       const int L)
{
	u64 one[B52_MAX_LANES] __aligned(64) = { 1 };
	int bit;

	/* t = base R. */
	b52_amm_x2(s0->t, s0->acc, s0->mod.rr, &s0->mod,
		   s1->t, s1->acc, s1->mod.rr, &s1->mod, K, L);
	memcpy(s0->acc, s0->t, sizeof(s0->acc));
	memcpy(s1->acc, s1->t, sizeof(s1->acc));
	for (bit = 62 - __builtin_clzll(e); bit >= 0; bit--) {
		b52_amm_x2(s0->acc, s0->acc, s0->acc, &s0->mod,
			   s1->acc, s1->acc, s1->acc, &s1->mod, K, L);
		if ((e >> bit) & 1)
			b52_amm_x2(s0->acc, s0->acc, s0->t, &s0->mod,
				   s1->acc, s1->acc, s1->t, &s1->mod, K, L);
	}
	b52_amm_x2(s0->acc, s0->acc, one, &s0->mod,
		   s1->acc, s1->acc, one, &s1->mod, K, L);
}

static B52_TARGET void b52_exp_pub_x2_3(struct b52_exp *s0,
					struct b52_exp *s1, u64 e)
{
	b52_exp_pub_x2(s0, s1, e, 3, 20);
}

static B52_TARGET void b52_exp_pub_x2_4(struct b52_exp *s0,
					struct b52_exp *s1, u64 e)
{
	b52_exp_pub_x2(s0, s1, e, 4, 30);
}

static B52_TARGET void b52_exp_pub_x2_5(struct b52_exp *s0,
					struct b52_exp *s1, u64 e)
{
	b52_exp_pub_x2(s0, s1, e, 5, 40);
}

/* The same for one base and modulus (s0 only). */
static __always_inline B52_TARGET void
b52_exp_pub_x1(struct b52_exp *s0, u64 e, const int K, const int L)
{
	u64 one[B52_MAX_LANES] __aligned(64) = { 1 };
	int bit;

	b52_amm_x1(s0->t, s0->acc, s0->mod.rr, &s0->mod, K, L);
	memcpy(s0->acc, s0->t, sizeof(s0->acc));
	for (bit = 62 - __builtin_clzll(e); bit >= 0; bit--) {
		b52_amm_x1(s0->acc, s0->acc, s0->acc, &s0->mod, K, L);
		if ((e >> bit) & 1)
			b52_amm_x1(s0->acc, s0->acc, s0->t, &s0->mod, K, L);
	}
	b52_amm_x1(s0->acc, s0->acc, one, &s0->mod, K, L);
}

static B52_TARGET void b52_exp_pub_x1_3(struct b52_exp *s0, u64 e)
{
	b52_exp_pub_x1(s0, e, 3, 20);
}

static B52_TARGET void b52_exp_pub_x1_4(struct b52_exp *s0, u64 e)
{
	b52_exp_pub_x1(s0, e, 4, 30);
}

static B52_TARGET void b52_exp_pub_x1_5(struct b52_exp *s0, u64 e)
{
	b52_exp_pub_x1(s0, e, 5, 40);
}

/* The radix-2^52 size for moduli of up to n 64-bit limbs, 0 if none. */
static size_t b52_lanes(size_t n)
{
	/* 52 L - 2 bits must hold the modulus (4m < R). */
	if (n * 64 + 2 <= 52 * 20)
		return 20;
	if (n * 64 + 2 <= 52 * 30)
		return 30;
	if (n * 64 + 2 <= 52 * 40)
		return 40;
	return 0;
}

/*
 * Both halves' radix-2^52 state (only the first when @one: one operation
 * asked for twice), or -EINVAL for sizes IFMA cannot do.  Nothing is
 * cleared in bulk: b52_mod_init() and b52_from64() write every lane, and
 * the table and t are written before they are read.
 */
int b52_pair_init(struct b52_exp *s, const u64 *a0, const struct bn_mont *m0,
		  const u64 *a1, const struct bn_mont *m1, size_t *lanes,
		  bool one)
{
	size_t n = m0->n > m1->n ? m0->n : m1->n;

	*lanes = b52_lanes(n);
	if (!*lanes)
		return -EINVAL;
	b52_mod_init(&s[0].mod, m0, *lanes);
	b52_from64(s[0].acc, B52_MAX_LANES, a0, m0->n);
	if (one)
		return 0;
	b52_mod_init(&s[1].mod, m1, *lanes);
	b52_from64(s[1].acc, B52_MAX_LANES, a1, m1->n);
	return 0;
}

/* Wipes what an exponentiation used (the tables only when it had them). */
static void b52_wipe(struct b52_exp *s, bool tables)
{
	size_t x;

	for (x = 0; x < 2; x++) {
		memzero_explicit(&s[x].mod, sizeof(s[x].mod));
		memzero_explicit(s[x].acc, sizeof(s[x].acc));
		memzero_explicit(s[x].t, sizeof(s[x].t));
		if (tables)
			memzero_explicit(s[x].table, sizeof(s[x].table));
	}
}

/* Results (at most m) into [0, m), radix 2^64. */
void b52_pair_out(u64 *r0, const struct bn_mont *m0, u64 *r1,
		  const struct bn_mont *m1, struct b52_exp *s, size_t lanes,
		  bool tables)
{
	b52_to64(r0, m0->n, s[0].acc, lanes);
	b52_to64(r1, m1->n, s[1].acc, lanes);
	bn_mont_final_sub(r0, r0, 0, m0->m, m0->n);
	bn_mont_final_sub(r1, r1, 0, m1->m, m1->n);
	b52_wipe(s, tables);
}

int bn_exp_ct_x2_ifma(u64 *r0, const u64 *a0, const u64 *e0,
		      const struct bn_mont *m0, u64 *r1, const u64 *a1,
		      const u64 *e1, const struct bn_mont *m1, size_t ebits)
{
	size_t elimbs = (ebits + 63) / 64, lanes;
	struct b52_exp s[2];

	if (!ebits || b52_pair_init(s, a0, m0, a1, m1, &lanes, false))
		return -EINVAL;
	if (lanes == 20)
		b52_exp_x2_3(&s[0], e0, &s[1], e1, elimbs, ebits);
	else if (lanes == 30)
		b52_exp_x2_4(&s[0], e0, &s[1], e1, elimbs, ebits);
	else
		b52_exp_x2_5(&s[0], e0, &s[1], e1, elimbs, ebits);
	b52_pair_out(r0, m0, r1, m1, s, lanes, true);
	return 0;
}

int bn_exp_pub_x2_ifma(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		       u64 *r1, const u64 *a1, const struct bn_mont *m1,
		       u64 e)
{
	bool one = a0 == a1 && m0 == m1;
	struct b52_exp s[2];
	size_t lanes;

	if (!e || b52_pair_init(s, a0, m0, a1, m1, &lanes, one))
		return -EINVAL;
	/* One operation asked for twice (a whole signature's check). */
	if (one) {
		if (lanes == 20)
			b52_exp_pub_x1_3(&s[0], e);
		else if (lanes == 30)
			b52_exp_pub_x1_4(&s[0], e);
		else
			b52_exp_pub_x1_5(&s[0], e);
		memcpy(s[1].acc, s[0].acc, sizeof(s[1].acc));
	} else if (lanes == 20) {
		b52_exp_pub_x2_3(&s[0], &s[1], e);
	} else if (lanes == 30) {
		b52_exp_pub_x2_4(&s[0], &s[1], e);
	} else {
		b52_exp_pub_x2_5(&s[0], &s[1], e);
	}
	b52_pair_out(r0, m0, r1, m1, s, lanes, false);
	return 0;
}
