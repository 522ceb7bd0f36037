// SPDX-License-Identifier: GPL-2.0
/*
 * flags.c - the BoGo runner's flags into struct shim_opts: one table,
 * one row per flag the shim implements (name, kind, field).  A flag not
 * in the table is unimplemented: the runner counts exit 89 as such
 * (PORTING.md, "Unimplemented Features"), so it never passes silently.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

enum flag_kind { F_BOOL, F_INT, F_STR, F_INTVEC };

struct flag_row {
	const char *name;
	enum flag_kind kind;
	size_t off;
};

#define ROW(n, k, field) { n, k, offsetof(struct shim_opts, field) }

static const struct flag_row flag_rows[] = {
	ROW("-port", F_INT, port),
	ROW("-ipv6", F_BOOL, ipv6),
	ROW("-shim-id", F_INT, shim_id),
	ROW("-server", F_BOOL, server),
	ROW("-resume-count", F_INT, resume_count),
	ROW("-async", F_BOOL, async),
	ROW("-min-version", F_INT, min_version),
	ROW("-max-version", F_INT, max_version),
	ROW("-expect-version", F_INT, expect_version),
	ROW("-no-tls13", F_BOOL, no_tls13),
	ROW("-no-tls12", F_BOOL, no_tls12),
	ROW("-no-tls11", F_BOOL, no_tls11),
	ROW("-no-tls1", F_BOOL, no_tls1),
	ROW("-curves", F_INTVEC, curves),
	ROW("-signing-prefs", F_INTVEC, signing_prefs),
	ROW("-verify-prefs", F_INTVEC, verify_prefs),
	ROW("-cert-file", F_STR, cert_file),
	ROW("-key-file", F_STR, key_file),
	ROW("-trust-cert", F_STR, trust_cert),
	ROW("-verify-peer", F_BOOL, verify_peer),
	ROW("-require-any-client-certificate", F_BOOL,
	    require_any_client_cert),
	ROW("-host-name", F_STR, host_name),
	ROW("-advertise-alpn", F_STR, advertise_alpn),
	ROW("-select-alpn", F_STR, select_alpn),
	ROW("-decline-alpn", F_BOOL, decline_alpn),
	ROW("-no-ticket", F_BOOL, no_ticket),
	ROW("-key-update", F_BOOL, key_update),
	ROW("-max-cert-list", F_INT, max_cert_list),
	ROW("-shim-writes-first", F_BOOL, shim_writes_first),
	ROW("-shim-shuts-down", F_BOOL, shim_shuts_down),
	ROW("-check-close-notify", F_BOOL, check_close_notify),
	ROW("-implicit-handshake", F_BOOL, implicit_handshake),
	ROW("-read-size", F_INT, read_size),
	ROW("-expect-curve-id", F_INT, expect_curve_id),
	ROW("-expect-cipher", F_INT, expect_cipher),
	ROW("-expect-peer-signature-algorithm", F_INT, expect_peer_sig_alg),
	ROW("-expect-alpn", F_STR, expect_alpn),
	ROW("-expect-server-name", F_STR, expect_server_name),
	ROW("-expect-peer-cert-file", F_STR, expect_peer_cert_file),
	ROW("-expect-session-miss", F_BOOL, expect_session_miss),
	ROW("-expect-no-session", F_BOOL, expect_no_session),
	ROW("-expect-hrr", F_BOOL, expect_hrr),
	ROW("-expect-no-hrr", F_BOOL, expect_no_hrr),
	ROW("-expect-verify-result", F_BOOL, expect_verify_result),
};

static const struct flag_row *flag_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(flag_rows); i++)
		if (!strcmp(flag_rows[i].name, name))
			return &flag_rows[i];
	return NULL;
}

/* Strips "@prefix" when @s starts with it and a '-' follows. */
static bool strip_prefix(const char **s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (strncmp(*s, prefix, n) || (*s)[n] != '-')
		return false;
	*s += n;
	return true;
}

static int set_one(const struct flag_row *f, struct shim_opts *o,
		   const char *param)
{
	char *field = (char *)o + f->off;
	struct shim_intvec *vec;
	char *end;
	long v;

	switch (f->kind) {
	case F_BOOL:
		*(bool *)field = true;
		return 0;
	case F_STR:
		*(char **)field = (char *)param;
		return 0;
	case F_INT:
	case F_INTVEC:
		v = strtol(param, &end, 10);
		if (!*param || *end)
			return -1;
		if (f->kind == F_INT) {
			*(int *)field = (int)v;
			return 0;
		}
		vec = (struct shim_intvec *)field;
		if (vec->n == SHIM_VEC_MAX)
			return -1;
		vec->v[vec->n++] = (int)v;
		return 0;
	}
	return -1;
}

int shim_parse_flags(int argc, char **argv, struct shim_opts *initial,
		     struct shim_opts *resume, struct shim_opts *retry,
		     const char **unknown)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *name = argv[i], *param = NULL;
		struct shim_opts *only = NULL;
		const struct flag_row *f;
		bool skip = false;

		/* -on-shim- applies here; -on-handshaker- does not. */
		if (!strip_prefix(&name, "-on-shim") &&
		    strip_prefix(&name, "-on-handshaker"))
			skip = true;
		if (strip_prefix(&name, "-on-initial"))
			only = initial;
		else if (strip_prefix(&name, "-on-resume"))
			only = resume;
		else if (strip_prefix(&name, "-on-retry"))
			only = retry;

		f = flag_find(name);
		if (!f) {
			fprintf(stderr, "unimplemented flag: %s\n", name);
			*unknown = name;
			return SHIM_EXIT_UNIMPLEMENTED;
		}
		if (f->kind != F_BOOL) {
			if (++i >= argc) {
				fprintf(stderr, "no value for %s\n", name);
				return SHIM_EXIT_FAIL;
			}
			param = argv[i];
		}
		if (skip)
			continue;
		if ((only && set_one(f, only, param)) ||
		    (!only && (set_one(f, initial, param) ||
			       set_one(f, resume, param) ||
			       set_one(f, retry, param)))) {
			fprintf(stderr, "bad value for %s: %s\n", name, param);
			return SHIM_EXIT_FAIL;
		}
	}
	return 0;
}
