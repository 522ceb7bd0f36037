// SPDX-License-Identifier: GPL-2.0
/*
 * tlsx-bench - tlsx's benchmarks, one subcommand each:
 *
 *	tlsx-bench crypto [OPTIONS]	AEAD seal/open against OpenSSL
 *	tlsx-bench hs [OPTIONS]		handshake primitives against OpenSSL
 *	tlsx-bench handshake [OPTIONS]	whole TLS 1.3 handshakes vs libssl
 *	tlsx-bench kmod [OPTIONS]	tlsx.ko against tls (in the VM)
 *	tlsx-bench http [OPTIONS]	tlsxd against nginx over HTTPS
 *	tlsx-bench uarch [OPTIONS]	VAES/VPCLMULQDQ latency, throughput
 *
 * A new benchmark adds a file with its entry point and a line in
 * bench_cmds[] below.
 */
#include <stdio.h>
#include <string.h>

#include "bench.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct bench_cmd bench_cmds[] = {
	{
		.name = "crypto",
		.summary = "AEAD seal/open per implementation vs OpenSSL EVP",
		.fn = bench_crypto,
		.usage = bench_crypto_usage,
	},
	{
		.name = "hs",
		.summary = "hashes, HKDF, X25519, P-256, Ed25519, RSA vs OpenSSL",
		.fn = bench_hs,
		.usage = bench_hs_usage,
	},
	{
		.name = "handshake",
		.summary = "full and resumed TLS 1.3 handshakes/s vs libssl",
		.fn = bench_handshake,
		.usage = bench_handshake_usage,
	},
	{
		.name = "kmod",
		.summary = "tlsx.ko vs the kernel's tls: throughput, memory",
		.fn = bench_kmod,
		.usage = bench_kmod_usage,
	},
	{
		.name = "http",
		.summary = "tlsxd vs nginx: requests/s, connections/s, bulk",
		.fn = bench_http,
		.usage = bench_http_usage,
	},
	{
		.name = "uarch",
		.summary = "VAES and VPCLMULQDQ latency and throughput",
		.fn = bench_uarch,
		.usage = bench_uarch_usage,
	},
};

static void print_usage(void)
{
	size_t i;

	fputs("Usage: tlsx-bench COMMAND [OPTIONS]\n\n", stderr);
	for (i = 0; i < ARRAY_SIZE(bench_cmds); i++)
		fprintf(stderr, "  %-10s %s\n", bench_cmds[i].name,
			bench_cmds[i].summary);
	fprintf(stderr, "\ntlsx-bench COMMAND --help for its options\n");
}

int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		print_usage();
		return argc < 2 ? 2 : 0;
	}
	for (i = 0; i < ARRAY_SIZE(bench_cmds); i++) {
		const struct bench_cmd *c = &bench_cmds[i];

		if (strcmp(argv[1], c->name))
			continue;
		if (argc > 2 && (!strcmp(argv[2], "--help") ||
				 !strcmp(argv[2], "-h"))) {
			c->usage();
			return 0;
		}
		bench_set_cmdline(argc, argv);
		return c->fn(argc - 1, argv + 1);
	}
	fprintf(stderr, "tlsx-bench: unknown command '%s'\n\n", argv[1]);
	print_usage();
	return 2;
}
