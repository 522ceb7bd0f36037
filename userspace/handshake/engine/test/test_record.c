// SPDX-License-Identifier: GPL-2.0
/*
 * test_record.c - record protection (handshake/engine/record_protect.h):
 *
 *  - RFC 8448 section 3's protected records byte for byte: every record
 *    the trace prints is sealed from its plaintext under the keys of the
 *    trace's traffic secret and compared, and opened back;
 *  - tampering: every bit of a record's header and body, truncation, the
 *    wrong key or sequence; a failed open leaves the sequence alone;
 *  - padding, an all-zero inner plaintext, record_overflow at 2^14 and
 *    under a smaller limit, the header checks, the sequence limit;
 *  - every suite (AES-128/256-GCM, ChaCha20-Poly1305, AES-128-CCM)
 *    against OpenSSL's EVP AEADs: records sealed here open there and
 *    records sealed there open here, with the same nonce and AD rules.
 */
#include <openssl/evp.h>

#include "kselftest_harness.h"
#include "handshake/engine/alert.h"
#include "handshake/engine/hs.h"
#include "handshake/engine/keysched.h"
#include "handshake/engine/record_protect.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/rfc8448.h"

static u8 secret[TLSX_KS_MAX_SECRET];

/* A direction keyed from the hex traffic secret @hex (AES-128-GCM). */
static int set_hex(struct tlsx_rec_dir *d, const char *hex)
{
	size_t n = unhex(hex, secret, sizeof(secret));

	return tlsx_rec_set_secret(d, TLSX_SUITE_AES_128_GCM_SHA256, secret,
				   n);
}

/* Seals @plain_hex as one record of @type and compares with @rec_hex. */
static bool seal_is(struct tlsx_rec_dir *d, u8 type, const u8 *plain,
		    size_t plain_len, const char *rec_hex)
{
	static u8 want[1024], out[1024];
	size_t n = unhex(rec_hex, want, sizeof(want)), len;

	if (tlsx_rec_seal(d, type, plain, plain_len, 0, out, sizeof(out),
			  &len))
		return false;
	return len == n && !memcmp(out, want, n);
}

/* Opens @rec_hex and compares with @type and @plain. */
static bool open_is(struct tlsx_rec_dir *d, const char *rec_hex, u8 type,
		    const u8 *plain, size_t plain_len)
{
	static u8 rec[1024];
	size_t n = unhex(rec_hex, rec, sizeof(rec)), body, len;
	u8 *data, t;

	if (tlsx_rec_header(rec, TLSX_REC_MAX_CIPHER, &body) ||
	    body + TLSX_REC_HDR != n)
		return false;
	if (tlsx_rec_open(d, rec, n, TLSX_REC_MAX_PLAIN, &t, &data, &len))
		return false;
	return t == type && len == plain_len && !memcmp(data, plain, len);
}

/* The server's flight: EncryptedExtensions || ... || Finished. */
static size_t s3_flight(u8 *buf, size_t cap)
{
	size_t n = 0;

	n += unhex(r8448_s3_ee, buf + n, cap - n);
	n += unhex(r8448_s3_cert, buf + n, cap - n);
	n += unhex(r8448_s3_cv, buf + n, cap - n);
	n += unhex(r8448_s3_sf, buf + n, cap - n);
	return n;
}

TEST(suite_params)
{
	enum tlsx_aead_alg a;
	enum tlsx_hash_alg h;
	size_t k;

	ASSERT_EQ(0, tlsx_suite_params(0x1301, &a, &h, &k));
	EXPECT_EQ(TLSX_AEAD_AES_128_GCM, a);
	EXPECT_EQ(TLSX_HASH_SHA256, h);
	EXPECT_EQ(16, k);
	ASSERT_EQ(0, tlsx_suite_params(0x1302, &a, &h, &k));
	EXPECT_EQ(TLSX_AEAD_AES_256_GCM, a);
	EXPECT_EQ(TLSX_HASH_SHA384, h);
	EXPECT_EQ(32, k);
	ASSERT_EQ(0, tlsx_suite_params(0x1303, &a, &h, &k));
	EXPECT_EQ(TLSX_AEAD_CHACHA20_POLY1305, a);
	EXPECT_EQ(TLSX_HASH_SHA256, h);
	EXPECT_EQ(32, k);
	ASSERT_EQ(0, tlsx_suite_params(0x1304, &a, &h, &k));
	EXPECT_EQ(TLSX_AEAD_AES_128_CCM, a);
	EXPECT_EQ(16, k);
	EXPECT_EQ(-EINVAL, tlsx_suite_params(0x1305, &a, &h, &k));
	EXPECT_EQ(-EINVAL, tlsx_suite_params(0xc02f, &a, &h, &k));
	EXPECT_STREQ("TLS_CHACHA20_POLY1305_SHA256", tlsx_suite_name(0x1303));
	EXPECT_STREQ("unknown", tlsx_suite_name(0));
}

TEST(rfc8448_s3_server_flight)
{
	static u8 plain[1024], out[1024], want[1024];
	struct tlsx_rec_dir d = { 0 };
	size_t n = s3_flight(plain, sizeof(plain)), len;
	size_t w = unhex(r8448_s3_rec_sflight, want, sizeof(want));

	ASSERT_EQ(0, set_hex(&d, S3_S_HS));
	EXPECT_TRUE(hex_is(d.iv, S3_S_HS_IV));
	ASSERT_EQ(0, tlsx_rec_seal(&d, TLSX_CT_HANDSHAKE, plain, n, 0, out,
				   sizeof(out), &len));
	ASSERT_EQ(w, len);
	EXPECT_EQ(0, memcmp(out, want, w));
	EXPECT_EQ(1, d.seq);

	ASSERT_EQ(0, set_hex(&d, S3_S_HS));
	EXPECT_TRUE(open_is(&d, r8448_s3_rec_sflight, TLSX_CT_HANDSHAKE,
			    plain, n));
	EXPECT_EQ(1, d.seq);
	tlsx_rec_wipe(&d);
}

TEST(rfc8448_s3_client_finished)
{
	struct tlsx_rec_dir d = { 0 };
	u8 fin[64];
	size_t n = unhex(r8448_s3_cf, fin, sizeof(fin));

	ASSERT_EQ(0, set_hex(&d, S3_C_HS));
	EXPECT_TRUE(seal_is(&d, TLSX_CT_HANDSHAKE, fin, n,
			    r8448_s3_rec_cfin));
	ASSERT_EQ(0, set_hex(&d, S3_C_HS));
	EXPECT_TRUE(open_is(&d, r8448_s3_rec_cfin, TLSX_CT_HANDSHAKE, fin, n));
	tlsx_rec_wipe(&d);
}

TEST(rfc8448_s3_application)
{
	struct tlsx_rec_dir c = { 0 }, s = { 0 };
	static u8 rec[1024];
	const u8 close_notify[2] = { 1, 0 };
	u8 app[50], *data, t;
	size_t i, n, len;

	for (i = 0; i < sizeof(app); i++)
		app[i] = (u8)i;
	ASSERT_EQ(0, set_hex(&c, S3_C_AP));
	ASSERT_EQ(0, set_hex(&s, S3_S_AP));
	EXPECT_TRUE(hex_is(c.iv, S3_C_AP_IV));

	/* The server's NewSessionTicket, sequence 0 (its plaintext is not
	 * in rfc8448.h: checked as a handshake message of type 4 that
	 * fills the record).
	 */
	n = unhex(r8448_s3_rec_nst, rec, sizeof(rec));
	ASSERT_EQ(0, tlsx_rec_open(&s, rec, n, TLSX_REC_MAX_PLAIN, &t, &data,
				   &len));
	EXPECT_EQ(TLSX_CT_HANDSHAKE, t);
	EXPECT_EQ(4, data[0]);
	EXPECT_EQ(len, 4 + ((size_t)data[1] << 16 | data[2] << 8 | data[3]));
	EXPECT_EQ(n - TLSX_REC_HDR - 17, len);

	EXPECT_TRUE(open_is(&s, r8448_s3_rec_sapp, TLSX_CT_APPLICATION_DATA,
			    app, sizeof(app)));
	EXPECT_TRUE(seal_is(&c, TLSX_CT_APPLICATION_DATA, app, sizeof(app),
			    r8448_s3_rec_capp));
	EXPECT_TRUE(open_is(&s, r8448_s3_rec_salert, TLSX_CT_ALERT,
			    close_notify, 2));
	EXPECT_TRUE(seal_is(&c, TLSX_CT_ALERT, close_notify, 2,
			    r8448_s3_rec_calert));
	EXPECT_EQ(2, c.seq);
	EXPECT_EQ(3, s.seq);

	/* The server's side, sealed, and the client's, opened. */
	ASSERT_EQ(0, set_hex(&s, S3_S_AP));
	ASSERT_EQ(0, set_hex(&c, S3_C_AP));
	s.seq = 1;
	EXPECT_TRUE(seal_is(&s, TLSX_CT_APPLICATION_DATA, app, sizeof(app),
			    r8448_s3_rec_sapp));
	EXPECT_TRUE(open_is(&c, r8448_s3_rec_capp, TLSX_CT_APPLICATION_DATA,
			    app, sizeof(app)));
	tlsx_rec_wipe(&c);
	tlsx_rec_wipe(&s);
	EXPECT_FALSE(c.set);
}

/* Every single bit flipped (header and body) fails as bad_record_mac. */
TEST(tamper_every_bit)
{
	struct tlsx_rec_dir d = { 0 };
	u8 rec[128], copy[128], fin[64], *data, t;
	size_t n = unhex(r8448_s3_rec_cfin, rec, sizeof(rec)), i, len;
	size_t fl = unhex(r8448_s3_cf, fin, sizeof(fin));
	int bit;

	ASSERT_EQ(0, set_hex(&d, S3_C_HS));
	for (i = 0; i < n; i++) {
		/* The length bytes are checked against @rec_len first. */
		if (i == 3 || i == 4)
			continue;
		for (bit = 0; bit < 8; bit++) {
			memcpy(copy, rec, n);
			copy[i] ^= 1 << bit;
			ASSERT_EQ(TLSX_ALERT_BAD_RECORD_MAC,
				  tlsx_rec_open(&d, copy, n, TLSX_REC_MAX_PLAIN,
						&t, &data, &len))
				TH_LOG("byte %zu bit %d", i, bit);
		}
	}
	/* Nothing advanced: the genuine record still opens at 0. */
	EXPECT_EQ(0, d.seq);
	EXPECT_TRUE(open_is(&d, r8448_s3_rec_cfin, TLSX_CT_HANDSHAKE, fin,
			    fl));
	/* ... and not twice (sequence 1 now). */
	EXPECT_FALSE(open_is(&d, r8448_s3_rec_cfin, TLSX_CT_HANDSHAKE, fin,
			     fl));
	tlsx_rec_wipe(&d);
}

TEST(tamper_length_and_key)
{
	struct tlsx_rec_dir d = { 0 };
	u8 rec[128], *data, t;
	size_t n = unhex(r8448_s3_rec_cfin, rec, sizeof(rec)), len;

	/* The wrong key (the server's). */
	ASSERT_EQ(0, set_hex(&d, S3_S_HS));
	EXPECT_EQ(TLSX_ALERT_BAD_RECORD_MAC,
		  tlsx_rec_open(&d, rec, n, TLSX_REC_MAX_PLAIN, &t, &data,
				&len));
	/* Truncated, with a consistent header. */
	ASSERT_EQ(0, set_hex(&d, S3_C_HS));
	n = unhex(r8448_s3_rec_cfin, rec, sizeof(rec));
	put_unaligned_be16((u16)(n - 1 - TLSX_REC_HDR), rec + 3);
	EXPECT_EQ(TLSX_ALERT_BAD_RECORD_MAC,
		  tlsx_rec_open(&d, rec, n - 1, TLSX_REC_MAX_PLAIN, &t, &data,
				&len));
	/* Shorter than a tag and a type. */
	put_unaligned_be16(16, rec + 3);
	EXPECT_EQ(TLSX_ALERT_BAD_RECORD_MAC,
		  tlsx_rec_open(&d, rec, 21, TLSX_REC_MAX_PLAIN, &t, &data,
				&len));
	/* A header that disagrees with the length given: a caller bug. */
	EXPECT_EQ(-EINVAL, tlsx_rec_open(&d, rec, 40, TLSX_REC_MAX_PLAIN, &t,
					 &data, &len));
	EXPECT_EQ(0, d.seq);
	tlsx_rec_wipe(&d);
	EXPECT_EQ(-EINVAL, tlsx_rec_open(&d, rec, 21, TLSX_REC_MAX_PLAIN, &t,
					 &data, &len));
}

TEST(padding)
{
	struct tlsx_rec_dir s = { 0 }, o = { 0 };
	static u8 rec[TLSX_REC_MAX];
	const u8 msg[3] = { 'a', 'b', 0 };	/* a zero inside the content */
	size_t len, pads[] = { 0, 1, 17, 255, 4096, TLSX_REC_MAX_PLAIN - 3 };
	unsigned int i;
	u8 *data, t;

	ASSERT_EQ(0, set_hex(&s, S3_C_AP));
	ASSERT_EQ(0, set_hex(&o, S3_C_AP));
	for (i = 0; i < ARRAY_SIZE(pads); i++) {
		ASSERT_EQ(0, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, msg, 3,
					   pads[i], rec, sizeof(rec), &len));
		EXPECT_EQ(3 + pads[i] + 22, len);
		ASSERT_EQ(0, tlsx_rec_open(&o, rec, len, TLSX_REC_MAX_PLAIN,
					   &t, &data, &len));
		EXPECT_EQ(TLSX_CT_APPLICATION_DATA, t);
		EXPECT_EQ(3, len);
		EXPECT_EQ(0, memcmp(data, msg, 3));
	}
	/* 5.4: an inner plaintext of zeros only (content type 0). */
	ASSERT_EQ(0, tlsx_rec_seal(&s, 0, NULL, 0, 40, rec, sizeof(rec),
				   &len));
	EXPECT_EQ(TLSX_ALERT_UNEXPECTED_MESSAGE,
		  tlsx_rec_open(&o, rec, len, TLSX_REC_MAX_PLAIN, &t, &data,
				&len));
	/* Content plus padding over 2^14. */
	EXPECT_EQ(-EMSGSIZE, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, msg,
					   3, TLSX_REC_MAX_PLAIN - 2, rec,
					   sizeof(rec), &len));
	EXPECT_EQ(-EMSGSIZE, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, msg,
					   TLSX_REC_MAX_PLAIN + 1, 0, rec,
					   sizeof(rec), &len));
	/* An output too small by one byte. */
	EXPECT_EQ(-ENOSPC, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, msg, 3,
					 0, rec, 3 + 22 - 1, &len));
	tlsx_rec_wipe(&s);
	tlsx_rec_wipe(&o);
}

/* In place: the data already at @out + 5, as the engine writes it. */
TEST(seal_in_place)
{
	struct tlsx_rec_dir a = { 0 }, b = { 0 };
	u8 x[128], y[128], fin[64];
	size_t n = unhex(r8448_s3_cf, fin, sizeof(fin)), lx, ly;

	ASSERT_EQ(0, set_hex(&a, S3_C_HS));
	ASSERT_EQ(0, set_hex(&b, S3_C_HS));
	memcpy(x + TLSX_REC_HDR, fin, n);
	ASSERT_EQ(0, tlsx_rec_seal(&a, TLSX_CT_HANDSHAKE, x + TLSX_REC_HDR, n,
				   0, x, sizeof(x), &lx));
	ASSERT_EQ(0, tlsx_rec_seal(&b, TLSX_CT_HANDSHAKE, fin, n, 0, y,
				   sizeof(y), &ly));
	ASSERT_EQ(lx, ly);
	EXPECT_EQ(0, memcmp(x, y, lx));
	tlsx_rec_wipe(&a);
	tlsx_rec_wipe(&b);
}

TEST(record_overflow)
{
	struct tlsx_rec_dir s = { 0 }, o = { 0 };
	static u8 rec[TLSX_REC_MAX], big[TLSX_REC_MAX_PLAIN], copy[TLSX_REC_MAX];
	size_t len, n;
	u8 *data, t;

	memset(big, 0x5a, sizeof(big));
	ASSERT_EQ(0, set_hex(&s, S3_C_AP));
	ASSERT_EQ(0, set_hex(&o, S3_C_AP));
	ASSERT_EQ(0, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, big,
				   sizeof(big), 0, rec, sizeof(rec), &n));
	memcpy(copy, rec, n);
	/* Under a record_size_limit of 2^14 - 1 (RFC 8449 4). */
	EXPECT_EQ(TLSX_ALERT_RECORD_OVERFLOW,
		  tlsx_rec_open(&o, copy, n, TLSX_REC_MAX_PLAIN - 1, &t, &data,
				&len));
	EXPECT_EQ(0, o.seq);
	ASSERT_EQ(0, tlsx_rec_open(&o, rec, n, TLSX_REC_MAX_PLAIN, &t, &data,
				   &len));
	EXPECT_EQ(sizeof(big), len);
	tlsx_rec_wipe(&s);
	tlsx_rec_wipe(&o);
}

TEST(header)
{
	u8 h[TLSX_REC_HDR] = { 23, 3, 3, 0x40, 0x11 };
	size_t len = 0;

	EXPECT_EQ(0, tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	EXPECT_EQ(0x4011, len);
	/* 5.2: over 2^14 + 256. */
	h[3] = 0x41;
	h[4] = 0x01;
	EXPECT_EQ(TLSX_ALERT_RECORD_OVERFLOW,
		  tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	h[4] = 0x00;
	EXPECT_EQ(0, tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	/* 5.1: plaintext records at most 2^14. */
	EXPECT_EQ(TLSX_ALERT_RECORD_OVERFLOW,
		  tlsx_rec_header(h, TLSX_REC_MAX_PLAIN, &len));
	h[3] = 0;
	/* legacy_record_version is ignored but for its major 3. */
	h[2] = 1;
	EXPECT_EQ(0, tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	h[1] = 2;
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR,
		  tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	h[1] = 3;
	for (h[0] = 20; h[0] <= 23; h[0]++)
		EXPECT_EQ(0, tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	/* 5: an unexpected record type is unexpected_message. */
	h[0] = 24;	/* heartbeat: not TLS 1.3's */
	EXPECT_EQ(TLSX_ALERT_UNEXPECTED_MESSAGE,
		  tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
	h[0] = 0x80;	/* an SSLv2 hello's first byte */
	EXPECT_EQ(TLSX_ALERT_UNEXPECTED_MESSAGE,
		  tlsx_rec_header(h, TLSX_REC_MAX_CIPHER, &len));
}

TEST(sequence_limit)
{
	struct tlsx_rec_dir s = { 0 }, o = { 0 };
	u8 rec[64], *data, t;
	size_t len, n;

	ASSERT_EQ(0, set_hex(&s, S3_C_AP));
	ASSERT_EQ(0, set_hex(&o, S3_C_AP));
	s.seq = UINT64_MAX - 1;
	o.seq = UINT64_MAX - 1;
	ASSERT_EQ(0, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, rec, 1, 0,
				   rec, sizeof(rec), &n));
	ASSERT_EQ(0, tlsx_rec_open(&o, rec, n, TLSX_REC_MAX_PLAIN, &t,
				   &data, &len));
	EXPECT_EQ(-EOVERFLOW, tlsx_rec_seal(&s, TLSX_CT_APPLICATION_DATA, rec,
					    1, 0, rec, sizeof(rec), &len));
	EXPECT_EQ(-EOVERFLOW, tlsx_rec_open(&o, rec, n, TLSX_REC_MAX_PLAIN,
					    &t, &data, &len));
	/* A new secret restarts at 0 (5.3). */
	ASSERT_EQ(0, set_hex(&s, S3_C_AP));
	EXPECT_EQ(0, s.seq);
	tlsx_rec_wipe(&s);
	tlsx_rec_wipe(&o);
}

TEST(bad_secret)
{
	struct tlsx_rec_dir d = { 0 };
	u8 s[48] = { 1 };

	EXPECT_EQ(-EINVAL, tlsx_rec_set_secret(&d, 0x1302, s, 32));
	EXPECT_EQ(-EINVAL, tlsx_rec_set_secret(&d, 0x1301, s, 48));
	EXPECT_EQ(-EINVAL, tlsx_rec_set_secret(&d, 0x1305, s, 32));
	EXPECT_FALSE(d.set);
	EXPECT_EQ(0, tlsx_rec_set_secret(&d, 0x1302, s, 48));
	EXPECT_TRUE(d.set);
	tlsx_rec_wipe(&d);
}

/* --- every suite against OpenSSL's EVP AEAD ---------------------------- */

FIXTURE(suite) {
	struct tlsx_rec_dir seal, open;
	u8 key[32], iv[TLSX_IV_SIZE];
	size_t key_len;
	const EVP_CIPHER *cipher;
};

FIXTURE_VARIANT(suite) {
	u16 suite;
};

FIXTURE_VARIANT_ADD(suite, aes_128_gcm) { .suite = 0x1301 };
FIXTURE_VARIANT_ADD(suite, aes_256_gcm) { .suite = 0x1302 };
FIXTURE_VARIANT_ADD(suite, chacha20_poly1305) { .suite = 0x1303 };
FIXTURE_VARIANT_ADD(suite, aes_128_ccm) { .suite = 0x1304 };

FIXTURE_SETUP(suite)
{
	enum tlsx_aead_alg aead;
	enum tlsx_hash_alg hash;
	size_t i, hl;

	ASSERT_EQ(0, tlsx_suite_params(variant->suite, &aead, &hash,
				       &self->key_len));
	hl = tlsx_hash_digest_size(hash);
	for (i = 0; i < hl; i++)
		secret[i] = (u8)(i * 7 + variant->suite);
	memset(&self->seal, 0, sizeof(self->seal));
	memset(&self->open, 0, sizeof(self->open));
	ASSERT_EQ(0, tlsx_rec_set_secret(&self->seal, variant->suite, secret,
					 hl));
	ASSERT_EQ(0, tlsx_rec_set_secret(&self->open, variant->suite, secret,
					 hl));
	ASSERT_EQ(0, tlsx_traffic_keys(hash, secret, self->key,
				       self->key_len, self->iv));
	switch (aead) {
	case TLSX_AEAD_AES_128_GCM:
		self->cipher = EVP_aes_128_gcm();
		break;
	case TLSX_AEAD_AES_256_GCM:
		self->cipher = EVP_aes_256_gcm();
		break;
	case TLSX_AEAD_CHACHA20_POLY1305:
		self->cipher = EVP_chacha20_poly1305();
		break;
	default:
		self->cipher = EVP_aes_128_ccm();
		break;
	}
}

FIXTURE_TEARDOWN(suite)
{
	tlsx_rec_wipe(&self->seal);
	tlsx_rec_wipe(&self->open);
}

/*
 * OpenSSL seals (@enc) or opens the record @rec (header written, @inner
 * bytes of TLSInnerPlaintext after it, then the tag) at sequence @seq,
 * in place.  Returns 1 on success.
 */
static int evp_record(const EVP_CIPHER *c, const u8 *key, const u8 *iv,
		      u64 seq, u8 *rec, size_t inner, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
	bool ccm = EVP_CIPHER_get_mode(c) == EVP_CIPH_CCM_MODE;
	u8 nonce[12], *tag = rec + TLSX_REC_HDR + inner;
	int i, n, ok = 0;

	memcpy(nonce, iv, 12);
	for (i = 0; i < 8; i++)
		nonce[11 - i] ^= (u8)(seq >> (8 * i));
	if (!ctx || !EVP_CipherInit_ex(ctx, c, NULL, NULL, NULL, enc) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_IVLEN, 12, NULL))
		goto out;
	if (ccm && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16,
					enc ? NULL : tag))
		goto out;
	if (!EVP_CipherInit_ex(ctx, NULL, NULL, key, nonce, enc))
		goto out;
	if (ccm && !EVP_CipherUpdate(ctx, NULL, &n, NULL, (int)inner))
		goto out;
	if (!EVP_CipherUpdate(ctx, NULL, &n, rec, TLSX_REC_HDR))
		goto out;
	if (!ccm && !enc &&
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, 16, tag))
		goto out;
	if (!EVP_CipherUpdate(ctx, rec + TLSX_REC_HDR, &n, rec + TLSX_REC_HDR,
			      (int)inner))
		goto out;
	if (!ccm && !EVP_CipherFinal_ex(ctx, rec + TLSX_REC_HDR + n, &n))
		goto out;
	if (enc && !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, 16, tag))
		goto out;
	ok = 1;
out:
	EVP_CIPHER_CTX_free(ctx);
	return ok;
}

TEST_F(suite, ours_open_in_openssl)
{
	static u8 rec[TLSX_REC_MAX], data[TLSX_REC_MAX_PLAIN];
	size_t lens[] = { 0, 1, 15, 16, 17, 255, 1000, TLSX_REC_MAX_PLAIN };
	size_t i, j, len, inner;

	for (j = 0; j < sizeof(data); j++)
		data[j] = (u8)(j * 31 + 5);
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		size_t pad = lens[i] < 100 ? i * 3 : 0;

		ASSERT_EQ(0, tlsx_rec_seal(&self->seal,
					   TLSX_CT_APPLICATION_DATA, data,
					   lens[i], pad, rec, sizeof(rec),
					   &len));
		inner = lens[i] + 1 + pad;
		ASSERT_EQ(TLSX_REC_HDR + inner + 16, len);
		ASSERT_EQ(1, evp_record(self->cipher, self->key, self->iv, i,
					rec, inner, 0))
			TH_LOG("len %zu", lens[i]);
		EXPECT_EQ(0, memcmp(rec + TLSX_REC_HDR, data, lens[i]));
		EXPECT_EQ(TLSX_CT_APPLICATION_DATA, rec[TLSX_REC_HDR + lens[i]]);
	}
}

TEST_F(suite, openssl_open_here)
{
	static u8 rec[TLSX_REC_MAX];
	size_t lens[] = { 0, 2, 16, 100, 4000, TLSX_REC_MAX_PLAIN };
	size_t i, j, len, inner;
	u8 *data, t;

	/*
	 * The last pass is 2^14 of content with 7 bytes of padding: 5.4, the
	 * TLSInnerPlaintext is at most 2^14 + 1 bytes, so it is refused.
	 */
	for (i = 0; i <= ARRAY_SIZE(lens); i++) {
		inner = i < ARRAY_SIZE(lens) ?
			lens[i] + 1 + (i & 1) * 7 * (lens[i] < TLSX_REC_MAX_PLAIN) :
			TLSX_REC_MAX_PLAIN + 1 + 7;
		if (i == ARRAY_SIZE(lens)) {
			memset(rec + TLSX_REC_HDR, 0, inner);
			rec[TLSX_REC_HDR + TLSX_REC_MAX_PLAIN] = TLSX_CT_HANDSHAKE;
			put_unaligned_be16((u16)(inner + 16), rec + 3);
			ASSERT_EQ(1, evp_record(self->cipher, self->key,
						self->iv, i, rec, inner, 1));
			EXPECT_EQ(TLSX_ALERT_RECORD_OVERFLOW,
				  tlsx_rec_open(&self->open, rec,
						TLSX_REC_HDR + inner + 16,
						TLSX_REC_MAX_PLAIN, &t, &data,
						&len));
			break;
		}
		rec[0] = TLSX_CT_APPLICATION_DATA;
		rec[1] = 3;
		rec[2] = 3;
		put_unaligned_be16((u16)(inner + 16), rec + 3);
		for (j = 0; j < lens[i]; j++)
			rec[TLSX_REC_HDR + j] = (u8)(j ^ i);
		memset(rec + TLSX_REC_HDR + lens[i], 0, inner - lens[i]);
		rec[TLSX_REC_HDR + lens[i]] = TLSX_CT_HANDSHAKE;
		ASSERT_EQ(1, evp_record(self->cipher, self->key, self->iv, i,
					rec, inner, 1));
		ASSERT_EQ(0, tlsx_rec_open(&self->open, rec,
					   TLSX_REC_HDR + inner + 16,
					   TLSX_REC_MAX_PLAIN, &t, &data,
					   &len))
			TH_LOG("len %zu", lens[i]);
		EXPECT_EQ(TLSX_CT_HANDSHAKE, t);
		ASSERT_EQ(lens[i], len);
		for (j = 0; j < len; j++)
			ASSERT_EQ((u8)(j ^ i), data[j]);
	}
	EXPECT_EQ(ARRAY_SIZE(lens), self->open.seq);
}

TEST_HARNESS_MAIN
