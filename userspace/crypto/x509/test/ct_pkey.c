// SPDX-License-Identifier: GPL-2.0
/*
 * ct_pkey.c - constant-time check of private-key decoding, run under
 * valgrind's memcheck (tools/ctgrind, from `make test-unit`).
 *
 * PEM: the base64 body of a key file is marked undefined.  pem.c marks
 * each character's layout class (whitespace, '=', '-' or digit) defined
 * through its tlsx_pem_declassify() seam, so memcheck reports any branch
 * or address that depends on a digit's value: the decoder must compute
 * the 6-bit values with masks, never a table.  The first twelve
 * characters stay defined: they encode the DER header (SEQUENCE, length,
 * version), which the "Proc-Type:" test reads and which is structure.
 *
 * DER: in a PKCS#8 Ed25519 key the seed, in a SEC 1 P-256 key the
 * scalar, in a PKCS#1 RSA key every INTEGER's value after its first two
 * bytes (which the DER minimality check reads, der.c says why that is
 * harmless) are marked undefined.  What is checked is this code: the
 * DER reader and pkey.c.  The primitives pkey.c calls to check a key
 * (P-256 range check and public key, Ed25519 expansion, RSA's key
 * check) have their own ct_ programs with their own seams, which a
 * library build does not have; here they are stand-ins that compute on
 * a defined copy with OpenSSL and give back a public result (a public
 * key, a verdict) and, for Ed25519, a secret expanded key.  The derived
 * public keys are marked defined through pkey.c's tlsx_pkey_declassify()
 * seam.  This program compiles pem.c and pkey.c itself for those seams,
 * as ct_aead.c does with aead.c.
 *
 * Natively (not under valgrind) the tests skip: nothing is checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "test/ct_test.h"

#define tlsx_pem_declassify(p, n) PUBLIC((p), (n))
#define tlsx_pkey_declassify(p, n) PUBLIC((p), (n))
#include "x509/pem.c"
#include "x509/pkey.c"

/* --- stand-ins for the primitives (see above) ----------------------- */

int tlsx_p256_check_private(const u8 priv[P256_SCALAR_SIZE])
{
	static const u8 n[32] = {
		0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84,
		0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
	};
	static const u8 zero[32];
	u8 copy[32];
	int ok;

	memcpy(copy, priv, 32);
	PUBLIC(copy, 32);
	ok = memcmp(copy, zero, 32) && memcmp(copy, n, 32) < 0;
	memzero_explicit(copy, 32);
	return ok ? 0 : -EINVAL;
}

int tlsx_p256_public(u8 pub[P256_POINT_SIZE], const u8 priv[P256_SCALAR_SIZE])
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *p = EC_POINT_new(g);
	BIGNUM *b;
	u8 copy[32];

	memcpy(copy, priv, 32);
	PUBLIC(copy, 32);
	b = BN_bin2bn(copy, 32, NULL);
	EC_POINT_mul(g, p, b, NULL, NULL, NULL);
	EC_POINT_point2oct(g, p, POINT_CONVERSION_UNCOMPRESSED, pub, 65, NULL);
	BN_clear_free(b);
	EC_POINT_free(p);
	EC_GROUP_free(g);
	memzero_explicit(copy, 32);
	return 0;
}

void tlsx_ed25519_key_from_seed(struct tlsx_ed25519_key *k,
				const u8 seed[ED25519_SEED_SIZE])
{
	EVP_PKEY *pk;
	size_t n = 32;

	memcpy(k->seed, seed, 32);
	PUBLIC(k->seed, 32);
	pk = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL, k->seed, 32);
	EVP_PKEY_get_raw_public_key(pk, k->pub, &n);
	EVP_PKEY_free(pk);
	SECRET(k->seed, 32);
	SECRET(k->scalar, sizeof(k->scalar) + sizeof(k->prefix));
}

/* The RSA check is ct_rsa.c's: here every key passes. */
int tlsx_rsa_check_private(const struct tlsx_rsa_private *k)
{
	(void)k;
	return 0;
}


/* Runs a command and reads its standard output into @buf. */
static size_t run(const char *cmd, void *buf, size_t max)
{
	FILE *f = popen(cmd, "r");
	size_t n;

	if (!f)
		return 0;
	n = fread(buf, 1, max, f);
	if (pclose(f))
		return 0;
	return n;
}

/* Random bytes as a PEM body: 64-column lines, CRLF on some. */
TEST(base64_body)
{
	static u8 raw[700], out[700];
	static char b64[1000], text[1200];
	size_t len, n, i, j;

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	for (len = 1; len < sizeof(raw); len += 37) {
		for (i = 0; i < len; i++)
			raw[i] = (u8)(i * 131 + len);
		EVP_EncodeBlock((u8 *)b64, raw, (int)len);
		for (i = 0, j = 0; b64[i]; i++) {
			if (i && i % 64 == 0) {
				if (len & 1)
					text[j++] = '\r';
				text[j++] = '\n';
			}
			text[j++] = b64[i];
		}
		SECRET(text, j);
		ASSERT_EQ(0, pem_base64_decode(out, sizeof(out), &n, text, j));
		PUBLIC(out, n);
		PUBLIC(text, j);
		ASSERT_EQ(len, n);
		ASSERT_EQ(0, memcmp(out, raw, len));
	}
}

/* A whole PEM key file from openssl through pem_next(). */
TEST(pem_key_file)
{
	static char pem[8192];
	static u8 der[8192];
	const char *pos, *body;
	struct pem_block b;
	size_t n;

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	n = run("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null",
		pem, sizeof(pem));
	ASSERT_GT(n, 100);
	body = strchr(pem, '\n') + 1;
	/* All but the header's first twelve characters and the END line. */
	SECRET(body + 12, (size_t)(strstr(body, "-----END") - body) - 12);
	pos = pem;
	ASSERT_EQ(1, pem_next(&pos, pem + n, &b, der, sizeof(der)));
	PUBLIC(pem, n);
	PUBLIC(der, b.der_len);
	EXPECT_STREQ("PRIVATE KEY", b.label);
	EXPECT_GT(b.der_len, 1000);
	memzero_explicit(der, sizeof(der));
}

/* Marks @n bytes after @off undefined (a value inside the DER). */
static void secret_at(u8 *der, size_t off, size_t n)
{
	SECRET(der + off, n);
}

TEST(ed25519_pkcs8)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	u8 der[128], seed[32];
	size_t n;

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	ASSERT_NE(NULL, k);
	n = run("openssl genpkey -algorithm ED25519 -outform DER 2>/dev/null",
		der, sizeof(der));
	/* 30 2e 02 01 00 30 05 06 03 2b 65 70 04 22 04 20 <seed> */
	ASSERT_EQ(48, n);
	memcpy(seed, der + 16, 32);
	secret_at(der, 16, 32);
	ASSERT_EQ(0, tlsx_private_key_from_der(k, der, n));
	PUBLIC(k, sizeof(*k));
	EXPECT_EQ(TLSX_KEY_ED25519, k->type);
	EXPECT_EQ(0, memcmp(k->ed25519.seed, seed, 32));
	tlsx_private_key_wipe(k);
	free(k);
}

TEST(p256_sec1)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	u8 der[256], priv[32];
	size_t n;

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	ASSERT_NE(NULL, k);
	n = run("openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 2>/dev/null | openssl ec -outform DER 2>/dev/null",
		der, sizeof(der));
	/* 30 77 02 01 01 04 20 <scalar> a0 0a ... a1 44 03 42 00 <point> */
	ASSERT_EQ(121, n);
	ASSERT_EQ(0x20, der[6]);
	memcpy(priv, der + 7, 32);
	secret_at(der, 7, 32);
	ASSERT_EQ(0, tlsx_private_key_from_der(k, der, n));
	PUBLIC(k, sizeof(*k));
	EXPECT_EQ(TLSX_KEY_P256, k->type);
	EXPECT_EQ(0, memcmp(k->p256.priv, priv, 32));
	/* The public key in the file matched the one computed. */
	EXPECT_EQ(0, memcmp(k->p256.pub, der + n - 65, 65));
	tlsx_private_key_wipe(k);
	free(k);
}

TEST(rsa_pkcs1)
{
	struct tlsx_private_key *k = malloc(sizeof(*k));
	struct der_cursor c, seq;
	struct der_span v;
	u8 der[2048];
	unsigned int i;
	size_t n;

	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing would be checked");
	ASSERT_NE(NULL, k);
	n = run("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 2>/dev/null | openssl rsa -traditional -outform DER 2>/dev/null",
		der, sizeof(der));
	ASSERT_GT(n, 1000);
	/* Walk the nine INTEGERs; d, p, q, dP, dQ, qInv are secret. */
	der_init(&c, der, n);
	ASSERT_EQ(0, der_enter(&c, DER_SEQUENCE, &seq));
	for (i = 0; i < 9; i++) {
		ASSERT_EQ(0, der_read(&seq, DER_INTEGER, &v));
		if (i >= 3 && v.len > 2)
			secret_at(der, (size_t)(v.p - der) + 2, v.len - 2);
	}
	ASSERT_EQ(0, tlsx_private_key_from_der(k, der, n));
	PUBLIC(k, sizeof(*k));
	EXPECT_EQ(TLSX_KEY_RSA, k->type);
	EXPECT_EQ(256, k->rsa.pub.n_len);
	tlsx_private_key_wipe(k);
	free(k);
}

TEST_HARNESS_MAIN
