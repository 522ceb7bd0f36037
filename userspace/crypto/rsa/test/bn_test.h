/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bn_test.h - what the bignum tests share: tlsx numbers to OpenSSL's
 * BIGNUM, random limbs, and the edge moduli and operands that make the
 * carries longest.  Test-only.
 */
#ifndef TLSX_BN_TEST_H
#define TLSX_BN_TEST_H

#include <stdlib.h>
#include <string.h>
#include <openssl/bn.h>

#include "rsa/bignum.h"
#include "rand/random.h"

/* @n limbs (up to twice BN_MAX_LIMBS and a carry) as a BIGNUM. */
static inline BIGNUM *to_bn(const u64 *a, size_t n)
{
	u8 b[(2 * BN_MAX_LIMBS + 2) * 8];

	bn_to_be(b, n * 8, a, n);
	return BN_bin2bn(b, (int)(n * 8), NULL);
}

static inline void rnd(u64 *a, size_t n)
{
	if (tlsx_random_bytes(a, n * 8))
		abort();
}

/*
 * Modulus number @kind of @n limbs, with limbs @n..@zero-1 cleared too
 * (for code that reads past @n): all ones, 2^(64n - 1) + 1,
 * 2^(64n - 1) + 2^(64n - 2) - 1, else random odd with the top bit set.
 */
static inline void edge_modulus(u64 *m, size_t n, int kind, size_t zero)
{
	memset(m, 0, (zero > n ? zero : n) * 8);
	switch (kind) {
	case 0:
		memset(m, 0xff, n * 8);
		break;
	case 1:
		m[0] = 1;
		m[n - 1] = 1ULL << 63;
		break;
	case 2:
		memset(m, 0xff, n * 8);
		m[n - 1] = (1ULL << 63) | ((1ULL << 62) - 1);
		break;
	default:
		rnd(m, n);
		m[0] |= 1;
		m[n - 1] |= 1ULL << 63;
	}
}

/*
 * Operand number @kind below the odd @m, limbs @n..@zero-1 cleared:
 * m - 1, m - 2, 1, 0, else random.
 */
static inline void edge_operand(u64 *a, const u64 *m, size_t n, int kind,
				size_t zero)
{
	if (zero > n)
		memset(a + n, 0, (zero - n) * 8);
	memcpy(a, m, n * 8);
	switch (kind) {
	case 0:
		a[0] -= 1;		/* m odd: no borrow */
		break;
	case 1:
		a[0] -= 2;
		break;
	case 2:
		memset(a, 0, n * 8);
		a[0] = 1;
		break;
	case 3:
		memset(a, 0, n * 8);
		break;
	default:
		rnd(a, n);
		a[n - 1] &= m[n - 1] >> 1;
	}
}

#endif /* TLSX_BN_TEST_H */
