// SPDX-License-Identifier: GPL-2.0
/*
 * peer_chain.c - the peer's certificates kept after the handshake
 * (hs.h's tlsx_hs_peer_cert()), for a caller that wants to log, pin or
 * authorise by them.  The engine checks a chain where it lies (the
 * caller's buffer, or the message being gathered) and keeps nothing of
 * it unless the configuration asks: then one allocation holds the DER
 * back to back, sized to what the peer sent, so its bound is max_msg.
 */
#include <stdlib.h>

#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"

_Static_assert(TLSX_HS_MAX_PEER_CERTS == TLSX_CERT_MAX_CHAIN,
	       "hs_parse_certificate() bounds the chain kept");

int hs_keep_peer_chain(struct tlsx_hs *hs, const u8 *const *certs,
		       const size_t *lens, size_t n)
{
	struct tlsx_peer_chain *pc;
	size_t i, total = 0;

	if (!hs->cfg->keep_peer_chain || !n)
		return 0;
	if (n > TLSX_HS_MAX_PEER_CERTS)
		return -EINVAL;
	/* The lengths came from one message of at most max_msg bytes. */
	for (i = 0; i < n; i++)
		total += lens[i];
	pc = malloc(sizeof(*pc) + total);
	if (!pc)
		return -ENOMEM;
	pc->n = n;
	pc->size = sizeof(*pc) + total;
	for (i = 0, total = 0; i < n; i++) {
		pc->off[i] = total;
		pc->len[i] = lens[i];
		memcpy(pc->der + total, certs[i], lens[i]);
		total += lens[i];
	}
	/* One Certificate per handshake: a second would replace the first. */
	tlsx_peer_chain_free(hs->peer_chain);
	hs->peer_chain = pc;
	return 0;
}

int tlsx_peer_chain_cert(const struct tlsx_peer_chain *pc, size_t index,
			 const u8 **der, size_t *len)
{
	if (!pc || index >= pc->n)
		return -ENOENT;
	*der = pc->der + pc->off[index];
	*len = pc->len[index];
	return 0;
}

int tlsx_hs_peer_cert(const struct tlsx_hs *hs, size_t index, const u8 **der,
		      size_t *len)
{
	return tlsx_peer_chain_cert(hs->peer_chain, index, der, len);
}

struct tlsx_peer_chain *tlsx_hs_take_peer_chain(struct tlsx_hs *hs)
{
	struct tlsx_peer_chain *pc = hs->peer_chain;

	hs->peer_chain = NULL;
	return pc;
}

size_t tlsx_peer_chain_size(const struct tlsx_peer_chain *pc)
{
	return pc ? pc->size : 0;
}

void tlsx_peer_chain_free(struct tlsx_peer_chain *pc)
{
	free(pc);
}
