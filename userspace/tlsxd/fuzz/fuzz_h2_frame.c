// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_h2_frame.c - libFuzzer target: the HTTP/2 frame parser
 * (tlsxd/h2/h2_frame.c) on arbitrary bytes read as a stream of frames,
 * as h2_conn.c reads them.  The first input octet picks the frame size
 * limit (the minimum, or 1 MiB).  Checked, for every frame:
 *  - a frame's length is <= the limit, its octets lie inside the input
 *    (each frame is copied into a buffer of exactly its size, so ASan
 *    sees a read past it), and data/data_len lie inside its payload;
 *  - a stream error names the frame's stream and consumes exactly the
 *    frame; a connection error stops the stream;
 *  - every prefix of a frame shorter than it parses to "more" (or to
 *    the same error, found on the header alone: the size limit);
 *  - SETTINGS parameters iterate to exactly len / 6.
 */
#include <stdlib.h>
#include <string.h>

#include "tlsxd/h2/h2_frame.h"

static void check_frame(const uint8_t *buf, size_t used,
			const struct h2_frame *f, uint32_t max)
{
	size_t pos = 0, n = 0;
	uint16_t id;
	uint32_t v;

	if (f->h.len > max || used != H2_FRAME_HDR_LEN + f->h.len)
		abort();
	if (f->data < buf + H2_FRAME_HDR_LEN ||
	    f->data + f->data_len > buf + used)
		abort();
	if (f->h.type == H2_SETTINGS) {
		while (h2_settings_next(f, &pos, &id, &v))
			n++;
		if (n != f->h.len / 6)
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t max;
	size_t off = 1;

	if (!size)
		return 0;
	max = data[0] & 1 ? 1u << 20 : H2_FRAME_SIZE_MIN;
	while (off < size) {
		struct h2_frame f;
		struct h2_frame_err e;
		size_t used = 0, left = size - off, i;
		enum h2_parse r;
		uint8_t *copy;

		r = h2_frame_parse(data + off, left, max, &f, &used, &e);
		if (r == H2_PARSE_MORE)
			break;
		if (r == H2_PARSE_ERROR && !e.stream)
			break;
		if (used > left || used < H2_FRAME_HDR_LEN)
			abort();
		copy = malloc(used);
		if (!copy)
			return 0;
		memcpy(copy, data + off, used);
		r = h2_frame_parse(copy, used, max, &f, &used, &e);
		if (r == H2_PARSE_FRAME)
			check_frame(copy, used, &f, max);
		else if (r != H2_PARSE_ERROR || !e.stream ||
			 e.stream_id != f.h.stream || !e.stream_id)
			abort();
		for (i = 0; i < used; i++) {
			struct h2_frame g;
			struct h2_frame_err ge;
			size_t gu;

			if (h2_frame_parse(copy, i, max, &g, &gu, &ge) !=
			    H2_PARSE_MORE)
				abort();
		}
		free(copy);
		off += used;
	}
	return 0;
}
