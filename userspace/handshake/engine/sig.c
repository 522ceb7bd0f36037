// SPDX-License-Identifier: GPL-2.0
/*
 * sig.c - CertificateVerify (RFC 8446 4.4.3): the signatures of the
 * handshake, the CertificateVerify half of cert.h.
 *
 * The signed content is 64 spaces, the context string of the signer's
 * role, a zero byte and the transcript hash.  ECDSA signs its SHA-256
 * with RFC 6979 nonces hedged with 32 bytes from the caller's rand;
 * RSA-PSS signs the scheme's hash with a salt of that length from it
 * (4.2.3: "the length of the Salt MUST be equal to the length of the
 * digest algorithm"); Ed25519 signs the content itself.
 */
#include "curve25519/ed25519.h"
#include "p256/p256.h"
#include "rsa/rsa.h"
#include "handshake/engine/alert.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs.h"

#define CV_PAD		64
#define CV_CTX_LEN	33	/* "TLS 1.3, server CertificateVerify" */
#define CV_MAX		(CV_PAD + CV_CTX_LEN + 1 + TLSX_HASH_MAX_DIGEST)

static const struct {
	u16 scheme;
	const char *name;
} cv_names[] = {
	{ TLSX_SIG_RSA_PKCS1_SHA256, "rsa_pkcs1_sha256" },
	{ TLSX_SIG_RSA_PKCS1_SHA384, "rsa_pkcs1_sha384" },
	{ TLSX_SIG_RSA_PKCS1_SHA512, "rsa_pkcs1_sha512" },
	{ TLSX_SIG_ECDSA_SECP256R1_SHA256, "ecdsa_secp256r1_sha256" },
	{ TLSX_SIG_RSA_PSS_RSAE_SHA256, "rsa_pss_rsae_sha256" },
	{ TLSX_SIG_RSA_PSS_RSAE_SHA384, "rsa_pss_rsae_sha384" },
	{ TLSX_SIG_RSA_PSS_RSAE_SHA512, "rsa_pss_rsae_sha512" },
	{ TLSX_SIG_ED25519, "ed25519" },
	{ TLSX_SIG_RSA_PSS_PSS_SHA256, "rsa_pss_pss_sha256" },
	{ TLSX_SIG_RSA_PSS_PSS_SHA384, "rsa_pss_pss_sha384" },
	{ TLSX_SIG_RSA_PSS_PSS_SHA512, "rsa_pss_pss_sha512" },
};

const char *tlsx_sig_scheme_name(u16 scheme)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cv_names); i++)
		if (cv_names[i].scheme == scheme)
			return cv_names[i].name;
	return "unknown";
}

/* What a scheme needs: the key type, the hash, and for RSA the OID. */
enum cv_rsa { CV_NOT_RSA, CV_RSAE, CV_PSS };

static int cv_scheme(u16 scheme, enum tlsx_key_type *type,
		     enum tlsx_hash_alg *hash, enum cv_rsa *rsa)
{
	*rsa = CV_NOT_RSA;
	switch (scheme) {
	case TLSX_SIG_ECDSA_SECP256R1_SHA256:
		*type = TLSX_KEY_P256;
		*hash = TLSX_HASH_SHA256;
		return 0;
	case TLSX_SIG_ED25519:
		*type = TLSX_KEY_ED25519;
		*hash = 0;
		return 0;
	case TLSX_SIG_RSA_PSS_RSAE_SHA256:
	case TLSX_SIG_RSA_PSS_PSS_SHA256:
		*hash = TLSX_HASH_SHA256;
		break;
	case TLSX_SIG_RSA_PSS_RSAE_SHA384:
	case TLSX_SIG_RSA_PSS_PSS_SHA384:
		*hash = TLSX_HASH_SHA384;
		break;
	case TLSX_SIG_RSA_PSS_RSAE_SHA512:
	case TLSX_SIG_RSA_PSS_PSS_SHA512:
		*hash = TLSX_HASH_SHA512;
		break;
	default:
		/* 4.4.3: "RSA signatures MUST use an RSASSA-PSS algorithm,
		 * regardless of whether RSASSA-PKCS1-v1_5 algorithms appear
		 * in "signature_algorithms"."
		 */
		return -EINVAL;
	}
	*type = TLSX_KEY_RSA;
	*rsa = scheme >= TLSX_SIG_RSA_PSS_PSS_SHA256 ? CV_PSS : CV_RSAE;
	return 0;
}

/* The content 4.4.3 signs; returns its length. */
static size_t cv_content(u8 *out, bool server, const u8 *th, size_t th_len)
{
	static const char srv[] = "TLS 1.3, server CertificateVerify";
	static const char cli[] = "TLS 1.3, client CertificateVerify";

	memset(out, 0x20, CV_PAD);
	memcpy(out + CV_PAD, server ? srv : cli, CV_CTX_LEN);
	out[CV_PAD + CV_CTX_LEN] = 0;
	memcpy(out + CV_PAD + CV_CTX_LEN + 1, th, th_len);
	return CV_PAD + CV_CTX_LEN + 1 + th_len;
}

bool tlsx_cv_key_can(const struct tlsx_private_key *k, u16 scheme)
{
	enum tlsx_key_type type;
	enum tlsx_hash_alg hash;
	enum cv_rsa rsa;

	if (cv_scheme(scheme, &type, &hash, &rsa) || k->type != type)
		return false;
	/*
	 * A private key does not say whether its certificate names
	 * rsaEncryption or id-RSASSA-PSS (the padding is the same): the
	 * engine matches rsae/pss to the leaf (hs_pick_sig_scheme()).
	 */
	return true;
}

int tlsx_cv_sign(const struct tlsx_private_key *k, u16 scheme, bool server,
		 const u8 *th, size_t th_len,
		 int (*rand)(void *ctx, void *buf, size_t len), void *rand_ctx,
		 u8 *sig, size_t cap, size_t *sig_len)
{
	u8 content[CV_MAX], digest[TLSX_HASH_MAX_DIGEST];
	u8 extra[TLSX_HASH_MAX_DIGEST], raw[P256_SIG_SIZE];
	u8 der[P256_SIG_DER_MAX];
	enum tlsx_key_type type;
	enum tlsx_hash_alg hash;
	enum cv_rsa rsa;
	size_t len, hlen;
	int ret;

	*sig_len = 0;
	if (th_len > TLSX_HASH_MAX_DIGEST)
		return -EINVAL;
	if (cv_scheme(scheme, &type, &hash, &rsa) || k->type != type)
		return -EINVAL;
	len = cv_content(content, server, th, th_len);
	hlen = hash ? tlsx_hash_digest_size(hash) : 0;
	if (hash) {
		ret = tlsx_hash(hash, content, len, digest);
		if (ret)
			return ret;
	}
	switch (type) {
	case TLSX_KEY_P256:
		ret = rand(rand_ctx, extra, 32);
		if (!ret)
			ret = tlsx_p256_sign_extra(raw, k->p256.priv, hash,
						   digest, hlen, extra);
		if (ret)
			break;
		len = tlsx_p256_sig_to_der(der, raw);
		if (len > cap) {
			ret = -ENOSPC;
			break;
		}
		memcpy(sig, der, len);
		*sig_len = len;
		break;
	case TLSX_KEY_ED25519:
		if (cap < ED25519_SIG_SIZE) {
			ret = -ENOSPC;
			break;
		}
		tlsx_ed25519_sign(sig, &k->ed25519, content, len);
		*sig_len = ED25519_SIG_SIZE;
		ret = 0;
		break;
	default:
		if (cap < k->rsa.pub.n_len) {
			ret = -ENOSPC;
			break;
		}
		ret = rand(rand_ctx, extra, hlen);
		if (!ret)
			ret = tlsx_rsa_pss_sign_salt(sig, cap, &k->rsa, hash,
						     digest, hlen, extra);
		if (!ret)
			*sig_len = k->rsa.pub.n_len;
		break;
	}
	memzero_explicit(extra, sizeof(extra));
	memzero_explicit(raw, sizeof(raw));
	return ret;
}

int tlsx_cv_verify(const struct tlsx_public_key *pub, u16 scheme, bool server,
		   const u8 *th, size_t th_len, const u8 *sig, size_t sig_len)
{
	u8 content[CV_MAX], digest[TLSX_HASH_MAX_DIGEST], raw[P256_SIG_SIZE];
	enum tlsx_key_type type;
	enum tlsx_hash_alg hash;
	enum cv_rsa rsa;
	size_t len, hlen;
	int ret;

	if (th_len > TLSX_HASH_MAX_DIGEST)
		return -EINVAL;
	/*
	 * 4.4.3 / 4.2.3: the scheme must fit the key: its type, and for
	 * RSA rsae with an rsaEncryption key, pss with an id-RSASSA-PSS one.
	 */
	if (cv_scheme(scheme, &type, &hash, &rsa) || pub->type != type)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	if (rsa != CV_NOT_RSA && pub->rsa_pss_only != (rsa == CV_PSS))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	len = cv_content(content, server, th, th_len);
	hlen = hash ? tlsx_hash_digest_size(hash) : 0;
	if (hash) {
		ret = tlsx_hash(hash, content, len, digest);
		if (ret)
			return ret;
	}
	switch (type) {
	case TLSX_KEY_P256:
		ret = tlsx_p256_sig_from_der(raw, sig, sig_len);
		if (!ret)
			ret = tlsx_p256_verify(raw, pub->p256, P256_POINT_SIZE,
					       digest, hlen);
		break;
	case TLSX_KEY_ED25519:
		ret = sig_len == ED25519_SIG_SIZE ?
		      tlsx_ed25519_verify(sig, pub->ed25519, content, len) :
		      -EBADMSG;
		break;
	default:
		ret = tlsx_rsa_pss_verify(&pub->rsa, hash, digest, hlen, sig,
					  sig_len);
		break;
	}
	/* 6.2: decrypt_error, "a handshake ... signature ... could not be
	 * correctly verified".
	 */
	return ret ? TLSX_ALERT_DECRYPT_ERROR : 0;
}
