// SPDX-License-Identifier: GPL-2.0
/*
 * server_hello.c - the server's hellos: the ClientHello read (framing,
 * versions, suite, groups and key shares, server_name, ALPN), the
 * second ClientHello compared with the first (4.1.2), the certificate
 * chosen, and the ServerHello and HelloRetryRequest written.
 *
 * Stack: the ClientHello's walk holds two 8 KiB bitmaps of NamedGroups
 * (server_read_groups()) so that no check costs more than linear time in
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
#include "handshake/engine/cert.h"
#include "handshake/engine/server_impl.h"

#define SV_COOKIE_FORMAT	1
#define SV_COOKIE_MAC		SHA256_DIGEST_SIZE
#define SV_COOKIE_MAX		(6 + TLSX_KS_MAX_SECRET + SV_COOKIE_MAC)

/* Whether extension type @type is one ClientHello2 may change (4.1.2). */
static bool server_may_change(u16 type)
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
static void server_digest(struct server_ch *h, const u8 *fixed, size_t fixed_len,
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
		/*
		 * pre_shared_key is "updated if present": its body may
		 * change, its presence may not (neither dropped nor added).
		 */
		if (!server_may_change(type))
			tlsx_sha256_update(&c, e, 4u + len);
		else if (type == tlsx_ext_def(TLSX_EXT_PRE_SHARED_KEY)->type)
			tlsx_sha256_update(&c, e, 2);
	}
	tlsx_sha256_final(&c, h->digest);
}

/* RFC 8446 4.1.2: the ClientHello's framing and its fixed fields. */
int server_parse_ch(struct server_ch *h, const u8 *msg, size_t len)
{
	struct tlsx_rd r, comp, exts;
	const u8 *fixed;
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
	ret = tlsx_rd_u16(&r, &h->version);
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
	 * legacy_version is judged in server_check_versions().  A ClientHello
	 * without extensions is one from TLS 1.2 or before: tlsx speaks
	 * only 1.3 (protocol_version, as server_check_versions()).
	 */
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
	server_digest(h, fixed, (size_t)(exts.p - 2 - fixed), exts);
	return tlsx_ext_parse(TLSX_CTX_CH, &exts, 0, &h->ext);
}

/*
 * D.5: "Any endpoint receiving a Hello message with
 * ClientHello.legacy_version or ServerHello.legacy_version set to
 * 0x0300 MUST abort the handshake with a "protocol_version" alert"; a
 * value below 0x0300 names no TLS version at all (SSL 2's ClientHello
 * is another format), so it gets the same.  Above 0x0300, 4.2.1 rules:
 * "If this extension is present in the ClientHello, servers MUST NOT
 * use the ClientHello.legacy_version value for version negotiation and
 * MUST use only the "supported_versions" extension": 4.1.2's 0x0303,
 * and a 0x0301 or 0x0304 beside supported_versions, are TLS 1.3 all
 * the same.
 *
 * 4.2.1: supported_versions must offer 0x0304, else the client is a TLS
 * 1.2 one: "If this extension is not present, servers which are
 * compliant with this specification and which also support TLS 1.2 MUST
 * negotiate TLS 1.2 or prior"; tlsx does not, so protocol_version.
 */
int server_check_versions(struct tlsx_hs *hs, const struct server_ch *h)
{
	struct tlsx_rd r, list;
	bool tls13 = false;
	u16 v;
	int ret;

	if (h->version <= TLSX_HS_VERSION_SSL3)
		return hs_refuse(hs, TLSX_ALERT_PROTOCOL_VERSION,
				 "legacy_version 0x0300 (SSL 3.0) or lower");
	if (!server_ch_has(h, TLSX_EXT_SUPPORTED_VERSIONS))
		return hs_refuse(hs, TLSX_ALERT_PROTOCOL_VERSION,
				 "the client does not offer TLS 1.3 (no supported_versions)");
	server_ch_body(h, TLSX_EXT_SUPPORTED_VERSIONS, &r);
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
	return tls13 ? 0 : hs_refuse(hs, TLSX_ALERT_PROTOCOL_VERSION,
				     "the client does not offer TLS 1.3");
}

/* 4.1.1: the first of our suites that the client offers. */
int server_pick_suite(struct tlsx_hs *hs, const struct server_ch *h,
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
	return hs_refuse(hs, TLSX_ALERT_HANDSHAKE_FAILURE,
			 "no cipher suite in common");
}

/* One bit per NamedGroup (a u16): 8 KiB, two on the stack for the walk. */
struct server_group_set {
	u64 bits[65536 / 64];
};

static bool server_set_test_and_add(struct server_group_set *s, u16 v)
{
	u64 bit = 1ull << (v % 64);
	bool had = s->bits[v / 64] & bit;

	s->bits[v / 64] |= bit;
	return had;
}

static bool server_set_has(const struct server_group_set *s, u16 v)
{
	return s->bits[v / 64] & (1ull << (v % 64));
}

/*
 * supported_groups and key_share (4.2.7, 4.2.8): the group to use and
 * the client's share for it, or the group to ask for in a
 * HelloRetryRequest.  A bitmap of the client's groups keeps the cost of
 * the checks linear in what the client sent, whatever it sent.
 *
 * Groups this server does not do are skipped wherever they are, shares
 * and all (4.2.8: "Servers ... MUST ignore" what they do not
 * recognise), and so are 4.2.7's obsolete_RESERVED values (0x0001 -
 * 0x0016, 0x001A - 0x001C, 0xFF01 - 0xFF02), the one rule for them: the
 * RFC says TLS 1.3 implementations "MUST NOT" offer them but names no
 * action for the server, and a client that also speaks TLS 1.2 lists
 * its TLS 1.2 curves in the one ClientHello; OpenSSL and BoringSSL
 * ignore them too.  So a usable group beside them gets a ServerHello
 * (or a HelloRetryRequest), none gets handshake_failure (no group in
 * common, 4.1.1), and a share for one that supported_groups does not
 * list is illegal_parameter like any such share.
 */
int server_read_groups(struct tlsx_hs *hs, const struct server_ch *h,
		   struct server_groups *g)
{
	struct server_group_set set[2], *groups = &set[0], *shared = &set[1];
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
	server_ch_body(h, TLSX_EXT_SUPPORTED_GROUPS, &r);
	/* NamedGroup named_group_list<2..2^16-1> */
	ret = tlsx_rd_open(&r, 2, 2, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		ret = tlsx_rd_u16(&list, &v);
		if (!ret)
			server_set_test_and_add(groups, v);
	}
	if (ret)
		return ret;

	server_ch_body(h, TLSX_EXT_KEY_SHARE, &r);
	/* KeyShareEntry client_shares<0..2^16-1> */
	ret = tlsx_rd_open(&r, 2, 0, 65535, &list);
	if (!ret)
		ret = tlsx_rd_done(&r);
	while (!ret && tlsx_rd_left(&list)) {
		/*
		 * NamedGroup group; opaque key_exchange<1..2^16-1>;
		 * an empty key_exchange is framed soundly but is no share
		 * of any group (4.2.8.1, 4.2.8.2 give each a fixed size):
		 * illegal_parameter, as a share of the wrong length for a
		 * group we do (tlsx_kx_shared()), not decode_error.
		 */
		ret = tlsx_rd_u16(&list, &v);
		if (!ret)
			ret = tlsx_rd_vec(&list, 2, 0, 65535, &share,
					  &share_len);
		if (ret)
			break;
		if (!share_len) {
			ret = hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
					"an empty key share");
			break;
		}
		/*
		 * 4.2.8: "Clients MUST NOT offer multiple KeyShareEntry
		 * values for the same group.  Clients MUST NOT offer any
		 * KeyShareEntry values for groups not listed in the
		 * client's "supported_groups" extension.  Servers MAY
		 * check for violations of these rules and abort the
		 * handshake with an "illegal_parameter" alert".
		 */
		if (server_set_test_and_add(shared, v)) {
			ret = hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
					"two key shares for one group");
			break;
		}
		if (!server_set_has(groups, v)) {
			ret = hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
					"a key share for a group not in supported_groups");
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
		if (!server_set_has(groups, v))
			continue;
		if (!g->retry)
			g->retry = v;
		if (!g->group && our_share[i]) {
			g->group = v;
			g->share = our_share[i];
			g->share_len = our_len[i];
		}
	}
	/*
	 * Our preference first when it is a post-quantum hybrid
	 * (X25519MLKEM768): a client that lists it but sent a classical
	 * share only is asked for it by HelloRetryRequest, a round trip
	 * against traffic recorded now and broken later; between classical
	 * groups a share in hand wins.  A client that does not list the
	 * hybrid (OpenSSL 3.0, GnuTLS) is never asked.
	 */
	if (g->group && g->retry != g->group && tlsx_group_is_pq(g->retry) &&
	    !tlsx_group_is_pq(g->group)) {
		g->group = 0;
		g->share = NULL;
		g->share_len = 0;
	}
	return 0;
}

/*
 * RFC 6066 3: HostName "contains the fully qualified DNS hostname of the
 * server ... represented as a byte string using ASCII encoding without
 * a trailing dot" (an IDN goes as its A-label, RFC 5890).  A DNS host
 * name (RFC 1123 2.1) is labels of 1 to 63 letters, digits and hyphens
 * joined by dots.  Taken besides: the underscore, which DNS names carry
 * in practice and clients send (such a name matches no certificate and
 * gets the default chain, as any unknown name); and one trailing dot,
 * dropped: "example.com." is the same name, which Go and curl strip
 * before sending and other clients do not.  The length without it is
 * returned in @len.  Anything else (control bytes, CR, LF, spaces,
 * quotes, backslashes, bytes over 0x7f) is refused: the name reaches
 * logs and tlsx_conn_info() only in this syntax.
 */
static bool server_host_name_ok(const u8 *name, size_t *len)
{
	size_t i, label = 0, n = *len;
	u8 c;

	if (n > 1 && name[n - 1] == '.')
		n--;
	for (i = 0; i < n; i++) {
		c = name[i];
		if (c == '.') {
			if (!label)
				return false;	/* an empty label */
			label = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_'))
			return false;
		if (++label > 63)
			return false;
	}
	if (!label)
		return false;
	*len = n;
	return true;
}

/*
 * server_name (RFC 6066 3): the host name, lower-cased into
 * hs->server_name, for server_pick_certificate() (no alert for a name we do
 * not know, as nginx's default server).  A name that is not a host name
 * (server_host_name_ok()) is illegal_parameter (8446 6.2: "A field in the
 * handshake was incorrectly formatted"): it is framed soundly, so not
 * decode_error, and is not merely unknown, so not unrecognized_name.
 */
int server_read_server_name(struct tlsx_hs *hs, const struct server_ch *h)
{
	struct tlsx_rd r, list;
	const u8 *name = NULL, *p;
	size_t name_len = 0, len, i;
	u8 type;
	int ret = 0;

	hs->server_name[0] = 0;
	if (!server_ch_has(h, TLSX_EXT_SERVER_NAME))
		return 0;
	server_ch_body(h, TLSX_EXT_SERVER_NAME, &r);
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
			return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
					 "two host names in server_name");
		name = p;
		name_len = len;
	}
	if (ret || !name)
		return ret;
	/* RFC 6066 3: a DNS host name, under 2^8 bytes. */
	if (name_len > TLSX_HS_MAX_NAME || !server_host_name_ok(name, &name_len))
		return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
				 "server_name is not a DNS host name");
	for (i = 0; i < name_len; i++)
		hs->server_name[i] = name[i] >= 'A' && name[i] <= 'Z' ?
				     name[i] - 'A' + 'a' : name[i];
	hs->server_name[name_len] = 0;
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
int server_read_alpn(struct tlsx_hs *hs, const struct server_ch *h)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	struct tlsx_rd r, list;
	const u8 *p;
	size_t len, best = cfg->alpn_len, off;
	int ret;

	hs->alpn[0] = 0;
	if (!server_ch_has(h, TLSX_EXT_ALPN))
		return 0;
	server_ch_body(h, TLSX_EXT_ALPN, &r);
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
		return hs_refuse(hs, TLSX_ALERT_NO_APPLICATION_PROTOCOL,
				 "no ALPN protocol in common");
	memcpy(hs->alpn, cfg->alpn + best + 1, cfg->alpn[best]);
	hs->alpn[cfg->alpn[best]] = 0;
	return 0;
}

/* --- the cookie ----------------------------------------------------------- */

static u8 server_cookie_key[32];
static int server_cookie_key_err;
static pthread_once_t server_cookie_once = PTHREAD_ONCE_INIT;

static void server_cookie_key_init(void)
{
	server_cookie_key_err = tlsx_random_bytes(server_cookie_key,
					      sizeof(server_cookie_key));
}

/* The cookie for ClientHello1's hash @ch1 (the format is above). */
static int server_cookie_make(struct tlsx_hs *hs, const u8 *ch1, u8 *out,
			  size_t *len)
{
	size_t n = 0;

	pthread_once(&server_cookie_once, server_cookie_key_init);
	if (server_cookie_key_err)
		return server_cookie_key_err;
	out[n++] = SV_COOKIE_FORMAT;
	put_unaligned_be16(hs->suite, out + n);
	n += 2;
	put_unaligned_be16(hs->srv.hrr_group, out + n);
	n += 2;
	out[n++] = (u8)hs->hash_len;
	memcpy(out + n, ch1, hs->hash_len);
	n += hs->hash_len;
	*len = n + SV_COOKIE_MAC;
	return tlsx_hmac(TLSX_HASH_SHA256, server_cookie_key,
			 sizeof(server_cookie_key), out, n, out + n);
}

/*
 * The cookie ClientHello2 returned: its MAC, then that it names our
 * suite, group and ClientHello1.  0 or illegal_parameter.
 */
static int server_cookie_check(struct tlsx_hs *hs, const struct server_ch *h)
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
	if (!server_ch_has(h, TLSX_EXT_COOKIE))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	server_ch_body(h, TLSX_EXT_COOKIE, &r);
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
	ret = server_cookie_make(hs, hs->srv.ch1_hash, want, &want_len);
	if (ret)
		return ret;
	/* The whole cookie (fields and MAC) in constant time. */
	if (len != want_len || !tlsx_ct_memeq(c, want, len))
		return TLSX_ALERT_ILLEGAL_PARAMETER;
	return 0;
}

/* ServerHello's and HelloRetryRequest's fixed fields (4.1.3). */
static void server_sh_head(struct tlsx_hs *hs, struct tlsx_wr *w,
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

static void server_supported_versions(struct tlsx_wr *w)
{
	/* 4.2.1: the server's answer is the one version selected. */
	server_ext_begin(w, TLSX_EXT_SUPPORTED_VERSIONS);
	tlsx_wr_u16(w, TLSX_HS_VERSION_13);
	tlsx_wr_close(w);
}

/*
 * HelloRetryRequest (4.1.4): the ServerHello format with the special
 * Random, asking for @hs->srv.hrr_group, with the cookie; ClientHello1
 * becomes message_hash in the transcript first (4.4.1).
 */
int server_send_hrr(struct tlsx_hs *hs, struct hs_out *o)
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
		ret = server_cookie_make(hs, hs->srv.ch1_hash, cookie, &c_len);
	}
	if (!ret)
		ret = tlsx_transcript_hrr(&hs->ts);
	if (ret)
		return ret;
	hs_msg_begin(hs, o, TLSX_HT_SERVER_HELLO, &w);
	server_sh_head(hs, &w, tlsx_hrr_random);
	server_ext_begin(&w, TLSX_EXT_KEY_SHARE);
	tlsx_wr_u16(&w, hs->srv.hrr_group);	/* selected_group */
	tlsx_wr_close(&w);
	server_ext_begin(&w, TLSX_EXT_COOKIE);
	tlsx_wr_vec(&w, 2, c, c_len);
	tlsx_wr_close(&w);
	server_supported_versions(&w);
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
int server_send_server_hello(struct tlsx_hs *hs, struct hs_out *o,
			 const struct server_groups *g, bool psk)
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
		ret = tlsx_kx_respond(kx, g->group, g->share, g->share_len,
				      hs_rand_cb, hs, dhe, &dhe_len);
		if (ret)
			goto out;
		hs->group = g->group;
		hs->n_shares = 1;
	}
	hs_msg_begin(hs, o, TLSX_HT_SERVER_HELLO, &w);
	server_sh_head(hs, &w, hs->random);
	if (psk) {
		server_ext_begin(&w, TLSX_EXT_PRE_SHARED_KEY);
		tlsx_wr_u16(&w, hs->srv.psk_identity);	/* selected_identity */
		tlsx_wr_close(&w);
	}
	if (g) {
		server_ext_begin(&w, TLSX_EXT_KEY_SHARE);
		tlsx_wr_u16(&w, kx->group);
		tlsx_wr_vec(&w, 2, kx->pub, tlsx_kx_pub_len(kx));
		tlsx_wr_close(&w);
	}
	server_supported_versions(&w);
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

/*
 * 4.1.2, the second ClientHello: "the client MUST send the same
 * ClientHello without modification, except as follows": key_share
 * replaced by one share for the selected group, early_data removed, the
 * cookie added, pre_shared_key updated (kept if present, not added),
 * padding changed.  Anything else
 * (and a second HelloRetryRequest, which would be needed if the share
 * were missing) is illegal_parameter.
 */
int server_check_second(struct tlsx_hs *hs, const struct server_ch *h,
		    const struct server_groups *g)
{
	int ret;

	if (!tlsx_ct_memeq(h->digest, hs->srv.ch1_digest, sizeof(h->digest)))
		return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
				 "the second ClientHello changes what 4.1.2 keeps");
	/* 4.2.8: "a new KeyShareEntry for the group indicated". */
	if (g->n_shares != 1 || g->share_group != hs->srv.hrr_group ||
	    g->group != hs->srv.hrr_group)
		return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
				 "the second ClientHello lacks the one key share asked for");
	/* 4.2.10: "A client MUST NOT include the "early_data" extension in
	 * its followup ClientHello."
	 */
	if (server_ch_has(h, TLSX_EXT_EARLY_DATA))
		return hs_refuse(hs, TLSX_ALERT_ILLEGAL_PARAMETER,
				 "early_data in the second ClientHello");
	ret = server_cookie_check(hs, h);
	if (ret == TLSX_ALERT_ILLEGAL_PARAMETER)
		hs_refuse(hs, ret, "the second ClientHello's cookie is not ours");
	return ret;
}

/*
 * The chain to send and its CertificateVerify scheme (4.4.2.2).  The
 * candidates are the chains whose leaf names hs->server_name, or every
 * chain when none does (no name, an unknown one: the first chain is the
 * default, the others follow it); among them, in configuration order,
 * the first whose key can sign a scheme the client offered (4.4.2.2:
 * the leaf's key "MUST be compatible with the selected authentication
 * algorithm from the client's "signature_algorithms" extension") and
 * whose certificates are all signed as @cert_algs allows ("All
 * certificates provided by the server MUST be signed by a signature
 * algorithm advertised by the client if it is able to provide such a
 * chain").  When no candidate satisfies the latter, the first with a
 * usable key is sent ("it SHOULD continue the handshake by sending the
 * client a certificate chain of its choice").  No usable key at all:
 * handshake_failure.  A chain for another name is never sent to a
 * client whose name some chain matched.
 *
 * 9.2: "If not containing a "pre_shared_key" extension, it MUST contain
 * both a "signature_algorithms" extension and a "supported_groups"
 * extension"; the same holds for a PSK we do not take.
 */
int server_pick_certificate(struct tlsx_hs *hs, const struct server_ch *h,
			const u16 *peer, unsigned int n_peer,
			unsigned int cert_algs)
{
	const struct tlsx_hs_config *cfg = hs->cfg;
	const char *name = hs->server_name[0] ? hs->server_name : NULL;
	unsigned int i, n = cfg->n_chains < TLSX_HS_MAX_CHAINS ?
			    cfg->n_chains : TLSX_HS_MAX_CHAINS;
	struct hs_chain_choice pick;
	u32 named = 0;

	if (!server_ch_has(h, TLSX_EXT_SIGNATURE_ALGORITHMS))
		return hs_refuse(hs, TLSX_ALERT_MISSING_EXTENSION,
				 "no signature_algorithms (and no PSK taken)");
	if (!server_ch_has(h, TLSX_EXT_SUPPORTED_GROUPS))
		return hs_refuse(hs, TLSX_ALERT_MISSING_EXTENSION,
				 "no supported_groups (and no PSK taken)");
	hs->srv.chain = NULL;
	hs->own_sig_scheme = 0;
	/* A server configured without a certificate: ours to fix. */
	if (!n)
		return hs_refuse(hs, -EINVAL, "no certificate configured");
	for (i = 0; i < n; i++)
		if (tlsx_cert_chain_matches(cfg->chains[i], name))
			named |= 1u << i;
	/* No chain names it: every chain is a candidate. */
	hs_pick_chain(hs, cfg->chains, n, named ? named : ~0u, peer, n_peer,
		      cert_algs, &pick);
	/* Signed otherwise than asked, it goes all the same (above). */
	if (!pick.chain)
		return hs_refuse(hs, TLSX_ALERT_HANDSHAKE_FAILURE,
				 "no signature scheme in common for the certificate");
	hs->srv.chain = pick.chain;
	hs->own_sig_scheme = pick.scheme;
	return 0;
}
