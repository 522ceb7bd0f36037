// SPDX-License-Identifier: GPL-2.0
/*
 * http_srv.c - the two servers of "tlsx-bench http": the generated
 * directory (certificate, document root, nginx.conf), starting each
 * server as a child of the benchmark, stopping it, and reading its CPU
 * time and resident memory from /proc.
 *
 * Both servers get the same certificate (EC P-256, or RSA-2048 for the
 * RSA row, by tools/interop/mkcerts), the same files, the same worker
 * count, TLS 1.3 only with the same suite chosen (the server's
 * preference, AES-128-GCM first: tlsxd's default order, nginx's
 * configured to it), HB_KEEPALIVE_REQS requests per keep-alive
 * connection, SO_REUSEPORT listeners, sendfile, and an access log on for
 * both or off for both.  Everything either writes stays in the
 * directory: nginx runs as the current user with its pid file,
 * temporary paths and logs there.  With --pin both run on the CPUs
 * given (sched_setaffinity before exec); with --server-cpu each in its
 * capped cgroup (http_cap.c), joined before exec.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <netinet/in.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "http.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

const struct hb_file hb_files[] = {
	{ "1k.bin", 1024 },
	{ "64k.bin", 64 * 1024 },
	{ "64m.bin", 64 * 1024 * 1024 },
};

const size_t hb_nfiles = ARRAY_SIZE(hb_files);

const char *const hb_cert_names[HB_NCERTS] = {
	[HB_CERT_P256] = "EC P-256",
	[HB_CERT_RSA2048] = "RSA-2048",
};

/* Their files in the directory, and mkcerts' key types. */
static const char *const cert_files[HB_NCERTS][2] = {
	[HB_CERT_P256] = { "cert.pem", "key.pem" },
	[HB_CERT_RSA2048] = { "rsa-cert.pem", "rsa-key.pem" },
};

static const char *const cert_types[HB_NCERTS] = {
	[HB_CERT_P256] = "ec",
	[HB_CERT_RSA2048] = "rsa",
};

/*
 * The directory's absolute path (nginx would resolve relative ones
 * against its prefix), short enough that every file name fits after it.
 */
static char hb_dir[PATH_MAX / 2];

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000 };

	nanosleep(&ts, NULL);
}

int hb_why(char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, HB_WHY_LEN, fmt, ap);
	va_end(ap);
	return -1;
}

static int mkdir_p(const char *path, char *why)
{
	char buf[PATH_MAX];
	size_t i, n = strlen(path);

	if (n >= sizeof(buf))
		return hb_why(why, "%s: path too long", path);
	memcpy(buf, path, n + 1);
	for (i = 1; i <= n; i++) {
		if (buf[i] != '/' && buf[i] != '\0')
			continue;
		buf[i] = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return hb_why(why, "mkdir %s: %s", buf,
				       strerror(errno));
		buf[i] = i < n ? '/' : '\0';
	}
	return 0;
}

int hb_run(char *const *argv, const char *log, char *why)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return hb_why(why, "fork: %s", strerror(errno));
	if (!pid) {
		int fd = log ? open(log, O_WRONLY | O_CREAT | O_APPEND, 0644) :
			       open("/dev/null", O_WRONLY);

		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return hb_why(why, "waitpid: %s", strerror(errno));
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return hb_why(why, "%s: could not be run", argv[0]);
	if (!WIFEXITED(st))
		return hb_why(why, "%s: killed by signal %d", argv[0],
			       WTERMSIG(st));
	return WEXITSTATUS(st);
}

static bool exists(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat sb;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !stat(p, &sb);
}

/* Makes the certificates; run from the source tree, as the defaults are. */
#define HB_MKCERTS	"tools/interop/mkcerts"

/*
 * A certificate both servers present: self-signed, made (and made again
 * before it expires) by mkcerts.  Where there is no mkcerts, as in the
 * VM's guest, the certificate put into the directory is used.
 */
static int make_cert(enum hb_cert c, char *why)
{
	char cert[PATH_MAX], key[PATH_MAX], log[PATH_MAX];
	char *argv[6] = {
		HB_MKCERTS, "--self-signed", cert, key,
		(char *)cert_types[c], NULL,
	};

	if (access(HB_MKCERTS, X_OK)) {
		if (exists(hb_dir, cert_files[c][0]) &&
		    exists(hb_dir, cert_files[c][1]))
			return 0;
		return hb_why(why, "%s: %s (run from the source tree)",
			      HB_MKCERTS, strerror(errno));
	}
	snprintf(cert, sizeof(cert), "%s/%s", hb_dir, cert_files[c][0]);
	snprintf(key, sizeof(key), "%s/%s", hb_dir, cert_files[c][1]);
	snprintf(log, sizeof(log), "%s/mkcerts.out", hb_dir);
	if (hb_run(argv, log, why)) {
		if (!*why)
			hb_why(why, "%s failed (see %s)", HB_MKCERTS, log);
		return -1;
	}
	return 0;
}

/*
 * A file of @size bytes of xorshift output: incompressible, so no
 * layer below can shortcut it, and different in every block.
 */
static int make_file(const struct hb_file *f, char *why)
{
	static uint64_t buf[8192];
	char p[PATH_MAX];
	uint64_t x = 0x9e3779b97f4a7c15ull ^ f->size;
	size_t left = f->size, i;
	struct stat sb;
	FILE *out;

	snprintf(p, sizeof(p), "%s/root/%s", hb_dir, f->name);
	if (!stat(p, &sb) && (size_t)sb.st_size == f->size)
		return 0;
	out = fopen(p, "w");
	if (!out)
		return hb_why(why, "%s: %s", p, strerror(errno));
	while (left) {
		size_t n = left < sizeof(buf) ? left : sizeof(buf);

		for (i = 0; i < ARRAY_SIZE(buf); i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			buf[i] = x;
		}
		if (fwrite(buf, 1, n, out) != n)
			break;
		left -= n;
	}
	if (fclose(out) || left)
		return hb_why(why, "%s: write failed", p);
	return 0;
}

static int write_nginx_conf(const struct hb_opts *o, enum hb_cert c,
			    char *why)
{
	static const char *const temps[] = {
		"client_body", "proxy", "fastcgi", "uwsgi", "scgi",
	};
	char p[PATH_MAX];
	FILE *f;
	size_t i;

	snprintf(p, sizeof(p), "%s/nginx.conf", hb_dir);
	f = fopen(p, "w");
	if (!f)
		return hb_why(why, "%s: %s", p, strerror(errno));
	fprintf(f, "# Generated by tlsx-bench http; rewritten at each start.\n"
		"daemon off;\nmaster_process on;\nworker_processes %u;\n"
		"pid %s/nginx.pid;\nerror_log %s/nginx-error.log warn;\n",
		o->workers, hb_dir, hb_dir);
	/*
	 * Started by root, nginx's workers would become "nobody": they
	 * stay the current user, as tlsxd does (and as they do anyway
	 * when the benchmark does not run as root).
	 */
	if (!geteuid()) {
		struct passwd *pw = getpwuid(geteuid());
		struct group *gr = getgrgid(getegid());

		if (pw && gr)
			fprintf(f, "user %s %s;\n", pw->pw_name, gr->gr_name);
	}
	/* tlsxd's default --max-conns per worker. */
	fputs("events {\n\tworker_connections 4096;\n}\nhttp {\n", f);
	if (!access("/etc/nginx/mime.types", R_OK))
		fputs("\tinclude /etc/nginx/mime.types;\n", f);
	fputs("\tdefault_type application/octet-stream;\n", f);
	if (o->access_log)
		fprintf(f, "\taccess_log %s/nginx-access.log combined;\n",
			hb_dir);
	else
		fputs("\taccess_log off;\n", f);
	/*
	 * Both servers keep a keep-alive connection for HB_KEEPALIVE_REQS
	 * requests: h2load -D does not end when a server closes a
	 * connection at its default limit (1000, nginx's and tlsxd's) and
	 * the client reconnects after the run's end; measured: 1 run in 8
	 * to 12 never ended, with either server.
	 */
	fprintf(f, "\tsendfile on;\n\ttcp_nopush on;\n"
		"\tkeepalive_requests %d;\n", HB_KEEPALIVE_REQS);
	for (i = 0; i < ARRAY_SIZE(temps); i++)
		fprintf(f, "\t%s_temp_path %s/nginx-tmp/%s;\n", temps[i],
			hb_dir, temps[i]);
	/*
	 * http2: nginx's HTTP/2 with its defaults for the h2-* rows
	 * (nginx 1.22's form; 1.25.1 and later say "http2 on").  It adds
	 * h2 to ALPN only: the HTTP/1.1 rows' clients offer http/1.1
	 * alone and are served as before.
	 */
	fprintf(f, "\tserver {\n\t\tlisten 127.0.0.1:%d ssl http2 reuseport;\n"
		"\t\tssl_certificate %s/%s;\n"
		"\t\tssl_certificate_key %s/%s;\n"
		"\t\tssl_protocols TLSv1.3;\n", o->port + 1, hb_dir,
		cert_files[c][0], hb_dir, cert_files[c][1]);
	/*
	 * The suite tlsxd would choose: its preference, AES-128-GCM
	 * first.  nginx (prefer_server_ciphers off) would follow the
	 * client's, and wrk's OpenSSL offers AES-256-GCM first.
	 */
	fputs("\t\tssl_conf_command Ciphersuites TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256;\n"
	      "\t\tssl_prefer_server_ciphers on;\n", f);
	if (o->ktls)
		fputs("\t\tssl_conf_command Options KTLS;\n", f);
	fprintf(f, "\t\troot %s/root;\n\t}\n}\n", hb_dir);
	if (fclose(f))
		return hb_why(why, "%s: write failed", p);
	return 0;
}

int hb_prepare(const struct hb_opts *o, char *why)
{
	char p[PATH_MAX];
	size_t i, n;

	*why = '\0';
	if (mkdir_p(o->dir, why))
		return -1;
	if (!realpath(o->dir, p))
		return hb_why(why, "%s: %s", o->dir, strerror(errno));
	n = strlen(p);
	if (n >= sizeof(hb_dir))
		return hb_why(why, "%s: path too long", o->dir);
	memcpy(hb_dir, p, n + 1);
	snprintf(p, sizeof(p), "%s/root", hb_dir);
	if (mkdir_p(p, why))
		return -1;
	snprintf(p, sizeof(p), "%s/nginx-tmp", hb_dir);
	if (mkdir_p(p, why))
		return -1;
	for (i = 0; i < HB_NCERTS; i++)
		if (make_cert((enum hb_cert)i, why))
			return -1;
	for (i = 0; i < hb_nfiles; i++)
		if (make_file(&hb_files[i], why))
			return -1;
	return 0;
}

static bool port_open(int port)
{
	struct sockaddr_in a = {
		.sin_family = AF_INET,
		.sin_port = htons((uint16_t)port),
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), ok;

	if (fd < 0)
		return false;
	ok = !connect(fd, (struct sockaddr *)&a, sizeof(a));
	close(fd);
	return ok;
}

/* The command line of @s, in @argv (at most @max - 1 entries + NULL). */
static void server_argv(const struct hb_server *s, const struct hb_opts *o,
			char **argv, size_t max, char bufs[][PATH_MAX])
{
	size_t n = 0, i;

#define ARG(x) do { if (n + 1 < max) argv[n++] = (char *)(x); } while (0)
	if (s->kind == HB_NGINX) {
		snprintf(bufs[0], PATH_MAX, "%s/nginx-error.log", hb_dir);
		snprintf(bufs[1], PATH_MAX, "%s/nginx.conf", hb_dir);
		ARG(o->nginx);
		ARG("-p");
		ARG(hb_dir);
		ARG("-e");
		ARG(bufs[0]);
		ARG("-c");
		ARG(bufs[1]);
		argv[n] = NULL;
		return;
	}
	snprintf(bufs[0], PATH_MAX, "127.0.0.1:%d", s->port);
	snprintf(bufs[1], PATH_MAX, "%s/root", hb_dir);
	snprintf(bufs[2], PATH_MAX, "%s/%s", hb_dir, cert_files[s->cert][0]);
	snprintf(bufs[3], PATH_MAX, "%s/%s", hb_dir, cert_files[s->cert][1]);
	snprintf(bufs[4], PATH_MAX, "%u", o->workers);
	snprintf(bufs[5], PATH_MAX, "%s/tlsxd-access.log", hb_dir);
	ARG(o->tlsxd);
	ARG("--listen");
	ARG(bufs[0]);
	ARG("--root");
	ARG(bufs[1]);
	ARG("--cert");
	ARG(bufs[2]);
	ARG("--key");
	ARG(bufs[3]);
	ARG("--workers");
	ARG(bufs[4]);
	ARG("--keepalive-requests");
	ARG(HB_KEEPALIVE_REQS_STR);
	if (o->access_log) {
		ARG("--access-log");
		ARG(bufs[5]);
	}
	if (o->record_layer) {
		ARG("--record-layer");
		ARG(o->record_layer);
	}
	for (i = 0; i < o->ntlsxd_xargs; i++)
		ARG(o->tlsxd_xargs[i]);
	argv[n] = NULL;
#undef ARG
}

int hb_server_start(struct hb_server *s, const struct hb_opts *o)
{
	char bufs[6][PATH_MAX], out[PATH_MAX], *argv[32 + HB_XARGS_MAX];
	int i;

	s->ok = false;
	s->pid = -1;
	*s->why = '\0';
	if (port_open(s->port))
		return hb_why(s->why, "port %d is already in use", s->port);
	if (s->kind == HB_NGINX && write_nginx_conf(o, s->cert, s->why))
		return -1;
	server_argv(s, o, argv, ARRAY_SIZE(argv), bufs);
	snprintf(out, sizeof(out), "%s/%s.out", hb_dir, s->name);
	fflush(NULL);
	s->pid = fork();
	if (s->pid < 0)
		return hb_why(s->why, "fork: %s", strerror(errno));
	if (!s->pid) {
		int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		/* A benchmark that dies takes its servers with it. */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (o->pin && sched_setaffinity(0, sizeof(o->pin_srv),
						&o->pin_srv))
			_exit(126);
		if (hb_cap_join(s->kind))
			_exit(125);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
			close(fd);
		}
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	s->ok = true;
	for (i = 0; i < 500; i++) {
		if (!hb_server_alive(s)) {
			snprintf(out, sizeof(out), "%s", s->why);
			return hb_why(s->why, "%s (see %s/%s.out)", out,
				       hb_dir, s->name);
		}
		if (port_open(s->port))
			return 0;
		sleep_ms(20);
	}
	hb_server_stop(s);
	return hb_why(s->why, "no listener on port %d after 10 s", s->port);
}

bool hb_server_alive(struct hb_server *s)
{
	int st;

	if (s->pid <= 0)
		return false;
	if (waitpid(s->pid, &st, WNOHANG) != s->pid)
		return true;
	if (WIFEXITED(st))
		hb_why(s->why, "exited with status %d", WEXITSTATUS(st));
	else
		hb_why(s->why, "killed by signal %d", WTERMSIG(st));
	s->pid = -1;
	s->ok = false;
	return false;
}

void hb_server_stop(struct hb_server *s)
{
	int i;

	if (s->pid <= 0)
		return;
	kill(s->pid, SIGTERM);
	for (i = 0; i < 250; i++) {
		if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
			s->pid = -1;
			return;
		}
		sleep_ms(20);
	}
	kill(s->pid, SIGKILL);
	waitpid(s->pid, NULL, 0);
	s->pid = -1;
}

/*
 * Fields of /proc/PID/stat after the command name (which may hold
 * spaces and parentheses: the last ')' ends it): state is field 3,
 * ppid 4, utime 14, stime 15 (proc(5)).
 */
static int proc_stat(pid_t pid, int *ppid, unsigned long long *ticks)
{
	char p[64], buf[1024], *s;
	unsigned long long ut, st;
	size_t n;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/stat", (int)pid);
	f = fopen(p, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	s = strrchr(buf, ')');
	if (!s || sscanf(s + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			 ppid, &ut, &st) != 3)
		return -1;
	*ticks = ut + st;
	return 0;
}

static long proc_rss(pid_t pid)
{
	char p[64], line[256];
	long kb = -1;
	FILE *f;

	snprintf(p, sizeof(p), "/proc/%d/status", (int)pid);
	f = fopen(p, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmRSS: %ld", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb * 1024;
}

#define PIDS_MAX	512

/*
 * The server's process and its children: nginx's master and workers
 * (/proc lists every process, ppid picks them); tlsxd's threads are in
 * its own entry.  Their number, or -1 when the server's own entry
 * cannot be read.
 */
static int server_pids(const struct hb_server *s, pid_t *pids)
{
	unsigned long long t;
	struct dirent *de;
	int ppid, n = 0;
	DIR *d;

	if (s->pid <= 0 || proc_stat(s->pid, &ppid, &t))
		return -1;
	pids[n++] = s->pid;
	d = opendir("/proc");
	if (!d)
		return -1;
	while ((de = readdir(d)) && n < PIDS_MAX) {
		pid_t pid = (pid_t)atoi(de->d_name);

		if (pid > 0 && pid != s->pid && !proc_stat(pid, &ppid, &t) &&
		    ppid == s->pid)
			pids[n++] = pid;
	}
	closedir(d);
	return n;
}

double hb_server_cpu(const struct hb_server *s)
{
	unsigned long long ticks = 0, t;
	pid_t pids[PIDS_MAX];
	int i, n = server_pids(s, pids), ppid;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++)
		if (!proc_stat(pids[i], &ppid, &t))
			ticks += t;
	return (double)ticks / (double)sysconf(_SC_CLK_TCK);
}

long hb_server_rss(const struct hb_server *s)
{
	pid_t pids[PIDS_MAX];
	int i, n = server_pids(s, pids);
	long sum = 0, r;

	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		r = proc_rss(pids[i]);
		if (r < 0)
			return -1;
		sum += r;
	}
	return sum;
}
