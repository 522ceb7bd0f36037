// SPDX-License-Identifier: GPL-2.0
/*
 * test_tlsxd_server.c - main's side of server.h (server.c):
 *
 *  - server_listen(): one socket per worker and address, non-blocking,
 *    SO_REUSEPORT, listening, all on the one port; ":PORT" is dual-stack
 *    (an IPv4 client reaches it); an address something already listens
 *    on is refused (even a SO_REUSEPORT listener of ours), nothing leaks;
 *    one that another process binds after our trial bind (in the
 *    wrapped listen_check_open()) is found by the sock_diag check and
 *    refused too, on the same address or IPv4's any address under our
 *    dual-stack one; a disjoint one (IPv6 ::1 beside 127.0.0.1) is not;
 *    a check that cannot run (no fd left) is 1 with its reason, the
 *    listeners made;
 *  - server_root_open(): a directory as O_PATH; a file, a missing path;
 *  - server_tls_build(): a chain and key; a bad chain, a key that is not
 *    the leaf's, ticket keys good and bad, each with libtlsx's message;
 *  - server_tls_get()/server_tls_set(): a reference outlives the swap
 *    (ASan sees a use after free otherwise); getters racing a swapper;
 *  - server_probe_record_layer(): forced layers, and auto agreeing with
 *    what the forced probes say is missing.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/engine/test/test_data.h"
#include "tlsxd/listen_check.h"
#include "tlsxd/server.h"

/*
 * Two TCP ports nothing uses now, chosen by bind(2) to port 0 on every
 * address (held together, so they differ), then released.  Not "port
 * + 1": the kernel leaves bind(0)'s parity of ports to connect(2), so
 * the neighbour of a bound port is often some client's local port.
 */
static void free_ports(unsigned int port[2])
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	socklen_t len;
	int fd[2], i;

	for (i = 0; i < 2; i++) {
		fd[i] = socket(AF_INET6, SOCK_STREAM, 0);
		len = sizeof(sin6);
		sin6.sin6_port = 0;
		if (fd[i] < 0 ||
		    bind(fd[i], (struct sockaddr *)&sin6, sizeof(sin6)) ||
		    getsockname(fd[i], (struct sockaddr *)&sin6, &len))
			abort();
		port[i] = ntohs(sin6.sin6_port);
	}
	close(fd[0]);
	close(fd[1]);
}

static unsigned int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	unsigned int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

static int sockopt(int fd, int level, int name)
{
	int v = -1;
	socklen_t len = sizeof(v);

	if (getsockopt(fd, level, name, &v, &len))
		return -1;
	return v;
}

static unsigned int local_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &len))
		return 0;
	if (ss.ss_family == AF_INET)
		return ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
}

/* Connects to 127.0.0.1:@port: 0 when the connection was made. */
static int connect_v4(unsigned int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM, 0), r;

	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	r = connect(fd, (struct sockaddr *)&sin, sizeof(sin));
	close(fd);
	return r;
}

FIXTURE(srv) {
	struct tlsxd_conf conf;
	struct server srv;
	char addr[2][32];
	unsigned int port[2];
};

FIXTURE_SETUP(srv)
{
	conf_init(&self->conf);
	memset(&self->srv, 0, sizeof(self->srv));
	self->srv.conf = &self->conf;
	free_ports(self->port);
	snprintf(self->addr[0], sizeof(self->addr[0]), "127.0.0.1:%u",
		 self->port[0]);
	snprintf(self->addr[1], sizeof(self->addr[1]), ":%u",
		 self->port[1]);
}

FIXTURE_TEARDOWN(srv)
{
	server_listen_close(&self->srv);
	self->conf.nlisten = 0;	/* the strings are the fixture's */
	conf_free(&self->conf);
}

TEST_F(srv, one_socket_per_worker_and_address)
{
	char err[256];
	unsigned int i;

	self->conf.listen[0] = self->addr[0];
	self->conf.listen[1] = self->addr[1];
	self->conf.nlisten = 2;
	self->srv.nworkers = 3;
	ASSERT_EQ(0, server_listen(&self->srv, 3, err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(2, self->srv.nlisten);
	EXPECT_FALSE(self->srv.listen_shared);
	for (i = 0; i < 6; i++) {
		int fd = self->srv.listen_fds[i];

		EXPECT_TRUE(fcntl(fd, F_GETFL) & O_NONBLOCK);
		EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
		EXPECT_EQ(1, sockopt(fd, SOL_SOCKET, SO_REUSEPORT));
		EXPECT_EQ(1, sockopt(fd, SOL_SOCKET, SO_ACCEPTCONN));
		/* listen_fds[worker * nlisten + i]: address i of a worker. */
		EXPECT_EQ(self->port[i % 2], local_port(fd));
	}
	/* ":PORT" is an IPv6 socket that takes IPv4 too. */
	EXPECT_EQ(0, sockopt(self->srv.listen_fds[1], IPPROTO_IPV6,
			     IPV6_V6ONLY));
	EXPECT_EQ(0, connect_v4(self->port[0]));
	EXPECT_EQ(0, connect_v4(self->port[1]));
}

TEST_F(srv, an_address_in_use_is_refused)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	int other = socket(AF_INET, SOCK_STREAM, 0), on = 1;
	unsigned int before;
	char err[256], want[256];

	/* Another server, itself on SO_REUSEPORT as a second tlsxd is. */
	sin.sin_port = htons((uint16_t)self->port[0]);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ(0, setsockopt(other, SOL_SOCKET, SO_REUSEPORT, &on,
				sizeof(on)));
	ASSERT_EQ(0, bind(other, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(0, listen(other, 1));

	/* The second address is taken: the first's sockets are closed. */
	self->conf.listen[0] = self->addr[1];
	self->conf.listen[1] = self->addr[0];
	self->conf.nlisten = 2;
	self->srv.nworkers = 2;
	before = open_fds();
	EXPECT_EQ(-1, server_listen(&self->srv, 2, err, sizeof(err)));
	snprintf(want, sizeof(want),
		 "listen %s: bind: Address already in use", self->addr[0]);
	EXPECT_STREQ(want, err);
	EXPECT_EQ(NULL, self->srv.listen_fds);
	EXPECT_EQ(before, open_fds());
	close(other);

	/* Freed: it binds now. */
	EXPECT_EQ(0, server_listen(&self->srv, 2, err, sizeof(err)))
		TH_LOG("%s", err);
}

/*
 * The window between our trial bind and the check: this binary links
 * with -Wl,--wrap=listen_check_open (the Makefile), so server.c's
 * listen_foreign() calls __wrap_listen_check_open() once every listener
 * is bound, and @bound_hook runs there before the real sock_diag socket
 * is opened.  The daemon itself has no such seam.
 */
int __real_listen_check_open(void);
static void (*bound_hook)(void);

int __wrap_listen_check_open(void)
{
	if (bound_hook)
		bound_hook();
	return __real_listen_check_open();
}

/* The window's intruder: a SO_REUSEPORT listener on hook_addr:hook_port. */
static const char *hook_addr;
static unsigned int hook_port;
static int hook_fd = -1;

static void bind_in_the_window(void)
{
	struct sockaddr_in6 sin6 = { .sin6_family = AF_INET6 };
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr *sa = (struct sockaddr *)&sin;
	socklen_t len = sizeof(sin);
	int on = 1;

	sin.sin_port = htons((uint16_t)hook_port);
	sin6.sin6_port = sin.sin_port;
	if (inet_pton(AF_INET, hook_addr, &sin.sin_addr) != 1) {
		if (inet_pton(AF_INET6, hook_addr, &sin6.sin6_addr) != 1)
			abort();
		sa = (struct sockaddr *)&sin6;
		len = sizeof(sin6);
	}
	hook_fd = socket(sa->sa_family, SOCK_STREAM, 0);
	if (hook_fd < 0 ||
	    setsockopt(hook_fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof(on)) ||
	    bind(hook_fd, sa, len) || listen(hook_fd, 1))
		abort();
}

/*
 * server_listen() for @srv (whose conf is @conf) on @addr, the intruder
 * at @other:@port; its result.
 */
static int listen_with_intruder(struct __test_metadata *_metadata,
				struct tlsxd_conf *conf, struct server *srv,
				char *addr, const char *other,
				unsigned int port, char *err, size_t errlen)
{
	unsigned int before = open_fds();
	int r;

	conf->listen[0] = addr;
	conf->nlisten = 1;
	srv->nworkers = 2;
	hook_addr = other;
	hook_port = port;
	bound_hook = bind_in_the_window;
	r = server_listen(srv, 2, err, errlen);
	bound_hook = NULL;
	if (r < 0) {
		EXPECT_EQ(NULL, srv->listen_fds);
		/* Ours closed, the intruder's open: one more than before. */
		EXPECT_EQ(before + 1, open_fds());
	}
	return r;
}

TEST_F(srv, a_listener_in_the_window_is_refused)
{
	char err[256], want[256];
	int r;

	r = listen_with_intruder(_metadata, &self->conf, &self->srv,
				 self->addr[0], "127.0.0.1", self->port[0],
				 err, sizeof(err));
	EXPECT_EQ(-1, r) TH_LOG("%s", err);
	snprintf(want, sizeof(want),
		 "listen %s: another process listens there too (127.0.0.1:%u, uid %u, inode ",
		 self->addr[0], self->port[0], getuid());
	EXPECT_EQ(0, strncmp(want, err, strlen(want))) TH_LOG("%s", err);
	EXPECT_NE(NULL, strstr(err, "): a second server on this port?"));
	close(hook_fd);

	/* IPv4's any address under our dual-stack ":PORT". */
	r = listen_with_intruder(_metadata, &self->conf, &self->srv,
				 self->addr[1], "0.0.0.0", self->port[1],
				 err, sizeof(err));
	EXPECT_EQ(-1, r) TH_LOG("%s", err);
	snprintf(want, sizeof(want),
		 "listen %s: another process listens there too (0.0.0.0:%u,",
		 self->addr[1], self->port[1]);
	EXPECT_EQ(0, strncmp(want, err, strlen(want))) TH_LOG("%s", err);
	close(hook_fd);
}

TEST_F(srv, a_disjoint_listener_is_not_refused)
{
	char err[256];

	/* ::1 takes no IPv4 address: 127.0.0.1 is still ours alone. */
	EXPECT_EQ(0, listen_with_intruder(_metadata, &self->conf, &self->srv,
					  self->addr[0], "::1", self->port[0],
					  err, sizeof(err)))
		TH_LOG("%s", err);
	EXPECT_EQ(0, connect_v4(self->port[0]));
	close(hook_fd);
}

static struct rlimit nofile;

/* No fd left for the sock_diag socket: the check cannot run. */
static void no_fd_left(void)
{
	struct rlimit none;
	int lowest = dup(0);	/* the number the next fd would get */

	close(lowest);
	getrlimit(RLIMIT_NOFILE, &nofile);
	none = nofile;
	none.rlim_cur = (rlim_t)lowest;
	setrlimit(RLIMIT_NOFILE, &none);
}

TEST_F(srv, a_check_that_cannot_run_warns)
{
	char err[256];

	self->conf.listen[0] = self->addr[0];
	self->conf.nlisten = 1;
	self->srv.nworkers = 1;
	bound_hook = no_fd_left;
	EXPECT_EQ(1, server_listen(&self->srv, 1, err, sizeof(err)));
	bound_hook = NULL;
	setrlimit(RLIMIT_NOFILE, &nofile);
	EXPECT_STREQ("cannot check for other listeners: Too many open files",
		     err);
	/* The listener is made all the same. */
	ASSERT_NE(NULL, self->srv.listen_fds);
	EXPECT_EQ(0, connect_v4(self->port[0]));
}

TEST_F(srv, bad_address)
{
	char err[256];

	self->conf.listen[0] = "10.0.0.256:1";
	self->conf.nlisten = 1;
	EXPECT_EQ(-1, server_listen(&self->srv, 1, err, sizeof(err)));
	EXPECT_STREQ("bad address \"10.0.0.256\" (a numeric IPv4 or [IPv6] address)",
		     err);
}

TEST(root_open)
{
	char dir[] = "/tmp/test_server.XXXXXX", file[64], err[256], want[256];
	int fd;

	ASSERT_NE(NULL, mkdtemp(dir));
	fd = server_root_open(dir, err, sizeof(err));
	ASSERT_LE(0, fd) TH_LOG("%s", err);
	EXPECT_TRUE(fcntl(fd, F_GETFL) & O_PATH);
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	snprintf(file, sizeof(file), "%s/f", dir);
	fd = open(file, O_CREAT | O_WRONLY, 0644);
	close(fd);
	EXPECT_EQ(-1, server_root_open(file, err, sizeof(err)));
	snprintf(want, sizeof(want), "--root %s: Not a directory", file);
	EXPECT_STREQ(want, err);
	unlink(file);
	rmdir(dir);
	EXPECT_EQ(-1, server_root_open(dir, err, sizeof(err)));
	snprintf(want, sizeof(want), "--root %s: No such file or directory",
		 dir);
	EXPECT_STREQ(want, err);
}

/* A configuration with one chain and key, as main builds it. */
static struct tlsx_config *build(const char *cert, const char *key,
				 const char *tickets, char *err, size_t errlen)
{
	struct tlsxd_conf c;
	struct tlsx_config *cfg;

	conf_init(&c);
	c.certs[0].cert_file = (char *)cert;
	c.certs[0].key_file = (char *)key;
	c.ncerts = 1;
	c.ticket_key_file = (char *)tickets;
	c.record_layer = TLSX_RL_USER;
	err[0] = '\0';
	cfg = server_tls_build(&c, err, errlen);
	return cfg;
}

TEST(tls_build)
{
	struct tlsx_config *cfg;
	char err[256], tk[] = "/tmp/test_server.tk.XXXXXX", buf[80] = { 1 };
	int fd;

	cfg = build(data("p256-chain.pem"), data("p256-leaf.key"),
		    NULL, err, sizeof(err));
	ASSERT_NE(NULL, cfg) TH_LOG("%s", err);
	/* Frozen: a setter is refused. */
	EXPECT_EQ(TLSX_E_INVAL, tlsx_config_set_alpn(cfg, "h2"));
	tlsx_config_free(cfg);

	/* The key of another certificate. */
	cfg = build(data("p256-chain.pem"), data("rsa-leaf.key"), NULL,
		    err, sizeof(err));
	EXPECT_EQ(NULL, cfg);
	EXPECT_NE('\0', err[0]);

	/* Not a chain at all: libtlsx's message names the file. */
	cfg = build(data("p256-leaf.key"), data("p256-leaf.key"), NULL,
		    err, sizeof(err));
	EXPECT_EQ(NULL, cfg);
	EXPECT_NE(NULL, strstr(err, "p256-leaf.key")) TH_LOG("%s", err);

	cfg = build("/nonexistent.pem", data("p256-leaf.key"), NULL, err,
		    sizeof(err));
	EXPECT_EQ(NULL, cfg);
	EXPECT_NE(NULL, strstr(err, "/nonexistent.pem")) TH_LOG("%s", err);

	/* Ticket keys: 80 bytes a key; 79 is not a key file. */
	fd = mkstemp(tk);
	ASSERT_LE(0, fd);
	ASSERT_EQ(80, write(fd, buf, 80));
	close(fd);
	cfg = build(data("p256-chain.pem"), data("p256-leaf.key"), tk,
		    err, sizeof(err));
	EXPECT_NE(NULL, cfg) TH_LOG("%s", err);
	tlsx_config_free(cfg);
	ASSERT_EQ(0, truncate(tk, 79));
	cfg = build(data("p256-chain.pem"), data("p256-leaf.key"), tk,
		    err, sizeof(err));
	EXPECT_EQ(NULL, cfg);
	EXPECT_NE('\0', err[0]);
	unlink(tk);
}

TEST(tls_get_set_references)
{
	struct server s;
	struct tlsx_config *a, *b, *held;
	char err[256];

	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.tls_lock, NULL);
	EXPECT_EQ(NULL, server_tls_get(&s));
	a = build(data("p256-chain.pem"), data("p256-leaf.key"), NULL,
		  err, sizeof(err));
	b = build(data("ed25519-chain.pem"), data("ed25519-leaf.key"),
		  NULL, err, sizeof(err));
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	server_tls_set(&s, a);
	held = server_tls_get(&s);
	EXPECT_EQ(a, held);
	server_tls_set(&s, b);		/* drops the server's reference to a */
	EXPECT_EQ(b, server_tls_get(&s));
	tlsx_config_free(b);
	/* a lives on for its holder (ASan: no use after free here). */
	EXPECT_STREQ("", tlsx_config_error(held));
	tlsx_config_free(held);
	server_tls_set(&s, NULL);
	EXPECT_EQ(NULL, server_tls_get(&s));
	pthread_mutex_destroy(&s.tls_lock);
}

struct racer {
	struct server *s;
	atomic_bool *stop;
	unsigned long got;
};

static void *getter(void *arg)
{
	struct racer *r = arg;

	while (!atomic_load(r->stop)) {
		struct tlsx_config *cfg = server_tls_get(r->s);

		if (cfg) {
			r->got++;
			tlsx_config_free(cfg);
		}
	}
	return NULL;
}

TEST(tls_swap_under_getters)
{
	struct server s;
	struct racer r[2];
	pthread_t t[2];
	atomic_bool stop = false;
	char err[256];
	unsigned int i;

	memset(&s, 0, sizeof(s));
	pthread_mutex_init(&s.tls_lock, NULL);
	server_tls_set(&s, build(data("p256-chain.pem"),
				 data("p256-leaf.key"), NULL, err,
				 sizeof(err)));
	for (i = 0; i < 2; i++) {
		r[i].s = &s;
		r[i].stop = &stop;
		r[i].got = 0;
		ASSERT_EQ(0, pthread_create(&t[i], NULL, getter, &r[i]));
	}
	for (i = 0; i < 50; i++) {
		struct tlsx_config *cfg;

		cfg = build(data("p256-chain.pem"), data("p256-leaf.key"),
			    NULL, err, sizeof(err));
		ASSERT_NE(NULL, cfg);
		server_tls_set(&s, cfg);
		usleep(1000);	/* let the getters run between swaps */
	}
	/* Both getters ran (at most 5 s more on a loaded machine). */
	for (i = 0; i < 5000 && (!r[0].got || !r[1].got); i++)
		usleep(1000);
	atomic_store(&stop, true);
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	EXPECT_GT(r[0].got, 0);
	EXPECT_GT(r[1].got, 0);
	server_tls_set(&s, NULL);
	pthread_mutex_destroy(&s.tls_lock);
}

TEST(record_layer_probe)
{
	enum tlsx_record_layer rl;
	bool missing_tlsx, missing_tls, missing;

	EXPECT_EQ(TLSX_RL_USER, server_probe_record_layer(TLSX_RL_USER,
							  &missing));
	EXPECT_FALSE(missing);
	EXPECT_EQ(TLSX_RL_TLSX, server_probe_record_layer(TLSX_RL_TLSX,
							  &missing_tlsx));
	EXPECT_EQ(TLSX_RL_TLS, server_probe_record_layer(TLSX_RL_TLS,
							 &missing_tls));
	rl = server_probe_record_layer(TLSX_RL_AUTO, &missing);
	EXPECT_FALSE(missing);
	/* auto is the first of tlsx, tls, user that is there. */
	if (!missing_tlsx)
		EXPECT_EQ(TLSX_RL_TLSX, rl);
	if (missing_tlsx && !missing_tls)
		EXPECT_EQ(TLSX_RL_TLS, rl);
	if (missing_tlsx && missing_tls)
		EXPECT_EQ(TLSX_RL_USER, rl);
	TH_LOG("record layer here: %s", tlsx_record_layer_name(rl));
}

TEST_HARNESS_MAIN
