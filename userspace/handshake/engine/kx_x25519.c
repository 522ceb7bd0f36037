// SPDX-License-Identifier: GPL-2.0
/*
 * kx_x25519.c - the x25519 group's key exchange (RFC 8446 4.2.8.2,
 * 7.4.2; RFC 7748), group.h's struct tlsx_kx_ops.
 */
#include "curve25519/x25519.h"
#include "handshake/engine/kx.h"

static int x25519_keygen(u8 *priv, u8 *pub,
			 int (*rand)(void *ctx, void *buf, size_t len),
			 void *rand_ctx)
{
	/* RFC 7748 5: any 32 bytes; X25519 clamps them itself. */
	int ret = rand(rand_ctx, priv, X25519_KEY_SIZE);

	if (!ret)
		tlsx_x25519_public(pub, priv);
	return ret;
}

/* 4.2.8.2: any 32 bytes (kx.c checked the length). */
static int x25519_validate(const u8 *peer, size_t len)
{
	(void)peer;
	(void)len;
	return 0;
}

static int x25519_shared(u8 *out, const u8 *priv, const u8 *pub,
			 const u8 *peer, size_t len)
{
	(void)pub;
	(void)len;
	/*
	 * 7.4.2: "implementations MUST check whether the computed
	 * Diffie-Hellman shared secret is the all-zero value and abort if
	 * so" (a small-order point).
	 */
	if (tlsx_x25519(out, priv, peer))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

const struct tlsx_kx_ops tlsx_kx_x25519 = {
	.keygen = x25519_keygen,
	.validate = x25519_validate,
	.shared = x25519_shared,
};
