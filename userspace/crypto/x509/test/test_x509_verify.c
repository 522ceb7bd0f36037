// SPDX-License-Identifier: GPL-2.0
/*
 * test_x509_verify.c - chain verification on chains made by the openssl
 * command at test time (x509_test.h): each of P-256, Ed25519, RSA
 * PKCS#1 v1.5 and RSA-PSS accepted; each way a chain can be wrong
 * refused with its own error; OpenSSL's X509_verify_cert() asked the
 * same question gives the same verdict; host name matching per RFC 6125.
 */
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

#include "kselftest_harness.h"
#include "x509/test/x509_test.h"
#include "x509/x509_verify.h"

#define MAX_CERTS 12

struct chain {
	struct x509_test_cert c[MAX_CERTS];	/* [0] the leaf */
	size_t n;
	struct x509_test_cert a[4];		/* anchors */
	size_t n_anchors;
	struct tlsx_x509 crts[MAX_CERTS], anchors[4];
};

/*
 * Loads "leaf int1 int2 ... | anchor1 anchor2" (names in the test
 * directory) and copies the parses into arrays for tlsx_x509_verify().
 */
static int load_chain(struct chain *ch, const char *spec)
{
	char buf[256], *tok, *save;
	bool anchors = false;
	int err;

	snprintf(buf, sizeof(buf), "%s", spec);
	ch->n = 0;
	ch->n_anchors = 0;
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		struct x509_test_cert *c;

		if (!strcmp(tok, "|")) {
			anchors = true;
			continue;
		}
		c = anchors ? &ch->a[ch->n_anchors++] : &ch->c[ch->n++];
		err = x509_test_load(c, tok);
		if (err)
			return err;
	}
	for (size_t i = 0; i < ch->n; i++)
		ch->crts[i] = ch->c[i].crt;
	for (size_t i = 0; i < ch->n_anchors; i++)
		ch->anchors[i] = ch->a[i].crt;
	return 0;
}

static int verify(struct chain *ch, s64 now, const char *host,
		  unsigned int purpose)
{
	struct tlsx_x509_verify_params p = {
		.now = now, .host = host, .purpose = purpose,
	};

	return tlsx_x509_verify(ch->crts, ch->n, ch->anchors, ch->n_anchors,
				&p);
}

static X509 *to_openssl(const struct x509_test_cert *c)
{
	const u8 *p = c->der;

	return d2i_X509(NULL, &p, (long)c->len);
}

/* OpenSSL's verdict on the same chain, time, host and purpose. */
static bool openssl_accepts(struct chain *ch, s64 now, const char *host,
			    unsigned int purpose)
{
	X509_STORE *store = X509_STORE_new();
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	struct stack_st_X509 *untrusted = sk_X509_new_null();
	X509_VERIFY_PARAM *vp;
	X509 *leaf = to_openssl(&ch->c[0]);
	bool ok;
	size_t i;

	for (i = 0; i < ch->n_anchors; i++) {
		X509 *x = to_openssl(&ch->a[i]);

		X509_STORE_add_cert(store, x);
		X509_free(x);
	}
	for (i = 1; i < ch->n; i++)
		sk_X509_push(untrusted, to_openssl(&ch->c[i]));
	X509_STORE_CTX_init(ctx, store, leaf, untrusted);
	vp = X509_STORE_CTX_get0_param(ctx);
	X509_VERIFY_PARAM_set_time(vp, (time_t)now);
	X509_VERIFY_PARAM_set_depth(vp, X509_VERIFY_MAX_DEPTH - 2);
	/* Every anchor is trusted as it stands, self-signed or not. */
	X509_VERIFY_PARAM_set_flags(vp, X509_V_FLAG_PARTIAL_CHAIN);
	if (host && strchr(host, ':'))
		X509_VERIFY_PARAM_set1_ip_asc(vp, host);
	else if (host && strspn(host, "0123456789.") == strlen(host))
		X509_VERIFY_PARAM_set1_ip_asc(vp, host);
	else if (host)
		X509_VERIFY_PARAM_set1_host(vp, host, 0);
	if (purpose)
		X509_STORE_CTX_set_purpose(ctx,
					   purpose == X509_EKU_SERVER_AUTH ?
					   X509_PURPOSE_SSL_SERVER :
					   X509_PURPOSE_SSL_CLIENT);
	ok = X509_verify_cert(ctx) == 1;
	X509_STORE_CTX_free(ctx);
	X509_STORE_free(store);
	sk_X509_pop_free(untrusted, X509_free);
	X509_free(leaf);
	return ok;
}

/* Verifies and checks both our error and OpenSSL's verdict. */
#define EXPECT_VERIFY(ch, spec, now, host, purpose, want) do {		\
		int _r;							\
		ASSERT_EQ(0, load_chain((ch), (spec))) TH_LOG("%s", spec); \
		_r = verify((ch), (now), (host), (purpose));		\
		EXPECT_EQ((want), _r)					\
			TH_LOG("%s, %s: got \"%s\"", spec, host ? host : "-", \
			       tlsx_x509_verify_strerror(_r));		\
		EXPECT_EQ(!(want), openssl_accepts((ch), (now), (host),	\
						   (purpose)))		\
			TH_LOG("%s, %s: OpenSSL differs", spec,		\
			       host ? host : "-");			\
	} while (0)

FIXTURE(chain) {
	struct chain *ch;
	s64 now;
};

FIXTURE_SETUP(chain)
{
	self->ch = malloc(sizeof(*self->ch));
	ASSERT_NE(NULL, self->ch);
	self->now = (s64)time(NULL);
}

FIXTURE_TEARDOWN(chain)
{
	free(self->ch);
}

static const char *const types[] = { "p256", "ed25519", "rsa", "rsapss" };

TEST_F(chain, valid_every_type)
{
	char spec[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		const char *t = types[i];

		snprintf(spec, sizeof(spec), "%s-leaf %s-int | %s-ca", t, t, t);
		EXPECT_VERIFY(self->ch, spec, self->now, "www.example.com",
			      X509_EKU_SERVER_AUTH, 0);
		EXPECT_VERIFY(self->ch, spec, self->now, "192.0.2.1",
			      X509_EKU_CLIENT_AUTH, 0);
		EXPECT_VERIFY(self->ch, spec, self->now, NULL, 0, 0);
		/* Extra, unrelated certificates and anchors do not matter. */
		snprintf(spec, sizeof(spec),
			 "%s-leaf other-ca p256-int %s-int | other-ca %s-ca",
			 t, t, t);
		EXPECT_VERIFY(self->ch, spec, self->now, "www.example.com",
			      X509_EKU_SERVER_AUTH, 0);
		/* The intermediate as the anchor is enough. */
		snprintf(spec, sizeof(spec), "%s-leaf | %s-int", t, t);
		EXPECT_VERIFY(self->ch, spec, self->now, "www.example.com",
			      X509_EKU_SERVER_AUTH, 0);
	}
}

TEST_F(chain, wrong_anchor)
{
	EXPECT_VERIFY(self->ch, "p256-leaf p256-int | other-ca", self->now,
		      "www.example.com", 0, -X509_VERIFY_NO_ISSUER);
	EXPECT_VERIFY(self->ch, "p256-leaf p256-int | rsa-ca ed25519-ca",
		      self->now, "www.example.com", 0,
		      -X509_VERIFY_NO_ISSUER);
	EXPECT_VERIFY(self->ch, "rsa-leaf rsa-int |", self->now, NULL, 0,
		      -X509_VERIFY_NO_ISSUER);
	/* The intermediate missing. */
	EXPECT_VERIFY(self->ch, "ed25519-leaf | ed25519-ca", self->now, NULL,
		      0, -X509_VERIFY_NO_ISSUER);
	/* rsa-int has rsapss-int's key, but not its name: no link. */
	EXPECT_VERIFY(self->ch, "rsapss-leaf rsa-int | rsa-ca", self->now,
		      NULL, 0, -X509_VERIFY_NO_ISSUER);
	/* An anchor with the CA's name but another key. */
	ASSERT_EQ(0, x509_test_sh("openssl req -x509 -new -key other-ca.key -subj '/O=tlsx/CN=p256 CA' -days 3650 -config ext.cnf -extensions ca -outform DER -out fake-ca.der"));
	self->now = (s64)time(NULL);
	EXPECT_VERIFY(self->ch, "p256-leaf p256-int | fake-ca", self->now,
		      NULL, 0, -X509_VERIFY_BAD_SIGNATURE);
}

TEST_F(chain, validity)
{
	struct x509_test_cert *leaf;
	char spec[128];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		const char *t = types[i];

		snprintf(spec, sizeof(spec), "%s-leaf %s-int | %s-ca", t, t, t);
		ASSERT_EQ(0, load_chain(self->ch, spec));
		leaf = &self->ch->c[0];
		EXPECT_VERIFY(self->ch, spec, leaf->crt.not_after + 1, NULL,
			      0, -X509_VERIFY_EXPIRED);
		EXPECT_VERIFY(self->ch, spec, leaf->crt.not_before - 1, NULL,
			      0, -X509_VERIFY_NOT_YET_VALID);
		/*
		 * RFC 5280 4.1.2.5: both ends inclusive.  (OpenSSL calls a
		 * certificate expired at notAfter itself, so no comparison.)
		 */
		EXPECT_EQ(0, verify(self->ch, leaf->crt.not_after, NULL, 0));
		EXPECT_EQ(0, verify(self->ch, leaf->crt.not_before, NULL, 0));
	}
	/*
	 * The anchor's validity counts too: a one-day CA whose leaf outlives
	 * it, checked the day after.
	 */
	ASSERT_EQ(0, x509_test_sh("openssl req -x509 -new -key other-ca.key -subj /CN=short -days 1 -config ext.cnf -extensions ca -out short-ca.pem && openssl x509 -in short-ca.pem -outform DER -out short-ca.der && cp other-ca.key short-ca.key"));
	ASSERT_EQ(0, x509_test_sh("openssl req -new -key p256-leaf.key -subj /CN=www.example.com -config ext.cnf -out sl.csr && openssl x509 -req -in sl.csr -CA short-ca.pem -CAkey short-ca.key -set_serial 5 -days 30 -extfile ext.cnf -extensions leaf -outform DER -out short-leaf.der"));
	ASSERT_EQ(0, load_chain(self->ch, "short-leaf | short-ca"));
	EXPECT_VERIFY(self->ch, "short-leaf | short-ca",
		      self->ch->a[0].crt.not_after + 1, NULL, 0,
		      -X509_VERIFY_EXPIRED);
	EXPECT_VERIFY(self->ch, "short-leaf | short-ca",
		      self->ch->a[0].crt.not_after - 1, NULL, 0, 0);
}

/*
 * One bit flipped in the signature, or in the tbsCertificate (inside
 * the serial number, so it still parses), of the leaf or of the
 * intermediate: refused as a bad signature.
 */
TEST_F(chain, bad_signature)
{
	char spec[128];
	unsigned int i, which, where;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		const char *t = types[i];

		snprintf(spec, sizeof(spec), "%s-leaf %s-int | %s-ca", t, t, t);
		for (which = 0; which < 2; which++) {
			for (where = 0; where < 2; where++) {
				struct x509_test_cert *c;
				struct tlsx_x509 *crt;
				u8 *bit;

				ASSERT_EQ(0, load_chain(self->ch, spec));
				c = &self->ch->c[which];
				crt = &self->ch->crts[which];
				/* A byte inside r (ECDSA: 30 len 02 len r). */
				bit = (u8 *)(where ? crt->sig.p + 8 :
					     crt->serial.p + 3);
				*bit ^= 0x10;
				ASSERT_EQ(0, tlsx_x509_parse(&c->crt, c->der,
							     c->len));
				*crt = c->crt;
				EXPECT_EQ(-X509_VERIFY_BAD_SIGNATURE,
					  verify(self->ch, self->now, NULL, 0))
					TH_LOG("%s cert %u %s", t, which,
					       where ? "sig" : "tbs");
				EXPECT_FALSE(openssl_accepts(self->ch,
							     self->now, NULL,
							     0));
			}
		}
	}
}

TEST_F(chain, issuer_constraints)
{
	EXPECT_VERIFY(self->ch, "noca-leaf noca | p256-ca", self->now,
		      "www.example.com", 0, -X509_VERIFY_NOT_CA);
	EXPECT_VERIFY(self->ch, "ncs-leaf ncs | p256-ca", self->now,
		      "www.example.com", 0, -X509_VERIFY_ISSUER_KEY_USAGE);
	EXPECT_VERIFY(self->ch, "pl-leaf int2 p256-int | p256-ca", self->now,
		      "www.example.com", 0, -X509_VERIFY_PATH_LEN);
	/* pathLen 0 binds the anchor-side CA even when it is the anchor. */
	EXPECT_VERIFY(self->ch, "pl-leaf int2 | p256-int", self->now,
		      "www.example.com", 0, -X509_VERIFY_PATH_LEN);
	/* The same leaf one CA lower is fine: nothing between. */
	ASSERT_EQ(0, x509_test_sh("openssl req -new -key p256-leaf.key -subj /CN=www.example.com -config ext.cnf -out ok.csr && openssl x509 -req -in ok.csr -CA p256-int.pem -CAkey p256-int.key -set_serial 7 -days 30 -extfile ext.cnf -extensions leaf -outform DER -out ok-leaf.der"));
	self->now = (s64)time(NULL);
	EXPECT_VERIFY(self->ch, "ok-leaf p256-int | p256-ca", self->now,
		      "www.example.com", 0, 0);
}

TEST_F(chain, leaf_usage)
{
	EXPECT_VERIFY(self->ch, "client-leaf p256-int | p256-ca", self->now,
		      "www.example.com", X509_EKU_SERVER_AUTH,
		      -X509_VERIFY_EXT_KEY_USAGE);
	EXPECT_VERIFY(self->ch, "client-leaf p256-int | p256-ca", self->now,
		      "www.example.com", X509_EKU_CLIENT_AUTH, 0);
	ASSERT_EQ(0, load_chain(self->ch, "noku-leaf p256-int | p256-ca"));
	EXPECT_EQ(-X509_VERIFY_LEAF_KEY_USAGE,
		  verify(self->ch, self->now, "www.example.com", 0));
	/* The unknown critical extension stops it at parsing. */
	EXPECT_EQ(-EOPNOTSUPP, load_chain(self->ch, "crit-leaf p256-int"));
}

TEST_F(chain, depth)
{
	char spec[256];
	int i, n;

	/*
	 * p256-ca -> d1 -> ... -> d8 -> dl: ten certificates, the CAs d1..d8
	 * all with int2's key under their own names.
	 */
	ASSERT_EQ(0, x509_test_sh("prev=p256-ca; pk=p256-ca.key; for i in 1 2 3 4 5 6 7 8; do openssl req -new -key int2.key -subj /CN=d$i -config ext.cnf -out d$i.csr && openssl x509 -req -in d$i.csr -CA $prev.pem -CAkey $pk -set_serial $((100 + i)) -days 30 -extfile ext.cnf -extensions int_nopl -out d$i.pem && openssl x509 -in d$i.pem -outform DER -out d$i.der || exit 1; prev=d$i; pk=int2.key; done"));
	ASSERT_EQ(0, x509_test_sh("openssl req -new -key p256-leaf.key -subj /CN=www.example.com -config ext.cnf -out dl.csr && openssl x509 -req -in dl.csr -CA d8.pem -CAkey int2.key -set_serial 99 -days 30 -extfile ext.cnf -extensions leaf -outform DER -out dl.der"));
	self->now = (s64)time(NULL);	/* the new certificates' notBefore */
	n = snprintf(spec, sizeof(spec), "dl");
	for (i = 8; i >= 1; i--)
		n += snprintf(spec + n, sizeof(spec) - (size_t)n, " d%d", i);
	snprintf(spec + n, sizeof(spec) - (size_t)n, " | p256-ca");
	ASSERT_EQ(0, load_chain(self->ch, spec));
	EXPECT_EQ(-X509_VERIFY_DEPTH, verify(self->ch, self->now, NULL, 0));
	/* Seven intermediates: eight certificates below the anchor... */
	snprintf(spec, sizeof(spec), "dl d8 d7 d6 d5 d4 d3 d2 | d1");
	ASSERT_EQ(0, load_chain(self->ch, spec));
	EXPECT_EQ(-X509_VERIFY_DEPTH, verify(self->ch, self->now, NULL, 0));
	/* ... and six: the leaf, six, the anchor is eight. */
	snprintf(spec, sizeof(spec), "dl d8 d7 d6 d5 d4 d3 | d2");
	ASSERT_EQ(0, load_chain(self->ch, spec));
	EXPECT_EQ(0, verify(self->ch, self->now, NULL, 0));
}

TEST_F(chain, host_names)
{
	static const struct {
		const char *host;
		bool ok;
	} cases[] = {
		{ "www.example.com", true },
		{ "WWW.Example.COM", true },
		{ "www.example.com.", true },
		{ "foo.example.org", true },	/* *.example.org */
		{ "FOO.example.org", true },
		{ "a.b.example.org", false },	/* one label only */
		{ "example.org", false },
		{ ".example.org", false },
		{ "*.example.org", false },
		{ "example.com", false },
		{ "www.example.co", false },
		{ "wwww.example.com", false },
		{ "www.example.com.evil", false },
		{ "", false },
		{ "192.0.2.1", true },
		{ "192.0.2.2", false },
		{ "2001:db8::1", true },
		{ "2001:db8:0:0:0:0:0:1", true },
		{ "2001:db8::2", false },
		{ "::ffff:192.0.2.1", false },
	};
	unsigned int i;

	ASSERT_EQ(0, load_chain(self->ch, "p256-leaf p256-int | p256-ca"));
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int want = -X509_VERIFY_HOST_MISMATCH;

		if (cases[i].ok)
			want = 0;
		EXPECT_EQ(cases[i].ok, tlsx_x509_match_host(&self->ch->crts[0],
							    cases[i].host))
			TH_LOG("%s", cases[i].host);
		EXPECT_EQ(want, verify(self->ch, self->now, cases[i].host, 0))
			TH_LOG("%s", cases[i].host);
	}
}

/* Wildcard rules on hand-made SAN lists. */
TEST(wildcards)
{
	static const struct {
		const char *san, *host;
		bool ok;
	} cases[] = {
		{ "*.example.com", "a.example.com", true },
		{ "*.example.com", "example.com", false },
		{ "*.com", "example.com", false },	/* too broad */
		{ "*", "localhost", false },
		{ "f*.example.com", "foo.example.com", false },
		{ "*o.example.com", "foo.example.com", false },
		{ "www.*.com", "www.example.com", false },
		{ "*.*.com", "a.b.com", false },
		{ "*.example.com.", "a.example.com", false },
		{ "xn--bcher-kva.example", "XN--BCHER-KVA.example", true },
		{ "localhost", "localhost", true },
		{ "localhost", "localhost.", true },
	};
	struct tlsx_x509 *crt = calloc(1, sizeof(*crt));
	unsigned int i;

	ASSERT_NE(NULL, crt);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		crt->n_dns = 1;
		crt->dns[0].p = (const u8 *)cases[i].san;
		crt->dns[0].len = strlen(cases[i].san);
		EXPECT_EQ(cases[i].ok, tlsx_x509_match_host(crt, cases[i].host))
			TH_LOG("%s vs %s", cases[i].san, cases[i].host);
	}
	free(crt);
}

TEST(strerror_distinct)
{
	int a, b;

	for (a = X509_VERIFY_NO_ISSUER; a <= X509_VERIFY_INVALID; a++) {
		EXPECT_STRNE("unknown error", tlsx_x509_verify_strerror(-a));
		for (b = X509_VERIFY_NO_ISSUER; b < a; b++)
			EXPECT_STRNE(tlsx_x509_verify_strerror(-a),
				     tlsx_x509_verify_strerror(-b));
	}
	EXPECT_STREQ("ok", tlsx_x509_verify_strerror(0));
}

TEST_HARNESS_MAIN
