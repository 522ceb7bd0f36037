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
 * is wiped afterwards.  A last single block runs in scalar code, whose
 * dependency chain is shorter than a vector pass.  The first pass of an
 * operation computes block 0 alongside blocks 1-8
 * (tlsx_chacha20_xor0_avx2()).
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

/*
 * The last, partial piece: through a stack buffer (the length is public)
 * that is wiped afterwards.
 */
X8_TARGET static void x8_xor_partial(const u8 *src, u8 *dst, size_t n,
				     __m256i ks)
{
	u8 buf[32] __aligned(32);
	size_t i;

	_mm256_store_si256((__m256i *)buf, ks);
	for (i = 0; i < n; i++)
		dst[i] = src[i] ^ buf[i];
	memzero_explicit(buf, sizeof(buf));
}

/* XOR the 32 keystream bytes @ks into bytes @off.. below @len. */
X8_TARGET static __always_inline void x8_xor32(const u8 *src, u8 *dst,
					       size_t len, size_t off,
					       __m256i ks)
{
	if (off + 32 <= len) {
		__m256i m = _mm256_loadu_si256((const __m256i *)(src + off));

		_mm256_storeu_si256((__m256i *)(dst + off),
				    _mm256_xor_si256(m, ks));
	} else if (off < len) {
		x8_xor_partial(src + off, dst + off, len - off, ks);
	}
}

#include "chacha_x8_template.h"

X8_TARGET void tlsx_chacha20_xor_avx2(const u32 key[8], const u32 nonce[3],
				      u32 counter, const u8 *src, u8 *dst,
				      size_t len)
{
	while (len > TLSX_CHACHA_BLOCK) {
		size_t n = len < 512 ? len : 512;

		chacha20_x8_pass(key, nonce, counter, src, dst, n, false,
				 NULL);
		src += n;
		dst += n;
		len -= n;
		counter += 8;
	}
	/* One block: the scalar code has the shorter chain. */
	if (len)
		tlsx_chacha20_xor_generic(key, nonce, counter, src, dst, len);
}

/* The first pass: block 0 in scalar registers alongside blocks 1-8. */
X8_TARGET void tlsx_chacha20_xor0_avx2(const u32 key[8], const u32 nonce[3],
				       u8 otk[32], const u8 *src, u8 *dst,
				       size_t len)
{
	chacha20_x8_pass(key, nonce, 1, src, dst, len, true, otk);
}
