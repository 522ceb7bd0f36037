/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bn_b52.h - the radix-2^52 state the IFMA exponentiations share: the
 * 512-bit pair (bn_ifma.c, which owns these helpers) and the 256-bit one
 * for 1024-bit moduli (bn_ifma256.c).  Internal to rsa/.
 */
#ifndef TLSX_BN_B52_H
#define TLSX_BN_B52_H

#include "rsa/bn_impl.h"

#define B52_MASK	((1ULL << 52) - 1)
#define B52_MAX_K	5
#define B52_MAX_LANES	(8 * B52_MAX_K)
#define B52_WIN		5
#define B52_TABLE	(1 << B52_WIN)

/* A modulus in radix 2^52 and its Montgomery constants. */
struct b52_mod {
	u64 m[B52_MAX_LANES] __aligned(64);
	u64 rr[B52_MAX_LANES] __aligned(64);	/* R^2 mod m */
	u64 k0;					/* -m^-1 mod 2^52 */
};

/* The per-modulus state of one exponentiation. */
struct b52_exp {
	struct b52_mod mod;
	u64 table[B52_TABLE * B52_MAX_LANES] __aligned(64);
	u64 acc[B52_MAX_LANES] __aligned(64);
	u64 t[B52_MAX_LANES] __aligned(64);
};

/* Bits [pos, pos + B52_WIN) of e (zeros past elimbs limbs). */
u64 b52_window(const u64 *e, size_t elimbs, size_t pos);

/*
 * Both halves' radix-2^52 state (only the first when @one), the lane
 * count (20, 30 or 40) in *lanes, or -EINVAL for sizes IFMA cannot do.
 */
int b52_pair_init(struct b52_exp *s, const u64 *a0, const struct bn_mont *m0,
		  const u64 *a1, const struct bn_mont *m1, size_t *lanes,
		  bool one);

/* Results (accumulators at most m) into [0, m), radix 2^64; wipes s. */
void b52_pair_out(u64 *r0, const struct bn_mont *m0, u64 *r1,
		  const struct bn_mont *m1, struct b52_exp *s, size_t lanes,
		  bool tables);

#endif /* TLSX_BN_B52_H */
