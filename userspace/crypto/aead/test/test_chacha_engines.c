// SPDX-License-Identifier: GPL-2.0
/*
 * test_chacha_engines.c - every ChaCha20 keystream primitive this CPU can
 * run (chacha_engines.h) against the portable one, called directly: the
 * AEAD ops reach only one encoding of the SSSE3 engine on a given CPU
 * (the VEX one when it has AVX), so the legacy-SSE copy is tested here.
 * All lengths 0..1100 and a few long ones, counters near the 32-bit wrap,
 * in place and out of place, and the first pass (xor0) up to its size.
 * The AVX2 and AVX-512 engines' walks over segment lists against the
 * same.
 */
#include <stdlib.h>
#include <string.h>
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"
#include "aead/platform.h"
#include "aead/aead_impl.h"
#include "aead/chacha_engines.h"

typedef void (*xor_fn)(const u32 key[8], const u32 nonce[3], u32 counter,
		       const u8 *src, u8 *dst, size_t len);
typedef void (*xor0_fn)(const u32 key[8], const u32 nonce[3], u8 otk[32],
			const u8 *src, u8 *dst, size_t len);

struct engine {
	const char *name;
	xor_fn xor;
	xor0_fn xor0;
	size_t first;
	bool (*usable)(const struct tlsx_cpu *cpu);
};

static bool has_ssse3(const struct tlsx_cpu *cpu) { return cpu->ssse3; }
static bool has_avx(const struct tlsx_cpu *cpu) { return cpu->avx; }
static bool has_avx2(const struct tlsx_cpu *cpu) { return cpu->avx2; }
static bool has_avx512(const struct tlsx_cpu *cpu)
{
	return cpu->avx512f && cpu->avx512bw && cpu->avx512vl && cpu->avx2;
}

static const struct engine engines[] = {
	{ "ssse3", tlsx_chacha20_xor_ssse3, tlsx_chacha20_xor0_ssse3,
	  TLSX_CHACHA_FIRST_SSSE3, has_ssse3 },
	{ "ssse3_vex", tlsx_chacha20_xor_ssse3_vex,
	  tlsx_chacha20_xor0_ssse3_vex, TLSX_CHACHA_FIRST_SSSE3, has_avx },
	{ "avx2", tlsx_chacha20_xor_avx2, tlsx_chacha20_xor0_avx2,
	  TLSX_CHACHA_FIRST_AVX2, has_avx2 },
	{ "avx512", tlsx_chacha20_xor_avx512, tlsx_chacha20_xor0_avx512,
	  TLSX_CHACHA_FIRST_AVX512, has_avx512 },
};

#define MAXLEN 20000

static void fill(u8 *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(seed * 131 + i * 7 + (i >> 8));
}

TEST(keystream)
{
	static const u32 counters[] = { 0, 1, 7, 0xfffffff0, 0xffffffff };
	static const size_t longs[] = { 2048, 4095, 4096, 4097, 16384, 16447,
					MAXLEN };
	const struct tlsx_cpu *cpu = tlsx_cpu_features();
	u8 *src = malloc(MAXLEN + 1), *want = malloc(MAXLEN),
	   *got = malloc(MAXLEN + 1);
	u32 key[8], nonce[3] = { 0x01020304, 0x0a0b0c0d, 0x55aa55aa };
	unsigned int e, c, tested = 0;
	size_t len, i;

	ASSERT_TRUE(src && want && got);
	for (i = 0; i < 8; i++)
		key[i] = 0x9e3779b9u * (u32)(i + 1);
	fill(src, MAXLEN + 1, 3);
	for (e = 0; e < ARRAY_SIZE(engines); e++) {
		const struct engine *en = &engines[e];

		if (!en->usable(cpu))
			continue;
		tested++;
		for (c = 0; c < ARRAY_SIZE(counters); c++) {
			for (len = 0; len <= MAXLEN;
			     len = len < 1100 ? len + 1 : MAXLEN + 1) {
				/* out of place, misaligned source */
				tlsx_chacha20_xor_generic(key, nonce,
							  counters[c],
							  src + 1, want, len);
				memset(got, 0, len);
				en->xor(key, nonce, counters[c], src + 1, got,
					len);
				ASSERT_EQ(0, memcmp(got, want, len)) {
					TH_LOG("%s counter %u len %zu",
					       en->name, counters[c], len);
				}
				/* in place */
				memcpy(got, src + 1, len);
				en->xor(key, nonce, counters[c], got, got, len);
				ASSERT_EQ(0, memcmp(got, want, len)) {
					TH_LOG("%s in place counter %u len %zu",
					       en->name, counters[c], len);
				}
			}
			for (i = 0; i < ARRAY_SIZE(longs); i++) {
				len = longs[i];
				tlsx_chacha20_xor_generic(key, nonce,
							  counters[c], src,
							  want, len);
				en->xor(key, nonce, counters[c], src, got, len);
				ASSERT_EQ(0, memcmp(got, want, len)) {
					TH_LOG("%s counter %u len %zu",
					       en->name, counters[c], len);
				}
			}
		}
		for (len = 0; len <= en->first; len++) {
			u8 otk[32], block0[64];

			tlsx_chacha20_block_generic(key, nonce, 0, block0);
			tlsx_chacha20_xor_generic(key, nonce, 1, src, want,
						  len);
			en->xor0(key, nonce, otk, src, got, len);
			ASSERT_EQ(0, memcmp(otk, block0, 32)) {
				TH_LOG("%s otk, len %zu", en->name, len);
			}
			ASSERT_EQ(0, memcmp(got, want, len)) {
				TH_LOG("%s xor0 len %zu", en->name, len);
			}
		}
	}
	TH_LOG("%u engines tested", tested);
	free(src);
	free(want);
	free(got);
}

static u64 rng = 0x12345678;

/* The next random number (aead_test.h's generator). */
static u32 rnd(void)
{
	return (u32)rng_next(&rng);
}

/*
 * Cut @len bytes at @buf into segments as the record layer hands them: a
 * head of 0..300 bytes, then pieces of 64 bytes to 4 KiB (some exactly 64,
 * the rule's least), empty segments among them.  Returns the count.
 */
static unsigned int cut(struct tlsx_aead_seg *seg, u8 *buf, size_t len)
{
	unsigned int n = 0;
	size_t at = 0, l;

	while (at < len) {
		if (!at)
			l = rnd() % 301;
		else if (rnd() % 8 == 0)
			l = 0;
		else if (rnd() % 6 == 0)
			l = 64;
		else
			l = 64 + rnd() % 4033;
		if (l > len - at)
			l = len - at;
		seg[n].data = buf + at;
		seg[n].len = l;
		n++;
		at += l;
	}
	seg[n].data = buf + len;	/* an empty one at the end */
	seg[n].len = 0;
	return n + 1;
}

typedef void (*xor_sg_fn)(const u32 key[8], const u32 nonce[3],
			  u32 counter, struct tlsx_sg_pos *src,
			  struct tlsx_sg_pos *dst, size_t len);

static void keystream_sg(struct __test_metadata *_metadata, xor_sg_fn xor_sg)
{
	static const u32 counters[] = { 1, 7, 0xfffffff0 };
	static struct tlsx_aead_seg ss[MAXLEN / 64 + 8], ds[MAXLEN / 64 + 8];
	u8 *src = malloc(MAXLEN), *want = malloc(MAXLEN),
	   *got = malloc(MAXLEN);
	u32 key[8], nonce[3] = { 0x11223344, 0x55667788, 0x99aabbcc };
	unsigned int i, c, ns, nd;
	size_t len;

	ASSERT_TRUE(src && want && got);
	for (i = 0; i < 8; i++)
		key[i] = 0x7f4a7c15u * (u32)(i + 3);
	fill(src, MAXLEN, 9);
	for (i = 0; i < 3000; i++) {
		struct tlsx_sg_pos a, b;
		bool in_place = i % 3 == 0;

		len = i < 2000 ? 1 + rnd() % 17000 : 1 + rnd() % MAXLEN;
		c = counters[i % ARRAY_SIZE(counters)];
		tlsx_chacha20_xor_generic(key, nonce, c, src, want, len);
		if (in_place)
			memcpy(got, src, len);
		else
			memset(got, 0, len);
		ns = cut(ss, in_place ? got : src, len);
		nd = cut(ds, got, len);
		a = (struct tlsx_sg_pos){ ss, ns, 0 };
		b = (struct tlsx_sg_pos){ ds, nd, 0 };
		xor_sg(key, nonce, c, &a, &b, len);
		ASSERT_EQ(0, memcmp(got, want, len)) {
			TH_LOG("case %u len %zu counter %u in place %d", i, len,
			       c, in_place);
		}
		/* both positions moved on by exactly len bytes */
		ASSERT_EQ(tlsx_sg_ptr(&a), (in_place ? got : src) + len);
		ASSERT_EQ(tlsx_sg_ptr(&b), got + len);
	}
	free(src);
	free(want);
	free(got);
}

TEST(keystream_sg_avx2)
{
	if (!has_avx2(tlsx_cpu_features()))
		SKIP(return, "no AVX2");
	keystream_sg(_metadata, tlsx_chacha20_xor_sg_avx2);
}

TEST(keystream_sg_avx512)
{
	if (!has_avx512(tlsx_cpu_features()))
		SKIP(return, "no AVX-512");
	keystream_sg(_metadata, tlsx_chacha20_xor_sg_avx512);
}

TEST_HARNESS_MAIN
