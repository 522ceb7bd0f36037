/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlkem_params.h - ML-KEM-768's parameter set (FIPS 203 8, table 2)
 * and the sizes that follow from it (table 3).  Internal to mlkem/.
 */
#ifndef TLSX_MLKEM_PARAMS_H
#define TLSX_MLKEM_PARAMS_H

#define MLKEM_N			256
#define MLKEM_Q			3329
#define MLKEM_K			3
#define MLKEM_ETA1		2
#define MLKEM_ETA2		2
#define MLKEM_DU		10
#define MLKEM_DV		4

#define MLKEM_SYM_BYTES		32	/* seeds, hashes, messages */
#define MLKEM_POLY_BYTES	384	/* ByteEncode12 of one polynomial */
#define MLKEM_VEC_BYTES		(MLKEM_K * MLKEM_POLY_BYTES)
#define MLKEM_POLY_DU_BYTES	(32 * MLKEM_DU)
#define MLKEM_POLY_DV_BYTES	(32 * MLKEM_DV)

#define MLKEM_PKE_EK_BYTES	(MLKEM_VEC_BYTES + MLKEM_SYM_BYTES)
#define MLKEM_PKE_DK_BYTES	MLKEM_VEC_BYTES
#define MLKEM_CT_BYTES		(MLKEM_K * MLKEM_POLY_DU_BYTES + \
				 MLKEM_POLY_DV_BYTES)
/* dk = dkPKE || ek || H(ek) || z (FIPS 203 7.1 / 6.1) */
#define MLKEM_DK_BYTES		(MLKEM_PKE_DK_BYTES + MLKEM_PKE_EK_BYTES + \
				 2 * MLKEM_SYM_BYTES)

#endif /* TLSX_MLKEM_PARAMS_H */
