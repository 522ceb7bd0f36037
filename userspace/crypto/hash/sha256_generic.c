// SPDX-License-Identifier: GPL-2.0
/*
 * sha256_generic.c - the portable SHA-256 compression function (FIPS
 * 180-4 section 6.2.2) and the round constants, which the SIMD block
 * functions load too.
 *
 * No branch on or index by message bytes: constant-time.
 */
#include "aead/platform.h"
#include "hash/sha2_impl.h"

/*
 * First 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4 section 4.2.2); aligned for the SIMD code's
 * 16-byte loads.
 */
const u32 tlsx_sha256_k[64] __aligned(16) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static __always_inline u32 ror32(u32 x, unsigned int n)
{
	return (x >> n) | (x << (32 - n));
}

/* The functions of FIPS 180-4 section 4.1.2. */
static __always_inline u32 bsig0(u32 x)
{
	return ror32(x, 2) ^ ror32(x, 13) ^ ror32(x, 22);
}

static __always_inline u32 bsig1(u32 x)
{
	return ror32(x, 6) ^ ror32(x, 11) ^ ror32(x, 25);
}

static __always_inline u32 ssig0(u32 x)
{
	return ror32(x, 7) ^ ror32(x, 18) ^ (x >> 3);
}

static __always_inline u32 ssig1(u32 x)
{
	return ror32(x, 17) ^ ror32(x, 19) ^ (x >> 10);
}

/* Ch: z ^ (x & (y ^ z)) selects y where x is 1, z where x is 0. */
static __always_inline u32 ch(u32 x, u32 y, u32 z)
{
	return z ^ (x & (y ^ z));
}

/* Maj: the bitwise majority of x, y, z. */
static __always_inline u32 maj(u32 x, u32 y, u32 z)
{
	return (x & y) | (z & (x | y));
}

/*
 * One round with the words renamed instead of moved: the caller rotates
 * the argument list by one each round, so after eight rounds the names
 * are back in place.
 */
#define SHA256_ROUND(a, b, c, d, e, f, g, h, i)				\
	do {								\
		u32 t1 = h + bsig1(e) + ch(e, f, g) + tlsx_sha256_k[i] +	\
			 w[(i) & 15];					\
		u32 t2 = bsig0(a) + maj(a, b, c);			\
		d += t1;						\
		h = t1 + t2;						\
	} while (0)

void tlsx_sha256_blocks_generic(u32 st[8], const u8 *p, size_t nblocks)
{
	u32 w[16], a, b, c, d, e, f, g, h;
	int i, j;

	while (nblocks--) {
		for (i = 0; i < 16; i++)
			w[i] = get_unaligned_be32(p + 4 * i);
		a = st[0];
		b = st[1];
		c = st[2];
		d = st[3];
		e = st[4];
		f = st[5];
		g = st[6];
		h = st[7];
		for (i = 0; i < 64; i += 8) {
			/*
			 * Rounds 16..63 need W[t] = s1(W[t-2]) + W[t-7] +
			 * s0(W[t-15]) + W[t-16]; a ring of 16 words holds
			 * W[t-16] in W[t]'s slot.  The schedule does not
			 * depend on the rounds, so eight words at a time.
			 */
			for (j = i; i >= 16 && j < i + 8; j++)
				w[j & 15] += ssig1(w[(j - 2) & 15]) +
					     w[(j - 7) & 15] +
					     ssig0(w[(j - 15) & 15]);
			SHA256_ROUND(a, b, c, d, e, f, g, h, i + 0);
			SHA256_ROUND(h, a, b, c, d, e, f, g, i + 1);
			SHA256_ROUND(g, h, a, b, c, d, e, f, i + 2);
			SHA256_ROUND(f, g, h, a, b, c, d, e, i + 3);
			SHA256_ROUND(e, f, g, h, a, b, c, d, i + 4);
			SHA256_ROUND(d, e, f, g, h, a, b, c, i + 5);
			SHA256_ROUND(c, d, e, f, g, h, a, b, i + 6);
			SHA256_ROUND(b, c, d, e, f, g, h, a, i + 7);
		}
		st[0] += a;
		st[1] += b;
		st[2] += c;
		st[3] += d;
		st[4] += e;
		st[5] += f;
		st[6] += g;
		st[7] += h;
		p += SHA256_BLOCK_SIZE;
	}
	memzero_explicit(w, sizeof(w));
}
