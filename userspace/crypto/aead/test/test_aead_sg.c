// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_sg.c - tlsx_aead_seal_sg()/tlsx_aead_open_sg() over random
 * segmentations, on every implementation, against OpenSSL.
 *
 * A layout is a list of segments scattered in one arena with gaps between
 * them; segments have random lengths with many of 0 and 1 bytes, and the
 * list may hold more than the text.  Every arena byte that is not one of
 * the first @len bytes of the list keeps a known pattern and is checked
 * after each call (the gaps, the tail beyond @len, the arena's guards).
 * In place, source and destination are two different segmentations of
 * the same bytes.  A failed open must wipe exactly the first @len bytes.
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"

#define MAX_SEGS	4096

struct layout {
	struct gbuf arena;
	struct tlsx_aead_seg seg[MAX_SEGS];
	unsigned int n;
	size_t total;		/* bytes the segments hold */
};

/* A random segment length: often tiny, sometimes large. */
static size_t pick_len(u64 *rng, size_t left)
{
	size_t r = rng_below(rng, 100), len;

	if (r < 10)
		len = 0;
	else if (r < 22)
		len = 1;
	else if (r < 50)
		len = 2 + rng_below(rng, 62);
	else if (r < 60)
		len = 64;
	else if (r < 85)
		len = 65 + rng_below(rng, 300);
	else
		len = 365 + rng_below(rng, 6000);
	return len < left ? len : left;
}

/*
 * A segment of style 4: the first of any length (a head, or what is left
 * of a page), then pieces that hold a vector each (skb fragments, pages),
 * some empty; the last is what is left.  The lists the wide engines walk
 * themselves (update_sg()).
 */
static size_t pick_vector_len(u64 *rng, unsigned int i, size_t left)
{
	size_t r = rng_below(rng, 100), len;

	if (i == 0)
		len = rng_below(rng, 200);
	else if (r < 8)
		len = 0;
	else if (r < 30)
		len = 64 + rng_below(rng, 3) * 16 + rng_below(rng, 2);
	else if (r < 45)
		len = 4096;
	else if (r < 60)
		len = 1448;
	else
		len = 64 + rng_below(rng, 3000);
	return len < left ? len : left;
}

/*
 * Lay @total bytes out in random segments with random gaps.  @style 0:
 * random lengths; 1: one segment; 2: all 1-byte segments (short texts
 * only); 3: segments of 63 bytes; 4: pieces of a vector or more.
 */
static void layout_make(struct layout *l, u64 *rng, size_t total, int style)
{
	size_t lens[MAX_SEGS], gaps[MAX_SEGS], room = 0, left = total, at;
	unsigned int i, n = 0;

	while (n < MAX_SEGS - 2 && (left || rng_below(rng, 4) == 0)) {
		size_t c;

		switch (style) {
		case 1:
			c = left;
			break;
		case 2:
			c = left ? 1 : 0;
			break;
		case 3:
			c = left < 63 ? left : 63;
			break;
		case 4:
			c = pick_vector_len(rng, n, left);
			break;
		default:
			c = pick_len(rng, left);
		}
		lens[n] = c;
		gaps[n] = rng_below(rng, 3) ? rng_below(rng, 17) : 0;
		room += c + gaps[n];
		left -= c;
		n++;
		if (!left && style)
			break;
	}
	if (left) {		/* out of segment slots: one big last one */
		lens[n] = left;
		gaps[n] = 0;
		room += left;
		n++;
	}
	/* A trailing empty segment now and then. */
	if (rng_below(rng, 4) == 0) {
		lens[n] = 0;
		gaps[n] = 0;
		n++;
	}
	gbuf_init(&l->arena, room, rng_below(rng, 64));
	at = 0;
	for (i = 0; i < n; i++) {
		at += gaps[i];
		l->seg[i].data = lens[i] || rng_below(rng, 2) ?
				 l->arena.p + at : NULL;
		l->seg[i].len = lens[i];
		at += lens[i];
	}
	l->n = n;
	l->total = total;
}

/*
 * The same bytes as @src, cut differently: every segment split at random
 * points (empty pieces included).  For in-place calls.
 */
static void layout_recut(struct layout *dst, const struct layout *src,
			 u64 *rng)
{
	unsigned int i, n = 0;

	dst->arena.base = NULL;
	for (i = 0; i < src->n && n < MAX_SEGS - 8; i++) {
		u8 *p = src->seg[i].data;
		size_t left = src->seg[i].len;

		while (left && n < MAX_SEGS - 8 && rng_below(rng, 3) == 0) {
			size_t c = rng_below(rng, left + 1);

			dst->seg[n].data = p;
			dst->seg[n++].len = c;
			p += c;
			left -= c;
		}
		dst->seg[n].data = p;
		dst->seg[n++].len = left;
	}
	for (; i < src->n; i++)
		dst->seg[n++] = src->seg[i];
	dst->n = n;
	dst->total = src->total;
}

/* Arena pattern byte at arena offset @i (guards included). */
static void layout_reset(struct layout *l)
{
	size_t i;

	GUARD_UNPOISON(l->arena.base, gbuf_total(&l->arena));
	for (i = 0; i < gbuf_total(&l->arena); i++)
		l->arena.base[i] = guard_byte(i);
	gbuf_poison(&l->arena);
}

static void layout_scatter(struct layout *l, const u8 *src, size_t len)
{
	unsigned int i;

	for (i = 0; len; i++) {
		size_t c = l->seg[i].len < len ? l->seg[i].len : len;

		mem_copy(l->seg[i].data, src, c);
		src += c;
		len -= c;
	}
}

static void layout_gather(const struct layout *l, u8 *dst, size_t len)
{
	unsigned int i;

	for (i = 0; len; i++) {
		size_t c = l->seg[i].len < len ? l->seg[i].len : len;

		mem_copy(dst, l->seg[i].data, c);
		dst += c;
		len -= c;
	}
}

/* Does every arena byte outside the first @len of the list keep its pattern? */
static bool layout_rest_intact(struct layout *l, size_t len)
{
	size_t total = gbuf_total(&l->arena), i;
	u8 *mark = calloc(total, 1);
	unsigned int s;
	bool ok = true;

	if (!mark)
		abort();
	for (s = 0; len; s++) {
		size_t c = l->seg[s].len < len ? l->seg[s].len : len;

		if (c)
			memset(mark + (l->seg[s].data - l->arena.base), 1, c);
		len -= c;
	}
	GUARD_UNPOISON(l->arena.base, total);
	for (i = 0; i < total; i++)
		if (!mark[i] && l->arena.base[i] != guard_byte(i))
			ok = false;
	gbuf_poison(&l->arena);
	free(mark);
	return ok;
}

/* Are the first @len bytes of the list zero? */
static bool layout_zero(const struct layout *l, size_t len)
{
	u8 *tmp = malloc(len + 1);
	bool ok;

	if (!tmp)
		abort();
	layout_gather(l, tmp, len);
	ok = all_zero(tmp, len);
	free(tmp);
	return ok;
}

FIXTURE(aead) {
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng;
	struct layout *a, *b, *c;
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
	self->rng = 0x5e900000 + variant->alg * 16 + variant->impl;
	ASSERT_EQ(0, test_setkey(&self->k, self->key, &self->rng,
				 variant->alg, variant->impl));
	self->a = calloc(1, sizeof(*self->a));
	self->b = calloc(1, sizeof(*self->b));
	self->c = calloc(1, sizeof(*self->c));
	ASSERT_TRUE(self->a && self->b && self->c);
}

FIXTURE_TEARDOWN(aead)
{
	tlsx_aead_wipe(&self->k);
	free(self->a);
	free(self->b);
	free(self->c);
}

struct sg_ctx {
	const struct tlsx_aead_key *k;
	const u8 *key;
	u64 *rng;
	enum tlsx_aead_alg alg;
	struct layout *a, *b, *c;
};

#define SG_CTX(self, variant) {						\
	.k = &(self)->k,						\
	.key = (self)->key,						\
	.rng = &(self)->rng,						\
	.alg = (variant)->alg,						\
	.a = (self)->a,							\
	.b = (self)->b,							\
	.c = (self)->c,							\
}

/*
 * One round: seal @len bytes from layout a to layout b (or in place in a,
 * recut as b), compare with OpenSSL, open back, then open with a bad tag.
 * The layouts hold @len plus up to @extra bytes.
 */
static bool sg_round(struct __test_metadata *_metadata, struct sg_ctx *c,
		     size_t len, size_t extra, bool in_place, int style)
{
	u8 *pt = malloc(len + 1), *ref = malloc(len + 1), *got = malloc(len + 1);
	u8 nonce[12], ad[64], tag[16], ref_tag[16];
	size_t ad_len = rng_below(c->rng, sizeof(ad) + 1);
	struct layout *src = c->a, *dst = in_place ? c->b : c->c;
	bool ok = true;

	if (!pt || !ref || !got)
		abort();
	rng_fill(c->rng, pt, len);
	rng_fill(c->rng, nonce, sizeof(nonce));
	rng_fill(c->rng, ad, ad_len);
	ASSERT_EQ(0, ref_seal(c->alg, c->key, nonce, ad, ad_len, pt, len, ref,
			      ref_tag));

	layout_make(src, c->rng, len + rng_below(c->rng, extra + 1), style);
	if (in_place && style == 4) {
		/* In place over the same cut: the engine's own pass. */
		memcpy(dst->seg, src->seg, src->n * sizeof(*src->seg));
		dst->n = src->n;
		dst->total = src->total;
		dst->arena.base = NULL;
	} else if (in_place) {
		layout_recut(dst, src, c->rng);
	} else {
		layout_make(dst, c->rng, len + rng_below(c->rng, extra + 1),
			    style == 4 ? 4 : (int)rng_below(c->rng, 4));
	}
	layout_scatter(src, pt, len);

	ASSERT_EQ(0, tlsx_aead_seal_sg(c->k, nonce, ad, ad_len, src->seg,
				       src->n, dst->seg, dst->n, len, tag));
	layout_gather(dst, got, len);
	if (memcmp(got, ref, len) || memcmp(tag, ref_tag, 16)) {
		TH_LOG("seal_sg differs: len %zu in_place %d", len, in_place);
		ok = false;
	}
	if (!in_place) {
		layout_gather(src, got, len);
		if (memcmp(got, pt, len)) {
			TH_LOG("seal_sg changed its source: len %zu", len);
			ok = false;
		}
		ok &= layout_rest_intact(src, len);
	}
	if (!layout_rest_intact(in_place ? src : dst, len)) {
		TH_LOG("seal_sg wrote outside the text: len %zu", len);
		ok = false;
	}

	/* Open back: the ciphertext in dst, plaintext to src. */
	if (!in_place)
		layout_reset(src);
	ASSERT_EQ(0, tlsx_aead_open_sg(c->k, nonce, ad, ad_len, dst->seg,
				       dst->n, src->seg, src->n, len, tag))
		TH_LOG("open_sg refused: len %zu in_place %d", len, in_place);
	layout_gather(src, got, len);
	if (memcmp(got, pt, len) || !layout_rest_intact(src, len)) {
		TH_LOG("open_sg: len %zu in_place %d", len, in_place);
		ok = false;
	}

	/* A bad tag: -EBADMSG, the first len bytes of dst wiped, no more. */
	layout_scatter(src, ref, len);
	tag[rng_below(c->rng, 16)] ^= 1 << rng_below(c->rng, 8);
	EXPECT_EQ(-EBADMSG, tlsx_aead_open_sg(c->k, nonce, ad, ad_len,
					      src->seg, src->n, dst->seg,
					      dst->n, len, tag));
	if (!layout_zero(dst, len) ||
	    !layout_rest_intact(in_place ? src : dst, len)) {
		TH_LOG("failed open_sg did not wipe exactly: len %zu", len);
		ok = false;
	}

	gbuf_free(&src->arena);
	if (!in_place)
		gbuf_free(&dst->arena);
	free(pt);
	free(ref);
	free(got);
	return ok;
}

/* Text lengths: mostly short records, some long ones. */
static size_t pick_text_len(u64 *rng)
{
	size_t r = rng_below(rng, 100);

	if (r < 50)
		return rng_below(rng, 300);
	if (r < 80)
		return 300 + rng_below(rng, 1700);
	if (r < 95)
		return 2000 + rng_below(rng, 7000);
	return 9000 + rng_below(rng, 16384 + 256 - 9000 + 1);
}

TEST_F(aead, random_segmentations)
{
	struct sg_ctx c = SG_CTX(self, variant);
	int i;

	for (i = 0; i < 600; i++) {
		size_t len = pick_text_len(&self->rng);

		ASSERT_TRUE(sg_round(_metadata, &c, len, 40, i & 1,
				     rng_below(&self->rng, 4) ? 0 : 3));
	}
}

/*
 * Lists whose inner pieces hold a vector, as tlsx.ko's are (a head then
 * pages; skb fragments): the wide AES-GCM engine walks these itself, a
 * vector across two pieces loaded and stored in halves.
 */
TEST_F(aead, vector_pieces)
{
	struct sg_ctx c = SG_CTX(self, variant);
	int i;

	for (i = 0; i < 600; i++) {
		size_t len = pick_text_len(&self->rng);

		ASSERT_TRUE(sg_round(_metadata, &c, len, 40, i & 1, 4));
	}
}

TEST_F(aead, one_byte_segments)
{
	struct sg_ctx c = SG_CTX(self, variant);
	size_t len;

	for (len = 0; len <= 300; len += 1 + len / 16)
		ASSERT_TRUE(sg_round(_metadata, &c, len, 3, len & 1, 2));
}

TEST_F(aead, single_segment)
{
	struct sg_ctx c = SG_CTX(self, variant);
	size_t len;

	for (len = 0; len <= 16384 + 256; len += 1 + len / 4)
		ASSERT_TRUE(sg_round(_metadata, &c, len, 64, len & 1, 1));
}

/*
 * Segment boundaries just around the SIMD chunk (4 KiB) and the update
 * alignment: a block straddling the end of a chunk, a 1-byte segment
 * where a chunk ends, runs that are not multiples of 64.
 */
TEST_F(aead, boundaries_at_chunk)
{
	static const size_t cuts[][3] = {
		{ 4095, 2, 0 }, { 4096, 1, 0 }, { 4032, 65, 0 },
		{ 1, 4095, 1 }, { 4097, 4095, 0 }, { 63, 4097, 64 },
		{ 8191, 1, 1 }, { 64, 64, 4033 },
	};
	struct tlsx_aead_seg src[4], dst[4];
	u8 *pt = malloc(16640), *buf = malloc(16640), *ref = malloc(16640);
	u8 nonce[12] = { 1 }, ad[13] = { 2 }, tag[16], ref_tag[16];
	size_t len = 16640, i, j, at;

	ASSERT_TRUE(pt && buf && ref);
	rng_fill(&self->rng, pt, len);
	ASSERT_EQ(0, ref_seal(variant->alg, self->key, nonce, ad, sizeof(ad),
			      pt, len, ref, ref_tag));
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		for (j = 0, at = 0; j < 3; j++) {
			src[j].data = pt + at;
			src[j].len = cuts[i][j];
			at += cuts[i][j];
		}
		src[3].data = pt + at;
		src[3].len = len - at;
		/* The destination is cut at the next cuts row. */
		for (j = 0, at = 0; j < 3; j++) {
			dst[j].data = buf + at;
			dst[j].len = cuts[(i + 1) % ARRAY_SIZE(cuts)][j];
			at += dst[j].len;
		}
		dst[3].data = buf + at;
		dst[3].len = len - at;
		ASSERT_EQ(0, tlsx_aead_seal_sg(&self->k, nonce, ad, sizeof(ad),
					       src, 4, dst, 4, len, tag));
		EXPECT_EQ(0, memcmp(buf, ref, len)) TH_LOG("cut %zu", i);
		EXPECT_EQ(0, memcmp(tag, ref_tag, 16)) TH_LOG("cut %zu", i);
		/* Open in place over the destination's segments. */
		ASSERT_EQ(0, tlsx_aead_open_sg(&self->k, nonce, ad, sizeof(ad),
					       dst, 4, dst, 4, len, tag));
		EXPECT_EQ(0, memcmp(buf, pt, len)) TH_LOG("cut %zu", i);
	}
	free(pt);
	free(buf);
	free(ref);
}

/* Lists too short for @len, or with a missing buffer: -EINVAL, no write. */
TEST_F(aead, short_lists)
{
	u8 a[100], b[100], nonce[12] = { 0 }, tag[16];
	struct tlsx_aead_seg s[2] = { { a, 40 }, { a + 40, 59 } };
	struct tlsx_aead_seg d[2] = { { b, 50 }, { b + 50, 50 } };
	struct tlsx_aead_seg hole[2] = { { NULL, 10 }, { b, 90 } };
	u8 ref_tag[16];

	memset(a, 0x11, sizeof(a));
	memset(b, 0x22, sizeof(b));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal_sg(&self->k, nonce, NULL, 0, s, 2,
					     d, 2, 100, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal_sg(&self->k, nonce, NULL, 0, d, 2,
					     s, 2, 100, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_open_sg(&self->k, nonce, NULL, 0, s, 2,
					     d, 2, 100, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal_sg(&self->k, nonce, NULL, 0, s, 1,
					     d, 2, 41, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal_sg(&self->k, nonce, NULL, 0, NULL, 0,
					     d, 2, 1, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal_sg(&self->k, nonce, NULL, 0, hole, 2,
					     d, 2, 20, tag));
	EXPECT_EQ(-EINVAL, tlsx_aead_open_sg(&self->k, nonce, NULL, 0, d, 2,
					     hole, 2, 20, tag));
	EXPECT_TRUE(a[0] == 0x11 && b[0] == 0x22 && b[99] == 0x22);

	/* Empty text with no segments at all is fine: the tag of the AD. */
	ASSERT_EQ(0, tlsx_aead_seal_sg(&self->k, nonce, a, 13, NULL, 0, NULL,
				       0, 0, tag));
	ASSERT_EQ(0, ref_seal(variant->alg, self->key, nonce, a, 13, NULL, 0,
			      NULL, ref_tag));
	EXPECT_EQ(0, memcmp(tag, ref_tag, 16));
	EXPECT_EQ(0, tlsx_aead_open_sg(&self->k, nonce, a, 13, NULL, 0, NULL,
				       0, 0, tag));
	/* 99 bytes are enough when 99 are asked for. */
	EXPECT_EQ(0, tlsx_aead_seal_sg(&self->k, nonce, NULL, 0, s, 2, d, 2,
				       99, tag));
}

TEST_HARNESS_MAIN
