/* SPDX-License-Identifier: GPL-2.0 */
/*
 * stack_probe.h - run one AEAD operation twice, with everything public
 * the same (nonce, AD, lengths, addresses, and the ciphertext: each run's
 * plaintext is that ciphertext XOR its key's keystream) and the secrets
 * different, filling the stack below the caller with a pattern before
 * each run and reading it back after.  A byte that differs between the
 * two reads is a secret the operation left in the stack: a register the
 * compiler spilled to an engine's frame (round state, GHASH or Poly1305
 * sums, a block of text) that nothing wiped (stack_wipe.h).
 *
 * For test_aead_stack (nothing may be left) and test_aead_wipe_depth
 * (what is left before the wipe lies well inside it).  Include after
 * aead_test.h, in a program with FIXTURE(aead) and its variants.
 */
#ifndef TLSX_AEAD_STACK_PROBE_H
#define TLSX_AEAD_STACK_PROBE_H

#include "aead/test/aead_test.h"
#include "test/stack_region.h"

#define STACK_PROBE	8192
#define PROBED		(STACK_PROBE - STACK_REGION_TOP)
#define PROBE_MAXLEN	(16384 + 1)
#define PROBE_MAXSEG	200

/*
 * The operations: setkey, then seal and open on one buffer and on three
 * layouts of segments: a 300-byte head then pages (a record from the
 * page cache), TCP segments of 1448 bytes (a record from skbs), and
 * 100-byte pieces (too short for an engine's own walk: the dispatcher's
 * piece by piece path, with blocks bounced across pieces).
 */
enum probe_op { OP_SETKEY, OP_SEAL, OP_OPEN };
enum probe_layout { LAY_FLAT, LAY_PAGES, LAY_MSS, LAY_BITS, LAY_COUNT };

static const char *const probe_layout_names[LAY_COUNT] = {
	"", "over pages", "over TCP segments", "over 100-byte pieces",
};

static const size_t probe_lens[] = { 1, 64, 300, 1024, 4500, PROBE_MAXLEN };

/* Everything one run touches, at fixed addresses. */
struct probe_run {
	struct tlsx_aead_key key;
	u8 raw[32];		/* the key bytes */
	u8 nonce[12];
	u8 ad[13];
	u8 in[PROBE_MAXLEN];
	u8 out[PROBE_MAXLEN];
	u8 tag[16];
	struct tlsx_aead_seg src[PROBE_MAXSEG], dst[PROBE_MAXSEG];
	unsigned int nsrc, ndst;
};

static struct probe_run probe_r;

/* What the two runs of an operation share and what they found. */
struct probe_pair {
	u8 ct[PROBE_MAXLEN];		/* the one ciphertext */
	u8 ks[2][PROBE_MAXLEN];		/* each key's keystream */
	u8 tags[2][16];
	u8 keys[2][32];
	u8 seen[2][PROBED];
};

/* Cut @len bytes at @p into @seg as @lay lays them out. */
static unsigned int probe_cut(struct tlsx_aead_seg *seg, u8 *p, size_t len,
			      enum probe_layout lay)
{
	unsigned int n = 0;
	size_t at = 0, l;

	while (at < len && n < PROBE_MAXSEG) {
		if (lay == LAY_PAGES)
			l = at ? 4096 : 300;
		else if (lay == LAY_MSS)
			l = 1448;
		else if (lay == LAY_BITS)
			l = 100;
		else
			l = len;
		if (l > len - at || n == PROBE_MAXSEG - 1)
			l = len - at;
		seg[n].data = p + at;
		seg[n++].len = l;
		at += l;
	}
	return n;
}

static noinline int probe_run_op(enum tlsx_aead_alg alg,
				 enum tlsx_aead_impl impl, enum probe_op op,
				 enum probe_layout lay, size_t len)
{
	struct probe_run *r = &probe_r;

	if (op == OP_SETKEY)
		return tlsx_aead_setkey(&r->key, alg, impl, r->raw,
					tlsx_aead_key_len(alg));
	if (lay == LAY_FLAT && op == OP_SEAL)
		return tlsx_aead_seal(&r->key, r->nonce, r->ad, sizeof(r->ad),
				      r->in, r->out, len, r->tag);
	if (lay == LAY_FLAT)
		return tlsx_aead_open(&r->key, r->nonce, r->ad, sizeof(r->ad),
				      r->in, r->out, len, r->tag);
	if (op == OP_SEAL)
		return tlsx_aead_seal_sg(&r->key, r->nonce, r->ad,
					 sizeof(r->ad), r->src, r->nsrc,
					 r->dst, r->ndst, len, r->tag);
	return tlsx_aead_open_sg(&r->key, r->nonce, r->ad, sizeof(r->ad),
				 r->src, r->nsrc, r->dst, r->ndst, len,
				 r->tag);
}

/*
 * Why @alg on @impl cannot be probed here (for SKIP()), or NULL: ASan's
 * red zones make other frames than the product's.
 */
static const char *probe_skip(enum tlsx_aead_alg alg,
			      enum tlsx_aead_impl impl)
{
	static char why[96];

#ifdef __SANITIZE_ADDRESS__
	return "the frames under ASan are not the product's";
#endif
	if (tlsx_aead_impl_available(alg, impl))
		return NULL;
	snprintf(why, sizeof(why), "%s has no %s implementation on this CPU",
		 tlsx_aead_alg_name(alg), tlsx_aead_impl_name(impl));
	return why;
}

/* The keys, the ciphertext and the public inputs of every operation. */
static void probe_pair_init(struct probe_pair *p)
{
	u64 rng = 0x5eed0001;

	rng_fill(&rng, p->ct, sizeof(p->ct));
	rng_fill(&rng, p->keys[0], sizeof(p->keys[0]));
	rng_fill(&rng, p->keys[1], sizeof(p->keys[1]));
	memset(probe_r.nonce, 7, sizeof(probe_r.nonce));
	memset(probe_r.ad, 0x17, sizeof(probe_r.ad));
}

/*
 * Set up run @k of @op on @len bytes: key @k, and the input that makes
 * the public data of both runs the same.
 */
static int probe_prepare(struct probe_pair *p, enum tlsx_aead_alg alg,
			 enum tlsx_aead_impl impl, int k, enum probe_op op,
			 enum probe_layout lay, size_t len)
{
	struct probe_run *r = &probe_r;
	size_t i;
	int ret;

	memcpy(r->raw, p->keys[k], sizeof(r->raw));
	if (op == OP_SETKEY)
		return 0;
	ret = tlsx_aead_setkey(&r->key, alg, impl, r->raw,
			       tlsx_aead_key_len(alg));
	if (ret)
		return ret;
	/* the keystream: the seal of zeros */
	memset(r->in, 0, len);
	ret = tlsx_aead_seal(&r->key, r->nonce, r->ad, sizeof(r->ad), r->in,
			     p->ks[k], len, r->tag);
	if (ret)
		return ret;
	/* the plaintext whose ciphertext is p->ct, and its tag */
	for (i = 0; i < len; i++)
		r->in[i] = p->ct[i] ^ p->ks[k][i];
	ret = tlsx_aead_seal(&r->key, r->nonce, r->ad, sizeof(r->ad), r->in,
			     r->out, len, p->tags[k]);
	if (ret || memcmp(r->out, p->ct, len))
		return -1;
	if (op == OP_OPEN) {
		memcpy(r->in, p->ct, len);
		memcpy(r->tag, p->tags[k], 16);
	}
	memset(r->out, 0, len);
	r->nsrc = probe_cut(r->src, r->in, len, lay);
	r->ndst = probe_cut(r->dst, r->out, len, lay);
	return 0;
}

/*
 * Both runs of @op; p->seen[k] holds what run @k left.  @before, if not
 * NULL, is called before each run, after the fill.  Returns the number of bytes that differ and sets
 * *@lowest to the lowest of them (the deepest), or returns -1 if a run
 * failed.
 */
static int probe_op(struct probe_pair *p, enum tlsx_aead_alg alg,
		    enum tlsx_aead_impl impl, enum probe_op op,
		    enum probe_layout lay, size_t len, void (*before)(void),
		    u8 **lowest)
{
	int k, bad = 0;
	size_t j;

	/* first-time work (lazy binding) before */
	if (probe_prepare(p, alg, impl, 0, op, lay, len) ||
	    probe_run_op(alg, impl, op, lay, len))
		return -1;
	for (k = 0; k < 2; k++) {
		if (probe_prepare(p, alg, impl, k, op, lay, len))
			return -1;
		stack_region_fill(PROBED);
		if (before)
			before();
		if (probe_run_op(alg, impl, op, lay, len))
			return -1;
		stack_region_read(PROBED);
		memcpy(p->seen[k], stack_region_got, PROBED);
	}
	*lowest = NULL;
	for (j = 0; j < PROBED; j++) {
		if (p->seen[0][j] == p->seen[1][j])
			continue;
		if (!bad++)
			*lowest = stack_region_base(PROBED) + j;
	}
	return bad;
}

#endif /* TLSX_AEAD_STACK_PROBE_H */
