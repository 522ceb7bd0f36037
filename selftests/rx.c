// SPDX-License-Identifier: GPL-2.0
/*
 * rx.c - the receive path: a peer builds records in userspace with the
 * project's AEAD (tlsx_rec.h) and writes them raw to a plain TCP socket;
 * the other end has TLS_RX set and reads them.  Data, record types and
 * their cmsgs, partial reads, MSG_PEEK, MSG_WAITALL, records split into
 * one-byte writes, authentication failure, oversized and badly padded
 * records, the TLS 1.3 KeyUpdate, poll and splice.
 *
 * Variants: tlsx and the kernel's tls, TLS 1.2 and 1.3, three ciphers.
 * Where kTLS 6.12 lacks a behaviour (RX rekey) its variant skips.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/time.h>

#include "tlsx_test.h"
#include "tlsx_rec.h"
#include "kselftest_harness.h"

FIXTURE(rx)
{
	int peer;		/* plain TCP: writes sealed records */
	int fd;			/* TCP_ULP + TLS_RX: under test */
	struct rec_info ri;
	struct rec_key rk;
	unsigned char *wire;	/* room for several records */
};

FIXTURE_VARIANT(rx)
{
	const char *ulp;
	unsigned short version;
	unsigned short cipher;
};

FIXTURE_VARIANT_ADD(rx, tlsx_2_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(rx, tlsx_3_aes128gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(rx, tlsx_2_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(rx, tlsx_3_aes256gcm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(rx, tlsx_2_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(rx, tlsx_2_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(rx, tlsx_3_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(rx, tlsx_3_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(rx, tls_2_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(rx, tls_3_aes128gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(rx, tls_2_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(rx, tls_3_aes256gcm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(rx, tls_2_chacha)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(rx, tls_2_ccm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(rx, tls_3_chacha)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(rx, tls_3_ccm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};


#define WIRE_SIZE	(REC_MAX_WIRE * 4)

FIXTURE_SETUP(rx)
{
	int one = 1;

	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	ASSERT_EQ(0, tcp_pair(&self->peer, &self->fd));
	ASSERT_EQ(0, setsockopt(self->peer, IPPROTO_TCP, TCP_NODELAY, &one,
				sizeof(one)));
	ASSERT_EQ(0, setsockopt(self->fd, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	rec_info_init(&self->ri, variant->version, variant->cipher, 1);
	ASSERT_EQ(0, rec_key_init(&self->rk, &self->ri));
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX, &self->ri,
				self->ri.len));
	self->wire = malloc(WIRE_SIZE);
	ASSERT_NE(NULL, self->wire);
}

FIXTURE_TEARDOWN(rx)
{
	close(self->peer);
	close(self->fd);
	free(self->wire);
}

static bool is13(unsigned short version)
{
	return version == TLS_1_3_VERSION;
}

/* The peer: its socket, sealing state and record buffer. */
struct peer {
	int fd;
	struct rec_key *rk;
	unsigned char *wire;
};

/* Seal one record into the peer's buffer and send it. */
static size_t peer_send(struct __test_metadata *_metadata,
			const struct peer *p, unsigned char type,
			const void *data, size_t len, size_t pad)
{
	size_t n = rec_seal(p->rk, type, data, len, pad, p->wire);

	EXPECT_EQ((ssize_t)n, send(p->fd, p->wire, n, 0));
	return n;
}

#define send_rec(md, self, type, data, len, pad)			\
	peer_send(md, &(struct peer){ (self)->peer, &(self)->rk,	\
				      (self)->wire },			\
		  type, data, len, pad)

static void fill(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(seed + i * 13 + (i >> 8));
}

TEST_F(rx, data_and_cmsg)
{
	unsigned char out[100];
	int type;

	send_rec(_metadata, self, REC_TYPE_DATA, "hello", 5, 0);
	EXPECT_EQ(5, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "hello", 5));
}

TEST_F(rx, full_size_records)
{
	static unsigned char in[REC_MAX_TEXT * 2], out[REC_MAX_TEXT * 2];
	size_t got = 0;
	ssize_t n;

	fill(in, sizeof(in), 7);
	send_rec(_metadata, self, REC_TYPE_DATA, in, REC_MAX_TEXT, 0);
	send_rec(_metadata, self, REC_TYPE_DATA, in + REC_MAX_TEXT,
		 REC_MAX_TEXT, 0);
	while (got < sizeof(out)) {
		n = recv(self->fd, out + got, sizeof(out) - got, 0);
		ASSERT_GT(n, 0);
		got += n;
	}
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
}

/* A non-data record needs a cmsg buffer (EIO) and is returned alone. */
TEST_F(rx, types_never_merged)
{
	unsigned char out[100];
	int type;

	send_rec(_metadata, self, REC_TYPE_DATA, "abc", 3, 0);
	send_rec(_metadata, self, REC_TYPE_ALERT, "\x01\x00", 2, 0);
	send_rec(_metadata, self, REC_TYPE_DATA, "def", 3, 0);
	usleep(50000);

	EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "abc", 3));

	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EIO, errno);

	EXPECT_EQ(2, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_ALERT, type);
	EXPECT_EQ(0, memcmp(out, "\x01\x00", 2));

	EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "def", 3));
}

/* Two data records come back in one read. */
TEST_F(rx, data_records_merged)
{
	unsigned char out[100];
	int type;

	send_rec(_metadata, self, REC_TYPE_DATA, "abc", 3, 0);
	send_rec(_metadata, self, REC_TYPE_DATA, "def", 3, 0);
	usleep(50000);
	EXPECT_EQ(6, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "abcdef", 6));
}

TEST_F(rx, partial_reads)
{
	unsigned char in[1000], out[1000];
	size_t got = 0;
	int type;

	fill(in, sizeof(in), 3);
	send_rec(_metadata, self, REC_TYPE_DATA, in, sizeof(in), 0);
	while (got < sizeof(in)) {
		ASSERT_EQ(100, recv_type(self->fd, out + got, 100, 0, &type));
		EXPECT_EQ(REC_TYPE_DATA, type);
		got += 100;
	}
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	EXPECT_EQ(-1, recv(self->fd, out, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

/* A partial control record: the rest comes with its type again. */
TEST_F(rx, partial_control_record)
{
	unsigned char out[10];
	int type;

	send_rec(_metadata, self, REC_TYPE_HANDSHAKE, "0123456789", 10, 0);
	EXPECT_EQ(4, recv_type(self->fd, out, 4, 0, &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(6, recv_type(self->fd, out + 4, 10, 0, &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(0, memcmp(out, "0123456789", 10));
}

TEST_F(rx, peek_across_records)
{
	unsigned char out[100];
	int type;

	send_rec(_metadata, self, REC_TYPE_DATA, "abc", 3, 0);
	send_rec(_metadata, self, REC_TYPE_DATA, "def", 3, 0);
	usleep(50000);
	EXPECT_EQ(6, recv_type(self->fd, out, sizeof(out), MSG_PEEK, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "abcdef", 6));
	EXPECT_EQ(2, recv(self->fd, out, 2, MSG_PEEK));
	EXPECT_EQ(0, memcmp(out, "ab", 2));
	EXPECT_EQ(6, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(out, "abcdef", 6));
	EXPECT_EQ(-1, recv(self->fd, out, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(rx, peek_control_record)
{
	unsigned char out[100];
	int type;

	send_rec(_metadata, self, REC_TYPE_HANDSHAKE, "hs", 2, 0);
	send_rec(_metadata, self, REC_TYPE_DATA, "data", 4, 0);
	usleep(50000);
	EXPECT_EQ(2, recv_type(self->fd, out, sizeof(out), MSG_PEEK, &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(2, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(4, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "data", 4));
}

struct late_send {
	struct __test_metadata *md;
	struct peer p;
};

static void *send_later(void *arg)
{
	struct late_send *ls = arg;

	usleep(200000);
	peer_send(ls->md, &ls->p, REC_TYPE_DATA, "world", 5, 0);
	return NULL;
}

TEST_F(rx, waitall)
{
	struct late_send ls = {
		_metadata, { self->peer, &self->rk, self->wire }
	};
	unsigned char out[10];
	pthread_t t;

	send_rec(_metadata, self, REC_TYPE_DATA, "hello", 5, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, send_later, &ls));
	EXPECT_EQ(10, recv(self->fd, out, sizeof(out), MSG_WAITALL));
	EXPECT_EQ(0, memcmp(out, "helloworld", 10));
	pthread_join(t, NULL);
}

TEST_F(rx, rcvlowat)
{
	struct late_send ls = {
		_metadata, { self->peer, &self->rk, self->wire }
	};
	int lowat = 10;
	unsigned char out[20];
	pthread_t t;

	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVLOWAT, &lowat,
				sizeof(lowat)));
	send_rec(_metadata, self, REC_TYPE_DATA, "hello", 5, 0);
	ASSERT_EQ(0, pthread_create(&t, NULL, send_later, &ls));
	EXPECT_EQ(10, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(out, "helloworld", 10));
	pthread_join(t, NULL);
}

TEST_F(rx, one_byte_writes)
{
	unsigned char in[3000], out[3000];
	size_t n, i, got = 0;
	ssize_t r;

	fill(in, sizeof(in), 9);
	n = rec_seal(&self->rk, REC_TYPE_DATA, in, sizeof(in), 0,
		     self->wire);
	for (i = 0; i < n; i++) {
		ASSERT_EQ(1, send(self->peer, self->wire + i, 1, 0));
		if (i < 40 || i % 500 == 0) {
			/* Nothing is readable before the last byte. */
			EXPECT_EQ(-1, recv(self->fd, out, 1, MSG_DONTWAIT));
			EXPECT_EQ(EAGAIN, errno);
		}
	}
	while (got < sizeof(in)) {
		r = recv(self->fd, out + got, sizeof(out) - got, 0);
		ASSERT_GT(r, 0);
		got += r;
	}
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
}

static void *send_big(void *arg)
{
	struct late_send *ls = arg;
	static unsigned char in[REC_MAX_TEXT];

	fill(in, sizeof(in), 11);
	peer_send(ls->md, &ls->p, REC_TYPE_DATA, in, sizeof(in), 0);
	peer_send(ls->md, &ls->p, REC_TYPE_DATA, in, sizeof(in), 0);
	return NULL;
}

/* A receive buffer smaller than a record must not stall the stream. */
TEST_F(rx, small_rcvbuf)
{
	static unsigned char in[REC_MAX_TEXT], out[REC_MAX_TEXT * 2];
	struct timeval tv = { .tv_sec = 10 };
	struct late_send ls = {
		_metadata, { self->peer, &self->rk, self->wire }
	};
	int rcvbuf = 4096;
	size_t got = 0;
	pthread_t t;
	ssize_t n;

	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	ASSERT_EQ(0, pthread_create(&t, NULL, send_big, &ls));
	usleep(200000);
	while (got < sizeof(out)) {
		n = recv(self->fd, out + got, sizeof(out) - got, 0);
		ASSERT_GT(n, 0) {
			TH_LOG("stalled after %zu bytes: %s", got,
			       strerror(errno));
		}
		got += n;
	}
	pthread_join(t, NULL);
	fill(in, sizeof(in), 11);
	EXPECT_EQ(0, memcmp(in, out, sizeof(in)));
	EXPECT_EQ(0, memcmp(in, out + sizeof(in), sizeof(in)));
}

/*
 * Records written so that every write ends 1, 2, ... bytes into the next
 * record's header (with its explicit IV), to a reader with the smallest
 * receive buffer: the parser must join every header across writes, in
 * the queue or in copy mode.
 */
#define SPLIT_RECS	24
#define SPLIT_TEXT	3000

struct split_send {
	struct __test_metadata *md;
	int fd;
	const unsigned char *wire;
	size_t len;			/* bytes of wire */
	size_t end[SPLIT_RECS];		/* where each record ends */
	unsigned int prepend;
};

/* Send [@from, @to) of the wire; false when the socket gave up. */
static bool send_range(const struct split_send *ss, size_t from, size_t to)
{
	ssize_t n;

	while (from < to) {
		n = send(ss->fd, ss->wire + from, to - from, 0);
		if (n <= 0)
			return false;
		from += n;
	}
	return true;
}

static void *send_split(void *arg)
{
	struct split_send *ss = arg;
	size_t off = 0, to;
	unsigned int i;

	for (i = 0; i < SPLIT_RECS; i++) {
		to = ss->end[i] + 1 + i % (ss->prepend - 1);
		if (to > ss->len)
			to = ss->len;
		if (!send_range(ss, off, to))
			return NULL;
		off = to;
		usleep(20000);
	}
	return NULL;
}

TEST_F(rx, header_split_small_rcvbuf)
{
	static unsigned char in[SPLIT_TEXT], out[SPLIT_RECS * SPLIT_TEXT];
	struct timeval tv = { .tv_sec = 10 };
	struct split_send ss = { .md = _metadata, .fd = self->peer };
	size_t got = 0, off = 0;
	unsigned char *wire;
	int rcvbuf = 1;
	unsigned int i;
	pthread_t t;
	ssize_t n;

	wire = malloc(SPLIT_RECS * REC_MAX_WIRE);
	ASSERT_NE(NULL, wire);
	for (i = 0; i < SPLIT_RECS; i++) {
		fill(in, sizeof(in), i);
		off += rec_seal(&self->rk, REC_TYPE_DATA, in, sizeof(in), 0,
				wire + off);
		ss.end[i] = off;
	}
	ss.wire = wire;
	ss.len = off;
	ss.prepend = REC_HDR + self->rk.explicit_len;
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	ASSERT_EQ(0, pthread_create(&t, NULL, send_split, &ss));
	while (got < sizeof(out)) {
		n = recv(self->fd, out + got, sizeof(out) - got, 0);
		if (n <= 0)
			break;
		got += n;
	}
	EXPECT_EQ(sizeof(out), got) {
		TH_LOG("stalled after %zu bytes: %s", got, strerror(errno));
	}
	/* Unblock a sender still waiting on a shut window, then check. */
	shutdown(self->fd, SHUT_RDWR);
	pthread_join(t, NULL);
	for (i = 0; i < got / SPLIT_TEXT; i++) {
		fill(in, sizeof(in), i);
		EXPECT_EQ(0, memcmp(in, out + i * SPLIT_TEXT, SPLIT_TEXT));
	}
	free(wire);
}

/*
 * A bulk stream of small records in one write: TCP cuts it into large
 * segments at arbitrary offsets, so many a record header ends up split
 * across two skbs, at times when the receive buffer is full.  Every byte
 * must arrive, in time (a stall fails on SO_RCVTIMEO rather than hangs).
 */
#define BULK_TEXT	1000
#define BULK_RECS	8192

static void *send_all_of(void *arg)
{
	struct split_send *ss = arg;

	send_range(ss, 0, ss->len);
	return NULL;
}

TEST_F(rx, bulk_small_records)
{
	static unsigned char in[BULK_TEXT], out[256 * 1024];
	struct timeval tv = { .tv_sec = 10 };
	struct split_send ss = { .md = _metadata, .fd = self->peer };
	size_t got = 0, off = 0, want = (size_t)BULK_RECS * BULK_TEXT;
	unsigned char *wire;
	unsigned int i;
	pthread_t t;
	ssize_t n;

	wire = malloc((size_t)BULK_RECS * (BULK_TEXT + 64));
	ASSERT_NE(NULL, wire);
	fill(in, sizeof(in), 5);
	for (i = 0; i < BULK_RECS; i++)
		off += rec_seal(&self->rk, REC_TYPE_DATA, in, sizeof(in), 0,
				wire + off);
	ss.wire = wire;
	ss.len = off;
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	ASSERT_EQ(0, pthread_create(&t, NULL, send_all_of, &ss));
	while (got < want) {
		n = recv(self->fd, out, sizeof(out), 0);
		if (n <= 0)
			break;
		/* Records are whole or cut at a read's end: check by offset. */
		for (i = 0; i < n; i++)
			if (out[i] != in[(got + i) % BULK_TEXT])
				break;
		ASSERT_EQ(n, i);
		got += n;
	}
	EXPECT_EQ(want, got) {
		TH_LOG("stalled after %zu bytes: %s", got, strerror(errno));
	}
	shutdown(self->fd, SHUT_RDWR);
	pthread_join(t, NULL);
	free(wire);
}

TEST_F(rx, nonblock_and_timeout)
{
	struct timeval tv = { .tv_usec = 100000 };
	unsigned char out[10];

	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(rx, eof)
{
	unsigned char out[10];

	send_rec(_metadata, self, REC_TYPE_DATA, "bye", 3, 0);
	shutdown(self->peer, SHUT_WR);
	EXPECT_EQ(3, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(0, recv(self->fd, out, sizeof(out), 0));
}

TEST_F(rx, bad_tag)
{
	long long dec0 = ulp_stat(variant->ulp, "TlsDecryptError");
	unsigned char out[10];
	size_t n;
	int err = 0;
	socklen_t len = sizeof(err);

	n = rec_seal(&self->rk, REC_TYPE_DATA, "secret", 6, 0, self->wire);
	self->wire[n - 1] ^= 1;
	ASSERT_EQ((ssize_t)n, send(self->peer, self->wire, n, 0));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EBADMSG, errno);
	/* The socket is left in error, as kTLS's tls_err_abort(). */
	EXPECT_EQ(0, getsockopt(self->fd, SOL_SOCKET, SO_ERROR, &err, &len));
	EXPECT_EQ(EBADMSG, err);
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EBADMSG, errno);
	if (dec0 >= 0)
		EXPECT_LT(dec0, ulp_stat(variant->ulp, "TlsDecryptError"));
}

TEST_F(rx, oversized)
{
	long long bad0 = ulp_stat("tlsx", "TlsxRxBadRecord");
	unsigned char hdr[5] = { REC_TYPE_DATA, 3, 3 };
	unsigned int len = REC_MAX_TEXT + REC_TAG + 1 +
			   (is13(variant->version) ? 1 : 0) +
			   (self->rk.explicit_len);
	unsigned char out[10];

	hdr[3] = len >> 8;
	hdr[4] = len & 0xff;
	ASSERT_EQ(5, send(self->peer, hdr, 5, 0));
	if (self->rk.explicit_len)
		ASSERT_EQ(8, send(self->peer, "\0\0\0\0\0\0\0\0", 8, 0));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EMSGSIZE, errno);
	/* tlsx counts malformed headers; kTLS has no such counter. */
	if (!strcmp(variant->ulp, "tlsx"))
		EXPECT_EQ(bad0 + 1, ulp_stat("tlsx", "TlsxRxBadRecord"));
}

TEST_F(rx, largest_allowed_length_waits)
{
	unsigned char hdr[5] = { REC_TYPE_DATA, 3, 3 };
	unsigned int len = REC_MAX_TEXT + REC_TAG +
			   (is13(variant->version) ? 1 : 0) + self->rk.explicit_len;
	unsigned char out[10];

	hdr[3] = len >> 8;
	hdr[4] = len & 0xff;
	ASSERT_EQ(5, send(self->peer, hdr, 5, 0));
	if (self->rk.explicit_len)
		ASSERT_EQ(8, send(self->peer, "\0\0\0\0\0\0\0\0", 8, 0));
	usleep(50000);
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(rx, too_short)
{
	unsigned char rec[5 + 15] = { REC_TYPE_DATA, 3, 3, 0, 15 };
	unsigned char out[10];

	ASSERT_EQ(sizeof(rec), send(self->peer, rec, sizeof(rec), 0));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EBADMSG, errno);
}

TEST_F(rx, bad_version)
{
	unsigned char out[10];
	size_t n;

	n = rec_seal(&self->rk, REC_TYPE_DATA, "x", 1, 0, self->wire);
	self->wire[2] = 1;
	ASSERT_EQ((ssize_t)n, send(self->peer, self->wire, n, 0));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EINVAL, errno);
}

TEST_F(rx, tls13_padding)
{
	long long v0 = ulp_stat(variant->ulp, "TlsRxNoPadViolation");
	unsigned char out[10];
	int type;

	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	send_rec(_metadata, self, REC_TYPE_DATA, "pad", 3, 100);
	EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "pad", 3));
	/* Padding is no violation without TLS_RX_EXPECT_NO_PAD. */
	if (v0 >= 0)
		EXPECT_EQ(v0, ulp_stat(variant->ulp, "TlsRxNoPadViolation"));
	/* Padding only, no content type: EBADMSG. */
	send_rec(_metadata, self, 0, "", 0, 20);
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EBADMSG, errno);
}

/* Read data records until @len bytes are in @out; each read is data. */
static void recv_data(struct __test_metadata *_metadata, int fd,
		      unsigned char *out, size_t len)
{
	size_t got = 0;
	ssize_t n;
	int type;

	while (got < len) {
		n = recv_type(fd, out + got, len - got + REC_MAX_TEXT, 0,
			      &type);
		ASSERT_GT(n, 0);
		ASSERT_LE((size_t)n, len - got);
		EXPECT_EQ(REC_TYPE_DATA, type);
		got += n;
	}
}

/*
 * Padded and unpadded data records, and a control record, read into
 * buffers they fit: tlsx first decrypts a TLS 1.3 record into the buffer
 * on the guess that it is unpadded data, and opens it again when it is
 * not.  The bytes returned must be exactly those of the data records, in
 * order, whatever a wrong guess wrote; the control record comes alone.
 */
TEST_F(rx, tls13_guess_and_padding)
{
	static const struct {
		unsigned char type;
		size_t len, pad;
	} recs[] = {
		{ REC_TYPE_DATA, 5000, 0 },
		{ REC_TYPE_DATA, 3, 0 },
		{ REC_TYPE_DATA, 4000, 300 },
		{ REC_TYPE_HANDSHAKE, 40, 0 },
		{ REC_TYPE_DATA, 2000, 0 },
		{ REC_TYPE_DATA, 100, 10000 },
		{ REC_TYPE_DATA, REC_MAX_TEXT - 1, 1 },
		{ REC_TYPE_DATA, 7000, 0 },
	};
	static unsigned char in[ARRAY_SIZE(recs)][REC_MAX_TEXT];
	static unsigned char want[2][4 * REC_MAX_TEXT];
	static unsigned char out[5 * REC_MAX_TEXT];
	size_t len[2] = { 0, 0 }, i, part = 0;
	unsigned char ctl[100];
	int type;

	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	for (i = 0; i < ARRAY_SIZE(recs); i++) {
		fill(in[i], recs[i].len, i + 1);
		send_rec(_metadata, self, recs[i].type, in[i], recs[i].len,
			 recs[i].pad);
		if (recs[i].type != REC_TYPE_DATA) {
			part++;
			continue;
		}
		memcpy(want[part] + len[part], in[i], recs[i].len);
		len[part] += recs[i].len;
	}
	usleep(50000);

	recv_data(_metadata, self->fd, out, len[0]);
	EXPECT_EQ(0, memcmp(out, want[0], len[0]));
	EXPECT_EQ(40, recv_type(self->fd, ctl, sizeof(ctl), 0, &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(0, memcmp(ctl, in[3], 40));
	recv_data(_metadata, self->fd, out, len[1]);
	EXPECT_EQ(0, memcmp(out, want[1], len[1]));
	EXPECT_EQ(-1, recv(self->fd, out, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
}

TEST_F(rx, tls13_no_pad_violation)
{
	long long v0 = ulp_stat(variant->ulp, "TlsRxNoPadViolation");
	unsigned char out[10];
	int one = 1;

	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX_EXPECT_NO_PAD,
				&one, sizeof(one)));
	send_rec(_metadata, self, REC_TYPE_DATA, "pad", 3, 5);
	EXPECT_EQ(3, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(out, "pad", 3));
	if (v0 >= 0)
		EXPECT_EQ(v0 + 1,
			  ulp_stat(variant->ulp, "TlsRxNoPadViolation"));
}

TEST_F(rx, key_update)
{
	static const unsigned char ku[] = { 24, 0, 0, 1, 0 };
	long long rcv0, ok0;
	struct rec_info next;
	unsigned char out[100];
	struct pollfd pfd;
	int type;

	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	if (!strcmp(variant->ulp, "tls"))
		SKIP(return, "kTLS 6.12 has no RX rekey (6.14 has)");

	rcv0 = ulp_stat(variant->ulp, "TlsRxRekeyReceived");
	ok0 = ulp_stat(variant->ulp, "TlsRxRekeyOk");
	send_rec(_metadata, self, REC_TYPE_DATA, "old", 3, 0);
	send_rec(_metadata, self, REC_TYPE_HANDSHAKE, ku, sizeof(ku), 0);
	rec_info_init(&next, variant->version, variant->cipher, 2);
	ASSERT_EQ(0, rec_key_init(&self->rk, &next));
	send_rec(_metadata, self, REC_TYPE_DATA, "new", 3, 0);
	usleep(50000);

	EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EIO, errno);
	EXPECT_EQ(sizeof(ku), recv_type(self->fd, out, sizeof(out), 0,
					&type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(0, memcmp(out, ku, sizeof(ku)));
	EXPECT_EQ(rcv0 + 1, ulp_stat(variant->ulp, "TlsRxRekeyReceived"));

	/* The data after it is under the next key: refused, not readable. */
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(EKEYEXPIRED, errno);
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EKEYEXPIRED, errno);
	pfd.fd = self->fd;
	pfd.events = POLLIN;
	EXPECT_EQ(0, poll(&pfd, 1, 50));

	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX, &next, next.len));
	EXPECT_EQ(ok0 + 1, ulp_stat(variant->ulp, "TlsRxRekeyOk"));
	EXPECT_EQ(1, poll(&pfd, 1, 1000));
	EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "new", 3));
}

/*
 * A KeyUpdate split over two records (RFC 8446 5.1 lets a message span
 * records) and behind a NewSessionTicket in the first: reading pauses
 * where it ends.  Judged by a record's first byte, the first record
 * (a ticket's) was no KeyUpdate, nor the second (its rest), and the data
 * under the next key failed to open; a KeyUpdate split at its start
 * paused after its first fragment, its rest held for good.
 */
TEST_F(rx, key_update_split)
{
	static const unsigned char nst_ku[] = { 4, 0, 0, 2, 0xaa, 0xbb,
						24, 0 };
	static const unsigned char rest[] = { 0, 1, 0 };
	struct rec_info next;
	unsigned char out[100];
	int type;

	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	if (!strcmp(variant->ulp, "tls"))
		SKIP(return, "kTLS 6.12 has no RX rekey (6.14 has)");

	send_rec(_metadata, self, REC_TYPE_HANDSHAKE, nst_ku, sizeof(nst_ku),
		 0);
	send_rec(_metadata, self, REC_TYPE_HANDSHAKE, rest, sizeof(rest), 0);
	rec_info_init(&next, variant->version, variant->cipher, 2);
	ASSERT_EQ(0, rec_key_init(&self->rk, &next));
	send_rec(_metadata, self, REC_TYPE_DATA, "new", 3, 0);
	usleep(50000);

	EXPECT_EQ(sizeof(nst_ku), recv_type(self->fd, out, sizeof(out), 0,
					    &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(sizeof(rest), recv_type(self->fd, out, sizeof(out), 0,
					  &type));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(0, memcmp(out, rest, sizeof(rest)));
	EXPECT_EQ(-1, recv(self->fd, out, sizeof(out), MSG_DONTWAIT));
	EXPECT_EQ(EKEYEXPIRED, errno);

	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX, &next, next.len));
	EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0, &type));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(out, "new", 3));
}

TEST_F(rx, poll_whole_record_only)
{
	struct pollfd pfd = { .fd = self->fd, .events = POLLIN };
	unsigned char out[100];
	size_t n;

	if (old_ktls(variant->ulp, 6, 12))
		SKIP(return, "6.1's tls polls readable on part of a record");
	n = rec_seal(&self->rk, REC_TYPE_DATA, "polled", 6, 0, self->wire);
	ASSERT_EQ((ssize_t)n - 1, send(self->peer, self->wire, n - 1, 0));
	EXPECT_EQ(0, poll(&pfd, 1, 100));
	ASSERT_EQ(1, send(self->peer, self->wire + n - 1, 1, 0));
	EXPECT_EQ(1, poll(&pfd, 1, 1000));
	EXPECT_TRUE(pfd.revents & POLLIN);
	EXPECT_EQ(6, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ(0, poll(&pfd, 1, 0));
}

TEST_F(rx, splice_to_pipe)
{
	static unsigned char in[REC_MAX_TEXT], out[REC_MAX_TEXT];
	int p[2];

	fill(in, sizeof(in), 5);
	ASSERT_EQ(0, pipe(p));
	send_rec(_metadata, self, REC_TYPE_DATA, in, 5000, 0);
	EXPECT_EQ(5000, splice(self->fd, NULL, p[1], NULL, sizeof(in), 0));
	EXPECT_EQ(5000, read(p[0], out, sizeof(out)));
	EXPECT_EQ(0, memcmp(in, out, 5000));

	/* Partial splice; the rest stays for recv. */
	send_rec(_metadata, self, REC_TYPE_DATA, in, 3000, 0);
	EXPECT_EQ(1000, splice(self->fd, NULL, p[1], NULL, 1000, 0));
	EXPECT_EQ(1000, read(p[0], out, sizeof(out)));
	EXPECT_EQ(2000, recv(self->fd, out + 1000, sizeof(out), 0));
	EXPECT_EQ(0, memcmp(in, out, 3000));

	/* A control record cannot be spliced. */
	send_rec(_metadata, self, REC_TYPE_ALERT, "\x01\x00", 2, 0);
	EXPECT_EQ(-1, splice(self->fd, NULL, p[1], NULL, 100, 0));
	EXPECT_EQ(EINVAL, errno);
	close(p[0]);
	close(p[1]);
}

/*
 * Free memory in KiB, or -1: the free pages of every zone plus those on
 * the per-CPU lists (/proc/zoneinfo), which MemFree leaves out, so that
 * pages freed and taken again through those lists do not hide a change.
 */
static long free_kb(void)
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	long pages = 0, n;
	char line[128];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, " nr_free_pages %ld", &n) == 1 ||
		    sscanf(line, " count: %ld", &n) == 1)
			pages += n;
	fclose(f);
	return pages * (sysconf(_SC_PAGESIZE) / 1024);
}

#define STREAM_RECS	8000
/* What the reader may hold while the peer streams STREAM_RECS records. */
#define STREAM_MEM_KB	4096

/* The peer's side of a stream of small records, sent from a thread. */
struct rec_stream {
	int fd;
	const unsigned char *wire;
	size_t len;
	int err;
};

static void *stream_send(void *arg)
{
	struct rec_stream *rs = arg;
	size_t done = 0;
	ssize_t n;

	while (done < rs->len) {
		n = send(rs->fd, rs->wire + done, rs->len - done, MSG_NOSIGNAL);
		if (n <= 0) {
			rs->err = errno;
			break;
		}
		done += n;
	}
	return NULL;
}

/* Seal @nrec records of @len bytes of 'e' (then @tail, if given). */
static unsigned char *seal_stream(struct rec_key *rk, unsigned int nrec,
				  size_t len, const char *tail, size_t *wire)
{
	unsigned char *buf = malloc((size_t)nrec * (REC_HDR + 8 + len + 1 +
						    REC_TAG) + REC_MAX_WIRE);
	size_t n = 0;
	unsigned int i;

	if (!buf)
		return NULL;
	for (i = 0; i < nrec; i++)
		n += rec_seal(rk, REC_TYPE_DATA, "eeee", len, 0, buf + n);
	if (tail)
		n += rec_seal(rk, REC_TYPE_DATA, tail, strlen(tail), 0,
			      buf + n);
	*wire = n;
	return buf;
}

/*
 * A peer streams empty data records (legal in TLS 1.2 and 1.3) to a
 * reader blocked in recv(MSG_PEEK) for one byte.  Each record gives the
 * reader nothing, so it reads on; what it keeps of them must stay
 * bounded (tlsx kept each on its list, a page and an allocation per 21
 * to 29 bytes of wire, outside TCP's flow control, until 2026-12 and
 * issue #14; now it keeps none).  Measured as the guest's free memory
 * while the records are in flight and read.
 */
TEST_F(rx, peek_empty_records_memory_bounded)
{
	struct timeval tv = { .tv_sec = 60 };
	struct rec_stream rs = { .fd = self->peer };
	unsigned char *buf, out[16];
	long before, after;
	pthread_t t;

	buf = seal_stream(&self->rk, STREAM_RECS, 0, "x", &rs.len);
	ASSERT_NE(NULL, buf);
	rs.wire = buf;
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	before = free_kb();
	ASSERT_EQ(0, pthread_create(&t, NULL, stream_send, &rs));
	EXPECT_EQ(1, recv(self->fd, out, 1, MSG_PEEK));
	after = free_kb();
	pthread_join(t, NULL);
	EXPECT_EQ(0, rs.err);
	EXPECT_EQ('x', out[0]);
	if (!strcmp(variant->ulp, "tls")) {
		free(buf);
		SKIP(return, "kTLS 6.12 keeps each peeked empty record on its rx_list (%ld KiB here)",
		     before - after);
	}
	TH_LOG("%d empty records under MSG_PEEK took %ld KiB", STREAM_RECS,
	       before - after);
	EXPECT_GT(STREAM_MEM_KB, before - after);
	/* Then read as data: the byte once, and nothing else. */
	EXPECT_EQ(1, recv(self->fd, out, sizeof(out), 0));
	EXPECT_EQ('x', out[0]);
	EXPECT_EQ(-1, recv(self->fd, out, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	free(buf);
}

/*
 * The same with one-byte records and recv(MSG_PEEK | MSG_WAITALL) for
 * more than the peer sends: a peek may not hold decrypted records
 * without bound either (tlsx: about the socket's receive buffer, then
 * it returns what it has).
 */
TEST_F(rx, peek_waitall_memory_bounded)
{
	static unsigned char out[2 * STREAM_RECS];
	struct timeval tv = { .tv_sec = 5 };
	struct rec_stream rs = { .fd = self->peer };
	int rcvbuf = 64 << 10;
	long before, after;
	unsigned char *buf;
	size_t got = 0;
	pthread_t t;
	ssize_t n;

	buf = seal_stream(&self->rk, STREAM_RECS, 1, NULL, &rs.len);
	ASSERT_NE(NULL, buf);
	rs.wire = buf;
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf,
				sizeof(rcvbuf)));
	ASSERT_EQ(0, setsockopt(self->fd, SOL_SOCKET, SO_RCVTIMEO, &tv,
				sizeof(tv)));
	before = free_kb();
	ASSERT_EQ(0, pthread_create(&t, NULL, stream_send, &rs));
	n = recv(self->fd, out, sizeof(out), MSG_PEEK | MSG_WAITALL);
	after = free_kb();
	EXPECT_LT(0, n);
	TH_LOG("a peek of %zd one-byte records took %ld KiB", n,
	       before - after);
	if (strcmp(variant->ulp, "tls"))
		EXPECT_GT(STREAM_MEM_KB, before - after);
	/* Everything still arrives, once, in order. */
	while (got < STREAM_RECS) {
		n = recv(self->fd, out + got, sizeof(out) - got, 0);
		ASSERT_LT(0, n);
		got += n;
	}
	pthread_join(t, NULL);
	EXPECT_EQ(STREAM_RECS, got);
	EXPECT_EQ(0, rs.err);
	EXPECT_EQ(-1, recv(self->fd, out, 1, MSG_DONTWAIT));
	EXPECT_EQ(EAGAIN, errno);
	free(buf);
	if (!strcmp(variant->ulp, "tls"))
		SKIP(return, "kTLS 6.12 keeps every peeked record on its rx_list (%ld KiB here)",
		     before - after);
}

#define GUESS_PATTERN	0xa5

/*
 * Bytes of @out from @from on must be the caller's (GUESS_PATTERN) or
 * zero: never text of a record the read did not return.
 */
static void expect_untouched(struct __test_metadata *_metadata,
			     const unsigned char *out, size_t from,
			     size_t len, const char *what)
{
	size_t i;

	for (i = from; i < len; i++)
		if (out[i] != GUESS_PATTERN && out[i])
			break;
	EXPECT_EQ(len, i) {
		TH_LOG("%s: byte %zu past the %zu returned is 0x%02x",
		       what, i - from, from, out[i]);
	}
}

/*
 * Read, into a buffer full of GUESS_PATTERN, data followed by a record
 * that is not unpadded data: a NewSessionTicket-like handshake record,
 * an alert, a padded data record.  TLS 1.3 hides the type, so a reader
 * that decrypts straight into the buffer on a guess writes the text of
 * the next record there before knowing its type; what it leaves there
 * past the bytes returned must not be that text.
 */
static void guess_leaves_nothing(struct __test_metadata *_metadata,
				 struct _test_data_rx *self)
{
	static const struct {
		const char *what;
		unsigned char type;
		size_t len, pad;
	} recs[] = {
		{ "ticket after data", REC_TYPE_HANDSHAKE, 200, 0 },
		{ "alert after data", REC_TYPE_ALERT, 2, 0 },
		{ "padded data", REC_TYPE_DATA, 300, 100 },
		{ "padded ticket", REC_TYPE_HANDSHAKE, 200, 50 },
	};
	unsigned char secret[300], out[1000];
	size_t i;
	int type;

	memset(secret, 0x5c, sizeof(secret));
	for (i = 0; i < ARRAY_SIZE(recs); i++) {
		size_t lead = recs[i].type == REC_TYPE_DATA ? 0 : 3;

		if (lead)
			send_rec(_metadata, self, REC_TYPE_DATA, "abc", 3, 0);
		send_rec(_metadata, self, recs[i].type, secret, recs[i].len,
			 recs[i].pad);
		usleep(50000);
		memset(out, GUESS_PATTERN, sizeof(out));
		if (lead) {
			EXPECT_EQ(3, recv_type(self->fd, out, sizeof(out), 0,
					       &type));
			EXPECT_EQ(0, memcmp(out, "abc", 3));
			expect_untouched(_metadata, out, 3, sizeof(out),
					 recs[i].what);
			memset(out, GUESS_PATTERN, sizeof(out));
		}
		EXPECT_EQ((int)recs[i].len,
			  recv_type(self->fd, out, sizeof(out), 0, &type));
		EXPECT_EQ(recs[i].type, type);
		EXPECT_EQ(0, memcmp(out, secret, recs[i].len));
		expect_untouched(_metadata, out, recs[i].len, sizeof(out),
				 recs[i].what);
	}
}

TEST_F(rx, tls13_guess_leaves_no_text)
{
	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	guess_leaves_nothing(_metadata, self);
}

/*
 * The same on the reader's promise of no padding (TLS_RX_EXPECT_NO_PAD),
 * where kTLS guesses too.
 */
TEST_F(rx, tls13_no_pad_guess_leaves_no_text)
{
	int one = 1;

	if (!is13(variant->version))
		SKIP(return, "TLS 1.3 only");
	if (!strcmp(variant->ulp, "tls"))
		SKIP(return, "kTLS 6.12 leaves a wrong guess's text in the buffer on this promise");
	ASSERT_EQ(0, setsockopt(self->fd, SOL_TLS, TLS_RX_EXPECT_NO_PAD,
				&one, sizeof(one)));
	guess_leaves_nothing(_metadata, self);
}

TEST_HARNESS_MAIN
