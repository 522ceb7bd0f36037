// SPDX-License-Identifier: GPL-2.0
/*
 * tx.c - the transmit path of tlsx: sendmsg and splice into records,
 * sealing, and pushing the sealed records to TCP.
 *
 * Behaviour is kTLS's software TX (net/tls/tls_sw.c of 6.12): records
 * of at most 16 KiB of plaintext (or TLS_TX_MAX_PAYLOAD_LEN's bound, as
 * 6.19), MSG_MORE keeps a data record open,
 * TLS_SET_RECORD_TYPE sends a record of another type, blocking on the
 * send buffer with sk_stream_wait_memory(), records handed to TCP by
 * reference with MSG_SPLICE_PAGES.
 *
 * A record lives in page fragments taken from the socket's page_frag and
 * charged to the socket (sk_wmem_schedule/sk_mem_charge), laid out as it
 * goes on the wire:
 *
 *   header (5) | explicit nonce (8, TLS 1.2 AES-GCM) | text | type (1.3)
 *   | tag (16)
 *
 * Spliced pages (sendfile, splice) are not copied: the record keeps a
 * reference to them and the AEAD reads them as its source and writes the
 * ciphertext into the record, so the page cache is never written.  User
 * memory of a sendmsg that closes the record (a full record, or the end
 * of a send without MSG_MORE) is taken the same way, by page reference,
 * as kTLS's sk_msg_zerocopy_from_iter(): the record is sealed before
 * sendmsg returns, so the caller's buffer is not held beyond the call,
 * and the copy of 16 KiB that this saves costs as much as the gap to
 * kTLS measured (docs/perf-kmod.md).  A user changing the buffer during
 * the call gets a record of mixed text that still authenticates: the
 * AEAD authenticates the ciphertext it wrote, never re-reading the
 * source.  Other sendmsg data (a record left open by MSG_MORE, short
 * sends, kernel buffers) is copied into the text area and sealed in
 * place.
 *
 * Once sealed, a record moves to the pending list and is pushed to TCP.
 * TCP may take part of it (send buffer full, MSG_DONTWAIT, signal): the
 * rest stays pending and goes first, from the next sendmsg, from the
 * work item scheduled by tlsx_write_space(), or on close.
 *
 * Locking, as kTLS: tx->lock (a mutex) serialises the senders (sendmsg,
 * splice_eof, the work item) across the sleeps in which the socket lock
 * is released; everything else is under the socket lock.  setsockopt
 * (rekey) and close hold only the socket lock: they never push while a
 * sender is inside tcp_sendmsg_locked() (tx->pushing), so bytes of two
 * records never interleave on the stream.
 */
#include <linux/bvec.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uio.h>
#include <linux/workqueue.h>
#include <net/sock.h>
#include <net/tcp.h>

#include "tlsx_context.h"

/*
 * Page fragments holding one record.  A page_frag gives at least 32
 * bytes per refill, so the first fragment always holds the header and
 * the tail; 18 cover 16 KiB even from single pages handed out in odd
 * pieces.  When they run out the record is closed early, as kTLS does
 * when its sk_msg is full.
 */
#define TLSX_TX_MEM_FRAGS	18
/* Spliced page pieces one record may refer to before it is closed. */
#define TLSX_TX_SPLICE_FRAGS	16
/*
 * A sendmsg closing a record takes user memory by reference only from
 * this many bytes on: below it a copy is cheaper than looking up and
 * releasing the pages (docs/perf-kmod.md).
 */
#define TLSX_TX_PIN_MIN		1024
/* Pages looked up by one call of iov_iter_get_pages2(). */
#define TLSX_TX_PIN_BATCH	8
/* Segments of one seal: every run of copied text can split a fragment. */
#define TLSX_TX_SRC_SEGS \
	(2 * TLSX_TX_SPLICE_FRAGS + TLSX_TX_MEM_FRAGS + 2)

/* tx->bits */
#define TLSX_TX_SCHEDULED	0	/* the work item is queued */
#define TLSX_TX_CLOSING		1	/* close started: no more work */
#define TLSX_TX_FIN_PENDING	2	/* shutdown's FIN waits for pending */

/* The x86-64 direct map: page_address() of any page is usable. */
static_assert(!IS_ENABLED(CONFIG_HIGHMEM));

/*
 * A piece of a spliced page or of the user's memory, used as plaintext
 * at offset @pos of the text; held by a page reference until sealed.
 */
struct tlsx_tx_spliced {
	struct page *page;
	u32 off;
	u32 len;
	u32 pos;
};

struct tlsx_tx_rec {
	struct list_head list;		/* in tx->pending once sealed */
	unsigned int nmem;		/* mem[] in use */
	unsigned int size;		/* bytes in mem[], all charged */
	unsigned int text;		/* plaintext bytes */
	unsigned int nspl;		/* spl[] in use */
	/* Once sealed: progress of the push to TCP. */
	unsigned int first;		/* mem[] before this are released */
	unsigned int released;		/* bytes in those */
	unsigned int sent;		/* bytes TCP took */
	/*
	 * MSG_* of the send that opened it, then of the send that closed
	 * it; a record closed by something else (rekey, shutdown, close)
	 * keeps its opener's, without MSG_MORE.
	 */
	int flags;
	/*
	 * From here on nothing is zeroed (tlsx_tx_rec_new()): the pieces
	 * are read only below nmem and nspl, ...
	 */
	struct bio_vec mem[TLSX_TX_MEM_FRAGS];
	struct tlsx_tx_spliced spl[TLSX_TX_SPLICE_FRAGS];
	/*
	 * ... and the scratch for sealing and copying (here rather than in
	 * struct tlsx_tx: an idle socket then holds no more than
	 * kmalloc-1k) is written before it is read.
	 */
	struct tlsx_aead_seg src[TLSX_TX_SRC_SEGS];
	struct tlsx_aead_seg dst[TLSX_TX_MEM_FRAGS];
};

struct tlsx_tx {
	struct mutex lock;		/* senders; taken before lock_sock */
	struct sock *sk;
	struct tlsx_crypto *crypto;	/* ctx->crypto_tx */
	struct tlsx_tx_rec *open;	/* data record being filled */
	struct list_head pending;	/* sealed, oldest first */
	int npending;			/* read by tlsx_write_space() */
	bool pushing;			/* inside tcp_sendmsg_locked() */
	unsigned long bits;
	struct delayed_work work;
};

/* Bytes before the text: header and explicit nonce. */
static unsigned int tlsx_tx_prefix(const struct tlsx_crypto *c)
{
	return TLSX_HEADER_LEN + c->explicit_iv_len;
}

/* Bytes after the text: inner content type (1.3) and tag. */
static unsigned int tlsx_tx_tail(const struct tlsx_crypto *c)
{
	return (c->version == TLS_1_3_VERSION ? 1 : 0) + TLSX_TAG_LEN;
}

/* As kTLS's tls_err_abort(): the socket is in error from now on. */
static void tlsx_tx_abort(struct sock *sk, int err)
{
	WRITE_ONCE(sk->sk_err, -err);
	/* Paired with smp_rmb() in tcp_poll(). */
	smp_wmb();
	sk_error_report(sk);
}

/*
 * The record's bytes [@off, @off + @len) as segments of its fragments.
 * Return: the number of segments, or -EINVAL if they do not fit in @max
 * or the range is outside the record.
 */
static int tlsx_tx_rec_segs(const struct tlsx_tx_rec *rec, unsigned int off,
			    unsigned int len, struct tlsx_aead_seg *segs,
			    unsigned int max)
{
	unsigned int i, pos = 0, n = 0;

	for (i = 0; i < rec->nmem && len; i++) {
		const struct bio_vec *bv = &rec->mem[i];
		unsigned int skip, take;

		if (off >= pos + bv->bv_len) {
			pos += bv->bv_len;
			continue;
		}
		if (n == max)
			return -EINVAL;
		skip = off > pos ? off - pos : 0;
		take = min(bv->bv_len - skip, len);
		segs[n].data = (u8 *)page_address(bv->bv_page) +
			       bv->bv_offset + skip;
		segs[n].len = take;
		n++;
		len -= take;
		off += take;
		pos += bv->bv_len;
	}
	return len ? -EINVAL : n;
}

/* Write @len bytes of @buf at offset @off of the record. */
static void tlsx_tx_rec_write(struct tlsx_tx_rec *rec, unsigned int off,
			      const void *buf, unsigned int len)
{
	int i, n = tlsx_tx_rec_segs(rec, off, len, rec->dst, TLSX_TX_MEM_FRAGS);

	for (i = 0; i < n; i++) {
		memcpy(rec->dst[i].data, buf, rec->dst[i].len);
		buf += rec->dst[i].len;
	}
}

/*
 * Grow the record's memory to @want bytes from the socket's page_frag,
 * charged to the socket as kTLS's sk_msg_alloc() does.
 * Return: 0; -ENOMEM (wait for memory and retry); -ENOSPC when the
 * fragment array is full (the record holds what it has).
 */
static int tlsx_tx_rec_grow(struct sock *sk, struct tlsx_tx_rec *rec,
			    unsigned int want)
{
	struct page_frag *pfrag = sk_page_frag(sk);

	while (rec->size < want) {
		struct bio_vec *last = rec->nmem ? &rec->mem[rec->nmem - 1] :
					NULL;
		unsigned int use;

		if (!tlsx_tx_frag_refill(sk, pfrag))
			return -ENOMEM;
		use = min_t(unsigned int, want - rec->size,
			    pfrag->size - pfrag->offset);
		if (!sk_wmem_schedule(sk, use))
			return -ENOMEM;
		if (last && last->bv_page == pfrag->page &&
		    last->bv_offset + last->bv_len == pfrag->offset) {
			last->bv_len += use;
		} else {
			if (rec->nmem == TLSX_TX_MEM_FRAGS)
				return -ENOSPC;
			/* Our reference keeps the page_frag from reusing it. */
			get_page(pfrag->page);
			bvec_set_page(&rec->mem[rec->nmem++], pfrag->page, use,
				      pfrag->offset);
		}
		sk_mem_charge(sk, use);
		rec->size += use;
		pfrag->offset += use;
	}
	return 0;
}

/* Give back the record's memory beyond @want bytes. */
static void tlsx_tx_rec_trim(struct sock *sk, struct tlsx_tx_rec *rec,
			     unsigned int want)
{
	while (rec->size > want) {
		struct bio_vec *bv = &rec->mem[rec->nmem - 1];
		unsigned int cut = min(rec->size - want, bv->bv_len);

		bv->bv_len -= cut;
		rec->size -= cut;
		sk_mem_uncharge(sk, cut);
		if (!bv->bv_len) {
			put_page(bv->bv_page);
			rec->nmem--;
		}
	}
}

/* Drop the record's pieces from the @keep'th on. */
static void tlsx_tx_rec_put_spliced_from(struct tlsx_tx_rec *rec,
					 unsigned int keep)
{
	while (rec->nspl > keep)
		put_page(rec->spl[--rec->nspl].page);
}

static void tlsx_tx_rec_put_spliced(struct tlsx_tx_rec *rec)
{
	tlsx_tx_rec_put_spliced_from(rec, 0);
}

/* Free a record, open, sealed or partly sent; socket locked. */
static void tlsx_tx_rec_free(struct sock *sk, struct tlsx_tx_rec *rec)
{
	unsigned int i;

	for (i = rec->first; i < rec->nmem; i++) {
		put_page(rec->mem[i].bv_page);
		sk_mem_uncharge(sk, rec->mem[i].bv_len);
	}
	tlsx_tx_rec_put_spliced(rec);
	kfree(rec);
}

/*
 * Copy @len bytes from @from into the record at @off.  Return: the bytes
 * copied (fewer on a fault).
 */
static size_t tlsx_tx_rec_copy(struct tlsx_tx_rec *rec, unsigned int off,
			       size_t len, struct iov_iter *from)
{
	size_t done = 0;
	int i, n;

	n = tlsx_tx_rec_segs(rec, off, len, rec->dst, TLSX_TX_MEM_FRAGS);
	for (i = 0; i < n; i++) {
		size_t got = copy_from_iter(rec->dst[i].data, rec->dst[i].len,
					    from);

		done += got;
		if (got != rec->dst[i].len)
			break;
	}
	return done;
}

/*
 * Take up to @len bytes of the user memory of @from as the record's
 * plaintext by page reference, as kTLS's sk_msg_zerocopy_from_iter().
 * Only for a record sealed before sendmsg returns.  Return: the bytes
 * taken: fewer, maybe none, when the record's list of pieces is full or
 * the memory cannot be referenced (an I/O mapping, a fault); the caller
 * copies the rest, which reports a fault as a copy does.
 */
static size_t tlsx_tx_rec_pin(struct tlsx_tx_rec *rec, struct iov_iter *from,
			      size_t len)
{
	size_t done = 0;

	while (done < len && rec->nspl < TLSX_TX_SPLICE_FRAGS) {
		unsigned int room = TLSX_TX_SPLICE_FRAGS - rec->nspl;
		struct page *pages[TLSX_TX_PIN_BATCH];
		ssize_t got;
		size_t off;
		int i;

		got = iov_iter_get_pages2(from, pages, len - done,
					  min_t(unsigned int, room,
						TLSX_TX_PIN_BATCH), &off);
		if (got <= 0)
			break;
		for (i = 0; got > 0; i++) {
			size_t part = min_t(size_t, got, PAGE_SIZE - off);

			rec->spl[rec->nspl++] = (struct tlsx_tx_spliced) {
				.page = pages[i], .off = off, .len = part,
				.pos = rec->text + done,
			};
			done += part;
			got -= part;
			off = 0;
		}
	}
	return done;
}

/*
 * Take up to @len bytes of spliced pages from @from as the record's
 * plaintext at @off (its memory is reserved), by reference.  A page that
 * may not be held by reference (slab memory a kernel caller passed) is
 * copied into the record instead: its lifetime is the caller's.
 * Return: bytes taken (fewer when the record's list of pieces is full)
 * or -errno if none could be taken.
 */
static ssize_t tlsx_tx_rec_splice(struct tlsx_tx_rec *rec, unsigned int off,
				  struct iov_iter *from, size_t len)
{
	size_t done = 0;

	while (done < len && rec->nspl < TLSX_TX_SPLICE_FRAGS) {
		struct page *page;
		struct tlsx_tx_spliced *last;
		size_t poff;
		ssize_t part;

		part = tlsx_extract_page(from, &page, len - done, &poff);
		if (part <= 0)
			return done ? done : (part ? part : -EIO);
		if (!sendpage_ok(page)) {
			tlsx_tx_rec_write(rec, off + done,
					  (u8 *)page_address(page) + poff,
					  part);
			done += part;
			continue;
		}
		last = rec->nspl ? &rec->spl[rec->nspl - 1] : NULL;
		if (last && last->page == page &&
		    last->off + last->len == poff &&
		    last->pos + last->len == rec->text + done) {
			last->len += part;
		} else {
			/* Held until the record is sealed, then dropped. */
			get_page(page);
			rec->spl[rec->nspl++] = (struct tlsx_tx_spliced) {
				.page = page, .off = poff, .len = part,
				.pos = rec->text + done,
			};
		}
		done += part;
	}
	return done;
}

/*
 * The plaintext of the record as AEAD source segments: text copied into
 * the record is read in place, spliced text from its pages; in TLS 1.3
 * the content type byte follows.  Return: segment count or -EINVAL.
 */
static int tlsx_tx_rec_src(struct tlsx_tx_rec *rec, unsigned int prefix,
			   unsigned int clen)
{
	unsigned int pos = 0, i = 0, n = 0;
	int k;

	while (pos < clen) {
		unsigned int end = clen;

		if (i < rec->nspl && rec->spl[i].pos == pos) {
			struct tlsx_tx_spliced *s = &rec->spl[i++];

			if (n == TLSX_TX_SRC_SEGS)
				return -EINVAL;
			rec->src[n].data = (u8 *)page_address(s->page) + s->off;
			rec->src[n].len = s->len;
			n++;
			pos += s->len;
			continue;
		}
		if (i < rec->nspl)
			end = rec->spl[i].pos;
		k = tlsx_tx_rec_segs(rec, prefix + pos, end - pos, rec->src + n,
				     TLSX_TX_SRC_SEGS - n);
		if (k < 0)
			return k;
		n += k;
		pos = end;
	}
	return n;
}

/*
 * Seal the record as type @type under the current keys and advance the
 * sequence number.  The record's memory is exactly the record on the
 * wire afterwards, and the spliced pages are released.
 */
static int tlsx_tx_rec_seal(struct sock *sk, struct tlsx_tx *tx,
			    struct tlsx_tx_rec *rec, u8 type)
{
	struct tlsx_crypto *c = tx->crypto;
	unsigned int prefix = tlsx_tx_prefix(c);
	bool tls13 = c->version == TLS_1_3_VERSION;
	unsigned int clen = rec->text + (tls13 ? 1 : 0);
	unsigned int wire_len = c->explicit_iv_len + clen + TLSX_TAG_LEN;
	u8 hdr[TLSX_HEADER_LEN + TLSX_MAX_IV_LEN];
	u8 nonce[TLSX_NONCE_LEN], aad[TLSX_AAD_MAX], tag[TLSX_TAG_LEN];
	unsigned int aad_len;
	int nsrc, ndst, err;

	hdr[0] = tls13 ? TLSX_TYPE_DATA : type;
	hdr[1] = 3;		/* legacy_record_version 3,3 in 1.2 and 1.3 */
	hdr[2] = 3;
	hdr[3] = wire_len >> 8;
	hdr[4] = wire_len & 0xff;
	memcpy(hdr + TLSX_HEADER_LEN, c->iv + 4, c->explicit_iv_len);
	tlsx_tx_rec_write(rec, 0, hdr, prefix);
	if (tls13)
		tlsx_tx_rec_write(rec, prefix + rec->text, &type, 1);

	tlsx_nonce(c, c->rec_seq, NULL, nonce);
	aad_len = tlsx_aad(c, c->rec_seq, type, clen, aad);
	nsrc = tlsx_tx_rec_src(rec, prefix, clen);
	ndst = tlsx_tx_rec_segs(rec, prefix, clen, rec->dst, TLSX_TX_MEM_FRAGS);
	if (WARN_ON_ONCE(nsrc < 0 || ndst < 0))
		return -EINVAL;
	err = tlsx_aead_seal_sg(&c->key, nonce, aad, aad_len, rec->src, nsrc,
				rec->dst, ndst, clen, tag);
	if (err)
		return err;
	tlsx_tx_rec_write(rec, prefix + clen, tag, TLSX_TAG_LEN);
	tlsx_tx_rec_put_spliced(rec);
	/* 2^64 records under one key: the socket cannot go on (kTLS). */
	if (tlsx_crypto_advance(c))
		tlsx_tx_abort(sk, -EBADMSG);
	return 0;
}

/* tlsx_tx_close_open() @flags: keep those of the send that opened it. */
#define TLSX_OPENER_FLAGS	(-1)

/*
 * Seal the open record, if it holds text, as type @type and queue it for
 * TCP with @flags (those of the send closing it), or TLSX_OPENER_FLAGS
 * when no send closes it.  Return: 0 or -errno (the socket is then in
 * error).
 */
static int tlsx_tx_close_open(struct sock *sk, struct tlsx_tx *tx, u8 type,
			      int flags)
{
	struct tlsx_tx_rec *rec = tx->open;
	int err;

	if (!rec || !rec->text)
		return 0;
	tlsx_tx_rec_trim(sk, rec, tlsx_tx_prefix(tx->crypto) + rec->text +
			       tlsx_tx_tail(tx->crypto));
	tx->open = NULL;
	err = tlsx_tx_rec_seal(sk, tx, rec, type);
	if (err) {
		tlsx_tx_rec_free(sk, rec);
		tlsx_tx_abort(sk, -EBADMSG);
		return -EBADMSG;
	}
	rec->flags = flags == TLSX_OPENER_FLAGS ? rec->flags & ~MSG_MORE :
						 flags;
	list_add_tail(&rec->list, &tx->pending);
	WRITE_ONCE(tx->npending, tx->npending + 1);
	return 0;
}

/*
 * Hand the rest of a sealed record to TCP by reference, as kTLS's
 * tls_push_sg(), releasing each fragment once TCP took all of it (TCP
 * holds its own page references).  Return: 0 when all of it went, or
 * TCP's error (-EAGAIN, -EPIPE, ...) with the progress kept.
 */
static int tlsx_tx_push_rec(struct sock *sk, struct tlsx_tx *tx,
			    struct tlsx_tx_rec *rec, int flags)
{
	int ret;

	while (rec->sent < rec->size) {
		size_t left = rec->size - rec->sent;

		/* Is sending application-limited? */
		tcp_rate_check_app_limited(sk);
		WRITE_ONCE(tx->pushing, true);
		ret = tlsx_tcp_sendpages(sk, &rec->mem[rec->first],
					 rec->nmem - rec->first,
					 rec->sent - rec->released, left, flags);
		WRITE_ONCE(tx->pushing, false);
		if (ret <= 0)
			return ret ? ret : -EAGAIN;

		rec->sent += ret;
		while (rec->first < rec->nmem &&
		       rec->released + rec->mem[rec->first].bv_len <=
		       rec->sent) {
			struct bio_vec *bv = &rec->mem[rec->first++];

			rec->released += bv->bv_len;
			put_page(bv->bv_page);
			sk_mem_uncharge(sk, bv->bv_len);
		}
	}
	return 0;
}

/*
 * The FIN of a shutdown(SHUT_WR) that found records TCP had no room for,
 * once they are all out: what inet_shutdown() would have done then.
 */
static void tlsx_tx_send_fin(struct sock *sk, struct tlsx_tx *tx)
{
	if (!test_and_clear_bit(TLSX_TX_FIN_PENDING, &tx->bits))
		return;
	WRITE_ONCE(sk->sk_shutdown, sk->sk_shutdown | SEND_SHUTDOWN);
	sk->sk_prot->shutdown(sk, SEND_SHUTDOWN);
	sk->sk_state_change(sk);
}

/*
 * Push the pending records in order.  @flags < 0: each record with the
 * flags it was closed with, never blocking (the work item and close).
 * Hard errors put the socket in error, as kTLS's tls_tx_records().
 */
static int tlsx_tx_push_pending(struct sock *sk, struct tlsx_tx *tx, int flags)
{
	struct tlsx_tx_rec *rec;
	int ret = 0;

	if (tx->pushing)
		return -EAGAIN;
	while ((rec = list_first_entry_or_null(&tx->pending,
					       struct tlsx_tx_rec, list))) {
		int f = flags;

		if (f < 0)
			f = (rec->flags & (MSG_MORE | MSG_EOR)) |
			    MSG_DONTWAIT | MSG_NOSIGNAL;
		ret = tlsx_tx_push_rec(sk, tx, rec, f);
		if (ret)
			break;
		list_del(&rec->list);
		WRITE_ONCE(tx->npending, tx->npending - 1);
		tlsx_tx_rec_free(sk, rec);
	}
	if (ret < 0 && ret != -EAGAIN && ret != -EINTR && ret != -ERESTARTSYS)
		tlsx_tx_abort(sk, ret);
	if (!ret)
		tlsx_tx_send_fin(sk, tx);
	return ret;
}

static void tlsx_tx_schedule(struct tlsx_tx *tx, unsigned long delay)
{
	if (!test_bit(TLSX_TX_CLOSING, &tx->bits) &&
	    !test_and_set_bit(TLSX_TX_SCHEDULED, &tx->bits))
		schedule_delayed_work(&tx->work, delay);
}

/* Seal the open record (if any) and push everything, with @flags. */
static int tlsx_tx_push_all(struct sock *sk, struct tlsx_tx *tx, u8 type,
			    int flags)
{
	int err = tlsx_tx_close_open(sk, tx, type, flags);

	return err ? err : tlsx_tx_push_pending(sk, tx, flags);
}

/*
 * TLS_SET_RECORD_TYPE, as kTLS's tls_process_cmsg(): the open record is
 * pushed first, MSG_MORE is refused, any other SOL_TLS cmsg is -EINVAL,
 * and so is a control buffer without a SOL_TLS cmsg.
 */
static int tlsx_tx_process_cmsg(struct sock *sk, struct tlsx_tx *tx,
				struct msghdr *msg, u8 *type)
{
	struct cmsghdr *cmsg;
	int rc = -EINVAL;

	for_each_cmsghdr(cmsg, msg) {
		if (!CMSG_OK(msg, cmsg))
			return -EINVAL;
		if (cmsg->cmsg_level != SOL_TLS)
			continue;
		if (cmsg->cmsg_type != TLS_SET_RECORD_TYPE)
			return -EINVAL;
		if (cmsg->cmsg_len < CMSG_LEN(sizeof(*type)))
			return -EINVAL;
		if (msg->msg_flags & MSG_MORE)
			return -EINVAL;
		*type = *(u8 *)CMSG_DATA(cmsg);
		rc = tlsx_tx_push_all(sk, tx, TLSX_TYPE_DATA,
				      msg->msg_flags);
	}
	return rc;
}

/*
 * A new, empty open record: its memory comes with its first text.  Only
 * the counters are zeroed (48 bytes): the piece arrays and the scratch
 * after them (1.8 KiB in all) are written before they are read, and
 * zeroing them cost every record (first the scratch's 1.1 KiB, then the
 * arrays' 0.7, docs/perf-kmod.md).
 */
static struct tlsx_tx_rec *tlsx_tx_rec_new(struct sock *sk)
{
	struct tlsx_tx_rec *rec = kmalloc(sizeof(*rec), sk->sk_allocation);

	if (rec)
		memset(rec, 0, offsetof(struct tlsx_tx_rec, mem));
	return rec;
}

/* Drop the open record's uncommitted memory, or the record if empty. */
static void tlsx_tx_open_settle(struct sock *sk, struct tlsx_tx *tx)
{
	struct tlsx_tx_rec *rec = tx->open;

	if (!rec)
		return;
	if (!rec->text) {
		tx->open = NULL;
		tlsx_tx_rec_free(sk, rec);
		return;
	}
	tlsx_tx_rec_trim(sk, rec, tlsx_tx_prefix(tx->crypto) + rec->text +
			       tlsx_tx_tail(tx->crypto));
}

static int tlsx_tx_sendmsg_locked(struct sock *sk, struct tlsx_tx *tx,
				  struct msghdr *msg)
{
	const struct tlsx_context *ctx = tlsx_get_ctx(sk);
	long timeo = sock_sndtimeo(sk, msg->msg_flags & MSG_DONTWAIT);
	bool splice = (msg->msg_flags & MSG_SPLICE_PAGES) &&
		      !user_backed_iter(&msg->msg_iter);
	bool eor = !(msg->msg_flags & MSG_MORE);
	u8 type = TLSX_TYPE_DATA;
	ssize_t copied = 0;
	int ret = 0;

	if (!eor && (msg->msg_flags & MSG_EOR))
		return -EINVAL;

	if (unlikely(msg->msg_controllen)) {
		ret = tlsx_tx_process_cmsg(sk, tx, msg, &type);
		if (ret && ret != -EAGAIN)
			goto end;
	}

	while (msg_data_left(msg)) {
		struct tlsx_crypto *c = tx->crypto;
		unsigned int max = ctx->tx_max_payload;
		unsigned int base;
		struct tlsx_tx_rec *rec;
		bool full = false;
		ssize_t got;
		size_t n;

		if (sk->sk_err) {
			ret = -sk->sk_err;
			goto end;
		}
		if ((READ_ONCE(sk->sk_shutdown) & SEND_SHUTDOWN) ||
		    test_bit(TLSX_TX_FIN_PENDING, &tx->bits)) {
			ret = -EPIPE;
			goto end;
		}
		if (!sk_stream_memory_free(sk)) {
			set_bit(SOCK_NOSPACE, &sk->sk_socket->flags);
			goto wait;
		}

		rec = tx->open;
		/*
		 * RFC 8446 5.5: no record past the key's limit, and the
		 * last one kept for the KeyUpdate (a control record) that
		 * changes it.  The open record takes the next sequence
		 * number: records are sealed in order.
		 */
		if (!rec && c->rec_seq - c->rec_seq_set +
			    (type == TLSX_TYPE_DATA) >= tlsx_seal_limit(c)) {
			ret = -EKEYEXPIRED;
			goto end;
		}
		if (!rec) {
			rec = tlsx_tx_rec_new(sk);
			if (!rec) {
				ret = -ENOMEM;
				goto end;
			}
			rec->flags = msg->msg_flags;
			tx->open = rec;
		}
		/* What the record holds so far, with its header and tail. */
		base = tlsx_tx_prefix(c) + rec->text + tlsx_tx_tail(c);
		n = msg_data_left(msg);
		/*
		 * The peer's record_size_limit (RFC 8449 4) when set.  It
		 * changes only between records, so it is never below
		 * rec->text; the check costs nothing and keeps it so.
		 */
		if (rec->text >= max) {
			n = 0;
			full = true;
		} else if (n >= max - rec->text) {
			n = max - rec->text;
			full = true;
		}
		if (splice && rec->nspl == TLSX_TX_SPLICE_FRAGS) {
			n = 0;
			full = true;
		}

		ret = tlsx_tx_rec_grow(sk, rec, base + n);
		if (ret == -ENOSPC) {
			n = rec->size > base ? rec->size - base : 0;
			full = true;
		} else if (ret) {
			goto wait;
		}

		if (n) {
			unsigned int nspl = rec->nspl;

			if (splice) {
				got = tlsx_tx_rec_splice(rec,
							 tlsx_tx_prefix(c) +
							 rec->text,
							 &msg->msg_iter, n);
			} else {
				got = 0;
				/* Sealed below, before returning. */
				if ((full || eor) && n >= TLSX_TX_PIN_MIN &&
				    user_backed_iter(&msg->msg_iter))
					got = tlsx_tx_rec_pin(rec,
							      &msg->msg_iter,
							      n);
				got += tlsx_tx_rec_copy(rec,
							tlsx_tx_prefix(c) +
							rec->text + got,
							n - got,
							&msg->msg_iter);
			}
			if (!splice && got < (ssize_t)n) {
				/* A fault: the partial copy is dropped (kTLS). */
				tlsx_tx_rec_put_spliced_from(rec, nspl);
				tlsx_tx_open_settle(sk, tx);
				ret = -EFAULT;
				goto end;
			}
			if (got <= 0) {
				tlsx_tx_open_settle(sk, tx);
				ret = got;
				goto end;
			}
			rec->text += got;
			copied += got;
			if (got < (ssize_t)n) {
				/* Its list of spliced pieces is full. */
				tlsx_tx_open_settle(sk, tx);
				full = true;
			}
		} else if (!rec->text) {
			/* No room at all in an empty record: cannot happen. */
			ret = -ENOMEM;
			tlsx_tx_open_settle(sk, tx);
			goto end;
		}

		if (full || eor) {
			ret = tlsx_tx_push_all(sk, tx, type, msg->msg_flags);
			if (ret && ret != -EAGAIN)
				goto end;
		}
		continue;

wait:
		ret = sk_stream_wait_memory(sk, &timeo);
		if (ret) {
			tlsx_tx_open_settle(sk, tx);
			goto end;
		}
	}

end:
	/* A record TCP took only part of goes on when space opens up. */
	if (tx->npending)
		tlsx_tx_schedule(tx, 0);
	ret = sk_stream_error(sk, msg->msg_flags, ret);
	return copied > 0 ? copied : ret;
}

bool tlsx_tx_has_open_record(const struct tlsx_context *ctx)
{
	return ctx->tx && ctx->tx->open;
}

int tlsx_sendmsg(struct sock *sk, struct msghdr *msg, size_t size)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_tx *tx = ctx->tx;
	int ret;

	if (msg->msg_flags & ~(MSG_MORE | MSG_DONTWAIT | MSG_NOSIGNAL |
			       MSG_CMSG_COMPAT | MSG_SPLICE_PAGES | MSG_EOR |
			       MSG_SENDPAGE_NOPOLICY))
		return -EOPNOTSUPP;

	ret = mutex_lock_interruptible(&tx->lock);
	if (ret)
		return ret;
	lock_sock(sk);
	ret = tlsx_tx_sendmsg_locked(sk, tx, msg);
	release_sock(sk);
	mutex_unlock(&tx->lock);
	return ret;
}

/*
 * splice/sendfile ended without SPLICE_F_MORE while a record was open:
 * send it, blocking as kTLS's tls_sw_splice_eof() does.
 */
void tlsx_splice_eof(struct socket *sock)
{
	struct sock *sk = sock->sk;
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_tx *tx = ctx->tx;

	if (!tx || !READ_ONCE(tx->open))
		return;
	mutex_lock(&tx->lock);
	lock_sock(sk);
	tlsx_tx_push_all(sk, tx, TLSX_TYPE_DATA, 0);
	if (tx->npending)
		tlsx_tx_schedule(tx, 0);
	release_sock(sk);
	mutex_unlock(&tx->lock);
}

/* Push what TCP could not take before, when it has room again. */
static void tlsx_tx_work(struct work_struct *work)
{
	struct tlsx_tx *tx = container_of(to_delayed_work(work),
					  struct tlsx_tx, work);
	struct sock *sk = tx->sk;

	if (test_bit(TLSX_TX_CLOSING, &tx->bits) ||
	    !test_and_clear_bit(TLSX_TX_SCHEDULED, &tx->bits))
		return;
	if (!mutex_trylock(&tx->lock)) {
		/* The sender holding it pushes; look again later anyway. */
		tlsx_tx_schedule(tx, msecs_to_jiffies(10));
		return;
	}
	lock_sock(sk);
	if (!test_bit(TLSX_TX_CLOSING, &tx->bits))
		tlsx_tx_push_pending(sk, tx, -1);
	release_sock(sk);
	mutex_unlock(&tx->lock);
}

void tlsx_write_space(struct sock *sk)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_tx *tx = READ_ONCE(ctx->tx);

	/*
	 * While a sender is inside TCP it waits for this very wakeup and
	 * pushes itself; otherwise pending records go from the work item.
	 */
	if (tx && !READ_ONCE(tx->pushing) && READ_ONCE(tx->npending))
		tlsx_tx_schedule(tx, 0);
	ctx->sk_write_space(sk);
}

int tlsx_tx_setkey(struct sock *sk, struct tlsx_context *ctx,
		   const struct tlsx_crypto *c, bool rekey)
{
	struct tlsx_tx *tx = ctx->tx;
	int err;

	if (!rekey) {
		if (tx)
			return -EBUSY;
		tx = kzalloc(sizeof(*tx), GFP_KERNEL);
		if (!tx)
			return -ENOMEM;
		mutex_init(&tx->lock);
		tx->sk = sk;
		tx->crypto = ctx->crypto_tx;
		INIT_LIST_HEAD(&tx->pending);
		INIT_DELAYED_WORK(&tx->work, tlsx_tx_work);
		WRITE_ONCE(ctx->tx, tx);
		return 0;
	}

	if (!tx || c->version != TLS_1_3_VERSION ||
	    tx->crypto->version != TLS_1_3_VERSION ||
	    c->cipher_type != tx->crypto->cipher_type)
		return -EINVAL;
	/*
	 * Text the user already sent was meant for the old keys (the
	 * KeyUpdate message went under them): seal it with them.  Pushing
	 * it now is an attempt; what TCP does not take waits, sealed.
	 */
	err = tlsx_tx_close_open(sk, tx, TLSX_TYPE_DATA, TLSX_OPENER_FLAGS);
	if (err)
		return err;
	tlsx_tx_push_pending(sk, tx, -1);
	if (tx->npending)
		tlsx_tx_schedule(tx, 0);
	tlsx_aead_wipe(&tx->crypto->key);
	memcpy(tx->crypto, c, sizeof(*c));
	return 0;
}

/*
 * shutdown: seal the open record with the flags of the send that opened
 * it and push what is pending.  Waits (up to *@timeo, 0 on a
 * non-blocking socket) only for records of blocking sends, as kTLS
 * pushes each record with its own flags: a record of a MSG_DONTWAIT send
 * never makes shutdown wait for a peer that does not read.  Nothing is
 * pushed while a writer is still inside TCP.
 */
static void tlsx_tx_drain(struct sock *sk, struct tlsx_tx *tx, long *timeo)
{
	struct tlsx_tx_rec *rec;
	int err;

	if (tx->pushing)
		return;
	err = tlsx_tx_close_open(sk, tx, TLSX_TYPE_DATA, TLSX_OPENER_FLAGS);
	while (!err && tx->npending && !tx->pushing) {
		err = tlsx_tx_push_pending(sk, tx, -1);
		if (err != -EAGAIN || !*timeo)
			break;
		/* The record TCP stopped at. */
		rec = list_first_entry(&tx->pending, struct tlsx_tx_rec, list);
		if (rec->flags & MSG_DONTWAIT)
			break;
		err = sk_stream_wait_memory(sk, timeo);
	}
}

/*
 * Unlike kTLS 6.12, which drops a record left open by MSG_MORE,
 * shutdown(SHUT_WR) sends it before the FIN, waiting for room as the
 * send that opened it would (not on a non-blocking socket).  Records of
 * non-blocking sends that TCP has no room for yet (send() counted them
 * as sent) are not waited for and not dropped either: the FIN waits
 * behind them, as TCP's own FIN waits behind its send queue (kTLS 6.12
 * lets the FIN go first and the rest fails with EPIPE).
 */
bool tlsx_tx_flush_on_shutdown(struct sock *sk, long *timeo)
{
	struct tlsx_tx *tx = tlsx_get_ctx(sk)->tx;

	if (!tx)
		return true;
	tlsx_tx_drain(sk, tx, timeo);
	if (!tx->npending || tx->open || sk->sk_err ||
	    !((1 << sk->sk_state) & (TCPF_ESTABLISHED | TCPF_CLOSE_WAIT)))
		return true;
	set_bit(TLSX_TX_FIN_PENDING, &tx->bits);
	return false;
}

/*
 * Push every pending record at close, without waiting: TCP takes data
 * only while its send queue is under sk_sndbuf (and TCP_NOTSENT_LOWAT),
 * so both limits are lifted for this push and restored.  The records'
 * memory is charged to the socket already; TCP's memory accounting still
 * applies (under pressure it refuses, and the rest is dropped).  The
 * socket lock is held and MSG_DONTWAIT never sleeps, so the only other
 * reader is TCP's input, run from the backlog inside tcp_sendmsg_locked()
 * (sk_flush_backlog()): it may grow sk_sndbuf or wake writers (there
 * are none, and TX schedules no work once closing); the values are put
 * back afterwards either way.
 */
static void tlsx_tx_push_on_close(struct sock *sk, struct tlsx_tx *tx)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 lowat = tp->notsent_lowat;
	int sndbuf = sk->sk_sndbuf;

	WRITE_ONCE(sk->sk_sndbuf, INT_MAX);
	WRITE_ONCE(tp->notsent_lowat, UINT_MAX);
	tlsx_tx_push_pending(sk, tx, -1);
	WRITE_ONCE(tp->notsent_lowat, lowat);
	WRITE_ONCE(sk->sk_sndbuf, sndbuf);
}

/*
 * close() never waits for the peer: a socket whose peer stopped reading
 * closes at once, whoever drops the last reference (a process exiting,
 * a kworker).  The open record is sealed with the flags of the send that
 * opened it (kTLS 6.12 drops it), and every pending record goes into
 * TCP's send queue now, past the send buffer limit: send() counted these
 * bytes as sent, and there they outlive the close and reach a peer that
 * reads later, as TCP's own unsent data does.  kTLS 6.12 instead pushes
 * a record TCP took part of with the flags of its send, which waits up
 * to SO_SNDTIMEO (forever without it), and drops the rest.  What TCP
 * refuses even so (memory pressure, an error) is dropped, as kTLS does.
 */
void tlsx_tx_flush_on_close(struct sock *sk)
{
	struct tlsx_context *ctx = tlsx_get_ctx(sk);
	struct tlsx_tx *tx = ctx->tx;
	struct tlsx_tx_rec *rec, *tmp;

	if (!tx)
		return;
	set_bit(TLSX_TX_CLOSING, &tx->bits);
	/* A writer inside TCP still uses its record: tlsx_tx_free() waits. */
	if (tx->pushing)
		return;
	if (!tlsx_tx_close_open(sk, tx, TLSX_TYPE_DATA, TLSX_OPENER_FLAGS) &&
	    tx->npending)
		tlsx_tx_push_on_close(sk, tx);

	list_for_each_entry_safe(rec, tmp, &tx->pending, list) {
		list_del(&rec->list);
		tlsx_tx_rec_free(sk, rec);
	}
	WRITE_ONCE(tx->npending, 0);
	if (tx->open) {
		tlsx_tx_rec_free(sk, tx->open);
		tx->open = NULL;
	}
}

void tlsx_tx_free(struct sock *sk, struct tlsx_context *ctx)
{
	struct tlsx_tx *tx = ctx->tx;
	struct tlsx_tx_rec *rec, *tmp;

	if (!tx)
		return;
	set_bit(TLSX_TX_CLOSING, &tx->bits);
	disable_delayed_work_sync(&tx->work);

	/*
	 * Records are normally released by tlsx_tx_flush_on_close(); if a
	 * writer was still inside TCP then, wait for it (the mutex) first.
	 */
	if (tx->open || !list_empty(&tx->pending)) {
		mutex_lock(&tx->lock);
		lock_sock(sk);
		list_for_each_entry_safe(rec, tmp, &tx->pending, list) {
			list_del(&rec->list);
			tlsx_tx_rec_free(sk, rec);
		}
		if (tx->open)
			tlsx_tx_rec_free(sk, tx->open);
		tx->open = NULL;
		release_sock(sk);
		mutex_unlock(&tx->lock);
	}
	WRITE_ONCE(ctx->tx, NULL);
	mutex_destroy(&tx->lock);
	kfree(tx);
}
