// SPDX-License-Identifier: GPL-2.0
/*
 * AES key expansion (FIPS-197 section 5.2) and one block encryption with
 * AES-NI, for the key setup of the AES-NI engines (gcm.c, ccm.c).
 *
 * Why: the portable expansion and the bitsliced block of gcm_generic.c
 * cost about a microsecond per key, and a TLS 1.3 handshake sets up
 * several keys.  AESKEYGENASSIST gives SubWord(RotWord(w)) ^ Rcon for a
 * whole round key in one instruction, in constant time like every AES-NI
 * instruction, so the expansion takes some tens of nanoseconds.
 *
 * The round keys written are byte for byte those of
 * tlsx_aes_expand_key(): a 16-byte round key in memory is the four words
 * w[4i..4i+3] of FIPS-197, first byte first, which is also the order
 * AES-NI loads.  The generic engine can therefore run on a key set up
 * here (see the top of gcm.c).
 *
 * The expansion, with the 128-bit register holding w[i..i+3] (w[i] in
 * the low 32 bits):
 *
 *   AES-128: t = AESKEYGENASSIST(prev, rcon) has
 *	SubWord(RotWord(w[i+3])) ^ rcon in its top word; broadcast it
 *	(shuffle 0xff) and XOR it into the prefix XOR of the previous
 *	round key (w[i], w[i]^w[i+1], ...), which three shift-and-XOR
 *	steps compute.
 *   AES-256: the even round keys as above from the round key two back,
 *	with the odd one's last word; the odd round keys take SubWord
 *	of the even one's last word without rotation or rcon: that is
 *	AESKEYGENASSIST(even, 0)'s word 2 (shuffle 0xaa).
 *
 * The functions are built twice from one body: in legacy SSE encoding
 * and in VEX encoding (for CPUs with AVX, whose engines use VEX: mixing
 * the two encodings while the upper register halves are dirty costs a
 * state transition on some CPUs).  Only xmm registers are used.  They
 * run inside a SIMD section (aead.mk); key material left in xmm
 * registers is overwritten by the next vector code, as with every
 * engine here.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>

#include "aead/platform.h"
#include "aead/gcm_engines.h"

#define KX_SSE	__attribute__((target("sse2,aes")))
#define KX_AVX	__attribute__((target("avx,aes")))

/* The prefix XOR of the four words of @x: w0, w0^w1, w0^w1^w2, ... */
static __always_inline KX_SSE __m128i kx_prefix_xor(__m128i x)
{
	x = _mm_xor_si128(x, _mm_slli_si128(x, 4));
	x = _mm_xor_si128(x, _mm_slli_si128(x, 4));
	return _mm_xor_si128(x, _mm_slli_si128(x, 4));
}

/*
 * The next round key from @prev (the key 4 words back, or 8 for AES-256)
 * and @assist, AESKEYGENASSIST's output with the wanted word broadcast.
 */
static __always_inline KX_SSE __m128i kx_next(__m128i prev, __m128i assist)
{
	return _mm_xor_si128(kx_prefix_xor(prev), assist);
}

/* The rcon immediate must be a constant: one macro step per round key. */
#define KX128(rk, i, rcon)						\
	do {								\
		__m128i a_ = _mm_aeskeygenassist_si128(rk[(i) - 1], (rcon)); \
		rk[i] = kx_next(rk[(i) - 1], _mm_shuffle_epi32(a_, 0xff)); \
	} while (0)

static __always_inline KX_SSE void kx_expand128(__m128i rk[11], const u8 *key)
{
	rk[0] = _mm_loadu_si128((const __m128i *)key);
	KX128(rk, 1, 0x01);
	KX128(rk, 2, 0x02);
	KX128(rk, 3, 0x04);
	KX128(rk, 4, 0x08);
	KX128(rk, 5, 0x10);
	KX128(rk, 6, 0x20);
	KX128(rk, 7, 0x40);
	KX128(rk, 8, 0x80);
	KX128(rk, 9, 0x1b);
	KX128(rk, 10, 0x36);
}

/*
 * AES-256, FIPS-197 5.2 with Nk = 8: round key i (even) from round key
 * i - 2 and SubWord(RotWord()) ^ rcon of round key i - 1's last word;
 * round key i + 1 from round key i - 1 and SubWord() of round key i's
 * last word.
 */
#define KX256(rk, i, rcon)						\
	do {								\
		__m128i a_ = _mm_aeskeygenassist_si128(rk[(i) - 1], (rcon)); \
		rk[i] = kx_next(rk[(i) - 2], _mm_shuffle_epi32(a_, 0xff)); \
		if ((i) + 1 < 15) {					\
			a_ = _mm_aeskeygenassist_si128(rk[i], 0);	\
			rk[(i) + 1] = kx_next(rk[(i) - 1],		\
					      _mm_shuffle_epi32(a_, 0xaa)); \
		}							\
	} while (0)

static __always_inline KX_SSE void kx_expand256(__m128i rk[15], const u8 *key)
{
	rk[0] = _mm_loadu_si128((const __m128i *)key);
	rk[1] = _mm_loadu_si128((const __m128i *)(key + 16));
	KX256(rk, 2, 0x01);
	KX256(rk, 4, 0x02);
	KX256(rk, 6, 0x04);
	KX256(rk, 8, 0x08);
	KX256(rk, 10, 0x10);
	KX256(rk, 12, 0x20);
	KX256(rk, 14, 0x40);
}

/* AES_K(@in) with the @rounds + 1 round keys in @rk. */
static __always_inline KX_SSE __m128i kx_encrypt(const __m128i *rk,
						 u32 rounds, __m128i x)
{
	u32 i;

	x = _mm_xor_si128(x, rk[0]);
	for (i = 1; i < rounds; i++)
		x = _mm_aesenc_si128(x, rk[i]);
	return _mm_aesenclast_si128(x, rk[rounds]);
}

static __always_inline KX_SSE u32 kx_setkey(u8 out[15 * 16], const u8 *key,
					    size_t key_len, u8 *h)
{
	__m128i rk[15];
	u32 rounds, i;

	if (key_len == 32) {
		kx_expand256(rk, key);
		rounds = 14;
	} else {
		kx_expand128(rk, key);
		rounds = 10;
	}
	for (i = 0; i <= rounds; i++)
		_mm_storeu_si128((__m128i *)(out + 16 * i), rk[i]);
	if (h)
		_mm_storeu_si128((__m128i *)h,
				 kx_encrypt(rk, rounds, _mm_setzero_si128()));
	/* The compiler may have spilled the round keys here. */
	memzero_explicit(rk, sizeof(rk));
	return rounds;
}

KX_SSE u32 tlsx_aes_setkey_aesni(u8 rk[15 * 16], const u8 *key,
				 size_t key_len, u8 *h)
{
	return kx_setkey(rk, key, key_len, h);
}

KX_AVX u32 tlsx_aes_setkey_aesni_avx(u8 rk[15 * 16], const u8 *key,
				     size_t key_len, u8 *h)
{
	return kx_setkey(rk, key, key_len, h);
}
