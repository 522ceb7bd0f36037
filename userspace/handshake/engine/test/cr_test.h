/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cr_test.h - a CertificateRequest (RFC 8446 4.3.2) built by hand from
 * a list of extensions, for the tests that feed one straight to a
 * client (test_client_cert.c, test_client_oidf.c).  Test-only.
 */
#ifndef TLSX_HS_CR_TEST_H
#define TLSX_HS_CR_TEST_H

#include <stddef.h>

#include "handshake/engine/codec.h"
#include "handshake/engine/hs_impl.h"

/* One extension: its type and body; a NULL body leaves it out. */
struct cr_ext {
	u16 type;
	const u8 *body;
	size_t len;
};

/*
 * The message (handshake header included) with an empty
 * certificate_request_context and @exts[0..@n) in order, into @buf;
 * its length, or 0 if @cap is too small.
 */
static inline size_t cr_build_exts(u8 *buf, size_t cap,
				   const struct cr_ext *exts, size_t n)
{
	struct tlsx_wr w;
	size_t i, out;

	tlsx_wr_init(&w, buf, cap);
	tlsx_wr_u8(&w, TLSX_HT_CERTIFICATE_REQUEST);
	tlsx_wr_open(&w, 3);
	tlsx_wr_vec(&w, 1, NULL, 0);	/* certificate_request_context */
	tlsx_wr_open(&w, 2);
	for (i = 0; i < n; i++) {
		if (!exts[i].body)
			continue;
		tlsx_wr_u16(&w, exts[i].type);
		tlsx_wr_vec(&w, 2, exts[i].body, exts[i].len);
	}
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	return tlsx_wr_finish(&w, &out) ? 0 : out;
}

#endif /* TLSX_HS_CR_TEST_H */
