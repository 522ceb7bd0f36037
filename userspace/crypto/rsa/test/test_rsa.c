// SPDX-License-Identifier: GPL-2.0
/*
 * test_rsa.c - RSA against OpenSSL's libcrypto, with keys OpenSSL makes
 * at test time (2048, 2049, 2056, 3072 and 4096 bits; 2049 has a
 * PSS encoding one byte shorter than the modulus):
 *
 *  - tlsx PSS-signs, OpenSSL verifies (salt = digest length, MGF1 with
 *    the same hash), and tlsx verifies too;
 *  - OpenSSL signs with PSS and PKCS#1 v1.5, tlsx verifies;
 *  - tampered signatures and digests, signatures >= n, of the wrong
 *    length, the wrong hash or the wrong scheme are rejected;
 *  - key checks accept OpenSSL's keys and reject broken ones; signing
 *    with an inconsistent key gives -EIO and an all-zero signature,
 *    also when the key is a changed copy of one that signed before;
 *  - one key signing many times: the kept blinding pair, squared per
 *    signature and drawn again every RSA_BLIND_USES, gives signatures
 *    OpenSSL verifies all along;
 *
 * all over SHA-256/384/512, with each Montgomery multiplication this CPU
 * has (bn_set_impl).
 */
#include "kselftest_harness.h"
#include "rsa/test/rsa_test.h"
#include "rsa/bn_impl.h"
#include "rand/random.h"

static const unsigned int key_bits[] = { 2048, 2048, 2049, 2056, 3072, 4096 };
#define NKEYS ARRAY_SIZE(key_bits)

static EVP_PKEY *ossl_keys[NKEYS];
static struct tlsx_rsa_private keys[NKEYS];
static const enum tlsx_hash_alg hashes[] = {
	TLSX_HASH_SHA256, TLSX_HASH_SHA384, TLSX_HASH_SHA512,
};

/* Made once, before the harness forks a child per test. */
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

static void rand_digest(u8 *d, size_t len)
{
	if (tlsx_random_bytes(d, len))
		abort();
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
}

FIXTURE_TEARDOWN(rsa)
{
}

/* Cases per key and hash, fewer for the slow 4096-bit key. */
static int cases(size_t key)
{
	return key_bits[key] > 3072 ? 6 : 16;
}

TEST_F(rsa, tlsx_signs_openssl_verifies)
{
	size_t i, h, total = 0;
	int c;

	for (i = 0; i < NKEYS; i++) {
		const struct tlsx_rsa_private *k = &keys[i];

		for (h = 0; h < ARRAY_SIZE(hashes); h++) {
			size_t dl = tlsx_hash_digest_size(hashes[h]);

			for (c = 0; c < cases(i); c++) {
				u8 dig[64], sig[RSA_MAX_BYTES + 1];

				rand_digest(dig, dl);
				memset(sig, 0xee, sizeof(sig));
				ASSERT_EQ(0, tlsx_rsa_pss_sign(sig, sizeof(sig),
							       k, hashes[h],
							       dig, dl));
				/* Exactly n_len bytes written. */
				ASSERT_EQ(0xee, sig[k->pub.n_len]);
				ASSERT_EQ(1, rt_ossl_verify(ossl_keys[i], true,
							    hashes[h], dig, dl,
							    sig,
							    k->pub.n_len))
					TH_LOG("%u bits, hash %d", key_bits[i],
					       hashes[h]);
				ASSERT_EQ(0, tlsx_rsa_pss_verify(&k->pub,
								 hashes[h],
								 dig, dl, sig,
								 k->pub.n_len));
				total++;
			}
		}
	}
	TH_LOG("%zu signatures", total);
}

TEST_F(rsa, openssl_signs_tlsx_verifies)
{
	size_t i, h, total = 0;
	int c;

	for (i = 0; i < NKEYS; i++) {
		const struct tlsx_rsa_public *k = &keys[i].pub;

		for (h = 0; h < ARRAY_SIZE(hashes); h++) {
			size_t dl = tlsx_hash_digest_size(hashes[h]), sl;

			for (c = 0; c < 2 * cases(i); c++) {
				u8 dig[64], sig[RSA_MAX_BYTES];
				bool pss = c & 1;

				rand_digest(dig, dl);
				sl = rt_ossl_sign(ossl_keys[i], pss, hashes[h],
						  dig, dl, sig, sizeof(sig));
				ASSERT_EQ(k->n_len, sl);
				if (pss) {
					ASSERT_EQ(0, tlsx_rsa_pss_verify(
						k, hashes[h], dig, dl, sig, sl));
					/* Not a v1.5 signature. */
					ASSERT_EQ(-EBADMSG,
						  tlsx_rsa_pkcs1_verify(
						k, hashes[h], dig, dl, sig, sl));
				} else {
					ASSERT_EQ(0, tlsx_rsa_pkcs1_verify(
						k, hashes[h], dig, dl, sig, sl));
					ASSERT_EQ(-EBADMSG,
						  tlsx_rsa_pss_verify(
						k, hashes[h], dig, dl, sig, sl));
				}
				total++;
			}
		}
	}
	TH_LOG("%zu signatures", total);
}

/* Both schemes: the verdict on a signature tlsx or OpenSSL made. */
static int verify(bool pss, const struct tlsx_rsa_public *k,
		  enum tlsx_hash_alg h, const u8 *dig, size_t dl,
		  const u8 *sig, size_t sl)
{
	return pss ? tlsx_rsa_pss_verify(k, h, dig, dl, sig, sl) :
		     tlsx_rsa_pkcs1_verify(k, h, dig, dl, sig, sl);
}

TEST_F(rsa, tampered_rejected)
{
	size_t i, h, total = 0;
	int c;

	for (i = 0; i < NKEYS; i++) {
		const struct tlsx_rsa_public *k = &keys[i].pub;

		for (h = 0; h < ARRAY_SIZE(hashes); h++) {
			size_t dl = tlsx_hash_digest_size(hashes[h]), sl, bit;
			enum tlsx_hash_alg other = hashes[(h + 1) % 3];

			for (c = 0; c < 8; c++) {
				u8 dig[64], sig[RSA_MAX_BYTES + 1];
				bool pss = c & 1;

				rand_digest(dig, dl);
				if (pss && c & 2) {
					ASSERT_EQ(0, tlsx_rsa_pss_sign(
						sig, sizeof(sig), &keys[i],
						hashes[h], dig, dl));
					sl = k->n_len;
				} else {
					sl = rt_ossl_sign(ossl_keys[i], pss,
							  hashes[h], dig, dl,
							  sig, sizeof(sig));
				}
				ASSERT_EQ(0, verify(pss, k, hashes[h], dig, dl,
						    sig, sl));
				/* A flipped bit of the signature. */
				rand_digest((u8 *)&bit, sizeof(bit));
				bit %= 8 * sl;
				sig[bit / 8] ^= 1 << (bit % 8);
				EXPECT_NE(0, verify(pss, k, hashes[h], dig, dl,
						    sig, sl));
				sig[bit / 8] ^= 1 << (bit % 8);
				/* A flipped bit of the digest. */
				rand_digest((u8 *)&bit, sizeof(bit));
				bit %= 8 * dl;
				dig[bit / 8] ^= 1 << (bit % 8);
				EXPECT_EQ(-EBADMSG, verify(pss, k, hashes[h],
							   dig, dl, sig, sl));
				dig[bit / 8] ^= 1 << (bit % 8);
				/* Wrong lengths of signature and digest. */
				EXPECT_EQ(-EBADMSG, verify(pss, k, hashes[h],
							   dig, dl, sig,
							   sl - 1));
				sig[sl] = 0;
				EXPECT_EQ(-EBADMSG, verify(pss, k, hashes[h],
							   dig, dl, sig,
							   sl + 1));
				EXPECT_EQ(-EINVAL, verify(pss, k, hashes[h],
							  dig, dl - 1, sig,
							  sl));
				/* The wrong hash (same length digest or not). */
				EXPECT_NE(0, verify(pss, k, other, dig,
						    tlsx_hash_digest_size(other),
						    sig, sl));
				/* Still valid after all that. */
				ASSERT_EQ(0, verify(pss, k, hashes[h], dig, dl,
						    sig, sl));
				total++;
			}
		}
	}
	TH_LOG("%zu signatures tampered with", total);
}

/* s >= n: n itself, n + 1, all ones; and zero, which is below n. */
TEST_F(rsa, signature_not_below_n)
{
	size_t i;

	for (i = 0; i < NKEYS; i++) {
		const struct tlsx_rsa_public *k = &keys[i].pub;
		u8 sig[RSA_MAX_BYTES], dig[64] = { 1 };
		size_t j;

		memcpy(sig, k->n, k->n_len);
		EXPECT_EQ(-EBADMSG, tlsx_rsa_pss_verify(k, TLSX_HASH_SHA256,
							dig, 32, sig,
							k->n_len));
		EXPECT_EQ(-EBADMSG, tlsx_rsa_pkcs1_verify(k, TLSX_HASH_SHA256,
							  dig, 32, sig,
							  k->n_len));
		/* n + 1 (n is odd: no carry). */
		sig[k->n_len - 1]++;
		EXPECT_EQ(-EBADMSG, tlsx_rsa_pss_verify(k, TLSX_HASH_SHA256,
							dig, 32, sig,
							k->n_len));
		memset(sig, 0xff, k->n_len);
		EXPECT_EQ(-EBADMSG, tlsx_rsa_pkcs1_verify(k, TLSX_HASH_SHA256,
							  dig, 32, sig,
							  k->n_len));
		memset(sig, 0, k->n_len);
		EXPECT_EQ(-EBADMSG, tlsx_rsa_pss_verify(k, TLSX_HASH_SHA256,
							dig, 32, sig,
							k->n_len));
		/* n - 1: valid range, not a valid signature. */
		memcpy(sig, k->n, k->n_len);
		sig[k->n_len - 1]--;
		for (j = 0; j < 3; j++)
			EXPECT_EQ(-EBADMSG,
				  verify(j & 1, k, hashes[j], dig,
					 tlsx_hash_digest_size(hashes[j]), sig,
					 k->n_len));
	}
}

/* Past several draws of the kept blinding pair, each one verified. */
TEST_F(rsa, blinding_pair_kept)
{
	struct tlsx_rsa_private k = keys[1];
	u8 dig[32], sig[RSA_MAX_BYTES];
	unsigned int i, fresh = 0;

	/* A fresh key: no state yet. */
	memset(&k.sign, 0, sizeof(k.sign));
	for (i = 0; i < 100; i++) {
		rand_digest(dig, sizeof(dig));
		ASSERT_EQ(0, tlsx_rsa_pss_sign(sig, sizeof(sig), &k,
					       TLSX_HASH_SHA256, dig, 32));
		ASSERT_EQ(1, rt_ossl_verify(ossl_keys[1], true,
					    TLSX_HASH_SHA256, dig, 32, sig,
					    k.pub.n_len)) TH_LOG("signature %u", i);
		ASSERT_GE(k.sign.uses, 1);
		ASSERT_LE(k.sign.uses, 32);
		fresh += k.sign.uses == 1;
	}
	/* Drawn at the first signature and every 32nd after. */
	EXPECT_EQ(4, fresh);
}

TEST_F(rsa, salts_differ)
{
	u8 dig[32] = { 7 }, s1[RSA_MAX_BYTES], s2[RSA_MAX_BYTES];
	const struct tlsx_rsa_private *k = &keys[0];

	ASSERT_EQ(0, tlsx_rsa_pss_sign(s1, sizeof(s1), k, TLSX_HASH_SHA256,
				       dig, 32));
	ASSERT_EQ(0, tlsx_rsa_pss_sign(s2, sizeof(s2), k, TLSX_HASH_SHA256,
				       dig, 32));
	EXPECT_NE(0, memcmp(s1, s2, k->pub.n_len));
	EXPECT_EQ(0, tlsx_rsa_pss_verify(&k->pub, TLSX_HASH_SHA256, dig, 32,
					 s1, k->pub.n_len));
	EXPECT_EQ(0, tlsx_rsa_pss_verify(&k->pub, TLSX_HASH_SHA256, dig, 32,
					 s2, k->pub.n_len));
}

TEST_F(rsa, key_checks)
{
	struct tlsx_rsa_private k;
	u8 dig[32] = { 3 }, sig[RSA_MAX_BYTES];
	size_t i, j;

	for (i = 0; i < NKEYS; i++) {
		EXPECT_EQ(0, tlsx_rsa_check_private(&keys[i]));
		EXPECT_EQ(0, tlsx_rsa_check_public(&keys[i].pub));
	}
	/* Each CRT value wrong in turn: rejected, and signing says -EIO. */
	for (j = 0; j < 4; j++) {
		k = keys[0];
		switch (j) {
		case 0:
			k.dp[k.dp_len / 2] ^= 0x10;
			break;
		case 1:
			k.dq[k.dq_len - 1] ^= 0x02;
			break;
		case 2:
			k.qinv[3] ^= 0x01;
			break;
		case 3:
			/* p and q swapped: qinv no longer matches. */
			memcpy(k.p, keys[0].q, keys[0].q_len);
			memcpy(k.q, keys[0].p, keys[0].p_len);
			memcpy(k.dp, keys[0].dq, keys[0].dq_len);
			memcpy(k.dq, keys[0].dp, keys[0].dp_len);
			k.p_len = keys[0].q_len;
			k.q_len = keys[0].p_len;
			k.dp_len = keys[0].dq_len;
			k.dq_len = keys[0].dp_len;
			break;
		}
		EXPECT_EQ(-EINVAL, tlsx_rsa_check_private(&k)) TH_LOG("%zu", j);
		memset(sig, 0x55, sizeof(sig));
		EXPECT_EQ(-EIO, tlsx_rsa_pss_sign(sig, sizeof(sig), &k,
						  TLSX_HASH_SHA256, dig, 32));
		for (i = 0; i < k.pub.n_len; i++)
			ASSERT_EQ(0, sig[i]);
	}
	/* n != p q */
	k = keys[0];
	k.pub.n[10] ^= 4;
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_private(&k));
	/* Another key's p. */
	k = keys[0];
	memcpy(k.p, keys[1].p, keys[1].p_len);
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_private(&k));
	/* Public: e even, 1, too small a modulus, a leading zero, even n. */
	k = keys[0];
	k.pub.e = 65536;
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_public(&k.pub));
	EXPECT_EQ(-EINVAL, tlsx_rsa_pss_verify(&k.pub, TLSX_HASH_SHA256, dig,
					       32, sig, k.pub.n_len));
	k.pub.e = 1;
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_public(&k.pub));
	k = keys[0];
	k.pub.n_len = 255;
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_public(&k.pub));
	EXPECT_EQ(-EINVAL, tlsx_rsa_pss_sign(sig, sizeof(sig), &k,
					     TLSX_HASH_SHA256, dig, 32));
	k = keys[0];
	k.pub.n[0] = 0;
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_public(&k.pub));
	k = keys[0];
	k.pub.n[k.pub.n_len - 1] ^= 1;
	EXPECT_EQ(-EINVAL, tlsx_rsa_check_public(&k.pub));
	/* A short signature buffer, an unknown hash. */
	EXPECT_EQ(-EINVAL, tlsx_rsa_pss_sign(sig, keys[0].pub.n_len - 1,
					     &keys[0], TLSX_HASH_SHA256, dig,
					     32));
	EXPECT_EQ(-EINVAL, tlsx_rsa_pss_sign(sig, sizeof(sig), &keys[0],
					     (enum tlsx_hash_alg)9, dig, 32));
	/* Wiping. */
	k = keys[0];
	tlsx_rsa_private_wipe(&k);
	for (i = 0; i < sizeof(k); i++)
		ASSERT_EQ(0, ((u8 *)&k)[i]);
}

/* 1024- and 2040-bit keys are below what RSA here takes. */
TEST(sizes_refused)
{
	unsigned int bits[] = { 1024, 2040 };
	struct tlsx_rsa_private k;
	u8 dig[32] = { 0 }, sig[RSA_MAX_BYTES + 8];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		EVP_PKEY *ok = rt_keygen(bits[i]);

		ASSERT_NE(NULL, ok);
		ASSERT_EQ(0, rt_export(ok, &k));
		EXPECT_EQ(-EINVAL, tlsx_rsa_check_public(&k.pub));
		EXPECT_EQ(-EINVAL, tlsx_rsa_check_private(&k));
		EXPECT_EQ(-EINVAL, tlsx_rsa_pss_sign(sig, sizeof(sig), &k,
						     TLSX_HASH_SHA256, dig,
						     32));
		EVP_PKEY_free(ok);
	}
}

TEST_HARNESS_MAIN
