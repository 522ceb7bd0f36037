/* SPDX-License-Identifier: GPL-2.0 */
/*
 * frame.h - frame-pointer macros for the kernel's SSSE3 ChaCha (see
 * linux/linkage.h here): empty, as in a kernel built without
 * CONFIG_FRAME_POINTER (Debian's).
 */
#ifndef TLSX_BENCH_KANCHOR_FRAME_H
#define TLSX_BENCH_KANCHOR_FRAME_H

#define FRAME_BEGIN
#define FRAME_END

#endif
