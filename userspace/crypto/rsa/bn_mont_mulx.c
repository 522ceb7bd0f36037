// SPDX-License-Identifier: GPL-2.0
/*
 * bn_mont_mulx.c - Montgomery multiplication and squaring with MULX, ADCX
 * and ADOX (BMI2 + ADX), for the limb counts RSA uses (16, 24, 32, 48
 * and 64: the primes and moduli of 2048-, 3072- and 4096-bit keys); any
 * other count takes the portable code.
 *
 * Product first, then reduction (separated operand scanning), each one
 * asm block with a loop over rows and the row unrolled:
 *
 *	t (2n limbs) = a b		rows t[i .. i + n] += a b_i
 *	for i in 0 .. n - 1:		rows t[i .. i + n] += q_i m,
 *	    q_i = t_i m0inv mod 2^64	with t_i becoming zero
 *	r = t[n .. 2n - 1] (+ the carry out), minus m if at least m
 *
 * A row's products a_j b_i = hi:lo add lo into limb j and hi into limb
 * j + 1: ADCX carries the first sum (CF) and ADOX the second (OF), two
 * independent carry chains, so the high half of the previous product and
 * the low half of this one go into the same limb without waiting on each
 * other; MULX leaves the flags alone, which is what lets both chains run
 * through the whole row.  The high halves alternate between r8 and r9.
 * In the reduction q_(i+1) only needs limb i + 1, written at the second
 * step of row i, so the out-of-order core overlaps consecutive rows.
 *
 * A square needs only the products a_i a_j with i < j (n (n - 1) / 2 of
 * them), doubled, plus the n squares a_i^2: with ADCX doubling a limb
 * (x + x + CF) and ADOX adding the square's half, that is one pass.  The
 * reduction is the same as for a product, so a square costs n (n - 1) / 2
 * + n + n^2 multiplications against 2 n^2 (392 against 512 for n = 16).
 * The square's rows have every length from n - 1 down to 1, so they are
 * unrolled completely, for n = 16 and 32 only (the 2048-bit key's primes
 * and modulus); other sizes square with the product.
 *
 * Pairs (bn_mont_mul2_mulx(), bn_mont_sqr2_mulx(), for RSA's two CRT
 * halves): the same code for two numbers side by side, each row of the
 * first followed by the same row of the second, so that one row's wait
 * on the row before overlaps the other's work; their scratch belongs to
 * the caller, which wipes it once per exponentiation.
 *
 * Bounds: a, b < m gives t = a b < m R; adding sum q_i m R^i < m R gives
 * below 2 m R, so the reduced value t / R is below 2m and fits n limbs
 * plus the carry register: one conditional subtraction, chosen by CMOV.
 * Constant time: no branch but the loops over public row counts, no
 * address from a value.  Valgrind hides ADX, so ct_rsa cannot run this
 * file: that it is straight-line code is review, not test.
 */
#include "rsa/bn_impl.h"

/*
 * One step of a row: the memory operand TM += lo + PREV, where hi:lo is
 * rdx times the memory operand XM, with the high half into NEXT.
 */
#define BN_STEP(XM, TM, PREV, NEXT)					\
	"mulxq " XM ", %%rax, %%" NEXT "\n\t"				\
	"movq " TM ", %%r10\n\t"					\
	"adcxq %%rax, %%r10\n\t"					\
	"adoxq %%" PREV ", %%r10\n\t"					\
	"movq %%r10, " TM "\n\t"

/* The same with the high half ending in r8 again (rows of odd length). */
#define BN_STEP1(XM, TM)						\
	"mulxq " XM ", %%rax, %%r9\n\t"					\
	"movq " TM ", %%r10\n\t"					\
	"adcxq %%rax, %%r10\n\t"					\
	"adoxq %%r8, %%r10\n\t"						\
	"movq %%r10, " TM "\n\t"					\
	"movq %%r9, %%r8\n\t"

/* A step into a fresh limb: TM = lo + PREV (+ CF), one chain only. */
#define BN_FSTEP(XM, TM, PREV, NEXT)					\
	"mulxq " XM ", %%rax, %%" NEXT "\n\t"				\
	"adcxq %%" PREV ", %%rax\n\t"					\
	"movq %%rax, " TM "\n\t"

#define BN_FSTEP1(XM, TM)						\
	"mulxq " XM ", %%rax, %%r9\n\t"					\
	"adcxq %%r8, %%rax\n\t"						\
	"movq %%rax, " TM "\n\t"					\
	"movq %%r9, %%r8\n\t"

/*
 * Everything below works on one number or on a pair laid out side by
 * side (a pair's second a, b, m and r at byte offset 8N, its second t at
 * 16N): the string arguments AO, MO and TO are those byte offsets, 0 for
 * the first.  A pair's two rows alternate, so the core always has an
 * independent carry chain to run while one row waits on the row before.
 *
 * Product row: tp[0 .. N] += a * bp[0]; tp[N] is written fresh (nothing
 * there yet, and the row's sum fits N + 1 limbs: no carry out).  The
 * first row writes every limb fresh.
 */
#define BN_MUL_ROW(N, AO, TO)						\
	"movq " AO "(%[bp]), %%rdx\n\t"					\
	"xorl %%r8d, %%r8d\n\t"						\
	".set bnj, 0\n\t"						\
	".rept " #N " / 2\n\t"						\
	BN_STEP("bnj*8+" AO "(%[a])", "bnj*8+" TO "(%[tp])", "r8", "r9") \
	BN_STEP("bnj*8+8+" AO "(%[a])", "bnj*8+8+" TO "(%[tp])",	\
		"r9", "r8")						\
	".set bnj, bnj + 2\n\t"						\
	".endr\n\t"							\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %%r8\n\t"						\
	"adoxq %%rax, %%r8\n\t"						\
	"movq %%r8, " #N "*8+" TO "(%[tp])\n\t"

#define BN_MUL_ROW0(N, AO, TO)						\
	"movq " AO "(%[bp]), %%rdx\n\t"					\
	"xorl %%r8d, %%r8d\n\t"						\
	".set bnj, 0\n\t"						\
	".rept " #N " / 2\n\t"						\
	BN_FSTEP("bnj*8+" AO "(%[a])", "bnj*8+" TO "(%[tp])", "r8", "r9") \
	BN_FSTEP("bnj*8+8+" AO "(%[a])", "bnj*8+8+" TO "(%[tp])",	\
		 "r9", "r8")						\
	".set bnj, bnj + 2\n\t"						\
	".endr\n\t"							\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %%r8\n\t"						\
	"movq %%r8, " #N "*8+" TO "(%[tp])\n\t"

/*
 * Reduction row: q = tp[0] m0inv; tp[0 .. N] += q m, where tp[0] becomes
 * zero (not stored: only its carry goes on).  The carry register C holds
 * what the previous row carried into tp[N]; this row's own carries into
 * tp[N + 1] (CF and OF, 0 to 2 together) go into C for the next one.
 */
#define BN_REDC_ROW(N, MO, TO, K, C)					\
	"movq " TO "(%[tp]), %%r10\n\t"					\
	"movq %%r10, %%rdx\n\t"						\
	"imulq %[" K "], %%rdx\n\t"					\
	"xorl %%r8d, %%r8d\n\t"						\
	"mulxq " MO "(%[m]), %%rax, %%r9\n\t"				\
	"adcxq %%rax, %%r10\n\t"					\
	".set bnj, 8\n\t"						\
	".rept (" #N " - 2) / 2\n\t"					\
	BN_STEP("bnj+" MO "(%[m])", "bnj+" TO "(%[tp])", "r9", "r8")	\
	BN_STEP("bnj+8+" MO "(%[m])", "bnj+8+" TO "(%[tp])", "r8", "r9") \
	".set bnj, bnj + 16\n\t"					\
	".endr\n\t"							\
	BN_STEP("bnj+" MO "(%[m])", "bnj+" TO "(%[tp])", "r9", "r8")	\
	"movq " #N "*8+" TO "(%[tp]), %%r10\n\t"			\
	"adcxq %[" C "], %%r10\n\t"					\
	"adoxq %%r8, %%r10\n\t"						\
	"movq %%r10, " #N "*8+" TO "(%[tp])\n\t"			\
	"movl $0, %k[" C "]\n\t"					\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %[" C "]\n\t"					\
	"adoxq %%rax, %[" C "]\n\t"

/*
 * After the reduction (tp = t + 8N): t[0 .. N - 1] = t[N .. 2N - 1] - m,
 * and C = carry - borrow, which is all ones exactly when t / R < m;
 * then r = t[N ..] when it is, else the difference, by CMOV on C's low
 * bit (CMOV reads both operands whatever the condition).  t's low half
 * is free: the reduction rows never store their zero limb.
 */
#define BN_FINAL_SUB(N, MO, TO, C)					\
	"movq " TO "(%[tp]), %%r10\n\t"					\
	"subq " MO "(%[m]), %%r10\n\t"					\
	"movq %%r10, " TO "-" #N "*8(%[tp])\n\t"			\
	".set bnj, 8\n\t"						\
	".rept " #N " - 1\n\t"						\
	"movq bnj+" TO "(%[tp]), %%r10\n\t"				\
	"sbbq bnj+" MO "(%[m]), %%r10\n\t"				\
	"movq %%r10, bnj+" TO "-" #N "*8(%[tp])\n\t"			\
	".set bnj, bnj + 8\n\t"						\
	".endr\n\t"							\
	"sbbq $0, %[" C "]\n\t"						\
	"btq $0, %[" C "]\n\t"						\
	".set bnj, 0\n\t"						\
	".rept " #N "\n\t"						\
	"movq bnj+" TO "-" #N "*8(%[tp]), %%rax\n\t"			\
	"cmovcq bnj+" TO "(%[tp]), %%rax\n\t"				\
	"movq %%rax, bnj+" MO "(%[r])\n\t"				\
	".set bnj, bnj + 8\n\t"						\
	".endr\n\t"

/* The reduction loop, for one number (tp = t on entry). */
#define BN_REDC(N)							\
	"movl $" #N ", %k[cnt]\n\t"					\
	"xorl %k[c0], %k[c0]\n\t"					\
	"2:\n\t"							\
	BN_REDC_ROW(N, "0", "0", "k0", "c0")				\
	"addq $8, %[tp]\n\t"						\
	"decl %k[cnt]\n\t"						\
	"jnz 2b\n\t"							\
	BN_FINAL_SUB(N, "0", "0", "c0")

/* The same for a pair. */
#define BN_REDC2(N)							\
	"movl $" #N ", %k[cnt]\n\t"					\
	"xorl %k[c0], %k[c0]\n\t"					\
	"xorl %k[c1], %k[c1]\n\t"					\
	"2:\n\t"							\
	BN_REDC_ROW(N, "0", "0", "k0", "c0")				\
	BN_REDC_ROW(N, #N "*8", #N "*16", "k1", "c1")			\
	"addq $8, %[tp]\n\t"						\
	"decl %k[cnt]\n\t"						\
	"jnz 2b\n\t"							\
	BN_FINAL_SUB(N, "0", "0", "c0")					\
	BN_FINAL_SUB(N, #N "*8", #N "*16", "c1")

/* The product rows: the first fresh, then a loop over the others. */
#define BN_MUL_ROWS(N)							\
	BN_MUL_ROW0(N, "0", "0")					\
	"movl $" #N " - 1, %k[cnt]\n\t"					\
	"1:\n\t"							\
	"addq $8, %[tp]\n\t"						\
	"addq $8, %[bp]\n\t"						\
	BN_MUL_ROW(N, "0", "0")						\
	"decl %k[cnt]\n\t"						\
	"jnz 1b\n\t"							\
	"subq $" #N "*8-8, %[tp]\n\t"

#define BN_MUL_ROWS2(N)							\
	BN_MUL_ROW0(N, "0", "0")					\
	BN_MUL_ROW0(N, #N "*8", #N "*16")				\
	"movl $" #N " - 1, %k[cnt]\n\t"					\
	"1:\n\t"							\
	"addq $8, %[tp]\n\t"						\
	"addq $8, %[bp]\n\t"						\
	BN_MUL_ROW(N, "0", "0")						\
	BN_MUL_ROW(N, #N "*8", #N "*16")				\
	"decl %k[cnt]\n\t"						\
	"jnz 1b\n\t"							\
	"subq $" #N "*8-8, %[tp]\n\t"

/* t: 2N limbs of scratch, left holding intermediate values: wiped here. */
#define BN_MUL(N)							\
__attribute__((target("bmi2,adx")))					\
static void bn_mulx_mul_##N(u64 *r, const u64 *a, const u64 *b,	\
			    const u64 *m, u64 m0inv)			\
{									\
	u64 t[2 * N], c0;						\
	u64 *tp = t;							\
	const u64 *bp = b;						\
	unsigned int cnt;						\
									\
	__asm__ volatile(BN_MUL_ROWS(N)					\
			 BN_REDC(N)					\
			 : [tp] "+&r"(tp), [bp] "+&r"(bp),		\
			   [cnt] "=&r"(cnt), [c0] "=&r"(c0)		\
			 : [a] "r"(a), [m] "r"(m), [r] "r"(r),		\
			   [k0] "m"(m0inv)				\
			 : "rax", "rdx", "r8", "r9", "r10", "cc",	\
			   "memory");					\
	memzero_explicit(t, sizeof(t));					\
}

/* A pair: r, a, b, m of 2N limbs (the second number at limb N). */
#define BN_MUL2(N)							\
__attribute__((target("bmi2,adx")))					\
static void bn_mulx_mul2_##N(u64 *r, const u64 *a, const u64 *b,	\
			     const u64 *m, const u64 *k, u64 *t)	\
{									\
	u64 *tp = t, c0, c1;						\
	const u64 *bp = b;						\
	unsigned int cnt;						\
									\
	__asm__ volatile(BN_MUL_ROWS2(N)				\
			 BN_REDC2(N)					\
			 : [tp] "+&r"(tp), [bp] "+&r"(bp),		\
			   [cnt] "=&r"(cnt), [c0] "=&r"(c0),		\
			   [c1] "=&r"(c1)				\
			 : [a] "r"(a), [m] "r"(m), [r] "r"(r),		\
			   [k0] "m"(k[0]), [k1] "m"(k[1])		\
			 : "rax", "rdx", "r8", "r9", "r10", "cc",	\
			   "memory");					\
}

BN_MUL(16)
BN_MUL(24)
BN_MUL(32)
BN_MUL(48)
BN_MUL(64)
BN_MUL2(16)
BN_MUL2(32)

/*
 * The square's products a_i a_j, i < j: row i adds a_i a[i + 1 ..] into
 * t[2i + 1 .. i + N] (the last limb fresh), rows of odd length starting
 * with one step that leaves the high half in r8.  Row 0 writes t[1 .. N]
 * fresh.
 */
#define BN_SQR_ROW(N, AO, TO)						\
	"movq bni*8+" AO "(%[a]), %%rdx\n\t"				\
	"xorl %%r8d, %%r8d\n\t"						\
	".set bnj, bni + 1\n\t"						\
	".if (" #N " - 1 - bni) & 1\n\t"				\
	BN_STEP1("bnj*8+" AO "(%[a])", "(bni+bnj)*8+" TO "(%[tp])")	\
	".set bnj, bnj + 1\n\t"						\
	".endif\n\t"							\
	".rept (" #N " - 1 - bni) / 2\n\t"				\
	BN_STEP("bnj*8+" AO "(%[a])", "(bni+bnj)*8+" TO "(%[tp])",	\
		"r8", "r9")						\
	BN_STEP("bnj*8+8+" AO "(%[a])", "(bni+bnj+1)*8+" TO "(%[tp])",	\
		"r9", "r8")						\
	".set bnj, bnj + 2\n\t"						\
	".endr\n\t"							\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %%r8\n\t"						\
	"adoxq %%rax, %%r8\n\t"						\
	"movq %%r8, (bni+" #N ")*8+" TO "(%[tp])\n\t"

#define BN_SQR_ROW0(N, AO, TO)						\
	"movq " AO "(%[a]), %%rdx\n\t"					\
	"xorl %%r8d, %%r8d\n\t"						\
	"movq %%r8, " TO "(%[tp])\n\t"					\
	"movq %%r8, (2*" #N "-1)*8+" TO "(%[tp])\n\t"			\
	BN_FSTEP1("8+" AO "(%[a])", "8+" TO "(%[tp])")			\
	".set bnj, 2\n\t"						\
	".rept (" #N " - 2) / 2\n\t"					\
	BN_FSTEP("bnj*8+" AO "(%[a])", "bnj*8+" TO "(%[tp])", "r8", "r9") \
	BN_FSTEP("bnj*8+8+" AO "(%[a])", "bnj*8+8+" TO "(%[tp])",	\
		 "r9", "r8")						\
	".set bnj, bnj + 2\n\t"						\
	".endr\n\t"							\
	"movl $0, %%eax\n\t"						\
	"adcxq %%rax, %%r8\n\t"						\
	"movq %%r8, " #N "*8+" TO "(%[tp])\n\t"

/*
 * Every limb doubled with a_i^2 added (t[0] and t[2N - 1] are still zero
 * then: the rows start at limb 1 and end at limb 2N - 2), one carry
 * chain each through all 2N limbs: a pair's two passes run one after
 * the other, not interleaved.
 */
#define BN_SQR_DIAGS(N, AO, TO)						\
	"xorl %%r8d, %%r8d\n\t"						\
	".set bni, 0\n\t"						\
	".rept " #N "\n\t"						\
	BN_SQR_DIAG(AO, TO)						\
	".set bni, bni + 1\n\t"						\
	".endr\n\t"

#define BN_SQR_DIAG(AO, TO)						\
	"movq bni*8+" AO "(%[a]), %%rdx\n\t"				\
	"mulxq %%rdx, %%rax, %%r9\n\t"					\
	"movq (2*bni)*8+" TO "(%[tp]), %%r10\n\t"			\
	"adcxq %%r10, %%r10\n\t"					\
	"adoxq %%rax, %%r10\n\t"					\
	"movq %%r10, (2*bni)*8+" TO "(%[tp])\n\t"			\
	"movq (2*bni+1)*8+" TO "(%[tp]), %%r10\n\t"			\
	"adcxq %%r10, %%r10\n\t"					\
	"adoxq %%r9, %%r10\n\t"						\
	"movq %%r10, (2*bni+1)*8+" TO "(%[tp])\n\t"

/* The off-diagonal rows 1 .. N - 2 (row 0 is the fresh one). */
#define BN_SQR_ROWS(N)							\
	".set bni, 1\n\t"						\
	".rept " #N " - 2\n\t"						\
	BN_SQR_ROW(N, "0", "0")						\
	".set bni, bni + 1\n\t"						\
	".endr\n\t"

#define BN_SQR_ROWS2(N)							\
	".set bni, 1\n\t"						\
	".rept " #N " - 2\n\t"						\
	BN_SQR_ROW(N, "0", "0")						\
	BN_SQR_ROW(N, #N "*8", #N "*16")				\
	".set bni, bni + 1\n\t"						\
	".endr\n\t"

#define BN_SQR(N)							\
__attribute__((target("bmi2,adx")))					\
static void bn_mulx_sqr_##N(u64 *r, const u64 *a, const u64 *m,	\
			    u64 m0inv)					\
{									\
	u64 t[2 * N], c0;						\
	u64 *tp = t;							\
	unsigned int cnt;						\
									\
	__asm__ volatile(BN_SQR_ROW0(N, "0", "0")			\
			 BN_SQR_ROWS(N)					\
			 BN_SQR_DIAGS(N, "0", "0")			\
			 BN_REDC(N)					\
			 : [tp] "+&r"(tp), [cnt] "=&r"(cnt),		\
			   [c0] "=&r"(c0)				\
			 : [a] "r"(a), [m] "r"(m), [r] "r"(r),		\
			   [k0] "m"(m0inv)				\
			 : "rax", "rdx", "r8", "r9", "r10", "cc",	\
			   "memory");					\
	memzero_explicit(t, sizeof(t));					\
}

#define BN_SQR2(N)							\
__attribute__((target("bmi2,adx")))					\
static void bn_mulx_sqr2_##N(u64 *r, const u64 *a, const u64 *m,	\
			     const u64 *k, u64 *t)			\
{									\
	u64 *tp = t, c0, c1;						\
	unsigned int cnt;						\
									\
	__asm__ volatile(BN_SQR_ROW0(N, "0", "0")			\
			 BN_SQR_ROW0(N, #N "*8", #N "*16")		\
			 BN_SQR_ROWS2(N)				\
			 BN_SQR_DIAGS(N, "0", "0")			\
			 BN_SQR_DIAGS(N, #N "*8", #N "*16")		\
			 BN_REDC2(N)					\
			 : [tp] "+&r"(tp), [cnt] "=&r"(cnt),		\
			   [c0] "=&r"(c0), [c1] "=&r"(c1)		\
			 : [a] "r"(a), [m] "r"(m), [r] "r"(r),		\
			   [k0] "m"(k[0]), [k1] "m"(k[1])		\
			 : "rax", "rdx", "r8", "r9", "r10", "cc",	\
			   "memory");					\
}

BN_SQR(16)
BN_SQR(32)
/*
 * No 32-limb pair square: unrolled it is 44 KB of code, for 4096-bit
 * keys only; their pairs square with the pair product.
 */
BN_SQR2(16)

void bn_mont_mul_mulx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
		      u64 m0inv, size_t n)
{
	switch (n) {
	case 16:
		bn_mulx_mul_16(r, a, b, m, m0inv);
		break;
	case 24:
		bn_mulx_mul_24(r, a, b, m, m0inv);
		break;
	case 32:
		bn_mulx_mul_32(r, a, b, m, m0inv);
		break;
	case 48:
		bn_mulx_mul_48(r, a, b, m, m0inv);
		break;
	case 64:
		bn_mulx_mul_64(r, a, b, m, m0inv);
		break;
	default:
		bn_mont_mul_generic(r, a, b, m, m0inv, n);
	}
}

void bn_mont_sqr_mulx(u64 *r, const u64 *a, const u64 *m, u64 m0inv,
		      size_t n)
{
	switch (n) {
	case 16:
		bn_mulx_sqr_16(r, a, m, m0inv);
		break;
	case 32:
		bn_mulx_sqr_32(r, a, m, m0inv);
		break;
	default:
		bn_mont_mul_mulx(r, a, a, m, m0inv, n);
	}
}

int bn_mont_mul2_mulx(u64 *r, const u64 *a, const u64 *b, const u64 *m,
		      const u64 *k, size_t n, u64 *t)
{
	if (n == 16)
		bn_mulx_mul2_16(r, a, b, m, k, t);
	else if (n == 32)
		bn_mulx_mul2_32(r, a, b, m, k, t);
	else
		return -EINVAL;
	return 0;
}

int bn_mont_sqr2_mulx(u64 *r, const u64 *a, const u64 *m, const u64 *k,
		      size_t n, u64 *t)
{
	if (n == 16)
		bn_mulx_sqr2_16(r, a, m, k, t);
	else if (n == 32)
		bn_mulx_mul2_32(r, a, a, m, k, t);
	else
		return -EINVAL;
	return 0;
}
