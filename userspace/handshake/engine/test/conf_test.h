/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conf_test.h - what the conformance tests (test_conformance.c, the
 * server; test_conformance_client.c, the client) share: the test data
 * (test_data.h) and the server's P-256 chain.  Include after
 * "kselftest_harness.h".
 */
#ifndef TLSX_HS_CONF_TEST_H
#define TLSX_HS_CONF_TEST_H

#include "handshake/engine/cert.h"
#include "handshake/engine/test/test_data.h"

static struct tlsx_cert_chain chain;	/* the server's, P-256 */

static inline int load_p256_chain(void)
{
	if (chain.n)
		return 0;
	return load_chain(&chain, "p256-chain.pem", NULL, "p256-leaf.key");
}

#endif /* TLSX_HS_CONF_TEST_H */
