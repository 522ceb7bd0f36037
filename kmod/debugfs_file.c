// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_file.c - what the selftests' request/response debugfs files
 * share: the answer to the last write, kept per open file.
 */
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/slab.h>

#include "debugfs_file.h"

struct tlsx_dbg_file {
	struct mutex lock;	/* serialises write and read on one open */
	u8 *resp;		/* the last answer, or NULL */
	size_t resp_len;
};

void tlsx_dbg_file_answer(struct file *file, void *resp, size_t len)
{
	struct tlsx_dbg_file *f = file->private_data;

	mutex_lock(&f->lock);
	kvfree(f->resp);
	f->resp = resp;
	f->resp_len = len;
	mutex_unlock(&f->lock);
}

ssize_t tlsx_dbg_file_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	struct tlsx_dbg_file *f = file->private_data;
	ssize_t ret = -ENODATA;

	mutex_lock(&f->lock);
	if (f->resp)
		ret = simple_read_from_buffer(ubuf, count, ppos, f->resp,
					      f->resp_len);
	mutex_unlock(&f->lock);
	return ret;
}

int tlsx_dbg_file_open(struct inode *inode, struct file *file)
{
	struct tlsx_dbg_file *f = kzalloc(sizeof(*f), GFP_KERNEL);

	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	file->private_data = f;
	return nonseekable_open(inode, file);
}

int tlsx_dbg_file_release(struct inode *inode, struct file *file)
{
	struct tlsx_dbg_file *f = file->private_data;

	kvfree(f->resp);
	mutex_destroy(&f->lock);
	kfree(f);
	return 0;
}
