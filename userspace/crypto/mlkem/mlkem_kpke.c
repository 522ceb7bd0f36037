// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_kpke.c - K-PKE (FIPS 203 5): key generation, encryption and
 * decryption over the NTT engine (mlkem_poly.h).  Secret polynomials
 * (s, e, y, e1, e2, the message) are wiped before returning.
 */
#include "hash/sha3.h"
#include "mlkem/mlkem_kpke.h"

/*
 * rho comes from the secret d but is public (it is half of ek): marked
 * so for valgrind by test/ct_mlkem.c, which includes this file with its
 * own definition; SampleNTT's rejection loop branches on it.
 */
#ifndef mlkem_declassify
#define mlkem_declassify(p, n) ((void)(p), (void)(n))
#endif

/*
 * Row i of Â: Â[i][j] = SampleNTT(rho || j || i) (algorithm 13 step 6)
 * as three jobs (of Â^T: rho || i || j, algorithm 14 step 8).
 */
static void matrix_row_jobs(struct mlkem_job *jobs,
			    struct mlkem_polyvec a[MLKEM_K],
			    const u8 rho[MLKEM_SYM_BYTES], bool transposed,
			    u8 i)
{
	u8 j;

	for (j = 0; j < MLKEM_K; j++) {
		struct mlkem_job *job = jobs++;

		job->kind = MLKEM_JOB_MATRIX;
		job->r = &a[i].p[j];
		job->seed = rho;
		job->a = transposed ? i : j;
		job->b = transposed ? j : i;
	}
}

/* All of Â (Â^T) as nine jobs. */
static void matrix_jobs(struct mlkem_job *jobs, struct mlkem_polyvec a[MLKEM_K],
			const u8 rho[MLKEM_SYM_BYTES], bool transposed)
{
	u8 i;

	for (i = 0; i < MLKEM_K; i++)
		matrix_row_jobs(jobs + MLKEM_K * i, a, rho, transposed, i);
}

/* r[k] = SamplePolyCBD_2(PRF_2(s, b0 + k)) for k < n, as jobs. */
static void noise_jobs(struct mlkem_job *jobs, struct mlkem_poly *const *r,
		       const u8 *s, u8 b0, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		jobs[k].kind = MLKEM_JOB_CBD2;
		jobs[k].r = r[k];
		jobs[k].seed = s;
		jobs[k].a = (u8)(b0 + k);
	}
}

void mlkem_gen_matrix_and(struct mlkem_polyvec a[MLKEM_K],
			  const u8 rho[MLKEM_SYM_BYTES], bool transposed,
			  struct mlkem_job *extra)
{
	const struct mlkem_engine *e = mlkem_engine();
	struct mlkem_job jobs[1 + MLKEM_K * MLKEM_K];
	int n = 0;

	memset(jobs, 0, sizeof(jobs));
	/* the long job first: it then shares the runner with the matrix */
	if (extra)
		jobs[n++] = *extra;
	matrix_jobs(jobs + n, a, rho, transposed);
	e->run_jobs(e, jobs, n + MLKEM_K * MLKEM_K);
}

void mlkem_gen_matrix(struct mlkem_polyvec a[MLKEM_K],
		      const u8 rho[MLKEM_SYM_BYTES], bool transposed)
{
	mlkem_gen_matrix_and(a, rho, transposed, NULL);
}

static void polyvec_ntt(const struct mlkem_engine *e, struct mlkem_polyvec *v)
{
	int i;

	for (i = 0; i < MLKEM_K; i++)
		e->ntt(v->p[i].c);
}

/*
 * H's input, ek, is t row by row, then rho: while row i + 1 of Â is
 * sampled, the blocks of the rows before it are absorbed beside it
 * (on the AVX2 engine, in the fourth lane); the rest after the last.
 */
#define EK_BLOCKS_AFTER_ROW(i)	(((i) + 1) * MLKEM_POLY_BYTES / SHA3_256_RATE)

void mlkem_kpke_keygen(u8 ek[MLKEM_PKE_EK_BYTES], u8 dk[MLKEM_PKE_DK_BYTES],
		       const u8 d[MLKEM_SYM_BYTES], bool ipd,
		       u8 h_ek[MLKEM_SYM_BYTES])
{
	const struct mlkem_engine *e = mlkem_engine();
	struct mlkem_polyvec a[MLKEM_K], s, t, err;
	struct mlkem_job jobs[1 + MLKEM_K + 2 * MLKEM_K];
	u8 in[MLKEM_SYM_BYTES + 1], rs[2 * MLKEM_SYM_BYTES];
	const u8 *rho = rs, *sigma = rs + MLKEM_SYM_BYTES;
	struct mlkem_poly *const noise[2 * MLKEM_K] = {
		&s.p[0], &s.p[1], &s.p[2], &err.p[0], &err.p[1], &err.p[2],
	};
	struct tlsx_keccak h;
	size_t hashed = 0, avail = 0;
	int i, n;

	/*
	 * (rho, sigma) = G(d || k): the final standard's k binds the
	 * parameter set; the ipd's G(d) only for its published vectors.
	 */
	memcpy(in, d, MLKEM_SYM_BYTES);
	in[MLKEM_SYM_BYTES] = MLKEM_K;
	tlsx_sha3_512(in, ipd ? MLKEM_SYM_BYTES : sizeof(in), rs);
	mlkem_declassify(rs, MLKEM_SYM_BYTES);
	tlsx_sha3_256_init(&h);
	for (i = 0; i < MLKEM_K; i++) {
		memset(jobs, 0, sizeof(jobs));
		n = 0;
		if (avail > hashed) {
			jobs[n].kind = MLKEM_JOB_ABSORB;
			jobs[n].k = &h;
			jobs[n].msg[0] = ek + hashed;
			jobs[n++].len[0] = avail - hashed;
			hashed = avail;
		}
		matrix_row_jobs(jobs + n, a, rho, false, (u8)i);
		n += MLKEM_K;
		/* s then e: PRF counters 0..2k-1 (algorithm 13 steps 9-16) */
		if (i == 0) {
			noise_jobs(jobs + n, noise, sigma, 0, 2 * MLKEM_K);
			n += 2 * MLKEM_K;
		}
		e->run_jobs(e, jobs, n);
		if (i == 0) {
			polyvec_ntt(e, &s);
			polyvec_ntt(e, &err);
		}
		/* t = Â o s + e; the products carry R^-1, tomont puts R back */
		e->basemul_acc(&t.p[i], a[i].p, s.p);
		e->tomont(&t.p[i]);
		e->add(&t.p[i], &err.p[i]);
		e->canon(&t.p[i]);
		e->canon(&s.p[i]);
		e->encode12(ek + i * MLKEM_POLY_BYTES, &t.p[i]);
		e->encode12(dk + i * MLKEM_POLY_BYTES, &s.p[i]);
		avail = EK_BLOCKS_AFTER_ROW(i) * SHA3_256_RATE;
	}
	memcpy(ek + MLKEM_VEC_BYTES, rho, MLKEM_SYM_BYTES);
	tlsx_keccak_absorb(&h, ek + hashed, MLKEM_PKE_EK_BYTES - hashed);
	tlsx_sha3_final(&h, h_ek, MLKEM_SYM_BYTES);
	memzero_explicit(in, sizeof(in));
	memzero_explicit(rs, sizeof(rs));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&err, sizeof(err));
}

void mlkem_kpke_encrypt(u8 c[MLKEM_CT_BYTES], const u8 ek[MLKEM_PKE_EK_BYTES],
			const u8 m[MLKEM_SYM_BYTES],
			const u8 r[MLKEM_SYM_BYTES])
{
	struct mlkem_polyvec at[MLKEM_K];

	mlkem_gen_matrix(at, ek + MLKEM_VEC_BYTES, true);
	mlkem_kpke_encrypt_with(c, ek, at, m, r);
}

void mlkem_kpke_encrypt_with(u8 c[MLKEM_CT_BYTES],
			     const u8 ek[MLKEM_PKE_EK_BYTES],
			     const struct mlkem_polyvec at[MLKEM_K],
			     const u8 m[MLKEM_SYM_BYTES],
			     const u8 r[MLKEM_SYM_BYTES])
{
	const struct mlkem_engine *e = mlkem_engine();
	struct mlkem_polyvec t, y, e1, u;
	struct mlkem_poly e2, v, mu;
	struct mlkem_poly *const noise[2 * MLKEM_K + 1] = {
		&y.p[0], &y.p[1], &y.p[2], &e1.p[0], &e1.p[1], &e1.p[2], &e2,
	};
	struct mlkem_job jobs[2 * MLKEM_K + 1];
	int i;

	for (i = 0; i < MLKEM_K; i++)
		e->decode12(&t.p[i], ek + i * MLKEM_POLY_BYTES);
	/* y, e1, e2: PRF counters 0..2k (algorithm 14 steps 9-17). */
	memset(jobs, 0, sizeof(jobs));
	noise_jobs(jobs, noise, r, 0, 2 * MLKEM_K + 1);
	e->run_jobs(e, jobs, ARRAY_SIZE(jobs));
	polyvec_ntt(e, &y);
	/* u = NTT^-1(Â^T o y) + e1 */
	for (i = 0; i < MLKEM_K; i++) {
		e->basemul_acc(&u.p[i], at[i].p, y.p);
		e->invntt(u.p[i].c);
		e->add(&u.p[i], &e1.p[i]);
		e->canon(&u.p[i]);
		e->compress_du(c + i * MLKEM_POLY_DU_BYTES, &u.p[i]);
	}
	/* v = NTT^-1(t^T o y) + e2 + Decompress_1(m) */
	e->basemul_acc(&v, t.p, y.p);
	e->invntt(v.c);
	e->add(&v, &e2);
	e->from_msg(&mu, m);
	e->add(&v, &mu);
	e->canon(&v);
	e->compress_dv(c + MLKEM_K * MLKEM_POLY_DU_BYTES, &v);
	memzero_explicit(&y, sizeof(y));
	memzero_explicit(&e1, sizeof(e1));
	memzero_explicit(&u, sizeof(u));
	memzero_explicit(&e2, sizeof(e2));
	memzero_explicit(&v, sizeof(v));
	memzero_explicit(&mu, sizeof(mu));
}

void mlkem_kpke_decrypt(u8 m[MLKEM_SYM_BYTES], const u8 dk[MLKEM_PKE_DK_BYTES],
			const u8 c[MLKEM_CT_BYTES])
{
	const struct mlkem_engine *e = mlkem_engine();
	struct mlkem_polyvec u, s;
	struct mlkem_poly v, w;
	int i;

	for (i = 0; i < MLKEM_K; i++) {
		e->decompress_du(&u.p[i], c + i * MLKEM_POLY_DU_BYTES);
		e->ntt(u.p[i].c);
		e->decode12(&s.p[i], dk + i * MLKEM_POLY_BYTES);
	}
	e->decompress_dv(&v, c + MLKEM_K * MLKEM_POLY_DU_BYTES);
	/* w = v - NTT^-1(s^T o NTT(u)) */
	e->basemul_acc(&w, s.p, u.p);
	e->invntt(w.c);
	e->sub(&v, &w);
	e->canon(&v);
	e->to_msg(m, &v);
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&u, sizeof(u));
	memzero_explicit(&v, sizeof(v));
	memzero_explicit(&w, sizeof(w));
}
