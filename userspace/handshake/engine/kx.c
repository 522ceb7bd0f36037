// SPDX-License-Identifier: GPL-2.0
/*
 * kx.c - key shares and shared secrets for the groups of group.h's
 * table, through each row's operations (kx_x25519.c, kx_p256.c); the
 * contract is in kx.h.
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
	if (!g)
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
	ret = g->ops->validate(peer, peer_len);
	if (!ret)
		ret = g->ops->shared(out, kx->priv, peer, peer_len);
	if (ret)
		return ret;
	*out_len = g->secret_len;
	return 0;
}

void tlsx_kx_wipe(struct tlsx_kx *kx)
{
	memzero_explicit(kx, sizeof(*kx));
}
