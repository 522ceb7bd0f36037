// SPDX-License-Identifier: GPL-2.0
/*
 * hs_x25519.c - X25519 rows of "tlsx-bench hs".
 *
 *  - "X25519 keygen": tlsx_x25519_keygen() (getrandom() for the private
 *    key, then the fixed-base Edwards table) against EVP_PKEY_keygen()
 *    on a context prepared once (OpenSSL's DRBG, then its ladder on the
 *    base point).  Both sides draw a fresh random key each time.
 *  - "X25519 shared secret": tlsx_x25519() against EVP_PKEY_derive() on
 *    a context whose key and peer were set once.
 */
#include <stdlib.h>
#include <openssl/evp.h>

#include "hs_bench.h"
#include "curve25519/x25519.h"

struct x25519_state {
	u8 priv[32], peer[32], shared[32], pub[32];
	EVP_PKEY_CTX *gen;	/* keygen context */
	EVP_PKEY_CTX *derive;	/* derive context, key and peer set */
	EVP_PKEY *key, *peer_key;
};

static void x25519_teardown(void *p)
{
	struct x25519_state *st = p;

	EVP_PKEY_CTX_free(st->gen);
	EVP_PKEY_CTX_free(st->derive);
	EVP_PKEY_free(st->key);
	EVP_PKEY_free(st->peer_key);
	free(st);
}

static void *x25519_setup(void)
{
	struct x25519_state *st = calloc(1, sizeof(*st));
	u8 peer_priv[32], o[32];
	size_t n = 32;

	if (!st)
		return NULL;
	if (tlsx_x25519_keygen(st->priv, st->pub) ||
	    tlsx_x25519_keygen(peer_priv, st->peer))
		goto fail;
	st->key = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL,
					       st->priv, 32);
	st->peer_key = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL,
						   st->peer, 32);
	st->derive = EVP_PKEY_CTX_new(st->key, NULL);
	st->gen = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
	if (!st->key || !st->peer_key || !st->derive || !st->gen ||
	    EVP_PKEY_derive_init(st->derive) <= 0 ||
	    EVP_PKEY_derive_set_peer(st->derive, st->peer_key) <= 0 ||
	    EVP_PKEY_keygen_init(st->gen) <= 0)
		goto fail;

	/* cross-check: the public key and the shared secret agree */
	if (!EVP_PKEY_get_raw_public_key(st->key, o, &n) || n != 32 ||
	    memcmp(o, st->pub, 32))
		goto fail;
	n = 32;
	if (EVP_PKEY_derive(st->derive, o, &n) <= 0 || n != 32 ||
	    tlsx_x25519(st->shared, st->priv, st->peer) ||
	    memcmp(o, st->shared, 32))
		goto fail;
	return st;
fail:
	x25519_teardown(st);
	return NULL;
}

static int tlsx_keygen_op(void *p)
{
	struct x25519_state *st = p;

	return tlsx_x25519_keygen(st->priv, st->pub);
}

static int ossl_keygen_op(void *p)
{
	struct x25519_state *st = p;
	EVP_PKEY *k = NULL;

	if (EVP_PKEY_keygen(st->gen, &k) <= 0)
		return -1;
	EVP_PKEY_free(k);
	return 0;
}

/* The keygen rows change st->priv: the shared rows use the peer key. */
static int tlsx_shared_op(void *p)
{
	struct x25519_state *st = p;

	return tlsx_x25519(st->shared, st->priv, st->peer);
}

static int ossl_shared_op(void *p)
{
	struct x25519_state *st = p;
	size_t n = 32;

	return EVP_PKEY_derive(st->derive, st->shared, &n) > 0 ? 0 : -1;
}

const struct hs_bench_op hs_bench_x25519[] = {
	{ "X25519 keygen", 0, 0.5, x25519_setup, tlsx_keygen_op,
	  ossl_keygen_op, x25519_teardown, 0 },
	{ "X25519 shared secret", 0, 1.0, x25519_setup, tlsx_shared_op,
	  ossl_shared_op, x25519_teardown, 0 },
	{ NULL },
};
