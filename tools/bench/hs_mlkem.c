// SPDX-License-Identifier: GPL-2.0
/*
 * hs_mlkem.c - ML-KEM-768 rows of "tlsx-bench hs" (issue 30): KeyGen,
 * Encaps and Decaps with their TSC cycles against the bound
 * (at most 20,000 each).
 *
 * OpenSSL 3.0 has no ML-KEM: the anchor beside each row is the
 * classical operation the hybrid's ML-KEM half sits next to in the same
 * handshake role, OpenSSL's X25519 (keygen for KeyGen, derive for
 * Encaps and Decaps), so the ratio says what the post-quantum half
 * costs against the classical one, not a comparison of two ML-KEMs.
 * setup() checks Encaps/Decaps agree and that the engine's choice is
 * named (rows printed with it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "hs_bench.h"
#include "mlkem/mlkem.h"
#include "rand/random.h"

struct mlkem_state {
	u8 ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	u8 ct[MLKEM768_CT_SIZE], ss[32], seed[64], m[32];
	EVP_PKEY_CTX *gen, *derive;
	EVP_PKEY *key, *peer;
};

static void mlkem_teardown(void *p)
{
	struct mlkem_state *st = p;

	EVP_PKEY_CTX_free(st->gen);
	EVP_PKEY_CTX_free(st->derive);
	EVP_PKEY_free(st->key);
	EVP_PKEY_free(st->peer);
	free(st);
}

static void *mlkem_setup(void)
{
	struct mlkem_state *st = calloc(1, sizeof(*st));
	u8 ss2[32];

	if (!st || tlsx_random_bytes(st->seed, sizeof(st->seed)) ||
	    tlsx_random_bytes(st->m, sizeof(st->m)))
		goto fail;
	tlsx_mlkem768_keygen_internal(st->ek, st->dk, st->seed, st->seed + 32);
	if (tlsx_mlkem768_encaps_internal(st->ct, st->ss, st->ek, st->m))
		goto fail;
	tlsx_mlkem768_decaps(ss2, st->dk, st->ct);
	if (memcmp(ss2, st->ss, 32))
		goto fail;
	st->gen = EVP_PKEY_CTX_new_id(EVP_PKEY_X25519, NULL);
	if (!st->gen || EVP_PKEY_keygen_init(st->gen) <= 0 ||
	    EVP_PKEY_keygen(st->gen, &st->key) <= 0 ||
	    EVP_PKEY_keygen(st->gen, &st->peer) <= 0)
		goto fail;
	st->derive = EVP_PKEY_CTX_new(st->key, NULL);
	if (!st->derive || EVP_PKEY_derive_init(st->derive) <= 0 ||
	    EVP_PKEY_derive_set_peer(st->derive, st->peer) <= 0)
		goto fail;
	return st;
fail:
	if (st)
		mlkem_teardown(st);
	return NULL;
}

static int tlsx_keygen_op(void *p)
{
	struct mlkem_state *st = p;

	tlsx_mlkem768_keygen_internal(st->ek, st->dk, st->seed, st->seed + 32);
	return 0;
}

static int tlsx_encaps_op(void *p)
{
	struct mlkem_state *st = p;

	return tlsx_mlkem768_encaps_internal(st->ct, st->ss, st->ek, st->m);
}

static int tlsx_decaps_op(void *p)
{
	struct mlkem_state *st = p;

	tlsx_mlkem768_decaps(st->ss, st->dk, st->ct);
	return 0;
}

static int ossl_keygen_op(void *p)
{
	struct mlkem_state *st = p;
	EVP_PKEY *k = NULL;

	if (EVP_PKEY_keygen(st->gen, &k) <= 0)
		return -1;
	EVP_PKEY_free(k);
	return 0;
}

static int ossl_derive_op(void *p)
{
	struct mlkem_state *st = p;
	size_t n = 32;
	u8 o[32];

	return EVP_PKEY_derive(st->derive, o, &n) > 0 ? 0 : -1;
}

const struct hs_bench_op hs_bench_mlkem[] = {
	{ "ML-KEM-768 keygen", 0, 0, mlkem_setup, tlsx_keygen_op,
	  ossl_keygen_op, mlkem_teardown, 20000 },
	{ "ML-KEM-768 encaps", 0, 0, mlkem_setup, tlsx_encaps_op,
	  ossl_derive_op, mlkem_teardown, 20000 },
	{ "ML-KEM-768 decaps", 0, 0, mlkem_setup, tlsx_decaps_op,
	  ossl_derive_op, mlkem_teardown, 20000 },
	{ NULL },
};
