// SPDX-License-Identifier: GPL-2.0
/*
 * hs_rsa.c - RSA-2048 PSS signing and verification against OpenSSL.
 *
 * Both sides sign a 32-byte SHA-256 digest with PSS, MGF1-SHA-256 and a
 * 32-byte salt (TLS 1.3's rsa_pss_rsae_sha256).  OpenSSL's side is an
 * EVP_PKEY_CTX initialised once for that and reused, EVP_PKEY_sign() per
 * signature: CRT with its per-key blinding on, as OpenSSL does by
 * default.  tlsx keeps a blinding pair with the key too, squared per
 * signature and drawn afresh every 32 as OpenSSL's (rsa.c), with the
 * key's Montgomery set-up, and checks each signature with e before
 * releasing it; OpenSSL does a check too (RSA_check_key is not run, but
 * its CRT path verifies with e when it can).  Verification is
 * EVP_PKEY_verify() on a likewise prepared context.
 *
 * The target is issue 15's: signing at or below OpenSSL's time.  Both
 * libraries pick their code by CPU: TLSX_BN_IMPL=mulx (or generic) forces
 * tlsx's MULX (portable) path, and OPENSSL_ia32cap=":~0x200000" clears
 * the AVX-512 IFMA bit for OpenSSL, whose RSA then takes its MULX/ADX
 * Montgomery code: the pair of them is what a CPU without IFMA runs.
 */
#include <stdlib.h>
#include <string.h>

#include "hs_bench.h"
#include "rsa/test/rsa_test.h"

struct rsa_state {
	EVP_PKEY *pkey;
	EVP_PKEY_CTX *sign_ctx, *verify_ctx;
	struct tlsx_rsa_private key;
	unsigned char dig[32];
	unsigned char sig[RSA_MAX_BYTES];	/* a valid signature */
	unsigned char out[RSA_MAX_BYTES];
	size_t len;
};

static void rsa_teardown(void *p)
{
	struct rsa_state *s = p;

	EVP_PKEY_CTX_free(s->sign_ctx);
	EVP_PKEY_CTX_free(s->verify_ctx);
	EVP_PKEY_free(s->pkey);
	tlsx_rsa_private_wipe(&s->key);
	free(s);
}

/* A context for PSS with SHA-256 everywhere and salt = digest length. */
static int pss_params(EVP_PKEY_CTX *c)
{
	return EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING) > 0 &&
	       EVP_PKEY_CTX_set_signature_md(c, EVP_sha256()) > 0 &&
	       EVP_PKEY_CTX_set_rsa_mgf1_md(c, EVP_sha256()) > 0 &&
	       EVP_PKEY_CTX_set_rsa_pss_saltlen(c, RSA_PSS_SALTLEN_DIGEST) > 0;
}

static int rsa_sign_tlsx(void *p)
{
	struct rsa_state *s = p;

	return tlsx_rsa_pss_sign(s->out, sizeof(s->out), &s->key,
				 TLSX_HASH_SHA256, s->dig, sizeof(s->dig));
}

static int rsa_sign_openssl(void *p)
{
	struct rsa_state *s = p;
	size_t len = sizeof(s->out);

	return EVP_PKEY_sign(s->sign_ctx, s->out, &len, s->dig,
			     sizeof(s->dig)) > 0 ? 0 : -1;
}

static int rsa_verify_tlsx(void *p)
{
	struct rsa_state *s = p;

	return tlsx_rsa_pss_verify(&s->key.pub, TLSX_HASH_SHA256, s->dig,
				   sizeof(s->dig), s->sig, s->len);
}

static int rsa_verify_openssl(void *p)
{
	struct rsa_state *s = p;

	return EVP_PKEY_verify(s->verify_ctx, s->sig, s->len, s->dig,
			       sizeof(s->dig)) == 1 ? 0 : -1;
}

/*
 * A fresh 2048-bit key; cross-checked: tlsx's signature verifies with
 * OpenSSL and OpenSSL's with tlsx, on the contexts the timing uses.
 */
static void *rsa_setup(void)
{
	struct rsa_state *s = calloc(1, sizeof(*s));
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < sizeof(s->dig); i++)
		s->dig[i] = (unsigned char)(i * 29 + 3);
	s->pkey = rt_keygen(2048);
	if (!s->pkey || rt_export(s->pkey, &s->key) ||
	    tlsx_rsa_check_private(&s->key))
		goto fail;
	s->sign_ctx = EVP_PKEY_CTX_new(s->pkey, NULL);
	s->verify_ctx = EVP_PKEY_CTX_new(s->pkey, NULL);
	if (!s->sign_ctx || !s->verify_ctx ||
	    EVP_PKEY_sign_init(s->sign_ctx) <= 0 || !pss_params(s->sign_ctx) ||
	    EVP_PKEY_verify_init(s->verify_ctx) <= 0 ||
	    !pss_params(s->verify_ctx))
		goto fail;

	/* tlsx signs, OpenSSL verifies. */
	if (rsa_sign_tlsx(s))
		goto fail;
	s->len = s->key.pub.n_len;
	memcpy(s->sig, s->out, s->len);
	if (rsa_verify_openssl(s))
		goto fail;
	/* OpenSSL signs, tlsx verifies. */
	if (rsa_sign_openssl(s))
		goto fail;
	memcpy(s->sig, s->out, s->len);
	if (rsa_verify_tlsx(s))
		goto fail;
	return s;
fail:
	rsa_teardown(s);
	return NULL;
}

const struct hs_bench_op hs_bench_rsa[] = {
	{
		.name = "RSA-2048 PSS sign",
		.target = 1.0,
		.setup = rsa_setup,
		.tlsx = rsa_sign_tlsx,
		.openssl = rsa_sign_openssl,
		.teardown = rsa_teardown,
	},
	{
		.name = "RSA-2048 PSS verify",
		.setup = rsa_setup,
		.tlsx = rsa_verify_tlsx,
		.openssl = rsa_verify_openssl,
		.teardown = rsa_teardown,
	},
	{ .name = NULL },
};
