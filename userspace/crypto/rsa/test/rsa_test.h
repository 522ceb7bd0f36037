/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rsa_test.h - what the RSA tests share: keys made by OpenSSL at test
 * time and copied into tlsx's structs, OpenSSL signing and verifying
 * with PSS (salt = digest length, MGF1 with the same hash) and PKCS#1
 * v1.5, and the hash mapping.  Test-only.
 */
#ifndef TLSX_RSA_TEST_H
#define TLSX_RSA_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "rsa/rsa.h"

static inline const EVP_MD *rt_md(enum tlsx_hash_alg h)
{
	switch (h) {
	case TLSX_HASH_SHA256:
		return EVP_sha256();
	case TLSX_HASH_SHA384:
		return EVP_sha384();
	default:
		return EVP_sha512();
	}
}

static inline EVP_PKEY *rt_keygen(unsigned int bits)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, NULL);
	EVP_PKEY *k = NULL;

	if (!c || EVP_PKEY_keygen_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_rsa_keygen_bits(c, (int)bits) <= 0 ||
	    EVP_PKEY_keygen(c, &k) <= 0)
		k = NULL;
	EVP_PKEY_CTX_free(c);
	return k;
}

/* One big-endian parameter, leading zeros stripped; 0 on success. */
static inline int rt_param(EVP_PKEY *k, const char *name, u8 *out,
			   size_t cap, size_t *len)
{
	BIGNUM *b = NULL;
	int n;

	if (!EVP_PKEY_get_bn_param(k, name, &b))
		return -1;
	n = BN_num_bytes(b);
	if (n <= 0 || (size_t)n > cap) {
		BN_free(b);
		return -1;
	}
	BN_bn2bin(b, out);
	*len = (size_t)n;
	BN_clear_free(b);
	return 0;
}

static inline int rt_export(EVP_PKEY *k, struct tlsx_rsa_private *p)
{
	u8 e[16];
	size_t elen, i;

	memset(p, 0, sizeof(*p));
	if (rt_param(k, OSSL_PKEY_PARAM_RSA_N, p->pub.n, sizeof(p->pub.n),
		     &p->pub.n_len) ||
	    rt_param(k, OSSL_PKEY_PARAM_RSA_E, e, sizeof(e), &elen) ||
	    elen > 8 ||
	    rt_param(k, OSSL_PKEY_PARAM_RSA_FACTOR1, p->p, sizeof(p->p),
		     &p->p_len) ||
	    rt_param(k, OSSL_PKEY_PARAM_RSA_FACTOR2, p->q, sizeof(p->q),
		     &p->q_len) ||
	    rt_param(k, OSSL_PKEY_PARAM_RSA_EXPONENT1, p->dp, sizeof(p->dp),
		     &p->dp_len) ||
	    rt_param(k, OSSL_PKEY_PARAM_RSA_EXPONENT2, p->dq, sizeof(p->dq),
		     &p->dq_len) ||
	    rt_param(k, OSSL_PKEY_PARAM_RSA_COEFFICIENT1, p->qinv,
		     sizeof(p->qinv), &p->qinv_len))
		return -1;
	p->pub.e = 0;
	for (i = 0; i < elen; i++)
		p->pub.e = (p->pub.e << 8) | e[i];
	return 0;
}

/* OpenSSL verifies a signature: 1 valid, 0 not. */
static inline int rt_ossl_verify(EVP_PKEY *k, bool pss, enum tlsx_hash_alg h,
				 const u8 *dig, size_t dlen, const u8 *sig,
				 size_t slen)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	int ok = 0;

	if (c && EVP_PKEY_verify_init(c) > 0 &&
	    EVP_PKEY_CTX_set_signature_md(c, rt_md(h)) > 0 &&
	    (!pss ||
	     (EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING) > 0 &&
	      EVP_PKEY_CTX_set_rsa_mgf1_md(c, rt_md(h)) > 0 &&
	      EVP_PKEY_CTX_set_rsa_pss_saltlen(c, RSA_PSS_SALTLEN_DIGEST) >
	      0)))
		ok = EVP_PKEY_verify(c, sig, slen, dig, dlen) == 1;
	EVP_PKEY_CTX_free(c);
	return ok;
}

/* OpenSSL signs: the signature's length, 0 on failure. */
static inline size_t rt_ossl_sign(EVP_PKEY *k, bool pss, enum tlsx_hash_alg h,
				  const u8 *dig, size_t dlen, u8 *sig,
				  size_t cap)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
	size_t len = cap;

	if (!c || EVP_PKEY_sign_init(c) <= 0 ||
	    EVP_PKEY_CTX_set_signature_md(c, rt_md(h)) <= 0 ||
	    (pss &&
	     (EVP_PKEY_CTX_set_rsa_padding(c, RSA_PKCS1_PSS_PADDING) <= 0 ||
	      EVP_PKEY_CTX_set_rsa_mgf1_md(c, rt_md(h)) <= 0 ||
	      EVP_PKEY_CTX_set_rsa_pss_saltlen(c, RSA_PSS_SALTLEN_DIGEST) <=
	      0)) ||
	    EVP_PKEY_sign(c, sig, &len, dig, dlen) <= 0)
		len = 0;
	EVP_PKEY_CTX_free(c);
	return len;
}

#endif /* TLSX_RSA_TEST_H */
