// SPDX-License-Identifier: GPL-2.0
/*
 * http_load.c - the load generators of "tlsx-bench http", both third
 * party, one thread each by default (the machine has 2 vCPUs: one for
 * the server's worker, one for the load; --load-threads N for more,
 * with the servers capped by --server-cpu), their summaries parsed from
 * their output:
 *
 * h2load (nghttp2-client) over HTTP/1.1 (--h1 -t 1), every row:
 *
 *   finished in 3.00s, 67145.67 req/s, 80.94MB/s
 *   requests: 201437 total, 201447 started, 201437 done, 201437 succeeded, 0 failed, 0 errored, 0 timeout
 *   status codes: 201437 2xx, 0 3xx, 0 4xx, 0 5xx
 *   traffic: 242.82MB (254616368) total, 36.31MB (38072349) headers (space savings 0.00%), 196.72MB (206275584) data
 *
 * wrk (-t 1, no latency statistics), the keep-alive rows with --wrk:
 *
 *     142784 requests in 5.01s, 175.26MB read
 *     Socket errors: connect 0, read 0, write 0, timeout 0
 *     Non-2xx or 3xx responses: 12
 *
 * wrk counts responses, not their status (the second and third lines
 * appear only when not zero) and its byte count includes the heads,
 * rounded: its checks are looser than h2load's (http.c).
 *
 * The generator's own CPU time (utime + stime, wait4) is returned with
 * its summary: a run where the generator used a whole CPU and the
 * server less measured the generator.  With --pin, it runs on the CPUs
 * given (sched_setaffinity before exec).
 *
 * A run that outlives its time limit is killed: a server that stalls
 * cannot hang the benchmark.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "http.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define OUT_MAX		65536
#define ARGS_MAX	48

/* "3.00s", "427.21ms", "850.12us" (h2load's duration format). */
static int parse_secs(const char *s, double *secs)
{
	char unit[4] = "";
	double v;

	if (sscanf(s, "%lf%3[a-z]", &v, unit) != 2)
		return -1;
	if (!strcmp(unit, "s"))
		*secs = v;
	else if (!strcmp(unit, "ms"))
		*secs = v / 1e3;
	else if (!strcmp(unit, "us"))
		*secs = v / 1e6;
	else if (!strcmp(unit, "ns"))
		*secs = v / 1e9;
	else if (!strcmp(unit, "m"))
		*secs = v * 60;
	else
		return -1;
	return 0;
}

/* The summary lines of @out; 0 when all four were found. */
static int parse_summary(char *out, struct hb_load *l)
{
	unsigned long total, started;
	unsigned long long hd, tot;
	int seen = 0;
	char *line, *save = NULL, *p;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strncmp(line, "finished in ", 12)) {
			if (!parse_secs(line + 12, &l->secs))
				seen |= 1;
		} else if (!strncmp(line, "requests: ", 10)) {
			if (sscanf(line, "requests: %lu total, %lu started, %lu done, %lu succeeded, %lu failed, %lu errored, %lu timeout",
				   &total, &started, &l->done, &l->ok,
				   &l->failed, &l->errored, &l->timeout) == 7)
				seen |= 2;
		} else if (!strncmp(line, "status codes: ", 14)) {
			if (sscanf(line, "status codes: %lu 2xx, %lu 3xx, %lu 4xx, %lu 5xx",
				   &l->status2xx, &l->status3xx,
				   &l->status4xx, &l->status5xx) == 4) {
				l->non2xx = l->status3xx + l->status4xx +
					    l->status5xx;
				seen |= 4;
			}
		} else if (!strncmp(line, "traffic: ", 9)) {
			/* The byte count in parentheses before " data". */
			p = strstr(line, " data");
			while (p && p > line && *p != '(')
				p--;
			if (p && sscanf(line, "traffic: %*s (%llu) total, %*s (%llu)",
					&tot, &hd) == 2 &&
			    sscanf(p, "(%llu)", &l->data) == 1)
				seen |= 8;
		}
	}
	return seen == 15 ? 0 : -1;
}

/* "175.26MB" (wrk's binary units) as an upper bound in bytes. */
static int parse_bytes(const char *s, unsigned long long *bytes)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };
	char unit[4] = "";
	double v, scale = 1;
	size_t i;

	if (sscanf(s, "%lf%3[A-Z]", &v, unit) != 2)
		return -1;
	for (i = 0; i < ARRAY_SIZE(units); i++, scale *= 1024)
		if (!strcmp(unit, units[i]))
			break;
	if (i == ARRAY_SIZE(units))
		return -1;
	/* Printed with two decimals: add what the rounding took off. */
	*bytes = (unsigned long long)((v + 0.005) * scale);
	return 0;
}

/* wrk's summary lines; 0 when its "requests in" line was found. */
static int parse_wrk(char *out, struct hb_load *l)
{
	unsigned long c, r, w, t, n;
	char secs[32], bytes[32];
	char *line, *save = NULL;
	int seen = 0;

	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ')
			line++;
		if (sscanf(line, "%lu requests in %31[^,], %31s read", &n,
			   secs, bytes) == 3 &&
		    !parse_secs(secs, &l->secs) &&
		    !parse_bytes(bytes, &l->data)) {
			l->done = n;
			l->ok = n;
			seen = 1;
		} else if (sscanf(line, "Socket errors: connect %lu, read %lu, write %lu, timeout %lu",
				  &c, &r, &w, &t) == 4) {
			l->errored = c + r + w;
			l->timeout = t;
		} else if (sscanf(line, "Non-2xx or 3xx responses: %lu",
				  &n) == 1) {
			l->non2xx = n;
		}
	}
	/* wrk's successes include those with a 4xx or 5xx status. */
	if (seen && l->non2xx <= l->ok)
		l->status2xx = l->ok - l->non2xx;
	return seen ? 0 : -1;
}

/* The last line of @out that is not empty, for an error message. */
static const char *last_line(char *out, size_t n)
{
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	while (n && out[n - 1] != '\n')
		n--;
	return out + n;
}

/*
 * Runs @argv with its output in a pipe until it exits or @limit_s
 * passes (then it is killed); its output in @out (NUL-terminated, at
 * most OUT_MAX bytes kept), its exit status in @st and its CPU time in
 * @cpu.  -1 with @why when it could not run or was killed.
 */
static int run_capture(const struct hb_opts *o, char *const *argv,
		       double limit_s, char *out, size_t *outlen, int *st,
		       double *cpu, char *why)
{
	struct rusage ru;
	size_t len = 0;
	uint64_t end;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return hb_why(why, "pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return hb_why(why, "fork: %s", strerror(errno));
	}
	if (!pid) {
		if (o->pin && sched_setaffinity(0, sizeof(o->pin_load),
						&o->pin_load))
			_exit(126);
		dup2(p[1], 1);
		dup2(p[1], 2);
		execvp(argv[0], argv);
		fprintf(stderr, "%s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	end = bench_now_ns() + (uint64_t)(limit_s * 1e9);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		uint64_t now = bench_now_ns();
		char junk[4096];
		ssize_t r;

		if (now >= end) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			close(p[0]);
			return hb_why(why, "%s still running after %.0f s: killed",
				       argv[0], limit_s);
		}
		if (poll(&pfd, 1, (int)((end - now) / 1000000) + 1) <= 0)
			continue;
		/* Output past the buffer is read and dropped. */
		if (len < OUT_MAX)
			r = read(p[0], out + len, OUT_MAX - len);
		else
			r = read(p[0], junk, sizeof(junk));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		if (len < OUT_MAX)
			len += (size_t)r;
	}
	close(p[0]);
	out[len] = '\0';
	*outlen = len;
	memset(&ru, 0, sizeof(ru));
	if (wait4(pid, st, 0, &ru) != pid)
		return hb_why(why, "wait4: %s", strerror(errno));
	*cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	return 0;
}

enum gen { GEN_H2LOAD, GEN_WRK };

static int run_gen(const struct hb_opts *o, enum gen gen,
		   unsigned int clients, const char *const *args,
		   double limit_s, struct hb_load *l, char *why)
{
	static char out[OUT_MAX + 1], copy[OUT_MAX + 1];
	char *argv[ARGS_MAX], threads[16], conns[16];
	size_t n = 0, len = 0;
	unsigned int nt;
	double cpu = 0;
	int st, bad;

	memset(l, 0, sizeof(*l));
	argv[n++] = (char *)(gen == GEN_WRK ? o->wrk : o->h2load);
	/* HTTP/1.1 unless the row is HTTP/2's (ALPN h2, h2load's default). */
	if (gen == GEN_H2LOAD && !o->h2)
		argv[n++] = "--h1";
	/*
	 * --load-threads, but no more threads than connections: both
	 * generators refuse more, and a thread without a connection does
	 * nothing (bulk runs have one).
	 */
	nt = o->load_threads < clients ? o->load_threads : clients;
	snprintf(threads, sizeof(threads), "%u", nt ? nt : 1);
	snprintf(conns, sizeof(conns), "%u", clients ? clients : 1);
	argv[n++] = "-t";
	argv[n++] = threads;
	argv[n++] = "-c";
	argv[n++] = conns;
	while (*args && n + 1 < ARGS_MAX)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
	if (run_capture(o, argv, limit_s, out, &len, &st, &cpu, why))
		return -1;
	memcpy(copy, out, len + 1);
	bad = gen == GEN_WRK ? parse_wrk(copy, l) : parse_summary(copy, l);
	if (bad)
		return hb_why(why, "%s (status %d): %s", argv[0],
			       WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			       last_line(out, len));
	l->cpu = cpu;
	return 0;
}

int hb_h2load(const struct hb_opts *o, unsigned int clients,
	      const char *const *args, double limit_s, struct hb_load *l,
	      char *why)
{
	return run_gen(o, GEN_H2LOAD, clients, args, limit_s, l, why);
}

int hb_wrk(const struct hb_opts *o, unsigned int clients,
	   const char *const *args, double limit_s, struct hb_load *l,
	   char *why)
{
	return run_gen(o, GEN_WRK, clients, args, limit_s, l, why);
}
