// SPDX-License-Identifier: GPL-2.0
/*
 * handshake_certs.c - the handshake benchmark's credentials, made once
 * per key type at startup with libcrypto (the benchmark only: the
 * library never links OpenSSL): a self-signed CA and a leaf for HSB_HOST
 * it signs, both of the row's key type, valid from a day ago for a year.
 * libssl gets the X509 and EVP_PKEY objects, tlsx the same certificates
 * and key as PEM (PKCS#8 for the key), so both sides verify and sign
 * with exactly the same keys.
 *
 * Certificate signatures: ECDSA with SHA-256, Ed25519, and RSA PKCS#1
 * v1.5 with SHA-256 (what public CAs issue for RSA keys).
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "handshake.h"

static struct hsb_creds creds[HSB_KEY_N];
static bool made[HSB_KEY_N];

static EVP_PKEY *gen_key(enum hsb_key key)
{
	switch (key) {
	case HSB_KEY_ECDSA_P256:
		return EVP_EC_gen("P-256");
	case HSB_KEY_ED25519:
		return EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	case HSB_KEY_RSA2048:
		return EVP_RSA_gen(2048);
	default:
		return NULL;
	}
}

static int add_ext(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	int ok;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, issuer, x, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	if (!ext)
		return -1;
	ok = X509_add_ext(x, ext, -1);
	X509_EXTENSION_free(ext);
	return ok == 1 ? 0 : -1;
}

/* A v3 certificate for @pub named @cn, signed by @sign_key as @issuer. */
static X509 *make_cert(EVP_PKEY *pub, const char *cn, long serial,
		       X509 *issuer, EVP_PKEY *sign_key, bool ca)
{
	X509 *x = X509_new();
	X509_NAME *name;
	const EVP_MD *md;

	if (!x)
		return NULL;
	name = X509_get_subject_name(x);
	if (X509_set_version(x, 2) != 1 ||
	    ASN1_INTEGER_set(X509_get_serialNumber(x), serial) != 1 ||
	    !X509_gmtime_adj(X509_getm_notBefore(x), -86400) ||
	    !X509_gmtime_adj(X509_getm_notAfter(x), 365L * 86400) ||
	    X509_set_pubkey(x, pub) != 1 ||
	    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				       (const unsigned char *)cn, -1, -1,
				       0) != 1 ||
	    X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) :
				 name) != 1)
		goto fail;
	if (ca) {
		if (add_ext(x, x, NID_basic_constraints, "critical,CA:TRUE") ||
		    add_ext(x, x, NID_key_usage,
			    "critical,keyCertSign,cRLSign") ||
		    add_ext(x, x, NID_subject_key_identifier, "hash"))
			goto fail;
	} else {
		if (add_ext(x, issuer, NID_basic_constraints,
			    "critical,CA:FALSE") ||
		    add_ext(x, issuer, NID_key_usage,
			    "critical,digitalSignature") ||
		    add_ext(x, issuer, NID_ext_key_usage, "serverAuth") ||
		    add_ext(x, issuer, NID_subject_alt_name,
			    "DNS:" HSB_HOST) ||
		    add_ext(x, issuer, NID_authority_key_identifier,
			    "keyid:always"))
			goto fail;
	}
	/* Ed25519 signs the message itself: no digest is named. */
	md = EVP_PKEY_get_id(sign_key) == EVP_PKEY_ED25519 ? NULL :
	     EVP_sha256();
	if (!X509_sign(x, sign_key, md))
		goto fail;
	return x;
fail:
	X509_free(x);
	return NULL;
}

/* @obj (a key if @key, else a certificate) as a malloc'd PEM string. */
static char *to_pem(const void *obj, bool key, size_t *len)
{
	BIO *b = BIO_new(BIO_s_mem());
	char *data, *pem = NULL;
	long n;
	int ok;

	if (!b)
		return NULL;
	if (key)
		ok = PEM_write_bio_PrivateKey(b, (EVP_PKEY *)obj, NULL, NULL,
					      0, NULL, NULL);
	else
		ok = PEM_write_bio_X509(b, (X509 *)obj);
	n = BIO_get_mem_data(b, &data);
	if (ok == 1 && n > 0) {
		pem = malloc((size_t)n + 1);
		if (pem) {
			memcpy(pem, data, (size_t)n);
			pem[n] = '\0';
			*len = (size_t)n;
		}
	}
	BIO_free(b);
	return pem;
}

static void creds_free(struct hsb_creds *c)
{
	X509_free(c->ca);
	X509_free(c->leaf);
	EVP_PKEY_free(c->leaf_key);
	free(c->ca_pem);
	free(c->leaf_pem);
	if (c->key_pem)
		OPENSSL_cleanse(c->key_pem, c->key_len);
	free(c->key_pem);
	memset(c, 0, sizeof(*c));
}

const struct hsb_creds *hsb_creds_get(enum hsb_key key)
{
	struct hsb_creds *c;
	EVP_PKEY *ca_key = NULL;

	if (key >= HSB_KEY_N)
		return NULL;
	c = &creds[key];
	if (made[key])
		return c;
	ca_key = gen_key(key);
	c->leaf_key = gen_key(key);
	if (!ca_key || !c->leaf_key)
		goto fail;
	c->ca = make_cert(ca_key, "tlsx-bench CA", 1, NULL, ca_key, true);
	if (!c->ca)
		goto fail;
	c->leaf = make_cert(c->leaf_key, HSB_HOST, 2, c->ca, ca_key, false);
	if (!c->leaf)
		goto fail;
	c->ca_pem = to_pem(c->ca, false, &c->ca_len);
	c->leaf_pem = to_pem(c->leaf, false, &c->leaf_len);
	c->key_pem = to_pem(c->leaf_key, true, &c->key_len);
	if (!c->ca_pem || !c->leaf_pem || !c->key_pem)
		goto fail;
	EVP_PKEY_free(ca_key);
	made[key] = true;
	return c;
fail:
	EVP_PKEY_free(ca_key);
	creds_free(c);
	return NULL;
}

void hsb_creds_free_all(void)
{
	int k;

	for (k = 0; k < HSB_KEY_N; k++) {
		if (made[k])
			creds_free(&creds[k]);
		made[k] = false;
	}
}
