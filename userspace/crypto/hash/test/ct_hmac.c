// SPDX-License-Identifier: GPL-2.0
/*
 * ct_hmac.c - constant-time check of HMAC and HKDF, run under valgrind's
 * memcheck (tools/ctgrind, from `make test-unit`):
 *
 *	valgrind --tool=memcheck --error-exitcode=99 build/test/ct_hmac
 *
 * Keys, HMAC data, HKDF input keying material and PRKs are marked
 * undefined (VALGRIND_MAKE_MEM_UNDEFINED): a branch or a memory address
 * computed from them is reported and fails the run.  Outputs are marked
 * defined once the calls are done, to check them against OpenSSL.
 *
 * Valgrind cannot run SHA-NI (and hides it from CPUID), so SHA-256 runs
 * on the portable code and, when the CPU as valgrind presents it has
 * AVX2 (valgrind 3.19 runs AVX2), on the AVX2 schedule; SHA-384/512 on
 * the portable code and the AVX2 schedule.  Valgrind 3.19 hides AVX-512, so the AVX-512VL
 * schedule (the same template, other instructions for the sigmas, no
 * branch or index on data either) skips here.  Natively the tests skip:
 * nothing would be checked.
 */
#include <unistd.h>
#include <openssl/core_names.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"
#include "hash/test/sha2_test.h"
#include "hash/hmac.h"
#include "hash/hkdf.h"


static const char *alg_name(enum tlsx_hash_alg alg)
{
	return alg == TLSX_HASH_SHA256 ? "SHA256" :
	       alg == TLSX_HASH_SHA384 ? "SHA384" : "SHA512";
}

static void ref_hmac(enum tlsx_hash_alg alg, const u8 *key, size_t key_len,
		     const u8 *data, size_t len, u8 *out)
{
	unsigned int n;

	if (!HMAC(ref_md(alg), key, (int)key_len, data, len, out, &n))
		abort();
}

static void ref_expand(enum tlsx_hash_alg alg, const u8 *prk,
		       size_t prk_len, const u8 *info, size_t info_len,
		       u8 *out, size_t out_len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
	OSSL_PARAM params[5];

	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						     (char *)alg_name(alg), 0);
	params[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						      (void *)prk, prk_len);
	params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
						      (void *)info, info_len);
	params[4] = OSSL_PARAM_construct_end();
	if (!ctx || EVP_KDF_derive(ctx, out, out_len, params) <= 0)
		abort();
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
}

/*
 * OpenSSL loads its providers on first use; doing that once here, before
 * the harness forks a process per test, saves each test doing it again
 * under valgrind.
 */
__attribute__((constructor)) static void warm_openssl(void)
{
	u8 out[32] = { 0 };

	EVP_KDF_free(EVP_KDF_fetch(NULL, "HKDF", NULL));
	ref_hmac(TLSX_HASH_SHA256, out, 1, out, 1, out);
}

FIXTURE(ct) {
	int dummy;
};

FIXTURE_VARIANT(ct) {
	enum tlsx_hash_alg alg;
	const char *sha256;
	const char *sha512;
};

FIXTURE_VARIANT_ADD(ct, sha256_generic) {
	.alg = TLSX_HASH_SHA256, .sha256 = "generic", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(ct, sha256_avx2) {
	.alg = TLSX_HASH_SHA256, .sha256 = "avx2", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(ct, sha384_generic) {
	.alg = TLSX_HASH_SHA384, .sha256 = "generic", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(ct, sha512_generic) {
	.alg = TLSX_HASH_SHA512, .sha256 = "generic", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(ct, sha384_avx2) {
	.alg = TLSX_HASH_SHA384, .sha256 = "generic", .sha512 = "avx2",
};

FIXTURE_VARIANT_ADD(ct, sha512_avx2) {
	.alg = TLSX_HASH_SHA512, .sha256 = "generic", .sha512 = "avx2",
};

FIXTURE_VARIANT_ADD(ct, sha512_avx512) {
	.alg = TLSX_HASH_SHA512, .sha256 = "generic", .sha512 = "avx512",
};

FIXTURE_SETUP(ct)
{
	int ret;

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	ret = tlsx_sha2_force_impl(variant->sha256, variant->sha512);
	if (ret == -ENOTSUP)
		SKIP(return, "no %s/%s SHA-256/512 under valgrind here",
		     variant->sha256, variant->sha512);
	ASSERT_EQ(0, ret);
	TH_LOG("SHA-256 %s, SHA-512 %s", tlsx_sha256_impl(),
	       tlsx_sha512_impl());
}

FIXTURE_TEARDOWN(ct)
{
}

/* Key lengths around both block sizes, short and hashed keys. */
static const size_t key_lens[] = { 1, 16, 32, 48, 64, 65, 128, 129, 200 };

TEST_F(ct, hmac)
{
	const enum tlsx_hash_alg alg = variant->alg;
	size_t ds = tlsx_hash_digest_size(alg), i;
	u8 key[200], data[300], want[64], got[64];
	u64 rng = 0x1234;

	for (i = 0; i < ARRAY_SIZE(key_lens); i++) {
		size_t kl = key_lens[i], dl = 37 * i + 3, j;
		struct tlsx_hmac m;

		rng_fill(&rng, key, kl);
		rng_fill(&rng, data, dl);
		ref_hmac(alg, key, kl, data, dl, want);

		/* One-shot: key and data secret. */
		SECRET(key, kl);
		SECRET(data, dl);
		ASSERT_EQ(0, tlsx_hmac(alg, key, kl, data, dl, got));
		PUBLIC(got, ds);
		EXPECT_EQ(0, memcmp(got, want, ds)) TH_LOG("key %zu", kl);

		/* Streaming, in uneven pieces. */
		memset(got, 0, sizeof(got));
		ASSERT_EQ(0, tlsx_hmac_init(&m, alg, key, kl));
		for (j = 0; j < dl; j += 7)
			tlsx_hmac_update(&m, data + j, dl - j < 7 ? dl - j : 7);
		tlsx_hmac_final(&m, got);
		PUBLIC(got, ds);
		EXPECT_EQ(0, memcmp(got, want, ds)) TH_LOG("key %zu", kl);
		PUBLIC(key, kl);
		PUBLIC(data, dl);
	}
}

TEST_F(ct, hkdf)
{
	const enum tlsx_hash_alg alg = variant->alg;
	size_t ds = tlsx_hash_digest_size(alg);
	u8 salt[64], ikm[64], prk[64], want_prk[64];
	u8 info[40], okm[3 * 64 + 5], want[3 * 64 + 5];
	u64 rng = 0x4b4446;

	rng_fill(&rng, salt, sizeof(salt));
	rng_fill(&rng, ikm, sizeof(ikm));
	rng_fill(&rng, info, sizeof(info));

	/* Extract: the salt is public, the input keying material secret. */
	ref_hmac(alg, salt, ds, ikm, 32, want_prk);
	SECRET(ikm, sizeof(ikm));
	ASSERT_EQ(0, tlsx_hkdf_extract(alg, salt, ds, ikm, 32, prk));
	PUBLIC(prk, ds);
	EXPECT_EQ(0, memcmp(prk, want_prk, ds));

	/* Expand over several blocks from a secret PRK. */
	ref_expand(alg, prk, ds, info, sizeof(info), want, sizeof(want));
	SECRET(prk, ds);
	ASSERT_EQ(0, tlsx_hkdf_expand(alg, prk, ds, info, sizeof(info), okm,
				      sizeof(okm)));
	PUBLIC(okm, sizeof(okm));
	EXPECT_EQ(0, memcmp(okm, want, sizeof(okm)));
}

/* The TLS 1.3 helpers: a secret traffic secret, public labels. */
TEST_F(ct, expand_label)
{
	static const u8 hkdf_label_key[] = {
		0x00, 0x10, 0x09, 't', 'l', 's', '1', '3', ' ', 'k', 'e', 'y',
		0x00,
	};
	const enum tlsx_hash_alg alg = variant->alg;
	size_t ds = tlsx_hash_digest_size(alg);
	u8 secret[64], th[64], key[16], want[64], out[64];
	u64 rng = 0x4c424c;

	rng_fill(&rng, secret, sizeof(secret));
	rng_fill(&rng, th, sizeof(th));
	ref_expand(alg, secret, ds, hkdf_label_key, sizeof(hkdf_label_key),
		   want, 16);
	SECRET(secret, ds);
	ASSERT_EQ(0, tlsx_hkdf_expand_label(alg, secret, "key", NULL, 0, key,
					    sizeof(key)));
	PUBLIC(key, sizeof(key));
	EXPECT_EQ(0, memcmp(key, want, 16));

	/* Derive-Secret: the transcript hash is public. */
	ASSERT_EQ(0, tlsx_derive_secret(alg, secret, "c hs traffic", th, out));
	PUBLIC(out, ds);
	PUBLIC(secret, ds);
	ASSERT_EQ(0, tlsx_hkdf_expand_label(alg, secret, "c hs traffic", th,
					    ds, want, ds));
	EXPECT_EQ(0, memcmp(out, want, ds));
}

TEST_HARNESS_MAIN
