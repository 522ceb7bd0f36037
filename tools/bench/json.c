// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - --json FILE: one file that is a whole record of a run,
 *
 *	{"tool": "tlsx-bench", "mode": "crypto",
 *	 "machine": {"model_name": ..., "cpu_family": ..., "model": ...,
 *		     "cpus": N, "load_average": [1, 5, 15]},
 *	 "kernel": ..., "commit": ..., "date": ..., "command": [argv...],
 *	 "rows": [{field: value, ...}, ...],
 *	 "complete": true}
 *
 * written as the run goes (each row as it is measured, flushed), so a run
 * that is stopped leaves the rows it finished; "complete" is written only
 * at the end.  Numbers that are not finite (a side that failed) are null.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"

static void json_string(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_number(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.6g", v);
	else
		fputs("null", f);
}

FILE *bench_json_open(const char *path, const char *mode)
{
	struct bench_machine m;
	char **argv;
	int argc, i;
	FILE *f = fopen(path, "w");

	if (!f)
		return NULL;
	bench_machine_read(&m);
	fputs("{\"tool\": \"tlsx-bench\", \"mode\": ", f);
	json_string(f, mode);
	fputs(",\n \"machine\": {\"model_name\": ", f);
	json_string(f, m.model_name);
	fputs(", \"cpu_family\": ", f);
	json_string(f, m.family);
	fputs(", \"model\": ", f);
	json_string(f, m.model);
	fprintf(f, ", \"cpus\": %d, \"load_average\": [%.2f, %.2f, %.2f]},\n",
		m.cpus, m.load[0], m.load[1], m.load[2]);
	fputs(" \"kernel\": ", f);
	json_string(f, m.kernel);
	fputs(", \"commit\": ", f);
	json_string(f, m.commit);
	fputs(", \"date\": ", f);
	json_string(f, m.date);
	fputs(",\n \"command\": [", f);
	argc = bench_cmdline(&argv);
	for (i = 0; i < argc; i++) {
		if (i)
			fputs(", ", f);
		json_string(f, argv[i]);
	}
	fputs("],\n \"rows\": [", f);
	fflush(f);
	return f;
}

void bench_json_row(FILE *f, const struct bench_field *fields, size_t n,
		    unsigned long index)
{
	size_t i;

	fputs(index ? ",\n  {" : "\n  {", f);
	for (i = 0; i < n; i++) {
		if (i)
			fputs(", ", f);
		json_string(f, fields[i].key);
		fputs(": ", f);
		if (fields[i].str)
			json_string(f, fields[i].str);
		else
			json_number(f, fields[i].num);
	}
	fputc('}', f);
	fflush(f);
}

int bench_json_close(FILE *f, unsigned long rows)
{
	fprintf(f, "%s],\n \"complete\": true}\n", rows ? "\n " : "");
	return fclose(f) ? -1 : 0;
}
