// SPDX-License-Identifier: GPL-2.0
/*
 * ext.c - the extension table (RFC 8446 section 4.2, and RFC 8449's
 * record_size_limit) and the one walk over an extension block; the rules
 * it enforces are listed in ext.h.
 */
#include "handshake/engine/ext.h"

#define CH	TLSX_CTX_CH
#define SH	TLSX_CTX_SH
#define HRR	TLSX_CTX_HRR
#define EE	TLSX_CTX_EE
#define CT	TLSX_CTX_CT
#define CR	TLSX_CTX_CR
#define NST	TLSX_CTX_NST

/* RFC 8446 4.2's table, column "TLS 1.3", in the RFC's order. */
static const struct tlsx_ext_def ext_table[TLSX_EXT_COUNT] = {
	[TLSX_EXT_SERVER_NAME] = { 0, CH | EE, "server_name" },
	[TLSX_EXT_MAX_FRAGMENT_LENGTH] = { 1, CH | EE, "max_fragment_length" },
	[TLSX_EXT_STATUS_REQUEST] = { 5, CH | CR | CT, "status_request" },
	[TLSX_EXT_SUPPORTED_GROUPS] = { 10, CH | EE, "supported_groups" },
	[TLSX_EXT_SIGNATURE_ALGORITHMS] = { 13, CH | CR,
					    "signature_algorithms" },
	[TLSX_EXT_USE_SRTP] = { 14, CH | EE, "use_srtp" },
	[TLSX_EXT_HEARTBEAT] = { 15, CH | EE, "heartbeat" },
	[TLSX_EXT_ALPN] = { 16, CH | EE,
			    "application_layer_protocol_negotiation" },
	[TLSX_EXT_SCT] = { 18, CH | CR | CT,
			   "signed_certificate_timestamp" },
	[TLSX_EXT_CLIENT_CERTIFICATE_TYPE] = { 19, CH | EE,
					       "client_certificate_type" },
	[TLSX_EXT_SERVER_CERTIFICATE_TYPE] = { 20, CH | EE,
					       "server_certificate_type" },
	[TLSX_EXT_PADDING] = { 21, CH, "padding" },
	/* RFC 8449 5: in the ClientHello and EncryptedExtensions. */
	[TLSX_EXT_RECORD_SIZE_LIMIT] = { 28, CH | EE, "record_size_limit" },
	[TLSX_EXT_PRE_SHARED_KEY] = { 41, CH | SH, "pre_shared_key" },
	[TLSX_EXT_EARLY_DATA] = { 42, CH | EE | NST, "early_data" },
	[TLSX_EXT_SUPPORTED_VERSIONS] = { 43, CH | SH | HRR,
					  "supported_versions" },
	[TLSX_EXT_COOKIE] = { 44, CH | HRR, "cookie" },
	[TLSX_EXT_PSK_KEY_EXCHANGE_MODES] = { 45, CH,
					      "psk_key_exchange_modes" },
	[TLSX_EXT_CERTIFICATE_AUTHORITIES] = { 47, CH | CR,
					       "certificate_authorities" },
	[TLSX_EXT_OID_FILTERS] = { 48, CR, "oid_filters" },
	[TLSX_EXT_POST_HANDSHAKE_AUTH] = { 49, CH, "post_handshake_auth" },
	[TLSX_EXT_SIGNATURE_ALGORITHMS_CERT] = { 50, CH | CR,
						 "signature_algorithms_cert" },
	[TLSX_EXT_KEY_SHARE] = { 51, CH | SH | HRR, "key_share" },
};

const struct tlsx_ext_def *tlsx_ext_def(enum tlsx_ext_id id)
{
	if ((unsigned int)id >= TLSX_EXT_COUNT)
		return NULL;
	return &ext_table[id];
}

int tlsx_ext_lookup(u16 type)
{
	int i;

	for (i = 0; i < TLSX_EXT_COUNT; i++)
		if (ext_table[i].type == type)
			return i;
	return -1;
}

/* The messages an endpoint answers the peer's extensions in. */
#define RESPONSES	(SH | HRR | EE | CT)

/*
 * Duplicates of types tlsx does not know, in a request: one bit per
 * ExtensionType, 8 KiB on the stack for the walk only.  A block holds at
 * most 16383 extensions (4 bytes each in 2^16-1), so anything but a
 * direct map costs time an attacker chooses.
 */
struct seen_types {
	u64 bits[65536 / 64];
};

static bool seen_before(struct seen_types *s, u16 type)
{
	u64 bit = 1ull << (type % 64);
	bool seen = s->bits[type / 64] & bit;

	s->bits[type / 64] |= bit;
	return seen;
}

int tlsx_ext_parse(enum tlsx_hs_ctx ctx, struct tlsx_rd *block,
		   u32 requested, struct tlsx_exts *out)
{
	struct seen_types unknown;
	struct tlsx_rd body;
	bool response = ctx & RESPONSES;
	u16 type;
	int id, ret;

	if (!ctx || (ctx & (ctx - 1)) || ctx > NST)
		return TLSX_ALERT_INTERNAL_ERROR;
	out->present = 0;
	if (!response)
		memset(&unknown, 0, sizeof(unknown));
	while (tlsx_rd_left(block)) {
		ret = tlsx_rd_u16(block, &type);
		if (!ret)
			ret = tlsx_rd_open(block, 2, 0, 65535, &body);
		if (ret)
			return ret;
		id = tlsx_ext_lookup(type);
		if (id < 0) {
			if (response)
				return TLSX_ALERT_UNSUPPORTED_EXTENSION;
			/* RFC 8446 4.2: no two of a type, known or not. */
			if (seen_before(&unknown, type))
				return TLSX_ALERT_ILLEGAL_PARAMETER;
			continue;
		}
		if (out->present & TLSX_EXT_BIT(id))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		/* RFC 8446 4.2: recognised, not for this message. */
		if (!(ext_table[id].msgs & ctx))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		/* RFC 8446 4.2: a response nobody asked for (HRR's cookie
		 * excepted).
		 */
		if (response && !(requested & TLSX_EXT_BIT(id)) &&
		    !(ctx == HRR && id == TLSX_EXT_COOKIE))
			return TLSX_ALERT_UNSUPPORTED_EXTENSION;
		/* RFC 8446 4.2.11: "pre_shared_key" last in the ClientHello. */
		if (ctx == CH && id == TLSX_EXT_PRE_SHARED_KEY &&
		    tlsx_rd_left(block))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		out->present |= TLSX_EXT_BIT(id);
		out->ext[id].data = body.p;
		out->ext[id].len = (u16)tlsx_rd_left(&body);
	}
	return 0;
}
