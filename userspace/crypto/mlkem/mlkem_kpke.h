/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlkem_kpke.h - K-PKE, ML-KEM's inner encryption scheme (FIPS 203 5,
 * algorithms 13-15).  Internal to mlkem/ and its tests.
 */
#ifndef TLSX_MLKEM_KPKE_H
#define TLSX_MLKEM_KPKE_H

#include "mlkem/mlkem_poly.h"

/*
 * Algorithm 13: ekPKE (1184 bytes) and dkPKE (1152) from the seed d,
 * and H(ekPKE) (ML-KEM's dk carries it; hashed while ek is made).
 * @ipd: G(d) as in the FIPS 203 initial public draft instead of the
 * final standard's G(d || k), for tests only: C2SP's CCTV vectors and
 * accumulated hashes were made that way (their README says so); every
 * other step is the same in both.
 */
void mlkem_kpke_keygen(u8 ek[MLKEM_PKE_EK_BYTES], u8 dk[MLKEM_PKE_DK_BYTES],
		       const u8 d[MLKEM_SYM_BYTES], bool ipd,
		       u8 h_ek[MLKEM_SYM_BYTES]);

/* ML-KEM.KeyGen_internal over mlkem_kpke_keygen(@ipd) (mlkem.c). */
void mlkem768_keygen_variant(u8 ek[MLKEM_PKE_EK_BYTES],
			     u8 dk[MLKEM_DK_BYTES],
			     const u8 d[MLKEM_SYM_BYTES],
			     const u8 z[MLKEM_SYM_BYTES], bool ipd);
/* Algorithm 14: c from ekPKE, the message m and the randomness r. */
void mlkem_kpke_encrypt(u8 c[MLKEM_CT_BYTES], const u8 ek[MLKEM_PKE_EK_BYTES],
			const u8 m[MLKEM_SYM_BYTES],
			const u8 r[MLKEM_SYM_BYTES]);
/*
 * The same with Â^T already sampled (mlkem_gen_matrix_and()): Encaps
 * and Decaps sample it beside H(ek) or J(z || c).
 */
void mlkem_kpke_encrypt_with(u8 c[MLKEM_CT_BYTES],
			     const u8 ek[MLKEM_PKE_EK_BYTES],
			     const struct mlkem_polyvec at[MLKEM_K],
			     const u8 m[MLKEM_SYM_BYTES],
			     const u8 r[MLKEM_SYM_BYTES]);
/* Algorithm 15: m from dkPKE and c. */
void mlkem_kpke_decrypt(u8 m[MLKEM_SYM_BYTES], const u8 dk[MLKEM_PKE_DK_BYTES],
			const u8 c[MLKEM_CT_BYTES]);

/* Â (transposed: Â^T) from rho, as algorithms 13 and 14 sample it. */
void mlkem_gen_matrix(struct mlkem_polyvec a[MLKEM_K],
		      const u8 rho[MLKEM_SYM_BYTES], bool transposed);
/* The same, with @extra (a hash job, or NULL) run beside it. */
void mlkem_gen_matrix_and(struct mlkem_polyvec a[MLKEM_K],
			  const u8 rho[MLKEM_SYM_BYTES], bool transposed,
			  struct mlkem_job *extra);

#endif /* TLSX_MLKEM_KPKE_H */
