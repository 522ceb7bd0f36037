// SPDX-License-Identifier: GPL-2.0
/*
 * pc_handshake.c - built by tools/packaging/test-install against the
 * installed tlsx.h and `pkg-config --cflags --libs tlsx` alone: a TLS 1.3
 * handshake over loopback between a client and a server thread, one
 * message each way, then close_notify.  Prints the version and the
 * negotiated suite; exits 0 only when all of it worked.
 *
 * usage: pc_handshake CHAIN KEY ROOT NAME
 */
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <tlsx.h>

static const char ping[] = "ping", pong[] = "pong";

struct server {
	struct tlsx_config *cfg;
	int lfd;
	int result;
};

static int fail(const char *what, int r)
{
	fprintf(stderr, "pc_handshake: %s: %s\n", what, tlsx_strerror(r));
	return 1;
}

static void *serve(void *arg)
{
	struct server *s = arg;
	struct tlsx_conn *c = NULL;
	char buf[16];
	ssize_t n;
	int fd, r;

	s->result = 1;
	fd = accept(s->lfd, NULL, NULL);
	if (fd < 0)
		return NULL;
	r = tlsx_accept(s->cfg, fd, &c);
	if (r != TLSX_DONE) {
		fail("server handshake", r);
		goto out;
	}
	n = tlsx_read(c, buf, sizeof(buf));
	if (n != (ssize_t)strlen(ping) || memcmp(buf, ping, n))
		goto out;
	if (tlsx_write(c, pong, strlen(pong)) != (ssize_t)strlen(pong))
		goto out;
	/* The client's close_notify: a read of 0. */
	if (tlsx_read(c, buf, sizeof(buf)) != 0)
		goto out;
	s->result = tlsx_close(c) == TLSX_OK ? 0 : 1;
out:
	tlsx_conn_free(c);
	close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	struct server s = { .lfd = -1 };
	struct tlsx_config *ccfg;
	struct tlsx_conn_info info;
	struct tlsx_conn *c = NULL;
	pthread_t t;
	char buf[16];
	int fd, r, ok = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: pc_handshake CHAIN KEY ROOT NAME\n");
		return 2;
	}
	printf("libtlsx %s\n", TLSX_VERSION_STRING);
	s.cfg = tlsx_config_new(TLSX_ROLE_SERVER);
	ccfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	if (!s.cfg || !ccfg)
		return fail("tlsx_config_new", TLSX_E_NOMEM);
	r = tlsx_config_add_cert(s.cfg, argv[1], argv[2]);
	if (r)
		return fail(tlsx_config_error(s.cfg), r);
	r = tlsx_config_set_trust(ccfg, argv[3]);
	if (r)
		return fail(tlsx_config_error(ccfg), r);

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	s.lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (s.lfd < 0 || bind(s.lfd, (struct sockaddr *)&a, sizeof(a)) ||
	    listen(s.lfd, 1) ||
	    getsockname(s.lfd, (struct sockaddr *)&a, &alen)) {
		perror("pc_handshake: listen");
		return 1;
	}
	if (pthread_create(&t, NULL, serve, &s))
		return 1;
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("pc_handshake: connect");
		return 1;
	}
	r = tlsx_connect(ccfg, fd, argv[4], &c);
	if (r != TLSX_DONE) {
		fail("client handshake", r);
	} else if (tlsx_conn_info(c, &info) == TLSX_OK &&
		   tlsx_write(c, ping, strlen(ping)) == (ssize_t)strlen(ping) &&
		   tlsx_read(c, buf, sizeof(buf)) == (ssize_t)strlen(pong) &&
		   !memcmp(buf, pong, strlen(pong)) && tlsx_close(c) == TLSX_OK &&
		   tlsx_read(c, buf, sizeof(buf)) == 0) {
		printf("handshake: %s, record layer %s\n", info.suite_name,
		       tlsx_record_layer_name(info.record_layer));
		ok = 1;
	}
	/* On a failure the server may still wait: unblock it. */
	shutdown(fd, SHUT_RDWR);
	pthread_join(t, NULL);
	tlsx_conn_free(c);
	close(fd);
	close(s.lfd);
	tlsx_config_free(ccfg);
	tlsx_config_free(s.cfg);
	return ok && !s.result ? 0 : 1;
}
