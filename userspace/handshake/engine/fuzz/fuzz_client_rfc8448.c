// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_client_rfc8448.c - libFuzzer target: the client engine against a fake
 * server.  The input is a ServerHello message (behind a 2-byte length),
 * then a plaintext server flight.  The ServerHello goes in as a
 * plaintext record; if the engine accepts it, the harness seals the
 * rest under the server handshake secret the engine derived (read from
 * its state: the fuzzer cannot do X25519) in records of a length the
 * flight's first byte picks, so messages span records, and feeds them.
 * Randomness is a counter, so every run is the same ClientHello.
 * Whatever the engine returns, it must not read or write out of bounds,
 * leak, or break its contract (an error is sticky, DONE only with
 * secrets).
 */
#include <stdlib.h>

#include "handshake/engine/hs_impl.h"

static int det_rand(void *ctx, void *buf, size_t len)
{
	unsigned int *n = ctx;
	u8 *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (u8)(*n)++;
	return 0;
}

static u8 out[TLSX_HS_OUT_MIN];
static u8 in[70000];

/* Steps @hs over @len bytes of in[]; checks the step's contract. */
static int feed(struct tlsx_hs *hs, size_t len)
{
	size_t used, n;
	int ret = tlsx_hs_step(hs, in, len, &used, out, sizeof(out), &n);

	if (used > len || n > sizeof(out))
		abort();
	if (ret < 0 && tlsx_hs_step(hs, in, len, &used, out, sizeof(out),
				    &n) != ret)
		abort();	/* sticky */
	return ret;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_hs_config cfg = { 0 };
	struct tlsx_rec_dir d = { 0 };
	struct tlsx_hs_secrets sec;
	unsigned int counter = 0;
	struct tlsx_hs *hs;
	size_t sh, off, pos, frag, rl;
	int ret;

	if (size < 2)
		return 0;
	sh = get_unaligned_be16(data);
	if (sh > size - 2 || sh > TLSX_REC_MAX_PLAIN)
		return 0;
	cfg.rand = det_rand;
	cfg.rand_ctx = &counter;
	cfg.insecure = true;
	cfg.record_size_limit = 4096;
	memcpy(cfg.alpn, "\x02h2\x08http/1.1", 12);
	cfg.alpn_len = 12;
	hs = tlsx_hs_new(&cfg);
	if (!hs)
		return 0;
	tlsx_hs_set_server_name(hs, "example.com");
	ret = feed(hs, 0);			/* the ClientHello */
	in[0] = TLSX_CT_HANDSHAKE;
	in[1] = 3;
	in[2] = 3;
	put_unaligned_be16((u16)sh, in + 3);
	memcpy(in + 5, data + 2, sh);
	if (ret == TLSX_HS_WANT_READ)
		ret = feed(hs, 5 + sh);
	/* Accepted (or a HelloRetryRequest answered): the flight, sealed. */
	off = 2 + sh;
	if (ret == TLSX_HS_WANT_READ && hs->rd.set && off < size &&
	    !tlsx_rec_set_secret(&d, hs->suite, hs->s_hs, hs->hash_len)) {
		frag = 1 + (size_t)data[off++] * 64;
		for (pos = 0; off < size; off += frag) {
			size_t n = size - off < frag ? size - off : frag;

			if (pos + n + 22 > sizeof(in) ||
			    tlsx_rec_seal(&d, TLSX_CT_HANDSHAKE, data + off, n,
					  0, in + pos, sizeof(in) - pos, &rl))
				break;
			pos += rl;
		}
		ret = feed(hs, pos);
	} else if (ret == TLSX_HS_WANT_READ && off < size) {
		/* Not keyed: the rest as plaintext records (HRR, CCS, ...). */
		size_t n = size - off < TLSX_REC_MAX_PLAIN ? size - off :
			   TLSX_REC_MAX_PLAIN;

		in[0] = data[off] & 1 ? TLSX_CT_HANDSHAKE :
			TLSX_CT_CHANGE_CIPHER_SPEC;
		put_unaligned_be16((u16)(n - 1), in + 3);
		memcpy(in + 5, data + off + 1, n - 1);
		ret = feed(hs, 5 + n - 1);
	}
	if (ret == TLSX_HS_DONE) {
		if (tlsx_hs_secrets(hs, &sec))
			abort();
		tlsx_hs_secrets_wipe(&sec);
	}
	tlsx_rec_wipe(&d);
	tlsx_hs_free(hs);
	return 0;
}
