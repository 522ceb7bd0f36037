// SPDX-License-Identifier: GPL-2.0
/*
 * test_libtlsx_rec.c - libtlsx's userspace record layer against OpenSSL's
 * libssl, without tlsx's engine: OpenSSL runs a TLS 1.3 handshake between
 * two of its own ends over loopback TCP, the traffic secrets come from its
 * keylog callback, and one end's socket is handed to libtlsx
 * (tlsx__conn_from_secrets()) while OpenSSL keeps the other.  Then, for
 * each suite and for libtlsx as client and as server:
 *
 *  - data both ways, 1 MiB each way, sendfile, non-blocking partial
 *    writes and reads;
 *  - KeyUpdate from the peer (answered when requested, RFC 8446 4.6.3),
 *    KeyUpdate of ours, our rekey at a low limit (5.5);
 *  - close_notify both ways, a TCP close without it (6.1);
 *  - records the peer may not send, sealed under the peer's key and
 *    written straight into the socket: each gets the RFC's alert (and
 *    OpenSSL sees it), a fatal alert from the peer ends the connection;
 *  - NewSessionTickets after the handshake reach the ticket hook whole;
 *  - the peer's record_size_limit (RFC 8449) bounds our records;
 *  - the automatic choice falls back to userspace where the kernel has
 *    no ULP, a forced kernel layer fails.
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/engine/keysched.h"
#include "handshake/engine/record_protect.h"
#include "handshake/engine/ticket.h"
#include "handshake/libtlsx/tlsx_int.h"

#define MIB	(1024 * 1024)

/* rl_control.c's bounds (RX_PER_CALL, RX_RUN_MAX, KU_BURST, KU_PER). */
#define RX_PER_CALL_T	16
#define RX_RUN_MAX_T	32
#define KU_BURST_T	32
#define KU_PER_T	16384

/* The secrets OpenSSL logs (NSS key log format). */
struct keylog {
	u8 c_ap[TLSX_KS_MAX_SECRET];
	u8 s_ap[TLSX_KS_MAX_SECRET];
	size_t len;
};

static int hexval(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	return -1;
}

static void keylog_cb(const SSL *ssl, const char *line)
{
	struct keylog *k = SSL_get_app_data(ssl);
	const char *sp;
	u8 *dst = NULL;
	size_t n = 0;

	if (!strncmp(line, "CLIENT_TRAFFIC_SECRET_0 ", 24))
		dst = k->c_ap;
	else if (!strncmp(line, "SERVER_TRAFFIC_SECRET_0 ", 24))
		dst = k->s_ap;
	if (!dst)
		return;
	sp = strchr(line + 24, ' ');
	if (!sp)
		return;
	for (sp++; sp[0] && sp[1] && n < TLSX_KS_MAX_SECRET; sp += 2)
		dst[n++] = (u8)(hexval(sp[0]) << 4 | hexval(sp[1]));
	k->len = n;
}

static int tcp_pair(int *a, int *b)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(lfd, 1) || getsockname(lfd, (struct sockaddr *)&sa, &len))
		return -1;
	*a = socket(AF_INET, SOCK_STREAM, 0);
	if (*a < 0 || connect(*a, (struct sockaddr *)&sa, sizeof(sa)))
		return -1;
	*b = accept(lfd, NULL, NULL);
	close(lfd);
	if (*b < 0)
		return -1;
	setsockopt(*a, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	setsockopt(*b, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return 0;
}

static void set_nonblock(int fd, bool on)
{
	int fl = fcntl(fd, F_GETFL);

	fcntl(fd, F_SETFL, on ? fl | O_NONBLOCK : fl & ~O_NONBLOCK);
}

/* A self-signed P-256 certificate for the OpenSSL server. */
static int server_cert(SSL_CTX *ctx)
{
	EVP_PKEY *key = EVP_EC_gen("P-256");
	X509 *x = X509_new();
	X509_NAME *name;
	int ok;

	if (!key || !x)
		return -1;
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 86400);
	X509_set_pubkey(x, key);
	name = X509_get_subject_name(x);
	X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
				   (const unsigned char *)"test", -1, -1, 0);
	X509_set_issuer_name(x, name);
	ok = X509_sign(x, key, EVP_sha256()) > 0 &&
	     SSL_CTX_use_certificate(ctx, x) == 1 &&
	     SSL_CTX_use_PrivateKey(ctx, key) == 1;
	X509_free(x);
	EVP_PKEY_free(key);
	return ok ? 0 : -1;
}

static SSL_CTX *make_ctx(bool server, const char *suite, int tickets)
{
	SSL_CTX *ctx = SSL_CTX_new(server ? TLS_server_method() :
				   TLS_client_method());

	if (!ctx)
		return NULL;
	SSL_CTX_set_min_proto_version(ctx, TLS1_3_VERSION);
	SSL_CTX_set_ciphersuites(ctx, suite);
	SSL_CTX_set_keylog_callback(ctx, keylog_cb);
	if (server) {
		SSL_CTX_set_num_tickets(ctx, tickets);
		SSL_CTX_set_timeout(ctx, 3600);
		if (server_cert(ctx)) {
			SSL_CTX_free(ctx);
			return NULL;
		}
	}
	return ctx;
}

/* What a test holds: OpenSSL's end (a) and libtlsx's (c). */
struct pair {
	SSL_CTX *actx;
	SSL *a;
	int afd, bfd;
	struct tlsx_hs_secrets sec;
	struct tlsx_conn *c;
	bool ours_server;
};

/*
 * An OpenSSL handshake between a (kept) and b (whose keys libtlsx takes),
 * both stepped in this thread on non-blocking sockets.  @tickets: how many
 * NewSessionTickets the server sends (a server b sends none: its records
 * after the handshake would be under the key before libtlsx has it).
 */
static int openssl_pair(struct pair *p, bool ours_server, const char *suite,
			int tickets)
{
	struct keylog kl = { 0 };
	SSL_CTX *bctx;
	SSL *b;
	int i, ra = 0, rb = 0;

	memset(p, 0, sizeof(*p));
	p->ours_server = ours_server;
	if (tcp_pair(&p->afd, &p->bfd))
		return -1;
	p->actx = make_ctx(!ours_server, suite, tickets);
	bctx = make_ctx(ours_server, suite, 0);
	if (!p->actx || !bctx)
		return -1;
	p->a = SSL_new(p->actx);
	b = SSL_new(bctx);
	SSL_set_fd(p->a, p->afd);
	SSL_set_fd(b, p->bfd);
	SSL_set_app_data(p->a, &kl);
	SSL_set_app_data(b, &kl);
	if (ours_server) {
		SSL_set_connect_state(p->a);
		SSL_set_accept_state(b);
	} else {
		SSL_set_accept_state(p->a);
		SSL_set_connect_state(b);
	}
	set_nonblock(p->afd, true);
	set_nonblock(p->bfd, true);
	for (i = 0; i < 1000 && (ra != 1 || rb != 1); i++) {
		if (ra != 1)
			ra = SSL_do_handshake(p->a);
		if (rb != 1)
			rb = SSL_do_handshake(b);
		if (ra != 1 && SSL_get_error(p->a, ra) != SSL_ERROR_WANT_READ)
			return -1;
		if (rb != 1 && SSL_get_error(b, rb) != SSL_ERROR_WANT_READ)
			return -1;
		usleep(100);
	}
	if (ra != 1 || rb != 1 || !kl.len)
		return -1;
	p->sec.suite = SSL_CIPHER_get_protocol_id(SSL_get_current_cipher(b));
	p->sec.hash = kl.len == 48 ? TLSX_HASH_SHA384 : TLSX_HASH_SHA256;
	p->sec.secret_len = kl.len;
	memcpy(p->sec.client, kl.c_ap, kl.len);
	memcpy(p->sec.server, kl.s_ap, kl.len);
	/* No SSL_shutdown: b goes without a word; its socket is ours. */
	SSL_free(b);
	SSL_CTX_free(bctx);
	set_nonblock(p->afd, false);
	set_nonblock(p->bfd, false);
	return 0;
}

static int take_over(struct pair *p, enum tlsx_record_layer rl, u64 limit,
		     u16 rsl)
{
	if (p->c)
		tlsx_conn_free(p->c);
	p->c = NULL;
	return tlsx__conn_from_secrets(p->bfd, p->ours_server, &p->sec, rl,
				       limit, rsl, &p->c);
}

static void pair_free(struct pair *p)
{
	tlsx_conn_free(p->c);
	SSL_free(p->a);
	SSL_CTX_free(p->actx);
	close(p->afd);
	close(p->bfd);
}

/* The peer's (OpenSSL's) sending secret. */
static const u8 *peer_secret(const struct pair *p)
{
	return p->ours_server ? p->sec.client : p->sec.server;
}

/*
 * A record as OpenSSL's end would send it, sealed under its first key at
 * sequence @seq and written straight into its socket.  @inner is the
 * TLSInnerPlaintext content, @type its type; @flip flips a tag bit.
 */
static int inject_pad(const struct pair *p, u64 seq, u8 type,
		      const u8 *inner, size_t len, size_t pad, bool flip)
{
	struct tlsx_rec_dir d = { 0 };
	u8 rec[TLSX_REC_MAX];
	size_t n;

	if (tlsx_rec_set_secret(&d, p->sec.suite, peer_secret(p),
				p->sec.secret_len))
		return -1;
	d.seq = seq;
	if (tlsx_rec_seal(&d, type, inner, len, pad, rec, sizeof(rec), &n))
		return -1;
	tlsx_rec_wipe(&d);
	if (flip)
		rec[n - 1] ^= 1;
	return write(p->afd, rec, n) == (ssize_t)n ? 0 : -1;
}

static int inject(const struct pair *p, u64 seq, u8 type, const u8 *inner,
		  size_t len, bool flip)
{
	return inject_pad(p, seq, type, inner, len, 0, flip);
}

static int ssl_read_all(SSL *s, u8 *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		int n = SSL_read(s, buf + got, len - got > 1 << 30 ?
				 1 << 30 : (int)(len - got));

		if (n <= 0)
			return -1;
		got += n;
	}
	return 0;
}

static int ssl_write_all(SSL *s, const u8 *buf, size_t len)
{
	size_t put = 0;

	while (put < len) {
		int n = SSL_write(s, buf + put, (int)(len - put));

		if (n <= 0)
			return -1;
		put += n;
	}
	return 0;
}

static ssize_t read_all(struct tlsx_conn *c, u8 *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = tlsx_read(c, buf + got, len - got);

		if (n <= 0)
			return n;
		got += n;
	}
	return got;
}

static void fill(u8 *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (u8)(i * 31 + seed + (i >> 9));
}

/* OpenSSL's end on a thread: reads or writes @len bytes of @buf. */
struct job {
	SSL *s;
	u8 *buf;
	size_t len;
	bool write;
	int ret;
	unsigned int delay_us;
};

static void *job_run(void *arg)
{
	struct job *j = arg;

	if (j->delay_us)
		usleep(j->delay_us);
	j->ret = j->write ? ssl_write_all(j->s, j->buf, j->len) :
			    ssl_read_all(j->s, j->buf, j->len);
	return NULL;
}

FIXTURE(rec)
{
	struct pair p;
};

FIXTURE_VARIANT(rec)
{
	bool ours_server;
	const char *suite;
};

FIXTURE_VARIANT_ADD(rec, client_aes128gcm)
{
	.ours_server = false, .suite = "TLS_AES_128_GCM_SHA256",
};

FIXTURE_VARIANT_ADD(rec, client_aes256gcm)
{
	.ours_server = false, .suite = "TLS_AES_256_GCM_SHA384",
};

FIXTURE_VARIANT_ADD(rec, client_chacha)
{
	.ours_server = false, .suite = "TLS_CHACHA20_POLY1305_SHA256",
};

FIXTURE_VARIANT_ADD(rec, client_aes128ccm)
{
	.ours_server = false, .suite = "TLS_AES_128_CCM_SHA256",
};

FIXTURE_VARIANT_ADD(rec, server_aes128gcm)
{
	.ours_server = true, .suite = "TLS_AES_128_GCM_SHA256",
};

FIXTURE_VARIANT_ADD(rec, server_aes256gcm)
{
	.ours_server = true, .suite = "TLS_AES_256_GCM_SHA384",
};

FIXTURE_VARIANT_ADD(rec, server_chacha)
{
	.ours_server = true, .suite = "TLS_CHACHA20_POLY1305_SHA256",
};

FIXTURE_VARIANT_ADD(rec, server_aes128ccm)
{
	.ours_server = true, .suite = "TLS_AES_128_CCM_SHA256",
};

FIXTURE_SETUP(rec)
{
	ASSERT_EQ(0, openssl_pair(&self->p, variant->ours_server,
				  variant->suite, 0));
	ASSERT_EQ(TLSX_OK, take_over(&self->p, TLSX_RL_USER, 0, 0));
	ASSERT_EQ(TLSX_RL_USER, tlsx_conn_record_layer(self->p.c));
}

FIXTURE_TEARDOWN(rec)
{
	pair_free(&self->p);
}

TEST_F(rec, data_both_ways)
{
	u8 buf[64];

	ASSERT_EQ(5, tlsx_write(self->p.c, "hello", 5));
	ASSERT_EQ(0, ssl_read_all(self->p.a, buf, 5));
	EXPECT_EQ(0, memcmp(buf, "hello", 5));
	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"world!", 6));
	ASSERT_EQ(6, read_all(self->p.c, buf, 6));
	EXPECT_EQ(0, memcmp(buf, "world!", 6));
}

/* A read smaller than the record: the rest comes on the next reads. */
TEST_F(rec, small_reads)
{
	u8 msg[3000], buf[3000];
	size_t got = 0;

	fill(msg, sizeof(msg), 3);
	ASSERT_EQ(0, ssl_write_all(self->p.a, msg, sizeof(msg)));
	while (got < sizeof(msg)) {
		ssize_t n = tlsx_read(self->p.c, buf + got, 7);

		ASSERT_GT(n, 0);
		ASSERT_LE(n, 7);
		got += n;
	}
	EXPECT_EQ(0, memcmp(msg, buf, sizeof(msg)));
}

TEST_F(rec, large_write)
{
	u8 *msg = malloc(MIB), *got = malloc(MIB);
	struct job j = { .s = self->p.a, .buf = got, .len = MIB };
	pthread_t t;

	ASSERT_TRUE(msg && got);
	fill(msg, MIB, 1);
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	EXPECT_EQ(MIB, tlsx_write(self->p.c, msg, MIB));
	pthread_join(t, NULL);
	EXPECT_EQ(0, j.ret);
	EXPECT_EQ(0, memcmp(msg, got, MIB));
	free(msg);
	free(got);
}

TEST_F(rec, large_read)
{
	u8 *msg = malloc(MIB), *got = malloc(MIB);
	struct job j = { .s = self->p.a, .buf = msg, .len = MIB,
			 .write = true };
	pthread_t t;

	ASSERT_TRUE(msg && got);
	fill(msg, MIB, 2);
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	EXPECT_EQ(MIB, read_all(self->p.c, got, MIB));
	pthread_join(t, NULL);
	EXPECT_EQ(0, j.ret);
	EXPECT_EQ(0, memcmp(msg, got, MIB));
	free(msg);
	free(got);
}

TEST_F(rec, sendfile)
{
	char path[] = "/tmp/test_libtlsx_XXXXXX";
	size_t size = 100000, count = 70000;
	u8 *data = malloc(size), *got = malloc(count);
	struct job j = { .s = self->p.a, .buf = got, .len = count };
	off_t off = 1000;
	pthread_t t;
	int fd = mkstemp(path);

	ASSERT_TRUE(data && got && fd >= 0);
	unlink(path);
	fill(data, size, 5);
	ASSERT_EQ((ssize_t)size, write(fd, data, size));
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	EXPECT_EQ((ssize_t)count, tlsx_sendfile(self->p.c, fd, &off, count));
	pthread_join(t, NULL);
	EXPECT_EQ(1000 + (off_t)count, off);
	EXPECT_EQ(0, j.ret);
	EXPECT_EQ(0, memcmp(data + 1000, got, count));
	/* Past the end of the file: what there is. */
	off = size - 10;
	j.len = 10;
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	EXPECT_EQ(10, tlsx_sendfile(self->p.c, fd, &off, 500));
	pthread_join(t, NULL);
	EXPECT_EQ(0, memcmp(data + size - 10, got, 10));
	close(fd);
	free(data);
	free(got);
}

/*
 * tlsx_sendv()'s material: HTTP/2-like frames, a 9-octet header in
 * memory then a range of one file, @nframes of them with payloads of
 * every size class (0, 1, small, a record less the header, more than a
 * record), the ranges of one body following each other (one preadv for
 * several) and now and then jumping back (a second stream's body).
 */
struct sv {
	int fd;
	u8 *file;
	size_t file_len;
	struct tlsx_piece p[400];
	u8 hdr[200][9];
	unsigned int n;
	u8 *want;		/* the stream the peer must read */
	size_t len;
};

static int sv_make(struct sv *v, unsigned int nframes)
{
	static const size_t sizes[] = { 16375, 16375, 0, 1, 1000, 16375,
					40000, 7, 16384, 16375, 3 };
	char path[] = "/tmp/test_libtlsx_sv_XXXXXX";
	off_t off = 0;
	unsigned int f;

	v->file_len = 1 << 20;
	v->file = malloc(v->file_len);
	v->want = malloc(nframes * (9 + 40000));
	v->fd = mkstemp(path);
	if (!v->file || !v->want || v->fd < 0 || nframes > 200)
		return -1;
	unlink(path);
	fill(v->file, v->file_len, 11);
	if (write(v->fd, v->file, v->file_len) != (ssize_t)v->file_len)
		return -1;
	v->n = 0;
	v->len = 0;
	for (f = 0; f < nframes; f++) {
		size_t len = sizes[f % ARRAY_SIZE(sizes)];

		if (f % 13 == 12)
			off = 4096 * (f % 7);	/* another body */
		if (off + (off_t)len > (off_t)v->file_len)
			off = 0;
		fill(v->hdr[f], 9, f);
		v->p[v->n++] = (struct tlsx_piece){ .mem = v->hdr[f], .fd = -1,
						    .len = 9 };
		memcpy(v->want + v->len, v->hdr[f], 9);
		v->len += 9;
		v->p[v->n++] = (struct tlsx_piece){ .fd = v->fd, .off = off,
						    .len = len };
		memcpy(v->want + v->len, v->file + off, len);
		v->len += len;
		off += len;
	}
	return 0;
}

static void sv_free(struct sv *v)
{
	close(v->fd);
	free(v->file);
	free(v->want);
}

/* The pieces from byte @skip of their stream: what a caller gives again. */
static unsigned int sv_from(const struct sv *v, size_t skip,
			    struct tlsx_piece *out)
{
	unsigned int i, k = 0;

	for (i = 0; i < v->n; i++) {
		struct tlsx_piece q = v->p[i];

		if (skip >= q.len) {
			skip -= q.len;
			continue;
		}
		if (q.mem)
			q.mem = (const u8 *)q.mem + skip;
		else
			q.off += skip;
		q.len -= skip;
		skip = 0;
		out[k++] = q;
	}
	return k;
}

/* OpenSSL's end: one SSL_read per record, each record's size noted. */
struct rec_reader {
	SSL *s;
	u8 *buf;
	size_t len;
	size_t sizes[4096];
	unsigned int nrec;
	int ret;
};

static void *rec_reader_run(void *arg)
{
	struct rec_reader *r = arg;
	size_t got = 0;

	r->ret = 0;
	while (got < r->len) {
		int n = SSL_read(r->s, r->buf + got, (int)(r->len - got));

		if (n <= 0) {
			r->ret = -1;
			return NULL;
		}
		if (r->nrec < ARRAY_SIZE(r->sizes))
			r->sizes[r->nrec++] = n;
		got += n;
	}
	return NULL;
}

/*
 * Frames in one call: the peer reads the stream byte for byte, in full
 * records (a record holds the end of one frame and the start of the
 * next), only the last one short.
 */
TEST_F(rec, sendv_frames)
{
	struct sv v;
	struct rec_reader *r = calloc(1, sizeof(*r));
	pthread_t t;
	unsigned int i;

	ASSERT_TRUE(r != NULL);
	ASSERT_EQ(0, sv_make(&v, 60));
	r->s = self->p.a;
	r->len = v.len;
	r->buf = malloc(v.len);
	ASSERT_TRUE(r->buf != NULL);
	/* OpenSSL returns one record per SSL_read (no read-ahead merging). */
	ASSERT_EQ(0, pthread_create(&t, NULL, rec_reader_run, r));
	EXPECT_EQ((ssize_t)v.len, tlsx_sendv(self->p.c, v.p, v.n));
	pthread_join(t, NULL);
	ASSERT_EQ(0, r->ret);
	EXPECT_EQ(0, memcmp(v.want, r->buf, v.len));
	ASSERT_EQ((v.len + 16383) / 16384, r->nrec);
	for (i = 0; i + 1 < r->nrec; i++)
		ASSERT_EQ(16384, r->sizes[i]);
	EXPECT_EQ(v.len - (r->nrec - 1) * 16384, r->sizes[r->nrec - 1]);
	/* Nothing, and empty pieces only: 0, nothing sent. */
	EXPECT_EQ(0, tlsx_sendv(self->p.c, v.p, 0));
	EXPECT_EQ(0, tlsx_sendv(self->p.c, &v.p[5], 1));
	/* A file range without a file. */
	v.p[1].fd = -1;
	EXPECT_EQ(TLSX_E_INVAL, tlsx_sendv(self->p.c, v.p, 2));
	free(r->buf);
	free(r);
	sv_free(&v);
}

/* A file shorter than its piece: the call stops at its last byte. */
TEST_F(rec, sendv_file_ends)
{
	struct sv v;
	struct tlsx_piece q[3];
	struct job j = { .s = self->p.a };
	pthread_t t;
	u8 got[9 + 100];

	ASSERT_EQ(0, sv_make(&v, 1));
	q[0] = v.p[0];
	q[1] = (struct tlsx_piece){ .fd = v.fd, .off = v.file_len - 100,
				    .len = 5000 };
	q[2] = v.p[0];
	j.buf = got;
	j.len = sizeof(got);
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	EXPECT_EQ((ssize_t)sizeof(got), tlsx_sendv(self->p.c, q, 3));
	pthread_join(t, NULL);
	EXPECT_EQ(0, j.ret);
	EXPECT_EQ(0, memcmp(got, v.hdr[0], 9));
	EXPECT_EQ(0, memcmp(got + 9, v.file + v.file_len - 100, 100));
	sv_free(&v);
}

/*
 * A non-blocking socket that takes little: calls stop mid-way (EAGAIN
 * between and inside batches), the caller gives the pieces again from
 * the first byte not taken; the peer reads every byte once, in order.
 */
TEST_F(rec, sendv_nonblocking_partial)
{
	struct sv v;
	struct tlsx_piece *q = malloc(sizeof(v.p));
	size_t put = 0, total;
	struct job j = { .s = self->p.a, .delay_us = 50000 };
	int sndbuf = 4096, wants = 0, partial = 0, ret;
	unsigned int round;
	pthread_t t;
	u8 *got;

	ASSERT_TRUE(q != NULL);
	ASSERT_EQ(0, sv_make(&v, 200));
	/* The stream twice: 2 x 200 frames. */
	total = 2 * v.len;
	got = malloc(total);
	ASSERT_TRUE(got != NULL);
	j.buf = got;
	j.len = total;
	setsockopt(self->p.bfd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
		   sizeof(sndbuf));
	set_nonblock(self->p.bfd, true);
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	for (round = 0; round < 2; round++) {
		size_t at = 0;

		while (at < v.len) {
			struct pollfd pfd = { .fd = self->p.bfd,
					      .events = POLLOUT };
			unsigned int k = sv_from(&v, at, q);
			ssize_t n = tlsx_sendv(self->p.c, q, k);

			if (n == TLSX_WANT_WRITE) {
				wants++;
				ASSERT_LE(0, poll(&pfd, 1, 5000));
				continue;
			}
			ASSERT_GT(n, 0);
			ASSERT_LE((size_t)n, v.len - at);
			if ((size_t)n < v.len - at)
				partial++;
			at += n;
		}
		put += at;
	}
	while ((ret = tlsx_conn_flush(self->p.c)) == TLSX_WANT_WRITE) {
		struct pollfd pfd = { .fd = self->p.bfd, .events = POLLOUT };

		poll(&pfd, 1, 5000);
	}
	EXPECT_EQ(TLSX_OK, ret);
	pthread_join(t, NULL);
	EXPECT_EQ(0, j.ret);
	EXPECT_EQ(total, put);
	for (round = 0; round < 2; round++)
		EXPECT_EQ(0, memcmp(v.want, got + round * v.len, v.len));
	EXPECT_GT(wants, 0);
	EXPECT_GT(partial, 0);
	TH_LOG("%d calls stopped mid-way, %d took nothing", partial, wants);
	free(got);
	free(q);
	sv_free(&v);
}

/* A socket that takes little: writes are partial, nothing is lost. */
TEST_F(rec, nonblocking_partial_writes)
{
	size_t len = 4 * MIB, put = 0;
	u8 *msg = malloc(len), *got = malloc(len);
	struct job j = { .s = self->p.a, .buf = got, .len = len,
			 .delay_us = 50000 };
	int sndbuf = 4096, wants = 0, ret;
	pthread_t t;

	ASSERT_TRUE(msg && got);
	fill(msg, len, 7);
	setsockopt(self->p.bfd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
		   sizeof(sndbuf));
	set_nonblock(self->p.bfd, true);
	ASSERT_EQ(0, pthread_create(&t, NULL, job_run, &j));
	while (put < len) {
		struct pollfd pfd = { .fd = self->p.bfd, .events = POLLOUT };
		ssize_t n = tlsx_write(self->p.c, msg + put, len - put);

		if (n == TLSX_WANT_WRITE) {
			wants++;
			ASSERT_LE(0, poll(&pfd, 1, 5000));
			continue;
		}
		ASSERT_GT(n, 0);
		put += n;
	}
	while ((ret = tlsx_conn_flush(self->p.c)) == TLSX_WANT_WRITE) {
		struct pollfd pfd = { .fd = self->p.bfd, .events = POLLOUT };

		poll(&pfd, 1, 5000);
	}
	EXPECT_EQ(TLSX_OK, ret);
	pthread_join(t, NULL);
	EXPECT_EQ(0, j.ret);
	EXPECT_EQ(0, memcmp(msg, got, len));
	EXPECT_GT(wants, 0);
	free(msg);
	free(got);
}

TEST_F(rec, nonblocking_read)
{
	u8 buf[16];

	set_nonblock(self->p.bfd, true);
	EXPECT_EQ(TLSX_WANT_READ, tlsx_read(self->p.c, buf, sizeof(buf)));
	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"abc", 3));
	for (;;) {
		struct pollfd pfd = { .fd = self->p.bfd, .events = POLLIN };
		ssize_t n = tlsx_read(self->p.c, buf, sizeof(buf));

		if (n == TLSX_WANT_READ) {
			ASSERT_EQ(1, poll(&pfd, 1, 5000));
			continue;
		}
		ASSERT_EQ(3, n);
		break;
	}
	EXPECT_EQ(0, memcmp(buf, "abc", 3));
}

/* 4.6.3: a KeyUpdate asking for ours gets ours before our next data. */
TEST_F(rec, peer_key_update_requested)
{
	struct tlsx_conn_info info;
	u8 buf[8];

	ASSERT_EQ(1, SSL_key_update(self->p.a, SSL_KEY_UPDATE_REQUESTED));
	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"x", 1));
	ASSERT_EQ(1, read_all(self->p.c, buf, 1));
	EXPECT_EQ('x', buf[0]);
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->p.c, &info));
	EXPECT_EQ(1, info.key_updates_received);
	EXPECT_EQ(1, info.key_updates_sent);
	/* Our data under our new key; OpenSSL followed the change. */
	ASSERT_EQ(1, tlsx_write(self->p.c, "y", 1));
	ASSERT_EQ(0, ssl_read_all(self->p.a, buf, 1));
	EXPECT_EQ('y', buf[0]);
	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"z", 1));
	ASSERT_EQ(1, read_all(self->p.c, buf, 1));
	EXPECT_EQ('z', buf[0]);
}

TEST_F(rec, peer_key_update_not_requested)
{
	struct tlsx_conn_info info;
	u8 buf[8];
	int i;

	for (i = 0; i < 3; i++) {
		ASSERT_EQ(1, SSL_key_update(self->p.a,
					    SSL_KEY_UPDATE_NOT_REQUESTED));
		ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"x", 1));
		ASSERT_EQ(1, read_all(self->p.c, buf, 1));
	}
	ASSERT_EQ(1, tlsx_write(self->p.c, "y", 1));
	ASSERT_EQ(0, ssl_read_all(self->p.a, buf, 1));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->p.c, &info));
	EXPECT_EQ(3, info.key_updates_received);
	EXPECT_EQ(0, info.key_updates_sent);
}

/* Ours, asking for the peer's: OpenSSL answers, and we follow. */
TEST_F(rec, own_key_update)
{
	struct tlsx_conn_info info;
	u8 buf[8];

	ASSERT_EQ(TLSX_OK, tlsx_conn_key_update(self->p.c, true));
	ASSERT_EQ(1, tlsx_write(self->p.c, "a", 1));
	ASSERT_EQ(0, ssl_read_all(self->p.a, buf, 1));
	EXPECT_EQ('a', buf[0]);
	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"b", 1));
	ASSERT_EQ(1, read_all(self->p.c, buf, 1));
	EXPECT_EQ('b', buf[0]);
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->p.c, &info));
	EXPECT_EQ(1, info.key_updates_sent);
	EXPECT_EQ(1, info.key_updates_received);
	/* Not requested: OpenSSL changes its receiving key only. */
	ASSERT_EQ(TLSX_OK, tlsx_conn_key_update(self->p.c, false));
	ASSERT_EQ(1, tlsx_write(self->p.c, "c", 1));
	ASSERT_EQ(0, ssl_read_all(self->p.a, buf, 1));
	EXPECT_EQ('c', buf[0]);
}

/* 5.5: a KeyUpdate of our own before the limit, here 4 records. */
TEST_F(rec, rekey_at_limit)
{
	struct tlsx_conn_info info;
	u8 msg[1000], got[1000];
	int i;

	ASSERT_EQ(TLSX_OK, take_over(&self->p, TLSX_RL_USER, 4, 0));
	fill(msg, sizeof(msg), 9);
	for (i = 0; i < 10; i++)
		ASSERT_EQ(100, tlsx_write(self->p.c, msg + 100 * i, 100));
	ASSERT_EQ(0, ssl_read_all(self->p.a, got, sizeof(got)));
	EXPECT_EQ(0, memcmp(msg, got, sizeof(got)));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->p.c, &info));
	/* 3 data records and the KeyUpdate under each of 3 keys. */
	EXPECT_EQ(3, info.key_updates_sent);
	EXPECT_EQ(1, tlsx__u_tx_seq(self->p.c));
}

TEST_F(rec, close_notify_sent)
{
	u8 buf[8];
	int n;

	ASSERT_EQ(TLSX_OK, tlsx_close(self->p.c));
	n = SSL_read(self->p.a, buf, sizeof(buf));
	EXPECT_EQ(0, n);
	EXPECT_EQ(SSL_ERROR_ZERO_RETURN, SSL_get_error(self->p.a, n));
	EXPECT_EQ(TLSX_E_CLOSED, tlsx_write(self->p.c, "x", 1));
	/* 6.1: the other direction stays open. */
	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"late", 4));
	ASSERT_EQ(4, read_all(self->p.c, buf, 4));
	EXPECT_EQ(0, memcmp(buf, "late", 4));
}

TEST_F(rec, close_notify_received)
{
	u8 buf[8];

	ASSERT_EQ(0, ssl_write_all(self->p.a, (const u8 *)"bye", 3));
	SSL_shutdown(self->p.a);
	ASSERT_EQ(3, read_all(self->p.c, buf, 3));
	EXPECT_EQ(0, tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ(0, tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ(TLSX_OK, tlsx_close(self->p.c));
}

/* 6.1: the TCP stream ends without close_notify: a truncation. */
TEST_F(rec, eof_without_close_notify)
{
	u8 buf[8];

	shutdown(self->p.afd, SHUT_WR);
	EXPECT_EQ(TLSX_E_EOF, tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ(TLSX_E_EOF, tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ(TLSX_E_EOF, tlsx_write(self->p.c, "x", 1));
}

TEST_F(rec, fatal_alert_received)
{
	static const u8 a[2] = { 2, TLSX_ALERT_HANDSHAKE_FAILURE };
	u8 buf[8];

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_ALERT, a, 2, false));
	EXPECT_EQ(TLSX_E_ALERT_RECEIVED,
		  tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ(TLSX_ALERT_HANDSHAKE_FAILURE, tlsx_conn_alert(self->p.c));
	EXPECT_EQ(TLSX_E_ALERT_RECEIVED, tlsx_write(self->p.c, "x", 1));
}

/* 6.1: user_canceled, then close_notify: a clean end. */
TEST_F(rec, user_canceled_then_close)
{
	static const u8 a1[2] = { 1, TLSX_ALERT_USER_CANCELED };
	static const u8 a2[2] = { 1, TLSX_ALERT_CLOSE_NOTIFY };
	u8 buf[8];

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_ALERT, a1, 2, false));
	ASSERT_EQ(0, inject(&self->p, 1, TLSX_CT_ALERT, a2, 2, false));
	EXPECT_EQ(0, tlsx_read(self->p.c, buf, sizeof(buf)));
}

/*
 * A record the peer may not send: libtlsx answers with @alert, OpenSSL
 * reads that alert, every later call fails the same.
 */
static void refused(struct __test_metadata *_metadata, struct pair *p,
		    int alert)
{
	u8 buf[8];
	int n;

	EXPECT_EQ(TLSX_E_ALERT_SENT, tlsx_read(p->c, buf, sizeof(buf)));
	EXPECT_EQ(alert, tlsx_conn_alert(p->c));
	EXPECT_EQ(TLSX_E_ALERT_SENT, tlsx_read(p->c, buf, sizeof(buf)));
	EXPECT_EQ(TLSX_E_ALERT_SENT, tlsx_write(p->c, "x", 1));
	n = SSL_read(p->a, buf, sizeof(buf));
	EXPECT_GE(0, n);
	EXPECT_EQ(SSL_ERROR_SSL, SSL_get_error(p->a, n));
}

TEST_F(rec, bad_record_mac)
{
	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_APPLICATION_DATA,
			    (const u8 *)"data", 4, true));
	refused(_metadata, &self->p, TLSX_ALERT_BAD_RECORD_MAC);
}

/* 5.3: a record under a sequence number skipped does not open. */
TEST_F(rec, wrong_sequence)
{
	ASSERT_EQ(0, inject(&self->p, 1, TLSX_CT_APPLICATION_DATA,
			    (const u8 *)"data", 4, false));
	refused(_metadata, &self->p, TLSX_ALERT_BAD_RECORD_MAC);
}

/* 5: change_cipher_spec after the handshake. */
TEST_F(rec, plaintext_ccs_after_handshake)
{
	static const u8 ccs[6] = { 20, 3, 3, 0, 1, 1 };

	ASSERT_EQ(6, write(self->p.afd, ccs, 6));
	refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

/* 5.1: a record over 2^14 + 256 bytes. */
TEST_F(rec, record_overflow)
{
	u8 hdr[5] = { 23, 3, 3 };

	put_unaligned_be16(TLSX_REC_MAX_CIPHER + 1, hdr + 3);
	ASSERT_EQ(5, write(self->p.afd, hdr, 5));
	refused(_metadata, &self->p, TLSX_ALERT_RECORD_OVERFLOW);
}

/* 5.1: a zero-length Handshake fragment. */
TEST_F(rec, empty_handshake_record)
{
	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, NULL, 0, false));
	refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

/* 4.6.3: request_update is 0 or 1. */
TEST_F(rec, key_update_bad_request)
{
	static const u8 ku[5] = { TLSX_HS_KEY_UPDATE, 0, 0, 1, 2 };

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, ku, 5, false));
	refused(_metadata, &self->p, TLSX_ALERT_ILLEGAL_PARAMETER);
}

TEST_F(rec, key_update_bad_length)
{
	static const u8 ku[6] = { TLSX_HS_KEY_UPDATE, 0, 0, 2, 0, 0 };

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, ku, 6, false));
	refused(_metadata, &self->p, TLSX_ALERT_DECODE_ERROR);
}

/* 5.1: a message before a key change must end its record. */
TEST_F(rec, key_update_not_at_record_end)
{
	static const u8 two[10] = { TLSX_HS_KEY_UPDATE, 0, 0, 1, 0,
				    TLSX_HS_KEY_UPDATE, 0, 0, 1, 0 };

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, two, 10, false));
	refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

/* No post_handshake_auth was offered: a CertificateRequest is unexpected. */
TEST_F(rec, certificate_request_after_handshake)
{
	static const u8 cr[8] = { 13, 0, 0, 4, 0, 0, 0, 0 };

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, cr, 8, false));
	refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

/* 5.1: one alert per record. */
TEST_F(rec, alert_wrong_length)
{
	static const u8 a[3] = { 2, TLSX_ALERT_HANDSHAKE_FAILURE, 0 };

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_ALERT, a, 3, false));
	refused(_metadata, &self->p, TLSX_ALERT_DECODE_ERROR);
}

/*
 * 5.4: an alert record with no content, padded or not, is
 * unexpected_message (tlsfuzzer's test-tls13-empty-alert.py); it was
 * decode_error.
 */
TEST_F(rec, alert_empty)
{
	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_ALERT, NULL, 0, false));
	refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

TEST_F(rec, alert_empty_padded)
{
	ASSERT_EQ(0, inject_pad(&self->p, 0, TLSX_CT_ALERT, NULL, 0, 5,
				false));
	refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

/*
 * 5.1: "if a handshake message is split over two or more records, there
 * MUST NOT be any other records between them": a KeyUpdate split after
 * two bytes with application data (@len bytes of it, 0: an empty record)
 * or an alert between its fragments is unexpected_message; the
 * application data was handed out (issue 26).
 */
static void key_update_split_by(struct __test_metadata *_metadata,
				struct pair *p, u8 type, const u8 *mid,
				size_t len)
{
	static const u8 ku[5] = { TLSX_HS_KEY_UPDATE, 0, 0, 1, 0 };

	ASSERT_EQ(0, inject(p, 0, TLSX_CT_HANDSHAKE, ku, 2, false));
	ASSERT_EQ(0, inject(p, 1, type, mid, len, false));
	ASSERT_EQ(0, inject(p, 2, TLSX_CT_HANDSHAKE, ku + 2, 3, false));
	refused(_metadata, p, TLSX_ALERT_UNEXPECTED_MESSAGE);
}

TEST_F(rec, key_update_split_by_data)
{
	key_update_split_by(_metadata, &self->p, TLSX_CT_APPLICATION_DATA,
			    (const u8 *)"data", 4);
}

TEST_F(rec, key_update_split_by_empty_data)
{
	key_update_split_by(_metadata, &self->p, TLSX_CT_APPLICATION_DATA,
			    NULL, 0);
}

TEST_F(rec, key_update_split_by_alert)
{
	static const u8 a[2] = { 1, TLSX_ALERT_USER_CANCELED };

	key_update_split_by(_metadata, &self->p, TLSX_CT_ALERT, a, 2);
}

/*
 * The same KeyUpdate split with nothing between: taken, and data under
 * the peer's next key (7.2) follows.
 */
TEST_F(rec, key_update_split)
{
	static const u8 ku[5] = { TLSX_HS_KEY_UPDATE, 0, 0, 1, 0 };
	struct tlsx_rec_dir d = { 0 };
	u8 sec[TLSX_KS_MAX_SECRET], rec[64], buf[8];
	size_t n;

	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, ku, 2, false));
	ASSERT_EQ(0, inject(&self->p, 1, TLSX_CT_HANDSHAKE, ku + 2, 3,
			    false));
	memcpy(sec, peer_secret(&self->p), self->p.sec.secret_len);
	ASSERT_EQ(0, tlsx_next_traffic_secret(self->p.sec.hash, sec));
	ASSERT_EQ(0, tlsx_rec_set_secret(&d, self->p.sec.suite, sec,
					 self->p.sec.secret_len));
	ASSERT_EQ(0, tlsx_rec_seal(&d, TLSX_CT_APPLICATION_DATA,
				   (const u8 *)"next", 4, 0, rec, sizeof(rec),
				   &n));
	tlsx_rec_wipe(&d);
	ASSERT_EQ((ssize_t)n, write(self->p.afd, rec, n));
	ASSERT_EQ(4, tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ(0, memcmp(buf, "next", 4));
}

static int tickets_seen;
static size_t ticket_len_seen;

static int count_ticket(struct tlsx_conn *c, const u8 *msg, size_t len)
{
	(void)c;
	if (msg[0] == TLSX_HS_NEW_SESSION_TICKET)
		tickets_seen++;
	ticket_len_seen = len;
	return 0;
}

/*
 * A NewSessionTicket: a client hands it to the hook whole, even split
 * over two records (5.1); a server refuses it (4.6.1).
 */
TEST_F(rec, new_session_ticket_after_handshake)
{
	static const u8 nst[] = {
		TLSX_HS_NEW_SESSION_TICKET, 0, 0, 17,
		0, 0, 0x1c, 0x20,	/* lifetime */
		1, 2, 3, 4,		/* age_add */
		1, 9,			/* nonce */
		0, 3, 'a', 'b', 'c',	/* ticket */
		0, 0,			/* extensions */
	};
	u8 buf[8];

	tickets_seen = 0;
	self->p.c->on_ticket = count_ticket;
	ASSERT_EQ(0, inject(&self->p, 0, TLSX_CT_HANDSHAKE, nst, 10, false));
	ASSERT_EQ(0, inject(&self->p, 1, TLSX_CT_HANDSHAKE, nst + 10,
			    sizeof(nst) - 10, false));
	ASSERT_EQ(0, inject(&self->p, 2, TLSX_CT_APPLICATION_DATA,
			    (const u8 *)"d", 1, false));
	if (variant->ours_server) {
		refused(_metadata, &self->p, TLSX_ALERT_UNEXPECTED_MESSAGE);
		EXPECT_EQ(0, tickets_seen);
		return;
	}
	ASSERT_EQ(1, tlsx_read(self->p.c, buf, sizeof(buf)));
	EXPECT_EQ('d', buf[0]);
	EXPECT_EQ(1, tickets_seen);
	EXPECT_EQ(sizeof(nst), ticket_len_seen);
}

/*
 * The peer as raw records on @fd, its sending key followed through its
 * own KeyUpdates, and (@rx) ours through those it reads.
 */
struct raw {
	int fd;
	u16 suite;
	enum tlsx_hash_alg hash;
	size_t secret_len;
	struct tlsx_rec_dir d, rx;
	u8 secret[TLSX_KS_MAX_SECRET], rx_secret[TLSX_KS_MAX_SECRET];
	u8 in[2 * TLSX_REC_MAX];
	size_t in_len;
	unsigned int ku_seen;
	size_t data_seen;
};

static int raw_init_fd(struct raw *r, int fd, const struct tlsx_hs_secrets *sec,
		       const u8 *tx, const u8 *rx)
{
	memset(r, 0, sizeof(*r));
	r->fd = fd;
	r->suite = sec->suite;
	r->hash = sec->hash;
	r->secret_len = sec->secret_len;
	memcpy(r->secret, tx, sec->secret_len);
	memcpy(r->rx_secret, rx, sec->secret_len);
	if (tlsx_rec_set_secret(&r->rx, r->suite, r->rx_secret,
				r->secret_len))
		return -1;
	return tlsx_rec_set_secret(&r->d, r->suite, r->secret,
				   r->secret_len);
}

static int raw_init(struct raw *r, const struct pair *p)
{
	const u8 *ours = p->ours_server ? p->sec.server : p->sec.client;

	return raw_init_fd(r, p->afd, &p->sec, peer_secret(p), ours);
}

static int raw_send(struct raw *r, u8 type, const u8 *inner, size_t len)
{
	u8 rec[TLSX_REC_MAX];
	size_t n;

	if (tlsx_rec_seal(&r->d, type, inner, len, 0, rec, sizeof(rec), &n))
		return -1;
	return write(r->fd, rec, n) == (ssize_t)n ? 0 : -1;
}

/* A KeyUpdate (4.6.3), then the peer's next key (7.2). */
static int raw_key_update(struct raw *r, bool request)
{
	u8 msg[5] = { TLSX_HS_KEY_UPDATE, 0, 0, 1, request };

	if (raw_send(r, TLSX_CT_HANDSHAKE, msg, sizeof(msg)) ||
	    tlsx_next_traffic_secret(r->hash, r->secret))
		return -1;
	return tlsx_rec_set_secret(&r->d, r->suite, r->secret,
				   r->secret_len);
}

/*
 * Reads what @r->fd (non-blocking) has and opens our records: data
 * counted, our KeyUpdates counted and followed.  -1 on a record that
 * does not open.
 */
static int raw_drain(struct raw *r)
{
	for (;;) {
		ssize_t n = read(r->fd, r->in + r->in_len,
				 sizeof(r->in) - r->in_len);
		size_t at = 0, body;

		if (n <= 0)
			return n < 0 && errno != EAGAIN ? -1 : 0;
		r->in_len += n;
		while (r->in_len - at >= TLSX_REC_HDR) {
			u8 type, *data;
			size_t len;

			body = (size_t)r->in[at + 3] << 8 | r->in[at + 4];
			if (r->in_len - at < TLSX_REC_HDR + body)
				break;
			if (tlsx_rec_open(&r->rx, r->in + at,
					  TLSX_REC_HDR + body,
					  TLSX_REC_MAX_PLAIN, &type, &data,
					  &len))
				return -1;
			at += TLSX_REC_HDR + body;
			if (type == TLSX_CT_APPLICATION_DATA) {
				r->data_seen += len;
				continue;
			}
			if (type != TLSX_CT_HANDSHAKE || len != 5 ||
			    data[0] != TLSX_HS_KEY_UPDATE)
				return -1;
			r->ku_seen++;
			if (tlsx_next_traffic_secret(r->hash, r->rx_secret) ||
			    tlsx_rec_set_secret(&r->rx, r->suite,
						r->rx_secret, r->secret_len))
				return -1;
		}
		memmove(r->in, r->in + at, r->in_len - at);
		r->in_len -= at;
	}
}

static void raw_free(struct raw *r)
{
	tlsx_rec_wipe(&r->d);
	tlsx_rec_wipe(&r->rx);
	memzero_explicit(r->secret, sizeof(r->secret));
	memzero_explicit(r->rx_secret, sizeof(r->rx_secret));
}

/*
 * A peer that asks for KeyUpdates and does not read (issue 26 item 1),
 * on a socketpair, whose buffers do not move once full: a read on a
 * non-blocking socket with a full send side returns at once with the
 * reply owed (TLSX_WANT_WRITE; nothing more is read until it goes, and
 * no reply is sealed per request); once the peer reads,
 * tlsx_conn_flush() pays it, and the keys stay in step.
 */
TEST(key_update_requests_not_read)
{
	static u8 big[65536];
	struct tlsx_hs_secrets sec = {
		.suite = TLSX_SUITE_AES_128_GCM_SHA256,
		.hash = TLSX_HASH_SHA256, .secret_len = 32,
	};
	struct tlsx_conn_info info;
	struct tlsx_conn *c;
	struct raw r;
	size_t total = 0;
	int sv[2], i, small = 4096;
	bool got_x = false;
	ssize_t n;
	u8 buf[8];

	fill(sec.client, 32, 1);
	fill(sec.server, 32, 2);
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &small, sizeof(small));
	ASSERT_EQ(TLSX_OK, tlsx__conn_from_secrets(sv[0], true, &sec,
						   TLSX_RL_USER, 0, 0, &c));
	ASSERT_EQ(0, raw_init_fd(&r, sv[1], &sec, sec.client, sec.server));
	set_nonblock(sv[0], true);
	set_nonblock(sv[1], true);
	while ((n = tlsx_write(c, big, sizeof(big))) > 0)
		total += n;
	ASSERT_EQ(TLSX_WANT_WRITE, n);
	for (i = 0; i < 20; i++)
		ASSERT_EQ(0, raw_key_update(&r, true));
	ASSERT_EQ(0, raw_send(&r, TLSX_CT_APPLICATION_DATA,
			      (const u8 *)"x", 1));

	/* A call or two (16 records each), then the reply blocks reads. */
	for (i = 0; i < 4; i++) {
		n = tlsx_read(c, buf, sizeof(buf));
		if (n == 1 && buf[0] == 'x')
			got_x = true;
		if (n == TLSX_WANT_WRITE)
			break;
	}
	EXPECT_EQ(TLSX_WANT_WRITE, n);
	EXPECT_TRUE(tlsx_conn_want_write(c));
	EXPECT_EQ(TLSX_WANT_WRITE, tlsx_read(c, buf, sizeof(buf)));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(c, &info));
	EXPECT_EQ(RX_PER_CALL_T, info.key_updates_received);
	EXPECT_EQ(0, info.key_updates_sent);

	/* The peer reads: the reply goes, then the rest is read. */
	for (i = 0; i < 1000 && (!got_x || tlsx_conn_want_write(c)); i++) {
		ASSERT_EQ(0, raw_drain(&r));
		n = tlsx_conn_flush(c);
		ASSERT_TRUE(n == TLSX_OK || n == TLSX_WANT_WRITE);
		n = tlsx_read(c, buf, sizeof(buf));
		if (n == 1 && buf[0] == 'x')
			got_x = true;
		else
			ASSERT_TRUE(n == TLSX_WANT_READ ||
				    n == TLSX_WANT_WRITE);
	}
	EXPECT_TRUE(got_x);
	EXPECT_FALSE(tlsx_conn_want_write(c));
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(c, &info));
	EXPECT_EQ(20, info.key_updates_received);
	/* One reply per burst (the two read calls'), not 20. */
	EXPECT_EQ(2, info.key_updates_sent);
	ASSERT_EQ(1, tlsx_write(c, "y", 1));
	ASSERT_EQ(0, raw_drain(&r));
	EXPECT_EQ(2, r.ku_seen);
	EXPECT_EQ(total + 1, r.data_seen);
	raw_free(&r);
	tlsx_conn_free(c);
	close(sv[0]);
	close(sv[1]);
}

/*
 * Records without application data (issue 26 item 4): a non-blocking
 * read works through RX_PER_CALL of them and returns TLSX_WANT_READ with
 * the rest kept (tlsx_pending()); RX_RUN_MAX in a row are allowed.
 */
static void run_of(struct __test_metadata *_metadata, struct raw *r,
		   int what, int count, bool then_data)
{
	static const u8 cancel[2] = { 1, TLSX_ALERT_USER_CANCELED };
	int i;

	for (i = 0; i < count; i++) {
		switch (what) {
		case 0:
			ASSERT_EQ(0, raw_send(r, TLSX_CT_APPLICATION_DATA,
					      NULL, 0));
			break;
		case 1:
			ASSERT_EQ(0, raw_send(r, TLSX_CT_ALERT, cancel, 2));
			break;
		default:
			ASSERT_EQ(0, raw_key_update(r, false));
			break;
		}
	}
	if (then_data)
		ASSERT_EQ(0, raw_send(r, TLSX_CT_APPLICATION_DATA,
				      (const u8 *)"d", 1));
}

/* Reads until data or an error, counting the TLSX_WANT_READs. */
static ssize_t read_counting(struct tlsx_conn *c, u8 *buf, size_t len,
			     int *wants)
{
	ssize_t n;
	int i;

	*wants = 0;
	for (i = 0; i < 1000; i++) {
		n = tlsx_read(c, buf, len);
		if (n != TLSX_WANT_READ)
			return n;
		(*wants)++;
		if (!tlsx_pending(c))
			usleep(1000);
	}
	return n;
}

FIXTURE(bounds)
{
	struct pair p;
	struct raw r;
};

FIXTURE_VARIANT(bounds)
{
	int what;	/* 0 empty records, 1 user_canceled, 2 KeyUpdates */
};

FIXTURE_VARIANT_ADD(bounds, empty)
{
	.what = 0,
};

FIXTURE_VARIANT_ADD(bounds, user_canceled)
{
	.what = 1,
};

FIXTURE_VARIANT_ADD(bounds, key_update)
{
	.what = 2,
};

FIXTURE_SETUP(bounds)
{
	ASSERT_EQ(0, openssl_pair(&self->p, true, "TLS_AES_128_GCM_SHA256",
				  0));
	ASSERT_EQ(TLSX_OK, take_over(&self->p, TLSX_RL_USER, 0, 0));
	ASSERT_EQ(0, raw_init(&self->r, &self->p));
}

FIXTURE_TEARDOWN(bounds)
{
	raw_free(&self->r);
	pair_free(&self->p);
}

/* RX_RUN_MAX in a row, then data: the data, in bounded calls. */
TEST_F(bounds, run_at_bound)
{
	u8 buf[8];
	int wants;

	set_nonblock(self->p.bfd, true);
	run_of(_metadata, &self->r, variant->what, RX_RUN_MAX_T,
	       true);
	usleep(20000);
	ASSERT_EQ(1, read_counting(self->p.c, buf, sizeof(buf), &wants));
	EXPECT_EQ('d', buf[0]);
	/* 32 records: back to the caller after 16 and after 32. */
	EXPECT_LE(RX_RUN_MAX_T / RX_PER_CALL_T, wants);
}

/* One more: unexpected_message, TLSX_E_FLOOD, and OpenSSL sees it. */
TEST_F(bounds, run_past_bound)
{
	u8 buf[8];
	int wants, n;

	set_nonblock(self->p.bfd, true);
	run_of(_metadata, &self->r, variant->what,
	       RX_RUN_MAX_T + 1, true);
	usleep(20000);
	EXPECT_EQ(TLSX_E_FLOOD, read_counting(self->p.c, buf, sizeof(buf),
					      &wants));
	EXPECT_EQ(TLSX_ALERT_UNEXPECTED_MESSAGE, tlsx_conn_alert(self->p.c));
	EXPECT_EQ(TLSX_E_FLOOD, tlsx_read(self->p.c, buf, sizeof(buf)));
	set_nonblock(self->p.bfd, false);
	n = SSL_read(self->p.a, buf, sizeof(buf));
	EXPECT_GE(0, n);
	EXPECT_EQ(SSL_ERROR_SSL, SSL_get_error(self->p.a, n));
}

/* Data between them ends a run: 3 x RX_RUN_MAX are fine. */
TEST_F(bounds, runs_broken_by_data)
{
	u8 buf[8];
	int i, wants;

	/* KeyUpdates are bounded by volume too: key_update_volume. */
	if (variant->what == 2)
		SKIP(return, "KeyUpdates: see key_update_volume");
	set_nonblock(self->p.bfd, true);
	for (i = 0; i < 3; i++) {
		run_of(_metadata, &self->r, variant->what, RX_RUN_MAX_T, true);
		ASSERT_EQ(1, read_counting(self->p.c, buf, sizeof(buf),
					   &wants));
	}
}

/* A blocking fd is not handed TLSX_WANT_READ by the per-call bound. */
TEST_F(bounds, blocking_one_call)
{
	u8 buf[8];

	run_of(_metadata, &self->r, variant->what, RX_RUN_MAX_T,
	       true);
	EXPECT_EQ(1, tlsx_read(self->p.c, buf, sizeof(buf)));
}

/*
 * KeyUpdates by volume: KU_BURST with a byte of data between each are
 * allowed, one more is not; with a full record's worth (KU_PER) between
 * each there is no limit.
 */
TEST(key_update_volume)
{
	static u8 rec[KU_PER_T];
	struct pair p;
	struct raw r;
	u8 buf[KU_PER_T];
	int i;

	ASSERT_EQ(0, openssl_pair(&p, true, "TLS_AES_128_GCM_SHA256", 0));
	ASSERT_EQ(TLSX_OK, take_over(&p, TLSX_RL_USER, 0, 0));
	ASSERT_EQ(0, raw_init(&r, &p));
	for (i = 0; i < 3 * KU_BURST_T; i++) {
		ASSERT_EQ(0, raw_key_update(&r, false));
		ASSERT_EQ(0, raw_send(&r, TLSX_CT_APPLICATION_DATA, rec,
				      sizeof(rec)));
		ASSERT_EQ(sizeof(rec), read_all(p.c, buf, sizeof(rec)));
	}
	for (i = 0; i < KU_BURST_T; i++) {
		ASSERT_EQ(0, raw_key_update(&r, false));
		ASSERT_EQ(0, raw_send(&r, TLSX_CT_APPLICATION_DATA,
				      (const u8 *)"d", 1));
		ASSERT_EQ(1, tlsx_read(p.c, buf, 1));
	}
	ASSERT_EQ(0, raw_key_update(&r, false));
	ASSERT_EQ(0, raw_send(&r, TLSX_CT_APPLICATION_DATA,
			      (const u8 *)"d", 1));
	EXPECT_EQ(TLSX_E_FLOOD, tlsx_read(p.c, buf, 1));
	EXPECT_EQ(TLSX_ALERT_UNEXPECTED_MESSAGE, tlsx_conn_alert(p.c));
	raw_free(&r);
	pair_free(&p);
}

/*
 * OpenSSL's two tickets after the handshake become the client's session
 * (the PSK is not checked here: OpenSSL does not log the resumption
 * master secret; test_libtlsx resumes with it).
 */
TEST(openssl_tickets_stored)
{
	u8 buf[8], bytes[4096];
	struct tlsx_session s;
	struct pair p;
	size_t len;

	ASSERT_EQ(0, openssl_pair(&p, false, "TLS_AES_256_GCM_SHA384", 2));
	ASSERT_EQ(TLSX_OK, take_over(&p, TLSX_RL_USER, 0, 0));
	EXPECT_EQ(TLSX_E_NO_SESSION,
		  tlsx_conn_session(p.c, bytes, sizeof(bytes), &len));
	ASSERT_EQ(0, ssl_write_all(p.a, (const u8 *)"d", 1));
	ASSERT_EQ(1, tlsx_read(p.c, buf, sizeof(buf)));
	ASSERT_EQ(TLSX_OK, tlsx_conn_session(p.c, bytes, sizeof(bytes), &len));
	EXPECT_EQ(TLSX_E_INVAL, tlsx_conn_session(p.c, bytes, 10, &len));
	ASSERT_EQ(0, tlsx_session_decode(&s, bytes, len));
	EXPECT_EQ(TLSX_SUITE_AES_256_GCM_SHA384, s.suite);
	EXPECT_EQ(48, s.psk_len);
	EXPECT_EQ(3600, s.lifetime);
	EXPECT_LT(0, s.ticket_len);
	tlsx_session_wipe(&s);
	pair_free(&p);
}

/* RFC 8449: with the peer's limit of 256, records carry 255 bytes. */
TEST_F(rec, peer_record_size_limit)
{
	u8 msg[1000], rec[TLSX_REC_MAX];
	size_t total = 0, records = 0;

	ASSERT_EQ(TLSX_OK, take_over(&self->p, TLSX_RL_USER, 0, 256));
	fill(msg, sizeof(msg), 11);
	ASSERT_EQ(1000, tlsx_write(self->p.c, msg, sizeof(msg)));
	while (total < sizeof(msg)) {
		size_t body;

		ASSERT_EQ(5, recv(self->p.afd, rec, 5, MSG_WAITALL));
		body = get_unaligned_be16(rec + 3);
		/* Content and type within the limit, then the tag. */
		ASSERT_LE(body, 256 + TLSX_AEAD_TAG_LEN);
		ASSERT_EQ((ssize_t)body,
			  recv(self->p.afd, rec + 5, body, MSG_WAITALL));
		total += body - 1 - TLSX_AEAD_TAG_LEN;
		records++;
	}
	EXPECT_EQ(sizeof(msg), total);
	EXPECT_EQ(4, records);
}

/*
 * tlsx_sendv() under the peer's record_size_limit: the frames' stream in
 * records of the limit less one (RFC 8449 4), every record full but the
 * last, file bytes and headers alike.
 */
TEST_F(rec, sendv_peer_record_size_limit)
{
	struct sv v;
	u8 rec[TLSX_REC_MAX];
	size_t total = 0, records = 0, body;
	ssize_t n;

	ASSERT_EQ(TLSX_OK, take_over(&self->p, TLSX_RL_USER, 0, 256));
	ASSERT_EQ(0, sv_make(&v, 5));
	n = tlsx_sendv(self->p.c, v.p, v.n);
	ASSERT_EQ((ssize_t)v.len, n);
	while (total < v.len) {
		ASSERT_EQ(5, recv(self->p.afd, rec, 5, MSG_WAITALL));
		body = get_unaligned_be16(rec + 3);
		ASSERT_EQ((ssize_t)body,
			  recv(self->p.afd, rec + 5, body, MSG_WAITALL));
		total += body - 1 - TLSX_AEAD_TAG_LEN;
		records++;
		if (total < v.len)
			ASSERT_EQ(255 + 1 + TLSX_AEAD_TAG_LEN, body);
	}
	EXPECT_EQ(v.len, total);
	EXPECT_EQ((v.len + 254) / 255, records);
	sv_free(&v);
}

static bool kernel_has_ulp(void)
{
	char buf[256] = { 0 };
	FILE *f = fopen("/proc/sys/net/ipv4/tcp_available_ulp", "r");

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strstr(buf, "tls") != NULL;
}

/* Where no kernel layer exists the automatic choice is userspace. */
TEST_F(rec, auto_falls_back_to_user)
{
	u8 buf[8];

	if (kernel_has_ulp())
		SKIP(return, "the kernel has a TLS ULP: the VM test covers it");
	ASSERT_EQ(TLSX_OK, take_over(&self->p, TLSX_RL_AUTO, 0, 0));
	EXPECT_EQ(TLSX_RL_USER, tlsx_conn_record_layer(self->p.c));
	ASSERT_EQ(2, tlsx_write(self->p.c, "ok", 2));
	ASSERT_EQ(0, ssl_read_all(self->p.a, buf, 2));
	EXPECT_EQ(0, memcmp(buf, "ok", 2));
}

TEST_F(rec, forced_kernel_layer_missing)
{
	if (kernel_has_ulp())
		SKIP(return, "the kernel has a TLS ULP: the VM test covers it");
	EXPECT_EQ(TLSX_E_RECORD_LAYER,
		  take_over(&self->p, TLSX_RL_TLSX, 0, 0));
	EXPECT_EQ(TLSX_E_RECORD_LAYER, take_over(&self->p, TLSX_RL_TLS, 0, 0));
	EXPECT_EQ(NULL, self->p.c);
}

/* The memory a connection keeps after the handoff, logged for docs/. */
TEST_F(rec, state_after_handoff)
{
	/* libtlsx's engine: in place (tlsx_config.c). */
	struct tlsx_hs_config hc = { .insecure = true, .inplace = true };
	struct tlsx_conn_info info;

	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->p.c, &info));
	TH_LOG("userspace layer: %zu bytes (struct tlsx_conn %zu)",
	       info.state_bytes, sizeof(struct tlsx_conn));
	TH_LOG("during a handshake: struct tlsx_hsd %zu, engine %zu (client, defaults), the thread's scratch %zu",
	       sizeof(struct tlsx_hsd), tlsx_hs_mem_size(&hc),
	       sizeof(struct tlsx_scratch));
	EXPECT_EQ(sizeof(struct tlsx_conn) + tlsx__u_size(self->p.c),
		  info.state_bytes);
	EXPECT_LT(info.state_bytes, 48 * 1024);
}

TEST(strings)
{
	int i;

	for (i = 0; i >= TLSX_E_NO_SESSION; i--)
		EXPECT_NE(0, strcmp(tlsx_strerror(i), "unknown error"));
	EXPECT_STREQ("unknown error", tlsx_strerror(-1000));
	EXPECT_STREQ("user", tlsx_record_layer_name(TLSX_RL_USER));
	EXPECT_STREQ("decode_error", tlsx_alert_string(50));
}

TEST_HARNESS_MAIN
