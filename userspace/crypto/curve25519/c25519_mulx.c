// SPDX-License-Identifier: GPL-2.0
/*
 * c25519_mulx.c - X25519 and the Edwards25519 group over the MULX/ADX
 * field (struct fe64, fe25519_mulx.h): the templates instantiated once.
 * Reached only through c25519_impl_get() or after c25519_impl_usable().
 */
#include "curve25519/fe25519_mulx.h"
#include "curve25519/ge25519_table.h"
#include "curve25519/c25519_impl.h"

#include <emmintrin.h>

#define FE		struct fe64
#define F(op)		fe64_##op
#define PFX(name)	c25519_mulx_##name
#define ATTR		__attribute__((target("bmi2,adx")))

#include "curve25519/fe25519_pow_tmpl.h"
#include "curve25519/x25519_ladder_tmpl.h"
#include "curve25519/ge25519_tmpl.h"

const struct c25519_impl c25519_mulx = {
	.name = "mulx",
	.x25519 = c25519_mulx_x25519_ladder,
	.x25519_base = c25519_mulx_x25519_base,
	.ed25519_base = c25519_mulx_ed25519_base,
	.ed25519_dsm = c25519_mulx_ed25519_dsm,
};
