// SPDX-License-Identifier: GPL-2.0
/*
 * bignum.c - the Montgomery arithmetic under RSA: the multiplication,
 * dispatched, set-up, reduction into Montgomery form and the
 * exponentiations.  The layers point one way: bn_limbs.c (limb helpers)
 * under the multiplications of bn_mont_generic.c (portable) and
 * bn_mont_mulx.c (BMI2+ADX), under this file, under bn_ifma.c (AVX-512
 * IFMA; bn_ifma256.c its 1024-bit pair on ymm, for Zen 4) and
 * bn_exp_x2.c (RSA's CRT pairs); the inversion is in bn_inv.c.
 * The choice of code is made once at run time.
 *
 * Constant time: loops run over limb counts and exponent bit counts,
 * which are public; values only ever flow through arithmetic and masks.
 */
#include <stdlib.h>

#include "rsa/bignum.h"
#include "rsa/bn_impl.h"

/* --- Montgomery multiplication, dispatched ---------------------------- */

static void (*bn_mont_mul_impl)(u64 *r, const u64 *a, const u64 *b,
				const u64 *m, u64 m0inv, size_t n);
static void (*bn_mont_sqr_impl)(u64 *r, const u64 *a, const u64 *m,
				u64 m0inv, size_t n);
static const char *bn_impl_name;
static bool bn_use_ifma, bn_use_ifma256;

static void bn_mont_sqr_generic(u64 *r, const u64 *a, const u64 *m,
				u64 m0inv, size_t n)
{
	bn_mont_mul_generic(r, a, a, m, m0inv, n);
}

static bool bn_impl_usable(const char *name)
{
	const struct tlsx_cpu *c = tlsx_cpu_features();

	if (!strcmp(name, "generic"))
		return true;
	if (!strcmp(name, "mulx"))
		return c->bmi2 && c->adx;
	/* 512-bit IFMA, where wide vectors cost no clock speed. */
	if (!strcmp(name, "ifma"))
		return c->bmi2 && c->adx && c->avx512ifma && c->zmm_ok;
	/* The same with the 1024-bit pair on 256-bit vectors. */
	if (!strcmp(name, "ifma256"))
		return c->bmi2 && c->adx && c->avx512ifma && c->avx512vl &&
		       c->zmm_ok;
	return false;
}

int bn_set_impl(const char *name)
{
	if (!bn_impl_usable(name))
		return -EINVAL;
	bn_use_ifma256 = !strcmp(name, "ifma256");
	bn_use_ifma = bn_use_ifma256 || !strcmp(name, "ifma");
	if (!strcmp(name, "generic")) {
		bn_mont_mul_impl = bn_mont_mul_generic;
		bn_mont_sqr_impl = bn_mont_sqr_generic;
		bn_impl_name = "generic";
	} else {
		bn_mont_mul_impl = bn_mont_mul_mulx;
		bn_mont_sqr_impl = bn_mont_sqr_mulx;
		bn_impl_name = bn_use_ifma256 ? "ifma256" :
			       bn_use_ifma ? "ifma" : "mulx";
	}
	return 0;
}

/*
 * IFMA where usable; on Zen 4 (zmm_split) its 1024-bit pair on ymm, as
 * each zmm operation takes two of the vector pipes' slots there.
 */
static void bn_choose_impl(void)
{
	const char *env = getenv("TLSX_BN_IMPL");

	if (env && !bn_set_impl(env))
		return;
	if (tlsx_cpu_features()->zmm_split && !bn_set_impl("ifma256"))
		return;
	if (bn_set_impl("ifma") && bn_set_impl("mulx"))
		bn_set_impl("generic");
}

bool bn_ifma_chosen(void)
{
	if (unlikely(!bn_mont_mul_impl))
		bn_choose_impl();
	return bn_use_ifma;
}

bool bn_ifma256_chosen(void)
{
	if (unlikely(!bn_mont_mul_impl))
		bn_choose_impl();
	return bn_use_ifma256;
}

bool bn_mulx_chosen(void)
{
	if (unlikely(!bn_mont_mul_impl))
		bn_choose_impl();
	return bn_mont_mul_impl == bn_mont_mul_mulx;
}

const char *bn_impl(void)
{
	if (!bn_mont_mul_impl)
		bn_choose_impl();
	return bn_impl_name;
}

void bn_mont_mul(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mt)
{
	if (unlikely(!bn_mont_mul_impl))
		bn_choose_impl();
	bn_mont_mul_impl(r, a, b, mt->m, mt->m0inv, mt->n);
}

void bn_mont_sqr(u64 *r, const u64 *a, const struct bn_mont *mt)
{
	if (unlikely(!bn_mont_mul_impl))
		bn_choose_impl();
	bn_mont_sqr_impl(r, a, mt->m, mt->m0inv, mt->n);
}

void bn_mont_from(u64 *r, const u64 *a, const struct bn_mont *mt)
{
	u64 one[BN_MAX_LIMBS] = { 1 };

	bn_mont_mul(r, a, one, mt);
}

void bn_mod_add(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mt)
{
	u64 t[BN_MAX_LIMBS];
	u64 c = bn_add(t, a, b, mt->n);

	/* a + b < 2m: one conditional subtraction, as after a product. */
	bn_mont_final_sub(r, t, c, mt->m, mt->n);
	memzero_explicit(t, sizeof(t));
}

void bn_mod_sub(u64 *r, const u64 *a, const u64 *b, const struct bn_mont *mt)
{
	u64 t[BN_MAX_LIMBS];
	u64 borrow = bn_sub(r, a, b, mt->n);

	/* Add m back when the difference went negative. */
	bn_add(t, r, mt->m, mt->n);
	bn_cmov(r, t, mt->n, 0 - borrow);
	memzero_explicit(t, sizeof(t));
}

/* --- set-up ----------------------------------------------------------- */

/*
 * x <- 2^k x mod m for x < m, by k doublings, each in one pass: the
 * doubled limbs and 2x - m side by side, then the choice (2x - m unless
 * it borrowed without the doubling carrying out, as after a product).
 * The choice is made in place and d wiped once at the end: the set-up
 * runs 64 + n of these, so per-doubling copies and wipes would cost
 * more than the doubling.
 */
static void bn_mod_double_k(u64 *x, const u64 *m, size_t n, size_t k)
{
	u64 d[BN_MAX_LIMBS];
	size_t i, j;

	for (j = 0; j < k; j++) {
		u64 c = 0, borrow = 0, keep;

		for (i = 0; i < n; i++) {
			unsigned __int128 s;
			u64 v = (x[i] << 1) | c;

			s = (unsigned __int128)v - m[i] - borrow;
			c = x[i] >> 63;
			x[i] = v;
			d[i] = (u64)s;
			borrow = (u64)(s >> 64) & 1;
		}
		/* Keep 2x (now in x) exactly when c - borrow is all ones. */
		keep = c - borrow;
		for (i = 0; i < n; i++)
			x[i] = d[i] ^ ((d[i] ^ x[i]) & keep);
	}
	memzero_explicit(d, sizeof(d));
}

/* The modulus and -m^-1 mod 2^64 of a new context; the rest zero. */
static void bn_mont_set_modulus(struct bn_mont *mt, const u64 *m, size_t n)
{
	u64 inv;
	size_t i;

	memset(mt, 0, sizeof(*mt));
	memcpy(mt->m, m, n * 8);
	mt->n = n;

	/*
	 * m^-1 mod 2^64 by Newton's iteration x <- x (2 - m x), which
	 * doubles the number of correct low bits: an odd m is its own
	 * inverse mod 8 (3 bits), so five steps give 96 >= 64.
	 */
	inv = m[0];
	for (i = 0; i < 5; i++)
		inv *= 2 - m[0] * inv;
	mt->m0inv = 0 - inv;
}

int bn_mont_init(struct bn_mont *mt, const u64 *m, size_t n)
{
	u64 x[BN_MAX_LIMBS];
	size_t i;

	if (!n || n > BN_MAX_LIMBS)
		return -EINVAL;
	bn_mont_set_modulus(mt, m, n);

	/*
	 * R^2 mod m without division.  Start from x = 2^(64 (n - 1)),
	 * below m since m's top limb is not zero, and double it modulo m
	 * (x < m, so 2x < 2m and one conditional subtraction reduces)
	 * 64 + n times: x = 2^(64 n + n) = R 2^n mod m.  Then each
	 * Montgomery squaring maps R 2^k to R 2^(2k); six of them give
	 * R 2^(64 n) = R^2.  The work depends on n only.
	 */
	memset(x, 0, sizeof(x));
	x[n - 1] = 1;
	bn_mod_double_k(x, m, n, 64 + n);
	for (i = 0; i < 6; i++)
		bn_mont_sqr(x, x, mt);
	memcpy(mt->rr, x, n * 8);
	/* R mod m = REDC(R^2). */
	bn_mont_from(mt->one, mt->rr, mt);
	memzero_explicit(x, sizeof(x));
	return 0;
}

/*
 * r = 2^k mod m (n limbs, n >= 2, top limb not zero) by schoolbook
 * long division (Knuth's algorithm D), in variable time: for public
 * moduli only.  m is shifted so that its top bit is set, which keeps
 * each quotient digit's estimate from the top two limbs at most two too
 * large; the dividend 2^k is shifted alike and the remainder back.
 */
static void bn_pow2_mod_pub(u64 *r, size_t k, const u64 *m, size_t n)
{
	u64 mm[BN_MAX_LIMBS], u[2 * BN_MAX_LIMBS + 2];
	int s = __builtin_clzll(m[n - 1]);
	size_t un = k / 64 + 2, i, j;

	/* mm = m << s; u = 2^(k + s), with a zero limb on top. */
	for (i = n; i-- > 0;)
		mm[i] = (m[i] << s) | (s && i ? m[i - 1] >> (64 - s) : 0);
	memset(u, 0, un * 8);
	u[(k + s) / 64] = 1ULL << ((k + s) % 64);
	if (un < n + 1)
		un = n + 1;

	for (j = un - n; j-- > 0;) {
		unsigned __int128 num = ((unsigned __int128)u[j + n] << 64) |
					u[j + n - 1];
		unsigned __int128 qhat = num / mm[n - 1];
		unsigned __int128 rhat = num % mm[n - 1];
		u64 borrow = 0, carry = 0;

		while (qhat >> 64 ||
		       qhat * mm[n - 2] > ((rhat << 64) | u[j + n - 2])) {
			qhat--;
			rhat += mm[n - 1];
			if (rhat >> 64)
				break;
		}
		/* u[j .. j + n] -= qhat mm */
		for (i = 0; i < n; i++) {
			unsigned __int128 p = (unsigned __int128)(u64)qhat *
					      mm[i] + carry;
			unsigned __int128 d = (unsigned __int128)u[i + j] -
					      (u64)p - borrow;

			carry = (u64)(p >> 64);
			u[i + j] = (u64)d;
			borrow = (u64)(d >> 64) & 1;
		}
		{
			unsigned __int128 d = (unsigned __int128)u[j + n] -
					      carry - borrow;

			u[j + n] = (u64)d;
			borrow = (u64)(d >> 64) & 1;
		}
		/* Rarely one too many: add mm back. */
		if (borrow)
			u[j + n] += bn_add(u + j, u + j, mm, n);
	}
	/* The remainder is u[0 .. n - 1] >> s. */
	for (i = 0; i < n; i++)
		r[i] = (u[i] >> s) | (s ? u[i + 1] << (64 - s) : 0);
}

int bn_mont_init_pub(struct bn_mont *mt, const u64 *m, size_t n)
{
	if (n < 2 || n > BN_MAX_LIMBS || !m[n - 1])
		return bn_mont_init(mt, m, n);
	bn_mont_set_modulus(mt, m, n);
	bn_pow2_mod_pub(mt->rr, 128 * n, m, n);
	bn_pow2_mod_pub(mt->one, 64 * n, m, n);
	return 0;
}

void bn_mont_wipe(struct bn_mont *mt)
{
	memzero_explicit(mt, sizeof(*mt));
}

void bn_mont_to_reduce(u64 *r, const u64 *x, size_t xn,
		       const struct bn_mont *mt)
{
	size_t n = mt->n, chunks = (xn + n - 1) / n, i;
	u64 acc[BN_MAX_LIMBS], c[BN_MAX_LIMBS];

	/*
	 * Horner's rule over n-limb chunks c_k of x, top chunk first:
	 * acc <- acc R + c_k, kept in Montgomery form.  Each chunk is
	 * below R and R^2 mod m below m, so REDC(c_k R^2) = c_k R mod m
	 * is valid (its product is below m R); REDC(acc R^2) = (acc R) R
	 * shifts the accumulator by one chunk.
	 */
	memset(acc, 0, sizeof(acc));
	for (i = chunks; i-- > 0;) {
		size_t lo = i * n, len = xn - lo < n ? xn - lo : n;

		memset(c, 0, sizeof(c));
		memcpy(c, x + lo, len * 8);
		/* The top chunk (which one is public) starts acc: no shift. */
		if (i == chunks - 1) {
			bn_mont_mul(acc, c, mt->rr, mt);
			continue;
		}
		bn_mont_mul(acc, acc, mt->rr, mt);
		bn_mont_mul(c, c, mt->rr, mt);
		bn_mod_add(acc, acc, c, mt);
	}
	memcpy(r, acc, n * 8);
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(c, sizeof(c));
}

/* --- exponentiation --------------------------------------------------- */

#define BN_WIN		5
#define BN_TABLE	(1 << BN_WIN)

/* Bits [pos, pos + BN_WIN) of e (with zeros past its end). */
static u64 bn_window(const u64 *e, size_t elimbs, size_t pos)
{
	size_t limb = pos / 64, sh = pos % 64;
	u64 lo = limb < elimbs ? e[limb] : 0;
	u64 hi = limb + 1 < elimbs ? e[limb + 1] : 0;
	/* Two shifts so that sh = 0 does not shift by 64. */
	u64 v = (lo >> sh) | ((hi << 1) << (63 - sh));

	return v & (BN_TABLE - 1);
}

/* r = table[idx] by reading every entry: no secret-dependent address. */
static void bn_table_select(u64 *r, const u64 *table, u64 idx, size_t n)
{
	size_t i, j;

	memset(r, 0, n * 8);
	for (i = 0; i < BN_TABLE; i++) {
		u64 d = i ^ idx;
		/* All ones when d == 0. */
		u64 mask = ((d | (0 - d)) >> 63) - 1;

		for (j = 0; j < n; j++)
			r[j] |= table[i * n + j] & mask;
	}
}

void bn_mont_exp_ct(u64 *r, const u64 *a, const u64 *e, size_t ebits,
		    const struct bn_mont *mt)
{
	u64 table[BN_TABLE * BN_MAX_LIMBS], acc[BN_MAX_LIMBS];
	u64 t[BN_MAX_LIMBS];
	size_t n = mt->n, elimbs = (ebits + 63) / 64, pos, i;

	/* table[i] = a^i in Montgomery form. */
	memcpy(table, mt->one, n * 8);
	memcpy(table + n, a, n * 8);
	for (i = 2; i < BN_TABLE; i++)
		bn_mont_mul(table + i * n, table + (i - 1) * n, a, mt);

	/*
	 * Left to right over BN_WIN-bit windows, the top one possibly
	 * short: acc = acc^(2^BN_WIN) table[w].  A zero window multiplies
	 * by one, so the sequence of operations never depends on e.
	 */
	pos = (ebits + BN_WIN - 1) / BN_WIN * BN_WIN;
	if (!pos) {
		memcpy(r, mt->one, n * 8);
		return;
	}
	pos -= BN_WIN;
	bn_table_select(acc, table, bn_window(e, elimbs, pos), n);
	while (pos) {
		pos -= BN_WIN;
		for (i = 0; i < BN_WIN; i++)
			bn_mont_sqr(acc, acc, mt);
		bn_table_select(t, table, bn_window(e, elimbs, pos), n);
		bn_mont_mul(acc, acc, t, mt);
	}
	memcpy(r, acc, n * 8);
	memzero_explicit(table, BN_TABLE * n * 8);
	memzero_explicit(acc, sizeof(acc));
	memzero_explicit(t, sizeof(t));
}

void bn_mont_exp_pub(u64 *r, const u64 *a, u64 e, const struct bn_mont *mt)
{
	u64 acc[BN_MAX_LIMBS];
	int bit;

	if (!e) {
		memcpy(r, mt->one, mt->n * 8);
		return;
	}
	/* Square and multiply from the top bit; e is public. */
	memcpy(acc, a, mt->n * 8);
	for (bit = 62 - __builtin_clzll(e); bit >= 0; bit--) {
		bn_mont_sqr(acc, acc, mt);
		if ((e >> bit) & 1)
			bn_mont_mul(acc, acc, a, mt);
	}
	memcpy(r, acc, mt->n * 8);
	memzero_explicit(acc, sizeof(acc));
}
