/* SPDX-License-Identifier: GPL-2.0 */
/*
 * p256_field_adx.h - the P-256 Montgomery multiplication with MULX, ADCX
 * and ADOX (BMI2 and ADX), for p256_curve_adx.c; same contract as
 * p256_fe_mul_generic() in p256_field.h (a*b/R mod p, inputs below p,
 * output fully reduced), constant-time (no branch, fixed instructions).
 *
 * Operand scanning interleaved with the reduction (CIOS), five words of
 * accumulator t4:t0 in registers:
 *  - a row adds a * b[i]: MULX gives each 128-bit partial product
 *    without touching the flags, ADCX carries the low halves and ADOX
 *    the high halves along two independent carry chains;
 *  - a reduction step adds m*p with m = t0 (p = -1 mod 2^64) and drops
 *    the low word: by p's form that is t += m*2^96 + m*(2^64 - 2^32 + 1)
 *    * 2^192 then a shift, i.e. (m << 32, m >> 32) added at words 1-2
 *    and one MULX by p's top word added at words 3-4; the carry out
 *    becomes the new top word (the roles of the registers rotate).
 * After four rows and four reductions t < 2p (t4 is 0 or 1); t - p is
 * computed and CMOV keeps t when it borrowed.  The bound that makes five
 * words enough: before a row t < 2p, and t + a*b[i] < 2p + 2^64 p <
 * 2^320.
 */
#ifndef TLSX_P256_FIELD_ADX_H
#define TLSX_P256_FIELD_ADX_H

#include "aead/platform.h"

static const u64 p256_adx_p1 = 0x00000000ffffffffULL;
static const u64 p256_adx_p3 = 0xffffffff00000001ULL;

static __always_inline void p256_fe_mul_adx(u64 r[4], const u64 a[4],
				   const u64 b[4])
{
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
		"movq %[t0], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t0]\n\t"
		"addq %[lo], %[t1]\n\t"
		"adcq %[t0], %[t2]\n\t"
		"mulxq %[p3], %[lo], %[t0]\n\t"
		"adcq %[lo], %[t3]\n\t"
		"adcq %[t0], %[t4]\n\t"
		"movl $0, %k[t0]\n\t"
		"adcq $0, %[t0]\n\t"
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
		"movq %[t1], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t1]\n\t"
		"addq %[lo], %[t2]\n\t"
		"adcq %[t1], %[t3]\n\t"
		"mulxq %[p3], %[lo], %[t1]\n\t"
		"adcq %[lo], %[t4]\n\t"
		"adcq %[t1], %[t0]\n\t"
		"movl $0, %k[t1]\n\t"
		"adcq $0, %[t1]\n\t"
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
		"movq %[t2], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t2]\n\t"
		"addq %[lo], %[t3]\n\t"
		"adcq %[t2], %[t4]\n\t"
		"mulxq %[p3], %[lo], %[t2]\n\t"
		"adcq %[lo], %[t0]\n\t"
		"adcq %[t2], %[t1]\n\t"
		"movl $0, %k[t2]\n\t"
		"adcq $0, %[t2]\n\t"
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
		"movq %[t3], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t3]\n\t"
		"addq %[lo], %[t4]\n\t"
		"adcq %[t3], %[t0]\n\t"
		"mulxq %[p3], %[lo], %[t3]\n\t"
		"adcq %[lo], %[t1]\n\t"
		"adcq %[t3], %[t2]\n\t"
		"movl $0, %k[t3]\n\t"
		"adcq $0, %[t3]\n\t"
		"movq %[t4], %[lo]\n\t"
		"movq %[t0], %[hi]\n\t"
		"movq %[t1], %[zr]\n\t"
		"movq %[t2], %%rdx\n\t"
		"subq $-1, %[lo]\n\t"
		"sbbq %[p1], %[hi]\n\t"
		"sbbq $0, %[zr]\n\t"
		"sbbq %[p3], %%rdx\n\t"
		"sbbq $0, %[t3]\n\t"
		"cmovcq %[t4], %[lo]\n\t"
		"cmovcq %[t0], %[hi]\n\t"
		"cmovcq %[t1], %[zr]\n\t"
		"cmovcq %[t2], %%rdx\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo),
		  [hi] "=&r"(hi), [zr] "=&r"(zr), "=&d"(rd)
		: [a] "r"(a), [b] "r"(b), [p1] "m"(p256_adx_p1),
		  [p3] "m"(p256_adx_p3),
		  "m"(*(const u64 (*)[4])a), "m"(*(const u64 (*)[4])b)
		: "cc");
	r[0] = lo;
	r[1] = hi;
	r[2] = zr;
	r[3] = rd;
}

/*
 * r = a^2 / R mod p: the six cross products a_i a_j (i < j) once, then
 * one pass that doubles them (ADCX t, t) while adding the four squares
 * (ADOX), 512 bits in t7:t0; the low half is reduced word by word as in
 * p256_fe_mont_reduce() (m = t0, (m << 32, m >> 32) at words 1-2, m
 * times p's top word at words 3-4), which leaves it below 2^256, then
 * the high half is added and one conditional subtraction of p ends it.
 */
static __always_inline void p256_fe_sqr_adx(u64 r[4], const u64 a[4])
{
	u64 t0, t1, t2, t3, t4, t5, t6, t7, lo, zr, rd;

	/* t7 serves as the high-half scratch until a3^2 is written to it. */
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
		"movq %[t0], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t0]\n\t"
		"addq %[lo], %[t1]\n\t"
		"adcq %[t0], %[t2]\n\t"
		"mulxq %[p3], %[lo], %[t0]\n\t"
		"adcq %[lo], %[t3]\n\t"
		"adcq $0, %[t0]\n\t"
		"movq %[t1], %%rdx\n\t"
		"movq %[t1], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t1]\n\t"
		"addq %[lo], %[t2]\n\t"
		"adcq %[t1], %[t3]\n\t"
		"mulxq %[p3], %[lo], %[t1]\n\t"
		"adcq %[lo], %[t0]\n\t"
		"adcq $0, %[t1]\n\t"
		"movq %[t2], %%rdx\n\t"
		"movq %[t2], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t2]\n\t"
		"addq %[lo], %[t3]\n\t"
		"adcq %[t2], %[t0]\n\t"
		"mulxq %[p3], %[lo], %[t2]\n\t"
		"adcq %[lo], %[t1]\n\t"
		"adcq $0, %[t2]\n\t"
		"movq %[t3], %%rdx\n\t"
		"movq %[t3], %[lo]\n\t"
		"shlq $32, %[lo]\n\t"
		"shrq $32, %[t3]\n\t"
		"addq %[lo], %[t0]\n\t"
		"adcq %[t3], %[t1]\n\t"
		"mulxq %[p3], %[lo], %[t3]\n\t"
		"adcq %[lo], %[t2]\n\t"
		"adcq $0, %[t3]\n\t"
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
		"subq $-1, %[lo]\n\t"
		"sbbq %[p1], %[t5]\n\t"
		"sbbq $0, %[zr]\n\t"
		"sbbq %[p3], %%rdx\n\t"
		"sbbq $0, %[t4]\n\t"
		"cmovcq %[t0], %[lo]\n\t"
		"cmovcq %[t1], %[t5]\n\t"
		"cmovcq %[t2], %[zr]\n\t"
		"cmovcq %[t3], %%rdx\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
		  [t6] "=&r"(t6), [t7] "=&r"(t7), [lo] "=&r"(lo),
		  [zr] "=&r"(zr), "=&d"(rd)
		: [a] "r"(a), [p1] "m"(p256_adx_p1), [p3] "m"(p256_adx_p3),
		  "m"(*(const u64 (*)[4])a)
		: "cc");
	r[0] = lo;
	r[1] = t5;
	r[2] = zr;
	r[3] = rd;
}

/* r = a + b mod p: add with carry, subtract p, keep the sum on borrow. */
static __always_inline void p256_fe_add_adx(u64 r[4], const u64 a[4],
					    const u64 b[4])
{
	u64 t0, t1, t2, t3, u0, u1, u2, u3, c;

	__asm__(
		"movq 0(%[a]), %[t0]\n\t"
		"movq 8(%[a]), %[t1]\n\t"
		"movq 16(%[a]), %[t2]\n\t"
		"movq 24(%[a]), %[t3]\n\t"
		"xorl %k[c], %k[c]\n\t"
		"addq 0(%[b]), %[t0]\n\t"
		"adcq 8(%[b]), %[t1]\n\t"
		"adcq 16(%[b]), %[t2]\n\t"
		"adcq 24(%[b]), %[t3]\n\t"
		"adcq $0, %[c]\n\t"
		"movq %[t0], %[u0]\n\t"
		"movq %[t1], %[u1]\n\t"
		"movq %[t2], %[u2]\n\t"
		"movq %[t3], %[u3]\n\t"
		"subq $-1, %[u0]\n\t"
		"sbbq %[p1], %[u1]\n\t"
		"sbbq $0, %[u2]\n\t"
		"sbbq %[p3], %[u3]\n\t"
		"sbbq $0, %[c]\n\t"
		"cmovcq %[t0], %[u0]\n\t"
		"cmovcq %[t1], %[u1]\n\t"
		"cmovcq %[t2], %[u2]\n\t"
		"cmovcq %[t3], %[u3]\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [u0] "=&r"(u0), [u1] "=&r"(u1),
		  [u2] "=&r"(u2), [u3] "=&r"(u3), [c] "=&r"(c)
		: [a] "r"(a), [b] "r"(b), [p1] "m"(p256_adx_p1),
		  [p3] "m"(p256_adx_p3),
		  "m"(*(const u64 (*)[4])a), "m"(*(const u64 (*)[4])b)
		: "cc");
	r[0] = u0;
	r[1] = u1;
	r[2] = u2;
	r[3] = u3;
}

/*
 * r = a - b mod p: subtract with borrow, turn the borrow into a mask m
 * (SBB m, m) and add p & m, whose words are m, m >> 32, 0 and
 * m & p3.
 */
static __always_inline void p256_fe_sub_adx(u64 r[4], const u64 a[4],
					    const u64 b[4])
{
	u64 t0, t1, t2, t3, m, u1, u3;

	__asm__(
		"movq 0(%[a]), %[t0]\n\t"
		"movq 8(%[a]), %[t1]\n\t"
		"movq 16(%[a]), %[t2]\n\t"
		"movq 24(%[a]), %[t3]\n\t"
		"subq 0(%[b]), %[t0]\n\t"
		"sbbq 8(%[b]), %[t1]\n\t"
		"sbbq 16(%[b]), %[t2]\n\t"
		"sbbq 24(%[b]), %[t3]\n\t"
		"sbbq %[m], %[m]\n\t"
		"movq %[m], %[u1]\n\t"
		"shrq $32, %[u1]\n\t"
		"movq %[m], %[u3]\n\t"
		"andq %[p3], %[u3]\n\t"
		"addq %[m], %[t0]\n\t"
		"adcq %[u1], %[t1]\n\t"
		"adcq $0, %[t2]\n\t"
		"adcq %[u3], %[t3]\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [m] "=&r"(m), [u1] "=&r"(u1),
		  [u3] "=&r"(u3)
		: [a] "r"(a), [b] "r"(b), [p3] "m"(p256_adx_p3),
		  "m"(*(const u64 (*)[4])a), "m"(*(const u64 (*)[4])b)
		: "cc");
	r[0] = t0;
	r[1] = t1;
	r[2] = t2;
	r[3] = t3;
}

/* r = a / 2 mod p: add p & -(a & 1), shift the 257-bit sum right. */
static __always_inline void p256_fe_half_adx(u64 r[4], const u64 a[4])
{
	u64 t0, t1, t2, t3, m, u1, u3;

	__asm__(
		"movq 0(%[a]), %[t0]\n\t"
		"movq 8(%[a]), %[t1]\n\t"
		"movq 16(%[a]), %[t2]\n\t"
		"movq 24(%[a]), %[t3]\n\t"
		"movq %[t0], %[m]\n\t"
		"andq $1, %[m]\n\t"
		"negq %[m]\n\t"
		"movq %[m], %[u1]\n\t"
		"shrq $32, %[u1]\n\t"
		"movq %[m], %[u3]\n\t"
		"andq %[p3], %[u3]\n\t"
		"addq %[m], %[t0]\n\t"
		"adcq %[u1], %[t1]\n\t"
		"adcq $0, %[t2]\n\t"
		"adcq %[u3], %[t3]\n\t"
		"movl $0, %k[m]\n\t"
		"adcq $0, %[m]\n\t"
		"shrdq $1, %[t1], %[t0]\n\t"
		"shrdq $1, %[t2], %[t1]\n\t"
		"shrdq $1, %[t3], %[t2]\n\t"
		"shrdq $1, %[m], %[t3]\n\t"
		: [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2),
		  [t3] "=&r"(t3), [m] "=&r"(m), [u1] "=&r"(u1),
		  [u3] "=&r"(u3)
		: [a] "r"(a), [p3] "m"(p256_adx_p3),
		  "m"(*(const u64 (*)[4])a)
		: "cc");
	r[0] = t0;
	r[1] = t1;
	r[2] = t2;
	r[3] = t3;
}

#endif /* TLSX_P256_FIELD_ADX_H */
