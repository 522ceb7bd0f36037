// SPDX-License-Identifier: GPL-2.0
/*
 * test_p256.c - P-256 (p256.h) on each field implementation ("generic",
 * and "adx" where the CPU has BMI2/ADX/AVX2), forced through
 * p256_curve_force():
 *
 *  - RFC 6979 A.2.5: the P-256 key, and the deterministic signatures of
 *    "sample" and "test" with SHA-256, SHA-384 and SHA-512 (each also
 *    checked independently: OpenSSL computes r from the RFC's k and
 *    verifies r, s);
 *  - k*G known answers (G, 2G, 3G, -G) and ECDH against G;
 *  - the fixed-base table, every entry recomputed with OpenSSL's EC code;
 *  - against OpenSSL (EVP): random keys give the same public key; ECDH
 *    both ways; tlsx signs (deterministic and hedged) and OpenSSL
 *    verifies, OpenSSL signs and tlsx verifies, for digests of 20 to 64
 *    bytes; flipped bits, wrong digests and wrong keys rejected;
 *  - edge scalars (1, 2, n-1, n-2, small and large) for k*G and ECDH;
 *  - digests at the edges of the reduction mod n (0, n - 1, n, n + 1,
 *    all ones, 64 and 20 bytes);
 *  - digests at the edges of the reduction mod n (0, n - 1, n, n + 1,
 *    all ones, 64 and 20 bytes);
 *  - a signature whose R has x in [n, p) (constructed with OpenSSL), the
 *    only case where verification compares x with r + n;
 *  - point validation (off the curve, coordinates >= p, the infinity,
 *    compressed, wrong lengths and prefixes) and scalar validation (0,
 *    n, above n), r and s out of range;
 *  - DER: round trip against OpenSSL's i2d_ECDSA_SIG and rejection of
 *    non-minimal, negative, long-form, truncated, padded encodings and of
 *    values outside [1, n-1].
 */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>

#include "kselftest_harness.h"
#include "p256/p256.h"
#include "p256/p256_internal.h"
#include "hash/sha2.h"

static const u8 n_be[32] = {
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
	0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
};

static const u8 p_be[32] = {
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
};

static int nibble(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	abort();
}

/* Hex (spaces allowed between bytes) into at most @max bytes; the count. */
static size_t unhex_n(u8 *out, const char *hex, size_t max)
{
	size_t n = 0;

	while (*hex && n < max) {
		if (*hex == ' ') {
			hex++;
			continue;
		}
		out[n++] = (u8)(nibble(hex[0]) << 4 | nibble(hex[1]));
		hex += 2;
	}
	return n;
}

static void unhex(u8 *out, const char *hex, size_t n)
{
	if (unhex_n(out, hex, n) != n)
		abort();
}

static void rnd(void *p, size_t n)
{
	if (RAND_bytes(p, (int)n) != 1)
		abort();
}

static u32 rnd32(void)
{
	u32 v;

	rnd(&v, sizeof(v));
	return v;
}

/* 32-byte big-endian a + b (mod 2^256), for building edge values. */
static void be_add_small(u8 out[32], const u8 a[32], int v)
{
	int i, c = v;

	for (i = 31; i >= 0; i--) {
		c += a[i];
		out[i] = (u8)c;
		c >>= 8;
	}
}

/* --- OpenSSL helpers (EVP, as a TLS stack would use it) -------------- */

static EVP_PKEY *ossl_key(const u8 *priv, const u8 pub[P256_POINT_SIZE])
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pk = NULL;
	BIGNUM *d = NULL;

	if (!b || !ctx)
		goto out;
	OSSL_PARAM_BLD_push_utf8_string(b, OSSL_PKEY_PARAM_GROUP_NAME,
					"prime256v1", 0);
	OSSL_PARAM_BLD_push_octet_string(b, OSSL_PKEY_PARAM_PUB_KEY, pub,
					 P256_POINT_SIZE);
	if (priv) {
		d = BN_bin2bn(priv, 32, NULL);
		OSSL_PARAM_BLD_push_BN(b, OSSL_PKEY_PARAM_PRIV_KEY, d);
	}
	params = OSSL_PARAM_BLD_to_param(b);
	if (!params || EVP_PKEY_fromdata_init(ctx) != 1 ||
	    EVP_PKEY_fromdata(ctx, &pk, priv ? EVP_PKEY_KEYPAIR :
			      EVP_PKEY_PUBLIC_KEY, params) != 1)
		pk = NULL;
out:
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(b);
	EVP_PKEY_CTX_free(ctx);
	BN_clear_free(d);
	return pk;
}

static EVP_PKEY *ossl_gen(u8 priv[32], u8 pub[P256_POINT_SIZE])
{
	EVP_PKEY *pk = EVP_EC_gen("P-256");
	BIGNUM *d = NULL;
	size_t len = 0;

	if (!pk)
		return NULL;
	if (EVP_PKEY_get_bn_param(pk, OSSL_PKEY_PARAM_PRIV_KEY, &d) != 1 ||
	    BN_bn2binpad(d, priv, 32) != 32 ||
	    EVP_PKEY_get_octet_string_param(pk, OSSL_PKEY_PARAM_PUB_KEY, pub,
					    P256_POINT_SIZE, &len) != 1 ||
	    len != P256_POINT_SIZE) {
		EVP_PKEY_free(pk);
		pk = NULL;
	}
	BN_clear_free(d);
	return pk;
}

static int ossl_derive(EVP_PKEY *priv, EVP_PKEY *peer, u8 out[32])
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(priv, NULL);
	size_t len = 32;
	int ok;

	ok = ctx && EVP_PKEY_derive_init(ctx) == 1 &&
	     EVP_PKEY_derive_set_peer(ctx, peer) == 1 &&
	     EVP_PKEY_derive(ctx, out, &len) == 1 && len == 32;
	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -1;
}

static int ossl_sign(EVP_PKEY *pk, const u8 *dg, size_t dlen, u8 *der,
		     size_t *der_len)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pk, NULL);
	int ok;

	*der_len = P256_SIG_DER_MAX;
	ok = ctx && EVP_PKEY_sign_init(ctx) == 1 &&
	     EVP_PKEY_sign(ctx, der, der_len, dg, dlen) == 1;
	EVP_PKEY_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* 1 valid, 0 invalid, -1 error. */
static int ossl_verify(EVP_PKEY *pk, const u8 *dg, size_t dlen,
		       const u8 *der, size_t der_len)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new(pk, NULL);
	int r = -1;

	if (ctx && EVP_PKEY_verify_init(ctx) == 1)
		r = EVP_PKEY_verify(ctx, der, der_len, dg, dlen);
	EVP_PKEY_CTX_free(ctx);
	return r == 1 ? 1 : (r == 0 ? 0 : -1);
}

/* x-coordinate of k*G mod n, with OpenSSL's EC code. */
static void ossl_r_of_k(u8 r[32], const u8 k[32])
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *pt = EC_POINT_new(g);
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *kb = BN_bin2bn(k, 32, NULL), *x = BN_new();

	EC_POINT_mul(g, pt, kb, NULL, NULL, ctx);
	EC_POINT_get_affine_coordinates(g, pt, x, NULL, ctx);
	BN_mod(x, x, EC_GROUP_get0_order(g), ctx);
	BN_bn2binpad(x, r, 32);
	BN_free(kb);
	BN_free(x);
	BN_CTX_free(ctx);
	EC_POINT_free(pt);
	EC_GROUP_free(g);
}

/* --- fixture: one variant per field implementation ------------------ */

FIXTURE(p256) {
	int unused;
};

FIXTURE_VARIANT(p256) {
	const char *impl;
};

FIXTURE_VARIANT_ADD(p256, generic) {
	.impl = "generic",
};

FIXTURE_VARIANT_ADD(p256, adx) {
	.impl = "adx",
};

FIXTURE_SETUP(p256)
{
	if (p256_curve_force(variant->impl))
		SKIP(return, "no %s implementation on this CPU",
		     variant->impl);
	ASSERT_STREQ(variant->impl, p256_curve()->name);
}

FIXTURE_TEARDOWN(p256)
{
}

/* RFC 6979 A.2.5 */
static const char rfc_priv[] =
	"C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721";
static const char rfc_ux[] =
	"60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6";
static const char rfc_uy[] =
	"7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299";

static const struct rfc6979_vec {
	const char *msg;
	enum tlsx_hash_alg alg;
	const char *k, *r, *s;
} rfc6979_vecs[] = {
	{ "sample", TLSX_HASH_SHA256,
	  "A6E3C57DD01ABE90086538398355DD4C3B17AA873382B0F24D6129493D8AAD60",
	  "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716",
	  "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8" },
	{ "sample", TLSX_HASH_SHA384,
	  "09F634B188CEFD98E7EC88B1AA9852D734D0BC272F7D2A47DECC6EBEB375AAD4",
	  "0EAFEA039B20E9B42309FB1D89E213057CBF973DC0CFC8F129EDDDC800EF7719",
	  "4861F0491E6998B9455193E34E7B0D284DDD7149A74B95B9261F13ABDE940954" },
	{ "sample", TLSX_HASH_SHA512,
	  "5FA81C63109BADB88C1F367B47DA606DA28CAD69AA22C4FE6AD7DF73A7173AA5",
	  "8496A60B5E9B47C825488827E0495B0E3FA109EC4568FD3F8D1097678EB97F00",
	  "2362AB1ADBE2B8ADF9CB9EDAB740EA6049C028114F2460F96554F61FAE3302FE" },
	{ "test", TLSX_HASH_SHA256,
	  "D16B6AE827F17175E040871A1C7EC3500192C4C92677336EC2537ACAEE0008E0",
	  "F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367",
	  "019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083" },
	{ "test", TLSX_HASH_SHA384,
	  "16AEFFA357260B04B1DD199693960740066C1A8F3E8EDD79070AA914D361B3B8",
	  "83910E8B48BB0C74244EBDF7F07A1C5413D61472BD941EF3920E623FBCCEBEB6",
	  "8DDBEC54CF8CD5874883841D712142A56A8D0F218F5003CB0296B6B509619F2C" },
	{ "test", TLSX_HASH_SHA512,
	  "6915D11632ACA3C40D5D51C08DAF9C555933819548784480E93499000D9F0B7F",
	  "461D93F31B6540894788FD206C07CFA0CC35F46FA3C91816FFF1040AD1581A04",
	  "39AF9F15DE0DB8D97E72719C74820D304CE5226E32DEDAE67519E840D1194E55" },
};

TEST_F(p256, rfc6979)
{
	u8 priv[32], pub[65], want_pub[65], sig[64], want[64], k[32], r[32];
	u8 dg[TLSX_HASH_MAX_DIGEST], der[P256_SIG_DER_MAX];
	EVP_PKEY *pk;
	size_t i, dlen, der_len;

	unhex(priv, rfc_priv, 32);
	want_pub[0] = 4;
	unhex(want_pub + 1, rfc_ux, 32);
	unhex(want_pub + 33, rfc_uy, 32);
	ASSERT_EQ(0, tlsx_p256_public(pub, priv));
	ASSERT_EQ(0, memcmp(pub, want_pub, 65));
	pk = ossl_key(priv, pub);
	ASSERT_NE(NULL, pk);

	for (i = 0; i < ARRAY_SIZE(rfc6979_vecs); i++) {
		const struct rfc6979_vec *v = &rfc6979_vecs[i];

		dlen = tlsx_hash_digest_size(v->alg);
		ASSERT_EQ(0, tlsx_hash(v->alg, v->msg, strlen(v->msg), dg));
		unhex(k, v->k, 32);
		unhex(want, v->r, 32);
		unhex(want + 32, v->s, 32);

		/* the vector itself: r from k, and (r, s) valid */
		ossl_r_of_k(r, k);
		EXPECT_EQ(0, memcmp(r, want, 32)) TH_LOG("vector %zu", i);
		der_len = tlsx_p256_sig_to_der(der, want);
		EXPECT_EQ(1, ossl_verify(pk, dg, dlen, der, der_len));

		ASSERT_EQ(0, tlsx_p256_sign(sig, priv, v->alg, dg, dlen,
					    false));
		EXPECT_EQ(0, memcmp(sig, want, 64)) TH_LOG("vector %zu", i);
		EXPECT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, dlen));

		/* hedged: a different, valid signature each time */
		ASSERT_EQ(0, tlsx_p256_sign(sig, priv, v->alg, dg, dlen, true));
		EXPECT_NE(0, memcmp(sig, want, 64));
		EXPECT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, dlen));
		der_len = tlsx_p256_sig_to_der(der, sig);
		EXPECT_EQ(1, ossl_verify(pk, dg, dlen, der, der_len));
	}
	EVP_PKEY_free(pk);
}

/* Every entry of p256_base_table against OpenSSL (implementation-free). */
TEST(base_table)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *pt = EC_POINT_new(g);
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *k = BN_new(), *x = BN_new(), *y = BN_new(), *p = BN_new();
	BIGNUM *rr = BN_new();
	u8 b[32], want[32];
	int i, j, c;

	ASSERT_EQ(1, EC_GROUP_get_curve(g, p, NULL, NULL, ctx));
	BN_one(rr);
	BN_lshift(rr, rr, 256);
	BN_mod(rr, rr, p, ctx);
	for (i = 0; i < P256_BASE_WINDOWS; i++) {
		for (j = 0; j < P256_BASE_POINTS; j++) {
			const struct p256_affine *e = &p256_base_table[i][j];

			BN_set_word(k, (unsigned long)j + 1);
			BN_lshift(k, k, 6 * i);
			ASSERT_EQ(1, EC_POINT_mul(g, pt, k, NULL, NULL, ctx));
			ASSERT_EQ(1, EC_POINT_get_affine_coordinates(g, pt, x,
								       y, ctx));
			for (c = 0; c < 2; c++) {
				BN_mod_mul(c ? y : x, c ? y : x, rr, p, ctx);
				BN_bn2binpad(c ? y : x, want, 32);
				p256_to_be(b, c ? e->y : e->x);
				ASSERT_EQ(0, memcmp(b, want, 32))
					TH_LOG("window %d point %d", i, j);
			}
		}
	}
	BN_free(k);
	BN_free(x);
	BN_free(y);
	BN_free(p);
	BN_free(rr);
	BN_CTX_free(ctx);
	EC_POINT_free(pt);
	EC_GROUP_free(g);
}

#define DIFF_KEYS	1000

/* Public keys and ECDH both ways against OpenSSL. */
TEST_F(p256, keys_and_ecdh)
{
	int i;

	for (i = 0; i < DIFF_KEYS; i++) {
		u8 a[32], apub[65], b[32], bpub[65], pub[65];
		u8 z1[32], z2[32], z3[32];
		EVP_PKEY *ka, *kb;

		ka = ossl_gen(a, apub);
		ASSERT_NE(NULL, ka);
		ASSERT_EQ(0, tlsx_p256_keygen(b, bpub));
		ASSERT_EQ(0, tlsx_p256_check_public(bpub, 65));
		kb = ossl_key(b, bpub);
		ASSERT_NE(NULL, kb);

		ASSERT_EQ(0, tlsx_p256_public(pub, a));
		ASSERT_EQ(0, memcmp(pub, apub, 65)) TH_LOG("key %d", i);

		ASSERT_EQ(0, tlsx_p256_ecdh(z1, a, bpub, 65));
		ASSERT_EQ(0, tlsx_p256_ecdh(z2, b, apub, 65));
		ASSERT_EQ(0, ossl_derive(kb, ka, z3));
		ASSERT_EQ(0, memcmp(z1, z3, 32)) TH_LOG("key %d", i);
		ASSERT_EQ(0, memcmp(z2, z3, 32)) TH_LOG("key %d", i);
		EVP_PKEY_free(ka);
		EVP_PKEY_free(kb);
	}
}

/*
 * Known answers for k*G: k = 1 is G itself (FIPS 186-4 D.1.2.3), k = 2
 * and 3 the published P-256 point-multiplication vectors, k = n - 1 is
 * -G = (Gx, p - Gy); and ECDH of a key with a peer at G gives the
 * x-coordinate of the key's own public point.
 */
static const struct {
	const char *k, *x, *y;
} mul_kats[] = {
	{ "0000000000000000000000000000000000000000000000000000000000000001",
	  "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
	  "4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5" },
	{ "0000000000000000000000000000000000000000000000000000000000000002",
	  "7CF27B188D034F7E8A52380304B51AC3C08969E277F21B35A60B48FC47669978",
	  "07775510DB8ED040293D9AC69F7430DBBA7DADE63CE982299E04B79D227873D1" },
	{ "0000000000000000000000000000000000000000000000000000000000000003",
	  "5ECBE4D1A6330A44C8F7EF951D4BF165E6C6B721EFADA985FB41661BC6E7FD6C",
	  "8734640C4998FF7E374B06CE1A64A2ECD82AB036384FB83D9A79B127A27D5032" },
	{ "FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632550",
	  "6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296",
	  "B01CBD1C01E58065711814B583F061E9D431CCA994CEA1313449BF97C840AE0A" },
};

TEST_F(p256, point_mul_kat)
{
	u8 k[32], pub[65], want[65], g[65], z[32], priv[32], ppub[65];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mul_kats); i++) {
		unhex(k, mul_kats[i].k, 32);
		want[0] = 4;
		unhex(want + 1, mul_kats[i].x, 32);
		unhex(want + 33, mul_kats[i].y, 32);
		ASSERT_EQ(0, tlsx_p256_public(pub, k));
		EXPECT_EQ(0, memcmp(pub, want, 65)) TH_LOG("kat %zu", i);
		EXPECT_EQ(0, tlsx_p256_check_public(want, 65));
	}
	/* ECDH with the generator as the peer is the public key's x */
	g[0] = 4;
	unhex(g + 1, mul_kats[0].x, 32);
	unhex(g + 33, mul_kats[0].y, 32);
	ASSERT_EQ(0, tlsx_p256_keygen(priv, ppub));
	ASSERT_EQ(0, tlsx_p256_ecdh(z, priv, g, 65));
	EXPECT_EQ(0, memcmp(z, ppub + 1, 32));
}

/* k*G and ECDH for scalars at the ends of the range, against OpenSSL. */
TEST_F(p256, edge_scalars)
{
	static const int small[] = { 1, 2, 3, 15, 16, 17, 31, 32, 33, 63, 64,
				     65 };
	u8 k[32], pub[65], want[65], z[32], zw[32], peer[32], ppub[65];
	EVP_PKEY *kp, *kk;
	size_t i;
	int pass;

	kp = ossl_gen(peer, ppub);
	ASSERT_NE(NULL, kp);
	for (pass = 0; pass < 4; pass++) {
		for (i = 0; i < ARRAY_SIZE(small); i++) {
			switch (pass) {
			case 0:		/* small */
				memset(k, 0, 32);
				k[31] = (u8)small[i];
				break;
			case 1:		/* n - small */
				be_add_small(k, n_be, -small[i]);
				break;
			case 2:		/* 2^255 +- small, all-ones */
				memset(k, 0, 32);
				k[0] = 0x80;
				be_add_small(k, k, small[i] - 32);
				break;
			default:	/* a long run of ones, then small */
				memset(k, 0xff, 32);
				k[0] = 0x7f;
				k[31] = (u8)small[i];
				break;
			}
			ASSERT_EQ(0, tlsx_p256_check_private(k));
			ASSERT_EQ(0, tlsx_p256_public(pub, k));
			kk = ossl_key(k, pub);
			ASSERT_NE(NULL, kk);
			/* OpenSSL's own k*G */
			{
				EC_GROUP *g = EC_GROUP_new_by_curve_name(
					NID_X9_62_prime256v1);
				EC_POINT *pt = EC_POINT_new(g);
				BIGNUM *kb = BN_bin2bn(k, 32, NULL);

				EC_POINT_mul(g, pt, kb, NULL, NULL, NULL);
				EC_POINT_point2oct(g, pt,
						   POINT_CONVERSION_UNCOMPRESSED,
						   want, 65, NULL);
				BN_free(kb);
				EC_POINT_free(pt);
				EC_GROUP_free(g);
			}
			EXPECT_EQ(0, memcmp(pub, want, 65))
				TH_LOG("pass %d small %d", pass, small[i]);
			ASSERT_EQ(0, tlsx_p256_ecdh(z, k, ppub, 65));
			ASSERT_EQ(0, ossl_derive(kk, kp, zw));
			EXPECT_EQ(0, memcmp(z, zw, 32))
				TH_LOG("pass %d small %d", pass, small[i]);
			/* and the peer's key times this point */
			ASSERT_EQ(0, tlsx_p256_ecdh(z, peer, pub, 65));
			EXPECT_EQ(0, memcmp(z, zw, 32));
			EVP_PKEY_free(kk);
		}
	}
	EVP_PKEY_free(kp);
}

#define DIFF_SIGS	1500

/* tlsx signs, OpenSSL verifies; OpenSSL signs, tlsx verifies; tampering. */
TEST_F(p256, sign_verify_vs_openssl)
{
	static const enum tlsx_hash_alg algs[] = {
		TLSX_HASH_SHA256, TLSX_HASH_SHA384, TLSX_HASH_SHA512,
	};
	int i;

	for (i = 0; i < DIFF_SIGS; i++) {
		u8 priv[32], pub[65], dg[64], sig[64], sig2[64];
		u8 der[P256_SIG_DER_MAX], der2[P256_SIG_DER_MAX];
		size_t dlen = 20 + (size_t)(i % 45), der_len, der2_len;
		enum tlsx_hash_alg alg = algs[i % 3];
		bool hedge = (i / 3) % 2;
		EVP_PKEY *pk;
		u32 bit;

		pk = ossl_gen(priv, pub);
		ASSERT_NE(NULL, pk);
		rnd(dg, dlen);

		ASSERT_EQ(0, tlsx_p256_sign(sig, priv, alg, dg, dlen, hedge));
		der_len = tlsx_p256_sig_to_der(der, sig);
		ASSERT_EQ(1, ossl_verify(pk, dg, dlen, der, der_len))
			TH_LOG("case %d dlen %zu", i, dlen);
		ASSERT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, dlen));
		/* deterministic unless hedged */
		ASSERT_EQ(0, tlsx_p256_sign(sig2, priv, alg, dg, dlen, hedge));
		ASSERT_EQ(hedge, memcmp(sig, sig2, 64) != 0);

		ASSERT_EQ(0, ossl_sign(pk, dg, dlen, der2, &der2_len));
		ASSERT_EQ(0, tlsx_p256_sig_from_der(sig2, der2, der2_len));
		ASSERT_EQ(0, tlsx_p256_verify(sig2, pub, 65, dg, dlen))
			TH_LOG("case %d dlen %zu", i, dlen);

		/* one flipped bit of r or s, of the digest; another key */
		bit = rnd32() % 512;
		sig2[bit / 8] ^= (u8)(1 << (bit % 8));
		EXPECT_NE(0, tlsx_p256_verify(sig2, pub, 65, dg, dlen));
		sig2[bit / 8] ^= (u8)(1 << (bit % 8));
		bit = rnd32() % (u32)(8 * dlen);
		/* bits beyond the leftmost 256 do not count (SEC 1) */
		if (bit < 256) {
			dg[bit / 8] ^= (u8)(1 << (bit % 8));
			EXPECT_EQ(-EBADMSG,
				  tlsx_p256_verify(sig2, pub, 65, dg, dlen));
			dg[bit / 8] ^= (u8)(1 << (bit % 8));
		}
		EXPECT_EQ(0, tlsx_p256_verify(sig2, pub, 65, dg, dlen));
		ASSERT_EQ(0, tlsx_p256_public(pub, sig)); /* r as a key */
		EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig2, pub, 65, dg, dlen));
		EVP_PKEY_free(pk);
	}
}

/*
 * Digests at the edges of the reduction mod n: 0, 1, n - 1, n, n + 1,
 * all ones (>= n, so e = h - n), longer than 256 bits with those
 * prefixes, and short ones; both directions against OpenSSL.
 */
TEST_F(p256, digest_edges)
{
	u8 priv[32], pub[65], dg[64], sig[64], der[P256_SIG_DER_MAX];
	size_t der_len, dlen;
	EVP_PKEY *pk;
	int c;

	pk = ossl_gen(priv, pub);
	ASSERT_NE(NULL, pk);
	for (c = 0; c < 14; c++) {
		memset(dg, 0, sizeof(dg));
		dlen = c < 7 ? 32 : 64;
		switch (c % 7) {
		case 0:
			break;
		case 1:
			dg[31] = 1;
			break;
		case 2:
			be_add_small(dg, n_be, -1);
			break;
		case 3:
			memcpy(dg, n_be, 32);
			break;
		case 4:
			be_add_small(dg, n_be, 1);
			break;
		case 5:
			memset(dg, 0xff, dlen);
			break;
		default:
			memset(dg, 0xff, 20);
			dlen = 20;
			break;
		}
		ASSERT_EQ(0, tlsx_p256_sign(sig, priv, TLSX_HASH_SHA256, dg,
					    dlen, c % 2));
		der_len = tlsx_p256_sig_to_der(der, sig);
		EXPECT_EQ(1, ossl_verify(pk, dg, dlen, der, der_len))
			TH_LOG("case %d", c);
		EXPECT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, dlen));
		ASSERT_EQ(0, ossl_sign(pk, dg, dlen, der, &der_len));
		ASSERT_EQ(0, tlsx_p256_sig_from_der(sig, der, der_len));
		EXPECT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, dlen))
			TH_LOG("case %d", c);
	}
	EVP_PKEY_free(pk);
}

/*
 * A valid signature whose R = u1 G + u2 Q has x in [n, p): pick such an
 * R (x = n + t, lifted), r = x - n, any s and e, and solve for the key:
 * Q = r^-1 (s R - e G).  Then w = s^-1 gives u1 G + u2 Q = R.
 */
TEST_F(p256, verify_x_above_n)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	const BIGNUM *n = EC_GROUP_get0_order(g);
	EC_POINT *rp = EC_POINT_new(g), *q = EC_POINT_new(g);
	BN_CTX *ctx = BN_CTX_new();
	BIGNUM *x = BN_new(), *r = BN_new(), *s = BN_new(), *e = BN_new();
	BIGNUM *ri = BN_new(), *a = BN_new(), *b = BN_new();
	u8 sig[64], pub[65], dg[32];
	int t, found = 0;

	for (t = 1; t < 200 && !found; t++) {
		BN_copy(x, n);
		BN_add_word(x, (unsigned long)t);
		found = EC_POINT_set_compressed_coordinates(g, rp, x, 0, ctx);
	}
	ASSERT_EQ(1, found);
	BN_sub(r, x, n);
	BN_rand_range(s, n);
	BN_rand_range(e, n);
	BN_mod_inverse(ri, r, n, ctx);
	BN_mod_mul(a, ri, e, n, ctx);
	BN_sub(a, n, a);			/* -e/r */
	BN_mod_mul(b, ri, s, n, ctx);		/* s/r */
	ASSERT_EQ(1, EC_POINT_mul(g, q, a, rp, b, ctx));
	ASSERT_EQ(65, EC_POINT_point2oct(g, q, POINT_CONVERSION_UNCOMPRESSED,
					 pub, 65, ctx));
	BN_bn2binpad(r, sig, 32);
	BN_bn2binpad(s, sig + 32, 32);
	BN_bn2binpad(e, dg, 32);
	EXPECT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, 32));
	dg[31] ^= 1;
	EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig, pub, 65, dg, 32));

	BN_free(x);
	BN_free(r);
	BN_free(s);
	BN_free(e);
	BN_free(ri);
	BN_free(a);
	BN_free(b);
	BN_CTX_free(ctx);
	EC_POINT_free(rp);
	EC_POINT_free(q);
	EC_GROUP_free(g);
}

TEST_F(p256, point_validation)
{
	u8 priv[32], pub[65], bad[66], z[32], sig[64], dg[32] = { 1 };
	int i;

	ASSERT_EQ(0, tlsx_p256_keygen(priv, pub));
	ASSERT_EQ(0, tlsx_p256_sign(sig, priv, TLSX_HASH_SHA256, dg, 32,
				    false));
	ASSERT_EQ(0, tlsx_p256_check_public(pub, 65));
	ASSERT_EQ(0, tlsx_p256_verify(sig, pub, 65, dg, 32));

	/* wrong lengths, the infinity's encoding, NULL */
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(pub, 64));
	memcpy(bad, pub, 65);
	bad[65] = 0;
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 66));
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(pub, 33));
	bad[0] = 0;
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 1));
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(NULL, 65));
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(pub, 0));
	memset(bad, 0, 65);
	bad[0] = 4;
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));	/* (0, 0) */

	/* prefixes other than 0x04 (compressed 02/03, hybrid 06/07) */
	for (i = 0; i < 256; i++) {
		if (i == 4)
			continue;
		memcpy(bad, pub, 65);
		bad[0] = (u8)i;
		EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));
	}
	memcpy(bad, pub, 33);
	bad[0] = 2 | (pub[64] & 1);
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 33));

	/* off the curve: every coordinate byte perturbed in turn */
	for (i = 1; i < 65; i++) {
		memcpy(bad, pub, 65);
		bad[i] ^= 0x01;
		EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));
		EXPECT_EQ(-EINVAL, tlsx_p256_ecdh(z, priv, bad, 65));
		EXPECT_EQ(-EINVAL, tlsx_p256_verify(sig, bad, 65, dg, 32));
	}

	/*
	 * Coordinates >= p: x + p and y + p would be the same point mod p;
	 * p itself for either, and all-ones.
	 */
	memcpy(bad, pub, 65);
	memcpy(bad + 1, p_be, 32);
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));
	memcpy(bad, pub, 65);
	memcpy(bad + 33, p_be, 32);
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));
	memset(bad + 1, 0xff, 64);
	EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));
	/* y' = y + p, when that fits in 256 bits (y < 2^256 - p) */
	{
		u64 y[4], pp[4], c = 0;

		p256_from_be(y, pub + 33);
		p256_from_be(pp, p_be);
		for (i = 0; i < 4; i++) {
			unsigned __int128 s = (unsigned __int128)y[i] + pp[i] +
					      c;

			y[i] = (u64)s;
			c = (u64)(s >> 64);
		}
		if (!c) {
			memcpy(bad, pub, 65);
			p256_to_be(bad + 33, y);
			EXPECT_EQ(-EINVAL, tlsx_p256_check_public(bad, 65));
			EXPECT_EQ(-EINVAL, tlsx_p256_ecdh(z, priv, bad, 65));
		}
	}
	/* the point's negation is on the curve: (x, p - y) */
	{
		u64 y[4], pp[4];
		unsigned __int128 d = 0;

		p256_from_be(y, pub + 33);
		p256_from_be(pp, p_be);
		for (i = 0; i < 4; i++) {
			d = (unsigned __int128)pp[i] - y[i] -
			    ((u64)(d >> 64) & 1);
			y[i] = (u64)d;
		}
		memcpy(bad, pub, 65);
		p256_to_be(bad + 33, y);
		EXPECT_EQ(0, tlsx_p256_check_public(bad, 65));
		/* -Q does not verify Q's signature */
		EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig, bad, 65, dg, 32));
	}
}

TEST_F(p256, scalar_validation)
{
	u8 k[32], pub[65], z[32], sig[64], ppriv[32], ppub[65], dg[32] = { 0 };
	u8 vsig[64];

	ASSERT_EQ(0, tlsx_p256_keygen(ppriv, ppub));
	ASSERT_EQ(0, tlsx_p256_sign(vsig, ppriv, TLSX_HASH_SHA256, dg, 32,
				    false));

	memset(k, 0, 32);			/* 0 */
	EXPECT_EQ(-EINVAL, tlsx_p256_check_private(k));
	EXPECT_EQ(-EINVAL, tlsx_p256_public(pub, k));
	EXPECT_EQ(-EINVAL, tlsx_p256_ecdh(z, k, ppub, 65));
	EXPECT_EQ(-EINVAL, tlsx_p256_sign(sig, k, TLSX_HASH_SHA256, dg, 32,
					  false));
	memcpy(k, n_be, 32);			/* n */
	EXPECT_EQ(-EINVAL, tlsx_p256_check_private(k));
	EXPECT_EQ(-EINVAL, tlsx_p256_public(pub, k));
	EXPECT_EQ(-EINVAL, tlsx_p256_ecdh(z, k, ppub, 65));
	be_add_small(k, n_be, 1);		/* n + 1 */
	EXPECT_EQ(-EINVAL, tlsx_p256_check_private(k));
	memset(k, 0xff, 32);			/* 2^256 - 1 */
	EXPECT_EQ(-EINVAL, tlsx_p256_check_private(k));
	EXPECT_EQ(-EINVAL, tlsx_p256_sign(sig, k, TLSX_HASH_SHA256, dg, 32,
					  false));
	be_add_small(k, n_be, -1);		/* n - 1 */
	EXPECT_EQ(0, tlsx_p256_check_private(k));
	memset(k, 0, 32);
	k[31] = 1;
	EXPECT_EQ(0, tlsx_p256_check_private(k));
	/* unknown hash */
	EXPECT_EQ(-EINVAL, tlsx_p256_sign(sig, k, 0, dg, 32, false));

	/* r, s out of [1, n-1] */
	memcpy(sig, vsig, 64);
	memset(sig, 0, 32);
	EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig, ppub, 65, dg, 32));
	memcpy(sig, vsig, 64);
	memset(sig + 32, 0, 32);
	EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig, ppub, 65, dg, 32));
	memcpy(sig, vsig, 64);
	memcpy(sig, n_be, 32);
	EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig, ppub, 65, dg, 32));
	memcpy(sig, vsig, 64);
	memcpy(sig + 32, n_be, 32);
	EXPECT_EQ(-EBADMSG, tlsx_p256_verify(sig, ppub, 65, dg, 32));
	/* s + n (same value mod n) is out of range too */
	{
		u64 s[4], nn[4];
		unsigned __int128 c = 0;
		int i;

		p256_from_be(s, vsig + 32);
		p256_from_be(nn, n_be);
		for (i = 0; i < 4; i++) {
			c = (unsigned __int128)s[i] + nn[i] + (u64)(c >> 64);
			s[i] = (u64)c;
		}
		if (!(u64)(c >> 64)) {
			memcpy(sig, vsig, 64);
			p256_to_be(sig + 32, s);
			EXPECT_EQ(-EBADMSG,
				  tlsx_p256_verify(sig, ppub, 65, dg, 32));
		}
	}
	/* (r, n - s) is also valid ECDSA */
	{
		u64 s[4], nn[4];
		unsigned __int128 d = 0;
		int i;

		p256_from_be(s, vsig + 32);
		p256_from_be(nn, n_be);
		for (i = 0; i < 4; i++) {
			d = (unsigned __int128)nn[i] - s[i] -
			    ((u64)(d >> 64) & 1);
			s[i] = (u64)d;
		}
		memcpy(sig, vsig, 64);
		p256_to_be(sig + 32, s);
		EXPECT_EQ(0, tlsx_p256_verify(sig, ppub, 65, dg, 32));
	}
	EXPECT_EQ(0, tlsx_p256_verify(vsig, ppub, 65, dg, 32));
}

/* --- DER ------------------------------------------------------------- */

static size_t ossl_der(u8 *der, const u8 sig[64])
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	u8 *p = der;
	int len;

	ECDSA_SIG_set0(s, BN_bin2bn(sig, 32, NULL),
		       BN_bin2bn(sig + 32, 32, NULL));
	len = i2d_ECDSA_SIG(s, &p);
	ECDSA_SIG_free(s);
	return len < 0 ? 0 : (size_t)len;
}

TEST(der_round_trip)
{
	u8 sig[64], back[64], der[P256_SIG_DER_MAX], want[80];
	size_t len, wlen;
	int i, j;

	for (i = 0; i < 3000; i++) {
		rnd(sig, 64);
		/* shapes: leading zero bytes, top bit set or not */
		for (j = 0; j < 2; j++) {
			u8 *v = sig + 32 * j;
			int z = (int)(rnd32() % 40);

			if (z < 32)
				memset(v, 0, (size_t)z);
			if (rnd32() % 2)
				v[z < 32 ? z : 0] |= 0x80;
			if (z >= 31)
				v[31] |= 1;
			v[0] &= 0x7f;	/* below n */
		}
		len = tlsx_p256_sig_to_der(der, sig);
		ASSERT_LE(len, P256_SIG_DER_MAX);
		wlen = ossl_der(want, sig);
		ASSERT_EQ(wlen, len);
		ASSERT_EQ(0, memcmp(der, want, len));
		ASSERT_EQ(0, tlsx_p256_sig_from_der(back, der, len));
		ASSERT_EQ(0, memcmp(back, sig, 64));
		/* every truncation and one byte more fail */
		for (j = 0; j < (int)len; j++)
			ASSERT_EQ(-EBADMSG,
				  tlsx_p256_sig_from_der(back, der, (size_t)j));
		der[len] = 0;
		ASSERT_EQ(-EBADMSG, tlsx_p256_sig_from_der(back, der, len + 1));
	}
	/* the longest: both top bits set */
	memset(sig, 0xff, 64);
	sig[0] = sig[32] = 0x80;
	ASSERT_EQ(72, tlsx_p256_sig_to_der(der, sig));
	ASSERT_EQ(0, tlsx_p256_sig_from_der(back, der, 72));
}

static const struct der_bad {
	const char *name, *hex;
} der_bads[] = {
	{ "empty", "" },
	{ "not a sequence", "31060201010201 01" },
	{ "long-form length", "3081060201010201 01" },
	{ "indefinite length", "3080020101020101 0000" },
	{ "length too long", "3007020101020101" },
	{ "length too short", "3005020101020101" },
	{ "trailing data", "300602010102010100" },
	{ "trailing in sequence", "3007020101020101 00" },
	{ "not an integer", "3006030101020101" },
	{ "zero-length integer", "30050200020101" },
	{ "r zero", "3006020100020101" },
	{ "s zero", "3006020101020100" },
	{ "negative r", "3006020181020101" },
	{ "negative s", "30060201010201ff" },
	{ "non-minimal r", "300702020001020101" },
	{ "non-minimal s", "300702010102020001" },
	{ "non-minimal zero", "300702020000020101" },
	{ "only one integer", "3003020101" },
	{ "three integers", "3009020101020101020101" },
	{ "integer length past end", "3006020101020201" },
	{ "r = n", "3026022100ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551020101" },
	{ "s = n", "3026020101022100ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551" },
	{ "r > 2^256", "3027022201000000000000000000000000000000000000000000000000000000000000000000020101" },
	{ "33 bytes no sign", "30260221010000000000000000000000000000000000000000000000000000000000000000020101" },
};

TEST(der_reject)
{
	u8 der[200], sig[64];
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(der_bads); i++) {
		len = unhex_n(der, der_bads[i].hex, sizeof(der));
		EXPECT_EQ(-EBADMSG, tlsx_p256_sig_from_der(sig, der, len))
			TH_LOG("%s", der_bads[i].name);
	}
	/* and the good one they are made from: r = s = 1 */
	unhex(der, "3006020101020101", 8);
	EXPECT_EQ(0, tlsx_p256_sig_from_der(sig, der, 8));
	EXPECT_EQ(1, sig[31]);
	EXPECT_EQ(1, sig[63]);
	/* n - 1 with its sign byte is accepted */
	unhex(der, "3026022100ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632550020101", 40);
	EXPECT_EQ(0, tlsx_p256_sig_from_der(sig, der, 40));
	EXPECT_EQ(-EBADMSG, tlsx_p256_sig_from_der(sig, NULL, 8));
}

TEST_HARNESS_MAIN
