// SPDX-License-Identifier: GPL-2.0
/*
 * uring.c - io_uring on TLS sockets: IORING_OP_SEND, RECV, SENDMSG,
 * RECVMSG and SPLICE behave on tlsx as on the kernel's tls, for TLS 1.2
 * and 1.3 and the three ciphers.  A receive queued before any data
 * arrives is completed by the socket's wakeup (io_uring's poll-driven
 * retry), which checks the ULP's poll and data-ready callbacks.
 */
#include <fcntl.h>
#include <liburing.h>
#include <sys/stat.h>

#include "tlsx_test.h"
#include "tlsx_rec.h"
#include "kselftest_harness.h"

FIXTURE(uring)
{
	int tx;			/* TLS_TX (and RX) */
	int rx;			/* TLS_RX (and TX) */
	struct io_uring ring;
	long long rx0, tx0;
	long ref0;
};

FIXTURE_VARIANT(uring)
{
	const char *ulp;
	unsigned short version;
	unsigned short cipher;
};

FIXTURE_VARIANT_ADD(uring, tlsx_12_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(uring, tlsx_13_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(uring, tlsx_12_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(uring, tlsx_13_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(uring, tlsx_12_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(uring, tlsx_12_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(uring, tlsx_13_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(uring, tlsx_13_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(uring, tls_12_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(uring, tls_13_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(uring, tls_12_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(uring, tls_13_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(uring, tls_12_chacha)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(uring, tls_12_ccm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(uring, tls_13_chacha)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(uring, tls_13_ccm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

static int set_keys(int fd, const char *ulp, unsigned short version,
		    unsigned short cipher, unsigned int tx_seed,
		    unsigned int rx_seed)
{
	struct rec_info tx, rx;

	rec_info_init(&tx, version, cipher, tx_seed);
	rec_info_init(&rx, version, cipher, rx_seed);
	if (setsockopt(fd, IPPROTO_TCP, TCP_ULP, ulp, strlen(ulp)) ||
	    setsockopt(fd, SOL_TLS, TLS_TX, &tx, tx.len) ||
	    setsockopt(fd, SOL_TLS, TLS_RX, &rx, rx.len))
		return -errno;
	return 0;
}

FIXTURE_SETUP(uring)
{
	ASSERT_TRUE(ulp_available(variant->ulp));
	self->rx0 = ulp_stat(variant->ulp, "TlsCurrRxSw");
	self->tx0 = ulp_stat(variant->ulp, "TlsCurrTxSw");
	self->ref0 = module_refcnt(variant->ulp);
	ASSERT_EQ(0, tcp_pair(&self->tx, &self->rx));
	ASSERT_EQ(0, set_keys(self->tx, variant->ulp, variant->version,
			      variant->cipher, 1, 2));
	ASSERT_EQ(0, set_keys(self->rx, variant->ulp, variant->version,
			      variant->cipher, 2, 1));
	ASSERT_EQ(0, io_uring_queue_init(16, &self->ring, 0));
}

FIXTURE_TEARDOWN(uring)
{
	io_uring_queue_exit(&self->ring);
	close(self->tx);
	close(self->rx);
	EXPECT_TRUE(ulp_settle(variant->ulp, self->rx0, self->tx0,
			       self->ref0));
}

/* Submit what is queued and wait up to 10 s for the next completion. */
static int complete(struct io_uring *ring, __u64 *data)
{
	struct __kernel_timespec ts = { .tv_sec = 10 };
	struct io_uring_cqe *cqe;
	int ret;

	io_uring_submit(ring);
	ret = io_uring_wait_cqe_timeout(ring, &cqe, &ts);
	if (ret)
		return ret == -ETIME ? -ETIME - 1000 : ret - 1000;
	ret = cqe->res;
	if (data)
		*data = cqe->user_data;
	io_uring_cqe_seen(ring, cqe);
	return ret;
}

static void pattern(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)(seed + i * 131 + (i >> 9));
}

TEST_F(uring, send_recv)
{
	unsigned char out[3000], in[4000];
	struct io_uring_sqe *sqe;

	pattern(out, sizeof(out), 1);
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_send(sqe, self->tx, out, sizeof(out), 0);
	ASSERT_EQ((int)sizeof(out), complete(&self->ring, NULL));
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_recv(sqe, self->rx, in, sizeof(in), 0);
	ASSERT_EQ((int)sizeof(out), complete(&self->ring, NULL));
	EXPECT_EQ(0, memcmp(out, in, sizeof(out)));
}

/* Several records' worth in one SEND; RECV with MSG_WAITALL gets it all. */
TEST_F(uring, large_send_recv_waitall)
{
	size_t len = 5 * 16384 + 77;
	unsigned char *out = malloc(len), *in = malloc(len);
	struct io_uring_sqe *sqe;
	__u64 d1 = 0, d2 = 0;
	int r1, r2;

	ASSERT_TRUE(out && in);
	pattern(out, len, 2);
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_recv(sqe, self->rx, in, len, MSG_WAITALL);
	sqe->user_data = 1;
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_send(sqe, self->tx, out, len, 0);
	sqe->user_data = 2;
	r1 = complete(&self->ring, &d1);
	r2 = complete(&self->ring, &d2);
	EXPECT_EQ((int)len, r1);
	EXPECT_EQ((int)len, r2);
	EXPECT_EQ(3, d1 + d2);
	EXPECT_EQ(0, memcmp(out, in, len));
	free(out);
	free(in);
}

/* A RECV queued first completes when the record arrives later. */
TEST_F(uring, recv_before_data)
{
	unsigned char in[100];
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;

	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_recv(sqe, self->rx, in, sizeof(in), 0);
	ASSERT_EQ(1, io_uring_submit(&self->ring));
	usleep(200000);
	/* Nothing yet, and a partial record must not complete it. */
	EXPECT_EQ(-EAGAIN, io_uring_peek_cqe(&self->ring, &cqe));
	ASSERT_EQ(11, send(self->tx, "late record", 11, 0));
	EXPECT_EQ(11, complete(&self->ring, NULL));
	EXPECT_EQ(0, memcmp(in, "late record", 11));
}

static void typed_msg(struct msghdr *msg, struct iovec *iov, void *cbuf,
		      size_t clen, void *buf, size_t len)
{
	memset(msg, 0, sizeof(*msg));
	iov->iov_base = buf;
	iov->iov_len = len;
	msg->msg_iov = iov;
	msg->msg_iovlen = 1;
	msg->msg_control = cbuf;
	msg->msg_controllen = clen;
}

/* SENDMSG with TLS_SET_RECORD_TYPE; RECVMSG reports the type. */
TEST_F(uring, sendmsg_recvmsg_record_type)
{
	char cout[CMSG_SPACE(1)] = { 0 }, cin[CMSG_SPACE(1)];
	unsigned char alert[2] = { 1, 0 }, in[64];
	struct io_uring_sqe *sqe;
	struct cmsghdr *cmsg;
	struct msghdr msg;
	struct iovec iov;

	typed_msg(&msg, &iov, cout, sizeof(cout), alert, sizeof(alert));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_TLS;
	cmsg->cmsg_type = TLS_SET_RECORD_TYPE;
	cmsg->cmsg_len = CMSG_LEN(1);
	*CMSG_DATA(cmsg) = REC_TYPE_ALERT;
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_sendmsg(sqe, self->tx, &msg, 0);
	ASSERT_EQ(2, complete(&self->ring, NULL));
	ASSERT_EQ(4, send(self->tx, "data", 4, 0));

	typed_msg(&msg, &iov, cin, sizeof(cin), in, sizeof(in));
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_recvmsg(sqe, self->rx, &msg, 0);
	ASSERT_EQ(2, complete(&self->ring, NULL));
	cmsg = CMSG_FIRSTHDR(&msg);
	ASSERT_NE(NULL, cmsg);
	EXPECT_EQ(SOL_TLS, cmsg->cmsg_level);
	EXPECT_EQ(TLS_GET_RECORD_TYPE, cmsg->cmsg_type);
	EXPECT_EQ(REC_TYPE_ALERT, *CMSG_DATA(cmsg));
	EXPECT_EQ(0, memcmp(in, alert, 2));

	/* The data record after it is not merged with it. */
	typed_msg(&msg, &iov, cin, sizeof(cin), in, sizeof(in));
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_recvmsg(sqe, self->rx, &msg, 0);
	ASSERT_EQ(4, complete(&self->ring, NULL));
	cmsg = CMSG_FIRSTHDR(&msg);
	ASSERT_NE(NULL, cmsg);
	EXPECT_EQ(REC_TYPE_DATA, *CMSG_DATA(cmsg));
	EXPECT_EQ(0, memcmp(in, "data", 4));
}

/* A control record read with no room for its type: -EIO, as recvmsg. */
TEST_F(uring, recvmsg_control_without_cmsg)
{
	char cout[CMSG_SPACE(1)] = { 0 };
	unsigned char alert[2] = { 2, 10 }, in[64];
	struct io_uring_sqe *sqe;
	struct cmsghdr *cmsg;
	struct msghdr msg;
	struct iovec iov;

	typed_msg(&msg, &iov, cout, sizeof(cout), alert, sizeof(alert));
	cmsg = CMSG_FIRSTHDR(&msg);
	cmsg->cmsg_level = SOL_TLS;
	cmsg->cmsg_type = TLS_SET_RECORD_TYPE;
	cmsg->cmsg_len = CMSG_LEN(1);
	*CMSG_DATA(cmsg) = REC_TYPE_ALERT;
	ASSERT_EQ(2, sendmsg(self->tx, &msg, 0));

	typed_msg(&msg, &iov, NULL, 0, in, sizeof(in));
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_recvmsg(sqe, self->rx, &msg, 0);
	EXPECT_EQ(-EIO, complete(&self->ring, NULL));
}

/*
 * SPLICE both ways: a file's pages through a pipe into the TLS socket
 * (encrypted from the page cache), and the socket's decrypted data
 * into a pipe (splice_read).
 */
TEST_F(uring, splice_file_to_socket_to_pipe)
{
	size_t len = 3 * 16384 + 1000, got;
	unsigned char *out = malloc(len), *in = malloc(len);
	char path[] = "/tmp/uring-splice-XXXXXX";
	struct io_uring_sqe *sqe;
	int file, p1[2], p2[2], r;

	ASSERT_TRUE(out && in);
	pattern(out, len, 3);
	file = mkstemp(path);
	ASSERT_GE(file, 0);
	unlink(path);
	ASSERT_EQ((ssize_t)len, write(file, out, len));
	ASSERT_EQ(0, pipe(p1));
	ASSERT_EQ(0, pipe(p2));
	ASSERT_GE(fcntl(p1[0], F_SETPIPE_SZ, 1 << 20), (int)len);
	ASSERT_GE(fcntl(p2[0], F_SETPIPE_SZ, 1 << 20), (int)len);

	/* file -> pipe -> TLS socket */
	sqe = io_uring_get_sqe(&self->ring);
	io_uring_prep_splice(sqe, file, 0, p1[1], -1, len, 0);
	ASSERT_EQ((int)len, complete(&self->ring, NULL));
	for (got = 0; got < len; got += r) {
		sqe = io_uring_get_sqe(&self->ring);
		io_uring_prep_splice(sqe, p1[0], -1, self->tx, -1,
				     len - got, 0);
		r = complete(&self->ring, NULL);
		ASSERT_GT(r, 0);
	}

	/* TLS socket -> pipe -> memory */
	for (got = 0; got < len; got += r) {
		sqe = io_uring_get_sqe(&self->ring);
		io_uring_prep_splice(sqe, self->rx, -1, p2[1], -1,
				     len - got, 0);
		r = complete(&self->ring, NULL);
		ASSERT_GT(r, 0) {
			TH_LOG("splice from the socket: %d after %zu", r, got);
		}
	}
	ASSERT_EQ((ssize_t)len, read(p2[0], in, len));
	EXPECT_EQ(0, memcmp(out, in, len));
	close(file);
	close(p1[0]);
	close(p1[1]);
	close(p2[0]);
	close(p2[1]);
	free(out);
	free(in);
}

/* Many SEND/RECV pairs in flight at once, completed in any order. */
TEST_F(uring, many_in_flight)
{
	enum { N = 8, LEN = 1500 };
	unsigned char out[N][LEN], in[N * LEN], *p = in;
	struct io_uring_sqe *sqe;
	int i, r, total = 0;

	for (i = 0; i < N; i++) {
		pattern(out[i], LEN, 10 + i);
		sqe = io_uring_get_sqe(&self->ring);
		io_uring_prep_send(sqe, self->tx, out[i], LEN, 0);
		/* In order on the socket: each send after the previous. */
		if (i < N - 1)
			sqe->flags |= IOSQE_IO_LINK;
	}
	io_uring_submit(&self->ring);
	for (i = 0; i < N; i++)
		EXPECT_EQ(LEN, complete(&self->ring, NULL));
	while (total < N * LEN) {
		sqe = io_uring_get_sqe(&self->ring);
		io_uring_prep_recv(sqe, self->rx, p, N * LEN - total, 0);
		r = complete(&self->ring, NULL);
		ASSERT_GT(r, 0);
		p += r;
		total += r;
	}
	EXPECT_EQ(0, memcmp(out, in, sizeof(in)));
}

TEST_HARNESS_MAIN
