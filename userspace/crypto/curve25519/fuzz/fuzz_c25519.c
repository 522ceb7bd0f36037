// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_c25519.c - libFuzzer target for the Curve25519 code that takes
 * what a peer sends, checking the two implementations (generic, and
 * mulx when the CPU has BMI2 and ADX) against each other on hostile
 * input:
 *
 *  - the first 32 bytes as an X25519 peer value: both ladders agree, and
 *    tlsx_x25519() refuses exactly the all-zero results;
 *  - the first 32 bytes as a scalar: the fixed-base public key equals
 *    the ladder on u = 9, on both implementations;
 *  - pub (32) || sig (64) || message (the rest) to Ed25519 verification:
 *    both implementations give the same answer, 0 or -EBADMSG.
 */
#include <stdlib.h>
#include <string.h>

#include "curve25519/x25519.h"
#include "curve25519/ed25519.h"
#include "curve25519/c25519_impl.h"

static void check_x25519(const struct c25519_impl *a,
			 const struct c25519_impl *b, const u8 in[32])
{
	static const u8 priv[32] = { 0x40, [31] = 0x5a };
	u8 nine[32] = { 9 }, o1[32], o2[32], zero[32] = { 0 };
	int ret;

	a->x25519(o1, priv, in);
	b->x25519(o2, priv, in);
	if (memcmp(o1, o2, 32))
		abort();
	ret = tlsx_x25519(o2, priv, in);
	if (ret != (memcmp(o1, zero, 32) ? 0 : -EINVAL))
		abort();
	if (memcmp(o1, o2, 32))
		abort();

	a->x25519_base(o1, in);
	b->x25519(o2, in, nine);
	if (memcmp(o1, o2, 32))
		abort();
	b->x25519_base(o2, in);
	if (memcmp(o1, o2, 32))
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const struct c25519_impl *a = &c25519_generic, *b = &c25519_generic;
	int r1, r2;

	if (c25519_impl_usable(&c25519_mulx))
		b = &c25519_mulx;
	if (size >= 32)
		check_x25519(a, b, data);
	if (size >= 96) {
		r1 = c25519_ed25519_verify(a, data + 32, data, data + 96,
					   size - 96);
		r2 = c25519_ed25519_verify(b, data + 32, data, data + 96,
					   size - 96);
		if (r1 != r2 || (r1 && r1 != -EBADMSG))
			abort();
		if (tlsx_ed25519_verify(data + 32, data, data + 96,
					size - 96) != r1)
			abort();
	}
	return 0;
}
