/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_aead.h - module-internal entry points around the AEAD engines.
 */
#ifndef TLSX_KMOD_AEAD_H
#define TLSX_KMOD_AEAD_H

/* Known-answer self-test of every engine this CPU has: 0 or -EIO. */
int tlsx_aead_module_init(void);

/*
 * The debugfs directory for the selftests (debugfs_aead.c, and the files
 * of debugfs_read_sock.c and debugfs_tx_pages.c), in a test build only
 * (TLSX_TEST_HOOKS, see Kbuild).
 */
#ifdef TLSX_TEST_HOOKS
int tlsx_debugfs_init(void);
void tlsx_debugfs_exit(void);
#else
static inline int tlsx_debugfs_init(void)
{
	return 0;
}

static inline void tlsx_debugfs_exit(void)
{
}
#endif

#endif /* TLSX_KMOD_AEAD_H */
