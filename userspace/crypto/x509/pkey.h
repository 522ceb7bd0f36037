/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pkey.h - private keys from their usual files: PKCS#8 PrivateKeyInfo
 * (RFC 5208/5958) for P-256 (RFC 5915 inside), Ed25519 (RFC 8410) and
 * RSA (RFC 8017 inside); SEC 1 "EC PRIVATE KEY" (RFC 5915); PKCS#1 "RSA
 * PRIVATE KEY".  DER or PEM; encrypted keys are not supported.
 *
 * A loaded key is checked: the P-256 scalar in [1, n-1] and its public
 * point recomputed (and compared with the one in the file, if any), the
 * Ed25519 key expanded from its seed (likewise compared), the RSA key
 * through tlsx_rsa_check_private().  Every secret this code copies,
 * including the decoded DER of a PEM file, is wiped before returning;
 * the caller wipes the key with tlsx_private_key_wipe().
 */
#ifndef TLSX_PKEY_H
#define TLSX_PKEY_H

#include "aead/platform.h"
#include "x509/spki.h"

/* Enough for a 4096-bit RSA key in PKCS#8 (about 2.4 KB) and more. */
#define PKEY_DER_MAX	8192

struct tlsx_private_key {
	enum tlsx_key_type type;
	union {
		struct {
			u8 priv[P256_SCALAR_SIZE];
			u8 pub[P256_POINT_SIZE];
		} p256;
		struct tlsx_ed25519_key ed25519;
		struct tlsx_rsa_private rsa;
	};
};

/*
 * A DER private key in any of the three forms (told apart by their
 * structure).  0; -EBADMSG for malformed DER or an inconsistent key
 * (-EINVAL from the key checks); -EOPNOTSUPP for another algorithm or
 * curve, a multi-prime RSA key or an RSA size outside 2048..4096.
 */
int tlsx_private_key_from_der(struct tlsx_private_key *k, const u8 *der,
			      size_t len);

/*
 * The first "PRIVATE KEY", "EC PRIVATE KEY" or "RSA PRIVATE KEY" block
 * of a PEM file (other blocks, such as "EC PARAMETERS", are skipped);
 * the contents must be the form the label names.  -ENOENT when there is
 * none, -EOPNOTSUPP for "ENCRYPTED PRIVATE KEY" or encrypted PEM, else
 * as above.
 */
int tlsx_private_key_from_pem(struct tlsx_private_key *k, const char *pem,
			      size_t len);

/* The public half, as a certificate would carry it. */
int tlsx_private_key_public(const struct tlsx_private_key *k,
			    struct tlsx_public_key *pub);

void tlsx_private_key_wipe(struct tlsx_private_key *k);

#endif /* TLSX_PKEY_H */
