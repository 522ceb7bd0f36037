/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x25519.h - X25519 Diffie-Hellman (RFC 7748).  Constant-time in the
 * private key; secrets on the stack are wiped.
 */
#ifndef TLSX_X25519_H
#define TLSX_X25519_H

#include "aead/platform.h"

#define X25519_KEY_SIZE	32

/*
 * shared = X25519(priv, peer).  -EINVAL (and a zeroed @shared) when the
 * result is all zeros, i.e. the peer sent a small-order point (RFC 7748
 * section 6.1, RFC 8446 section 7.4.2).
 */
int tlsx_x25519(u8 shared[X25519_KEY_SIZE], const u8 priv[X25519_KEY_SIZE],
		const u8 peer[X25519_KEY_SIZE]);

/* pub = X25519(priv, 9), by a fixed-base method faster than the ladder. */
void tlsx_x25519_public(u8 pub[X25519_KEY_SIZE],
			const u8 priv[X25519_KEY_SIZE]);

/* A fresh private key from tlsx_random_bytes() and its public key. */
int tlsx_x25519_keygen(u8 priv[X25519_KEY_SIZE], u8 pub[X25519_KEY_SIZE]);

/* "mulx" (BMI2+ADX) or "generic"; TLSX_X25519_IMPL=generic forces C. */
const char *tlsx_x25519_impl(void);

#endif /* TLSX_X25519_H */
