/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hkdf.h - HKDF (RFC 5869) and the TLS 1.3 wrappers over it (RFC 8446
 * section 7.1): HKDF-Expand-Label and Derive-Secret.
 */
#ifndef TLSX_HKDF_H
#define TLSX_HKDF_H

#include "hash/sha2.h"

/*
 * PRK = HMAC-Hash(salt, IKM); writes the digest size.  A NULL/empty salt
 * is a string of HashLen zeros, as RFC 5869 says.
 */
int tlsx_hkdf_extract(enum tlsx_hash_alg alg, const u8 *salt,
		      size_t salt_len, const u8 *ikm, size_t ikm_len,
		      u8 *prk);

/* -EINVAL when out_len > 255 * HashLen or the hash is unknown. */
int tlsx_hkdf_expand(enum tlsx_hash_alg alg, const u8 *prk, size_t prk_len,
		     const u8 *info, size_t info_len, u8 *out,
		     size_t out_len);

/*
 * HKDF-Expand-Label(Secret, Label, Context, Length): @label without the
 * "tls13 " prefix (e.g. "key", "c hs traffic").  -EINVAL when the label
 * (with its prefix) exceeds 255 bytes, the context 255 bytes, or out_len
 * 65535; the secret is HashLen bytes.
 */
int tlsx_hkdf_expand_label(enum tlsx_hash_alg alg, const u8 *secret,
			   const char *label, const u8 *context,
			   size_t context_len, u8 *out, size_t out_len);

/*
 * Derive-Secret(Secret, Label, Messages) with Transcript-Hash(Messages)
 * already computed by the caller (@transcript_hash, HashLen bytes; the
 * handshake keeps a running hash).  Writes HashLen bytes.
 */
int tlsx_derive_secret(enum tlsx_hash_alg alg, const u8 *secret,
		       const char *label, const u8 *transcript_hash,
		       u8 *out);

#endif /* TLSX_HKDF_H */
