// SPDX-License-Identifier: GPL-2.0
/*
 * urec.c - the userspace record layer: what tlsx.ko does in the kernel,
 * done by libtlsx where no kernel record layer exists, with the same
 * AEAD engines (handshake/record.h on aead/aead.h).
 *
 * Receiving: one record's buffer.  read(2) takes what fits (several
 * records at once when they are small), each whole record is opened in
 * place, and its plaintext is handed out from where it lies; a record
 * cut at the buffer's end is moved to the front before the next read.
 * Nothing is read while plaintext is waiting, so the buffer never holds
 * more than one record's plaintext and the rest of the next.
 *
 * Sending: one record's buffer too.  A record is sealed into it and
 * written; on a non-blocking fd what the socket did not take stays there
 * and goes first on the next call (the record's bytes were taken from the
 * caller: they are committed).  Control records (a KeyUpdate owed, an
 * alert) are appended behind a pending record when they fit.
 *
 * The sequence number of each direction is the record count under its
 * key: our own KeyUpdate goes before it reaches the limit (5.5).
 */
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "handshake/alert.h"
#include "handshake/tlsx_int.h"

/* A KeyUpdate or an alert, sealed: header, content, type, tag. */
#define CTRL_MAX	(TLSX_REC_HDR + 16 + 1 + TLSX_AEAD_TAG_LEN)
#define TBUF_SIZE	(TLSX_REC_MAX + 2 * CTRL_MAX)

struct tlsx_urec {
	struct tlsx_rec_dir tx, rx;
	size_t max_plain_tx;	/* 2^14, or the peer's limit (RFC 8449) */
	size_t max_plain_rx;
	size_t max_body_rx;
	size_t r_start, r_end;	/* ciphertext not yet opened */
	u8 *p;			/* plaintext not yet handed out */
	size_t p_len;
	size_t t_off, t_len;	/* sealed, not yet written */
	u8 rbuf[TLSX_REC_MAX];
	u8 tbuf[TBUF_SIZE];
};

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
	memzero_explicit(u, sizeof(*u));
	free(u);
	c->u = NULL;
}

size_t tlsx__u_size(const struct tlsx_conn *c)
{
	return c->u ? sizeof(*c->u) : 0;
}

u64 tlsx__u_tx_seq(const struct tlsx_conn *c)
{
	return c->u->tx.seq;
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

int tlsx__u_flush(struct tlsx_conn *c)
{
	struct tlsx_urec *u = c->u;

	while (u->t_off < u->t_len) {
		ssize_t n = send(c->fd, u->tbuf + u->t_off,
				 u->t_len - u->t_off, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(c->fd, u->tbuf + u->t_off,
				  u->t_len - u->t_off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return TLSX_WANT_WRITE;
			return tlsx__sys(c, errno);
		}
		u->t_off += n;
	}
	u->t_off = 0;
	u->t_len = 0;
	return TLSX_OK;
}

/*
 * Seals one record behind what is pending: 0, or tlsx_rec_seal()'s
 * -errno (-ENOSPC when it does not fit).
 */
static int seal(struct tlsx_conn *c, u8 type, const u8 *data, size_t len)
{
	struct tlsx_urec *u = c->u;
	size_t n;
	int err;

	if (u->t_off) {
		memmove(u->tbuf, u->tbuf + u->t_off, u->t_len - u->t_off);
		u->t_len -= u->t_off;
		u->t_off = 0;
	}
	err = tlsx_rec_seal(&u->tx, type, data, len, 0, u->tbuf + u->t_len,
			    sizeof(u->tbuf) - u->t_len, &n);
	if (!err)
		u->t_len += n;
	return err;
}

/* A sealing failure: the sequence exhausted (5.5), or a bug. */
static int seal_failed(struct tlsx_conn *c, int err)
{
	return tlsx__fail(c, err == -EOVERFLOW ? TLSX_E_REKEY : TLSX_E_INVAL);
}

int tlsx__u_send_record(struct tlsx_conn *c, u8 type, const u8 *data,
			size_t len)
{
	int err;

	err = seal(c, type, data, len);
	if (err == -ENOSPC) {
		/* A whole record is pending: it goes first. */
		int ret = tlsx__u_flush(c);

		if (ret)
			return ret;
		err = seal(c, type, data, len);
	}
	if (err)
		return seal_failed(c, err);
	err = tlsx__u_flush(c);
	return err == TLSX_WANT_WRITE ? TLSX_OK : err;
}

/*
 * Seals @len bytes of application data, a record at a time, from @buf
 * or, with @file_fd >= 0, from the file at *@off (read into place), and
 * writes each.  Returns the bytes taken, or an error (WANT_WRITE when
 * nothing was).
 */
static ssize_t write_records(struct tlsx_conn *c, const u8 *buf, size_t len,
			     int file_fd, off_t *off)
{
	struct tlsx_urec *u = c->u;
	size_t total = 0;
	int err;

	err = tlsx__u_flush(c);
	if (err)
		return err;
	while (total < len) {
		size_t chunk = len - total, n;
		ssize_t got;

		if (chunk > u->max_plain_tx)
			chunk = u->max_plain_tx;
		err = tlsx__rekey_if_due(c, u->tx.seq, 1);
		if (err)
			return total ? (ssize_t)total : err;
		/* Queued behind the KeyUpdate, if one went. */
		if (u->t_len) {
			err = tlsx__u_flush(c);
			if (err)
				return total ? (ssize_t)total : err;
		}
		if (file_fd < 0) {
			err = seal(c, TLSX_CT_APPLICATION_DATA, buf + total,
				   chunk);
			got = chunk;
		} else {
			/* Read straight behind the header: sealed in place. */
			got = pread(file_fd, u->tbuf + TLSX_REC_HDR, chunk,
				    *off);
			if (got < 0 && errno == EINTR)
				continue;
			if (got < 0)
				return total ? (ssize_t)total :
					       tlsx__sys(c, errno);
			if (!got)
				break;
			err = tlsx_rec_seal(&u->tx, TLSX_CT_APPLICATION_DATA,
					    u->tbuf + TLSX_REC_HDR, got, 0,
					    u->tbuf, sizeof(u->tbuf), &n);
			if (!err) {
				u->t_len = n;
				*off += got;
			}
		}
		if (err)
			return seal_failed(c, err);
		total += got;
		err = tlsx__u_flush(c);
		if (err == TLSX_WANT_WRITE)
			break;
		if (err)
			return err;
	}
	return total;
}

ssize_t tlsx__u_write(struct tlsx_conn *c, const void *buf, size_t len)
{
	return write_records(c, buf, len, -1, NULL);
}

ssize_t tlsx__u_sendfile(struct tlsx_conn *c, int file_fd, off_t *off,
			 size_t count)
{
	return write_records(c, NULL, count, file_fd, off);
}

/* Opens the record at r_start (whole); its plaintext, or a control. */
static int open_record(struct tlsx_conn *c, size_t body)
{
	struct tlsx_urec *u = c->u;
	u8 *rec = u->rbuf + u->r_start, type, *data;
	size_t len;
	int err;

	u->r_start += TLSX_REC_HDR + body;
	/*
	 * 5: after the handshake every record is protected (outer type
	 * application_data); a change_cipher_spec is allowed only before
	 * the peer's Finished (5, D.4).
	 */
	if (rec[0] != TLSX_CT_APPLICATION_DATA)
		return tlsx__abort(c, TLSX_ALERT_UNEXPECTED_MESSAGE);
	err = tlsx_rec_open(&u->rx, rec, TLSX_REC_HDR + body, u->max_plain_rx,
			    &type, &data, &len);
	if (err)
		return tlsx__abort(c, err);
	if (type == TLSX_CT_APPLICATION_DATA) {
		u->p = data;
		u->p_len = len;
		return 0;
	}
	return tlsx__control(c, type, data, len, true);
}

ssize_t tlsx__u_read(struct tlsx_conn *c, void *buf, size_t len)
{
	struct tlsx_urec *u = c->u;
	int err;

	/*
	 * Records still pending (a server's tickets, a KeyUpdate owed) go
	 * out even when the program only reads.
	 */
	if (u->t_len) {
		err = tlsx__u_flush(c);
		if (err && err != TLSX_WANT_WRITE)
			return err;
	}
	for (;;) {
		size_t avail = u->r_end - u->r_start, body;
		ssize_t n;

		if (u->p_len) {
			n = len < u->p_len ? len : u->p_len;
			memcpy(buf, u->p, n);
			u->p += n;
			u->p_len -= n;
			return n;
		}
		if (c->rx_closed)
			return 0;
		if (c->err)
			return c->err;
		if (c->rx_err)
			return c->rx_err;
		if (avail >= TLSX_REC_HDR) {
			err = tlsx_rec_header(u->rbuf + u->r_start,
					      u->max_body_rx, &body);
			if (err)
				return tlsx__abort(c, err);
			if (avail >= TLSX_REC_HDR + body) {
				err = open_record(c, body);
				if (err < 0)
					return err;
				continue;
			}
		}
		if (u->r_start) {
			memmove(u->rbuf, u->rbuf + u->r_start, avail);
			u->r_start = 0;
			u->r_end = avail;
		}
		n = read(c->fd, u->rbuf + u->r_end, sizeof(u->rbuf) - u->r_end);
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
		u->r_end += n;
	}
}
