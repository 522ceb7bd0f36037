/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsa_pad.h - the encodings under RSA signatures (RFC 8017 section 9):
 * EMSA-PSS with MGF1 and a salt as long as the digest, and EMSA-PKCS1-v1_5
 * with the DigestInfo of SHA-256/384/512.  Internal to rsa.c and its
 * tests.
 */
#ifndef TLSX_RSA_PAD_H
#define TLSX_RSA_PAD_H

#include "rsa/rsa.h"

/*
 * EMSA-PSS-ENCODE: @em gets em_len = ceil(em_bits / 8) bytes, em_bits
 * being the modulus' bit count minus one; @salt has digest_len bytes.
 * -EINVAL for an unknown hash, a digest of the wrong length or an
 * encoding too short.
 */
int rsa_pss_encode(u8 *em, size_t em_bits, enum tlsx_hash_alg hash,
		   const u8 *digest, size_t digest_len, const u8 *salt);

/* EMSA-PSS-VERIFY: 0 when consistent, -EBADMSG when not. */
int rsa_pss_check(const u8 *em, size_t em_bits, enum tlsx_hash_alg hash,
		  const u8 *digest, size_t digest_len);

/*
 * EMSA-PKCS1-v1_5-ENCODE: @em gets em_len bytes
 * 00 01 FF..FF 00 DigestInfo(digest).  -EINVAL as above.
 */
int rsa_pkcs1_encode(u8 *em, size_t em_len, enum tlsx_hash_alg hash,
		     const u8 *digest, size_t digest_len);

#endif /* TLSX_RSA_PAD_H */
