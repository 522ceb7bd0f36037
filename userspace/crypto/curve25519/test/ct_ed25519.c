// SPDX-License-Identifier: GPL-2.0
/*
 * ct_ed25519.c - constant-time check of Ed25519 key expansion and
 * signing, run under valgrind's memcheck (tools/ctgrind, from `make
 * test-unit`).
 *
 * The seed, and for signing the expanded key (scalar and prefix), are
 * marked undefined: memcheck reports any conditional jump or memory
 * address computed from them or from what is derived from them (the
 * nonce r, the radix-16 digits of the fixed-base multiplication, the
 * table scan, S = r + k s mod L, SHA-512 over the prefix).  Outputs are
 * marked defined once returned, to be checked against OpenSSL.
 * Verification works on public data and is not checked here.
 *
 * Both implementations run: valgrind 3.19 hides ADX from CPUID but
 * executes MULX/ADCX/ADOX, so the mulx variant calls c25519_mulx
 * directly (see ct_x25519.c).  Natively the tests skip.
 */
#include <stdlib.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"
#include "curve25519/ed25519.h"
#include "rand/random.h"
#include "curve25519/c25519_impl.h"

static int ossl_verify(const u8 sig[64], const u8 pub[32], const u8 *msg,
		       size_t len)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL,
						  pub, 32);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok = 0;

	if (k && c && EVP_DigestVerifyInit(c, NULL, NULL, NULL, k) > 0)
		ok = EVP_DigestVerify(c, sig, 64, msg, len) == 1;
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(k);
	return ok;
}

static void ossl_public(u8 pub[32], const u8 seed[32])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL,
						   seed, 32);
	size_t n = 32;

	if (!k || !EVP_PKEY_get_raw_public_key(k, pub, &n))
		abort();
	EVP_PKEY_free(k);
}

FIXTURE(ct) {
	struct tlsx_ed25519_key k;
	u8 seed[32], msg[200];
};

FIXTURE_VARIANT(ct) {
	const struct c25519_impl *impl;
};

FIXTURE_VARIANT_ADD(ct, generic) {
	.impl = &c25519_generic,
};

FIXTURE_VARIANT_ADD(ct, mulx) {
	.impl = &c25519_mulx,
};

FIXTURE_SETUP(ct)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	ASSERT_EQ(0, tlsx_random_bytes(self->seed, 32));
	ASSERT_EQ(0, tlsx_random_bytes(self->msg, sizeof(self->msg)));
}

FIXTURE_TEARDOWN(ct)
{
	tlsx_ed25519_key_wipe(&self->k);
}

TEST_F(ct, key_from_seed)
{
	u8 want[32];

	ossl_public(want, self->seed);
	SECRET(self->seed, 32);
	c25519_ed25519_key_from_seed(variant->impl, &self->k, self->seed);
	PUBLIC(self->k.pub, 32);
	EXPECT_EQ(0, memcmp(self->k.pub, want, 32));
}

TEST_F(ct, sign)
{
	u8 sig[64];
	size_t len;

	c25519_ed25519_key_from_seed(variant->impl, &self->k, self->seed);
	for (len = 0; len <= sizeof(self->msg); len += 100) {
		SECRET(self->k.seed, 32);
		SECRET(self->k.scalar, 32);
		SECRET(self->k.prefix, 32);
		c25519_ed25519_sign(variant->impl, sig, &self->k, self->msg,
				    len);
		PUBLIC(sig, 64);
		PUBLIC(&self->k, sizeof(self->k));
		EXPECT_EQ(1, ossl_verify(sig, self->k.pub, self->msg, len));
	}
}

TEST_HARNESS_MAIN
