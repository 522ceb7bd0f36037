// SPDX-License-Identifier: GPL-2.0
/*
 * A ChaCha20-Poly1305 record of at most one block of text (RFC 8439
 * section 2.8) in one call, with AVX-512 VL/BW: the AVX-512 engine's
 * one-shot path for the smallest records (chachapoly.c).
 *
 * Such a record needs keystream blocks 0 (the Poly1305 key) and 1, then
 * a MAC over a handful of 16-byte blocks: the AD, up to four of text, the
 * lengths.  The streaming path pays for its generality there: a state of
 * some 900 bytes set up and wiped, Poly1305 fed in five calls through its
 * partial-block buffer, the key and tag through memory.  Here:
 *
 *  - blocks 0 and 1 run in row form, one block per 128-bit half of four
 *    YMM registers (a row each, section 2.3's diagonal round after
 *    rotating rows 1-3 by lanes): one chain of twenty rounds;
 *  - the Poly1305 key goes from the vector registers to general-purpose
 *    ones, and the MAC (the scalar engine's step, poly1305_impl.h) takes
 *    its blocks from registers too: block 1 XOR the text, zeroed beyond
 *    the text by a byte mask, is the padded ciphertext, one 16-byte MAC
 *    block per row (section 2.8's pad16 for free); the lengths block is
 *    two integers.  Only the AD is read from memory.
 *
 * Why not the scalar block 0 of the longer passes alongside block 1, so
 * that the key and the MAC of the AD come out early: measured on Zen 5,
 * a scalar block costs some 960 instructions, and interleaved with block
 * 1's vector rounds it slowed them by more than the MAC gained (300 TSC
 * cycles for the keystream alone against 235 in row form).  Nor powers of
 * r and several blocks per reduction: computed from r, which only comes
 * at the end of the rounds, they cost more than the six sequential steps
 * of a 64-byte record.
 *
 * Constant time: keystream, key and MAC go through vector and integer
 * arithmetic only; branches and masks depend on the lengths only.  The
 * secrets live in registers (the key words are reread from @key for the
 * final addition, as the other passes do); what the compiler spills is
 * in this function's frame, as in every engine.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>
#include "aead/platform.h"
#include "aead/chacha_engines.h"
#include "aead/poly1305_impl.h"

#define TINY_TARGET __attribute__((target("avx512f,avx512vl,avx512bw")))

/* One quarter-round on the four rows of two blocks (section 2.1). */
#define ROW_QR(a, b, c, d) do {						\
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a);	\
	d = _mm256_rol_epi32(d, 16);					\
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);	\
	b = _mm256_rol_epi32(b, 12);					\
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a);	\
	d = _mm256_rol_epi32(d, 8);					\
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);	\
	b = _mm256_rol_epi32(b, 7);					\
} while (0)

/* Bytes @len of a run cut to the 16 bytes from 16 * @j, as a mask. */
static __always_inline __mmask16 tiny_mask(size_t len, int j)
{
	if (len >= 16 * (size_t)(j + 1))
		return 0xffff;
	if (len <= 16 * (size_t)j)
		return 0;
	return (__mmask16)((1U << (len - 16 * j)) - 1);
}

/* h = (h + block lo || hi, with the 2^128 bit) * r (section 2.5.1). */
static __always_inline void tiny_mac(u64 h[3], u64 lo, u64 hi, u64 r0,
				     u64 r1, u64 s1)
{
	unsigned __int128 d0, d1;

	d0 = (unsigned __int128)h[0] + lo;
	d1 = (unsigned __int128)h[1] + hi + (u64)(d0 >> 64);
	h[0] = (u64)d0;
	h[1] = (u64)d1;
	h[2] += (u64)(d1 >> 64) + 1;
	poly1305_mul_r(&h[0], &h[1], &h[2], r0, r1, s1);
}

/* The MAC of one 16-byte vector of padded data. */
#define TINY_MAC_VEC(v) tiny_mac(h, (u64)_mm_cvtsi128_si64(v),		\
				 (u64)_mm_extract_epi64(v, 1), r0, r1, s1)

/* Of row @j of the text (t blocks of it, the last one padded). */
#define TINY_MAC_ROW(v, j) do {						\
	if ((j) < t)							\
		TINY_MAC_VEC(v);					\
} while (0)

TINY_TARGET void tlsx_chachapoly_tiny_avx512(const u32 key[8],
					     const u8 nonce[12], bool enc,
					     const u8 *ad, size_t ad_len,
					     const u8 *src, u8 *dst,
					     size_t len, u8 tag[16])
{
	const __m256i c = _mm256_broadcastsi128_si256(
		_mm_set_epi32(TLSX_CHACHA_C3, TLSX_CHACHA_C2,
			      TLSX_CHACHA_C1, TLSX_CHACHA_C0));
	const u32 n0 = get_unaligned_le32(nonce);
	const u32 n1 = get_unaligned_le32(nonce + 4);
	const u32 n2 = get_unaligned_le32(nonce + 8);
	const __m256i n = _mm256_set_epi32((int)n2, (int)n1, (int)n0, 1,
					   (int)n2, (int)n1, (int)n0, 0);
	const __mmask16 m0 = tiny_mask(len, 0), m1 = tiny_mask(len, 1);
	const __mmask16 m2 = tiny_mask(len, 2), m3 = tiny_mask(len, 3);
	const int t = (int)((len + 15) / 16);	/* MAC blocks of text, 0-4 */
	const u32 *kr = key;
	__m256i a = c, b, cc, d = n;
	__m128i t0, t1, t2, t3, v;
	u64 h[3] = { 0, 0, 0 }, r0, r1, s1, k0, k1;
	unsigned __int128 sum;
	size_t i;

	b = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)key));
	cc = _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)(key + 4)));
	for (i = 0; i < 10; i++) {
		ROW_QR(a, b, cc, d);
		a = _mm256_shuffle_epi32(a, 0x93);
		cc = _mm256_shuffle_epi32(cc, 0x39);
		d = _mm256_shuffle_epi32(d, 0x4e);
		ROW_QR(a, b, cc, d);
		a = _mm256_shuffle_epi32(a, 0x39);
		cc = _mm256_shuffle_epi32(cc, 0x93);
		d = _mm256_shuffle_epi32(d, 0x4e);
	}
	/* The input again, from memory (no copy of the key kept). */
	__asm__("" : "+r"(kr));
	a = _mm256_add_epi32(a, c);
	b = _mm256_add_epi32(b, _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)kr)));
	cc = _mm256_add_epi32(cc, _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)(kr + 4))));
	d = _mm256_add_epi32(d, n);

	/* Block 0's first 32 bytes: r (clamped) and s (section 2.6). */
	v = _mm256_castsi256_si128(a);
	r0 = (u64)_mm_cvtsi128_si64(v) & 0x0ffffffc0fffffffULL;
	r1 = (u64)_mm_extract_epi64(v, 1) & 0x0ffffffc0ffffffcULL;
	s1 = r1 + (r1 >> 2);
	v = _mm256_castsi256_si128(b);
	k0 = (u64)_mm_cvtsi128_si64(v);
	k1 = (u64)_mm_extract_epi64(v, 1);

	/* The AD, its last block zero-padded (public data). */
	for (i = 0; i < ad_len; i += 16) {
		v = _mm_maskz_loadu_epi8(tiny_mask(ad_len - i, 0), ad + i);
		TINY_MAC_VEC(v);
	}

	/* Block 1 XOR the text, zero beyond it: the padded ciphertext. */
	if (len) {
		t0 = _mm_maskz_loadu_epi8(m0, src);
		t1 = _mm_maskz_loadu_epi8(m1, src + 16);
		t2 = _mm_maskz_loadu_epi8(m2, src + 32);
		t3 = _mm_maskz_loadu_epi8(m3, src + 48);
		if (!enc) {
			TINY_MAC_ROW(t0, 0);
			TINY_MAC_ROW(t1, 1);
			TINY_MAC_ROW(t2, 2);
			TINY_MAC_ROW(t3, 3);
		}
		t0 = _mm_xor_si128(t0, _mm256_extracti128_si256(a, 1));
		t1 = _mm_xor_si128(t1, _mm256_extracti128_si256(b, 1));
		t2 = _mm_xor_si128(t2, _mm256_extracti128_si256(cc, 1));
		t3 = _mm_xor_si128(t3, _mm256_extracti128_si256(d, 1));
		t0 = _mm_maskz_mov_epi8(m0, t0);
		t1 = _mm_maskz_mov_epi8(m1, t1);
		t2 = _mm_maskz_mov_epi8(m2, t2);
		t3 = _mm_maskz_mov_epi8(m3, t3);
		_mm_mask_storeu_epi8(dst, m0, t0);
		_mm_mask_storeu_epi8(dst + 16, m1, t1);
		_mm_mask_storeu_epi8(dst + 32, m2, t2);
		_mm_mask_storeu_epi8(dst + 48, m3, t3);
		if (enc) {
			TINY_MAC_ROW(t0, 0);
			TINY_MAC_ROW(t1, 1);
			TINY_MAC_ROW(t2, 2);
			TINY_MAC_ROW(t3, 3);
		}
	}
	tiny_mac(h, ad_len, len, r0, r1, s1);	/* the lengths block */

	/* tag = (h mod 2^130 - 5) + s mod 2^128 */
	poly1305_reduce(h);
	sum = (unsigned __int128)h[0] + k0;
	put_unaligned_le64((u64)sum, tag);
	put_unaligned_le64(h[1] + k1 + (u64)(sum >> 64), tag + 8);
}

/*
 * A record of 65 to TLSX_CHACHAPOLY_SHORT_MAX bytes in one call: the
 * first pass of the AVX-512 engine (block 0 in scalar registers beside
 * the eight- or sixteen-block vector pass), then the MAC of the whole
 * message without a streaming state: the AD and the lengths by the
 * scalar step, the text's groups of eight whole blocks by one IFMA run
 * (poly1305_avx512.c; its powers of r in this frame, wiped), what is
 * left by the scalar step, the last partial block read under a mask.  An
 * in-place decryption MACs a copy of the ciphertext (public) taken before
 * the pass overwrites it.
 */
TINY_TARGET void tlsx_chachapoly_short_avx512(const u32 key[8],
					      const u8 nonce[12], bool enc,
					      const u8 *ad, size_t ad_len,
					      const u8 *src, u8 *dst,
					      size_t len, u8 tag[16])
{
	u8 copy[TLSX_CHACHAPOLY_SHORT_MAX];
	u8 scratch[POLY1305_IFMA_SCRATCH];
	const struct tlsx_cpu *cpu = tlsx_cpu_features();
	const u8 *ct = enc ? dst : src;
	u64 h[3] = { 0, 0, 0 }, r[2], r0, r1, s1;
	size_t i, whole = len / 16, groups = 0;
	unsigned __int128 sum;
	__m128i v;
	u8 otk[32];
	u32 nw[3];

	if (!enc && src == dst) {
		memcpy(copy, src, len);
		ct = copy;
	}
	nw[0] = get_unaligned_le32(nonce);
	nw[1] = get_unaligned_le32(nonce + 4);
	nw[2] = get_unaligned_le32(nonce + 8);
	tlsx_chacha20_xor0_avx512(key, nw, otk, src, dst, len);
	r0 = get_unaligned_le64(otk) & 0x0ffffffc0fffffffULL;
	r1 = get_unaligned_le64(otk + 8) & 0x0ffffffc0ffffffcULL;
	s1 = r1 + (r1 >> 2);

	for (i = 0; i < ad_len; i += 16) {
		v = _mm_maskz_loadu_epi8(tiny_mask(ad_len - i, 0), ad + i);
		TINY_MAC_VEC(v);
	}
	if (cpu->avx512ifma && cpu->zmm_ok)
		groups = whole / 8;
	if (groups) {
		r[0] = r0;
		r[1] = r1;
		tlsx_poly1305_ifma_run(h, r, ct, groups, scratch);
		memzero_explicit(scratch, sizeof(scratch));
		memzero_explicit(r, sizeof(r));
	}
	for (i = 8 * groups; i < whole; i++)
		tiny_mac(h, get_unaligned_le64(ct + 16 * i),
			 get_unaligned_le64(ct + 16 * i + 8), r0, r1, s1);
	if (len & 15) {
		v = _mm_maskz_loadu_epi8(tiny_mask(len & 15, 0), ct + 16 * whole);
		TINY_MAC_VEC(v);
	}
	tiny_mac(h, ad_len, len, r0, r1, s1);	/* the lengths block */

	poly1305_reduce(h);
	sum = (unsigned __int128)h[0] + get_unaligned_le64(otk + 16);
	put_unaligned_le64((u64)sum, tag);
	put_unaligned_le64(h[1] + get_unaligned_le64(otk + 24) +
			   (u64)(sum >> 64), tag + 8);
	memzero_explicit(otk, sizeof(otk));
}
