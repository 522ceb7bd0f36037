// SPDX-License-Identifier: GPL-2.0
/*
 * kx.c - key shares and shared secrets for the groups of group.h's
 * table, through each row's operations (kx_x25519.c, kx_p256.c,
 * kx_hybrid.c); the contract is in kx.h.
 */
#include "handshake/engine/kx.h"

bool tlsx_kx_supported(u16 group)
{
	return tlsx_group_find(group) != NULL;
}

int tlsx_kx_generate(struct tlsx_kx *kx, u16 group, bool server,
		     int (*rand)(void *ctx, void *buf, size_t len),
		     void *rand_ctx)
{
	const struct tlsx_group *g = tlsx_group_find(group);
	int ret;

	memset(kx, 0, sizeof(*kx));
	/* A KEM's server share comes from the client's: tlsx_kx_respond(). */
	if (!g || (server && g->ops->encaps))
		return -EINVAL;
	ret = g->ops->keygen(kx->priv, kx->pub, rand, rand_ctx);
	if (ret) {
		tlsx_kx_wipe(kx);
		return ret;
	}
	kx->group = group;
	kx->server = server;
	return 0;
}

size_t tlsx_kx_pub_len(const struct tlsx_kx *kx)
{
	const struct tlsx_group *g = tlsx_group_find(kx->group);

	if (!g)
		return 0;
	return kx->server ? g->server_share : g->client_share;
}

int tlsx_kx_shared(const struct tlsx_kx *kx, const u8 *peer, size_t peer_len,
		   u8 out[TLSX_KX_MAX_SHARED], size_t *out_len)
{
	const struct tlsx_group *g = tlsx_group_find(kx->group);
	int ret;

	*out_len = 0;
	if (!g)
		return -EINVAL;
	/* 4.2.8.2: each group's key_exchange has one size. */
	if (peer_len != (kx->server ? g->client_share : g->server_share))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* A KEM's shared (the client's decapsulation) checks its input. */
	ret = g->ops->encaps ? 0 : g->ops->validate(peer, peer_len);
	if (!ret)
		ret = g->ops->shared(out, kx->priv, kx->pub, peer, peer_len);
	if (ret) {
		memzero_explicit(out, g->secret_len);
		return ret;
	}
	*out_len = g->secret_len;
	return 0;
}

int tlsx_kx_respond(struct tlsx_kx *kx, u16 group, const u8 *peer,
		    size_t peer_len,
		    int (*rand)(void *ctx, void *buf, size_t len),
		    void *rand_ctx, u8 out[TLSX_KX_MAX_SHARED],
		    size_t *out_len)
{
	const struct tlsx_group *g = tlsx_group_find(group);
	int ret;

	*out_len = 0;
	if (!g || !g->ops->encaps) {
		ret = tlsx_kx_generate(kx, group, true, rand, rand_ctx);
		if (!ret)
			ret = tlsx_kx_shared(kx, peer, peer_len, out, out_len);
		/* Only our share is needed from here on. */
		memzero_explicit(kx->priv, sizeof(kx->priv));
		return ret;
	}
	memset(kx, 0, sizeof(*kx));
	/* 4.2.8: each group's key_exchange has one size. */
	if (peer_len != g->client_share)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	ret = g->ops->validate(peer, peer_len);
	if (!ret)
		ret = g->ops->encaps(out, kx->pub, peer, peer_len, rand,
				     rand_ctx);
	if (ret) {
		memzero_explicit(out, g->secret_len);
		tlsx_kx_wipe(kx);
		return ret;
	}
	kx->group = group;
	kx->server = true;
	*out_len = g->secret_len;
	return 0;
}

void tlsx_kx_wipe(struct tlsx_kx *kx)
{
	memzero_explicit(kx, sizeof(*kx));
}
