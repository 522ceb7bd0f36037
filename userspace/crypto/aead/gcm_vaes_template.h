/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wide AES-GCM engines, written once for two vector widths.
 * Private to gcm_vaes_avx2.c (GCM_VW 256: VAES and
 * VPCLMULQDQ on ymm, AVX2, 16 vector registers) and gcm_avx512.c
 * (GCM_VW 512: the same on zmm, with AVX-512BW masks and 32 registers).
 * The including file defines GCM_VW, GCM_NB (blocks per main-loop batch),
 * GCM_KX_TABLE if the Karatsuba key halves are stored (see gcm_load_kx()),
 * GCM_TARGET (the target attribute of every function) and the vector
 * primitives listed under "Vector primitives" below, then includes this
 * file once.
 *
 * Representation of GF(2^128)
 * ---------------------------
 * GCM numbers the bits of a block from the most significant bit of byte 0
 * (coefficient of x^0) to the least significant bit of byte 15 (x^127) and
 * reduces modulo P(x) = x^128 + x^7 + x^2 + x + 1.  We byte-reverse every
 * block as it enters a register (vpshufb), so that the 128-bit lane read as
 * a little-endian integer has the coefficient of x^i in bit 127 - i.  Read
 * naturally as a polynomial in y (bit j = coefficient of y^j), the lane
 * then holds y^127 * a(1/y).  The map a(x) -> a(1/y) is a ring isomorphism
 * from GF(2)[x]/P to GF(2)[y]/Q with the reversed polynomial
 * Q(y) = y^128 + y^127 + y^126 + y^121 + 1, so we compute in the y world,
 * where a carryless multiply of two lanes is an ordinary polynomial
 * product.
 *
 * A data lane holds A = y^127 a' (a' = a(1/y)).  Each stored key power
 * holds K_i = y^128 h'^i mod Q (one more factor y than a data lane).  The
 * 255-bit product A * K_i = y^255 a' h'^i, and a Montgomery reduction
 * (multiply by y^-128 mod Q) gives y^127 (a h^i)', a data lane again.  The
 * same reduction turns K_i * K_j into K_(i+j), which is how the powers are
 * built.  K_1 = y * (byte-reversed H) mod Q: a one-bit left shift with a
 * conditional XOR of Q's low terms (0xc2000...0001).
 *
 * Montgomery reduction by y^128, 64 bits at a time: since Q = 1 (mod y^64),
 * the multiple of Q that clears the low 64 bits L of T is L * Q, and
 * (T + L*Q) / y^64 = (T >> 64) + L * y^64 + L * (y^57 + y^62 + y^63).  The
 * last term is one carryless multiply of L by 0xc200000000000000.  With
 * the product kept as LO (bits 0..127), MI (64..191) and HI (128..255),
 * the first step folds LO into MI:
 *	MI ^= swap64(LO) ^ clmul(LO.lo, 0xc2..)
 * and the second folds MI into HI the same way; HI is then the reduced
 * lane.  The reduction is linear, so we add the LO/MI/HI products of many
 * blocks (each multiplied by its own power of H) and reduce once: GHASH
 * over n blocks is sum_i (X_i [+ acc if i = 0]) * H^(n - i).
 *
 * Main loop
 * ---------
 * A batch is GCM_NB blocks = GCM_NV vectors.  The powers table holds
 * K_NPOW, ..., K_1 (GCM_NPOW >= GCM_NB; more for the one-pass paths)
 * followed by GCM_LANES - 1 zero blocks (then, with GCM_KX_TABLE, the
 * same again with each power's two qwords XORed), so vector i of a
 * batch loads its lanes' powers with one plain load from gcm_powers(),
 * and a tail of n < NB blocks uses the table from entry NB - n (the zero
 * padding covers the lanes beyond the tail, whose data are zero anyway).
 * Decryption hashes the ciphertext of the batch it is decrypting;
 * encryption hashes the previous batch's ciphertext (still in registers)
 * while running the AES rounds of the next one.  The GHASH steps (3
 * carryless multiplies of one vector each) are spread evenly between the
 * AES rounds and the reduction follows the last step, so the AES and
 * carryless-multiply units both stay busy.  The step that takes the
 * previous batch's accumulator goes last, giving the previous reduction a
 * whole batch of time to complete.
 *
 * Counters: the counter vector is kept byte-reversed, which makes the
 * 32-bit big-endian block counter the low dword of each lane; vpaddd then
 * increments it modulo 2^32 exactly as GCM's inc32, and one vpshufb per
 * vector turns it back into AES input.  The last AES round takes the round
 * key XORed with the input text (aesenclast(x, k ^ p) = aesenclast(x, k)
 * ^ p), saving an XOR per vector.
 *
 * Tails: lengths are public, so branching on them is fine.  The last
 * vector of a message is loaded and stored with a byte mask (AVX-512BW) or
 * through a register-sized stack buffer (AVX2); the GHASH input beyond the
 * text is zero.
 *
 * Registers and stack: the helpers below are all inlined into the four
 * update functions (encrypt/decrypt x 10/14 rounds), so arrays of vectors
 * become registers.  Round keys are reloaded (broadcast) from the key in
 * every batch rather than held in registers, and nothing key-derived is
 * kept in a local array, so the 512-bit engine needs no stack frame at
 * all; the 256-bit one, with 16 registers, spills counters, ciphertext
 * and GHASH sums (about 0.5 KiB).
 *
 * Interface with the other engines (gcm_engines.h): st->acc is in the
 * spec's byte order between calls and st->ctr is the 32-bit counter of the
 * next keystream block, so any engine can continue an operation.
 */

#define GCM_LANES	(GCM_VW / 128)
#define GCM_VB		(GCM_VW / 8)		/* bytes per vector */
#define GCM_NV		(GCM_NB / GCM_LANES)	/* vectors per batch */
#define GCM_BATCH	(GCM_NB * 16)		/* bytes per batch */
/*
 * Powers of H in the table: GCM_NB for the main loop (and gcm_short()),
 * or more (GCM_NPOW, set by the including file): gcm_mid() needs
 * GCM_NB + 1.
 */
#ifndef GCM_NPOW
#define GCM_NPOW	GCM_NB
#endif
_Static_assert(GCM_NPOW >= GCM_NB, "fewer powers of H than a batch");
#define GCM_TABLE_BLOCKS (GCM_NPOW + GCM_LANES - 1)
/*
 * Segment lists in the engine (update_sg()): a batch across a boundary
 * is gathered vector by vector under byte masks (AVX-512BW), or, on the
 * 256-bit engine, copied in runs through the cursor (sg_cursor.h).
 */
#if GCM_VW == 512
#include "aead/sg_avx512.h"
#else
#include "aead/sg_cursor.h"
#endif

/* Vectors hashed per GHASH step of the main loop (gcm_prod_add2()). */
#if GCM_VW == 512
#define GCM_STEP	2
#else
#define GCM_STEP	1
#endif

/*
 * Arrays of vectors here are TLSX_NOINIT (platform.h): zeroed at entry
 * in the kernel, they would be kept in memory, the main loop's registers
 * on a 2.5 KiB stack frame.
 */

#ifdef GCM_KX_TABLE
_Static_assert(GCM_TABLE_BLOCKS * 32 <= TLSX_GCM_SIMD_BYTES,
#else
_Static_assert(GCM_TABLE_BLOCKS * 16 <= TLSX_GCM_SIMD_BYTES,
#endif
	       "powers of H do not fit in tlsx_gcm_key.simd");

/* A 128-bit lane with every byte reversed (spec order <-> register). */
static __always_inline GCM_TARGET
__m128i gcm_bswap128(__m128i x)
{
	return _mm_shuffle_epi8(x, _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
						10, 11, 12, 13, 14, 15));
}

static __always_inline GCM_TARGET
gvec gcm_bswap_mask(void)
{
	return v_bcast128(_mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
				       12, 13, 14, 15));
}

/* 0xc200000000000000 in every qword: Q's terms y^121..y^127, over y^64. */
static __always_inline GCM_TARGET
gvec gcm_poly(void)
{
	return v_set1_64(0xc200000000000000ULL);
}

/* Sums of products of blocks by powers of H, unreduced (see above). */
struct gcm_prod {
	gvec lo, mi, hi;
};

/*
 * Karatsuba: the middle term of a * k is (a.lo + a.hi)(k.lo + k.hi) + lo
 * + hi.  With GCM_KX_TABLE the table keeps k.lo + k.hi of each power (in
 * both qwords) after the powers; otherwise it is computed as the powers
 * are loaded (two cheap shuffle/XOR operations, which leaves room in the
 * table for more powers).  The sums of lo and hi are added to mi once, in
 * the reduction.  Three carryless multiplies per vector instead of four:
 * on the AMD EPYC (Zen 4 class) we measured, VPCLMULQDQ sustains one
 * instruction per ~1.05 TSC cycles whether on ymm or zmm, against one VAES
 * per ~0.3, so GHASH, not AES, bounds the main loop and every multiply
 * saved counts (Karatsuba measured 10-15% faster than four multiplies).
 * On Zen 5 (tlsx-bench uarch): VPCLMULQDQ one per 2 core cycles at any
 * width, VAES two per cycle, and plain vector instructions share their
 * pipes (docs/perf-crypto.md).
 */
static __always_inline GCM_TARGET
gvec gcm_load_kx(const u8 *kp, gvec k)
{
#ifdef GCM_KX_TABLE
	(void)k;
	return v_load(kp + GCM_TABLE_BLOCKS * 16);
#else
	(void)kp;
	return v_xor(k, v_swap64(k));
#endif
}

static __always_inline GCM_TARGET
void gcm_prod_init(struct gcm_prod *p, gvec a, const u8 *kp)
{
	gvec k = v_load(kp), kx = gcm_load_kx(kp, k);

	p->lo = v_clmul(a, k, 0x00);
	p->mi = v_clmul(v_xor(a, v_swap64(a)), kx, 0x00);
	p->hi = v_clmul(a, k, 0x11);
}

static __always_inline GCM_TARGET
void gcm_prod_add(struct gcm_prod *p, gvec a, const u8 *kp)
{
	gvec k = v_load(kp), kx = gcm_load_kx(kp, k);

	p->lo = v_xor(p->lo, v_clmul(a, k, 0x00));
	p->mi = v_xor(p->mi, v_clmul(v_xor(a, v_swap64(a)), kx, 0x00));
	p->hi = v_xor(p->hi, v_clmul(a, k, 0x11));
	/*
	 * Keep the sums in registers as they grow: left alone, the compiler
	 * reassociates the XOR chains, keeps every product live until the
	 * end of the batch and spills them.
	 */
	v_pin(p->lo);
	v_pin(p->mi);
	v_pin(p->hi);
}

/*
 * The products of two vectors at once, each sum growing by a three-way
 * XOR (vpternlogq) instead of two XORs: on Zen 5 the plain vector
 * instructions of the main loop share pipes with VAES and VPCLMULQDQ, so
 * each one saved counts.  For AVX-512 only (AVX2 has no three-way XOR).
 */
static __always_inline GCM_TARGET
void gcm_prod_add2(struct gcm_prod *p, gvec a0, const u8 *kp0, gvec a1,
		   const u8 *kp1)
{
	gvec k0 = v_load(kp0), kx0 = gcm_load_kx(kp0, k0);
	gvec k1 = v_load(kp1), kx1 = gcm_load_kx(kp1, k1);

	p->lo = v_xor3(p->lo, v_clmul(a0, k0, 0x00), v_clmul(a1, k1, 0x00));
	p->mi = v_xor3(p->mi, v_clmul(v_xor(a0, v_swap64(a0)), kx0, 0x00),
		       v_clmul(v_xor(a1, v_swap64(a1)), kx1, 0x00));
	p->hi = v_xor3(p->hi, v_clmul(a0, k0, 0x11), v_clmul(a1, k1, 0x11));
	v_pin(p->lo);
	v_pin(p->mi);
	v_pin(p->hi);
}

/* Montgomery reduction of every lane, then the sum of the lanes. */
static __always_inline GCM_TARGET
__m128i gcm_prod_reduce(const struct gcm_prod *p)
{
	const gvec poly = gcm_poly();
	gvec mi = p->mi, hi;

	mi = v_xor3(mi, p->lo, p->hi);	/* Karatsuba's middle term */
	mi = v_xor3(mi, v_swap64(p->lo), v_clmul(p->lo, poly, 0x00));
	hi = v_xor3(p->hi, v_swap64(mi), v_clmul(mi, poly, 0x00));
	return v_fold128(hi);
}

/* a * b * y^-128 mod Q on single lanes (key powers, final block). */
static __always_inline GCM_TARGET
__m128i gcm_mul128(__m128i a, __m128i b)
{
	const __m128i poly = _mm_set1_epi64x(0xc200000000000000ULL);
	__m128i lo, mi, hi;

	lo = _mm_clmulepi64_si128(a, b, 0x00);
	mi = _mm_xor_si128(_mm_clmulepi64_si128(a, b, 0x01),
			   _mm_clmulepi64_si128(a, b, 0x10));
	hi = _mm_clmulepi64_si128(a, b, 0x11);
	mi = _mm_xor_si128(mi, _mm_shuffle_epi32(lo, 0x4e));
	mi = _mm_xor_si128(mi, _mm_clmulepi64_si128(lo, poly, 0x00));
	hi = _mm_xor_si128(hi, _mm_shuffle_epi32(mi, 0x4e));
	return _mm_xor_si128(hi, _mm_clmulepi64_si128(mi, poly, 0x00));
}

/* K_NB, ..., K_1 and zero blocks: the main loop's view of the table. */
static __always_inline GCM_TARGET
const u8 *gcm_powers(const struct tlsx_gcm_key *k)
{
	return k->simd + (GCM_NPOW - GCM_NB) * 16;
}

/* Where K_i is (1 <= i <= GCM_NPOW); K_0 is the first zero block. */
static __always_inline GCM_TARGET
const u8 *gcm_power(const struct tlsx_gcm_key *k, size_t i)
{
	return k->simd + (GCM_NPOW - i) * 16;
}

/*
 * Round keys are broadcast from the key as they are used (a load is cheap
 * next to an AES round), and each batch loads them again: left alone, the
 * compiler would hoist the 11 to 15 broadcasts out of the loops and keep
 * them in registers, where they crowd out the data and get spilled, which
 * copies key material to the stack.  gcm_rk_fresh() hides the key pointer
 * behind an empty volatile asm once per batch, so the loads cannot be
 * hoisted past it yet stay free to be scheduled within the batch.
 */
static __always_inline GCM_TARGET
const u8 *gcm_rk_fresh(const u8 *rk)
{
	__asm__ volatile("" : "+r"(rk));
	return rk;
}

static __always_inline GCM_TARGET
gvec gcm_rk(const u8 *rk, u32 r)
{
	return v_bcast128(_mm_loadu_si128((const void *)(rk + 16 * r)));
}

/* One vector of AES-CTR keystream XORed into @in (full rounds). */
static __always_inline GCM_TARGET
gvec gcm_aes_xor(const u8 *rk, const u32 rounds, gvec ctr, gvec bswap,
		 gvec in)
{
	gvec x;

	rk = gcm_rk_fresh(rk);
	x = v_xor(v_shuffle8(ctr, bswap), gcm_rk(rk, 0));
	u32 r;

#pragma GCC unroll 16
	for (r = 1; r < rounds; r++)
		x = v_aesenc(x, gcm_rk(rk, r));
	return v_aesenclast(x, v_xor(gcm_rk(rk, rounds), in));
}

/*
 * GHASH of up to one batch of text at @p (@len bytes, the last block
 * zero-padded), continuing from @acc.  For the associated data.
 */
static __always_inline GCM_TARGET
__m128i gcm_ghash_part(const struct tlsx_gcm_key *k, __m128i acc, const u8 *p,
		       size_t len)
{
	const gvec bswap = gcm_bswap_mask();
	size_t nb = (len + 15) / 16;
	const u8 *hp = gcm_powers(k) + (GCM_NB - nb) * 16;
	struct gcm_prod prod TLSX_NOINIT;
	size_t i, n;
	gvec x;

	for (i = 0; i * GCM_VB < len; i++) {
		n = len - i * GCM_VB;
		if (n >= GCM_VB)
			x = v_load(p + i * GCM_VB);
		else
			x = v_load_part(p + i * GCM_VB, n);
		x = v_shuffle8(x, bswap);
		if (i == 0) {
			x = v_xor(x, v_zext128(acc));
			gcm_prod_init(&prod, x, hp);
		} else {
			gcm_prod_add(&prod, x, hp + i * GCM_VB);
		}
	}
	return gcm_prod_reduce(&prod);
}

static __always_inline GCM_TARGET
__m128i gcm_ghash(const struct tlsx_gcm_key *k, __m128i acc, const u8 *p,
		  size_t len)
{
	while (len > GCM_BATCH) {
		acc = gcm_ghash_part(k, acc, p, GCM_BATCH);
		p += GCM_BATCH;
		len -= GCM_BATCH;
	}
	if (len)
		acc = gcm_ghash_part(k, acc, p, len);
	return acc;
}

/* GHASH of one batch of ciphertext held in registers (byte order). */
static __always_inline GCM_TARGET
__m128i gcm_ghash_batch(const struct tlsx_gcm_key *k, __m128i acc,
			const gvec *ct, gvec bswap)
{
	const u8 *hp = gcm_powers(k);
	struct gcm_prod prod TLSX_NOINIT;
	int i;

	gcm_prod_init(&prod, v_xor(v_shuffle8(ct[0], bswap), v_zext128(acc)),
		      hp);
#if GCM_STEP == 2
	gcm_prod_add(&prod, v_shuffle8(ct[1], bswap), hp + GCM_VB);
#pragma GCC unroll 16
	for (i = 2; i < GCM_NV; i += 2)
		gcm_prod_add2(&prod, v_shuffle8(ct[i], bswap), hp + i * GCM_VB,
			      v_shuffle8(ct[i + 1], bswap),
			      hp + (i + 1) * GCM_VB);
#else
#pragma GCC unroll 16
	for (i = 1; i < GCM_NV; i++)
		gcm_prod_add(&prod, v_shuffle8(ct[i], bswap),
			     hp + i * GCM_VB);
#endif
	return gcm_prod_reduce(&prod);
}

/*
 * One batch: AES-CTR on GCM_NV vectors of counters, XORed with @in into
 * @out, stitched with the GHASH of @gh (GCM_NV vectors, byte order) into
 * @acc.  @in and @gh may be the same array (decryption).
 */
static __always_inline GCM_TARGET
__m128i gcm_stitched_batch(const struct tlsx_gcm_key *k, const u8 *rk,
			   const u32 rounds, gvec *ctr, gvec bswap,
			   const gvec *in, gvec *out, const gvec *gh,
			   __m128i acc)
{
	const u8 *hp = gcm_powers(k);
	const gvec inc = v_ctr_inc(GCM_LANES);
	struct gcm_prod prod TLSX_NOINIT;
	gvec x[GCM_NV] TLSX_NOINIT, g, kr;
#if GCM_STEP == 2
	gvec g2;
#endif
	u32 r;
	int i, j;

	rk = gcm_rk_fresh(rk);
	kr = gcm_rk(rk, 0);
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++) {
		x[i] = v_xor(v_shuffle8(*ctr, bswap), kr);
		*ctr = v_add32(*ctr, inc);
		/*
		 * One add after another: otherwise the compiler precomputes
		 * ctr + i * inc for every i and keeps those in registers
		 * (or on the stack) across the loop.
		 */
		v_pin(*ctr);
	}
#pragma GCC unroll 16
	for (r = 1; r < rounds; r++) {
		kr = gcm_rk(rk, r);
#pragma GCC unroll 16
		for (i = 0; i < GCM_NV; i++)
			x[i] = v_aesenc(x[i], kr);
		/*
		 * Spread the GHASH steps evenly over the rounds.  Step j
		 * hashes GCM_STEP vectors from (j * GCM_STEP + 1) mod NV:
		 * vector 0, the one that needs the accumulator of the
		 * previous batch, goes last, so the previous reduction has a
		 * whole batch of time to finish.
		 */
#pragma GCC unroll 16
		for (j = 0; j < GCM_NV / GCM_STEP; j++) {
			if (j * (rounds - 1) / (GCM_NV / GCM_STEP) != r - 1)
				continue;
			i = (j * GCM_STEP + 1) % GCM_NV;
			g = v_shuffle8(gh[i], bswap);
#if GCM_STEP == 2
			g2 = v_shuffle8(gh[(i + 1) % GCM_NV], bswap);
			if (i + 1 == GCM_NV)
				g2 = v_xor(g2, v_zext128(acc));
			if (j == 0) {
				gcm_prod_init(&prod, g, hp + i * GCM_VB);
				gcm_prod_add(&prod, g2, hp + (i + 1) * GCM_VB);
			} else {
				gcm_prod_add2(&prod, g, hp + i * GCM_VB, g2,
					      hp + ((i + 1) % GCM_NV) *
					      GCM_VB);
			}
#else
			if (i == 0)
				g = v_xor(g, v_zext128(acc));
			if (j == 0)
				gcm_prod_init(&prod, g, hp + i * GCM_VB);
			else
				gcm_prod_add(&prod, g, hp + i * GCM_VB);
#endif
		}
	}
	acc = gcm_prod_reduce(&prod);
	kr = gcm_rk(rk, rounds);
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++)
		out[i] = v_aesenclast(x[i], v_xor(kr, in[i]));
	return acc;
}

/*
 * Where an update's text comes from and goes to, a batch (or the tail)
 * at a time: @src and @dst point at it.  Contiguous buffers just
 * advance.  With @sg (update_sg()) they are segment lists (sg_cursor.h):
 * a batch that lies inside one segment of a list is worked where it
 * lies; one that spans segments is gathered into @buf (and its output
 * scattered from there).
 */
struct gcm_io {
	const u8 *src;
	u8 *dst;
	struct tlsx_sg_cur s, d;
	u8 *buf;		/* GCM_BATCH bytes for a spanning batch */
	bool dst_in_buf;
	bool buf_used;
};

#if GCM_VW == 512
_Static_assert(GCM_VB == TLSX_AEAD_UPDATE_ALIGN,
	       "update_sg()'s inner segments hold a vector");

/* Copy @n bytes between @c and @buf (@in: into @buf), a vector at a time. */
static __always_inline GCM_TARGET
void gcm_sg_copy(struct tlsx_sg_cur *c, u8 *buf, size_t n, const bool in)
{
	size_t off, m;

#pragma GCC unroll 1
	for (off = 0; off < n; off += m) {
		m = n - off < GCM_VB ? n - off : GCM_VB;
		if (in)
			_mm512_mask_storeu_epi8(buf + off,
						tlsx_sg_range(0, m),
						tlsx_sg_load64(c, m));
		else
			tlsx_sg_store64(c, m, _mm512_maskz_loadu_epi8(
					tlsx_sg_range(0, m), buf + off));
	}
}
#else
/*
 * The same without byte masks: each segment's part in 32-byte vectors,
 * then 8-byte words, then bytes, inline (a call to memcpy() would make
 * the batch loop save its vectors around it).
 */
static __always_inline GCM_TARGET
void gcm_sg_copy(struct tlsx_sg_cur *c, u8 *buf, size_t n, const bool in)
{
	const u8 *from;
	u8 *to;
	size_t m, i;

#pragma GCC unroll 1
	while (n) {
		if (!c->left)
			tlsx_sg_cur_next(c);
		m = c->left < n ? c->left : n;
		from = in ? c->ptr : buf;
		to = in ? buf : c->ptr;
#pragma GCC unroll 1
		for (i = 0; i + 32 <= m; i += 32)
			_mm256_storeu_si256((void *)(to + i),
				_mm256_loadu_si256((const void *)(from + i)));
#pragma GCC unroll 1
		for (; i + 8 <= m; i += 8)
			put_unaligned_le64(get_unaligned_le64(from + i), to + i);
#pragma GCC unroll 1
		for (; i < m; i++)
			to[i] = from[i];
		tlsx_sg_cur_skip(c, m);
		buf += m;
		n -= m;
	}
}
#endif

/* Point @io at the next @n bytes (1 to GCM_BATCH) of text. */
static __always_inline GCM_TARGET
void gcm_io_begin(struct gcm_io *io, size_t n, const bool sg)
{
	if (sg) {
		u8 *p = tlsx_sg_cur_take(&io->s, n);

		if (!p) {
			gcm_sg_copy(&io->s, io->buf, n, true);
			io->buf_used = true;
			p = io->buf;
		}
		io->src = p;
		p = tlsx_sg_cur_take(&io->d, n);
		io->dst_in_buf = !p;
		if (!p) {
			io->buf_used = true;
			p = io->buf;
		}
		io->dst = p;
	}
}

/* Those @n bytes are done: on to the next ones. */
static __always_inline GCM_TARGET
void gcm_io_end(struct gcm_io *io, size_t n, const bool sg)
{
	if (sg) {
		if (io->dst_in_buf)
			gcm_sg_copy(&io->d, io->buf, n, false);
		return;
	}
	io->src += n;
	io->dst += n;
}

/* Vector @i of the current batch or tail (@n bytes of it, 1 to 64). */
static __always_inline GCM_TARGET
gvec gcm_io_load(const struct gcm_io *io, size_t i, size_t n)
{
	if (n == GCM_VB)
		return v_load(io->src + i * GCM_VB);
	return v_load_part(io->src + i * GCM_VB, n);
}

static __always_inline GCM_TARGET
void gcm_io_store(const struct gcm_io *io, size_t i, gvec v, size_t n)
{
	if (n == GCM_VB)
		v_store(io->dst + i * GCM_VB, v);
	else
		v_store_part(io->dst + i * GCM_VB, v, n);
}

/*
 * The last (short) part of an update: @len < GCM_BATCH bytes, counters
 * from @ctr.  Keystream vector by vector, then one aggregated GHASH of
 * the ciphertext (zero beyond the text).
 */
static __always_inline GCM_TARGET
__m128i gcm_crypt_tail(const struct tlsx_gcm_key *k, const u8 *rk,
		       const u32 rounds, gvec ctr, gvec bswap,
		       const struct gcm_io *io, size_t len, __m128i acc,
		       const bool enc)
{
	const gvec inc = v_ctr_inc(GCM_LANES);
	size_t nb = (len + 15) / 16;
	const u8 *hp = gcm_powers(k) + (GCM_NB - nb) * 16;
	struct gcm_prod prod TLSX_NOINIT;
	size_t i, n;
	gvec in, out, c;

	for (i = 0; i * GCM_VB < len; i++) {
		n = len - i * GCM_VB;
		if (n >= GCM_VB) {
			in = gcm_io_load(io, i, GCM_VB);
			out = gcm_aes_xor(rk, rounds, ctr, bswap, in);
			gcm_io_store(io, i, out, GCM_VB);
			c = enc ? out : in;
		} else {
			in = gcm_io_load(io, i, n);
			out = gcm_aes_xor(rk, rounds, ctr, bswap, in);
			gcm_io_store(io, i, out, n);
			c = enc ? v_zero_beyond(out, n) : in;
		}
		ctr = v_add32(ctr, inc);
		c = v_shuffle8(c, bswap);
		if (i == 0) {
			c = v_xor(c, v_zext128(acc));
			gcm_prod_init(&prod, c, hp);
		} else {
			gcm_prod_add(&prod, c, hp + i * GCM_VB);
		}
	}
	return gcm_prod_reduce(&prod);
}

/* The first counters of an update, byte-reversed, lane j = ctr + j. */
static __always_inline GCM_TARGET
gvec gcm_first_ctr(const struct tlsx_gcm_state *st)
{
	__m128i c = gcm_bswap128(_mm_loadu_si128((const void *)st->j0));

	c = _mm_insert_epi32(c, (int)st->ctr, 0);
	return v_add32(v_bcast128(c), v_ctr_lane_index());
}

static __always_inline GCM_TARGET
void gcm_update_io(struct tlsx_gcm_state *st, const struct tlsx_gcm_key *k,
		   struct gcm_io *io, size_t len, const bool enc,
		   const u32 rounds, const bool sg)
{
	const gvec bswap = gcm_bswap_mask();
	const u8 *rk = k->rk;
	gvec ctr;
	gvec in[GCM_NV] TLSX_NOINIT, ct[GCM_NV] TLSX_NOINIT;
	size_t total = len;
	__m128i acc;
	int i;

	if (!len)
		return;
	acc = gcm_bswap128(_mm_loadu_si128((const void *)st->acc));
	ctr = gcm_first_ctr(st);

	if (enc && len >= GCM_BATCH) {
		/* First batch: AES only; its GHASH rides on the next one. */
		gcm_io_begin(io, GCM_BATCH, sg);
#pragma GCC unroll 16
		for (i = 0; i < GCM_NV; i++) {
			ct[i] = gcm_aes_xor(rk, rounds, ctr, bswap,
					    gcm_io_load(io, i, GCM_VB));
			ctr = v_add32(ctr, v_ctr_inc(GCM_LANES));
			gcm_io_store(io, i, ct[i], GCM_VB);
		}
		gcm_io_end(io, GCM_BATCH, sg);
		len -= GCM_BATCH;
		while (len >= GCM_BATCH) {
			gcm_io_begin(io, GCM_BATCH, sg);
#pragma GCC unroll 16
			for (i = 0; i < GCM_NV; i++)
				in[i] = gcm_io_load(io, i, GCM_VB);
			acc = gcm_stitched_batch(k, rk, rounds, &ctr, bswap,
						 in, ct, ct, acc);
#pragma GCC unroll 16
			for (i = 0; i < GCM_NV; i++)
				gcm_io_store(io, i, ct[i], GCM_VB);
			gcm_io_end(io, GCM_BATCH, sg);
			len -= GCM_BATCH;
		}
		acc = gcm_ghash_batch(k, acc, ct, bswap);
	} else if (!enc) {
		while (len >= GCM_BATCH) {
			gcm_io_begin(io, GCM_BATCH, sg);
#pragma GCC unroll 16
			for (i = 0; i < GCM_NV; i++)
				in[i] = gcm_io_load(io, i, GCM_VB);
			acc = gcm_stitched_batch(k, rk, rounds, &ctr, bswap,
						 in, ct, in, acc);
#pragma GCC unroll 16
			for (i = 0; i < GCM_NV; i++)
				gcm_io_store(io, i, ct[i], GCM_VB);
			gcm_io_end(io, GCM_BATCH, sg);
			len -= GCM_BATCH;
		}
	}
	if (len) {
		gcm_io_begin(io, len, sg);
		acc = gcm_crypt_tail(k, rk, rounds, ctr, bswap, io, len, acc,
				     enc);
		gcm_io_end(io, len, sg);
	}

	_mm_storeu_si128((void *)st->acc, gcm_bswap128(acc));
	st->ctr += (u32)((total + 15) / 16);
	st->text_len += total;
}

static __always_inline GCM_TARGET
void gcm_update(struct tlsx_gcm_state *st, const struct tlsx_gcm_key *k,
		const u8 *src, u8 *dst, size_t len, const bool enc,
		const u32 rounds)
{
	struct gcm_io io = { .src = src, .dst = dst };

	gcm_update_io(st, k, &io, len, enc, rounds, false);
}

GCM_TARGET static void gcm_encrypt(union tlsx_aead_state *st,
				   const struct tlsx_aead_key *k,
				   const u8 *src, u8 *dst, size_t len)
{
	if (k->u.gcm.rounds == 10)
		gcm_update(&st->gcm, &k->u.gcm, src, dst, len, true, 10);
	else
		gcm_update(&st->gcm, &k->u.gcm, src, dst, len, true, 14);
}

GCM_TARGET static void gcm_decrypt(union tlsx_aead_state *st,
				   const struct tlsx_aead_key *k,
				   const u8 *src, u8 *dst, size_t len)
{
	if (k->u.gcm.rounds == 10)
		gcm_update(&st->gcm, &k->u.gcm, src, dst, len, false, 10);
	else
		gcm_update(&st->gcm, &k->u.gcm, src, dst, len, false, 14);
}

/*
 * update_sg(): one function per direction and key size, as update(), each
 * with the batch buffer in its frame (well under the kernel's 2 KiB).
 */
#define GCM_UPDATE_SG(name, enc, rounds)				\
static noinline GCM_TARGET void name(struct tlsx_gcm_state *st,		\
				     const struct tlsx_gcm_key *k,	\
				     struct tlsx_sg_pos *src,		\
				     struct tlsx_sg_pos *dst, size_t len)\
{									\
	u8 buf[GCM_BATCH] __aligned(64) TLSX_NOINIT;			\
	struct gcm_io io = { .buf = buf };				\
									\
	tlsx_sg_cur_get(&io.s, src);					\
	tlsx_sg_cur_get(&io.d, dst);					\
	gcm_update_io(st, k, &io, len, enc, rounds, true);		\
	tlsx_sg_cur_put(&io.s, src);					\
	tlsx_sg_cur_put(&io.d, dst);					\
	if (io.buf_used)	/* text went through it */		\
		memzero_explicit(buf, sizeof(buf));			\
}

GCM_UPDATE_SG(gcm_update_sg_enc10, true, 10)
GCM_UPDATE_SG(gcm_update_sg_enc14, true, 14)
GCM_UPDATE_SG(gcm_update_sg_dec10, false, 10)
GCM_UPDATE_SG(gcm_update_sg_dec14, false, 14)

GCM_TARGET static void gcm_update_sg_walk(union tlsx_aead_state *st,
					  const struct tlsx_aead_key *k,
					  bool enc, struct tlsx_sg_pos *src,
					  struct tlsx_sg_pos *dst, size_t len)
{
	struct tlsx_gcm_state *g = &st->gcm;
	const struct tlsx_gcm_key *gk = &k->u.gcm;

	if (!len)
		return;
	if (gk->rounds == 10) {
		if (enc)
			gcm_update_sg_enc10(g, gk, src, dst, len);
		else
			gcm_update_sg_dec10(g, gk, src, dst, len);
	} else {
		if (enc)
			gcm_update_sg_enc14(g, gk, src, dst, len);
		else
			gcm_update_sg_dec14(g, gk, src, dst, len);
	}
}

/*
 * The 512-bit engine walks every list.  The 256-bit one, whose sixteen
 * registers leave the walk's cursors to memory (opening whole pages
 * measured 2.5 % slower walked than piece by piece), takes runs that
 * hold whole batches, pages sent or received whole, as buffers, and
 * walks from the first batch that crosses a boundary (a head before the
 * pages, TCP segments).
 */
GCM_TARGET static void gcm_update_sg(union tlsx_aead_state *st,
				     const struct tlsx_aead_key *k, bool enc,
				     struct tlsx_sg_pos *src,
				     struct tlsx_sg_pos *dst, size_t len)
{
#if GCM_VW == 256
	size_t m, n;

	while (len) {
		m = tlsx_sg_run(src, dst);
		if (m < len && m % GCM_BATCH)
			break;
		n = m < len ? m : len;
		if (enc)
			gcm_encrypt(st, k, tlsx_sg_ptr(src), tlsx_sg_ptr(dst), n);
		else
			gcm_decrypt(st, k, tlsx_sg_ptr(src), tlsx_sg_ptr(dst), n);
		src->off += n;
		dst->off += n;
		len -= n;
	}
#endif
	gcm_update_sg_walk(st, k, enc, src, dst, len);
}

GCM_TARGET static void gcm_init(union tlsx_aead_state *st,
				const struct tlsx_aead_key *k,
				const u8 *nonce, const u8 *ad, size_t ad_len,
				size_t len)
{
	struct tlsx_gcm_state *s = &st->gcm;
	__m128i acc = _mm_setzero_si128(), j0;

	(void)len;	/* GCM needs no length up front */
	/*
	 * J0 written with one 16-byte store: update() reads it back with a
	 * 16-byte load right away, and a load that spans several smaller
	 * stores cannot be forwarded from them (see TLSX_GCM_J0()).
	 */
	j0 = TLSX_GCM_J0(nonce);
	_mm_storeu_si128((void *)s->j0, j0);
	s->ctr = 2;
	s->ad_len = ad_len;
	s->text_len = 0;
	if (ad_len)
		acc = gcm_ghash(&k->u.gcm, acc, ad, ad_len);
	_mm_storeu_si128((void *)s->acc, gcm_bswap128(acc));
}

GCM_TARGET static void gcm_final(union tlsx_aead_state *st,
				 const struct tlsx_aead_key *k, u8 *tag)
{
	const struct tlsx_gcm_key *g = &k->u.gcm;
	struct tlsx_gcm_state *s = &st->gcm;
	const u8 *h1 = gcm_powers(g) + (GCM_NB - 1) * 16;
	__m128i acc, x;
	u32 r;

	acc = gcm_bswap128(_mm_loadu_si128((const void *)s->acc));
	/* The lengths block, in bits, byte-reversed. */
	acc = _mm_xor_si128(acc, _mm_set_epi64x((long long)(s->ad_len * 8),
						(long long)(s->text_len * 8)));
	acc = gcm_mul128(acc, _mm_loadu_si128((const void *)h1));

	/* E_K(J0) masks the hash. */
	x = _mm_xor_si128(_mm_loadu_si128((const void *)s->j0),
			  _mm_loadu_si128((const void *)g->rk));
	for (r = 1; r < g->rounds; r++)
		x = _mm_aesenc_si128(x, _mm_loadu_si128((const void *)
							(g->rk + 16 * r)));
	x = _mm_aesenclast_si128(x, _mm_loadu_si128((const void *)
						    (g->rk + 16 * r)));
	_mm_storeu_si128((void *)tag, _mm_xor_si128(x, gcm_bswap128(acc)));
}

#ifdef GCM_ONESHOT
/* E_K(J0), the mask of the tag: 128-bit AES, off the critical path. */
static __always_inline GCM_TARGET
__m128i gcm_ej0(const u8 *rk, const u32 rounds, __m128i j0)
{
	__m128i x = _mm_xor_si128(j0, _mm_loadu_si128((const void *)rk));
	u32 r;

#pragma GCC unroll 16
	for (r = 1; r < rounds; r++)
		x = _mm_aesenc_si128(x, _mm_loadu_si128((const void *)
							(rk + 16 * r)));
	return _mm_aesenclast_si128(x, _mm_loadu_si128((const void *)
						       (rk + 16 * r)));
}

/* J0 = nonce || 0^31 || 1 (NIST SP 800-38D section 7.1, 96-bit IV). */
static __always_inline GCM_TARGET
__m128i gcm_j0(const u8 *nonce)
{
	return TLSX_GCM_J0(nonce);
}

/* The Karatsuba products of one lane @a by the power at @kp, as vectors. */
static __always_inline GCM_TARGET
void gcm_prod128(struct gcm_prod *p, __m128i a, const u8 *kp)
{
	__m128i k = _mm_loadu_si128((const void *)kp);
	__m128i ax = _mm_xor_si128(a, _mm_shuffle_epi32(a, 0x4e));
	__m128i kx = _mm_xor_si128(k, _mm_shuffle_epi32(k, 0x4e));

	p->lo = v_xor(p->lo, v_zext128(_mm_clmulepi64_si128(a, k, 0x00)));
	p->mi = v_xor(p->mi, v_zext128(_mm_clmulepi64_si128(ax, kx, 0x00)));
	p->hi = v_xor(p->hi, v_zext128(_mm_clmulepi64_si128(a, k, 0x11)));
}

/*
 * A short record in one pass (GCM_SHORT_MAX bytes at most, AD of 16 at
 * most): GHASH over AD || text || lengths (SP 800-38D section 7.1,
 * steps 5-6) is one sum of products by H^(n)..H^1 and one reduction,
 * where the streaming engine reduces three times (AD, text, lengths);
 * E_K(J0) runs beside the keystream instead of after the hash.
 */
#define GCM_SHORT_MAX	((GCM_NB - 2) * 16)

static __always_inline GCM_TARGET
void gcm_short(const struct tlsx_gcm_key *k, const u32 rounds, const bool enc,
	       const u8 *nonce, const u8 *ad, size_t ad_len, const u8 *src,
	       u8 *dst, size_t len, u8 *tag)
{
	const gvec bswap = gcm_bswap_mask();
	const gvec inc = v_ctr_inc(GCM_LANES);
	const u8 *rk = k->rk;
	size_t nb = (len + 15) / 16, i, n;
	/* Text block b takes K_(nb + 1 - b): the lengths block takes K_1. */
	const u8 *hp = gcm_power(k, nb + 1);
	struct gcm_prod prod;
	__m128i j0 = gcm_j0(nonce), ej0, a, c128;
	gvec ctr, in, out, c;

	ej0 = gcm_ej0(rk, rounds, j0);
	c128 = _mm_insert_epi32(gcm_bswap128(j0), 2, 0);
	ctr = v_add32(v_bcast128(c128), v_ctr_lane_index());

	/* The lengths block (in bits, byte-reversed) times K_1. */
	a = _mm_set_epi64x((long long)(ad_len * 8), (long long)(len * 8));
	prod.lo = v_xor(ctr, ctr);
	prod.mi = prod.lo;
	prod.hi = prod.lo;
	gcm_prod128(&prod, a, gcm_power(k, 1));
	/* The AD block (zero-padded; zero if none) times K_(nb + 2). */
	a = _mm512_castsi512_si128(v_load_part(ad, ad_len));
	gcm_prod128(&prod, gcm_bswap128(a), hp - 16);

	for (i = 0; i * GCM_VB < len; i++) {
		n = len - i * GCM_VB;
		if (n >= GCM_VB) {
			in = v_load(src + i * GCM_VB);
			out = gcm_aes_xor(rk, rounds, ctr, bswap, in);
			v_store(dst + i * GCM_VB, out);
			c = enc ? out : in;
		} else {
			in = v_load_part(src + i * GCM_VB, n);
			out = gcm_aes_xor(rk, rounds, ctr, bswap, in);
			v_store_part(dst + i * GCM_VB, out, n);
			c = enc ? v_zero_beyond(out, n) : in;
		}
		ctr = v_add32(ctr, inc);
		gcm_prod_add(&prod, v_shuffle8(c, bswap), hp + i * GCM_VB);
	}
	a = gcm_prod_reduce(&prod);
	_mm_storeu_si128((void *)tag, _mm_xor_si128(ej0, gcm_bswap128(a)));
}

/*
 * Longer records: the streaming engine on a local state, with E_K(J0)
 * computed first, where it overlaps the text instead of following it.
 */
static __always_inline GCM_TARGET
void gcm_long(const struct tlsx_gcm_key *k, const u32 rounds, const bool enc,
	      const u8 *nonce, const u8 *ad, size_t ad_len, const u8 *src,
	      u8 *dst, size_t len, u8 *tag)
{
	const u8 *h1 = gcm_powers(k) + (GCM_NB - 1) * 16;
	struct tlsx_gcm_state st;
	__m128i j0 = gcm_j0(nonce), ej0, acc = _mm_setzero_si128();

	ej0 = gcm_ej0(k->rk, rounds, j0);
	_mm_storeu_si128((void *)st.j0, j0);
	st.ctr = 2;
	st.ad_len = ad_len;
	st.text_len = 0;
	if (ad_len)
		acc = gcm_ghash(k, acc, ad, ad_len);
	_mm_storeu_si128((void *)st.acc, gcm_bswap128(acc));
	gcm_update(&st, k, src, dst, len, enc, rounds);
	acc = gcm_bswap128(_mm_loadu_si128((const void *)st.acc));
	acc = _mm_xor_si128(acc, _mm_set_epi64x((long long)(ad_len * 8),
						(long long)(len * 8)));
	acc = gcm_mul128(acc, _mm_loadu_si128((const void *)h1));
	_mm_storeu_si128((void *)tag, _mm_xor_si128(ej0, gcm_bswap128(acc)));
	memzero_explicit(&st, sizeof(st));
}

/*
 * A record of one to two batches (GCM_BATCH < len <= 2 * GCM_BATCH, AD of
 * 16 at most; 513 to 1024 bytes on zmm) in one pass.  Two groups of
 * GCM_NV vectors, AES round-major within a group (the batch's shape,
 * where the AES units stay busy):
 *  - group A, the first batch: its AES; open hashes A's ciphertext (the
 *    input) between the rounds;
 *  - group B, the rest, counters for GCM_NV vectors (those past the text
 *    cost AES work only): its AES, with the hash of A's ciphertext (seal)
 *    or B's (open) between the rounds;
 *  - seal then hashes B's ciphertext, the one part left unstitched.
 * GHASH is a chain, Y_i = (Y_(i-1) xor X_i) . H (SP 800-38D section 6.4,
 * Algorithm 2), so it may be cut anywhere: AD || A is one sum of products
 * by K_(NB + 1)..K_1 and one reduction, giving Y after A's last block;
 * that Y is XORed into B's first block, and B || lengths is a second sum
 * by K_(m + 1)..K_1 (m = B's blocks) and reduction.  The table thus needs
 * GCM_NB + 1 powers, not the 2 * GCM_NB + 2 of a single reduction, for
 * one extra reduction (two carryless multiplies) per record.  The product
 * of B's first vector, the one waiting for A's reduction, goes last among
 * B's, as the main loop does with the previous batch's accumulator.  The
 * hash takes two vectors per step (gcm_prod_add2()), which pays for the
 * extra reduction's plain vector instructions.  The AD product goes into
 * group A's time, and so does seal's lengths product (its multiplier is
 * idle there); open's goes into B's.
 */
#define GCM_MID_MAX	(2 * GCM_BATCH)
_Static_assert(GCM_NPOW > GCM_NB, "gcm_mid() needs NB + 1 powers");

/*
 * Vector @i of group B at @s2 (@nv2 vectors, the last of @last bytes:
 * through a byte mask when partial), zero past the text.
 */
static __always_inline GCM_TARGET
gvec gcm_mid_load(const u8 *s2, int i, int nv2, size_t last)
{
	if (i < nv2 - 1 || (i == nv2 - 1 && last == GCM_VB))
		return v_load(s2 + i * GCM_VB);
	if (i == nv2 - 1)
		return v_load_part(s2 + i * GCM_VB, last);
	return v_set1_64(0);
}

/* Zero sums, then the lengths block (bits, byte-reversed) times K_1. */
static __always_inline GCM_TARGET
void gcm_prod_lengths(const struct tlsx_gcm_key *k, struct gcm_prod *p,
		      size_t ad_len, size_t len)
{
	__m128i a = _mm_set_epi64x((long long)(ad_len * 8),
				   (long long)(len * 8));

	p->lo = v_set1_64(0);
	p->mi = p->lo;
	p->hi = p->lo;
	gcm_prod128(p, a, gcm_power(k, 1));
}

static __always_inline GCM_TARGET
void gcm_mid(const struct tlsx_gcm_key *k, const u32 rounds, const bool enc,
	     const u8 *nonce, const u8 *ad, size_t ad_len, const u8 *src,
	     u8 *dst, size_t len, u8 *tag)
{
	const gvec bswap = gcm_bswap_mask();
	const gvec inc = v_ctr_inc(GCM_LANES);
	const u8 *rk = k->rk, *s2 = src + GCM_BATCH;
	size_t len2 = len - GCM_BATCH, nb2 = (len2 + 15) / 16;
	int nv2 = (int)((len2 + GCM_VB - 1) / GCM_VB), i, i2, j;
	size_t last = len2 - (size_t)(nv2 - 1) * GCM_VB;	/* 1..GCM_VB */
	/*
	 * A's block b takes K_(NB - b), the AD block K_(NB + 1); B's block b
	 * takes K_(nb2 - b), the lengths block K_1.
	 */
	const u8 *hp = gcm_powers(k), *hp2 = gcm_power(k, nb2 + 1);
	struct gcm_prod prod TLSX_NOINIT, prod2 TLSX_NOINIT;
	gvec x[GCM_NV] TLSX_NOINIT, ct[GCM_NV] TLSX_NOINIT;
	__m128i j0 = gcm_j0(nonce), ej0, a, c128;
	gvec ctr, kr, g, g2;
	u32 r;

	c128 = _mm_insert_epi32(gcm_bswap128(j0), 2, 0);
	ctr = v_add32(v_bcast128(c128), v_ctr_lane_index());

	/* Group A. */
	rk = gcm_rk_fresh(rk);
	kr = gcm_rk(rk, 0);
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++) {
		x[i] = v_xor(v_shuffle8(ctr, bswap), kr);
		ctr = v_add32(ctr, inc);
		v_pin(ctr);
	}
	/* The AD block (zero-padded; zero if none) times K_(NB + 1). */
	a = _mm512_castsi512_si128(v_load_part(ad, ad_len));
	prod.lo = v_xor(ctr, ctr);
	prod.mi = prod.lo;
	prod.hi = prod.lo;
	gcm_prod128(&prod, gcm_bswap128(a), gcm_power(k, GCM_NB + 1));
	/* Seal: the lengths product, while the multiplier is idle. */
	if (enc)
		gcm_prod_lengths(k, &prod2, ad_len, len);
	ej0 = gcm_ej0(rk, rounds, j0);
#pragma GCC unroll 16
	for (r = 1; r < rounds; r++) {
		kr = gcm_rk(rk, r);
#pragma GCC unroll 16
		for (i = 0; i < GCM_NV; i++)
			x[i] = v_aesenc(x[i], kr);
		if (enc)
			continue;
#pragma GCC unroll 16
		for (j = 0; j < GCM_NV; j += 2) {
			if (j * (rounds - 1) / GCM_NV != r - 1)
				continue;
			gcm_prod_add2(&prod,
				      v_shuffle8(v_load(src + j * GCM_VB), bswap),
				      hp + j * GCM_VB,
				      v_shuffle8(v_load(src + (j + 1) * GCM_VB),
						 bswap), hp + (j + 1) * GCM_VB);
		}
	}
	kr = gcm_rk(rk, rounds);
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++) {
		ct[i] = v_aesenclast(x[i], v_xor(kr, v_load(src + i * GCM_VB)));
		v_store(dst + i * GCM_VB, ct[i]);
	}
	/* Open: Y after AD || A, in B's time. */
	if (!enc) {
		a = gcm_prod_reduce(&prod);
		gcm_prod_lengths(k, &prod2, ad_len, len);
	}

	/*
	 * Group B.  Its input is loaded where it is used, at the last round
	 * and (open) for the hash: held in registers across the rounds
	 * beside A's ciphertext (seal) it would not fit them.
	 */
	rk = gcm_rk_fresh(rk);
	kr = gcm_rk(rk, 0);
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++) {
		x[i] = v_xor(v_shuffle8(ctr, bswap), kr);
		ctr = v_add32(ctr, inc);
		v_pin(ctr);
	}
#pragma GCC unroll 16
	for (r = 1; r < rounds; r++) {
		kr = gcm_rk(rk, r);
#pragma GCC unroll 16
		for (i = 0; i < GCM_NV; i++)
			x[i] = v_aesenc(x[i], kr);
#pragma GCC unroll 16
		for (j = 0; j < GCM_NV; j += 2) {
			if (j * (rounds - 1) / GCM_NV != r - 1)
				continue;
			if (enc) {
				gcm_prod_add2(&prod, v_shuffle8(ct[j], bswap),
					      hp + j * GCM_VB,
					      v_shuffle8(ct[j + 1], bswap),
					      hp + (j + 1) * GCM_VB);
				continue;
			}
			/*
			 * Vectors 1 and 2, 3 and 4, ..., then NV - 1 and
			 * 0: vector 0, which takes Y, last.  Vectors past
			 * the text are zero: any power in the table will
			 * do, and a branch here would have the compiler
			 * split the rounds.
			 */
			i = j + 1;
			i2 = (j + 2) % GCM_NV;
			g = v_shuffle8(gcm_mid_load(s2, i, nv2, last), bswap);
			g2 = v_shuffle8(gcm_mid_load(s2, i2, nv2, last), bswap);
			if (i2 == 0)
				g2 = v_xor(g2, v_zext128(a));
			gcm_prod_add2(&prod2, g, i < nv2 ? hp2 + i * GCM_VB : hp,
				      g2, i2 < nv2 ? hp2 + i2 * GCM_VB : hp);
		}
	}
	kr = gcm_rk(rk, rounds);
	/* Seal: Y after AD || A, beside B's last round. */
	if (enc)
		a = gcm_prod_reduce(&prod);
	/*
	 * The last round of every vector, then the stores: a branch among
	 * the rounds would have the compiler split them per vector.
	 */
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++) {
		g = gcm_mid_load(s2, i, nv2, last);
		x[i] = v_aesenclast(x[i], v_xor(kr, g));
	}
#pragma GCC unroll 16
	for (i = 0; i < GCM_NV; i++) {
		if (i >= nv2)
			break;
		if (i < nv2 - 1 || last == GCM_VB) {
			v_store(dst + GCM_BATCH + i * GCM_VB, x[i]);
		} else {
			v_store_part(dst + GCM_BATCH + i * GCM_VB, x[i], last);
			x[i] = v_zero_beyond(x[i], last);
		}
	}
	/* Seal: B's ciphertext, two vectors at a time, vector 0 last. */
	if (enc) {
#pragma GCC unroll 16
		for (i = 1; i < GCM_NV - 1; i += 2) {
			if (i + 1 < nv2)
				gcm_prod_add2(&prod2, v_shuffle8(x[i], bswap),
					      hp2 + i * GCM_VB,
					      v_shuffle8(x[i + 1], bswap),
					      hp2 + (i + 1) * GCM_VB);
			else if (i < nv2)
				gcm_prod_add(&prod2, v_shuffle8(x[i], bswap),
					     hp2 + i * GCM_VB);
		}
		if (GCM_NV - 1 < nv2)
			gcm_prod_add(&prod2, v_shuffle8(x[GCM_NV - 1], bswap),
				     hp2 + (GCM_NV - 1) * GCM_VB);
		gcm_prod_add(&prod2, v_xor(v_shuffle8(x[0], bswap),
					   v_zext128(a)), hp2);
	}
	a = gcm_prod_reduce(&prod2);
	_mm_storeu_si128((void *)tag, _mm_xor_si128(ej0, gcm_bswap128(a)));
}

#if GCM_VW == 512
/*
 * The compact one-pass path (docs/perf-crypto.md, "a compact path for
 * short records"): a record with AD of 16 bytes at most as a loop over
 * steps of GCM_LOOP_NV vectors (256 bytes on zmm), one loop body for
 * every step, so that a record whose code was evicted by other work
 * fetches little of it again.
 *  - The round keys are broadcast into registers once per record (11 or
 *    15 of the 32) and stay there; a step's rounds are written out on
 *    them.
 *  - Loads and stores go through byte masks: all ones but in the last
 *    step, whose masks (from the length, public) are computed once
 *    before the loop, as are its powers; vectors past the text load zero
 *    and hash to zero.
 *  - GHASH is cut every GCM_LOOP_CHUNK blocks (SP 800-38D section 6.4:
 *    the chain may be cut anywhere).  A chunk is one sum of products by
 *    K_32..K_1 and one reduction, whose Y enters the next chunk's first
 *    block; the last chunk's m blocks take K_(m + 1)..K_2 and the lengths
 *    block K_1, 33 powers (GCM_NPOW) at most.  The AD block comes first,
 *    on its own: Y_0 = AD . H, reduced while the first step's rounds run
 *    (with it in the first chunk, a 497..512-byte record would need 34
 *    powers, and its own reduction at the end measured slower).  The
 *    product of the vector that takes Y goes after the step's AES rounds,
 *    so the reduction has the other products and the rounds to hide
 *    behind.
 *  - Open hashes a step's ciphertext (its input, loaded first) beside the
 *    step's rounds; seal hashes the previous step's ciphertext (still in
 *    registers) beside the current step's rounds, and the last step's
 *    after the loop.
 * Lengths are public: the branches and masks below depend on them only.
 */
#ifndef GCM_LOOP_NV
#define GCM_LOOP_NV	4
#endif
#define GCM_LOOP_STEP	(GCM_LOOP_NV * GCM_VB)
#define GCM_LOOP_NB	(GCM_LOOP_STEP / 16)
#define GCM_LOOP_CHUNK	32			/* blocks per reduction */
#define GCM_LOOP_SPC	(GCM_LOOP_CHUNK / GCM_LOOP_NB)	/* steps per chunk */
_Static_assert(GCM_NPOW > GCM_LOOP_CHUNK, "gcm_loop() needs 33 powers");
_Static_assert(GCM_LOOP_NV % 2 == 0, "gcm_loop_hash_rest() takes pairs");

/* The byte mask of the first @rem bytes of a vector, @rem clamped. */
static __always_inline GCM_TARGET
__mmask64 gcm_loop_mask(ptrdiff_t rem)
{
	if (rem <= 0)
		return 0;
	if (rem >= GCM_VB)
		return ~(__mmask64)0;
	return ((__mmask64)1 << rem) - 1;
}

/*
 * The power of H the first block of a step takes, @rem bytes from its
 * start to the record's end, @pos its place in its chunk: the blocks left
 * in the chunk, plus the lengths block if the chunk is the record's last
 * (33 at most).
 */
static __always_inline GCM_TARGET
size_t gcm_loop_power(ptrdiff_t rem, int pos)
{
	size_t left = (size_t)(rem + 15) / 16;
	size_t cap = GCM_LOOP_CHUNK - pos * GCM_LOOP_NB;

	return left <= cap ? left + 1 : cap;
}

/* Whether a chunk ends after a step and another follows. */
static __always_inline GCM_TARGET
bool gcm_loop_chunk_end(ptrdiff_t rem, int pos)
{
	return pos == GCM_LOOP_SPC - 1 && rem > GCM_LOOP_STEP;
}

/* Y of a chunk, and zero sums for the next one. */
static __always_inline GCM_TARGET
__m128i gcm_loop_close(struct gcm_prod *p)
{
	__m128i y = gcm_prod_reduce(p);

	p->lo = v_set1_64(0);
	p->mi = p->lo;
	p->hi = p->lo;
	return y;
}

/*
 * One step's GHASH: the products of its GCM_LOOP_NV vectors @c (byte
 * order, zero past the text) by the powers at @hp[i], added to @p:
 * gcm_loop_hash_rest() vectors 1 to NV - 1, gcm_loop_hash_first() vector
 * 0 with @acc (Y of the previous chunk, or zero).
 */
static __always_inline GCM_TARGET
void gcm_loop_hash_rest(struct gcm_prod *p, const gvec *c,
			const u8 *const *hp, gvec bswap)
{
	int i;

#pragma GCC unroll 16
	for (i = 1; i + 1 < GCM_LOOP_NV; i += 2)
		gcm_prod_add2(p, v_shuffle8(c[i], bswap), hp[i],
			      v_shuffle8(c[i + 1], bswap), hp[i + 1]);
	gcm_prod_add(p, v_shuffle8(c[GCM_LOOP_NV - 1], bswap),
		     hp[GCM_LOOP_NV - 1]);
}

static __always_inline GCM_TARGET
void gcm_loop_hash_first(struct gcm_prod *p, gvec c0, __m128i acc,
			 const u8 *hp, gvec bswap)
{
	gcm_prod_add(p, v_xor(v_shuffle8(c0, bswap), v_zext128(acc)), hp);
}

/*
 * Where a step's vectors find their powers: a full step not the last at
 * @pos in its chunk, or the last step (@rem bytes, @pos).  A vector past
 * the text takes the first vector's (its data are zero), so no load
 * reads past the table.
 */
static __always_inline GCM_TARGET
void gcm_loop_powers(const struct tlsx_gcm_key *k, ptrdiff_t rem, int pos,
		     const u8 **hp)
{
	const u8 *h = gcm_power(k, gcm_loop_power(rem, pos));
	int i;

#pragma GCC unroll 16
	for (i = 0; i < GCM_LOOP_NV; i++)
		hp[i] = rem > i * GCM_VB ? h + i * GCM_VB : h;
}

/*
 * One step: GCM_LOOP_NV vectors of counters from @ctr through the round
 * keys @kr (registers), XORed with the text at @src (masks @m) into @dst;
 * @out gets the output, zero past the text.  If @hash, open hashes its
 * input and seal the previous step's output @gh, by the powers @hp, into
 * @p with @acc.
 */
static __always_inline GCM_TARGET
void gcm_loop_step(const gvec *kr, const u32 rounds, const bool enc,
		   gvec *ctr, gvec bswap, const u8 *src, u8 *dst,
		   const __mmask64 *m, gvec *out, const gvec *gh,
		   const u8 *const *hp, bool hash, struct gcm_prod *p,
		   __m128i acc)
{
	const gvec inc = v_ctr_inc(GCM_LANES);
	gvec x[GCM_LOOP_NV] TLSX_NOINIT, in[GCM_LOOP_NV] TLSX_NOINIT;
	u32 r;
	int i;

	if (!enc) {
		/* Open: the input first, and its hash beside the rounds. */
#pragma GCC unroll 16
		for (i = 0; i < GCM_LOOP_NV; i++)
			in[i] = _mm512_maskz_loadu_epi8(m[i],
							src + i * GCM_VB);
		gh = in;
	}
	if (hash)
		gcm_loop_hash_rest(p, gh, hp, bswap);
#pragma GCC unroll 16
	for (i = 0; i < GCM_LOOP_NV; i++) {
		x[i] = v_xor(v_shuffle8(*ctr, bswap), kr[0]);
		*ctr = v_add32(*ctr, inc);
		v_pin(*ctr);
	}
#pragma GCC unroll 16
	for (r = 1; r < rounds; r++) {
#pragma GCC unroll 16
		for (i = 0; i < GCM_LOOP_NV; i++)
			x[i] = v_aesenc(x[i], kr[r]);
	}
	if (hash)
		gcm_loop_hash_first(p, gh[0], acc, hp[0], bswap);
#pragma GCC unroll 16
	for (i = 0; i < GCM_LOOP_NV; i++) {
		if (enc)
			in[i] = _mm512_maskz_loadu_epi8(m[i],
							src + i * GCM_VB);
		out[i] = _mm512_maskz_mov_epi8(m[i], v_aesenclast(x[i],
						v_xor(kr[rounds], in[i])));
		_mm512_mask_storeu_epi8(dst + i * GCM_VB, m[i], out[i]);
	}
}

static __always_inline GCM_TARGET
void gcm_loop(const struct tlsx_gcm_key *k, const u32 rounds, const bool enc,
	      const u8 *nonce, const u8 *ad, size_t ad_len, const u8 *src,
	      u8 *dst, size_t len, u8 *tag)
{
	const gvec bswap = gcm_bswap_mask();
	/* The last step: its length, place in its chunk, masks, powers. */
	size_t steps = (len + GCM_LOOP_STEP - 1) / GCM_LOOP_STEP, s;
	ptrdiff_t last_rem = (ptrdiff_t)(len - (steps - 1) * GCM_LOOP_STEP);
	int last_pos = (int)((steps - 1) % GCM_LOOP_SPC), pos, prev_pos, i;
	__mmask64 last_m[GCM_LOOP_NV], m[GCM_LOOP_NV];
	const u8 *last_hp[GCM_LOOP_NV], *hp[GCM_LOOP_NV];
	struct gcm_prod prod TLSX_NOINIT;
	gvec kr[15] TLSX_NOINIT;
	gvec out[GCM_LOOP_NV] TLSX_NOINIT, prev[GCM_LOOP_NV] TLSX_NOINIT;
	__m128i j0 = gcm_j0(nonce), ej0, acc, a, c128;
	ptrdiff_t rem;
	bool last;
	gvec ctr;
	u32 r;

	/*
	 * The keys, pinned so that the compiler neither reloads them per
	 * step nor keeps a copy in memory: with 32 registers they fit.
	 */
#pragma GCC unroll 16
	for (r = 0; r <= rounds; r++) {
		kr[r] = gcm_rk(k->rk, r);
		v_pin(kr[r]);
	}
	c128 = _mm_insert_epi32(gcm_bswap128(j0), 2, 0);
	ctr = v_add32(v_bcast128(c128), v_ctr_lane_index());
#pragma GCC unroll 16
	for (i = 0; i < GCM_LOOP_NV; i++)
		last_m[i] = gcm_loop_mask(last_rem - i * GCM_VB);
	gcm_loop_powers(k, last_rem, last_pos, last_hp);

	/* Y_0: the AD block (zero-padded; zero if none) times H. */
	a = _mm512_castsi512_si128(v_load_part(ad, ad_len));
	acc = gcm_mul128(gcm_bswap128(a),
			 _mm_loadu_si128((const void *)gcm_power(k, 1)));
	prod.lo = v_set1_64(0);
	prod.mi = prod.lo;
	prod.hi = prod.lo;
	/* Never hashed before the first step has filled them. */
#pragma GCC unroll 16
	for (i = 0; i < GCM_LOOP_NV; i++)
		prev[i] = v_set1_64(0);

	for (s = 0; ; s++) {
		rem = (ptrdiff_t)(len - s * GCM_LOOP_STEP);
		last = s == steps - 1;
		pos = (int)(s % GCM_LOOP_SPC);
		prev_pos = (pos + GCM_LOOP_SPC - 1) % GCM_LOOP_SPC;
		/* Seal hashes the previous step, never the last. */
		if (enc)
			gcm_loop_powers(k, rem + GCM_LOOP_STEP, prev_pos, hp);
		else if (last)
			memcpy(hp, last_hp, sizeof(hp));
		else
			gcm_loop_powers(k, rem, pos, hp);
#pragma GCC unroll 16
		for (i = 0; i < GCM_LOOP_NV; i++)
			m[i] = last ? last_m[i] : ~(__mmask64)0;
		gcm_loop_step(kr, rounds, enc, &ctr, bswap, src, dst, m, out,
			      prev, hp, !enc || s, &prod, acc);
		/* Y, taken by the step's hash, or Y_0 kept for seal's first. */
		if (!enc || s)
			acc = _mm_setzero_si128();
		if (enc ? s && gcm_loop_chunk_end(rem + GCM_LOOP_STEP, prev_pos)
			: gcm_loop_chunk_end(rem, pos))
			acc = gcm_loop_close(&prod);
		if (last)
			break;
		if (enc) {
#pragma GCC unroll 16
			for (i = 0; i < GCM_LOOP_NV; i++)
				prev[i] = out[i];
		}
		src += GCM_LOOP_STEP;
		dst += GCM_LOOP_STEP;
	}
	/* Seal: the last step's ciphertext, unstitched. */
	if (enc) {
		gcm_loop_hash_rest(&prod, out, last_hp, bswap);
		gcm_loop_hash_first(&prod, out[0], acc, last_hp[0], bswap);
	}
	/* The lengths block (bits, byte-reversed) times K_1. */
	a = _mm_set_epi64x((long long)(ad_len * 8), (long long)(len * 8));
	gcm_prod128(&prod, a, gcm_power(k, 1));
	/*
	 * E_K(J0) beside the last hash, from the key in memory: held across
	 * the loop it would take a register and be spilled to the stack,
	 * and from the keys in registers it would keep them live (and
	 * spilled) past the loop.
	 */
	ej0 = gcm_ej0(gcm_rk_fresh(k->rk), rounds, j0);
	a = gcm_prod_reduce(&prod);
	_mm_storeu_si128((void *)tag, _mm_xor_si128(ej0, gcm_bswap128(a)));
}

/*
 * Where gcm_loop() runs, by measurement (docs/perf-crypto.md, "a compact
 * path for short records", Zen 5): between gcm_short() and gcm_mid(),
 * where the streaming engine ran before (481..512 bytes on zmm), it is
 * faster, warm and with its code cold, except to open exactly one batch
 * (512 bytes), which the streaming engine does in one stitched batch and
 * as fast or faster.  Below, gcm_short() is faster; at 1 KiB, gcm_mid()
 * is 15-25% faster warm (the target of issue #29) and was not slower cold
 * either.  The bounds can be set at build time to measure it elsewhere
 * (up to GCM_MID_MAX).
 */
#ifndef GCM_LOOP_MIN
#define GCM_LOOP_MIN	(GCM_SHORT_MAX + 1)
#endif
#ifndef GCM_LOOP_MAX
#define GCM_LOOP_MAX	GCM_BATCH
#endif
_Static_assert(GCM_LOOP_MAX <= GCM_MID_MAX, "gcm_loop(): AD || text too long");
_Static_assert(GCM_LOOP_MIN >= 1, "gcm_loop() takes no empty record");
#define GCM_USE_LOOP(ad_len, len, enc)					\
	((ad_len) <= 16 && (len) >= GCM_LOOP_MIN && (len) <= GCM_LOOP_MAX &&	\
	 ((enc) || (len) != GCM_BATCH))
#else
#error "the one-pass paths (GCM_ONESHOT) are written for zmm (byte masks)"
#endif /* GCM_VW == 512 */

/*
 * gcm_loop() in functions of their own, called beside the one-shot
 * functions below (from gcm_oneshot()), not from them: inlined into them,
 * or called from them, it changed their register allocation and layout
 * (AES-256 seal of 1 KiB 6% slower, AES-128 open of 64 B 12%); on its own
 * it is all the code its records fetch.
 */
#define GCM_LOOP_FN(name, rounds, enc)					\
GCM_TARGET static noinline void name(const struct tlsx_gcm_key *k,	\
				     const u8 *nonce, const u8 *ad,	\
				     size_t ad_len, const u8 *src,	\
				     u8 *dst, size_t len, u8 *tag)	\
{									\
	gcm_loop(k, rounds, enc, nonce, ad, ad_len, src, dst, len, tag); \
}

GCM_LOOP_FN(gcm_loop_seal10, 10, true)
GCM_LOOP_FN(gcm_loop_seal14, 14, true)
GCM_LOOP_FN(gcm_loop_open10, 10, false)
GCM_LOOP_FN(gcm_loop_open14, 14, false)

#define GCM_ONESHOT_FN(name, rounds, enc)				\
GCM_TARGET static void name(const struct tlsx_aead_key *k,		\
			    const u8 *nonce, const u8 *ad,		\
			    size_t ad_len, const u8 *src, u8 *dst,	\
			    size_t len, u8 *tag)			\
{									\
	if (ad_len <= 16 && len <= GCM_SHORT_MAX)			\
		gcm_short(&k->u.gcm, rounds, enc, nonce, ad, ad_len,	\
			  src, dst, len, tag);				\
	else if (ad_len <= 16 && len > GCM_BATCH &&			\
		 len <= GCM_MID_MAX)					\
		gcm_mid(&k->u.gcm, rounds, enc, nonce, ad, ad_len,	\
			src, dst, len, tag);				\
	else								\
		gcm_long(&k->u.gcm, rounds, enc, nonce, ad, ad_len,	\
			 src, dst, len, tag);				\
}

GCM_ONESHOT_FN(gcm_seal10, 10, true)
GCM_ONESHOT_FN(gcm_seal14, 14, true)
GCM_ONESHOT_FN(gcm_open10, 10, false)
GCM_ONESHOT_FN(gcm_open14, 14, false)

static void gcm_oneshot(const struct tlsx_aead_key *k, bool enc,
			const u8 *nonce, const u8 *ad, size_t ad_len,
			const u8 *src, u8 *dst, size_t len, u8 *tag)
{
	const struct tlsx_gcm_key *g = &k->u.gcm;

	/*
	 * Branches to direct calls, not a table of functions: in the
	 * module an indirect call is a retpoline or an IBT-checked jump.
	 */
	if (GCM_USE_LOOP(ad_len, len, enc)) {
		if (g->rounds == 10 && enc)
			gcm_loop_seal10(g, nonce, ad, ad_len, src, dst, len,
					tag);
		else if (g->rounds == 10)
			gcm_loop_open10(g, nonce, ad, ad_len, src, dst, len,
					tag);
		else if (enc)
			gcm_loop_seal14(g, nonce, ad, ad_len, src, dst, len,
					tag);
		else
			gcm_loop_open14(g, nonce, ad, ad_len, src, dst, len,
					tag);
	} else if (g->rounds == 10) {
		(enc ? gcm_seal10 : gcm_open10)(k, nonce, ad, ad_len, src,
						dst, len, tag);
	} else {
		(enc ? gcm_seal14 : gcm_open14)(k, nonce, ad, ad_len, src,
						dst, len, tag);
	}
}
#endif /* GCM_ONESHOT */

/*
 * Fill k->simd with K_NPOW .. K_1 (K_i = y^128 h'^i mod Q, see above) and
 * GCM_LANES - 1 zero blocks.
 */
static __always_inline GCM_TARGET
void gcm_precompute(struct tlsx_gcm_key *k)
{
	const u64 q_hi = 0xc200000000000000ULL;
	u8 *table = k->simd;
	__m128i h, k1, carry, ki;
	int i;

	h = gcm_bswap128(_mm_loadu_si128((const void *)k->h));
	/* k1 = h * y mod Q: shift left by one, fold the carry into Q. */
	carry = _mm_srai_epi32(_mm_shuffle_epi32(h, 0xff), 31);
	k1 = _mm_or_si128(_mm_slli_epi64(h, 1),
			  _mm_slli_si128(_mm_srli_epi64(h, 63), 8));
	k1 = _mm_xor_si128(k1, _mm_and_si128(carry,
			   _mm_set_epi64x((long long)q_hi, 1)));
	ki = k1;
	_mm_storeu_si128((void *)(table + (GCM_NPOW - 1) * 16), ki);
	for (i = 2; i <= GCM_NPOW; i++) {
		ki = gcm_mul128(ki, k1);
		_mm_storeu_si128((void *)(table + (GCM_NPOW - i) * 16), ki);
	}
	for (i = GCM_NPOW; i < GCM_TABLE_BLOCKS; i++)
		_mm_storeu_si128((void *)(table + i * 16),
				 _mm_setzero_si128());
#ifdef GCM_KX_TABLE
	/* After the table, k.lo + k.hi of each of its blocks. */
	for (i = 0; i < GCM_TABLE_BLOCKS; i++) {
		ki = _mm_loadu_si128((const void *)(table + i * 16));
		ki = _mm_xor_si128(ki, _mm_shuffle_epi32(ki, 0x4e));
		_mm_storeu_si128((void *)(table + (GCM_TABLE_BLOCKS + i) * 16),
				 ki);
	}
#endif
}
