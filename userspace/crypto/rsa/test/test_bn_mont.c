// SPDX-License-Identifier: GPL-2.0
/*
 * test_bn_mont.c - the Montgomery products, squares and their pairs at
 * the edges, against OpenSSL's BIGNUM: operands m - 1, m - 2, 1, 0 and
 * random ones, with moduli that make the carries longest (all ones,
 * 2^(64n - 1) + 1, 2^(64n - 1) + 2^(64n - 2) - 1, and random odd ones
 * with the top bit set), for each limb count the MULX code unrolls
 * (16, 24, 32, 48, 64) and each implementation this CPU has.  The pair
 * kernels (bn_mont_mul2_mulx, bn_mont_sqr2_mulx, 16 and 32 limbs) must
 * give what two single products give.
 */
#include <openssl/bn.h>

#include "kselftest_harness.h"
#include "rsa/bignum.h"
#include "rsa/bn_impl.h"
#include "rand/random.h"

#include "bn_test.h"

#define N_MOD	5
#define N_OP	6

FIXTURE(mont) {
	BN_CTX *ctx;
};

FIXTURE_VARIANT(mont) {
	const char *impl;
};

FIXTURE_VARIANT_ADD(mont, generic) {
	.impl = "generic",
};

FIXTURE_VARIANT_ADD(mont, mulx) {
	.impl = "mulx",
};

FIXTURE_SETUP(mont)
{
	if (bn_set_impl(variant->impl))
		SKIP(return, "no %s Montgomery multiplication here",
		     variant->impl);
	self->ctx = BN_CTX_new();
	ASSERT_NE(NULL, self->ctx);
}

FIXTURE_TEARDOWN(mont)
{
	BN_CTX_free(self->ctx);
}

/* r == a b R^-1 mod m, by OpenSSL. */
static bool mont_ok(const u64 *r, const u64 *a, const u64 *b, const u64 *m,
		    size_t n, BN_CTX *ctx)
{
	BIGNUM *bm = to_bn(m, n), *ba = to_bn(a, n), *bb = to_bn(b, n);
	BIGNUM *br = to_bn(r, n), *ri = BN_new(), *t = BN_new();
	bool ok;

	BN_set_bit(t, (int)(64 * n));
	ok = BN_mod_inverse(ri, t, bm, ctx) != NULL;
	BN_mod_mul(t, ba, bb, bm, ctx);
	BN_mod_mul(t, t, ri, bm, ctx);
	ok = ok && !BN_cmp(t, br);
	BN_free(bm);
	BN_free(ba);
	BN_free(bb);
	BN_free(br);
	BN_free(ri);
	BN_free(t);
	return ok;
}

static const size_t sizes[] = { 16, 24, 32, 48, 64 };

TEST_F(mont, edges)
{
	size_t s, total = 0;
	int mk, ka, kb;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t n = sizes[s];

		for (mk = 0; mk < N_MOD; mk++) {
			u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS], b[BN_MAX_LIMBS];
			u64 r[BN_MAX_LIMBS];
			struct bn_mont mt;

			edge_modulus(m, n, mk, 0);
			ASSERT_EQ(0, bn_mont_init(&mt, m, n));
			for (ka = 0; ka < N_OP; ka++) {
				edge_operand(a, m, n, ka, 0);
				memcpy(r, a, n * 8);
				bn_mont_sqr(r, r, &mt);
				ASSERT_TRUE(mont_ok(r, a, a, m, n, self->ctx))
					TH_LOG("sqr n=%zu m%d a%d", n, mk, ka);
				for (kb = 0; kb < N_OP; kb++) {
					edge_operand(b, m, n, kb, 0);
					bn_mont_mul(r, a, b, &mt);
					ASSERT_TRUE(mont_ok(r, a, b, m, n,
							    self->ctx))
						TH_LOG("mul n=%zu m%d a%d b%d",
						       n, mk, ka, kb);
					total++;
				}
			}
		}
	}
	TH_LOG("%zu products (%s)", total, bn_impl());
}

/* The pair kernels: each half what the single product gives. */
TEST_F(mont, pairs)
{
	static const size_t pn[] = { 16, 32 };
	size_t s, total = 0;
	int mk, ka, kb;

	if (strcmp(variant->impl, "mulx"))
		SKIP(return, "pairs are MULX code");
	for (s = 0; s < ARRAY_SIZE(pn); s++) {
		size_t n = pn[s];

		for (mk = 0; mk < N_MOD; mk++) {
			u64 m[2 * BN_MAX_LIMBS], a[2 * BN_MAX_LIMBS];
			u64 b[2 * BN_MAX_LIMBS], r[2 * BN_MAX_LIMBS];
			u64 k[2], t[4 * BN_MAX_LIMBS];
			struct bn_mont mt[2];

			/* Half 0 an edge modulus, half 1 a random one. */
			edge_modulus(m, n, mk, 0);
			edge_modulus(m + n, n, N_MOD - 1, 0);
			ASSERT_EQ(0, bn_mont_init(&mt[0], m, n));
			ASSERT_EQ(0, bn_mont_init(&mt[1], m + n, n));
			k[0] = mt[0].m0inv;
			k[1] = mt[1].m0inv;
			for (ka = 0; ka < N_OP; ka++) {
				edge_operand(a, m, n, ka, 0);
				edge_operand(a + n, m + n, n, N_OP - 1 - ka, 0);
				ASSERT_EQ(0, bn_mont_sqr2_mulx(r, a, m, k, n,
							       t));
				ASSERT_TRUE(mont_ok(r, a, a, m, n, self->ctx));
				ASSERT_TRUE(mont_ok(r + n, a + n, a + n, m + n,
						    n, self->ctx));
				for (kb = 0; kb < N_OP; kb++) {
					edge_operand(b, m, n, kb, 0);
					edge_operand(b + n, m + n, n, kb, 0);
					memcpy(r, a, 2 * n * 8);
					/* Aliased: r is a. */
					ASSERT_EQ(0, bn_mont_mul2_mulx(r, r, b,
								       m, k,
								       n, t));
					ASSERT_TRUE(mont_ok(r, a, b, m, n,
							    self->ctx))
						TH_LOG("mul2 n=%zu m%d a%d b%d",
						       n, mk, ka, kb);
					ASSERT_TRUE(mont_ok(r + n, a + n,
							    b + n, m + n, n,
							    self->ctx));
					total++;
				}
			}
		}
	}
	ASSERT_EQ(-EINVAL, bn_mont_mul2_mulx(NULL, NULL, NULL, NULL, NULL,
					     24, NULL));
	TH_LOG("%zu pairs", total);
}

TEST_HARNESS_MAIN
