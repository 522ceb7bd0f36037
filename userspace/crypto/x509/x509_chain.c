// SPDX-License-Identifier: GPL-2.0
/*
 * x509_chain.c - PEM chain files into parsed certificates, one block at a
 * time with pem_next(), each decoded right after the previous one in the
 * caller's buffer so that the parses (which point into it) stay valid.
 */
#include "x509/pem.h"
#include "x509/x509_chain.h"

int tlsx_x509_chain_load(const char *pem, size_t len, u8 *der,
			 size_t der_max, struct tlsx_x509 *certs, size_t max,
			 size_t *n)
{
	const char *pos = pem, *end = pem + len;
	size_t used = 0;
	struct pem_block b;
	int ret;

	*n = 0;
	for (;;) {
		ret = pem_next(&pos, end, &b, der + used, der_max - used);
		if (ret <= 0)
			break;
		if (strcmp(b.label, "CERTIFICATE")) {
			/* Not ours to keep, and maybe a private key. */
			memzero_explicit(der + used, b.der_len);
			continue;
		}
		if (*n == max) {
			ret = -ENOBUFS;
			break;
		}
		ret = tlsx_x509_parse(&certs[*n], der + used, b.der_len);
		if (ret)
			break;
		used += b.der_len;
		(*n)++;
	}
	if (ret < 0)
		return ret;
	return *n ? 0 : -ENOENT;
}
