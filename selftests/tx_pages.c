// SPDX-License-Identifier: GPL-2.0
/*
 * tx_pages.c - the per-CPU rings of record pages (kmod/tx_pages.c): a
 * bulk sender fills them, memory reclaim empties them (they are a cache,
 * behind a shrinker), and sending goes on afterwards.  tlsx only; the
 * count of pages held is read from /sys/kernel/debug/tlsx/tx_pages.
 */
#include <fcntl.h>
#include <pthread.h>

#include "tlsx_test.h"
#include "tlsx_rec.h"
#include "kselftest_harness.h"

#define DBG_TX_PAGES	"/sys/kernel/debug/tlsx/tx_pages"
#define BULK		(4 << 20)
#define CHUNK		16384

static long long tx_pages_held(void)
{
	char buf[32] = "";
	int fd = open(DBG_TX_PAGES, O_RDONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? strtoll(buf, NULL, 10) : -1;
}

/* What every shrinker is asked for by "echo 2 > drop_caches". */
static int reclaim(void)
{
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY);
	int ok;

	if (fd < 0)
		return -errno;
	ok = write(fd, "2", 1) == 1;
	close(fd);
	return ok ? 0 : -EIO;
}

/* Read and discard @arg's socket until end of stream; count bytes. */
static void *drain(void *arg)
{
	int fd = *(int *)arg;
	static char buf[65536];
	long long total = 0;
	ssize_t n;

	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	return (void *)(intptr_t)total;
}

FIXTURE(tx_pages)
{
	int fd, peer;
	pthread_t reader;
	bool joined;
	char *text;
};

FIXTURE_SETUP(tx_pages)
{
	struct rec_info ri;

	if (!ulp_available("tlsx"))
		SKIP(return, "tlsx is not loaded");
	/* Not a skip: the test build (make module-test) has the file. */
	ASSERT_LE(0, tx_pages_held()) {
		TH_LOG("%s missing: tlsx.ko built without TLSX_TEST_HOOKS=y (make module-test), or debugfs not mounted?",
		       DBG_TX_PAGES);
	}
	ASSERT_EQ(0, tcp_pair(&self->fd, &self->peer));
	ASSERT_EQ(0, setsockopt(self->fd, IPPROTO_TCP, TCP_ULP, "tlsx", 4));
	rec_info_init(&ri, TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128, 1);
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_TX, &ri, ri.len));
	self->text = calloc(1, CHUNK);
	ASSERT_NE(NULL, self->text);
	ASSERT_EQ(0, pthread_create(&self->reader, NULL, drain, &self->peer));
}

FIXTURE_TEARDOWN(tx_pages)
{
	void *got;

	if (!self->text)
		return;
	close(self->fd);
	if (!self->joined)
		pthread_join(self->reader, &got);
	close(self->peer);
	free(self->text);
}

static void send_bulk(struct __test_metadata *_metadata, int fd,
		      const char *text)
{
	size_t off;

	for (off = 0; off < BULK; off += CHUNK)
		ASSERT_EQ(CHUNK, send(fd, text, CHUNK, 0));
}

TEST_F(tx_pages, reclaim_empties_the_rings)
{
	void *got;

	send_bulk(_metadata, self->fd, self->text);
	EXPECT_GT(tx_pages_held(), 0);

	ASSERT_EQ(0, reclaim());
	EXPECT_EQ(0, tx_pages_held());

	/* The rings fill again, and every record goes out whole. */
	send_bulk(_metadata, self->fd, self->text);
	EXPECT_GT(tx_pages_held(), 0);
	ASSERT_EQ(0, shutdown(self->fd, SHUT_WR));
	pthread_join(self->reader, &got);
	self->joined = true;
	EXPECT_EQ(2 * BULK / CHUNK * (REC_HDR + CHUNK + 1 + REC_TAG),
		  (intptr_t)got);
}

TEST_HARNESS_MAIN
