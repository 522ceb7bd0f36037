// SPDX-License-Identifier: GPL-2.0
/*
 * test_conformance.c - conformance scenarios in the manner of
 * tlsfuzzer's test-tls13-*.py scripts and TLS-Anvil: a scripted peer
 * builds records and messages by hand (codec.h, record_protect.h) and drives
 * tlsx's server through record-layer, ChangeCipherSpec, alert and
 * ClientHello cases, to the end of the handshake where the RFC says it
 * succeeds (test_conformance_client.c does the client's).
 *
 * The scripted client completes handshakes without a key of its own:
 * its key share is RFC 8448's, and its Finished is computed from the
 * server's own client handshake secret and transcript (hs_impl.h), as
 * test_server.c's sealed-flight cases do.  What the server would do
 * with any other client's Finished is what it does with this one.
 *
 * What test_server.c already checks (the ClientHello MUSTs of 4.1.2
 * with their alerts, the second ClientHello, the client's Finished) is
 * not repeated.
 * Each case names the RFC text it checks.
 */
#include <stdio.h>
#include <time.h>

#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/rfc8448.h"
#include "handshake/engine/test/conf_test.h"

/* --- the scripted client's ClientHello ------------------------------------ */

/* One extension: type and body in hex. */
struct cx {
	u16 type;
	const char *body;
};

#define Z32		"0000000000000000000000000000000000000000000000000000000000000000"
#define X_VERSIONS	{ 43, "020304" }
#define X_GROUPS	{ 10, "0004001d0017" }
#define X_SHARE		{ 51, "0024001d0020" S3_C_PUB }
#define X_SIGALGS	{ 13, "000a04030807080408050806" }
#define X_END		{ 0, NULL }

/* RFC 8448 section 5's client secp256r1 share: x, y; y + 1 is off the curve. */
#define P256_X		"a6da7392ec591e17abfd535964b99894d13befb221b3def2ebe3830eac8f0151"
#define P256_Y		"812677c4d6d2237e85cf01d6910cfb83954e76ba7352830534159897e8065780"
#define P256_Y_PLUS_1	"812677c4d6d2237e85cf01d6910cfb83954e76ba7352830534159897e8065781"
/* RFC 8448's X25519 share less its last byte; the point u = 1. */
#define X25519_31	"99381de560e4bd43d23d8e435a7dbafeb3c06e51c13cae4d5413691e529aaf"
#define X25519_ONE	"0100000000000000000000000000000000000000000000000000000000000000"

static const struct cx good[] = {
	X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, X_END
};

struct cho {
	u16 version;		/* legacy_version; 0: 0x0303 */
	bool version_zero;	/* legacy_version 0x0000 */
	const char *sid;	/* hex with its length byte; NULL: 32 bytes */
	const char *suites;	/* hex with its length; NULL: 0002 1301 */
	const struct cx *ext;	/* NULL: good[] */
	size_t unknown_suites;	/* as many unknown suites before these */
	size_t pad;		/* a padding extension this long, last */
	size_t big_share;	/* a key share this long for BIG_GROUP, first */
	size_t n_compression;	/* legacy_compression_methods; 0: 1 (null) */
};

/* A group tlsx does not know (Kyber768Draft00, obsolete): 4.2.8 ignores it. */
#define BIG_GROUP	0x6399

/* The ClientHello message (header included) @o says, at @m; its length. */
static size_t ch_msg(u8 *m, size_t cap, const struct cho *o)
{
	static u8 tmp[4096];
	const struct cx *e;
	struct tlsx_wr w;
	size_t n, len, i;
	u8 rnd[32];

	memset(rnd, 0x5c, sizeof(rnd));
	tlsx_wr_init(&w, m, cap);
	tlsx_wr_u8(&w, TLSX_HT_CLIENT_HELLO);
	tlsx_wr_open(&w, 3);
	tlsx_wr_u16(&w, o->version || o->version_zero ? o->version : 0x0303);
	tlsx_wr_bytes(&w, rnd, 32);
	n = unhex(o->sid ? o->sid : "20" Z32, tmp, sizeof(tmp));
	tlsx_wr_bytes(&w, tmp, n);
	n = unhex(o->suites ? o->suites : "00021301", tmp, sizeof(tmp));
	tlsx_wr_open(&w, 2);
	for (i = 0; i < o->unknown_suites; i++)
		tlsx_wr_u16(&w, (u16)(0xc100 + i));
	tlsx_wr_bytes(&w, tmp + 2, n - 2);
	tlsx_wr_close(&w);
	/* legacy_compression_methods: null, then others if asked. */
	tlsx_wr_u8(&w, (u8)(o->n_compression ? o->n_compression : 1));
	for (i = 0; i < (o->n_compression ? o->n_compression : 1); i++)
		tlsx_wr_u8(&w, (u8)i);
	tlsx_wr_open(&w, 2);
	if (o->big_share) {
		u8 *p;

		/* key_share: BIG_GROUP's share, then RFC 8448's X25519. */
		n = unhex(S3_C_PUB, tmp, sizeof(tmp));
		tlsx_wr_u16(&w, 51);
		tlsx_wr_open(&w, 2);
		tlsx_wr_open(&w, 2);
		tlsx_wr_u16(&w, BIG_GROUP);
		tlsx_wr_u16(&w, (u16)o->big_share);
		if (!tlsx_wr_reserve(&w, o->big_share, &p))
			memset(p, 0x5a, o->big_share);
		tlsx_wr_u16(&w, TLSX_GROUP_X25519);
		tlsx_wr_vec(&w, 2, tmp, n);
		tlsx_wr_close(&w);
		tlsx_wr_close(&w);
	}
	for (e = o->ext ? o->ext : good; e->body; e++) {
		tlsx_wr_u16(&w, e->type);
		n = unhex(e->body, tmp, sizeof(tmp));
		tlsx_wr_vec(&w, 2, tmp, n);
	}
	if (o->pad) {
		u8 *p;

		tlsx_wr_u16(&w, 21);	/* RFC 7685 padding */
		tlsx_wr_u16(&w, (u16)o->pad);
		if (!tlsx_wr_reserve(&w, o->pad, &p))
			memset(p, 0, o->pad);
	}
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	if (tlsx_wr_finish(&w, &len))
		abort();
	return len;
}

/* Plaintext records of @type and version @ver carrying @p, @frag at most. */
static size_t records(u8 *dst, u8 type, u16 ver, const u8 *p, size_t len,
		      size_t frag)
{
	size_t off = 0, n = 0, f;

	do {
		f = len - off < frag ? len - off : frag;
		dst[n] = type;
		put_unaligned_be16(ver, dst + n + 1);
		put_unaligned_be16((u16)f, dst + n + 3);
		memcpy(dst + n + 5, p + off, f);
		n += 5 + f;
		off += f;
	} while (off < len);
	return n;
}

/* --- the server under test -------------------------------------------------- */

struct cf {
	struct tlsx_hs_config cfg;
	struct tlsx_hs *hs;
	struct tlsx_rec_dir d;	/* the client's writes, under c_hs */
	u8 in[65536];
	size_t in_len;
	u8 out[TLSX_HS_OUT_MIN];
	size_t out_len, used;
	int ret;
};

static struct cf cf;

static int cf_new(void)
{
	memset(&cf.d, 0, sizeof(cf.d));
	if (load_p256_chain())
		return -1;
	cf.cfg.server = true;
	cf.cfg.chains[0] = &chain;
	cf.cfg.n_chains = 1;
	cf.hs = tlsx_hs_new(&cf.cfg);
	cf.in_len = 0;
	return cf.hs ? 0 : -1;
}

static void cf_free(void)
{
	tlsx_rec_wipe(&cf.d);
	tlsx_hs_free(cf.hs);
	memset(&cf, 0, sizeof(cf));
}

/* Steps the server on cf.in; what it did not take stays. */
static int cf_step(void)
{
	cf.ret = tlsx_hs_step(cf.hs, cf.in, cf.in_len, &cf.used, cf.out,
			      sizeof(cf.out), &cf.out_len);
	memmove(cf.in, cf.in + cf.used, cf.in_len - cf.used);
	cf.in_len -= cf.used;
	return cf.ret;
}

static void cf_add(const u8 *p, size_t len)
{
	memcpy(cf.in + cf.in_len, p, len);
	cf.in_len += len;
}

/* A plaintext record of @type with the body @hex. */
static void cf_add_rec(u8 type, const char *hex)
{
	u8 body[64];
	size_t n = unhex(hex, body, sizeof(body));

	cf.in_len += records(cf.in + cf.in_len, type, 0x0303, body, n, n + 1);
}

/* The ClientHello @o as records of @frag bytes, version @ver. */
static void cf_add_hello(const struct cho *o, u16 ver, size_t frag)
{
	static u8 m[32768];
	size_t n = ch_msg(m, sizeof(m), o);

	cf.in_len += records(cf.in + cf.in_len, TLSX_CT_HANDSHAKE, ver, m, n,
			     frag);
}

/* Keys cf.d once the server has derived the client handshake secret. */
static int cf_key(void)
{
	if (!cf.hs->hash_len)
		return -1;
	return tlsx_rec_set_secret(&cf.d, cf.hs->suite, cf.hs->c_hs,
				   cf.hs->hash_len);
}

/* A protected record of @type carrying @p. */
static void cf_seal(u8 type, const u8 *p, size_t len)
{
	size_t n;

	if (tlsx_rec_seal(&cf.d, type, p, len, 0, cf.in + cf.in_len,
			  sizeof(cf.in) - cf.in_len, &n))
		abort();
	cf.in_len += n;
}

/*
 * A protected record built here rather than by tlsx_rec_seal(), which
 * refuses what the tests need: TLSInnerPlaintext = @p[0..@len), the
 * content type @type (0: none, an all-zero plaintext), @pad zeros.
 */
static void cf_seal_raw(u8 type, const u8 *p, size_t len, size_t pad)
{
	u8 *r = cf.in + cf.in_len, nonce[TLSX_IV_SIZE];
	size_t inner = len + (type ? 1 : 0) + pad;
	int i;

	r[0] = TLSX_CT_APPLICATION_DATA;
	r[1] = 3;
	r[2] = 3;
	put_unaligned_be16((u16)(inner + TLSX_AEAD_TAG_LEN), r + 3);
	if (len)
		memcpy(r + 5, p, len);
	if (type)
		r[5 + len] = type;
	memset(r + 5 + len + (type ? 1 : 0), 0, pad);
	memcpy(nonce, cf.d.iv, TLSX_IV_SIZE);
	for (i = 0; i < 8; i++)
		nonce[TLSX_IV_SIZE - 1 - i] ^= (u8)(cf.d.seq >> (8 * i));
	if (tlsx_aead_seal(&cf.d.key, nonce, r, 5, r + 5, r + 5, inner,
			   r + 5 + inner))
		abort();
	cf.d.seq++;
	cf.in_len += 5 + inner + TLSX_AEAD_TAG_LEN;
}

/* The client Finished the server awaits after @extra (NULL: nothing). */
static size_t cf_finished(u8 *msg, const u8 *extra, size_t extra_len)
{
	u8 th[TLSX_KS_MAX_SECRET];
	struct tlsx_hs *hs = cf.hs;

	msg[0] = TLSX_HT_FINISHED;
	msg[1] = 0;
	msg[2] = 0;
	msg[3] = (u8)hs->hash_len;
	if (tlsx_transcript_peek(&hs->ts, hs->hash, extra, extra_len, th) ||
	    tlsx_finished_mac(hs->hash, hs->c_hs, th, msg + 4))
		abort();
	return 4 + hs->hash_len;
}

/* The server's first record is a HelloRetryRequest. */
static bool cf_out_is_hrr(void)
{
	return cf.out_len > 5 + 4 + 2 + 32 && cf.out[0] == TLSX_CT_HANDSHAKE &&
	       cf.out[5] == TLSX_HT_SERVER_HELLO &&
	       !memcmp(cf.out + 11, tlsx_hrr_random, 32);
}

/* The server's first record is a ServerHello (not an HRR). */
static bool cf_out_is_sh(void)
{
	return cf.out_len > 5 + 4 + 2 + 32 && cf.out[0] == TLSX_CT_HANDSHAKE &&
	       cf.out[5] == TLSX_HT_SERVER_HELLO &&
	       memcmp(cf.out + 11, tlsx_hrr_random, 32);
}

/* The alert @a went out (in the clear, or sealed once keyed): the error. */
static bool cf_failed_with(int a)
{
	bool plain = cf.out_len == 7 && cf.out[0] == TLSX_CT_ALERT &&
		     cf.out[5] == 2 && cf.out[6] == a;
	bool sealed = cf.out_len == 5 + 2 + 1 + 16 &&
		      cf.out[0] == TLSX_CT_APPLICATION_DATA;

	return cf.ret == -TLSX_HS_EALERT(a) && tlsx_hs_alert(cf.hs) == a &&
	       !tlsx_hs_alert_received(cf.hs) && (plain || sealed);
}

/* The peer's alert @a ended the handshake; nothing was sent back. */
static bool cf_ended_by(int a)
{
	return cf.ret == -TLSX_HS_EALERT(a) && tlsx_hs_alert(cf.hs) == a &&
	       tlsx_hs_alert_received(cf.hs) && cf.out_len == 0;
}

/* Client Finished sealed and stepped: the handshake completes. */
static int cf_complete(void)
{
	u8 fin[4 + TLSX_KS_MAX_SECRET];
	size_t n = cf_finished(fin, NULL, 0);

	cf_seal(TLSX_CT_HANDSHAKE, fin, n);
	return cf_step();
}

/* ClientHello @o, one record, with the server's flight back. */
static int cf_hello(const struct cho *o)
{
	cf_add_hello(o, 0x0301, TLSX_REC_MAX_PLAIN);
	if (cf_step() != TLSX_HS_WANT_READ || !cf_out_is_sh())
		return -1;
	return cf_key();
}

/* The whole handshake on ClientHello @o: DONE, or what failed. */
static int handshake(const struct cho *o)
{
	int ret;

	if (cf_new())
		return -100;
	ret = cf_hello(o);
	if (!ret)
		ret = cf_complete();
	cf_free();
	return ret;
}

/* The cause refusal() last saw named (tlsx_hs_reason()), or NULL. */
static const char *refusal_why;

/* The first alert a server with default settings sends on @o. */
static int refusal(const struct cho *o)
{
	int ret;

	if (cf_new())
		return -100;
	cf_add_hello(o, 0x0301, TLSX_REC_MAX_PLAIN);
	ret = cf_step();
	if (ret >= 0)
		ret = 0;
	else if (!cf_failed_with(tlsx_hs_alert(cf.hs)))
		ret = -200;
	else
		ret = tlsx_hs_alert(cf.hs);
	refusal_why = tlsx_hs_reason(cf.hs);
	cf_free();
	return ret;
}

/* =========================== records (RFC 8446 5) ========================= */

/* 5.1: "Implementations MUST NOT send zero-length fragments of Handshake
 * types": the first record, empty.
 */
TEST(rec_zero_length_handshake_record)
{
	ASSERT_EQ(0, cf_new());
	cf_add_rec(TLSX_CT_HANDSHAKE, "");
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* ... and an empty protected handshake record after the ClientHello. */
TEST(rec_zero_length_protected_handshake)
{
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_seal(TLSX_CT_HANDSHAKE, NULL, 0);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* 5.1: "The length MUST NOT exceed 2^14 bytes.  An endpoint that receives
 * a record that exceeds this length MUST terminate the connection with a
 * "record_overflow" alert."
 */
TEST(rec_plaintext_over_2_14)
{
	static const u8 hdr[] = { TLSX_CT_HANDSHAKE, 3, 1, 0x40, 0x01 };

	ASSERT_EQ(0, cf_new());
	cf_add(hdr, sizeof(hdr));
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_RECORD_OVERFLOW));
	cf_free();
}

/* 5.2: "The length MUST NOT exceed 2^14 + 256 bytes" for a ciphertext. */
TEST(rec_ciphertext_over_2_14_plus_256)
{
	static const u8 hdr[] = { TLSX_CT_APPLICATION_DATA, 3, 3, 0x41, 0x01 };

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_add(hdr, sizeof(hdr));
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_RECORD_OVERFLOW));
	cf_free();
}

/* ... and exactly 2^14 + 256 is a length the server reads (then fails to
 * open: bad_record_mac, not record_overflow).
 */
TEST(rec_ciphertext_of_2_14_plus_256_is_read)
{
	static u8 rec[5 + 16384 + 256];

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	rec[0] = TLSX_CT_APPLICATION_DATA;
	rec[1] = 3;
	rec[2] = 3;
	put_unaligned_be16(16384 + 256, rec + 3);
	cf_add(rec, sizeof(rec));
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_BAD_RECORD_MAC));
	cf_free();
}

/* 5: "If a TLS implementation receives an unexpected record type, it MUST
 * terminate the connection with an "unexpected_message" alert." (24 is
 * heartbeat, 25 tls12_cid, 0xff nothing.)
 */
TEST(rec_unknown_content_type)
{
	static const u8 types[] = { 0, 19, 24, 25, 0xff };
	size_t i;

	for (i = 0; i < sizeof(types); i++) {
		ASSERT_EQ(0, cf_new());
		cf_add_rec(types[i], "01");
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE))
			TH_LOG("type %u before ClientHello", types[i]);
		cf_free();

		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		cf_add_rec(types[i], "0102");
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE))
			TH_LOG("type %u after ClientHello", types[i]);
		cf_free();
	}
}

/* 5.1: legacy_record_version "MUST be ignored for all purposes"; the
 * first ClientHello's may be 0x0301 (or anything 3.x) and is taken.
 */
TEST(rec_legacy_record_version_of_first_hello)
{
	static const u16 vers[] = { 0x0300, 0x0301, 0x0302, 0x0303, 0x0304,
				    0x03ff };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vers); i++) {
		ASSERT_EQ(0, cf_new());
		cf_add_hello(&(struct cho){ 0 }, vers[i], TLSX_REC_MAX_PLAIN);
		EXPECT_EQ(TLSX_HS_WANT_READ, cf_step())
			TH_LOG("record version %04x", vers[i]);
		EXPECT_TRUE(cf_out_is_sh());
		EXPECT_EQ(0, cf_key());
		EXPECT_EQ(TLSX_HS_DONE, cf_complete());
		cf_free();
	}
}

/* 5: application data before the handshake is done (no 0-RTT offered):
 * in the clear before anything, empty or not (issue 26 item 6: an empty
 * one was skipped as if it were declined early data), and protected
 * under the handshake key, empty with padding too.
 */
TEST(rec_application_data_before_finished)
{
	static const u8 data_msg[] = "GET / HTTP/1.1\r\n";

	ASSERT_EQ(0, cf_new());
	cf_add_rec(TLSX_CT_APPLICATION_DATA, "474554");
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();

	ASSERT_EQ(0, cf_new());
	cf_add_rec(TLSX_CT_APPLICATION_DATA, "");
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_seal_raw(TLSX_CT_APPLICATION_DATA, NULL, 0, 100);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_seal(TLSX_CT_APPLICATION_DATA, data_msg, sizeof(data_msg) - 1);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* 5.1: a message "MAY be fragmented across several records": the
 * ClientHello in records of 1, 7 and 100 bytes, all handed in at once,
 * then the same fed to the step one byte at a time.
 */
TEST(rec_hello_fragmented)
{
	static const size_t frags[] = { 1, 7, 100 };
	size_t i, avail;

	for (i = 0; i < ARRAY_SIZE(frags); i++) {
		ASSERT_EQ(0, cf_new());
		cf_add_hello(&(struct cho){ 0 }, 0x0301, frags[i]);
		EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
		EXPECT_EQ(0, cf.in_len);
		EXPECT_TRUE(cf_out_is_sh());
		EXPECT_EQ(0, cf_key());
		EXPECT_EQ(TLSX_HS_DONE, cf_complete());
		cf_free();
	}
	ASSERT_EQ(0, cf_new());
	cf_add_hello(&(struct cho){ 0 }, 0x0301, 7);
	for (avail = 1; avail <= cf.in_len && !cf.out_len; avail++) {
		cf.ret = tlsx_hs_step(cf.hs, cf.in, avail, &cf.used, cf.out,
				      sizeof(cf.out), &cf.out_len);
		ASSERT_EQ(TLSX_HS_WANT_READ, cf.ret);
		memmove(cf.in, cf.in + cf.used, cf.in_len - cf.used);
		cf.in_len -= cf.used;
		avail -= cf.used;
	}
	EXPECT_EQ(0, cf.in_len);
	EXPECT_TRUE(cf_out_is_sh());
	cf_free();
}

/* 5.1: several messages in one record (an empty client Certificate and
 * the Finished, to a server that asked for a certificate), and the
 * Finished alone split over two protected records.
 */
TEST(rec_messages_coalesced_and_split)
{
	u8 buf[64], fin[4 + TLSX_KS_MAX_SECRET];
	size_t n, c;

	cf.cfg.verify_peer = true;
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	/* Certificate: the request's context, certificate_list<0> empty. */
	c = 0;
	buf[c++] = TLSX_HT_CERTIFICATE;
	buf[c++] = 0;
	buf[c++] = 0;
	buf[c++] = 1 + 3;
	buf[c++] = 0;	/* the request's context: empty (4.3.2) */
	memset(buf + c, 0, 3);
	c += 3;
	n = cf_finished(fin, buf, c);
	memcpy(buf + c, fin, n);
	cf_seal(TLSX_CT_HANDSHAKE, buf, c + n);
	EXPECT_EQ(TLSX_HS_DONE, cf_step());
	EXPECT_FALSE(cf.hs->peer_cert);
	cf_free();

	memset(&cf.cfg, 0, sizeof(cf.cfg));
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	n = cf_finished(fin, NULL, 0);
	cf_seal(TLSX_CT_HANDSHAKE, fin, 3);
	cf_seal(TLSX_CT_HANDSHAKE, fin + 3, n - 3);
	EXPECT_EQ(TLSX_HS_DONE, cf_step());
	cf_free();
}

/* 5.4: padding is allowed up to "the full encoded TLSInnerPlaintext MUST
 * NOT exceed 2^14 + 1 octets": the client Finished padded to exactly
 * that completes the handshake.
 */
TEST(rec_padding_to_the_limit_taken)
{
	u8 fin[4 + TLSX_KS_MAX_SECRET];
	size_t n;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	n = cf_finished(fin, NULL, 0);
	cf_seal_raw(TLSX_CT_HANDSHAKE, fin, n, TLSX_REC_MAX_PLAIN - n);
	EXPECT_EQ(TLSX_HS_DONE, cf_step());
	cf_free();
}

/* 5.4: "... MUST NOT exceed 2^14 + 1 octets" (5.2: "the receiver MUST
 * terminate the connection with a "record_overflow" alert"): one byte of
 * padding more.
 */
TEST(rec_inner_plaintext_over_2_14_plus_1)
{
	u8 fin[4 + TLSX_KS_MAX_SECRET];
	size_t n;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	n = cf_finished(fin, NULL, 0);
	cf_seal_raw(TLSX_CT_HANDSHAKE, fin, n, TLSX_REC_MAX_PLAIN - n + 1);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_RECORD_OVERFLOW));
	cf_free();
}

/* 5.4: "If a receiving implementation does not find a non-zero octet in
 * the cleartext, it MUST terminate the connection with an
 * "unexpected_message" alert."
 */
TEST(rec_all_zero_inner_plaintext)
{
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_seal_raw(0, NULL, 0, 20);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/*
 * RFC 8449 4: the limit "is the length of the plaintext of a protected
 * record ... includes the content type and padding"; "A TLS endpoint
 * that receives a record larger than its advertised limit MUST generate
 * a fatal "record_overflow" alert".  A server that announced 100: the
 * client's Finished record of exactly 100 bytes of TLSInnerPlaintext is
 * taken, 101 is refused.
 */
TEST(rec_own_record_size_limit_enforced)
{
	static const struct cx ext[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 28, "4001" }, X_END
	};
	u8 fin[4 + TLSX_KS_MAX_SECRET];
	size_t n;
	int extra;

	for (extra = 0; extra < 2; extra++) {
		cf.cfg.record_size_limit = 100;
		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ .ext = ext }));
		n = cf_finished(fin, NULL, 0);
		cf_seal_raw(TLSX_CT_HANDSHAKE, fin, n, 100 - n - 1 + extra);
		cf_step();
		EXPECT_EQ(extra ? -TLSX_HS_EALERT(TLSX_ALERT_RECORD_OVERFLOW) :
			  TLSX_HS_DONE, cf.ret);
		cf_free();
	}
}

/* 5.2: once the client's handshake key is in use its handshake records
 * are protected: a plaintext Finished (tlsfuzzer's finished-plaintext)
 * is unexpected_message.
 */
TEST(rec_plaintext_finished_after_server_hello)
{
	u8 fin[4 + TLSX_KS_MAX_SECRET];
	size_t n;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	n = cf_finished(fin, NULL, 0);
	cf.in_len += records(cf.in + cf.in_len, TLSX_CT_HANDSHAKE, 0x0303,
			     fin, n, n);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* 5.1: "Handshake messages MUST NOT be interleaved with other record
 * types": an alert (a warning, and close_notify) or a CCS between two
 * fragments of the ClientHello.
 */
TEST(rec_other_record_between_fragments)
{
	static const char *const between[][2] = {
		{ "15", "015a" },	/* warning user_canceled */
		{ "15", "0100" },	/* close_notify */
		{ "14", "01" },		/* ChangeCipherSpec */
		{ "17", "" },		/* empty application data */
	};
	static u8 m[4096];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(between); i++) {
		ASSERT_EQ(0, cf_new());
		n = ch_msg(m, sizeof(m), &(struct cho){ 0 });
		cf.in_len = records(cf.in, TLSX_CT_HANDSHAKE, 0x0301, m, 40,
				    40);
		cf_add_rec((u8)strtoul(between[i][0], NULL, 16),
			   between[i][1]);
		cf.in_len += records(cf.in + cf.in_len, TLSX_CT_HANDSHAKE,
				     0x0303, m + 40, n - 40, n);
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE))
			TH_LOG("record %s %s", between[i][0], between[i][1]);
		cf_free();
	}
}

/* 5.1: a message before a key change must end its record: the
 * ClientHello's record carries the first bytes of another message.
 */
TEST(rec_message_across_key_change)
{
	static u8 m[4096 + 8];
	size_t n;

	ASSERT_EQ(0, cf_new());
	n = ch_msg(m, sizeof(m), &(struct cho){ 0 });
	memcpy(m + n, "\x14\x00\x00\x20", 4);
	cf.in_len = records(cf.in, TLSX_CT_HANDSHAKE, 0x0301, m, n + 4,
			    n + 4);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* ========================= ChangeCipherSpec (5, D.4) ====================== */

/* 5: the CCS is dropped only "after the first ClientHello message has
 * been sent or received": before it, unexpected_message.
 */
TEST(ccs_before_client_hello)
{
	ASSERT_EQ(0, cf_new());
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	cf_add_hello(&(struct cho){ 0 }, 0x0301, TLSX_REC_MAX_PLAIN);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* D.4: the compatibility CCS after the ClientHello, dropped; the
 * handshake completes.
 */
TEST(ccs_after_client_hello_dropped)
{
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	cf_free();
}

/* D.4: a client sends one dummy CCS; a second is not that record. */
TEST(ccs_twice)
{
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	cf_complete();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* 5: "An implementation which receives any other change_cipher_spec
 * value ... MUST abort the handshake with an "unexpected_message" alert":
 * 0x02, empty, two bytes.
 */
TEST(ccs_other_values)
{
	static const char *const bodies[] = { "02", "00", "", "0101" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bodies); i++) {
		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, bodies[i]);
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE))
			TH_LOG("CCS body '%s'", bodies[i]);
		cf_free();
	}
}

/* 5: "An implementation which receives ... a protected change_cipher_spec
 * record MUST abort the handshake with an "unexpected_message" alert."
 */
TEST(ccs_encrypted)
{
	static const u8 one = 1;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_seal(TLSX_CT_CHANGE_CIPHER_SPEC, &one, 1);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* 5: a CCS is dropped only "before the peer's Finished": one after the
 * client's Finished is not the handshake's; the step leaves it to the
 * record layer (which must refuse it).
 */
TEST(ccs_after_client_finished_left_alone)
{
	u8 fin[4 + TLSX_KS_MAX_SECRET];
	size_t n;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	n = cf_finished(fin, NULL, 0);
	cf_seal(TLSX_CT_HANDSHAKE, fin, n);
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	EXPECT_EQ(TLSX_HS_DONE, cf_step());
	EXPECT_EQ(6, cf.in_len);
	EXPECT_EQ(TLSX_CT_CHANGE_CIPHER_SPEC, cf.in[0]);
	cf_free();
}

/* ============================== alerts (6) ================================== */

/*
 * 6.1: close_notify, user_canceled; 6: "All the alerts listed in Section
 * 6.2 MUST be sent with AlertLevel=fatal and MUST be treated as error
 * alerts when received regardless of the AlertLevel in the message.
 * Unknown Alert types MUST be treated as error alerts."  Every one ends
 * the handshake, and nothing is sent back.  Plaintext (the client before
 * its key) and protected (after).
 */
TEST(alerts_end_the_handshake)
{
	static const struct {
		const char *body;
		int alert;
	} cases[] = {
		{ "0100", TLSX_ALERT_CLOSE_NOTIFY },
		{ "015a", TLSX_ALERT_USER_CANCELED },
		{ "0128", TLSX_ALERT_HANDSHAKE_FAILURE },	/* warning */
		{ "0164", 100 },	/* no_renegotiation: TLS 1.2's */
		{ "01fe", 254 },	/* unknown */
		{ "0232", TLSX_ALERT_DECODE_ERROR },
	};
	u8 body[2];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		cf_add_rec(TLSX_CT_ALERT, cases[i].body);
		cf_step();
		EXPECT_TRUE(cf_ended_by(cases[i].alert))
			TH_LOG("plaintext alert %s", cases[i].body);
		cf_free();

		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		unhex(cases[i].body, body, sizeof(body));
		cf_seal(TLSX_CT_ALERT, body, 2);
		cf_step();
		EXPECT_TRUE(cf_ended_by(cases[i].alert))
			TH_LOG("protected alert %s", cases[i].body);
		cf_free();
	}
}

/* 6.1: user_canceled "should be followed by a close_notify": the first
 * ends the handshake and the close_notify is not read.
 */
TEST(alert_user_canceled_then_close_notify)
{
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_add_rec(TLSX_CT_ALERT, "015a");
	cf_add_rec(TLSX_CT_ALERT, "0100");
	cf_step();
	EXPECT_TRUE(cf_ended_by(TLSX_ALERT_USER_CANCELED));
	cf_free();
}

/* 6, 5.1: an alert record is one Alert, two bytes: one or three bytes
 * is a record that cannot be parsed (decode_error).
 */
TEST(alert_malformed)
{
	static const char *const bodies[] = { "02", "022800" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bodies); i++) {
		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		cf_add_rec(TLSX_CT_ALERT, bodies[i]);
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_DECODE_ERROR))
			TH_LOG("alert body '%s'", bodies[i]);
		cf_free();
	}
}

/*
 * 5.4: "Implementations MUST NOT send Handshake and Alert records that
 * have a zero-length TLSInnerPlaintext.content; if such a message is
 * received, the receiving implementation MUST terminate the connection
 * with an "unexpected_message" alert": an empty alert, in the clear
 * before and after the ServerHello, and protected with 0, 2 and 30
 * bytes of padding (tlsfuzzer's test-tls13-empty-alert.py).
 */
TEST(alert_empty)
{
	static const size_t pads[] = { 0, 2, 30 };
	size_t i;

	ASSERT_EQ(0, cf_new());
	cf_add_rec(TLSX_CT_ALERT, "");
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	cf_add_rec(TLSX_CT_ALERT, "");
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();

	for (i = 0; i < ARRAY_SIZE(pads); i++) {
		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		cf_seal_raw(TLSX_CT_ALERT, NULL, 0, pads[i]);
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE))
			TH_LOG("padding %zu", pads[i]);
		cf_free();
	}
}

/* ============================ ClientHello (4.1.2) =========================== */

/*
 * RFC 8701: GREASE in cipher_suites, supported_groups, key_share (a
 * one-byte share, as Chrome sends), signature_algorithms,
 * supported_versions, psk_key_exchange_modes, ALPN and as extension
 * types (empty and not), first and last: all ignored (RFC 8701 3.1:
 * "servers MUST NOT negotiate any GREASE value").
 */
TEST(ch_grease_everywhere)
{
	static const struct cx grease[] = {
		{ 0x0a0a, "" },
		{ 43, "080a0a03040303fafa" },
		{ 10, "00081a1a001d0017caca" },
		{ 51, "00291a1a000100001d0020" S3_C_PUB },
		{ 13, "000c2a2a04030807080408050806" },
		{ 45, "020b01" },
		{ 16, "000f020a0a02683208687474702f312e31" },
		{ 0x3a3a, "00" },
		X_END
	};
	struct cho o = { .suites = "00060a0a1301eaea", .ext = grease };

	memcpy(cf.cfg.alpn, "\x02h2", 3);
	cf.cfg.alpn_len = 3;
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&o));
	EXPECT_EQ(TLSX_SUITE_AES_128_GCM_SHA256, cf.hs->suite);
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	EXPECT_EQ(TLSX_GROUP_X25519, cf.hs->group);
	EXPECT_STREQ("h2", (const char *)cf.hs->alpn);
	cf_free();
}

/* A GREASE-only supported_groups share list beside a real group list:
 * no usable share, so a HelloRetryRequest for X25519 (4.2.8).
 */
TEST(ch_grease_share_only_gets_hrr)
{
	static const struct cx ext[] = {
		X_VERSIONS, { 10, "00061a1a001d0017" },
		{ 51, "00051a1a000100" }, X_SIGALGS, X_END
	};

	ASSERT_EQ(0, cf_new());
	cf_add_hello(&(struct cho){ .ext = ext }, 0x0301, TLSX_REC_MAX_PLAIN);
	EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
	EXPECT_TRUE(cf_out_is_hrr());
	EXPECT_EQ(TLSX_GROUP_X25519, cf.hs->srv.hrr_group);
	cf_free();
}

/* Large ClientHellos: 4000 suites (cipher_suites<2..2^16-2>); a padding
 * extension (RFC 7685) to 512 bytes; a ~16 KiB hello over four records.
 */
TEST(ch_large)
{
	static u8 m[32768];
	struct cho big_list = { .unknown_suites = 4000 };
	struct cho pad512 = { 0 };
	struct cho pad16k = { .pad = 16000 };
	size_t n;

	EXPECT_EQ(TLSX_HS_DONE, handshake(&big_list));
	n = ch_msg(m, sizeof(m), &pad512);
	pad512.pad = 512 - n - 4;
	EXPECT_EQ(512, ch_msg(m, sizeof(m), &pad512));
	EXPECT_EQ(TLSX_HS_DONE, handshake(&pad512));

	ASSERT_EQ(0, cf_new());
	n = ch_msg(m, sizeof(m), &pad16k);
	EXPECT_GT(n, 16000);
	EXPECT_LE(n, TLSX_HS_DEFAULT_MAX_MSG);
	cf_add_hello(&pad16k, 0x0301, 4096);
	EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
	EXPECT_TRUE(cf_out_is_sh());
	EXPECT_EQ(0, cf_key());
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	cf_free();
}

/*
 * The largest ClientHello TLS 1.3 allows (4.1.2; compression_methods is
 * one byte), 131,142 bytes of body: 32,767 cipher suites, and
 * extensions of 2^16 - 1 bytes, most of them a 60,000-byte key share for
 * a group the server does not know (4.2.8: ignored, the X25519 share
 * after it is used) and padding to fill.  In records of 2^14 bytes, as
 * one step each: accepted, a ServerHello, the handshake completes.  The
 * message is gathered in an allocation that grows with what came
 * (never more than twice that) and is gone once the hello is handled.
 * Then a hello of 131,396 bytes, the structure's most (255 compression
 * methods), passes the framing to the role, which refuses its
 * compression methods (4.1.2: illegal_parameter), and one announcing a
 * byte more is decode_error at its header, before anything is
 * allocated.  (Before: decode_error for anything over 16 KiB.)
 */
static u8 big_m[4 + TLSX_HS_MAX_CLIENT_HELLO + 16];
static u8 big_in[sizeof(big_m) + 16 * 5];

/* Steps the records of big_in[0..@len) one by one; the last return. */
static int big_steps(struct __test_metadata *_metadata, size_t stop)
{
	size_t pos = 0, rec, used;
	int ret = TLSX_HS_WANT_READ;

	while (ret == TLSX_HS_WANT_READ && pos < stop) {
		rec = 5 + get_unaligned_be16(big_in + pos + 3);
		ret = tlsx_hs_step(cf.hs, big_in + pos, rec, &used, cf.out,
				   sizeof(cf.out), &cf.out_len);
		cf.ret = ret;
		if (ret != TLSX_HS_WANT_READ)
			break;
		EXPECT_EQ(rec, used);
		pos += rec;
		if (cf.hs->msg) {
			EXPECT_LE(cf.hs->msg_cap, cf.hs->msg_need);
			EXPECT_LE(cf.hs->msg_cap, 2 * cf.hs->msg_len);
		}
	}
	return ret;
}

TEST(ch_largest)
{
	static const struct cx ext[] = {
		X_VERSIONS, { 10, "00066399001d0017" }, X_SIGALGS, X_END
	};
	struct cho o = { .unknown_suites = 32766, .ext = ext,
			 .big_share = 60000, .pad = 1 };
	size_t n, len;

	n = ch_msg(big_m, sizeof(big_m), &o);
	o.pad += 4 + 131142 - n;
	n = ch_msg(big_m, sizeof(big_m), &o);
	ASSERT_EQ(4 + 131142, n);
	ASSERT_EQ(0, cf_new());
	len = records(big_in, TLSX_CT_HANDSHAKE, 0x0301, big_m, n,
		      TLSX_REC_MAX_PLAIN);
	EXPECT_EQ(TLSX_HS_WANT_READ, big_steps(_metadata, len));
	EXPECT_TRUE(cf_out_is_sh());
	EXPECT_EQ(TLSX_GROUP_X25519, cf.hs->group);
	EXPECT_EQ(NULL, cf.hs->msg);
	EXPECT_EQ(0, cf.hs->msg_cap);
	ASSERT_EQ(0, cf_key());
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	cf_free();

	/* 131,396: the framing takes it, the role judges it. */
	o.n_compression = 255;
	n = ch_msg(big_m, sizeof(big_m), &o);
	ASSERT_EQ(4 + TLSX_HS_MAX_CLIENT_HELLO, n);
	ASSERT_EQ(0, cf_new());
	len = records(big_in, TLSX_CT_HANDSHAKE, 0x0301, big_m, n,
		      TLSX_REC_MAX_PLAIN);
	EXPECT_EQ(TLSX_HS_WANT_READ, big_steps(_metadata, len - 1000));
	EXPECT_EQ(4 + TLSX_HS_MAX_CLIENT_HELLO, cf.hs->msg_need);
	big_steps(_metadata, len);
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_ILLEGAL_PARAMETER));
	cf_free();

	/* One byte more announced: refused at the header. */
	big_m[1] = (TLSX_HS_MAX_CLIENT_HELLO + 1) >> 16;
	big_m[2] = (u8)((TLSX_HS_MAX_CLIENT_HELLO + 1) >> 8);
	big_m[3] = (u8)(TLSX_HS_MAX_CLIENT_HELLO + 1);
	ASSERT_EQ(0, cf_new());
	records(big_in, TLSX_CT_HANDSHAKE, 0x0301, big_m, 100, 100);
	big_steps(_metadata, 105);
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_DECODE_ERROR));
	EXPECT_EQ(NULL, cf.hs->msg);
	cf_free();
}

/* 4.2.8: "client_shares ... MAY be empty": a HelloRetryRequest for our
 * first group, which the second ClientHello then answers.
 */
TEST(ch_empty_key_share_gets_hrr)
{
	static const struct cx ext[] = {
		X_VERSIONS, X_GROUPS, { 51, "0000" }, X_SIGALGS, X_END
	};

	ASSERT_EQ(0, cf_new());
	cf_add_hello(&(struct cho){ .ext = ext }, 0x0301, TLSX_REC_MAX_PLAIN);
	EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
	EXPECT_TRUE(cf_out_is_hrr());
	EXPECT_EQ(TLSX_GROUP_X25519, cf.hs->srv.hrr_group);
	cf_free();
}

/* 4.1.1 / 4.2.8: a share for a group the server does not do only
 * (x448), with X25519 listed: a HelloRetryRequest for X25519.
 */
TEST(ch_share_of_unsupported_group_gets_hrr)
{
	static const struct cx ext[] = {
		X_VERSIONS, { 10, "0004001e001d" },
		{ 51, "003c001e0038" Z32 "000000000000000000000000000000000000000000000000" },
		X_SIGALGS, X_END
	};

	ASSERT_EQ(0, cf_new());
	cf_add_hello(&(struct cho){ .ext = ext }, 0x0301, TLSX_REC_MAX_PLAIN);
	EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
	EXPECT_TRUE(cf_out_is_hrr());
	EXPECT_EQ(TLSX_GROUP_X25519, cf.hs->srv.hrr_group);
	cf_free();
}

/* RFC 8446 4.2.8.2: secp256r1 shares are UncompressedPointRepresentation
 * on the curve; 4.2.8.2 / 7.4.2: X25519 shares are 32 bytes and a zero
 * shared secret is refused.  All illegal_parameter.
 */
TEST(ch_bad_key_shares)
{
	/* (x, y) with y = RFC 8448's plus one: not on the curve. */
	static const struct cx off_curve[] = {
		X_VERSIONS, { 10, "00020017" },
		{ 51, "00450017004104" P256_X P256_Y_PLUS_1 },
		X_SIGALGS, X_END
	};
	static const struct cx compressed[] = {
		X_VERSIONS, { 10, "00020017" },
		{ 51, "00250017002102" P256_X },
		X_SIGALGS, X_END
	};
	static const struct cx p256_infinity[] = {
		X_VERSIONS, { 10, "00020017" }, { 51, "00050017000100" },
		X_SIGALGS, X_END
	};
	static const struct cx x25519_31[] = {
		X_VERSIONS, X_GROUPS,
		{ 51, "0023001d001f" X25519_31 },
		X_SIGALGS, X_END
	};
	static const struct cx x25519_33[] = {
		X_VERSIONS, X_GROUPS,
		{ 51, "0025001d0021" S3_C_PUB "00" },
		X_SIGALGS, X_END
	};
	/* The order-1 point u = 1: the shared secret is all zeros. */
	static const struct cx x25519_low_order[] = {
		X_VERSIONS, X_GROUPS,
		{ 51, "0024001d0020" X25519_ONE },
		X_SIGALGS, X_END
	};

	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = off_curve }));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = compressed }));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = p256_infinity }));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = x25519_31 }));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = x25519_33 }));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = x25519_low_order }));
}

/*
 * A hybrid key_share extension's body in hex, one entry: @group's share
 * of @len bytes, zeros (an all-zero ek passes FIPS 203 7.2's modulus
 * check) with the ECDH part @ec (hex) first or last when it fits.
 * Static.
 */
static const char *hybrid_share_hex(u16 group, size_t len, const char *ec,
				    bool ec_first)
{
	static char hex[2 * 1400 + 32];
	size_t ec_hex = strlen(ec), at;

	at = (size_t)sprintf(hex, "%04zx%04x%04zx", len + 4, group, len);
	memset(hex + at, '0', 2 * len);
	if (2 * len >= ec_hex)
		memcpy(hex + at + (ec_first ? 0 : 2 * len - ec_hex), ec,
		       ec_hex);
	hex[at + 2 * len] = 0;
	return hex;
}

/*
 * draft-ietf-tls-ecdhe-mlkem's client shares have one length each:
 * X25519MLKEM768 1,216 bytes (ek 1,184 || X25519 32), SecP256r1MLKEM768
 * 1,249 (point 65 || ek 1,184); RFC 8446 4.2.8.2 / the draft: another
 * length is illegal_parameter.  One byte short or long, the ek alone and
 * the ECDH part alone, each refused; the right length, the same bytes
 * otherwise, answered with a ServerHello.
 */
TEST(ch_hybrid_share_lengths)
{
	static const struct {
		u16 group;
		const char *listed;	/* supported_groups */
		const char *ec;
		bool ec_first;
		size_t len[5];		/* the right one first */
	} g[] = {
		{ 0x11ec, "000411ec001d", S3_C_PUB, false,
		  { 1216, 1215, 1217, 1184, 32 } },
		{ 0x11eb, "000211eb", "04" P256_X P256_Y, true,
		  { 1249, 1248, 1250, 1184, 65 } },
	};
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(g); i++) {
		for (j = 0; j < ARRAY_SIZE(g[i].len); j++) {
			struct cx ext[] = {
				X_VERSIONS, { 10, g[i].listed },
				{ 51, hybrid_share_hex(g[i].group,
						       g[i].len[j], g[i].ec,
						       g[i].ec_first) },
				X_SIGALGS, X_END
			};

			cf.cfg.groups[0] = g[i].group;
			cf.cfg.n_groups = 1;
			if (j) {
				EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
					  refusal(&(struct cho){ .ext = ext }))
					TH_LOG("group 0x%04x, %zu bytes",
					       g[i].group, g[i].len[j]);
				continue;
			}
			ASSERT_EQ(0, cf_new());
			cf_add_hello(&(struct cho){ .ext = ext }, 0x0301,
				     TLSX_REC_MAX_PLAIN);
			EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
			EXPECT_TRUE(cf_out_is_sh());
			EXPECT_EQ(g[i].group, cf.hs->group);
			cf_free();
		}
	}
}

/*
 * 4.2.1: "If this extension is present in the ClientHello, servers MUST
 * NOT use the ClientHello.legacy_version value for version negotiation
 * and MUST use only the "supported_versions" extension": TLS 1.3 with
 * legacy_version 0x0303, and also 0x0301, 0x0302, 0x0304 and 0xffff.
 */
TEST(ch_legacy_version_ignored_with_supported_versions)
{
	static const u16 vers[] = { 0x0303, 0x0301, 0x0302, 0x0304, 0xffff };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vers); i++) {
		EXPECT_EQ(TLSX_HS_DONE,
			  handshake(&(struct cho){ .version = vers[i] }))
			TH_LOG("legacy_version %04x", vers[i]);
	}
}

/*
 * D.5: "Any endpoint receiving a Hello message with
 * ClientHello.legacy_version ... set to 0x0300 MUST abort the handshake
 * with a "protocol_version" alert", supported_versions or not; below
 * 0x0300 the same (the values tlsfuzzer's test-tls13-legacy-version.py
 * sends).
 */
TEST(ch_legacy_version_ssl3_or_lower)
{
	static const u16 vers[] = {
		0x0300, 0x0000, 0x0200, 0x0002, 0x0100, 0x0103, 0x0102,
		0x0001, 0x02ff,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(vers); i++) {
		EXPECT_EQ(TLSX_ALERT_PROTOCOL_VERSION,
			  refusal(&(struct cho){ .version = vers[i],
						 .version_zero = !vers[i] }))
			TH_LOG("legacy_version %04x", vers[i]);
		EXPECT_STREQ("legacy_version 0x0300 (SSL 3.0) or lower",
			     refusal_why);
	}
}

/*
 * An empty key_exchange (KeyShareEntry's opaque key_exchange<1..2^16-1>)
 * is illegal_parameter, as every share no group could hold: for X25519
 * (4.2.8.2: 32 bytes), for secp256r1, and for a group the server does
 * not do (x448), whose share would be ignored if it were a share at
 * all.  tlsfuzzer's test-tls13-crfg-curves.py "empty x25519 key share".
 */
TEST(ch_empty_key_exchange)
{
	static const struct cx x25519[] = {
		X_VERSIONS, X_GROUPS, { 51, "0004001d0000" }, X_SIGALGS, X_END
	};
	static const struct cx p256[] = {
		X_VERSIONS, X_GROUPS, { 51, "000400170000" }, X_SIGALGS, X_END
	};
	static const struct cx x448_beside[] = {
		X_VERSIONS, { 10, "0004001e001d" },
		{ 51, "0028001e0000001d0020" S3_C_PUB }, X_SIGALGS, X_END
	};

	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = x25519 }));
	EXPECT_STREQ("an empty key share", refusal_why);
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = p256 }));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = x448_beside }));
}

/*
 * 4.2.8's MAY-abort rules, illegal_parameter (not decode_error: both
 * are framed soundly): two shares for one group, a share for a group
 * supported_groups does not list.
 */
TEST(ch_key_share_rules)
{
	static const struct cx twice[] = {
		X_VERSIONS, X_GROUPS,
		{ 51, "0048001d0020" S3_C_PUB "001d0020" S3_C_PUB },
		X_SIGALGS, X_END
	};
	static const struct cx unlisted[] = {
		X_VERSIONS, { 10, "00020017" }, X_SHARE, X_SIGALGS, X_END
	};

	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = twice }));
	EXPECT_STREQ("two key shares for one group", refusal_why);
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  refusal(&(struct cho){ .ext = unlisted }));
	EXPECT_STREQ("a key share for a group not in supported_groups",
		     refusal_why);
}

/*
 * 4.2.7's obsolete_RESERVED groups (0x0001 - 0x0016, 0x001A - 0x001C,
 * 0xFF01 - 0xFF02), one rule wherever they are (server_hello.c,
 * sv_read_groups()): skipped as groups the server does not do, their
 * shares too.  So beside X25519 (first or last, with or without a share
 * of their own) the handshake completes; alone, with or without a share,
 * handshake_failure for no group in common; a share for one that
 * supported_groups does not list, illegal_parameter (4.2.8).  As
 * tlsfuzzer's test-tls13-obsolete-curves.py --relaxed -a
 * handshake_failure.
 */
TEST(ch_obsolete_groups_ignored)
{
	static char g_first[32], g_last[32], g_alone[16];
	static char s_both[256], s_both_rev[256], s_alone[96];
	static const char s_none[] = "0000";
	static const char share32[] = "0020" Z32;
	struct cx both[] = {
		X_VERSIONS, { 10, g_first }, { 51, s_both }, X_SIGALGS, X_END
	};
	struct cx both_rev[] = {
		X_VERSIONS, { 10, g_last }, { 51, s_both_rev }, X_SIGALGS,
		X_END
	};
	struct cx ours_share[] = {
		X_VERSIONS, { 10, g_first }, X_SHARE, X_SIGALGS, X_END
	};
	struct cx alone[] = {
		X_VERSIONS, { 10, g_alone }, { 51, s_alone }, X_SIGALGS, X_END
	};
	struct cx alone_no_share[] = {
		X_VERSIONS, { 10, g_alone }, { 51, s_none }, X_SIGALGS, X_END
	};
	struct cx unlisted[] = {
		X_VERSIONS, { 10, "0002001d" }, { 51, s_alone }, X_SIGALGS,
		X_END
	};
	unsigned int v;

	for (v = 1; v <= 0xff02; v++) {
		if (v == 0x17)
			v = 0x1a;
		else if (v == 0x1d)
			v = 0xff01;
		snprintf(g_first, sizeof(g_first), "0004%04x001d", v);
		snprintf(g_last, sizeof(g_last), "0004001d%04x", v);
		snprintf(g_alone, sizeof(g_alone), "0002%04x", v);
		snprintf(s_both, sizeof(s_both), "0048%04x%s001d0020%s", v,
			 share32, S3_C_PUB);
		snprintf(s_both_rev, sizeof(s_both_rev),
			 "0048001d0020%s%04x%s", S3_C_PUB, v, share32);
		snprintf(s_alone, sizeof(s_alone), "0024%04x%s", v, share32);
		EXPECT_EQ(TLSX_HS_DONE, handshake(&(struct cho){ .ext = both }))
			TH_LOG("group %04x", v);
		EXPECT_EQ(TLSX_HS_DONE,
			  handshake(&(struct cho){ .ext = both_rev }))
			TH_LOG("group %04x", v);
		EXPECT_EQ(TLSX_HS_DONE,
			  handshake(&(struct cho){ .ext = ours_share }))
			TH_LOG("group %04x", v);
		EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE,
			  refusal(&(struct cho){ .ext = alone }))
			TH_LOG("group %04x", v);
		EXPECT_STREQ("no group in common", refusal_why);
		EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE,
			  refusal(&(struct cho){ .ext = alone_no_share }))
			TH_LOG("group %04x", v);
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  refusal(&(struct cho){ .ext = unlisted }))
			TH_LOG("group %04x", v);
	}
}

/*
 * What the server cannot agree on is handshake_failure (4.1.1), and the
 * engine names which choice failed (tlsx_hs_reason()): no suite, no
 * group, no signature scheme the certificate's key can make (the P-256
 * chain, a client offering RSA-PSS only); no TLS 1.3 at all is
 * protocol_version, also named.
 */
TEST(ch_refusal_causes_named)
{
	static const struct cx no_group[] = {
		X_VERSIONS, { 10, "0002001e" }, { 51, "0000" }, X_SIGALGS, X_END
	};
	static const struct cx rsa_only[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, { 13, "000408040805" }, X_END
	};
	static const struct cx tls12[] = {
		{ 43, "020303" }, X_GROUPS, X_SHARE, X_SIGALGS, X_END
	};

	EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE,
		  refusal(&(struct cho){ .suites = "000200ff" }));
	EXPECT_STREQ("no cipher suite in common", refusal_why);
	EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE,
		  refusal(&(struct cho){ .ext = no_group }));
	EXPECT_STREQ("no group in common", refusal_why);
	EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE,
		  refusal(&(struct cho){ .ext = rsa_only }));
	EXPECT_STREQ("no signature scheme in common for the certificate",
		     refusal_why);
	EXPECT_EQ(TLSX_ALERT_PROTOCOL_VERSION,
		  refusal(&(struct cho){ .ext = tls12 }));
	EXPECT_STREQ("the client does not offer TLS 1.3", refusal_why);
	/* A malformed message: the alert says it all, no cause named. */
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .suites = "0000" }));
	EXPECT_EQ(NULL, refusal_why);
}

/*
 * RFC 6066 3: HostName is a DNS host name, ASCII, "without a trailing
 * dot": letters, digits, hyphens in dot-separated labels of 1 to 63
 * bytes (underscores taken, a trailing dot dropped: server_hello.c
 * sv_host_name_ok()).  Taken, lower-cased: "WWW.Example.COM",
 * "a_b.example", "example.com." (kept as "example.com"), "xn--bcher-kva.example".
 * Refused with illegal_parameter: CR, LF, '"', a space, '\', NUL, a
 * byte over 0x7f, "..", a leading dot, a lone dot, a 64-byte label.
 */
TEST(ch_server_name_syntax)
{
	static const char *const ok[][2] = {
		{ "WWW.Example.COM", "www.example.com" },
		{ "a_b.example", "a_b.example" },
		{ "example.com.", "example.com" },
		{ "xn--bcher-kva.example", "xn--bcher-kva.example" },
		{ "localhost", "localhost" },
	};
	static const char *const bad[] = {
		"a\r\nb", "a\nb", "a\"b", "a b", "a\\b", "a\x01b",
		"caf\xe9", "a..b", ".a", ".", "a.b..",
		"0123456789012345678901234567890123456789012345678901234567890123.x",
	};
	static char ext_hex[2 * 300], name_hex[2 * 280];
	struct cx ext[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 0, ext_hex }, X_END
	};
	size_t i, j, n;

	for (i = 0; i < ARRAY_SIZE(ok) + ARRAY_SIZE(bad); i++) {
		const char *name = i < ARRAY_SIZE(ok) ? ok[i][0] :
				   bad[i - ARRAY_SIZE(ok)];

		n = strlen(name);
		for (j = 0; j < n; j++)
			sprintf(name_hex + 2 * j, "%02x", (u8)name[j]);
		snprintf(ext_hex, sizeof(ext_hex), "%04zx00%04zx%s", n + 3, n,
			 name_hex);
		if (i < ARRAY_SIZE(ok)) {
			ASSERT_EQ(0, cf_new());
			EXPECT_EQ(0, cf_hello(&(struct cho){ .ext = ext }))
				TH_LOG("%s", name);
			EXPECT_STREQ(ok[i][1], cf.hs->server_name);
			cf_free();
		} else {
			EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
				  refusal(&(struct cho){ .ext = ext }))
				TH_LOG("%s", name);
			EXPECT_STREQ("server_name is not a DNS host name",
				     refusal_why);
		}
	}
}

/* 4.2.1: without supported_versions the client is TLS 1.2 or older,
 * whatever legacy_version says (0x0304 there is not TLS 1.3): tlsx,
 * which does not speak 1.2, refuses with protocol_version.
 */
TEST(ch_tls13_only_in_legacy_version)
{
	static const struct cx ext[] = { X_GROUPS, X_SHARE, X_SIGALGS, X_END };

	EXPECT_EQ(TLSX_ALERT_PROTOCOL_VERSION,
		  refusal(&(struct cho){ .version = 0x0304, .ext = ext }));
	EXPECT_EQ(TLSX_ALERT_PROTOCOL_VERSION,
		  refusal(&(struct cho){ .version = 0x0303, .ext = ext }));
}

/*
 * Extensions a TLS 1.2 (or TLS 1.3 browser) client sends that this
 * server does not act on: renegotiation_info (RFC 5746), status_request
 * (RFC 6066), signed_certificate_timestamp (RFC 6962),
 * extended_master_secret (RFC 7627), session_ticket (RFC 5077),
 * ec_point_formats, encrypt_then_mac, max_fragment_length (RFC 6066;
 * ignored: RFC 8449 supersedes it), heartbeat, compress_certificate,
 * post_handshake_auth and signature_algorithms_cert (4.2.3).  Ignored:
 * the handshake completes (4.2: unknown extensions are ignored).
 */
TEST(ch_extensions_not_acted_on)
{
	static const struct cx ext[] = {
		{ 0xff01, "00" }, { 5, "0100000000" }, { 18, "" },
		{ 23, "" }, { 35, "" }, { 11, "0100" }, { 22, "" },
		{ 1, "02" }, { 15, "01" }, { 27, "020002" }, { 49, "" },
		{ 50, "000404010403" }, X_VERSIONS, X_GROUPS, X_SHARE,
		X_SIGALGS, X_END
	};

	EXPECT_EQ(TLSX_HS_DONE, handshake(&(struct cho){ .ext = ext }));
}

/* 4.2.9: psk_key_exchange_modes without pre_shared_key: a full
 * handshake (the modes only say what a PSK would be used with).
 */
TEST(ch_psk_modes_without_psk)
{
	static const struct cx ext[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 45, "020100" },
		X_END
	};

	EXPECT_EQ(TLSX_HS_DONE, handshake(&(struct cho){ .ext = ext }));
}

/*
 * Bytes of NewSessionTicket a server with tickets writes after a full
 * handshake on a ClientHello with psk_key_exchange_modes @modes (hex
 * with its length byte; NULL: no such extension); -1 if it failed.
 */
static long tickets_for_modes(const char *modes)
{
	const struct cx ext[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS,
		{ modes ? 45 : 0xfe00, modes ? modes : "" }, X_END
	};
	struct tlsx_ticket_keys *keys = tlsx_ticket_keys_new(0, time(NULL));
	const struct cho hello = { .ext = ext };
	static u8 nst[4096];
	size_t len = 0;
	long ret = -1;

	cf.cfg.tickets = keys;
	cf.cfg.tickets_per_handshake = 1;
	if (keys && !cf_new() && !cf_hello(&hello) &&
	    cf_complete() == TLSX_HS_DONE &&
	    !tlsx_hs_tickets(cf.hs, nst, sizeof(nst), &len))
		ret = (long)len;
	cf_free();
	tlsx_ticket_keys_free(keys);
	return ret;
}

/*
 * 4.2.9: "Servers SHOULD NOT send NewSessionTicket with tickets that
 * are not compatible with the advertised modes": psk_ke alone (which
 * tlsx's server does not take by default) or no modes, no ticket;
 * psk_dhe_ke, a ticket.  Found by BoGo
 * (TLS13-ExpectNoSessionTicketOnBadKEMode-Server).
 */
TEST(ch_psk_modes_decide_tickets)
{
	EXPECT_EQ(0, tickets_for_modes("0100"));
	EXPECT_EQ(0, tickets_for_modes(NULL));
	EXPECT_LT(0, tickets_for_modes("0101"));
	EXPECT_LT(0, tickets_for_modes("020001"));
}

/* A pre_shared_key with an identity the server cannot open and a binder
 * of the right shape, with early_data.
 */
#define X_BOGUS_PSK \
	{ 41, "000a0004deadbeef00000000002120" Z32 }

/*
 * 4.2.10: early data with a PSK the server refuses: "Ignore the
 * extension and return a regular 1-RTT response.  The server then
 * skips past early data by attempting to deprotect received records
 * using the handshake traffic key, discarding records which fail
 * deprotection (up to the configured max_early_data_size)".  The
 * early records are skipped, no EndOfEarlyData is awaited, and the
 * client's Finished completes the handshake.
 */
TEST(ch_early_data_with_refused_psk)
{
	static const struct cx ext[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 42, "" },
		{ 45, "0101" }, X_BOGUS_PSK, X_END
	};
	static u8 junk[5 + 200];
	int i;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ .ext = ext }));
	EXPECT_FALSE(cf.hs->resumed);
	junk[0] = TLSX_CT_APPLICATION_DATA;
	junk[1] = 3;
	junk[2] = 3;
	put_unaligned_be16(200, junk + 3);
	for (i = 0; i < 3; i++) {
		memset(junk + 5, 0x30 + i, 200);
		cf_add(junk, sizeof(junk));
	}
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	cf_free();
}

/* The cookie extension (type, length, body) of the HRR in cf.out, hex. */
static bool hrr_cookie_hex(char *hex, size_t cap)
{
	struct tlsx_rd r, exts, body;
	const u8 *p;
	size_t len, i;
	u16 type;

	tlsx_rd_init(&r, cf.out + 5 + 4, cf.out_len - 9);
	if (tlsx_rd_bytes(&r, 2 + 32, &p) || tlsx_rd_vec(&r, 1, 0, 32, &p,
							  &len) ||
	    tlsx_rd_bytes(&r, 3, &p) || tlsx_rd_open(&r, 2, 0, 65535, &exts))
		return false;
	while (tlsx_rd_left(&exts)) {
		if (tlsx_rd_u16(&exts, &type) ||
		    tlsx_rd_open(&exts, 2, 0, 65535, &body))
			return false;
		if (type != 44)
			continue;
		len = tlsx_rd_left(&body);
		if (2 * len + 1 > cap)
			return false;
		for (i = 0; i < len; i++)
			sprintf(hex + 2 * i, "%02x", body.p[i]);
		return true;
	}
	return false;
}

/*
 * 4.2.10 after a HelloRetryRequest: "the server ... MUST ignore the
 * extension ... skip past early data by ... [when it] responds with a
 * HelloRetryRequest ... ignore ... records with external content type
 * of "application_data" ... up to the configured max_early_data_size";
 * 4.1.2: ClientHello2 drops early_data.  The client's 0-RTT records
 * sent after ClientHello1 are skipped in the clear, ClientHello2 gets
 * the flight and the handshake completes.
 */
TEST(ch_early_data_then_hrr)
{
	static const struct cx ch1[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 42, "" }, X_END
	};
	static char cookie[1024];
	static u8 junk[5 + 300];
	struct cx ch2[] = {
		X_VERSIONS, X_GROUPS,
		{ 51, "00450017004104" P256_X P256_Y },
		X_SIGALGS, { 44, cookie }, X_END
	};
	int i;

	cf.cfg.groups[0] = TLSX_GROUP_SECP256R1;
	cf.cfg.n_groups = 1;
	ASSERT_EQ(0, cf_new());
	cf_add_hello(&(struct cho){ .ext = ch1 }, 0x0301, TLSX_REC_MAX_PLAIN);
	ASSERT_EQ(TLSX_HS_WANT_READ, cf_step());
	ASSERT_TRUE(cf_out_is_hrr());
	ASSERT_TRUE(hrr_cookie_hex(cookie, sizeof(cookie)));
	/* The 0-RTT records, the compatibility CCS, ClientHello2. */
	junk[0] = TLSX_CT_APPLICATION_DATA;
	junk[1] = 3;
	junk[2] = 3;
	put_unaligned_be16(300, junk + 3);
	for (i = 0; i < 3; i++) {
		memset(junk + 5, 0x40 + i, 300);
		cf_add(junk, sizeof(junk));
	}
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	cf_add_hello(&(struct cho){ .ext = ch2 }, 0x0303, TLSX_REC_MAX_PLAIN);
	EXPECT_EQ(TLSX_HS_WANT_READ, cf_step());
	EXPECT_EQ(0, cf.in_len);
	EXPECT_TRUE(cf_out_is_sh());
	EXPECT_EQ(0, cf_key());
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	EXPECT_TRUE(cf.hs->hrr);
	cf_free();
}

/*
 * ClientHello1 with a pre_shared_key, a HelloRetryRequest, then
 * ClientHello2 with @psk2 (or without the extension): the step result.
 */
static int second_hello_psk(bool psk2)
{
	static const struct cx ch1[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 45, "0101" },
		X_BOGUS_PSK, X_END
	};
	static char cookie[1024];
	struct cx ch2[] = {
		X_VERSIONS, X_GROUPS,
		{ 51, "00450017004104" P256_X P256_Y },
		X_SIGALGS, { 45, "0101" }, { 44, cookie }, X_BOGUS_PSK, X_END
	};
	int ret;

	if (!psk2)
		ch2[6] = (struct cx)X_END;
	cf.cfg.groups[0] = TLSX_GROUP_SECP256R1;
	cf.cfg.n_groups = 1;
	if (cf_new())
		return -100;
	cf_add_hello(&(struct cho){ .ext = ch1 }, 0x0301, TLSX_REC_MAX_PLAIN);
	if (cf_step() != TLSX_HS_WANT_READ || !cf_out_is_hrr() ||
	    !hrr_cookie_hex(cookie, sizeof(cookie)))
		return -101;
	cf_add_rec(TLSX_CT_CHANGE_CIPHER_SPEC, "01");
	cf_add_hello(&(struct cho){ .ext = ch2 }, 0x0303, TLSX_REC_MAX_PLAIN);
	ret = cf_step();
	cf_free();
	return ret;
}

/*
 * 4.1.2: ClientHello2 may only be "Updating the "pre_shared_key"
 * extension if present": dropping it is a change 4.1.2 does not allow
 * (illegal_parameter); updated, the handshake goes on.  Found by BoGo
 * (Resume-Server-OmitPSKsOnSecondClientHello).
 */
TEST(ch_second_hello_keeps_psk)
{
	EXPECT_EQ(TLSX_HS_WANT_READ, second_hello_psk(true));
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_ILLEGAL_PARAMETER),
		  second_hello_psk(false));
}

/* RFC 8449 4: record_size_limit 64, the smallest allowed: every
 * protected record of the server's flight holds at most 63 bytes of
 * content (the limit counts the content type byte); the handshake then
 * completes.
 */
TEST(ch_record_size_limit_64)
{
	static const struct cx ext[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 28, "0040" }, X_END
	};
	size_t off, body, n = 0;

	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ .ext = ext }));
	off = 5 + get_unaligned_be16(cf.out + 3);
	if (cf.out[off] == TLSX_CT_CHANGE_CIPHER_SPEC)
		off += 6;
	for (; off + 5 <= cf.out_len; off += 5 + body) {
		EXPECT_EQ(TLSX_CT_APPLICATION_DATA, cf.out[off]);
		body = get_unaligned_be16(cf.out + off + 3);
		EXPECT_LE(body, 64 + 16);
		n++;
	}
	EXPECT_EQ(off, cf.out_len);
	EXPECT_GT(n, 10);
	EXPECT_EQ(TLSX_HS_DONE, cf_complete());
	cf_free();
}

/*
 * 4.6.1 / 4.6.3 / 4.5 / 4.1.2: in the client's second flight, a
 * KeyUpdate, a NewSessionTicket (a server's message), a ClientHello
 * under the handshake key, an EndOfEarlyData when no early data was
 * accepted, and an unassigned type are each "an inappropriate message"
 * (6.2 unexpected_message).
 */
TEST(ch_client_flight_unexpected_messages)
{
	static const char *const msgs[] = {
		"1800000100",
		"1800000101",
		"040000120000012c0000000001000004aabbccdd0000",
		"05000000",
		"63000000",
		"fe000000",
	};
	static u8 m[4096];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(msgs); i++) {
		ASSERT_EQ(0, cf_new());
		ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
		n = unhex(msgs[i], m, sizeof(m));
		cf_seal(TLSX_CT_HANDSHAKE, m, n);
		cf_step();
		EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE))
			TH_LOG("message %s", msgs[i]);
		cf_free();
	}
	/* A second ClientHello, protected. */
	ASSERT_EQ(0, cf_new());
	ASSERT_EQ(0, cf_hello(&(struct cho){ 0 }));
	n = ch_msg(m, sizeof(m), &(struct cho){ 0 });
	cf_seal(TLSX_CT_HANDSHAKE, m, n);
	cf_step();
	EXPECT_TRUE(cf_failed_with(TLSX_ALERT_UNEXPECTED_MESSAGE));
	cf_free();
}

/* 4.2: "There MUST NOT be more than one extension of the same type"
 * says nothing against many: 1000 distinct unknown extension types,
 * empty and not, around the real ones (tlsfuzzer's
 * large-number-of-extensions).
 */
TEST(ch_many_unknown_extensions)
{
	static struct cx ext[1000 + 5];
	static const struct cx real[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS
	};
	size_t i, k = 0;

	for (i = 0; i < 1000; i++) {
		if (i == 500) {
			memcpy(ext + k, real, sizeof(real));
			k += ARRAY_SIZE(real);
		}
		ext[k].type = (u16)(0x6000 + i);
		ext[k++].body = i % 2 ? "" : "00";
	}
	ext[k] = (struct cx)X_END;
	EXPECT_EQ(TLSX_HS_DONE, handshake(&(struct cho){ .ext = ext }));
}

/*
 * Vectors below their minimum length are decode_error (4.1.2's
 * cipher_suites<2..2^16-2>; 4.2.1 versions<2..254>; 4.2.3
 * supported_signature_algorithms<2..2^16-2>; 4.2.7
 * named_group_list<2..2^16-1>; 4.2.8 key_exchange<1..2^16-1>; 4.2.9
 * ke_modes<1..255>; RFC 7301 protocol_name_list<2..2^16-1> and
 * ProtocolName<1..2^8-1>), as is a list of odd length where it holds
 * u16s.
 */
TEST(ch_vectors_too_short)
{
	static const struct cx sv_empty[] = {
		{ 43, "00" }, X_GROUPS, X_SHARE, X_SIGALGS, X_END
	};
	static const struct cx sv_odd[] = {
		{ 43, "03030403" }, X_GROUPS, X_SHARE, X_SIGALGS, X_END
	};
	static const struct cx sig_empty[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, { 13, "0000" }, X_END
	};
	static const struct cx groups_empty[] = {
		X_VERSIONS, { 10, "0000" }, X_SHARE, X_SIGALGS, X_END
	};
	static const struct cx modes_empty[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 45, "00" }, X_END
	};
	static const struct cx alpn_empty[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS, { 16, "0000" }, X_END
	};
	static const struct cx alpn_empty_name[] = {
		X_VERSIONS, X_GROUPS, X_SHARE, X_SIGALGS,
		{ 16, "0004000268320000" }, X_END
	};

	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .suites = "0000" }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = sv_empty }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = sv_odd }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = sig_empty }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = groups_empty }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = modes_empty }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = alpn_empty }));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  refusal(&(struct cho){ .ext = alpn_empty_name }));
}

TEST_HARNESS_MAIN
