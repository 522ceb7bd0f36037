/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fe25519.h - arithmetic in GF(2^255 - 19), the field of Curve25519 and
 * Edwards25519, in two representations:
 *
 *  - struct fe51: five 51-bit limbs in u64 (radix 2^51), portable C with
 *    unsigned __int128 products (fe25519_51.h).  Every function returns
 *    limbs below 2^51 + 2^15 ("loosely reduced") and accepts limbs
 *    below 2^53, so results feed any operation without further care.
 *
 *  - struct fe64: four 64-bit limbs, any value below 2^256, congruent mod
 *    p = 2^255 - 19 to the element; arithmetic is done mod 2p = 2^256 - 38
 *    and reduced mod p only when encoding (fe25519_mulx.h, MULX/ADX inline
 *    assembly: run only when tlsx_cpu_features() has bmi2 and adx).
 *
 * Both are constant-time: no branch or index depends on an operand.
 * The inversion and the square-root exponent, written once for both,
 * are in fe25519_pow_tmpl.h.
 */
#ifndef TLSX_FE25519_H
#define TLSX_FE25519_H

#include "aead/platform.h"

struct fe51 {
	u64 v[5];
};

struct fe64 {
	u64 v[4];
};

/*
 * The curve constants, canonical, four little-endian 64-bit words each:
 * d = -121665/121666, 2d, and sqrt(-1) = 2^((p-1)/4).
 */
extern const u64 c25519_d[4], c25519_d2[4], c25519_sqrtm1[4];

#endif /* TLSX_FE25519_H */
