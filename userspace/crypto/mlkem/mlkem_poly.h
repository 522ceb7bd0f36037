/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlkem_poly.h - ML-KEM's polynomials in R_q (FIPS 203 2.4, 4.2-4.3):
 * the modular reductions, the NTT engines (generic C, AVX2) behind one
 * operation table, and the encodings, compression and sampling.
 * Internal to mlkem/ and its tests.
 *
 * Coefficients are int16_t.  Products go through Montgomery reduction
 * (R = 2^16): the NTT's twiddles are stored times R, so NTT() and
 * NTT^-1() are FIPS 203's algorithms 9 and 10 exactly, while a
 * basecase multiplication (algorithm 11) leaves a factor R^-1 that the
 * callers fold in (poly_tomont(), or NTT^-1's final constant).
 */
#ifndef TLSX_MLKEM_POLY_H
#define TLSX_MLKEM_POLY_H

#include "aead/platform.h"
#include "mlkem/mlkem_params.h"

struct mlkem_poly {
	int16_t c[MLKEM_N];
} __aligned(32);

struct mlkem_polyvec {
	struct mlkem_poly p[MLKEM_K];
};

/* q^-1 mod 2^16, as a signed 16-bit value. */
#define MLKEM_QINV	(-3327)
/* R^2 mod q: poly_tomont() multiplies by R through Montgomery. */
#define MLKEM_MONT2	1353

/* a * R^-1 mod q, in (-q, q), for |a| < q * 2^15. */
static inline int16_t mlkem_mont_reduce(int32_t a)
{
	int16_t t = (int16_t)((int16_t)a * MLKEM_QINV);

	return (int16_t)((a - (int32_t)t * MLKEM_Q) >> 16);
}

/* The representative of a mod q in [-(q-1)/2, (q-1)/2]. */
static inline int16_t mlkem_barrett_reduce(int16_t a)
{
	const int32_t v = ((1 << 26) + MLKEM_Q / 2) / MLKEM_Q;
	int16_t t = (int16_t)((v * a + (1 << 25)) >> 26);

	return (int16_t)(a - t * MLKEM_Q);
}

static inline int16_t mlkem_fqmul(int16_t a, int16_t b)
{
	return mlkem_mont_reduce((int32_t)a * b);
}

/* a in (-q, q) to [0, q), without a branch. */
static inline int16_t mlkem_to_unsigned(int16_t a)
{
	return (int16_t)(a + ((a >> 15) & MLKEM_Q));
}

/*
 * The NTT engine: the only code with a vector variant.
 *  ntt:	NTT(f) in place; input |c| < q, output |c| < q, in the
 *		bit-reversed pair order algorithm 11 multiplies in.
 *  invntt:	NTT^-1 times R in place (so that it undoes the R^-1 of
 *		a basecase product); input |c| < q, output |c| < q.
 *  basemul_acc: r = sum over i < MLKEM_K of a[i] o b[i] (algorithm 11)
 *		times R^-1, |c| < q; inputs |c| < q (one side < 2^12).
 *  x4:		the matrix and noise are sampled four polynomials at a
 *		time (mlkem_sample_*_x4()).
 */
struct mlkem_engine {
	const char *name;
	bool x4;	/* SHAKE four at a time (hash/sha3_x4_avx2.c) */
	void (*ntt)(int16_t r[MLKEM_N]);
	void (*invntt)(int16_t r[MLKEM_N]);
	void (*basemul_acc)(struct mlkem_poly *r,
			    const struct mlkem_poly *a,
			    const struct mlkem_poly *b);
};

extern const struct mlkem_engine mlkem_engine_generic;
extern const struct mlkem_engine mlkem_engine_avx2;

/* The engine this CPU runs (mlkem_impl.c). */
const struct mlkem_engine *mlkem_engine(void);
/* Tests: force "generic" or "avx2"; -ENOTSUP if this CPU cannot. */
int mlkem_engine_force(const char *name);
bool mlkem_avx2_usable(void);

/* The NTT's twiddles: zeta^BitRev7(i) * R mod q, centered (4.3). */
extern const int16_t mlkem_zetas[128];

/* --- mlkem_poly.c ----------------------------------------------------- */

void mlkem_poly_add(struct mlkem_poly *r, const struct mlkem_poly *a);
void mlkem_poly_sub(struct mlkem_poly *r, const struct mlkem_poly *a);
/* Barrett-reduce every coefficient, then to [0, q). */
void mlkem_poly_canon(struct mlkem_poly *r);
void mlkem_poly_tomont(struct mlkem_poly *r);

/* ByteEncode12 / ByteDecode12 (algorithms 5, 6); encode wants [0, q). */
void mlkem_poly_encode12(u8 out[MLKEM_POLY_BYTES],
			 const struct mlkem_poly *a);
void mlkem_poly_decode12(struct mlkem_poly *r,
			 const u8 in[MLKEM_POLY_BYTES]);
/* Whether all 256 12-bit values in @in are below q (7.2). */
bool mlkem_poly_encoding_reduced(const u8 in[MLKEM_POLY_BYTES]);

/* ByteEncode_d(Compress_d(a)) and Decompress_d(ByteDecode_d), 4.2.1. */
void mlkem_poly_compress_du(u8 out[MLKEM_POLY_DU_BYTES],
			    const struct mlkem_poly *a);
void mlkem_poly_decompress_du(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_DU_BYTES]);
void mlkem_poly_compress_dv(u8 out[MLKEM_POLY_DV_BYTES],
			    const struct mlkem_poly *a);
void mlkem_poly_decompress_dv(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_DV_BYTES]);
/* The message: Decompress_1(ByteDecode_1(m)), ByteEncode_1(Compress_1). */
void mlkem_poly_from_msg(struct mlkem_poly *r, const u8 m[MLKEM_SYM_BYTES]);
void mlkem_poly_to_msg(u8 m[MLKEM_SYM_BYTES], const struct mlkem_poly *a);

/* Compress_d of one coefficient in [0, q), and its inverse (exposed to
 * the tests, which check them against the definition's rounding).
 */
uint16_t mlkem_compress(uint16_t x, unsigned int d);
uint16_t mlkem_decompress(uint16_t y, unsigned int d);

/*
 * SampleNTT (algorithm 7) from SHAKE128(rho || j || i); returns how many
 * XOF bytes it read (the tests' unlucky vectors check > 575).
 */
size_t mlkem_sample_ntt(struct mlkem_poly *r, const u8 rho[MLKEM_SYM_BYTES],
			u8 j, u8 i);
/* SamplePolyCBD_2(PRF_2(s, b)) (algorithms 8, and 4.1's PRF). */
void mlkem_sample_cbd2(struct mlkem_poly *r, const u8 s[MLKEM_SYM_BYTES],
		       u8 b);

/*
 * The same for @n (1..4) polynomials at once on the four-way SHAKE:
 * r[i] from (ji[i][0], ji[i][1]), or from s with b[i].
 */
void mlkem_sample_ntt_x4(struct mlkem_poly *const r[4],
			 const u8 rho[MLKEM_SYM_BYTES], const u8 ji[4][2],
			 int n);
void mlkem_sample_cbd2_x4(struct mlkem_poly *const r[4],
			  const u8 s[MLKEM_SYM_BYTES], const u8 b[4], int n);

#endif /* TLSX_MLKEM_POLY_H */
