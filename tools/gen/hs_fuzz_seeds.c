// SPDX-License-Identifier: GPL-2.0
/*
 * hs_fuzz_seeds.c - writes the seed corpora of the engine's fuzz targets
 * (DIR/NAME/) from tlsx's own client against
 * tlsx's own server, in memory, with fuzz_hs.h's configurations, fixed
 * randomness, clock and ticket keys:
 *
 *  - fuzz_client/: what the server sent, for a full handshake, a
 *    HelloRetryRequest, client authentication, resumption (psk_dhe_ke,
 *    psk_ke) and resumption after a HelloRetryRequest;
 *  - fuzz_server/: what the client sent, for the same handshakes;
 *  - fuzz_ticket/: the NewSessionTicket, the session's encoding and the
 *    opaque ticket of fz_make_session();
 *  - fuzz_ext/: the extension blocks of the ClientHellos.
 *
 * Each record is written as a fuzz_hs.h chunk of its plaintext (opened
 * with the receiver's read key as it stood just before the record went
 * in), so the fuzz targets' mutations apply to the messages, not to the
 * ciphertext; NAME-wire is the same flight as the bytes that went on the
 * wire (raw chunks), for mutations of the record layer.  Every handshake is checked to complete, and every seed is
 * replayed through a fresh engine the way the fuzz target does it, so a
 * seed that no longer reaches DONE is an error here, not a silent loss
 * of coverage.
 *
 *	build/bin/hs-fuzz-seeds DIR
 *
 * The build runs it (make's $(B)/fuzz-corpus, which tools/fuzz-run
 * reads): seeds made by the engine being fuzzed, never a recording of an
 * older one (the engine's ClientHello changes with its defaults, and a
 * client's recorded flight then fails its Finished).  Run from the top
 * of the tree (the certificates are read from
 * userspace/handshake/engine/test/data/).
 */
#include <errno.h>
#include <sys/stat.h>

#include "handshake/engine/fuzz/fuzz_hs.h"

static const char *corpus;
#define SEED_MAX	(64 * 1024)

struct seed {
	u8 buf[SEED_MAX];
	size_t len;
};

struct capture {
	struct fz_pair *p;
	struct seed to_client, to_server;
	/* The same records as they went on the wire (kind 0 chunks). */
	struct seed wire_client, wire_server;
	u8 ch_exts[2][2048];		/* ClientHello extension blocks */
	size_t ch_exts_len[2];
	unsigned int n_ch;
	bool overflow;
};

static void seed_chunk(struct capture *cap, struct seed *s, u8 kind,
		       const u8 *p, size_t len)
{
	if (s->len + FZ_CHUNK_HDR + len > sizeof(s->buf) || len > 0xffff) {
		cap->overflow = true;
		return;
	}
	s->buf[s->len++] = kind;
	s->buf[s->len++] = (u8)(len >> 8);
	s->buf[s->len++] = (u8)len;
	memcpy(s->buf + s->len, p, len);
	s->len += len;
}

/* A ClientHello's extension block (4.1.2), for the fuzz_ext seeds. */
static void keep_ch_exts(struct capture *cap, const u8 *m, size_t len)
{
	size_t off = TLSX_HS_MSG_HDR + 2 + TLSX_HS_RANDOM, n;

	if (m[0] != TLSX_HT_CLIENT_HELLO || cap->n_ch >= 2 || len < off + 1)
		return;
	off += 1 + m[off];				/* legacy_session_id */
	if (len < off + 2)
		return;
	off += 2 + ((size_t)m[off] << 8 | m[off + 1]);	/* cipher_suites */
	if (len < off + 1)
		return;
	off += 1 + m[off];				/* compression */
	if (len < off + 2)
		return;
	n = (size_t)m[off] << 8 | m[off + 1];
	off += 2;
	if (len < off + n || n > sizeof(cap->ch_exts[0]))
		return;
	memcpy(cap->ch_exts[cap->n_ch], m + off, n);
	cap->ch_exts_len[cap->n_ch++] = n;
}

/* fz_pair's tap: each record as its receiver is about to take it. */
static void tap(void *ctx, struct tlsx_hs *to, const u8 *rec, size_t len)
{
	struct capture *cap = ctx;
	struct seed *s = to == cap->p->c ? &cap->to_client : &cap->to_server;
	static u8 copy[TLSX_REC_MAX];
	struct tlsx_rec_dir d;
	u8 type, *data;
	size_t n;

	/*
	 * The ciphertext replays too (the same keys come out of the same
	 * draws): the fuzzer then splits and joins real records.
	 */
	seed_chunk(cap, to == cap->p->c ? &cap->wire_client :
		   &cap->wire_server, 0, rec, len);
	if (rec[0] != TLSX_CT_APPLICATION_DATA || !to->rd.set) {
		/* Plaintext: the harness must not protect it either. */
		seed_chunk(cap, s, rec[0] | (to->rd.set ? FZ_KIND_PLAIN : 0),
			   rec + TLSX_REC_HDR, len - TLSX_REC_HDR);
		if (rec[0] == TLSX_CT_HANDSHAKE && to == cap->p->s)
			keep_ch_exts(cap, rec + TLSX_REC_HDR,
				     len - TLSX_REC_HDR);
		return;
	}
	d = to->rd;
	memcpy(copy, rec, len);
	if (tlsx_rec_open(&d, copy, len, TLSX_REC_MAX_PLAIN, &type, &data,
			  &n)) {
		fprintf(stderr, "hs-fuzz-seeds: a record does not open\n");
		exit(1);
	}
	seed_chunk(cap, s, type, data, n);
	tlsx_rec_wipe(&d);
}

static void mkdirs(const char *name)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", corpus, name);
	if (mkdir(corpus, 0755) && errno != EEXIST)
		goto fail;
	if (mkdir(path, 0755) && errno != EEXIST)
		goto fail;
	return;
fail:
	perror(path);
	exit(1);
}

static void write_seed(const char *target, const char *name, u8 bits,
		       const u8 *p, size_t len, bool with_bits)
{
	char path[256];
	FILE *f;

	mkdirs(target);
	snprintf(path, sizeof(path), "%s/%s/%s", corpus, target, name);
	f = fopen(path, "wb");
	if (!f || (with_bits && fwrite(&bits, 1, 1, f) != 1) ||
	    fwrite(p, 1, len, f) != len || fclose(f)) {
		perror(path);
		exit(1);
	}
	printf("%s: %zu bytes\n", path, len + with_bits);
}

static struct fz_feeder feeder;

/* The seed through a fresh engine, as the fuzz target runs it. */
static int replay(bool server, u8 bits, const struct seed *s)
{
	struct tlsx_hs_config cfg;
	struct fz_rand r = { 0 };
	int ret;

	feeder.hs = server ? fz_server(&cfg, bits, &r) :
			     fz_client(&cfg, bits, &r);
	if (!feeder.hs)
		return -ENOMEM;
	ret = fz_feed(&feeder, s->buf, s->len);
	fz_report(server ? "server" : "client", bits, ret, feeder.hs);
	tlsx_hs_free(feeder.hs);
	feeder.hs = NULL;
	return ret;
}

static struct capture cap;

static void handshake(const char *name, u8 cbits, u8 sbits, bool hrr,
		      u16 group)
{
	struct fz_pair *p = &fz_pair;
	unsigned int i;
	char ename[64];

	memset(p, 0, sizeof(*p));
	memset(&cap, 0, sizeof(cap));
	cap.p = p;
	p->tap = tap;
	p->tap_ctx = &cap;
	p->c = fz_client(&p->ccfg, cbits, &p->cr);
	p->s = fz_server(&p->scfg, sbits, &p->sr);
	if (!p->c || !p->s)
		exit(1);
	fz_pair_run(p);
	if (p->cret != TLSX_HS_DONE || p->sret != TLSX_HS_DONE ||
	    cap.overflow || p->c->hrr != hrr || p->s->group != group ||
	    p->c->resumed != !!(cbits & FZ_C_SESSION)) {
		fprintf(stderr,
			"hs-fuzz-seeds: %s: client %d (alert %d), server %d (alert %d), hrr %d, resumed %d, group 0x%04x\n",
			name, p->cret, tlsx_hs_alert(p->c), p->sret,
			tlsx_hs_alert(p->s), p->c->hrr, p->c->resumed,
			p->s->group);
		exit(1);
	}
	fz_pair_free(p);
	if (replay(false, cbits, &cap.to_client) != TLSX_HS_DONE ||
	    replay(true, sbits, &cap.to_server) != TLSX_HS_DONE ||
	    replay(false, cbits, &cap.wire_client) != TLSX_HS_DONE ||
	    replay(true, sbits, &cap.wire_server) != TLSX_HS_DONE) {
		fprintf(stderr, "hs-fuzz-seeds: %s does not replay\n", name);
		exit(1);
	}
	write_seed("fuzz_client", name, cbits, cap.to_client.buf,
		   cap.to_client.len, true);
	write_seed("fuzz_server", name, sbits, cap.to_server.buf,
		   cap.to_server.len, true);
	snprintf(ename, sizeof(ename), "%s-wire", name);
	write_seed("fuzz_client", ename, cbits, cap.wire_client.buf,
		   cap.wire_client.len, true);
	write_seed("fuzz_server", ename, sbits, cap.wire_server.buf,
		   cap.wire_server.len, true);
	for (i = 0; i < cap.n_ch; i++) {
		snprintf(ename, sizeof(ename), "%s-ch%u", name, i + 1);
		/* fuzz_ext's input: the context bit, then the block. */
		write_seed("fuzz_ext", ename, 0, cap.ch_exts[i],
			   cap.ch_exts_len[i], true);
	}
}

/* Whether 4.1.2 lets ClientHello2 change extension @type. */
static bool may_change(u16 type)
{
	return type == 51 || type == 42 || type == 44 || type == 41 ||
	       type == 21;	/* key_share, early_data, cookie, psk, padding */
}

/*
 * The "hrr" seed's flight up to ClientHello2, with the first two of
 * ClientHello2's extensions that 4.1.2 keeps swapped: the server's
 * refusal of a second hello that is not the first (illegal_parameter,
 * sv_check_second()) as a seed of its own.  From cap.to_server of the
 * handshake just run.
 */
static void hrr_reordered(u8 sbits)
{
	static struct seed s;
	size_t off = 0, chunk = 0, len, q, end, e, first = 0, a = 0, b = 0;
	unsigned int hellos = 0, found = 0;
	u8 *m = NULL, tmp[2048];

	memcpy(&s, &cap.to_server, sizeof(s));
	while (off + FZ_CHUNK_HDR <= s.len) {
		len = (size_t)s.buf[off + 1] << 8 | s.buf[off + 2];
		chunk = off;
		off += FZ_CHUNK_HDR + len;
		if (s.buf[chunk] == TLSX_CT_HANDSHAKE &&
		    s.buf[chunk + FZ_CHUNK_HDR] == TLSX_HT_CLIENT_HELLO &&
		    ++hellos == 2) {
			m = s.buf + chunk + FZ_CHUNK_HDR;
			s.len = off;		/* nothing after ClientHello2 */
			break;
		}
	}
	if (!m)
		goto fail;
	q = TLSX_HS_MSG_HDR + 2 + TLSX_HS_RANDOM;
	q += 1 + m[q];
	q += 2 + ((size_t)m[q] << 8 | m[q + 1]);
	q += 1 + m[q];
	end = q + 2 + ((size_t)m[q] << 8 | m[q + 1]);
	for (e = q + 2; e + 4 <= end && found < 2;
	     e += 4 + ((size_t)m[e + 2] << 8 | m[e + 3])) {
		if (may_change((u16)(m[e] << 8 | m[e + 1])))
			continue;
		if (!found++) {
			first = e;
			a = 4 + ((size_t)m[e + 2] << 8 | m[e + 3]);
		} else {
			b = 4 + ((size_t)m[e + 2] << 8 | m[e + 3]);
		}
	}
	/* Adjacent ones only: swapping them moves nothing else. */
	if (found < 2 || first + a != e - b || a + b > sizeof(tmp))
		goto fail;
	memcpy(tmp, m + first + a, b);
	memcpy(tmp + b, m + first, a);
	memcpy(m + first, tmp, a + b);
	if (replay(true, sbits, &s) !=
	    -TLSX_HS_EALERT(TLSX_ALERT_ILLEGAL_PARAMETER))
		goto fail;
	write_seed("fuzz_server", "hrr-reordered", sbits, s.buf, s.len, true);
	return;
fail:
	fprintf(stderr, "hs-fuzz-seeds: hrr-reordered: no such flight\n");
	exit(1);
}

static void ticket_seeds(void)
{
	struct fz_pair *p = &fz_pair;
	struct tlsx_hs_secrets sec;
	static u8 buf[4096];
	size_t len;

	/* fz_make_session()'s handshake again, for its NewSessionTicket. */
	memset(p, 0, sizeof(*p));
	p->c = fz_client(&p->ccfg, 0, &p->cr);
	p->s = fz_server(&p->scfg, FZ_S_TICKETS, &p->sr);
	if (!p->c || !p->s)
		exit(1);
	fz_pair_run(p);
	if (p->cret != TLSX_HS_DONE || p->sret != TLSX_HS_DONE ||
	    tlsx_hs_tickets(p->s, buf + 1, sizeof(buf) - 1, &len) ||
	    tlsx_hs_secrets(p->c, &sec))
		exit(1);
	tlsx_hs_secrets_wipe(&sec);
	fz_pair_free(p);
	/* fuzz_ticket's first byte picks the parser (fuzz_ticket.c). */
	write_seed("fuzz_ticket", "new-session-ticket", 0, buf + 1, len, true);
	if (tlsx_session_encode(&fz.session, buf, sizeof(buf), &len))
		exit(1);
	write_seed("fuzz_ticket", "session", 1, buf, len, true);
	write_seed("fuzz_ticket", "ticket", 2, fz.session.ticket,
		   fz.session.ticket_len, true);
}

/*
 * fuzz_server/large-hello: the "full" handshake's ClientHello with a
 * LARGE_SHARE-byte key share for a group tlsx does not know put first in
 * its key_share (RFC 8446 4.2.8: ignored, the X25519 share after it is
 * used), over three records, then the CCS and the client Finished the
 * server expects on that transcript (computed from the server's state,
 * as test_conformance.c does): a hello over 2^14, gathered across
 * records, that reaches DONE.  @full is the "full" seed.
 */
#define LARGE_SHARE	40000
#define UNKNOWN_GROUP	0x6399	/* Kyber768Draft00, obsolete */

static u8 big_ch[TLSX_HS_MSG_HDR + 2048 + 2 + 4 + LARGE_SHARE];

static void large_hello_seed(const struct seed *full)
{
	const u8 *ch = full->buf + FZ_CHUNK_HDR, *e;
	size_t ch_len = (size_t)full->buf[1] << 8 | full->buf[2];
	size_t off, ext_end, n, used, out_len, at = 0, fl, el, add;
	u8 fin[TLSX_HS_MSG_HDR + TLSX_KS_MAX_SECRET], th[TLSX_KS_MAX_SECRET];
	struct tlsx_hs_config cfg;
	struct fz_rand r = { 0 };
	struct tlsx_hs *hs;
	static struct seed s;
	static u8 out[TLSX_HS_OUT_MIN];
	int ret = -1;

	if (ch_len > 2048 || ch[0] != TLSX_HT_CLIENT_HELLO)
		goto bad;
	/* legacy_version, random, session id, suites, compression. */
	off = TLSX_HS_MSG_HDR + 2 + 32;
	off += 1 + ch[off];
	off += 2 + get_unaligned_be16(ch + off);
	off += 1 + ch[off];
	ext_end = off + 2 + get_unaligned_be16(ch + off);
	memcpy(big_ch, ch, off + 2);
	n = off + 2;
	/*
	 * The extensions copied, the unknown group put first in
	 * supported_groups (4.2.8: a share only for a listed group) and its
	 * share first in key_share.
	 */
	for (e = ch + off + 2; e + 4 <= ch + ext_end; e += 4 + el) {
		u16 type = get_unaligned_be16(e);

		el = get_unaligned_be16(e + 2);
		add = type == 10 ? 2 : type == 51 ? 4 + LARGE_SHARE : 0;
		put_unaligned_be16(type, big_ch + n);
		put_unaligned_be16((u16)(el + add), big_ch + n + 2);
		n += 4;
		if (add) {
			/* The list's own length, then the new entry. */
			put_unaligned_be16((u16)(get_unaligned_be16(e + 4) +
						 add), big_ch + n);
			put_unaligned_be16(UNKNOWN_GROUP, big_ch + n + 2);
			n += 4;
			if (type == 51) {
				put_unaligned_be16(LARGE_SHARE, big_ch + n);
				memset(big_ch + n + 2, 0x5a, LARGE_SHARE);
				n += 2 + LARGE_SHARE;
			}
			memcpy(big_ch + n, e + 6, el - 2);
			n += el - 2;
		} else {
			memcpy(big_ch + n, e + 4, el);
			n += el;
		}
	}
	put_unaligned_be16((u16)(n - off - 2), big_ch + off);
	big_ch[1] = (u8)((n - 4) >> 16);
	put_unaligned_be16((u16)(n - 4), big_ch + 2);

	s.len = 0;
	for (at = 0; at < n; at += fl) {
		fl = n - at < TLSX_REC_MAX_PLAIN ? n - at : TLSX_REC_MAX_PLAIN;
		seed_chunk(&cap, &s, FZ_KIND_PLAIN | TLSX_CT_HANDSHAKE,
			   big_ch + at, fl);
	}
	seed_chunk(&cap, &s, FZ_KIND_PLAIN | TLSX_CT_CHANGE_CIPHER_SPEC,
		   (const u8 *)"\x01", 1);

	/* The server on that hello, for the Finished it will expect. */
	hs = fz_server(&cfg, 0, &r);
	if (!hs)
		goto bad;
	for (at = 0; at < n; at += fl) {
		u8 rec[TLSX_REC_MAX];

		fl = n - at < TLSX_REC_MAX_PLAIN ? n - at : TLSX_REC_MAX_PLAIN;
		rec[0] = TLSX_CT_HANDSHAKE;
		rec[1] = 3;
		rec[2] = 3;
		put_unaligned_be16((u16)fl, rec + 3);
		memcpy(rec + TLSX_REC_HDR, big_ch + at, fl);
		ret = tlsx_hs_step(hs, rec, TLSX_REC_HDR + fl, &used, out,
				   sizeof(out), &out_len);
		if (ret != TLSX_HS_WANT_READ)
			break;
	}
	if (ret == TLSX_HS_WANT_READ && hs->hash_len) {
		fin[0] = TLSX_HT_FINISHED;
		fin[1] = 0;
		fin[2] = 0;
		fin[3] = (u8)hs->hash_len;
		ret = tlsx_transcript_peek(&hs->ts, hs->hash, NULL, 0, th);
		if (!ret)
			ret = tlsx_finished_mac(hs->hash, hs->c_hs, th, fin + 4);
		if (!ret)
			seed_chunk(&cap, &s, TLSX_CT_HANDSHAKE, fin,
				   TLSX_HS_MSG_HDR + hs->hash_len);
	} else {
		ret = -1;
	}
	tlsx_hs_free(hs);
	if (ret || cap.overflow || replay(true, 0, &s) != TLSX_HS_DONE)
		goto bad;
	write_seed("fuzz_server", "large-hello", 0, s.buf, s.len, true);
	return;
bad:
	fprintf(stderr, "hs-fuzz-seeds: large-hello does not replay (%d)\n",
		ret);
	exit(1);
}

int main(int argc, char **argv)
{
	const u16 xm = TLSX_GROUP_X25519MLKEM768, p256 = TLSX_GROUP_SECP256R1;

	if (argc != 2) {
		fprintf(stderr, "usage: hs-fuzz-seeds DIR\n");
		return 2;
	}
	corpus = argv[1];
	fz_init();
	/* The defaults: X25519MLKEM768 and x25519 shares, the hybrid taken. */
	handshake("full", 0, 0, false, xm);
	large_hello_seed(&cap.to_server);
	handshake("hrr", 0, FZ_S_P256, true, p256);
	hrr_reordered(FZ_S_P256);
	handshake("client-auth", FZ_C_CHAIN, FZ_S_VERIFY, false, xm);
	handshake("client-auth-hrr", FZ_C_CHAIN, FZ_S_VERIFY | FZ_S_P256,
		  true, p256);
	handshake("resume", FZ_C_SESSION, FZ_S_TICKETS, false, xm);
	handshake("resume-psk-ke", FZ_C_SESSION | FZ_C_PSK_KE,
		  FZ_S_TICKETS | FZ_S_PSK_KE, false, 0);
	handshake("resume-hrr", FZ_C_SESSION, FZ_S_TICKETS | FZ_S_P256, true,
		  p256);
	/*
	 * Issue 30: SecP256r1MLKEM768's shares (P-256 first), and a
	 * HelloRetryRequest to X25519MLKEM768 (its 1,216-byte share in
	 * ClientHello2 only).
	 */
	handshake("secp256r1mlkem768", FZ_C_P256MLKEM, FZ_S_P256MLKEM, false,
		  TLSX_GROUP_SECP256R1MLKEM768);
	handshake("hrr-x25519mlkem768", FZ_C_PQ_LATE, 0, true, xm);
	ticket_seeds();
	return 0;
}
