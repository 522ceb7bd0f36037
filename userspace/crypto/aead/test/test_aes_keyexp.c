// SPDX-License-Identifier: GPL-2.0
/*
 * test_aes_keyexp.c - the AES-NI key setup of aes_keyexp_aesni.c (both
 * builds: legacy SSE and VEX) against FIPS-197 appendix A and against
 * the portable tlsx_aes_expand_key()/tlsx_aes_encrypt_block() of
 * gcm_generic.c, which the generic engine needs to run on any key: the
 * round keys must be the same bytes, H the same block, the return the
 * same number of rounds, and nothing written past the round keys.
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"
#include "aead/gcm_engines.h"

typedef u32 (*setkey_fn)(u8 rk[15 * 16], const u8 *key, size_t key_len,
			 u8 *h);

FIXTURE(kx) {
	setkey_fn fn;
};

FIXTURE_VARIANT(kx) {
	bool avx;
};

FIXTURE_VARIANT_ADD(kx, sse) {
	.avx = false,
};

FIXTURE_VARIANT_ADD(kx, avx) {
	.avx = true,
};

FIXTURE_SETUP(kx)
{
	const struct tlsx_cpu *cpu = tlsx_cpu_features();

	if (!cpu->aesni)
		SKIP(return, "no AES-NI");
	if (variant->avx && !cpu->avx)
		SKIP(return, "no AVX");
	self->fn = variant->avx ? tlsx_aes_setkey_aesni_avx :
				  tlsx_aes_setkey_aesni;
}

FIXTURE_TEARDOWN(kx)
{
}

static void unhex(u8 *out, const char *hex)
{
	while (hex[0] && hex[1]) {
		unsigned int v;

		if (hex[0] == ' ') {
			hex++;
			continue;
		}
		sscanf(hex, "%2x", &v);
		*out++ = (u8)v;
		hex += 2;
	}
}

/*
 * Run both the AES-NI and the portable setup on @key; 0 when they agree
 * in every byte and in the rounds, with the 0xa5 fill past the last
 * round key and past H untouched.
 */
static int compare(setkey_fn fn, const u8 *key, size_t key_len,
		   char *what, size_t what_len)
{
	static const u8 zero[16];
	struct tlsx_gcm_key ref;
	u8 rk[15 * 16 + 16], h[32];
	u32 rounds, i;

	memset(&ref, 0, sizeof(ref));
	ref.rounds = tlsx_aes_expand_key(ref.rk, key, key_len);
	tlsx_aes_encrypt_block(&ref, zero, ref.h);

	memset(rk, 0xa5, sizeof(rk));
	memset(h, 0xa5, sizeof(h));
	rounds = fn(rk, key, key_len, h);
	if (rounds != ref.rounds) {
		snprintf(what, what_len, "rounds %u, want %u", rounds,
			 ref.rounds);
		return -1;
	}
	for (i = 0; i <= rounds; i++) {
		if (memcmp(rk + 16 * i, ref.rk + 16 * i, 16)) {
			snprintf(what, what_len, "round key %u differs", i);
			return -1;
		}
	}
	for (i = 16 * (rounds + 1); i < sizeof(rk); i++) {
		if (rk[i] != 0xa5) {
			snprintf(what, what_len, "wrote rk[%u]", i);
			return -1;
		}
	}
	if (memcmp(h, ref.h, 16)) {
		snprintf(what, what_len, "H differs");
		return -1;
	}
	for (i = 16; i < sizeof(h); i++) {
		if (h[i] != 0xa5) {
			snprintf(what, what_len, "wrote h[%u]", i);
			return -1;
		}
	}
	/* Without H: the same round keys, @h not needed. */
	memset(rk, 0xa5, sizeof(rk));
	if (fn(rk, key, key_len, NULL) != rounds ||
	    memcmp(rk, ref.rk, 16 * (rounds + 1))) {
		snprintf(what, what_len, "without H: round keys differ");
		return -1;
	}
	return 0;
}

/*
 * FIPS-197 appendix A.1 (AES-128, key 2b7e1516...): w[4..7], w[20..23]
 * and w[40..43] of the expansion table.
 */
TEST_F(kx, fips197_a1)
{
	u8 key[16], rk[15 * 16], want[16];

	unhex(key, "2b7e151628aed2a6abf7158809cf4f3c");
	ASSERT_EQ(10, self->fn(rk, key, 16, NULL));
	EXPECT_EQ(0, memcmp(rk, key, 16));
	unhex(want, "a0fafe17 88542cb1 23a33939 2a6c7605");
	EXPECT_EQ(0, memcmp(rk + 16, want, 16));
	unhex(want, "d4d1c6f8 7c839d87 caf2b8bc 11f915bc");
	EXPECT_EQ(0, memcmp(rk + 16 * 5, want, 16));
	unhex(want, "d014f9a8 c9ee2589 e13f0cc8 b6630ca6");
	EXPECT_EQ(0, memcmp(rk + 16 * 10, want, 16));
}

/*
 * FIPS-197 appendix A.3 (AES-256, key 603deb10...): w[8..11] (the first
 * derived words), w[12..15] (SubWord without RotWord or Rcon, the Nk = 8
 * case of 5.2) and w[56..59].
 */
TEST_F(kx, fips197_a3)
{
	u8 key[32], rk[15 * 16], want[16];

	unhex(key, "603deb1015ca71be2b73aef0857d7781 1f352c073b6108d72d9810a30914dff4");
	ASSERT_EQ(14, self->fn(rk, key, 32, NULL));
	EXPECT_EQ(0, memcmp(rk, key, 32));
	unhex(want, "9ba35411 8e6925af a51a8b5f 2067fcde");
	EXPECT_EQ(0, memcmp(rk + 16 * 2, want, 16));
	unhex(want, "a8b09c1a 93d194cd be49846e b75d5b9a");
	EXPECT_EQ(0, memcmp(rk + 16 * 3, want, 16));
	unhex(want, "fe4890d1 e6188d0b 046df344 706c631e");
	EXPECT_EQ(0, memcmp(rk + 16 * 14, want, 16));
}

/*
 * H = AES_K(0^128) for the all-zero keys: SP 800-38D's reference test
 * cases 1 (AES-128) and 13 (AES-256) list it.
 */
TEST_F(kx, h_zero_keys)
{
	u8 key[32] = { 0 }, rk[15 * 16], h[16], want[16];

	self->fn(rk, key, 16, h);
	unhex(want, "66e94bd4ef8a2c3b884cfa59ca342b2e");
	EXPECT_EQ(0, memcmp(h, want, 16));
	self->fn(rk, key, 32, h);
	unhex(want, "dc95c078a2408989ad48a21492842087");
	EXPECT_EQ(0, memcmp(h, want, 16));
}

/* All-zero and all-0xff keys, then many random ones, both sizes. */
TEST_F(kx, same_as_portable)
{
	static const size_t lens[] = { 16, 32 };
	u8 key[32];
	char what[64];
	u64 rng = 0x6b657965;
	size_t l;
	int i;

	for (l = 0; l < 2; l++) {
		memset(key, 0, sizeof(key));
		ASSERT_EQ(0, compare(self->fn, key, lens[l], what,
				     sizeof(what)))
			TH_LOG("zero key, %zu bytes: %s", lens[l], what);
		memset(key, 0xff, sizeof(key));
		ASSERT_EQ(0, compare(self->fn, key, lens[l], what,
				     sizeof(what)))
			TH_LOG("0xff key, %zu bytes: %s", lens[l], what);
		for (i = 0; i < 20000; i++) {
			rng_fill(&rng, key, sizeof(key));
			ASSERT_EQ(0, compare(self->fn, key, lens[l], what,
					     sizeof(what)))
				TH_LOG("key %d, %zu bytes: %s", i, lens[l],
				       what);
		}
	}
}

/* Unaligned key and output buffers (the functions use loadu/storeu). */
TEST_F(kx, unaligned)
{
	static const u8 zero[16];
	struct tlsx_gcm_key ref;
	u8 kbuf[33], rkbuf[15 * 16 + 1], hbuf[17];
	u64 rng = 7;

	rng_fill(&rng, kbuf, sizeof(kbuf));
	memset(&ref, 0, sizeof(ref));
	ref.rounds = tlsx_aes_expand_key(ref.rk, kbuf + 1, 32);
	tlsx_aes_encrypt_block(&ref, zero, ref.h);
	ASSERT_EQ(14, self->fn(rkbuf + 1, kbuf + 1, 32, hbuf + 1));
	EXPECT_EQ(0, memcmp(rkbuf + 1, ref.rk, 15 * 16));
	EXPECT_EQ(0, memcmp(hbuf + 1, ref.h, 16));
}

TEST_HARNESS_MAIN
