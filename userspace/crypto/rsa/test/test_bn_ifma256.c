// SPDX-License-Identifier: GPL-2.0
/*
 * test_bn_ifma256.c - the 256-bit IFMA pair (bn_exp_ct_x2_ifma256) at the
 * edges, called directly: against OpenSSL's BN_mod_exp and bit for bit
 * against the 512-bit pair (bn_exp_ct_x2_ifma).  Moduli as in
 * test_bn_mont.c (all ones, 2^(64n - 1) + 1, 2^(64n - 1) + 2^(64n - 2)
 * - 1, random odd with the top bit set) of 16 limbs (RSA-2048's halves)
 * and of 15 and 9 (shorter numbers in the same 20 lanes); bases m - 1,
 * m - 2, 1, 0 and random; exponents all ones, 1, the top bit alone and
 * random, read to full, odd and window-sized bit counts; results written
 * over the bases.  Larger moduli must go to the zmm code and still be
 * right.  Skipped where AVX512IFMA with AVX512VL is missing.
 */
#include <openssl/bn.h>

#include "kselftest_harness.h"
#include "rsa/bignum.h"
#include "rsa/bn_impl.h"
#include "rand/random.h"

#include "bn_test.h"

/* Exponent number @kind of ebits bits (below 2^ebits). */
static void edge_exponent(u64 *e, size_t ebits, int kind)
{
	size_t el = (ebits + 63) / 64;

	memset(e, 0, BN_MAX_LIMBS * 8);
	switch (kind) {
	case 0:
		memset(e, 0xff, el * 8);
		break;
	case 1:
		e[0] = 1;
		return;
	case 2:
		e[(ebits - 1) / 64] = 1ULL << ((ebits - 1) % 64);
		return;
	default:
		rnd(e, el);
	}
	if (ebits % 64)
		e[el - 1] &= (1ULL << (ebits % 64)) - 1;
}

/* r == a^e mod m, by OpenSSL. */
static bool exp_ok(const u64 *r, const u64 *a, const u64 *e, size_t ebits,
		   const u64 *m, size_t n, BN_CTX *ctx)
{
	BIGNUM *bm = to_bn(m, n), *ba = to_bn(a, n);
	BIGNUM *be = to_bn(e, (ebits + 63) / 64), *br = to_bn(r, n);
	BIGNUM *t = BN_new();
	bool ok;

	ok = BN_mod_exp(t, ba, be, bm, ctx) && !BN_cmp(t, br);
	BN_free(bm);
	BN_free(ba);
	BN_free(be);
	BN_free(br);
	BN_free(t);
	return ok;
}

#define N_MOD	5
#define N_OP	5
#define N_EXP	4

FIXTURE(ifma256) {
	BN_CTX *ctx;
};

FIXTURE_SETUP(ifma256)
{
	if (bn_set_impl("ifma256"))
		SKIP(return, "no AVX512IFMA with AVX512VL here");
	self->ctx = BN_CTX_new();
	ASSERT_NE(NULL, self->ctx);
}

FIXTURE_TEARDOWN(ifma256)
{
	BN_CTX_free(self->ctx);
}

/*
 * One pair on ifma256 and on the zmm code: both against OpenSSL, and
 * equal.  The ifma256 results go over the bases (r aliasing a).
 */
static bool pair_ok(const u64 m[2][BN_MAX_LIMBS], const size_t n[2],
		    const u64 a[2][BN_MAX_LIMBS], const u64 e[2][BN_MAX_LIMBS],
		    size_t ebits, BN_CTX *ctx)
{
	u64 r[2][BN_MAX_LIMBS], z[2][BN_MAX_LIMBS];
	struct bn_mont mt[2];
	int x;

	for (x = 0; x < 2; x++) {
		if (bn_mont_init(&mt[x], m[x], n[x]))
			return false;
		memcpy(r[x], a[x], sizeof(r[x]));
	}
	if (bn_exp_ct_x2_ifma256(r[0], r[0], e[0], &mt[0], r[1], r[1], e[1],
				 &mt[1], ebits))
		return false;
	if (bn_exp_ct_x2_ifma(z[0], a[0], e[0], &mt[0], z[1], a[1], e[1],
			      &mt[1], ebits))
		return false;
	for (x = 0; x < 2; x++) {
		if (memcmp(r[x], z[x], n[x] * 8))
			return false;
		if (!exp_ok(r[x], a[x], e[x], ebits, m[x], n[x], ctx))
			return false;
	}
	return true;
}

static const size_t sizes[] = { 16, 15, 9 };

TEST_F(ifma256, edges)
{
	size_t s, total = 0;
	int mk, ka, ke, eb;

	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		size_t nn[2] = { sizes[s], sizes[s] };
		size_t n = sizes[s];
		/* Full, one short, odd, one window, one bit. */
		size_t ebs[] = { 64 * n, 64 * n - 1, 64 * n - 37, 5, 1 };

		for (mk = 0; mk < N_MOD; mk++) {
			u64 m[2][BN_MAX_LIMBS], a[2][BN_MAX_LIMBS];
			u64 e[2][BN_MAX_LIMBS];

			edge_modulus(m[0], n, mk, BN_MAX_LIMBS);
			edge_modulus(m[1], n, (mk + 1) % N_MOD, BN_MAX_LIMBS);
			for (ka = 0; ka < N_OP; ka++) {
				edge_operand(a[0], m[0], n, ka, BN_MAX_LIMBS);
				edge_operand(a[1], m[1], n, (ka + 2) % N_OP, BN_MAX_LIMBS);
				for (eb = 0; eb < (int)ARRAY_SIZE(ebs); eb++) {
					for (ke = 0; ke < N_EXP; ke++) {
						edge_exponent(e[0], ebs[eb], ke);
						edge_exponent(e[1], ebs[eb],
							      (ke + 1) % N_EXP);
						ASSERT_TRUE(pair_ok(m, nn, a, e,
								    ebs[eb],
								    self->ctx))
							TH_LOG("n=%zu m%d a%d e%d bits %zu",
							       n, mk, ka, ke,
							       ebs[eb]);
						total++;
					}
				}
			}
		}
	}
	TH_LOG("%zu pairs", total);
}

/*
 * Moduli of different lengths in one pair (RSA's p and q may differ by a
 * limb), and sizes past 20 lanes, which go to the zmm code; past 2078
 * bits (4m < 2^2080) neither takes them.
 */
TEST_F(ifma256, mixed_and_larger)
{
	static const size_t pairs[][2] = {
		{ 16, 15 }, { 15, 16 }, { 16, 1 }, { 17, 16 }, { 24, 24 },
		{ 32, 31 }, { 31, 32 },
	};
	size_t p, total = 0;
	int it;

	for (p = 0; p < ARRAY_SIZE(pairs); p++) {
		for (it = 0; it < 4; it++) {
			u64 m[2][BN_MAX_LIMBS], a[2][BN_MAX_LIMBS];
			u64 e[2][BN_MAX_LIMBS];
			size_t n = pairs[p][0] > pairs[p][1] ? pairs[p][0] :
				   pairs[p][1];
			size_t ebits = 64 * n - (size_t)it * 13;
			int x;

			for (x = 0; x < 2; x++) {
				edge_modulus(m[x], pairs[p][x], it + x, BN_MAX_LIMBS);
				edge_operand(a[x], m[x], pairs[p][x], 4 - it, BN_MAX_LIMBS);
				edge_exponent(e[x], ebits, 3);
			}
			ASSERT_TRUE(pair_ok(m, pairs[p], a, e, ebits,
					    self->ctx))
				TH_LOG("n=%zu,%zu it=%d", pairs[p][0],
				       pairs[p][1], it);
			total++;
		}
	}
	{
		u64 m[BN_MAX_LIMBS], a[BN_MAX_LIMBS] = { 2 };
		u64 e[BN_MAX_LIMBS] = { 3 }, r[2][BN_MAX_LIMBS];
		struct bn_mont mt;

		edge_modulus(m, 33, 3, BN_MAX_LIMBS);
		ASSERT_EQ(0, bn_mont_init(&mt, m, 33));
		ASSERT_EQ(-EINVAL, bn_exp_ct_x2_ifma256(r[0], a, e, &mt,
							r[1], a, e, &mt, 2));
	}
	TH_LOG("%zu pairs", total);
}

/* The choice: forced by name, reported, and the ymm pair taken. */
TEST_F(ifma256, chosen)
{
	ASSERT_STREQ("ifma256", bn_impl());
	ASSERT_TRUE(bn_ifma_chosen());
	ASSERT_TRUE(bn_ifma256_chosen());
	ASSERT_EQ(0, bn_set_impl("ifma"));
	ASSERT_FALSE(bn_ifma256_chosen());
	ASSERT_EQ(0, bn_set_impl("ifma256"));
}

TEST_HARNESS_MAIN
