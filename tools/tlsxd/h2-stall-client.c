// SPDX-License-Identifier: GPL-2.0
/*
 * h2-stall-client.c - the client of tools/tlsxd/vm-tests' HTTP/2 stall
 * test (issue 31), on libtlsx with ALPN h2: one connection, two streams,
 * one stalled beside one flowing.  Its SETTINGS give every stream a
 * window of 0 (RFC 9113 6.9.2) and the connection 1 GiB; stream 1 asks
 * for STALL_PATH and is never given window, stream 3 asks for FLOW_PATH
 * and gets 1 MiB of window, then a WINDOW_UPDATE for each DATA frame.  Stream 3's
 * body goes to OUT; then the client waits, reading, for the server to
 * close the connection (its send timeout: stream 1 has bytes due and no
 * window).
 *
 *   h2-stall-client PORT STALL_PATH FLOW_PATH OUT WAIT_S
 *
 * Prints "flow N bytes, stall M bytes" once stream 3 ended, then "closed
 * after MS" (or "still open after WAIT_S s"); exit 0 when stream 3
 * ended, stream 1 got no byte and the server closed within WAIT_S, 1
 * otherwise, 2 on a setup error.  The frames are h2/h2_frame.c's, the
 * header block h2/hpack's encoder.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "handshake/libtlsx/tlsx.h"
#include "tlsxd/h2/h2_frame.h"
#include "tlsxd/h2/hpack.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int fail(const char *what, long rc)
{
	fprintf(stderr, "h2-stall-client: %s: %s\n", what,
		rc ? tlsx_strerror((int)rc) : strerror(errno));
	return 2;
}

static int put(struct tlsx_conn *c, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = tlsx_write(c, p, n);

		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

/* A GET of @path on @id: HEADERS with END_STREAM and END_HEADERS. */
static size_t get(struct hpack_encoder *e, uint8_t *out, uint32_t id,
		  const char *path)
{
	const char *const f[] = { ":method", "GET", ":scheme", "https",
				  ":path", path, ":authority", "127.0.0.1" };
	size_t len = H2_FRAME_HDR_LEN, i;

	hpack_encode_block_begin(e);
	for (i = 0; i < 8; i += 2) {
		ssize_t r = hpack_encode_field(e, out + len, 1024, f[i],
					       strlen(f[i]), f[i + 1],
					       strlen(f[i + 1]), 0);
		if (r < 0)
			exit(fail("hpack", 0));
		len += r;
	}
	h2_write_hdr(out, len - H2_FRAME_HDR_LEN, H2_HEADERS,
		     H2_F_END_STREAM | H2_F_END_HEADERS, id);
	return len;
}

int main(int argc, char **argv)
{
	static const struct h2_setting zero = { H2_SET_INITIAL_WINDOW_SIZE, 0 };
	static uint8_t in[1 << 20];
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct hpack_encoder enc;
	struct tlsx_config *cfg;
	struct tlsx_conn *c = NULL;
	uint64_t flow = 0, stall = 0;
	size_t have = 0, n;
	uint8_t out[4096];
	bool flow_done = false;
	long long t0 = 0;
	FILE *o;
	int fd, rc, wait_s;

	if (argc != 6) {
		fprintf(stderr, "usage: h2-stall-client PORT STALL_PATH FLOW_PATH OUT WAIT_S\n");
		return 2;
	}
	wait_s = atoi(argv[5]);
	o = fopen(argv[4], "wb");
	if (!o)
		return fail(argv[4], 0);
	sa.sin_port = htons((unsigned short)atoi(argv[1]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return fail("connect", 0);
	cfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	if (!cfg)
		return fail("config", TLSX_E_NOMEM);
	/* A test certificate; what is tested is the server's HTTP/2. */
	rc = tlsx_config_set_verify_peer(cfg, false, false);
	if (!rc)
		rc = tlsx_config_set_alpn(cfg, "h2");
	/*
	 * Records in userspace on the client's side: the kernel's layers'
	 * counters (vm-tests checks them) are the server's alone.
	 */
	if (!rc)
		rc = tlsx_config_set_record_layer(cfg, TLSX_RL_USER);
	if (rc)
		return fail("config", rc);
	rc = tlsx_connect(cfg, fd, NULL, &c);
	if (rc)
		return fail("handshake", rc);
	if (hpack_encoder_init(&enc, 4096))
		return fail("hpack", 0);
	memcpy(out, H2_PREFACE, H2_PREFACE_LEN);
	n = H2_PREFACE_LEN;
	n += h2_write_settings(out + n, &zero, 1);
	n += h2_write_window_update(out + n, 0, 1u << 30);
	n += get(&enc, out + n, 1, argv[2]);
	n += get(&enc, out + n, 3, argv[3]);
	/* Stream 3 only: a window, topped up as its frames come. */
	n += h2_write_window_update(out + n, 3, 1u << 20);
	if (put(c, out, n))
		return fail("send", 0);
	for (;;) {
		struct h2_frame_hdr h;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		while (have >= H2_FRAME_HDR_LEN) {
			h2_frame_hdr_read(in, &h);
			if (have < H2_FRAME_HDR_LEN + h.len)
				break;
			/* RFC 9113 6.5.3: the server's SETTINGS, acknowledged. */
			if (h.type == H2_SETTINGS && !(h.flags & H2_F_ACK)) {
				n = h2_write_settings_ack(out);
				if (put(c, out, n))
					return fail("send", 0);
			}
			if (h.type == H2_DATA && h.stream == 1)
				stall += h.len;
			if (h.type == H2_DATA && h.stream == 3) {
				fwrite(in + H2_FRAME_HDR_LEN, 1, h.len, o);
				flow += h.len;
				if (h.len && !(h.flags & H2_F_END_STREAM)) {
					n = h2_write_window_update(out, 3,
								   h.len);
					if (put(c, out, n))
						return fail("send", 0);
				}
				if (h.flags & H2_F_END_STREAM) {
					flow_done = true;
					fclose(o);
					printf("flow %llu bytes, stall %llu bytes\n",
					       (unsigned long long)flow,
					       (unsigned long long)stall);
					fflush(stdout);
					t0 = now_ms();
				}
			}
			memmove(in, in + H2_FRAME_HDR_LEN + h.len,
				have - H2_FRAME_HDR_LEN - h.len);
			have -= H2_FRAME_HDR_LEN + h.len;
		}
		if (flow_done && now_ms() - t0 > wait_s * 1000LL) {
			printf("still open after %d s\n", wait_s);
			return 1;
		}
		if (!tlsx_pending(c) && poll(&p, 1, 1000) == 0)
			continue;
		r = tlsx_read(c, in + have, sizeof(in) - have);
		if (r > 0) {
			have += r;
			continue;
		}
		if (r == TLSX_WANT_READ)
			continue;
		break;		/* closed: close_notify, EOF or a reset */
	}
	if (!flow_done) {
		printf("closed before the flowing stream ended (flow %llu, stall %llu)\n",
		       (unsigned long long)flow, (unsigned long long)stall);
		return 1;
	}
	printf("closed after %lld ms\n", now_ms() - t0);
	return stall ? 1 : 0;
}
