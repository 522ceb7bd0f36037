// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_stack.c - what tlsx_aead_setkey(), seal and open (contiguous
 * and over segment lists) leave in the stack below their caller, on
 * every implementation: it must not depend on the key or the plaintext.
 *
 * Each operation runs twice with everything public the same (nonce, AD,
 * lengths, addresses, and the ciphertext: each run's plaintext is that
 * ciphertext XOR its key's keystream) and the secrets different.  Before
 * each run the stack below the caller is filled with a pattern; after it
 * the stack is read back; the two reads must be equal.  A register the
 * compiler spilled to an engine's frame (round state, GHASH sums, a
 * plaintext block) shows as bytes that differ (stack_wipe.h).
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"

#define STACK_PROBE	8192
#define PROBED		(STACK_PROBE - 256)
#define MAXLEN		(16384 + 1)

static noinline void stack_fill(void)
{
	u8 *p = (u8 *)__builtin_frame_address(0) - STACK_PROBE;

	memset(p, 0xa5, PROBED);
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static noinline void stack_read(u8 *out)
{
	u8 *p = (u8 *)__builtin_frame_address(0) - STACK_PROBE;

	__asm__ __volatile__("" : : "r"(p) : "memory");
	memcpy(out, p, PROBED);
}

enum op { OP_SETKEY, OP_SEAL, OP_OPEN, OP_SEAL_SG, OP_OPEN_SG, OP_COUNT };

static const char *const op_names[OP_COUNT] = {
	"setkey", "seal", "open", "seal_sg", "open_sg",
};

/* Everything one run touches, at fixed addresses. */
struct run {
	struct tlsx_aead_key key;
	u8 raw[32];		/* the key bytes */
	u8 nonce[12];
	u8 ad[13];
	u8 in[MAXLEN];
	u8 out[MAXLEN];
	u8 tag[16];
	struct tlsx_aead_seg src[8], dst[8];
	unsigned int nsrc, ndst;
};

static struct run r;

/* A head of 300 bytes then pages, as tlsx.ko hands a record over. */
static unsigned int pieces(struct tlsx_aead_seg *seg, u8 *p, size_t len)
{
	unsigned int n = 0;
	size_t at = 0, l;

	while (at < len) {
		l = at ? 4096 : 300;
		if (l > len - at)
			l = len - at;
		seg[n].data = p + at;
		seg[n++].len = l;
		at += l;
	}
	return n;
}

static noinline int run_op(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl,
			   enum op op, size_t len)
{
	switch (op) {
	case OP_SETKEY:
		return tlsx_aead_setkey(&r.key, alg, impl, r.raw,
					tlsx_aead_key_len(alg));
	case OP_SEAL:
		return tlsx_aead_seal(&r.key, r.nonce, r.ad, sizeof(r.ad),
				      r.in, r.out, len, r.tag);
	case OP_OPEN:
		return tlsx_aead_open(&r.key, r.nonce, r.ad, sizeof(r.ad),
				      r.in, r.out, len, r.tag);
	case OP_SEAL_SG:
		return tlsx_aead_seal_sg(&r.key, r.nonce, r.ad, sizeof(r.ad),
					 r.src, r.nsrc, r.dst, r.ndst, len,
					 r.tag);
	case OP_OPEN_SG:
		return tlsx_aead_open_sg(&r.key, r.nonce, r.ad, sizeof(r.ad),
					 r.src, r.nsrc, r.dst, r.ndst, len,
					 r.tag);
	default:
		return -1;
	}
}

/* What the two runs of an operation share and what they found. */
struct pair {
	u8 ct[MAXLEN];			/* the one ciphertext */
	u8 ks[2][MAXLEN];		/* each key's keystream */
	u8 tags[2][16];
	u8 keys[2][32];
	u8 seen[2][PROBED];
};

FIXTURE(aead) {
	struct pair p;
};

FIXTURE_VARIANT(aead) {
	enum tlsx_aead_alg alg;
	enum tlsx_aead_impl impl;
};

#include "aead/test/aead_variants.h"

FIXTURE_SETUP(aead)
{
	u64 rng = 0x5eed0001;

#ifdef __SANITIZE_ADDRESS__
	/* ASan's red zones make other frames than the product's. */
	SKIP(return, "the frames under ASan are not the product's");
#endif
	if (!tlsx_aead_impl_available(variant->alg, variant->impl))
		SKIP(return, "%s has no %s implementation on this CPU",
		     tlsx_aead_alg_name(variant->alg),
		     tlsx_aead_impl_name(variant->impl));
	rng_fill(&rng, self->p.ct, sizeof(self->p.ct));
	rng_fill(&rng, self->p.keys[0], sizeof(self->p.keys[0]));
	rng_fill(&rng, self->p.keys[1], sizeof(self->p.keys[1]));
	memset(r.nonce, 7, sizeof(r.nonce));
	memset(r.ad, 0x17, sizeof(r.ad));
}

FIXTURE_TEARDOWN(aead)
{
}

/*
 * Set up run @k of @op on @len bytes: key @k, and the input that makes
 * the public data of both runs the same.
 */
static int prepare(struct pair *p, enum tlsx_aead_alg alg,
		   enum tlsx_aead_impl impl, int k, enum op op, size_t len)
{
	size_t i;
	int ret;

	memcpy(r.raw, p->keys[k], sizeof(r.raw));
	if (op == OP_SETKEY)
		return 0;
	ret = tlsx_aead_setkey(&r.key, alg, impl, r.raw,
			       tlsx_aead_key_len(alg));
	if (ret)
		return ret;
	/* the keystream: the seal of zeros */
	memset(r.in, 0, len);
	ret = tlsx_aead_seal(&r.key, r.nonce, r.ad, sizeof(r.ad), r.in,
			     p->ks[k], len, r.tag);
	if (ret)
		return ret;
	/* the plaintext whose ciphertext is p->ct, and its tag */
	for (i = 0; i < len; i++)
		r.in[i] = p->ct[i] ^ p->ks[k][i];
	ret = tlsx_aead_seal(&r.key, r.nonce, r.ad, sizeof(r.ad), r.in,
			     r.out, len, p->tags[k]);
	if (ret || memcmp(r.out, p->ct, len))
		return -1;
	if (op == OP_OPEN || op == OP_OPEN_SG) {
		memcpy(r.in, p->ct, len);
		memcpy(r.tag, p->tags[k], 16);
	}
	memset(r.out, 0, len);
	r.nsrc = pieces(r.src, r.in, len);
	r.ndst = pieces(r.dst, r.out, len);
	return 0;
}

/*
 * Known gaps (docs/ct-aead.md, "What is left in the stack"): these
 * implementations leave key- or text-dependent bytes below their caller
 * (measured 2026-12-07: AES and GHASH state of the generic, AES-NI and
 * AVX2 GCM engines, Poly1305's and the ChaCha20-Poly1305 layer's, CCM's).
 * For them the test reports a skip with what it found, and fails if it
 * finds nothing: the gap has closed and its line must go.  The AVX-512
 * AES-GCM engine, and AES-256 on AES-NI, must leave nothing.
 */
static bool known_gap(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	switch (alg) {
	case TLSX_AEAD_AES_128_GCM:
		return impl != TLSX_IMPL_AVX512;
	case TLSX_AEAD_AES_256_GCM:
		return impl == TLSX_IMPL_GENERIC || impl == TLSX_IMPL_AVX2;
	default:	/* ChaCha20-Poly1305, AES-128-CCM */
		return true;
	}
}

TEST_F(aead, stack_left_behind)
{
	bool gap = known_gap(variant->alg, variant->impl);
	unsigned int leaky = 0;
	static const size_t lens[] = { 64, 1024, MAXLEN };
	unsigned int i, k, bad, cases = 0;
	size_t j, deep;
	int op;

	for (op = 0; op < OP_COUNT; op++) {
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			if (op == OP_SETKEY && i)
				break;
			/* first-time work (lazy binding) before */
			ASSERT_EQ(0, prepare(&self->p, variant->alg,
					     variant->impl, 0, op, lens[i]));
			ASSERT_EQ(0, run_op(variant->alg, variant->impl, op,
					    lens[i]));
			for (k = 0; k < 2; k++) {
				ASSERT_EQ(0, prepare(&self->p, variant->alg,
						     variant->impl, k, op,
						     lens[i]));
				stack_fill();
				ASSERT_EQ(0, run_op(variant->alg,
						    variant->impl, op,
						    lens[i]));
				stack_read(self->p.seen[k]);
			}
			for (j = 0, bad = 0, deep = 0; j < PROBED; j++) {
				if (self->p.seen[0][j] == self->p.seen[1][j])
					continue;
				if (!bad++)
					deep = STACK_PROBE - j;
			}
			if (bad)
				TH_LOG("%s %zu bytes: %u bytes of stack depend on the secrets, the deepest %zu bytes below the probe's frame",
				       op_names[op], lens[i], bad, deep);
			leaky += bad != 0;
			cases++;
		}
	}
	TH_LOG("%u operations compared, %u left secrets", cases, leaky);
	if (!gap) {
		EXPECT_EQ(0, leaky);
		return;
	}
	ASSERT_NE(0, leaky) {
		TH_LOG("a known gap has closed: drop it from known_gap()");
	}
	SKIP(return, "known gap (docs/ct-aead.md): %u of %u operations leave secrets in the stack",
	     leaky, cases);
}

TEST_HARNESS_MAIN
