/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test_data.h - the engine's tests' fixture files, test/data/
 * (tools/gen/hs-certs): their paths, their contents, a chain loaded
 * from them.  Included by ossl_test.h and conf_test.h, or on its own.
 * Test-only.
 */
#ifndef TLSX_HS_TEST_DATA_H
#define TLSX_HS_TEST_DATA_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "handshake/engine/cert.h"

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

/* The most slurp() reads: test files are small, a runaway one is not. */
#define SLURP_MAX	(64 << 20)

/*
 * The whole of @path, NUL-terminated (the caller frees it), its length
 * in *@len unless @len is NULL; an empty file gives "" and 0.  Read to
 * its end, not by its size, so that /proc files and a log still being
 * written come whole.  NULL when it cannot be opened or read, or holds
 * SLURP_MAX bytes or more (*@len untouched).
 */
static inline char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 4096, n = 0;
	char *p = NULL, *q;
	ssize_t r;

	if (fd < 0)
		return NULL;
	p = malloc(cap);
	while (p) {
		if (n + 1 == cap) {
			q = cap < SLURP_MAX ? realloc(p, cap * 2) : NULL;
			if (!q)
				goto fail;
			p = q;
			cap *= 2;
		}
		r = read(fd, p + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto fail;
		if (!r)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (!p)
		return NULL;
	p[n] = '\0';
	if (len)
		*len = n;
	return p;
fail:
	free(p);
	close(fd);
	return NULL;
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
