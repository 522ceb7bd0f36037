// SPDX-License-Identifier: GPL-2.0
/*
 * AES-CCM key setup and choice of engine.
 *
 * Plain C.  The round keys are the standard FIPS-197 ones whatever the
 * implementation, and both engines (portable and AES-NI) run on those
 * same round keys, so the dispatcher can fall back on the same key.  For
 * the SSE impl they are computed with AES-NI (aes_keyexp_aesni.c: the
 * dispatcher calls tlsx_ccm_setkey() inside a SIMD section for every
 * impl but GENERIC), for GENERIC with the portable, constant-time
 * expansion of gcm_generic.c; the bytes are the same.  Only AES-128 is
 * offered (TLS_AES_128_CCM_SHA256 and its TLS 1.2 counterparts).
 */
#include "aead/platform.h"
#include "aead/gcm_engines.h"
#include "aead/ccm_engines.h"

int tlsx_ccm_setkey(struct tlsx_aead_key *k, const u8 *key, size_t key_len,
		    enum tlsx_aead_impl impl)
{
	struct tlsx_ccm_key *c = &k->u.ccm;

	if (key_len != 16)
		return -EINVAL;
	if (impl != TLSX_IMPL_GENERIC && impl != TLSX_IMPL_SSE)
		return -EOPNOTSUPP;
	memzero_explicit(c, sizeof(*c));
	if (impl == TLSX_IMPL_SSE)
		c->rounds = tlsx_aes_setkey_simd(c->rk, key, key_len, NULL);
	else
		c->rounds = tlsx_aes_expand_key(c->rk, key, key_len);
	k->impl = impl;
	return 0;
}

const struct tlsx_aead_ops *tlsx_ccm_ops(enum tlsx_aead_impl impl)
{
	switch (impl) {
	case TLSX_IMPL_GENERIC:
		return &tlsx_ccm_generic_ops;
	case TLSX_IMPL_SSE:
		return &tlsx_ccm_aesni_ops;
	default:
		/*
		 * No wider engine: the CBC-MAC chain bounds CCM at one block
		 * per AES latency whatever the vector width (ccm_aesni.c).
		 */
		return NULL;
	}
}
