// SPDX-License-Identifier: GPL-2.0
/*
 * opts.c - the options tlsx-client and tlsx-server share, turned into a
 * libtlsx configuration, and the one-line error messages.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "tool.h"

const char tool_common_help[] =
"  --ca FILE            trust anchors (PEM bundle or directory)\n"
"  --cert FILE --key FILE\n"
"                       a certificate chain (PEM, leaf first) and its key;\n"
"                       repeatable (the Nth --key is the Nth --cert's)\n"
"  --alpn LIST          ALPN protocols, comma-separated (\"h2,http/1.1\")\n"
"  --suites LIST        cipher suites, ':'-separated, in preference order\n"
"  --groups LIST        groups (X25519MLKEM768, X25519, P-256,\n"
"                       SecP256r1MLKEM768), in preference order\n"
"  --key-shares N       client: key shares sent, 1 or 2 (default: 2\n"
"                       when the first group is a hybrid, else 1)\n"
"  --sigalgs LIST       signature schemes (RFC 8446 names)\n"
"  --record-layer L     tlsx, tls or user (default: the first that works)\n"
"  --record-size-limit N  announce RFC 8449 record_size_limit N\n"
"  --psk-ke             allow resumption without (EC)DHE (psk_ke); a\n"
"                       server still takes psk_dhe_ke when offered\n"
"  --prefer-psk-ke      server, with --psk-ke: take psk_ke even when\n"
"                       the client also offers psk_dhe_ke\n"
"  --key-update         send a KeyUpdate (update_requested) after the\n"
"                       handshake\n"
"  --interactive        a stdin line \"k\" sends a KeyUpdate, \"K\" one that\n"
"                       asks the peer for its own, \"Q\" closes; other\n"
"                       lines are sent as they are\n"
"  --timeout S          the handshake must end within S seconds and the\n"
"                       connection may be idle at most S seconds\n"
"  --quiet              do not print the negotiated parameters\n"
"  --help               this text\n";

const char *tool_name = "tlsx";

static const struct option common_longopts[] = {
	{ "ca", required_argument, NULL, OPT_CA },
	{ "alpn", required_argument, NULL, OPT_ALPN },
	{ "suites", required_argument, NULL, OPT_SUITES },
	{ "groups", required_argument, NULL, OPT_GROUPS },
	{ "sigalgs", required_argument, NULL, OPT_SIGALGS },
	{ "record-layer", required_argument, NULL, OPT_RECORD_LAYER },
	{ "key-shares", required_argument, NULL, OPT_KEY_SHARES },
	{ "record-size-limit", required_argument, NULL,
	  OPT_RECORD_SIZE_LIMIT },
	{ "key-update", no_argument, NULL, OPT_KEY_UPDATE },
	{ "interactive", no_argument, NULL, OPT_INTERACTIVE },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "psk-ke", no_argument, NULL, OPT_PSK_KE },
	{ "prefer-psk-ke", no_argument, NULL, OPT_PREFER_PSK_KE },
	{ "cert", required_argument, NULL, OPT_CERT },
	{ "key", required_argument, NULL, OPT_KEY },
	{ "help", no_argument, NULL, 'h' },
};

/*
 * The long options above followed by @own in one table for
 * getopt_long(); NULL when out of memory.
 */
static struct option *tool_longopts(const struct option *own)
{
	size_t n = 0, i;
	struct option *all;

	while (own[n].name)
		n++;
	all = calloc(ARRAY_SIZE(common_longopts) + n + 1, sizeof(*all));
	if (!all)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(common_longopts); i++)
		all[i] = common_longopts[i];
	for (i = 0; i < n; i++)
		all[ARRAY_SIZE(common_longopts) + i] = own[i];
	return all;
}

void tool_err(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", tool_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void tool_note(const struct tool_opts *o, const char *fmt, ...)
{
	va_list ap;

	if (o->quiet)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int parse_uint(const char *arg, unsigned long max, unsigned int *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v > max || arg[0] == '-')
		return -1;
	*out = v;
	return 0;
}

static int parse_record_layer(const char *arg, enum tlsx_record_layer *rl)
{
	static const struct {
		const char *name;
		enum tlsx_record_layer rl;
	} names[] = {
		{ "auto", TLSX_RL_AUTO },
		{ "tlsx", TLSX_RL_TLSX },
		{ "tls", TLSX_RL_TLS },
		{ "user", TLSX_RL_USER },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strcasecmp(arg, names[i].name)) {
			*rl = names[i].rl;
			return 0;
		}
	}
	return -1;
}

int tool_common_opt(struct tool_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_CA:
		o->ca = arg;
		return 1;
	case OPT_ALPN:
		o->alpn = arg;
		return 1;
	case OPT_SUITES:
		o->suites = arg;
		return 1;
	case OPT_GROUPS:
		o->groups = arg;
		return 1;
	case OPT_SIGALGS:
		o->sigalgs = arg;
		return 1;
	case OPT_RECORD_LAYER:
		if (parse_record_layer(arg, &o->record_layer)) {
			tool_err("--record-layer: \"%s\" is not tlsx, tls or user",
				 arg);
			return -1;
		}
		return 1;
	case OPT_KEY_SHARES:
		if (strcmp(arg, "1") && strcmp(arg, "2")) {
			tool_err("--key-shares: \"%s\" is not 1 or 2", arg);
			return -1;
		}
		o->key_shares = arg[0] - '0';
		return 1;
	case OPT_RECORD_SIZE_LIMIT:
		if (parse_uint(arg, 16385, &o->record_size_limit) ||
		    o->record_size_limit < 64) {
			tool_err("--record-size-limit: \"%s\" is not 64..16385",
				 arg);
			return -1;
		}
		return 1;
	case OPT_TIMEOUT:
		if (parse_uint(arg, 86400, &o->timeout)) {
			tool_err("--timeout: \"%s\" is not a number of seconds",
				 arg);
			return -1;
		}
		return 1;
	case OPT_KEY_UPDATE:
		o->key_update = true;
		return 1;
	case OPT_INTERACTIVE:
		o->interactive = true;
		return 1;
	case OPT_QUIET:
		o->quiet = true;
		return 1;
	case OPT_PSK_KE:
		o->psk_ke = true;
		return 1;
	case OPT_PREFER_PSK_KE:
		o->prefer_psk_ke = true;
		return 1;
	case OPT_CERT:
	case OPT_KEY:
		if ((opt == OPT_CERT ? o->n_cert : o->n_key) >= TOOL_MAX_CERTS) {
			tool_err("at most %d --cert/--key pairs", TOOL_MAX_CERTS);
			return -1;
		}
		if (opt == OPT_CERT)
			o->cert[o->n_cert++] = arg;
		else
			o->key[o->n_key++] = arg;
		return 1;
	}
	return 0;
}

static int parse_opts(struct tool_opts *o, int argc, char **argv,
		      const struct option *longopts,
		      int (*own_opt)(void *ctx, int opt, const char *arg),
		      void *ctx, void (*help)(FILE *f))
{
	int opt, r;

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		r = tool_common_opt(o, opt, optarg);
		if (r < 0)
			return 1;
		if (r)
			continue;
		if (opt == 'h')
			return 2;
		/* getopt_long() said what was wrong: add the help. */
		if (opt == '?') {
			help(stderr);
			return 1;
		}
		if (own_opt(ctx, opt, optarg))
			return 1;
	}
	return 0;
}

int tool_parse_args(struct tool_opts *o, int argc, char **argv,
		    const struct option *own,
		    int (*own_opt)(void *ctx, int opt, const char *arg),
		    void *ctx, void (*help)(FILE *f))
{
	struct option *longopts = tool_longopts(own);
	int ret;

	if (!longopts) {
		tool_err("out of memory");
		return 1;
	}
	ret = parse_opts(o, argc, argv, longopts, own_opt, ctx, help);
	free(longopts);
	if (ret == 2)
		help(stdout);
	return ret;
}

/* A failed setter: its message, or the result's name. */
static int cfg_fail(struct tlsx_config *cfg, const char *what, int rc)
{
	const char *msg = tlsx_config_error(cfg);

	tool_err("%s: %s", what, *msg ? msg : tlsx_strerror(rc));
	return 1;
}

/* The options above into @cfg: 0, or 1 after printing the error. */
static int configure(struct tlsx_config *cfg, const struct tool_opts *o)
{
	unsigned int i;
	int rc;

	/* The Nth --key is the Nth --cert's; the first left over is named. */
	if (o->n_cert > o->n_key) {
		tool_err("--cert %s has no --key (%u --cert, %u --key)",
			 o->cert[o->n_key], o->n_cert, o->n_key);
		return 1;
	}
	if (o->n_key > o->n_cert) {
		tool_err("--key %s has no --cert (%u --cert, %u --key)",
			 o->key[o->n_cert], o->n_cert, o->n_key);
		return 1;
	}
	for (i = 0; i < o->n_cert; i++) {
		rc = tlsx_config_add_cert(cfg, o->cert[i], o->key[i]);
		if (rc)
			return cfg_fail(cfg, "--cert/--key", rc);
	}
	if (o->ca) {
		rc = tlsx_config_set_trust(cfg, o->ca);
		if (rc)
			return cfg_fail(cfg, "--ca", rc);
	}
	if (o->alpn) {
		rc = tlsx_config_set_alpn(cfg, o->alpn);
		if (rc)
			return cfg_fail(cfg, "--alpn", rc);
	}
	if (o->suites) {
		rc = tlsx_config_set_suites(cfg, o->suites);
		if (rc)
			return cfg_fail(cfg, "--suites", rc);
	}
	if (o->groups) {
		rc = tlsx_config_set_groups(cfg, o->groups);
		if (rc)
			return cfg_fail(cfg, "--groups", rc);
	}
	if (o->sigalgs) {
		rc = tlsx_config_set_sig_schemes(cfg, o->sigalgs);
		if (rc)
			return cfg_fail(cfg, "--sigalgs", rc);
	}
	rc = tlsx_config_set_record_layer(cfg, o->record_layer);
	if (rc)
		return cfg_fail(cfg, "--record-layer", rc);
	if (o->key_shares > 0) {
		rc = tlsx_config_set_key_shares(cfg, (unsigned int)o->key_shares);
		if (rc)
			return cfg_fail(cfg, "--key-shares", rc);
	}
	if (o->record_size_limit) {
		rc = tlsx_config_set_record_size_limit(cfg,
						       o->record_size_limit);
		if (rc)
			return cfg_fail(cfg, "--record-size-limit", rc);
	}
	if (o->psk_ke) {
		rc = tlsx_config_set_psk_ke(cfg, true);
		if (rc)
			return cfg_fail(cfg, "--psk-ke", rc);
	}
	if (o->prefer_psk_ke) {
		rc = tlsx_config_prefer_psk_ke(cfg, true);
		if (rc)
			return cfg_fail(cfg, "--prefer-psk-ke", rc);
	}
	return 0;
}

struct tlsx_config *tool_config(enum tlsx_role role, const struct tool_opts *o,
				int (*own)(void *ctx, struct tlsx_config *cfg),
				void *ctx)
{
	struct tlsx_config *cfg = tlsx_config_new(role);
	int rc;

	if (!cfg) {
		tool_err("out of memory");
		return NULL;
	}
	if (configure(cfg, o) || own(ctx, cfg))
		goto bad;
	rc = tlsx_config_freeze(cfg);
	if (rc) {
		tool_err("configuration: %s", *tlsx_config_error(cfg) ?
			 tlsx_config_error(cfg) : tlsx_strerror(rc));
		goto bad;
	}
	return cfg;
bad:
	tlsx_config_free(cfg);
	return NULL;
}

int tool_conn_fail(const struct tlsx_conn *c, const char *what, int rc)
{
	int alert = c ? tlsx_conn_alert(c) : -1;
	const char *name = alert >= 0 ? tlsx_alert_string(alert) : NULL;
	int err = c ? tlsx_conn_errno(c) : 0;
	const char *why = c ? tlsx_conn_reason(c) : NULL;

	switch (rc) {
	case TOOL_E_TIMEOUT:
		tool_err("%s: timed out (--timeout)", what);
		break;
	case TLSX_E_CERT:
		tool_err("%s: certificate refused: %s%s%s", what,
			 name ? name : "(no alert)", why ? ": " : "",
			 why ? why : "");
		break;
	case TLSX_E_ALERT_SENT:
		if (why)
			tool_err("%s: %s: sent alert %s", what, why,
				 name ? name : "(unknown)");
		else
			tool_err("%s: peer broke the protocol: sent alert %s",
				 what, name ? name : "(unknown)");
		break;
	case TLSX_E_ALERT_RECEIVED:
		if (name)
			tool_err("%s: peer sent alert %s", what, name);
		else
			tool_err("%s: peer sent alert %d", what, alert);
		break;
	case TLSX_E_RECORD_LAYER:
		tool_err("%s: the --record-layer asked for is unavailable%s%s",
			 what, err ? ": " : "", err ? strerror(err) : "");
		break;
	case TLSX_E_SYSCALL:
		tool_err("%s: %s", what, err ? strerror(err) : "system call failed");
		break;
	default:
		tool_err("%s: %s%s%s", what, tlsx_strerror(rc),
			 why ? ": " : "", why ? why : "");
		break;
	}
	return 1;
}

static char deadline_msg[160];

/* Only async-signal-safe calls here: the message was made before. */
static void on_alarm(int sig)
{
	(void)sig;
	if (write(STDERR_FILENO, deadline_msg, strlen(deadline_msg)) < 0)
		_exit(1);
	_exit(1);
}

void tool_deadline(unsigned int seconds, const char *what)
{
	struct sigaction sa;

	snprintf(deadline_msg, sizeof(deadline_msg),
		 "%s: %s: timed out after %u s\n", tool_name, what, seconds);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(seconds);
}
