/* SPDX-License-Identifier: GPL-2.0 */
/*
 * strp.h - the record parser of the receive path (strp.c) and the
 * records it hands to rx.c.
 *
 * The parser normally neither copies nor allocates while it waits: it
 * reads the header of the record at the head of the TCP receive queue,
 * checks it, and says "ready" once the whole record is in the queue.  The
 * reader then takes the record out (tlsx_strp_take()) into pages of its
 * own, in process context.  Only when TCP cannot hold the whole record
 * (receive buffer too small, memory pressure) is the record copied out as
 * it arrives, as kTLS does, so that the window opens again.  Memory is
 * bounded by one record per reader plus one being received.
 */
#ifndef TLSX_KMOD_STRP_H
#define TLSX_KMOD_STRP_H

#include <linux/list.h>
#include <linux/mm.h>
#include <linux/uio.h>

#include "tlsx_context.h"

/* A record on the wire spans at most this many pages. */
#define TLSX_REC_MAX_PAGES	DIV_ROUND_UP(TLSX_MAX_RECORD, PAGE_SIZE)

/*
 * One record taken from the stream: the bytes as received (header
 * included) laid out over @pages, byte i at page i / PAGE_SIZE.  Once
 * opened, the plaintext not yet read is [@off, @off + @len).
 */
struct tlsx_rec {
	struct list_head list;
	unsigned int full_len;
	unsigned int off;
	unsigned int len;
	u8 type;		/* content type; TLS 1.3: the inner one */
	unsigned int npages;
	struct page *pages[] __counted_by(npages);
};

struct tlsx_strp {
	struct sock *sk;
	unsigned int prepend;	/* header + explicit IV */
	unsigned int min_len;	/* shortest length field allowed */
	unsigned int max_len;	/* longest length field allowed */
	unsigned int full_len;	/* head record on the wire, 0: not known */
	u8 type;		/* its outer content type */
	bool ready;		/* the whole head record can be taken */
	bool stopped;		/* closed, or a bad header was seen */
	/*
	 * The head record, copied out of the queue early because TCP could
	 * not hold all of it (small receive buffer, memory pressure): it is
	 * filled as the rest arrives.  NULL normally.
	 */
	struct tlsx_rec *copy;
};

void tlsx_strp_init(struct tlsx_strp *strp, struct sock *sk,
		    const struct tlsx_crypto *c);
/*
 * tlsx_strp_check() - look at the receive queue.  Socket lock held (by
 * the owner or, in the data_ready callback, the BH lock).  @may_copy:
 * the head record may be copied out of the queue here if TCP cannot hold
 * it.  Return: 1 when a whole record has just become ready (the caller
 * wakes readers), 0, or, when the record must be copied out, -EAGAIN if
 * that was not allowed and -ENOMEM if it found no memory: the caller has
 * it done later, in process context.
 */
int tlsx_strp_check(struct tlsx_strp *strp, bool may_copy);
/*
 * tlsx_strp_take() - move the ready record out of the receive queue into
 * a new tlsx_rec.  Socket owned by the caller.  Return: 0, -ENOMEM (the
 * record then stays in the queue) or -EBADMSG (the queue no longer holds
 * it, which tlsx_strp_recheck() rules out; the parser is stopped).
 */
int tlsx_strp_take(struct tlsx_strp *strp, struct tlsx_rec **recp);
/*
 * tlsx_strp_recheck() - is the ready record still in the queue?  Socket
 * owned.  Something other than the parser may have consumed the queue
 * (getsockopt TCP_ZEROCOPY_RECEIVE falls back to tcp_recvmsg): then the
 * parser forgets the record and returns false, and the caller parses
 * again from where the stream now is, as kTLS's tls_strp_msg_load().
 */
bool tlsx_strp_recheck(struct tlsx_strp *strp);
/*
 * The ready record may also be used where it lies in the queue (socket
 * owned, not in copy mode): tlsx_strp_read() copies @len bytes at @off of
 * it, tlsx_strp_segs() describes them as at most @max segments of the
 * skbs (-1 when they do not fit or cannot be addressed: take it
 * instead), and tlsx_strp_consume() drops it from the queue.
 */
bool tlsx_strp_read(struct tlsx_strp *strp, unsigned int off, void *buf,
		    unsigned int len);
int tlsx_strp_segs(struct tlsx_strp *strp, unsigned int off,
		   unsigned int len, struct tlsx_aead_seg *segs,
		   unsigned int max);
void tlsx_strp_consume(struct tlsx_strp *strp);
void tlsx_strp_stop(struct tlsx_strp *strp);
/* Free what the parser holds; it is stopped and nothing calls it. */
void tlsx_strp_free(struct tlsx_strp *strp);

static inline bool tlsx_strp_ready(const struct tlsx_strp *strp)
{
	return READ_ONCE(strp->ready);
}

/* A record of @full_len bytes, pages allocated, nothing in it yet. */
struct tlsx_rec *tlsx_rec_alloc(unsigned int full_len, gfp_t gfp);
void tlsx_rec_free(struct tlsx_rec *rec);
/* Copy @len bytes at @off of @rec to a linear @buf. */
void tlsx_rec_read(const struct tlsx_rec *rec, unsigned int off, void *buf,
		   unsigned int len);
/* Copy @len bytes at @off of @rec to @iter.  Return: 0 or -EFAULT. */
int tlsx_rec_copy_to_iter(const struct tlsx_rec *rec, unsigned int off,
			  unsigned int len, struct iov_iter *iter);

static inline u8 *tlsx_rec_addr(const struct tlsx_rec *rec, unsigned int off)
{
	return (u8 *)page_address(rec->pages[off / PAGE_SIZE]) +
	       off % PAGE_SIZE;
}

#endif /* TLSX_KMOD_STRP_H */
