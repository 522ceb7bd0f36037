/* SPDX-License-Identifier: GPL-2.0 */
/*
 * p256_curve.h - the P-256 point arithmetic and scalar multiplications,
 * written once and compiled once per field implementation.
 *
 * The including file defines, before including this:
 *	fe_mul(r, a, b), fe_sqr(r, a)	the Montgomery product and square
 *	P256_SELECT_AFFINE, P256_SELECT_JACOBIAN
 *					the constant-time table scans
 *	P256_CURVE_OPS, P256_CURVE_NAME	the struct p256_curve_ops it exports
 *	P256_CURVE_STACK_WIPE		its stack_wipe
 *
 * Points are Jacobian (X:Y:Z), x = X/Z^2, y = Y/Z^3, coordinates in
 * Montgomery form; Z = 0 is the point at infinity.  The curve is
 * y^2 = x^3 - 3x + b, so the doubling uses a = -3.
 *
 * The constant-time paths (base_mul, var_mul) never branch on a point:
 * the exceptional cases of the addition formula (an operand at infinity,
 * equal operands) are computed as masks and resolved by masked selects.
 * verify() works on public data and branches freely.
 */
#ifndef TLSX_P256_CURVE_TEMPLATE
#define TLSX_P256_CURVE_TEMPLATE
#else
#error "p256_curve.h is a template: include it once per file"
#endif

#include "p256/p256_field.h"
#include "p256/p256_internal.h"

#ifndef fe_add
#define fe_add p256_fe_add
#define fe_sub p256_fe_sub
#define fe_half p256_fe_half
#endif

/* The including file may compile every function for extra ISA features. */
#ifndef P256_TARGET
#define P256_TARGET
#endif

/* r = a^(p-2) = a^-1 mod p (0 for 0); Montgomery form in and out.
 *
 * p - 2 = 2^256 - 2^224 + 2^192 + 2^96 - 3: from the top, 32 ones,
 * 31 zeros, a one, 96 zeros, 94 ones, a zero and a one.  The chain
 * builds x_k = a^(2^k - 1) for the runs of ones (x_{j+k} = x_j^(2^k) *
 * x_k), then shifts them in: 255 squarings, 12 multiplications, a fixed
 * sequence whatever a is.
 */
P256_TARGET
static void fe_inv(u64 r[4], const u64 a[4])
{
	u64 x2[4], x3[4], x6[4], x12[4], x15[4], x30[4], x32[4], t[4];
	int i;

	fe_sqr(t, a);
	fe_mul(x2, t, a);
	fe_sqr(t, x2);
	fe_mul(x3, t, a);
	fe_sqr(t, x3);
	for (i = 1; i < 3; i++)
		fe_sqr(t, t);
	fe_mul(x6, t, x3);
	fe_sqr(t, x6);
	for (i = 1; i < 6; i++)
		fe_sqr(t, t);
	fe_mul(x12, t, x6);
	fe_sqr(t, x12);
	for (i = 1; i < 3; i++)
		fe_sqr(t, t);
	fe_mul(x15, t, x3);
	fe_sqr(t, x15);
	for (i = 1; i < 15; i++)
		fe_sqr(t, t);
	fe_mul(x30, t, x15);
	fe_sqr(t, x30);
	fe_sqr(t, t);
	fe_mul(x32, t, x2);

	/* 32 ones, then 31 zeros and a one: bits 255..192. */
	fe_sqr(t, x32);
	for (i = 1; i < 32; i++)
		fe_sqr(t, t);
	fe_mul(t, t, a);
	/* 96 zeros and 32 ones: bits 191..64. */
	for (i = 0; i < 128; i++)
		fe_sqr(t, t);
	fe_mul(t, t, x32);
	/* 32 ones: bits 63..32. */
	for (i = 0; i < 32; i++)
		fe_sqr(t, t);
	fe_mul(t, t, x32);
	/* 30 ones: bits 31..2. */
	for (i = 0; i < 30; i++)
		fe_sqr(t, t);
	fe_mul(t, t, x30);
	/* bit 1 zero, bit 0 one. */
	fe_sqr(t, t);
	fe_sqr(t, t);
	fe_mul(r, t, a);

	memzero_explicit(x2, sizeof(x2));
	memzero_explicit(x3, sizeof(x3));
	memzero_explicit(x6, sizeof(x6));
	memzero_explicit(x12, sizeof(x12));
	memzero_explicit(x15, sizeof(x15));
	memzero_explicit(x30, sizeof(x30));
	memzero_explicit(x32, sizeof(x32));
	memzero_explicit(t, sizeof(t));
}

/*
 * r = 2a for a = -3 (4M + 4S), arranged to need few additions:
 *	M = 3(X - Z^2)(X + Z^2), S = 4 X Y^2 = X (2Y)^2,
 *	X3 = M^2 - 2S, Y3 = M(S - X3) - 8 Y^4, Z3 = 2 Y Z,
 * with 8 Y^4 = ((2Y)^2)^2 / 2 (a halving mod p instead of three
 * doublings).  The infinity (Z = 0) doubles to Z3 = 0: no special case.
 * (No point of P-256 has Y = 0: the group has odd order.)  r may alias a.
 */
P256_TARGET
static void pt_dbl(struct p256_jacobian *r, const struct p256_jacobian *a)
{
	u64 d[4], y2[4], t1[4], t2[4], y4[4], z3[4], s[4], y8[4], m[4];
	u64 x3[4];

	fe_sqr(d, a->z);
	fe_add(y2, a->y, a->y);
	fe_sub(t1, a->x, d);
	fe_add(t2, a->x, d);
	fe_sqr(y4, y2);
	fe_mul(z3, y2, a->z);
	fe_mul(t1, t1, t2);
	fe_mul(s, y4, a->x);
	fe_sqr(y8, y4);
	fe_add(m, t1, t1);
	fe_add(m, m, t1);
	fe_half(y8, y8);
	fe_sqr(x3, m);
	fe_add(t2, s, s);
	fe_sub(x3, x3, t2);
	fe_sub(t1, s, x3);
	fe_mul(t1, m, t1);
	fe_sub(r->y, t1, y8);
	p256_fe_copy(r->x, x3);
	p256_fe_copy(r->z, z3);
}

/*
 * r = a + b, add-1998-cmo-2 (12M + 4S):
 *	U1 = X1 Z2^2, U2 = X2 Z1^2, S1 = Y1 Z2^3, S2 = Y2 Z1^3,
 *	H = U2 - U1, R = S2 - S1,
 *	X3 = R^2 - H^3 - 2 U1 H^2, Y3 = R(U1 H^2 - X3) - S1 H^3,
 *	Z3 = Z1 Z2 H.
 * Correct unless an operand is the infinity or a = +-b.  For a = -b,
 * H = 0 gives Z3 = 0, the infinity, which is right; for a = b (H = 0
 * and R = 0) the result is wrong and the caller must double instead.
 * *hz and *rz are masks for H = 0 and R = 0.
 */
P256_TARGET
static void pt_add(struct p256_jacobian *r, const struct p256_jacobian *a,
		   const struct p256_jacobian *b, u64 *hz, u64 *rz)
{
	u64 z1z1[4], z2z2[4], u1[4], u2[4], s1[4], s2[4], h[4], rr[4];
	u64 hh[4], hhh[4], v[4], t[4];

	fe_sqr(z1z1, a->z);
	fe_sqr(z2z2, b->z);
	fe_mul(u1, a->x, z2z2);
	fe_mul(u2, b->x, z1z1);
	fe_mul(s1, a->y, b->z);
	fe_mul(s1, s1, z2z2);
	fe_mul(s2, b->y, a->z);
	fe_mul(s2, s2, z1z1);
	fe_sub(h, u2, u1);
	fe_sub(rr, s2, s1);
	*hz = p256_fe_zero_mask(h);
	*rz = p256_fe_zero_mask(rr);

	fe_sqr(hh, h);
	fe_mul(hhh, hh, h);
	fe_mul(v, u1, hh);
	fe_mul(t, a->z, b->z);
	fe_mul(r->z, t, h);

	fe_sqr(t, rr);
	fe_sub(t, t, hhh);
	fe_sub(t, t, v);
	fe_sub(r->x, t, v);

	fe_sub(t, v, r->x);
	fe_mul(t, rr, t);
	fe_mul(s1, s1, hhh);
	fe_sub(r->y, t, s1);
}

/*
 * r = a + b with b affine (Z2 = 1), madd (8M + 3S): the formula above
 * with U1 = X1, S1 = Y1.  Same exceptions and masks.
 */
P256_TARGET
static void pt_madd(struct p256_jacobian *r, const struct p256_jacobian *a,
		    const struct p256_affine *b, u64 *hz, u64 *rz)
{
	u64 z1z1[4], u2[4], s2[4], h[4], rr[4], hh[4], hhh[4], v[4], t[4];
	u64 x3[4], z3[4];

	fe_sqr(z1z1, a->z);
	fe_mul(u2, b->x, z1z1);
	fe_mul(s2, b->y, a->z);
	fe_mul(s2, s2, z1z1);
	fe_sub(h, u2, a->x);
	fe_sub(rr, s2, a->y);
	*hz = p256_fe_zero_mask(h);
	*rz = p256_fe_zero_mask(rr);

	fe_sqr(hh, h);
	fe_mul(hhh, hh, h);
	fe_mul(v, a->x, hh);
	fe_mul(t, a->y, hhh);
	fe_mul(z3, a->z, h);

	fe_sqr(x3, rr);
	fe_sub(x3, x3, hhh);
	fe_sub(x3, x3, v);
	fe_sub(x3, x3, v);
	fe_sub(v, v, x3);
	fe_mul(v, rr, v);
	/* a is read no more: r may alias it. */
	fe_sub(r->y, v, t);
	p256_fe_copy(r->x, x3);
	p256_fe_copy(r->z, z3);
}

P256_TARGET
static void pt_cmov(struct p256_jacobian *r, const struct p256_jacobian *a,
		    u64 mask)
{
	p256_fe_cmov(r->x, a->x, mask);
	p256_fe_cmov(r->y, a->y, mask);
	p256_fe_cmov(r->z, a->z, mask);
}

/* Plain affine coordinates of a (zeros for the infinity). */
P256_TARGET
static void pt_to_affine(u64 x[4], u64 y[4], const struct p256_jacobian *a)
{
	static const u64 one[4] = { 1 };
	u64 zi[4], zi2[4], t[4];

	fe_inv(zi, a->z);
	fe_sqr(zi2, zi);
	fe_mul(t, a->x, zi2);
	fe_mul(x, t, one);
	fe_mul(zi2, zi2, zi);
	fe_mul(t, a->y, zi2);
	fe_mul(y, t, one);
	memzero_explicit(zi, sizeof(zi));
	memzero_explicit(zi2, sizeof(zi2));
	memzero_explicit(t, sizeof(t));
}

/*
 * The signed window digit of k at window i (width w, Booth recoding):
 * d = (w bits of k at w*i) + bit (w*i - 1) - 2^w * bit (w*i + w - 1),
 * in [-2^(w-1), 2^(w-1)], and sum d_i 2^(w*i) = k.  Returned as the
 * magnitude and a sign mask (all ones for negative), computed without
 * branches (the bits are secret; the positions are not).
 */
P256_TARGET
static u32 booth_digit(const u64 k[4], int w, int i, u64 *neg)
{
	int pos = w * i - 1;	/* the lowest bit read */
	u64 v = 0, s;
	int limb, sh;

	if (pos < 0) {
		v = k[0] << 1;
	} else {
		limb = pos / 64;
		sh = pos % 64;
		if (limb < 4)
			v = k[limb] >> sh;
		if (sh && limb + 1 < 4)
			v |= k[limb + 1] << (64 - sh);
	}
	v &= (2ULL << w) - 1;
	/* d = (v >> 1) + (v & 1) - 2^w (v >> w), as a two's complement. */
	s = 0 - (v >> w);
	v = (v >> 1) + (v & 1);
	/* For negative digits |d| = 2^w - v, else v. */
	v = (((1ULL << w) - v) & s) | (v & ~s);
	*neg = s;
	return (u32)v;
}

/*
 * k*G with k in [1, n-1], constant-time: k = sum d_i 2^(6i) with signed
 * digits d_i in [-32, 32], and p256_base_table[i] holds j*2^(6i)*G for
 * j = 1..32, so k*G is the sum of 43 table points (negated for negative
 * digits) - one mixed addition per window and no doubling.
 *
 * The masked exceptions: while every digit so far was 0 the accumulator
 * is the infinity (it takes the table point); a 0 digit adds nothing
 * (the accumulator stays).  The accumulator is never +- the table point
 * otherwise: before window i it is S*G with |S| < 2^(6i) and the table
 * point is d*2^(6i)*G, |d| >= 1; S = +-d*2^(6i) mod n would need
 * |S -+ d*2^(6i)| = n, impossible below the top window as both are far
 * below n, and at the top window (i = 42, d <= 16) the sum would be k,
 * which is in [1, n-1]; S = -d 2^(6i) likewise gives k = 0 or a partial
 * sum that is a multiple of n.
 */
P256_TARGET
static void base_mul_jacobian(struct p256_jacobian *acc, const u64 k[4])
{
	struct p256_jacobian t;
	struct p256_affine p;
	u64 neg, acc_inf, hz, rz, ny[4];
	u32 d;
	int i;

	memset(acc, 0, sizeof(*acc));
	for (i = 0; i < P256_BASE_WINDOWS; i++) {
		d = booth_digit(k, 6, i, &neg);
		P256_SELECT_AFFINE(&p, p256_base_table[i], P256_BASE_POINTS,
				   d);
		p256_fe_neg(ny, p.y);
		p256_fe_cmov(p.y, ny, neg);

		acc_inf = p256_fe_zero_mask(acc->z);
		pt_madd(&t, acc, &p, &hz, &rz);
		p256_fe_cmov(t.x, p.x, acc_inf);
		p256_fe_cmov(t.y, p.y, acc_inf);
		p256_fe_cmov(t.z, p256_fe_one, acc_inf);
		/* d == 0: keep acc (the digit is secret: mask, no branch). */
		pt_cmov(acc, &t, 0 - (u64)((d | (0 - d)) >> 31));
	}
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&p, sizeof(p));
	memzero_explicit(ny, sizeof(ny));
}

P256_TARGET
static void base_mul(u64 x[4], u64 y[4], const u64 k[4])
{
	struct p256_jacobian acc;

	base_mul_jacobian(&acc, k);
	pt_to_affine(x, y, &acc);
	memzero_explicit(&acc, sizeof(acc));
}

/*
 * Signing needs Z^-1 mod p (for the affine x of k*G) and k^-1 mod n: two
 * long, independent chains of dependent multiplications, each limited by
 * the latency of one product.  Run one step of each in turn, so that the
 * processor overlaps them.  The chains are fixed programs (the exponents
 * are public): each op squares a register count times or multiplies two
 * registers.
 *
 * fe_inv_prog is fe_inv() above: p - 2, registers a, x2, x3, x6, x12,
 * x15, x30, x32, t.  sc_inv_prog is p256_sc_inv_mont() (p256_scalar.c):
 * n - 2, registers a, x2, x4, x8, x16, x32, t, a^2, a^3, a^5, .., a^15.
 */
struct inv_op {
	u8 kind;
	u8 count;
	u8 d, a, b;
};

#define INV_SQR	0
#define INV_MUL	1

static const struct inv_op fe_inv_prog[] = {
	{ INV_SQR, 1, 8, 0, 0 },
	{ INV_MUL, 1, 1, 8, 0 },
	{ INV_SQR, 1, 8, 1, 0 },
	{ INV_MUL, 1, 2, 8, 0 },
	{ INV_SQR, 3, 8, 2, 0 },
	{ INV_MUL, 1, 3, 8, 2 },
	{ INV_SQR, 6, 8, 3, 0 },
	{ INV_MUL, 1, 4, 8, 3 },
	{ INV_SQR, 3, 8, 4, 0 },
	{ INV_MUL, 1, 5, 8, 2 },
	{ INV_SQR, 15, 8, 5, 0 },
	{ INV_MUL, 1, 6, 8, 5 },
	{ INV_SQR, 2, 8, 6, 0 },
	{ INV_MUL, 1, 7, 8, 1 },
	{ INV_SQR, 32, 8, 7, 0 },
	{ INV_MUL, 1, 8, 8, 0 },
	{ INV_SQR, 128, 8, 8, 0 },
	{ INV_MUL, 1, 8, 8, 7 },
	{ INV_SQR, 32, 8, 8, 0 },
	{ INV_MUL, 1, 8, 8, 7 },
	{ INV_SQR, 30, 8, 8, 0 },
	{ INV_MUL, 1, 8, 8, 6 },
	{ INV_SQR, 2, 8, 8, 0 },
	{ INV_MUL, 1, 8, 8, 0 },
};

static const struct inv_op sc_inv_prog[] = {
	{ INV_SQR, 1, 6, 0, 0 },
	{ INV_MUL, 1, 1, 6, 0 },
	{ INV_SQR, 2, 6, 1, 0 },
	{ INV_MUL, 1, 2, 6, 1 },
	{ INV_SQR, 4, 6, 2, 0 },
	{ INV_MUL, 1, 3, 6, 2 },
	{ INV_SQR, 8, 6, 3, 0 },
	{ INV_MUL, 1, 4, 6, 3 },
	{ INV_SQR, 16, 6, 4, 0 },
	{ INV_MUL, 1, 5, 6, 4 },
	{ INV_SQR, 64, 6, 5, 0 },
	{ INV_MUL, 1, 6, 6, 5 },
	{ INV_SQR, 32, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 5 },
	{ INV_SQR, 1, 7, 0, 0 },
	{ INV_MUL, 1, 8, 0, 7 },
	{ INV_MUL, 1, 9, 8, 7 },
	{ INV_MUL, 1, 10, 9, 7 },
	{ INV_MUL, 1, 11, 10, 7 },
	{ INV_MUL, 1, 12, 11, 7 },
	{ INV_MUL, 1, 13, 12, 7 },
	{ INV_MUL, 1, 14, 13, 7 },
	{ INV_SQR, 4, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 12 },
	{ INV_SQR, 2, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 8 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 10 },
	{ INV_SQR, 6, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 13 },
	{ INV_SQR, 4, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 14 },
	{ INV_SQR, 4, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 9 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 12 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 13 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 10 },
	{ INV_SQR, 7, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 12 },
	{ INV_SQR, 2, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 8 },
	{ INV_SQR, 6, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 14 },
	{ INV_SQR, 2, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 0 },
	{ INV_SQR, 8, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 11 },
	{ INV_SQR, 3, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 10 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 10 },
	{ INV_SQR, 4, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 10 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 10 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 9 },
	{ INV_SQR, 3, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 8 },
	{ INV_SQR, 8, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 12 },
	{ INV_SQR, 4, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 14 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 8 },
	{ INV_SQR, 5, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 8 },
	{ INV_SQR, 6, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 11 },
	{ INV_SQR, 4, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 9 },
	{ INV_SQR, 6, 6, 6, 0 },
	{ INV_MUL, 1, 6, 6, 14 },
};

P256_TARGET
static void sign_mul(u64 x[4], u64 kinv[4], const u64 k[4], const u64 km[4])
{
	static const u64 one[4] = { 1 };
	const int nf = ARRAY_SIZE(fe_inv_prog), ns = ARRAY_SIZE(sc_inv_prog);
	struct p256_jacobian acc;
	u64 fr[9][4], sr[15][4];
	int fi = 0, si = 0, frep = 0, srep = 0;

	base_mul_jacobian(&acc, k);
	p256_fe_copy(fr[0], acc.z);
	memcpy(sr[0], km, sizeof(sr[0]));
	while (fi < nf || si < ns) {
		if (fi < nf) {
			const struct inv_op *o = &fe_inv_prog[fi];

			if (o->kind == INV_MUL) {
				fe_mul(fr[o->d], fr[o->a], fr[o->b]);
				fi++;
			} else {
				fe_sqr(fr[o->d], fr[frep ? o->d : o->a]);
				if (++frep == o->count) {
					frep = 0;
					fi++;
				}
			}
		}
		if (si < ns) {
			const struct inv_op *o = &sc_inv_prog[si];

			if (o->kind == INV_MUL) {
				P256_SC_MUL(sr[o->d], sr[o->a], sr[o->b]);
				si++;
			} else {
				P256_SC_SQR(sr[o->d], sr[srep ? o->d : o->a]);
				if (++srep == o->count) {
					srep = 0;
					si++;
				}
			}
		}
	}
	/* x = X / Z^2, out of Montgomery form */
	fe_sqr(fr[1], fr[8]);
	fe_mul(fr[2], acc.x, fr[1]);
	fe_mul(x, fr[2], one);
	memcpy(kinv, sr[6], sizeof(sr[6]));
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(fr, sizeof(fr));
	memzero_explicit(sr, sizeof(sr));
}

#define VAR_WINDOWS	52	/* 5-bit windows covering bits 0..259 */
#define VAR_POINTS	16

/*
 * k*P, constant-time in k and in P: 5-bit signed windows over a table
 * of P..16P (Jacobian), left to right, five doublings and one addition
 * per window.  The exceptions of the addition that occur are resolved by
 * masks: the accumulator at infinity (take the table point) and the
 * digit 0 (keep the accumulator).
 *
 * The others cannot occur for k in [1, n-1] and P of order n (every
 * point on the curve but the infinity).  Before the addition of window
 * i the accumulator is T*P with T = 32*T' (it was just doubled five
 * times) and the table point is d*P, |d| <= 16.  Equal or opposite
 * operands need T = +-d mod n.  For i >= 1, |T| <= k/32 + 17, far below
 * n - 16, so T = +-d as integers: a multiple of 32 of size at most 16,
 * i.e. T = d = 0 (both at infinity, which the masks handle).  For
 * i = 0, T = k - d: T = d mod n means k = 2d mod n, so k = 2d (then
 * T = d is a multiple of 32: d = 0, k = 0) or k = n + 2d with d < 0
 * (then T = n + d, a multiple of 32, needs d = -n = 15 mod 32: no d in
 * [-16, -1]); T = -d mod n means k = 0 mod n.  (test_p256 also runs
 * the scalars next to 0 and n against OpenSSL.)
 */
P256_TARGET
static void var_mul(u64 x[4], u64 y[4], const u64 k[4], const u64 px[4],
		    const u64 py[4])
{
	struct p256_jacobian tab[VAR_POINTS], acc, t, sel;
	u64 neg, ny[4], acc_inf, hz, rz, nz;
	u32 d;
	int i, j;

	fe_mul(tab[0].x, px, p256_fe_r2);
	fe_mul(tab[0].y, py, p256_fe_r2);
	p256_fe_copy(tab[0].z, p256_fe_one);
	/* (2j)P = 2 (jP), (2j + 1)P = (2j)P + P: never equal operands. */
	for (j = 2; j <= VAR_POINTS; j++) {
		if (j % 2 == 0)
			pt_dbl(&tab[j - 1], &tab[j / 2 - 1]);
		else
			pt_add(&tab[j - 1], &tab[j - 2], &tab[0], &hz, &rz);
	}

	d = booth_digit(k, 5, VAR_WINDOWS - 1, &neg);
	P256_SELECT_JACOBIAN(&acc, tab, VAR_POINTS, d);
	p256_fe_neg(ny, acc.y);
	p256_fe_cmov(acc.y, ny, neg);
	for (i = VAR_WINDOWS - 2; i >= 0; i--) {
		for (j = 0; j < 5; j++)
			pt_dbl(&acc, &acc);
		d = booth_digit(k, 5, i, &neg);
		P256_SELECT_JACOBIAN(&sel, tab, VAR_POINTS, d);
		p256_fe_neg(ny, sel.y);
		p256_fe_cmov(sel.y, ny, neg);

		acc_inf = p256_fe_zero_mask(acc.z);
		pt_add(&t, &acc, &sel, &hz, &rz);
		pt_cmov(&t, &sel, acc_inf);
		nz = 0 - (u64)((d | (0 - d)) >> 31);
		pt_cmov(&acc, &t, nz);
	}
	pt_to_affine(x, y, &acc);
	memzero_explicit(tab, sizeof(tab));
	memzero_explicit(&acc, sizeof(acc));
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&sel, sizeof(sel));
	memzero_explicit(ny, sizeof(ny));
}

/* --- verification: public inputs, variable time --------------------- */

P256_TARGET
static bool pt_is_inf(const struct p256_jacobian *a)
{
	return p256_fe_zero_mask(a->z) != 0;
}

/* r = a + b for any a, b. */
P256_TARGET
static void pt_add_vt(struct p256_jacobian *r, const struct p256_jacobian *a,
		      const struct p256_jacobian *b)
{
	struct p256_jacobian t;
	u64 hz, rz;

	if (pt_is_inf(a)) {
		*r = *b;
		return;
	}
	if (pt_is_inf(b)) {
		*r = *a;
		return;
	}
	pt_add(&t, a, b, &hz, &rz);
	if (hz && rz)
		pt_dbl(&t, a);
	*r = t;
}

P256_TARGET
static void pt_madd_vt(struct p256_jacobian *r, const struct p256_jacobian *a,
		       const struct p256_affine *b)
{
	struct p256_jacobian t;
	u64 hz, rz;

	if (pt_is_inf(a)) {
		p256_fe_copy(r->x, b->x);
		p256_fe_copy(r->y, b->y);
		p256_fe_copy(r->z, p256_fe_one);
		return;
	}
	pt_madd(&t, a, b, &hz, &rz);
	if (hz && rz) {
		p256_fe_copy(t.x, b->x);
		p256_fe_copy(t.y, b->y);
		p256_fe_copy(t.z, p256_fe_one);
		pt_dbl(&t, &t);
	}
	*r = t;
}

/* p - n, and r = a + b for a + b < 2^256 (no carry out). */
static const u64 p256_p_minus_n[4] = {
	0x0c46353d039cdaaeULL, 0x4319055358e8617bULL, 0, 0,
};

P256_TARGET
static void p256_add4(u64 r[4], const u64 a[4], const u64 b[4])
{
	unsigned __int128 c = 0;
	int i;

	for (i = 0; i < 4; i++) {
		c = (unsigned __int128)a[i] + b[i] + (u64)(c >> 64);
		r[i] = (u64)c;
	}
}

#define WNAF_W		5	/* odd multiples Q, 3Q, .., 15Q */
#define WNAF_POINTS	(1 << (WNAF_W - 2))

/* Width-w NAF of k: digits odd, |d| < 2^(w-1), or 0; returns the length. */
P256_TARGET
static int wnaf(signed char naf[257], const u64 k[4], int w)
{
	u64 v[5] = { k[0], k[1], k[2], k[3], 0 };
	int i, len = 0;

	memset(naf, 0, 257);
	for (i = 0; i < 257; i++) {
		int d = 0;

		if (v[0] & 1) {
			d = (int)(v[0] & ((1u << w) - 1));
			if (d >= 1 << (w - 1))
				d -= 1 << w;
			/* v -= d, leaving the low w bits zero. */
			if (d > 0) {
				u64 b = v[0] < (u64)d;
				int j;

				v[0] -= (u64)d;
				for (j = 1; j < 5 && b; j++)
					b = v[j]-- == 0;
			} else {
				u64 c;
				int j;

				v[0] += (u64)-d;
				c = v[0] < (u64)-d;
				for (j = 1; j < 5 && c; j++)
					c = ++v[j] == 0;
			}
			len = i + 1;
		}
		naf[i] = (signed char)d;
		/* v >>= 1 */
		v[0] = (v[0] >> 1) | (v[1] << 63);
		v[1] = (v[1] >> 1) | (v[2] << 63);
		v[2] = (v[2] >> 1) | (v[3] << 63);
		v[3] = (v[3] >> 1) | (v[4] << 63);
		v[4] >>= 1;
	}
	return len;
}

#define WNAF_G_W	6	/* odd multiples G, 3G, .., 31G */

/*
 * u1*G + u2*Q with one chain of doublings (Straus/Shamir): a width-5 NAF
 * of u2 over Q, 3Q, .., 15Q (Jacobian, computed here) and a width-6 NAF
 * of u1 over G, 3G, .., 31G, which are the odd entries of the
 * fixed-base table's first window (j*G for j = 1..32 is entry j - 1),
 * in affine form: about 43 full and 37 mixed additions besides the 256
 * doublings.  The x-coordinate is compared with r without an
 * inversion: x = X/Z^2, and x mod n = r iff X = r Z^2 or (when
 * r + n < p) X = (r + n) Z^2.
 */
P256_TARGET
static bool verify(const u64 u1[4], const u64 u2[4], const u64 qx[4],
		   const u64 qy[4], const u64 r[4])
{
	struct p256_jacobian tq[WNAF_POINTS], q2, acc;
	u64 zz[4], t[4], rm[4], rn[4];
	signed char naf[257], nafg[257];
	int i, len, leng;

	fe_mul(tq[0].x, qx, p256_fe_r2);
	fe_mul(tq[0].y, qy, p256_fe_r2);
	p256_fe_copy(tq[0].z, p256_fe_one);
	pt_dbl(&q2, &tq[0]);
	for (i = 1; i < WNAF_POINTS; i++)
		pt_add_vt(&tq[i], &tq[i - 1], &q2);

	len = wnaf(naf, u2, WNAF_W);
	leng = wnaf(nafg, u1, WNAF_G_W);
	if (leng > len)
		len = leng;
	memset(&acc, 0, sizeof(acc));
	for (i = len - 1; i >= 0; i--) {
		int v = naf[i], vg = nafg[i];

		pt_dbl(&acc, &acc);
		if (v) {
			struct p256_jacobian s = tq[(v < 0 ? -v : v) / 2];

			if (v < 0)
				p256_fe_neg(s.y, s.y);
			pt_add_vt(&acc, &acc, &s);
		}
		if (vg) {
			struct p256_affine g =
				p256_base_table[0][(vg < 0 ? -vg : vg) - 1];

			if (vg < 0)
				p256_fe_neg(g.y, g.y);
			pt_madd_vt(&acc, &acc, &g);
		}
	}
	if (pt_is_inf(&acc))
		return false;

	fe_sqr(zz, acc.z);
	fe_mul(rm, r, p256_fe_r2);
	fe_mul(t, rm, zz);
	if (!memcmp(t, acc.x, sizeof(t)))
		return true;
	/* x in [n, p) also reduces to r: then x = r + n, and r < p - n. */
	if (!p256_lt_mask(r, p256_p_minus_n))
		return false;
	p256_add4(rn, r, p256_n);
	fe_mul(rm, rn, p256_fe_r2);
	fe_mul(t, rm, zz);
	return !memcmp(t, acc.x, sizeof(t));
}

const struct p256_curve_ops P256_CURVE_OPS = {
	.name = P256_CURVE_NAME,
	.stack_wipe = P256_CURVE_STACK_WIPE,
	.base_mul = base_mul,
	.sign_mul = sign_mul,
	.var_mul = var_mul,
	.verify = verify,
};
