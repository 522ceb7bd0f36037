// SPDX-License-Identifier: GPL-2.0
/*
 * c25519_generic.c - X25519 and the Edwards25519 group over the portable
 * radix-2^51 field (struct fe51): the templates instantiated once.  The
 * only instructions beyond plain C are SSE2 in the fixed-base table scan,
 * which every x86-64 CPU has.
 */
#include "curve25519/fe25519_51.h"
#include "curve25519/ge25519_table.h"
#include "curve25519/c25519_impl.h"

#include <emmintrin.h>

#define FE		struct fe51
#define F(op)		fe51_##op
#define PFX(name)	c25519_generic_##name
#define ATTR

#include "curve25519/fe25519_pow_tmpl.h"
#include "curve25519/x25519_ladder_tmpl.h"
#include "curve25519/ge25519_tmpl.h"

const struct c25519_impl c25519_generic = {
	.name = "generic",
	.x25519 = c25519_generic_x25519_ladder,
	.x25519_base = c25519_generic_x25519_base,
	.ed25519_base = c25519_generic_ed25519_base,
	.ed25519_dsm = c25519_generic_ed25519_dsm,
};
