/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha2_test.h - helpers of the SHA-2/HMAC/HKDF tests: a seeded generator,
 * hex decoding, and OpenSSL's answers for the differential checks.
 * Include after "kselftest_harness.h"; everything here is static.
 */
#ifndef TLSX_SHA2_TEST_H
#define TLSX_SHA2_TEST_H

#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "hash/sha2.h"
#include "hash/sha2_impl.h"

/* splitmix64: reproducible inputs from a fixed seed. */
static inline u64 rng_next(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static inline size_t rng_below(u64 *s, size_t n)
{
	return (size_t)(rng_next(s) % n);
}

static inline void rng_fill(u64 *s, u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)rng_next(s);
}

/* Decodes @hex (no spaces) into @out; returns the byte count. */
static inline size_t unhex(const char *hex, u8 *out, size_t max)
{
	size_t n = strlen(hex) / 2, i;

	if (n > max)
		abort();
	for (i = 0; i < n; i++) {
		char b[3] = { hex[2 * i], hex[2 * i + 1], 0 };

		out[i] = (u8)strtoul(b, NULL, 16);
	}
	return n;
}

static inline const EVP_MD *ref_md(enum tlsx_hash_alg alg)
{
	switch (alg) {
	case TLSX_HASH_SHA256:
		return EVP_sha256();
	case TLSX_HASH_SHA384:
		return EVP_sha384();
	case TLSX_HASH_SHA512:
		return EVP_sha512();
	}
	abort();
}

static inline void ref_hash(enum tlsx_hash_alg alg, const void *p,
			    size_t len, u8 *out)
{
	unsigned int n;

	if (!EVP_Digest(p, len, out, &n, ref_md(alg), NULL) ||
	    n != tlsx_hash_digest_size(alg))
		abort();
}

static const char *const sha256_impls[] = { "generic", "shani" };
static const char *const sha512_impls[] = { "generic", "avx2" };

#endif /* TLSX_SHA2_TEST_H */
