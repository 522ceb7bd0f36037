/* SPDX-License-Identifier: GPL-2.0 */
/*
 * runconf.h - the configuration tlsxd runs with, built by one function
 * at start-up and on SIGHUP (main.c): the command line read (with its
 * --config FILE) and checked, on SIGHUP what needs a restart kept at its
 * running value; and struct site's settings taken from it.  An option
 * added to struct tlsxd_conf and conf.c's table reaches a reload with
 * nothing more to write; only one that needs a restart is named here
 * (runconf.c, keep_restart_only()).
 */
#ifndef TLSXD_RUNCONF_H
#define TLSXD_RUNCONF_H

#include <stdbool.h>
#include <stddef.h>

#include "conf.h"
#include "resp.h"

/* What the workers were sized for at start: a reload may not go over. */
struct runconf_sized {
	unsigned int max_conns;		/* the connection pool, the ring */
	unsigned int header_bytes_max;	/* the request buffers */
};

/*
 * Builds *@c from @argv (conf_init(), conf_parse_args(), @systemd: the
 * sockets systemd passed, conf_check()).  At start-up @run and @sized
 * are NULL.  On SIGHUP @run is the running configuration and @sized what
 * the workers were sized for: each setting that needs a restart is
 * logged ("SIGHUP: listen changed; restart tlsxd to apply") and its
 * running value kept in *@c, so that *@c is what runs after the swap.
 * Returns 0; 1 when --help or --version was printed; -1 with the
 * message in @err (*@c is then to be conf_free()d all the same).
 */
int runconf_build(struct tlsxd_conf *c, int argc, char **argv, bool systemd,
		  const struct tlsxd_conf *run,
		  const struct runconf_sized *sized, char *err, size_t errlen);

/*
 * What the workers read of @c through @s: the ranges bound, hidden
 * files, precompressed siblings, the added fields (which point into
 * @c: @s is valid while @c is).  Start-up and SIGHUP (while the workers
 * are paused) both call it.
 */
void runconf_site(struct site *s, const struct tlsxd_conf *c);

#endif
