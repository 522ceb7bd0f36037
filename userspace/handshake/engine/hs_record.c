// SPDX-License-Identifier: GPL-2.0
/*
 * hs_record.c - the engine's records (RFC 8446 5): our handshake
 * messages framed into records (protected once a write key is set),
 * the ChangeCipherSpec and alert records we send, and the peer's
 * records read: headers checked, protected records opened, alerts
 * taken, handshake messages gathered across records and handed to the
 * role (hs_impl.h says which part does what).
 */
#include <stdlib.h>

#include "handshake/engine/hs_impl.h"

/* The first allocation of a gathered message, at least (hs_msg_room()). */
#define HS_GATHER_MIN	256

/* --- output ------------------------------------------------------------- */

/* The largest content of one record we send (5.1, RFC 8449 4). */
static size_t hs_frag_max(const struct tlsx_hs *hs)
{
	/* RFC 8449 4: in TLS 1.3 the limit counts the content type byte. */
	if (hs->wr.set && hs->peer_record_size_limit &&
	    hs->peer_record_size_limit - 1u < TLSX_REC_MAX_PLAIN)
		return hs->peer_record_size_limit - 1u;
	return TLSX_REC_MAX_PLAIN;
}

/*
 * Frames @len bytes of @type, which lie at o->buf + o->len + 5 already,
 * as records: one header each (and a tag, when protected), the content
 * split at hs_frag_max().  Fragments are moved into place last first
 * (each moves right), then sealed first to last, in sequence order.
 */
static int hs_frame(struct tlsx_hs *hs, struct hs_out *o, u8 type, size_t len)
{
	size_t frag = hs_frag_max(hs), ovh = TLSX_REC_HDR, n, i, rl;
	u8 *base = o->buf + o->len;
	int ret;

	if (hs->wr.set)
		ovh += 1 + TLSX_AEAD_TAG_LEN;
	n = len ? (len + frag - 1) / frag : 1;
	if (o->cap - o->len < len || o->cap - o->len - len < n * ovh)
		return -ENOSPC;
	for (i = n - 1; i > 0; i--)
		memmove(base + i * (frag + ovh) + TLSX_REC_HDR,
			base + TLSX_REC_HDR + i * frag,
			i == n - 1 ? len - i * frag : frag);
	for (i = 0; i < n; i++) {
		u8 *r = base + i * (frag + ovh);
		size_t fl = i == n - 1 ? len - i * frag : frag;

		if (hs->wr.set) {
			ret = tlsx_rec_seal(&hs->wr, type, r + TLSX_REC_HDR,
					    fl, 0, r, o->cap - (size_t)(r -
					    o->buf), &rl);
			if (ret)
				return ret;
		} else {
			r[0] = type;
			r[1] = 0x03;
			/*
			 * 5.1: legacy_record_version 0x0303, but the initial
			 * ClientHello's "MAY also be 0x0301" for middleboxes.
			 */
			r[2] = hs->ch_record_0301 ? 0x01 : 0x03;
			put_unaligned_be16((u16)fl, r + 3);
			rl = TLSX_REC_HDR + fl;
		}
		o->len += rl;
	}
	hs->ch_record_0301 = false;
	return 0;
}

int hs_flush(struct tlsx_hs *hs, struct hs_out *o)
{
	size_t n = o->pend;

	if (!n)
		return 0;
	o->pend = 0;
	return hs_frame(hs, o, TLSX_CT_HANDSHAKE, n);
}

void hs_msg_begin(struct tlsx_hs *hs, struct hs_out *o, u8 type,
		  struct tlsx_wr *w)
{
	size_t room = o->cap - o->len - o->pend;

	(void)hs;
	o->msg_start = o->len + TLSX_REC_HDR + o->pend;
	/* A writer on nothing fails at its first push with -ENOSPC. */
	tlsx_wr_init(w, o->buf + o->msg_start,
		     room > TLSX_REC_HDR ? room - TLSX_REC_HDR : 0);
	tlsx_wr_u8(w, type);
	tlsx_wr_open(w, 3);
}

int hs_msg_end_raw(struct tlsx_hs *hs, struct hs_out *o, struct tlsx_wr *w,
		   u8 **msg, size_t *len)
{
	int ret;

	(void)hs;
	ret = tlsx_wr_close(w);
	if (!ret)
		ret = tlsx_wr_finish(w, len);
	if (ret)
		return ret;
	*msg = o->buf + o->msg_start;
	return 0;
}

int hs_msg_commit(struct tlsx_hs *hs, struct hs_out *o, u8 *msg, size_t len)
{
	tlsx_transcript_add(&hs->ts, msg, len);
	o->pend += len;
	return 0;
}

int hs_msg_end(struct tlsx_hs *hs, struct hs_out *o, struct tlsx_wr *w)
{
	size_t len;
	u8 *msg;
	int ret = hs_msg_end_raw(hs, o, w, &msg, &len);

	if (ret)
		return ret;
	return hs_msg_commit(hs, o, msg, len);
}

/* D.4's dummy ChangeCipherSpec record. */
static const u8 hs_ccs_rec[] = { TLSX_CT_CHANGE_CIPHER_SPEC, 3, 3, 0, 1, 1 };

int hs_send_ccs(struct tlsx_hs *hs, struct hs_out *o)
{
	const u8 *ccs = hs_ccs_rec;
	int ret;

	if (hs->ccs_sent)
		return 0;
	ret = hs_flush(hs, o);
	if (ret)
		return ret;
	if (o->cap - o->len < sizeof(hs_ccs_rec))
		return -ENOSPC;
	memcpy(o->buf + o->len, ccs, sizeof(hs_ccs_rec));
	o->len += sizeof(hs_ccs_rec);
	hs->ccs_sent = true;
	return 0;
}

/* A fatal alert (6), protected once we have a write key. */
void hs_send_alert(struct tlsx_hs *hs, struct hs_out *o, u8 alert)
{
	u8 body[2] = { 2, alert };	/* AlertLevel fatal */
	size_t len, keep = 0;

	/*
	 * The flight being built is dropped, but a client's dummy CCS at
	 * its head (its second flight's, D.4) is kept: ccs_sent says it
	 * went, and the alert under the new key must follow one.
	 */
	if (!hs->server && hs->ccs_sent && o->len >= sizeof(hs_ccs_rec) &&
	    !memcmp(o->buf, hs_ccs_rec, sizeof(hs_ccs_rec)))
		keep = sizeof(hs_ccs_rec);
	o->len = keep;
	o->pend = 0;
	/*
	 * A client past ServerHello, before its second flight: the server
	 * reads the client's records under client_handshake_traffic_secret
	 * from the end of its own flight (7.1, A.2), so an alert in the
	 * clear would reach it as a record that does not open.  The alert
	 * goes under that key, after D.4's dummy CCS where the flight it
	 * replaces would have sent one (the first protected record).
	 * Both handshake secrets come from ServerHello: rd set means c_hs
	 * is there.
	 */
	if (!hs->server && hs->rd.set && !hs->wr.set) {
		if ((hs->session_id_len && hs_send_ccs(hs, o)) ||
		    hs_set_write_secret(hs, hs->c_hs)) {
			o->len = 0;
			return;
		}
	}
	if (hs->wr.set) {
		if (tlsx_rec_seal(&hs->wr, TLSX_CT_ALERT, body, 2, 0,
				  o->buf + o->len, o->cap - o->len, &len)) {
			o->len = 0;
			return;
		}
		o->len += len;
		return;
	}
	if (o->cap < TLSX_REC_HDR + 2)
		return;
	o->buf[0] = TLSX_CT_ALERT;
	o->buf[1] = 3;
	o->buf[2] = 3;
	put_unaligned_be16(2, o->buf + 3);
	memcpy(o->buf + TLSX_REC_HDR, body, 2);
	o->len = TLSX_REC_HDR + 2;
}

/* --- input -------------------------------------------------------------- */

/* An alert record's body: the handshake ends, nothing is sent back. */
static int hs_alert_in(struct tlsx_hs *hs, const u8 *body, size_t len)
{
	/*
	 * 5.4: "Implementations MUST NOT send Handshake and Alert records
	 * that have a zero-length TLSInnerPlaintext.content; if such a
	 * message is received, the receiving implementation MUST terminate
	 * the connection with an "unexpected_message" alert" (padding or
	 * not: the padding is not content).
	 */
	if (!len)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	/*
	 * 6: struct { AlertLevel level; AlertDescription description; };
	 * 5.1: one alert per record, never fragmented: a record that does
	 * not hold exactly one cannot be parsed.
	 */
	if (len != 2)
		return TLSX_ALERT_DECODE_ERROR;
	/*
	 * 5.1: "Handshake messages MUST NOT be interleaved with other
	 * record types": an alert between two fragments of a message is
	 * refused rather than taken (a CCS is, in hs_record()).
	 */
	if (hs->msg_len)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	/*
	 * 6: in TLS 1.3 the level is implicit; every alert but
	 * close_notify and user_canceled is fatal, and those two also end
	 * a handshake that is not done.
	 */
	hs->alert = body[1];
	hs->alert_received = true;
	return HS_EALERT_IN;
}

/* A handshake message's uint24 length (4). */
static size_t hs_msg_body_len(const u8 *m)
{
	return (size_t)m[1] << 16 | (size_t)m[2] << 8 | m[3];
}

void hs_msg_free(struct tlsx_hs *hs)
{
	if (hs->msg) {
		/* The peer's message, perhaps decrypted: not left behind. */
		memzero_explicit(hs->msg, hs->msg_cap);
		free(hs->msg);
	}
	hs->msg = NULL;
	hs->msg_cap = 0;
	hs->msg_need = 0;
	hs->msg_len = 0;
}

/*
 * The largest body the peer may give a handshake message of @type (4),
 * checked at its header, before a byte of it is gathered: max_msg (the
 * configuration's, default 16 KiB), which bounds what is the peer's
 * choice of size and ours to limit (its Certificate chain,
 * CertificateRequest, CertificateVerify, EncryptedExtensions, a
 * ServerHello), but for a server's ClientHello: TLSX_HS_MAX_CLIENT_HELLO,
 * 131,396 bytes, the most its structure can hold (4.1.2: 2 + 32 + 1 +
 * 32 + 2 + (2^16 - 2) + 1 + (2^8 - 1) + 2 + (2^16 - 1)), also OpenSSL's
 * CLIENT_HELLO_MAX_LENGTH.  That one is not ours to choose: a hello with
 * many extensions, groups or schemes, or a large key share for a group
 * we do not know (4.2.8: the server ignores it), is legal, and refusing
 * it fails the client.  Memory stays what the peer sent (hs_msg_room()).
 *
 * No tighter bound here for Finished (Hash.length), KeyUpdate (1) or
 * EndOfEarlyData (0): the role refuses them where they are unexpected
 * with unexpected_message, which comes first (test_malformed.c), and
 * checks their exact length where they are expected; until then they
 * hold what the peer sent, under max_msg.  After the handshake
 * (libtlsx's rl_control.c handshake_bytes()) KeyUpdate's one byte is
 * checked at its header.  Anything longer than its bound cannot be the
 * message: decode_error (6.2: "the length of the message was incorrect").
 */
static size_t hs_msg_max(const struct tlsx_hs *hs, u8 type)
{
	if (type == TLSX_HT_CLIENT_HELLO && hs->server)
		return TLSX_HS_MAX_CLIENT_HELLO;
	return hs->max_msg;
}

/*
 * Makes room in hs->msg for @more bytes after its msg_len, growing with
 * what has come rather than to what the header announced: a peer that
 * announces a long message and sends it slowly (or never) holds only
 * what it sent, at most twice that (doubling keeps the copies linear),
 * never more than the message (msg_need).  The old buffer is wiped: a
 * protected message is plaintext here.
 */
static int hs_msg_room(struct tlsx_hs *hs, size_t more)
{
	size_t want = hs->msg_len + more, cap;
	u8 *m;

	if (want <= hs->msg_cap)
		return 0;
	cap = hs->msg_cap * 2;
	if (cap < want)
		cap = want;
	if (cap < HS_GATHER_MIN)
		cap = HS_GATHER_MIN;
	if (cap > hs->msg_need)
		cap = hs->msg_need;
	m = malloc(cap);
	if (!m)
		return -ENOMEM;
	if (hs->msg) {
		memcpy(m, hs->msg, hs->msg_len);
		memzero_explicit(hs->msg, hs->msg_cap);
		free(hs->msg);
	}
	hs->msg = m;
	hs->msg_cap = cap;
	return 0;
}

/*
 * The next bytes of a message that spans records, from @data[0..@len):
 * *@took says how many were taken (all of them, or up to the message's
 * end).  Its length is checked once the header is whole (hs_msg_max());
 * the buffer grows with what arrives (hs_msg_room()) up to the
 * message's size, 4 + its length.
 */
static int hs_gather(struct tlsx_hs *hs, const u8 *data, size_t len,
		     size_t *took)
{
	size_t take, mlen;
	int ret;

	*took = 0;
	if (hs->msg_len < TLSX_HS_MSG_HDR) {
		take = TLSX_HS_MSG_HDR - hs->msg_len;
		if (take > len)
			take = len;
		memcpy(hs->hdr + hs->msg_len, data, take);
		hs->msg_len += take;
		*took = take;
		if (hs->msg_len < TLSX_HS_MSG_HDR)
			return 0;
		/* See hs_messages(): a message longer than we take. */
		mlen = hs_msg_body_len(hs->hdr);
		if (mlen > hs_msg_max(hs, hs->hdr[0]))
			return TLSX_ALERT_DECODE_ERROR;
		hs->msg_need = TLSX_HS_MSG_HDR + mlen;
		hs->msg_len = 0;
		ret = hs_msg_room(hs, TLSX_HS_MSG_HDR + (len - take < mlen ?
						       len - take : mlen));
		if (ret)
			return ret;
		memcpy(hs->msg, hs->hdr, TLSX_HS_MSG_HDR);
		hs->msg_len = TLSX_HS_MSG_HDR;
	}
	take = hs->msg_need - hs->msg_len;
	if (take > len - *took)
		take = len - *took;
	ret = hs_msg_room(hs, take);
	if (ret)
		return ret;
	memcpy(hs->msg + hs->msg_len, data + *took, take);
	hs->msg_len += take;
	*took += take;
	return 0;
}

/*
 * One record's handshake bytes @data[0..@len): each message that lies
 * wholly inside goes to the role where it is; one that spans records is
 * gathered (hs_gather()) and goes to the role once whole.
 */
static int hs_messages(struct tlsx_hs *hs, const u8 *data, size_t len,
		       struct hs_out *o)
{
	size_t off = 0, took, mlen;
	const u8 *m;
	int ret;

	/* 5.1: "Implementations MUST NOT send zero-length fragments of
	 * Handshake types."
	 */
	if (!len)
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	while (off < len && !hs->done) {
		m = data + off;
		mlen = 0;
		if (!hs->msg_len && len - off >= TLSX_HS_MSG_HDR) {
			/* Its type's bound (hs_msg_max()): decode_error. */
			mlen = hs_msg_body_len(m);
			if (mlen > hs_msg_max(hs, m[0]))
				return TLSX_ALERT_DECODE_ERROR;
			mlen += TLSX_HS_MSG_HDR;
		}
		if (hs->msg_len || !mlen || len - off < mlen) {
			ret = hs_gather(hs, m, len - off, &took);
			if (ret)
				return ret;
			off += took;
			/* Not whole: all of @data was taken, wait for more. */
			if (!hs->msg || hs->msg_len < hs->msg_need)
				break;
			m = hs->msg;
			mlen = hs->msg_need;
		} else {
			off += mlen;
		}
		hs->rd_key_changed = false;
		ret = hs->role->handle(hs, m, mlen, o);
		if (m == hs->msg)
			hs_msg_free(hs);
		if (ret)
			return ret;
		/* The server's ClientHello may now be followed by a CCS. */
		hs->ccs_ok = true;
		/*
		 * 5.1: a message that precedes a key change (ServerHello,
		 * Finished, ...) must end its record: "if they are not,
		 * then they MUST terminate the connection with an
		 * "unexpected_message" alert".  The last message of the
		 * handshake ends the record too: nothing after it is ours.
		 */
		if ((hs->rd_key_changed || hs->done) && off != len)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
	return 0;
}

/*
 * The largest TLSInnerPlaintext (content, type byte and padding) the
 * peer may send us: 2^14 + 1 (5.4), or the record_size_limit we
 * announced once the peer has announced one too (RFC 8449 4: a server
 * answers only a client that sent it; a client's is in force once the
 * server's EncryptedExtensions answered with its own).
 */
static size_t hs_inner_max(const struct tlsx_hs *hs)
{
	size_t lim = hs->cfg->record_size_limit;

	if (lim && hs->peer_record_size_limit && lim <= TLSX_REC_MAX_PLAIN)
		return lim;
	return TLSX_REC_MAX_PLAIN + 1;
}

/*
 * One protected record: opened where it lies when the caller let us
 * (@wrec, tlsx_hs_step_inplace()), else copied to hs->rec first.
 */
static int hs_protected(struct tlsx_hs *hs, const u8 *rec, u8 *wrec,
			size_t rec_len, struct hs_out *o)
{
	u8 *copy = wrec, *data, type;
	size_t len;
	int ret;

	if (!copy) {
		copy = hs->rec;
		memcpy(copy, rec, rec_len);
	}
	ret = tlsx_rec_open(&hs->rd, copy, rec_len, TLSX_REC_MAX_PLAIN, &type,
			    &data, &len);
	if (ret == TLSX_ALERT_BAD_RECORD_MAC &&
	    hs->early_skip >= rec_len - TLSX_REC_HDR) {
		/* 4.2.10: 0-RTT declined, the client's early records are
		 * discarded, up to max_early_data_size.
		 */
		hs->early_skip -= rec_len - TLSX_REC_HDR;
		return 0;
	}
	if (ret)
		return ret;
	/*
	 * 5.4: "the full encoded TLSInnerPlaintext MUST NOT exceed 2^14 +
	 * 1 octets", padding included (tlsx_rec_open() checks that bound,
	 * not a limit we announced, which counts the padding too); RFC 8449 4: "A TLS endpoint that receives a record larger
	 * than its advertised limit MUST generate a fatal
	 * "record_overflow" alert".  Judged once the record opened: 0-RTT
	 * records skipped above were sent before any limit was known.
	 */
	if (rec_len - TLSX_REC_HDR - TLSX_AEAD_TAG_LEN > hs_inner_max(hs))
		return TLSX_ALERT_RECORD_OVERFLOW;
	hs->early_skip = 0;
	switch (type) {
	case TLSX_CT_HANDSHAKE:
		return hs_messages(hs, data, len, o);
	case TLSX_CT_ALERT:
		return hs_alert_in(hs, data, len);
	default:
		/*
		 * 5: a protected change_cipher_spec, or application data
		 * before the handshake is done (tlsx accepts no 0-RTT):
		 * unexpected_message.
		 */
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
}

/*
 * One whole record @rec[0..@rec_len), its header checked; @wrec is the
 * same bytes writable (tlsx_hs_step_inplace()) or NULL.
 */
int hs_record(struct tlsx_hs *hs, const u8 *rec, u8 *wrec,
	      size_t rec_len, struct hs_out *o)
{
	const u8 *body = rec + TLSX_REC_HDR;
	size_t len = rec_len - TLSX_REC_HDR;

	switch (rec[0]) {
	case TLSX_CT_CHANGE_CIPHER_SPEC:
		/*
		 * 5: "An implementation may receive an unencrypted record of
		 * type change_cipher_spec consisting of the single byte
		 * value 0x01 at any time after the first ClientHello message
		 * has been sent or received and before the peer's Finished
		 * message has been received and MUST simply drop it ...  An
		 * implementation which receives any other change_cipher_spec
		 * value ... MUST abort the handshake with an
		 * "unexpected_message" alert."  Not inside a message either
		 * (5.1: no interleaving).
		 */
		if (!hs->ccs_ok || len != 1 || body[0] != 1 || hs->msg_len)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
		/*
		 * D.4: a compatibility-mode peer sends "a dummy
		 * change_cipher_spec record" once (after its first
		 * ClientHello or before its second flight; after the
		 * server's first handshake message); a second one is not
		 * that record.
		 */
		if (hs->ccs_seen)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
		hs->ccs_seen = true;
		return 0;
	case TLSX_CT_ALERT:
		/*
		 * Unprotected alerts are taken even once the read key is
		 * set: a peer that fails before it switches its write key
		 * (OpenSSL does) sends them so, and the handshake ends
		 * either way.
		 */
		return hs_alert_in(hs, body, len);
	case TLSX_CT_HANDSHAKE:
		/* 5.2: once keyed, handshake records are protected. */
		if (hs->rd.set)
			return TLSX_ALERT_UNEXPECTED_MESSAGE;
		return hs_messages(hs, body, len, o);
	default:	/* application_data: tlsx_rec_header() checked */
		if (hs->rd.set)
			return hs_protected(hs, rec, wrec, rec_len, o);
		/*
		 * 4.2.10: after a HelloRetryRequest, early data is skipped.
		 * Not an empty record (a 0-RTT record holds at least its
		 * type and tag: an empty one is application data before any
		 * key, issue 26 item 6), nor one between the fragments of a
		 * message (5.1: no interleaving): unexpected_message.
		 */
		if (len && !hs->msg_len && hs->early_skip >= len) {
			hs->early_skip -= len;
			return 0;
		}
		return TLSX_ALERT_UNEXPECTED_MESSAGE;
	}
}
