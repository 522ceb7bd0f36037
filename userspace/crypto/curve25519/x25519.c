// SPDX-License-Identifier: GPL-2.0
/*
 * x25519.c - X25519 (RFC 7748): the API of x25519.h over the
 * implementation c25519_impl_get() chose.
 */
#include "curve25519/x25519.h"
#include "rand/random.h"
#include "curve25519/c25519_impl.h"
#include "aead/stack_wipe.h"

/*
 * What the ladder and the fixed-base code leave in the stack (field
 * elements the compiler spilled) is wiped after each call: they reach
 * about 1.1 KiB below the caller, 2.1 KiB on the portable code
 * (test_stack_depth).
 */
#define X25519_STACK_WIPE	2816

int tlsx_x25519(u8 shared[X25519_KEY_SIZE], const u8 priv[X25519_KEY_SIZE],
		const u8 peer[X25519_KEY_SIZE])
{
	u64 acc = 0, zero;
	int i;

	c25519_impl_get()->x25519(shared, priv, peer);
	tlsx_stack_wipe_user(X25519_STACK_WIPE);

	/*
	 * An all-zero result means a small-order peer point; the check
	 * and the wipe are masks, so nothing branches on the secret result
	 * here (the caller branches on the returned error, which is public
	 * by then).
	 */
	for (i = 0; i < X25519_KEY_SIZE; i++)
		acc |= shared[i];
	zero = (acc - 1) >> 63;
	for (i = 0; i < X25519_KEY_SIZE; i++)
		shared[i] &= (u8)(zero - 1);
	return (int)(0 - zero) & -EINVAL;
}

void tlsx_x25519_public(u8 pub[X25519_KEY_SIZE],
			const u8 priv[X25519_KEY_SIZE])
{
	c25519_impl_get()->x25519_base(pub, priv);
	tlsx_stack_wipe_user(X25519_STACK_WIPE);
}

int tlsx_x25519_keygen(u8 priv[X25519_KEY_SIZE], u8 pub[X25519_KEY_SIZE])
{
	int err = tlsx_random_bytes(priv, X25519_KEY_SIZE);

	if (err)
		return err;
	tlsx_x25519_public(pub, priv);
	return 0;
}

const char *tlsx_x25519_impl(void)
{
	return c25519_impl_get()->name;
}
