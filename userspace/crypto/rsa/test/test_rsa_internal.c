// SPDX-License-Identifier: GPL-2.0
/*
 * test_rsa_internal.c - what the public API cannot show, with rsa.c
 * compiled into this program:
 *
 *  - known answers for the private operation: PKCS#1 v1.5 signatures are
 *    deterministic, so the blinded CRT operation on the v1.5 encoding of
 *    a digest must give exactly the bytes OpenSSL's signature has (keys
 *    of 2048, 2049, 3072 and 4096 bits made at test time, SHA-256/384/
 *    512, every Montgomery multiplication this CPU has);
 *  - the fault check: one bit of s_p corrupted before recombination (the
 *    tlsx_rsa_fault seam) makes signing fail with -EIO and leaves the
 *    output all zero, whichever bit and key; the same key signs fine
 *    without the fault;
 *  - PSS encodings: rsa_pss_encode() with a chosen salt, as recovered by
 *    OpenSSL's raw public operation on tlsx's signature.
 */
#include <stdint.h>
#include <stdlib.h>

static int fault_bit = -1;

static void inject_fault(uint64_t *sp, size_t n)
{
	if (fault_bit >= 0 && (size_t)fault_bit / 64 < n)
		sp[fault_bit / 64] ^= 1ULL << (fault_bit % 64);
}

#define tlsx_rsa_fault(sp, n) inject_fault((sp), (n))
#include "rsa/rsa.c"

#include "kselftest_harness.h"
#include "rsa/test/rsa_test.h"
#include "rsa/bn_impl.h"

static const unsigned int key_bits[] = { 2048, 2049, 3072, 4096 };
#define NKEYS ARRAY_SIZE(key_bits)

static EVP_PKEY *ossl_keys[NKEYS];
static struct tlsx_rsa_private keys[NKEYS];

__attribute__((constructor)) static void make_keys(void)
{
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		ossl_keys[i] = rt_keygen(key_bits[i]);
		if (!ossl_keys[i] || rt_export(ossl_keys[i], &keys[i])) {
			fprintf(stderr, "keygen %u failed\n", key_bits[i]);
			exit(1);
		}
	}
}

FIXTURE(rsa) {
	int unused;
};

FIXTURE_VARIANT(rsa) {
	const char *impl;
};

FIXTURE_VARIANT_ADD(rsa, generic) {
	.impl = "generic",
};

FIXTURE_VARIANT_ADD(rsa, mulx) {
	.impl = "mulx",
};

FIXTURE_VARIANT_ADD(rsa, ifma) {
	.impl = "ifma",
};

FIXTURE_VARIANT_ADD(rsa, ifma256) {
	.impl = "ifma256",
};

FIXTURE_SETUP(rsa)
{
	if (bn_set_impl(variant->impl))
		SKIP(return, "no %s Montgomery multiplication here",
		     variant->impl);
	fault_bit = -1;
}

FIXTURE_TEARDOWN(rsa)
{
}

TEST_F(rsa, pkcs1_known_answer)
{
	static const enum tlsx_hash_alg hashes[] = {
		TLSX_HASH_SHA256, TLSX_HASH_SHA384, TLSX_HASH_SHA512,
	};
	size_t i, h, total = 0;
	int c;

	for (i = 0; i < NKEYS; i++) {
		size_t k = keys[i].pub.n_len;

		for (h = 0; h < ARRAY_SIZE(hashes); h++) {
			size_t dl = tlsx_hash_digest_size(hashes[h]);

			for (c = 0; c < 4; c++) {
				u8 dig[64], em[RSA_MAX_BYTES];
				u8 want[RSA_MAX_BYTES], got[RSA_MAX_BYTES];

				ASSERT_EQ(0, tlsx_random_bytes(dig, dl));
				ASSERT_EQ(k, rt_ossl_sign(ossl_keys[i], false,
							  hashes[h], dig, dl,
							  want, sizeof(want)));
				ASSERT_EQ(0, rsa_pkcs1_encode(em, k, hashes[h],
							      dig, dl));
				ASSERT_EQ(0, rsa_private_op(got, &keys[i], em));
				ASSERT_EQ(0, memcmp(got, want, k))
					TH_LOG("%u bits", key_bits[i]);
				total++;
			}
		}
	}
	TH_LOG("%zu private operations match OpenSSL", total);
}

TEST_F(rsa, fault_gives_eio)
{
	u8 dig[32] = { 9 }, sig[RSA_MAX_BYTES];
	size_t i, j;
	int c;

	for (i = 0; i < NKEYS; i++) {
		const struct tlsx_rsa_private *k = &keys[i];
		size_t pbits = 8 * k->p_len;

		for (c = 0; c < 8; c++) {
			/* Bits 0, the top one, and some in between. */
			fault_bit = c == 0 ? 0 : c == 1 ? (int)pbits - 1 :
				    (int)(pbits * (size_t)c / 8);
			memset(sig, 0x55, sizeof(sig));
			ASSERT_EQ(-EIO, tlsx_rsa_pss_sign(sig, sizeof(sig), k,
							  TLSX_HASH_SHA256,
							  dig, 32))
				TH_LOG("%u bits, fault at %d", key_bits[i],
				       fault_bit);
			for (j = 0; j < k->pub.n_len; j++)
				ASSERT_EQ(0, sig[j]);
		}
		fault_bit = -1;
		ASSERT_EQ(0, tlsx_rsa_pss_sign(sig, sizeof(sig), k,
					       TLSX_HASH_SHA256, dig, 32));
		ASSERT_EQ(0, tlsx_rsa_pss_verify(&k->pub, TLSX_HASH_SHA256,
						 dig, 32, sig, k->pub.n_len));
	}
}

/* tlsx's signature opened by OpenSSL with no padding: EM as encoded. */
TEST_F(rsa, pss_encoding_recovered)
{
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		const struct tlsx_rsa_private *k = &keys[i];
		size_t n_len = k->pub.n_len, em_bits, em_len, len;
		u8 dig[48], salt[48], em[RSA_MAX_BYTES], sig[RSA_MAX_BYTES];
		u8 back[RSA_MAX_BYTES];
		EVP_PKEY_CTX *c;

		ASSERT_EQ(0, tlsx_random_bytes(dig, sizeof(dig)));
		ASSERT_EQ(0, tlsx_random_bytes(salt, sizeof(salt)));
		em_bits = rsa_bits(&k->pub) - 1;
		em_len = (em_bits + 7) / 8;
		memset(em, 0, sizeof(em));
		ASSERT_EQ(0, rsa_pss_encode(em + n_len - em_len, em_bits,
					    TLSX_HASH_SHA384, dig, 48, salt));
		ASSERT_EQ(0, rsa_pss_check(em + n_len - em_len, em_bits,
					   TLSX_HASH_SHA384, dig, 48));
		ASSERT_EQ(0, rsa_private_op(sig, k, em));
		/* OpenSSL accepts it as a PSS signature... */
		ASSERT_EQ(1, rt_ossl_verify(ossl_keys[i], true,
					    TLSX_HASH_SHA384, dig, 48, sig,
					    n_len));
		/* ...and its raw public operation gives EM back. */
		c = EVP_PKEY_CTX_new(ossl_keys[i], NULL);
		ASSERT_NE(NULL, c);
		ASSERT_EQ(1, EVP_PKEY_verify_recover_init(c));
		ASSERT_EQ(1, EVP_PKEY_CTX_set_rsa_padding(c, RSA_NO_PADDING));
		len = sizeof(back);
		ASSERT_EQ(1, EVP_PKEY_verify_recover(c, back, &len, sig,
						     n_len));
		EVP_PKEY_CTX_free(c);
		ASSERT_EQ(n_len, len);
		ASSERT_EQ(0, memcmp(back, em, n_len));
		/* The salt sits just before H || 0xbc once unmasked. */
		ASSERT_EQ(0xbc, em[n_len - 1]);
		/* A wrong digest or a broken trailer fails the check. */
		dig[0] ^= 1;
		ASSERT_EQ(-EBADMSG, rsa_pss_check(em + n_len - em_len, em_bits,
						  TLSX_HASH_SHA384, dig, 48));
		dig[0] ^= 1;
		em[n_len - 1] = 0xbd;
		ASSERT_EQ(-EBADMSG, rsa_pss_check(em + n_len - em_len, em_bits,
						  TLSX_HASH_SHA384, dig, 48));
	}
}

TEST_HARNESS_MAIN
