// SPDX-License-Identifier: GPL-2.0
/*
 * fe25519_mulx.c - GF(2^255 - 19) in four 64-bit limbs with BMI2 (MULX)
 * and ADX (ADCX/ADOX), for CPUs that have both; the caller checks
 * tlsx_cpu_features() (c25519_impl.c) before any of this runs.
 *
 * Representation: any 256-bit value f, standing for f mod p.  All
 * arithmetic is modulo 2p = 2^256 - 38 (so 2^256 = 38), which keeps
 * every result below 2^256 with one cheap fold; only fe64_tobytes()
 * reduces fully, mod p.
 *
 * The multiply, square, add, subtract and the multiplication by 121665
 * are assembly: a compiler turns _addcarryx_u64() into one serial ADC
 * chain, while the schoolbook product wants two independent carry chains
 * at once, low halves of the partial products on CF (ADCX) and high
 * halves on OF (ADOX), with MULX leaving the flags alone in between.
 * The functions follow the SysV ABI and keep every value in registers;
 * they touch no secret-dependent address and take no branch.
 */
#include "fe25519.h"


/*
 * fe64_mul(h, f, g): the 512-bit product t = f g by rows: row i adds
 * f[i] * g (four MULXs) into t[i..i+4], low halves along CF, high halves
 * along OF, both chains closed into the new top word t[i+4] (which
 * cannot overflow: (f[0..i]) g < 2^(64(i+5))).  Then t mod 2^256 - 38 =
 * t[0..3] + 38 t[4..7]: four more MULXs by 38 on the same two chains
 * leave a top word below 40; 38 times it is added in, and the final
 * carry, at most 1, once more as 38 into a word that then cannot carry.
 *
 * Registers: rdi = h, rsi = f, rcx = g, rdx = the multiplier, r8..r15 =
 * t[0..7], rax/rbx = halves of a partial product, rbp = 0.
 */
__asm__(
"	.text\n"
"	.globl	fe64_mul\n"
"	.type	fe64_mul, @function\n"
"	.p2align 5\n"
"fe64_mul:\n"
"	pushq	%rbx\n"
"	pushq	%rbp\n"
"	pushq	%r12\n"
"	pushq	%r13\n"
"	pushq	%r14\n"
"	pushq	%r15\n"
"	movq	%rdx, %rcx\n"
	/* row 0: t[0..4] = f0 g, one ADC chain */
"	movq	0(%rsi), %rdx\n"
"	mulxq	0(%rcx), %r8, %r9\n"
"	mulxq	8(%rcx), %rax, %r10\n"
"	addq	%rax, %r9\n"
"	mulxq	16(%rcx), %rax, %r11\n"
"	adcq	%rax, %r10\n"
"	mulxq	24(%rcx), %rax, %r12\n"
"	adcq	%rax, %r11\n"
"	adcq	$0, %r12\n"
	/* row 1: t[1..5] += f1 g */
"	movq	8(%rsi), %rdx\n"
"	xorl	%ebp, %ebp\n"
"	mulxq	0(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r9\n"
"	adoxq	%rbx, %r10\n"
"	mulxq	8(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r10\n"
"	adoxq	%rbx, %r11\n"
"	mulxq	16(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r11\n"
"	adoxq	%rbx, %r12\n"
"	mulxq	24(%rcx), %rax, %r13\n"
"	adcxq	%rax, %r12\n"
"	adoxq	%rbp, %r13\n"
"	adcxq	%rbp, %r13\n"
	/* row 2: t[2..6] += f2 g */
"	movq	16(%rsi), %rdx\n"
"	xorl	%ebp, %ebp\n"
"	mulxq	0(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r10\n"
"	adoxq	%rbx, %r11\n"
"	mulxq	8(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r11\n"
"	adoxq	%rbx, %r12\n"
"	mulxq	16(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r12\n"
"	adoxq	%rbx, %r13\n"
"	mulxq	24(%rcx), %rax, %r14\n"
"	adcxq	%rax, %r13\n"
"	adoxq	%rbp, %r14\n"
"	adcxq	%rbp, %r14\n"
	/* row 3: t[3..7] += f3 g */
"	movq	24(%rsi), %rdx\n"
"	xorl	%ebp, %ebp\n"
"	mulxq	0(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r11\n"
"	adoxq	%rbx, %r12\n"
"	mulxq	8(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r12\n"
"	adoxq	%rbx, %r13\n"
"	mulxq	16(%rcx), %rax, %rbx\n"
"	adcxq	%rax, %r13\n"
"	adoxq	%rbx, %r14\n"
"	mulxq	24(%rcx), %rax, %r15\n"
"	adcxq	%rax, %r14\n"
"	adoxq	%rbp, %r15\n"
"	adcxq	%rbp, %r15\n"
"	jmp	fe64_reduce_tail\n"
"	.size	fe64_mul, .-fe64_mul\n"

/*
 * The shared tail of mul and sq: r8..r11 + 38 * r12..r15, stored to
 * (rdi); pops what fe64_mul and fe64_sq pushed, and returns.
 */
"	.p2align 4\n"
"	.type	fe64_reduce_tail, @function\n"
"fe64_reduce_tail:\n"
"	movl	$38, %edx\n"
"	xorl	%ebp, %ebp\n"
"	mulxq	%r12, %rax, %rbx\n"
"	adcxq	%rax, %r8\n"
"	adoxq	%rbx, %r9\n"
"	mulxq	%r13, %rax, %rbx\n"
"	adcxq	%rax, %r9\n"
"	adoxq	%rbx, %r10\n"
"	mulxq	%r14, %rax, %rbx\n"
"	adcxq	%rax, %r10\n"
"	adoxq	%rbx, %r11\n"
"	mulxq	%r15, %rax, %r12\n"
"	adcxq	%rax, %r11\n"
"	adoxq	%rbp, %r12\n"
"	adcxq	%rbp, %r12\n"
"	imulq	$38, %r12, %r12\n"
"	addq	%r12, %r8\n"
"	adcq	$0, %r9\n"
"	adcq	$0, %r10\n"
"	adcq	$0, %r11\n"
"	sbbq	%rax, %rax\n"
"	andq	$38, %rax\n"
"	addq	%rax, %r8\n"
"	movq	%r8, 0(%rdi)\n"
"	movq	%r9, 8(%rdi)\n"
"	movq	%r10, 16(%rdi)\n"
"	movq	%r11, 24(%rdi)\n"
"	popq	%r15\n"
"	popq	%r14\n"
"	popq	%r13\n"
"	popq	%r12\n"
"	popq	%rbp\n"
"	popq	%rbx\n"
"	ret\n"
"	.size	fe64_reduce_tail, .-fe64_reduce_tail\n"

/*
 * fe64_sq(h, f): the six cross products f[i] f[j] (i < j) once into
 * t[1..6], then t = 2 t + the four squares f[i]^2 at t[2i..2i+1]: the
 * doubling runs along CF (ADCX t, t) while the squares go in along OF,
 * interleaved.  10 MULXs instead of 16, then the tail above.
 */
"	.globl	fe64_sq\n"
"	.type	fe64_sq, @function\n"
"	.p2align 5\n"
"fe64_sq:\n"
"	pushq	%rbx\n"
"	pushq	%rbp\n"
"	pushq	%r12\n"
"	pushq	%r13\n"
"	pushq	%r14\n"
"	pushq	%r15\n"
	/* f0 (f1, f2, f3) into t[1..4] */
"	movq	0(%rsi), %rdx\n"
"	mulxq	8(%rsi), %r9, %r10\n"
"	mulxq	16(%rsi), %rax, %r11\n"
"	addq	%rax, %r10\n"
"	mulxq	24(%rsi), %rax, %r12\n"
"	adcq	%rax, %r11\n"
"	adcq	$0, %r12\n"
	/* f1 (f2, f3) into t[3..5] */
"	movq	8(%rsi), %rdx\n"
"	xorl	%ebp, %ebp\n"
"	mulxq	16(%rsi), %rax, %rbx\n"
"	adcxq	%rax, %r11\n"
"	adoxq	%rbx, %r12\n"
"	mulxq	24(%rsi), %rax, %r13\n"
"	adcxq	%rax, %r12\n"
"	adoxq	%rbp, %r13\n"
"	adcxq	%rbp, %r13\n"
	/* f2 f3 into t[5..6] */
"	movq	16(%rsi), %rdx\n"
"	mulxq	24(%rsi), %rax, %r14\n"
"	addq	%rax, %r13\n"
"	adcq	$0, %r14\n"
	/* t = 2 t + squares */
"	xorl	%r15d, %r15d\n"
"	movq	0(%rsi), %rdx\n"
"	mulxq	%rdx, %r8, %rax\n"
"	adcxq	%r9, %r9\n"
"	adoxq	%rax, %r9\n"
"	movq	8(%rsi), %rdx\n"
"	mulxq	%rdx, %rax, %rbx\n"
"	adcxq	%r10, %r10\n"
"	adoxq	%rax, %r10\n"
"	adcxq	%r11, %r11\n"
"	adoxq	%rbx, %r11\n"
"	movq	16(%rsi), %rdx\n"
"	mulxq	%rdx, %rax, %rbx\n"
"	adcxq	%r12, %r12\n"
"	adoxq	%rax, %r12\n"
"	adcxq	%r13, %r13\n"
"	adoxq	%rbx, %r13\n"
"	movq	24(%rsi), %rdx\n"
"	mulxq	%rdx, %rax, %rbx\n"
"	adcxq	%r14, %r14\n"
"	adoxq	%rax, %r14\n"
"	adcxq	%rbp, %r15\n"
"	adoxq	%rbx, %r15\n"
"	jmp	fe64_reduce_tail\n"
"	.size	fe64_sq, .-fe64_sq\n"

/*
 * fe64_add(h, f, g): f + g is at most 2^257 - 2; a carry out (2^256)
 * is worth 38, added back; that can carry once more only when the sum
 * wrapped to below 38, so the second 38 lands without a carry.
 */
"	.globl	fe64_add\n"
"	.type	fe64_add, @function\n"
"	.p2align 4\n"
"fe64_add:\n"
"	movq	0(%rsi), %r8\n"
"	movq	8(%rsi), %r9\n"
"	movq	16(%rsi), %r10\n"
"	movq	24(%rsi), %r11\n"
"	addq	0(%rdx), %r8\n"
"	adcq	8(%rdx), %r9\n"
"	adcq	16(%rdx), %r10\n"
"	adcq	24(%rdx), %r11\n"
"	sbbq	%rax, %rax\n"
"	andq	$38, %rax\n"
"	addq	%rax, %r8\n"
"	adcq	$0, %r9\n"
"	adcq	$0, %r10\n"
"	adcq	$0, %r11\n"
"	sbbq	%rax, %rax\n"
"	andq	$38, %rax\n"
"	addq	%rax, %r8\n"
"	movq	%r8, 0(%rdi)\n"
"	movq	%r9, 8(%rdi)\n"
"	movq	%r10, 16(%rdi)\n"
"	movq	%r11, 24(%rdi)\n"
"	ret\n"
"	.size	fe64_add, .-fe64_add\n"

/*
 * fe64_sub(h, f, g): a borrow means the 256-bit difference stands for
 * f - g + 2^256 = f - g + 38 (mod 2^256 - 38): subtract 38; a second
 * borrow, possible only from a difference below 38, leaves a value near
 * 2^256 from which the last 38 comes off without a borrow.
 */
"	.globl	fe64_sub\n"
"	.type	fe64_sub, @function\n"
"	.p2align 4\n"
"fe64_sub:\n"
"	movq	0(%rsi), %r8\n"
"	movq	8(%rsi), %r9\n"
"	movq	16(%rsi), %r10\n"
"	movq	24(%rsi), %r11\n"
"	subq	0(%rdx), %r8\n"
"	sbbq	8(%rdx), %r9\n"
"	sbbq	16(%rdx), %r10\n"
"	sbbq	24(%rdx), %r11\n"
"	sbbq	%rax, %rax\n"
"	andq	$38, %rax\n"
"	subq	%rax, %r8\n"
"	sbbq	$0, %r9\n"
"	sbbq	$0, %r10\n"
"	sbbq	$0, %r11\n"
"	sbbq	%rax, %rax\n"
"	andq	$38, %rax\n"
"	subq	%rax, %r8\n"
"	movq	%r8, 0(%rdi)\n"
"	movq	%r9, 8(%rdi)\n"
"	movq	%r10, 16(%rdi)\n"
"	movq	%r11, 24(%rdi)\n"
"	ret\n"
"	.size	fe64_sub, .-fe64_sub\n"

/*
 * fe64_mul_a24(h, f): f * 121665 is 273 bits; the top word (below
 * 2^17) folds back as 38 times itself, then a possible last carry as 38.
 */
"	.globl	fe64_mul_a24\n"
"	.type	fe64_mul_a24, @function\n"
"	.p2align 4\n"
"fe64_mul_a24:\n"
"	movl	$121665, %edx\n"
"	mulxq	0(%rsi), %r8, %r9\n"
"	mulxq	8(%rsi), %rax, %r10\n"
"	addq	%rax, %r9\n"
"	mulxq	16(%rsi), %rax, %r11\n"
"	adcq	%rax, %r10\n"
"	mulxq	24(%rsi), %rax, %rcx\n"
"	adcq	%rax, %r11\n"
"	adcq	$0, %rcx\n"
"	imulq	$38, %rcx, %rcx\n"
"	addq	%rcx, %r8\n"
"	adcq	$0, %r9\n"
"	adcq	$0, %r10\n"
"	adcq	$0, %r11\n"
"	sbbq	%rax, %rax\n"
"	andq	$38, %rax\n"
"	addq	%rax, %r8\n"
"	movq	%r8, 0(%rdi)\n"
"	movq	%r9, 8(%rdi)\n"
"	movq	%r10, 16(%rdi)\n"
"	movq	%r11, 24(%rdi)\n"
"	ret\n"
"	.size	fe64_mul_a24, .-fe64_mul_a24\n"
);

void fe64_0(struct fe64 *h)
{
	memset(h, 0, sizeof(*h));
}

void fe64_1(struct fe64 *h)
{
	memset(h, 0, sizeof(*h));
	h->v[0] = 1;
}

void fe64_copy(struct fe64 *h, const struct fe64 *f)
{
	*h = *f;
}

void fe64_frombytes(struct fe64 *h, const u8 s[32])
{
	int i;

	for (i = 0; i < 4; i++)
		h->v[i] = get_unaligned_le64(s + 8 * i);
	h->v[3] &= ~(1ULL << 63);
}

void fe64_from64(struct fe64 *h, const u64 w[4])
{
	memcpy(h->v, w, sizeof(h->v));
}

/*
 * Canonical encoding of f < 2^256: fold bit 255 back as 19 (2^255 = 19
 * mod p), leaving t < 2^255 + 19 < 2p; then t >= p exactly when t + 19
 * reaches bit 255, and t - p is t + 19 with that bit cleared.  The
 * choice is a mask, not a branch.
 */
void fe64_tobytes(u8 s[32], const struct fe64 *f)
{
	u64 t[4], u[4], mask;
	__uint128_t c;
	int i;

	c = (__uint128_t)f->v[0] + 19 * (f->v[3] >> 63);
	t[0] = (u64)c;
	for (i = 1; i < 4; i++) {
		c = (__uint128_t)(i == 3 ? f->v[3] & ~(1ULL << 63) : f->v[i]) +
		    (u64)(c >> 64);
		t[i] = (u64)c;
	}
	c = (__uint128_t)t[0] + 19;
	u[0] = (u64)c;
	for (i = 1; i < 4; i++) {
		c = (__uint128_t)t[i] + (u64)(c >> 64);
		u[i] = (u64)c;
	}
	mask = 0 - (u[3] >> 63);
	u[3] &= ~(1ULL << 63);
	for (i = 0; i < 4; i++)
		put_unaligned_le64((u[i] & mask) | (t[i] & ~mask), s + 8 * i);
	memzero_explicit(t, sizeof(t));
	memzero_explicit(u, sizeof(u));
}

void fe64_neg(struct fe64 *h, const struct fe64 *f)
{
	struct fe64 z;

	fe64_0(&z);
	fe64_sub(h, &z, f);
}

void fe64_cswap(struct fe64 *f, struct fe64 *g, u64 swap)
{
	u64 mask = 0 - swap, x;
	int i;

	for (i = 0; i < 4; i++) {
		x = (f->v[i] ^ g->v[i]) & mask;
		f->v[i] ^= x;
		g->v[i] ^= x;
	}
}

void fe64_cmov(struct fe64 *h, const struct fe64 *f, u64 move)
{
	u64 mask = 0 - move;
	int i;

	for (i = 0; i < 4; i++)
		h->v[i] ^= (h->v[i] ^ f->v[i]) & mask;
}
