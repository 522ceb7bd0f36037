// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 keystream with AVX-512: 32 blocks a pass in 512-bit vectors
 * (AVX-512 F), with VL and BW for the short tails.
 *
 * Layout: "vertical".  ZMM register i holds word i of the state of
 * sixteen consecutive blocks (lane j = block counter + j).  A quarter-round
 * is then four adds, four XORs and four VPROLDs on four registers, and the
 * column and diagonal rounds only name different registers: no shuffles
 * inside the 20 rounds.
 *
 * Why 32 blocks.  The four quarter-rounds of a round are four independent
 * chains of twelve dependent operations, and those chains, not the
 * number of vector units, bound one set of sixteen blocks: on the Zen 5
 * this was tuned on (512-bit units, two cycles from one vector integer
 * operation to the next dependent one) a set of sixteen blocks keeps
 * fewer than half of the units busy.  So the bulk loop runs two
 * independent sets (blocks c..c+15 and c+16..c+31) in all 32 ZMM
 * registers: twice the work in about 1.3 times the time.  With every
 * register holding state, GCC keeps them all in registers only when the
 * ten double rounds are unrolled (a loop back edge makes it spill), so
 * that core is unrolled: about 12 KB of code.  The input state for the
 * final addition is read from memory.
 *
 * Output: after the rounds and the addition of the input state, a 4x4
 * transpose of 32-bit words within each 128-bit lane (VPUNPCK{L,H}DQ,
 * VPUNPCK{L,H}QDQ) on each group of four registers leaves 16 bytes of
 * block b + 4L in lane L of register 4g + b (g: which quarter of the
 * block), and a 4x4 transpose of 128-bit lanes (two rounds of
 * VSHUFI32X4) on registers b, 4 + b, 8 + b, 12 + b gathers blocks b,
 * b + 4, b + 8 and b + 12 whole.  Each block is then one 64-byte XOR.
 *
 * Tails: up to 1 KiB one set of sixteen blocks (a loop, no spills with
 * half of the registers free), up to 512 bytes eight blocks in YMM
 * (chacha_x8_template.h; on Zen 4, which splits 512-bit operations in
 * two, that halves the work), and a single block in scalar code, whose
 * chain of one-cycle operations is shorter than a vector pass.  The last
 * partial block (or 32-byte piece) is read and written under a byte mask
 * (AVX-512 BW): no keystream goes through memory.
 *
 * The first pass of an AEAD operation (tlsx_chacha20_xor0_avx512())
 * computes block 0, the Poly1305 key, in general-purpose registers
 * alongside blocks 1-8 or 1-16 (see chacha_x8_template.h), so a 1 KiB
 * record costs one sixteen-block pass and a 64-byte record one
 * eight-block pass.
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

/* Column and diagonal round on the sixteen state vectors @x. */
#define X16_DOUBLE_ROUND(x) do {					\
	X16_QR(x[0], x[4], x[8], x[12]);				\
	X16_QR(x[1], x[5], x[9], x[13]);				\
	X16_QR(x[2], x[6], x[10], x[14]);				\
	X16_QR(x[3], x[7], x[11], x[15]);				\
	X16_QR(x[0], x[5], x[10], x[15]);				\
	X16_QR(x[1], x[6], x[11], x[12]);				\
	X16_QR(x[2], x[7], x[8], x[13]);				\
	X16_QR(x[3], x[4], x[9], x[14]);				\
} while (0)

/*
 * Add the input state (@in, with @ctr_add more on the counter word) to
 * the sixteen vectors @x after the rounds and transpose them into
 * keystream: ks[j] = block j.
 */
X16_TARGET static __always_inline void chacha20_x16_finish(__m512i x[16],
							   const __m512i in[16],
							   int ctr_add,
							   __m512i ks[16])
{
	int i;

	for (i = 0; i < 16; i++)
		x[i] = _mm512_add_epi32(x[i], in[i]);
	x[12] = _mm512_add_epi32(x[12], _mm512_set1_epi32(ctr_add));
	X16_TRANSPOSE4(x[0], x[1], x[2], x[3]);
	X16_TRANSPOSE4(x[4], x[5], x[6], x[7]);
	X16_TRANSPOSE4(x[8], x[9], x[10], x[11]);
	X16_TRANSPOSE4(x[12], x[13], x[14], x[15]);
	X16_LANES4(x[0], x[4], x[8], x[12]);
	X16_LANES4(x[1], x[5], x[9], x[13]);
	X16_LANES4(x[2], x[6], x[10], x[14]);
	X16_LANES4(x[3], x[7], x[11], x[15]);
	for (i = 0; i < 16; i++)
		ks[i] = x[i];
}

/*
 * Sixteen keystream blocks of @in into @ks; and when @with_otk the
 * Poly1305 key of @key and @nonce into @otk, from the scalar block 0
 * stitched into the rounds.
 */
X16_TARGET static __always_inline void chacha20_x16_core(const __m512i in[16],
							 __m512i ks[16],
							 bool with_otk,
							 const u32 *key,
							 const u32 *nonce,
							 u8 *otk)
{
	__m512i x[16];
	u32 s[16];
	int i;

	for (i = 0; i < 16; i++)
		x[i] = in[i];
	if (with_otk)
		chacha20_s_setup(s, key, nonce);
	for (i = 0; i < 10; i++) {
		X16_QR(x[0], x[4], x[8], x[12]);
		if (with_otk)
			S_QR(s, 0);
		X16_QR(x[1], x[5], x[9], x[13]);
		if (with_otk)
			S_QR(s, 1);
		X16_QR(x[2], x[6], x[10], x[14]);
		if (with_otk)
			S_QR(s, 2);
		X16_QR(x[3], x[7], x[11], x[15]);
		if (with_otk)
			S_QR(s, 3);
		X16_QR(x[0], x[5], x[10], x[15]);
		if (with_otk)
			S_QR(s, 4);
		X16_QR(x[1], x[6], x[11], x[12]);
		if (with_otk)
			S_QR(s, 5);
		X16_QR(x[2], x[7], x[8], x[13]);
		if (with_otk)
			S_QR(s, 6);
		X16_QR(x[3], x[4], x[9], x[14]);
		if (with_otk)
			S_QR(s, 7);
	}
	if (with_otk) {
		chacha20_s_otk(s, key, otk);
		memzero_explicit(s, sizeof(s));
	}
	chacha20_x16_finish(x, in, 0, ks);
}

/*
 * Thirty-two keystream blocks: ks[j] = block j of @in's counter on (the
 * second set of sixteen has the counter of @in plus 16).  The rounds are
 * unrolled so that GCC keeps the 32 state vectors in registers.
 */
X16_TARGET static __always_inline void chacha20_x32(const __m512i in[16],
						    __m512i ks[32])
{
	__m512i x[16], y[16];
	int i;

	for (i = 0; i < 16; i++) {
		x[i] = in[i];
		y[i] = in[i];
	}
	y[12] = _mm512_add_epi32(y[12], _mm512_set1_epi32(16));
#pragma GCC unroll 10
	for (i = 0; i < 10; i++) {
		X16_DOUBLE_ROUND(x);
		X16_DOUBLE_ROUND(y);
	}
	chacha20_x16_finish(x, in, 0, ks);
	chacha20_x16_finish(y, in, 16, ks + 16);
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

/* XOR @len (at most 512) bytes with the eight-block keystream @ks. */
X16_TARGET static __always_inline void xor_x8(const __m256i ks[16],
					      const u8 *src, u8 *dst,
					      size_t len)
{
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
}

/* XOR @len (at most 1024) bytes with the sixteen-block keystream @ks. */
X16_TARGET static __always_inline void xor_x16(const __m512i ks[16],
					       const u8 *src, u8 *dst,
					       size_t len)
{
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
}

/*
 * The last @len (1..1024) bytes from block @counter: sixteen, eight or
 * one block wide, whichever covers them.
 */
X16_TARGET static void chacha20_tail(const u32 key[8], const u32 nonce[3],
				     u32 counter, const u8 *src, u8 *dst,
				     size_t len)
{
	if (len > 512) {
		__m512i in[16], ks[16];

		chacha20_x16_setup(in, key, nonce, counter);
		chacha20_x16_core(in, ks, false, NULL, NULL, NULL);
		xor_x16(ks, src, dst, len);
		memzero_explicit(in, sizeof(in));
	} else if (len > TLSX_CHACHA_BLOCK) {
		__m256i in[16], ks[16];

		chacha20_x8_setup(in, key, nonce, counter);
		chacha20_x8(in, ks);
		xor_x8(ks, src, dst, len);
		memzero_explicit(in, sizeof(in));
	} else {
		tlsx_chacha20_xor_generic(key, nonce, counter, src, dst, len);
	}
}

X16_TARGET void tlsx_chacha20_xor_avx512(const u32 key[8],
					 const u32 nonce[3], u32 counter,
					 const u8 *src, u8 *dst, size_t len)
{
	__m512i in[16], ks[32];

	if (len > 1024) {
		chacha20_x16_setup(in, key, nonce, counter);
		while (len > 1024) {
			chacha20_x32(in, ks);
			xor_x16(ks, src, dst, len);
			xor_x16(ks + 16, src + 1024, dst + 1024, len - 1024);
			if (len <= 2048) {
				len = 0;
				break;
			}
			len -= 2048;
			src += 2048;
			dst += 2048;
			counter += 32;
			in[12] = _mm512_add_epi32(in[12],
						  _mm512_set1_epi32(32));
		}
		memzero_explicit(in, sizeof(in));
	}
	if (len)
		chacha20_tail(key, nonce, counter, src, dst, len);
}

/*
 * The first pass: block 0 in scalar registers alongside blocks 1-8 (YMM)
 * or 1-16 (ZMM), whichever covers @len (at most 1024).
 */
X16_TARGET void tlsx_chacha20_xor0_avx512(const u32 key[8],
					  const u32 nonce[3], u8 otk[32],
					  const u8 *src, u8 *dst, size_t len)
{
	if (len <= 512) {
		__m256i in[16], ks[16];

		chacha20_x8_setup(in, key, nonce, 1);
		chacha20_x8_core(in, ks, true, key, nonce, otk);
		xor_x8(ks, src, dst, len);
		memzero_explicit(in, sizeof(in));
	} else {
		__m512i in[16], ks[16];

		chacha20_x16_setup(in, key, nonce, 1);
		chacha20_x16_core(in, ks, true, key, nonce, otk);
		xor_x16(ks, src, dst, len);
		memzero_explicit(in, sizeof(in));
	}
}
