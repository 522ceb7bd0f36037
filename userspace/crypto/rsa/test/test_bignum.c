// SPDX-License-Identifier: GPL-2.0
/*
 * test_bignum.c - the RSA integer arithmetic against OpenSSL's BIGNUM on
 * random values, at every limb count from 1 to 64 (the multiplication's
 * unrolled MULX counts 16, 24, 32, 48, 64 and the generic code between
 * them), for each Montgomery multiplication this CPU has: R^2 mod m,
 * Montgomery products (aliased too), reduction of wider numbers,
 * modular addition and subtraction, the constant-time and the public
 * exponentiation, and the constant-time inversion (up to 32 limbs,
 * invertible or not), and the pair of exponentiations RSA's CRT runs
 * (bn_exp_ct_x2: AVX-512 IFMA in the "ifma" variant).  Moduli: random
 * odd, top bit set or not, and all ones.
 */
#include <openssl/bn.h>

#include "kselftest_harness.h"
#include "rsa/bignum.h"
#include "rsa/bn_impl.h"
#include "rand/random.h"

#include "bn_test.h"

/* a == B, freeing B. */
static bool same(const u64 *a, size_t n, BIGNUM *b)
{
	BIGNUM *x = to_bn(a, n);
	bool eq = !BN_cmp(x, b);

	BN_free(x);
	BN_free(b);
	return eq;
}

FIXTURE(bn) {
	BN_CTX *ctx;
};

FIXTURE_VARIANT(bn) {
	const char *impl;
};

FIXTURE_VARIANT_ADD(bn, generic) {
	.impl = "generic",
};

FIXTURE_VARIANT_ADD(bn, mulx) {
	.impl = "mulx",
};

FIXTURE_VARIANT_ADD(bn, ifma) {
	.impl = "ifma",
};

FIXTURE_VARIANT_ADD(bn, ifma256) {
	.impl = "ifma256",
};

FIXTURE_SETUP(bn)
{
	if (bn_set_impl(variant->impl))
		SKIP(return, "no %s Montgomery multiplication here",
		     variant->impl);
	self->ctx = BN_CTX_new();
	ASSERT_NE(NULL, self->ctx);
}

FIXTURE_TEARDOWN(bn)
{
	BN_CTX_free(self->ctx);
}

/* A modulus of n limbs for round @it: top bit set, short top limb, ones. */
static void make_modulus(u64 *m, size_t n, int it)
{
	rnd(m, n);
	m[0] |= 1;
	if (it % 3 == 0)
		m[n - 1] |= 1ULL << 63;
	else if (it % 3 == 1)
		m[n - 1] = (m[n - 1] >> (it * 7 % 63)) | 1;
	if (it == 2)
		memset(m, 0xff, n * 8);
}

TEST_F(bn, arithmetic)
{
	BN_CTX *ctx = self->ctx;
	size_t n, total = 0;
	int it;

	/* The IFMA variants multiply with the MULX code: tested there. */
	if (!strncmp(variant->impl, "ifma", 4))
		SKIP(return, "same products as mulx");

	for (n = 1; n <= BN_MAX_LIMBS; n++) {
		for (it = 0; it < 6; it++) {
			u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS];
			u64 r[BN_MAX_LIMBS], x[2 * BN_MAX_LIMBS + 2];
			BIGNUM *bm, *ba, *bb, *br, *ri, *t;
			struct bn_mont mt;
			size_t xn = 2 * n + it % 3;

			make_modulus(m, n, it);
			ASSERT_EQ(0, bn_mont_init(&mt, m, n));
			bm = to_bn(m, n);
			br = BN_new();
			ri = BN_new();
			t = BN_new();
			/* R^2 mod m, and R^-1 for checking products. */
			BN_set_bit(t, (int)(128 * n));
			BN_mod(br, t, bm, ctx);
			ASSERT_TRUE(same(mt.rr, n, BN_dup(br)));
			BN_zero(t);
			BN_set_bit(t, (int)(64 * n));
			ASSERT_NE(NULL, BN_mod_inverse(ri, t, bm, ctx));

			/* a, b below m. */
			rnd(a, n);
			rnd(b, n);
			ba = to_bn(a, n);
			bb = to_bn(b, n);
			BN_mod(ba, ba, bm, ctx);
			BN_mod(bb, bb, bm, ctx);
			memset(a, 0, sizeof(a));
			memset(b, 0, sizeof(b));
			BN_bn2lebinpad(ba, (u8 *)a, (int)(n * 8));
			BN_bn2lebinpad(bb, (u8 *)b, (int)(n * 8));

			bn_mont_mul(r, a, b, &mt);
			BN_mod_mul(t, ba, bb, bm, ctx);
			BN_mod_mul(t, t, ri, bm, ctx);
			ASSERT_TRUE(same(r, n, BN_dup(t))) TH_LOG("mul n=%zu", n);
			memcpy(r, a, n * 8);
			bn_mont_sqr(r, r, &mt);
			BN_mod_mul(t, ba, ba, bm, ctx);
			BN_mod_mul(t, t, ri, bm, ctx);
			ASSERT_TRUE(same(r, n, BN_dup(t))) TH_LOG("sqr n=%zu", n);

			bn_mod_add(r, a, b, &mt);
			BN_mod_add(t, ba, bb, bm, ctx);
			ASSERT_TRUE(same(r, n, BN_dup(t)));
			bn_mod_sub(r, a, b, &mt);
			BN_mod_sub(t, ba, bb, bm, ctx);
			ASSERT_TRUE(same(r, n, BN_dup(t)));

			/* A 2n- to (2n+2)-limb number reduced. */
			rnd(x, xn);
			bn_mont_to_reduce(r, x, xn, &mt);
			bn_mont_from(r, r, &mt);
			{
				BIGNUM *bx = to_bn(x, xn);

				BN_mod(t, bx, bm, ctx);
				BN_free(bx);
			}
			ASSERT_TRUE(same(r, n, BN_dup(t))) TH_LOG("red n=%zu", n);

			/* Secret exponent of a varying bit count. */
			{
				size_t ebits = (size_t)(it * 37 + n * 13) %
					       (64 * n) + 1;
				size_t el = (ebits + 63) / 64;
				u64 e[BN_MAX_LIMBS], am[BN_MAX_LIMBS], ep;
				BIGNUM *be;

				rnd(e, el);
				if (ebits % 64)
					e[el - 1] &= (1ULL << (ebits % 64)) - 1;
				be = to_bn(e, el);
				bn_mont_to_reduce(am, a, n, &mt);
				bn_mont_exp_ct(r, am, e, ebits, &mt);
				bn_mont_from(r, r, &mt);
				BN_mod_exp(t, ba, be, bm, ctx);
				ASSERT_TRUE(same(r, n, BN_dup(t)))
					TH_LOG("exp n=%zu bits=%zu", n, ebits);
				/* Public exponents: 65537, 3, random odd. */
				ep = it % 3 == 0 ? 65537 : it % 3 == 1 ?
				     3 : e[0] | 1;
				BN_set_word(be, ep);
				bn_mont_exp_pub(r, am, ep, &mt);
				bn_mont_from(r, r, &mt);
				BN_mod_exp(t, ba, be, bm, ctx);
				ASSERT_TRUE(same(r, n, BN_dup(t)));
				BN_free(be);
			}

			if (n <= BN_INV_MAX_LIMBS) {
				BIGNUM *inv = BN_mod_inverse(NULL, ba, bm, ctx);

				bn_mod_inv(r, a, &mt);
				if (inv) {
					ASSERT_TRUE(same(r, n, inv))
						TH_LOG("inv n=%zu", n);
				} else {
					ASSERT_TRUE(bn_is_zero_mask(r, n));
				}
			}
			BN_free(bm);
			BN_free(ba);
			BN_free(bb);
			BN_free(br);
			BN_free(ri);
			BN_free(t);
			total++;
		}
	}
	TH_LOG("%zu moduli (%s)", total, bn_impl());
}

/* Inversion of a prime's residues: always invertible but for 0. */
TEST_F(bn, inverse_mod_prime)
{
	BN_CTX *ctx = self->ctx;
	size_t sizes[] = { 16, 17, 24, 32 }, i;
	int it;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		size_t n = sizes[i];
		BIGNUM *p = BN_new(), *a = BN_new(), *inv = BN_new();
		u64 m[BN_MAX_LIMBS], x[BN_MAX_LIMBS], r[BN_MAX_LIMBS];
		struct bn_mont mt;

		ASSERT_EQ(1, BN_generate_prime_ex(p, (int)(64 * n), 0, NULL,
						  NULL, NULL));
		memset(m, 0, sizeof(m));
		BN_bn2lebinpad(p, (u8 *)m, (int)(n * 8));
		ASSERT_EQ(0, bn_mont_init(&mt, m, n));
		for (it = 0; it < 20; it++) {
			memset(x, 0, sizeof(x));
			BN_rand_range(a, p);
			if (it == 0)
				BN_one(a);
			if (it == 1)
				BN_sub(a, p, BN_value_one());
			BN_bn2lebinpad(a, (u8 *)x, (int)(n * 8));
			bn_mod_inv(r, x, &mt);
			if (BN_is_zero(a)) {
				ASSERT_TRUE(bn_is_zero_mask(r, n));
				continue;
			}
			ASSERT_NE(NULL, BN_mod_inverse(inv, a, p, ctx));
			ASSERT_TRUE(same(r, n, BN_dup(inv)));
		}
		/* Zero is not invertible. */
		memset(x, 0, sizeof(x));
		bn_mod_inv(r, x, &mt);
		ASSERT_TRUE(bn_is_zero_mask(r, n));
		/* The pair: x^-1 and (x + 1)^-1 at once, and 0 beside 1. */
		for (it = 0; it < 10; it++) {
			u64 y[BN_MAX_LIMBS], r2[BN_MAX_LIMBS];
			BIGNUM *b = BN_new(), *inv2 = BN_new();

			memset(x, 0, sizeof(x));
			memset(y, 0, sizeof(y));
			BN_rand_range(a, p);
			BN_add_word(a, 1);
			BN_copy(b, a);
			BN_add_word(b, 1);
			if (BN_cmp(b, p) >= 0)
				BN_one(b);
			if (it == 0)
				BN_zero(a);
			BN_bn2lebinpad(a, (u8 *)x, (int)(n * 8));
			BN_bn2lebinpad(b, (u8 *)y, (int)(n * 8));
			bn_mod_inv_x2(r, x, &mt, r2, y, &mt);
			if (it == 0) {
				ASSERT_TRUE(bn_is_zero_mask(r, n));
			} else {
				ASSERT_TRUE(same(r, n, BN_mod_inverse(NULL, a,
								       p, ctx)));
			}
			ASSERT_NE(NULL, BN_mod_inverse(inv2, b, p, ctx));
			ASSERT_TRUE(same(r2, n, inv2));
			BN_free(b);
		}
		BN_free(p);
		BN_free(a);
		BN_free(inv);
	}
}

/*
 * Both CRT exponentiations at once (the IFMA pair where this CPU has it,
 * one after the other otherwise), secret and public exponents: moduli of n and n or n - 1 limbs for n
 * up to 33 (past the IFMA sizes, which then fall back), a zero base,
 * exponents of every bit count modulo 64.
 */
TEST_F(bn, exp_pair)
{
	BN_CTX *ctx = self->ctx;
	size_t n, total = 0;
	int it;

	for (n = 1; n <= 33; n++) {
		for (it = 0; it < 4; it++) {
			size_t n1 = it % 2 || n == 1 ? n : n - 1, x;
			size_t ebits = 64 * n - (size_t)(it * 17 + n) % 64;
			size_t el = (ebits + 63) / 64;
			u64 m[2][BN_MAX_LIMBS], a[2][BN_MAX_LIMBS];
			u64 e[2][BN_MAX_LIMBS], r[2][BN_MAX_LIMBS];
			struct bn_mont mt[2];
			size_t nn[2] = { n, n1 };

			for (x = 0; x < 2; x++) {
				BIGNUM *bm, *ba;

				make_modulus(m[x], nn[x], it);
				if (!m[x][nn[x] - 1])
					m[x][nn[x] - 1] = 1;
				ASSERT_EQ(0, bn_mont_init(&mt[x], m[x], nn[x]));
				rnd(a[x], nn[x]);
				bm = to_bn(m[x], nn[x]);
				ba = to_bn(a[x], nn[x]);
				BN_mod(ba, ba, bm, ctx);
				memset(a[x], 0, sizeof(a[x]));
				if (it != 3 || x)
					BN_bn2lebinpad(ba, (u8 *)a[x],
						       (int)(nn[x] * 8));
				memset(e[x], 0, sizeof(e[x]));
				rnd(e[x], el);
				if (ebits % 64)
					e[x][el - 1] &= (1ULL << (ebits % 64)) - 1;
				BN_free(bm);
				BN_free(ba);
			}
			bn_exp_ct_x2(r[0], a[0], e[0], &mt[0], r[1], a[1],
				     e[1], &mt[1], ebits);
			for (x = 0; x < 2; x++) {
				BIGNUM *bm = to_bn(m[x], nn[x]);
				BIGNUM *ba = to_bn(a[x], nn[x]);
				BIGNUM *be = to_bn(e[x], el);
				BIGNUM *t = BN_new();

				BN_mod_exp(t, ba, be, bm, ctx);
				ASSERT_TRUE(same(r[x], nn[x], t))
					TH_LOG("n=%zu it=%d half %zu", n, it, x);
				BN_free(bm);
				BN_free(ba);
				BN_free(be);
			}
			/* Public exponents: 65537, 3, 1, a random odd one. */
			{
				u64 pe = it == 0 ? 65537 : it == 1 ? 3 :
					 it == 2 ? 1 : e[0][0] | 1;

				bn_exp_pub_x2(r[0], a[0], &mt[0], r[1], a[1],
					      &mt[1], pe);
				for (x = 0; x < 2; x++) {
					BIGNUM *bm = to_bn(m[x], nn[x]);
					BIGNUM *ba = to_bn(a[x], nn[x]);
					BIGNUM *be = BN_new();
					BIGNUM *t = BN_new();

					BN_set_word(be, pe);
					BN_mod_exp(t, ba, be, bm, ctx);
					ASSERT_TRUE(same(r[x], nn[x], t))
						TH_LOG("pub n=%zu e=%llu", n,
						       (unsigned long long)pe);
					BN_free(bm);
					BN_free(ba);
					BN_free(be);
				}
			}
			total++;
		}
	}
	TH_LOG("%zu pairs (%s)", total, bn_impl());
}

/* The public set-up (long division) gives what the constant-time one does. */
TEST(mont_init_pub)
{
	size_t n, total = 0;
	int it;

	for (n = 1; n <= BN_MAX_LIMBS; n++) {
		for (it = 0; it < 40; it++) {
			u64 m[BN_MAX_LIMBS];
			struct bn_mont a, b;
			size_t i;

			make_modulus(m, n, it);
			/* Sparse and dense limbs below a small top limb. */
			if (it % 5 == 3 && n > 1) {
				for (i = 0; i < n - 1; i++)
					m[i] = it & 1 ? 0 : ~0ULL;
				m[0] |= 1;
				m[n - 1] = 1 + (u64)(it & 7);
			}
			if (!m[n - 1])
				m[n - 1] = 1;
			ASSERT_EQ(0, bn_mont_init(&a, m, n));
			ASSERT_EQ(0, bn_mont_init_pub(&b, m, n));
			ASSERT_EQ(a.m0inv, b.m0inv);
			ASSERT_EQ(0, memcmp(a.rr, b.rr, n * 8))
				TH_LOG("n=%zu it=%d", n, it);
			ASSERT_EQ(0, memcmp(a.one, b.one, n * 8));
			total++;
		}
	}
	TH_LOG("%zu moduli", total);
}

TEST(bytes_round_trip)
{
	u8 in[BN_MAX_BYTES + 3], out[BN_MAX_BYTES + 3];
	u64 x[BN_MAX_LIMBS];
	size_t len;

	for (len = 1; len <= BN_MAX_BYTES; len += 7) {
		size_t n = (len + 7) / 8;

		ASSERT_EQ(0, tlsx_random_bytes(in, len));
		ASSERT_EQ(0, bn_from_be(x, n, in, len));
		bn_to_be(out, len, x, n);
		ASSERT_EQ(0, memcmp(in, out, len));
		/* Wider output: zero-padded on the left. */
		bn_to_be(out, len + 3, x, n);
		ASSERT_EQ(0, out[0] | out[1] | out[2]);
		ASSERT_EQ(0, memcmp(in, out + 3, len));
	}
	/* Leading zero bytes beyond the limbs are accepted, others not. */
	memset(in, 0, 3);
	in[3] = 0x80;
	memset(in + 4, 0x11, 7);
	ASSERT_EQ(0, bn_from_be(x, 1, in, 11));
	ASSERT_EQ(0x8011111111111111ULL, x[0]);
	in[0] = 1;
	ASSERT_EQ(-EINVAL, bn_from_be(x, 1, in, 11));
}

TEST(masks)
{
	u64 a[4] = { 1, 2, 3, 4 }, b[4] = { 1, 2, 3, 5 }, z[4] = { 0 };

	ASSERT_EQ(~0ULL, bn_lt_mask(a, b, 4));
	ASSERT_EQ(0, bn_lt_mask(b, a, 4));
	ASSERT_EQ(0, bn_lt_mask(a, a, 4));
	ASSERT_EQ(~0ULL, bn_eq_mask(a, a, 4));
	ASSERT_EQ(0, bn_eq_mask(a, b, 4));
	ASSERT_EQ(~0ULL, bn_is_zero_mask(z, 4));
	ASSERT_EQ(0, bn_is_zero_mask(a, 4));
	bn_cmov(z, a, 4, 0);
	ASSERT_EQ(~0ULL, bn_is_zero_mask(z, 4));
	bn_cmov(z, a, 4, ~0ULL);
	ASSERT_EQ(~0ULL, bn_eq_mask(z, a, 4));
	ASSERT_EQ(1, bn_sub(z, z, b, 4));
	ASSERT_EQ(1, bn_add(z, z, b, 4));
	ASSERT_EQ(~0ULL, bn_eq_mask(z, a, 4));
}

TEST_HARNESS_MAIN
