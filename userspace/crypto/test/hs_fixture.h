/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_fixture.h - the kselftest fixture "hs" of the two stack programs
 * (test_stack_left, test_stack_depth): every primitive of hs_probe.h as
 * a variant, its inputs set up once per test; HMAC and HKDF once per
 * block function of their hash.  Include once, after
 * kselftest_harness.h and hs_probe.h.
 */

FIXTURE(hs) {
	int unused;
};

FIXTURE_VARIANT(hs) {
	enum hs_op op;
	const char *sha256, *sha512;	/* block functions, or the default */
};

FIXTURE_VARIANT_ADD(hs, x25519) {
	.op = HS_X25519,
};

FIXTURE_VARIANT_ADD(hs, x25519_public) {
	.op = HS_X25519_PUBLIC,
};

FIXTURE_VARIANT_ADD(hs, ed25519_from_seed) {
	.op = HS_ED25519_FROM_SEED,
};

FIXTURE_VARIANT_ADD(hs, ed25519_sign) {
	.op = HS_ED25519_SIGN,
};

FIXTURE_VARIANT_ADD(hs, p256_public) {
	.op = HS_P256_PUBLIC,
};

FIXTURE_VARIANT_ADD(hs, p256_ecdh) {
	.op = HS_P256_ECDH,
};

FIXTURE_VARIANT_ADD(hs, p256_sign) {
	.op = HS_P256_SIGN,
};

FIXTURE_VARIANT_ADD(hs, mlkem_keygen) {
	.op = HS_MLKEM_KEYGEN,
};

FIXTURE_VARIANT_ADD(hs, mlkem_encaps) {
	.op = HS_MLKEM_ENCAPS,
};

FIXTURE_VARIANT_ADD(hs, mlkem_decaps) {
	.op = HS_MLKEM_DECAPS,
};

FIXTURE_VARIANT_ADD(hs, rsa2048_sign) {
	.op = HS_RSA2048_SIGN,
};

FIXTURE_VARIANT_ADD(hs, rsa4096_sign) {
	.op = HS_RSA4096_SIGN,
};

FIXTURE_VARIANT_ADD(hs, rsa_check) {
	.op = HS_RSA_CHECK,
};

FIXTURE_VARIANT_ADD(hs, hmac_sha256_generic) {
	.op = HS_HMAC_SHA256, .sha256 = "generic",
};

FIXTURE_VARIANT_ADD(hs, hmac_sha256_shani) {
	.op = HS_HMAC_SHA256, .sha256 = "shani",
};

FIXTURE_VARIANT_ADD(hs, hmac_sha256_avx2) {
	.op = HS_HMAC_SHA256, .sha256 = "avx2",
};

FIXTURE_VARIANT_ADD(hs, hmac_sha384_generic) {
	.op = HS_HMAC_SHA384, .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(hs, hmac_sha384_avx2) {
	.op = HS_HMAC_SHA384, .sha512 = "avx2",
};

FIXTURE_VARIANT_ADD(hs, hmac_sha384_avx512) {
	.op = HS_HMAC_SHA384, .sha512 = "avx512",
};

FIXTURE_VARIANT_ADD(hs, hkdf_extract) {
	.op = HS_HKDF_EXTRACT,
};

FIXTURE_VARIANT_ADD(hs, hkdf_expand_sha256_generic) {
	.op = HS_HKDF_EXPAND_SHA256, .sha256 = "generic",
};

FIXTURE_VARIANT_ADD(hs, hkdf_expand_sha256_shani) {
	.op = HS_HKDF_EXPAND_SHA256, .sha256 = "shani",
};

FIXTURE_VARIANT_ADD(hs, hkdf_expand_sha256_avx2) {
	.op = HS_HKDF_EXPAND_SHA256, .sha256 = "avx2",
};

FIXTURE_VARIANT_ADD(hs, hkdf_expand_sha384_generic) {
	.op = HS_HKDF_EXPAND_SHA384, .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(hs, hkdf_expand_sha384_avx2) {
	.op = HS_HKDF_EXPAND_SHA384, .sha512 = "avx2",
};

FIXTURE_VARIANT_ADD(hs, hkdf_expand_sha384_avx512) {
	.op = HS_HKDF_EXPAND_SHA384, .sha512 = "avx512",
};

FIXTURE_SETUP(hs)
{
	int ret;

#ifdef __SANITIZE_ADDRESS__
	SKIP(return, "the frames under ASan are not the product's");
#endif
	/* each test runs in its own process: the choice ends with it */
	if (variant->sha256 || variant->sha512) {
		ret = tlsx_sha2_force_impl(variant->sha256, variant->sha512);
		if (ret == -ENOTSUP)
			SKIP(return, "this CPU cannot run %s",
			     variant->sha256 ?: variant->sha512);
		ASSERT_EQ(0, ret);
	}
	ASSERT_EQ(0, hs_inputs_init(variant->op == HS_RSA2048_SIGN ||
				    variant->op == HS_RSA4096_SIGN ||
				    variant->op == HS_RSA_CHECK));
}

FIXTURE_TEARDOWN(hs)
{
}
