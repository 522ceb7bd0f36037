// SPDX-License-Identifier: GPL-2.0
/*
 * strp.c - the record parser of the receive path: finds TLS records in
 * the TCP receive queue.
 *
 * Like kTLS's tls_strp, it works on the socket's own receive queue rather
 * than on a private one: the bytes stay in TCP (and count against the
 * socket's receive buffer, so the peer is flow-controlled) until a whole
 * record has arrived.  The header is checked as soon as it is there, with
 * kTLS's rules and errors, so a peer announcing an impossible record is
 * refused without waiting for (or buffering) its body.
 *
 * The parser runs from the data_ready callback (softirq, socket spinlock
 * held), from the reader (socket owned) and from rx.c's parse work; it
 * reads the queue and sets flags.  A record is copied out of the queue
 * by the reader (tlsx_strp_take()), or early, as it arrives, when TCP
 * cannot hold it (copy mode, the only allocation that may be atomic).
 */
#include <net/tcp.h>

#include "compat.h"
#include "strp.h"

#define TLSX_WIRE_VERSION	3	/* both bytes of the legacy version */

void tlsx_strp_init(struct tlsx_strp *strp, struct sock *sk,
		    const struct tlsx_crypto *c)
{
	/* kTLS's cipher overhead: the tag, and 1.2 AES-GCM's explicit IV. */
	unsigned int overhead = TLSX_TAG_LEN + c->explicit_iv_len;

	memset(strp, 0, sizeof(*strp));
	strp->sk = sk;
	strp->prepend = TLSX_HEADER_LEN + c->explicit_iv_len;
	strp->min_len = overhead;
	strp->max_len = TLSX_MAX_PAYLOAD + overhead +
			(c->version == TLS_1_3_VERSION ? 1 : 0);
}

/* A bad header: the stream cannot be parsed any further. */
static void tlsx_strp_abort(struct tlsx_strp *strp, int err)
{
	struct sock *sk = strp->sk;

	strp->stopped = true;
	WRITE_ONCE(strp->ready, false);
	tlsx_stat_inc(sk, TLSX_STAT_RX_BAD_RECORD);
	WRITE_ONCE(sk->sk_err, -err);
	/* Paired with smp_rmb() in tcp_poll(). */
	smp_wmb();
	sk_error_report(sk);
}

/*
 * Walking the bytes of the receive queue from copied_seq without
 * consuming them: only the first skb is found by sequence number
 * (tcp_recv_skb() frees what lies before copied_seq); the next ones are
 * walked in order, each entered at the sequence number reached so far in
 * case TCP left overlapping data in the queue.  Returns the skb holding
 * queue byte @pos, and in *@off its offset there, or NULL.
 */
static struct sk_buff *tlsx_strp_queue_find(struct sock *sk,
					    struct sk_buff *skb,
					    unsigned int pos, u32 *off)
{
	u32 seq = tcp_sk(sk)->copied_seq + pos;

	if (!skb)
		skb = tcp_recv_skb(sk, tcp_sk(sk)->copied_seq, off);
	while (skb) {
		*off = seq - TCP_SKB_CB(skb)->seq;
		if ((s32)*off < 0)
			return NULL;
		if (*off < skb->len)
			return skb;
		if (skb_queue_is_last(&sk->sk_receive_queue, skb))
			return NULL;
		skb = skb->next;
	}
	return NULL;
}

/* Copy @len bytes at @pos of the receive queue to @buf; not consumed. */
static bool tlsx_strp_queue_read(struct sock *sk, unsigned int pos, u8 *buf,
				 unsigned int len)
{
	struct sk_buff *skb = NULL;
	unsigned int n;
	u32 off;

	while (len) {
		skb = tlsx_strp_queue_find(sk, skb, pos, &off);
		if (!skb)
			return false;
		n = min_t(unsigned int, len, skb->len - off);
		if (skb_copy_bits(skb, off, buf, n))
			return false;
		buf += n;
		pos += n;
		len -= n;
	}
	return true;
}

/* The same for the first @len bytes, into @rec's pages. */
static bool tlsx_strp_queue_read_rec(struct sock *sk, struct tlsx_rec *rec,
				     unsigned int len)
{
	unsigned int pos, n;

	for (pos = 0; pos < len; pos += n) {
		n = min_t(unsigned int, len - pos,
			  PAGE_SIZE - pos % PAGE_SIZE);
		if (!tlsx_strp_queue_read(sk, pos, tlsx_rec_addr(rec, pos), n))
			return false;
	}
	rec->len = len;
	return true;
}

bool tlsx_strp_read(struct tlsx_strp *strp, unsigned int off, void *buf,
		    unsigned int len)
{
	return !strp->copy && tlsx_strp_queue_read(strp->sk, off, buf, len);
}

/* Add [@off, @off + @len) of @skb to @segs, which holds @n of @max. */
static int tlsx_strp_skb_segs(struct sk_buff *skb, unsigned int off,
			      unsigned int len, struct tlsx_aead_seg *segs,
			      unsigned int n, unsigned int max)
{
	unsigned int head = skb_headlen(skb), fsz, take, i;
	const skb_frag_t *f;

	/* Only what can be addressed directly; the rest is copied. */
	if (skb_has_frag_list(skb) || !skb_frags_readable(skb))
		return -1;
	if (off < head) {
		if (n == max)
			return -1;
		take = min(len, head - off);
		segs[n].data = skb->data + off;
		segs[n++].len = take;
		len -= take;
		off = 0;
	} else {
		off -= head;
	}
	for (i = 0; len && i < skb_shinfo(skb)->nr_frags; i++) {
		f = &skb_shinfo(skb)->frags[i];
		fsz = skb_frag_size(f);
		if (off >= fsz) {
			off -= fsz;
			continue;
		}
		if (n == max || PageHighMem(skb_frag_page(f)))
			return -1;
		take = min(len, fsz - off);
		segs[n].data = (u8 *)skb_frag_address(f) + off;
		segs[n++].len = take;
		len -= take;
		off = 0;
	}
	return len ? -1 : n;
}

int tlsx_strp_segs(struct tlsx_strp *strp, unsigned int off,
		   unsigned int len, struct tlsx_aead_seg *segs,
		   unsigned int max)
{
	struct sk_buff *skb = NULL;
	unsigned int take;
	int n = 0;
	u32 o;

	if (strp->copy)
		return -1;
	while (len) {
		skb = tlsx_strp_queue_find(strp->sk, skb, off, &o);
		if (!skb)
			return -1;
		take = min(len, skb->len - o);
		n = tlsx_strp_skb_segs(skb, o, take, segs, n, max);
		if (n < 0)
			return -1;
		off += take;
		len -= take;
	}
	return n;
}

void tlsx_strp_consume(struct tlsx_strp *strp)
{
	tcp_read_done(strp->sk, strp->full_len);
	strp->full_len = 0;
	WRITE_ONCE(strp->ready, false);
}

void tlsx_rec_free(struct tlsx_rec *rec)
{
	unsigned int i;

	for (i = 0; i < rec->npages; i++)
		put_page(rec->pages[i]);
	kfree(rec);
}

/*
 * A record's pages as one compound page, as kTLS's clear-text skbs
 * (alloc_skb_with_frags() with TLS_PAGE_ORDER): one allocation and one
 * free instead of one per page.  Each entry of rec->pages[] holds a
 * reference, so that tlsx_rec_free() and splice treat every page alike.
 */
static bool tlsx_strp_rec_alloc_compound(struct tlsx_rec *rec, unsigned int n,
					 gfp_t gfp)
{
	unsigned int i, order = get_order(n * PAGE_SIZE);
	struct page *page;

	if (n == 1 || order > PAGE_ALLOC_COSTLY_ORDER)
		return false;
	page = alloc_pages(gfp | __GFP_COMP | __GFP_NOWARN | __GFP_NORETRY,
			   order);
	if (!page)
		return false;
	page_ref_add(page, n - 1);
	rec->npages = n;
	for (i = 0; i < n; i++)
		rec->pages[i] = page + i;
	return true;
}

struct tlsx_rec *tlsx_rec_alloc(unsigned int full_len, gfp_t gfp)
{
	unsigned int i, n = DIV_ROUND_UP(full_len, PAGE_SIZE);
	struct tlsx_rec *rec;

	rec = kmalloc(struct_size(rec, pages, n), gfp);
	if (!rec)
		return NULL;
	/* Never highmem: the engines work on page addresses. */
	gfp &= ~__GFP_HIGHMEM;
	if (!tlsx_strp_rec_alloc_compound(rec, n, gfp)) {
		/* npages before the stores: pages[] is __counted_by it. */
		rec->npages = n;
		for (i = 0; i < n; i++) {
			rec->pages[i] = alloc_page(gfp);
			if (!rec->pages[i]) {
				rec->npages = i;
				tlsx_rec_free(rec);
				return NULL;
			}
		}
	}
	rec->full_len = full_len;
	rec->off = 0;
	rec->len = 0;
	INIT_LIST_HEAD(&rec->list);
	return rec;
}

/* tcp_read_sock() actor: append to the record, rec->len bytes so far. */
static int tlsx_strp_copy(read_descriptor_t *desc, struct sk_buff *skb,
			  unsigned int offset, size_t len)
{
	struct tlsx_rec *rec = desc->arg.data;
	size_t want = min(len, desc->count), done = 0;
	unsigned int n;

	while (done < want) {
		n = min_t(size_t, want - done, PAGE_SIZE - rec->len % PAGE_SIZE);
		if (skb_copy_bits(skb, offset + done,
				  tlsx_rec_addr(rec, rec->len), n))
			break;
		rec->len += n;
		done += n;
	}
	desc->count -= done;
	return done;
}

/*
 * Judge the head record's header (with its explicit IV) as kTLS does: its
 * order of checks, its errors.  Return: 0 with the record's type and
 * length noted, or -errno with the parser stopped.
 */
static int tlsx_strp_header(struct tlsx_strp *strp, const u8 *hdr)
{
	unsigned int len = get_unaligned_be16(hdr + 3);
	int err = 0;

	if (len > strp->max_len)
		err = -EMSGSIZE;
	else if (len < strp->min_len)
		err = -EBADMSG;
	else if (hdr[1] != TLSX_WIRE_VERSION || hdr[2] != TLSX_WIRE_VERSION)
		err = -EINVAL;
	if (err) {
		tlsx_strp_abort(strp, err);
		return err;
	}
	strp->type = hdr[0];
	strp->full_len = TLSX_HEADER_LEN + len;
	return 0;
}

/* Move up to @want bytes from the head of the queue to the end of @rec. */
static void tlsx_strp_queue_take(struct sock *sk, struct tlsx_rec *rec,
				 unsigned int want)
{
	read_descriptor_t desc;

	desc.arg.data = rec;
	desc.count = want;
	desc.error = 0;
	desc.written = 0;
	tcp_read_sock(sk, &desc, tlsx_strp_copy);
}

/*
 * Move what has arrived of the head record into strp->copy: its header
 * first when the copy began before the header was whole, then the rest.
 * Return: 1 when the record is whole.
 */
static int tlsx_strp_copy_in(struct tlsx_strp *strp)
{
	u8 hdr[TLSX_HEADER_LEN + TLSX_MAX_IV_LEN];
	struct tlsx_rec *rec = strp->copy;

	if (!strp->full_len) {
		tlsx_strp_queue_take(strp->sk, rec, strp->prepend - rec->len);
		if (rec->len < strp->prepend)
			return 0;
		tlsx_rec_read(rec, 0, hdr, strp->prepend);
		if (tlsx_strp_header(strp, hdr))
			return 0;
		rec->type = strp->type;
		rec->full_len = strp->full_len;
	}
	tlsx_strp_queue_take(strp->sk, rec, rec->full_len - rec->len);
	if (rec->len < rec->full_len)
		return 0;
	WRITE_ONCE(strp->ready, true);
	return 1;
}

/*
 * TCP may not be able to queue the rest of the head record, or even of
 * its header (tcp_epollin_ready() with no byte target: receive memory or
 * window nearly exhausted, for instance by a large skb of which only a
 * few bytes are left): take the record out as it comes, as kTLS's copy
 * mode, into room for the longest record while its length is unknown.
 * Atomic unless the socket is owned, by the reader or the parse work:
 * else this is softirq.
 */
static int tlsx_strp_copy_start(struct tlsx_strp *strp, bool may_copy)
{
	struct sock *sk = strp->sk;

	if (!tcp_epollin_ready(sk, INT_MAX))
		return 0;
	if (!may_copy)
		return -EAGAIN;
	strp->copy = tlsx_rec_alloc(strp->full_len ?:
				    TLSX_HEADER_LEN + strp->max_len,
				    sock_owned_by_user_nocheck(sk) ?
				    sk->sk_allocation : GFP_ATOMIC);
	if (!strp->copy)
		return -ENOMEM;
	strp->copy->type = strp->type;
	return tlsx_strp_copy_in(strp);
}

int tlsx_strp_check(struct tlsx_strp *strp, bool may_copy)
{
	u8 hdr[TLSX_HEADER_LEN + TLSX_MAX_IV_LEN];
	struct sock *sk = strp->sk;
	int inq;

	if (strp->stopped || strp->ready)
		return 0;
	if (strp->copy)
		return tlsx_strp_copy_in(strp);
	inq = tcp_inq(sk);
	if (!strp->full_len) {
		/* As kTLS, judge a header only with its explicit IV. */
		if (inq < (int)strp->prepend ||
		    !tlsx_strp_queue_read(sk, 0, hdr, strp->prepend))
			return tlsx_strp_copy_start(strp, may_copy);
		if (tlsx_strp_header(strp, hdr))
			return 0;
	}
	if (inq >= (int)strp->full_len) {
		WRITE_ONCE(strp->ready, true);
		return 1;
	}
	return tlsx_strp_copy_start(strp, may_copy);
}

int tlsx_strp_take(struct tlsx_strp *strp, struct tlsx_rec **recp)
{
	struct sock *sk = strp->sk;
	struct tlsx_rec *rec;

	if (strp->copy) {
		rec = strp->copy;
		strp->copy = NULL;
		goto out;
	}
	rec = tlsx_rec_alloc(strp->full_len, sk->sk_allocation);
	if (!rec)
		return -ENOMEM;
	rec->type = strp->type;
	/*
	 * Copied, then consumed with tcp_read_done() as kTLS does, rather
	 * than through tcp_read_sock(), which stops at urgent data: with
	 * SO_OOBINLINE an urgent byte inside a record is part of it.
	 */
	if (!tlsx_strp_queue_read_rec(sk, rec, rec->full_len)) {
		/* tlsx_strp_recheck() makes this unreachable. */
		tlsx_rec_free(rec);
		tlsx_strp_abort(strp, -EBADMSG);
		return -EBADMSG;
	}
	tcp_read_done(sk, rec->full_len);
out:
	rec->len = 0;
	strp->full_len = 0;
	WRITE_ONCE(strp->ready, false);
	*recp = rec;
	return 0;
}

bool tlsx_strp_recheck(struct tlsx_strp *strp)
{
	if (strp->copy || tcp_inq(strp->sk) >= (int)strp->full_len)
		return true;
	strp->full_len = 0;
	WRITE_ONCE(strp->ready, false);
	return false;
}

void tlsx_strp_stop(struct tlsx_strp *strp)
{
	strp->stopped = true;
	WRITE_ONCE(strp->ready, false);
}

void tlsx_strp_free(struct tlsx_strp *strp)
{
	if (strp->copy)
		tlsx_rec_free(strp->copy);
	strp->copy = NULL;
}

void tlsx_rec_read(const struct tlsx_rec *rec, unsigned int off, void *buf,
		   unsigned int len)
{
	unsigned int n;

	while (len) {
		n = min_t(unsigned int, len, PAGE_SIZE - off % PAGE_SIZE);
		memcpy(buf, tlsx_rec_addr(rec, off), n);
		buf += n;
		off += n;
		len -= n;
	}
}

int tlsx_rec_copy_to_iter(const struct tlsx_rec *rec, unsigned int off,
			  unsigned int len, struct iov_iter *iter)
{
	unsigned int n;

	while (len) {
		n = min_t(unsigned int, len, PAGE_SIZE - off % PAGE_SIZE);
		if (copy_to_iter(tlsx_rec_addr(rec, off), n, iter) != n)
			return -EFAULT;
		off += n;
		len -= n;
	}
	return 0;
}
