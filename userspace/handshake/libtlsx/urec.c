// SPDX-License-Identifier: GPL-2.0
/*
 * urec.c - the userspace record layer: what tlsx.ko does in the kernel,
 * done by libtlsx where no kernel record layer exists, with the same
 * AEAD engines (handshake/engine/record_protect.h on aead/aead.h).
 *
 * A connection keeps its keys and sequence numbers (struct tlsx_urec)
 * and no record buffer: records are read, opened, sealed and written in
 * the calling thread's scratch (struct tlsx_scratch), and only what must
 * outlive the call is copied into an allocation of exactly its size,
 * wiped and freed once it is used up.  An idle connection holds nothing
 * else, which is what a server with many keep-alive connections pays
 * for each.
 *
 * Receiving: read(2) takes what fits the scratch's record room (several
 * records at once when they are small), each whole record is opened in
 * place and its plaintext copied out.  Kept: plaintext the caller's
 * buffer did not take, and the ciphertext after it (a record cut at the
 * read's end, or records not yet opened).  Nothing is read while
 * plaintext is waiting, so at most one record's plaintext is kept.
 *
 * Sending: up to four records are sealed in the scratch (a file's read
 * by one preadv(2) straight into their places) and written by one
 * send(2).  On a non-blocking fd the rest of a record the socket took
 * part of is kept and goes first on the next call (its bytes were taken
 * from the caller: they are committed); the records it took nothing of
 * are dropped and their sequence numbers used again, so a connection
 * waiting to write keeps at most one record.  Control records (a KeyUpdate,
 * an alert) are sealed behind a pending record when they fit: the
 * pending bytes are brought back into the scratch for that.  The reply
 * to a peer's KeyUpdate is sealed only once nothing is pending
 * (tlsx_io.c pay_key_update()): a peer that asks and does not read gets
 * one reply, not one per request piling up here.
 *
 * The sequence number of each direction is the record count under its
 * key: our own KeyUpdate goes before it reaches the limit (RFC 8446 5.5).
 */
#include <limits.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "handshake/engine/alert.h"
#include "handshake/libtlsx/tlsx_int.h"

struct tlsx_urec {
	struct tlsx_rec_dir tx, rx;
	size_t max_plain_tx;	/* 2^14, or the peer's limit (RFC 8449) */
	size_t max_plain_rx;
	size_t max_body_rx;
	/* Received, kept between calls; NULL: none. */
	u8 *ct;			/* ciphertext not yet opened */
	size_t ct_len;
	u8 *pt;			/* plaintext: [pt_off, pt_len) not yet read */
	size_t pt_off, pt_len;
	/*
	 * Sealed, not yet written: [t_off, t_len) of @t, an allocation of
	 * t_len bytes between calls, the scratch's rec_out (@t_scratch)
	 * while a call seals; @t_used: the scratch bytes to wipe after it.
	 */
	u8 *t;
	size_t t_off, t_len;
	bool t_scratch;
	size_t t_used;
};

/* Wipes and frees a kept buffer (its bytes may be plaintext). */
static void drop(u8 **p, size_t len)
{
	if (!*p)
		return;
	memzero_explicit(*p, len);
	free(*p);
	*p = NULL;
}

static u8 *keep(const u8 *p, size_t len)
{
	u8 *k = malloc(len);

	if (k)
		memcpy(k, p, len);
	return k;
}

int tlsx__u_init(struct tlsx_conn *c)
{
	struct tlsx_urec *u = calloc(1, sizeof(*u));

	if (!u)
		return -ENOMEM;
	u->max_plain_tx = TLSX_REC_MAX_PLAIN;
	/* RFC 8449 4: TLS 1.3's limit counts the content type byte. */
	if (c->peer_rsl && c->peer_rsl - 1 < TLSX_REC_MAX_PLAIN)
		u->max_plain_tx = c->peer_rsl - 1;
	u->max_plain_rx = TLSX_REC_MAX_PLAIN;
	u->max_body_rx = TLSX_REC_MAX_CIPHER;
	if (c->own_rsl && c->own_rsl - 1 < TLSX_REC_MAX_PLAIN) {
		u->max_plain_rx = c->own_rsl - 1;
		/* The inner plaintext (with padding) and the tag. */
		u->max_body_rx = c->own_rsl + TLSX_AEAD_TAG_LEN;
	}
	c->u = u;
	return 0;
}

void tlsx__u_free(struct tlsx_conn *c)
{
	struct tlsx_urec *u = c->u;

	if (!u)
		return;
	tlsx_rec_wipe(&u->tx);
	tlsx_rec_wipe(&u->rx);
	drop(&u->ct, u->ct_len);
	drop(&u->pt, u->pt_len);
	/* Between calls @t is never the scratch. */
	if (!u->t_scratch)
		drop(&u->t, u->t_len);
	memzero_explicit(u, sizeof(*u));
	free(u);
	c->u = NULL;
}

size_t tlsx__u_size(const struct tlsx_conn *c)
{
	const struct tlsx_urec *u = c->u;
	size_t n;

	if (!u)
		return 0;
	n = sizeof(*u);
	if (u->ct)
		n += u->ct_len;
	if (u->pt)
		n += u->pt_len;
	if (u->t && !u->t_scratch)
		n += u->t_len;
	return n;
}

/*
 * What tlsx_read() has without a read(2): plaintext kept, and the whole
 * records among the ciphertext kept (their bytes: a record's plaintext
 * is known only once it is opened, and it may be a control record).  A
 * header that does not parse counts too: tlsx_read() fails on it at once.
 */
size_t tlsx__u_pending(const struct tlsx_conn *c)
{
	const struct tlsx_urec *u = c->u;
	size_t n = 0, at = 0, body;

	if (!u)
		return 0;
	if (u->pt)
		return u->pt_len - u->pt_off;
	while (u->ct && u->ct_len - at >= TLSX_REC_HDR) {
		if (tlsx_rec_header(u->ct + at, u->max_body_rx, &body))
			return n + u->ct_len - at;
		if (u->ct_len - at < TLSX_REC_HDR + body)
			break;
		at += TLSX_REC_HDR + body;
		n += TLSX_REC_HDR + body;
	}
	return n;
}

u64 tlsx__u_tx_seq(const struct tlsx_conn *c)
{
	return c->u->tx.seq;
}

/*
 * Sends the caller makes itself (tlsx_conn_tx_reserve()) have nothing to
 * reserve here: this layer seals every record, counts them and sends our
 * KeyUpdate when due (write_records()).
 */
int tlsx__u_tx_reserve(struct tlsx_conn *c __always_unused,
		       u64 records __always_unused)
{
	return TLSX_OK;
}

int tlsx__u_tx_left(struct tlsx_conn *c __always_unused, u64 *records)
{
	*records = UINT64_MAX;
	return TLSX_OK;
}

int tlsx__u_set_key(struct tlsx_conn *c, bool tx)
{
	struct tlsx_urec *u = c->u;

	if (tx)
		return tlsx_rec_set_secret(&u->tx, c->sec.suite,
					   tlsx__tx_secret(c),
					   c->sec.secret_len);
	return tlsx_rec_set_secret(&u->rx, c->sec.suite, tlsx__rx_secret(c),
				   c->sec.secret_len);
}

/*
 * Before sealing: the pending bytes at the front of the thread's
 * scratch, whose rec_out then takes the new record behind them.
 */
static int tx_begin(struct tlsx_conn *c)
{
	struct tlsx_urec *u = c->u;
	struct tlsx_scratch *s;
	size_t n = u->t_len - u->t_off;

	if (u->t_scratch) {
		if (u->t_off) {
			memmove(u->t, u->t + u->t_off, n);
			u->t_off = 0;
			u->t_len = n;
		}
		return 0;
	}
	s = tlsx__scratch();
	if (!s)
		return -ENOMEM;
	if (n)
		memcpy(s->rec_out, u->t + u->t_off, n);
	drop(&u->t, u->t_len);
	u->t = s->rec_out;
	u->t_scratch = true;
	u->t_off = 0;
	u->t_len = n;
	u->t_used = n;
	return 0;
}

/*
 * After a call that sealed: what the socket did not take moves to an
 * allocation of its size, the scratch is wiped.  Returns @ret, or
 * TLSX_E_NOMEM (sticky: committed bytes were lost) when there was no
 * memory for them.
 */
static ssize_t tx_end(struct tlsx_conn *c, ssize_t ret)
{
	struct tlsx_urec *u = c->u;
	size_t n = u->t_len - u->t_off;
	u8 *k = NULL;

	if (!u->t_scratch)
		return ret;
	if (n) {
		k = keep(u->t + u->t_off, n);
		if (!k) {
			n = 0;
			ret = tlsx__fail(c, TLSX_E_NOMEM);
		}
	}
	memzero_explicit(u->t, u->t_used);
	u->t = k;
	u->t_scratch = false;
	u->t_off = 0;
	u->t_len = n;
	u->t_used = 0;
	return ret;
}

/* Pending bytes: something is owed to the socket. */
bool tlsx__u_want_write(const struct tlsx_conn *c)
{
	return c->u && c->u->t_off < c->u->t_len;
}

/* @flags: MSG_DONTWAIT for a flush that must not wait (an alert's). */
int tlsx__u_flush(struct tlsx_conn *c, int flags)
{
	struct tlsx_urec *u = c->u;

	while (u->t_off < u->t_len) {
		ssize_t n = send(c->fd, u->t + u->t_off, u->t_len - u->t_off,
				 MSG_NOSIGNAL | flags);

		if (n < 0 && errno == ENOTSOCK)
			n = write(c->fd, u->t + u->t_off, u->t_len - u->t_off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_WRITE;
			return tlsx__sys(c, errno);
		}
		u->t_off += n;
	}
	/* All written: a kept copy goes; the scratch is wiped by tx_end(). */
	if (!u->t_scratch)
		drop(&u->t, u->t_len);
	u->t_off = 0;
	u->t_len = 0;
	return TLSX_OK;
}

/*
 * Seals one record behind what is pending: 0, or tlsx_rec_seal()'s
 * -errno (-ENOSPC when it does not fit, -ENOMEM without a scratch).
 */
static int seal(struct tlsx_conn *c, u8 type, const u8 *data, size_t len)
{
	struct tlsx_urec *u = c->u;
	size_t n;
	int err;

	err = tx_begin(c);
	if (err)
		return err;
	err = tlsx_rec_seal(&u->tx, type, data, len, 0, u->t + u->t_len,
			    TLSX_U_TX_MAX - u->t_len, &n);
	if (!err)
		u->t_len += n;
	if (u->t_len > u->t_used)
		u->t_used = u->t_len;
	return err;
}

/* A sealing failure: the sequence exhausted (5.5), no memory, or a bug. */
static int seal_failed(struct tlsx_conn *c, int err)
{
	if (err == -ENOMEM)
		return tlsx__fail(c, TLSX_E_NOMEM);
	return tlsx__fail(c, err == -EOVERFLOW ? TLSX_E_REKEY : TLSX_E_INVAL);
}

/*
 * Seals a control record behind what is pending and pushes what it can:
 * TLSX_OK once sealed (its bytes are ours to send, tlsx_conn_flush()),
 * TLSX_WANT_WRITE when there was no room to seal it (nothing done).
 */
int tlsx__u_send_record(struct tlsx_conn *c, u8 type, const u8 *data,
			size_t len, int flags)
{
	int err;

	err = seal(c, type, data, len);
	if (err == -ENOSPC) {
		/* A whole record is pending: it goes first. */
		int ret = tlsx__u_flush(c, flags);

		if (ret)
			return tx_end(c, ret);
		err = seal(c, type, data, len);
	}
	if (err)
		return tx_end(c, seal_failed(c, err));
	err = tlsx__u_flush(c, flags);
	return tx_end(c, err == TLSX_WANT_WRITE ? TLSX_OK : err);
}

/*
 * The application data records one write_records() round sealed, at
 * most TLSX_U_TX_BATCH: where each starts in u->t and the bytes of the
 * caller's it holds, so that those the socket took none of can be taken
 * back (unsend_tail()).
 */
struct tx_batch {
	size_t start[TLSX_U_TX_BATCH];
	size_t plain[TLSX_U_TX_BATCH];
	unsigned int n;
};

/* A record of @len bytes of application data, sealed: its size. */
static size_t sealed_size(size_t len)
{
	return TLSX_REC_HDR + len + 1 + TLSX_AEAD_TAG_LEN;
}

/*
 * Up to @nrec records of @chunk (u->max_plain_tx) bytes from @buf's @len
 * behind what is pending: the bytes taken, or tlsx_rec_seal()'s -errno.
 */
static ssize_t seal_buf(struct tlsx_conn *c, const u8 *buf, size_t len,
			unsigned int nrec, struct tx_batch *b)
{
	struct tlsx_urec *u = c->u;
	size_t taken = 0;
	int err;

	while (b->n < nrec && taken < len) {
		size_t chunk = len - taken;

		if (chunk > u->max_plain_tx)
			chunk = u->max_plain_tx;
		b->start[b->n] = u->t_len;
		err = seal(c, TLSX_CT_APPLICATION_DATA, buf + taken, chunk);
		if (err)
			return err;
		b->plain[b->n++] = chunk;
		taken += chunk;
	}
	return taken;
}

/*
 * Seals @len bytes of plaintext already in place from t_len on, as full
 * records back to back (each behind its header's room, the last one
 * short), into batch @b.  0 or the connection's error.
 */
static int seal_placed(struct tlsx_conn *c, size_t len, struct tx_batch *b)
{
	struct tlsx_urec *u = c->u;
	size_t plen, n;
	int err;

	for (; len; len -= plen) {
		plen = len < u->max_plain_tx ? len : u->max_plain_tx;
		b->start[b->n] = u->t_len;
		err = tlsx_rec_seal(&u->tx, TLSX_CT_APPLICATION_DATA,
				    u->t + u->t_len + TLSX_REC_HDR, plen, 0,
				    u->t + u->t_len, TLSX_U_TX_MAX - u->t_len,
				    &n);
		if (err)
			return seal_failed(c, err);
		u->t_len += n;
		b->plain[b->n++] = plen;
	}
	if (u->t_len > u->t_used)
		u->t_used = u->t_len;
	return 0;
}

/*
 * Up to @nrec records from the file at *@off (@len bytes at most), read
 * by one preadv(2) straight into their places behind the headers and
 * sealed there: back to back, since every record but the last is full.
 * The bytes read, 0 at the end of the file, or an error.
 */
static ssize_t seal_file(struct tlsx_conn *c, int file_fd, off_t *off,
			 size_t len, unsigned int nrec, struct tx_batch *b)
{
	struct tlsx_urec *u = c->u;
	struct iovec iov[TLSX_U_TX_BATCH];
	size_t full = sealed_size(u->max_plain_tx), left = len, at, base;
	unsigned int k, cnt = 0;
	ssize_t got;
	int err;

	/* Nothing is pending here (write_records() flushed it). */
	err = tx_begin(c);
	if (err)
		return seal_failed(c, err);
	base = u->t_len;
	while (nrec > 1 && base + nrec * full > TLSX_U_TX_MAX)
		nrec--;
	for (k = 0; k < nrec && left; k++) {
		iov[k].iov_base = u->t + base + k * full + TLSX_REC_HDR;
		iov[k].iov_len = left < u->max_plain_tx ? left :
						      u->max_plain_tx;
		left -= iov[k].iov_len;
		cnt++;
	}
	do {
		got = preadv(file_fd, iov, (int)cnt, *off);
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return tlsx__sys(c, errno);
	if (!got)
		return 0;
	/* The plaintext read is wiped with the scratch (tx_end()). */
	at = base + (size_t)got / u->max_plain_tx * full +
	     TLSX_REC_HDR + (size_t)got % u->max_plain_tx;
	if (at > u->t_used)
		u->t_used = at;
	err = seal_placed(c, (size_t)got, b);
	if (err)
		return err;
	*off += got;
	return got;
}

/* Where the batch's plaintext byte @pos lies: @base, then full records. */
static u8 *batch_at(struct tlsx_conn *c, size_t base, size_t pos)
{
	struct tlsx_urec *u = c->u;

	return u->t + base + pos / u->max_plain_tx *
	       sealed_size(u->max_plain_tx) + TLSX_REC_HDR +
	       pos % u->max_plain_tx;
}

/*
 * The batch's plaintext placed up to @pos is wiped with the scratch
 * (tx_end()), also when a read or a seal fails after it.
 */
static void note_used(struct tlsx_conn *c, size_t base, size_t pos)
{
	struct tlsx_urec *u = c->u;
	size_t end = pos ? (size_t)(batch_at(c, base, pos - 1) - u->t) + 1 :
			   base;

	if (end > u->t_used)
		u->t_used = end;
}

/* iovecs one preadv(2) of tlsx_sendv()'s file ranges takes at most. */
#define U_RUN_IOV	64

/*
 * File ranges of tlsx_sendv() that follow each other in one file (the
 * DATA frames of one body, their headers between them), read by one
 * preadv(2) into their places in the batch: @at[k], where iovec k's
 * bytes are in the batch's plaintext.
 */
struct file_run {
	int fd;
	off_t off;
	size_t len;
	unsigned int cnt;
	struct iovec iov[U_RUN_IOV];
	size_t at[U_RUN_IOV];
};

/* The run's iovecs for batch bytes [@pos, @pos + @len), cut at records. */
static void run_add(struct tlsx_conn *c, struct file_run *r, size_t base,
		    size_t pos, size_t len)
{
	size_t max = c->u->max_plain_tx;

	r->len += len;
	while (len) {
		size_t n = max - pos % max;

		if (n > len)
			n = len;
		r->iov[r->cnt].iov_base = batch_at(c, base, pos);
		r->iov[r->cnt].iov_len = n;
		r->at[r->cnt++] = pos;
		pos += n;
		len -= n;
	}
}

/*
 * Reads the run: 0 when it came whole; 1 when the file ended first, the
 * batch then ending at *@end, its last byte read; or an error.
 */
static int run_read(struct tlsx_conn *c, struct file_run *r, size_t *end)
{
	unsigned int k;
	size_t left;
	ssize_t got;

	if (!r->cnt)
		return 0;
	do {
		got = preadv(r->fd, r->iov, (int)r->cnt, r->off);
	} while (got < 0 && errno == EINTR);
	if (got < 0)
		return tlsx__sys(c, errno);
	if ((size_t)got < r->len) {
		left = (size_t)got;
		for (k = 0; left >= r->iov[k].iov_len; k++)
			left -= r->iov[k].iov_len;
		*end = r->at[k] + left;
		return 1;
	}
	r->cnt = 0;
	r->len = 0;
	return 0;
}

/* Copies @len bytes of memory into the batch at @pos, across records. */
static void place_mem(struct tlsx_conn *c, size_t base, size_t pos,
		      const u8 *mem, size_t len)
{
	size_t max = c->u->max_plain_tx;

	while (len) {
		size_t n = max - pos % max;

		if (n > len)
			n = len;
		memcpy(batch_at(c, base, pos), mem, n);
		mem += n;
		pos += n;
		len -= n;
	}
}

/*
 * Up to @nrec records of tlsx_sendv()'s stream, from its byte @skip
 * (@want bytes at most): memory copied into their plaintext, file ranges
 * read straight into it, each record sealed where it lies, back to back
 * since every record but the last is full.  The bytes taken, 0 when a
 * file ended at the cursor, or an error.
 */
static ssize_t seal_pieces(struct tlsx_conn *c, const struct tlsx_piece *p,
			   unsigned int np, size_t skip, size_t want,
			   unsigned int nrec, struct tx_batch *b)
{
	struct tlsx_urec *u = c->u;
	size_t max = u->max_plain_tx, full = sealed_size(max);
	size_t base, cap, pos = 0, qoff = skip;
	struct file_run run = { .cnt = 0, .len = 0 };
	unsigned int i = 0;
	int err;

	/* Nothing is pending here (write_records() flushed it). */
	err = tx_begin(c);
	if (err)
		return seal_failed(c, err);
	while (i < np && qoff >= p[i].len)
		qoff -= p[i++].len;
	base = u->t_len;
	while (nrec > 1 && base + nrec * full > TLSX_U_TX_MAX)
		nrec--;
	cap = (size_t)nrec * max;
	if (cap > want)
		cap = want;
	for (; pos < cap && i < np; i++, qoff = 0) {
		const struct tlsx_piece *q = &p[i];
		size_t take = q->len - qoff;
		off_t foff = q->off + (off_t)qoff;

		if (take > cap - pos)
			take = cap - pos;
		if (!take)
			continue;
		if (q->mem) {
			place_mem(c, base, pos, (const u8 *)q->mem + qoff,
				  take);
		} else {
			if (run.cnt && (run.fd != q->fd ||
					run.off + (off_t)run.len != foff ||
					run.cnt + take / max + 2 > U_RUN_IOV)) {
				note_used(c, base, pos);
				err = run_read(c, &run, &pos);
				if (err)
					goto read_end;
			}
			if (!run.cnt) {
				run.fd = q->fd;
				run.off = foff;
			}
			run_add(c, &run, base, pos, take);
		}
		pos += take;
		if (take < q->len - qoff)
			break;
	}
	note_used(c, base, pos);
	err = run_read(c, &run, &pos);
read_end:
	if (err < 0)
		return err;
	err = seal_placed(c, pos, b);
	if (err)
		return err;
	return pos;
}

/*
 * After a write(2) that stopped short: the records of @b the socket took
 * no byte of are dropped (their sequence numbers used again, their bytes
 * given back to the caller, the file offset moved back), so a connection
 * waiting to write keeps at most one record's rest.  Returns the bytes
 * given back.
 */
static size_t unsend_tail(struct tlsx_conn *c, struct tx_batch *b,
			  off_t *off)
{
	struct tlsx_urec *u = c->u;
	size_t back = 0;
	unsigned int dropped = 0;

	while (b->n && b->start[b->n - 1] >= u->t_off) {
		b->n--;
		back += b->plain[b->n];
		dropped++;
	}
	if (!dropped)
		return 0;
	u->t_len = b->start[b->n];
	tlsx_rec_unseal(&u->tx, dropped);
	if (off)
		*off -= (off_t)back;
	return back;
}

/*
 * Seals @len bytes of application data, up to TLSX_U_TX_BATCH records
 * at a time, from @buf or, with @file_fd >= 0, from the file at *@off,
 * and writes each batch with one send(2).  Returns the bytes taken, or
 * an error (WANT_WRITE when nothing was).
 */
static ssize_t write_records(struct tlsx_conn *c, const u8 *buf, size_t len,
			     int file_fd, off_t *off,
			     const struct tlsx_piece *p, unsigned int np)
{
	struct tlsx_urec *u = c->u;
	size_t total = 0;
	ssize_t ret;
	int err;

	err = tlsx__u_flush(c, 0);
	if (err)
		return err;
	while (total < len) {
		size_t want = len - total;
		unsigned int nrec = TLSX_U_TX_BATCH;
		struct tx_batch b = { .n = 0 };
		ssize_t got;

		if (want <= (TLSX_U_TX_BATCH - 1) * u->max_plain_tx)
			nrec = (unsigned int)((want + u->max_plain_tx - 1) /
					      u->max_plain_tx);
		err = tlsx__rekey_if_due(c, u->tx.seq, nrec);
		if (err) {
			ret = total ? (ssize_t)total : err;
			goto out;
		}
		/* Queued behind the KeyUpdate, if one went. */
		if (u->t_len) {
			err = tlsx__u_flush(c, 0);
			if (err) {
				ret = total ? (ssize_t)total : err;
				goto out;
			}
		}
		if (p) {
			got = seal_pieces(c, p, np, total, want, nrec, &b);
			if (got < 0) {
				ret = total ? (ssize_t)total : got;
				goto out;
			}
			if (!got)
				break;
		} else if (file_fd < 0) {
			got = seal_buf(c, buf + total, want, nrec, &b);
			if (got < 0) {
				ret = seal_failed(c, (int)got);
				goto out;
			}
		} else {
			got = seal_file(c, file_fd, off, want, nrec, &b);
			if (got < 0) {
				ret = total ? (ssize_t)total : got;
				goto out;
			}
			if (!got)
				break;
		}
		total += got;
		err = tlsx__u_flush(c, 0);
		if (err == TLSX_WANT_WRITE) {
			total -= unsend_tail(c, &b, off);
			ret = total ? (ssize_t)total : TLSX_WANT_WRITE;
			goto out;
		}
		if (err) {
			ret = err;
			goto out;
		}
	}
	ret = total;
out:
	return tx_end(c, ret);
}

ssize_t tlsx__u_write(struct tlsx_conn *c, const void *buf, size_t len)
{
	return write_records(c, buf, len, -1, NULL, NULL, 0);
}

ssize_t tlsx__u_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
			 size_t count)
{
	return write_records(c, NULL, count, file_fd, off, NULL, 0);
}

ssize_t tlsx__u_sendv(struct tlsx_conn *c, const struct tlsx_piece *p,
		      unsigned int n)
{
	size_t len = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (p[i].len > SSIZE_MAX - len)
			return TLSX_E_INVAL;
		len += p[i].len;
	}
	return write_records(c, NULL, len, -1, NULL, p, n);
}

/*
 * Opens the whole record @rec (in the scratch): 1 with its application
 * data in *@data, *@len; 0 after a control record; or an error.
 */
static int open_record(struct tlsx_conn *c, u8 *rec, size_t body, u8 **data,
		       size_t *len)
{
	struct tlsx_urec *u = c->u;
	u8 type;
	int err;

	/*
	 * 5: after the handshake every record is protected (outer type
	 * application_data); a change_cipher_spec is allowed only before
	 * the peer's Finished (5, D.4).
	 */
	if (rec[0] != TLSX_CT_APPLICATION_DATA)
		return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
	err = tlsx_rec_open(&u->rx, rec, TLSX_REC_HDR + body, u->max_plain_rx,
			    &type, data, len);
	if (err)
		return tlsx__abort(c, err);
	if (type == TLSX_CT_APPLICATION_DATA) {
		/* 5.1: not inside a handshake message, even empty. */
		err = tlsx__hs_interleaved(c);
		return err < 0 ? err : 1;
	}
	err = tlsx__control(c, type, *data, *len, true);
	return err < 0 ? err : 0;
}

/* Plaintext kept from an earlier call: handed out first. */
static ssize_t read_kept(struct tlsx_urec *u, void *buf, size_t len)
{
	size_t n = u->pt_len - u->pt_off;

	if (n > len)
		n = len;
	memcpy(buf, u->pt + u->pt_off, n);
	u->pt_off += n;
	if (u->pt_off == u->pt_len) {
		drop(&u->pt, u->pt_len);
		u->pt_off = 0;
		u->pt_len = 0;
	}
	return n;
}

/*
 * Reads and opens records in @rb (the scratch, [*@start, *@end) the
 * ciphertext there) until one gives application data, of which what
 * @buf does not take is kept.  *@used: the scratch bytes written.
 */
static ssize_t read_records(struct tlsx_conn *c, u8 *rb, size_t *start,
			    size_t *end, size_t *used, void *buf, size_t len)
{
	struct tlsx_urec *u = c->u;
	int err;

	for (;;) {
		size_t avail = *end - *start, body, plen;
		u8 *data;
		ssize_t n;

		if (c->rx_closed)
			return 0;
		if (c->err)
			return c->err;
		if (c->rx_err)
			return c->rx_err;
		if (avail >= TLSX_REC_HDR) {
			err = tlsx_rec_header(rb + *start, u->max_body_rx,
					      &body);
			if (err)
				return tlsx__abort(c, err);
			if (avail >= TLSX_REC_HDR + body) {
				u8 *rec = rb + *start;

				*start += TLSX_REC_HDR + body;
				err = open_record(c, rec, body, &data, &plen);
				if (err < 0)
					return err;
				/*
				 * An empty record or a control: read on, a
				 * bounded number of them per call (what is
				 * left stays kept: tlsx_pending()).
				 */
				if (!err || !plen) {
					err = tlsx__rx_nodata(c, err != 0);
					if (err)
						return err;
					continue;
				}
				n = len < plen ? len : plen;
				memcpy(buf, data, n);
				if ((size_t)n < plen) {
					u->pt = keep(data + n, plen - n);
					if (!u->pt)
						return tlsx__fail(c,
								  TLSX_E_NOMEM);
					u->pt_off = 0;
					u->pt_len = plen - n;
				}
				return n;
			}
		}
		if (*start) {
			memmove(rb, rb + *start, avail);
			*start = 0;
			*end = avail;
		}
		n = read(c->fd, rb + *end, TLSX_REC_MAX - *end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_READ;
			return tlsx__sys(c, errno);
		}
		/* 6.1: a TCP close before close_notify is a truncation. */
		if (!n)
			return tlsx__fail(c, TLSX_E_EOF);
		*end += n;
		if (*end > *used)
			*used = *end;
	}
}

ssize_t tlsx__u_read(struct tlsx_conn *c, void *buf, size_t len)
{
	struct tlsx_urec *u = c->u;
	struct tlsx_scratch *s;
	size_t start = 0, end = 0, used;
	ssize_t ret;
	int err;

	/*
	 * Records still pending (a server's tickets, a KeyUpdate reply) go
	 * out even when the program only reads.
	 */
	if (u->t_len) {
		err = tlsx__u_flush(c, 0);
		if (err && err != TLSX_WANT_WRITE)
			return err;
	}
	if (u->pt)
		return read_kept(u, buf, len);
	if (c->rx_closed)
		return 0;
	if (c->err)
		return c->err;
	if (c->rx_err)
		return c->rx_err;
	s = tlsx__scratch();
	if (!s)
		return TLSX_E_NOMEM;	/* not sticky: nothing was done */
	if (u->ct) {
		memcpy(s->in, u->ct, u->ct_len);
		end = u->ct_len;
		drop(&u->ct, u->ct_len);
		u->ct_len = 0;
	}
	used = end;
	ret = read_records(c, s->in, &start, &end, &used, buf, len);
	/*
	 * The ciphertext after the records opened, kept for the next call;
	 * after close_notify or a failure nothing more is read.
	 */
	if (end > start && !c->rx_closed && !c->err && !c->rx_err) {
		u->ct = keep(s->in + start, end - start);
		if (u->ct) {
			u->ct_len = end - start;
		} else {
			err = tlsx__fail(c, TLSX_E_NOMEM);
			if (ret <= 0)
				ret = err;
		}
	}
	memzero_explicit(s->in, used);
	return ret;
}
