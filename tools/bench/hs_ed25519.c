// SPDX-License-Identifier: GPL-2.0
/*
 * hs_ed25519.c - Ed25519 rows of "tlsx-bench hs", on a 100-byte message
 * (what TLS 1.3 signs is its 64-byte pad, a context string and a hash).
 *
 *  - "Ed25519 sign": tlsx_ed25519_sign() with the expanded key kept in
 *    struct tlsx_ed25519_key, against EVP_DigestSignInit() +
 *    EVP_DigestSign() on one EVP_MD_CTX reused for every signature, as a
 *    TLS stack signs a CertificateVerify.
 *  - "Ed25519 verify": tlsx_ed25519_verify() against
 *    EVP_DigestVerifyInit() + EVP_DigestVerify() on another reused
 *    EVP_MD_CTX (OpenSSL 3.0 refuses to sign on a context that has
 *    verified with Ed25519, so the two do not share one).
 */
#include <stdlib.h>
#include <openssl/evp.h>

#include "hs_bench.h"
#include "curve25519/ed25519.h"
#include "rand/random.h"

#define ED_MSG_LEN	100

struct ed_state {
	struct tlsx_ed25519_key k;
	u8 msg[ED_MSG_LEN], sig[64];
	EVP_PKEY *priv, *pub;
	EVP_MD_CTX *sctx, *vctx;	/* one for signing, one for verifying */
};

static void ed_teardown(void *p)
{
	struct ed_state *st = p;

	EVP_MD_CTX_free(st->sctx);
	EVP_MD_CTX_free(st->vctx);
	EVP_PKEY_free(st->priv);
	EVP_PKEY_free(st->pub);
	tlsx_ed25519_key_wipe(&st->k);
	free(st);
}

static void *ed_setup(void)
{
	struct ed_state *st = calloc(1, sizeof(*st));
	u8 osig[64];
	size_t n = sizeof(osig);

	if (!st)
		return NULL;
	if (tlsx_ed25519_keygen(&st->k) ||
	    tlsx_random_bytes(st->msg, sizeof(st->msg)))
		goto fail;
	st->priv = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL,
						st->k.seed, 32);
	st->pub = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL,
					      st->k.pub, 32);
	st->sctx = EVP_MD_CTX_new();
	st->vctx = EVP_MD_CTX_new();
	if (!st->priv || !st->pub || !st->sctx || !st->vctx)
		goto fail;

	/*
	 * cross-check: tlsx's signature verifies with OpenSSL, equals
	 * OpenSSL's (Ed25519 is deterministic), and OpenSSL's verifies
	 * with tlsx
	 */
	tlsx_ed25519_sign(st->sig, &st->k, st->msg, sizeof(st->msg));
	if (EVP_DigestVerifyInit(st->vctx, NULL, NULL, NULL, st->pub) <= 0 ||
	    EVP_DigestVerify(st->vctx, st->sig, 64, st->msg,
			     sizeof(st->msg)) != 1)
		goto fail;
	if (EVP_DigestSignInit(st->sctx, NULL, NULL, NULL, st->priv) <= 0 ||
	    EVP_DigestSign(st->sctx, osig, &n, st->msg, sizeof(st->msg)) <= 0 ||
	    n != 64 || memcmp(osig, st->sig, 64) ||
	    tlsx_ed25519_verify(osig, st->k.pub, st->msg, sizeof(st->msg)))
		goto fail;
	return st;
fail:
	ed_teardown(st);
	return NULL;
}

static int tlsx_sign_op(void *p)
{
	struct ed_state *st = p;

	tlsx_ed25519_sign(st->sig, &st->k, st->msg, sizeof(st->msg));
	return 0;
}

static int ossl_sign_op(void *p)
{
	struct ed_state *st = p;
	size_t n = sizeof(st->sig);

	if (EVP_DigestSignInit(st->sctx, NULL, NULL, NULL, st->priv) <= 0 ||
	    EVP_DigestSign(st->sctx, st->sig, &n, st->msg,
			   sizeof(st->msg)) <= 0)
		return -1;
	return 0;
}

static int tlsx_verify_op(void *p)
{
	struct ed_state *st = p;

	return tlsx_ed25519_verify(st->sig, st->k.pub, st->msg,
				   sizeof(st->msg));
}

static int ossl_verify_op(void *p)
{
	struct ed_state *st = p;

	if (EVP_DigestVerifyInit(st->vctx, NULL, NULL, NULL, st->pub) <= 0 ||
	    EVP_DigestVerify(st->vctx, st->sig, 64, st->msg,
			     sizeof(st->msg)) != 1)
		return -1;
	return 0;
}

const struct hs_bench_op hs_bench_ed25519[] = {
	{ "Ed25519 sign", 0, 1.0, ed_setup, tlsx_sign_op, ossl_sign_op,
	  ed_teardown, 0 },
	{ "Ed25519 verify", 0, 1.0, ed_setup, tlsx_verify_op, ossl_verify_op,
	  ed_teardown, 0 },
	{ NULL },
};
