/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cert.h - certificates for the handshake: a party's own chain and key
 * (what it sends in Certificate and signs CertificateVerify with), the
 * trust anchors a peer's chain must reach, and the check of a peer's
 * chain with the alert RFC 8446 section 6.2 names for each failure.
 * Built on x509/ (parsing, chains, verification, private keys).
 *
 * Both objects are loaded once, are read-only afterwards and may be
 * shared by every connection and thread.  Private keys are wiped by
 * tlsx_cert_chain_free().
 */
#ifndef TLSX_HS_CERT_H
#define TLSX_HS_CERT_H

#include "aead/platform.h"
#include "hash/sha2.h"
#include "x509/x509.h"
#include "x509/pkey.h"

#define TLSX_CERT_MAX_CHAIN	8	/* certificates in one chain */

/* A party's certificate chain (leaf first) and its private key. */
struct tlsx_cert_chain {
	u8 *der;			/* the certificates, back to back */
	size_t der_len;
	size_t n;			/* how many */
	size_t off[TLSX_CERT_MAX_CHAIN];
	size_t len[TLSX_CERT_MAX_CHAIN];
	/*
	 * Each certificate's issuer Name, whole DER, at der + issuer_off[i]:
	 * what a CertificateRequest's certificate_authorities (RFC 8446
	 * 4.2.4) is compared with.
	 */
	size_t issuer_off[TLSX_CERT_MAX_CHAIN];
	size_t issuer_len[TLSX_CERT_MAX_CHAIN];
	struct tlsx_x509 leaf;		/* parsed, spans into der */
	struct tlsx_private_key key;	/* checked to match the leaf */
	/*
	 * TLSX_CERT_SIG_BIT(enum tlsx_sig_alg) of each signature in the
	 * chain a client's signature_algorithms_cert must allow (RFC 8446
	 * 4.4.2.2): every certificate's but a self-signed one's, which
	 * "MAY be signed with any algorithm".
	 */
	unsigned int sig_algs;
	char err[512];			/* what *err of a failed load names */
};

/*
 * Loads a PEM chain (leaf first, as nginx and OpenSSL take it) and its
 * PEM or DER private key.  0, or a negative errno with @err (when not
 * NULL) set to a message naming the file and what was wrong: unreadable,
 * no certificate, malformed, more than TLSX_CERT_MAX_CHAIN, a key that
 * does not match the leaf, an unsupported key type.  Each certificate
 * after the first must be the issuer (by name) of the one before it
 * (4.4.2's order), else -EINVAL.  The message is kept in @c->err, which
 * is valid until @c is loaded again or freed; on failure @c holds
 * nothing else (tlsx_cert_chain_free() is still allowed).
 */
int tlsx_cert_chain_load(struct tlsx_cert_chain *c, const char *cert_file,
			 const char *key_file, const char **err);
/* The same from memory. */
int tlsx_cert_chain_load_mem(struct tlsx_cert_chain *c, const char *cert_pem,
			     size_t cert_len, const char *key_pem,
			     size_t key_len, const char **err);
void tlsx_cert_chain_free(struct tlsx_cert_chain *c);

#define TLSX_CERT_SIG_BIT(alg)	(1u << (alg))

/* Whether the leaf names @host (SAN dNSName with wildcards, or IP). */
bool tlsx_cert_chain_matches(const struct tlsx_cert_chain *c,
			     const char *host);

/* Trust anchors: a PEM bundle such as /etc/ssl/certs/ca-certificates.crt. */
struct tlsx_trust {
	u8 *der;
	size_t der_len;
	struct tlsx_x509 *certs;
	size_t n;
	/*
	 * SHA-256 over the anchors' DER as loaded (der[0..der_len)): names
	 * the set in a server's ticket context (server_psk.c) without
	 * hashing a bundle per handshake.
	 */
	u8 digest[SHA256_DIGEST_SIZE];
};

#define TLSX_TRUST_SYSTEM	"/etc/ssl/certs/ca-certificates.crt"

/*
 * Loads every certificate of a PEM file (or, for a directory, of every
 * *.pem / *.crt file in it); certificates that do not parse are skipped
 * and counted in *@skipped (when not NULL), as OpenSSL does with a
 * bundle.  -ENOENT for none at all.
 */
int tlsx_trust_load(struct tlsx_trust *t, const char *path, size_t *skipped);
int tlsx_trust_load_mem(struct tlsx_trust *t, const char *pem, size_t len,
			size_t *skipped);
void tlsx_trust_free(struct tlsx_trust *t);

/*
 * Values of *@x509_err besides enum tlsx_x509_verify_error's: the first
 * certificate issued a later one (a chain sent in the wrong order), more
 * certificates than TLSX_CERT_MAX_CHAIN; and a negative errno when
 * tlsx_x509_parse() refused one.
 */
#define TLSX_CERT_ERR_ORDER	1100
#define TLSX_CERT_ERR_TOO_MANY	1101
/* A short description of a *@x509_err of tlsx_cert_verify_peer(). */
const char *tlsx_cert_verify_strerror(int x509_err);

/*
 * Verifies a peer's chain, DER certificates @certs[0..@n) leaf first as
 * they came in Certificate, against @t at time @now, for @purpose
 * (X509_EKU_SERVER_AUTH or X509_EKU_CLIENT_AUTH) and, when @host is
 * not NULL, the name the client asked for.  On success *@leaf_pub is
 * the key CertificateVerify must verify with.  Returns 0 or the alert:
 * bad_certificate (malformed, bad signature, a chain not in order),
 * unsupported_certificate (a key or algorithm tlsx does not do),
 * certificate_expired (also not yet valid), unknown_ca (no path to an
 * anchor), certificate_unknown (host mismatch, usage).  *@x509_err,
 * when not NULL, gets the enum tlsx_x509_verify_error for messages.
 * The leaf must come first; the others may come in any order, and one
 * that tlsx cannot parse for lack of support (a P-384 cross-signature)
 * is ignored, as 4.4.2 asks ("SHOULD be prepared to handle potentially
 * extraneous certificates and arbitrary orderings").  The table of
 * errors to alerts is in docs/handshake.md.  @n 0 is -EINVAL: the
 * engine answers an empty Certificate itself (4.4.2.4).  Uses about
 * 17 KiB of stack (the parsed certificates), no heap.
 */
int tlsx_cert_verify_peer(const struct tlsx_trust *t, const u8 *const *certs,
			  const size_t *lens, size_t n, s64 now,
			  unsigned int purpose, const char *host,
			  struct tlsx_public_key *leaf_pub, int *x509_err);

/*
 * CertificateVerify (4.4.3): signs or verifies "64 spaces || context
 * string || 0 || @th" with signature scheme @scheme (a TLSX_SIG_* code
 * of handshake/engine/hs.h).  rsa_pkcs1_* are refused here (4.4.3: not in
 * CertificateVerify); rsa_pss_pss_* need an id-RSASSA-PSS key and
 * rsa_pss_rsae_* an rsaEncryption key (4.2.3).  ECDSA signatures are
 * DER-encoded.  @rand draws the PSS salt and the ECDSA hedge (tests
 * inject them).  Sign: 0, -ENOSPC, -EINVAL for a scheme the key cannot
 * do.  Verify: 0, illegal_parameter for a scheme that does not fit the
 * key, decrypt_error for a bad signature.
 */
int tlsx_cv_sign(const struct tlsx_private_key *k, u16 scheme, bool server,
		 const u8 *th, size_t th_len,
		 int (*rand)(void *ctx, void *buf, size_t len), void *rand_ctx,
		 u8 *sig, size_t cap, size_t *sig_len);
int tlsx_cv_verify(const struct tlsx_public_key *pub, u16 scheme, bool server,
		   const u8 *th, size_t th_len, const u8 *sig, size_t sig_len);

/*
 * The certificate signatures (TLSX_CERT_SIG_BIT()s of x509.h's enum
 * tlsx_sig_alg) that SignatureScheme @scheme allows in
 * signature_algorithms_cert (4.2.3); 0 for one tlsx cannot parse in a
 * certificate.  rsa_pss_rsae_* and rsa_pss_pss_* both allow the PSS
 * signature of their hash: which one applies depends on the issuer's
 * key, which for the last certificate of a chain is not in it.
 */
unsigned int tlsx_sig_scheme_cert_algs(u16 scheme);

/* Whether key @k can sign CertificateVerify with @scheme. */
bool tlsx_cv_key_can(const struct tlsx_private_key *k, u16 scheme);
/* "ecdsa_secp256r1_sha256", ...; "unknown" for another code. */
const char *tlsx_sig_scheme_name(u16 scheme);

#endif /* TLSX_HS_CERT_H */
