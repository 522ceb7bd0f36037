// SPDX-License-Identifier: GPL-2.0
/*
 * x509_verify.c - chain building and checking.  Everything here works
 * on public data (certificates), so it may branch freely.
 */
#include <arpa/inet.h>

#include "curve25519/ed25519.h"
#include "p256/p256.h"
#include "rsa/rsa.h"
#include "x509/x509_verify.h"

int tlsx_x509_check_signature(const struct tlsx_x509 *subject,
			      const struct tlsx_public_key *issuer)
{
	enum tlsx_hash_alg hash = tlsx_sig_alg_hash(subject->sig_alg);
	u8 digest[TLSX_HASH_MAX_DIGEST], sig[P256_SIG_SIZE];
	size_t dlen = tlsx_hash_digest_size(hash);

	if (subject->sig_alg == TLSX_SIG_ED25519) {
		if (issuer->type != TLSX_KEY_ED25519 ||
		    subject->sig.len != ED25519_SIG_SIZE)
			return -EBADMSG;
		return tlsx_ed25519_verify(subject->sig.p, issuer->ed25519,
					   subject->tbs.p, subject->tbs.len) ?
		       -EBADMSG : 0;
	}
	if (!dlen || tlsx_hash(hash, subject->tbs.p, subject->tbs.len, digest))
		return -EBADMSG;

	switch (subject->sig_alg) {
	case TLSX_SIG_ECDSA_SHA256:
	case TLSX_SIG_ECDSA_SHA384:
	case TLSX_SIG_ECDSA_SHA512:
		if (issuer->type != TLSX_KEY_P256 ||
		    tlsx_p256_sig_from_der(sig, subject->sig.p,
					   subject->sig.len))
			return -EBADMSG;
		return tlsx_p256_verify(sig, issuer->p256, P256_POINT_SIZE,
					digest, dlen) ? -EBADMSG : 0;
	case TLSX_SIG_RSA_PKCS1_SHA256:
	case TLSX_SIG_RSA_PKCS1_SHA384:
	case TLSX_SIG_RSA_PKCS1_SHA512:
		/* An id-RSASSA-PSS key may not make PKCS#1 v1.5 signatures. */
		if (issuer->type != TLSX_KEY_RSA || issuer->rsa_pss_only)
			return -EBADMSG;
		return tlsx_rsa_pkcs1_verify(&issuer->rsa, hash, digest, dlen,
					     subject->sig.p,
					     subject->sig.len) ? -EBADMSG : 0;
	case TLSX_SIG_RSA_PSS_SHA256:
	case TLSX_SIG_RSA_PSS_SHA384:
	case TLSX_SIG_RSA_PSS_SHA512:
		if (issuer->type != TLSX_KEY_RSA)
			return -EBADMSG;
		return tlsx_rsa_pss_verify(&issuer->rsa, hash, digest, dlen,
					   subject->sig.p,
					   subject->sig.len) ? -EBADMSG : 0;
	default:
		return -EBADMSG;
	}
}

static bool span_equal(const struct der_span *a, const struct der_span *b)
{
	return a->len == b->len && !memcmp(a->p, b->p, a->len);
}

static bool self_issued(const struct tlsx_x509 *c)
{
	return span_equal(&c->issuer, &c->subject);
}

static int check_time(const struct tlsx_x509 *c, s64 now)
{
	if (now < c->not_before)
		return -X509_VERIFY_NOT_YET_VALID;
	if (now > c->not_after)
		return -X509_VERIFY_EXPIRED;
	return 0;
}

/*
 * Checks what makes @ca an acceptable issuer at @depth (0 for the leaf's
 * issuer), with @below non-self-issued intermediates between it and the
 * leaf.  A v1 certificate has no basicConstraints; only a trust anchor
 * may be one (it was configured as trusted, so it is a CA by fiat).
 */
static int check_issuer(const struct tlsx_x509 *ca, bool anchor,
			unsigned int below)
{
	if (!ca->ca && !(anchor && ca->version == 1))
		return -X509_VERIFY_NOT_CA;
	if ((ca->ext & X509_EXT_KEY_USAGE) &&
	    !(ca->key_usage & X509_KU_KEY_CERT_SIGN))
		return -X509_VERIFY_ISSUER_KEY_USAGE;
	if (ca->path_len >= 0 && below > (unsigned int)ca->path_len)
		return -X509_VERIFY_PATH_LEN;
	return 0;
}

/*
 * Finds the issuer of @c among @cands: one whose subject is @c's issuer
 * and whose key verifies @c's signature.  *err becomes BAD_SIGNATURE
 * when some candidate had the right name but not the right key.
 */
static const struct tlsx_x509 *find_issuer(const struct tlsx_x509 *c,
					   const struct tlsx_x509 *cands,
					   size_t n, size_t skip, int *err)
{
	size_t i;

	for (i = skip; i < n; i++) {
		if (&cands[i] == c ||
		    !span_equal(&cands[i].subject, &c->issuer))
			continue;
		if (!tlsx_x509_check_signature(c, &cands[i].pub))
			return &cands[i];
		*err = -X509_VERIFY_BAD_SIGNATURE;
	}
	return NULL;
}

static int check_leaf(const struct tlsx_x509 *leaf,
		      const struct tlsx_x509_verify_params *params)
{
	unsigned int eku = leaf->ext_key_usage;

	if ((leaf->ext & X509_EXT_KEY_USAGE) &&
	    !(leaf->key_usage & X509_KU_DIGITAL_SIGNATURE))
		return -X509_VERIFY_LEAF_KEY_USAGE;
	if (params->purpose && (leaf->ext & X509_EXT_EXT_KEY_USAGE) &&
	    !(eku & (params->purpose | X509_EKU_ANY)))
		return -X509_VERIFY_EXT_KEY_USAGE;
	if (params->host && !tlsx_x509_match_host(leaf, params->host))
		return -X509_VERIFY_HOST_MISMATCH;
	return 0;
}

int tlsx_x509_verify(const struct tlsx_x509 *chain, size_t n_chain,
		     const struct tlsx_x509 *anchors, size_t n_anchors,
		     const struct tlsx_x509_verify_params *params)
{
	const struct tlsx_x509 *cur, *next;
	unsigned int depth, below = 0;
	size_t i;
	int err;

	if (!chain || !n_chain || !params || (n_anchors && !anchors))
		return -X509_VERIFY_INVALID;
	cur = &chain[0];
	err = check_time(cur, params->now);
	if (!err)
		err = check_leaf(cur, params);
	if (err)
		return err;

	/* A leaf that is itself an anchor is trusted as it stands. */
	for (i = 0; i < n_anchors; i++)
		if (span_equal(&anchors[i].raw, &cur->raw))
			return 0;

	for (depth = 1; depth < X509_VERIFY_MAX_DEPTH; depth++) {
		err = -X509_VERIFY_NO_ISSUER;
		next = find_issuer(cur, anchors, n_anchors, 0, &err);
		if (next) {
			err = check_time(next, params->now);
			if (!err)
				err = check_issuer(next, true, below);
			return err;
		}
		/*
		 * An intermediate: chain[0] is the leaf, never an issuer;
		 * the depth bound stops a loop of cross-signed certs.
		 */
		next = find_issuer(cur, chain, n_chain, 1, &err);
		if (!next)
			return err;
		err = check_time(next, params->now);
		if (!err)
			err = check_issuer(next, false, below);
		if (err)
			return err;
		/* RFC 5280 4.2.1.9: self-issued CAs do not count. */
		if (!self_issued(next))
			below++;
		cur = next;
	}
	return -X509_VERIFY_DEPTH;
}

static char lower(char ch)
{
	return ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch;
}

/* ASCII case-insensitive comparison of @n bytes. */
static bool same_name(const char *a, const u8 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (lower(a[i]) != lower((char)b[i]))
			return false;
	return true;
}

/*
 * RFC 6125 6.4: a dNSName matches the host when equal ignoring case;
 * "*." as the whole leftmost label matches exactly one non-empty label,
 * and only when at least two labels follow it (no "*.com").
 */
static bool match_dns(const struct der_span *san, const char *host,
		      size_t len)
{
	const u8 *rest;
	const char *dot;
	size_t rest_len;

	if (san->len && san->p[san->len - 1] == '.')
		return false;	/* SANs are absolute without the dot */
	if (san->len == len && same_name(host, san->p, len))
		return true;
	if (san->len < 3 || san->p[0] != '*' || san->p[1] != '.')
		return false;
	rest = san->p + 1;	/* ".example.org" */
	rest_len = san->len - 1;
	if (!memchr(rest + 1, '.', rest_len - 1) || memchr(rest, '*', rest_len))
		return false;
	dot = memchr(host, '.', len);
	if (!dot || dot == host)
		return false;
	return (size_t)(host + len - dot) == rest_len &&
	       same_name(dot, rest, rest_len);
}

bool tlsx_x509_match_host(const struct tlsx_x509 *leaf, const char *host)
{
	u8 addr[16];
	size_t len, i;

	if (inet_pton(AF_INET, host, addr) == 1) {
		for (i = 0; i < leaf->n_ip; i++)
			if (leaf->ip[i].len == 4 && !memcmp(leaf->ip[i].p, addr, 4))
				return true;
		return false;
	}
	if (inet_pton(AF_INET6, host, addr) == 1) {
		for (i = 0; i < leaf->n_ip; i++)
			if (leaf->ip[i].len == 16 &&
			    !memcmp(leaf->ip[i].p, addr, 16))
				return true;
		return false;
	}
	len = strlen(host);
	if (len && host[len - 1] == '.')
		len--;
	/* An empty name or a name with a wildcard matches nothing. */
	if (!len || memchr(host, '*', len) || host[0] == '.')
		return false;
	for (i = 0; i < leaf->n_dns; i++)
		if (match_dns(&leaf->dns[i], host, len))
			return true;
	return false;
}

const char *tlsx_x509_verify_strerror(int err)
{
	switch (-err) {
	case X509_VERIFY_OK:
		return "ok";
	case X509_VERIFY_NO_ISSUER:
		return "issuer not found among the chain and trust anchors";
	case X509_VERIFY_BAD_SIGNATURE:
		return "certificate signature does not verify";
	case X509_VERIFY_EXPIRED:
		return "certificate has expired";
	case X509_VERIFY_NOT_YET_VALID:
		return "certificate is not yet valid";
	case X509_VERIFY_NOT_CA:
		return "issuer is not a CA (basicConstraints)";
	case X509_VERIFY_PATH_LEN:
		return "issuer's pathLenConstraint exceeded";
	case X509_VERIFY_ISSUER_KEY_USAGE:
		return "issuer's keyUsage lacks keyCertSign";
	case X509_VERIFY_LEAF_KEY_USAGE:
		return "leaf's keyUsage lacks digitalSignature";
	case X509_VERIFY_EXT_KEY_USAGE:
		return "leaf's extendedKeyUsage lacks the purpose";
	case X509_VERIFY_HOST_MISMATCH:
		return "no subjectAltName matches the host";
	case X509_VERIFY_DEPTH:
		return "chain too long";
	case X509_VERIFY_INVALID:
		return "invalid arguments";
	default:
		return "unknown error";
	}
}
