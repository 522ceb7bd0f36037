/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SHA-512 compression function with its message schedule in ymm
 * registers and its rounds in scalar registers (BMI2's RORX for the
 * rotations), written once for AVX2 (sha512_avx2.c) and for AVX-512VL
 * (sha512_avx512.c, whose rotations and three-way XORs are single
 * instructions).  The including file defines SHA512_X2_TARGET (the target
 * attribute of every function), SHA512_X2_BLOCKS (the name of the block
 * function), SHA512_X2_ALWAYS_PACED (see SHA512_X2_BLOCKS() below) and
 * vsig0()/vsig1() (the small sigmas on four 64-bit lanes), then includes
 * this file once.
 *
 * The schedule (FIPS 180-4 section 6.4.2 step 1) of two blocks is
 * computed at once: each 128-bit lane of a ymm register holds two
 * consecutive words W[t], W[t+1] of one block, the low lane block A and
 * the high lane block B.  Two new words need only words already known:
 *
 *   W[t]   = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]
 *   W[t+1] = s1(W[t-1]) + W[t-6] + s0(W[t-14]) + W[t-15]
 *
 * so with x0..x7 holding the pairs (W[t-16], W[t-15]) .. (W[t-2], W[t-1])
 * the new pair is x0 + s0(x1:x0 shifted by one word) + (x5:x4 shifted by
 * one word) + s1(x7); VPALIGNR shifts within each lane, so both blocks
 * advance together.  W[t] + K[t] goes to a table on the stack from which
 * the rounds of block A, then of block B, take one word per round.  The
 * schedule is a third of the work of a block; here it runs on the vector
 * units while the rounds' long dependency chain occupies the scalar ones.
 *
 * The table holds message-derived words: it is wiped before returning.
 */
#ifndef SHA512_X2_TARGET
#error "define SHA512_X2_TARGET, _BLOCKS, _ALWAYS_PACED, vsig0(), vsig1()"
#endif

/*
 * Loads 16 bytes of block A and of block B (the word pair @i of each)
 * into the two lanes, byte-swapping the big-endian words.
 */
static __always_inline SHA512_X2_TARGET
__m256i load_pair(const u8 *a, const u8 *b, int i, __m256i bswap)
{
	__m256i v = _mm256_castsi128_si256(
		_mm_loadu_si128((const __m128i *)(a + 16 * i)));

	v = _mm256_inserti128_si256(v,
		_mm_loadu_si128((const __m128i *)(b + 16 * i)), 1);
	return _mm256_shuffle_epi8(v, bswap);
}

/* K[2j], K[2j+1] in both lanes. */
static __always_inline SHA512_X2_TARGET
__m256i k_pair(int j)
{
	return _mm256_broadcastsi128_si256(
		_mm_loadu_si128((const __m128i *)&tlsx_sha512_k[2 * j]));
}

/*
 * Starts the schedule of blocks @a and @b: x[0..7] = W[0..15] of both,
 * wk[j] = { W[2j] + K[2j], W[2j+1] + K[2j+1] of block A, the same of
 * block B } for j = 0..7.
 */
static __always_inline SHA512_X2_TARGET
void sched_start(__m256i x[8], __m256i *wk, const u8 *a, const u8 *b)
{
	const __m256i bswap = _mm256_setr_epi8(
		7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8,
		7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8);
	int j;

	for (j = 0; j < 8; j++) {
		x[j] = load_pair(a, b, j, bswap);
		wk[j] = _mm256_add_epi64(x[j], k_pair(j));
	}
}

/*
 * Pair @j (8..39) of the schedule.  x[] is a ring of the last 16 words:
 * pair j - 8 (the oldest) is in x[r], pair j - 1 in x[(r + 7) % 8],
 * where @r is j % 8 given as a constant; the new pair replaces x[r].
 */
static __always_inline SHA512_X2_TARGET
void sched_step(__m256i x[8], __m256i *wk, int j, int r)
{
	__m256i x0 = x[r & 7], x1 = x[(r + 1) & 7], x4 = x[(r + 4) & 7];
	__m256i x5 = x[(r + 5) & 7], x7 = x[(r + 7) & 7], n;

	n = _mm256_add_epi64(
		_mm256_add_epi64(
			_mm256_add_epi64(x0, vsig0(_mm256_alignr_epi8(x1, x0, 8))),
			_mm256_alignr_epi8(x5, x4, 8)),
		vsig1(x7));
	x[r & 7] = n;
	wk[j] = _mm256_add_epi64(n, k_pair(j));
}

/* The whole schedule of blocks @a and @b. */
static __always_inline SHA512_X2_TARGET
void schedule2(__m256i *wk, const u8 *a, const u8 *b)
{
	__m256i x[8];
	int j;

	sched_start(x, wk, a, b);
#pragma GCC unroll 32
	for (j = 8; j < 40; j++)
		sched_step(x, wk, j, j);
}

static __always_inline SHA512_X2_TARGET
u64 ror64(u64 x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

/*
 * Pins @x in a register at this point, so that the compiler keeps the
 * order of the additions below rather than reassociating them.
 */
#define PIN(x) __asm__("" : "+r"(x))

/*
 * One round, words renamed rather than moved (the caller rotates the
 * argument list); @w is W[t] + K[t].  Ordered for the two dependency
 * chains through e and a (RORX, AND, XOR, ADD: one cycle each):
 *
 *   e' = ((d + h + w) + Ch(e, f, g)) + S1(e): d + h + w is ready early,
 *        Ch takes 2 cycles, S1 3, so e' is 4 cycles after e;
 *   a' = ((T1 + Maj(a, b, c)) + S0(a)) with T1 = (h + w + Ch) + S1
 *        computed again (an extra add rather than a longer chain), and
 *        Maj = (a & (b ^ c)) ^ (b & c), 2 cycles after a as b and c are
 *        older, so a' is 4 cycles after a once e runs ahead.
 */
#define ROUND(a, b, c, d, e, f, g, h, w)				\
	do {								\
		u64 hw = h + (w);					\
		u64 ch = ((f ^ g) & e) ^ g;				\
		u64 s1 = ror64(e, 14) ^ ror64(e, 18) ^ ror64(e, 41);	\
		u64 mj = (a & (b ^ c)) ^ (b & c);			\
		u64 s0 = ror64(a, 28) ^ ror64(a, 34) ^ ror64(a, 39);	\
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

/* Eight rounds from @w (W + K of the lane, pairs interleaved). */
#define ROUNDS8(w)							\
	do {								\
		ROUND(a, b, c, d, e, f, g, h, (w)[0]);			\
		ROUND(h, a, b, c, d, e, f, g, (w)[1]);			\
		ROUND(g, h, a, b, c, d, e, f, (w)[4]);			\
		ROUND(f, g, h, a, b, c, d, e, (w)[5]);			\
		ROUND(e, f, g, h, a, b, c, d, (w)[8]);			\
		ROUND(d, e, f, g, h, a, b, c, (w)[9]);			\
		ROUND(c, d, e, f, g, h, a, b, (w)[12]);			\
		ROUND(b, c, d, e, f, g, h, a, (w)[13]);			\
	} while (0)

#define LOAD_STATE()							\
	u64 a = st[0], b = st[1], c = st[2], d = st[3];			\
	u64 e = st[4], f = st[5], g = st[6], h = st[7]

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

/*
 * 80 rounds of one block; @w points at its lane of the W + K table @wk:
 * the word of round t is at w[4 * (t / 2) + t % 2].
 */
static noinline SHA512_X2_TARGET
void rounds(u64 st[8], const u64 *w)
{
	LOAD_STATE();
	int i;

	for (i = 0; i < 80; i += 8)
		ROUNDS8(w + 2 * i);
	ADD_STATE();
}

/*
 * The same, computing pairs @j0 .. @j0 + 15 (@j0 a multiple of 8) of the
 * next two blocks' schedule in between: two pairs every eight rounds for
 * the first 64 rounds.  The schedule is one long dependency chain (each
 * pair needs s1 of the one before); spread over the rounds of two blocks
 * it runs on the vector units while the scalar units are busy with the
 * rounds' own chains.
 */
static noinline SHA512_X2_TARGET
void rounds_sched(u64 st[8], const u64 *w, __m256i *xio, __m256i *next,
		  int j0)
{
	LOAD_STATE();
	__m256i x[8];
	int i;

	for (i = 0; i < 8; i++)
		x[i] = xio[i];
	for (i = 0; i < 64; i += 32, j0 += 8) {
		ROUNDS8(w + 2 * i);
		sched_step(x, next, j0 + 0, 0);
		sched_step(x, next, j0 + 1, 1);
		ROUNDS8(w + 2 * i + 16);
		sched_step(x, next, j0 + 2, 2);
		sched_step(x, next, j0 + 3, 3);
		ROUNDS8(w + 2 * i + 32);
		sched_step(x, next, j0 + 4, 4);
		sched_step(x, next, j0 + 5, 5);
		ROUNDS8(w + 2 * i + 48);
		sched_step(x, next, j0 + 6, 6);
		sched_step(x, next, j0 + 7, 7);
	}
	ROUNDS8(w + 128);
	ROUNDS8(w + 144);
	ADD_STATE();
	for (i = 0; i < 8; i++)
		xio[i] = x[i];
	memzero_explicit(x, sizeof(x));
}

/*
 * The same for a block whose own schedule is still being computed: on
 * entry pairs 0..7 of @wk and x[] are done, and pairs 8..39 are computed
 * in between, four every eight rounds, each at least eight rounds before
 * its first use.  The schedule's chain then paces the rounds: with AVX2
 * this is for short messages only, where computing the schedule first
 * would delay the first round further; AVX-512's shorter chain keeps up
 * with the rounds at any length.
 */
static noinline SHA512_X2_TARGET
void rounds_self(u64 st[8], const u64 *w, __m256i *wk, __m256i *xio)
{
	LOAD_STATE();
	__m256i x[8];
	int i, j;

	for (i = 0; i < 8; i++)
		x[i] = xio[i];
	for (i = 0, j = 8; i < 64; i += 16, j += 8) {
		ROUNDS8(w + 2 * i);
		sched_step(x, wk, j + 0, 0);
		sched_step(x, wk, j + 1, 1);
		sched_step(x, wk, j + 2, 2);
		sched_step(x, wk, j + 3, 3);
		ROUNDS8(w + 2 * i + 16);
		sched_step(x, wk, j + 4, 4);
		sched_step(x, wk, j + 5, 5);
		sched_step(x, wk, j + 6, 6);
		sched_step(x, wk, j + 7, 7);
	}
	ROUNDS8(w + 128);
	ROUNDS8(w + 144);
	ADD_STATE();
	memzero_explicit(x, sizeof(x));
}

/*
 * One or two blocks (@b == @a for one; lane B then goes unused): block
 * A's rounds computing the schedule as they go, then block B's.
 */
static __always_inline SHA512_X2_TARGET
void self_paced(u64 st[8], __m256i *wk, __m256i x[8], const u8 *a,
		const u8 *b)
{
	sched_start(x, wk, a, b);
	rounds_self(st, (const u64 *)wk, wk, x);
	if (b != a)
		rounds(st, (const u64 *)wk + 2);
}

/*
 * Two blocks at a time.  Up to three blocks (any number when the
 * including file sets SHA512_X2_ALWAYS_PACED), each pair computes its
 * schedule during block A's rounds; longer messages compute the schedule
 * of the next two blocks during the rounds of these (the first pair's
 * before them), so that the rounds never wait for it.
 */
SHA512_X2_TARGET
void SHA512_X2_BLOCKS(u64 st[8], const u8 *p, size_t nblocks)
{
	__m256i wk[2][40], x[8];
	int cur = 0;

	if (SHA512_X2_ALWAYS_PACED || nblocks <= 3) {
		for (; nblocks >= 2; nblocks -= 2) {
			self_paced(st, wk[0], x, p, p + SHA512_BLOCK_SIZE);
			p += 2 * SHA512_BLOCK_SIZE;
		}
		if (nblocks)
			self_paced(st, wk[0], x, p, p);
		memzero_explicit(wk[0], sizeof(wk[0]));
		memzero_explicit(x, sizeof(x));
		return;
	}
	schedule2(wk[0], p, p + SHA512_BLOCK_SIZE);
	while (nblocks >= 4) {
		__m256i *next = wk[cur ^ 1];

		sched_start(x, next, p + 2 * SHA512_BLOCK_SIZE,
			    p + 3 * SHA512_BLOCK_SIZE);
		rounds_sched(st, (const u64 *)wk[cur], x, next, 8);
		rounds_sched(st, (const u64 *)wk[cur] + 2, x, next, 24);
		cur ^= 1;
		p += 2 * SHA512_BLOCK_SIZE;
		nblocks -= 2;
	}
	/* The last two or three blocks. */
	rounds(st, (const u64 *)wk[cur]);
	rounds(st, (const u64 *)wk[cur] + 2);
	if (nblocks == 3)
		self_paced(st, wk[cur ^ 1], x, p + 2 * SHA512_BLOCK_SIZE,
			  p + 2 * SHA512_BLOCK_SIZE);
	memzero_explicit(wk, sizeof(wk));
	memzero_explicit(x, sizeof(x));
}
