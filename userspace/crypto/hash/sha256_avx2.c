// SPDX-License-Identifier: GPL-2.0
/*
 * sha256_avx2.c - SHA-256 blocks for CPUs without SHA-NI: the message
 * schedule of two blocks at once in AVX2 registers, the rounds in scalar
 * registers with BMI2's RORX.
 *
 * Each 128-bit lane of a ymm register holds four consecutive schedule
 * words W[t..t+3] of one block (low lane block A, high lane block B).
 * With x0..x3 holding W[t-16..t-13] .. W[t-4..t-1], FIPS 180-4's
 *
 *   W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]
 *
 * gives the four new words as x0 + s0(x1:x0 shifted by one word) +
 * (x3:x2 shifted by one word) + s1 of W[t-2..t+1].  Only W[t-2] and
 * W[t-1] are known, so s1 goes in two halves: for words 0 and 1 from
 * the top of x3, then for words 2 and 3 from the two words just made.
 * The 32-bit rotations of s1 come from 64-bit shifts of a word
 * duplicated into both halves of a 64-bit lane (the low half of
 * (w:w) >> n is w rotated right by n).  W[t] + K[t] goes to a table on
 * the stack; block A's rounds compute the rest of the schedule of both
 * blocks as they go (one group of four words every four rounds, each
 * at least twelve rounds before its use), then block B's rounds run
 * from the table.
 *
 * The table holds message-derived words: it is wiped before returning.
 */
#include <immintrin.h>

#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

#define AVX2_TARGET __attribute__((target("avx2,bmi2")))

/* s0(x) = ROTR 7 ^ ROTR 18 ^ SHR 3 on every 32-bit word. */
static __always_inline AVX2_TARGET
__m256i vsig0(__m256i x)
{
	return _mm256_xor_si256(
		_mm256_xor_si256(
			_mm256_xor_si256(_mm256_srli_epi32(x, 7),
					 _mm256_slli_epi32(x, 25)),
			_mm256_xor_si256(_mm256_srli_epi32(x, 18),
					 _mm256_slli_epi32(x, 14))),
		_mm256_srli_epi32(x, 3));
}

/*
 * s1(x) = ROTR 17 ^ ROTR 19 ^ SHR 10 of words 0 and 2 of @d, where each
 * 64-bit lane of @d holds one word twice: the results are in words 0 and
 * 2 (words 1 and 3 are garbage).
 */
static __always_inline AVX2_TARGET
__m256i vsig1_dup(__m256i d)
{
	return _mm256_xor_si256(
		_mm256_xor_si256(_mm256_srli_epi64(d, 17),
				 _mm256_srli_epi64(d, 19)),
		_mm256_srli_epi32(d, 10));
}

/* K[4j..4j+3] in both lanes. */
static __always_inline AVX2_TARGET
__m256i k_quad(int j)
{
	return _mm256_broadcastsi128_si256(
		_mm_load_si128((const __m128i *)tlsx_sha256_k + j));
}

/*
 * Group @j (4..15) of the schedule, W[4j..4j+3] of both blocks.  x[] is
 * a ring of the last 16 words: group j - 4 (the oldest) is in x[r], group
 * j - 1 in x[(r + 3) % 4], with @r = j % 4 given as a constant; the new
 * group replaces x[r].
 */
static __always_inline AVX2_TARGET
void sched_step(__m256i x[4], __m256i *wk, int j, int r)
{
	/* Words 0 and 2 to slots 0 and 1, or to slots 2 and 3; zero the rest. */
	const __m256i lo = _mm256_setr_epi8(
		0, 1, 2, 3, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1,
		0, 1, 2, 3, 8, 9, 10, 11, -1, -1, -1, -1, -1, -1, -1, -1);
	const __m256i hi = _mm256_setr_epi8(
		-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 8, 9, 10, 11,
		-1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, 3, 8, 9, 10, 11);
	__m256i x0 = x[r & 3], x1 = x[(r + 1) & 3], x2 = x[(r + 2) & 3];
	__m256i x3 = x[(r + 3) & 3], n;

	n = _mm256_add_epi32(
		_mm256_add_epi32(x0, vsig0(_mm256_alignr_epi8(x1, x0, 4))),
		_mm256_alignr_epi8(x3, x2, 4));
	/* + s1(W[t-2]), s1(W[t-1]): words 2, 3 of x3 as (w:w) lanes. */
	n = _mm256_add_epi32(n, _mm256_shuffle_epi8(
		vsig1_dup(_mm256_shuffle_epi32(x3, 0xfa)), lo));
	/* + s1(W[t]), s1(W[t+1]): words 0, 1 just made. */
	n = _mm256_add_epi32(n, _mm256_shuffle_epi8(
		vsig1_dup(_mm256_shuffle_epi32(n, 0x50)), hi));
	x[r & 3] = n;
	wk[j] = _mm256_add_epi32(n, k_quad(j));
}

static __always_inline AVX2_TARGET
u32 ror32(u32 x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* Pins @x in a register here, so the order of the additions is kept. */
#define PIN(x) __asm__("" : "+r"(x))

/*
 * One round, words renamed rather than moved; @w is W[t] + K[t].  The
 * additions are ordered as in sha512_x2_template.h: e' = ((d + h + w) +
 * Ch) + S1 and a' = (((h + w + Ch) + S1) + Maj) + S0 with
 * Maj = (a & (b ^ c)) ^ (b & c), which keeps both chains at 4 cycles.
 */
#define ROUND(a, b, c, d, e, f, g, h, w)				\
	do {								\
		u32 hw = h + (w);					\
		u32 ch = ((f ^ g) & e) ^ g;				\
		u32 s1 = ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25);	\
		u32 mj = (a & (b ^ c)) ^ (b & c);			\
		u32 s0 = ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22);	\
		d += hw;						\
		PIN(d);							\
		d += ch;						\
		PIN(d);							\
		d += s1;						\
		hw += ch;						\
		PIN(hw);						\
		hw += s1;						\
		PIN(hw);						\
		hw += mj;						\
		PIN(hw);						\
		h = hw + s0;						\
	} while (0)

/*
 * Four rounds from @w, the lane's W + K table: the word of round t is
 * at w[8 * (t / 4) + t % 4].
 */
#define ROUNDS4(a, b, c, d, e, f, g, h, w)				\
	do {								\
		ROUND(a, b, c, d, e, f, g, h, (w)[0]);			\
		ROUND(h, a, b, c, d, e, f, g, (w)[1]);			\
		ROUND(g, h, a, b, c, d, e, f, (w)[2]);			\
		ROUND(f, g, h, a, b, c, d, e, (w)[3]);			\
	} while (0)

#define LOAD_STATE()							\
	u32 a = st[0], b = st[1], c = st[2], d = st[3];			\
	u32 e = st[4], f = st[5], g = st[6], h = st[7]

#define ADD_STATE()							\
	do {								\
		st[0] += a;						\
		st[1] += b;						\
		st[2] += c;						\
		st[3] += d;						\
		st[4] += e;						\
		st[5] += f;						\
		st[6] += g;						\
		st[7] += h;						\
	} while (0)

/* 64 rounds of the block whose table lane starts at @w. */
static noinline AVX2_TARGET
void rounds(u32 st[8], const u32 *w)
{
	LOAD_STATE();
	int i;

	for (i = 0; i < 64; i += 8) {
		ROUNDS4(a, b, c, d, e, f, g, h, w + 2 * i);
		ROUNDS4(e, f, g, h, a, b, c, d, w + 2 * i + 8);
	}
	ADD_STATE();
}

/*
 * The same for block A while groups 4..15 of the schedule of both
 * blocks are computed, one every four rounds (rounds 0..47); group j is
 * first used at round 4j.
 */
static noinline AVX2_TARGET
void rounds_self(u32 st[8], const u32 *w, __m256i *wk, __m256i *xio)
{
	LOAD_STATE();
	__m256i x[4];
	int i, j;

	for (i = 0; i < 4; i++)
		x[i] = xio[i];
	for (i = 0, j = 4; i < 48; i += 16, j += 4) {
		ROUNDS4(a, b, c, d, e, f, g, h, w + 2 * i);
		sched_step(x, wk, j + 0, 0);
		ROUNDS4(e, f, g, h, a, b, c, d, w + 2 * i + 8);
		sched_step(x, wk, j + 1, 1);
		ROUNDS4(a, b, c, d, e, f, g, h, w + 2 * i + 16);
		sched_step(x, wk, j + 2, 2);
		ROUNDS4(e, f, g, h, a, b, c, d, w + 2 * i + 24);
		sched_step(x, wk, j + 3, 3);
	}
	for (; i < 64; i += 8) {
		ROUNDS4(a, b, c, d, e, f, g, h, w + 2 * i);
		ROUNDS4(e, f, g, h, a, b, c, d, w + 2 * i + 8);
	}
	ADD_STATE();
	memzero_explicit(x, sizeof(x));
}

AVX2_TARGET
void tlsx_sha256_blocks_avx2(u32 st[8], const u8 *p, size_t nblocks)
{
	const __m256i bswap = _mm256_setr_epi8(
		3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12,
		3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12);
	__m256i wk[16], x[4];
	const u8 *b;
	int i;

	for (; nblocks; p = b + SHA256_BLOCK_SIZE) {
		/* A lone last block fills both lanes; lane B goes unused. */
		b = nblocks >= 2 ? p + SHA256_BLOCK_SIZE : p;
		for (i = 0; i < 4; i++) {
			x[i] = _mm256_shuffle_epi8(_mm256_inserti128_si256(
				_mm256_castsi128_si256(_mm_loadu_si128(
					(const __m128i *)p + i)),
				_mm_loadu_si128((const __m128i *)b + i), 1),
				bswap);
			wk[i] = _mm256_add_epi32(x[i], k_quad(i));
		}
		rounds_self(st, (const u32 *)wk, wk, x);
		if (b == p)
			break;
		rounds(st, (const u32 *)wk + 4);
		nblocks -= 2;
	}
	memzero_explicit(wk, sizeof(wk));
	memzero_explicit(x, sizeof(x));
}
