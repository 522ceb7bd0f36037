// SPDX-License-Identifier: GPL-2.0
/*
 * kmod_aead.c - the AEAD engines built into tlsx.ko agree with the same
 * engines built for userspace: records sealed in the kernel open in
 * userspace and the reverse, for every implementation the guest CPU has
 * on either side, contiguous and scattered, in place and not, and with
 * the FPU unusable (the kernel's portable fallback); and the kernel
 * build leaves no secret in its stack.  The kernel side is reached
 * through /sys/kernel/debug/tlsx/aead (kmod/debugfs_aead.c).
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/random.h>

#include "aead/aead.h"
#include "../kmod/debugfs_aead_abi.h"
#include "tlsx_test.h"
#include "kselftest_harness.h"

#define DBG_AEAD "/sys/kernel/debug/tlsx/aead"
#define PARAM_IMPL "/sys/module/tlsx/parameters/aead_impl"

struct kreq {
	struct tlsx_dbg_aead_req h;
	u8 body[TLSX_DBG_AEAD_MAX_AD + 2 * TLSX_DBG_AEAD_MAX_LEN];
};

struct kresp {
	struct tlsx_dbg_aead_resp h;
	u8 out[TLSX_DBG_AEAD_MAX_LEN + 2 * TLSX_DBG_AEAD_STACK_BYTES];
};

/* Run one request in the kernel.  Return: the kernel's status, or -errno. */
static int kernel_aead(struct kreq *rq, struct kresp *rs)
{
	bool stack = rq->h.op & TLSX_DBG_AEAD_STACK;
	size_t len = sizeof(rq->h) + rq->h.ad_len +
		     (stack ? 2 : 1) * rq->h.len;
	size_t want = sizeof(rs->h) + rq->h.len +
		      (stack ? 2 * TLSX_DBG_AEAD_STACK_BYTES : 0);
	int fd = open(DBG_AEAD, O_RDWR), ret;

	if (fd < 0)
		return -errno;
	ret = write(fd, rq, len) == (ssize_t)len ? 0 : -errno;
	if (!ret && read(fd, rs, sizeof(*rs)) < (ssize_t)want)
		ret = -EIO;
	close(fd);
	return ret ? ret : rs->h.status;
}

static void fill_random(void *p, size_t n)
{
	u8 *b = p;

	while (n) {
		ssize_t r = getrandom(b, n, 0);

		if (r <= 0)
			abort();
		b += r;
		n -= r;
	}
}

static const size_t lengths[] = {
	0, 1, 15, 16, 17, 63, 64, 65, 127, 128, 255, 256, 257, 1000, 1024,
	4095, 4096, 4097, 8191, 16384, 16384 + 256,
};

FIXTURE(aead)
{
	struct kreq *rq;
	struct kresp *rs;
	u8 *pt, *ct, *out;
};

FIXTURE_VARIANT(aead)
{
	enum tlsx_aead_alg alg;
};

FIXTURE_VARIANT_ADD(aead, aes_128_gcm)
{
	.alg = TLSX_AEAD_AES_128_GCM,
};

FIXTURE_VARIANT_ADD(aead, aes_256_gcm)
{
	.alg = TLSX_AEAD_AES_256_GCM,
};

FIXTURE_VARIANT_ADD(aead, chacha20_poly1305)
{
	.alg = TLSX_AEAD_CHACHA20_POLY1305,
};

FIXTURE_VARIANT_ADD(aead, aes_128_ccm)
{
	.alg = TLSX_AEAD_AES_128_CCM,
};

FIXTURE_SETUP(aead)
{
	ASSERT_EQ(0, access(DBG_AEAD, W_OK)) {
		TH_LOG("%s missing: tlsx.ko not loaded, built without TLSX_TEST_HOOKS=y (make module-test), or debugfs not mounted?",
		       DBG_AEAD);
	}
	self->rq = calloc(1, sizeof(*self->rq));
	self->rs = calloc(1, sizeof(*self->rs));
	self->pt = malloc(TLSX_DBG_AEAD_MAX_LEN);
	self->ct = malloc(TLSX_DBG_AEAD_MAX_LEN);
	self->out = malloc(TLSX_DBG_AEAD_MAX_LEN);
	ASSERT_TRUE(self->rq && self->rs && self->pt && self->ct && self->out);
}

FIXTURE_TEARDOWN(aead)
{
	free(self->rq);
	free(self->rs);
	free(self->pt);
	free(self->ct);
	free(self->out);
}

/* Set up a request for @alg with a random key, nonce and AD. */
static void new_request(struct kreq *rq, enum tlsx_aead_alg alg,
			unsigned int impl, unsigned int op, size_t ad_len,
			size_t len)
{
	memset(&rq->h, 0, sizeof(rq->h));
	rq->h.op = op;
	rq->h.alg = alg;
	rq->h.impl = impl;
	rq->h.key_len = tlsx_aead_key_len(alg);
	rq->h.ad_len = ad_len;
	rq->h.len = len;
	fill_random(rq->h.key, sizeof(rq->h.key));
	fill_random(rq->h.nonce, sizeof(rq->h.nonce));
	fill_random(rq->body, ad_len);
}

/* A random split of a record into up to 16 segments, some tiny or empty. */
static void random_segments(struct kreq *rq)
{
	unsigned int i, r;

	fill_random(&r, sizeof(r));
	rq->h.nsegs = 1 + r % TLSX_DBG_AEAD_MAX_SEGS;
	for (i = 0; i < rq->h.nsegs; i++) {
		fill_random(&r, sizeof(r));
		rq->h.seg_len[i] = r % 3 == 0 ? r % 3 : r % 2000;
	}
}

/*
 * Seal in the kernel with every kernel impl and open in userspace with
 * every userspace impl; the tags must match the userspace seal too.
 */
TEST_F_TIMEOUT(aead, kernel_seals_userspace_opens, 600)
{
	struct tlsx_aead_key uk;
	unsigned int ki, ui, li;
	u8 tag[16];
	int checked = 0, ret;

	for (ki = TLSX_IMPL_GENERIC; ki < TLSX_IMPL_COUNT; ki++) {
		for (li = 0; li < ARRAY_SIZE(lengths); li++) {
			size_t len = lengths[li], ad_len = li % 3 ? 13 : 5;
			u8 *ad = self->rq->body;

			new_request(self->rq, variant->alg, ki,
				    TLSX_DBG_AEAD_SEAL, ad_len, len);
			fill_random(self->pt, len);
			memcpy(self->rq->body + ad_len, self->pt, len);
			ret = kernel_aead(self->rq, self->rs);
			if (ret == -EOPNOTSUPP)
				break;	/* the guest CPU lacks this impl */
			ASSERT_EQ(0, ret);
			ASSERT_EQ(ki, self->rs->h.impl);
			for (ui = TLSX_IMPL_GENERIC; ui < TLSX_IMPL_COUNT;
			     ui++) {
				if (tlsx_aead_setkey(&uk, variant->alg, ui,
						     self->rq->h.key,
						     self->rq->h.key_len))
					continue;
				ASSERT_EQ(0, tlsx_aead_open(&uk,
					self->rq->h.nonce, ad, ad_len,
					self->rs->out, self->out, len,
					self->rs->h.tag)) {
					TH_LOG("kernel %s -> user %s, len %zu",
					       tlsx_aead_impl_name(ki),
					       tlsx_aead_impl_name(ui), len);
				}
				ASSERT_EQ(0, memcmp(self->out, self->pt, len));
				ASSERT_EQ(0, tlsx_aead_seal(&uk,
					self->rq->h.nonce, ad, ad_len, self->pt,
					self->ct, len, tag));
				ASSERT_EQ(0, memcmp(tag, self->rs->h.tag, 16));
				ASSERT_EQ(0, memcmp(self->ct, self->rs->out,
						    len));
				tlsx_aead_wipe(&uk);
				checked++;
			}
		}
	}
	EXPECT_GT(checked, 0);
}

/* Seal in userspace (auto impl), open in the kernel with every impl. */
TEST_F_TIMEOUT(aead, userspace_seals_kernel_opens, 600)
{
	struct tlsx_aead_key uk;
	unsigned int ki, li;
	int checked = 0, ret;

	for (ki = TLSX_IMPL_GENERIC; ki < TLSX_IMPL_COUNT; ki++) {
		for (li = 0; li < ARRAY_SIZE(lengths); li++) {
			size_t len = lengths[li], ad_len = 13;
			struct tlsx_dbg_aead_req *h = &self->rq->h;

			new_request(self->rq, variant->alg, ki,
				    TLSX_DBG_AEAD_OPEN, ad_len, len);
			fill_random(self->pt, len);
			ASSERT_EQ(0, tlsx_aead_setkey(&uk, variant->alg,
						      TLSX_IMPL_AUTO, h->key,
						      h->key_len));
			ASSERT_EQ(0, tlsx_aead_seal(&uk, h->nonce,
						    self->rq->body, ad_len,
						    self->pt,
						    self->rq->body + ad_len,
						    len, h->tag));
			tlsx_aead_wipe(&uk);
			ret = kernel_aead(self->rq, self->rs);
			if (ret == -EOPNOTSUPP)
				break;
			ASSERT_EQ(0, ret) {
				TH_LOG("kernel %s open, len %zu",
				       tlsx_aead_impl_name(ki), len);
			}
			ASSERT_EQ(0, memcmp(self->rs->out, self->pt, len));
			checked++;
		}
	}
	EXPECT_GT(checked, 0);
}

/*
 * The kernel's scattered path, in place and not, and its portable
 * fallback with the FPU taken, give the userspace answer.
 */
TEST_F_TIMEOUT(aead, kernel_scattered_and_no_fpu_paths_agree, 600)
{
	static const unsigned int modes[] = {
		0, TLSX_DBG_AEAD_IN_PLACE, TLSX_DBG_AEAD_NO_FPU,
		TLSX_DBG_AEAD_NO_FPU | TLSX_DBG_AEAD_IN_PLACE,
	};
	struct tlsx_aead_key uk;
	unsigned int ki, li, mi, round;
	int checked = 0, ret;
	u8 tag[16];

	for (ki = TLSX_IMPL_GENERIC; ki < TLSX_IMPL_COUNT; ki++) {
		for (round = 0; round < 24; round++) {
			size_t len, ad_len = 13;
			struct tlsx_dbg_aead_req *h = &self->rq->h;
			bool sg = round & 1;

			li = round % ARRAY_SIZE(lengths);
			mi = (round / 2) % ARRAY_SIZE(modes);
			len = lengths[ARRAY_SIZE(lengths) - 1 - li];
			new_request(self->rq, variant->alg, ki,
				    TLSX_DBG_AEAD_SEAL | modes[mi], ad_len,
				    len);
			if (sg)
				random_segments(self->rq);
			fill_random(self->pt, len);
			memcpy(self->rq->body + ad_len, self->pt, len);
			ret = kernel_aead(self->rq, self->rs);
			if (ret == -EOPNOTSUPP)
				break;
			ASSERT_EQ(0, ret);
			ASSERT_EQ(0, tlsx_aead_setkey(&uk, variant->alg,
						      TLSX_IMPL_AUTO, h->key,
						      h->key_len));
			ASSERT_EQ(0, tlsx_aead_seal(&uk, h->nonce,
						    self->rq->body, ad_len,
						    self->pt, self->ct, len,
						    tag));
			tlsx_aead_wipe(&uk);
			ASSERT_EQ(0, memcmp(tag, self->rs->h.tag, 16)) {
				TH_LOG("impl %s mode %#x sg %d len %zu",
				       tlsx_aead_impl_name(ki), modes[mi], sg,
				       len);
			}
			ASSERT_EQ(0, memcmp(self->ct, self->rs->out, len));

			/* And back: open the same record the same way. */
			h->op = TLSX_DBG_AEAD_OPEN | modes[mi];
			memcpy(h->tag, tag, 16);
			memcpy(self->rq->body + ad_len, self->ct, len);
			ASSERT_EQ(0, kernel_aead(self->rq, self->rs));
			ASSERT_EQ(0, memcmp(self->pt, self->rs->out, len));
			checked++;
		}
	}
	EXPECT_GT(checked, 0);
}

/*
 * Seal @len bytes of @pt in the kernel with @key and the nonce and AD of
 * @rq's header and body, on impl @impl, into @ct and @tag.
 */
static int kernel_seal(struct kreq *rq, struct kresp *rs, const u8 *key,
		       unsigned int impl, const u8 *pt, size_t len, u8 *ct,
		       u8 *tag)
{
	struct tlsx_dbg_aead_req *h = &rq->h;
	int ret;

	h->op = TLSX_DBG_AEAD_SEAL;
	h->impl = impl;
	h->len = len;
	memcpy(h->key, key, sizeof(h->key));
	memcpy(rq->body + h->ad_len, pt, len);
	ret = kernel_aead(rq, rs);
	if (!ret) {
		memcpy(ct, rs->out, len);
		memcpy(tag, rs->h.tag, 16);
	}
	return ret;
}

/* The buffers of the stack probes (kernel_leaves_no_secret_in_stack). */
struct stack_bufs {
	u8 *zero, *ks, *pt[2];
};

static bool stack_bufs_alloc(struct stack_bufs *b)
{
	b->zero = calloc(1, TLSX_DBG_AEAD_MAX_LEN);
	b->ks = malloc(TLSX_DBG_AEAD_MAX_LEN);
	b->pt[0] = malloc(TLSX_DBG_AEAD_MAX_LEN);
	b->pt[1] = malloc(TLSX_DBG_AEAD_MAX_LEN);
	return b->zero && b->ks && b->pt[0] && b->pt[1];
}

static void stack_bufs_free(struct stack_bufs *b)
{
	free(b->zero);
	free(b->ks);
	free(b->pt[0]);
	free(b->pt[1]);
}

/*
 * One probed operation: @op (SEAL or OPEN, with @flags) of @len bytes on
 * impl @impl, on one buffer or (@sg) a 300-byte head then pages, twice
 * with everything public equal (nonce, AD, lengths, segments, and the
 * ciphertext @ct: each run's plaintext is @ct XOR its key's keystream)
 * and the key and text different.  Returns the kernel's status
 * (-EOPNOTSUPP: no such impl, -ENODEV: no probe in this kernel), or
 * -EPROTO if an answer was wrong; the reads follow rs->out + @len.
 */
static int stack_case(struct kreq *rq, struct kresp *rs,
		      struct stack_bufs *b, u8 *ct, enum tlsx_aead_alg alg,
		      unsigned int impl, size_t len, bool sg,
		      unsigned int op, unsigned int flags)
{
	struct tlsx_dbg_aead_req *h = &rq->h;
	u8 keys[2][32], tags[2][16], ad[13];
	unsigned int k, i;
	int ret;

	fill_random(keys, sizeof(keys));
	fill_random(ad, sizeof(ad));
	fill_random(ct, len);
	memset(h, 0, sizeof(*h));
	h->alg = alg;
	h->key_len = tlsx_aead_key_len(alg);
	h->ad_len = sizeof(ad);
	fill_random(h->nonce, sizeof(h->nonce));
	memcpy(rq->body, ad, sizeof(ad));
	for (k = 0; k < 2; k++) {
		ret = kernel_seal(rq, rs, keys[k], impl, b->zero, len, b->ks,
				  tags[k]);
		if (ret)
			return ret;
		for (i = 0; i < len; i++)
			b->pt[k][i] = ct[i] ^ b->ks[i];
		ret = kernel_seal(rq, rs, keys[k], impl, b->pt[k], len, b->ks,
				  tags[k]);
		if (ret)
			return ret;
		if (memcmp(b->ks, ct, len))
			return -EPROTO;
	}
	h->op = op | TLSX_DBG_AEAD_STACK | flags;
	memcpy(h->key, keys[0], sizeof(h->key));
	memcpy(h->key2, keys[1], sizeof(h->key2));
	memcpy(h->tag, tags[0], 16);
	memcpy(h->tag2, tags[1], 16);
	if (sg) {
		h->nsegs = 5;
		h->seg_len[0] = 300;
		for (i = 1; i < h->nsegs; i++)
			h->seg_len[i] = 4096;
	}
	for (k = 0; k < 2; k++)
		memcpy(rq->body + sizeof(ad) + k * len,
		       op == TLSX_DBG_AEAD_SEAL ? b->pt[k] : ct, len);
	ret = kernel_aead(rq, rs);
	if (!ret && memcmp(rs->out, op == TLSX_DBG_AEAD_SEAL ? ct : b->pt[1],
			   len))
		ret = -EPROTO;
	return ret;
}

/*
 * The bytes where the two reads after a stack_case() differ: how many,
 * and the offset of the lowest (the deepest) in *@low.
 */
static unsigned int stack_diff(const struct kresp *rs, size_t len,
			       size_t *low)
{
	const u8 *r0 = rs->out + len, *r1 = r0 + TLSX_DBG_AEAD_STACK_BYTES;
	unsigned int bad = 0;
	size_t i;

	*low = 0;
	for (i = 0; i < TLSX_DBG_AEAD_STACK_BYTES; i++) {
		if (r0[i] == r1[i])
			continue;
		if (!bad++)
			*low = i;
	}
	return bad;
}

/*
 * stack_case() until the two reads agree, at most three times: how many
 * bytes differed the last time (-errno if a run failed).  A secret left
 * behind differs every time.  Public state may differ once in a while:
 * a record's SIMD section yields between pieces when the scheduler
 * wants the CPU (tlsx_simd_should_yield(); another CPU can ask even with
 * interrupts off), and the dispatcher's section count in its frame then
 * ends on another value in one run than in the other.
 */
static int stack_case_settled(struct kreq *rq, struct kresp *rs,
			      struct stack_bufs *b, u8 *ct,
			      enum tlsx_aead_alg alg, unsigned int impl,
			      size_t len, bool sg, unsigned int op,
			      unsigned int flags, size_t *low)
{
	int tries, ret = 0, bad = 0;

	for (tries = 0; tries < 3 && (!tries || bad); tries++) {
		ret = stack_case(rq, rs, b, ct, alg, impl, len, sg, op, flags);
		if (ret)
			return ret;
		bad = (int)stack_diff(rs, len, low);
	}
	return bad;
}

static const size_t stack_lens[] = { 64, 1024, 16384 + 1 };

#define STACK_CASES	(2 * 2 * ARRAY_SIZE(stack_lens))
#define STACK_LEN(c)	stack_lens[(c) % ARRAY_SIZE(stack_lens)]
#define STACK_SG(c)	((c) / ARRAY_SIZE(stack_lens) % 2)
#define STACK_OP(c)	((c) / ARRAY_SIZE(stack_lens) / 2 ? \
			 TLSX_DBG_AEAD_OPEN : TLSX_DBG_AEAD_SEAL)

/*
 * What the kernel's AEAD leaves in its stack (docs/ct-aead.md section 4):
 * stack_case() on every impl the guest has, seal and open, one buffer
 * and pages; the kernel fills the stack below the operation before each
 * run, interrupts off, and reads it after.  The two reads must be equal:
 * a byte that differs is a secret left behind (a register an engine
 * spilled that the dispatcher's wipe did not reach).
 */
TEST_F_TIMEOUT(aead, kernel_leaves_no_secret_in_stack, 900)
{
	struct stack_bufs b;
	unsigned int ki, c, bad, checked = 0;
	size_t low;
	int ret;

	ASSERT_TRUE(stack_bufs_alloc(&b));
	for (ki = TLSX_IMPL_GENERIC; ki < TLSX_IMPL_COUNT; ki++) {
		for (c = 0; c < STACK_CASES; c++) {
			ret = stack_case_settled(self->rq, self->rs, &b,
						 self->ct, variant->alg, ki,
						 STACK_LEN(c), STACK_SG(c),
						 STACK_OP(c), 0, &low);
			if (ret == -EOPNOTSUPP)
				break;	/* the guest lacks this impl */
			if (ret == -ENODEV)
				SKIP(goto out, "no stack probe in this kernel (KASAN)");
			ASSERT_LE(0, ret);
			bad = (unsigned int)ret;
			EXPECT_EQ(0, bad) {
				TH_LOG("%s on %s, %s %zu bytes%s: %u bytes of the kernel stack depend on the secrets, the deepest %zu bytes below the probe's top",
				       tlsx_aead_alg_name(variant->alg),
				       tlsx_aead_impl_name(ki),
				       STACK_OP(c) == TLSX_DBG_AEAD_SEAL ?
				       "seal" : "open", STACK_LEN(c),
				       STACK_SG(c) ? " over pages" : "", bad,
				       TLSX_DBG_AEAD_STACK_BYTES - low);
			}
			checked++;
		}
	}
	EXPECT_GT(checked, 0);
out:
	stack_bufs_free(&b);
}

/*
 * The kernel build's own depths (test_aead_wipe_depth measures
 * userspace's): the same cases with the wipes recording only, what is
 * left must lie inside the deepest wipe with a quarter and at least 128
 * bytes to spare.  Logs the deepest need of each depth of wipe.
 */
TEST_F_TIMEOUT(aead, kernel_wipe_has_room, 900)
{
	struct { unsigned int bytes, need; } seen[8];
	unsigned int ki, c, i, nseen, top, bytes, need, checked = 0;
	struct stack_bufs b;
	size_t low;
	int ret;

	ASSERT_TRUE(stack_bufs_alloc(&b));
	for (ki = TLSX_IMPL_GENERIC; ki < TLSX_IMPL_COUNT; ki++) {
		nseen = 0;
		for (c = 0; c < STACK_CASES; c++) {
			ret = stack_case(self->rq, self->rs, &b, self->ct,
					 variant->alg, ki, STACK_LEN(c),
					 STACK_SG(c), STACK_OP(c),
					 TLSX_DBG_AEAD_NO_WIPE);
			if (ret == -EOPNOTSUPP)
				break;
			if (ret == -ENODEV)
				SKIP(goto out, "no stack probe in this kernel (KASAN)");
			ASSERT_EQ(0, ret);
			checked++;
			if (!stack_diff(self->rs, STACK_LEN(c), &low))
				continue;
			/*
			 * Nothing is wiped, so secrets differ every time;
			 * a read whose lowest difference lies above the
			 * wipe may be a section's yield (see
			 * stack_case_settled()): take the case again.
			 */
			if (self->rs->h.wipe_top[1] <= low &&
			    stack_case_settled(self->rq, self->rs, &b,
					       self->ct, variant->alg, ki,
					       STACK_LEN(c), STACK_SG(c),
					       STACK_OP(c),
					       TLSX_DBG_AEAD_NO_WIPE,
					       &low) <= 0)
				continue;
			/* the wipes of the two runs are the same */
			top = self->rs->h.wipe_top[1];
			bytes = self->rs->h.wipe_bytes[1];
			ASSERT_TRUE(top > low) {
				TH_LOG("%s on %s, case %u: secrets left and no wipe above them",
				       tlsx_aead_alg_name(variant->alg),
				       tlsx_aead_impl_name(ki), c);
			}
			need = top - low;
			EXPECT_GE(bytes, need + (need / 4 > 128 ? need / 4 : 128)) {
				TH_LOG("%s on %s, %s %zu bytes%s: a secret %u bytes below the wipe's start, which zeroes %u",
				       tlsx_aead_alg_name(variant->alg),
				       tlsx_aead_impl_name(ki),
				       STACK_OP(c) == TLSX_DBG_AEAD_SEAL ?
				       "seal" : "open", STACK_LEN(c),
				       STACK_SG(c) ? " over pages" : "",
				       need, bytes);
			}
			for (i = 0; i < nseen && seen[i].bytes != bytes; i++)
				;
			if (i == nseen && nseen < ARRAY_SIZE(seen))
				seen[nseen++] = (typeof(seen[0])){ bytes, 0 };
			if (i < nseen && need > seen[i].need)
				seen[i].need = need;
		}
		for (i = 0; i < nseen; i++)
			TH_LOG("%s on %s: a wipe of %u bytes, the deepest secret %u bytes down",
			       tlsx_aead_alg_name(variant->alg),
			       tlsx_aead_impl_name(ki), seen[i].bytes,
			       seen[i].need);
	}
	EXPECT_GT(checked, 0);
out:
	stack_bufs_free(&b);
}

/* A wrong tag is refused and no plaintext comes back. */
TEST_F(aead, kernel_open_rejects_bad_tag_and_wipes)
{
	struct tlsx_dbg_aead_req *h = &self->rq->h;
	size_t len = 1000, i;

	new_request(self->rq, variant->alg, TLSX_IMPL_AUTO,
		    TLSX_DBG_AEAD_OPEN, 13, len);
	memset(self->rq->body + 13, 0x5a, len);
	fill_random(h->tag, 16);
	ASSERT_EQ(-EBADMSG, kernel_aead(self->rq, self->rs));
	for (i = 0; i < len; i++)
		ASSERT_EQ(0, self->rs->out[i]);
	random_segments(self->rq);
	ASSERT_EQ(-EBADMSG, kernel_aead(self->rq, self->rs));
	for (i = 0; i < len; i++)
		ASSERT_EQ(0, self->rs->out[i]);
}

/* The aead_impl module parameter chooses the impl of new keys. */
TEST_F(aead, impl_parameter_forces_choice)
{
	char buf[32] = "";
	int fd, ret;
	ssize_t n;

	fd = open(PARAM_IMPL, O_RDWR);
	ASSERT_GE(fd, 0);
	ASSERT_EQ(7, write(fd, "generic", 7));
	new_request(self->rq, variant->alg, TLSX_IMPL_AUTO,
		    TLSX_DBG_AEAD_SEAL, 5, 64);
	ret = kernel_aead(self->rq, self->rs);
	ASSERT_EQ(0, ret);
	EXPECT_EQ(TLSX_IMPL_GENERIC, self->rs->h.impl);
	ASSERT_EQ(-1, pwrite(fd, "bogus", 5, 0));
	EXPECT_EQ(EINVAL, errno);
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	ASSERT_GT(n, 0);
	EXPECT_EQ(0, strncmp(buf, "generic", 7));
	ASSERT_EQ(4, pwrite(fd, "auto", 4, 0));
	close(fd);
	ret = kernel_aead(self->rq, self->rs);
	ASSERT_EQ(0, ret);
	EXPECT_NE(TLSX_IMPL_GENERIC, self->rs->h.impl);
}

/* Malformed requests are refused with EINVAL and nothing breaks. */
TEST_F(aead, debugfs_rejects_malformed_requests)
{
	int fd = open(DBG_AEAD, O_RDWR);

	ASSERT_GE(fd, 0);
	new_request(self->rq, variant->alg, TLSX_IMPL_AUTO, 99, 5, 64);
	EXPECT_EQ(-1, write(fd, self->rq, sizeof(self->rq->h) + 69));
	EXPECT_EQ(EINVAL, errno);
	new_request(self->rq, variant->alg, TLSX_IMPL_AUTO,
		    TLSX_DBG_AEAD_SEAL, 5, 64);
	EXPECT_EQ(-1, write(fd, self->rq, sizeof(self->rq->h) + 68));
	EXPECT_EQ(EINVAL, errno);
	self->rq->h.len = TLSX_DBG_AEAD_MAX_LEN + 1;
	EXPECT_EQ(-1, write(fd, self->rq, sizeof(self->rq->h)));
	EXPECT_EQ(EINVAL, errno);
	close(fd);
	new_request(self->rq, variant->alg, TLSX_IMPL_AUTO,
		    TLSX_DBG_AEAD_SEAL, 5, 64);
	self->rq->h.key_len = 7;
	EXPECT_EQ(-EINVAL, kernel_aead(self->rq, self->rs));
}

TEST_HARNESS_MAIN
