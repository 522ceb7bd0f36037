// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the tlsx module: registration of the TCP upper-layer protocol.
 *
 * A program attaches tlsx exactly as it attaches the kernel's kTLS:
 * setsockopt(fd, SOL_TCP, TCP_ULP, "tlsx") on a connected TCP socket.  The
 * TCP core takes a reference on this module for every socket that has the
 * ULP attached and drops it when the socket is destroyed, so the module
 * cannot be unloaded under a live socket.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <net/tcp.h>

#include "tlsx.h"
#include "tlsx_aead.h"

static int tlsx_init(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tlsx_context *ctx;

	/*
	 * Like kTLS, only an established connection (-ENOTCONN otherwise,
	 * listening sockets included): a listening socket would need its
	 * context cloned on accept.
	 */
	if (sk->sk_state != TCP_ESTABLISHED)
		return -ENOTCONN;

	ctx = kzalloc(sizeof(*ctx), GFP_ATOMIC);
	if (!ctx)
		return -ENOMEM;
	ctx->sk = sk;
	ctx->sk_proto = READ_ONCE(sk->sk_prot);

	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(icsk->icsk_ulp_data, ctx);
	write_unlock_bh(&sk->sk_callback_lock);
	return 0;
}

/* Called by the TCP core when the socket is destroyed. */
static void tlsx_release(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	write_unlock_bh(&sk->sk_callback_lock);
	kfree(ctx);
}

static struct tcp_ulp_ops tlsx_ulp_ops __read_mostly = {
	.name		= "tlsx",
	.owner		= THIS_MODULE,
	.init		= tlsx_init,
	.release	= tlsx_release,
};

static int __init tlsx_module_init(void)
{
	int err;

	/* Refuse to load with an engine that gets a known answer wrong. */
	err = tlsx_aead_module_init();
	if (err)
		return err;
	tlsx_debugfs_init();
	err = tcp_register_ulp(&tlsx_ulp_ops);
	if (err)
		tlsx_debugfs_exit();
	return err;
}

static void __exit tlsx_module_exit(void)
{
	tcp_unregister_ulp(&tlsx_ulp_ops);
	tlsx_debugfs_exit();
}

module_init(tlsx_module_init);
module_exit(tlsx_module_exit);

MODULE_DESCRIPTION("tlsx: TLS record layer as a TCP upper-layer protocol");
MODULE_LICENSE("GPL");
