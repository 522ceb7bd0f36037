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

/* Â[i][j] = SampleNTT(rho || j || i) (algorithm 13 step 6). */
void mlkem_gen_matrix(struct mlkem_polyvec a[MLKEM_K],
		      const u8 rho[MLKEM_SYM_BYTES], bool transposed)
{
	u8 i, j;

	for (i = 0; i < MLKEM_K; i++)
		for (j = 0; j < MLKEM_K; j++) {
			if (transposed)
				mlkem_sample_ntt(&a[i].p[j], rho, i, j);
			else
				mlkem_sample_ntt(&a[i].p[j], rho, j, i);
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
	u8 n = 0;
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
	for (i = 0; i < MLKEM_K; i++)
		mlkem_sample_cbd2(&s.p[i], sigma, n++);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_sample_cbd2(&err.p[i], sigma, n++);
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
	u8 n = 0;
	int i;

	for (i = 0; i < MLKEM_K; i++)
		mlkem_poly_decode12(&t.p[i], ek + i * MLKEM_POLY_BYTES);
	mlkem_gen_matrix(at, ek + MLKEM_VEC_BYTES, true);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_sample_cbd2(&y.p[i], r, n++);
	for (i = 0; i < MLKEM_K; i++)
		mlkem_sample_cbd2(&e1.p[i], r, n++);
	mlkem_sample_cbd2(&e2, r, n);
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
