// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20-Poly1305 records (RFC 8439 section 2.8) of up to
 * TLSX_CHACHAPOLY_SHORT_MAX bytes in one call, with AVX-512 VL/BW (and
 * IFMA where the CPU has it): the AVX-512 engine's one-shot path
 * (chachapoly.c).
 *
 * The streaming path pays for its generality on small records: a state
 * of some 900 bytes set up and wiped, Poly1305 fed in five calls through
 * its partial-block buffer, the key and the tag through memory, and a
 * first pass that computes block 0 in scalar registers beside the vector
 * blocks.  Here:
 *
 *  - the keystream runs in row form, one block per 128-bit lane of four
 *    registers (a row each; section 2.3's diagonal round after rotating
 *    rows a, c and d by lanes, never b, whose last rotation ends each
 *    round's chain): blocks 0 and 1 in YMM for at most one block of
 *    text, blocks 0-3 and 4-7 as two independent chains in ZMM up to
 *    seven.  Each block's twenty rounds are one chain of dependent
 *    operations (two cycles each on Zen 5), so two chains cost about one;
 *    block 0 comes out of the vector registers with the rest.  Measured
 *    on Zen 5: about 240 TSC cycles for a 256-byte record's keystream,
 *    against 315 for the vertical eight-block pass with block 0 in scalar
 *    registers (longer records, up to 512 bytes, still take that pass);
 *  - the MAC works on the whole message in registers: the scalar step
 *    (poly1305_impl.h) on the AD, the lengths block (two integers) and
 *    what is left, one IFMA run (tlsx_poly1305_ifma_run()) on the text's
 *    groups of eight whole blocks.  With at most one block of text, the
 *    ciphertext is block 1 XOR the text, zeroed beyond the text by a byte
 *    mask: one 16-byte MAC block per row, pad16 included.
 *
 * Tried and dropped for the smallest record: block 0 in scalar registers
 * beside block 1's vector rounds, to key Poly1305 early and hash the AD
 * while block 1 finishes.  A scalar block is some 960 instructions, and
 * interleaved with the vector rounds it slowed them more than the MAC
 * gained (300 TSC cycles for the keystream alone against 235).
 *
 * Constant time: keystream, key and MAC go through vector and integer
 * arithmetic only; branches and masks depend on the lengths only.  The
 * key words are reread from @key for the final addition (no copy kept);
 * the powers of r of an IFMA run are wiped from the stack.
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

/*
 * At most one block of text: blocks 0 and 1 in YMM rows, the MAC blocks
 * from the registers, six scalar steps for a 64-byte TLS record (AD,
 * four of text, lengths).
 */
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

/* The same on the rows of four blocks, one per 128-bit lane. */
#define ROWZ_QR(a, b, c, d) do {					\
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);	\
	d = _mm512_rol_epi32(d, 16);					\
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);	\
	b = _mm512_rol_epi32(b, 12);					\
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);	\
	d = _mm512_rol_epi32(d, 8);					\
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);	\
	b = _mm512_rol_epi32(b, 7);					\
} while (0)

/*
 * A double round; the diagonal round lines the rows up by rotating a, c
 * and d, never b, whose last rotation ends the chain of a round.
 */
#define ROWZ_DR(a, b, c, d) do {					\
	ROWZ_QR(a, b, c, d);						\
	a = _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x93);		\
	c = _mm512_shuffle_epi32(c, (_MM_PERM_ENUM)0x39);		\
	d = _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x4e);		\
	ROWZ_QR(a, b, c, d);						\
	a = _mm512_shuffle_epi32(a, (_MM_PERM_ENUM)0x39);		\
	c = _mm512_shuffle_epi32(c, (_MM_PERM_ENUM)0x93);		\
	d = _mm512_shuffle_epi32(d, (_MM_PERM_ENUM)0x4e);		\
} while (0)

/*
 * Block @k of the keystream, @ks: into the key (@key0: r, @key1: s) for
 * block 0, else XORed into the text at 64 (k - 1), under a byte mask
 * where @len cuts.
 */
TINY_TARGET static __always_inline void rows_block(__m512i ks, int k,
						   const u8 *src, u8 *dst,
						   size_t len, __m128i *key0,
						   __m128i *key1)
{
	size_t off = 64 * (size_t)k - 64;

	if (k == 0) {
		*key0 = _mm512_castsi512_si128(ks);
		*key1 = _mm512_extracti32x4_epi32(ks, 1);
	} else if (off + 64 <= len) {
		_mm512_storeu_si512(dst + off, _mm512_xor_si512(
			_mm512_loadu_si512(src + off), ks));
	} else if (off < len) {
		__mmask64 m = (1ULL << (len - off)) - 1;

		_mm512_mask_storeu_epi8(dst + off, m, _mm512_xor_si512(
			_mm512_maskz_loadu_epi8(m, src + off), ks));
	}
}

/*
 * Rows of blocks @first.. @first + 3 (lane j: block first + j) to whole
 * blocks (a 4x4 transpose of 128-bit lanes), each to rows_block().  Named
 * variables, not an array: keystream stays in registers.
 */
TINY_TARGET static __always_inline void rows_out(__m512i a, __m512i b,
						 __m512i c, __m512i d,
						 int first, const u8 *src,
						 u8 *dst, size_t len,
						 __m128i *key0, __m128i *key1)
{
	__m512i u0 = _mm512_shuffle_i32x4(a, b, 0x44);
	__m512i u1 = _mm512_shuffle_i32x4(a, b, 0xee);
	__m512i u2 = _mm512_shuffle_i32x4(c, d, 0x44);
	__m512i u3 = _mm512_shuffle_i32x4(c, d, 0xee);

	rows_block(_mm512_shuffle_i32x4(u0, u2, 0x88), first, src, dst, len,
		   key0, key1);
	rows_block(_mm512_shuffle_i32x4(u0, u2, 0xdd), first + 1, src, dst,
		   len, key0, key1);
	rows_block(_mm512_shuffle_i32x4(u1, u3, 0x88), first + 2, src, dst,
		   len, key0, key1);
	rows_block(_mm512_shuffle_i32x4(u1, u3, 0xdd), first + 3, src, dst,
		   len, key0, key1);
}

/*
 * Blocks 0-3, and 4-7 when @two, in row form (two independent chains of
 * twenty rounds, as long as one): the first pass of a record of up to
 * 192 or 448 bytes, shorter than the vertical eight-block pass with block
 * 0 in scalar registers (measured on Zen 5: about 240 TSC cycles against
 * 315).  r and s of block 0 to @key0 and @key1.
 */
TINY_TARGET static __always_inline void rows_first(const u32 key[8],
						   const u8 nonce[12],
						   const u8 *src, u8 *dst,
						   size_t len, bool two,
						   __m128i *key0,
						   __m128i *key1)
{
	const __m512i c = _mm512_broadcast_i32x4(
		_mm_set_epi32(TLSX_CHACHA_C3, TLSX_CHACHA_C2,
			      TLSX_CHACHA_C1, TLSX_CHACHA_C0));
	const __m512i n = _mm512_broadcast_i32x4(
		_mm_set_epi32((int)get_unaligned_le32(nonce + 8),
			      (int)get_unaligned_le32(nonce + 4),
			      (int)get_unaligned_le32(nonce), 0));
	const __m512i na = _mm512_add_epi32(n, _mm512_set_epi32(0, 0, 0, 3,
		0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0));
	const __m512i nb = _mm512_add_epi32(n, _mm512_set_epi32(0, 0, 0, 7,
		0, 0, 0, 6, 0, 0, 0, 5, 0, 0, 0, 4));
	const u32 *kr = key;
	__m512i a0 = c, b0, c0, d0 = na, a1 = c, b1, c1, d1 = nb, k0, k1;
	int i;

	b0 = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)key));
	c0 = _mm512_broadcast_i32x4(
		_mm_loadu_si128((const __m128i *)(key + 4)));
	b1 = b0;
	c1 = c0;
	for (i = 0; i < 10; i++) {
		ROWZ_DR(a0, b0, c0, d0);
		if (two)
			ROWZ_DR(a1, b1, c1, d1);
	}
	/* The input again, from memory (no copy of the key kept). */
	__asm__("" : "+r"(kr));
	k0 = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)kr));
	k1 = _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(kr + 4)));
	rows_out(_mm512_add_epi32(a0, c), _mm512_add_epi32(b0, k0),
		 _mm512_add_epi32(c0, k1), _mm512_add_epi32(d0, na), 0,
		 src, dst, len, key0, key1);
	if (two)
		rows_out(_mm512_add_epi32(a1, c), _mm512_add_epi32(b1, k0),
			 _mm512_add_epi32(c1, k1), _mm512_add_epi32(d1, nb),
			 4, src, dst, len, key0, key1);
}

/*
 * A record of 65 to TLSX_CHACHAPOLY_SHORT_MAX bytes in one call: the
 * keystream by rows_first() up to seven blocks of text, beyond that by
 * the engine's first pass; then the MAC of the whole message without a
 * streaming state: the AD and the lengths by the scalar step, the text's
 * groups of eight whole blocks by one IFMA run (its powers of r in this
 * frame, wiped), what is left by the scalar step, the last partial block
 * read under a mask.  An in-place decryption MACs a copy of the
 * ciphertext (public) taken before the pass overwrites it.
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
	__m128i v, key0, key1;
	u8 otk[32];
	u32 nw[3];

	if (!enc && src == dst) {
		memcpy(copy, src, len);
		ct = copy;
	}
	if (len <= 3 * TLSX_CHACHA_BLOCK) {
		rows_first(key, nonce, src, dst, len, false, &key0, &key1);
	} else if (len <= 7 * TLSX_CHACHA_BLOCK) {
		rows_first(key, nonce, src, dst, len, true, &key0, &key1);
	} else {
		nw[0] = get_unaligned_le32(nonce);
		nw[1] = get_unaligned_le32(nonce + 4);
		nw[2] = get_unaligned_le32(nonce + 8);
		tlsx_chacha20_xor0_avx512(key, nw, otk, src, dst, len);
		key0 = _mm_loadu_si128((const __m128i *)otk);
		key1 = _mm_loadu_si128((const __m128i *)(otk + 16));
		memzero_explicit(otk, sizeof(otk));
	}
	r0 = (u64)_mm_cvtsi128_si64(key0) & 0x0ffffffc0fffffffULL;
	r1 = (u64)_mm_extract_epi64(key0, 1) & 0x0ffffffc0ffffffcULL;
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
	sum = (unsigned __int128)h[0] + (u64)_mm_cvtsi128_si64(key1);
	put_unaligned_le64((u64)sum, tag);
	put_unaligned_le64(h[1] + (u64)_mm_extract_epi64(key1, 1) +
			   (u64)(sum >> 64), tag + 8);
	/* r and s went through memory (their addresses were taken). */
	memzero_explicit(&key0, sizeof(key0));
	memzero_explicit(&key1, sizeof(key1));
}
