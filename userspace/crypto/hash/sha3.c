// SPDX-License-Identifier: GPL-2.0
/*
 * sha3.c - Keccak-f[1600] and the sponge (FIPS 202); the contract is in
 * sha3.h.  Lanes are little-endian 64-bit words (FIPS 202 B.1).
 */
#include "hash/sha3.h"

/* Iota's round constants (FIPS 202 3.2.5), rc(t) folded per round. */
static const u64 keccak_rc[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
	0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
	0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
	0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
	0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
	0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
	0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

static inline u64 rol64(u64 x, unsigned int n)
{
	return n ? (x << n) | (x >> (64 - n)) : x;
}

/*
 * Rho's offsets and pi's lane moves (3.2.2, 3.2.3) walked as one cycle:
 * lane keccak_pi[i] receives the previous lane rotated by keccak_rho[i].
 */
static const u8 keccak_rho[24] = {
	1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14,
	27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44,
};

static const u8 keccak_pi[24] = {
	10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4,
	15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1,
};

void tlsx_keccak_f1600(u64 s[25])
{
	u64 c[5], t, u;
	int r, i, x;

	for (r = 0; r < 24; r++) {
		/* theta */
		for (x = 0; x < 5; x++)
			c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^
			       s[x + 20];
		for (x = 0; x < 5; x++) {
			t = c[(x + 4) % 5] ^ rol64(c[(x + 1) % 5], 1);
			for (i = 0; i < 25; i += 5)
				s[x + i] ^= t;
		}
		/* rho and pi */
		t = s[1];
		for (i = 0; i < 24; i++) {
			u = s[keccak_pi[i]];
			s[keccak_pi[i]] = rol64(t, keccak_rho[i]);
			t = u;
		}
		/* chi */
		for (i = 0; i < 25; i += 5) {
			for (x = 0; x < 5; x++)
				c[x] = s[i + x];
			for (x = 0; x < 5; x++)
				s[i + x] = c[x] ^ (~c[(x + 1) % 5] &
						   c[(x + 2) % 5]);
		}
		/* iota */
		s[0] ^= keccak_rc[r];
	}
}

static void keccak_init(struct tlsx_keccak *k, unsigned int rate, u8 ds)
{
	memset(k, 0, sizeof(*k));
	k->rate = rate;
	k->dsbyte = ds;
}

void tlsx_shake128_init(struct tlsx_keccak *k)
{
	keccak_init(k, SHAKE128_RATE, 0x1f);
}

void tlsx_shake256_init(struct tlsx_keccak *k)
{
	keccak_init(k, SHAKE256_RATE, 0x1f);
}

void tlsx_sha3_256_init(struct tlsx_keccak *k)
{
	keccak_init(k, SHA3_256_RATE, 0x06);
}

void tlsx_sha3_512_init(struct tlsx_keccak *k)
{
	keccak_init(k, SHA3_512_RATE, 0x06);
}

static inline void keccak_xor_byte(u64 *s, unsigned int i, u8 b)
{
	s[i / 8] ^= (u64)b << (8 * (i % 8));
}

static inline u8 keccak_byte(const u64 *s, unsigned int i)
{
	return (u8)(s[i / 8] >> (8 * (i % 8)));
}

void tlsx_keccak_absorb(struct tlsx_keccak *k, const void *data, size_t len)
{
	const u8 *p = data;
	unsigned int i;

	/* Whole lanes while aligned to one; bytes at the edges. */
	while (len) {
		if (k->pos == 0 && len >= k->rate) {
			for (i = 0; i < k->rate / 8; i++)
				k->s[i] ^= get_unaligned_le64(p + 8 * i);
			tlsx_keccak_f1600(k->s);
			p += k->rate;
			len -= k->rate;
			continue;
		}
		keccak_xor_byte(k->s, k->pos++, *p++);
		len--;
		if (k->pos == k->rate) {
			tlsx_keccak_f1600(k->s);
			k->pos = 0;
		}
	}
}

/* pad10*1 with the domain bits (FIPS 202 5.1, B.2), then squeeze. */
static void keccak_pad(struct tlsx_keccak *k)
{
	keccak_xor_byte(k->s, k->pos, k->dsbyte);
	keccak_xor_byte(k->s, k->rate - 1, 0x80);
	tlsx_keccak_f1600(k->s);
	k->pos = 0;
	k->squeezing = true;
}

void tlsx_shake_squeeze(struct tlsx_keccak *k, u8 *out, size_t len)
{
	if (!k->squeezing)
		keccak_pad(k);
	while (len) {
		if (k->pos == k->rate) {
			tlsx_keccak_f1600(k->s);
			k->pos = 0;
		}
		*out++ = keccak_byte(k->s, k->pos++);
		len--;
	}
}

void tlsx_shake_squeeze_blocks(struct tlsx_keccak *k, u8 *out,
			       size_t nblocks)
{
	unsigned int i;

	if (!k->squeezing)
		keccak_pad(k);
	/* Block-aligned callers only: pos is 0 after padding. */
	while (nblocks--) {
		if (k->pos == k->rate) {
			tlsx_keccak_f1600(k->s);
			k->pos = 0;
		}
		for (i = 0; i < k->rate / 8; i++)
			put_unaligned_le64(k->s[i], out + 8 * i);
		out += k->rate;
		k->pos = k->rate;
	}
}

void tlsx_sha3_final(struct tlsx_keccak *k, u8 *out, size_t len)
{
	tlsx_shake_squeeze(k, out, len);
	tlsx_keccak_wipe(k);
}

void tlsx_keccak_wipe(struct tlsx_keccak *k)
{
	memzero_explicit(k, sizeof(*k));
}

void tlsx_sha3_256(const void *data, size_t len, u8 out[SHA3_256_DIGEST_SIZE])
{
	struct tlsx_keccak k;

	tlsx_sha3_256_init(&k);
	tlsx_keccak_absorb(&k, data, len);
	tlsx_sha3_final(&k, out, SHA3_256_DIGEST_SIZE);
}

void tlsx_sha3_512(const void *data, size_t len, u8 out[SHA3_512_DIGEST_SIZE])
{
	struct tlsx_keccak k;

	tlsx_sha3_512_init(&k);
	tlsx_keccak_absorb(&k, data, len);
	tlsx_sha3_final(&k, out, SHA3_512_DIGEST_SIZE);
}

void tlsx_shake128(const void *data, size_t len, u8 *out, size_t outlen)
{
	struct tlsx_keccak k;

	tlsx_shake128_init(&k);
	tlsx_keccak_absorb(&k, data, len);
	tlsx_shake_squeeze(&k, out, outlen);
	tlsx_keccak_wipe(&k);
}

void tlsx_shake256(const void *data, size_t len, u8 *out, size_t outlen)
{
	struct tlsx_keccak k;

	tlsx_shake256_init(&k);
	tlsx_keccak_absorb(&k, data, len);
	tlsx_shake_squeeze(&k, out, outlen);
	tlsx_keccak_wipe(&k);
}
