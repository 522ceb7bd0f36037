// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 keystream, eight blocks at a time in 256-bit vectors (AVX2).
 *
 * The eight-block core (state layout, rounds, transposition) is in
 * chacha_x8_template.h.  Here rotations by 16 and 8 are byte shuffles
 * (VPSHUFB) and by 12 and 7 two shifts and an OR.  Sixteen state vectors
 * fill the 16 YMM registers, so the compiler keeps a few on the stack
 * during the rounds.
 *
 * Whole KiBs run sixteen blocks per pass, as two interleaved sets of eight
 * (chacha20_x16_pass(), which explains why and how); the rest runs eight
 * blocks per pass.
 *
 * Each group of eight blocks (512 bytes) is XORed 32 bytes at a time; in
 * a partial last group the whole 32-byte pieces are XORed directly and
 * the last few bytes through a stack buffer (the length is public) that
 * is wiped afterwards.  A last single block runs in scalar code, whose
 * dependency chain is shorter than a vector pass.  The first pass of an
 * operation computes block 0 alongside blocks 1-8
 * (tlsx_chacha20_xor0_avx2()).
 *
 * Segment lists (tlsx_chacha20_xor_sg_avx2(), the AEAD's update_sg()):
 * what lies in one segment of each list runs as for a buffer, in whole
 * groups of eight blocks; the group across a boundary is gathered into a
 * stack buffer, run there and scattered.  AVX2 has no byte-masked loads
 * and stores to do what the AVX-512 engine does in place.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>
#include "aead/platform.h"
#include "aead/aead_impl.h"
#include "aead/chacha_engines.h"

#define X8_TARGET __attribute__((target("avx2")))

X8_TARGET static inline __m256i rol_avx2(__m256i v, int n)
{
	if (n == 16)
		return _mm256_shuffle_epi8(v, _mm256_set_epi8(
			13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2,
			13, 12, 15, 14, 9, 8, 11, 10, 5, 4, 7, 6, 1, 0, 3, 2));
	if (n == 8)
		return _mm256_shuffle_epi8(v, _mm256_set_epi8(
			14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3,
			14, 13, 12, 15, 10, 9, 8, 11, 6, 5, 4, 7, 2, 1, 0, 3));
	return _mm256_or_si256(_mm256_slli_epi32(v, n),
			       _mm256_srli_epi32(v, 32 - n));
}

#define X8_ROL(v, n) rol_avx2(v, n)

/*
 * The last, partial piece: through a stack buffer (the length is public)
 * that is wiped afterwards.
 */
X8_TARGET static noinline void x8_xor_partial(const u8 *src, u8 *dst, size_t n,
				     __m256i ks)
{
	u8 buf[32] __aligned(32);
	size_t i;

	_mm256_store_si256((__m256i *)buf, ks);
	for (i = 0; i < n; i++)
		dst[i] = src[i] ^ buf[i];
	memzero_explicit(buf, sizeof(buf));
}

/* XOR the 32 keystream bytes @ks into bytes @off.. below @len. */
X8_TARGET static __always_inline void x8_xor32(const u8 *src, u8 *dst,
					       size_t len, size_t off,
					       __m256i ks)
{
	if (off + 32 <= len) {
		__m256i m = _mm256_loadu_si256((const __m256i *)(src + off));

		_mm256_storeu_si256((__m256i *)(dst + off),
				    _mm256_xor_si256(m, ks));
	} else if (off < len) {
		x8_xor_partial(src + off, dst + off, len - off, ks);
	}
}

/*
 * Zero @n bytes (a multiple of 32) at the 32-byte aligned @p with vector
 * stores.  In the kernel memzero_explicit() is a memset, which is `rep
 * stosb` on CPUs with fast short REP STOS: an instruction count (qemu's
 * -icount, issue #29) counts each of its iterations, 1024 for the state
 * of a pass against 32 stores here.  The stores are volatile, so that the
 * compiler neither drops them nor turns the loop back into a memset.
 */
X8_TARGET static __always_inline void x16_wipe(void *p, size_t n)
{
	const __m256i z = _mm256_setzero_si256();
	size_t i;

	/* unrolled: n is a constant at every call */
#pragma GCC unroll 64
	for (i = 0; i < n; i += 32)
		*(volatile __m256i *)((u8 *)p + i) = z;
}

#include "aead/chacha_x8_template.h"

/*
 * Finish one set of eight blocks whose state is @st: add the input of
 * blocks @counter.., transpose and XOR @len bytes (at most 512) of @src
 * into @dst (the template's code, which names its state x0..x15 and its
 * text src, dst, len).  x8_finish_full() is the same for a whole 512
 * bytes, where the length tests of x8_xor32() fold away.  Out of line, so
 * that the passes need not find stack room for the spills of the
 * transposition on top of their own.
 */
X8_TARGET static __always_inline void x8_finish_body(const __m256i st[16],
						     const u32 key[8],
						     const u32 nonce[3],
						     u32 counter,
						     const u8 *src, u8 *dst,
						     size_t len)
{
	__m256i x0 = st[0], x1 = st[1], x2 = st[2], x3 = st[3];
	__m256i x4 = st[4], x5 = st[5], x6 = st[6], x7 = st[7];
	__m256i x8 = st[8], x9 = st[9], x10 = st[10], x11 = st[11];
	__m256i x12 = st[12], x13 = st[13], x14 = st[14], x15 = st[15];

	X8_ADD_INPUT(counter);
	X8_TRANSPOSE4(x0, x1, x2, x3);
	X8_TRANSPOSE4(x4, x5, x6, x7);
	X8_TRANSPOSE4(x8, x9, x10, x11);
	X8_TRANSPOSE4(x12, x13, x14, x15);
	X8_XOR_BLOCKS(x0, x4, x8, x12, 0);
	X8_XOR_BLOCKS(x1, x5, x9, x13, 1);
	X8_XOR_BLOCKS(x2, x6, x10, x14, 2);
	X8_XOR_BLOCKS(x3, x7, x11, x15, 3);
}

X8_TARGET static noinline void x8_finish(const __m256i st[16],
					 const u32 key[8],
					 const u32 nonce[3], u32 counter,
					 const u8 *src, u8 *dst, size_t len)
{
	x8_finish_body(st, key, nonce, counter, src, dst, len);
}

X8_TARGET static noinline void x8_finish_full(const __m256i st[16],
					      const u32 key[8],
					      const u32 nonce[3], u32 counter,
					      const u8 *src, u8 *dst)
{
	x8_finish_body(st, key, nonce, counter, src, dst, 512);
}

/*
 * Sixteen blocks (1 KiB) from @counter as two independent sets of eight,
 * A (blocks @counter..+7) and B (the next eight).  On Zen 5 a dependent
 * vector operation waits two cycles, so one set of eight blocks keeps the
 * units only half busy: its four quarter-round chains per round are the
 * bound.  Two sets double the independent work.  Measured (ChaCha20
 * alone, 4 KiB, TSC cycles/byte): 0.82 with eight-block passes, 0.64
 * with two sets.
 *
 * The 32 state vectors do not fit in the 16 YMM registers, and what the
 * spilling costs is instructions: an instruction count (as under qemu's
 * -icount, issue #29) weighs each load and store as a vector operation.
 * So the rounds are written out in the assembly below, with a fixed plan
 * that needs no loads and few stores.  Twelve vectors stay in registers
 * through all twenty rounds: words 0-7 of set A (rows a and b) and words
 * 0-3 of set B (row a), in ymm0-ymm11 (the operands r0-r11).  The
 * other twenty live in
 * @m (the state array, A's sixteen words then B's) and each is read as
 * a memory operand of its first use in a quarter-round and written back
 * once at its end: a quarter-round of A has its c and d in memory (two
 * stores), one of B its b, c and d (three stores; b is read twice, by
 * two memory operands).  ymm12-ymm14 hold those for the quarter-round,
 * ymm15 is the rotations' scratch, and the byte shuffles of the 16- and
 * 8-bit rotations take their masks from memory.  A double round is 256
 * vector operations and 40 stores (GCC's own allocation of the same
 * rounds: 76 loads and stores).  Consecutive quarter-rounds reuse
 * ymm12-ymm15, which register renaming makes independent.
 */
/* Resident vector n: asm operand %[rn], which GCC puts in ymm0-ymm11. */
#define X16S_Y(n)	"%[r" #n "]"

/* A quarter-round of set A: a, b in registers, c, d at offsets. */
#define X16S_QRA(a, b, c, d)						\
	"vpaddd " X16S_Y(b) ", " X16S_Y(a) ", " X16S_Y(a) "\n\t"	\
	"vpxor " #d "(%[m]), " X16S_Y(a) ", %%ymm13\n\t"		\
	"vpshufb %[k16], %%ymm13, %%ymm13\n\t"				\
	"vpaddd " #c "(%[m]), %%ymm13, %%ymm12\n\t"			\
	"vpxor %%ymm12, " X16S_Y(b) ", " X16S_Y(b) "\n\t"		\
	"vpsrld $20, " X16S_Y(b) ", %%ymm15\n\t"			\
	"vpslld $12, " X16S_Y(b) ", " X16S_Y(b) "\n\t"			\
	"vpor %%ymm15, " X16S_Y(b) ", " X16S_Y(b) "\n\t"		\
	"vpaddd " X16S_Y(b) ", " X16S_Y(a) ", " X16S_Y(a) "\n\t"	\
	"vpxor " X16S_Y(a) ", %%ymm13, %%ymm13\n\t"			\
	"vpshufb %[k8], %%ymm13, %%ymm13\n\t"			\
	"vpaddd %%ymm13, %%ymm12, %%ymm12\n\t"				\
	"vpxor %%ymm12, " X16S_Y(b) ", " X16S_Y(b) "\n\t"		\
	"vpsrld $25, " X16S_Y(b) ", %%ymm15\n\t"			\
	"vpslld $7, " X16S_Y(b) ", " X16S_Y(b) "\n\t"			\
	"vpor %%ymm15, " X16S_Y(b) ", " X16S_Y(b) "\n\t"		\
	"vmovdqa %%ymm12, " #c "(%[m])\n\t"				\
	"vmovdqa %%ymm13, " #d "(%[m])\n\t"

/* A quarter-round of set B: a in a register, b, c, d at offsets. */
#define X16S_QRB(a, b, c, d)						\
	"vpaddd " #b "(%[m]), " X16S_Y(a) ", " X16S_Y(a) "\n\t"	\
	"vpxor " #d "(%[m]), " X16S_Y(a) ", %%ymm13\n\t"		\
	"vpshufb %[k16], %%ymm13, %%ymm13\n\t"				\
	"vpaddd " #c "(%[m]), %%ymm13, %%ymm12\n\t"			\
	"vpxor " #b "(%[m]), %%ymm12, %%ymm14\n\t"			\
	"vpsrld $20, %%ymm14, %%ymm15\n\t"				\
	"vpslld $12, %%ymm14, %%ymm14\n\t"				\
	"vpor %%ymm15, %%ymm14, %%ymm14\n\t"				\
	"vpaddd %%ymm14, " X16S_Y(a) ", " X16S_Y(a) "\n\t"		\
	"vpxor " X16S_Y(a) ", %%ymm13, %%ymm13\n\t"			\
	"vpshufb %[k8], %%ymm13, %%ymm13\n\t"			\
	"vpaddd %%ymm13, %%ymm12, %%ymm12\n\t"				\
	"vpxor %%ymm12, %%ymm14, %%ymm14\n\t"				\
	"vpsrld $25, %%ymm14, %%ymm15\n\t"				\
	"vpslld $7, %%ymm14, %%ymm14\n\t"				\
	"vpor %%ymm15, %%ymm14, %%ymm14\n\t"				\
	"vmovdqa %%ymm14, " #b "(%[m])\n\t"				\
	"vmovdqa %%ymm12, " #c "(%[m])\n\t"				\
	"vmovdqa %%ymm13, " #d "(%[m])\n\t"

/* The state of both sets: A's words 0-15, then B's (32-byte aligned). */
struct x16_state {
	__m256i v[32];
};

/* The byte shuffles that rotate each 32-bit lane left by 16 and by 8. */
static const u8 x16_rot_masks[2][32] __aligned(32) = {
	{ 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,
	  2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13 },
	{ 3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14,
	  3, 0, 1, 2, 7, 4, 5, 6, 11, 8, 9, 10, 15, 12, 13, 14 },
};

/*
 * One double round of both sets.  Offsets in @m: A's word w at 32 * w,
 * B's at 32 * (16 + w).
 */
#define X16S_DOUBLE_ROUND						\
	/* columns */							\
	X16S_QRA(0, 4, 256, 384)					\
	X16S_QRB(8, 640, 768, 896)					\
	X16S_QRA(1, 5, 288, 416)					\
	X16S_QRB(9, 672, 800, 928)					\
	X16S_QRA(2, 6, 320, 448)					\
	X16S_QRB(10, 704, 832, 960)					\
	X16S_QRA(3, 7, 352, 480)					\
	X16S_QRB(11, 736, 864, 992)					\
	/* diagonals: (0, 5, 10, 15), (1, 6, 11, 12), ... */		\
	X16S_QRA(0, 5, 320, 480)					\
	X16S_QRB(8, 672, 832, 992)					\
	X16S_QRA(1, 6, 352, 384)					\
	X16S_QRB(9, 704, 864, 896)					\
	X16S_QRA(2, 7, 256, 416)					\
	X16S_QRB(10, 736, 768, 928)					\
	X16S_QRA(3, 4, 288, 448)					\
	X16S_QRB(11, 640, 800, 960)

/* The operands of the rounds' assembly (the residents, the memory). */
#define X16S_OUTPUTS(s)							\
	"+m"(*(s)),							\
	[r0] "+x"(r0), [r1] "+x"(r1), [r2] "+x"(r2), [r3] "+x"(r3),	\
	[r4] "+x"(r4), [r5] "+x"(r5), [r6] "+x"(r6), [r7] "+x"(r7),	\
	[r8] "+x"(r8), [r9] "+x"(r9), [r10] "+x"(r10), [r11] "+x"(r11)
#define X16S_INPUTS(s)							\
	[m] "r"(s), [k16] "m"(x16_rot_masks[0]),			\
	[k8] "m"(x16_rot_masks[1])
#define X16S_CLOBBERS	"xmm12", "xmm13", "xmm14", "xmm15"

/* The residents from @s into r0..r11 (declared), and back. */
#define X16S_RESIDENTS_LOAD(s)						\
	__m256i r0 = (s)->v[0], r1 = (s)->v[1], r2 = (s)->v[2];	\
	__m256i r3 = (s)->v[3], r4 = (s)->v[4], r5 = (s)->v[5];	\
	__m256i r6 = (s)->v[6], r7 = (s)->v[7], r8 = (s)->v[16];	\
	__m256i r9 = (s)->v[17], r10 = (s)->v[18], r11 = (s)->v[19]
#define X16S_RESIDENTS_STORE(s) do {					\
	(s)->v[0] = r0; (s)->v[1] = r1; (s)->v[2] = r2;		\
	(s)->v[3] = r3; (s)->v[4] = r4; (s)->v[5] = r5;		\
	(s)->v[6] = r6; (s)->v[7] = r7; (s)->v[16] = r8;		\
	(s)->v[17] = r9; (s)->v[18] = r10; (s)->v[19] = r11;		\
} while (0)

/* The twenty rounds of both sets in @s, in place. */
X8_TARGET static __always_inline void x16_rounds(struct x16_state *s)
{
	X16S_RESIDENTS_LOAD(s);
	unsigned int n;

	__asm__(
		"movl $10, %[n]\n"
		"1:\n\t"
		X16S_DOUBLE_ROUND
		"decl %[n]\n\t"
		"jnz 1b\n\t"
		: [n] "=&r"(n), X16S_OUTPUTS(s)
		: X16S_INPUTS(s)
		: X16S_CLOBBERS, "cc");
	X16S_RESIDENTS_STORE(s);
}

/* The input of both sets, blocks @counter..+15, into @s. */
X8_TARGET static __always_inline void x16_load(struct x16_state *s,
					       const u32 key[8],
					       const u32 nonce[3],
					       u32 counter)
{
	__m256i x0, x1, x2, x3, x4, x5, x6, x7;
	__m256i x8, x9, x10, x11, x12, x13, x14, x15;

	X8_LOAD(counter);
	s->v[0] = x0; s->v[1] = x1; s->v[2] = x2; s->v[3] = x3;
	s->v[4] = x4; s->v[5] = x5; s->v[6] = x6; s->v[7] = x7;
	s->v[8] = x8; s->v[9] = x9; s->v[10] = x10; s->v[11] = x11;
	s->v[12] = x12; s->v[13] = x13; s->v[14] = x14; s->v[15] = x15;
	s->v[16] = x0; s->v[17] = x1; s->v[18] = x2; s->v[19] = x3;
	s->v[20] = x4; s->v[21] = x5; s->v[22] = x6; s->v[23] = x7;
	s->v[24] = x8; s->v[25] = x9; s->v[26] = x10; s->v[27] = x11;
	s->v[28] = _mm256_add_epi32(x12, _mm256_set1_epi32(8));
	s->v[29] = x13; s->v[30] = x14; s->v[31] = x15;
}

/*
 * One 1 KiB pass from @counter: the input of both sets into @s, the
 * rounds, then each set finished (B first, from @s + 16).
 */
X8_TARGET static noinline void chacha20_x16_pass(const u32 key[8],
						 const u32 nonce[3],
						 u32 counter, const u8 *src,
						 u8 *dst, struct x16_state *s)
{
	x16_load(s, key, nonce, counter);
	x16_rounds(s);
	x8_finish_full(s->v + 16, key, nonce, counter + 8, src + 512,
		       dst + 512);
	x8_finish_full(s->v, key, nonce, counter, src, dst);
}

/*
 * The first pass of an operation beyond 512 bytes: sixteen blocks from
 * block 1 as in chacha20_x16_pass(), with block 0 computed alongside in
 * scalar registers, as in chacha20_x8_pass(): one double round of the
 * assembly, then one of the scalar block in C, which GCC keeps in
 * general-purpose registers (the assembly takes none but @s's address);
 * out of order, the scalar chain runs beside the vector rounds.  The
 * first 32 bytes of block 0 go to @otk.  @len bytes (at most 1024) are
 * XORed.
 */
X8_TARGET static noinline void chacha20_x16_pass0(const u32 key[8],
						  const u32 nonce[3],
						  u8 otk[32], const u8 *src,
						  u8 *dst, size_t len,
						  struct x16_state *s)
{
	u32 w[16];
	int i;

	x16_load(s, key, nonce, 1);
	chacha20_s_setup(w, key, nonce);
	{
		X16S_RESIDENTS_LOAD(s);

		for (i = 0; i < 10; i++) {
			__asm__(X16S_DOUBLE_ROUND
				: X16S_OUTPUTS(s)
				: X16S_INPUTS(s)
				: X16S_CLOBBERS);
			S_QR(w, 0);
			S_QR(w, 1);
			S_QR(w, 2);
			S_QR(w, 3);
			S_QR(w, 4);
			S_QR(w, 5);
			S_QR(w, 6);
			S_QR(w, 7);
		}
		X16S_RESIDENTS_STORE(s);
	}
	chacha20_s_otk(w, key, otk);
	memzero_explicit(w, sizeof(w));
	if (len > 512)
		x8_finish(s->v + 16, key, nonce, 9, src + 512, dst + 512,
			  len - 512);
	x8_finish(s->v, key, nonce, 1, src, dst, len < 512 ? len : 512);
}

/* Less than 1 KiB: eight blocks per pass, then a last block in scalar. */
X8_TARGET static noinline void chacha20_xor_x8(const u32 key[8],
					       const u32 nonce[3],
					       u32 counter, const u8 *src,
					       u8 *dst, size_t len)
{
	while (len > TLSX_CHACHA_BLOCK) {
		size_t n = len < 512 ? len : 512;

		chacha20_x8_pass(key, nonce, counter, src, dst, n, false,
				 NULL);
		src += n;
		dst += n;
		len -= n;
		counter += 8;
	}
	/* One block: the scalar code has the shorter chain. */
	if (len)
		tlsx_chacha20_xor_generic(key, nonce, counter, src, dst, len);
}

/*
 * The state of chacha20_x16_pass() (1 KiB) lives in this frame, wiped
 * once after the last pass; the pass's own frame is small.
 */
X8_TARGET static noinline void chacha20_xor_x16(const u32 key[8],
						const u32 nonce[3],
						u32 counter, const u8 *src,
						u8 *dst, size_t len)
{
	struct x16_state st;

	for (; len >= 1024; len -= 1024, src += 1024, dst += 1024) {
		chacha20_x16_pass(key, nonce, counter, src, dst, &st);
		counter += 16;
	}
	x16_wipe(&st, sizeof(st));
}

X8_TARGET static noinline void chacha20_x8_pass0(const u32 key[8],
						 const u32 nonce[3],
						 u8 otk[32], const u8 *src,
						 u8 *dst, size_t len)
{
	chacha20_x8_pass(key, nonce, 1, src, dst, len, true, otk);
}

/*
 * The first pass: block 0 in scalar registers alongside blocks 1-8, or
 * 1-16 beyond 512 bytes (a 1 KiB record then takes one pass, not two).
 */
X8_TARGET static noinline void chacha20_xor0_x16(const u32 key[8],
						 const u32 nonce[3],
						 u8 otk[32], const u8 *src,
						 u8 *dst, size_t len)
{
	struct x16_state st;

	chacha20_x16_pass0(key, nonce, otk, src, dst, len, &st);
	x16_wipe(&st, sizeof(st));
}

/*
 * The entry points: the 1 KiB passes and the eight-block tail one after
 * the other, so that neither frame lies below the other (the AEAD
 * dispatcher wipes as deep as the engine reaches: stack_wipe.h).
 */
X8_TARGET void tlsx_chacha20_xor_avx2(const u32 key[8], const u32 nonce[3],
				      u32 counter, const u8 *src, u8 *dst,
				      size_t len)
{
	size_t n = len & ~(size_t)1023;

	if (n)
		chacha20_xor_x16(key, nonce, counter, src, dst, n);
	if (len > n)
		chacha20_xor_x8(key, nonce, counter + (u32)(n / 64), src + n,
				dst + n, len - n);
}

X8_TARGET void tlsx_chacha20_xor0_avx2(const u32 key[8], const u32 nonce[3],
				       u8 otk[32], const u8 *src, u8 *dst,
				       size_t len)
{
	if (len <= 512)
		chacha20_x8_pass0(key, nonce, otk, src, dst, len);
	else
		chacha20_xor0_x16(key, nonce, otk, src, dst, len);
}

/* --- segment lists ---------------------------------------------------- */

/* The group gathered across a boundary: one eight-block pass. */
#define CHACHA_SG_GROUP	512

/*
 * @n bytes (at most a group) across a boundary, through a buffer in this
 * frame, which the passes' frames lie beside, not below: the walk's
 * depth stays that of a buffer's passes.
 */
X8_TARGET static noinline void chacha20_xor_sg_cross(const u32 key[8],
						     const u32 nonce[3],
						     u32 counter,
						     struct tlsx_sg_pos *src,
						     struct tlsx_sg_pos *dst,
						     size_t n)
{
	u8 buf[CHACHA_SG_GROUP] __aligned(32);

	tlsx_sg_copy(src, buf, n, true);
	chacha20_xor_x8(key, nonce, counter, buf, buf, n);
	tlsx_sg_copy(dst, buf, n, false);
	x16_wipe(buf, sizeof(buf));	/* text, in or out */
}

/*
 * The same as tlsx_chacha20_xor_avx2() from @src to @dst (moved on by
 * @len bytes): the bytes that lie in one segment of each list in whole
 * groups (or to the end) as for a buffer, then the group across the
 * boundary gathered.  So a piece boundary costs one full pass and a
 * 512-byte copy in and out, not a pass cut short and a lone block in
 * scalar code.
 */
X8_TARGET void tlsx_chacha20_xor_sg_avx2(const u32 key[8], const u32 nonce[3],
					 u32 counter, struct tlsx_sg_pos *src,
					 struct tlsx_sg_pos *dst, size_t len)
{
	size_t m, n;

	while (len) {
		m = tlsx_sg_run(src, dst);
		n = m >= len ? len : m & ~(size_t)(CHACHA_SG_GROUP - 1);
		if (n) {
			tlsx_chacha20_xor_avx2(key, nonce, counter,
					       tlsx_sg_ptr(src),
					       tlsx_sg_ptr(dst), n);
			src->off += n;
			dst->off += n;
		} else {
			n = len < CHACHA_SG_GROUP ? len : CHACHA_SG_GROUP;
			chacha20_xor_sg_cross(key, nonce, counter, src, dst, n);
		}
		len -= n;
		counter += (u32)(n / TLSX_CHACHA_BLOCK);
	}
}
