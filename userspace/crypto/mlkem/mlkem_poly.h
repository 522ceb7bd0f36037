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
 * Keccak work for the engine's job runner: K-PKE hands it everything
 * that can run at once (the matrix, the noise, and H(ek) or J(z || c)),
 * and the AVX2 runner keeps all four lanes of its four-way Keccak busy
 * with them (mlkem_jobs_x4.c).
 *  MATRIX:	r = SampleNTT(SHAKE128(seed || a || b))	(algorithm 7)
 *  CBD2:	r = SamplePolyCBD_2(SHAKE256(seed || a, 128))	(algorithm 8)
 *  HASH_H:	out = SHA3-256(msg0 || msg1)		(H, 4.1)
 *  HASH_J:	out = SHAKE256(msg0 || msg1, 32)	(J, 4.1)
 *  ABSORB:	msg0 (len0 a multiple of k's rate, 0 too; k at a block
 *		boundary)
 *		absorbed into the sponge k, which is left for more: KeyGen
 *		hashes ek a row of t at a time, beside the matrix.
 */
enum mlkem_job_kind {
	MLKEM_JOB_MATRIX,
	MLKEM_JOB_CBD2,
	MLKEM_JOB_HASH_H,
	MLKEM_JOB_HASH_J,
	MLKEM_JOB_ABSORB,
};

struct tlsx_keccak;

struct mlkem_job {
	enum mlkem_job_kind kind;
	struct mlkem_poly *r;		/* MATRIX, CBD2 */
	const u8 *seed;			/* MATRIX, CBD2: 32 bytes */
	u8 a, b;			/* MATRIX: j, i; CBD2: a the counter */
	const u8 *msg[2];		/* HASH_*: two parts, */
	size_t len[2];			/* either may be empty */
	u8 *out;			/* HASH_*: 32 bytes */
	struct tlsx_keccak *k;		/* ABSORB */
};

/*
 * The engine: the code with a vector variant.
 *  ntt:	NTT(f) in place; input |c| < q, output |c| < q, in the
 *		bit-reversed pair order algorithm 11 multiplies in.
 *  invntt:	NTT^-1 times R in place (so that it undoes the R^-1 of
 *		a basecase product); input |c| < q, output |c| < q.
 *  basemul_acc: r = sum over i < MLKEM_K of a[i] o b[i] (algorithm 11)
 *		times R^-1, |c| < q; inputs |c| < q (one side < 2^12).
 *  run_jobs:	every job of @jobs done, in any order.
 *  rej_take:	SampleNTT's candidates from buf[0..len) (len a multiple
 *		of 3) appended to r[n..256); returns the new count.  buf
 *		is readable MLKEM_REJ_SLACK bytes past len.
 *  cbd2:	SamplePolyCBD_2 of 128 PRF bytes.
 *  add .. decompress_du: the functions of the same name below (the
 *		generic engine's are they).
 *  x4:		whether run_jobs runs four sponges at a time.
 * Both engines give the same bytes for every operation (test_mlkem's
 * differential tests).
 */
#define MLKEM_REJ_SLACK	8

struct mlkem_engine {
	const char *name;
	bool x4;
	void (*ntt)(int16_t r[MLKEM_N]);
	void (*invntt)(int16_t r[MLKEM_N]);
	void (*basemul_acc)(struct mlkem_poly *r,
			    const struct mlkem_poly *a,
			    const struct mlkem_poly *b);
	void (*run_jobs)(const struct mlkem_engine *e, struct mlkem_job *jobs,
			 int n);
	int (*rej_take)(int16_t *r, int n, const u8 *buf, size_t len);
	void (*cbd2)(struct mlkem_poly *r, const u8 buf[64 * MLKEM_ETA1]);
	void (*add)(struct mlkem_poly *r, const struct mlkem_poly *a);
	void (*sub)(struct mlkem_poly *r, const struct mlkem_poly *a);
	void (*canon)(struct mlkem_poly *r);
	void (*tomont)(struct mlkem_poly *r);
	void (*encode12)(u8 out[MLKEM_POLY_BYTES], const struct mlkem_poly *a);
	void (*decode12)(struct mlkem_poly *r, const u8 in[MLKEM_POLY_BYTES]);
	void (*compress_du)(u8 out[MLKEM_POLY_DU_BYTES],
			    const struct mlkem_poly *a);
	void (*decompress_du)(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_DU_BYTES]);
	void (*compress_dv)(u8 out[MLKEM_POLY_DV_BYTES],
			    const struct mlkem_poly *a);
	void (*decompress_dv)(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_DV_BYTES]);
	void (*from_msg)(struct mlkem_poly *r, const u8 m[MLKEM_SYM_BYTES]);
	void (*to_msg)(u8 m[MLKEM_SYM_BYTES], const struct mlkem_poly *a);
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

/* The portable engine's rej_take and cbd2 (mlkem_poly.c). */
int mlkem_rej_take_generic(int16_t *r, int n, const u8 *buf, size_t len);
void mlkem_cbd2_generic(struct mlkem_poly *r, const u8 buf[64 * MLKEM_ETA1]);

/* Job runners: one at a time (mlkem_jobs.c), four-way (mlkem_jobs_x4.c). */
void mlkem_run_jobs_scalar(const struct mlkem_engine *e,
			   struct mlkem_job *jobs, int n);
void mlkem_run_jobs_x4(const struct mlkem_engine *e, struct mlkem_job *jobs,
		       int n);

/* The AVX2 engine's rej_take and cbd2 (mlkem_sample_avx2.c). */
int mlkem_rej_take_avx2(int16_t *r, int n, const u8 *buf, size_t len);
/* ... and on the SHAKE128 blocks in the lanes of @mask of s[25][4]. */
void mlkem_rej_take_lanes_avx2(int16_t *const r[4], int n[4],
			       const u64 s[25][4], unsigned int mask);
void mlkem_cbd2_avx2(struct mlkem_poly *r, const u8 buf[64 * MLKEM_ETA1]);
/* ... and its coefficient-wise operations (mlkem_poly_avx2.c). */
void mlkem_poly_add_avx2(struct mlkem_poly *r, const struct mlkem_poly *a);
void mlkem_poly_sub_avx2(struct mlkem_poly *r, const struct mlkem_poly *a);
void mlkem_poly_canon_avx2(struct mlkem_poly *r);
void mlkem_poly_tomont_avx2(struct mlkem_poly *r);
void mlkem_poly_encode12_avx2(u8 out[MLKEM_POLY_BYTES],
			      const struct mlkem_poly *a);
void mlkem_poly_decode12_avx2(struct mlkem_poly *r,
			      const u8 in[MLKEM_POLY_BYTES]);
void mlkem_poly_compress_du_avx2(u8 out[MLKEM_POLY_DU_BYTES],
				 const struct mlkem_poly *a);
void mlkem_poly_decompress_du_avx2(struct mlkem_poly *r,
				   const u8 in[MLKEM_POLY_DU_BYTES]);
void mlkem_poly_compress_dv_avx2(u8 out[MLKEM_POLY_DV_BYTES],
				 const struct mlkem_poly *a);
void mlkem_poly_decompress_dv_avx2(struct mlkem_poly *r,
				   const u8 in[MLKEM_POLY_DV_BYTES]);
void mlkem_poly_from_msg_avx2(struct mlkem_poly *r,
			      const u8 m[MLKEM_SYM_BYTES]);
void mlkem_poly_to_msg_avx2(u8 m[MLKEM_SYM_BYTES], const struct mlkem_poly *a);

#endif /* TLSX_MLKEM_POLY_H */
