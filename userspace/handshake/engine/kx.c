// SPDX-License-Identifier: GPL-2.0
/*
 * kx.c - X25519 and secp256r1 key shares (RFC 8446 4.2.8, 7.4); the
 * contract is in kx.h.
 */
#include "curve25519/x25519.h"
#include "p256/p256.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/kx.h"

/* A random scalar in [1, n-1] is drawn in one try but for ~2^-32. */
#define KX_P256_TRIES	8

bool tlsx_kx_supported(u16 group)
{
	return group == TLSX_GROUP_X25519 || group == TLSX_GROUP_SECP256R1;
}

int tlsx_kx_generate(struct tlsx_kx *kx, u16 group,
		     int (*rand)(void *ctx, void *buf, size_t len),
		     void *rand_ctx)
{
	int i, ret;

	memset(kx, 0, sizeof(*kx));
	switch (group) {
	case TLSX_GROUP_X25519:
		/* RFC 7748 5: any 32 bytes; X25519 clamps them itself. */
		ret = rand(rand_ctx, kx->priv, X25519_KEY_SIZE);
		if (ret)
			goto fail;
		tlsx_x25519_public(kx->pub, kx->priv);
		kx->pub_len = X25519_KEY_SIZE;
		break;
	case TLSX_GROUP_SECP256R1:
		/* Rejection sampling: uniform in [1, n-1] (FIPS 186-5 A.2.2). */
		for (i = 0; i < KX_P256_TRIES; i++) {
			ret = rand(rand_ctx, kx->priv, P256_SCALAR_SIZE);
			if (ret)
				goto fail;
			if (!tlsx_p256_check_private(kx->priv))
				break;
		}
		ret = i == KX_P256_TRIES ? -EIO :
		      tlsx_p256_public(kx->pub, kx->priv);
		if (ret)
			goto fail;
		kx->pub_len = P256_POINT_SIZE;
		break;
	default:
		return -EINVAL;
	}
	kx->group = group;
	return 0;
fail:
	tlsx_kx_wipe(kx);
	return ret;
}

int tlsx_kx_shared(const struct tlsx_kx *kx, const u8 *peer, size_t peer_len,
		   u8 out[TLSX_KX_MAX_SHARED], size_t *out_len)
{
	*out_len = 0;
	switch (kx->group) {
	case TLSX_GROUP_X25519:
		/* RFC 8446 4.2.8.2: X25519's key_exchange is 32 bytes. */
		if (peer_len != X25519_KEY_SIZE)
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		/*
		 * 7.4.2: "implementations MUST check whether the computed
		 * Diffie-Hellman shared secret is the all-zero value and
		 * abort if so" (a small-order point).
		 */
		if (tlsx_x25519(out, kx->priv, peer))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		break;
	case TLSX_GROUP_SECP256R1:
		/*
		 * 4.2.8.2: UncompressedPointRepresentation only (legacy_form
		 * 4), and "peers MUST validate each other's public value Q
		 * by ensuring that the point is a valid point on the
		 * elliptic curve".
		 */
		if (peer_len != P256_POINT_SIZE || peer[0] != 0x04 ||
		    tlsx_p256_check_public(peer, peer_len))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		if (tlsx_p256_ecdh(out, kx->priv, peer, peer_len))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		break;
	default:
		return -EINVAL;
	}
	*out_len = 32;
	return 0;
}

void tlsx_kx_wipe(struct tlsx_kx *kx)
{
	memzero_explicit(kx, sizeof(*kx));
}
