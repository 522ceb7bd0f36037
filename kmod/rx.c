// SPDX-License-Identifier: GPL-2.0
/*
 * rx.c - the receive path of tlsx: recvmsg, splice_read, poll, the
 * data_ready callback and the RX keys.
 *
 * The behaviour is kTLS's software RX (6.12 net/tls/tls_sw.c), plus the
 * TLS 1.3 KeyUpdate handling of later kernels.  A record found by the
 * parser (strp.c) is opened by the AEAD engines where it lies in the TCP
 * queue: a data record that fits the reader's buffer straight into it
 * (in TLS 1.3 on a guess, see tlsx_rx_open_zc()), anything else into pages
 * of its own, then copied to the reader.  A record TCP could not hold was
 * copied out of the queue by the parser and is opened in place.  What
 * the reader does not consume (the rest of a record, records looked at
 * with MSG_PEEK, a record of another type) is kept on rx->list, in
 * stream order, and served first by the next read.
 *
 * Locking: everything runs under the socket lock, except poll and
 * sock_is_readable (lockless reads of flags, as kTLS) and data_ready
 * (socket spinlock, runs only the parser; what it may not do there it
 * leaves to the parse work).  Readers are serialised as in kTLS, since a
 * reader sleeps with the socket lock released.
 */
#include <net/tcp.h>
#include <linux/splice.h>

#include "rx.h"

#define TLSX_TYPE_HANDSHAKE	22
#define TLSX_HS_KEY_UPDATE	24
#define TLSX_AAD_SPACE		13	/* TLS 1.2's; 1.3 uses 5 */

/* As kTLS's tls_err_abort(): the connection is broken, say so. */
void tlsx_err_abort(struct sock *sk, int err)
{
	WRITE_ONCE(sk->sk_err, -err);
	/* Paired with smp_rmb() in tcp_poll(). */
	smp_wmb();
	sk_error_report(sk);
}

/* The reader promised unpadded TLS 1.3 records (TLS_RX_EXPECT_NO_PAD). */
static bool tlsx_rx_no_pad(struct sock *sk)
{
	return READ_ONCE(tlsx_get_ctx(sk)->rx_no_pad);
}

int tlsx_reader_acquire(struct sock *sk, struct tlsx_rx *rx, bool nonblock)
{
	long timeo = sock_rcvtimeo(sk, nonblock);
	int ret;

	while (unlikely(rx->reader_present)) {
		DEFINE_WAIT_FUNC(wait, woken_wake_function);

		rx->reader_contended = true;
		add_wait_queue(&rx->wq, &wait);
		ret = sk_wait_event(sk, &timeo,
				    !READ_ONCE(rx->reader_present), &wait);
		remove_wait_queue(&rx->wq, &wait);
		if (timeo <= 0)
			return -EAGAIN;
		if (signal_pending(current))
			return sock_intr_errno(timeo);
		if (ret < 0)
			return ret;
	}
	WRITE_ONCE(rx->reader_present, true);
	return 0;
}

void tlsx_reader_release(struct tlsx_rx *rx)
{
	if (unlikely(rx->reader_contended)) {
		if (wq_has_sleeper(&rx->wq))
			wake_up(&rx->wq);
		else
			rx->reader_contended = false;
	}
	WRITE_ONCE(rx->reader_present, false);
}

static int tlsx_rx_reader_lock(struct sock *sk, struct tlsx_rx *rx,
			       bool nonblock)
{
	int err;

	lock_sock(sk);
	err = tlsx_reader_acquire(sk, rx, nonblock);
	if (err)
		release_sock(sk);
	return err;
}

static void tlsx_rx_reader_unlock(struct sock *sk, struct tlsx_rx *rx)
{
	tlsx_reader_release(rx);
	release_sock(sk);
}

/* Can a read return something now?  Lockless, for poll. */
static bool tlsx_rx_readable(struct tlsx_rx *rx)
{
	if (!list_empty_careful(&rx->list) || READ_ONCE(rx->failed))
		return true;
	return !READ_ONCE(rx->key_update_pending) &&
	       tlsx_strp_ready(&rx->strp);
}

/* Wake whoever waits for a record (the callback tlsx replaced). */
static void tlsx_rx_wake(struct sock *sk)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);

	if (ctx && ctx->sk_data_ready)
		ctx->sk_data_ready(sk);
}

/* How long the parse work waits before trying to allocate again. */
#define TLSX_PARSE_RETRY	msecs_to_jiffies(10)

/*
 * tlsx_strp_check() left a record TCP cannot hold in the queue: have the
 * parse work copy it out, at once when copying was not allowed where the
 * parser ran, after a pause when memory ran out.  Nothing else may come
 * to look again: the window is nearly shut.
 */
static void tlsx_rx_parse_later(struct tlsx_rx *rx, int err)
{
	if (err == -EAGAIN)
		schedule_delayed_work(&rx->parse_work, 0);
	else if (err == -ENOMEM)
		schedule_delayed_work(&rx->parse_work, TLSX_PARSE_RETRY);
}

/*
 * Wait for a whole record, as kTLS's tls_rx_rec_wait().  Return: 1 when
 * one is ready, 0 at end of stream, or -errno.  With @has_copied the
 * error stays in sk_err, so that the next read reports it rather than a
 * clean end of stream.
 */
int tlsx_rx_wait(struct sock *sk, struct tlsx_rx *rx, bool nonblock,
		 bool has_copied)
{
	DEFINE_WAIT_FUNC(wait, woken_wake_function);
	int ret = 0, parsed;
	long timeo;

	/* After a KeyUpdate the next records are under the next key. */
	if (unlikely(rx->key_update_pending))
		return -EKEYEXPIRED;

	timeo = sock_rcvtimeo(sk, nonblock);
again:
	while (!rx->failed && !tlsx_strp_ready(&rx->strp)) {
		if (sk->sk_err)
			goto err;
		if (ret < 0)
			return ret;
		sk_flush_backlog(sk);
		if (!skb_queue_empty(&sk->sk_receive_queue)) {
			parsed = tlsx_strp_check(&rx->strp, true);
			tlsx_rx_parse_later(rx, parsed);
			if (tlsx_strp_ready(&rx->strp))
				break;
		}
		/* The backlog may have held a reset: report it, not EOF. */
		if (sk->sk_err)
			goto err;
		if (sk->sk_shutdown & RCV_SHUTDOWN)
			return 0;
		if (sock_flag(sk, SOCK_DONE))
			return 0;
		if (!timeo)
			return -EAGAIN;

		add_wait_queue(sk_sleep(sk), &wait);
		sk_set_bit(SOCKWQ_ASYNC_WAITDATA, sk);
		ret = sk_wait_event(sk, &timeo,
				    tlsx_strp_ready(&rx->strp) ||
				    READ_ONCE(rx->failed), &wait);
		sk_clear_bit(SOCKWQ_ASYNC_WAITDATA, sk);
		remove_wait_queue(sk_sleep(sk), &wait);

		if (signal_pending(current))
			return sock_intr_errno(timeo);
	}
	if (!rx->failed && unlikely(!tlsx_strp_recheck(&rx->strp)))
		goto again;
	return 1;
err:
	if (has_copied)
		return -READ_ONCE(sk->sk_err);
	return sock_error(sk);
}

/* Most pieces one side of a decryption may be in. */
#define TLSX_OPEN_SEGS	24

/* What opening a record takes besides the output. */
struct tlsx_open {
	struct tlsx_aead_seg src[TLSX_OPEN_SEGS];
	unsigned int nsrc;
	unsigned int clen;	/* ciphertext bytes, tag excluded */
	unsigned int aad_len;
	u8 type;		/* outer content type */
	u8 explicit_iv[TLSX_MAX_IV_LEN];
	u8 tag[TLSX_TAG_LEN];
	u8 aad[TLSX_AAD_SPACE];
};

/* Segments for [@off, @off + @len) of @rec's pages. */
static unsigned int tlsx_rx_rec_segs(struct tlsx_rec *rec, unsigned int off,
				     unsigned int len,
				     struct tlsx_aead_seg *seg)
{
	unsigned int n, nseg = 0;

	for (; len; off += n, len -= n) {
		n = min_t(unsigned int, len, PAGE_SIZE - off % PAGE_SIZE);
		seg[nseg].data = tlsx_rec_addr(rec, off);
		seg[nseg].len = n;
		nseg++;
	}
	return nseg;
}

/* The ciphertext, IV and tag of @rec, taken out of the queue. */
static void tlsx_rx_open_from_rec(struct tlsx_rx *rx, struct tlsx_rec *rec,
				  struct tlsx_open *o)
{
	unsigned int prepend = rx->strp.prepend;

	o->type = rec->type;
	o->clen = rec->full_len - prepend - TLSX_TAG_LEN;
	tlsx_rec_read(rec, TLSX_HEADER_LEN, o->explicit_iv,
		      rx->crypto->explicit_iv_len);
	tlsx_rec_read(rec, rec->full_len - TLSX_TAG_LEN, o->tag,
		      TLSX_TAG_LEN);
	o->nsrc = tlsx_rx_rec_segs(rec, prepend, o->clen, o->src);
}

/*
 * The same for the ready record where it lies in the TCP queue, without
 * copying it.  Return: false when its skbs cannot be used so (copy).
 */
static bool tlsx_rx_open_from_queue(struct tlsx_rx *rx, struct tlsx_open *o)
{
	struct tlsx_strp *strp = &rx->strp;
	unsigned int full_len = strp->full_len;
	int n;

	o->type = strp->type;
	o->clen = full_len - strp->prepend - TLSX_TAG_LEN;
	n = tlsx_strp_segs(strp, strp->prepend, o->clen, o->src,
			   TLSX_OPEN_SEGS);
	if (n < 0)
		return false;
	o->nsrc = n;
	return tlsx_strp_read(strp, TLSX_HEADER_LEN, o->explicit_iv,
			      rx->crypto->explicit_iv_len) &&
	       tlsx_strp_read(strp, full_len - TLSX_TAG_LEN, o->tag,
			      TLSX_TAG_LEN);
}

/* Authenticate @o and decrypt it into @dst. */
static int tlsx_rx_open_run(struct sock *sk, struct tlsx_rx *rx,
			    struct tlsx_open *o,
			    const struct tlsx_aead_seg *dst, unsigned int ndst)
{
	struct tlsx_crypto *c = rx->crypto;
	u8 nonce[TLSX_NONCE_LEN];
	unsigned int aad_len;
	int err;

	tlsx_nonce(c, c->rec_seq, c->explicit_iv_len ? o->explicit_iv : NULL,
		   nonce);
	aad_len = tlsx_aad(c, c->rec_seq, o->type, o->clen, o->aad);
	err = tlsx_aead_open_sg(&c->key, nonce, o->aad, aad_len, o->src,
				o->nsrc, dst, ndst, o->clen, o->tag);
	memzero_explicit(nonce, sizeof(nonce));
	if (err == -EBADMSG)
		tlsx_stat_inc(sk, TLSX_STAT_DECRYPT_ERROR);
	return err;
}

/*
 * Whether the handshake record @rec ends a KeyUpdate: its messages are
 * followed across records (rx->hs_*), since 5.1 lets a message span
 * records ("MUST NOT be interleaved" only with other types) and a
 * KeyUpdate may come behind a NewSessionTicket.  Its first byte alone
 * would pause reading after the first fragment of a split KeyUpdate,
 * with its rest held behind the pause for good.  Userspace refuses a
 * KeyUpdate that does not end its record (5.1), so where it ends is
 * where the next key begins.  Bounded: one step per header byte, one per
 * message body.
 */
static bool tlsx_rx_hs_ends_key_update(struct tlsx_rx *rx,
				       const struct tlsx_rec *rec)
{
	unsigned int i = 0, n;
	bool ended = false;

	while (i < rec->len) {
		if (rx->hs_hdr_len < sizeof(rx->hs_hdr)) {
			rx->hs_hdr[rx->hs_hdr_len++] =
				*tlsx_rec_addr(rec, rec->off + i++);
			if (rx->hs_hdr_len < sizeof(rx->hs_hdr))
				continue;
			rx->hs_left = (u32)rx->hs_hdr[1] << 16 |
				      (u32)rx->hs_hdr[2] << 8 | rx->hs_hdr[3];
		} else {
			n = min_t(unsigned int, rx->hs_left, rec->len - i);
			i += n;
			rx->hs_left -= n;
		}
		if (!rx->hs_left) {
			if (rx->hs_hdr[0] == TLSX_HS_KEY_UPDATE)
				ended = true;
			rx->hs_hdr_len = 0;
		}
	}
	return ended;
}

/*
 * After @rec's ciphertext (@clen bytes at the prepend offset) was opened
 * into its pages: find the TLS 1.3 content type, step the sequence, note
 * a KeyUpdate.  @nopad_check: kTLS would have tried to decrypt this
 * record straight into the user's buffer on the promise of
 * TLS_RX_EXPECT_NO_PAD, and counts a padded record as a violation of it.
 */
static int tlsx_rx_finish(struct sock *sk, struct tlsx_rx *rx,
			  struct tlsx_rec *rec, unsigned int clen,
			  bool nopad_check)
{
	struct tlsx_crypto *c = rx->crypto;
	unsigned int prepend = rx->strp.prepend;
	int err;

	rec->off = prepend;
	rec->len = clen;
	if (c->version == TLS_1_3_VERSION) {
		if (nopad_check &&
		    (!clen || !*tlsx_rec_addr(rec, prepend + clen - 1)))
			tlsx_stat_inc(sk, TLSX_STAT_RX_NO_PAD_VIOLATION);
		/* The content type is the last non-zero byte. */
		rec->type = 0;
		while (rec->len && !rec->type) {
			rec->len--;
			rec->type = *tlsx_rec_addr(rec, prepend + rec->len);
		}
		if (!rec->type)
			return -EBADMSG;	/* padding only */
	}

	/* As kTLS: 2^64 records under one key would reuse nonces. */
	err = tlsx_crypto_advance(c);
	if (err)
		return err;

	if (c->version == TLS_1_3_VERSION &&
	    rec->type == TLSX_TYPE_HANDSHAKE &&
	    tlsx_rx_hs_ends_key_update(rx, rec)) {
		WRITE_ONCE(rx->key_update_pending, true);
		tlsx_stat_inc(sk, TLSX_STAT_RX_REKEY_RECEIVED);
	}
	return 0;
}

/* Most user pages one record is decrypted into directly. */
#define TLSX_ZC_PAGES	16

/*
 * Decrypt a data record straight into the reader's buffer, as kTLS's
 * zero-copy path: the plaintext is written once, where it is wanted.  In
 * TLS 1.3 the byte after the text (the content type, when there is no
 * padding) goes to a byte of our own, so the type is judged on kernel
 * memory only.  The source is only read, so the record can still be
 * opened elsewhere afterwards.
 *
 * TLS 1.3 hides the type of a record and its padding inside it, so this
 * is a guess that the record is unpadded data.  kTLS guesses so only on
 * the reader's promise (TLS_RX_EXPECT_NO_PAD) and otherwise always
 * decrypts into a buffer of its own and copies.  tlsx guesses so by
 * default, since peers seldom pad: a record of another type is opened
 * again (the rare control record costs two decryptions), and the first
 * padded record ends the guessing on this socket (rx->peer_pads) unless
 * the reader promised no padding, where kTLS counts a violation instead.
 * What a wrong guess wrote into the reader's buffer, beyond the bytes the
 * read returns, is wiped (zeroed) before the record is opened again, as
 * the engine wipes it on a bad tag: the buffer never holds text the
 * caller did not get (kTLS, on its promise, leaves it there).
 * Return: 1 when the text is in @iter; 0 when the buffer could not be
 * mapped (nothing done); -EAGAIN when the TLS 1.3 record turned out not
 * to be unpadded data (@iter restored); -EBADMSG.
 */
static int tlsx_rx_open_zc(struct sock *sk, struct tlsx_rx *rx,
			   struct tlsx_open *o, struct iov_iter *iter)
{
	bool tls13 = rx->crypto->version == TLS_1_3_VERSION;
	struct tlsx_aead_seg dst[TLSX_ZC_PAGES + 1];
	struct page *pages[TLSX_ZC_PAGES];
	unsigned int npages = 0, ndst = 0, i;
	size_t text, got = 0, start, seg;
	ssize_t n;
	u8 tail = 0;
	int err = 0;

	if (tls13 && !o->clen)
		return 0;
	text = o->clen - tls13;
	while (got < text && npages < TLSX_ZC_PAGES) {
		n = iov_iter_get_pages2(iter, pages + npages, text - got,
					TLSX_ZC_PAGES - npages, &start);
		if (n <= 0)
			break;
		got += n;
		for (; n; npages++, start = 0) {
			seg = min_t(size_t, n, PAGE_SIZE - start);
			dst[ndst].data = (u8 *)page_address(pages[npages]) +
					 start;
			dst[ndst].len = seg;
			ndst++;
			n -= seg;
		}
	}
	if (got < text)
		goto revert;
	if (tls13) {
		dst[ndst].data = &tail;
		dst[ndst].len = 1;
		ndst++;
	}
	err = tlsx_rx_open_run(sk, rx, o, dst, ndst);
	if (err)
		goto out;
	if (tls13 && tail != TLSX_TYPE_DATA) {
		if (!tail && tlsx_rx_no_pad(sk))
			tlsx_stat_inc(sk, TLSX_STAT_RX_NO_PAD_VIOLATION);
		else if (!tail)
			rx->peer_pads = true;
		/* Not the caller's: the text, type and padding written. */
		for (i = 0; i < ndst - 1; i++)
			memset(dst[i].data, 0, dst[i].len);
		err = -EAGAIN;
		goto revert;
	}
	err = tlsx_crypto_advance(rx->crypto);
	if (!err)
		err = 1;
	goto out;
revert:
	iov_iter_revert(iter, got);
out:
	for (i = 0; i < npages; i++)
		put_page(pages[i]);
	return err;
}

/*
 * Open @o, into @iter when given, else into @rec's pages (which may be
 * where @o lies: in place).  @nopad_check as for tlsx_rx_finish().
 * Return: 1 (text in @iter), 0 (text in @rec) or -errno.
 */
static int tlsx_rx_open_into(struct sock *sk, struct tlsx_rx *rx,
			     struct tlsx_open *o, struct iov_iter *iter,
			     struct tlsx_rec *rec, bool nopad_check)
{
	struct tlsx_aead_seg dst[TLSX_REC_MAX_PAGES];
	unsigned int ndst;
	int err;

	if (iter) {
		err = tlsx_rx_open_zc(sk, rx, o, iter);
		if (err == 1 || (err < 0 && err != -EAGAIN))
			return err;
		nopad_check = !err && tlsx_rx_no_pad(sk);
	}
	ndst = tlsx_rx_rec_segs(rec, rx->strp.prepend, o->clen, dst);
	err = tlsx_rx_open_run(sk, rx, o, dst, ndst);
	if (err)
		return err;
	return tlsx_rx_finish(sk, rx, rec, o->clen, nopad_check);
}

/*
 * The ready record where it lies in the TCP queue: decrypted from the
 * skbs into @iter or a new record's pages, no copy of the ciphertext.
 * Return: as tlsx_rx_open_into(), -ENOMEM (nothing consumed), or -E2BIG
 * when the skbs cannot be used so.
 */
static int tlsx_rx_one_queued(struct sock *sk, struct tlsx_rx *rx,
			      struct iov_iter *iter, struct tlsx_rec **recp)
{
	struct tlsx_rec *rec = NULL;
	bool nopad_check = false;
	struct tlsx_open o;
	int err;

	if (!tlsx_rx_open_from_queue(rx, &o))
		return -E2BIG;
	if (iter) {
		err = tlsx_rx_open_zc(sk, rx, &o, iter);
		if (err == 1 || (err < 0 && err != -EAGAIN))
			goto consume;
		/* A retry (-EAGAIN) has been counted already. */
		nopad_check = !err && tlsx_rx_no_pad(sk);
	}
	rec = tlsx_rec_alloc(rx->strp.full_len, sk->sk_allocation);
	if (!rec)
		return -ENOMEM;
	rec->type = o.type;
	err = tlsx_rx_open_into(sk, rx, &o, NULL, rec, nopad_check);
consume:
	tlsx_strp_consume(&rx->strp);
	if (err < 0 && rec) {
		tlsx_rec_free(rec);
		rec = NULL;
	}
	*recp = rec;
	return err;
}

/*
 * Take the ready record and open it: into @iter when given (a data
 * record whose text fits), else into pages of its own.  A record that
 * fails stays "ready" in failure, so every later read fails the same
 * way, as in kTLS where the record is left in the parser.
 * Return: 1 when the text went to @iter (*@recp NULL), 0 with the
 * record in *@recp, -ENOMEM (the record is still queued, nothing lost)
 * or -EBADMSG.
 */
int tlsx_rx_one(struct sock *sk, struct tlsx_rx *rx, struct iov_iter *iter,
		struct tlsx_rec **recp)
{
	struct tlsx_rec *rec = NULL;
	struct tlsx_open o;
	int err, ret;

	*recp = NULL;
	if (unlikely(rx->failed)) {
		tlsx_stat_inc(sk, TLSX_STAT_DECRYPT_ERROR);
		return -EBADMSG;
	}
	err = tlsx_rx_one_queued(sk, rx, iter, &rec);
	if (err == -E2BIG) {
		/* Copy it out, then open it in place. */
		err = tlsx_strp_take(&rx->strp, &rec);
		if (err)
			return err;
		tlsx_rx_open_from_rec(rx, rec, &o);
		err = tlsx_rx_open_into(sk, rx, &o, iter, rec, false);
		if (err == 1 || err < 0) {
			tlsx_rec_free(rec);
			rec = NULL;
		}
	}
	if (err == -ENOMEM)
		return err;
	/* The next record may be complete already: wake its readers. */
	ret = tlsx_strp_check(&rx->strp, true);
	if (ret > 0)
		tlsx_rx_wake(sk);
	tlsx_rx_parse_later(rx, ret);
	if (err < 0) {
		WRITE_ONCE(rx->failed, true);
		return -EBADMSG;
	}
	*recp = rec;
	return err;
}

/*
 * All records returned by one read have the same type, reported once in
 * a TLS_GET_RECORD_TYPE cmsg; a non-data record needs room for it.  As
 * kTLS's tls_record_content_type(): 1 to go on, 0 to stop before a
 * record of another type, or -errno.
 */
static int tlsx_rx_cmsg(struct msghdr *msg, u8 type, u8 *control)
{
	int err;

	if (*control)
		return *control == type;
	*control = type;
	if (!type)
		return -EBADMSG;
	err = put_cmsg(msg, SOL_TLS, TLS_GET_RECORD_TYPE, sizeof(type), &type);
	if (type != TLSX_TYPE_DATA && (err || msg->msg_flags & MSG_CTRUNC))
		return -EIO;
	return 1;
}

/* The memory @rec holds: its pages and itself. */
static size_t tlsx_rx_rec_mem(const struct tlsx_rec *rec)
{
	return struct_size(rec, pages, rec->npages) +
	       (size_t)rec->npages * PAGE_SIZE;
}

static size_t tlsx_rx_list_mem(struct tlsx_rx *rx)
{
	struct tlsx_rec *rec;
	size_t mem = 0;

	list_for_each_entry(rec, &rx->list, list)
		mem += tlsx_rx_rec_mem(rec);
	return mem;
}

/* Serve the read from rx->list first, as kTLS's process_rx_list(). */
static int tlsx_rx_list_read(struct tlsx_rx *rx, struct msghdr *msg,
			     u8 *control, size_t len, bool peek, bool *more)
{
	struct tlsx_rec *rec, *tmp;
	size_t copied = 0;
	unsigned int chunk;
	int err = 0;

	list_for_each_entry_safe(rec, tmp, &rx->list, list) {
		if (!len)
			break;
		err = tlsx_rx_cmsg(msg, rec->type, control);
		if (err <= 0)
			goto more;
		chunk = min_t(size_t, rec->len, len);
		err = tlsx_rec_copy_to_iter(rec, rec->off, chunk,
					    &msg->msg_iter);
		if (err)
			goto more;
		len -= chunk;
		copied += chunk;
		if (!peek) {
			rec->off += chunk;
			rec->len -= chunk;
			if (rec->len)
				break;
		}
		msg->msg_flags |= MSG_EOR;
		if (!peek) {
			list_del(&rec->list);
			tlsx_rec_free(rec);
		}
	}
	return copied;
more:
	*more = true;
	return copied ? copied : err;
}

/*
 * As kTLS's tls_read_flush_backlog(): on a read of many records, let the
 * packets that arrived meanwhile in (every 128 KiB, or when less than a
 * record is queued) so that TCP acknowledges them and the sender goes on.
 * @left: bytes still wanted before this record of @text bytes; @done:
 * bytes returned so far.
 */
void tlsx_rx_flush_backlog(struct sock *sk, struct tlsx_rx *rx, size_t left,
			   size_t text, size_t done, size_t *flushed_at)
{
	size_t max_rec = TLSX_MAX_PAYLOAD + tlsx_overhead(rx->crypto);

	if (left <= text)
		return;
	if (done - *flushed_at < SZ_128K && tcp_inq(sk) > max_rec)
		return;
	*flushed_at = done;
	sk_flush_backlog(sk);
}

int tlsx_recvmsg(struct sock *sk, struct msghdr *msg, size_t len, int flags,
		 int *addr_len)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_rx *rx = READ_ONCE(ctx->rx);
	bool is_kvec = iov_iter_is_kvec(&msg->msg_iter);
	bool nonblock = flags & MSG_DONTWAIT;
	bool peek = flags & MSG_PEEK;
	ssize_t copied = 0, decrypted = 0;
	bool more = false, zc_ok, zc;
	size_t flushed_at = 0, peek_mem = 0;
	struct tlsx_rec *rec;
	u8 control = 0;
	int target, err;

	if (unlikely(flags & MSG_ERRQUEUE))
		return sock_recv_errqueue(sk, msg, len, SOL_IP, IP_RECVERR);
	if (unlikely(!rx))
		return ctx->sk_proto->recvmsg(sk, msg, len, flags, addr_len);

	err = tlsx_rx_reader_lock(sk, rx, nonblock);
	if (err < 0)
		return err;

	err = tlsx_rx_list_read(rx, msg, &control, len, peek, &more);
	if (err < 0)
		goto end;
	copied = err;
	if (len <= copied || more ||
	    (control && control != TLSX_TYPE_DATA))
		goto end;

	target = sock_rcvlowat(sk, flags & MSG_WAITALL, len);
	len -= copied;
	if (peek)
		peek_mem = tlsx_rx_list_mem(rx);
	/* Where the text may go straight to the user's pages (zero copy). */
	zc_ok = !is_kvec && !peek && user_backed_iter(&msg->msg_iter) &&
		(rx->crypto->version != TLS_1_3_VERSION || ctx->rx_no_pad ||
		 !rx->peer_pads);

	while (len && (decrypted + copied < target ||
		       tlsx_strp_ready(&rx->strp))) {
		unsigned int chunk;
		int text;
		bool partial;

		/*
		 * MSG_PEEK keeps every record it opens on rx->list, out of
		 * TCP's queue and so outside its flow control: at most about
		 * a receive buffer of them (kTLS 6.12 has no bound), then the
		 * peek returns what it has, which is never nothing here
		 * (empty data records are not kept, see below).
		 */
		if (unlikely(peek) && decrypted + copied &&
		    peek_mem >= READ_ONCE(sk->sk_rcvbuf))
			break;

		err = tlsx_rx_wait(sk, rx, nonblock, decrypted + copied);
		if (err <= 0)
			goto recv_end;

		/* A 1.3 record may be one byte short of the overhead. */
		text = max_t(int, rx->strp.full_len -
				  tlsx_overhead(rx->crypto), 0);
		zc = zc_ok && text <= len && rx->strp.type == TLSX_TYPE_DATA;
		err = tlsx_rx_one(sk, rx, zc ? &msg->msg_iter : NULL, &rec);
		if (err < 0) {
			if (err != -ENOMEM)
				tlsx_err_abort(sk, -EBADMSG);
			goto recv_end;
		}
		tlsx_rx_flush_backlog(sk, rx, len, text, decrypted + copied,
				      &flushed_at);
		if (err == 1) {
			/* Data, straight into the buffer: text bytes. */
			err = tlsx_rx_cmsg(msg, TLSX_TYPE_DATA, &control);
			decrypted += text;
			len -= text;
			msg->msg_flags |= MSG_EOR;
			if (err <= 0)
				goto recv_end;
			continue;
		}

		err = tlsx_rx_cmsg(msg, rec->type, &control);
		if (err <= 0) {
			list_add_tail(&rec->list, &rx->list);
			goto recv_end;
		}

		partial = rec->len > len;
		chunk = partial ? len : rec->len;
		err = tlsx_rec_copy_to_iter(rec, rec->off, chunk,
					    &msg->msg_iter);
		if (err) {
			list_add_tail(&rec->list, &rx->list);
			goto recv_end;
		}
		decrypted += chunk;
		len -= chunk;

		if (peek || partial) {
			if (!peek) {
				rec->off += chunk;
				rec->len -= chunk;
			} else if (!rec->len && rec->type == TLSX_TYPE_DATA) {
				/*
				 * An empty data record adds nothing to the
				 * stream: the read that consumes it would
				 * drop it, so does a peek.  Kept, a peer
				 * streaming them would have the reader hold
				 * a record's memory for every 21 bytes.
				 */
				tlsx_rec_free(rec);
				continue;
			}
			if (peek)
				peek_mem += tlsx_rx_rec_mem(rec);
			list_add_tail(&rec->list, &rx->list);
			if (control != TLSX_TYPE_DATA)
				break;
			continue;
		}
		tlsx_rec_free(rec);
		/* A whole control record goes back alone. */
		msg->msg_flags |= MSG_EOR;
		if (control != TLSX_TYPE_DATA)
			break;
	}
recv_end:
	copied += decrypted;
end:
	tlsx_rx_reader_unlock(sk, rx);
	return copied ? copied : err;
}

static void tlsx_rx_spd_release(struct splice_pipe_desc *spd, unsigned int i)
{
	put_page(spd->pages[i]);
}

/* Hand @len bytes of @rec to @pipe by reference: its pages are final. */
static ssize_t tlsx_rx_rec_splice(struct tlsx_rec *rec,
				  struct pipe_inode_info *pipe,
				  unsigned int len)
{
	struct partial_page partial[TLSX_REC_MAX_PAGES];
	struct page *pages[TLSX_REC_MAX_PAGES];
	struct splice_pipe_desc spd = {
		.pages = pages,
		.partial = partial,
		.nr_pages_max = TLSX_REC_MAX_PAGES,
		.ops = &nosteal_pipe_buf_ops,
		.spd_release = tlsx_rx_spd_release,
	};
	unsigned int off = rec->off, n;

	while (len) {
		n = min_t(unsigned int, len, PAGE_SIZE - off % PAGE_SIZE);
		pages[spd.nr_pages] = rec->pages[off / PAGE_SIZE];
		get_page(pages[spd.nr_pages]);
		partial[spd.nr_pages].offset = off % PAGE_SIZE;
		partial[spd.nr_pages].len = n;
		partial[spd.nr_pages].private = 0;
		spd.nr_pages++;
		off += n;
		len -= n;
	}
	return splice_to_pipe(pipe, &spd);
}

/* As kTLS's tls_sw_splice_read(): data records only, one per call. */
ssize_t tlsx_splice_read(struct socket *sock, loff_t *ppos,
			 struct pipe_inode_info *pipe, size_t len,
			 unsigned int flags)
{
	bool nonblock = flags & SPLICE_F_NONBLOCK;
	struct sock *sk = sock->sk;
	struct tlsx_rx *rx = tlsx_rx_of(sk);
	struct tlsx_rec *rec;
	ssize_t copied = 0;
	int err;

	if (unlikely(!rx))
		return -EINVAL;
	err = tlsx_rx_reader_lock(sk, rx, nonblock);
	if (err < 0)
		return err;

	rec = list_first_entry_or_null(&rx->list, struct tlsx_rec, list);
	if (rec) {
		list_del(&rec->list);
	} else {
		err = tlsx_rx_wait(sk, rx, nonblock, false);
		if (err <= 0)
			goto end;
		err = tlsx_rx_one(sk, rx, NULL, &rec);
		if (err < 0) {
			if (err != -ENOMEM)
				tlsx_err_abort(sk, -EBADMSG);
			goto end;
		}
	}

	/* splice cannot carry the record type of a control record */
	if (rec->type != TLSX_TYPE_DATA) {
		err = -EINVAL;
		goto requeue;
	}
	copied = tlsx_rx_rec_splice(rec, pipe, min_t(size_t, rec->len, len));
	if (copied < 0)
		goto requeue;
	if (copied < rec->len) {
		rec->off += copied;
		rec->len -= copied;
		goto requeue;
	}
	tlsx_rec_free(rec);
end:
	tlsx_rx_reader_unlock(sk, rx);
	return copied ? copied : err;
requeue:
	list_add(&rec->list, &rx->list);
	goto end;
}

bool tlsx_sock_is_readable(struct sock *sk)
{
	struct tlsx_rx *rx = tlsx_rx_of(sk);

	return rx && tlsx_rx_readable(rx);
}

/*
 * TCP's own poll, with EPOLLIN only when a record can be returned (as
 * kTLS's tls_sk_poll(), which also keeps TCP's answer once the stream is
 * over or not established).
 */
__poll_t tlsx_poll(struct file *file, struct socket *sock,
		   struct poll_table_struct *wait)
{
	struct sock *sk = sock->sk;
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_rx *rx;
	__poll_t mask;

	if (ctx && ctx->sk_proto_ops && ctx->sk_proto_ops->poll)
		mask = ctx->sk_proto_ops->poll(file, sock, wait);
	else
		mask = tcp_poll(file, sock, wait);

	if (inet_sk_state_load(sk) != TCP_ESTABLISHED ||
	    READ_ONCE(sk->sk_shutdown) & RCV_SHUTDOWN)
		return mask;
	rx = ctx ? READ_ONCE(ctx->rx) : NULL;
	if (rx && !tlsx_rx_readable(rx))
		mask &= ~(EPOLLIN | EPOLLRDNORM);
	return mask;
}

void tlsx_data_ready(struct sock *sk)
{
	struct tlsx_rx *rx = tlsx_rx_of(sk);
	int ret;

	if (!rx) {
		tlsx_rx_wake(sk);
		return;
	}
	/*
	 * Called with the socket spinlock held; when the socket is owned,
	 * this is the owner processing its backlog, never in the middle of
	 * using the parser, so the parser can run either way.  But a record
	 * it finds incomplete is left in the queue then: the owner is
	 * usually the reader, which looks again once it has freed the record
	 * before (the window is open again by then), where copying it out
	 * now would cost a copy of every record while the window is small.
	 * The work item looks again for an owner that is not the reader.
	 */
	ret = tlsx_strp_check(&rx->strp, !sock_owned_by_user_nocheck(sk));
	if (ret > 0)
		tlsx_rx_wake(sk);
	/* Out of atomic memory: the work allocates as the socket says. */
	tlsx_rx_parse_later(rx, ret == -ENOMEM ? -EAGAIN : ret);
}

static void tlsx_rx_parse_work(struct work_struct *work)
{
	struct tlsx_rx *rx = container_of(to_delayed_work(work),
					  struct tlsx_rx, parse_work);
	struct sock *sk = rx->strp.sk;
	int ret;

	lock_sock(sk);
	ret = tlsx_strp_check(&rx->strp, true);
	if (ret > 0)
		tlsx_rx_wake(sk);
	tlsx_rx_parse_later(rx, ret);
	release_sock(sk);
}

/*
 * The control plane has set ctx->crypto_rx = @c (first key) and installs
 * tlsx_data_ready() after this returns; on a rekey @c is a temporary that
 * replaces the keys in place.
 */
int tlsx_rx_setkey(struct sock *sk, struct tlsx_context *ctx,
		   const struct tlsx_crypto *c, bool rekey)
{
	struct tlsx_rx *rx = ctx->rx;

	if (rekey) {
		if (!rx)
			return -EINVAL;
		tlsx_aead_wipe(&rx->crypto->key);
		memcpy(rx->crypto, c, sizeof(*c));
		WRITE_ONCE(rx->key_update_pending, false);
		/* Records may have waited for this key: wake their readers. */
		tlsx_rx_parse_later(rx, tlsx_strp_check(&rx->strp, true));
		if (tlsx_rx_readable(rx))
			tlsx_rx_wake(sk);
		return 0;
	}
	if (rx)
		return -EBUSY;

	rx = kzalloc(sizeof(*rx), GFP_KERNEL);
	if (!rx)
		return -ENOMEM;
	rx->crypto = ctx->crypto_rx;
	tlsx_strp_init(&rx->strp, sk, c);
	INIT_LIST_HEAD(&rx->list);
	init_waitqueue_head(&rx->wq);
	INIT_DELAYED_WORK(&rx->parse_work, tlsx_rx_parse_work);
	WRITE_ONCE(ctx->rx, rx);
	return 0;
}

/* Socket locked; the control plane then restores sk_data_ready. */
void tlsx_rx_stop(struct sock *sk, struct tlsx_context *ctx)
{
	struct tlsx_rx *rx = ctx->rx;

	if (rx)
		tlsx_strp_stop(&rx->strp);
}

/* Socket unlocked, the callbacks restored: nothing else reaches rx. */
void tlsx_rx_free(struct sock *sk, struct tlsx_context *ctx)
{
	struct tlsx_rx *rx = ctx->rx;
	struct tlsx_rec *rec, *tmp;

	if (!rx)
		return;
	/* data_ready is TCP's again: nothing queues the work any more. */
	cancel_delayed_work_sync(&rx->parse_work);
	WRITE_ONCE(ctx->rx, NULL);
	tlsx_strp_free(&rx->strp);
	list_for_each_entry_safe(rec, tmp, &rx->list, list) {
		list_del(&rec->list);
		tlsx_rec_free(rec);
	}
	kfree(rx);
}
