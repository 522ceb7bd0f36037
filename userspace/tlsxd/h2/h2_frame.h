/* SPDX-License-Identifier: GPL-2.0 */
/*
 * h2_frame.h - HTTP/2 frames (RFC 9113 4, 6): the 9-byte header, the
 * checks a frame passes alone (its type's length, flags, stream id,
 * padding, priority fields), SETTINGS values (6.5.2), and the writers
 * of the frames a server sends.  No state beyond the caller's
 * SETTINGS_MAX_FRAME_SIZE, no I/O, no allocation: unit-tested and
 * fuzzed (docs/http2.md).  The checks that need the connection's state
 * (stream states, header block sequences, windows) are h2_conn.c's.
 */
#ifndef TLSXD_H2_FRAME_H
#define TLSXD_H2_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

#define H2_FRAME_HDR_LEN	9
/* 4.2, 6.5.2: SETTINGS_MAX_FRAME_SIZE's initial value and its range. */
#define H2_FRAME_SIZE_MIN	16384u
#define H2_FRAME_SIZE_MAX	16777215u
/* 6.9.1: a window may not pass 2^31 - 1; 6.9.2's initial value. */
#define H2_WINDOW_MAX		0x7fffffffu
#define H2_WINDOW_INITIAL	65535u
/* 5.1.1: stream identifiers are 31 bits. */
#define H2_STREAM_ID_MAX	0x7fffffffu
/* 3.4: the client's connection preface starts with these 24 octets. */
#define H2_PREFACE		"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
#define H2_PREFACE_LEN		24

enum h2_type {			/* 6 */
	H2_DATA = 0x0,
	H2_HEADERS = 0x1,
	H2_PRIORITY = 0x2,
	H2_RST_STREAM = 0x3,
	H2_SETTINGS = 0x4,
	H2_PUSH_PROMISE = 0x5,
	H2_PING = 0x6,
	H2_GOAWAY = 0x7,
	H2_WINDOW_UPDATE = 0x8,
	H2_CONTINUATION = 0x9,
};

/* Flags (6): each meaningful only on the types named. */
#define H2_F_END_STREAM		0x01	/* DATA, HEADERS */
#define H2_F_ACK		0x01	/* SETTINGS, PING */
#define H2_F_END_HEADERS	0x04	/* HEADERS, CONTINUATION */
#define H2_F_PADDED		0x08	/* DATA, HEADERS */
#define H2_F_PRIORITY		0x20	/* HEADERS */

enum h2_error {			/* 7 */
	H2_NO_ERROR = 0x0,
	H2_PROTOCOL_ERROR = 0x1,
	H2_INTERNAL_ERROR = 0x2,
	H2_FLOW_CONTROL_ERROR = 0x3,
	H2_SETTINGS_TIMEOUT = 0x4,
	H2_STREAM_CLOSED = 0x5,
	H2_FRAME_SIZE_ERROR = 0x6,
	H2_REFUSED_STREAM = 0x7,
	H2_CANCEL = 0x8,
	H2_COMPRESSION_ERROR = 0x9,
	H2_CONNECT_ERROR = 0xa,
	H2_ENHANCE_YOUR_CALM = 0xb,
	H2_INADEQUATE_SECURITY = 0xc,
	H2_HTTP_1_1_REQUIRED = 0xd,
};

enum h2_setting_id {		/* 6.5.2 */
	H2_SET_HEADER_TABLE_SIZE = 0x1,
	H2_SET_ENABLE_PUSH = 0x2,
	H2_SET_MAX_CONCURRENT_STREAMS = 0x3,
	H2_SET_INITIAL_WINDOW_SIZE = 0x4,
	H2_SET_MAX_FRAME_SIZE = 0x5,
	H2_SET_MAX_HEADER_LIST_SIZE = 0x6,
};

struct h2_frame_hdr {
	uint32_t len;		/* 24 bits */
	uint8_t type;
	uint8_t flags;
	uint32_t stream;	/* the reserved bit cleared (4.1) */
};

/*
 * A frame that passed h2_frame_parse(): @data/@data_len is the payload
 * with padding and the priority fields taken off (DATA and HEADERS: the
 * content or field block fragment; others: the whole payload).
 */
struct h2_frame {
	struct h2_frame_hdr h;
	const uint8_t *data;
	uint32_t data_len;
	uint32_t pad_len;	/* padding octets (flow-controlled, 6.1) */
	bool has_priority;	/* HEADERS with PRIORITY, or PRIORITY */
	uint32_t dep;		/* its stream dependency (5.3, read only) */
};

enum h2_parse {
	H2_PARSE_MORE,		/* not a whole frame yet: read on */
	H2_PARSE_FRAME,		/* *@f is a frame of *@used octets */
	H2_PARSE_ERROR,		/* *@err says which */
};

/* An error found in a frame: its code, and whether only its stream dies. */
struct h2_frame_err {
	enum h2_error code;
	bool stream;		/* 5.4.2: RST_STREAM; else 5.4.1: GOAWAY */
	uint32_t stream_id;
};

/* Reads the 9-byte header at @p. */
void h2_frame_hdr_read(const uint8_t *p, struct h2_frame_hdr *h);

/*
 * The frame at the start of @buf[0..@len): its header checked against
 * @max_frame_size (our SETTINGS_MAX_FRAME_SIZE, 4.2) as soon as the 9
 * octets are there, so an oversized frame is refused before its payload
 * is read; then, once whole, its type's rules (6.1-6.10).  A frame of an
 * unknown type passes (4.1: ignored by the caller).  On an error
 * @err->stream says whether it is a stream error (the connection goes
 * on: the caller resets @err->stream_id and skips *@used octets, which
 * is then set) or a connection error (*@used undefined).
 */
enum h2_parse h2_frame_parse(const uint8_t *buf, size_t len,
			     uint32_t max_frame_size, struct h2_frame *f,
			     size_t *used, struct h2_frame_err *err);

/*
 * SETTINGS parameters of @f (already parsed): the next one at *@pos
 * (start at 0) in *@id and *@value; false when none is left.
 */
bool h2_settings_next(const struct h2_frame *f, size_t *pos, uint16_t *id,
		      uint32_t *value);

/* 6.5.2: H2_NO_ERROR when @value is allowed for @id, else the code. */
enum h2_error h2_setting_check(uint16_t id, uint32_t value);

/* The four-octet big-endian value at @p, reserved bit kept. */
uint32_t h2_get32(const uint8_t *p);

/* ---- writers: each returns the octets written at @p ------------------ */

/* A frame header; @len < 2^24. */
size_t h2_write_hdr(uint8_t *p, uint32_t len, enum h2_type type,
		    uint8_t flags, uint32_t stream);

struct h2_setting {
	uint16_t id;
	uint32_t value;
};
/* SETTINGS with @n parameters (H2_FRAME_HDR_LEN + 6 * @n octets). */
size_t h2_write_settings(uint8_t *p, const struct h2_setting *s,
			 unsigned int n);
/* SETTINGS with ACK (6.5.3). */
size_t h2_write_settings_ack(uint8_t *p);
/* PING with ACK echoing @opaque's 8 octets (6.7). */
size_t h2_write_ping_ack(uint8_t *p, const uint8_t *opaque);
/* GOAWAY (6.8): @last stream processed, @code, no debug data. */
size_t h2_write_goaway(uint8_t *p, uint32_t last, enum h2_error code);
/* RST_STREAM (6.4). */
size_t h2_write_rst_stream(uint8_t *p, uint32_t stream, enum h2_error code);
/* WINDOW_UPDATE (6.9), @inc in 1..2^31-1. */
size_t h2_write_window_update(uint8_t *p, uint32_t stream, uint32_t inc);

/* The name of @code, for logs ("PROTOCOL_ERROR"). */
const char *h2_error_name(enum h2_error code);

#endif
