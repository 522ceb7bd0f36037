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

/* -EINVAL for an unknown hash. */
int tlsx_hmac_init(struct tlsx_hmac *m, enum tlsx_hash_alg alg,
		   const u8 *key, size_t key_len);
void tlsx_hmac_update(struct tlsx_hmac *m, const void *data, size_t len);
/* Writes the hash's digest size and wipes @m. */
void tlsx_hmac_final(struct tlsx_hmac *m, u8 *out);
int tlsx_hmac(enum tlsx_hash_alg alg, const u8 *key, size_t key_len,
	      const void *data, size_t len, u8 *out);

#endif /* TLSX_HMAC_H */
