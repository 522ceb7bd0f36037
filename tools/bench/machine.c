// SPDX-License-Identifier: GPL-2.0
/*
 * machine.c - what a figure needs beside it to mean anything: the CPU
 * (lscpu's "Model name", "CPU family" and "Model", read where lscpu
 * reads them, /proc/cpuinfo, so that it works in the VM's busybox root
 * too), the kernel (uname -r), the commit tlsx-bench was built from,
 * the date (UTC), the load average, and the command line.
 */
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>

#include "bench.h"

/* The Makefile defines it from `git describe --always --dirty`. */
#ifndef TLSX_BENCH_COMMIT
#define TLSX_BENCH_COMMIT "unknown"
#endif

static int cmd_argc;
static char **cmd_argv;

void bench_set_cmdline(int argc, char **argv)
{
	cmd_argc = argc;
	cmd_argv = argv;
}

int bench_cmdline(char ***argv)
{
	*argv = cmd_argv;
	return cmd_argc;
}

void bench_machine_read(struct bench_machine *m)
{
	char line[256];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;
	FILE *f;

	memset(m, 0, sizeof(*m));
	snprintf(m->model_name, sizeof(m->model_name), "unknown");
	snprintf(m->family, sizeof(m->family), "unknown");
	snprintf(m->model, sizeof(m->model), "unknown");
	f = fopen("/proc/cpuinfo", "r");
	/* The first processor's block: up to its blank line. */
	while (f && fgets(line, sizeof(line), f) && line[0] != '\n') {
		if (sscanf(line, "model name : %127[^\n]", m->model_name) == 1 ||
		    sscanf(line, "cpu family : %15s", m->family) == 1)
			continue;
		if (sscanf(line, "model : %15s", m->model) == 1)
			continue;
	}
	if (f)
		fclose(f);
	snprintf(m->kernel, sizeof(m->kernel), "%s",
		 uname(&u) ? "unknown" : u.release);
	snprintf(m->commit, sizeof(m->commit), "%s", TLSX_BENCH_COMMIT);
	gmtime_r(&now, &tm);
	strftime(m->date, sizeof(m->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &m->load[0], &m->load[1],
			   &m->load[2]) != 3)
			m->load[0] = m->load[1] = m->load[2] = 0;
		fclose(f);
	}
	m->cpus = 0;
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "processor", 9))
			m->cpus++;
	if (f)
		fclose(f);
}
