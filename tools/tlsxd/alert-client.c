// SPDX-License-Identifier: GPL-2.0
/*
 * alert-client.c - a client of tools/tlsxd/vm-tests that sends what
 * RFC 8446 forbids after the handshake and checks that the server
 * answers with the alert the RFC names for it, on libtlsx:
 *
 *   alert-client PORT bad-tag     a record whose tag does not verify
 *                                 (5.2: bad_record_mac); the client on
 *                                 the userspace layer writes it on the
 *                                 bare socket
 *   alert-client PORT ku-split    a KeyUpdate in two handshake records
 *                                 with a request between them (5.1:
 *                                 unexpected_message, and the request
 *                                 not answered); the client on a
 *                                 kernel layer (tlsx, else tls)
 *
 * Prints what came back; exit 0 when it was that alert and nothing
 * else, 1 when not, 2 on a setup error.
 */
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "handshake/libtlsx/tlsx.h"
#include "../../selftests/tlsx_test.h"

#define ALERT_UNEXPECTED_MESSAGE	10
#define ALERT_BAD_RECORD_MAC		20

static int fail(const char *what, int rc)
{
	fprintf(stderr, "alert-client: %s: %s\n", what, tlsx_strerror(rc));
	return 2;
}

/* One record of @type from a kernel layer's socket (its own sealing). */
static int send_record(int fd, unsigned char type, const void *p, size_t len)
{
	return send_type(fd, p, len, 0, type) == (ssize_t)len ? 0 : -1;
}

/* The forbidden bytes: 0, or -1 when they could not be sent. */
static int misbehave(struct tlsx_conn *c, int fd, bool ku_split)
{
	/* A record of 32 bytes that opens under no key: 16 + a bad tag. */
	static const unsigned char junk[5 + 32] = { 23, 3, 3, 0, 32, 0x55 };
	static const unsigned char ku[5] = { 24, 0, 0, 1, 0 };
	static const char req[] = "GET /f1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

	if (!ku_split)
		return write(fd, junk, sizeof(junk)) == sizeof(junk) ? 0 : -1;
	if (tlsx_conn_record_layer(c) == TLSX_RL_USER) {
		fprintf(stderr, "alert-client: no kernel record layer here\n");
		return -1;
	}
	/*
	 * Each a moment after the other: the server has taken the first
	 * piece and waits for more when the request comes (together, one
	 * read of libtlsx's would meet both).
	 */
	if (send_record(fd, 22, ku, 2))
		return -1;
	usleep(300000);
	if (send_record(fd, 23, req, strlen(req)))
		return -1;
	usleep(300000);
	return send_record(fd, 22, ku + 2, 3);
}

int main(int argc, char **argv)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	struct tlsx_config *cfg;
	struct tlsx_conn *c = NULL;
	int fd, rc, want;
	bool ku_split;
	size_t data = 0;
	char buf[4096];
	ssize_t n;

	if (argc != 3 || (strcmp(argv[2], "bad-tag") &&
			  strcmp(argv[2], "ku-split"))) {
		fprintf(stderr, "usage: alert-client PORT bad-tag|ku-split\n");
		return 2;
	}
	ku_split = !strcmp(argv[2], "ku-split");
	want = ku_split ? ALERT_UNEXPECTED_MESSAGE : ALERT_BAD_RECORD_MAC;
	sa.sin_port = htons((unsigned short)atoi(argv[1]));
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		perror("alert-client: connect");
		return 2;
	}
	cfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	if (!cfg)
		return fail("config", TLSX_E_NOMEM);
	/* A test certificate; what is tested is the server's record layer. */
	rc = tlsx_config_set_verify_peer(cfg, false, false);
	if (!rc && !ku_split)
		rc = tlsx_config_set_record_layer(cfg, TLSX_RL_USER);
	if (rc)
		return fail("config", rc);
	rc = tlsx_connect(cfg, fd, NULL, &c);
	if (rc)
		return fail("handshake", rc);
	if (misbehave(c, fd, ku_split)) {
		perror("alert-client: send");
		return 2;
	}
	/* Tickets are taken inside; data would be an answer to the request. */
	while ((n = tlsx_read(c, buf, sizeof(buf))) > 0)
		data += (size_t)n;
	printf("%s: %zu bytes of data, then %s", argv[2], data,
	       n ? tlsx_strerror((int)n) : "close_notify");
	if (tlsx_conn_alert(c) >= 0)
		printf(", alert %d (%s)", tlsx_conn_alert(c),
		       tlsx_alert_string(tlsx_conn_alert(c)));
	printf("\n");
	rc = n == TLSX_E_ALERT_RECEIVED && tlsx_conn_alert(c) == want &&
	     !data ? 0 : 1;
	tlsx_conn_free(c);
	tlsx_config_free(cfg);
	close(fd);
	return rc;
}
