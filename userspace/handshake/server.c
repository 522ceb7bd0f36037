// SPDX-License-Identifier: GPL-2.0
/*
 * server.c - the TLS 1.3 server (RFC 8446): states named after the
 * message awaited, one dispatch switch, one handler per message; the
 * flight a handshake shape sends is data (sv_shapes[]).
 *
 *   EXPECT_CLIENT_HELLO --(no share for a common group)--> HRR
 *	-> EXPECT_SECOND_CLIENT_HELLO
 *   ClientHello: ServerHello, [CCS], EncryptedExtensions, then by shape
 *	full:        Certificate, CertificateVerify, Finished
 *	client auth: CertificateRequest, Certificate, CertificateVerify,
 *	             Finished -> EXPECT_CERTIFICATE
 *	resumed:     Finished (psk_dhe_ke, or psk_ke when both allow it)
 *	-> EXPECT_FINISHED
 *   Certificate -> EXPECT_CERTIFICATE_VERIFY (or EXPECT_FINISHED when
 *	empty) -> EXPECT_FINISHED -> done; then tlsx_hs_tickets().
 *
 * Stack: the ClientHello's walk holds two 8 KiB bitmaps of NamedGroups
 * (sv_read_groups()) so that no check costs more than linear time in
 * what the client sent; nothing else here is large.
 *
 * The HelloRetryRequest cookie (4.2.2) is what a stateless server needs
 * to rebuild the transcript from ClientHello2 alone:
 *
 *	u8  format (1)
 *	u16 cipher suite          u16 selected group
 *	u8  hash length           Hash(ClientHello1)   (the message_hash body)
 *	HMAC-SHA256(cookie key, all of the above)      (32 bytes)
 *
 * under a per-process key drawn once from the system's random source.
 * This engine keeps its state across the retry, so it also checks that
 * the cookie that comes back names the suite, group and ClientHello1 it
 * has: a cookie that fails either check is illegal_parameter.
 */
#include <pthread.h>

#include "hash/hmac.h"
#include "rand/random.h"
#include "x509/x509.h"
#include "handshake/cert.h"
#include "handshake/hs_impl.h"

enum sv_state {
	EXPECT_CLIENT_HELLO,
	EXPECT_SECOND_CLIENT_HELLO,
	EXPECT_CERTIFICATE,
	EXPECT_CERTIFICATE_VERIFY,
	EXPECT_FINISHED,
	EXPECT_NOTHING,		/* done */
};

/* --- shapes --------------------------------------------------------------- */

enum sv_shape_id {
	SV_FULL,
	SV_FULL_CLIENT_AUTH,
	SV_RESUMED,
};

/* What the server sends after ServerHello, and the state it then awaits. */
struct sv_shape {
	const char *name;
	u8 flight[6];		/* handshake types, 0-terminated */
	enum sv_state next;
};

static const struct sv_shape sv_shapes[] = {
	[SV_FULL] = {
		"full",
		{ TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_CERTIFICATE,
		  TLSX_HT_CERTIFICATE_VERIFY, TLSX_HT_FINISHED },
		EXPECT_FINISHED,
	},
	[SV_FULL_CLIENT_AUTH] = {
		"full, client authentication",
		{ TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_CERTIFICATE_REQUEST,
		  TLSX_HT_CERTIFICATE, TLSX_HT_CERTIFICATE_VERIFY,
		  TLSX_HT_FINISHED },
		EXPECT_CERTIFICATE,
	},
	/* 4.3.2: no CertificateRequest when authenticating with a PSK. */
	[SV_RESUMED] = {
		"resumed",
		{ TLSX_HT_ENCRYPTED_EXTENSIONS, TLSX_HT_FINISHED },
		EXPECT_FINISHED,
	},
};

/*
 * 4.2.10: declined early data is skipped "up to the configured
 * max_early_data_size": 16 KiB of it, with each record's content type
 * byte and tag (17 bytes) for up to 64 records.
 */
#define SV_EARLY_SKIP		(16384 + 64 * 17)

#define SV_COOKIE_FORMAT	1
#define SV_COOKIE_MAC		SHA256_DIGEST_SIZE
#define SV_COOKIE_MAX		(6 + TLSX_KS_MAX_SECRET + SV_COOKIE_MAC)

/* Resumption: identities tried (each a ticket to open) at most. */
#define SV_MAX_PSK_TRIES	4

#define SV_DEFAULT_LIFETIME	7200	/* seconds, as OpenSSL's default */

/* certificate_authorities in CertificateRequest: at most this many bytes. */
#define SV_MAX_CA_LIST		4096

/* --- the ClientHello, parsed -------------------------------------------- */

struct sv_hello {
	const u8 *msg;		/* the whole message, header included */
	size_t len;
	const u8 *random;
	const u8 *sid;
	size_t sid_len;
	const u8 *suites;
	size_t suites_len;
	bool bad_compression;
	struct tlsx_exts ext;
	/* 4.1.2: the fields the second ClientHello must repeat. */
	u8 digest[SHA256_DIGEST_SIZE];
};

/* What the ClientHello's groups and key shares allow. */
struct sv_groups {
	u16 group;		/* ours, with a share from the client; 0: none */
	const u8 *share;
	size_t share_len;
	u16 retry;		/* most preferred common group; 0: none */
	unsigned int n_shares;
	u16 share_group;	/* the group of the only share, if one */
};

/* What a PSK offer gave (4.2.11). */
struct sv_psk {
	bool ok;		/* a session was opened and its binder checked */
	bool dhe;		/* psk_dhe_ke */
};

static bool sv_has(const struct sv_hello *h, enum tlsx_ext_id id)
{
	return h->ext.present & TLSX_EXT_BIT(id);
}

static void sv_body(const struct sv_hello *h, enum tlsx_ext_id id,
		    struct tlsx_rd *r)
{
	tlsx_rd_init(r, h->ext.ext[id].data, h->ext.ext[id].len);
}

/* Whether extension type @type is one ClientHello2 may change (4.1.2). */
static bool sv_may_change(u16 type)
{
	const enum tlsx_ext_id ids[] = {
		TLSX_EXT_KEY_SHARE, TLSX_EXT_EARLY_DATA, TLSX_EXT_COOKIE,
		TLSX_EXT_PRE_SHARED_KEY, TLSX_EXT_PADDING,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ids); i++)
		if (tlsx_ext_def(ids[i])->type == type)
			return true;
	return false;
}

/*
 * The digest of what the second ClientHello must repeat: everything but
 * the extensions 4.1.2 lets it change.  @exts is the extension block
 * that tlsx_ext_parse() has already walked (its framing is sound), read
 * again here in wire order.
 */
static void sv_digest(struct sv_hello *h, const u8 *fixed, size_t fixed_len,
		      struct tlsx_rd exts)
{
	struct tlsx_sha256 c;
	const u8 *e, *body;
	u16 type, len;

	tlsx_sha256_init(&c);
	tlsx_sha256_update(&c, fixed, fixed_len);
	while (tlsx_rd_left(&exts)) {
		e = exts.p;
		if (tlsx_rd_u16(&exts, &type) || tlsx_rd_u16(&exts, &len) ||
		    tlsx_rd_bytes(&exts, len, &body))
			break;
		if (!sv_may_change(type))
			tlsx_sha256_update(&c, e, 4u + len);
	}
	tlsx_sha256_final(&c, h->digest);
}

/* RFC 8446 4.1.2: the ClientHello's framing and its fixed fields. */
static int sv_parse_hello(struct sv_hello *h, const u8 *msg, size_t len)
{
	struct tlsx_rd r, comp, exts;
	const u8 *fixed;
	u16 version;
	u8 method;
	int ret;

	memset(h, 0, sizeof(*h));
	h->msg = msg;
	h->len = len;
	tlsx_rd_init(&r, msg + TLSX_HS_MSG_HDR, len - TLSX_HS_MSG_HDR);
	fixed = r.p;
	/*
	 * ProtocolVersion legacy_version; Random (32 bytes);
	 * opaque legacy_session_id<0..32>;
	 * CipherSuite cipher_suites<2..2^16-2>;
	 * opaque legacy_compression_methods<1..2^8-1>;
	 * Extension extensions<8..2^16-1>;
	 */
	ret = tlsx_rd_u16(&r, &version);
	if (!ret)
		ret = tlsx_rd_bytes(&r, TLSX_HS_RANDOM, &h->random);
	if (!ret)
		ret = tlsx_rd_vec(&r, 1, 0, TLSX_HS_SESSION_ID, &h->sid,
				  &h->sid_len);
	if (!ret)
		ret = tlsx_rd_vec(&r, 2, 2, 65534, &h->suites, &h->suites_len);
	if (!ret && h->suites_len % 2)
		ret = TLSX_ALERT_DECODE_ERROR;
	if (!ret)
		ret = tlsx_rd_open(&r, 1, 1, 255, &comp);
	if (ret)
		return ret;
	/*
	 * 4.2.1: "If this extension is present in the ClientHello,
	 * servers MUST NOT use the ClientHello.legacy_version value for
	 * version negotiation and MUST use only the "supported_versions"
	 * extension": legacy_version (4.1.2's 0x0303) is not judged, a
	 * 0x0301 beside supported_versions is TLS 1.3 all the same.  A
	 * ClientHello without extensions is one from TLS 1.2 or before:
	 * tlsx speaks only 1.3 (protocol_version, sv_check_versions()).
	 */
	(void)version;
	if (!tlsx_rd_left(&r))
		return TLSX_ALERT_PROTOCOL_VERSION;
	ret = tlsx_rd_open(&r, 2, 8, 65535, &exts);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	/* Judged once supported_versions says this is TLS 1.3. */
	h->bad_compression = tlsx_rd_left(&comp) != 1 ||
			     tlsx_rd_u8(&comp, &method) || method;
	/* Up to the extensions' length, which may change. */
	sv_digest(h, fixed, (size_t)(exts.p - 2 - fixed), exts);
	return tlsx_ext_parse(TLSX_CTX_CH, &exts, 0, &h->ext);
}

/*
 * 4.2.1: supported_versions must offer 0x0304, else the client is a TLS
 * 1.2 one: "If this extension is not present, servers which are
 * compliant with this specification and which also support TLS 1.2 MUST
 * negotiate TLS 1.2 or prior"; tlsx does not, so protocol_version.
 */
static int sv_check_versions(const struct sv_hello *h)
{
	struct tlsx_rd r, list;
	bool tls13 = false;
	u16 v;
	int ret;

	if (!sv_has(h, TLSX_EXT_SUPPORTED_VERSIONS))
		return TLSX_ALERT_PROTOCOL_VERSION;
	sv_body(h, TLSX_EXT_SUPPORTED_VERSIONS, &r);
	/* ProtocolVersion versions<2..254> */
	ret = tlsx_rd_open(&r, 1, 2, 254, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u16(&list, &v);
		tls13 |= v == TLSX_HS_VERSION_13;
	}
	if (ret)
		return ret;
	return tls13 ? 0 : TLSX_ALERT_PROTOCOL_VERSION;
}

/* 4.1.1: the first of our suites that the client offers. */
static int sv_pick_suite(struct tlsx_hs *hs, const struct sv_hello *h,
			 u16 *suite)
{
	unsigned int i;
	size_t j;

	for (i = 0; i < hs->n_suites; i++)
		for (j = 0; j < h->suites_len; j += 2)
			if (get_unaligned_be16(h->suites + j) == hs->suites[i]) {
				*suite = hs->suites[i];
				return 0;
			}
	/* 4.1.1: "If the server is unable to negotiate a supported set of
	 * parameters ... it MUST abort the handshake with ... a
	 * "handshake_failure"".
	 */
	return TLSX_ALERT_HANDSHAKE_FAILURE;
}

/* One bit per NamedGroup (a u16): 8 KiB, two on the stack for the walk. */
struct sv_group_set {
	u64 bits[65536 / 64];
};

static bool sv_set_test_and_add(struct sv_group_set *s, u16 v)
{
	u64 bit = 1ull << (v % 64);
	bool had = s->bits[v / 64] & bit;

	s->bits[v / 64] |= bit;
	return had;
}

static bool sv_set_has(const struct sv_group_set *s, u16 v)
{
	return s->bits[v / 64] & (1ull << (v % 64));
}

/*
 * supported_groups and key_share (4.2.7, 4.2.8): the group to use and
 * the client's share for it, or the group to ask for in a
 * HelloRetryRequest.  A bitmap of the client's groups keeps the cost of
 * the checks linear in what the client sent, whatever it sent.
 */
static int sv_read_groups(struct tlsx_hs *hs, const struct sv_hello *h,
			  struct sv_groups *g)
{
	struct sv_group_set set[2], *groups = &set[0], *shared = &set[1];
	const u8 *our_share[TLSX_HS_MAX_LIST] = { NULL };
	size_t our_len[TLSX_HS_MAX_LIST] = { 0 };
	struct tlsx_rd r, list;
	const u8 *share;
	size_t share_len;
	unsigned int i;
	u16 v;
	int ret;

	memset(g, 0, sizeof(*g));
	memset(set, 0, sizeof(set));
	sv_body(h, TLSX_EXT_SUPPORTED_GROUPS, &r);
	/* NamedGroup named_group_list<2..2^16-1> */
	ret = tlsx_rd_open(&r, 2, 2, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u16(&list, &v);
		if (!ret)
			sv_set_test_and_add(groups, v);
	}
	if (ret)
		return ret;

	sv_body(h, TLSX_EXT_KEY_SHARE, &r);
	/* KeyShareEntry client_shares<0..2^16-1> */
	ret = tlsx_rd_open(&r, 2, 0, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		/* NamedGroup group; opaque key_exchange<1..2^16-1>; */
		ret = tlsx_rd_u16(&list, &v);
		if (!ret)
			ret = tlsx_rd_vec(&list, 2, 1, 65535, &share,
					  &share_len);
		if (ret)
			break;
		/*
		 * 4.2.8: "Clients MUST NOT offer multiple KeyShareEntry
		 * values for the same group.  Clients MUST NOT offer any
		 * KeyShareEntry values for groups not listed in the
		 * client's "supported_groups" extension.  Servers MAY
		 * check for violations of these rules and abort the
		 * handshake with an "illegal_parameter" alert".
		 */
		if (sv_set_test_and_add(shared, v) || !sv_set_has(groups, v)) {
			ret = TLSX_ALERT_ILLEGAL_PARAMETER;
			break;
		}
		g->n_shares++;
		g->share_group = v;
		/* The share of each group of ours, for the choice below. */
		for (i = 0; i < hs->n_groups; i++)
			if (hs->groups[i] == v) {
				our_share[i] = share;
				our_len[i] = share_len;
			}
	}
	if (ret)
		return ret;

	for (i = 0; i < hs->n_groups; i++) {
		v = hs->groups[i];
		if (!sv_set_has(groups, v))
			continue;
		if (!g->retry)
			g->retry = v;
		if (!g->group && our_share[i]) {
			g->group = v;
			g->share = our_share[i];
			g->share_len = our_len[i];
		}
	}
	return 0;
}

/*
 * server_name (RFC 6066 3): the host name, lower-cased into
 * hs->server_name, and the chain for it: the first whose leaf names it,
 * else the first (no alert for a name we do not know, as nginx's
 * default server).
 */
static int sv_read_server_name(struct tlsx_hs *hs, const struct sv_hello *h)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_rd r, list;
	const u8 *name = NULL, *p;
	size_t name_len = 0, len, i;
	u8 type;
	int ret = 0;

	hs->srv.chain = cfg->n_chains ? cfg->chains[0] : NULL;
	if (!sv_has(h, TLSX_EXT_SERVER_NAME))
		return 0;
	sv_body(h, TLSX_EXT_SERVER_NAME, &r);
	/* ServerName server_name_list<1..2^16-1>;
	 * struct { NameType name_type; HostName host_name; } (opaque<1..2^16-1>)
	 */
	ret = tlsx_rd_open(&r, 2, 1, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u8(&list, &type);
		if (!ret)
			ret = tlsx_rd_vec(&list, 2, 1, 65535, &p, &len);
		if (ret || type != 0)
			continue;
		/* RFC 6066 3: "The ServerNameList MUST NOT contain more
		 * than one name of the same name_type."
		 */
		if (name)
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		name = p;
		name_len = len;
	}
	if (ret || !name)
		return ret;
	/* RFC 6066 3: a DNS host name, under 2^8 bytes, no NUL. */
	if (name_len > TLSX_HS_MAX_NAME || memchr(name, 0, name_len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	for (i = 0; i < name_len; i++)
		hs->server_name[i] = name[i] >= 'A' && name[i] <= 'Z' ?
				     name[i] - 'A' + 'a' : name[i];
	hs->server_name[name_len] = 0;
	for (i = 0; i < cfg->n_chains; i++)
		if (tlsx_cert_chain_matches(cfg->chains[i], hs->server_name)) {
			hs->srv.chain = cfg->chains[i];
			break;
		}
	return 0;
}

/*
 * ALPN (RFC 7301 3.2): the first protocol of our list the client
 * offers; "In the event that the server supports no protocols that the
 * client advertises, then the server SHALL respond with a fatal
 * "no_application_protocol" alert."  Without a list of ours, the
 * client's is still read (a malformed one is decode_error, 6.2), then
 * ignored.
 */
static int sv_read_alpn(struct tlsx_hs *hs, const struct sv_hello *h)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_rd r, list;
	const u8 *p;
	size_t len, best = cfg->alpn_len, off;
	int ret;

	hs->alpn[0] = 0;
	if (!sv_has(h, TLSX_EXT_ALPN))
		return 0;
	sv_body(h, TLSX_EXT_ALPN, &r);
	/* ProtocolName protocol_name_list<2..2^16-1>; opaque <1..2^8-1> */
	ret = tlsx_rd_open(&r, 2, 2, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_vec(&list, 1, 1, 255, &p, &len);
		if (ret)
			break;
		/* Its place in our list, if there, before the best so far. */
		for (off = 0; off < best && off < cfg->alpn_len;
		     off += 1u + cfg->alpn[off])
			if (cfg->alpn[off] == len &&
			    !memcmp(cfg->alpn + off + 1, p, len)) {
				best = off;
				break;
			}
	}
	if (ret || !cfg->alpn_len)
		return ret;
	if (best >= cfg->alpn_len)
		return TLSX_ALERT_NO_APPLICATION_PROTOCOL;
	memcpy(hs->alpn, cfg->alpn + best + 1, cfg->alpn[best]);
	hs->alpn[cfg->alpn[best]] = 0;
	return 0;
}

/* --- the cookie ----------------------------------------------------------- */

static u8 sv_cookie_key[32];
static int sv_cookie_key_err;
static pthread_once_t sv_cookie_once = PTHREAD_ONCE_INIT;

static void sv_cookie_key_init(void)
{
	sv_cookie_key_err = tlsx_random_bytes(sv_cookie_key,
					      sizeof(sv_cookie_key));
}

/* The cookie for ClientHello1's hash @ch1 (the format is above). */
static int sv_cookie_make(struct tlsx_hs *hs, const u8 *ch1, u8 *out,
			  size_t *len)
{
	size_t n = 0;

	pthread_once(&sv_cookie_once, sv_cookie_key_init);
	if (sv_cookie_key_err)
		return sv_cookie_key_err;
	out[n++] = SV_COOKIE_FORMAT;
	put_unaligned_be16(hs->suite, out + n);
	n += 2;
	put_unaligned_be16(hs->srv.hrr_group, out + n);
	n += 2;
	out[n++] = (u8)hs->hash_len;
	memcpy(out + n, ch1, hs->hash_len);
	n += hs->hash_len;
	*len = n + SV_COOKIE_MAC;
	return tlsx_hmac(TLSX_HASH_SHA256, sv_cookie_key,
			 sizeof(sv_cookie_key), out, n, out + n);
}

/*
 * The cookie ClientHello2 returned: its MAC, then that it names our
 * suite, group and ClientHello1.  0 or illegal_parameter.
 */
static int sv_cookie_check(struct tlsx_hs *hs, const struct sv_hello *h)
{
	u8 want[SV_COOKIE_MAX];
	struct tlsx_rd r;
	const u8 *c;
	size_t len, want_len;
	int ret;

	/*
	 * 4.2.2: the client MUST copy the HRR's cookie into its new
	 * ClientHello; one missing makes it a different ClientHello.
	 */
	if (!sv_has(h, TLSX_EXT_COOKIE))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	sv_body(h, TLSX_EXT_COOKIE, &r);
	/* opaque cookie<1..2^16-1> */
	ret = tlsx_rd_vec(&r, 2, 1, 65535, &c, &len);
	if (!ret)
		ret = tlsx_rd_done(&r);
	if (ret)
		return ret;
	if (hs->test && hs->test->hrr_cookie)
		return len == hs->test->hrr_cookie_len &&
		       !memcmp(c, hs->test->hrr_cookie, len) ?
		       0 : TLSX_ALERT_ILLEGAL_PARAMETER;
	ret = sv_cookie_make(hs, hs->srv.ch1_hash, want, &want_len);
	if (ret)
		return ret;
	/* The whole cookie (fields and MAC) in constant time. */
	if (len != want_len || !tlsx_ct_memeq(c, want, len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

/* --- resumption ------------------------------------------------------------ */

/* Whether @s was made for this connection's name and protocol. */
static bool sv_session_fits(const struct tlsx_hs *hs,
			    const struct tlsx_session *s, u16 suite)
{
	enum tlsx_hash_alg hash, want;

	/*
	 * 4.2.11: the server "MUST ensure that it selects a compatible PSK
	 * (if any) and cipher suite": the session's hash is the suite's.
	 * Another server name or protocol: a full handshake instead
	 * (4.6.1 and RFC 7301 have no resumption across them).
	 */
	if (tlsx_suite_params(s->suite, NULL, &hash, NULL) ||
	    tlsx_suite_params(suite, NULL, &want, NULL) || hash != want)
		return false;
	return !strcmp(s->server_name, hs->server_name) &&
	       !strcmp((const char *)s->alpn, (const char *)hs->alpn);
}

/*
 * psk_key_exchange_modes (4.2.9): which modes the client allows, as
 * bits (1 << psk_ke, 1 << psk_dhe_ke).
 */
static int sv_psk_modes(const struct sv_hello *h, unsigned int *modes)
{
	struct tlsx_rd r, list;
	u8 m;
	int ret;

	*modes = 0;
	sv_body(h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES, &r);
	/* PskKeyExchangeMode ke_modes<1..255> */
	ret = tlsx_rd_open(&r, 1, 1, 255, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u8(&list, &m);
		if (!ret && m < 2)
			*modes |= 1u << m;
	}
	return ret;
}

/*
 * pre_shared_key (4.2.11): opens the offered tickets (the first
 * SV_MAX_PSK_TRIES), takes the first that fits and checks its binder
 * over the truncated ClientHello, in constant time; a binder that fails
 * is decrypt_error (4.2.11: "If this value is not present or does not
 * validate, the server MUST abort the handshake").  On success the key
 * schedule is at EARLY under the session's PSK and hs->session is the
 * session.
 */
static int sv_read_psk(struct tlsx_hs *hs, const struct sv_hello *h,
		       u16 suite, bool have_dhe, struct sv_psk *psk)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	u8 th[TLSX_KS_MAX_SECRET], key[TLSX_KS_MAX_SECRET];
	struct tlsx_rd r, ids, binders;
	const u8 *id, *binder = NULL;
	size_t id_len, b_len = 0, trunc;
	unsigned int modes, n_ids = 0, n_binders = 0, chosen = ~0u;
	enum tlsx_hash_alg hash;
	u32 age;
	int ret;

	memset(psk, 0, sizeof(*psk));
	/* The modes are read even without a PSK: a malformed extension is
	 * decode_error whether or not it is used (6.2).
	 */
	modes = 0;
	if (sv_has(h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES)) {
		ret = sv_psk_modes(h, &modes);
		if (ret)
			return ret;
	}
	if (!sv_has(h, TLSX_EXT_PRE_SHARED_KEY))
		return 0;
	/*
	 * 4.2.9: "If clients offer "pre_shared_key" without a
	 * "psk_key_exchange_modes" extension, servers MUST abort the
	 * handshake."  9.2 names the alert: missing_extension.
	 */
	if (!sv_has(h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES))
		return TLSX_ALERT_MISSING_EXTENSION;
	sv_body(h, TLSX_EXT_PRE_SHARED_KEY, &r);
	/* PskIdentity identities<7..2^16-1>; PskBinderEntry binders<33..2^16-1> */
	ret = tlsx_rd_open(&r, 2, 7, 65535, &ids);
	if (ret)
		return ret;
	trunc = (size_t)(r.p - h->msg);
	ret = tlsx_rd_open(&r, 2, 33, 65535, &binders);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&ids)) {
		/* opaque identity<1..2^16-1>; uint32 obfuscated_ticket_age; */
		ret = tlsx_rd_vec(&ids, 2, 1, 65535, &id, &id_len);
		/*
		 * The age is not checked: it guards 0-RTT against replay
		 * (8.3), and tlsx accepts no early data.
		 */
		if (!ret)
			ret = tlsx_rd_u32(&ids, &age);
		if (ret)
			break;
		if (chosen == ~0u && n_ids < SV_MAX_PSK_TRIES && cfg->tickets &&
		    !tlsx_ticket_open(cfg->tickets, id, id_len, hs_now(hs),
				      &hs->session)) {
			if (sv_session_fits(hs, &hs->session, suite))
				chosen = n_ids;
			else
				tlsx_session_wipe(&hs->session);
		}
		n_ids++;
	}
	while (!ret && tlsx_rd_left(&binders)) {
		const u8 *b;
		size_t len;

		/* opaque PskBinderEntry<32..255> */
		ret = tlsx_rd_vec(&binders, 1, 32, 255, &b, &len);
		if (!ret && n_binders++ == chosen) {
			binder = b;
			b_len = len;
		}
	}
	if (ret)
		goto out;
	/*
	 * 4.2.11: binders: "A series of HMAC values, one for each value in
	 * the identities list and in the same order".
	 */
	if (n_ids != n_binders) {
		ret = TLSX_ALERT_ILLEGAL_PARAMETER;
		goto out;
	}
	if (chosen == ~0u)
		goto out;
	/*
	 * 4.2.9: psk_ke only when both allow it (then it is taken: no
	 * (EC)DHE to pay for), psk_dhe_ke when the client allows it and
	 * a group is possible; otherwise the PSK is not used.
	 */
	if (cfg->allow_psk_ke && (modes & 1)) {
		psk->dhe = false;
	} else if ((modes & 2) && have_dhe) {
		psk->dhe = true;
	} else {
		tlsx_session_wipe(&hs->session);
		goto out;
	}
	tlsx_suite_params(suite, NULL, &hash, NULL);
	/* 4.2.11.2: the binder over Transcript-Hash(Truncate(ClientHello)),
	 * after HRR's message_hash and the HRR when there was one.
	 */
	ret = tlsx_ks_init(&hs->ks, hash, hs->session.psk,
			   hs->session.psk_len);
	if (!ret)
		ret = tlsx_ks_derive(&hs->ks, TLSX_KS_RES_BINDER, NULL, key);
	if (!ret)
		ret = tlsx_transcript_peek(&hs->ts, hash, h->msg, trunc, th);
	if (!ret)
		ret = tlsx_binder_check(hash, key, th, binder, b_len);
	memzero_explicit(key, sizeof(key));
	if (ret) {
		tlsx_session_wipe(&hs->session);
		goto out;
	}
	hs->srv.psk_identity = (u16)chosen;
	hs->have_session = true;
	psk->ok = true;
out:
	if (ret)
		tlsx_session_wipe(&hs->session);
	return ret;
}

/* --- messages we send ------------------------------------------------------ */

/* ServerHello's and HelloRetryRequest's fixed fields (4.1.3). */
static void sv_hello_head(struct tlsx_hs *hs, struct tlsx_wr *w,
			  const u8 *random)
{
	tlsx_wr_u16(w, TLSX_HS_VERSION_12);
	tlsx_wr_bytes(w, random, TLSX_HS_RANDOM);
	/* 4.1.3: legacy_session_id_echo, "the contents of the client's
	 * legacy_session_id field".
	 */
	tlsx_wr_vec(w, 1, hs->session_id, hs->session_id_len);
	tlsx_wr_u16(w, hs->suite);
	tlsx_wr_u8(w, 0);	/* legacy_compression_method */
	tlsx_wr_open(w, 2);
}

static void sv_ext_begin(struct tlsx_wr *w, enum tlsx_ext_id id)
{
	tlsx_wr_u16(w, tlsx_ext_def(id)->type);
	tlsx_wr_open(w, 2);
}

static void sv_supported_versions(struct tlsx_wr *w)
{
	/* 4.2.1: the server's answer is the one version selected. */
	sv_ext_begin(w, TLSX_EXT_SUPPORTED_VERSIONS);
	tlsx_wr_u16(w, TLSX_HS_VERSION_13);
	tlsx_wr_close(w);
}

/*
 * HelloRetryRequest (4.1.4): the ServerHello format with the special
 * Random, asking for @hs->srv.hrr_group, with the cookie; ClientHello1
 * becomes message_hash in the transcript first (4.4.1).
 */
static int sv_send_hrr(struct tlsx_hs *hs, struct hs_out *o)
{
	u8 cookie[SV_COOKIE_MAX];
	const u8 *c = cookie;
	size_t c_len;
	struct tlsx_wr w;
	int ret;

	ret = tlsx_transcript_hash(&hs->ts, hs->srv.ch1_hash);
	if (!ret && hs->test && hs->test->hrr_cookie) {
		c = hs->test->hrr_cookie;
		c_len = hs->test->hrr_cookie_len;
	} else if (!ret) {
		ret = sv_cookie_make(hs, hs->srv.ch1_hash, cookie, &c_len);
	}
	if (!ret)
		ret = tlsx_transcript_hrr(&hs->ts);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_SERVER_HELLO, &w);
	sv_hello_head(hs, &w, tlsx_hrr_random);
	sv_ext_begin(&w, TLSX_EXT_KEY_SHARE);
	tlsx_wr_u16(&w, hs->srv.hrr_group);	/* selected_group */
	tlsx_wr_close(&w);
	sv_ext_begin(&w, TLSX_EXT_COOKIE);
	tlsx_wr_vec(&w, 2, c, c_len);
	tlsx_wr_close(&w);
	sv_supported_versions(&w);
	tlsx_wr_close(&w);
	ret = hs_msg_end(hs, o, &w);
	/* D.4: the dummy CCS right after the server's first message. */
	if (!ret && hs->compat)
		ret = hs_send_ccs(hs, o);
	return ret;
}

/*
 * ServerHello (4.1.3) with our key share for @g (none under psk_ke) and
 * the selected PSK; then the handshake secrets and keys (7.1).
 */
static int sv_send_server_hello(struct tlsx_hs *hs, struct hs_out *o,
				const struct sv_groups *g, bool psk)
{
	u8 dhe[TLSX_KX_MAX_SHARED];
	struct tlsx_kx *kx = &hs->shares[0];
	size_t dhe_len = 0;
	struct tlsx_wr w;
	int ret;

	ret = hs_rand(hs, hs->random, sizeof(hs->random));
	if (ret)
		return ret;
	if (g) {
		ret = tlsx_kx_generate(kx, g->group, hs_rand_cb, hs);
		if (!ret)
			ret = tlsx_kx_shared(kx, g->share, g->share_len, dhe,
					     &dhe_len);
		if (ret)
			goto out;
		hs->group = g->group;
		hs->n_shares = 1;
	}
	hs_msg_begin(hs, o, TLSX_HT_SERVER_HELLO, &w);
	sv_hello_head(hs, &w, hs->random);
	if (psk) {
		sv_ext_begin(&w, TLSX_EXT_PRE_SHARED_KEY);
		tlsx_wr_u16(&w, hs->srv.psk_identity);	/* selected_identity */
		tlsx_wr_close(&w);
	}
	if (g) {
		sv_ext_begin(&w, TLSX_EXT_KEY_SHARE);
		tlsx_wr_u16(&w, kx->group);
		tlsx_wr_vec(&w, 2, kx->pub, kx->pub_len);
		tlsx_wr_close(&w);
	}
	sv_supported_versions(&w);
	tlsx_wr_close(&w);
	ret = hs_msg_end(hs, o, &w);
	if (!ret)
		ret = hs_derive_handshake(hs, g ? dhe : NULL, dhe_len);
	/* D.4: the dummy CCS after the first message (once: not after HRR). */
	if (!ret && hs->compat)
		ret = hs_send_ccs(hs, o);
	if (!ret)
		ret = hs_set_write_secret(hs, hs->s_hs);
	if (!ret)
		ret = hs_set_read_secret(hs, hs->c_hs);
out:
	memzero_explicit(dhe, sizeof(dhe));
	tlsx_kx_wipe(kx);
	return ret;
}

/* EncryptedExtensions (4.3.1): the answers to the client's requests. */
static int sv_send_ee(struct tlsx_hs *hs, struct hs_out *o)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	u32 asked = hs->srv.client_exts;
	struct tlsx_wr w;
	unsigned int i;
	u8 proto[256];
	size_t n;

	hs_msg_begin(hs, o, TLSX_HT_ENCRYPTED_EXTENSIONS, &w);
	tlsx_wr_open(&w, 2);
	/* 4.2.7: "servers MAY send the "supported_groups" extension". */
	if (asked & TLSX_EXT_BIT(TLSX_EXT_SUPPORTED_GROUPS)) {
		sv_ext_begin(&w, TLSX_EXT_SUPPORTED_GROUPS);
		if (hs->test && hs->test->ee_groups) {
			tlsx_wr_bytes(&w, hs->test->ee_groups,
				      hs->test->ee_groups_len);
		} else {
			tlsx_wr_open(&w, 2);
			for (i = 0; i < hs->n_groups; i++)
				tlsx_wr_u16(&w, hs->groups[i]);
			tlsx_wr_close(&w);
		}
		tlsx_wr_close(&w);
	}
	/*
	 * RFC 8449 4: only to a client that sent record_size_limit; "a TLS
	 * 1.3 endpoint MUST NOT send a value larger than 2^14 + 1" (a
	 * larger configured value says no limit: 2^14 + 1 says the same).
	 */
	if (cfg->record_size_limit &&
	    (asked & TLSX_EXT_BIT(TLSX_EXT_RECORD_SIZE_LIMIT))) {
		sv_ext_begin(&w, TLSX_EXT_RECORD_SIZE_LIMIT);
		hs_write_record_size_limit(&w, cfg->record_size_limit >
					   TLSX_REC_MAX_PLAIN + 1 ?
					   TLSX_REC_MAX_PLAIN + 1 :
					   cfg->record_size_limit);
		tlsx_wr_close(&w);
	}
	/*
	 * RFC 6066 3: a server that used the name "SHALL include an
	 * extension of type "server_name" ... The "extension_data" field
	 * of this extension SHALL be empty."
	 */
	if (asked & TLSX_EXT_BIT(TLSX_EXT_SERVER_NAME)) {
		sv_ext_begin(&w, TLSX_EXT_SERVER_NAME);
		tlsx_wr_close(&w);
	}
	if (hs->alpn[0]) {
		n = strlen((const char *)hs->alpn);
		proto[0] = (u8)n;
		memcpy(proto + 1, hs->alpn, n);
		sv_ext_begin(&w, TLSX_EXT_ALPN);
		hs_write_alpn(&w, proto, n + 1);
		tlsx_wr_close(&w);
	}
	/* 4.2.10: declined early data: no "early_data" here. */
	tlsx_wr_close(&w);
	return hs_msg_end(hs, o, &w);
}

/*
 * certificate_authorities (4.2.4): the subjects of the anchors client
 * chains must reach, when they fit in SV_MAX_CA_LIST bytes (a system
 * bundle does not, and the extension is a hint only: it is left out).
 */
static void sv_write_authorities(struct tlsx_hs *hs, struct tlsx_wr *w)
{
	const struct tlsx_trust *t = hs->cfg->trust;
	size_t i, total = 0;

	if (!t || !t->n)
		return;
	for (i = 0; i < t->n; i++)
		total += 2 + t->certs[i].subject.len;
	if (total > SV_MAX_CA_LIST)
		return;
	sv_ext_begin(w, TLSX_EXT_CERTIFICATE_AUTHORITIES);
	/* DistinguishedName authorities<3..2^16-1>; opaque <1..2^16-1> */
	tlsx_wr_open(w, 2);
	for (i = 0; i < t->n; i++)
		tlsx_wr_vec(w, 2, t->certs[i].subject.p,
			    t->certs[i].subject.len);
	tlsx_wr_close(w);
	tlsx_wr_close(w);
}

/*
 * CertificateRequest (4.3.2): an empty certificate_request_context, our
 * signature_algorithms (the one extension it MUST carry) and the
 * anchors' names.
 */
static int sv_send_cert_request(struct tlsx_hs *hs, struct hs_out *o)
{
	struct tlsx_wr w;
	unsigned int i;

	hs->cert_req_ctx_len = 0;
	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_REQUEST, &w);
	tlsx_wr_vec(&w, 1, hs->cert_req_ctx, hs->cert_req_ctx_len);
	tlsx_wr_open(&w, 2);
	sv_ext_begin(&w, TLSX_EXT_SIGNATURE_ALGORITHMS);
	tlsx_wr_open(&w, 2);
	for (i = 0; i < hs->n_sig_schemes; i++)
		tlsx_wr_u16(&w, hs->sig_schemes[i]);
	tlsx_wr_close(&w);
	tlsx_wr_close(&w);
	sv_write_authorities(hs, &w);
	tlsx_wr_close(&w);
	return hs_msg_end(hs, o, &w);
}

static int sv_send_cert_verify(struct tlsx_hs *hs, struct hs_out *o)
{
	u8 th[TLSX_KS_MAX_SECRET], sig[512];
	struct tlsx_wr w;
	size_t sig_len;
	int ret;

	if (!hs->test || !hs->test->cert_sign)
		return hs_send_cert_verify(hs, o, hs->srv.chain,
					   hs->own_sig_scheme);
	ret = tlsx_transcript_hash(&hs->ts, th);
	if (!ret)
		ret = hs->test->cert_sign(hs, hs->own_sig_scheme, th,
					  hs->hash_len, sig, sizeof(sig),
					  &sig_len);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_CERTIFICATE_VERIFY, &w);
	tlsx_wr_u16(&w, hs->own_sig_scheme);
	tlsx_wr_vec(&w, 2, sig, sig_len);
	return hs_msg_end(hs, o, &w);
}

/* The flight of shape @id after ServerHello, then the next state. */
static int sv_send_flight(struct tlsx_hs *hs, struct hs_out *o,
			  enum sv_shape_id id)
{
	const struct sv_shape *shape = &sv_shapes[id];
	const u8 *t;
	int ret = 0;

	for (t = shape->flight; *t && !ret; t++) {
		switch (*t) {
		case TLSX_HT_ENCRYPTED_EXTENSIONS:
			ret = sv_send_ee(hs, o);
			break;
		case TLSX_HT_CERTIFICATE_REQUEST:
			ret = sv_send_cert_request(hs, o);
			break;
		case TLSX_HT_CERTIFICATE:
			ret = hs_send_certificate(hs, o, hs->srv.chain, NULL,
						  0);
			break;
		case TLSX_HT_CERTIFICATE_VERIFY:
			ret = sv_send_cert_verify(hs, o);
			break;
		case TLSX_HT_FINISHED:
			ret = hs_send_finished(hs, o, hs->s_hs);
			/* 7.1: the application secrets over ..server Finished. */
			if (!ret)
				ret = hs_derive_application(hs);
			/*
			 * 7.1, A.2: after its Finished the server writes under
			 * its application key, so an alert about the client's
			 * flight (certificate_required, a bad Finished) is
			 * one the client, which has read our Finished, opens.
			 */
			if (!ret)
				ret = hs_set_write_secret(hs, hs->s_ap);
			break;
		default:
			ret = -EINVAL;
		}
	}
	if (!ret)
		hs->state = shape->next;
	return ret;
}

/* --- handlers --------------------------------------------------------------- */

/*
 * 4.1.2, the second ClientHello: "the client MUST send the same
 * ClientHello without modification, except as follows": key_share
 * replaced by one share for the selected group, early_data removed, the
 * cookie added, pre_shared_key updated, padding changed.  Anything else
 * (and a second HelloRetryRequest, which would be needed if the share
 * were missing) is illegal_parameter.
 */
static int sv_check_second(struct tlsx_hs *hs, const struct sv_hello *h,
			   const struct sv_groups *g)
{
	if (!tlsx_ct_memeq(h->digest, hs->srv.ch1_digest, sizeof(h->digest)))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.2.8: "a new KeyShareEntry for the group indicated". */
	if (g->n_shares != 1 || g->share_group != hs->srv.hrr_group ||
	    g->group != hs->srv.hrr_group)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/* 4.2.10: "A client MUST NOT include the "early_data" extension in
	 * its followup ClientHello."
	 */
	if (sv_has(h, TLSX_EXT_EARLY_DATA))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return sv_cookie_check(hs, h);
}

/*
 * The certificate to send (4.4.2.2): 9.2, "If not containing a
 * "pre_shared_key" extension, it MUST contain both a
 * "signature_algorithms" extension and a "supported_groups" extension";
 * the same holds for a PSK we do not take.  The scheme is the first of
 * ours that the client offered and our key can do (none:
 * handshake_failure).
 */
static int sv_pick_certificate(struct tlsx_hs *hs, const struct sv_hello *h,
			       const u16 *peer, unsigned int n_peer)
{
	if (!sv_has(h, TLSX_EXT_SIGNATURE_ALGORITHMS))
		return TLSX_ALERT_MISSING_EXTENSION;
	if (!sv_has(h, TLSX_EXT_SUPPORTED_GROUPS))
		return TLSX_ALERT_MISSING_EXTENSION;
	/* A server configured without a certificate: ours to fix. */
	if (!hs->srv.chain)
		return -EINVAL;
	hs->own_sig_scheme = hs_pick_sig_scheme(hs, hs->srv.chain, peer,
						n_peer);
	return hs->own_sig_scheme ? 0 : TLSX_ALERT_HANDSHAKE_FAILURE;
}

/*
 * HelloRetryRequest for @group (4.1.4); a PSK taken from ClientHello1
 * is dropped and judged again, binder and all, on ClientHello2.
 */
static int sv_retry(struct tlsx_hs *hs, struct hs_out *o,
		    const struct sv_hello *h, u16 group, bool psk)
{
	int ret;

	hs->srv.hrr_group = group;
	hs->hrr = true;
	tlsx_ks_wipe(&hs->ks);
	if (psk) {
		tlsx_session_wipe(&hs->session);
		hs->have_session = false;
	}
	/* 4.2.10: 0-RTT records after ClientHello1 are skipped. */
	if (sv_has(h, TLSX_EXT_EARLY_DATA))
		hs->early_skip = SV_EARLY_SKIP;
	ret = sv_send_hrr(hs, o);
	if (!ret)
		hs->state = EXPECT_SECOND_CLIENT_HELLO;
	return ret;
}

/*
 * ClientHello (4.1.2), first or second: every check in the RFC's order
 * of fields, the choices (suite, group, chain, scheme, protocol, PSK),
 * then HelloRetryRequest or the whole server flight.
 */
static int sv_client_hello(struct tlsx_hs *hs, const u8 *msg, size_t len,
			   struct hs_out *o)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	bool second = hs->state == EXPECT_SECOND_CLIENT_HELLO;
	u16 peer_schemes[TLSX_HS_MAX_LIST], cert_schemes[TLSX_HS_MAX_LIST];
	unsigned int n_peer = 0, n_cert = 0, modes;
	struct sv_hello h;
	struct sv_groups g = { 0 };
	struct sv_psk psk = { 0 };
	bool dhe_ok;
	u16 suite;
	int ret;

	ret = sv_parse_hello(&h, msg, len);
	if (ret)
		return ret;
	ret = sv_check_versions(&h);
	if (ret)
		return ret;
	/*
	 * 4.1.2: "For every TLS 1.3 ClientHello, this vector MUST contain
	 * exactly one byte, set to zero ... If a TLS 1.3 ClientHello is
	 * received with any other value in this field, the server MUST
	 * abort the handshake with an "illegal_parameter" alert."
	 */
	if (h.bad_compression)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	ret = sv_pick_suite(hs, &h, &suite);
	if (ret)
		return ret;
	if (second && suite != hs->suite)
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	/*
	 * 9.2: "If containing a "supported_groups" extension, it MUST also
	 * contain a "key_share" extension, and vice versa."
	 */
	if (sv_has(&h, TLSX_EXT_SUPPORTED_GROUPS) !=
	    sv_has(&h, TLSX_EXT_KEY_SHARE))
		return TLSX_ALERT_MISSING_EXTENSION;
	if (sv_has(&h, TLSX_EXT_SUPPORTED_GROUPS)) {
		ret = sv_read_groups(hs, &h, &g);
		if (ret)
			return ret;
	}
	if (second) {
		ret = sv_check_second(hs, &h, &g);
		if (ret)
			return ret;
	} else {
		/* 4.2.2: "Clients MUST NOT use cookies in their initial
		 * ClientHello"; this server never sent this one.
		 */
		if (sv_has(&h, TLSX_EXT_COOKIE))
			return TLSX_ALERT_ILLEGAL_PARAMETER;
		memcpy(hs->srv.ch1_digest, h.digest, sizeof(h.digest));
		memcpy(hs->session_id, h.sid, h.sid_len);
		hs->session_id_len = (u8)h.sid_len;
		/* D.4: compatibility mode is the client's non-empty id. */
		hs->compat = h.sid_len != 0;
		ret = hs_set_suite(hs, suite);
		if (ret)
			return ret;
	}
	hs->srv.client_exts = h.ext.present;

	if (sv_has(&h, TLSX_EXT_RECORD_SIZE_LIMIT)) {
		ret = hs_parse_record_size_limit(
			h.ext.ext[TLSX_EXT_RECORD_SIZE_LIMIT].data,
			h.ext.ext[TLSX_EXT_RECORD_SIZE_LIMIT].len,
			&hs->peer_record_size_limit);
		if (ret)
			return ret;
	}
	ret = sv_read_server_name(hs, &h);
	if (!ret)
		ret = sv_read_alpn(hs, &h);
	if (!ret && sv_has(&h, TLSX_EXT_SIGNATURE_ALGORITHMS))
		ret = hs_parse_sig_schemes(
			h.ext.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].data,
			h.ext.ext[TLSX_EXT_SIGNATURE_ALGORITHMS].len,
			peer_schemes, &n_peer);
	/*
	 * Read only for their framing (6.2: decode_error), even when they
	 * decide nothing here: signature_algorithms_cert (4.2.3; one chain
	 * per name, nothing to choose) and psk_key_exchange_modes without
	 * a pre_shared_key (4.2.9).
	 */
	if (!ret && sv_has(&h, TLSX_EXT_SIGNATURE_ALGORITHMS_CERT))
		ret = hs_parse_sig_schemes(
			h.ext.ext[TLSX_EXT_SIGNATURE_ALGORITHMS_CERT].data,
			h.ext.ext[TLSX_EXT_SIGNATURE_ALGORITHMS_CERT].len,
			cert_schemes, &n_cert);
	if (!ret && sv_has(&h, TLSX_EXT_PSK_KEY_EXCHANGE_MODES))
		ret = sv_psk_modes(&h, &modes);
	if (ret)
		return ret;
	dhe_ok = g.retry != 0;
	ret = sv_read_psk(hs, &h, suite, dhe_ok, &psk);
	if (ret)
		return ret;
	/* After the binder, which hashes the ClientHello truncated. */
	tlsx_transcript_add(&hs->ts, msg, len);

	if (!psk.ok) {
		ret = sv_pick_certificate(hs, &h, peer_schemes, n_peer);
		if (ret)
			return ret;
	}
	if (!psk.ok || psk.dhe) {
		/* 4.1.1: no common group: handshake_failure. */
		if (!g.retry)
			return sv_has(&h, TLSX_EXT_SUPPORTED_GROUPS) ?
			       TLSX_ALERT_HANDSHAKE_FAILURE :
			       TLSX_ALERT_MISSING_EXTENSION;
		/* Only ClientHello1 gets here without a share for it:
		 * sv_check_second() refused a second one.
		 */
		if (!g.group)
			return sv_retry(hs, o, &h, g.retry, psk.ok);
	}
	if (!psk.ok) {
		ret = tlsx_ks_init(&hs->ks, hs->hash, NULL, 0);
		if (ret)
			return ret;
	}
	/* 4.2.10: offered 0-RTT is declined; its records are skipped. */
	hs->early_skip = !second && sv_has(&h, TLSX_EXT_EARLY_DATA) ?
			 SV_EARLY_SKIP : 0;
	hs->resumed = psk.ok;
	if (psk.ok) {
		hs->srv.psk_ke = !psk.dhe;
		hs->peer_cert = hs->session.peer_cert;
	}
	ret = sv_send_server_hello(hs, o, psk.ok && !psk.dhe ? NULL : &g,
				   psk.ok);
	if (ret)
		return ret;
	return sv_send_flight(hs, o, psk.ok ? SV_RESUMED :
				     cfg->verify_peer ? SV_FULL_CLIENT_AUTH :
				     SV_FULL);
}

/* The client's Certificate (4.4.2, 4.4.2.4). */
static int sv_certificate(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	const u8 *certs[TLSX_CERT_MAX_CHAIN], *ctx;
	size_t lens[TLSX_CERT_MAX_CHAIN], ctx_len, n;
	int ret;

	/* CertificateEntry extensions answer our CertificateRequest: it
	 * asked for none.
	 */
	ret = hs_parse_certificate(msg, len, 0, &ctx, &ctx_len, certs, lens,
				   &n);
	if (ret)
		return ret;
	/* 4.4.2: the context is the CertificateRequest's. */
	if (ctx_len != hs->cert_req_ctx_len ||
	    memcmp(ctx, hs->cert_req_ctx, ctx_len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	if (!n) {
		/*
		 * 4.4.2.4: "If the client does not send any certificates
		 * (i.e., it sends an empty Certificate message), the
		 * server MAY at its discretion either continue the
		 * handshake without client authentication or abort the
		 * handshake with a "certificate_required" alert."
		 */
		if (hs->cfg->require_peer_cert)
			return TLSX_ALERT_CERTIFICATE_REQUIRED;
		tlsx_transcript_add(&hs->ts, msg, len);
		hs->state = EXPECT_FINISHED;
		return 0;
	}
	ret = hs_verify_peer_chain(hs, certs, lens, n, X509_EKU_CLIENT_AUTH);
	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_CERTIFICATE_VERIFY;
	return 0;
}

/* The client's CertificateVerify (4.4.3), over ..Certificate. */
static int sv_certificate_verify(struct tlsx_hs *hs, const u8 *msg,
				 size_t len)
{
	int ret = hs_check_cert_verify(hs, msg, len);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	hs->state = EXPECT_FINISHED;
	return 0;
}

/* The client's Finished (4.4.4): the handshake is done. */
static int sv_finished(struct tlsx_hs *hs, const u8 *msg, size_t len)
{
	int ret = hs_check_finished(hs, msg, len, hs->c_hs);

	if (ret)
		return ret;
	tlsx_transcript_add(&hs->ts, msg, len);
	/* 7.1: resumption_master_secret over ..client Finished. */
	if (hs->cfg->tickets) {
		ret = hs_derive_resumption(hs);
		if (ret)
			return ret;
	}
	tlsx_ks_wipe(&hs->ks);
	memzero_explicit(hs->c_hs, sizeof(hs->c_hs));
	memzero_explicit(hs->s_hs, sizeof(hs->s_hs));
	hs->done = true;
	hs->state = EXPECT_NOTHING;
	return 0;
}

/* The dispatch: the message the state awaits, or unexpected_message. */
static int sv_handle(struct tlsx_hs *hs, const u8 *msg, size_t len,
		     struct hs_out *o)
{
	u8 type = msg[0];

	switch (hs->state) {
	case EXPECT_CLIENT_HELLO:
	case EXPECT_SECOND_CLIENT_HELLO:
		if (type == TLSX_HT_CLIENT_HELLO)
			return sv_client_hello(hs, msg, len, o);
		break;
	case EXPECT_CERTIFICATE:
		if (type == TLSX_HT_CERTIFICATE)
			return sv_certificate(hs, msg, len);
		break;
	case EXPECT_CERTIFICATE_VERIFY:
		if (type == TLSX_HT_CERTIFICATE_VERIFY)
			return sv_certificate_verify(hs, msg, len);
		break;
	case EXPECT_FINISHED:
		if (type == TLSX_HT_FINISHED)
			return sv_finished(hs, msg, len);
		break;
	default:
		break;
	}
	/* 6.2 / 5: a message the state does not expect. */
	return TLSX_ALERT_UNEXPECTED_MESSAGE;
}

/* --- NewSessionTicket ------------------------------------------------------ */

/*
 * One NewSessionTicket (4.6.1) into @w: the session (suite, PSK for
 * this ticket's nonce, time, age_add, name, protocol, client
 * certificate) sealed by ticket.c.
 */
static int sv_ticket(struct tlsx_hs *hs, struct tlsx_wr *w, u16 nonce_v)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_session s;
	u8 ticket[TLSX_TICKET_MAX], nonce[2];
	size_t tlen;
	u32 life = cfg->ticket_lifetime ? cfg->ticket_lifetime :
		   SV_DEFAULT_LIFETIME;
	int ret;

	/* 4.6.1: "Servers MUST NOT use any value greater than 604800". */
	if (life > TLSX_TICKET_MAX_LIFETIME)
		life = TLSX_TICKET_MAX_LIFETIME;
	memset(&s, 0, sizeof(s));
	put_unaligned_be16(nonce_v, nonce);
	s.suite = hs->suite;
	s.psk_len = hs->hash_len;
	s.issued = hs_now(hs);
	s.lifetime = life;
	s.peer_cert = hs->peer_cert;
	memcpy(s.server_name, hs->server_name, sizeof(s.server_name));
	memcpy(s.alpn, hs->alpn, sizeof(s.alpn));
	ret = hs_rand(hs, &s.age_add, sizeof(s.age_add));
	if (!ret)
		ret = tlsx_resumption_psk(hs->hash, hs->res_master, nonce,
					  sizeof(nonce), s.psk);
	if (!ret)
		ret = tlsx_ticket_seal(cfg->tickets, &s, hs_rand_cb, hs, ticket,
				       sizeof(ticket), &tlen);
	if (!ret) {
		tlsx_wr_u8(w, TLSX_HT_NEW_SESSION_TICKET);
		tlsx_wr_open(w, 3);
		tlsx_wr_u32(w, life);
		tlsx_wr_u32(w, s.age_add);
		tlsx_wr_vec(w, 1, nonce, sizeof(nonce));
		tlsx_wr_vec(w, 2, ticket, tlen);
		tlsx_wr_u16(w, 0);	/* no extensions: no early_data */
		ret = tlsx_wr_close(w);
	}
	tlsx_session_wipe(&s);
	return ret;
}

static int sv_tickets(struct tlsx_hs *hs, u8 *out, size_t cap, size_t *len)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_wr w;
	unsigned int i;
	int ret = 0;

	*len = 0;
	if (!cfg->tickets || !hs->have_res)
		return 0;
	tlsx_wr_init(&w, out, cap);
	for (i = 0; i < cfg->tickets_per_handshake && !ret; i++)
		ret = sv_ticket(hs, &w, (u16)hs->srv.tickets_sent++);
	if (!ret)
		ret = tlsx_wr_finish(&w, len);
	return ret;
}

const struct tlsx_hs_role tlsx_hs_server_role = {
	.name = "server",
	.start = NULL,
	.handle = sv_handle,
	.tickets = sv_tickets,
};
