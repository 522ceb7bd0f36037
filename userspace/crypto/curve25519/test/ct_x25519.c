// SPDX-License-Identifier: GPL-2.0
/*
 * ct_x25519.c - constant-time check of X25519, run under valgrind's
 * memcheck (tools/ctgrind, from `make test-unit`).
 *
 * The private key is marked undefined (VALGRIND_MAKE_MEM_UNDEFINED):
 * memcheck then reports every conditional jump and every memory address
 * computed from it, so a secret-dependent branch or table index (the
 * ladder's swap, the fixed-base table scan, the recoding of the scalar,
 * the all-zero check) fails the run.  Outputs are marked defined again
 * only after the call, to be compared with OpenSSL.
 *
 * Both implementations run: valgrind 3.19 hides ADX from CPUID (so the
 * library itself would choose generic under valgrind) but executes MULX,
 * ADCX and ADOX, so the mulx variant calls c25519_mulx directly.  Under
 * valgrind that is safe on any host, since valgrind emulates the
 * instructions; natively the tests skip (nothing would be checked).
 */
#include <stdlib.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"
#include "curve25519/x25519.h"
#include "rand/random.h"
#include "curve25519/c25519_impl.h"

static int ossl_derive(u8 out[32], const u8 priv[32], const u8 peer[32])
{
	EVP_PKEY *a = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL,
						   priv, 32);
	EVP_PKEY *b = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL,
						  peer, 32);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(a, NULL);
	size_t n = 32;
	int ret = -1;

	if (a && b && c && EVP_PKEY_derive_init(c) > 0 &&
	    EVP_PKEY_derive_set_peer(c, b) > 0 &&
	    EVP_PKEY_derive(c, out, &n) > 0 && n == 32)
		ret = 0;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(a);
	EVP_PKEY_free(b);
	return ret;
}

static void ossl_public(u8 pub[32], const u8 priv[32])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL,
						   priv, 32);
	size_t n = 32;

	if (!k || !EVP_PKEY_get_raw_public_key(k, pub, &n))
		abort();
	EVP_PKEY_free(k);
}

FIXTURE(ct) {
	u8 priv[32], peer[32];
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
	ASSERT_EQ(0, tlsx_random_bytes(self->priv, 32));
	ASSERT_EQ(0, tlsx_random_bytes(self->peer, 32));
}

FIXTURE_TEARDOWN(ct)
{
}

TEST_F(ct, ladder)
{
	u8 out[32], want[32];
	int i;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, ossl_derive(want, self->priv, self->peer));
		SECRET(self->priv, 32);
		variant->impl->x25519(out, self->priv, self->peer);
		PUBLIC(out, 32);
		PUBLIC(self->priv, 32);
		EXPECT_EQ(0, memcmp(out, want, 32));
		self->priv[0] ^= out[1];
		self->peer[3] ^= out[2];
	}
}

TEST_F(ct, fixed_base)
{
	u8 out[32], want[32];
	int i;

	for (i = 0; i < 3; i++) {
		ossl_public(want, self->priv);
		SECRET(self->priv, 32);
		variant->impl->x25519_base(out, self->priv);
		PUBLIC(out, 32);
		PUBLIC(self->priv, 32);
		EXPECT_EQ(0, memcmp(out, want, 32));
		self->priv[0] ^= out[1];
	}
}

/*
 * The API on the implementation the library chose (under valgrind:
 * generic), including the all-zero check: a good peer and a small-order
 * one.  The result code is public once returned.
 */
TEST(api)
{
	u8 priv[32], pub[32], peer[32] = { 1 }, out[32], want[32];
	int ret;

	ASSERT_EQ(0, tlsx_random_bytes(priv, 32));
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	ossl_public(want, priv);
	SECRET(priv, 32);
	tlsx_x25519_public(pub, priv);
	PUBLIC(pub, 32);
	EXPECT_EQ(0, memcmp(pub, want, 32));

	ret = tlsx_x25519(out, priv, peer);	/* u = 1: order 4 */
	PUBLIC(&ret, sizeof(ret));
	EXPECT_EQ(-EINVAL, ret);

	ret = tlsx_x25519(out, priv, pub);
	PUBLIC(&ret, sizeof(ret));
	PUBLIC(out, 32);
	PUBLIC(priv, 32);
	EXPECT_EQ(0, ret);
	ASSERT_EQ(0, ossl_derive(want, priv, pub));
	EXPECT_EQ(0, memcmp(out, want, 32));
}

TEST_HARNESS_MAIN
