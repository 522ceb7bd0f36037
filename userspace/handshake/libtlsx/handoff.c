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
 * 12-byte write IV split as the kernel wants it: AES-GCM and AES-CCM
 * take salt = IV[0..3] and iv = IV[4..11], ChaCha20-Poly1305 iv = all
 * 12 (net/tls builds the nonce as salt || iv, XORed with the sequence
 * number, RFC 8446 5.3).
 *
 * rec_seq is always 0: nothing is sealed under the application keys
 * before they reach the kernel.  A server's NewSessionTickets, the first
 * records under its key, are sent after the handoff through the layer
 * chosen (tlsx__send_tickets()), so the kernel seals them and counts
 * them itself.  A KeyUpdate restarts the sequence at 0 too (5.3).
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

union tlsx_crypto_info {
	struct tls_crypto_info hdr;
	struct tls12_crypto_info_aes_gcm_128 g128;
	struct tls12_crypto_info_aes_gcm_256 g256;
	struct tls12_crypto_info_chacha20_poly1305 cc;
	struct tls12_crypto_info_aes_ccm_128 ccm;
};

/*
 * Fills @ci for @suite from @key and @iv; its size, or 0 for a suite
 * the kernel does not take.
 */
static socklen_t fill_info(union tlsx_crypto_info *ci, u16 suite,
			   const u8 *key, const u8 iv[TLSX_IV_SIZE])
{
	memset(ci, 0, sizeof(*ci));
	ci->hdr.version = TLS_1_3_VERSION;
	switch (suite) {
	case TLSX_SUITE_AES_128_GCM_SHA256:
		ci->hdr.cipher_type = TLS_CIPHER_AES_GCM_128;
		memcpy(ci->g128.key, key, sizeof(ci->g128.key));
		memcpy(ci->g128.salt, iv, 4);
		memcpy(ci->g128.iv, iv + 4, 8);
		return sizeof(ci->g128);
	case TLSX_SUITE_AES_256_GCM_SHA384:
		ci->hdr.cipher_type = TLS_CIPHER_AES_GCM_256;
		memcpy(ci->g256.key, key, sizeof(ci->g256.key));
		memcpy(ci->g256.salt, iv, 4);
		memcpy(ci->g256.iv, iv + 4, 8);
		return sizeof(ci->g256);
	case TLSX_SUITE_CHACHA20_POLY1305_SHA256:
		ci->hdr.cipher_type = TLS_CIPHER_CHACHA20_POLY1305;
		memcpy(ci->cc.key, key, sizeof(ci->cc.key));
		memcpy(ci->cc.iv, iv, 12);
		return sizeof(ci->cc);
	case TLSX_SUITE_AES_128_CCM_SHA256:
		ci->hdr.cipher_type = TLS_CIPHER_AES_CCM_128;
		memcpy(ci->ccm.key, key, sizeof(ci->ccm.key));
		memcpy(ci->ccm.salt, iv, 4);
		memcpy(ci->ccm.iv, iv + 4, 8);
		return sizeof(ci->ccm);
	}
	return 0;
}

/*
 * Gives the kernel the key of the current sending (@tx) or receiving
 * secret, sequence 0.  0 or a negative errno.
 */
int tlsx__ktls_set_key(struct tlsx_conn *c, bool tx)
{
	const u8 *secret = tx ? tlsx__tx_secret(c) : tlsx__rx_secret(c);
	union tlsx_crypto_info ci;
	enum tlsx_aead_alg aead;
	enum tlsx_hash_alg hash;
	u8 key[32], iv[TLSX_IV_SIZE];
	size_t key_len;
	socklen_t len;
	int err;

	err = tlsx_suite_params(c->sec.suite, &aead, &hash, &key_len);
	if (err)
		return err;
	if (key_len > sizeof(key))
		return -EINVAL;
	err = tlsx_traffic_keys(hash, secret, key, key_len, iv);
	if (err)
		goto out;
	len = fill_info(&ci, c->sec.suite, key, iv);
	err = -EINVAL;
	if (len && !setsockopt(c->fd, SOL_TLS, tx ? TLS_TX : TLS_RX, &ci, len))
		err = 0;
	else if (len)
		err = -errno;
	memzero_explicit(&ci, sizeof(ci));
out:
	memzero_explicit(key, sizeof(key));
	memzero_explicit(iv, sizeof(iv));
	return err;
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
	.send_record = tlsx__k_send_record,
	.flush = tlsx__k_flush,
	.want_write = tlsx__k_want_write,
	.pending = tlsx__k_pending,
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
	.send_record = tlsx__k_send_record,
	.flush = tlsx__k_flush,
	.want_write = tlsx__k_want_write,
	.pending = tlsx__k_pending,
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
