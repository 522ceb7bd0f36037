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
 * The cached choice: the pointers start at the resolvers, which pick once
 * and overwrite them.  Threads racing on the first call compute and store
 * the same values.
 */
void (*tlsx_sha256_blocks)(u32 h[8], const u8 *p, size_t n) = sha256_resolve;
void (*tlsx_sha512_blocks)(u64 h[8], const u8 *p, size_t n) = sha512_resolve;
static const char *sha256_name;
static const char *sha512_name;

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
	void (*fn)(u32 h[8], const u8 *p, size_t n) =
		tlsx_sha256_blocks_generic;

	if (!strcmp(name, "shani"))
		fn = tlsx_sha256_blocks_shani;
	else if (!strcmp(name, "avx2"))
		fn = tlsx_sha256_blocks_avx2;
	__atomic_store_n(&sha256_name, name, __ATOMIC_RELAXED);
	__atomic_store_n(&tlsx_sha256_blocks, fn, __ATOMIC_RELEASE);
}

static void sha512_set(const char *name)
{
	void (*fn)(u64 h[8], const u8 *p, size_t n) =
		tlsx_sha512_blocks_generic;

	if (!strcmp(name, "avx2"))
		fn = tlsx_sha512_blocks_avx2;
	else if (!strcmp(name, "avx512"))
		fn = tlsx_sha512_blocks_avx512;
	__atomic_store_n(&sha512_name, name, __ATOMIC_RELAXED);
	__atomic_store_n(&tlsx_sha512_blocks, fn, __ATOMIC_RELEASE);
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

const char *tlsx_sha256_impl(void)
{
	if (!__atomic_load_n(&sha256_name, __ATOMIC_ACQUIRE))
		sha256_choose();
	return sha256_name;
}

const char *tlsx_sha512_impl(void)
{
	if (!__atomic_load_n(&sha512_name, __ATOMIC_ACQUIRE))
		sha512_choose();
	return sha512_name;
}

int tlsx_sha2_force_impl(const char *sha256_impl, const char *sha512_impl)
{
	static const char *const names[] = {
		"generic", "shani", "avx2", "avx512",
	};
	const char *a = NULL, *b = NULL;
	size_t i;

	/* Keep a pointer to a literal, not to the caller's string. */
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (sha256_impl && !strcmp(sha256_impl, names[i]))
			a = names[i];
		if (sha512_impl && !strcmp(sha512_impl, names[i]))
			b = names[i];
	}
	if ((sha256_impl && (!a || !strcmp(a, "avx512"))) ||
	    (sha512_impl && (!b || !strcmp(b, "shani"))))
		return -EINVAL;
	if ((a && !sha256_can(a)) || (b && !sha512_can(b)))
		return -ENOTSUP;
	if (a)
		sha256_set(a);
	if (b)
		sha512_set(b);
	return 0;
}
