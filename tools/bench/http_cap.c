// SPDX-License-Identifier: GPL-2.0
/*
 * http_cap.c - "tlsx-bench http --server-cpu F": each server in a cgroup
 * of its own whose CPU bandwidth is capped at F CPUs (CFS bandwidth
 * control: F x 10 ms of CPU time per 10 ms period), so that the load
 * generator, given the rest of the machine, can keep a server busy.
 *
 * Why: with one worker per server and a one-thread generator on a
 * 2-CPU machine, each has at most a CPU, and a generator that costs more
 * per request than the server (h2load does, against tlsxd:
 * docs/perf-http.md) sets the rate, not the server.  Capping both
 * servers at the same F < 1 CPU while the generator may use up to
 * --load-threads CPUs makes the server the slower side whenever the
 * generator's cost per request is below its CPU over F times the
 * server's; the row then measures requests per second of a server
 * given F CPUs, the same F for tlsxd and nginx.  A run under the cap
 * shows it: the server's CPU share is near F and most periods were
 * throttled (cpu.stat nr_throttled over nr_periods).
 *
 * cgroup v2 (cpu.max in a child of the unified hierarchy, with the cpu
 * controller enabled in the parent's cgroup.subtree_control) or v1 (the
 * "cpu" hierarchy's cpu.cfs_period_us and cpu.cfs_quota_us), whichever
 * this machine mounts; root is needed.  The groups are made below the
 * benchmark's own cgroup and removed at the end.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "http.h"

/* 10 ms: the cap's unit of time, short enough not to stall a response. */
#define CAP_PERIOD_US	10000

static char cap_dir[2][PATH_MAX];	/* per server kind, "" uncapped */
static bool cap_v2;

/* @dir/@file into @out (PATH_MAX); -1 (ENAMETOOLONG) if it does not fit. */
static int cg_path(char *out, const char *dir, const char *file)
{
	int n = snprintf(out, PATH_MAX, "%s/%s", dir, file);

	if (n < 0 || n >= PATH_MAX) {
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static int write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(s);

	if (fd < 0)
		return -1;
	n = write(fd, s, (size_t)len);
	close(fd);
	return n == len ? 0 : -1;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/*
 * The line of /proc/self/cgroup for the v2 hierarchy ("0::PATH") or
 * for v1's cpu controller ("N:...cpu...:PATH"): our cgroup's path in
 * it, so the caps are made beside what we run in, not above it.
 */
static int own_cgroup(bool v2, char *path, size_t len)
{
	char line[PATH_MAX + 64];
	FILE *f = fopen("/proc/self/cgroup", "r");
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *p, *tok, *save;

		if (!ctl)
			continue;
		p = strchr(++ctl, ':');
		if (!p)
			continue;
		*p++ = '\0';
		p[strcspn(p, "\n")] = '\0';
		if (v2) {
			if (!*ctl)
				found = 0;
		} else {
			for (tok = strtok_r(ctl, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (!strcmp(tok, "cpu"))
					found = 0;
		}
		if (!found)
			snprintf(path, len, "%s", strcmp(p, "/") ? p : "");
	}
	fclose(f);
	return found;
}

/* Is the cpu controller available to children of @dir (v2)? */
static int v2_enable_cpu(const char *dir, char *why)
{
	char p[PATH_MAX], buf[512], *tok, *save;
	ssize_t n;
	int fd;

	if (cg_path(p, dir, "cgroup.subtree_control"))
		return hb_why(why, "%s: path too long", dir);
	fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return hb_why(why, "%s: %s", p, strerror(errno));
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	/* A space-separated list of controllers: "cpuset cpu io memory". */
	for (tok = strtok_r(buf, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save))
		if (!strcmp(tok, "cpu"))
			return 0;
	/*
	 * v2's "no internal processes" rule: a cgroup holding processes
	 * (ours, when we run in the root of a delegated tree) cannot pass
	 * controllers down; the root cgroup is exempt.
	 */
	if (write_file(p, "+cpu"))
		return hb_why(why, "%s: +cpu: %s (a cgroup that holds processes cannot enable controllers for its children: run the benchmark from a leaf cgroup's parent, e.g. systemd-run --scope)",
			      p, strerror(errno));
	return 0;
}

/* Makes @dir capped at @cpus CPUs. */
static int make_group(const char *dir, double cpus, char *why)
{
	long quota = (long)(cpus * CAP_PERIOD_US + 0.5);
	char p[PATH_MAX], v[64];

	if (mkdir(dir, 0755) && errno != EEXIST)
		return hb_why(why, "mkdir %s: %s", dir, strerror(errno));
	if (cap_v2) {
		if (cg_path(p, dir, "cpu.max"))
			return hb_why(why, "%s: path too long", dir);
		snprintf(v, sizeof(v), "%ld %d", quota, CAP_PERIOD_US);
		if (write_file(p, v))
			return hb_why(why, "%s: %s", p, strerror(errno));
		return 0;
	}
	if (cg_path(p, dir, "cpu.cfs_period_us"))
		return hb_why(why, "%s: path too long", dir);
	snprintf(v, sizeof(v), "%d", CAP_PERIOD_US);
	if (write_file(p, v))
		return hb_why(why, "%s: %s", p, strerror(errno));
	if (cg_path(p, dir, "cpu.cfs_quota_us"))
		return hb_why(why, "%s: path too long", dir);
	snprintf(v, sizeof(v), "%ld", quota);
	if (write_file(p, v))
		return hb_why(why, "%s: %s", p, strerror(errno));
	return 0;
}

int hb_cap_setup(const struct hb_opts *o, char *why)
{
	const char *v1 = "/sys/fs/cgroup/cpu", *v2 = "/sys/fs/cgroup";
	char own[PATH_MAX], base[PATH_MAX], p[PATH_MAX];
	static const char *const kind[2] = { "tlsxd", "nginx" };
	int k;

	if (o->server_cpu <= 0)
		return 0;
	snprintf(p, sizeof(p), "%s/cgroup.controllers", v2);
	cap_v2 = !access(p, F_OK);
	if (!cap_v2 && !is_dir(v1))
		return hb_why(why, "--server-cpu: no cgroup v2 at %s and no v1 cpu hierarchy at %s",
			      v2, v1);
	if (own_cgroup(cap_v2, own, sizeof(own)))
		return hb_why(why, "--server-cpu: our cgroup is not in /proc/self/cgroup");
	k = snprintf(base, sizeof(base), "%s%s", cap_v2 ? v2 : v1, own);
	if (k < 0 || k >= (int)sizeof(base) - 64)
		return hb_why(why, "--server-cpu: our cgroup's path is too long");
	if (cap_v2 && v2_enable_cpu(base, why))
		return -1;
	for (k = 0; k < 2; k++) {
		int n = snprintf(cap_dir[k], sizeof(cap_dir[k]),
				 "%s/tlsx-bench-%d-%s", base, (int)getpid(),
				 kind[k]);

		if (n < 0 || n >= (int)sizeof(cap_dir[k])) {
			*cap_dir[k] = '\0';
			hb_cap_remove();
			return hb_why(why, "--server-cpu: %s: path too long",
				      base);
		}
		if (make_group(cap_dir[k], o->server_cpu, why)) {
			hb_cap_remove();
			return -1;
		}
	}
	return 0;
}

const char *hb_cap_kind(void)
{
	return cap_v2 ? "cgroup v2 cpu.max" : "cgroup v1 cpu.cfs_quota_us";
}

int hb_cap_join(enum hb_kind kind)
{
	char p[PATH_MAX], v[32];

	if (!*cap_dir[kind])
		return 0;
	if (cg_path(p, cap_dir[kind], "cgroup.procs"))
		return -1;
	snprintf(v, sizeof(v), "%d", (int)getpid());
	return write_file(p, v);
}

int hb_cap_stat(enum hb_kind kind, unsigned long long *periods,
		unsigned long long *throttled)
{
	char p[PATH_MAX], line[128];
	unsigned long long v;
	FILE *f;
	int got = 0;

	if (!*cap_dir[kind])
		return -1;
	if (cg_path(p, cap_dir[kind], "cpu.stat"))
		return -1;
	f = fopen(p, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "nr_periods %llu", &v) == 1) {
			*periods = v;
			got |= 1;
		} else if (sscanf(line, "nr_throttled %llu", &v) == 1) {
			*throttled = v;
			got |= 2;
		}
	}
	fclose(f);
	return got == 3 ? 0 : -1;
}

void hb_cap_remove(void)
{
	int k, i;

	for (k = 0; k < 2; k++) {
		if (!*cap_dir[k])
			continue;
		/* nginx's workers may take a moment to leave after its master. */
		for (i = 0; i < 100 && rmdir(cap_dir[k]) && errno == EBUSY; i++)
			usleep(20000);
		*cap_dir[k] = '\0';
	}
}
