/* SPDX-License-Identifier: GPL-2.0 */
/*
 * poly1305.h - the Poly1305 one-time authenticator (RFC 8439 section 2.5)
 * as used by ChaCha20-Poly1305.
 *
 * OWNER: the Poly1305 engineer (poly1305_generic.c, poly1305_avx2.c,
 * poly1305_avx512.c).  This first version was written by the ChaCha20
 * side only so that chachapoly.h, which embeds the state, compiles; the
 * layout of struct tlsx_poly1305_state is a placeholder for its owner to
 * replace.  The API below is the agreed one.
 *
 * The state is of fixed size, needs no allocation and is wiped by
 * tlsx_poly1305_final().
 */
#ifndef TLSX_CRYPTO_POLY1305_H
#define TLSX_CRYPTO_POLY1305_H

#include "platform.h"

/*
 * aead.h includes chachapoly.h, which embeds this state, before it defines
 * enum tlsx_aead_impl, so the enum is only declared here (a GNU C
 * extension the kernel also relies on).
 */
enum tlsx_aead_impl;

#define TLSX_POLY1305_BLOCK	16

struct tlsx_poly1305_state {
	u64 h[3];		/* accumulator */
	u64 r[2];		/* clamped r */
	u64 s[2];		/* s, added at the end */
	u8 buf[TLSX_POLY1305_BLOCK];	/* partial block */
	u32 buf_len;
	u32 impl;		/* enum tlsx_aead_impl */
	u8 simd[512] __aligned(64);	/* powers of r for vector engines */
};

/*
 * tlsx_poly1305_init() - start a MAC with the 32-byte one-time key @key
 * (r || s), for @impl.  Plain C: may be called inside or outside a SIMD
 * section.
 */
void tlsx_poly1305_init(struct tlsx_poly1305_state *st, const u8 key[32],
			enum tlsx_aead_impl impl);

/*
 * tlsx_poly1305_update() - absorb @len bytes (any length; partial blocks
 * are buffered).  When the state's impl is not GENERIC, this must be
 * called inside a SIMD section.
 */
void tlsx_poly1305_update(struct tlsx_poly1305_state *st, const u8 *data,
			  size_t len);

/* tlsx_poly1305_final() - write the 16-byte tag and wipe @st. */
void tlsx_poly1305_final(struct tlsx_poly1305_state *st, u8 tag[16]);

#endif /* TLSX_CRYPTO_POLY1305_H */
