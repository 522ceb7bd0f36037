// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_tamper.c - forgeries are refused: a single flipped bit of the
 * ciphertext, the tag, the associated data or the nonce, or a changed
 * length, makes open fail with -EBADMSG and wipe the whole output, on
 * every implementation, one-shot and scattered, in place and not.
 *
 * Which bits: every bit of ciphertext, tag and AD (13 bytes) for the
 * short lengths 0, 1, 15, 16, 17, 63, 64, 65, 100, 255, 256 and 257,
 * where each open is cheap; at 1000, 4096 + 13 and 16 KiB + 256 every bit
 * of the tag and of the AD, the first and last bit of the ciphertext and
 * 62 random ciphertext bits (a flip anywhere goes through the same MAC
 * code, so a sample covers the long paths).  Scattered opens flip every
 * ciphertext bit of a 300-byte text cut in random segments.
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
	self->rng = 0x7a3e0000 + variant->alg * 16 + variant->impl;
	ASSERT_EQ(0, test_setkey(&self->k, self->key, &self->rng,
				 variant->alg, variant->impl));
}

FIXTURE_TEARDOWN(aead)
{
	tlsx_aead_wipe(&self->k);
}

/* A sealed message and scratch space to open forgeries of it into. */
struct msg {
	size_t len;
	u8 nonce[12], ad[13], tag[16];
	u8 *pt, *ct;
	struct gbuf out;	/* out of place target */
	struct gbuf inplace;	/* in place target */
};

static void msg_make(struct msg *m, const struct tlsx_aead_key *k,
		     u64 *rng, size_t len)
{
	m->len = len;
	m->pt = malloc(len + 1);
	m->ct = malloc(len + 1);
	if (!m->pt || !m->ct)
		abort();
	rng_fill(rng, m->pt, len);
	rng_fill(rng, m->nonce, sizeof(m->nonce));
	rng_fill(rng, m->ad, sizeof(m->ad));
	if (tlsx_aead_seal(k, m->nonce, m->ad, sizeof(m->ad), m->pt, m->ct,
			   len, m->tag))
		abort();
	gbuf_init(&m->out, len, len);
	gbuf_init(&m->inplace, len, len + 7);
}

static void msg_free(struct msg *m)
{
	gbuf_free(&m->out);
	gbuf_free(&m->inplace);
	free(m->pt);
	free(m->ct);
}

enum part { PART_CT, PART_TAG, PART_AD, PART_NONCE };

/*
 * Open the message with bit @bit of @part flipped, out of place and in
 * place: both must give -EBADMSG, a wiped output and intact guards.
 */
static bool forged_open(const struct tlsx_aead_key *k, struct msg *m,
			enum part part, size_t bit)
{
	u8 nonce[12], ad[13], tag[16];
	u8 *ct = malloc(m->len + 1);
	bool ok;
	int r1, r2;

	if (!ct)
		abort();
	memcpy(nonce, m->nonce, sizeof(nonce));
	memcpy(ad, m->ad, sizeof(ad));
	memcpy(tag, m->tag, sizeof(tag));
	memcpy(ct, m->ct, m->len);
	switch (part) {
	case PART_CT:
		ct[bit / 8] ^= 1 << (bit % 8);
		break;
	case PART_TAG:
		tag[bit / 8] ^= 1 << (bit % 8);
		break;
	case PART_AD:
		ad[bit / 8] ^= 1 << (bit % 8);
		break;
	case PART_NONCE:
		nonce[bit / 8] ^= 1 << (bit % 8);
		break;
	}
	memset(m->out.p, 0xcc, m->len);
	r1 = tlsx_aead_open(k, nonce, ad, sizeof(ad), ct, m->out.p, m->len,
			    tag);
	memcpy(m->inplace.p, ct, m->len);
	r2 = tlsx_aead_open(k, nonce, ad, sizeof(ad), m->inplace.p,
			    m->inplace.p, m->len, tag);
	ok = r1 == -EBADMSG && r2 == -EBADMSG &&
	     all_zero(m->out.p, m->len) && all_zero(m->inplace.p, m->len) &&
	     gbuf_guards_ok(&m->out) && gbuf_guards_ok(&m->inplace);
	free(ct);
	return ok;
}

static const char *part_name(int part)
{
	switch (part) {
	case PART_CT:
		return "ct";
	case PART_TAG:
		return "tag";
	case PART_AD:
		return "ad";
	}
	return "nonce";
}

TEST_F(aead, every_bit_short)
{
	static const size_t lens[] = {
		0, 1, 15, 16, 17, 63, 64, 65, 100, 255, 256, 257,
	};
	size_t i, bit;
	int part;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		struct msg m;
		size_t nbits[] = { lens[i] * 8, 128, 13 * 8, 96 };

		msg_make(&m, &self->k, &self->rng, lens[i]);
		/* The unforged message opens, of course. */
		ASSERT_EQ(0, tlsx_aead_open(&self->k, m.nonce, m.ad, 13, m.ct,
					    m.out.p, m.len, m.tag));
		ASSERT_TRUE(mem_eq(m.out.p, m.pt, m.len));
		for (part = PART_CT; part <= PART_NONCE; part++)
			for (bit = 0; bit < nbits[part]; bit++)
				ASSERT_TRUE(forged_open(&self->k, &m, part,
							bit))
					TH_LOG("len %zu %s bit %zu", lens[i],
					       part_name(part), bit);
		msg_free(&m);
	}
}

TEST_F(aead, sampled_bits_long)
{
	static const size_t lens[] = { 1000, 4096 + 13, 16384 + 256 };
	size_t i, bit, j;
	int part;

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		struct msg m;
		size_t ct_bits = lens[i] * 8;

		msg_make(&m, &self->k, &self->rng, lens[i]);
		for (part = PART_TAG; part <= PART_AD; part++)
			for (bit = 0; bit < (part == PART_TAG ? 128u : 104u);
			     bit++)
				ASSERT_TRUE(forged_open(&self->k, &m, part,
							bit))
					TH_LOG("len %zu %s bit %zu", lens[i],
					       part_name(part), bit);
		for (j = 0; j < 64; j++) {
			bit = j == 0 ? 0 : j == 1 ? ct_bits - 1 :
			      rng_below(&self->rng, ct_bits);
			ASSERT_TRUE(forged_open(&self->k, &m, PART_CT, bit))
				TH_LOG("len %zu ct bit %zu", lens[i], bit);
		}
		msg_free(&m);
	}
}

/* Changed lengths: a truncated text or AD does not open either. */
TEST_F(aead, changed_lengths)
{
	struct msg m;
	u8 *out;

	msg_make(&m, &self->k, &self->rng, 300);
	out = malloc(300);
	ASSERT_NE(NULL, out);
	EXPECT_EQ(-EBADMSG, tlsx_aead_open(&self->k, m.nonce, m.ad, 13, m.ct,
					   out, 299, m.tag));
	EXPECT_EQ(-EBADMSG, tlsx_aead_open(&self->k, m.nonce, m.ad, 12, m.ct,
					   out, 300, m.tag));
	EXPECT_EQ(-EBADMSG, tlsx_aead_open(&self->k, m.nonce, m.ad, 0, m.ct,
					   out, 300, m.tag));
	EXPECT_EQ(-EBADMSG, tlsx_aead_open(&self->k, m.nonce, m.ad, 13, m.ct,
					   out, 0, m.tag));
	EXPECT_EQ(0, tlsx_aead_open(&self->k, m.nonce, m.ad, 13, m.ct, out,
				    300, m.tag));
	free(out);
	msg_free(&m);
}

/* Scattered: every ciphertext bit of a 300-byte text in random pieces. */
TEST_F(aead, every_bit_scattered)
{
	struct tlsx_aead_seg src[40], dst[40];
	unsigned int ns, nd;
	struct msg m;
	size_t bit, at;
	u8 *ct, *out;

	msg_make(&m, &self->k, &self->rng, 300);
	ct = malloc(300);
	out = malloc(300);
	ASSERT_TRUE(ct && out);
	for (bit = 0; bit < 300 * 8; bit++) {
		/* Fresh random cuts of the source and destination. */
		for (ns = 0, at = 0; at < 300 && ns < 39; ns++) {
			size_t c = rng_below(&self->rng, 70);

			c = c < 300 - at ? c : 300 - at;
			src[ns].data = ct + at;
			src[ns].len = c;
			at += c;
		}
		src[ns].data = ct + at;
		src[ns++].len = 300 - at;
		for (nd = 0, at = 0; at < 300 && nd < 39; nd++) {
			size_t c = rng_below(&self->rng, 130);

			c = c < 300 - at ? c : 300 - at;
			dst[nd].data = out + at;
			dst[nd].len = c;
			at += c;
		}
		dst[nd].data = out + at;
		dst[nd++].len = 300 - at;

		memcpy(ct, m.ct, 300);
		ct[bit / 8] ^= 1 << (bit % 8);
		memset(out, 0xcc, 300);
		ASSERT_EQ(-EBADMSG, tlsx_aead_open_sg(&self->k, m.nonce, m.ad,
						      13, src, ns, dst, nd,
						      300, m.tag))
			TH_LOG("bit %zu", bit);
		ASSERT_TRUE(all_zero(out, 300)) TH_LOG("bit %zu", bit);
		/* In place through the source's cut. */
		ASSERT_EQ(-EBADMSG, tlsx_aead_open_sg(&self->k, m.nonce, m.ad,
						      13, src, ns, src, ns,
						      300, m.tag));
		ASSERT_TRUE(all_zero(ct, 300)) TH_LOG("bit %zu", bit);
	}
	free(ct);
	free(out);
	msg_free(&m);
}

TEST_HARNESS_MAIN
