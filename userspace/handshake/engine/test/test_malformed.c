// SPDX-License-Identifier: GPL-2.0
/*
 * test_malformed.c - systematic refusals: every handshake message tlsx
 * parses, taken from a real tlsx client <-> tlsx server handshake
 * (fuzz_hs.h's configurations, fixed randomness: the same flights as
 * the fuzz seeds), corrupted one way at a time and replayed into a fresh
 * engine, which must refuse it with RFC 8446's alert (6.2) at that
 * message:
 *
 *  - every vector length inside the message, +1 and -1 (the handshake
 *    header kept): decode_error ("the length of the message was
 *    incorrect");
 *  - the body truncated at every byte (the header saying so):
 *    decode_error;
 *  - one trailing byte: decode_error;
 *  - every other message type in its place: unexpected_message (the
 *    state's one dispatch, 4: "sent in the wrong order");
 *  - in every extension block (ClientHello, ServerHello, HRR,
 *    EncryptedExtensions, CertificateRequest, each CertificateEntry): a
 *    type tlsx does not know (ignored in a request, unsupported_extension
 *    in a response), the first extension twice (illegal_parameter), each
 *    known extension the message may not carry (illegal_parameter), each
 *    one it may carry but was not asked for (a response:
 *    unsupported_extension), pre_shared_key not last (4.2.11);
 *  - NewSessionTicket through tlsx_session_from_ticket(): the same
 *    length, truncation, trailing and extension cases, a lifetime over
 *    seven days (illegal_parameter).
 *
 * The protected messages (EncryptedExtensions onwards) are re-sealed
 * under the key the engine reads with (fuzz_hs.h's feeder), so each
 * corruption reaches the parser, not the AEAD.  KeyUpdate: the engine
 * takes no post-handshake message (after DONE it consumes nothing); one
 * inside the handshake is among the wrong types above.  Hand-written
 * single refusals (downgrade sentinels, shares, PSK identities, ...)
 * are test_client.c's and test_server.c's, not repeated here.
 */
#include "kselftest_harness.h"
#include "handshake/engine/fuzz/fuzz_hs.h"

#define MAX_ITEMS	16
#define MAX_MSG		4096
#define MAX_FIELDS	160

struct item {
	u8 kind;		/* fuzz_hs.h's chunk kind */
	size_t len;
	u8 msg[MAX_MSG];	/* a whole handshake message, or CCS */
};

struct script {
	const char *name;
	bool server;		/* the engine under test */
	unsigned int bits;	/* its FZ_C_* / FZ_S_* configuration */
	unsigned int n;
	struct item it[MAX_ITEMS];
	/* Reassembly of the handshake stream while recording. */
	u8 pend[2 * MAX_MSG];
	size_t pend_len;
};

enum {
	C_FULL, C_HRR, C_AUTH, C_RESUME,
	S_FULL, S_HRR, S_AUTH, S_RESUME,
	N_SCRIPTS
};

static struct script scripts[N_SCRIPTS];
static struct fz_feeder feeder;
static u8 nst[1024];
static size_t nst_len;
static struct tlsx_hs_secrets nst_sec;
static bool ready;

/* --- recording ------------------------------------------------------------ */

struct rec_ctx {
	struct fz_pair *p;
	struct script *to_client, *to_server;
	bool bad;
};

static void add_item(struct rec_ctx *rc, struct script *s, u8 kind,
		     const u8 *p, size_t len)
{
	if (s->n == MAX_ITEMS || len > MAX_MSG) {
		rc->bad = true;
		return;
	}
	s->it[s->n].kind = kind;
	s->it[s->n].len = len;
	memcpy(s->it[s->n].msg, p, len);
	s->n++;
}

/* Handshake bytes in: each whole message becomes one item. */
static void add_stream(struct rec_ctx *rc, struct script *s, const u8 *p,
		       size_t len)
{
	size_t m;

	if (s->pend_len + len > sizeof(s->pend)) {
		rc->bad = true;
		return;
	}
	memcpy(s->pend + s->pend_len, p, len);
	s->pend_len += len;
	while (s->pend_len >= TLSX_HS_MSG_HDR) {
		m = TLSX_HS_MSG_HDR + ((size_t)s->pend[1] << 16 |
				       (size_t)s->pend[2] << 8 | s->pend[3]);
		if (s->pend_len < m)
			break;
		add_item(rc, s, TLSX_CT_HANDSHAKE, s->pend, m);
		memmove(s->pend, s->pend + m, s->pend_len - m);
		s->pend_len -= m;
	}
}

static void rec_tap(void *ctx, struct tlsx_hs *to, const u8 *rec, size_t len)
{
	struct rec_ctx *rc = ctx;
	struct script *s = to == rc->p->c ? rc->to_client : rc->to_server;
	static u8 copy[TLSX_REC_MAX];
	struct tlsx_rec_dir d;
	u8 type = rec[0], *data = (u8 *)rec + TLSX_REC_HDR;
	size_t n = len - TLSX_REC_HDR;

	if (type == TLSX_CT_APPLICATION_DATA && to->rd.set) {
		d = to->rd;
		memcpy(copy, rec, len);
		if (tlsx_rec_open(&d, copy, len, TLSX_REC_MAX_PLAIN, &type,
				  &data, &n))
			rc->bad = true;
		tlsx_rec_wipe(&d);
	}
	if (rc->bad)
		return;
	if (type == TLSX_CT_HANDSHAKE)
		add_stream(rc, s, data, n);
	else
		add_item(rc, s, type | FZ_KIND_PLAIN, data, n);
}

static int record(int c, int s, unsigned int cbits, unsigned int sbits)
{
	struct fz_pair *p = &fz_pair;
	struct rec_ctx rc = { p, &scripts[c], &scripts[s], false };

	memset(p, 0, sizeof(*p));
	p->tap = rec_tap;
	p->tap_ctx = &rc;
	scripts[c].bits = cbits;
	scripts[s].bits = sbits;
	scripts[s].server = true;
	p->c = fz_client(&p->ccfg, cbits, &p->cr);
	p->s = fz_server(&p->scfg, sbits, &p->sr);
	if (!p->c || !p->s)
		return -1;
	fz_pair_run(p);
	if (p->cret != TLSX_HS_DONE || p->sret != TLSX_HS_DONE || rc.bad)
		return -1;
	if (c == C_FULL) {
		/* A NewSessionTicket and the client's secrets to take it. */
		if (tlsx_hs_tickets(p->s, nst, sizeof(nst), &nst_len) ||
		    tlsx_hs_secrets(p->c, &nst_sec))
			return -1;
	}
	fz_pair_free(p);
	return 0;
}

static const char *const script_names[N_SCRIPTS] = {
	"client full", "client HRR", "client auth", "client resumed",
	"server full", "server HRR", "server auth", "server resumed",
};

static int setup(void)
{
	int i;

	if (ready)
		return 0;
	fz_init();
	for (i = 0; i < N_SCRIPTS; i++)
		scripts[i].name = script_names[i];
	if (record(C_FULL, S_FULL, 0, FZ_S_TICKETS) ||
	    record(C_HRR, S_HRR, 0, FZ_S_P256) ||
	    record(C_AUTH, S_AUTH, FZ_C_CHAIN, FZ_S_VERIFY) ||
	    record(C_RESUME, S_RESUME, FZ_C_SESSION, FZ_S_TICKETS))
		return -1;
	ready = true;
	return 0;
}

/* --- replaying ------------------------------------------------------------ */

static u8 chunks[MAX_ITEMS * (MAX_MSG + 8)];

static size_t put_chunk(size_t n, u8 kind, const u8 *p, size_t len)
{
	chunks[n] = kind;
	put_unaligned_be16((u16)len, chunks + n + 1);
	memcpy(chunks + n + FZ_CHUNK_HDR, p, len);
	return n + FZ_CHUNK_HDR + len;
}

/*
 * A fresh engine of script @s fed its items before @at, then @msg in
 * place of item @at: the last step's result; the engine is left in
 * feeder.hs for the caller to look at and free.
 */
static int replay(const struct script *s, unsigned int at, const u8 *msg,
		  size_t len)
{
	struct tlsx_hs_config *cfg = &fz_pair.ccfg;
	struct fz_rand *r = &fz_pair.cr;
	unsigned int i;
	size_t n = 0;

	memset(r, 0, sizeof(*r));
	for (i = 0; i < at; i++)
		n = put_chunk(n, s->it[i].kind, s->it[i].msg, s->it[i].len);
	n = put_chunk(n, s->it[at].kind, msg, len);
	feeder.hs = s->server ? fz_server(cfg, s->bits, r) :
				fz_client(cfg, s->bits, r);
	if (!feeder.hs)
		abort();
	return fz_feed(&feeder, chunks, n);
}

static void done(void)
{
	tlsx_hs_free(feeder.hs);
	feeder.hs = NULL;
}

struct tally {
	unsigned int cases, bad;
};

/*
 * @what of message @at of @s refused with @alert (or, @alert 0, taken:
 * the step wants the next flight).  Mismatches are logged, counted.
 */
static void expect(struct __test_metadata *_metadata, struct tally *t,
		   const struct script *s, unsigned int at, const u8 *msg,
		   size_t len, int alert, const char *what, long arg)
{
	int ret = replay(s, at, msg, len), got = tlsx_hs_alert(feeder.hs);
	bool ok;

	if (!alert)
		ok = ret == TLSX_HS_WANT_READ || ret == TLSX_HS_DONE;
	else
		ok = ret == -TLSX_HS_EALERT(alert) &&
		     !tlsx_hs_alert_received(feeder.hs);
	t->cases++;
	if (!ok) {
		t->bad++;
		TH_LOG("%s, message %u (type %u), %s %ld: ret %d alert %d %s, want %d %s",
		       s->name, at, s->it[at].msg[0], what, arg, ret, got,
		       tlsx_alert_name(got) ?: "", alert,
		       alert ? tlsx_alert_name(alert) : "taken");
	}
	done();
}

/* The baseline: the whole unchanged script completes. */
static bool script_ok(const struct script *s)
{
	int ret = replay(s, s->n - 1, s->it[s->n - 1].msg,
			 s->it[s->n - 1].len);

	done();
	return ret == TLSX_HS_DONE;
}

/* --- where the length fields are ------------------------------------------- */

struct field {
	size_t off;
	unsigned int width;
};

struct walk {
	const u8 *m;
	size_t end;		/* the message's end */
	size_t pos;
	struct field f[MAX_FIELDS];
	unsigned int n;
	/* Extension blocks: the offsets of their u16 lengths. */
	size_t ext_block[8];
	u8 ext_ctx[8];
	size_t ext_outer[8];	/* a CertificateEntry's list length, or 0 */
	unsigned int n_ext;
	bool bad;
};

static void w_skip(struct walk *w, size_t n)
{
	if (w->end - w->pos < n)
		w->bad = true;
	else
		w->pos += n;
}

/* A vector's length prefix: recorded; returns the vector's end. */
static size_t w_vec(struct walk *w, unsigned int width)
{
	size_t len = 0, i;

	if (w->end - w->pos < width || w->n == MAX_FIELDS) {
		w->bad = true;
		return w->pos;
	}
	for (i = 0; i < width; i++)
		len = len << 8 | w->m[w->pos + i];
	w->f[w->n].off = w->pos;
	w->f[w->n++].width = width;
	w->pos += width;
	if (w->end - w->pos < len) {
		w->bad = true;
		return w->pos;
	}
	return w->pos + len;
}

static void w_skip_vec(struct walk *w, unsigned int width)
{
	w->pos = w_vec(w, width);
}

/* A list of vectors of @width each, filling the outer vector of @outer. */
static void w_list(struct walk *w, unsigned int outer, unsigned int width,
		   size_t pre)
{
	size_t end = w_vec(w, outer);

	while (!w->bad && w->pos < end) {
		w_skip(w, pre);
		w_skip_vec(w, width);
	}
}

/* The inside of extension @type in @ctx, w->pos at its body. */
static void w_ext_body(struct walk *w, u16 type, u8 ctx, size_t end)
{
	size_t ids;

	switch (type) {
	case 0:		/* server_name */
		if (ctx == TLSX_CTX_CH)
			w_list(w, 2, 2, 1);
		break;
	case 10: case 13: case 50:	/* groups, signature algorithms */
		w_skip_vec(w, 2);
		break;
	case 16:	/* ALPN */
		w_list(w, 2, 1, 0);
		break;
	case 43:	/* supported_versions */
		if (ctx == TLSX_CTX_CH)
			w_skip_vec(w, 1);
		break;
	case 44:	/* cookie */
		w_skip_vec(w, 2);
		break;
	case 45:	/* psk_key_exchange_modes */
		w_skip_vec(w, 1);
		break;
	case 51:	/* key_share */
		if (ctx == TLSX_CTX_CH) {
			w_list(w, 2, 2, 2);
		} else if (ctx == TLSX_CTX_SH) {
			w_skip(w, 2);
			w_skip_vec(w, 2);
		}
		break;
	case 41:	/* pre_shared_key */
		if (ctx == TLSX_CTX_CH) {
			ids = w_vec(w, 2);
			while (!w->bad && w->pos < ids) {
				w_skip_vec(w, 2);
				w_skip(w, 4);
			}
			w_list(w, 2, 1, 0);
		}
		break;
	}
	w->pos = end;
}

static void w_exts(struct walk *w, u8 ctx, size_t outer)
{
	size_t end, body_end;
	u16 type;

	if (w->n_ext < ARRAY_SIZE(w->ext_block)) {
		w->ext_block[w->n_ext] = w->pos;
		w->ext_ctx[w->n_ext] = ctx;
		w->ext_outer[w->n_ext++] = outer;
	}
	end = w_vec(w, 2);
	while (!w->bad && w->pos < end) {
		if (end - w->pos < 4) {
			w->bad = true;
			return;
		}
		type = get_unaligned_be16(w->m + w->pos);
		w_skip(w, 2);
		body_end = w_vec(w, 2);
		if (!w->bad)
			w_ext_body(w, type, ctx, body_end);
	}
}

/* The length fields (and extension blocks) of handshake message @m. */
static void walk_msg(struct walk *w, const u8 *m, size_t len)
{
	size_t list;

	memset(w, 0, sizeof(*w));
	w->m = m;
	w->end = len;
	w->pos = TLSX_HS_MSG_HDR;
	switch (m[0]) {
	case TLSX_HT_CLIENT_HELLO:
		w_skip(w, 2 + TLSX_HS_RANDOM);
		w_skip_vec(w, 1);
		w_skip_vec(w, 2);
		w_skip_vec(w, 1);
		w_exts(w, TLSX_CTX_CH, 0);
		break;
	case TLSX_HT_SERVER_HELLO:
		w_skip(w, 2 + TLSX_HS_RANDOM);
		w_skip_vec(w, 1);
		w_skip(w, 3);
		w_exts(w, memcmp(m + 6, tlsx_hrr_random, TLSX_HS_RANDOM) ?
			  TLSX_CTX_SH : TLSX_CTX_HRR, 0);
		break;
	case TLSX_HT_ENCRYPTED_EXTENSIONS:
		w_exts(w, TLSX_CTX_EE, 0);
		break;
	case TLSX_HT_CERTIFICATE_REQUEST:
		w_skip_vec(w, 1);
		w_exts(w, TLSX_CTX_CR, 0);
		break;
	case TLSX_HT_CERTIFICATE:
		w_skip_vec(w, 1);
		list = w->pos;
		w->end = w_vec(w, 3);
		while (!w->bad && w->pos < w->end) {
			w_skip_vec(w, 3);
			w_exts(w, TLSX_CTX_CT, list);
		}
		w->end = len;
		break;
	case TLSX_HT_CERTIFICATE_VERIFY:
		w_skip(w, 2);
		w_skip_vec(w, 2);
		break;
	case TLSX_HT_FINISHED:	/* verify_data: no length of its own */
		w->pos = w->end;
		break;
	case TLSX_HT_NEW_SESSION_TICKET:
		w_skip(w, 8);
		w_skip_vec(w, 1);
		w_skip_vec(w, 2);
		w_exts(w, TLSX_CTX_NST, 0);
		break;
	}
	if (w->pos != w->end)
		w->bad = true;
}

/* --- the corruptions -------------------------------------------------------- */

static u8 mut[MAX_MSG + 64];

static void set_len(u8 *p, unsigned int width, size_t v)
{
	unsigned int i;

	for (i = 0; i < width; i++)
		p[i] = (u8)(v >> (8 * (width - 1 - i)));
}

static size_t get_len(const u8 *p, unsigned int width)
{
	size_t v = 0;
	unsigned int i;

	for (i = 0; i < width; i++)
		v = v << 8 | p[i];
	return v;
}

/* Calls @check for each length +1/-1, truncation and trailing byte. */
typedef void (*check_fn)(struct __test_metadata *_metadata,
			 struct tally *t, const void *ctx, unsigned int at,
			 const u8 *msg, size_t len, int alert,
			 const char *what, long arg);

static void framing(struct __test_metadata *_metadata, struct tally *t,
		    check_fn check, const void *ctx, unsigned int at,
		    const u8 *m, size_t len)
{
	struct walk w;
	size_t v, k, ext0;
	unsigned int i;
	int d, alert;

	walk_msg(&w, m, len);
	ASSERT_FALSE(w.bad) TH_LOG("message type %u does not walk", m[0]);
	for (i = 0; i < w.n; i++) {
		for (d = -1; d <= 1; d += 2) {
			v = get_len(m + w.f[i].off, w.f[i].width);
			if ((d < 0 && !v) ||
			    (d > 0 && (v + 1) >> (8 * w.f[i].width)))
				continue;
			memcpy(mut, m, len);
			set_len(mut + w.f[i].off, w.f[i].width, v + d);
			check(_metadata, t, ctx, at, mut, len,
			      TLSX_ALERT_DECODE_ERROR,
			      d < 0 ? "length -1 at" : "length +1 at",
			      (long)w.f[i].off);
		}
	}
	/* Hellos: cut where the extension block starts, TLS 1.2's shape. */
	ext0 = w.n_ext && (m[0] == TLSX_HT_CLIENT_HELLO ||
			   m[0] == TLSX_HT_SERVER_HELLO) ? w.ext_block[0] : 0;
	for (k = TLSX_HS_MSG_HDR; k < len; k++) {
		memcpy(mut, m, k);
		set_len(mut + 1, 3, k - TLSX_HS_MSG_HDR);
		/*
		 * 4.1.2/4.1.3: a hello without extensions is TLS 1.2's
		 * (no supported_versions): protocol_version, not a framing
		 * error.
		 */
		alert = k == ext0 ? TLSX_ALERT_PROTOCOL_VERSION :
				    TLSX_ALERT_DECODE_ERROR;
		check(_metadata, t, ctx, at, mut, k, alert, "truncated to",
		      (long)k);
	}
	memcpy(mut, m, len);
	mut[len] = 0;
	set_len(mut + 1, 3, len + 1 - TLSX_HS_MSG_HDR);
	check(_metadata, t, ctx, at, mut, len + 1, TLSX_ALERT_DECODE_ERROR,
	      "trailing byte", 0);
}

/*
 * @m with extension @type (empty body, or @body) first in block @b: the
 * block's, the message's and the enclosing list's lengths patched.
 */
static size_t insert_ext(const struct walk *w, unsigned int b, const u8 *m,
			 size_t len, u16 type, const u8 *body, size_t blen)
{
	size_t at = w->ext_block[b], add = 4 + blen, o = w->ext_outer[b];

	memcpy(mut, m, at + 2);
	put_unaligned_be16((u16)type, mut + at + 2);
	put_unaligned_be16((u16)blen, mut + at + 4);
	if (blen)
		memcpy(mut + at + 6, body, blen);
	memcpy(mut + at + 2 + add, m + at + 2, len - at - 2);
	set_len(mut + at, 2, get_len(m + at, 2) + add);
	set_len(mut + 1, 3, get_len(m + 1, 3) + add);
	if (o)
		set_len(mut + o, 3, get_len(m + o, 3) + add);
	return len + add;
}

static bool is_response(u8 ctx)
{
	return ctx & (TLSX_CTX_SH | TLSX_CTX_HRR | TLSX_CTX_EE | TLSX_CTX_CT);
}

/*
 * The extension cases of every block of @m; @requested: what the engine
 * under test sent for a response (its ClientHello's, CertificateRequest's
 * extensions); @binder: a ClientHello whose PSK binder covers the block
 * (a changed block cannot be "taken").
 */
static void extensions(struct __test_metadata *_metadata, struct tally *t,
		       check_fn check, const void *ctx, unsigned int at,
		       const u8 *m, size_t len, u32 requested, bool binder)
{
	static const u8 zero[1];
	const struct tlsx_ext_def *def;
	struct walk w;
	unsigned int b, id;
	size_t n, first, flen;
	u8 c;

	walk_msg(&w, m, len);
	ASSERT_FALSE(w.bad);
	for (b = 0; b < w.n_ext; b++) {
		c = w.ext_ctx[b];
		/* 4.2: unknown types are ignored in a request only. */
		n = insert_ext(&w, b, m, len, 0xfa0a, NULL, 0);
		if (is_response(c) || !binder)
			check(_metadata, t, ctx, at, mut, n,
			      is_response(c) ?
			      TLSX_ALERT_UNSUPPORTED_EXTENSION : 0,
			      "unknown extension in block", b);
		/* 4.2: never two of a type. */
		first = w.ext_block[b] + 2;
		if (get_len(m + w.ext_block[b], 2)) {
			flen = 4 + get_len(m + first + 2, 2);
			n = insert_ext(&w, b, m, len,
				       (u16)get_len(m + first, 2),
				       m + first + 4, flen - 4);
			check(_metadata, t, ctx, at, mut, n,
			      TLSX_ALERT_ILLEGAL_PARAMETER,
			      "duplicate first extension in block", b);
		}
		for (id = 0; id < TLSX_EXT_COUNT; id++) {
			def = tlsx_ext_def(id);
			if (!(def->msgs & c)) {
				/* 4.2: recognised, not for this message. */
				n = insert_ext(&w, b, m, len, def->type, zero,
					       0);
				check(_metadata, t, ctx, at, mut, n,
				      TLSX_ALERT_ILLEGAL_PARAMETER,
				      "forbidden extension", def->type);
			} else if (is_response(c) &&
				   !(requested & TLSX_EXT_BIT(id)) &&
				   !(c == TLSX_CTX_HRR &&
				     id == TLSX_EXT_COOKIE)) {
				/* 4.2: a response nobody asked for. */
				n = insert_ext(&w, b, m, len, def->type, zero,
					       0);
				check(_metadata, t, ctx, at, mut, n,
				      TLSX_ALERT_UNSUPPORTED_EXTENSION,
				      "unrequested extension", def->type);
			}
		}
		/* 4.2.11: pre_shared_key is the ClientHello's last. */
		if (c == TLSX_CTX_CH) {
			n = insert_ext(&w, b, m, len, 41, zero, 0);
			check(_metadata, t, ctx, at, mut, n,
			      TLSX_ALERT_ILLEGAL_PARAMETER,
			      "pre_shared_key first", 0);
		}
	}
}

/* --- the engine cases ------------------------------------------------------ */

static void engine_check(struct __test_metadata *_metadata, struct tally *t,
			 const void *ctx, unsigned int at, const u8 *msg,
			 size_t len, int alert, const char *what, long arg)
{
	const struct script *s = ctx;
	int ret;

	/*
	 * 4.1.2: the second ClientHello must be the first but for the
	 * changes an HRR asks for; server_role.c compares it with the first
	 * before it reads the extensions' insides, so an extension changed
	 * in any way (its framing too, an unknown one added) is
	 * illegal_parameter, which RFC 8446 also allows for it.
	 */
	if (s->server && at && msg[0] == TLSX_HT_CLIENT_HELLO &&
	    (alert == TLSX_ALERT_DECODE_ERROR || !alert)) {
		ret = replay(s, at, msg, len);
		done();
		if (ret == -TLSX_HS_EALERT(TLSX_ALERT_ILLEGAL_PARAMETER) ||
		    (alert && ret == -TLSX_HS_EALERT(alert))) {
			t->cases++;
			return;
		}
	}
	/*
	 * 4.2.11: pre_shared_key one byte short leaves a byte after it in
	 * the block: the walk (ext.c) finds it not last (illegal_parameter)
	 * before that byte fails to frame.
	 */
	if (msg[0] == TLSX_HT_CLIENT_HELLO && alert == TLSX_ALERT_DECODE_ERROR &&
	    !strcmp(what, "length -1 at") && arg >= 2 &&
	    get_unaligned_be16(msg + arg - 2) == 41)
		alert = TLSX_ALERT_ILLEGAL_PARAMETER;
	expect(_metadata, t, s, at, msg, len, alert, what, arg);
}

/* The types a state takes besides the recorded one (4.4.2, 4.3.2). */
static bool also_allowed(const struct script *s, unsigned int at, u8 type)
{
	u8 prev = 0, own = s->it[at].msg[0];
	unsigned int i;

	for (i = at; i-- > 0;) {
		if (s->it[i].kind == TLSX_CT_HANDSHAKE) {
			prev = s->it[i].msg[0];
			break;
		}
	}
	/* A client after EncryptedExtensions, not resuming: Certificate
	 * or CertificateRequest.
	 */
	return !s->server && prev == TLSX_HT_ENCRYPTED_EXTENSIONS &&
	       (own == TLSX_HT_CERTIFICATE ||
		own == TLSX_HT_CERTIFICATE_REQUEST) &&
	       (type == TLSX_HT_CERTIFICATE ||
		type == TLSX_HT_CERTIFICATE_REQUEST);
}

static const u8 all_types[] = {
	TLSX_HT_CLIENT_HELLO, TLSX_HT_SERVER_HELLO,
	TLSX_HT_NEW_SESSION_TICKET, TLSX_HT_END_OF_EARLY_DATA,
	TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_CERTIFICATE,
	TLSX_HT_CERTIFICATE_REQUEST, TLSX_HT_CERTIFICATE_VERIFY,
	TLSX_HT_FINISHED, TLSX_HT_KEY_UPDATE, TLSX_HT_MESSAGE_HASH,
	3, 99,		/* HelloVerifyRequest (DTLS), a type RFC 8446 lacks */
};

/* The extensions the engine under test sent that message @at answers. */
static u32 requested_for(const struct script *s, unsigned int at)
{
	struct tlsx_hs *hs;
	u32 sent;

	/* The client's own ClientHello: replay up to the answer, look. */
	replay(s, at, s->it[at].msg, s->it[at].len);
	hs = feeder.hs;
	sent = hs->sent_exts;
	done();
	return sent;
}

/*
 * Every corruption of every message of type @type in every script: the
 * framing cases, the wrong types in its place, the extension cases.
 */
static void message_class(struct __test_metadata *_metadata, u8 type)
{
	struct tally t = { 0 };
	const struct script *s;
	unsigned int i, at, k;
	bool binder;
	u32 req;

	ASSERT_EQ(0, setup());
	for (i = 0; i < N_SCRIPTS; i++) {
		s = &scripts[i];
		ASSERT_TRUE(script_ok(s)) TH_LOG("%s does not replay",
						 s->name);
		for (at = 0; at < s->n; at++) {
			const struct item *it = &s->it[at];

			if (it->kind != TLSX_CT_HANDSHAKE ||
			    it->msg[0] != type)
				continue;
			framing(_metadata, &t, engine_check, s, at, it->msg,
				it->len);
			for (k = 0; k < ARRAY_SIZE(all_types); k++) {
				if (all_types[k] == type ||
				    also_allowed(s, at, all_types[k]))
					continue;
				memcpy(mut, it->msg, it->len);
				mut[0] = all_types[k];
				expect(_metadata, &t, s, at, mut, it->len,
				       TLSX_ALERT_UNEXPECTED_MESSAGE,
				       "type", all_types[k]);
			}
			req = s->server ? 0 : requested_for(s, at);
			/* A CertificateRequest's extensions, for the
			 * client's Certificate: signature_algorithms only.
			 */
			if (s->server)
				req = TLSX_EXT_BIT(TLSX_EXT_SIGNATURE_ALGORITHMS);
			binder = type == TLSX_HT_CLIENT_HELLO &&
				 (s->bits & FZ_S_TICKETS) && i == S_RESUME;
			extensions(_metadata, &t, engine_check, s, at, it->msg,
				   it->len, req, binder);
		}
	}
	EXPECT_NE(0, t.cases);
	EXPECT_EQ(0, t.bad) TH_LOG("%u of %u cases refused wrongly", t.bad,
				   t.cases);
	TH_LOG("message type %u: %u cases", type, t.cases);
}

TEST(client_hello)
{
	message_class(_metadata, TLSX_HT_CLIENT_HELLO);
}

TEST(server_hello_and_hello_retry_request)
{
	message_class(_metadata, TLSX_HT_SERVER_HELLO);
}

TEST(encrypted_extensions)
{
	message_class(_metadata, TLSX_HT_ENCRYPTED_EXTENSIONS);
}

TEST(certificate_request)
{
	message_class(_metadata, TLSX_HT_CERTIFICATE_REQUEST);
}

TEST(certificate)
{
	message_class(_metadata, TLSX_HT_CERTIFICATE);
}

TEST(certificate_verify)
{
	message_class(_metadata, TLSX_HT_CERTIFICATE_VERIFY);
}

TEST(finished)
{
	message_class(_metadata, TLSX_HT_FINISHED);
}

/* --- NewSessionTicket ------------------------------------------------------- */

static void nst_check(struct __test_metadata *_metadata, struct tally *t,
		      const void *ctx, unsigned int at, const u8 *msg,
		      size_t len, int alert, const char *what, long arg)
{
	struct tlsx_session s;
	int ret;

	(void)ctx;
	(void)at;
	ret = tlsx_session_from_ticket(&nst_sec, FZ_HOST, (const u8 *)"h2",
				       msg, len, FZ_NOW, &s);
	t->cases++;
	if (ret != alert) {
		t->bad++;
		TH_LOG("NewSessionTicket, %s %ld: %d, want %d", what, arg,
		       ret, alert);
	}
	tlsx_session_wipe(&s);
}

TEST(new_session_ticket)
{
	struct tally t = { 0 };
	struct tlsx_session s;
	u8 type;
	unsigned int k;

	ASSERT_EQ(0, setup());
	ASSERT_LT(0, nst_len);
	ASSERT_EQ(0, tlsx_session_from_ticket(&nst_sec, FZ_HOST,
					      (const u8 *)"h2", nst, nst_len,
					      FZ_NOW, &s));
	tlsx_session_wipe(&s);
	/* One message: the framing and extension cases. */
	nst_len = TLSX_HS_MSG_HDR + get_len(nst + 1, 3);
	framing(_metadata, &t, nst_check, NULL, 0, nst, nst_len);
	extensions(_metadata, &t, nst_check, NULL, 0, nst, nst_len, 0, false);
	/* 4.6.1: "Servers MUST NOT use any value greater than 604800". */
	memcpy(mut, nst, nst_len);
	put_unaligned_be32(604801, mut + TLSX_HS_MSG_HDR);
	nst_check(_metadata, &t, NULL, 0, mut, nst_len,
		  TLSX_ALERT_ILLEGAL_PARAMETER, "lifetime", 604801);
	put_unaligned_be32(604800, mut + TLSX_HS_MSG_HDR);
	nst_check(_metadata, &t, NULL, 0, mut, nst_len, 0, "lifetime",
		  604800);
	/* Not a NewSessionTicket: a caller's mistake, -EINVAL. */
	for (k = 0; k < ARRAY_SIZE(all_types); k++) {
		type = all_types[k];
		if (type == TLSX_HT_NEW_SESSION_TICKET)
			continue;
		memcpy(mut, nst, nst_len);
		mut[0] = type;
		nst_check(_metadata, &t, NULL, 0, mut, nst_len, -EINVAL,
			  "type", type);
	}
	EXPECT_EQ(0, t.bad) TH_LOG("%u of %u cases refused wrongly", t.bad,
				   t.cases);
	TH_LOG("NewSessionTicket: %u cases", t.cases);
}

TEST_HARNESS_MAIN
