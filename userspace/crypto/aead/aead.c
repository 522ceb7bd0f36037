// SPDX-License-Identifier: GPL-2.0
/*
 * aead.c - the AEAD dispatcher: names, choice of implementation, key
 * setup, and the one-shot and scattered seal/open built from the
 * streaming engines of aead_impl.h.
 *
 * Plain C (no vector registers): it runs outside SIMD sections and opens
 * them around the engine calls.
 *
 * SIMD sections.  An operation opens one section with tlsx_simd_begin()
 * and closes and reopens it every tlsx_run_section_max() bytes of text, so
 * the kernel can preempt between sections: a whole record when the
 * engine is fast enough, else TLSX_AEAD_SIMD_CHUNK (see that function).
 * A record's section also closes and reopens between two segments when
 * the scheduler wants the CPU (tlsx_simd_should_yield()), as 6.12's
 * gcm_process_assoc() does.  (The associated data is hashed
 * by the engine's init() in the first section; TLS gives at most 13
 * bytes, and the interface cannot split it.)  If the first begin fails
 * (the FPU is not usable in this context), the whole operation runs on
 * the generic engine of the same algorithm, which every key layout
 * supports.  A later begin cannot fail in practice: irq_fpu_usable()
 * depends only on the calling context and on the in_kernel_fpu flag that
 * our own end just cleared.  Should it fail all the same, the operation
 * restarts on the generic engine: the bytes already written are
 * XORed with the same keystream again (CTR, also CCM's, and
 * ChaCha20 are involutions), which restores the input when in place, and the whole
 * operation is redone.  That costs nothing on the normal path and does
 * not depend on the engines sharing their state layout.
 *
 * Key setup.  tlsx_aead_setkey() runs the algorithm's setkey inside a
 * SIMD section for every impl but GENERIC (to compute powers of H and
 * the like).  If SIMD is not usable at that moment, the key is set up
 * for GENERIC instead and k->impl says so: the key is correct, only
 * slower.  Keys are set from process context (setsockopt), where this
 * does not happen.
 *
 * Scattered buffers.  The walker takes the longest run where both the
 * source and the destination are contiguous and hands it to the engine
 * in one call, rounded down to whole 64-byte blocks unless it is the
 * last piece (the engines' update rule).  A block that straddles a
 * segment boundary on either side is gathered into a 64-byte stack
 * buffer, processed there and scattered back.
 *
 * Secrets on the stack (the engine state, the bounce buffer, the
 * computed tag) are wiped before returning, and so is what the engine's
 * own frames left below ours: each operation ends with a wipe as deep as
 * its engine reaches (ops->stack_wipe and stack_wipe_sg; nothing for the
 * engines that leave nothing, nor after oneshot(), which wipes itself).
 * The tag comparison is constant time; only its result, which is public,
 * selects a branch.
 */
#include "aead/platform.h"
#include "aead/aead_impl.h"
#include "aead/stack_wipe.h"

/*
 * Test seam: the constant-time check compiles this file itself with
 * tlsx_aead_declassify() telling valgrind that a value is public.  (The
 * dispatch tests also compile it, renaming tlsx_simd_begin() and the
 * like to their own hooks.)
 */
#ifndef tlsx_aead_declassify
#define tlsx_aead_declassify(p, n) ((void)(p), (void)(n))
#endif

#define TLSX_AEAD_BLOCK	TLSX_AEAD_UPDATE_ALIGN

static const char *const tlsx_impl_names[TLSX_IMPL_COUNT] = {
	[TLSX_IMPL_AUTO] = "auto",
	[TLSX_IMPL_GENERIC] = "generic",
	[TLSX_IMPL_SSE] = "sse",
	[TLSX_IMPL_AVX2] = "avx2",
	[TLSX_IMPL_AVX512] = "avx512",
};

const char *tlsx_aead_impl_name(enum tlsx_aead_impl impl)
{
	if ((unsigned int)impl >= TLSX_IMPL_COUNT)
		return "unknown";
	return tlsx_impl_names[impl];
}

int tlsx_aead_impl_parse(const char *name)
{
	int i;

	if (!name)
		return -EINVAL;
	for (i = 0; i < TLSX_IMPL_COUNT; i++)
		if (!strcmp(name, tlsx_impl_names[i]))
			return i;
	return -EINVAL;
}

const char *tlsx_aead_alg_name(enum tlsx_aead_alg alg)
{
	switch (alg) {
	case TLSX_AEAD_AES_128_GCM:
		return "aes-128-gcm";
	case TLSX_AEAD_AES_256_GCM:
		return "aes-256-gcm";
	case TLSX_AEAD_CHACHA20_POLY1305:
		return "chacha20-poly1305";
	case TLSX_AEAD_AES_128_CCM:
		return "aes-128-ccm";
	}
	return "unknown";
}

size_t tlsx_aead_key_len(enum tlsx_aead_alg alg)
{
	switch (alg) {
	case TLSX_AEAD_AES_128_GCM:
		return 16;
	case TLSX_AEAD_AES_256_GCM:
		return 32;
	case TLSX_AEAD_CHACHA20_POLY1305:
		return 32;
	case TLSX_AEAD_AES_128_CCM:
		return 16;
	}
	return 0;
}

static bool tlsx_alg_is_gcm(u32 alg)
{
	return alg == TLSX_AEAD_AES_128_GCM || alg == TLSX_AEAD_AES_256_GCM;
}

/* The engine of @alg for @impl (never AUTO), or NULL. */
static const struct tlsx_aead_ops *tlsx_aead_ops_for(u32 alg, u32 impl)
{
	if (tlsx_alg_is_gcm(alg))
		return tlsx_gcm_ops(impl);
	if (alg == TLSX_AEAD_CHACHA20_POLY1305)
		return tlsx_chachapoly_ops(impl);
	if (alg == TLSX_AEAD_AES_128_CCM)
		return tlsx_ccm_ops(impl);
	return NULL;
}

/*
 * The CPU features each implementation needs.  AES-GCM: AES-NI and
 * PCLMULQDQ with SSSE3 byte shuffles on 128-bit vectors; VAES and
 * VPCLMULQDQ on 256-bit vectors for AVX2 (the VM we test the module in
 * has VAES but not VPCLMULQDQ, so both are checked); AVX-512 F/BW/VL with
 * both on 512-bit vectors.  ChaCha20-Poly1305: SSSE3 (rotations by
 * byte shuffles), AVX2, AVX-512 F/BW/VL; the AVX-512 engine picks its
 * Poly1305 (IFMA, else AVX2) itself.  AVX-512 also requires AVX2, which
 * both AVX-512 engines use alongside (every AVX-512 CPU has it).
 * AES-CCM: AES-NI and SSSE3 (the counter's pshufb) for SSE, and no wider
 * engine (tlsx_ccm_ops() has none).
 */
static bool tlsx_cpu_runs(u32 alg, enum tlsx_aead_impl impl)
{
	const struct tlsx_cpu *c = tlsx_cpu_features();
	bool gcm = tlsx_alg_is_gcm(alg);
	bool avx512 = c->avx512f && c->avx512bw && c->avx512vl && c->avx2;

	switch (impl) {
	case TLSX_IMPL_AUTO:
	case TLSX_IMPL_GENERIC:
		return true;
	case TLSX_IMPL_SSE:
		if (alg == TLSX_AEAD_AES_128_CCM)
			return c->aesni && c->ssse3;
		if (gcm)
			return c->aesni && c->pclmul && c->ssse3;
		return c->ssse3;
	case TLSX_IMPL_AVX2:
		if (gcm)
			return c->avx2 && c->vaes && c->vpclmulqdq;
		return c->avx2;
	case TLSX_IMPL_AVX512:
		if (gcm)
			return avx512 && c->vaes && c->vpclmulqdq;
		return avx512;
	default:
		return false;
	}
}

bool tlsx_aead_impl_available(enum tlsx_aead_alg alg,
			      enum tlsx_aead_impl impl)
{
	if (!tlsx_aead_key_len(alg) || (unsigned int)impl >= TLSX_IMPL_COUNT)
		return false;
	if (impl == TLSX_IMPL_AUTO)
		return true;
	return tlsx_cpu_runs(alg, impl) && tlsx_aead_ops_for(alg, impl);
}

/*
 * The forced implementation: the one-time choice the header allows as
 * global state.  In userspace, -1 means "TLSX_AEAD_IMPL not read yet";
 * an explicit tlsx_aead_force_impl() wins over the environment.
 */
#ifdef __KERNEL__

static int tlsx_aead_forced = TLSX_IMPL_AUTO;

static int tlsx_aead_forced_impl(void)
{
	return READ_ONCE(tlsx_aead_forced);
}

void tlsx_aead_force_impl(enum tlsx_aead_impl impl)
{
	if ((unsigned int)impl >= TLSX_IMPL_COUNT)
		impl = TLSX_IMPL_AUTO;
	WRITE_ONCE(tlsx_aead_forced, impl);
}

#else /* userspace */

/* Declared here rather than through <stdlib.h>: see platform.h. */
extern char *getenv(const char *name);

static int tlsx_aead_forced = -1;

static int tlsx_aead_forced_impl(void)
{
	int v = __atomic_load_n(&tlsx_aead_forced, __ATOMIC_ACQUIRE);

	if (unlikely(v < 0)) {
		const char *s = getenv("TLSX_AEAD_IMPL");
		int env = s ? tlsx_aead_impl_parse(s) : TLSX_IMPL_AUTO;

		if (env < 0)
			env = TLSX_IMPL_AUTO;
		__atomic_compare_exchange_n(&tlsx_aead_forced, &v, env, false,
					    __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE);
		v = __atomic_load_n(&tlsx_aead_forced, __ATOMIC_ACQUIRE);
	}
	return v;
}

void tlsx_aead_force_impl(enum tlsx_aead_impl impl)
{
	if ((unsigned int)impl >= TLSX_IMPL_COUNT)
		impl = TLSX_IMPL_AUTO;
	__atomic_store_n(&tlsx_aead_forced, impl, __ATOMIC_RELEASE);
}

#endif /* __KERNEL__ */

/*
 * What AUTO means for @alg: the forced impl if this CPU has it, else the
 * widest available, AVX-512 only where 512-bit code runs at full clock.
 */
static enum tlsx_aead_impl tlsx_aead_auto_impl(u32 alg)
{
	int forced = tlsx_aead_forced_impl();

	if (forced != TLSX_IMPL_AUTO && tlsx_aead_impl_available(alg, forced))
		return forced;
	if (tlsx_cpu_features()->zmm_ok &&
	    tlsx_aead_impl_available(alg, TLSX_IMPL_AVX512))
		return TLSX_IMPL_AVX512;
	if (tlsx_aead_impl_available(alg, TLSX_IMPL_AVX2))
		return TLSX_IMPL_AVX2;
	if (tlsx_aead_impl_available(alg, TLSX_IMPL_SSE))
		return TLSX_IMPL_SSE;
	return TLSX_IMPL_GENERIC;
}

static int tlsx_aead_alg_setkey(struct tlsx_aead_key *k, u32 alg,
				enum tlsx_aead_impl impl, const u8 *key,
				size_t key_len)
{
	if (tlsx_alg_is_gcm(alg))
		return tlsx_gcm_setkey(k, key, key_len, impl);
	if (alg == TLSX_AEAD_AES_128_CCM)
		return tlsx_ccm_setkey(k, key, key_len, impl);
	return tlsx_chachapoly_setkey(k, key, key_len, impl);
}

int tlsx_aead_setkey(struct tlsx_aead_key *k, enum tlsx_aead_alg alg,
		     enum tlsx_aead_impl impl, const u8 *key, size_t key_len)
{
	size_t want = tlsx_aead_key_len(alg);
	int ret;

	if (!k)
		return -EINVAL;
	memzero_explicit(k, sizeof(*k));
	if (!want || key_len != want || !key ||
	    (unsigned int)impl >= TLSX_IMPL_COUNT)
		return -EINVAL;
	if (impl == TLSX_IMPL_AUTO)
		impl = tlsx_aead_auto_impl(alg);
	else if (!tlsx_aead_impl_available(alg, impl))
		return -EOPNOTSUPP;
	if (!tlsx_aead_ops_for(alg, TLSX_IMPL_GENERIC))
		return -EOPNOTSUPP;

	if (impl != TLSX_IMPL_GENERIC && !tlsx_simd_begin())
		impl = TLSX_IMPL_GENERIC;	/* see the top of this file */
	ret = tlsx_aead_alg_setkey(k, alg, impl, key, key_len);
	if (impl != TLSX_IMPL_GENERIC)
		tlsx_simd_end();
	/* The key schedule's spills: rare enough to wipe the deepest. */
	tlsx_stack_wipe(TLSX_STACK_WIPE_MAX);
	if (ret) {
		memzero_explicit(k, sizeof(*k));
		return ret;
	}
	k->alg = alg;
	k->impl = impl;
	k->ops = tlsx_aead_ops_for(alg, impl);
	return 0;
}

void tlsx_aead_wipe(struct tlsx_aead_key *k)
{
	if (k)
		memzero_explicit(k, sizeof(*k));
}

/*
 * Wipe the state of an operation of @alg: only the member its engines
 * use, and with a constant size so that the 64 bytes of AES-GCM are a few
 * inline stores on the small-record path.
 */
/*
 * The Poly1305 state's vector area (most of the state) holds key-derived
 * powers and lanes only once a vector engine has run (simd_ready or
 * simd_lanes set), and tlsx_poly1305_final() wipes it then and clears
 * both flags: after a final, or when no vector engine ran, the fields
 * before it are all there is to wipe.  A record short enough for the
 * scalar code thus wipes some 100 bytes instead of some 900.
 */
static void tlsx_chachapoly_state_wipe(struct tlsx_chachapoly_state *st)
{
	if (st->poly.simd_ready || st->poly.simd_lanes)
		memzero_explicit(st, sizeof(*st));
	else
		memzero_explicit(st, offsetof(struct tlsx_chachapoly_state,
					      poly.simd));
}

static void tlsx_aead_state_wipe(union tlsx_aead_state *st, u32 alg)
{
	if (tlsx_alg_is_gcm(alg))
		memzero_explicit(&st->gcm, sizeof(st->gcm));
	else if (alg == TLSX_AEAD_AES_128_CCM)
		memzero_explicit(&st->ccm, sizeof(st->ccm));
	else
		tlsx_chachapoly_state_wipe(&st->chachapoly);
}

/*
 * Zero the @depth bytes (ops->stack_wipe or stack_wipe_sg) the engine
 * may have left secrets in below the frame that called it (stack_wipe.h):
 * once per operation, by that frame.
 */
static __always_inline void tlsx_aead_stack_wipe(unsigned int depth)
{
	if (depth)
		tlsx_stack_wipe(depth);
}

/* --- scattered buffers ----------------------------------------------- */

static void tlsx_sg_start(struct tlsx_sg_pos *p,
			  const struct tlsx_aead_seg *seg, unsigned int nseg)
{
	p->seg = seg;
	p->nseg = nseg;
	p->off = 0;
}

/* Do @seg hold at least @len bytes, none of them at NULL? */
static bool tlsx_sg_holds(const struct tlsx_aead_seg *seg, unsigned int nseg,
			  size_t len)
{
	unsigned int i;

	if (!len)
		return true;
	if (!seg)
		return false;
	for (i = 0; i < nseg; i++) {
		if (seg[i].len && !seg[i].data)
			return false;
		if (seg[i].len >= len)
			return true;
		len -= seg[i].len;
	}
	return false;
}

static void tlsx_sg_wipe(const struct tlsx_aead_seg *seg, size_t len)
{
	for (; len; seg++) {
		size_t c = seg->len < len ? seg->len : len;

		if (c)
			memzero_explicit(seg->data, c);
		len -= c;
	}
}

/* --- the operation ------------------------------------------------------ */

/* One seal or open in progress. */
struct tlsx_aead_run {
	const struct tlsx_aead_key *k;
	const struct tlsx_aead_ops *ops;
	void (*crypt)(union tlsx_aead_state *st,
		      const struct tlsx_aead_key *k,
		      const u8 *src, u8 *dst, size_t len);
	bool enc;
	bool engine_sg;		/* the engine's update_sg() takes the lists */
	bool simd;		/* inside a SIMD section */
	size_t section;		/* text bytes in the current section */
	size_t section_max;	/* the most text bytes of one section */
	size_t done;		/* text bytes processed */
	union tlsx_aead_state st;
};

/*
 * The most text one SIMD section of an operation of @len bytes on @k
 * covers.  Preemption is off in a section (kernel_fpu_begin()), so it
 * must stay short.  The kernel's own x86 code keeps 4 KiB of text per
 * section (6.12: gcm_crypt() one page per section, ChaCha20 and
 * Poly1305 SZ_4K), some 5 us with its slowest engine (SSSE3 ChaCha20);
 * what costs is not the section but cutting the engine's stream, each
 * piece ending with GHASH work it cannot overlap with AES (about 2.5 %
 * of a 16 KiB record, issue #29).  So a whole record runs in one section
 * where the engine seals it in about 10 us or less (docs/perf-crypto.md,
 * 16 KiB on Zen 5: AES-GCM 0.8-4.9 us on every engine, AES-CCM 9.8 us,
 * ChaCha20-Poly1305 2.8 us on AVX-512 and 7.9 us on AVX2), and between
 * its segments the section yields to the scheduler when asked.  SSSE3
 * ChaCha20-Poly1305 (21 us) and anything longer than a record keep
 * TLSX_AEAD_SIMD_CHUNK.
 */
static size_t tlsx_run_section_max(const struct tlsx_aead_key *k, u32 impl,
				   size_t len)
{
	if (len > TLSX_AEAD_SIMD_RECORD)
		return TLSX_AEAD_SIMD_CHUNK;
	if (k->alg == TLSX_AEAD_CHACHA20_POLY1305 && impl == TLSX_IMPL_SSE)
		return TLSX_AEAD_SIMD_CHUNK;
	return TLSX_AEAD_SIMD_RECORD;
}

/*
 * Start @r for @len bytes: the key's engine inside a SIMD section, or
 * the generic one when the key is generic or SIMD is not usable now.
 */
static int tlsx_run_start(struct tlsx_aead_run *r,
			  const struct tlsx_aead_key *k, bool generic,
			  bool enc, size_t len)
{
	u32 impl = k->impl;

	if (generic)
		impl = TLSX_IMPL_GENERIC;
	r->k = k;
	r->simd = false;
	r->section = 0;
	r->section_max = tlsx_run_section_max(k, impl, len);
	r->done = 0;
	if (impl != TLSX_IMPL_GENERIC) {
		r->ops = k->ops;
		if (unlikely(!r->ops))
			return -EINVAL;
		r->simd = tlsx_simd_begin();
		if (unlikely(!r->simd))
			impl = TLSX_IMPL_GENERIC;
	}
	if (impl == TLSX_IMPL_GENERIC) {
		r->ops = tlsx_aead_ops_for(k->alg, TLSX_IMPL_GENERIC);
		if (unlikely(!r->ops))
			return -EINVAL;
	}
	r->crypt = enc ? r->ops->encrypt : r->ops->decrypt;
	r->enc = enc;
	r->engine_sg = false;
	return 0;
}

/*
 * Make room for more bytes in the SIMD section: when the section is
 * full, or a record's section has work behind it and the scheduler wants
 * the CPU, close it and open another.  Returns false if SIMD became
 * unusable (the section is then closed).
 */
static bool tlsx_run_room(struct tlsx_aead_run *r)
{
	if (!r->simd)
		return true;
	if (r->section < r->section_max &&
	    (!r->section || r->section_max == TLSX_AEAD_SIMD_CHUNK ||
	     !tlsx_simd_should_yield()))
		return true;
	tlsx_simd_end();
	r->section = 0;
	r->simd = tlsx_simd_begin();
	return r->simd;
}

static void tlsx_run_end(struct tlsx_aead_run *r)
{
	if (r->simd)
		tlsx_simd_end();
	r->simd = false;
	tlsx_aead_state_wipe(&r->st, r->k->alg);
}

/*
 * Run the text of @r from @src to @dst (@len bytes).  Returns false if
 * SIMD was lost between chunks, after r->done bytes.
 */
static bool tlsx_run_sg(struct tlsx_aead_run *r, struct tlsx_sg_pos *src,
			struct tlsx_sg_pos *dst, size_t len)
{
	u8 bounce[TLSX_AEAD_BLOCK] __aligned(16);
	bool used_bounce = false;
	bool ok = true;

	while (r->done < len) {
		size_t left = len - r->done;
		size_t n, room;

		if (!tlsx_run_room(r)) {
			ok = false;
			break;
		}
		room = r->simd ? r->section_max - r->section : left;
		if (r->simd && r->engine_sg) {
			/*
			 * The engine walks the segments itself: the section's
			 * room in one call, whatever the pieces.
			 */
			n = room < left ? room & ~(size_t)(TLSX_AEAD_BLOCK - 1) :
					  left;
			if (n) {
				r->ops->update_sg(&r->st, r->k, r->enc, src,
						  dst, n);
				r->done += n;
				r->section += n;
				continue;
			}
		}
		n = tlsx_sg_run(src, dst);
		if (r->simd && n > room && left > room &&
		    room < r->section_max / 4) {
			/*
			 * Close the section early rather than cut a short
			 * piece off a long run (user pages at an offset would
			 * otherwise cost a call of a block or two per page).
			 */
			r->section = r->section_max;
			continue;
		}
		if (n > room)
			n = room;
		if (n >= left)
			n = left;
		else
			n &= ~(size_t)(TLSX_AEAD_BLOCK - 1);

		if (n) {
			r->crypt(&r->st, r->k, tlsx_sg_ptr(src),
				 tlsx_sg_ptr(dst), n);
			src->off += n;
			dst->off += n;
		} else {
			/* A block across a boundary: gather, run, scatter. */
			n = left < TLSX_AEAD_BLOCK ? left : TLSX_AEAD_BLOCK;
			tlsx_sg_copy(src, bounce, n, true);
			r->crypt(&r->st, r->k, bounce, bounce, n);
			tlsx_sg_copy(dst, bounce, n, false);
			used_bounce = true;
		}
		r->done += n;
		r->section += n;
	}
	if (used_bounce)
		memzero_explicit(bounce, sizeof(bounce));
	return ok;
}

/*
 * SIMD was lost in the middle of an operation after @done bytes: XOR the
 * keystream into them again with the generic engine, which gives back
 * the input where the operation was in place.  The caller then redoes
 * the whole operation on the generic engine.
 */
static void tlsx_undo_sg(const struct tlsx_aead_key *k, const u8 *nonce,
			 const struct tlsx_aead_seg *dst, unsigned int ndst,
			 size_t done)
{
	struct tlsx_aead_run r;
	struct tlsx_sg_pos a, b;

	tlsx_run_start(&r, k, true, true, done);
	r.ops->init(&r.st, k, nonce, NULL, 0, done);
	tlsx_sg_start(&a, dst, ndst);
	tlsx_sg_start(&b, dst, ndst);
	tlsx_run_sg(&r, &a, &b, done);
	tlsx_run_end(&r);
	tlsx_aead_stack_wipe(r.ops->stack_wipe_sg);
}

/*
 * Whether update_sg() may take @len bytes of a list: every segment
 * strictly inside them holds a vector (TLSX_AEAD_BLOCK bytes) or none, so
 * no vector of the engine spans more than two segments.  The first and
 * the last may be shorter.  (skb fragments and pages pass; a list of
 * tiny pieces takes the per-piece path.)
 */
static bool tlsx_sg_engine_fits(const struct tlsx_aead_seg *seg,
				unsigned int nseg, size_t len)
{
	bool first = true;
	size_t seen = 0;
	unsigned int i;

	for (i = 0; i < nseg && seen < len; i++) {
		size_t l = seg[i].len;

		if (!l)
			continue;
		if (!first && seen + l < len && l < TLSX_AEAD_BLOCK)
			return false;
		first = false;
		seen += l;
	}
	return true;
}

/*
 * The whole operation over segment lists, writing the tag of the text
 * (computed over the ciphertext either way) to @tag.
 */
static int tlsx_aead_crypt_sg(const struct tlsx_aead_key *k, bool enc,
			      const u8 *nonce, const u8 *ad, size_t ad_len,
			      const struct tlsx_aead_seg *src,
			      unsigned int nsrc,
			      const struct tlsx_aead_seg *dst,
			      unsigned int ndst, size_t len, u8 *tag)
{
	struct tlsx_aead_run r;
	struct tlsx_sg_pos s, d;
	bool generic = false;
	int ret;

	for (;;) {
		ret = tlsx_run_start(&r, k, generic, enc, len);
		if (ret)
			return ret;
		r.ops->init(&r.st, k, nonce, ad, ad_len, len);
		r.engine_sg = r.ops->update_sg &&
			      tlsx_sg_engine_fits(src, nsrc, len) &&
			      tlsx_sg_engine_fits(dst, ndst, len);
		tlsx_sg_start(&s, src, nsrc);
		tlsx_sg_start(&d, dst, ndst);
		if (likely(tlsx_run_sg(&r, &s, &d, len)))
			break;
		/* SIMD lost between chunks (see the top of this file). */
		tlsx_run_end(&r);
		tlsx_aead_stack_wipe(r.ops->stack_wipe_sg);
		tlsx_undo_sg(k, nonce, dst, ndst, r.done);
		generic = true;
	}
	r.ops->final(&r.st, k, tag);
	tlsx_run_end(&r);
	tlsx_aead_stack_wipe(r.ops->stack_wipe_sg);
	return 0;
}

/*
 * The operation on contiguous buffers, the general way: the run state,
 * SIMD sections of r.section_max.  Falls back to the segment code in the
 * rare case of SIMD lost in the middle.
 */
static noinline int tlsx_aead_crypt_run(const struct tlsx_aead_key *k,
					bool enc, const u8 *nonce,
					const u8 *ad, size_t ad_len,
					const u8 *src, u8 *dst, size_t len,
					u8 *tag)
{
	struct tlsx_aead_run r;
	struct tlsx_aead_seg s, d;
	int ret;

	ret = tlsx_run_start(&r, k, false, enc, len);
	if (unlikely(ret))
		return ret;
	/* A record in one call where r.section_max allows it. */
	r.ops->init(&r.st, k, nonce, ad, ad_len, len);
	while (len - r.done > r.section_max) {
		r.crypt(&r.st, k, src + r.done, dst + r.done, r.section_max);
		r.done += r.section_max;
		r.section = r.section_max;
		if (unlikely(!tlsx_run_room(&r)))
			goto lost;
	}
	r.crypt(&r.st, k, src + r.done, dst + r.done, len - r.done);
	r.ops->final(&r.st, k, tag);
	tlsx_run_end(&r);
	tlsx_aead_stack_wipe(r.ops->stack_wipe);
	return 0;

lost:
	tlsx_run_end(&r);
	tlsx_aead_stack_wipe(r.ops->stack_wipe);
	d.data = dst;
	d.len = len;
	tlsx_undo_sg(k, nonce, &d, 1, r.done);
	s.data = (u8 *)src;
	s.len = len;
	return tlsx_aead_crypt_sg(k, enc, nonce, ad, ad_len, &s, 1, &d, 1,
				  len, tag);
}

/*
 * The operation on contiguous buffers.  A record the key's engine takes
 * in one call gets that call in one section, with no run state to set up
 * or wipe: the general path's set-up (engine lookup, run state, calls
 * three deep) cost some 25 core cycles a record on Zen 5, a third of a
 * 64-byte open (docs/perf-crypto.md, issue #29).  The portable engines
 * have no such call, so without SIMD now the general path runs.
 */
static __always_inline int tlsx_aead_crypt(const struct tlsx_aead_key *k,
					   bool enc, const u8 *nonce,
					   const u8 *ad, size_t ad_len,
					   const u8 *src, u8 *dst,
					   size_t len, u8 *tag)
{
	const struct tlsx_aead_ops *ops = k->ops;

	if (k->impl != TLSX_IMPL_GENERIC && ops->oneshot &&
	    len <= (ops->oneshot_max ?: TLSX_AEAD_SIMD_CHUNK) &&
	    likely(tlsx_simd_begin())) {
		ops->oneshot(k, enc, nonce, ad, ad_len, src, dst, len, tag);
		tlsx_simd_end();
		return 0;
	}
	return tlsx_aead_crypt_run(k, enc, nonce, ad, ad_len, src, dst, len,
				   tag);
}

/*
 * Is @k set up (a key tlsx_aead_setkey() did not fill has no engine), are
 * the pointers there for the lengths given, and does the algorithm take
 * @len bytes (AES-CCM's length field has 3 bytes)?
 */
static bool tlsx_aead_args_ok(const struct tlsx_aead_key *k, const u8 *nonce,
			      const u8 *ad, size_t ad_len, const u8 *tag,
			      size_t len)
{
	return k && k->ops && tlsx_aead_key_len(k->alg) && nonce && tag &&
	       (ad || !ad_len) &&
	       (k->alg != TLSX_AEAD_AES_128_CCM || len <= TLSX_CCM_MAX_LEN);
}

/*
 * Check the tag computed in @got against @tag.  The comparison is
 * constant time; its result is public (it is what open returns).
 */
static bool tlsx_aead_tag_ok(u8 *got, const u8 *tag)
{
	int differs = tlsx_tag_differs(got, tag);

	memzero_explicit(got, TLSX_AEAD_TAG_LEN);
	tlsx_aead_declassify(&differs, sizeof(differs));
	return !differs;
}

int tlsx_aead_seal(const struct tlsx_aead_key *k, const u8 *nonce,
		   const u8 *ad, size_t ad_len, const u8 *src, u8 *dst,
		   size_t len, u8 *tag)
{
	if (unlikely(!tlsx_aead_args_ok(k, nonce, ad, ad_len, tag, len) ||
		     (len && (!src || !dst))))
		return -EINVAL;
	return tlsx_aead_crypt(k, true, nonce, ad, ad_len, src, dst, len,
			       tag);
}

int tlsx_aead_open(const struct tlsx_aead_key *k, const u8 *nonce,
		   const u8 *ad, size_t ad_len, const u8 *src, u8 *dst,
		   size_t len, const u8 *tag)
{
	u8 got[TLSX_AEAD_TAG_LEN];
	int ret;

	if (unlikely(!tlsx_aead_args_ok(k, nonce, ad, ad_len, tag, len) ||
		     (len && (!src || !dst))))
		return -EINVAL;
	ret = tlsx_aead_crypt(k, false, nonce, ad, ad_len, src, dst, len,
			      got);
	if (unlikely(ret))
		return ret;
	if (unlikely(!tlsx_aead_tag_ok(got, tag))) {
		if (len)
			memzero_explicit(dst, len);
		return -EBADMSG;
	}
	return 0;
}

/*
 * The first @len bytes of @sg if they lie in one segment (after any empty
 * ones), else NULL.
 */
static u8 *tlsx_sg_flat(const struct tlsx_aead_seg *sg, unsigned int n,
			size_t len)
{
	while (n && !sg->len) {
		sg++;
		n--;
	}
	return n && sg->len >= len ? sg->data : NULL;
}

/*
 * Segment lists that are one contiguous run each (a short record in one
 * page, the common case in the module) take the contiguous path and with
 * it the engine's one-shot code; the others are walked segment by
 * segment.
 */
static int tlsx_aead_crypt_any(const struct tlsx_aead_key *k, bool enc,
			       const u8 *nonce, const u8 *ad, size_t ad_len,
			       const struct tlsx_aead_seg *src,
			       unsigned int nsrc,
			       const struct tlsx_aead_seg *dst,
			       unsigned int ndst, size_t len, u8 *tag)
{
	u8 *s = tlsx_sg_flat(src, nsrc, len);
	u8 *d = tlsx_sg_flat(dst, ndst, len);

	/* (No text: the walk, which needs no pointer to it.) */
	if (len && s && d)
		return tlsx_aead_crypt(k, enc, nonce, ad, ad_len, s, d, len,
				       tag);
	return tlsx_aead_crypt_sg(k, enc, nonce, ad, ad_len, src, nsrc, dst,
				  ndst, len, tag);
}

int tlsx_aead_seal_sg(const struct tlsx_aead_key *k, const u8 *nonce,
		      const u8 *ad, size_t ad_len,
		      const struct tlsx_aead_seg *src, unsigned int nsrc,
		      const struct tlsx_aead_seg *dst, unsigned int ndst,
		      size_t len, u8 *tag)
{
	if (unlikely(!tlsx_aead_args_ok(k, nonce, ad, ad_len, tag, len) ||
		     !tlsx_sg_holds(src, nsrc, len) ||
		     !tlsx_sg_holds(dst, ndst, len)))
		return -EINVAL;
	return tlsx_aead_crypt_any(k, true, nonce, ad, ad_len, src, nsrc,
				   dst, ndst, len, tag);
}

int tlsx_aead_open_sg(const struct tlsx_aead_key *k, const u8 *nonce,
		      const u8 *ad, size_t ad_len,
		      const struct tlsx_aead_seg *src, unsigned int nsrc,
		      const struct tlsx_aead_seg *dst, unsigned int ndst,
		      size_t len, const u8 *tag)
{
	u8 got[TLSX_AEAD_TAG_LEN];
	int ret;

	if (unlikely(!tlsx_aead_args_ok(k, nonce, ad, ad_len, tag, len) ||
		     !tlsx_sg_holds(src, nsrc, len) ||
		     !tlsx_sg_holds(dst, ndst, len)))
		return -EINVAL;
	ret = tlsx_aead_crypt_any(k, false, nonce, ad, ad_len, src, nsrc,
				  dst, ndst, len, got);
	if (unlikely(ret))
		return ret;
	if (unlikely(!tlsx_aead_tag_ok(got, tag))) {
		tlsx_sg_wipe(dst, len);
		return -EBADMSG;
	}
	return 0;
}
