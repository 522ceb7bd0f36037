/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hmac.h - HMAC (RFC 2104) over SHA-256/384/512.  The key is secret:
 * it is hashed or padded without branching on its bytes, and every
 * intermediate (padded key, contexts) is wiped.
 */
#ifndef TLSX_HMAC_H
#define TLSX_HMAC_H

#include "hash/sha2.h"

struct tlsx_hmac {
	struct tlsx_hash inner;
	struct tlsx_hash outer;
};

/*
 * HMAC's frames (two hash states, the padded key) above what hashing
 * reaches (tlsx_hash_stack_reach()): tlsx_hmac() wipes the sum.
 */
#define TLSX_HMAC_FRAMES	768

/*
 * The streaming functions wipe @m but not the stack their block
 * functions used: for callers inside an entry point that wipes after all
 * its work (P-256's RFC 6979 nonce).  -EINVAL for an unknown hash.
 */
int tlsx_hmac_init(struct tlsx_hmac *m, enum tlsx_hash_alg alg,
		   const u8 *key, size_t key_len);
void tlsx_hmac_update(struct tlsx_hmac *m, const void *data, size_t len);
/* Writes the hash's digest size and wipes @m. */
void tlsx_hmac_final(struct tlsx_hmac *m, u8 *out);

/*
 * HMAC(@key, @data) into @out (may be @data), then the stack its work
 * touched wiped; -EINVAL for an unknown hash.  __tlsx_hmac() is the same
 * without the wipe, for the callers of the streaming functions.
 */
int tlsx_hmac(enum tlsx_hash_alg alg, const u8 *key, size_t key_len,
	      const void *data, size_t len, u8 *out);
int __tlsx_hmac(enum tlsx_hash_alg alg, const u8 *key, size_t key_len,
		const void *data, size_t len, u8 *out);

#endif /* TLSX_HMAC_H */
