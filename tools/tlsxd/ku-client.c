// SPDX-License-Identifier: GPL-2.0
/*
 * ku-client.c - the client of tools/tlsxd/vm-tests' KeyUpdate test
 * (issue 26 item 1), on libtlsx: a TLS 1.3 client that asks for a
 * response it never reads, then sends KeyUpdates with update_requested
 * (RFC 8446 4.6.3), each of which the server must answer, into a
 * connection whose receive side it keeps full.  It reads nothing: it
 * waits, with poll(2) on POLLRDHUP, for the server to close it.
 *
 *   ku-client PORT PATH COUNT WAIT_S
 *
 * Connects to 127.0.0.1:PORT with a 1 KiB SO_RCVBUF (set before the
 * connect, so the window is small from the start), sends GET PATH, waits
 * half a second (the server sends what it can), sends COUNT KeyUpdates
 * (stopping early when its own send side stays full for a second: the
 * server no longer reads), prints "sent N" and then "closed after MS"
 * once the server closed the connection; exit 0 then, 1 when it was
 * still open after WAIT_S seconds, 2 on a setup error.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "handshake/libtlsx/tlsx.h"

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int fail(const char *what, int rc)
{
	fprintf(stderr, "ku-client: %s: %s\n", what,
		rc ? tlsx_strerror(rc) : strerror(errno));
	return 2;
}

/* Waits for POLLOUT up to @ms: true when writable. */
static int writable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLOUT };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLOUT);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct tlsx_config *cfg;
	struct tlsx_conn *c = NULL;
	struct pollfd p;
	char req[512];
	int fd, rc, rcv = 1024, count, wait_s, sent = 0;
	long long t0;

	if (argc != 5) {
		fprintf(stderr, "usage: ku-client PORT PATH COUNT WAIT_S\n");
		return 2;
	}
	count = atoi(argv[3]);
	wait_s = atoi(argv[4]);
	sa.sin_port = htons((unsigned short)atoi(argv[1]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv)) ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
		return fail("connect", 0);
	cfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	if (!cfg)
		return fail("config", TLSX_E_NOMEM);
	/* A test certificate; what is tested is the server's record layer. */
	rc = tlsx_config_set_verify_peer(cfg, false, false);
	if (rc)
		return fail("config", rc);
	rc = tlsx_connect(cfg, fd, NULL, &c);
	if (rc)
		return fail("handshake", rc);
	snprintf(req, sizeof(req),
		 "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", argv[2]);
	rc = (int)tlsx_write(c, req, strlen(req));
	if (rc < 0)
		return fail("request", rc);
	usleep(500000);
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	while (sent < count) {
		rc = tlsx_conn_key_update(c, true);
		if (rc == TLSX_WANT_WRITE) {
			if (!writable(fd, 1000))
				break;
			continue;
		}
		if (rc) {
			fprintf(stderr, "ku-client: KeyUpdate %d: %s\n", sent,
				tlsx_strerror(rc));
			break;
		}
		sent++;
	}
	printf("sent %d\n", sent);
	fflush(stdout);
	t0 = now_ms();
	p.fd = fd;
	p.events = POLLRDHUP;
	for (;;) {
		int left = (int)(wait_s * 1000LL - (now_ms() - t0));

		if (left <= 0) {
			printf("still open after %d s\n", wait_s);
			return 1;
		}
		p.revents = 0;
		if (poll(&p, 1, left) < 0 && errno != EINTR)
			return fail("poll", 0);
		if (p.revents & (POLLRDHUP | POLLHUP | POLLERR))
			break;
	}
	printf("closed after %lld ms\n", now_ms() - t0);
	tlsx_conn_free(c);
	tlsx_config_free(cfg);
	close(fd);
	return 0;
}
