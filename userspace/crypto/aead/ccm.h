/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key and per-operation state of AES-CCM (NIST SP 800-38C) as TLS uses it
 * (RFC 6655, RFC 8446 TLS_AES_128_CCM_SHA256): a 12-byte nonce, so the
 * length field of the counter blocks is q = 3 bytes, and a 16-byte tag.
 * Users go through aead.h; this header only gives the dispatcher and the
 * engines (ccm_*.c) a shared layout.
 */
#ifndef TLSX_CRYPTO_CCM_H
#define TLSX_CRYPTO_CCM_H

#include "aead/platform.h"

/* q = 3: a message holds at most 2^24 - 1 bytes. */
#define TLSX_CCM_MAX_LEN	0xffffffu

struct tlsx_ccm_key {
	/* FIPS-197 encryption round keys, in the byte order AES-NI loads. */
	u8 rk[15 * 16] __aligned(16);
	u32 rounds;			/* 10 (AES-128) */
};

/*
 * Shared by all engines, so the dispatcher may change engine between two
 * update calls of one operation.  After each call:
 *
 *  - @mac is the CBC-MAC chaining value (SP 800-38C's Y_i) over B0, the
 *    formatted associated data and every whole block of text so far,
 *    plaintext, in the spec's byte order;
 *  - @ctr is the counter of the next keystream block (1 for the first
 *    block of text);
 *  - update lengths being multiples of TLSX_AEAD_UPDATE_ALIGN except the
 *    last, no partial block is ever carried between calls.
 */
struct tlsx_ccm_state {
	u8 a0[16];			/* counter block 0: flags || N || 0 */
	u8 mac[16] __aligned(16);	/* CBC-MAC chaining value */
	u8 s0[16];			/* E(A0), the mask of the tag */
	u32 ctr;			/* counter of the next block */
};

#endif /* TLSX_CRYPTO_CCM_H */
