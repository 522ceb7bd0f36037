// SPDX-License-Identifier: GPL-2.0
/*
 * test_tlsxd_http.c - tlsxd end to end, natively (the userspace record
 * layer: --record-layer user), against issue #16 and docs/tlsxd.md.
 *
 * Each test starts build/bin/tlsxd (or $TLSXD_BIN) on 127.0.0.1 and a
 * free port, serving a document root this program makes once: files of
 * 0, 1, 16383, 16384, 16385 bytes, 1 MiB and 64 MiB (around the 16 KiB
 * record size), a .gz sibling, directories with and without index.html,
 * a symlink inside the root and three leaving it, a hidden file and a
 * FIFO.  Next to the root lies a canary file whose bytes must never come
 * back.  The client is libtlsx (verification off unless a test checks
 * the certificate), writing exactly the bytes a test wants: a raw HTTP
 * client, so malformed and hostile requests can be sent as they are.
 *
 * File contents are a function of (seed, offset) (pat()), so a body is
 * checked byte for byte as it streams, without a copy of the file.
 *
 * Fixtures, one tlsxd each test: http (the defaults: files, methods,
 * keep-alive, pipelining, ranges, conditionals, traversal, limits, the
 * access log), timeouts (500 ms / 1 s ones: slowloris, idle, handshake,
 * a reader that never reads), maxconn (--max-conns 4), signals (SIGHUP
 * with a new certificate, SIGTERM, each with a 64 MiB download in
 * flight), systemd (LISTEN_FDS), hidden (--hidden), options
 * (--keepalive-requests, --user), config (--config FILE), headers
 * (add-header from the file and from the command line: on 200, HEAD,
 * 206, 304 and 301, only "always" on 404, 403 and 405) and reload
 * (--config FILE rewritten, then SIGHUP: limits, timeouts, flags, a new
 * chain, a new root under a download in flight, log paths, restart-only
 * changes, a broken file, added fields).  Counters are read from the dump
 * SIGUSR1 writes to the error log.  On a failure the daemon's log tail
 * is printed.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <pwd.h>
#include <regex.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/libtlsx/tlsx.h"
#include "handshake/engine/test/test_data.h"
/* After x509.h (test_data.h): hs.h's scheme macros share its names. */
#include "handshake/engine/group.h"
#include "handshake/engine/hs.h"

#define MIB		(1024 * 1024)
#define HUGE_SIZE	(64ull * MIB)
#define CANARY		"CANARY-7f3a9c-outside-the-root"
#define GZ_BODY		"\x1f\x8b-the-precompressed-sibling-of-a.txt"
#define BR_BODY		"the-brotli-sibling-of-b.txt"
#define INDEX_BODY	"<html><body>the index</body></html>\n"
#define A_TXT_BODY	"plain a.txt, not compressed\n"
#define RSP_HEAD_MAX	16384

/* ------------------------------------------------------------------ */
/* The fixture files (made once, before the first test)               */
/* ------------------------------------------------------------------ */

static char g_dir[64];		/* the temporary directory */
static char g_root[96];		/* g_dir/root: the document root */
static char g_tlsxd[PATH_MAX];	/* the daemon */
static char g_cert[128], g_key[128];	/* the default server chain */
static char g_ca1[128], g_ca2[128];	/* CAs of leaf1 and leaf2 */
static char g_leaf1[128], g_key1[128], g_leaf2[128], g_key2[128];
static char g_hup_cert[128], g_hup_key[128];	/* rewritten by sighup */

struct file {
	const char *name;
	uint64_t size;
	uint32_t seed;
};

static const struct file files[] = {
	{ "empty.bin", 0, 1 },
	{ "one.bin", 1, 2 },
	{ "r16383.bin", 16383, 3 },
	{ "r16384.bin", 16384, 4 },
	{ "r16385.bin", 16385, 5 },
	{ "mib.bin", MIB, 6 },
};

#define SEED_HUGE	7

/* The byte at @i of the file made with @seed: not a repeating pattern. */
static inline uint8_t pat(uint32_t seed, uint64_t i)
{
	uint64_t h = (i + 1) * 0x9e3779b97f4a7c15ull ^ (uint64_t)seed << 32;

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	return (uint8_t)(h >> 56);
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void path_in(char *out, size_t cap, const char *dir, const char *name)
{
	if ((size_t)snprintf(out, cap, "%s/%s", dir, name) >= cap)
		die("path too long");
}

static void write_all(const char *path, const void *p, size_t len)
{
	FILE *f = fopen(path, "w");

	if (!f || fwrite(p, 1, len, f) != len || fclose(f))
		die(path);
}

static void put_bytes(const char *dir, const char *name, const void *p,
		      size_t len)
{
	char path[256];

	path_in(path, sizeof(path), dir, name);
	write_all(path, p, len);
}

static void put_pattern(const char *name, uint64_t size, uint32_t seed)
{
	char path[256];
	uint8_t buf[65536];
	uint64_t off = 0;
	size_t n, i;
	FILE *f;

	path_in(path, sizeof(path), g_root, name);
	f = fopen(path, "w");
	if (!f)
		die(path);
	while (off < size) {
		n = size - off < sizeof(buf) ? size - off : sizeof(buf);
		for (i = 0; i < n; i++)
			buf[i] = pat(seed, off + i);
		if (fwrite(buf, 1, n, f) != n)
			die(path);
		off += n;
	}
	if (fclose(f))
		die(path);
}

static X509 *make_cert(EVP_PKEY *key, EVP_PKEY *signer, X509 *issuer,
		       const char *cn, const char *san, long serial)
{
	X509 *x = X509_new();
	X509_EXTENSION *e;
	X509V3_CTX v3;

	ASN1_INTEGER_set(X509_get_serialNumber(x), serial);
	X509_set_version(x, 2);
	X509_gmtime_adj(X509_getm_notBefore(x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(x), 86400);
	X509_set_pubkey(x, key);
	X509_NAME_add_entry_by_txt(X509_get_subject_name(x), "CN",
				   MBSTRING_ASC, (const unsigned char *)cn,
				   -1, -1, 0);
	X509_set_issuer_name(x, X509_get_subject_name(issuer ? issuer : x));
	X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &v3, NID_basic_constraints,
				san ? "critical,CA:FALSE" : "critical,CA:TRUE");
	X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	if (san) {
		e = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_alt_name, san);
		X509_add_ext(x, e, -1);
		X509_EXTENSION_free(e);
	}
	X509_sign(x, signer, EVP_sha256());
	return x;
}

static void write_pem(const char *path, X509 *x, EVP_PKEY *k)
{
	FILE *f = fopen(path, "w");

	if (!f)
		die(path);
	if (x)
		PEM_write_X509(f, x);
	if (k)
		PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	if (fclose(f))
		die(path);
}

/* Two CAs, a localhost leaf under each. */
static void make_certs(void)
{
	EVP_PKEY *k[4];
	X509 *ca1, *ca2, *l1, *l2;
	int i;

	for (i = 0; i < 4; i++)
		k[i] = EVP_EC_gen("P-256");
	ca1 = make_cert(k[0], k[0], NULL, "tlsxd test CA one", NULL, 1);
	ca2 = make_cert(k[1], k[1], NULL, "tlsxd test CA two", NULL, 2);
	l1 = make_cert(k[2], k[0], ca1, "localhost",
		       "DNS:localhost,IP:127.0.0.1", 3);
	l2 = make_cert(k[3], k[1], ca2, "localhost",
		       "DNS:localhost,IP:127.0.0.1", 4);
	path_in(g_ca1, sizeof(g_ca1), g_dir, "ca1.pem");
	path_in(g_ca2, sizeof(g_ca2), g_dir, "ca2.pem");
	path_in(g_leaf1, sizeof(g_leaf1), g_dir, "leaf1.pem");
	path_in(g_key1, sizeof(g_key1), g_dir, "key1.pem");
	path_in(g_leaf2, sizeof(g_leaf2), g_dir, "leaf2.pem");
	path_in(g_key2, sizeof(g_key2), g_dir, "key2.pem");
	path_in(g_hup_cert, sizeof(g_hup_cert), g_dir, "hup-cert.pem");
	path_in(g_hup_key, sizeof(g_hup_key), g_dir, "hup-key.pem");
	write_pem(g_ca1, ca1, NULL);
	write_pem(g_ca2, ca2, NULL);
	write_pem(g_leaf1, l1, NULL);
	write_pem(g_key1, NULL, k[2]);
	write_pem(g_leaf2, l2, NULL);
	write_pem(g_key2, NULL, k[3]);
	snprintf(g_cert, sizeof(g_cert), "%s", g_leaf1);
	snprintf(g_key, sizeof(g_key), "%s", g_key1);
	X509_free(ca1);
	X509_free(ca2);
	X509_free(l1);
	X509_free(l2);
	for (i = 0; i < 4; i++)
		EVP_PKEY_free(k[i]);
}

static void make_root(void)
{
	char p[256], q[256];
	size_t i;

	path_in(g_root, sizeof(g_root), g_dir, "root");
	path_in(p, sizeof(p), g_dir, "out");
	if (mkdir(g_root, 0755) || mkdir(p, 0755))
		die("mkdir");
	/* Outside the root: must never be served. */
	put_bytes(g_dir, "canary.txt", CANARY "\n", strlen(CANARY) + 1);
	put_bytes(p, "canary2.txt", CANARY "\n", strlen(CANARY) + 1);

	for (i = 0; i < ARRAY_SIZE(files); i++)
		put_pattern(files[i].name, files[i].size, files[i].seed);
	put_pattern("huge.bin", HUGE_SIZE, SEED_HUGE);
	put_bytes(g_root, "a.txt", A_TXT_BODY, strlen(A_TXT_BODY));
	put_bytes(g_root, "a.txt.gz", GZ_BODY, strlen(GZ_BODY));
	put_bytes(g_root, "b.txt", A_TXT_BODY, strlen(A_TXT_BODY));
	put_bytes(g_root, "b.txt.gz", GZ_BODY, strlen(GZ_BODY));
	put_bytes(g_root, "b.txt.br", BR_BODY, strlen(BR_BODY));
	put_bytes(g_root, "mut.txt", "version one\n", 12);
	put_bytes(g_root, "page.html", "<p>x</p>\n", 9);
	put_bytes(g_root, "style.css", "p{}\n", 4);
	put_bytes(g_root, "data.json", "{}\n", 3);
	put_bytes(g_root, "img.png", "\x89PNG", 4);
	put_bytes(g_root, "noext", "x", 1);
	put_bytes(g_root, ".secret", CANARY, strlen(CANARY));

	path_in(p, sizeof(p), g_root, "withindex");
	if (mkdir(p, 0755))
		die(p);
	put_bytes(p, "index.html", INDEX_BODY, strlen(INDEX_BODY));
	path_in(p, sizeof(p), g_root, "noindex");
	if (mkdir(p, 0755))
		die(p);
	put_bytes(p, "file.txt", "f\n", 2);

	/* A symlink inside, and three leaving the root. */
	path_in(p, sizeof(p), g_root, "link-in.bin");
	if (symlink("one.bin", p))
		die(p);
	path_in(p, sizeof(p), g_root, "link-out");
	if (symlink("../canary.txt", p))
		die(p);
	path_in(p, sizeof(p), g_root, "link-abs");
	path_in(q, sizeof(q), g_dir, "canary.txt");
	if (symlink(q, p))
		die(p);
	path_in(p, sizeof(p), g_root, "outdir");
	if (symlink("../out", p))
		die(p);
	path_in(p, sizeof(p), g_root, "fifo");
	if (mkfifo(p, 0644))
		die(p);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

static pid_t g_owner;

static void __attribute__((destructor)) remove_files(void)
{
	if (g_dir[0] && getpid() == g_owner)
		nftw(g_dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

/*
 * $TLSXD_BIN, else the daemon of this program's build directory:
 * build/test/X runs build/bin/tlsxd, build/test-asan/X runs
 * build/bin/tlsxd-asan (the daemon under ASan/UBSan too) when it is
 * there, else build/bin/tlsxd.
 */
static void find_tlsxd(void)
{
	char self[PATH_MAX];
	const char *env = getenv("TLSXD_BIN");
	bool asan;
	ssize_t n;
	char *s;

	if (env && *env) {
		snprintf(g_tlsxd, sizeof(g_tlsxd), "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return;
	self[n] = 0;
	s = strrchr(self, '/');
	if (!s)
		return;
	*s = 0;
	s = strrchr(self, '/');
	if (!s)
		return;
	asan = !strcmp(s, "/test-asan");
	*s = 0;
	if (asan) {
		snprintf(g_tlsxd, sizeof(g_tlsxd), "%.*s/bin/tlsxd-asan",
			 (int)(sizeof(g_tlsxd) - 16), self);
		if (!access(g_tlsxd, X_OK))
			return;
	}
	snprintf(g_tlsxd, sizeof(g_tlsxd), "%.*s/bin/tlsxd",
		 (int)(sizeof(g_tlsxd) - 16), self);
}

static void __attribute__((constructor)) setup_files(void)
{
	g_owner = getpid();
	signal(SIGPIPE, SIG_IGN);
	find_tlsxd();
	snprintf(g_dir, sizeof(g_dir), "%s", "/tmp/test_tlsxd_http_XXXXXX");
	if (!mkdtemp(g_dir))
		die("mkdtemp");
	/* Readable by the --user a test drops to. */
	chmod(g_dir, 0755);
	umask(022);
	make_certs();
	make_root();
	ksft_print_msg("daemon: %s\n", g_tlsxd);
}

/* ------------------------------------------------------------------ */
/* The daemon                                                         */
/* ------------------------------------------------------------------ */

struct srv {
	pid_t pid;
	int port;
	bool systemd;		/* the listener passed as LISTEN_FDS */
	int lfd;
	char log[160];		/* its stdout and stderr (the error log) */
	char alog[160];		/* the access log */
};

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* A port nobody listens on now (the kernel's choice for port 0). */
static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port = -1;

	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd >= 0 && !bind(fd, (struct sockaddr *)&a, sizeof(a)) &&
	    !getsockname(fd, (struct sockaddr *)&a, &al))
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static bool log_has(const struct srv *s, const char *needle)
{
	char *l = slurp(s->log, NULL);
	bool r = l && strstr(l, needle);

	free(l);
	return r;
}

static void log_tail(const char *path, int lines)
{
	size_t n;
	char *l = slurp(path, &n), *p, *e;
	int seen = 0;

	if (!l)
		return;
	p = l + n;
	while (p > l && seen <= lines)
		if (*--p == '\n')
			seen++;
	for (; p < l + n; p = e + 1) {
		e = strchr(p, '\n');
		if (!e)
			e = l + n;
		if (e > p)
			ksft_print_msg("  %s| %.*s\n", path, (int)(e - p), p);
	}
	free(l);
}

/*
 * Starts tlsxd: the common options, then @extra (NULL-terminated).
 * Returns 0 when its start-up line ("listening on") is in its log;
 * fails the test otherwise, with the log.
 */
static void srv_start(struct __test_metadata *_metadata, struct srv *s,
		      const char *cert, const char *key,
		      const char *const *extra)
{
	char addr[32];
	const char *argv[64];
	int try, i, n, st;
	long t0;
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t al = sizeof(a);

	if (access(g_tlsxd, X_OK))
		SKIP(return, "%.200s not built (make build/bin/tlsxd)", g_tlsxd);
	snprintf(s->log, sizeof(s->log), "%s/tlsxd-%d.log", g_dir, getpid());
	snprintf(s->alog, sizeof(s->alog), "%s/access-%d.log", g_dir,
		 getpid());
	for (try = 0; try < 4; try++) {
		n = 0;
		argv[n++] = g_tlsxd;
		if (s->systemd) {
			/* Socket activation: bound here, port 0, no race. */
			a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
			s->lfd = socket(AF_INET, SOCK_STREAM, 0);
			ASSERT_GE(s->lfd, 0);
			ASSERT_EQ(0, bind(s->lfd, (struct sockaddr *)&a,
					  sizeof(a)));
			ASSERT_EQ(0, listen(s->lfd, 64));
			ASSERT_EQ(0, getsockname(s->lfd, (struct sockaddr *)&a,
						 &al));
			s->port = ntohs(a.sin_port);
		} else {
			s->port = free_port();
			ASSERT_GT(s->port, 0);
			snprintf(addr, sizeof(addr), "127.0.0.1:%d",
				 s->port);
			argv[n++] = "--listen";
			argv[n++] = addr;
		}
		argv[n++] = "--root";
		argv[n++] = g_root;
		argv[n++] = "--cert";
		argv[n++] = cert;
		argv[n++] = "--key";
		argv[n++] = key;
		argv[n++] = "--record-layer";
		argv[n++] = "user";
		argv[n++] = "--access-log";
		argv[n++] = s->alog;
		for (i = 0; extra && extra[i] && n < 62; i++)
			argv[n++] = extra[i];
		argv[n] = NULL;
		unlink(s->alog);
		s->pid = fork();
		ASSERT_GE(s->pid, 0);
		if (!s->pid) {
			int fd = open(s->log, O_WRONLY | O_CREAT | O_TRUNC |
				      O_CLOEXEC, 0644);

			if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
				_exit(127);
			if (s->systemd) {
				char pid[16];

				/* sd_listen_fds(3): fd 3 on, for this pid. */
				if (dup2(s->lfd, 3) < 0)
					_exit(127);
				snprintf(pid, sizeof(pid), "%d", getpid());
				setenv("LISTEN_FDS", "1", 1);
				setenv("LISTEN_PID", pid, 1);
			}
			/* Never outlive the test. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			execv(g_tlsxd, (char *const *)argv);
			_exit(127);
		}
		t0 = now_ms();
		while (now_ms() - t0 < 10000) {
			if (log_has(s, "listening on"))
				return;
			if (waitpid(s->pid, &st, WNOHANG) == s->pid) {
				s->pid = 0;
				break;
			}
			sleep_ms(20);
		}
		if (s->pid) {
			kill(s->pid, SIGKILL);
			waitpid(s->pid, &st, 0);
			s->pid = 0;
		}
		if (s->systemd)
			close(s->lfd);
		if (!log_has(s, "in use"))
			break;		/* not a port race: do not retry */
	}
	log_tail(s->log, 20);
	ASSERT_TRUE(0) TH_LOG("tlsxd did not start (log above)");
}

static void srv_stop(struct __test_metadata *_metadata, struct srv *s)
{
	int st;

	if (_metadata->exit_code == KSFT_FAIL && s->log[0]) {
		ksft_print_msg("tlsxd's log:\n");
		log_tail(s->log, 25);
	}
	if (s->pid > 0) {
		kill(s->pid, SIGKILL);
		waitpid(s->pid, &st, 0);
		s->pid = 0;
	}
	if (s->systemd && s->lfd > 0)
		close(s->lfd);
	if (s->log[0])
		unlink(s->log);
	if (s->alog[0])
		unlink(s->alog);
}

/*
 * SIGUSR1, then the counter @name from the dump it writes to the error
 * log @log ("name value" lines, stats.h): the first value after the
 * signal.
 * -1 when none shows within 3 s.
 */
static long srv_stat_in(struct srv *s, const char *log, const char *name)
{
	size_t off = 0, n, nl = strlen(name);
	char *l = slurp(log, &off), *p;
	long t0 = now_ms(), v = -1;

	free(l);
	kill(s->pid, SIGUSR1);
	while (v < 0 && now_ms() - t0 < 3000) {
		sleep_ms(50);
		l = slurp(log, &n);
		for (p = l && n > off ? l + off : NULL; p;
		     p = strstr(p + 1, name)) {
			p = strstr(p, name);
			if (!p)
				break;
			if ((p == l || !(p[-1] == '_' || isalnum(p[-1]))) &&
			    (p[nl] == ' ' || p[nl] == '\t' || p[nl] == ':' ||
			     p[nl] == '=')) {
				v = strtol(p + nl + strspn(p + nl, " \t:="),
					   NULL, 10);
				break;
			}
		}
		free(l);
	}
	return v;
}

static long srv_stat(struct srv *s, const char *name)
{
	return srv_stat_in(s, s->log, name);
}

/* ------------------------------------------------------------------ */
/* The client: libtlsx, raw bytes                                     */
/* ------------------------------------------------------------------ */

struct cl {
	int fd;
	struct tlsx_conn *tc;
	char *buf;		/* received, not yet consumed */
	size_t len, cap;
	bool closed;		/* close_notify, EOF or a reset seen */
	int last;		/* the last tlsx_read() error, or 0 */
};

static int tcp_connect(int port, int rcvbuf)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -1;
	if (rcvbuf)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	a.sin_port = htons(port);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (connect(fd, (struct sockaddr *)&a, sizeof(a))) {
		close(fd);
		return -1;
	}
	fcntl(fd, F_SETFL, O_NONBLOCK);
	return fd;
}

static bool wait_fd(int fd, short ev, long deadline)
{
	struct pollfd p = { .fd = fd, .events = ev };
	long left = deadline - now_ms();

	if (left < 0)
		left = 0;
	return poll(&p, 1, (int)left) == 1;
}

/*
 * A client configuration: verification off, or against @ca for
 * "localhost".  ALPN http/1.1, as browsers offer it.
 */
static struct tlsx_config *cl_config(const char *ca)
{
	struct tlsx_config *cfg = tlsx_config_new(TLSX_ROLE_CLIENT);

	if (!cfg)
		return NULL;
	if (ca)
		tlsx_config_set_trust(cfg, ca);
	tlsx_config_set_verify_peer(cfg, !!ca, false);
	tlsx_config_set_alpn(cfg, "http/1.1");
	tlsx_config_set_record_layer(cfg, TLSX_RL_USER);
	if (tlsx_config_freeze(cfg)) {
		tlsx_config_free(cfg);
		return NULL;
	}
	return cfg;
}

/*
 * Connects and runs the handshake, bounded by @ms: TLSX_DONE, or the
 * error (TLSX_WANT_READ for a server that said nothing in time).
 */
static int cl_open_ex(struct cl *c, int port, struct tlsx_config *cfg,
		      int rcvbuf, long ms)
{
	long deadline = now_ms() + ms;
	int r;

	memset(c, 0, sizeof(*c));
	c->fd = tcp_connect(port, rcvbuf);
	if (c->fd < 0)
		return TLSX_E_SYSCALL;
	c->tc = tlsx_conn_new(cfg, c->fd);
	if (!c->tc)
		return TLSX_E_NOMEM;
	tlsx_conn_set_server_name(c->tc, "localhost");
	for (;;) {
		r = tlsx_conn_step(c->tc);
		if (r == TLSX_WANT_READ || r == TLSX_WANT_WRITE) {
			if (!wait_fd(c->fd, r == TLSX_WANT_READ ? POLLIN :
				     POLLOUT, deadline))
				return r;
			continue;
		}
		return r;
	}
}

static void cl_close(struct cl *c)
{
	if (c->tc)
		tlsx_conn_free(c->tc);
	if (c->fd > 0)
		close(c->fd);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

/* Sends all of @p, bounded by 5 s; 0 or -1. */
static int cl_send(struct cl *c, const void *p, size_t len)
{
	long deadline = now_ms() + 5000;
	const char *b = p;
	ssize_t r;

	while (len) {
		r = tlsx_write(c->tc, b, len);
		if (r == TLSX_WANT_WRITE) {
			if (!wait_fd(c->fd, POLLOUT, deadline))
				return -1;
			continue;
		}
		if (r <= 0)
			return -1;
		b += r;
		len -= r;
	}
	for (;;) {
		r = tlsx_conn_flush(c->tc);
		if (r == TLSX_OK)
			return 0;
		if (r != TLSX_WANT_WRITE || !wait_fd(c->fd, POLLOUT, deadline))
			return -1;
	}
}

static int cl_sends(struct cl *c, const char *s)
{
	return cl_send(c, s, strlen(s));
}

/*
 * Reads what comes into c->buf (at most @max more bytes), waiting until
 * @deadline.  > 0 bytes read, 0 when the peer closed (c->closed), -1 on
 * timeout.
 */
static ssize_t cl_fill(struct cl *c, size_t max, long deadline)
{
	ssize_t r;

	if (c->closed)
		return 0;
	if (c->cap - c->len < 16384) {
		size_t cap = c->cap ? c->cap * 2 : 65536;
		char *b = realloc(c->buf, cap);

		if (!b)
			return -1;
		c->buf = b;
		c->cap = cap;
	}
	if (max > c->cap - c->len)
		max = c->cap - c->len;
	for (;;) {
		r = tlsx_read(c->tc, c->buf + c->len, max);
		if (r > 0) {
			c->len += r;
			return r;
		}
		if (r == TLSX_WANT_READ) {
			if (!wait_fd(c->fd, POLLIN, deadline))
				return -1;
			continue;
		}
		c->closed = true;
		c->last = (int)r;
		return 0;
	}
}

static void cl_consume(struct cl *c, size_t n)
{
	memmove(c->buf, c->buf + n, c->len - n);
	c->len -= n;
}

/*
 * Whether the server closes the connection within @ms.  What comes
 * before is kept in c->buf (for the caller to look at) up to 4 MiB.
 */
static bool cl_closed_within(struct cl *c, long ms)
{
	long deadline = now_ms() + ms;

	while (!c->closed) {
		if (c->len > 4 * MIB)
			c->len = 0;
		if (cl_fill(c, 65536, deadline) < 0)
			return false;
	}
	return true;
}

struct rsp {
	int status;
	char head[RSP_HEAD_MAX + 1];	/* NUL-terminated */
	size_t head_len;
	uint8_t *body;
	size_t body_len;
};

static void rsp_free(struct rsp *r)
{
	free(r->body);
	r->body = NULL;
	r->body_len = 0;
}

/*
 * The value of field @name in @r's head (the first occurrence), trimmed,
 * into @out; false when absent.
 */
static bool hdr(const struct rsp *r, const char *name, char *out, size_t cap)
{
	size_t nl = strlen(name);
	const char *p = strstr(r->head, "\r\n"), *e;

	while (p && p[2] != '\r') {
		p += 2;
		e = strstr(p, "\r\n");
		if (!e)
			break;
		if (!strncasecmp(p, name, nl) && p[nl] == ':') {
			p += nl + 1;
			p += strspn(p, " \t");
			while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
				e--;
			snprintf(out, cap, "%.*s", (int)(e - p), p);
			return true;
		}
		p = e;
	}
	return false;
}

static bool has_hdr(const struct rsp *r, const char *name)
{
	char v[4];

	return hdr(r, name, v, sizeof(v));
}

static bool hdr_is(const struct rsp *r, const char *name, const char *want)
{
	char v[512];

	return hdr(r, name, v, sizeof(v)) && !strcmp(v, want);
}

/*
 * Reads one response: the head, then the body (none for HEAD, 304, 1xx
 * and 204; Content-Length bytes; else until the close).  0, or -1 on a
 * timeout or a close before the end.  A body over @body_max bytes is
 * counted but not kept (body_len says how much came).
 */
static int cl_response_max(struct cl *c, struct rsp *r, bool head_req,
			   size_t body_max, long ms)
{
	long deadline = now_ms() + ms;
	char v[64], *e;
	uint64_t want = UINT64_MAX;
	size_t hl, take;

	memset(r, 0, sizeof(*r));
	for (;;) {
		e = c->len ? memmem(c->buf, c->len, "\r\n\r\n", 4) : NULL;
		if (e)
			break;
		if (c->len > RSP_HEAD_MAX || cl_fill(c, 65536, deadline) <= 0)
			return -1;
	}
	hl = e - c->buf + 4;
	if (hl > RSP_HEAD_MAX)
		return -1;
	memcpy(r->head, c->buf, hl);
	r->head[hl] = 0;
	r->head_len = hl;
	cl_consume(c, hl);
	if (strncmp(r->head, "HTTP/1.", 7) || r->head[8] != ' ')
		return -1;
	r->status = atoi(r->head + 9);
	if (head_req || r->status == 304 || r->status == 204 ||
	    r->status / 100 == 1)
		want = 0;
	else if (hdr(r, "Content-Length", v, sizeof(v)))
		want = strtoull(v, NULL, 10);
	if (want && want != UINT64_MAX && want <= body_max) {
		r->body = malloc(want);
		if (!r->body)
			return -1;
	}
	while (r->body_len < want) {
		if (!c->len && cl_fill(c, 1 << 20, deadline) <= 0)
			break;
		take = c->len;
		if (take > want - r->body_len)
			take = want - r->body_len;
		if (want == UINT64_MAX) {
			uint8_t *b = realloc(r->body, r->body_len + take + 1);

			if (!b)
				return -1;
			r->body = b;
		}
		if (r->body)
			memcpy(r->body + r->body_len, c->buf, take);
		r->body_len += take;
		cl_consume(c, take);
	}
	return want == UINT64_MAX || r->body_len == want ? 0 : -1;
}

static int cl_response(struct cl *c, struct rsp *r, bool head_req)
{
	return cl_response_max(c, r, head_req, 8 * MIB, 10000);
}

/* @len bytes of @p equal the file of @seed from @off. */
static bool same_as_file(const uint8_t *p, size_t len, uint32_t seed,
			 uint64_t off)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != pat(seed, off + i))
			return false;
	return true;
}

static bool contains(const void *hay, size_t n, const char *needle)
{
	return n && memmem(hay, n, needle, strlen(needle));
}

/* ------------------------------------------------------------------ */
/* Fixtures                                                           */
/* ------------------------------------------------------------------ */

FIXTURE(http) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
};

FIXTURE_SETUP(http)
{
	static const char *const extra[] = { "--workers", "2", NULL };

	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(http)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

/* Opens self->c (the handshake must succeed within 5 s). */
#define OPEN(self) \
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&(self)->c, (self)->srv.port, \
					(self)->cfg, 0, 5000))

/*
 * On a fresh connection: @req sent, one response read into self->r.
 * (struct _test_data_http is FIXTURE_DATA(http), spelt out: checkpatch
 * reads the macro's "*self" as a multiplication.)
 */
static void one(struct __test_metadata *_metadata,
		struct _test_data_http *self, const char *req, size_t len,
		bool head_req)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	OPEN(self);
	ASSERT_EQ(0, cl_send(&self->c, req, len));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, head_req))
		TH_LOG("no complete response to %.*s", (int)len, req);
}

#define GET_OK(self, path) \
	one(_metadata, self, "GET " path " HTTP/1.1\r\nHost: x\r\n\r\n", \
	    strlen("GET " path " HTTP/1.1\r\nHost: x\r\n\r\n"), false)

static void req_fmt(char *out, size_t cap, const char *method,
		    const char *target, const char *fields)
{
	snprintf(out, cap, "%s %s HTTP/1.1\r\nHost: localhost\r\n%s\r\n",
		 method, target, fields ? fields : "");
}

static void get_with(struct __test_metadata *_metadata,
		     struct _test_data_http *self, const char *target,
		     const char *fields)
{
	char req[4096];

	req_fmt(req, sizeof(req), "GET", target, fields);
	one(_metadata, self, req, strlen(req), false);
}

/* Date is an IMF-fixdate (RFC 9110 5.6.7). */
static bool imf_fixdate(const char *v)
{
	regex_t re;
	bool ok;

	static const char date_re[] =
		"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), [0-9]{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2} GMT$";

	if (regcomp(&re, date_re, REG_EXTENDED | REG_NOSUB))
		return false;
	ok = !regexec(&re, v, 0, NULL, 0);
	regfree(&re);
	return ok;
}

static void check_common(struct __test_metadata *_metadata,
			 const struct rsp *r)
{
	char v[256];

	ASSERT_TRUE(hdr(r, "Date", v, sizeof(v))) TH_LOG("%s", r->head);
	EXPECT_TRUE(imf_fixdate(v)) TH_LOG("Date: %s", v);
	EXPECT_TRUE(has_hdr(r, "Server")) TH_LOG("%s", r->head);
	if (r->status != 304)
		EXPECT_TRUE(has_hdr(r, "Content-Length")) TH_LOG("%s", r->head);
}

/* ------------------------------------------------------------------ */
/* Files, methods, connections                                        */
/* ------------------------------------------------------------------ */

TEST_F(http, startup_line_names_the_record_layer)
{
	EXPECT_TRUE(log_has(&self->srv, "record layer user"));
	EXPECT_TRUE(log_has(&self->srv, "https://127.0.0.1:"));
}

TEST_F(http, get_each_file_bytes_compared)
{
	char req[256], v[64];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(req, sizeof(req),
			 "GET /%s HTTP/1.1\r\nHost: x\r\n\r\n", files[i].name);
		one(_metadata, self, req, strlen(req), false);
		ASSERT_EQ(200, self->r.status) TH_LOG("%s", files[i].name);
		check_common(_metadata, &self->r);
		ASSERT_TRUE(hdr(&self->r, "Content-Length", v, sizeof(v)));
		EXPECT_EQ(files[i].size, strtoull(v, NULL, 10));
		ASSERT_EQ(files[i].size, self->r.body_len);
		EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len,
					 files[i].seed, 0))
			TH_LOG("%s: body differs", files[i].name);
		EXPECT_TRUE(has_hdr(&self->r, "ETag"));
		EXPECT_TRUE(has_hdr(&self->r, "Last-Modified"));
		EXPECT_TRUE(hdr_is(&self->r, "Accept-Ranges", "bytes"));
	}
}

/* HEAD: GET's fields, no body (the GET after it parses: none was sent). */
TEST_F(http, head_each_file_no_body)
{
	char req[512], v[64];
	struct rsp g;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(req, sizeof(req),
			 "HEAD /%s HTTP/1.1\r\nHost: x\r\n\r\n"
			 "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
			 files[i].name);
		one(_metadata, self, req, strlen(req), true);
		ASSERT_EQ(200, self->r.status);
		check_common(_metadata, &self->r);
		ASSERT_TRUE(hdr(&self->r, "Content-Length", v, sizeof(v)));
		EXPECT_EQ(files[i].size, strtoull(v, NULL, 10));
		ASSERT_EQ(0, cl_response(&self->c, &g, false));
		EXPECT_EQ(200, g.status);
		EXPECT_EQ(1, g.body_len);
		EXPECT_TRUE(same_as_file(g.body, g.body_len, 2, 0))
			TH_LOG("HEAD %s sent a body", files[i].name);
		rsp_free(&g);
	}
}

TEST_F(http, other_methods_405_with_allow)
{
	static const char *const methods[] = { "POST", "PUT", "DELETE",
					       "OPTIONS", "PATCH", "FOO" };
	char req[256], v[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(methods); i++) {
		snprintf(req, sizeof(req),
			 "%s /one.bin HTTP/1.1\r\nHost: x\r\n\r\n", methods[i]);
		one(_metadata, self, req, strlen(req), false);
		EXPECT_EQ(405, self->r.status) TH_LOG("%s", methods[i]);
		ASSERT_TRUE(hdr(&self->r, "Allow", v, sizeof(v)))
			TH_LOG("%s: %s", methods[i], self->r.head);
		EXPECT_TRUE(strstr(v, "GET") && strstr(v, "HEAD"))
			TH_LOG("Allow: %s", v);
		check_common(_metadata, &self->r);
	}
}

TEST_F(http, keep_alive_sequential_requests)
{
	int i;

	OPEN(self);
	for (i = 0; i < 5; i++) {
		ASSERT_EQ(0, cl_sends(&self->c, "GET /r16385.bin HTTP/1.1\r\n"
				      "Host: x\r\n\r\n"));
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false))
			TH_LOG("request %d", i);
		EXPECT_EQ(200, self->r.status);
		EXPECT_FALSE(hdr_is(&self->r, "Connection", "close"));
		ASSERT_TRUE(same_as_file(self->r.body, self->r.body_len, 5, 0));
		EXPECT_EQ(16385, self->r.body_len);
		rsp_free(&self->r);
	}
}

/* Three requests in one write: three answers, in order (RFC 9112 9.3.2). */
TEST_F(http, pipelined_three_in_one_write)
{
	static const char req[] =
		"GET /r16384.bin HTTP/1.1\r\nHost: x\r\n\r\n"
		"HEAD /mib.bin HTTP/1.1\r\nHost: x\r\n\r\n"
		"GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	struct rsp r2, r3;
	char v[64];

	one(_metadata, self, req, sizeof(req) - 1, false);
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(16384, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 4, 0));
	ASSERT_EQ(0, cl_response(&self->c, &r2, true));
	EXPECT_EQ(200, r2.status);
	ASSERT_TRUE(hdr(&r2, "Content-Length", v, sizeof(v)));
	EXPECT_EQ(MIB, strtoull(v, NULL, 10));
	ASSERT_EQ(0, cl_response(&self->c, &r3, false));
	EXPECT_EQ(200, r3.status);
	EXPECT_EQ(1, r3.body_len);
	EXPECT_TRUE(same_as_file(r3.body, r3.body_len, 2, 0));
	rsp_free(&r3);
}

/*
 * Pipelined: a good request, a malformed one, a good one.  The first is
 * answered, the second gets its 400 and the close (the framing is lost:
 * RFC 9112 9.6), the third is never answered.
 */
TEST_F(http, pipelined_malformed_stops_the_pipeline)
{
	static const char req[] =
		"GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n"
		"GET /one.bin HTTP/1.1\r\nHost : x\r\n\r\n"
		"GET /r16384.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	long deadline;

	one(_metadata, self, req, sizeof(req) - 1, false);
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(400, self->r.status);
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"));
	/* What comes until the close is kept, to be looked at. */
	deadline = now_ms() + 3000;
	while (!self->c.closed && cl_fill(&self->c, 65536, deadline) > 0)
		;
	EXPECT_TRUE(self->c.closed);
	EXPECT_FALSE(contains(self->c.buf, self->c.len, "HTTP/1.1 200"));
}

/* 100 requests in one write: 100 answers, in order, none lost. */
TEST_F(http, pipelined_hundred_in_one_write)
{
	static const char a[] = "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	static const char b[] = "HEAD /r16385.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	char *req = malloc(100 * sizeof(b)), *p = req;
	char v[32];
	int i;

	ASSERT_NE(NULL, req);
	for (i = 0; i < 100; i++)
		p += sprintf(p, "%s", i % 2 ? b : a);
	OPEN(self);
	ASSERT_EQ(0, cl_send(&self->c, req, p - req));
	free(req);
	for (i = 0; i < 100; i++) {
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_response(&self->c, &self->r, i % 2))
			TH_LOG("answer %d", i);
		ASSERT_EQ(200, self->r.status);
		ASSERT_TRUE(hdr(&self->r, "Content-Length", v, sizeof(v)));
		ASSERT_EQ(i % 2 ? 16385 : 1, atoi(v)) TH_LOG("answer %d", i);
	}
}

static long rss_kib(pid_t pid)
{
	char path[64], *st, *p;
	long v = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	st = slurp(path, NULL);
	p = st ? strstr(st, "\nVmRSS:") : NULL;
	if (p)
		v = strtol(p + 7, NULL, 10);
	free(st);
	return v;
}

/*
 * 64 pipelined requests for 1 MiB each, answers not read for 2 s: tlsxd
 * waits on the socket and does not buffer the answers (its RSS grows by
 * less than 16 MiB), then all 64 MiB come, in order, intact.
 */
TEST_F_TIMEOUT(http, pipelined_answers_not_buffered, 60)
{
	static const char a[] = "GET /mib.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	char req[64 * sizeof(a)], *p = req;
	long before, after;
	int i;

	for (i = 0; i < 64; i++)
		p += sprintf(p, "%s", a);
	OPEN(self);
	before = rss_kib(self->srv.pid);
	ASSERT_GT(before, 0);
	ASSERT_EQ(0, cl_send(&self->c, req, p - req));
	sleep_ms(2000);
	after = rss_kib(self->srv.pid);
	EXPECT_LT(after - before, 16 * 1024)
		TH_LOG("RSS %ld -> %ld KiB", before, after);
	for (i = 0; i < 64; i++) {
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false))
			TH_LOG("answer %d", i);
		ASSERT_EQ(200, self->r.status);
		ASSERT_EQ(MIB, self->r.body_len);
		ASSERT_TRUE(same_as_file(self->r.body, MIB, 6, 0))
			TH_LOG("answer %d", i);
	}
}

/* What is valid is served: absolute-form, a query, escapes, any case. */
TEST_F(http, valid_request_forms_served)
{
	static const char *const t[] = {
		"GET http://localhost/one.bin HTTP/1.1\r\nHost: localhost\r\n\r\n",
		"GET https://localhost:1/one.bin?x=1 HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /one.bin?a=../../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /%6fne.bin HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /withindex/../one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /./one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET //one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /one.bin HTTP/1.1\r\nhOsT: x\r\nconnection: KEEP-ALIVE\r\n\r\n",
		"\r\nGET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
		"GET /one.bin HTTP/1.1\nHost: x\n\n",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		one(_metadata, self, t[i], strlen(t[i]), false);
		EXPECT_EQ(200, self->r.status) TH_LOG("%s", t[i]);
		EXPECT_TRUE(self->r.body_len == 1 &&
			    same_as_file(self->r.body, 1, 2, 0))
			TH_LOG("%s", t[i]);
	}
	get_with(_metadata, self, "/mib.bin", "rAnGe: bytes=7-8\r\n");
	EXPECT_EQ(206, self->r.status);
	EXPECT_EQ(2, self->r.body_len);
}

/* RFC 9112 9.3: HTTP/1.0 closes unless it asked for keep-alive. */
TEST_F(http, http10_closes_after_response)
{
	static const char req[] = "GET /one.bin HTTP/1.0\r\n\r\n";

	one(_metadata, self, req, sizeof(req) - 1, false);
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
}

TEST_F(http, http10_keep_alive_with_header)
{
	static const char req[] =
		"GET /one.bin HTTP/1.0\r\nConnection: keep-alive\r\n\r\n";
	char v[64];

	one(_metadata, self, req, sizeof(req) - 1, false);
	EXPECT_EQ(200, self->r.status);
	/* A 1.0 client keeps the connection only when told (RFC 9112 9.3). */
	ASSERT_TRUE(hdr(&self->r, "Connection", v, sizeof(v)))
		TH_LOG("%s", self->r.head);
	EXPECT_EQ(0, strcasecmp(v, "keep-alive"));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_sends(&self->c, req));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
}

TEST_F(http, http11_connection_close)
{
	get_with(_metadata, self, "/one.bin", "Connection: close\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"));
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
}

TEST_F(http, missing_404_and_common_fields)
{
	GET_OK(self, "/no-such-file");
	EXPECT_EQ(404, self->r.status);
	check_common(_metadata, &self->r);
	EXPECT_FALSE(contains(self->r.body, self->r.body_len, CANARY));
}

TEST_F(http, hidden_file_404)
{
	GET_OK(self, "/.secret");
	EXPECT_EQ(404, self->r.status);
	EXPECT_FALSE(contains(self->r.body, self->r.body_len, CANARY));
}

/* Only regular files (a FIFO would block a reader: must not hang). */
TEST_F(http, fifo_not_served)
{
	GET_OK(self, "/fifo");
	EXPECT_TRUE(self->r.status == 403 || self->r.status == 404)
		TH_LOG("status %d", self->r.status);
}

TEST_F(http, symlink_inside_served)
{
	GET_OK(self, "/link-in.bin");
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 2, 0));
}

TEST_F(http, mime_types)
{
	static const struct { const char *path, *type; } t[] = {
		{ "/page.html", "text/html" },
		{ "/style.css", "text/css" },
		{ "/a.txt", "text/plain" },
		{ "/img.png", "image/png" },
		{ "/data.json", "application/json" },
		{ "/mib.bin", "application/octet-stream" },
		{ "/noext", "application/octet-stream" },
	};
	char req[256], v[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		snprintf(req, sizeof(req), "HEAD %s HTTP/1.1\r\nHost: x\r\n\r\n",
			 t[i].path);
		one(_metadata, self, req, strlen(req), true);
		EXPECT_EQ(200, self->r.status);
		ASSERT_TRUE(hdr(&self->r, "Content-Type", v, sizeof(v)))
			TH_LOG("%s", t[i].path);
		/* "text/html; charset=utf-8" is fine too. */
		EXPECT_EQ(0, strncmp(v, t[i].type, strlen(t[i].type)))
			TH_LOG("%s: Content-Type: %s", t[i].path, v);
	}
}

TEST_F(http, directory_index_html)
{
	char v[128];

	GET_OK(self, "/withindex/");
	EXPECT_EQ(200, self->r.status);
	ASSERT_EQ(strlen(INDEX_BODY), self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, INDEX_BODY, self->r.body_len));
	ASSERT_TRUE(hdr(&self->r, "Content-Type", v, sizeof(v)));
	EXPECT_EQ(0, strncmp(v, "text/html", 9));
}

/* A directory without its slash: 301 to the name with it, query kept. */
TEST_F(http, directory_without_slash_301)
{
	char v[256];
	size_t n;

	GET_OK(self, "/withindex");
	EXPECT_EQ(301, self->r.status);
	ASSERT_TRUE(hdr(&self->r, "Location", v, sizeof(v)));
	n = strlen(v);
	EXPECT_TRUE(n >= 11 && !strcmp(v + n - 11, "/withindex/"))
		TH_LOG("Location: %s", v);
	check_common(_metadata, &self->r);
	GET_OK(self, "/noindex?a=1");
	EXPECT_EQ(301, self->r.status);
	ASSERT_TRUE(hdr(&self->r, "Location", v, sizeof(v)));
	n = strlen(v);
	EXPECT_TRUE(n >= 13 && !strcmp(v + n - 13, "/noindex/?a=1"))
		TH_LOG("Location: %s", v);
}

/* No listings: 403, as nginx (resp.h, amended from 404 by resp.c's author). */
TEST_F(http, directory_without_index_403)
{
	GET_OK(self, "/noindex/");
	EXPECT_EQ(403, self->r.status);
	EXPECT_FALSE(contains(self->r.body, self->r.body_len, "file.txt"));
}

TEST_F(http, precompressed_gz_sibling)
{
	char v[128];

	get_with(_metadata, self, "/a.txt", "Accept-Encoding: gzip, br;q=0\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_TRUE(hdr_is(&self->r, "Content-Encoding", "gzip"));
	ASSERT_EQ(strlen(GZ_BODY), self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, GZ_BODY, self->r.body_len));
	ASSERT_TRUE(hdr(&self->r, "Content-Type", v, sizeof(v)));
	EXPECT_EQ(0, strncmp(v, "text/plain", 10)) TH_LOG("%s", v);
	ASSERT_TRUE(hdr(&self->r, "Vary", v, sizeof(v)));
	EXPECT_NE(NULL, strcasestr(v, "Accept-Encoding"));

	/* Not accepted: the original, still with Vary (RFC 9110 12.5.5). */
	get_with(_metadata, self, "/a.txt", NULL);
	EXPECT_EQ(200, self->r.status);
	EXPECT_FALSE(has_hdr(&self->r, "Content-Encoding"));
	ASSERT_EQ(strlen(A_TXT_BODY), self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, A_TXT_BODY, self->r.body_len));
	ASSERT_TRUE(hdr(&self->r, "Vary", v, sizeof(v)));
	EXPECT_NE(NULL, strcasestr(v, "Accept-Encoding"));

	get_with(_metadata, self, "/a.txt", "Accept-Encoding: gzip;q=0\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_FALSE(has_hdr(&self->r, "Content-Encoding"));
	EXPECT_EQ(strlen(A_TXT_BODY), self->r.body_len);
}

TEST_F(http, precompressed_br_and_gz_siblings)
{
	get_with(_metadata, self, "/b.txt", "Accept-Encoding: br\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_TRUE(hdr_is(&self->r, "Content-Encoding", "br"));
	ASSERT_EQ(strlen(BR_BODY), self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, BR_BODY, self->r.body_len));
	get_with(_metadata, self, "/b.txt", "Accept-Encoding: gzip\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_TRUE(hdr_is(&self->r, "Content-Encoding", "gzip"));
	ASSERT_EQ(strlen(GZ_BODY), self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, GZ_BODY, self->r.body_len));
	/* identity only: the file itself. */
	get_with(_metadata, self, "/b.txt", "Accept-Encoding: identity\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_FALSE(has_hdr(&self->r, "Content-Encoding"));
	EXPECT_EQ(strlen(A_TXT_BODY), self->r.body_len);
	/* Asked for by its own name, a sibling is an ordinary file. */
	GET_OK(self, "/b.txt.gz");
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(strlen(GZ_BODY), self->r.body_len);
}

/* ------------------------------------------------------------------ */
/* Ranges (RFC 9110 14)                                               */
/* ------------------------------------------------------------------ */

static void check_206(struct __test_metadata *_metadata,
		      struct _test_data_http *self, const char *range,
		      uint64_t first, uint64_t last, uint64_t size,
		      uint32_t seed, const char *path)
{
	char f[128], v[128], want[128];

	snprintf(f, sizeof(f), "Range: %s\r\n", range);
	get_with(_metadata, self, path, f);
	ASSERT_EQ(206, self->r.status) TH_LOG("%s: %s", range, self->r.head);
	snprintf(want, sizeof(want), "bytes %llu-%llu/%llu",
		 (unsigned long long)first, (unsigned long long)last,
		 (unsigned long long)size);
	ASSERT_TRUE(hdr(&self->r, "Content-Range", v, sizeof(v)));
	EXPECT_STREQ(want, v);
	ASSERT_EQ(last - first + 1, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, seed, first))
		TH_LOG("%s: bytes differ", range);
}

TEST_F(http, range_single)
{
	check_206(_metadata, self, "bytes=0-99", 0, 99, MIB, 6, "/mib.bin");
	/* Across the 16 KiB record boundary. */
	check_206(_metadata, self, "bytes=16380-16390", 16380, 16390, MIB, 6,
		  "/mib.bin");
	check_206(_metadata, self, "bytes=16384-16384", 16384, 16384, 16385,
		  5, "/r16385.bin");
	/* A last-pos past the end is the end (14.1.2). */
	check_206(_metadata, self, "bytes=100-99999999", 100, MIB - 1, MIB, 6,
		  "/mib.bin");
}

TEST_F(http, range_suffix)
{
	check_206(_metadata, self, "bytes=-100", MIB - 100, MIB - 1, MIB, 6,
		  "/mib.bin");
	check_206(_metadata, self, "bytes=-1", 16382, 16382, 16383, 3,
		  "/r16383.bin");
	/*
	 * Longer than the file: all of it (14.1.2), which range.h serves
	 * as a 200 (a range covering the whole file is ignored, 14.2).
	 */
	get_with(_metadata, self, "/r16383.bin", "Range: bytes=-50000\r\n");
	EXPECT_EQ(200, self->r.status);
	ASSERT_EQ(16383, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 3, 0));
}

TEST_F(http, range_open_ended)
{
	check_206(_metadata, self, "bytes=1000-", 1000, MIB - 1, MIB, 6,
		  "/mib.bin");
	check_206(_metadata, self, "bytes=16384-", 16384, 16384, 16385, 5,
		  "/r16385.bin");
}

/*
 * multipart/byteranges (RFC 9110 14.6): each part's Content-Type and
 * Content-Range checked and its bytes compared.
 */
TEST_F(http, range_multipart_parts_checked)
{
	static const uint64_t want[][2] = {
		{ 0, 9 }, { 100, 199 }, { 500000, 520000 }, { MIB - 5, MIB - 1 },
	};
	char v[256], bnd[128], cr[128];
	const char *b, *e, *p;
	size_t bl, nparts = 0;
	unsigned long long f, l, sz;
	int nf;

	get_with(_metadata, self, "/mib.bin",
		 "Range: bytes=0-9,100-199,500000-520000,-5\r\n");
	ASSERT_EQ(206, self->r.status) TH_LOG("%s", self->r.head);
	ASSERT_TRUE(hdr(&self->r, "Content-Type", v, sizeof(v)));
	ASSERT_EQ(0, strncmp(v, "multipart/byteranges", 20)) TH_LOG("%s", v);
	p = strstr(v, "boundary=");
	ASSERT_NE(NULL, p);
	snprintf(bnd, sizeof(bnd), "--%s", p + 9);
	if (bnd[2] == '"') {		/* a quoted boundary */
		memmove(bnd + 2, bnd + 3, strlen(bnd + 2));
		bnd[strcspn(bnd, "\"")] = 0;
	}
	bl = strlen(bnd);
	EXPECT_FALSE(has_hdr(&self->r, "Content-Range"));

	b = (const char *)self->r.body;
	e = b + self->r.body_len;
	p = memmem(b, e - b, bnd, bl);
	ASSERT_NE(NULL, p) TH_LOG("no boundary in the body");
	for (;;) {
		const char *h, *he;

		p += bl;
		ASSERT_LE(p + 2, e);
		if (!memcmp(p, "--", 2))
			break;		/* the close-delimiter */
		ASSERT_EQ(0, memcmp(p, "\r\n", 2));
		h = p + 2;
		he = memmem(h, e - h, "\r\n\r\n", 4);
		ASSERT_NE(NULL, he);
		ASSERT_LT(nparts, ARRAY_SIZE(want));
		ASSERT_NE(NULL,
			  strcasestr(h, "Content-Type: application/octet-stream"));
		p = strcasestr(h, "Content-Range: bytes ");
		ASSERT_TRUE(p && p < he);
		snprintf(cr, sizeof(cr), "%.*s", (int)(he - p), p);
		nf = sscanf(cr + 21, "%llu-%llu/%llu", &f, &l, &sz);
		ASSERT_EQ(3, nf) TH_LOG("%s", cr);
		EXPECT_EQ(want[nparts][0], f);
		EXPECT_EQ(want[nparts][1], l);
		EXPECT_EQ(MIB, sz);
		p = he + 4;
		ASSERT_LE(p + (l - f + 1) + 2, e);
		EXPECT_TRUE(same_as_file((const uint8_t *)p, l - f + 1, 6, f))
			TH_LOG("part %zu differs", nparts);
		p += l - f + 1;
		ASSERT_EQ(0, memcmp(p, "\r\n", 2));
		nparts++;
		p += 2;
		ASSERT_EQ(0, memcmp(p, bnd, bl)) TH_LOG("part %zu", nparts);
	}
	EXPECT_EQ(ARRAY_SIZE(want), nparts);
}

TEST_F(http, range_unsatisfiable_416)
{
	char v[128];

	get_with(_metadata, self, "/mib.bin", "Range: bytes=2000000-3000000\r\n");
	EXPECT_EQ(416, self->r.status);
	ASSERT_TRUE(hdr(&self->r, "Content-Range", v, sizeof(v)));
	EXPECT_STREQ("bytes */1048576", v);
	check_common(_metadata, &self->r);
	/* Nothing of an empty file can be satisfied (14.1.1). */
	get_with(_metadata, self, "/empty.bin", "Range: bytes=0-0\r\n");
	EXPECT_EQ(416, self->r.status);
	ASSERT_TRUE(hdr(&self->r, "Content-Range", v, sizeof(v)));
	EXPECT_STREQ("bytes */0", v);
}

/* If-Range (RFC 9110 13.1.5): the range only while the ETag matches. */
TEST_F(http, if_range_match_and_mismatch)
{
	char etag[128], f[256];

	GET_OK(self, "/mib.bin");
	ASSERT_TRUE(hdr(&self->r, "ETag", etag, sizeof(etag)));
	snprintf(f, sizeof(f), "Range: bytes=10-19\r\nIf-Range: %s\r\n", etag);
	get_with(_metadata, self, "/mib.bin", f);
	EXPECT_EQ(206, self->r.status);
	EXPECT_EQ(10, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 6, 10));
	get_with(_metadata, self, "/mib.bin",
		 "Range: bytes=10-19\r\nIf-Range: \"not-the-etag\"\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(MIB, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 6, 0));
}

/* More ranges than the cap (range.h: 16) after coalescing: served whole. */
TEST_F(http, range_over_the_cap_served_whole)
{
	char f[512], *p = f;
	int i;

	p += sprintf(p, "Range: bytes=");
	for (i = 0; i < 20; i++)
		p += sprintf(p, "%s%d-%d", i ? "," : "", i * 1000, i * 1000 + 9);
	sprintf(p, "\r\n");
	get_with(_metadata, self, "/mib.bin", f);
	EXPECT_EQ(200, self->r.status);
	ASSERT_EQ(MIB, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 6, 0));
}

/* Overlapping and touching ranges are coalesced (range.h): one part. */
TEST_F(http, range_overlapping_coalesced)
{
	check_206(_metadata, self, "bytes=0-99,50-149,150-199", 0, 199, MIB, 6,
		  "/mib.bin");
}

/* ------------------------------------------------------------------ */
/* Conditionals (RFC 9110 13.2.2's order)                             */
/* ------------------------------------------------------------------ */

TEST_F(http, etag_if_none_match_304)
{
	char etag[128], f[256], v[128];

	GET_OK(self, "/r16384.bin");
	ASSERT_TRUE(hdr(&self->r, "ETag", etag, sizeof(etag)));
	/* Strong: quoted, no W/ (issue #16: from inode, size and mtime). */
	EXPECT_EQ('"', etag[0]);
	snprintf(f, sizeof(f), "If-None-Match: \"x\", %s\r\n", etag);
	get_with(_metadata, self, "/r16384.bin", f);
	EXPECT_EQ(304, self->r.status);
	EXPECT_EQ(0, self->r.body_len);
	ASSERT_TRUE(hdr(&self->r, "ETag", v, sizeof(v)));
	EXPECT_STREQ(etag, v);
	check_common(_metadata, &self->r);
	get_with(_metadata, self, "/r16384.bin", "If-None-Match: *\r\n");
	EXPECT_EQ(304, self->r.status);
	get_with(_metadata, self, "/r16384.bin", "If-None-Match: \"other\"\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(16384, self->r.body_len);
	/* Another file's ETag differs. */
	get_with(_metadata, self, "/r16383.bin", f);
	EXPECT_EQ(200, self->r.status);
}

TEST_F(http, if_modified_since_304_and_200)
{
	char lm[128], f[256];

	GET_OK(self, "/one.bin");
	ASSERT_TRUE(hdr(&self->r, "Last-Modified", lm, sizeof(lm)));
	EXPECT_TRUE(imf_fixdate(lm)) TH_LOG("%s", lm);
	snprintf(f, sizeof(f), "If-Modified-Since: %s\r\n", lm);
	get_with(_metadata, self, "/one.bin", f);
	EXPECT_EQ(304, self->r.status);
	EXPECT_EQ(0, self->r.body_len);
	get_with(_metadata, self, "/one.bin",
		 "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
	/* If-None-Match is evaluated first; IMS is then ignored (13.2.2). */
	snprintf(f, sizeof(f), "If-None-Match: \"other\"\r\n"
		 "If-Modified-Since: %s\r\n", lm);
	get_with(_metadata, self, "/one.bin", f);
	EXPECT_EQ(200, self->r.status);
}

/* A changed file (same size, new mtime) gets a new ETag (cond.h). */
TEST_F(http, etag_changes_with_the_file)
{
	struct timespec ts[2] = { { 0, UTIME_OMIT }, { 0, 0 } };
	char etag[128], etag2[128], f[256], path[256];

	GET_OK(self, "/mut.txt");
	ASSERT_TRUE(hdr(&self->r, "ETag", etag, sizeof(etag)));
	path_in(path, sizeof(path), g_root, "mut.txt");
	write_all(path, "version two\n", 12);
	ts[1].tv_sec = time(NULL) + 5;
	ASSERT_EQ(0, utimensat(AT_FDCWD, path, ts, 0));
	GET_OK(self, "/mut.txt");
	ASSERT_TRUE(hdr(&self->r, "ETag", etag2, sizeof(etag2)));
	EXPECT_STRNE(etag, etag2);
	snprintf(f, sizeof(f), "If-None-Match: %s\r\n", etag);
	get_with(_metadata, self, "/mut.txt", f);
	EXPECT_EQ(200, self->r.status);
	ASSERT_EQ(12, self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, "version two\n", 12));
	write_all(path, "version one\n", 12);
}

TEST_F(http, if_unmodified_since_412)
{
	get_with(_metadata, self, "/one.bin",
		 "If-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n");
	EXPECT_EQ(412, self->r.status);
	get_with(_metadata, self, "/one.bin",
		 "If-Unmodified-Since: Fri, 01 Jan 2100 00:00:00 GMT\r\n");
	EXPECT_EQ(200, self->r.status);
	/* If-Match present: If-Unmodified-Since is not evaluated (13.2.2). */
	get_with(_metadata, self, "/one.bin", "If-Match: *\r\n"
		 "If-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT\r\n");
	EXPECT_EQ(200, self->r.status);
}

TEST_F(http, if_match_412)
{
	char etag[128], f[256];

	GET_OK(self, "/one.bin");
	ASSERT_TRUE(hdr(&self->r, "ETag", etag, sizeof(etag)));
	get_with(_metadata, self, "/one.bin", "If-Match: \"nope\"\r\n");
	EXPECT_EQ(412, self->r.status);
	EXPECT_FALSE(self->r.body_len == 1 &&
		     same_as_file(self->r.body, 1, 2, 0));
	snprintf(f, sizeof(f), "If-Match: %s\r\n", etag);
	get_with(_metadata, self, "/one.bin", f);
	EXPECT_EQ(200, self->r.status);
	get_with(_metadata, self, "/one.bin", "If-Match: *\r\n");
	EXPECT_EQ(200, self->r.status);
}

/* ------------------------------------------------------------------ */
/* Traversal: nothing outside the root, whatever the trick           */
/* ------------------------------------------------------------------ */

#define S_400	(1u << 0)
#define S_403	(1u << 1)
#define S_404	(1u << 2)

static unsigned int status_bit(int s)
{
	return s == 400 ? S_400 : s == 403 ? S_403 : s == 404 ? S_404 : 0;
}

TEST_F(http, traversal_never_leaves_the_root)
{
	/*
	 * path.h's rules: what the normaliser sees is 400; a name that
	 * decodes to nothing outside is 404; a symlink out fails in the
	 * kernel (RESOLVE_BENEATH): 403 or 404.
	 */
	static const struct { const char *t; size_t len; unsigned int ok; } t[] = {
#define T(s, ok) { s, sizeof(s) - 1, ok }
		T("/../canary.txt", S_400),
		T("/../../../../etc/passwd", S_400),
		T("/withindex/../../canary.txt", S_400),
		T("/./../canary.txt", S_400),
		T("/%2e%2e/canary.txt", S_400),
		T("/%2E%2E/canary.txt", S_400),
		T("/.%2e/canary.txt", S_400),
		T("/%2e./canary.txt", S_400),
		T("/withindex/%2e%2e/%2e%2e/canary.txt", S_400),
		T("/..%2fcanary.txt", S_400),
		T("/%2e%2e%2fcanary.txt", S_400),
		T("/withindex%2f..%2f..%2fcanary.txt", S_400),
		T("/%2F..%2F..%2Fetc%2Fpasswd", S_400),
		T("/%c0%ae%c0%ae/canary.txt", S_400),
		T("/%c0%ae%c0%ae%c0%afcanary.txt", S_400),
		T("/%e0%80%ae%e0%80%ae/canary.txt", S_400),
		T("/%c0%2e%c0%2e/canary.txt", S_400),
		T("/..\\canary.txt", S_400),
		T("/%5c..%5ccanary.txt", S_400),
		T("/..%5ccanary.txt", S_400),
		T("\\..\\canary.txt", S_400),
		T("http://x/../../canary.txt", S_400),
		T("http://x/../../etc/passwd", S_400),
		T("http://localhost/%2e%2e/canary.txt", S_400),
		T("https://x/..%2f..%2fetc/passwd", S_400),
		T("/one.bin%00", S_400),
		T("/one.bin%00.txt", S_400),
		T("/%00/../canary.txt", S_400),
		T("/one\0.bin", S_400),
		T("/../\0canary.txt", S_400),
		T("*", S_400),
		T("../canary.txt", S_400),
		T("canary.txt", S_400),
		T("//canary.txt", S_404),
		T("//etc/passwd", S_404),
		T("///../canary.txt", S_400),
		T("/%252e%252e/canary.txt", S_404),
		T("/.../canary.txt", S_404),
		T("/..;/canary.txt", S_404),
		T("/link-out", S_403 | S_404),
		T("/link-abs", S_403 | S_404),
		T("/outdir/canary2.txt", S_403 | S_404),
		T("/outdir/../canary.txt", S_403 | S_404),
		T("/.secret", S_404),
		T("/withindex/../.secret", S_404),
		T("/%2esecret", S_404),
#undef T
	};
	char req[512];
	size_t i, n;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		n = 0;
		memcpy(req, "GET ", 4);
		n += 4;
		memcpy(req + n, t[i].t, t[i].len);
		n += t[i].len;
		n += snprintf(req + n, sizeof(req) - n,
			      " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
		cl_close(&self->c);
		rsp_free(&self->r);
		OPEN(self);
		ASSERT_EQ(0, cl_send(&self->c, req, n));
		if (cl_response(&self->c, &self->r, false)) {
			/* No answer at all is a refusal too, but say so. */
			EXPECT_TRUE(self->r.status == 0 ||
				    (status_bit(self->r.status) & t[i].ok))
				TH_LOG("%.*s: incomplete answer, status %d",
				       (int)t[i].len, t[i].t, self->r.status);
		} else {
			EXPECT_TRUE(status_bit(self->r.status) & t[i].ok)
				TH_LOG("%.*s: status %d", (int)t[i].len,
				       t[i].t, self->r.status);
		}
		EXPECT_FALSE(contains(self->r.body, self->r.body_len, CANARY))
			TH_LOG("%.*s: THE CANARY CAME BACK", (int)t[i].len,
			       t[i].t);
		EXPECT_FALSE(contains(self->r.body, self->r.body_len,
				      "root:x:0:0"))
			TH_LOG("%.*s: /etc/passwd came back", (int)t[i].len,
			       t[i].t);
		EXPECT_FALSE(contains(self->r.head, self->r.head_len, CANARY));
	}
}

/*
 * Malformed heads (http_req.h): the status, Connection: close, and the
 * connection closed; never the file.
 */
TEST_F(http, malformed_requests_refused)
{
	static const struct { const char *req; int status; } t[] = {
		/* RFC 9112 3.2: a 1.1 request without Host, or with two. */
		{ "GET /one.bin HTTP/1.1\r\n\r\n", 400 },
		{ "GET /one.bin HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400 },
		/* 5.1: whitespace between the name and the colon. */
		{ "GET /one.bin HTTP/1.1\r\nHost : x\r\n\r\n", 400 },
		/* 5.2: obs-fold. */
		{ "GET /one.bin HTTP/1.1\r\nHost: x\r\nX-A: a\r\n b\r\n\r\n", 400 },
		/* 2.2: a bare CR. */
		{ "GET /one.bin HTTP/1.1\r\nHost: x\rX: y\r\n\r\n", 400 },
		/* 6.3: conflicting Content-Length. */
		{ "GET /one.bin HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 1\r\n\r\n", 400 },
		{ "GET /one.bin HTTP/2.0\r\nHost: x\r\n\r\n", 505 },
		{ "GET /one.bin\r\n\r\n", 400 },
		{ "GET /one.bin HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\n\r\n", 417 },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		one(_metadata, self, t[i].req, strlen(t[i].req), false);
		EXPECT_EQ(t[i].status, self->r.status) TH_LOG("%s", t[i].req);
		EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"))
			TH_LOG("%s", t[i].req);
		EXPECT_TRUE(cl_closed_within(&self->c, 3000))
			TH_LOG("%s", t[i].req);
		EXPECT_FALSE(self->r.body_len == 1 &&
			     same_as_file(self->r.body, 1, 2, 0));
	}
}

/*
 * 400 targets built at random (a fixed seed) from the pieces of every
 * trick, sent on keep-alive connections (reopened after a close): the
 * canary (outside the root, and in the hidden .secret inside it) never
 * comes back, and every answer is one of the statuses a path can get.
 */
TEST_F(http, traversal_random_combinations)
{
	static const char *const piece[] = {
		"..", ".", "%2e%2e", "%2E.", ".%2e", "%2f", "%2F", "%5c", "\\",
		"%c0%ae", "%c0%af", "%e0%80%ae", "%00", "", "canary.txt",
		"outdir", "link-out", "link-abs", "link-in.bin", "withindex",
		"noindex", ".secret", "%2esecret", "canary2.txt", "out", "root",
		"%252e", "?", "#", ";", "one.bin", "fifo",
	};
	unsigned int seed = 16, i, k, n;
	char target[512], req[768];
	size_t tl;

	OPEN(self);
	for (i = 0; i < 400; i++) {
		tl = 0;
		n = 1 + rand_r(&seed) % 6;
		for (k = 0; k < n; k++)
			tl += snprintf(target + tl, sizeof(target) - tl, "/%s",
				       piece[rand_r(&seed) % ARRAY_SIZE(piece)]);
		snprintf(req, sizeof(req),
			 "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", target);
		if (self->c.closed) {
			cl_close(&self->c);
			OPEN(self);
		}
		ASSERT_EQ(0, cl_sends(&self->c, req)) TH_LOG("%s", target);
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false))
			TH_LOG("%s: no answer", target);
		EXPECT_TRUE(self->r.status == 200 || self->r.status == 301 ||
			    self->r.status == 400 || self->r.status == 403 ||
			    self->r.status == 404)
			TH_LOG("%s: %d", target, self->r.status);
		EXPECT_FALSE(contains(self->r.body, self->r.body_len, CANARY))
			TH_LOG("%s: THE CANARY CAME BACK", target);
		if (hdr_is(&self->r, "Connection", "close"))
			ASSERT_TRUE(cl_closed_within(&self->c, 3000));
	}
}

/* ------------------------------------------------------------------ */
/* Limits (defaults: HTTP_LIMITS_DEFAULT, 8192 / 16384 / 100 / 0)     */
/* ------------------------------------------------------------------ */

static void send_big(struct __test_metadata *_metadata,
		     struct _test_data_http *self, const char *pre, char fill,
		     size_t nfill, const char *post, int want)
{
	size_t pl = strlen(pre), ql = strlen(post);
	char *req = malloc(pl + nfill + ql);

	ASSERT_NE(NULL, req);
	memcpy(req, pre, pl);
	memset(req + pl, fill, nfill);
	memcpy(req + pl + nfill, post, ql);
	cl_close(&self->c);
	rsp_free(&self->r);
	OPEN(self);
	/* The server may answer and close before it has read it all. */
	cl_send(&self->c, req, pl + nfill + ql);
	free(req);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false))
		TH_LOG("no answer (want %d)", want);
	EXPECT_EQ(want, self->r.status);
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"));
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
}

TEST_F(http, request_line_too_long_414)
{
	send_big(_metadata, self, "GET /", 'a', 10000,
		 " HTTP/1.1\r\nHost: x\r\n\r\n", 414);
}

TEST_F(http, header_too_large_431)
{
	char *fields = malloc(30 * 1024), *p = fields;
	int i;

	ASSERT_NE(NULL, fields);
	/* 24 fields of 1000 bytes: each line short, the head over 16 KiB. */
	for (i = 0; i < 24; i++) {
		p += sprintf(p, "X-Pad-%02d: ", i);
		memset(p, 'v', 990);
		p += 990;
		p += sprintf(p, "\r\n");
	}
	sprintf(p, "\r\n");
	send_big(_metadata, self, "GET /one.bin HTTP/1.1\r\nHost: x\r\n", 'x',
		 0, fields, 431);
	free(fields);
}

TEST_F(http, header_count_431)
{
	char fields[8192], *p = fields;
	int i;

	for (i = 0; i < 150; i++)
		p += sprintf(p, "X-F%d: v\r\n", i);
	sprintf(p, "\r\n");
	send_big(_metadata, self, "GET /one.bin HTTP/1.1\r\nHost: x\r\n", 'x',
		 0, fields, 431);
}

TEST_F(http, get_with_body_413)
{
	send_big(_metadata, self, "GET /one.bin HTTP/1.1\r\nHost: x\r\n"
		 "Content-Length: 5\r\n\r\n", 'x', 0, "hello", 413);
	send_big(_metadata, self, "GET /one.bin HTTP/1.1\r\nHost: x\r\n"
		 "Transfer-Encoding: chunked\r\n\r\n", 'x', 0, "5\r\nhello\r\n0\r\n\r\n",
		 413);
}

/*
 * RFC 9110 10.1.1, Expect: 100-continue.  A GET with a body: tlsxd
 * takes no body on a GET (413, as get_with_body_413), and answers at
 * once with that final status instead of 100 ("an immediate response
 * with a final status code, if that status can be determined by
 * examining just the method, target URI, and header fields"); it then
 * closes (Connection: close, as 10.1.1 asks a server that answers
 * before the content to say), since the client may send the body or
 * not.  Never a 100 first.
 */
TEST_F(http, expect_continue_get_with_body_413_then_close)
{
	static const char req[] = "GET /one.bin HTTP/1.1\r\nHost: x\r\n"
		"Expect: 100-continue\r\nContent-Length: 5\r\n\r\n";

	one(_metadata, self, req, sizeof(req) - 1, false);
	EXPECT_EQ(413, self->r.status) TH_LOG("%s", self->r.head);
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"));
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
}

/*
 * No content (no Content-Length, or 0): nothing to continue; 10.1.1
 * lets the server omit the 100 "if the framing indicates that there is
 * no content".  Answered, no 100 before it, and kept alive: the next
 * request on the connection is served.
 */
TEST_F(http, expect_continue_without_body_answered_kept_alive)
{
	static const char *const reqs[] = {
		"GET /one.bin HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
		"GET /one.bin HTTP/1.1\r\nHost: x\r\nExpect: 100-Continue\r\n"
		"Content-Length: 0\r\n\r\n",
		"HEAD /one.bin HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\n\r\n",
	};
	unsigned int i;

	OPEN(self);
	for (i = 0; i < 3; i++) {
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_sends(&self->c, reqs[i]));
		ASSERT_EQ(0, cl_response(&self->c, &self->r, i == 2));
		EXPECT_EQ(200, self->r.status) TH_LOG("%s", self->r.head);
		EXPECT_FALSE(hdr_is(&self->r, "Connection", "close"));
	}
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_sends(&self->c, "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
}

/* 10.1.1: an HTTP/1.0 request's 100-continue is ignored; others 417. */
TEST_F(http, expect_http10_ignored_other_expectation_417)
{
	static const char r10[] = "GET /one.bin HTTP/1.0\r\n"
		"Expect: 100-continue\r\n\r\n";
	static const char r417[] = "GET /one.bin HTTP/1.1\r\nHost: x\r\n"
		"Expect: something-else\r\n\r\n";

	one(_metadata, self, r10, sizeof(r10) - 1, false);
	EXPECT_EQ(200, self->r.status);
	one(_metadata, self, r417, sizeof(r417) - 1, false);
	EXPECT_EQ(417, self->r.status);
}

/* ------------------------------------------------------------------ */
/* The access log                                                     */
/* ------------------------------------------------------------------ */

/* Lines of @path matching @pattern (POSIX ERE), waiting up to 3 s for @n. */
static int count_lines(const char *path, const char *pattern, int n)
{
	long t0 = now_ms();
	int found = 0;
	regex_t re;
	char *l, *p, *e;

	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return -1;
	do {
		sleep_ms(100);
		l = slurp(path, NULL);
		found = 0;
		for (p = l; p && *p; p = e + 1) {
			e = strchr(p, '\n');
			if (!e)
				break;
			*e = 0;
			if (!regexec(&re, p, 0, NULL, 0))
				found++;
		}
		free(l);
	} while (found < n && now_ms() - t0 < 3000);
	regfree(&re);
	return found;
}

TEST_F(http, access_log_combined_format)
{
#define HOST "^127\\.0\\.0\\.1 - - "
#define DATE \
	"\\[[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9]{2}:[0-9]{2}:[0-9]{2} [+-][0-9]{4}\\]"
	static const char head_req[] =
		"HEAD /r16384.bin HTTP/1.1\r\nHost: x\r\n\r\n";

	get_with(_metadata, self, "/one.bin",
		 "User-Agent: tlsxd-test/1\r\nReferer: https://ref.test/\r\n");
	EXPECT_EQ(200, self->r.status);
	get_with(_metadata, self, "/nothing-here", "User-Agent: tlsxd-test/2\r\n");
	EXPECT_EQ(404, self->r.status);
	one(_metadata, self, head_req, strlen(head_req), true);
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, count_lines(self->srv.alog, HOST DATE
		" \"GET /one\\.bin HTTP/1\\.1\" 200 1 \"https://ref\\.test/\" \"tlsxd-test/1\"$",
		1));
	EXPECT_EQ(1, count_lines(self->srv.alog, HOST DATE
		" \"GET /nothing-here HTTP/1\\.1\" 404 [0-9]+ \"-\" \"tlsxd-test/2\"$",
		1));
	EXPECT_EQ(1, count_lines(self->srv.alog, HOST DATE
		" \"HEAD /r16384\\.bin HTTP/1\\.1\" 200 0 \"-\" \"-\"$", 1));
	/* A field cannot forge a line: '"' and '\\' are escaped (log.h). */
	get_with(_metadata, self, "/one.bin",
		 "User-Agent: evil\" 200 1 \"x\\\r\n");
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, count_lines(self->srv.alog,
		"^[^\"]*\"[^\"]*\" [0-9]+ [0-9]+ \"[^\"]*\" \"evil[^\"]*\"$", 1));
	EXPECT_EQ(4, count_lines(self->srv.alog, ".", 4));
#undef DATE
#undef HOST
}

/* ------------------------------------------------------------------ */
/* Timeouts (short ones) and their counters                           */
/* ------------------------------------------------------------------ */

FIXTURE(timeouts) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
};

FIXTURE_SETUP(timeouts)
{
	static const char *const extra[] = {
		"--workers", "1",
		"--timeout-handshake", "500", "--timeout-header", "500",
		"--timeout-idle", "500", "--timeout-send", "1000", NULL,
	};

	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(timeouts)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

/*
 * A head dribbled one byte per 200 ms (37 bytes: 7.4 s) is cut at the
 * header timeout (500 ms, checked once a second: at most ~1.5 s), the
 * clock running from its first byte, not reset by each.
 */
TEST_F_TIMEOUT(timeouts, slowloris_cut_at_header_timeout, 30)
{
	static const char head[] = "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	long t0;
	size_t i;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	t0 = now_ms();
	for (i = 0; i < sizeof(head) - 1; i++) {
		if (cl_send(&self->c, head + i, 1))
			break;
		if (wait_fd(self->c.fd, POLLIN, now_ms() + 200) &&
		    cl_closed_within(&self->c, 100))
			break;
	}
	EXPECT_LT(i, sizeof(head) - 1) TH_LOG("the whole head went through");
	EXPECT_LT(now_ms() - t0, 3000);
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
	EXPECT_FALSE(contains(self->c.buf, self->c.len, "200"));
	EXPECT_GE(srv_stat(&self->srv, "timeout_header"), 1);
}

TEST_F_TIMEOUT(timeouts, idle_keep_alive_closed, 20)
{
	long t0;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	ASSERT_EQ(0, cl_sends(&self->c, "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	t0 = now_ms();
	EXPECT_TRUE(cl_closed_within(&self->c, 4000));
	EXPECT_GE(now_ms() - t0, 400);
	EXPECT_GE(srv_stat(&self->srv, "timeout_idle"), 1);
}

/* The write of @p[0..@len) to the non-blocking @fd, by @deadline. */
static bool put_all(int fd, const uint8_t *p, size_t len, long deadline)
{
	ssize_t n;

	while (len) {
		n = write(fd, p, len);
		if (n < 0 && errno == EAGAIN && wait_fd(fd, POLLOUT, deadline))
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= n;
	}
	return true;
}

/*
 * The largest ClientHello TLS 1.3 allows (RFC 8446 4.1.2: 131,142 bytes
 * of body with its one compression method): 32,767 cipher suites, a
 * 60,000-byte key share for a group tlsx does not know (4.2.8: ignored)
 * before an X25519 one, padding to 2^16 - 1 bytes of extensions; in
 * records of 2^14.  The server answers with its ServerHello (it sent
 * decode_error at 16 KiB, issue 26); its handshake buffering holds one
 * record at a time (conn_hs.c), the engine the hello as it arrives.
 */
TEST_F_TIMEOUT(http, largest_client_hello_answered, 30)
{
	/* RFC 8448's client X25519 share. */
	static const uint8_t x25519[32] = {
		0x99, 0x38, 0x1d, 0xe5, 0x60, 0xe4, 0xbd, 0x43,
		0xd2, 0x3d, 0x8e, 0x43, 0x5a, 0x7d, 0xba, 0xfe,
		0xb3, 0xc0, 0x6e, 0x51, 0xc1, 0x3c, 0xae, 0x4d,
		0x54, 0x13, 0x69, 0x1e, 0x52, 0x9a, 0xaf, 0x2c,
	};
	static const uint8_t head[] = {
		0, 43, 0, 3, 2, 3, 4,				/* versions */
		0, 10, 0, 8, 0, 6, 0x63, 0x99, 0, 0x1d, 0, 0x17,	/* groups */
		0, 13, 0, 12, 0, 10, 4, 3, 8, 7, 8, 4, 8, 5, 8, 6,
	};
	static uint8_t m[4 + 131142], rec[5 + 16384];
	size_t n = 0, i, share = 60000, ks, pad, f;
	long deadline = now_ms() + 20000;
	uint8_t got[16];
	ssize_t r = 0;
	int fd;

#define PUT16(v) do { m[n++] = (uint8_t)((v) >> 8); m[n++] = (uint8_t)(v); } while (0)
	m[n++] = 1;			/* ClientHello, length below */
	n += 3;
	PUT16(0x0303);
	memset(m + n, 0x5c, 32);
	n += 32;
	m[n++] = 32;
	memset(m + n, 0, 32);
	n += 32;
	PUT16(2 * 32767);
	for (i = 0; i < 32766; i++)
		PUT16(0xc100 + i);
	PUT16(0x1301);
	m[n++] = 1;
	m[n++] = 0;
	PUT16(65535);			/* extensions */
	memcpy(m + n, head, sizeof(head));
	n += sizeof(head);
	ks = 2 + 4 + share + 4 + 32;
	PUT16(51);
	PUT16(ks);
	PUT16(ks - 2);
	PUT16(0x6399);
	PUT16(share);
	memset(m + n, 0x5a, share);
	n += share;
	PUT16(0x001d);
	PUT16(32);
	memcpy(m + n, x25519, sizeof(x25519));
	n += sizeof(x25519);
	pad = sizeof(m) - n - 4;
	PUT16(21);
	PUT16(pad);
	memset(m + n, 0, pad);
	n += pad;
#undef PUT16
	ASSERT_EQ(sizeof(m), n);
	m[1] = (uint8_t)((n - 4) >> 16);
	m[2] = (uint8_t)((n - 4) >> 8);
	m[3] = (uint8_t)(n - 4);

	fd = tcp_connect(self->srv.port, 0);
	ASSERT_GE(fd, 0);
	for (i = 0; i < n; i += f) {
		f = n - i < 16384 ? n - i : 16384;
		rec[0] = 22;
		rec[1] = 3;
		rec[2] = 1;
		rec[3] = (uint8_t)(f >> 8);
		rec[4] = (uint8_t)f;
		memcpy(rec + 5, m + i, f);
		ASSERT_TRUE(put_all(fd, rec, 5 + f, deadline));
	}
	for (i = 0; i < 6 && wait_fd(fd, POLLIN, deadline); i += r) {
		r = read(fd, got + i, 6 - i);
		if (r <= 0)
			break;
	}
	close(fd);
	ASSERT_EQ(6, i);
	EXPECT_EQ(22, got[0]) TH_LOG("record type %u, %02x %02x", got[0],
				      got[5], got[6]);
	EXPECT_EQ(2, got[5]);		/* ServerHello */
}

/* TCP connect and say nothing. */
TEST_F_TIMEOUT(timeouts, handshake_timeout_silent_client, 20)
{
	char b[64];
	long t0 = now_ms();
	int fd = tcp_connect(self->srv.port, 0);
	ssize_t r = -1;

	ASSERT_GE(fd, 0);
	while (now_ms() - t0 < 4000) {
		if (!wait_fd(fd, POLLIN, now_ms() + 4000))
			break;
		r = read(fd, b, sizeof(b));
		if (r == 0 || (r < 0 && errno != EAGAIN))
			break;
	}
	close(fd);
	EXPECT_TRUE(r == 0 || (r < 0 && errno == ECONNRESET))
		TH_LOG("still open after %ld ms", now_ms() - t0);
	EXPECT_LT(now_ms() - t0, 4000);
	EXPECT_GE(srv_stat(&self->srv, "timeout_handshake"), 1);
}

/*
 * A client asking for 64 MiB that never reads (a 64 KiB receive
 * buffer): after the send timeout the server gives up; what comes when
 * it finally reads ends, short of the whole, with the connection closed.
 */
TEST_F_TIMEOUT(timeouts, reader_that_never_reads_cut_at_send_timeout, 40)
{
	long deadline, cut;
	uint64_t got = 0;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					65536, 5000));
	ASSERT_EQ(0, cl_sends(&self->c, "GET /huge.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	/* 1 s without progress, the once-a-second check, and slack. */
	sleep_ms(4000);
	/* Counted before this client reads a byte. */
	cut = srv_stat(&self->srv, "timeout_send");
	deadline = now_ms() + 15000;
	while (!self->c.closed && now_ms() < deadline) {
		if (cl_fill(&self->c, 1 << 20, deadline) < 0)
			break;
		got += self->c.len;
		self->c.len = 0;
	}
	EXPECT_TRUE(self->c.closed) TH_LOG("still open: %llu bytes read",
					   (unsigned long long)got);
	EXPECT_LT(got, HUGE_SIZE);
	EXPECT_GE(cut, 1) TH_LOG("not cut while the client did not read");
}

/* ------------------------------------------------------------------ */
/* Maximum connections                                                */
/* ------------------------------------------------------------------ */

FIXTURE(maxconn) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c[5];
};

FIXTURE_SETUP(maxconn)
{
	static const char *const extra[] = { "--workers", "1", "--max-conns",
					     "4", NULL };

	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(maxconn)
{
	int i;

	for (i = 0; i < 5; i++)
		cl_close(&self->c[i]);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

TEST_F(maxconn, fifth_refused_at_once_first_four_work)
{
	struct rsp r;
	long t0;
	int i;

	for (i = 0; i < 4; i++)
		ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c[i], self->srv.port,
						self->cfg, 0, 5000))
			TH_LOG("connection %d", i);
	t0 = now_ms();
	/* Closed by the server at once: the handshake fails, not hangs. */
	EXPECT_NE(TLSX_DONE, cl_open_ex(&self->c[4], self->srv.port,
					self->cfg, 0, 3000));
	EXPECT_LT(now_ms() - t0, 2000) TH_LOG("queued, not refused");
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, cl_sends(&self->c[i], "GET /one.bin HTTP/1.1\r\n"
				      "Host: x\r\n\r\n"));
		ASSERT_EQ(0, cl_response(&self->c[i], &r, false))
			TH_LOG("connection %d", i);
		EXPECT_EQ(200, r.status);
		EXPECT_TRUE(same_as_file(r.body, r.body_len, 2, 0));
		rsp_free(&r);
	}
	EXPECT_GE(srv_stat(&self->srv, "conn_refused_max"), 1);
}

/* ------------------------------------------------------------------ */
/* Signals with a request in flight                                   */
/* ------------------------------------------------------------------ */

FIXTURE(signals) {
	struct srv srv;
	struct tlsx_config *cfg, *cfg1, *cfg2;
	struct cl c, d;
};

static void copy_file(const char *from, const char *to)
{
	char tmp[256];
	size_t n;
	char *p = slurp(from, &n);

	snprintf(tmp, sizeof(tmp), "%s.tmp", to);
	if (!p)
		die(from);
	write_all(tmp, p, n);
	free(p);
	if (rename(tmp, to))
		die(to);
}

FIXTURE_SETUP(signals)
{
	static const char *const extra[] = { "--workers", "2", NULL };

	copy_file(g_leaf1, g_hup_cert);
	copy_file(g_key1, g_hup_key);
	self->cfg = cl_config(NULL);
	self->cfg1 = cl_config(g_ca1);
	self->cfg2 = cl_config(g_ca2);
	ASSERT_TRUE(self->cfg && self->cfg1 && self->cfg2);
	srv_start(_metadata, &self->srv, g_hup_cert, g_hup_key, extra);
}

FIXTURE_TEARDOWN(signals)
{
	cl_close(&self->c);
	cl_close(&self->d);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
	tlsx_config_free(self->cfg1);
	tlsx_config_free(self->cfg2);
}

/*
 * GET /huge.bin on @c: its head checked, then the first @first body
 * bytes read and compared (*@got says how many came); the rest stays in
 * the connection.
 */
static void huge_start(struct __test_metadata *_metadata, struct cl *c,
		       uint64_t first, uint64_t *got)
{
	long deadline = now_ms() + 10000;
	struct rsp r;
	char v[64], *e;
	size_t hl;

	ASSERT_EQ(0, cl_sends(c, "GET /huge.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	memset(&r, 0, sizeof(r));
	while (!(e = c->len ? memmem(c->buf, c->len, "\r\n\r\n", 4) : NULL))
		ASSERT_GT(cl_fill(c, 65536, deadline), 0);
	hl = e - c->buf + 4;
	ASSERT_LT(hl, RSP_HEAD_MAX);
	memcpy(r.head, c->buf, hl);
	cl_consume(c, hl);
	ASSERT_EQ(0, strncmp(r.head, "HTTP/1.1 200 ", 13)) TH_LOG("%s", r.head);
	ASSERT_TRUE(hdr(&r, "Content-Length", v, sizeof(v)));
	ASSERT_EQ(HUGE_SIZE, strtoull(v, NULL, 10));
	*got = 0;
	while (*got < first) {
		if (!c->len)
			ASSERT_GT(cl_fill(c, 1 << 20, deadline), 0);
		ASSERT_TRUE(same_as_file((uint8_t *)c->buf, c->len, SEED_HUGE,
					 *got));
		*got += c->len;
		c->len = 0;
	}
}

/* The rest of /huge.bin, compared; the total. */
static uint64_t huge_finish(struct cl *c, uint64_t got, bool *same)
{
	long deadline = now_ms() + 30000;

	*same = true;
	while (got < HUGE_SIZE) {
		if (!c->len && cl_fill(c, 1 << 20, deadline) <= 0)
			break;
		if (c->len > HUGE_SIZE - got)
			c->len = HUGE_SIZE - got;
		if (!same_as_file((uint8_t *)c->buf, c->len, SEED_HUGE, got))
			*same = false;
		got += c->len;
		c->len = 0;
	}
	return got;
}

/*
 * SIGHUP: the download in flight goes on, a new handshake gets the new
 * certificate (trusted only under CA two), the old one is gone.
 */
TEST_F_TIMEOUT(signals, sighup_reload_keeps_downloads_serves_new_cert, 60)
{
	char rotated[200];
	struct rsp r;
	uint64_t got;
	bool same;
	long t0;
	int rc = -1;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg1,
					0, 5000));
	EXPECT_NE(TLSX_DONE, cl_open_ex(&self->d, self->srv.port, self->cfg2,
					0, 5000));
	cl_close(&self->d);
	huge_start(_metadata, &self->c, MIB, &got);

	copy_file(g_leaf2, g_hup_cert);
	copy_file(g_key2, g_hup_key);
	/* logrotate: the log moved away, SIGHUP opens a new one. */
	snprintf(rotated, sizeof(rotated), "%s.1", self->srv.alog);
	sleep_ms(1200);		/* the lines before, flushed */
	ASSERT_EQ(0, rename(self->srv.alog, rotated));
	ASSERT_EQ(0, kill(self->srv.pid, SIGHUP));
	for (t0 = now_ms(); now_ms() - t0 < 5000; sleep_ms(100)) {
		rc = cl_open_ex(&self->d, self->srv.port, self->cfg2, 0, 5000);
		if (rc == TLSX_DONE)
			break;
		cl_close(&self->d);
	}
	ASSERT_EQ(TLSX_DONE, rc) TH_LOG("the new certificate is not served");
	ASSERT_EQ(0, cl_sends(&self->d, "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->d, &r, false));
	EXPECT_EQ(200, r.status);
	rsp_free(&r);
	cl_close(&self->d);
	EXPECT_EQ(1, count_lines(self->srv.alog, "\"GET /one\\.bin ", 1))
		TH_LOG("the access log was not reopened");
	EXPECT_EQ(0, count_lines(rotated, "\"GET /one\\.bin ", 0));
	unlink(rotated);
	EXPECT_EQ(TLSX_E_CERT, cl_open_ex(&self->d, self->srv.port, self->cfg1,
					  0, 5000))
		TH_LOG("the old certificate is still served");

	got = huge_finish(&self->c, got, &same);
	EXPECT_EQ(HUGE_SIZE, got);
	EXPECT_TRUE(same);
	EXPECT_TRUE(kill(self->srv.pid, 0) == 0);
}

/* SIGTERM: the download in flight completes, then tlsxd exits 0. */
TEST_F_TIMEOUT(signals, sigterm_drains_then_exits_zero, 60)
{
	uint64_t got;
	bool same;
	long t0;
	int st = -1;
	pid_t w = 0;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	huge_start(_metadata, &self->c, MIB, &got);
	ASSERT_EQ(0, kill(self->srv.pid, SIGTERM));
	sleep_ms(300);
	/* Draining: no new connection is served (docs/tlsxd.md). */
	EXPECT_NE(TLSX_DONE, cl_open_ex(&self->d, self->srv.port, self->cfg,
					0, 2000));
	cl_close(&self->d);
	got = huge_finish(&self->c, got, &same);
	EXPECT_EQ(HUGE_SIZE, got);
	EXPECT_TRUE(same);
	for (t0 = now_ms(); now_ms() - t0 < 8000; sleep_ms(50)) {
		w = waitpid(self->srv.pid, &st, WNOHANG);
		if (w == self->srv.pid)
			break;
	}
	ASSERT_EQ(self->srv.pid, w) TH_LOG("tlsxd still running");
	self->srv.pid = 0;
	EXPECT_TRUE(WIFEXITED(st)) TH_LOG("status 0x%x", st);
	EXPECT_EQ(0, WEXITSTATUS(st));
}

/*
 * A client that closes in the middle of a 64 MiB body (unread data: the
 * kernel sends a reset): counted, and tlsxd goes on serving.
 */
TEST_F(http, client_closing_mid_body_is_harmless)
{
	uint64_t got;

	OPEN(self);
	huge_start(_metadata, &self->c, MIB, &got);
	cl_close(&self->c);
	sleep_ms(300);
	GET_OK(self, "/r16385.bin");
	EXPECT_EQ(200, self->r.status);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 5, 0));
	EXPECT_GE(srv_stat(&self->srv, "client_reset"), 1);
}

/* The head split across records at awkward places (in a CRLF, mid-name). */
TEST_F(http, request_split_across_writes)
{
	static const char *const parts[] = {
		"GET /one.bin HTTP/1.1\r\nHo", "st: x\r", "\n\r", "\nGET /r163",
		"83.bin HTTP/1.1\r\nHost: x\r\n", "\r\n",
	};
	struct rsp r2;
	size_t i;

	OPEN(self);
	for (i = 0; i < ARRAY_SIZE(parts); i++) {
		ASSERT_EQ(0, cl_sends(&self->c, parts[i]));
		sleep_ms(50);
	}
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 2, 0));
	ASSERT_EQ(0, cl_response(&self->c, &r2, false));
	EXPECT_EQ(200, r2.status);
	EXPECT_EQ(16383, r2.body_len);
	EXPECT_TRUE(same_as_file(r2.body, r2.body_len, 3, 0));
	rsp_free(&r2);
}

/* 404, 304 and 416 keep the connection (only parse errors close). */
TEST_F(http, keep_alive_after_404_304_416)
{
	char etag[128], req[512];

	GET_OK(self, "/one.bin");
	ASSERT_TRUE(hdr(&self->r, "ETag", etag, sizeof(etag)));
	snprintf(req, sizeof(req),
		 "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n"
		 "GET /one.bin HTTP/1.1\r\nHost: x\r\nIf-None-Match: %s\r\n\r\n"
		 "GET /one.bin HTTP/1.1\r\nHost: x\r\nRange: bytes=5-\r\n\r\n"
		 "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n", etag);
	one(_metadata, self, req, strlen(req), false);
	EXPECT_EQ(404, self->r.status);
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(304, self->r.status);
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(416, self->r.status);
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(1, self->r.body_len);
}

/* 64 connections at once, each with its request in flight. */
TEST_F(http, many_concurrent_connections)
{
	enum { N = 64 };
	struct cl *c = calloc(N, sizeof(*c));
	struct rsp r;
	int i;

	ASSERT_NE(NULL, c);
	for (i = 0; i < N; i++)
		ASSERT_EQ(TLSX_DONE, cl_open_ex(&c[i], self->srv.port,
						self->cfg, 0, 10000))
			TH_LOG("connection %d", i);
	for (i = 0; i < N; i++)
		ASSERT_EQ(0, cl_sends(&c[i], "GET /r16385.bin HTTP/1.1\r\n"
				      "Host: x\r\n\r\n"));
	for (i = 0; i < N; i++) {
		ASSERT_EQ(0, cl_response(&c[i], &r, false)) TH_LOG("%d", i);
		EXPECT_EQ(200, r.status);
		EXPECT_EQ(16385, r.body_len);
		EXPECT_TRUE(same_as_file(r.body, r.body_len, 5, 0));
		rsp_free(&r);
		cl_close(&c[i]);
	}
	free(c);
}

/* ------------------------------------------------------------------ */
/* Socket activation, --hidden                                        */
/* ------------------------------------------------------------------ */

FIXTURE(systemd) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
};

FIXTURE_SETUP(systemd)
{
	static const char *const extra[] = { "--workers", "2", NULL };

	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	self->srv.systemd = true;
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(systemd)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

/* No --listen: the socket systemd would pass (LISTEN_FDS=1, fd 3). */
TEST_F(systemd, serves_on_the_passed_socket)
{
	int i;

	for (i = 0; i < 4; i++) {
		cl_close(&self->c);
		ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port,
						self->cfg, 0, 5000));
		ASSERT_EQ(0, cl_sends(&self->c, "GET /r16384.bin HTTP/1.1\r\n"
				      "Host: x\r\n\r\n"));
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
		EXPECT_EQ(200, self->r.status);
		EXPECT_EQ(16384, self->r.body_len);
		EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 4, 0));
		rsp_free(&self->r);
	}
}

FIXTURE(hidden) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
};

FIXTURE_SETUP(hidden)
{
	static const char *const extra[] = { "--hidden", NULL };

	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(hidden)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

/* --hidden serves ".name"; still nothing outside the root. */
TEST_F(hidden, hidden_files_served_when_allowed)
{
	static const char req[] = "GET /.secret HTTP/1.1\r\nHost: x\r\n\r\n"
		"GET /../canary.txt HTTP/1.1\r\nHost: x\r\n\r\n";

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	ASSERT_EQ(strlen(CANARY), self->r.body_len);
	EXPECT_EQ(0, memcmp(self->r.body, CANARY, self->r.body_len));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(400, self->r.status);
	EXPECT_FALSE(contains(self->r.body, self->r.body_len, CANARY));
}

/*
 * Resumption with the ticket tlsxd sent after the handshake
 * (RFC 8446 4.6.1): the second handshake is resumed and serves.
 */
TEST_F(http, session_resumption_with_a_ticket)
{
	struct tlsx_conn_info info;
	uint8_t sess[4096];
	size_t slen = 0;
	long deadline;
	int r;

	GET_OK(self, "/one.bin");
	ASSERT_EQ(200, self->r.status);
	ASSERT_EQ(TLSX_OK, tlsx_conn_session(self->c.tc, sess, sizeof(sess),
					     &slen));
	cl_close(&self->c);

	memset(&self->c, 0, sizeof(self->c));
	self->c.fd = tcp_connect(self->srv.port, 0);
	ASSERT_GE(self->c.fd, 0);
	self->c.tc = tlsx_conn_new(self->cfg, self->c.fd);
	ASSERT_NE(NULL, self->c.tc);
	/* The name the session was made for (RFC 8446 4.6.1). */
	tlsx_conn_set_server_name(self->c.tc, "localhost");
	ASSERT_EQ(TLSX_OK, tlsx_conn_set_session(self->c.tc, sess, slen));
	deadline = now_ms() + 5000;
	while ((r = tlsx_conn_step(self->c.tc)) == TLSX_WANT_READ ||
	       r == TLSX_WANT_WRITE)
		ASSERT_TRUE(wait_fd(self->c.fd, r == TLSX_WANT_READ ? POLLIN :
				    POLLOUT, deadline));
	ASSERT_EQ(TLSX_DONE, r);
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c.tc, &info));
	EXPECT_TRUE(info.resumed);
	EXPECT_STREQ("http/1.1", info.alpn);
	ASSERT_EQ(0, cl_sends(&self->c, "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
}

/*
 * A KeyUpdate from the client between requests, asking tlsxd to update
 * its own key too (RFC 8446 4.6.3): the next requests are answered, and
 * under the new keys both ways.
 */
TEST_F(http, key_update_between_requests)
{
	static const char req[] = "GET /r16385.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	struct tlsx_conn_info info;
	int i;

	OPEN(self);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false))
			TH_LOG("request %d", i);
		EXPECT_EQ(200, self->r.status);
		EXPECT_TRUE(same_as_file(self->r.body, self->r.body_len, 5, 0));
		ASSERT_EQ(TLSX_OK, tlsx_conn_key_update(self->c.tc, true));
	}
	ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c.tc, &info));
	EXPECT_EQ(3, info.key_updates_sent);
	EXPECT_EQ(3, info.key_updates_received);
}

/*
 * The sending key's limit (RFC 8446 5.5) on the userspace layer:
 * tlsxd-rekey (Makefile: 512 records a key) serves 24 MiB over one
 * keep-alive connection; its record layer sends a KeyUpdate before each
 * key's 512th record, and every byte arrives under the new keys.  The
 * kernel layers' cases are in tools/tlsxd/vm-tests.
 */
FIXTURE(rekey) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
};

FIXTURE_SETUP(rekey)
{
	static const char *const extra[] = { "--workers", "1", NULL };
	char *slash = strrchr(g_tlsxd, '/');

	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	/* The test build next to the daemon (build/bin/tlsxd-rekey). */
	ASSERT_NE(NULL, slash);
	snprintf(slash + 1, sizeof(g_tlsxd) - (slash + 1 - g_tlsxd), "%s",
		 "tlsxd-rekey");
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(rekey)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

TEST_F_TIMEOUT(rekey, userspace_layer_rekeys_past_the_limit, 120)
{
	static const char req[] = "GET /mib.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	struct tlsx_conn_info info;
	int i, n = 24;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	for (i = 0; i < n; i++) {
		ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false))
			TH_LOG("response %d", i);
		ASSERT_EQ(200, self->r.status);
		ASSERT_EQ(MIB, self->r.body_len);
		ASSERT_TRUE(same_as_file(self->r.body, self->r.body_len, 6, 0))
			TH_LOG("response %d", i);
	}
	ASSERT_EQ(TLSX_OK, tlsx_conn_info(self->c.tc, &info));
	/* 64 full records a MiB: a key per 8 MiB at most. */
	EXPECT_LE((uint64_t)n * MIB / 16384 / 512, info.key_updates_received);
	EXPECT_EQ(0, info.key_updates_sent);
	ksft_print_msg("%d MiB: %llu KeyUpdates from tlsxd\n", n,
		       (unsigned long long)info.key_updates_received);
}

/* --keepalive-requests 3: the third answer closes. */
FIXTURE(options) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
};

FIXTURE_SETUP(options)
{
	static const char *const extra[] = {
		"--workers", "1", "--keepalive-requests", "3",
		"--user", "nobody", NULL,
	};

	if (geteuid() != 0 || !getpwnam("nobody"))
		SKIP(return, "needs root and a \"nobody\" user (--user)");
	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(options)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
}

TEST_F(options, keepalive_requests_bound)
{
	static const char req[] = "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n";
	int i;

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	for (i = 1; i <= 3; i++) {
		ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false)) TH_LOG("%d", i);
		EXPECT_EQ(200, self->r.status);
		EXPECT_EQ(i == 3, hdr_is(&self->r, "Connection", "close"))
			TH_LOG("request %d", i);
	}
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
}

/* --user: every thread runs as that user after binding. */
TEST_F(options, privileges_dropped_with_user)
{
	struct passwd *pw = getpwnam("nobody");
	char path[64], *st, *u, *g;
	unsigned int ru, eu, su, fu, rg, eg, sg, fg;
	DIR *d;
	struct dirent *e;
	int threads = 0, nu, ng;

	ASSERT_NE(NULL, pw);
	snprintf(path, sizeof(path), "/proc/%d/task", self->srv.pid);
	d = opendir(path);
	ASSERT_NE(NULL, d);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%.16s/status",
			 self->srv.pid, e->d_name);
		st = slurp(path, NULL);
		ASSERT_NE(NULL, st);
		u = strstr(st, "\nUid:");
		g = strstr(st, "\nGid:");
		ASSERT_TRUE(u && g);
		nu = sscanf(u + 5, "%u %u %u %u", &ru, &eu, &su, &fu);
		ng = sscanf(g + 5, "%u %u %u %u", &rg, &eg, &sg, &fg);
		ASSERT_TRUE(nu == 4 && ng == 4);
		EXPECT_TRUE(ru == pw->pw_uid && eu == pw->pw_uid &&
			    su == pw->pw_uid && fu == pw->pw_uid)
			TH_LOG("task %s: Uid: %u %u %u %u", e->d_name, ru, eu,
			       su, fu);
		EXPECT_TRUE(rg == pw->pw_gid && eg == pw->pw_gid &&
			    sg == pw->pw_gid)
			TH_LOG("task %s: Gid: %u %u %u", e->d_name, rg, eg, sg);
		free(st);
		threads++;
	}
	closedir(d);
	EXPECT_GE(threads, 2);
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	ASSERT_EQ(0, cl_sends(&self->c, "GET /r16385.bin HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(16385, self->r.body_len);
}

/* --config FILE: the file's directives apply (docs/tlsxd-config.md). */
FIXTURE(config) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
	char file[160];
};

FIXTURE_SETUP(config)
{
	static const char conf[] = "# tlsxd's test\n\nkeepalive-requests 2\n"
		"timeout-idle 60s\n";
	const char *extra[3];

	extra[0] = "--config";
	extra[1] = self->file;
	extra[2] = NULL;

	snprintf(self->file, sizeof(self->file), "%s/tlsxd-%d.conf", g_dir,
		 getpid());
	write_all(self->file, conf, sizeof(conf) - 1);
	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(config)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
	unlink(self->file);
}

TEST_F(config, file_directives_apply)
{
	static const char req[] = "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n";

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_FALSE(hdr_is(&self->r, "Connection", "close"));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_send(&self->c, req, sizeof(req) - 1));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"))
		TH_LOG("keepalive-requests 2 from the file not applied");
	EXPECT_TRUE(cl_closed_within(&self->c, 3000));
}

/* ------------------------------------------------------------------ */
/* add-header (nginx's add_header)                                    */
/* ------------------------------------------------------------------ */

FIXTURE(headers) {
	struct srv srv;
	struct tlsx_config *cfg;
	struct cl c;
	struct rsp r;
	char file[160];
};

/* The same three fields from the file or from the command line. */
FIXTURE_VARIANT(headers) {
	bool from_file;
};

FIXTURE_VARIANT_ADD(headers, file) { .from_file = true };
FIXTURE_VARIANT_ADD(headers, command_line) { .from_file = false };

FIXTURE_SETUP(headers)
{
	static const char conf[] = "add-header X-Frame-Options DENY\n"
		"add-header Cache-Control \"max-age=60, public\"\n"
		"add-header X-Served-By tlsxd-test always\n";
	static const char *const args[] = {
		"--add-header", "X-Frame-Options: DENY",
		"--add-header", "Cache-Control: max-age=60, public",
		"--add-header-always", "X-Served-By: tlsxd-test", NULL };
	const char *extra[3] = { "--config", self->file, NULL };

	snprintf(self->file, sizeof(self->file), "%s/headers-%d.conf", g_dir,
		 getpid());
	write_all(self->file, conf, sizeof(conf) - 1);
	self->cfg = cl_config(NULL);
	ASSERT_NE(NULL, self->cfg);
	srv_start(_metadata, &self->srv, g_cert, g_key,
		  variant->from_file ? extra : (const char **)args);
}

FIXTURE_TEARDOWN(headers)
{
	cl_close(&self->c);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
	unlink(self->file);
}

/* @req on a fresh connection, its response in @r: the status. */
static int req_on_new(struct cl *c, int port, struct tlsx_config *cfg,
		      struct rsp *r, const char *req, bool head_req)
{
	cl_close(c);
	rsp_free(r);
	if (cl_open_ex(c, port, cfg, 0, 5000) != TLSX_DONE ||
	    cl_sends(c, req) || cl_response(c, r, head_req))
		return -1;
	return r->status;
}

#define HREQ(self, req, head) \
	req_on_new(&(self)->c, (self)->srv.port, (self)->cfg, &(self)->r, \
		   req, head)

/*
 * All three fields, in their order, after tlsxd's own and before
 * Connection (when there is one).
 */
static bool all_added_in_order(const struct rsp *r)
{
	const char *a = strstr(r->head, "\r\nX-Frame-Options: DENY\r\n");
	const char *b = strstr(r->head,
			       "\r\nCache-Control: max-age=60, public\r\n");
	const char *c = strstr(r->head, "\r\nX-Served-By: tlsxd-test\r\n");
	const char *conn = strstr(r->head, "\r\nConnection:");

	return a && b && c && a < b && b < c && (!conn || c < conn) &&
	       strstr(r->head, "\r\nServer:") < a;
}

TEST_F(headers, on_200_head_206_304_and_301)
{
	char etag[128], req[512];

	EXPECT_EQ(200, HREQ(self, "GET /one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
			    false));
	EXPECT_TRUE(all_added_in_order(&self->r)) TH_LOG("%s", self->r.head);
	EXPECT_EQ(1, self->r.body_len);
	ASSERT_TRUE(hdr(&self->r, "ETag", etag, sizeof(etag)));

	EXPECT_EQ(200, HREQ(self, "HEAD /one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
			    true));
	EXPECT_TRUE(all_added_in_order(&self->r)) TH_LOG("%s", self->r.head);
	EXPECT_EQ(0, self->r.body_len);

	EXPECT_EQ(206, HREQ(self, "GET /mib.bin HTTP/1.1\r\nHost: x\r\n"
			    "Range: bytes=10-19\r\n\r\n", false));
	EXPECT_TRUE(all_added_in_order(&self->r)) TH_LOG("%s", self->r.head);
	EXPECT_EQ(10, self->r.body_len);
	EXPECT_TRUE(same_as_file(self->r.body, 10, 6, 10));

	snprintf(req, sizeof(req),
		 "GET /one.bin HTTP/1.1\r\nHost: x\r\nIf-None-Match: %s\r\n\r\n",
		 etag);
	EXPECT_EQ(304, HREQ(self, req, false));
	EXPECT_TRUE(all_added_in_order(&self->r)) TH_LOG("%s", self->r.head);

	EXPECT_EQ(301, HREQ(self, "GET /withindex HTTP/1.1\r\nHost: x\r\n"
			    "Connection: close\r\n\r\n", false));
	EXPECT_TRUE(all_added_in_order(&self->r)) TH_LOG("%s", self->r.head);
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"));
}

TEST_F(headers, only_always_on_errors)
{
	EXPECT_EQ(404, HREQ(self, "GET /missing HTTP/1.1\r\nHost: x\r\n\r\n",
			    false));
	EXPECT_FALSE(has_hdr(&self->r, "X-Frame-Options")) TH_LOG("%s", self->r.head);
	EXPECT_FALSE(has_hdr(&self->r, "Cache-Control"));
	EXPECT_TRUE(hdr_is(&self->r, "X-Served-By", "tlsxd-test"))
		TH_LOG("%s", self->r.head);

	EXPECT_EQ(404, HREQ(self, "HEAD /missing HTTP/1.1\r\nHost: x\r\n\r\n",
			    true));
	EXPECT_FALSE(has_hdr(&self->r, "X-Frame-Options"));
	EXPECT_TRUE(hdr_is(&self->r, "X-Served-By", "tlsxd-test"));

	EXPECT_EQ(403, HREQ(self, "GET /noindex/ HTTP/1.1\r\nHost: x\r\n\r\n",
			    false));
	EXPECT_FALSE(has_hdr(&self->r, "Cache-Control"));
	EXPECT_TRUE(hdr_is(&self->r, "X-Served-By", "tlsxd-test"));

	EXPECT_EQ(405, HREQ(self, "DELETE /one.bin HTTP/1.1\r\nHost: x\r\n\r\n",
			    false));
	EXPECT_FALSE(has_hdr(&self->r, "X-Frame-Options"));
	EXPECT_TRUE(hdr_is(&self->r, "X-Served-By", "tlsxd-test"));
	EXPECT_TRUE(hdr_is(&self->r, "Allow", "GET, HEAD"));
}

/* ------------------------------------------------------------------ */
/* SIGHUP re-reads --config FILE                                      */
/* ------------------------------------------------------------------ */

FIXTURE(reload) {
	struct srv srv;
	struct tlsx_config *cfg, *cfg1, *cfg2;
	struct cl c, d;
	struct rsp r;
	char file[160];
	char root2[160];
};

/* The configuration file replaced (a rename, as editors and tools do). */
static void write_conf(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void write_conf(const char *path, const char *fmt, ...)
{
	char text[2048], tmp[200];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	write_all(tmp, text, n);
	if (rename(tmp, path))
		die(path);
}

static int count_in_log(const struct srv *s, const char *needle)
{
	char *l = slurp(s->log, NULL), *p;
	int n = 0;

	for (p = l; p && (p = strstr(p, needle)); p++)
		n++;
	free(l);
	return n;
}

/* SIGHUP, then up to 5 s for one more line with @needle in the log. */
static bool hup_wait(const struct srv *s, const char *needle)
{
	int n0 = count_in_log(s, needle);
	long t0 = now_ms();

	if (kill(s->pid, SIGHUP))
		return false;
	while (now_ms() - t0 < 5000) {
		if (count_in_log(s, needle) > n0)
			return true;
		sleep_ms(20);
	}
	return false;
}

#define RELOADED	"SIGHUP: certificates and ticket keys reloaded, the configuration re-read"
#define RELOAD_FAILED	"SIGHUP: the new configuration failed, the old one stays: "

FIXTURE_SETUP(reload)
{
	const char *extra[3] = { "--config", self->file, NULL };

	snprintf(self->file, sizeof(self->file), "%s/reload-%d.conf", g_dir,
		 getpid());
	snprintf(self->root2, sizeof(self->root2), "%s/root2-%d", g_dir,
		 getpid());
	write_conf(self->file, "workers 2\nmax-header-count 100\ncert %s %s\n",
		   g_leaf1, g_key1);
	self->cfg = cl_config(NULL);
	self->cfg1 = cl_config(g_ca1);
	self->cfg2 = cl_config(g_ca2);
	ASSERT_TRUE(self->cfg && self->cfg1 && self->cfg2);
	srv_start(_metadata, &self->srv, g_cert, g_key, extra);
}

FIXTURE_TEARDOWN(reload)
{
	char p[256];

	cl_close(&self->c);
	cl_close(&self->d);
	rsp_free(&self->r);
	srv_stop(_metadata, &self->srv);
	tlsx_config_free(self->cfg);
	tlsx_config_free(self->cfg1);
	tlsx_config_free(self->cfg2);
	unlink(self->file);
	path_in(p, sizeof(p), self->root2, "new.txt");
	unlink(p);
	rmdir(self->root2);
}

/* GET /one.bin with @n extra fields on @c: the status, -1 for none. */
static int get_fields(struct cl *c, struct rsp *r, int n)
{
	char req[2048], *p = req;
	int i;

	p += sprintf(p, "GET /one.bin HTTP/1.1\r\nHost: x\r\n");
	for (i = 0; i < n; i++)
		p += sprintf(p, "X-F%d: v\r\n", i);
	sprintf(p, "\r\n");
	rsp_free(r);
	if (cl_sends(c, req) || cl_response(c, r, false))
		return -1;
	return r->status;
}

/*
 * A limit lowered in the file: after SIGHUP a new connection gets it,
 * and so does the next request of a connection kept alive across the
 * reload (each request is parsed with the limits of its time).
 */
TEST_F(reload, lowered_limit_applies_after_sighup)
{
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 10));

	write_conf(self->file, "workers 2\nmax-header-count 5\ncert %s %s\n",
		   g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	EXPECT_EQ(0, count_in_log(&self->srv, "restart tlsxd"));

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->d, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(431, get_fields(&self->d, &self->r, 10));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 4));
	EXPECT_EQ(431, get_fields(&self->c, &self->r, 10));
}

/*
 * A file that does not parse: the error with its FILE:LINE, the old
 * configuration whole (its limit still applies), serving goes on.
 */
TEST_F(reload, broken_config_keeps_the_old_one)
{
	char want[300];

	write_conf(self->file, "workers 2\nmax-header-count 5\ncert %s %s\n",
		   g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	write_conf(self->file, "max-header-count 100\nno-such-directive 1\n");
	snprintf(want, sizeof(want),
		 RELOAD_FAILED "%s:2: unknown directive \"no-such-directive\"",
		 self->file);
	ASSERT_TRUE(hup_wait(&self->srv, want));
	/* A value out of range, and a key that does not load: the same. */
	write_conf(self->file, "max-header-count 100\nworkers 0\n");
	snprintf(want, sizeof(want), RELOAD_FAILED "%s:2: workers: bad number",
		 self->file);
	ASSERT_TRUE(hup_wait(&self->srv, want));
	write_conf(self->file, "max-header-count 100\ncert %s %s\n", g_leaf1,
		   g_key2);
	ASSERT_TRUE(hup_wait(&self->srv, RELOAD_FAILED));

	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg1,
					0, 5000));
	EXPECT_EQ(431, get_fields(&self->c, &self->r, 10))
		TH_LOG("a part of the broken file was applied");
	EXPECT_EQ(TLSX_DONE, cl_open_ex(&self->d, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->d, &self->r, 0));
	EXPECT_EQ(0, kill(self->srv.pid, 0));
}

/* The server name's chain and key changed in the file (other paths). */
TEST_F(reload, new_cert_for_the_server_name)
{
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg1,
					0, 5000));
	cl_close(&self->c);
	EXPECT_NE(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg2,
					0, 5000));
	cl_close(&self->c);

	write_conf(self->file, "workers 2\ncert %s %s\n", g_leaf2, g_key2);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg2,
					0, 5000))
		TH_LOG("the new chain is not served");
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_EQ(TLSX_E_CERT, cl_open_ex(&self->d, self->srv.port, self->cfg1,
					  0, 5000))
		TH_LOG("the old chain is still served");
}

/*
 * A download in flight across a SIGHUP that changes the root: it ends
 * whole and byte-exact (its file is open), while new requests are
 * served from the new root (the open-file cache flushed).
 */
TEST_F_TIMEOUT(reload, download_in_flight_survives_a_new_root, 60)
{
	char p[256];
	uint64_t got;
	bool same;

	ASSERT_EQ(0, mkdir(self->root2, 0755));
	put_bytes(self->root2, "new.txt", "in root two\n", 12);
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	/* /one.bin in the cache, then a download started. */
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->d, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->d, &self->r, 0));
	EXPECT_EQ(200, get_fields(&self->d, &self->r, 0));
	cl_close(&self->d);
	huge_start(_metadata, &self->c, MIB, &got);

	write_conf(self->file, "workers 2\nroot %s\ncert %s %s\n", self->root2,
		   g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->d, self->srv.port, self->cfg,
					0, 5000));
	ASSERT_EQ(0, cl_sends(&self->d, "GET /new.txt HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->d, &self->r, false));
	EXPECT_EQ(200, self->r.status);
	EXPECT_EQ(404, get_fields(&self->d, &self->r, 0))
		TH_LOG("/one.bin served from the old root");

	got = huge_finish(&self->c, got, &same);
	EXPECT_EQ(HUGE_SIZE, got);
	EXPECT_TRUE(same);
	path_in(p, sizeof(p), self->root2, "new.txt");
	unlink(p);
}

/*
 * What needs a restart is named and kept; the rest of the same file is
 * applied (keepalive-requests 2: the second response closes).
 */
TEST_F(reload, restart_only_change_logged_rest_applied)
{
	write_conf(self->file,
		   "workers 3\nlisten 127.0.0.1:1\nkeepalive-requests 2\n"
		   "max-conns 8192\ncert %s %s\n", g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	EXPECT_EQ(1, count_in_log(&self->srv,
				  "SIGHUP: max-conns 8192 is over the 4096 tlsxd started with; restart tlsxd to apply (4096 kept)"));
	EXPECT_EQ(1, count_in_log(&self->srv,
				  "SIGHUP: workers changed; restart tlsxd to apply"));
	EXPECT_EQ(1, count_in_log(&self->srv,
				  "SIGHUP: listen changed; restart tlsxd to apply"));
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_FALSE(hdr_is(&self->r, "Connection", "close"));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_TRUE(hdr_is(&self->r, "Connection", "close"));
}

/* A timeout shortened in the file: a connection made after it gets it. */
TEST_F_TIMEOUT(reload, shortened_idle_timeout_applies, 30)
{
	long t0;

	write_conf(self->file, "workers 2\ntimeout-idle 1s\ncert %s %s\n",
		   g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	t0 = now_ms();
	/* The timer wheel ticks once a second: 1 s idle, closed by 3 s. */
	EXPECT_TRUE(cl_closed_within(&self->c, 5000));
	EXPECT_GE(now_ms() - t0, 900);
	EXPECT_LE(now_ms() - t0, 3500);
}

/* A flag turned on in the file: hidden files are served after it. */
TEST_F(reload, hidden_flag_applies)
{
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_sends(&self->c, "GET /.secret HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(404, self->r.status);
	write_conf(self->file, "workers 2\nhidden\ncert %s %s\n", g_leaf1,
		   g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	rsp_free(&self->r);
	ASSERT_EQ(0, cl_sends(&self->c, "GET /.secret HTTP/1.1\r\nHost: x\r\n\r\n"));
	ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
	EXPECT_EQ(200, self->r.status);
}

/*
 * add-header in the file: after SIGHUP the next request on a connection
 * kept alive gets the new fields, and a field dropped from the file is
 * gone.
 */
TEST_F(reload, added_fields_follow_the_file)
{
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_FALSE(has_hdr(&self->r, "X-Reload"));

	write_conf(self->file, "workers 2\nadd-header X-Reload one\n"
		   "add-header-always X-Always a\ncert %s %s\n", g_leaf1,
		   g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_TRUE(hdr_is(&self->r, "X-Reload", "one")) TH_LOG("%s", self->r.head);
	EXPECT_TRUE(hdr_is(&self->r, "X-Always", "a"));

	write_conf(self->file, "workers 2\nadd-header X-Reload two\n"
		   "cert %s %s\n", g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOADED));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_TRUE(hdr_is(&self->r, "X-Reload", "two")) TH_LOG("%s", self->r.head);
	EXPECT_FALSE(has_hdr(&self->r, "X-Always"));

	/* A bad field fails the reload with its line; the old ones stay. */
	write_conf(self->file, "workers 2\nadd-header Content-Length 1\n"
		   "cert %s %s\n", g_leaf1, g_key1);
	ASSERT_TRUE(hup_wait(&self->srv, RELOAD_FAILED));
	EXPECT_EQ(1, count_in_log(&self->srv,
				  ":2: add-header: Content-Length is not allowed (framing, RFC 9112 6.2)"));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 0));
	EXPECT_TRUE(hdr_is(&self->r, "X-Reload", "two"));
}

/*
 * New log paths in the file: the access log's lines and the error log's
 * go to the new files from the reload on (the old access log keeps what
 * came before).
 */
TEST_F(reload, log_paths_switched)
{
	char alog[200], elog[200];

	snprintf(alog, sizeof(alog), "%s/reload-access-%d.log", g_dir,
		 getpid());
	snprintf(elog, sizeof(elog), "%s/reload-error-%d.log", g_dir,
		 getpid());
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 1));
	EXPECT_EQ(1, count_lines(self->srv.alog, "\"GET /one\\.bin ", 1));

	write_conf(self->file,
		   "workers 2\naccess-log %s\nerror-log %s\ncert %s %s\n",
		   alog, elog, g_leaf1, g_key1);
	ASSERT_EQ(0, kill(self->srv.pid, SIGHUP));
	EXPECT_EQ(1, count_lines(elog, "SIGHUP: certificates and ticket keys reloaded", 1));
	EXPECT_EQ(200, get_fields(&self->c, &self->r, 2));
	EXPECT_EQ(1, count_lines(alog, "\"GET /one\\.bin ", 1))
		TH_LOG("the new access log has no line");
	EXPECT_EQ(1, count_lines(self->srv.alog, "\"GET /one\\.bin ", 1));
	EXPECT_LE(0, srv_stat_in(&self->srv, elog, "requests"));
	unlink(alog);
	unlink(elog);
}

/* The open-file cache's counters in the SIGUSR1 dump (stats.c). */
TEST_F(reload, fcache_counters_in_the_stats)
{
	struct timespec now;
	struct stat st;
	int i;

	/* Absences are remembered in a directory a second old (fcache.c). */
	for (;;) {
		ASSERT_EQ(0, stat(g_root, &st));
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (st.st_mtim.tv_sec + 1 <= now.tv_sec &&
		    st.st_ctim.tv_sec + 1 <= now.tv_sec)
			break;
		sleep_ms(50);
	}
	ASSERT_EQ(TLSX_DONE, cl_open_ex(&self->c, self->srv.port, self->cfg,
					0, 5000));
	for (i = 0; i < 3; i++) {
		rsp_free(&self->r);
		ASSERT_EQ(0, cl_sends(&self->c, "GET /r16383.bin HTTP/1.1\r\nHost: x\r\n"
				      "Accept-Encoding: gzip, br\r\n\r\n"));
		ASSERT_EQ(0, cl_response(&self->c, &self->r, false));
		EXPECT_EQ(200, self->r.status);
	}
	/* One miss, two hits; both siblings' absence used twice. */
	EXPECT_LE(2, srv_stat(&self->srv, "fcache_hits"));
	EXPECT_LE(1, srv_stat(&self->srv, "fcache_misses"));
	EXPECT_LE(1, srv_stat(&self->srv, "fcache_entries"));
	EXPECT_LE(2, srv_stat(&self->srv, "fcache_neg_stored"));
	EXPECT_LE(4, srv_stat(&self->srv, "fcache_neg_hits"));
}

/*
 * issue 30: the default hybrid ClientHello (X25519MLKEM768 and X25519
 * shares, 1,443 bytes) cut into records of 250
 * bytes (RFC 8446 5.1: a handshake message may span records) and sent
 * as 61-byte TCP segments with pauses between them: tlsxd gathers it and
 * the handshake completes on the hybrid.  The client is the sans-I/O
 * engine itself, which lets the test frame the records.
 */
TEST_F(http, client_hello_split_over_records_and_segments)
{
	static u8 out[TLSX_HS_OUT_MIN], wire[8192], in[65536];
	struct tlsx_hs_config hcfg = { .insecure = true };
	struct tlsx_hs_info info;
	size_t n, used, in_len = 0, wlen = 0, off, k;
	long deadline = now_ms() + 5000;
	int fd, ret, one = 1, records = 0;
	struct tlsx_hs *hs = tlsx_hs_new(&hcfg);

	ASSERT_NE(NULL, hs);
	ASSERT_EQ(0, tlsx_hs_set_server_name(hs, "localhost"));
	ASSERT_EQ(TLSX_HS_WANT_READ,
		  tlsx_hs_step(hs, NULL, 0, &used, out, sizeof(out), &n));
	ASSERT_EQ(22, out[0]);
	ASSERT_EQ(n, 5 + (size_t)((out[3] << 8) | out[4]));
	EXPECT_LT(1400, n) TH_LOG("ClientHello of %zu bytes", n);
	for (off = 5; off < n; off += k) {
		k = n - off < 250 ? n - off : 250;
		wire[wlen++] = 22;
		wire[wlen++] = 3;
		wire[wlen++] = 1;
		wire[wlen++] = (u8)(k >> 8);
		wire[wlen++] = (u8)k;
		memcpy(wire + wlen, out + off, k);
		wlen += k;
		records++;
	}
	EXPECT_LE(5, records);
	fd = tcp_connect(self->srv.port, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
				sizeof(one)));
	for (off = 0; off < wlen; off += k) {
		k = wlen - off < 61 ? wlen - off : 61;
		ASSERT_EQ((ssize_t)k, send(fd, wire + off, k, MSG_NOSIGNAL));
		sleep_ms(2);
	}
	ret = TLSX_HS_WANT_READ;
	while (ret == TLSX_HS_WANT_READ && now_ms() < deadline) {
		ssize_t got;

		if (!wait_fd(fd, POLLIN, deadline))
			break;
		got = recv(fd, in + in_len, sizeof(in) - in_len, 0);
		if (got <= 0)
			break;
		in_len += (size_t)got;
		ret = tlsx_hs_step(hs, in, in_len, &used, out, sizeof(out), &n);
		memmove(in, in + used, in_len - used);
		in_len -= used;
		if (n)
			ASSERT_EQ((ssize_t)n, send(fd, out, n, MSG_NOSIGNAL));
	}
	EXPECT_EQ(TLSX_HS_DONE, ret) {
		TH_LOG("alert %d", tlsx_hs_alert(hs));
		log_tail(self->srv.log, 10);
	}
	ASSERT_EQ(0, tlsx_hs_get_info(hs, &info));
	EXPECT_EQ(TLSX_GROUP_X25519MLKEM768, info.group);
	close(fd);
	tlsx_hs_free(hs);
}

TEST_HARNESS_MAIN
