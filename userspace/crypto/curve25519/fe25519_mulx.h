/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fe25519_mulx.h - GF(2^255 - 19) in four 64-bit limbs with BMI2 (MULX)
 * and ADX (ADCX/ADOX): the arithmetic as inline assembly, so that the
 * ladder and the group formulas (c25519_mulx.c, the only includer) run
 * without a call, a register save or an argument shuffle per operation.
 * Include only from code that runs after checking tlsx_cpu_features()
 * for bmi2 and adx (c25519_impl.c does).
 *
 * Representation: any 256-bit value f, standing for f mod p.  All
 * arithmetic is modulo 2p = 2^256 - 38 (so 2^256 = 38), which keeps
 * every result below 2^256 with one cheap fold; only fe64_tobytes()
 * (fe25519_mulx.c) reduces fully, mod p.
 *
 * Why assembly: the schoolbook product wants two independent carry
 * chains at once, low halves of the partial products on CF (ADCX) and
 * high halves on OF (ADOX), with MULX leaving the flags alone in
 * between; compilers turn _addcarryx_u64() into one serial ADC chain.
 * The operands are pointers in registers (at most three, which fits
 * beside the fixed work registers rax, rbx, rdx, r8-r15 even at -O0 or
 * with a frame pointer) and the asm reads and writes the limbs through
 * them ("memory" clobbered).  The limb loads all precede the stores, so
 * the output may alias an input.  Nothing branches or indexes on a value.
 */
#ifndef TLSX_FE25519_MULX_H
#define TLSX_FE25519_MULX_H

#include <emmintrin.h>

#include "curve25519/fe25519.h"

/* A zero the asm can add with carry as a memory operand (no register). */
static const u64 fe64_zero_word;


/*
 * The shared end of mul and sq: r8..r11 + 38 * r12..r15 mod 2^256 - 38.
 * Four MULXs by 38 on the two chains leave a top word below 40 in r12;
 * 38 times it goes in along one ADC chain, and the final carry (at most
 * 1) once more as 38 into a word that then cannot carry; then stored
 * to h.
 */
#define FE64_REDUCE_STORE					\
	"movl	$38, %%edx\n\t"					\
	"xorl	%%eax, %%eax\n\t"				\
	"mulxq	%%r12, %%rax, %%rbx\n\t"			\
	"adcxq	%%rax, %%r8\n\t"				\
	"adoxq	%%rbx, %%r9\n\t"				\
	"mulxq	%%r13, %%rax, %%rbx\n\t"			\
	"adcxq	%%rax, %%r9\n\t"				\
	"adoxq	%%rbx, %%r10\n\t"				\
	"mulxq	%%r14, %%rax, %%rbx\n\t"			\
	"adcxq	%%rax, %%r10\n\t"				\
	"adoxq	%%rbx, %%r11\n\t"				\
	"mulxq	%%r15, %%rax, %%r12\n\t"			\
	"adcxq	%%rax, %%r11\n\t"				\
	"adoxq	%[z], %%r12\n\t"				\
	"adcxq	%[z], %%r12\n\t"				\
	"imulq	$38, %%r12, %%r12\n\t"				\
	"addq	%%r12, %%r8\n\t"				\
	"adcq	$0, %%r9\n\t"					\
	"adcq	$0, %%r10\n\t"					\
	"adcq	$0, %%r11\n\t"					\
	"sbbq	%%rax, %%rax\n\t"				\
	"andq	$38, %%rax\n\t"					\
	"addq	%%rax, %%r8\n\t"				\
	"movq	%%r8, 0(%[h])\n\t"					\
	"movq	%%r9, 8(%[h])\n\t"					\
	"movq	%%r10, 16(%[h])\n\t"					\
	"movq	%%r11, 24(%[h])\n\t"

#define FE64_CLOBBER_MUL	"rax", "rbx", "rdx", "r8", "r9", "r10", \
				"r11", "r12", "r13", "r14", "r15", "cc"

/*
 * h = f g: the 512-bit product t by rows, row i adding f[i] * g (four
 * MULXs) into t[i..i+4], low halves along CF, high halves along OF, both
 * chains closed into the new top word t[i+4], which cannot overflow
 * ((f[0..i]) g < 2^(64(i+5))).  r8..r15 = t[0..7].
 */
static __always_inline void fe64_mul(struct fe64 *h, const struct fe64 *f,
				     const struct fe64 *g)
{
	__asm__(
	"movq	0(%[f]), %%rdx\n\t"
	"mulxq	0(%[g]), %%r8, %%r9\n\t"
	"mulxq	8(%[g]), %%rax, %%r10\n\t"
	"addq	%%rax, %%r9\n\t"
	"mulxq	16(%[g]), %%rax, %%r11\n\t"
	"adcq	%%rax, %%r10\n\t"
	"mulxq	24(%[g]), %%rax, %%r12\n\t"
	"adcq	%%rax, %%r11\n\t"
	"adcq	$0, %%r12\n\t"

	"movq	8(%[f]), %%rdx\n\t"
	"xorl	%%eax, %%eax\n\t"
	"mulxq	0(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r9\n\t"
	"adoxq	%%rbx, %%r10\n\t"
	"mulxq	8(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r10\n\t"
	"adoxq	%%rbx, %%r11\n\t"
	"mulxq	16(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r11\n\t"
	"adoxq	%%rbx, %%r12\n\t"
	"mulxq	24(%[g]), %%rax, %%r13\n\t"
	"adcxq	%%rax, %%r12\n\t"
	"adoxq	%[z], %%r13\n\t"
	"adcxq	%[z], %%r13\n\t"

	"movq	16(%[f]), %%rdx\n\t"
	"xorl	%%eax, %%eax\n\t"
	"mulxq	0(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r10\n\t"
	"adoxq	%%rbx, %%r11\n\t"
	"mulxq	8(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r11\n\t"
	"adoxq	%%rbx, %%r12\n\t"
	"mulxq	16(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r12\n\t"
	"adoxq	%%rbx, %%r13\n\t"
	"mulxq	24(%[g]), %%rax, %%r14\n\t"
	"adcxq	%%rax, %%r13\n\t"
	"adoxq	%[z], %%r14\n\t"
	"adcxq	%[z], %%r14\n\t"

	"movq	24(%[f]), %%rdx\n\t"
	"xorl	%%eax, %%eax\n\t"
	"mulxq	0(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r11\n\t"
	"adoxq	%%rbx, %%r12\n\t"
	"mulxq	8(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r12\n\t"
	"adoxq	%%rbx, %%r13\n\t"
	"mulxq	16(%[g]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r13\n\t"
	"adoxq	%%rbx, %%r14\n\t"
	"mulxq	24(%[g]), %%rax, %%r15\n\t"
	"adcxq	%%rax, %%r14\n\t"
	"adoxq	%[z], %%r15\n\t"
	"adcxq	%[z], %%r15\n\t"
	FE64_REDUCE_STORE
	:
	: [h] "r"(h), [f] "r"(f), [g] "r"(g), [z] "m"(fe64_zero_word)
	: FE64_CLOBBER_MUL, "memory");
}

/*
 * h = f^2: the six cross products f[i] f[j] (i < j) once into t[1..6],
 * then t = 2 t + the squares f[i]^2 at t[2i..2i+1], the doubling along
 * CF (ADCX t, t) and the squares along OF, interleaved: 10 MULXs.
 */
static __always_inline void fe64_sq(struct fe64 *h, const struct fe64 *f)
{
	__asm__(
	"movq	0(%[f]), %%rdx\n\t"
	"mulxq	8(%[f]), %%r9, %%r10\n\t"
	"mulxq	16(%[f]), %%rax, %%r11\n\t"
	"addq	%%rax, %%r10\n\t"
	"mulxq	24(%[f]), %%rax, %%r12\n\t"
	"adcq	%%rax, %%r11\n\t"
	"adcq	$0, %%r12\n\t"

	"movq	8(%[f]), %%rdx\n\t"
	"xorl	%%eax, %%eax\n\t"
	"mulxq	16(%[f]), %%rax, %%rbx\n\t"
	"adcxq	%%rax, %%r11\n\t"
	"adoxq	%%rbx, %%r12\n\t"
	"mulxq	24(%[f]), %%rax, %%r13\n\t"
	"adcxq	%%rax, %%r12\n\t"
	"adoxq	%[z], %%r13\n\t"
	"adcxq	%[z], %%r13\n\t"

	"movq	16(%[f]), %%rdx\n\t"
	"mulxq	24(%[f]), %%rax, %%r14\n\t"
	"addq	%%rax, %%r13\n\t"
	"adcq	$0, %%r14\n\t"

	"xorl	%%r15d, %%r15d\n\t"
	"movq	0(%[f]), %%rdx\n\t"
	"mulxq	%%rdx, %%r8, %%rax\n\t"
	"adcxq	%%r9, %%r9\n\t"
	"adoxq	%%rax, %%r9\n\t"
	"movq	8(%[f]), %%rdx\n\t"
	"mulxq	%%rdx, %%rax, %%rbx\n\t"
	"adcxq	%%r10, %%r10\n\t"
	"adoxq	%%rax, %%r10\n\t"
	"adcxq	%%r11, %%r11\n\t"
	"adoxq	%%rbx, %%r11\n\t"
	"movq	16(%[f]), %%rdx\n\t"
	"mulxq	%%rdx, %%rax, %%rbx\n\t"
	"adcxq	%%r12, %%r12\n\t"
	"adoxq	%%rax, %%r12\n\t"
	"adcxq	%%r13, %%r13\n\t"
	"adoxq	%%rbx, %%r13\n\t"
	"movq	24(%[f]), %%rdx\n\t"
	"mulxq	%%rdx, %%rax, %%rbx\n\t"
	"adcxq	%%r14, %%r14\n\t"
	"adoxq	%%rax, %%r14\n\t"
	"adcxq	%[z], %%r15\n\t"
	"adoxq	%%rbx, %%r15\n\t"
	FE64_REDUCE_STORE
	:
	: [h] "r"(h), [f] "r"(f), [z] "m"(fe64_zero_word)
	: FE64_CLOBBER_MUL, "memory");
}

/*
 * h = f + g: at most 2^257 - 2; a carry out (2^256) is worth 38, added
 * back; that can carry once more only when the sum wrapped below 38, so
 * the second 38 lands without a carry.
 */
static __always_inline void fe64_add(struct fe64 *h, const struct fe64 *f,
				     const struct fe64 *g)
{
	__asm__(
	"movq	0(%[f]), %%r8\n\t"
	"movq	8(%[f]), %%r9\n\t"
	"movq	16(%[f]), %%r10\n\t"
	"movq	24(%[f]), %%r11\n\t"
	"addq	0(%[g]), %%r8\n\t"
	"adcq	8(%[g]), %%r9\n\t"
	"adcq	16(%[g]), %%r10\n\t"
	"adcq	24(%[g]), %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"addq	%%rax, %%r8\n\t"
	"adcq	$0, %%r9\n\t"
	"adcq	$0, %%r10\n\t"
	"adcq	$0, %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"addq	%%rax, %%r8\n\t"
	"movq	%%r8, 0(%[h])\n\t"
	"movq	%%r9, 8(%[h])\n\t"
	"movq	%%r10, 16(%[h])\n\t"
	"movq	%%r11, 24(%[h])\n\t"
	:
	: [h] "r"(h), [f] "r"(f), [g] "r"(g)
	: "rax", "r8", "r9", "r10", "r11", "cc", "memory");
}

/*
 * h = f - g: a borrow means the 256-bit difference stands for f - g +
 * 2^256 = f - g + 38 (mod 2^256 - 38): subtract 38; a second borrow,
 * possible only from a difference below 38, leaves a value near 2^256
 * from which the last 38 comes off without a borrow.
 */
static __always_inline void fe64_sub(struct fe64 *h, const struct fe64 *f,
				     const struct fe64 *g)
{
	__asm__(
	"movq	0(%[f]), %%r8\n\t"
	"movq	8(%[f]), %%r9\n\t"
	"movq	16(%[f]), %%r10\n\t"
	"movq	24(%[f]), %%r11\n\t"
	"subq	0(%[g]), %%r8\n\t"
	"sbbq	8(%[g]), %%r9\n\t"
	"sbbq	16(%[g]), %%r10\n\t"
	"sbbq	24(%[g]), %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"subq	%%rax, %%r8\n\t"
	"sbbq	$0, %%r9\n\t"
	"sbbq	$0, %%r10\n\t"
	"sbbq	$0, %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"subq	%%rax, %%r8\n\t"
	"movq	%%r8, 0(%[h])\n\t"
	"movq	%%r9, 8(%[h])\n\t"
	"movq	%%r10, 16(%[h])\n\t"
	"movq	%%r11, 24(%[h])\n\t"
	:
	: [h] "r"(h), [f] "r"(f), [g] "r"(g)
	: "rax", "r8", "r9", "r10", "r11", "cc", "memory");
}

/*
 * s = f + g and d = f - g at once (the ladder's pairs): f and g are
 * loaded once; each result is folded as in fe64_add and fe64_sub.
 */
static __always_inline void fe64_addsub(struct fe64 *s, struct fe64 *d,
					const struct fe64 *f,
					const struct fe64 *g)
{
	__asm__(
	"movq	0(%[f]), %%r8\n\t"
	"movq	8(%[f]), %%r9\n\t"
	"movq	16(%[f]), %%r10\n\t"
	"movq	24(%[f]), %%r11\n\t"
	"movq	%%r8, %%r12\n\t"
	"movq	%%r9, %%r13\n\t"
	"movq	%%r10, %%r14\n\t"
	"movq	%%r11, %%r15\n\t"
	"addq	0(%[g]), %%r8\n\t"
	"adcq	8(%[g]), %%r9\n\t"
	"adcq	16(%[g]), %%r10\n\t"
	"adcq	24(%[g]), %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"addq	%%rax, %%r8\n\t"
	"adcq	$0, %%r9\n\t"
	"adcq	$0, %%r10\n\t"
	"adcq	$0, %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"addq	%%rax, %%r8\n\t"
	"subq	0(%[g]), %%r12\n\t"
	"sbbq	8(%[g]), %%r13\n\t"
	"sbbq	16(%[g]), %%r14\n\t"
	"sbbq	24(%[g]), %%r15\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"subq	%%rax, %%r12\n\t"
	"sbbq	$0, %%r13\n\t"
	"sbbq	$0, %%r14\n\t"
	"sbbq	$0, %%r15\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"subq	%%rax, %%r12\n\t"
	"movq	%%r8, 0(%[s])\n\t"
	"movq	%%r9, 8(%[s])\n\t"
	"movq	%%r10, 16(%[s])\n\t"
	"movq	%%r11, 24(%[s])\n\t"
	"movq	%%r12, 0(%[d])\n\t"
	"movq	%%r13, 8(%[d])\n\t"
	"movq	%%r14, 16(%[d])\n\t"
	"movq	%%r15, 24(%[d])\n\t"
	:
	: [s] "r"(s), [d] "r"(d), [f] "r"(f), [g] "r"(g)
	: "rax", "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "cc",
	  "memory");
}

/*
 * h = f * 121665 + g, the ladder's AA + a24 E: below 2^274, so the top
 * word is below 2^18; it folds back as 38 times itself, then a possible
 * last carry as 38.
 */
static __always_inline void fe64_mul_a24_add(struct fe64 *h,
					     const struct fe64 *f,
					     const struct fe64 *g)
{
	__asm__(
	"movl	$121665, %%edx\n\t"
	"mulxq	0(%[f]), %%r8, %%r9\n\t"
	"mulxq	8(%[f]), %%rax, %%r10\n\t"
	"addq	%%rax, %%r9\n\t"
	"mulxq	16(%[f]), %%rax, %%r11\n\t"
	"adcq	%%rax, %%r10\n\t"
	"mulxq	24(%[f]), %%rax, %%rbx\n\t"
	"adcq	%%rax, %%r11\n\t"
	"adcq	$0, %%rbx\n\t"
	"addq	0(%[g]), %%r8\n\t"
	"adcq	8(%[g]), %%r9\n\t"
	"adcq	16(%[g]), %%r10\n\t"
	"adcq	24(%[g]), %%r11\n\t"
	"adcq	$0, %%rbx\n\t"
	"imulq	$38, %%rbx, %%rbx\n\t"
	"addq	%%rbx, %%r8\n\t"
	"adcq	$0, %%r9\n\t"
	"adcq	$0, %%r10\n\t"
	"adcq	$0, %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"addq	%%rax, %%r8\n\t"
	"movq	%%r8, 0(%[h])\n\t"
	"movq	%%r9, 8(%[h])\n\t"
	"movq	%%r10, 16(%[h])\n\t"
	"movq	%%r11, 24(%[h])\n\t"
	:
	: [h] "r"(h), [f] "r"(f), [g] "r"(g)
	: "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "cc", "memory");
}

/*
 * h = f * 121665: 273 bits; the top word (below 2^17) folds back as 38
 * times itself, then a possible last carry as 38.
 */
static __always_inline void fe64_mul_a24(struct fe64 *h,
					 const struct fe64 *f)
{
	__asm__(
	"movl	$121665, %%edx\n\t"
	"mulxq	0(%[f]), %%r8, %%r9\n\t"
	"mulxq	8(%[f]), %%rax, %%r10\n\t"
	"addq	%%rax, %%r9\n\t"
	"mulxq	16(%[f]), %%rax, %%r11\n\t"
	"adcq	%%rax, %%r10\n\t"
	"mulxq	24(%[f]), %%rax, %%rbx\n\t"
	"adcq	%%rax, %%r11\n\t"
	"adcq	$0, %%rbx\n\t"
	"imulq	$38, %%rbx, %%rbx\n\t"
	"addq	%%rbx, %%r8\n\t"
	"adcq	$0, %%r9\n\t"
	"adcq	$0, %%r10\n\t"
	"adcq	$0, %%r11\n\t"
	"sbbq	%%rax, %%rax\n\t"
	"andq	$38, %%rax\n\t"
	"addq	%%rax, %%r8\n\t"
	"movq	%%r8, 0(%[h])\n\t"
	"movq	%%r9, 8(%[h])\n\t"
	"movq	%%r10, 16(%[h])\n\t"
	"movq	%%r11, 24(%[h])\n\t"
	:
	: [h] "r"(h), [f] "r"(f)
	: "rax", "rbx", "rdx", "r8", "r9", "r10", "r11", "cc",
	  "memory");
}

static __always_inline void fe64_0(struct fe64 *h)
{
	memset(h, 0, sizeof(*h));
}

static __always_inline void fe64_1(struct fe64 *h)
{
	memset(h, 0, sizeof(*h));
	h->v[0] = 1;
}

static __always_inline void fe64_copy(struct fe64 *h, const struct fe64 *f)
{
	*h = *f;
}

static __always_inline void fe64_from64(struct fe64 *h, const u64 w[4])
{
	memcpy(h->v, w, sizeof(h->v));
}

/* From 256 little-endian bits; bit 255 is ignored (RFC 7748). */
static __always_inline void fe64_frombytes(struct fe64 *h, const u8 s[32])
{
	int i;

	for (i = 0; i < 4; i++)
		h->v[i] = get_unaligned_le64(s + 8 * i);
	h->v[3] &= ~(1ULL << 63);
}

static __always_inline void fe64_neg(struct fe64 *h, const struct fe64 *f)
{
	struct fe64 z = { { 0 } };

	fe64_sub(h, &z, f);
}

/*
 * (f, g) = (g, f) when @swap is 1, unchanged when 0; no branch: the
 * masked difference in two SSE2 registers per element (baseline on
 * x86-64).
 */
static __always_inline void fe64_cswap(struct fe64 *f, struct fe64 *g,
				       u64 swap)
{
	__m128i m = _mm_set1_epi64x((long long)(0 - swap));
	__m128i f0 = _mm_loadu_si128((const __m128i *)f->v);
	__m128i f1 = _mm_loadu_si128((const __m128i *)f->v + 1);
	__m128i g0 = _mm_loadu_si128((const __m128i *)g->v);
	__m128i g1 = _mm_loadu_si128((const __m128i *)g->v + 1);
	__m128i x0 = _mm_and_si128(_mm_xor_si128(f0, g0), m);
	__m128i x1 = _mm_and_si128(_mm_xor_si128(f1, g1), m);

	_mm_storeu_si128((__m128i *)f->v, _mm_xor_si128(f0, x0));
	_mm_storeu_si128((__m128i *)f->v + 1, _mm_xor_si128(f1, x1));
	_mm_storeu_si128((__m128i *)g->v, _mm_xor_si128(g0, x0));
	_mm_storeu_si128((__m128i *)g->v + 1, _mm_xor_si128(g1, x1));
}

/* h = f when @move is 1, unchanged when 0; no branch. */
static __always_inline void fe64_cmov(struct fe64 *h, const struct fe64 *f,
				      u64 move)
{
	u64 mask = 0 - move;
	int i;

	for (i = 0; i < 4; i++)
		h->v[i] ^= (h->v[i] ^ f->v[i]) & mask;
}

/* The canonical encoding, in [0, p) (fe25519_mulx.c). */
void fe64_tobytes(u8 s[32], const struct fe64 *f);

#endif /* TLSX_FE25519_MULX_H */
