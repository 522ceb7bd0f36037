// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_kat.c - the published vectors (aead_kat.h: the GCM spec's
 * test cases 1, 2, 4, 13, 14, 16; RFC 8439 section 2.8.2 and appendix
 * A.5; AES-128-CCM computed with OpenSSL) on every implementation this
 * CPU has, one-shot and scattered one byte per segment, and the module's
 * self-test.  AES-CCM also: the examples of NIST SP 800-38C appendix C,
 * whose nonce and tag lengths the AEAD interface does not take, through
 * the portable code generalised to them (tlsx_ccm_generic_crypt()), and
 * associated data long enough for the 6-byte length encoding.
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"
#include "aead/aead_kat.h"
#include "aead/ccm_engines.h"

FIXTURE(aead) {
	struct tlsx_aead_key k;
};

FIXTURE_VARIANT(aead) {
	enum tlsx_aead_alg alg;
	enum tlsx_aead_impl impl;
};

#include "aead/test/aead_variants.h"

FIXTURE_SETUP(aead)
{
	if (!tlsx_aead_impl_available(variant->alg, variant->impl))
		SKIP(return, "%s has no %s implementation on this CPU",
		     tlsx_aead_alg_name(variant->alg),
		     tlsx_aead_impl_name(variant->impl));
}

FIXTURE_TEARDOWN(aead)
{
	tlsx_aead_wipe(&self->k);
}

/* Every vector of the variant's algorithm, out of place and in place. */
TEST_F(aead, oneshot)
{
	unsigned int i, n = 0;

	for (i = 0; i < ARRAY_SIZE(tlsx_aead_kats); i++) {
		const struct tlsx_aead_kat *v = &tlsx_aead_kats[i];
		u8 out[512], back[512], tag[16];

		if (v->alg != variant->alg)
			continue;
		n++;
		ASSERT_LE(v->len, sizeof(out));
		ASSERT_EQ(0, tlsx_aead_setkey(&self->k, v->alg, variant->impl,
					      v->key,
					      tlsx_aead_key_len(v->alg)));
		ASSERT_EQ(variant->impl, self->k.impl);

		ASSERT_EQ(0, tlsx_aead_seal(&self->k, v->nonce, v->ad,
					    v->ad_len, v->pt, out, v->len,
					    tag)) TH_LOG("%s", v->name);
		EXPECT_TRUE(mem_eq(out, v->ct, v->len)) TH_LOG("%s", v->name);
		EXPECT_EQ(0, memcmp(tag, v->tag, 16)) TH_LOG("%s", v->name);

		ASSERT_EQ(0, tlsx_aead_open(&self->k, v->nonce, v->ad,
					    v->ad_len, v->ct, back, v->len,
					    v->tag)) TH_LOG("%s", v->name);
		EXPECT_TRUE(mem_eq(back, v->pt, v->len)) TH_LOG("%s", v->name);

		/* In place both ways. */
		mem_copy(out, v->pt, v->len);
		ASSERT_EQ(0, tlsx_aead_seal(&self->k, v->nonce, v->ad,
					    v->ad_len, out, out, v->len, tag));
		EXPECT_TRUE(mem_eq(out, v->ct, v->len)) TH_LOG("%s", v->name);
		EXPECT_EQ(0, memcmp(tag, v->tag, 16)) TH_LOG("%s", v->name);
		ASSERT_EQ(0, tlsx_aead_open(&self->k, v->nonce, v->ad,
					    v->ad_len, out, out, v->len,
					    v->tag));
		EXPECT_TRUE(mem_eq(out, v->pt, v->len)) TH_LOG("%s", v->name);
	}
	ASSERT_GE(n, 2u);
}

/* The same with every byte in a segment of its own, and empty ones. */
TEST_F(aead, one_byte_segments)
{
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(tlsx_aead_kats); i++) {
		const struct tlsx_aead_kat *v = &tlsx_aead_kats[i];
		struct tlsx_aead_seg src[2 * 512 + 1], dst[512];
		u8 in[512], out[512], tag[16];

		if (v->alg != variant->alg)
			continue;
		ASSERT_EQ(0, tlsx_aead_setkey(&self->k, v->alg, variant->impl,
					      v->key,
					      tlsx_aead_key_len(v->alg)));
		mem_copy(in, v->pt, v->len);
		/* Source: empty, byte, empty, byte, ...; dest: bytes. */
		for (j = 0; j < v->len; j++) {
			src[2 * j].data = in + j;
			src[2 * j].len = 0;
			src[2 * j + 1].data = in + j;
			src[2 * j + 1].len = 1;
			dst[j].data = out + j;
			dst[j].len = 1;
		}
		src[2 * v->len].data = NULL;
		src[2 * v->len].len = 0;
		ASSERT_EQ(0, tlsx_aead_seal_sg(&self->k, v->nonce, v->ad,
					       v->ad_len, src, 2 * v->len + 1,
					       dst, v->len, v->len, tag));
		EXPECT_TRUE(mem_eq(out, v->ct, v->len)) TH_LOG("%s", v->name);
		EXPECT_EQ(0, memcmp(tag, v->tag, 16)) TH_LOG("%s", v->name);

		mem_copy(in, v->ct, v->len);
		ASSERT_EQ(0, tlsx_aead_open_sg(&self->k, v->nonce, v->ad,
					       v->ad_len, src, 2 * v->len + 1,
					       dst, v->len, v->len, v->tag));
		EXPECT_TRUE(mem_eq(out, v->pt, v->len)) TH_LOG("%s", v->name);
	}
}

/* The table itself agrees with OpenSSL (guards against a typo in it). */
TEST(vectors_match_openssl)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(tlsx_aead_kats); i++) {
		const struct tlsx_aead_kat *v = &tlsx_aead_kats[i];
		u8 ct[512], tag[16];

		ASSERT_EQ(0, ref_seal(v->alg, v->key, v->nonce, v->ad,
				      v->ad_len, v->pt, v->len, ct, tag));
		EXPECT_TRUE(mem_eq(ct, v->ct, v->len)) TH_LOG("%s", v->name);
		EXPECT_EQ(0, memcmp(tag, v->tag, 16)) TH_LOG("%s", v->name);
	}
}

/*
 * NIST SP 800-38C appendix C: key 40..4f, nonce 10.., AD 00 01 02 ..., P
 * 20 21 22 ..., with (nonce, AD, P, tag) lengths in bytes of (7, 8, 4, 4),
 * (8, 16, 16, 6), (12, 20, 24, 8) and (13, 65536, 32, 14): C.4's AD is
 * the bytes 00..ff 256 times, which takes the 6-byte length encoding.
 */
struct sp800_38c_example {
	const char *name;
	size_t n, a, p, t;
	u8 c[32 + 16];		/* ciphertext || tag, as published */
};

static const struct sp800_38c_example sp800_38c[] = {
	{ "C.1", 7, 8, 4, 4, {
		0x71, 0x62, 0x01, 0x5b, 0x4d, 0xac, 0x25, 0x5d } },
	{ "C.2", 8, 16, 16, 6, {
		0xd2, 0xa1, 0xf0, 0xe0, 0x51, 0xea, 0x5f, 0x62, 0x08, 0x1a,
		0x77, 0x92, 0x07, 0x3d, 0x59, 0x3d, 0x1f, 0xc6, 0x4f, 0xbf,
		0xac, 0xcd } },
	{ "C.3", 12, 20, 24, 8, {
		0xe3, 0xb2, 0x01, 0xa9, 0xf5, 0xb7, 0x1a, 0x7a, 0x9b, 0x1c,
		0xea, 0xec, 0xcd, 0x97, 0xe7, 0x0b, 0x61, 0x76, 0xaa, 0xd9,
		0xa4, 0x42, 0x8a, 0xa5, 0x48, 0x43, 0x92, 0xfb, 0xc1, 0xb0,
		0x99, 0x51 } },
	{ "C.4", 13, 65536, 32, 14, {
		0x69, 0x91, 0x5d, 0xad, 0x1e, 0x84, 0xc6, 0x37, 0x6a, 0x68,
		0xc2, 0x96, 0x7e, 0x4d, 0xab, 0x61, 0x5a, 0xe0, 0xfd, 0x1f,
		0xae, 0xc4, 0x4c, 0xc4, 0x84, 0x82, 0x85, 0x29, 0x46, 0x3c,
		0xcf, 0x72, 0xb4, 0xac, 0x6b, 0xec, 0x93, 0xe8, 0x59, 0x8e,
		0x7f, 0x0d, 0xad, 0xbc, 0xea, 0x5b } },
};

TEST(ccm_sp800_38c_examples)
{
	static u8 ad[65536];
	struct tlsx_aead_key k;
	u8 key[16], nonce[13], pt[32], out[32], back[32], tag[16];
	unsigned int i;
	size_t j;

	for (j = 0; j < 16; j++)
		key[j] = 0x40 + j;
	for (j = 0; j < 13; j++)
		nonce[j] = 0x10 + j;
	for (j = 0; j < sizeof(ad); j++)
		ad[j] = (u8)j;
	for (j = 0; j < 32; j++)
		pt[j] = 0x20 + j;
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_CCM,
				      TLSX_IMPL_GENERIC, key, 16));
	for (i = 0; i < ARRAY_SIZE(sp800_38c); i++) {
		const struct sp800_38c_example *e = &sp800_38c[i];

		tlsx_ccm_generic_crypt(&k.u.ccm, nonce, e->n, ad, e->a, pt,
				       out, e->p, tag, e->t, true);
		EXPECT_EQ(0, memcmp(out, e->c, e->p)) TH_LOG("%s", e->name);
		EXPECT_EQ(0, memcmp(tag, e->c + e->p, e->t))
			TH_LOG("%s", e->name);
		tlsx_ccm_generic_crypt(&k.u.ccm, nonce, e->n, ad, e->a, e->c,
				       back, e->p, tag, e->t, false);
		EXPECT_EQ(0, memcmp(back, pt, e->p)) TH_LOG("%s", e->name);
		EXPECT_EQ(0, memcmp(tag, e->c + e->p, e->t))
			TH_LOG("%s", e->name);
	}
	tlsx_aead_wipe(&k);
}

/*
 * AD lengths around the switch from the 2-byte to the 6-byte length
 * encoding (2^16 - 2^8) and around whole blocks, on every implementation,
 * against OpenSSL.
 */
TEST(ccm_long_ad)
{
	static const size_t lens[] = {
		14, 15, 16, 30, 31, 0xfefe, 0xfeff, 0xff00, 0xff01, 0x10000,
		0x10009, 0x1000a, 0x1000b,
	};
	static u8 ad[0x10100];
	u8 key[16], nonce[12], pt[100], ct[100], ref_ct[100];
	u8 tag[16], ref_tag[16];
	struct tlsx_aead_key k;
	unsigned int i;
	u64 rng = 14;
	int impl;

	rng_fill(&rng, ad, sizeof(ad));
	rng_fill(&rng, nonce, sizeof(nonce));
	rng_fill(&rng, pt, sizeof(pt));
	for (impl = TLSX_IMPL_GENERIC; impl < TLSX_IMPL_COUNT; impl++) {
		if (!tlsx_aead_impl_available(TLSX_AEAD_AES_128_CCM, impl))
			continue;
		ASSERT_EQ(0, test_setkey(&k, key, &rng, TLSX_AEAD_AES_128_CCM,
					 impl));
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			ASSERT_EQ(0, ref_seal(TLSX_AEAD_AES_128_CCM, key,
					      nonce, ad, lens[i], pt,
					      sizeof(pt), ref_ct, ref_tag));
			ASSERT_EQ(0, tlsx_aead_seal(&k, nonce, ad, lens[i], pt,
						    ct, sizeof(pt), tag));
			EXPECT_EQ(0, memcmp(ct, ref_ct, sizeof(ct)))
				TH_LOG("impl %d ad %zu", impl, lens[i]);
			EXPECT_EQ(0, memcmp(tag, ref_tag, sizeof(tag)))
				TH_LOG("impl %d ad %zu", impl, lens[i]);
			EXPECT_EQ(0, tlsx_aead_open(&k, nonce, ad, lens[i], ct,
						    ct, sizeof(ct), tag));
			EXPECT_EQ(0, memcmp(ct, pt, sizeof(pt)));
		}
		tlsx_aead_wipe(&k);
	}
}

/* The 3-byte length field: 2^24 - 1 bytes is the most CCM takes here. */
TEST(ccm_max_len)
{
	struct tlsx_aead_key k;
	u8 key[16] = { 1 }, nonce[12] = { 2 }, tag[16], b;

	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_CCM,
				      TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, &b, &b,
					  (size_t)1 << 24, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_open(&k, nonce, NULL, 0, &b, &b,
					  (size_t)1 << 24, tag));
	tlsx_aead_wipe(&k);
}

TEST(selftest)
{
	ASSERT_EQ(0, tlsx_aead_selftest());
}

TEST_HARNESS_MAIN
