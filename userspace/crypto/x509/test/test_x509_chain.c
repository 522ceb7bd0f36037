// SPDX-License-Identifier: GPL-2.0
/*
 * test_x509_chain.c - tlsx_x509_chain_load() on chain files made by the
 * openssl command at test time (x509_test.h): every certificate in order,
 * equal to the same file parsed alone, the chain verifying; a private key
 * in the file skipped and wiped; every way to fail.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "x509/test/x509_test.h"
#include "x509/x509_chain.h"
#include "x509/x509_verify.h"

#define MAX_CERTS	4

FIXTURE(chain) {
	char pem[32768];
	size_t pem_len;
	u8 der[16384];
	struct tlsx_x509 certs[MAX_CERTS];
	size_t n;
};

FIXTURE_SETUP(chain)
{
	/*
	 * The leaf, the intermediate, then the leaf's key (as some servers
	 * keep them in one file), with text around the blocks.
	 */
	ASSERT_EQ(0, x509_test_sh("{ echo 'leaf:'; cat p256-leaf.pem; echo 'int:'; cat p256-int.pem p256-leaf.key; } > chain.pem"));
	self->pem_len = x509_test_read("chain.pem", self->pem,
				       sizeof(self->pem));
	ASSERT_LT(1000, self->pem_len);
	memset(self->der, 0, sizeof(self->der));
}

FIXTURE_TEARDOWN(chain)
{
}

/* Equal to the certificate NAME parsed on its own. */
static bool same_cert(const struct tlsx_x509 *c, const char *name)
{
	static struct x509_test_cert one;

	if (x509_test_load(&one, name))
		return false;
	return c->raw.len == one.len && !memcmp(c->raw.p, one.der, one.len) &&
	       c->subject.len == one.crt.subject.len &&
	       !memcmp(c->subject.p, one.crt.subject.p, c->subject.len);
}

TEST_F(chain, loads_in_order_and_verifies)
{
	struct tlsx_x509_verify_params vp = { .host = "www.example.com" };
	struct x509_test_cert ca;
	size_t i, used;

	ASSERT_EQ(0, tlsx_x509_chain_load(self->pem, self->pem_len,
					  self->der, sizeof(self->der),
					  self->certs, MAX_CERTS, &self->n));
	ASSERT_EQ(2, self->n);
	EXPECT_TRUE(same_cert(&self->certs[0], "p256-leaf"));
	EXPECT_TRUE(same_cert(&self->certs[1], "p256-int"));

	ASSERT_EQ(0, x509_test_load(&ca, "p256-ca"));
	vp.now = (s64)time(NULL);
	EXPECT_EQ(0, tlsx_x509_verify(self->certs, self->n, &ca.crt, 1, &vp));

	/* The key block was decoded after the intermediate, then wiped. */
	used = (size_t)(self->certs[1].raw.p + self->certs[1].raw.len -
			self->der);
	for (i = used; i < sizeof(self->der) && !self->der[i]; i++)
		;
	EXPECT_EQ(sizeof(self->der), i) TH_LOG("byte %zu left behind", i);
}

TEST_F(chain, errors)
{
	char *p;

	/* Room for one certificate only. */
	EXPECT_EQ(-ENOBUFS, tlsx_x509_chain_load(self->pem, self->pem_len,
						 self->der, sizeof(self->der),
						 self->certs, 1, &self->n));
	/* A buffer too small for the two. */
	EXPECT_EQ(-ENOSPC, tlsx_x509_chain_load(self->pem, self->pem_len,
						self->der, 600, self->certs,
						MAX_CERTS, &self->n));
	/* No certificate at all. */
	EXPECT_EQ(-ENOENT, tlsx_x509_chain_load("just text\n", 10, self->der,
						sizeof(self->der),
						self->certs, MAX_CERTS,
						&self->n));
	EXPECT_EQ(0, self->n);

	/* A bad base64 character in the intermediate's block. */
	p = strstr(self->pem, "int:");
	ASSERT_NE(NULL, p);
	p = strstr(p, "-----\n");
	ASSERT_NE(NULL, p);
	p[10] = '*';
	EXPECT_EQ(-EBADMSG, tlsx_x509_chain_load(self->pem, self->pem_len,
						 self->der, sizeof(self->der),
						 self->certs, MAX_CERTS,
						 &self->n));
	EXPECT_EQ(1, self->n);
}

TEST_F(chain, bad_certificate_named_by_index)
{
	char *p;

	/* Valid base64 of a certificate whose DER is cut short. */
	ASSERT_EQ(0, x509_test_sh("{ cat p256-leaf.pem; openssl x509 -in p256-int.pem -outform DER | head -c 300 | openssl base64 | sed '1i -----BEGIN CERTIFICATE-----' | sed '$a -----END CERTIFICATE-----'; } > bad.pem"));
	self->pem_len = x509_test_read("bad.pem", self->pem,
				       sizeof(self->pem));
	p = strstr(self->pem, "-----END CERTIFICATE-----");
	ASSERT_NE(NULL, p);
	EXPECT_EQ(-EBADMSG, tlsx_x509_chain_load(self->pem, self->pem_len,
						 self->der, sizeof(self->der),
						 self->certs, MAX_CERTS,
						 &self->n));
	EXPECT_EQ(1, self->n);
	EXPECT_NE(NULL, self->certs[1].error);
}

TEST_HARNESS_MAIN
