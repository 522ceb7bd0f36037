// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_client.c - libFuzzer target: the client engine (client_role.c, hs.c)
 * fed the server's flights.  The input is fuzz_hs.h's: a configuration
 * byte (FZ_C_*: a client certificate, a session to resume, psk_ke) and
 * chunks that become records, protected under the engine's read key so
 * that the mutated plaintext reaches the parsers of EncryptedExtensions,
 * CertificateRequest, Certificate, CertificateVerify and Finished.
 * Randomness and time are fixed, so the seeds (flights recorded from
 * tlsx's server by tools/gen/hs_fuzz_seeds.c) replay to the end.  Every
 * error is checked against the contract (fz_check_error(): an RFC 8446
 * alert, written once, sticky); a crash, leak or sanitizer report is a
 * finding.
 */
#include "handshake/engine/fuzz/fuzz_hs.h"

static struct fz_feeder feeder;

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
	int ret;

	if (!size)
		return 0;
	bits = data[0] & (FZ_C_CHAIN | FZ_C_SESSION | FZ_C_PSK_KE |
			  FZ_C_P256MLKEM | FZ_C_PQ_LATE);
	feeder.hs = fz_client(&cfg, bits, &r);
	if (!feeder.hs)
		abort();
	ret = fz_feed(&feeder, data + 1, size - 1);
	fz_report("client", bits, ret, feeder.hs);
	tlsx_hs_free(feeder.hs);
	feeder.hs = NULL;
	return 0;
}
