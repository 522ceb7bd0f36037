/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key and per-operation state of the ChaCha20-Poly1305 AEAD (RFC 8439
 * section 2.8): 256-bit key, 96-bit nonce, 32-bit block counter.  Users
 * go through aead.h; this header only gives the dispatcher and the
 * engines (chachapoly.c, chacha_*.c) a shared layout.
 *
 * The key is only the eight ChaCha20 key words: every engine (portable or
 * SIMD) works from them, so the dispatcher can fall back to the portable
 * engine on any key.
 */
#ifndef TLSX_CRYPTO_CHACHAPOLY_H
#define TLSX_CRYPTO_CHACHAPOLY_H

#include "aead/platform.h"
#include "aead/poly1305.h"

#define TLSX_CHACHA_KEY_LEN	32
#define TLSX_CHACHA_BLOCK	64
/* Associated data up to this length waits in the state for the MAC key. */
#define TLSX_CHACHAPOLY_AD_INLINE	16

struct tlsx_chachapoly_key {
	u32 k[8];		/* the key as little-endian words */
};

/*
 * The Poly1305 key is block 0 of the keystream, which the engines compute
 * in the same pass as the first text blocks (chachapoly.c); until then
 * @counter is 0 and short associated data waits in @ad.
 */
struct tlsx_chachapoly_state {
	u32 nonce[3];		/* the nonce as little-endian words */
	u32 counter;		/* next block; 0: MAC not started yet */
	u64 ad_len;		/* bytes of associated data */
	u64 text_len;		/* bytes of text so far */
	u8 ad[TLSX_CHACHAPOLY_AD_INLINE];	/* AD waiting for the key */
	struct tlsx_poly1305_state poly;	/* MAC of AD and ciphertext */
};

#endif /* TLSX_CRYPTO_CHACHAPOLY_H */
