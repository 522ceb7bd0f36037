// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem.c - ML-KEM-768 over K-PKE (FIPS 203 6-7): keygen, encaps,
 * decaps with implicit rejection, and the key checks; mlkem.h has the
 * contract.
 */
#include "hash/sha3.h"
#include "mlkem/mlkem.h"
#include "mlkem/mlkem_kpke.h"
#include "aead/stack_wipe.h"

/*
 * The public entry points run a worker and then wipe this much of the
 * stack below them (stack_wipe.h): the polynomial vectors and matrices of
 * K-PKE live in the workers' frames, to about 16.7 KiB below the caller
 * (decapsulation; test_stack_depth).
 */
#define MLKEM_STACK_WIPE	(21 * 1024)

/* dk's parts (FIPS 203 algorithm 16 step 3). */
#define DK_PKE		0
#define DK_EK		MLKEM_PKE_DK_BYTES
#define DK_H		(DK_EK + MLKEM_PKE_EK_BYTES)
#define DK_Z		(DK_H + MLKEM_SYM_BYTES)

_Static_assert(MLKEM768_EK_SIZE == MLKEM_PKE_EK_BYTES, "ek size");
_Static_assert(MLKEM768_DK_SIZE == MLKEM_DK_BYTES, "dk size");
_Static_assert(MLKEM768_CT_SIZE == MLKEM_CT_BYTES, "ct size");

void mlkem768_keygen_variant(u8 ek[MLKEM_PKE_EK_BYTES],
			     u8 dk[MLKEM_DK_BYTES],
			     const u8 d[MLKEM_SYM_BYTES],
			     const u8 z[MLKEM_SYM_BYTES], bool ipd)
{
	mlkem_kpke_keygen(ek, dk + DK_PKE, d, ipd, dk + DK_H);
	memcpy(dk + DK_EK, ek, MLKEM768_EK_SIZE);
	memcpy(dk + DK_Z, z, MLKEM_SYM_BYTES);
}

static noinline void mlkem_keygen_work(u8 ek[MLKEM768_EK_SIZE],
				       u8 dk[MLKEM768_DK_SIZE],
				       const u8 d[MLKEM_SEED_SIZE],
				       const u8 z[MLKEM_SEED_SIZE])
{
	mlkem768_keygen_variant(ek, dk, d, z, false);
}

void tlsx_mlkem768_keygen_internal(u8 ek[MLKEM768_EK_SIZE],
				   u8 dk[MLKEM768_DK_SIZE],
				   const u8 d[MLKEM_SEED_SIZE],
				   const u8 z[MLKEM_SEED_SIZE])
{
	mlkem_keygen_work(ek, dk, d, z);
	tlsx_stack_wipe_user(MLKEM_STACK_WIPE);
}

int tlsx_mlkem768_check_ek(const u8 ek[MLKEM768_EK_SIZE])
{
	int i;

	/* 7.2 step 2: ByteEncode12(ByteDecode12(t)) == t. */
	for (i = 0; i < MLKEM_K; i++)
		if (!mlkem_poly_encoding_reduced(ek + i * MLKEM_POLY_BYTES))
			return -EINVAL;
	return 0;
}

int tlsx_mlkem768_check_dk(const u8 dk[MLKEM768_DK_SIZE])
{
	u8 h[MLKEM_SYM_BYTES];

	/* 7.3 step 3: H(dk[384k : 768k + 32]) == dk[768k + 32 : 768k + 64]. */
	tlsx_sha3_256(dk + DK_EK, MLKEM768_EK_SIZE, h);
	return memcmp(h, dk + DK_H, sizeof(h)) ? -EINVAL : 0;
}

static noinline int mlkem_encaps_work(u8 ct[MLKEM768_CT_SIZE],
				      u8 ss[MLKEM_SS_SIZE],
				      const u8 ek[MLKEM768_EK_SIZE],
				      const u8 m[MLKEM_SEED_SIZE])
{
	u8 in[2 * MLKEM_SYM_BYTES], kr[2 * MLKEM_SYM_BYTES];
	struct mlkem_polyvec at[MLKEM_K];
	struct mlkem_job h = {
		.kind = MLKEM_JOB_HASH_H,
		.msg = { ek },
		.len = { MLKEM768_EK_SIZE },
		.out = in + MLKEM_SYM_BYTES,
	};

	if (tlsx_mlkem768_check_ek(ek)) {
		memset(ct, 0, MLKEM768_CT_SIZE);
		memset(ss, 0, MLKEM_SS_SIZE);
		return -EINVAL;
	}
	/*
	 * H(ek) and K-PKE.Encrypt's matrix Â^T do not depend on m: they
	 * are sampled together (on the AVX2 engine, in the lanes of one
	 * four-way Keccak).  Then (K, r) = G(m || H(ek)).
	 */
	mlkem_gen_matrix_and(at, ek + MLKEM_VEC_BYTES, true, &h);
	memcpy(in, m, MLKEM_SYM_BYTES);
	tlsx_sha3_512(in, sizeof(in), kr);
	mlkem_kpke_encrypt_with(ct, ek, at, m, kr + MLKEM_SYM_BYTES);
	memcpy(ss, kr, MLKEM_SS_SIZE);
	memzero_explicit(in, sizeof(in));
	memzero_explicit(kr, sizeof(kr));
	return 0;
}

int tlsx_mlkem768_encaps_internal(u8 ct[MLKEM768_CT_SIZE],
				  u8 ss[MLKEM_SS_SIZE],
				  const u8 ek[MLKEM768_EK_SIZE],
				  const u8 m[MLKEM_SEED_SIZE])
{
	int err = mlkem_encaps_work(ct, ss, ek, m);

	tlsx_stack_wipe_user(MLKEM_STACK_WIPE);
	return err;
}

/*
 * All-ones when @a and @b (@len bytes) are equal, else zero, with no
 * branch on their contents and no early exit (a memcmp() or strcmp()
 * here would leak where the re-encryption first differs; the CCTV
 * strcmp vectors catch the latter).
 */
static u8 ct_eq_mask(const u8 *a, const u8 *b, size_t len)
{
	u64 acc = 0;
	size_t i;

	/* eight bytes at a time (len is the ciphertext's, 8 | 1088) */
	for (i = 0; i + 8 <= len; i += 8)
		acc |= get_unaligned_le64(a + i) ^ get_unaligned_le64(b + i);
	for (; i < len; i++)
		acc |= a[i] ^ b[i];
	/* fold to 32 bits, then acc | -acc has its top bit set iff != 0 */
	acc = (acc >> 32) | (acc & 0xffffffff);
	__asm__("" : "+r"(acc));
	return (u8)((((acc | (0 - acc)) >> 63) & 1) - 1);
}

static noinline void mlkem_decaps_work(u8 ss[MLKEM_SS_SIZE],
				       const u8 dk[MLKEM768_DK_SIZE],
				       const u8 ct[MLKEM768_CT_SIZE])
{
	u8 in[2 * MLKEM_SYM_BYTES], kr[2 * MLKEM_SYM_BYTES];
	u8 kbar[MLKEM_SS_SIZE], ct2[MLKEM768_CT_SIZE], mask;
	struct mlkem_polyvec at[MLKEM_K];
	/* K-bar = J(z || c) = SHAKE256(z || c, 32) */
	struct mlkem_job j = {
		.kind = MLKEM_JOB_HASH_J,
		.msg = { dk + DK_Z, ct },
		.len = { MLKEM_SYM_BYTES, MLKEM768_CT_SIZE },
		.out = kbar,
	};
	int i;

	/* m' = K-PKE.Decrypt(dkPKE, c); (K', r') = G(m' || h) */
	mlkem_kpke_decrypt(in, dk + DK_PKE, ct);
	memcpy(in + MLKEM_SYM_BYTES, dk + DK_H, MLKEM_SYM_BYTES);
	tlsx_sha3_512(in, sizeof(in), kr);
	/*
	 * J and the re-encryption's matrix (from ek's rho: public) are
	 * sampled together; H(ek) is dk's (FIPS 203 stores it there).
	 * c' = K-PKE.Encrypt(ekPKE, m', r'); K' unless c != c'.
	 */
	mlkem_gen_matrix_and(at, dk + DK_EK + MLKEM_VEC_BYTES, true, &j);
	mlkem_kpke_encrypt_with(ct2, dk + DK_EK, at, in, kr + MLKEM_SYM_BYTES);
	mask = ct_eq_mask(ct, ct2, MLKEM768_CT_SIZE);
	for (i = 0; i < MLKEM_SS_SIZE; i++)
		ss[i] = (u8)((kr[i] & mask) | (kbar[i] & (u8)~mask));
	memzero_explicit(in, sizeof(in));
	memzero_explicit(kr, sizeof(kr));
	memzero_explicit(kbar, sizeof(kbar));
	memzero_explicit(ct2, sizeof(ct2));
}

void tlsx_mlkem768_decaps(u8 ss[MLKEM_SS_SIZE],
			  const u8 dk[MLKEM768_DK_SIZE],
			  const u8 ct[MLKEM768_CT_SIZE])
{
	mlkem_decaps_work(ss, dk, ct);
	tlsx_stack_wipe_user(MLKEM_STACK_WIPE);
}
