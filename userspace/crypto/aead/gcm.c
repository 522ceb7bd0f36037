// SPDX-License-Identifier: GPL-2.0
/*
 * AES-GCM key setup and choice of engine.
 *
 * Plain C.  The round keys are the standard FIPS-197 ones and H is
 * AES_K(0) in the spec's byte order whatever the implementation, so the
 * generic engine can always run on the key; the SIMD engines then add
 * their own precomputation (powers of H) in k->simd.  The dispatcher calls
 * tlsx_gcm_setkey() inside a SIMD section for every impl but GENERIC,
 * which is what lets the AES-NI impls compute the round keys and H with
 * AES-NI (aes_keyexp_aesni.c, the same bytes as the portable, bitsliced
 * code of gcm_generic.c, some twenty times faster) and the precompute
 * functions use vector instructions.  GENERIC keeps the portable code.
 */
#include "aead/platform.h"
#include "aead/gcm_engines.h"

int tlsx_gcm_setkey(struct tlsx_aead_key *k, const u8 *key, size_t key_len,
		    enum tlsx_aead_impl impl)
{
	struct tlsx_gcm_key *g = &k->u.gcm;
	static const u8 zero[16];
	void (*precompute)(struct tlsx_gcm_key *g) = NULL;

	if (key_len != 16 && key_len != 32)
		return -EINVAL;

	switch (impl) {
	case TLSX_IMPL_GENERIC:
		break;
	case TLSX_IMPL_SSE:
		precompute = tlsx_gcm_precompute_aesni;
		break;
	case TLSX_IMPL_AVX2:
		precompute = tlsx_gcm_precompute_vaes_avx2;
		break;
	case TLSX_IMPL_AVX512:
		precompute = tlsx_gcm_precompute_avx512;
		break;
	default:
		return -EOPNOTSUPP;
	}

	memzero_explicit(g, sizeof(*g));
	if (precompute) {
		/* Every impl with a precompute has AES-NI. */
		g->rounds = tlsx_aes_setkey_simd(g->rk, key, key_len, g->h);
		precompute(g);
	} else {
		g->rounds = tlsx_aes_expand_key(g->rk, key, key_len);
		tlsx_aes_encrypt_block(g, zero, g->h);
	}
	k->impl = impl;
	return 0;
}

const struct tlsx_aead_ops *tlsx_gcm_ops(enum tlsx_aead_impl impl)
{
	switch (impl) {
	case TLSX_IMPL_GENERIC:
		return &tlsx_gcm_generic_ops;
	case TLSX_IMPL_SSE:
		/*
		 * The 128-bit engine in VEX encoding where the CPU has AVX:
		 * fewer instructions (no register copies) on the same keys.
		 */
		if (tlsx_cpu_features()->avx)
			return &tlsx_gcm_aesni_avx_ops;
		return &tlsx_gcm_aesni_ops;
	case TLSX_IMPL_AVX2:
		return &tlsx_gcm_vaes_avx2_ops;
	case TLSX_IMPL_AVX512:
		return &tlsx_gcm_avx512_ops;
	default:
		return NULL;
	}
}
