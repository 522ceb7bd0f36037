// SPDX-License-Identifier: GPL-2.0
/*
 * sha512_avx512.c - SHA-512 blocks with the message schedule of
 * sha512_x2_template.h on AVX-512VL: still two blocks per ymm register,
 * but each rotation is one VPRORQ and each three-way XOR one VPTERNLOGQ,
 * which shortens the schedule's dependency chain (s1 of one pair feeds
 * the next) from five operations to three.
 */
#include <immintrin.h>

#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

#define SHA512_X2_TARGET \
	__attribute__((target("avx512f,avx512vl,avx2,bmi2")))
#define SHA512_X2_BLOCKS tlsx_sha512_blocks_avx512

/* VPTERNLOGQ truth table of a ^ b ^ c. */
#define XOR3 0x96

/* s0(x) = ROTR 1 ^ ROTR 8 ^ SHR 7, on every lane. */
static __always_inline SHA512_X2_TARGET
__m256i vsig0(__m256i x)
{
	return _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 1),
					 _mm256_ror_epi64(x, 8),
					 _mm256_srli_epi64(x, 7), XOR3);
}

/* s1(x) = ROTR 19 ^ ROTR 61 ^ SHR 6, on every lane. */
static __always_inline SHA512_X2_TARGET
__m256i vsig1(__m256i x)
{
	return _mm256_ternarylogic_epi64(_mm256_ror_epi64(x, 19),
					 _mm256_ror_epi64(x, 61),
					 _mm256_srli_epi64(x, 6), XOR3);
}

/* Measured on Zen 5: pacing by the schedule is faster at every length. */
#define SHA512_X2_ALWAYS_PACED 1

#include "hash/sha512_x2_template.h"
