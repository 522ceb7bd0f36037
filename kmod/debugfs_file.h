/* SPDX-License-Identifier: GPL-2.0 */
/*
 * debugfs_file.h - the request/response debugfs files of the selftests
 * (aead, read_sock): each write is a request, answered at once; the
 * answer is kept per open file and returned by the reads that follow.
 */
#ifndef TLSX_DEBUGFS_FILE_H
#define TLSX_DEBUGFS_FILE_H

#include <linux/fs.h>

/* Keep @resp (kvmalloc'ed, @len bytes; now the file's) as the answer. */
void tlsx_dbg_file_answer(struct file *file, void *resp, size_t len);
ssize_t tlsx_dbg_file_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos);
int tlsx_dbg_file_open(struct inode *inode, struct file *file);
int tlsx_dbg_file_release(struct inode *inode, struct file *file);

#endif /* TLSX_DEBUGFS_FILE_H */
