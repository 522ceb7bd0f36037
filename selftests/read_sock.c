// SPDX-License-Identifier: GPL-2.0
/*
 * read_sock.c - proto_ops.read_sock of a TLS_RX socket, the entry point
 * of in-kernel readers such as nvme-tcp, reached through
 * /sys/kernel/debug/tlsx/read_sock (kmod/debugfs_read_sock.c): it calls
 * read_sock on our socket with the socket locked, as nvme-tcp does, with
 * an actor that copies what it is offered, at most a given number of
 * bytes per call.  A peer seals records in userspace (tlsx_rec.h).
 *
 * Decrypted data read whole and in pieces, read_sock and recvmsg taking
 * turns on one stream, control records (left for recvmsg), a record that
 * fails authentication, an empty data record, an actor that fails, and
 * nothing to read.  Variants: tlsx and the kernel's tls (whose
 * tls_sw_read_sock() sets the behaviour), TLS 1.2 and 1.3, three
 * ciphers; where kTLS 6.12 differs or lacks something, its variant skips,
 * and so do all of them on 6.1, whose tls has no read_sock.
 */
#include <fcntl.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <time.h>

#include "tlsx_test.h"
#include "tlsx_rec.h"
#include "../kmod/debugfs_read_sock_abi.h"
#include "kselftest_harness.h"

#define DBG_READ_SOCK	"/sys/kernel/debug/tlsx/read_sock"
#define WIRE_SIZE	(REC_MAX_WIRE * 4)

FIXTURE(read_sock)
{
	int peer;		/* plain TCP: writes sealed records */
	int fd;			/* TCP_ULP + TLS_RX: under test */
	struct rec_info ri;
	struct rec_key rk;
	unsigned char *wire;
};

FIXTURE_VARIANT(read_sock)
{
	const char *ulp;
	unsigned short version;
	unsigned short cipher;
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_2_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_3_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_2_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_3_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_2_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_2_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_3_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(read_sock, tlsx_3_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tls_2_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tls_3_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tls_2_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(read_sock, tls_3_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(read_sock, tls_2_chacha)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(read_sock, tls_2_ccm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(read_sock, tls_3_chacha)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(read_sock, tls_3_ccm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_SETUP(read_sock)
{
	struct timeval tv = { .tv_sec = 10 };
	int one = 1;

	if (old_ktls(variant->ulp, 6, 12))
		SKIP(return, "6.1's tls has no read_sock");
	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	ASSERT_EQ(0, access(DBG_READ_SOCK, W_OK)) {
		TH_LOG("%s missing: tlsx.ko not loaded, built without TLSX_TEST_HOOKS=y (make module-test), or debugfs not mounted?",
		       DBG_READ_SOCK);
	}
	ASSERT_EQ(0, tcp_pair(&self->peer, &self->fd));
	ASSERT_EQ(0, setsockopt(self->peer, IPPROTO_TCP, TCP_NODELAY, &one,
				sizeof(one)));
	ASSERT_EQ(0, setsockopt(self->fd, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	rec_info_init(&self->ri, variant->version, variant->cipher, 3);
	ASSERT_EQ(0, rec_key_init(&self->rk, &self->ri));
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX, &self->ri,
				self->ri.len));
	/* A recv that should return must never hang the test. */
	setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	self->wire = malloc(WIRE_SIZE);
	ASSERT_NE(NULL, self->wire);
}

FIXTURE_TEARDOWN(read_sock)
{
	close(self->peer);
	close(self->fd);
	free(self->wire);
}

static bool is_tls(const struct _fixture_variant_read_sock *v)
{
	return !strcmp(v->ulp, "tls");
}

/* Wait (up to 2 s) until everything @fd sent is acknowledged. */
static void wait_acked(int fd)
{
	int i, outq = 0;

	for (i = 0; i < 2000; i++) {
		if (ioctl(fd, SIOCOUTQ, &outq) || !outq)
			return;
		usleep(1000);
	}
}

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(seed + i * 13 + (i >> 8));
}

/*
 * The peer seals one record and sends it; @corrupt flips a bit of its
 * ciphertext.  Then wait until the peer's data is acknowledged, so in
 * the receiver's queue: read_sock does not wait for data.
 */
static void send_rec(struct __test_metadata *_metadata,
		     struct _test_data_read_sock *self, unsigned char type,
		     const void *data, size_t len, bool corrupt)
{
	size_t n = rec_seal(&self->rk, type, data, len, 0, self->wire);

	if (corrupt)
		self->wire[n - REC_TAG - 1] ^= 0x10;
	ASSERT_EQ((ssize_t)n, send(self->peer, self->wire, n, 0));
	wait_acked(self->peer);
}

/* What read_sock returned and what its actor took. */
struct rs_result {
	int ret;
	unsigned int len, calls, zero_len_calls;
	unsigned char data[TLSX_DBG_RS_MAX_LEN];
};

/*
 * read_sock on @fd through debugfs: desc->count @max, at most @per_call
 * bytes per actor call (0: any), @flags TLSX_DBG_RS_*, the actor failing
 * on call @fail_call (0: never).  Return: 0, or -errno of the hook.
 */
static int rs_call(int fd, unsigned int max, unsigned int per_call,
		   unsigned int flags, unsigned int fail_call,
		   struct rs_result *r)
{
	struct tlsx_dbg_rs_req req = {
		.fd = fd,
		.flags = flags,
		.max = max,
		.per_call = per_call,
		.fail_call = fail_call,
	};
	static unsigned char buf[sizeof(struct tlsx_dbg_rs_resp) +
				 TLSX_DBG_RS_MAX_LEN];
	struct tlsx_dbg_rs_resp resp;
	int dfd, err = 0;
	ssize_t n;

	memset(r, 0, sizeof(*r));
	dfd = open(DBG_READ_SOCK, O_RDWR);
	if (dfd < 0)
		return -errno;
	if (write(dfd, &req, sizeof(req)) != sizeof(req)) {
		err = -errno;
		goto out;
	}
	n = read(dfd, buf, sizeof(buf));
	if (n < (ssize_t)sizeof(resp)) {
		err = n < 0 ? -errno : -EIO;
		goto out;
	}
	memcpy(&resp, buf, sizeof(resp));
	if (n != (ssize_t)(sizeof(resp) + resp.len)) {
		err = -EIO;
		goto out;
	}
	r->ret = resp.ret;
	r->len = resp.len;
	r->calls = resp.calls;
	r->zero_len_calls = resp.zero_len_calls;
	memcpy(r->data, buf + sizeof(resp), resp.len);
out:
	close(dfd);
	return err;
}

/* read_sock with no limit but @max, as nvme-tcp reads. */
#define rs_all(fd, r)	rs_call(fd, TLSX_DBG_RS_MAX_LEN, 0, 0, 0, r)

static struct rs_result r;
static unsigned char in[3 * REC_MAX_TEXT], out[3 * REC_MAX_TEXT];

TEST_F(read_sock, data_records_whole)
{
	/* A small record, a full one (several pages), an odd one. */
	static const size_t lens[] = { 100, REC_MAX_TEXT, 4097 };
	size_t total = 0, i;

	fill(in, sizeof(in), 1);
	for (i = 0; i < 3; i++) {
		send_rec(_metadata, self, REC_TYPE_DATA, in + total, lens[i],
			 false);
		total += lens[i];
	}
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ((int)total, r.ret);
	ASSERT_EQ(total, r.len);
	EXPECT_EQ(0, memcmp(in, r.data, total));
	/* One offer per record. */
	EXPECT_EQ(3, r.calls);

	/* Everything was consumed: nothing for recv or read_sock. */
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EAGAIN, r.ret);
}

TEST_F(read_sock, count_limits_the_read)
{
	fill(in, sizeof(in), 2);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 1000, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 1000, 1000, false);

	/* desc->count 1000: the first record, then stop. */
	ASSERT_EQ(0, rs_call(self->fd, 1000, 0, 0, 0, &r));
	EXPECT_EQ(1000, r.ret);
	EXPECT_EQ(1, r.calls);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(1000, r.ret);
	ASSERT_EQ(1000, r.len);
	EXPECT_EQ(0, memcmp(in + 1000, r.data, 1000));
}

TEST_F(read_sock, data_records_in_pieces)
{
	size_t got = 0, total = 1000 + 3000;
	int i, calls = 0;

	fill(in, sizeof(in), 3);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 1000, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 1000, 3000, false);

	/* An actor that takes 300 bytes, then stalls: the rest is kept. */
	for (i = 0; i < 20 && got < total; i++) {
		ASSERT_EQ(0, rs_call(self->fd, TLSX_DBG_RS_MAX_LEN, 300,
				     TLSX_DBG_RS_STOP_ON_PARTIAL, 0, &r));
		ASSERT_GT(r.ret, 0);
		ASSERT_EQ((unsigned int)r.ret, r.len);
		EXPECT_EQ(0, memcmp(in + got, r.data, r.len));
		got += r.len;
		calls++;
		/* Never more than the rest of a record and 300 of the next. */
		EXPECT_LE(r.len, 400);
	}
	EXPECT_EQ(total, got);
	/* 300 300 300 100+300, then 300 * 8 and 300 */
	EXPECT_EQ(13, calls);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EAGAIN, r.ret);
}

TEST_F(read_sock, rest_of_record_offered_again)
{
	fill(in, sizeof(in), 4);
	if (is_tls(variant))
		SKIP(return,
		     "kTLS 6.12 drops the rest of a record an actor took in part without zeroing desc->count");
	send_rec(_metadata, self, REC_TYPE_DATA, in, 1000, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 1000, 500, false);

	/* 300 at a time, desc->count left non-zero: as tcp_read_sock(). */
	ASSERT_EQ(0, rs_call(self->fd, TLSX_DBG_RS_MAX_LEN, 300, 0, 0, &r));
	EXPECT_EQ(1500, r.ret);
	ASSERT_EQ(1500, r.len);
	EXPECT_EQ(0, memcmp(in, r.data, 1500));
	EXPECT_EQ(4 + 2, r.calls);
}

TEST_F(read_sock, then_recvmsg_continues)
{
	size_t got;
	ssize_t n;
	int type;

	fill(in, sizeof(in), 5);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 1000, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 1000, 2000, false);

	ASSERT_EQ(0, rs_call(self->fd, TLSX_DBG_RS_MAX_LEN, 400,
			     TLSX_DBG_RS_STOP_ON_PARTIAL, 0, &r));
	ASSERT_EQ(400, r.ret);
	EXPECT_EQ(0, memcmp(in, r.data, 400));

	/* recvmsg takes the rest of the first record, then the second. */
	for (got = 400; got < 3000; got += n) {
		n = recv_type(self->fd, out + got, 3000 - got, 0, &type);
		ASSERT_GT(n, 0);
		EXPECT_EQ(REC_TYPE_DATA, type);
	}
	EXPECT_EQ(0, memcmp(in + 400, out + 400, 2600));
}

TEST_F(read_sock, continues_after_recvmsg)
{
	fill(in, sizeof(in), 6);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 1000, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 1000, 2000, false);

	/* A partial recv leaves the rest of the first record queued. */
	ASSERT_EQ(300, recv(self->fd, out, 300, 0));
	EXPECT_EQ(0, memcmp(in, out, 300));
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(2700, r.ret);
	ASSERT_EQ(2700, r.len);
	EXPECT_EQ(0, memcmp(in + 300, r.data, 2700));
}

TEST_F(read_sock, reads_what_was_peeked)
{
	fill(in, sizeof(in), 7);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 700, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 700, 800, false);

	ASSERT_EQ(1500, recv(self->fd, out, sizeof(out),
			     MSG_PEEK | MSG_WAITALL));
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(1500, r.ret);
	ASSERT_EQ(1500, r.len);
	EXPECT_EQ(0, memcmp(in, r.data, 1500));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(read_sock, stops_before_control_record)
{
	static const unsigned char alert[] = { 1, 0 };
	int type;

	fill(in, sizeof(in), 8);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 500, false);
	send_rec(_metadata, self, REC_TYPE_ALERT, alert, sizeof(alert),
		 false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 500, 600, false);

	/* The data before it, then -EINVAL while it is first. */
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(500, r.ret);
	EXPECT_EQ(0, memcmp(in, r.data, 500));
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EINVAL, r.ret);
	EXPECT_EQ(0, r.calls);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EINVAL, r.ret);

	/* It is left whole for recvmsg, then read_sock goes on. */
	EXPECT_EQ(sizeof(alert), recv_type(self->fd, out, sizeof(out), 0,
					   &type));
	EXPECT_EQ(REC_TYPE_ALERT, type);
	EXPECT_EQ(0, memcmp(alert, out, sizeof(alert)));
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(600, r.ret);
	EXPECT_EQ(0, memcmp(in + 500, r.data, 600));
}

TEST_F(read_sock, bad_record_breaks_the_connection)
{
	long long dec0 = ulp_stat(variant->ulp, "TlsDecryptError");
	socklen_t len = sizeof(int);
	int err = 0;

	fill(in, sizeof(in), 9);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 800, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 800, 900, true);

	/* The good record comes first; the error waits for the next read. */
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(800, r.ret);
	EXPECT_EQ(0, memcmp(in, r.data, 800));
	EXPECT_EQ(1, r.calls);
	EXPECT_EQ(0, getsockopt(self->fd, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(EBADMSG, err);
	EXPECT_LT(dec0, ulp_stat(variant->ulp, "TlsDecryptError"));

	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EBADMSG, r.ret);
	EXPECT_EQ(0, r.calls);
	/* Broken for good, for every reader. */
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EBADMSG, r.ret);
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EBADMSG, errno);
}

TEST_F(read_sock, bad_first_record)
{
	socklen_t len = sizeof(int);
	int err = 0;

	fill(in, sizeof(in), 10);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 900, true);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EBADMSG, r.ret);
	EXPECT_EQ(0, r.calls);
	EXPECT_EQ(0, getsockopt(self->fd, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(EBADMSG, err);
}

TEST_F(read_sock, nothing_to_read)
{
	struct timespec t0, t1;
	size_t n;

	/* No record: -EAGAIN at once, though the socket blocks. */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	EXPECT_EQ(-EAGAIN, r.ret);
	EXPECT_EQ(0, r.calls);
	EXPECT_LT(t1.tv_sec - t0.tv_sec, 2);

	/* Half a record: still nothing. */
	fill(in, sizeof(in), 11);
	n = rec_seal(&self->rk, REC_TYPE_DATA, in, 500, 0, self->wire);
	ASSERT_EQ(200, send(self->peer, self->wire, 200, 0));
	wait_acked(self->peer);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EAGAIN, r.ret);
	EXPECT_EQ(0, r.calls);
	ASSERT_EQ((ssize_t)n - 200,
		  send(self->peer, self->wire + 200, n - 200, 0));
	wait_acked(self->peer);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(500, r.ret);
	EXPECT_EQ(0, memcmp(in, r.data, 500));

	/* End of stream: 0. */
	ASSERT_EQ(0, shutdown(self->peer, SHUT_WR));
	wait_acked(self->peer);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(0, r.ret);
	EXPECT_EQ(0, r.calls);
}

TEST_F(read_sock, empty_data_record_skipped)
{
	fill(in, sizeof(in), 12);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 0, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 300, false);

	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(300, r.ret);
	ASSERT_EQ(300, r.len);
	EXPECT_EQ(0, memcmp(in, r.data, 300));
	/* The actor is never offered the empty record. */
	EXPECT_EQ(0, r.zero_len_calls);
}

TEST_F(read_sock, actor_error)
{
	fill(in, sizeof(in), 13);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 400, false);
	send_rec(_metadata, self, REC_TYPE_DATA, in + 400, 500, false);

	/* Failing first: its error, and the record stays. */
	ASSERT_EQ(0, rs_call(self->fd, TLSX_DBG_RS_MAX_LEN, 0, 0, 1, &r));
	EXPECT_EQ(-EIO, r.ret);
	EXPECT_EQ(0, r.len);
	/* Failing second: the bytes before it. */
	ASSERT_EQ(0, rs_call(self->fd, TLSX_DBG_RS_MAX_LEN, 0, 0, 2, &r));
	EXPECT_EQ(400, r.ret);
	EXPECT_EQ(0, memcmp(in, r.data, 400));
	EXPECT_EQ(500, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(in + 400, out, 500));
}

TEST_F(read_sock, key_update_pending)
{
	static const unsigned char ku[] = { 24, 0, 0, 1, 0 };
	struct rec_info next;
	int type;

	if (variant->version != TLS_1_3_VERSION)
		SKIP(return, "TLS 1.3 only");
	if (is_tls(variant))
		SKIP(return, "kTLS 6.12 has no RX rekey (6.14 has)");

	fill(in, sizeof(in), 14);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 200, false);
	send_rec(_metadata, self, REC_TYPE_HANDSHAKE, ku, sizeof(ku), false);
	rec_info_init(&next, variant->version, variant->cipher, 4);
	ASSERT_EQ(0, rec_key_init(&self->rk, &next));
	send_rec(_metadata, self, REC_TYPE_DATA, in + 200, 300, false);

	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(200, r.ret);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EINVAL, r.ret);
	EXPECT_EQ(sizeof(ku), recv_type(self->fd, out, sizeof(out), 0,
					&type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);

	/* The next record is under a key not yet given. */
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(-EKEYEXPIRED, r.ret);
	EXPECT_EQ(0, r.calls);
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX, &next, next.len));
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(300, r.ret);
	EXPECT_EQ(0, memcmp(in + 200, r.data, 300));
}

/*
 * The hook calls read_sock only where it is tlsx's or kTLS's: TCP's own
 * (a plain socket, or the ULP without TLS_RX) frees the skbs it consumed
 * whatever their users count, and the hook's actor keeps the skbs it is
 * offered, to read and free them again later.  The bytes stay for recv.
 */
TEST_F(read_sock, hook_refuses_tcp_read_sock)
{
	int plain[2], ulp[2], i;

	ASSERT_EQ(0, tcp_pair(&plain[0], &plain[1]));
	ASSERT_EQ(0, tcp_pair(&ulp[0], &ulp[1]));
	ASSERT_EQ(0, setsockopt(ulp[1], IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	for (i = 0; i < 2; i++) {
		int *p = i ? ulp : plain;

		ASSERT_EQ(5, send(p[0], "plain", 5, 0));
		wait_acked(p[0]);
		EXPECT_EQ(-EOPNOTSUPP, rs_all(p[1], &r)) {
			TH_LOG("%s: read_sock returned %d, %u bytes",
			       i ? "ULP without TLS_RX" : "plain TCP", r.ret,
			       r.len);
		}
		EXPECT_EQ(5, recv(p[1], out, sizeof(out), MSG_DONTWAIT));
		EXPECT_EQ(0, memcmp(out, "plain", 5));
		close(p[0]);
		close(p[1]);
	}
}

/*
 * read_sock called as strparser calls it from softirq (KCM on a TLS_RX
 * socket): BHs off, the socket spinlock held.  tlsx refuses, since
 * opening a record allocates as the socket says (GFP_KERNEL) and may
 * sleep; the records stay for a reader in process context.
 */
TEST_F(read_sock, refused_in_atomic_context)
{
	if (is_tls(variant))
		SKIP(return, "kTLS 6.12's tls_sw_read_sock() does not refuse: it allocates with sk->sk_allocation there");

	fill(in, sizeof(in), 15);
	send_rec(_metadata, self, REC_TYPE_DATA, in, 100, false);
	ASSERT_EQ(0, rs_call(self->fd, TLSX_DBG_RS_MAX_LEN, 0,
			     TLSX_DBG_RS_ATOMIC, 0, &r));
	EXPECT_EQ(-EOPNOTSUPP, r.ret);
	EXPECT_EQ(0, r.calls);
	ASSERT_EQ(0, rs_all(self->fd, &r));
	EXPECT_EQ(100, r.ret);
	EXPECT_EQ(0, memcmp(in, r.data, 100));
}

TEST_HARNESS_MAIN
