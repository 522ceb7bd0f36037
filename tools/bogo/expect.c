// SPDX-License-Identifier: GPL-2.0
/*
 * expect.c - the runner's -expect-* checks on a finished handshake,
 * read through tlsx_conn_info() and tlsx_peer_cert().  Each failed
 * check prints what was expected and what came, and fails the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shim.h"

static int fail(const char *what, long want, long got)
{
	fprintf(stderr, "expect: %s: wanted 0x%04lx, got 0x%04lx\n", what,
		want, got);
	return -1;
}

static int fail_str(const char *what, const char *want, const char *got)
{
	fprintf(stderr, "expect: %s: wanted \"%s\", got \"%s\"\n", what, want,
		got);
	return -1;
}

/* Base64 (RFC 4648 4) of one PEM body line run into @out. */
static int b64_value(int ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + 26;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + 52;
	if (ch == '+')
		return 62;
	if (ch == '/')
		return 63;
	return -1;
}

/*
 * The certificates of PEM file @path compared with the peer's chain,
 * in order and count.
 */
static int peer_chain_check(struct tlsx_conn *c, const char *path)
{
	FILE *f = fopen(path, "r");
	unsigned char der[16384];
	size_t n = 0, index = 0;
	unsigned int acc = 0;
	int bits = 0, rc = 0;
	bool in = false;
	char line[256];

	if (!f) {
		perror(path);
		return -1;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		const uint8_t *peer;
		size_t peer_len;
		char *p;

		if (!strncmp(line, "-----BEGIN CERTIFICATE-----", 27)) {
			in = true;
			n = 0;
			acc = 0;
			bits = 0;
			continue;
		}
		if (!in)
			continue;
		if (!strncmp(line, "-----END", 8)) {
			in = false;
			if (tlsx_peer_cert(c, index, &peer, &peer_len) ||
			    peer_len != n || memcmp(peer, der, n)) {
				fprintf(stderr,
					"expect: peer certificate %zu differs from %s\n",
					index, path);
				rc = -1;
			}
			index++;
			continue;
		}
		for (p = line; *p && *p != '='; p++) {
			int v = b64_value((unsigned char)*p);

			if (v < 0)
				continue;
			acc = (acc << 6) | v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				if (n == sizeof(der)) {
					rc = -1;
					break;
				}
				der[n++] = (acc >> bits) & 0xff;
			}
		}
	}
	fclose(f);
	if (!rc) {
		const uint8_t *peer;
		size_t peer_len;

		if (tlsx_peer_cert(c, index, &peer, &peer_len) !=
		    TLSX_E_NO_CERT) {
			fprintf(stderr, "expect: peer sent more than %zu certificates\n",
				index);
			rc = -1;
		}
	}
	return rc;
}

int shim_expect(const struct shim_opts *o, struct tlsx_conn *c,
		bool is_resume)
{
	struct tlsx_conn_info info;

	if (tlsx_conn_info(c, &info)) {
		fprintf(stderr, "expect: no connection info\n");
		return -1;
	}
	/* The version tlsx negotiates is always TLS 1.3 (0x0304). */
	if (o->expect_version && o->expect_version != 0x0304)
		return fail("version", o->expect_version, 0x0304);
	if (o->expect_cipher && o->expect_cipher != info.suite)
		return fail("cipher", o->expect_cipher, info.suite);
	if (o->expect_curve_id && o->expect_curve_id != info.group)
		return fail("curve", o->expect_curve_id, info.group);
	/*
	 * A resumption has no CertificateVerify and no chain (RFC 8446
	 * 2.2): tlsx reports none there (tlsx.h), where BoringSSL repeats
	 * the session's.  Checked on full handshakes.
	 */
	if (o->expect_peer_sig_alg && !info.resumed &&
	    o->expect_peer_sig_alg != info.sig_scheme)
		return fail("peer signature algorithm",
			    o->expect_peer_sig_alg, info.sig_scheme);
	if (o->expect_alpn && strcmp(o->expect_alpn, info.alpn))
		return fail_str("ALPN", o->expect_alpn, info.alpn);
	if (!o->expect_alpn && !o->select_alpn && !o->advertise_alpn &&
	    info.alpn[0])
		return fail_str("ALPN", "", info.alpn);
	if (o->expect_server_name &&
	    strcmp(o->expect_server_name, info.server_name))
		return fail_str("server name", o->expect_server_name,
				info.server_name);
	if (o->expect_hrr && !info.hrr)
		return fail_str("HelloRetryRequest", "yes", "no");
	if (o->expect_no_hrr && info.hrr)
		return fail_str("HelloRetryRequest", "no", "yes");
	/*
	 * A resumption must resume unless the test expects a miss
	 * (BoringSSL's shim checks both ways); a first connection never
	 * does.
	 */
	if (is_resume && info.resumed == o->expect_session_miss)
		return fail_str("resumption", o->expect_session_miss ?
				"session miss" : "resumed",
				info.resumed ? "resumed" : "session miss");
	if (!is_resume && info.resumed)
		return fail_str("resumption", "full handshake", "resumed");
	if (o->expect_peer_cert_file && !info.resumed &&
	    peer_chain_check(c, o->expect_peer_cert_file))
		return -1;
	return 0;
}
