// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_tx_pages.c - /sys/kernel/debug/tlsx/tx_pages: how many pages
 * the per-CPU rings of tx_pages.c hold, for the selftests
 * (selftests/tx_pages.c).  Test builds only (TLSX_TEST_HOOKS).
 */
#include <linux/debugfs.h>

#include "tlsx_context.h"

static int tlsx_tx_pages_get(void *data, u64 *val)
{
	*val = tlsx_tx_pages_held();
	return 0;
}
DEFINE_DEBUGFS_ATTRIBUTE(tlsx_tx_pages_fops, tlsx_tx_pages_get, NULL,
			 "%llu\n");

void tlsx_tx_pages_debugfs(struct dentry *dir)
{
	debugfs_create_file_unsafe("tx_pages", 0400, dir, NULL,
				   &tlsx_tx_pages_fops);
}
