// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_kat.c - the published vectors (aead_kat.h: the GCM spec's
 * test cases 1, 2, 4, 13, 14, 16; RFC 8439 section 2.8.2 and appendix
 * A.5) on every implementation this CPU has, one-shot and scattered one
 * byte per segment, and the module's self-test.
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"
#include "aead/aead_kat.h"

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

TEST(selftest)
{
	ASSERT_EQ(0, tlsx_aead_selftest());
}

TEST_HARNESS_MAIN
