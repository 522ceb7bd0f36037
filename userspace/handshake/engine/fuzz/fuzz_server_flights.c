// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_server_flights.c - libFuzzer target: the server engine (server_role.c, hs.c)
 * with the peer's flights as input and deterministic randomness.
 *
 * Input: one flags byte, then chunks of a 2-byte length and its bytes.
 * The first chunk goes to tlsx_hs_step() as it is (plaintext records:
 * the ClientHello, a second one after a HelloRetryRequest, CCS,
 * alerts); once the engine has a read key, every later chunk is sealed
 * as one protected handshake record under the client's handshake
 * secret (read from the engine, as a client would have derived it), so
 * Certificate, CertificateVerify and Finished handlers are reached too.
 * Flags: bit 0 verify_peer (no anchors: chains only parsed), bit 1 the
 * server takes secp256r1 only (HelloRetryRequest for X25519 clients),
 * bit 2 ALPN "h2", bit 3 tickets.
 *
 * Checked: no sanitizer report; an error is sticky (a second step
 * returns it again); a step never writes past its buffer or says it
 * consumed more than it was given.
 */
#include <stdio.h>
#include <stdlib.h>

#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"

static struct tlsx_cert_chain chain;
static struct tlsx_ticket_keys *keys;
static u8 out[TLSX_HS_OUT_MIN];

static int counter_rand(void *ctx, void *buf, size_t len)
{
	unsigned int *n = ctx;
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(++*n * 151u + 7u);
	return 0;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	static char buf[2][8192];
	static int k;
	char *p = buf[k++ & 1];

	if (!f)
		abort();
	*len = fread(p, 1, sizeof(buf[0]) - 1, f);
	fclose(f);
	return p;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	size_t cl, kl;
	const char *c, *k;

	(void)argc;
	(void)argv;
	/* make runs the targets from the top of the tree. */
	c = slurp("userspace/handshake/engine/test/data/p256-chain.pem", &cl);
	k = slurp("userspace/handshake/engine/test/data/p256-leaf.key", &kl);
	if (tlsx_cert_chain_load_mem(&chain, c, cl, k, kl, NULL))
		abort();
	keys = tlsx_ticket_keys_new(0, 1800000000);
	if (!keys)
		abort();
	return 0;
}

static int step(struct tlsx_hs *hs, const u8 *in, size_t len)
{
	size_t used = 0, n = 0;
	int ret = tlsx_hs_step(hs, in, len, &used, out, sizeof(out), &n);

	if (used > len || n > sizeof(out))
		abort();
	return ret;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_hs_config cfg = { .server = true };
	static u8 rec[TLSX_REC_MAX + 64];
	struct tlsx_rec_dir c = { 0 };
	unsigned int rnd = 0;
	struct tlsx_hs *hs;
	size_t off = 1, len, n;
	int ret = TLSX_HS_WANT_READ;
	u8 flags;

	if (!size)
		return 0;
	flags = data[0];
	cfg.chains[0] = &chain;
	cfg.n_chains = 1;
	cfg.rand = counter_rand;
	cfg.rand_ctx = &rnd;
	cfg.verify_peer = flags & 1;
	cfg.insecure = true;
	if (flags & 2) {
		cfg.groups[0] = TLSX_GROUP_SECP256R1;
		cfg.n_groups = 1;
	}
	if (flags & 4) {
		memcpy(cfg.alpn, "\x02h2", 3);
		cfg.alpn_len = 3;
	}
	if (flags & 8) {
		cfg.tickets = keys;
		cfg.tickets_per_handshake = 1;
	}
	hs = tlsx_hs_new(&cfg);
	if (!hs)
		return 0;
	tlsx_hs_set_time(hs, 1800000000);
	while (ret == TLSX_HS_WANT_READ && size - off >= 2) {
		len = get_unaligned_be16(data + off);
		off += 2;
		if (len > size - off)
			len = size - off;
		if (!hs->rd.set) {
			ret = step(hs, data + off, len);
		} else {
			if (!c.set && tlsx_rec_set_secret(&c, hs->suite,
							  hs->c_hs,
							  hs->hash_len))
				break;
			if (len > TLSX_REC_MAX_PLAIN)
				len = TLSX_REC_MAX_PLAIN;
			if (tlsx_rec_seal(&c, TLSX_CT_HANDSHAKE, data + off,
					  len, 0, rec, sizeof(rec), &n))
				break;
			ret = step(hs, rec, n);
		}
		off += len;
	}
	/* Sticky: the same error again, nothing consumed. */
	if (ret < 0 && step(hs, data, size) != ret)
		abort();
	if (ret == TLSX_HS_DONE) {
		n = 0;
		tlsx_hs_tickets(hs, out, sizeof(out), &n);
	}
	tlsx_rec_wipe(&c);
	tlsx_hs_free(hs);
	return 0;
}
