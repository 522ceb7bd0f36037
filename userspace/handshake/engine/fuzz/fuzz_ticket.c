// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_ticket.c - libFuzzer target: the parsers of ticket.c.  The first
 * byte picks one, the rest is its input:
 *
 *  0  tlsx_session_from_ticket(): a NewSessionTicket message (4.6.1), as
 *     a client takes it after the handshake;
 *  1  tlsx_session_decode(): a session file (tlsx-client --sess-in);
 *  2  tlsx_ticket_open(): a ticket a client offers, under the fixed keys
 *     of fuzz_hs.h (the seed, a real ticket, opens).
 *
 * Checked: only the return values ticket.h documents; a failure leaves
 * the session wiped; a success gives a whole session (a ticket, a PSK the
 * length of the suite's hash, a lifetime of at most seven days) whose
 * encoding decodes to the same and encodes to the same bytes again.
 */
#include "handshake/engine/fuzz/fuzz_hs.h"

static struct tlsx_session s, s2;
static const struct tlsx_session zero;
static u8 enc[4096], enc2[4096];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fz_init();
	return 0;
}

/* A session any parser returned must be whole, and survive a file. */
static void check_session(const struct tlsx_session *ss, bool from_nst)
{
	size_t len, len2;
	enum tlsx_hash_alg hash;

	if (tlsx_suite_params(ss->suite, NULL, &hash, NULL))
		abort();
	if (ss->psk_len != tlsx_hash_digest_size(hash) ||
	    ss->lifetime > TLSX_TICKET_MAX_LIFETIME ||
	    ss->ticket_len > TLSX_TICKET_MAX ||
	    memchr(ss->server_name, 0, sizeof(ss->server_name)) == NULL ||
	    memchr(ss->alpn, 0, sizeof(ss->alpn)) == NULL)
		abort();
	/* 4.6.1: opaque ticket<1..2^16-1>; a server's own has one too. */
	if (!ss->ticket_len && from_nst)
		abort();
	if (tlsx_session_encode(ss, enc, sizeof(enc), &len)) {
		/* Only a session without a ticket is not whole. */
		if (ss->ticket_len)
			abort();
		return;
	}
	if (tlsx_session_decode(&s2, enc, len) ||
	    tlsx_session_encode(&s2, enc2, sizeof(enc2), &len2) ||
	    len != len2 || memcmp(enc, enc2, len) ||
	    s2.suite != ss->suite || s2.psk_len != ss->psk_len ||
	    memcmp(s2.psk, ss->psk, ss->psk_len) ||
	    s2.ticket_len != ss->ticket_len ||
	    memcmp(s2.ticket, ss->ticket, ss->ticket_len))
		abort();
	tlsx_session_wipe(&s2);
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct tlsx_hs_secrets sec = {
		.suite = TLSX_SUITE_AES_128_GCM_SHA256,
		.hash = TLSX_HASH_SHA256,
		.secret_len = SHA256_DIGEST_SIZE,
	};
	int ret;

	if (!size)
		return 0;
	memset(sec.res_master, 0x5a, sizeof(sec.res_master));
	switch (data[0]) {
	case 0:
		ret = tlsx_session_from_ticket(&sec, FZ_HOST,
					       (const u8 *)"h2", data + 1,
					       size - 1, FZ_NOW, &s);
		if (ret && ret != TLSX_ALERT_DECODE_ERROR &&
		    ret != TLSX_ALERT_ILLEGAL_PARAMETER &&
		    ret != -EMSGSIZE && ret != -EINVAL)
			abort();
		break;
	case 1:
		ret = tlsx_session_decode(&s, data + 1, size - 1);
		if (ret && ret != -EBADMSG)
			abort();
		break;
	case 2:
		ret = tlsx_ticket_open(fz.keys, data + 1, size - 1, FZ_NOW, &s);
		if (ret && ret != -ENOENT && ret != -ETIME)
			abort();
		break;
	default:
		return 0;
	}
	if (ret && memcmp(&s, &zero, sizeof(s)))
		abort();	/* ticket.h: wiped on failure */
	if (!ret)
		check_session(&s, data[0] == 0);
	tlsx_session_wipe(&s);
	return 0;
}
