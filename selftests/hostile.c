// SPDX-License-Identifier: GPL-2.0
/*
 * hostile.c - a raw TCP peer sends a TLS_RX socket truncated, corrupted,
 * oversized and wrong-type records and random bytes.  Every case must
 * give kTLS's errno, be counted in the ULP's statistics, and leave
 * nothing behind: after each case the ULP's current RX sockets and its
 * module reference count return to where they were.
 *
 * The peer seals its records in userspace with the project's AEAD
 * (tlsx_rec.h); a valid record is checked to arrive intact first, so a
 * refused record is refused for what was done to it.  Variants: tlsx and
 * the kernel's tls, TLS 1.2 and 1.3, the three ciphers.
 */
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/time.h>

#include "tlsx_test.h"
#include "tlsx_rec.h"
#include "kselftest_harness.h"

/*
 * tlsx's own counter for a malformed record header (kTLS counts none):
 * checked only on tlsx.
 */
#define TLSX_BAD_RECORD_STAT	"TlsxRxBadRecord"

FIXTURE(hostile)
{
	int peer;		/* raw TCP: the hostile end */
	int fd;			/* TCP_ULP + TLS_RX */
	struct rec_info ri;
	struct rec_key rk;	/* the peer's sealing state */
	long long rx0, tx0, dec0, bad0;
	long ref0;
	unsigned char *buf;	/* REC_MAX_WIRE * 4 */
};

/* Helpers below name the harness's structs: _fixture_variant_hostile. */
FIXTURE_VARIANT(hostile)
{
	const char *ulp;
	unsigned short version;
	unsigned short cipher;
};

FIXTURE_VARIANT_ADD(hostile, tlsx_2_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_3_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_2_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_3_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_2_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_2_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_3_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(hostile, tlsx_3_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tls_2_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tls_3_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tls_2_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(hostile, tls_3_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(hostile, tls_2_chacha)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(hostile, tls_2_ccm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(hostile, tls_3_chacha)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(hostile, tls_3_ccm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

static void set_timeo(int fd, int ms)
{
	struct timeval tv = { .tv_sec = ms / 1000,
			      .tv_usec = (ms % 1000) * 1000 };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

/* A fresh pair: @fd gets the ULP and RX keys, @peer stays raw TCP. */
static int hostile_pair(const struct _fixture_variant_hostile *v,
			struct rec_info *ri, int *peer, int *fd)
{
	int err = tcp_pair(peer, fd);

	if (err)
		return err;
	if (setsockopt(*fd, IPPROTO_TCP, TCP_ULP, v->ulp, strlen(v->ulp)) ||
	    setsockopt(*fd, SOL_TLS, TLS_RX, ri, ri->len))
		return -errno;
	/* A refused record must fail, never hang the test. */
	set_timeo(*fd, 10000);
	return 0;
}

FIXTURE_SETUP(hostile)
{
	int one = 1;

	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	self->rx0 = ulp_stat(variant->ulp, "TlsCurrRxSw");
	self->tx0 = ulp_stat(variant->ulp, "TlsCurrTxSw");
	self->dec0 = ulp_stat(variant->ulp, "TlsDecryptError");
	self->bad0 = ulp_stat(variant->ulp, TLSX_BAD_RECORD_STAT);
	self->ref0 = module_refcnt(variant->ulp);
	ASSERT_GE(self->rx0, 0) {
		TH_LOG("no /proc/net/%s_stat", variant->ulp);
	}
	self->buf = malloc(REC_MAX_WIRE * 4);
	ASSERT_NE(NULL, self->buf);
	rec_info_init(&self->ri, variant->version, variant->cipher, 7);
	ASSERT_EQ(0, rec_key_init(&self->rk, &self->ri));
	ASSERT_EQ(0, hostile_pair(variant, &self->ri, &self->peer,
				  &self->fd));
	setsockopt(self->peer, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

FIXTURE_TEARDOWN(hostile)
{
	close(self->fd);
	close(self->peer);
	free(self->buf);
	/* Nothing leaked: sockets and module references are back. */
	EXPECT_TRUE(ulp_settle(variant->ulp, self->rx0, self->tx0,
			       self->ref0)) {
		TH_LOG("%s: CurrRxSw %lld (was %lld), refcnt %ld (was %ld)",
		       variant->ulp, ulp_stat(variant->ulp, "TlsCurrRxSw"),
		       self->rx0, module_refcnt(variant->ulp), self->ref0);
	}
}

static int send_all(int fd, const void *p, size_t len)
{
	const unsigned char *b = p;
	ssize_t n;

	while (len) {
		n = send(fd, b, len, MSG_NOSIGNAL);
		if (n <= 0)
			return -1;
		b += n;
		len -= n;
	}
	return 0;
}

/* recv() on @fd: its result, with errno as the result when it failed. */
static int recv_err(int fd, void *buf, size_t len, int flags)
{
	ssize_t n = recv(fd, buf, len, flags);

	return n < 0 ? -errno : (int)n;
}

static long long stat_delta(const struct _fixture_variant_hostile *v,
			    const char *name, long long base)
{
	return ulp_stat(v->ulp, name) - base;
}

/* The record layer's overhead the length check counts (kTLS's). */
static unsigned int min_body(const struct rec_key *rk)
{
	return REC_TAG + rk->explicit_len;
}

static unsigned int max_body(const struct rec_key *rk)
{
	return REC_MAX_TEXT + REC_TAG + rk->explicit_len +
	       (rk->version == TLS_1_3_VERSION ? 1 : 0);
}

/* Sanity: the peer's records are what the ULP expects. */
TEST_F(hostile, valid_record_arrives)
{
	char text[] = "hostile peer, honest record";
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_DATA, text, sizeof(text), 0,
		     self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	ASSERT_EQ((int)sizeof(text), recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(0, memcmp(text, got, sizeof(text)));
	EXPECT_EQ(0, stat_delta(variant, "TlsDecryptError", self->dec0));
}

/* Flip one bit at @off of a sealed record: EBADMSG, counted. */
static void corrupt_at(struct __test_metadata *_metadata,
		       struct _test_data_hostile *self,
		       const struct _fixture_variant_hostile *variant,
		       int off_from_end, int off_from_start)
{
	char text[300], got[400];
	size_t n;

	memset(text, 'h', sizeof(text));
	n = rec_seal(&self->rk, REC_TYPE_DATA, text, sizeof(text), 0,
		     self->buf);
	if (off_from_end)
		self->buf[n - off_from_end] ^= 0x10;
	else
		self->buf[off_from_start] ^= 0x01;
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(1, stat_delta(variant, "TlsDecryptError", self->dec0));
}

TEST_F(hostile, bad_tag)
{
	corrupt_at(_metadata, self, variant, 1, 0);
}

TEST_F(hostile, bad_ciphertext)
{
	corrupt_at(_metadata, self, variant, REC_TAG + 20, 0);
}

/*
 * TLS 1.2 authenticates the record type (it is in the AAD).  TLS 1.3's
 * outer type is always 23 and kTLS builds the AAD with 23 whatever the
 * header says, so a changed outer type is not detected there: not
 * tested on 1.3, where neither answer would be kTLS-compatible and right.
 */
TEST_F(hostile, bad_header_type)
{
	if (variant->version != TLS_1_2_VERSION)
		SKIP(return, "TLS 1.2 record type");
	corrupt_at(_metadata, self, variant, 0, 0);
}

/* A record sealed for the next sequence number (one went missing). */
TEST_F(hostile, skipped_sequence)
{
	char got[64];
	size_t n;

	self->rk.seq++;
	n = rec_seal(&self->rk, REC_TYPE_DATA, "late", 4, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(1, stat_delta(variant, "TlsDecryptError", self->dec0));
}

TEST_F(hostile, replayed_record)
{
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_DATA, "once", 4, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(4, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), 0));
	/*
	 * kTLS counts every failed attempt: the first read may already have
	 * tried the replay after copying the good record.
	 */
	EXPECT_LE(1, stat_delta(variant, "TlsDecryptError", self->dec0));
}

/*
 * Data before the bad record is returned first; the error comes with
 * the next read, and the socket stays in error: a valid record after the
 * bad one is never returned.
 */
TEST_F(hostile, valid_then_bad_then_valid)
{
	char got[2048];
	size_t n = 0;
	int i;

	for (i = 0; i < 3; i++)
		n += rec_seal(&self->rk, REC_TYPE_DATA, "0123456789", 10, 0,
			      self->buf + n);
	i = n;
	n += rec_seal(&self->rk, REC_TYPE_DATA, "bad", 3, 0, self->buf + n);
	self->buf[i + REC_HDR + self->rk.explicit_len] ^= 0x80;
	n += rec_seal(&self->rk, REC_TYPE_DATA, "after", 5, 0, self->buf + n);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	/* Let every byte arrive so the reads below see the whole stream. */
	usleep(100000);
	EXPECT_EQ(30, recv_err(self->fd, got, sizeof(got), MSG_WAITALL));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), MSG_DONTWAIT));
	EXPECT_LE(1, stat_delta(variant, "TlsDecryptError", self->dec0));
}

/* Send a bare header (and the IV bytes kTLS waits for) of length @len. */
static void send_header(struct __test_metadata *_metadata,
			struct _test_data_hostile *self, unsigned char type,
			unsigned char major, unsigned char minor,
			unsigned int len, unsigned int extra)
{
	unsigned char *h = self->buf;

	h[0] = type;
	h[1] = major;
	h[2] = minor;
	h[3] = len >> 8;
	h[4] = len;
	memset(h + 5, 0xa5, extra);
	ASSERT_EQ(0, send_all(self->peer, h, 5 + extra));
}

static void expect_header_error(struct __test_metadata *_metadata,
				struct _test_data_hostile *self,
				const struct _fixture_variant_hostile *variant,
				int err)
{
	char got[64];

	EXPECT_EQ(-err, recv_err(self->fd, got, sizeof(got), 0));
	/* Nothing was decrypted. */
	EXPECT_EQ(0, stat_delta(variant, "TlsDecryptError", self->dec0));
	if (!strcmp(variant->ulp, "tlsx"))
		EXPECT_EQ(1, stat_delta(variant, TLSX_BAD_RECORD_STAT,
					self->bad0));
}

TEST_F(hostile, oversized_record)
{
	send_header(_metadata, self, REC_TYPE_DATA, 3, 3,
		    max_body(&self->rk) + 1, 8);
	expect_header_error(_metadata, self, variant, EMSGSIZE);
}

TEST_F(hostile, oversized_64k)
{
	send_header(_metadata, self, REC_TYPE_DATA, 3, 3, 0xffff, 8);
	expect_header_error(_metadata, self, variant, EMSGSIZE);
}

TEST_F(hostile, too_short_record)
{
	send_header(_metadata, self, REC_TYPE_DATA, 3, 3,
		    min_body(&self->rk) - 1, min_body(&self->rk) - 1);
	expect_header_error(_metadata, self, variant, EBADMSG);
}

TEST_F(hostile, empty_record)
{
	send_header(_metadata, self, REC_TYPE_DATA, 3, 3, 0, 8);
	expect_header_error(_metadata, self, variant, EBADMSG);
}

TEST_F(hostile, bad_version)
{
	send_header(_metadata, self, REC_TYPE_DATA, 3, 1, 100, 100);
	expect_header_error(_metadata, self, variant, EINVAL);
}

/* The largest record kTLS accepts passes; one byte more does not. */
TEST_F(hostile, largest_record)
{
	unsigned char *text = self->buf + REC_MAX_WIRE * 2;
	size_t n;

	memset(text, 'L', REC_MAX_TEXT);
	n = rec_seal(&self->rk, REC_TYPE_DATA, text, REC_MAX_TEXT, 0,
		     self->buf);
	ASSERT_EQ(REC_HDR + max_body(&self->rk), n);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(REC_MAX_TEXT, recv_err(self->fd, self->buf + REC_MAX_WIRE,
					 REC_MAX_TEXT, MSG_WAITALL));
	EXPECT_EQ(0, memcmp(self->buf + REC_MAX_WIRE, text, REC_MAX_TEXT));
}

/* TLS 1.3: 2^14 bytes of text plus padding is over the limit. */
TEST_F(hostile, oversized_by_padding)
{
	unsigned char *text = self->buf + REC_MAX_WIRE * 2;
	size_t n;

	if (variant->version != TLS_1_3_VERSION)
		SKIP(return, "TLS 1.3 padding");
	memset(text, 'P', REC_MAX_TEXT);
	n = rec_seal(&self->rk, REC_TYPE_DATA, text, REC_MAX_TEXT, 1,
		     self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	expect_header_error(_metadata, self, variant, EMSGSIZE);
}

/* Content type 0 (1.3: a record that is all padding): EBADMSG. */
TEST_F(hostile, zero_content_type)
{
	char got[64];
	size_t n;

	if (variant->version == TLS_1_3_VERSION)
		n = rec_seal(&self->rk, 0, NULL, 0, 20, self->buf);
	else
		n = rec_seal(&self->rk, 0, "zero", 4, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), 0));
}

/* Read a record's type with the TLS_GET_RECORD_TYPE cmsg. */
static int recv_typed(int fd, void *buf, size_t len, unsigned char *type)
{
	char cbuf[CMSG_SPACE(sizeof(unsigned char))];
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg;
	ssize_t n = recvmsg(fd, &msg, 0);

	if (n < 0)
		return -errno;
	*type = 0;
	cmsg = CMSG_FIRSTHDR(&msg);
	if (cmsg && cmsg->cmsg_level == SOL_TLS &&
	    cmsg->cmsg_type == TLS_GET_RECORD_TYPE)
		*type = *CMSG_DATA(cmsg);
	return (int)n;
}

/* A control record read without a cmsg buffer: EIO, as kTLS. */
TEST_F(hostile, alert_without_cmsg)
{
	unsigned char alert[2] = { 2, 40 }, type;
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_ALERT, alert, 2, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(-EIO, recv_err(self->fd, got, sizeof(got), 0));
	/* The record is still there for a reader that asks for its type. */
	EXPECT_EQ(2, recv_typed(self->fd, got, sizeof(got), &type));
	EXPECT_EQ(REC_TYPE_ALERT, type);
	EXPECT_EQ(0, memcmp(got, alert, 2));
}

/* An unknown but authentic type is passed up, not merged with data. */
TEST_F(hostile, unknown_type_passed_up)
{
	unsigned char type;
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, 0x42, "odd", 3, 0, self->buf);
	n += rec_seal(&self->rk, REC_TYPE_DATA, "data", 4, 0, self->buf + n);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(3, recv_typed(self->fd, got, sizeof(got), &type));
	EXPECT_EQ(0x42, type);
	EXPECT_EQ(4, recv_typed(self->fd, got, sizeof(got), &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(got, "data", 4));
}

/* Half a record: nothing to read yet, and not readable. */
TEST_F(hostile, truncated_waits)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	char got[64];
	size_t n;

	if (old_ktls(variant->ulp, 6, 12))
		SKIP(return, "6.1's tls polls readable on half a record");
	n = rec_seal(&self->rk, REC_TYPE_DATA, "truncated", 9, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n / 2));
	set_timeo(self->fd, 300);
	EXPECT_EQ(-EAGAIN, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(0, poll(&pfd, 1, 100));
	/* The rest completes it. */
	ASSERT_EQ(0, send_all(self->peer, self->buf + n / 2, n - n / 2));
	EXPECT_EQ(9, recv_err(self->fd, got, sizeof(got), 0));
}

/* Half a record, then the peer's FIN: end of stream, as kTLS. */
TEST_F(hostile, truncated_then_fin)
{
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_DATA, "truncated", 9, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n - 3));
	ASSERT_EQ(0, shutdown(self->peer, SHUT_WR));
	EXPECT_EQ(0, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(0, stat_delta(variant, "TlsDecryptError", self->dec0));
}

/* Half a record, then a reset: ECONNRESET. */
TEST_F(hostile, truncated_then_reset)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_DATA, "truncated", 9, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n - 3));
	usleep(50000);
	ASSERT_EQ(0, setsockopt(self->peer, SOL_SOCKET, SO_LINGER, &lg,
				sizeof(lg)));
	close(self->peer);
	self->peer = -1;
	EXPECT_EQ(-ECONNRESET, recv_err(self->fd, got, sizeof(got), 0));
}

/*
 * getsockopt(TCP_ZEROCOPY_RECEIVE)'s argument as 6.12 has it; glibc's
 * <netinet/tcp.h> has only its first three fields.
 */
struct zc_receive {
	uint64_t address;
	uint32_t length;
	uint32_t recv_skip_hint;
	uint32_t inq;
	int32_t err;
	uint64_t copybuf_address;
	int32_t copybuf_len;
	uint32_t flags;
	uint64_t msg_control;
	uint64_t msg_controllen;
	uint32_t msg_flags;
	uint32_t reserved;
};

/*
 * A local program can empty the TCP queue behind the ULP's back:
 * TCP_ZEROCOPY_RECEIVE copies what fits its copy buffer with TCP's own
 * recvmsg.  A record already parsed as ready is then gone: the next read
 * parses again from where the stream is (kTLS's tls_strp_msg_load()), so
 * an empty queue gives EAGAIN, and the next record, sealed for a sequence
 * number the reader never reached, fails authentication.
 */
TEST_F(hostile, queue_emptied_behind_the_ulp)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	unsigned char *copy = self->buf + REC_MAX_WIRE;
	struct zc_receive zc = { 0 };
	socklen_t zclen = sizeof(zc);
	char got[64];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_DATA, "stolen", 6, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	ASSERT_EQ(1, poll(&pfd, 1, 10000));
	zc.copybuf_address = (uintptr_t)copy;
	zc.copybuf_len = REC_MAX_WIRE;
	ASSERT_EQ(0, getsockopt(self->fd, IPPROTO_TCP, TCP_ZEROCOPY_RECEIVE,
				&zc, &zclen));
	ASSERT_EQ((int)n, zc.copybuf_len);
	EXPECT_EQ(0, memcmp(copy, self->buf, n));
	EXPECT_EQ(-EAGAIN, recv_err(self->fd, got, sizeof(got), MSG_DONTWAIT));

	n = rec_seal(&self->rk, REC_TYPE_DATA, "after", 5, 0, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(-EBADMSG, recv_err(self->fd, got, sizeof(got), 0));
}

/*
 * With SO_OOBINLINE an urgent byte is stream data like any other: a
 * record one of whose bytes the peer sent with MSG_OOB, in more small
 * segments than tlsx decrypts from in place (so it is copied out of the
 * queue first), arrives intact.
 */
TEST_F(hostile, urgent_byte_inline)
{
	char text[600], got[700];
	size_t n, off = 0, piece;
	int one = 1, i = 0;

	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_OOBINLINE, &one,
				sizeof(one)));
	memset(text, 'u', sizeof(text));
	n = rec_seal(&self->rk, REC_TYPE_DATA, text, sizeof(text), 0,
		     self->buf);
	piece = n / 40;
	for (off = 0; off < n; off += piece, i++) {
		if (piece > n - off)
			piece = n - off;
		ASSERT_EQ((ssize_t)piece,
			  send(self->peer, self->buf + off, piece,
			       i == 20 ? MSG_OOB : 0));
		usleep(1000);
	}
	ASSERT_EQ((int)sizeof(text), recv_err(self->fd, got, sizeof(got),
					      MSG_WAITALL));
	EXPECT_EQ(0, memcmp(got, text, sizeof(text)));
}

/* Records dribbled one byte per segment still arrive whole and right. */
TEST_F(hostile, byte_at_a_time)
{
	char text[3][40], got[128];
	size_t n = 0, i;

	for (i = 0; i < 3; i++) {
		memset(text[i], 'a' + i, sizeof(text[i]));
		n += rec_seal(&self->rk, REC_TYPE_DATA, text[i],
			      sizeof(text[i]), i, self->buf + n);
	}
	for (i = 0; i < n; i++) {
		ASSERT_EQ(1, send(self->peer, self->buf + i, 1, 0));
		if (i % 16 == 0)
			usleep(1000);
	}
	ASSERT_EQ((int)sizeof(text), recv_err(self->fd, got, sizeof(text),
					      MSG_WAITALL));
	EXPECT_EQ(0, memcmp(got, text, sizeof(text)));
}

/*
 * Random bytes from the start of the stream: the errno follows from the
 * first five bytes, in kTLS's order of checks: length over the limit
 * EMSGSIZE, under the overhead EBADMSG, version not 3.3 EINVAL, and a
 * random body fails authentication: EBADMSG.  Half the rounds get a
 * plausible header so the body reaches the AEAD.
 */
TEST_F(hostile, random_bytes)
{
	unsigned int round, len, seed = 4242;
	unsigned char *h = self->buf;
	size_t i, total = REC_MAX_WIRE + 64;
	char got[64];
	int want;

	for (round = 0; round < 12; round++) {
		long long dec = ulp_stat(variant->ulp, "TlsDecryptError");

		if (round) {
			close(self->fd);
			close(self->peer);
			ASSERT_EQ(0, hostile_pair(variant, &self->ri,
						  &self->peer, &self->fd));
		}
		for (i = 0; i < total; i++)
			h[i] = rand_r(&seed);
		if (round & 1) {
			h[1] = 3;
			h[2] = 3;
			len = min_body(&self->rk) +
			      rand_r(&seed) % (max_body(&self->rk) -
					       min_body(&self->rk) + 1);
			h[3] = len >> 8;
			h[4] = len;
		}
		len = h[3] << 8 | h[4];
		if (len > max_body(&self->rk))
			want = EMSGSIZE;
		else if (len < min_body(&self->rk))
			want = EBADMSG;
		else if (h[1] != 3 || h[2] != 3)
			want = EINVAL;
		else
			want = EBADMSG;
		ASSERT_EQ(0, send_all(self->peer, h, total));
		EXPECT_EQ(-want, recv_err(self->fd, got, sizeof(got), 0)) {
			TH_LOG("round %u header %02x %02x %02x len %u", round,
			       h[0], h[1], h[2], len);
		}
		if (want == EBADMSG && len >= min_body(&self->rk))
			EXPECT_EQ(1, ulp_stat(variant->ulp, "TlsDecryptError") -
				  dec);
	}
}

/*
 * TLS 1.3 with TLS_RX_EXPECT_NO_PAD: a padded record still arrives
 * intact (kTLS decrypts it again), and the violation is counted.
 */
TEST_F(hostile, nopad_violation_counted)
{
	long long viol = ulp_stat(variant->ulp, "TlsRxNoPadViolation");
	int one = 1;
	char got[64];
	size_t n;

	if (variant->version != TLS_1_3_VERSION)
		SKIP(return, "TLS 1.3 padding");
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX_EXPECT_NO_PAD, &one,
				sizeof(one)));
	n = rec_seal(&self->rk, REC_TYPE_DATA, "padded", 6, 30, self->buf);
	ASSERT_EQ(0, send_all(self->peer, self->buf, n));
	EXPECT_EQ(6, recv_err(self->fd, got, sizeof(got), 0));
	EXPECT_EQ(0, memcmp(got, "padded", 6));
	EXPECT_EQ(1, ulp_stat(variant->ulp, "TlsRxNoPadViolation") - viol);
}

TEST_HARNESS_MAIN
