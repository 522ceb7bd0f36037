// SPDX-License-Identifier: GPL-2.0
/*
 * test_proxy_proto.c - the PROXY protocol parser (proxy_proto.c, HAProxy's
 * proxy-protocol.txt): v1 TCP4, TCP6 and UNKNOWN lines, each syntax rule
 * of 2.1 refused (leading zeroes, ranges, spaces, a lone CR or LF, no
 * CRLF in 107 bytes), v2 PROXY over IPv4 and IPv6, LOCAL (its block
 * skipped whatever it holds), UNSPEC, the families that fall back to the
 * connection's endpoints, every unassigned version, command, family and
 * protocol refused, a short address block, TLVs skipped, a TLV past the
 * end refused, CRC32c checked, the length cap; every header split at
 * every byte (a prefix is "more", never an error, never a header), and
 * the TLS bytes after a header never counted in it.
 */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "tlsxd/proxy_proto.h"


static const uint8_t sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a
};

static long parse_str(const char *s, struct proxy_hdr *h)
{
	return proxy_parse((const uint8_t *)s, strlen(s), h);
}

/* Every strict prefix is "more" (0); the whole is @want. */
static bool prefixes_wait(const uint8_t *b, size_t len)
{
	struct proxy_hdr h;
	size_t i;

	for (i = 0; i < len; i++)
		if (proxy_parse(b, i, &h) != 0)
			return false;
	return true;
}

static size_t v2_build(uint8_t *b, uint8_t ver_cmd, uint8_t fam,
		       const uint8_t *body, size_t body_len)
{
	memcpy(b, sig, 12);
	b[12] = ver_cmd;
	b[13] = fam;
	b[14] = (uint8_t)(body_len >> 8);
	b[15] = (uint8_t)body_len;
	if (body_len)
		memcpy(b + 16, body, body_len);
	return 16 + body_len;
}

static const uint8_t v4_block[12] = {
	192, 0, 2, 7,  198, 51, 100, 1,  0xc3, 0x50,  0x01, 0xbb
};

TEST(crc32c_known_answer)
{
	/* RFC 3720 B.4 / the usual check value of CRC-32C. */
	ASSERT_EQ(0xe3069283u,
		  proxy_crc32c(0, (const uint8_t *)"123456789", 9));
	/* Incremental = whole. */
	ASSERT_EQ(0xe3069283u,
		  proxy_crc32c(proxy_crc32c(0, (const uint8_t *)"1234", 4),
			       (const uint8_t *)"56789", 5));
}

TEST(v1_tcp4)
{
	const char *l = "PROXY TCP4 192.0.2.7 198.51.100.1 50000 443\r\n";
	struct proxy_hdr h;
	struct sockaddr_in *s = (struct sockaddr_in *)&h.src;
	struct sockaddr_in *d = (struct sockaddr_in *)&h.dst;
	char buf[128];

	ASSERT_EQ((long)strlen(l), parse_str(l, &h));
	ASSERT_EQ(1, h.version);
	ASSERT_FALSE(h.local);
	ASSERT_EQ(AF_INET, s->sin_family);
	ASSERT_STREQ("192.0.2.7", inet_ntop(AF_INET, &s->sin_addr, buf,
					    sizeof(buf)));
	ASSERT_EQ(50000, ntohs(s->sin_port));
	ASSERT_STREQ("198.51.100.1", inet_ntop(AF_INET, &d->sin_addr, buf,
					       sizeof(buf)));
	ASSERT_EQ(443, ntohs(d->sin_port));
	ASSERT_TRUE(prefixes_wait((const uint8_t *)l, strlen(l)));
	/* The TLS record after it is not the header's. */
	snprintf(buf, sizeof(buf), "%s\x16\x03\x01", l);
	ASSERT_EQ((long)strlen(l), parse_str(buf, &h));
}

TEST(v1_tcp6)
{
	const char *l = "PROXY TCP6 2001:db8::1 ::1 0 65535\r\n";
	static const char full[] =
		"PROXY TCP6 ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n";
	struct proxy_hdr h;
	struct sockaddr_in6 *s = (struct sockaddr_in6 *)&h.src;
	char buf[64];

	ASSERT_EQ((long)strlen(l), parse_str(l, &h));
	ASSERT_EQ(AF_INET6, s->sin6_family);
	ASSERT_STREQ("2001:db8::1", inet_ntop(AF_INET6, &s->sin6_addr, buf,
					      sizeof(buf)));
	ASSERT_EQ(0, ntohs(s->sin6_port));
	/* 2.1's longest TCP6 line, 104 bytes. */
	ASSERT_EQ(104, strlen(full));
	ASSERT_EQ(104, parse_str(full, &h));
	ASSERT_TRUE(prefixes_wait((const uint8_t *)full, strlen(full)));
}

TEST(v1_unknown)
{
	struct proxy_hdr h;
	char worst[128];

	ASSERT_EQ(15, parse_str("PROXY UNKNOWN\r\n", &h));
	ASSERT_TRUE(h.local);
	/* 2.1: the rest of an UNKNOWN line is ignored, up to 107 bytes. */
	snprintf(worst, sizeof(worst), "PROXY UNKNOWN %s %s 65535 65535\r\n",
		 "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
		 "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff");
	ASSERT_EQ(107, strlen(worst));
	ASSERT_EQ(107, parse_str(worst, &h));
	ASSERT_TRUE(h.local);
	ASSERT_EQ(-PROXY_E_V1_SYNTAX, parse_str("PROXY UNKNOWNX\r\n", &h));
}

TEST(v1_refused)
{
	static const char *const bad[] = {
		"PROXY TCP4 192.0.2.07 198.51.100.1 50000 443\r\n",
		"PROXY TCP4 192.0.2.256 198.51.100.1 50000 443\r\n",
		"PROXY TCP4 192.0.2 198.51.100.1 50000 443\r\n",
		"PROXY TCP4 192.0.2.1.5 198.51.100.1 50000 443\r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 050000 443\r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 65536 443\r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 -1 443\r\n",
		"PROXY TCP4 192.0.2.1  198.51.100.1 50000 443\r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 50000 443 \r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 50000\r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 50000 443 1\r\n",
		"PROXY TCP4 2001:db8::1 ::1 1 2\r\n",
		"PROXY TCP6 192.0.2.1 198.51.100.1 1 2\r\n",
		"PROXY TCP6 2001:db8:::1 ::1 1 2\r\n",
		"PROXY TCP5 192.0.2.1 198.51.100.1 1 2\r\n",
		"PROXY tcp4 192.0.2.1 198.51.100.1 1 2\r\n",
		"PROXY  TCP4 192.0.2.1 198.51.100.1 1 2\r\n",
		"PROXY \r\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 1 2\n",
		"PROXY TCP4 192.0.2.1 198.51.100.1 1 2\rX",
		"PROXY\r\n",
	};
	struct proxy_hdr h;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		long r = parse_str(bad[i], &h);

		ASSERT_LT(r, 0) TH_LOG("accepted: %s", bad[i]);
	}
	/* A lone LF is refused as soon as it is seen. */
	ASSERT_EQ(-PROXY_E_V1_SYNTAX, parse_str("PROXY TCP4\n", &h));
	ASSERT_EQ(-PROXY_E_SIGNATURE, parse_str("PROXZ", &h));
	ASSERT_EQ(-PROXY_E_SIGNATURE, parse_str("GET / HTTP/1.1\r\n", &h));
	/* A TLS ClientHello where a header must be. */
	ASSERT_EQ(-PROXY_E_SIGNATURE, parse_str("\x16\x03\x01", &h));
}

TEST(v1_no_crlf_in_107)
{
	char line[200];
	struct proxy_hdr h;

	memset(line, 'a', sizeof(line));
	memcpy(line, "PROXY UNKNOWN ", 14);
	ASSERT_EQ(0, proxy_parse((uint8_t *)line, 105, &h));
	/* 106 bytes without a CR: a CRLF would end past 107. */
	ASSERT_EQ(-PROXY_E_V1_LONG, proxy_parse((uint8_t *)line, 106, &h));
	line[106] = '\r';
	line[107] = '\n';
	ASSERT_EQ(-PROXY_E_V1_LONG, proxy_parse((uint8_t *)line, 108, &h));
	line[105] = '\r';
	line[106] = '\n';
	ASSERT_EQ(107, proxy_parse((uint8_t *)line, 107, &h));
}

TEST(v2_proxy_ipv4)
{
	uint8_t b[64];
	size_t n = v2_build(b, 0x21, 0x11, v4_block, sizeof(v4_block));
	struct proxy_hdr h;
	struct sockaddr_in *s = (struct sockaddr_in *)&h.src;

	ASSERT_EQ(28, n);
	ASSERT_EQ(28, proxy_parse(b, n, &h));
	ASSERT_EQ(2, h.version);
	ASSERT_FALSE(h.local);
	ASSERT_EQ(AF_INET, s->sin_family);
	ASSERT_EQ(0, memcmp(&s->sin_addr, v4_block, 4));
	ASSERT_EQ(50000, ntohs(s->sin_port));
	ASSERT_EQ(443, ntohs(((struct sockaddr_in *)&h.dst)->sin_port));
	ASSERT_TRUE(prefixes_wait(b, n));
	/* Bytes after it (the ClientHello) are not the header's. */
	b[n] = 0x16;
	ASSERT_EQ(28, proxy_parse(b, n + 1, &h));
}

TEST(v2_proxy_ipv6)
{
	uint8_t block[36] = { 0x20, 0x01, 0x0d, 0xb8 }, b[64];
	size_t n;
	struct proxy_hdr h;
	struct sockaddr_in6 *s = (struct sockaddr_in6 *)&h.src;

	block[15] = 1;
	block[31] = 2;
	block[32] = 0x12;
	block[33] = 0x34;
	n = v2_build(b, 0x21, 0x21, block, sizeof(block));
	ASSERT_EQ(52, proxy_parse(b, n, &h));
	ASSERT_EQ(AF_INET6, s->sin6_family);
	ASSERT_EQ(0, memcmp(&s->sin6_addr, block, 16));
	ASSERT_EQ(0x1234, ntohs(s->sin6_port));
	ASSERT_TRUE(prefixes_wait(b, n));
}

TEST(v2_local)
{
	uint8_t junk[40], b[64];
	size_t n;
	struct proxy_hdr h;

	/* HAProxy's health check: LOCAL, UNSPEC, no block. */
	n = v2_build(b, 0x20, 0x00, NULL, 0);
	ASSERT_EQ(16, proxy_parse(b, n, &h));
	ASSERT_TRUE(h.local);
	ASSERT_TRUE(h.v2_local_cmd);
	/* LOCAL with a block and an unassigned family: skipped, accepted. */
	memset(junk, 0xee, sizeof(junk));
	n = v2_build(b, 0x20, 0xff, junk, sizeof(junk));
	ASSERT_EQ(56, proxy_parse(b, n, &h));
	ASSERT_TRUE(h.local);
	ASSERT_TRUE(prefixes_wait(b, n));
}

TEST(v2_unspec_and_fallbacks)
{
	uint8_t block[216], b[256];
	size_t n;
	struct proxy_hdr h;

	memset(block, 1, sizeof(block));
	/* PROXY over UNSPEC: the address information is ignored. */
	n = v2_build(b, 0x21, 0x00, block, 12);
	ASSERT_EQ(28, proxy_parse(b, n, &h));
	ASSERT_TRUE(h.local);
	/* UDP over IPv4: a valid combination tlsxd falls back from. */
	n = v2_build(b, 0x21, 0x12, v4_block, sizeof(v4_block));
	ASSERT_EQ(28, proxy_parse(b, n, &h));
	ASSERT_TRUE(h.local);
	/* AF_UNIX stream: 216 bytes of addresses. */
	n = v2_build(b, 0x21, 0x31, block, 216);
	ASSERT_EQ(232, proxy_parse(b, n, &h));
	ASSERT_TRUE(h.local);
	/* AF_UNIX with a short block. */
	n = v2_build(b, 0x21, 0x31, block, 215);
	ASSERT_EQ(-PROXY_E_V2_SHORT, proxy_parse(b, n, &h));
}

TEST(v2_refused)
{
	uint8_t b[64], c[64];
	size_t n;
	struct proxy_hdr h;

	n = v2_build(b, 0x11, 0x11, v4_block, 12);
	ASSERT_EQ(-PROXY_E_V2_VERSION, proxy_parse(b, n, &h));
	/* Known as soon as byte 13 is there. */
	ASSERT_EQ(-PROXY_E_V2_VERSION, proxy_parse(b, 13, &h));
	n = v2_build(b, 0x22, 0x11, v4_block, 12);
	ASSERT_EQ(-PROXY_E_V2_COMMAND, proxy_parse(b, 13, &h));
	n = v2_build(b, 0x21, 0x41, v4_block, 12);
	ASSERT_EQ(-PROXY_E_V2_FAMILY, proxy_parse(b, n, &h));
	n = v2_build(b, 0x21, 0x13, v4_block, 12);
	ASSERT_EQ(-PROXY_E_V2_FAMILY, proxy_parse(b, n, &h));
	/* An IPv4 block of 11 bytes, an IPv6 one of 12. */
	n = v2_build(b, 0x21, 0x11, v4_block, 11);
	ASSERT_EQ(-PROXY_E_V2_SHORT, proxy_parse(b, n, &h));
	n = v2_build(b, 0x21, 0x21, v4_block, 12);
	ASSERT_EQ(-PROXY_E_V2_SHORT, proxy_parse(b, n, &h));
	/* The signature wrong in its 5th (NUL) byte. */
	memcpy(c, b, n);
	c[4] = 1;
	ASSERT_EQ(-PROXY_E_SIGNATURE, proxy_parse(c, n, &h));
	ASSERT_EQ(-PROXY_E_SIGNATURE, proxy_parse(c, 5, &h));
}

TEST(v2_tlvs_skipped)
{
	uint8_t body[64], b[128];
	size_t n, k = 12;
	struct proxy_hdr h;

	memcpy(body, v4_block, 12);
	/* ALPN "h2", an SSL TLV with a sub-TLV, an empty NOOP. */
	memcpy(body + k, "\x01\x00\x02h2", 5);
	k += 5;
	memcpy(body + k, "\x20\x00\x08\x01\x00\x00\x00\x00\x21\x00\x00", 11);
	k += 11;
	memcpy(body + k, "\x04\x00\x00", 3);
	k += 3;
	n = v2_build(b, 0x21, 0x11, body, k);
	ASSERT_EQ((long)n, proxy_parse(b, n, &h));
	ASSERT_FALSE(h.local);
	ASSERT_TRUE(prefixes_wait(b, n));
	/* A TLV whose value runs past the header's end. */
	body[12 + 2] = 3;
	n = v2_build(b, 0x21, 0x11, body, 17);
	ASSERT_EQ(-PROXY_E_V2_TLV, proxy_parse(b, n, &h));
	/* Two bytes left: not even a TLV's head. */
	memcpy(body + 12, "\x04\x00", 2);
	n = v2_build(b, 0x21, 0x11, body, 14);
	ASSERT_EQ(-PROXY_E_V2_TLV, proxy_parse(b, n, &h));
}

TEST(v2_crc32c)
{
	uint8_t body[32], b[64];
	size_t n;
	uint32_t crc;
	struct proxy_hdr h;

	memcpy(body, v4_block, 12);
	memcpy(body + 12, "\x03\x00\x04\x00\x00\x00\x00", 7);
	n = v2_build(b, 0x21, 0x11, body, 19);
	crc = proxy_crc32c(0, b, n);
	b[n - 4] = (uint8_t)(crc >> 24);
	b[n - 3] = (uint8_t)(crc >> 16);
	b[n - 2] = (uint8_t)(crc >> 8);
	b[n - 1] = (uint8_t)crc;
	ASSERT_EQ((long)n, proxy_parse(b, n, &h));
	b[16] ^= 1;		/* the client's address changed on the way */
	ASSERT_EQ(-PROXY_E_V2_CRC, proxy_parse(b, n, &h));
	b[16] ^= 1;
	b[n - 1] ^= 1;
	ASSERT_EQ(-PROXY_E_V2_CRC, proxy_parse(b, n, &h));
	/* A CRC32c TLV of 3 bytes. */
	memcpy(body + 12, "\x03\x00\x03\x00\x00\x00", 6);
	n = v2_build(b, 0x21, 0x11, body, 18);
	ASSERT_EQ(-PROXY_E_V2_TLV, proxy_parse(b, n, &h));
}

TEST(v2_length_cap)
{
	uint8_t *b = calloc(1, PROXY_HDR_MAX + 16);
	struct proxy_hdr h;
	size_t body = PROXY_HDR_MAX - 16;

	ASSERT_NE(NULL, b);
	memcpy(b, sig, 12);
	b[12] = 0x21;
	b[13] = 0x11;
	/* The largest taken: the block, then one NOOP TLV filling it. */
	b[14] = (uint8_t)(body >> 8);
	b[15] = (uint8_t)body;
	memcpy(b + 16, v4_block, 12);
	b[28] = 0x04;
	b[29] = (uint8_t)((body - 15) >> 8);
	b[30] = (uint8_t)(body - 15);
	ASSERT_EQ(PROXY_HDR_MAX, proxy_parse(b, PROXY_HDR_MAX, &h));
	ASSERT_EQ(0, proxy_parse(b, PROXY_HDR_MAX - 1, &h));
	/* One more byte: refused from its 16 bytes on. */
	body++;
	b[14] = (uint8_t)(body >> 8);
	b[15] = (uint8_t)body;
	ASSERT_EQ(-PROXY_E_V2_LONG, proxy_parse(b, 16, &h));
	free(b);
}

TEST(error_names)
{
	long e;

	for (e = PROXY_E_SIGNATURE; e <= PROXY_E_V2_CRC; e++)
		ASSERT_STRNE("unknown error", proxy_strerror(-e));
	ASSERT_STREQ("unknown error", proxy_strerror(-100));
}

TEST_HARNESS_MAIN
