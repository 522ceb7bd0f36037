/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Key and per-operation state of AES-GCM (NIST SP 800-38D) with a
 * 96-bit nonce.  Users go through aead.h; this header only gives the
 * dispatcher and the engines (gcm_*.c) a shared layout.
 *
 * The key keeps what the portable engine needs (standard round keys and
 * H) whatever implementation set it, so the dispatcher can always fall
 * back to portable code on the same key.  The SIMD engines add their own
 * precomputation (powers of H and the like) in @simd, whose layout is
 * private to the implementation recorded in tlsx_aead_key.impl.
 */
#ifndef TLSX_CRYPTO_GCM_H
#define TLSX_CRYPTO_GCM_H

#include "aead/platform.h"

#define TLSX_GCM_SIMD_BYTES	1152

struct tlsx_gcm_key {
	/* FIPS-197 encryption round keys, in the byte order AES-NI loads. */
	u8 rk[15 * 16] __aligned(16);
	u32 rounds;			/* 10 or 14 */
	u8 h[16];			/* H = AES_K(0^128), as bytes */
	u8 simd[TLSX_GCM_SIMD_BYTES] __aligned(64);
};

/*
 * The state is shared by all engines (not private to one), so the
 * dispatcher may change engine between two update calls of the same
 * operation, e.g. to the generic one when the FPU is not usable for one
 * chunk.  Every engine leaves it, after each call, as follows:
 *
 *  - @acc is the GHASH accumulator as a 16-byte block in the spec's byte
 *    order (the X_i of SP 800-38D, not byte-reflected); an engine that
 *    keeps it reflected in registers converts on entry and exit;
 *  - @ctr is the 32-bit counter of the next keystream block (2 for the
 *    first block of text), as a number;
 *  - update lengths being multiples of TLSX_AEAD_UPDATE_ALIGN except the
 *    last, no partial block is ever carried between calls.
 *
 * Note to the authors of gcm_vaes_avx2.c and gcm_avx512.c: keep to this
 * form; k->simd (TLSX_GCM_SIMD_BYTES, 64-byte aligned) is yours, laid out
 * as you like, and filled by your tlsx_gcm_precompute_*() (see
 * gcm_engines.h for the symbols gcm.c expects).
 */
struct tlsx_gcm_state {
	u8 j0[16];			/* nonce || 0^31 || 1 */
	u8 acc[16] __aligned(16);	/* GHASH accumulator, spec byte order */
	u32 ctr;			/* counter of the next keystream block */
	u64 ad_len;			/* bytes of associated data */
	u64 text_len;			/* bytes of text so far */
};

#endif /* TLSX_CRYPTO_GCM_H */
