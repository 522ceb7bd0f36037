// SPDX-License-Identifier: GPL-2.0
/*
 * bn_limbs.c - the limb helpers every layer of the integer code uses:
 * addition, subtraction, masks and conditional moves, schoolbook
 * multiplication and the big-endian conversions.  The bottom layer: it
 * calls nothing above it.
 *
 * Constant time: loops run over limb counts, which are public; values
 * only ever flow through arithmetic and masks.
 */
#include "rsa/bignum.h"

u64 bn_add(u64 *r, const u64 *a, const u64 *b, size_t n)
{
	u64 c = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned __int128 s = (unsigned __int128)a[i] + b[i] + c;

		r[i] = (u64)s;
		c = (u64)(s >> 64);
	}
	return c;
}

u64 bn_sub(u64 *r, const u64 *a, const u64 *b, size_t n)
{
	u64 borrow = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned __int128 d = (unsigned __int128)a[i] - b[i] - borrow;

		r[i] = (u64)d;
		/* The high half is all ones after a wrap-around. */
		borrow = (u64)(d >> 64) & 1;
	}
	return borrow;
}

void bn_cmov(u64 *r, const u64 *a, size_t n, u64 mask)
{
	size_t i;

	for (i = 0; i < n; i++)
		r[i] ^= (r[i] ^ a[i]) & mask;
}

u64 bn_lt_mask(const u64 *a, const u64 *b, size_t n)
{
	u64 borrow = 0;
	size_t i;

	/* The borrow out of a - b, without keeping the difference. */
	for (i = 0; i < n; i++) {
		unsigned __int128 d = (unsigned __int128)a[i] - b[i] - borrow;

		borrow = (u64)(d >> 64) & 1;
	}
	return 0 - borrow;
}

u64 bn_is_zero_mask(const u64 *a, size_t n)
{
	u64 acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc |= a[i];
	/* acc | -acc has its top bit set exactly when acc != 0. */
	return ((acc | (0 - acc)) >> 63) - 1;
}

u64 bn_eq_mask(const u64 *a, const u64 *b, size_t n)
{
	u64 acc = 0;
	size_t i;

	for (i = 0; i < n; i++)
		acc |= a[i] ^ b[i];
	return ((acc | (0 - acc)) >> 63) - 1;
}

void bn_mul(u64 *r, const u64 *a, size_t na, const u64 *b, size_t nb)
{
	size_t i, j;

	memset(r, 0, (na + nb) * 8);
	for (i = 0; i < nb; i++) {
		u64 c = 0;

		for (j = 0; j < na; j++) {
			unsigned __int128 t = (unsigned __int128)a[j] * b[i] +
					      r[i + j] + c;

			r[i + j] = (u64)t;
			c = (u64)(t >> 64);
		}
		r[i + na] = c;
	}
}

int bn_from_be(u64 *r, size_t n, const u8 *in, size_t len)
{
	size_t i;

	/* Extra leading bytes must be zero; their count is public. */
	while (len > n * 8) {
		if (*in)
			return -EINVAL;
		in++;
		len--;
	}
	memset(r, 0, n * 8);
	for (i = 0; i < len; i++)
		r[i / 8] |= (u64)in[len - 1 - i] << (8 * (i % 8));
	return 0;
}

void bn_to_be(u8 *out, size_t len, const u64 *a, size_t n)
{
	size_t i;

	for (i = 0; i < len; i++)
		out[len - 1 - i] = i / 8 < n ? (u8)(a[i / 8] >> (8 * (i % 8)))
					     : 0;
}
