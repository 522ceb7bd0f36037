/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x25519_ladder_tmpl.h - the X25519 function of RFC 7748 section 5 by the
 * Montgomery ladder, written once for both field representations (see
 * fe25519_pow_tmpl.h for FE, F() and ATTR; PFX(name) names the result).
 *
 * Constant-time in the scalar: every bit does the same work, and the
 * two ladder points are exchanged by a masked swap, never a branch.
 */

/*
 * out = X25519(scalar, u): the scalar is clamped as RFC 7748 decodes it,
 * bit 255 of u is ignored and a non-canonical u (>= p) is reduced.
 */
static ATTR void PFX(x25519_ladder)(u8 out[32], const u8 scalar[32],
				    const u8 point[32])
{
	FE x1, x2, z2, x3, z3, a, aa, b, bb, e, c, d, da, cb;
	u64 swap = 0, bit;
	u8 k[32];
	int i;

	memcpy(k, scalar, 32);
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
	F(frombytes)(&x1, point);
	F(1)(&x2);
	F(0)(&z2);
	F(copy)(&x3, &x1);
	F(1)(&z3);

	/*
	 * (x2 : z2) = [n]P and (x3 : z3) = [n + 1]P for the bits n seen so
	 * far; each step doubles one and adds the two (differential
	 * addition, the difference being P = x1).  Swapping first puts the
	 * point to double in (x2, z2); the swap is carried lazily: only
	 * when the next bit differs.
	 */
	for (i = 254; i >= 0; i--) {
		bit = (k[i >> 3] >> (i & 7)) & 1;
		swap ^= bit;
		F(cswap)(&x2, &x3, swap);
		F(cswap)(&z2, &z3, swap);
		swap = bit;

		/*
		 * RFC 7748's step, ordered so the longest dependency chain
		 * (D A, its difference with C B, squared, times x1) starts
		 * first and independent products sit side by side: a CPU
		 * window holds only part of a step.
		 */
		F(addsub)(&a, &b, &x2, &z2);
		F(addsub)(&c, &d, &x3, &z3);
		F(mul)(&da, &d, &a);
		F(mul)(&cb, &c, &b);
		F(sq)(&aa, &a);
		F(sq)(&bb, &b);
		F(addsub)(&x3, &z3, &da, &cb);
		F(sq)(&z3, &z3);
		F(sub)(&e, &aa, &bb);
		F(sq)(&x3, &x3);
		F(mul_a24_add)(&z2, &e, &aa);
		F(mul)(&z3, &z3, &x1);
		F(mul)(&x2, &aa, &bb);
		F(mul)(&z2, &z2, &e);
	}
	F(cswap)(&x2, &x3, swap);
	F(cswap)(&z2, &z3, swap);

	/* u = x2 / z2; z2 = 0 (the point at infinity) gives u = 0. */
	F(invert)(&z2, &z2);
	F(mul)(&x2, &x2, &z2);
	F(tobytes)(out, &x2);

	memzero_explicit(k, sizeof(k));
	memzero_explicit(&x2, sizeof(x2));
	memzero_explicit(&z2, sizeof(z2));
	memzero_explicit(&x3, sizeof(x3));
	memzero_explicit(&z3, sizeof(z3));
	memzero_explicit(&a, sizeof(a));
	memzero_explicit(&aa, sizeof(aa));
	memzero_explicit(&b, sizeof(b));
	memzero_explicit(&bb, sizeof(bb));
	memzero_explicit(&e, sizeof(e));
	memzero_explicit(&c, sizeof(c));
	memzero_explicit(&d, sizeof(d));
	memzero_explicit(&da, sizeof(da));
	memzero_explicit(&cb, sizeof(cb));
}
