// SPDX-License-Identifier: GPL-2.0
/*
 * sha256_shani.c - the SHA-256 compression function on the x86 SHA
 * extensions (SHA-NI), written from Intel's description of the
 * instructions:
 *
 *  - sha256rnds2 a, b, wk: two rounds.  @b holds the working words
 *    {A, B, E, F} (A in the top dword, F in the bottom), @a holds
 *    {C, D, G, H}; the low two dwords of @wk are W[t] + K[t] for the two
 *    rounds.  The result is the new {A, B, E, F}, and the old {A, B, E, F}
 *    is the new {C, D, G, H}, so two calls with the halves swapped make
 *    four rounds and restore the roles.
 *  - sha256msg1 a, b: a[i] + s0(W[i + 1]) for the four words a = W[0..3],
 *    b = W[4..7] (only W[4] used).
 *  - sha256msg2 a, b: adds s1 of the two words before each: with
 *    a = W[t-16] + s0(W[t-15]) + W[t-7] for t = 16..19 and b = W[12..15],
 *    gives W[16..19] (the last two from the first two just computed).
 *
 * The schedule words are kept in four registers (W[4i..4i+3]), dword 0
 * holding the earliest word.
 */
#include <immintrin.h>

#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

#define SHANI_TARGET __attribute__((target("sha,sse4.1,ssse3")))

/* Four rounds on W[4i..4i+3] = @m. */
#define SHANI_ROUNDS4(m, i)						\
	do {								\
		__m128i wk = _mm_add_epi32((m),				\
			_mm_load_si128((const __m128i *)tlsx_sha256_k + (i)));	\
		cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);		\
		wk = _mm_shuffle_epi32(wk, 0x0e);			\
		abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);		\
	} while (0)

/*
 * W[t..t+3] from the four groups before it, replacing the oldest (@m0):
 * msg1 gives W[t-16] + s0(W[t-15]), alignr picks W[t-7..t-4] out of the
 * two groups @m2:@m3, msg2 adds s1(W[t-2]) and s1(W[t-1]).
 */
#define SHANI_SCHED(m0, m1, m2, m3)					\
	((m0) = _mm_sha256msg2_epu32(					\
		_mm_add_epi32(_mm_sha256msg1_epu32((m0), (m1)),		\
			      _mm_alignr_epi8((m3), (m2), 4)),		\
		(m3)))

SHANI_TARGET
void tlsx_sha256_blocks_shani(u32 st[8], const u8 *p, size_t nblocks)
{
	/* Byte-swaps each dword: the message words are big-endian. */
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11,
					   4, 5, 6, 7, 0, 1, 2, 3);
	__m128i abcd, efgh, abef, cdgh, abef0, cdgh0, m0, m1, m2, m3;

	/*
	 * {a, b, c, d} and {e, f, g, h} (a in dword 0) to the instructions'
	 * {A, B, E, F} = dwords (F, E, B, A) and {C, D, G, H} = (H, G, D, C).
	 */
	abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)st), 0x1b);
	efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)st + 1),
				 0x1b);
	abef = _mm_unpackhi_epi64(efgh, abcd);
	cdgh = _mm_unpacklo_epi64(efgh, abcd);

	while (nblocks--) {
		abef0 = abef;
		cdgh0 = cdgh;
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p),
				      bswap);
		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p + 1),
				      bswap);
		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p + 2),
				      bswap);
		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)p + 3),
				      bswap);
		SHANI_ROUNDS4(m0, 0);
		SHANI_ROUNDS4(m1, 1);
		SHANI_ROUNDS4(m2, 2);
		SHANI_ROUNDS4(m3, 3);
		SHANI_SCHED(m0, m1, m2, m3);
		SHANI_ROUNDS4(m0, 4);
		SHANI_SCHED(m1, m2, m3, m0);
		SHANI_ROUNDS4(m1, 5);
		SHANI_SCHED(m2, m3, m0, m1);
		SHANI_ROUNDS4(m2, 6);
		SHANI_SCHED(m3, m0, m1, m2);
		SHANI_ROUNDS4(m3, 7);
		SHANI_SCHED(m0, m1, m2, m3);
		SHANI_ROUNDS4(m0, 8);
		SHANI_SCHED(m1, m2, m3, m0);
		SHANI_ROUNDS4(m1, 9);
		SHANI_SCHED(m2, m3, m0, m1);
		SHANI_ROUNDS4(m2, 10);
		SHANI_SCHED(m3, m0, m1, m2);
		SHANI_ROUNDS4(m3, 11);
		SHANI_SCHED(m0, m1, m2, m3);
		SHANI_ROUNDS4(m0, 12);
		SHANI_SCHED(m1, m2, m3, m0);
		SHANI_ROUNDS4(m1, 13);
		SHANI_SCHED(m2, m3, m0, m1);
		SHANI_ROUNDS4(m2, 14);
		SHANI_SCHED(m3, m0, m1, m2);
		SHANI_ROUNDS4(m3, 15);
		abef = _mm_add_epi32(abef, abef0);
		cdgh = _mm_add_epi32(cdgh, cdgh0);
		p += SHA256_BLOCK_SIZE;
	}

	/* Back: (H, G, D, C):(F, E, B, A) to {a, b, c, d} and {e, f, g, h}. */
	abcd = _mm_shuffle_epi32(_mm_unpackhi_epi64(cdgh, abef), 0x1b);
	efgh = _mm_shuffle_epi32(_mm_unpacklo_epi64(cdgh, abef), 0x1b);
	_mm_storeu_si128((__m128i *)st, abcd);
	_mm_storeu_si128((__m128i *)st + 1, efgh);
}
