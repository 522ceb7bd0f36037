// SPDX-License-Identifier: GPL-2.0
/*
 * http_load.c - the load generator of "tlsx-bench http": h2load
 * (nghttp2-client) over HTTP/1.1 (--h1), one thread (-t 1: the machine
 * has 2 vCPUs, one for the server's worker and one for the load), its
 * summary parsed from its standard output:
 *
 *   finished in 3.00s, 67145.67 req/s, 80.94MB/s
 *   requests: 201437 total, 201447 started, 201437 done, 201437 succeeded, 0 failed, 0 errored, 0 timeout
 *   status codes: 201437 2xx, 0 3xx, 0 4xx, 0 5xx
 *   traffic: 242.82MB (254616368) total, 36.31MB (38072349) headers (space savings 0.00%), 196.72MB (206275584) data
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "http.h"

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

/* The last line of @out that is not empty, for an error message. */
static const char *last_line(char *out, size_t n)
{
	while (n && (out[n - 1] == '\n' || out[n - 1] == ' '))
		out[--n] = '\0';
	while (n && out[n - 1] != '\n')
		n--;
	return out + n;
}

int hb_h2load(const struct hb_opts *o, const char *const *args,
	      double limit_s, struct hb_load *l, char *why)
{
	static char out[OUT_MAX + 1], copy[OUT_MAX + 1];
	char *argv[ARGS_MAX];
	size_t n = 0, len = 0;
	uint64_t end;
	int p[2], st;
	pid_t pid;

	memset(l, 0, sizeof(*l));
	argv[n++] = (char *)o->h2load;
	argv[n++] = "--h1";
	argv[n++] = "-t";
	argv[n++] = "1";
	while (*args && n + 1 < ARGS_MAX)
		argv[n++] = (char *)*args++;
	argv[n] = NULL;
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
			return hb_why(why, "h2load still running after %.0f s: killed",
				       limit_s);
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
	waitpid(pid, &st, 0);
	memcpy(copy, out, len + 1);
	if (parse_summary(copy, l)) {
		return hb_why(why, "h2load (status %d): %s",
			       WIFEXITED(st) ? WEXITSTATUS(st) : -1,
			       last_line(out, len));
	}
	return 0;
}
