// SPDX-License-Identifier: GPL-2.0
/*
 * test_pkey.c - private keys written by the openssl command in every
 * format we read (PKCS#8 for P-256, Ed25519, RSA and RSA-PSS; SEC 1 with
 * and without its public key and with "EC PARAMETERS" before it; PKCS#1
 * from `openssl pkey -traditional`; DER and PEM of each): each loads, its
 * secret equals what libcrypto reads from the same file, its public half
 * equals the SubjectPublicKeyInfo openssl writes, and a signature made
 * with it by tlsx verifies with OpenSSL.  Then encrypted and unsupported
 * keys, inconsistent keys, every truncation and random byte flips.
 */
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "kselftest_harness.h"
#include "x509/test/x509_test.h"
#include "x509/pkey.h"

static u64 rng_state = 0xfeedfacecafebeefull;

static u64 rnd(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Key files made once (after x509_test.h's certificates). */
static const char *const key_cmds[] = {
	"openssl pkey -in p256-leaf.key -out p256-pkcs8.pem",
	"openssl pkcs8 -topk8 -nocrypt -in p256-leaf.key -outform DER -out p256-pkcs8.der",
	"openssl ec -in p256-leaf.key -out p256-sec1.pem",
	"openssl ec -in p256-leaf.key -outform DER -out p256-sec1.der",
	"openssl ec -in p256-leaf.key -no_public -out p256-sec1-nopub.pem",
	"openssl ecparam -name prime256v1 -genkey -out p256-ecparam.pem",
	"openssl pkey -in p256-leaf.key -traditional -out p256-trad.pem",
	"openssl pkey -in ed25519-leaf.key -out ed25519-pkcs8.pem",
	"openssl pkcs8 -topk8 -nocrypt -in ed25519-leaf.key -outform DER -out ed25519-pkcs8.der",
	"openssl pkey -in rsa-leaf.key -out rsa-pkcs8.pem",
	"openssl pkcs8 -topk8 -nocrypt -in rsa-leaf.key -outform DER -out rsa-pkcs8.der",
	"openssl pkey -in rsa-leaf.key -traditional -out rsa-pkcs1.pem",
	"openssl rsa -in rsa-leaf.key -traditional -outform DER -out rsa-pkcs1.der",
	"openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -out rsapss-pkcs8.pem",
	"openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:3072 -pkeyopt rsa_keygen_pubexp:3 -out rsa3072-pkcs8.pem",
};

/* Each file, its type, and the PEM from which OpenSSL reads it. */
static const struct {
	const char *file;
	enum tlsx_key_type type;
	const char *pem;
} keys[] = {
	{ "p256-leaf.key", TLSX_KEY_P256, "p256-leaf.key" },
	{ "p256-pkcs8.pem", TLSX_KEY_P256, "p256-leaf.key" },
	{ "p256-pkcs8.der", TLSX_KEY_P256, "p256-leaf.key" },
	{ "p256-sec1.pem", TLSX_KEY_P256, "p256-leaf.key" },
	{ "p256-sec1.der", TLSX_KEY_P256, "p256-leaf.key" },
	{ "p256-sec1-nopub.pem", TLSX_KEY_P256, "p256-leaf.key" },
	{ "p256-ecparam.pem", TLSX_KEY_P256, "p256-ecparam.pem" },
	{ "p256-trad.pem", TLSX_KEY_P256, "p256-leaf.key" },
	{ "ed25519-pkcs8.pem", TLSX_KEY_ED25519, "ed25519-leaf.key" },
	{ "ed25519-pkcs8.der", TLSX_KEY_ED25519, "ed25519-leaf.key" },
	{ "rsa-pkcs8.pem", TLSX_KEY_RSA, "rsa-leaf.key" },
	{ "rsa-pkcs8.der", TLSX_KEY_RSA, "rsa-leaf.key" },
	{ "rsa-pkcs1.pem", TLSX_KEY_RSA, "rsa-leaf.key" },
	{ "rsa-pkcs1.der", TLSX_KEY_RSA, "rsa-leaf.key" },
	{ "rsapss-pkcs8.pem", TLSX_KEY_RSA, "rsapss-pkcs8.pem" },
	{ "rsa3072-pkcs8.pem", TLSX_KEY_RSA, "rsa3072-pkcs8.pem" },
};

static bool made;

static void make_keys(struct __test_metadata *_metadata)
{
	unsigned int i;

	if (made)
		return;
	for (i = 0; i < ARRAY_SIZE(key_cmds); i++) {
		const char *cmd = key_cmds[i];

		ASSERT_EQ(0, x509_test_sh("%s", cmd)) TH_LOG("%s", cmd);
	}
	made = true;
}

/* Made before the tests fork, so each test sees the files. */
__attribute__((constructor)) static void make_keys_early(void)
{
	unsigned int i;

	x509_test_setup();	/* whichever constructor runs first */
	for (i = 0; i < ARRAY_SIZE(key_cmds); i++)
		if (x509_test_sh("%s", key_cmds[i]))
			return;
	made = true;
}

static int load_key(struct tlsx_private_key *k, const char *file)
{
	static u8 buf[16384];
	size_t n = x509_test_read(file, buf, sizeof(buf) - 1);
	int err;

	if (!n)
		return -ENOENT;
	if (strstr(file, ".der"))
		err = tlsx_private_key_from_der(k, buf, n);
	else
		err = tlsx_private_key_from_pem(k, (const char *)buf, n);
	memzero_explicit(buf, sizeof(buf));
	return err;
}

static EVP_PKEY *openssl_key(const char *file)
{
	char path[256];
	EVP_PKEY *pk;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", x509_test_dir, file);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	pk = PEM_read_PrivateKey(f, NULL, NULL, NULL);
	fclose(f);
	return pk;
}

static bool bn_param_is(EVP_PKEY *pk, const char *name, const u8 *v,
			size_t len)
{
	BIGNUM *bn = NULL;
	u8 buf[1024];
	int n;
	bool eq;

	if (!EVP_PKEY_get_bn_param(pk, name, &bn))
		return false;
	n = BN_bn2bin(bn, buf);
	eq = (size_t)n == len && !memcmp(buf, v, len);
	BN_clear_free(bn);
	return eq;
}

/* The secret parts equal libcrypto's reading of the same key. */
static bool same_secret(const struct tlsx_private_key *k, EVP_PKEY *pk)
{
	u8 buf[64];
	size_t len = sizeof(buf);
	const u8 *p = k->p256.priv;
	size_t plen = 32;

	switch (k->type) {
	case TLSX_KEY_P256:
		/* OpenSSL's BIGNUM drops leading zero bytes. */
		while (plen > 1 && !*p) {
			p++;
			plen--;
		}
		return bn_param_is(pk, OSSL_PKEY_PARAM_PRIV_KEY, p, plen);
	case TLSX_KEY_ED25519:
		return EVP_PKEY_get_raw_private_key(pk, buf, &len) &&
		       len == 32 && !memcmp(buf, k->ed25519.seed, 32);
	case TLSX_KEY_RSA:
		return bn_param_is(pk, OSSL_PKEY_PARAM_RSA_FACTOR1, k->rsa.p,
				   k->rsa.p_len) &&
		       bn_param_is(pk, OSSL_PKEY_PARAM_RSA_FACTOR2, k->rsa.q,
				   k->rsa.q_len) &&
		       bn_param_is(pk, OSSL_PKEY_PARAM_RSA_EXPONENT1,
				   k->rsa.dp, k->rsa.dp_len) &&
		       bn_param_is(pk, OSSL_PKEY_PARAM_RSA_EXPONENT2,
				   k->rsa.dq, k->rsa.dq_len) &&
		       bn_param_is(pk, OSSL_PKEY_PARAM_RSA_COEFFICIENT1,
				   k->rsa.qinv, k->rsa.qinv_len) &&
		       bn_param_is(pk, OSSL_PKEY_PARAM_RSA_N, k->rsa.pub.n,
				   k->rsa.pub.n_len);
	default:
		return false;
	}
}

/* The public half equals the SPKI libcrypto writes for the key. */
static bool same_public(const struct tlsx_private_key *k, EVP_PKEY *pk)
{
	struct tlsx_public_key ours, theirs;
	u8 *der = NULL;
	int n = i2d_PUBKEY(pk, &der);
	bool eq;

	eq = n > 0 && !tlsx_private_key_public(k, &ours) &&
	     !tlsx_spki_parse(&theirs, der, (size_t)n) &&
	     tlsx_public_key_equal(&ours, &theirs);
	OPENSSL_free(der);
	return eq;
}

/* tlsx signs @msg with @k; OpenSSL verifies with @pk's public half. */
static bool openssl_verifies(const struct tlsx_private_key *k, EVP_PKEY *pk,
			     const u8 *msg, size_t len)
{
	u8 digest[32], sig[RSA_MAX_BYTES], raw[P256_SIG_SIZE];
	EVP_PKEY_CTX *ctx = NULL;
	EVP_MD_CTX *md = NULL;
	size_t sig_len = 0;
	bool ok = false;

	tlsx_sha256(msg, len, digest);
	switch (k->type) {
	case TLSX_KEY_P256:
		if (tlsx_p256_sign(raw, k->p256.priv, TLSX_HASH_SHA256, digest,
				   32, true))
			return false;
		sig_len = tlsx_p256_sig_to_der(sig, raw);
		break;
	case TLSX_KEY_ED25519:
		tlsx_ed25519_sign(sig, &k->ed25519, msg, len);
		md = EVP_MD_CTX_new();
		ok = md && EVP_DigestVerifyInit(md, NULL, NULL, NULL, pk) == 1 &&
		     EVP_DigestVerify(md, sig, ED25519_SIG_SIZE, msg, len) == 1;
		EVP_MD_CTX_free(md);
		return ok;
	case TLSX_KEY_RSA:
		sig_len = k->rsa.pub.n_len;
		if (tlsx_rsa_pss_sign(sig, sig_len, &k->rsa, TLSX_HASH_SHA256,
				      digest, 32))
			return false;
		break;
	default:
		return false;
	}
	ctx = EVP_PKEY_CTX_new(pk, NULL);
	ok = ctx && EVP_PKEY_verify_init(ctx) == 1 &&
	     EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) == 1;
	if (ok && k->type == TLSX_KEY_RSA)
		ok = EVP_PKEY_CTX_set_rsa_padding(ctx,
						  RSA_PKCS1_PSS_PADDING) == 1 &&
		     EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx,
						      RSA_PSS_SALTLEN_DIGEST) == 1;
	ok = ok && EVP_PKEY_verify(ctx, sig, sig_len, digest, 32) == 1;
	EVP_PKEY_CTX_free(ctx);
	return ok;
}

TEST(every_format_loads_and_signs)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	unsigned int i, j;
	u8 msg[200];

	ASSERT_NE(NULL, k);
	make_keys(_metadata);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		EVP_PKEY *pk = openssl_key(keys[i].pem);

		ASSERT_NE(NULL, pk) TH_LOG("%s", keys[i].pem);
		ASSERT_EQ(0, load_key(k, keys[i].file)) TH_LOG("%s",
							      keys[i].file);
		EXPECT_EQ(keys[i].type, k->type) TH_LOG("%s", keys[i].file);
		EXPECT_TRUE(same_secret(k, pk)) TH_LOG("%s", keys[i].file);
		EXPECT_TRUE(same_public(k, pk)) TH_LOG("%s", keys[i].file);
		for (j = 0; j < 3; j++) {
			size_t len = (size_t)(rnd() % sizeof(msg));
			size_t b;

			for (b = 0; b < len; b++)
				msg[b] = (u8)rnd();
			EXPECT_TRUE(openssl_verifies(k, pk, msg, len))
				TH_LOG("%s", keys[i].file);
		}
		tlsx_private_key_wipe(k);
		EXPECT_EQ(TLSX_KEY_NONE, k->type);
		EVP_PKEY_free(pk);
	}
	free(k);
}

TEST(public_keys_from_spki)
{
	static const char *const pems[] = {
		"p256-leaf.key", "ed25519-leaf.key", "rsa-leaf.key",
		"rsapss-pkcs8.pem",
	};
	static const enum tlsx_key_type types[] = {
		TLSX_KEY_P256, TLSX_KEY_ED25519, TLSX_KEY_RSA, TLSX_KEY_RSA,
	};
	struct tlsx_public_key pub;
	unsigned int i;

	make_keys(_metadata);
	for (i = 0; i < ARRAY_SIZE(pems); i++) {
		EVP_PKEY *pk = openssl_key(pems[i]);
		u8 *der = NULL;
		int n = i2d_PUBKEY(pk, &der);

		ASSERT_GT(n, 0);
		ASSERT_EQ(0, tlsx_spki_parse(&pub, der, (size_t)n));
		EXPECT_EQ(types[i], pub.type);
		EXPECT_EQ(i == 3, pub.rsa_pss_only);
		/* A trailing byte is refused. */
		der = OPENSSL_realloc(der, (size_t)n + 1);
		der[n] = 0;
		EXPECT_EQ(-EBADMSG, tlsx_spki_parse(&pub, der, (size_t)n + 1));
		OPENSSL_free(der);
		EVP_PKEY_free(pk);
	}
}

TEST(refused_keys)
{
	static const struct {
		const char *cmd, *file;
		int err;
	} cases[] = {
		{ "openssl pkcs8 -topk8 -v2 aes-128-cbc -passout pass:x -in p256-leaf.key -out enc8.pem",
		  "enc8.pem", -EOPNOTSUPP },
		{ "openssl rsa -aes128 -passout pass:x -traditional -in rsa-leaf.key -out enc1.pem",
		  "enc1.pem", -EOPNOTSUPP },
		{ "openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out p384.pem",
		  "p384.pem", -EOPNOTSUPP },
		{ "openssl genpkey -algorithm X25519 -out x25519.pem",
		  "x25519.pem", -EOPNOTSUPP },
		{ "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out r1k.pem",
		  "r1k.pem", -EOPNOTSUPP },
		{ "openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_primes:3 -out r3p.pem",
		  "r3p.pem", -EOPNOTSUPP },
		{ "true", "p256-leaf.pem", -ENOENT },	/* a certificate */
	};
	struct tlsx_private_key *k = malloc(sizeof(*k));
	unsigned int i;

	ASSERT_NE(NULL, k);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, x509_test_sh("%s", cases[i].cmd))
			TH_LOG("%s", cases[i].cmd);
		EXPECT_EQ(cases[i].err, load_key(k, cases[i].file))
			TH_LOG("%s", cases[i].file);
		EXPECT_EQ(TLSX_KEY_NONE, k->type);
	}
	free(k);
}

/* Keys whose parts disagree are refused, not loaded. */
TEST(inconsistent_keys)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	u8 der[4096];
	size_t n;
	u8 *p;

	ASSERT_NE(NULL, k);
	make_keys(_metadata);
	/* SEC 1 with the public key's last byte changed. */
	n = x509_test_read("p256-sec1.der", der, sizeof(der));
	ASSERT_GT(n, 0);
	ASSERT_EQ(0, tlsx_private_key_from_der(k, der, n));
	der[n - 1] ^= 1;
	EXPECT_EQ(-EINVAL, tlsx_private_key_from_der(k, der, n));
	/* The scalar set to zero, then to n (both out of [1, n-1]). */
	der[n - 1] ^= 1;
	p = der + 7;	/* 30 77 02 01 01 04 20 <32 bytes> */
	ASSERT_EQ(0x20, p[-1]);
	memset(p, 0, 32);
	EXPECT_EQ(-EINVAL, tlsx_private_key_from_der(k, der, n));
	memcpy(p, "\xff\xff\xff\xff\x00\x00\x00\x00\xff\xff\xff\xff\xff\xff"
		  "\xff\xff\xbc\xe6\xfa\xad\xa7\x17\x9e\x84\xf3\xb9\xca\xc2"
		  "\xfc\x63\x25\x51", 32);
	EXPECT_EQ(-EINVAL, tlsx_private_key_from_der(k, der, n));
	/* An RSA key with a changed prime. */
	n = x509_test_read("rsa-pkcs1.der", der, sizeof(der));
	ASSERT_GT(n, 0);
	ASSERT_EQ(0, tlsx_private_key_from_der(k, der, n));
	der[n / 2] ^= 0x40;
	EXPECT_NE(0, tlsx_private_key_from_der(k, der, n));
	EXPECT_EQ(TLSX_KEY_NONE, k->type);
	free(k);
}

static const char *const der_keys[] = {
	"p256-pkcs8.der", "p256-sec1.der", "ed25519-pkcs8.der",
	"rsa-pkcs8.der", "rsa-pkcs1.der",
};

/* Every prefix of every DER key, at the end of an exact heap block. */
TEST(truncated_everywhere)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	unsigned int i, cases = 0;
	u8 der[4096];
	size_t n, len;

	ASSERT_NE(NULL, k);
	make_keys(_metadata);
	for (i = 0; i < ARRAY_SIZE(der_keys); i++) {
		n = x509_test_read(der_keys[i], der, sizeof(der));
		ASSERT_GT(n, 0);
		for (len = 0; len < n; len++) {
			u8 *buf = malloc(len ? len : 1);

			ASSERT_NE(NULL, buf);
			memcpy(buf, der, len);
			ASSERT_NE(0, tlsx_private_key_from_der(k, buf, len));
			ASSERT_EQ(TLSX_KEY_NONE, k->type);
			free(buf);
			cases++;
		}
	}
	TH_LOG("%u truncated keys refused", cases);
}

/*
 * Random flips of one to three bytes: refused (and wiped) or loaded as
 * a consistent key (a flip in a part no check covers, such as an
 * attribute).  RSA keys get fewer (each load checks the key with a
 * signature).
 */
TEST(byte_flips)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	unsigned int i, t, j, loaded = 0, refused = 0;
	u8 der[4096];
	size_t n;

	ASSERT_NE(NULL, k);
	make_keys(_metadata);
	for (i = 0; i < ARRAY_SIZE(der_keys); i++) {
		unsigned int tries = strstr(der_keys[i], "rsa") ? 300 : 3000;

		n = x509_test_read(der_keys[i], der, sizeof(der));
		ASSERT_GT(n, 0);
		for (t = 0; t < tries; t++) {
			u8 *buf = malloc(n);
			unsigned int flips = 1 + (unsigned int)(rnd() % 3);

			ASSERT_NE(NULL, buf);
			memcpy(buf, der, n);
			for (j = 0; j < flips; j++)
				buf[rnd() % n] ^= (u8)(1 + rnd() % 255);
			if (tlsx_private_key_from_der(k, buf, n)) {
				ASSERT_EQ(TLSX_KEY_NONE, k->type);
				refused++;
			} else {
				struct tlsx_public_key pub;

				ASSERT_EQ(0, tlsx_private_key_public(k, &pub));
				loaded++;
			}
			tlsx_private_key_wipe(k);
			free(buf);
		}
	}
	TH_LOG("%u flipped keys refused, %u loaded", refused, loaded);
	EXPECT_GT(refused, 0);
}

TEST_HARNESS_MAIN
