// SPDX-License-Identifier: GPL-2.0
/*
 * test_gcm_engines.c - every AES-GCM engine this CPU can run against the
 * portable one, called directly (aead_impl.h) from states the record API
 * never starts from: the first counter anywhere mod 256 and near the
 * 32-bit wrap (inc32 of SP 800-38D 6.2), updates split into pieces of
 * every multiple of TLSX_AEAD_UPDATE_ALIGN bytes and text across several
 * main-loop batches.  Each SIMD engine counts the main loop's blocks its
 * own way (gcm_vaes_template.h: from one base per 32 counters, with a
 * realignment when an update starts elsewhere); a record starts at
 * counter 2 and crosses a multiple of 256 only from 4 KiB on, so the
 * record-level tests (test_aead_diff against OpenSSL) reach few of these
 * cases.  Seal and open, tag and text, for both key sizes.
 */
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "aead/platform.h"
#include "aead/aead_impl.h"
#include "aead/test/aead_test.h"

#define MAXLEN	(3 * 4096 + 1000)

/*
 * Seal or open @len bytes with @k's engine, the first keystream block at
 * counter @ctr, the text given in two updates (@first bytes, then the
 * rest).
 */
static void run(const struct tlsx_aead_key *k, bool enc, u32 ctr,
		const u8 *src, u8 *dst, size_t len, size_t first, u8 tag[16])
{
	static const u8 nonce[12] = { 0xca, 0xfe, 0xba, 0xbe, 0xfa, 0xce,
				      0xdb, 0xad, 0xde, 0xca, 0xf8, 0x88 };
	static const u8 ad[13] = { 0x17, 0x03, 0x03, 0x40, 0x11, 1, 2, 3 };
	const struct tlsx_aead_ops *ops = k->ops;
	union tlsx_aead_state st;

	tlsx_simd_begin();
	ops->init(&st, k, nonce, ad, sizeof(ad), len);
	st.gcm.ctr = ctr;
	if (enc) {
		ops->encrypt(&st, k, src, dst, first);
		ops->encrypt(&st, k, src + first, dst + first, len - first);
	} else {
		ops->decrypt(&st, k, src, dst, first);
		ops->decrypt(&st, k, src + first, dst + first, len - first);
	}
	ops->final(&st, k, tag);
	tlsx_simd_end();
}

FIXTURE(gcm) {
	u8 *src, *want, *got, *back;
};

FIXTURE_VARIANT(gcm) {
	size_t key_len;
};

FIXTURE_VARIANT_ADD(gcm, aes128) { .key_len = 16 };
FIXTURE_VARIANT_ADD(gcm, aes256) { .key_len = 32 };

FIXTURE_SETUP(gcm)
{
	self->src = malloc(MAXLEN);
	self->want = malloc(MAXLEN);
	self->got = malloc(MAXLEN);
	self->back = malloc(MAXLEN);
	u64 rng = 5;

	ASSERT_TRUE(self->src && self->want && self->got && self->back);
	rng_fill(&rng, self->src, MAXLEN);
}

FIXTURE_TEARDOWN(gcm)
{
	free(self->src);
	free(self->want);
	free(self->got);
	free(self->back);
}

/*
 * Seal and open @len bytes from counter @ctr with the engine of @k, the
 * text in two updates (every first piece of 0, 64, 128, 576, 1024 and
 * 1472 bytes that fits), against the portable engine (@ref, in one
 * update: its answer does not depend on the pieces).
 */
static int check_state(struct __test_metadata *_metadata,
		       struct _test_data_gcm *self,
		       const struct tlsx_aead_key *ref,
		       const struct tlsx_aead_key *k, u32 ctr, size_t len)
{
	u8 tag_want[16], tag_got[16], tag_back[16];
	size_t first;

	run(ref, true, ctr, self->src, self->want, len, 0, tag_want);
	for (first = 0; first <= len && first <= 1600;
	     first += first < 128 ? 64 : 448) {
		memset(self->got, 0, len);
		run(k, true, ctr, self->src, self->got, len, first, tag_got);
		EXPECT_EQ(0, memcmp(self->got, self->want, len) |
			  memcmp(tag_got, tag_want, 16)) {
			TH_LOG("%s seal ctr %#x len %zu first %zu",
			       k->ops->name, ctr, len, first);
			return -1;
		}
		run(k, false, ctr, self->want, self->back, len, first,
		    tag_back);
		EXPECT_EQ(0, memcmp(self->back, self->src, len) |
			  memcmp(tag_back, tag_want, 16)) {
			TH_LOG("%s open ctr %#x len %zu first %zu",
			       k->ops->name, ctr, len, first);
			return -1;
		}
	}
	return 0;
}

TEST_F(gcm, counters_and_pieces)
{
	/* Every residue mod 32 and mod 256 near the top, and the wrap. */
	static const u32 bases[] = { 0, 0xe0, 0xffffffc0, 0xffffff00 };
	static const size_t lens[] = { 0, 15, 64, 511, 512, 1024, 2048, 2100,
				       4096, 4097, 8191, MAXLEN };
	static const enum tlsx_aead_impl impls[] = {
		TLSX_IMPL_SSE, TLSX_IMPL_AVX2, TLSX_IMPL_AVX512,
	};
	struct tlsx_aead_key ref, k;
	unsigned int b, r, e, l, tested = 0;
	u64 rng = 9;
	u8 key[32];

	rng_fill(&rng, key, sizeof(key));
	ASSERT_EQ(0, tlsx_aead_setkey(&ref, variant->key_len == 16 ?
				      TLSX_AEAD_AES_128_GCM :
				      TLSX_AEAD_AES_256_GCM,
				      TLSX_IMPL_GENERIC, key,
				      variant->key_len));
	for (e = 0; e < ARRAY_SIZE(impls); e++) {
		if (tlsx_aead_setkey(&k, ref.alg, impls[e], key,
				     variant->key_len))
			continue;	/* not on this CPU */
		tested++;
		for (b = 0; b < ARRAY_SIZE(bases); b++) {
			for (r = 0; r < 64; r++) {
				for (l = 0; l < ARRAY_SIZE(lens); l++) {
					ASSERT_EQ(0, check_state(_metadata,
								 self, &ref,
								 &k,
								 bases[b] + r,
								 lens[l]));
				}
			}
		}
		tlsx_aead_wipe(&k);
	}
	TH_LOG("%u SIMD engines tested", tested);
	/* A CPU with no SIMD engine has nothing to check here: say so. */
	ASSERT_NE(0, tested);
	tlsx_aead_wipe(&ref);
}

TEST_HARNESS_MAIN
