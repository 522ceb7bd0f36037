/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between chachapoly.c (key setup, the AEAD
 * construction and the choice of engine) and the ChaCha20 engines
 * chacha_generic.c, chacha_ssse3.c, chacha_avx2.c and chacha_avx512.c.
 *
 * Every engine provides the same primitive, for its stem NAME (generic,
 * ssse3, avx2, avx512):
 *
 *   void tlsx_chacha20_xor_NAME(const u32 key[8], const u32 nonce[3],
 *				 u32 counter, const u8 *src, u8 *dst,
 *				 size_t len);
 *	XOR @len bytes (any length) of the ChaCha20 keystream of @key and
 *	@nonce, starting at block @counter, from @src into @dst.  @src may
 *	equal @dst.  The counter is 32 bits and wraps as RFC 8439's does
 *	not say otherwise (a record is far shorter than 2^32 blocks).  The
 *	SIMD versions run only inside a SIMD section.
 *
 *   void tlsx_chacha20_xor0_NAME(const u32 key[8], const u32 nonce[3],
 *				  u8 otk[32], const u8 *src, u8 *dst,
 *				  size_t len);
 *	The first pass of an AEAD operation: write the first 32 bytes of
 *	block 0 (the Poly1305 key) to @otk and XOR @len bytes, at most
 *	TLSX_CHACHA_FIRST_NAME, of the keystream from block 1 on, from @src
 *	into @dst.  The SIMD engines compute block 0 in general-purpose
 *	registers during the same pass as the vector blocks, where it costs
 *	little (see chacha_x8_template.h).
 *
 * The engines keep no state: the counter lives in struct
 * tlsx_chachapoly_state, so the dispatcher may switch engines between two
 * update calls.
 */
#ifndef TLSX_CRYPTO_CHACHA_ENGINES_H
#define TLSX_CRYPTO_CHACHA_ENGINES_H

#include "aead/platform.h"
#include "aead/chachapoly.h"

/* "expand 32-byte k", the first row of every ChaCha20 state. */
#define TLSX_CHACHA_C0	0x61707865
#define TLSX_CHACHA_C1	0x3320646e
#define TLSX_CHACHA_C2	0x79622d32
#define TLSX_CHACHA_C3	0x6b206574

/*
 * The quarter-round on 32-bit scalars, for the portable engine and for the
 * block the SIMD engines compute in general-purpose registers alongside
 * their vectors.
 */
#define TLSX_CHACHA_ROL32(v, n)	(((v) << (n)) | ((v) >> (32 - (n))))
#define TLSX_CHACHA_QR(a, b, c, d) do {					\
	a += b; d ^= a; d = TLSX_CHACHA_ROL32(d, 16);			\
	c += d; b ^= c; b = TLSX_CHACHA_ROL32(b, 12);			\
	a += b; d ^= a; d = TLSX_CHACHA_ROL32(d, 8);			\
	c += d; b ^= c; b = TLSX_CHACHA_ROL32(b, 7);			\
} while (0)

/* Portable C (chacha_generic.c); also used outside SIMD sections. */
#define TLSX_CHACHA_FIRST_GENERIC	1024
void tlsx_chacha20_block_generic(const u32 key[8], const u32 nonce[3],
				 u32 counter, u8 out[64]);
void tlsx_chacha20_xor_generic(const u32 key[8], const u32 nonce[3],
			       u32 counter, const u8 *src, u8 *dst,
			       size_t len);
void tlsx_chacha20_xor0_generic(const u32 key[8], const u32 nonce[3],
				u8 otk[32], const u8 *src, u8 *dst,
				size_t len);

/* Four blocks at a time in 128-bit vectors (chacha_ssse3.c). */
#define TLSX_CHACHA_FIRST_SSSE3	192
void tlsx_chacha20_xor_ssse3(const u32 key[8], const u32 nonce[3],
			     u32 counter, const u8 *src, u8 *dst,
			     size_t len);
void tlsx_chacha20_xor0_ssse3(const u32 key[8], const u32 nonce[3],
			      u8 otk[32], const u8 *src, u8 *dst,
			      size_t len);
/* The same, VEX-encoded (needs AVX): immune to dirty upper halves. */
void tlsx_chacha20_xor_ssse3_vex(const u32 key[8], const u32 nonce[3],
				 u32 counter, const u8 *src, u8 *dst,
				 size_t len);
void tlsx_chacha20_xor0_ssse3_vex(const u32 key[8], const u32 nonce[3],
				  u8 otk[32], const u8 *src, u8 *dst,
				  size_t len);

/* Eight blocks at a time in 256-bit vectors (chacha_avx2.c). */
#define TLSX_CHACHA_FIRST_AVX2	1024
void tlsx_chacha20_xor_avx2(const u32 key[8], const u32 nonce[3],
			    u32 counter, const u8 *src, u8 *dst, size_t len);
void tlsx_chacha20_xor0_avx2(const u32 key[8], const u32 nonce[3],
			     u8 otk[32], const u8 *src, u8 *dst, size_t len);
struct tlsx_sg_pos;
/* tlsx_chacha20_xor_avx2() over segment lists, as the AVX-512 one below. */
void tlsx_chacha20_xor_sg_avx2(const u32 key[8], const u32 nonce[3],
			       u32 counter, struct tlsx_sg_pos *src,
			       struct tlsx_sg_pos *dst, size_t len);

/* Sixteen blocks at a time in 512-bit vectors (chacha_avx512.c). */
#define TLSX_CHACHA_FIRST_AVX512	1024
void tlsx_chacha20_xor_avx512(const u32 key[8], const u32 nonce[3],
			      u32 counter, const u8 *src, u8 *dst,
			      size_t len);
void tlsx_chacha20_xor0_avx512(const u32 key[8], const u32 nonce[3],
			       u8 otk[32], const u8 *src, u8 *dst,
			       size_t len);
/*
 * tlsx_chacha20_xor() over segment lists (aead_impl.h), moving @src and
 * @dst on by @len bytes: the engine's update_sg(), under its rule (every
 * segment strictly inside the text holds 64 bytes or none).
 */
void tlsx_chacha20_xor_sg_avx512(const u32 key[8], const u32 nonce[3],
				 u32 counter, struct tlsx_sg_pos *src,
				 struct tlsx_sg_pos *dst, size_t len);

/*
 * A whole AEAD record with its tag, in one call (chachapoly_avx512.c):
 * tiny for at most TLSX_CHACHA_BLOCK bytes of text, short for more, up to
 * TLSX_CHACHAPOLY_SHORT_MAX.  @src may equal @dst.
 */
#define TLSX_CHACHAPOLY_SHORT_MAX	512
void tlsx_chachapoly_tiny_avx512(const u32 key[8], const u8 nonce[12],
				 bool enc, const u8 *ad, size_t ad_len,
				 const u8 *src, u8 *dst, size_t len,
				 u8 tag[16]);
void tlsx_chachapoly_short_avx512(const u32 key[8], const u8 nonce[12],
				  bool enc, const u8 *ad, size_t ad_len,
				  const u8 *src, u8 *dst, size_t len,
				  u8 tag[16]);

#endif /* TLSX_CRYPTO_CHACHA_ENGINES_H */
