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

/* say - names the step that failed; returns 1 for the caller's result. */
static int say(const char *who, const char *what)
{
	fprintf(stderr, "pc_handshake: %s: %s\n", who, what);
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
	if (fd < 0) {
		perror("pc_handshake: server: accept");
		return NULL;
	}
	r = tlsx_accept(s->cfg, fd, &c);
	if (r != TLSX_DONE) {
		fail("server handshake", r);
		goto out;
	}
	n = tlsx_read(c, buf, sizeof(buf));
	if (n != (ssize_t)strlen(ping) || memcmp(buf, ping, n)) {
		say("server", "read: not the client's ping");
		goto out;
	}
	if (tlsx_write(c, pong, strlen(pong)) != (ssize_t)strlen(pong)) {
		say("server", "write of pong failed");
		goto out;
	}
	/* The client's close_notify: a read of 0. */
	if (tlsx_read(c, buf, sizeof(buf)) != 0) {
		say("server", "no close_notify from the client");
		goto out;
	}
	r = tlsx_close(c);
	if (r != TLSX_OK) {
		fail("server close", r);
		goto out;
	}
	s->result = 0;
out:
	tlsx_conn_free(c);
	close(fd);
	return NULL;
}

/* run_client - one message each way, then close_notify; 0 when all worked. */
static int run_client(struct tlsx_conn *c)
{
	struct tlsx_conn_info info;
	char buf[16];
	int r;

	r = tlsx_conn_info(c, &info);
	if (r != TLSX_OK)
		return fail("tlsx_conn_info", r);
	if (tlsx_write(c, ping, strlen(ping)) != (ssize_t)strlen(ping))
		return say("client", "write of ping failed");
	if (tlsx_read(c, buf, sizeof(buf)) != (ssize_t)strlen(pong) ||
	    memcmp(buf, pong, strlen(pong)))
		return say("client", "read: not the server's pong");
	r = tlsx_close(c);
	if (r != TLSX_OK)
		return fail("client close", r);
	if (tlsx_read(c, buf, sizeof(buf)) != 0)
		return say("client", "no close_notify from the server");
	printf("handshake: %s, record layer %s\n", info.suite_name,
	       tlsx_record_layer_name(info.record_layer));
	return 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t alen = sizeof(a);
	struct server s = { .lfd = -1 };
	struct tlsx_config *ccfg;
	struct tlsx_conn *c = NULL;
	pthread_t t;
	int fd, r, ok = 0;

	if (argc != 5) {
		fprintf(stderr, "usage: pc_handshake CHAIN KEY ROOT NAME\n");
		return 2;
	}
	/* Line-buffered: what was printed survives a failure's exit. */
	setvbuf(stdout, NULL, _IOLBF, 0);
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
		return say("main", "pthread_create failed");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		perror("pc_handshake: connect");
		return 1;
	}
	r = tlsx_connect(ccfg, fd, argv[4], &c);
	if (r != TLSX_DONE)
		fail("client handshake", r);
	else
		ok = !run_client(c);
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
