// SPDX-License-Identifier: GPL-2.0
/*
 * test_suite.c - the cipher suite and group tables (suite_rows.h,
 * group_rows.h), row by row, against facts that do not come from them:
 *
 *  - every suite row is one of RFC 8446 B.4's, with B.4's code and name;
 *    its key length is the AEAD's own (aead/aead.h and OpenSSL's cipher
 *    of that name), its hash the one its name ends in (OpenSSL's digest
 *    size), its rekey limit and default flag the ones tlsx has always
 *    had (5.5); its kernel columns are <linux/tls.h>'s (cipher type, key,
 *    salt and IV sizes, the structure's size and where rec_seq is), and
 *    the crypto_info filled from it is byte for byte the one filled by
 *    hand per structure, as handoff.c used to;
 *  - every group row is one of RFC 8446 4.2.7's, with the share, private
 *    key and secret lengths of its primitive (curve25519/x25519.h,
 *    p256/p256.h), and its operations agree: both sides' secrets match,
 *    and a share of the wrong length or one validation refuses is
 *    illegal_parameter;
 *  - the bounds derived from the rows (the largest key, crypto_info,
 *    share, private key and secret) hold every row;
 *  - names parse both ways, case-insensitive, with the groups' aliases;
 *    the defaults are the rows marked so, in order; unknown codes have
 *    no row.
 */
#include <stddef.h>
#include <linux/tls.h>
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "curve25519/x25519.h"
#include "mlkem/mlkem.h"
#include "p256/p256.h"
#include "handshake/engine/group.h"
#include "handshake/engine/kx.h"
#include "handshake/engine/suite.h"

#define MLKEM_Q_FOR_TEST	3329	/* FIPS 203's q */

#define SUITE_FACT(code, name, hash, key, aead, rekey, def, ctype, st)	\
	{ code, name, hash, key, aead, rekey, def, ctype,		\
	  sizeof(struct st), offsetof(struct st, rec_seq) }

/* RFC 8446 B.4, 5.5 and <linux/tls.h>: not read from the table. */
static const struct suite_fact {
	u16 code;
	const char *name;
	const char *hash;		/* OpenSSL's digest name */
	size_t key_len;			/* the kernel's TLS_CIPHER_*_KEY_SIZE */
	const char *aead;		/* OpenSSL's cipher name */
	u64 rekey_limit;
	bool by_default;
	u16 cipher_type;
	size_t info_size;
	size_t rec_seq_off;
} suite_facts[] = {
	SUITE_FACT(0x1301, "TLS_AES_128_GCM_SHA256", "SHA256",
		   TLS_CIPHER_AES_GCM_128_KEY_SIZE, "aes-128-gcm", 1ULL << 24,
		   true, TLS_CIPHER_AES_GCM_128,
		   tls12_crypto_info_aes_gcm_128),
	SUITE_FACT(0x1302, "TLS_AES_256_GCM_SHA384", "SHA384",
		   TLS_CIPHER_AES_GCM_256_KEY_SIZE, "aes-256-gcm", 1ULL << 24,
		   true, TLS_CIPHER_AES_GCM_256,
		   tls12_crypto_info_aes_gcm_256),
	SUITE_FACT(0x1303, "TLS_CHACHA20_POLY1305_SHA256", "SHA256",
		   TLS_CIPHER_CHACHA20_POLY1305_KEY_SIZE, "chacha20-poly1305",
		   ~0ULL, true, TLS_CIPHER_CHACHA20_POLY1305,
		   tls12_crypto_info_chacha20_poly1305),
	SUITE_FACT(0x1304, "TLS_AES_128_CCM_SHA256", "SHA256",
		   TLS_CIPHER_AES_CCM_128_KEY_SIZE, "aes-128-ccm", 1ULL << 23,
		   false, TLS_CIPHER_AES_CCM_128,
		   tls12_crypto_info_aes_ccm_128),
};

/* RFC 8446 4.2.7, 4.2.8.2 and the primitives' headers. */
static const struct group_fact {
	u16 code;
	const char *name;
	size_t share, sshare, priv, secret;
	bool by_default, pq;
} group_facts[] = {
	{ 0x001d, "x25519", X25519_KEY_SIZE, X25519_KEY_SIZE, X25519_KEY_SIZE,
	  X25519_KEY_SIZE, true, false },
	/* 4.2.8.2: 1 + 2 * 32 bytes; 7.4.1: the secret is x, 32 bytes. */
	{ 0x0017, "secp256r1", P256_POINT_SIZE, P256_POINT_SIZE,
	  P256_SCALAR_SIZE, P256_SCALAR_SIZE, true, false },
	/*
	 * draft-ietf-tls-ecdhe-mlkem: ek || X25519, ciphertext || X25519,
	 * the two 32-byte secrets; our state ML-KEM's dk less its ek
	 * (kept in the share: 1152 + 32 + 32) and the scalar.
	 */
	{ 0x11ec, "X25519MLKEM768", MLKEM768_EK_SIZE + X25519_KEY_SIZE,
	  MLKEM768_CT_SIZE + X25519_KEY_SIZE,
	  MLKEM768_DK_SIZE - MLKEM768_EK_SIZE + X25519_KEY_SIZE,
	  MLKEM_SS_SIZE + X25519_KEY_SIZE,
	  true, true },
	/* P-256 point || ek, point || ciphertext; offered only if listed. */
	{ 0x11eb, "SecP256r1MLKEM768", P256_POINT_SIZE + MLKEM768_EK_SIZE,
	  P256_POINT_SIZE + MLKEM768_CT_SIZE,
	  MLKEM768_DK_SIZE - MLKEM768_EK_SIZE + P256_SCALAR_SIZE,
	  P256_SCALAR_SIZE + MLKEM_SS_SIZE,
	  false, true },
};

static const struct suite_fact *suite_fact(u16 code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(suite_facts); i++)
		if (suite_facts[i].code == code)
			return &suite_facts[i];
	return NULL;
}

static const struct group_fact *group_fact(u16 code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(group_facts); i++)
		if (group_facts[i].code == code)
			return &group_facts[i];
	return NULL;
}

/* The crypto_info filled by hand for each structure, as handoff.c did. */
static size_t fill_by_hand(u8 *buf, u16 cipher_type, const u8 *key,
			   const u8 *iv)
{
	union {
		struct tls_crypto_info hdr;
		struct tls12_crypto_info_aes_gcm_128 g128;
		struct tls12_crypto_info_aes_gcm_256 g256;
		struct tls12_crypto_info_chacha20_poly1305 cc;
		struct tls12_crypto_info_aes_ccm_128 ccm;
	} ci;
	size_t len = 0;

	memset(&ci, 0, sizeof(ci));
	ci.hdr.version = TLS_1_3_VERSION;
	ci.hdr.cipher_type = cipher_type;
	switch (cipher_type) {
	case TLS_CIPHER_AES_GCM_128:
		memcpy(ci.g128.key, key, sizeof(ci.g128.key));
		memcpy(ci.g128.salt, iv, 4);
		memcpy(ci.g128.iv, iv + 4, 8);
		len = sizeof(ci.g128);
		break;
	case TLS_CIPHER_AES_GCM_256:
		memcpy(ci.g256.key, key, sizeof(ci.g256.key));
		memcpy(ci.g256.salt, iv, 4);
		memcpy(ci.g256.iv, iv + 4, 8);
		len = sizeof(ci.g256);
		break;
	case TLS_CIPHER_CHACHA20_POLY1305:
		memcpy(ci.cc.key, key, sizeof(ci.cc.key));
		memcpy(ci.cc.iv, iv, 12);
		len = sizeof(ci.cc);
		break;
	case TLS_CIPHER_AES_CCM_128:
		memcpy(ci.ccm.key, key, sizeof(ci.ccm.key));
		memcpy(ci.ccm.salt, iv, 4);
		memcpy(ci.ccm.iv, iv + 4, 8);
		len = sizeof(ci.ccm);
		break;
	}
	memcpy(buf, &ci, len);
	return len;
}

TEST(suite_rows_are_rfc8446_b4)
{
	unsigned int i, j;

	ASSERT_EQ(ARRAY_SIZE(suite_facts), tlsx_n_suites);
	for (i = 0; i < tlsx_n_suites; i++) {
		const struct tlsx_suite *s = &tlsx_suites[i];
		const struct suite_fact *f = suite_fact(s->code);
		const EVP_CIPHER *cipher;
		const EVP_MD *md;

		ASSERT_NE(NULL, f) TH_LOG("0x%04x: no such suite", s->code);
		EXPECT_STREQ(f->name, s->name);
		EXPECT_EQ(f->by_default, s->by_default) TH_LOG("%s", s->name);
		EXPECT_EQ(f->rekey_limit, s->rekey_limit) TH_LOG("%s", s->name);
		/* The AEAD's own key length, ours and OpenSSL's. */
		EXPECT_STREQ(f->aead, tlsx_aead_alg_name(s->aead));
		EXPECT_EQ(tlsx_aead_key_len(s->aead), s->key_len);
		cipher = EVP_get_cipherbyname(f->aead);
		ASSERT_NE(NULL, cipher);
		EXPECT_EQ(EVP_CIPHER_key_length(cipher), (int)s->key_len);
		ASSERT_LE(s->key_len, TLSX_SUITE_MAX_KEY);
		/* The hash the name ends in. */
		md = EVP_get_digestbyname(f->hash);
		ASSERT_NE(NULL, md);
		EXPECT_EQ((size_t)EVP_MD_size(md),
			  tlsx_hash_digest_size(s->hash)) TH_LOG("%s", s->name);
		for (j = 0; j < i; j++) {
			EXPECT_NE(tlsx_suites[j].code, s->code);
			EXPECT_STRNE(tlsx_suites[j].name, s->name);
		}
	}
}

TEST(suite_rows_are_the_kernels)
{
	unsigned int i;

	for (i = 0; i < tlsx_n_suites; i++) {
		const struct tlsx_suite *s = &tlsx_suites[i];
		const struct tlsx_suite_kernel *k = &s->kernel;
		const struct suite_fact *f = suite_fact(s->code);

		ASSERT_NE(NULL, f);
		EXPECT_EQ(f->cipher_type, k->cipher_type) TH_LOG("%s", s->name);
		EXPECT_EQ(f->info_size, k->size) TH_LOG("%s", s->name);
		EXPECT_EQ(f->rec_seq_off, k->rec_seq_off) TH_LOG("%s", s->name);
		EXPECT_EQ(8, k->rec_seq_len);
		EXPECT_EQ(f->key_len, k->key_len) TH_LOG("%s", s->name);
		EXPECT_EQ(s->key_len, k->key_len) TH_LOG("%s", s->name);
		/* 7.3's 12-byte IV, split between salt and iv. */
		EXPECT_EQ(TLSX_IV_SIZE, k->salt_len + k->iv_len);
		ASSERT_LE(k->size, sizeof(union tlsx_suite_kernel_info));
	}
}

TEST(suite_kernel_info_as_by_hand)
{
	union tlsx_suite_kernel_info ci;
	u8 want[sizeof(ci)], key[TLSX_SUITE_MAX_KEY], iv[TLSX_IV_SIZE];
	unsigned int i, j;

	for (j = 0; j < sizeof(key); j++)
		key[j] = (u8)(0xa0 + j);
	for (j = 0; j < sizeof(iv); j++)
		iv[j] = (u8)(0x10 + j);
	for (i = 0; i < tlsx_n_suites; i++) {
		const struct tlsx_suite *s = &tlsx_suites[i];
		size_t len = tlsx_suite_kernel_info(s, key, iv, &ci);
		size_t want_len = fill_by_hand(want, s->kernel.cipher_type,
					       key, iv);

		ASSERT_NE(0, want_len) TH_LOG("%s", s->name);
		ASSERT_EQ(want_len, len) TH_LOG("%s", s->name);
		EXPECT_EQ(0, memcmp(want, &ci, len)) TH_LOG("%s", s->name);
	}
}

TEST(suite_lookups)
{
	enum tlsx_aead_alg aead;
	enum tlsx_hash_alg hash;
	u16 codes[8];
	size_t key_len;

	EXPECT_EQ(NULL, tlsx_suite_find(0x1305));	/* CCM_8: not ours */
	EXPECT_EQ(NULL, tlsx_suite_find(0));
	EXPECT_EQ(-EINVAL, tlsx_suite_params(0x1305, &aead, &hash, NULL));
	EXPECT_STREQ("unknown", tlsx_suite_name(0x1305));
	ASSERT_EQ(0, tlsx_suite_params(TLSX_SUITE_AES_256_GCM_SHA384, &aead,
				       &hash, &key_len));
	EXPECT_EQ(TLSX_AEAD_AES_256_GCM, aead);
	EXPECT_EQ(TLSX_HASH_SHA384, hash);
	EXPECT_EQ(32, key_len);
	EXPECT_STREQ("TLS_CHACHA20_POLY1305_SHA256", tlsx_suite_name(0x1303));
	ASSERT_NE(NULL, tlsx_suite_by_name("tls_aes_128_ccm_sha256", 22));
	EXPECT_EQ(0x1304,
		  tlsx_suite_by_name("tls_aes_128_ccm_sha256", 22)->code);
	EXPECT_EQ(NULL, tlsx_suite_by_name("TLS_AES_128_CCM_SHA25", 21));
	EXPECT_EQ(NULL, tlsx_suite_by_name("TLS_AES_128_CCM_8_SHA256", 24));
	/* The defaults: every row but CCM, in the table's order. */
	ASSERT_EQ(3, tlsx_suite_defaults(codes, ARRAY_SIZE(codes)));
	EXPECT_EQ(0x1301, codes[0]);
	EXPECT_EQ(0x1302, codes[1]);
	EXPECT_EQ(0x1303, codes[2]);
	EXPECT_EQ(1, tlsx_suite_defaults(codes, 1));
}

TEST(group_rows_are_rfc8446s)
{
	size_t max_share = 0, max_priv = 0, max_secret = 0;
	unsigned int i, j;

	ASSERT_EQ(ARRAY_SIZE(group_facts), tlsx_n_groups);
	for (i = 0; i < tlsx_n_groups; i++) {
		const struct tlsx_group *g = &tlsx_groups[i];
		const struct group_fact *f = group_fact(g->code);

		ASSERT_NE(NULL, f) TH_LOG("0x%04x: no such group", g->code);
		EXPECT_STREQ(f->name, g->names[0]);
		EXPECT_EQ(f->share, g->client_share) TH_LOG("%s", f->name);
		EXPECT_EQ(f->sshare, g->server_share) TH_LOG("%s", f->name);
		EXPECT_EQ(f->priv, g->priv_len) TH_LOG("%s", f->name);
		EXPECT_EQ(f->secret, g->secret_len) TH_LOG("%s", f->name);
		EXPECT_EQ(f->by_default, g->by_default) TH_LOG("%s", f->name);
		EXPECT_EQ(f->pq, g->pq) TH_LOG("%s", f->name);
		EXPECT_EQ(f->pq, g->ops->encaps != NULL) TH_LOG("%s", f->name);
		ASSERT_NE(NULL, g->ops);
		for (j = 0; j < i; j++)
			EXPECT_NE(tlsx_groups[j].code, g->code);
		if (g->client_share > max_share)
			max_share = g->client_share;
		if (g->server_share > max_share)
			max_share = g->server_share;
		if (g->priv_len > max_priv)
			max_priv = g->priv_len;
		if (g->secret_len > max_secret)
			max_secret = g->secret_len;
	}
	/* The buffers are the largest row's, neither less nor more. */
	EXPECT_EQ(max_share, TLSX_GROUP_MAX_SHARE);
	EXPECT_EQ(max_priv, TLSX_GROUP_MAX_PRIV);
	EXPECT_EQ(max_secret, TLSX_GROUP_MAX_SECRET);
	EXPECT_EQ(max_share, sizeof(((struct tlsx_kx *)0)->pub));
	EXPECT_EQ(max_priv, sizeof(((struct tlsx_kx *)0)->priv));
}

static int counter_rand(void *ctx, void *buf, size_t len)
{
	u8 *ctr = ctx, *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(*ctr + 7 * i);
	(*ctr)++;
	return 0;
}

TEST(group_ops_agree)
{
	u8 a[TLSX_KX_MAX_SHARED], b[TLSX_KX_MAX_SHARED];
	u8 bad[TLSX_KX_MAX_PUB + 1];
	size_t a_len, b_len, cl_len, sv_len;
	struct tlsx_kx cl, sv;
	unsigned int i;
	u8 ctr = 1;

	for (i = 0; i < tlsx_n_groups; i++) {
		const struct tlsx_group *g = &tlsx_groups[i];

		ASSERT_EQ(0, tlsx_kx_generate(&cl, g->code, false,
					      counter_rand, &ctr));
		cl_len = tlsx_kx_pub_len(&cl);
		EXPECT_EQ(g->client_share, cl_len);
		ASSERT_EQ(0, tlsx_kx_respond(&sv, g->code, cl.pub, cl_len,
					     counter_rand, &ctr, a, &a_len));
		sv_len = tlsx_kx_pub_len(&sv);
		EXPECT_EQ(g->server_share, sv_len);
		ASSERT_EQ(0, tlsx_kx_shared(&cl, sv.pub, sv_len, b, &b_len));
		ASSERT_EQ(g->secret_len, a_len);
		ASSERT_EQ(a_len, b_len);
		EXPECT_EQ(0, memcmp(a, b, a_len)) TH_LOG("%s", g->names[0]);
		/* A share one byte short or long. */
		memcpy(bad, cl.pub, cl_len);
		bad[cl_len] = 0;
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_kx_respond(&sv, g->code, bad, cl_len - 1,
					  counter_rand, &ctr, a, &a_len));
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_kx_respond(&sv, g->code, bad, cl_len + 1,
					  counter_rand, &ctr, a, &a_len));
		EXPECT_EQ(0, a_len);
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_kx_shared(&cl, bad, sv_len + 1, b, &b_len));
		/* All zeros: X25519's zero result, P-256's no point. */
		memset(bad, 0, sizeof(bad));
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_kx_respond(&sv, g->code, bad, cl_len,
					  counter_rand, &ctr, a, &a_len))
			TH_LOG("%s", g->names[0]);
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_kx_shared(&cl, bad, sv_len, b, &b_len))
			TH_LOG("%s", g->names[0]);
		tlsx_kx_wipe(&cl);
		tlsx_kx_wipe(&sv);
		EXPECT_EQ(0, tlsx_kx_pub_len(&cl));
	}
	EXPECT_EQ(-EINVAL, tlsx_kx_generate(&cl, 0x0018, false, counter_rand,
					    &ctr));
	EXPECT_FALSE(tlsx_kx_supported(0x0018));
	EXPECT_TRUE(tlsx_kx_supported(TLSX_GROUP_X25519));
}

TEST(group_lookups)
{
	u16 codes[8];

	EXPECT_STREQ("x25519", tlsx_group_name(0x001d));
	EXPECT_STREQ("secp256r1", tlsx_group_name(0x0017));
	EXPECT_STREQ("unknown", tlsx_group_name(0x0018));
	EXPECT_EQ(NULL, tlsx_group_find(0x0018));
	ASSERT_NE(NULL, tlsx_group_by_name("X25519", 6));
	EXPECT_EQ(0x001d, tlsx_group_by_name("X25519", 6)->code);
	EXPECT_EQ(0x0017, tlsx_group_by_name("P-256", 5)->code);
	EXPECT_EQ(0x0017, tlsx_group_by_name("prime256v1", 10)->code);
	EXPECT_EQ(0x0017, tlsx_group_by_name("SECP256R1", 9)->code);
	EXPECT_EQ(NULL, tlsx_group_by_name("P-384", 5));
	EXPECT_EQ(NULL, tlsx_group_by_name("x2551", 5));
	ASSERT_EQ(3, tlsx_group_defaults(codes, ARRAY_SIZE(codes)));
	EXPECT_EQ(0x11ec, codes[0]);
	EXPECT_EQ(0x001d, codes[1]);
	EXPECT_EQ(0x0017, codes[2]);
	EXPECT_EQ(0x11eb, tlsx_group_by_name("secp256r1mlkem768", 17)->code);
	EXPECT_EQ(0x11ec, tlsx_group_by_name("x25519mlkem768", 14)->code);
	EXPECT_STREQ("X25519MLKEM768", tlsx_group_name(0x11ec));
}

/*
 * draft-ietf-tls-ecdhe-mlkem's order of the parts, checked against the
 * primitives: each half of the secret is what ML-KEM and the ECDH give
 * on their own parts of the shares; a client share whose ek fails FIPS
 * 203's modulus check is illegal_parameter.
 */
TEST(hybrid_layouts)
{
	static const u16 codes[] = { 0x11ec, 0x11eb };
	u8 a[TLSX_KX_MAX_SHARED], k[32], bad[TLSX_KX_MAX_PUB];
	size_t a_len;
	struct tlsx_kx cl, sv;
	unsigned int i;
	u8 ctr = 9;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		bool x = codes[i] == 0x11ec;
		size_t ek_at = x ? 0 : P256_POINT_SIZE;
		size_t ct_at = x ? 0 : P256_POINT_SIZE;
		size_t kem_ss = x ? 0 : 32, ec_ss = x ? 32 : 0;
		const u8 *ecpriv = cl.priv + 1216;
		u8 dk[MLKEM768_DK_SIZE];

		ASSERT_EQ(0, tlsx_kx_generate(&cl, codes[i], false,
					      counter_rand, &ctr));
		EXPECT_EQ(-EINVAL, tlsx_kx_generate(&sv, codes[i], true,
						    counter_rand, &ctr));
		ASSERT_EQ(0, tlsx_kx_respond(&sv, codes[i], cl.pub,
					     tlsx_kx_pub_len(&cl),
					     counter_rand, &ctr, a, &a_len));
		ASSERT_EQ(64, a_len);
		/* The ML-KEM part: dk = dkPKE || ek (the share's) || H || z. */
		memcpy(dk, cl.priv, 1152);
		memcpy(dk + 1152, cl.pub + ek_at, MLKEM768_EK_SIZE);
		memcpy(dk + 1152 + MLKEM768_EK_SIZE, cl.priv + 1152, 64);
		EXPECT_EQ(0, tlsx_mlkem768_check_dk(dk));
		tlsx_mlkem768_decaps(k, dk, sv.pub + ct_at);
		EXPECT_EQ(0, memcmp(a + kem_ss, k, 32));
		/* The ECDH part. */
		if (x) {
			ASSERT_EQ(0, tlsx_x25519(k, ecpriv,
						 sv.pub + MLKEM768_CT_SIZE));
		} else {
			ASSERT_EQ(0, tlsx_p256_ecdh(k, ecpriv, sv.pub,
						    P256_POINT_SIZE));
		}
		EXPECT_EQ(0, memcmp(a + ec_ss, k, 32));
		/* A coefficient of q in the ek: 7.2's check refuses it. */
		memcpy(bad, cl.pub, tlsx_kx_pub_len(&cl));
		bad[ek_at] = (u8)(MLKEM_Q_FOR_TEST & 0xff);
		bad[ek_at + 1] = (u8)((bad[ek_at + 1] & 0xf0) |
				      (MLKEM_Q_FOR_TEST >> 8));
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  tlsx_kx_respond(&sv, codes[i], bad,
					  tlsx_kx_pub_len(&cl), counter_rand,
					  &ctr, a, &a_len));
		tlsx_kx_wipe(&cl);
		tlsx_kx_wipe(&sv);
	}
}

/* A byte stream (the byte after the last one drawn), calls counted. */
struct stream_rand {
	u8 next;
	unsigned int calls;
};

static int stream_rand(void *ctx, void *buf, size_t len)
{
	struct stream_rand *r = ctx;
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(r->next++ * 29 + 3);
	r->calls++;
	return 0;
}

/*
 * kx_hybrid.c draws once per side (a getrandom(2) each with the system's
 * source) and hands the bytes to the halves in their order: the
 * client's ML-KEM d || z, then its scalar; the server's m, then its
 * scalar (X25519MLKEM768) or its scalar, then m (SecP256r1MLKEM768).
 * Checked against the primitives run on the same stream cut by hand.
 */
TEST(hybrid_one_draw_per_side)
{
	static const u16 codes[] = { 0x11ec, 0x11eb };
	u8 seed[96], ek[MLKEM768_EK_SIZE], dk[MLKEM768_DK_SIZE];
	u8 a[TLSX_KX_MAX_SHARED], ct[MLKEM768_CT_SIZE], ss[32];
	u8 pub[P256_POINT_SIZE];
	struct stream_rand r, ref;
	struct tlsx_kx cl, sv;
	unsigned int i;
	size_t a_len;

	for (i = 0; i < ARRAY_SIZE(codes); i++) {
		bool x = codes[i] == 0x11ec;
		size_t ek_at = x ? 0 : P256_POINT_SIZE;
		size_t ec_at = x ? MLKEM768_EK_SIZE : 0;

		memset(&r, 0, sizeof(r));
		ref = r;
		ASSERT_EQ(0, tlsx_kx_generate(&cl, codes[i], false,
					      stream_rand, &r));
		EXPECT_EQ(1, r.calls);
		stream_rand(&ref, seed, 96);
		tlsx_mlkem768_keygen_internal(ek, dk, seed, seed + 32);
		EXPECT_EQ(0, memcmp(cl.pub + ek_at, ek, sizeof(ek)));
		if (x) {
			tlsx_x25519_public(pub, seed + 64);
			EXPECT_EQ(0, memcmp(cl.pub + ec_at, pub, 32));
		} else {
			ASSERT_EQ(0, tlsx_p256_public(pub, seed + 64));
			EXPECT_EQ(0, memcmp(cl.pub, pub, P256_POINT_SIZE));
		}

		r.calls = 0;
		ASSERT_EQ(0, tlsx_kx_respond(&sv, codes[i], cl.pub,
					     tlsx_kx_pub_len(&cl), stream_rand,
					     &r, a, &a_len));
		EXPECT_EQ(1, r.calls);
		stream_rand(&ref, seed, 64);
		ASSERT_EQ(0, tlsx_mlkem768_encaps_internal(ct, ss, ek,
							   seed + (x ? 0 : 32)));
		EXPECT_EQ(0, memcmp(sv.pub + (x ? 0 : P256_POINT_SIZE), ct,
				    sizeof(ct)));
		EXPECT_EQ(0, memcmp(a + (x ? 0 : 32), ss, 32));
		if (x) {
			tlsx_x25519_public(pub, seed + 32);
			EXPECT_EQ(0, memcmp(sv.pub + MLKEM768_CT_SIZE, pub, 32));
		} else {
			ASSERT_EQ(0, tlsx_p256_public(pub, seed));
			EXPECT_EQ(0, memcmp(sv.pub, pub, P256_POINT_SIZE));
		}
		tlsx_kx_wipe(&cl);
		tlsx_kx_wipe(&sv);
	}
}

TEST_HARNESS_MAIN
