/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * tlsx_uapi.h - the numbers of tlsx.ko's socket API that the system's
 * <linux/tls.h> may not have yet.  tlsx.ko's uAPI is kTLS's, and these
 * are kTLS's own numbers from the kernel that added them: one definition
 * for the module (kmod/compat.h), the selftests, libtlsx and the
 * benchmarks (as the debugfs *_abi.h files are shared).  Where the
 * system's header has a number it wins: it is included first, and each
 * definition here stands only where it left a gap.
 */
#ifndef TLSX_UAPI_H
#define TLSX_UAPI_H

#include <linux/tls.h>

/*
 * SOL_TLS option: the most plaintext per record the sender may put in a
 * data or control record, a u16 (6.19; RFC 8449's record_size_limit).
 */
#ifndef TLS_TX_MAX_PAYLOAD_LEN
#define TLS_TX_MAX_PAYLOAD_LEN	5
#endif

/*
 * Its inet_diag attribute, 6.19's TLS_INFO_TX_MAX_PAYLOAD_LEN: an enum
 * constant there, which the preprocessor cannot test for, so ours has
 * its own name and 6.19's value, the one after TLS_INFO_RX_NO_PAD.
 */
#define TLSX_INFO_TX_MAX_PAYLOAD_LEN	(TLS_INFO_RX_NO_PAD + 1)

#endif /* TLSX_UAPI_H */
