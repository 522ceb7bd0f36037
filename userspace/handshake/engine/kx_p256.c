// SPDX-License-Identifier: GPL-2.0
/*
 * kx_p256.c - the secp256r1 group's key exchange (RFC 8446 4.2.8.2,
 * 7.4.1), group.h's struct tlsx_kx_ops.
 */
#include "p256/p256.h"
#include "handshake/engine/kx.h"

/* A random scalar in [1, n-1] is drawn in one try but for ~2^-32. */
#define KX_P256_TRIES	8

static int p256_keygen(u8 *priv, u8 *pub,
		       int (*rand)(void *ctx, void *buf, size_t len),
		       void *rand_ctx)
{
	int i, ret;

	/* Rejection sampling: uniform in [1, n-1] (FIPS 186-5 A.2.2). */
	for (i = 0; i < KX_P256_TRIES; i++) {
		ret = rand(rand_ctx, priv, P256_SCALAR_SIZE);
		if (ret)
			return ret;
		if (!tlsx_p256_check_private(priv))
			break;
	}
	if (i == KX_P256_TRIES)
		return -EIO;
	return tlsx_p256_public(pub, priv);
}

/*
 * 4.2.8.2: UncompressedPointRepresentation only (legacy_form 4), and
 * "peers MUST validate each other's public value Q by ensuring that the
 * point is a valid point on the elliptic curve".
 */
static int p256_validate(const u8 *peer, size_t len)
{
	if (peer[0] != 0x04 || tlsx_p256_check_public(peer, len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

static int p256_shared(u8 *out, const u8 *priv, const u8 *pub,
		       const u8 *peer, size_t len)
{
	(void)pub;
	if (tlsx_p256_ecdh(out, priv, peer, len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

const struct tlsx_kx_ops tlsx_kx_p256 = {
	.keygen = p256_keygen,
	.validate = p256_validate,
	.shared = p256_shared,
};
