/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlsx_aead.h - module-internal entry points around the AEAD engines.
 */
#ifndef TLSX_KMOD_AEAD_H
#define TLSX_KMOD_AEAD_H

/* Known-answer self-test of every engine this CPU has: 0 or -EIO. */
int tlsx_aead_module_init(void);

/* The debugfs directory for the selftests (debugfs_aead.c, tx_pages.c). */
int tlsx_debugfs_init(void);
void tlsx_debugfs_exit(void);

#endif /* TLSX_KMOD_AEAD_H */
