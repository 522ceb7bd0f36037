/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x509_chain.h - a certificate chain file into parsed certificates: the
 * PEM a server is configured with (its certificate first, then the
 * intermediates, as TLS sends them) or a bundle of trust anchors.
 */
#ifndef TLSX_X509_CHAIN_H
#define TLSX_X509_CHAIN_H

#include "x509/x509.h"

/*
 * Decodes every CERTIFICATE block of the PEM text @pem (@len bytes) into
 * @der (@der_max bytes, which must outlive @certs: the parses point into
 * it) and parses it into the next of @certs (room for @max).  Blocks
 * with other labels (a private key kept in the same file) are skipped,
 * and what their decoding wrote to @der is wiped.  *@n: certificates
 * loaded; on a parse error, the index of the bad one.
 *
 * Return: 0 (at least one certificate); -ENOENT when there is none;
 * -ENOBUFS when there are more than @max; -ENOSPC when @der is too small;
 * pem_next()'s -EBADMSG/-EOPNOTSUPP for a malformed or encrypted block;
 * tlsx_x509_parse()'s errors for a bad certificate (its ->error says
 * why).
 */
int tlsx_x509_chain_load(const char *pem, size_t len, u8 *der,
			 size_t der_max, struct tlsx_x509 *certs, size_t max,
			 size_t *n);

#endif /* TLSX_X509_CHAIN_H */
