// SPDX-License-Identifier: GPL-2.0
/*
 * interop.c - tlsx at one end of a connection, the kernel's kTLS at the
 * other: records sealed by one are opened by the other, both ways, for
 * TLS 1.2 and 1.3 and the three ciphers.  This holds tlsx's nonces
 * (salt and explicit nonce in TLS 1.2 AES-GCM, IV XOR sequence number
 * otherwise), associated data and sequence numbers to kTLS's: a
 * difference in any byte fails authentication.  The sequence numbers
 * start just below 2^32 so that a 32-bit slip shows.
 */
#include <linux/tls.h>
#include <stdlib.h>

#include "tlsx_test.h"
#include "kselftest_harness.h"

#define SEQ0 0xfffffffdULL

struct keys {
	union {
		struct tls_crypto_info hdr;
		struct tls12_crypto_info_aes_gcm_128 g128;
		struct tls12_crypto_info_aes_gcm_256 g256;
		struct tls12_crypto_info_chacha20_poly1305 cc;
		struct tls12_crypto_info_aes_ccm_128 ccm;
		unsigned char raw[64];
	};
	socklen_t len;
	unsigned char *seq;
};

static void keys_init(struct keys *k, unsigned short version,
		      unsigned short cipher, unsigned int seed)
{
	unsigned int i;

	memset(k, 0, sizeof(*k));
	switch (cipher) {
	case TLS_CIPHER_AES_GCM_128:
		k->len = sizeof(k->g128);
		k->seq = k->g128.rec_seq;
		break;
	case TLS_CIPHER_AES_GCM_256:
		k->len = sizeof(k->g256);
		k->seq = k->g256.rec_seq;
		break;
	case TLS_CIPHER_AES_CCM_128:
		k->len = sizeof(k->ccm);
		k->seq = k->ccm.rec_seq;
		break;
	default:
		k->len = sizeof(k->cc);
		k->seq = k->cc.rec_seq;
		break;
	}
	for (i = sizeof(k->hdr); i < k->len; i++)
		k->raw[i] = (unsigned char)(seed * 131 + i * 7 + 3);
	k->hdr.version = version;
	k->hdr.cipher_type = cipher;
	for (i = 0; i < 8; i++)
		k->seq[i] = (unsigned char)(SEQ0 >> (56 - 8 * i));
}

FIXTURE(interop)
{
	int x;		/* the tlsx end */
	int k;		/* the kTLS end */
};

FIXTURE_VARIANT(interop)
{
	unsigned short version;
	unsigned short cipher;
};

FIXTURE_VARIANT_ADD(interop, 12_gcm128)
{
	.version = TLS_1_2_VERSION, .cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(interop, 12_gcm256)
{
	.version = TLS_1_2_VERSION, .cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(interop, 12_chacha)
{
	.version = TLS_1_2_VERSION, .cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(interop, 12_ccm)
{
	.version = TLS_1_2_VERSION, .cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_VARIANT_ADD(interop, 13_gcm128)
{
	.version = TLS_1_3_VERSION, .cipher = TLS_CIPHER_AES_GCM_128,
};

FIXTURE_VARIANT_ADD(interop, 13_gcm256)
{
	.version = TLS_1_3_VERSION, .cipher = TLS_CIPHER_AES_GCM_256,
};

FIXTURE_VARIANT_ADD(interop, 13_chacha)
{
	.version = TLS_1_3_VERSION, .cipher = TLS_CIPHER_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(interop, 13_ccm)
{
	.version = TLS_1_3_VERSION, .cipher = TLS_CIPHER_AES_CCM_128,
};

FIXTURE_SETUP(interop)
{
	struct keys a, b;

	ASSERT_TRUE(ulp_available("tlsx") && ulp_available("tls"));
	ASSERT_EQ(0, tcp_pair(&self->x, &self->k));
	ASSERT_EQ(0, setsockopt(self->x, IPPROTO_TCP, TCP_ULP, "tlsx", 4));
	ASSERT_EQ(0, setsockopt(self->k, IPPROTO_TCP, TCP_ULP, "tls", 3));
	/* One key per direction. */
	keys_init(&a, variant->version, variant->cipher, 1);
	keys_init(&b, variant->version, variant->cipher, 2);
	ASSERT_EQ(0, setsockopt(self->x, SOL_TLS, TLS_TX, &a, a.len));
	ASSERT_EQ(0, setsockopt(self->k, SOL_TLS, TLS_RX, &a, a.len));
	ASSERT_EQ(0, setsockopt(self->k, SOL_TLS, TLS_TX, &b, b.len));
	ASSERT_EQ(0, setsockopt(self->x, SOL_TLS, TLS_RX, &b, b.len));
}

FIXTURE_TEARDOWN(interop)
{
	close(self->x);
	close(self->k);
}

static void fill(char *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (char)(seed + i * 31 + (i >> 8));
}

/* Sizes across the record limit: one byte, odd, 16 KiB, 16 KiB + 1, more. */
static const size_t sizes[] = { 1, 13, 4096, 16384, 16385, 50000 };

static void one_way(struct __test_metadata *_metadata, int from, int to,
		    unsigned int seed)
{
	static char out[50000], in[50000];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		fill(out, sizes[i], seed + i);
		memset(in, 0, sizes[i]);
		ASSERT_EQ(sizes[i], send(from, out, sizes[i], 0));
		ASSERT_EQ(sizes[i], recv(to, in, sizes[i], MSG_WAITALL));
		ASSERT_EQ(0, memcmp(in, out, sizes[i])) {
			TH_LOG("size %zu", sizes[i]);
		}
	}
}

TEST_F(interop, tlsx_to_ktls)
{
	one_way(_metadata, self->x, self->k, 1);
}

TEST_F(interop, ktls_to_tlsx)
{
	one_way(_metadata, self->k, self->x, 2);
}

/* Both ends count the same records: getsockopt agrees across ULPs. */
TEST_F(interop, sequence_numbers_agree)
{
	unsigned char tx[64], rx[64];
	socklen_t tlen = sizeof(tx), rlen = sizeof(rx);
	struct keys k;

	one_way(_metadata, self->x, self->k, 3);
	one_way(_metadata, self->k, self->x, 4);
	keys_init(&k, variant->version, variant->cipher, 0);
	tlen = k.len;
	rlen = k.len;
	ASSERT_EQ(0, getsockopt(self->x, SOL_TLS, TLS_TX, tx, &tlen));
	ASSERT_EQ(0, getsockopt(self->k, SOL_TLS, TLS_RX, rx, &rlen));
	EXPECT_EQ(0, memcmp(tx, rx, k.len));
	ASSERT_EQ(0, getsockopt(self->k, SOL_TLS, TLS_TX, tx, &tlen));
	ASSERT_EQ(0, getsockopt(self->x, SOL_TLS, TLS_RX, rx, &rlen));
	EXPECT_EQ(0, memcmp(tx, rx, k.len));
}

static int recv_typed(int fd, unsigned char *type, void *p, size_t n)
{
	char cbuf[CMSG_SPACE(1)] = { 0 };
	struct iovec iov = { .iov_base = p, .iov_len = n };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int r = recvmsg(fd, &msg, 0);

	cm = CMSG_FIRSTHDR(&msg);
	*type = 0;
	if (r >= 0 && cm && cm->cmsg_level == SOL_TLS &&
	    cm->cmsg_type == TLS_GET_RECORD_TYPE)
		*type = *CMSG_DATA(cm);
	return r;
}

/* Record types other than data (in 1.3: the inner content type). */
TEST_F(interop, record_types_both_ways)
{
	static const unsigned char types[] = { 21, 22, 23, 24, 100 };
	unsigned char type;
	char buf[32];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		ASSERT_EQ(5, send_type(self->x, "typed", 5, 0, types[i]));
		ASSERT_EQ(5, recv_typed(self->k, &type, buf, sizeof(buf)));
		EXPECT_EQ(types[i], type);
		EXPECT_EQ(0, memcmp(buf, "typed", 5));
		ASSERT_EQ(4, send_type(self->k, "back", 4, 0, types[i]));
		ASSERT_EQ(4, recv_typed(self->x, &type, buf, sizeof(buf)));
		EXPECT_EQ(types[i], type);
		EXPECT_EQ(0, memcmp(buf, "back", 4));
	}
}

TEST_HARNESS_MAIN
