// SPDX-License-Identifier: GPL-2.0
/*
 * conn_user.c - sending a response on libtlsx's userspace record layer
 * (no kernel TLS, or a peer's record_size_limit that only libtlsx cuts
 * records to): the head and the pieces after it gathered into one
 * record's plaintext in the worker's buffer and sealed by tlsx_write(),
 * a long file segment read into the record and sealed where it lies by
 * tlsx_sendfile().  Requests are read by tlsx_read() in conn.c.
 *
 * conn_layer.c puts these in the tables of the layers libtlsx seals for;
 * nothing here calls conn.c: a step that ends the connection returns how
 * (enum step).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conn_priv.h"

/* One record's plaintext (RFC 8446 5.1): the gather unit. */
#define TLS_PLAIN_MAX	16384

/*
 * The userspace layer: what is due, gathered from the pieces into one
 * record's plaintext (the head and a small body share a record and a
 * send(2)), or a long file segment by tlsx_sendfile() (read into the
 * record and sealed where it lies).  libtlsx takes what it sealed, even
 * if the socket was full: only "nothing taken" is TLSX_WANT_WRITE.
 */
enum step conn_user_send(struct loop *lp, struct conn *c, size_t *budget)
{
	struct active *a = c->a;
	const struct resp_seg *s = a->piece >= 0 ? &a->resp.seg[a->piece] :
			      NULL;
	size_t glen = 0;
	ssize_t n;

	if (s && !s->mem && s->len - a->poff >= TLS_PLAIN_MAX) {
		off_t off = s->off + a->poff;
		uint64_t want = s->len - a->poff;

		if (want > *budget)
			want = *budget;
		n = tlsx_sendfile(c->tls, a->resp.fd, &off, want);
	} else {
		int piece = a->piece;
		uint64_t poff = a->poff;

		while (glen < lp->gather_cap && piece < (int)a->resp.nseg) {
			uint64_t left = conn_piece_len(a, piece) - poff;
			size_t take = lp->gather_cap - glen;

			if (take > left)
				take = left;
			s = piece >= 0 ? &a->resp.seg[piece] : NULL;
			if (!s) {
				memcpy(lp->gather + glen, a->resp.head + poff,
				       take);
			} else if (s->mem) {
				memcpy(lp->gather + glen, s->mem + poff, take);
			} else if (take) {
				ssize_t got = pread(a->resp.fd,
						    lp->gather + glen, take,
						    s->off + poff);

				/* The file shrank under us. */
				if (got <= 0)
					return STEP_CLOSE;
				take = got;
			}
			glen += take;
			poff += take;
			if (poff == conn_piece_len(a, piece)) {
				piece++;
				poff = 0;
			}
		}
		if (!glen) {
			conn_advance(a, 0);
			return STEP_PROGRESS;
		}
		n = tlsx_write(c->tls, lp->gather, glen);
	}
	if (n == TLSX_WANT_WRITE) {
		conn_poll(lp, c, true);
		return STEP_WAIT;
	}
	if (n <= 0)
		return conn_tls_step(c, n);
	conn_advance(a, n);
	*budget = (size_t)n >= *budget ? 0 : *budget - n;
	return STEP_PROGRESS;
}

enum step conn_user_flush(struct loop *lp, struct conn *c)
{
	int ret = tlsx_conn_flush(c->tls);

	if (ret == TLSX_WANT_WRITE) {
		conn_poll(lp, c, true);
		return STEP_WAIT;
	}
	if (ret)
		return conn_tls_step(c, ret);
	return STEP_PROGRESS;
}

bool conn_user_input_kept(const struct conn *c)
{
	return tlsx_pending(c->tls);
}
