// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_hpack.c - libFuzzer target: the HPACK decoder (tlsxd/h2/hpack_*.c)
 * on arbitrary header blocks.  The input is two octets choosing our
 * SETTINGS_HEADER_TABLE_SIZE and SETTINGS_MAX_HEADER_LIST_SIZE (small
 * ones too, so every limit is reached), then blocks, each a length octet
 * and that many octets (the last takes what is left), decoded in turn
 * by one decoder, each from a buffer of exactly its size (so ASan sees
 * any read past it).  Checked:
 *  - the result is 0, HPACK_E_COMPRESSION or HPACK_E_LIST_TOO_LARGE;
 *    after a compression error the connection is over (no more blocks);
 *  - every field passed is readable to its end, and the fields passed
 *    add up (4.1) to no more than the list limit;
 *  - the table never exceeds its maximum, nor that our setting;
 *  - a block decoded whole (0) encodes again (hpack_encode_field) and
 *    decodes with a second decoder to the same fields, in order.
 */
#include <stdlib.h>
#include <string.h>

#include "tlsxd/h2/hpack.h"

static const size_t table_sizes[] = { 4096, 256, 0, 64, 100, 65536 };
static const size_t list_sizes[] = { SIZE_MAX, 16384, 200, 64, 0, 1000 };

struct fields {
	unsigned char buf[1 << 16];
	size_t len, list, max_list;
	unsigned int n;
	unsigned char sum;	/* every octet read, for ASan */
	int overflow;
};

/* Fields as (u32 name_len, u32 value_len, flags, name, value). */
static int collect(void *arg, const char *name, size_t name_len,
		   const char *value, size_t value_len, unsigned int flags)
{
	struct fields *f = arg;
	size_t i, need = 9 + name_len + value_len;
	uint32_t l;

	for (i = 0; i < name_len; i++)
		f->sum ^= (unsigned char)name[i];
	for (i = 0; i < value_len; i++)
		f->sum ^= (unsigned char)value[i];
	if (flags & ~HPACK_NEVER_INDEXED)
		abort();
	f->list += HPACK_ENTRY_OVERHEAD + name_len + value_len;
	if (f->list > f->max_list)
		abort();
	f->n++;
	if (f->overflow || need > sizeof(f->buf) - f->len) {
		f->overflow = 1;
		return 0;
	}
	l = (uint32_t)name_len;
	memcpy(f->buf + f->len, &l, 4);
	l = (uint32_t)value_len;
	memcpy(f->buf + f->len + 4, &l, 4);
	f->buf[f->len + 8] = (unsigned char)flags;
	memcpy(f->buf + f->len + 9, name, name_len);
	memcpy(f->buf + f->len + 9 + name_len, value, value_len);
	f->len += need;
	return 0;
}

static void check_table(const struct hpack_table *t, size_t setting)
{
	if (t->size > t->max_size || t->max_size > setting ||
	    t->count > t->cap_entries)
		abort();
}

/* Encode @f again with @e and decode it with @d2: the same fields. */
static void round_trip(struct hpack_encoder *e, struct hpack_decoder *d2,
		       const struct fields *f)
{
	static struct fields again;
	static unsigned char out[1 << 18];
	size_t off = 0, n = 0;
	int r;

	hpack_encode_block_begin(e);
	while (off < f->len) {
		uint32_t nl, vl;
		ssize_t w;

		memcpy(&nl, f->buf + off, 4);
		memcpy(&vl, f->buf + off + 4, 4);
		w = hpack_encode_field(e, out + n, sizeof(out) - n,
				       (const char *)f->buf + off + 9, nl,
				       (const char *)f->buf + off + 9 + nl, vl,
				       f->buf[off + 8]);
		if (w <= 0)
			abort();
		n += (size_t)w;
		off += 9 + nl + vl;
	}
	memset(&again, 0, sizeof(again));
	again.max_list = SIZE_MAX;
	r = hpack_decode_block(d2, out, n, SIZE_MAX, collect, &again);
	if (r || again.len != f->len || memcmp(again.buf, f->buf, f->len))
		abort();
	check_table(&d2->table, d2->settings_max);
	if (d2->table.size != e->table.size || d2->table.count != e->table.count)
		abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static struct fields f;
	struct hpack_decoder d, d2;
	struct hpack_encoder e;
	size_t setting, max_list;

	if (size < 2)
		return 0;
	setting = table_sizes[data[0] % 6];
	max_list = list_sizes[data[1] % 6];
	data += 2;
	size -= 2;
	if (hpack_decoder_init(&d, setting) ||
	    hpack_decoder_init(&d2, 4096) || hpack_encoder_init(&e, 4096))
		abort();
	while (size) {
		size_t len = data[0] < size - 1 ? data[0] : size - 1;
		unsigned char *blk = malloc(len ? len : 1);
		int r;

		if (!blk)
			abort();
		memcpy(blk, data + 1, len);
		memset(&f, 0, sizeof(f));
		f.max_list = max_list;
		r = hpack_decode_block(&d, blk, len, max_list, collect, &f);
		free(blk);
		data += 1 + len;
		size -= 1 + len;
		if (r == HPACK_E_COMPRESSION)
			break;
		if (r != 0 && r != HPACK_E_LIST_TOO_LARGE)
			abort();
		check_table(&d.table, setting);
		if (!r && !f.overflow)
			round_trip(&e, &d2, &f);
	}
	hpack_decoder_free(&d);
	hpack_decoder_free(&d2);
	hpack_encoder_free(&e);
	return 0;
}
