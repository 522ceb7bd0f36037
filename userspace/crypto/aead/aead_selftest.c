// SPDX-License-Identifier: GPL-2.0
/*
 * aead_selftest.c - the load-time check of the AEADs: every
 * implementation this CPU has must reproduce the published vectors and
 * agree with the generic engine on messages of many lengths.
 *
 * Two parts, per algorithm and per available implementation:
 *
 *  - known answers (aead_kat.h): seal in place gives the published
 *    ciphertext and tag, open gives the plaintext back, and open with one
 *    bit of the tag flipped fails with -EBADMSG and wipes the output;
 *  - agreement with the generic engine on 0..1024 bytes around the block
 *    and vector sizes: what the implementation seals the generic engine
 *    opens, and the other way round, with equal tags.  The generic engine
 *    runs on the same key by switching k->impl: every key layout keeps
 *    what the generic engine needs (aead_impl.h), which is also what the
 *    dispatcher relies on to fall back.  One scattered seal checks that
 *    the segment walker gives the one-shot tag.
 *
 * It runs in the caller's context (the module's init): the key (about
 * 1 KiB) and the message buffer (1 KiB) sit in two stack frames so that
 * neither is large.
 */
#include "aead/platform.h"
#include "aead/aead.h"
#include "aead/aead_kat.h"

#define TLSX_SELFTEST_MAX	1024
#define TLSX_SELFTEST_KAT_MAX	272

/* The last one must be TLSX_SELFTEST_MAX (see tlsx_selftest_agree()). */
static const u16 tlsx_selftest_lens[] = {
	0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 129, 255, 256, 257,
	383, 511, 512, 513, 767, 1000, 1024,
};

/* One known-answer vector on the key @k, which was set from v->key. */
static int tlsx_selftest_kat(const struct tlsx_aead_key *k,
			     const struct tlsx_aead_kat *v)
{
	u8 buf[TLSX_SELFTEST_KAT_MAX];
	u8 tag[TLSX_AEAD_TAG_LEN];
	size_t i;

	if (v->len > sizeof(buf))
		return -EIO;
	if (v->len)
		memcpy(buf, v->pt, v->len);
	if (tlsx_aead_seal(k, v->nonce, v->ad, v->ad_len, buf, buf, v->len,
			   tag))
		return -EIO;
	if ((v->len && memcmp(buf, v->ct, v->len)) ||
	    memcmp(tag, v->tag, sizeof(tag)))
		return -EIO;
	if (tlsx_aead_open(k, v->nonce, v->ad, v->ad_len, buf, buf, v->len,
			   v->tag))
		return -EIO;
	if (v->len && memcmp(buf, v->pt, v->len))
		return -EIO;

	/* A forged tag is refused and releases nothing. */
	memcpy(tag, v->tag, sizeof(tag));
	tag[v->len % sizeof(tag)] ^= 0x01;
	if (tlsx_aead_open(k, v->nonce, v->ad, v->ad_len, v->ct, buf, v->len,
			   tag) != -EBADMSG)
		return -EIO;
	for (i = 0; i < v->len; i++)
		if (buf[i])
			return -EIO;
	return 0;
}

/* A message that differs for every length (a simple LCG, not secret). */
static u8 tlsx_selftest_byte(size_t len, size_t i)
{
	u32 x = (u32)(len * 2654435761u) ^ (u32)(i * 40503u + 7);

	x ^= x >> 13;
	return (u8)(x * 0x9e3779b1u >> 24);
}

static void tlsx_selftest_fill(u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = tlsx_selftest_byte(len, i);
}

static bool tlsx_selftest_intact(const u8 *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (buf[i] != tlsx_selftest_byte(len, i))
			return false;
	return true;
}

/* Seal with one engine, open with the other, both ways round. */
static noinline int tlsx_selftest_agree(struct tlsx_aead_key *k, u32 impl)
{
	static const u8 nonce[TLSX_AEAD_NONCE_LEN] = {
		0x00, 0x00, 0x00, 0x01, 0x12, 0x34, 0x56, 0x78,
		0x9a, 0xbc, 0xde, 0xf0,
	};
	static const u8 ad[13] = {
		0, 0, 0, 0, 0, 0, 0, 9, 0x17, 0x03, 0x03, 0x04, 0x00,
	};
	u8 buf[TLSX_SELFTEST_MAX];
	u8 tag_impl[TLSX_AEAD_TAG_LEN], tag_gen[TLSX_AEAD_TAG_LEN];
	struct tlsx_aead_seg seg[3];
	unsigned int i;
	int ret = -EIO;

	for (i = 0; i < ARRAY_SIZE(tlsx_selftest_lens); i++) {
		size_t len = tlsx_selftest_lens[i];

		tlsx_selftest_fill(buf, len);
		k->impl = impl;
		if (tlsx_aead_seal(k, nonce, ad, sizeof(ad), buf, buf, len,
				   tag_impl))
			goto out;
		k->impl = TLSX_IMPL_GENERIC;
		if (tlsx_aead_open(k, nonce, ad, sizeof(ad), buf, buf, len,
				   tag_impl) || !tlsx_selftest_intact(buf, len))
			goto out;
		if (tlsx_aead_seal(k, nonce, ad, sizeof(ad), buf, buf, len,
				   tag_gen))
			goto out;
		if (memcmp(tag_impl, tag_gen, sizeof(tag_gen)))
			goto out;
		k->impl = impl;
		if (tlsx_aead_open(k, nonce, ad, sizeof(ad), buf, buf, len,
				   tag_gen) || !tlsx_selftest_intact(buf, len))
			goto out;
	}

	/*
	 * The walker: three segments, one of a single byte, on the message
	 * of the last length above (TLSX_SELFTEST_MAX), whose tag is in
	 * tag_gen.
	 */
	seg[0].data = buf;
	seg[0].len = 1;
	seg[1].data = buf + 1;
	seg[1].len = 100;
	seg[2].data = buf + 101;
	seg[2].len = TLSX_SELFTEST_MAX - 101;
	tlsx_selftest_fill(buf, TLSX_SELFTEST_MAX);
	if (tlsx_aead_seal_sg(k, nonce, ad, sizeof(ad), seg, 3, seg, 3,
			      TLSX_SELFTEST_MAX, tag_impl))
		goto out;
	if (memcmp(tag_impl, tag_gen, sizeof(tag_gen)))
		goto out;
	if (tlsx_aead_open_sg(k, nonce, ad, sizeof(ad), seg, 3, seg, 3,
			      TLSX_SELFTEST_MAX, tag_gen) ||
	    !tlsx_selftest_intact(buf, TLSX_SELFTEST_MAX))
		goto out;
	ret = 0;
out:
	k->impl = impl;
	memzero_explicit(buf, sizeof(buf));
	return ret;
}

static int tlsx_selftest_impl(enum tlsx_aead_alg alg,
			      enum tlsx_aead_impl impl)
{
	/*
	 * Not on the stack: a key is 2.6 KiB (the AVX-512 AES-GCM engine's
	 * powers of H), over the kernel's frame limit.  The self-test runs
	 * once, at module load (kmod/aead_glue.c), never concurrently; the
	 * key is wiped below.
	 */
	static struct tlsx_aead_key k;
	bool tested = false;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < ARRAY_SIZE(tlsx_aead_kats) && !ret; i++) {
		const struct tlsx_aead_kat *v = &tlsx_aead_kats[i];

		if (v->alg != alg)
			continue;
		if (tlsx_aead_setkey(&k, alg, impl, v->key,
				     tlsx_aead_key_len(alg)))
			ret = -EIO;
		else
			ret = tlsx_selftest_kat(&k, v);
		tested = true;
	}
	if (!tested)
		ret = -EIO;
	/* The key of the last vector will do. */
	if (!ret && k.impl != TLSX_IMPL_GENERIC)
		ret = tlsx_selftest_agree(&k, k.impl);
	tlsx_aead_wipe(&k);
	return ret;
}

int tlsx_aead_selftest(void)
{
	static const enum tlsx_aead_alg algs[] = {
		TLSX_AEAD_AES_128_GCM,
		TLSX_AEAD_AES_256_GCM,
		TLSX_AEAD_CHACHA20_POLY1305,
		TLSX_AEAD_AES_128_CCM,
	};
	unsigned int a;
	int impl;

	for (a = 0; a < ARRAY_SIZE(algs); a++) {
		/* Every key can fall back to it: it must be there. */
		if (!tlsx_aead_impl_available(algs[a], TLSX_IMPL_GENERIC))
			return -EIO;
		for (impl = TLSX_IMPL_GENERIC; impl < TLSX_IMPL_COUNT; impl++) {
			if (!tlsx_aead_impl_available(algs[a], impl))
				continue;
			if (tlsx_selftest_impl(algs[a], impl))
				return -EIO;
		}
	}
	return 0;
}
