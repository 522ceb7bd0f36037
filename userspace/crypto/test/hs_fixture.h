/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_fixture.h - the kselftest fixture "hs" of the two stack programs
 * (test_stack_left, test_stack_depth): every primitive of hs_probe.h as
 * a variant, its inputs set up once per test.  Include once, after
 * kselftest_harness.h and hs_probe.h.
 */

FIXTURE(hs) {
	int unused;
};

FIXTURE_VARIANT(hs) {
	enum hs_op op;
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

FIXTURE_SETUP(hs)
{
#ifdef __SANITIZE_ADDRESS__
	SKIP(return, "the frames under ASan are not the product's");
#endif
	ASSERT_EQ(0, hs_inputs_init());
}

FIXTURE_TEARDOWN(hs)
{
}
