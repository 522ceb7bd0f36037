/* SPDX-License-Identifier: GPL-2.0 */
/*
 * c25519_impl.h - the Curve25519 implementations behind x25519.c and
 * ed25519.c: the same algorithms (x25519_ladder_tmpl.h, ge25519_tmpl.h)
 * over each field representation of fe25519.h.
 */
#ifndef TLSX_C25519_IMPL_H
#define TLSX_C25519_IMPL_H

#include "aead/platform.h"

struct c25519_impl {
	const char *name;
	/* X25519(scalar, point) by the ladder; scalar clamped inside. */
	void (*x25519)(u8 out[32], const u8 scalar[32], const u8 point[32]);
	/* X25519(scalar, 9) from the fixed-base Edwards table. */
	void (*x25519_base)(u8 out[32], const u8 scalar[32]);
	/* The encoding of a B, for a < 2^255 (a clamped Ed25519 scalar). */
	void (*ed25519_base)(u8 out[32], const u8 a[32]);
	/*
	 * The encoding of s B - h A for A the decoding of @pub; -1 when
	 * @pub does not decode.  Variable-time: public inputs only.
	 */
	int (*ed25519_dsm)(u8 out[32], const u8 pub[32], const u8 h[32],
			   const u8 s[32]);
};

extern const struct c25519_impl c25519_generic;
extern const struct c25519_impl c25519_mulx;

/* Whether @impl runs on this CPU. */
bool c25519_impl_usable(const struct c25519_impl *impl);

/*
 * The implementation in use, chosen once: mulx when the CPU has BMI2 and
 * ADX, unless TLSX_X25519_IMPL=generic is in the environment.  X25519
 * and Ed25519 both follow it.
 */
const struct c25519_impl *c25519_impl_get(void);

/*
 * Ed25519 on a given implementation (ed25519.c): what the API of
 * ed25519.h does on c25519_impl_get(), for tests of every one.
 */
struct tlsx_ed25519_key;
/* noinline: their frames lie under the entry points' stack wipe */
noinline void c25519_ed25519_key_from_seed(const struct c25519_impl *impl,
					    struct tlsx_ed25519_key *k,
					    const u8 seed[32]);
noinline void c25519_ed25519_sign(const struct c25519_impl *impl,
				  u8 sig[64],
				  const struct tlsx_ed25519_key *k,
				  const u8 *msg, size_t len);
int c25519_ed25519_verify(const struct c25519_impl *impl, const u8 sig[64],
			  const u8 pub[32], const u8 *msg, size_t len);

#endif /* TLSX_C25519_IMPL_H */
