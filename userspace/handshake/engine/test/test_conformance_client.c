// SPDX-License-Identifier: GPL-2.0
/*
 * test_conformance_client.c - conformance scenarios for tlsx's client
 * (test_conformance.c has the server's): tlsx's client against tlsx's
 * server, with the server's protected flight opened under the server's
 * handshake secret, edited, and resealed in between, so that the client
 * meets what a broken or hostile server would send.  What test_client.c
 * already checks (ServerHello and HelloRetryRequest refusals, the
 * server flight's refusals, CCS values) is not repeated.  Each case
 * names the RFC text it checks.
 */
#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/conf_test.h"

/* ==================== the client, against a scripted server ============== */

/*
 * tlsx's client and tlsx's server, with the server's protected flight
 * opened under its handshake secret, edited, and resealed for the
 * client: the client must refuse what the RFC forbids.  The edits come
 * before the server's Finished, so the client's checks run before a
 * Finished that no longer matches would.
 */
struct mitm {
	struct tlsx_hs_config ccfg, scfg;
	struct tlsx_hs *c, *s;
	u8 buf[65536], msgs[65536], out[TLSX_HS_OUT_MIN];
	size_t buf_len, msgs_len, out_len, used;
	int cret;
};

static struct mitm mm;

/* ClientHello to the server; the server's flight's messages in mm.msgs,
 * its plaintext records (ServerHello, CCS) in mm.buf.
 */
static int mitm_start(void)
{
	struct tlsx_rec_dir d = { 0 };
	size_t off, body, n, used;
	u8 *data, type;

	memset(&mm, 0, sizeof(mm));
	if (load_p256_chain())
		return -1;
	mm.scfg.server = true;
	mm.scfg.chains[0] = &chain;
	mm.scfg.n_chains = 1;
	mm.ccfg.insecure = true;
	mm.s = tlsx_hs_new(&mm.scfg);
	mm.c = tlsx_hs_new(&mm.ccfg);
	if (!mm.s || !mm.c)
		return -1;
	if (tlsx_hs_step(mm.c, NULL, 0, &used, mm.out, sizeof(mm.out),
			 &n) != TLSX_HS_WANT_READ)
		return -1;
	memcpy(mm.buf, mm.out, n);
	if (tlsx_hs_step(mm.s, mm.buf, n, &used, mm.out, sizeof(mm.out),
			 &mm.out_len) != TLSX_HS_WANT_READ || used != n)
		return -1;
	if (tlsx_rec_set_secret(&d, mm.s->suite, mm.s->s_hs,
				mm.s->hash_len))
		return -1;
	/* The plaintext records first, then the protected ones opened. */
	for (off = 0; off + 5 <= mm.out_len; off += 5 + body) {
		body = get_unaligned_be16(mm.out + off + 3);
		if (mm.out[off] != TLSX_CT_APPLICATION_DATA) {
			memcpy(mm.buf + mm.buf_len, mm.out + off, 5 + body);
			mm.buf_len += 5 + body;
			continue;
		}
		if (tlsx_rec_open(&d, mm.out + off, 5 + body,
				  TLSX_REC_MAX_PLAIN, &type, &data, &n) ||
		    type != TLSX_CT_HANDSHAKE)
			return -1;
		memcpy(mm.msgs + mm.msgs_len, data, n);
		mm.msgs_len += n;
	}
	tlsx_rec_wipe(&d);
	return 0;
}

/* Offset of the first message of @type in mm.msgs; mm.msgs_len if none. */
static size_t mitm_find(u8 type)
{
	size_t off = 0;

	while (off + 4 <= mm.msgs_len && mm.msgs[off] != type)
		off += 4 + ((size_t)mm.msgs[off + 1] << 16 |
			    mm.msgs[off + 2] << 8 | mm.msgs[off + 3]);
	return off;
}

/* Replaces @old_len bytes at @off by the message @hex. */
static void mitm_splice(size_t off, size_t old_len, const char *hex)
{
	u8 m[512];
	size_t n = unhex(hex, m, sizeof(m));

	memmove(mm.msgs + off + n, mm.msgs + off + old_len,
		mm.msgs_len - off - old_len);
	memcpy(mm.msgs + off, m, n);
	mm.msgs_len = mm.msgs_len + n - old_len;
}

/* The flight resealed to the client; the client's step result. */
static int mitm_deliver(void)
{
	struct tlsx_rec_dir d = { 0 };
	size_t n, used;

	if (tlsx_rec_set_secret(&d, mm.s->suite, mm.s->s_hs, mm.s->hash_len) ||
	    tlsx_rec_seal(&d, TLSX_CT_HANDSHAKE, mm.msgs, mm.msgs_len, 0,
			  mm.buf + mm.buf_len, sizeof(mm.buf) - mm.buf_len,
			  &n))
		return -1000;
	tlsx_rec_wipe(&d);
	mm.buf_len += n;
	mm.cret = tlsx_hs_step(mm.c, mm.buf, mm.buf_len, &used, mm.out,
			       sizeof(mm.out), &mm.out_len);
	return mm.cret;
}

static void mitm_free(void)
{
	tlsx_hs_free(mm.c);
	tlsx_hs_free(mm.s);
	memset(&mm, 0, sizeof(mm));
}

/* 5: the server's CCS "at any time after the first ClientHello message
 * has been sent": before its ServerHello too, dropped; D.4: a second one
 * is unexpected_message.
 */
TEST(cl_server_ccs_placement)
{
	static const u8 ccs[] = { TLSX_CT_CHANGE_CIPHER_SPEC, 3, 3, 0, 1, 1 };

	ASSERT_EQ(0, mitm_start());
	ASSERT_EQ(TLSX_CT_CHANGE_CIPHER_SPEC,
		  mm.buf[mm.buf_len - sizeof(ccs)]);
	mm.buf_len -= sizeof(ccs);
	memmove(mm.buf + sizeof(ccs), mm.buf, mm.buf_len);
	memcpy(mm.buf, ccs, sizeof(ccs));
	mm.buf_len += sizeof(ccs);
	EXPECT_EQ(TLSX_HS_DONE, mitm_deliver());
	mitm_free();

	ASSERT_EQ(0, mitm_start());
	memcpy(mm.buf + mm.buf_len, ccs, sizeof(ccs));
	mm.buf_len += sizeof(ccs);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  mitm_deliver());
	mitm_free();
}

/* 6.1: close_notify from the server in the middle of its flight ends
 * the client's handshake; nothing is sent back.
 */
TEST(cl_close_notify_during_handshake)
{
	static const u8 alert[] = { TLSX_CT_ALERT, 3, 3, 0, 2, 1, 0 };

	ASSERT_EQ(0, mitm_start());
	memcpy(mm.buf + mm.buf_len, alert, sizeof(alert));
	mm.buf_len += sizeof(alert);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_CLOSE_NOTIFY), mitm_deliver());
	EXPECT_TRUE(tlsx_hs_alert_received(mm.c));
	EXPECT_EQ(0, mm.out_len);
	mitm_free();
}

/*
 * RFC 8449 4: "a TLS 1.3 endpoint MUST NOT send a value larger than 2^14
 * + 1": a client configured with 65535 announces 16385; the server's
 * records then fit it.
 */
TEST(cl_record_size_limit_announced_at_most_2_14_plus_1)
{
	struct tlsx_hs_config ccfg = { .insecure = true,
				       .record_size_limit = 65535 };
	struct tlsx_hs *c = tlsx_hs_new(&ccfg);
	struct tlsx_rd r, exts, body;
	static u8 out[TLSX_HS_OUT_MIN];
	const u8 *p;
	size_t n, used, len;
	u16 type, limit = 0;

	ASSERT_NE(NULL, c);
	ASSERT_EQ(TLSX_HS_WANT_READ, tlsx_hs_step(c, NULL, 0, &used, out,
						  sizeof(out), &n));
	/* Record, message header, version, random, session id, ... */
	tlsx_rd_init(&r, out + 9, n - 9);
	ASSERT_EQ(0, tlsx_rd_bytes(&r, 34, &p));
	ASSERT_EQ(0, tlsx_rd_vec(&r, 1, 0, 32, &p, &len));
	ASSERT_EQ(0, tlsx_rd_vec(&r, 2, 2, 65534, &p, &len));
	ASSERT_EQ(0, tlsx_rd_vec(&r, 1, 1, 255, &p, &len));
	ASSERT_EQ(0, tlsx_rd_open(&r, 2, 0, 65535, &exts));
	while (tlsx_rd_left(&exts)) {
		ASSERT_EQ(0, tlsx_rd_u16(&exts, &type));
		ASSERT_EQ(0, tlsx_rd_open(&exts, 2, 0, 65535, &body));
		if (type == 28)
			ASSERT_EQ(0, tlsx_rd_u16(&body, &limit));
	}
	EXPECT_EQ(TLSX_REC_MAX_PLAIN + 1, limit);
	tlsx_hs_free(c);
}

/* The unedited flight completes: the method is sound. */
TEST(cl_flight_resealed_unchanged)
{
	ASSERT_EQ(0, mitm_start());
	EXPECT_EQ(TLSX_HS_DONE, mitm_deliver());
	mitm_free();
}

/*
 * 4.6.1: NewSessionTicket is sent "after receiving the client Finished";
 * 4.6.3: KeyUpdate "can be sent by either peer after it has sent a
 * Finished message"; 6.2 / 4: in the handshake either is an unexpected
 * message.  Likewise a post-handshake CertificateRequest-like
 * message_hash (254) or EndOfEarlyData from a server.
 */
TEST(cl_post_handshake_messages_during_handshake)
{
	static const char *const msgs[] = {
		/* NewSessionTicket: lifetime, age_add, nonce, ticket, exts */
		"040000120000012c0000000001000004aabbccdd0000",
		"1800000100",		/* KeyUpdate update_not_requested */
		"1800000101",		/* KeyUpdate update_requested */
		"05000000",		/* EndOfEarlyData */
		"fe000000",		/* message_hash */
		"0f000000",		/* a CertificateVerify too soon */
	};
	static const u8 where[] = {
		TLSX_HT_FINISHED, TLSX_HT_FINISHED, TLSX_HT_FINISHED,
		TLSX_HT_FINISHED, TLSX_HT_FINISHED, TLSX_HT_CERTIFICATE,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(msgs); i++) {
		ASSERT_EQ(0, mitm_start());
		mitm_splice(mitm_find(where[i]), 0, msgs[i]);
		EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
			  mitm_deliver())
			TH_LOG("message %s", msgs[i]);
		mitm_free();
	}
}

/*
 * 4.2: "If an implementation receives an extension which it recognizes
 * and which is not specified for the message in which it appears, it
 * MUST abort the handshake with an "illegal_parameter" alert":
 * EncryptedExtensions with key_share, supported_versions,
 * pre_shared_key, psk_key_exchange_modes, cookie, signature_algorithms
 * (each one our ClientHello sent, so not merely unsolicited).
 */
TEST(cl_encrypted_extensions_forbidden)
{
	static const char *const ee[] = {
		"0800000a00080033000400170000",	/* key_share */
		"080000080006002b00020304",	/* supported_versions */
		"080000080006002900020000",	/* pre_shared_key */
		"080000070005002d000101",	/* psk_key_exchange_modes */
		"080000090007002c000300010a",	/* cookie */
		"0800000a0008000d000400020403",	/* signature_algorithms */
	};
	size_t i, off;

	for (i = 0; i < ARRAY_SIZE(ee); i++) {
		ASSERT_EQ(0, mitm_start());
		off = mitm_find(TLSX_HT_ENCRYPTED_EXTENSIONS);
		ASSERT_EQ(0, off);
		mitm_splice(0, 4 + mm.msgs[3], ee[i]);
		EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_ILLEGAL_PARAMETER),
			  mitm_deliver())
			TH_LOG("EncryptedExtensions %s", ee[i]);
		mitm_free();
	}
}

/*
 * A client that refuses the server's flight (past ServerHello, before
 * its own second flight) protects its alert under
 * client_handshake_traffic_secret, the key the server reads from then
 * on (7.1, A.2), after D.4's dummy CCS (tlsx's ClientHello sends a
 * session id).  Found by BoGo (UnsolicitedServerNameAck-TLS-TLS13 and
 * others: the runner, as BoringSSL's server, could not read a clear
 * alert there).
 */
static const u8 cl_ccs[] = { TLSX_CT_CHANGE_CIPHER_SPEC, 3, 3, 0, 1, 1 };

/* mm.out: the dummy CCS, then @alert under the client's handshake key. */
static void cl_expect_protected_alert(struct __test_metadata *_metadata,
				      int alert)
{
	const size_t sizeof_ccs = sizeof(cl_ccs);
	struct tlsx_rec_dir d = { 0 };
	u8 *data, type;
	size_t n;

	ASSERT_EQ(sizeof_ccs + 5 + 3 + 16, mm.out_len);
	EXPECT_EQ(0, memcmp(mm.out, cl_ccs, sizeof_ccs));
	EXPECT_EQ(TLSX_CT_APPLICATION_DATA, mm.out[sizeof_ccs]);
	/* Opens under the server's copy of the client's handshake secret. */
	ASSERT_EQ(0, tlsx_rec_set_secret(&d, mm.s->suite, mm.s->c_hs,
					 mm.s->hash_len));
	ASSERT_EQ(0, tlsx_rec_open(&d, mm.out + sizeof_ccs,
				   mm.out_len - sizeof_ccs,
				   TLSX_REC_MAX_PLAIN, &type, &data, &n));
	EXPECT_EQ(TLSX_CT_ALERT, type);
	ASSERT_EQ(2, n);
	EXPECT_EQ(2, data[0]);
	EXPECT_EQ(alert, data[1]);
	tlsx_rec_wipe(&d);
}

TEST(cl_alert_in_server_flight_protected)
{
	ASSERT_EQ(0, mitm_start());
	ASSERT_EQ(0, mitm_find(TLSX_HT_ENCRYPTED_EXTENSIONS));
	/* EncryptedExtensions with server_name, which the client never sent. */
	mitm_splice(0, 4 + mm.msgs[3], "08000006000400000000");
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNSUPPORTED_EXTENSION),
		  mitm_deliver());
	cl_expect_protected_alert(_metadata, TLSX_ALERT_UNSUPPORTED_EXTENSION);
	mitm_free();
}

/*
 * 5.1: a message before a key change must end its record; the server's
 * Finished followed by more in its record is refused when the client's
 * second flight (its CCS first) is already being built.  The flight is
 * dropped but its CCS stays, the alert under the new key after it.
 * Found by BoGo (TrailingDataWithFinished-Client-TLS13: the runner read
 * a protected record where D.4's CCS had to come first).
 */
TEST(cl_alert_after_finished_keeps_ccs)
{
	ASSERT_EQ(0, mitm_start());
	/* A KeyUpdate after the server's Finished, in its record. */
	mitm_splice(mm.msgs_len, 0, "1800000100");
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_UNEXPECTED_MESSAGE),
		  mitm_deliver());
	cl_expect_protected_alert(_metadata, TLSX_ALERT_UNEXPECTED_MESSAGE);
	mitm_free();
}

TEST_HARNESS_MAIN
