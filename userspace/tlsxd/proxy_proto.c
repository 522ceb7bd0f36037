// SPDX-License-Identifier: GPL-2.0
/*
 * proxy_proto.c - the PROXY protocol header, versions 1 and 2 (HAProxy's
 * proxy-protocol.txt; the section numbers below are that document's).
 * No I/O: conn_proxy.c feeds the bytes read so far, and a prefix of a
 * header is told apart from a header and from garbage, so that a header
 * split over several reads is read to its end and no TLS byte after it
 * is taken.  Anything that is not exactly the protocol is refused (2.1:
 * "must be discarded and cause the receiver to abort the connection");
 * nothing is guessed (1: a listener configured for the protocol takes
 * nothing else).
 */
#include <arpa/inet.h>
#include <string.h>

#include "proxy_proto.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* 2.2: the 12-byte signature; byte 13's high nibble is the version. */
static const uint8_t v2_sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a
};

static const char v1_sig[] = "PROXY ";
#define V1_SIG_LEN	(sizeof(v1_sig) - 1)

enum {
	V2_CMD_LOCAL = 0x0,
	V2_CMD_PROXY = 0x1,
	V2_AF_UNSPEC = 0x0,
	V2_AF_INET = 0x1,
	V2_AF_INET6 = 0x2,
	V2_AF_UNIX = 0x3,
	V2_PROTO_UNSPEC = 0x0,
	V2_PROTO_STREAM = 0x1,
	V2_PROTO_DGRAM = 0x2,
	PP2_TYPE_CRC32C = 0x03,		/* 2.2.3 */
	TLV_HEAD = 3,			/* type, length (2 bytes) */
};

/* The address block of each family (2.2): two addresses, two ports. */
static const uint16_t v2_addr_len[] = {
	[V2_AF_UNSPEC] = 0,
	[V2_AF_INET] = 2 * 4 + 2 * 2,
	[V2_AF_INET6] = 2 * 16 + 2 * 2,
	[V2_AF_UNIX] = 2 * 108,
};

static const char *const errors[] = {
	[PROXY_E_SIGNATURE] = "not a PROXY protocol header",
	[PROXY_E_V1_SYNTAX] = "v1: not a valid PROXY line",
	[PROXY_E_V1_LONG] = "v1: no CRLF in 107 bytes",
	[PROXY_E_V2_VERSION] = "v2: version is not 2",
	[PROXY_E_V2_COMMAND] = "v2: unassigned command",
	[PROXY_E_V2_FAMILY] = "v2: unassigned family or protocol",
	[PROXY_E_V2_SHORT] = "v2: address block longer than the header",
	[PROXY_E_V2_LONG] = "v2: header longer than tlsxd takes",
	[PROXY_E_V2_TLV] = "v2: malformed TLV",
	[PROXY_E_V2_CRC] = "v2: CRC32c mismatch",
};

const char *proxy_strerror(long err)
{
	unsigned long e = err < 0 ? (unsigned long)-err : (unsigned long)err;

	if (e && e < ARRAY_SIZE(errors) && errors[e])
		return errors[e];
	return "unknown error";
}

uint32_t proxy_crc32c(uint32_t crc, const uint8_t *p, size_t len)
{
	int k;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1)));
	}
	return ~crc;
}

/* ---- version 1 (2.1) --------------------------------------------- */

static bool is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/*
 * A decimal in [0, @max] with no leading zero (2.1: "Heading zeroes are
 * not permitted"): "0" alone is zero.
 */
static bool v1_decimal(const char *s, size_t len, unsigned int max,
		       unsigned int *out)
{
	unsigned int v = 0;
	size_t i;

	if (!len || len > 5 || (len > 1 && s[0] == '0'))
		return false;
	for (i = 0; i < len; i++) {
		if (!is_digit(s[i]))
			return false;
		v = v * 10 + (unsigned int)(s[i] - '0');
	}
	if (v > max)
		return false;
	*out = v;
	return true;
}

/* Four decimals in [0, 255], one dot between each (2.1). */
static bool v1_ipv4(const char *s, size_t len, struct in_addr *a)
{
	uint8_t b[4];
	size_t i = 0, start;
	unsigned int v;
	int k;

	for (k = 0; k < 4; k++) {
		start = i;
		while (i < len && s[i] != '.')
			i++;
		if (!v1_decimal(s + start, i - start, 255, &v) || v > 255)
			return false;
		b[k] = (uint8_t)v;
		if (k < 3) {
			if (i == len)
				return false;
			i++;
		}
	}
	if (i != len)
		return false;
	memcpy(&a->s_addr, b, 4);
	return true;
}

/* Hex groups and colons, one "::" at most, 128 bits (2.1). */
static bool v1_ipv6(const char *s, size_t len, struct in6_addr *a)
{
	char tmp[40];
	size_t i;

	if (len < 2 || len > 39)
		return false;
	for (i = 0; i < len; i++) {
		char ch = s[i];

		if (!is_digit(ch) && ch != ':' && !(ch >= 'a' && ch <= 'f') &&
		    !(ch >= 'A' && ch <= 'F'))
			return false;
	}
	memcpy(tmp, s, len);
	tmp[len] = '\0';
	return inet_pton(AF_INET6, tmp, a) == 1;
}

/*
 * The line's fields after "PROXY ", @s[0..@len) without the CRLF: the
 * family, then for TCP4/TCP6 exactly four more, one space apart.
 */
static bool v1_fields(const char *s, size_t len, struct proxy_hdr *h)
{
	const char *f[5];
	size_t fl[5], i = 0;
	unsigned int n = 0, sport, dport;
	bool v6;

	if (len >= 7 && !memcmp(s, "UNKNOWN", 7)) {
		/* 2.1: the rest of the line is ignored. */
		if (len > 7 && s[7] != ' ')
			return false;
		h->local = true;
		return true;
	}
	while (n < 5) {
		f[n] = s + i;
		while (i < len && s[i] != ' ')
			i++;
		fl[n] = (size_t)(s + i - f[n]);
		if (!fl[n])
			return false;		/* two spaces, or a leading one */
		n++;
		if (i == len)
			break;
		i++;				/* the one space */
		if (i == len)
			return false;		/* a trailing space */
	}
	if (n != 5 || i != len)
		return false;
	if (fl[0] == 4 && !memcmp(f[0], "TCP4", 4))
		v6 = false;
	else if (fl[0] == 4 && !memcmp(f[0], "TCP6", 4))
		v6 = true;
	else
		return false;
	if (!v1_decimal(f[3], fl[3], 65535, &sport) ||
	    !v1_decimal(f[4], fl[4], 65535, &dport))
		return false;
	if (v6) {
		struct sockaddr_in6 *src = (struct sockaddr_in6 *)&h->src;
		struct sockaddr_in6 *dst = (struct sockaddr_in6 *)&h->dst;

		if (!v1_ipv6(f[1], fl[1], &src->sin6_addr) ||
		    !v1_ipv6(f[2], fl[2], &dst->sin6_addr))
			return false;
		src->sin6_family = AF_INET6;
		dst->sin6_family = AF_INET6;
		src->sin6_port = htons((uint16_t)sport);
		dst->sin6_port = htons((uint16_t)dport);
	} else {
		struct sockaddr_in *src = (struct sockaddr_in *)&h->src;
		struct sockaddr_in *dst = (struct sockaddr_in *)&h->dst;

		if (!v1_ipv4(f[1], fl[1], &src->sin_addr) ||
		    !v1_ipv4(f[2], fl[2], &dst->sin_addr))
			return false;
		src->sin_family = AF_INET;
		dst->sin_family = AF_INET;
		src->sin_port = htons((uint16_t)sport);
		dst->sin_port = htons((uint16_t)dport);
	}
	return true;
}

static long parse_v1(const uint8_t *b, size_t len, struct proxy_hdr *h)
{
	size_t i, n = len < V1_SIG_LEN ? len : V1_SIG_LEN;

	if (memcmp(b, v1_sig, n))
		return -PROXY_E_SIGNATURE;
	/*
	 * 2.1: the line ends at the first CRLF, within 107 bytes; a CR or
	 * LF alone does not end it and is refused at once.
	 */
	for (i = 0; i < len && i < PROXY_V1_MAX - 1; i++) {
		if (b[i] == '\n')
			return -PROXY_E_V1_SYNTAX;
		if (b[i] != '\r')
			continue;
		if (i + 1 == len)
			return 0;
		if (b[i + 1] != '\n' || i < V1_SIG_LEN)
			return -PROXY_E_V1_SYNTAX;
		memset(h, 0, sizeof(*h));
		h->version = 1;
		if (!v1_fields((const char *)b + V1_SIG_LEN, i - V1_SIG_LEN,
			       h))
			return -PROXY_E_V1_SYNTAX;
		return (long)(i + 2);
	}
	if (len >= PROXY_V1_MAX - 1)
		return -PROXY_E_V1_LONG;
	return 0;
}

/* ---- version 2 (2.2) --------------------------------------------- */

/*
 * The TLVs after the address block, @b[@off..@total): each must lie
 * inside the header (its 3-byte head and its value); every type is
 * skipped (2.2: a receiver "may choose to skip over and ignore" them)
 * except PP2_TYPE_CRC32C, checked when present (2.2.3).  PP2_TYPE_SSL's
 * sub-TLVs are inside its value and skipped with it.
 */
static long v2_tlvs(const uint8_t *b, size_t off, size_t total)
{
	static const uint8_t zero[4];
	size_t crc_at = 0;
	uint32_t want, got;

	while (off < total) {
		size_t l;

		if (total - off < TLV_HEAD)
			return -PROXY_E_V2_TLV;
		l = (size_t)b[off + 1] << 8 | b[off + 2];
		if (l > total - off - TLV_HEAD)
			return -PROXY_E_V2_TLV;
		if (b[off] == PP2_TYPE_CRC32C) {
			if (l != 4 || crc_at)
				return -PROXY_E_V2_TLV;
			crc_at = off + TLV_HEAD;
		}
		off += TLV_HEAD + l;
	}
	if (!crc_at)
		return 0;
	/* The whole header with the checksum's 4 bytes as zeroes. */
	want = (uint32_t)b[crc_at] << 24 | (uint32_t)b[crc_at + 1] << 16 |
	       (uint32_t)b[crc_at + 2] << 8 | b[crc_at + 3];
	got = proxy_crc32c(0, b, crc_at);
	got = proxy_crc32c(got, zero, 4);
	got = proxy_crc32c(got, b + crc_at + 4, total - crc_at - 4);
	return got == want ? 0 : -PROXY_E_V2_CRC;
}

static void v2_addrs(const uint8_t *a, unsigned int fam, struct proxy_hdr *h)
{
	if (fam == V2_AF_INET) {
		struct sockaddr_in *src = (struct sockaddr_in *)&h->src;
		struct sockaddr_in *dst = (struct sockaddr_in *)&h->dst;

		src->sin_family = AF_INET;
		dst->sin_family = AF_INET;
		memcpy(&src->sin_addr, a, 4);
		memcpy(&dst->sin_addr, a + 4, 4);
		memcpy(&src->sin_port, a + 8, 2);
		memcpy(&dst->sin_port, a + 10, 2);
	} else {
		struct sockaddr_in6 *src = (struct sockaddr_in6 *)&h->src;
		struct sockaddr_in6 *dst = (struct sockaddr_in6 *)&h->dst;

		src->sin6_family = AF_INET6;
		dst->sin6_family = AF_INET6;
		memcpy(&src->sin6_addr, a, 16);
		memcpy(&dst->sin6_addr, a + 16, 16);
		memcpy(&src->sin6_port, a + 32, 2);
		memcpy(&dst->sin6_port, a + 34, 2);
	}
}

static long parse_v2(const uint8_t *b, size_t len, struct proxy_hdr *h)
{
	size_t n = len < sizeof(v2_sig) ? len : sizeof(v2_sig), total;
	unsigned int cmd, fam, proto;
	long r;

	if (memcmp(b, v2_sig, n))
		return -PROXY_E_SIGNATURE;
	if (len <= sizeof(v2_sig))
		return 0;
	/* "the receiver must only accept this value" */
	if (b[12] >> 4 != 2)
		return -PROXY_E_V2_VERSION;
	cmd = b[12] & 0xf;
	/* "Receivers must drop connections presenting unexpected values" */
	if (cmd != V2_CMD_LOCAL && cmd != V2_CMD_PROXY)
		return -PROXY_E_V2_COMMAND;
	if (len < PROXY_V2_HEAD)
		return 0;
	total = PROXY_V2_HEAD + ((size_t)b[14] << 8 | b[15]);
	if (total > PROXY_HDR_MAX)
		return -PROXY_E_V2_LONG;
	if (len < total)
		return 0;
	memset(h, 0, sizeof(*h));
	h->version = 2;
	if (cmd == V2_CMD_LOCAL) {
		/*
		 * "must use the real connection endpoints and discard the
		 * protocol block including the family which is ignored":
		 * the length alone is read, never assumed to be 0.
		 */
		h->local = true;
		h->v2_local_cmd = true;
		return (long)total;
	}
	fam = b[13] >> 4;
	proto = b[13] & 0xf;
	/* "must be rejected as invalid by receivers" */
	if (fam > V2_AF_UNIX || proto > V2_PROTO_DGRAM)
		return -PROXY_E_V2_FAMILY;
	if (fam == V2_AF_UNSPEC || proto == V2_PROTO_UNSPEC) {
		/* "The receiver should ignore address information." */
		h->local = true;
		return (long)total;
	}
	if (total - PROXY_V2_HEAD < v2_addr_len[fam])
		return -PROXY_E_V2_SHORT;
	r = v2_tlvs(b, PROXY_V2_HEAD + v2_addr_len[fam], total);
	if (r)
		return r;
	/*
	 * Only TCP over IPv4 and IPv6 name a client tlsxd can log; the
	 * other valid combinations fall back to UNSPEC (2.2: "provided
	 * that it automatically falls back to the UNSPEC mode").
	 */
	if (fam == V2_AF_UNIX || proto != V2_PROTO_STREAM) {
		h->local = true;
		return (long)total;
	}
	v2_addrs(b + PROXY_V2_HEAD, fam, h);
	return (long)total;
}

long proxy_parse(const uint8_t *buf, size_t len, struct proxy_hdr *h)
{
	if (!len)
		return 0;
	/* 2.2's "identifying the protocol version": the first byte. */
	if (buf[0] == v1_sig[0])
		return parse_v1(buf, len, h);
	if (buf[0] == v2_sig[0])
		return parse_v2(buf, len, h);
	return -PROXY_E_SIGNATURE;
}
