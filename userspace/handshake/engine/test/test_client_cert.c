// SPDX-License-Identifier: GPL-2.0
/*
 * test_client_cert.c - which chain a client with several answers a
 * CertificateRequest with (RFC 8446 4.3.2, 4.4.2.2, 4.2.4), and the
 * peer's chain kept by the engine (keep_peer_chain, tlsx_hs_peer_cert()):
 *
 *  - tlsx client against tlsx server in memory, the client holding an
 *    ECDSA P-256 and an RSA-2048 chain: a request listing ECDSA only
 *    gets the ECDSA chain, RSA-PSS only the RSA chain, whichever comes
 *    first in the client's configuration; a request whose schemes no
 *    chain's key signs (Ed25519) gets an empty Certificate, which the
 *    server takes or refuses (certificate_required) as configured;
 *    certificate_authorities (the server's anchors) picks the chain
 *    issued under them, and naming none of ours gets an empty
 *    Certificate;
 *  - the request read directly (client_certificate_request()):
 *    signature_algorithms_cert decides between chains both keys fit,
 *    none fitting is an empty Certificate (no fallback, unlike the
 *    server); without it signature_algorithms is a preference, with
 *    the first usable key as the fallback; certificate_authorities
 *    matches the issuer of any certificate of a chain; malformed lists
 *    are decode_error;
 *  - resumption (issue 26 item 3): both ends report the verdict of the
 *    handshake that made the session and have no chain; a ticket is
 *    declined once the server trusts other CAs for clients; a session
 *    made without verifying the server is not offered by a verifying
 *    client (and is, by one that does not verify);
 *  - the kept chain: the server's certificates on the client, the
 *    client's on the server, byte for byte as sent, none without
 *    keep_peer_chain or without a chain.
 * All in memory: about a second.
 */
#include <time.h>

#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/client_impl.h"
#include "handshake/engine/test/cr_test.h"
#include "handshake/engine/test/hs_pair_test.h"
#include "handshake/engine/test/test_data.h"
#include "handshake/engine/ticket.h"

#define NAME "www.example.com"

/* Concatenates the PEM files @names (NULL-terminated) into *@len bytes. */
static char *cat(const char *const *names, size_t *len)
{
	char *all = NULL, *one, *grown;
	size_t n, total = 0;

	for (; *names; names++) {
		one = slurp_data(*names, &n);
		grown = one ? realloc(all, total + n + 1) : NULL;
		if (!grown) {
			free(one);
			free(all);
			return NULL;
		}
		all = grown;
		memcpy(all + total, one, n);
		total += n;
		free(one);
	}
	*len = total;
	return all;
}

static int load_trust(struct tlsx_trust *t, const char *const *roots)
{
	size_t len;
	char *pem = cat(roots, &len);
	int ret = pem ? tlsx_trust_load_mem(t, pem, len, NULL) : -1;

	free(pem);
	return ret;
}

/* Our chains, loaded once. */
enum { C_P256, C_RSA, S_P256, S_RSA, S_ED25519, N_CHAINS };
static struct tlsx_cert_chain chains[N_CHAINS];

static int load_all(void)
{
	static bool done;

	if (done)
		return 0;
	if (load_chain(&chains[C_P256], "client-leaf.pem", "p256-int.pem",
		       "p256-leaf.key") ||
	    load_chain(&chains[C_RSA], "rsa-leaf.pem", "rsa-int.pem",
		       "rsa-leaf.key") ||
	    load_chain(&chains[S_P256], "p256-leaf.pem", "p256-int.pem",
		       "p256-leaf.key") ||
	    load_chain(&chains[S_RSA], "rsa-leaf.pem", "rsa-int.pem",
		       "rsa-leaf.key") ||
	    load_chain(&chains[S_ED25519], "ed25519-leaf.pem",
		       "ed25519-int.pem", "ed25519-leaf.key"))
		return -1;
	done = true;
	return 0;
}

static const u8 *leaf_der(int which, size_t *len)
{
	*len = chains[which].len[0];
	return chains[which].der + chains[which].off[0];
}

/* --- tlsx client against tlsx server --------------------------------- */

static struct pair pair;

/*
 * The server: the three server chains (so that any scheme list has a
 * chain of its own to sign with), @schemes its signature_algorithms and
 * the CertificateRequest's, @roots its anchors (the request's
 * certificate_authorities).  The client: @c1, @c2 (-1: none) in that
 * order, trusting the three roots.
 */
static int pair_setup(struct pair *p, const u16 *schemes, unsigned int n,
		      const char *const *roots, bool require, int c1, int c2)
{
	static const char *const all_roots[] = {
		"p256-root.pem", "rsa-root.pem", "ed25519-root.pem", NULL
	};
	unsigned int i;

	memset(p, 0, sizeof(*p));
	if (load_all() || load_trust(&p->ctrust, all_roots) ||
	    load_trust(&p->strust, roots))
		return -1;
	p->scfg.server = true;
	p->scfg.chains[0] = &chains[S_P256];
	p->scfg.chains[1] = &chains[S_RSA];
	p->scfg.chains[2] = &chains[S_ED25519];
	p->scfg.n_chains = 3;
	for (i = 0; i < n; i++)
		p->scfg.sig_schemes[i] = schemes[i];
	p->scfg.n_sig_schemes = n;
	p->scfg.trust = &p->strust;
	p->scfg.verify_peer = true;
	p->scfg.require_peer_cert = require;
	p->scfg.keep_peer_chain = true;
	p->ccfg.trust = &p->ctrust;
	p->ccfg.keep_peer_chain = true;
	if (c1 >= 0)
		p->ccfg.chains[p->ccfg.n_chains++] = &chains[c1];
	if (c2 >= 0)
		p->ccfg.chains[p->ccfg.n_chains++] = &chains[c2];
	p->s = tlsx_hs_new(&p->scfg);
	p->c = tlsx_hs_new(&p->ccfg);
	if (!p->s || !p->c)
		return -1;
	return tlsx_hs_set_server_name(p->c, NAME);
}

static const char *const p256_root[] = { "p256-root.pem", NULL };
static const char *const rsa_root[] = { "rsa-root.pem", NULL };
static const char *const ed_root[] = { "ed25519-root.pem", NULL };
static const char *const both_roots[] = {
	"p256-root.pem", "rsa-root.pem", NULL
};

static const u16 ecdsa_only[] = { TLSX_SIG_ECDSA_SECP256R1_SHA256 };
static const u16 rsa_pss_only[] = { TLSX_SIG_RSA_PSS_RSAE_SHA256 };
static const u16 ed25519_only[] = { TLSX_SIG_ED25519 };

FIXTURE(choice) {
};

FIXTURE_VARIANT(choice) {
	const u16 *schemes;	/* NULL: every one */
	unsigned int n_schemes;
	const char *const *roots;
	int c1, c2;		/* the client's chains, in order */
	int want;		/* the chain the server got; -1: none */
	u16 scheme;		/* the client's CertificateVerify */
};

FIXTURE_VARIANT_ADD(choice, ecdsa_request_rsa_first) {
	.schemes = ecdsa_only, .n_schemes = 1, .roots = both_roots,
	.c1 = C_RSA, .c2 = C_P256, .want = C_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(choice, ecdsa_request_ecdsa_first) {
	.schemes = ecdsa_only, .n_schemes = 1, .roots = both_roots,
	.c1 = C_P256, .c2 = C_RSA, .want = C_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(choice, rsa_pss_request_ecdsa_first) {
	.schemes = rsa_pss_only, .n_schemes = 1, .roots = both_roots,
	.c1 = C_P256, .c2 = C_RSA, .want = C_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
/*
 * tlsx's default request lists no rsa_pkcs1_*: the RSA chain (PKCS#1
 * signatures) fits less well than the ECDSA one, which goes though
 * second; asked for RSA-PSS only, the RSA chain goes all the same.
 */
FIXTURE_VARIANT_ADD(choice, any_request_prefers_the_fitting_chain) {
	.roots = both_roots, .c1 = C_RSA, .c2 = C_P256, .want = C_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(choice, ed25519_request_none_fits) {
	.schemes = ed25519_only, .n_schemes = 1, .roots = both_roots,
	.c1 = C_P256, .c2 = C_RSA, .want = -1 };
/* 4.2.4: the anchors' names; the chain under them, not the first. */
FIXTURE_VARIANT_ADD(choice, authorities_rsa_root) {
	.roots = rsa_root, .c1 = C_P256, .c2 = C_RSA, .want = C_RSA,
	.scheme = TLSX_SIG_RSA_PSS_RSAE_SHA256 };
FIXTURE_VARIANT_ADD(choice, authorities_p256_root) {
	.roots = p256_root, .c1 = C_RSA, .c2 = C_P256, .want = C_P256,
	.scheme = TLSX_SIG_ECDSA_SECP256R1_SHA256 };
FIXTURE_VARIANT_ADD(choice, authorities_name_none_of_ours) {
	.roots = ed_root, .c1 = C_P256, .c2 = C_RSA, .want = -1 };
/* Both filters at once: the RSA root, ECDSA only: nothing fits. */
FIXTURE_VARIANT_ADD(choice, authorities_and_schemes_disagree) {
	.schemes = ecdsa_only, .n_schemes = 1, .roots = rsa_root,
	.c1 = C_P256, .c2 = C_RSA, .want = -1 };
FIXTURE_VARIANT_ADD(choice, no_chain_configured) {
	.roots = both_roots, .c1 = -1, .c2 = -1, .want = -1 };

FIXTURE_SETUP(choice)
{
}

FIXTURE_TEARDOWN(choice)
{
	pair_free(&pair);
}

TEST_F(choice, chain_for_the_request)
{
	struct tlsx_hs_info info;
	const u8 *der, *want;
	size_t len, want_len;

	ASSERT_EQ(0, pair_setup(&pair, variant->schemes, variant->n_schemes,
				variant->roots, false, variant->c1,
				variant->c2));
	pair_run(&pair);
	ASSERT_EQ(TLSX_HS_DONE, pair.cret)
		TH_LOG("client alert %d", tlsx_hs_alert(pair.c));
	ASSERT_EQ(TLSX_HS_DONE, pair.sret)
		TH_LOG("server alert %d", tlsx_hs_alert(pair.s));
	EXPECT_TRUE(pair.c->cert_requested);
	ASSERT_EQ(0, tlsx_hs_get_info(pair.s, &info));
	if (variant->want < 0) {
		EXPECT_FALSE(info.peer_cert);
		EXPECT_EQ(0, info.sig_scheme);
		EXPECT_EQ(0, pair.c->own_sig_scheme);
		EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.s, 0, &der, &len));
		return;
	}
	EXPECT_TRUE(info.peer_cert);
	EXPECT_EQ(variant->scheme, info.sig_scheme);
	EXPECT_EQ(variant->scheme, pair.c->own_sig_scheme);
	ASSERT_EQ(0, tlsx_hs_peer_cert(pair.s, 0, &der, &len));
	want = leaf_der(variant->want, &want_len);
	ASSERT_EQ(want_len, len);
	EXPECT_EQ(0, memcmp(want, der, len));
}

/* 4.4.2.4: the server decides on an empty Certificate; this one refuses. */
TEST(none_fits_server_requires)
{
	ASSERT_EQ(0, pair_setup(&pair, ed25519_only, 1, both_roots, true,
				C_P256, C_RSA));
	pair_run(&pair);
	EXPECT_EQ(-TLSX_HS_EALERT(TLSX_ALERT_CERTIFICATE_REQUIRED), pair.sret);
	EXPECT_EQ(TLSX_ALERT_CERTIFICATE_REQUIRED, tlsx_hs_alert(pair.s));
	pair_free(&pair);
}

/* --- resumption and authentication (issue 26 item 3) ---------------- */

static struct tlsx_ticket_keys *tk;

/*
 * The pair as pair_setup() makes it (the client's P-256 chain, the
 * server requiring one under @roots), with tickets; @insecure: the
 * client does not verify the server.
 */
static int auth_pair(const char *const *roots, bool insecure)
{
	if (!tk)
		tk = tlsx_ticket_keys_new(0, time(NULL));
	if (!tk || pair_setup(&pair, NULL, 0, roots, true, C_P256, -1))
		return -1;
	pair.scfg.tickets = tk;
	pair.scfg.tickets_per_handshake = 1;
	if (insecure) {
		pair.ccfg.trust = NULL;
		pair.ccfg.insecure = true;
	}
	return 0;
}

/* A full handshake of auth_pair(@roots, @insecure); its session. */
static int auth_session(const char *const *roots, bool insecure,
			struct tlsx_session *s)
{
	static u8 nst[4096];
	struct tlsx_hs_secrets cs;
	size_t len;
	int ret;

	if (auth_pair(roots, insecure))
		return -1;
	pair_run(&pair);
	ret = pair.cret || pair.sret ||
	      tlsx_hs_tickets(pair.s, nst, sizeof(nst), &len) ||
	      tlsx_hs_secrets(pair.c, &cs) ? -1 : 0;
	if (!ret)
		ret = tlsx_session_from_ticket(&cs, NAME, NULL, nst, len,
					       time(NULL), s);
	tlsx_hs_secrets_wipe(&cs);
	pair_free(&pair);
	return ret;
}

/* The second connection, offering @s. */
static void auth_resume(struct __test_metadata *_metadata,
			const char *const *roots, bool insecure,
			struct tlsx_session *s, struct tlsx_hs_info *ci,
			struct tlsx_hs_info *si)
{
	ASSERT_EQ(0, auth_pair(roots, insecure));
	ASSERT_EQ(0, tlsx_hs_set_session(pair.c, s));
	tlsx_session_wipe(s);
	pair_run(&pair);
	ASSERT_EQ(TLSX_HS_DONE, pair.cret);
	ASSERT_EQ(TLSX_HS_DONE, pair.sret);
	ASSERT_EQ(0, tlsx_hs_get_info(pair.c, ci));
	ASSERT_EQ(0, tlsx_hs_get_info(pair.s, si));
}

static void auth_done(void)
{
	pair_free(&pair);
	tlsx_ticket_keys_free(tk);
	tk = NULL;
}

/*
 * The same configurations: resumed, and both ends say the peer was
 * verified (in the handshake that made the session), though neither
 * has its chain (none is sent, RFC 8446 2.2; tickets do not keep it).
 */
TEST(resumed_both_ends_report_verified_peer)
{
	struct tlsx_hs_info ci, si;
	struct tlsx_session s;
	const u8 *der;
	size_t len;

	ASSERT_EQ(0, auth_session(p256_root, false, &s));
	EXPECT_TRUE(s.peer_cert);
	auth_resume(_metadata, p256_root, false, &s, &ci, &si);
	EXPECT_TRUE(ci.resumed);
	EXPECT_TRUE(si.resumed);
	EXPECT_TRUE(ci.peer_cert);
	EXPECT_TRUE(si.peer_cert);
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.c, 0, &der, &len));
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.s, 0, &der, &len));
	auth_done();
}

/*
 * The server now trusts another set of CAs for client certificates:
 * the ticket's context differs, so a full handshake verifies the client
 * against the new set.
 */
TEST(ticket_declined_after_client_ca_change)
{
	struct tlsx_hs_info ci, si;
	struct tlsx_session s;

	ASSERT_EQ(0, auth_session(p256_root, false, &s));
	auth_resume(_metadata, both_roots, false, &s, &ci, &si);
	EXPECT_FALSE(si.resumed);
	EXPECT_FALSE(ci.resumed);
	EXPECT_TRUE(si.peer_cert);
	EXPECT_TRUE(pair.c->psk_offered);
	auth_done();
}

/*
 * A session made with verification off records that the server was not
 * verified, and a verifying client does not offer it: a full handshake
 * verifies the server.
 */
TEST(unverified_session_not_offered_when_verifying)
{
	struct tlsx_hs_info ci, si;
	struct tlsx_session s;

	ASSERT_EQ(0, auth_session(p256_root, true, &s));
	EXPECT_FALSE(s.peer_cert);
	auth_resume(_metadata, p256_root, false, &s, &ci, &si);
	EXPECT_FALSE(pair.c->psk_offered);
	EXPECT_FALSE(ci.resumed);
	EXPECT_TRUE(ci.peer_cert);
	auth_done();
}

/* The same session is offered (and resumes) with verification off. */
TEST(unverified_session_offered_when_not_verifying)
{
	struct tlsx_hs_info ci, si;
	struct tlsx_session s;

	ASSERT_EQ(0, auth_session(p256_root, true, &s));
	auth_resume(_metadata, p256_root, true, &s, &ci, &si);
	EXPECT_TRUE(ci.resumed);
	EXPECT_FALSE(ci.peer_cert);
	auth_done();
}

/* --- the kept chain --------------------------------------------------- */

TEST(peer_chain_both_ways)
{
	const struct tlsx_cert_chain *sent = &chains[S_P256];
	struct tlsx_peer_chain *pc;
	const u8 *der;
	size_t len, i;

	ASSERT_EQ(0, pair_setup(&pair, ecdsa_only, 1, both_roots, true,
				C_P256, -1));
	/* Nothing before the server's Certificate. */
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.c, 0, &der, &len));
	pair_run(&pair);
	ASSERT_EQ(TLSX_HS_DONE, pair.cret);
	ASSERT_EQ(TLSX_HS_DONE, pair.sret);
	/* The client has the server's two certificates as they were sent. */
	for (i = 0; i < sent->n; i++) {
		ASSERT_EQ(0, tlsx_hs_peer_cert(pair.c, i, &der, &len));
		ASSERT_EQ(sent->len[i], len);
		EXPECT_EQ(0, memcmp(sent->der + sent->off[i], der, len));
	}
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.c, sent->n, &der, &len));
	/* The server the client's. */
	sent = &chains[C_P256];
	ASSERT_EQ(0, tlsx_hs_peer_cert(pair.s, 1, &der, &len));
	ASSERT_EQ(sent->len[1], len);
	EXPECT_EQ(0, memcmp(sent->der + sent->off[1], der, len));
	/* Taken: the caller owns it, the engine has none left. */
	pc = tlsx_hs_take_peer_chain(pair.c);
	ASSERT_NE(NULL, pc);
	EXPECT_EQ(2, pc->n);
	EXPECT_EQ(sizeof(*pc) + chains[S_P256].der_len,
		  tlsx_peer_chain_size(pc));
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.c, 0, &der, &len));
	EXPECT_EQ(NULL, tlsx_hs_take_peer_chain(pair.c));
	ASSERT_EQ(0, tlsx_peer_chain_cert(pc, 0, &der, &len));
	EXPECT_EQ(chains[S_P256].len[0], len);
	EXPECT_EQ(-ENOENT, tlsx_peer_chain_cert(pc, 2, &der, &len));
	EXPECT_EQ(-ENOENT, tlsx_peer_chain_cert(NULL, 0, &der, &len));
	tlsx_peer_chain_free(pc);
	pair_free(&pair);
}

/* Off by default in the engine: checked where it lies, nothing kept. */
TEST(peer_chain_not_kept_by_default)
{
	const u8 *der;
	size_t len;

	ASSERT_EQ(0, pair_setup(&pair, NULL, 0, both_roots, true, C_P256,
				-1));
	pair.ccfg.keep_peer_chain = false;
	pair.scfg.keep_peer_chain = false;
	pair_run(&pair);
	ASSERT_EQ(TLSX_HS_DONE, pair.cret);
	ASSERT_EQ(TLSX_HS_DONE, pair.sret);
	EXPECT_TRUE(pair.c->peer_cert);
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.c, 0, &der, &len));
	EXPECT_EQ(-ENOENT, tlsx_hs_peer_cert(pair.s, 0, &der, &len));
	EXPECT_EQ(NULL, tlsx_hs_take_peer_chain(pair.s));
	pair_free(&pair);
}

/* tlsx_hs_mem_peak() owns up to the copy. */
TEST(mem_peak_counts_the_copy)
{
	struct tlsx_hs_config cfg = { 0 };
	size_t without = tlsx_hs_mem_peak(&cfg);

	cfg.keep_peer_chain = true;
	EXPECT_EQ(without + sizeof(struct tlsx_peer_chain) +
		  TLSX_HS_DEFAULT_MAX_MSG, tlsx_hs_mem_peak(&cfg));
	EXPECT_EQ(tlsx_hs_mem_size(&cfg), tlsx_hs_mem_size(&(struct tlsx_hs_config){ 0 }));
}

/* --- the CertificateRequest read directly ----------------------------- */

/* A CertificateRequest with the given extension bodies (NULL: absent). */
static size_t cr_build(u8 *buf, size_t cap, const u8 *sigs, size_t sigs_len,
		       const u8 *cert_sigs, size_t cert_len, const u8 *cas,
		       size_t cas_len)
{
	const struct cr_ext exts[] = {
		{ 13, sigs, sigs_len },		/* signature_algorithms */
		{ 50, cert_sigs, cert_len },	/* signature_algorithms_cert */
		{ 47, cas, cas_len },		/* certificate_authorities */
	};

	return cr_build_exts(buf, cap, exts, 3);
}

/* A client holding @c1 then @c2, fed the request; the alert or 0. */
static int cr_feed_order(const u8 *msg, size_t len, int c1, int c2,
			 struct tlsx_hs **out)
{
	static struct tlsx_hs_config cfg;

	*out = NULL;
	if (load_all())
		return -1;
	memset(&cfg, 0, sizeof(cfg));
	cfg.insecure = true;
	cfg.chains[0] = &chains[c1];
	cfg.chains[1] = &chains[c2];
	cfg.n_chains = 2;
	*out = tlsx_hs_new(&cfg);
	if (!*out)
		return -1;
	return client_certificate_request(*out, msg, len);
}

static int cr_feed(const u8 *msg, size_t len, struct tlsx_hs **out)
{
	return cr_feed_order(msg, len, C_P256, C_RSA, out);
}

/* signature_algorithms: ECDSA and RSA-PSS, so both keys fit. */
static const u8 both_sigs[] = { 0x00, 0x04, 0x04, 0x03, 0x08, 0x04 };

FIXTURE(cert_sigs) {
	struct tlsx_hs *hs;
};

FIXTURE_VARIANT(cert_sigs) {
	u8 list[4];		/* signature_algorithms_cert's body */
	int want;		/* -1: none */
};

/* The RSA chain is signed sha256WithRSAEncryption, the P-256 ECDSA. */
FIXTURE_VARIANT_ADD(cert_sigs, rsa_pkcs1_takes_rsa) {
	.list = { 0x00, 0x02, 0x04, 0x01 }, .want = C_RSA };
FIXTURE_VARIANT_ADD(cert_sigs, ecdsa_takes_p256) {
	.list = { 0x00, 0x02, 0x04, 0x03 }, .want = C_P256 };
FIXTURE_VARIANT_ADD(cert_sigs, ed25519_takes_none) {
	.list = { 0x00, 0x02, 0x08, 0x07 }, .want = -1 };

FIXTURE_SETUP(cert_sigs)
{
	self->hs = NULL;
}

FIXTURE_TEARDOWN(cert_sigs)
{
	tlsx_hs_free(self->hs);
}

TEST_F(cert_sigs, signature_algorithms_cert_decides)
{
	u8 msg[256];
	size_t len = cr_build(msg, sizeof(msg), both_sigs, sizeof(both_sigs),
			      variant->list, sizeof(variant->list), NULL, 0);

	ASSERT_NE(0, len);
	ASSERT_EQ(0, cr_feed(msg, len, &self->hs));
	EXPECT_TRUE(self->hs->cert_requested);
	if (variant->want < 0) {
		EXPECT_EQ(NULL, self->hs->own_chain);
		EXPECT_EQ(0, self->hs->own_sig_scheme);
		return;
	}
	EXPECT_EQ(&chains[variant->want], self->hs->own_chain);
}

/*
 * Without signature_algorithms_cert, signature_algorithms (4.2.3): a
 * chain it allows is preferred, RSA first or not; none allowed, the
 * first whose key fits goes (client_pick_chain()).
 */
TEST(cert_sigs_default_to_signature_algorithms)
{
	static const u8 rsa_only[] = { 0x00, 0x02, 0x08, 0x04 };
	struct tlsx_hs *hs;
	u8 msg[256];
	size_t len = cr_build(msg, sizeof(msg), both_sigs, sizeof(both_sigs),
			      NULL, 0, NULL, 0);

	/* rsa_pss_rsae_sha256 allows PSS, not the RSA chain's PKCS#1. */
	ASSERT_EQ(0, cr_feed_order(msg, len, C_RSA, C_P256, &hs));
	EXPECT_EQ(&chains[C_P256], hs->own_chain);
	tlsx_hs_free(hs);
	len = cr_build(msg, sizeof(msg), rsa_only, sizeof(rsa_only), NULL, 0,
		       NULL, 0);
	ASSERT_EQ(0, cr_feed_order(msg, len, C_P256, C_RSA, &hs));
	EXPECT_EQ(&chains[C_RSA], hs->own_chain);
	EXPECT_EQ(TLSX_SIG_RSA_PSS_RSAE_SHA256, hs->own_sig_scheme);
	tlsx_hs_free(hs);
}

/* The intermediate's issuer (the root's name) counts as well as the leaf's. */
TEST(authorities_match_any_issuer_in_the_chain)
{
	const struct tlsx_cert_chain *rsa = &chains[C_RSA];
	u8 cas[512], msg[1024];
	struct tlsx_wr w;
	struct tlsx_hs *hs;
	size_t cas_len, len, i;

	ASSERT_EQ(0, load_all());
	for (i = 0; i < rsa->n; i++) {
		tlsx_wr_init(&w, cas, sizeof(cas));
		tlsx_wr_open(&w, 2);
		tlsx_wr_vec(&w, 2, rsa->der + rsa->issuer_off[i],
			    rsa->issuer_len[i]);
		tlsx_wr_close(&w);
		ASSERT_EQ(0, tlsx_wr_finish(&w, &cas_len));
		len = cr_build(msg, sizeof(msg), both_sigs, sizeof(both_sigs),
			       NULL, 0, cas, cas_len);
		ASSERT_EQ(0, cr_feed(msg, len, &hs));
		EXPECT_EQ(rsa, hs->own_chain);
		EXPECT_EQ(TLSX_SIG_RSA_PSS_RSAE_SHA256, hs->own_sig_scheme);
		tlsx_hs_free(hs);
	}
}

TEST(malformed_lists_are_decode_error)
{
	static const u8 empty_list[] = { 0x00, 0x00 };
	static const u8 short_dn[] = { 0x00, 0x03, 0x00, 0x05, 0x30 };
	static const u8 empty_dn[] = { 0x00, 0x03, 0x00, 0x00, 0x30 };
	static const u8 odd_sigs[] = { 0x00, 0x03, 0x04, 0x03, 0x08 };
	static const u8 trailing[] = { 0x00, 0x02, 0x04, 0x03, 0x00 };
	const struct {
		const u8 *cert_sigs, *cas;
		size_t cert_len, cas_len;
	} bad[] = {
		{ .cas = empty_list, .cas_len = sizeof(empty_list) },
		{ .cas = short_dn, .cas_len = sizeof(short_dn) },
		{ .cas = empty_dn, .cas_len = sizeof(empty_dn) },
		{ .cert_sigs = odd_sigs, .cert_len = sizeof(odd_sigs) },
		{ .cert_sigs = trailing, .cert_len = sizeof(trailing) },
	};
	struct tlsx_hs *hs;
	u8 msg[256];
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		len = cr_build(msg, sizeof(msg), both_sigs, sizeof(both_sigs),
			       bad[i].cert_sigs, bad[i].cert_len, bad[i].cas,
			       bad[i].cas_len);
		ASSERT_NE(0, len);
		EXPECT_EQ(TLSX_ALERT_DECODE_ERROR, cr_feed(msg, len, &hs))
			TH_LOG("case %zu", i);
		tlsx_hs_free(hs);
	}
}

TEST_HARNESS_MAIN
