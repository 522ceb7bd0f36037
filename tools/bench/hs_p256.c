// SPDX-License-Identifier: GPL-2.0
/*
 * hs_p256.c - P-256 key generation, ECDH, ECDSA sign and verify against
 * OpenSSL 3.0's EVP_PKEY interface, contexts prepared once as a TLS
 * stack holding its key would: EVP_PKEY_keygen on a context with the
 * group set; EVP_PKEY_derive with the key and the peer set once;
 * EVP_PKEY_sign / EVP_PKEY_verify on a 32-byte digest with a context
 * initialised once.  Signatures travel as DER on both sides (TLS's
 * form): tlsx signs (RFC 6979 nonce included) and encodes, decodes and
 * verifies.  setup() checks that the two agree before anything is timed.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/bn.h>
#include <openssl/ec.h>

#include "hs_bench.h"
#include "p256/p256.h"

struct p256_state {
	unsigned char priv[32], pub[65], peer_priv[32], peer_pub[65];
	unsigned char gen_priv[32], gen_pub[65];
	unsigned char dg[32], out[72], der[P256_SIG_DER_MAX];
	size_t der_len;
	bool hedge;
	EVP_PKEY *key, *peer;
	EVP_PKEY_CTX *gen, *derive, *sign, *verify;
};

static void p256_teardown(void *p)
{
	struct p256_state *s = p;

	EVP_PKEY_CTX_free(s->gen);
	EVP_PKEY_CTX_free(s->derive);
	EVP_PKEY_CTX_free(s->sign);
	EVP_PKEY_CTX_free(s->verify);
	EVP_PKEY_free(s->key);
	EVP_PKEY_free(s->peer);
	free(s);
}

/* An OpenSSL key pair and its raw private and uncompressed public key. */
static EVP_PKEY *p256_ossl_key(unsigned char priv[32],
			       unsigned char pub[65])
{
	EVP_PKEY *pk = EVP_EC_gen("P-256");
	BIGNUM *d = NULL;
	size_t len = 0;

	if (!pk)
		return NULL;
	if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1 ||
	    BN_bn2binpad(d, priv, 32) != 32 ||
	    EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, pub,
					    65, &len) != 1 || len != 65) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	BN_clear_free(d);
	return pk;
}

static int p256_keygen_tlsx(void *p)
{
	struct p256_state *s = p;

	return tlsx_p256_keygen(s->gen_priv, s->gen_pub);
}

static int p256_keygen_ossl(void *p)
{
	struct p256_state *s = p;
	EVP_PKEY *pk = NULL;

	if (EVP_PKEY_keygen(s->gen, &pk) != 1)
		return -1;
	EVP_PKEY_free(pk);
	return 0;
}

static int p256_ecdh_tlsx(void *p)
{
	struct p256_state *s = p;

	return tlsx_p256_ecdh(s->out, s->priv, s->peer_pub, 65);
}

static int p256_ecdh_ossl(void *p)
{
	struct p256_state *s = p;
	size_t len = 32;

	return EVP_PKEY_derive(s->derive, s->out, &len) == 1 ? 0 : -1;
}

static int p256_sign_tlsx(void *p)
{
	struct p256_state *s = p;
	unsigned char sig[P256_SIG_SIZE];

	if (tlsx_p256_sign(sig, s->priv, TLSX_HASH_SHA256, s->dg, 32,
			   s->hedge))
		return -1;
	return tlsx_p256_sig_to_der(s->out, sig) ? 0 : -1;
}

static int p256_sign_ossl(void *p)
{
	struct p256_state *s = p;
	size_t len = sizeof(s->out);

	return EVP_PKEY_sign(s->sign, s->out, &len, s->dg, 32) == 1 ? 0 : -1;
}

static int p256_verify_tlsx(void *p)
{
	struct p256_state *s = p;
	unsigned char sig[P256_SIG_SIZE];

	if (tlsx_p256_sig_from_der(sig, s->der, s->der_len))
		return -1;
	return tlsx_p256_verify(sig, s->pub, 65, s->dg, 32);
}

static int p256_verify_ossl(void *p)
{
	struct p256_state *s = p;

	return EVP_PKEY_verify(s->verify, s->der, s->der_len, s->dg, 32) == 1 ?
	       0 : -1;
}

/*
 * Both sides hold the same key (OpenSSL's, loaded into tlsx as raw
 * bytes) and the same peer; they must agree on the public key and the
 * shared secret, and accept each other's signatures.
 */
static void *p256_setup_common(bool hedge)
{
	struct p256_state *s = calloc(1, sizeof(*s));
	unsigned char pub[65], z[32], sig[64], der[P256_SIG_DER_MAX];
	size_t len, i;

	if (!s)
		return NULL;
	s->hedge = hedge;
	for (i = 0; i < sizeof(s->dg); i++)
		s->dg[i] = (unsigned char)(i * 29 + 3);
	s->key = p256_ossl_key(s->priv, s->pub);
	s->peer = p256_ossl_key(s->peer_priv, s->peer_pub);
	if (!s->key || !s->peer)
		goto fail;
	s->gen = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	s->derive = EVP_PKEY_CTX_new(s->key, NULL);
	s->sign = EVP_PKEY_CTX_new(s->key, NULL);
	s->verify = EVP_PKEY_CTX_new(s->key, NULL);
	if (!s->gen || !s->derive || !s->sign || !s->verify ||
	    EVP_PKEY_keygen_init(s->gen) != 1 ||
	    EVP_PKEY_CTX_set_group_name(s->gen, "P-256") != 1 ||
	    EVP_PKEY_derive_init(s->derive) != 1 ||
	    EVP_PKEY_derive_set_peer(s->derive, s->peer) != 1 ||
	    EVP_PKEY_sign_init(s->sign) != 1 ||
	    EVP_PKEY_verify_init(s->verify) != 1)
		goto fail;

	/* the same public key and shared secret */
	if (tlsx_p256_public(pub, s->priv) || memcmp(pub, s->pub, 65) ||
	    p256_ecdh_tlsx(s) || p256_ecdh_ossl(s))
		goto fail;
	memcpy(z, s->out, 32);
	if (p256_ecdh_tlsx(s) || memcmp(z, s->out, 32))
		goto fail;
	/* OpenSSL's signature verifies with tlsx ... */
	len = sizeof(s->der);
	if (EVP_PKEY_sign(s->sign, s->der, &len, s->dg, 32) != 1)
		goto fail;
	s->der_len = len;
	if (p256_verify_tlsx(s) || p256_verify_ossl(s))
		goto fail;
	/* ... and tlsx's with OpenSSL; a wrong digest fails on both */
	if (tlsx_p256_sign(sig, s->priv, TLSX_HASH_SHA256, s->dg, 32, hedge))
		goto fail;
	len = tlsx_p256_sig_to_der(der, sig);
	if (EVP_PKEY_verify(s->verify, der, len, s->dg, 32) != 1)
		goto fail;
	s->dg[0] ^= 1;
	if (EVP_PKEY_verify(s->verify, der, len, s->dg, 32) == 1 ||
	    !tlsx_p256_verify(sig, s->pub, 65, s->dg, 32))
		goto fail;
	s->dg[0] ^= 1;
	return s;
fail:
	p256_teardown(s);
	return NULL;
}

static void *p256_setup(void)
{
	return p256_setup_common(false);
}

static void *p256_setup_hedged(void)
{
	return p256_setup_common(true);
}

const struct hs_bench_op hs_bench_p256[] = {
	{ "P-256 keygen", 0, 0, p256_setup, p256_keygen_tlsx,
	  p256_keygen_ossl, p256_teardown, 0 },
	{ "P-256 ECDH", 0, 0, p256_setup, p256_ecdh_tlsx, p256_ecdh_ossl,
	  p256_teardown, 0 },
	{ "ECDSA P-256 sign", 0, 1.0, p256_setup, p256_sign_tlsx,
	  p256_sign_ossl, p256_teardown, 0 },
	{ "ECDSA P-256 sign (hedged)", 0, 0, p256_setup_hedged,
	  p256_sign_tlsx, p256_sign_ossl, p256_teardown, 0 },
	{ "ECDSA P-256 verify", 0, 1.0, p256_setup, p256_verify_tlsx,
	  p256_verify_ossl, p256_teardown, 0 },
	{ NULL },
};
