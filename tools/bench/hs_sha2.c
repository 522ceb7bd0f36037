// SPDX-License-Identifier: GPL-2.0
/*
 * hs_sha2.c - SHA-256/384/512 against OpenSSL: tlsx's one-shot hash
 * beside EVP_Digest() with an EVP_MD fetched once (what `openssl speed
 * -evp sha256` times), and beside a reused EVP_MD_CTX
 * (DigestInit_ex/Update/Final_ex), the cheaper way a TLS stack can hash
 * with OpenSSL; the target is on both SHA-256 comparisons.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "hs_bench.h"
#include "hash/sha2.h"

struct sha2_state {
	enum tlsx_hash_alg alg;
	size_t len;
	EVP_MD *md;
	EVP_MD_CTX *ctx;
	unsigned char out[64];
	unsigned char msg[];
};

static void sha2_teardown(void *p)
{
	struct sha2_state *s = p;

	EVP_MD_CTX_free(s->ctx);
	EVP_MD_free(s->md);
	free(s);
}

static int sha2_tlsx(void *p)
{
	struct sha2_state *s = p;

	return tlsx_hash(s->alg, s->msg, s->len, s->out);
}

static int sha2_evp_digest(void *p)
{
	struct sha2_state *s = p;

	return EVP_Digest(s->msg, s->len, s->out, NULL, s->md, NULL) ? 0 : -1;
}

static int sha2_evp_ctx(void *p)
{
	struct sha2_state *s = p;

	if (!EVP_DigestInit_ex(s->ctx, s->md, NULL) ||
	    !EVP_DigestUpdate(s->ctx, s->msg, s->len) ||
	    !EVP_DigestFinal_ex(s->ctx, s->out, NULL))
		return -1;
	return 0;
}

/* State for @len bytes; both sides must give the same digest. */
static void *sha2_setup(enum tlsx_hash_alg alg, const char *name,
			size_t len)
{
	struct sha2_state *s = calloc(1, sizeof(*s) + len);
	size_t ds = tlsx_hash_digest_size(alg), i;
	unsigned char ref[64];

	if (!s)
		return NULL;
	s->alg = alg;
	s->len = len;
	for (i = 0; i < len; i++)
		s->msg[i] = (unsigned char)(i * 131 + 7);
	s->md = EVP_MD_fetch(NULL, name, NULL);
	s->ctx = EVP_MD_CTX_new();
	if (!s->md || !s->ctx || sha2_evp_digest(s))
		goto fail;
	memcpy(ref, s->out, ds);
	memset(s->out, 0, sizeof(s->out));
	if (sha2_evp_ctx(s) || memcmp(ref, s->out, ds))
		goto fail;
	memset(s->out, 0, sizeof(s->out));
	if (sha2_tlsx(s) || memcmp(ref, s->out, ds))
		goto fail;
	return s;
fail:
	sha2_teardown(s);
	return NULL;
}

static void *sha256_64_setup(void)
{
	return sha2_setup(TLSX_HASH_SHA256, "SHA256", 64);
}

static void *sha256_16k_setup(void)
{
	return sha2_setup(TLSX_HASH_SHA256, "SHA256", 16384);
}

static void *sha384_16k_setup(void)
{
	return sha2_setup(TLSX_HASH_SHA384, "SHA384", 16384);
}

static void *sha512_16k_setup(void)
{
	return sha2_setup(TLSX_HASH_SHA512, "SHA512", 16384);
}

const struct hs_bench_op hs_bench_sha2[] = {
	{ "SHA-256 64 B", 64, 1.0, sha256_64_setup, sha2_tlsx,
	  sha2_evp_digest, sha2_teardown, 0 },
	{ "SHA-256 64 B (EVP ctx)", 64, 1.0, sha256_64_setup, sha2_tlsx,
	  sha2_evp_ctx, sha2_teardown, 0 },
	{ "SHA-256 16 KiB", 16384, 1.0, sha256_16k_setup, sha2_tlsx,
	  sha2_evp_digest, sha2_teardown, 0 },
	{ "SHA-256 16 KiB (EVP ctx)", 16384, 1.0, sha256_16k_setup, sha2_tlsx,
	  sha2_evp_ctx, sha2_teardown, 0 },
	{ "SHA-384 16 KiB", 16384, 0, sha384_16k_setup, sha2_tlsx,
	  sha2_evp_ctx, sha2_teardown, 0 },
	{ "SHA-512 16 KiB", 16384, 0, sha512_16k_setup, sha2_tlsx,
	  sha2_evp_ctx, sha2_teardown, 0 },
	{ NULL },
};
