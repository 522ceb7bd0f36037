// SPDX-License-Identifier: GPL-2.0
/*
 * hpack_decode.c - the HPACK decoder (RFC 7541 3, 6): a header block to
 * fields, one callback per field, the dynamic table kept in step with
 * the peer's encoder.
 *
 * Limits: integers over HPACK_INT_MAX, string lengths past the block,
 * index 0 or past the tables, a size update after a field or over our
 * SETTINGS_HEADER_TABLE_SIZE, and bad Huffman (5.2) are all
 * COMPRESSION_ERROR.  The field list is counted as 4.1 / RFC 9113
 * 6.5.2; past max_list_size the callback is not called again but the
 * block is decoded to its end (its insertions keep the table in step),
 * with no copy of a field the list has no room for.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tlsxd/h2/hpack.h"

int hpack_int_decode(const unsigned char *in, size_t len, unsigned int prefix,
		     uint32_t *val)
{
	uint32_t mask = (1u << prefix) - 1, v;
	unsigned int shift = 0;
	size_t i;

	if (!len)
		return 0;
	v = in[0] & mask;
	if (v < mask) {
		*val = v;
		return 1;
	}
	for (i = 1; i < len; i++) {
		/*
		 * 5.1 leaves the length open; 4 continuation bytes hold
		 * 28 bits, past that (or past HPACK_INT_MAX) is refused
		 * (5.1: "excessively large integer encodings").
		 */
		if (shift > 21)
			return HPACK_E_COMPRESSION;
		v += (uint32_t)(in[i] & 0x7f) << shift;
		if (v > HPACK_INT_MAX)
			return HPACK_E_COMPRESSION;
		if (!(in[i] & 0x80)) {
			*val = v;
			return (int)i + 1;
		}
		shift += 7;
	}
	return 0;
}

/* A block's state while it is decoded. */
struct hpack_block {
	const unsigned char *p, *end;
	size_t list, max_list;
	int too_large;
	/*
	 * Decoded strings go to str[0] (names) and str[1] (values), each
	 * str_cap long; lin makes a wrapped table entry contiguous.
	 */
	unsigned char *str[2];
	size_t str_cap;
	unsigned char *lin;
};

static int read_int(struct hpack_block *b, unsigned int prefix, uint32_t *v)
{
	int n = hpack_int_decode(b->p, (size_t)(b->end - b->p), prefix, v);

	if (n <= 0)	/* the block ends inside an integer, or too large */
		return HPACK_E_COMPRESSION;
	b->p += n;
	return 0;
}

/*
 * A string literal (5.2) into @buf (str_cap long).  *@len is its decoded
 * length; when that is over str_cap nothing usable is in @buf, and the
 * field is too large both for the list and for the table (str_cap >=
 * each or >= what the block could decode to: hpack_decode_block()).
 */
static int read_string(struct hpack_block *b, unsigned char *buf,
		       size_t *len)
{
	int huffman = b->p < b->end && (*b->p & 0x80);
	uint32_t n;
	int err = read_int(b, 7, &n);

	if (err)
		return err;
	if (n > (size_t)(b->end - b->p))
		return HPACK_E_COMPRESSION;
	if (huffman) {
		ssize_t r = hpack_huffman_decode(b->p, n, buf, b->str_cap);

		if (r < 0)
			return (int)r;
		*len = (size_t)r;
	} else {
		if (n <= b->str_cap && n)
			memcpy(buf, b->p, n);
		*len = n;
	}
	b->p += n;
	return 0;
}

/* Count a field against the list; 1 if it still fits. */
static int list_room(struct hpack_block *b, size_t name_len, size_t value_len)
{
	size_t sz = HPACK_ENTRY_OVERHEAD + name_len + value_len;

	if (b->too_large || sz > b->max_list - b->list) {
		b->too_large = 1;
		return 0;
	}
	b->list += sz;
	return 1;
}

static int emit(struct hpack_block *b, hpack_field_fn fn, void *arg,
		const char *name, size_t name_len, const char *value,
		size_t value_len, unsigned int flags)
{
	if (!list_room(b, name_len, value_len))
		return 0;
	return fn(arg, name, name_len, value, value_len, flags);
}

/* Static (1-61) or dynamic (62-) entry @idx; -1 if there is none. */
static int lookup(struct hpack_decoder *d, struct hpack_block *b,
		  uint32_t idx, const char **name, size_t *name_len,
		  const char **value, size_t *value_len)
{
	if (!idx)	/* 6.1: index 0 is an error */
		return HPACK_E_COMPRESSION;
	if (idx <= HPACK_STATIC_ENTRIES) {
		*name = hpack_static[idx].name;
		*name_len = hpack_static[idx].name_len;
		*value = hpack_static[idx].value;
		*value_len = hpack_static[idx].value_len;
		return 0;
	}
	idx -= HPACK_STATIC_ENTRIES + 1;
	if (idx >= d->table.count)	/* 2.3.3 */
		return HPACK_E_COMPRESSION;
	hpack_table_get(&d->table, idx, name, name_len, value, value_len,
			b->lin);
	return 0;
}

/* 4.4: an entry larger than the table empties it (and is not added). */
static void table_empty(struct hpack_table *t)
{
	size_t max = t->max_size;

	hpack_table_set_max(t, 0);
	hpack_table_set_max(t, max);
}

/* Is @idx an entry of either table (2.3.3; 6.1: 0 is an error)? */
static int index_valid(const struct hpack_decoder *d, uint32_t idx)
{
	return idx && idx <= HPACK_STATIC_ENTRIES + d->table.count;
}

/* 6.2: a literal field; @prefix and @index per its representation. */
static int literal(struct hpack_decoder *d, struct hpack_block *b,
		   unsigned int prefix, int index, unsigned int flags,
		   hpack_field_fn fn, void *arg)
{
	const char *name = NULL, *value, *unused;
	size_t name_len = 0, value_len, unused_len;
	uint32_t idx;
	int err = read_int(b, prefix, &idx);

	if (err)
		return err;
	if (idx && !index && b->too_large) {
		/* Neither the list nor the table needs the name. */
		if (!index_valid(d, idx))
			return HPACK_E_COMPRESSION;
	} else if (idx) {
		err = lookup(d, b, idx, &name, &name_len, &unused,
			     &unused_len);
		if (err)
			return err;
		/*
		 * The name may lie in the table, and this entry's
		 * insertion may evict it (4.4): copy it out (entries are
		 * smaller than the table, str_cap is not).
		 */
		if (index) {
			memcpy(b->str[0], name, name_len);
			name = (const char *)b->str[0];
		}
	} else {
		err = read_string(b, b->str[0], &name_len);
		if (err)
			return err;
		name = (const char *)b->str[0];
	}
	err = read_string(b, b->str[1], &value_len);
	if (err)
		return err;
	value = (const char *)b->str[1];
	if (name_len > b->str_cap || value_len > b->str_cap) {
		/* Too large for the list and for the table (see above). */
		b->too_large = 1;
		if (index)
			table_empty(&d->table);
		return 0;
	}
	if (index)
		hpack_table_add(&d->table, name, name_len, value, value_len);
	if (!name)	/* too large already: a name not looked up */
		return 0;
	return emit(b, fn, arg, name, name_len, value, value_len, flags);
}

int hpack_decoder_init(struct hpack_decoder *d, size_t max_table_size)
{
	int err;

	memset(d, 0, sizeof(*d));
	err = hpack_table_init(&d->table, max_table_size);
	if (err)
		return err;
	d->settings_max = max_table_size;
	return 0;
}

void hpack_decoder_free(struct hpack_decoder *d)
{
	hpack_table_free(&d->table);
	free(d->scratch);
	memset(d, 0, sizeof(*d));
}

/*
 * The scratch buffer for this block: two strings of @str_cap, then the
 * table's size for lin.
 */
static int scratch(struct hpack_decoder *d, struct hpack_block *b,
		   size_t len, size_t max_list)
{
	size_t str_cap = max_list, need;

	/* A string decodes to at most 8/5 of its bytes (5-bit codes). */
	if (str_cap / 2 > len)
		str_cap = 2 * len;
	/*
	 * A name copied out of a table: at most the table, or a static
	 * name (27 octets at most: Appendix A).
	 */
	if (str_cap < d->settings_max)
		str_cap = d->settings_max;
	if (str_cap < HPACK_ENTRY_OVERHEAD)
		str_cap = HPACK_ENTRY_OVERHEAD;
	need = 2 * str_cap + d->settings_max + 1;
	if (need > d->scratch_cap) {
		unsigned char *p = realloc(d->scratch, need);

		if (!p)
			return -ENOMEM;
		d->scratch = p;
		d->scratch_cap = need;
	}
	b->str_cap = str_cap;
	b->str[0] = d->scratch;
	b->str[1] = d->scratch + str_cap;
	b->lin = d->scratch + 2 * str_cap;
	return 0;
}

int hpack_decode_block(struct hpack_decoder *d, const unsigned char *in,
		       size_t len, size_t max_list_size, hpack_field_fn fn,
		       void *arg)
{
	struct hpack_block b = {
		.p = in, .end = in + len, .max_list = max_list_size,
	};
	int fields = 0, err;

	err = scratch(d, &b, len, max_list_size);
	if (err)
		return err;
	while (b.p < b.end) {
		unsigned char c = *b.p;
		const char *name, *value;
		size_t name_len, value_len;
		uint32_t v;

		if (c & 0x80) {			/* 6.1 indexed */
			err = read_int(&b, 7, &v);
			if (err)
				return err;
			/*
			 * Past the list's limit an index costs nothing
			 * more (the HPACK bomb: one byte naming a big
			 * entry, many times).
			 */
			if (b.too_large) {
				if (!index_valid(d, v))
					return HPACK_E_COMPRESSION;
			} else {
				err = lookup(d, &b, v, &name, &name_len,
					     &value, &value_len);
				if (!err)
					err = emit(&b, fn, arg, name, name_len,
						   value, value_len, 0);
			}
		} else if (c & 0x40) {		/* 6.2.1 incremental */
			err = literal(d, &b, 6, 1, 0, fn, arg);
		} else if (c & 0x20) {		/* 6.3 size update */
			/* 4.2: only at the start of a block. */
			if (fields)
				return HPACK_E_COMPRESSION;
			err = read_int(&b, 5, &v);
			if (err)
				return err;
			/* 6.3: not over our SETTINGS_HEADER_TABLE_SIZE */
			if (v > d->settings_max)
				return HPACK_E_COMPRESSION;
			hpack_table_set_max(&d->table, v);
			continue;
		} else if (c & 0x10) {		/* 6.2.3 never indexed */
			err = literal(d, &b, 4, 0, HPACK_NEVER_INDEXED, fn,
				      arg);
		} else {			/* 6.2.2 without indexing */
			err = literal(d, &b, 4, 0, 0, fn, arg);
		}
		if (err)
			return err;
		fields++;
	}
	return b.too_large ? HPACK_E_LIST_TOO_LARGE : 0;
}
