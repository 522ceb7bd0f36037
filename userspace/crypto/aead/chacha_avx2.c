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
 * Whole KiBs run sixteen blocks per pass, as two interleaved sets of eight
 * (chacha20_x16_pass(), which explains why and how); the rest runs eight
 * blocks per pass.
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
#include "aead/platform.h"
#include "aead/chacha_engines.h"

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
X8_TARGET static noinline void x8_xor_partial(const u8 *src, u8 *dst, size_t n,
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

#include "aead/chacha_x8_template.h"

/*
 * Two interleaved quarter-rounds, one in each set of eight blocks: a, b,
 * c, d in the first set and e, f, g, h in the second.
 */
#define X16_QR(a, b, c, d, e, f, g, h) do {				\
	a = _mm256_add_epi32(a, b); e = _mm256_add_epi32(e, f);	\
	d = _mm256_xor_si256(d, a); h = _mm256_xor_si256(h, e);	\
	d = X8_ROL(d, 16); h = X8_ROL(h, 16);				\
	c = _mm256_add_epi32(c, d); g = _mm256_add_epi32(g, h);	\
	b = _mm256_xor_si256(b, c); f = _mm256_xor_si256(f, g);	\
	b = X8_ROL(b, 12); f = X8_ROL(f, 12);				\
	a = _mm256_add_epi32(a, b); e = _mm256_add_epi32(e, f);	\
	d = _mm256_xor_si256(d, a); h = _mm256_xor_si256(h, e);	\
	d = X8_ROL(d, 8); h = X8_ROL(h, 8);				\
	c = _mm256_add_epi32(c, d); g = _mm256_add_epi32(g, h);	\
	b = _mm256_xor_si256(b, c); f = _mm256_xor_si256(f, g);	\
	b = X8_ROL(b, 7); f = X8_ROL(f, 7);				\
} while (0)

/*
 * The second set lives in a 16-vector array (its "home", in the caller's
 * frame), and this empty asm after each of its quarter-rounds makes GCC
 * store the vectors it changed back there and load them again when next
 * needed.  Left to itself GCC spills both sets to slots of its choosing
 * (a 1.6 KiB frame, and slower: 0.68 against 0.64 cycles/byte).
 */
struct x16_home {
	__m256i v[16];
};

#define X16_HOME(arr) __asm__("" : "+m"(*(struct x16_home *)(arr)))

/*
 * Finish one set of eight blocks whose state is @st: add the input of
 * blocks @counter.., transpose and XOR @len bytes (at most 512) of @src
 * into @dst (the
 * template's code, which names its state x0..x15 and its text src, dst,
 * len).  Out of line, so that chacha20_x16_pass() need not find stack
 * room for the spills of the transposition on top of its own: each frame
 * stays well below 1 KiB.
 */
X8_TARGET static noinline void x8_finish(const __m256i st[16],
					 const u32 key[8],
					 const u32 nonce[3], u32 counter,
					 const u8 *src, u8 *dst, size_t len)
{
	__m256i x0 = st[0], x1 = st[1], x2 = st[2], x3 = st[3];
	__m256i x4 = st[4], x5 = st[5], x6 = st[6], x7 = st[7];
	__m256i x8 = st[8], x9 = st[9], x10 = st[10], x11 = st[11];
	__m256i x12 = st[12], x13 = st[13], x14 = st[14], x15 = st[15];

	X8_ADD_INPUT(counter);
	X8_TRANSPOSE4(x0, x1, x2, x3);
	X8_TRANSPOSE4(x4, x5, x6, x7);
	X8_TRANSPOSE4(x8, x9, x10, x11);
	X8_TRANSPOSE4(x12, x13, x14, x15);
	X8_XOR_BLOCKS(x0, x4, x8, x12, 0);
	X8_XOR_BLOCKS(x1, x5, x9, x13, 1);
	X8_XOR_BLOCKS(x2, x6, x10, x14, 2);
	X8_XOR_BLOCKS(x3, x7, x11, x15, 3);
}

/*
 * Sixteen blocks (1 KiB) from @counter as two independent sets of eight,
 * a0..a15 (blocks @counter..+7) and @b[0..15] (the next eight).  On Zen 5
 * a dependent vector operation waits two cycles, so one set of eight
 * blocks keeps the units only half busy: its four quarter-round chains
 * per round are the bound.  Two sets double the independent work.  The
 * 32 state vectors do not fit in the 16 YMM registers: the second set
 * lives in @b (see X16_HOME()), the first in registers and GCC's spill
 * slots, and the loads and stores run on the load/store units beside the
 * vector ALUs.  Measured (ChaCha20 alone, 4 KiB, TSC cycles/byte): 0.82
 * with eight-block passes, 0.64 with this.  Frames (kernel flags): this
 * 736 bytes, the caller 640 (@b), x8_finish() 96.  The stack holds
 * state, not the key: the input is broadcast again from @key for the
 * final addition.
 *
 * @len bytes (at most 1024) are XORed.  When @with_otk, block 0 is
 * computed alongside in scalar registers, as in chacha20_x8_pass(), and
 * its first 32 bytes go to @otk: the first pass of a 1 KiB record.
 */
X8_TARGET static __always_inline void chacha20_x16(const u32 key[8],
						   const u32 nonce[3],
						   u32 counter,
						   const u8 *src_all,
						   u8 *dst_all, size_t len,
						   __m256i b[16],
						   bool with_otk, u8 *otk)
{
	__m256i a0, a1, a2, a3, a4, a5, a6, a7;
	__m256i a8, a9, a10, a11, a12, a13, a14, a15;
	__m256i x0, x1, x2, x3, x4, x5, x6, x7;
	__m256i x8, x9, x10, x11, x12, x13, x14, x15;
	u32 s[16];
	int i;

	X8_LOAD(counter);
	if (with_otk)
		chacha20_s_setup(s, key, nonce);
	a0 = x0; a1 = x1; a2 = x2; a3 = x3; a4 = x4; a5 = x5; a6 = x6;
	a7 = x7; a8 = x8; a9 = x9; a10 = x10; a11 = x11; a12 = x12;
	a13 = x13; a14 = x14; a15 = x15;
	b[0] = x0; b[1] = x1; b[2] = x2; b[3] = x3; b[4] = x4; b[5] = x5;
	b[6] = x6; b[7] = x7; b[8] = x8; b[9] = x9; b[10] = x10;
	b[11] = x11; b[12] = _mm256_add_epi32(x12, _mm256_set1_epi32(8));
	b[13] = x13; b[14] = x14; b[15] = x15;
	for (i = 0; i < 10; i++) {
		X16_QR(a0, a4, a8, a12, b[0], b[4], b[8], b[12]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 0);
		X16_QR(a1, a5, a9, a13, b[1], b[5], b[9], b[13]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 1);
		X16_QR(a2, a6, a10, a14, b[2], b[6], b[10], b[14]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 2);
		X16_QR(a3, a7, a11, a15, b[3], b[7], b[11], b[15]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 3);
		X16_QR(a0, a5, a10, a15, b[0], b[5], b[10], b[15]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 4);
		X16_QR(a1, a6, a11, a12, b[1], b[6], b[11], b[12]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 5);
		X16_QR(a2, a7, a8, a13, b[2], b[7], b[8], b[13]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 6);
		X16_QR(a3, a4, a9, a14, b[3], b[4], b[9], b[14]);
		X16_HOME(b);
		if (with_otk)
			S_QR(s, 7);
	}
	if (with_otk)
		chacha20_s_otk(s, key, otk);
	/* The second set from its home, then the first one in its place. */
	if (len > 512)
		x8_finish(b, key, nonce, counter + 8, src_all + 512,
			  dst_all + 512, len - 512);
	b[0] = a0; b[1] = a1; b[2] = a2; b[3] = a3;
	b[4] = a4; b[5] = a5; b[6] = a6; b[7] = a7;
	b[8] = a8; b[9] = a9; b[10] = a10; b[11] = a11;
	b[12] = a12; b[13] = a13; b[14] = a14; b[15] = a15;
	x8_finish(b, key, nonce, counter, src_all, dst_all,
		  len < 512 ? len : 512);
}

X8_TARGET static noinline void chacha20_x16_pass(const u32 key[8],
						 const u32 nonce[3],
						 u32 counter, const u8 *src,
						 u8 *dst, __m256i b[16])
{
	chacha20_x16(key, nonce, counter, src, dst, 1024, b, false, NULL);
}

/* The first pass of an operation, from block 1, block 0 alongside. */
X8_TARGET static noinline void chacha20_x16_pass0(const u32 key[8],
						  const u32 nonce[3],
						  u8 otk[32], const u8 *src,
						  u8 *dst, size_t len,
						  __m256i b[16])
{
	chacha20_x16(key, nonce, 1, src, dst, len, b, true, otk);
}

/* Less than 1 KiB: eight blocks per pass, then a last block in scalar. */
X8_TARGET static noinline void chacha20_xor_x8(const u32 key[8],
					       const u32 nonce[3],
					       u32 counter, const u8 *src,
					       u8 *dst, size_t len)
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

/*
 * The home of the second set of chacha20_x16_pass() lives in this frame,
 * so that neither frame nears 1 KiB (GCC spills the first set besides).
 */
X8_TARGET void tlsx_chacha20_xor_avx2(const u32 key[8], const u32 nonce[3],
				      u32 counter, const u8 *src, u8 *dst,
				      size_t len)
{
	__m256i home[16];

	if (len >= 1024) {
		for (; len >= 1024; len -= 1024, src += 1024, dst += 1024) {
			chacha20_x16_pass(key, nonce, counter, src, dst,
					  home);
			counter += 16;
		}
		memzero_explicit(home, sizeof(home));
	}
	if (len)
		chacha20_xor_x8(key, nonce, counter, src, dst, len);
}

X8_TARGET static noinline void chacha20_x8_pass0(const u32 key[8],
						 const u32 nonce[3],
						 u8 otk[32], const u8 *src,
						 u8 *dst, size_t len)
{
	chacha20_x8_pass(key, nonce, 1, src, dst, len, true, otk);
}

/*
 * The first pass: block 0 in scalar registers alongside blocks 1-8, or
 * 1-16 beyond 512 bytes (a 1 KiB record then takes one pass, not two).
 */
X8_TARGET void tlsx_chacha20_xor0_avx2(const u32 key[8], const u32 nonce[3],
				       u8 otk[32], const u8 *src, u8 *dst,
				       size_t len)
{
	__m256i home[16];

	if (len <= 512) {
		chacha20_x8_pass0(key, nonce, otk, src, dst, len);
		return;
	}
	chacha20_x16_pass0(key, nonce, otk, src, dst, len, home);
	memzero_explicit(home, sizeof(home));
}
