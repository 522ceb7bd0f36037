/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf_test.h - what the conformance tests (test_conformance.c, the
 * server; test_conformance_client.c, the client) share: the test data
 * and the server's P-256 chain.  Include after "kselftest_harness.h".
 */
#ifndef TLSX_HS_CONF_TEST_H
#define TLSX_HS_CONF_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handshake/cert.h"

static inline const char *data(const char *name)
{
	static char buf[256];
	const char *slash = strrchr(__FILE__, '/');
	int dir = slash ? (int)(slash - __FILE__) : 0;

	snprintf(buf, sizeof(buf), "%.*s%sdata/%s", dir, __FILE__,
		 slash ? "/" : "", name);
	return buf;
}

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

static struct tlsx_cert_chain chain;	/* the server's, P-256 */

static inline int load_p256_chain(void)
{
	char *c, *k;
	size_t cl = 0, kl = 0;
	int ret = -1;

	if (chain.n)
		return 0;
	c = slurp(data("p256-chain.pem"), &cl);
	k = slurp(data("p256-leaf.key"), &kl);
	if (c && k)
		ret = tlsx_cert_chain_load_mem(&chain, c, cl, k, kl, NULL);
	free(c);
	free(k);
	return ret;
}


#endif /* TLSX_HS_CONF_TEST_H */
