// SPDX-License-Identifier: GPL-2.0
/*
 * ct_p256.c - constant-time check of P-256 key derivation, ECDH and
 * ECDSA signing, run under valgrind's memcheck (tools/ctgrind, from
 * `make test-unit`).
 *
 * The private key is marked undefined (VALGRIND_MAKE_MEM_UNDEFINED), and
 * so is everything computed from it - the RFC 6979 nonce, k*G, k^-1, the
 * signature before it is released - so memcheck reports any conditional
 * jump or memory address that depends on them: the signed-window
 * recoding, the table scans, the masked point additions, both
 * inversions, the scalar arithmetic.  What the code is allowed to reveal
 * goes through p256_declassify(), which this program defines to mark it
 * defined (hence it compiles p256.c and p256_sign.c itself, and
 * p256_impl.c to set the choice of code): whether a key or nonce
 * candidate is in [1, n-1] and whether r or s is zero.
 * Outputs are marked defined after each call, then compared with
 * OpenSSL.
 *
 * Both field implementations run.  Valgrind 3.19 hides ADX from CPUID,
 * so the library alone would choose the portable code under valgrind;
 * it does execute MULX, ADCX, ADOX and AVX2, so the "adx" variant is
 * selected directly here.  Natively the tests skip: nothing would be
 * checked.
 */
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"

#define p256_declassify(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#include "p256/p256.c"
#include "p256/p256_impl.c"
#include "p256/p256_sign.c"


/* An OpenSSL key pair and its raw private and public key. */
static EVP_PKEY *ossl_gen(u8 priv[32], u8 pub[65])
{
	EVP_PKEY *pk = EVP_EC_gen("P-256");
	BIGNUM *d = NULL;
	size_t len = 0;

	if (!pk || EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY,
					 &d) != 1 ||
	    BN_bn2binpad(d, priv, 32) != 32 ||
	    EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, pub,
					    65, &len) != 1 || len != 65)
		abort();
	BN_clear_free(d);
	return pk;
}

static int ossl_verify(EVP_PKEY *pk, const u8 *dg, size_t dlen,
		       const u8 sig[64])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pk, NULL);
	u8 der[P256_SIG_DER_MAX];
	size_t len = tlsx_p256_sig_to_der(der, sig);
	int r = -1;

	if (ctx && EVP_PKEY_verify_init(ctx) == 1)
		r = EVP_PKEY_verify(ctx, der, len, dg, dlen);
	EVP_PKEY_CTX_free(ctx);
	return r;
}

static int ossl_derive(EVP_PKEY *a, EVP_PKEY *b, u8 out[32])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(a, NULL);
	size_t len = 32;
	int ok;

	ok = ctx && EVP_PKEY_derive_init(ctx) == 1 &&
	     EVP_PKEY_derive_set_peer(ctx, b) == 1 &&
	     EVP_PKEY_derive(ctx, out, &len) == 1;
	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -1;
}

FIXTURE(ct) {
	int unused;
};

FIXTURE_VARIANT(ct) {
	enum p256_impl impl;
	bool needs_cpu;		/* MULX/ADX/AVX2 on the host */
};

FIXTURE_VARIANT_ADD(ct, generic) {
	.impl = P256_GENERIC,
};

FIXTURE_VARIANT_ADD(ct, adx) {
	.impl = P256_ADX,
	.needs_cpu = true,
};

FIXTURE_SETUP(ct)
{
	const struct tlsx_cpu *c = tlsx_cpu_features();

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	/* under valgrind CPUID hides ADX: ask for BMI2 and AVX2 only */
	if (variant->needs_cpu && !(c->bmi2 && c->avx2))
		SKIP(return, "no BMI2/AVX2 on this CPU");
	p256_choice = variant->impl;
}

FIXTURE_TEARDOWN(ct)
{
}

#define CT_KEYS	3

TEST_F(ct, public_key)
{
	int i;

	for (i = 0; i < CT_KEYS; i++) {
		u8 priv[32], want[65], pub[65];
		EVP_PKEY *pk = ossl_gen(priv, want);
		int ret;

		SECRET(priv, sizeof(priv));
		ret = tlsx_p256_public(pub, priv);
		PUBLIC(&ret, sizeof(ret));
		ASSERT_EQ(0, ret);
		PUBLIC(pub, sizeof(pub));
		EXPECT_EQ(0, memcmp(pub, want, 65));
		EVP_PKEY_free(pk);
	}
}

/*
 * Key generation: its random bytes come from getrandom(), which
 * valgrind takes for defined, so this checks only that nothing else
 * (the check, the public key) branches on them once marked secret by
 * tlsx_p256_public above; here it runs whole for memory errors.
 */
TEST_F(ct, keygen)
{
	u8 priv[32], pub[65], again[65];

	ASSERT_EQ(0, tlsx_p256_keygen(priv, pub));
	ASSERT_EQ(0, tlsx_p256_public(again, priv));
	EXPECT_EQ(0, memcmp(pub, again, 65));
}

TEST_F(ct, ecdh)
{
	int i;

	for (i = 0; i < CT_KEYS; i++) {
		u8 a[32], apub[65], b[32], bpub[65], z[32], want[32];
		EVP_PKEY *ka = ossl_gen(a, apub), *kb = ossl_gen(b, bpub);
		int ret;

		ASSERT_EQ(0, ossl_derive(ka, kb, want));
		SECRET(a, sizeof(a));
		ret = tlsx_p256_ecdh(z, a, bpub, 65);
		PUBLIC(&ret, sizeof(ret));
		ASSERT_EQ(0, ret);
		PUBLIC(z, sizeof(z));
		EXPECT_EQ(0, memcmp(z, want, 32));
		EVP_PKEY_free(ka);
		EVP_PKEY_free(kb);
	}
}

TEST_F(ct, sign)
{
	int i;

	for (i = 0; i < CT_KEYS; i++) {
		u8 priv[32], pub[65], sig[64], dg[48];
		EVP_PKEY *pk = ossl_gen(priv, pub);
		bool hedge = i % 2;
		int ret;

		memset(dg, 0x5a + i, sizeof(dg));
		SECRET(priv, sizeof(priv));
		ret = tlsx_p256_sign(sig, priv, i == 2 ? TLSX_HASH_SHA384 :
				     TLSX_HASH_SHA256, dg, i == 2 ? 48 : 32,
				     hedge);
		PUBLIC(&ret, sizeof(ret));
		ASSERT_EQ(0, ret);
		PUBLIC(sig, sizeof(sig));
		EXPECT_EQ(1, ossl_verify(pk, dg, i == 2 ? 48 : 32, sig));
		EVP_PKEY_free(pk);
	}
}

/* Verification of a signature marked secret, in ct_count_reports(). */
static int verify_secret_signature(void *arg)
{
	u8 priv[32], pub[65], sig[64], dg[32] = { 7 };
	int ret;

	(void)arg;
	if (tlsx_p256_keygen(priv, pub) ||
	    tlsx_p256_sign(sig, priv, TLSX_HASH_SHA256, dg, 32, false))
		return -1;
	SECRET(sig, sizeof(sig));
	ret = tlsx_p256_verify(sig, pub, 65, dg, 32);
	PUBLIC(&ret, sizeof(ret));
	return ret;
}

/*
 * The check can fail: verification is variable-time by design (its
 * inputs are public), so with its signature marked secret memcheck must
 * report errors.
 */
TEST(detects_variable_time_code)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	TH_LOG("the memcheck reports above, if any, are this test's own");
	EXPECT_LT(0, ct_count_reports(verify_secret_signature, NULL));
}

TEST_HARNESS_MAIN
