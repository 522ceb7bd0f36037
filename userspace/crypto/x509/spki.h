/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spki.h - public keys from a SubjectPublicKeyInfo (RFC 5280 4.1.2.7):
 * P-256 (RFC 5480: id-ecPublicKey with the prime256v1 parameters, an
 * uncompressed point), Ed25519 (RFC 8410) and RSA (RFC 8017
 * RSAPublicKey under rsaEncryption, or under id-RSASSA-PSS, RFC 4055,
 * then usable for PSS only), 2048 to 4096 bits.
 *
 * Parsing checks the encoding and the sizes only; whether a P-256 point
 * is on the curve is checked by tlsx_p256_verify() when the key is used
 * (so the parser needs no field arithmetic).
 */
#ifndef TLSX_SPKI_H
#define TLSX_SPKI_H

#include "aead/platform.h"
#include "x509/der.h"
#include "p256/p256.h"
#include "curve25519/ed25519.h"
#include "rsa/rsa.h"

enum tlsx_key_type {
	TLSX_KEY_NONE = 0,
	TLSX_KEY_P256,
	TLSX_KEY_ED25519,
	TLSX_KEY_RSA,
};

struct tlsx_public_key {
	enum tlsx_key_type type;
	bool rsa_pss_only;	/* an id-RSASSA-PSS key */
	union {
		u8 p256[P256_POINT_SIZE];
		u8 ed25519[ED25519_PUBLIC_SIZE];
		struct tlsx_rsa_public rsa;
	};
};

/*
 * Reads one SubjectPublicKeyInfo from @c into @pk: 0, -EBADMSG for a
 * malformed one, -EOPNOTSUPP for another algorithm, curve or key size.
 */
int tlsx_spki_read(struct der_cursor *c, struct tlsx_public_key *pk);
/* The same over a whole buffer (no trailing bytes). */
int tlsx_spki_parse(struct tlsx_public_key *pk, const u8 *der, size_t len);

/*
 * The RSAPublicKey SEQUENCE { n, e } (PKCS#1): 2048..4096-bit n without
 * a leading zero, 3 <= e odd.
 */
int tlsx_rsa_public_read(struct der_cursor *c, struct tlsx_rsa_public *k);
/* The same checks on a modulus magnitude and exponent already read. */
int tlsx_rsa_public_set(struct tlsx_rsa_public *k, const struct der_span *n,
			u64 e);

/* Whether two public keys are the same key. */
bool tlsx_public_key_equal(const struct tlsx_public_key *a,
			   const struct tlsx_public_key *b);

/* Encoded OIDs (contents only) shared with the key and certificate code. */
extern const u8 tlsx_oid_ec_public_key[7];
extern const u8 tlsx_oid_prime256v1[8];
extern const u8 tlsx_oid_ed25519[3];
extern const u8 tlsx_oid_rsa_encryption[9];
extern const u8 tlsx_oid_rsassa_pss[9];

#endif /* TLSX_SPKI_H */
