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
 * The build defines TLSX_HAVE_CHACHA_NAME (upper case) for every SIMD file
 * of aead.mk that exists; chachapoly.c refers to an engine only under that
 * macro.  The engines keep no state: the counter lives in struct
 * tlsx_chachapoly_state, so the dispatcher may switch engines between two
 * update calls.
 */
#ifndef TLSX_CRYPTO_CHACHA_ENGINES_H
#define TLSX_CRYPTO_CHACHA_ENGINES_H

#include "platform.h"

/* "expand 32-byte k", the first row of every ChaCha20 state. */
#define TLSX_CHACHA_C0	0x61707865
#define TLSX_CHACHA_C1	0x3320646e
#define TLSX_CHACHA_C2	0x79622d32
#define TLSX_CHACHA_C3	0x6b206574

/* Portable C (chacha_generic.c); also used outside SIMD sections. */
void tlsx_chacha20_block_generic(const u32 key[8], const u32 nonce[3],
				 u32 counter, u8 out[64]);
void tlsx_chacha20_xor_generic(const u32 key[8], const u32 nonce[3],
			       u32 counter, const u8 *src, u8 *dst,
			       size_t len);

/* Four blocks at a time in 128-bit vectors (chacha_ssse3.c). */
void tlsx_chacha20_xor_ssse3(const u32 key[8], const u32 nonce[3],
			     u32 counter, const u8 *src, u8 *dst,
			     size_t len);

/* Eight blocks at a time in 256-bit vectors (chacha_avx2.c). */
void tlsx_chacha20_xor_avx2(const u32 key[8], const u32 nonce[3],
			    u32 counter, const u8 *src, u8 *dst, size_t len);

/* Sixteen blocks at a time in 512-bit vectors (chacha_avx512.c). */
void tlsx_chacha20_xor_avx512(const u32 key[8], const u32 nonce[3],
			      u32 counter, const u8 *src, u8 *dst,
			      size_t len);

#endif /* TLSX_CRYPTO_CHACHA_ENGINES_H */
