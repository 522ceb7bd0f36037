// SPDX-License-Identifier: GPL-2.0
/*
 * ChaCha20 keystream with AVX-512: 32 blocks a pass in 512-bit vectors
 * (AVX-512 F), with VL and BW for the short tails.
 *
 * Layout: "vertical".  ZMM register i holds word i of the state of
 * sixteen consecutive blocks (lane j = block counter + j).  A quarter-round
 * is then four adds, four XORs and four VPROLDs on four registers, and the
 * column and diagonal rounds only name different registers: no shuffles
 * inside the 20 rounds.
 *
 * Why 32 blocks.  The four quarter-rounds of a round are four independent
 * chains of twelve dependent operations, and those chains, not the
 * number of vector units, bound one set of sixteen blocks: on the Zen 5
 * this was tuned on (512-bit units, two cycles from one vector integer
 * operation to the next dependent one) a set of sixteen blocks keeps
 * fewer than half of the units busy.  So the bulk loop runs two
 * independent sets (blocks c..c+15 and c+16..c+31) in all 32 ZMM
 * registers: twice the work in about 1.3 times the time.  With every
 * register holding state, GCC keeps them all in registers only when the
 * ten double rounds are unrolled (a loop back edge makes it spill), so
 * that core is unrolled: about 12 KB of code.  The input state for the
 * final addition is broadcast again from the key and nonce words, so no
 * copy of the key lies in a stack array.  Finishing one set (adding the
 * input, transposing) while the other's sixteen vectors are live takes
 * more than 32 registers, so GCC spills two or three vectors of state
 * there (objdump: the vprold results of the last round stored to the
 * frame), which the AEAD dispatcher wipes after the operation
 * (stack_wipe.h).
 *
 * Output: after the rounds and the addition of the input state, a 4x4
 * transpose of 32-bit words within each 128-bit lane (VPUNPCK{L,H}DQ,
 * VPUNPCK{L,H}QDQ) on each group of four registers leaves 16 bytes of
 * block b + 4L in lane L of register 4g + b (g: which quarter of the
 * block), and a 4x4 transpose of 128-bit lanes (two rounds of
 * VSHUFI32X4) on registers b, 4 + b, 8 + b, 12 + b gathers blocks b,
 * b + 4, b + 8 and b + 12 whole.  Each block is then one 64-byte XOR.
 *
 * Tails: up to 1 KiB one set of sixteen blocks (a loop, no spills with
 * half of the registers free), up to 512 bytes eight blocks in YMM
 * (chacha_x8_template.h; on Zen 4, which splits 512-bit operations in
 * two, that halves the work), and a single block in scalar code, whose
 * chain of one-cycle operations is shorter than a vector pass.  The last
 * partial block (or 32-byte piece) is read and written under a byte mask
 * (AVX-512 BW): no keystream goes through memory.
 *
 * Segment lists (tlsx_chacha20_xor_sg_avx512(), the AEAD's update_sg()):
 * the same passes run on across the pieces of a record, each block XORed
 * where it lies (struct chacha_io).
 *
 * The first pass of an AEAD operation (tlsx_chacha20_xor0_avx512())
 * computes block 0, the Poly1305 key, in general-purpose registers
 * alongside blocks 1-8 or 1-16 (see chacha_x8_template.h), so a 1 KiB
 * record costs one sixteen-block pass and a 64-byte record one
 * eight-block pass.
 */
#ifdef __KERNEL__
#define _MM_MALLOC_H_INCLUDED
#endif
#include <immintrin.h>
#include "aead/platform.h"
#include "aead/chacha_engines.h"
#include "aead/sg_avx512.h"

/*
 * clang's ASan checks a masked access byte by byte: with the two-part
 * accesses of a block across a boundary inlined into every block of the
 * unrolled passes, its build of the walk over lists took over ten
 * minutes.  So the walk is left out of clang's ASan (the fuzz build);
 * gcc's ASan build instruments it, and test_aead_sg and
 * test_chacha_engines run it there.
 */
#ifdef __clang__
#define CHACHA_SG_NO_ASAN	__attribute__((no_sanitize("address")))
#else
#define CHACHA_SG_NO_ASAN
#endif

#define X8_TARGET __attribute__((target("avx512f,avx512vl,avx512bw")))
#define X8_ROL(v, n) _mm256_rol_epi32(v, n)
#define X16_TARGET X8_TARGET

/* XOR 32 keystream bytes at @off, under a byte mask where @len cuts. */
X8_TARGET static __always_inline void x8_xor32(const u8 *src, u8 *dst,
					       size_t len, size_t off,
					       __m256i ks)
{
	if (off + 32 <= len) {
		__m256i m = _mm256_loadu_si256((const __m256i *)(src + off));

		_mm256_storeu_si256((__m256i *)(dst + off),
				    _mm256_xor_si256(m, ks));
	} else if (off < len) {
		__mmask32 k = (1U << (len - off)) - 1;	/* len - off < 32 */

		_mm256_mask_storeu_epi8(dst + off, k, _mm256_xor_si256(
			_mm256_maskz_loadu_epi8(k, src + off), ks));
	}
}

/* The same for a whole 64-byte block. */
X16_TARGET static __always_inline void x16_xor64(const u8 *src, u8 *dst,
						 size_t len, size_t off,
						 __m512i ks)
{
	if (off + 64 <= len) {
		_mm512_storeu_si512(dst + off, _mm512_xor_si512(
			_mm512_loadu_si512(src + off), ks));
	} else if (off < len) {
		__mmask64 k = (1ULL << (len - off)) - 1; /* len - off < 64 */

		_mm512_mask_storeu_epi8(dst + off, k, _mm512_xor_si512(
			_mm512_maskz_loadu_epi8(k, src + off), ks));
	}
}

/*
 * Where a pass's text comes from and goes to: contiguous buffers (@src,
 * @dst, advanced by the caller after each pass), or with @sg segment
 * lists (tlsx_chacha20_xor_sg_avx512()).  There the cursors @s and @d
 * stand at the end of a window, bytes @lo to @end - 1 of the pass that
 * lie in one segment of each list, and @src and @dst are set so that
 * byte @off of the pass is at @src + @off while it is in the window: its
 * blocks are XORed as in a buffer.  A block past the window, which spans
 * two segments of a list, goes through the cursors in two byte-masked
 * parts (sg_avx512.h), and the next window starts after it.
 */
struct chacha_io {
	const u8 *src;
	u8 *dst;
	struct tlsx_sg_cur s, d;
	size_t lo, end;
};

/* The window from byte @at of a pass of @n bytes (@at < @n). */
static __always_inline void chacha_io_window(struct chacha_io *io,
					     size_t at, size_t n)
{
	size_t f;

	tlsx_sg_cur_has(&io->s, 1);	/* onto a segment with bytes */
	tlsx_sg_cur_has(&io->d, 1);
	f = io->s.left < io->d.left ? io->s.left : io->d.left;
	if (f >= n - at)
		f = n - at;
	else
		f &= ~(size_t)(TLSX_CHACHA_BLOCK - 1);
	io->src = (const u8 *)((uintptr_t)io->s.ptr - at);
	io->dst = (u8 *)((uintptr_t)io->d.ptr - at);
	io->lo = at;
	io->end = at + f;
	tlsx_sg_cur_skip(&io->s, f);
	tlsx_sg_cur_skip(&io->d, f);
}

/*
 * The block at @off of a pass of @len bytes, past the window: across a
 * boundary in two masked parts through the cursors, then the next window.
 * Inline: a call here would make the pass spill its live vectors around
 * it (a 3 KiB frame in the kernel).
 */
static __always_inline X16_TARGET void chacha_io_cross(struct chacha_io *io,
						size_t len, size_t off,
						__m512i ks)
{
	size_t m = len - off < TLSX_CHACHA_BLOCK ? len - off :
						    TLSX_CHACHA_BLOCK;

	tlsx_sg_store64(&io->d, m, _mm512_xor_si512(
				tlsx_sg_load64(&io->s, m), ks));
	if (off + m < len)
		chacha_io_window(io, off + m, len);
}

/* XOR keystream block @ks into the text at @off of a pass of @len bytes. */
X16_TARGET static __always_inline void x16_xor64_io(struct chacha_io *io,
						    const bool sg,
						    size_t len, size_t off,
						    __m512i ks)
{
	if (!sg || off - io->lo < io->end - io->lo)
		x16_xor64(io->src, io->dst, sg ? io->end : len, off, ks);
	else if (off < len)
		chacha_io_cross(io, len, off, ks);
}

#include "aead/chacha_x8_template.h"

#define X16_QR(a, b, c, d) do {						\
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);	\
	d = _mm512_rol_epi32(d, 16);					\
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);	\
	b = _mm512_rol_epi32(b, 12);					\
	a = _mm512_add_epi32(a, b); d = _mm512_xor_si512(d, a);	\
	d = _mm512_rol_epi32(d, 8);					\
	c = _mm512_add_epi32(c, d); b = _mm512_xor_si512(b, c);	\
	b = _mm512_rol_epi32(b, 7);					\
} while (0)

/*
 * The state of a set of sixteen blocks is sixteen named variables p0..p15
 * (an array would stay in memory: GCC does not split one this large into
 * registers).
 */
#define X16_DOUBLE_ROUND(p) do {					\
	X16_QR(p##0, p##4, p##8, p##12);				\
	X16_QR(p##1, p##5, p##9, p##13);				\
	X16_QR(p##2, p##6, p##10, p##14);				\
	X16_QR(p##3, p##7, p##11, p##15);				\
	X16_QR(p##0, p##5, p##10, p##15);				\
	X16_QR(p##1, p##6, p##11, p##12);				\
	X16_QR(p##2, p##7, p##8, p##13);				\
	X16_QR(p##3, p##4, p##9, p##14);				\
} while (0)

/* 4x4 transpose of 32-bit words within each 128-bit lane. */
#define X16_TRANSPOSE4(a, b, c, d) do {					\
	__m512i t0 = _mm512_unpacklo_epi32(a, b);			\
	__m512i t1 = _mm512_unpacklo_epi32(c, d);			\
	__m512i t2 = _mm512_unpackhi_epi32(a, b);			\
	__m512i t3 = _mm512_unpackhi_epi32(c, d);			\
	a = _mm512_unpacklo_epi64(t0, t1);				\
	b = _mm512_unpackhi_epi64(t0, t1);				\
	c = _mm512_unpacklo_epi64(t2, t3);				\
	d = _mm512_unpackhi_epi64(t2, t3);				\
} while (0)

/* 4x4 transpose of 128-bit lanes: afterwards a..d = blocks b..b+12. */
#define X16_LANES4(a, b, c, d) do {					\
	__m512i u0 = _mm512_shuffle_i32x4(a, b, 0x44);			\
	__m512i u1 = _mm512_shuffle_i32x4(a, b, 0xee);			\
	__m512i u2 = _mm512_shuffle_i32x4(c, d, 0x44);			\
	__m512i u3 = _mm512_shuffle_i32x4(c, d, 0xee);			\
	a = _mm512_shuffle_i32x4(u0, u2, 0x88);				\
	b = _mm512_shuffle_i32x4(u0, u2, 0xdd);				\
	c = _mm512_shuffle_i32x4(u1, u3, 0x88);				\
	d = _mm512_shuffle_i32x4(u1, u3, 0xdd);				\
} while (0)

/* Word @i of the input state of blocks @counter.. (lane j: + j). */
X16_TARGET static __always_inline __m512i x16_input(const u32 key[8],
						    const u32 nonce[3],
						    u32 counter, int i)
{
	static const u32 c[4] = {
		TLSX_CHACHA_C0, TLSX_CHACHA_C1, TLSX_CHACHA_C2, TLSX_CHACHA_C3
	};

	if (i < 4)
		return _mm512_set1_epi32(c[i]);
	if (i < 12)
		return _mm512_set1_epi32(key[i - 4]);
	if (i == 12)
		return _mm512_add_epi32(_mm512_set1_epi32(counter),
					_mm512_set_epi32(15, 14, 13, 12,
							 11, 10, 9, 8,
							 7, 6, 5, 4,
							 3, 2, 1, 0));
	return _mm512_set1_epi32(nonce[i - 13]);
}

/*
 * Load (op = set) or add (op = add) the input state of blocks @ctr.. from
 * the words at @k (key) and @n (nonce).
 */
#define X16_INPUT(p, op, ctr, k, n) do {				\
	X16_##op(p##0, x16_input(k, n, ctr, 0));			\
	X16_##op(p##1, x16_input(k, n, ctr, 1));			\
	X16_##op(p##2, x16_input(k, n, ctr, 2));			\
	X16_##op(p##3, x16_input(k, n, ctr, 3));			\
	X16_##op(p##4, x16_input(k, n, ctr, 4));			\
	X16_##op(p##5, x16_input(k, n, ctr, 5));			\
	X16_##op(p##6, x16_input(k, n, ctr, 6));			\
	X16_##op(p##7, x16_input(k, n, ctr, 7));			\
	X16_##op(p##8, x16_input(k, n, ctr, 8));			\
	X16_##op(p##9, x16_input(k, n, ctr, 9));			\
	X16_##op(p##10, x16_input(k, n, ctr, 10));		\
	X16_##op(p##11, x16_input(k, n, ctr, 11));		\
	X16_##op(p##12, x16_input(k, n, ctr, 12));		\
	X16_##op(p##13, x16_input(k, n, ctr, 13));		\
	X16_##op(p##14, x16_input(k, n, ctr, 14));		\
	X16_##op(p##15, x16_input(k, n, ctr, 15));		\
} while (0)
#define X16_set(v, w)	((v) = (w))
#define X16_add(v, w)	((v) = _mm512_add_epi32((v), (w)))

/*
 * After the rounds of the sixteen blocks from @ctr in p0..p15: add the
 * input state, transpose (block j into one vector) and XOR into the text
 * of @io at @base.. of a pass of @n bytes.
 */
#define X16_FINISH(p, ctr, io, sg, n, base) do {			\
	const u32 *k_ = key, *n_ = nonce;				\
									\
	tlsx_chacha_reload(k_, n_);					\
	X16_INPUT(p, add, ctr, k_, n_);					\
	X16_TRANSPOSE4(p##0, p##1, p##2, p##3);				\
	X16_TRANSPOSE4(p##4, p##5, p##6, p##7);				\
	X16_TRANSPOSE4(p##8, p##9, p##10, p##11);			\
	X16_TRANSPOSE4(p##12, p##13, p##14, p##15);			\
	X16_LANES4(p##0, p##4, p##8, p##12);				\
	X16_LANES4(p##1, p##5, p##9, p##13);				\
	X16_LANES4(p##2, p##6, p##10, p##14);				\
	X16_LANES4(p##3, p##7, p##11, p##15);				\
	x16_xor64_io(io, sg, n, (base) + 0, p##0);			\
	x16_xor64_io(io, sg, n, (base) + 64, p##1);			\
	x16_xor64_io(io, sg, n, (base) + 128, p##2);			\
	x16_xor64_io(io, sg, n, (base) + 192, p##3);			\
	x16_xor64_io(io, sg, n, (base) + 256, p##4);			\
	x16_xor64_io(io, sg, n, (base) + 320, p##5);			\
	x16_xor64_io(io, sg, n, (base) + 384, p##6);			\
	x16_xor64_io(io, sg, n, (base) + 448, p##7);			\
	x16_xor64_io(io, sg, n, (base) + 512, p##8);			\
	x16_xor64_io(io, sg, n, (base) + 576, p##9);			\
	x16_xor64_io(io, sg, n, (base) + 640, p##10);			\
	x16_xor64_io(io, sg, n, (base) + 704, p##11);			\
	x16_xor64_io(io, sg, n, (base) + 768, p##12);			\
	x16_xor64_io(io, sg, n, (base) + 832, p##13);			\
	x16_xor64_io(io, sg, n, (base) + 896, p##14);			\
	x16_xor64_io(io, sg, n, (base) + 960, p##15);			\
} while (0)

/*
 * One pass of sixteen blocks from @counter over @len bytes (at most
 * 1024); and when @with_otk the Poly1305 key into @otk, from block 0
 * computed in scalar registers alongside (chacha_x8_template.h).
 */
X16_TARGET static __always_inline void chacha20_x16_pass(const u32 key[8],
							 const u32 nonce[3],
							 u32 counter,
							 struct chacha_io *io,
							 const bool sg,
							 size_t len,
							 bool with_otk,
							 u8 *otk)
{
	__m512i x0, x1, x2, x3, x4, x5, x6, x7;
	__m512i x8, x9, x10, x11, x12, x13, x14, x15;
	u32 s[16];
	int i;

	X16_INPUT(x, set, counter, key, nonce);
	if (with_otk)
		chacha20_s_setup(s, key, nonce);
	for (i = 0; i < 10; i++) {
		X16_QR(x0, x4, x8, x12);
		if (with_otk)
			S_QR(s, 0);
		X16_QR(x1, x5, x9, x13);
		if (with_otk)
			S_QR(s, 1);
		X16_QR(x2, x6, x10, x14);
		if (with_otk)
			S_QR(s, 2);
		X16_QR(x3, x7, x11, x15);
		if (with_otk)
			S_QR(s, 3);
		X16_QR(x0, x5, x10, x15);
		if (with_otk)
			S_QR(s, 4);
		X16_QR(x1, x6, x11, x12);
		if (with_otk)
			S_QR(s, 5);
		X16_QR(x2, x7, x8, x13);
		if (with_otk)
			S_QR(s, 6);
		X16_QR(x3, x4, x9, x14);
		if (with_otk)
			S_QR(s, 7);
	}
	if (with_otk)
		chacha20_s_otk(s, key, otk);
	X16_FINISH(x, counter, io, sg, len, 0);
}

/*
 * One pass of 32 blocks from @counter over @len bytes (1024 < @len <=
 * 2048): two independent sets of sixteen, the rounds unrolled so that
 * GCC keeps the 32 state vectors in registers.
 */
X16_TARGET static __always_inline void chacha20_x32_pass(const u32 key[8],
							 const u32 nonce[3],
							 u32 counter,
							 struct chacha_io *io,
							 const bool sg,
							 size_t len)
{
	__m512i x0, x1, x2, x3, x4, x5, x6, x7;
	__m512i x8, x9, x10, x11, x12, x13, x14, x15;
	__m512i y0, y1, y2, y3, y4, y5, y6, y7;
	__m512i y8, y9, y10, y11, y12, y13, y14, y15;
	int i;

	X16_INPUT(x, set, counter, key, nonce);
	X16_INPUT(y, set, counter + 16, key, nonce);
#pragma GCC unroll 10
	for (i = 0; i < 10; i++) {
		X16_DOUBLE_ROUND(x);
		X16_DOUBLE_ROUND(y);
	}
	X16_FINISH(x, counter, io, sg, len, 0);
	X16_FINISH(y, counter + 16, io, sg, len, 1024);
}

/* The last @len (1..1024) bytes: sixteen, eight or one block wide. */
X16_TARGET static void chacha20_tail(const u32 key[8], const u32 nonce[3],
				     u32 counter, const u8 *src, u8 *dst,
				     size_t len)
{
	struct chacha_io io = { .src = src, .dst = dst };

	if (len > 512)
		chacha20_x16_pass(key, nonce, counter, &io, false, len, false,
				  NULL);
	else if (len > TLSX_CHACHA_BLOCK)
		chacha20_x8_pass(key, nonce, counter, src, dst, len, false,
				 NULL);
	else
		tlsx_chacha20_xor_generic(key, nonce, counter, src, dst, len);
}

X16_TARGET void tlsx_chacha20_xor_avx512(const u32 key[8],
					 const u32 nonce[3], u32 counter,
					 const u8 *src, u8 *dst, size_t len)
{
	struct chacha_io io = { .src = src, .dst = dst };

	while (len > 1024) {
		size_t n = len < 2048 ? len : 2048;

		chacha20_x32_pass(key, nonce, counter, &io, false, n);
		io.src += n;
		io.dst += n;
		len -= n;
		counter += 32;
	}
	if (len)
		chacha20_tail(key, nonce, counter, io.src, io.dst, len);
}

/*
 * The same over segment lists, from @src to @dst (positions moved on by
 * @len bytes).  A pass that lies in one segment of each list runs as for
 * a buffer; one that crosses a boundary runs its blocks through windows
 * (struct chacha_io), a block across the boundary in two byte-masked
 * parts.  So a record in pieces costs about the passes of a record whole,
 * without a pass cut or a block bounced at every piece.  A pass whose
 * first 1 KiB lies in one segment and the rest not takes that 1 KiB as
 * for a buffer and leaves the rest to the next pass, which then starts
 * at or just before the boundary.
 */
X16_TARGET CHACHA_SG_NO_ASAN
void tlsx_chacha20_xor_sg_avx512(const u32 key[8], const u32 nonce[3],
				 u32 counter, struct tlsx_sg_pos *src,
				 struct tlsx_sg_pos *dst, size_t len)
{
	struct chacha_io io;
	size_t n, back;

	if (!len)
		return;
	tlsx_sg_cur_get(&io.s, src);
	tlsx_sg_cur_get(&io.d, dst);
	while (len) {
		n = len < 2048 ? len : 2048;
		chacha_io_window(&io, 0, n);
		if (io.end < n && io.end >= 1024) {
			back = io.end - 1024;	/* to the cursors again */
			io.s.ptr -= back;
			io.s.left += back;
			io.d.ptr -= back;
			io.d.left += back;
			n = io.end = 1024;
		}
		if (io.end == n)
			tlsx_chacha20_xor_avx512(key, nonce, counter, io.src,
						 io.dst, n);
		else if (n > 1024)
			chacha20_x32_pass(key, nonce, counter, &io, true, n);
		else
			chacha20_x16_pass(key, nonce, counter, &io, true, n,
					  false, NULL);
		len -= n;
		counter += (u32)(n / TLSX_CHACHA_BLOCK);
	}
	tlsx_sg_cur_put(&io.s, src);
	tlsx_sg_cur_put(&io.d, dst);
}

/* One ChaCha quarter round on the four rows of two blocks (RFC 8439 2.1). */
#define ROW_QR(a, b, c, d) do {						\
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a);	\
	d = _mm256_rol_epi32(d, 16);					\
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);	\
	b = _mm256_rol_epi32(b, 12);					\
	a = _mm256_add_epi32(a, b); d = _mm256_xor_si256(d, a);	\
	d = _mm256_rol_epi32(d, 8);					\
	c = _mm256_add_epi32(c, d); b = _mm256_xor_si256(b, c);	\
	b = _mm256_rol_epi32(b, 7);					\
} while (0)

/*
 * The first pass of a record of at most one block: blocks 0 and 1 in row
 * form, one block per 128-bit half of four YMM registers (a row each), so
 * a round is one chain of 12 vector operations and 3 lane rotations
 * (RFC 8439 section 2.3's diagonal rounds): shorter than the eight-block
 * pass, which does eight times the work for the one block wanted.
 */
X8_TARGET static void chacha20_rows_first(const u32 key[8],
					  const u32 nonce[3], u8 otk[32],
					  const u8 *src, u8 *dst, size_t len)
{
	const __m256i c = _mm256_broadcastsi128_si256(
		_mm_set_epi32(0x6b206574, 0x79622d32, 0x3320646e, 0x61707865));
	const __m256i k0 = _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)key));
	const __m256i k1 = _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)(key + 4)));
	const __m256i n = _mm256_set_epi32((int)nonce[2], (int)nonce[1],
					   (int)nonce[0], 1, (int)nonce[2],
					   (int)nonce[1], (int)nonce[0], 0);
	__m256i a = c, b = k0, cc = k1, d = n;
	int i;

	for (i = 0; i < 10; i++) {
		ROW_QR(a, b, cc, d);
		b = _mm256_shuffle_epi32(b, 0x39);
		cc = _mm256_shuffle_epi32(cc, 0x4e);
		d = _mm256_shuffle_epi32(d, 0x93);
		ROW_QR(a, b, cc, d);
		b = _mm256_shuffle_epi32(b, 0x93);
		cc = _mm256_shuffle_epi32(cc, 0x4e);
		d = _mm256_shuffle_epi32(d, 0x39);
	}
	a = _mm256_add_epi32(a, c);
	b = _mm256_add_epi32(b, k0);
	cc = _mm256_add_epi32(cc, k1);
	d = _mm256_add_epi32(d, n);
	/* Block 0's first 32 bytes: the Poly1305 key (section 2.6). */
	_mm_storeu_si128((__m128i *)otk, _mm256_castsi256_si128(a));
	_mm_storeu_si128((__m128i *)(otk + 16), _mm256_castsi256_si128(b));
	/* Block 1, rows a b | cc d, XORed into the text under a byte mask. */
	x8_xor32(src, dst, len, 0, _mm256_permute2x128_si256(a, b, 0x31));
	x8_xor32(src, dst, len, 32, _mm256_permute2x128_si256(cc, d, 0x31));
}

/*
 * The first pass: block 0 alongside block 1 in row form for a record of
 * one block at most, else in scalar registers alongside blocks 1-8 (YMM)
 * or 1-16 (ZMM), whichever covers @len (at most 1024).
 */
X16_TARGET void tlsx_chacha20_xor0_avx512(const u32 key[8],
					  const u32 nonce[3], u8 otk[32],
					  const u8 *src, u8 *dst, size_t len)
{
	if (len <= TLSX_CHACHA_BLOCK)
		chacha20_rows_first(key, nonce, otk, src, dst, len);
	else if (len <= 512)
		chacha20_x8_pass(key, nonce, 1, src, dst, len, true, otk);
	else
		chacha20_x16_pass(key, nonce, 1,
				  &(struct chacha_io){ .src = src, .dst = dst },
				  false, len, true, otk);
}
