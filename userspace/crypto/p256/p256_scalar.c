// SPDX-License-Identifier: GPL-2.0
/*
 * p256_scalar.c - integers modulo the P-256 group order
 * n = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551,
 * for ECDSA (k^-1, r*d, s^-1) and key checks.
 *
 * Four 64-bit limbs, least significant first.  The arithmetic is
 * Montgomery's with R = 2^256 and is constant-time: private keys and
 * nonces go through it.  n has no special form, so the reduction is the
 * textbook word-by-word one with n' = -n^-1 mod 2^64.
 */
#include "p256/p256_internal.h"

const u64 p256_n[4] = {
	0xf3b9cac2fc632551ULL, 0xbce6faada7179e84ULL,
	0xffffffffffffffffULL, 0xffffffff00000000ULL,
};

/* -n^-1 mod 2^64 */
#define P256_N0	0xccd1c8aaee00bc4fULL

/* R^2 mod n */
static const u64 p256_n_r2[4] = {
	0x83244c95be79eea2ULL, 0x4699799c49bd6fa6ULL,
	0x2845b2392b6bec59ULL, 0x66e12d94f3d95620ULL,
};

void p256_from_be(u64 r[4], const u8 b[32])
{
	r[3] = get_unaligned_be64(b);
	r[2] = get_unaligned_be64(b + 8);
	r[1] = get_unaligned_be64(b + 16);
	r[0] = get_unaligned_be64(b + 24);
}

void p256_to_be(u8 b[32], const u64 a[4])
{
	put_unaligned_be64(a[3], b);
	put_unaligned_be64(a[2], b + 8);
	put_unaligned_be64(a[1], b + 16);
	put_unaligned_be64(a[0], b + 24);
}

/* The borrow of a - m, as a mask: all ones when a < m. */
u64 p256_lt_mask(const u64 a[4], const u64 m[4])
{
	unsigned __int128 x = 0;
	int i;

	for (i = 0; i < 4; i++)
		x = (unsigned __int128)a[i] - m[i] - ((u64)(x >> 64) & 1);
	return 0 - ((u64)(x >> 64) & 1);
}

u64 p256_sc_valid_mask(const u64 a[4])
{
	u64 z = a[0] | a[1] | a[2] | a[3];

	z = 0 - ((z | (0 - z)) >> 63);		/* nonzero */
	return z & p256_lt_mask(a, p256_n);
}

/* r = (c:s) - n when that is not negative, else s; (c:s) < 2n. */
static inline void sc_final_sub(u64 r[4], const u64 s[4], u64 c)
{
	unsigned __int128 x = 0;
	u64 d[4], keep;
	int i;

	for (i = 0; i < 4; i++) {
		x = (unsigned __int128)s[i] - p256_n[i] -
		    ((u64)(x >> 64) & 1);
		d[i] = (u64)x;
	}
	keep = 0 - (((u64)(x >> 64) & 1) & (c ^ 1));
	for (i = 0; i < 4; i++)
		r[i] = (s[i] & keep) | (d[i] & ~keep);
}

void p256_sc_reduce_once(u64 r[4], const u64 a[4])
{
	sc_final_sub(r, a, 0);
}

void p256_sc_from_digest(u64 r[4], const u8 *digest, size_t len)
{
	u8 buf[32] = { 0 };

	/* bits2int: the leftmost 256 bits, right-aligned when shorter. */
	if (len > 32)
		len = 32;
	if (len)
		memcpy(buf + 32 - len, digest, len);
	p256_from_be(r, buf);
	p256_sc_reduce_once(r, r);
	memzero_explicit(buf, sizeof(buf));
}

/*
 * Montgomery product r = a*b/R mod n for a < 2^256, b < n: the 512-bit
 * product, then four rounds of m = v0 * n' mod 2^64, v = (v + m*n)/2^64
 * on its low half (which stays below 2^256: v + m*n < 2^256 + 2^64 n),
 * then the high half added; the total is below 2n.
 */
void p256_sc_mul_generic(u64 r[4], const u64 a[4], const u64 b[4])
{
	unsigned __int128 x;
	u64 t[8] = { 0 }, v[4], m, c;
	int i, j;

	for (i = 0; i < 4; i++) {
		c = 0;
		for (j = 0; j < 4; j++) {
			x = (unsigned __int128)a[j] * b[i] + t[i + j] + c;
			t[i + j] = (u64)x;
			c = (u64)(x >> 64);
		}
		t[i + 4] = c;
	}
	memcpy(v, t, sizeof(v));
	for (i = 0; i < 4; i++) {
		m = v[0] * P256_N0;
		x = (unsigned __int128)m * p256_n[0] + v[0];
		c = (u64)(x >> 64);
		for (j = 1; j < 4; j++) {
			x = (unsigned __int128)m * p256_n[j] + v[j] + c;
			v[j - 1] = (u64)x;
			c = (u64)(x >> 64);
		}
		v[3] = c;
	}
	x = 0;
	for (i = 0; i < 4; i++) {
		x = (unsigned __int128)v[i] + t[i + 4] + (u64)(x >> 64);
		v[i] = (u64)x;
	}
	sc_final_sub(r, v, (u64)(x >> 64));
	memzero_explicit(t, sizeof(t));
	memzero_explicit(v, sizeof(v));
}

/*
 * The same product with MULX/ADCX/ADOX (BMI2, ADX): operand scanning
 * interleaved with the reduction, five accumulator words in registers.
 * A row adds a * b[i] along two carry chains (ADCX for the low halves of
 * the products, ADOX for the high halves); a reduction step computes
 * m = t0 * n' (IMUL), adds m * n the same way and drops the zero low
 * word, both chains' carries out becoming the new top word.  Before a
 * row t < 2n, and t + a*b[i] < 2^320: five words suffice.  At the end
 * t < 2n: t - n is computed and CMOV keeps t when that borrowed.
 */
void p256_sc_mul_adx(u64 r[4], const u64 a[4], const u64 b[4])
{
	static const u64 n0 = P256_N0;
	u64 t0, t1, t2, t3, t4, lo, hi, zr, rd;

	__asm__(
		"movq 0(%[b]), %%rdx\n\t"
		"mulxq 0(%[a]), %[t0], %[t1]\n\t"
		"mulxq 8(%[a]), %[lo], %[t2]\n\t"
		"addq %[lo], %[t1]\n\t"
		"mulxq 16(%[a]), %[lo], %[t3]\n\t"
		"adcq %[lo], %[t2]\n\t"
		"mulxq 24(%[a]), %[lo], %[t4]\n\t"
		"adcq %[lo], %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"movq %[t0], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[hi], %[t1]\n\t"
		"mulxq 8(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[hi], %[t2]\n\t"
		"mulxq 16(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[hi], %[t3]\n\t"
		"mulxq 24(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"movl $0, %k[t0]\n\t"
		"adoxq %[zr], %[t0]\n\t"
		"adcxq %[zr], %[t4]\n\t"
		"adcxq %[zr], %[t0]\n\t"
		"movq 8(%[b]), %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[hi], %[t2]\n\t"
		"mulxq 8(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[hi], %[t3]\n\t"
		"mulxq 16(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"mulxq 24(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[hi], %[t0]\n\t"
		"adcxq %[zr], %[t0]\n\t"
		"movq %[t1], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[hi], %[t2]\n\t"
		"mulxq 8(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[hi], %[t3]\n\t"
		"mulxq 16(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"mulxq 24(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[hi], %[t0]\n\t"
		"movl $0, %k[t1]\n\t"
		"adoxq %[zr], %[t1]\n\t"
		"adcxq %[zr], %[t0]\n\t"
		"adcxq %[zr], %[t1]\n\t"
		"movq 16(%[b]), %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[hi], %[t3]\n\t"
		"mulxq 8(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"mulxq 16(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[hi], %[t0]\n\t"
		"mulxq 24(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[hi], %[t1]\n\t"
		"adcxq %[zr], %[t1]\n\t"
		"movq %[t2], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[hi], %[t3]\n\t"
		"mulxq 8(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"mulxq 16(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[hi], %[t0]\n\t"
		"mulxq 24(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[hi], %[t1]\n\t"
		"movl $0, %k[t2]\n\t"
		"adoxq %[zr], %[t2]\n\t"
		"adcxq %[zr], %[t1]\n\t"
		"adcxq %[zr], %[t2]\n\t"
		"movq 24(%[b]), %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"mulxq 8(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[hi], %[t0]\n\t"
		"mulxq 16(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[hi], %[t1]\n\t"
		"mulxq 24(%[a]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[hi], %[t2]\n\t"
		"adcxq %[zr], %[t2]\n\t"
		"movq %[t3], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 0(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[hi], %[t4]\n\t"
		"mulxq 8(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[hi], %[t0]\n\t"
		"mulxq 16(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[hi], %[t1]\n\t"
		"mulxq 24(%[n]), %[lo], %[hi]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[hi], %[t2]\n\t"
		"movl $0, %k[t3]\n\t"
		"adoxq %[zr], %[t3]\n\t"
		"adcxq %[zr], %[t2]\n\t"
		"adcxq %[zr], %[t3]\n\t"
		"movq %[t4], %[lo]\n\t"
		"movq %[t0], %[hi]\n\t"
		"movq %[t1], %[zr]\n\t"
		"movq %[t2], %%rdx\n\t"
		"subq 0(%[n]), %[lo]\n\t"
		"sbbq 8(%[n]), %[hi]\n\t"
		"sbbq 16(%[n]), %[zr]\n\t"
		"sbbq 24(%[n]), %%rdx\n\t"
		"sbbq $0, %[t3]\n\t"
		"cmovcq %[t4], %[lo]\n\t"
		"cmovcq %[t0], %[hi]\n\t"
		"cmovcq %[t1], %[zr]\n\t"
		"cmovcq %[t2], %%rdx\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo),
		  [hi] "=&r"(hi), [zr] "=&r"(zr), "=&d"(rd)
		: [a] "r"(a), [b] "r"(b), [n] "r"(p256_n), [n0] "m"(n0),
		  "m"(*(const u64 (*)[4])a), "m"(*(const u64 (*)[4])b),
		  "m"(*(const u64 (*)[4])p256_n)
		: "cc");
	r[0] = lo;
	r[1] = hi;
	r[2] = zr;
	r[3] = rd;
}

/*
 * r = a^2 / R mod n: the cross products once, doubled while the squares
 * are added (ADCX/ADOX), 512 bits in registers; the low half is reduced
 * word by word (m = t0 * n', t += m*n, which stays below 2^256 since
 * t_lo + m*n < 2^256 + 2^64 n), the high half added, n subtracted under
 * CMOV.
 */
void p256_sc_sqr_adx(u64 r[4], const u64 a[4])
{
	static const u64 n0 = P256_N0;
	u64 t0, t1, t2, t3, t4, t5, t6, t7, lo, zr, rd;
	const u64 *ap = a;

	/*
	 * Twelve registers (clang's sanitizer builds have no more): t7 is
	 * the product's high-half scratch until a3^2 lands in it, and the
	 * input pointer, dead after the product, the reduction's.
	 */
	__asm__(
		"movq 0(%[a]), %%rdx\n\t"
		"mulxq 8(%[a]), %[t1], %[t2]\n\t"
		"mulxq 16(%[a]), %[lo], %[t3]\n\t"
		"addq %[lo], %[t2]\n\t"
		"mulxq 24(%[a]), %[lo], %[t4]\n\t"
		"adcq %[lo], %[t3]\n\t"
		"adcq $0, %[t4]\n\t"
		"movq 8(%[a]), %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq 16(%[a]), %[lo], %[t7]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[t7], %[t4]\n\t"
		"mulxq 24(%[a]), %[lo], %[t5]\n\t"
		"adcxq %[lo], %[t4]\n\t"
		"adoxq %[zr], %[t5]\n\t"
		"adcxq %[zr], %[t5]\n\t"
		"movq 16(%[a]), %%rdx\n\t"
		"mulxq 24(%[a]), %[lo], %[t6]\n\t"
		"addq %[lo], %[t5]\n\t"
		"adcq $0, %[t6]\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"movq 0(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[t0], %[t7]\n\t"
		"adcxq %[t1], %[t1]\n\t"
		"adoxq %[t7], %[t1]\n\t"
		"movq 8(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[lo], %[t7]\n\t"
		"adcxq %[t2], %[t2]\n\t"
		"adoxq %[lo], %[t2]\n\t"
		"adcxq %[t3], %[t3]\n\t"
		"adoxq %[t7], %[t3]\n\t"
		"movq 16(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[lo], %[t7]\n\t"
		"adcxq %[t4], %[t4]\n\t"
		"adoxq %[lo], %[t4]\n\t"
		"adcxq %[t5], %[t5]\n\t"
		"adoxq %[t7], %[t5]\n\t"
		"movq 24(%[a]), %%rdx\n\t"
		"mulxq %%rdx, %[lo], %[t7]\n\t"
		"adcxq %[t6], %[t6]\n\t"
		"adoxq %[lo], %[t6]\n\t"
		"adcxq %[zr], %[t7]\n\t"
		"adoxq %[zr], %[t7]\n\t"
		"movq %[t0], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq %[m0], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[a], %[t1]\n\t"
		"mulxq %[m1], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[a], %[t2]\n\t"
		"mulxq %[m2], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[a], %[t3]\n\t"
		"mulxq %[m3], %[lo], %[t0]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[zr], %[t0]\n\t"
		"adcxq %[zr], %[t0]\n\t"
		"movq %[t1], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq %[m0], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[a], %[t2]\n\t"
		"mulxq %[m1], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[a], %[t3]\n\t"
		"mulxq %[m2], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[a], %[t0]\n\t"
		"mulxq %[m3], %[lo], %[t1]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[zr], %[t1]\n\t"
		"adcxq %[zr], %[t1]\n\t"
		"movq %[t2], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq %[m0], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[a], %[t3]\n\t"
		"mulxq %[m1], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[a], %[t0]\n\t"
		"mulxq %[m2], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[a], %[t1]\n\t"
		"mulxq %[m3], %[lo], %[t2]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[zr], %[t2]\n\t"
		"adcxq %[zr], %[t2]\n\t"
		"movq %[t3], %%rdx\n\t"
		"imulq %[n0], %%rdx\n\t"
		"xorl %k[zr], %k[zr]\n\t"
		"mulxq %[m0], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t3]\n\t"
		"adoxq %[a], %[t0]\n\t"
		"mulxq %[m1], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t0]\n\t"
		"adoxq %[a], %[t1]\n\t"
		"mulxq %[m2], %[lo], %[a]\n\t"
		"adcxq %[lo], %[t1]\n\t"
		"adoxq %[a], %[t2]\n\t"
		"mulxq %[m3], %[lo], %[t3]\n\t"
		"adcxq %[lo], %[t2]\n\t"
		"adoxq %[zr], %[t3]\n\t"
		"adcxq %[zr], %[t3]\n\t"
		"addq %[t4], %[t0]\n\t"
		"adcq %[t5], %[t1]\n\t"
		"adcq %[t6], %[t2]\n\t"
		"adcq %[t7], %[t3]\n\t"
		"movl $0, %k[t4]\n\t"
		"adcq $0, %[t4]\n\t"
		"movq %[t0], %[lo]\n\t"
		"movq %[t1], %[t5]\n\t"
		"movq %[t2], %[zr]\n\t"
		"movq %[t3], %%rdx\n\t"
		"subq %[m0], %[lo]\n\t"
		"sbbq %[m1], %[t5]\n\t"
		"sbbq %[m2], %[zr]\n\t"
		"sbbq %[m3], %%rdx\n\t"
		"sbbq $0, %[t4]\n\t"
		"cmovcq %[t0], %[lo]\n\t"
		"cmovcq %[t1], %[t5]\n\t"
		"cmovcq %[t2], %[zr]\n\t"
		"cmovcq %[t3], %%rdx\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
		  [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo),
		  [zr] "=&r"(zr), "=&d"(rd), [a] "+r"(ap)
		: [n0] "m"(n0), [m0] "m"(p256_n[0]),
		  [m1] "m"(p256_n[1]), [m2] "m"(p256_n[2]),
		  [m3] "m"(p256_n[3]), "m"(*(const u64 (*)[4])a)
		: "cc");
	r[0] = lo;
	r[1] = t5;
	r[2] = zr;
	r[3] = rd;
}

void p256_sc_sqr_generic(u64 r[4], const u64 a[4])
{
	p256_sc_mul_generic(r, a, a);
}

void p256_sc_mul(u64 r[4], const u64 a[4], const u64 b[4])
{
	if (p256_use_adx())
		p256_sc_mul_adx(r, a, b);
	else
		p256_sc_mul_generic(r, a, b);
}

void p256_sc_to_mont(u64 r[4], const u64 a[4])
{
	p256_sc_mul(r, a, p256_n_r2);
}

void p256_sc_from_mont(u64 r[4], const u64 a[4])
{
	static const u64 one[4] = { 1 };

	p256_sc_mul(r, a, one);
}

void p256_sc_add(u64 r[4], const u64 a[4], const u64 b[4])
{
	unsigned __int128 x = 0;
	u64 s[4];
	int i;

	for (i = 0; i < 4; i++) {
		x = (unsigned __int128)a[i] + b[i] + (u64)(x >> 64);
		s[i] = (u64)x;
	}
	sc_final_sub(r, s, (u64)(x >> 64));
}

struct sc_ops {
	void (*mul)(u64 r[4], const u64 a[4], const u64 b[4]);
	void (*sqr)(u64 r[4], const u64 a[4]);
};

static void sc_sqr_n(const struct sc_ops *o, u64 r[4], const u64 a[4],
		     int n)
{
	int i;

	o->sqr(r, a);
	for (i = 1; i < n; i++)
		o->sqr(r, r);
}

/*
 * a^(n-2) (Fermat).  The exponent is public, so its shape may steer the
 * computation without revealing anything about a:
 *	n - 2 = ffffffff 00000000 ffffffff ffffffff || L (128 bits).
 * The top half comes from x_k = a^(2^k - 1) (x_{2k} = x_k^(2^k) x_k) up
 * to x32, shifted in; the low half L by a left-to-right sliding window
 * of up to four bits over the odd powers a, a^3, .., a^15.  255
 * squarings and 40-odd multiplications.
 */
void p256_sc_inv_mont(u64 r[4], const u64 a[4])
{
	static const u64 low[2] = {	/* L */
		0xf3b9cac2fc63254fULL, 0xbce6faada7179e84ULL,
	};
	struct sc_ops o;
	u64 odd[8][4], a2[4], x2[4], x4[4], x8[4], x16[4], x32[4], t[4];
	int i, l, k, w;

	if (p256_use_adx()) {
		o.mul = p256_sc_mul_adx;
		o.sqr = p256_sc_sqr_adx;
	} else {
		o.mul = p256_sc_mul_generic;
		o.sqr = p256_sc_sqr_generic;
	}
	o.sqr(t, a);
	o.mul(x2, t, a);
	sc_sqr_n(&o, t, x2, 2);
	o.mul(x4, t, x2);
	sc_sqr_n(&o, t, x4, 4);
	o.mul(x8, t, x4);
	sc_sqr_n(&o, t, x8, 8);
	o.mul(x16, t, x8);
	sc_sqr_n(&o, t, x16, 16);
	o.mul(x32, t, x16);
	sc_sqr_n(&o, t, x32, 64);
	o.mul(t, t, x32);
	sc_sqr_n(&o, t, t, 32);
	o.mul(t, t, x32);

	memcpy(odd[0], a, sizeof(odd[0]));
	o.sqr(a2, a);
	for (i = 1; i < 8; i++)
		o.mul(odd[i], odd[i - 1], a2);
	for (i = 127; i >= 0;) {
		if (!((low[i / 64] >> (i % 64)) & 1)) {
			o.sqr(t, t);
			i--;
			continue;
		}
		/* the window i..l: at most four bits, ending in a one */
		l = i - 3 < 0 ? 0 : i - 3;
		while (!((low[l / 64] >> (l % 64)) & 1))
			l++;
		for (w = 0, k = i; k >= l; k--)
			w = (w << 1) | (int)((low[k / 64] >> (k % 64)) & 1);
		sc_sqr_n(&o, t, t, i - l + 1);
		o.mul(t, t, odd[w / 2]);
		i = l - 1;
	}
	memcpy(r, t, sizeof(t));
	memzero_explicit(odd, sizeof(odd));
	memzero_explicit(a2, sizeof(a2));
	memzero_explicit(x2, sizeof(x2));
	memzero_explicit(x4, sizeof(x4));
	memzero_explicit(x8, sizeof(x8));
	memzero_explicit(x16, sizeof(x16));
	memzero_explicit(x32, sizeof(x32));
	memzero_explicit(t, sizeof(t));
}
