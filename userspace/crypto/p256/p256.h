/* SPDX-License-Identifier: GPL-2.0 */
/*
 * p256.h - the NIST P-256 curve (secp256r1): ECDH, ECDSA signing and
 * verification (FIPS 186-4/5, SEC 1), RFC 6979 deterministic nonces.
 *
 * Points travel as SEC 1 uncompressed encodings (0x04 || X || Y, 65
 * bytes), scalars as 32-byte big-endian strings.  Every operation on a
 * private key or a nonce is constant-time; verification may take
 * variable time (its inputs are public).  Every received point is
 * checked to be on the curve; every scalar to be in [1, n-1].
 */
#ifndef TLSX_P256_H
#define TLSX_P256_H

#include "aead/platform.h"
#include "hash/sha2.h"

#define P256_SCALAR_SIZE	32
#define P256_POINT_SIZE		65	/* uncompressed */
#define P256_SIG_SIZE		64	/* r || s, raw */
#define P256_SIG_DER_MAX	72

/* -EINVAL unless 1 <= priv < n. */
int tlsx_p256_check_private(const u8 priv[P256_SCALAR_SIZE]);
/* -EINVAL unless @pub is an uncompressed point on the curve (not infinity). */
int tlsx_p256_check_public(const u8 *pub, size_t len);

/* pub = priv * G. */
int tlsx_p256_public(u8 pub[P256_POINT_SIZE],
		     const u8 priv[P256_SCALAR_SIZE]);
/* A uniformly random private key in [1, n-1] and its public key. */
int tlsx_p256_keygen(u8 priv[P256_SCALAR_SIZE], u8 pub[P256_POINT_SIZE]);

/* shared = x-coordinate of priv * peer; -EINVAL for a bad peer point. */
int tlsx_p256_ecdh(u8 shared[P256_SCALAR_SIZE],
		   const u8 priv[P256_SCALAR_SIZE],
		   const u8 *peer, size_t peer_len);

/*
 * ECDSA over a message digest (any length; truncated/reduced per SEC 1).
 * The nonce is RFC 6979's with @hash as the HMAC hash; when @hedge is
 * true, 32 fresh random bytes are mixed in as RFC 6979 section 3.6's
 * additional data (a hedged signature: not reproducible, still safe with
 * a broken RNG).  Writes r || s.
 */
int tlsx_p256_sign(u8 sig[P256_SIG_SIZE], const u8 priv[P256_SCALAR_SIZE],
		   enum tlsx_hash_alg hash, const u8 *digest,
		   size_t digest_len, bool hedge);

/*
 * The same with the 32 bytes of additional data given (@extra NULL: none,
 * the plain RFC 6979 nonce), for callers that draw the hedge from their
 * own source (the handshake's cfg->rand).
 */
int tlsx_p256_sign_extra(u8 sig[P256_SIG_SIZE],
			 const u8 priv[P256_SCALAR_SIZE],
			 enum tlsx_hash_alg hash, const u8 *digest,
			 size_t digest_len, const u8 extra[32]);
/* 0 when valid, -EBADMSG when not, -EINVAL for a bad public key. */
int tlsx_p256_verify(const u8 sig[P256_SIG_SIZE], const u8 *pub,
		     size_t pub_len, const u8 *digest, size_t digest_len);

/*
 * DER Ecdsa-Sig-Value (SEQUENCE { INTEGER r, INTEGER s }), the form TLS
 * carries.  _to_der returns the length written (at most
 * P256_SIG_DER_MAX); _from_der accepts only the strict DER encoding of
 * integers in [1, n-1] and returns 0 or -EBADMSG.
 */
size_t tlsx_p256_sig_to_der(u8 der[P256_SIG_DER_MAX],
			    const u8 sig[P256_SIG_SIZE]);
int tlsx_p256_sig_from_der(u8 sig[P256_SIG_SIZE], const u8 *der,
			   size_t len);

#endif /* TLSX_P256_H */
