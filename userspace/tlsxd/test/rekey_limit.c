// SPDX-License-Identifier: GPL-2.0
/*
 * rekey_limit.c - linked into the test builds tlsxd-rekey and
 * tlsxd-static-rekey only (Makefile: -Wl,--wrap=tlsx_config_freeze):
 * every configuration tlsxd freezes gets a sending key limit of
 * TLSXD_TEST_REKEY_LIMIT records instead of the suite's (RFC 8446 5.5:
 * 2^24 for AES-GCM), so that a test crosses it within a few megabytes.
 * The daemon's sources have no seam for it.
 */
#include "handshake/libtlsx/tlsx.h"

int __real_tlsx_config_freeze(struct tlsx_config *cfg);

int __wrap_tlsx_config_freeze(struct tlsx_config *cfg)
{
	int r = tlsx_config_set_rekey_limit(cfg, TLSXD_TEST_REKEY_LIMIT);

	return r ? r : __real_tlsx_config_freeze(cfg);
}
