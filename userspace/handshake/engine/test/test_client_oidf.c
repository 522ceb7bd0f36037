// SPDX-License-Identifier: GPL-2.0
/*
 * test_client_oidf.c - a CertificateRequest's oid_filters (RFC 8446
 * 4.2.5) in the client's choice of chain (client_pick_chain(),
 * oid_filter.c):
 *
 *  - the request read directly (client_certificate_request()), the
 *    client holding chains whose leaves differ in keyUsage and
 *    extendedKeyUsage only (test/data, tools/gen/hs-certs): an EKU
 *    filter picks the clientAuth chain over one without, in any of the
 *    value forms read; two purposes need both; keyUsage bits likewise;
 *    a filter names an extension the leaf must have; an unrecognised
 *    OID is skipped, its values unread; several filters must all hold;
 *    no chain matching is an empty Certificate;
 *  - malformed lists: decode_error for framing, an empty or malformed
 *    OID, values of a recognised OID that are not its DER;
 *    illegal_parameter for one OID twice and for anyExtendedKeyUsage;
 *    checked with no chain configured too;
 *  - tlsx client against tlsx server in memory, the server adding
 *    oid_filters through the cr_exts test hook: without it the client
 *    sends its first chain (serverAuth only) and the server refuses it;
 *    asked for clientAuth, the client sends the chain that has it.
 * All in memory: well under a second.
 */
#include "kselftest_harness.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/client_impl.h"
#include "handshake/engine/test/cr_test.h"
#include "handshake/engine/test/hs_pair_test.h"
#include "handshake/engine/test/test_data.h"

/*
 * The client's chains, all P-256 under p256-int, told apart by their
 * leaves' keyUsage (KU) and extendedKeyUsage (EKU):
 *   C_CLIENT  KU digitalSignature, EKU clientAuth
 *   C_SERVER  KU digitalSignature, EKU serverAuth
 *   C_BOTH    KU digitalSignature, EKU serverAuth clientAuth
 *   C_MULTI   KU digitalSignature nonRepudiation,
 *             EKU clientAuth emailProtection
 *   C_PLAIN   neither extension
 * S_P256, the server's.
 */
enum { C_CLIENT, C_SERVER, C_BOTH, C_MULTI, C_PLAIN, S_P256, N_CHAINS };
static struct tlsx_cert_chain chains[N_CHAINS];

static int load_all(void)
{
	static const char *const leaves[N_CHAINS] = {
		[C_CLIENT] = "client-leaf.pem",
		[C_SERVER] = "alt-p256-leaf.pem",
		[C_BOTH] = "p256-leaf.pem",
		[C_MULTI] = "multi-leaf.pem",
		[C_PLAIN] = "plain-leaf.pem",
		[S_P256] = "p256-leaf.pem",
	};
	static bool done;
	unsigned int i;

	/* All with the p256 leaf's key, under p256-int. */
	for (i = 0; !done && i < N_CHAINS; i++)
		if (load_chain(&chains[i], leaves[i], "p256-int.pem",
			       "p256-leaf.key"))
			return -1;
	done = true;
	return 0;
}

/* --- the filters ------------------------------------------------------ */

/* The filters' OIDs: 2.5.29.37 EKU, 2.5.29.15 KU, as contents or whole. */
static const u8 eku[] = { 0x55, 0x1d, 0x25 };
static const u8 eku_whole[] = { 0x06, 0x03, 0x55, 0x1d, 0x25 };
static const u8 ku[] = { 0x55, 0x1d, 0x0f };
static const u8 ku_whole[] = { 0x06, 0x03, 0x55, 0x1d, 0x0f };
/* 2.5.29.32 certificatePolicies: not recognised. */
static const u8 policies[] = { 0x55, 0x1d, 0x20 };

/*
 * EKU values: ExtKeyUsageSyntax SEQUENCEs or bare KeyPurposeIds, of
 * 1.3.6.1.5.5.7.3.{1,2,4} id-kp-serverAuth, clientAuth, emailProtection
 * (06 08 2b 06 01 05 05 07 03 0x).
 */
static const u8 seq_client[] = {
	0x30, 0x0a, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02
};
static const u8 seq_server[] = {
	0x30, 0x0a, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01
};
static const u8 bare_client[] = {
	0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02
};
static const u8 seq_client_email[] = {
	0x30, 0x14, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02,
	0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x04
};
static const u8 bare_email_seq_client[] = {
	0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x04,
	0x30, 0x0a, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02
};
static const u8 seq_server_client[] = {
	0x30, 0x14, 0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x01,
	0x06, 0x08, 0x2b, 0x06, 0x01, 0x05, 0x05, 0x07, 0x03, 0x02
};
/* KU values: BIT STRINGs, bit 0 (digitalSignature) the top one. */
static const u8 ku_ds[] = { 0x03, 0x02, 0x07, 0x80 };
static const u8 ku_nr[] = { 0x03, 0x02, 0x06, 0x40 };
static const u8 ku_ds_nr[] = { 0x03, 0x02, 0x06, 0xc0 };
static const u8 ku_ka[] = { 0x03, 0x02, 0x03, 0x08 };	/* keyAgreement */
static const u8 ku_ds_bit16[] = { 0x03, 0x04, 0x07, 0x80, 0x00, 0x80 };
static const u8 ku_ds_then_nr[] = {
	0x03, 0x02, 0x07, 0x80, 0x03, 0x02, 0x06, 0x40
};
/* What an unrecognised OID's values may be: anything, unread. */
static const u8 not_der[] = { 0xff, 0xff, 0x00 };

struct filt {
	const u8 *oid, *v;
	size_t oid_len, v_len;
};

#define FILT(o, val)	{ .oid = o, .oid_len = sizeof(o), \
			  .v = val, .v_len = sizeof(val) }
#define FILT_EMPTY(o)	{ .oid = o, .oid_len = sizeof(o) }

/* oid_filters' body from @n filters: its length, 0 when it does not fit. */
static size_t filters_build(u8 *buf, size_t cap, const struct filt *f,
			    unsigned int n)
{
	struct tlsx_wr w;
	unsigned int i;
	size_t len;

	tlsx_wr_init(&w, buf, cap);
	tlsx_wr_open(&w, 2);		/* OIDFilter filters<0..2^16-1> */
	for (i = 0; i < n; i++) {
		tlsx_wr_vec(&w, 1, f[i].oid, f[i].oid_len);
		tlsx_wr_vec(&w, 2, f[i].v, f[i].v_len);
	}
	tlsx_wr_close(&w);
	return tlsx_wr_finish(&w, &len) ? 0 : len;
}

/* signature_algorithms: ecdsa_secp256r1_sha256, rsa_pss_rsae_sha256. */
static const u8 both_sigs[] = { 0x00, 0x04, 0x04, 0x03, 0x08, 0x04 };

/* A CertificateRequest with oid_filters' body @body (NULL: absent). */
static size_t cr_build(u8 *buf, size_t cap, const u8 *body, size_t len)
{
	const struct cr_ext exts[] = {
		{ 13, both_sigs, sizeof(both_sigs) },	/* signature_algorithms */
		{ 48, body, len },			/* oid_filters */
	};

	return cr_build_exts(buf, cap, exts, 2);
}

/* A client holding @c[0..3) (-1 ends them) fed @msg; the alert or 0. */
static int cr_feed(const u8 *msg, size_t len, const int *c,
		   struct tlsx_hs **out)
{
	static struct tlsx_hs_config cfg;
	unsigned int i;

	*out = NULL;
	if (load_all())
		return -1;
	memset(&cfg, 0, sizeof(cfg));
	cfg.insecure = true;
	for (i = 0; i < 3 && c[i] >= 0; i++)
		cfg.chains[cfg.n_chains++] = &chains[c[i]];
	*out = tlsx_hs_new(&cfg);
	if (!*out)
		return -1;
	return client_certificate_request(*out, msg, len);
}

/* --- the choice -------------------------------------------------------- */

FIXTURE(pick) {
	struct tlsx_hs *hs;
};

FIXTURE_VARIANT(pick) {
	struct filt f[3];
	unsigned int n;
	int c[3];		/* the client's chains in order; -1 ends */
	int want;		/* the chain chosen; -1: none */
};

/* Without filters the first chain goes: what each case changes. */
FIXTURE_VARIANT_ADD(pick, no_filter_first_chain) {
	.n = 0, .c = { C_SERVER, C_CLIENT, -1 }, .want = C_SERVER };
FIXTURE_VARIANT_ADD(pick, eku_client_auth_over_server_only) {
	.f = { FILT(eku, seq_client) }, .n = 1,
	.c = { C_SERVER, C_CLIENT, -1 }, .want = C_CLIENT };
FIXTURE_VARIANT_ADD(pick, eku_bare_purpose) {
	.f = { FILT(eku, bare_client) }, .n = 1,
	.c = { C_SERVER, C_CLIENT, -1 }, .want = C_CLIENT };
FIXTURE_VARIANT_ADD(pick, eku_oid_as_whole_der) {
	.f = { FILT(eku_whole, seq_client) }, .n = 1,
	.c = { C_SERVER, C_CLIENT, -1 }, .want = C_CLIENT };
FIXTURE_VARIANT_ADD(pick, eku_server_auth) {
	.f = { FILT(eku, seq_server) }, .n = 1,
	.c = { C_CLIENT, C_SERVER, -1 }, .want = C_SERVER };
/* Both purposes present: the chain with clientAuth alone is not enough. */
FIXTURE_VARIANT_ADD(pick, eku_two_purposes) {
	.f = { FILT(eku, seq_client_email) }, .n = 1,
	.c = { C_CLIENT, C_MULTI, -1 }, .want = C_MULTI };
FIXTURE_VARIANT_ADD(pick, eku_bare_and_sequence_mixed) {
	.f = { FILT(eku, bare_email_seq_client) }, .n = 1,
	.c = { C_CLIENT, C_BOTH, C_MULTI }, .want = C_MULTI };
/* The certificate MAY have other values: C_BOTH has serverAuth too. */
FIXTURE_VARIANT_ADD(pick, eku_other_values_allowed) {
	.f = { FILT(eku, seq_client) }, .n = 1,
	.c = { C_SERVER, C_BOTH, -1 }, .want = C_BOTH };
FIXTURE_VARIANT_ADD(pick, eku_none_has_it) {
	.f = { FILT(eku, seq_client) }, .n = 1,
	.c = { C_SERVER, C_PLAIN, -1 }, .want = -1 };
/* Empty values: the extension itself is asked for. */
FIXTURE_VARIANT_ADD(pick, eku_empty_values_need_the_extension) {
	.f = { FILT_EMPTY(eku) }, .n = 1,
	.c = { C_PLAIN, C_SERVER, -1 }, .want = C_SERVER };
FIXTURE_VARIANT_ADD(pick, ku_digital_signature) {
	.f = { FILT(ku, ku_ds) }, .n = 1,
	.c = { C_PLAIN, C_CLIENT, -1 }, .want = C_CLIENT };
FIXTURE_VARIANT_ADD(pick, ku_oid_as_whole_der) {
	.f = { FILT(ku_whole, ku_ds) }, .n = 1,
	.c = { C_PLAIN, C_CLIENT, -1 }, .want = C_CLIENT };
FIXTURE_VARIANT_ADD(pick, ku_two_bits) {
	.f = { FILT(ku, ku_ds_nr) }, .n = 1,
	.c = { C_CLIENT, C_MULTI, -1 }, .want = C_MULTI };
FIXTURE_VARIANT_ADD(pick, ku_two_bit_strings) {
	.f = { FILT(ku, ku_ds_then_nr) }, .n = 1,
	.c = { C_CLIENT, C_MULTI, -1 }, .want = C_MULTI };
FIXTURE_VARIANT_ADD(pick, ku_bit_none_has) {
	.f = { FILT(ku, ku_ka) }, .n = 1,
	.c = { C_CLIENT, C_MULTI, -1 }, .want = -1 };
FIXTURE_VARIANT_ADD(pick, ku_bit_past_what_is_kept) {
	.f = { FILT(ku, ku_ds_bit16) }, .n = 1,
	.c = { C_CLIENT, C_MULTI, -1 }, .want = -1 };
FIXTURE_VARIANT_ADD(pick, ku_empty_values_need_the_extension) {
	.f = { FILT_EMPTY(ku) }, .n = 1,
	.c = { C_PLAIN, C_MULTI, -1 }, .want = C_MULTI };
/* 4.2.5: "MUST ignore and skip any unrecognized ... OIDs". */
FIXTURE_VARIANT_ADD(pick, unrecognised_oid_ignored) {
	.f = { FILT(policies, not_der) }, .n = 1,
	.c = { C_SERVER, C_CLIENT, -1 }, .want = C_SERVER };
FIXTURE_VARIANT_ADD(pick, unrecognised_beside_eku) {
	.f = { FILT(policies, not_der), FILT(eku, seq_client) }, .n = 2,
	.c = { C_SERVER, C_CLIENT, -1 }, .want = C_CLIENT };
FIXTURE_VARIANT_ADD(pick, empty_list_no_constraint) {
	.n = 0, .c = { C_PLAIN, C_CLIENT, -1 }, .want = C_PLAIN };
/* Each alone has a chain (C_SERVER, C_MULTI); together none. */
FIXTURE_VARIANT_ADD(pick, several_filters_all_required_none) {
	.f = { FILT(eku, seq_server), FILT(ku, ku_nr) }, .n = 2,
	.c = { C_MULTI, C_SERVER, C_BOTH }, .want = -1 };
FIXTURE_VARIANT_ADD(pick, several_filters_one_chain) {
	.f = { FILT(ku, ku_ds), FILT(policies, not_der),
	       FILT(eku, seq_server_client) }, .n = 3,
	.c = { C_MULTI, C_SERVER, C_BOTH }, .want = C_BOTH };

FIXTURE_SETUP(pick)
{
	self->hs = NULL;
}

FIXTURE_TEARDOWN(pick)
{
	tlsx_hs_free(self->hs);
}

TEST_F(pick, chain_for_the_filters)
{
	u8 body[512], msg[1024];
	size_t blen, len;

	blen = filters_build(body, sizeof(body), variant->f, variant->n);
	ASSERT_NE(0, blen);
	len = cr_build(msg, sizeof(msg), body, blen);
	ASSERT_NE(0, len);
	ASSERT_EQ(0, cr_feed(msg, len, variant->c, &self->hs));
	EXPECT_TRUE(self->hs->cert_requested);
	if (variant->want < 0) {
		EXPECT_EQ(NULL, self->hs->own_chain);
		EXPECT_EQ(0, self->hs->own_sig_scheme);
		return;
	}
	EXPECT_EQ(&chains[variant->want], self->hs->own_chain);
	EXPECT_EQ(TLSX_SIG_ECDSA_SECP256R1_SHA256, self->hs->own_sig_scheme);
}

/* --- malformed lists --------------------------------------------------- */

FIXTURE(bad) {
	struct tlsx_hs *hs;
};

FIXTURE_VARIANT(bad) {
	u8 body[40];		/* oid_filters' body, as sent */
	size_t len;
	int alert;
};

#define BAD_BODY(...)	.body = { __VA_ARGS__ }, \
			.len = sizeof((u8[]){ __VA_ARGS__ })

FIXTURE_VARIANT_ADD(bad, empty_body) {
	.len = 0, .alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, list_over_the_extension) {
	BAD_BODY(0x00, 0x09, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, trailing_byte_after_the_list) {
	BAD_BODY(0x00, 0x06, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x00, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, empty_oid) {
	BAD_BODY(0x00, 0x03, 0x00, 0x00, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, oid_over_the_list) {
	BAD_BODY(0x00, 0x04, 0x05, 0x55, 0x1d, 0x25),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, values_over_the_list) {
	BAD_BODY(0x00, 0x07, 0x03, 0x55, 0x1d, 0x20, 0x00, 0x02, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, filter_without_values) {
	BAD_BODY(0x00, 0x04, 0x03, 0x55, 0x1d, 0x25),
	.alert = TLSX_ALERT_DECODE_ERROR };
/* The OID's last subidentifier unfinished; one padded with 0x80. */
FIXTURE_VARIANT_ADD(bad, oid_unterminated) {
	BAD_BODY(0x00, 0x05, 0x02, 0x55, 0x9d, 0x00, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, oid_padded) {
	BAD_BODY(0x00, 0x06, 0x03, 0x55, 0x80, 0x1d, 0x00, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, eku_values_not_der) {
	BAD_BODY(0x00, 0x08, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x02, 0xff,
		 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, eku_empty_sequence) {
	BAD_BODY(0x00, 0x08, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x02, 0x30,
		 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, eku_sequence_of_not_oids) {
	BAD_BODY(0x00, 0x0a, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x04, 0x30,
		 0x02, 0x05, 0x00),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, eku_value_truncated) {
	BAD_BODY(0x00, 0x0a, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x04, 0x06,
		 0x08, 0x2b, 0x06),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, ku_values_not_a_bit_string) {
	BAD_BODY(0x00, 0x09, 0x03, 0x55, 0x1d, 0x0f, 0x00, 0x03, 0x04,
		 0x01, 0x80),
	.alert = TLSX_ALERT_DECODE_ERROR };
FIXTURE_VARIANT_ADD(bad, ku_unused_bits_set) {
	BAD_BODY(0x00, 0x0a, 0x03, 0x55, 0x1d, 0x0f, 0x00, 0x04, 0x03,
		 0x02, 0x07, 0x81),
	.alert = TLSX_ALERT_DECODE_ERROR };
/* 4.2.5: "Any given OID MUST NOT appear more than once". */
FIXTURE_VARIANT_ADD(bad, eku_twice) {
	BAD_BODY(0x00, 0x0c, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x00, 0x03,
		 0x55, 0x1d, 0x25, 0x00, 0x00),
	.alert = TLSX_ALERT_ILLEGAL_PARAMETER };
FIXTURE_VARIANT_ADD(bad, ku_twice_in_both_forms) {
	BAD_BODY(0x00, 0x0e, 0x03, 0x55, 0x1d, 0x0f, 0x00, 0x00, 0x05,
		 0x06, 0x03, 0x55, 0x1d, 0x0f, 0x00, 0x00),
	.alert = TLSX_ALERT_ILLEGAL_PARAMETER };
/* 4.2.5: "The special anyExtendedKeyUsage OID MUST NOT be used". */
FIXTURE_VARIANT_ADD(bad, eku_any_in_the_request) {
	BAD_BODY(0x00, 0x0e, 0x03, 0x55, 0x1d, 0x25, 0x00, 0x08, 0x30,
		 0x06, 0x06, 0x04, 0x55, 0x1d, 0x25, 0x00),
	.alert = TLSX_ALERT_ILLEGAL_PARAMETER };

FIXTURE_SETUP(bad)
{
	self->hs = NULL;
}

FIXTURE_TEARDOWN(bad)
{
	tlsx_hs_free(self->hs);
}

TEST_F(bad, refused)
{
	static const int two[] = { C_CLIENT, C_SERVER, -1 };
	static const int none[] = { -1, -1, -1 };
	u8 msg[256];
	size_t len = cr_build(msg, sizeof(msg), variant->body, variant->len);

	ASSERT_NE(0, len);
	EXPECT_EQ(variant->alert, cr_feed(msg, len, two, &self->hs));
	EXPECT_FALSE(self->hs->cert_requested);
	tlsx_hs_free(self->hs);
	/* 6.2: read for its framing even with no chain to choose. */
	EXPECT_EQ(variant->alert, cr_feed(msg, len, none, &self->hs));
}

/* --- tlsx client against tlsx server ------------------------------------ */

static struct pair pair;
static struct hs_test_hooks hooks;
static u8 cr_exts[64];

static int load_trust(struct tlsx_trust *t)
{
	size_t len;
	char *pem = slurp_data("p256-root.pem", &len);
	int ret = pem ? tlsx_trust_load_mem(t, pem, len, NULL) : -1;

	free(pem);
	return ret;
}

/*
 * The server requires a client certificate and adds an oid_filters with
 * @f[0..@n) to its CertificateRequest (none when @n is 0); the client
 * holds C_SERVER then C_CLIENT.
 */
static int pair_setup(struct pair *p, const struct filt *f, unsigned int n)
{
	struct tlsx_wr w;
	size_t blen;
	u8 body[48];

	memset(p, 0, sizeof(*p));
	if (load_all() || load_trust(&p->ctrust) || load_trust(&p->strust))
		return -1;
	p->scfg.server = true;
	p->scfg.chains[0] = &chains[S_P256];
	p->scfg.n_chains = 1;
	p->scfg.trust = &p->strust;
	p->scfg.verify_peer = true;
	p->scfg.require_peer_cert = true;
	p->scfg.keep_peer_chain = true;
	p->ccfg.trust = &p->ctrust;
	p->ccfg.chains[0] = &chains[C_SERVER];
	p->ccfg.chains[1] = &chains[C_CLIENT];
	p->ccfg.n_chains = 2;
	p->s = tlsx_hs_new(&p->scfg);
	p->c = tlsx_hs_new(&p->ccfg);
	if (!p->s || !p->c)
		return -1;
	if (n) {
		blen = filters_build(body, sizeof(body), f, n);
		tlsx_wr_init(&w, cr_exts, sizeof(cr_exts));
		tlsx_wr_u16(&w, 48);
		tlsx_wr_vec(&w, 2, body, blen);
		if (!blen || tlsx_wr_finish(&w, &hooks.cr_exts_len))
			return -1;
		hooks.cr_exts = cr_exts;
		p->s->test = &hooks;
	}
	return tlsx_hs_set_server_name(p->c, "www.example.com");
}

/* The server verifies client chains for clientAuth: C_SERVER fails. */
TEST(pair_without_filters_first_chain_refused)
{
	ASSERT_EQ(0, pair_setup(&pair, NULL, 0));
	pair_run(&pair);
	EXPECT_EQ(&chains[C_SERVER], pair.c->own_chain);
	EXPECT_NE(TLSX_HS_DONE, pair.sret);
	EXPECT_EQ(TLSX_ALERT_CERTIFICATE_UNKNOWN, tlsx_hs_alert(pair.s));
	pair_free(&pair);
}

TEST(pair_eku_filter_sends_the_client_auth_chain)
{
	static const struct filt f[] = {
		FILT(ku, ku_ds), FILT(eku, seq_client)
	};
	const struct tlsx_cert_chain *want = &chains[C_CLIENT];
	const u8 *der;
	size_t len;

	ASSERT_EQ(0, pair_setup(&pair, f, ARRAY_SIZE(f)));
	pair_run(&pair);
	ASSERT_EQ(TLSX_HS_DONE, pair.cret)
		TH_LOG("client alert %d", tlsx_hs_alert(pair.c));
	ASSERT_EQ(TLSX_HS_DONE, pair.sret)
		TH_LOG("server alert %d", tlsx_hs_alert(pair.s));
	ASSERT_EQ(0, tlsx_hs_peer_cert(pair.s, 0, &der, &len));
	ASSERT_EQ(want->len[0], len);
	EXPECT_EQ(0, memcmp(want->der + want->off[0], der, len));
	pair_free(&pair);
}

TEST_HARNESS_MAIN
