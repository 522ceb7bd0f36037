// SPDX-License-Identifier: GPL-2.0
/*
 * sha512_avx2.c - SHA-512 blocks with an AVX2 message schedule (two
 * blocks per ymm register, sha512_x2_template.h) and BMI2 scalar rounds.
 */
#include <immintrin.h>

#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

#define SHA512_X2_TARGET __attribute__((target("avx2,bmi2")))
#define SHA512_X2_BLOCKS tlsx_sha512_blocks_avx2

/*
 * s0(x) = ROTR 1 ^ ROTR 8 ^ SHR 7, on every lane; the rotation by a whole
 * byte is one byte shuffle.
 */
static __always_inline SHA512_X2_TARGET
__m256i vsig0(__m256i x)
{
	const __m256i ror8 = _mm256_setr_epi8(
		1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8,
		1, 2, 3, 4, 5, 6, 7, 0, 9, 10, 11, 12, 13, 14, 15, 8);

	return _mm256_xor_si256(
		_mm256_xor_si256(_mm256_srli_epi64(x, 1),
				 _mm256_slli_epi64(x, 63)),
		_mm256_xor_si256(_mm256_shuffle_epi8(x, ror8),
				 _mm256_srli_epi64(x, 7)));
}

/*
 * s1(x) = ROTR 19 ^ ROTR 61 ^ SHR 6, on every lane: five shifts side by
 * side and a tree of XORs, as s1 of one pair is on the schedule's
 * dependency chain to the next.
 */
static __always_inline SHA512_X2_TARGET
__m256i vsig1(__m256i x)
{
	return _mm256_xor_si256(
		_mm256_xor_si256(
			_mm256_xor_si256(_mm256_srli_epi64(x, 19),
					 _mm256_slli_epi64(x, 45)),
			_mm256_xor_si256(_mm256_srli_epi64(x, 61),
					 _mm256_slli_epi64(x, 3))),
		_mm256_srli_epi64(x, 6));
}

/* Measured on Zen 5: computing the next pair's schedule ahead is faster. */
#define SHA512_X2_ALWAYS_PACED 0

#include "hash/sha512_x2_template.h"
