// SPDX-License-Identifier: GPL-2.0
/*
 * tx.c - the transmit path seen from the wire: a socket with TLS_TX sends,
 * the peer reads raw TCP (no TLS_RX) and opens every record in userspace
 * with the project's AEAD, checking header, sequence number, explicit
 * nonce, record boundaries and types.  Run against tlsx and the kernel's
 * tls, TLS 1.2 and 1.3, AES-128-GCM, AES-256-GCM and ChaCha20-Poly1305.
 */
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/sendfile.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>

#include "tlsx_test.h"
#include "tlsx_rec.h"
#include "kselftest_harness.h"
#include "../kmod/tlsx_uapi.h"

#define MAXREC	REC_MAX_TEXT

/*
 * rec_read() - read one record from raw @fd and open it with @rk: header
 * checks, the explicit nonce kTLS puts in TLS 1.2 AES-GCM records (the
 * IV's last 8 bytes, counted per record), the TLS 1.3 inner type.
 * Return: its plaintext length, -1 on EOF/timeout, -2 on a bad header or
 * tag.  *@type gets the record's type.
 */
static int rec_read(int fd, struct rec_key *rk, unsigned char *type,
		    unsigned char *out)
{
	unsigned char hdr[REC_HDR], body[REC_MAX_WIRE], nonce[12], aad[13];
	size_t len, clen, aad_len;
	ssize_t got;
	int i;

	got = recv(fd, hdr, REC_HDR, MSG_WAITALL);
	if (got != REC_HDR)
		return -1;
	len = (size_t)hdr[3] << 8 | hdr[4];
	if (hdr[1] != 3 || hdr[2] != 3 ||
	    len < (size_t)rk->explicit_len + REC_TAG ||
	    len > REC_MAX_WIRE - REC_HDR)
		return -2;
	if (recv(fd, body, len, MSG_WAITALL) != (ssize_t)len)
		return -1;

	memcpy(nonce, rk->nonce, 12);
	if (rk->explicit_len) {
		if (memcmp(body, rk->explicit_iv, 8))
			return -2;
		memcpy(nonce + 4, body, 8);
		for (i = 7; i >= 0 && !++rk->explicit_iv[i]; i--)
			;
	} else {
		for (i = 0; i < 8; i++)
			nonce[4 + i] ^= (unsigned char)(rk->seq >> (56 - 8 * i));
	}
	clen = len - rk->explicit_len - REC_TAG;
	if (rk->version == TLS_1_3_VERSION) {
		if (hdr[0] != REC_TYPE_DATA)
			return -2;
		memcpy(aad, hdr, REC_HDR);
		aad_len = REC_HDR;
	} else {
		for (i = 0; i < 8; i++)
			aad[i] = (unsigned char)(rk->seq >> (56 - 8 * i));
		aad[8] = hdr[0];
		aad[9] = 3;
		aad[10] = 3;
		aad[11] = (unsigned char)(clen >> 8);
		aad[12] = (unsigned char)clen;
		aad_len = 13;
	}
	if (tlsx_aead_open(&rk->aead, nonce, aad, aad_len,
			   body + rk->explicit_len, out, clen,
			   body + rk->explicit_len + clen))
		return -2;
	rk->seq++;
	if (rk->version == TLS_1_3_VERSION) {
		/* Senders add no padding: the type is the last byte. */
		if (!clen || !out[clen - 1])
			return -2;
		*type = out[--clen];
	} else {
		*type = hdr[0];
	}
	return (int)clen;
}

/* Is there anything to read on @fd within @ms milliseconds? */
static int readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

static void fill(unsigned char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (unsigned char)((i * 131 + seed * 7 + (i >> 9)) & 0xff);
}

#define SEAL_LIMIT_FILE "/sys/kernel/debug/tlsx/seal_limit"

static int seal_limit_set(unsigned long long v)
{
	FILE *f = fopen(SEAL_LIMIT_FILE, "w");
	int err;

	if (!f)
		return -errno;
	err = fprintf(f, "%llu\n", v) < 0;
	return fclose(f) || err ? -EIO : 0;
}

FIXTURE(tx)
{
	int cfd;		/* TLS_TX */
	int sfd;		/* raw peer */
	struct rec_info ri;
	struct rec_key rk;
	unsigned char *buf;	/* plaintext scratch */
	unsigned char *out;
	bool seal_limit;	/* seal_limit set: reset at teardown */
};

FIXTURE_VARIANT(tx)
{
	const char *ulp;
	unsigned short version;
	unsigned short cipher;
};

FIXTURE_VARIANT_ADD(tx, tlsx_12_aes128)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(tx, tlsx_12_aes256)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(tx, tlsx_12_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(tx, tlsx_12_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(tx, tlsx_13_aes128)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(tx, tlsx_13_aes256)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(tx, tlsx_13_chacha)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(tx, tlsx_13_ccm)
{
	.ulp = "tlsx",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(tx, tls_12_aes128)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(tx, tls_12_aes256)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(tx, tls_12_chacha)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(tx, tls_12_ccm)
{
	.ulp = "tls",
	.version = TLS_1_2_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(tx, tls_13_aes128)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(tx, tls_13_aes256)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(tx, tls_13_chacha)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(tx, tls_13_ccm)
{
	.ulp = "tls",
	.version = TLS_1_3_VERSION,
	.cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_SETUP(tx)
{
	ASSERT_TRUE(ulp_available(variant->ulp)) {
		TH_LOG("ULP %s is not registered", variant->ulp);
	}
	ASSERT_EQ(0, tcp_pair(&self->cfd, &self->sfd));
	ASSERT_EQ(0, setsockopt(self->cfd, IPPROTO_TCP, TCP_ULP, variant->ulp,
				strlen(variant->ulp)));
	rec_info_init(&self->ri, variant->version, variant->cipher, 1);
	ASSERT_EQ(0, rec_key_init(&self->rk, &self->ri));
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &self->ri,
				self->ri.len));
	self->buf = malloc(1 << 20);
	self->out = malloc(REC_MAX_WIRE);
	ASSERT_NE(NULL, self->buf);
	ASSERT_NE(NULL, self->out);
}

FIXTURE_TEARDOWN(tx)
{
	/* A test cut short must not leave the module's limit lowered. */
	if (self->seal_limit)
		seal_limit_set(0);
	close(self->cfd);
	close(self->sfd);
	free(self->buf);
	free(self->out);
}

/*
 * Read records until @total plaintext bytes arrived, all of @type,
 * comparing with @want; each record at most 16 KiB.  Return: records.
 */
static int read_stream(struct __test_metadata *_metadata,
		       struct _test_data_tx *self, const unsigned char *want,
		       size_t total, unsigned char want_type)
{
	size_t at = 0;
	int nrec = 0;

	while (at < total) {
		unsigned char type = 0;
		int n;

		if (!readable(self->sfd, 5000))
			break;
		n = rec_read(self->sfd, &self->rk, &type, self->out);
		EXPECT_GT(n, 0) {
			TH_LOG("record %d at %zu: %d", nrec, at, n);
			return -1;
		}
		if (n <= 0)
			return -1;
		EXPECT_EQ(want_type, type);
		EXPECT_GE(total - at, (size_t)n);
		if ((size_t)n > total - at)
			return -1;
		EXPECT_EQ(0, memcmp(self->out, want + at, n)) {
			TH_LOG("record %d at %zu differs", nrec, at);
		}
		at += n;
		nrec++;
	}
	EXPECT_EQ(total, at);
	return nrec;
}

TEST_F(tx, one_record)
{
	unsigned char type;

	fill(self->buf, 100, 1);
	ASSERT_EQ(100, send(self->cfd, self->buf, 100, 0));
	ASSERT_EQ(100, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp(self->buf, self->out, 100));
}

/* Sequence numbers and explicit nonces count up record by record. */
TEST_F(tx, many_records_in_sequence)
{
	unsigned char type;
	int i;

	for (i = 0; i < 64; i++) {
		fill(self->buf, i + 1, i);
		ASSERT_EQ(i + 1, send(self->cfd, self->buf, i + 1, 0));
		ASSERT_EQ(i + 1, rec_read(self->sfd, &self->rk, &type,
					  self->out));
		ASSERT_EQ(0, memcmp(self->buf, self->out, i + 1));
	}
}

/* One large send is cut into 16 KiB records, the rest in the last. */
TEST_F(tx, split_at_16k)
{
	size_t total = 3 * MAXREC + 100;
	unsigned char type;
	int i;

	fill(self->buf, total, 2);
	ASSERT_EQ((ssize_t)total, send(self->cfd, self->buf, total, 0));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(MAXREC, rec_read(self->sfd, &self->rk, &type,
					   self->out));
		EXPECT_EQ(0, memcmp(self->buf + i * MAXREC, self->out,
				    MAXREC));
	}
	ASSERT_EQ(100, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf + 3 * MAXREC, self->out, 100));
	EXPECT_FALSE(readable(self->sfd, 50));
}

/* writev with many small iovecs: one record (ITER_IOVEC). */
TEST_F(tx, writev_iovecs)
{
	struct iovec iov[32];
	unsigned char type;
	int i;

	fill(self->buf, 32 * 37, 3);
	for (i = 0; i < 32; i++) {
		iov[i].iov_base = self->buf + i * 37;
		iov[i].iov_len = 37;
	}
	ASSERT_EQ(32 * 37, writev(self->cfd, iov, 32));
	ASSERT_EQ(32 * 37, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf, self->out, 32 * 37));
}

/*
 * Full records from user memory at odd offsets: sealed from the user's
 * pages in place (the pieces start and end inside pages).
 */
TEST_F(tx, unaligned_full_records)
{
	size_t total = 2 * MAXREC + 3000;
	int off;

	for (off = 1; off < 4096; off += 1365) {
		fill(self->buf + off, total, off);
		ASSERT_EQ((ssize_t)total,
			  send(self->cfd, self->buf + off, total, 0));
		ASSERT_EQ(3, read_stream(_metadata, self, self->buf + off,
					 total, REC_TYPE_DATA));
	}
	EXPECT_FALSE(readable(self->sfd, 50));
}

/*
 * A full record from more iovecs than it takes pages by reference: the
 * rest of the record is copied; the data arrive whole and in order.
 */
TEST_F(tx, writev_many_iovecs_full_record)
{
	unsigned char *want = malloc(1 << 16), *p = self->buf;
	struct iovec iov[48];
	size_t total = 0;
	int i;

	ASSERT_NE(NULL, want);
	for (i = 0; i < 48; i++) {
		/* Gaps between the pieces: nothing is contiguous. */
		iov[i].iov_base = p;
		iov[i].iov_len = 300 + i * 7;
		fill(p, iov[i].iov_len, i);
		memcpy(want + total, p, iov[i].iov_len);
		total += iov[i].iov_len;
		p += iov[i].iov_len + 64;
	}
	ASSERT_EQ((ssize_t)total, writev(self->cfd, iov, 48));
	EXPECT_EQ(2, read_stream(_metadata, self, want, total,
				 REC_TYPE_DATA));
	free(want);
}

/*
 * A send whose buffer faults part way through a full record: EFAULT,
 * nothing of it on the wire, text an earlier MSG_MORE left in the open
 * record kept, and the socket goes on (as kTLS).
 */
TEST_F(tx, fault_in_full_record)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *map, *p;
	size_t len = MAXREC;

	map = mmap(NULL, 8 * page, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, map);
	/* Two readable pages from an odd offset, then a hole. */
	ASSERT_EQ(0, mprotect(map + 2 * page, page, PROT_NONE));
	p = map + 100;
	fill(p, 2 * page - 100, 9);

	EXPECT_EQ(-1, send(self->cfd, p, len, 0));
	EXPECT_EQ(EFAULT, errno);
	EXPECT_FALSE(readable(self->sfd, 100));

	fill(self->buf, 100, 10);
	ASSERT_EQ(60, send(self->cfd, self->buf, 60, MSG_MORE));
	EXPECT_EQ(-1, send(self->cfd, p, len, 0));
	EXPECT_EQ(EFAULT, errno);
	ASSERT_EQ(40, send(self->cfd, self->buf + 60, 40, 0));
	EXPECT_EQ(1, read_stream(_metadata, self, self->buf, 100,
				 REC_TYPE_DATA));

	/* The readable part alone goes out whole. */
	ASSERT_EQ((ssize_t)(2 * page - 100),
		  send(self->cfd, p, 2 * page - 100, 0));
	EXPECT_EQ(1, read_stream(_metadata, self, p, 2 * page - 100,
				 REC_TYPE_DATA));
	munmap(map, 8 * page);
}

/* MSG_MORE keeps the record open; the next plain send closes it. */
TEST_F(tx, msg_more_coalesces)
{
	unsigned char type;

	fill(self->buf, 40, 4);
	ASSERT_EQ(10, send(self->cfd, self->buf, 10, MSG_MORE));
	ASSERT_EQ(10, send(self->cfd, self->buf + 10, 10, MSG_MORE));
	ASSERT_EQ(10, send(self->cfd, self->buf + 20, 10, MSG_MORE));
	EXPECT_FALSE(readable(self->sfd, 100));
	ASSERT_EQ(10, send(self->cfd, self->buf + 30, 10, 0));
	ASSERT_EQ(40, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf, self->out, 40));
}

/* Under MSG_MORE a record closes when it reaches 16 KiB. */
TEST_F(tx, msg_more_fills_record)
{
	size_t chunk = 5000, total = 4 * chunk;
	unsigned char type;
	size_t i;

	fill(self->buf, total, 5);
	for (i = 0; i < 4; i++)
		ASSERT_EQ((ssize_t)chunk, send(self->cfd, self->buf + i * chunk,
					       chunk, MSG_MORE));
	ASSERT_EQ(MAXREC, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf, self->out, MAXREC));
	EXPECT_FALSE(readable(self->sfd, 100));
	ASSERT_EQ(0, send(self->cfd, "", 0, 0));
	/* A zero-length send does not close the record (as kTLS). */
	EXPECT_FALSE(readable(self->sfd, 100));
	ASSERT_EQ(1, send(self->cfd, self->buf + total, 1, 0));
	ASSERT_EQ(total + 1 - MAXREC,
		  rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf + MAXREC, self->out,
			    total + 1 - MAXREC));
}

TEST_F(tx, msg_eor)
{
	unsigned char type;

	if (old_ktls(variant->ulp, 6, 12))
		SKIP(return, "6.1's tls refuses MSG_EOR (EOPNOTSUPP)");
	ASSERT_EQ(5, send(self->cfd, "hello", 5, MSG_EOR));
	ASSERT_EQ(5, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp("hello", self->out, 5));
	EXPECT_EQ(-1, send(self->cfd, "x", 1, MSG_EOR | MSG_MORE));
	EXPECT_EQ(EINVAL, errno);
	EXPECT_EQ(-1, send(self->cfd, "x", 1, MSG_OOB));
	EXPECT_EQ(EOPNOTSUPP, errno);
}

/* Records of other types: their own records, closing an open one. */
TEST_F(tx, record_types)
{
	unsigned char type;

	ASSERT_EQ(3, send(self->cfd, "aaa", 3, MSG_MORE));
	ASSERT_EQ(4, send_type(self->cfd, "bbbb", 4, 0, REC_TYPE_HANDSHAKE));
	ASSERT_EQ(2, send(self->cfd, "cc", 2, 0));
	ASSERT_EQ(3, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(REC_TYPE_DATA, type);
	EXPECT_EQ(0, memcmp("aaa", self->out, 3));
	ASSERT_EQ(4, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(0, memcmp("bbbb", self->out, 4));
	ASSERT_EQ(2, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(REC_TYPE_DATA, type);

	/* Two non-data records are never merged. */
	ASSERT_EQ(1, send_type(self->cfd, "A", 1, 0, REC_TYPE_ALERT));
	ASSERT_EQ(1, send_type(self->cfd, "B", 1, 0, REC_TYPE_ALERT));
	ASSERT_EQ(1, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(REC_TYPE_ALERT, type);
	EXPECT_EQ('A', self->out[0]);
	ASSERT_EQ(1, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ('B', self->out[0]);
}

/*
 * RFC 8446 5.5, tlsx.ko's safety net under libtlsx: a TLS 1.3 AES key
 * opens no data record at its limit - 1 (EKEYEXPIRED), the last record
 * being for the KeyUpdate (a control record still goes), and a new
 * TLS_TX starts the count again.  The test module lowers the limit
 * (debugfs tlsx/seal_limit); ChaCha20-Poly1305, TLS 1.2 and the kernel's
 * tls (which stops only at the sequence wrap) are not limited by it.
 */
TEST_F(tx, seal_limit)
{
	static const unsigned char ku[5] = { 24, 0, 0, 1, 0 };
	bool limited = !strcmp(variant->ulp, "tlsx") &&
		       variant->version == TLS_1_3_VERSION &&
		       variant->cipher != TLS_CIPHER_CHACHA20_POLY1305;
	struct rec_info ri;
	unsigned char type;
	int i;

	if (access(SEAL_LIMIT_FILE, W_OK))
		SKIP(return, "not the test module (no %s)", SEAL_LIMIT_FILE);
	/*
	 * rec_info_init(seed 1) starts at sequence number 2; the count is
	 * of the records sealed since TLS_TX: 9 data records, the 10th
	 * kept for the KeyUpdate.
	 */
	ASSERT_EQ(0, seal_limit_set(10));
	self->seal_limit = true;
	fill(self->buf, 100, 3);
	for (i = 0; i < 9; i++) {
		ASSERT_EQ(100, send(self->cfd, self->buf, 100, 0));
		ASSERT_EQ(100, rec_read(self->sfd, &self->rk, &type,
					self->out));
	}
	errno = 0;
	if (!limited) {
		/* Not limited: data goes on past it. */
		for (i = 0; i < 4; i++) {
			ASSERT_EQ(100, send(self->cfd, self->buf, 100, 0));
			ASSERT_EQ(100, rec_read(self->sfd, &self->rk, &type,
						self->out));
		}
		EXPECT_EQ(0, seal_limit_set(0));
		return;
	}
	/* Sequence number 11, the key's 10th record: no data, ... */
	EXPECT_EQ(-1, send(self->cfd, self->buf, 100, 0));
	EXPECT_EQ(EKEYEXPIRED, errno);
	EXPECT_EQ(-1, send(self->cfd, self->buf, 100, MSG_DONTWAIT));
	EXPECT_FALSE(readable(self->sfd, 100));
	/* ... but the KeyUpdate, and then the next key. */
	ASSERT_EQ(5, send_type(self->cfd, ku, 5, 0, REC_TYPE_HANDSHAKE));
	ASSERT_EQ(5, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(REC_TYPE_HANDSHAKE, type);
	EXPECT_EQ(-1, send_type(self->cfd, ku, 5, 0, REC_TYPE_HANDSHAKE));
	EXPECT_EQ(EKEYEXPIRED, errno);
	rec_info_init(&ri, variant->version, variant->cipher, 2);
	EXPECT_EQ(0, setsockopt(self->cfd, SOL_TLS, TLS_TX, &ri, ri.len));
	tlsx_aead_wipe(&self->rk.aead);
	EXPECT_EQ(0, rec_key_init(&self->rk, &ri));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(100, send(self->cfd, self->buf, 100, 0));
		ASSERT_EQ(100, rec_read(self->sfd, &self->rk, &type,
					self->out));
		EXPECT_EQ(0, memcmp(self->buf, self->out, 100));
	}
	EXPECT_EQ(0, seal_limit_set(0));
}

/* A large non-data send is split like data, every record of its type. */
TEST_F(tx, record_type_large)
{
	size_t total = MAXREC + 3000;

	fill(self->buf, total, 6);
	ASSERT_EQ((ssize_t)total, send_type(self->cfd, self->buf, total, 0,
					    REC_TYPE_HANDSHAKE));
	EXPECT_EQ(2, read_stream(_metadata, self, self->buf, total,
				 REC_TYPE_HANDSHAKE));
}

TEST_F(tx, bad_cmsgs)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { .iov_base = "x", .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cmsg = CMSG_FIRSTHDR(&msg);

	/* MSG_MORE with a record type. */
	EXPECT_EQ(-1, send_type(self->cfd, "x", 1, MSG_MORE, REC_TYPE_ALERT));
	EXPECT_EQ(EINVAL, errno);
	/* Unknown SOL_TLS cmsg. */
	memset(cbuf, 0, sizeof(cbuf));
	cmsg->cmsg_level = SOL_TLS;
	cmsg->cmsg_type = TLS_GET_RECORD_TYPE + 7;
	cmsg->cmsg_len = CMSG_LEN(1);
	EXPECT_EQ(-1, sendmsg(self->cfd, &msg, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Only a non-TLS cmsg: kTLS refuses it too. */
	cmsg->cmsg_level = SOL_SOCKET;
	cmsg->cmsg_type = SCM_RIGHTS;
	cmsg->cmsg_len = CMSG_LEN(sizeof(int));
	*(int *)CMSG_DATA(cmsg) = 0;
	EXPECT_EQ(-1, sendmsg(self->cfd, &msg, 0));
	EXPECT_EQ(EINVAL, errno);
	/* Nothing went out. */
	EXPECT_FALSE(readable(self->sfd, 100));
}

/* sendfile from a memfd: records carry the file; the file is intact. */
TEST_F(tx, sendfile_memfd)
{
	size_t total = 5 * MAXREC + 1234;
	unsigned char *back;
	off_t off = 0;
	int fd, nrec;

	fd = memfd_create("tx", 0);
	ASSERT_GE(fd, 0);
	fill(self->buf, total, 7);
	ASSERT_EQ((ssize_t)total, write(fd, self->buf, total));
	ASSERT_EQ((ssize_t)total, sendfile(self->cfd, fd, &off, total));
	nrec = read_stream(_metadata, self, self->buf, total, REC_TYPE_DATA);
	EXPECT_GE(nrec, 6);
	back = malloc(total);
	ASSERT_NE(NULL, back);
	ASSERT_EQ((ssize_t)total, pread(fd, back, total, 0));
	EXPECT_EQ(0, memcmp(back, self->buf, total));
	free(back);
	close(fd);
}

/* send, then sendfile: each ends in its own record(s). */
TEST_F(tx, send_then_sendfile)
{
	size_t total = 3000;
	unsigned char type;
	off_t off = 0;
	int fd;

	fd = memfd_create("tx", 0);
	ASSERT_GE(fd, 0);
	fill(self->buf, total, 8);
	ASSERT_EQ((ssize_t)total, write(fd, self->buf, total));
	ASSERT_EQ(5, send(self->cfd, "hello", 5, 0));
	ASSERT_EQ((ssize_t)total, sendfile(self->cfd, fd, &off, total));
	ASSERT_EQ(5, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(1, read_stream(_metadata, self, self->buf, total,
				 REC_TYPE_DATA));
	close(fd);
}

/* MSG_MORE data, then a spliced page: both in one record. */
TEST_F(tx, more_then_splice)
{
	int p[2];
	unsigned char type;

	fill(self->buf, 4096 + 10, 9);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(10, send(self->cfd, self->buf, 10, MSG_MORE));
	ASSERT_EQ(4096, write(p[1], self->buf + 10, 4096));
	ASSERT_EQ(4096, splice(p[0], NULL, self->cfd, NULL, 4096, 0));
	ASSERT_EQ(4106, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf, self->out, 4106));
	close(p[0]);
	close(p[1]);
}

/* splice with SPLICE_F_MORE keeps the record open until more data. */
TEST_F(tx, splice_more)
{
	int p[2];
	unsigned char type;

	/* Seen on 6.1.192: the send gets a record of its own. */
	if (old_ktls(variant->ulp, 6, 12))
		SKIP(return, "6.1's tls ends the spliced record at the next send");
	fill(self->buf, 200, 10);
	ASSERT_EQ(0, pipe(p));
	ASSERT_EQ(100, write(p[1], self->buf, 100));
	ASSERT_EQ(100, splice(p[0], NULL, self->cfd, NULL, 100,
			      SPLICE_F_MORE));
	EXPECT_FALSE(readable(self->sfd, 100));
	ASSERT_EQ(100, send(self->cfd, self->buf + 100, 100, 0));
	ASSERT_EQ(200, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp(self->buf, self->out, 200));
	close(p[0]);
	close(p[1]);
}

/*
 * MSG_DONTWAIT with the peer not reading: eventually EAGAIN; every byte
 * accepted arrives in order once the peer reads (a record TCP took only
 * part of is finished from the write-space callback).
 */
TEST_F(tx, dontwait_full_buffer)
{
	size_t total = 0, cap = 1 << 20;
	int sndbuf = 32768, rounds = 0;
	ssize_t n;

	ASSERT_EQ(0, setsockopt(self->cfd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
				sizeof(sndbuf)));
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_SOCKET, SO_RCVBUF, &sndbuf,
				sizeof(sndbuf)));
	fill(self->buf, cap, 11);
	for (;;) {
		size_t want = 7000;

		if (total + want > cap)
			break;
		n = send(self->cfd, self->buf + total, want, MSG_DONTWAIT);
		if (n < 0) {
			ASSERT_EQ(EAGAIN, errno);
			if (++rounds == 3)
				break;
			continue;
		}
		ASSERT_GT(n, 0);
		total += n;
	}
	ASSERT_EQ(3, rounds) {
		TH_LOG("send buffer never filled (%zu bytes)", total);
	}
	EXPECT_GT(read_stream(_metadata, self, self->buf, total,
			      REC_TYPE_DATA), 0);
	EXPECT_FALSE(readable(self->sfd, 100));
}

/*
 * close() with the peer not reading and the send buffer full returns at
 * once: records of MSG_DONTWAIT sends, and the open record, never make
 * it wait.  Every whole record the peer then gets opens correctly.
 */
TEST_F(tx, close_with_stalled_peer)
{
	int sndbuf = 32768, nrec = 0;
	struct timespec t0, t1;
	unsigned char type;
	size_t total = 0;
	ssize_t n;

	ASSERT_EQ(0, setsockopt(self->cfd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
				sizeof(sndbuf)));
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_SOCKET, SO_RCVBUF, &sndbuf,
				sizeof(sndbuf)));
	fill(self->buf, 1 << 20, 14);
	while (total + 7000 <= (1 << 20)) {
		n = send(self->cfd, self->buf + total, 7000, MSG_DONTWAIT);
		if (n < 0)
			break;
		total += n;
	}
	ASSERT_EQ(EAGAIN, errno);
	send(self->cfd, "tail", 4, MSG_MORE | MSG_DONTWAIT);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	close(self->cfd);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	self->cfd = socket(AF_INET, SOCK_STREAM, 0);
	EXPECT_LT(t1.tv_sec - t0.tv_sec, 2);
	/* Whole records open; the stream may end inside the last one. */
	while (readable(self->sfd, 2000)) {
		n = rec_read(self->sfd, &self->rk, &type, self->out);
		if (n == -1)
			break;
		ASSERT_GT(n, 0);
		nrec++;
	}
	EXPECT_GT(nrec, 0);
}

struct sender_arg {
	int fd;
	unsigned int id;
	int msgs;
};

/* Message: id (1), length (3, big-endian), then bytes of (id + i). */
static void *sender(void *p)
{
	struct sender_arg *a = p;
	unsigned char *m = malloc(40004);
	unsigned int seed = a->id * 7919;
	int k;

	for (k = 0; m && k < a->msgs; k++) {
		size_t len = rand_r(&seed) % 40000 + 1, i;
		ssize_t n;

		m[0] = (unsigned char)a->id;
		m[1] = (unsigned char)(len >> 16);
		m[2] = (unsigned char)(len >> 8);
		m[3] = (unsigned char)len;
		for (i = 0; i < len; i++)
			m[4 + i] = (unsigned char)(a->id + i);
		/* Blocking: all of it in one sendmsg, or the test fails. */
		n = send(a->fd, m, len + 4, 0);
		if (n != (ssize_t)(len + 4))
			break;
	}
	free(m);
	return NULL;
}

/*
 * Two threads send messages of up to 40000 bytes on one socket with
 * blocking sends: senders are serialised per sendmsg, so every message
 * arrives in one piece, whatever the record boundaries.
 */
TEST_F(tx, concurrent_senders)
{
	struct sender_arg a[2] = {
		{ .fd = self->cfd, .id = 1, .msgs = 60 },
		{ .fd = self->cfd, .id = 2, .msgs = 60 },
	};
	unsigned char *stream = malloc(8 << 20), type;
	size_t have = 0, at = 0;
	int done[3] = { 0 }, n, i;
	pthread_t th[2];

	ASSERT_NE(NULL, stream);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, pthread_create(&th[i], NULL, sender, &a[i]));
	while (done[1] + done[2] < 120 && readable(self->sfd, 5000)) {
		n = rec_read(self->sfd, &self->rk, &type, stream + have);
		ASSERT_GT(n, 0);
		have += n;
		while (have - at >= 4) {
			size_t len = (size_t)stream[at + 1] << 16 |
				     stream[at + 2] << 8 | stream[at + 3];
			unsigned int id = stream[at];
			size_t j;

			ASSERT_TRUE(id == 1 || id == 2);
			if (have - at < len + 4)
				break;
			for (j = 0; j < len; j++)
				ASSERT_EQ((unsigned char)(id + j),
					  stream[at + 4 + j]);
			done[id]++;
			at += len + 4;
		}
		if (at == have)
			at = have = 0;
	}
	for (i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	EXPECT_EQ(60, done[1]);
	EXPECT_EQ(60, done[2]);
	free(stream);
}

/* SO_SNDTIMEO on a blocking send: a partial count or EAGAIN in time. */
TEST_F(tx, sndtimeo)
{
	struct timeval tv = { .tv_usec = 200000 };
	size_t total = 0, cap = 1 << 20;
	ssize_t n;
	int i;

	ASSERT_EQ(0, setsockopt(self->cfd, SOL_SOCKET, SO_SNDTIMEO, &tv,
				sizeof(tv)));
	fill(self->buf, cap, 12);
	for (i = 0; i < 64 && total < cap; i++) {
		n = send(self->cfd, self->buf + total,
			 cap - total < 100000 ? cap - total : 100000, 0);
		if (n < 0) {
			ASSERT_EQ(EAGAIN, errno);
			break;
		}
		total += n;
	}
	ASSERT_LT(i, 64);
	EXPECT_GT(read_stream(_metadata, self, self->buf, total,
			      REC_TYPE_DATA), 0);
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* A signal interrupts a blocked send: partial count or EINTR, no loss. */
TEST_F(tx, signal_interrupts_send)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { .tv_usec = 300000 } };
	size_t cap = 4 << 20;
	unsigned char *big;
	ssize_t n;

	big = malloc(cap);
	ASSERT_NE(NULL, big);
	fill(big, cap, 13);
	ASSERT_EQ(0, sigaction(SIGALRM, &sa, NULL));	/* no SA_RESTART */
	ASSERT_EQ(0, setitimer(ITIMER_REAL, &it, NULL));
	n = send(self->cfd, big, cap, 0);
	EXPECT_TRUE(n < 0 ? errno == EINTR : n < (ssize_t)cap);
	if (n > 0) {
		unsigned char *save = self->buf;

		self->buf = big;
		EXPECT_GT(read_stream(_metadata, self, big, n,
				      REC_TYPE_DATA), 0);
		self->buf = save;
	}
	free(big);
}

/* After SHUT_WR nothing is sent: EPIPE (tlsx at once, kTLS later). */
TEST_F(tx, send_after_shutdown)
{
	ssize_t n;

	ASSERT_EQ(0, shutdown(self->cfd, SHUT_WR));
	n = send(self->cfd, "x", 1, MSG_NOSIGNAL);
	if (!strcmp(variant->ulp, "tls")) {
		/*
		 * kTLS 6.12 reports every such send as done: TCP refuses
		 * the record with EPIPE, kTLS sets sk_err and then consumes
		 * it itself (sk_stream_error) while returning the count.
		 */
		EXPECT_EQ(1, n);
		EXPECT_EQ(1, send(self->cfd, "x", 1, MSG_NOSIGNAL));
		return;
	}
	EXPECT_EQ(-1, n);
	EXPECT_EQ(EPIPE, errno);
}

/*
 * close() sends a record left open by MSG_MORE.  kTLS 6.12 drops it;
 * tlsx delivers what the user sent.
 */
TEST_F(tx, close_flushes_open_record)
{
	unsigned char type;

	ASSERT_EQ(6, send(self->cfd, "closed", 6, MSG_MORE));
	close(self->cfd);
	self->cfd = socket(AF_INET, SOCK_STREAM, 0);
	if (!strcmp(variant->ulp, "tls")) {
		EXPECT_EQ(0, recv(self->sfd, self->out, 1, 0));
		return;
	}
	ASSERT_EQ(6, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp("closed", self->out, 6));
}

/*
 * TLS 1.3 rekey: the open record goes under the old keys, later records
 * under the new ones with the new rec_seq.  kTLS 6.12 has no TX rekey
 * (EBUSY); tlsx has it, as kernels from 6.14 on.
 */
TEST_F(tx, rekey)
{
	struct rec_info ri2;
	unsigned char type;
	int ret;

	rec_info_init(&ri2, variant->version, variant->cipher, 2);
	ASSERT_EQ(3, send(self->cfd, "one", 3, 0));
	ASSERT_EQ(3, send(self->cfd, "two", 3, MSG_MORE));
	ret = setsockopt(self->cfd, SOL_TLS, TLS_TX, &ri2, ri2.len);
	if (variant->version == TLS_1_2_VERSION ||
	    !strcmp(variant->ulp, "tls")) {
		EXPECT_EQ(-1, ret);
		EXPECT_EQ(EBUSY, errno);
		return;
	}
	ASSERT_EQ(0, ret);
	ASSERT_EQ(5, send(self->cfd, "three", 5, 0));
	ASSERT_EQ(3, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp("one", self->out, 3));
	ASSERT_EQ(3, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp("two", self->out, 3));
	ASSERT_EQ(0, rec_key_init(&self->rk, &ri2));
	ASSERT_EQ(5, rec_read(self->sfd, &self->rk, &type, self->out));
	EXPECT_EQ(0, memcmp("three", self->out, 5));
}

struct rekey_arg {
	int fd;
	struct rec_info *ri;
	int ret;
};

static void *rekeyer(void *p)
{
	struct rekey_arg *a = p;

	usleep(100000);
	a->ret = setsockopt(a->fd, SOL_TLS, TLS_TX, a->ri, a->ri->len);
	return NULL;
}

/*
 * A rekey while a blocking sender waits for send buffer space: both
 * return, and the records on the wire are whole (those before the switch
 * open with the old keys; the rest is left unchecked).
 */
TEST_F(tx, rekey_while_sender_blocked)
{
	struct timeval tv = { .tv_sec = 2 };
	struct rekey_arg a = { .fd = self->cfd };
	size_t cap = 1 << 20;	/* self->buf's size */
	int sndbuf = 32768;
	unsigned char type;
	struct rec_info ri2;
	pthread_t th;
	ssize_t n;
	int nrec = 0;

	if (variant->version != TLS_1_3_VERSION ||
	    !strcmp(variant->ulp, "tls"))
		SKIP(return, "no TX rekey here");
	rec_info_init(&ri2, variant->version, variant->cipher, 2);
	a.ri = &ri2;
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_SOCKET, SO_SNDTIMEO, &tv,
				sizeof(tv)));
	ASSERT_EQ(0, setsockopt(self->cfd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
				sizeof(sndbuf)));
	ASSERT_EQ(0, setsockopt(self->sfd, SOL_SOCKET, SO_RCVBUF, &sndbuf,
				sizeof(sndbuf)));
	fill(self->buf, cap, 15);
	ASSERT_EQ(0, pthread_create(&th, NULL, rekeyer, &a));
	n = send(self->cfd, self->buf, cap, 0);
	pthread_join(th, NULL);
	EXPECT_EQ(0, a.ret);
	/* The timeout ended a send that could not finish. */
	EXPECT_GT(n, 0);
	EXPECT_LT(n, (ssize_t)cap);
	while (readable(self->sfd, 1000)) {
		int r = rec_read(self->sfd, &self->rk, &type, self->out);

		if (r < 0)
			break;
		nrec++;
	}
	EXPECT_GT(nrec, 0);
}

/*
 * TLS_TX_MAX_PAYLOAD_LEN (RFC 8449's record_size_limit, kTLS 6.19):
 * read records until @total bytes of @want arrived, each of @want_type
 * and at most @max bytes of plaintext.  Return: records, -1 on error.
 */
static int read_bounded(struct __test_metadata *_metadata,
			struct _test_data_tx *self, const unsigned char *want,
			size_t total, unsigned char want_type, int max)
{
	size_t at = 0;
	int nrec = 0;

	while (at < total) {
		unsigned char type = 0;
		int n;

		if (!readable(self->sfd, 5000))
			break;
		n = rec_read(self->sfd, &self->rk, &type, self->out);
		ASSERT_GT(n, 0);
		EXPECT_LE(n, max) {
			TH_LOG("record %d: %d bytes over %d", nrec, n, max);
		}
		EXPECT_EQ(want_type, type);
		ASSERT_GE(total - at, (size_t)n);
		EXPECT_EQ(0, memcmp(self->out, want + at, n));
		at += n;
		nrec++;
	}
	EXPECT_EQ(total, at);
	return nrec;
}

/* Why the kernel's tls skips these on 6.1 and 6.12. */
#define NO_MAX_PAYLOAD \
	"kTLS has TLS_TX_MAX_PAYLOAD_LEN from 6.19 on (not in 6.1 or 6.12)"

static int set_max_payload(int fd, uint16_t v)
{
	return setsockopt(fd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN, &v,
			  sizeof(v)) ? -errno : 0;
}

/* Every path cuts at the bound: send, writev, MSG_MORE, sendfile. */
TEST_F(tx, max_payload_len_records)
{
	/* RFC 8449's floor: 63 on TLS 1.3 (limit 64 less the type byte). */
	int max = variant->version == TLS_1_3_VERSION ? 63 : 64;
	size_t total = 3 * 4096 + 777;
	struct iovec iov[3];
	off_t off = 0;
	int fd;

	if (old_ktls(variant->ulp, 6, 19))
		SKIP(return, NO_MAX_PAYLOAD);
	ASSERT_EQ(0, set_max_payload(self->cfd, max));
	fill(self->buf, total, 11);
	ASSERT_EQ(1000, send(self->cfd, self->buf, 1000, 0));
	EXPECT_EQ(16, read_bounded(_metadata, self, self->buf, 1000,
				   REC_TYPE_DATA, max));
	/* Exactly the bound: one full record. */
	ASSERT_EQ(max, send(self->cfd, self->buf, max, 0));
	EXPECT_EQ(1, read_bounded(_metadata, self, self->buf, max,
				  REC_TYPE_DATA, max));

	max = 1000;
	ASSERT_EQ(0, set_max_payload(self->cfd, max));
	iov[0] = (struct iovec){ self->buf, 300 };
	iov[1] = (struct iovec){ self->buf + 300, 900 };
	iov[2] = (struct iovec){ self->buf + 1200, total - 1200 };
	ASSERT_EQ((ssize_t)total, writev(self->cfd, iov, 3));
	EXPECT_EQ(14, read_bounded(_metadata, self, self->buf, total,
				   REC_TYPE_DATA, max));
	/* MSG_MORE fills a record only up to the bound. */
	ASSERT_EQ(700, send(self->cfd, self->buf, 700, MSG_MORE));
	ASSERT_EQ(700, send(self->cfd, self->buf + 700, 700, MSG_MORE));
	ASSERT_EQ(1, send(self->cfd, self->buf + 1400, 1, 0));
	EXPECT_EQ(2, read_bounded(_metadata, self, self->buf, 1401,
				  REC_TYPE_DATA, max));

	max = 4000;
	ASSERT_EQ(0, set_max_payload(self->cfd, max));
	fd = memfd_create("tx", 0);
	ASSERT_GE(fd, 0);
	ASSERT_EQ((ssize_t)total, write(fd, self->buf, total));
	ASSERT_EQ((ssize_t)total, sendfile(self->cfd, fd, &off, total));
	EXPECT_GE(read_bounded(_metadata, self, self->buf, total,
			       REC_TYPE_DATA, max), 4);
	close(fd);
	EXPECT_FALSE(readable(self->sfd, 50));
}

/* Control records (TLS_SET_RECORD_TYPE) are bounded the same way. */
TEST_F(tx, max_payload_len_record_type)
{
	if (old_ktls(variant->ulp, 6, 19))
		SKIP(return, NO_MAX_PAYLOAD);
	ASSERT_EQ(0, set_max_payload(self->cfd, 100));
	fill(self->buf, 250, 12);
	ASSERT_EQ(250, send_type(self->cfd, self->buf, 250, 0,
				 REC_TYPE_HANDSHAKE));
	EXPECT_EQ(3, read_bounded(_metadata, self, self->buf, 250,
				  REC_TYPE_HANDSHAKE, 100));
}

/*
 * While a record is open (MSG_MORE) the bound cannot change: EBUSY, and
 * the record closes at the old bound.  Once it is out, a new one holds.
 */
TEST_F(tx, max_payload_len_open_record_ebusy)
{
	uint16_t got = 0;
	socklen_t len = sizeof(got);

	if (old_ktls(variant->ulp, 6, 19))
		SKIP(return, NO_MAX_PAYLOAD);
	ASSERT_EQ(0, set_max_payload(self->cfd, 512));
	fill(self->buf, 1024, 13);
	ASSERT_EQ(256, send(self->cfd, self->buf, 256, MSG_MORE));
	EXPECT_EQ(-EBUSY, set_max_payload(self->cfd, 128));
	ASSERT_EQ(0, getsockopt(self->cfd, SOL_TLS, TLS_TX_MAX_PAYLOAD_LEN,
				&got, &len));
	EXPECT_EQ(512, got);
	ASSERT_EQ(768, send(self->cfd, self->buf + 256, 768, 0));
	EXPECT_EQ(2, read_bounded(_metadata, self, self->buf, 1024,
				  REC_TYPE_DATA, 512));
	ASSERT_EQ(0, set_max_payload(self->cfd, 128));
	ASSERT_EQ(300, send(self->cfd, self->buf, 300, 0));
	EXPECT_EQ(3, read_bounded(_metadata, self, self->buf, 300,
				  REC_TYPE_DATA, 128));
}

/*
 * Records that start and end inside pages: sendfile from offsets within
 * a page, after MSG_MORE text (copied and spliced text in one record),
 * and cut by TLS_TX_MAX_PAYLOAD_LEN at bounds that are multiples neither
 * of a page nor of the AEAD's blocks.  The AEAD seals each record in one
 * pass over its pieces, gathering the blocks that straddle two of them:
 * every byte must arrive as it was in the file.
 */
TEST_F(tx, sendfile_partial_pages)
{
	static const off_t offs[] = { 1, 63, 4095, 4097, 8191 };
	size_t total = 3 * MAXREC + 999, file = total + 8192;
	unsigned char *want = self->buf + file;
	unsigned int i;
	off_t off;
	int fd;

	fd = memfd_create("tx", 0);
	ASSERT_GE(fd, 0);
	fill(self->buf, file, 12);
	ASSERT_EQ((ssize_t)file, write(fd, self->buf, file));
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		size_t len = total - 777 * i;

		off = offs[i];
		ASSERT_EQ((ssize_t)len, sendfile(self->cfd, fd, &off, len));
		EXPECT_GE(read_stream(_metadata, self, self->buf + offs[i], len,
				      REC_TYPE_DATA), 3);
	}

	/* MSG_MORE text, then pages from mid-page: records of both. */
	memcpy(want, "twenty-seven bytes of text.", 27);
	memcpy(want + 27, self->buf + 100, 20000);
	ASSERT_EQ(27, send(self->cfd, want, 27, MSG_MORE));
	off = 100;
	ASSERT_EQ(20000, sendfile(self->cfd, fd, &off, 20000));
	EXPECT_GE(read_stream(_metadata, self, want, 20027, REC_TYPE_DATA), 2);

	if (!old_ktls(variant->ulp, 6, 19)) {
		/* Bounds inside pages and blocks, from mid-page. */
		ASSERT_EQ(0, set_max_payload(self->cfd, 5001));
		off = 333;
		ASSERT_EQ(3 * 5001 + 17,
			  sendfile(self->cfd, fd, &off, 3 * 5001 + 17));
		EXPECT_EQ(4, read_bounded(_metadata, self, self->buf + 333,
					  3 * 5001 + 17, REC_TYPE_DATA, 5001));
		ASSERT_EQ(0, set_max_payload(self->cfd, 4095));
		ASSERT_EQ(10, send(self->cfd, want, 10, MSG_MORE));
		off = 4090;
		ASSERT_EQ(9000, sendfile(self->cfd, fd, &off, 9000));
		memcpy(want + 10, self->buf + 4090, 9000);
		EXPECT_EQ(3, read_bounded(_metadata, self, want, 9010,
					  REC_TYPE_DATA, 4095));
	}
	close(fd);
	EXPECT_FALSE(readable(self->sfd, 50));
}

TEST_HARNESS_MAIN
