// SPDX-License-Identifier: GPL-2.0
/*
 * facts.c - what a handshake negotiated, as "label: value" lines: on
 * stderr for both programs and in tlsx-server --www's page.  The labels
 * are stable: tools/interop/run greps them.
 */
#include <stdarg.h>
#include <stdio.h>

#include "tool.h"

const char *tool_sig_name(uint16_t scheme)
{
	switch (scheme) {
	case 0:
		return "none";
	case 0x0401:
		return "rsa_pkcs1_sha256";
	case 0x0501:
		return "rsa_pkcs1_sha384";
	case 0x0601:
		return "rsa_pkcs1_sha512";
	case 0x0403:
		return "ecdsa_secp256r1_sha256";
	case 0x0503:
		return "ecdsa_secp384r1_sha384";
	case 0x0603:
		return "ecdsa_secp521r1_sha512";
	case 0x0804:
		return "rsa_pss_rsae_sha256";
	case 0x0805:
		return "rsa_pss_rsae_sha384";
	case 0x0806:
		return "rsa_pss_rsae_sha512";
	case 0x0807:
		return "ed25519";
	case 0x0808:
		return "ed448";
	case 0x0809:
		return "rsa_pss_pss_sha256";
	case 0x080a:
		return "rsa_pss_pss_sha384";
	case 0x080b:
		return "rsa_pss_pss_sha512";
	}
	return "unknown";
}

struct out {
	char *buf;
	size_t cap, len;
};

static void put(struct out *w, const char *fmt, ...) __printf(2, 3);

static void put(struct out *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->len + 1 >= w->cap)
		return;
	va_start(ap, fmt);
	n = vsnprintf(w->buf + w->len, w->cap - w->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	w->len += (size_t)n;
	if (w->len >= w->cap)
		w->len = w->cap - 1;
}

static const char *yes(bool b)
{
	return b ? "yes" : "no";
}

size_t tool_describe(const struct tlsx_conn *c, char *buf, size_t cap,
		     const char *eol)
{
	struct tlsx_conn_info in;
	struct out w = { buf, cap, 0 };

	if (!cap)
		return 0;
	buf[0] = '\0';
	if (tlsx_conn_info(c, &in)) {
		put(&w, "handshake: not complete%s", eol);
		return w.len;
	}
	/* libtlsx speaks TLS 1.3 only (supported_versions, RFC 8446 4.2.1). */
	put(&w, "protocol: TLSv1.3%s", eol);
	put(&w, "suite: %s (0x%04x)%s", in.suite_name, in.suite, eol);
	put(&w, "group: %s%s", in.group_name, eol);
	put(&w, "hello retry request: %s%s", yes(in.hrr), eol);
	put(&w, "peer signature: %s%s", tool_sig_name(in.sig_scheme), eol);
	put(&w, "alpn: %s%s", *in.alpn ? in.alpn : "none", eol);
	put(&w, "server name: %s%s", *in.server_name ? in.server_name : "none",
	    eol);
	put(&w, "resumed: %s%s", yes(in.resumed), eol);
	put(&w, "peer certificate: %s%s",
	    in.peer_cert ? "verified" : "none", eol);
	put(&w, "peer record size limit: %u%s", in.peer_record_size_limit,
	    eol);
	put(&w, "record layer: %s%s", tlsx_record_layer_name(in.record_layer),
	    eol);
	put(&w, "handshake syscalls: %u reads, %u writes%s", in.hs_reads,
	    in.hs_writes, eol);
	return w.len;
}

void tool_print_facts(const struct tool_opts *o, const struct tlsx_conn *c)
{
	char buf[1024];

	if (o->quiet)
		return;
	tool_describe(c, buf, sizeof(buf), "\n");
	fputs(buf, stderr);
}

void tool_print_counters(const struct tool_opts *o,
			 const struct tlsx_conn *c)
{
	struct tlsx_conn_info in;

	if (o->quiet || tlsx_conn_info(c, &in))
		return;
	fprintf(stderr, "key updates: sent %llu, received %llu\n",
		(unsigned long long)in.key_updates_sent,
		(unsigned long long)in.key_updates_received);
}
