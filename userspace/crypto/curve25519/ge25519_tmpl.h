/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ge25519_tmpl.h - the Edwards25519 group (-x^2 + y^2 = 1 + d x^2 y^2),
 * written once for both field representations (see fe25519_pow_tmpl.h
 * for FE, F() and ATTR; PFX(name) names the entry points).  The point
 * types and helpers have no linkage: each instance has its own.
 *
 * Point forms, following Hisil, Wong, Carter and Dawson, "Twisted
 * Edwards curves revisited" (2008), with a = -1:
 *
 *	p3	extended (X : Y : Z : T), x = X/Z, y = Y/Z, xy = T/Z
 *	p2	projective (X : Y : Z), for a doubling that needs no T
 *	p1p1	"completed" ((X : Z), (Y : T)): x = X/Z, y = Y/T, what
 *		the add and double formulas produce before their last
 *		multiplications; converted to p2 with 3M or p3 with 4M
 *	cached	(Y + X, Y - X, Z, 2dT): an addend prepared once
 *	niels	affine (y + x, y - x, 2dxy): a table addend, Z = 1
 *
 * The fixed-base multiplication is constant-time in its scalar; the
 * double-scalar multiplication of verification is variable-time and
 * meant for public data only.
 */

struct ge_p3 {
	FE X, Y, Z, T;
};

struct ge_p2 {
	FE X, Y, Z;
};

struct ge_p1p1 {
	FE X, Y, Z, T;
};

struct ge_cached {
	FE ypx, ymx, Z, T2d;
};

struct ge_niels {
	FE ypx, ymx, xy2d;
};

static ATTR void ge_p3_0(struct ge_p3 *h)
{
	F(0)(&h->X);
	F(1)(&h->Y);
	F(1)(&h->Z);
	F(0)(&h->T);
}

static ATTR void ge_p1p1_to_p2(struct ge_p2 *r, const struct ge_p1p1 *p)
{
	F(mul)(&r->X, &p->X, &p->T);
	F(mul)(&r->Y, &p->Y, &p->Z);
	F(mul)(&r->Z, &p->Z, &p->T);
}

static ATTR void ge_p1p1_to_p3(struct ge_p3 *r, const struct ge_p1p1 *p)
{
	F(mul)(&r->X, &p->X, &p->T);
	F(mul)(&r->Y, &p->Y, &p->Z);
	F(mul)(&r->Z, &p->Z, &p->T);
	F(mul)(&r->T, &p->X, &p->Y);
}

static ATTR void ge_p3_to_cached(struct ge_cached *r, const struct ge_p3 *p)
{
	FE d2;

	F(from64)(&d2, c25519_d2);
	F(add)(&r->ypx, &p->Y, &p->X);
	F(sub)(&r->ymx, &p->Y, &p->X);
	F(copy)(&r->Z, &p->Z);
	F(mul)(&r->T2d, &p->T, &d2);
}

/*
 * Doubling (dbl-2008-hwcd): with A = X^2, B = Y^2, C = 2Z^2, every
 * intermediate below is the negation of the paper's (H = A + B, E = H -
 * (X + Y)^2, G = A - B, F = C + G), which leaves the products EF, GH,
 * FG, EH unchanged.
 */
static ATTR void ge_p2_dbl(struct ge_p1p1 *r, const struct ge_p2 *p)
{
	FE a, b, c, t;

	F(sq)(&a, &p->X);
	F(sq)(&b, &p->Y);
	F(sq)(&c, &p->Z);
	F(add)(&c, &c, &c);
	F(add)(&t, &p->X, &p->Y);
	F(sq)(&t, &t);
	F(add)(&r->Y, &a, &b);		/* H */
	F(sub)(&r->X, &r->Y, &t);	/* E */
	F(sub)(&r->Z, &a, &b);		/* G */
	F(add)(&r->T, &c, &r->Z);	/* F */
}

static ATTR void ge_p3_dbl(struct ge_p1p1 *r, const struct ge_p3 *p)
{
	struct ge_p2 q;

	F(copy)(&q.X, &p->X);
	F(copy)(&q.Y, &p->Y);
	F(copy)(&q.Z, &p->Z);
	ge_p2_dbl(r, &q);
}

/*
 * Addition (add-2008-hwcd-3): A = (Y1 - X1)(Y2 - X2), B = (Y1 + X1)(Y2 +
 * X2), C = T1 2d T2, D = 2 Z1 Z2; E = B - A, F = D - C, G = D + C,
 * H = B + A; the result is ((E : G), (H : F)).  Subtraction adds the
 * negation -(x, y) = (-x, y): y + x and y - x trade places and T flips
 * sign, so F and G trade places.
 */
static ATTR void ge_add(struct ge_p1p1 *r, const struct ge_p3 *p,
			const struct ge_cached *q, int sub)
{
	FE a, b, c, d;

	F(add)(&r->X, &p->Y, &p->X);
	F(sub)(&r->Y, &p->Y, &p->X);
	F(mul)(&a, &r->Y, sub ? &q->ypx : &q->ymx);
	F(mul)(&b, &r->X, sub ? &q->ymx : &q->ypx);
	F(mul)(&c, &p->T, &q->T2d);
	F(mul)(&d, &p->Z, &q->Z);
	F(add)(&d, &d, &d);
	F(sub)(&r->X, &b, &a);
	F(add)(&r->Y, &b, &a);
	if (sub) {
		F(sub)(&r->Z, &d, &c);
		F(add)(&r->T, &d, &c);
	} else {
		F(add)(&r->Z, &d, &c);
		F(sub)(&r->T, &d, &c);
	}
}

/* The same with an affine addend (Z2 = 1, so D = 2 Z1); no branch. */
static ATTR void ge_madd(struct ge_p1p1 *r, const struct ge_p3 *p,
			 const struct ge_niels *q)
{
	FE a, b, c, d;

	F(add)(&r->X, &p->Y, &p->X);
	F(sub)(&r->Y, &p->Y, &p->X);
	F(mul)(&a, &r->Y, &q->ymx);
	F(mul)(&b, &r->X, &q->ypx);
	F(mul)(&c, &p->T, &q->xy2d);
	F(add)(&d, &p->Z, &p->Z);
	F(sub)(&r->X, &b, &a);
	F(add)(&r->Y, &b, &a);
	F(add)(&r->Z, &d, &c);
	F(sub)(&r->T, &d, &c);
}

static ATTR void ge_niels_load(struct ge_niels *r,
			       const struct ge25519_niels64 *t)
{
	F(from64)(&r->ypx, t->ypx);
	F(from64)(&r->ymx, t->ymx);
	F(from64)(&r->xy2d, t->xy2d);
}

/*
 * r = b * row[0] where row[j] = (j + 1) * P and -8 <= b <= 8, without a
 * secret-dependent branch or index: all eight entries are read, each
 * ANDed with a mask that is all ones only for the wanted one and ORed
 * into the result, which starts as the neutral (1, 1, 0) masked by b = 0;
 * exactly one mask is set.  An entry is twelve words, six SSE2 registers
 * (baseline on x86-64), so the accumulator never leaves registers.  The
 * negation -(x, y) = (-x, y) is then applied under a mask as well.
 */
static ATTR void ge_select(struct ge_niels *r,
			   const struct ge25519_niels64 row[8],
			   signed char b)
{
	u64 neg = (u64)(u8)b >> 7;
	/* |b| in two's complement: (b ^ -neg) + neg */
	u64 babs = ((u64)(s64)b ^ (0 - neg)) + neg;
	/* all ones when babs == 0, from (babs - 1) >> 63 */
	u64 none = 0 - ((babs - 1) >> 63);
	__m128i a0, a1, a2, a3, a4, a5, m;
	struct ge25519_niels64 t;
	FE minus;
	int j;

	a0 = _mm_set_epi64x(0, (long long)(none & 1));
	a1 = _mm_setzero_si128();
	a2 = a0;
	a3 = a1;
	a4 = a1;
	a5 = a1;
	for (j = 0; j < 8; j++) {
		const __m128i *e = (const __m128i *)&row[j];

		m = _mm_set1_epi64x((long long)(0 - (((babs ^ (u64)(j + 1)) -
						      1) >> 63)));
		a0 = _mm_or_si128(a0, _mm_and_si128(_mm_loadu_si128(e), m));
		a1 = _mm_or_si128(a1, _mm_and_si128(_mm_loadu_si128(e + 1), m));
		a2 = _mm_or_si128(a2, _mm_and_si128(_mm_loadu_si128(e + 2), m));
		a3 = _mm_or_si128(a3, _mm_and_si128(_mm_loadu_si128(e + 3), m));
		a4 = _mm_or_si128(a4, _mm_and_si128(_mm_loadu_si128(e + 4), m));
		a5 = _mm_or_si128(a5, _mm_and_si128(_mm_loadu_si128(e + 5), m));
	}
	_mm_storeu_si128((__m128i *)&t, a0);
	_mm_storeu_si128((__m128i *)&t + 1, a1);
	_mm_storeu_si128((__m128i *)&t + 2, a2);
	_mm_storeu_si128((__m128i *)&t + 3, a3);
	_mm_storeu_si128((__m128i *)&t + 4, a4);
	_mm_storeu_si128((__m128i *)&t + 5, a5);
	ge_niels_load(r, &t);
	F(cswap)(&r->ypx, &r->ymx, neg);
	F(neg)(&minus, &r->xy2d);
	F(cmov)(&r->xy2d, &minus, neg);
	memzero_explicit(&t, sizeof(t));
	memzero_explicit(&minus, sizeof(minus));
}

/*
 * h = a * B for a 256-bit little-endian a with a[31] <= 127, in constant
 * time.  a is rewritten in 64 signed radix-16 digits e[i] in [-8, 8]
 * (a = sum e[i] 16^i), so that
 *	a B = sum_odd e[i] 16^i B + sum_even e[i] 16^i B
 *	    = 16 (sum_k e[2k + 1] 256^k B) + sum_k e[2k] 256^k B,
 * and each term e 256^k B is one masked read of row k of the table.
 */
static ATTR void ge_scalarmult_base(struct ge_p3 *h, const u8 a[32])
{
	struct ge_p1p1 r;
	struct ge_p2 s;
	struct ge_niels t;
	signed char e[64], carry = 0;
	int i;

	for (i = 0; i < 32; i++) {
		e[2 * i] = a[i] & 15;
		e[2 * i + 1] = (a[i] >> 4) & 15;
	}
	/* digits 0..15 to -8..7, the excess carried up (arithmetic) */
	for (i = 0; i < 63; i++) {
		e[i] += carry;
		carry = (signed char)(e[i] + 8) >> 4;
		e[i] -= (signed char)(carry << 4);
	}
	e[63] += carry;

	ge_p3_0(h);
	for (i = 1; i < 64; i += 2) {
		ge_select(&t, ge25519_base_table[i / 2], e[i]);
		ge_madd(&r, h, &t);
		ge_p1p1_to_p3(h, &r);
	}
	ge_p3_dbl(&r, h);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p2(&s, &r);
	ge_p2_dbl(&r, &s);
	ge_p1p1_to_p3(h, &r);
	for (i = 0; i < 64; i += 2) {
		ge_select(&t, ge25519_base_table[i / 2], e[i]);
		ge_madd(&r, h, &t);
		ge_p1p1_to_p3(h, &r);
	}
	memzero_explicit(e, sizeof(e));
	memzero_explicit(&r, sizeof(r));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&t, sizeof(t));
}

/* RFC 8032 section 5.1.2: y, with bit 255 the parity of x. */
static ATTR void ge_encode(u8 s[32], const FE *X, const FE *Y, const FE *Z)
{
	FE zi, x, y;

	F(invert)(&zi, Z);
	F(mul)(&x, X, &zi);
	F(mul)(&y, Y, &zi);
	F(tobytes)(s, &y);
	s[31] ^= (u8)(F(isodd)(&x) << 7);
	memzero_explicit(&zi, sizeof(zi));
	memzero_explicit(&x, sizeof(x));
	memzero_explicit(&y, sizeof(y));
}

/* The Ed25519 public key: the encoding of a B, a clamped. */
static ATTR void PFX(ed25519_base)(u8 out[32], const u8 a[32])
{
	struct ge_p3 h;

	ge_scalarmult_base(&h, a);
	ge_encode(out, &h.X, &h.Y, &h.Z);
	memzero_explicit(&h, sizeof(h));
}

/*
 * X25519(k, 9) through Edwards: k is clamped as RFC 7748 says, P = k B
 * is computed on the Edwards curve (B corresponds to u = 9 under the
 * birational map of RFC 7748 section 4.1) and mapped to u = (1 + y) /
 * (1 - y) = (Z + Y) / (Z - Y).  k is a nonzero multiple of 8 below 8L,
 * so P is never the neutral point and Z - Y never 0.
 */
static ATTR void PFX(x25519_base)(u8 out[32], const u8 scalar[32])
{
	struct ge_p3 h;
	FE n, d;
	u8 k[32];

	memcpy(k, scalar, 32);
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
	ge_scalarmult_base(&h, k);
	F(add)(&n, &h.Z, &h.Y);
	F(sub)(&d, &h.Z, &h.Y);
	F(invert)(&d, &d);
	F(mul)(&n, &n, &d);
	F(tobytes)(out, &n);
	memzero_explicit(k, sizeof(k));
	memzero_explicit(&h, sizeof(h));
	memzero_explicit(&n, sizeof(n));
	memzero_explicit(&d, sizeof(d));
}

/*
 * RFC 8032 section 5.1.3 point decoding, variable-time (public keys):
 * y < p required; x^2 = (y^2 - 1) / (d y^2 + 1) is solved as x = u v^3
 * (u v^7)^((p - 5) / 8), corrected by sqrt(-1) when v x^2 = -u; no root,
 * or x = 0 with the sign bit set, fails.  -1 on failure.
 */
static ATTR int ge_decode(struct ge_p3 *h, const u8 s[32])
{
	static const u8 p_le[32] = {
		0xed, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
	};
	FE u, v, v3, x2, t, d;
	int i, sign = s[31] >> 7;

	/* y < p, comparing from the top byte with bit 255 masked */
	for (i = 31; i >= 0; i--) {
		u8 c = i == 31 ? s[i] & 0x7f : s[i];

		if (c < p_le[i])
			break;
		if (c > p_le[i])
			return -1;
	}
	if (i < 0)
		return -1;		/* y == p */

	F(frombytes)(&h->Y, s);
	F(1)(&h->Z);
	F(from64)(&d, c25519_d);
	F(sq)(&u, &h->Y);
	F(mul)(&v, &u, &d);
	F(sub)(&u, &u, &h->Z);		/* u = y^2 - 1 */
	F(add)(&v, &v, &h->Z);		/* v = d y^2 + 1 */
	F(sq)(&v3, &v);
	F(mul)(&v3, &v3, &v);		/* v^3 */
	F(sq)(&t, &v3);
	F(mul)(&t, &t, &v);
	F(mul)(&t, &t, &u);		/* u v^7 */
	F(pow22523)(&t, &t);
	F(mul)(&t, &t, &v3);
	F(mul)(&h->X, &t, &u);		/* x = u v^3 (u v^7)^((p-5)/8) */

	F(sq)(&x2, &h->X);
	F(mul)(&x2, &x2, &v);		/* v x^2 */
	F(sub)(&t, &x2, &u);
	if (!F(iszero)(&t)) {
		F(add)(&t, &x2, &u);
		if (!F(iszero)(&t))
			return -1;
		F(from64)(&t, c25519_sqrtm1);
		F(mul)(&h->X, &h->X, &t);
	}
	if (F(iszero)(&h->X) && sign)
		return -1;
	if (F(isodd)(&h->X) != sign)
		F(neg)(&h->X, &h->X);
	F(mul)(&h->T, &h->X, &h->Y);
	return 0;
}

/*
 * Width-w NAF of a 256-bit scalar: r[i] odd in (-2^(w-1), 2^(w-1)) or 0,
 * any two nonzero digits at least w apart, sum r[i] 2^i = s.  Each step
 * takes the scalar's low w bits as a signed digit when it is odd and
 * subtracts it, which leaves the next w - 1 bits zero.  Public data only:
 * the loop branches on the scalar.
 */
static void ge_wnaf(signed char r[257], const u8 s[32], int w)
{
	u64 k[5] = { 0 };
	int i, j;

	for (i = 0; i < 4; i++)
		k[i] = get_unaligned_le64(s + 8 * i);
	for (i = 0; i < 257; i++) {
		s64 d = 0;

		if (k[0] & 1) {
			d = (s64)(k[0] & ((1ULL << w) - 1));
			if (d >= (1LL << (w - 1)))
				d -= 1LL << w;
			/* k -= d: both signs, with carry/borrow across words */
			if (d > 0) {
				k[0] -= (u64)d;
			} else {
				u64 old = k[0];

				k[0] += (u64)-d;
				for (j = 1; j < 5 && k[j - 1] < old; j++) {
					old = k[j];
					k[j]++;
				}
			}
		}
		r[i] = (signed char)d;
		for (j = 0; j < 4; j++)
			k[j] = (k[j] >> 1) | (k[j + 1] << 63);
		k[4] >>= 1;
	}
}

#define GE_VERIFY_WA	5	/* window of the public key's NAF */
#define GE_VERIFY_WB	8	/* of B's: ge25519_base_odd holds 64 */

/*
 * out = the encoding of s B - h A for the encoded point @pub (RFC 8032
 * section 5.1.7, cofactorless), by interleaved wNAF: one doubling
 * chain, adding odd multiples of -A (computed here, 8 of them) and of B
 * (ge25519_base_odd).  Variable-time: every input is public.  -1 when
 * @pub does not decode.
 */
static ATTR int PFX(ed25519_dsm)(u8 out[32], const u8 pub[32],
				 const u8 h[32], const u8 s[32])
{
	struct ge_cached ai[1 << (GE_VERIFY_WA - 2)];
	struct ge_p3 a, a2, acc;
	struct ge_p1p1 t;
	struct ge_p2 r;
	struct ge_niels n;
	signed char hn[257], sn[257];
	int i;

	if (ge_decode(&a, pub))
		return -1;
	F(neg)(&a.X, &a.X);
	F(neg)(&a.T, &a.T);
	ge_wnaf(hn, h, GE_VERIFY_WA);
	ge_wnaf(sn, s, GE_VERIFY_WB);

	/* ai[k] = (2k + 1)(-A) */
	ge_p3_to_cached(&ai[0], &a);
	ge_p3_dbl(&t, &a);
	ge_p1p1_to_p3(&a2, &t);
	for (i = 1; i < (int)ARRAY_SIZE(ai); i++) {
		ge_add(&t, &a2, &ai[i - 1], 0);
		ge_p1p1_to_p3(&acc, &t);
		ge_p3_to_cached(&ai[i], &acc);
	}

	for (i = 256; i >= 0 && !hn[i] && !sn[i]; i--)
		;
	F(0)(&r.X);
	F(1)(&r.Y);
	F(1)(&r.Z);
	for (; i >= 0; i--) {
		ge_p2_dbl(&t, &r);
		if (hn[i] || sn[i]) {
			ge_p1p1_to_p3(&acc, &t);
			if (hn[i]) {
				int k = (hn[i] > 0 ? hn[i] : -hn[i]) / 2;

				ge_add(&t, &acc, &ai[k], hn[i] < 0);
				if (sn[i])
					ge_p1p1_to_p3(&acc, &t);
			}
			if (sn[i]) {
				int k = (sn[i] > 0 ? sn[i] : -sn[i]) / 2;

				ge_niels_load(&n, &ge25519_base_odd[k]);
				if (sn[i] < 0) {
					F(cswap)(&n.ypx, &n.ymx, 1);
					F(neg)(&n.xy2d, &n.xy2d);
				}
				ge_madd(&t, &acc, &n);
			}
		}
		ge_p1p1_to_p2(&r, &t);
	}
	ge_encode(out, &r.X, &r.Y, &r.Z);
	return 0;
}
