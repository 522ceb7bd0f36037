// SPDX-License-Identifier: GPL-2.0
/*
 * test_ed25519.c - Ed25519 (ed25519.h) on every implementation this CPU
 * has (c25519_impl.h: generic, mulx):
 *
 *  - RFC 8032 section 7.1: TEST 1, 2, 3, 1024 and SHA(abc): public key,
 *    signature byte for byte, verification;
 *  - differential against OpenSSL's EVP Ed25519, both ways, random seeds
 *    and messages of random length 0..2048: same public key, same
 *    (deterministic) signature, each side verifies the other's;
 *  - tampered signatures, messages and public keys: rejected, and always
 *    the same answer as OpenSSL; S >= L rejected; edge-case public keys
 *    (non-canonical y, "negative zero" x, small order) decided as
 *    documented in ed25519.c and compared with OpenSSL;
 *  - the precomputed base-point tables (ge25519_table.c) recomputed with
 *    OpenSSL's BIGNUM, every word;
 *  - the API: keygen, sign/verify on the chosen implementation, wipe.
 */
#include <stdlib.h>
#include <openssl/bn.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "ed25519.h"
#include "random.h"
#include "c25519_impl.h"
#include "ge25519_table.h"

#define DIFF_CASES	2000
#define MAX_MSG		2048

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

static void rnd(void *p, size_t n)
{
	if (tlsx_random_bytes(p, n))
		abort();
}

static size_t rnd_len(size_t max)
{
	u32 r;

	rnd(&r, sizeof(r));
	return r % (max + 1);
}

static void ossl_sign(u8 sig[64], u8 pub[32], const u8 seed[32],
		      const u8 *msg, size_t len)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, NULL,
						   seed, 32);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	size_t n = 64, pn = 32;

	if (!k || !c || EVP_DigestSignInit(c, NULL, NULL, NULL, k) <= 0 ||
	    EVP_DigestSign(c, sig, &n, msg, len) <= 0 || n != 64 ||
	    !EVP_PKEY_get_raw_public_key(k, pub, &pn))
		abort();
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(k);
}

/* 1 when OpenSSL accepts, 0 when it rejects (including the key). */
static int ossl_verify(const u8 sig[64], const u8 pub[32], const u8 *msg,
		       size_t len)
{
	EVP_PKEY *k = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL,
						  pub, 32);
	EVP_MD_CTX *c = EVP_MD_CTX_new();
	int ok = 0;

	if (!c)
		abort();
	if (k && EVP_DigestVerifyInit(c, NULL, NULL, NULL, k) > 0)
		ok = EVP_DigestVerify(c, sig, 64, msg, len) == 1;
	EVP_MD_CTX_free(c);
	EVP_PKEY_free(k);
	return ok;
}

static const struct {
	const char *name, *seed, *pub, *msg, *sig;
} rfc8032[] = {
	{ "TEST 1",
	  "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
	  "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a",
	  "",
	  "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b" },
	{ "TEST 2",
	  "4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
	  "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c",
	  "72",
	  "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00" },
	{ "TEST 3",
	  "c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
	  "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025",
	  "af82",
	  "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a" },
	{ "TEST 1024",
	  "f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5",
	  "278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e",
	  "08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98"
	  "fa6e264bf09efe12ee50f8f54e9f77b1e355f6c50544e23fb1433ddf73be84d8"
	  "79de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d"
	  "658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc"
	  "1a858efcb8550ee3a5e1998bd177e93a7363c344fe6b199ee5d02e82d522c4fe"
	  "ba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e"
	  "06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbef"
	  "efd75499da96bd68a8a97b928a8bbc103b6621fcde2beca1231d206be6cd9ec7"
	  "aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1"
	  "85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2"
	  "d17ba70eb6248e594e1a2297acbbb39d502f1a8c6eb6f1ce22b3de1a1f40cc24"
	  "554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270"
	  "88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc"
	  "2732e69485bbc9c90bfbd62481d9089beccf80cfe2df16a2cf65bd92dd597b07"
	  "07e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba"
	  "b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51a"
	  "ddd3b75a2b1ae0784504df543af8969be3ea7082ff7fc9888c144da2af58429e"
	  "c96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7"
	  "51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c"
	  "42f58c30c04aafdb038dda0847dd988dcda6f3bfd15c4b4c4525004aa06eeff8"
	  "ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df"
	  "f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08"
	  "d78ff4ef5d63653a65040cf9bfd4aca7984a74d37145986780fc0b16ac451649"
	  "de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4"
	  "88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a3"
	  "2ef5b52a1ecc820e308aa342721aac0943bf6686b64b2579376504ccc493d97e"
	  "6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f"
	  "b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b5"
	  "0d334ba77c225bc307ba537152f3f1610e4eafe595f6d9d90d11faa933a15ef1"
	  "369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d"
	  "b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c"
	  "0618983f8741c5ef68d3a101e8a3b8cac60c905c15fc910840b94c00a0b9d0",
	  "0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03" },
	{ "TEST SHA(abc)",
	  "833fe62409237b9d62ec77587520911e9a759cec1d19755b7da901b96dca3d42",
	  "ec172b93ad5e563bf4932c70e1245034c35467ef2efd4d64ebf819683467e2bf",
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	  "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
	  "dc2a4459e7369633a52b1bf277839a00201009a3efbf3ecb69bea2186c26b58909351fc9ac90b3ecfdfbc7c66431e0303dca179c138ac17ad9bef1177331a704" },
};

/* L, little-endian */
static const u8 ed_l[32] = {
	0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58,
	0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
};

/* 256-bit little-endian a += b; returns the carry out. */
static int add256(u8 a[32], const u8 b[32])
{
	unsigned int c = 0;
	int i;

	for (i = 0; i < 32; i++) {
		c += a[i] + b[i];
		a[i] = (u8)c;
		c >>= 8;
	}
	return (int)c;
}

FIXTURE(ed) {
	const struct c25519_impl *impl;
	u8 msg[MAX_MSG];
};

FIXTURE_VARIANT(ed) {
	const struct c25519_impl *impl;
};

FIXTURE_VARIANT_ADD(ed, generic) {
	.impl = &c25519_generic,
};

FIXTURE_VARIANT_ADD(ed, mulx) {
	.impl = &c25519_mulx,
};

FIXTURE_SETUP(ed)
{
	self->impl = variant->impl;
	if (!c25519_impl_usable(self->impl))
		SKIP(return, "no %s implementation on this CPU",
		     self->impl->name);
}

FIXTURE_TEARDOWN(ed)
{
}

TEST_F(ed, rfc8032_vectors)
{
	struct tlsx_ed25519_key k;
	u8 seed[32], pub[32], sig[64], want[64];
	unsigned int i;
	size_t len;

	for (i = 0; i < ARRAY_SIZE(rfc8032); i++) {
		len = strlen(rfc8032[i].msg) / 2;
		ASSERT_LE(len, sizeof(self->msg));
		unhex(seed, rfc8032[i].seed, 32);
		unhex(pub, rfc8032[i].pub, 32);
		unhex(self->msg, rfc8032[i].msg, len);
		unhex(want, rfc8032[i].sig, 64);

		c25519_ed25519_key_from_seed(self->impl, &k, seed);
		EXPECT_EQ(0, memcmp(k.pub, pub, 32)) TH_LOG("%s",
							   rfc8032[i].name);
		c25519_ed25519_sign(self->impl, sig, &k, self->msg, len);
		EXPECT_EQ(0, memcmp(sig, want, 64)) TH_LOG("%s",
							  rfc8032[i].name);
		EXPECT_EQ(0, c25519_ed25519_verify(self->impl, want, pub,
						   self->msg, len))
			TH_LOG("%s", rfc8032[i].name);
		want[i % 64] ^= 1;
		EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, want,
							  pub, self->msg,
							  len))
			TH_LOG("%s", rfc8032[i].name);
		/* the vector itself, by OpenSSL */
		want[i % 64] ^= 1;
		EXPECT_EQ(1, ossl_verify(want, pub, self->msg, len));
	}
}

/*
 * Both directions on random seeds and messages: same public key, same
 * signature (Ed25519 is deterministic), each verifies the other's.
 */
TEST_F(ed, differential_openssl)
{
	struct tlsx_ed25519_key k;
	u8 seed[32], opub[32], sig[64], osig[64];
	int i;

	for (i = 0; i < DIFF_CASES; i++) {
		size_t len = rnd_len(MAX_MSG);

		rnd(seed, 32);
		rnd(self->msg, len);
		c25519_ed25519_key_from_seed(self->impl, &k, seed);
		c25519_ed25519_sign(self->impl, sig, &k, self->msg, len);
		ASSERT_EQ(1, ossl_verify(sig, k.pub, self->msg, len))
			TH_LOG("case %d, %zu bytes", i, len);
		ossl_sign(osig, opub, seed, self->msg, len);
		ASSERT_EQ(0, memcmp(opub, k.pub, 32)) TH_LOG("case %d", i);
		ASSERT_EQ(0, memcmp(osig, sig, 64)) TH_LOG("case %d", i);
		ASSERT_EQ(0, c25519_ed25519_verify(self->impl, osig, opub,
						   self->msg, len))
			TH_LOG("case %d, %zu bytes", i, len);
	}
	tlsx_ed25519_key_wipe(&k);
}

/*
 * One random bit flipped in the signature, the message or the public
 * key: tlsx rejects, and OpenSSL gives the same answer (a flipped key
 * may fail to decode: both must then reject too).
 */
TEST_F(ed, tampered)
{
	struct tlsx_ed25519_key k;
	u8 seed[32], sig[64], pub[32];
	int i;

	for (i = 0; i < DIFF_CASES / 2; i++) {
		size_t len = rnd_len(256) + 1, bit;
		int mine, theirs;

		rnd(seed, 32);
		rnd(self->msg, len);
		c25519_ed25519_key_from_seed(self->impl, &k, seed);
		c25519_ed25519_sign(self->impl, sig, &k, self->msg, len);
		memcpy(pub, k.pub, 32);

		bit = rnd_len(64 * 8 - 1);
		sig[bit / 8] ^= (u8)(1 << (bit % 8));
		mine = c25519_ed25519_verify(self->impl, sig, pub, self->msg,
					     len);
		theirs = ossl_verify(sig, pub, self->msg, len);
		EXPECT_EQ(-EBADMSG, mine) TH_LOG("sig bit %zu", bit);
		EXPECT_EQ(0, theirs) TH_LOG("sig bit %zu", bit);
		sig[bit / 8] ^= (u8)(1 << (bit % 8));

		bit = rnd_len(len * 8 - 1);
		self->msg[bit / 8] ^= (u8)(1 << (bit % 8));
		EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, sig,
							  pub, self->msg,
							  len));
		EXPECT_EQ(0, ossl_verify(sig, pub, self->msg, len));
		self->msg[bit / 8] ^= (u8)(1 << (bit % 8));

		bit = rnd_len(32 * 8 - 1);
		pub[bit / 8] ^= (u8)(1 << (bit % 8));
		mine = c25519_ed25519_verify(self->impl, sig, pub, self->msg,
					     len);
		theirs = ossl_verify(sig, pub, self->msg, len);
		EXPECT_EQ(-EBADMSG, mine) TH_LOG("key bit %zu", bit);
		EXPECT_EQ(0, theirs) TH_LOG("key bit %zu", bit);

		/* untouched again: accepted by both */
		pub[bit / 8] ^= (u8)(1 << (bit % 8));
		ASSERT_EQ(0, c25519_ed25519_verify(self->impl, sig, pub,
						   self->msg, len));
	}
}

/* S + L (same value mod L), S = L and S = 2^256 - 1: all rejected. */
TEST_F(ed, s_not_canonical)
{
	struct tlsx_ed25519_key k;
	u8 seed[32], sig[64], bad[64];
	int i;

	for (i = 0; i < 100; i++) {
		rnd(seed, 32);
		rnd(self->msg, 64);
		c25519_ed25519_key_from_seed(self->impl, &k, seed);
		c25519_ed25519_sign(self->impl, sig, &k, self->msg, 64);
		ASSERT_EQ(0, c25519_ed25519_verify(self->impl, sig, k.pub,
						   self->msg, 64));
		memcpy(bad, sig, 64);
		ASSERT_EQ(0, add256(bad + 32, ed_l));	/* S < L: no carry */
		EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, bad,
							  k.pub, self->msg,
							  64));
		EXPECT_EQ(0, ossl_verify(bad, k.pub, self->msg, 64));
	}
	memcpy(bad + 32, ed_l, 32);
	EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, bad, k.pub,
						  self->msg, 64));
	memset(bad + 32, 0xff, 32);
	EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, bad, k.pub,
						  self->msg, 64));
}

/*
 * Public keys at the edges of RFC 8032's decoding, each with a signature
 * that would verify if the key were taken as the point it names modulo
 * p: (x, y) = (0, 1), the neutral point, so s B - k A = s B and R =
 * encode(s B) verifies any message.
 *  - 0100..00: canonical neutral point: small order, decodes; both
 *    accept (cofactorless verification does not screen small order);
 *  - y = p + 1 (non-canonical 1): RFC 8032 rejects y >= p;
 *  - 0100..80: x = 0 with the sign bit: RFC 8032 rejects.
 * For the last two tlsx follows the RFC and the result is compared with
 * OpenSSL's, printed; the test requires tlsx's documented answer.
 */
TEST_F(ed, edge_public_keys)
{
	struct tlsx_ed25519_key k;
	u8 one[32] = { 1 }, pub[32], sig[64], seed[32];
	int ossl;

	/* R = encode(s B) for s = the scalar of some key, S = s mod L... */
	rnd(seed, 32);
	c25519_ed25519_key_from_seed(self->impl, &k, seed);
	/* s B with s < L: take S = 1, R = B's encoding */
	memset(sig, 0, 64);
	sig[32] = 1;
	self->impl->ed25519_base(sig, sig + 32);

	EXPECT_EQ(0, c25519_ed25519_verify(self->impl, sig, one, self->msg,
					   16));
	EXPECT_EQ(1, ossl_verify(sig, one, self->msg, 16));

	memset(pub, 0xff, 32);
	pub[0] = 0xee;
	pub[31] = 0x7f;		/* p + 1 */
	ossl = ossl_verify(sig, pub, self->msg, 16);
	TH_LOG("y = p + 1: OpenSSL %s", ossl ? "accepts" : "rejects");
	EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, sig, pub,
						  self->msg, 16));

	memcpy(pub, one, 32);
	pub[31] |= 0x80;	/* x = -0 */
	ossl = ossl_verify(sig, pub, self->msg, 16);
	TH_LOG("x = -0: OpenSSL %s", ossl ? "accepts" : "rejects");
	EXPECT_EQ(-EBADMSG, c25519_ed25519_verify(self->impl, sig, pub,
						  self->msg, 16));
	tlsx_ed25519_key_wipe(&k);
}

/* --- the tables, recomputed with BIGNUM ------------------------------ */

struct bn_pt {
	BIGNUM *x, *y;
};

struct bn_curve {
	BIGNUM *p, *d;
	BN_CTX *ctx;
};

/*
 * Affine Edwards addition (RFC 8032 section 5.1.4 with Z = 1):
 * x3 = (x1 y2 + x2 y1) / (1 + d x1 x2 y1 y2),
 * y3 = (y1 y2 + x1 x2) / (1 - d x1 x2 y1 y2).
 */
static void bn_add_pt(struct bn_curve *c, struct bn_pt *r,
		      const struct bn_pt *a, const struct bn_pt *b)
{
	BIGNUM *t = BN_new(), *u = BN_new(), *v = BN_new(), *w = BN_new();
	BIGNUM *one = BN_new();

	BN_one(one);
	BN_mod_mul(t, a->x, b->x, c->p, c->ctx);
	BN_mod_mul(u, a->y, b->y, c->p, c->ctx);
	BN_mod_mul(v, t, u, c->p, c->ctx);
	BN_mod_mul(v, v, c->d, c->p, c->ctx);		/* d x1x2y1y2 */
	BN_mod_add(w, u, t, c->p, c->ctx);		/* y1y2 + x1x2 */
	BN_mod_mul(t, a->x, b->y, c->p, c->ctx);
	BN_mod_mul(u, b->x, a->y, c->p, c->ctx);
	BN_mod_add(t, t, u, c->p, c->ctx);		/* x1y2 + x2y1 */
	BN_mod_add(u, one, v, c->p, c->ctx);
	BN_mod_inverse(u, u, c->p, c->ctx);
	BN_mod_mul(r->x, t, u, c->p, c->ctx);
	BN_mod_sub(u, one, v, c->p, c->ctx);
	BN_mod_inverse(u, u, c->p, c->ctx);
	BN_mod_mul(r->y, w, u, c->p, c->ctx);
	BN_free(t);
	BN_free(u);
	BN_free(v);
	BN_free(w);
	BN_free(one);
}

static int words_eq(const u64 w[4], const BIGNUM *v)
{
	u8 b[32];
	int i;

	if (BN_bn2lebinpad(v, b, 32) != 32)
		return 0;
	for (i = 0; i < 4; i++)
		if (get_unaligned_le64(b + 8 * i) != w[i])
			return 0;
	return 1;
}

static int niels_eq(struct bn_curve *c, const struct ge25519_niels64 *n,
		    const struct bn_pt *pt)
{
	BIGNUM *t = BN_new(), *two = BN_new();
	int ok;

	BN_set_word(two, 2);
	BN_mod_add(t, pt->y, pt->x, c->p, c->ctx);
	ok = words_eq(n->ypx, t);
	BN_mod_sub(t, pt->y, pt->x, c->p, c->ctx);
	ok &= words_eq(n->ymx, t);
	BN_mod_mul(t, pt->x, pt->y, c->p, c->ctx);
	BN_mod_mul(t, t, c->d, c->p, c->ctx);
	BN_mod_mul(t, t, two, c->p, c->ctx);
	ok &= words_eq(n->xy2d, t);
	BN_free(t);
	BN_free(two);
	return ok;
}

static void bn_pt_init(struct bn_pt *p)
{
	p->x = BN_new();
	p->y = BN_new();
}

static void bn_pt_free(struct bn_pt *p)
{
	BN_free(p->x);
	BN_free(p->y);
}

static void bn_pt_copy(struct bn_pt *r, const struct bn_pt *a)
{
	BN_copy(r->x, a->x);
	BN_copy(r->y, a->y);
}

TEST(tables_match_bignum)
{
	struct bn_curve c;
	struct bn_pt b, row, pt, b2;
	BIGNUM *t = BN_new(), *u = BN_new();
	int i, j, bad = 0;

	c.ctx = BN_CTX_new();
	c.p = BN_new();
	c.d = BN_new();
	bn_pt_init(&b);
	bn_pt_init(&row);
	bn_pt_init(&pt);
	bn_pt_init(&b2);

	/* p = 2^255 - 19, d = -121665 / 121666 */
	BN_set_bit(c.p, 255);
	BN_sub_word(c.p, 19);
	BN_set_word(t, 121666);
	BN_mod_inverse(t, t, c.p, c.ctx);
	BN_set_word(u, 121665);
	BN_mod_mul(c.d, t, u, c.p, c.ctx);
	BN_mod_sub(c.d, c.p, c.d, c.p, c.ctx);

	/* B: y = 4/5, x the even root of (y^2 - 1) / (d y^2 + 1) */
	BN_set_word(t, 5);
	BN_mod_inverse(t, t, c.p, c.ctx);
	BN_mul_word(t, 4);
	BN_mod(b.y, t, c.p, c.ctx);
	BN_mod_sqr(t, b.y, c.p, c.ctx);
	BN_mod_mul(u, t, c.d, c.p, c.ctx);
	BN_add_word(u, 1);
	BN_mod_inverse(u, u, c.p, c.ctx);
	BN_sub_word(t, 1);
	BN_mod_mul(t, t, u, c.p, c.ctx);
	ASSERT_NE(NULL, BN_mod_sqrt(b.x, t, c.p, c.ctx));
	if (BN_is_odd(b.x))
		BN_sub(b.x, c.p, b.x);

	bn_pt_copy(&row, &b);
	for (i = 0; i < 32; i++) {
		bn_pt_copy(&pt, &row);
		for (j = 0; j < 8; j++) {
			if (!niels_eq(&c, &ge25519_base_table[i][j], &pt)) {
				bad++;
				TH_LOG("base_table[%d][%d] differs", i, j);
			}
			bn_add_pt(&c, &pt, &pt, &row);
		}
		for (j = 0; j < 8; j++)
			bn_add_pt(&c, &row, &row, &row);
	}
	bn_add_pt(&c, &b2, &b, &b);
	bn_pt_copy(&pt, &b);
	for (i = 0; i < GE25519_BASE_ODD; i++) {
		if (!niels_eq(&c, &ge25519_base_odd[i], &pt)) {
			bad++;
			TH_LOG("base_odd[%d] differs", i);
		}
		bn_add_pt(&c, &pt, &pt, &b2);
	}
	EXPECT_EQ(0, bad);

	bn_pt_free(&b);
	bn_pt_free(&row);
	bn_pt_free(&pt);
	bn_pt_free(&b2);
	BN_free(t);
	BN_free(u);
	BN_free(c.p);
	BN_free(c.d);
	BN_CTX_free(c.ctx);
}

/* The API: fresh keys, the chosen implementation, and the wipe. */
TEST(api)
{
	struct tlsx_ed25519_key k, z;
	u8 sig[64], msg[100], opub[32], osig[64];
	int i;

	for (i = 0; i < 200; i++) {
		ASSERT_EQ(0, tlsx_ed25519_keygen(&k));
		rnd(msg, sizeof(msg));
		tlsx_ed25519_sign(sig, &k, msg, sizeof(msg));
		ASSERT_EQ(0, tlsx_ed25519_verify(sig, k.pub, msg,
						 sizeof(msg)));
		ossl_sign(osig, opub, k.seed, msg, sizeof(msg));
		ASSERT_EQ(0, memcmp(opub, k.pub, 32));
		ASSERT_EQ(0, memcmp(osig, sig, 64));
		msg[i % sizeof(msg)] ^= 0x40;
		ASSERT_EQ(-EBADMSG, tlsx_ed25519_verify(sig, k.pub, msg,
							sizeof(msg)));
	}
	tlsx_ed25519_key_wipe(&k);
	memset(&z, 0, sizeof(z));
	EXPECT_EQ(0, memcmp(&k, &z, sizeof(k)));
}

TEST_HARNESS_MAIN
