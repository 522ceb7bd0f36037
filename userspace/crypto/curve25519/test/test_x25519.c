// SPDX-License-Identifier: GPL-2.0
/*
 * test_x25519.c - X25519 (x25519.h) on every implementation this CPU
 * has (c25519_impl.h: generic, mulx):
 *
 *  - RFC 7748 section 5.2 vectors, the iterated vector after 1 and 1,000
 *    rounds (1,000,000 with TLSX_SLOW_TESTS=1, else skipped), section
 *    6.1 Alice/Bob;
 *  - small-order peer points give -EINVAL and an all-zero output;
 *  - a non-canonical u (p <= u < 2^255) acts as u - p, bit 255 is
 *    ignored;
 *  - differential against OpenSSL's EVP_PKEY_X25519, both ways: random
 *    keys' public keys, shared secrets computed by each side from the
 *    other's public key, random 32-byte peer values;
 *  - the fixed-base public key equals the ladder on u = 9.
 */
#include <stdlib.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "curve25519/x25519.h"
#include "rand/random.h"
#include "curve25519/c25519_impl.h"

#define DIFF_KEYS	2000

static void unhex(u8 *out, const char *hex, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned int b;

		if (sscanf(hex + 2 * i, "%2x", &b) != 1)
			abort();
		out[i] = (u8)b;
	}
}

static void ossl_public(u8 pub[32], const u8 priv[32])
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL,
						   priv, 32);
	size_t n = 32;

	if (!k || !EVP_PKEY_get_raw_public_key(k, pub, &n) || n != 32)
		abort();
	EVP_PKEY_free(k);
}

/* OpenSSL's X25519(priv, peer): 0, or -1 when it refuses (all zero). */
static int ossl_derive(u8 out[32], const u8 priv[32], const u8 peer[32])
{
	EVP_PKEY *a = EVP_PKEY_new_raw_private_key(EVP_PKEY_X25519, NULL,
						   priv, 32);
	EVP_PKEY *b = EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL,
						  peer, 32);
	EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(a, NULL);
	size_t n = 32;
	int ret = -1;

	if (!a || !b || !c)
		abort();
	if (EVP_PKEY_derive_init(c) > 0 && EVP_PKEY_derive_set_peer(c, b) > 0 &&
	    EVP_PKEY_derive(c, out, &n) > 0 && n == 32)
		ret = 0;
	EVP_PKEY_CTX_free(c);
	EVP_PKEY_free(a);
	EVP_PKEY_free(b);
	return ret;
}

static void rnd(void *p, size_t n)
{
	if (tlsx_random_bytes(p, n))
		abort();
}

FIXTURE(x25519) {
	const struct c25519_impl *impl;
};

FIXTURE_VARIANT(x25519) {
	const struct c25519_impl *impl;
};

FIXTURE_VARIANT_ADD(x25519, generic) {
	.impl = &c25519_generic,
};

FIXTURE_VARIANT_ADD(x25519, mulx) {
	.impl = &c25519_mulx,
};

FIXTURE_SETUP(x25519)
{
	self->impl = variant->impl;
	if (!c25519_impl_usable(self->impl))
		SKIP(return, "no %s implementation on this CPU",
		     self->impl->name);
}

FIXTURE_TEARDOWN(x25519)
{
}

/* RFC 7748 section 5.2: the two single computations. */
TEST_F(x25519, rfc7748_vectors)
{
	static const char *const v[2][3] = {
		{ "a546e36bf0527c9d3b16154b82465edd62144c0ac1fc5a18506a2244ba449ac4",
		  "e6db6867583030db3594c1a424b15f7c726624ec26b3353b10a903a6d0ab1c4c",
		  "c3da55379de9c6908e94ea4df28d084f32eccf03491c71f754b4075577a28552" },
		{ "4b66e9d4d1b4673c5ad22691957d6af5c11b6421e0ea01d42ca4169e7918ba0d",
		  "e5210f12786811d3f4b7959d0538ae2c31dbe7106fc03c3efc4cd549c715a493",
		  "95cbde9476e8907d7aade45cb4b873f88b595a68799fa152e6f8f7647aac7957" },
	};
	u8 k[32], u[32], want[32], out[32];
	int i;

	for (i = 0; i < 2; i++) {
		unhex(k, v[i][0], 32);
		unhex(u, v[i][1], 32);
		unhex(want, v[i][2], 32);
		self->impl->x25519(out, k, u);
		EXPECT_EQ(0, memcmp(out, want, 32)) TH_LOG("vector %d", i);
	}
}

/* RFC 7748 section 5.2: k = u = 9, then (k, u) = (X25519(k, u), k). */
static void iterate(const struct c25519_impl *impl, u8 k[32], long n)
{
	u8 u[32] = { 9 }, t[32];
	long i;

	memset(k, 0, 32);
	k[0] = 9;
	for (i = 0; i < n; i++) {
		impl->x25519(t, k, u);
		memcpy(u, k, 32);
		memcpy(k, t, 32);
	}
}

TEST_F(x25519, rfc7748_iterated)
{
	u8 k[32], want[32];

	iterate(self->impl, k, 1);
	unhex(want, "422c8e7a6227d7bca1350b3e2bb7279f7897b87bb6854b783c60e80311ae3079",
	      32);
	EXPECT_EQ(0, memcmp(k, want, 32));
	iterate(self->impl, k, 1000);
	unhex(want, "684cf59ba83309552800ef566f2f4d3c1c3887c49360e3875f2eb94d99532c51",
	      32);
	EXPECT_EQ(0, memcmp(k, want, 32));
}

/* The million-round vector: minutes, so only with TLSX_SLOW_TESTS=1. */
TEST_F_TIMEOUT(x25519, rfc7748_iterated_million, 900)
{
	u8 k[32], want[32];

	if (!getenv("TLSX_SLOW_TESTS"))
		SKIP(return, "set TLSX_SLOW_TESTS=1 to run");
	iterate(self->impl, k, 1000000);
	unhex(want, "7c3911e0ab2586fd864497297e575e6f3bc601c0883c30df5f4dd2d24f665424",
	      32);
	EXPECT_EQ(0, memcmp(k, want, 32));
}

/* RFC 7748 section 6.1: both public keys and the shared secret. */
TEST_F(x25519, rfc7748_alice_bob)
{
	u8 a[32], b[32], apub[32], bpub[32], k[32], out[32];

	unhex(a, "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
	      32);
	unhex(b, "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
	      32);
	unhex(apub, "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
	      32);
	unhex(bpub, "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
	      32);
	unhex(k, "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
	      32);

	self->impl->x25519_base(out, a);
	EXPECT_EQ(0, memcmp(out, apub, 32));
	self->impl->x25519_base(out, b);
	EXPECT_EQ(0, memcmp(out, bpub, 32));
	self->impl->x25519(out, a, bpub);
	EXPECT_EQ(0, memcmp(out, k, 32));
	self->impl->x25519(out, b, apub);
	EXPECT_EQ(0, memcmp(out, k, 32));
}

/*
 * Points of order 1, 2, 4 and 8 and their non-canonical encodings (u + p
 * where that is below 2^255), each also with bit 255 set: the product is
 * the neutral point whatever the scalar, X25519 gives all zeros, and the
 * API must refuse it.
 */
TEST_F(x25519, small_order_rejected)
{
	static const char *const small[] = {
		"0000000000000000000000000000000000000000000000000000000000000000",
		"0100000000000000000000000000000000000000000000000000000000000000",
		"e0eb7a7c3b41b8ae1656e3faf19fc46ada098deb9c32b1fd866205165f49b800",
		"5f9c95bca3508c24b1d0b1559c83ef5b04445cc4581c8e86d8224eddd09f1157",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
		"eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	};
	u8 priv[32], u[32], out[32], zero[32] = { 0 };
	unsigned int i, hi, n;

	for (n = 0; n < 20; n++) {
		rnd(priv, 32);
		for (i = 0; i < ARRAY_SIZE(small); i++) {
			for (hi = 0; hi < 2; hi++) {
				unhex(u, small[i], 32);
				u[31] |= (u8)(hi << 7);
				self->impl->x25519(out, priv, u);
				EXPECT_EQ(0, memcmp(out, zero, 32));
				memset(out, 0xa5, 32);
				if (self->impl == c25519_impl_get()) {
					EXPECT_EQ(-EINVAL,
						  tlsx_x25519(out, priv, u));
					EXPECT_EQ(0, memcmp(out, zero, 32));
				}
				EXPECT_EQ(-1, ossl_derive(out, priv, u));
			}
		}
	}
}

/*
 * u and u + p (for u < 19, so u + p < 2^255) are the same field element;
 * bit 255 is ignored.  Checked against OpenSSL too.
 */
TEST_F(x25519, noncanonical_and_high_bit)
{
	u8 priv[32], u[32], v[32], a[32], b[32], o[32];
	unsigned int i, n;

	for (n = 0; n < 50; n++) {
		rnd(priv, 32);
		for (i = 2; i < 19; i++) {
			/* v = p + i = 2^255 - 19 + i */
			memset(v, 0xff, 32);
			v[31] = 0x7f;
			v[0] = (u8)(0xed + i);
			memset(u, 0, 32);
			u[0] = (u8)i;
			self->impl->x25519(a, priv, u);
			self->impl->x25519(b, priv, v);
			EXPECT_EQ(0, memcmp(a, b, 32)) TH_LOG("u = %u", i);
			ASSERT_EQ(0, ossl_derive(o, priv, v));
			EXPECT_EQ(0, memcmp(o, b, 32)) TH_LOG("u = %u", i);
		}
		rnd(u, 32);
		u[31] &= 0x7f;
		memcpy(v, u, 32);
		v[31] |= 0x80;
		self->impl->x25519(a, priv, u);
		self->impl->x25519(b, priv, v);
		EXPECT_EQ(0, memcmp(a, b, 32));
		ASSERT_EQ(0, ossl_derive(o, priv, v));
		EXPECT_EQ(0, memcmp(o, b, 32));
	}
}

/*
 * Random key pairs on both sides: public keys agree, tlsx's secret from
 * OpenSSL's public key equals OpenSSL's from tlsx's, and random 32-byte
 * peer values (most not on the curve but on its twist, which X25519
 * accepts) give the same result on both.
 */
TEST_F(x25519, differential_openssl)
{
	u8 a[32], b[32], apub[32], bpub[32], opub[32], s1[32], s2[32];
	u8 peer[32];
	int i;

	for (i = 0; i < DIFF_KEYS; i++) {
		rnd(a, 32);
		rnd(b, 32);
		self->impl->x25519_base(apub, a);
		ossl_public(opub, a);
		ASSERT_EQ(0, memcmp(apub, opub, 32)) TH_LOG("key %d", i);
		ossl_public(bpub, b);
		self->impl->x25519(s1, a, bpub);
		ASSERT_EQ(0, ossl_derive(s2, b, apub));
		ASSERT_EQ(0, memcmp(s1, s2, 32)) TH_LOG("key %d", i);

		rnd(peer, 32);
		self->impl->x25519(s1, a, peer);
		ASSERT_EQ(0, ossl_derive(s2, a, peer));
		ASSERT_EQ(0, memcmp(s1, s2, 32)) TH_LOG("key %d", i);
	}
}

/* The fixed-base public key is the ladder on u = 9. */
TEST_F(x25519, public_equals_ladder)
{
	u8 k[32], nine[32] = { 9 }, a[32], b[32];
	int i;

	for (i = 0; i < DIFF_KEYS; i++) {
		rnd(k, 32);
		self->impl->x25519_base(a, k);
		self->impl->x25519(b, k, nine);
		ASSERT_EQ(0, memcmp(a, b, 32)) TH_LOG("key %d", i);
	}
	/* extremes of the clamped range */
	memset(k, 0, 32);
	self->impl->x25519_base(a, k);
	self->impl->x25519(b, k, nine);
	EXPECT_EQ(0, memcmp(a, b, 32));
	memset(k, 0xff, 32);
	self->impl->x25519_base(a, k);
	self->impl->x25519(b, k, nine);
	EXPECT_EQ(0, memcmp(a, b, 32));
}

/* The public API: keygen, public, shared both ways, the impl choice. */
TEST(api)
{
	const struct tlsx_cpu *cpu = tlsx_cpu_features();
	const char *env = getenv("TLSX_X25519_IMPL");
	u8 a[32], apub[32], b[32], bpub[32], o[32], s1[32], s2[32];
	int i;

	if (env && !strcmp(env, "generic")) {
		EXPECT_STREQ("generic", tlsx_x25519_impl());
	} else {
		EXPECT_STREQ(cpu->bmi2 && cpu->adx ? "mulx" : "generic",
			     tlsx_x25519_impl());
	}

	for (i = 0; i < 200; i++) {
		ASSERT_EQ(0, tlsx_x25519_keygen(a, apub));
		ossl_public(o, a);
		ASSERT_EQ(0, memcmp(apub, o, 32));
		ASSERT_EQ(0, tlsx_x25519_keygen(b, bpub));
		tlsx_x25519_public(o, b);
		ASSERT_EQ(0, memcmp(bpub, o, 32));
		ASSERT_EQ(0, tlsx_x25519(s1, a, bpub));
		ASSERT_EQ(0, tlsx_x25519(s2, b, apub));
		ASSERT_EQ(0, memcmp(s1, s2, 32));
		ASSERT_EQ(0, ossl_derive(o, a, bpub));
		ASSERT_EQ(0, memcmp(s1, o, 32));
	}
}

TEST_HARNESS_MAIN
