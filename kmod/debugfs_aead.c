// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs_aead.c - /sys/kernel/debug/tlsx/aead: run the module's AEAD
 * engines on a request from userspace (see debugfs_aead_abi.h).
 *
 * It exists for the selftests: the engines are one source built twice,
 * and this is how a test seals with the kernel build and opens with the
 * userspace build, and the reverse, on every implementation the CPU has,
 * contiguous or scattered, in place or not, and with the FPU unusable;
 * and how a test sees what the kernel build leaves in the stack
 * (TLSX_DBG_AEAD_STACK, docs/ct-aead.md section 4).  Only root can reach
 * debugfs; every length is bounded.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/irqflags.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <asm/fpu/api.h>

#include "aead/aead.h"
#include "aead/stack_wipe.h"
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

/*
 * TLSX_DBG_AEAD_STACK: the region below the frame of tlsx_dbg_run(), where
 * the AEAD's frames go, from 256 bytes down (the probes' own frames and
 * those of the calls between lie above).  Byte loops, no memset(): the
 * probes' frames are the only ones below theirs.  Not under KASAN, whose
 * shadow of dead frames is not the probe's to read.
 */
#define TLSX_DBG_STACK_TOP	256

static noinline void tlsx_dbg_stack_fill(void)
{
	u8 *p = (u8 *)__builtin_frame_address(0) - TLSX_DBG_STACK_TOP -
		TLSX_DBG_AEAD_STACK_BYTES;
	size_t i;

	for (i = 0; i < TLSX_DBG_AEAD_STACK_BYTES; i++)
		WRITE_ONCE(p[i], 0xa5);
}

/*
 * Read the region into @out; where the deepest wipe started, as an offset
 * into it, into *@top and its depth into *@bytes (stack_wipe.h).
 */
static noinline void tlsx_dbg_stack_read(u8 *out, u32 *top, u32 *bytes)
{
	const u8 *p = (u8 *)__builtin_frame_address(0) - TLSX_DBG_STACK_TOP -
		      TLSX_DBG_AEAD_STACK_BYTES;
	struct tlsx_stack_wipe_probe *w = &tlsx_stack_wipe_probe;
	size_t i;

	for (i = 0; i < TLSX_DBG_AEAD_STACK_BYTES; i++)
		out[i] = READ_ONCE(p[i]);
	*top = w->top ? (u32)(w->top - (unsigned long)p) : 0;
	*bytes = (u32)w->bytes;
	WRITE_ONCE(w->task, NULL);
}

/* Is there room for the probe below this frame, 1 KiB to spare? */
static bool tlsx_dbg_stack_room(void)
{
	unsigned long low = (unsigned long)task_stack_page(current);
	unsigned long here = (unsigned long)__builtin_frame_address(0);

	return !IS_ENABLED(CONFIG_KASAN) &&
	       here - low > TLSX_DBG_STACK_TOP + TLSX_DBG_AEAD_STACK_BYTES +
			    1024;
}

/* One run of the operation, from the buffers set up by the caller. */
static noinline int tlsx_dbg_op(const struct tlsx_dbg_aead_req *req,
				const struct tlsx_aead_key *key, const u8 *ad,
				const u8 *in, u8 *out,
				struct tlsx_dbg_bufs *bufs, const u8 *tag,
				u8 *tag_out)
{
	bool seal = (req->op & TLSX_DBG_AEAD_OP_MASK) == TLSX_DBG_AEAD_SEAL;

	if (req->nsegs && seal)
		return tlsx_aead_seal_sg(key, req->nonce, ad, req->ad_len,
					 bufs->src, bufs->nsegs, bufs->dst,
					 bufs->nsegs, req->len, tag_out);
	if (req->nsegs)
		return tlsx_aead_open_sg(key, req->nonce, ad, req->ad_len,
					 bufs->src, bufs->nsegs, bufs->dst,
					 bufs->nsegs, req->len, tag);
	if (seal)
		return tlsx_aead_seal(key, req->nonce, ad, req->ad_len, in,
				      out, req->len, tag_out);
	return tlsx_aead_open(key, req->nonce, ad, req->ad_len, in, out,
			      req->len, tag);
}

/*
 * Run the request once, or (STACK) twice with the stack probed around
 * each run: the same buffers, the second run's key, tag and input.
 */
static int tlsx_dbg_run(const struct tlsx_dbg_aead_req *req, const u8 *ad,
			const u8 *in, struct tlsx_dbg_aead_resp *resp,
			u8 *out)
{
	bool in_place = req->op & TLSX_DBG_AEAD_IN_PLACE;
	bool no_fpu = req->op & TLSX_DBG_AEAD_NO_FPU;
	bool stack = req->op & TLSX_DBG_AEAD_STACK;
	struct tlsx_dbg_bufs bufs = { .nsegs = 0 };
	u8 *reads = out + req->len;
	struct tlsx_aead_key *key;
	unsigned long flags = 0;
	const u8 *src;
	int err, run;

	if (stack && !tlsx_dbg_stack_room())
		return -ENODEV;
	key = kzalloc(sizeof(*key), GFP_KERNEL);
	if (!key)
		return -ENOMEM;
	if (req->nsegs) {
		err = tlsx_dbg_alloc_bufs(&bufs, req, in_place);
		if (err)
			goto out;
	}
	for (run = 0; run < (stack ? 2 : 1); run++) {
		err = tlsx_aead_setkey(key, req->alg, req->impl,
				       run ? req->key2 : req->key,
				       req->key_len);
		if (err)
			goto out;
		resp->impl = key->impl;
		src = in + run * req->len;
		if (req->nsegs) {
			tlsx_dbg_scatter(&bufs, src);
		} else if (in_place) {
			memcpy(out, src, req->len);
			src = out;
		}

		/*
		 * With the FPU held, irq_fpu_usable() is false: engines
		 * fall back.  With interrupts off, nothing but the
		 * operation writes below this frame (kernel_fpu_begin()
		 * allows it).
		 */
		if (stack) {
			local_irq_save(flags);
			tlsx_stack_wipe_probe.top = 0;
			tlsx_stack_wipe_probe.bytes = 0;
			tlsx_stack_wipe_probe.skip = req->op &
						     TLSX_DBG_AEAD_NO_WIPE;
			WRITE_ONCE(tlsx_stack_wipe_probe.task, current);
			tlsx_dbg_stack_fill();
		}
		if (no_fpu)
			kernel_fpu_begin();
		err = tlsx_dbg_op(req, key, ad, src, out, &bufs,
				  run ? req->tag2 : req->tag, resp->tag);
		if (no_fpu)
			kernel_fpu_end();
		if (stack) {
			tlsx_dbg_stack_read(reads +
					    run * TLSX_DBG_AEAD_STACK_BYTES,
					    &resp->wipe_top[run],
					    &resp->wipe_bytes[run]);
			local_irq_restore(flags);
		}
		if (err)
			goto out;
		if (req->nsegs)
			tlsx_dbg_gather(&bufs, out);
	}
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
	size_t resp_len, inputs;
	u8 *body;
	int op, err;

	if (count < sizeof(req))
		return -EINVAL;
	if (copy_from_user(&req, ubuf, sizeof(req)))
		return -EFAULT;
	op = req.op & TLSX_DBG_AEAD_OP_MASK;
	inputs = req.op & TLSX_DBG_AEAD_STACK ? 2 : 1;
	if ((op != TLSX_DBG_AEAD_SEAL && op != TLSX_DBG_AEAD_OPEN) ||
	    (req.op & ~(TLSX_DBG_AEAD_OP_MASK | TLSX_DBG_AEAD_IN_PLACE |
			TLSX_DBG_AEAD_NO_FPU | TLSX_DBG_AEAD_STACK |
			TLSX_DBG_AEAD_NO_WIPE)) ||
	    ((req.op & TLSX_DBG_AEAD_NO_WIPE) &&
	     !(req.op & TLSX_DBG_AEAD_STACK)) ||
	    req.len > TLSX_DBG_AEAD_MAX_LEN ||
	    req.ad_len > TLSX_DBG_AEAD_MAX_AD ||
	    req.key_len > sizeof(req.key) ||
	    req.nsegs > TLSX_DBG_AEAD_MAX_SEGS ||
	    count != sizeof(req) + req.ad_len + inputs * req.len)
		return -EINVAL;

	/* A failure is an answer to the test (-ENOMEM), not a warning. */
	body = kvmalloc(req.ad_len + inputs * req.len,
			GFP_KERNEL | __GFP_NOWARN);
	resp_len = sizeof(*resp) + req.len +
		   (inputs - 1) * 2 * TLSX_DBG_AEAD_STACK_BYTES;
	resp = kvzalloc(resp_len, GFP_KERNEL | __GFP_NOWARN);
	if (!body || !resp) {
		err = -ENOMEM;
		goto fail;
	}
	if (copy_from_user(body, ubuf + sizeof(req),
			   req.ad_len + inputs * req.len)) {
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
