// SPDX-License-Identifier: GPL-2.0
/*
 * c25519_impl.c - which Curve25519 implementation runs (c25519_impl.h).
 */
#include <stdlib.h>

#include "curve25519/c25519_impl.h"

bool c25519_impl_usable(const struct c25519_impl *impl)
{
	const struct tlsx_cpu *cpu = tlsx_cpu_features();

	if (impl == &c25519_mulx)
		return cpu->bmi2 && cpu->adx;
	return true;
}

static const struct c25519_impl *c25519_choose(void)
{
	const char *env = getenv("TLSX_X25519_IMPL");

	if (env && !strcmp(env, "generic"))
		return &c25519_generic;
	if (c25519_impl_usable(&c25519_mulx))
		return &c25519_mulx;
	return &c25519_generic;
}

const struct c25519_impl *c25519_impl_get(void)
{
	static const struct c25519_impl *chosen;
	const struct c25519_impl *impl;

	impl = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
	if (!impl) {
		impl = c25519_choose();
		__atomic_store_n(&chosen, impl, __ATOMIC_RELEASE);
	}
	return impl;
}
