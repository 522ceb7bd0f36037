/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proxy_proto.h - the PROXY protocol header a load balancer puts before
 * the TLS handshake (HAProxy's proxy-protocol.txt, versions 1 and 2):
 * a parser with no I/O.  conn_proxy.c reads the bytes; this says whether
 * they are a header, a prefix of one, or not one.
 */
#ifndef TLSXD_PROXY_PROTO_H
#define TLSXD_PROXY_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* 2.1: the longest v1 line, CRLF included ("PROXY UNKNOWN" + addresses). */
#define PROXY_V1_MAX	107
#define PROXY_V2_HEAD	16
/*
 * The longest v2 header taken: the 16 bytes, the largest address block
 * (AF_UNIX, 216) and room for TLVs.  The spec allows 16 + 65535; a
 * longer header than this is refused (closed), so that a connection
 * holds at most this much before its handshake (HAProxy's own TLVs are
 * tens of bytes).
 */
#define PROXY_HDR_MAX	1024

enum proxy_err {
	PROXY_E_SIGNATURE = 1,	/* neither "PROXY " nor v2's signature */
	PROXY_E_V1_SYNTAX,	/* not the exact line of 2.1 */
	PROXY_E_V1_LONG,	/* no CRLF in 107 bytes */
	PROXY_E_V2_VERSION,	/* the high nibble of byte 13 is not 2 */
	PROXY_E_V2_COMMAND,	/* neither LOCAL nor PROXY */
	PROXY_E_V2_FAMILY,	/* an unassigned family or protocol */
	PROXY_E_V2_SHORT,	/* the address block over the length */
	PROXY_E_V2_LONG,	/* over PROXY_HDR_MAX */
	PROXY_E_V2_TLV,		/* a TLV past the header's end */
	PROXY_E_V2_CRC,		/* PP2_TYPE_CRC32C does not match */
};

struct proxy_hdr {
	unsigned int version;		/* 1 or 2 */
	/*
	 * The connection's own endpoints stand: a v2 LOCAL (a health
	 * check), v1 UNKNOWN, v2 UNSPEC or an address family kept only
	 * as bytes here (AF_UNIX, datagrams: 2.2 lets a receiver fall
	 * back to UNSPEC for those).
	 */
	bool local;
	bool v2_local_cmd;		/* the v2 LOCAL command itself */
	struct sockaddr_storage src, dst;	/* when !local */
};

/*
 * Parses the start of a connection's bytes, @buf[0..@len).  Returns the
 * header's length when @buf holds a whole valid header (*@h filled), 0
 * when every byte so far is a valid prefix of one (read more), or
 * -PROXY_E_* (close the connection, 2.1: "must be discarded").  Only
 * the returned length is the header's: bytes after it are TLS.
 */
long proxy_parse(const uint8_t *buf, size_t len, struct proxy_hdr *h);

/* "bad signature", ... for the debug log. */
const char *proxy_strerror(long err);

/* CRC32c (RFC 4960 appendix B, the Castagnoli polynomial), for 2.2.3. */
uint32_t proxy_crc32c(uint32_t crc, const uint8_t *p, size_t len);

#endif
