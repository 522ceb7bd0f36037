// SPDX-License-Identifier: GPL-2.0
/*
 * codec.c - bounded readers and push-block writers for TLS's wire format
 * (the contract is in codec.h).
 */
#include "handshake/engine/codec.h"

static u32 get_be(const u8 *p, unsigned int n)
{
	u32 v = 0;

	while (n--)
		v = v << 8 | *p++;
	return v;
}

static void put_be(u8 *p, u32 v, unsigned int n)
{
	while (n--) {
		p[n] = (u8)v;
		v >>= 8;
	}
}

static int rd_be(struct tlsx_rd *r, unsigned int n, u32 *v)
{
	if (tlsx_rd_left(r) < n)
		return TLSX_ALERT_DECODE_ERROR;
	*v = get_be(r->p, n);
	r->p += n;
	return 0;
}

int tlsx_rd_u8(struct tlsx_rd *r, u8 *v)
{
	u32 x;
	int ret = rd_be(r, 1, &x);

	if (!ret)
		*v = (u8)x;
	return ret;
}

int tlsx_rd_u16(struct tlsx_rd *r, u16 *v)
{
	u32 x;
	int ret = rd_be(r, 2, &x);

	if (!ret)
		*v = (u16)x;
	return ret;
}

int tlsx_rd_u24(struct tlsx_rd *r, u32 *v)
{
	return rd_be(r, 3, v);
}

int tlsx_rd_u32(struct tlsx_rd *r, u32 *v)
{
	return rd_be(r, 4, v);
}

int tlsx_rd_bytes(struct tlsx_rd *r, size_t n, const u8 **p)
{
	if (tlsx_rd_left(r) < n)
		return TLSX_ALERT_DECODE_ERROR;
	*p = r->p;
	r->p += n;
	return 0;
}

int tlsx_rd_copy(struct tlsx_rd *r, void *dst, size_t n)
{
	const u8 *p;
	int ret = tlsx_rd_bytes(r, n, &p);

	if (!ret && n)
		memcpy(dst, p, n);
	return ret;
}

int tlsx_rd_open(struct tlsx_rd *r, unsigned int prefix, size_t min,
		 size_t max, struct tlsx_rd *blk)
{
	size_t len;

	if (prefix < 1 || prefix > 3)
		return TLSX_ALERT_INTERNAL_ERROR;
	if (tlsx_rd_left(r) < prefix)
		return TLSX_ALERT_DECODE_ERROR;
	len = get_be(r->p, prefix);
	if (len < min || len > max || tlsx_rd_left(r) - prefix < len)
		return TLSX_ALERT_DECODE_ERROR;
	r->p += prefix;
	blk->p = r->p;
	blk->end = r->p + len;
	r->p += len;
	return 0;
}

int tlsx_rd_vec(struct tlsx_rd *r, unsigned int prefix, size_t min,
		size_t max, const u8 **p, size_t *len)
{
	struct tlsx_rd blk;
	int ret = tlsx_rd_open(r, prefix, min, max, &blk);

	if (ret)
		return ret;
	*p = blk.p;
	*len = tlsx_rd_left(&blk);
	return 0;
}

void tlsx_wr_init(struct tlsx_wr *w, void *buf, size_t cap)
{
	w->buf = buf;
	w->cap = cap;
	w->len = 0;
	w->err = 0;
	w->depth = 0;
}

/* Records the first error; every call after it returns it. */
static int wr_fail(struct tlsx_wr *w, int err)
{
	if (!w->err)
		w->err = err;
	return w->err;
}

int tlsx_wr_reserve(struct tlsx_wr *w, size_t n, u8 **p)
{
	*p = NULL;
	if (w->err)
		return w->err;
	if (n > w->cap - w->len)	/* len <= cap always holds */
		return wr_fail(w, -ENOSPC);
	*p = w->buf + w->len;
	w->len += n;
	return 0;
}

static int wr_be(struct tlsx_wr *w, u32 v, unsigned int n)
{
	u8 *p;
	int ret = tlsx_wr_reserve(w, n, &p);

	if (!ret)
		put_be(p, v, n);
	return ret;
}

int tlsx_wr_u8(struct tlsx_wr *w, u8 v)
{
	return wr_be(w, v, 1);
}

int tlsx_wr_u16(struct tlsx_wr *w, u16 v)
{
	return wr_be(w, v, 2);
}

int tlsx_wr_u24(struct tlsx_wr *w, u32 v)
{
	if (v >> 24)
		return wr_fail(w, -EINVAL);
	return wr_be(w, v, 3);
}

int tlsx_wr_u32(struct tlsx_wr *w, u32 v)
{
	return wr_be(w, v, 4);
}

int tlsx_wr_bytes(struct tlsx_wr *w, const void *src, size_t n)
{
	u8 *p;
	int ret = tlsx_wr_reserve(w, n, &p);

	if (!ret && n)
		memcpy(p, src, n);
	return ret;
}

int tlsx_wr_open(struct tlsx_wr *w, unsigned int prefix)
{
	u8 *p;
	int ret;

	if (w->err)
		return w->err;
	if (prefix < 1 || prefix > 3 || w->depth == TLSX_WR_DEPTH)
		return wr_fail(w, -EINVAL);
	ret = tlsx_wr_reserve(w, prefix, &p);
	if (ret)
		return ret;
	w->start[w->depth] = w->len - prefix;
	w->prefix[w->depth] = (u8)prefix;
	w->depth++;
	return 0;
}

int tlsx_wr_close(struct tlsx_wr *w)
{
	size_t start, len;
	unsigned int prefix;

	if (w->err)
		return w->err;
	if (!w->depth)
		return wr_fail(w, -EINVAL);
	w->depth--;
	start = w->start[w->depth];
	prefix = w->prefix[w->depth];
	len = w->len - start - prefix;
	if (len >> (8 * prefix))
		return wr_fail(w, -EMSGSIZE);
	put_be(w->buf + start, (u32)len, prefix);
	return 0;
}

int tlsx_wr_vec(struct tlsx_wr *w, unsigned int prefix, const void *p,
		size_t n)
{
	tlsx_wr_open(w, prefix);
	tlsx_wr_bytes(w, p, n);
	return tlsx_wr_close(w);
}

int tlsx_wr_finish(struct tlsx_wr *w, size_t *len)
{
	if (!w->err && w->depth)
		wr_fail(w, -EINVAL);
	if (!w->err && len)
		*len = w->len;
	return w->err;
}
