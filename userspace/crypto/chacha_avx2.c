// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 keystream, eight blocks at a time in 256-bit vectors (AVX2).
 *
 * The eight-block core (state layout, rounds, transposition) is in
 * chacha_x8_template.h.  Here rotations by 16 and 8 are byte shuffles
 * (VPSHUFB) and by 12 and 7 two shifts and an OR.  Sixteen state vectors
 * fill the 16 YMM registers, so the compiler keeps a few on the stack
 * during the rounds.
 *
 * Each group of eight blocks (512 bytes) is XORed 32 bytes at a time; in
 * a partial last group the whole 32-byte pieces are XORed directly and
 * the last few bytes through a stack buffer (the length is public) that
 * is wiped afterwards.  The first pass of an operation computes block 0
 * alongside blocks 1-8 (tlsx_chacha20_xor0_avx2()).
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>
#include "platform.h"
#include "chacha_engines.h"

#define X8_TARGET __attribute__((target("avx2")))

X8_TARGET static inline __m256i rol_avx2(__m256i v, int n)
{
	if (n == 16)
		return _mm256_shuffle_epi8(v, _mm256_set_epi8(
			13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2,
			13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2));
	if (n == 8)
		return _mm256_shuffle_epi8(v, _mm256_set_epi8(
			14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3,
			14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3));
	return _mm256_or_si256(_mm256_slli_epi32(v, n),
			       _mm256_srli_epi32(v, 32 - n));
}

#define X8_ROL(v, n) rol_avx2(v, n)

#include "chacha_x8_template.h"

/* XOR @len (at most 512) bytes with the keystream @ks of eight blocks. */
X8_TARGET static __always_inline void xor_x8(const __m256i ks[16],
					     const u8 *src, u8 *dst,
					     size_t len)
{
	u8 buf[32] __aligned(32);
	size_t i;

	for (i = 0; i < len / 32; i++) {
		__m256i m = _mm256_loadu_si256((const __m256i *)src + i);

		_mm256_storeu_si256((__m256i *)dst + i,
				    _mm256_xor_si256(m, ks[i]));
	}
	if (len & 31) {
		_mm256_store_si256((__m256i *)buf, ks[i]);
		for (i *= 32; i < len; i++)
			dst[i] = src[i] ^ buf[i & 31];
		memzero_explicit(buf, sizeof(buf));
	}
}

X8_TARGET void tlsx_chacha20_xor_avx2(const u32 key[8], const u32 nonce[3],
				      u32 counter, const u8 *src, u8 *dst,
				      size_t len)
{
	__m256i in[16], ks[16];

	chacha20_x8_setup(in, key, nonce, counter);
	for (; len >= 512; len -= 512, src += 512, dst += 512) {
		chacha20_x8(in, ks);
		xor_x8(ks, src, dst, 512);
		in[12] = _mm256_add_epi32(in[12], _mm256_set1_epi32(8));
		counter += 8;
	}
	if (len > TLSX_CHACHA_BLOCK) {
		chacha20_x8(in, ks);
		xor_x8(ks, src, dst, len);
	} else if (len) {
		/* One block: the scalar code has the shorter chain. */
		tlsx_chacha20_xor_generic(key, nonce, counter, src, dst,
					  len);
	}
	memzero_explicit(ks, sizeof(ks));
	memzero_explicit(in, sizeof(in));
}

X8_TARGET void tlsx_chacha20_xor0_avx2(const u32 key[8], const u32 nonce[3],
				       u8 otk[32], const u8 *src, u8 *dst,
				       size_t len)
{
	__m256i in[16], ks[16];

	chacha20_x8_setup(in, key, nonce, 1);
	chacha20_x8_core(in, ks, true, key, nonce, otk);
	xor_x8(ks, src, dst, len);
	memzero_explicit(ks, sizeof(ks));
	memzero_explicit(in, sizeof(in));
}
