/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hpack.h - HPACK (RFC 7541), header compression for tlsxd's HTTP/2:
 * a decoder for the peer's header blocks (requests) and an encoder for
 * ours (responses), each with its own dynamic table.
 *
 * Bounded by construction: the decoder's dynamic table never holds more
 * than the SETTINGS_HEADER_TABLE_SIZE we advertised (it is allocated
 * once, at that size), integers and string lengths are capped, and the
 * only other allocation is a scratch buffer no larger than
 * max(max_table_size, max_list_size) and 2x the block.  A block that
 * references a big entry many times (the "HPACK bomb") costs no memory:
 * fields go to the callback one by one, and past max_list_size the
 * callback is no longer called.
 *
 * Not thread-safe: one decoder and one encoder per connection.
 */
#ifndef TLSXD_H2_HPACK_H
#define TLSXD_H2_HPACK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Field flags, to the decode callback and from the encode caller. */
/*
 * Decode: the field came as "never indexed" (6.2.3); keep it so when
 * passed on.  Encode: send it so (and never add it to the table).
 */
#define HPACK_NEVER_INDEXED	0x1u
/* Encode: a literal without indexing (6.2.2); the table is left alone. */
#define HPACK_NO_INDEX		0x2u

/*
 * Errors: below -4095, so never a negative errno a callback returns.
 * HPACK_E_COMPRESSION: the block is malformed (RFC 9113 4.3: connection
 * error COMPRESSION_ERROR; the decoder's state is then undefined).
 * HPACK_E_LIST_TOO_LARGE: the fields add up to more than max_list_size
 * (counted as RFC 7541 4.1 / RFC 9113 6.5.2: name + value + 32 each);
 * the whole block was still decoded, so the table is in step with the
 * peer's and the connection goes on (the caller refuses the stream:
 * 431, RFC 6585 5).
 */
#define HPACK_E_COMPRESSION	(-5001)
#define HPACK_E_LIST_TOO_LARGE	(-5002)

/* The size of an entry or a field: RFC 7541 4.1. */
#define HPACK_ENTRY_OVERHEAD	32
/* The RFC 7541 initial SETTINGS_HEADER_TABLE_SIZE (RFC 9113 6.5.2). */
#define HPACK_DEFAULT_TABLE_SIZE	4096
/*
 * The largest table either side may be created with: 16 MiB (a
 * SETTINGS value up to 2^32-1 would otherwise size an allocation).
 */
#define HPACK_TABLE_SIZE_MAX	(1u << 24)

/* Number of entries in the static table (Appendix A). */
#define HPACK_STATIC_ENTRIES	61

/*
 * A dynamic table (2.3.2, 4): entries in a byte ring of capacity
 * @cap_bytes (the table's maximum size: an entry's bytes never exceed
 * it, since each costs 32 more than its bytes), their descriptors in a
 * ring of @cap_entries = cap_bytes / 32.  Entry 0 is the newest
 * (index 62, 2.3.3).  hpack_table.c.
 */
struct hpack_entry {
	uint32_t off;		/* in bytes[], name then value (may wrap) */
	uint32_t name_len;
	uint32_t value_len;
};

struct hpack_table {
	unsigned char *bytes;
	struct hpack_entry *ents;
	uint32_t cap_bytes;	/* allocated: the most this table may be */
	uint32_t cap_entries;
	uint32_t first;		/* ents[] slot of the oldest entry */
	uint32_t count;
	uint32_t head;		/* bytes[] offset the next entry goes to */
	size_t size;		/* sum of 32 + name + value (4.1) */
	size_t max_size;	/* the current maximum (4.2), <= cap_bytes */
};

struct hpack_decoder {
	struct hpack_table table;
	size_t settings_max;	/* what we advertised: updates are <= it */
	/*
	 * where decoded strings go (Huffman) and wrapped entries are
	 * made contiguous
	 */
	unsigned char *scratch;
	size_t scratch_cap;
};

struct hpack_encoder {
	struct hpack_table table;
	size_t own_max;		/* our memory bound, from init */
	size_t peer_setting;	/* the peer's SETTINGS_HEADER_TABLE_SIZE */
	/*
	 * A size update is owed at the next block's start (4.2): the
	 * smallest size since the last one, then the current one.
	 */
	size_t update_min;
	int update_pending;
	int in_block_start;	/* no field yet in this block */
	int huffman;		/* Huffman-code strings unless longer */
};

/* ---- decoder ------------------------------------------------------- */

/*
 * @max_table_size: our SETTINGS_HEADER_TABLE_SIZE (<= HPACK_TABLE_SIZE_MAX);
 * the table starts at that maximum (the peer may lower it with a size
 * update).  Returns 0 or -ENOMEM / -EINVAL.
 */
int hpack_decoder_init(struct hpack_decoder *d, size_t max_table_size);
void hpack_decoder_free(struct hpack_decoder *d);

/*
 * Called once per field, in order.  @name and @value are valid only
 * during the call and not NUL-terminated (they may contain any byte:
 * RFC 9113 8.2.1's checks are the caller's).  Return 0 to go on, or a
 * negative value that hpack_decode_block() stops with and returns (the
 * decoder is then out of step with the peer: a connection error).
 */
typedef int (*hpack_field_fn)(void *arg, const char *name, size_t name_len,
			      const char *value, size_t value_len,
			      unsigned int flags);

/*
 * Decode one complete header block (HEADERS + CONTINUATION fragments,
 * joined).  @max_list_size: our SETTINGS_MAX_HEADER_LIST_SIZE (SIZE_MAX:
 * none).  Returns 0, HPACK_E_COMPRESSION, HPACK_E_LIST_TOO_LARGE (no
 * field after the limit was passed went to @fn; the block was decoded
 * to its end), or @fn's negative value.
 */
int hpack_decode_block(struct hpack_decoder *d, const unsigned char *in,
		       size_t len, size_t max_list_size, hpack_field_fn fn,
		       void *arg);

/* ---- encoder ------------------------------------------------------- */

/*
 * @max_table_size: the most our encoder's table may use (memory), at
 * most HPACK_TABLE_SIZE_MAX.  The table used is min(this, the peer's
 * setting), the peer's being 4096 until hpack_encoder_set_peer_table_size()
 * says otherwise.  Returns 0 or -ENOMEM / -EINVAL.
 */
int hpack_encoder_init(struct hpack_encoder *e, size_t max_table_size);
void hpack_encoder_free(struct hpack_encoder *e);

/*
 * The peer's SETTINGS_HEADER_TABLE_SIZE (when its SETTINGS frame is
 * applied): the table is resized to min(own, @size) and a dynamic table
 * size update is emitted at the start of the next block (4.2, 6.3).
 */
void hpack_encoder_set_peer_table_size(struct hpack_encoder *e, size_t size);

/*
 * Huffman-code strings unless that is longer (the default, on); off
 * for tests (RFC 7541 C.3, C.5).
 */
void hpack_encoder_set_huffman(struct hpack_encoder *e, int on);

/* Start a header block: a size update owed goes before its first field. */
void hpack_encode_block_begin(struct hpack_encoder *e);

/*
 * Append one field to the block: indexed when (name, value) is in a
 * table, else a literal naming the static (first) or dynamic entry with
 * that name, added to the table unless @flags say otherwise or the
 * entry could not fit.  Names must be lower case (RFC 9113 8.2.1: the
 * encoder does not fold them).
 *
 * Flags: HPACK_NO_INDEX for values that change with every response and
 * would only evict useful entries: content-length, etag, last-modified,
 * content-range (tlsxd's responses index :status, content-type, server,
 * date, accept-ranges, vary, cache-control, content-encoding: the same
 * values come back on every stream, each then one byte).  HPACK_NEVER_INDEXED
 * for secrets (set-cookie with a session, authorization: 7.1.3).
 *
 * Returns the bytes written, or -ENOSPC with nothing written and no
 * state changed (a bigger buffer may be given for the same field), or
 * -EINVAL for a string over HPACK_INT_MAX.  The fields before it in the
 * block did change the table: a block abandoned part way leaves the
 * encoder ahead of the peer's decoder, and the connection cannot go on
 * (send the block, or end the connection).
 */
ssize_t hpack_encode_field(struct hpack_encoder *e, unsigned char *out,
			   size_t cap, const char *name, size_t name_len,
			   const char *value, size_t value_len,
			   unsigned int flags);

/* ---- parts, for the encoder, decoder and tests ---------------------- */

/* hpack_huffman.c: Appendix B. */
/* Bytes @in would take Huffman-coded (padding included). */
size_t hpack_huffman_encoded_len(const unsigned char *in, size_t len);
/* Huffman-code @in into @out (hpack_huffman_encoded_len() bytes). */
void hpack_huffman_encode(const unsigned char *in, size_t len,
			  unsigned char *out);
/*
 * Decode @len bytes into @out (up to @cap bytes; the decoded length is
 * returned even when more than @cap, with only @cap bytes written).
 * Returns the decoded length or HPACK_E_COMPRESSION (EOS in the
 * string, padding over 7 bits or not the EOS prefix: 5.2).
 */
ssize_t hpack_huffman_decode(const unsigned char *in, size_t len,
			     unsigned char *out, size_t cap);
/* Appendix B's code of symbol @sym (0-256, 256 = EOS), for the tests. */
void hpack_huffman_code(unsigned int sym, uint32_t *code, unsigned int *bits);

/* hpack_table.c: the static table (Appendix A), index 1-61. */
struct hpack_static_entry {
	const char *name;
	const char *value;
	uint8_t name_len;
	uint8_t value_len;
};
extern const struct hpack_static_entry hpack_static[HPACK_STATIC_ENTRIES + 1];

int hpack_table_init(struct hpack_table *t, size_t cap);
void hpack_table_free(struct hpack_table *t);
/* 4.3: evict until size <= @max (<= cap_bytes). */
void hpack_table_set_max(struct hpack_table *t, size_t max);
/*
 * 4.4: evict to make room, then add (or empty the table when the entry
 * is larger than the maximum).  The strings must not lie in the table
 * (an entry named by one about to be evicted: copy the name first).
 */
void hpack_table_add(struct hpack_table *t, const char *name, size_t name_len,
		     const char *value, size_t value_len);
/*
 * Entry @i (0 = newest) of the dynamic table: the name and value, made
 * contiguous in @buf (cap_bytes long) where they wrap in the ring.
 */
void hpack_table_get(const struct hpack_table *t, uint32_t i,
		     const char **name, size_t *name_len,
		     const char **value, size_t *value_len, unsigned char *buf);

/*
 * The newest dynamic entry equal to (name, value): its index (0 =
 * newest), or -1.  *@name_index, UINT32_MAX on entry, becomes the
 * newest entry with that name, if any.
 */
int hpack_table_find(const struct hpack_table *t, const char *name,
		     size_t name_len, const char *value, size_t value_len,
		     uint32_t *name_index);
/*
 * The same in the static table: index 1-61 or 0; *@name_index the
 * first entry with the name, or 0.
 */
int hpack_static_find(const char *name, size_t name_len, const char *value,
		      size_t value_len, uint32_t *name_index);

/* 5.1: integers with an N-bit prefix, at most HPACK_INT_MAX. */
#define HPACK_INT_MAX	((1u << 28) - 1)
/*
 * Returns bytes read, 0 if @len ends first, HPACK_E_COMPRESSION over
 * HPACK_INT_MAX.
 */
int hpack_int_decode(const unsigned char *in, size_t len, unsigned int prefix,
		     uint32_t *val);
/* Bytes hpack_int_encode() writes. */
size_t hpack_int_len(uint32_t val, unsigned int prefix);
/* Writes the integer; the first byte's bits above the prefix are @first. */
size_t hpack_int_encode(unsigned char *out, uint32_t val, unsigned int prefix,
			unsigned char first);

#endif /* TLSXD_H2_HPACK_H */
