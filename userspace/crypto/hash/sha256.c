// SPDX-License-Identifier: GPL-2.0
/*
 * sha256.c - SHA-256 (FIPS 180-4 section 6.2): the init/update/final/
 * one-shot layer every implementation shares.  The block function comes
 * from the cached choice in sha2.c (SHA-NI where present, else an AVX2
 * message schedule, else sha256_generic.c).
 *
 * Nothing here branches on or indexes by message bytes, only by lengths,
 * so hashing secrets (HMAC keys, RFC 6979 inputs) is constant-time.
 */
#include "aead/platform.h"
#include "hash/sha2.h"
#include "hash/sha2_impl.h"

/* Fractional parts of the square roots of the first 8 primes (5.3.3). */
static const u32 sha256_iv[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
};

void tlsx_sha256_init(struct tlsx_sha256 *c)
{
	memcpy(c->h, sha256_iv, sizeof(c->h));
	c->bytes = 0;
}

void tlsx_sha256_update(struct tlsx_sha256 *c, const void *data, size_t len)
{
	size_t fill = c->bytes % SHA256_BLOCK_SIZE;
	const u8 *p = data;

	if (!len)	/* data may be NULL then */
		return;
	c->bytes += len;
	if (fill) {
		size_t n = SHA256_BLOCK_SIZE - fill;

		if (len < n) {
			memcpy(c->buf + fill, p, len);
			return;
		}
		memcpy(c->buf + fill, p, n);
		tlsx_sha256_compress(c->h, c->buf, 1);
		p += n;
		len -= n;
	}
	if (len >= SHA256_BLOCK_SIZE) {
		tlsx_sha256_compress(c->h, p, len / SHA256_BLOCK_SIZE);
		p += len & ~(size_t)(SHA256_BLOCK_SIZE - 1);
		len %= SHA256_BLOCK_SIZE;
	}
	if (len)
		memcpy(c->buf, p, len);
}

/*
 * Pads the @tail bytes already in @buf (fewer than a block) as FIPS 180-4
 * section 5.1.1 says: a 1 bit, zeros, then the message length in bits as
 * a 64-bit big-endian number, which ends the last block.  @buf has room
 * for two blocks; returns how many the padded tail fills.
 */
static size_t sha256_pad(u8 *buf, size_t tail, u64 bytes)
{
	size_t n = tail < SHA256_BLOCK_SIZE - 8 ? 1 : 2;
	size_t end = n * SHA256_BLOCK_SIZE;

	buf[tail] = 0x80;
	memset(buf + tail + 1, 0, end - 8 - tail - 1);
	put_unaligned_be64(bytes << 3, buf + end - 8);
	return n;
}

static void sha256_out(const u32 h[8], u8 *out, size_t len)
{
	size_t i;

	for (i = 0; i < len / 4; i++)
		put_unaligned_be32(h[i], out + 4 * i);
}

void tlsx_sha256_final(struct tlsx_sha256 *c, u8 out[SHA256_DIGEST_SIZE])
{
	u8 buf[2 * SHA256_BLOCK_SIZE];
	size_t tail = c->bytes % SHA256_BLOCK_SIZE, n;

	memcpy(buf, c->buf, tail);
	n = sha256_pad(buf, tail, c->bytes);
	tlsx_sha256_compress(c->h, buf, n);
	sha256_out(c->h, out, SHA256_DIGEST_SIZE);
	memzero_explicit(buf, n * SHA256_BLOCK_SIZE);
	memzero_explicit(c, sizeof(*c));
}

/*
 * The one-shot path skips the context: whole blocks straight from the
 * caller's buffer, then only the tail is copied for padding.
 */
void tlsx_sha256(const void *data, size_t len, u8 out[SHA256_DIGEST_SIZE])
{
	u8 buf[2 * SHA256_BLOCK_SIZE];
	size_t full = len & ~(size_t)(SHA256_BLOCK_SIZE - 1);
	size_t tail = len - full, n;
	u32 h[8];

	memcpy(h, sha256_iv, sizeof(h));
	if (full)
		tlsx_sha256_compress(h, data, full / SHA256_BLOCK_SIZE);
	if (tail)	/* data may be NULL when len is 0 */
		memcpy(buf, (const u8 *)data + full, tail);
	n = sha256_pad(buf, tail, len);
	tlsx_sha256_compress(h, buf, n);
	sha256_out(h, out, SHA256_DIGEST_SIZE);
	memzero_explicit(buf, n * SHA256_BLOCK_SIZE);
	memzero_explicit(h, sizeof(h));
}
