// SPDX-License-Identifier: GPL-2.0
/*
 * p256_impl.c - which P-256 code runs: the MULX/ADX field and scalar
 * arithmetic or the portable one.  The bottom of the P-256 files: the
 * scalar code (p256_scalar.c) and the curve operations (p256.c) both ask
 * here, and nothing here calls them.
 */
#include <stdlib.h>

#include "p256/p256_internal.h"

enum p256_impl { P256_UNCHOSEN, P256_GENERIC, P256_ADX };
static enum p256_impl p256_choice;

bool p256_curve_adx_usable(void)
{
	const struct tlsx_cpu *c = tlsx_cpu_features();

	return c->bmi2 && c->adx && c->avx2;
}

/*
 * The MULX/ADX code when the CPU has it, unless TLSX_P256_IMPL=generic
 * (for valgrind runs and comparisons).  The choice is made once; racing
 * first callers compute the same answer.
 */
bool p256_use_adx(void)
{
	enum p256_impl c = __atomic_load_n(&p256_choice, __ATOMIC_ACQUIRE);
	const char *env;

	if (likely(c != P256_UNCHOSEN))
		return c == P256_ADX;
	env = getenv("TLSX_P256_IMPL");
	c = P256_GENERIC;
	if (p256_curve_adx_usable() && !(env && !strcmp(env, "generic")))
		c = P256_ADX;
	__atomic_store_n(&p256_choice, c, __ATOMIC_RELEASE);
	return c == P256_ADX;
}

int p256_curve_force(const char *name)
{
	enum p256_impl c;

	if (!strcmp(name, "generic"))
		c = P256_GENERIC;
	else if (!strcmp(name, "adx") && p256_curve_adx_usable())
		c = P256_ADX;
	else
		return -ENOTSUP;
	__atomic_store_n(&p256_choice, c, __ATOMIC_RELEASE);
	return 0;
}
