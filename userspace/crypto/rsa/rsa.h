/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsa.h - RSA signatures (RFC 8017) for 2048- to 4096-bit moduli:
 * RSASSA-PSS signing and verification, RSASSA-PKCS1-v1_5 verification
 * (certificates still carry it).
 *
 * Signing is constant-time in the private key: CRT with fixed-window
 * Montgomery exponentiation over fixed-size limbs, the base blinded by a
 * random r^e, and the signature verified with the public exponent before
 * it is released, so a fault in the CRT cannot leak a factor.
 */
#ifndef TLSX_RSA_H
#define TLSX_RSA_H

#include "aead/platform.h"
#include "hash/sha2.h"
#include "rsa/bignum.h"

#define RSA_MIN_BITS	2048
#define RSA_MAX_BITS	4096
#define RSA_MAX_BYTES	(RSA_MAX_BITS / 8)

/* A public key: big-endian modulus and exponent, as in the DER. */
struct tlsx_rsa_public {
	u8 n[RSA_MAX_BYTES];
	size_t n_len;		/* bytes, no leading zero */
	u64 e;			/* 3 <= e < 2^64, odd */
};

/* The private key in limbs, with Montgomery arithmetic for n, p and q. */
struct tlsx_rsa_crt {
	struct bn_mont mn, mp, mq;
	u64 dp[BN_MAX_LIMBS], dq[BN_MAX_LIMBS], qinv[BN_MAX_LIMBS];
	size_t nl, pl, ql;
};

/*
 * What signing keeps beside a key (rsa.c's alone; zero is "none yet"):
 * the key in limbs with its Montgomery set-up, and a blinding pair
 * (r^e, r^-1) mod p and mod q, squared after each use and drawn afresh
 * every RSA_BLIND_USES signatures, as OpenSSL does.  Made at the first
 * signature from the key's bytes, remade when they are no longer those
 * it was made from (@of), wiped with the key.  A spin lock guards it for
 * the few squarings a signature takes: one key signs in many threads.
 */
struct tlsx_rsa_sign_state {
	int lock;
	unsigned int uses;	/* of the pair; 0: nothing made */
	struct tlsx_rsa_crt crt;
	u64 bp[BN_MAX_LIMBS], bq[BN_MAX_LIMBS];	/* r^e mod p, q */
	u64 ip[BN_MAX_LIMBS], iq[BN_MAX_LIMBS];	/* r^-1 mod p, q */
	u8 of[RSA_MAX_BYTES + 5 * (RSA_MAX_BYTES / 2)];
	size_t of_lens[6];
	u64 of_e;
};

/*
 * A private key as PKCS#1 gives it (big-endian, leading zeros stripped).
 * d itself is not kept: CRT uses dp and dq.  Signing writes @sign through
 * the const pointer it is given: a key is never defined const.
 */
struct tlsx_rsa_private {
	struct tlsx_rsa_public pub;
	u8 p[RSA_MAX_BYTES / 2];
	size_t p_len;
	u8 q[RSA_MAX_BYTES / 2];
	size_t q_len;
	u8 dp[RSA_MAX_BYTES / 2];
	size_t dp_len;
	u8 dq[RSA_MAX_BYTES / 2];
	size_t dq_len;
	u8 qinv[RSA_MAX_BYTES / 2];
	size_t qinv_len;
	struct tlsx_rsa_sign_state sign;
};

/*
 * Checks a key before use: sizes, n = p * q, e odd, the CRT parts
 * consistent (a test signature).  -EINVAL otherwise.
 */
int tlsx_rsa_check_private(const struct tlsx_rsa_private *k);
int tlsx_rsa_check_public(const struct tlsx_rsa_public *k);
void tlsx_rsa_private_wipe(struct tlsx_rsa_private *k);

/*
 * RSASSA-PSS over a digest made with @hash; MGF1 with the same hash and
 * a salt as long as the digest (what TLS 1.3 requires).  @sig gets
 * n_len bytes.  -EINVAL for a bad key or digest length, -EIO when the
 * check of the signature fails (fault).
 */
int tlsx_rsa_pss_sign(u8 *sig, size_t sig_len,
		      const struct tlsx_rsa_private *k,
		      enum tlsx_hash_alg hash, const u8 *digest,
		      size_t digest_len);

/*
 * The same with the caller's salt (digest-length bytes), for callers
 * that draw their randomness elsewhere (the handshake's cfg->rand, so
 * tests reproduce a signature).  The blinding stays random.
 */
int tlsx_rsa_pss_sign_salt(u8 *sig, size_t sig_len,
			   const struct tlsx_rsa_private *k,
			   enum tlsx_hash_alg hash, const u8 *digest,
			   size_t digest_len, const u8 *salt);
/* 0 when valid, -EBADMSG when not, -EINVAL for a bad key. */
int tlsx_rsa_pss_verify(const struct tlsx_rsa_public *k,
			enum tlsx_hash_alg hash, const u8 *digest,
			size_t digest_len, const u8 *sig, size_t sig_len);
int tlsx_rsa_pkcs1_verify(const struct tlsx_rsa_public *k,
			  enum tlsx_hash_alg hash, const u8 *digest,
			  size_t digest_len, const u8 *sig, size_t sig_len);

#endif /* TLSX_RSA_H */
