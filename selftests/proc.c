// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - the statistics file: /proc/net/tlsx_stat for tlsx, compared
 * with /proc/net/tls_stat of the kernel's tls.  The counters move with
 * the sockets (current ones up on TLS_TX/TLS_RX, down on close; totals
 * only up), failed calls leave them alone, and each network namespace
 * has its own.
 *
 * Every test first moves into a network namespace of its own, so its
 * counts start at zero and nothing else running on the machine moves
 * them.  The rekey counters exist in tlsx (and kernels from 6.14), not
 * in kTLS 6.12: those tests are tlsx's only.
 */
#include <linux/tls.h>
#include <net/if.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>

#include "tlsx_test.h"
#include "kselftest_harness.h"

struct key {
	struct tls12_crypto_info_aes_gcm_128 ci;
};

static void key_init(struct key *k, unsigned short version)
{
	memset(k, 0, sizeof(*k));
	k->ci.info.version = version;
	k->ci.info.cipher_type = TLS_CIPHER_AES_GCM_128;
	memset(k->ci.key, 0x42, sizeof(k->ci.key));
	memset(k->ci.salt, 0x17, sizeof(k->ci.salt));
}

/* The value of counter @name in @file, or -1 if it is not listed. */
static long stat_get(const char *file, const char *name)
{
	char line[128], key[64];
	unsigned long v;
	long ret = -1;
	FILE *f = fopen(file, "r");

	if (!f)
		return -2;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %lu", key, &v) == 2 &&
		    !strcmp(key, name))
			ret = (long)v;
	fclose(f);
	return ret;
}

/* A fresh network namespace with its loopback up. */
static int new_netns(void)
{
	struct ifreq ifr = { 0 };
	int fd, err = 0;

	if (unshare(CLONE_NEWNET))
		return -errno;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0)
		err = -errno;
	ifr.ifr_flags |= IFF_UP;
	if (!err && ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
		err = -errno;
	close(fd);
	return err;
}

FIXTURE(proc)
{
	int cfd, sfd;
	struct key k;
};

FIXTURE_VARIANT(proc)
{
	const char *ulp;
	const char *file;
	int rekey_counters;
};

FIXTURE_VARIANT_ADD(proc, tlsx)
{
	.ulp = "tlsx",
	.file = "/proc/net/tlsx_stat",
	.rekey_counters = 1,
};

FIXTURE_VARIANT_ADD(proc, tls)
{
	.ulp = "tls",
	.file = "/proc/net/tls_stat",
};

static int ulp_pair(const char *ulp, int *c, int *s)
{
	if (tcp_pair(c, s))
		return -1;
	if (setsockopt(*c, IPPROTO_TCP, TCP_ULP, ulp, strlen(ulp)) ||
	    setsockopt(*s, IPPROTO_TCP, TCP_ULP, ulp, strlen(ulp)))
		return -1;
	return 0;
}

FIXTURE_SETUP(proc)
{
	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	ASSERT_EQ(0, new_netns());
	ASSERT_EQ(0, ulp_pair(variant->ulp, &self->cfd, &self->sfd));
	key_init(&self->k, TLS_1_3_VERSION);
}

FIXTURE_TEARDOWN(proc)
{
	close(self->cfd);
	close(self->sfd);
}

#define STAT(name) stat_get(variant->file, name)

static void expect_zero(struct __test_metadata *_metadata, const char *file,
			const char *name)
{
	long v = stat_get(file, name);

	if (v)
		TH_LOG("%s: %ld", name, v);
	EXPECT_EQ(0, v);
}

TEST_F(proc, names_and_zero_in_new_netns)
{
	static const char *const common[] = {
		"TlsCurrTxSw", "TlsCurrRxSw", "TlsTxSw", "TlsRxSw",
		"TlsDecryptError", "TlsRxNoPadViolation",
	};
	static const char *const tlsx_only[] = {
		"TlsTxRekeyOk", "TlsTxRekeyError", "TlsRxRekeyOk",
		"TlsRxRekeyError", "TlsRxRekeyReceived", "TlsxRxBadRecord",
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(common); i++)
		expect_zero(_metadata, variant->file, common[i]);
	if (!variant->rekey_counters)
		return;
	for (i = 0; i < ARRAY_SIZE(tlsx_only); i++)
		expect_zero(_metadata, variant->file, tlsx_only[i]);
}

TEST_F(proc, tx_up_on_set_down_on_close)
{
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->k,
				sizeof(self->k.ci)));
	EXPECT_EQ(1, STAT("TlsCurrTxSw"));
	EXPECT_EQ(1, STAT("TlsTxSw"));
	EXPECT_EQ(0, STAT("TlsCurrRxSw"));
	EXPECT_EQ(0, STAT("TlsRxSw"));
	close(self->cfd);
	self->cfd = -1;
	EXPECT_EQ(0, STAT("TlsCurrTxSw"));
	EXPECT_EQ(1, STAT("TlsTxSw"));
}

TEST_F(proc, rx_up_on_set_down_on_close)
{
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_TLS, TLS_RX, &self->k,
				sizeof(self->k.ci)));
	EXPECT_EQ(1, STAT("TlsCurrRxSw"));
	EXPECT_EQ(1, STAT("TlsRxSw"));
	EXPECT_EQ(0, STAT("TlsCurrTxSw"));
	close(self->sfd);
	self->sfd = -1;
	EXPECT_EQ(0, STAT("TlsCurrRxSw"));
	EXPECT_EQ(1, STAT("TlsRxSw"));
}

TEST_F(proc, failed_set_counts_nothing)
{
	self->k.ci.info.version = 0x0302;
	EXPECT_EQ(-1, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->k,
				 sizeof(self->k.ci)));
	EXPECT_EQ(-1, setsockopt(self->cfd, SOL_TLS, TLS_RX, &self->k,
				 sizeof(self->k.ci) - 1));
	EXPECT_EQ(0, STAT("TlsCurrTxSw"));
	EXPECT_EQ(0, STAT("TlsTxSw"));
	EXPECT_EQ(0, STAT("TlsCurrRxSw"));
	EXPECT_EQ(0, STAT("TlsRxSw"));
}

TEST_F(proc, many_sockets)
{
	enum { N = 16 };
	int c[N], s[N], i;

	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, ulp_pair(variant->ulp, &c[i], &s[i]));
		ASSERT_EQ(0, setsockopt(c[i], SOL_TLS, TLS_TX, &self->k,
					sizeof(self->k.ci)));
		ASSERT_EQ(0, setsockopt(c[i], SOL_TLS, TLS_RX, &self->k,
					sizeof(self->k.ci)));
	}
	EXPECT_EQ(N, STAT("TlsCurrTxSw"));
	EXPECT_EQ(N, STAT("TlsCurrRxSw"));
	for (i = 0; i < N; i++) {
		close(c[i]);
		close(s[i]);
	}
	EXPECT_EQ(0, STAT("TlsCurrTxSw"));
	EXPECT_EQ(0, STAT("TlsCurrRxSw"));
	EXPECT_EQ(N, STAT("TlsTxSw"));
	EXPECT_EQ(N, STAT("TlsRxSw"));
}

/* A child in another namespace sees its own counts, and moves only them. */
TEST_F(proc, per_netns)
{
	int status, c2p[2], p2c[2];
	char r = 0;
	pid_t pid;

	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->k,
				sizeof(self->k.ci)));
	ASSERT_EQ(1, STAT("TlsCurrTxSw"));
	ASSERT_EQ(0, pipe(c2p));
	ASSERT_EQ(0, pipe(p2c));
	pid = fork();
	ASSERT_GE(pid, 0);
	if (!pid) {
		int c, s, bad = 0;

		close(c2p[0]);
		close(p2c[1]);
		if (new_netns())
			_exit(100);
		bad |= STAT("TlsCurrTxSw") != 0;
		bad |= STAT("TlsTxSw") != 0;
		if (ulp_pair(variant->ulp, &c, &s))
			_exit(101);
		if (setsockopt(c, SOL_TLS, TLS_TX, &self->k,
			       sizeof(self->k.ci)) ||
		    setsockopt(s, SOL_TLS, TLS_TX, &self->k,
			       sizeof(self->k.ci)))
			_exit(102);
		bad |= (STAT("TlsCurrTxSw") != 2) << 1;
		/* Hold the sockets while the parent looks at its own. */
		if (write(c2p[1], "x", 1) != 1 || read(p2c[0], &r, 1) != 1)
			_exit(103);
		close(c);
		close(s);
		bad |= (STAT("TlsCurrTxSw") != 0) << 2;
		bad |= (STAT("TlsTxSw") != 2) << 3;
		_exit(bad);
	}
	close(c2p[1]);
	close(p2c[0]);
	/* 0 bytes: the child died early; its status says where. */
	if (read(c2p[0], &r, 1) == 1) {
		EXPECT_EQ(1, STAT("TlsCurrTxSw"));
		EXPECT_EQ(1, STAT("TlsTxSw"));
		ASSERT_EQ(1, write(p2c[1], "y", 1));
	}
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	ASSERT_TRUE(WIFEXITED(status));
	EXPECT_EQ(0, WEXITSTATUS(status));
	EXPECT_EQ(1, STAT("TlsCurrTxSw"));
	EXPECT_EQ(1, STAT("TlsTxSw"));
	close(c2p[0]);
	close(p2c[1]);
}

/* A record that fails authentication is counted as a decrypt error. */
TEST_F(proc, decrypt_error_counted)
{
	unsigned char rec[5 + 32 + 16];
	char buf[64];
	int plain_c, plain_s;

	/* Raw bytes from a peer with no TLS: a well-formed, forged record. */
	ASSERT_EQ(0, tcp_pair(&plain_c, &plain_s));
	ASSERT_EQ(0, setsockopt(plain_s, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	ASSERT_EQ(0, setsockopt(plain_s, SOL_TLS, TLS_RX, &self->k,
				sizeof(self->k.ci)));
	memset(rec, 0x5a, sizeof(rec));
	rec[0] = 23;
	rec[1] = 3;
	rec[2] = 3;
	rec[3] = 0;
	rec[4] = sizeof(rec) - 5;
	ASSERT_EQ(sizeof(rec), send(plain_c, rec, sizeof(rec), 0));
	EXPECT_EQ(-1, recv(plain_s, buf, sizeof(buf), 0));
	EXPECT_EQ(EBADMSG, errno);
	EXPECT_EQ(1, STAT("TlsDecryptError"));
	close(plain_c);
	close(plain_s);
}

TEST_F(proc, rekey_counters)
{
	struct key k12;
	int c, s;

	if (!variant->rekey_counters)
		SKIP(return, "kTLS 6.12 has no rekey counters");
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->k,
				sizeof(self->k.ci)));
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_RX, &self->k,
				sizeof(self->k.ci)));
	self->k.ci.key[0] ^= 1;
	EXPECT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->k,
				sizeof(self->k.ci)));
	EXPECT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_RX, &self->k,
				sizeof(self->k.ci)));
	EXPECT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_RX, &self->k,
				sizeof(self->k.ci)));
	EXPECT_EQ(1, STAT("TlsTxRekeyOk"));
	EXPECT_EQ(2, STAT("TlsRxRekeyOk"));
	EXPECT_EQ(0, STAT("TlsTxRekeyError"));
	EXPECT_EQ(0, STAT("TlsRxRekeyError"));
	/* A rekey is not a new socket. */
	EXPECT_EQ(1, STAT("TlsTxSw"));
	EXPECT_EQ(1, STAT("TlsCurrRxSw"));

	/* Refused updates: another version; TLS 1.2 at all (EBUSY). */
	self->k.ci.info.version = TLS_1_2_VERSION;
	EXPECT_EQ(-1, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->k,
				 sizeof(self->k.ci)));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(1, STAT("TlsTxRekeyError"));
	ASSERT_EQ(0, ulp_pair(variant->ulp, &c, &s));
	key_init(&k12, TLS_1_2_VERSION);
	ASSERT_EQ(0, setsockopt(c, SOL_TLS, TLS_RX, &k12, sizeof(k12.ci)));
	EXPECT_EQ(-1, setsockopt(c, SOL_TLS, TLS_RX, &k12, sizeof(k12.ci)));
	EXPECT_EQ(EBUSY, errno);
	EXPECT_EQ(1, STAT("TlsRxRekeyError"));
	EXPECT_EQ(1, STAT("TlsTxRekeyOk"));
	close(c);
	close(s);
}

TEST_HARNESS_MAIN
