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

#include "platform.h"

static const u64 p256_adx_p1 = 0x00000000ffffffffULL;
static const u64 p256_adx_p3 = 0xffffffff00000001ULL;

static inline void p256_fe_mul_adx(u64 r[4], const u64 a[4],
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

static inline void p256_fe_sqr_adx(u64 r[4], const u64 a[4])
{
	p256_fe_mul_adx(r, a, a);
}

#endif /* TLSX_P256_FIELD_ADX_H */
