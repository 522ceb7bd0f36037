// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ext.c - libFuzzer target: the one extension walk (ext.c).  The
 * first byte picks the message (its value mod 7: ClientHello,
 * ServerHello, HelloRetryRequest, EncryptedExtensions, Certificate,
 * CertificateRequest, NewSessionTicket) and, in its top bits, what this
 * endpoint is taken to have requested; the rest is the contents of an
 * extension block.  Checked: the result is one of the alerts ext.h
 * promises, and on success every extension recorded lies inside the
 * block, is allowed in that message, was requested in a response
 * (cookie aside in HelloRetryRequest), and the block is consumed.  A
 * CertificateRequest's oid_filters goes on to oid_filter.c, checked and
 * matched against two leaves: no alert but its own, no match without a
 * clean check.
 */
#include <stdlib.h>

#include "x509/x509.h"
#include "handshake/engine/ext.h"
#include "handshake/engine/alert.h"
#include "handshake/engine/hs_impl.h"

static void check(enum tlsx_hs_ctx ctx, u32 requested, const u8 *p,
		  size_t len, const struct tlsx_exts *x)
{
	bool response = ctx & (TLSX_CTX_SH | TLSX_CTX_HRR | TLSX_CTX_EE |
			       TLSX_CTX_CT);
	unsigned int id;

	for (id = 0; id < TLSX_EXT_COUNT; id++) {
		if (!(x->present & TLSX_EXT_BIT(id)))
			continue;
		if (!(tlsx_ext_def(id)->msgs & ctx))
			abort();
		if (response && !(requested & TLSX_EXT_BIT(id)) &&
		    !(ctx == TLSX_CTX_HRR && id == TLSX_EXT_COOKIE))
			abort();
		if (x->ext[id].len &&
		    (x->ext[id].data < p ||
		     x->ext[id].data + x->ext[id].len > p + len))
			abort();
	}
	if (x->present >> TLSX_EXT_COUNT)
		abort();
}

static void check_oid_filters(const struct tlsx_exts *x)
{
	/* id-kp-clientAuth, id-kp-emailProtection */
	static const u8 purposes[] = {
		0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02,
		0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x04
	};
	const u8 *p = x->ext[TLSX_EXT_OID_FILTERS].data;
	size_t len = x->ext[TLSX_EXT_OID_FILTERS].len;
	struct tlsx_x509 leaf;
	int ret;

	ret = hs_oid_filters_check(p, len);
	if (ret && ret != TLSX_ALERT_DECODE_ERROR &&
	    ret != TLSX_ALERT_ILLEGAL_PARAMETER)
		abort();
	/* A leaf with neither extension, then one with both. */
	memset(&leaf, 0, sizeof(leaf));
	if (hs_oid_filters_match(p, len, &leaf) && ret)
		abort();
	leaf.ext = X509_EXT_KEY_USAGE | X509_EXT_EXT_KEY_USAGE;
	leaf.key_usage = X509_KU_DIGITAL_SIGNATURE | X509_KU_KEY_AGREEMENT;
	leaf.eku.p = purposes;
	leaf.eku.len = sizeof(purposes);
	if (hs_oid_filters_match(p, len, &leaf) && ret)
		abort();
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	enum tlsx_hs_ctx ctx;
	struct tlsx_exts x;
	struct tlsx_rd r;
	u32 requested;
	int ret;

	if (!size)
		return 0;
	ctx = 1u << (data[0] % 7);
	/* None, some, or everything requested. */
	requested = data[0] >= 0xc0 ? ~0u : ~0u >> (data[0] >> 3);
	tlsx_rd_init(&r, data + 1, size - 1);
	ret = tlsx_ext_parse(ctx, &r, requested, &x);
	if (ret && ret != TLSX_ALERT_DECODE_ERROR &&
	    ret != TLSX_ALERT_ILLEGAL_PARAMETER &&
	    ret != TLSX_ALERT_UNSUPPORTED_EXTENSION)
		abort();
	if (!ret) {
		if (tlsx_rd_left(&r))
			abort();
		check(ctx, requested, data + 1, size - 1, &x);
		if (ctx == TLSX_CTX_CR &&
		    (x.present & TLSX_EXT_BIT(TLSX_EXT_OID_FILTERS)))
			check_oid_filters(&x);
	}
	return 0;
}
