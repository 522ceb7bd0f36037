// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_aead.c - /sys/kernel/debug/tlsx/aead: run the module's AEAD
 * engines on a request from userspace (see debugfs_aead_abi.h).
 *
 * It exists for the selftests: the engines are one source built twice,
 * and this is how a test seals with the kernel build and opens with the
 * userspace build, and the reverse, on every implementation the CPU has,
 * contiguous or scattered, in place or not, and with the FPU unusable.
 * Only root can reach debugfs; every length is bounded.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/fpu/api.h>

#include "aead/aead.h"
#include "debugfs_aead_abi.h"
#include "debugfs_file.h"
#include "tlsx_context.h"
#include "tlsx_aead.h"

struct tlsx_dbg_bufs {
	struct tlsx_aead_seg src[TLSX_DBG_AEAD_MAX_SEGS];
	struct tlsx_aead_seg dst[TLSX_DBG_AEAD_MAX_SEGS];
	unsigned int nsegs;
};

static struct dentry *tlsx_debugfs_dir;

static void tlsx_dbg_free_bufs(struct tlsx_dbg_bufs *b, bool in_place)
{
	unsigned int i;

	for (i = 0; i < b->nsegs; i++) {
		kfree(b->src[i].data);
		if (!in_place)
			kfree(b->dst[i].data);
	}
}

/* Split @len bytes into the request's segments, each its own allocation. */
static int tlsx_dbg_alloc_bufs(struct tlsx_dbg_bufs *b,
			       const struct tlsx_dbg_aead_req *req,
			       bool in_place)
{
	size_t left = req->len, n;
	unsigned int i;

	b->nsegs = 0;
	for (i = 0; i < req->nsegs; i++) {
		n = i + 1 == req->nsegs ? left : min_t(size_t, left,
						       req->seg_len[i]);
		left -= n;
		/* kmalloc(0) gives ZERO_SIZE_PTR: keep real storage. */
		b->src[i].data = kmalloc(max_t(size_t, n, 1), GFP_KERNEL);
		b->src[i].len = n;
		b->dst[i].len = n;
		b->dst[i].data = in_place ? b->src[i].data :
			kmalloc(max_t(size_t, n, 1), GFP_KERNEL);
		b->nsegs = i + 1;
		if (!b->src[i].data || !b->dst[i].data)
			return -ENOMEM;
	}
	return 0;
}

static void tlsx_dbg_gather(const struct tlsx_dbg_bufs *b, u8 *out)
{
	unsigned int i;

	for (i = 0; i < b->nsegs; i++) {
		memcpy(out, b->dst[i].data, b->dst[i].len);
		out += b->dst[i].len;
	}
}

static void tlsx_dbg_scatter(const struct tlsx_dbg_bufs *b, const u8 *in)
{
	unsigned int i;

	for (i = 0; i < b->nsegs; i++) {
		memcpy(b->src[i].data, in, b->src[i].len);
		in += b->src[i].len;
	}
}

static int tlsx_dbg_run(const struct tlsx_dbg_aead_req *req, const u8 *ad,
			const u8 *in, struct tlsx_dbg_aead_resp *resp,
			u8 *out)
{
	bool seal = (req->op & TLSX_DBG_AEAD_OP_MASK) == TLSX_DBG_AEAD_SEAL;
	bool in_place = req->op & TLSX_DBG_AEAD_IN_PLACE;
	bool no_fpu = req->op & TLSX_DBG_AEAD_NO_FPU;
	struct tlsx_dbg_bufs bufs = { .nsegs = 0 };
	struct tlsx_aead_key *key;
	int err;

	key = kzalloc(sizeof(*key), GFP_KERNEL);
	if (!key)
		return -ENOMEM;
	err = tlsx_aead_setkey(key, req->alg, req->impl, req->key,
			       req->key_len);
	if (err)
		goto out;
	resp->impl = key->impl;

	if (req->nsegs) {
		err = tlsx_dbg_alloc_bufs(&bufs, req, in_place);
		if (err)
			goto out;
		tlsx_dbg_scatter(&bufs, in);
	} else if (in_place) {
		memcpy(out, in, req->len);
		in = out;
	}

	/* With the FPU held, irq_fpu_usable() is false: engines fall back. */
	if (no_fpu)
		kernel_fpu_begin();
	if (req->nsegs && seal)
		err = tlsx_aead_seal_sg(key, req->nonce, ad, req->ad_len,
					bufs.src, bufs.nsegs, bufs.dst,
					bufs.nsegs, req->len, resp->tag);
	else if (req->nsegs)
		err = tlsx_aead_open_sg(key, req->nonce, ad, req->ad_len,
					bufs.src, bufs.nsegs, bufs.dst,
					bufs.nsegs, req->len, req->tag);
	else if (seal)
		err = tlsx_aead_seal(key, req->nonce, ad, req->ad_len, in, out,
				     req->len, resp->tag);
	else
		err = tlsx_aead_open(key, req->nonce, ad, req->ad_len, in, out,
				     req->len, req->tag);
	if (no_fpu)
		kernel_fpu_end();

	if (req->nsegs)
		tlsx_dbg_gather(&bufs, out);
out:
	tlsx_dbg_free_bufs(&bufs, in_place);
	tlsx_aead_wipe(key);
	kfree(key);
	return err;
}

static ssize_t tlsx_dbg_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct tlsx_dbg_aead_resp *resp;
	struct tlsx_dbg_aead_req req;
	size_t resp_len;
	u8 *body;
	int op, err;

	if (count < sizeof(req))
		return -EINVAL;
	if (copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	op = req.op & TLSX_DBG_AEAD_OP_MASK;
	if ((op != TLSX_DBG_AEAD_SEAL && op != TLSX_DBG_AEAD_OPEN) ||
	    (req.op & ~(TLSX_DBG_AEAD_OP_MASK | TLSX_DBG_AEAD_IN_PLACE |
			TLSX_DBG_AEAD_NO_FPU)) ||
	    req.len > TLSX_DBG_AEAD_MAX_LEN ||
	    req.ad_len > TLSX_DBG_AEAD_MAX_AD ||
	    req.key_len > sizeof(req.key) ||
	    req.nsegs > TLSX_DBG_AEAD_MAX_SEGS ||
	    count != sizeof(req) + req.ad_len + req.len)
		return -EINVAL;

	/* A failure is an answer to the test (-ENOMEM), not a warning. */
	body = kvmalloc(req.ad_len + req.len, GFP_KERNEL | __GFP_NOWARN);
	resp_len = sizeof(*resp) + req.len;
	resp = kvzalloc(resp_len, GFP_KERNEL | __GFP_NOWARN);
	if (!body || !resp) {
		err = -ENOMEM;
		goto fail;
	}
	if (copy_from_user(body, ubuf + sizeof(req), req.ad_len + req.len)) {
		err = -EFAULT;
		goto fail;
	}
	resp->status = tlsx_dbg_run(&req, body, body + req.ad_len, resp,
				    (u8 *)(resp + 1));
	kvfree(body);
	memzero_explicit(&req, sizeof(req));

	tlsx_dbg_file_answer(file, resp, resp_len);
	return count;
fail:
	kvfree(body);
	kvfree(resp);
	memzero_explicit(&req, sizeof(req));
	return err;
}

static const struct file_operations tlsx_dbg_aead_fops = {
	.owner = THIS_MODULE,
	.open = tlsx_dbg_file_open,
	.release = tlsx_dbg_file_release,
	.write = tlsx_dbg_write,
	.read = tlsx_dbg_file_read,
};

int tlsx_debugfs_init(void)
{
	tlsx_debugfs_dir = debugfs_create_dir("tlsx", NULL);
	debugfs_create_file("aead", 0600, tlsx_debugfs_dir, NULL,
			    &tlsx_dbg_aead_fops);
	tlsx_tx_pages_debugfs(tlsx_debugfs_dir);
	tlsx_read_sock_debugfs(tlsx_debugfs_dir);
	/* tlsx_seal_limit(): records a TLS 1.3 key seals, lowered (0: off). */
	debugfs_create_u64("seal_limit", 0600, tlsx_debugfs_dir,
			   &tlsx_test_seal_limit);
	return 0;
}

void tlsx_debugfs_exit(void)
{
	debugfs_remove_recursive(tlsx_debugfs_dir);
}
