// SPDX-License-Identifier: GPL-2.0
/*
 * test_hmac_hkdf.c - HMAC, HKDF and the TLS 1.3 key schedule helpers:
 *
 *  - RFC 4231 test cases 1-7 for HMAC-SHA-256/384/512 (case 5 truncated
 *    to 128 bits as the RFC gives it; 6 and 7 hash a 131-byte key);
 *  - RFC 5869 test cases 1-3 (SHA-256), extract and expand;
 *  - RFC 8448 section 3, the simple 1-RTT handshake's key schedule, byte
 *    for byte: early secret, handshake secret, client/server handshake
 *    traffic secrets, master secret, client/server application traffic
 *    secrets, exporter and resumption master secrets, finished keys and
 *    the four write keys and IVs;
 *  - against OpenSSL (EVP_MAC "HMAC", EVP_KDF "HKDF") with random keys,
 *    data, info and lengths for the three hashes, HMAC fed in pieces,
 *    HKDF-Expand-Label against OpenSSL's expand with the label built here;
 *  - errors: expand beyond 255 * HashLen, labels, contexts and lengths
 *    too long, unknown hashes; contexts wiped by final.
 * Each runs on the portable SHA code and on the fast one of this CPU.
 */
#include <openssl/core_names.h>
#include <openssl/kdf.h>

#include "kselftest_harness.h"
#include "hash/test/sha2_test.h"
#include "hash/hmac.h"
#include "hash/hkdf.h"

struct hmac_kat {
	const char *key;	/* hex; NULL: 131 bytes of 0xaa */
	const char *data;	/* hex */
	const char *mac[3];	/* SHA-256, SHA-384, SHA-512; hex */
	size_t trunc;		/* bytes given by the RFC, 0: whole */
};

/* RFC 4231 section 4. */
static const struct hmac_kat hmac_kats[] = {
	{	/* 4.2 test case 1 */
		"0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
		"4869205468657265",
		{ "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
		  "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
		  "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854" },
		0 },
	{	/* 4.3 test case 2 */
		"4a656665",
		"7768617420646f2079612077616e7420666f72206e6f7468696e673f",
		{ "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
		  "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
		  "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737" },
		0 },
	{	/* 4.4 test case 3 */
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"dddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddddd",
		{ "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
		  "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
		  "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb" },
		0 },
	{	/* 4.5 test case 4 */
		"0102030405060708090a0b0c0d0e0f10111213141516171819",
		"cdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcdcd",
		{ "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
		  "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
		  "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd" },
		0 },
	{	/* 4.6 test case 5, truncated to 128 bits */
		"0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c0c",
		"546573742057697468205472756e636174696f6e",
		{ "a3b6167473100ee06e0c796c2955552b",
		  "3abf34c3503b2a23a46efc619baef897",
		  "415fad6271580a531d4179bc891d87a6" },
		16 },
	{	/* 4.7 test case 6: 131-byte key */
		NULL,
		"54657374205573696e67204c6172676572205468616e20426c6f636b2d53697a65204b6579202d2048617368204b6579204669727374",
		{ "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
		  "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
		  "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598" },
		0 },
	{	/* 4.8 test case 7: 131-byte key and 152 bytes of data */
		NULL,
		"5468697320697320612074657374207573696e672061206c6172676572207468616e20626c6f636b2d73697a65206b657920616e642061206c6172676572207468616e20626c6f636b2d73697a6520646174612e20546865206b6579206e6565647320746f20626520686173686564206265666f7265206265696e6720757365642062792074686520484d414320616c676f726974686d2e",
		{ "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
		  "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
		  "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58" },
		0 },
};

static const enum tlsx_hash_alg algs[] = {
	TLSX_HASH_SHA256, TLSX_HASH_SHA384, TLSX_HASH_SHA512,
};

static const char *alg_name(enum tlsx_hash_alg alg)
{
	return alg == TLSX_HASH_SHA256 ? "SHA256" :
	       alg == TLSX_HASH_SHA384 ? "SHA384" : "SHA512";
}

/* OpenSSL's HMAC through EVP_MAC. */
static void ref_hmac(enum tlsx_hash_alg alg, const u8 *key, size_t key_len,
		     const u8 *data, size_t len, u8 *out)
{
	static const u8 empty[1];
	EVP_MAC *mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX *ctx = mac ? EVP_MAC_CTX_new(mac) : NULL;
	OSSL_PARAM params[2];
	size_t n;

	params[0] = OSSL_PARAM_construct_utf8_string(
		OSSL_MAC_PARAM_DIGEST, (char *)alg_name(alg), 0);
	params[1] = OSSL_PARAM_construct_end();
	if (!ctx || !EVP_MAC_init(ctx, key_len ? key : empty, key_len,
				  params) ||
	    !EVP_MAC_update(ctx, data, len) ||
	    !EVP_MAC_final(ctx, out, &n, TLSX_HASH_MAX_DIGEST) ||
	    n != tlsx_hash_digest_size(alg))
		abort();
	EVP_MAC_CTX_free(ctx);
	EVP_MAC_free(mac);
}

/* OpenSSL's HKDF through EVP_KDF; @mode an EVP_KDF_HKDF_MODE_*. */
static void ref_hkdf(enum tlsx_hash_alg alg, int mode, const u8 *salt,
		     size_t salt_len, const u8 *key, size_t key_len,
		     const u8 *info, size_t info_len, u8 *out, size_t out_len)
{
	EVP_KDF *kdf = EVP_KDF_fetch(NULL, "HKDF", NULL);
	EVP_KDF_CTX *ctx = kdf ? EVP_KDF_CTX_new(kdf) : NULL;
	OSSL_PARAM params[6], *p = params;

	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST,
						(char *)alg_name(alg), 0);
	*p++ = OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode);
	*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY,
						 (void *)key, key_len);
	if (salt_len)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT,
							 (void *)salt,
							 salt_len);
	if (info_len)
		*p++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO,
							 (void *)info,
							 info_len);
	*p = OSSL_PARAM_construct_end();
	if (!ctx || EVP_KDF_derive(ctx, out, out_len, params) <= 0)
		abort();
	EVP_KDF_CTX_free(ctx);
	EVP_KDF_free(kdf);
}

FIXTURE(hk) {
	int dummy;
};

FIXTURE_VARIANT(hk) {
	const char *sha256;
	const char *sha512;
};

FIXTURE_VARIANT_ADD(hk, generic) {
	.sha256 = "generic", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(hk, fast) {
	.sha256 = NULL, .sha512 = NULL,	/* this CPU's choice */
};

FIXTURE_SETUP(hk)
{
	int ret;

	if (variant->sha256) {
		ret = tlsx_sha2_force_impl(variant->sha256, variant->sha512);
		ASSERT_EQ(0, ret);
	} else {
		tlsx_sha2_force_impl(tlsx_cpu_features()->sha_ni ? "shani" :
				     "generic", NULL);
		if (tlsx_sha2_force_impl(NULL, "avx512") &&
		    tlsx_sha2_force_impl(NULL, "avx2"))
			tlsx_sha2_force_impl(NULL, "generic");
	}
	TH_LOG("SHA-256 %s, SHA-512 %s", tlsx_sha256_impl(),
	       tlsx_sha512_impl());
}

FIXTURE_TEARDOWN(hk)
{
}

TEST_F(hk, rfc4231)
{
	u8 key[131], data[256], want[64], got[64];
	size_t i, a, kl, dl, ml;

	for (i = 0; i < ARRAY_SIZE(hmac_kats); i++) {
		const struct hmac_kat *k = &hmac_kats[i];

		if (k->key) {
			kl = unhex(k->key, key, sizeof(key));
		} else {
			kl = 131;
			memset(key, 0xaa, kl);
		}
		dl = unhex(k->data, data, sizeof(data));
		for (a = 0; a < 3; a++) {
			struct tlsx_hmac m;
			u8 zero[sizeof(m)] = { 0 };

			ml = unhex(k->mac[a], want, sizeof(want));
			ASSERT_EQ(0, tlsx_hmac(algs[a], key, kl, data, dl,
					       got));
			EXPECT_EQ(0, memcmp(got, want, ml))
				TH_LOG("case %zu %s", i + 1, alg_name(algs[a]));
			if (!k->trunc)
				EXPECT_EQ(tlsx_hash_digest_size(algs[a]), ml);

			/* Streaming one byte at a time; final wipes. */
			memset(got, 0, sizeof(got));
			ASSERT_EQ(0, tlsx_hmac_init(&m, algs[a], key, kl));
			for (size_t j = 0; j < dl; j++)
				tlsx_hmac_update(&m, data + j, 1);
			tlsx_hmac_final(&m, got);
			EXPECT_EQ(0, memcmp(got, want, ml));
			EXPECT_EQ(0, memcmp(&m, zero, sizeof(m)));
		}
	}
}

struct hkdf_kat {
	const char *ikm, *salt, *info, *prk, *okm;
};

/* RFC 5869 appendix A.1-A.3 (SHA-256). */
static const struct hkdf_kat hkdf_kats[] = {
	{ "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
	  "000102030405060708090a0b0c",
	  "f0f1f2f3f4f5f6f7f8f9",
	  "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
	  "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865" },
	{ "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f404142434445464748494a4b4c4d4e4f",
	  "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9fa0a1a2a3a4a5a6a7a8a9aaabacadaeaf",
	  "b0b1b2b3b4b5b6b7b8b9babbbcbdbebfc0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedfe0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	  "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
	  "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87" },
	{ "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "",
	  "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
	  "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8" },
};

TEST_F(hk, rfc5869)
{
	u8 ikm[80], salt[80], info[80], prk[32], want_prk[32];
	u8 okm[82], want_okm[82];
	size_t i, il, sl, nl, ol;

	for (i = 0; i < ARRAY_SIZE(hkdf_kats); i++) {
		const struct hkdf_kat *k = &hkdf_kats[i];

		il = unhex(k->ikm, ikm, sizeof(ikm));
		sl = unhex(k->salt, salt, sizeof(salt));
		nl = unhex(k->info, info, sizeof(info));
		unhex(k->prk, want_prk, sizeof(want_prk));
		ol = unhex(k->okm, want_okm, sizeof(want_okm));
		ASSERT_EQ(0, tlsx_hkdf_extract(TLSX_HASH_SHA256,
					       sl ? salt : NULL, sl, ikm, il,
					       prk));
		EXPECT_EQ(0, memcmp(prk, want_prk, 32)) TH_LOG("case %zu", i);
		ASSERT_EQ(0, tlsx_hkdf_expand(TLSX_HASH_SHA256, prk, 32, info,
					      nl, okm, ol));
		EXPECT_EQ(0, memcmp(okm, want_okm, ol)) TH_LOG("case %zu", i);
	}
}

/* RFC 8448 section 3: the values of the simple 1-RTT handshake trace. */
#define R8448_EMPTY_HASH \
	"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define R8448_ECDHE \
	"8bd4054fb55b9d63fdfbacf9f04b9f0d35e6d63f537563efd46272900f89492d"
#define R8448_EARLY \
	"33ad0a1c607ec03b09e6cd9893680ce210adf300aa1f2660e1b22e10f170f92a"
#define R8448_DERIVED_HS \
	"6f2615a108c702c5678f54fc9dbab69716c076189c48250cebeac3576c3611ba"
#define R8448_HS \
	"1dc826e93606aa6fdc0aadc12f741b01046aa6b99f691ed221a9f0ca043fbeac"
#define R8448_HASH_SH \
	"860c06edc07858ee8e78f0e7428c58edd6b43f2ca3e6e95f02ed063cf0e1cad8"
#define R8448_C_HS \
	"b3eddb126e067f35a780b3abf45e2d8f3b1a950738f52e9600746a0e27a55a21"
#define R8448_S_HS \
	"b67b7d690cc16c4e75e54213cb2d37b4e9c912bcded9105d42befd59d391ad38"
#define R8448_DERIVED_MS \
	"43de77e0c77713859a944db9db2590b53190a65b3ee2e4f12dd7a0bb7ce254b4"
#define R8448_MASTER \
	"18df06843d13a08bf2a449844c5f8a478001bc4d4c627984d5a41da8d0402919"
#define R8448_HASH_SF \
	"9608102a0f1ccc6db6250b7b7e417b1a000eaada3daae4777a7686c9ff83df13"
#define R8448_C_AP \
	"9e40646ce79a7f9dc05af8889bce6552875afa0b06df0087f792ebb7c17504a5"
#define R8448_S_AP \
	"a11af9f05531f856ad47116b45a950328204b4f44bfb6b3a4b4f1f3fcb631643"
#define R8448_EXP \
	"fe22f881176eda18eb8f44529e6792c50c9a3f89452f68d8ae311b4309d3cf50"
#define R8448_HASH_CF \
	"209145a96ee8e2a122ff810047cc952684658d6049e86429426db87c54ad143d"
#define R8448_RES \
	"7df235f2031d2a051287d02b0241b0bfdaf86cc856231f2d5aba46c434ec196c"
#define R8448_C_FINISHED \
	"b80ad01015fb2f0bd65ff7d4da5d6bf83f84821d1f87fdc7d3c75b5a7b42d9c4"
#define R8448_S_FINISHED \
	"008d3b66f816ea559f96b537e885c31fc068bf492c652f01f288a1d8cdc19fc8"

struct r8448_key {
	const char *secret, *key, *iv;
};

static const struct r8448_key r8448_keys[] = {
	{ R8448_S_HS, "3fce516009c21727d0f2e4e86ee403bc",
	  "5d313eb2671276ee13000b30" },
	{ R8448_C_HS, "dbfaa693d1762c5b666af5d950258d01",
	  "5bd3c71b836e0b76bb73265f" },
	{ R8448_S_AP, "9f02283b6c9c07efc26bb9f2ac92e356",
	  "cf782b88dd83549aadf1e984" },
	{ R8448_C_AP, "17422dda596ed5d9acd890e3c63f5051",
	  "5b78923dee08579033e523d9" },
};

static bool hex_is(const u8 *p, const char *hex)
{
	u8 want[64];
	size_t n = unhex(hex, want, sizeof(want));

	return !memcmp(p, want, n);
}

TEST_F(hk, rfc8448_simple_1rtt)
{
	const enum tlsx_hash_alg h = TLSX_HASH_SHA256;
	u8 zeros[32] = { 0 }, empty_hash[32], ecdhe[32], th[32];
	u8 early[32], derived[32], hs[32], c_hs[32], s_hs[32], master[32];
	u8 c_ap[32], s_ap[32], out[32], secret[32], key[16], iv[12];
	size_t i;

	tlsx_sha256("", 0, empty_hash);
	ASSERT_TRUE(hex_is(empty_hash, R8448_EMPTY_HASH));
	unhex(R8448_ECDHE, ecdhe, sizeof(ecdhe));

	/* Early Secret = HKDF-Extract(salt 0, IKM 32 zero octets) */
	ASSERT_EQ(0, tlsx_hkdf_extract(h, NULL, 0, zeros, 32, early));
	EXPECT_TRUE(hex_is(early, R8448_EARLY));
	ASSERT_EQ(0, tlsx_derive_secret(h, early, "derived", empty_hash,
					derived));
	EXPECT_TRUE(hex_is(derived, R8448_DERIVED_HS));
	ASSERT_EQ(0, tlsx_hkdf_extract(h, derived, 32, ecdhe, 32, hs));
	EXPECT_TRUE(hex_is(hs, R8448_HS));

	unhex(R8448_HASH_SH, th, sizeof(th));
	ASSERT_EQ(0, tlsx_derive_secret(h, hs, "c hs traffic", th, c_hs));
	EXPECT_TRUE(hex_is(c_hs, R8448_C_HS));
	ASSERT_EQ(0, tlsx_derive_secret(h, hs, "s hs traffic", th, s_hs));
	EXPECT_TRUE(hex_is(s_hs, R8448_S_HS));

	ASSERT_EQ(0, tlsx_derive_secret(h, hs, "derived", empty_hash,
					derived));
	EXPECT_TRUE(hex_is(derived, R8448_DERIVED_MS));
	ASSERT_EQ(0, tlsx_hkdf_extract(h, derived, 32, zeros, 32, master));
	EXPECT_TRUE(hex_is(master, R8448_MASTER));

	unhex(R8448_HASH_SF, th, sizeof(th));
	ASSERT_EQ(0, tlsx_derive_secret(h, master, "c ap traffic", th, c_ap));
	EXPECT_TRUE(hex_is(c_ap, R8448_C_AP));
	ASSERT_EQ(0, tlsx_derive_secret(h, master, "s ap traffic", th, s_ap));
	EXPECT_TRUE(hex_is(s_ap, R8448_S_AP));
	ASSERT_EQ(0, tlsx_derive_secret(h, master, "exp master", th, out));
	EXPECT_TRUE(hex_is(out, R8448_EXP));
	unhex(R8448_HASH_CF, th, sizeof(th));
	ASSERT_EQ(0, tlsx_derive_secret(h, master, "res master", th, out));
	EXPECT_TRUE(hex_is(out, R8448_RES));

	/* finished_key = HKDF-Expand-Label(traffic secret, "finished", "") */
	ASSERT_EQ(0, tlsx_hkdf_expand_label(h, c_hs, "finished", NULL, 0, out,
					    32));
	EXPECT_TRUE(hex_is(out, R8448_C_FINISHED));
	ASSERT_EQ(0, tlsx_hkdf_expand_label(h, s_hs, "finished", NULL, 0, out,
					    32));
	EXPECT_TRUE(hex_is(out, R8448_S_FINISHED));

	/* The write keys and IVs (AES-128-GCM: 16 and 12 bytes). */
	for (i = 0; i < ARRAY_SIZE(r8448_keys); i++) {
		unhex(r8448_keys[i].secret, secret, sizeof(secret));
		ASSERT_EQ(0, tlsx_hkdf_expand_label(h, secret, "key", NULL, 0,
						    key, sizeof(key)));
		EXPECT_TRUE(hex_is(key, r8448_keys[i].key)) TH_LOG("%zu", i);
		ASSERT_EQ(0, tlsx_hkdf_expand_label(h, secret, "iv", NULL, 0,
						    iv, sizeof(iv)));
		EXPECT_TRUE(hex_is(iv, r8448_keys[i].iv)) TH_LOG("%zu", i);
	}
}

/* Random keys (across the block sizes) and data, whole and in pieces. */
TEST_F(hk, hmac_vs_openssl)
{
	u8 key[300], data[1200], want[64], got[64];
	u64 rng = 0x4d4143;
	size_t i, bad = 0;

	for (i = 0; i < 3 * 1000; i++) {
		enum tlsx_hash_alg alg = algs[i % 3];
		size_t ds = tlsx_hash_digest_size(alg);
		size_t kl = i < 3 * 300 ? i / 3 : rng_below(&rng, 301);
		size_t dl = rng_below(&rng, sizeof(data) + 1), off = 0, n;
		struct tlsx_hmac m;

		rng_fill(&rng, key, kl);
		rng_fill(&rng, data, dl);
		ref_hmac(alg, key, kl, data, dl, want);
		ASSERT_EQ(0, tlsx_hmac(alg, key, kl, data, dl, got));
		bad += !!memcmp(got, want, ds);
		memset(got, 0, sizeof(got));
		ASSERT_EQ(0, tlsx_hmac_init(&m, alg, key, kl));
		while (off < dl) {
			n = rng_below(&rng, 200);
			n = n > dl - off ? dl - off : n;
			tlsx_hmac_update(&m, data + off, n);
			off += n;
		}
		tlsx_hmac_final(&m, got);
		bad += !!memcmp(got, want, ds);
		if (bad) {
			TH_LOG("%s key %zu data %zu differs", alg_name(alg),
			       kl, dl);
			break;
		}
	}
	EXPECT_EQ(0u, bad);
}

/* Extract and expand separately and together, random sizes. */
TEST_F(hk, hkdf_vs_openssl)
{
	u8 salt[200], ikm[200], info[300], prk[64], want_prk[64];
	u8 *okm = malloc(255 * 64), *want = malloc(255 * 64);
	u64 rng = 0x484b4446;
	size_t i, bad = 0;

	ASSERT_NE(NULL, okm);
	ASSERT_NE(NULL, want);
	for (i = 0; i < 3 * 300; i++) {
		enum tlsx_hash_alg alg = algs[i % 3];
		size_t ds = tlsx_hash_digest_size(alg);
		size_t sl = rng_below(&rng, sizeof(salt) + 1);
		size_t kl = 1 + rng_below(&rng, sizeof(ikm));
		size_t nl = rng_below(&rng, sizeof(info) + 1);
		size_t ol = i % 30 == 0 ? 255 * ds :
			    1 + rng_below(&rng, i % 5 ? 3 * ds : 255 * ds);

		if (i % 7 == 0)
			sl = 0;
		rng_fill(&rng, salt, sl);
		rng_fill(&rng, ikm, kl);
		rng_fill(&rng, info, nl);

		ref_hkdf(alg, EVP_KDF_HKDF_MODE_EXTRACT_ONLY, salt, sl, ikm,
			 kl, NULL, 0, want_prk, ds);
		ASSERT_EQ(0, tlsx_hkdf_extract(alg, sl ? salt : NULL, sl, ikm,
					       kl, prk));
		bad += !!memcmp(prk, want_prk, ds);

		ref_hkdf(alg, EVP_KDF_HKDF_MODE_EXPAND_ONLY, NULL, 0, prk, ds,
			 info, nl, want, ol);
		ASSERT_EQ(0, tlsx_hkdf_expand(alg, prk, ds, info, nl, okm,
					      ol));
		bad += !!memcmp(okm, want, ol);

		/* Expand also takes a PRK of another length (HMAC key). */
		ref_hkdf(alg, EVP_KDF_HKDF_MODE_EXPAND_ONLY, NULL, 0, ikm, kl,
			 info, nl, want, ol);
		ASSERT_EQ(0, tlsx_hkdf_expand(alg, ikm, kl, info, nl, okm,
					      ol));
		bad += !!memcmp(okm, want, ol);
		if (bad) {
			TH_LOG("%s salt %zu ikm %zu info %zu out %zu differs",
			       alg_name(alg), sl, kl, nl, ol);
			break;
		}
	}
	free(okm);
	free(want);
	EXPECT_EQ(0u, bad);
}

/*
 * HKDF-Expand-Label against OpenSSL's expand with the HkdfLabel built
 * here from RFC 8446 section 7.1, random labels, contexts and lengths.
 */
TEST_F(hk, expand_label_vs_openssl)
{
	u8 secret[64], ctx[255], info[600], out[600], want[600];
	char label[250];
	u64 rng = 0x4c41424c;
	size_t i, bad = 0;

	for (i = 0; i < 3 * 300; i++) {
		enum tlsx_hash_alg alg = algs[i % 3];
		size_t ds = tlsx_hash_digest_size(alg);
		size_t ll = i == 3 ? 249 : rng_below(&rng, 40);
		size_t cl = i == 4 ? 255 : rng_below(&rng, 80);
		size_t ol = rng_below(&rng, sizeof(out) + 1), n = 0, j;

		rng_fill(&rng, secret, ds);
		rng_fill(&rng, ctx, cl);
		for (j = 0; j < ll; j++)
			label[j] = (char)('a' + rng_below(&rng, 26));
		label[ll] = 0;
		info[n++] = (u8)(ol >> 8);
		info[n++] = (u8)ol;
		info[n++] = (u8)(6 + ll);
		memcpy(info + n, "tls13 ", 6);
		n += 6;
		memcpy(info + n, label, ll);
		n += ll;
		info[n++] = (u8)cl;
		memcpy(info + n, ctx, cl);
		n += cl;
		if (ol)
			ref_hkdf(alg, EVP_KDF_HKDF_MODE_EXPAND_ONLY, NULL, 0,
				 secret, ds, info, n, want, ol);
		ASSERT_EQ(0, tlsx_hkdf_expand_label(alg, secret, label, ctx, cl,
						    out, ol));
		bad += !!memcmp(out, want, ol);
		if (ol == ds) {
			u8 d[64];

			ASSERT_EQ(0, tlsx_derive_secret(alg, secret, label,
							ctx, d));
			bad += cl == ds && memcmp(d, want, ds);
		}
		if (bad) {
			TH_LOG("%s label %zu ctx %zu out %zu differs",
			       alg_name(alg), ll, cl, ol);
			break;
		}
	}
	EXPECT_EQ(0u, bad);
}

TEST(errors)
{
	static char long_label[251];
	u8 prk[64] = { 1 }, out[256 * 64], ctx[256] = { 0 };
	size_t a;

	memset(long_label, 'x', 250);
	for (a = 0; a < 3; a++) {
		enum tlsx_hash_alg alg = algs[a];
		size_t ds = tlsx_hash_digest_size(alg);

		EXPECT_EQ(0, tlsx_hkdf_expand(alg, prk, ds, NULL, 0, out,
					      255 * ds));
		EXPECT_EQ(-EINVAL, tlsx_hkdf_expand(alg, prk, ds, NULL, 0, out,
						    255 * ds + 1));
		EXPECT_EQ(0, tlsx_hkdf_expand(alg, prk, ds, NULL, 0, out, 0));
		/* "tls13 " + 249 bytes is the longest label. */
		EXPECT_EQ(0, tlsx_hkdf_expand_label(alg, prk,
						    long_label + 1, NULL, 0,
						    out, 16));
		EXPECT_EQ(-EINVAL, tlsx_hkdf_expand_label(alg, prk, long_label,
							  NULL, 0, out, 16));
		EXPECT_EQ(0, tlsx_hkdf_expand_label(alg, prk, "key", ctx, 255,
						    out, 16));
		EXPECT_EQ(-EINVAL, tlsx_hkdf_expand_label(alg, prk, "key", ctx,
							  256, out, 16));
		EXPECT_EQ(-EINVAL, tlsx_hkdf_expand_label(alg, prk, "key",
							  NULL, 0, out,
							  65536));
		/* Within 65535 but beyond 255 * HashLen. */
		EXPECT_EQ(-EINVAL, tlsx_hkdf_expand_label(alg, prk, "key",
							  NULL, 0, out,
							  255 * ds + 1));
		EXPECT_EQ(-EINVAL, tlsx_derive_secret(alg, prk, long_label,
						      prk, out));
	}
	EXPECT_EQ(-EINVAL, tlsx_hmac(0, prk, 32, "x", 1, out));
	EXPECT_EQ(-EINVAL, tlsx_hkdf_extract(7, NULL, 0, prk, 32, out));
	EXPECT_EQ(-EINVAL, tlsx_hkdf_expand(0, prk, 32, NULL, 0, out, 16));
	EXPECT_EQ(-EINVAL, tlsx_hkdf_expand_label(4, prk, "key", NULL, 0, out,
						  16));
	EXPECT_EQ(-EINVAL, tlsx_derive_secret(0, prk, "derived", prk, out));
}

TEST_HARNESS_MAIN
