// SPDX-License-Identifier: GPL-2.0
/*
 * close.c - what close() and shutdown() do with what TX still holds, and
 * that a socket with records in flight either way closes cleanly.
 *
 * A record left open by MSG_MORE: tlsx seals and sends it on close and
 * before the FIN of shutdown(SHUT_WR), so what the user sent reaches the
 * peer; kTLS 6.12 drops it (the peer sees only the end of the stream).
 * Each ULP is held to its own answer.
 */
#include <linux/tls.h>
#include <poll.h>
#include <stdlib.h>

#include "tlsx_test.h"
#include "kselftest_harness.h"

FIXTURE(close)
{
	int cfd, sfd;
};

FIXTURE_VARIANT(close)
{
	const char *ulp;
	unsigned short version;
};

FIXTURE_VARIANT_ADD(close, tlsx_12)
{
	.ulp = "tlsx", .version = TLS_1_2_VERSION,
};

FIXTURE_VARIANT_ADD(close, tlsx_13)
{
	.ulp = "tlsx", .version = TLS_1_3_VERSION,
};

FIXTURE_VARIANT_ADD(close, tls_12)
{
	.ulp = "tls", .version = TLS_1_2_VERSION,
};

FIXTURE_VARIANT_ADD(close, tls_13)
{
	.ulp = "tls", .version = TLS_1_3_VERSION,
};

/*
 * A pair (segments of at most @mss bytes if not 0), both ends keyed.
 * The harness's structs are named as it names them.
 */
static void close_pair(struct __test_metadata *_metadata,
		       struct _test_data_close *self,
		       const struct _fixture_variant_close *variant, int mss)
{
	struct tls12_crypto_info_aes_gcm_256 ci;

	memset(&ci, 0x33, sizeof(ci));
	ci.info.version = variant->version;
	ci.info.cipher_type = TLS_CIPHER_AES_GCM_256;
	ASSERT_EQ(0, tcp_pair_mss(&self->cfd, &self->sfd, mss));
	ASSERT_EQ(0, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	ASSERT_EQ(0, setsockopt(self->sfd, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &ci, sizeof(ci)));
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_RX, &ci, sizeof(ci)));
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_TLS, TLS_TX, &ci, sizeof(ci)));
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_TLS, TLS_RX, &ci, sizeof(ci)));
}

FIXTURE_SETUP(close)
{
	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	close_pair(_metadata, self, variant, 0);
}

FIXTURE_TEARDOWN(close)
{
	close(self->cfd);
	close(self->sfd);
}

static int is_ktls(const char *ulp)
{
	return !strcmp(ulp, "tls");
}

/* Read until the end of the stream (or 5 s): the bytes, or -errno. */
static int read_to_eof(int fd, char *buf, int size)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int n = 0, r;

	for (;;) {
		if (poll(&pfd, 1, 5000) != 1)
			return -ETIMEDOUT;
		r = recv(fd, buf + n, size - n, 0);
		if (r < 0)
			return -errno;
		if (r == 0)
			return n;
		n += r;
		if (n == size)
			return n;
	}
}

TEST_F(close, close_sends_open_record)
{
	char buf[64];
	int n;

	ASSERT_EQ(5, send(self->cfd, "hello", 5, 0));
	ASSERT_EQ(6, send(self->cfd, " world", 6, MSG_MORE));
	close(self->cfd);
	self->cfd = -1;
	n = read_to_eof(self->sfd, buf, sizeof(buf));
	if (is_ktls(variant->ulp)) {
		EXPECT_EQ(5, n);
	} else {
		ASSERT_EQ(11, n);
		EXPECT_EQ(0, memcmp(buf, "hello world", 11));
	}
}

TEST_F(close, shutdown_wr_sends_open_record)
{
	char buf[64];
	int n;

	ASSERT_EQ(3, send(self->cfd, "abc", 3, MSG_MORE));
	ASSERT_EQ(0, shutdown(self->cfd, SHUT_WR));
	n = read_to_eof(self->sfd, buf, sizeof(buf));
	if (is_ktls(variant->ulp)) {
		EXPECT_EQ(0, n);
	} else {
		ASSERT_EQ(3, n);
		EXPECT_EQ(0, memcmp(buf, "abc", 3));
	}
	/*
	 * No more sending (kTLS 6.12 takes the byte into a record that never
	 * goes: tlsx says what TCP says); receiving still works.
	 */
	if (!is_ktls(variant->ulp)) {
		EXPECT_EQ(-1, send(self->cfd, "x", 1, MSG_NOSIGNAL));
		EXPECT_EQ(EPIPE, errno);
	}
	ASSERT_EQ(4, send(self->sfd, "back", 4, 0));
	ASSERT_EQ(4, recv(self->cfd, buf, sizeof(buf), 0));
	EXPECT_EQ(0, memcmp(buf, "back", 4));
}

/*
 * Non-blocking sends until TCP is full and the peer's window shut: send()
 * counts a record as sent once sealed, even if TCP took only part of it.  shutdown(SHUT_WR) must
 * not block, and every byte counted must reach the peer before the end
 * of the stream, as with TCP.  kTLS 6.12 sends the FIN first and fails
 * the rest with EPIPE: tlsx only.
 */
#define SHUT_MAX	(8 << 20)

static unsigned char shut_byte(size_t i)
{
	return (unsigned char)(i * 7 + i / 4093);
}

TEST_F(close, shutdown_wr_after_full_nonblocking_sends)
{
	int small = 64 << 10, stalled = 0, n, got;
	unsigned char *out, *in;
	size_t sent = 0, i;
	ssize_t r;

	if (is_ktls(variant->ulp))
		SKIP(return, "kTLS 6.12 lets the FIN overtake queued records");
	/* Small segments: TCP takes a record in pieces. */
	close(self->cfd);
	close(self->sfd);
	close_pair(_metadata, self, variant, 1000);
	out = malloc(SHUT_MAX);
	in = malloc(SHUT_MAX + 1);
	ASSERT_NE(NULL, out);
	ASSERT_NE(NULL, in);
	for (i = 0; i < SHUT_MAX; i++)
		out[i] = shut_byte(i);
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_SOCKET, SO_SNDBUF, &small,
				sizeof(small)));
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_SOCKET, SO_RCVBUF, &small,
				sizeof(small)));
	/* Until the peer's window is shut too: 200 ms without progress. */
	while (sent < SHUT_MAX - 16384 && stalled < 20) {
		r = send(self->cfd, out + sent, 16384, MSG_DONTWAIT);
		if (r < 0) {
			ASSERT_EQ(EAGAIN, errno);
			stalled++;
			usleep(10000);
			continue;
		}
		stalled = 0;
		sent += r;
	}
	ASSERT_GT(sent, 0);
	ASSERT_EQ(0, shutdown(self->cfd, SHUT_WR));
	/* No more sending, as after TCP's shutdown. */
	EXPECT_EQ(-1, send(self->cfd, "x", 1, MSG_NOSIGNAL | MSG_DONTWAIT));
	EXPECT_EQ(EPIPE, errno);
	got = read_to_eof(self->sfd, (char *)in, SHUT_MAX + 1);
	ASSERT_EQ((int)sent, got);
	for (n = 0; n < got && in[n] == out[n]; n++)
		;
	EXPECT_EQ(got, n);
	/* The other direction still works. */
	ASSERT_EQ(4, send(self->sfd, "back", 4, 0));
	ASSERT_EQ(4, recv(self->cfd, in, 16, 0));
	free(out);
	free(in);
}

TEST_F(close, shutdown_rd_keeps_tx)
{
	char buf[8];

	ASSERT_EQ(0, shutdown(self->cfd, SHUT_RD));
	ASSERT_EQ(4, send(self->cfd, "ping", 4, 0));
	ASSERT_EQ(4, recv(self->sfd, buf, sizeof(buf), 0));
	EXPECT_EQ(0, memcmp(buf, "ping", 4));
}

TEST_F(close, shutdown_bad_how_einval)
{
	EXPECT_EQ(-1, shutdown(self->cfd, 7));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, shutdown(self->cfd, -1));
	EXPECT_EQ(EINVAL, errno);
}

/* Unread records on both sides, partial reads: close frees them. */
TEST_F(close, close_with_records_queued)
{
	static char big[100000];
	char buf[10];
	int i;

	/* Until the buffers are full: some records wait in TX. */
	memset(big, 'z', sizeof(big));
	ASSERT_EQ(sizeof(big), send(self->cfd, big, sizeof(big), 0));
	for (i = 0; i < 64; i++)
		if (send(self->cfd, big, sizeof(big), MSG_DONTWAIT) < 0)
			break;
	ASSERT_EQ(10, recv(self->sfd, buf, sizeof(buf), 0));
	ASSERT_EQ(3, send(self->sfd, "end", 3, 0));
	close(self->sfd);
	self->sfd = -1;
	close(self->cfd);
	self->cfd = -1;
}

TEST_HARNESS_MAIN
