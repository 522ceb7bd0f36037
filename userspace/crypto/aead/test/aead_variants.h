/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aead_variants.h - every AEAD algorithm with every implementation, as
 * variants of the kselftest fixture "aead".  Include once, after
 * FIXTURE_VARIANT(aead) { enum tlsx_aead_alg alg;
 * enum tlsx_aead_impl impl; }.
 */

FIXTURE_VARIANT_ADD(aead, aes128_generic) {
	.alg = TLSX_AEAD_AES_128_GCM,
	.impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(aead, aes128_sse) {
	.alg = TLSX_AEAD_AES_128_GCM,
	.impl = TLSX_IMPL_SSE,
};

FIXTURE_VARIANT_ADD(aead, aes128_avx2) {
	.alg = TLSX_AEAD_AES_128_GCM,
	.impl = TLSX_IMPL_AVX2,
};

FIXTURE_VARIANT_ADD(aead, aes128_avx512) {
	.alg = TLSX_AEAD_AES_128_GCM,
	.impl = TLSX_IMPL_AVX512,
};

FIXTURE_VARIANT_ADD(aead, aes256_generic) {
	.alg = TLSX_AEAD_AES_256_GCM,
	.impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(aead, aes256_sse) {
	.alg = TLSX_AEAD_AES_256_GCM,
	.impl = TLSX_IMPL_SSE,
};

FIXTURE_VARIANT_ADD(aead, aes256_avx2) {
	.alg = TLSX_AEAD_AES_256_GCM,
	.impl = TLSX_IMPL_AVX2,
};

FIXTURE_VARIANT_ADD(aead, aes256_avx512) {
	.alg = TLSX_AEAD_AES_256_GCM,
	.impl = TLSX_IMPL_AVX512,
};

FIXTURE_VARIANT_ADD(aead, chacha_generic) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305,
	.impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(aead, chacha_sse) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305,
	.impl = TLSX_IMPL_SSE,
};

FIXTURE_VARIANT_ADD(aead, chacha_avx2) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305,
	.impl = TLSX_IMPL_AVX2,
};

FIXTURE_VARIANT_ADD(aead, chacha_avx512) {
	.alg = TLSX_AEAD_CHACHA20_POLY1305,
	.impl = TLSX_IMPL_AVX512,
};

FIXTURE_VARIANT_ADD(aead, ccm128_generic) {
	.alg = TLSX_AEAD_AES_128_CCM,
	.impl = TLSX_IMPL_GENERIC,
};

FIXTURE_VARIANT_ADD(aead, ccm128_sse) {
	.alg = TLSX_AEAD_AES_128_CCM,
	.impl = TLSX_IMPL_SSE,
};
