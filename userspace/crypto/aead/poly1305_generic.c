// SPDX-License-Identifier: GPL-2.0
/*
 * poly1305_generic.c - Poly1305 (RFC 8439 section 2.5): the API, the
 * partial-block buffer, and the scalar engine.
 *
 * Scalar arithmetic is in radix 2^64: h = h0 + h1 * 2^64 + h2 * 2^128 with
 * h2 a few bits, r = r0 + r1 * 2^64 (poly1305_mul_r() in poly1305_impl.h
 * explains the multiplication).  One block costs four 64x64->128
 * multiplies and two small ones; h is only partially reduced (below
 * 2^130 + 2^66) between blocks and fully reduced, by masking, at the end.
 *
 * Runs of at least POLY1305_*_MIN_BLOCKS whole blocks go to the vector
 * engine chosen at init when the caller asked for one: below that the
 * scalar code wins, counting the powers of r the vector code needs.
 */
#include "aead/aead.h"
#include "aead/poly1305_impl.h"

void tlsx_poly1305_blocks_scalar(u64 h[3], const u64 r[2], const u8 *p,
				 size_t nblocks, u64 hibit)
{
	unsigned __int128 d0, d1;
	const u64 r0 = r[0], r1 = r[1], s1 = r1 + (r1 >> 2);
	u64 h0 = h[0], h1 = h[1], h2 = h[2];

	while (nblocks--) {
		/* h += m | hibit << 128; h2 <= 6 after this */
		d0 = (unsigned __int128)h0 + get_unaligned_le64(p);
		d1 = (unsigned __int128)h1 + get_unaligned_le64(p + 8) +
		     (u64)(d0 >> 64);
		h0 = (u64)d0;
		h1 = (u64)d1;
		h2 += (u64)(d1 >> 64) + hibit;

		poly1305_mul_r(&h0, &h1, &h2, r0, r1, s1);
		p += TLSX_POLY1305_BLOCK;
	}
	h[0] = h0;
	h[1] = h1;
	h[2] = h2;
}

void tlsx_poly1305_init(struct tlsx_poly1305_state *st, const u8 key[32],
			enum tlsx_aead_impl impl)
{
	const struct tlsx_cpu *cpu;

	st->h[0] = 0;
	st->h[1] = 0;
	st->h[2] = 0;
	st->r[0] = get_unaligned_le64(key) & 0x0ffffffc0fffffffULL;
	st->r[1] = get_unaligned_le64(key + 8) & 0x0ffffffc0ffffffcULL;
	st->s[0] = get_unaligned_le64(key + 16);
	st->s[1] = get_unaligned_le64(key + 24);
	st->buf_len = 0;
	st->simd_ready = 0;
	st->simd_lanes = 0;
	st->engine = POLY1305_ENGINE_SCALAR;
	if (impl != TLSX_IMPL_AVX2 && impl != TLSX_IMPL_AVX512)
		return;
	cpu = tlsx_cpu_features();
	if (impl == TLSX_IMPL_AVX512 && cpu->avx512ifma && cpu->zmm_ok) {
		st->engine = POLY1305_ENGINE_IFMA;
		return;
	}
	if (cpu->avx2)
		st->engine = POLY1305_ENGINE_AVX2;
}

/* Bring the accumulator back from a vector engine's lanes into st->h. */
static void poly1305_fold(struct tlsx_poly1305_state *st)
{
	if (!st->simd_lanes)
		return;
	if (st->engine == POLY1305_ENGINE_IFMA)
		tlsx_poly1305_fold_ifma(st);
	if (st->engine == POLY1305_ENGINE_AVX2)
		tlsx_poly1305_fold_avx2(st);
}

/*
 * What @buf gathers before it is absorbed: a block, or while a vector
 * engine's lanes hold the accumulator, a group of the engine's width.
 * Folding the lanes back into scalar form costs a multiplication by
 * each power of r and a horizontal sum (about as much as a group of
 * eight blocks), so a run of blocks that does not end on a group keeps
 * its last blocks here for the next call instead: a record fed in pieces
 * (the pages of a file behind a header, TCP segments) then folds once,
 * at the tag, as a record fed whole does.
 */
static size_t poly1305_buf_cap(const struct tlsx_poly1305_state *st)
{
	if (!st->simd_lanes)
		return TLSX_POLY1305_BLOCK;
	if (st->engine == POLY1305_ENGINE_IFMA)
		return POLY1305_IFMA_WIDTH * TLSX_POLY1305_BLOCK;
	return POLY1305_AVX2_WIDTH * TLSX_POLY1305_BLOCK;
}

/*
 * Absorb whole blocks at @p, at most @nblocks, with a vector engine if
 * they are many, and return how many.  All of them unless a vector
 * engine's lanes hold the accumulator at the end: then the blocks past
 * its last whole group (fewer than its width) are left to the caller.
 */
static size_t poly1305_blocks(struct tlsx_poly1305_state *st, const u8 *p,
			      size_t nblocks)
{
	size_t done = 0, nblocks_min;

	/*
	 * Once the powers of r are there, shorter runs pay too; once the
	 * lanes hold the accumulator, any run the width allows.
	 */
	if (st->simd_lanes)
		nblocks_min = 1;
	else if (st->simd_ready)
		nblocks_min = POLY1305_SIMD_MIN_BLOCKS_READY;
	else if (st->engine == POLY1305_ENGINE_IFMA)
		nblocks_min = POLY1305_IFMA_MIN_BLOCKS;
	else
		nblocks_min = POLY1305_AVX2_MIN_BLOCKS;

	if (st->engine == POLY1305_ENGINE_IFMA && nblocks >= nblocks_min)
		done = tlsx_poly1305_blocks_ifma(st, p, nblocks);
	if (st->engine == POLY1305_ENGINE_AVX2 && nblocks >= nblocks_min)
		done = tlsx_poly1305_blocks_avx2(st, p, nblocks);
	if (done < nblocks && !st->simd_lanes)
		tlsx_poly1305_blocks_scalar(st->h, st->r,
					    p + done * TLSX_POLY1305_BLOCK,
					    nblocks - done, 1);
	else
		nblocks = done;
	return nblocks;
}

void tlsx_poly1305_update(struct tlsx_poly1305_state *st, const u8 *data,
			  size_t len)
{
	size_t n, cap;

	if (!len)
		return;		/* @data may be NULL then */
	if (st->buf_len) {
		cap = poly1305_buf_cap(st);
		n = cap - st->buf_len;
		if (n > len)
			n = len;
		memcpy(st->buf + st->buf_len, data, n);
		st->buf_len += n;
		data += n;
		len -= n;
		if (st->buf_len < cap)
			return;
		/* A block, or a whole group for the lanes: all absorbed. */
		poly1305_blocks(st, st->buf, cap / TLSX_POLY1305_BLOCK);
		st->buf_len = 0;
	}
	n = len / TLSX_POLY1305_BLOCK;
	if (n) {
		n = poly1305_blocks(st, data, n) * TLSX_POLY1305_BLOCK;
		data += n;
		len -= n;
	}
	if (len) {
		/* Less than a block, or than a group after a vector run. */
		memcpy(st->buf, data, len);
		st->buf_len = len;
	}
}

void tlsx_poly1305_final(struct tlsx_poly1305_state *st, u8 tag[16])
{
	size_t whole = st->buf_len / TLSX_POLY1305_BLOCK;
	size_t part = st->buf_len % TLSX_POLY1305_BLOCK;
	u8 *last = st->buf + whole * TLSX_POLY1305_BLOCK;
	unsigned __int128 d;
	u64 h0, h1;

	poly1305_fold(st);
	/* Whole blocks a vector run left behind, then the partial one. */
	tlsx_poly1305_blocks_scalar(st->h, st->r, st->buf, whole, 1);
	if (part) {
		/* The last partial block, padded with 1 then zeros. */
		last[part] = 1;
		memset(last + part + 1, 0, TLSX_POLY1305_BLOCK - part - 1);
		tlsx_poly1305_blocks_scalar(st->h, st->r, last, 1, 0);
	}

	poly1305_reduce(st->h);
	h0 = st->h[0];
	h1 = st->h[1];

	/* tag = (h + s) mod 2^128 */
	d = (unsigned __int128)h0 + st->s[0];
	put_unaligned_le64((u64)d, tag);
	put_unaligned_le64(h1 + st->s[1] + (u64)(d >> 64), tag + 8);

	/* The powers of r and lanes are only there if a vector engine ran. */
	if (st->simd_ready == POLY1305_ENGINE_AVX2)
		tlsx_poly1305_wipe_avx2(st);
	else if (st->simd_ready)
		memzero_explicit(st->simd, sizeof(st->simd));
	memzero_explicit(st, st->simd - (u8 *)st);
}
