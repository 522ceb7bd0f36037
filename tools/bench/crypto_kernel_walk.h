/* SPDX-License-Identifier: GPL-2.0 */
/*
 * crypto_kernel_walk.h - how Linux 6.12 hands a scatterlist to an AEAD's
 * code, for the kernel anchor fed a record in pieces (crypto_kernel.h).
 *
 * kTLS passes the AEAD scatterlists: page-cache pages behind a response
 * head when it seals a sendfile record, the TCP segments' fragments when
 * it opens a received one.  The cipher sees them through skcipher_walk
 * (crypto/skcipher.c, alignmask 0 as for the x86 AES-GCM and ChaCha20
 * algorithms) and Poly1305 through crypto_hash_walk (crypto/ahash.c).
 * Both cut the data at every segment end and at every 4 KiB page
 * boundary, of the source and of the destination; skcipher_walk hands a
 * chunk (a "stride") that such a cut splits through a bounce buffer.
 * These walks do that over tlsx_aead_seg lists in userspace: the same
 * steps, the same copies, without kmap (free on x86-64) and
 * kernel_fpu_begin() (which the anchor leaves out everywhere).
 */
#ifndef TLSX_BENCH_CRYPTO_KERNEL_WALK_H
#define TLSX_BENCH_CRYPTO_KERNEL_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "aead/aead.h"

#define KWALK_PAGE	4096
#define KWALK_MAX_STRIDE 64	/* ChaCha20's; AES-GCM's is 16 */

/* struct scatter_walk: a position in a segment list. */
struct kwalk_pos {
	const struct tlsx_aead_seg *seg;
	unsigned int nseg;
	unsigned int i;
	size_t off;
};

/*
 * struct skcipher_walk: this step is @nbytes at @src -> @dst (in @buf on
 * the slow path); @total counts the bytes from this step's start on.
 */
struct kwalk {
	struct kwalk_pos in, out;
	size_t total;
	size_t nbytes;
	unsigned int stride;
	bool slow;
	const u8 *src;
	u8 *dst;
	u8 buf[KWALK_MAX_STRIDE];
};

/* skcipher_walk_virt() over @len bytes; @stride: the algorithm's chunk. */
void kwalk_start(struct kwalk *w, const struct tlsx_aead_seg *in,
		 unsigned int nin, const struct tlsx_aead_seg *out,
		 unsigned int nout, size_t len, unsigned int stride);
/*
 * skcipher_walk_done(): the step's last @left bytes were not processed
 * (0 on the slow path); the next step is set up, or nbytes is 0.
 */
void kwalk_done(struct kwalk *w, size_t left);

/*
 * crypto_hash_walk: the next piece of the @*total bytes left at @p, up to
 * a segment end or page boundary; its length (0 at the end) and @*data.
 */
size_t khash_next(struct kwalk_pos *p, size_t *total, const u8 **data);

#endif
