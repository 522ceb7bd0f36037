// SPDX-License-Identifier: GPL-2.0
/*
 * crypto_kernel_walk.c - 6.12's skcipher_walk and crypto_hash_walk over
 * segment lists (crypto_kernel_walk.h), step for step: where a step ends,
 * when the bounce buffer is used, what is copied.
 */
#include <stdint.h>
#include <string.h>

#include "crypto_kernel_walk.h"

/* scatterwalk_pagedone(): an exhausted segment gives way to the next. */
static void pos_settle(struct kwalk_pos *p)
{
	while (p->i < p->nseg && p->off == p->seg[p->i].len) {
		p->i++;
		p->off = 0;
	}
}

static u8 *pos_addr(const struct kwalk_pos *p)
{
	return p->seg[p->i].data + p->off;
}

/* scatterwalk_pagelen(): to the segment's end or the page's, if sooner. */
static size_t pos_pagelen(const struct kwalk_pos *p)
{
	size_t len = p->seg[p->i].len - p->off;
	size_t page = KWALK_PAGE -
		      ((uintptr_t)pos_addr(p) & (KWALK_PAGE - 1));

	return page < len ? page : len;
}

static void pos_advance(struct kwalk_pos *p, size_t n)
{
	while (n) {
		size_t c;

		pos_settle(p);
		c = p->seg[p->i].len - p->off;
		if (c > n)
			c = n;
		p->off += c;
		n -= c;
	}
	pos_settle(p);
}

/* scatterwalk_copychunks(): page by page, between @buf and the list. */
static void pos_copy(struct kwalk_pos *p, u8 *buf, size_t n, bool out)
{
	while (n) {
		size_t c = pos_pagelen(p);

		if (c > n)
			c = n;
		if (out)
			memcpy(pos_addr(p), buf, c);
		else
			memcpy(buf, pos_addr(p), c);
		pos_advance(p, c);
		buf += c;
		n -= c;
	}
}

/*
 * skcipher_walk_next(): a step runs to the first cut of either list; one
 * shorter than a stride (or than what is left, if less) is copied into
 * the buffer whole (skcipher_next_slow()) and done there in place.
 */
static void kwalk_next(struct kwalk *w)
{
	size_t bsize = w->total < w->stride ? w->total : w->stride;
	size_t n = w->total, c;

	c = pos_pagelen(&w->in);
	if (n > c)
		n = c;
	c = pos_pagelen(&w->out);
	if (n > c)
		n = c;
	w->slow = n < bsize;
	if (w->slow) {
		pos_copy(&w->in, w->buf, bsize, false);
		w->src = w->buf;
		w->dst = w->buf;
		w->nbytes = bsize;
		return;
	}
	w->src = pos_addr(&w->in);
	w->dst = pos_addr(&w->out);
	w->nbytes = n;
}

void kwalk_start(struct kwalk *w, const struct tlsx_aead_seg *in,
		 unsigned int nin, const struct tlsx_aead_seg *out,
		 unsigned int nout, size_t len, unsigned int stride)
{
	memset(&w->in, 0, sizeof(w->in));
	memset(&w->out, 0, sizeof(w->out));
	w->in.seg = in;
	w->in.nseg = nin;
	w->out.seg = out;
	w->out.nseg = nout;
	w->total = len;
	w->stride = stride;
	w->nbytes = 0;
	w->slow = false;
	w->src = NULL;
	w->dst = NULL;
	if (!len)
		return;
	pos_settle(&w->in);
	pos_settle(&w->out);
	kwalk_next(w);
}

/* skcipher_walk_done(): the slow path copies the buffer out whole. */
void kwalk_done(struct kwalk *w, size_t left)
{
	size_t n = w->nbytes - left;

	if (w->slow) {
		pos_copy(&w->out, w->buf, n, true);
	} else {
		pos_advance(&w->in, n);
		pos_advance(&w->out, n);
	}
	w->total -= n;
	w->nbytes = 0;
	if (w->total)
		kwalk_next(w);
	else
		memset(w->buf, 0, sizeof(w->buf));
}

/* hash_walk_new_entry() / hash_walk_next(): a segment, a page at a time. */
size_t khash_next(struct kwalk_pos *p, size_t *total, const u8 **data)
{
	size_t n;

	if (!*total)
		return 0;
	pos_settle(p);
	n = pos_pagelen(p);
	if (n > *total)
		n = *total;
	*data = pos_addr(p);
	pos_advance(p, n);
	*total -= n;
	return n;
}
