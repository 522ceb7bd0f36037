// SPDX-License-Identifier: GPL-2.0
/*
 * test_bn_ifma256_sqr.c - the ifma256 pair's Montgomery squaring
 * (b52y_sqr_x2()) on the almost-reduced numbers the exponentiation feeds
 * it, which the exponentiation's own tests cannot pick: limb for limb
 * against the multiplication b52y_amm_x2(a, a), and against OpenSSL
 * (r = a^2 / R mod m, r below 2m).  Moduli of 1024, 1023, 960 and 576
 * bits b (all ones; 2^(b-1) + 1; 2^(b-1) + 2^(b-2) + 2^(52k) - 1, its
 * lower limbs all ones; random); operands 0, 1,
 * m - 1, m, 2m - 1 and random below 2m.  Built from bn_ifma256.c itself
 * (its functions are static).  Skipped where AVX512IFMA with AVX512VL is
 * missing.
 */
#include <openssl/bn.h>

#include "kselftest_harness.h"
#include "rsa/bn_impl.h"
#include "rand/random.h"

#include "bn_test.h"

#include "rsa/bn_ifma256.c"

/* Natural-layout radix-2^52 limbs to a BIGNUM. */
static BIGNUM *b52_to_bn(const u64 *x)
{
	BIGNUM *t = BN_new();
	int i;

	if (!t)
		return NULL;
	BN_zero(t);
	for (i = B52Y_L - 1; i >= 0; i--)
		if (!BN_lshift(t, t, 52) || !BN_add_word(t, x[i])) {
			BN_free(t);
			return NULL;
		}
	return t;
}

static u64 rnd_limb(void)
{
	u64 x;

	rnd(&x, 1);
	return x & B52_MASK;
}

/* Modulus number @kind of @bits bits (bits <= 1024), natural layout. */
static void sqr_modulus(u64 *m, int kind, int bits)
{
	int i, top = (bits - 1) / 52;

	memset(m, 0, B52_MAX_LANES * 8);
	for (i = 0; i <= top; i++)
		m[i] = kind == 0 ? B52_MASK : kind == 3 ? rnd_limb() : 0;
	if (kind == 2)
		for (i = 0; i < top; i++)
			m[i] = B52_MASK;
	m[top] &= (1ULL << ((bits - 1) % 52 + 1)) - 1;
	m[top] |= 1ULL << ((bits - 1) % 52);
	if (kind == 2)
		m[top] |= 1ULL << ((bits - 2) % 52);
	m[0] |= 1;
}

/* Operand number @kind below 2m, natural layout. */
static void sqr_operand(u64 *a, const u64 *m, int kind)
{
	u64 c = 0;
	int i, top = B52Y_L - 1;

	memset(a, 0, B52_MAX_LANES * 8);
	switch (kind) {
	case 0:
		return;
	case 1:
		a[0] = 1;
		return;
	case 2:		/* m - 1, m: m is odd */
	case 3:
		memcpy(a, m, B52Y_L * 8);
		a[0] -= kind == 2;
		return;
	case 4:		/* 2m - 1 */
		for (i = 0; i < B52Y_L; i++) {
			u64 d = 2 * m[i] + c;

			a[i] = d & B52_MASK;
			c = d >> 52;
		}
		a[0] -= 1;
		return;
	}
	/* Random below 2^(bits of m): below 2m. */
	while (top && !m[top])
		top--;
	for (i = 0; i <= top; i++)
		a[i] = rnd_limb();
	a[top] &= (1ULL << (64 - __builtin_clzll(m[top]))) - 1;
}

/* r (natural layout) below 2m and r R = a^2 mod m, by OpenSSL. */
static bool sqr_ok(const u64 *r, const u64 *a, const u64 *m, BN_CTX *ctx)
{
	BIGNUM *br = b52_to_bn(r), *ba = b52_to_bn(a), *bm = b52_to_bn(m);
	BIGNUM *t = BN_new(), *u = BN_new();
	bool ok;

	ok = br && ba && bm && t && u &&
	     BN_lshift(t, bm, 1) && BN_cmp(br, t) < 0 &&
	     BN_set_word(u, 0) && BN_set_bit(u, 52 * B52Y_L) &&
	     BN_mod_mul(t, br, u, bm, ctx) &&
	     BN_mod_mul(u, ba, ba, bm, ctx) && !BN_cmp(t, u);
	BN_free(br);
	BN_free(ba);
	BN_free(bm);
	BN_free(t);
	BN_free(u);
	return ok;
}

FIXTURE(sqr) {
	BN_CTX *ctx;
};

FIXTURE_SETUP(sqr)
{
	if (bn_set_impl("ifma256"))
		SKIP(return, "no AVX512IFMA with AVX512VL here");
	self->ctx = BN_CTX_new();
	ASSERT_NE(NULL, self->ctx);
}

FIXTURE_TEARDOWN(sqr)
{
	BN_CTX_free(self->ctx);
}

#define N_MOD	4
#define N_OP	6	/* the last one random */
#define N_RAND	100

TEST_F(sqr, against_amm_and_openssl)
{
	static const int bits[] = { 1024, 1023, 960, 576 };
	static struct b52_mod md[2] __aligned(64);
	u64 a[2][B52_MAX_LANES] __aligned(64);
	u64 r[2][B52_MAX_LANES] __aligned(64);
	u64 z[2][B52_MAX_LANES] __aligned(64);
	size_t total = 0;
	int b, mk, ka, it, x;

	for (b = 0; b < (int)ARRAY_SIZE(bits); b++) {
		for (mk = 0; mk < N_MOD; mk++) {
			for (x = 0; x < 2; x++) {
				u64 inv = 1;
				int i;

				sqr_modulus(md[x].m, (mk + x) % N_MOD, bits[b]);
				/* -m^-1 mod 2^52, by Newton's iteration. */
				for (i = 0; i < 6; i++)
					inv *= 2 - md[x].m[0] * inv;
				md[x].k0 = (0 - inv) & B52_MASK;
			}
			for (ka = 0; ka < N_OP; ka++) {
				for (it = 0; it < (ka < N_OP - 1 ? 1 : N_RAND);
				     it++) {
					for (x = 0; x < 2; x++) {
						sqr_operand(a[x], md[x].m,
							    (ka + 3 * x) % N_OP);
						b52y_to_cols(a[x]);
						memcpy(r[x], a[x], sizeof(r[x]));
						b52y_to_cols(md[x].m);
					}
					b52y_amm_x2(z[0], a[0], a[0], &md[0],
						    z[1], a[1], a[1], &md[1]);
					/* In place, as the exponentiation calls it. */
					b52y_sqr_x2(r[0], r[0], &md[0],
						    r[1], r[1], &md[1]);
					for (x = 0; x < 2; x++) {
						b52y_from_cols(md[x].m);
						b52y_from_cols(a[x]);
						b52y_from_cols(r[x]);
						b52y_from_cols(z[x]);
						ASSERT_EQ(0, memcmp(r[x], z[x],
								    B52Y_L * 8))
							TH_LOG("bits %d m%d a%d x%d",
							       bits[b], mk, ka, x);
						ASSERT_TRUE(sqr_ok(r[x], a[x],
								   md[x].m,
								   self->ctx))
							TH_LOG("bits %d m%d a%d x%d",
							       bits[b], mk, ka, x);
						total++;
					}
				}
			}
		}
	}
	TH_LOG("%zu squarings", total);
}

TEST_HARNESS_MAIN
