// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 keystream, four blocks at a time in 128-bit vectors (SSSE3).
 *
 * Layout: "vertical".  Vector i holds word i of the 16-word state of four
 * consecutive blocks (lane j = block counter + j), so one quarter-round
 * on four vectors advances the same quarter-round of all four blocks, and
 * the column and diagonal rounds differ only in which vectors are named:
 * no shuffling between rounds.  Rotations by 16 and 8 are byte shuffles
 * (PSHUFB), by 12 and 7 two shifts and an OR.  The 16 state vectors use
 * all of the 16 XMM registers, so the compiler keeps one or two on the
 * stack during the rounds; that costs little next to the ~300 operations
 * of a double round.
 *
 * After the 20 rounds the input state is added back and the four 4x4
 * blocks of 32-bit words (words 0-3, 4-7, 8-11, 12-15 of each block) are
 * transposed so that each vector holds 16 consecutive keystream bytes of
 * one block, then XORed with the text.  In a partial last group of four
 * blocks the whole 16-byte pieces are XORed directly and the last few
 * bytes through a stack buffer (the length is public) that is wiped
 * afterwards.  The first pass of an operation runs blocks 0-3, so the
 * Poly1305 key (block 0) comes with the first 192 bytes of keystream.
 *
 * Two encodings of the same code.  Legacy-SSE instructions do not touch
 * bits 128-255 of the vector registers, so while those bits are dirty
 * (after AVX code that did not end with VZEROUPPER: OpenSSL's, another
 * engine's, or whatever ran before us in the kernel) every SSE
 * instruction carries a false dependency on, or a merge with, the old
 * upper half.  Measured on Zen 5: 6.4 TSC cycles/byte at 16 KiB right
 * after AVX-512 code against 2.3 with clean state.  So the functions are
 * compiled twice: tlsx_chacha20_*_ssse3() with legacy encoding for CPUs
 * without AVX, and tlsx_chacha20_*_ssse3_vex() with target("avx"), where
 * the same 128-bit intrinsics become VEX instructions, which zero the
 * upper bits instead of preserving them.  chachapoly.c picks the VEX
 * pair whenever the CPU has AVX.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>
#include "aead/platform.h"
#include "aead/chacha_engines.h"

#define TARGET __attribute__((target("ssse3")))
#define VEX_TARGET __attribute__((target("avx")))

TARGET static __always_inline __m128i x4_rol16(__m128i v)
{
	return _mm_shuffle_epi8(v, _mm_set_epi8(13, 12, 15, 14, 9, 8, 11, 10,
						5, 4, 7, 6, 1, 0, 3, 2));
}

TARGET static __always_inline __m128i x4_rol8(__m128i v)
{
	return _mm_shuffle_epi8(v, _mm_set_epi8(14, 13, 12, 15, 10, 9, 8, 11,
						6, 5, 4, 7, 2, 1, 0, 3));
}

#define ROL(v, n) _mm_or_si128(_mm_slli_epi32(v, n), _mm_srli_epi32(v, 32 - n))

#define QR(a, b, c, d) do {					\
	a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = x4_rol16(d); \
	c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = ROL(b, 12); \
	a = _mm_add_epi32(a, b); d = _mm_xor_si128(d, a); d = x4_rol8(d); \
	c = _mm_add_epi32(c, d); b = _mm_xor_si128(b, c); b = ROL(b, 7); \
} while (0)

/* Transpose the 4x4 words of a, b, c, d: afterwards vector j = block j. */
#define TRANSPOSE4(a, b, c, d) do {				\
	__m128i t0 = _mm_unpacklo_epi32(a, b);			\
	__m128i t1 = _mm_unpacklo_epi32(c, d);			\
	__m128i t2 = _mm_unpackhi_epi32(a, b);			\
	__m128i t3 = _mm_unpackhi_epi32(c, d);			\
	a = _mm_unpacklo_epi64(t0, t1);				\
	b = _mm_unpackhi_epi64(t0, t1);				\
	c = _mm_unpacklo_epi64(t2, t3);				\
	d = _mm_unpackhi_epi64(t2, t3);				\
} while (0)

/*
 * Four keystream blocks from @in (the 16 input words, each broadcast, with
 * the per-lane counter offsets already in word 12) into @out[16]: out[4j +
 * g] is bytes 16g..16g+15 of block j.
 */
TARGET static __always_inline void chacha20_x4(const __m128i in[16], __m128i out[16])
{
	__m128i x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
	__m128i x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
	__m128i x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11];
	__m128i x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
	int i;

	for (i = 0; i < 10; i++) {
		QR(x0, x4, x8, x12);
		QR(x1, x5, x9, x13);
		QR(x2, x6, x10, x14);
		QR(x3, x7, x11, x15);
		QR(x0, x5, x10, x15);
		QR(x1, x6, x11, x12);
		QR(x2, x7, x8, x13);
		QR(x3, x4, x9, x14);
	}
	x0 = _mm_add_epi32(x0, in[0]);
	x1 = _mm_add_epi32(x1, in[1]);
	x2 = _mm_add_epi32(x2, in[2]);
	x3 = _mm_add_epi32(x3, in[3]);
	x4 = _mm_add_epi32(x4, in[4]);
	x5 = _mm_add_epi32(x5, in[5]);
	x6 = _mm_add_epi32(x6, in[6]);
	x7 = _mm_add_epi32(x7, in[7]);
	x8 = _mm_add_epi32(x8, in[8]);
	x9 = _mm_add_epi32(x9, in[9]);
	x10 = _mm_add_epi32(x10, in[10]);
	x11 = _mm_add_epi32(x11, in[11]);
	x12 = _mm_add_epi32(x12, in[12]);
	x13 = _mm_add_epi32(x13, in[13]);
	x14 = _mm_add_epi32(x14, in[14]);
	x15 = _mm_add_epi32(x15, in[15]);
	TRANSPOSE4(x0, x1, x2, x3);
	TRANSPOSE4(x4, x5, x6, x7);
	TRANSPOSE4(x8, x9, x10, x11);
	TRANSPOSE4(x12, x13, x14, x15);
	out[0] = x0;
	out[1] = x4;
	out[2] = x8;
	out[3] = x12;
	out[4] = x1;
	out[5] = x5;
	out[6] = x9;
	out[7] = x13;
	out[8] = x2;
	out[9] = x6;
	out[10] = x10;
	out[11] = x14;
	out[12] = x3;
	out[13] = x7;
	out[14] = x11;
	out[15] = x15;
}

/* XOR @len bytes (at most 16 vectors of @ks) with the keystream @ks. */
TARGET static __always_inline void xor_x4(const __m128i *ks, const u8 *src,
					  u8 *dst, size_t len)
{
	u8 buf[16] __aligned(16);
	size_t i;

	for (i = 0; i < len / 16; i++) {
		__m128i m = _mm_loadu_si128((const __m128i *)src + i);

		_mm_storeu_si128((__m128i *)dst + i, _mm_xor_si128(m, ks[i]));
	}
	if (len & 15) {
		_mm_store_si128((__m128i *)buf, ks[i]);
		for (i *= 16; i < len; i++)
			dst[i] = src[i] ^ buf[i & 15];
		memzero_explicit(buf, sizeof(buf));
	}
}

TARGET static __always_inline void chacha20_x4_setup(__m128i in[16],
					    const u32 key[8],
					    const u32 nonce[3], u32 counter)
{
	int i;

	in[0] = _mm_set1_epi32(TLSX_CHACHA_C0);
	in[1] = _mm_set1_epi32(TLSX_CHACHA_C1);
	in[2] = _mm_set1_epi32(TLSX_CHACHA_C2);
	in[3] = _mm_set1_epi32(TLSX_CHACHA_C3);
	for (i = 0; i < 8; i++)
		in[4 + i] = _mm_set1_epi32(key[i]);
	in[12] = _mm_add_epi32(_mm_set1_epi32(counter),
			       _mm_set_epi32(3, 2, 1, 0));
	in[13] = _mm_set1_epi32(nonce[0]);
	in[14] = _mm_set1_epi32(nonce[1]);
	in[15] = _mm_set1_epi32(nonce[2]);
}

/* The rounds, out of line once per encoding (a smaller frame). */
TARGET static noinline void chacha20_x4_sse(const __m128i in[16],
					    __m128i out[16])
{
	chacha20_x4(in, out);
}

VEX_TARGET static noinline void chacha20_x4_vex(const __m128i in[16],
						__m128i out[16])
{
	chacha20_x4(in, out);
}

typedef void (*chacha20_x4_fn)(const __m128i in[16], __m128i out[16]);

TARGET static __always_inline void chacha20_xor_x4(const u32 key[8],
						  const u32 nonce[3],
						  u32 counter, const u8 *src,
						  u8 *dst, size_t len,
						  chacha20_x4_fn core)
{
	__m128i in[16], ks[16];

	chacha20_x4_setup(in, key, nonce, counter);
	for (; len >= 256; len -= 256, src += 256, dst += 256) {
		core(in, ks);
		xor_x4(ks, src, dst, 256);
		in[12] = _mm_add_epi32(in[12], _mm_set1_epi32(4));
	}
	if (len) {
		core(in, ks);
		xor_x4(ks, src, dst, len);
	}
	memzero_explicit(ks, sizeof(ks));
	memzero_explicit(in, sizeof(in));
}

/* Blocks 0-3 in one pass: the Poly1305 key and up to 192 bytes. */
TARGET static __always_inline void chacha20_xor0_x4(const u32 key[8],
						   const u32 nonce[3],
						   u8 otk[32], const u8 *src,
						   u8 *dst, size_t len,
						   chacha20_x4_fn core)
{
	__m128i in[16], ks[16];

	chacha20_x4_setup(in, key, nonce, 0);
	core(in, ks);
	_mm_storeu_si128((__m128i *)otk, ks[0]);
	_mm_storeu_si128((__m128i *)(otk + 16), ks[1]);
	xor_x4(ks + 4, src, dst, len);
	memzero_explicit(ks, sizeof(ks));
	memzero_explicit(in, sizeof(in));
}

/* Legacy SSE encoding: for CPUs without AVX. */
TARGET void tlsx_chacha20_xor_ssse3(const u32 key[8], const u32 nonce[3],
				    u32 counter, const u8 *src, u8 *dst,
				    size_t len)
{
	chacha20_xor_x4(key, nonce, counter, src, dst, len, chacha20_x4_sse);
}

TARGET void tlsx_chacha20_xor0_ssse3(const u32 key[8], const u32 nonce[3],
				     u8 otk[32], const u8 *src, u8 *dst,
				     size_t len)
{
	chacha20_xor0_x4(key, nonce, otk, src, dst, len, chacha20_x4_sse);
}

/*
 * The same code VEX-encoded, for CPUs with AVX (see the top of the file):
 * the SSSE3 helpers inline into these, and take the caller's encoding.
 */
VEX_TARGET void tlsx_chacha20_xor_ssse3_vex(const u32 key[8],
					    const u32 nonce[3], u32 counter,
					    const u8 *src, u8 *dst, size_t len)
{
	chacha20_xor_x4(key, nonce, counter, src, dst, len, chacha20_x4_vex);
}

VEX_TARGET void tlsx_chacha20_xor0_ssse3_vex(const u32 key[8],
					     const u32 nonce[3], u8 otk[32],
					     const u8 *src, u8 *dst,
					     size_t len)
{
	chacha20_xor0_x4(key, nonce, otk, src, dst, len, chacha20_x4_vex);
}
