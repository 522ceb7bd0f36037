// SPDX-License-Identifier: GPL-2.0
/*
 * hmac.c - HMAC (RFC 2104, FIPS 198-1) over struct tlsx_hash.
 *
 * H((K0 ^ opad) || H((K0 ^ ipad) || text)), K0 the key padded with zeros
 * to the hash's block, or the hash of the key first when it is longer
 * than a block.  The only branch is on the key's length; its bytes are
 * copied, XORed and hashed, never compared.  The padded key and the
 * inner digest are wiped; the contexts are wiped by final.
 *
 * The block functions leave words of the padded key and of the text in
 * the stack (message schedules, spilled state), so tlsx_hmac() wipes as
 * deep as they reach once its work is done (aead/stack_wipe.h); the
 * streaming functions leave that to their caller's entry point.
 */
#include "aead/platform.h"
#include "aead/stack_wipe.h"
#include "hash/hmac.h"

int tlsx_hmac_init(struct tlsx_hmac *m, enum tlsx_hash_alg alg,
		   const u8 *key, size_t key_len)
{
	/* K0 as 64-bit words: the pads are XORed a word at a time. */
	u64 k0[TLSX_HASH_MAX_BLOCK / 8];
	size_t bs = tlsx_hash_block_size(alg), i;

	if (!bs)
		return -EINVAL;
	memset(k0, 0, bs);
	if (key_len > bs)
		tlsx_hash(alg, key, key_len, (u8 *)k0);
	else if (key_len)
		memcpy(k0, key, key_len);

	for (i = 0; i < bs / 8; i++)
		k0[i] ^= 0x3636363636363636ull;
	tlsx_hash_init(&m->inner, alg);
	tlsx_hash_update(&m->inner, k0, bs);

	/* (K0 ^ ipad) ^ (ipad ^ opad) = K0 ^ opad */
	for (i = 0; i < bs / 8; i++)
		k0[i] ^= 0x3636363636363636ull ^ 0x5c5c5c5c5c5c5c5cull;
	tlsx_hash_init(&m->outer, alg);
	tlsx_hash_update(&m->outer, k0, bs);
	memzero_explicit(k0, sizeof(k0));
	return 0;
}

void tlsx_hmac_update(struct tlsx_hmac *m, const void *data, size_t len)
{
	tlsx_hash_update(&m->inner, data, len);
}

void tlsx_hmac_final(struct tlsx_hmac *m, u8 *out)
{
	u8 inner[TLSX_HASH_MAX_DIGEST];
	size_t ds = tlsx_hash_digest_size(m->inner.alg);

	/* Each final wipes its context, so all of @m ends wiped. */
	tlsx_hash_final(&m->inner, inner);
	tlsx_hash_update(&m->outer, inner, ds);
	tlsx_hash_final(&m->outer, out);
	memzero_explicit(inner, sizeof(inner));
}

noinline int __tlsx_hmac(enum tlsx_hash_alg alg, const u8 *key,
			  size_t key_len, const void *data, size_t len,
			  u8 *out)
{
	struct tlsx_hmac m;
	int ret = tlsx_hmac_init(&m, alg, key, key_len);

	if (ret)
		return ret;
	tlsx_hmac_update(&m, data, len);
	tlsx_hmac_final(&m, out);
	return 0;
}

int tlsx_hmac(enum tlsx_hash_alg alg, const u8 *key, size_t key_len,
	      const void *data, size_t len, u8 *out)
{
	int ret = __tlsx_hmac(alg, key, key_len, data, len, out);

	tlsx_stack_wipe_user(TLSX_HMAC_FRAMES + tlsx_hash_stack_reach(alg));
	return ret;
}
