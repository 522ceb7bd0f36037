/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_data.h - the engine's tests' fixture files, test/data/
 * (tools/gen/hs-certs): their paths, their contents, a chain loaded
 * from them.  Included by ossl_test.h and conf_test.h, or on its own.
 * Test-only.
 */
#ifndef TLSX_HS_TEST_DATA_H
#define TLSX_HS_TEST_DATA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handshake/cert.h"

/*
 * test/data/@name, next to this file (make runs from the top), in one
 * of four static buffers used in turn: four paths can be held at once
 * (a chain and its key in one call), the fifth call overwrites the
 * first.  Test-only: not thread-safe.
 */
static inline const char *data(const char *name)
{
	static char buf[4][256];
	static unsigned int turn;
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 0;
	char *b = buf[turn++ % 4];

	snprintf(b, sizeof(buf[0]), "%.*s%sdata/%s", dir, __FILE__,
		 slash ? "/" : "", name);
	return b;
}

/*
 * The whole of @path, NUL-terminated (the caller frees it), its length
 * in *@len; NULL when it cannot be read or is empty (*@len untouched).
 */
static inline char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *p = NULL;
	long n = -1;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END))
		n = ftell(f);
	if (n > 0 && !fseek(f, 0, SEEK_SET)) {
		p = malloc((size_t)n + 1);
		if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
			free(p);
			p = NULL;
		}
		if (p) {
			p[n] = 0;
			*len = (size_t)n;
		}
	}
	fclose(f);
	return p;
}

/* slurp() of test/data/@name. */
static inline char *slurp_data(const char *name, size_t *len)
{
	return slurp(data(name), len);
}

/*
 * A chain from test/data/ PEM files: @cert1 then @cert2 (NULL: none),
 * concatenated, and its key @key; 0 or -1.
 */
static inline int load_chain(struct tlsx_cert_chain *c, const char *cert1,
			     const char *cert2, const char *key)
{
	char *a, *b = NULL, *k, *both;
	size_t al = 0, bl = 0, kl = 0;
	int ret = -1;

	a = slurp_data(cert1, &al);
	if (cert2)
		b = slurp_data(cert2, &bl);
	k = slurp_data(key, &kl);
	both = malloc(al + bl + 1);
	if (a && k && both && (!cert2 || b)) {
		memcpy(both, a, al);
		if (b)
			memcpy(both + al, b, bl);
		ret = tlsx_cert_chain_load_mem(c, both, al + bl, k, kl, NULL);
	}
	free(a);
	free(b);
	free(k);
	free(both);
	return ret;
}

#endif /* TLSX_HS_TEST_DATA_H */
