/* SPDX-License-Identifier: GPL-2.0 */
/*
 * poly1305.h - the Poly1305 one-time authenticator (RFC 8439 section 2.5)
 * as used by ChaCha20-Poly1305.
 *
 * The state is of fixed size, needs no allocation and is wiped by
 * tlsx_poly1305_final().  The vector engines (poly1305_avx2.c,
 * poly1305_avx512.c) compute the powers of r they need into @simd the
 * first time a message is long enough for them, so short records pay
 * nothing for them, and keep their lanes of the accumulator there between
 * calls, so a message fed in many pieces pays for combining the lanes
 * once (see poly1305_impl.h).
 */
#ifndef TLSX_CRYPTO_POLY1305_H
#define TLSX_CRYPTO_POLY1305_H

#include "aead/platform.h"

/*
 * aead.h includes chachapoly.h, which embeds this state, before it defines
 * enum tlsx_aead_impl, so the enum is only declared here (a GNU C
 * extension the kernel also relies on).
 */
enum tlsx_aead_impl;

#define TLSX_POLY1305_BLOCK	16
#define TLSX_POLY1305_KEY_LEN	32
#define TLSX_POLY1305_TAG_LEN	16
/*
 * The bytes tlsx_poly1305_update() keeps for the next call: less than a
 * block, or while a vector engine's lanes hold the accumulator, less than
 * a group of that engine's width (8 blocks for IFMA), so that a message
 * fed in pieces that are not multiples of the group is not folded back
 * to scalar form at every piece (poly1305_generic.c).
 */
#define TLSX_POLY1305_BUF_BYTES		128
/* Room for a vector engine's powers of r and lanes (poly1305_impl.h). */
#define TLSX_POLY1305_SIMD_BYTES	736

struct tlsx_poly1305_state {
	u64 h[3];		/* accumulator, radix 2^64, h < 2^131 */
	u64 r[2];		/* clamped r */
	u64 s[2];		/* s, added at the end */
	u8 buf[TLSX_POLY1305_BUF_BYTES];	/* bytes not yet absorbed */
	u32 buf_len;		/* bytes in @buf */
	u32 engine;		/* POLY1305_ENGINE_* (poly1305_impl.h) */
	u32 simd_ready;		/* @simd holds the engine's powers of r */
	u32 simd_lanes;		/* @simd holds the accumulator, not @h */
	u8 simd[TLSX_POLY1305_SIMD_BYTES] __aligned(16);
};

/*
 * tlsx_poly1305_init() - start a MAC with the 32-byte one-time key @key
 * (r || s), for @impl: GENERIC and SSE use the scalar code, AVX2 adds the
 * 4-way AVX2 engine for long inputs, AVX512 the AVX-512 IFMA engine where
 * the CPU has it (else AVX2).  Plain C: may be called inside or outside a
 * SIMD section.
 */
void tlsx_poly1305_init(struct tlsx_poly1305_state *st, const u8 key[32],
			enum tlsx_aead_impl impl);

/*
 * tlsx_poly1305_update() - absorb @len bytes (any length; partial blocks
 * are buffered).  When @impl was AVX2 or AVX512, this must be called
 * inside a SIMD section.
 */
void tlsx_poly1305_update(struct tlsx_poly1305_state *st, const u8 *data,
			  size_t len);

/*
 * tlsx_poly1305_final() - write the 16-byte tag and wipe @st.  When @impl
 * was AVX2 or AVX512, this too must be called inside a SIMD section.
 */
void tlsx_poly1305_final(struct tlsx_poly1305_state *st, u8 tag[16]);

#endif /* TLSX_CRYPTO_POLY1305_H */
