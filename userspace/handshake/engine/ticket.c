// SPDX-License-Identifier: GPL-2.0
/*
 * ticket.c - session tickets (RFC 8446 4.6.1, 4.2.11): the server's
 * ticket keys and their rotation, sealing and opening tickets, the
 * client's session from a NewSessionTicket, and sessions as bytes.  The
 * contract is in ticket.h; docs/handshake.md has the design.
 *
 * A ticket is
 *
 *	key_name[16] || nonce[12] || AES-256-GCM(state) || tag[16]
 *
 * with the key name (public: it only says which key) as the associated
 * data, so a ticket cannot be moved to another key's name.  The state is
 * the session's fields in the versioned encoding below, the one a client
 * also saves to a file (with its ticket after them).
 *
 * Keys: the handshake path reads one atomic pointer to an immutable
 * generation (the key that seals first, then the ones that still open).
 * A rotation, under a mutex only rotations take, builds a new generation
 * and publishes it; the old one is retired, and freed once no seal or
 * open can still be using it.  Readers announce themselves with one
 * atomic counter (incremented before they load the pointer, decremented
 * when done): when a rotation, after publishing, reads the counter as
 * zero, every reader still to come will load the new pointer, so every
 * generation retired before that moment is unreachable and freed.  When
 * the counter is never seen at zero (a reader holds it for one AES-GCM
 * over a hundred bytes: that takes a very busy server), at most
 * TICKET_MAX_RETIRED generations wait, then the rotation waits for a
 * zero.  A rule by age alone ("free the
 * fourth") would rest on rotations being a period apart in real time,
 * which a caller-supplied @now does not promise.
 */
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aead/aead.h"
#include "rand/random.h"
#include "handshake/engine/codec.h"
#include "handshake/engine/ext.h"
#include "handshake/engine/ticket.h"

#define TICKET_NAME_LEN		16
#define TICKET_KEY_LEN		32	/* AES-256 */
#define TICKET_HEAD		(TICKET_NAME_LEN + TLSX_AEAD_NONCE_LEN)
#define TICKET_OVERHEAD		(TICKET_HEAD + TLSX_AEAD_TAG_LEN)
/* nginx's 80-byte key: name[16], its HMAC key[32], its AES key[32]. */
#define TICKET_FILE_KEY		80
#define TICKET_FILE_AES		48
#define TICKET_MAX_KEYS		8	/* keys in a file */
#define TICKET_MAX_RETIRED	4
/*
 * The state: 1 + 2 + 1+48 + 8 + 4*3 + 1 + 32 + 1+255 + 1+255 bytes at
 * most.
 */
#define TICKET_STATE_MAX	624

/*
 * 2: the configuration's context digest and, for a client, whether the
 * server was verified.  Another version's ticket does not open (a full
 * handshake), another version's session file does not decode: neither
 * is ever read under the wrong layout.
 */
#define STATE_VERSION		2
static const u8 session_magic[4] = { 't', 'x', 's', STATE_VERSION };

struct ticket_key {
	struct tlsx_aead_key aead;	/* prepared: round keys, H powers */
	u8 name[TICKET_NAME_LEN];
};

/* Immutable once published. */
struct ticket_gen {
	s64 born;		/* when keys[0] began to seal */
	unsigned int n;		/* keys[0] seals; every one opens */
	size_t size;		/* bytes allocated, for the wipe */
	struct ticket_key keys[];
};

struct tlsx_ticket_keys {
	_Atomic(struct ticket_gen *) cur;
	atomic_uint readers;		/* seals and opens in flight */
	u32 period;			/* 0: never rotates */
	pthread_mutex_t lock;		/* rotations against each other */
	unsigned int n_retired;
	struct ticket_gen *retired[TICKET_MAX_RETIRED];
};

/* ---- generations ---------------------------------------------------- */

static struct ticket_gen *gen_alloc(unsigned int n)
{
	size_t size = sizeof(struct ticket_gen) + n * sizeof(struct ticket_key);
	struct ticket_gen *g;

	/* The prepared keys want 64-byte alignment (gcm.h). */
	size = (size + 63) & ~(size_t)63;
	g = aligned_alloc(64, size);
	if (!g)
		return NULL;
	memset(g, 0, size);
	g->size = size;
	g->n = n;
	return g;
}

static void gen_free(struct ticket_gen *g)
{
	unsigned int i;

	if (!g)
		return;
	for (i = 0; i < g->n; i++)
		tlsx_aead_wipe(&g->keys[i].aead);
	memzero_explicit(g, g->size);
	free(g);
}

/* @raw: the 32-byte AES key, wiped by the caller. */
static int key_set(struct ticket_key *k, const u8 *name, const u8 *raw)
{
	memcpy(k->name, name, TICKET_NAME_LEN);
	return tlsx_aead_setkey(&k->aead, TLSX_AEAD_AES_256_GCM,
				TLSX_IMPL_AUTO, raw, TICKET_KEY_LEN);
}

/* A fresh random name and key. */
static int key_fresh(struct ticket_key *k)
{
	u8 buf[TICKET_NAME_LEN + TICKET_KEY_LEN];
	int ret;

	ret = tlsx_random_bytes(buf, sizeof(buf));
	if (!ret)
		ret = key_set(k, buf, buf + TICKET_NAME_LEN);
	memzero_explicit(buf, sizeof(buf));
	return ret;
}

static struct tlsx_ticket_keys *keys_alloc(struct ticket_gen *g, u32 period)
{
	struct tlsx_ticket_keys *k = calloc(1, sizeof(*k));

	if (!k || pthread_mutex_init(&k->lock, NULL)) {
		free(k);
		gen_free(g);
		return NULL;
	}
	k->period = period;
	atomic_init(&k->readers, 0);
	atomic_init(&k->cur, g);
	return k;
}

struct tlsx_ticket_keys *tlsx_ticket_keys_new(u32 period, s64 now)
{
	struct ticket_gen *g = gen_alloc(1);

	if (!g)
		return NULL;
	g->born = now;
	if (key_fresh(&g->keys[0])) {
		gen_free(g);
		return NULL;
	}
	return keys_alloc(g, period);
}

/* Reads the regular file @path (at most @max bytes) into @buf. */
static int read_small(const char *path, u8 *buf, size_t max, size_t *len)
{
	struct stat st;
	size_t got = 0;
	ssize_t r;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -EINVAL;
	else if ((u64)st.st_size > max)
		ret = -EFBIG;
	while (!ret && got < (size_t)st.st_size) {
		r = read(fd, buf + got, (size_t)st.st_size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			ret = r < 0 ? -errno : -EIO;
		else
			got += (size_t)r;
	}
	close(fd);
	*len = got;
	return ret;
}

struct tlsx_ticket_keys *tlsx_ticket_keys_load(const char *path,
					       const char **err)
{
	u8 buf[TICKET_MAX_KEYS * TICKET_FILE_KEY + 1];
	struct ticket_gen *g = NULL;
	size_t len = 0, i, n;
	const char *why;
	int ret;

	ret = read_small(path, buf, sizeof(buf), &len);
	if (ret) {
		why = ret == -EFBIG ? "ticket key file: more than 8 keys" :
		      ret == -ENOENT ? "ticket key file: no such file" :
		      "ticket key file: cannot read";
		goto fail;
	}
	n = len / TICKET_FILE_KEY;
	why = "ticket key file: not a multiple of 80 bytes (nginx's format)";
	if (!n || len % TICKET_FILE_KEY)
		goto fail;
	why = "ticket key file: out of memory";
	g = gen_alloc((unsigned int)n);
	if (!g)
		goto fail;
	/*
	 * nginx's layout: bytes 16..47 are its HMAC key, which an AEAD has
	 * no use for; the AES-256 key is bytes 48..79 as in nginx.
	 */
	why = "ticket key file: cannot set up AES-256-GCM";
	for (i = 0; i < n; i++)
		if (key_set(&g->keys[i], buf + i * TICKET_FILE_KEY,
			    buf + i * TICKET_FILE_KEY + TICKET_FILE_AES))
			goto fail;
	memzero_explicit(buf, sizeof(buf));
	/* Shared across machines: rotated by replacing the file. */
	return keys_alloc(g, 0);
fail:
	memzero_explicit(buf, sizeof(buf));
	gen_free(g);
	if (err)
		*err = why;
	return NULL;
}

/* Frees the retired generations once no reader can hold one. */
static void reclaim(struct tlsx_ticket_keys *k, bool wait)
{
	unsigned int i;

	while (atomic_load(&k->readers)) {
		if (!wait)
			return;
		sched_yield();
	}
	for (i = 0; i < k->n_retired; i++) {
		gen_free(k->retired[i]);
		k->retired[i] = NULL;
	}
	k->n_retired = 0;
}

int tlsx_ticket_keys_rotate(struct tlsx_ticket_keys *k, s64 now)
{
	struct ticket_gen *old, *g;
	int ret = 0;

	if (!k->period)
		return 0;
	pthread_mutex_lock(&k->lock);
	old = atomic_load(&k->cur);
	if (now < old->born || now - old->born < (s64)k->period)
		goto out;
	ret = -ENOMEM;
	g = gen_alloc(2);
	if (!g)
		goto out;
	/* The new key seals; the one it replaces still opens. */
	g->born = now;
	ret = key_fresh(&g->keys[0]);
	if (ret) {
		gen_free(g);
		goto out;
	}
	g->keys[1] = old->keys[0];
	atomic_store(&k->cur, g);
	k->retired[k->n_retired++] = old;
	reclaim(k, k->n_retired == TICKET_MAX_RETIRED);
out:
	pthread_mutex_unlock(&k->lock);
	return ret;
}

void tlsx_ticket_keys_free(struct tlsx_ticket_keys *k)
{
	if (!k)
		return;
	reclaim(k, true);
	gen_free(atomic_load(&k->cur));
	pthread_mutex_destroy(&k->lock);
	memzero_explicit(k, sizeof(*k));
	free(k);
}

static const struct ticket_gen *gen_get(struct tlsx_ticket_keys *k)
{
	atomic_fetch_add(&k->readers, 1);
	return atomic_load(&k->cur);
}

static void gen_put(struct tlsx_ticket_keys *k)
{
	atomic_fetch_sub(&k->readers, 1);
}

/* ---- the state: what a ticket seals and a session file keeps ---------- */

/* The resumption secret's length: the suite's hash's; 0 for no suite. */
static size_t suite_hash_len(u16 suite)
{
	const struct tlsx_suite *s = tlsx_suite_find(suite);

	return s ? tlsx_hash_digest_size(s->hash) : 0;
}

/* A NUL-terminated string of at most 255 bytes in a @size buffer. */
static int str_len(const void *p, size_t size, size_t *len)
{
	const u8 *nul = memchr(p, 0, size);

	if (!nul || nul - (const u8 *)p > 255)
		return -EINVAL;
	*len = (size_t)(nul - (const u8 *)p);
	return 0;
}

static int put_state(struct tlsx_wr *w, const struct tlsx_session *s)
{
	size_t name_len, alpn_len;

	if (!suite_hash_len(s->suite) || s->psk_len != suite_hash_len(s->suite) ||
	    s->lifetime > TLSX_TICKET_MAX_LIFETIME ||
	    str_len(s->server_name, sizeof(s->server_name), &name_len) ||
	    str_len(s->alpn, sizeof(s->alpn), &alpn_len))
		return -EINVAL;
	tlsx_wr_u16(w, s->suite);
	tlsx_wr_vec(w, 1, s->psk, s->psk_len);
	tlsx_wr_u32(w, (u32)((u64)s->issued >> 32));
	tlsx_wr_u32(w, (u32)s->issued);
	tlsx_wr_u32(w, s->lifetime);
	tlsx_wr_u32(w, s->age_add);
	tlsx_wr_u32(w, s->max_early_data);
	tlsx_wr_u8(w, s->peer_cert);
	tlsx_wr_bytes(w, s->context, sizeof(s->context));
	tlsx_wr_vec(w, 1, s->server_name, name_len);
	return tlsx_wr_vec(w, 1, s->alpn, alpn_len);
}

/* Every field checked as put_state() requires it; 0 or -EBADMSG. */
static int get_state(struct tlsx_rd *r, struct tlsx_session *s)
{
	const u8 *psk, *name, *alpn, *ctx;
	size_t psk_len, name_len, alpn_len;
	u32 hi, lo;
	u8 peer;

	if (tlsx_rd_u16(r, &s->suite) ||
	    tlsx_rd_vec(r, 1, 1, TLSX_KS_MAX_SECRET, &psk, &psk_len) ||
	    tlsx_rd_u32(r, &hi) || tlsx_rd_u32(r, &lo) ||
	    tlsx_rd_u32(r, &s->lifetime) || tlsx_rd_u32(r, &s->age_add) ||
	    tlsx_rd_u32(r, &s->max_early_data) || tlsx_rd_u8(r, &peer) ||
	    tlsx_rd_bytes(r, sizeof(s->context), &ctx) ||
	    tlsx_rd_vec(r, 1, 0, TLSX_HS_MAX_NAME, &name, &name_len) ||
	    tlsx_rd_vec(r, 1, 0, 255, &alpn, &alpn_len))
		return -EBADMSG;
	if (psk_len != suite_hash_len(s->suite) || peer > 1 ||
	    s->lifetime > TLSX_TICKET_MAX_LIFETIME ||
	    memchr(name, 0, name_len) || memchr(alpn, 0, alpn_len))
		return -EBADMSG;
	memcpy(s->psk, psk, psk_len);
	s->psk_len = psk_len;
	s->issued = (s64)(((u64)hi << 32) | lo);
	s->peer_cert = peer;
	memcpy(s->context, ctx, sizeof(s->context));
	memcpy(s->server_name, name, name_len);
	s->server_name[name_len] = '\0';
	memcpy(s->alpn, alpn, alpn_len);
	s->alpn[alpn_len] = '\0';
	return 0;
}

void tlsx_session_wipe(struct tlsx_session *s)
{
	memzero_explicit(s, sizeof(*s));
}

/* ---- sealing and opening ------------------------------------------- */

int tlsx_ticket_seal(struct tlsx_ticket_keys *k, const struct tlsx_session *s,
		     int (*rand)(void *ctx, void *buf, size_t len),
		     void *rand_ctx, u8 *out, size_t cap, size_t *len)
{
	u8 state[TICKET_STATE_MAX], *nonce = out + TICKET_NAME_LEN;
	const struct ticket_gen *g;
	struct tlsx_wr w;
	size_t n;
	int ret;

	*len = 0;
	tlsx_wr_init(&w, state, sizeof(state));
	tlsx_wr_u8(&w, STATE_VERSION);
	ret = put_state(&w, s);
	if (!ret)
		ret = tlsx_wr_finish(&w, &n);
	if (ret)
		goto out;
	ret = -ENOSPC;
	if (cap < TICKET_OVERHEAD + n)
		goto out;
	ret = rand ? rand(rand_ctx, nonce, TLSX_AEAD_NONCE_LEN) :
	      tlsx_random_bytes(nonce, TLSX_AEAD_NONCE_LEN);
	if (ret)
		goto out;
	/*
	 * Random 96-bit nonces: under one key, 2^32 tickets keep GCM's
	 * collision bound (SP 800-38D 8.3); a key seals for one period.
	 */
	g = gen_get(k);
	memcpy(out, g->keys[0].name, TICKET_NAME_LEN);
	ret = tlsx_aead_seal(&g->keys[0].aead, nonce, out, TICKET_NAME_LEN,
			     state, out + TICKET_HEAD, n,
			     out + TICKET_HEAD + n);
	gen_put(k);
	if (!ret)
		*len = TICKET_OVERHEAD + n;
out:
	memzero_explicit(state, sizeof(state));
	return ret;
}

int tlsx_ticket_open(struct tlsx_ticket_keys *k, const u8 *t, size_t len,
		     s64 now, struct tlsx_session *s)
{
	u8 state[TICKET_STATE_MAX], version;
	const struct ticket_gen *g;
	const struct ticket_key *key = NULL;
	struct tlsx_rd r;
	size_t n;
	unsigned int i;
	int ret = -ENOENT;

	tlsx_session_wipe(s);
	if (len < TICKET_OVERHEAD || len - TICKET_OVERHEAD > sizeof(state))
		return -ENOENT;
	n = len - TICKET_OVERHEAD;
	g = gen_get(k);
	/* Key names are public: found by plain comparison. */
	for (i = 0; i < g->n && !key; i++)
		if (!memcmp(g->keys[i].name, t, TICKET_NAME_LEN))
			key = &g->keys[i];
	if (key && !tlsx_aead_open(&key->aead, t + TICKET_NAME_LEN, t,
				   TICKET_NAME_LEN, t + TICKET_HEAD, state, n,
				   t + TICKET_HEAD + n))
		ret = 0;
	gen_put(k);
	if (ret)
		goto out;
	/* Authentic, so ours: a state that does not decode is another
	 * version's, which this server cannot resume either.
	 */
	tlsx_rd_init(&r, state, n);
	ret = -ENOENT;
	if (tlsx_rd_u8(&r, &version) || version != STATE_VERSION ||
	    get_state(&r, s) || tlsx_rd_done(&r))
		goto out;
	/* RFC 8446 4.6.1: not to be used past its lifetime. */
	ret = -ETIME;
	if (now < s->issued || now - s->issued > (s64)s->lifetime)
		goto out;
	ret = 0;
out:
	memzero_explicit(state, sizeof(state));
	if (ret)
		tlsx_session_wipe(s);
	return ret;
}

/* ---- the client's side --------------------------------------------- */

int tlsx_session_from_ticket(const struct tlsx_hs_secrets *sec,
			     const char *server_name, const u8 *alpn,
			     const u8 *msg, size_t len, s64 now,
			     struct tlsx_session *s)
{
	const u8 *nonce, *ticket;
	size_t nonce_len, ticket_len, name_len = 0, alpn_len = 0;
	struct tlsx_rd r, body, exts;
	struct tlsx_exts found;
	u8 type;
	int ret;

	tlsx_session_wipe(s);
	if (!sec || sec->secret_len != tlsx_hash_digest_size(sec->hash) ||
	    suite_hash_len(sec->suite) != sec->secret_len)
		return -EINVAL;
	if (server_name)
		name_len = strnlen(server_name, TLSX_HS_MAX_NAME + 1);
	if (alpn)
		alpn_len = strnlen((const char *)alpn, 256);
	if (name_len > TLSX_HS_MAX_NAME || alpn_len > 255)
		return -EINVAL;

	tlsx_rd_init(&r, msg, len);
	/* The handshake header: type 4 (4.6.1), a length that is exact. */
	ret = tlsx_rd_u8(&r, &type);
	if (ret)
		return ret;
	if (type != 4)
		return -EINVAL;		/* the caller's dispatch is wrong */
	ret = tlsx_rd_open(&r, 3, 0, 0xffffff, &body);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (!ret)
		ret = tlsx_rd_u32(&body, &s->lifetime);
	if (!ret)
		ret = tlsx_rd_u32(&body, &s->age_add);
	/* opaque ticket_nonce<0..255>; opaque ticket<1..2^16-1>; */
	if (!ret)
		ret = tlsx_rd_vec(&body, 1, 0, 255, &nonce, &nonce_len);
	if (!ret)
		ret = tlsx_rd_vec(&body, 2, 1, 65535, &ticket, &ticket_len);
	/* Extension extensions<0..2^16-2>; */
	if (!ret)
		ret = tlsx_rd_open(&body, 2, 0, 65534, &exts);
	if (!ret)
		ret = tlsx_rd_done(&body);
	if (!ret)
		ret = tlsx_ext_parse(TLSX_CTX_NST, &exts, 0, &found);
	if (ret)
		goto fail;
	/* 4.6.1: "Servers MUST NOT use any value greater than 604800". */
	ret = TLSX_ALERT_ILLEGAL_PARAMETER;
	if (s->lifetime > TLSX_TICKET_MAX_LIFETIME)
		goto fail;
	/* 4.2.10: early_data in a NewSessionTicket is uint32 max size. */
	if (found.present & TLSX_EXT_BIT(TLSX_EXT_EARLY_DATA)) {
		ret = TLSX_ALERT_DECODE_ERROR;
		if (found.ext[TLSX_EXT_EARLY_DATA].len != 4)
			goto fail;
		s->max_early_data =
			get_unaligned_be32(found.ext[TLSX_EXT_EARLY_DATA].data);
	}
	/* Well-formed but longer than we keep: drop it, not the peer. */
	ret = -EMSGSIZE;
	if (ticket_len > TLSX_TICKET_MAX)
		goto fail;
	ret = tlsx_resumption_psk(sec->hash, sec->res_master, nonce, nonce_len,
				  s->psk);
	if (ret)
		goto fail;
	s->psk_len = sec->secret_len;
	s->suite = sec->suite;
	s->issued = now;
	s->peer_cert = sec->peer_verified;
	memcpy(s->ticket, ticket, ticket_len);
	s->ticket_len = ticket_len;
	if (name_len)
		memcpy(s->server_name, server_name, name_len);
	if (alpn_len)
		memcpy(s->alpn, alpn, alpn_len);
	return 0;
fail:
	tlsx_session_wipe(s);
	return ret;
}

int tlsx_session_encode(const struct tlsx_session *s, u8 *out, size_t cap,
			size_t *len)
{
	struct tlsx_wr w;
	int ret;

	*len = 0;
	if (!s->ticket_len || s->ticket_len > TLSX_TICKET_MAX)
		return -EINVAL;
	tlsx_wr_init(&w, out, cap);
	tlsx_wr_bytes(&w, session_magic, sizeof(session_magic));
	ret = put_state(&w, s);
	if (ret)
		return ret;
	tlsx_wr_vec(&w, 2, s->ticket, s->ticket_len);
	ret = tlsx_wr_finish(&w, len);
	if (ret)
		memzero_explicit(out, cap);
	return ret;
}

int tlsx_session_decode(struct tlsx_session *s, const u8 *in, size_t len)
{
	const u8 *magic, *ticket;
	size_t ticket_len;
	struct tlsx_rd r;

	tlsx_session_wipe(s);
	tlsx_rd_init(&r, in, len);
	if (tlsx_rd_bytes(&r, sizeof(session_magic), &magic) ||
	    memcmp(magic, session_magic, sizeof(session_magic)) ||
	    get_state(&r, s) ||
	    tlsx_rd_vec(&r, 2, 1, TLSX_TICKET_MAX, &ticket, &ticket_len) ||
	    tlsx_rd_done(&r)) {
		tlsx_session_wipe(s);
		return -EBADMSG;
	}
	memcpy(s->ticket, ticket, ticket_len);
	s->ticket_len = ticket_len;
	return 0;
}
