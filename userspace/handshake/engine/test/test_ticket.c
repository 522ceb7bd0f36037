// SPDX-License-Identifier: GPL-2.0
/*
 * test_ticket.c - ticket keys, tickets and sessions (ticket.c):
 *
 *  - seal/open round trips for every suite, the layout (key name in
 *    clear, the injected nonce), sessions that cannot be sealed;
 *  - tampering: every byte flipped, every truncation, another server's
 *    keys: -ENOENT;
 *  - rotation: the previous key still opens, a key two rotations old
 *    does not (-ENOENT), no rotation before the period; expiry: -ETIME;
 *  - nginx's 80-byte key files, a ticket opened by OpenSSL's AES-256-GCM
 *    with the file's key bytes (an independent check of the format);
 *  - two threads sealing and opening while a third rotates as fast as it
 *    can (run under ASan too: a generation freed too early is a
 *    use-after-free there);
 *  - NewSessionTicket: RFC 8448 section 3's message gives the PSK the RFC
 *    lists and the ticket section 4's ClientHello carries; hand-built
 *    messages for the lifetime bound, every framing error, extensions;
 *  - session files: round trip, every truncation, corrupted fields.
 */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "handshake/engine/codec.h"
#include "handshake/engine/keysched.h"
#include "handshake/engine/ticket.h"
#include "handshake/engine/test/hs_test.h"
#include "handshake/engine/test/rfc8448.h"

/* RFC 8448 section 3: the server's NewSessionTicket (205 octets). */
static const char r8448_s3_nst[] =
	"040000c90000001efad6aac502000000b22c035d829359ee5ff7af4ec900000000262a6494dc486d2c8a34cb33fa90bf1b0070ad3c498883c9367c09a2be785abc55cd226097a3a982117283f82a03a143efd3ff5dd36d64e861be7fd61d2827db279cce145077d454a3664d4e6da4d29ee03725a6a4dafcd0fc67d2aea70529513e3da2677fa5906c5b3f7d8f92f228bda40dda721470f9fbf297b5aea617646fac5c03272e970727c621a79141ef5f7de6505e5bfbc388e93343694093934ae4d3570008002a000400000400";

#define NOW	1700000000

/* A whole server-side session of @suite. */
static void session(struct tlsx_session *s, u16 suite)
{
	size_t i;

	memset(s, 0, sizeof(*s));
	s->suite = suite;
	s->psk_len = suite == TLSX_SUITE_AES_256_GCM_SHA384 ? 48 : 32;
	for (i = 0; i < s->psk_len; i++)
		s->psk[i] = (u8)(0xa0 + i);
	s->issued = NOW;
	s->lifetime = 7200;
	s->age_add = 0x12345678;
	s->max_early_data = 0;
	s->peer_cert = true;
	memset(s->context, 0x77, sizeof(s->context));
	snprintf(s->server_name, sizeof(s->server_name), "www.example.com");
	snprintf((char *)s->alpn, sizeof(s->alpn), "h2");
}

static bool same_state(const struct tlsx_session *a,
		       const struct tlsx_session *b)
{
	return a->suite == b->suite && a->psk_len == b->psk_len &&
	       !memcmp(a->psk, b->psk, a->psk_len) && a->issued == b->issued &&
	       a->lifetime == b->lifetime && a->age_add == b->age_add &&
	       a->max_early_data == b->max_early_data &&
	       a->peer_cert == b->peer_cert &&
	       !memcmp(a->context, b->context, sizeof(a->context)) &&
	       !strcmp(a->server_name, b->server_name) &&
	       !strcmp((const char *)a->alpn, (const char *)b->alpn);
}

/* Injected randomness: the byte @ctx points at, repeated. */
static int fixed_rand(void *ctx, void *buf, size_t len)
{
	memset(buf, *(u8 *)ctx, len);
	return 0;
}

static int failing_rand(void *ctx, void *buf, size_t len)
{
	(void)ctx;
	(void)buf;
	(void)len;
	return -EIO;
}

static int seal(struct tlsx_ticket_keys *k, const struct tlsx_session *s,
		u8 *t, size_t *len)
{
	return tlsx_ticket_seal(k, s, NULL, NULL, t, TLSX_TICKET_MAX, len);
}

TEST(round_trip_every_suite)
{
	static const u16 suites[] = {
		TLSX_SUITE_AES_128_GCM_SHA256, TLSX_SUITE_AES_256_GCM_SHA384,
		TLSX_SUITE_CHACHA20_POLY1305_SHA256,
		TLSX_SUITE_AES_128_CCM_SHA256,
	};
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(3600, NOW);
	struct tlsx_session s, got;
	u8 t[TLSX_TICKET_MAX];
	size_t len;
	unsigned int i;

	ASSERT_NE(NULL, k);
	for (i = 0; i < ARRAY_SIZE(suites); i++) {
		session(&s, suites[i]);
		ASSERT_EQ(0, seal(k, &s, t, &len));
		ASSERT_EQ(0, tlsx_ticket_open(k, t, len, NOW + 10, &got));
		EXPECT_TRUE(same_state(&s, &got)) TH_LOG("%04x", suites[i]);
		EXPECT_EQ(0, got.ticket_len);
	}
	/* Empty name and ALPN, no client certificate. */
	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	s.server_name[0] = '\0';
	s.alpn[0] = '\0';
	s.peer_cert = false;
	ASSERT_EQ(0, seal(k, &s, t, &len));
	ASSERT_EQ(0, tlsx_ticket_open(k, t, len, NOW, &got));
	EXPECT_TRUE(same_state(&s, &got));
	/* Longest name and ALPN. */
	memset(s.server_name, 'a', TLSX_HS_MAX_NAME);
	s.server_name[TLSX_HS_MAX_NAME] = '\0';
	memset(s.alpn, 'b', 255);
	s.alpn[255] = '\0';
	ASSERT_EQ(0, seal(k, &s, t, &len));
	ASSERT_EQ(0, tlsx_ticket_open(k, t, len, NOW, &got));
	EXPECT_TRUE(same_state(&s, &got));
	tlsx_ticket_keys_free(k);
}

TEST(layout)
{
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(0, NOW);
	struct tlsx_session s;
	u8 t1[TLSX_TICKET_MAX], t2[TLSX_TICKET_MAX], b = 0x5c;
	size_t l1, l2, i;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	ASSERT_EQ(0, tlsx_ticket_seal(k, &s, fixed_rand, &b, t1, sizeof(t1),
				      &l1));
	b = 0x3a;
	ASSERT_EQ(0, tlsx_ticket_seal(k, &s, fixed_rand, &b, t2, sizeof(t2),
				      &l2));
	/* name[16] (the same key) || nonce[12] (injected) || ct || tag. */
	ASSERT_EQ(l1, l2);
	EXPECT_EQ(0, memcmp(t1, t2, 16));
	for (i = 16; i < 28; i++) {
		EXPECT_EQ(0x5c, t1[i]);
		EXPECT_EQ(0x3a, t2[i]);
	}
	/*
	 * version, suite, psk, times, flags, context, name, ALPN, then the
	 * tag.
	 */
	EXPECT_EQ(16 + 12 + 1 + 2 + 33 + 8 + 12 + 1 + 32 + 16 + 3 + 16, l1);
	EXPECT_NE(0, memcmp(t1 + 28, t2 + 28, l1 - 28));
	tlsx_ticket_keys_free(k);
}

TEST(seal_refuses)
{
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(0, NOW);
	struct tlsx_session s;
	u8 t[TLSX_TICKET_MAX];
	size_t len = 99;

	session(&s, TLSX_SUITE_AES_256_GCM_SHA384);
	s.psk_len = 32;		/* not the suite's hash length */
	EXPECT_EQ(-EINVAL, seal(k, &s, t, &len));
	EXPECT_EQ(0, len);
	session(&s, 0x1305);
	EXPECT_EQ(-EINVAL, seal(k, &s, t, &len));
	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	s.lifetime = TLSX_TICKET_MAX_LIFETIME + 1;
	EXPECT_EQ(-EINVAL, seal(k, &s, t, &len));
	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	memset(s.server_name, 'a', sizeof(s.server_name));	/* no NUL */
	EXPECT_EQ(-EINVAL, seal(k, &s, t, &len));
	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	EXPECT_EQ(-ENOSPC, tlsx_ticket_seal(k, &s, NULL, NULL, t, 60, &len));
	EXPECT_EQ(-EIO, tlsx_ticket_seal(k, &s, failing_rand, NULL, t,
					 sizeof(t), &len));
	tlsx_ticket_keys_free(k);
}

TEST(tamper)
{
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(0, NOW);
	struct tlsx_ticket_keys *other = tlsx_ticket_keys_new(0, NOW);
	struct tlsx_session s, got;
	u8 t[TLSX_TICKET_MAX + 1];
	size_t len, i;
	unsigned int bit;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	ASSERT_EQ(0, seal(k, &s, t, &len));
	for (i = 0; i < len; i++) {
		for (bit = 0; bit < 8; bit++) {
			t[i] ^= 1u << bit;
			EXPECT_EQ(-ENOENT, tlsx_ticket_open(k, t, len, NOW, &got))
				TH_LOG("byte %zu bit %u", i, bit);
			t[i] ^= 1u << bit;
		}
	}
	for (i = 0; i < len; i++)
		EXPECT_EQ(-ENOENT, tlsx_ticket_open(k, t, i, NOW, &got))
			TH_LOG("truncated to %zu", i);
	t[len] = 0;
	EXPECT_EQ(-ENOENT, tlsx_ticket_open(k, t, len + 1, NOW, &got));
	/* Another server's keys do not know the name. */
	EXPECT_EQ(-ENOENT, tlsx_ticket_open(other, t, len, NOW, &got));
	/* The untouched ticket still opens, and a failure wiped @got. */
	ASSERT_EQ(0, tlsx_ticket_open(k, t, len, NOW, &got));
	EXPECT_EQ(-ENOENT, tlsx_ticket_open(other, t, len, NOW, &got));
	EXPECT_EQ(0, got.psk_len);
	EXPECT_EQ(0, got.psk[0]);
	tlsx_ticket_keys_free(k);
	tlsx_ticket_keys_free(other);
}

TEST(rotation)
{
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(100, NOW);
	struct tlsx_session s, got;
	u8 t1[TLSX_TICKET_MAX], t2[TLSX_TICKET_MAX], t3[TLSX_TICKET_MAX];
	size_t l1, l2, l3;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	s.lifetime = TLSX_TICKET_MAX_LIFETIME;
	ASSERT_EQ(0, seal(k, &s, t1, &l1));
	/* Before the period: no new key. */
	ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW + 99));
	ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW - 5000));
	ASSERT_EQ(0, seal(k, &s, t2, &l2));
	EXPECT_EQ(0, memcmp(t1, t2, 16));
	/* One rotation: a new key seals, the old one still opens. */
	ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW + 100));
	ASSERT_EQ(0, seal(k, &s, t2, &l2));
	EXPECT_NE(0, memcmp(t1, t2, 16));
	EXPECT_EQ(0, tlsx_ticket_open(k, t1, l1, NOW + 150, &got));
	EXPECT_EQ(0, tlsx_ticket_open(k, t2, l2, NOW + 150, &got));
	/* Not due again until NOW + 200. */
	ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW + 199));
	EXPECT_EQ(0, tlsx_ticket_open(k, t1, l1, NOW + 199, &got));
	/* Two rotations: t1's key is gone, t2's opens. */
	ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW + 200));
	ASSERT_EQ(0, seal(k, &s, t3, &l3));
	EXPECT_EQ(-ENOENT, tlsx_ticket_open(k, t1, l1, NOW + 250, &got));
	EXPECT_EQ(0, tlsx_ticket_open(k, t2, l2, NOW + 250, &got));
	EXPECT_EQ(0, tlsx_ticket_open(k, t3, l3, NOW + 250, &got));
	/* Long idle: one rotation, and the key that sealed until now opens. */
	ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW + 100000));
	EXPECT_EQ(0, tlsx_ticket_open(k, t3, l3, NOW + 100000, &got));
	EXPECT_EQ(-ENOENT, tlsx_ticket_open(k, t2, l2, NOW + 100000, &got));
	tlsx_ticket_keys_free(k);
}

TEST(no_rotation_without_period)
{
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(0, NOW);
	struct tlsx_session s, got;
	u8 t[TLSX_TICKET_MAX];
	size_t len;
	int i;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	s.lifetime = TLSX_TICKET_MAX_LIFETIME;
	ASSERT_EQ(0, seal(k, &s, t, &len));
	for (i = 1; i <= 5; i++)
		ASSERT_EQ(0, tlsx_ticket_keys_rotate(k, NOW + i * 1000000));
	EXPECT_EQ(0, tlsx_ticket_open(k, t, len, NOW + 600000, &got));
	tlsx_ticket_keys_free(k);
}

TEST(expiry)
{
	struct tlsx_ticket_keys *k = tlsx_ticket_keys_new(0, NOW);
	struct tlsx_session s, got;
	u8 t[TLSX_TICKET_MAX];
	size_t len;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	s.lifetime = 10;
	ASSERT_EQ(0, seal(k, &s, t, &len));
	EXPECT_EQ(0, tlsx_ticket_open(k, t, len, NOW, &got));
	EXPECT_EQ(0, tlsx_ticket_open(k, t, len, NOW + 10, &got));
	EXPECT_EQ(-ETIME, tlsx_ticket_open(k, t, len, NOW + 11, &got));
	EXPECT_EQ(0, got.psk_len);	/* wiped */
	/* Issued in the future (a clock that went back): not used. */
	EXPECT_EQ(-ETIME, tlsx_ticket_open(k, t, len, NOW - 1, &got));
	s.lifetime = 0;
	ASSERT_EQ(0, seal(k, &s, t, &len));
	EXPECT_EQ(0, tlsx_ticket_open(k, t, len, NOW, &got));
	EXPECT_EQ(-ETIME, tlsx_ticket_open(k, t, len, NOW + 1, &got));
	tlsx_ticket_keys_free(k);
}

/* Writes @n bytes of @p to a new temporary file; its name in @path[64]. */
static void put_file(char *path, const void *p, size_t n)
{
	int fd;

	snprintf(path, 64, "/tmp/tlsx_ticket_XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || write(fd, p, n) != (ssize_t)n || close(fd))
		abort();
}

/* OpenSSL's AES-256-GCM opens ticket @t with the 32-byte @key. */
static bool openssl_opens(const u8 *key, const u8 *t, size_t len)
{
	EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
	u8 out[TLSX_TICKET_MAX];
	size_t n = len - 44;
	int outl, ok;

	ok = EVP_DecryptInit_ex(c, EVP_aes_256_gcm(), NULL, key, t + 16) &&
	     EVP_DecryptUpdate(c, NULL, &outl, t, 16) &&
	     EVP_DecryptUpdate(c, out, &outl, t + 28, (int)n) &&
	     EVP_CIPHER_CTX_ctrl(c, EVP_CTRL_GCM_SET_TAG, 16,
				 (void *)(t + 28 + n)) &&
	     EVP_DecryptFinal_ex(c, out + outl, &outl);
	EVP_CIPHER_CTX_free(c);
	/* The state begins with its version, then the suite. */
	return ok && out[0] == 2 && out[1] == 0x13;
}

TEST(key_file)
{
	struct tlsx_ticket_keys *k, *k2;
	struct tlsx_session s, got;
	u8 keys[3 * 80], t[TLSX_TICKET_MAX];
	char path[64];
	const char *err = NULL;
	size_t len, i;

	for (i = 0; i < sizeof(keys); i++)
		keys[i] = (u8)(i * 7 + 1);
	put_file(path, keys, 2 * 80);
	k = tlsx_ticket_keys_load(path, &err);
	ASSERT_NE(NULL, k) TH_LOG("%s", err);
	unlink(path);
	session(&s, TLSX_SUITE_AES_256_GCM_SHA384);
	ASSERT_EQ(0, seal(k, &s, t, &len));
	/* The first key seals: its name in clear, its bytes 48..79 the key. */
	EXPECT_EQ(0, memcmp(t, keys, 16));
	EXPECT_TRUE(openssl_opens(keys + 48, t, len));
	EXPECT_FALSE(openssl_opens(keys + 16, t, len));
	/* Another machine with the keys in another order opens it. */
	put_file(path, keys + 80, 80);
	k2 = tlsx_ticket_keys_load(path, &err);
	unlink(path);
	ASSERT_NE(NULL, k2);
	EXPECT_EQ(-ENOENT, tlsx_ticket_open(k2, t, len, NOW, &got));
	tlsx_ticket_keys_free(k2);
	memcpy(keys + 160, keys, 80);
	put_file(path, keys + 80, 160);
	k2 = tlsx_ticket_keys_load(path, &err);
	unlink(path);
	ASSERT_NE(NULL, k2);
	EXPECT_EQ(0, tlsx_ticket_open(k2, t, len, NOW, &got));
	EXPECT_TRUE(same_state(&s, &got));
	/* A file's keys never rotate. */
	EXPECT_EQ(0, tlsx_ticket_keys_rotate(k2, NOW + 100000000));
	EXPECT_EQ(0, tlsx_ticket_open(k2, t, len, NOW, &got));
	tlsx_ticket_keys_free(k2);
	tlsx_ticket_keys_free(k);
}

TEST(key_file_errors)
{
	static u8 big[9 * 80];
	const char *err = NULL;
	char path[64];

	EXPECT_EQ(NULL, tlsx_ticket_keys_load("/nonexistent/ticket.key", &err));
	EXPECT_STREQ("ticket key file: no such file", err);
	put_file(path, big, 79);
	EXPECT_EQ(NULL, tlsx_ticket_keys_load(path, &err));
	EXPECT_NE(NULL, strstr(err, "multiple of 80")) TH_LOG("%s", err);
	unlink(path);
	put_file(path, big, 0);
	EXPECT_EQ(NULL, tlsx_ticket_keys_load(path, &err));
	EXPECT_NE(NULL, strstr(err, "multiple of 80"));
	unlink(path);
	put_file(path, big, sizeof(big));
	EXPECT_EQ(NULL, tlsx_ticket_keys_load(path, &err));
	EXPECT_NE(NULL, strstr(err, "more than 8")) TH_LOG("%s", err);
	unlink(path);
	EXPECT_EQ(NULL, tlsx_ticket_keys_load("/tmp", &err));
}

/* ---- concurrency ------------------------------------------------------ */

struct hammer {
	struct tlsx_ticket_keys *k;
	atomic_uint rotations;
	atomic_bool stop;
	unsigned int iters;
	atomic_uint ok, gone, bad;
};

static void *rotator(void *arg)
{
	struct hammer *h = arg;
	s64 now = NOW;

	while (!atomic_load(&h->stop)) {
		now += 10;	/* always due: a rotation per call */
		if (tlsx_ticket_keys_rotate(h->k, now))
			atomic_fetch_add(&h->bad, 1);
		atomic_fetch_add(&h->rotations, 1);
	}
	return NULL;
}

static void *sealer(void *arg)
{
	struct hammer *h = arg;
	struct tlsx_session s, got;
	u8 t[TLSX_TICKET_MAX];
	unsigned int i, c0;
	size_t len;
	int ret;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	for (i = 0; i < h->iters; i++) {
		c0 = atomic_load(&h->rotations);
		s.age_add = i;
		ret = seal(h->k, &s, t, &len);
		if (!ret)
			ret = tlsx_ticket_open(h->k, t, len, NOW, &got);
		/*
		 * Opening fails only when two rotations were published since
		 * the seal; at most one is published and not yet counted.
		 */
		if (!ret && got.age_add == i)
			atomic_fetch_add(&h->ok, 1);
		else if (ret == -ENOENT && atomic_load(&h->rotations) != c0)
			atomic_fetch_add(&h->gone, 1);
		else
			atomic_fetch_add(&h->bad, 1);
	}
	return NULL;
}

TEST(rotate_while_sealing)
{
	struct hammer h = { .iters = 20000 };
	pthread_t rot, s1, s2;

	h.k = tlsx_ticket_keys_new(10, NOW);
	ASSERT_NE(NULL, h.k);
	ASSERT_EQ(0, pthread_create(&rot, NULL, rotator, &h));
	ASSERT_EQ(0, pthread_create(&s1, NULL, sealer, &h));
	ASSERT_EQ(0, pthread_create(&s2, NULL, sealer, &h));
	pthread_join(s1, NULL);
	pthread_join(s2, NULL);
	atomic_store(&h.stop, true);
	pthread_join(rot, NULL);
	TH_LOG("%u rotations, %u opened, %u rotated out, %u bad",
	       atomic_load(&h.rotations), atomic_load(&h.ok),
	       atomic_load(&h.gone), atomic_load(&h.bad));
	EXPECT_EQ(0, atomic_load(&h.bad));
	EXPECT_EQ(2 * h.iters, atomic_load(&h.ok) + atomic_load(&h.gone));
	EXPECT_GT(atomic_load(&h.rotations), 100);
	EXPECT_GT(atomic_load(&h.ok), 0);
	tlsx_ticket_keys_free(h.k);
}

/* ---- NewSessionTicket ------------------------------------------------ */

static struct tlsx_hs_secrets s3_secrets(void)
{
	struct tlsx_hs_secrets sec;

	memset(&sec, 0, sizeof(sec));
	sec.suite = TLSX_SUITE_AES_128_GCM_SHA256;
	sec.hash = TLSX_HASH_SHA256;
	sec.secret_len = 32;
	unhex(S3_RES, sec.res_master, sizeof(sec.res_master));
	return sec;
}

TEST(nst_rfc8448)
{
	struct tlsx_hs_secrets sec = s3_secrets();
	u8 msg[256], ch[1024];
	size_t len = unhex(r8448_s3_nst, msg, sizeof(msg));
	size_t ch_len = unhex(r8448_s4_ch_prefix, ch, sizeof(ch));
	struct tlsx_session s;

	ASSERT_EQ(205, len);
	ASSERT_EQ(0, tlsx_session_from_ticket(&sec, "server", (const u8 *)"",
					      msg, len, NOW, &s));
	EXPECT_EQ(30, s.lifetime);
	EXPECT_EQ(0xfad6aac5, s.age_add);
	EXPECT_EQ(0x400, s.max_early_data);
	EXPECT_EQ(32, s.psk_len);
	EXPECT_TRUE(hex_is(s.psk, S3_RES_PSK));
	EXPECT_EQ(TLSX_SUITE_AES_128_GCM_SHA256, s.suite);
	EXPECT_EQ(NOW, s.issued);
	EXPECT_STREQ("server", s.server_name);
	EXPECT_STREQ("", (const char *)s.alpn);
	/* Section 4's ClientHello offers this very ticket as its identity. */
	ASSERT_EQ(178, s.ticket_len);
	EXPECT_NE(NULL, memmem(ch, ch_len, s.ticket, s.ticket_len));
	tlsx_session_wipe(&s);
}

/*
 * A NewSessionTicket: @lifetime, @age_add, @nonce_len bytes of nonce,
 * @ticket_len bytes of ticket, then the extension block @ext_hex.
 */
static size_t nst(u8 *out, size_t cap, u32 lifetime, size_t nonce_len,
		  size_t ticket_len, const char *ext_hex)
{
	static u8 filler[70000], ext[1024];
	size_t ext_len = unhex(ext_hex, ext, sizeof(ext)), len;
	struct tlsx_wr w;

	memset(filler, 0x77, sizeof(filler));
	tlsx_wr_init(&w, out, cap);
	tlsx_wr_u8(&w, 4);
	tlsx_wr_open(&w, 3);
	tlsx_wr_u32(&w, lifetime);
	tlsx_wr_u32(&w, 0x01020304);
	tlsx_wr_vec(&w, 1, filler, nonce_len);
	tlsx_wr_vec(&w, 2, filler, ticket_len);
	tlsx_wr_vec(&w, 2, ext, ext_len);
	tlsx_wr_close(&w);
	if (tlsx_wr_finish(&w, &len))
		abort();
	return len;
}

static int from(const u8 *msg, size_t len, struct tlsx_session *s)
{
	struct tlsx_hs_secrets sec = s3_secrets();

	return tlsx_session_from_ticket(&sec, "example.com",
					(const u8 *)"http/1.1", msg, len, NOW,
					s);
}

TEST(nst_lifetime)
{
	struct tlsx_session s;
	u8 m[2048];
	size_t len;

	len = nst(m, sizeof(m), TLSX_TICKET_MAX_LIFETIME, 1, 100, "");
	ASSERT_EQ(0, from(m, len, &s));
	EXPECT_EQ(604800, s.lifetime);
	EXPECT_STREQ("http/1.1", (const char *)s.alpn);
	EXPECT_EQ(0, s.max_early_data);
	/* RFC 8446 4.6.1: more than seven days. */
	len = nst(m, sizeof(m), TLSX_TICKET_MAX_LIFETIME + 1, 1, 100, "");
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER, from(m, len, &s));
	EXPECT_EQ(0, s.psk_len);
	len = nst(m, sizeof(m), 0xffffffff, 1, 100, "");
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER, from(m, len, &s));
	/* Zero: valid, to be discarded by the caller. */
	len = nst(m, sizeof(m), 0, 1, 100, "");
	EXPECT_EQ(0, from(m, len, &s));
	EXPECT_EQ(0, s.lifetime);
}

TEST(nst_framing)
{
	struct tlsx_session s;
	u8 m[2048];
	size_t len, i;

	/* Empty and longest nonces are fine. */
	len = nst(m, sizeof(m), 60, 0, 100, "");
	EXPECT_EQ(0, from(m, len, &s));
	len = nst(m, sizeof(m), 60, 255, 100, "");
	EXPECT_EQ(0, from(m, len, &s));
	/* ticket<1..2^16-1>: an empty one. */
	len = nst(m, sizeof(m), 60, 8, 0, "");
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, len, &s));
	/* Every truncation, the header's length kept or fixed up. */
	len = nst(m, sizeof(m), 60, 8, 100, "002a000400000400");
	ASSERT_EQ(0, from(m, len, &s));
	for (i = 0; i < len; i++) {
		EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, i, &s))
			TH_LOG("%zu bytes", i);
		if (i >= 4) {
			u8 c[2048];

			memcpy(c, m, i);
			c[1] = 0;
			c[2] = (u8)((i - 4) >> 8);
			c[3] = (u8)(i - 4);
			EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(c, i, &s))
				TH_LOG("fixed up to %zu bytes", i);
		}
	}
	/* A byte past the header's length, and inside it. */
	m[len] = 0;
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, len + 1, &s));
	m[3]++;
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, len + 1, &s));
	m[3]--;
	/* Not a NewSessionTicket: the caller's mistake. */
	m[0] = 2;
	EXPECT_EQ(-EINVAL, from(m, len, &s));
}

TEST(nst_extensions)
{
	struct tlsx_session s;
	u8 m[2048];
	size_t len;

	/* An unknown extension is ignored (4.6.1: no alert for those). */
	len = nst(m, sizeof(m), 60, 1, 50, "fafa0003010203");
	EXPECT_EQ(0, from(m, len, &s));
	/* ...but not twice (4.2). */
	len = nst(m, sizeof(m), 60, 1, 50, "fafa0000fafa0000");
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER, from(m, len, &s));
	len = nst(m, sizeof(m), 60, 1, 50, "002a000400000001002a000400000001");
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER, from(m, len, &s));
	/* A known extension that is not for NewSessionTicket (4.2). */
	len = nst(m, sizeof(m), 60, 1, 50, "00000000");
	EXPECT_EQ(TLSX_ALERT_ILLEGAL_PARAMETER, from(m, len, &s));
	/* early_data: a uint32, nothing else. */
	len = nst(m, sizeof(m), 60, 1, 50, "002a000400004000");
	ASSERT_EQ(0, from(m, len, &s));
	EXPECT_EQ(0x4000, s.max_early_data);
	len = nst(m, sizeof(m), 60, 1, 50, "002a0003000040");
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, len, &s));
	len = nst(m, sizeof(m), 60, 1, 50, "002a0000");
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, len, &s));
	/* An extension running past its block. */
	len = nst(m, sizeof(m), 60, 1, 50, "002a0008000040");
	EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, from(m, len, &s));
}

TEST(nst_ticket_sizes)
{
	static u8 m[70000];
	struct tlsx_session s;
	size_t len;

	len = nst(m, sizeof(m), 60, 1, TLSX_TICKET_MAX, "");
	ASSERT_EQ(0, from(m, len, &s));
	EXPECT_EQ(TLSX_TICKET_MAX, s.ticket_len);
	/* Well-formed, longer than we keep: dropped, no alert. */
	len = nst(m, sizeof(m), 60, 1, TLSX_TICKET_MAX + 1, "");
	EXPECT_EQ(-EMSGSIZE, from(m, len, &s));
	len = nst(m, sizeof(m), 60, 1, 65535, "");
	EXPECT_EQ(-EMSGSIZE, from(m, len, &s));
}

TEST(nst_sha384)
{
	struct tlsx_hs_secrets sec;
	struct tlsx_session s;
	u8 m[2048], want[48];
	size_t len = nst(m, sizeof(m), 60, 4, 64, "");

	memset(&sec, 0, sizeof(sec));
	sec.suite = TLSX_SUITE_AES_256_GCM_SHA384;
	sec.hash = TLSX_HASH_SHA384;
	sec.secret_len = 48;
	memset(sec.res_master, 0x42, 48);
	ASSERT_EQ(0, tlsx_session_from_ticket(&sec, NULL, NULL, m, len, NOW,
					      &s));
	EXPECT_EQ(48, s.psk_len);
	ASSERT_EQ(0, tlsx_resumption_psk(TLSX_HASH_SHA384, sec.res_master,
					 m + 4 + 9, 4, want));
	EXPECT_EQ(0, memcmp(want, s.psk, 48));
	EXPECT_STREQ("", s.server_name);
	/* Secrets that do not fit their suite. */
	sec.secret_len = 32;
	EXPECT_EQ(-EINVAL, tlsx_session_from_ticket(&sec, NULL, NULL, m, len,
						    NOW, &s));
}

/* ---- session files --------------------------------------------------- */

TEST(session_round_trip)
{
	struct tlsx_hs_secrets sec = s3_secrets();
	struct tlsx_session s, got;
	u8 msg[256], buf[2048];
	size_t len = unhex(r8448_s3_nst, msg, sizeof(msg)), n, i;

	ASSERT_EQ(0, tlsx_session_from_ticket(&sec, "server", (const u8 *)"h2",
					      msg, len, NOW, &s));
	ASSERT_EQ(0, tlsx_session_encode(&s, buf, sizeof(buf), &n));
	ASSERT_EQ(0, tlsx_session_decode(&got, buf, n));
	EXPECT_TRUE(same_state(&s, &got));
	ASSERT_EQ(s.ticket_len, got.ticket_len);
	EXPECT_EQ(0, memcmp(s.ticket, got.ticket, s.ticket_len));
	EXPECT_EQ(0x400, got.max_early_data);
	/* Every truncation and one byte more. */
	for (i = 0; i < n; i++)
		EXPECT_EQ(-EBADMSG, tlsx_session_decode(&got, buf, i))
			TH_LOG("%zu bytes", i);
	buf[n] = 0;
	EXPECT_EQ(-EBADMSG, tlsx_session_decode(&got, buf, n + 1));
	EXPECT_EQ(0, got.psk_len);	/* wiped on failure */
	/* Too small a buffer. */
	EXPECT_EQ(-ENOSPC, tlsx_session_encode(&s, buf, n - 1, &i));
	EXPECT_EQ(0, i);
	tlsx_session_wipe(&s);
	tlsx_session_wipe(&got);
}

/* Decoding @buf with byte @off set to @v fails. */
static int decode_with(const u8 *buf, size_t n, size_t off, u8 v)
{
	struct tlsx_session s;
	u8 c[2048];

	memcpy(c, buf, n);
	c[off] = v;
	return tlsx_session_decode(&s, c, n);
}

TEST(session_corrupt_fields)
{
	struct tlsx_session s;
	u8 buf[2048];
	size_t n;

	session(&s, TLSX_SUITE_AES_128_GCM_SHA256);
	s.ticket_len = 10;
	memset(s.ticket, 0xee, 10);
	ASSERT_EQ(0, tlsx_session_encode(&s, buf, sizeof(buf), &n));
	/* magic[4] suite[2] psk_len[1]: offsets 0..6. */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 0, 'T'));
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 3, 1));		/* version */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 3, 3));
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 5, 0x05));	/* suite */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 6, 31));	/* psk len */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 6, 48));
	/* lifetime at 4+2+33+8 = 47: over seven days. */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 47, 0xff));
	/* peer_cert at 47+12 = 59 must be 0 or 1. */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 59, 2));
	/* the context (60..91), then a NUL inside the name (at 93). */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, 93, 0));
	/* the ticket's length (the last 12 bytes: 2 + 10). */
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, n - 11, 11));
	EXPECT_EQ(-EBADMSG, decode_with(buf, n, n - 11, 9));
	/* the untouched encoding decodes */
	EXPECT_EQ(0, decode_with(buf, n, 0, 't'));
	/* Sessions that are not whole. */
	s.ticket_len = 0;
	EXPECT_EQ(-EINVAL, tlsx_session_encode(&s, buf, sizeof(buf), &n));
	s.ticket_len = 10;
	s.psk_len = 48;
	EXPECT_EQ(-EINVAL, tlsx_session_encode(&s, buf, sizeof(buf), &n));
}

/*
 * A session file of version 1 (no context, no verified-server meaning
 * for peer_cert), well-formed as it was: refused by its magic, not read
 * under version 2's layout.
 */
TEST(session_version_1_refused)
{
	static const u8 head[] = { 't', 'x', 's', 1, 0x13, 0x01, 32 };
	struct tlsx_session s;
	u8 buf[256], *p = buf;

	memcpy(p, head, sizeof(head));
	p += sizeof(head);
	memset(p, 0xa0, 32);			/* psk */
	p += 32;
	memset(p, 0, 8);			/* issued */
	p[7] = 1;
	p += 8;
	put_unaligned_be32(7200, p);		/* lifetime */
	memset(p + 4, 0, 8);			/* age_add, max_early_data */
	p += 12;
	*p++ = 1;				/* peer_cert */
	*p++ = 3;				/* name */
	memcpy(p, "a.b", 3);
	p += 3;
	*p++ = 0;				/* ALPN */
	*p++ = 0;				/* ticket<1..> */
	*p++ = 4;
	memset(p, 0xee, 4);
	p += 4;
	EXPECT_EQ(-EBADMSG, tlsx_session_decode(&s, buf, (size_t)(p - buf)));
	EXPECT_EQ(0, s.psk_len);
	/* The same bytes as version 2 would not decode either: 32 short. */
	buf[3] = 2;
	EXPECT_EQ(-EBADMSG, tlsx_session_decode(&s, buf, (size_t)(p - buf)));
}

TEST(session_wipe)
{
	static const struct tlsx_session zero;
	struct tlsx_session s;

	session(&s, TLSX_SUITE_AES_256_GCM_SHA384);
	tlsx_session_wipe(&s);
	EXPECT_EQ(0, memcmp(&s, &zero, sizeof(s)));
}

TEST_HARNESS_MAIN
