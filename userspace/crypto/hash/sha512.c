// SPDX-License-Identifier: GPL-2.0
/*
 * sha512.c - SHA-512 and SHA-384 (FIPS 180-4 section 6.4 and 6.5): the
 * init/update/final/one-shot layer the implementations share.  SHA-384
 * is SHA-512 from other initial values, truncated to 48 bytes.  The
 * block function comes from the cached choice in sha2.c (an AVX-512VL
 * or AVX2 message schedule where present, else sha512_generic.c).
 *
 * Nothing here branches on or indexes by message bytes, only by lengths.
 */
#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

/* Square roots of the first 8 primes (section 5.3.5). */
static const u64 sha512_iv[8] = {
	0x6a09e667f3bcc908, 0xbb67ae8584caa73b,
	0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
	0x510e527fade682d1, 0x9b05688c2b3e6c1f,
	0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
};

/* Square roots of the 9th to 16th primes (section 5.3.4). */
static const u64 sha384_iv[8] = {
	0xcbbb9d5dc1059ed8, 0x629a292a367cd507,
	0x9159015a3070dd17, 0x152fecd8f70e5939,
	0x67332667ffc00b31, 0x8eb44a8768581511,
	0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
};

void tlsx_sha512_init(struct tlsx_sha512 *c)
{
	memcpy(c->h, sha512_iv, sizeof(c->h));
	c->bytes = 0;
}

void tlsx_sha384_init(struct tlsx_sha512 *c)
{
	memcpy(c->h, sha384_iv, sizeof(c->h));
	c->bytes = 0;
}

void tlsx_sha512_update(struct tlsx_sha512 *c, const void *data, size_t len)
{
	size_t fill = c->bytes % SHA512_BLOCK_SIZE;
	const u8 *p = data;

	if (!len)	/* data may be NULL then */
		return;
	c->bytes += len;
	if (fill) {
		size_t n = SHA512_BLOCK_SIZE - fill;

		if (len < n) {
			memcpy(c->buf + fill, p, len);
			return;
		}
		memcpy(c->buf + fill, p, n);
		tlsx_sha512_compress(c->h, c->buf, 1);
		p += n;
		len -= n;
	}
	if (len >= SHA512_BLOCK_SIZE) {
		tlsx_sha512_compress(c->h, p, len / SHA512_BLOCK_SIZE);
		p += len & ~(size_t)(SHA512_BLOCK_SIZE - 1);
		len %= SHA512_BLOCK_SIZE;
	}
	if (len)
		memcpy(c->buf, p, len);
}

/*
 * Pads the @tail bytes in @buf (fewer than a block) as FIPS 180-4 section
 * 5.1.2 says: a 1 bit, zeros, then the length in bits as a 128-bit
 * big-endian number.  A byte count of 64 bits gives the bit count's top
 * half as its top 3 bits.  @buf has room for two blocks; returns how many
 * the padded tail fills.
 */
static size_t sha512_pad(u8 *buf, size_t tail, u64 bytes)
{
	size_t n = tail < SHA512_BLOCK_SIZE - 16 ? 1 : 2;
	size_t end = n * SHA512_BLOCK_SIZE;

	buf[tail] = 0x80;
	memset(buf + tail + 1, 0, end - 16 - tail - 1);
	put_unaligned_be64(bytes >> 61, buf + end - 16);
	put_unaligned_be64(bytes << 3, buf + end - 8);
	return n;
}

static void sha512_out(const u64 h[8], u8 *out, size_t len)
{
	size_t i;

	for (i = 0; i < len / 8; i++)
		put_unaligned_be64(h[i], out + 8 * i);
}

static void sha512_finish(struct tlsx_sha512 *c, u8 *out, size_t len)
{
	u8 buf[2 * SHA512_BLOCK_SIZE];
	size_t tail = c->bytes % SHA512_BLOCK_SIZE, n;

	memcpy(buf, c->buf, tail);
	n = sha512_pad(buf, tail, c->bytes);
	tlsx_sha512_compress(c->h, buf, n);
	sha512_out(c->h, out, len);
	memzero_explicit(buf, n * SHA512_BLOCK_SIZE);
	memzero_explicit(c, sizeof(*c));
}

void tlsx_sha512_final(struct tlsx_sha512 *c, u8 out[SHA512_DIGEST_SIZE])
{
	sha512_finish(c, out, SHA512_DIGEST_SIZE);
}

void tlsx_sha384_final(struct tlsx_sha512 *c, u8 out[SHA384_DIGEST_SIZE])
{
	sha512_finish(c, out, SHA384_DIGEST_SIZE);
}

/* One-shot: whole blocks from the caller's buffer, only the tail copied. */
static void sha512_oneshot(const u64 iv[8], const void *data, size_t len,
			   u8 *out, size_t out_len)
{
	u8 buf[2 * SHA512_BLOCK_SIZE];
	size_t full = len & ~(size_t)(SHA512_BLOCK_SIZE - 1);
	size_t tail = len - full, n;
	u64 h[8];

	memcpy(h, iv, sizeof(h));
	if (full)
		tlsx_sha512_compress(h, data, full / SHA512_BLOCK_SIZE);
	if (tail)	/* data may be NULL when len is 0 */
		memcpy(buf, (const u8 *)data + full, tail);
	n = sha512_pad(buf, tail, len);
	tlsx_sha512_compress(h, buf, n);
	sha512_out(h, out, out_len);
	memzero_explicit(buf, n * SHA512_BLOCK_SIZE);
	memzero_explicit(h, sizeof(h));
}

void tlsx_sha512(const void *data, size_t len, u8 out[SHA512_DIGEST_SIZE])
{
	sha512_oneshot(sha512_iv, data, len, out, SHA512_DIGEST_SIZE);
}

void tlsx_sha384(const void *data, size_t len, u8 out[SHA384_DIGEST_SIZE])
{
	sha512_oneshot(sha384_iv, data, len, out, SHA384_DIGEST_SIZE);
}
