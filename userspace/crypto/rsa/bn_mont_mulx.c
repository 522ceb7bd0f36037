// SPDX-License-Identifier: GPL-2.0
/*
 * bn_mont_mulx.c - Montgomery multiplication with MULX, ADCX and ADOX
 * (BMI2 + ADX), for the limb counts RSA uses (16, 24, 32, 48 and 64:
 * the primes and moduli of 2048-, 3072- and 4096-bit keys); any other
 * count takes the portable code.
 *
 * CIOS as in bn_mont_generic.c: for each limb b_i of b,
 *	t <- t + a b_i				(pass 1)
 *	t <- (t + q m) / 2^64, q = t_0 m0inv	(pass 2)
 * Each pass is one unrolled run over the n limbs.  A limb's product
 * a_j b_i = hi:lo adds lo into limb j and hi into limb j + 1; ADCX
 * carries the first sum (CF) and ADOX the second (OF), two independent
 * carry chains, so the high half of the previous product and the low
 * half of this one go into the same limb without waiting on each other.
 * MULX leaves the flags alone, which is what lets the chains run through
 * the whole pass.  The high halves alternate between r8 and r9.
 */
#include "rsa/bn_impl.h"

/*
 * One limb of pass 1 at offset J (bytes): t_j += lo + prev_hi.
 * rdx = b_i; PREV holds the previous high half, NEXT gets this one's.
 */
#define BN_P1_STEP(J, PREV, NEXT)					\
	"mulxq " J "(%[a]), %%rax, %%" NEXT "\n\t"			\
	"movq " J "(%[t]), %%r10\n\t"					\
	"adcxq %%rax, %%r10\n\t"					\
	"adoxq %%" PREV ", %%r10\n\t"					\
	"movq %%r10, " J "(%[t])\n\t"

/* One limb of pass 2: t_{j-1} = t_j + lo(q m_j) + prev_hi. */
#define BN_P2_STEP(J, PREV, NEXT)					\
	"mulxq " J "(%[m]), %%rax, %%" NEXT "\n\t"			\
	"movq " J "(%[t]), %%r10\n\t"					\
	"adcxq %%rax, %%r10\n\t"					\
	"adoxq %%" PREV ", %%r10\n\t"					\
	"movq %%r10, " J "-8(%[t])\n\t"

/* Pass 1: t[0..N+1] = t + a b_i (t[N+1] was 0). */
#define BN_PASS1(N)							\
	"xorl %%r8d, %%r8d\n\t"						\
	".set bnj, 0\n\t"							\
	".rept " #N " / 2\n\t"						\
	BN_P1_STEP("bnj*8", "r8", "r9")					\
	BN_P1_STEP("bnj*8+8", "r9", "r8")				\
	".set bnj, bnj + 2\n\t"						\
	".endr\n\t"							\
	"movq " #N "*8(%[t]), %%r10\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %%r10\n\t"						\
	"adoxq %%r8, %%r10\n\t"						\
	"movq %%r10, " #N "*8(%[t])\n\t"					\
	"movl $0, %%r10d\n\t"						\
	"adcxq %%rax, %%r10\n\t"						\
	"adoxq %%rax, %%r10\n\t"						\
	"movq %%r10, " #N "*8+8(%[t])\n\t"

/*
 * Pass 2: q = t_0 m0inv makes t + q m divisible by 2^64; shift down one
 * limb as we go.  Limb 0's sum is zero: only its carry and high half go
 * on.
 */
#define BN_PASS2(N)							\
	"movq (%[t]), %%rdx\n\t"						\
	"imulq %[k], %%rdx\n\t"						\
	"xorl %%r8d, %%r8d\n\t"						\
	"mulxq (%[m]), %%rax, %%r9\n\t"					\
	"movq (%[t]), %%r10\n\t"						\
	"adcxq %%rax, %%r10\n\t"						\
	".set bnj, 8\n\t"							\
	".rept (" #N " - 2) / 2\n\t"					\
	BN_P2_STEP("bnj", "r9", "r8")					\
	BN_P2_STEP("bnj+8", "r8", "r9")					\
	".set bnj, bnj + 16\n\t"						\
	".endr\n\t"							\
	BN_P2_STEP("bnj", "r9", "r8")					\
	"movq " #N "*8(%[t]), %%r10\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %%r10\n\t"						\
	"adoxq %%r8, %%r10\n\t"						\
	"movq %%r10, " #N "*8-8(%[t])\n\t"					\
	"movq " #N "*8+8(%[t]), %%r10\n\t"				\
	"adcxq %%rax, %%r10\n\t"						\
	"adoxq %%rax, %%r10\n\t"						\
	"movq %%r10, " #N "*8(%[t])\n\t"

/* One round of CIOS for b_i, N limbs: both passes. */
#define BN_ROW(N)							\
__attribute__((target("bmi2,adx")))					\
static void bn_mulx_row_##N(u64 *t, const u64 *a, const u64 *m, u64 bi, \
			    u64 m0inv)					\
{									\
	__asm__ volatile(BN_PASS1(N)					\
			 :						\
			 : [a] "r"(a), [t] "r"(t), "d"(bi)		\
			 : "rax", "r8", "r9", "r10", "cc", "memory");	\
	__asm__ volatile(BN_PASS2(N)					\
			 :						\
			 : [m] "r"(m), [t] "r"(t), [k] "r"(m0inv)	\
			 : "rax", "rdx", "r8", "r9", "r10", "cc",	\
			   "memory");					\
}

BN_ROW(16)
BN_ROW(24)
BN_ROW(32)
BN_ROW(48)
BN_ROW(64)

static __always_inline void
bn_mulx_mul(u64 *r, const u64 *a, const u64 *b, const u64 *m, u64 m0inv,
	    size_t n, void (*row)(u64 *t, const u64 *a, const u64 *m, u64 bi,
				  u64 m0inv))
{
	u64 t[BN_MAX_LIMBS + 2];
	size_t i;

	memset(t, 0, (n + 2) * 8);
	for (i = 0; i < n; i++)
		row(t, a, m, b[i], m0inv);
	bn_mont_final_sub(r, t, t[n], m, n);
	memzero_explicit(t, (n + 2) * 8);
}

void bn_mont_mul_mulx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
		      u64 m0inv, size_t n)
{
	switch (n) {
	case 16:
		bn_mulx_mul(r, a, b, m, m0inv, 16, bn_mulx_row_16);
		break;
	case 24:
		bn_mulx_mul(r, a, b, m, m0inv, 24, bn_mulx_row_24);
		break;
	case 32:
		bn_mulx_mul(r, a, b, m, m0inv, 32, bn_mulx_row_32);
		break;
	case 48:
		bn_mulx_mul(r, a, b, m, m0inv, 48, bn_mulx_row_48);
		break;
	case 64:
		bn_mulx_mul(r, a, b, m, m0inv, 64, bn_mulx_row_64);
		break;
	default:
		bn_mont_mul_generic(r, a, b, m, m0inv, n);
	}
}
