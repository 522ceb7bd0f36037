// SPDX-License-Identifier: GPL-2.0
/*
 * libtlsx.c - libtlsx's handoff on each record layer: tlsx's engine runs
 * the handshake on a loopback TCP pair (both ends libtlsx, the server on
 * a thread), then the keys go to the record layer the variant forces:
 * tlsx.ko, the kernel's tls, or userspace (the last also runs natively).
 *
 *  - the layer chosen is the one asked for; data both ways; sendfile;
 *  - the server's NewSessionTicket, sent after the handoff with a
 *    record-type cmsg, becomes the client's session;
 *  - KeyUpdate both ways after the handoff (tlsx: new TLS_TX/TLS_RX;
 *    tls on 6.12 cannot rekey: TLSX_E_REKEY, nothing sent);
 *  - a request in the same segment as the client's Finished (TCP_CORK
 *    holds the Finished until the request joins it) is read by the
 *    server after its handoff;
 *  - close_notify both ways.
 */
#include <pthread.h>
#include <stdlib.h>

#include "tlsx_test.h"
#include "kselftest_harness.h"
#include "handshake/tlsx.h"

/* A self-signed P-256 certificate for localhost, for tests only. */
static const char cert_pem[] =
	"-----BEGIN CERTIFICATE-----\n"
	"MIIBlDCCATugAwIBAgIUYkb5w66t+R1StUD3yaPBhr3AOVYwCgYIKoZIzj0EAwIw\n"
	"FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTIwMTE5MjU0OFoYDzIxMjYxMTA3\n"
	"MTkyNTQ4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO\n"
	"PQMBBwNCAATMQ3Qd6sagjeHHm9NKnwS4QNSEnpgME2iNvplJxVsJcaedCUG6wzFA\n"
	"dDN/TQnmGXSZeftIa4rX1TdO/b6TAcMeo2kwZzAdBgNVHQ4EFgQUnihzLJNSE+7p\n"
	"KUZC+nv3k5d/yVgwHwYDVR0jBBgwFoAUnihzLJNSE+7pKUZC+nv3k5d/yVgwDwYD\n"
	"VR0TAQH/BAUwAwEB/zAUBgNVHREEDTALgglsb2NhbGhvc3QwCgYIKoZIzj0EAwID\n"
	"RwAwRAIgXNX1YwXF9/uj5yJaC1pN+GSEAy6yJgJFzez4kMcwrBgCIB4BROW/mnys\n"
	"Rtsam8Ox9eKf8UQCOjutw6f3croalHdO\n"
	"-----END CERTIFICATE-----\n";

static const char key_pem[] =
	"-----BEGIN PRIVATE KEY-----\n"
	"MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg4SNRQAtBQdOpimwA\n"
	"CCod/tAmUCDL0BXl2cjd1AIlCIqhRANCAATMQ3Qd6sagjeHHm9NKnwS4QNSEnpgM\n"
	"E2iNvplJxVsJcaedCUG6wzFAdDN/TQnmGXSZeftIa4rX1TdO/b6TAcMe\n"
	"-----END PRIVATE KEY-----\n";

static char cert_file[64], key_file[64];

static void __attribute__((constructor)) write_files(void)
{
	FILE *f;

	snprintf(cert_file, sizeof(cert_file), "/tmp/libtlsx_%d.crt",
		 getpid());
	snprintf(key_file, sizeof(key_file), "/tmp/libtlsx_%d.key", getpid());
	f = fopen(cert_file, "w");
	if (f) {
		fputs(cert_pem, f);
		fclose(f);
	}
	f = fopen(key_file, "w");
	if (f) {
		fputs(key_pem, f);
		fclose(f);
	}
}

static void __attribute__((destructor)) remove_files(void)
{
	unlink(cert_file);
	unlink(key_file);
}

struct accept_job {
	struct tlsx_config *cfg;
	int fd;
	int ret;
	struct tlsx_conn *c;
};

static void *accept_run(void *arg)
{
	struct accept_job *j = arg;

	j->ret = tlsx_accept(j->cfg, j->fd, &j->c);
	return NULL;
}

FIXTURE(lib)
{
	int cfd, sfd;
	struct tlsx_config *ccfg, *scfg;
	struct tlsx_conn *c, *s;
};

FIXTURE_VARIANT(lib)
{
	const char *ulp;		/* NULL: userspace */
	enum tlsx_record_layer rl;
};

FIXTURE_VARIANT_ADD(lib, tlsx)
{
	.ulp = "tlsx", .rl = TLSX_RL_TLSX,
};

FIXTURE_VARIANT_ADD(lib, tls)
{
	.ulp = "tls", .rl = TLSX_RL_TLS,
};

FIXTURE_VARIANT_ADD(lib, user)
{
	.ulp = NULL, .rl = TLSX_RL_USER,
};

/* A handshake on a fresh pair; @cork: TCP_CORK on the client. */
static int establish(struct _test_data_lib *self, bool cork)
{
	struct accept_job j = { .cfg = self->scfg };
	pthread_t t;
	int one = 1, ret;

	if (tcp_pair(&self->cfd, &self->sfd))
		return -1;
	if (cork && setsockopt(self->cfd, IPPROTO_TCP, TCP_CORK, &one,
			       sizeof(one)))
		return -1;
	j.fd = self->sfd;
	if (pthread_create(&t, NULL, accept_run, &j))
		return -1;
	ret = tlsx_connect(self->ccfg, self->cfd, "localhost", &self->c);
	if (cork && ret == TLSX_DONE) {
		/* The request joins the corked Finished: one segment. */
		if (tlsx_write(self->c, "GET /", 5) != 5)
			ret = -1;
		one = 0;
		setsockopt(self->cfd, IPPROTO_TCP, TCP_CORK, &one,
			   sizeof(one));
	}
	pthread_join(t, NULL);
	self->s = j.c;
	return ret == TLSX_DONE && j.ret == TLSX_DONE ? 0 : -1;
}

static void release(struct _test_data_lib *self)
{
	tlsx_conn_free(self->c);
	tlsx_conn_free(self->s);
	self->c = NULL;
	self->s = NULL;
	close(self->cfd);
	close(self->sfd);
}

FIXTURE_SETUP(lib)
{
	if (variant->ulp && !ulp_available(variant->ulp))
		SKIP(return, "no %s ULP in this kernel", variant->ulp);
	self->ccfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	self->scfg = tlsx_config_new(TLSX_ROLE_SERVER);
	ASSERT_NE(NULL, self->ccfg);
	ASSERT_NE(NULL, self->scfg);
	/* The certificate is its own anchor. */
	ASSERT_EQ(TLSX_OK, tlsx_config_set_trust(self->ccfg, cert_file));
	ASSERT_EQ(TLSX_OK, tlsx_config_add_cert(self->scfg, cert_file,
						key_file));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_record_layer(self->ccfg,
							variant->rl));
	ASSERT_EQ(TLSX_OK, tlsx_config_set_record_layer(self->scfg,
							variant->rl));
	ASSERT_EQ(0, establish(self, false));
}

FIXTURE_TEARDOWN(lib)
{
	release(self);
	tlsx_config_free(self->ccfg);
	tlsx_config_free(self->scfg);
}

static ssize_t read_n(struct tlsx_conn *c, char *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = tlsx_read(c, buf + got, n - got);

		if (r <= 0)
			return r;
		got += r;
	}
	return got;
}

TEST_F(lib, handoff_and_data)
{
	struct tlsx_conn_info info;
	char buf[16];

	EXPECT_EQ(variant->rl, tlsx_conn_record_layer(self->c));
	EXPECT_EQ(variant->rl, tlsx_conn_record_layer(self->s));
	ASSERT_EQ(5, tlsx_write(self->c, "hello", 5));
	ASSERT_EQ(5, read_n(self->s, buf, 5));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	ASSERT_EQ(6, tlsx_write(self->s, "world!", 6));
	ASSERT_EQ(6, read_n(self->c, buf, 6));
	EXPECT_EQ(0, memcmp(buf, "world!", 6));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c, &info));
	TH_LOG("%s: client keeps %zu bytes after the handoff",
	       tlsx_record_layer_name(info.record_layer), info.state_bytes);
}

struct read_job {
	struct tlsx_conn *c;
	char *buf;
	size_t len;
	ssize_t ret;
};

static void *read_run(void *arg)
{
	struct read_job *j = arg;

	j->ret = read_n(j->c, j->buf, j->len);
	return NULL;
}

TEST_F(lib, sendfile)
{
	size_t size = 300 * 1024 + 77;
	char path[] = "/tmp/libtlsx_sf_XXXXXX", *data = malloc(size);
	struct read_job j = { .c = self->s, .buf = malloc(size), .len = size };
	int fd = mkstemp(path);
	off_t off = 0;
	pthread_t t;
	size_t i;

	ASSERT_TRUE(data && j.buf && fd >= 0);
	unlink(path);
	for (i = 0; i < size; i++)
		data[i] = (char)(i * 7 + (i >> 11));
	ASSERT_EQ((ssize_t)size, write(fd, data, size));
	ASSERT_EQ(0, pthread_create(&t, NULL, read_run, &j));
	EXPECT_EQ((ssize_t)size, tlsx_sendfile(self->c, fd, &off, size));
	pthread_join(t, NULL);
	EXPECT_EQ((ssize_t)size, j.ret);
	EXPECT_EQ(0, memcmp(data, j.buf, size));
	close(fd);
	free(data);
	free(j.buf);
}

/* The server's tickets went after its handoff, through the layer. */
TEST_F(lib, ticket_after_handoff)
{
	unsigned char sess[4096];
	size_t len;
	char buf[4];

	ASSERT_EQ(2, tlsx_write(self->s, "ok", 2));
	ASSERT_EQ(2, read_n(self->c, buf, 2));
	EXPECT_EQ(TLSX_OK, tlsx_conn_session(self->c, sess, sizeof(sess),
					     &len));
}

TEST_F(lib, key_update_both_ways)
{
	struct tlsx_conn_info ci, si;
	char buf[4];

	if (variant->rl == TLSX_RL_TLS) {
		/* 6.12's tls cannot take a second TLS_TX. */
		EXPECT_EQ(TLSX_E_REKEY, tlsx_conn_key_update(self->c, true));
		ASSERT_EQ(1, tlsx_write(self->c, "a", 1));
		ASSERT_EQ(1, read_n(self->s, buf, 1));
		return;
	}
	ASSERT_EQ(TLSX_OK, tlsx_conn_key_update(self->c, true));
	ASSERT_EQ(1, tlsx_write(self->c, "a", 1));
	ASSERT_EQ(1, read_n(self->s, buf, 1));
	EXPECT_EQ('a', buf[0]);
	ASSERT_EQ(1, tlsx_write(self->s, "b", 1));
	ASSERT_EQ(1, read_n(self->c, buf, 1));
	EXPECT_EQ('b', buf[0]);
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c, &ci));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->s, &si));
	EXPECT_EQ(1, ci.key_updates_sent);
	EXPECT_EQ(1, ci.key_updates_received);
	EXPECT_EQ(1, si.key_updates_sent);
	EXPECT_EQ(1, si.key_updates_received);
}

TEST_F(lib, request_with_finished)
{
	char buf[8];

	release(self);
	ASSERT_EQ(0, establish(self, true));
	ASSERT_EQ(5, read_n(self->s, buf, 5));
	EXPECT_EQ(0, memcmp(buf, "GET /", 5));
}

TEST_F(lib, close_notify_both_ways)
{
	char buf[4];

	ASSERT_EQ(TLSX_OK, tlsx_close(self->c));
	EXPECT_EQ(0, tlsx_read(self->s, buf, sizeof(buf)));
	ASSERT_EQ(TLSX_OK, tlsx_close(self->s));
	EXPECT_EQ(0, tlsx_read(self->c, buf, sizeof(buf)));
}

TEST_HARNESS_MAIN
