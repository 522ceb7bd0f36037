// SPDX-License-Identifier: GPL-2.0
/*
 * setup.c - struct shim_opts into a tlsx configuration, through
 * libtlsx's public setters only.  The runner names groups and
 * signature schemes by their wire codes; the tables below give the
 * names libtlsx takes.  A code tlsx does not implement, a version
 * below TLS 1.3, or a key libtlsx cannot load is a feature tlsx lacks:
 * the test is reported unimplemented (89), not failed.
 */
#include <stdio.h>
#include <string.h>

#include "shim.h"

/* BoringSSL's SSL_CTX default for max_cert_list (its ssl.h). */
#define BSSL_MAX_CERT_LIST	(100 * 1024)

struct code_name {
	int code;
	const char *name;
};

/* RFC 8446 4.2.7: the groups tlsx has. */
static const struct code_name group_names[] = {
	{ 0x001d, "x25519" },
	{ 0x0017, "secp256r1" },
};

/* RFC 8446 4.2.3: the signature schemes tlsx has. */
static const struct code_name scheme_names[] = {
	{ 0x0401, "rsa_pkcs1_sha256" },
	{ 0x0501, "rsa_pkcs1_sha384" },
	{ 0x0601, "rsa_pkcs1_sha512" },
	{ 0x0403, "ecdsa_secp256r1_sha256" },
	{ 0x0804, "rsa_pss_rsae_sha256" },
	{ 0x0805, "rsa_pss_rsae_sha384" },
	{ 0x0806, "rsa_pss_rsae_sha512" },
	{ 0x0807, "ed25519" },
	{ 0x0809, "rsa_pss_pss_sha256" },
	{ 0x080a, "rsa_pss_pss_sha384" },
	{ 0x080b, "rsa_pss_pss_sha512" },
};

static const char *code_lookup(const struct code_name *t, size_t n, int code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (t[i].code == code)
			return t[i].name;
	return NULL;
}

/*
 * @vec's codes as a ':' list of @t's names into @out; -1 with *@why
 * naming the first code tlsx does not have.
 */
static int code_list(const struct shim_intvec *vec, const struct code_name *t,
		     size_t n, char *out, size_t cap, const char **why)
{
	static char msg[64];
	size_t len = 0;
	int i;

	out[0] = '\0';
	for (i = 0; i < vec->n; i++) {
		const char *name = code_lookup(t, n, vec->v[i]);
		int w;

		if (!name) {
			snprintf(msg, sizeof(msg), "code 0x%04x not in tlsx",
				 vec->v[i]);
			*why = msg;
			return -1;
		}
		w = snprintf(out + len, cap - len, "%s%s", len ? ":" : "",
			     name);
		if (w < 0 || (size_t)w >= cap - len)
			return -1;
		len += w;
	}
	return 0;
}

/* ALPN's wire form (RFC 7301 3.1: 1-byte lengths) into "a,b". */
static int alpn_list(const char *wire, char *out, size_t cap)
{
	size_t in_len = strlen(wire), i = 0, len = 0;

	while (i < in_len) {
		size_t n = (unsigned char)wire[i++];

		if (!n || n > in_len - i || len + n + 2 > cap)
			return -1;
		if (len)
			out[len++] = ',';
		memcpy(out + len, wire + i, n);
		len += n;
		i += n;
	}
	out[len] = '\0';
	return 0;
}

static int versions_check(const struct shim_opts *o, const char **why)
{
	/* 0x0304: TLS 1.3, the only version tlsx speaks. */
	if (o->no_tls13 || (o->max_version && o->max_version < 0x0304)) {
		*why = "versions below TLS 1.3 are not in tlsx";
		return -1;
	}
	if (o->min_version > 0x0304) {
		*why = "no version above TLS 1.3";
		return -1;
	}
	return 0;
}

static int prefs_set(struct tlsx_config *cfg, const struct shim_opts *o,
		     const char **why, bool *unimpl)
{
	const struct shim_intvec *prefs = o->verify_prefs.n ?
		&o->verify_prefs : &o->signing_prefs;
	char list[512];

	if (o->curves.n) {
		if (code_list(&o->curves, group_names, ARRAY_SIZE(group_names),
			      list, sizeof(list), why))
			return -1;
		if (tlsx_config_set_groups(cfg, list)) {
			*unimpl = false;
			*why = tlsx_config_error(cfg);
			return -1;
		}
	}
	/*
	 * libtlsx has one list for the schemes it signs with and the ones
	 * it offers and accepts (RFC 8446 4.2.3); BoringSSL has two.  A
	 * test that sets one of them where the other is in play too (a
	 * signing list on a side that verifies a peer, a verifying list
	 * on a side that signs) asks for what libtlsx cannot express,
	 * unless the two lists are the same.
	 */
	if (o->signing_prefs.n && o->verify_prefs.n) {
		if (o->verify_prefs.n != o->signing_prefs.n ||
		    memcmp(o->verify_prefs.v, o->signing_prefs.v,
			   o->verify_prefs.n * sizeof(int))) {
			*why = "separate signing and verifying schemes";
			return -1;
		}
	} else if ((o->signing_prefs.n && (!o->server || o->verify_peer ||
					   o->require_any_client_cert)) ||
		   (o->verify_prefs.n && (o->server || o->cert_file))) {
		*why = "one scheme list for signing and verifying";
		return -1;
	}
	if (prefs->n) {
		if (code_list(prefs, scheme_names, ARRAY_SIZE(scheme_names),
			      list, sizeof(list), why))
			return -1;
		if (tlsx_config_set_sig_schemes(cfg, list)) {
			*unimpl = false;
			*why = tlsx_config_error(cfg);
			return -1;
		}
	}
	return 0;
}

static int auth_set(struct tlsx_config *cfg, const struct shim_opts *o,
		    const char **why, bool *unimpl)
{
	/* -require-any-client-certificate implies -verify-peer. */
	bool verify = o->verify_peer || o->require_any_client_cert;
	/* The runner passes "" when its chain has no root (garbage). */
	bool anchors = o->trust_cert && o->trust_cert[0];

	if (o->cert_file && o->key_file &&
	    tlsx_config_add_cert(cfg, o->cert_file, o->key_file)) {
		/* A key type libtlsx does not load (P-384, P-521). */
		*why = tlsx_config_error(cfg);
		return -1;
	}
	/*
	 * BoringSSL's shim accepts any client chain; libtlsx verifies it
	 * against anchors, so a server asking for one needs them.
	 */
	if (o->server && verify && !anchors) {
		*why = "client certificates without trust anchors";
		return -1;
	}
	/*
	 * A client loads anchors only to verify (tlsx_config_set_trust());
	 * one libtlsx cannot load is a key type it lacks (P-384, P-521).
	 */
	if (anchors && verify && tlsx_config_set_trust(cfg, o->trust_cert)) {
		*why = tlsx_config_error(cfg);
		return -1;
	}
	*unimpl = false;
	/*
	 * BoringSSL's client verifies only with -verify-peer; the server
	 * asks for a certificate with -verify-peer and requires one with
	 * -require-any-client-certificate too.
	 */
	if (tlsx_config_set_verify_peer(cfg, verify,
					o->require_any_client_cert) ||
	    (!o->server && tlsx_config_set_verify_name_optional(cfg, true))) {
		*why = tlsx_config_error(cfg);
		return -1;
	}
	return 0;
}

static int alpn_set(struct tlsx_config *cfg, const struct shim_opts *o,
		    const char **why)
{
	char list[1024];
	const char *use = NULL;

	if (!o->server && o->advertise_alpn) {
		if (alpn_list(o->advertise_alpn, list, sizeof(list))) {
			*why = "bad -advertise-alpn";
			return -1;
		}
		use = list;
	} else if (o->server && o->select_alpn && !o->decline_alpn) {
		use = o->select_alpn;
	}
	if (use && tlsx_config_set_alpn(cfg, use)) {
		*why = tlsx_config_error(cfg);
		return -1;
	}
	return 0;
}

struct tlsx_config *shim_config(const struct shim_opts *o,
				const char *ticket_keys, const char **why,
				bool *unimpl)
{
	static char why_copy[256];
	struct tlsx_config *cfg;

	*unimpl = true;
	if (versions_check(o, why))
		return NULL;
	cfg = tlsx_config_new(o->server ? TLSX_ROLE_SERVER : TLSX_ROLE_CLIENT);
	if (!cfg) {
		*unimpl = false;
		*why = "out of memory";
		return NULL;
	}
	if (prefs_set(cfg, o, why, unimpl) || auth_set(cfg, o, why, unimpl))
		goto fail;
	*unimpl = false;
	if (alpn_set(cfg, o, why))
		goto fail;
	/*
	 * The largest handshake message (the peer's chain): BoringSSL's
	 * default, 100 KiB, unless -max-cert-list says otherwise; the
	 * runner's tests assume it (tlsx's own default is 16 KiB).
	 */
	if (tlsx_config_set_max_handshake_message(cfg, o->max_cert_list > 0 ?
						  (size_t)o->max_cert_list :
						  BSSL_MAX_CERT_LIST))
		goto fail_cfg;
	/*
	 * The userspace record layer: libtlsx's own, the same on every
	 * machine (the kernel's, if loaded, would hide it from the suite).
	 */
	if (tlsx_config_set_record_layer(cfg, TLSX_RL_USER))
		goto fail_cfg;
	if (o->server) {
		/* One key file for every connection, so tickets resume. */
		if (o->no_ticket ? tlsx_config_set_tickets(cfg, 0, 7200, 0) :
		    tlsx_config_load_ticket_keys(cfg, ticket_keys))
			goto fail_cfg;
	}
	if (tlsx_config_freeze(cfg))
		goto fail_cfg;
	return cfg;
fail_cfg:
	*why = tlsx_config_error(cfg);
fail:
	/* The message lives in @cfg: keep a copy past its free. */
	snprintf(why_copy, sizeof(why_copy), "%s", *why);
	*why = why_copy;
	tlsx_config_free(cfg);
	return NULL;
}
