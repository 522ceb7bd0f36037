// SPDX-License-Identifier: GPL-2.0
/*
 * dropin.c - drop-in mode: tlsx.ko loaded with ulp_name=tls registers its
 * ULP as "tls", so programs written for kTLS get tlsx unchanged; refused
 * (EEXIST) while the kernel's tls module is loaded; any other name is
 * refused (EINVAL).
 *
 * These tests unload and load modules: each puts back what it found (tlsx
 * under its own name, the kernel's tls if it was loaded) in its teardown.
 */
#include <linux/tls.h>
#include <stdlib.h>

#include "tlsx_test.h"
#include "tlsx_modules.h"
#include "kselftest_harness.h"

static long stat_get(const char *name)
{
	char line[128], key[64];
	unsigned long v;
	long ret = -1;
	FILE *f = fopen("/proc/net/tlsx_stat", "r");

	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lu", key, &v) == 2 &&
		    !strcmp(key, name))
			ret = (long)v;
	fclose(f);
	return ret;
}

FIXTURE(dropin)
{
	int had_tls;
};

FIXTURE_SETUP(dropin)
{
	self->had_tls = module_loaded("tls");
	ASSERT_EQ(0, unload("tlsx"));
}

/* Back to the usual state: tlsx as "tlsx", the kernel's tls as found. */
FIXTURE_TEARDOWN(dropin)
{
	unload("tlsx");
	if (self->had_tls && !module_loaded("tls"))
		load_with_modprobe("tls");
	else if (!self->had_tls && module_loaded("tls"))
		unload("tls");
	load_tlsx("");
}

TEST_F(dropin, refused_while_ktls_is_loaded)
{
	if (!module_loaded("tls") && load_with_modprobe("tls"))
		SKIP(return, "the kernel's tls module is not available");
	EXPECT_EQ(-EEXIST, load_tlsx("ulp_name=tls"));
	EXPECT_FALSE(module_loaded("tlsx"));
}

TEST_F(dropin, other_names_refused)
{
	EXPECT_EQ(-EINVAL, load_tlsx("ulp_name=foo"));
	/* Longer than a ULP name: the parameter itself is refused. */
	EXPECT_NE(0, load_tlsx("ulp_name=tlsxtlsxtlsxtlsxtlsx"));
	EXPECT_FALSE(module_loaded("tlsx"));
}

/* With kTLS unloaded, "tls" is tlsx: keys, data and counters are ours. */
TEST_F(dropin, registers_as_tls)
{
	struct tls12_crypto_info_aes_gcm_128 ci;
	char buf[16];
	int c = -1, s = -1;

	ASSERT_EQ(0, unload("tls")) {
		TH_LOG("the kernel's tls module is in use");
	}
	ASSERT_EQ(0, load_tlsx("ulp_name=tls"));
	EXPECT_TRUE(ulp_available("tls"));
	EXPECT_FALSE(ulp_available("tlsx"));

	memset(&ci, 0x5c, sizeof(ci));
	ci.info.version = TLS_1_3_VERSION;
	ci.info.cipher_type = TLS_CIPHER_AES_GCM_128;
	ASSERT_EQ(0, tcp_pair(&c, &s));
	ASSERT_EQ(0, setsockopt(c, IPPROTO_TCP, TCP_ULP, "tls", 3));
	ASSERT_EQ(0, setsockopt(s, IPPROTO_TCP, TCP_ULP, "tls", 3));
	ASSERT_EQ(0, setsockopt(c, SOL_TLS, TLS_TX, &ci, sizeof(ci)));
	ASSERT_EQ(0, setsockopt(s, SOL_TLS, TLS_RX, &ci, sizeof(ci)));
	/* tlsx's counters moved: the sockets are tlsx's. */
	EXPECT_LE(1, stat_get("TlsCurrTxSw"));
	EXPECT_LE(1, stat_get("TlsCurrRxSw"));
	/* tlsx's rekey, which kTLS 6.12 refuses with EBUSY. */
	EXPECT_EQ(0, setsockopt(c, SOL_TLS, TLS_TX, &ci, sizeof(ci)));
	ASSERT_EQ(6, send(c, "dropin", 6, 0));
	ASSERT_EQ(6, recv(s, buf, sizeof(buf), 0));
	EXPECT_EQ(0, memcmp(buf, "dropin", 6));
	close(c);
	close(s);
	EXPECT_EQ(0, unload("tlsx"));
}

TEST_HARNESS_MAIN
