// SPDX-License-Identifier: GPL-2.0
/*
 * hpack_encode.c - the HPACK encoder (RFC 7541 6): fields of our
 * responses to a header block, with a dynamic table of at most
 * min(our bound, the peer's SETTINGS_HEADER_TABLE_SIZE).
 *
 * Each field is the shortest representation this simple policy finds:
 * indexed when (name, value) is in a table (6.1); else a literal naming
 * the first static entry of that name, else the newest dynamic one
 * (6.2), its value Huffman-coded when that is shorter (5.2).  The same
 * choices as the examples of Appendix C, which test_hpack checks byte
 * for byte.
 */
#include <errno.h>
#include <string.h>

#include "tlsxd/h2/hpack.h"

size_t hpack_int_len(uint32_t val, unsigned int prefix)
{
	uint32_t mask = (1u << prefix) - 1;
	size_t n = 1;

	if (val < mask)
		return 1;
	for (val -= mask; val >= 0x80; val >>= 7)
		n++;
	return n + 1;
}

size_t hpack_int_encode(unsigned char *out, uint32_t val, unsigned int prefix,
			unsigned char first)
{
	uint32_t mask = (1u << prefix) - 1;
	size_t n = 1;

	if (val < mask) {
		out[0] = first | (unsigned char)val;
		return 1;
	}
	out[0] = first | (unsigned char)mask;
	for (val -= mask; val >= 0x80; val >>= 7)
		out[n++] = (unsigned char)(val | 0x80);
	out[n++] = (unsigned char)val;
	return n;
}

int hpack_encoder_init(struct hpack_encoder *e, size_t max_table_size)
{
	int err;

	memset(e, 0, sizeof(*e));
	err = hpack_table_init(&e->table, max_table_size);
	if (err)
		return err;
	e->own_max = max_table_size;
	e->peer_setting = HPACK_DEFAULT_TABLE_SIZE;
	/*
	 * Using less than the peer's table without saying so is safe: its
	 * decoder then holds a superset of our newest entries, at the
	 * same indices (2.3.3).
	 */
	hpack_table_set_max(&e->table, max_table_size < HPACK_DEFAULT_TABLE_SIZE ?
			    max_table_size : HPACK_DEFAULT_TABLE_SIZE);
	e->huffman = 1;
	return 0;
}

void hpack_encoder_free(struct hpack_encoder *e)
{
	hpack_table_free(&e->table);
	memset(e, 0, sizeof(*e));
}

void hpack_encoder_set_huffman(struct hpack_encoder *e, int on)
{
	e->huffman = !!on;
}

void hpack_encoder_set_peer_table_size(struct hpack_encoder *e, size_t size)
{
	size_t use = size < e->own_max ? size : e->own_max;

	if (size == e->peer_setting)
		return;
	e->peer_setting = size;
	/*
	 * Shrink now (the peer's decoder keeps a superset until the update
	 * arrives) and say so at the next block's start; 4.2: after more
	 * than one change, the smallest size first, then the last.
	 */
	hpack_table_set_max(&e->table, use);
	if (!e->update_pending || use < e->update_min)
		e->update_min = use;
	e->update_pending = 1;
}

void hpack_encode_block_begin(struct hpack_encoder *e)
{
	e->in_block_start = 1;
}

/* The size updates owed at this block's start, into @out (or counted). */
static size_t size_updates(const struct hpack_encoder *e, unsigned char *out)
{
	uint32_t last = (uint32_t)e->table.max_size;
	size_t n = 0;

	if (!e->update_pending || !e->in_block_start)
		return 0;
	if (e->update_min < last) {
		if (out)
			hpack_int_encode(out, (uint32_t)e->update_min, 5, 0x20);
		n += hpack_int_len((uint32_t)e->update_min, 5);
	}
	if (out)
		hpack_int_encode(out + n, last, 5, 0x20);
	return n + hpack_int_len(last, 5);
}

/*
 * A string literal (5.2): Huffman-coded unless that is longer (at equal
 * length too, as Appendix C.6.2 does; an empty string raw).  *@coded is
 * the string's length on the wire, Huffman-coded or not.
 */
static size_t string_len(const struct hpack_encoder *e, const char *s,
			 size_t len, size_t *coded, int *huffman)
{
	size_t h = len + 1;

	if (e->huffman && len)
		h = hpack_huffman_encoded_len((const unsigned char *)s, len);
	*huffman = h <= len;
	*coded = *huffman ? h : len;
	return hpack_int_len((uint32_t)*coded, 7) + *coded;
}

static size_t string_put(unsigned char *out, const char *s, size_t len,
			 size_t coded, int huffman)
{
	size_t n = hpack_int_encode(out, (uint32_t)coded, 7,
				    huffman ? 0x80 : 0);

	if (huffman)
		hpack_huffman_encode((const unsigned char *)s, len, out + n);
	else if (len)
		memcpy(out + n, s, len);
	return n + coded;
}

ssize_t hpack_encode_field(struct hpack_encoder *e, unsigned char *out,
			   size_t cap, const char *name, size_t name_len,
			   const char *value, size_t value_len,
			   unsigned int flags)
{
	uint32_t sname, dname = UINT32_MAX, idx = 0;
	size_t upd = size_updates(e, NULL), need = upd, n;
	unsigned int prefix;
	unsigned char first;
	int full, index = 0, hname = 0, hvalue = 0;
	size_t cname = 0, cvalue;

	/* A string's length is a 5.1 integer the peer caps; ours too. */
	if (name_len > HPACK_INT_MAX || value_len > HPACK_INT_MAX)
		return -EINVAL;
	full = hpack_static_find(name, name_len, value, value_len, &sname);
	if (!full) {
		int d = hpack_table_find(&e->table, name, name_len, value,
					 value_len, &dname);

		if (d >= 0)
			full = HPACK_STATIC_ENTRIES + 1 + d;
	}
	/* 7.1.3: a never-indexed field is always sent as a literal. */
	if (full && !(flags & HPACK_NEVER_INDEXED)) {
		need += hpack_int_len((uint32_t)full, 7);
		if (need > cap)
			return -ENOSPC;
		n = size_updates(e, out);
		n += hpack_int_encode(out + n, (uint32_t)full, 7, 0x80);
		goto done;
	}
	if (sname)
		idx = sname;
	else if (dname != UINT32_MAX)
		idx = HPACK_STATIC_ENTRIES + 1 + dname;
	if (flags & HPACK_NEVER_INDEXED) {
		prefix = 4;		/* 6.2.3 */
		first = 0x10;
	} else if ((flags & HPACK_NO_INDEX) ||
		   HPACK_ENTRY_OVERHEAD + name_len + value_len >
		   e->table.max_size) {
		/*
		 * 6.2.2; and an entry the table cannot hold would only
		 * empty it (4.4).
		 */
		prefix = 4;
		first = 0x00;
	} else {
		prefix = 6;		/* 6.2.1 */
		first = 0x40;
		index = 1;
	}
	need += hpack_int_len(idx, prefix);
	if (!idx)
		need += string_len(e, name, name_len, &cname, &hname);
	need += string_len(e, value, value_len, &cvalue, &hvalue);
	if (need > cap)
		return -ENOSPC;
	n = size_updates(e, out);
	n += hpack_int_encode(out + n, idx, prefix, first);
	if (!idx)
		n += string_put(out + n, name, name_len, cname, hname);
	n += string_put(out + n, value, value_len, cvalue, hvalue);
	if (index)
		hpack_table_add(&e->table, name, name_len, value, value_len);
done:
	e->in_block_start = 0;
	if (upd)
		e->update_pending = 0;
	return (ssize_t)n;
}
