// SPDX-License-Identifier: GPL-2.0
/*
 * test_ext.c - the extension table and the walk over extension blocks:
 *
 *  - the table against RFC 8446 4.2's, copied here from the RFC's text
 *    (and RFC 8449's record_size_limit): every type in every message,
 *    accepted where the RFC lists it, illegal_parameter elsewhere;
 *  - duplicates of a known and of an unknown type: illegal_parameter, in
 *    every message; two different unknown types in a request: ignored;
 *  - unsolicited extensions in ServerHello, EncryptedExtensions and
 *    Certificate, and unknown types in a response: unsupported_extension;
 *    HelloRetryRequest's cookie accepted unasked;
 *  - pre_shared_key not last in the ClientHello: illegal_parameter;
 *  - framing: truncated type, length past the block: decode_error;
 *  - the bodies recorded point at the extension data.
 */
#include "kselftest_harness.h"
#include "handshake/engine/ext.h"
#include "handshake/engine/test/hs_test.h"

#define ALL_REQUESTED	0xffffffffu

/* RFC 8446 4.2 (the "TLS 1.3" column), RFC 8449 5. */
static const struct {
	u16 type;
	const char *msgs;
} rfc_table[] = {
	{ 0, "CH, EE" },		/* server_name [RFC6066] */
	{ 1, "CH, EE" },		/* max_fragment_length */
	{ 5, "CH, CR, CT" },		/* status_request */
	{ 10, "CH, EE" },		/* supported_groups */
	{ 13, "CH, CR" },		/* signature_algorithms */
	{ 14, "CH, EE" },		/* use_srtp */
	{ 15, "CH, EE" },		/* heartbeat */
	{ 16, "CH, EE" },		/* ALPN */
	{ 18, "CH, CR, CT" },		/* signed_certificate_timestamp */
	{ 19, "CH, EE" },		/* client_certificate_type */
	{ 20, "CH, EE" },		/* server_certificate_type */
	{ 21, "CH" },			/* padding */
	{ 28, "CH, EE" },		/* record_size_limit [RFC8449] */
	{ 41, "CH, SH" },		/* pre_shared_key */
	{ 42, "CH, EE, NST" },		/* early_data */
	{ 43, "CH, SH, HRR" },		/* supported_versions */
	{ 44, "CH, HRR" },		/* cookie */
	{ 45, "CH" },			/* psk_key_exchange_modes */
	{ 47, "CH, CR" },		/* certificate_authorities */
	{ 48, "CR" },			/* oid_filters */
	{ 49, "CH" },			/* post_handshake_auth */
	{ 50, "CH, CR" },		/* signature_algorithms_cert */
	{ 51, "CH, SH, HRR" },		/* key_share */
};

static const struct {
	enum tlsx_hs_ctx ctx;
	const char *name;
} ctxs[] = {
	{ TLSX_CTX_CH, "CH" }, { TLSX_CTX_SH, "SH" }, { TLSX_CTX_HRR, "HRR" },
	{ TLSX_CTX_EE, "EE" }, { TLSX_CTX_CT, "CT" }, { TLSX_CTX_CR, "CR" },
	{ TLSX_CTX_NST, "NST" },
};

/* Whether the comma-separated list @msgs names @name exactly. */
static bool lists(const char *msgs, const char *name)
{
	size_t n = strlen(name);
	const char *p = msgs;

	while ((p = strstr(p, name))) {
		if ((p == msgs || p[-1] == ' ') && (!p[n] || p[n] == ','))
			return true;
		p += n;
	}
	return false;
}

static u8 blk[1024];

/* An extension block of @hex (type, length, data as on the wire). */
static int parse(enum tlsx_hs_ctx ctx, const char *hex, u32 requested,
		 struct tlsx_exts *out)
{
	struct tlsx_rd r;

	tlsx_rd_init(&r, blk, unhex(hex, blk, sizeof(blk)));
	return tlsx_ext_parse(ctx, &r, requested, out);
}

/* One extension of @type with a 1-byte body. */
static int parse_one(enum tlsx_hs_ctx ctx, u16 type, u32 requested)
{
	struct tlsx_exts out;
	struct tlsx_rd r;

	blk[0] = (u8)(type >> 8);
	blk[1] = (u8)type;
	blk[2] = 0;
	blk[3] = 1;
	blk[4] = 0x5a;
	tlsx_rd_init(&r, blk, 5);
	return tlsx_ext_parse(ctx, &r, requested, &out);
}

TEST(table_is_rfc8446s)
{
	size_t i, c;
	int id;

	ASSERT_EQ(TLSX_EXT_COUNT, ARRAY_SIZE(rfc_table));
	for (i = 0; i < ARRAY_SIZE(rfc_table); i++) {
		id = tlsx_ext_lookup(rfc_table[i].type);
		ASSERT_LE(0, id) TH_LOG("type %u", rfc_table[i].type);
		EXPECT_EQ(rfc_table[i].type, tlsx_ext_def(id)->type);
		for (c = 0; c < ARRAY_SIZE(ctxs); c++) {
			bool ok = lists(rfc_table[i].msgs, ctxs[c].name);

			EXPECT_EQ(ok, !!(tlsx_ext_def(id)->msgs & ctxs[c].ctx))
				TH_LOG("%s in %s", tlsx_ext_def(id)->name,
				       ctxs[c].name);
			/* As the peer would send it (solicited). */
			EXPECT_EQ(ok ? 0 : TLSX_ALERT_ILLEGAL_PARAMETER,
				  parse_one(ctxs[c].ctx, rfc_table[i].type,
					    ALL_REQUESTED))
				TH_LOG("%s in %s", tlsx_ext_def(id)->name,
				       ctxs[c].name);
		}
	}
	EXPECT_EQ(-1, tlsx_ext_lookup(0xfafa));	/* GREASE */
	EXPECT_EQ(-1, tlsx_ext_lookup(35));	/* session_ticket: TLS 1.2 */
	EXPECT_EQ(NULL, tlsx_ext_def(TLSX_EXT_COUNT));
}

TEST(duplicate_known)
{
	struct tlsx_exts out;
	size_t c;

	/* supported_versions twice, in each message it may appear in. */
	for (c = 0; c < ARRAY_SIZE(ctxs); c++) {
		if (!(ctxs[c].ctx & (TLSX_CTX_CH | TLSX_CTX_SH | TLSX_CTX_HRR)))
			continue;
		EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
			  parse(ctxs[c].ctx, "002b00020304 002b00020304",
				ALL_REQUESTED, &out)) TH_LOG("%s",
							     ctxs[c].name);
	}
	/* Not adjacent. */
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_CH, "000a0000 002b0000 000d0000 000a0000", 0,
			&out));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_NST, "002a0004aabbccdd 002a0000", 0, &out));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_EE, "00000000 00000000", ALL_REQUESTED,
			&out));
}

TEST(duplicate_unknown_in_requests)
{
	struct tlsx_exts out;

	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_CH, "fafa0000 000a0000 fafa0001aa", 0, &out));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_CR, "ffff0000 ffff0000", 0, &out));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_NST, "00230000 00230000", 0, &out));
	/* Different unknown types: ignored, not recorded. */
	ASSERT_EQ(0, parse(TLSX_CTX_CH, "fafa0000 0a0a0000 ffff0000 002b0000",
			   0, &out));
	EXPECT_EQ(TLSX_EXT_BIT(TLSX_EXT_SUPPORTED_VERSIONS), out.present);
	ASSERT_EQ(0, parse(TLSX_CTX_CR, "000d0002aabb 1234 0000", 0, &out));
	EXPECT_EQ(TLSX_EXT_BIT(TLSX_EXT_SIGNATURE_ALGORITHMS), out.present);
}

/* 16382 different unknown types, then the first again: a full block. */
TEST(duplicate_unknown_every_type)
{
	static u8 big[65535];
	struct tlsx_exts out;
	struct tlsx_rd r;
	u32 t, n = 0, first = 0x4000, count = 16383;

	for (t = first; t < first + count - 1; t++) {
		big[n++] = (u8)(t >> 8);
		big[n++] = (u8)t;
		big[n++] = 0;
		big[n++] = 0;
	}
	tlsx_rd_init(&r, big, n);
	ASSERT_EQ(0, tlsx_ext_parse(TLSX_CTX_CH, &r, 0, &out));
	EXPECT_EQ(0, out.present);
	/* The last one repeats the first. */
	big[n++] = (u8)(first >> 8);
	big[n++] = (u8)first;
	big[n++] = 0;
	big[n++] = 0;
	ASSERT_EQ(65532, n);
	tlsx_rd_init(&r, big, n);
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  tlsx_ext_parse(TLSX_CTX_CH, &r, 0, &out));
}

TEST(unsolicited_in_responses)
{
	u32 sent = TLSX_EXT_BIT(TLSX_EXT_KEY_SHARE) |
		   TLSX_EXT_BIT(TLSX_EXT_SUPPORTED_VERSIONS);
	struct tlsx_exts out;

	ASSERT_EQ(0, parse(TLSX_CTX_SH, "002b00020304 0033000400170000", sent,
			   &out));
	/* A PSK the client did not offer. */
	EXPECT_EQ(TLSX_ALERT_UNSUPPORTED_EXTENSION,
		  parse(TLSX_CTX_SH, "002b00020304 002900020000", sent, &out));
	/* ALPN in EncryptedExtensions, the client sent none. */
	EXPECT_EQ(TLSX_ALERT_UNSUPPORTED_EXTENSION,
		  parse(TLSX_CTX_EE, "0010000500030268 32", sent, &out));
	EXPECT_EQ(0, parse(TLSX_CTX_EE, "0010000500030268 32",
			   sent | TLSX_EXT_BIT(TLSX_EXT_ALPN), &out));
	/* status_request in a CertificateEntry, not asked for. */
	EXPECT_EQ(TLSX_ALERT_UNSUPPORTED_EXTENSION,
		  parse(TLSX_CTX_CT, "00050000", sent, &out));
	/* Unknown types in a response were never requested. */
	EXPECT_EQ(TLSX_ALERT_UNSUPPORTED_EXTENSION,
		  parse(TLSX_CTX_SH, "fafa0000", ALL_REQUESTED, &out));
	EXPECT_EQ(TLSX_ALERT_UNSUPPORTED_EXTENSION,
		  parse(TLSX_CTX_EE, "00230000", ALL_REQUESTED, &out));
	EXPECT_EQ(TLSX_ALERT_UNSUPPORTED_EXTENSION,
		  parse(TLSX_CTX_HRR, "fafa0000", ALL_REQUESTED, &out));
	/* Forbidden beats unsolicited: key_share is not an EE extension. */
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_EE, "00330000", 0, &out));
}

TEST(hrr_cookie_unasked)
{
	u32 sent = TLSX_EXT_BIT(TLSX_EXT_KEY_SHARE) |
		   TLSX_EXT_BIT(TLSX_EXT_SUPPORTED_VERSIONS);
	struct tlsx_exts out;

	ASSERT_EQ(0, parse(TLSX_CTX_HRR,
			   "002b00020304 003300020017 002c00050003aabbcc",
			   sent, &out));
	EXPECT_EQ(TLSX_EXT_BIT(TLSX_EXT_COOKIE) | sent, out.present);
	EXPECT_EQ(5, out.ext[TLSX_EXT_COOKIE].len);
	EXPECT_EQ(0xaa, out.ext[TLSX_EXT_COOKIE].data[2]);
	/* Not in a ServerHello. */
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_SH, "002c00050003aabbcc", ALL_REQUESTED,
			&out));
}

TEST(psk_last_in_client_hello)
{
	struct tlsx_exts out;

	ASSERT_EQ(0, parse(TLSX_CTX_CH, "002b0000 002d00020101 00290000", 0,
			   &out));
	EXPECT_TRUE(out.present & TLSX_EXT_BIT(TLSX_EXT_PRE_SHARED_KEY));
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_CH, "00290000 002b0000", 0, &out));
	/* An unknown extension after it too. */
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER,
		  parse(TLSX_CTX_CH, "00290000 fafa0000", 0, &out));
	/* In the ServerHello it may be anywhere. */
	EXPECT_EQ(0, parse(TLSX_CTX_SH, "002900020000 002b00020304",
			   ALL_REQUESTED, &out));
}

TEST(framing)
{
	struct tlsx_exts out;

	EXPECT_EQ(0, parse(TLSX_CTX_CH, "", 0, &out));
	EXPECT_EQ(0, out.present);
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, parse(TLSX_CTX_CH, "00", 0, &out));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  parse(TLSX_CTX_CH, "002b", 0, &out));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  parse(TLSX_CTX_CH, "002b00", 0, &out));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  parse(TLSX_CTX_CH, "002b000303", 0, &out));
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  parse(TLSX_CTX_EE, "00000000 0010", ALL_REQUESTED, &out));
	EXPECT_EQ(TLSX_ALERT_INTERNAL_ERROR,
		  parse(TLSX_CTX_CH | TLSX_CTX_SH, "", 0, &out));
	EXPECT_EQ(TLSX_ALERT_INTERNAL_ERROR, parse(0, "", 0, &out));
	EXPECT_EQ(TLSX_ALERT_INTERNAL_ERROR, parse(1 << 7, "", 0, &out));
}

TEST(bodies_recorded)
{
	struct tlsx_exts out;

	ASSERT_EQ(0, parse(TLSX_CTX_CH,
			   "0000000e000c0000096c6f63616c686f7374 002b0003020304",
			   0, &out));
	EXPECT_EQ(14, out.ext[TLSX_EXT_SERVER_NAME].len);
	EXPECT_EQ(blk + 4, out.ext[TLSX_EXT_SERVER_NAME].data);
	EXPECT_EQ(3, out.ext[TLSX_EXT_SUPPORTED_VERSIONS].len);
	EXPECT_EQ(0x04, out.ext[TLSX_EXT_SUPPORTED_VERSIONS].data[2]);
}

TEST_HARNESS_MAIN
