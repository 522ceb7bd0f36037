/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pem.h - PEM armour (RFC 7468): "-----BEGIN LABEL-----", base64 lines,
 * "-----END LABEL-----", possibly several blocks in one file (a chain),
 * with any text between blocks (as `openssl x509 -text` leaves).
 *
 * The base64 decoder is strict (RFC 4648 alphabet, padding only at the
 * end, zero pad bits, whitespace allowed between characters) and
 * constant-time in the decoded bytes, since it decodes private keys too.
 * Encrypted PEM (RFC 1421 headers, "Proc-Type:") is refused with
 * -EOPNOTSUPP; use PKCS#8 without a password.
 */
#ifndef TLSX_PEM_H
#define TLSX_PEM_H

#include "aead/platform.h"

#define PEM_LABEL_MAX	64

struct pem_block {
	char label[PEM_LABEL_MAX + 1];	/* NUL-terminated */
	size_t der_len;			/* bytes written to the buffer */
};

/*
 * Finds the next block in [*pos, end), decodes its contents into
 * @out (at most @out_max bytes) and moves *pos past its END line.
 * Returns 1 for a block, 0 when no BEGIN line is left, -EBADMSG for a
 * malformed block (bad base64, END missing or with another label),
 * -ENOSPC when @out is too small, -EOPNOTSUPP for encrypted PEM.  On an
 * error @out is wiped.
 */
int pem_next(const char **pos, const char *end, struct pem_block *b,
	     u8 *out, size_t out_max);

/*
 * The first block labelled @label in @pem (of @len bytes): 0 and its
 * length in *der_len, -ENOENT when there is none, or pem_next()'s errors.
 */
int pem_find(const char *pem, size_t len, const char *label,
	     u8 *out, size_t out_max, size_t *der_len);

/*
 * Strict base64 of @in (whitespace skipped) into @out: 0, -EBADMSG or
 * -ENOSPC (@out wiped on an error).
 */
int pem_base64_decode(u8 *out, size_t out_max, size_t *out_len,
		      const char *in, size_t in_len);

#endif /* TLSX_PEM_H */
