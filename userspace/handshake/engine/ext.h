/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ext.h - the one extension table, and the one walk over an extension
 * block that checks what RFC 8446 section 4.2 says of every extension,
 * whatever its type:
 *
 *  - "There MUST NOT be more than one extension of the same type in a
 *    given extension block": illegal_parameter (the RFC names no alert
 *    here; 6.2's "a field in the handshake was ... inconsistent").
 *  - "If an implementation receives an extension which it recognizes and
 *    which is not specified for the message in which it appears, it MUST
 *    abort the handshake with an "illegal_parameter" alert."
 *  - In a response (ServerHello, HelloRetryRequest, EncryptedExtensions,
 *    Certificate): "Implementations MUST NOT send extension responses if
 *    the remote endpoint did not send the corresponding extension
 *    requests, with the exception of the "cookie" extension in the
 *    HelloRetryRequest.  Upon receiving such an extension, an endpoint
 *    MUST abort the handshake with an "unsupported_extension" alert."  An
 *    unknown type there was never requested: the same alert.
 *  - In a request (ClientHello, CertificateRequest, NewSessionTicket) an
 *    unknown type is ignored (4.1.2, 4.3.2, 4.6.1), duplicates still not.
 *  - 4.2.11: "pre_shared_key" MUST be the last extension of the
 *    ClientHello, else illegal_parameter.
 *
 * What each extension means is its handler's business (to come, in the
 * same table: send, receive, what to do when it is missing).
 */
#ifndef TLSX_HS_EXT_H
#define TLSX_HS_EXT_H

#include "handshake/engine/codec.h"

/* The messages that carry extensions, as bits of a set. */
enum tlsx_hs_ctx {
	TLSX_CTX_CH = 1 << 0,	/* ClientHello */
	TLSX_CTX_SH = 1 << 1,	/* ServerHello */
	TLSX_CTX_HRR = 1 << 2,	/* HelloRetryRequest */
	TLSX_CTX_EE = 1 << 3,	/* EncryptedExtensions */
	TLSX_CTX_CT = 1 << 4,	/* Certificate (a CertificateEntry) */
	TLSX_CTX_CR = 1 << 5,	/* CertificateRequest */
	TLSX_CTX_NST = 1 << 6,	/* NewSessionTicket */
};

/* The extensions tlsx knows, as indices into the table. */
enum tlsx_ext_id {
	TLSX_EXT_SERVER_NAME,
	TLSX_EXT_MAX_FRAGMENT_LENGTH,
	TLSX_EXT_STATUS_REQUEST,
	TLSX_EXT_SUPPORTED_GROUPS,
	TLSX_EXT_SIGNATURE_ALGORITHMS,
	TLSX_EXT_USE_SRTP,
	TLSX_EXT_HEARTBEAT,
	TLSX_EXT_ALPN,
	TLSX_EXT_SCT,
	TLSX_EXT_CLIENT_CERTIFICATE_TYPE,
	TLSX_EXT_SERVER_CERTIFICATE_TYPE,
	TLSX_EXT_PADDING,
	TLSX_EXT_RECORD_SIZE_LIMIT,
	TLSX_EXT_PRE_SHARED_KEY,
	TLSX_EXT_EARLY_DATA,
	TLSX_EXT_SUPPORTED_VERSIONS,
	TLSX_EXT_COOKIE,
	TLSX_EXT_PSK_KEY_EXCHANGE_MODES,
	TLSX_EXT_CERTIFICATE_AUTHORITIES,
	TLSX_EXT_OID_FILTERS,
	TLSX_EXT_POST_HANDSHAKE_AUTH,
	TLSX_EXT_SIGNATURE_ALGORITHMS_CERT,
	TLSX_EXT_KEY_SHARE,
	TLSX_EXT_COUNT
};

#define TLSX_EXT_BIT(id)	(1u << (id))

struct tlsx_ext_def {
	u16 type;		/* ExtensionType on the wire */
	u8 msgs;		/* enum tlsx_hs_ctx bits it may appear in */
	const char *name;	/* the RFC's name */
};

/* The table entry of @id. */
const struct tlsx_ext_def *tlsx_ext_def(enum tlsx_ext_id id);

/* The id of wire type @type, or -1 when tlsx does not know it. */
int tlsx_ext_lookup(u16 type);

/* What tlsx_ext_parse() found: the known extensions, their bodies. */
struct tlsx_exts {
	u32 present;		/* TLSX_EXT_BIT()s */
	struct {
		const u8 *data;	/* in the caller's message */
		u16 len;
	} ext[TLSX_EXT_COUNT];
};

/*
 * Walks the contents of an extension block (the caller has opened
 * Extension extensions<..> with the message's bounds) in message @ctx (one
 * bit) and records the known extensions in @out.  @requested is, for a
 * response, the TLSX_EXT_BIT()s of what this endpoint sent in the request
 * (its ClientHello, or its CertificateRequest for the peer's Certificate);
 * it is ignored for a request.  @block is consumed whole.
 *
 * Returns 0, TLSX_ALERT_DECODE_ERROR (framing), TLSX_ALERT_ILLEGAL_PARAMETER
 * or TLSX_ALERT_UNSUPPORTED_EXTENSION as described above, or
 * TLSX_ALERT_INTERNAL_ERROR for a @ctx that is not one message.
 */
int tlsx_ext_parse(enum tlsx_hs_ctx ctx, struct tlsx_rd *block,
		   u32 requested, struct tlsx_exts *out);

#endif /* TLSX_HS_EXT_H */
