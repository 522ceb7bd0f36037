/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs_read_sock_abi.h - requests to /sys/kernel/debug/tlsx/read_sock,
 * which calls sock->ops->read_sock on a socket of the calling process
 * as an in-kernel reader (nvme-tcp) does, socket locked around the call,
 * with an actor that copies what it is offered.  The selftests use it on
 * tlsx and on the kernel's tls alike.  Shared by kmod/ and selftests/.
 *
 * Protocol: open the file, write() one request, then read() the response
 * (header, then the bytes the actor took, in order).  The write fails
 * with EOPNOTSUPP for a socket whose read_sock is neither tlsx's nor
 * kTLS's (TCP's frees the skbs the actor keeps).
 */
#ifndef TLSX_DEBUGFS_READ_SOCK_ABI_H
#define TLSX_DEBUGFS_READ_SOCK_ABI_H

#include <linux/types.h>

#define TLSX_DBG_RS_MAX_LEN	(256 * 1024)

/*
 * The actor sets desc->count to 0 when it takes less than it is offered
 * (it stalls, as a reader whose buffer is full): read_sock must stop and
 * keep the rest.  Without it the actor leaves desc->count as the room
 * still left, and read_sock may offer it again.
 */
#define TLSX_DBG_RS_STOP_ON_PARTIAL	0x1
/*
 * Call read_sock as strparser's data_ready does in softirq (KCM on the
 * socket): BHs off and the socket spinlock held, the socket not owned
 * (-EBUSY in resp->ret when it is), instead of with the socket locked.
 */
#define TLSX_DBG_RS_ATOMIC		0x2

struct tlsx_dbg_rs_req {
	__s32 fd;		/* a socket of the calling process */
	__u32 flags;		/* TLSX_DBG_RS_* */
	__u32 max;		/* desc->count at the start: bytes wanted */
	__u32 per_call;		/* most bytes one actor call takes; 0: any */
	/*
	 * The actor call (counted from 1) that takes nothing and returns
	 * -EIO instead; 0: none.
	 */
	__u32 fail_call;
};

struct tlsx_dbg_rs_resp {
	__s32 ret;		/* read_sock's return */
	__u32 len;		/* bytes the actor took, following */
	__u32 calls;		/* times the actor was called */
	__u32 zero_len_calls;	/* of them, offered 0 bytes */
};

#endif /* TLSX_DEBUGFS_READ_SOCK_ABI_H */
