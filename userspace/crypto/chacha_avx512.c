// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 keystream, sixteen blocks at a time in 512-bit vectors
 * (AVX-512 F, with VL and BW for the short tails).
 *
 * Layout: "vertical".  ZMM register i holds word i of the state of
 * sixteen consecutive blocks (lane j = block counter + j).  A quarter-round
 * is then four adds, four XORs and four VPROLDs on four registers, and the
 * column and diagonal rounds only name different registers: no shuffles
 * inside the 20 rounds.  The sixteen state registers leave sixteen of the
 * 32 ZMM registers free, so nothing is spilled; the input state (for the
 * final addition) is read from memory.
 *
 * Output: after the rounds and the addition of the input state, a 4x4
 * transpose of 32-bit words within each 128-bit lane (VPUNPCK{L,H}DQ,
 * VPUNPCK{L,H}QDQ) on each group of four registers leaves 16 bytes of
 * block b + 4L in lane L of register 4g + b (g: which quarter of the
 * block), and a 4x4 transpose of 128-bit lanes (two rounds of
 * VSHUFI32X4) on registers b, 4 + b, 8 + b, 12 + b gathers blocks b,
 * b + 4, b + 8 and b + 12 whole.  Each block is then one 64-byte XOR.
 *
 * Zen 4 executes a 512-bit operation as two 256-bit halves, so sixteen
 * blocks in ZMM cost what two passes of eight in YMM cost.  Tails of 512
 * bytes or less therefore take the eight-block YMM core
 * (chacha_x8_template.h, with VPROLD from AVX-512 VL), whose latency is
 * that of a single block.  The last partial block (or 32-byte piece) is
 * read and written with byte masks (AVX-512 BW): no keystream goes
 * through memory.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>
#include "platform.h"
#include "chacha_engines.h"

#define X8_TARGET __attribute__((target("avx512f,avx512vl,avx512bw")))
#define X8_ROL(v, n) _mm256_rol_epi32(v, n)
#include "chacha_x8_template.h"

#define X16_TARGET X8_TARGET

#define X16_QR(a, b, c, d) do {						\
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);	\
	d = _mm512_rol_epi32(d, 16);					\
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);	\
	b = _mm512_rol_epi32(b, 12);					\
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);	\
	d = _mm512_rol_epi32(d, 8);					\
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);	\
	b = _mm512_rol_epi32(b, 7);					\
} while (0)

/* 4x4 transpose of 32-bit words within each 128-bit lane. */
#define X16_TRANSPOSE4(a, b, c, d) do {					\
	__m512i t0 = _mm512_unpacklo_epi32(a, b);			\
	__m512i t1 = _mm512_unpacklo_epi32(c, d);			\
	__m512i t2 = _mm512_unpackhi_epi32(a, b);			\
	__m512i t3 = _mm512_unpackhi_epi32(c, d);			\
	a = _mm512_unpacklo_epi64(t0, t1);				\
	b = _mm512_unpackhi_epi64(t0, t1);				\
	c = _mm512_unpacklo_epi64(t2, t3);				\
	d = _mm512_unpackhi_epi64(t2, t3);				\
} while (0)

/* 4x4 transpose of 128-bit lanes: afterwards a..d = blocks b..b+12. */
#define X16_LANES4(a, b, c, d) do {					\
	__m512i u0 = _mm512_shuffle_i32x4(a, b, 0x44);			\
	__m512i u1 = _mm512_shuffle_i32x4(a, b, 0xee);			\
	__m512i u2 = _mm512_shuffle_i32x4(c, d, 0x44);			\
	__m512i u3 = _mm512_shuffle_i32x4(c, d, 0xee);			\
	a = _mm512_shuffle_i32x4(u0, u2, 0x88);				\
	b = _mm512_shuffle_i32x4(u0, u2, 0xdd);				\
	c = _mm512_shuffle_i32x4(u1, u3, 0x88);				\
	d = _mm512_shuffle_i32x4(u1, u3, 0xdd);				\
} while (0)

X16_TARGET static inline void chacha20_x16_setup(__m512i in[16],
						 const u32 key[8],
						 const u32 nonce[3],
						 u32 counter)
{
	int i;

	in[0] = _mm512_set1_epi32(TLSX_CHACHA_C0);
	in[1] = _mm512_set1_epi32(TLSX_CHACHA_C1);
	in[2] = _mm512_set1_epi32(TLSX_CHACHA_C2);
	in[3] = _mm512_set1_epi32(TLSX_CHACHA_C3);
	for (i = 0; i < 8; i++)
		in[4 + i] = _mm512_set1_epi32(key[i]);
	in[12] = _mm512_add_epi32(_mm512_set1_epi32(counter),
				  _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8,
						   7, 6, 5, 4, 3, 2, 1, 0));
	in[13] = _mm512_set1_epi32(nonce[0]);
	in[14] = _mm512_set1_epi32(nonce[1]);
	in[15] = _mm512_set1_epi32(nonce[2]);
}

/* Sixteen keystream blocks of @in: ks[j] = block j. */
X16_TARGET static __always_inline void chacha20_x16(const __m512i in[16],
						    __m512i ks[16])
{
	__m512i x0 = in[0], x1 = in[1], x2 = in[2], x3 = in[3];
	__m512i x4 = in[4], x5 = in[5], x6 = in[6], x7 = in[7];
	__m512i x8 = in[8], x9 = in[9], x10 = in[10], x11 = in[11];
	__m512i x12 = in[12], x13 = in[13], x14 = in[14], x15 = in[15];
	int i;

	for (i = 0; i < 10; i++) {
		X16_QR(x0, x4, x8, x12);
		X16_QR(x1, x5, x9, x13);
		X16_QR(x2, x6, x10, x14);
		X16_QR(x3, x7, x11, x15);
		X16_QR(x0, x5, x10, x15);
		X16_QR(x1, x6, x11, x12);
		X16_QR(x2, x7, x8, x13);
		X16_QR(x3, x4, x9, x14);
	}
	x0 = _mm512_add_epi32(x0, in[0]);
	x1 = _mm512_add_epi32(x1, in[1]);
	x2 = _mm512_add_epi32(x2, in[2]);
	x3 = _mm512_add_epi32(x3, in[3]);
	x4 = _mm512_add_epi32(x4, in[4]);
	x5 = _mm512_add_epi32(x5, in[5]);
	x6 = _mm512_add_epi32(x6, in[6]);
	x7 = _mm512_add_epi32(x7, in[7]);
	x8 = _mm512_add_epi32(x8, in[8]);
	x9 = _mm512_add_epi32(x9, in[9]);
	x10 = _mm512_add_epi32(x10, in[10]);
	x11 = _mm512_add_epi32(x11, in[11]);
	x12 = _mm512_add_epi32(x12, in[12]);
	x13 = _mm512_add_epi32(x13, in[13]);
	x14 = _mm512_add_epi32(x14, in[14]);
	x15 = _mm512_add_epi32(x15, in[15]);
	X16_TRANSPOSE4(x0, x1, x2, x3);
	X16_TRANSPOSE4(x4, x5, x6, x7);
	X16_TRANSPOSE4(x8, x9, x10, x11);
	X16_TRANSPOSE4(x12, x13, x14, x15);
	X16_LANES4(x0, x4, x8, x12);
	X16_LANES4(x1, x5, x9, x13);
	X16_LANES4(x2, x6, x10, x14);
	X16_LANES4(x3, x7, x11, x15);
	ks[0] = x0;
	ks[1] = x1;
	ks[2] = x2;
	ks[3] = x3;
	ks[4] = x4;
	ks[5] = x5;
	ks[6] = x6;
	ks[7] = x7;
	ks[8] = x8;
	ks[9] = x9;
	ks[10] = x10;
	ks[11] = x11;
	ks[12] = x12;
	ks[13] = x13;
	ks[14] = x14;
	ks[15] = x15;
}

/*
 * XOR piece @i of @W bytes (64 or 32) with @ks; a piece cut by @len is
 * read and written under a byte mask of its first n < @W bytes.
 */
#define XOR_PIECE(W, i, ks, len) do {					\
	if ((len) >= (size_t)(W) * ((i) + 1))				\
		XOR_FULL##W(src + (W) * (i), dst + (W) * (i), ks);	\
	else if ((len) > (size_t)(W) * (i))				\
		XOR_PART##W(src + (W) * (i), dst + (W) * (i), ks,	\
			    (len) - (W) * (i));				\
} while (0)

#define XOR_FULL64(s, d, ks)						\
	_mm512_storeu_si512((d), _mm512_xor_si512(			\
		_mm512_loadu_si512((s)), (ks)))
#define XOR_PART64(s, d, ks, n) do {					\
	__mmask64 m = (1ULL << (n)) - 1;				\
	_mm512_mask_storeu_epi8((d), m, _mm512_xor_si512(		\
		_mm512_maskz_loadu_epi8(m, (s)), (ks)));		\
} while (0)
#define XOR_FULL32(s, d, ks)						\
	_mm256_storeu_si256((__m256i *)(d), _mm256_xor_si256(		\
		_mm256_loadu_si256((const __m256i *)(s)), (ks)))
#define XOR_PART32(s, d, ks, n) do {					\
	__mmask32 m = (1U << (n)) - 1;					\
	_mm256_mask_storeu_epi8((d), m, _mm256_xor_si256(		\
		_mm256_maskz_loadu_epi8(m, (s)), (ks)));		\
} while (0)

/* The last @len (1..512) bytes, eight blocks wide. */
X16_TARGET static void chacha20_tail_x8(const u32 key[8],
					const u32 nonce[3], u32 counter,
					const u8 *src, u8 *dst, size_t len)
{
	__m256i in[16], ks[16];

	chacha20_x8_setup(in, key, nonce, counter);
	chacha20_x8(in, ks);
	XOR_PIECE(32, 0, ks[0], len);
	XOR_PIECE(32, 1, ks[1], len);
	XOR_PIECE(32, 2, ks[2], len);
	XOR_PIECE(32, 3, ks[3], len);
	XOR_PIECE(32, 4, ks[4], len);
	XOR_PIECE(32, 5, ks[5], len);
	XOR_PIECE(32, 6, ks[6], len);
	XOR_PIECE(32, 7, ks[7], len);
	XOR_PIECE(32, 8, ks[8], len);
	XOR_PIECE(32, 9, ks[9], len);
	XOR_PIECE(32, 10, ks[10], len);
	XOR_PIECE(32, 11, ks[11], len);
	XOR_PIECE(32, 12, ks[12], len);
	XOR_PIECE(32, 13, ks[13], len);
	XOR_PIECE(32, 14, ks[14], len);
	XOR_PIECE(32, 15, ks[15], len);
	memzero_explicit(in, sizeof(in));
}

X16_TARGET void tlsx_chacha20_xor_avx512(const u32 key[8],
					 const u32 nonce[3], u32 counter,
					 const u8 *src, u8 *dst, size_t len)
{
	__m512i in[16], ks[16];

	if (len <= 512) {
		if (len)
			chacha20_tail_x8(key, nonce, counter, src, dst, len);
		return;
	}
	chacha20_x16_setup(in, key, nonce, counter);
	for (;;) {
		chacha20_x16(in, ks);
		XOR_PIECE(64, 0, ks[0], len);
		XOR_PIECE(64, 1, ks[1], len);
		XOR_PIECE(64, 2, ks[2], len);
		XOR_PIECE(64, 3, ks[3], len);
		XOR_PIECE(64, 4, ks[4], len);
		XOR_PIECE(64, 5, ks[5], len);
		XOR_PIECE(64, 6, ks[6], len);
		XOR_PIECE(64, 7, ks[7], len);
		XOR_PIECE(64, 8, ks[8], len);
		XOR_PIECE(64, 9, ks[9], len);
		XOR_PIECE(64, 10, ks[10], len);
		XOR_PIECE(64, 11, ks[11], len);
		XOR_PIECE(64, 12, ks[12], len);
		XOR_PIECE(64, 13, ks[13], len);
		XOR_PIECE(64, 14, ks[14], len);
		XOR_PIECE(64, 15, ks[15], len);
		if (len <= 1024)
			break;
		len -= 1024;
		src += 1024;
		dst += 1024;
		counter += 16;
		if (len <= 512) {
			chacha20_tail_x8(key, nonce, counter, src, dst, len);
			break;
		}
		in[12] = _mm512_add_epi32(in[12], _mm512_set1_epi32(16));
	}
	memzero_explicit(in, sizeof(in));
}
