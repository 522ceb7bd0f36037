// SPDX-License-Identifier: GPL-2.0
/*
 * hash.c - struct tlsx_hash, one interface over SHA-256, SHA-384 and
 * SHA-512 for the code that is generic in its hash (HMAC, HKDF, the key
 * schedule, signatures).  It sits above sha256.c and sha512.c.
 */
#include "hash/sha2.h"

size_t tlsx_hash_digest_size(enum tlsx_hash_alg alg)
{
	switch (alg) {
	case TLSX_HASH_SHA256:
		return SHA256_DIGEST_SIZE;
	case TLSX_HASH_SHA384:
		return SHA384_DIGEST_SIZE;
	case TLSX_HASH_SHA512:
		return SHA512_DIGEST_SIZE;
	}
	return 0;
}

size_t tlsx_hash_block_size(enum tlsx_hash_alg alg)
{
	switch (alg) {
	case TLSX_HASH_SHA256:
		return SHA256_BLOCK_SIZE;
	case TLSX_HASH_SHA384:
	case TLSX_HASH_SHA512:
		return SHA512_BLOCK_SIZE;
	}
	return 0;
}

int tlsx_hash_init(struct tlsx_hash *h, enum tlsx_hash_alg alg)
{
	h->alg = alg;
	switch (alg) {
	case TLSX_HASH_SHA256:
		tlsx_sha256_init(&h->s256);
		return 0;
	case TLSX_HASH_SHA384:
		tlsx_sha384_init(&h->s512);
		return 0;
	case TLSX_HASH_SHA512:
		tlsx_sha512_init(&h->s512);
		return 0;
	}
	return -EINVAL;
}

void tlsx_hash_update(struct tlsx_hash *h, const void *data, size_t len)
{
	switch (h->alg) {
	case TLSX_HASH_SHA256:
		tlsx_sha256_update(&h->s256, data, len);
		break;
	case TLSX_HASH_SHA384:
	case TLSX_HASH_SHA512:
		tlsx_sha512_update(&h->s512, data, len);
		break;
	}
}

void tlsx_hash_final(struct tlsx_hash *h, u8 *out)
{
	switch (h->alg) {
	case TLSX_HASH_SHA256:
		tlsx_sha256_final(&h->s256, out);
		break;
	case TLSX_HASH_SHA384:
		tlsx_sha384_final(&h->s512, out);
		break;
	case TLSX_HASH_SHA512:
		tlsx_sha512_final(&h->s512, out);
		break;
	}
	memzero_explicit(h, sizeof(*h));
}

int tlsx_hash(enum tlsx_hash_alg alg, const void *data, size_t len, u8 *out)
{
	switch (alg) {
	case TLSX_HASH_SHA256:
		tlsx_sha256(data, len, out);
		return 0;
	case TLSX_HASH_SHA384:
		tlsx_sha384(data, len, out);
		return 0;
	case TLSX_HASH_SHA512:
		tlsx_sha512(data, len, out);
		return 0;
	}
	return -EINVAL;
}
