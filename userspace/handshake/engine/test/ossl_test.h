/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ossl_test.h - what the tests against OpenSSL's libssl share
 * (test_client_ossl.c, test_server.c): test/data/ (test_data.h), the
 * suites and groups with OpenSSL's names, the certificate x signature
 * scheme variants of their "matrix" fixture, an OpenSSL end on memory
 * BIOs, and the leaf an OpenSSL end was sent (peer_leaf()).
 * Include after "kselftest_harness.h".  Test-only.
 */
#ifndef TLSX_OSSL_TEST_H
#define TLSX_OSSL_TEST_H

#include <stdio.h>
#include <string.h>
#include <openssl/ssl.h>

#include "handshake/engine/hs_impl.h"
#include "handshake/engine/test/test_data.h"

/* The leaf @ssl's peer sent: "subject CN|issuer CN", "|" for none. */
static inline void peer_leaf(SSL *ssl, char *buf, size_t len)
{
	X509 *x = SSL_get1_peer_certificate(ssl);
	char cn[128] = "", issuer[128] = "";

	if (x) {
		X509_NAME_get_text_by_NID(X509_get_subject_name(x),
					  NID_commonName, cn, sizeof(cn));
		X509_NAME_get_text_by_NID(X509_get_issuer_name(x),
					  NID_commonName, issuer,
					  sizeof(issuer));
	}
	snprintf(buf, len, "%s|%s", cn, issuer);
	X509_free(x);
}

static const struct {
	u16 suite;
	const char *name;
} suites[] = {
	{ TLSX_SUITE_AES_128_GCM_SHA256, "TLS_AES_128_GCM_SHA256" },
	{ TLSX_SUITE_AES_256_GCM_SHA384, "TLS_AES_256_GCM_SHA384" },
	{ TLSX_SUITE_CHACHA20_POLY1305_SHA256, "TLS_CHACHA20_POLY1305_SHA256" },
	{ TLSX_SUITE_AES_128_CCM_SHA256, "TLS_AES_128_CCM_SHA256" },
};

static const struct {
	u16 group;
	const char *name;
} groups[] = {
	{ TLSX_GROUP_X25519, "X25519" },
	{ TLSX_GROUP_SECP256R1, "P-256" },
};

/*
 * Every suite x group for each certificate (test/data/ prefix) and the
 * signature scheme it must be used with; each test adds its
 * FIXTURE_SETUP, FIXTURE_TEARDOWN and TEST_F.
 */
FIXTURE(matrix) {
};

FIXTURE_VARIANT(matrix) {
	const char *cert;
	const char *sigalg;	/* OpenSSL's name */
	u16 scheme;
};

FIXTURE_VARIANT_ADD(matrix, ecdsa_p256) {
	"p256", "ecdsa_secp256r1_sha256", TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(matrix, ed25519) {
	"ed25519", "ed25519", TLSX_SIG_ED25519 };
FIXTURE_VARIANT_ADD(matrix, rsa_pss_rsae_sha256) {
	"rsa", "rsa_pss_rsae_sha256", TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(matrix, rsa_pss_rsae_sha384) {
	"rsa", "rsa_pss_rsae_sha384", TLSX_SIG_RSA_PSS_RSAE_SHA384 };
FIXTURE_VARIANT_ADD(matrix, rsa_pss_rsae_sha512) {
	"rsa", "rsa_pss_rsae_sha512", TLSX_SIG_RSA_PSS_RSAE_SHA512 };
FIXTURE_VARIANT_ADD(matrix, rsa_pss_pss_sha256) {
	"rsapss", "rsa_pss_pss_sha256", TLSX_SIG_RSA_PSS_PSS_SHA256 };
FIXTURE_VARIANT_ADD(matrix, rsa_pss_pss_sha384) {
	"rsapss", "rsa_pss_pss_sha384", TLSX_SIG_RSA_PSS_PSS_SHA384 };
FIXTURE_VARIANT_ADD(matrix, rsa_pss_pss_sha512) {
	"rsapss", "rsa_pss_pss_sha512", TLSX_SIG_RSA_PSS_PSS_SHA512 };

/*
 * An SSL_CTX of @method for TLS 1.2 up to @max_version (0: TLS 1.3),
 * with OpenSSL's lists of suites, groups and signature algorithms where
 * given; NULL when OpenSSL refuses one.
 */
static inline SSL_CTX *ossl_ctx(const SSL_METHOD *method, int max_version,
				const char *suites, const char *groups,
				const char *sigalgs)
{
	SSL_CTX *ctx = SSL_CTX_new(method);

	if (!ctx)
		return NULL;
	SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
	SSL_CTX_set_max_proto_version(ctx, max_version ? max_version :
					   TLS1_3_VERSION);
	if ((suites && !SSL_CTX_set_ciphersuites(ctx, suites)) ||
	    (groups && !SSL_CTX_set1_groups_list(ctx, groups)) ||
	    (sigalgs && !SSL_CTX_set1_sigalgs_list(ctx, sigalgs))) {
		SSL_CTX_free(ctx);
		return NULL;
	}
	return ctx;
}

/*
 * An SSL of @ctx reading from the memory BIO *@rbio and writing to
 * *@wbio (the SSL owns both); NULL when out of memory.
 */
static inline SSL *ossl_ssl(SSL_CTX *ctx, BIO **rbio, BIO **wbio)
{
	SSL *ssl = SSL_new(ctx);

	*rbio = BIO_new(BIO_s_mem());
	*wbio = BIO_new(BIO_s_mem());
	if (!ssl || !*rbio || !*wbio) {
		SSL_free(ssl);
		BIO_free(*rbio);
		BIO_free(*wbio);
		*rbio = *wbio = NULL;
		return NULL;
	}
	SSL_set_bio(ssl, *rbio, *wbio);
	return ssl;
}

#endif /* TLSX_OSSL_TEST_H */
