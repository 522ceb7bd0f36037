// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - one connection's life, the same for both programs: the
 * handshake, the report of what it negotiated, the KeyUpdate that
 * --key-update asks for, and the counters at the end; the program's
 * role comes in through struct tool_conn_ops.
 */
#include "tool.h"

/* The handshake, its facts, --key-update: 0, or 1 after the error. */
static int conn_start(const struct tool_opts *o, struct tlsx_conn *c)
{
	int rc = tool_handshake(o, c);

	if (rc != TLSX_DONE)
		return tool_conn_fail(c, "handshake", rc);
	tool_print_facts(o, c);
	if (o->key_update) {
		rc = tlsx_conn_key_update(c, true);
		if (rc)
			return tool_conn_fail(c, "--key-update", rc);
		tool_note(o, "KeyUpdate sent (update_requested)");
	}
	return 0;
}

int tool_conn_run(const struct tool_opts *o, struct tlsx_config *cfg, int fd,
		  const struct tool_conn_ops *ops, void *ctx)
{
	struct tlsx_conn *c = tlsx_conn_new(cfg, fd);
	int ret = 1;

	if (!c) {
		tool_err("connection: %s", *tlsx_config_error(cfg) ?
			 tlsx_config_error(cfg) : "out of memory");
		return 1;
	}
	if (ops->prepare && ops->prepare(ctx, c))
		goto out;
	if (conn_start(o, c))
		goto out;
	ret = ops->exchange(ctx, c);
	tool_print_counters(o, c);
	if (ops->finish)
		ret = ops->finish(ctx, c, ret);
out:
	tlsx_conn_free(c);
	return ret;
}
