// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_args.c - the AEAD API around the cryptography: names, key
 * lengths, which implementations are offered, the automatic and forced
 * choice (tlsx_aead_force_impl() and TLSX_AEAD_IMPL), argument errors
 * (-EINVAL, -EOPNOTSUPP), keys that are not set up, and wiping.
 *
 * Each test runs in a process of its own (the harness forks), so a forced
 * implementation or an environment variable does not leak into another.
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"

static const enum tlsx_aead_alg algs[] = {
	TLSX_AEAD_AES_128_GCM,
	TLSX_AEAD_AES_256_GCM,
	TLSX_AEAD_CHACHA20_POLY1305,
	TLSX_AEAD_AES_128_CCM,
};

TEST(impl_names)
{
	int i;

	EXPECT_STREQ("auto", tlsx_aead_impl_name(TLSX_IMPL_AUTO));
	EXPECT_STREQ("generic", tlsx_aead_impl_name(TLSX_IMPL_GENERIC));
	EXPECT_STREQ("sse", tlsx_aead_impl_name(TLSX_IMPL_SSE));
	EXPECT_STREQ("avx2", tlsx_aead_impl_name(TLSX_IMPL_AVX2));
	EXPECT_STREQ("avx512", tlsx_aead_impl_name(TLSX_IMPL_AVX512));
	EXPECT_STREQ("unknown", tlsx_aead_impl_name(TLSX_IMPL_COUNT));
	EXPECT_STREQ("unknown", tlsx_aead_impl_name(-1));
	for (i = 0; i < TLSX_IMPL_COUNT; i++)
		EXPECT_EQ(i, tlsx_aead_impl_parse(tlsx_aead_impl_name(i)));
	EXPECT_EQ(-EINVAL, tlsx_aead_impl_parse("AVX2"));
	EXPECT_EQ(-EINVAL, tlsx_aead_impl_parse("avx"));
	EXPECT_EQ(-EINVAL, tlsx_aead_impl_parse("avx5121"));
	EXPECT_EQ(-EINVAL, tlsx_aead_impl_parse(""));
	EXPECT_EQ(-EINVAL, tlsx_aead_impl_parse(NULL));
}

TEST(alg_names_and_key_lengths)
{
	EXPECT_STREQ("aes-128-gcm", tlsx_aead_alg_name(TLSX_AEAD_AES_128_GCM));
	EXPECT_STREQ("aes-256-gcm", tlsx_aead_alg_name(TLSX_AEAD_AES_256_GCM));
	EXPECT_STREQ("chacha20-poly1305",
		     tlsx_aead_alg_name(TLSX_AEAD_CHACHA20_POLY1305));
	EXPECT_STREQ("aes-128-ccm", tlsx_aead_alg_name(TLSX_AEAD_AES_128_CCM));
	EXPECT_STREQ("unknown", tlsx_aead_alg_name(0));
	EXPECT_STREQ("unknown", tlsx_aead_alg_name(5));
	EXPECT_EQ(16u, tlsx_aead_key_len(TLSX_AEAD_AES_128_GCM));
	EXPECT_EQ(32u, tlsx_aead_key_len(TLSX_AEAD_AES_256_GCM));
	EXPECT_EQ(32u, tlsx_aead_key_len(TLSX_AEAD_CHACHA20_POLY1305));
	EXPECT_EQ(16u, tlsx_aead_key_len(TLSX_AEAD_AES_128_CCM));
	EXPECT_EQ(0u, tlsx_aead_key_len(0));
	EXPECT_EQ(0u, tlsx_aead_key_len(5));
}

/* What is offered follows the CPU flags (the full table is in test_aead_dispatch). */
TEST(offers_follow_cpu)
{
	const struct tlsx_cpu *c = tlsx_cpu_features();
	unsigned int a;

	for (a = 0; a < ARRAY_SIZE(algs); a++) {
		bool ccm = algs[a] == TLSX_AEAD_AES_128_CCM;
		bool gcm = algs[a] != TLSX_AEAD_CHACHA20_POLY1305 && !ccm;

		EXPECT_TRUE(tlsx_aead_impl_available(algs[a], TLSX_IMPL_AUTO));
		EXPECT_TRUE(tlsx_aead_impl_available(algs[a],
						     TLSX_IMPL_GENERIC));
		EXPECT_FALSE(tlsx_aead_impl_available(algs[a],
						      TLSX_IMPL_COUNT));
		EXPECT_FALSE(tlsx_aead_impl_available(algs[a], -1));
		if (tlsx_aead_impl_available(algs[a], TLSX_IMPL_SSE))
			EXPECT_TRUE(gcm ? c->aesni && c->pclmul :
				    ccm ? c->aesni && c->ssse3 : c->ssse3);
		if (tlsx_aead_impl_available(algs[a], TLSX_IMPL_AVX2))
			EXPECT_TRUE(c->avx2 && (!gcm || (c->vaes &&
							 c->vpclmulqdq)));
		if (tlsx_aead_impl_available(algs[a], TLSX_IMPL_AVX512))
			EXPECT_TRUE(c->avx512f && c->avx512bw && c->avx512vl &&
				    c->avx2);
	}
	EXPECT_FALSE(tlsx_aead_impl_available(0, TLSX_IMPL_GENERIC));
	EXPECT_FALSE(tlsx_aead_impl_available(5, TLSX_IMPL_AUTO));
}

/* The best available, AVX-512 only when 512-bit code runs at full speed. */
static enum tlsx_aead_impl best_impl(enum tlsx_aead_alg alg)
{
	if (tlsx_cpu_features()->zmm_ok &&
	    tlsx_aead_impl_available(alg, TLSX_IMPL_AVX512))
		return TLSX_IMPL_AVX512;
	if (tlsx_aead_impl_available(alg, TLSX_IMPL_AVX2))
		return TLSX_IMPL_AVX2;
	if (tlsx_aead_impl_available(alg, TLSX_IMPL_SSE))
		return TLSX_IMPL_SSE;
	return TLSX_IMPL_GENERIC;
}

TEST(auto_and_forced)
{
	struct tlsx_aead_key k;
	u8 key[32] = { 1 };
	unsigned int a;
	int f;

	tlsx_aead_force_impl(TLSX_IMPL_AUTO);	/* whatever the environment */
	for (a = 0; a < ARRAY_SIZE(algs); a++) {
		size_t kl = tlsx_aead_key_len(algs[a]);

		ASSERT_EQ(0, tlsx_aead_setkey(&k, algs[a], TLSX_IMPL_AUTO, key,
					      kl));
		EXPECT_EQ(best_impl(algs[a]), k.impl);
		EXPECT_EQ((u32)algs[a], k.alg);
		for (f = TLSX_IMPL_GENERIC; f <= TLSX_IMPL_COUNT; f++) {
			enum tlsx_aead_impl want = f;

			tlsx_aead_force_impl(f);
			if (f == TLSX_IMPL_COUNT ||
			    !tlsx_aead_impl_available(algs[a], f))
				want = best_impl(algs[a]);
			ASSERT_EQ(0, tlsx_aead_setkey(&k, algs[a],
						      TLSX_IMPL_AUTO, key, kl));
			EXPECT_EQ(want, k.impl) TH_LOG("forced %d", f);
			/* An explicit impl is not affected by forcing. */
			ASSERT_EQ(0, tlsx_aead_setkey(&k, algs[a],
						      TLSX_IMPL_GENERIC, key,
						      kl));
			EXPECT_EQ(TLSX_IMPL_GENERIC, (int)k.impl);
		}
		tlsx_aead_force_impl(TLSX_IMPL_AUTO);
	}
	tlsx_aead_wipe(&k);
}

TEST(environment_forces)
{
	struct tlsx_aead_key k;
	u8 key[32] = { 2 };

	ASSERT_EQ(0, setenv("TLSX_AEAD_IMPL", "generic", 1));
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
				      TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(TLSX_IMPL_GENERIC, (int)k.impl);
	/* Read once: a later change of the variable does nothing... */
	ASSERT_EQ(0, setenv("TLSX_AEAD_IMPL", "sse", 1));
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_CHACHA20_POLY1305,
				      TLSX_IMPL_AUTO, key, 32));
	EXPECT_EQ(TLSX_IMPL_GENERIC, (int)k.impl);
	/* ... and tlsx_aead_force_impl() overrides it. */
	tlsx_aead_force_impl(TLSX_IMPL_AUTO);
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_CHACHA20_POLY1305,
				      TLSX_IMPL_AUTO, key, 32));
	EXPECT_EQ(best_impl(TLSX_AEAD_CHACHA20_POLY1305), k.impl);
	tlsx_aead_wipe(&k);
}

TEST(environment_bad_value_ignored)
{
	struct tlsx_aead_key k;
	u8 key[32] = { 3 };

	ASSERT_EQ(0, setenv("TLSX_AEAD_IMPL", "fastest", 1));
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_256_GCM,
				      TLSX_IMPL_AUTO, key, 32));
	EXPECT_EQ(best_impl(TLSX_AEAD_AES_256_GCM), k.impl);
	tlsx_aead_wipe(&k);
}

/*
 * TLSX_CPU_MASK hides features at the first detection (each test runs in
 * a process of its own); what depends on a hidden feature goes with it,
 * and empty or unknown names are ignored.
 */
TEST(cpu_mask_hides_features)
{
	const struct tlsx_cpu *c;
	struct tlsx_aead_key k;
	u8 key[16] = { 5 };

	ASSERT_EQ(0, setenv("TLSX_CPU_MASK", "vaes,,nosuch,avx,", 1));
	c = tlsx_cpu_features();
	EXPECT_FALSE(c->avx);
	EXPECT_FALSE(c->avx2);
	EXPECT_FALSE(c->vaes);
	EXPECT_FALSE(c->vpclmulqdq);
	EXPECT_FALSE(c->avx512f);
	EXPECT_FALSE(c->zmm_ok);
	EXPECT_FALSE(tlsx_aead_impl_available(TLSX_AEAD_AES_128_GCM,
					      TLSX_IMPL_AVX2));
	EXPECT_FALSE(tlsx_aead_impl_available(TLSX_AEAD_CHACHA20_POLY1305,
					      TLSX_IMPL_AVX512));
	/* The 128-bit engines stay (AES-GCM in its legacy SSE build). */
	if (!c->aesni || !c->pclmul || !c->ssse3)
		SKIP(return, "no AES-NI");
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
				      TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(TLSX_IMPL_SSE, (int)k.impl);
	tlsx_aead_wipe(&k);
}

TEST(setkey_errors)
{
	struct tlsx_aead_key k;
	u8 key[33] = { 4 };
	unsigned int a;
	int i;

	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(NULL, TLSX_AEAD_AES_128_GCM,
					    TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, 0, TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, 5, TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
					    TLSX_IMPL_COUNT, key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM, -1,
					    key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
					    TLSX_IMPL_AUTO, NULL, 16));
	for (a = 0; a < ARRAY_SIZE(algs); a++) {
		size_t kl = tlsx_aead_key_len(algs[a]);
		static const size_t bad[] = { 0, 15, 17, 24, 31, 33 };
		unsigned int j;

		for (j = 0; j < ARRAY_SIZE(bad); j++) {
			if (bad[j] == kl)
				continue;
			EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, algs[a],
							    TLSX_IMPL_AUTO,
							    key, bad[j]))
				TH_LOG("%s key length %zu",
				       tlsx_aead_alg_name(algs[a]), bad[j]);
		}
		/* What the CPU cannot run is refused, not downgraded. */
		for (i = TLSX_IMPL_GENERIC; i < TLSX_IMPL_COUNT; i++) {
			int want = tlsx_aead_impl_available(algs[a], i) ?
				   0 : -EOPNOTSUPP;

			EXPECT_EQ(want, tlsx_aead_setkey(&k, algs[a], i, key,
							 kl))
				TH_LOG("%s %s", tlsx_aead_alg_name(algs[a]),
				       tlsx_aead_impl_name(i));
			if (!want)
				EXPECT_EQ((u32)i, k.impl);
		}
	}
}

/* A key that is not set up (zeroed, wiped, failed setkey) is refused. */
TEST(unset_keys)
{
	struct tlsx_aead_key k;
	u8 key[32] = { 5 }, nonce[12] = { 0 }, buf[64] = { 0 }, tag[16] = { 0 };
	struct tlsx_aead_seg seg = { buf, sizeof(buf) };
	size_t i;

	/*
	 * Zeroed, then with the algorithm filled in by hand but no setkey
	 * (no engine): refused by every entry point.
	 */
	memset(&k, 0, sizeof(k));
	for (i = 0; i < 2; i++) {
		k.alg = i ? TLSX_AEAD_AES_128_GCM : 0;
		EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, buf, buf,
						  64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_open(&k, nonce, NULL, 0, buf, buf,
						  64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_seal_sg(&k, nonce, NULL, 0, &seg,
						     1, &seg, 1, 64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_open_sg(&k, nonce, NULL, 0, &seg,
						     1, &seg, 1, 64, tag));
	}
	EXPECT_EQ(-EINVAL, tlsx_aead_seal(NULL, nonce, NULL, 0, buf, buf, 64,
					  tag));
	memset(&k, 0, sizeof(k));

	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
				      TLSX_IMPL_AUTO, key, 16));
	ASSERT_EQ(0, tlsx_aead_seal(&k, nonce, NULL, 0, buf, buf, 64, tag));
	tlsx_aead_wipe(&k);
	for (i = 0; i < sizeof(k); i++)
		ASSERT_EQ(0, ((u8 *)&k)[i]) TH_LOG("byte %zu of the key", i);
	EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, buf, buf, 64,
					  tag));
	tlsx_aead_wipe(NULL);

	/* A failed setkey leaves no usable (or half-set) key behind. */
	ASSERT_EQ(0, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
				      TLSX_IMPL_AUTO, key, 16));
	EXPECT_EQ(-EINVAL, tlsx_aead_setkey(&k, TLSX_AEAD_AES_128_GCM,
					    TLSX_IMPL_AUTO, key, 17));
	EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, buf, buf, 64,
					  tag));
}

/* Missing pointers with non-zero lengths; NULL is fine for zero lengths. */
TEST(null_pointers)
{
	struct tlsx_aead_key k;
	u8 key[32] = { 6 }, nonce[12] = { 0 }, buf[64] = { 0 }, tag[16];
	u8 ref_tag[16];
	unsigned int a;

	for (a = 0; a < ARRAY_SIZE(algs); a++) {
		ASSERT_EQ(0, tlsx_aead_setkey(&k, algs[a], TLSX_IMPL_AUTO, key,
					      tlsx_aead_key_len(algs[a])));
		EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, NULL, NULL, 0, buf, buf,
						  64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 5, buf, buf,
						  64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, NULL,
						  buf, 64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, buf,
						  NULL, 64, tag));
		EXPECT_EQ(-EINVAL, tlsx_aead_seal(&k, nonce, NULL, 0, buf, buf,
						  64, NULL));
		EXPECT_EQ(-EINVAL, tlsx_aead_open(&k, nonce, NULL, 0, buf, buf,
						  64, NULL));
		EXPECT_EQ(-EINVAL, tlsx_aead_open(&k, nonce, NULL, 0, NULL,
						  NULL, 64, tag));

		/* Empty text, no AD: the tag alone, NULL buffers allowed. */
		ASSERT_EQ(0, tlsx_aead_seal(&k, nonce, NULL, 0, NULL, NULL, 0,
					    tag));
		ASSERT_EQ(0, ref_seal(algs[a], key, nonce, NULL, 0, NULL, 0,
				      NULL, ref_tag));
		EXPECT_EQ(0, memcmp(tag, ref_tag, 16));
		EXPECT_EQ(0, tlsx_aead_open(&k, nonce, NULL, 0, NULL, NULL, 0,
					    tag));
		tag[0] ^= 1;
		EXPECT_EQ(-EBADMSG, tlsx_aead_open(&k, nonce, NULL, 0, NULL,
						   NULL, 0, tag));
	}
	tlsx_aead_wipe(&k);
}

/* The module's load-time check passes here too. */
TEST(selftest)
{
	ASSERT_EQ(0, tlsx_aead_selftest());
}

TEST_HARNESS_MAIN
