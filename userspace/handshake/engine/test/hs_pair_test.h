/* SPDX-License-Identifier: GPL-2.0 */
/*
 * hs_pair_test.h - tlsx's client against tlsx's server in memory, for
 * the tests that run both ends (test_server.c, test_client_cert.c):
 * each end's configuration, trust and engine, and the driver that hands
 * each one's output to the other until neither wants more.  Each test
 * file sets a pair up its own way (its pair_setup()); pair_free()
 * undoes that.  Include after "kselftest_harness.h".  Test-only.
 */
#ifndef TLSX_HS_PAIR_TEST_H
#define TLSX_HS_PAIR_TEST_H

#include <string.h>

#include "aead/platform.h"
#include "handshake/engine/cert.h"
#include "handshake/engine/hs_impl.h"

struct pair {
	struct tlsx_hs_config ccfg, scfg;
	struct tlsx_cert_chain client_chain;	/* freed by pair_free() */
	struct tlsx_trust ctrust, strust;	/* likewise */
	struct tlsx_hs *c, *s;
	int cret, sret;		/* each end's last tlsx_hs_step() */
	u8 c_in[65536], s_in[65536];
	size_t c_in_len, s_in_len;
	u8 out[TLSX_HS_OUT_MIN];
	bool inplace;		/* both step with tlsx_hs_step_inplace() */
	bool one_record;	/* each step given one record at most */
	size_t gathered;	/* largest message either gathered */
};

/* One end's step, and the message it is gathering noted. */
static inline int pair_step(struct pair *p, struct tlsx_hs *hs, u8 *in,
			    size_t len, size_t *used, size_t *n)
{
	size_t rec = len >= 5 ? 5 + (size_t)get_unaligned_be16(in + 3) : 0;
	int ret;

	/* One record (its header says how long), or what there is. */
	if (p->one_record && rec && len > rec)
		len = rec;
	ret = p->inplace ?
		  tlsx_hs_step_inplace(hs, in, len, used, p->out,
				       sizeof(p->out), n) :
		  tlsx_hs_step(hs, in, len, used, p->out, sizeof(p->out), n);
	if (hs->msg && hs->msg_cap > p->gathered)
		p->gathered = hs->msg_cap;
	return ret;
}

/*
 * Steps the client, then the server, each on what the other wrote,
 * until neither wants to read: cret and sret say how each ended.  A
 * bounded number of rounds, so that a stuck pair fails its test rather
 * than hanging (one record a step takes many more).
 */
static inline void pair_run(struct pair *p)
{
	size_t used, n;
	int i;

	p->cret = p->sret = TLSX_HS_WANT_READ;
	for (i = 0; i < (p->one_record ? 2000 : 20); i++) {
		if (p->cret == TLSX_HS_WANT_READ) {
			p->cret = pair_step(p, p->c, p->c_in, p->c_in_len,
					    &used, &n);
			memmove(p->c_in, p->c_in + used, p->c_in_len - used);
			p->c_in_len -= used;
			memcpy(p->s_in + p->s_in_len, p->out, n);
			p->s_in_len += n;
		}
		if (p->sret == TLSX_HS_WANT_READ) {
			p->sret = pair_step(p, p->s, p->s_in, p->s_in_len,
					    &used, &n);
			memmove(p->s_in, p->s_in + used, p->s_in_len - used);
			p->s_in_len -= used;
			memcpy(p->c_in + p->c_in_len, p->out, n);
			p->c_in_len += n;
		}
		if (p->cret != TLSX_HS_WANT_READ &&
		    p->sret != TLSX_HS_WANT_READ)
			return;
	}
}

/* Frees both engines, the client chain and the trust; zeroes @p. */
static inline void pair_free(struct pair *p)
{
	tlsx_hs_free(p->c);
	tlsx_hs_free(p->s);
	tlsx_cert_chain_free(&p->client_chain);
	tlsx_trust_free(&p->ctrust);
	tlsx_trust_free(&p->strust);
	memset(p, 0, sizeof(*p));
}

#endif /* TLSX_HS_PAIR_TEST_H */
