// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_dispatch.c - the dispatcher's own contract, checked from the
 * inside: this program compiles aead.c itself (so the library's aead.o is
 * not linked) with the platform calls renamed to hooks:
 *
 *  - tlsx_simd_begin()/end() count and check SIMD sections, and can be
 *    told to fail from the Nth begin on (the FPU not usable in the
 *    kernel: at the start of an operation, in the middle, at setkey);
 *  - tlsx_gcm_ops()/tlsx_chachapoly_ops()/tlsx_ccm_ops() return wrapped
 *    engines that
 *    check every call: SIMD engines only inside a section, at most
 *    TLSX_AEAD_SIMD_CHUNK bytes of text per section (a whole record on
 *    the engines fast enough, expect_section_max()), update lengths
 *    multiples of 64 except the last, one engine per operation;
 *  - tlsx_simd_should_yield() can say the scheduler wants the CPU, which
 *    makes a record's section close and reopen between segments;
 *  - tlsx_cpu_features() can present a made-up CPU, to check which
 *    implementations are offered and which AUTO picks (nothing runs on
 *    the made-up CPU).
 *
 * Every result is also checked against OpenSSL.
 */
#include "kselftest_harness.h"
#include "aead/test/aead_test.h"
#include "aead/aead_impl.h"

/* --- hooks ----------------------------------------------------------- */

struct track {
	int depth;		/* SIMD sections open */
	int begins;		/* successful begins */
	int fail_from;		/* begins fail from this count on; -1 never */
	size_t section;		/* text bytes in the open section */
	size_t limit;		/* the most text bytes of one section */
	int updates;		/* encrypt/decrypt calls */
	int oneshots;		/* oneshot calls */
	bool yield;		/* tlsx_simd_should_yield() answers this */
	int engine;		/* impl of the engine of the operation */
	bool short_seen;	/* an update not a multiple of 64 was seen */
	int errors;
	char what[160];
};

static struct track tr = { .fail_from = -1, .engine = -1 };
static struct tlsx_cpu fake_cpu;
static bool use_fake_cpu;

static void track_error(const char *what)
{
	if (!tr.errors++)
		snprintf(tr.what, sizeof(tr.what), "%s", what);
}

static void track_reset(int fail_from)
{
	memset(&tr, 0, sizeof(tr));
	tr.fail_from = fail_from;
	tr.engine = -1;
	tr.limit = TLSX_AEAD_SIMD_CHUNK;
}

static bool hook_simd_begin(void)
{
	if (tr.depth)
		track_error("nested SIMD section");
	if (tr.fail_from >= 0 && tr.begins >= tr.fail_from)
		return false;
	tr.begins++;
	tr.depth = 1;
	tr.section = 0;
	return true;
}

static void hook_simd_end(void)
{
	if (tr.depth != 1)
		track_error("end without begin");
	tr.depth = 0;
}

static bool hook_simd_should_yield(void)
{
	if (tr.depth != 1)
		track_error("yield asked outside a section");
	return tr.yield;
}

static const struct tlsx_cpu *hook_cpu_features(void)
{
	return use_fake_cpu ? &fake_cpu : tlsx_cpu_features();
}

static void track_call(int impl, size_t len, bool update)
{
	if (tr.engine != impl)
		track_error("two engines in one operation");
	if (impl != TLSX_IMPL_GENERIC && tr.depth != 1)
		track_error("SIMD engine outside a SIMD section");
	if (!update)
		return;
	if (tr.short_seen)
		track_error("update after a partial one");
	if (len % TLSX_AEAD_UPDATE_ALIGN)
		tr.short_seen = true;
	tr.updates++;
	if (impl != TLSX_IMPL_GENERIC) {
		tr.section += len;
		if (tr.section > tr.limit)
			track_error("SIMD section longer than allowed");
	}
}

/* Wrapped engines, one set per family and implementation. */
#define WRAP_OPS(fam, impl)						\
static void fam##_init_##impl(union tlsx_aead_state *st,		\
			      const struct tlsx_aead_key *k,		\
			      const u8 *nonce, const u8 *ad,		\
			      size_t ad_len, size_t len)		\
{									\
	tr.engine = impl;						\
	tr.short_seen = false;						\
	track_call(impl, 0, false);					\
	tlsx_##fam##_ops(impl)->init(st, k, nonce, ad, ad_len, len);	\
}									\
static void fam##_enc_##impl(union tlsx_aead_state *st,		\
			     const struct tlsx_aead_key *k,		\
			     const u8 *src, u8 *dst, size_t len)	\
{									\
	track_call(impl, len, true);					\
	tlsx_##fam##_ops(impl)->encrypt(st, k, src, dst, len);		\
}									\
static void fam##_dec_##impl(union tlsx_aead_state *st,		\
			     const struct tlsx_aead_key *k,		\
			     const u8 *src, u8 *dst, size_t len)	\
{									\
	track_call(impl, len, true);					\
	tlsx_##fam##_ops(impl)->decrypt(st, k, src, dst, len);		\
}									\
static void fam##_final_##impl(union tlsx_aead_state *st,		\
			       const struct tlsx_aead_key *k, u8 *tag)	\
{									\
	track_call(impl, 0, false);					\
	tlsx_##fam##_ops(impl)->final(st, k, tag);			\
	tr.engine = -1;							\
}									\
static void fam##_oneshot_##impl(const struct tlsx_aead_key *k,	\
				 bool enc, const u8 *nonce,		\
				 const u8 *ad, size_t ad_len,		\
				 const u8 *src, u8 *dst, size_t len,	\
				 u8 *tag)				\
{									\
	const struct tlsx_aead_ops *o = tlsx_##fam##_ops(impl);		\
									\
	tr.engine = impl;						\
	track_call(impl, 0, false);					\
	if (len > (o->oneshot_max ?: TLSX_AEAD_SIMD_CHUNK))		\
		track_error("oneshot longer than its engine takes");	\
	tr.oneshots++;							\
	o->oneshot(k, enc, nonce, ad, ad_len, src, dst, len, tag);	\
	tr.engine = -1;							\
}									\
/* .oneshot is cleared by hook_*_ops() where the engine has none. */	\
static struct tlsx_aead_ops fam##_wrapped_##impl = {			\
	.name = #fam,							\
	.init = fam##_init_##impl,					\
	.encrypt = fam##_enc_##impl,					\
	.decrypt = fam##_dec_##impl,					\
	.final = fam##_final_##impl,					\
	.oneshot = fam##_oneshot_##impl,				\
}

WRAP_OPS(gcm, TLSX_IMPL_GENERIC);
WRAP_OPS(gcm, TLSX_IMPL_SSE);
WRAP_OPS(gcm, TLSX_IMPL_AVX2);
WRAP_OPS(gcm, TLSX_IMPL_AVX512);
WRAP_OPS(chachapoly, TLSX_IMPL_GENERIC);
WRAP_OPS(chachapoly, TLSX_IMPL_SSE);
WRAP_OPS(chachapoly, TLSX_IMPL_AVX2);
WRAP_OPS(chachapoly, TLSX_IMPL_AVX512);
WRAP_OPS(ccm, TLSX_IMPL_GENERIC);
WRAP_OPS(ccm, TLSX_IMPL_SSE);
WRAP_OPS(ccm, TLSX_IMPL_AVX2);
WRAP_OPS(ccm, TLSX_IMPL_AVX512);

#define WRAPPED_OPS_FN(fam)						\
static const struct tlsx_aead_ops *hook_##fam##_ops(enum tlsx_aead_impl i) \
{									\
	static struct tlsx_aead_ops *const w[TLSX_IMPL_COUNT] = {	\
		[TLSX_IMPL_GENERIC] = &fam##_wrapped_TLSX_IMPL_GENERIC,	\
		[TLSX_IMPL_SSE] = &fam##_wrapped_TLSX_IMPL_SSE,		\
		[TLSX_IMPL_AVX2] = &fam##_wrapped_TLSX_IMPL_AVX2,	\
		[TLSX_IMPL_AVX512] = &fam##_wrapped_TLSX_IMPL_AVX512,	\
	};								\
	const struct tlsx_aead_ops *real;				\
									\
	if ((unsigned int)i >= TLSX_IMPL_COUNT)				\
		return NULL;						\
	real = tlsx_##fam##_ops(i);					\
	if (!real)							\
		return NULL;						\
	if (!real->oneshot)						\
		w[i]->oneshot = NULL;					\
	w[i]->oneshot_max = real->oneshot_max;				\
	return w[i];							\
}

WRAPPED_OPS_FN(gcm)
WRAPPED_OPS_FN(chachapoly)
WRAPPED_OPS_FN(ccm)

/* --- the dispatcher under test ------------------------------------------ */

#define tlsx_simd_begin hook_simd_begin
#define tlsx_simd_end hook_simd_end
#define tlsx_simd_should_yield hook_simd_should_yield
#define tlsx_cpu_features hook_cpu_features
#define tlsx_gcm_ops hook_gcm_ops
#define tlsx_chachapoly_ops hook_chachapoly_ops
#define tlsx_ccm_ops hook_ccm_ops
#include "aead/aead.c"
#undef tlsx_simd_begin
#undef tlsx_simd_end
#undef tlsx_simd_should_yield
#undef tlsx_cpu_features
#undef tlsx_gcm_ops
#undef tlsx_chachapoly_ops
#undef tlsx_ccm_ops

/* --- helpers -------------------------------------------------------------- */

static const enum tlsx_aead_alg all_algs[] = {
	TLSX_AEAD_AES_128_GCM,
	TLSX_AEAD_AES_256_GCM,
	TLSX_AEAD_CHACHA20_POLY1305,
	TLSX_AEAD_AES_128_CCM,
};

/*
 * Steps (*a, *impl) to the next algorithm and SIMD implementation this CPU
 * runs (@a indexes all_algs); false after the last.
 */
static bool next_simd_engine(unsigned int *a, int *impl)
{
	while (*a < ARRAY_SIZE(all_algs)) {
		if (++*impl >= TLSX_IMPL_COUNT) {
			*impl = TLSX_IMPL_SSE - 1;
			++*a;
			continue;
		}
		if (tlsx_aead_impl_available(all_algs[*a], *impl))
			return true;
	}
	return false;
}

/* The tests below count what they ran and skip when it is nothing. */
#define for_each_simd_engine(a, impl)					\
	for ((a) = 0, (impl) = TLSX_IMPL_SSE - 1;			\
	     next_simd_engine(&(a), &(impl));)

/* A text split into segments of @seglen bytes (the last shorter). */
struct split {
	struct tlsx_aead_seg seg[512];
	unsigned int n;
};

static void split_even(struct split *s, u8 *p, size_t len, size_t seglen)
{
	s->n = 0;
	while (len && s->n < ARRAY_SIZE(s->seg) - 1) {
		size_t c = len < seglen ? len : seglen;

		s->seg[s->n].data = p;
		s->seg[s->n++].len = c;
		p += c;
		len -= c;
	}
	s->seg[s->n].data = p;
	s->seg[s->n++].len = len;
}

/*
 * The most text one section may hold, as aead.h promises: a record (up
 * to TLSX_AEAD_SIMD_RECORD bytes) in one section except on SSSE3
 * ChaCha20-Poly1305, else TLSX_AEAD_SIMD_CHUNK.
 */
static size_t expect_section_max(enum tlsx_aead_alg alg,
				 enum tlsx_aead_impl impl, size_t len)
{
	if (len > 16384 + 256)
		return 4096;
	if (alg == TLSX_AEAD_CHACHA20_POLY1305 && impl == TLSX_IMPL_SSE)
		return 4096;
	return 16384 + 256;
}

/* Segment lengths of the next scattered case (0: pick_seglen()). */
static size_t fixed_src_seglen, fixed_dst_seglen;
/* Engine calls of the last seal. */
static int seal_updates;

/* Segment lengths for the scattered cases: blocks straddle, or not. */
static size_t pick_seglen(u64 *rng)
{
	static const size_t lens[] = { 63, 100, 3000, 4096, 5000, 1 << 20 };

	return lens[rng_below(rng, ARRAY_SIZE(lens))];
}

enum op_kind { OP_ONESHOT, OP_SG };

/*
 * Seal then open @len bytes with key @k through @kind, in place or not,
 * against OpenSSL.  Begins fail from @fail_from on (-1: never).  Returns
 * false with tr.what set on the first problem.
 */
static bool run_case_yield(struct tlsx_aead_key *k, const u8 *key,
			   enum tlsx_aead_alg alg, u64 *rng, size_t len,
			   enum op_kind kind, bool in_place, int fail_from,
			   bool yield, int *begins)
{
	u8 *pt = malloc(len + 1), *ct = malloc(len + 1), *ref = malloc(len + 1);
	u8 *buf = malloc(len + 1);
	u8 nonce[12], ad[13], tag[16], ref_tag[16];
	struct split *s = malloc(sizeof(*s)), *d = malloc(sizeof(*d));
	u8 *out = in_place ? buf : ct;
	bool ok = false;
	int ret;

	if (!pt || !ct || !ref || !buf || !s || !d)
		abort();
	rng_fill(rng, pt, len);
	rng_fill(rng, nonce, sizeof(nonce));
	rng_fill(rng, ad, sizeof(ad));
	if (ref_seal(alg, key, nonce, ad, sizeof(ad), pt, len, ref, ref_tag))
		abort();

	/* Seal. */
	track_reset(fail_from);
	tr.limit = expect_section_max(alg, k->impl, len);
	tr.yield = yield;
	memcpy(buf, pt, len);
	if (kind == OP_ONESHOT) {
		ret = tlsx_aead_seal(k, nonce, ad, sizeof(ad), buf, out, len,
				     tag);
	} else {
		split_even(s, buf, len, fixed_src_seglen ?: pick_seglen(rng));
		split_even(d, out, len, fixed_dst_seglen ?: pick_seglen(rng));
		ret = tlsx_aead_seal_sg(k, nonce, ad, sizeof(ad), s->seg, s->n,
					d->seg, d->n, len, tag);
	}
	*begins = tr.begins;
	seal_updates = tr.updates;
	if (ret || tr.depth)
		track_error("seal failed or left a SIMD section open");
	if (!tr.errors && (memcmp(out, ref, len) || memcmp(tag, ref_tag, 16)))
		track_error("seal differs from OpenSSL");
	if (tr.errors)
		goto out;

	/* Open. */
	track_reset(fail_from);
	tr.limit = expect_section_max(alg, k->impl, len);
	tr.yield = yield;
	if (!in_place)
		memset(buf, 0, len);
	if (kind == OP_ONESHOT) {
		ret = tlsx_aead_open(k, nonce, ad, sizeof(ad), out, buf, len,
				     tag);
	} else {
		split_even(s, out, len, pick_seglen(rng));
		split_even(d, buf, len, pick_seglen(rng));
		ret = tlsx_aead_open_sg(k, nonce, ad, sizeof(ad), s->seg, s->n,
					d->seg, d->n, len, tag);
	}
	if (ret || tr.depth)
		track_error("open failed or left a SIMD section open");
	if (!tr.errors && memcmp(buf, pt, len))
		track_error("open gave another plaintext");
	ok = !tr.errors;
out:
	free(pt);
	free(ct);
	free(ref);
	free(buf);
	free(s);
	free(d);
	return ok;
}

/* run_case_yield() with a scheduler that never asks for the CPU. */
static bool run_case(struct tlsx_aead_key *k, const u8 *key,
		     enum tlsx_aead_alg alg, u64 *rng, size_t len,
		     enum op_kind kind, bool in_place, int fail_from,
		     int *begins)
{
	return run_case_yield(k, key, alg, rng, len, kind, in_place,
			      fail_from, false, begins);
}

/* Sections opened for @len bytes: one per started section, at least one. */
static int sections_for(size_t len, size_t max)
{
	return len ? (int)((len + max - 1) / max) : 1;
}

/*
 * At most, over segments: a section may close early rather than cut a
 * short piece off a segment, once three quarters of it are used.
 */
static int sections_max_sg(size_t len, size_t max)
{
	return (int)(len / (max * 3 / 4)) + 1;
}

/* --- tests ------------------------------------------------------------------ */

static const size_t case_lens[] = {
	0, 1, 63, 64, 65, 4095, 4096, 4097, 8191, 8192, 8193, 16384 + 256,
	16384 + 257, 20000,
};

/* Every SIMD implementation: sections bounded, engines used correctly. */
TEST(sections_bounded)
{
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng = 1;
	unsigned int a, i, n = 0;
	int impl, begins;

	for_each_simd_engine(a, impl) {
		track_reset(-1);
		ASSERT_EQ(0, test_setkey(&k, key, &rng, all_algs[a],
					 impl));
		ASSERT_EQ(0, tr.depth);
		for (i = 0; i < 2 * ARRAY_SIZE(case_lens); i++) {
			size_t len = case_lens[i / 2];
			enum op_kind kind = i & 1 ? OP_SG : OP_ONESHOT;
			size_t max = expect_section_max(all_algs[a],
							impl, len);

			ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng,
					     len, kind, i % 3 == 0, -1,
					     &begins))
				TH_LOG("%s %s len %zu: %s",
				       tlsx_aead_alg_name(all_algs[a]),
				       tlsx_aead_impl_name(impl), len,
				       tr.what);
			if (kind == OP_ONESHOT)
				EXPECT_EQ(sections_for(len, max), begins)
					TH_LOG("len %zu", len);
			EXPECT_LE(sections_for(len, max), begins)
				TH_LOG("len %zu", len);
			EXPECT_GE(sections_max_sg(len, max), begins)
				TH_LOG("len %zu", len);
			n++;
		}
	}
	if (!n)
		SKIP(return, "no SIMD implementation on this CPU");
}

/*
 * SIMD not usable when the operation starts: the generic engine does the
 * whole operation on the SIMD key.
 */
TEST(no_simd_at_start)
{
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng = 2;
	unsigned int a, i, n = 0;
	int impl, begins;

	for_each_simd_engine(a, impl) {
		track_reset(-1);
		ASSERT_EQ(0, test_setkey(&k, key, &rng, all_algs[a],
					 impl));
		for (i = 0; i < 2 * ARRAY_SIZE(case_lens); i++) {
			size_t len = case_lens[i / 2];
			enum op_kind kind = i & 1 ? OP_SG : OP_ONESHOT;

			ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng,
					     len, kind, i % 3 == 1, 0,
					     &begins))
				TH_LOG("%s %s len %zu: %s",
				       tlsx_aead_alg_name(all_algs[a]),
				       tlsx_aead_impl_name(impl), len,
				       tr.what);
			EXPECT_EQ(0, begins);
			n++;
		}
		EXPECT_EQ(impl, (int)k.impl);
	}
	if (!n)
		SKIP(return, "no SIMD implementation on this CPU");
}

/*
 * SIMD lost between two chunks (cannot happen in the kernel as it is, but
 * the dispatcher must still be right): undo and redo on the generic
 * engine, in place and out of place.
 */
TEST(simd_lost_midway)
{
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng = 3;
	unsigned int a, v, n = 0;
	int impl, begins;

	for_each_simd_engine(a, impl) {
		track_reset(-1);
		ASSERT_EQ(0, test_setkey(&k, key, &rng, all_algs[a],
					 impl));
		ASSERT_EQ(impl, (int)k.impl);
		/* Lost at the 2nd..5th begin; both kinds; in place. */
		for (v = 0; v < 16; v++) {
			int fail_from = 1 + v / 4;
			enum op_kind kind = (v / 2) & 1;
			bool in_place = v & 1;

			/* Beyond a record: 4 KiB sections. */
			ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng,
					     32768 + 256 - v, kind,
					     in_place, fail_from,
					     &begins))
				TH_LOG("%s %s case %u: %s",
				       tlsx_aead_alg_name(all_algs[a]),
				       tlsx_aead_impl_name(impl), v,
				       tr.what);
			EXPECT_EQ(fail_from, begins)
				TH_LOG("%s %s case %u",
				       tlsx_aead_alg_name(all_algs[a]),
				       tlsx_aead_impl_name(impl), v);
			n++;
		}
	}
	if (!n)
		SKIP(return, "no SIMD implementation on this CPU");
}

/*
 * A record (here 16 KiB of page-cache text and TLS 1.3's type byte, as
 * the module seals a sendfile record) in one SIMD section and one engine
 * call per contiguous run, not one per 4 KiB; with the scheduler asking
 * for the CPU, a section per segment; with SIMD lost at such a reopening,
 * still right (redone on the generic engine).
 */
TEST(record_one_section)
{
	const size_t len = 16384 + 1;
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng = 5;
	unsigned int a, n = 0;
	int impl, begins;

	for_each_simd_engine(a, impl) {
		const char *alg = tlsx_aead_alg_name(all_algs[a]);
		const char *name = tlsx_aead_impl_name(impl);
		bool whole;

		whole = expect_section_max(all_algs[a], impl, len) > 4096;
		track_reset(-1);
		ASSERT_EQ(0, test_setkey(&k, key, &rng, all_algs[a],
					 impl));
		/* Contiguous: one call. */
		ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng, len,
				     OP_ONESHOT, true, -1, &begins))
			TH_LOG("%s %s: %s", alg, name, tr.what);
		EXPECT_EQ(whole ? 1 : 5, begins) TH_LOG("%s %s", alg, name);
		EXPECT_EQ(whole ? 1 : 5, seal_updates)
			TH_LOG("%s %s", alg, name);
		/* Four pages and the type byte into one buffer. */
		fixed_src_seglen = 4096;
		fixed_dst_seglen = 1 << 20;
		ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng, len,
				     OP_SG, false, -1, &begins))
			TH_LOG("%s %s: %s", alg, name, tr.what);
		EXPECT_EQ(whole ? 1 : 5, begins) TH_LOG("%s %s", alg, name);
		EXPECT_EQ(5, seal_updates) TH_LOG("%s %s", alg, name);
		/* The scheduler asks: a section per page. */
		ASSERT_TRUE(run_case_yield(&k, key, all_algs[a], &rng,
					   len, OP_SG, false, -1, true,
					   &begins))
			TH_LOG("%s %s: %s", alg, name, tr.what);
		EXPECT_EQ(5, begins) TH_LOG("%s %s", alg, name);
		EXPECT_EQ(5, seal_updates) TH_LOG("%s %s", alg, name);
		/* ... and SIMD is lost at the third. */
		ASSERT_TRUE(run_case_yield(&k, key, all_algs[a], &rng,
					   len, OP_SG, true, 2, true,
					   &begins))
			TH_LOG("%s %s: %s", alg, name, tr.what);
		EXPECT_EQ(2, begins) TH_LOG("%s %s", alg, name);
		fixed_src_seglen = 0;
		fixed_dst_seglen = 0;
		n++;
	}
	if (!n)
		SKIP(return, "no SIMD implementation on this CPU");
}

static size_t min_len(size_t a, size_t b)
{
	return a < b ? a : b;
}

/*
 * Seal @len bytes of @pt as @src (@nsrc segments) into @dst, then open it
 * back the same way, against OpenSSL; the engine's oneshot calls of the
 * seal in *@oneshots.  Begins fail from @fail_from on (-1: never).
 */
static bool run_segs(struct tlsx_aead_key *k, const u8 *key,
		     enum tlsx_aead_alg alg, u64 *rng, u8 *pt, size_t len,
		     struct tlsx_aead_seg *src, unsigned int nsrc,
		     struct tlsx_aead_seg *dst, unsigned int ndst,
		     int fail_from, int *oneshots)
{
	u8 nonce[12], ad[13], tag[16], ref_tag[16];
	u8 *ref = malloc(len + 1), *ct = malloc(len + 1);
	size_t i, off;
	bool ok = false;

	if (!ref || !ct)
		abort();
	rng_fill(rng, nonce, sizeof(nonce));
	rng_fill(rng, ad, sizeof(ad));
	if (ref_seal(alg, key, nonce, ad, sizeof(ad), pt, len, ref, ref_tag))
		abort();
	track_reset(fail_from);
	tr.limit = expect_section_max(alg, k->impl, len);
	if (tlsx_aead_seal_sg(k, nonce, ad, sizeof(ad), src, nsrc, dst, ndst,
			      len, tag) || tr.depth)
		track_error("seal failed or left a SIMD section open");
	*oneshots = tr.oneshots;
	for (i = 0, off = 0; i < ndst && off < len; off += dst[i++].len)
		memcpy(ct + off, dst[i].data, min_len(dst[i].len, len - off));
	if (!tr.errors && (memcmp(ct, ref, len) || memcmp(tag, ref_tag, 16)))
		track_error("seal differs from OpenSSL");
	track_reset(fail_from);
	tr.limit = expect_section_max(alg, k->impl, len);
	if (!tr.errors &&
	    (tlsx_aead_open_sg(k, nonce, ad, sizeof(ad), dst, ndst, dst, ndst,
			       len, tag) || tr.depth))
		track_error("open failed or left a SIMD section open");
	for (i = 0, off = 0; !tr.errors && i < ndst && off < len;
	     off += dst[i++].len)
		if (memcmp(dst[i].data, pt + off, min_len(dst[i].len, len - off)))
			track_error("open gave another plaintext");
	if (!tr.errors && *oneshots != tr.oneshots)
		track_error("seal and open took different paths");
	ok = !tr.errors;
	free(ref);
	free(ct);
	return ok;
}

/*
 * A record the engine takes in one call (its oneshot) gets that call,
 * and nothing else, whether it comes contiguous or as a segment list
 * whose text lies in one segment (empty segments around it, as the
 * module's lists may have); split across segments, or with SIMD not
 * usable, it goes the general way.
 */
TEST(short_record_one_call)
{
	static u8 pt[TLSX_AEAD_SIMD_CHUNK + 1], out[sizeof(pt) + 64];
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng = 6;
	unsigned int a, n = 0;
	int impl, shots;

	for_each_simd_engine(a, impl) {
		const char *alg = tlsx_aead_alg_name(all_algs[a]);
		const char *name = tlsx_aead_impl_name(impl);
		const struct tlsx_aead_ops *o;
		size_t lens[5], l;
		unsigned int i;

		track_reset(-1);
		ASSERT_EQ(0, test_setkey(&k, key, &rng, all_algs[a],
					 impl));
		o = k.ops;
		ASSERT_TRUE(o != NULL);
		if (!o->oneshot)
			continue;
		l = o->oneshot_max ?: TLSX_AEAD_SIMD_CHUNK;
		ASSERT_GE(sizeof(pt), l + 1);
		lens[0] = 0;
		lens[1] = 1;
		lens[2] = 64;
		lens[3] = l;
		lens[4] = l + 1;
		for (i = 0; i < ARRAY_SIZE(lens); i++) {
			size_t len = lens[i];
			/* [empty, text, empty] / [empty, out, tail] */
			struct tlsx_aead_seg s[3] = {
				{ pt, 0 }, { pt, len }, { pt + len, 0 },
			};
			struct tlsx_aead_seg d[3] = {
				{ out, 0 }, { out, len },
				{ out + len, 64 },
			};
			struct tlsx_aead_seg s2[2] = {
				{ pt, len / 2 }, { pt + len / 2,
						   len - len / 2 },
			};
			struct tlsx_aead_seg d2[2] = {
				{ out, len / 2 }, { out + len / 2,
						    len - len / 2 },
			};
			bool one = len <= l;
			int begins;

			rng_fill(&rng, pt, len);
			/* Contiguous. */
			ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng,
					     len, OP_ONESHOT, false, -1,
					     &begins))
				TH_LOG("%s %s %zu: %s", alg, name, len,
				       tr.what);
			EXPECT_EQ(one ? 1 : 0, tr.oneshots)
				TH_LOG("%s %s %zu", alg, name, len);
			EXPECT_EQ(one ? 0 : 1, seal_updates)
				TH_LOG("%s %s %zu", alg, name, len);
			EXPECT_EQ(1, begins);
			/*
			 * One segment among empty ones (no text: the
			 * walk).
			 */
			ASSERT_TRUE(run_segs(&k, key, all_algs[a], &rng,
					     pt, len, s, 3, d, 3, -1,
					     &shots))
				TH_LOG("%s %s %zu: %s", alg, name, len,
				       tr.what);
			EXPECT_EQ(one && len ? 1 : 0, shots)
				TH_LOG("%s %s %zu", alg, name, len);
			/* Split in two: the segment walk. */
			if (len >= 2) {
				ASSERT_TRUE(run_segs(&k, key,
						     all_algs[a], &rng,
						     pt, len, s2, 2,
						     d2, 2, -1,
						     &shots))
					TH_LOG("%s %s %zu: %s", alg,
					       name, len, tr.what);
				EXPECT_EQ(0, shots);
			}
			/* No SIMD: the generic engine, no oneshot. */
			ASSERT_TRUE(run_segs(&k, key, all_algs[a], &rng,
					     pt, len, s, 3, d, 3, 0,
					     &shots))
				TH_LOG("%s %s %zu: %s", alg, name, len,
				       tr.what);
			EXPECT_EQ(0, shots);
			n++;
		}
	}
	if (!n)
		SKIP(return, "no engine with a one-call path on this CPU");
}

/* SIMD not usable at setkey: the key is set up for GENERIC, and works. */
TEST(setkey_without_simd)
{
	struct tlsx_aead_key k;
	u8 key[32];
	u64 rng = 4;
	unsigned int a;
	int impl, begins;

	for (a = 0; a < ARRAY_SIZE(all_algs); a++) {
		for (impl = TLSX_IMPL_AUTO; impl < TLSX_IMPL_COUNT; impl++) {
			if (!tlsx_aead_impl_available(all_algs[a], impl))
				continue;
			track_reset(0);
			ASSERT_EQ(0, test_setkey(&k, key, &rng, all_algs[a],
						 impl));
			ASSERT_EQ(TLSX_IMPL_GENERIC, (int)k.impl);
			ASSERT_EQ(0, tr.depth);
			ASSERT_TRUE(run_case(&k, key, all_algs[a], &rng, 1000,
					     OP_ONESHOT, false, -1, &begins))
				TH_LOG("%s", tr.what);
			EXPECT_EQ(0, begins);
		}
	}
}

/* --- what is offered on which CPU --------------------------------------- */

static bool engine_compiled(enum tlsx_aead_alg alg, enum tlsx_aead_impl i)
{
	if (alg == TLSX_AEAD_CHACHA20_POLY1305)
		return tlsx_chachapoly_ops(i);
	if (alg == TLSX_AEAD_AES_128_CCM)
		return tlsx_ccm_ops(i);
	return tlsx_gcm_ops(i);
}

/* Expected offer: the feature rule of aead.h and a compiled engine. */
static bool expect_offered(const struct tlsx_cpu *c, enum tlsx_aead_alg alg,
			   enum tlsx_aead_impl i)
{
	bool ccm = alg == TLSX_AEAD_AES_128_CCM;
	bool gcm = alg != TLSX_AEAD_CHACHA20_POLY1305 && !ccm;
	bool avx512 = c->avx512f && c->avx512bw && c->avx512vl && c->avx2;
	bool cpu;

	switch (i) {
	case TLSX_IMPL_GENERIC:
		cpu = true;
		break;
	case TLSX_IMPL_SSE:
		cpu = gcm ? c->aesni && c->pclmul && c->ssse3 : c->ssse3;
		if (ccm)
			cpu = c->aesni && c->ssse3;
		break;
	case TLSX_IMPL_AVX2:
		cpu = gcm ? c->avx2 && c->vaes && c->vpclmulqdq : c->avx2;
		break;
	case TLSX_IMPL_AVX512:
		cpu = gcm ? avx512 && c->vaes && c->vpclmulqdq : avx512;
		break;
	default:
		return false;
	}
	return cpu && engine_compiled(alg, i);
}

static enum tlsx_aead_impl expect_auto(const struct tlsx_cpu *c,
				       enum tlsx_aead_alg alg)
{
	if (c->zmm_ok && expect_offered(c, alg, TLSX_IMPL_AVX512))
		return TLSX_IMPL_AVX512;
	if (expect_offered(c, alg, TLSX_IMPL_AVX2))
		return TLSX_IMPL_AVX2;
	if (expect_offered(c, alg, TLSX_IMPL_SSE))
		return TLSX_IMPL_SSE;
	return TLSX_IMPL_GENERIC;
}

static void set_cpu(const char *name)
{
	struct tlsx_cpu *c = &fake_cpu;

	memset(c, 0, sizeof(*c));
	use_fake_cpu = true;
	if (!strcmp(name, "none"))
		return;
	c->ssse3 = true;
	c->aesni = true;
	c->pclmul = true;
	if (!strcmp(name, "westmere"))
		return;
	c->avx = true;
	c->avx2 = true;
	c->bmi2 = true;
	c->adx = true;
	if (!strcmp(name, "haswell"))
		return;
	c->vaes = true;
	if (!strcmp(name, "qemu-tcg"))	/* our VM: VAES, no VPCLMULQDQ */
		return;
	c->vpclmulqdq = true;
	if (!strcmp(name, "zen3"))
		return;
	c->avx512f = true;
	c->avx512bw = true;
	c->avx512vl = true;
	c->avx512ifma = true;
	if (!strcmp(name, "avx512-slow"))	/* 512-bit code downclocks */
		return;
	c->zmm_ok = true;			/* "zen4" */
}

TEST(offers_by_cpu)
{
	static const char *const cpus[] = {
		"none", "westmere", "haswell", "qemu-tcg", "zen3",
		"avx512-slow", "zen4",
	};
	unsigned int c, a;
	int i;

	tlsx_aead_force_impl(TLSX_IMPL_AUTO);
	for (c = 0; c < ARRAY_SIZE(cpus); c++) {
		set_cpu(cpus[c]);
		for (a = 0; a < ARRAY_SIZE(all_algs); a++) {
			enum tlsx_aead_alg alg = all_algs[a];

			for (i = TLSX_IMPL_GENERIC; i < TLSX_IMPL_COUNT; i++)
				EXPECT_EQ(expect_offered(&fake_cpu, alg, i),
					  tlsx_aead_impl_available(alg, i))
					TH_LOG("%s %s %s", cpus[c],
					       tlsx_aead_alg_name(alg),
					       tlsx_aead_impl_name(i));
			EXPECT_TRUE(tlsx_aead_impl_available(alg,
							     TLSX_IMPL_AUTO));
			EXPECT_EQ(expect_auto(&fake_cpu, alg),
				  tlsx_aead_auto_impl(alg))
				TH_LOG("%s %s", cpus[c],
				       tlsx_aead_alg_name(alg));
		}
	}
	use_fake_cpu = false;
}

/* A forced impl the CPU lacks falls back to the automatic choice. */
TEST(forced_by_cpu)
{
	unsigned int a;
	int i;

	set_cpu("qemu-tcg");
	for (a = 0; a < ARRAY_SIZE(all_algs); a++) {
		enum tlsx_aead_alg alg = all_algs[a];

		for (i = TLSX_IMPL_GENERIC; i < TLSX_IMPL_COUNT; i++) {
			enum tlsx_aead_impl want = i;

			tlsx_aead_force_impl(i);
			if (!expect_offered(&fake_cpu, alg, i))
				want = expect_auto(&fake_cpu, alg);
			EXPECT_EQ(want, tlsx_aead_auto_impl(alg))
				TH_LOG("%s forced %s", tlsx_aead_alg_name(alg),
				       tlsx_aead_impl_name(i));
		}
	}
	tlsx_aead_force_impl(TLSX_IMPL_AUTO);
	use_fake_cpu = false;
}

TEST_HARNESS_MAIN
