// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_diff.c - every implementation against OpenSSL's EVP, one-shot
 * calls: every length 0..1100 (with associated data of 0..64 bytes
 * cycling alongside), every associated-data length 0..64 at a few text
 * lengths, every length within 160 bytes of 4 KiB (the SIMD chunk), and
 * every length from 16 KiB - 64 to 16 KiB + 256 (a full TLS record and
 * beyond), plus random lengths in between and many random keys.
 *
 * Each case seals and opens out of place and in place, with the buffers
 * at varying misalignments, and checks: ciphertext and tag equal
 * OpenSSL's; open gives the plaintext back; inputs are unchanged; the
 * guard bytes around every input and output are untouched (and, under
 * ASan, never read).
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"

FIXTURE(aead) {
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng;
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
	self->rng = 0x5eed0000 + variant->alg * 16 + variant->impl;
	ASSERT_EQ(0, test_setkey(&self->k, self->key, &self->rng,
				 variant->alg, variant->impl));
	ASSERT_EQ(variant->impl, self->k.impl);
}

FIXTURE_TEARDOWN(aead)
{
	tlsx_aead_wipe(&self->k);
}

/* What a case needs of the fixture. */
struct diff_ctx {
	const struct tlsx_aead_key *k;
	const u8 *key;
	u64 *rng;
	enum tlsx_aead_alg alg;
};

/*
 * One case: @len bytes of text, @ad_len of AD, buffers offset by
 * multiples of @off from 64-byte alignment.  Returns false on a mismatch
 * (after logging it).
 */
static bool diff_case(struct __test_metadata *_metadata,
		      const struct diff_ctx *c, size_t len, size_t ad_len,
		      size_t off)
{
	enum tlsx_aead_alg alg = c->alg;
	struct gbuf nonce, ad, pt, ct, out, tag;
	u8 *ref_ct = malloc(len + 1), *saved = malloc(len + 1);
	u8 ref_tag[16], ref_nonce[12], ref_ad[64 * 1024];
	bool ok = true;

	if (!ref_ct || !saved || ad_len > sizeof(ref_ad))
		abort();
	gbuf_init(&nonce, 12, off * 3);
	gbuf_init(&ad, ad_len, off * 5);
	gbuf_init(&pt, len, off);
	gbuf_init(&ct, len, off * 7);
	gbuf_init(&out, len, off * 11);
	gbuf_init(&tag, 16, off * 13);
	rng_fill(c->rng, nonce.p, 12);
	rng_fill(c->rng, ad.p, ad_len);
	rng_fill(c->rng, pt.p, len);
	memcpy(saved, pt.p, len);
	memcpy(ref_nonce, nonce.p, 12);
	memcpy(ref_ad, ad.p, ad_len);
	ASSERT_EQ(0, ref_seal(alg, c->key, nonce.p, ad.p, ad_len, pt.p, len,
			      ref_ct, ref_tag));

	/* Out of place. */
	ASSERT_EQ(0, tlsx_aead_seal(c->k, nonce.p, ad.p, ad_len, pt.p,
				    ct.p, len, tag.p));
	if (memcmp(ct.p, ref_ct, len) || memcmp(tag.p, ref_tag, 16)) {
		TH_LOG("seal differs from OpenSSL: len %zu ad %zu", len,
		       ad_len);
		ok = false;
	}
	if (memcmp(pt.p, saved, len) || memcmp(nonce.p, ref_nonce, 12) ||
	    memcmp(ad.p, ref_ad, ad_len)) {
		TH_LOG("seal changed its input: len %zu", len);
		ok = false;
	}
	ASSERT_EQ(0, tlsx_aead_open(c->k, nonce.p, ad.p, ad_len, ct.p,
				    out.p, len, tag.p))
		TH_LOG("open refused its seal: len %zu ad %zu", len, ad_len);
	if (memcmp(out.p, saved, len) || memcmp(ct.p, ref_ct, len) ||
	    memcmp(tag.p, ref_tag, 16)) {
		TH_LOG("open out of place: len %zu", len);
		ok = false;
	}

	/* In place. */
	memcpy(out.p, saved, len);
	memset(tag.p, 0, 16);
	ASSERT_EQ(0, tlsx_aead_seal(c->k, nonce.p, ad.p, ad_len, out.p,
				    out.p, len, tag.p));
	if (memcmp(out.p, ref_ct, len) || memcmp(tag.p, ref_tag, 16)) {
		TH_LOG("seal in place differs: len %zu ad %zu", len, ad_len);
		ok = false;
	}
	ASSERT_EQ(0, tlsx_aead_open(c->k, nonce.p, ad.p, ad_len, out.p,
				    out.p, len, tag.p));
	if (memcmp(out.p, saved, len)) {
		TH_LOG("open in place: len %zu", len);
		ok = false;
	}

	if (!gbuf_guards_ok(&nonce) || !gbuf_guards_ok(&ad) ||
	    !gbuf_guards_ok(&pt) || !gbuf_guards_ok(&ct) ||
	    !gbuf_guards_ok(&out) || !gbuf_guards_ok(&tag)) {
		TH_LOG("guard bytes changed: len %zu ad %zu", len, ad_len);
		ok = false;
	}
	gbuf_free(&nonce);
	gbuf_free(&ad);
	gbuf_free(&pt);
	gbuf_free(&ct);
	gbuf_free(&out);
	gbuf_free(&tag);
	free(ref_ct);
	free(saved);
	return ok;
}

#define DIFF_CTX(self, variant) {					\
	.k = &(self)->k,						\
	.key = (self)->key,						\
	.rng = &(self)->rng,						\
	.alg = (variant)->alg,						\
}

TEST_F(aead, lengths_0_to_1100)
{
	struct diff_ctx c = DIFF_CTX(self, variant);
	size_t len;

	for (len = 0; len <= 1100; len++)
		ASSERT_TRUE(diff_case(_metadata, &c, len, (len * 7) % 65, len));
}

/*
 * Every length up to 1100 with AD of 5 to 16 bytes (TLS 1.3's is 5): the
 * one-pass paths of the AVX-512 AES-GCM engine (gcm_short() to 480 bytes,
 * gcm_mid() from 513 to 1024) take AD of 16 bytes at most, so this
 * reaches each of their branches (every count of vectors, a full or
 * partial last one) and both sides of their length limits.
 */
TEST_F(aead, lengths_0_to_1100_short_ad)
{
	struct diff_ctx c = DIFF_CTX(self, variant);
	size_t len;

	for (len = 0; len <= 1100; len++)
		ASSERT_TRUE(diff_case(_metadata, &c, len, 5 + len % 12,
				      len + 7));
}

TEST_F(aead, ad_lengths)
{
	static const size_t lens[] = { 0, 1, 16, 63, 64, 65, 1024 };
	static const size_t long_ad[] = { 100, 255, 256, 1000, 4097 };
	struct diff_ctx c = DIFF_CTX(self, variant);
	size_t ad_len, i;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		for (ad_len = 0; ad_len <= 64; ad_len++)
			ASSERT_TRUE(diff_case(_metadata, &c, lens[i], ad_len,
					      ad_len + i));
	}
	for (i = 0; i < ARRAY_SIZE(long_ad); i++)
		ASSERT_TRUE(diff_case(_metadata, &c, 300, long_ad[i], i));
}

TEST_F(aead, around_4k)
{
	static const size_t more[] = { 8191, 8192, 8193, 12287, 12288, 12289 };
	struct diff_ctx c = DIFF_CTX(self, variant);
	size_t len, i;

	for (len = 4096 - 160; len <= 4096 + 160; len++)
		ASSERT_TRUE(diff_case(_metadata, &c, len, 13, len));
	for (i = 0; i < ARRAY_SIZE(more); i++)
		ASSERT_TRUE(diff_case(_metadata, &c, more[i], 5, i));
}

TEST_F(aead, up_to_16k_plus_256)
{
	struct diff_ctx c = DIFF_CTX(self, variant);
	size_t len, i;

	for (len = 16384 - 64; len <= 16384 + 256; len++)
		ASSERT_TRUE(diff_case(_metadata, &c, len, 13, len));
	for (i = 0; i < 64; i++) {
		len = 1101 + rng_below(&self->rng, 16384 - 1101);
		ASSERT_TRUE(diff_case(_metadata, &c, len,
				      rng_below(&self->rng, 65), i));
	}
}

/* Fresh random keys: the key schedules and powers of H of many keys. */
TEST_F(aead, many_keys)
{
	struct diff_ctx c = DIFF_CTX(self, variant);
	int i;

	for (i = 0; i < 200; i++) {
		ASSERT_EQ(0, test_setkey(&self->k, self->key, &self->rng,
					 variant->alg, variant->impl));
		ASSERT_TRUE(diff_case(_metadata, &c,
				      rng_below(&self->rng, 600), 13, i));
	}
}

TEST_HARNESS_MAIN
