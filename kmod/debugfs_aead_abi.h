/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs_aead_abi.h - requests to /sys/kernel/debug/tlsx/aead, which runs
 * the module's AEAD engines on data from userspace so the selftests can
 * check that the kernel build of the engines agrees with the userspace
 * build (seal in one, open in the other).  Shared by kmod/ and selftests/.
 *
 * Protocol: open the file, write() one request (header, associated data,
 * input) in a single call, then read() the response (header, output).
 */
#ifndef TLSX_DEBUGFS_AEAD_ABI_H
#define TLSX_DEBUGFS_AEAD_ABI_H

#include <linux/types.h>

#define TLSX_DBG_AEAD_SEAL	1
#define TLSX_DBG_AEAD_OPEN	2
#define TLSX_DBG_AEAD_OP_MASK	0xff
/* Process in place (else into a separate output). */
#define TLSX_DBG_AEAD_IN_PLACE	0x100
/*
 * Run the operation with the FPU already taken (between
 * kernel_fpu_begin() and kernel_fpu_end()), where the engines must fall
 * back to portable code and still give the same answer.
 */
#define TLSX_DBG_AEAD_NO_FPU	0x200
/*
 * What the operation leaves in the kernel stack (docs/ct-aead.md section
 * 4): run it twice on the same buffers, first with key, tag and input,
 * then with key2, tag2 and input2 (which follows input in the request),
 * and with interrupts off fill the TLSX_DBG_AEAD_STACK_BYTES below the
 * caller's frame (from 256 bytes down) before each run and read them
 * after.  The response then carries the second run's output, then the
 * two reads.  The two runs should differ only in secrets.
 */
#define TLSX_DBG_AEAD_STACK	0x400
#define TLSX_DBG_AEAD_STACK_BYTES	7168
/*
 * With STACK: the dispatcher's stack wipes record where they start and
 * how deep they reach but wipe nothing (stack_wipe.h), so the reads show
 * what they have to reach.
 */
#define TLSX_DBG_AEAD_NO_WIPE	0x800

#define TLSX_DBG_AEAD_MAX_LEN	(64 * 1024)
#define TLSX_DBG_AEAD_MAX_AD	256
#define TLSX_DBG_AEAD_MAX_SEGS	16

struct tlsx_dbg_aead_req {
	__u32 op;		/* SEAL or OPEN, with flags */
	__u32 alg;		/* enum tlsx_aead_alg */
	__u32 impl;		/* enum tlsx_aead_impl */
	__u32 key_len;
	__u32 ad_len;
	__u32 len;
	/*
	 * 0: one contiguous buffer.  Otherwise the data lies in nsegs
	 * separately allocated segments of seg_len[] bytes (the last takes
	 * what remains) and the _sg entry points are used.
	 */
	__u32 nsegs;
	__u32 seg_len[TLSX_DBG_AEAD_MAX_SEGS];
	__u8 key[32];
	__u8 nonce[12];
	__u8 tag[16];		/* OPEN: the tag to check */
	__u8 key2[32];		/* STACK: the second run's key and tag */
	__u8 tag2[16];
	/*
	 * followed by ad_len bytes of associated data, then len of input
	 * (STACK: then len of input2)
	 */
};

struct tlsx_dbg_aead_resp {
	__s32 status;		/* 0 or -errno */
	__u32 impl;		/* the implementation the key was set with */
	__u8 tag[16];		/* SEAL: the tag */
	/*
	 * STACK: for each run, the deepest wipe's upper end, as an offset
	 * into that run's read (0: no wipe), and its depth in bytes.
	 */
	__u32 wipe_top[2];
	__u32 wipe_bytes[2];
	/* followed by len bytes of output (STACK: then the two reads) */
};

#endif /* TLSX_DEBUGFS_AEAD_ABI_H */
