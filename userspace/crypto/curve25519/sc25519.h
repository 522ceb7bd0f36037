/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sc25519.h - arithmetic on Ed25519 scalars, modulo the group order
 * L = 2^252 + 27742317777372353535851937790883648493, as 32 little-endian
 * bytes.  Reduction and multiply-add are constant-time (they handle
 * nonces and private scalars); the canonical check is for public data.
 */
#ifndef TLSX_SC25519_H
#define TLSX_SC25519_H

#include "aead/platform.h"

/* out = in mod L, for a 512-bit little-endian @in (a SHA-512 digest). */
void sc25519_reduce(u8 out[32], const u8 in[64]);

/* out = (a b + c) mod L, for any 256-bit a, b, c below 2^255. */
void sc25519_muladd(u8 out[32], const u8 a[32], const u8 b[32],
		    const u8 c[32]);

/* Whether s < L (RFC 8032's check on S); variable-time. */
bool sc25519_is_canonical(const u8 s[32]);

#endif /* TLSX_SC25519_H */
