// SPDX-License-Identifier: GPL-2.0
/*
 * bn_exp_mulx.c - RSA's two CRT exponentiations (mod p and mod q) in one
 * loop with the MULX pairs of bn_mont_mulx.c, for CPUs without IFMA (and
 * with the portable products where there is no MULX, which is also how
 * valgrind's constant-time check sees this loop).
 *
 * One Montgomery row waits on the row before it (the next quotient needs
 * the limb the previous row just wrote), and ADCX/ADOX give a row only
 * two carry chains; a second, independent multiplication whose rows
 * alternate with the first keeps the core busy in those waits.  Both
 * exponentiations use the same fixed 5-bit window sequence (the
 * exponents are read to the same public bit count), so they run in
 * lockstep: five paired squarings and one paired product per window.
 *
 * Layout: every number of the pair sits beside its partner (limbs 0 .. n
 * - 1 for mod p, n .. 2n - 1 for mod q), as the pair kernels want it;
 * the table's entry i holds both a_0^i and a_1^i.  Each window reads the
 * whole table with masks (one index per half), so no address depends on
 * an exponent bit.
 */
#include <immintrin.h>

#include "rsa/bn_impl.h"

#define BX_WIN		5
#define BX_TABLE	(1 << BX_WIN)
#define BX_MAX		32		/* limbs of one half */

struct bx_state {
	u64 m[2 * BX_MAX];
	u64 k[2];
	u64 table[BX_TABLE][2 * BX_MAX];
	u64 acc[2 * BX_MAX];
	u64 t[2 * BX_MAX];
	u64 scratch[4 * BX_MAX];	/* the kernels' */
	bool mulx;
};

/* Bits [pos, pos + BX_WIN) of e (zeros past elimbs limbs). */
static u64 bx_window(const u64 *e, size_t elimbs, size_t pos)
{
	size_t limb = pos / 64, sh = pos % 64;
	u64 lo = limb < elimbs ? e[limb] : 0;
	u64 hi = limb + 1 < elimbs ? e[limb + 1] : 0;

	return ((lo >> sh) | ((hi << 1) << (63 - sh))) & (BX_TABLE - 1);
}

/* All ones when x == y. */
static u64 bx_eq(u64 x, u64 y)
{
	u64 d = x ^ y;

	return ((d | (0 - d)) >> 63) - 1;
}

/*
 * r = (table[i0] first half, table[i1] second half), reading every entry:
 * the portable loop, and the same with AVX2 (four limbs per operation).
 */
static void bx_select_c(u64 *r, const struct bx_state *s, u64 i0, u64 i1,
			size_t n)
{
	size_t i, j;

	memset(r, 0, 2 * n * 8);
	for (i = 0; i < BX_TABLE; i++) {
		u64 m0 = bx_eq(i, i0), m1 = bx_eq(i, i1);
		const u64 *e = s->table[i];

		for (j = 0; j < n; j++) {
			r[j] |= e[j] & m0;
			r[n + j] |= e[n + j] & m1;
		}
	}
}

/*
 * Eight accumulators (32 limbs) in registers through the whole scan: four
 * for limbs [lo0, lo0 + 16) of the first half, four for [lo1, lo1 + 16)
 * of the second (offsets into an entry).  With a run-time count of them
 * the compiler keeps them in memory, a load and a store per entry.
 */
static __always_inline __attribute__((target("avx2"))) void
bx_scan8(u64 *r, const struct bx_state *s, u64 i0, u64 i1, size_t lo0,
	 size_t lo1)
{
	__m256i acc[8];
	size_t i;
	int j;

#pragma GCC unroll 8
	for (j = 0; j < 8; j++)
		acc[j] = _mm256_setzero_si256();
	for (i = 0; i < BX_TABLE; i++) {
		__m256i m0 = _mm256_set1_epi64x((long long)bx_eq(i, i0));
		__m256i m1 = _mm256_set1_epi64x((long long)bx_eq(i, i1));
		const u64 *e = s->table[i];

#pragma GCC unroll 4
		for (j = 0; j < 4; j++) {
			__m256i x = _mm256_loadu_si256((const void *)
						       (e + lo0 + 4 * j));
			__m256i y = _mm256_loadu_si256((const void *)
						       (e + lo1 + 4 * j));

			acc[j] = _mm256_or_si256(acc[j],
						 _mm256_and_si256(x, m0));
			acc[4 + j] = _mm256_or_si256(acc[4 + j],
						     _mm256_and_si256(y, m1));
		}
	}
#pragma GCC unroll 4
	for (j = 0; j < 4; j++) {
		_mm256_storeu_si256((void *)(r + lo0 + 4 * j), acc[j]);
		_mm256_storeu_si256((void *)(r + lo1 + 4 * j), acc[4 + j]);
	}
}

/* The AVX2 scan: one pass for 16-limb halves, two for 32. */
__attribute__((target("avx2")))
static void bx_select_avx2(u64 *r, const struct bx_state *s, u64 i0, u64 i1,
			   size_t n)
{
	bx_scan8(r, s, i0, i1, 0, n);
	if (n == 32)
		bx_scan8(r, s, i0, i1, 16, n + 16);
}

static void bx_select(u64 *r, const struct bx_state *s, u64 i0, u64 i1,
		      size_t n)
{
	if (tlsx_cpu_features()->avx2)
		bx_select_avx2(r, s, i0, i1, n);
	else
		bx_select_c(r, s, i0, i1, n);
}

/*
 * The pair products: the MULX kernels, or the portable product twice
 * (the same loop then runs where valgrind can check it: it hides ADX).
 */
static void bx_mul(u64 *r, const u64 *a, const u64 *b, struct bx_state *s,
		   size_t n)
{
	if (s->mulx) {
		bn_mont_mul2_mulx(r, a, b, s->m, s->k, n, s->scratch);
		return;
	}
	bn_mont_mul_generic(r, a, b, s->m, s->k[0], n);
	bn_mont_mul_generic(r + n, a + n, b + n, s->m + n, s->k[1], n);
}

static void bx_sqr(u64 *r, const u64 *a, struct bx_state *s, size_t n)
{
	if (s->mulx) {
		bn_mont_sqr2_mulx(r, a, s->m, s->k, n, s->scratch);
		return;
	}
	bn_mont_mul_generic(r, a, a, s->m, s->k[0], n);
	bn_mont_mul_generic(r + n, a + n, a + n, s->m + n, s->k[1], n);
}

/* Both halves' moduli and constants; -EINVAL for sizes the pairs lack. */
static int bx_init(struct bx_state *s, const struct bn_mont *m0,
		   const struct bn_mont *m1)
{
	size_t n = m0->n;

	if (m1->n != n || (n != 16 && n != 32))
		return -EINVAL;
	memcpy(s->m, m0->m, n * 8);
	memcpy(s->m + n, m1->m, n * 8);
	s->k[0] = m0->m0inv;
	s->k[1] = m1->m0inv;
	s->mulx = bn_mulx_chosen();
	return 0;
}

/* Out of Montgomery form: REDC(acc 1), fully reduced; then the wipe. */
static void bx_out(u64 *r0, u64 *r1, struct bx_state *s, size_t n)
{
	memset(s->t, 0, 2 * n * 8);
	s->t[0] = 1;
	s->t[n] = 1;
	bx_mul(s->acc, s->acc, s->t, s, n);
	memcpy(r0, s->acc, n * 8);
	memcpy(r1, s->acc + n, n * 8);
	memzero_explicit(s, sizeof(*s));
}

int bn_exp_ct_x2_mulx(u64 *r0, const u64 *a0, const u64 *e0,
		      const struct bn_mont *m0, u64 *r1, const u64 *a1,
		      const u64 *e1, const struct bn_mont *m1, size_t ebits)
{
	size_t n = m0->n, elimbs = (ebits + 63) / 64, pos, i;
	struct bx_state s;

	if (!ebits || bx_init(&s, m0, m1))
		return -EINVAL;

	/* table[0] = R mod m, table[1] = a R mod m, then a^i R. */
	memcpy(s.table[0], m0->one, n * 8);
	memcpy(s.table[0] + n, m1->one, n * 8);
	bn_mont_to_reduce(s.table[1], a0, n, m0);
	bn_mont_to_reduce(s.table[1] + n, a1, n, m1);
	for (i = 2; i < BX_TABLE; i++) {
		if (i % 2)
			bx_mul(s.table[i], s.table[i - 1], s.table[1], &s, n);
		else
			bx_sqr(s.table[i], s.table[i / 2], &s, n);
	}

	/*
	 * Left to right over the windows, the top one possibly short; a
	 * zero window multiplies by one, so the sequence of operations
	 * never depends on e.
	 */
	pos = (ebits + BX_WIN - 1) / BX_WIN * BX_WIN - BX_WIN;
	bx_select(s.acc, &s, bx_window(e0, elimbs, pos),
		  bx_window(e1, elimbs, pos), n);
	while (pos) {
		pos -= BX_WIN;
		for (i = 0; i < BX_WIN; i++)
			bx_sqr(s.acc, s.acc, &s, n);
		bx_select(s.t, &s, bx_window(e0, elimbs, pos),
			  bx_window(e1, elimbs, pos), n);
		bx_mul(s.acc, s.acc, s.t, &s, n);
	}

	bx_out(r0, r1, &s, n);
	return 0;
}

int bn_exp_pub_x2_mulx(u64 *r0, const u64 *a0, const struct bn_mont *m0,
		       u64 *r1, const u64 *a1, const struct bn_mont *m1,
		       u64 e)
{
	size_t n = m0->n;
	struct bx_state s;
	int bit;

	if (!e || bx_init(&s, m0, m1))
		return -EINVAL;
	/* t = a R; square and multiply from the top bit of the public e. */
	bn_mont_to_reduce(s.t, a0, n, m0);
	bn_mont_to_reduce(s.t + n, a1, n, m1);
	memcpy(s.acc, s.t, 2 * n * 8);
	for (bit = 62 - __builtin_clzll(e); bit >= 0; bit--) {
		bx_sqr(s.acc, s.acc, &s, n);
		if ((e >> bit) & 1)
			bx_mul(s.acc, s.acc, s.t, &s, n);
	}
	bx_out(r0, r1, &s, n);
	return 0;
}
