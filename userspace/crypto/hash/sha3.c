// SPDX-License-Identifier: GPL-2.0
/*
 * sha3.c - Keccak-f[1600] and the sponge (FIPS 202); the contract is in
 * sha3.h.  Lanes are little-endian 64-bit words (FIPS 202 B.1).
 */
#include "hash/sha3.h"

/* Iota's round constants (FIPS 202 3.2.5), rc(t) folded per round. */
const u64 tlsx_keccak_rc[24] = {
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
 * One round is theta, rho and pi (into b), chi and iota (FIPS 202
 * 3.2.1-3.2.5), on 25 named lanes the compiler keeps in registers;
 * lane axy is s[x + 5y], rho's offsets are (t + 1)(t + 2) / 2 along
 * pi's walk from (1, 0).  tools/gen has no generator for this: it is
 * written out once, checked by test_sha3's examples.
 */
void tlsx_keccak_f1600(u64 s[25])
{
	u64 a00, a10, a20, a30, a40, a01, a11, a21, a31, a41, a02, a12, a22, a32,
	    a42, a03, a13, a23, a33, a43, a04, a14, a24, a34, a44;
	u64 b00, b10, b20, b30, b40, b01, b11, b21, b31, b41, b02, b12, b22, b32,
	    b42, b03, b13, b23, b33, b43, b04, b14, b24, b34, b44;
	u64 c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	int r;

	a00 = s[0];
	a10 = s[1];
	a20 = s[2];
	a30 = s[3];
	a40 = s[4];
	a01 = s[5];
	a11 = s[6];
	a21 = s[7];
	a31 = s[8];
	a41 = s[9];
	a02 = s[10];
	a12 = s[11];
	a22 = s[12];
	a32 = s[13];
	a42 = s[14];
	a03 = s[15];
	a13 = s[16];
	a23 = s[17];
	a33 = s[18];
	a43 = s[19];
	a04 = s[20];
	a14 = s[21];
	a24 = s[22];
	a34 = s[23];
	a44 = s[24];
	for (r = 0; r < 24; r++) {
		c0 = a00 ^ a01 ^ a02 ^ a03 ^ a04;
		c1 = a10 ^ a11 ^ a12 ^ a13 ^ a14;
		c2 = a20 ^ a21 ^ a22 ^ a23 ^ a24;
		c3 = a30 ^ a31 ^ a32 ^ a33 ^ a34;
		c4 = a40 ^ a41 ^ a42 ^ a43 ^ a44;
		d0 = c4 ^ rol64(c1, 1);
		d1 = c0 ^ rol64(c2, 1);
		d2 = c1 ^ rol64(c3, 1);
		d3 = c2 ^ rol64(c4, 1);
		d4 = c3 ^ rol64(c0, 1);
		b00 = rol64(a00 ^ d0, 0);
		b01 = rol64(a30 ^ d3, 28);
		b02 = rol64(a10 ^ d1, 1);
		b03 = rol64(a40 ^ d4, 27);
		b04 = rol64(a20 ^ d2, 62);
		b10 = rol64(a11 ^ d1, 44);
		b11 = rol64(a41 ^ d4, 20);
		b12 = rol64(a21 ^ d2, 6);
		b13 = rol64(a01 ^ d0, 36);
		b14 = rol64(a31 ^ d3, 55);
		b20 = rol64(a22 ^ d2, 43);
		b21 = rol64(a02 ^ d0, 3);
		b22 = rol64(a32 ^ d3, 25);
		b23 = rol64(a12 ^ d1, 10);
		b24 = rol64(a42 ^ d4, 39);
		b30 = rol64(a33 ^ d3, 21);
		b31 = rol64(a13 ^ d1, 45);
		b32 = rol64(a43 ^ d4, 8);
		b33 = rol64(a23 ^ d2, 15);
		b34 = rol64(a03 ^ d0, 41);
		b40 = rol64(a44 ^ d4, 14);
		b41 = rol64(a24 ^ d2, 61);
		b42 = rol64(a04 ^ d0, 18);
		b43 = rol64(a34 ^ d3, 56);
		b44 = rol64(a14 ^ d1, 2);
		a00 = b00 ^ (~b10 & b20);
		a01 = b01 ^ (~b11 & b21);
		a02 = b02 ^ (~b12 & b22);
		a03 = b03 ^ (~b13 & b23);
		a04 = b04 ^ (~b14 & b24);
		a10 = b10 ^ (~b20 & b30);
		a11 = b11 ^ (~b21 & b31);
		a12 = b12 ^ (~b22 & b32);
		a13 = b13 ^ (~b23 & b33);
		a14 = b14 ^ (~b24 & b34);
		a20 = b20 ^ (~b30 & b40);
		a21 = b21 ^ (~b31 & b41);
		a22 = b22 ^ (~b32 & b42);
		a23 = b23 ^ (~b33 & b43);
		a24 = b24 ^ (~b34 & b44);
		a30 = b30 ^ (~b40 & b00);
		a31 = b31 ^ (~b41 & b01);
		a32 = b32 ^ (~b42 & b02);
		a33 = b33 ^ (~b43 & b03);
		a34 = b34 ^ (~b44 & b04);
		a40 = b40 ^ (~b00 & b10);
		a41 = b41 ^ (~b01 & b11);
		a42 = b42 ^ (~b02 & b12);
		a43 = b43 ^ (~b03 & b13);
		a44 = b44 ^ (~b04 & b14);
		a00 ^= tlsx_keccak_rc[r];
	}
	s[0] = a00;
	s[1] = a10;
	s[2] = a20;
	s[3] = a30;
	s[4] = a40;
	s[5] = a01;
	s[6] = a11;
	s[7] = a21;
	s[8] = a31;
	s[9] = a41;
	s[10] = a02;
	s[11] = a12;
	s[12] = a22;
	s[13] = a32;
	s[14] = a42;
	s[15] = a03;
	s[16] = a13;
	s[17] = a23;
	s[18] = a33;
	s[19] = a43;
	s[20] = a04;
	s[21] = a14;
	s[22] = a24;
	s[23] = a34;
	s[24] = a44;
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
