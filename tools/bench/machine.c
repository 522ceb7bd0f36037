// SPDX-License-Identifier: GPL-2.0
/*
 * machine.c - the line that says what a benchmark ran on: the CPU
 * (/proc/cpuinfo's model name, family and model of the first CPU), how
 * many CPUs were online and the load average, so that a figure can be
 * read against the machine and the other work on it.
 */
#include <stdio.h>
#include <unistd.h>

#include "bench.h"

void bench_print_machine(void)
{
	char line[256], name[128] = "?", fam[16] = "?", model[16] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");
	double l1 = 0, l5 = 0, l15 = 0;

	/* The first CPU's block ends at the first empty line. */
	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '\n')
			break;
		if (sscanf(line, "model name : %127[^\n]", name) == 1 ||
		    sscanf(line, "cpu family : %15s", fam) == 1 ||
		    sscanf(line, "model : %15s", model) == 1)
			continue;
	}
	if (f)
		fclose(f);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) != 3)
			l1 = l5 = l15 = 0;
		fclose(f);
	}
	printf("# %s, CPU family %s model %s, %ld CPUs online, load average %.2f %.2f %.2f\n",
	       name, fam, model, sysconf(_SC_NPROCESSORS_ONLN), l1, l5, l15);
}
