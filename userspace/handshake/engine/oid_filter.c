// SPDX-License-Identifier: GPL-2.0
/*
 * oid_filter.c - a CertificateRequest's oid_filters (RFC 8446 4.2.5):
 * the certificate extensions and values the server wants the client's
 * certificate to have, read for its framing and matched against the leaf
 * of each of our chains (client_pick_chain() in client_auth.c).
 *
 *	struct {
 *		opaque certificate_extension_oid<1..2^8-1>;
 *		opaque certificate_extension_values<0..2^16-1>;
 *	} OIDFilter;
 *	struct { OIDFilter filters<0..2^16-1>; } OIDFilterExtension;
 *
 * Two OIDs are recognised, the two whose matching rules 4.2.5 gives:
 * keyUsage (2.5.29.15), "all key usage bits asserted in the request are
 * also asserted in the Key Usage certificate extension", and
 * extendedKeyUsage (2.5.29.37), "all key purpose OIDs present in the
 * request are also found in the Extended Key Usage certificate
 * extension".  Any other is skipped unread: "the client MUST ignore and
 * skip any unrecognized certificate extension OIDs".  A recognised one
 * the certificate lacks is no match ("MUST contain all of the specified
 * extension OIDs that the client recognizes"), even keyUsage, whose
 * absence RFC 5280 4.2.1.3 reads as every usage allowed.
 *
 * 4.2.5 says only "represented in DER-encoded format"; tlsx reads
 *  - the OID as its contents octets (X.690 8.19: the <1..> floor fits
 *    them, a whole TLV is 3 bytes at least) and also recognises a whole
 *    DER OBJECT IDENTIFIER; either way the bytes must be well-formed
 *    OID contents, which a whole OID of ours also is;
 *  - the values as DER elements back to back: for keyUsage BIT STRINGs
 *    (the extension's own encoding is one), for extendedKeyUsage
 *    KeyPurposeId OIDs or ExtKeyUsageSyntax SEQUENCEs of them (the
 *    extension's own encoding is one such SEQUENCE).  Empty values ask
 *    for the extension only.
 * Framing that does not decode, a malformed OID, a recognised filter's
 * values that are not such DER: decode_error (6.2).  A recognised OID
 * twice ("Any given OID MUST NOT appear more than once") or
 * anyExtendedKeyUsage in the request ("MUST NOT be used in the
 * request"): illegal_parameter.  Unrecognised OIDs are not compared with
 * each other for duplicates: quadratic over a 64 KiB list, for a breach
 * that changes nothing here.
 *
 * Certificates are public: nothing here needs to be constant time.
 */
#include "x509/der.h"
#include "x509/x509.h"
#include "handshake/engine/hs_impl.h"

/* The recognised OIDs, as bits of a set. */
#define OIDF_KEY_USAGE	(1u << 0)
#define OIDF_EKU	(1u << 1)

/* 2.5.29.15 keyUsage, 2.5.29.37 extKeyUsage, 2.5.29.37.0 anyEKU */
static const u8 oid_key_usage[] = { 0x55, 0x1d, 0x0f };
static const u8 oid_eku[] = { 0x55, 0x1d, 0x25 };
static const u8 oid_eku_any[] = { 0x55, 0x1d, 0x25, 0x00 };

/* Whether @oid, contents or a whole DER OID, is the one of contents @ref. */
static bool oidf_is(const u8 *oid, size_t len, const u8 *ref, size_t ref_len)
{
	if (len == ref_len + 2 && oid[0] == DER_OID && oid[1] == ref_len) {
		oid += 2;
		len -= 2;
	}
	return len == ref_len && !memcmp(oid, ref, ref_len);
}

static unsigned int oidf_kind(const u8 *oid, size_t len)
{
	if (oidf_is(oid, len, oid_key_usage, sizeof(oid_key_usage)))
		return OIDF_KEY_USAGE;
	if (oidf_is(oid, len, oid_eku, sizeof(oid_eku)))
		return OIDF_EKU;
	return 0;
}

/*
 * keyUsage's values: BIT STRINGs, bit 0 first (RFC 5280 4.2.1.3).  With
 * @leaf, clears *@match unless every asserted bit is asserted in the
 * leaf's keyUsage; a bit past 15, which x509.c does not keep (5280 names
 * 0..8), cannot be shown there and is no match.  0 or decode_error.
 */
static int oidf_key_usage(const u8 *v, size_t len,
			  const struct tlsx_x509 *leaf, bool *match)
{
	unsigned int unused, bits = 0, b;
	struct der_cursor c;
	struct der_span s;
	size_t i;

	der_init(&c, v, len);
	while (!der_empty(&c)) {
		/* The unused bits are checked to be 0 there. */
		if (der_read_bit_string(&c, &s, &unused))
			return TLSX_ALERT_DECODE_ERROR;
		for (i = 0; i < s.len; i++) {
			if (!s.p[i])
				continue;
			if (i >= 2) {
				*match = false;
				continue;
			}
			for (b = 0; b < 8; b++)
				if (s.p[i] & (0x80 >> b))
					bits |= 1u << (i * 8 + b);
		}
	}
	if (leaf && (!(leaf->ext & X509_EXT_KEY_USAGE) ||
		     (bits & ~leaf->key_usage)))
		*match = false;
	return 0;
}

/* One KeyPurposeId of the request, read from @c and looked up in @leaf. */
static int oidf_purpose(struct der_cursor *c, const struct tlsx_x509 *leaf,
			bool *match)
{
	struct der_span oid;

	if (der_read_oid(c, &oid))
		return TLSX_ALERT_DECODE_ERROR;
	if (der_oid_equal(&oid, oid_eku_any, sizeof(oid_eku_any)))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	if (leaf && !tlsx_x509_has_eku(leaf, &oid))
		*match = false;
	return 0;
}

/*
 * extendedKeyUsage's values: KeyPurposeIds, alone or in SEQUENCEs of
 * one or more (RFC 5280 4.2.1.12 "SEQUENCE SIZE (1..MAX)").  With
 * @leaf, clears *@match unless the leaf lists each.  0 or the alert.
 */
static int oidf_eku(const u8 *v, size_t len, const struct tlsx_x509 *leaf,
		    bool *match)
{
	struct der_cursor c, seq;
	int ret = 0;
	u8 tag;

	if (leaf && !(leaf->ext & X509_EXT_EXT_KEY_USAGE))
		*match = false;
	der_init(&c, v, len);
	while (!ret && !der_empty(&c)) {
		if (der_peek_tag(&c, &tag) || tag != DER_SEQUENCE) {
			ret = oidf_purpose(&c, leaf, match);
			continue;
		}
		if (der_enter(&c, DER_SEQUENCE, &seq) || der_empty(&seq))
			return TLSX_ALERT_DECODE_ERROR;
		while (!ret && !der_empty(&seq))
			ret = oidf_purpose(&seq, leaf, match);
	}
	return ret;
}

/*
 * Walks the body @data: without @leaf checks it, with one also sets
 * *@match to whether the leaf satisfies every recognised filter.
 */
static int oidf_walk(const u8 *data, size_t len, const struct tlsx_x509 *leaf,
		     bool *match)
{
	unsigned int seen = 0, kind;
	struct tlsx_rd r, list;
	struct der_span oid;
	const u8 *v;
	size_t v_len;
	int ret;

	*match = true;
	tlsx_rd_init(&r, data, len);
	ret = tlsx_rd_open(&r, 2, 0, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_vec(&list, 1, 1, 255, &oid.p, &oid.len);
		if (!ret)
			ret = tlsx_rd_vec(&list, 2, 0, 65535, &v, &v_len);
		if (ret)
			break;
		if (der_check_oid(&oid))
			return TLSX_ALERT_DECODE_ERROR;
		kind = oidf_kind(oid.p, oid.len);
		if (!kind)
			continue;
		if (seen & kind)
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		seen |= kind;
		if (kind == OIDF_KEY_USAGE)
			ret = oidf_key_usage(v, v_len, leaf, match);
		else
			ret = oidf_eku(v, v_len, leaf, match);
	}
	return ret;
}

int hs_oid_filters_check(const u8 *data, size_t len)
{
	bool match;

	return oidf_walk(data, len, NULL, &match);
}

bool hs_oid_filters_match(const u8 *data, size_t len,
			  const struct tlsx_x509 *leaf)
{
	bool match;

	return !oidf_walk(data, len, leaf, &match) && match;
}
