// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx_config.c - struct tlsx_config: built by setters, frozen once,
 * then read by every connection on every thread without a lock.
 *
 * The engine reads cfg->hs (handshake/engine/hs.h), which points at the chains,
 * the trust anchors and the ticket keys held here.  Freezing is the one
 * step taken under a mutex (a configuration may be first used by two
 * threads at once); afterwards cfg->frozen, read with acquire order, is
 * the only check on the handshake path.  The ticket keys rotate under
 * running handshakes through their own atomic pointer (ticket.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>

#include "handshake/engine/cert.h"
#include "handshake/engine/ticket.h"
#include "handshake/libtlsx/tlsx_int.h"

#define DEFAULT_TICKET_LIFETIME	7200		/* seconds */
#define DEFAULT_TICKET_ROTATE	86400

struct name_code {
	const char *name;
	u16 code;
};

static const struct name_code scheme_names[] = {
	{ "ecdsa_secp256r1_sha256", TLSX_SIG_ECDSA_SECP256R1_SHA256 },
	{ "ed25519", TLSX_SIG_ED25519 },
	{ "rsa_pss_rsae_sha256", TLSX_SIG_RSA_PSS_RSAE_SHA256 },
	{ "rsa_pss_rsae_sha384", TLSX_SIG_RSA_PSS_RSAE_SHA384 },
	{ "rsa_pss_rsae_sha512", TLSX_SIG_RSA_PSS_RSAE_SHA512 },
	{ "rsa_pss_pss_sha256", TLSX_SIG_RSA_PSS_PSS_SHA256 },
	{ "rsa_pss_pss_sha384", TLSX_SIG_RSA_PSS_PSS_SHA384 },
	{ "rsa_pss_pss_sha512", TLSX_SIG_RSA_PSS_PSS_SHA512 },
	{ "rsa_pkcs1_sha256", TLSX_SIG_RSA_PKCS1_SHA256 },
	{ "rsa_pkcs1_sha384", TLSX_SIG_RSA_PKCS1_SHA384 },
	{ "rsa_pkcs1_sha512", TLSX_SIG_RSA_PKCS1_SHA512 },
	{ NULL, 0 }
};

static int config_err(struct tlsx_config *cfg, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cfg->err, sizeof(cfg->err), fmt, ap);
	va_end(ap);
	return TLSX_E_CONFIG;
}

/* A setter may run: not frozen.  Clears the last message. */
static int settable(struct tlsx_config *cfg)
{
	if (!cfg || atomic_load_explicit(&cfg->frozen, memory_order_acquire))
		return TLSX_E_INVAL;
	cfg->err[0] = 0;
	return TLSX_OK;
}

struct tlsx_config *tlsx_config_new(enum tlsx_role role)
{
	struct tlsx_config *cfg;

	if (role != TLSX_ROLE_CLIENT && role != TLSX_ROLE_SERVER)
		return NULL;
	cfg = calloc(1, sizeof(*cfg));
	if (!cfg)
		return NULL;
	atomic_init(&cfg->refs, 1);
	atomic_init(&cfg->frozen, false);
	pthread_mutex_init(&cfg->freeze_lock, NULL);
	cfg->role = role;
	cfg->hs.server = role == TLSX_ROLE_SERVER;
	/*
	 * libtlsx always steps in place (tlsx_conn.c): the engine needs no
	 * record room of its own, 16,645 bytes less per connection.
	 */
	cfg->hs.inplace = true;
	/* tlsx_peer_cert(): only connections sent a chain pay for it. */
	cfg->hs.keep_peer_chain = true;
	cfg->verify = true;
	cfg->hs.tickets_per_handshake = 1;
	cfg->hs.ticket_lifetime = DEFAULT_TICKET_LIFETIME;
	cfg->ticket_rotate = DEFAULT_TICKET_ROTATE;
	return cfg;
}

struct tlsx_config *tlsx_config_ref(struct tlsx_config *cfg)
{
	atomic_fetch_add_explicit(&cfg->refs, 1, memory_order_relaxed);
	return cfg;
}

void tlsx_config_free(struct tlsx_config *cfg)
{
	unsigned int i;

	if (!cfg ||
	    atomic_fetch_sub_explicit(&cfg->refs, 1, memory_order_acq_rel) != 1)
		return;
	for (i = 0; i < cfg->hs.n_chains; i++) {
		tlsx_cert_chain_free(cfg->chains[i]);
		free(cfg->chains[i]);
	}
	if (cfg->trust) {
		tlsx_trust_free(cfg->trust);
		free(cfg->trust);
	}
	if (cfg->hs.tickets)
		tlsx_ticket_keys_free(cfg->hs.tickets);
	pthread_mutex_destroy(&cfg->freeze_lock);
	memzero_explicit(cfg, sizeof(*cfg));
	free(cfg);
}

const char *tlsx_config_error(const struct tlsx_config *cfg)
{
	return cfg ? cfg->err : "no configuration";
}

int tlsx_config_add_cert(struct tlsx_config *cfg, const char *cert_file,
			 const char *key_file)
{
	struct tlsx_cert_chain *chain;
	const char *msg = NULL;
	int err = settable(cfg);

	if (err)
		return err;
	if (!cert_file || !key_file)
		return config_err(cfg, "a certificate needs its key file");
	if (cfg->hs.n_chains == TLSX_HS_MAX_CHAINS)
		return config_err(cfg, "more than %d certificates",
				  TLSX_HS_MAX_CHAINS);
	chain = calloc(1, sizeof(*chain));
	if (!chain)
		return TLSX_E_NOMEM;
	err = tlsx_cert_chain_load(chain, cert_file, key_file, &msg);
	if (err) {
		/* The message lives in @chain: copied before it goes. */
		err = config_err(cfg, "%s", msg ? msg : cert_file);
		tlsx_cert_chain_free(chain);
		free(chain);
		return err;
	}
	cfg->chains[cfg->hs.n_chains] = chain;
	cfg->hs.chains[cfg->hs.n_chains++] = chain;
	return TLSX_OK;
}

int tlsx_config_set_trust(struct tlsx_config *cfg, const char *path)
{
	struct tlsx_trust *t;
	int err = settable(cfg);

	if (err)
		return err;
	t = calloc(1, sizeof(*t));
	if (!t)
		return TLSX_E_NOMEM;
	err = tlsx_trust_load(t, path, NULL);
	if (err) {
		free(t);
		return config_err(cfg, "%s: no certificate could be loaded",
				  path);
	}
	if (cfg->trust) {
		tlsx_trust_free(cfg->trust);
		free(cfg->trust);
	}
	cfg->trust = t;
	cfg->hs.trust = t;
	return TLSX_OK;
}

int tlsx_config_set_verify_peer(struct tlsx_config *cfg, bool verify,
				bool require)
{
	int err = settable(cfg);

	if (err)
		return err;
	if (cfg->role == TLSX_ROLE_CLIENT) {
		cfg->verify = verify;
	} else {
		cfg->hs.verify_peer = verify;
		cfg->hs.require_peer_cert = verify && require;
	}
	return TLSX_OK;
}

int tlsx_config_set_verify_name_optional(struct tlsx_config *cfg,
					 bool optional)
{
	int err = settable(cfg);

	if (err)
		return err;
	if (cfg->role != TLSX_ROLE_CLIENT)
		return config_err(cfg, "verify_name_optional: a client's setting");
	cfg->hs.verify_name_optional = optional;
	return TLSX_OK;
}

int tlsx_config_set_alpn(struct tlsx_config *cfg, const char *list)
{
	u8 wire[TLSX_HS_MAX_ALPN];
	size_t len = 0;
	const char *p = list;
	int err = settable(cfg);

	if (err)
		return err;
	while (p && *p) {
		size_t n = strcspn(p, ",");

		/* RFC 7301 3.1: ProtocolName<1..2^8-1>. */
		if (!n || n > 255)
			return config_err(cfg, "ALPN \"%s\": empty or over 255 bytes",
					  list);
		if (len + 1 + n > sizeof(wire))
			return config_err(cfg, "ALPN list over %d bytes",
					  TLSX_HS_MAX_ALPN);
		wire[len++] = (u8)n;
		memcpy(wire + len, p, n);
		len += n;
		p += n;
		if (*p == ',')
			p++;
	}
	memcpy(cfg->hs.alpn, wire, len);
	cfg->hs.alpn_len = len;
	return TLSX_OK;
}

/* Name lookups, case-insensitive: 0 and the code, or -ENOENT. */
typedef int (*name_lookup_fn)(const char *name, size_t len, u16 *code);

/* The suites' names are their table's (handshake/engine/suite_rows.h). */
static int suite_lookup(const char *name, size_t len, u16 *code)
{
	const struct tlsx_suite *s = tlsx_suite_by_name(name, len);

	if (!s)
		return -ENOENT;
	*code = s->code;
	return 0;
}

/* The groups' names are their table's (handshake/engine/group_rows.h). */
static int group_lookup(const char *name, size_t len, u16 *code)
{
	const struct tlsx_group *g = tlsx_group_by_name(name, len);

	if (!g)
		return -ENOENT;
	*code = g->code;
	return 0;
}

static int scheme_lookup(const char *name, size_t len, u16 *code)
{
	const struct name_code *t;

	for (t = scheme_names; t->name; t++)
		if (strlen(t->name) == len && !strncasecmp(t->name, name, len)) {
			*code = t->code;
			return 0;
		}
	return -ENOENT;
}

/* Parses @list of names @lookup knows into @codes; count or an error. */
static int parse_list(struct tlsx_config *cfg, const char *what,
		      name_lookup_fn lookup, const char *list, u16 *codes)
{
	unsigned int n = 0, i;
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ":,");
		u16 code;

		if (lookup(p, len, &code))
			return config_err(cfg, "unknown %s \"%.*s\"", what,
					  (int)len, p);
		for (i = 0; i < n; i++)
			if (codes[i] == code)
				return config_err(cfg, "%s \"%.*s\" twice",
						  what, (int)len, p);
		if (n == TLSX_HS_MAX_LIST)
			return config_err(cfg, "more than %d %ss",
					  TLSX_HS_MAX_LIST, what);
		codes[n++] = code;
		p += len;
		if (*p)
			p++;
	}
	if (!n)
		return config_err(cfg, "empty %s list", what);
	return n;
}

int tlsx_config_set_suites(struct tlsx_config *cfg, const char *list)
{
	u16 codes[TLSX_HS_MAX_LIST];
	int n = settable(cfg);

	if (!n)
		n = parse_list(cfg, "suite", suite_lookup, list, codes);
	if (n < 0)
		return n;
	memcpy(cfg->hs.suites, codes, n * sizeof(codes[0]));
	cfg->hs.n_suites = n;
	return TLSX_OK;
}

int tlsx_config_set_groups(struct tlsx_config *cfg, const char *list)
{
	u16 codes[TLSX_HS_MAX_LIST];
	int n = settable(cfg);

	if (!n)
		n = parse_list(cfg, "group", group_lookup, list, codes);
	if (n < 0)
		return n;
	memcpy(cfg->hs.groups, codes, n * sizeof(codes[0]));
	cfg->hs.n_groups = n;
	return TLSX_OK;
}

int tlsx_config_set_sig_schemes(struct tlsx_config *cfg, const char *list)
{
	u16 codes[TLSX_HS_MAX_LIST];
	int n = settable(cfg);

	if (!n)
		n = parse_list(cfg, "signature scheme", scheme_lookup,
			       list, codes);
	if (n < 0)
		return n;
	memcpy(cfg->hs.sig_schemes, codes, n * sizeof(codes[0]));
	cfg->hs.n_sig_schemes = n;
	return TLSX_OK;
}

static void replace_tickets(struct tlsx_config *cfg, struct tlsx_ticket_keys *k)
{
	if (cfg->hs.tickets)
		tlsx_ticket_keys_free(cfg->hs.tickets);
	cfg->hs.tickets = k;
	cfg->tickets_set = true;
}

int tlsx_config_set_tickets(struct tlsx_config *cfg, unsigned int count,
			    uint32_t lifetime, uint32_t rotate)
{
	struct tlsx_ticket_keys *k = NULL;
	int err = settable(cfg);

	if (err)
		return err;
	if (cfg->role != TLSX_ROLE_SERVER)
		return config_err(cfg, "tickets are issued by servers");
	/* 4.6.1: ticket_lifetime at most seven days. */
	if (lifetime > TLSX_TICKET_MAX_LIFETIME || (count && !lifetime))
		return config_err(cfg, "ticket lifetime %u not in 1..%d",
				  lifetime, TLSX_TICKET_MAX_LIFETIME);
	if (count > 8)
		return config_err(cfg, "more than 8 tickets per handshake");
	if (count) {
		k = tlsx_ticket_keys_new(rotate, time(NULL));
		if (!k)
			return TLSX_E_NOMEM;
	}
	replace_tickets(cfg, k);
	cfg->hs.tickets_per_handshake = count;
	cfg->hs.ticket_lifetime = lifetime;
	cfg->ticket_rotate = rotate;
	return TLSX_OK;
}

int tlsx_config_load_ticket_keys(struct tlsx_config *cfg, const char *path)
{
	struct tlsx_ticket_keys *k;
	const char *msg = NULL;
	int err = settable(cfg);

	if (err)
		return err;
	if (cfg->role != TLSX_ROLE_SERVER)
		return config_err(cfg, "tickets are issued by servers");
	k = tlsx_ticket_keys_load(path, &msg);
	if (!k)
		return config_err(cfg, "%s", msg ? msg : path);
	replace_tickets(cfg, k);
	if (!cfg->hs.tickets_per_handshake)
		cfg->hs.tickets_per_handshake = 1;
	return TLSX_OK;
}

int tlsx_config_set_psk_ke(struct tlsx_config *cfg, bool allow)
{
	int err = settable(cfg);

	if (!err)
		cfg->hs.allow_psk_ke = allow;
	return err;
}

int tlsx_config_prefer_psk_ke(struct tlsx_config *cfg, bool prefer)
{
	int err = settable(cfg);

	if (!err)
		cfg->hs.prefer_psk_ke = prefer;
	return err;
}

int tlsx_config_set_record_layer(struct tlsx_config *cfg,
				 enum tlsx_record_layer rl)
{
	int err = settable(cfg);

	if (err)
		return err;
	if (rl > TLSX_RL_USER)
		return config_err(cfg, "unknown record layer %d", rl);
	cfg->rl = rl;
	return TLSX_OK;
}

int tlsx_config_set_max_handshake_message(struct tlsx_config *cfg,
					  size_t bytes)
{
	int err = settable(cfg);

	if (err)
		return err;
	/* A handshake message's length has 24 bits (4). */
	if (bytes < 1024 || bytes >= 1 << 24)
		return config_err(cfg, "handshake message bound %zu not in 1024..2^24-1",
				  bytes);
	cfg->hs.max_msg = bytes;
	return TLSX_OK;
}

int tlsx_config_set_rekey_limit(struct tlsx_config *cfg, uint64_t records)
{
	int err = settable(cfg);

	if (err)
		return err;
	/* One record for data and one for the KeyUpdate itself. */
	if (records && records < 2)
		return config_err(cfg, "rekey limit below 2 records");
	cfg->rekey_limit = records;
	return TLSX_OK;
}

int tlsx_config_set_key_shares(struct tlsx_config *cfg, unsigned int n)
{
	int err = settable(cfg);

	if (err)
		return err;
	/* The engine holds two (hs_impl.h's TLSX_HS_MAX_SHARES). */
	if (n > 2)
		return config_err(cfg, "key shares %u not in 0..2", n);
	cfg->hs.key_shares = n;
	return TLSX_OK;
}

int tlsx_config_set_record_size_limit(struct tlsx_config *cfg,
				      unsigned int limit)
{
	int err = settable(cfg);

	if (err)
		return err;
	/* RFC 8449 4: at least 64; TLS 1.3 at most 2^14 + 1. */
	if (limit && (limit < 64 || limit > TLSX_REC_MAX_PLAIN + 1))
		return config_err(cfg, "record_size_limit %u not in 64..16385",
				  limit);
	cfg->hs.record_size_limit = limit;
	return TLSX_OK;
}

/* The checks and deferred loads of a freeze; under freeze_lock. */
static int finish(struct tlsx_config *cfg)
{
	if (cfg->role == TLSX_ROLE_SERVER && !cfg->hs.n_chains)
		return config_err(cfg, "a server needs a certificate");
	if (cfg->role == TLSX_ROLE_SERVER && cfg->hs.verify_peer &&
	    !cfg->trust)
		return config_err(cfg, "verifying clients needs trust anchors");
	if (cfg->role == TLSX_ROLE_CLIENT) {
		cfg->hs.insecure = !cfg->verify;
		if (cfg->verify && !cfg->trust) {
			int err = tlsx_config_set_trust(cfg, TLSX_TRUST_SYSTEM);

			if (err)
				return err;
		}
	}
	if (cfg->role == TLSX_ROLE_SERVER && !cfg->tickets_set &&
	    cfg->hs.tickets_per_handshake) {
		cfg->hs.tickets = tlsx_ticket_keys_new(cfg->ticket_rotate,
						       time(NULL));
		if (!cfg->hs.tickets)
			return TLSX_E_NOMEM;
		cfg->tickets_set = true;
	}
	if (!cfg->hs.tickets)
		cfg->hs.tickets_per_handshake = 0;
	return TLSX_OK;
}

int tlsx_config_freeze(struct tlsx_config *cfg)
{
	int err;

	if (!cfg)
		return TLSX_E_INVAL;
	if (atomic_load_explicit(&cfg->frozen, memory_order_acquire))
		return TLSX_OK;
	pthread_mutex_lock(&cfg->freeze_lock);
	err = TLSX_OK;
	if (!atomic_load_explicit(&cfg->frozen, memory_order_relaxed)) {
		err = finish(cfg);
		/* A failed freeze leaves @cfg settable, to be fixed. */
		if (!err)
			atomic_store_explicit(&cfg->frozen, true,
					      memory_order_release);
	}
	pthread_mutex_unlock(&cfg->freeze_lock);
	return err;
}

int tlsx__config_use(struct tlsx_config *cfg)
{
	return tlsx_config_freeze(cfg);
}
