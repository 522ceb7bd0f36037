/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x509.h - an X.509 v1/v3 certificate parser (RFC 5280 profile).
 *
 * Every input is hostile: the parser reads only inside the buffer,
 * bounds every count, and refuses what it does not understand where
 * understanding matters (an unknown critical extension, a signature
 * algorithm or key it cannot check).  Nothing is allocated; the struct
 * keeps spans into the caller's DER buffer, which must outlive it.
 */
#ifndef TLSX_X509_H
#define TLSX_X509_H

#include "aead/platform.h"
#include "x509/der.h"
#include "hash/sha2.h"
#include "x509/spki.h"

#define X509_MAX_DNS		64	/* dNSName SANs kept */
#define X509_MAX_IP		16	/* iPAddress SANs kept */
#define X509_MAX_EXTENSIONS	32
#define X509_MAX_RDNS		32	/* RelativeDistinguishedNames */
#define X509_MAX_EKUS		16

enum tlsx_sig_alg {
	TLSX_SIG_NONE = 0,
	TLSX_SIG_ECDSA_SHA256,
	TLSX_SIG_ECDSA_SHA384,
	TLSX_SIG_ECDSA_SHA512,
	TLSX_SIG_ED25519,
	TLSX_SIG_RSA_PKCS1_SHA256,
	TLSX_SIG_RSA_PKCS1_SHA384,
	TLSX_SIG_RSA_PKCS1_SHA512,
	/* RSASSA-PSS, MGF1 with the same hash, salt = digest length */
	TLSX_SIG_RSA_PSS_SHA256,
	TLSX_SIG_RSA_PSS_SHA384,
	TLSX_SIG_RSA_PSS_SHA512,
};

/* keyUsage bits, numbered as in RFC 5280 4.2.1.3 (bit 0 first). */
#define X509_KU_DIGITAL_SIGNATURE	(1u << 0)
#define X509_KU_NON_REPUDIATION		(1u << 1)
#define X509_KU_KEY_ENCIPHERMENT	(1u << 2)
#define X509_KU_DATA_ENCIPHERMENT	(1u << 3)
#define X509_KU_KEY_AGREEMENT		(1u << 4)
#define X509_KU_KEY_CERT_SIGN		(1u << 5)
#define X509_KU_CRL_SIGN		(1u << 6)
#define X509_KU_ENCIPHER_ONLY		(1u << 7)
#define X509_KU_DECIPHER_ONLY		(1u << 8)

/* extendedKeyUsage purposes we know; OTHER for any other OID. */
#define X509_EKU_SERVER_AUTH	(1u << 0)
#define X509_EKU_CLIENT_AUTH	(1u << 1)
#define X509_EKU_ANY		(1u << 2)
#define X509_EKU_OTHER		(1u << 3)

/* Which extensions the certificate has. */
#define X509_EXT_KEY_USAGE	(1u << 0)
#define X509_EXT_EXT_KEY_USAGE	(1u << 1)
#define X509_EXT_BASIC		(1u << 2)
#define X509_EXT_SAN		(1u << 3)

struct tlsx_x509 {
	struct der_span raw;		/* the whole certificate */
	struct der_span tbs;		/* tbsCertificate: the signed bytes */
	unsigned int version;		/* 1, 2 or 3 */
	struct der_span serial;		/* magnitude, big-endian */
	enum tlsx_sig_alg sig_alg;
	struct der_span sig;		/* signatureValue's bytes */
	struct der_span issuer;		/* whole Name encodings, compared */
	struct der_span subject;	/* byte for byte */
	/* The last commonName in a UTF8/Printable/IA5/T61 string, if any. */
	struct der_span issuer_cn;	/* (p NULL when absent) */
	struct der_span subject_cn;
	s64 not_before, not_after;	/* seconds since the epoch */
	struct der_span spki;		/* the whole SubjectPublicKeyInfo */
	struct tlsx_public_key pub;

	unsigned int ext;		/* X509_EXT_* present */
	unsigned int key_usage;		/* X509_KU_*, when X509_EXT_KEY_USAGE */
	unsigned int ext_key_usage;	/* X509_EKU_* */
	/*
	 * extendedKeyUsage's KeyPurposeIds, their encodings back to back as
	 * in the certificate (checked well-formed; empty when absent): what
	 * a CertificateRequest's oid_filters names purposes by (RFC 8446
	 * 4.2.5), any OID and not only the X509_EKU_* ones.
	 */
	struct der_span eku;
	bool ca;			/* basicConstraints cA */
	int path_len;			/* -1: no limit */
	unsigned int n_dns, n_ip;
	struct der_span dns[X509_MAX_DNS];	/* IA5 contents */
	struct der_span ip[X509_MAX_IP];	/* 4 or 16 bytes */

	const char *error;		/* what was wrong when parsing failed */
};

/*
 * Parses the DER certificate @der of @len bytes (no trailing bytes).
 * 0; -EBADMSG for a malformed certificate; -EOPNOTSUPP for a signature
 * algorithm, key type or size, or critical extension not supported;
 * -E2BIG when a bounded count is exceeded.  crt->error says which.
 */
int tlsx_x509_parse(struct tlsx_x509 *crt, const u8 *der, size_t len);

/*
 * Whether @crt's extendedKeyUsage lists the KeyPurposeId whose OID
 * contents are @oid, compared byte for byte (RFC 5280 4.2.1.12).  No
 * extendedKeyUsage lists none (anyExtendedKeyUsage is one OID among
 * others here: the caller decides what it stands for).
 */
bool tlsx_x509_has_eku(const struct tlsx_x509 *crt, const struct der_span *oid);

/* The hash a signature algorithm signs with (0 for Ed25519, none). */
enum tlsx_hash_alg tlsx_sig_alg_hash(enum tlsx_sig_alg alg);
const char *tlsx_sig_alg_name(enum tlsx_sig_alg alg);

/*
 * The commonName @cn (a span of the struct) as a NUL-terminated string
 * in @buf: -EINVAL when absent, containing a NUL, or longer than
 * @size - 1.
 */
int tlsx_x509_cn_string(const struct der_span *cn, char *buf, size_t size);

#endif /* TLSX_X509_H */
