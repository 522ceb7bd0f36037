// SPDX-License-Identifier: GPL-2.0
/*
 * test_conn.c - conn.c's kernel-mode send path, natively: the path the
 * VM runs on tlsx.ko and kTLS (a head and memory segments by
 * IORING_OP_SEND with MSG_MORE, file segments by sendfile(2) or by
 * IORING_OP_SPLICE through a pooled pipe), driven on a real io_uring
 * over a loopback TCP connection with no record layer under it: the
 * kernel's tls would seal exactly these bytes.  conn.c is included so
 * that its static steps can be driven without a handshake; the record
 * layers' files (conn_layer.c, conn_kernel.c, conn_user.c, conn_io.c,
 * and conn_hs.c, which calls back into it) come from libtlsxd.a.  The
 * connection is given tlsx's table (conn_layer_of()), as the handoff
 * would.
 *
 *  - every byte arrives in order: a head alone, files of 0, 1, 16383,
 *    16384, 16385 bytes and 3 MiB after their head, and a multipart
 *    plan (memory, file range, memory, file range, memory);
 *  - through a small send buffer and a slow reader, so that sendfile
 *    meets EAGAIN and splice -EAGAIN and both wait on POLLOUT;
 *  - the body counters, the connection freed and the pipe back in the
 *    pool (empty) when done;
 *  - a reader that resets mid-body: CLIENT_RESET once, the connection
 *    freed, the loop not spinning (bounded completions).
 *  - a 16 KiB head given a byte at a time: each byte scanned once;
 *  - every byte announced to libtlsx before it is sent (the sending
 *    key's record limit, RFC 8446 5.5: tlsx_conn_tx_reserve(), wrapped
 *    here: Makefile); a reservation that must wait for our KeyUpdate
 *    (TLSX_WANT_WRITE) waits on POLLOUT and goes on; one refused on the
 *    kernel's tls (TLSX_E_REKEY) ends the response there, counted.
 *
 * Each for sendfile and splice (FIXTURE_VARIANT).
 */
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/conn.c"

#define FILE_SIZE	(3u << 20)

static uint8_t pat(uint64_t off)
{
	return (uint8_t)(off * 2654435761u >> 13);
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct reader {
	int fd;
	unsigned int pause_ms;	/* the sleep of slow_every; default 1 */
	bool stall;		/* after reset_after bytes: stop reading */
	size_t slow_every;	/* sleep 1 ms after this many bytes; 0: never */
	size_t reset_after;	/* RST after this many bytes; 0: never */
	uint8_t *got;
	size_t len, cap;
};

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	size_t since = 0;

	for (;;) {
		ssize_t n;

		if (r->len == r->cap)
			break;
		n = recv(r->fd, r->got + r->len, r->cap - r->len, 0);
		if (n <= 0)
			break;
		r->len += n;
		since += n;
		if (r->stall && r->len >= r->reset_after) {
			/* Never reads again; the server must give up. */
			usleep(3000 * 1000);
			break;
		}
		if (r->reset_after && r->len >= r->reset_after) {
			struct linger l = { .l_onoff = 1, .l_linger = 0 };

			setsockopt(r->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l));
			break;
		}
		if (r->slow_every && since >= r->slow_every) {
			since = 0;
			usleep(1000 * (r->pause_ms ? r->pause_ms : 1));
		}
	}
	close(r->fd);
	return NULL;
}

FIXTURE(send) {
	struct tlsxd_conf conf;
	struct server srv;
	struct worker w;
	struct loop lp;
	int file_fd;
	int cfd, sfd;
	char head[64];
	uint8_t *expect;
	size_t expect_len;
	unsigned int cqes;
};

/* How a case must end. */
enum send_end {
	END_SERVED,		/* every byte in order, the connection freed */
	END_SEND_TIMEOUT,	/* the reader stalled: cut by the send timeout */
	END_RESET,		/* the reader reset mid-body */
	END_KEY_CUT,		/* reservations refused: cut at the limit */
};

/* A case: the response's plan, the reader, the end (the table below). */
struct send_case {
	int sndbuf;		/* SO_SNDBUF of the server's socket; 0: default */
	bool file;		/* after the head, file bytes 0..file_len */
	uint64_t file_len;
	bool multipart;		/* memory, file range, memory, range, memory */
	size_t slow_every;	/* the reader's, as in struct reader */
	unsigned int pause_ms;
	size_t reset_after;
	bool stall;
	enum send_end end;
	bool waits;		/* must wait on POLLOUT, and never spin */
	bool recv;		/* requests_by_recv_with_provided_buffers() */
	bool byte_head;		/* head_a_byte_at_a_time_scanned_once() */
	int key_err;		/* reserving past key_at returns it */
	uint64_t key_at;	/* bytes */
};

/*
 * tlsx_conn_tx_reserve() (-Wl,--wrap: there is no record layer here):
 * the bytes announced; past g_key_at, g_key_err (TLSX_WANT_WRITE once).
 */
static uint64_t g_reserved;
static unsigned int g_key_refused;
static int g_key_err;
static uint64_t g_key_at;

int __wrap_tlsx_conn_tx_reserve(struct tlsx_conn *c, uint64_t len)
{
	int err = g_key_err;

	(void)c;
	if (err && g_reserved + len > g_key_at) {
		g_key_refused++;
		if (err == TLSX_WANT_WRITE)
			g_key_err = 0;
		return err;
	}
	g_reserved += len;
	return TLSX_OK;
}

/*
 * tlsx_conn_rx_plain() (wrapped likewise): with no record layer nothing
 * of a control record is ever held, so requests may always come by
 * IORING_OP_RECV.
 */
bool __wrap_tlsx_conn_rx_plain(const struct tlsx_conn *c)
{
	(void)c;
	return true;
}

/* Each case twice: file bodies by sendfile(2), and by IORING_OP_SPLICE. */
FIXTURE_VARIANT(send) {
	bool splice;
	const struct send_case *c;
};

static void tcp_pair(struct __test_metadata *_metadata, int *cfd, int *sfd,
		     int sndbuf)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ(0, bind(l, (struct sockaddr *)&a, sizeof(a)));
	ASSERT_EQ(0, listen(l, 1));
	ASSERT_EQ(0, getsockname(l, (struct sockaddr *)&a, &al));
	*cfd = socket(AF_INET, SOCK_STREAM, 0);
	ASSERT_EQ(0, connect(*cfd, (struct sockaddr *)&a, sizeof(a)));
	*sfd = accept4(l, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	ASSERT_LE(0, *sfd);
	close(l);
	if (sndbuf)
		ASSERT_EQ(0, setsockopt(*sfd, SOL_SOCKET, SO_SNDBUF, &sndbuf,
					sizeof(sndbuf)));
}

FIXTURE_SETUP(send)
{
	char path[] = "/tmp/test_conn.XXXXXX";
	uint8_t *buf = malloc(FILE_SIZE);
	uint32_t i;

	/* As main: sendfile(2) to a reset peer is EPIPE, not a signal. */
	signal(SIGPIPE, SIG_IGN);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < FILE_SIZE; i++)
		buf[i] = pat(i);
	self->file_fd = mkstemp(path);
	ASSERT_LE(0, self->file_fd);
	unlink(path);
	ASSERT_EQ(FILE_SIZE, write(self->file_fd, buf, FILE_SIZE));
	free(buf);
	conf_init(&self->conf);
	self->srv.conf = &self->conf;
	self->w.srv = &self->srv;
	self->lp.w = &self->w;
	self->lp.srv = &self->srv;
	self->lp.conf = &self->conf;
	self->lp.st = &self->w.stats;
	self->lp.req_cap = 4096;
	self->lp.gather_cap = 16384;
	self->lp.gather = malloc(self->lp.gather_cap);
	self->lp.splice = variant->splice;
	{
		/*
		 * The send timeout: 1.5 s, far above a reader thread's
		 * longest wait for a CPU on a loaded 2-vCPU machine (300 ms
		 * was not: a starved reader was cut); the others do not run
		 * here.
		 */
		unsigned int to[TIMER_KINDS] = { 1000, 1000, 1000, 1500, 1000 };

		timers_init(&self->lp.timers, to);
	}
	ASSERT_EQ(0, io_uring_queue_init(64, &self->lp.ring, 0));
	snprintf(self->head, sizeof(self->head),
		 "HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n");
	self->expect = malloc(FILE_SIZE + 4096);
	ASSERT_NE(NULL, self->expect);
}

FIXTURE_TEARDOWN(send)
{
	io_uring_queue_exit(&self->lp.ring);
	conn_bufs_free(&self->lp);
	conn_pool_free(&self->lp);
	free(self->lp.gather);
	free(self->expect);
	close(self->file_fd);
}

/* A connection past its handshake, on the kernel send path. */
static struct conn *conn_new(struct _test_data_send *self, int fd)
{
	struct conn *c = calloc(1, sizeof(*c));

	timer_node_init(&c->timer);
	c->fd = fd;
	c->layer = conn_layer_of(TLSX_RL_TLSX, false);
	c->a = act_get(&self->lp);
	c->a->parsed = true;
	c->a->resp.head = self->head;
	c->a->resp.head_len = strlen(self->head);
	c->a->resp.status = 200;
	c->a->resp.close = true;
	c->a->resp.fd = -1;
	self->lp.now_ms = now_ms();
	self->lp.live = c;
	self->lp.nconns = 1;
	stats_add(self->lp.st, STAT_CONN_ACTIVE, 1);
	memcpy(self->expect, self->head, c->a->resp.head_len);
	self->expect_len = c->a->resp.head_len;
	return c;
}

static void add_mem(struct _test_data_send *self, struct conn *c, const char *s)
{
	struct resp *r = &c->a->resp;

	r->seg[r->nseg].mem = s;
	r->seg[r->nseg].len = strlen(s);
	r->nseg++;
	r->body_len += strlen(s);
	memcpy(self->expect + self->expect_len, s, strlen(s));
	self->expect_len += strlen(s);
}

static void add_file(struct _test_data_send *self, struct conn *c, uint64_t off,
		     uint64_t len)
{
	struct resp *r = &c->a->resp;
	uint64_t i;

	/* The plan owns its file: resp_release() closes this dup. */
	if (r->fd < 0)
		r->fd = dup(self->file_fd);
	r->seg[r->nseg].mem = NULL;
	r->seg[r->nseg].off = off;
	r->seg[r->nseg].len = len;
	r->nseg++;
	r->body_len += len;
	for (i = 0; i < len; i++)
		self->expect[self->expect_len + i] = pat(off + i);
	self->expect_len += len;
}

/* The worker's loop, for one connection, until it is freed. */
static void run_loop(struct _test_data_send *self, struct conn *c)
{
	struct loop *lp = &self->lp;
	uint16_t gen = c->gen;

	while (lp->nconns) {
		struct __kernel_timespec ts = { .tv_nsec = 20 * 1000 * 1000 };
		struct io_uring_cqe *cqe;
		struct timer_node *t;
		unsigned int head, n = 0;
		int ret;

		ret = io_uring_submit_and_wait_timeout(&lp->ring, &cqe, 1, &ts,
						       NULL);
		if (ret < 0 && ret != -ETIME && ret != -EINTR)
			break;
		/* The worker's tick, every 20 ms here. */
		lp->now_ms = now_ms();
		while ((t = timer_expired(&lp->timers, TIMER_SEND, lp->now_ms)))
			conn_timeout(lp, c, TIMER_SEND);
		io_uring_for_each_cqe(&lp->ring, head, cqe) {
			uint64_t ud = cqe->user_data;

			n++;
			if ((ud & UD_TAG_MASK) != TAG_CONN ||
			    (uint16_t)(ud >> UD_GEN_SHIFT) != gen ||
			    c->op == OP_NONE)
				continue;
			conn_complete(lp, c, cqe->res, cqe->flags);
		}
		io_uring_cq_advance(&lp->ring, n);
		self->cqes += n;
	}
}

static void serve(struct __test_metadata *_metadata,
		  struct _test_data_send *self, struct conn *c, struct reader *r)
{
	pthread_t t;

	r->cap = self->expect_len + 1;
	r->got = malloc(r->cap);
	ASSERT_NE(NULL, r->got);
	ASSERT_EQ(0, pthread_create(&t, NULL, reader_main, r));
	begin_send(&self->lp, c);
	run_loop(self, c);
	pthread_join(t, NULL);
}

static void check_all(struct __test_metadata *_metadata,
		      struct _test_data_send *self, struct reader *r,
		      const struct _fixture_variant_send *variant, bool body)
{
	size_t i;

	ASSERT_EQ(self->expect_len, r->len);
	/* Each send was announced first: at least every byte. */
	EXPECT_LE(self->expect_len, g_reserved);
	for (i = 0; i < r->len; i++)
		if (r->got[i] != self->expect[i])
			break;
	EXPECT_EQ(r->len, i);
	EXPECT_EQ(0, self->lp.nconns);
	EXPECT_EQ(1, self->lp.nfree);
	EXPECT_EQ(0, self->w.stats.v[STAT_CONN_ACTIVE]);
	EXPECT_EQ(1, self->w.stats.v[STAT_REQUESTS]);
	EXPECT_EQ(0, self->w.stats.v[STAT_CLIENT_RESET]);
	EXPECT_EQ(body && variant->splice,
		  self->w.stats.v[STAT_BODY_SPLICE]);
	EXPECT_EQ(body && !variant->splice,
		  self->w.stats.v[STAT_BODY_SENDFILE]);
	/* The pipe went back empty (a cut one would be closed). */
	EXPECT_EQ(body && variant->splice, self->lp.npipes);
	free(r->got);
}

/* Below: the one case that reads requests rather than sending. */
static void requests_by_recv_with_provided_buffers(
	struct __test_metadata *_metadata, struct _test_data_send *self);
static void head_a_byte_at_a_time_scanned_once(
	struct __test_metadata *_metadata, struct _test_data_send *self);

/*
 * The cases: each a struct send_case, and a variant for each of them
 * with sendfile and with splice.
 */
static const struct send_case head_alone = { .end = END_SERVED };
/* Files around the record size (16384), and 3 MiB. */
static const struct send_case file_0 = { .file = true, .file_len = 0 };
static const struct send_case file_1 = { .file = true, .file_len = 1 };
static const struct send_case file_16383 = { .file = true, .file_len = 16383 };
static const struct send_case file_16384 = { .file = true, .file_len = 16384 };
static const struct send_case file_16385 = { .file = true, .file_len = 16385 };
static const struct send_case file_3m = { .file = true, .file_len = FILE_SIZE };
static const struct send_case multipart = { .multipart = true };
/* A small send buffer and a slow reader: EAGAIN, then POLLOUT. */
static const struct send_case full_socket = {
	.sndbuf = 4096, .file = true, .file_len = FILE_SIZE,
	.slow_every = 64 * 1024, .waits = true,
};
/*
 * The send timeout counts time without progress, not the response's:
 * a reader slower than the timeout in total (12 pauses of 150 ms, the
 * timeout 1.5 s) gets everything; one that stops is cut.
 */
static const struct send_case slow_reader = {
	.sndbuf = 4096, .file = true, .file_len = FILE_SIZE,
	.slow_every = FILE_SIZE / 12, .pause_ms = 150,
};
static const struct send_case stalled_reader = {
	.sndbuf = 4096, .file = true, .file_len = FILE_SIZE,
	.reset_after = 256 * 1024, .stall = true, .end = END_SEND_TIMEOUT,
};
static const struct send_case reset_mid_body = {
	.sndbuf = 4096, .file = true, .file_len = FILE_SIZE,
	.reset_after = 256 * 1024, .end = END_RESET,
};
/* Our KeyUpdate met a full socket: the send waits for POLLOUT. */
static const struct send_case key_update_waits = {
	.file = true, .file_len = FILE_SIZE,
	.key_err = TLSX_WANT_WRITE, .key_at = FILE_SIZE / 3,
};
/* The kernel's tls at the limit: the response is cut there. */
static const struct send_case key_limit_cut = {
	.file = true, .file_len = FILE_SIZE, .end = END_KEY_CUT,
	.key_err = TLSX_E_REKEY, .key_at = FILE_SIZE / 2,
};
static const struct send_case recv_requests = { .recv = true };
static const struct send_case byte_head = { .byte_head = true };

FIXTURE_VARIANT_ADD(send, sendfile_head_alone) { false, &head_alone };
FIXTURE_VARIANT_ADD(send, splice_head_alone) { true, &head_alone };
FIXTURE_VARIANT_ADD(send, sendfile_file_0) { false, &file_0 };
FIXTURE_VARIANT_ADD(send, splice_file_0) { true, &file_0 };
FIXTURE_VARIANT_ADD(send, sendfile_file_1) { false, &file_1 };
FIXTURE_VARIANT_ADD(send, splice_file_1) { true, &file_1 };
FIXTURE_VARIANT_ADD(send, sendfile_file_16383) { false, &file_16383 };
FIXTURE_VARIANT_ADD(send, splice_file_16383) { true, &file_16383 };
FIXTURE_VARIANT_ADD(send, sendfile_file_16384) { false, &file_16384 };
FIXTURE_VARIANT_ADD(send, splice_file_16384) { true, &file_16384 };
FIXTURE_VARIANT_ADD(send, sendfile_file_16385) { false, &file_16385 };
FIXTURE_VARIANT_ADD(send, splice_file_16385) { true, &file_16385 };
FIXTURE_VARIANT_ADD(send, sendfile_file_3m) { false, &file_3m };
FIXTURE_VARIANT_ADD(send, splice_file_3m) { true, &file_3m };
FIXTURE_VARIANT_ADD(send, sendfile_multipart_memory_and_file_ranges) {
	false, &multipart };
FIXTURE_VARIANT_ADD(send, splice_multipart_memory_and_file_ranges) {
	true, &multipart };
FIXTURE_VARIANT_ADD(send, sendfile_full_socket_waits_on_pollout) {
	false, &full_socket };
FIXTURE_VARIANT_ADD(send, splice_full_socket_waits_on_pollout) {
	true, &full_socket };
FIXTURE_VARIANT_ADD(send, sendfile_slow_reader_served_past_the_send_timeout) {
	false, &slow_reader };
FIXTURE_VARIANT_ADD(send, splice_slow_reader_served_past_the_send_timeout) {
	true, &slow_reader };
FIXTURE_VARIANT_ADD(send, sendfile_stalled_reader_cut_at_the_send_timeout) {
	false, &stalled_reader };
FIXTURE_VARIANT_ADD(send, splice_stalled_reader_cut_at_the_send_timeout) {
	true, &stalled_reader };
FIXTURE_VARIANT_ADD(send, sendfile_reset_mid_body_counted_once_and_freed) {
	false, &reset_mid_body };
FIXTURE_VARIANT_ADD(send, splice_reset_mid_body_counted_once_and_freed) {
	true, &reset_mid_body };
FIXTURE_VARIANT_ADD(send, sendfile_key_update_waits_on_pollout) {
	false, &key_update_waits };
FIXTURE_VARIANT_ADD(send, splice_key_update_waits_on_pollout) {
	true, &key_update_waits };
FIXTURE_VARIANT_ADD(send, sendfile_key_limit_cuts_the_response) {
	false, &key_limit_cut };
FIXTURE_VARIANT_ADD(send, splice_key_limit_cuts_the_response) {
	true, &key_limit_cut };
FIXTURE_VARIANT_ADD(send, sendfile_requests_by_recv_with_provided_buffers) {
	false, &recv_requests };
FIXTURE_VARIANT_ADD(send, splice_requests_by_recv_with_provided_buffers) {
	true, &recv_requests };
/* The body path plays no part in reading a head: once. */
FIXTURE_VARIANT_ADD(send, head_a_byte_at_a_time_scanned_once) {
	false, &byte_head };

TEST_F(send, response)
{
	const struct send_case *k = variant->c;
	struct reader r = {
		.fd = -1, .slow_every = k->slow_every,
		.pause_ms = k->pause_ms,
		.reset_after = k->reset_after, .stall = k->stall,
	};
	struct conn *c;

	if (k->recv) {
		requests_by_recv_with_provided_buffers(_metadata, self);
		return;
	}
	if (k->byte_head) {
		head_a_byte_at_a_time_scanned_once(_metadata, self);
		return;
	}
	g_key_err = k->key_err;
	g_key_at = k->key_at;
	tcp_pair(_metadata, &self->cfd, &self->sfd, k->sndbuf);
	c = conn_new(self, self->sfd);
	if (k->file)
		add_file(self, c, 0, k->file_len);
	if (k->multipart) {
		add_mem(self, c, "\r\n--b\r\nContent-Range: bytes 10-999/3145728\r\n\r\n");
		add_file(self, c, 10, 990);
		add_mem(self, c, "\r\n--b\r\nContent-Range: bytes 100000-2197151/3145728\r\n\r\n");
		add_file(self, c, 100000, 2 * 1024 * 1024);
		add_mem(self, c, "\r\n--b--\r\n");
	}
	r.fd = self->cfd;
	serve(_metadata, self, c, &r);
	switch (k->end) {
	case END_SERVED:
		check_all(_metadata, self, &r, variant,
			  k->file_len || k->multipart);
		EXPECT_EQ(0, self->w.stats.v[STAT_TO_SEND]);
		EXPECT_EQ(!!k->key_err, g_key_refused);
		break;
	case END_KEY_CUT:
		/* Nothing past the last reservation went. */
		EXPECT_EQ(g_reserved, r.len);
		EXPECT_LT(r.len, self->expect_len);
		free(r.got);
		EXPECT_EQ(1, g_key_refused);
		EXPECT_EQ(1, self->w.stats.v[STAT_KEY_LIMIT_CUT]);
		EXPECT_EQ(0, self->lp.nconns);
		EXPECT_EQ(1, self->w.stats.v[STAT_REQUESTS]);
		EXPECT_EQ(0, self->lp.npipes);
		break;
	case END_SEND_TIMEOUT:
		free(r.got);
		EXPECT_EQ(1, self->w.stats.v[STAT_TO_SEND]);
		EXPECT_EQ(0, self->lp.nconns);
		EXPECT_EQ(1, self->w.stats.v[STAT_REQUESTS]);
		EXPECT_LT(self->w.stats.v[STAT_BYTES_BODY], FILE_SIZE);
		break;
	case END_RESET:
		free(r.got);
		EXPECT_EQ(1, self->w.stats.v[STAT_CLIENT_RESET]);
		EXPECT_EQ(0, self->lp.nconns);
		EXPECT_EQ(0, self->w.stats.v[STAT_CONN_ACTIVE]);
		/* The cut response is still logged and counted, with what went. */
		EXPECT_EQ(1, self->w.stats.v[STAT_REQUESTS]);
		EXPECT_GE(self->w.stats.v[STAT_BYTES_BODY], 200 * 1024);
		EXPECT_LT(self->w.stats.v[STAT_BYTES_BODY], FILE_SIZE);
		/* A pipe with bytes of the cut body is not reused. */
		EXPECT_EQ(0, self->lp.npipes);
		break;
	}
	if (k->waits) {
		TH_LOG("%u completions for %u bytes", self->cqes, FILE_SIZE);
		/*
		 * It waited but never spun.  Without a wait, sendfile would
		 * take 5 completions (the head, three budget turns, nothing
		 * else) and splice 2 per SPLICE_CHUNK and the head.
		 */
		EXPECT_GT(self->cqes, variant->splice ?
			  2 * FILE_SIZE / SPLICE_CHUNK + 1 + 8 : 8);
	}
	/* Whatever the end, the loop did not spin. */
	EXPECT_LT(self->cqes, 20000);
}

/*
 * Requests read by IORING_OP_RECV into the worker's provided buffers
 * (the kernel modes): two pipelined heads sent a byte at a time, so
 * that each arrives over many receives, answered in order from a real
 * root by resp_plan(), the second closing; every ring buffer back.
 */
struct writer {
	int fd;
	const char *req;
};

static void *writer_main(void *arg)
{
	struct writer *wr = arg;
	size_t i;

	for (i = 0; wr->req[i]; i++) {
		if (send(wr->fd, wr->req + i, 1, MSG_NOSIGNAL) != 1)
			break;
		if (i % 8 == 0)
			usleep(200);
	}
	return NULL;
}

static void requests_by_recv_with_provided_buffers(
	struct __test_metadata *_metadata, struct _test_data_send *self)
{
	static const char req[] =
		"GET /a.txt HTTP/1.1\r\nHost: x\r\n\r\n"
		"GET /a.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
	char dir[] = "/tmp/test_conn_root.XXXXXX", path[64];
	struct reader r = { 0 };
	struct writer wr;
	pthread_t rt, wt;
	struct mime_table *mime;
	struct conn *c;
	char *p, *q;
	int fd;

	ASSERT_NE(NULL, mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a.txt", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	ASSERT_EQ(6, write(fd, "hello\n", 6));
	close(fd);
	self->srv.site.root_fd = open(dir, O_PATH | O_DIRECTORY);
	mime = mime_load(NULL, NULL);
	self->srv.site.mime = mime;
	self->srv.site.index = "index.html";
	self->srv.site.server = "tlsxd-test";
	self->srv.site.ranges_max = 16;
	ASSERT_EQ(0, conn_bufs_init(&self->lp));
	tcp_pair(_metadata, &self->cfd, &self->sfd, 0);
	c = conn_new(self, self->sfd);
	act_put(&self->lp, c->a);
	c->a = NULL;
	r.fd = self->cfd;
	r.cap = 4096;
	r.got = calloc(1, r.cap + 1);
	wr.fd = self->cfd;
	wr.req = req;
	ASSERT_EQ(0, pthread_create(&wt, NULL, writer_main, &wr));
	ASSERT_EQ(0, pthread_create(&rt, NULL, reader_main, &r));
	conn_to_idle(&self->lp, c, true);
	run_loop(self, c);
	pthread_join(wt, NULL);
	pthread_join(rt, NULL);
	EXPECT_EQ(2, self->w.stats.v[STAT_REQUESTS]);
	EXPECT_EQ(2, self->w.stats.v[STAT_S_2XX]);
	EXPECT_EQ(0, self->lp.nconns);
	p = strstr((char *)r.got, "HTTP/1.1 200");
	ASSERT_NE(NULL, p);
	q = strstr(p + 1, "HTTP/1.1 200");
	ASSERT_NE(NULL, q);
	EXPECT_NE(NULL, strstr(p, "\r\n\r\nhello\n"));
	EXPECT_NE(NULL, strstr(q, "Connection: close"));
	EXPECT_EQ(0, memcmp((char *)r.got + r.len - 6, "hello\n", 6));
	/* The conn's buffers went back; the ring's were all recycled. */
	EXPECT_EQ(1, self->lp.nact_free);
	free(r.got);
	mime_free(mime);
	close(self->srv.site.root_fd);
	unlink(path);
	rmdir(dir);
}

/*
 * A head arriving a byte at a time (a slow client, or one that sends a
 * byte per record): conn.c resumes the parser's scan, so the bytes it
 * scans add up to the head's length, not to the square of it.  A head of
 * header_bytes_max (16 KiB) with header_count_max fields, given one byte
 * per take_bytes() + process() as recv_buf_done() does, all but its last
 * byte so that no response starts.
 */
static void head_a_byte_at_a_time_scanned_once(
	struct __test_metadata *_metadata, struct _test_data_send *self)
{
	size_t cap = self->conf.http.header_bytes_max, len, i;
	char *head = malloc(cap);
	struct conn *c;

	ASSERT_NE(NULL, head);
	len = sprintf(head, "GET / HTTP/1.1\r\nHost: h\r\n");
	for (i = 0; i < self->conf.http.header_count_max - 2; i++)
		len += sprintf(head + len, "X-%02zu: %0150zu\r\n", i, i);
	ASSERT_GT(cap, len + 8);
	len += sprintf(head + len, "Y: ");
	memset(head + len, 'y', cap - len - 4);
	memcpy(head + cap - 4, "\r\n\r\n", 4);
	len = cap;

	self->lp.req_cap = cap + 1024;
	c = conn_new(self, -1);
	act_put(&self->lp, c->a);
	c->a = NULL;
	c->state = CS_IDLE;
	for (i = 0; i < len - 1; i++) {
		ASSERT_TRUE(take_bytes(&self->lp, c, head + i, 1));
		ASSERT_FALSE(process(&self->lp, c)) TH_LOG("byte %zu", i);
	}
	TH_LOG("%zu bytes, one per call: %llu scanned", len - 1,
	       (unsigned long long)c->a->scan.scanned);
	EXPECT_EQ(CS_HEAD, c->state);
	EXPECT_EQ(len - 1, c->a->len);
	EXPECT_EQ(len - 1, c->a->scan.scanned);
	conn_close(&self->lp, c, false);
	EXPECT_EQ(0, self->lp.nconns);
	free(head);
}

/*
 * The handoff's choice of table: a kernel mode stays itself unless the
 * kernel leaves the peer's record_size_limit to libtlsx (6.1's and
 * 6.12's tls: sized); tlsx.ko cuts records itself (fd_send_fits), so a
 * limit keeps its sendfile path; userspace is userspace either way.
 */
TEST(layer_choice)
{
	EXPECT_EQ(CONN_LAYER_TLSX, conn_layer_of(TLSX_RL_TLSX, false));
	EXPECT_EQ(CONN_LAYER_TLS, conn_layer_of(TLSX_RL_TLS, false));
	EXPECT_EQ(CONN_LAYER_SIZED, conn_layer_of(TLSX_RL_TLS, true));
	EXPECT_EQ(CONN_LAYER_SIZED, conn_layer_of(TLSX_RL_TLSX, true));
	EXPECT_EQ(CONN_LAYER_USER, conn_layer_of(TLSX_RL_USER, false));
	EXPECT_EQ(CONN_LAYER_USER, conn_layer_of(TLSX_RL_USER, true));
	EXPECT_TRUE(conn_layers[CONN_LAYER_TLSX].tx_past_libtlsx);
	EXPECT_FALSE(conn_layers[CONN_LAYER_SIZED].tx_past_libtlsx);
}

TEST_HARNESS_MAIN
