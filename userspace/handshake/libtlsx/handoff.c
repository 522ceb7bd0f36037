// SPDX-License-Identifier: GPL-2.0
/*
 * handoff.c - the handshake's end: the record layer is chosen and given
 * the application traffic keys.  Its tables of operations (struct
 * tlsx_rl_ops, below) are built here and nowhere else, and the one
 * chosen is the connection's (c->ops) from here on: every later call
 * (tlsx_io.c, rl_control.c) goes through it, none asks which layer runs.
 *
 * Kernel modes: setsockopt(SOL_TCP, TCP_ULP, "tlsx"), else "tls" (the
 * module is absent: ENOENT), then TLS_TX and TLS_RX with the
 * tls12_crypto_info_* of the suite, TLS_1_3_VERSION, the key and the
 * 12-byte write IV split as the kernel wants it, all as the suite's row
 * says (handshake/engine/suite.h, tlsx_suite_kernel_info()).
 *
 * rec_seq is always 0: nothing is sealed under the application keys
 * before they reach the kernel.  A server's NewSessionTickets, the first
 * records under its key, are sent after the handoff through the layer
 * chosen (tlsx__send_tickets()), so the kernel seals them and counts
 * them itself.  A KeyUpdate restarts the sequence at 0 too (5.3).
 *
 * A peer's record_size_limit below 2^14 + 1 (RFC 8449 4) goes to the
 * kernel as TLS_TX_MAX_PAYLOAD_LEN (tlsx.ko; kTLS from 6.19) right after
 * TLS_TX: limit - 1, the option not counting TLS 1.3's content type
 * byte, and only once TLS_TX told the kernel the version (before it, 63
 * is refused).  A kernel without the option (6.1's and 6.12's tls, an
 * older tlsx.ko: ENOPROTOOPT) leaves the cutting to libtlsx (ktls.c):
 * the connection still works, one record per send(2).
 *
 * A ULP attached but refusing the keys (a cipher the kernel lacks) leaves
 * the socket a plain TCP socket (net/tls's TLS_BASE, tlsx.ko alike), so
 * the automatic choice can still fall back to userspace; a forced layer
 * cannot fall back: that is TLSX_E_RECORD_LAYER.
 */
#include <linux/tls.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "handshake/engine/keysched.h"
#include "handshake/libtlsx/tlsx_int.h"
/* TLS_TX_MAX_PAYLOAD_LEN: kTLS 6.19's, tlsx.ko's on every kernel. */
#include "../../../kmod/tlsx_uapi.h"

/*
 * Gives the kernel the key of the current sending (@tx) or receiving
 * secret, sequence 0.  0 or a negative errno.
 */
int tlsx__ktls_set_key(struct tlsx_conn *c, bool tx)
{
	const u8 *secret = tx ? tlsx__tx_secret(c) : tlsx__rx_secret(c);
	const struct tlsx_suite *s = tlsx_suite_find(c->sec.suite);
	union tlsx_suite_kernel_info ci;
	u8 key[TLSX_SUITE_MAX_KEY], iv[TLSX_IV_SIZE];
	socklen_t len;
	int err;

	if (!s)
		return -EINVAL;
	err = tlsx_traffic_keys(s->hash, secret, key, s->key_len, iv);
	if (err)
		goto out;
	len = tlsx_suite_kernel_info(s, key, iv, &ci);
	err = 0;
	if (setsockopt(c->fd, SOL_TLS, tx ? TLS_TX : TLS_RX, &ci, len))
		err = -errno;
	memzero_explicit(&ci, sizeof(ci));
out:
	memzero_explicit(key, sizeof(key));
	memzero_explicit(iv, sizeof(iv));
	return err;
}

/*
 * The peer's record_size_limit to the kernel, if it takes it (see the
 * top): c->k_rsl says whether it did, or whether no limit needs cutting.
 */
static void kernel_rsl(struct tlsx_conn *c)
{
	uint16_t max;

	c->k_rsl = !c->peer_rsl || c->peer_rsl - 1 >= TLSX_REC_MAX_PLAIN;
	if (c->k_rsl)
		return;
	max = c->peer_rsl - 1;
	c->k_rsl = !setsockopt(c->fd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &max,
			       sizeof(max));
}

/* Attaches ULP @name and installs both keys: 0, or a negative errno. */
static int try_kernel(struct tlsx_conn *c, const char *name, bool *attached)
{
	int err;

	*attached = false;
	if (setsockopt(c->fd, SOL_TCP, TCP_ULP, name, strlen(name)))
		return -errno;
	*attached = true;
	err = tlsx__ktls_set_key(c, true);
	if (err)
		return err;
	kernel_rsl(c);
	/*
	 * TX is in: from here a failure leaves a socket that seals, which
	 * no fallback can use.  The caller makes it fatal.
	 */
	return tlsx__ktls_set_key(c, false);
}

static int try_user(struct tlsx_conn *c)
{
	int err = tlsx__u_init(c);

	if (!err)
		err = tlsx__u_set_key(c, true);
	if (!err)
		err = tlsx__u_set_key(c, false);
	if (err)
		tlsx__u_free(c);
	return err;
}

/*
 * The record layers' tables: the one place that knows which functions
 * serve which layer.  The two kernel modes share ktls.c's I/O and
 * differ in what the kernel allows after the first key.
 */
static const struct tlsx_rl_ops rl_tlsx = {
	.id = TLSX_RL_TLSX,
	.ulp = "tlsx",
	.rekey = true,
	.set_key = tlsx__ktls_set_key,
	.read = tlsx__k_read,
	.write = tlsx__k_write,
	.sendfile = tlsx__k_sendfile,
	.sendv = tlsx__k_sendv,
	.send_record = tlsx__k_send_record,
	.flush = tlsx__k_flush,
	.want_write = tlsx__k_want_write,
	.pending = tlsx__k_pending,
	.rx_failed = tlsx__k_rx_failed,
	.tx_reserve = tlsx__k_tx_reserve,
	.tx_left = tlsx__k_tx_left,
	.state_size = tlsx__k_size,
	.free = tlsx__k_free,
};

/* 6.12's tls: no second TLS_TX or TLS_RX, so no KeyUpdate either way. */
static const struct tlsx_rl_ops rl_tls = {
	.id = TLSX_RL_TLS,
	.ulp = "tls",
	.rekey = false,
	.set_key = tlsx__ktls_set_key,
	.read = tlsx__k_read,
	.write = tlsx__k_write,
	.sendfile = tlsx__k_sendfile,
	.sendv = tlsx__k_sendv,
	.send_record = tlsx__k_send_record,
	.flush = tlsx__k_flush,
	.want_write = tlsx__k_want_write,
	.pending = tlsx__k_pending,
	.rx_failed = tlsx__k_rx_failed,
	.tx_reserve = tlsx__k_tx_reserve_fixed,
	.tx_left = tlsx__k_tx_left,
	.state_size = tlsx__k_size,
	.free = tlsx__k_free,
};

static const struct tlsx_rl_ops rl_user = {
	.id = TLSX_RL_USER,
	.ulp = NULL,
	.rekey = true,
	.set_key = tlsx__u_set_key,
	.read = tlsx__u_read,
	.write = tlsx__u_write,
	.sendfile = tlsx__u_sendfile,
	.sendv = tlsx__u_sendv,
	.send_record = tlsx__u_send_record,
	.flush = tlsx__u_flush,
	.want_write = tlsx__u_want_write,
	.pending = tlsx__u_pending,
	.tx_reserve = tlsx__u_tx_reserve,
	.tx_left = tlsx__u_tx_left,
	.state_size = tlsx__u_size,
	.free = tlsx__u_free,
};

int tlsx__handoff(struct tlsx_conn *c, enum tlsx_record_layer want)
{
	static const struct tlsx_rl_ops *const order[] = {
		&rl_tlsx, &rl_tls, &rl_user,
	};
	bool attached = false;
	unsigned int i;
	int err = 0;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		const struct tlsx_rl_ops *ops = order[i];

		if (want != TLSX_RL_AUTO && want != ops->id)
			continue;
		if (!ops->ulp) {
			err = try_user(c);
			if (err == -ENOMEM)
				return tlsx__fail(c, TLSX_E_NOMEM);
			if (err)
				return tlsx__fail(c, TLSX_E_INVAL);
			c->ops = ops;
			return TLSX_OK;
		}
		/* A ULP is already attached: no other can be (EEXIST). */
		if (attached)
			continue;
		err = try_kernel(c, ops->ulp, &attached);
		if (!err) {
			c->ops = ops;
			return TLSX_OK;
		}
		if (err == -EINVAL && ops->id == TLSX_RL_TLS)
			err = -EOPNOTSUPP;	/* a cipher 6.12 lacks */
		if (attached && want == TLSX_RL_AUTO) {
			/* TX refused: plain TCP still; RX refused: sealing. */
			struct tls_crypto_info probe;
			socklen_t len = sizeof(probe);

			/* The header alone: EBUSY while no key is set. */
			if (!getsockopt(c->fd, SOL_TLS, TLS_TX, &probe, &len)) {
				c->sys_errno = -err;
				return tlsx__fail(c, TLSX_E_SYSCALL);
			}
		}
	}
	c->sys_errno = err < 0 ? -err : 0;
	return tlsx__fail(c, TLSX_E_RECORD_LAYER);
}
