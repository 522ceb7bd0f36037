// SPDX-License-Identifier: GPL-2.0
/*
 * proto.c - the tables of struct proto and struct proto_ops a tlsx socket
 * switches between, and the switch.  Attaching the ULP (main.c) and
 * setting a key (sockopt.c) call tlsx_update_sk_prot(); main.c fills the
 * tables with its entry points.  Nothing here calls either, so the calls
 * between the files point one way.
 */
#include <net/tcp.h>

#include "tlsx_context.h"

static struct tlsx_protos tlsx_protos[TLSX_NUM_FAMILIES];

struct tlsx_protos *tlsx_protos_of(const struct sock *sk)
{
	return &tlsx_protos[sk->sk_family == AF_INET6 ? TLSX_V6 : TLSX_V4];
}

void tlsx_update_sk_prot(struct sock *sk, struct tlsx_context *ctx)
{
	struct tlsx_protos *t = tlsx_protos_of(sk);
	int tx = ctx->crypto_tx != NULL;
	int rx = ctx->crypto_rx != NULL;

	WRITE_ONCE(sk->sk_prot, &t->prot[tx][rx]);
	WRITE_ONCE(sk->sk_socket->ops, &t->ops[tx][rx]);
}
