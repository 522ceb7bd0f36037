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
 * Â[i][j] = SampleNTT(rho || j || i) (algorithm 13 step 6), four at a
 * time when the engine has the four-way SHAKE.
 */
void mlkem_gen_matrix(struct mlkem_polyvec a[MLKEM_K],
		      const u8 rho[MLKEM_SYM_BYTES], bool transposed)
{
	struct mlkem_poly *p[4];
	u8 ji[4][2];
	int k, n = 0;
	u8 i, j;

	for (i = 0; i < MLKEM_K; i++)
		for (j = 0; j < MLKEM_K; j++) {
			ji[n][0] = transposed ? i : j;
			ji[n][1] = transposed ? j : i;
			p[n++] = &a[i].p[j];
			if (n < 4 && !(i == MLKEM_K - 1 && j == MLKEM_K - 1))
				continue;
			if (mlkem_engine()->x4 && n > 1)
				mlkem_sample_ntt_x4(p, rho, ji, n);
			else
				for (k = 0; k < n; k++)
					mlkem_sample_ntt(p[k], rho, ji[k][0],
							 ji[k][1]);
			n = 0;
		}
}

/* r[k] = SamplePolyCBD_2(PRF_2(s, b0 + k)) for k < n. */
static void sample_noise(const struct mlkem_engine *e,
			 struct mlkem_poly *const *r, const u8 *s, u8 b0,
			 int n)
{
	u8 b[4];
	int k, m, t;

	for (k = 0; k < n; k += m) {
		m = n - k < 4 ? n - k : 4;
		for (t = 0; t < m; t++)
			b[t] = (u8)(b0 + k + t);
		if (e->x4 && m > 1)
			mlkem_sample_cbd2_x4(r + k, s, b, m);
		else
			for (t = 0; t < m; t++)
				mlkem_sample_cbd2(r[k + t], s, b[t]);
	}
}

static void polyvec_ntt(const struct mlkem_engine *e, struct mlkem_polyvec *v)
{
	int i;

	for (i = 0; i < MLKEM_K; i++)
		e->ntt(v->p[i].c);
}

void mlkem_kpke_keygen(u8 ek[MLKEM_PKE_EK_BYTES], u8 dk[MLKEM_PKE_DK_BYTES],
		       const u8 d[MLKEM_SYM_BYTES], bool ipd)
{
	const struct mlkem_engine *e = mlkem_engine();
	struct mlkem_polyvec a[MLKEM_K], s, t, err;
	u8 in[MLKEM_SYM_BYTES + 1], rs[2 * MLKEM_SYM_BYTES];
	const u8 *rho = rs, *sigma = rs + MLKEM_SYM_BYTES;
	struct mlkem_poly *const noise[2 * MLKEM_K] = {
		&s.p[0], &s.p[1], &s.p[2], &err.p[0], &err.p[1], &err.p[2],
	};
	int i;

	/*
	 * (rho, sigma) = G(d || k): the final standard's k binds the
	 * parameter set; the ipd's G(d) only for its published vectors.
	 */
	memcpy(in, d, MLKEM_SYM_BYTES);
	in[MLKEM_SYM_BYTES] = MLKEM_K;
	tlsx_sha3_512(in, ipd ? MLKEM_SYM_BYTES : sizeof(in), rs);
	mlkem_declassify(rs, MLKEM_SYM_BYTES);
	mlkem_gen_matrix(a, rho, false);
	/* s then e: PRF counters 0..2k-1 (algorithm 13 steps 9-16). */
	sample_noise(e, noise, sigma, 0, 2 * MLKEM_K);
	polyvec_ntt(e, &s);
	polyvec_ntt(e, &err);
	/* t = Â o s + e; the products carry R^-1, tomont puts R back. */
	for (i = 0; i < MLKEM_K; i++) {
		e->basemul_acc(&t.p[i], a[i].p, s.p);
		mlkem_poly_tomont(&t.p[i]);
		mlkem_poly_add(&t.p[i], &err.p[i]);
		mlkem_poly_canon(&t.p[i]);
		mlkem_poly_canon(&s.p[i]);
		mlkem_poly_encode12(ek + i * MLKEM_POLY_BYTES, &t.p[i]);
		mlkem_poly_encode12(dk + i * MLKEM_POLY_BYTES, &s.p[i]);
	}
	memcpy(ek + MLKEM_VEC_BYTES, rho, MLKEM_SYM_BYTES);
	memzero_explicit(in, sizeof(in));
	memzero_explicit(rs, sizeof(rs));
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&err, sizeof(err));
}

void mlkem_kpke_encrypt(u8 c[MLKEM_CT_BYTES], const u8 ek[MLKEM_PKE_EK_BYTES],
			const u8 m[MLKEM_SYM_BYTES],
			const u8 r[MLKEM_SYM_BYTES])
{
	const struct mlkem_engine *e = mlkem_engine();
	struct mlkem_polyvec at[MLKEM_K], t, y, e1, u;
	struct mlkem_poly e2, v, mu;
	struct mlkem_poly *const noise[2 * MLKEM_K + 1] = {
		&y.p[0], &y.p[1], &y.p[2], &e1.p[0], &e1.p[1], &e1.p[2], &e2,
	};
	int i;

	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_decode12(&t.p[i], ek + i * MLKEM_POLY_BYTES);
	mlkem_gen_matrix(at, ek + MLKEM_VEC_BYTES, true);
	/* y, e1, e2: PRF counters 0..2k (algorithm 14 steps 9-17). */
	sample_noise(e, noise, r, 0, 2 * MLKEM_K + 1);
	polyvec_ntt(e, &y);
	/* u = NTT^-1(Â^T o y) + e1 */
	for (i = 0; i < MLKEM_K; i++) {
		e->basemul_acc(&u.p[i], at[i].p, y.p);
		e->invntt(u.p[i].c);
		mlkem_poly_add(&u.p[i], &e1.p[i]);
		mlkem_poly_canon(&u.p[i]);
		mlkem_poly_compress_du(c + i * MLKEM_POLY_DU_BYTES, &u.p[i]);
	}
	/* v = NTT^-1(t^T o y) + e2 + Decompress_1(m) */
	e->basemul_acc(&v, t.p, y.p);
	e->invntt(v.c);
	mlkem_poly_add(&v, &e2);
	mlkem_poly_from_msg(&mu, m);
	mlkem_poly_add(&v, &mu);
	mlkem_poly_canon(&v);
	mlkem_poly_compress_dv(c + MLKEM_K * MLKEM_POLY_DU_BYTES, &v);
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
		mlkem_poly_decompress_du(&u.p[i], c + i * MLKEM_POLY_DU_BYTES);
		e->ntt(u.p[i].c);
		mlkem_poly_decode12(&s.p[i], dk + i * MLKEM_POLY_BYTES);
	}
	mlkem_poly_decompress_dv(&v, c + MLKEM_K * MLKEM_POLY_DU_BYTES);
	/* w = v - NTT^-1(s^T o NTT(u)) */
	e->basemul_acc(&w, s.p, u.p);
	e->invntt(w.c);
	mlkem_poly_sub(&v, &w);
	mlkem_poly_canon(&v);
	mlkem_poly_to_msg(m, &v);
	memzero_explicit(&s, sizeof(s));
	memzero_explicit(&u, sizeof(u));
	memzero_explicit(&v, sizeof(v));
	memzero_explicit(&w, sizeof(w));
}
