// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_pem.c - libFuzzer target: the input is a PEM file (a chain, a
 * key, any text).  Every block is decoded into a buffer exactly as large
 * as the decoder may need, and again into one a byte too small, which
 * must fail with -ENOSPC; a decoded CERTIFICATE goes on to the X.509
 * parser.  The base64 decoder alone also gets the raw input.
 */
#include <stdlib.h>

#include "x509/pem.h"
#include "x509/x509.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	const char *pos = (const char *)data, *end = pos + size;
	struct pem_block b;
	struct tlsx_x509 crt;
	size_t max = size / 4 * 3 + 3, n;
	unsigned int blocks = 0;
	u8 *out = malloc(max), *small;
	int ret;

	if (!out)
		return 0;
	while ((ret = pem_next(&pos, end, &b, out, max)) != 0) {
		if (pos < (const char *)data || pos > end)
			abort();
		if (ret < 0)
			continue;
		if (b.der_len > max || strlen(b.label) > PEM_LABEL_MAX)
			abort();
		if (!strcmp(b.label, "CERTIFICATE"))
			tlsx_x509_parse(&crt, out, b.der_len);
		if (++blocks > size)
			abort();	/* each call must make progress */
	}
	if (pos != end)
		abort();

	ret = pem_base64_decode(out, max, &n, (const char *)data, size);
	if (!ret && n > 0) {
		/* Heap-allocated at the exact size: ASan sees an overrun. */
		small = malloc(n - 1 ? n - 1 : 1);
		if (small && pem_base64_decode(small, n - 1, &n,
					       (const char *)data,
					       size) != -ENOSPC)
			abort();
		free(small);
	}
	free(out);
	return 0;
}
