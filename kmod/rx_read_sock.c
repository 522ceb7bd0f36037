// SPDX-License-Identifier: GPL-2.0
/*
 * rx_read_sock.c - read_sock for sockets with RX on: decrypted data
 * records handed to an in-kernel reader (nvme-tcp's host driver calls
 * sock->ops->read_sock without checking it for NULL), as kTLS's
 * tls_sw_read_sock() (6.12 net/tls/tls_sw.c).
 *
 * Each data record is opened by rx.c's helpers as for recvmsg, into
 * pages of its own, and offered to the actor as an skb whose fragments
 * reference those pages, so an actor may keep the skb or a clone after
 * the record is freed.  What the actor leaves of a record goes back to
 * the head of rx->list, where recvmsg, splice and the next read_sock
 * find it; records queued there by recvmsg (a partial read, MSG_PEEK)
 * are offered first.
 */
#include <linux/hardirq.h>
#include <linux/skbuff.h>
#include <net/sock.h>

#include "rx.h"

/*
 * An skb over the text of @rec not yet read, [@rec->off, + @rec->len),
 * a fragment per page, each holding a reference to its page.
 */
static struct sk_buff *tlsx_rec_skb(struct sock *sk, struct tlsx_rec *rec)
{
	unsigned int off = rec->off, len = rec->len, n;
	struct sk_buff *skb;
	struct page *page;
	int i = 0;

	BUILD_BUG_ON(TLSX_REC_MAX_PAGES > MAX_SKB_FRAGS);
	skb = alloc_skb(0, sk->sk_allocation | __GFP_NOWARN);
	if (!skb)
		return NULL;
	for (; len; off += n, len -= n) {
		n = min_t(unsigned int, len, PAGE_SIZE - off % PAGE_SIZE);
		page = rec->pages[off / PAGE_SIZE];
		get_page(page);
		skb_fill_page_desc(skb, i++, page, off % PAGE_SIZE, n);
	}
	skb->len = rec->len;
	skb->data_len = rec->len;
	skb->truesize += rec->len;
	return skb;
}

/*
 * As kTLS: the caller holds the socket lock (nvme-tcp takes it around
 * the call; tls_sw_read_sock() only takes its reader's turn) and the
 * call never sleeps for data.  Data records are offered in stream order
 * while @desc->count is not zero; a record of another type stops the
 * read and stays for recvmsg (-EINVAL when it comes first); a record
 * that fails authentication breaks the connection (sk_err EBADMSG,
 * -EBADMSG now and on every later read).  Return: the bytes the actor
 * took, else 0 at end of stream, the actor's error, or -errno (-EAGAIN
 * with nothing to read, -EKEYEXPIRED while a KeyUpdate waits for its
 * key).
 *
 * Unlike kTLS 6.12, an actor that takes part of a record and leaves
 * @desc->count non-zero is offered the rest, as tcp_read_sock() does;
 * kTLS goes on to the next record and loses the rest.  And unlike kTLS,
 * -ENOMEM leaves the connection usable, as in tlsx's recvmsg.  A sockmap
 * cannot hold a tlsx socket (sk_psock_init() refuses ULP sockets, and
 * TLS_RX refuses a socket in a sockmap), so kTLS's psock check has no
 * counterpart here.
 *
 * Process context only: -EOPNOTSUPP, with nothing consumed, in softirq
 * or hardirq, or with BHs or interrupts off.  strparser calls read_sock
 * from its data_ready callback in softirq (KCM attached to the socket,
 * the socket spinlock held, BHs off), but opening a record allocates
 * as the socket says (GFP_KERNEL: it may sleep), and so would waiting
 * for the reader's turn.  kTLS 6.12's tls_sw_read_sock() does not check
 * and would sleep there too (sk->sk_allocation in tls_decrypt_sg(),
 * lock_sock() in sk_wait_event()).
 */
int tlsx_read_sock(struct sock *sk, read_descriptor_t *desc,
		   sk_read_actor_t read_actor)
{
	struct tlsx_rx *rx = tlsx_rx_of(sk);
	size_t flushed_at = 0, decrypted = 0;
	struct tlsx_rec *rec;
	struct sk_buff *skb;
	ssize_t copied = 0;
	int err, used;

	if (unlikely(!rx))
		return -EINVAL;
	if (unlikely(in_interrupt() || irqs_disabled()))
		return -EOPNOTSUPP;
	sock_owned_by_me(sk);
	err = tlsx_reader_acquire(sk, rx, true);
	if (err < 0)
		return err;

	for (;;) {
		rec = list_first_entry_or_null(&rx->list, struct tlsx_rec,
					       list);
		if (rec) {
			list_del(&rec->list);
		} else {
			err = tlsx_rx_wait(sk, rx, true, copied);
			if (err <= 0)
				break;
			err = tlsx_rx_one(sk, rx, NULL, &rec);
			if (err < 0) {
				if (err != -ENOMEM)
					tlsx_err_abort(sk, -EBADMSG);
				break;
			}
			tlsx_rx_flush_backlog(sk, rx, SIZE_MAX, 0, decrypted,
					      &flushed_at);
			decrypted += rec->len;
		}

		/* The type of a control record needs recvmsg's cmsg. */
		if (rec->type != TLSX_TYPE_DATA) {
			err = -EINVAL;
			goto requeue;
		}
		/*
		 * An empty data record (legal in TLS 1.3) would get 0 from
		 * the actor, which reads as a stalled actor: drop it.
		 */
		if (!rec->len) {
			tlsx_rec_free(rec);
			continue;
		}

		do {
			skb = tlsx_rec_skb(sk, rec);
			if (!skb) {
				err = -ENOMEM;
				goto requeue;
			}
			used = read_actor(desc, skb, 0, rec->len);
			consume_skb(skb);
			if (used <= 0) {
				if (!copied)
					err = used;
				goto requeue;
			}
			used = min_t(unsigned int, used, rec->len);
			copied += used;
			rec->off += used;
			rec->len -= used;
		} while (rec->len && desc->count);

		if (rec->len)
			goto requeue;
		tlsx_rec_free(rec);
		if (!desc->count)
			break;
	}
out:
	tlsx_reader_release(rx);
	return copied ? copied : err;
requeue:
	list_add(&rec->list, &rx->list);
	goto out;
}
