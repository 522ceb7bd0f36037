// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_server.c - libFuzzer target: the server engine (server_role.c, hs.c)
 * fed the client's flights.  The input is fuzz_hs.h's: a configuration
 * byte (FZ_S_*: client authentication, P-256 only so that an X25519
 * share gets a HelloRetryRequest, tickets, psk_ke) and chunks that
 * become records, protected under the engine's read key once it has one,
 * so that the mutated plaintext reaches the parsers of the client's
 * Certificate, CertificateVerify and Finished.  Randomness, time and the
 * ticket keys are fixed, so the seeds (flights recorded from tlsx's
 * client by tools/gen/hs_fuzz_seeds.c, resumption included) replay to the
 * end.  Every error is checked against the contract (fz_check_error():
 * an RFC 8446 alert, written once, sticky); a crash, leak or sanitizer
 * report is a finding.  After DONE the server's NewSessionTickets are
 * built too.
 */
#include "handshake/engine/fuzz/fuzz_hs.h"

static struct fz_feeder feeder;
static u8 tickets[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init();
	return 0;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_hs_config cfg;
	struct fz_rand r = { 0 };
	unsigned int bits;
	size_t len;
	int ret;

	if (!size)
		return 0;
	bits = data[0] & (FZ_S_VERIFY | FZ_S_P256 | FZ_S_TICKETS |
			  FZ_S_PSK_KE | FZ_S_P256MLKEM);
	feeder.hs = fz_server(&cfg, bits, &r);
	if (!feeder.hs)
		abort();
	ret = fz_feed(&feeder, data + 1, size - 1);
	fz_report("server", bits, ret, feeder.hs);
	if (ret == TLSX_HS_DONE && (bits & FZ_S_TICKETS) &&
	    tlsx_hs_tickets(feeder.hs, tickets, sizeof(tickets), &len))
		abort();
	tlsx_hs_free(feeder.hs);
	feeder.hs = NULL;
	return 0;
}
