/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx.h - the per-socket state of the tlsx upper-layer protocol.
 *
 * One context per socket, reached from the socket in one step through
 * inet_csk(sk)->icsk_ulp_data, as the kernel's kTLS does.
 */
#ifndef TLSX_KMOD_TLSX_H
#define TLSX_KMOD_TLSX_H

#include <net/sock.h>
#include <net/inet_connection_sock.h>

struct tlsx_context {
	struct sock *sk;
	/* The protocol ops the socket had before tlsx attached. */
	struct proto *sk_proto;
};

static inline struct tlsx_context *tlsx_get_ctx(const struct sock *sk)
{
	/* Written once under sk_callback_lock before tlsx is visible. */
	return (__force void *)rcu_access_pointer(inet_csk(sk)->icsk_ulp_data);
}

#endif /* TLSX_KMOD_TLSX_H */
