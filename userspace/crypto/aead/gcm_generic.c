// SPDX-License-Identifier: GPL-2.0
/*
 * Portable, constant-time AES-GCM: the engine of last resort (the kernel
 * takes it when the FPU is not usable) and the key expansion of the
 * GENERIC impl (the AES-NI impls expand with aes_keyexp_aesni.c, to the
 * same bytes, so this engine runs on any key).
 *
 * AES is bitsliced: four blocks are spread over eight 64-bit words, word b
 * holding bit b of every byte of the four blocks, so SubBytes is a boolean
 * circuit evaluated on whole words (the 113-gate S-box circuit published
 * by Boyar and Peralta) and no byte of state or key ever selects a memory
 * address.  Within a word, the byte at row r, column c of block j sits at
 * bit 16 * r + 4 * c + j: a row is a 16-bit lane, so MixColumns needs only
 * rotations of the whole word by multiples of 16, and ShiftRows is a
 * rotation of nibbles inside each lane.
 *
 * GHASH multiplies without tables.  A 64 x 64 carry-less product is built
 * from integer multiplications of operands with holes: keeping only every
 * fifth bit of each operand, at most 13 partial products fall on any bit
 * of an integer product, so their sum fits in the four-bit hole above it
 * and never carries into the next kept bit; the kept bits of the integer
 * product are then the carry-less product.  Five classes of bits times
 * five gives 25 multiplications per 64-bit product, three products per
 * block (Karatsuba), and one reduction modulo x^128 + x^7 + x^2 + x + 1 in
 * GCM's bit-reflected representation.
 */
#include "aead/platform.h"
#include "aead/gcm_engines.h"

/* ------------------------------------------------------------------ */
/* Bitsliced AES                                                        */
/* ------------------------------------------------------------------ */

/*
 * SubBytes on eight bit planes, q[0] holding the least significant bit.
 * The circuit of Boyar and Peralta names its inputs U0 (most significant)
 * to U7 and its outputs S0 (most significant) to S7: a linear top layer
 * (t*), a shared non-linear middle (m*, the inversion in GF(2^8)) and a
 * linear bottom layer (l*) that also applies the affine map.
 */
static void sub_bytes(u64 q[8])
{
	u64 u0 = q[7], u1 = q[6], u2 = q[5], u3 = q[4];
	u64 u4 = q[3], u5 = q[2], u6 = q[1], u7 = q[0];
	u64 t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14;
	u64 t15, t16, t17, t18, t19, t20, t21, t22, t23, t24, t25, t26, t27;
	u64 m1, m2, m3, m4, m5, m6, m7, m8, m9, m10, m11, m12, m13, m14;
	u64 m15, m16, m17, m18, m19, m20, m21, m22, m23, m24, m25, m26, m27;
	u64 m28, m29, m30, m31, m32, m33, m34, m35, m36, m37, m38, m39, m40;
	u64 m41, m42, m43, m44, m45, m46, m47, m48, m49, m50, m51, m52, m53;
	u64 m54, m55, m56, m57, m58, m59, m60, m61, m62, m63;
	u64 l0, l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14;
	u64 l15, l16, l17, l18, l19, l20, l21, l22, l23, l24, l25, l26, l27;
	u64 l28, l29;

	t1 = u0 ^ u3;
	t2 = u0 ^ u5;
	t3 = u0 ^ u6;
	t4 = u3 ^ u5;
	t5 = u4 ^ u6;
	t6 = t1 ^ t5;
	t7 = u1 ^ u2;
	t8 = u7 ^ t6;
	t9 = u7 ^ t7;
	t10 = t6 ^ t7;
	t11 = u1 ^ u5;
	t12 = u2 ^ u5;
	t13 = t3 ^ t4;
	t14 = t6 ^ t11;
	t15 = t5 ^ t11;
	t16 = t5 ^ t12;
	t17 = t9 ^ t16;
	t18 = u3 ^ u7;
	t19 = t7 ^ t18;
	t20 = t1 ^ t19;
	t21 = u6 ^ u7;
	t22 = t7 ^ t21;
	t23 = t2 ^ t22;
	t24 = t2 ^ t10;
	t25 = t20 ^ t17;
	t26 = t3 ^ t16;
	t27 = t1 ^ t12;

	m1 = t13 & t6;
	m2 = t23 & t8;
	m3 = t14 ^ m1;
	m4 = t19 & u7;
	m5 = m4 ^ m1;
	m6 = t3 & t16;
	m7 = t22 & t9;
	m8 = t26 ^ m6;
	m9 = t20 & t17;
	m10 = m9 ^ m6;
	m11 = t1 & t15;
	m12 = t4 & t27;
	m13 = m12 ^ m11;
	m14 = t2 & t10;
	m15 = m14 ^ m11;
	m16 = m3 ^ m2;
	m17 = m5 ^ t24;
	m18 = m8 ^ m7;
	m19 = m10 ^ m15;
	m20 = m16 ^ m13;
	m21 = m17 ^ m15;
	m22 = m18 ^ m13;
	m23 = m19 ^ t25;
	m24 = m22 ^ m23;
	m25 = m22 & m20;
	m26 = m21 ^ m25;
	m27 = m20 ^ m21;
	m28 = m23 ^ m25;
	m29 = m28 & m27;
	m30 = m26 & m24;
	m31 = m20 & m23;
	m32 = m27 & m31;
	m33 = m27 ^ m25;
	m34 = m21 & m22;
	m35 = m24 & m34;
	m36 = m24 ^ m25;
	m37 = m21 ^ m29;
	m38 = m32 ^ m33;
	m39 = m23 ^ m30;
	m40 = m35 ^ m36;
	m41 = m38 ^ m40;
	m42 = m37 ^ m39;
	m43 = m37 ^ m38;
	m44 = m39 ^ m40;
	m45 = m42 ^ m41;
	m46 = m44 & t6;
	m47 = m40 & t8;
	m48 = m39 & u7;
	m49 = m43 & t16;
	m50 = m38 & t9;
	m51 = m37 & t17;
	m52 = m42 & t15;
	m53 = m45 & t27;
	m54 = m41 & t10;
	m55 = m44 & t13;
	m56 = m40 & t23;
	m57 = m39 & t19;
	m58 = m43 & t3;
	m59 = m38 & t22;
	m60 = m37 & t20;
	m61 = m42 & t1;
	m62 = m45 & t4;
	m63 = m41 & t2;

	l0 = m61 ^ m62;
	l1 = m50 ^ m56;
	l2 = m46 ^ m48;
	l3 = m47 ^ m55;
	l4 = m54 ^ m58;
	l5 = m49 ^ m61;
	l6 = m62 ^ l5;
	l7 = m46 ^ l3;
	l8 = m51 ^ m59;
	l9 = m52 ^ m53;
	l10 = m53 ^ l4;
	l11 = m60 ^ l2;
	l12 = m48 ^ m51;
	l13 = m50 ^ l0;
	l14 = m52 ^ m61;
	l15 = m55 ^ l1;
	l16 = m56 ^ l0;
	l17 = m57 ^ l1;
	l18 = m58 ^ l8;
	l19 = m63 ^ l4;
	l20 = l0 ^ l1;
	l21 = l1 ^ l7;
	l22 = l3 ^ l12;
	l23 = l18 ^ l2;
	l24 = l15 ^ l9;
	l25 = l6 ^ l10;
	l26 = l7 ^ l9;
	l27 = l8 ^ l10;
	l28 = l11 ^ l14;
	l29 = l11 ^ l17;

	q[7] = l6 ^ l24;
	q[6] = ~(l16 ^ l26);
	q[5] = ~(l19 ^ l28);
	q[4] = l6 ^ l21;
	q[3] = l20 ^ l22;
	q[2] = l25 ^ l29;
	q[1] = ~(l13 ^ l27);
	q[0] = ~(l6 ^ l23);
}

/*
 * ShiftRows: row r (the 16-bit lane at bit 16 * r) turns left by r
 * columns, i.e. its nibbles move down by r places, wrapping.  Done in two
 * steps: rows 1 and 3 move by one nibble, then rows 2 and 3 by two.
 */
static __always_inline u64 shift_rows_plane(u64 x)
{
	x = (x & 0x0000ffff0000ffffULL) |
	    ((x >> 4) & 0x0fff00000fff0000ULL) |
	    ((x << 12) & 0xf0000000f0000000ULL);
	return (x & 0x00000000ffffffffULL) |
	       ((x >> 8) & 0x00ff00ff00000000ULL) |
	       ((x << 8) & 0xff00ff0000000000ULL);
}

static __always_inline u64 rotr_plane(u64 x, unsigned int n)
{
	return (x >> n) | (x << (64 - n));
}

/*
 * MixColumns: out[r] = 2 a[r] + 3 a[r+1] + a[r+2] + a[r+3]
 *                    = 2 (a[r] + a[r+1]) + a[r+1] + (a[r+2] + a[r+3]).
 * Rotating a plane right by 16 brings row r + 1 to row r, so with
 * t = a + rot16(a): out = 2 t + rot16(a) + rot32(t), doubling in GF(2^8)
 * being a shift across planes with the reduction 0x1b folded in.
 */
static void mix_columns(u64 q[8])
{
	u64 r[8], t[8];
	int i;

	for (i = 0; i < 8; i++) {
		r[i] = rotr_plane(q[i], 16);
		t[i] = q[i] ^ r[i];
	}
	q[0] = t[7] ^ r[0] ^ rotr_plane(t[0], 32);
	q[1] = t[0] ^ t[7] ^ r[1] ^ rotr_plane(t[1], 32);
	q[2] = t[1] ^ r[2] ^ rotr_plane(t[2], 32);
	q[3] = t[2] ^ t[7] ^ r[3] ^ rotr_plane(t[3], 32);
	q[4] = t[3] ^ t[7] ^ r[4] ^ rotr_plane(t[4], 32);
	q[5] = t[4] ^ r[5] ^ rotr_plane(t[5], 32);
	q[6] = t[5] ^ r[6] ^ rotr_plane(t[6], 32);
	q[7] = t[6] ^ r[7] ^ rotr_plane(t[7], 32);
}

/* Transpose the 8 x 8 bit matrix whose rows are the bytes of @x. */
static __always_inline u64 transpose_bits8(u64 x)
{
	u64 t;

	t = (x ^ (x >> 7)) & 0x00aa00aa00aa00aaULL;
	x ^= t ^ (t << 7);
	t = (x ^ (x >> 14)) & 0x0000cccc0000ccccULL;
	x ^= t ^ (t << 14);
	t = (x ^ (x >> 28)) & 0x00000000f0f0f0f0ULL;
	x ^= t ^ (t << 28);
	return x;
}

static __always_inline void swap_bytes_step(u64 *a, u64 *b, unsigned int s,
					    u64 m)
{
	u64 t = ((*a >> s) ^ *b) & m;

	*b ^= t;
	*a ^= t << s;
}

/* Transpose the 8 x 8 byte matrix: byte k of w[b] <-> byte b of w[k]. */
static void transpose_bytes8(u64 w[8])
{
	int i;

	for (i = 0; i < 8; i += 2)
		swap_bytes_step(&w[i], &w[i + 1], 8, 0x00ff00ff00ff00ffULL);
	for (i = 0; i < 8; i++)
		if (!(i & 2))
			swap_bytes_step(&w[i], &w[i + 2], 16,
					0x0000ffff0000ffffULL);
	for (i = 0; i < 4; i++)
		swap_bytes_step(&w[i], &w[i + 4], 32, 0x00000000ffffffffULL);
}

/*
 * Swap bits 0-1 of the bit index with bits 4-5: moves the bit at
 * 16 * a + 4 * c + b to 16 * b + 4 * c + a (a, b, c < 4).
 */
static __always_inline u64 swap_index_fields(u64 x)
{
	u64 t;

	t = ((x >> 15) ^ x) & 0x0000aaaa0000aaaaULL;
	x ^= t ^ (t << 15);
	t = ((x >> 30) ^ x) & 0x00000000ccccccccULL;
	x ^= t ^ (t << 30);
	return x;
}

/*
 * Four blocks (64 bytes) to bit planes.  Read as eight little-endian
 * words, the input is a 64 x 8 bit matrix; transposing the bits of each
 * word and then the bytes across words leaves bit b of input byte i at bit
 * i of plane b, i.e. at 16 * block + 4 * col + row.  Swapping the block
 * and row fields of the index gives the layout described at the top.
 */
static void load_planes(u64 q[8], const u8 in[64])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] = transpose_bits8(get_unaligned_le64(in + 8 * i));
	transpose_bytes8(q);
	for (i = 0; i < 8; i++)
		q[i] = swap_index_fields(q[i]);
}

/* Bit planes back to four blocks; @q is clobbered. */
static void store_planes(u8 out[64], u64 q[8])
{
	int i;

	for (i = 0; i < 8; i++)
		q[i] = swap_index_fields(q[i]);
	transpose_bytes8(q);
	for (i = 0; i < 8; i++)
		put_unaligned_le64(transpose_bits8(q[i]), out + 8 * i);
}

/*
 * Bitsliced round keys, packed.  In a plane of a round key repeated for
 * the four blocks, each nibble (one byte position, four blocks) is 0 or
 * 0xf, so the key bit alone at the bottom of the nibble says it all, and
 * multiplying by 0xf restores the nibble.  Four planes share one word:
 * plane b at bit b & 3 of the nibbles of w[r][b >> 2].  This keeps the
 * schedule at 16 bytes a round (small kernel stack frames) for three
 * operations per plane and round.
 */
#define NIBBLE_LOW	0x1111111111111111ULL

/*
 * Round keys r .. r + 3 go through load_planes() together, as if they
 * were four blocks: block j's bit at the bottom of each nibble is then
 * round key r + j's.
 */
void tlsx_aes_planes_setkey(struct tlsx_aes_planes *pk, const u8 *rk,
			    u32 rounds)
{
	u8 four[64];
	u64 q[8];
	u32 r, n = rounds + 1;
	int b, j;

	pk->rounds = rounds;
	for (r = 0; r < n; r += 4) {
		__builtin_memset(four, 0, sizeof(four));
		__builtin_memcpy(four, rk + 16 * r,
				 16 * (n - r < 4 ? n - r : 4));
		load_planes(q, four);
		for (j = 0; j < 4 && r + j < n; j++) {
			pk->w[r + j][0] = 0;
			pk->w[r + j][1] = 0;
			for (b = 0; b < 8; b++)
				pk->w[r + j][b >> 2] |=
					((q[b] >> j) & NIBBLE_LOW) << (b & 3);
		}
	}
	memzero_explicit(four, sizeof(four));
	memzero_explicit(q, sizeof(q));
}

static __always_inline void add_round_key(u64 q[8], const u64 w[2])
{
	int b;

	for (b = 0; b < 8; b++)
		q[b] ^= ((w[b >> 2] >> (b & 3)) & NIBBLE_LOW) * 0xf;
}

static void aes_planes_encrypt(const struct tlsx_aes_planes *pk, u64 q[8])
{
	u32 r;
	int i;

	add_round_key(q, pk->w[0]);
	for (r = 1; r < pk->rounds; r++) {
		sub_bytes(q);
		for (i = 0; i < 8; i++)
			q[i] = shift_rows_plane(q[i]);
		mix_columns(q);
		add_round_key(q, pk->w[r]);
	}
	sub_bytes(q);
	for (i = 0; i < 8; i++)
		q[i] = shift_rows_plane(q[i]);
	add_round_key(q, pk->w[pk->rounds]);
}

void tlsx_aes_encrypt4(const struct tlsx_aes_planes *pk, const u8 in[64],
		       u8 out[64])
{
	u64 q[8];

	load_planes(q, in);
	aes_planes_encrypt(pk, q);
	store_planes(out, q);
	memzero_explicit(q, sizeof(q));
}

void tlsx_aes_encrypt_block(const struct tlsx_gcm_key *k, const u8 in[16],
			    u8 out[16])
{
	struct tlsx_aes_planes pk;
	u8 buf[64] = { 0 };

	tlsx_aes_planes_setkey(&pk, k->rk, k->rounds);
	__builtin_memcpy(buf, in, 16);
	tlsx_aes_encrypt4(&pk, buf, buf);
	__builtin_memcpy(out, buf, 16);
	memzero_explicit(buf, sizeof(buf));
	memzero_explicit(&pk, sizeof(pk));
}

/* SubWord of the key schedule, through the same circuit. */
static u32 sub_word(u32 w)
{
	u64 q[8];
	u32 r = 0;
	int b, i;

	for (b = 0; b < 8; b++) {
		q[b] = 0;
		for (i = 0; i < 4; i++)
			q[b] |= (u64)((w >> (8 * i + b)) & 1) << i;
	}
	sub_bytes(q);
	for (b = 0; b < 8; b++)
		for (i = 0; i < 4; i++)
			r |= (u32)((q[b] >> i) & 1) << (8 * i + b);
	memzero_explicit(q, sizeof(q));
	return r;
}

u32 tlsx_aes_expand_key(u8 rk[15 * 16], const u8 *key, size_t key_len)
{
	unsigned int nk = key_len / 4, rounds = nk + 6;
	unsigned int n = 4 * (rounds + 1), i;
	u32 w[4 * (TLSX_AES_MAX_ROUNDS + 1)];
	u8 rcon = 1;

	/* Words as little-endian loads: byte 0 of the word is the low byte. */
	for (i = 0; i < nk; i++)
		w[i] = get_unaligned_le32(key + 4 * i);
	for (i = nk; i < n; i++) {
		u32 t = w[i - 1];

		if (i % nk == 0) {
			/* RotWord is a rotation right in this byte order. */
			t = sub_word((t >> 8) | (t << 24)) ^ rcon;
			rcon = (u8)((rcon << 1) ^ (0x1b & -(rcon >> 7)));
		} else if (nk > 6 && i % nk == 4) {
			t = sub_word(t);
		}
		w[i] = w[i - nk] ^ t;
	}
	for (i = 0; i < n; i++)
		put_unaligned_le32(w[i], rk + 4 * i);
	memzero_explicit(w, sizeof(w));
	return rounds;
}

/* ------------------------------------------------------------------ */
/* GHASH                                                                */
/* ------------------------------------------------------------------ */

/* Bits 0, 5, 10, ..., 60: the kept bits of the first class. */
#define CLASS0	0x1084210842108421ULL

/* An operand of clmul64() split into its five classes of bits. */
struct clmul_operand {
	u64 c[5];
};

static __always_inline void clmul_split(struct clmul_operand *o, u64 y)
{
	int i;

	for (i = 0; i < 5; i++)
		o->c[i] = y & (CLASS0 << i);
}

#define MUL(a, b)	((__uint128_t)(a) * (b))

/*
 * Carry-less 64 x 64 -> 128-bit product of @x and @y.  Bit p of an
 * integer product x_i * y_j has class (i + j) mod 5 when both operands
 * are restricted to one class; bit 64 + p of the result has class
 * (p + 4) mod 5, hence the shifted masks for the high half.
 */
static void clmul64(u64 x, const struct clmul_operand *y, u64 *hi, u64 *lo)
{
	u64 x0 = x & CLASS0, x1 = x & (CLASS0 << 1), x2 = x & (CLASS0 << 2);
	u64 x3 = x & (CLASS0 << 3), x4 = x & (CLASS0 << 4);
	const u64 *c = y->c;
	__uint128_t z0, z1, z2, z3, z4;

	z0 = MUL(x0, c[0]) ^ MUL(x1, c[4]) ^ MUL(x2, c[3]) ^ MUL(x3, c[2]) ^
	     MUL(x4, c[1]);
	z1 = MUL(x0, c[1]) ^ MUL(x1, c[0]) ^ MUL(x2, c[4]) ^ MUL(x3, c[3]) ^
	     MUL(x4, c[2]);
	z2 = MUL(x0, c[2]) ^ MUL(x1, c[1]) ^ MUL(x2, c[0]) ^ MUL(x3, c[4]) ^
	     MUL(x4, c[3]);
	z3 = MUL(x0, c[3]) ^ MUL(x1, c[2]) ^ MUL(x2, c[1]) ^ MUL(x3, c[0]) ^
	     MUL(x4, c[4]);
	z4 = MUL(x0, c[4]) ^ MUL(x1, c[3]) ^ MUL(x2, c[2]) ^ MUL(x3, c[1]) ^
	     MUL(x4, c[0]);

	*lo = ((u64)z0 & CLASS0) | ((u64)z1 & (CLASS0 << 1)) |
	      ((u64)z2 & (CLASS0 << 2)) | ((u64)z3 & (CLASS0 << 3)) |
	      ((u64)z4 & (CLASS0 << 4));
	*hi = ((u64)(z0 >> 64) & (CLASS0 << 1)) |
	      ((u64)(z1 >> 64) & (CLASS0 << 2)) |
	      ((u64)(z2 >> 64) & (CLASS0 << 3)) |
	      ((u64)(z3 >> 64) & (CLASS0 << 4)) |
	      ((u64)(z4 >> 64) & CLASS0);
}

/* H split for the three Karatsuba products. */
struct ghash_key {
	struct clmul_operand h1, h0, hx;
};

static void ghash_setkey(struct ghash_key *gk, const u8 h[16])
{
	u64 h1 = get_unaligned_be64(h), h0 = get_unaligned_be64(h + 8);

	clmul_split(&gk->h1, h1);
	clmul_split(&gk->h0, h0);
	clmul_split(&gk->hx, h1 ^ h0);
}

/*
 * A GF(2^128) element is held as a 128-bit big-endian number y1:y0, so
 * the coefficient of x^0 is the top bit of y1 (GCM's reflected order).
 * The carry-less product of two such numbers then has the coefficient of
 * x^k at bit 254 - k; a shift left by one gives a 256-bit number whose
 * upper half is the low-degree part.  The lower half L holds degrees 128
 * to 255 and x^128 = 1 + x + x^2 + x^7, where multiplying by x is a shift
 * right: L * (1 + x + x^2 + x^7) is L ^ L >> 1 ^ L >> 2 ^ L >> 7, and the
 * bits that these shifts push out (degree 128 and up again) are folded
 * into the top word of L first.
 */
static void ghash_mul(u64 *y1, u64 *y0, const struct ghash_key *gk)
{
	u64 a1 = *y1, a0 = *y0;
	u64 p3, p2, p1, p0, m1, m0, t1, t0;

	clmul64(a1, &gk->h1, &p3, &p2);
	clmul64(a0, &gk->h0, &p1, &p0);
	clmul64(a1 ^ a0, &gk->hx, &m1, &m0);
	m1 ^= p3 ^ p1;
	m0 ^= p2 ^ p0;
	p2 ^= m1;
	p1 ^= m0;

	p3 = (p3 << 1) | (p2 >> 63);
	p2 = (p2 << 1) | (p1 >> 63);
	p1 = (p1 << 1) | (p0 >> 63);
	p0 <<= 1;

	p1 ^= (p0 << 63) ^ (p0 << 62) ^ (p0 << 57);
	t1 = p1 ^ (p1 >> 1) ^ (p1 >> 2) ^ (p1 >> 7);
	t0 = p0 ^ (p0 >> 1) ^ (p0 >> 2) ^ (p0 >> 7) ^
	     (p1 << 63) ^ (p1 << 62) ^ (p1 << 57);
	*y1 = p3 ^ t1;
	*y0 = p2 ^ t0;
}

/* Absorb @len bytes, the last partial block padded with zeroes. */
static void ghash_update(u64 *y1, u64 *y0, const struct ghash_key *gk,
			 const u8 *p, size_t len)
{
	while (len >= 16) {
		*y1 ^= get_unaligned_be64(p);
		*y0 ^= get_unaligned_be64(p + 8);
		ghash_mul(y1, y0, gk);
		p += 16;
		len -= 16;
	}
	if (len) {
		u8 last[16] = { 0 };

		__builtin_memcpy(last, p, len);
		*y1 ^= get_unaligned_be64(last);
		*y0 ^= get_unaligned_be64(last + 8);
		ghash_mul(y1, y0, gk);
	}
}

/* ------------------------------------------------------------------ */
/* The engine                                                           */
/* ------------------------------------------------------------------ */

static void gcm_generic_init(union tlsx_aead_state *st,
			     const struct tlsx_aead_key *k, const u8 *nonce,
			     const u8 *ad, size_t ad_len, size_t len)
{
	struct tlsx_gcm_state *s = &st->gcm;
	struct ghash_key gk;
	u64 y1 = 0, y0 = 0;

	(void)len;	/* GCM needs no length up front */
	__builtin_memcpy(s->j0, nonce, 12);
	put_unaligned_be32(1, s->j0 + 12);
	s->ctr = 2;
	s->ad_len = ad_len;
	s->text_len = 0;
	if (ad_len) {
		ghash_setkey(&gk, k->u.gcm.h);
		ghash_update(&y1, &y0, &gk, ad, ad_len);
		memzero_explicit(&gk, sizeof(gk));
	}
	put_unaligned_be64(y1, s->acc);
	put_unaligned_be64(y0, s->acc + 8);
}

/*
 * Counter mode four blocks at a time; GHASH of the ciphertext, which is
 * @src when decrypting and @dst when encrypting (read back before the next
 * chunk can overwrite anything, since src and dst are equal or disjoint).
 */
static void gcm_generic_crypt(struct tlsx_gcm_state *s,
			      const struct tlsx_gcm_key *k, const u8 *src,
			      u8 *dst, size_t len, bool encrypt)
{
	struct tlsx_aes_planes pk;
	struct ghash_key gk;
	u8 ks[64];
	u64 y1 = get_unaligned_be64(s->acc), y0 = get_unaligned_be64(s->acc + 8);
	u32 ctr = s->ctr;
	size_t n, i;
	int j;

	if (!len)
		return;
	tlsx_aes_planes_setkey(&pk, k->rk, k->rounds);
	ghash_setkey(&gk, k->h);
	s->text_len += len;

	while (len) {
		n = len < 64 ? len : 64;
		for (j = 0; j < 4; j++) {
			__builtin_memcpy(ks + 16 * j, s->j0, 12);
			put_unaligned_be32(ctr + j, ks + 16 * j + 12);
		}
		ctr += (u32)((n + 15) / 16);
		tlsx_aes_encrypt4(&pk, ks, ks);
		if (!encrypt)
			ghash_update(&y1, &y0, &gk, src, n);
		for (i = 0; i < n; i++)
			dst[i] = src[i] ^ ks[i];
		if (encrypt)
			ghash_update(&y1, &y0, &gk, dst, n);
		src += n;
		dst += n;
		len -= n;
	}

	s->ctr = ctr;
	put_unaligned_be64(y1, s->acc);
	put_unaligned_be64(y0, s->acc + 8);
	memzero_explicit(ks, sizeof(ks));
	memzero_explicit(&gk, sizeof(gk));
	memzero_explicit(&pk, sizeof(pk));
}

static void gcm_generic_encrypt(union tlsx_aead_state *st,
				const struct tlsx_aead_key *k,
				const u8 *src, u8 *dst, size_t len)
{
	gcm_generic_crypt(&st->gcm, &k->u.gcm, src, dst, len, true);
}

static void gcm_generic_decrypt(union tlsx_aead_state *st,
				const struct tlsx_aead_key *k,
				const u8 *src, u8 *dst, size_t len)
{
	gcm_generic_crypt(&st->gcm, &k->u.gcm, src, dst, len, false);
}

static void gcm_generic_final(union tlsx_aead_state *st,
			      const struct tlsx_aead_key *k, u8 *tag)
{
	struct tlsx_gcm_state *s = &st->gcm;
	struct ghash_key gk;
	u8 lens[16], ej0[16];
	u64 y1 = get_unaligned_be64(s->acc), y0 = get_unaligned_be64(s->acc + 8);
	int i;

	put_unaligned_be64(s->ad_len * 8, lens);
	put_unaligned_be64(s->text_len * 8, lens + 8);
	ghash_setkey(&gk, k->u.gcm.h);
	ghash_update(&y1, &y0, &gk, lens, 16);
	tlsx_aes_encrypt_block(&k->u.gcm, s->j0, ej0);
	put_unaligned_be64(y1, lens);
	put_unaligned_be64(y0, lens + 8);
	for (i = 0; i < 16; i++)
		tag[i] = lens[i] ^ ej0[i];
	memzero_explicit(lens, sizeof(lens));
	memzero_explicit(ej0, sizeof(ej0));
	memzero_explicit(&gk, sizeof(gk));
}

const struct tlsx_aead_ops tlsx_gcm_generic_ops = {
	.name = "gcm-generic",
	.init = gcm_generic_init,
	.encrypt = gcm_generic_encrypt,
	.decrypt = gcm_generic_decrypt,
	.final = gcm_generic_final,
	/* the bitsliced AES and GHASH state: 1104 / 1200 bytes down */
	.stack_wipe = 1408,
	.stack_wipe_sg = 1536,
};
