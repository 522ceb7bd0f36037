// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_poly.c - ML-KEM's polynomial encodings, compression and
 * sampling (FIPS 203 4.1-4.2); mlkem_poly.h has the contract.  Every
 * function that can see a secret coefficient is branch-free and
 * index-free in it; SampleNTT sees only the public matrix seed.
 */
#include "hash/sha3.h"
#include "mlkem/mlkem_poly.h"

void mlkem_poly_add(struct mlkem_poly *r, const struct mlkem_poly *a)
{
	int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = (int16_t)(r->c[i] + a->c[i]);
}

void mlkem_poly_sub(struct mlkem_poly *r, const struct mlkem_poly *a)
{
	int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = (int16_t)(r->c[i] - a->c[i]);
}

void mlkem_poly_canon(struct mlkem_poly *r)
{
	int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = mlkem_to_unsigned(mlkem_barrett_reduce(r->c[i]));
}

void mlkem_poly_tomont(struct mlkem_poly *r)
{
	int i;

	for (i = 0; i < MLKEM_N; i++)
		r->c[i] = mlkem_fqmul(r->c[i], MLKEM_MONT2);
}

void mlkem_poly_encode12(u8 out[MLKEM_POLY_BYTES], const struct mlkem_poly *a)
{
	int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		uint16_t t0 = (uint16_t)a->c[2 * i];
		uint16_t t1 = (uint16_t)a->c[2 * i + 1];

		out[3 * i] = (u8)t0;
		out[3 * i + 1] = (u8)((t0 >> 8) | (t1 << 4));
		out[3 * i + 2] = (u8)(t1 >> 4);
	}
}

void mlkem_poly_decode12(struct mlkem_poly *r, const u8 in[MLKEM_POLY_BYTES])
{
	int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		const u8 *b = in + 3 * i;

		r->c[2 * i] = (int16_t)((b[0] | (b[1] << 8)) & 0xfff);
		r->c[2 * i + 1] = (int16_t)(((b[1] >> 4) | (b[2] << 4)) &
					    0xfff);
	}
}

bool mlkem_poly_encoding_reduced(const u8 in[MLKEM_POLY_BYTES])
{
	struct mlkem_poly p;
	int16_t bad = 0;
	int i;

	/* public input: no need for constant time, but no branch is faster */
	mlkem_engine()->decode12(&p, in);
	for (i = 0; i < MLKEM_N; i++)
		bad |= (int16_t)(MLKEM_Q - 1 - p.c[i]);
	return bad >= 0;
}

/*
 * Compress_d(x) = round(2^d x / q) mod 2^d (4.2.1): floor((2^d x +
 * q/2) / q), the division as a multiplication by ceil(2^35 / q), exact
 * for every numerator below 2^35 / (ceil(2^35/q) q - 2^35) = 13.7e6
 * (the largest here, d = 11, is 6.8e6; test_mlkem checks them all).
 */
#define MLKEM_DIVQ_MUL	10321340ULL
#define MLKEM_DIVQ_SHIFT	35

uint16_t mlkem_compress(uint16_t x, unsigned int d)
{
	u32 n = ((u32)x << d) + MLKEM_Q / 2;

	return (uint16_t)(((n * MLKEM_DIVQ_MUL) >> MLKEM_DIVQ_SHIFT) &
			  ((1u << d) - 1));
}

/* Decompress_d(y) = round(q y / 2^d). */
uint16_t mlkem_decompress(uint16_t y, unsigned int d)
{
	return (uint16_t)(((u32)y * MLKEM_Q + (1u << (d - 1))) >> d);
}

void mlkem_poly_compress_du(u8 out[MLKEM_POLY_DU_BYTES],
			    const struct mlkem_poly *a)
{
	uint16_t t[4];
	int i, j;

	/* Four 10-bit values in five bytes, least significant bit first. */
	for (i = 0; i < MLKEM_N / 4; i++) {
		for (j = 0; j < 4; j++)
			t[j] = mlkem_compress((uint16_t)a->c[4 * i + j],
					      MLKEM_DU);
		out[0] = (u8)t[0];
		out[1] = (u8)((t[0] >> 8) | (t[1] << 2));
		out[2] = (u8)((t[1] >> 6) | (t[2] << 4));
		out[3] = (u8)((t[2] >> 4) | (t[3] << 6));
		out[4] = (u8)(t[3] >> 2);
		out += 5;
	}
}

void mlkem_poly_decompress_du(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_DU_BYTES])
{
	uint16_t t[4];
	int i, j;

	for (i = 0; i < MLKEM_N / 4; i++) {
		const u8 *b = in + 5 * i;

		t[0] = (b[0] | (b[1] << 8)) & 0x3ff;
		t[1] = ((b[1] >> 2) | (b[2] << 6)) & 0x3ff;
		t[2] = ((b[2] >> 4) | (b[3] << 4)) & 0x3ff;
		t[3] = ((b[3] >> 6) | (b[4] << 2)) & 0x3ff;
		for (j = 0; j < 4; j++)
			r->c[4 * i + j] = (int16_t)mlkem_decompress(t[j],
								    MLKEM_DU);
	}
}

void mlkem_poly_compress_dv(u8 out[MLKEM_POLY_DV_BYTES],
			    const struct mlkem_poly *a)
{
	int i;

	for (i = 0; i < MLKEM_N / 2; i++)
		out[i] = (u8)(mlkem_compress((uint16_t)a->c[2 * i], MLKEM_DV) |
			      (mlkem_compress((uint16_t)a->c[2 * i + 1],
					      MLKEM_DV) << 4));
}

void mlkem_poly_decompress_dv(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_DV_BYTES])
{
	int i;

	for (i = 0; i < MLKEM_N / 2; i++) {
		r->c[2 * i] = (int16_t)mlkem_decompress(in[i] & 15, MLKEM_DV);
		r->c[2 * i + 1] = (int16_t)mlkem_decompress(in[i] >> 4,
							    MLKEM_DV);
	}
}

void mlkem_poly_from_msg(struct mlkem_poly *r, const u8 m[MLKEM_SYM_BYTES])
{
	int i, j;

	/* Decompress_1(b) = b * (q + 1) / 2, as a mask, not a branch. */
	for (i = 0; i < MLKEM_SYM_BYTES; i++)
		for (j = 0; j < 8; j++) {
			int16_t mask = (int16_t)-((m[i] >> j) & 1);

			r->c[8 * i + j] = mask & ((MLKEM_Q + 1) / 2);
		}
}

void mlkem_poly_to_msg(u8 m[MLKEM_SYM_BYTES], const struct mlkem_poly *a)
{
	int i, j;

	for (i = 0; i < MLKEM_SYM_BYTES; i++) {
		m[i] = 0;
		for (j = 0; j < 8; j++)
			m[i] |= (u8)(mlkem_compress((uint16_t)a->c[8 * i + j],
						    1) << j);
	}
}

/*
 * Algorithm 7: three bytes give two 12-bit candidates, each kept when
 * below q.  Three SHAKE128 blocks (504 bytes) hold 256 in all but 2^-38
 * of matrix seeds; more blocks are drawn as needed (the CCTV "unlucky"
 * vectors need more than 575 bytes).  The seed is public.
 */
#define MLKEM_XOF_FIRST_BLOCKS	3

/* Candidates from @buf[0..@len) into @r from @n on: the new count. */
int mlkem_rej_take_generic(int16_t *r, int n, const u8 *buf, size_t len)
{
	size_t pos;

	for (pos = 0; n < MLKEM_N && pos + 3 <= len; pos += 3) {
		uint16_t d1 = buf[pos] | ((buf[pos + 1] & 15) << 8);
		uint16_t d2 = (buf[pos + 1] >> 4) | (buf[pos + 2] << 4);

		if (d1 < MLKEM_Q)
			r[n++] = (int16_t)d1;
		if (d2 < MLKEM_Q && n < MLKEM_N)
			r[n++] = (int16_t)d2;
	}
	return n;
}

size_t mlkem_sample_ntt(struct mlkem_poly *r, const u8 rho[MLKEM_SYM_BYTES],
			u8 j, u8 i)
{
	const struct mlkem_engine *e = mlkem_engine();
	u8 seed[MLKEM_SYM_BYTES + 2];
	u8 buf[MLKEM_XOF_FIRST_BLOCKS * SHAKE128_RATE + MLKEM_REJ_SLACK];
	size_t len = MLKEM_XOF_FIRST_BLOCKS * SHAKE128_RATE, used = len;
	struct tlsx_keccak xof;
	int n;

	memcpy(seed, rho, MLKEM_SYM_BYTES);
	seed[MLKEM_SYM_BYTES] = j;
	seed[MLKEM_SYM_BYTES + 1] = i;
	tlsx_shake128_init(&xof);
	tlsx_keccak_absorb(&xof, seed, sizeof(seed));
	tlsx_shake_squeeze_blocks(&xof, buf, MLKEM_XOF_FIRST_BLOCKS);
	/* SHAKE128's rate is a multiple of 3: no bytes carry over. */
	memset(buf + len, 0, MLKEM_REJ_SLACK);
	n = e->rej_take(r->c, 0, buf, len);
	while (n < MLKEM_N) {
		tlsx_shake_squeeze_blocks(&xof, buf, 1);
		n = e->rej_take(r->c, n, buf, SHAKE128_RATE);
		used += SHAKE128_RATE;
	}
	tlsx_keccak_wipe(&xof);
	return used;
}

/*
 * Algorithm 8 for eta = 2 on PRF_2(s, b) = SHAKE256(s || b, 128): each
 * coefficient is (b0 + b1) - (b2 + b3) of four consecutive bits; the
 * pair sums are taken for eight coefficients at once in a 32-bit word.
 */
void mlkem_cbd2_generic(struct mlkem_poly *r, const u8 buf[64 * MLKEM_ETA1])
{
	int i, j;

	for (i = 0; i < MLKEM_N / 8; i++) {
		u32 t = get_unaligned_le32(buf + 4 * i);
		u32 d = (t & 0x55555555) + ((t >> 1) & 0x55555555);

		for (j = 0; j < 8; j++) {
			int16_t x = (int16_t)((d >> (4 * j)) & 3);
			int16_t y = (int16_t)((d >> (4 * j + 2)) & 3);

			r->c[8 * i + j] = (int16_t)(x - y);
		}
	}
}

void mlkem_sample_cbd2(struct mlkem_poly *r, const u8 s[MLKEM_SYM_BYTES],
		       u8 b)
{
	u8 in[MLKEM_SYM_BYTES + 1], buf[64 * MLKEM_ETA1];

	memcpy(in, s, MLKEM_SYM_BYTES);
	in[MLKEM_SYM_BYTES] = b;
	tlsx_shake256(in, sizeof(in), buf, sizeof(buf));
	mlkem_engine()->cbd2(r, buf);
	memzero_explicit(in, sizeof(in));
	memzero_explicit(buf, sizeof(buf));
}
