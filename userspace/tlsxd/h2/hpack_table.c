// SPDX-License-Identifier: GPL-2.0
/*
 * hpack_table.c - HPACK's tables (RFC 7541 2.3): the static table
 * (Appendix A) and a bounded dynamic table (4): entries as a ring of
 * descriptors over a ring of bytes, both allocated once at the largest
 * size the table may have, FIFO eviction (4.3, 4.4), sizes counted as
 * 4.1 says (32 + name + value).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tlsxd/h2/hpack.h"

#define S(n, v) { n, v, sizeof(n) - 1, sizeof(v) - 1 }

/* Appendix A; index 0 is unused (6.1: index 0 is an error). */
const struct hpack_static_entry hpack_static[HPACK_STATIC_ENTRIES + 1] = {
	S("", ""),
	S(":authority", ""),
	S(":method", "GET"),
	S(":method", "POST"),
	S(":path", "/"),
	S(":path", "/index.html"),
	S(":scheme", "http"),
	S(":scheme", "https"),
	S(":status", "200"),
	S(":status", "204"),
	S(":status", "206"),
	S(":status", "304"),
	S(":status", "400"),
	S(":status", "404"),
	S(":status", "500"),
	S("accept-charset", ""),
	S("accept-encoding", "gzip, deflate"),
	S("accept-language", ""),
	S("accept-ranges", ""),
	S("accept", ""),
	S("access-control-allow-origin", ""),
	S("age", ""),
	S("allow", ""),
	S("authorization", ""),
	S("cache-control", ""),
	S("content-disposition", ""),
	S("content-encoding", ""),
	S("content-language", ""),
	S("content-length", ""),
	S("content-location", ""),
	S("content-range", ""),
	S("content-type", ""),
	S("cookie", ""),
	S("date", ""),
	S("etag", ""),
	S("expect", ""),
	S("expires", ""),
	S("from", ""),
	S("host", ""),
	S("if-match", ""),
	S("if-modified-since", ""),
	S("if-none-match", ""),
	S("if-range", ""),
	S("if-unmodified-since", ""),
	S("last-modified", ""),
	S("link", ""),
	S("location", ""),
	S("max-forwards", ""),
	S("proxy-authenticate", ""),
	S("proxy-authorization", ""),
	S("range", ""),
	S("referer", ""),
	S("refresh", ""),
	S("retry-after", ""),
	S("server", ""),
	S("set-cookie", ""),
	S("strict-transport-security", ""),
	S("transfer-encoding", ""),
	S("user-agent", ""),
	S("vary", ""),
	S("via", ""),
	S("www-authenticate", ""),
};

int hpack_table_init(struct hpack_table *t, size_t cap)
{
	memset(t, 0, sizeof(*t));
	if (cap > HPACK_TABLE_SIZE_MAX)
		return -EINVAL;
	t->cap_bytes = (uint32_t)cap;
	t->cap_entries = (uint32_t)(cap / HPACK_ENTRY_OVERHEAD);
	t->max_size = cap;
	if (!t->cap_entries)	/* no entry fits: nothing to hold */
		return 0;
	t->bytes = malloc(cap);
	t->ents = calloc(t->cap_entries, sizeof(*t->ents));
	if (!t->bytes || !t->ents) {
		hpack_table_free(t);
		return -ENOMEM;
	}
	return 0;
}

void hpack_table_free(struct hpack_table *t)
{
	free(t->bytes);
	free(t->ents);
	memset(t, 0, sizeof(*t));
}

static void evict_oldest(struct hpack_table *t)
{
	const struct hpack_entry *e = &t->ents[t->first];

	t->size -= HPACK_ENTRY_OVERHEAD + e->name_len + e->value_len;
	t->first = (t->first + 1) % t->cap_entries;
	if (!--t->count)
		t->head = 0;	/* empty: start over, unwrapped */
}

void hpack_table_set_max(struct hpack_table *t, size_t max)
{
	if (max > t->cap_bytes)	/* callers check; never past the ring */
		max = t->cap_bytes;
	while (t->size > max)
		evict_oldest(t);
	t->max_size = max;
}

/* Copy @n bytes into the byte ring at @off, wrapping; the new offset. */
static uint32_t ring_put(struct hpack_table *t, uint32_t off,
			 const char *s, size_t n)
{
	size_t room = t->cap_bytes - off;

	if (!n)
		return off;
	if (n <= room) {
		memcpy(t->bytes + off, s, n);
	} else {
		memcpy(t->bytes + off, s, room);
		memcpy(t->bytes, s + room, n - room);
	}
	return (uint32_t)((off + n) % t->cap_bytes);
}

void hpack_table_add(struct hpack_table *t, const char *name, size_t name_len,
		     const char *value, size_t value_len)
{
	size_t sz = HPACK_ENTRY_OVERHEAD + name_len + value_len;
	struct hpack_entry *e;
	uint32_t off;

	/* 4.4: a larger entry than the table empties it and is not added. */
	if (sz > t->max_size) {
		while (t->count)
			evict_oldest(t);
		return;
	}
	while (t->size + sz > t->max_size)
		evict_oldest(t);
	/*
	 * Room is certain: the live bytes plus these are at most
	 * max_size - 32 * (count + 1) < cap_bytes, and count + 1 entries
	 * of 32 or more fit in max_size <= 32 * cap_entries + 31.
	 */
	e = &t->ents[(t->first + t->count) % t->cap_entries];
	e->off = t->head;
	e->name_len = (uint32_t)name_len;
	e->value_len = (uint32_t)value_len;
	off = ring_put(t, t->head, name, name_len);
	t->head = ring_put(t, off, value, value_len);
	t->count++;
	t->size += sz;
}

static const struct hpack_entry *entry(const struct hpack_table *t,
				       uint32_t i)
{
	return &t->ents[(t->first + t->count - 1 - i) % t->cap_entries];
}

/* @n bytes at ring offset @off, contiguous: in place or copied to @buf. */
static const char *ring_str(const struct hpack_table *t, uint32_t off,
			    size_t n, unsigned char *buf)
{
	size_t room = t->cap_bytes - off;

	if (n <= room)
		return (const char *)t->bytes + off;
	memcpy(buf, t->bytes + off, room);
	memcpy(buf + room, t->bytes, n - room);
	return (const char *)buf;
}

void hpack_table_get(const struct hpack_table *t, uint32_t i,
		     const char **name, size_t *name_len,
		     const char **value, size_t *value_len, unsigned char *buf)
{
	const struct hpack_entry *e = entry(t, i);
	uint32_t voff = (uint32_t)((e->off + e->name_len) % t->cap_bytes);

	/* The entry's bytes wrap once at most: @buf serves one string. */
	*name = ring_str(t, e->off, e->name_len, buf);
	*name_len = e->name_len;
	*value = ring_str(t, voff, e->value_len, buf);
	*value_len = e->value_len;
}

/* Do the @n bytes at ring offset @off equal @s? */
static int ring_eq(const struct hpack_table *t, uint32_t off, const char *s,
		   size_t n)
{
	size_t room = t->cap_bytes - off;

	if (!n)
		return 1;
	if (n <= room)
		return !memcmp(t->bytes + off, s, n);
	return !memcmp(t->bytes + off, s, room) &&
	       !memcmp(t->bytes, s + room, n - room);
}

int hpack_table_find(const struct hpack_table *t, const char *name,
		     size_t name_len, const char *value, size_t value_len,
		     uint32_t *name_index)
{
	uint32_t i;

	for (i = 0; i < t->count; i++) {
		const struct hpack_entry *e = entry(t, i);

		if (e->name_len != name_len || !ring_eq(t, e->off, name, name_len))
			continue;
		if (*name_index == UINT32_MAX)
			*name_index = i;
		if (e->value_len == value_len &&
		    ring_eq(t, (uint32_t)((e->off + name_len) % t->cap_bytes),
			    value, value_len))
			return (int)i;
	}
	return -1;
}

int hpack_static_find(const char *name, size_t name_len, const char *value,
		      size_t value_len, uint32_t *name_index)
{
	uint32_t i;

	*name_index = 0;
	for (i = 1; i <= HPACK_STATIC_ENTRIES; i++) {
		const struct hpack_static_entry *s = &hpack_static[i];

		if (s->name_len != name_len || memcmp(s->name, name, name_len))
			continue;
		if (!*name_index)
			*name_index = i;
		if (s->value_len == value_len &&
		    (!value_len || !memcmp(s->value, value, value_len)))
			return (int)i;
	}
	return 0;
}
