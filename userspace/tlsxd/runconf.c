// SPDX-License-Identifier: GPL-2.0
/*
 * runconf.c - the configuration tlsxd runs with (runconf.h): one path
 * for start-up and SIGHUP, so that a reload cannot forget an option.
 * What a reload cannot change is decided here, in
 * keep_restart_only(), and listed in docs/tlsxd-config.md
 * ("Reloading").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "log.h"
#include "runconf.h"

/*
 * Whether two --listen lists name the same addresses, in any order, each
 * with the same PROXY protocol setting.
 */
static bool same_listen(const struct tlsxd_conf *a, const struct tlsxd_conf *b)
{
	struct sockaddr_storage x, y;
	socklen_t xl, yl;
	unsigned int i, j;
	char msg[8];

	if (a->nlisten != b->nlisten)
		return false;
	for (i = 0; i < a->nlisten; i++) {
		if (conf_parse_listen(a->listen[i], &x, &xl, msg, sizeof(msg)))
			return false;
		for (j = 0; j < b->nlisten; j++)
			if (!conf_parse_listen(b->listen[j], &y, &yl, msg,
					       sizeof(msg)) &&
			    xl == yl && !memcmp(&x, &y, xl) &&
			    !(a->listen_proxy >> i & 1) ==
			    !(b->listen_proxy >> j & 1))
				break;
		if (j == b->nlisten)
			return false;
	}
	return true;
}

/* *@dst becomes a copy of @run (the running value); false: no memory. */
static bool keep_str(char **dst, const char *run)
{
	char *dup = run ? strdup(run) : NULL;

	if (run && !dup)
		return false;
	free(*dst);
	*dst = dup;
	return true;
}

static void restart_needed(const char *what)
{
	log_msg(LOG_WARN, "SIGHUP: %s changed; restart tlsxd to apply", what);
}

/*
 * What a SIGHUP cannot change without dropping connections or the
 * privileges it would need: the sockets (listen, and the workers that
 * each own theirs), --user, the pid file, the body path and the open-file
 * cache's size (both set up per worker at start), and limits over what
 * the workers were sized for at start (the connection pool and the ring
 * by --max-conns, the request buffers by --max-header-bytes).  Each is
 * logged and the running value kept in @nc, so that *@nc is what runs.
 * false when out of memory.
 */
static bool keep_restart_only(struct tlsxd_conf *nc,
			      const struct tlsxd_conf *run,
			      const struct runconf_sized *sized)
{
	unsigned int i;
	bool ok = true;

	if (!run->systemd && !same_listen(nc, run)) {
		restart_needed("listen");
		for (i = 0; i < nc->nlisten; i++)
			free(nc->listen[i]);
		for (i = 0; i < run->nlisten; i++) {
			nc->listen[i] = strdup(run->listen[i]);
			ok = ok && nc->listen[i];
		}
		nc->nlisten = run->nlisten;
		nc->listen_proxy = run->listen_proxy;
	}
	if (!conf_same_str(nc->metrics, run->metrics)) {
		/* The metrics thread and its socket exist from the start. */
		restart_needed("metrics");
		ok = ok && keep_str(&nc->metrics, run->metrics);
	}
	if (nc->workers != run->workers) {
		restart_needed("workers");
		nc->workers = run->workers;
	}
	if (!conf_same_str(nc->user, run->user)) {
		restart_needed("user");
		ok = ok && keep_str(&nc->user, run->user);
	}
	if (!conf_same_str(nc->pid_file, run->pid_file)) {
		restart_needed("pid-file");
		ok = ok && keep_str(&nc->pid_file, run->pid_file);
	}
	if (!nc->access_log != !run->access_log) {
		/* Each worker's buffer is set up at start, or not. */
		restart_needed(run->access_log ? "access-log off" :
			       "access-log on");
		ok = ok && keep_str(&nc->access_log, run->access_log);
	}
	if (nc->body != run->body) {
		restart_needed("body");
		nc->body = run->body;
	}
	if (nc->open_file_cache != run->open_file_cache) {
		restart_needed("open-file-cache");
		nc->open_file_cache = run->open_file_cache;
	}
	if (nc->max_conns > sized->max_conns) {
		log_msg(LOG_WARN, "SIGHUP: max-conns %u is over the %u tlsxd started with; restart tlsxd to apply (%u kept)",
			nc->max_conns, sized->max_conns, run->max_conns);
		nc->max_conns = run->max_conns;
	}
	if (nc->http.header_bytes_max > sized->header_bytes_max) {
		log_msg(LOG_WARN, "SIGHUP: max-header-bytes %u is over the %u tlsxd started with; restart tlsxd to apply (%u kept)",
			nc->http.header_bytes_max, sized->header_bytes_max,
			run->http.header_bytes_max);
		nc->http.header_bytes_max = run->http.header_bytes_max;
		if (nc->http.request_line_max > nc->http.header_bytes_max)
			nc->http.request_line_max = run->http.request_line_max;
	}
	return ok;
}

int runconf_build(struct tlsxd_conf *c, int argc, char **argv, bool systemd,
		  const struct tlsxd_conf *run,
		  const struct runconf_sized *sized, char *err, size_t errlen)
{
	int r;

	conf_init(c);
	r = conf_parse_args(c, argc, argv, err, errlen);
	if (r)
		return r;
	c->systemd = systemd;
	if (conf_check(c, err, errlen))
		return -1;
	if (run && !keep_restart_only(c, run, sized)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

void runconf_site(struct site *s, const struct tlsxd_conf *c)
{
	s->ranges_max = c->ranges_max;
	s->allow_hidden = c->allow_hidden;
	s->precompressed = c->precompressed;
	s->headers = c->headers;
	s->nheaders = c->nheaders;
}
