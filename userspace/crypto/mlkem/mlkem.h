/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlkem.h - ML-KEM-768 (FIPS 203): key generation, encapsulation,
 * decapsulation with implicit rejection, and the input checks of 7.2
 * (encapsulation key: the modulus check) and 7.3 (decapsulation key:
 * the hash check).
 *
 * The _internal functions are FIPS 203's deterministic algorithms 16-18
 * with their randomness (d, z; m) as arguments: tests inject known
 * values, callers draw them from an approved source (rand/random.h) and
 * must not reuse them.  Everything that touches secrets (d, z, m, the
 * decapsulation key, the shared key) runs in constant time: no branch
 * or memory index depends on them (test/ct_mlkem.c).  Temporaries that
 * held secrets are wiped.
 *
 * Userspace only.  The NTT, the polynomial arithmetic and sampling use
 * AVX2 when the CPU has it, and the Keccak work then runs four sponges
 * at a time; else portable C (mlkem_impl.c; TLSX_MLKEM_IMPL=generic
 * forces portable C).  Both give the same bytes.
 */
#ifndef TLSX_MLKEM_H
#define TLSX_MLKEM_H

#include "aead/platform.h"

#define MLKEM768_EK_SIZE	1184
#define MLKEM768_DK_SIZE	2400
#define MLKEM768_CT_SIZE	1088
#define MLKEM_SS_SIZE		32
#define MLKEM_SEED_SIZE		32	/* each of d, z, m */

/* Algorithm 16, ML-KEM.KeyGen_internal(d, z). */
void tlsx_mlkem768_keygen_internal(u8 ek[MLKEM768_EK_SIZE],
				   u8 dk[MLKEM768_DK_SIZE],
				   const u8 d[MLKEM_SEED_SIZE],
				   const u8 z[MLKEM_SEED_SIZE]);

/*
 * 7.2's modulus check: 0 when every coefficient ByteDecode12 reads from
 * @ek is below q, else -EINVAL.  @ek is public: this may return early.
 */
int tlsx_mlkem768_check_ek(const u8 ek[MLKEM768_EK_SIZE]);

/* 7.3's hash check of @dk: H(ek part) equals the stored hash; -EINVAL. */
int tlsx_mlkem768_check_dk(const u8 dk[MLKEM768_DK_SIZE]);

/*
 * Algorithm 17, ML-KEM.Encaps_internal(ek, m), after the modulus check:
 * 0, or -EINVAL (nothing written but zeros) for an @ek it refuses.
 */
int tlsx_mlkem768_encaps_internal(u8 ct[MLKEM768_CT_SIZE],
				  u8 ss[MLKEM_SS_SIZE],
				  const u8 ek[MLKEM768_EK_SIZE],
				  const u8 m[MLKEM_SEED_SIZE]);

/*
 * Algorithm 18, ML-KEM.Decaps_internal(dk, c): the shared key, or for a
 * ciphertext that does not re-encrypt to itself the implicit-rejection
 * key J(z || c), chosen without a branch.  @dk is ours (made by keygen),
 * so 7.3's hash check is left to tlsx_mlkem768_check_dk().
 */
void tlsx_mlkem768_decaps(u8 ss[MLKEM_SS_SIZE],
			  const u8 dk[MLKEM768_DK_SIZE],
			  const u8 ct[MLKEM768_CT_SIZE]);

/* Which NTT/polynomial engine runs: "avx2" or "generic". */
const char *tlsx_mlkem_impl_name(void);

#endif /* TLSX_MLKEM_H */
