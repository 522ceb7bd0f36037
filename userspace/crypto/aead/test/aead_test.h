/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aead_test.h - helpers shared by the AEAD unit tests (test_aead_*.c):
 * the fixture variants (every algorithm with every implementation), a
 * reproducible random generator, OpenSSL's EVP as the reference, and
 * buffers with guard bytes.
 *
 * Include after "kselftest_harness.h".  Everything here is static: each
 * test program includes it once.
 */
#ifndef TLSX_AEAD_TEST_H
#define TLSX_AEAD_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/evp.h>

#include "aead/aead.h"
#include "aead/test/aead_evp.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#define GUARD_POISON(p, n)	ASAN_POISON_MEMORY_REGION((p), (n))
#define GUARD_UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define GUARD_POISON(p, n)	do { (void)(p); (void)(n); } while (0)
#define GUARD_UNPOISON(p, n)	do { (void)(p); (void)(n); } while (0)
#endif

/*
 * Variants: a test program declares FIXTURE(aead) and
 * FIXTURE_VARIANT(aead) { enum tlsx_aead_alg alg; enum tlsx_aead_impl
 * impl; } and includes "aead_variants.h" for the fourteen combinations (AES-CCM has
 * no AVX2 or AVX-512 engine).
 * Setup skips those the CPU lacks.
 */

/* --- reproducible randomness --------------------------------------------- */

/* splitmix64: a fixed seed per test makes every failure reproducible. */
static inline u64 rng_next(u64 *s)
{
	u64 z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Uniform in [0, n), n > 0 (the bias is irrelevant here). */
static inline size_t rng_below(u64 *s, size_t n)
{
	return (size_t)(rng_next(s) % n);
}

static inline void rng_fill(u64 *s, u8 *p, size_t n)
{
	while (n >= 8) {
		u64 v = rng_next(s);

		memcpy(p, &v, 8);
		p += 8;
		n -= 8;
	}
	if (n) {
		u64 v = rng_next(s);

		memcpy(p, &v, n);
	}
}

/* --- OpenSSL as the reference --------------------------------------------- */

/*
 * Seal with OpenSSL: @len bytes of @pt to @ct, tag to @tag.  Returns 0.
 * @pt and @ct may be NULL when @len is 0.
 */
static inline int ref_seal(enum tlsx_aead_alg alg, const u8 *key,
			   const u8 *nonce, const u8 *ad, size_t ad_len,
			   const u8 *pt, size_t len, u8 *ct, u8 *tag)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	bool ok;

	ok = ctx && aead_evp_setkey(ctx, alg, key, true) &&
	     aead_evp_seal(ctx, alg, nonce, ad, ad_len, pt, len, ct, tag);
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* Open with OpenSSL: 0 when the tag matches, -1 otherwise. */
static inline int ref_open(enum tlsx_aead_alg alg, const u8 *key,
			   const u8 *nonce, const u8 *ad, size_t ad_len,
			   const u8 *ct, size_t len, u8 *pt, const u8 *tag)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	bool ok;

	ok = ctx && aead_evp_setkey(ctx, alg, key, false) &&
	     aead_evp_open(ctx, alg, nonce, ad, ad_len, ct, len, pt, tag);
	EVP_CIPHER_CTX_free(ctx);
	return ok ? 0 : -1;
}

/* --- buffers with guard bytes ---------------------------------------------- */

#define GUARD_LEN	64

/*
 * @len usable bytes at @p, @off bytes (0..63) past a 64-byte aligned
 * point, with GUARD_LEN bytes of a known pattern on each side.  Under
 * ASan the guards are also poisoned, so a read of them is reported.
 */
struct gbuf {
	u8 *base;
	u8 *p;
	size_t len;
	size_t off;
};

static inline u8 guard_byte(size_t i)
{
	return (u8)(0xa5 ^ (i * 29));
}

static inline size_t gbuf_total(const struct gbuf *b)
{
	return 2 * GUARD_LEN + 64 + b->len;
}

static inline void gbuf_poison(struct gbuf *b)
{
	GUARD_POISON(b->base, b->p - b->base);
	GUARD_POISON(b->p + b->len, gbuf_total(b) - (b->p - b->base) - b->len);
}

static inline void gbuf_init(struct gbuf *b, size_t len, size_t off)
{
	size_t i;

	b->len = len;
	b->off = off % 64;
	b->base = aligned_alloc(64, (gbuf_total(b) + 63) & ~(size_t)63);
	if (!b->base)
		abort();
	for (i = 0; i < gbuf_total(b); i++)
		b->base[i] = guard_byte(i);
	b->p = b->base + GUARD_LEN + b->off;
	gbuf_poison(b);
}

/* Are the bytes around the usable ones as gbuf_init() left them? */
static inline bool gbuf_guards_ok(struct gbuf *b)
{
	size_t i, start = b->p - b->base;
	bool ok = true;

	GUARD_UNPOISON(b->base, gbuf_total(b));
	for (i = 0; i < gbuf_total(b); i++) {
		if (i >= start && i < start + b->len)
			continue;
		if (b->base[i] != guard_byte(i))
			ok = false;
	}
	gbuf_poison(b);
	return ok;
}

static inline void gbuf_free(struct gbuf *b)
{
	if (b->base) {
		GUARD_UNPOISON(b->base, gbuf_total(b));
		free(b->base);
	}
	b->base = NULL;
	b->p = NULL;
}

/* memcmp() and memcpy() that accept NULL when @n is 0 (UBSan does not). */
static inline bool mem_eq(const void *a, const void *b, size_t n)
{
	return !n || !memcmp(a, b, n);
}

static inline void mem_copy(void *d, const void *s, size_t n)
{
	if (n)
		memcpy(d, s, n);
}

static inline bool all_zero(const u8 *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* A fresh random key for @alg set up for @impl; 0 or the setkey error. */
static inline int test_setkey(struct tlsx_aead_key *k, u8 *key, u64 *rng,
			      enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	rng_fill(rng, key, tlsx_aead_key_len(alg));
	return tlsx_aead_setkey(k, alg, impl, key, tlsx_aead_key_len(alg));
}

#endif /* TLSX_AEAD_TEST_H */
