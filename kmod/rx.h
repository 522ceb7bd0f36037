/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rx.h - the receive state of a tlsx socket (ctx->rx), private to rx.c,
 * strp.c and rx_read_sock.c, and the helpers of rx.c that read_sock
 * shares with recvmsg.
 */
#ifndef TLSX_KMOD_RX_H
#define TLSX_KMOD_RX_H

#include <linux/list.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "strp.h"
#include "tlsx_context.h"

struct tlsx_rx {
	/*
	 * ctx->crypto_rx: owned by the control plane, stable while RX is on;
	 * advanced here per record (getsockopt reports it), replaced in
	 * place on a TLS 1.3 rekey.  Under the socket lock.
	 */
	struct tlsx_crypto *crypto;
	struct tlsx_strp strp;
	/*
	 * Opened records not yet read in full: the rest of a partial read,
	 * records looked at with MSG_PEEK, a record of another type than the
	 * ones just returned.  In stream order, read before the parser.
	 */
	struct list_head list;
	/* One reader at a time, as kTLS: readers sleep with the lock off. */
	wait_queue_head_t wq;
	bool reader_present;
	bool reader_contended;
	/*
	 * A KeyUpdate was received: no record is opened until the next key
	 * is installed (the records after it are under that key).
	 */
	bool key_update_pending;
	/*
	 * The handshake message being read (RFC 8446 5.1: one may span
	 * records): its header, hs_hdr_len bytes of it so far, then the
	 * hs_left bytes of its body still to come; so that a KeyUpdate is
	 * seen in the record where it ends, split or behind another one.
	 */
	u8 hs_hdr[4];
	u8 hs_hdr_len;
	u32 hs_left;
	/* A record failed authentication: every read fails as in kTLS. */
	bool failed;
	/*
	 * A TLS 1.3 record came padded: its text is no longer decrypted
	 * straight into the reader's buffer first (see tlsx_rx_open_zc()).
	 */
	bool peer_pads;
	/*
	 * The parser's run in process context, for what data_ready must
	 * not do itself: a record to copy out of a queue whose owner is
	 * busy, or whose copy found no memory (then retried after a pause).
	 */
	struct delayed_work parse_work;
};

static inline struct tlsx_rx *tlsx_rx_of(const struct sock *sk)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	return ctx ? READ_ONCE(ctx->rx) : NULL;
}

/*
 * rx.c, each described there; socket lock held for all.  Readers take
 * their turn with tlsx_reader_acquire()/tlsx_reader_release(), wait for
 * a whole record with tlsx_rx_wait() (1, 0 at end of stream, or -errno:
 * -EAGAIN, -EKEYEXPIRED after a KeyUpdate, the socket's error) and open
 * it with tlsx_rx_one() (with @iter NULL: 0 and the record in *@recp,
 * -ENOMEM with nothing consumed, or -EBADMSG; the caller then reports
 * the broken connection with tlsx_err_abort(sk, -EBADMSG)).
 */
int tlsx_reader_acquire(struct sock *sk, struct tlsx_rx *rx, bool nonblock);
void tlsx_reader_release(struct tlsx_rx *rx);
int tlsx_rx_wait(struct sock *sk, struct tlsx_rx *rx, bool nonblock,
		 bool has_copied);
int tlsx_rx_one(struct sock *sk, struct tlsx_rx *rx, struct iov_iter *iter,
		struct tlsx_rec **recp);
void tlsx_rx_flush_backlog(struct sock *sk, struct tlsx_rx *rx, size_t left,
			   size_t text, size_t done, size_t *flushed_at);
void tlsx_err_abort(struct sock *sk, int err);

#endif /* TLSX_KMOD_RX_H */
