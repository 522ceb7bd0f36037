// SPDX-License-Identifier: GPL-2.0
/*
 * hs_hkdf.c - HKDF-Expand-Label (RFC 8446 section 7.1) against OpenSSL:
 * a 16-byte write key from a 32-byte traffic secret with SHA-256.
 * OpenSSL's side is what a TLS stack on OpenSSL 3.0 does: EVP_KDF "HKDF"
 * fetched once, a reused context, mode EXPAND_ONLY, and the HkdfLabel
 * built by hand for each derivation.
 */
#include <stdlib.h>
#include <string.h>
#include <openssl/core_names.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

#include "hs_bench.h"
#include "hash/hkdf.h"

struct hkdf_state {
	EVP_KDF *kdf;
	EVP_KDF_CTX *ctx;
	unsigned char secret[32];
	unsigned char out[16];
};

static void hkdf_teardown(void *p)
{
	struct hkdf_state *s = p;

	EVP_KDF_CTX_free(s->ctx);
	EVP_KDF_free(s->kdf);
	free(s);
}

static int hkdf_tlsx(void *p)
{
	struct hkdf_state *s = p;

	return tlsx_hkdf_expand_label(TLSX_HASH_SHA256, s->secret, "key",
				      NULL, 0, s->out, sizeof(s->out));
}

static int hkdf_openssl(void *p)
{
	static const char label[] = "tls13 key";
	struct hkdf_state *s = p;
	unsigned char info[2 + 1 + sizeof(label) - 1 + 1];
	int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
	OSSL_PARAM params[5];
	size_t n = 0;

	/* HkdfLabel: length, label<7..255>, context<0..255> (empty). */
	info[n++] = 0;
	info[n++] = sizeof(s->out);
	info[n++] = sizeof(label) - 1;
	memcpy(info + n, label, sizeof(label) - 1);
	n += sizeof(label) - 1;
	info[n++] = 0;
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						     "SHA256", 0);
	params[1] = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	params[2] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						      s->secret,
						      sizeof(s->secret));
	params[3] = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
						      info, n);
	params[4] = OSSL_PARAM_construct_end();
	return EVP_KDF_derive(s->ctx, s->out, sizeof(s->out), params) > 0 ?
	       0 : -1;
}

static void *hkdf_setup(void)
{
	struct hkdf_state *s = calloc(1, sizeof(*s));
	unsigned char ref[16];
	size_t i;

	if (!s)
		return NULL;
	for (i = 0; i < sizeof(s->secret); i++)
		s->secret[i] = (unsigned char)(i * 29 + 3);
	s->kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	s->ctx = s->kdf ? EVP_KDF_CTX_new(s->kdf) : NULL;
	if (!s->ctx || hkdf_openssl(s))
		goto fail;
	memcpy(ref, s->out, sizeof(ref));
	memset(s->out, 0, sizeof(s->out));
	if (hkdf_tlsx(s) || memcmp(ref, s->out, sizeof(ref)))
		goto fail;
	return s;
fail:
	hkdf_teardown(s);
	return NULL;
}

const struct hs_bench_op hs_bench_hkdf[] = {
	{ "HKDF-Expand-Label SHA-256", 0, 0, hkdf_setup, hkdf_tlsx,
	  hkdf_openssl, hkdf_teardown, 0 },
	{ NULL },
};
