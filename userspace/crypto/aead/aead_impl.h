/* SPDX-License-Identifier: GPL-2.0 */
/*
 * aead_impl.h - what each AEAD implementation provides to the dispatcher
 * (aead.c).  Not for users of the AEAD: they include aead.h.
 *
 * An implementation is a streaming engine: init with nonce, associated
 * data and the text length of the whole operation (CCM encodes it in its
 * first block; the other algorithms ignore it), any number of updates
 * whose lengths add up to it, then the tag.  The dispatcher builds the
 * one-shot and scattered calls from it, brackets every SIMD call in
 * tlsx_simd_begin()/tlsx_simd_end() with at most TLSX_AEAD_SIMD_CHUNK bytes
 * in between (a whole record, up to TLSX_AEAD_SIMD_RECORD bytes in one
 * update, on engines fast enough: aead.c's tlsx_run_section_max()), and
 * falls back to the generic engine (on the same key, whose
 * layout always keeps what the generic engine needs) when the FPU is not
 * usable.  Engines never call tlsx_simd_begin() themselves.
 *
 * Rules for update(): every call but the last of an operation has @len a
 * multiple of TLSX_AEAD_UPDATE_ALIGN; the last may have any length,
 * including zero.  @src and @dst may be equal (in place) but may not
 * otherwise overlap.  The engine keeps the counter and the MAC state in
 * @st; @st holds no key material in the clear beyond what the algorithm
 * itself carries (the dispatcher wipes it after use).
 */
#ifndef TLSX_CRYPTO_AEAD_IMPL_H
#define TLSX_CRYPTO_AEAD_IMPL_H

#include "aead/aead.h"

#define TLSX_AEAD_UPDATE_ALIGN	64

union tlsx_aead_state {
	struct tlsx_gcm_state gcm;
	struct tlsx_chachapoly_state chachapoly;
	struct tlsx_ccm_state ccm;
};

/*
 * A position in a segment list (the dispatcher's scattered operations,
 * and engines with update_sg()).
 */
struct tlsx_sg_pos {
	const struct tlsx_aead_seg *seg;
	unsigned int nseg;	/* segments left, the current one included */
	size_t off;		/* offset in the current segment */
};

/*
 * Bytes contiguous at @p, skipping finished and empty segments.  The
 * caller has checked that the list holds every byte it asks for, so
 * this is never called at the end of the list.
 */
static inline size_t tlsx_sg_avail(struct tlsx_sg_pos *p)
{
	while (p->off == p->seg->len) {
		p->seg++;
		p->nseg--;
		p->off = 0;
	}
	return p->seg->len - p->off;
}

static inline u8 *tlsx_sg_ptr(const struct tlsx_sg_pos *p)
{
	return p->seg->data + p->off;
}

/* Bytes contiguous at both @src and @dst: a run one call can take. */
static inline size_t tlsx_sg_run(struct tlsx_sg_pos *src,
				 struct tlsx_sg_pos *dst)
{
	size_t s = tlsx_sg_avail(src), d = tlsx_sg_avail(dst);

	return s < d ? s : d;
}

/* Copy @n bytes at @p to @buf (@to_buf) or from @buf, and advance. */
static inline void tlsx_sg_copy(struct tlsx_sg_pos *p, u8 *buf, size_t n,
				bool to_buf)
{
	size_t c;

	while (n) {
		c = tlsx_sg_avail(p);
		if (c > n)
			c = n;
		if (to_buf)
			memcpy(buf, tlsx_sg_ptr(p), c);
		else
			memcpy(tlsx_sg_ptr(p), buf, c);
		p->off += c;
		buf += c;
		n -= c;
	}
}

struct tlsx_aead_ops {
	const char *name;
	void (*init)(union tlsx_aead_state *st, const struct tlsx_aead_key *k,
		     const u8 *nonce, const u8 *ad, size_t ad_len,
		     size_t len);
	void (*encrypt)(union tlsx_aead_state *st,
			const struct tlsx_aead_key *k,
			const u8 *src, u8 *dst, size_t len);
	void (*decrypt)(union tlsx_aead_state *st,
			const struct tlsx_aead_key *k,
			const u8 *src, u8 *dst, size_t len);
	/* Write the 16-byte tag of everything processed. */
	void (*final)(union tlsx_aead_state *st, const struct tlsx_aead_key *k,
		      u8 *tag);
	/*
	 * Optional: a whole operation on contiguous buffers of at most
	 * @oneshot_max bytes (one SIMD section), writing the tag of
	 * the ciphertext to @tag.  An engine provides it where one pass
	 * beats init/update/final (fewer reductions, the tag mask computed
	 * alongside the text); same rules as update() for @src and @dst.
	 */
	void (*oneshot)(const struct tlsx_aead_key *k, bool enc,
			const u8 *nonce, const u8 *ad, size_t ad_len,
			const u8 *src, u8 *dst, size_t len, u8 *tag);
	/* The longest text oneshot() takes; 0: TLSX_AEAD_SIMD_CHUNK. */
	size_t oneshot_max;
	/*
	 * Optional: encrypt() (@enc) or decrypt() over segment lists,
	 * advancing @src and @dst by @len bytes (same rules for @len).  The
	 * engine loads and stores the vectors that straddle two segments
	 * itself, so a record in pieces is one pass, not one per piece
	 * with the straddling blocks bounced between them.  Every segment
	 * strictly inside the text holds TLSX_AEAD_UPDATE_ALIGN bytes or
	 * none (the dispatcher checks; other lists go piece by piece).
	 */
	void (*update_sg)(union tlsx_aead_state *st,
			  const struct tlsx_aead_key *k, bool enc,
			  struct tlsx_sg_pos *src, struct tlsx_sg_pos *dst,
			  size_t len);
	/*
	 * How deep below the dispatcher's frame the engine's calls may leave
	 * secrets in the stack (registers the compiler spilled: round state,
	 * MAC sums, text), or 0 where they leave nothing: for an operation
	 * on one buffer and for one over segment lists (update_sg(), or the
	 * pieces one by one), whose frames reach deeper.  The dispatcher
	 * zeroes that many bytes once after each operation (stack_wipe.h).
	 * oneshot() leaves nothing: an engine whose one call spills wipes
	 * what it spilled before returning, as deep as the path it took.
	 * test_aead_stack checks nothing is left, test_aead_wipe_depth that
	 * every depth has a quarter to spare.
	 */
	unsigned short stack_wipe;
	unsigned short stack_wipe_sg;
};

/*
 * Per-algorithm entry points (gcm*.c, chachapoly*.c, ccm*.c).
 *
 * *_setkey() fills k->u for @impl (never AUTO; the dispatcher has checked
 * the CPU can run it) and may use SIMD: the dispatcher calls it inside a
 * SIMD section when @impl is not GENERIC.
 *
 * *_ops() returns the engine for @impl, or NULL if the algorithm has no
 * such implementation compiled in.
 */
int tlsx_gcm_setkey(struct tlsx_aead_key *k, const u8 *key, size_t key_len,
		    enum tlsx_aead_impl impl);
const struct tlsx_aead_ops *tlsx_gcm_ops(enum tlsx_aead_impl impl);

int tlsx_chachapoly_setkey(struct tlsx_aead_key *k, const u8 *key,
			   size_t key_len, enum tlsx_aead_impl impl);
const struct tlsx_aead_ops *tlsx_chachapoly_ops(enum tlsx_aead_impl impl);

int tlsx_ccm_setkey(struct tlsx_aead_key *k, const u8 *key, size_t key_len,
		    enum tlsx_aead_impl impl);
const struct tlsx_aead_ops *tlsx_ccm_ops(enum tlsx_aead_impl impl);

/* Constant-time comparison of two 16-byte tags: 0 when equal. */
static inline int tlsx_tag_differs(const u8 *a, const u8 *b)
{
	u64 d = (get_unaligned_le64(a) ^ get_unaligned_le64(b)) |
		(get_unaligned_le64(a + 8) ^ get_unaligned_le64(b + 8));

	/* Map 0 -> 0 and anything else -> 1 without a branch on d. */
	return (int)((d | (0 - d)) >> 63);
}

#endif /* TLSX_CRYPTO_AEAD_IMPL_H */
