// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - tlsx-bogo-shim: the program BoringSSL's BoGo runner starts
 * for each test (docs/testing.md, "BoGo").  It parses the flags, then
 * runs the test's connections in order: the first, then -resume-count
 * resumptions, each with its own flags (-on-initial-, -on-resume-), a
 * client carrying its session from one to the next, a server its
 * ticket keys (one key file for the process).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "shim.h"

/* 80 bytes: one key in nginx's ticket key layout (tlsx.h). */
#define TICKET_KEY_FILE_LEN	80

#define TICKET_PATH_TEMPLATE	"/tmp/tlsx-bogo-ticket-XXXXXX"

/* mkstemp() fills it in: the key file's name, removed at exit. */
static char ticket_path[sizeof(TICKET_PATH_TEMPLATE)];

static void ticket_file_remove(void)
{
	unlink(ticket_path);
}

static int ticket_file_make(void)
{
	unsigned char key[TICKET_KEY_FILE_LEN];
	int fd, ok;

	memcpy(ticket_path, TICKET_PATH_TEMPLATE, sizeof(ticket_path));
	fd = mkstemp(ticket_path);
	if (fd < 0)
		return -1;
	atexit(ticket_file_remove);
	ok = getrandom(key, sizeof(key), 0) == sizeof(key) &&
	     write(fd, key, sizeof(key)) == sizeof(key);
	memset(key, 0, sizeof(key));
	close(fd);
	return ok ? 0 : -1;
}

/*
 * TLSX_BOGO_UNIMPLEMENTED=FILE: each unimplemented test's reason is
 * appended there too (the runner drops the shim's stderr for those), so
 * docs/testing.md's list by flag family can be made from a run.
 */
static int unimplemented(const char *why)
{
	const char *path = getenv("TLSX_BOGO_UNIMPLEMENTED");
	FILE *f = path ? fopen(path, "a") : NULL;

	if (f) {
		fprintf(f, "%s\n", why);
		fclose(f);
	}
	return SHIM_EXIT_UNIMPLEMENTED;
}

int main(int argc, char **argv)
{
	static struct shim_opts initial, resume, retry;
	static uint8_t sess[SHIM_SESSION_MAX];
	const char *flag = NULL;
	size_t sess_len = 0;
	int rc, i;

	/* The runner's first question: no split handshakes here. */
	if (argc == 2 && !strcmp(argv[1], "-is-handshaker-supported")) {
		printf("No\n");
		return 0;
	}
	rc = shim_parse_flags(argc, argv, &initial, &resume, &retry,
			      &flag);
	if (rc == SHIM_EXIT_UNIMPLEMENTED)
		return unimplemented(flag);
	if (rc)
		return rc;
	if (initial.server && ticket_file_make()) {
		perror("ticket key file");
		return SHIM_EXIT_FAIL;
	}
	for (i = 0; i <= initial.resume_count; i++) {
		const struct shim_opts *o = i ? &resume : &initial;
		struct tlsx_config *cfg;
		const char *why = "";
		bool unimpl;

		cfg = shim_config(o, ticket_path, &why, &unimpl);
		if (!cfg) {
			fprintf(stderr, "configuration: %s\n", why);
			return unimpl ? unimplemented(why) : SHIM_EXIT_FAIL;
		}
		rc = shim_connection(o, cfg, i > 0, sess, &sess_len);
		tlsx_config_free(cfg);
		if (rc)
			return SHIM_EXIT_FAIL;
	}
	return 0;
}
