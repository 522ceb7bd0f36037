/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha2_impl.h - inside the SHA-2 code: the block functions of each
 * implementation and the cached choice between them.  Not an API.
 *
 * A block function compresses @nblocks whole blocks at @p into the state
 * @h (FIPS 180-4 section 6.2.2 / 6.4.2, the hash words in their natural
 * order a..h).  The pointers below start at a resolver that picks the
 * implementation once (CPU features, TLSX_SHA_IMPL) and replaces itself,
 * so a hash call costs one indirect call and no feature test.
 */
#ifndef TLSX_SHA2_IMPL_H
#define TLSX_SHA2_IMPL_H

#include "hash/sha2.h"

void tlsx_sha256_blocks_generic(u32 h[8], const u8 *p, size_t nblocks);
void tlsx_sha256_blocks_shani(u32 h[8], const u8 *p, size_t nblocks);
void tlsx_sha256_blocks_avx2(u32 h[8], const u8 *p, size_t nblocks);
void tlsx_sha512_blocks_generic(u64 h[8], const u8 *p, size_t nblocks);
void tlsx_sha512_blocks_avx2(u64 h[8], const u8 *p, size_t nblocks);
void tlsx_sha512_blocks_avx512(u64 h[8], const u8 *p, size_t nblocks);

extern const u32 tlsx_sha256_k[64];
extern const u64 tlsx_sha512_k[80];

extern void (*tlsx_sha256_blocks)(u32 h[8], const u8 *p, size_t nblocks);
extern void (*tlsx_sha512_blocks)(u64 h[8], const u8 *p, size_t nblocks);

/*
 * Calls through the cached choice.  The pointer is read atomically (a
 * plain load on x86) because a first call in another thread may be
 * storing it at the same time.
 */
static inline void tlsx_sha256_compress(u32 h[8], const u8 *p, size_t n)
{
	__atomic_load_n(&tlsx_sha256_blocks, __ATOMIC_ACQUIRE)(h, p, n);
}

static inline void tlsx_sha512_compress(u64 h[8], const u8 *p, size_t n)
{
	__atomic_load_n(&tlsx_sha512_blocks, __ATOMIC_ACQUIRE)(h, p, n);
}

/*
 * For tests and benchmarks: run @name ("generic", "shani", "avx2" for
 * SHA-256; "generic", "avx2", "avx512" for SHA-512; NULL leaves that hash
 * alone) from now on.  -ENOTSUP when this CPU cannot run it, -EINVAL for
 * an unknown name.
 * Not for use while another thread is hashing.
 */
int tlsx_sha2_force_impl(const char *sha256_impl, const char *sha512_impl);

#endif /* TLSX_SHA2_IMPL_H */
