// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the tlsx module: registration of the TCP upper-layer protocol,
 * the socket's protocol ops, close, and the context's lifetime.
 *
 * A program attaches tlsx exactly as it attaches the kernel's kTLS:
 * setsockopt(fd, SOL_TCP, TCP_ULP, "tlsx") on a connected TCP socket.  The
 * TCP core takes a reference on this module for every socket that has the
 * ULP attached and drops it when the socket is destroyed
 * (tcp_cleanup_ulp()), so the module cannot be unloaded under a live
 * socket; nothing here takes or drops module references itself.
 *
 * The socket's struct proto and struct proto_ops are switched, never
 * patched: for each address family there is a table (proto.c) of copies
 * of the TCP ones, one per combination of {TX off, on} x {RX off, on},
 * as kTLS builds them; this file fills them with its entry points.  The
 * IPv6 table is built when the first IPv6 socket attaches, so the module
 * does not depend on the ipv6 module.
 */
#include <linux/inet_diag.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <net/tcp.h>

#include "tlsx_context.h"
#include "tlsx_aead.h"

/* Serialises the builds of the tables in proto.c. */
static DEFINE_MUTEX(tlsx_prot_mutex);

static char tlsx_ulp_name[TCP_ULP_NAME_MAX] = "tlsx";
module_param_string(ulp_name, tlsx_ulp_name, sizeof(tlsx_ulp_name), 0444);
MODULE_PARM_DESC(ulp_name,
		 "ULP name: \"tlsx\" (default) or \"tls\" (drop-in for the kernel's kTLS, which must not be loaded)");

/* kTLS refuses disconnect (connect(AF_UNSPEC)) with a ULP attached. */
static int tlsx_disconnect(struct sock *sk, int flags)
{
	return -EOPNOTSUPP;
}

/*
 * close(): push what TX still holds, stop RX, put the socket back to TCP,
 * free the directions, then let TCP close.  The context is freed after an
 * RCU grace period: inet_diag's get_info reads it under rcu_read_lock().
 * kfree_rcu() rather than call_rcu() with a callback of ours: TCP's close
 * drops the socket's module reference, so an rmmod may complete before
 * the grace period ends, and the callback must not be module code.
 */
static void tlsx_close(struct sock *sk, long timeout)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	bool tx, rx;

	lock_sock(sk);
	tx = ctx->crypto_tx;
	rx = ctx->crypto_rx;
	/* Never waits for the peer, unlike kTLS 6.12 (see tx.c). */
	if (tx)
		tlsx_tx_flush_on_close(sk);
	if (rx)
		tlsx_rx_stop(sk, ctx);

	write_lock_bh(&sk->sk_callback_lock);
	WRITE_ONCE(sk->sk_prot, ctx->sk_proto);
	if (sk->sk_socket)
		WRITE_ONCE(sk->sk_socket->ops, ctx->sk_proto_ops);
	if (sk->sk_write_space == tlsx_write_space)
		sk->sk_write_space = ctx->sk_write_space;
	if (sk->sk_data_ready == tlsx_data_ready)
		WRITE_ONCE(sk->sk_data_ready, ctx->sk_data_ready);
	write_unlock_bh(&sk->sk_callback_lock);
	release_sock(sk);

	/*
	 * Unlocked so that work items taking the socket lock can be
	 * cancelled; tlsx_get_ctx() still finds the context meanwhile.
	 */
	if (tx) {
		tlsx_tx_free(sk, ctx);
		tlsx_stat_dec(sk, TLSX_STAT_CURR_TX_SW);
	}
	if (rx) {
		tlsx_rx_free(sk, ctx);
		tlsx_stat_dec(sk, TLSX_STAT_CURR_RX_SW);
	}
	tlsx_crypto_free(ctx->crypto_tx);
	tlsx_crypto_free(ctx->crypto_rx);
	ctx->crypto_tx = NULL;
	ctx->crypto_rx = NULL;

	/*
	 * Before TCP's close: it may destroy the socket, and then our
	 * release must find no context.
	 */
	write_lock_bh(&sk->sk_callback_lock);
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	write_unlock_bh(&sk->sk_callback_lock);

	ctx->sk_proto->close(sk, timeout);
	kfree_rcu(ctx, rcu);
}

/*
 * proto_ops.shutdown with TX on: what TX holds goes before the FIN (kTLS
 * 6.12 drops it).  The flush must come before inet_shutdown() marks the
 * socket SEND_SHUTDOWN, after which TCP takes no more data; when records
 * are still waiting for room in TCP, TX sends the FIN after them and only
 * the receive side is shut here.
 */
static int tlsx_sock_shutdown(struct socket *sock, int how)
{
	struct sock *sk = sock->sk;
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	/* A non-blocking socket's shutdown does not wait either. */
	long timeo = sock_sndtimeo(sk, sock->file &&
				   (sock->file->f_flags & O_NONBLOCK));
	bool fin_now = true;

	/* SHUT_WR and SHUT_RDWR; anything else is TCP's to refuse. */
	if (how == SHUT_WR || how == SHUT_RDWR) {
		lock_sock(sk);
		if (ctx->tx)
			fin_now = tlsx_tx_flush_on_shutdown(sk, &timeo);
		release_sock(sk);
	}
	if (fin_now)
		return ctx->sk_proto_ops->shutdown(sock, how);
	return how == SHUT_RDWR ? ctx->sk_proto_ops->shutdown(sock, SHUT_RD) :
				  0;
}

static void tlsx_build_protos(struct proto prot[2][2],
			      const struct proto *base)
{
	int tx;

	prot[0][0] = *base;
	prot[0][0].setsockopt = tlsx_setsockopt;
	prot[0][0].getsockopt = tlsx_getsockopt;
	prot[0][0].disconnect = tlsx_disconnect;
	prot[0][0].close = tlsx_close;

	prot[1][0] = prot[0][0];
	prot[1][0].sendmsg = tlsx_sendmsg;
	/* splice_eof; 6.1's sendpage (compat.h) */
	tlsx_compat_tx_proto(&prot[1][0]);

	/* RX on: the same table as with RX off, plus the RX hooks. */
	for (tx = 0; tx < 2; tx++) {
		prot[tx][1] = prot[tx][0];
		prot[tx][1].recvmsg = tlsx_recvmsg;
		prot[tx][1].sock_is_readable = tlsx_sock_is_readable;
	}
}

/*
 * With RX on, TCP's read_sock/read_skb would hand in-kernel readers the
 * raw records.  read_sock is tlsx's, as kTLS has its own: nvme-tcp calls
 * it without checking for NULL.  read_skb is cleared (kTLS keeps TCP's):
 * its one caller, sockmap's data_ready, checks for NULL, and a sockmap
 * never holds a ULP socket anyway.
 *
 * With TX on, TCP's sendmsg_locked would let in-kernel senders
 * (kernel_sendmsg_locked(): KCM, espintcp) put plaintext on the wire
 * beside the records.  It is cleared, so they get -EOPNOTSUPP
 * (sock_no_sendmsg_locked()).  kTLS keeps TCP's.
 */
static void tlsx_build_ops(struct proto_ops ops[2][2], const struct proto_ops *b)
{
	int tx;

	ops[0][0] = *b;

	ops[1][0] = ops[0][0];
	ops[1][0].shutdown = tlsx_sock_shutdown;
	ops[1][0].sendmsg_locked = NULL;
	tlsx_compat_tx_ops(&ops[1][0]);

	for (tx = 0; tx < 2; tx++) {
		ops[tx][1] = ops[tx][0];
		ops[tx][1].splice_read = tlsx_splice_read;
		ops[tx][1].poll = tlsx_poll;
		ops[tx][1].read_sock = tlsx_read_sock;
		ops[tx][1].read_skb = NULL;
	}
}

/*
 * (Re)build the table of @sk's family when its TCP proto is not the one
 * the table was built from: on first use, and if something (sockmap)
 * changed the base, as kTLS does.
 */
static void tlsx_build_proto(struct sock *sk)
{
	struct proto *prot = READ_ONCE(sk->sk_prot);
	struct tlsx_protos *t = tlsx_protos_of(sk);

	/* Acquire: pairs with the release below; the table is complete. */
	if (likely(prot == smp_load_acquire(&t->base)))
		return;
	mutex_lock(&tlsx_prot_mutex);
	if (prot != t->base) {
		tlsx_build_protos(t->prot, prot);
		tlsx_build_ops(t->ops, sk->sk_socket->ops);
		/* Release: the table is written before it is announced. */
		smp_store_release(&t->base, prot);
	}
	mutex_unlock(&tlsx_prot_mutex);
}

/* Called by the TCP core with the socket locked. */
static int tlsx_init(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tlsx_context *ctx;

	/*
	 * Like kTLS, only an established connection (-ENOTCONN otherwise,
	 * listening sockets included): a listening socket would need its
	 * context cloned on accept.
	 */
	if (sk->sk_state != TCP_ESTABLISHED || !sk->sk_socket)
		return -ENOTCONN;

	tlsx_build_proto(sk);

	/* Process context: tcp_set_ulp() from setsockopt (BPF cannot). */
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->sk = sk;
	ctx->tx_max_payload = TLSX_MAX_PAYLOAD;
	ctx->sk_proto = READ_ONCE(sk->sk_prot);
	ctx->sk_proto_ops = READ_ONCE(sk->sk_socket->ops);
	ctx->sk_write_space = sk->sk_write_space;
	ctx->sk_data_ready = sk->sk_data_ready;

	write_lock_bh(&sk->sk_callback_lock);
	/*
	 * The release ordering publishes ctx->sk_proto before sk_prot
	 * points at our setsockopt, which reads it.
	 */
	rcu_assign_pointer(icsk->icsk_ulp_data, ctx);
	tlsx_update_sk_prot(sk, ctx);
	write_unlock_bh(&sk->sk_callback_lock);
	return 0;
}

/*
 * sockmap's restore path (tcp_bpf_update_proto()) hands back the proto
 * and write_space it had replaced: with tlsx attached they become what
 * close restores; without a context they apply at once.
 */
static void tlsx_update(struct sock *sk, struct proto *p,
			void (*write_space)(struct sock *sk))
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	WARN_ON_ONCE(sk->sk_prot == p);
	if (likely(ctx)) {
		ctx->sk_write_space = write_space;
		ctx->sk_proto = p;
	} else {
		/* Pairs with the lockless read in sk_clone_lock(). */
		WRITE_ONCE(sk->sk_prot, p);
		sk->sk_write_space = write_space;
	}
}

/*
 * Called by the TCP core when the socket is destroyed.  close() has
 * normally freed the context already; a socket destroyed without going
 * through close (none is known) would still hold one.
 */
static void tlsx_release(struct sock *sk)
{
	struct inet_connection_sock *icsk = inet_csk(sk);
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	if (!ctx)
		return;
	rcu_assign_pointer(icsk->icsk_ulp_data, NULL);
	/* Freeing TX/RX state may sleep; this context may not. */
	if (WARN_ON_ONCE(ctx->tx || ctx->rx))
		return;
	tlsx_crypto_free(ctx->crypto_tx);
	tlsx_crypto_free(ctx->crypto_rx);
	kfree_rcu(ctx, rcu);
}

static u16 tlsx_conf(const struct tlsx_crypto *c)
{
	return c ? TLS_CONF_SW : TLS_CONF_BASE;
}

/* inet_diag (ss -i): the attributes kTLS reports, under RCU. */
static int tlsx_get_info(struct sock *sk, struct sk_buff *skb)
{
	struct tlsx_context *ctx;
	struct nlattr *start;
	u16 version, cipher;
	int err = 0;

	start = nla_nest_start_noflag(skb, INET_ULP_INFO_TLS);
	if (!start)
		return -EMSGSIZE;
	rcu_read_lock();
	ctx = rcu_dereference(inet_csk(sk)->icsk_ulp_data);
	if (!ctx)
		goto cancel;
	version = READ_ONCE(ctx->version);
	cipher = READ_ONCE(ctx->cipher_type);
	if (version)
		err = nla_put_u16(skb, TLS_INFO_VERSION, version);
	if (!err && cipher)
		err = nla_put_u16(skb, TLS_INFO_CIPHER, cipher);
	if (!err)
		err = nla_put_u16(skb, TLS_INFO_TXCONF,
				  tlsx_conf(READ_ONCE(ctx->crypto_tx)));
	if (!err)
		err = nla_put_u16(skb, TLS_INFO_RXCONF,
				  tlsx_conf(READ_ONCE(ctx->crypto_rx)));
	/* kTLS reports TLS_INFO_ZC_RO_TX for device offload only. */
	if (!err && READ_ONCE(ctx->rx_no_pad))
		err = nla_put_flag(skb, TLS_INFO_RX_NO_PAD);
	if (!err)
		err = nla_put_u16(skb, TLSX_INFO_TX_MAX_PAYLOAD_LEN,
				  READ_ONCE(ctx->tx_max_payload));
	if (err)
		goto cancel;
	rcu_read_unlock();
	nla_nest_end(skb, start);
	return 0;
cancel:
	rcu_read_unlock();
	nla_nest_cancel(skb, start);
	return err;
}

static size_t tlsx_get_info_size(const struct sock *sk)
{
	return nla_total_size(0) +		/* INET_ULP_INFO_TLS */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_VERSION */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_CIPHER */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_TXCONF */
	       nla_total_size(sizeof(u16)) +	/* TLS_INFO_RXCONF */
	       nla_total_size(0) +		/* TLS_INFO_ZC_RO_TX */
	       nla_total_size(0) +		/* TLS_INFO_RX_NO_PAD */
	       nla_total_size(sizeof(u16));	/* ..._TX_MAX_PAYLOAD_LEN */
}

static struct tcp_ulp_ops tlsx_ulp_ops __read_mostly = {
	.owner		= THIS_MODULE,
	.init		= tlsx_init,
	.update		= tlsx_update,
	.release	= tlsx_release,
	.get_info	= tlsx_get_info,
	.get_info_size	= tlsx_get_info_size,
};

static int tlsx_register_ulp(void)
{
	int err;

	if (strcmp(tlsx_ulp_name, "tlsx") && strcmp(tlsx_ulp_name, "tls")) {
		pr_err("tlsx: ulp_name must be \"tlsx\" or \"tls\", not \"%s\"\n",
		       tlsx_ulp_name);
		return -EINVAL;
	}
	strscpy(tlsx_ulp_ops.name, tlsx_ulp_name, sizeof(tlsx_ulp_ops.name));
	err = tcp_register_ulp(&tlsx_ulp_ops);
	if (err == -EEXIST)
		pr_err("tlsx: a ULP named \"%s\" is already registered%s\n",
		       tlsx_ulp_name,
		       strcmp(tlsx_ulp_name, "tls") ? "" :
		       " (the kernel's tls module: unload it for drop-in mode)");
	else if (!err && !strcmp(tlsx_ulp_name, "tls"))
		pr_info("tlsx: drop-in mode: registered as ULP \"tls\"\n");
	return err;
}

static int __init tlsx_module_init(void)
{
	int err;

	/* Refuse to load with an engine that gets a known answer wrong. */
	err = tlsx_aead_module_init();
	if (err)
		return err;
	err = tlsx_sockopt_init();
	if (err)
		return err;
	err = tlsx_proc_init();
	if (err)
		goto err_sockopt;
	err = tlsx_tx_pages_init();
	if (err)
		goto err_proc;
	tlsx_debugfs_init();
	err = tlsx_register_ulp();
	if (err)
		goto err_pages;
	return 0;

err_pages:
	tlsx_debugfs_exit();
	tlsx_tx_pages_exit();
err_proc:
	tlsx_proc_exit();
err_sockopt:
	tlsx_sockopt_exit();
	return err;
}

static void __exit tlsx_module_exit(void)
{
	tcp_unregister_ulp(&tlsx_ulp_ops);
	tlsx_debugfs_exit();
	tlsx_tx_pages_exit();
	tlsx_proc_exit();
	tlsx_sockopt_exit();
}

module_init(tlsx_module_init);
module_exit(tlsx_module_exit);

MODULE_ALIAS_TCP_ULP("tlsx");
MODULE_DESCRIPTION("tlsx: TLS record layer as a TCP upper-layer protocol");
MODULE_LICENSE("GPL");
MODULE_VERSION(TLSX_VERSION);
