// SPDX-License-Identifier: GPL-2.0
/*
 * test_sig.c - CertificateVerify signatures (sig.c, cert.h's half):
 *
 *  - every scheme (ecdsa_secp256r1_sha256, ed25519, rsa_pss_rsae_* and
 *    rsa_pss_pss_*) signs and verifies, for both roles' contexts;
 *  - each signature verifies in OpenSSL (EVP_DigestVerify over the 4.4.3
 *    content built here independently), and OpenSSL's verify here;
 *  - randomness only through the given rand: the same draws give the
 *    same ECDSA and PSS signature, other draws another;
 *  - refusals: a flipped bit or the other role's context (decrypt_error),
 *    rsa_pkcs1_* (4.4.3), a scheme of another key type, rsae with an
 *    id-RSASSA-PSS key and pss with an rsaEncryption one
 *    (illegal_parameter), a short buffer (-ENOSPC).
 * Keys are made by OpenSSL and loaded through x509/pkey.c.
 */
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs.h"

struct keypair {
	EVP_PKEY *ossl;
	struct tlsx_private_key priv;
	struct tlsx_public_key pub;
};

static EVP_PKEY *ossl_keygen(int type)
{
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new_id(type, NULL);
	EVP_PKEY *k = NULL;

	if (!c || EVP_PKEY_keygen_init(c) <= 0)
		goto out;
	if (type == EVP_PKEY_EC &&
	    EVP_PKEY_CTX_set_ec_paramgen_curve_nid(c, NID_X9_62_prime256v1) <= 0)
		goto out;
	if (type == EVP_PKEY_RSA && EVP_PKEY_CTX_set_rsa_keygen_bits(c, 2048) <= 0)
		goto out;
	if (EVP_PKEY_keygen(c, &k) <= 0)
		k = NULL;
out:
	EVP_PKEY_CTX_free(c);
	return k;
}

/* OpenSSL's key, as PKCS #8 DER, through tlsx's loader. */
static int load(struct keypair *kp, int type)
{
	PKCS8_PRIV_KEY_INFO *p8;
	unsigned char *der = NULL;
	int len, ret = -1;

	kp->ossl = ossl_keygen(type);
	if (!kp->ossl)
		return -1;
	p8 = EVP_PKEY2PKCS8(kp->ossl);
	len = p8 ? i2d_PKCS8_PRIV_KEY_INFO(p8, &der) : -1;
	if (len > 0 &&
	    !tlsx_private_key_from_der(&kp->priv, der, (size_t)len) &&
	    !tlsx_private_key_public(&kp->priv, &kp->pub))
		ret = 0;
	OPENSSL_clear_free(der, len > 0 ? len : 0);
	PKCS8_PRIV_KEY_INFO_free(p8);
	return ret;
}

static struct keypair ec, ed, rsa;
static bool loaded;

static void load_all(void)
{
	if (loaded)
		return;
	if (load(&ec, EVP_PKEY_EC) || load(&ed, EVP_PKEY_ED25519) ||
	    load(&rsa, EVP_PKEY_RSA))
		abort();
	loaded = true;
}

/* A counter-based rand: the draws depend on the seed only. */
struct det {
	u8 seed;
	unsigned int n;
};

static int det_rand(void *ctx, void *buf, size_t len)
{
	struct det *d = ctx;
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(d->seed * 131 + d->n++ * 7 + 1);
	return 0;
}

static const u8 th[49] = {
	1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16,
	17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
	33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
};

/* The 4.4.3 content, built here apart from sig.c. */
static size_t content(u8 *out, bool server, size_t th_len)
{
	const char *ctx = server ? "TLS 1.3, server CertificateVerify" :
				   "TLS 1.3, client CertificateVerify";

	memset(out, ' ', 64);
	memcpy(out + 64, ctx, strlen(ctx) + 1);
	memcpy(out + 64 + strlen(ctx) + 1, th, th_len);
	return 64 + strlen(ctx) + 1 + th_len;
}

static const EVP_MD *scheme_md(u16 scheme)
{
	switch (scheme) {
	case TLSX_SIG_ED25519:
		return NULL;
	case TLSX_SIG_RSA_PSS_RSAE_SHA384:
	case TLSX_SIG_RSA_PSS_PSS_SHA384:
		return EVP_sha384();
	case TLSX_SIG_RSA_PSS_RSAE_SHA512:
	case TLSX_SIG_RSA_PSS_PSS_SHA512:
		return EVP_sha512();
	default:
		return EVP_sha256();
	}
}

static bool scheme_rsa(u16 scheme)
{
	return (scheme & 0xff00) == 0x0800 && scheme != TLSX_SIG_ED25519;
}

/* OpenSSL verifies (@sign false) or makes (@sign true) a signature. */
static int ossl_sig(EVP_PKEY *k, u16 scheme, bool server, size_t th_len,
		    u8 *sig, size_t *sig_len, bool sign)
{
	EVP_MD_CTX *md = EVP_MD_CTX_new();
	EVP_PKEY_CTX *pc = NULL;
	u8 msg[256];
	size_t n = content(msg, server, th_len);
	int ok = 0;

	if (!md)
		return 0;
	if ((sign ? EVP_DigestSignInit(md, &pc, scheme_md(scheme), NULL, k) :
		    EVP_DigestVerifyInit(md, &pc, scheme_md(scheme), NULL,
					 k)) <= 0)
		goto out;
	if (scheme_rsa(scheme) &&
	    (EVP_PKEY_CTX_set_rsa_padding(pc, RSA_PKCS1_PSS_PADDING) <= 0 ||
	     EVP_PKEY_CTX_set_rsa_pss_saltlen(pc, RSA_PSS_SALTLEN_DIGEST) <= 0 ||
	     EVP_PKEY_CTX_set_rsa_mgf1_md(pc, scheme_md(scheme)) <= 0))
		goto out;
	if (sign)
		ok = EVP_DigestSign(md, sig, sig_len, msg, n) == 1;
	else
		ok = EVP_DigestVerify(md, sig, *sig_len, msg, n) == 1;
out:
	EVP_MD_CTX_free(md);
	return ok;
}

FIXTURE(scheme) {
	struct keypair *kp;
	struct tlsx_public_key pub;
};

FIXTURE_VARIANT(scheme) {
	u16 scheme;
	int key;	/* 0 ec, 1 ed25519, 2 rsa */
	bool pss_only;
	size_t th_len;
};

FIXTURE_VARIANT_ADD(scheme, ecdsa_secp256r1_sha256) { 0x0403, 0, false, 32 };
FIXTURE_VARIANT_ADD(scheme, ed25519) { 0x0807, 1, false, 32 };
FIXTURE_VARIANT_ADD(scheme, rsa_pss_rsae_sha256) { 0x0804, 2, false, 32 };
FIXTURE_VARIANT_ADD(scheme, rsa_pss_rsae_sha384) { 0x0805, 2, false, 48 };
FIXTURE_VARIANT_ADD(scheme, rsa_pss_rsae_sha512) { 0x0806, 2, false, 32 };
FIXTURE_VARIANT_ADD(scheme, rsa_pss_pss_sha256) { 0x0809, 2, true, 32 };
FIXTURE_VARIANT_ADD(scheme, rsa_pss_pss_sha384) { 0x080a, 2, true, 48 };
FIXTURE_VARIANT_ADD(scheme, rsa_pss_pss_sha512) { 0x080b, 2, true, 48 };

FIXTURE_SETUP(scheme)
{
	load_all();
	self->kp = variant->key == 0 ? &ec : variant->key == 1 ? &ed : &rsa;
	self->pub = self->kp->pub;
	/*
	 * The same RSA key stands for an id-RSASSA-PSS one: the padding is
	 * the same, only the key's OID (here the flag) differs.
	 */
	self->pub.rsa_pss_only = variant->pss_only;
}

FIXTURE_TEARDOWN(scheme)
{
}

TEST_F(scheme, sign_verify_both_roles)
{
	u8 sig[512];
	size_t len;
	struct det d = { 1, 0 };
	int server;

	ASSERT_TRUE(tlsx_cv_key_can(&self->kp->priv, variant->scheme));
	for (server = 0; server < 2; server++) {
		ASSERT_EQ(0, tlsx_cv_sign(&self->kp->priv, variant->scheme,
					  server, th, variant->th_len, det_rand,
					  &d, sig, sizeof(sig), &len));
		EXPECT_EQ(0, tlsx_cv_verify(&self->pub, variant->scheme,
					    server, th, variant->th_len, sig,
					    len));
		/* The other role's context string. */
		EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
			  tlsx_cv_verify(&self->pub, variant->scheme, !server,
					 th, variant->th_len, sig, len));
		/* OpenSSL agrees. */
		EXPECT_TRUE(ossl_sig(self->kp->ossl, variant->scheme, server,
				     variant->th_len, sig, &len, false));
	}
}

TEST_F(scheme, openssl_signs_tlsx_verifies)
{
	u8 sig[512];
	size_t len = sizeof(sig);

	ASSERT_TRUE(ossl_sig(self->kp->ossl, variant->scheme, true,
			     variant->th_len, sig, &len, true));
	EXPECT_EQ(0, tlsx_cv_verify(&self->pub, variant->scheme, true, th,
				    variant->th_len, sig, len));
}

TEST_F(scheme, every_bit_flip_refused)
{
	u8 sig[512];
	size_t len, i;
	struct det d = { 2, 0 };

	ASSERT_EQ(0, tlsx_cv_sign(&self->kp->priv, variant->scheme, true, th,
				  variant->th_len, det_rand, &d, sig,
				  sizeof(sig), &len));
	for (i = 0; i < len * 8; i += 7) {
		sig[i / 8] ^= 1 << (i % 8);
		ASSERT_NE(0, tlsx_cv_verify(&self->pub, variant->scheme, true,
					    th, variant->th_len, sig, len))
			TH_LOG("bit %zu", i);
		sig[i / 8] ^= 1 << (i % 8);
	}
	/* A shorter signature, and one byte of transcript changed. */
	EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
		  tlsx_cv_verify(&self->pub, variant->scheme, true, th,
				 variant->th_len, sig, len - 1));
	EXPECT_EQ(TLSX_ALERT_DECRYPT_ERROR,
		  tlsx_cv_verify(&self->pub, variant->scheme, true, th + 1,
				 variant->th_len, sig, len));
	/* Too small a buffer. */
	d.n = 0;
	EXPECT_EQ(-ENOSPC, tlsx_cv_sign(&self->kp->priv, variant->scheme,
					true, th, variant->th_len, det_rand,
					&d, sig, 8, &len));
}

/* Randomness comes from the given source only. */
TEST_F(scheme, rand_injected)
{
	u8 a[512], b[512], c[512];
	size_t la, lb, lc;
	struct det d1 = { 3, 0 }, d2 = { 3, 0 }, d3 = { 4, 0 };

	ASSERT_EQ(0, tlsx_cv_sign(&self->kp->priv, variant->scheme, true, th,
				  variant->th_len, det_rand, &d1, a, sizeof(a),
				  &la));
	ASSERT_EQ(0, tlsx_cv_sign(&self->kp->priv, variant->scheme, true, th,
				  variant->th_len, det_rand, &d2, b, sizeof(b),
				  &lb));
	ASSERT_EQ(0, tlsx_cv_sign(&self->kp->priv, variant->scheme, true, th,
				  variant->th_len, det_rand, &d3, c, sizeof(c),
				  &lc));
	ASSERT_EQ(la, lb);
	EXPECT_EQ(0, memcmp(a, b, la));
	/* Ed25519 is deterministic by design (RFC 8032); the others not. */
	EXPECT_EQ(variant->scheme == TLSX_SIG_ED25519,
		  la == lc && !memcmp(a, c, la));
	EXPECT_EQ(0, tlsx_cv_verify(&self->pub, variant->scheme, true, th,
				    variant->th_len, c, lc));
}

/* rsae needs an rsaEncryption key, pss an id-RSASSA-PSS one (4.2.3). */
TEST_F(scheme, rsa_oid_must_fit)
{
	struct tlsx_public_key other = self->pub;
	u8 sig[512];
	size_t len;
	struct det d = { 5, 0 };

	if (variant->key != 2)
		SKIP(return, "not RSA");
	ASSERT_EQ(0, tlsx_cv_sign(&self->kp->priv, variant->scheme, true, th,
				  variant->th_len, det_rand, &d, sig,
				  sizeof(sig), &len));
	other.rsa_pss_only = !variant->pss_only;
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  tlsx_cv_verify(&other, variant->scheme, true, th,
				 variant->th_len, sig, len));
}

TEST(pkcs1_refused)
{
	u16 s[] = { 0x0401, 0x0501, 0x0601, 0x0201, 0x0203, 0x0503, 0xfefe };
	u8 sig[512];
	size_t len, i;
	struct det d = { 6, 0 };

	load_all();
	for (i = 0; i < ARRAY_SIZE(s); i++) {
		EXPECT_FALSE(tlsx_cv_key_can(&rsa.priv, s[i]));
		EXPECT_EQ(-EINVAL, tlsx_cv_sign(&rsa.priv, s[i], true, th, 32,
						det_rand, &d, sig, sizeof(sig),
						&len));
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_cv_verify(&rsa.pub, s[i], true, th, 32, sig,
					 256));
	}
}

TEST(key_type_mismatch)
{
	u8 sig[512];
	size_t len;
	struct det d = { 7, 0 };

	load_all();
	EXPECT_FALSE(tlsx_cv_key_can(&ed.priv, TLSX_SIG_ECDSA_SECP256R1_SHA256));
	EXPECT_FALSE(tlsx_cv_key_can(&ec.priv, TLSX_SIG_RSA_PSS_RSAE_SHA256));
	EXPECT_FALSE(tlsx_cv_key_can(&rsa.priv, TLSX_SIG_ED25519));
	EXPECT_EQ(-EINVAL, tlsx_cv_sign(&ed.priv,
					TLSX_SIG_ECDSA_SECP256R1_SHA256, true,
					th, 32, det_rand, &d, sig, sizeof(sig),
					&len));
	ASSERT_EQ(0, tlsx_cv_sign(&ec.priv, TLSX_SIG_ECDSA_SECP256R1_SHA256,
				  true, th, 32, det_rand, &d, sig, sizeof(sig),
				  &len));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  tlsx_cv_verify(&ed.pub, TLSX_SIG_ECDSA_SECP256R1_SHA256,
				 true, th, 32, sig, len));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  tlsx_cv_verify(&rsa.pub, TLSX_SIG_ECDSA_SECP256R1_SHA256,
				 true, th, 32, sig, len));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  tlsx_cv_verify(&ec.pub, TLSX_SIG_ED25519, true, th, 32, sig,
				 64));
}

TEST(names)
{
	EXPECT_STREQ("ecdsa_secp256r1_sha256", tlsx_sig_scheme_name(0x0403));
	EXPECT_STREQ("ed25519", tlsx_sig_scheme_name(0x0807));
	EXPECT_STREQ("rsa_pss_rsae_sha384", tlsx_sig_scheme_name(0x0805));
	EXPECT_STREQ("rsa_pss_pss_sha512", tlsx_sig_scheme_name(0x080b));
	EXPECT_STREQ("rsa_pkcs1_sha256", tlsx_sig_scheme_name(0x0401));
	EXPECT_STREQ("unknown", tlsx_sig_scheme_name(0x0201));
}

TEST_HARNESS_MAIN
