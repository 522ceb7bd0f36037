/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x509_verify.h - certificate chain verification (RFC 5280 6.1, the
 * parts a TLS client or server needs) and host name matching (RFC 6125).
 *
 * The path runs from the leaf through the peer's intermediates (in any
 * order) to one of the trust anchors: each link needs the issuer's
 * subject to equal the certificate's issuer byte for byte and the
 * signature over the tbsCertificate to verify with the issuer's key.
 * Every certificate on the path, the anchor included, must be valid at
 * the given time; every issuer must be a CA (basicConstraints cA, or a
 * v1 trust anchor), allowed to sign certificates (keyUsage keyCertSign
 * when keyUsage is present) and within its pathLenConstraint.  The leaf
 * must allow digitalSignature (when keyUsage is present), carry the
 * wanted purpose (when extendedKeyUsage is present) and name the host.
 */
#ifndef TLSX_X509_VERIFY_H
#define TLSX_X509_VERIFY_H

#include "aead/platform.h"
#include "x509/x509.h"

/* Certificates on a path, the leaf and the anchor included. */
#define X509_VERIFY_MAX_DEPTH	8

/* What failed: tlsx_x509_verify() returns the negated value. */
enum tlsx_x509_verify_error {
	X509_VERIFY_OK = 0,
	X509_VERIFY_NO_ISSUER = 1000,	/* no issuer among chain/anchors */
	X509_VERIFY_BAD_SIGNATURE,	/* the named issuer's key says no */
	X509_VERIFY_EXPIRED,		/* now > notAfter */
	X509_VERIFY_NOT_YET_VALID,	/* now < notBefore */
	X509_VERIFY_NOT_CA,		/* an issuer without cA */
	X509_VERIFY_PATH_LEN,		/* an issuer's pathLen exceeded */
	X509_VERIFY_ISSUER_KEY_USAGE,	/* an issuer without keyCertSign */
	X509_VERIFY_LEAF_KEY_USAGE,	/* a leaf without digitalSignature */
	X509_VERIFY_EXT_KEY_USAGE,	/* the leaf lacks the purpose */
	X509_VERIFY_HOST_MISMATCH,	/* no SAN names the host */
	X509_VERIFY_DEPTH,		/* longer than X509_VERIFY_MAX_DEPTH */
	X509_VERIFY_INVALID,		/* bad arguments */
};

struct tlsx_x509_verify_params {
	s64 now;		/* seconds since the epoch */
	/*
	 * The peer's name: a DNS name (a trailing dot allowed) or an IPv4
	 * or IPv6 literal, matched against the leaf's dNSName or iPAddress
	 * SANs.  NULL: no name check.
	 */
	const char *host;
	/* X509_EKU_SERVER_AUTH or X509_EKU_CLIENT_AUTH; 0: no check. */
	unsigned int purpose;
};

/*
 * Verifies @chain[0] (the leaf) with the intermediates @chain[1..n-1]
 * against @anchors.  0, or the negated enum tlsx_x509_verify_error of
 * the first failure found.
 */
int tlsx_x509_verify(const struct tlsx_x509 *chain, size_t n_chain,
		     const struct tlsx_x509 *anchors, size_t n_anchors,
		     const struct tlsx_x509_verify_params *params);

/*
 * Whether @subject's signature verifies with @issuer's key: 0 or
 * -EBADMSG (a key of the wrong type for the algorithm included).
 */
int tlsx_x509_check_signature(const struct tlsx_x509 *subject,
			      const struct tlsx_public_key *issuer);

/* Whether the leaf's SANs name @host (RFC 6125 rules, as above). */
bool tlsx_x509_match_host(const struct tlsx_x509 *leaf, const char *host);

/* A short description of a tlsx_x509_verify() result. */
const char *tlsx_x509_verify_strerror(int err);

#endif /* TLSX_X509_VERIFY_H */
