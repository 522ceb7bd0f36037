// SPDX-License-Identifier: GPL-2.0
/*
 * pending.c - TEMPORARY weak stand-ins for the entry points of tx.c, rx.c
 * and strp.c while those files are being written, so that the module
 * links and the control plane (setsockopt, getsockopt, close, the
 * counters) can be tested with real keys.  Each real definition overrides
 * its stand-in at link time.  This file is deleted as soon as tx.c, rx.c
 * and strp.c define everything.
 *
 * The stand-ins carry no data: setkey accepts the keys (main.c keeps
 * them), the data calls fail with -EOPNOTSUPP, the callbacks pass through
 * to the socket's own.
 */
#include <linux/poll.h>
#include <net/tcp.h>

#include "tlsx.h"

int __weak tlsx_tx_setkey(struct sock *sk, struct tlsx_context *ctx,
			  const struct tlsx_crypto *c, bool rekey)
{
	if (rekey)
		memcpy(ctx->crypto_tx, c, sizeof(*c));
	return 0;
}

int __weak tlsx_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	return -EOPNOTSUPP;
}

void __weak tlsx_splice_eof(struct socket *sock)
{
}

void __weak tlsx_tx_flush_on_close(struct sock *sk, long *timeo)
{
}

void __weak tlsx_write_space(struct sock *sk)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	if (ctx)
		ctx->sk_write_space(sk);
}

void __weak tlsx_tx_free(struct sock *sk, struct tlsx_context *ctx)
{
}

int __weak tlsx_rx_setkey(struct sock *sk, struct tlsx_context *ctx,
			  const struct tlsx_crypto *c, bool rekey)
{
	if (rekey)
		memcpy(ctx->crypto_rx, c, sizeof(*c));
	return 0;
}

int __weak tlsx_recvmsg(struct sock *sk, struct msghdr *msg, size_t len,
			int flags, int *addr_len)
{
	return -EOPNOTSUPP;
}

ssize_t __weak tlsx_splice_read(struct socket *sock, loff_t *ppos,
				struct pipe_inode_info *pipe, size_t len,
				unsigned int flags)
{
	return -EOPNOTSUPP;
}

__poll_t __weak tlsx_poll(struct file *file, struct socket *sock,
			  struct poll_table_struct *wait)
{
	return tcp_poll(file, sock, wait) & ~(EPOLLIN | EPOLLRDNORM);
}

bool __weak tlsx_sock_is_readable(struct sock *sk)
{
	return false;
}

void __weak tlsx_data_ready(struct sock *sk)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	if (ctx)
		ctx->sk_data_ready(sk);
}

void __weak tlsx_rx_stop(struct sock *sk, struct tlsx_context *ctx)
{
}

void __weak tlsx_rx_free(struct sock *sk, struct tlsx_context *ctx)
{
}
