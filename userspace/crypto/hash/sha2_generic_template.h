/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sha2_generic_template.h - the portable SHA-2 compression function,
 * built twice: for SHA-256 by sha256_generic.c (32-bit words, 64 rounds,
 * FIPS 180-4 section 6.2.2) and for SHA-512 and SHA-384 by
 * sha512_generic.c (64-bit words, 80 rounds, section 6.4.2).  The two
 * differ only in the word, the round count, the constants and the
 * rotation counts of the four functions (4.1.2, 4.1.3); those are the
 * includer's, which defines before including this file once:
 *
 *   SHA2_WORD		the word type (u32, u64);
 *   SHA2_LOAD_BE(p)	a big-endian word from unaligned bytes;
 *   SHA2_BLOCK_SIZE	bytes per block (16 words);
 *   SHA2_ROUNDS	rounds per block, a multiple of 8;
 *   SHA2_K		the round constants, SHA2_ROUNDS words;
 *   SHA2_BSIG0(x), SHA2_BSIG1(x)
 *			Sigma0, Sigma1 of the rounds: big_sigma() below with
 *			the hash's three rotation counts;
 *   SHA2_SSIG0(x), SHA2_SSIG1(x)
 *			sigma0, sigma1 of the message schedule:
 *			small_sigma() with its two rotation counts and shift;
 *   SHA2_BLOCKS	the name of the block function (sha2_impl.h).
 *
 * No branch on or index by message bytes: constant-time.
 */
#ifndef SHA2_BLOCKS
#error "define SHA2_WORD, _LOAD_BE, _BLOCK_SIZE, _ROUNDS, _K, the sigmas, _BLOCKS"
#endif

static __always_inline SHA2_WORD ror(SHA2_WORD x, unsigned int n)
{
	return (x >> n) | (x << (8 * sizeof(x) - n));
}

/* Sigma0 and Sigma1: three rotations. */
static __always_inline SHA2_WORD big_sigma(SHA2_WORD x, unsigned int r1,
					   unsigned int r2, unsigned int r3)
{
	return ror(x, r1) ^ ror(x, r2) ^ ror(x, r3);
}

/* sigma0 and sigma1: two rotations and a shift. */
static __always_inline SHA2_WORD small_sigma(SHA2_WORD x, unsigned int r1,
					     unsigned int r2, unsigned int s)
{
	return ror(x, r1) ^ ror(x, r2) ^ (x >> s);
}

/* Ch: z ^ (x & (y ^ z)) selects y where x is 1, z where x is 0. */
static __always_inline SHA2_WORD ch(SHA2_WORD x, SHA2_WORD y, SHA2_WORD z)
{
	return z ^ (x & (y ^ z));
}

/* Maj: the bitwise majority of x, y, z. */
static __always_inline SHA2_WORD maj(SHA2_WORD x, SHA2_WORD y, SHA2_WORD z)
{
	return (x & y) | (z & (x | y));
}

/*
 * One round with the words renamed instead of moved: the caller rotates
 * the argument list by one each round, so after eight rounds the names
 * are back in place.
 */
#define SHA2_ROUND(a, b, c, d, e, f, g, h, i)				\
	do {								\
		SHA2_WORD t1 = h + SHA2_BSIG1(e) + ch(e, f, g) +	\
			       SHA2_K[i] + w[(i) & 15];			\
		SHA2_WORD t2 = SHA2_BSIG0(a) + maj(a, b, c);		\
		d += t1;						\
		h = t1 + t2;						\
	} while (0)

void SHA2_BLOCKS(SHA2_WORD st[8], const u8 *p, size_t nblocks)
{
	SHA2_WORD w[16], a, b, c, d, e, f, g, h;
	int i, j;

	while (nblocks--) {
		for (i = 0; i < 16; i++)
			w[i] = SHA2_LOAD_BE(p + sizeof(SHA2_WORD) * i);
		a = st[0];
		b = st[1];
		c = st[2];
		d = st[3];
		e = st[4];
		f = st[5];
		g = st[6];
		h = st[7];
		for (i = 0; i < SHA2_ROUNDS; i += 8) {
			/*
			 * Rounds 16.. need W[t] = sigma1(W[t-2]) + W[t-7] +
			 * sigma0(W[t-15]) + W[t-16]; a ring of 16 words holds
			 * W[t-16] in W[t]'s slot.  The schedule does not
			 * depend on the rounds, so eight words at a time.
			 */
			for (j = i; i >= 16 && j < i + 8; j++)
				w[j & 15] += SHA2_SSIG1(w[(j - 2) & 15]) +
					     w[(j - 7) & 15] +
					     SHA2_SSIG0(w[(j - 15) & 15]);
			SHA2_ROUND(a, b, c, d, e, f, g, h, i + 0);
			SHA2_ROUND(h, a, b, c, d, e, f, g, i + 1);
			SHA2_ROUND(g, h, a, b, c, d, e, f, i + 2);
			SHA2_ROUND(f, g, h, a, b, c, d, e, i + 3);
			SHA2_ROUND(e, f, g, h, a, b, c, d, i + 4);
			SHA2_ROUND(d, e, f, g, h, a, b, c, i + 5);
			SHA2_ROUND(c, d, e, f, g, h, a, b, i + 6);
			SHA2_ROUND(b, c, d, e, f, g, h, a, i + 7);
		}
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
		st[5] += f;
		st[6] += g;
		st[7] += h;
		p += SHA2_BLOCK_SIZE;
	}
	memzero_explicit(w, sizeof(w));
}
