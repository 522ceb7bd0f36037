// SPDX-License-Identifier: GPL-2.0
/*
 * conn_layer.c - which functions serve which record layer: the tables
 * conn.c calls through (struct conn_rl_ops, conn_priv.h), and the choice
 * of one at the handoff (conn_hs.c).  The one place in tlsxd that asks
 * which layer runs.
 *
 * Four ways of moving bytes:
 *
 *   tlsx       the kernel seals and opens (tlsx.ko): bodies by sendfile
 *              or splice past libtlsx, requests by the ring's receive;
 *   tls        the same on the kernel's tls, which cannot change keys:
 *              keep-alive ends before the sending key's record limit;
 *   sized      a kernel mode with a peer's record_size_limit (RFC 8449
 *              4) the kernel does not cut records to (6.1's and 6.12's
 *              tls; tlsx.ko does, and stays "tlsx"): sending through
 *              tlsx_write()/tlsx_sendfile(), receiving as the kernel
 *              modes do;
 *   user       libtlsx's userspace record layer, both ways.
 */
#include "conn_priv.h"

static bool never(const struct conn *c __attribute__((unused)))
{
	return false;
}

static bool always(const struct conn *c __attribute__((unused)))
{
	return true;
}

/* What the kernel sealed is the socket's: nothing is held to push. */
static enum step nothing_held(struct loop *lp __attribute__((unused)),
			      struct conn *c __attribute__((unused)))
{
	return STEP_PROGRESS;
}

/* The layer changes keys when due (tlsx, libtlsx): no plan needed. */
static enum key_plan key_fits(struct conn *c __attribute__((unused)))
{
	return KEY_FITS;
}

static enum key_plan records_fit(struct conn *c __attribute__((unused)),
				 uint64_t due __attribute__((unused)),
				 uint64_t need __attribute__((unused)))
{
	return KEY_FITS;
}

static enum stat_id body_user(const struct loop *lp __attribute__((unused)))
{
	return STAT_BODY_USER;
}

static void user_wait_input(struct loop *lp, struct conn *c)
{
	conn_poll(lp, c, false);
}

const struct conn_rl_ops conn_layers[CONN_LAYERS] = {
	[CONN_LAYER_TLSX] = {
		.wait_input = conn_kernel_wait_input,
		.input_kept = never,
		.read_again = always,
		.read_at_handoff = false,
		.tx_past_libtlsx = true,
		.send = conn_kernel_send,
		.send_end = nothing_held,
		.key_plan = key_fits,
		.key_plan_records = records_fit,
		.body_stat = conn_kernel_body_stat,
	},
	[CONN_LAYER_TLS] = {
		.wait_input = conn_kernel_wait_input,
		.input_kept = never,
		.read_again = always,
		.read_at_handoff = false,
		.tx_past_libtlsx = true,
		.send = conn_kernel_send,
		.send_end = nothing_held,
		.key_plan = conn_kernel_key_plan,
		.key_plan_records = conn_kernel_key_plan_records,
		.body_stat = conn_kernel_body_stat,
	},
	[CONN_LAYER_SIZED] = {
		.wait_input = conn_kernel_wait_input,
		.input_kept = never,
		.read_again = always,
		.read_at_handoff = false,
		.tx_past_libtlsx = false,
		.send = conn_user_send,
		.send_end = nothing_held,
		.key_plan = key_fits,
		.key_plan_records = records_fit,
		.body_stat = body_user,
	},
	[CONN_LAYER_USER] = {
		.wait_input = user_wait_input,
		.input_kept = conn_user_input_kept,
		.read_again = conn_user_input_kept,
		.read_at_handoff = true,
		.tx_past_libtlsx = false,
		.h2_turns = true,
		.send = conn_user_send,
		.send_end = conn_user_flush,
		.key_plan = key_fits,
		.key_plan_records = records_fit,
		.body_stat = body_user,
	},
};

enum conn_layer conn_layer_of(enum tlsx_record_layer rl, bool libtlsx_cuts)
{
	if (rl == TLSX_RL_USER)
		return CONN_LAYER_USER;
	if (libtlsx_cuts)
		return CONN_LAYER_SIZED;
	return rl == TLSX_RL_TLS ? CONN_LAYER_TLS : CONN_LAYER_TLSX;
}
