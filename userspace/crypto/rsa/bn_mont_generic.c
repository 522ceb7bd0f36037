// SPDX-License-Identifier: GPL-2.0
/*
 * bn_mont_generic.c - portable Montgomery multiplication (CIOS: the
 * product and the reduction interleaved one limb of b at a time), with
 * 64x64 -> 128-bit products from the compiler's unsigned __int128.
 */
#include "rsa/bn_impl.h"

void bn_mont_mul_generic(u64 *r, const u64 *a, const u64 *b, const u64 *m,
			 u64 m0inv, size_t n)
{
	u64 t[BN_MAX_LIMBS + 2];
	size_t i, j;

	memset(t, 0, (n + 2) * 8);
	/*
	 * Invariant at the top of each round: t < 2m (n limbs plus one
	 * top limb).  A round adds a b_i, then the multiple q m that makes
	 * the low limb zero (q = t_0 (-m^-1) mod 2^64), and drops that limb:
	 * t <- (t + a b_i + q m) / 2^64 < (2m + R 2^64 + 2^64 m) / 2^64,
	 * below 2m again for a < m; in general the final t is below
	 * (a b + m R) / R < 2m when a b < m R.
	 */
	for (i = 0; i < n; i++) {
		unsigned __int128 c = 0;
		u64 bi = b[i], q;

		for (j = 0; j < n; j++) {
			c += (unsigned __int128)a[j] * bi + t[j];
			t[j] = (u64)c;
			c >>= 64;
		}
		c += t[n];
		t[n] = (u64)c;
		t[n + 1] = (u64)(c >> 64);

		q = t[0] * m0inv;
		c = (unsigned __int128)q * m[0] + t[0];
		c >>= 64;
		for (j = 1; j < n; j++) {
			c += (unsigned __int128)q * m[j] + t[j];
			t[j - 1] = (u64)c;
			c >>= 64;
		}
		c += t[n];
		t[n - 1] = (u64)c;
		t[n] = t[n + 1] + (u64)(c >> 64);
	}
	bn_mont_final_sub(r, t, t[n], m, n);
	memzero_explicit(t, (n + 2) * 8);
}
