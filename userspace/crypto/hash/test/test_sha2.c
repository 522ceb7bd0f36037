// SPDX-License-Identifier: GPL-2.0
/*
 * test_sha2.c - SHA-256, SHA-384 and SHA-512 on every implementation this
 * CPU has (forced through tlsx_sha2_force_impl()):
 *
 *  - the FIPS 180-4 / RFC 6234 examples: "abc", the empty message, the
 *    448- and 896-bit messages, a million 'a' (one-shot, and through
 *    update in pieces);
 *  - against OpenSSL for every length 0..2048 and for random lengths up
 *    to 64 KiB fed to update() in random pieces at random alignments,
 *    through the one-shot, the streaming and the struct tlsx_hash calls;
 *  - the context wiped by final, the unknown-algorithm errors, the
 *    TLSX_SHA_IMPL=generic override (in a child process, whose choice is
 *    not yet cached), and threads racing on the first call (also in a
 *    child process).
 */
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "hash/test/sha2_test.h"

#define MAX_RANDOM_LEN	(64 * 1024)

struct sha2_kat {
	enum tlsx_hash_alg alg;
	const char *msg;
	size_t repeat;		/* msg is repeated this many times */
	const char *digest;
};

static const char msg448[] =
	"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
static const char msg896[] =
	"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu";

static const struct sha2_kat kats[] = {
	{ TLSX_HASH_SHA256, "abc", 1,
	  "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
	{ TLSX_HASH_SHA256, "", 1,
	  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
	{ TLSX_HASH_SHA256, msg448, 1,
	  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	{ TLSX_HASH_SHA256, "a", 1000000,
	  "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
	{ TLSX_HASH_SHA384, "abc", 1,
	  "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7" },
	{ TLSX_HASH_SHA384, "", 1,
	  "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b" },
	{ TLSX_HASH_SHA384, msg896, 1,
	  "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039" },
	{ TLSX_HASH_SHA384, "a", 1000000,
	  "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985" },
	{ TLSX_HASH_SHA512, "abc", 1,
	  "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f" },
	{ TLSX_HASH_SHA512, "", 1,
	  "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e" },
	{ TLSX_HASH_SHA512, msg896, 1,
	  "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909" },
	{ TLSX_HASH_SHA512, "a", 1000000,
	  "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b" },
};

/* The three ways to hash: one-shot, streaming, struct tlsx_hash. */
static void oneshot(enum tlsx_hash_alg alg, const void *p, size_t len,
		    u8 *out)
{
	switch (alg) {
	case TLSX_HASH_SHA256:
		tlsx_sha256(p, len, out);
		break;
	case TLSX_HASH_SHA384:
		tlsx_sha384(p, len, out);
		break;
	case TLSX_HASH_SHA512:
		tlsx_sha512(p, len, out);
		break;
	}
}

/*
 * Streaming through the algorithm's own context in pieces of random
 * length (up to @maxpiece, some empty), checking final wipes it.
 */
static bool streamed(enum tlsx_hash_alg alg, const u8 *p, size_t len,
		     size_t maxpiece, u64 *rng, u8 *out)
{
	struct tlsx_sha256 c256;
	struct tlsx_sha512 c512;
	u8 zero[sizeof(c512)] = { 0 };
	size_t off = 0, n;

	if (alg == TLSX_HASH_SHA256)
		tlsx_sha256_init(&c256);
	else if (alg == TLSX_HASH_SHA384)
		tlsx_sha384_init(&c512);
	else
		tlsx_sha512_init(&c512);
	while (off < len) {
		n = rng_below(rng, maxpiece + 1);
		if (n > len - off)
			n = len - off;
		if (alg == TLSX_HASH_SHA256)
			tlsx_sha256_update(&c256, p + off, n);
		else
			tlsx_sha512_update(&c512, p + off, n);
		off += n;
	}
	if (alg == TLSX_HASH_SHA256) {
		tlsx_sha256_final(&c256, out);
		return !memcmp(&c256, zero, sizeof(c256));
	}
	if (alg == TLSX_HASH_SHA384)
		tlsx_sha384_final(&c512, out);
	else
		tlsx_sha512_final(&c512, out);
	return !memcmp(&c512, zero, sizeof(c512));
}

/* Through struct tlsx_hash, in pieces; checks final wipes it. */
static bool generic_iface(enum tlsx_hash_alg alg, const u8 *p, size_t len,
			  size_t maxpiece, u64 *rng, u8 *out)
{
	struct tlsx_hash h;
	u8 zero[sizeof(h)] = { 0 };
	size_t off = 0, n;

	if (tlsx_hash_init(&h, alg))
		return false;
	while (off < len) {
		n = rng_below(rng, maxpiece + 1);
		if (n > len - off)
			n = len - off;
		tlsx_hash_update(&h, p + off, n);
		off += n;
	}
	tlsx_hash_final(&h, out);
	return !memcmp(&h, zero, sizeof(h));
}

FIXTURE(sha2) {
	int dummy;
};

FIXTURE_VARIANT(sha2) {
	const char *sha256;
	const char *sha512;
};

FIXTURE_VARIANT_ADD(sha2, generic) {
	.sha256 = "generic", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(sha2, shani) {
	.sha256 = "shani", .sha512 = "generic",
};

FIXTURE_VARIANT_ADD(sha2, avx2) {
	.sha256 = "avx2", .sha512 = "avx2",
};

FIXTURE_VARIANT_ADD(sha2, avx512) {
	.sha256 = "generic", .sha512 = "avx512",
};

FIXTURE_SETUP(sha2)
{
	int ret = tlsx_sha2_force_impl(variant->sha256, variant->sha512);

	if (ret == -ENOTSUP)
		SKIP(return, "this CPU cannot run %s/%s", variant->sha256,
		     variant->sha512);
	ASSERT_EQ(0, ret);
	ASSERT_STREQ(variant->sha256, tlsx_sha256_impl());
	ASSERT_STREQ(variant->sha512, tlsx_sha512_impl());
}

FIXTURE_TEARDOWN(sha2)
{
}

TEST_F(sha2, fips_examples)
{
	u8 want[64], got[64];
	size_t i, r;

	for (i = 0; i < ARRAY_SIZE(kats); i++) {
		const struct sha2_kat *k = &kats[i];
		size_t ml = strlen(k->msg), len = ml * k->repeat;
		size_t dl = unhex(k->digest, want, sizeof(want));
		u8 *msg = malloc(len + 1);
		u64 rng = i;

		ASSERT_NE(NULL, msg);
		for (r = 0; r < k->repeat; r++)
			memcpy(msg + r * ml, k->msg, ml);
		ASSERT_EQ(tlsx_hash_digest_size(k->alg), dl);

		oneshot(k->alg, msg, len, got);
		EXPECT_EQ(0, memcmp(got, want, dl)) TH_LOG("kat %zu", i);
		memset(got, 0, sizeof(got));
		ASSERT_EQ(0, tlsx_hash(k->alg, msg, len, got));
		EXPECT_EQ(0, memcmp(got, want, dl)) TH_LOG("kat %zu", i);
		memset(got, 0, sizeof(got));
		EXPECT_TRUE(streamed(k->alg, msg, len, 200, &rng, got));
		EXPECT_EQ(0, memcmp(got, want, dl)) TH_LOG("kat %zu", i);
		memset(got, 0, sizeof(got));
		EXPECT_TRUE(generic_iface(k->alg, msg, len, 1000, &rng, got));
		EXPECT_EQ(0, memcmp(got, want, dl)) TH_LOG("kat %zu", i);
		free(msg);
	}
}

static const enum tlsx_hash_alg algs[] = {
	TLSX_HASH_SHA256, TLSX_HASH_SHA384, TLSX_HASH_SHA512,
};

/* Every length 0..2048, each at a random misalignment. */
TEST_F(sha2, every_length_vs_openssl)
{
	u8 *buf = malloc(2048 + 16), want[64], got[64];
	u64 rng = 0x5a2;
	size_t len, a, bad = 0, cases = 0;

	ASSERT_NE(NULL, buf);
	rng_fill(&rng, buf, 2048 + 16);
	for (a = 0; a < ARRAY_SIZE(algs); a++) {
		size_t dl = tlsx_hash_digest_size(algs[a]);

		for (len = 0; len <= 2048; len++) {
			const u8 *p = buf + rng_below(&rng, 16);

			ref_hash(algs[a], p, len, want);
			oneshot(algs[a], p, len, got);
			bad += !!memcmp(got, want, dl);
			memset(got, 0, dl);
			if (!streamed(algs[a], p, len, 1 + len / 3, &rng, got))
				bad++;
			bad += !!memcmp(got, want, dl);
			memset(got, 0, dl);
			if (!generic_iface(algs[a], p, len, 130, &rng, got))
				bad++;
			bad += !!memcmp(got, want, dl);
			if (bad) {
				TH_LOG("alg %d len %zu differs", algs[a], len);
				break;
			}
			cases++;
		}
	}
	free(buf);
	EXPECT_EQ(0u, bad);
	EXPECT_EQ(3u * 2049, cases);
}

/* Random lengths up to 64 KiB in random pieces, some of one byte. */
TEST_F(sha2, random_lengths_vs_openssl)
{
	u8 *buf = malloc(MAX_RANDOM_LEN + 16), want[64], got[64];
	u64 rng = 0x64b;
	size_t i, bad = 0;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < 3 * 100; i++) {
		enum tlsx_hash_alg alg = algs[i % 3];
		size_t dl = tlsx_hash_digest_size(alg);
		size_t len = rng_below(&rng, MAX_RANDOM_LEN + 1);
		size_t piece = i % 10 == 9 ? 1 : 1 + rng_below(&rng, 4096);
		const u8 *p = buf + rng_below(&rng, 16);

		rng_fill(&rng, (u8 *)p, len);
		ref_hash(alg, p, len, want);
		oneshot(alg, p, len, got);
		bad += !!memcmp(got, want, dl);
		memset(got, 0, dl);
		if (!streamed(alg, p, len, piece, &rng, got))
			bad++;
		bad += !!memcmp(got, want, dl);
		memset(got, 0, dl);
		if (!generic_iface(alg, p, len, piece, &rng, got))
			bad++;
		bad += !!memcmp(got, want, dl);
		if (bad) {
			TH_LOG("alg %d len %zu piece %zu differs", alg, len,
			       piece);
			break;
		}
	}
	free(buf);
	EXPECT_EQ(0u, bad);
}

TEST(unknown_algorithm)
{
	struct tlsx_hash h;
	u8 out[64];

	EXPECT_EQ(0u, tlsx_hash_digest_size(0));
	EXPECT_EQ(0u, tlsx_hash_block_size(4));
	EXPECT_EQ(-EINVAL, tlsx_hash_init(&h, 0));
	EXPECT_EQ(-EINVAL, tlsx_hash(4, "x", 1, out));
	EXPECT_EQ(32u, tlsx_hash_digest_size(TLSX_HASH_SHA256));
	EXPECT_EQ(48u, tlsx_hash_digest_size(TLSX_HASH_SHA384));
	EXPECT_EQ(64u, tlsx_hash_digest_size(TLSX_HASH_SHA512));
	EXPECT_EQ(64u, tlsx_hash_block_size(TLSX_HASH_SHA256));
	EXPECT_EQ(128u, tlsx_hash_block_size(TLSX_HASH_SHA384));
	EXPECT_EQ(128u, tlsx_hash_block_size(TLSX_HASH_SHA512));
	EXPECT_EQ(-EINVAL, tlsx_sha2_force_impl("avx512", NULL));
	EXPECT_EQ(-EINVAL, tlsx_sha2_force_impl(NULL, "shani"));
	EXPECT_EQ(-EINVAL, tlsx_sha2_force_impl("fast", NULL));
}

/*
 * TLSX_SHA_IMPL=generic: a fresh process (this program, run again with
 * the variable set and SHA2_TEST_PRINT_IMPL asking the constructor below
 * to print the choice) must pick the portable code.
 */
__attribute__((constructor)) static void print_impl_child(void)
{
	u8 d[32];

	if (!getenv("SHA2_TEST_PRINT_IMPL"))
		return;
	tlsx_sha256("abc", 3, d);
	printf("%s %s %02x\n", tlsx_sha256_impl(), tlsx_sha512_impl(), d[0]);
	fflush(stdout);
	_exit(0);
}

/*
 * SHA2_TEST_THREADS: a fresh process whose first hashes run in four
 * threads at once, so that they race to pick the implementation; every
 * digest must still match OpenSSL's.  Prints "ok" or what differed.
 */
static void *race_thread(void *arg)
{
	const u8 *msg = arg;
	u8 want256[32], want512[64], got[64];
	long bad = 0;
	int i;

	ref_hash(TLSX_HASH_SHA256, msg, 1000, want256);
	ref_hash(TLSX_HASH_SHA512, msg, 1000, want512);
	for (i = 0; i < 2000; i++) {
		tlsx_sha256(msg, 1000, got);
		bad += !!memcmp(got, want256, 32);
		tlsx_sha512(msg, 1000, got);
		bad += !!memcmp(got, want512, 64);
	}
	return (void *)bad;
}

__attribute__((constructor)) static void race_child(void)
{
	static u8 msg[1000];
	pthread_t t[4];
	long bad = 0;
	void *r;
	int i;

	if (!getenv("SHA2_TEST_THREADS"))
		return;
	for (i = 0; i < 1000; i++)
		msg[i] = (u8)(i * 7);
	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, race_thread, msg))
			_exit(3);
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], &r);
		bad += (long)r;
	}
	printf(bad ? "%ld digests differ\n" : "ok\n", bad);
	fflush(stdout);
	_exit(0);
}

static void child_run(struct __test_metadata *_metadata, const char *env,
		      char *line, size_t size)
{
	char cmd[256];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "%s /proc/%d/exe", env, (int)getpid());
	f = popen(cmd, "r");
	ASSERT_NE(NULL, f);
	ASSERT_NE(NULL, fgets(line, (int)size, f));
	ASSERT_EQ(0, pclose(f));
}

TEST(env_override)
{
	char line[128];

	child_run(_metadata, "SHA2_TEST_PRINT_IMPL=1 TLSX_SHA_IMPL=generic",
		  line, sizeof(line));
	EXPECT_STREQ("generic generic ba\n", line);
	child_run(_metadata, "SHA2_TEST_PRINT_IMPL=1 TLSX_SHA_IMPL=", line,
		  sizeof(line));
	if (tlsx_cpu_features()->sha_ni)
		EXPECT_EQ(0, strncmp(line, "shani ", 6)) TH_LOG("%s", line);
}

/* Threads racing on the first call: see race_child(). */
TEST(first_use_race)
{
	char line[128];
	int i;

	for (i = 0; i < 5; i++) {
		child_run(_metadata, "SHA2_TEST_THREADS=1", line, sizeof(line));
		EXPECT_STREQ("ok\n", line);
	}
}

TEST_HARNESS_MAIN
