// SPDX-License-Identifier: GPL-2.0
/*
 * test_tlsxd_main.c - the tlsxd process as main.c makes it, run as a
 * program (build/bin/tlsxd next to this test's build/test*, or
 * $TLSXD_BIN):
 *
 *  - exit codes and the one-line messages: 2 for a bad command line or
 *    configuration, 1 for a server that cannot start (a port in use, a
 *    missing root, a bad key), 0 after SIGTERM; --version;
 *  - the start-up line (addresses, root, worker count, record layer);
 *  - the error log file, the pid file (written, removed);
 *  - --user: the uid, gid and groups dropped, no_new_privs set, and the
 *    server still serving;
 *  - sd_notify: READY=1, RELOADING=1 with MONOTONIC_USEC then READY=1
 *    around SIGHUP, STOPPING=1 on SIGTERM (NOTIFY_SOCKET is ours);
 *  - systemd socket activation: LISTEN_FDS sockets served, --listen
 *    ignored;
 *  - SIGHUP with a broken certificate keeps the old configuration and
 *    still serves; with a good one, reloads;
 *  - SIGUSR1 writes the counters;
 *  - SIGTERM with a response stuck in flight: the exit comes at
 *    --timeout-drain; a second SIGTERM exits at once (status 1), the
 *    first one delivered twice (as timeout(1) does) does not: the
 *    response in flight still ends whole, then exit 0.
 * Requests are made over TLS with libtlsx as the client.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/libtlsx/tlsx.h"
#include "handshake/engine/test/test_data.h"

#define OUT_MAX		(64 * 1024)
#define WAIT_MS		10000

/* build/bin/tlsxd from this program's build/test or build/test-asan. */
static const char *tlsxd_bin(void)
{
	static char path[PATH_MAX];
	char exe[PATH_MAX - 16];
	ssize_t n;
	char *slash;

	if (getenv("TLSXD_BIN"))
		return getenv("TLSXD_BIN");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n < 0)
		return "build/bin/tlsxd";
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	snprintf(path, sizeof(path), "%s/../bin/tlsxd", exe);
	return path;
}

/* A port bind(2) picked, released (see test_tlsxd_server.c). */
static unsigned int free_port(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned int port;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len))
		abort();
	port = ntohs(sin.sin_port);
	close(fd);
	return port;
}

struct proc {
	pid_t pid;
	int err;		/* its stderr, read end */
	char out[OUT_MAX];	/* what it wrote there so far */
	size_t len;
};

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Starts tlsxd with @argv (NULL-terminated, without argv[0]).  @listen_fd
 * >= 0 is passed as systemd's fd 3 (LISTEN_FDS=1).
 */
static void start(struct proc *p, char *const *args, int listen_fd)
{
	char *argv[64];
	int pipefd[2], i;

	argv[0] = "tlsxd";
	for (i = 0; args[i] && i < 62; i++)
		argv[i + 1] = args[i];
	argv[i + 1] = NULL;
	if (pipe2(pipefd, O_CLOEXEC))
		abort();
	p->len = 0;
	p->out[0] = '\0';
	p->pid = fork();
	if (p->pid < 0)
		abort();
	if (p->pid == 0) {
		char pid[24];

		int null = open("/dev/null", O_WRONLY);

		/*
		 * Killed with us if a failed assertion leaves it running
		 * (until --user changes its credentials); and not holding
		 * our stdout, which the test runner reads to its end.
		 */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		dup2(null, STDOUT_FILENO);
		dup2(pipefd[1], STDERR_FILENO);
		if (listen_fd >= 0) {
			dup2(listen_fd, 3);
			snprintf(pid, sizeof(pid), "%d", (int)getpid());
			setenv("LISTEN_FDS", "1", 1);
			setenv("LISTEN_PID", pid, 1);
		}
		execv(tlsxd_bin(), argv);
		fprintf(stderr, "exec %s: %s\n", tlsxd_bin(), strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	p->err = pipefd[0];
}

/* Reads its stderr until @what appears (true) or @ms pass (false). */
static bool wait_for(struct proc *p, const char *what, int ms)
{
	long long end = now_ms() + ms;

	while (!strstr(p->out, what)) {
		struct pollfd pfd = { .fd = p->err, .events = POLLIN };
		long long left = end - now_ms();
		ssize_t n;

		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0)
			return false;
		n = read(p->err, p->out + p->len, sizeof(p->out) - 1 - p->len);
		if (n <= 0)
			return false;
		p->len += (size_t)n;
		p->out[p->len] = '\0';
	}
	return true;
}

/* Its exit code (or 128 + signal); -1 if still running after @ms. */
static int wait_exit(struct proc *p, int ms)
{
	long long end = now_ms() + ms;
	int status;

	for (;;) {
		pid_t r = waitpid(p->pid, &status, WNOHANG);

		if (r == p->pid)
			break;
		if (now_ms() > end) {
			kill(p->pid, SIGKILL);
			waitpid(p->pid, &status, 0);
			return -1;
		}
		usleep(10000);
	}
	/* It has exited: read its stderr to the end. */
	while (p->len < sizeof(p->out) - 1) {
		ssize_t n = read(p->err, p->out + p->len,
				 sizeof(p->out) - 1 - p->len);

		if (n <= 0)
			break;
		p->len += (size_t)n;
		p->out[p->len] = '\0';
	}
	close(p->err);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* A whole run of a command that should not start: exit code and output. */
static int run(struct proc *p, char *const *args)
{
	start(p, args, -1);
	return wait_exit(p, WAIT_MS);
}

/*
 * GET / over TLS to 127.0.0.1:@port: the status, or -1.  The body in
 * @body; the signature scheme of the server's CertificateVerify (which
 * key signed) in *@sig if not NULL.
 */
static int fetch_sig(unsigned int port, char *body, size_t cap,
		     unsigned int *sig)
{
	struct tlsx_conn_info info;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	static const char req[] =
		"GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	struct tlsx_conn *c = NULL;
	char buf[8192];
	size_t len = 0;
	int fd, status = -1;
	ssize_t n;

	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (!cfg || fd < 0 ||
	    tlsx_config_set_verify_peer(cfg, false, false) ||
	    tlsx_config_set_record_layer(cfg, TLSX_RL_USER) ||
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		goto out;
	if (tlsx_connect(cfg, fd, NULL, &c) != TLSX_DONE)
		goto out;
	if (sig && !tlsx_conn_info(c, &info))
		*sig = info.sig_scheme;
	if (tlsx_write(c, req, sizeof(req) - 1) != (ssize_t)sizeof(req) - 1)
		goto out;
	while (len < sizeof(buf) - 1 &&
	       (n = tlsx_read(c, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	buf[len] = '\0';
	if (sscanf(buf, "HTTP/1.1 %d", &status) != 1)
		status = -1;
	if (body) {
		const char *b = strstr(buf, "\r\n\r\n");

		snprintf(body, cap, "%s", b ? b + 4 : "");
	}
out:
	if (c)
		tlsx_conn_free(c);
	if (fd >= 0)
		close(fd);
	tlsx_config_free(cfg);
	return status;
}

static int fetch(unsigned int port, char *body, size_t cap)
{
	return fetch_sig(port, body, cap, NULL);
}

/* Until 127.0.0.1:@port takes connections (true) or @ms pass. */
static bool wait_listening(unsigned int port, int ms)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	long long end = now_ms() + ms;

	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	while (now_ms() < end) {
		int fd = socket(AF_INET, SOCK_STREAM, 0), r;

		r = connect(fd, (struct sockaddr *)&sin, sizeof(sin));
		close(fd);
		if (!r)
			return true;
		usleep(20000);
	}
	return false;
}

FIXTURE(d) {
	char root[64], cert[128], key[128], port_arg[32], pid_file[96];
	unsigned int port;
	struct proc p;
};

static void copy_file(const char *from, const char *to)
{
	char buf[8192];
	int in = open(from, O_RDONLY), out;
	ssize_t n;

	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (in < 0 || out < 0)
		abort();
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			abort();
	close(in);
	close(out);
}

FIXTURE_SETUP(d)
{
	char index[96];
	int fd;

	snprintf(self->root, sizeof(self->root), "/tmp/test_tlsxd_main.XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->root));
	chmod(self->root, 0755);	/* --user nobody reads it */
	snprintf(index, sizeof(index), "%s/index.html", self->root);
	fd = open(index, O_WRONLY | O_CREAT, 0644);
	ASSERT_EQ(6, write(fd, "hello\n", 6));
	close(fd);
	/* Copies: SIGHUP tests change them. */
	snprintf(self->cert, sizeof(self->cert), "%s/cert.pem", self->root);
	snprintf(self->key, sizeof(self->key), "%s/key.pem", self->root);
	copy_file(data("p256-chain.pem"), self->cert);
	copy_file(data("p256-leaf.key"), self->key);
	snprintf(self->pid_file, sizeof(self->pid_file), "%s/pid",
		 self->root);
	self->port = free_port();
	snprintf(self->port_arg, sizeof(self->port_arg), "127.0.0.1:%u",
		 self->port);
	self->p.pid = 0;
}

FIXTURE_TEARDOWN(d)
{
	char cmd[128];

	if (self->p.pid > 0 && !waitpid(self->p.pid, NULL, WNOHANG)) {
		kill(self->p.pid, SIGKILL);
		waitpid(self->p.pid, NULL, 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->root);
	if (system(cmd))
		TH_LOG("cannot remove %s", self->root);
}

/* The usual serving command line, then @extra (NULL-terminated). */
#define SERVE(self, ...)						\
	((char *[]){ "--listen", (self)->port_arg, "--root", (self)->root, \
		     "--cert", (self)->cert, "--key", (self)->key,	\
		     "--workers", "2", "--record-layer", "user",	\
		     "--pid-file", (self)->pid_file, __VA_ARGS__ })

TEST_F(d, version)
{
	EXPECT_EQ(0, run(&self->p, (char *[]){ "--version", NULL }));
}

TEST_F(d, bad_command_line_is_exit_2)
{
	EXPECT_EQ(2, run(&self->p, (char *[]){ "--listen", "127.0.0.1:x",
					       NULL }));
	EXPECT_STREQ("tlsxd: --listen: bad port \"x\"\n", self->p.out);
	EXPECT_EQ(2, run(&self->p, (char *[]){ "--root", self->root,
					       NULL }));
	EXPECT_STREQ("tlsxd: no --listen address (and no systemd sockets)\n",
		     self->p.out);
	EXPECT_EQ(2, run(&self->p, (char *[]){ "--workers", "0", NULL }));
	EXPECT_STREQ("tlsxd: --workers: bad number \"0\" (1..1024)\n",
		     self->p.out);
	/* add-header's refusals, as every other option's. */
	EXPECT_EQ(2, run(&self->p, (char *[]){ "--add-header",
					       "Transfer-Encoding: chunked",
					       NULL }));
	EXPECT_STREQ("tlsxd: --add-header: Transfer-Encoding is not allowed (framing, RFC 9112 6.1)\n",
		     self->p.out);
}

TEST_F(d, cannot_start_is_exit_1)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char want[256];
	int busy;

	EXPECT_EQ(1, run(&self->p, (char *[]){ "--listen", self->port_arg,
					       "--root", "/nonexistent",
					       "--cert", self->cert, "--key",
					       self->key, NULL }));
	EXPECT_STREQ("tlsxd: --root /nonexistent: No such file or directory\n",
		     self->p.out);

	EXPECT_EQ(1, run(&self->p, (char *[]){ "--listen", self->port_arg,
					       "--root", self->root, "--cert",
					       self->key, "--key", self->key,
					       NULL }));
	EXPECT_EQ(0, strncmp(self->p.out, "tlsxd: ", 7));
	EXPECT_NE(NULL, strstr(self->p.out, "key.pem")) TH_LOG("%s",
							       self->p.out);

	/* The port taken by someone else. */
	busy = socket(AF_INET, SOCK_STREAM, 0);
	sin.sin_port = htons((uint16_t)self->port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ(0, bind(busy, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(0, listen(busy, 1));
	EXPECT_EQ(1, run(&self->p, SERVE(self, NULL)));
	snprintf(want, sizeof(want),
		 "tlsxd: listen %s: bind: Address already in use\n",
		 self->port_arg);
	EXPECT_STREQ(want, self->p.out);
	close(busy);
	/* Nothing was left behind. */
	EXPECT_NE(0, access(self->pid_file, F_OK));
}

TEST_F(d, serves_then_sigterm_exits_0)
{
	char want[256], body[64], pid[24];
	int fd;
	ssize_t n;

	start(&self->p, SERVE(self, NULL), -1);
	snprintf(want, sizeof(want),
		 "tlsxd 0.1: listening on https://%s/, root %s, 2 workers, record layer user\n",
		 self->port_arg, self->root);
	ASSERT_TRUE(wait_for(&self->p, want, WAIT_MS)) TH_LOG("%s",
							      self->p.out);
	EXPECT_EQ(200, fetch(self->port, body, sizeof(body)));
	EXPECT_STREQ("hello\n", body);

	/* The pid file names it. */
	fd = open(self->pid_file, O_RDONLY);
	ASSERT_LE(0, fd);
	n = read(fd, pid, sizeof(pid) - 1);
	close(fd);
	ASSERT_GT(n, 0);
	pid[n] = '\0';
	EXPECT_EQ(self->p.pid, atoi(pid));

	/* SIGUSR1: the counters. */
	kill(self->p.pid, SIGUSR1);
	EXPECT_TRUE(wait_for(&self->p, "stats: requests 1\n", WAIT_MS));
	EXPECT_NE(NULL, strstr(self->p.out, "stats: conn_accepted 1\n"));

	kill(self->p.pid, SIGTERM);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
	EXPECT_NE(NULL, strstr(self->p.out, "exiting (0)"));
	EXPECT_NE(0, access(self->pid_file, F_OK));	/* removed */
}

TEST_F(d, default_workers_are_the_cpus)
{
	char want[64];
	cpu_set_t set;

	ASSERT_EQ(0, sched_getaffinity(0, sizeof(set), &set));
	start(&self->p, (char *[]){ "--listen", self->port_arg, "--root",
				    self->root, "--cert", self->cert, "--key",
				    self->key, NULL }, -1);
	snprintf(want, sizeof(want), ", %d workers, record layer ",
		 CPU_COUNT(&set));
	EXPECT_TRUE(wait_for(&self->p, want, WAIT_MS)) TH_LOG("%s",
							      self->p.out);
	kill(self->p.pid, SIGINT);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
}

TEST_F(d, error_log_file)
{
	/* The whole log: the counters dumped at exit come before the end. */
	static char buf[65536];
	char path[96];
	size_t len = 0;
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/error.log", self->root);
	start(&self->p, SERVE(self, "--error-log", path, NULL), -1);
	ASSERT_TRUE(wait_listening(self->port, WAIT_MS));
	ASSERT_EQ(200, fetch(self->port, NULL, 0));
	kill(self->p.pid, SIGTERM);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
	EXPECT_EQ(NULL, strstr(self->p.out, "listening on"));
	fd = open(path, O_RDONLY);
	ASSERT_LE(0, fd);
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
		len += (size_t)n;
	close(fd);
	ASSERT_GT(len, 0);
	ASSERT_GT(sizeof(buf) - 1, len);
	buf[len] = '\0';
	EXPECT_NE(NULL, strstr(buf, "[info] tlsxd 0.1: listening on https://"));
	EXPECT_NE(NULL, strstr(buf, "[info] exiting (0)"));
}

/* The value of "@key:" in /proc/@pid/status, whitespace squeezed. */
static void proc_status(pid_t pid, const char *key, char *out, size_t cap)
{
	char path[64], line[256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	out[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		size_t kl = strlen(key), o = 0;
		char *p;

		if (strncmp(line, key, kl) || line[kl] != ':')
			continue;
		for (p = line + kl + 1; *p && *p != '\n' && o + 1 < cap; p++) {
			if ((*p == ' ' || *p == '\t') &&
			    (o == 0 || out[o - 1] == ' '))
				continue;
			out[o++] = *p == '\t' ? ' ' : *p;
		}
		while (o && out[o - 1] == ' ')
			o--;
		out[o] = '\0';
	}
	fclose(f);
}

TEST_F(d, user_drops_privileges)
{
	char v[128];

	if (geteuid() != 0)
		SKIP(return, "needs root to drop privileges");
	start(&self->p, SERVE(self, "--user", "65534:65534", NULL), -1);
	ASSERT_TRUE(wait_for(&self->p, "listening on", WAIT_MS))
		TH_LOG("%s", self->p.out);
	proc_status(self->p.pid, "Uid", v, sizeof(v));
	EXPECT_STREQ("65534 65534 65534 65534", v);
	proc_status(self->p.pid, "Gid", v, sizeof(v));
	EXPECT_STREQ("65534 65534 65534 65534", v);
	proc_status(self->p.pid, "Groups", v, sizeof(v));
	EXPECT_STREQ("65534", v);
	proc_status(self->p.pid, "NoNewPrivs", v, sizeof(v));
	EXPECT_STREQ("1", v);
	/* Bound and keyed as root; serving as nobody. */
	EXPECT_EQ(200, fetch(self->port, NULL, 0));
	EXPECT_EQ(NULL, strstr(self->p.out, "running as root"));
	kill(self->p.pid, SIGTERM);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
}

/* Our NOTIFY_SOCKET: a datagram socket at a path under @dir. */
static int notify_socket(const char *dir, char *path, size_t cap)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	snprintf(path, cap, "%s/notify", dir);
	if (strlen(path) >= sizeof(sun.sun_path))
		abort();
	memcpy(sun.sun_path, path, strlen(path) + 1);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sun, sizeof(sun)))
		abort();
	return fd;
}

/* The next message on @fd within @ms, "" if none. */
static const char *notify_next(int fd, int ms)
{
	static char msg[512];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t n;

	msg[0] = '\0';
	if (poll(&pfd, 1, ms) != 1)
		return msg;
	n = recv(fd, msg, sizeof(msg) - 1, 0);
	msg[n > 0 ? n : 0] = '\0';
	return msg;
}

TEST_F(d, sd_notify_states)
{
	char path[128];
	const char *m;
	int nfd = notify_socket(self->root, path, sizeof(path));

	setenv("NOTIFY_SOCKET", path, 1);
	start(&self->p, SERVE(self, NULL), -1);
	unsetenv("NOTIFY_SOCKET");
	EXPECT_STREQ("READY=1\nSTATUS=serving", notify_next(nfd, WAIT_MS));
	/* Ready means serving. */
	EXPECT_EQ(200, fetch(self->port, NULL, 0));

	kill(self->p.pid, SIGHUP);
	m = notify_next(nfd, WAIT_MS);
	EXPECT_EQ(0, strncmp(m, "RELOADING=1\nMONOTONIC_USEC=", 27))
		TH_LOG("%s", m);
	EXPECT_STREQ("READY=1", notify_next(nfd, WAIT_MS));

	kill(self->p.pid, SIGTERM);
	EXPECT_STREQ("STOPPING=1", notify_next(nfd, WAIT_MS));
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
	close(nfd);
}

TEST_F(d, systemd_socket_activation)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	socklen_t len = sizeof(sin);
	char want[128];
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	unsigned int port;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ASSERT_EQ(0, bind(lfd, (struct sockaddr *)&sin, sizeof(sin)));
	ASSERT_EQ(0, listen(lfd, 16));
	ASSERT_EQ(0, getsockname(lfd, (struct sockaddr *)&sin, &len));
	port = ntohs(sin.sin_port);

	/* --listen names another port: systemd's socket is used instead. */
	start(&self->p, SERVE(self, NULL), lfd);
	close(lfd);
	snprintf(want, sizeof(want), "listening on https://127.0.0.1:%u/,",
		 port);
	ASSERT_TRUE(wait_for(&self->p, want, WAIT_MS)) TH_LOG("%s",
							      self->p.out);
	EXPECT_NE(NULL, strstr(self->p.out,
			       "--listen ignored: 1 sockets from systemd"));
	EXPECT_EQ(200, fetch(port, NULL, 0));
	EXPECT_EQ(-1, fetch(self->port, NULL, 0));
	kill(self->p.pid, SIGTERM);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
}

TEST_F(d, systemd_socket_must_listen)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	start(&self->p, SERVE(self, NULL), fd);
	close(fd);
	EXPECT_EQ(1, wait_exit(&self->p, WAIT_MS));
	EXPECT_STREQ("tlsxd: systemd's socket 3 is not a listening TCP socket\n",
		     self->p.out);
}

TEST_F(d, sighup_keeps_the_old_config_when_the_new_fails)
{
	unsigned int sig = 0;

	start(&self->p, SERVE(self, NULL), -1);
	ASSERT_TRUE(wait_for(&self->p, "listening on", WAIT_MS));
	EXPECT_EQ(200, fetch_sig(self->port, NULL, 0, &sig));
	EXPECT_EQ(0x0403, sig);		/* ecdsa_secp256r1_sha256 */

	/* A broken chain: the reload fails, the old one serves on. */
	copy_file(data("p256-leaf.key"), self->cert);
	kill(self->p.pid, SIGHUP);
	EXPECT_TRUE(wait_for(&self->p,
			     "SIGHUP: the new configuration failed, the old one stays: ",
			     WAIT_MS)) TH_LOG("%s", self->p.out);
	sig = 0;
	EXPECT_EQ(200, fetch_sig(self->port, NULL, 0, &sig));
	EXPECT_EQ(0x0403, sig);

	/* Another good chain and key: reloaded, and that key signs now. */
	copy_file(data("ed25519-chain.pem"), self->cert);
	copy_file(data("ed25519-leaf.key"), self->key);
	kill(self->p.pid, SIGHUP);
	EXPECT_TRUE(wait_for(&self->p,
			     "SIGHUP: certificates and ticket keys reloaded",
			     WAIT_MS)) TH_LOG("%s", self->p.out);
	sig = 0;
	EXPECT_EQ(200, fetch_sig(self->port, NULL, 0, &sig));
	EXPECT_EQ(0x0807, sig);		/* ed25519 */
	kill(self->p.pid, SIGTERM);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
}

/*
 * A client that asks for a large file and stops reading: its response
 * stays in flight.  The connection (free it and close the fd after).
 */
static struct tlsx_conn *stuck_client(unsigned int port, const char *path,
				      struct tlsx_config **cfgp)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_CLIENT);
	struct tlsx_conn *c = NULL;
	char req[128], buf[4096];
	int fd, n;

	sin.sin_port = htons((uint16_t)port);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (!cfg || fd < 0 || tlsx_config_set_verify_peer(cfg, false, false) ||
	    tlsx_config_set_record_layer(cfg, TLSX_RL_USER) ||
	    connect(fd, (struct sockaddr *)&sin, sizeof(sin)) ||
	    tlsx_connect(cfg, fd, NULL, &c) != TLSX_DONE)
		abort();
	n = snprintf(req, sizeof(req), "GET %s HTTP/1.1\r\nHost: x\r\n\r\n",
		     path);
	if (tlsx_write(c, req, (size_t)n) != n || tlsx_read(c, buf, 16) <= 0)
		abort();
	*cfgp = cfg;
	return c;
}

static void big_file(const char *root)
{
	char path[96];
	int fd;

	snprintf(path, sizeof(path), "%s/big", root);
	fd = open(path, O_WRONLY | O_CREAT, 0644);
	if (fd < 0 || ftruncate(fd, 64 << 20))
		abort();
	close(fd);
}

TEST_F(d, drain_is_bounded_by_its_timeout)
{
	struct tlsx_config *cfg;
	struct tlsx_conn *c;
	long long t0;

	big_file(self->root);
	start(&self->p, SERVE(self, "--timeout-drain", "500", NULL), -1);
	ASSERT_TRUE(wait_for(&self->p, "listening on", WAIT_MS));
	c = stuck_client(self->port, "/big", &cfg);
	t0 = now_ms();
	kill(self->p.pid, SIGTERM);
	/* The reader never reads: it is cut at the drain timeout. */
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
	EXPECT_GE(now_ms() - t0, 400);
	EXPECT_LT(now_ms() - t0, 5000);
	close(tlsx_conn_fd(c));
	tlsx_conn_free(c);
	tlsx_config_free(cfg);
}

/*
 * tlsxd draining (--timeout-drain 60s) with a 64 MiB download in flight
 * whose reader does not read: its connection, or NULL if tlsxd did not
 * get there.  (struct _test_data_d is FIXTURE_DATA(d), spelt out:
 * checkpatch reads the macro's "*" as a product.)
 */
static struct tlsx_conn *drain_with_a_stuck_download(struct _test_data_d *self,
						     struct tlsx_config **cfg)
{
	struct tlsx_conn *c;

	big_file(self->root);
	start(&self->p, SERVE(self, "--timeout-drain", "60s", NULL), -1);
	if (!wait_for(&self->p, "listening on", WAIT_MS))
		return NULL;
	c = stuck_client(self->port, "/big", cfg);
	kill(self->p.pid, SIGTERM);
	if (wait_for(&self->p, "Terminated: draining", WAIT_MS))
		return c;
	close(tlsx_conn_fd(c));
	tlsx_conn_free(c);
	tlsx_config_free(*cfg);
	return NULL;
}

TEST_F(d, a_second_sigterm_exits_at_once)
{
	struct tlsx_config *cfg;
	struct tlsx_conn *c;
	long long t0;

	c = drain_with_a_stuck_download(self, &cfg);
	ASSERT_NE(NULL, c);
	/* Past main.c's STOP_REPEAT_MS: not the first one delivered again. */
	usleep(1200000);
	t0 = now_ms();
	kill(self->p.pid, SIGTERM);
	EXPECT_EQ(1, wait_exit(&self->p, WAIT_MS));
	EXPECT_LT(now_ms() - t0, 2000);
	EXPECT_NE(NULL, strstr(self->p.out, "second stop signal"));
	close(tlsx_conn_fd(c));
	tlsx_conn_free(c);
	tlsx_config_free(cfg);
}

/*
 * timeout(1) sends its child the signal and then its process group: the
 * same stop twice, microseconds apart.  Delivered after the first was
 * taken (as here, where it is sent once "draining" is logged), it must
 * not cut the responses in flight.
 */
TEST_F(d, one_sigterm_delivered_twice_still_drains)
{
	struct tlsx_config *cfg;
	struct tlsx_conn *c;
	long long got = 16;
	char buf[65536];
	int status;
	ssize_t n;

	c = drain_with_a_stuck_download(self, &cfg);
	ASSERT_NE(NULL, c);
	kill(self->p.pid, SIGTERM);
	ASSERT_TRUE(wait_for(&self->p, "again from pid", WAIT_MS));
	usleep(300000);
	EXPECT_EQ(0, waitpid(self->p.pid, &status, WNOHANG));
	EXPECT_EQ(NULL, strstr(self->p.out, "second stop signal"));
	/* The download in flight ends whole; then the exit, 0. */
	while ((n = tlsx_read(c, buf, sizeof(buf))) > 0)
		got += n;
	EXPECT_GT(got, 64 << 20);
	EXPECT_EQ(0, wait_exit(&self->p, WAIT_MS));
	close(tlsx_conn_fd(c));
	tlsx_conn_free(c);
	tlsx_config_free(cfg);
}

TEST_HARNESS_MAIN
