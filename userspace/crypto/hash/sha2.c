// SPDX-License-Identifier: GPL-2.0
/*
 * sha2.c - the choice of SHA-256/SHA-512 block functions, made once.
 * It sits between the hashes (sha256.c, sha512.c), which call through
 * the pointers it sets, and the block functions it chooses from.
 */
#include <stdlib.h>

#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

static void sha256_resolve(u32 h[8], const u8 *p, size_t nblocks);
static void sha512_resolve(u64 h[8], const u8 *p, size_t nblocks);

/*
 * The block functions, and how deep hashing with each reaches below the
 * caller of tlsx_hash_update()/_final() (their frames, the schedule the
 * block function keeps on the stack, its spills, with a quarter more):
 * what a wipe after hashing a secret must cover.  SHA-512's SIMD code
 * keeps two blocks' schedules (2.5 KiB) in an aligned frame.  Measured
 * through HMAC by test_stack_depth.
 */
struct sha256_impl {
	const char *name;
	void (*blocks)(u32 h[8], const u8 *p, size_t n);
	size_t stack_reach;
};

struct sha512_impl {
	const char *name;
	void (*blocks)(u64 h[8], const u8 *p, size_t n);
	size_t stack_reach;
};

static const struct sha256_impl sha256_impls[] = {
	{ "generic", tlsx_sha256_blocks_generic, 512 },
	{ "shani", tlsx_sha256_blocks_shani, 256 },
	{ "avx2", tlsx_sha256_blocks_avx2, 1792 },
};

static const struct sha512_impl sha512_impls[] = {
	{ "generic", tlsx_sha512_blocks_generic, 1024 },
	{ "avx2", tlsx_sha512_blocks_avx2, 5376 },
	{ "avx512", tlsx_sha512_blocks_avx512, 4608 },
};

/*
 * The cached choice: the pointers start at the resolvers, which pick once
 * and overwrite them.  Threads racing on the first call compute and store
 * the same values.
 */
void (*tlsx_sha256_blocks)(u32 h[8], const u8 *p, size_t n) = sha256_resolve;
void (*tlsx_sha512_blocks)(u64 h[8], const u8 *p, size_t n) = sha512_resolve;
static const struct sha256_impl *sha256_cur;
static const struct sha512_impl *sha512_cur;

static const struct sha256_impl *sha256_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sha256_impls); i++)
		if (!strcmp(name, sha256_impls[i].name))
			return &sha256_impls[i];
	return NULL;
}

static const struct sha512_impl *sha512_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sha512_impls); i++)
		if (!strcmp(name, sha512_impls[i].name))
			return &sha512_impls[i];
	return NULL;
}

static bool sha256_can(const char *name)
{
	if (!strcmp(name, "generic"))
		return true;
	if (!strcmp(name, "shani"))
		return tlsx_cpu_features()->sha_ni;
	if (!strcmp(name, "avx2"))
		return tlsx_cpu_features()->avx2 && tlsx_cpu_features()->bmi2;
	return false;
}

static bool sha512_can(const char *name)
{
	const struct tlsx_cpu *cpu = tlsx_cpu_features();

	if (!strcmp(name, "generic"))
		return true;
	if (!strcmp(name, "avx2"))
		return cpu->avx2 && cpu->bmi2;
	if (!strcmp(name, "avx512"))
		return cpu->avx512vl && cpu->avx2 && cpu->bmi2;
	return false;
}

static void sha256_set(const char *name)
{
	const struct sha256_impl *impl = sha256_find(name);

	__atomic_store_n(&sha256_cur, impl, __ATOMIC_RELAXED);
	__atomic_store_n(&tlsx_sha256_blocks, impl->blocks, __ATOMIC_RELEASE);
}

static void sha512_set(const char *name)
{
	const struct sha512_impl *impl = sha512_find(name);

	__atomic_store_n(&sha512_cur, impl, __ATOMIC_RELAXED);
	__atomic_store_n(&tlsx_sha512_blocks, impl->blocks, __ATOMIC_RELEASE);
}

/* TLSX_SHA_IMPL=generic forces the portable code for both hashes. */
static bool sha2_force_generic(void)
{
	const char *env = getenv("TLSX_SHA_IMPL");

	return env && !strcmp(env, "generic");
}

static void sha256_choose(void)
{
	if (sha2_force_generic())
		sha256_set("generic");
	else if (sha256_can("shani"))
		sha256_set("shani");
	else if (sha256_can("avx2"))
		sha256_set("avx2");
	else
		sha256_set("generic");
}

/* AVX-512VL's schedule is the faster where both run (Zen 5: 0.7-0.85x). */
static void sha512_choose(void)
{
	if (sha2_force_generic())
		sha512_set("generic");
	else if (sha512_can("avx512"))
		sha512_set("avx512");
	else if (sha512_can("avx2"))
		sha512_set("avx2");
	else
		sha512_set("generic");
}

static void sha256_resolve(u32 h[8], const u8 *p, size_t nblocks)
{
	sha256_choose();
	tlsx_sha256_compress(h, p, nblocks);
}

static void sha512_resolve(u64 h[8], const u8 *p, size_t nblocks)
{
	sha512_choose();
	tlsx_sha512_compress(h, p, nblocks);
}

static const struct sha256_impl *sha256_impl_get(void)
{
	if (!__atomic_load_n(&sha256_cur, __ATOMIC_ACQUIRE))
		sha256_choose();
	return sha256_cur;
}

static const struct sha512_impl *sha512_impl_get(void)
{
	if (!__atomic_load_n(&sha512_cur, __ATOMIC_ACQUIRE))
		sha512_choose();
	return sha512_cur;
}

const char *tlsx_sha256_impl(void)
{
	return sha256_impl_get()->name;
}

const char *tlsx_sha512_impl(void)
{
	return sha512_impl_get()->name;
}

size_t tlsx_hash_stack_reach(enum tlsx_hash_alg alg)
{
	switch (alg) {
	case TLSX_HASH_SHA256:
		return sha256_impl_get()->stack_reach;
	case TLSX_HASH_SHA384:
	case TLSX_HASH_SHA512:
		return sha512_impl_get()->stack_reach;
	}
	return 0;
}

int tlsx_sha2_force_impl(const char *sha256_impl, const char *sha512_impl)
{
	if ((sha256_impl && !sha256_find(sha256_impl)) ||
	    (sha512_impl && !sha512_find(sha512_impl)))
		return -EINVAL;
	if ((sha256_impl && !sha256_can(sha256_impl)) ||
	    (sha512_impl && !sha512_can(sha512_impl)))
		return -ENOTSUP;
	if (sha256_impl)
		sha256_set(sha256_impl);
	if (sha512_impl)
		sha512_set(sha512_impl);
	return 0;
}
