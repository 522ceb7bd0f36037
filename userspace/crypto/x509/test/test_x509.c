// SPDX-License-Identifier: GPL-2.0
/*
 * test_x509.c - the certificate parser against OpenSSL's: certificates
 * made by the openssl command at test time (x509_test.h) and every
 * certificate in /etc/ssl/certs, each field compared with what
 * libcrypto's X509 getters say; certificates the parser must refuse;
 * every truncation and thousands of byte flips of each certificate (a
 * clean error or a parse whose spans stay inside the input, never a
 * crash: the ASan build checks the reads).
 */
#include <dirent.h>
#include <time.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "kselftest_harness.h"
#include "x509/test/x509_test.h"

static const char *const good_certs[] = {
	"p256-ca", "p256-int", "p256-leaf",
	"ed25519-ca", "ed25519-int", "ed25519-leaf",
	"rsa-ca", "rsa-int", "rsa-leaf",
	"rsapss-ca", "rsapss-int", "rsapss-leaf",
	"other-ca", "noca", "noca-leaf", "ncs", "ncs-leaf", "int2", "pl-leaf",
	"client-leaf", "noku-leaf",
};

static u64 rng_state = 0x0123456789abcdefull;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static bool span_is(const struct der_span *s, const u8 *p, size_t len)
{
	return s->len == len && (!len || !memcmp(s->p, p, len));
}

/* i2d of an OpenSSL object compared with a span. */
#define SPAN_IS_I2D(span, i2d, obj) ({					\
	u8 *_buf = NULL;						\
	int _n = i2d((obj), &_buf);					\
	bool _eq = _n > 0 && span_is((span), _buf, (size_t)_n);	\
	OPENSSL_free(_buf);						\
	_eq; })

static s64 asn1_time(const ASN1_TIME *t)
{
	struct tm tm;

	if (!ASN1_TIME_to_tm(t, &tm))
		return -1;
	return (s64)timegm(&tm);
}

static enum tlsx_sig_alg expected_sig_alg(X509 *x)
{
	int md = 0, pk = 0, nid = X509_get_signature_nid(x);
	int h;

	if (!X509_get_signature_info(x, &md, &pk, NULL, NULL))
		return TLSX_SIG_NONE;
	h = md == NID_sha256 ? 0 : md == NID_sha384 ? 1 :
	    md == NID_sha512 ? 2 : -1;
	switch (nid) {
	case NID_ecdsa_with_SHA256:
	case NID_ecdsa_with_SHA384:
	case NID_ecdsa_with_SHA512:
		return h < 0 ? TLSX_SIG_NONE : TLSX_SIG_ECDSA_SHA256 + h;
	case NID_ED25519:
		return TLSX_SIG_ED25519;
	case NID_sha256WithRSAEncryption:
	case NID_sha384WithRSAEncryption:
	case NID_sha512WithRSAEncryption:
		return h < 0 ? TLSX_SIG_NONE : TLSX_SIG_RSA_PKCS1_SHA256 + h;
	case NID_rsassaPss:
		return h < 0 ? TLSX_SIG_NONE : TLSX_SIG_RSA_PSS_SHA256 + h;
	}
	return TLSX_SIG_NONE;
}

/* Our keyUsage bit i is OpenSSL's 0x80 >> i (i < 8), 0x8000 for 8. */
static unsigned int openssl_key_usage(u32 ku)
{
	unsigned int out = 0, i;

	for (i = 0; i < 8; i++)
		if (ku & (0x80u >> i))
			out |= 1u << i;
	if (ku & 0x8000)
		out |= 1u << 8;
	return out;
}

/*
 * The KeyPurposeIds kept (c->eku), in order and byte for byte, against
 * OpenSSL's decoding of the extension; each found by tlsx_x509_has_eku().
 */
static bool eku_is_openssl(const struct tlsx_x509 *c, X509 *x)
{
	EXTENDED_KEY_USAGE *eku;
	const ASN1_OBJECT *o;
	struct der_cursor cur;
	struct der_span oid;
	bool ok;
	int i;

	eku = X509_get_ext_d2i(x, NID_ext_key_usage, NULL, NULL);
	ok = eku && sk_ASN1_OBJECT_num(eku) > 0;
	der_init(&cur, c->eku.p, c->eku.len);
	for (i = 0; ok && i < sk_ASN1_OBJECT_num(eku); i++) {
		o = sk_ASN1_OBJECT_value(eku, i);
		ok = !der_read_oid(&cur, &oid) &&
		     (size_t)OBJ_length(o) == oid.len &&
		     !memcmp(OBJ_get0_data(o), oid.p, oid.len) &&
		     tlsx_x509_has_eku(c, &oid);
	}
	sk_ASN1_OBJECT_pop_free(eku, ASN1_OBJECT_free);
	return ok && der_empty(&cur);
}

/*
 * Every field of @c against OpenSSL's view of the same DER; returns the
 * number of mismatches and logs each through @_metadata.
 */
#define CHECK(cond) do {						\
		if (!(cond)) {						\
			TH_LOG("%s: %s", name, #cond);			\
			bad++;						\
		}							\
	} while (0)

static int compare_with_openssl(struct __test_metadata *_metadata,
				const char *name,
				const struct tlsx_x509 *c, X509 *x)
{
	const ASN1_BIT_STRING *sig;
	const X509_ALGOR *alg;
	GENERAL_NAMES *gens;
	EVP_PKEY *pk = X509_get0_pubkey(x);
	u32 flags = X509_get_extension_flags(x);
	unsigned int n_dns = 0, n_ip = 0;
	BIGNUM *serial;
	char cn[256], ours[256];
	u8 buf[1024];
	int bad = 0, i, n;

	CHECK(c->version == (unsigned int)X509_get_version(x) + 1);
	serial = ASN1_INTEGER_to_BN(X509_get0_serialNumber(x), NULL);
	n = BN_bn2bin(serial, buf);
	BN_free(serial);
	CHECK(span_is(&c->serial, buf, (size_t)n) ||
	      (n == 0 && c->serial.len == 1 && !c->serial.p[0]));
	CHECK(c->sig_alg == expected_sig_alg(x));
	CHECK(SPAN_IS_I2D(&c->tbs, i2d_re_X509_tbs, x));
	X509_get0_signature(&sig, &alg, x);
	CHECK(span_is(&c->sig, sig->data, (size_t)sig->length));
	CHECK(SPAN_IS_I2D(&c->issuer, i2d_X509_NAME,
			  X509_get_issuer_name(x)));
	CHECK(SPAN_IS_I2D(&c->subject, i2d_X509_NAME,
			  X509_get_subject_name(x)));
	if (X509_NAME_get_text_by_NID(X509_get_subject_name(x),
				      NID_commonName, cn, sizeof(cn)) >= 0 &&
	    c->subject_cn.p) {
		CHECK(!tlsx_x509_cn_string(&c->subject_cn, ours,
					   sizeof(ours)));
		/* OpenSSL converts BMP and the like; ours is the raw text. */
		CHECK(!strcmp(cn, ours));
	}
	CHECK(c->not_before == asn1_time(X509_get0_notBefore(x)));
	CHECK(c->not_after == asn1_time(X509_get0_notAfter(x)));
	CHECK(SPAN_IS_I2D(&c->spki, i2d_X509_PUBKEY,
			  X509_get_X509_PUBKEY(x)));

	switch (c->pub.type) {
	case TLSX_KEY_P256: {
		size_t len = 0;

		CHECK(EVP_PKEY_get_octet_string_param(pk,
			OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, buf, sizeof(buf),
			&len));
		CHECK(len == P256_POINT_SIZE && !memcmp(buf, c->pub.p256, len));
		break;
	}
	case TLSX_KEY_ED25519: {
		size_t len = sizeof(buf);

		CHECK(EVP_PKEY_get_raw_public_key(pk, buf, &len));
		CHECK(len == 32 && !memcmp(buf, c->pub.ed25519, 32));
		break;
	}
	case TLSX_KEY_RSA: {
		BIGNUM *bn = NULL, *e = NULL;

		CHECK(EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_N, &bn));
		CHECK(EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_RSA_E, &e));
		n = BN_bn2bin(bn, buf);
		CHECK((size_t)n == c->pub.rsa.n_len &&
		      !memcmp(buf, c->pub.rsa.n, (size_t)n));
		CHECK(BN_get_word(e) == c->pub.rsa.e);
		BN_free(bn);
		BN_free(e);
		break;
	}
	default:
		CHECK(!"a key type");
	}

	CHECK(!!(flags & EXFLAG_KUSAGE) == !!(c->ext & X509_EXT_KEY_USAGE));
	if (flags & EXFLAG_KUSAGE)
		CHECK(c->key_usage == openssl_key_usage(X509_get_key_usage(x)));
	CHECK(!!(flags & EXFLAG_XKUSAGE) ==
	      !!(c->ext & X509_EXT_EXT_KEY_USAGE));
	if (flags & EXFLAG_XKUSAGE) {
		u32 xku = X509_get_extended_key_usage(x);

		CHECK(!!(xku & XKU_SSL_SERVER) ==
		      !!(c->ext_key_usage & X509_EKU_SERVER_AUTH));
		CHECK(!!(xku & XKU_SSL_CLIENT) ==
		      !!(c->ext_key_usage & X509_EKU_CLIENT_AUTH));
		CHECK(!!(xku & XKU_ANYEKU) ==
		      !!(c->ext_key_usage & X509_EKU_ANY));
		CHECK(eku_is_openssl(c, x));
	} else {
		CHECK(!c->eku.len);
	}
	CHECK(!!(flags & EXFLAG_BCONS) == !!(c->ext & X509_EXT_BASIC));
	CHECK(!!(flags & EXFLAG_CA) == c->ca);
	CHECK(X509_get_pathlen(x) == c->path_len);

	gens = X509_get_ext_d2i(x, NID_subject_alt_name, NULL, NULL);
	CHECK(!!gens == !!(c->ext & X509_EXT_SAN));
	for (i = 0; gens && i < sk_GENERAL_NAME_num(gens); i++) {
		GENERAL_NAME *g = sk_GENERAL_NAME_value(gens, i);

		if (g->type == GEN_DNS) {
			CHECK(n_dns < c->n_dns &&
			      span_is(&c->dns[n_dns], g->d.dNSName->data,
				      (size_t)g->d.dNSName->length));
			n_dns++;
		} else if (g->type == GEN_IPADD) {
			CHECK(n_ip < c->n_ip &&
			      span_is(&c->ip[n_ip], g->d.iPAddress->data,
				      (size_t)g->d.iPAddress->length));
			n_ip++;
		}
	}
	GENERAL_NAMES_free(gens);
	CHECK(n_dns == c->n_dns && n_ip == c->n_ip);
	CHECK(!(flags & EXFLAG_CRITICAL));
	return bad;
}

static X509 *openssl_parse(const u8 *der, size_t len)
{
	const u8 *p = der;
	X509 *x = d2i_X509(NULL, &p, (long)len);

	if (x && p != der + len) {
		X509_free(x);
		return NULL;
	}
	return x;
}

TEST(fields_match_openssl)
{
	struct x509_test_cert *c = malloc(sizeof(*c));
	unsigned int i;

	ASSERT_NE(NULL, c);
	for (i = 0; i < ARRAY_SIZE(good_certs); i++) {
		const char *name = good_certs[i];
		X509 *x;

		ASSERT_EQ(0, x509_test_load(c, name))
			TH_LOG("%s: %s", name, c->crt.error);
		x = openssl_parse(c->der, c->len);
		ASSERT_NE(NULL, x);
		EXPECT_EQ(0, compare_with_openssl(_metadata, name, &c->crt, x));
		X509_free(x);
	}
	free(c);
}

/* What the generated chains are known to hold. */
TEST(known_fields)
{
	struct x509_test_cert *c = malloc(sizeof(*c));
	struct der_span oid;
	char cn[64];

	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, x509_test_load(c, "rsapss-leaf"));
	EXPECT_EQ(TLSX_SIG_RSA_PSS_SHA256, c->crt.sig_alg);
	EXPECT_EQ(TLSX_KEY_RSA, c->crt.pub.type);
	EXPECT_EQ(256, c->crt.pub.rsa.n_len);
	EXPECT_EQ(65537, c->crt.pub.rsa.e);
	EXPECT_EQ(2, c->crt.n_dns);
	EXPECT_TRUE(span_is(&c->crt.dns[1], (const u8 *)"*.example.org", 13));
	EXPECT_EQ(2, c->crt.n_ip);
	EXPECT_TRUE(span_is(&c->crt.ip[0], (const u8 *)"\xc0\x00\x02\x01", 4));
	EXPECT_EQ(16, c->crt.ip[1].len);
	EXPECT_EQ(X509_KU_DIGITAL_SIGNATURE, c->crt.key_usage);
	EXPECT_EQ(X509_EKU_SERVER_AUTH | X509_EKU_CLIENT_AUTH,
		  c->crt.ext_key_usage);
	/* id-kp-serverAuth, id-kp-clientAuth, not id-kp-emailProtection */
	oid.p = (const u8 *)"\x2b\x06\x01\x05\x05\x07\x03\x01";
	oid.len = 8;
	EXPECT_TRUE(tlsx_x509_has_eku(&c->crt, &oid));
	oid.p = (const u8 *)"\x2b\x06\x01\x05\x05\x07\x03\x02";
	EXPECT_TRUE(tlsx_x509_has_eku(&c->crt, &oid));
	oid.p = (const u8 *)"\x2b\x06\x01\x05\x05\x07\x03\x04";
	EXPECT_FALSE(tlsx_x509_has_eku(&c->crt, &oid));
	oid.len = 7;	/* a prefix is another OID */
	EXPECT_FALSE(tlsx_x509_has_eku(&c->crt, &oid));
	EXPECT_FALSE(c->crt.ca);
	EXPECT_EQ(31536000, c->crt.not_after - c->crt.not_before);
	ASSERT_EQ(0, tlsx_x509_cn_string(&c->crt.issuer_cn, cn, sizeof(cn)));
	EXPECT_STREQ("rsapss Int", cn);
	EXPECT_EQ(-EINVAL, tlsx_x509_cn_string(&c->crt.issuer_cn, cn, 10));

	ASSERT_EQ(0, x509_test_load(c, "ed25519-int"));
	EXPECT_EQ(TLSX_SIG_ED25519, c->crt.sig_alg);
	EXPECT_EQ(TLSX_KEY_ED25519, c->crt.pub.type);
	EXPECT_TRUE(c->crt.ca);
	EXPECT_EQ(0, c->crt.path_len);
	EXPECT_EQ(X509_KU_KEY_CERT_SIGN | X509_KU_CRL_SIGN, c->crt.key_usage);
	/* No extendedKeyUsage: no purpose listed. */
	oid.len = 8;
	EXPECT_FALSE(tlsx_x509_has_eku(&c->crt, &oid));

	ASSERT_EQ(0, x509_test_load(c, "p256-ca"));
	EXPECT_EQ(TLSX_SIG_ECDSA_SHA256, c->crt.sig_alg);
	EXPECT_EQ(-1, c->crt.path_len);
	EXPECT_TRUE(span_is(&c->crt.issuer, c->crt.subject.p,
			    c->crt.subject.len));
	EXPECT_EQ(1, c->crt.serial.len);
	EXPECT_EQ(1, c->crt.serial.p[0]);

	/* An unknown critical extension: the whole certificate is refused. */
	EXPECT_EQ(-EOPNOTSUPP, x509_test_load(c, "crit-leaf"));
	EXPECT_STREQ("unknown critical extension", c->crt.error);
	free(c);
}

/* Certificates made here with what the parser must not accept. */
TEST(refused_by_openssl_options)
{
	static const struct {
		const char *opts;
		int err;
	} cases[] = {
		/* PSS with a salt other than the hash length */
		{ "-sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:48",
		  -EOPNOTSUPP },
		/* PSS with the default salt, 20 (so omitted) */
		{ "-sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:20",
		  -EOPNOTSUPP },
		/* MGF1 with another hash */
		{ "-sha256 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest -sigopt rsa_mgf1_md:sha512",
		  -EOPNOTSUPP },
		/* SHA-1 */
		{ "-sha1", -EOPNOTSUPP },
		/* and the control: PSS with SHA-512 is fine */
		{ "-sha512 -sigopt rsa_padding_mode:pss -sigopt rsa_pss_saltlen:digest",
		  0 },
	};
	struct x509_test_cert *c = malloc(sizeof(*c));
	unsigned int i;

	ASSERT_NE(NULL, c);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, x509_test_sh("openssl req -x509 -key rsa-leaf.key -subj /CN=x -days 1 %s -outform DER -out opt%u.der",
					  cases[i].opts, i));
		char name[16];

		snprintf(name, sizeof(name), "opt%u", i);
		EXPECT_EQ(cases[i].err, x509_test_load(c, name))
			TH_LOG("%s: %s", cases[i].opts, c->crt.error);
	}
	/* P-384 keys are not supported either. */
	ASSERT_EQ(0, x509_test_sh("openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-384 -nodes -keyout p384.key -subj /CN=x -days 1 -outform DER -out p384.der"));
	EXPECT_EQ(-EOPNOTSUPP, x509_test_load(c, "p384"));
	/* Nor RSA-1024. */
	ASSERT_EQ(0, x509_test_sh("openssl req -x509 -newkey rsa:1024 -nodes -keyout r1k.key -subj /CN=x -days 1 -outform DER -out r1k.der"));
	EXPECT_EQ(-EOPNOTSUPP, x509_test_load(c, "r1k"));
	free(c);
}

/* Hand-patched DER: each breaks one rule the parser enforces. */
TEST(refused_patched)
{
	struct x509_test_cert *c = malloc(sizeof(*c));
	struct x509_test_cert *d = malloc(sizeof(*d));
	size_t off;
	u8 *p;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, d);
	ASSERT_EQ(0, x509_test_load(c, "p256-leaf"));

	/* The outer algorithm SHA-384 while the inner says SHA-256. */
	memcpy(d, c, sizeof(*d));
	off = (size_t)(c->crt.tbs.p - c->der) + c->crt.tbs.len;
	p = d->der + off;
	ASSERT_EQ(0x30, p[0]);
	ASSERT_EQ(0x02, p[11]);
	p[11] = 0x03;
	EXPECT_EQ(-EBADMSG, tlsx_x509_parse(&d->crt, d->der, d->len));
	EXPECT_STREQ("signature algorithms differ", d->crt.error);

	/* Version v1 (explicit 0) with extensions. */
	memcpy(d, c, sizeof(*d));
	off = (size_t)(c->crt.tbs.p - c->der);
	p = d->der + off;
	/* tbs: 30 82 LL LL a0 03 02 01 02 */
	ASSERT_EQ(0xa0, p[4]);
	ASSERT_EQ(0x02, p[8]);
	p[8] = 0x00;
	EXPECT_EQ(-EBADMSG, tlsx_x509_parse(&d->crt, d->der, d->len));
	EXPECT_STREQ("extensions before v3", d->crt.error);
	p[8] = 0x03;	/* v4 */
	EXPECT_EQ(-EBADMSG, tlsx_x509_parse(&d->crt, d->der, d->len));
	EXPECT_STREQ("bad version", d->crt.error);

	/* A trailing byte after the certificate. */
	memcpy(d, c, sizeof(*d));
	d->der[d->len] = 0;
	EXPECT_EQ(-EBADMSG, tlsx_x509_parse(&d->crt, d->der, d->len + 1));

	/* The cA BOOLEAN as 0x01 (BER true, not DER). */
	memcpy(d, c, sizeof(*d));
	ASSERT_EQ(0, x509_test_load(d, "p256-ca"));
	p = memmem(d->der, d->len, "\x06\x03\x55\x1d\x13\x01\x01\xff", 8);
	ASSERT_NE(NULL, p);
	p = memmem(p + 8, 12, "\x01\x01\xff", 3);
	ASSERT_NE(NULL, p);
	p[2] = 0x01;
	EXPECT_EQ(-EBADMSG, tlsx_x509_parse(&d->crt, d->der, d->len));
	free(c);
	free(d);
}

/* Checks that every span of a parse lies in [base, base + len). */
static bool spans_inside(const struct tlsx_x509 *c, const u8 *base,
			 size_t len)
{
	const struct der_span *s[] = {
		&c->raw, &c->tbs, &c->serial, &c->sig, &c->issuer,
		&c->subject, &c->issuer_cn, &c->subject_cn, &c->spki,
	};
	unsigned int i;

#define INSIDE(sp) (!(sp)->len || ((sp)->p >= base && \
	(size_t)((sp)->p - base) + (sp)->len <= len))
	for (i = 0; i < ARRAY_SIZE(s); i++)
		if (!INSIDE(s[i]))
			return false;
	for (i = 0; i < c->n_dns; i++)
		if (!INSIDE(&c->dns[i]))
			return false;
	for (i = 0; i < c->n_ip; i++)
		if (!INSIDE(&c->ip[i]))
			return false;
#undef INSIDE
	return c->n_dns <= X509_MAX_DNS && c->n_ip <= X509_MAX_IP;
}

/*
 * Every prefix of every certificate is refused (the outer length no
 * longer fits), each with a reason; the prefix sits at the end of a
 * heap block of its exact size so ASan catches a read past it.
 */
TEST(truncated_everywhere)
{
	struct x509_test_cert *c = malloc(sizeof(*c));
	struct tlsx_x509 *crt = malloc(sizeof(*crt));
	unsigned int i, cases = 0;
	size_t len;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, crt);
	for (i = 0; i < ARRAY_SIZE(good_certs); i++) {
		ASSERT_EQ(0, x509_test_load(c, good_certs[i]));
		for (len = 0; len < c->len; len++) {
			u8 *buf = malloc(len ? len : 1);

			ASSERT_NE(NULL, buf);
			memcpy(buf, c->der, len);
			ASSERT_NE(0, tlsx_x509_parse(crt, buf, len));
			ASSERT_NE(NULL, crt->error);
			free(buf);
			cases++;
		}
	}
	TH_LOG("%u truncations refused", cases);
}

/*
 * Random flips of one to four bytes, 3000 per certificate: a clean
 * error with a reason, or a parse with every span inside the input (a
 * flip in a value, such as a key or signature byte, that no rule
 * constrains).
 */
TEST(byte_flips)
{
	struct x509_test_cert *c = malloc(sizeof(*c));
	struct tlsx_x509 *crt = malloc(sizeof(*crt));
	unsigned int i, k, j, parsed = 0, refused = 0;

	ASSERT_NE(NULL, c);
	ASSERT_NE(NULL, crt);
	for (i = 0; i < ARRAY_SIZE(good_certs); i++) {
		ASSERT_EQ(0, x509_test_load(c, good_certs[i]));
		for (k = 0; k < 3000; k++) {
			u8 *buf = malloc(c->len);
			unsigned int flips = 1 + (unsigned int)(rnd() % 4);

			ASSERT_NE(NULL, buf);
			memcpy(buf, c->der, c->len);
			for (j = 0; j < flips; j++)
				buf[rnd() % c->len] ^= (u8)(1 + rnd() % 255);
			if (tlsx_x509_parse(crt, buf, c->len)) {
				ASSERT_NE(NULL, crt->error);
				refused++;
			} else {
				ASSERT_TRUE(spans_inside(crt, buf, c->len));
				parsed++;
			}
			free(buf);
		}
	}
	TH_LOG("%u flipped certificates refused, %u parsed", refused, parsed);
	EXPECT_GT(refused, 0);
}

/*
 * Every certificate of the system's trust store: either parsed, with
 * every field as OpenSSL reads it, or refused as unsupported for a
 * reason OpenSSL confirms (a signature algorithm or key we do not do).
 */
TEST(system_trust_store)
{
	static char pem[65536];
	struct x509_test_cert *c = malloc(sizeof(*c));
	unsigned int ok = 0, unsupported = 0;
	struct dirent *de;
	DIR *dir = opendir("/etc/ssl/certs");

	ASSERT_NE(NULL, c);
	if (!dir)
		SKIP(return, "no /etc/ssl/certs");
	while ((de = readdir(dir))) {
		char path[512];
		size_t n, len = strlen(de->d_name);
		FILE *f;
		int err;
		X509 *x;

		if (len < 5 || strcmp(de->d_name + len - 4, ".pem"))
			continue;
		snprintf(path, sizeof(path), "/etc/ssl/certs/%s", de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		n = fread(pem, 1, sizeof(pem), f);
		fclose(f);
		if (pem_find(pem, n, "CERTIFICATE", c->der, sizeof(c->der),
			     &c->len))
			continue;
		x = openssl_parse(c->der, c->len);
		ASSERT_NE(NULL, x);
		err = tlsx_x509_parse(&c->crt, c->der, c->len);
		if (!err) {
			EXPECT_EQ(0, compare_with_openssl(_metadata,
							  de->d_name,
							  &c->crt, x));
			ok++;
		} else {
			EVP_PKEY *pk = X509_get0_pubkey(x);
			int type = EVP_PKEY_get_base_id(pk);
			bool known_key = type == EVP_PKEY_ED25519 ||
				(type == EVP_PKEY_RSA &&
				 EVP_PKEY_get_bits(pk) >= 2048 &&
				 EVP_PKEY_get_bits(pk) <= 4096) ||
				(type == EVP_PKEY_EC &&
				 EVP_PKEY_get_bits(pk) == 256);

			EXPECT_EQ(-EOPNOTSUPP, err)
				TH_LOG("%s: %s", de->d_name, c->crt.error);
			EXPECT_TRUE(!known_key ||
				    expected_sig_alg(x) == TLSX_SIG_NONE)
				TH_LOG("%s: %s", de->d_name, c->crt.error);
			unsupported++;
		}
		X509_free(x);
	}
	closedir(dir);
	free(c);
	TH_LOG("%u trust-store certificates parsed, %u unsupported", ok,
	       unsupported);
}

TEST_HARNESS_MAIN
