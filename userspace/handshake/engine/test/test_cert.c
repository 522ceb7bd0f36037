// SPDX-License-Identifier: GPL-2.0
/*
 * test_cert.c - chains, keys, trust anchors and the check of a peer's
 * chain (cert.c), on the fixtures of test/data/ (tools/gen/hs-certs):
 *
 *  - loading a chain and its key for ECDSA P-256, Ed25519, RSA-2048 and
 *    RSA-PSS (id-RSASSA-PSS) keys, PEM and DER keys, a combined file;
 *    the DER kept equals OpenSSL's encoding of each certificate;
 *  - load failures with their message: missing files, a directory, no
 *    certificate, malformed PEM and DER, too many certificates, a chain
 *    out of order, no key, a key that does not match the leaf;
 *  - trust anchors from a file, a bundle with unusable certificates
 *    (skipped and counted), a directory (duplicates once), and the
 *    system bundle, whose numbers are logged;
 *  - peer verification for every key type, then each failure with the
 *    RFC 8446 6.2 alert cert.h documents: expired, not yet valid, wrong
 *    host, IP SANs, wildcard rules, untrusted root, broken signature,
 *    out of order, a non-CA intermediate, malformed DER, unsupported
 *    and extraneous certificates, purpose; OpenSSL's X509_verify_cert()
 *    asked the same question agrees on accept or refuse.
 */
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "x509/pem.h"
#include "x509/x509_verify.h"
#include "handshake/engine/alert.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/test/test_data.h"

static const char *const types[] = { "p256", "ed25519", "rsa", "rsapss" };

/* The whole of test/data/@name, NUL-terminated; aborts if unreadable. */
static char *must_slurp(const char *name, size_t *len)
{
	size_t n = 0;
	char *p = slurp_data(name, &n);

	if (!p) {
		fprintf(stderr, "test_cert: cannot read %s (run from the top of the tree)\n",
			data(name));
		abort();
	}
	if (len)
		*len = n;
	return p;
}

/* The DER of the first certificate of test/data/@name. */
static size_t cert_der(const char *name, u8 *out, size_t max)
{
	size_t len, der_len;
	char *pem = must_slurp(name, &len);

	if (pem_find(pem, len, "CERTIFICATE", out, max, &der_len))
		abort();
	free(pem);
	return der_len;
}

/* A peer's Certificate: DER certificates, leaf first. */
struct peer {
	u8 der[TLSX_CERT_MAX_CHAIN + 1][4096];
	size_t len[TLSX_CERT_MAX_CHAIN + 1];
	const u8 *p[TLSX_CERT_MAX_CHAIN + 1];
	size_t n;
};

/* "p256-leaf p256-int": the first certificate of each file, in order. */
static struct peer *peer(const char *spec)
{
	struct peer *pc = calloc(1, sizeof(*pc));
	char buf[256], file[80], *tok, *save;

	snprintf(buf, sizeof(buf), "%s", spec);
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		snprintf(file, sizeof(file), "%s.pem", tok);
		pc->len[pc->n] = cert_der(file, pc->der[pc->n],
					  sizeof(pc->der[0]));
		pc->p[pc->n] = pc->der[pc->n];
		pc->n++;
	}
	return pc;
}

/* A time when every fixture is valid: a day after the leaf's notBefore. */
static s64 good_now(void)
{
	struct tlsx_x509 crt;
	u8 der[4096];
	size_t len = cert_der("p256-leaf.pem", der, sizeof(der));

	if (tlsx_x509_parse(&crt, der, len))
		abort();
	return crt.not_before + 86400;
}

/* OpenSSL's verdict on the same chain, anchors, time, host, purpose. */
static bool openssl_accepts(const struct peer *pc, const char *anchors,
			    s64 now, unsigned int purpose, const char *host)
{
	X509_STORE *store = X509_STORE_new();
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	struct stack_st_X509 *untrusted = sk_X509_new_null();
	X509_VERIFY_PARAM *vp;
	const u8 *p = pc->p[0];
	X509 *leaf = d2i_X509(NULL, &p, (long)pc->len[0]);
	bool ok;
	size_t i;

	if (anchors)
		X509_STORE_load_file(store, data(anchors));
	for (i = 1; i < pc->n; i++) {
		X509 *x;

		p = pc->p[i];
		x = d2i_X509(NULL, &p, (long)pc->len[i]);
		if (x)
			sk_X509_push(untrusted, x);
	}
	if (!leaf) {
		ok = false;
		goto out;
	}
	X509_STORE_CTX_init(ctx, store, leaf, untrusted);
	vp = X509_STORE_CTX_get0_param(ctx);
	X509_VERIFY_PARAM_set_time(vp, (time_t)now);
	if (host && (strchr(host, ':') ||
		     strspn(host, "0123456789.") == strlen(host)))
		X509_VERIFY_PARAM_set1_ip_asc(vp, host);
	else if (host)
		X509_VERIFY_PARAM_set1_host(vp, host, 0);
	/* RFC 9525 (6125's successor) 6.3: no CN-IDs; tlsx uses SANs only. */
	X509_VERIFY_PARAM_set_hostflags(vp, X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
	X509_STORE_CTX_set_purpose(ctx, purpose == X509_EKU_SERVER_AUTH ?
				   X509_PURPOSE_SSL_SERVER :
				   X509_PURPOSE_SSL_CLIENT);
	ok = X509_verify_cert(ctx) == 1;
out:
	X509_STORE_CTX_free(ctx);
	X509_STORE_free(store);
	sk_X509_pop_free(untrusted, X509_free);
	X509_free(leaf);
	return ok;
}

/* Verifies @pc against test/data/@anchors (NULL: none). */
static int verify(const struct peer *pc, const char *anchors, s64 now,
		  unsigned int purpose, const char *host,
		  struct tlsx_public_key *pub, int *xerr)
{
	struct tlsx_trust t = { 0 };
	int ret;

	if (anchors && tlsx_trust_load(&t, data(anchors), NULL))
		abort();
	ret = tlsx_cert_verify_peer(anchors ? &t : NULL, pc->p, pc->len,
				    pc->n, now, purpose, host, pub, xerr);
	tlsx_trust_free(&t);
	return ret;
}

/*
 * The chain @spec against @anchors gives alert @alert (0: accepted) and
 * *x509_err @xe, and OpenSSL accepts it exactly when we do.
 */
#define EXPECT_PEER(spec, anchors, now, purpose, host, alert, xe)	\
	CHECK_PEER(spec, anchors, now, purpose, host, alert, xe, true)
/* The same where OpenSSL is known to differ (each use says why). */
#define EXPECT_PEER_NOT_OPENSSL(spec, anchors, now, purpose, host, alert, xe) \
	CHECK_PEER(spec, anchors, now, purpose, host, alert, xe, false)
#define CHECK_PEER(spec, anchors, now, purpose, host, alert, xe, ossl) do { \
	struct peer *_pc = peer(spec);					\
	struct tlsx_public_key _pub;					\
	int _xe = -1, _r;						\
	_r = verify(_pc, anchors, now, purpose, host, &_pub, &_xe);	\
	EXPECT_EQ(alert, _r) TH_LOG("%s (%s): %s, %s", spec,		\
		host ? host : "-", tlsx_alert_name(_r),			\
		tlsx_cert_verify_strerror(_xe));			\
	EXPECT_EQ(xe, _xe) TH_LOG("%s (%s): %s", spec,			\
		host ? host : "-", tlsx_cert_verify_strerror(_xe));	\
	if (ossl)							\
		EXPECT_EQ(!(alert), openssl_accepts(_pc, anchors, now,	\
						    purpose, host))	\
			TH_LOG("%s (%s): OpenSSL differs", spec,	\
			       host ? host : "-");			\
	free(_pc);							\
} while (0)

#define SERVER	X509_EKU_SERVER_AUTH
#define CLIENT	X509_EKU_CLIENT_AUTH

/* ---- a party's chain and key ----------------------------------------- */

TEST(chain_load_every_type)
{
	struct tlsx_cert_chain c;
	const char *err = NULL;
	char cf[256], kf[256], name[64];
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		static const enum tlsx_key_type want[] = {
			TLSX_KEY_P256, TLSX_KEY_ED25519, TLSX_KEY_RSA,
			TLSX_KEY_RSA,
		};
		struct stack_st_X509_INFO *infos;
		BIO *bio;

		snprintf(name, sizeof(name), "%s-chain.pem", types[i]);
		snprintf(cf, sizeof(cf), "%s", data(name));
		snprintf(name, sizeof(name), "%s-leaf.key", types[i]);
		snprintf(kf, sizeof(kf), "%s", data(name));
		ASSERT_EQ(0, tlsx_cert_chain_load(&c, cf, kf, &err))
			TH_LOG("%s: %s", types[i], err);
		EXPECT_EQ(2, c.n);
		EXPECT_EQ(want[i], c.key.type);
		EXPECT_EQ(want[i], c.leaf.pub.type);
		/* The PSS key is id-RSASSA-PSS: rsa_pss_pss_* only (4.2.3). */
		EXPECT_EQ(i == 3, c.leaf.pub.rsa_pss_only) TH_LOG("%s",
								  types[i]);
		EXPECT_EQ(c.off[1] + c.len[1], c.der_len);
		/* What we will send is what OpenSSL reads from the file. */
		bio = BIO_new_file(cf, "r");
		infos = PEM_X509_INFO_read_bio(bio, NULL, NULL, NULL);
		ASSERT_NE(NULL, infos);
		ASSERT_EQ(2, sk_X509_INFO_num(infos));
		for (j = 0; j < 2; j++) {
			X509 *x = sk_X509_INFO_value(infos, (int)j)->x509;
			u8 *der = NULL;
			int n = i2d_X509(x, &der);

			ASSERT_EQ((size_t)n, c.len[j]);
			EXPECT_EQ(0, memcmp(der, c.der + c.off[j], c.len[j]));
			OPENSSL_free(der);
		}
		sk_X509_INFO_pop_free(infos, X509_INFO_free);
		BIO_free(bio);
		tlsx_cert_chain_free(&c);
	}
}

TEST(chain_load_der_key)
{
	struct tlsx_cert_chain c;
	const char *err = NULL;
	char cf[256];

	snprintf(cf, sizeof(cf), "%s", data("p256-chain.pem"));
	ASSERT_EQ(0, tlsx_cert_chain_load(&c, cf, data("p256-leaf.der"),
					  &err)) TH_LOG("%s", err);
	EXPECT_EQ(TLSX_KEY_P256, c.key.type);
	tlsx_cert_chain_free(&c);
}

TEST(chain_load_mem_combined)
{
	size_t cl, kl;
	char *cert = must_slurp("p256-chain.pem", &cl);
	char *key = must_slurp("p256-leaf.key", &kl);
	char *both = malloc(cl + kl + 1);
	struct tlsx_cert_chain c;
	const char *err = NULL;

	/* nginx allows the key and the chain in one file. */
	memcpy(both, key, kl);
	memcpy(both + kl, cert, cl + 1);
	ASSERT_EQ(0, tlsx_cert_chain_load_mem(&c, both, cl + kl, both,
					      cl + kl, &err))
		TH_LOG("%s", err);
	EXPECT_EQ(2, c.n);
	tlsx_cert_chain_free(&c);
	free(both);
	free(cert);
	free(key);
}

TEST(chain_free_wipes)
{
	static const struct tlsx_cert_chain zero;
	struct tlsx_cert_chain c;
	size_t cl, kl;
	char *cert = must_slurp("rsa-chain.pem", &cl);
	char *key = must_slurp("rsa-leaf.key", &kl);

	ASSERT_EQ(0, tlsx_cert_chain_load_mem(&c, cert, cl, key, kl, NULL));
	tlsx_cert_chain_free(&c);
	EXPECT_EQ(0, memcmp(&c, &zero, sizeof(c)));
	free(cert);
	free(key);
}

/* Loading @cert with @key fails with @ret and a message with @needle. */
#define EXPECT_LOAD_FAIL(cert, key, ret, needle) do {			\
	struct tlsx_cert_chain _c;					\
	const char *_err = NULL;					\
	char _cf[256];							\
	snprintf(_cf, sizeof(_cf), "%s", cert);				\
	EXPECT_EQ(ret, tlsx_cert_chain_load(&_c, _cf, key, &_err));	\
	ASSERT_NE(NULL, _err);						\
	EXPECT_NE(NULL, strstr(_err, needle)) TH_LOG("\"%s\"", _err);	\
	EXPECT_EQ(0, _c.n);						\
	EXPECT_EQ(NULL, _c.der);					\
	tlsx_cert_chain_free(&_c);					\
} while (0)

TEST(chain_load_missing_files)
{
	char key[256];

	snprintf(key, sizeof(key), "%s", data("p256-leaf.key"));
	EXPECT_LOAD_FAIL("/nonexistent/cert.pem", key, -ENOENT,
			 "/nonexistent/cert.pem: cannot read: No such file");
	EXPECT_LOAD_FAIL(data("p256-chain.pem"), "/nonexistent/key.pem",
			 -ENOENT, "/nonexistent/key.pem: cannot read");
	EXPECT_LOAD_FAIL("/tmp", key, -EISDIR, "/tmp: cannot read: Is a");
}

TEST(chain_load_key_mismatch)
{
	char key[256];

	snprintf(key, sizeof(key), "%s", data("p256-int.key"));
	EXPECT_LOAD_FAIL(data("p256-chain.pem"), key, -EINVAL,
			 "p256-int.key: private key does not match the certificate of ");
	snprintf(key, sizeof(key), "%s", data("p256-leaf.key"));
	EXPECT_LOAD_FAIL(data("rsa-chain.pem"), key, -EINVAL,
			 "does not match");
	snprintf(key, sizeof(key), "%s", data("rsa-leaf.key"));
	EXPECT_LOAD_FAIL(data("rsapss-chain.pem"), key, -EINVAL,
			 "does not match");
}

TEST(chain_load_no_certificate)
{
	char key[256];

	snprintf(key, sizeof(key), "%s", data("p256-leaf.key"));
	EXPECT_LOAD_FAIL(key, key, -ENOENT, "p256-leaf.key: no CERTIFICATE");
}

TEST(chain_load_no_key)
{
	char key[256];

	snprintf(key, sizeof(key), "%s", data("p256-leaf.pem"));
	EXPECT_LOAD_FAIL(data("p256-chain.pem"), key, -ENOENT,
			 "p256-leaf.pem: no PRIVATE KEY");
}

/* The same through load_mem, on text made in the test. */
static int load_mem(const char *pem, const char **err)
{
	static char msg[sizeof(((struct tlsx_cert_chain *)0)->err)];
	struct tlsx_cert_chain c;
	size_t kl;
	char *key = must_slurp("p256-leaf.key", &kl);
	int ret;

	*err = NULL;
	ret = tlsx_cert_chain_load_mem(&c, pem, strlen(pem), key, kl, err);
	/* The message lives in @c, which free wipes. */
	if (*err) {
		snprintf(msg, sizeof(msg), "%s", *err);
		*err = msg;
	}
	tlsx_cert_chain_free(&c);
	free(key);
	return ret;
}

TEST(chain_load_malformed)
{
	u8 der[4096];
	size_t len = cert_der("p256-leaf.pem", der, sizeof(der));
	char *pem = malloc(16384), *b64;
	const char *err = NULL;
	BIO *mem;

	/* Base64 that is not (a '*' in the body). */
	EXPECT_EQ(-EBADMSG, load_mem("-----BEGIN CERTIFICATE-----\nMII*\n"
				     "-----END CERTIFICATE-----\n", &err));
	EXPECT_STREQ("certificate PEM: malformed PEM block (base64 or END line)",
		     err);
	/* No END line. */
	EXPECT_EQ(-EBADMSG, load_mem("-----BEGIN CERTIFICATE-----\nMIIB\n",
				     &err));
	/* Good base64 of a truncated certificate: the DER is malformed. */
	mem = BIO_new(BIO_s_mem());
	ASSERT_LT(0, PEM_write_bio(mem, "CERTIFICATE", "", der,
				   (long)len - 9));
	ASSERT_GT(BIO_get_mem_data(mem, &b64), 0);
	snprintf(pem, 16384, "%.*s", (int)BIO_get_mem_data(mem, &b64), b64);
	EXPECT_EQ(-EBADMSG, load_mem(pem, &err));
	EXPECT_NE(NULL, strstr(err, "certificate PEM: certificate 1: "))
		TH_LOG("%s", err);
	BIO_free(mem);
	/* An encrypted PEM block (RFC 1421 headers). */
	EXPECT_EQ(-EOPNOTSUPP, load_mem("-----BEGIN CERTIFICATE-----\n"
					"Proc-Type: 4,ENCRYPTED\n\nMIIB\n"
					"-----END CERTIFICATE-----\n", &err));
	EXPECT_NE(NULL, strstr(err, "encrypted")) TH_LOG("%s", err);
	free(pem);
}

TEST(chain_load_malformed_second)
{
	size_t l;
	char *leaf = must_slurp("p256-leaf.pem", &l), *pem = malloc(l + 128);
	const char *err = NULL;

	snprintf(pem, l + 128, "%s-----BEGIN CERTIFICATE-----\nMI!B\n"
		 "-----END CERTIFICATE-----\n", leaf);
	EXPECT_EQ(-EBADMSG, load_mem(pem, &err));
	EXPECT_STREQ("certificate PEM: malformed PEM block after certificate 1",
		     err);
	free(leaf);
	free(pem);
}

/* Loading the p256 chain with the key PEM @key fails with @ret, @msg. */
static void key_fails(struct __test_metadata *_metadata, const char *key,
		      int ret, const char *msg)
{
	size_t cl;
	char *cert = must_slurp("p256-chain.pem", &cl);
	struct tlsx_cert_chain c;
	const char *err = NULL;

	EXPECT_EQ(ret, tlsx_cert_chain_load_mem(&c, cert, cl, key,
						strlen(key), &err));
	ASSERT_NE(NULL, err);
	EXPECT_STREQ(msg, err);
	tlsx_cert_chain_free(&c);
	free(cert);
}

TEST(chain_load_bad_keys)
{
	EVP_PKEY *p384 = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-384");
	BIO *mem = BIO_new(BIO_s_mem());
	char *pem, *text;
	long n;

	key_fails(_metadata, "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
		  "MIIB\n-----END ENCRYPTED PRIVATE KEY-----\n", -EOPNOTSUPP,
		  "key PEM: key not supported (encrypted, or not P-256, Ed25519 or RSA 2048..4096)");
	/* A P-384 key, which tlsx cannot sign with. */
	ASSERT_NE(NULL, p384);
	ASSERT_EQ(1, PEM_write_bio_PrivateKey(mem, p384, NULL, NULL, 0, NULL,
					      NULL));
	n = BIO_get_mem_data(mem, &text);
	pem = strndup(text, (size_t)n);
	key_fails(_metadata, pem, -EOPNOTSUPP,
		  "key PEM: key not supported (encrypted, or not P-256, Ed25519 or RSA 2048..4096)");
	/* A PKCS#8 block whose DER is cut short. */
	key_fails(_metadata, "-----BEGIN PRIVATE KEY-----\n"
		  "MIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n", -EBADMSG,
		  "key PEM: malformed or inconsistent private key");
	key_fails(_metadata, "", -EBADMSG,
		  "key PEM: malformed or inconsistent private key");
	free(pem);
	BIO_free(mem);
	EVP_PKEY_free(p384);
}

TEST(chain_load_too_many)
{
	size_t l;
	char *one = must_slurp("p256-leaf.pem", &l), *many = malloc(10 * l + 1);
	const char *err = NULL;
	int i;

	for (i = 0; i <= TLSX_CERT_MAX_CHAIN; i++)
		memcpy(many + i * l, one, l);
	many[(TLSX_CERT_MAX_CHAIN + 1) * l] = '\0';
	EXPECT_EQ(-ENOBUFS, load_mem(many, &err));
	EXPECT_NE(NULL, strstr(err, "more than 8 certificates"))
		TH_LOG("%s", err);
	free(one);
	free(many);
}

TEST(chain_load_out_of_order)
{
	size_t a, b;
	char *leaf = must_slurp("p256-leaf.pem", &a);
	char *in = must_slurp("p256-int.pem", &b);
	char *pem = malloc(a + b + 1);
	const char *err = NULL;

	/* Leaf, then its issuer's issuer: 4.4.2's order broken. */
	free(in);
	in = must_slurp("p256-root.pem", &b);
	memcpy(pem, leaf, a);
	memcpy(pem + a, in, b + 1);
	EXPECT_EQ(-EINVAL, load_mem(pem, &err));
	EXPECT_NE(NULL, strstr(err, "certificate 2 is not the issuer of certificate 1"))
		TH_LOG("%s", err);
	free(leaf);
	free(in);
	free(pem);
}

/* 4.4.2.2: the signatures a client's signature_algorithms_cert judges. */
TEST(chain_signature_algorithms)
{
	static const enum tlsx_sig_alg want[] = {
		TLSX_SIG_ECDSA_SHA256, TLSX_SIG_ED25519,
		TLSX_SIG_RSA_PKCS1_SHA256, TLSX_SIG_RSA_PSS_SHA256,
	};
	struct tlsx_cert_chain c;
	char cf[256], kf[256], name[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		snprintf(name, sizeof(name), "%s-chain.pem", types[i]);
		snprintf(cf, sizeof(cf), "%s", data(name));
		snprintf(name, sizeof(name), "%s-leaf.key", types[i]);
		snprintf(kf, sizeof(kf), "%s", data(name));
		ASSERT_EQ(0, tlsx_cert_chain_load(&c, cf, kf, NULL));
		EXPECT_EQ(TLSX_CERT_SIG_BIT(want[i]), c.sig_algs)
			TH_LOG("%s", types[i]);
		tlsx_cert_chain_free(&c);
	}
	/* An ECDSA key under RSA signatures: the signatures count. */
	snprintf(cf, sizeof(cf), "%s", data("mixed-leaf.pem"));
	snprintf(kf, sizeof(kf), "%s", data("p256-leaf.key"));
	ASSERT_EQ(0, tlsx_cert_chain_load(&c, cf, kf, NULL));
	EXPECT_EQ(TLSX_CERT_SIG_BIT(TLSX_SIG_RSA_PKCS1_SHA256), c.sig_algs);
	tlsx_cert_chain_free(&c);
}

/* A self-signed leaf "MAY be signed with any algorithm" (4.4.2.2). */
TEST(chain_self_signed_counts_no_signature)
{
	FILE *f = fopen(data("p256-leaf.key"), "r");
	EVP_PKEY *k = f ? PEM_read_PrivateKey(f, NULL, NULL, NULL) : NULL;
	X509 *x = X509_new();
	BIO *bio = BIO_new(BIO_s_mem());
	struct tlsx_cert_chain c;
	size_t kl;
	char *key = must_slurp("p256-leaf.key", &kl), *pem;
	long len;

	if (f)
		fclose(f);
	ASSERT_NE(NULL, k);
	ASSERT_NE(NULL, x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 7);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 86400);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN",
				   MBSTRING_ASC,
				   (const u8 *)"www.example.com", -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(x));
	X509_set_pubkey(x, k);
	/* ecdsa-with-SHA384: in no list of ours, and it need not be. */
	ASSERT_NE(0, X509_sign(x, k, EVP_sha384()));
	ASSERT_EQ(1, PEM_write_bio_X509(bio, x));
	len = BIO_get_mem_data(bio, &pem);
	ASSERT_EQ(0, tlsx_cert_chain_load_mem(&c, pem, (size_t)len, key, kl,
					      NULL));
	EXPECT_EQ(0, c.sig_algs);
	tlsx_cert_chain_free(&c);
	BIO_free(bio);
	X509_free(x);
	EVP_PKEY_free(k);
	free(key);
}

/* signature_algorithms_cert's codes (4.2.3) to certificate signatures. */
TEST(sig_scheme_cert_algs)
{
	static const struct {
		u16 scheme;
		enum tlsx_sig_alg alg;
	} t[] = {
		{ 0x0401, TLSX_SIG_RSA_PKCS1_SHA256 },
		{ 0x0501, TLSX_SIG_RSA_PKCS1_SHA384 },
		{ 0x0601, TLSX_SIG_RSA_PKCS1_SHA512 },
		{ 0x0403, TLSX_SIG_ECDSA_SHA256 },
		{ 0x0503, TLSX_SIG_ECDSA_SHA384 },
		{ 0x0603, TLSX_SIG_ECDSA_SHA512 },
		{ 0x0807, TLSX_SIG_ED25519 },
		{ 0x0804, TLSX_SIG_RSA_PSS_SHA256 },
		{ 0x0805, TLSX_SIG_RSA_PSS_SHA384 },
		{ 0x0806, TLSX_SIG_RSA_PSS_SHA512 },
		{ 0x0809, TLSX_SIG_RSA_PSS_SHA256 },
		{ 0x080a, TLSX_SIG_RSA_PSS_SHA384 },
		{ 0x080b, TLSX_SIG_RSA_PSS_SHA512 },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		EXPECT_EQ(TLSX_CERT_SIG_BIT(t[i].alg),
			  tlsx_sig_scheme_cert_algs(t[i].scheme))
			TH_LOG("0x%04x", t[i].scheme);
	/* SHA-1 (x509/ refuses it), ed448, unknown. */
	EXPECT_EQ(0, tlsx_sig_scheme_cert_algs(0x0201));
	EXPECT_EQ(0, tlsx_sig_scheme_cert_algs(0x0203));
	EXPECT_EQ(0, tlsx_sig_scheme_cert_algs(0x0808));
	EXPECT_EQ(0, tlsx_sig_scheme_cert_algs(0xfefe));
}

TEST(chain_matches)
{
	static const struct {
		const char *host;
		bool match;
	} v[] = {
		{ "www.example.com", true }, { "WWW.Example.COM", true },
		{ "www.example.com.", true }, { "example.com", false },
		{ "a.example.org", true }, { "example.org", false },
		{ "a.b.example.org", false }, { "192.0.2.1", true },
		{ "192.0.2.2", false }, { "2001:db8::1", true },
		{ "2001:0db8:0:0:0:0:0:1", true }, { "2001:db8::2", false },
		{ "", false },
	};
	struct tlsx_cert_chain c;
	size_t cl, kl, i;
	char *cert = must_slurp("p256-chain.pem", &cl);
	char *key = must_slurp("p256-leaf.key", &kl);

	ASSERT_EQ(0, tlsx_cert_chain_load_mem(&c, cert, cl, key, kl, NULL));
	for (i = 0; i < ARRAY_SIZE(v); i++)
		EXPECT_EQ(v[i].match, tlsx_cert_chain_matches(&c, v[i].host))
			TH_LOG("%s", v[i].host);
	EXPECT_FALSE(tlsx_cert_chain_matches(&c, NULL));
	tlsx_cert_chain_free(&c);
	free(cert);
	free(key);
}

/* ---- trust anchors --------------------------------------------------- */

TEST(trust_load_file)
{
	struct tlsx_trust t;
	size_t skipped = 99;

	ASSERT_EQ(0, tlsx_trust_load(&t, data("p256-root.pem"), &skipped));
	EXPECT_EQ(1, t.n);
	EXPECT_EQ(0, skipped);
	EXPECT_EQ(t.der_len, t.certs[0].raw.len);
	tlsx_trust_free(&t);
	EXPECT_EQ(NULL, t.certs);
}

TEST(trust_load_skips_unusable)
{
	size_t a, b, c, skipped;
	char *p384 = must_slurp("p384-root.pem", &a);
	char *p256 = must_slurp("p256-root.pem", &b);
	char *key = must_slurp("p256-leaf.key", &c);
	static const char bad[] = "-----BEGIN CERTIFICATE-----\nMII*\n"
				  "-----END CERTIFICATE-----\n";
	char *all = malloc(a + b + c + sizeof(bad));
	struct tlsx_trust t;

	/* P-384 (not supported), a key (not a certificate), bad base64. */
	memcpy(all, p384, a);
	memcpy(all + a, key, c);
	memcpy(all + a + c, bad, sizeof(bad) - 1);
	memcpy(all + a + c + sizeof(bad) - 1, p256, b);
	ASSERT_EQ(0, tlsx_trust_load_mem(&t, all, a + b + c + sizeof(bad) - 1,
					 &skipped));
	EXPECT_EQ(1, t.n);
	EXPECT_EQ(2, skipped);
	EXPECT_EQ(TLSX_KEY_P256, t.certs[0].pub.type);
	tlsx_trust_free(&t);
	/* Nothing usable at all. */
	EXPECT_EQ(-ENOENT, tlsx_trust_load_mem(&t, p384, a, &skipped));
	EXPECT_EQ(1, skipped);
	EXPECT_EQ(-ENOENT, tlsx_trust_load_mem(&t, "", 0, &skipped));
	EXPECT_EQ(0, skipped);
	free(all);
	free(p384);
	free(p256);
	free(key);
}

TEST(trust_load_errors)
{
	struct tlsx_trust t;

	EXPECT_EQ(-ENOENT, tlsx_trust_load(&t, "/nonexistent.pem", NULL));
	EXPECT_EQ(-ENOENT, tlsx_trust_load(&t, data("p256-leaf.key"), NULL));
	EXPECT_EQ(NULL, t.certs);
}

static void put(const char *dir, const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

TEST(trust_load_dir)
{
	char dir[] = "/tmp/tlsx_trust_XXXXXX", cmd[128];
	char *p256 = must_slurp("p256-root.pem", NULL);
	char *rsa = must_slurp("rsa-root.pem", NULL);
	size_t n = strlen(p256) + strlen(rsa) + 1;
	char *both = malloc(n);
	struct tlsx_trust t;
	size_t skipped;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(both, n, "%s%s", p256, rsa);
	put(dir, "a.pem", p256);
	put(dir, "b.crt", rsa);
	put(dir, "bundle.crt", both);		/* the same two again */
	put(dir, "other.txt", p256);		/* not a *.pem or *.crt */
	EXPECT_EQ(0, tlsx_trust_load(&t, dir, &skipped));
	EXPECT_EQ(2, t.n);
	EXPECT_EQ(0, skipped);
	tlsx_trust_free(&t);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	EXPECT_EQ(0, system(cmd));
	free(both);
	free(p256);
	free(rsa);
}

/*
 * The system bundle loads; every certificate in it is either loaded or
 * skipped, and the reasons for skipping are logged (tlsx_x509_parse()'s
 * own words): the numbers docs/handshake.md gives.
 */
TEST(trust_system_bundle)
{
	struct { const char *why; unsigned int n; } why[16];
	unsigned int n_why = 0, i, blocks = 0;
	const char *pos, *end;
	struct tlsx_trust t;
	struct pem_block b;
	size_t skipped, len;
	static u8 der[8192];
	char *pem;
	FILE *f = fopen(TLSX_TRUST_SYSTEM, "rb");

	if (!f)
		SKIP(return, "no %s (ca-certificates)", TLSX_TRUST_SYSTEM);
	pem = malloc(4 << 20);
	len = fread(pem, 1, 4 << 20, f);
	fclose(f);
	for (pos = pem, end = pem + len;
	     pem_next(&pos, end, &b, der, sizeof(der)) > 0;) {
		struct tlsx_x509 crt;

		if (strcmp(b.label, "CERTIFICATE"))
			continue;
		blocks++;
		if (!tlsx_x509_parse(&crt, der, b.der_len))
			continue;
		for (i = 0; i < n_why && strcmp(why[i].why, crt.error); i++)
			;
		if (i == n_why && n_why < ARRAY_SIZE(why))
			why[n_why++] = (typeof(why[0])){ crt.error, 0 };
		if (i < n_why)
			why[i].n++;
	}
	ASSERT_EQ(0, tlsx_trust_load(&t, TLSX_TRUST_SYSTEM, &skipped));
	TH_LOG("%s: %u certificates, %zu loaded, %zu skipped",
	       TLSX_TRUST_SYSTEM, blocks, t.n, skipped);
	/* The sha1WithRSA roots among these are kept as anchors. */
	for (i = 0; i < n_why; i++)
		TH_LOG("  tlsx_x509_parse() refuses %u: %s", why[i].n,
		       why[i].why);
	EXPECT_GT(t.n, 100);	/* 144 certificates, 31 P-384 keys here */
	EXPECT_EQ(blocks, t.n + skipped);
	n_why = (unsigned int)t.n;
	tlsx_trust_free(&t);
	/* The directory: the bundle and a link per root, each kept once. */
	ASSERT_EQ(0, tlsx_trust_load(&t, "/etc/ssl/certs", &skipped));
	TH_LOG("/etc/ssl/certs: %zu loaded, %zu skipped", t.n, skipped);
	EXPECT_EQ(n_why, t.n);
	tlsx_trust_free(&t);
	free(pem);
}

/*
 * A root whose self-signature is sha1WithRSA: the parser refuses it, as
 * an anchor it is kept (its signature is never checked) and chains to it
 * verify; as a certificate sent by the peer it is still refused.
 */
TEST(trust_sha1_root)
{
	struct tlsx_trust t;
	size_t skipped;
	s64 now = good_now();

	ASSERT_EQ(0, tlsx_trust_load(&t, data("sha1-root.pem"), &skipped));
	EXPECT_EQ(1, t.n);
	EXPECT_EQ(0, skipped);
	tlsx_trust_free(&t);
	EXPECT_PEER("sha1-leaf", "sha1-root.pem", now, SERVER,
		    "www.example.com", 0, X509_VERIFY_OK);
	EXPECT_PEER("sha1-leaf sha1-root", "sha1-root.pem", now, SERVER,
		    "www.example.com", 0, X509_VERIFY_OK);
	/*
	 * Anchored elsewhere, the sent root must parse: a SHA-1 signature
	 * tlsx will not check (OpenSSL 3.0 at its default level does).
	 */
	EXPECT_PEER_NOT_OPENSSL("sha1-root", "p256-root.pem", now, SERVER,
				NULL, TLSX_ALERT_UNSUPPORTED_CERTIFICATE,
				-EOPNOTSUPP);
}

/* ---- a peer's chain -------------------------------------------------- */

TEST(verify_every_type)
{
	s64 now = good_now();
	char spec[64], root[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		struct tlsx_public_key pub;
		struct peer *pc;
		int xe;

		snprintf(spec, sizeof(spec), "%s-leaf %s-int", types[i],
			 types[i]);
		snprintf(root, sizeof(root), "%s-root.pem", types[i]);
		EXPECT_PEER(spec, root, now, SERVER, "www.example.com", 0,
			    X509_VERIFY_OK);
		EXPECT_PEER(spec, root, now, CLIENT, NULL, 0, X509_VERIFY_OK);
		/* The key handed back is the leaf's. */
		pc = peer(spec);
		memset(&pub, 0, sizeof(pub));
		ASSERT_EQ(0, verify(pc, root, now, SERVER, NULL, &pub, &xe));
		EXPECT_EQ(i == 0 ? TLSX_KEY_P256 : i == 1 ? TLSX_KEY_ED25519 :
			  TLSX_KEY_RSA, pub.type);
		EXPECT_EQ(i == 3, pub.rsa_pss_only);
		free(pc);
	}
	/* The root sent too, as many servers do; ignored as sent. */
	EXPECT_PEER("p256-leaf p256-int p256-root", "p256-root.pem", now,
		    SERVER, "www.example.com", 0, X509_VERIFY_OK);
}

TEST(verify_validity)
{
	struct tlsx_x509 leaf;
	u8 der[4096];
	size_t len = cert_der("p256-leaf.pem", der, sizeof(der));

	ASSERT_EQ(0, tlsx_x509_parse(&leaf, der, len));
	/*
	 * RFC 5280 4.1.2.5: "from notBefore through notAfter, inclusive";
	 * OpenSSL's X509_cmp_time() makes notAfter itself expired.
	 */
	EXPECT_PEER_NOT_OPENSSL("p256-leaf p256-int", "p256-root.pem",
				leaf.not_after, SERVER, "www.example.com", 0,
				X509_VERIFY_OK);
	EXPECT_PEER("p256-leaf p256-int", "p256-root.pem", leaf.not_before,
		    SERVER, "www.example.com", 0, X509_VERIFY_OK);
	EXPECT_PEER("p256-leaf p256-int", "p256-root.pem", leaf.not_after + 1,
		    SERVER, "www.example.com", TLSX_ALERT_CERTIFICATE_EXPIRED,
		    X509_VERIFY_EXPIRED);
	EXPECT_PEER("p256-leaf p256-int", "p256-root.pem",
		    leaf.not_before - 1, SERVER, "www.example.com",
		    TLSX_ALERT_CERTIFICATE_EXPIRED, X509_VERIFY_NOT_YET_VALID);
}

TEST(verify_wrong_host)
{
	s64 now = good_now();

	EXPECT_PEER("p256-leaf p256-int", "p256-root.pem", now, SERVER,
		    "mail.example.com", TLSX_ALERT_CERTIFICATE_UNKNOWN,
		    X509_VERIFY_HOST_MISMATCH);
	EXPECT_PEER("p256-leaf p256-int", "p256-root.pem", now, SERVER,
		    "www.example.com.evil", TLSX_ALERT_CERTIFICATE_UNKNOWN,
		    X509_VERIFY_HOST_MISMATCH);
	/* RFC 9525 6.3: the CN is not a name, even with no SAN at all. */
	EXPECT_PEER("noname-leaf p256-int", "p256-root.pem", now, SERVER,
		    "www.example.com", TLSX_ALERT_CERTIFICATE_UNKNOWN,
		    X509_VERIFY_HOST_MISMATCH);
	EXPECT_PEER("noname-leaf p256-int", "p256-root.pem", now, SERVER,
		    NULL, 0, X509_VERIFY_OK);
}

TEST(verify_ip_sans)
{
	static const struct {
		const char *host;
		bool ok;
	} v[] = {
		{ "192.0.2.1", true }, { "192.0.2.2", false },
		{ "2001:db8::1", true }, { "2001:db8:0::0:1", true },
		{ "2001:db8::2", false }, { "::ffff:192.0.2.1", false },
	};
	s64 now = good_now();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		int alert = v[i].ok ? 0 : TLSX_ALERT_CERTIFICATE_UNKNOWN;
		int xe = v[i].ok ? X509_VERIFY_OK : X509_VERIFY_HOST_MISMATCH;

		EXPECT_PEER("p256-leaf p256-int", "p256-root.pem", now, SERVER,
			    v[i].host, alert, xe);
	}
}

TEST(verify_wildcards)
{
	/* wild-leaf: *.com, f*o.example.net, *.example.org,
	 * *.*.example.com and a dNSName "192.0.2.7".
	 */
	static const struct {
		const char *host;
		bool ok;
	} v[] = {
		{ "a.example.org", true },	/* one whole label */
		{ "A-1.EXAMPLE.ORG", true },
		{ "example.org", false },	/* no label for the '*' */
		{ ".example.org", false },
		{ "a.b.example.org", false },	/* one label only */
		{ "example.com", false },	/* *.com: too few labels */
		{ "foo.example.net", false },	/* no partial wildcards */
		{ "a.b.example.com", false },	/* '*' leftmost only */
		{ "*.example.org", false },	/* a host with a '*' */
		{ "192.0.2.7", false },		/* an IP is not a dNSName */
	};
	s64 now = good_now();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(v); i++) {
		int alert = v[i].ok ? 0 : TLSX_ALERT_CERTIFICATE_UNKNOWN;
		int xe = v[i].ok ? X509_VERIFY_OK : X509_VERIFY_HOST_MISMATCH;

		/*
		 * OpenSSL's X509_check_host() reads a host with a leading
		 * '.' as "any subdomain" and compares a '*' in the host as
		 * a character: API conventions, not names a peer could ask.
		 */
		if (v[i].host[0] == '.' || v[i].host[0] == '*')
			EXPECT_PEER_NOT_OPENSSL("wild-leaf p256-int",
						"p256-root.pem", now, SERVER,
						v[i].host, alert, xe);
		else
			EXPECT_PEER("wild-leaf p256-int", "p256-root.pem", now,
				    SERVER, v[i].host, alert, xe);
	}
}

TEST(verify_untrusted_root)
{
	s64 now = good_now();

	EXPECT_PEER("p256-leaf p256-int", "other-root.pem", now, SERVER,
		    "www.example.com", TLSX_ALERT_UNKNOWN_CA,
		    X509_VERIFY_NO_ISSUER);
	EXPECT_PEER("p256-leaf p256-int", "rsa-root.pem", now, SERVER,
		    "www.example.com", TLSX_ALERT_UNKNOWN_CA,
		    X509_VERIFY_NO_ISSUER);
	EXPECT_PEER("p256-leaf p256-int", NULL, now, SERVER,
		    "www.example.com", TLSX_ALERT_UNKNOWN_CA,
		    X509_VERIFY_NO_ISSUER);
	/* A CA sent as the leaf: its keyUsage does not allow signing. */
	EXPECT_PEER("other-root", "p256-root.pem", now, SERVER, NULL,
		    TLSX_ALERT_CERTIFICATE_UNKNOWN, X509_VERIFY_LEAF_KEY_USAGE);
	/* The intermediate missing. */
	EXPECT_PEER("p256-leaf", "p256-root.pem", now, SERVER,
		    "www.example.com", TLSX_ALERT_UNKNOWN_CA,
		    X509_VERIFY_NO_ISSUER);
}

/* Verifies p256-leaf p256-int with byte @off of certificate @which flipped. */
static int verify_flipped(unsigned int which, size_t off, int *xe)
{
	struct peer *pc = peer("p256-leaf p256-int");
	struct tlsx_public_key pub;
	int ret;

	pc->der[which][off] ^= 0x01;
	ret = verify(pc, "p256-root.pem", good_now(), SERVER, NULL, &pub, xe);
	free(pc);
	return ret;
}

TEST(verify_broken_signature)
{
	struct tlsx_x509 crt;
	struct peer *pc = peer("p256-leaf p256-int");
	size_t sig_end, serial;
	int xe;

	ASSERT_EQ(0, tlsx_x509_parse(&crt, pc->der[0], pc->len[0]));
	/* The last byte of the signature's s: still DER, no longer valid. */
	sig_end = (size_t)(crt.sig.p - pc->der[0]) + crt.sig.len - 1;
	serial = (size_t)(crt.serial.p - pc->der[0]) + crt.serial.len - 1;
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE, verify_flipped(0, sig_end, &xe));
	EXPECT_EQ(X509_VERIFY_BAD_SIGNATURE, xe);
	/* The signed bytes changed instead: the same. */
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE, verify_flipped(0, serial, &xe));
	EXPECT_EQ(X509_VERIFY_BAD_SIGNATURE, xe);
	/* The intermediate's, under the root. */
	ASSERT_EQ(0, tlsx_x509_parse(&crt, pc->der[1], pc->len[1]));
	sig_end = (size_t)(crt.sig.p - pc->der[1]) + crt.sig.len - 1;
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE, verify_flipped(1, sig_end, &xe));
	EXPECT_EQ(X509_VERIFY_BAD_SIGNATURE, xe);
	free(pc);
}

TEST(verify_order)
{
	s64 now = good_now();

	/* 4.4.2: the sender's certificate first. */
	EXPECT_PEER("p256-int p256-leaf", "p256-root.pem", now, SERVER, NULL,
		    TLSX_ALERT_BAD_CERTIFICATE, TLSX_CERT_ERR_ORDER);
	EXPECT_PEER("p256-root p256-int p256-leaf", "p256-root.pem", now,
		    SERVER, NULL, TLSX_ALERT_BAD_CERTIFICATE,
		    TLSX_CERT_ERR_ORDER);
	/* The others in any order, and extraneous ones, are accepted. */
	EXPECT_PEER("p256-leaf p256-root p256-int", "p256-root.pem", now,
		    SERVER, "www.example.com", 0, X509_VERIFY_OK);
	EXPECT_PEER("p256-leaf rsa-int other-root p256-int", "p256-root.pem",
		    now, SERVER, "www.example.com", 0, X509_VERIFY_OK);
}

TEST(verify_non_ca_intermediate)
{
	s64 now = good_now();

	EXPECT_PEER("noca-leaf noca-int", "p256-root.pem", now, SERVER,
		    "www.example.com", TLSX_ALERT_UNKNOWN_CA,
		    X509_VERIFY_NOT_CA);
}

TEST(verify_purpose)
{
	s64 now = good_now();

	EXPECT_PEER("client-leaf p256-int", "p256-root.pem", now, SERVER,
		    NULL, TLSX_ALERT_CERTIFICATE_UNKNOWN,
		    X509_VERIFY_EXT_KEY_USAGE);
	EXPECT_PEER("client-leaf p256-int", "p256-root.pem", now, CLIENT,
		    NULL, 0, X509_VERIFY_OK);
}

TEST(verify_malformed_der)
{
	struct peer *pc = peer("p256-leaf p256-int");
	struct tlsx_public_key pub;
	s64 now = good_now();
	int xe;

	/* Truncated leaf. */
	pc->len[0] -= 1;
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE,
		  verify(pc, "p256-root.pem", now, SERVER, NULL, &pub, &xe));
	EXPECT_EQ(-EBADMSG, xe);
	pc->len[0] += 1;
	/* A trailing byte after the leaf's SEQUENCE. */
	pc->len[0] += 1;
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE,
		  verify(pc, "p256-root.pem", now, SERVER, NULL, &pub, &xe));
	EXPECT_EQ(-EBADMSG, xe);
	pc->len[0] -= 1;
	/* A malformed intermediate is refused too, not passed over. */
	pc->der[1][1] ^= 0x40;
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE,
		  verify(pc, "p256-root.pem", now, SERVER, NULL, &pub, &xe));
	EXPECT_EQ(-EBADMSG, xe);
	pc->der[1][1] ^= 0x40;
	/* Garbage. */
	memset(pc->der[0], 0xa5, 64);
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE,
		  verify(pc, "p256-root.pem", now, SERVER, NULL, &pub, &xe));
	free(pc);
}

TEST(verify_unsupported)
{
	s64 now = good_now();

	/* A P-384 leaf: tlsx cannot check its CertificateVerify. */
	EXPECT_PEER("p384-root", "p256-root.pem", now, SERVER, NULL,
		    TLSX_ALERT_UNSUPPORTED_CERTIFICATE, -EOPNOTSUPP);
	/* The same certificate as an extraneous intermediate: passed over. */
	EXPECT_PEER("p256-leaf p384-root p256-int", "p256-root.pem", now,
		    SERVER, "www.example.com", 0, X509_VERIFY_OK);
}

TEST(verify_arguments)
{
	struct peer *pc = peer("p256-leaf p256-int p256-int p256-int p256-int p256-int p256-int p256-int p256-int");
	struct tlsx_public_key pub;
	int xe;

	ASSERT_EQ(TLSX_CERT_MAX_CHAIN + 1, pc->n);
	EXPECT_EQ(TLSX_ALERT_BAD_CERTIFICATE,
		  verify(pc, "p256-root.pem", good_now(), SERVER, NULL, &pub,
			 &xe));
	EXPECT_EQ(TLSX_CERT_ERR_TOO_MANY, xe);
	/* Eight (the bound) with duplicates is fine. */
	pc->n = TLSX_CERT_MAX_CHAIN;
	EXPECT_EQ(0, verify(pc, "p256-root.pem", good_now(), SERVER, NULL,
			    &pub, &xe));
	pc->n = 0;
	EXPECT_EQ(-EINVAL, verify(pc, "p256-root.pem", good_now(), SERVER,
				  NULL, &pub, &xe));
	free(pc);
}

TEST(strerror_distinct)
{
	static const int codes[] = {
		X509_VERIFY_OK, X509_VERIFY_NO_ISSUER,
		X509_VERIFY_BAD_SIGNATURE, X509_VERIFY_EXPIRED,
		X509_VERIFY_NOT_YET_VALID, X509_VERIFY_NOT_CA,
		X509_VERIFY_PATH_LEN, X509_VERIFY_ISSUER_KEY_USAGE,
		X509_VERIFY_LEAF_KEY_USAGE, X509_VERIFY_EXT_KEY_USAGE,
		X509_VERIFY_HOST_MISMATCH, X509_VERIFY_DEPTH,
		X509_VERIFY_INVALID, TLSX_CERT_ERR_ORDER,
		TLSX_CERT_ERR_TOO_MANY, -EBADMSG, -EOPNOTSUPP, -E2BIG,
	};
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		const char *s = tlsx_cert_verify_strerror(codes[i]);

		EXPECT_NE(0, strcmp(s, "unknown error")) TH_LOG("%d", codes[i]);
		for (j = 0; j < i; j++)
			EXPECT_NE(0, strcmp(s, tlsx_cert_verify_strerror(codes[j])));
	}
	EXPECT_STREQ("unknown error", tlsx_cert_verify_strerror(5));
}

TEST_HARNESS_MAIN
