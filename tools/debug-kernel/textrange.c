// SPDX-License-Identifier: GPL-2.0
/*
 * textrange.c - print "START END" (hex) bounding the code of a loaded
 * module, for the fault injector's stack-trace filter (require-start,
 * require-end): an allocation is failed only when the module's code is
 * on the stack, i.e. it was made by the module or on its behalf.
 *
 *	textrange [MODULE]	(default tlsx; run as root in the guest)
 *
 * The start is the lowest address of the module's text symbols in
 * /proc/kallsyms.  Its last function's length is not published, so the
 * end is the first address above the module's last text symbol that
 * belongs to anything else (another symbol, or another section of the
 * module), and at most 64 KiB beyond that symbol.  Static so it runs in
 * the busybox guest; 64-bit arithmetic is why it is not a shell script.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>

#define SLACK	0x10000ULL

int main(int argc, char **argv)
{
	const char *mod = argc > 1 ? argv[1] : "tlsx";
	unsigned long long a, lo = ~0ULL, hi = 0, end;
	char type, name[512], owner[128], line[1024], tag[160], path[300];
	struct dirent *de;
	FILE *f;
	DIR *d;

	snprintf(tag, sizeof(tag), "[%s]", mod);
	f = fopen("/proc/kallsyms", "r");
	if (!f) {
		perror("/proc/kallsyms");
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		owner[0] = 0;
		if (sscanf(line, "%llx %c %511s %127s", &a, &type, name,
			   owner) < 3)
			continue;
		if (strcmp(owner, tag) || (type != 't' && type != 'T'))
			continue;
		if (a < lo)
			lo = a;
		if (a > hi)
			hi = a;
	}
	if (!hi || !lo) {
		fprintf(stderr, "textrange: no text symbols of %s\n", mod);
		return 1;
	}
	end = hi + SLACK;
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		owner[0] = 0;
		if (sscanf(line, "%llx %c %511s %127s", &a, &type, name,
			   owner) < 3)
			continue;
		if (!strcmp(owner, tag) && (type == 't' || type == 'T'))
			continue;
		if (a > hi && a < end)
			end = a;
	}
	fclose(f);

	/* The module's other sections (rodata, data) bound it too. */
	snprintf(path, sizeof(path), "/sys/module/%s/sections", mod);
	d = opendir(path);
	while (d && (de = readdir(d))) {
		if (de->d_name[0] != '.' || !strncmp(de->d_name, ".text", 5) ||
		    !strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "/sys/module/%s/sections/%s",
			 mod, de->d_name);
		f = fopen(path, "r");
		if (f && fscanf(f, "%llx", &a) == 1 && a > hi && a < end)
			end = a;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	printf("0x%llx 0x%llx\n", lo, end);
	return 0;
}
