/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fe25519_pow_tmpl.h - exponentiations in GF(2^255 - 19), written once
 * for both field representations.  Included by c25519_generic.c and
 * c25519_mulx.c after they define:
 *
 *	FE	the element type (struct fe51 or struct fe64)
 *	F(op)	the field operation op of that type (fe51_op or fe64_op)
 *	ATTR	attributes of every function here (target("bmi2,adx"))
 *
 * The exponents are public constants, so the square-and-multiply
 * sequences below are fixed: constant-time in the base.
 */

/* h = f^(2^n), n >= 1. */
static ATTR void F(sqn)(FE *h, const FE *f, int n)
{
	F(sq)(h, f);
	while (--n > 0)
		F(sq)(h, h);
}

/*
 * The common prefix of both chains: @z11 = z^11 and @t = z^(2^250 - 1),
 * built from runs of ones: z^(2^5 - 1), then 2^10 - 1, 2^20 - 1, 2^40 -
 * 1, 2^50 - 1, 2^100 - 1, 2^200 - 1, 2^250 - 1, each from a shorter run
 * shifted up (repeated squaring) and multiplied by another run.  That is
 * 254 squarings and 11 multiplications with what the callers add.
 */
static ATTR void F(pow_2_250_1)(FE *t, FE *z11, const FE *z)
{
	FE a, b, c;

	F(sq)(&a, z);			/* z^2 */
	F(sqn)(&b, &a, 2);		/* z^8 */
	F(mul)(&b, &b, z);		/* z^9 */
	F(mul)(z11, &a, &b);		/* z^11 */
	F(sq)(&a, z11);			/* z^22 */
	F(mul)(&b, &b, &a);		/* z^(2^5 - 1) = z^31 */
	F(sqn)(&a, &b, 5);
	F(mul)(&b, &a, &b);		/* 2^10 - 1 */
	F(sqn)(&a, &b, 10);
	F(mul)(&a, &a, &b);		/* 2^20 - 1 */
	F(sqn)(&c, &a, 20);
	F(mul)(&a, &c, &a);		/* 2^40 - 1 */
	F(sqn)(&a, &a, 10);
	F(mul)(&b, &a, &b);		/* 2^50 - 1 */
	F(sqn)(&a, &b, 50);
	F(mul)(&a, &a, &b);		/* 2^100 - 1 */
	F(sqn)(&c, &a, 100);
	F(mul)(&a, &c, &a);		/* 2^200 - 1 */
	F(sqn)(&a, &a, 50);
	F(mul)(t, &a, &b);		/* 2^250 - 1 */
	memzero_explicit(&a, sizeof(a));
	memzero_explicit(&b, sizeof(b));
	memzero_explicit(&c, sizeof(c));
}

/* h = 1/z = z^(p - 2) = z^(2^255 - 21); 0 maps to 0. */
static ATTR void F(invert)(FE *h, const FE *z)
{
	FE t, z11;

	F(pow_2_250_1)(&t, &z11, z);
	F(sqn)(&t, &t, 5);		/* 2^255 - 32 */
	F(mul)(h, &t, &z11);		/* 2^255 - 21 */
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&z11, sizeof(z11));
}

/* h = z^((p - 5) / 8) = z^(2^252 - 3), for square roots. */
static ATTR void F(pow22523)(FE *h, const FE *z)
{
	FE t, z11;

	F(pow_2_250_1)(&t, &z11, z);
	F(sqn)(&t, &t, 2);		/* 2^252 - 4 */
	F(mul)(h, &t, z);		/* 2^252 - 3 */
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&z11, sizeof(z11));
}

/* Whether the canonical value is odd (RFC 8032's "negative" x). */
static ATTR int F(isodd)(const FE *f)
{
	u8 s[32];

	F(tobytes)(s, f);
	return s[0] & 1;
}

/* 1 when f = 0 (mod p), else 0; constant-time. */
static ATTR u64 F(iszero)(const FE *f)
{
	u8 s[32];
	u64 acc = 0;
	int i;

	F(tobytes)(s, f);
	for (i = 0; i < 32; i++)
		acc |= s[i];
	return (acc - 1) >> 63;
}
