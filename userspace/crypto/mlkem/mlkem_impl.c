// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_impl.c - which NTT engine runs: AVX2 when the CPU has it, unless
 * TLSX_MLKEM_IMPL=generic (valgrind runs, comparisons).  The choice is
 * made once; racing first callers compute the same answer.
 */
#include <stdlib.h>

#include "hash/sha3.h"
#include "mlkem/mlkem.h"
#include "mlkem/mlkem_poly.h"

static const struct mlkem_engine *mlkem_choice;

bool mlkem_avx2_usable(void)
{
	return tlsx_cpu_features()->avx2 && tlsx_keccak_x4_usable();
}

const struct mlkem_engine *mlkem_engine(void)
{
	const struct mlkem_engine *e;
	const char *env;

	e = __atomic_load_n(&mlkem_choice, __ATOMIC_ACQUIRE);
	if (likely(e))
		return e;
	env = getenv("TLSX_MLKEM_IMPL");
	e = &mlkem_engine_generic;
	if (mlkem_avx2_usable() && !(env && !strcmp(env, "generic")))
		e = &mlkem_engine_avx2;
	__atomic_store_n(&mlkem_choice, e, __ATOMIC_RELEASE);
	return e;
}

int mlkem_engine_force(const char *name)
{
	const struct mlkem_engine *e;

	if (!strcmp(name, "generic"))
		e = &mlkem_engine_generic;
	else if (!strcmp(name, "avx2") && mlkem_avx2_usable())
		e = &mlkem_engine_avx2;
	else
		return -ENOTSUP;
	__atomic_store_n(&mlkem_choice, e, __ATOMIC_RELEASE);
	return 0;
}

const char *tlsx_mlkem_impl_name(void)
{
	return mlkem_engine()->name;
}
