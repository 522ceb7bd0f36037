/* SPDX-License-Identifier: GPL-2.0 */
/*
 * gcm_aesni_template.h - AES-GCM with AES-NI and PCLMULQDQ on 128-bit
 * vectors, built twice: with legacy SSE encoding by gcm_aesni.c (every
 * x86-64 CPU with AES-NI, including those without AVX such as the Atom
 * and Celeron lines up to Tremont) and with VEX encoding by
 * gcm_aesni_avx.c, where the three-operand forms save the register
 * copies of two-operand SSE (about an eighth fewer instructions per
 * block).  The includer defines:
 *
 *   AESNI_TARGET	the target attribute of every function here;
 *   AESNI_OPS		the name of the engine's struct tlsx_aead_ops;
 *   AESNI_NAME		its name string;
 *   AESNI_PRECOMPUTE	(optional) the name of the key precomputation.
 *			The key layout does not depend on the encoding,
 *			so one build provides it for both;
 *   AESNI_SPLIT_UPDATE	(optional) update() in one function per key size.
 *
 * Every function here runs inside a SIMD section.
 *
 * GF(2^128) representation
 * ------------------------
 * GCM gives the coefficient of x^0 to the top bit of byte 0 of a block.
 * Each block is byte-reversed as it enters a register (pshufb), so the
 * register read as a 128-bit integer is the block read big-endian: the
 * coefficient of x^k is bit 127 - k.  The carry-less product of two such
 * integers has the coefficient of x^k at bit 254 - k; read with the
 * convention "x^k at bit 255 - k" of a 256-bit number it is a * b * x.
 * The key therefore stores H' = H * x^-1 (a one-bit left shift of the
 * register, adding x^-1 = x^127 + x^6 + x + 1, i.e. 0xc2..01, when the
 * x^0 bit falls out), and its powers H^i * x^-1, so that a product
 * needs no shift: clmul(a, H^i * x^-1) = a * H^i.
 *
 * Reduction of the 256-bit product X3:X2:X1:X0 (64-bit words, X3 holding
 * degrees 0..63 and X0 degrees 192..255): x^128 = 1 + x + x^2 + x^7, so
 * X0 (degree 192 + i) becomes x^(64 + i) (1 + x + x^2 + x^7).  Its x^0
 * term is X0 itself added to X2; the other three terms are one carry-less
 * multiply of X0 by 0xc200000000000000, which lands on X2:X1.  A second
 * identical fold sends the new X1 onto X3:X2, which is the result.  With
 * the low half in one register, each fold is a pshufd swapping its
 * halves, one pclmul and one xor.
 *
 * Aggregation: GHASH over n blocks from accumulator Y is
 * sum_i (X_i [+ Y if i = 0]) * H^(n - i), and the reduction is linear, so
 * eight blocks take 24 pclmuls (Karatsuba: lo*lo, hi*hi and
 * (lo^hi)*(lo^hi) per block, the last with a precomputed hi^lo of each
 * power) and one reduction.  The key holds H^1..H^8 (times x^-1) and
 * their Karatsuba halves.
 *
 * Counter mode: the counter block is kept byte-reversed, which puts the
 * 32-bit big-endian counter in the low dword; paddd then is GCM's inc32
 * (mod 2^32), and one pshufb per block turns it back.
 *
 * Main loop, eight blocks in flight: encryption runs the AES rounds of
 * the next eight counter blocks and, between them, one GHASH step per
 * ciphertext block of the previous eight; decryption does the same with
 * the ciphertext it is decrypting.  The AES unit and the carry-less
 * multiplier then work in parallel.  Register plan (16 xmm): eight AES
 * states, one round key, the three Karatsuba accumulators, one data block
 * and its power of H; the compiler spills the rest (the powers are loads
 * from the key anyway).  Rounds are unrolled for 10 and 14 rounds, and
 * the loops over the blocks of a batch and over the rounds are unrolled
 * completely (#pragma GCC unroll) so the blocks stay in registers.
 *
 * Tails: the last call of an operation may leave up to 127 bytes: its
 * blocks go through one batch of four or eight AES blocks and one
 * aggregated GHASH; a final partial block is loaded and stored in 8, 4,
 * 2 and 1-byte pieces chosen by the (public) length, without byte loops.
 *
 * Segment lists (update_sg()): the same loop walks them through a cursor
 * per list (sg_cursor.h), a run of batches that lie inside one segment of
 * each list at a time, worked where they lie; a batch across a boundary
 * is copied into a buffer, worked there and copied out.  So a record in
 * pieces (a header before page-cache pages, TCP segments) is one pass
 * with GHASH stitched across the boundaries, not a call per piece whose
 * first and last batches run unstitched plus a call for the block
 * across each boundary.
 */
#include "aead/sg_cursor.h"

#define AESNI_BATCH	128	/* bytes of the main loop's eight blocks */

/* k->simd: powers of H (times x^-1) and the hi ^ lo of each. */
struct gcm_aesni_powers {
	__m128i h[8];		/* h[i] = H^(i + 1) * x^-1 */
	__m128i hk[8];		/* both halves: hi ^ lo of h[i] */
};

_Static_assert(sizeof(struct gcm_aesni_powers) <= TLSX_GCM_SIMD_BYTES,
	       "powers of H do not fit in tlsx_gcm_key.simd");

static __always_inline AESNI_TARGET __m128i bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
						10, 11, 12, 13, 14, 15));
}

static __always_inline AESNI_TARGET __m128i load_block(const u8 *p)
{
	return _mm_loadu_si128((const __m128i *)p);
}

static __always_inline AESNI_TARGET void store_block(u8 *p, __m128i x)
{
	_mm_storeu_si128((__m128i *)p, x);
}

/* Up to 7 bytes as a little-endian number, by pieces. */
static __always_inline u64 load_upto7(const u8 *p, unsigned int n)
{
	unsigned int o = 0;
	u64 v = 0;

	if (n & 4) {
		v = get_unaligned_le32(p);
		o = 4;
	}
	if (n & 2) {
		u16 w;

		__builtin_memcpy(&w, p + o, 2);
		v |= (u64)w << (8 * o);
		o += 2;
	}
	if (n & 1)
		v |= (u64)p[o] << (8 * o);
	return v;
}

static __always_inline void store_upto7(u8 *p, u64 v, unsigned int n)
{
	unsigned int o = 0;

	if (n & 4) {
		put_unaligned_le32((u32)v, p);
		o = 4;
	}
	if (n & 2) {
		u16 w = (u16)(v >> (8 * o));

		__builtin_memcpy(p + o, &w, 2);
		o += 2;
	}
	if (n & 1)
		p[o] = (u8)(v >> (8 * o));
}

/* @n (1..15) bytes into the low bytes of a register, the rest zero. */
static AESNI_TARGET __m128i load_partial(const u8 *p, unsigned int n)
{
	u64 lo, hi = 0;

	if (n >= 8) {
		lo = get_unaligned_le64(p);
		hi = load_upto7(p + 8, n - 8);
	} else {
		lo = load_upto7(p, n);
	}
	return _mm_set_epi64x((long long)hi, (long long)lo);
}

static AESNI_TARGET void store_partial(u8 *p, __m128i x, unsigned int n)
{
	u64 lo = (u64)_mm_cvtsi128_si64(x);
	u64 hi = (u64)_mm_cvtsi128_si64(_mm_unpackhi_epi64(x, x));

	if (n >= 8) {
		put_unaligned_le64(lo, p);
		store_upto7(p + 8, hi, n - 8);
	} else {
		store_upto7(p, lo, n);
	}
}

/*
 * Key material (round keys, powers of H) is loaded where it is used, not
 * kept in registers across batches: with every round key and power live
 * at once the compiler would spill some of them to the stack.  So each
 * batch of blocks first passes its key pointer through an empty asm
 * (key_barrier()): its loads then depend on that batch and cannot be
 * hoisted out of the loop.  (A barrier per load, as this file once had,
 * costs a register copy of the address for every load: about a sixth of
 * the instructions of the main loop.)
 */
#define key_barrier(p)	__asm__("" : "+r"(p))

static __always_inline AESNI_TARGET __m128i load_key(const void *addr)
{
	return _mm_load_si128(addr);
}

/* ------------------------------------------------------------------ */
/* GHASH                                                                */
/* ------------------------------------------------------------------ */

/* Unreduced Karatsuba sums of several block * power products. */
struct ghash_acc {
	__m128i lo, hi, mid;
};

static __always_inline AESNI_TARGET void ghash_acc_zero(struct ghash_acc *a)
{
	a->lo = _mm_setzero_si128();
	a->hi = _mm_setzero_si128();
	a->mid = _mm_setzero_si128();
}

/* a += x * h, with hk = hi ^ lo of h in its low half. */
static __always_inline AESNI_TARGET void ghash_acc_mul(struct ghash_acc *a,
							__m128i x, __m128i h,
							__m128i hk)
{
	__m128i xk = _mm_xor_si128(x, _mm_shuffle_epi32(x, 0x4e));

	a->lo = _mm_xor_si128(a->lo, _mm_clmulepi64_si128(x, h, 0x00));
	a->hi = _mm_xor_si128(a->hi, _mm_clmulepi64_si128(x, h, 0x11));
	a->mid = _mm_xor_si128(a->mid, _mm_clmulepi64_si128(xk, hk, 0x00));
	/*
	 * Keep the three sums as running sums in registers: left free, the
	 * compiler reassociates the XORs into a tree and spills the partial
	 * products (values derived from H) to the stack.
	 */
	__asm__("" : "+x"(a->lo), "+x"(a->hi), "+x"(a->mid));
}

/* hi:lo (256 bits, hi holding degrees 0..127) modulo P. */
static __always_inline AESNI_TARGET __m128i ghash_reduce(__m128i hi,
							 __m128i lo)
{
	const __m128i poly = _mm_set_epi64x(0, 0xc200000000000000LL);

	lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
			   _mm_clmulepi64_si128(lo, poly, 0x00));
	lo = _mm_xor_si128(_mm_shuffle_epi32(lo, 0x4e),
			   _mm_clmulepi64_si128(lo, poly, 0x00));
	return _mm_xor_si128(hi, lo);
}

static __always_inline AESNI_TARGET __m128i ghash_acc_reduce(
	const struct ghash_acc *a)
{
	__m128i mid = _mm_xor_si128(a->mid, _mm_xor_si128(a->lo, a->hi));
	__m128i lo = _mm_xor_si128(a->lo, _mm_slli_si128(mid, 8));
	__m128i hi = _mm_xor_si128(a->hi, _mm_srli_si128(mid, 8));

	return ghash_reduce(hi, lo);
}

/* a * b * x, i.e. a * H^i for b = H^i * x^-1 (schoolbook, for setup). */
static AESNI_TARGET __m128i gf_mul(__m128i a, __m128i b)
{
	__m128i lo = _mm_clmulepi64_si128(a, b, 0x00);
	__m128i hi = _mm_clmulepi64_si128(a, b, 0x11);
	__m128i mid = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
				    _mm_clmulepi64_si128(a, b, 0x10));

	lo = _mm_xor_si128(lo, _mm_slli_si128(mid, 8));
	hi = _mm_xor_si128(hi, _mm_srli_si128(mid, 8));
	return ghash_reduce(hi, lo);
}

#ifdef AESNI_PRECOMPUTE
AESNI_TARGET void AESNI_PRECOMPUTE(struct tlsx_gcm_key *k)
{
	struct gcm_aesni_powers *pw = (struct gcm_aesni_powers *)k->simd;
	u64 hi = get_unaligned_be64(k->h), lo = get_unaligned_be64(k->h + 8);
	u64 mask = -(hi >> 63);
	__m128i h1, p;
	int i;

	/* H * x^-1: shift towards x^0; x^0 * x^-1 = x^127 + x^6 + x + 1. */
	hi = (hi << 1) | (lo >> 63);
	lo <<= 1;
	hi ^= mask & 0xc200000000000000ULL;
	lo ^= mask & 1;
	h1 = _mm_set_epi64x((long long)hi, (long long)lo);

	p = h1;
	for (i = 0; i < 8; i++) {
		_mm_store_si128(&pw->h[i], p);
		_mm_store_si128(&pw->hk[i],
				_mm_xor_si128(p, _mm_shuffle_epi32(p, 0x4e)));
		p = gf_mul(p, h1);
	}
}
#endif /* AESNI_PRECOMPUTE */

/*
 * GHASH of @len bytes (the last block zero-padded) into @y: eight blocks
 * per reduction, then the rest in one aggregated step.
 */
static AESNI_TARGET __m128i ghash_data(__m128i y,
				       const struct gcm_aesni_powers *pw,
				       const u8 *p, size_t len)
{
	struct ghash_acc a;
	unsigned int nb, i;
	__m128i x;

	while (len >= 128) {
		key_barrier(pw);
		ghash_acc_zero(&a);
#pragma GCC unroll 16
		for (i = 0; i < 8; i++) {
			x = bswap128(load_block(p + 16 * i));
			if (i == 0)
				x = _mm_xor_si128(x, y);
			ghash_acc_mul(&a, x, load_key(&pw->h[7 - i]),
				      load_key(&pw->hk[7 - i]));
		}
		y = ghash_acc_reduce(&a);
		p += 128;
		len -= 128;
	}
	if (!len)
		return y;

	nb = (len + 15) / 16;
	ghash_acc_zero(&a);
	for (i = 0; i < nb; i++) {
		if (16 * i + 16 <= len)
			x = load_block(p + 16 * i);
		else
			x = load_partial(p + 16 * i, len - 16 * i);
		x = bswap128(x);
		if (i == 0)
			x = _mm_xor_si128(x, y);
		ghash_acc_mul(&a, x, load_key(&pw->h[nb - 1 - i]),
			      load_key(&pw->hk[nb - 1 - i]));
	}
	return ghash_acc_reduce(&a);
}

/* ------------------------------------------------------------------ */
/* AES                                                                  */
/* ------------------------------------------------------------------ */

static __always_inline AESNI_TARGET __m128i round_key(
	const struct tlsx_gcm_key *k, int r)
{
	return load_key(k->rk + 16 * r);
}

/*
 * An empty asm that claims to modify the @n blocks together: placed after
 * each round it keeps the rounds in order, all blocks of one round before
 * any of the next.  Without it GCC may reorder the unrolled code block by
 * block, which serialises the AES latency and keeps every round key live
 * at once, so some of them get spilled to the stack.
 */
static __always_inline AESNI_TARGET void round_barrier(__m128i *b, int n)
{
	int i;

	if (n == 8) {
		__asm__("" : "+x"(b[0]), "+x"(b[1]), "+x"(b[2]), "+x"(b[3]),
			"+x"(b[4]), "+x"(b[5]), "+x"(b[6]), "+x"(b[7]));
	} else if (n == 4) {
		__asm__("" : "+x"(b[0]), "+x"(b[1]), "+x"(b[2]), "+x"(b[3]));
	} else {
		for (i = 0; i < n; i++)
			__asm__("" : "+x"(b[i]));
	}
}

/* AES of @n blocks in place; @rounds is a constant after inlining. */
static __always_inline AESNI_TARGET void aes_blocks(__m128i *b, int n,
						    const struct tlsx_gcm_key *k,
						    int rounds)
{
	__m128i rk;
	int r, i;

	key_barrier(k);
	rk = round_key(k, 0);
#pragma GCC unroll 16
	for (i = 0; i < n; i++)
		b[i] = _mm_xor_si128(b[i], rk);
#pragma GCC unroll 16
	for (r = 1; r < rounds; r++) {
		rk = round_key(k, r);
#pragma GCC unroll 16
		for (i = 0; i < n; i++)
			b[i] = _mm_aesenc_si128(b[i], rk);
		round_barrier(b, n);
	}
	rk = round_key(k, rounds);
#pragma GCC unroll 16
	for (i = 0; i < n; i++)
		b[i] = _mm_aesenclast_si128(b[i], rk);
}

/* Counter blocks ctr .. ctr + n - 1 from the byte-reversed counter. */
static __always_inline AESNI_TARGET void counter_blocks(__m128i *b, int n,
							__m128i ctr)
{
	int i;

#pragma GCC unroll 16
	for (i = 0; i < n; i++)
		b[i] = bswap128(_mm_add_epi32(ctr, _mm_set_epi32(0, 0, 0, i)));
}

/*
 * Eight blocks of counter mode, with the GHASH of the eight ciphertext
 * blocks at @gsrc (if not NULL) interleaved with the rounds: block j of
 * the GHASH between rounds j + 1 and j + 2.  Returns the new accumulator
 * (or @y unchanged when @gsrc is NULL).
 */
static __always_inline AESNI_TARGET __m128i ctr8_ghash8(
	__m128i ctr, const u8 *src, u8 *dst, const struct tlsx_gcm_key *k,
	int rounds, const u8 *gsrc, __m128i y)
{
	const struct gcm_aesni_powers *pw;
	struct ghash_acc a;
	__m128i b[8], rk, x;
	int r, i;

	key_barrier(k);
	pw = (const struct gcm_aesni_powers *)k->simd;

	counter_blocks(b, 8, ctr);
	rk = round_key(k, 0);
#pragma GCC unroll 16
	for (i = 0; i < 8; i++)
		b[i] = _mm_xor_si128(b[i], rk);
	if (gsrc)
		ghash_acc_zero(&a);
#pragma GCC unroll 16
	for (r = 1; r < rounds; r++) {
		rk = round_key(k, r);
#pragma GCC unroll 16
		for (i = 0; i < 8; i++)
			b[i] = _mm_aesenc_si128(b[i], rk);
		if (gsrc && r <= 8) {
			x = bswap128(load_block(gsrc + 16 * (r - 1)));
			if (r == 1)
				x = _mm_xor_si128(x, y);
			ghash_acc_mul(&a, x, load_key(&pw->h[8 - r]),
				      load_key(&pw->hk[8 - r]));
		}
	}
	/*
	 * aesenclast(x, k) ^ t = aesenclast(x, k ^ t): the text joins the key.
	 * Decryption hashes the same text (@gsrc == @src): read it again
	 * here rather than let the compiler keep the eight blocks the GHASH
	 * steps loaded live across the rounds, which spills the AES states.
	 */
	key_barrier(src);
	rk = round_key(k, rounds);
#pragma GCC unroll 16
	for (i = 0; i < 8; i++)
		b[i] = _mm_aesenclast_si128(b[i], _mm_xor_si128(rk,
					    load_block(src + 16 * i)));
	if (gsrc)
		y = ghash_acc_reduce(&a);
#pragma GCC unroll 16
	for (i = 0; i < 8; i++)
		store_block(dst + 16 * i, b[i]);
	return y;
}

/*
 * Counter mode over the last 1..127 bytes of an operation (or of a call
 * whose length is a multiple of 64 but not of 128).  The keystream of
 * up to eight blocks comes from one batch; the caller does the GHASH.
 */
static __always_inline AESNI_TARGET void ctr_tail_n(__m128i ctr,
						    const u8 *src, u8 *dst,
						    size_t len,
						    const struct tlsx_gcm_key *k,
						    int rounds, int n)
{
	int full = len / 16, rest = len % 16;
	__m128i b[8];
	int i;

	counter_blocks(b, n, ctr);
	aes_blocks(b, n, k, rounds);
	/*
	 * Constant indices only (the branches test public lengths), so that
	 * b[] lives in registers rather than in a stack array.
	 */
#pragma GCC unroll 16
	for (i = 0; i < n; i++) {
		if (i < full) {
			store_block(dst + 16 * i, _mm_xor_si128(b[i],
						load_block(src + 16 * i)));
		} else if (i == full && rest) {
			__m128i x = load_partial(src + 16 * i, rest);

			store_partial(dst + 16 * i, _mm_xor_si128(x, b[i]),
				      rest);
		}
	}
}

static __always_inline AESNI_TARGET void ctr_tail(__m128i ctr, const u8 *src,
						  u8 *dst, size_t len,
						  const struct tlsx_gcm_key *k,
						  int rounds)
{
	if (len <= 64)
		ctr_tail_n(ctr, src, dst, len, k, rounds, 4);
	else
		ctr_tail_n(ctr, src, dst, len, k, rounds, 8);
}

/*
 * Where an update's text comes from and goes to, a run of whole batches
 * (or the tail) at a time: @src and @dst point at it.  Contiguous
 * buffers are one run.  With @sg (update_sg()) they are segment lists,
 * and a run is what lies inside one segment of each, worked where it
 * lies with the loop of contiguous buffers (no cursor move per batch:
 * with one, TCG's instruction count, which the module's like-for-like
 * figures use, rose 3 to 6 % per record).  A batch that spans segments
 * of a list goes through @buf, which holds two batches taken in turn,
 * because encryption hashes a batch's ciphertext while it works on the
 * next (ctr8_ghash8()'s @gsrc).
 */
struct aesni_io {
	const u8 *src;
	u8 *dst;
	struct tlsx_sg_cur s, d;
	u8 *buf;		/* 2 * AESNI_BATCH bytes */
	unsigned int turn;	/* the half of @buf a spanning batch takes */
	bool src_in_buf;
	bool dst_in_buf;
	bool buf_used;
};

/*
 * Point @io at the next run: @max bytes (whole batches, or the tail) or
 * fewer, whole batches then; returns its length.
 */
static __always_inline AESNI_TARGET size_t aesni_io_begin(struct aesni_io *io,
							  size_t max,
							  const bool sg)
{
	size_t m;
	u8 *b;

	if (!sg)
		return max;
	/* Past finished segments: @max bytes are left in both lists. */
	tlsx_sg_cur_has(&io->s, 1);
	tlsx_sg_cur_has(&io->d, 1);
	m = io->s.left < io->d.left ? io->s.left : io->d.left;
	if (m >= max || m >= AESNI_BATCH) {
		io->src_in_buf = false;
		io->dst_in_buf = false;
		io->src = io->s.ptr;
		io->dst = io->d.ptr;
		return m >= max ? max : m & ~(size_t)(AESNI_BATCH - 1);
	}
	/* One batch (or the tail) across a boundary. */
	m = max < AESNI_BATCH ? max : AESNI_BATCH;
	b = io->buf + AESNI_BATCH * io->turn;
	io->turn ^= 1;
	io->buf_used = true;
	io->src_in_buf = io->s.left < m;
	io->src = io->s.ptr;
	if (io->src_in_buf) {
		tlsx_sg_cur_copy(&io->s, b, m, true);
		io->src = b;
	}
	io->dst_in_buf = io->d.left < m;
	io->dst = io->dst_in_buf ? b : io->d.ptr;
	return m;
}

/* The run of @n bytes is done: on to the next one. */
static __always_inline AESNI_TARGET void aesni_io_end(struct aesni_io *io,
						      size_t n, const bool sg)
{
	if (!sg) {
		io->src += n;
		io->dst += n;
		return;
	}
	if (!io->src_in_buf)
		tlsx_sg_cur_skip(&io->s, n);
	if (io->dst_in_buf)
		tlsx_sg_cur_copy(&io->d, io->dst, n, false);
	else
		tlsx_sg_cur_skip(&io->d, n);
}

/* One update of encryption or decryption with a constant round count. */
static __always_inline AESNI_TARGET void gcm_aesni_crypt(
	struct tlsx_gcm_state *s, const struct tlsx_gcm_key *k,
	struct aesni_io *io, size_t len, int rounds, bool encrypt,
	const bool sg)
{
	const struct gcm_aesni_powers *pw =
		(const struct gcm_aesni_powers *)k->simd;
	__m128i y = bswap128(_mm_load_si128((const __m128i *)s->acc));
	__m128i ctr = _mm_add_epi32(bswap128(load_block(s->j0)),
				    _mm_set_epi32(0, 0, 0, (int)(s->ctr - 1)));
	const __m128i eight = _mm_set_epi32(0, 0, 0, 8);
	const u8 *prev;
	size_t n, i;

	s->text_len += len;
	s->ctr += (u32)((len + 15) / 16);

	if (encrypt && len >= AESNI_BATCH) {
		/* First batch alone, then each batch hashes the previous. */
		aesni_io_begin(io, AESNI_BATCH, sg);
		ctr8_ghash8(ctr, io->src, io->dst, k, rounds, NULL, y);
		prev = io->dst;
		aesni_io_end(io, AESNI_BATCH, sg);
		ctr = _mm_add_epi32(ctr, eight);
		len -= AESNI_BATCH;
		while (len >= AESNI_BATCH) {
			n = aesni_io_begin(io, len & ~(size_t)(AESNI_BATCH - 1),
					   sg);
			for (i = 0; i < n; i += AESNI_BATCH) {
				y = ctr8_ghash8(ctr, io->src + i, io->dst + i,
						k, rounds, prev, y);
				prev = io->dst + i;
				ctr = _mm_add_epi32(ctr, eight);
			}
			aesni_io_end(io, n, sg);
			len -= n;
		}
		y = ghash_data(y, pw, prev, AESNI_BATCH);
	} else if (!encrypt) {
		while (len >= AESNI_BATCH) {
			n = aesni_io_begin(io, len & ~(size_t)(AESNI_BATCH - 1),
					   sg);
			for (i = 0; i < n; i += AESNI_BATCH) {
				y = ctr8_ghash8(ctr, io->src + i, io->dst + i,
						k, rounds, io->src + i, y);
				ctr = _mm_add_epi32(ctr, eight);
			}
			aesni_io_end(io, n, sg);
			len -= n;
		}
	}

	if (len) {
		aesni_io_begin(io, len, sg);
		if (!encrypt)
			y = ghash_data(y, pw, io->src, len);
		ctr_tail(ctr, io->src, io->dst, len, k, rounds);
		if (encrypt)
			y = ghash_data(y, pw, io->dst, len);
		aesni_io_end(io, len, sg);
	}
	_mm_store_si128((__m128i *)s->acc, bswap128(y));
}

static __always_inline AESNI_TARGET void gcm_aesni_update(
	struct tlsx_gcm_state *s, const struct tlsx_gcm_key *k,
	const u8 *src, u8 *dst, size_t len, int rounds, bool encrypt)
{
	struct aesni_io io = { .src = src, .dst = dst };

	gcm_aesni_crypt(s, k, &io, len, rounds, encrypt, false);
}

/*
 * update(): in the legacy SSE build one function per direction and key
 * size, as update_sg(): with both key sizes' loops in one function its
 * two-operand code spills the AES states in the main loop (59 stack
 * accesses per eight blocks against 12), and seals 11 % slower.  The
 * VEX build does not spill so (21 accesses, constants), and measured
 * 1.3 % slower split, so keeps one function per direction.
 */
#ifdef AESNI_SPLIT_UPDATE
#define AESNI_UPDATE(name, enc, rounds)					\
static noinline AESNI_TARGET void name(struct tlsx_gcm_state *st,	\
				       const struct tlsx_gcm_key *k,	\
				       const u8 *src, u8 *dst, size_t len)\
{									\
	gcm_aesni_update(st, k, src, dst, len, rounds, enc);		\
}
#else
#define AESNI_UPDATE(name, enc, rounds)					\
static __always_inline AESNI_TARGET void name(struct tlsx_gcm_state *st,\
					      const struct tlsx_gcm_key *k,\
					      const u8 *src, u8 *dst,	\
					      size_t len)		\
{									\
	gcm_aesni_update(st, k, src, dst, len, rounds, enc);		\
}
#endif

AESNI_UPDATE(gcm_aesni_update_enc10, true, 10)
AESNI_UPDATE(gcm_aesni_update_enc14, true, 14)
AESNI_UPDATE(gcm_aesni_update_dec10, false, 10)
AESNI_UPDATE(gcm_aesni_update_dec14, false, 14)

static AESNI_TARGET void gcm_aesni_encrypt(union tlsx_aead_state *st,
					   const struct tlsx_aead_key *k,
					   const u8 *src, u8 *dst, size_t len)
{
	if (k->u.gcm.rounds == 10)
		gcm_aesni_update_enc10(&st->gcm, &k->u.gcm, src, dst, len);
	else
		gcm_aesni_update_enc14(&st->gcm, &k->u.gcm, src, dst, len);
}

static AESNI_TARGET void gcm_aesni_decrypt(union tlsx_aead_state *st,
					   const struct tlsx_aead_key *k,
					   const u8 *src, u8 *dst, size_t len)
{
	if (k->u.gcm.rounds == 10)
		gcm_aesni_update_dec10(&st->gcm, &k->u.gcm, src, dst, len);
	else
		gcm_aesni_update_dec14(&st->gcm, &k->u.gcm, src, dst, len);
}

/*
 * update_sg(): one function per direction and key size, each with the
 * batch buffer in its frame.
 */
#define AESNI_UPDATE_SG(name, enc, rounds)				\
static noinline AESNI_TARGET void name(struct tlsx_gcm_state *st,	\
				       const struct tlsx_gcm_key *k,	\
				       struct tlsx_sg_pos *src,		\
				       struct tlsx_sg_pos *dst, size_t len)\
{									\
	u8 buf[2 * AESNI_BATCH] __aligned(16) TLSX_NOINIT;		\
	struct aesni_io io = { .buf = buf };				\
									\
	tlsx_sg_cur_get(&io.s, src);					\
	tlsx_sg_cur_get(&io.d, dst);					\
	gcm_aesni_crypt(st, k, &io, len, rounds, enc, true);		\
	tlsx_sg_cur_put(&io.s, src);					\
	tlsx_sg_cur_put(&io.d, dst);					\
	if (io.buf_used)	/* text went through it */		\
		memzero_explicit(buf, sizeof(buf));			\
}

AESNI_UPDATE_SG(gcm_aesni_update_sg_enc10, true, 10)
AESNI_UPDATE_SG(gcm_aesni_update_sg_enc14, true, 14)
AESNI_UPDATE_SG(gcm_aesni_update_sg_dec10, false, 10)
AESNI_UPDATE_SG(gcm_aesni_update_sg_dec14, false, 14)

static AESNI_TARGET void gcm_aesni_update_sg(union tlsx_aead_state *st,
					     const struct tlsx_aead_key *k,
					     bool enc, struct tlsx_sg_pos *src,
					     struct tlsx_sg_pos *dst,
					     size_t len)
{
	struct tlsx_gcm_state *g = &st->gcm;
	const struct tlsx_gcm_key *gk = &k->u.gcm;

	if (!len)
		return;
	if (gk->rounds == 10) {
		if (enc)
			gcm_aesni_update_sg_enc10(g, gk, src, dst, len);
		else
			gcm_aesni_update_sg_dec10(g, gk, src, dst, len);
	} else {
		if (enc)
			gcm_aesni_update_sg_enc14(g, gk, src, dst, len);
		else
			gcm_aesni_update_sg_dec14(g, gk, src, dst, len);
	}
}

static AESNI_TARGET void gcm_aesni_init(union tlsx_aead_state *st,
					const struct tlsx_aead_key *k,
					const u8 *nonce, const u8 *ad,
					size_t ad_len, size_t len)
{
	struct tlsx_gcm_state *s = &st->gcm;
	const struct gcm_aesni_powers *pw =
		(const struct gcm_aesni_powers *)k->u.gcm.simd;
	__m128i y = _mm_setzero_si128();

	(void)len;	/* GCM needs no length up front */
	/*
	 * One 16-byte store: the counter blocks are read back from it
	 * right away, and a load spanning smaller stores waits for them
	 * (see TLSX_GCM_J0()).
	 */
	_mm_storeu_si128((__m128i *)s->j0, TLSX_GCM_J0(nonce));
	s->ctr = 2;
	s->ad_len = ad_len;
	s->text_len = 0;
	if (ad_len)
		y = ghash_data(y, pw, ad, ad_len);
	_mm_store_si128((__m128i *)s->acc, bswap128(y));
}

static AESNI_TARGET void gcm_aesni_final(union tlsx_aead_state *st,
					 const struct tlsx_aead_key *k,
					 u8 *tag)
{
	struct tlsx_gcm_state *s = &st->gcm;
	const struct gcm_aesni_powers *pw =
		(const struct gcm_aesni_powers *)k->u.gcm.simd;
	__m128i y = bswap128(_mm_load_si128((const __m128i *)s->acc));
	__m128i lens = _mm_set_epi64x((long long)(s->ad_len * 8),
				      (long long)(s->text_len * 8));
	__m128i b[1];

	b[0] = load_block(s->j0);
	if (k->u.gcm.rounds == 10)
		aes_blocks(b, 1, &k->u.gcm, 10);
	else
		aes_blocks(b, 1, &k->u.gcm, 14);
	y = gf_mul(_mm_xor_si128(y, lens), load_key(&pw->h[0]));
	store_block(tag, _mm_xor_si128(bswap128(y), b[0]));
}

const struct tlsx_aead_ops AESNI_OPS = {
	.name = AESNI_NAME,
	.init = gcm_aesni_init,
	.encrypt = gcm_aesni_encrypt,
	.decrypt = gcm_aesni_decrypt,
	.final = gcm_aesni_final,
	.update_sg = gcm_aesni_update_sg,
	/*
	 * round keys, GHASH sums, the batch buffer: 192 / 640 bytes down in
	 * userspace, 496 / 944 in tlsx.ko (its ghash_data() not inlined)
	 */
	.stack_wipe = 640,
	.stack_wipe_sg = 1216,
};
