// SPDX-License-Identifier: GPL-2.0
/*
 * fe25519_mulx.c - the out-of-line part of the four-limb field
 * (fe25519_mulx.h): the canonical encoding, which is plain C.
 */
#include "curve25519/fe25519_mulx.h"

/*
 * Canonical encoding of f < 2^256: fold bit 255 back as 19 (2^255 = 19
 * mod p), leaving t < 2^255 + 19 < 2p; then t >= p exactly when t + 19
 * reaches bit 255, and t - p is t + 19 with that bit cleared.  The
 * choice is a mask, not a branch.
 */
void fe64_tobytes(u8 s[32], const struct fe64 *f)
{
	u64 t[4], u[4], mask;
	__uint128_t c;
	int i;

	c = (__uint128_t)f->v[0] + 19 * (f->v[3] >> 63);
	t[0] = (u64)c;
	for (i = 1; i < 4; i++) {
		c = (__uint128_t)(i == 3 ? f->v[3] & ~(1ULL << 63) : f->v[i]) +
		    (u64)(c >> 64);
		t[i] = (u64)c;
	}
	c = (__uint128_t)t[0] + 19;
	u[0] = (u64)c;
	for (i = 1; i < 4; i++) {
		c = (__uint128_t)t[i] + (u64)(c >> 64);
		u[i] = (u64)c;
	}
	mask = 0 - (u[3] >> 63);
	u[3] &= ~(1ULL << 63);
	for (i = 0; i < 4; i++)
		put_unaligned_le64((u[i] & mask) | (t[i] & ~mask), s + 8 * i);
	memzero_explicit(t, sizeof(t));
	memzero_explicit(u, sizeof(u));
}
