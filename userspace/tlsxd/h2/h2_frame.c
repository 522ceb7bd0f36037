// SPDX-License-Identifier: GPL-2.0
/*
 * h2_frame.c - HTTP/2 frames in and out (RFC 9113 4, 6): the rules a
 * frame obeys alone, each where it is enforced with its section.  What
 * needs the connection's state (stream states 5.1, header block
 * sequences 4.3/6.10, windows 6.9) is h2_conn.c's.
 */
#include <string.h>

#include "h2_frame.h"

uint32_t h2_get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

void h2_frame_hdr_read(const uint8_t *p, struct h2_frame_hdr *h)
{
	h->len = (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
	h->type = p[3];
	h->flags = p[4];
	/* 4.1: the reserved bit MUST be ignored when receiving. */
	h->stream = h2_get32(p + 5) & H2_STREAM_ID_MAX;
}

static enum h2_parse conn_err(struct h2_frame_err *err, enum h2_error code)
{
	err->code = code;
	err->stream = false;
	err->stream_id = 0;
	return H2_PARSE_ERROR;
}

static enum h2_parse stream_err(struct h2_frame_err *err, enum h2_error code,
				uint32_t id)
{
	err->code = code;
	err->stream = true;
	err->stream_id = id;
	return H2_PARSE_ERROR;
}

/*
 * Padding (6.1, 6.2): a Pad Length octet first; padding as long as or
 * longer than what remains is PROTOCOL_ERROR.  Then HEADERS' priority
 * fields (6.2, five octets).  A payload too short for the fields its
 * flags announce is FRAME_SIZE_ERROR (4.2: "too small to contain
 * mandatory frame data").
 */
static enum h2_parse strip(struct h2_frame *f, struct h2_frame_err *err)
{
	const uint8_t *p = f->data;
	uint32_t len = f->h.len;
	uint32_t need = 0;

	if (f->h.flags & H2_F_PADDED)
		need += 1;
	if (f->h.type == H2_HEADERS && (f->h.flags & H2_F_PRIORITY))
		need += 5;
	if (len < need)
		return conn_err(err, H2_FRAME_SIZE_ERROR);
	if (f->h.flags & H2_F_PADDED) {
		f->pad_len = p[0];
		p++;
		len--;
	}
	if (f->h.type == H2_HEADERS && (f->h.flags & H2_F_PRIORITY)) {
		f->has_priority = true;
		f->dep = h2_get32(p) & H2_STREAM_ID_MAX;
		p += 5;
		len -= 5;
	}
	/*
	 * 6.1: "If the length of the padding is the length of the frame
	 * payload or greater, the recipient MUST treat this as a
	 * connection error of type PROTOCOL_ERROR"; 6.2 likewise for
	 * padding past the field block fragment.
	 */
	if (f->pad_len > len)
		return conn_err(err, H2_PROTOCOL_ERROR);
	f->data = p;
	f->data_len = len - f->pad_len;
	return H2_PARSE_FRAME;
}

/* The rules of each type on the stream id and the length (6.1-6.10). */
static enum h2_parse check_type(struct h2_frame *f, struct h2_frame_err *err)
{
	const struct h2_frame_hdr *h = &f->h;

	switch (h->type) {
	case H2_DATA:		/* 6.1 */
	case H2_HEADERS:	/* 6.2 */
		if (!h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		if (strip(f, err) != H2_PARSE_FRAME)
			return H2_PARSE_ERROR;
		/* 5.3.1: a stream cannot depend on itself. */
		if (f->has_priority && f->dep == h->stream)
			return stream_err(err, H2_PROTOCOL_ERROR, h->stream);
		return H2_PARSE_FRAME;
	case H2_PRIORITY:	/* 6.3 */
		if (!h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		if (h->len != 5)
			return stream_err(err, H2_FRAME_SIZE_ERROR, h->stream);
		f->has_priority = true;
		f->dep = h2_get32(f->data) & H2_STREAM_ID_MAX;
		if (f->dep == h->stream)
			return stream_err(err, H2_PROTOCOL_ERROR, h->stream);
		return H2_PARSE_FRAME;
	case H2_RST_STREAM:	/* 6.4 */
		if (!h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		if (h->len != 4)
			return conn_err(err, H2_FRAME_SIZE_ERROR);
		return H2_PARSE_FRAME;
	case H2_SETTINGS:	/* 6.5 */
		if (h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		if ((h->flags & H2_F_ACK) && h->len)
			return conn_err(err, H2_FRAME_SIZE_ERROR);
		if (h->len % 6)
			return conn_err(err, H2_FRAME_SIZE_ERROR);
		return H2_PARSE_FRAME;
	case H2_PUSH_PROMISE:
		/* 8.4: a client cannot push; 6.6: a server MUST refuse it. */
		return conn_err(err, H2_PROTOCOL_ERROR);
	case H2_PING:		/* 6.7 */
		if (h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		if (h->len != 8)
			return conn_err(err, H2_FRAME_SIZE_ERROR);
		return H2_PARSE_FRAME;
	case H2_GOAWAY:		/* 6.8 */
		if (h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		if (h->len < 8)
			return conn_err(err, H2_FRAME_SIZE_ERROR);
		return H2_PARSE_FRAME;
	case H2_WINDOW_UPDATE:	/* 6.9 */
		if (h->len != 4)
			return conn_err(err, H2_FRAME_SIZE_ERROR);
		/*
		 * An increment of 0: PROTOCOL_ERROR, a stream error on a
		 * stream, a connection error on the connection's window.
		 */
		if (!(h2_get32(f->data) & H2_WINDOW_MAX)) {
			if (h->stream)
				return stream_err(err, H2_PROTOCOL_ERROR,
						  h->stream);
			return conn_err(err, H2_PROTOCOL_ERROR);
		}
		return H2_PARSE_FRAME;
	case H2_CONTINUATION:	/* 6.10 */
		if (!h->stream)
			return conn_err(err, H2_PROTOCOL_ERROR);
		return H2_PARSE_FRAME;
	}
	/* 4.1, 5.5: a frame of an unknown type is ignored. */
	return H2_PARSE_FRAME;
}

enum h2_parse h2_frame_parse(const uint8_t *buf, size_t len,
			     uint32_t max_frame_size, struct h2_frame *f,
			     size_t *used, struct h2_frame_err *err)
{
	if (len < H2_FRAME_HDR_LEN)
		return H2_PARSE_MORE;
	memset(f, 0, sizeof(*f));
	h2_frame_hdr_read(buf, &f->h);
	/*
	 * 4.2: a frame over our SETTINGS_MAX_FRAME_SIZE is FRAME_SIZE_ERROR;
	 * as a connection error always (4.2 requires it for the frames
	 * that alter the connection, and allows it for the rest), and
	 * before its payload is read: nothing is buffered past the limit.
	 */
	if (f->h.len > max_frame_size)
		return conn_err(err, H2_FRAME_SIZE_ERROR);
	if (len - H2_FRAME_HDR_LEN < f->h.len)
		return H2_PARSE_MORE;
	f->data = buf + H2_FRAME_HDR_LEN;
	f->data_len = f->h.len;
	*used = H2_FRAME_HDR_LEN + f->h.len;
	return check_type(f, err);
}

bool h2_settings_next(const struct h2_frame *f, size_t *pos, uint16_t *id,
		      uint32_t *value)
{
	const uint8_t *p;

	if (*pos + 6 > f->data_len)
		return false;
	p = f->data + *pos;
	*id = (uint16_t)(p[0] << 8 | p[1]);
	*value = h2_get32(p + 2);
	*pos += 6;
	return true;
}

enum h2_error h2_setting_check(uint16_t id, uint32_t value)
{
	switch (id) {
	case H2_SET_ENABLE_PUSH:
		/* 6.5.2: other than 0 or 1 is PROTOCOL_ERROR. */
		return value > 1 ? H2_PROTOCOL_ERROR : H2_NO_ERROR;
	case H2_SET_INITIAL_WINDOW_SIZE:
		/* 6.5.2: above 2^31-1 is FLOW_CONTROL_ERROR. */
		return value > H2_WINDOW_MAX ? H2_FLOW_CONTROL_ERROR :
		       H2_NO_ERROR;
	case H2_SET_MAX_FRAME_SIZE:
		/* 6.5.2: outside 2^14..2^24-1 is PROTOCOL_ERROR. */
		return value < H2_FRAME_SIZE_MIN || value > H2_FRAME_SIZE_MAX ?
		       H2_PROTOCOL_ERROR : H2_NO_ERROR;
	}
	/* 6.5.2: an unknown setting MUST be ignored. */
	return H2_NO_ERROR;
}

size_t h2_write_hdr(uint8_t *p, uint32_t len, enum h2_type type,
		    uint8_t flags, uint32_t stream)
{
	p[0] = len >> 16;
	p[1] = len >> 8;
	p[2] = len;
	p[3] = type;
	p[4] = flags;
	/* 4.1: the reserved bit MUST remain unset when sending. */
	put32(p + 5, stream & H2_STREAM_ID_MAX);
	return H2_FRAME_HDR_LEN;
}

size_t h2_write_settings(uint8_t *p, const struct h2_setting *s,
			 unsigned int n)
{
	size_t off = h2_write_hdr(p, 6 * n, H2_SETTINGS, 0, 0);
	unsigned int i;

	for (i = 0; i < n; i++) {
		p[off] = s[i].id >> 8;
		p[off + 1] = s[i].id;
		put32(p + off + 2, s[i].value);
		off += 6;
	}
	return off;
}

size_t h2_write_settings_ack(uint8_t *p)
{
	return h2_write_hdr(p, 0, H2_SETTINGS, H2_F_ACK, 0);
}

size_t h2_write_ping_ack(uint8_t *p, const uint8_t *opaque)
{
	size_t off = h2_write_hdr(p, 8, H2_PING, H2_F_ACK, 0);

	memcpy(p + off, opaque, 8);
	return off + 8;
}

size_t h2_write_goaway(uint8_t *p, uint32_t last, enum h2_error code)
{
	size_t off = h2_write_hdr(p, 8, H2_GOAWAY, 0, 0);

	put32(p + off, last & H2_STREAM_ID_MAX);
	put32(p + off + 4, code);
	return off + 8;
}

size_t h2_write_rst_stream(uint8_t *p, uint32_t stream, enum h2_error code)
{
	size_t off = h2_write_hdr(p, 4, H2_RST_STREAM, 0, stream);

	put32(p + off, code);
	return off + 4;
}

size_t h2_write_window_update(uint8_t *p, uint32_t stream, uint32_t inc)
{
	size_t off = h2_write_hdr(p, 4, H2_WINDOW_UPDATE, 0, stream);

	put32(p + off, inc & H2_WINDOW_MAX);
	return off + 4;
}

const char *h2_error_name(enum h2_error code)
{
	static const char *const names[] = {
		[H2_NO_ERROR] = "NO_ERROR",
		[H2_PROTOCOL_ERROR] = "PROTOCOL_ERROR",
		[H2_INTERNAL_ERROR] = "INTERNAL_ERROR",
		[H2_FLOW_CONTROL_ERROR] = "FLOW_CONTROL_ERROR",
		[H2_SETTINGS_TIMEOUT] = "SETTINGS_TIMEOUT",
		[H2_STREAM_CLOSED] = "STREAM_CLOSED",
		[H2_FRAME_SIZE_ERROR] = "FRAME_SIZE_ERROR",
		[H2_REFUSED_STREAM] = "REFUSED_STREAM",
		[H2_CANCEL] = "CANCEL",
		[H2_COMPRESSION_ERROR] = "COMPRESSION_ERROR",
		[H2_CONNECT_ERROR] = "CONNECT_ERROR",
		[H2_ENHANCE_YOUR_CALM] = "ENHANCE_YOUR_CALM",
		[H2_INADEQUATE_SECURITY] = "INADEQUATE_SECURITY",
		[H2_HTTP_1_1_REQUIRED] = "HTTP_1_1_REQUIRED",
	};

	if ((unsigned int)code <= H2_HTTP_1_1_REQUIRED)
		return names[code];
	return "UNKNOWN";
}
