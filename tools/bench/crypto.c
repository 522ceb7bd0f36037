// SPDX-License-Identifier: GPL-2.0
/*
 * crypto.c - "tlsx-bench crypto": the AEADs as a TLS record layer uses
 * them, tlsx against OpenSSL's EVP.
 *
 * A record is sealed (or opened) with 5 bytes of associated data (the
 * TLS 1.3 record header), a 12-byte nonce and a 16-byte tag, out of
 * place.  Both sides set their key once; per record tlsx makes one
 * tlsx_aead_seal()/open() call and OpenSSL sets the IV only
 * (EVP_EncryptInit_ex with NULL cipher and key), feeds the AD and the
 * payload, finishes and gets or sets the tag; for AES-CCM it also gives
 * the total length before the AD and the tag before decrypting, as
 * CCM's EVP requires (aead_evp.h).  Seal uses a new nonce per
 * record; open reopens one record (its tag must verify every time).
 *
 * For every algorithm, operation, size (64 B, 1 KiB, 16 KiB; with
 * --sweep the sizes of bench_sweep_sizes(), 64 B to 16 KiB) and
 * implementation this CPU has, the two sides run alternately in batches
 * of about --batch-ms milliseconds, for --rounds rounds (who goes first
 * alternates too).  Reported: the median ns per record and its spread
 * (min-max over rounds), GB/s, TSC cycles per byte, and the ratio
 * tlsx/OpenSSL (below 1: tlsx is faster): the median over rounds of the
 * ratio within a round, where both sides ran back to back under the same
 * load, which holds up better than a ratio of medians on a shared
 * machine.  Before timing, each configuration checks that tlsx and
 * OpenSSL give the same bytes.
 *
 * The kernel anchor (crypto_kernel.h): Linux 6.12's own assembly for the
 * algorithm, on the path the kernel picks on this CPU (--kernel PATH for
 * another), called as kTLS's "gcm(aes)" or "rfc7539(chacha20,poly1305)"
 * calls it, runs in the same rounds; ratio tlsx/kernel beside
 * tlsx/OpenSSL, and for records over 4 KiB also the kernel fed the data
 * 4 KiB at a time, as it gets a record that sendfile() took from the page
 * cache.  Before any timing, every kernel path this CPU runs is checked
 * against OpenSSL (kanchor_check()); a mismatch aborts the run.
 *
 * With --setkey, the key setup instead (op "key"): per iteration
 * tlsx_aead_setkey() on one key against EVP_EncryptInit_ex() with the
 * key only, on a context whose cipher (and for CCM the IV and tag
 * lengths) is already set, which is what OpenSSL does per key.  The key
 * changes every iteration (one byte counts up) on both sides.
 *
 * --json FILE records every row, --plot FILE.svg draws GB/s against the
 * record size, a panel per algorithm and operation, a line per
 * implementation and the ratios on the right axis (out.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "aead/aead.h"
#include "aead/test/aead_evp.h"
#include "bench.h"
#include "crypto_kernel.h"

#define AD_LEN		5
#define MAX_ROUNDS	1001

struct crypto_opts {
	int rounds;
	double batch_ms;
	bool csv;
	int alg;		/* 0: all */
	int impl;		/* -1: all */
	size_t size;		/* 0: all */
	bool setkey;		/* time the key setup instead */
	bool kernel;		/* the kernel anchor's columns */
	int kpath;		/* its path: KANCHOR_NONE for the best */
	bool sweep;		/* every size of bench_sweep_sizes() */
	bool cold;		/* caches evicted before every record */
	/*
	 * --pieces HEAD,SIZE,OFFSET: the input as a segment list, a
	 * HEAD-byte piece then SIZE-byte pieces each at OFFSET in its own
	 * page (what tlsx.ko hands the AEAD: a head and page-cache pages
	 * sealed into one record, or a received record where its TCP
	 * segments lie); 0 pieces: contiguous.
	 */
	size_t piece_head, piece_size, piece_off;
	size_t piece_out_off;	/* the output's offset in its page */
	struct bench_out out;
	struct bench_progress prog;
};

#define KANCHOR_CSV_COLUMNS ",kpath,kernel_ns,kernel_ratio,kpg_ns,kpg_ratio"

/* Pieces of the "page cache" kernel anchor. */
#define KANCHOR_PAGE	4096

/* One configuration: the record and both sides' state. */
struct record {
	enum tlsx_aead_alg alg;
	bool seal;
	size_t len;
	u8 key[32];
	u8 nonce[12];
	u8 ad[AD_LEN];
	u8 tag[16];
	u8 *in;
	u8 *out;
	enum tlsx_aead_impl impl;
	struct tlsx_aead_key k;
	EVP_CIPHER_CTX *evp;
	struct kanchor_key *kk;	/* NULL: no kernel anchor */
	unsigned long failures;
	struct tlsx_aead_seg *segs;	/* --pieces: tlsx's input */
	unsigned int nsegs;
	u8 *pout;			/* --pieces: the output */
	u8 *pages;
};

/* The nonce of the next sealed record: the last 8 bytes count up. */
static void next_nonce(struct record *r)
{
	u64 v;

	memcpy(&v, r->nonce + 4, 8);
	v++;
	memcpy(r->nonce + 4, &v, 8);
}

static void run_tlsx_record(struct record *r, size_t n)
{
	struct tlsx_aead_seg out = { r->pout, r->len };
	size_t i;

	for (i = 0; i < n; i++) {
		if (r->seal) {
			next_nonce(r);
			if (r->segs ?
			    tlsx_aead_seal_sg(&r->k, r->nonce, r->ad, AD_LEN,
					      r->segs, r->nsegs, &out, 1,
					      r->len, r->tag) :
			    tlsx_aead_seal(&r->k, r->nonce, r->ad, AD_LEN,
					   r->in, r->out, r->len, r->tag))
				r->failures++;
		} else if (r->segs ?
			   tlsx_aead_open_sg(&r->k, r->nonce, r->ad, AD_LEN,
					     r->segs, r->nsegs, &out, 1,
					     r->len, r->tag) :
			   tlsx_aead_open(&r->k, r->nonce, r->ad, AD_LEN,
					  r->in, r->out, r->len, r->tag)) {
			r->failures++;
		}
	}
}

/* The record sequence of aead_evp.h (for CCM: lengths, then AD, then data). */
static bool evp_seal_one(struct record *r)
{
	return aead_evp_seal(r->evp, r->alg, r->nonce, r->ad, AD_LEN, r->in,
			     r->len, r->out, r->tag);
}

static bool evp_open_one(struct record *r)
{
	return aead_evp_open(r->evp, r->alg, r->nonce, r->ad, AD_LEN, r->in,
			     r->len, r->out, r->tag);
}

static void run_evp_record(struct record *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (r->seal) {
			next_nonce(r);
			if (!evp_seal_one(r))
				r->failures++;
		} else if (!evp_open_one(r)) {
			r->failures++;
		}
	}
}

static void run_kernel(struct record *r, size_t n, size_t seg)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (r->seal) {
			next_nonce(r);
			kanchor_seal(r->kk, r->nonce, r->ad, AD_LEN, r->in,
				     r->out, r->len, r->tag, seg);
		} else if (kanchor_open(r->kk, r->nonce, r->ad, AD_LEN, r->in,
					r->out, r->len, r->tag, seg)) {
			r->failures++;
		}
	}
}

static void run_kernel_record(struct record *r, size_t n)
{
	run_kernel(r, n, 0);
}

/* --pieces: the kernel fed tlsx's pieces, as its walks cut them. */
static void run_kernel_pieces(struct record *r, size_t n)
{
	struct tlsx_aead_seg out = { r->pout, r->len };
	size_t i;

	for (i = 0; i < n; i++) {
		if (r->seal) {
			next_nonce(r);
			if (kanchor_seal_sg(r->kk, r->nonce, r->ad, AD_LEN,
					    r->segs, r->nsegs, &out, 1, r->len,
					    r->tag))
				r->failures++;
		} else if (kanchor_open_sg(r->kk, r->nonce, r->ad, AD_LEN,
					   r->segs, r->nsegs, &out, 1, r->len,
					   r->tag)) {
			r->failures++;
		}
	}
}

static void run_kernel_pages(struct record *r, size_t n)
{
	if (r->segs)
		run_kernel_pieces(r, n);
	else
		run_kernel(r, n, KANCHOR_PAGE);
}

static void run_tlsx_setkey(struct record *r, size_t n)
{
	size_t i, kl = tlsx_aead_key_len(r->alg);

	for (i = 0; i < n; i++) {
		r->key[0]++;
		if (tlsx_aead_setkey(&r->k, r->alg, r->impl, r->key, kl))
			r->failures++;
	}
}

static void run_evp_setkey(struct record *r, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		r->key[0]++;
		if (!EVP_EncryptInit_ex(r->evp, NULL, NULL, r->key, NULL))
			r->failures++;
	}
}

typedef void (*run_fn)(struct record *r, size_t n);

/*
 * --cold: what a record finds after other work, as in a server that
 * parses a request, or a kernel that runs TCP, between two records: the
 * AEAD's code out of the op cache and L1i (48 KiB of other code run) and
 * its key and state out of L1d (256 KiB of other data read); both are
 * still in L2, as after a few microseconds of other work.  A record's
 * time then includes fetching and decoding its code again: the size of
 * the code run per record counts, as it does not when one record
 * follows another in a loop.  Each record is timed alone; the evictions
 * are not counted.
 */
static u8 evict_data[256 * 1024];
static u64 cold_cycles[1 << 16];	/* a batch's records, TSC cycles */

/*
 * Both arrays are written once before anything is timed.  Left to the
 * first batch (zero pages, then 64 + 128 page faults), their set-up fell
 * into the calibration of the first side measured, tlsx's, which then
 * got batches of one record each, each timed just after another side's
 * batch: the first row read 2-13x the kernel's (docs/perf-crypto.md,
 * 2026-12-07).
 */
static void cold_prepare(void)
{
	memset(evict_data, 1, sizeof(evict_data));
	memset(cold_cycles, 0, sizeof(cold_cycles));
}

static noinline void evict_caches(void)
{
	unsigned int x = 0;
	size_t i;

	/* 16384 3-byte instructions: 48 KiB of straight-line code. */
	__asm__ __volatile__(".rept 16384\n\taddl $1, %0\n\t.endr"
			     : "+r"(x));
	/*
	 * Read, not written: stores still draining to L2 when the record
	 * starts would delay its own (seal's 64 B records took 4x longer).
	 */
	for (i = 0; i < sizeof(evict_data); i += 64)
		x += evict_data[i];
	__asm__ __volatile__("mfence" : : "r"(x) : "memory");
}

/*
 * Cold batches hold at least this many records, so that a batch is
 * not mostly its first record, the one that follows another side's
 * batch (see cold_prepare()).
 */
#define COLD_MIN_BATCH	64

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * TSC cycles per record of a cold batch of @n: each record timed alone
 * after the eviction, the mean of the fastest nine tenths.  The slowest
 * tenth holds the records an interrupt landed in (a timer tick costs
 * microseconds in this VM, against a 64 B record's 100 cycles); both
 * sides are trimmed alike.
 */
static double time_cold(run_fn run, struct record *r, size_t n)
{
	u64 c0, sum = 0;
	size_t i, m;

	if (n > ARRAY_SIZE(cold_cycles))
		n = ARRAY_SIZE(cold_cycles);
	for (i = 0; i < n; i++) {
		evict_caches();
		c0 = bench_rdtsc();
		run(r, 1);
		cold_cycles[i] = bench_rdtsc() - c0;
	}
	qsort(cold_cycles, n, sizeof(cold_cycles[0]), cmp_u64);
	m = (n * 9 + 9) / 10;
	for (i = 0; i < m; i++)
		sum += cold_cycles[i];
	return (double)sum / (double)m;
}

/* Nanoseconds per record over a batch of @n. */
static double time_batch(run_fn run, struct record *r, size_t n, bool cold)
{
	u64 c0, c1;

	if (cold)
		return time_cold(run, r, n) / bench_tsc_per_ns();
	c0 = bench_rdtsc();
	run(r, n);
	c1 = bench_rdtsc();
	return (double)(c1 - c0) / bench_tsc_per_ns() / (double)n;
}

/*
 * Records per batch so that a batch lasts about @ms milliseconds of wall
 * time (with --cold, the evictions included).
 */
static size_t batch_size(run_fn run, struct record *r, double ms, bool cold)
{
	size_t n = cold ? COLD_MIN_BATCH : 1;
	double ns;
	u64 c0;

	run(r, 4);		/* warm the caches and the branch predictors */
	for (;;) {
		c0 = bench_rdtsc();
		time_batch(run, r, n, cold);
		ns = (double)(bench_rdtsc() - c0) / bench_tsc_per_ns();
		if (ns > ms * 1e6 / 8 || n > (1u << 24))
			break;
		n *= 2;
	}
	n = (size_t)((double)n * ms * 1e6 / ns);
	if (cold)
		return n < COLD_MIN_BATCH ? COLD_MIN_BATCH :
		       n > ARRAY_SIZE(cold_cycles) ? ARRAY_SIZE(cold_cycles) : n;
	return n ? n : 1;
}

/* The kernel anchor opens the record OpenSSL sealed last, whole and in pages. */
static int kernel_agrees(struct record *r)
{
	const u8 *ct = r->seal ? r->out : r->in;
	u8 *tmp = aligned_alloc(64, r->len + 64);
	int ret = -1;

	if (tmp && !kanchor_open(r->kk, r->nonce, r->ad, AD_LEN, ct, tmp,
				 r->len, r->tag, 0) &&
	    !kanchor_open(r->kk, r->nonce, r->ad, AD_LEN, ct, tmp, r->len,
			  r->tag, KANCHOR_PAGE))
		ret = 0;
	else
		fprintf(stderr, "%s: the kernel anchor cannot open the record\n",
			tlsx_aead_alg_name(r->alg));
	free(tmp);
	return ret;
}

/* --pieces: the page-rounded room of a piece of @c bytes at @off. */
static size_t piece_room(size_t off, size_t c)
{
	return (off + c + 4095) & ~(size_t)4095;
}

/*
 * Both sides agree on the record in pieces (tlsx, and the kernel anchor
 * if there is one), or nothing is timed: sealed, the tag of the record
 * from one piece; opened, the plaintext.
 */
static int pieces_agree(struct record *r)
{
	struct tlsx_aead_seg out = { r->pout, r->len };
	u8 tag[16];
	int ret = 0;

	if (r->seal) {
		ret = tlsx_aead_seal_sg(&r->k, r->nonce, r->ad, AD_LEN, r->segs,
					r->nsegs, &out, 1, r->len, tag) ||
		      memcmp(tag, r->tag, 16);
		if (!ret && r->kk)
			ret = kanchor_seal_sg(r->kk, r->nonce, r->ad, AD_LEN,
					      r->segs, r->nsegs, &out, 1,
					      r->len, tag) ||
			      memcmp(tag, r->tag, 16);
	} else {
		ret = tlsx_aead_open_sg(&r->k, r->nonce, r->ad, AD_LEN,
					r->segs, r->nsegs, &out, 1, r->len,
					r->tag);
		if (!ret && r->kk)
			ret = kanchor_open_sg(r->kk, r->nonce, r->ad, AD_LEN,
					      r->segs, r->nsegs, &out, 1,
					      r->len, r->tag);
	}
	if (ret)
		fprintf(stderr, "%s %s: the record in pieces differs\n",
			tlsx_aead_alg_name(r->alg),
			tlsx_aead_impl_name(r->impl));
	return ret ? -1 : 0;
}

/*
 * --pieces: r->in again as a head and pieces (a copy: the open side
 * reads the ciphertext made above), each piece at its offset in pages of
 * its own.
 */
static int pieces_setup(struct record *r, const struct crypto_opts *o)
{
	size_t head = o->piece_head < r->len ? o->piece_head : r->len;
	size_t body = (r->len - head + o->piece_size - 1) / o->piece_size;
	size_t n = (head ? 1 : 0) + body;
	size_t room, off = 0, at = 0, i;

	room = (head ? piece_room(o->piece_off, head) : 0) +
	       body * piece_room(o->piece_off, o->piece_size);
	r->segs = calloc(n, sizeof(*r->segs));
	r->pages = aligned_alloc(4096, room);
	if (!r->segs || !r->pages)
		return -1;
	for (i = 0; off < r->len; i++) {
		size_t c = off < head ? head : o->piece_size;

		if (c > r->len - off)
			c = r->len - off;
		r->segs[i].data = r->pages + at + o->piece_off;
		r->segs[i].len = c;
		memcpy(r->segs[i].data, r->in + off, c);
		at += piece_room(o->piece_off, c);
		off += c;
	}
	r->nsegs = (unsigned int)i;
	r->pout = r->out + o->piece_out_off;
	return pieces_agree(r);
}

/*
 * Set both sides up for @alg/@impl and one record of @len bytes; check
 * that they agree.  Returns 0, or -1 with a message.
 */
static int record_setup(struct record *r, enum tlsx_aead_alg alg,
			enum tlsx_aead_impl impl, bool seal, size_t len,
			const struct crypto_opts *o)
{
	size_t kl = tlsx_aead_key_len(alg), i;
	size_t align = o->piece_size ? 4096 : 64;
	u8 tag_tlsx[16];
	int ret;

	memset(r, 0, sizeof(*r));
	r->alg = alg;
	r->impl = impl;
	r->seal = seal;
	r->len = len;
	for (i = 0; i < sizeof(r->key); i++)
		r->key[i] = (u8)(i * 7 + 1);
	for (i = 0; i < sizeof(r->nonce); i++)
		r->nonce[i] = (u8)(0xa0 + i);
	memcpy(r->ad, "\x17\x03\x03\x40\x11", AD_LEN);
	/*
	 * --pieces: the output from a page start, as a received record's
	 * plaintext skb (the kernel's walk cuts it at page boundaries).
	 */
	r->in = aligned_alloc(align, (len + 64 + 2 * align - 1) & ~(align - 1));
	r->out = aligned_alloc(align, (len + 64 + 2 * align - 1) & ~(align - 1));
	r->evp = EVP_CIPHER_CTX_new();
	if (!r->in || !r->out || !r->evp)
		return -1;
	for (i = 0; i < len; i++)
		r->in[i] = (u8)(i * 131 + 17);

	ret = tlsx_aead_setkey(&r->k, alg, impl, r->key, kl);
	if (ret) {
		fprintf(stderr, "setkey %s %s: %d\n", tlsx_aead_alg_name(alg),
			tlsx_aead_impl_name(impl), ret);
		return -1;
	}
	if (!aead_evp_setkey(r->evp, alg, r->key, true))
		return -1;
	if (o->kernel && !o->setkey) {
		enum kanchor_path kp = o->kpath == KANCHOR_NONE ?
			kanchor_best_path(alg) : (enum kanchor_path)o->kpath;

		if (kanchor_path_usable(alg, kp)) {
			r->kk = kanchor_key_new(alg, kp, r->key);
			if (!r->kk)
				return -1;
		}
	}

	/* Both sides seal the record alike. */
	if (tlsx_aead_seal(&r->k, r->nonce, r->ad, AD_LEN, r->in, r->out, len,
			   tag_tlsx) || !evp_seal_one(r) ||
	    memcmp(tag_tlsx, r->tag, 16)) {
		fprintf(stderr, "%s %s: tlsx and OpenSSL disagree\n",
			tlsx_aead_alg_name(alg), tlsx_aead_impl_name(impl));
		return -1;
	}
	if (!seal) {
		/* Open the ciphertext just made: input = it, tag = its tag. */
		u8 *t = r->in;

		r->in = r->out;
		r->out = t;
		EVP_CIPHER_CTX_free(r->evp);
		r->evp = EVP_CIPHER_CTX_new();
		if (!r->evp || !aead_evp_setkey(r->evp, alg, r->key, false))
			return -1;
		if (!evp_open_one(r) ||
		    tlsx_aead_open(&r->k, r->nonce, r->ad, AD_LEN, r->in,
				   r->out, len, r->tag)) {
			fprintf(stderr, "%s %s: open of a sealed record fails\n",
				tlsx_aead_alg_name(alg),
				tlsx_aead_impl_name(impl));
			return -1;
		}
	}
	/* The anchor was checked (kanchor_check()); this record opens too. */
	if (r->kk && kernel_agrees(r))
		return -1;
	if (o->piece_size && pieces_setup(r, o))
		return -1;
	return 0;
}

static void record_free(struct record *r)
{
	tlsx_aead_wipe(&r->k);
	EVP_CIPHER_CTX_free(r->evp);
	kanchor_key_free(r->kk);
	free(r->in);
	free(r->out);
	free(r->segs);
	free(r->pages);
}

/* The sides of a round: tlsx, OpenSSL, the kernel, the kernel in pages. */
enum side { SIDE_TLSX, SIDE_EVP, SIDE_KERNEL, SIDE_PAGES, SIDE_COUNT };

struct result {
	struct bench_stats st[SIDE_COUNT];
	double ratio[SIDE_COUNT];	/* tlsx over the side: median per round */
	bool has[SIDE_COUNT];
};

static int measure(struct record *r, struct crypto_opts *o,
		   struct result *res)
{
	static double t[SIDE_COUNT][MAX_ROUNDS], q[SIDE_COUNT][MAX_ROUNDS];
	run_fn run[SIDE_COUNT] = {
		o->setkey ? run_tlsx_setkey : run_tlsx_record,
		o->setkey ? run_evp_setkey : run_evp_record,
		run_kernel_record, run_kernel_pages,
	};
	size_t n[SIDE_COUNT];
	int i, k, sd, nsides;

	memset(res, 0, sizeof(*res));
	res->has[SIDE_TLSX] = res->has[SIDE_EVP] = true;
	res->has[SIDE_KERNEL] = r->kk;
	res->has[SIDE_PAGES] = r->kk && (r->segs || r->len > KANCHOR_PAGE);
	nsides = res->has[SIDE_PAGES] ? 4 : res->has[SIDE_KERNEL] ? 3 : 2;
	for (sd = 0; sd < nsides; sd++)
		n[sd] = batch_size(run[sd], r, o->batch_ms, o->cold);
	/* Each round starts with the next side: every side goes first. */
	for (i = 0; i < o->rounds; i++) {
		bench_progress_round(&o->prog, i);
		for (k = 0; k < nsides; k++) {
			sd = (i + k) % nsides;
			t[sd][i] = time_batch(run[sd], r, n[sd], o->cold);
		}
		for (sd = 1; sd < nsides; sd++)
			q[sd][i] = t[SIDE_TLSX][i] / t[sd][i];
	}
	bench_progress_row_done(&o->prog);
	if (r->failures) {
		fprintf(stderr, "%lu records failed\n", r->failures);
		return -1;
	}
	for (sd = 0; sd < nsides; sd++) {
		res->st[sd] = bench_summarize(t[sd], o->rounds);
		if (sd)
			res->ratio[sd] = bench_summarize(q[sd], o->rounds).median;
	}
	return 0;
}

static void print_header(const struct crypto_opts *o, unsigned long checked)
{
	char model[128] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];

	while (f && fgets(line, sizeof(line), f)) {
		char *c = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && c) {
			snprintf(model, sizeof(model), "%s", c + 2);
			model[strcspn(model, "\n")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	printf("# tlsx-bench crypto: %s, TSC %.3f GHz, %s\n", model,
	       bench_tsc_per_ns(), OpenSSL_version(OPENSSL_VERSION));
	printf("# %d rounds of ~%.1f ms batches per side, alternating; "
	       "median [min-max] ns per record; AD %d B;\n"
	       "# ratio: median of the per-round ratios tlsx/OpenSSL\n",
	       o->rounds, o->batch_ms, AD_LEN);
	if (o->piece_size)
		printf("# input in pieces: %zu bytes, then %zu-byte pieces at offset %zu of a page each;\n"
		       "# output one buffer from offset %zu of a page\n",
		       o->piece_head, o->piece_size, o->piece_off,
		       o->piece_out_off);
	if (o->cold)
		printf("# cold: 48 KiB of other code run and 256 KiB of other data read before\n"
		       "# every record, each record timed alone (the evictions not counted),\n"
		       "# a batch's mean over its fastest 90 %% of records\n");
	if (o->kernel && !o->setkey)
		printf("# kernel: Linux 6.12's asm on path kpath, as kTLS calls it; "
		       "t/k: ratio tlsx/kernel;\n"
		       "# kpg: the kernel fed %s; t/kpg: tlsx/that\n"
		       "# kernel anchor: %lu records agree with OpenSSL\n",
		       o->piece_size ?
		       "the same pieces, walked as 6.12 walks a scatterlist" :
		       "4 KiB pieces (records over 4 KiB)",
		       checked);
	printf("%-18s %-4s %6s %-7s %22s %6s %6s %22s %6s %6s %6s",
	       "alg", "op", "size", "impl", "tlsx ns [min-max]", "GB/s",
	       "cyc/B", "openssl ns [min-max]", "GB/s", "cyc/B", "ratio");
	if (o->kernel && !o->setkey)
		printf(" %-9s %9s %6s %9s %6s", "kpath", "kernel ns", "t/k",
		       "kpg ns", "t/kpg");
	printf("\n");
}

/*
 * The kernel's line is drawn once per size: from the last implementation
 * that runs for the algorithm (the widest), not once per tlsx engine.
 */
static bool last_impl(const struct crypto_opts *o, enum tlsx_aead_alg alg,
		      int impl)
{
	int i;

	for (i = impl + 1; i < TLSX_IMPL_COUNT; i++)
		if ((o->impl < 0 || i == o->impl) &&
		    tlsx_aead_impl_available(alg, i))
			return false;
	return true;
}

/* The row in --json, its points in --plot. */
static void out_row(const struct record *r, enum tlsx_aead_impl impl,
		    const struct result *res, struct crypto_opts *o,
		    const char *op)
{
	const struct bench_stats *ts = &res->st[SIDE_TLSX];
	const struct bench_stats *es = &res->st[SIDE_EVP];
	const struct bench_stats *ks = &res->st[SIDE_KERNEL];
	const struct bench_stats *ps = &res->st[SIDE_PAGES];
	bool k = res->has[SIDE_KERNEL], p = res->has[SIDE_PAGES];
	const char *alg = tlsx_aead_alg_name(r->alg);
	const char *in = tlsx_aead_impl_name(impl);
	struct bench_field f[] = {
		BF_STR("alg", alg), BF_STR("op", op),
		BF_NUM("size", o->setkey ? 0 : (double)r->len),
		BF_STR("impl", in),
		BF_NUM("ns", ts->median),
		BF_NUM("ns_min", ts->min),
		BF_NUM("ns_max", ts->max),
		BF_NUM("openssl_ns", es->median),
		BF_NUM("openssl_ns_min", es->min),
		BF_NUM("openssl_ns_max", es->max),
		BF_NUM("ratio", res->ratio[SIDE_EVP]),
		BF_STR("kernel_path", k ? kanchor_path_name(kanchor_key_path(r->kk)) :
					  ""),
		BF_NUM("kernel_ns", k ? ks->median : NAN),
		BF_NUM("kernel_ns_min", k ? ks->min : NAN),
		BF_NUM("kernel_ns_max", k ? ks->max : NAN),
		BF_NUM("kernel_ratio", k ? res->ratio[SIDE_KERNEL] : NAN),
		BF_NUM("kernel_pages_ns", p ? ps->median : NAN),
		BF_NUM("kernel_pages_ratio", p ? res->ratio[SIDE_PAGES] : NAN),
		BF_NUM("rounds", o->rounds),
		BF_STR("caches", o->cold ? "cold" : "warm"),
		BF_NUM("piece_head", (double)o->piece_head),
		BF_NUM("piece_size", (double)o->piece_size),
		BF_NUM("piece_offset", (double)o->piece_off),
		BF_NUM("piece_out_offset", (double)o->piece_out_off),
	};
	char panel[64], ratio[48];

	bench_out_row(&o->out, f, sizeof(f) / sizeof(*f));
	if (!o->out.plot || o->setkey)
		return;
	snprintf(panel, sizeof(panel), "%s %s", alg, op);
	snprintf(ratio, sizeof(ratio), "%s/OpenSSL", in);
	bench_plot_point(o->out.plot, panel, in, 1, (double)r->len,
			 (double)r->len / ts->median);
	/* OpenSSL's line: its batches beside the first implementation's. */
	bench_plot_point(o->out.plot, panel, "OpenSSL", BENCH_PLOT_ANCHOR,
			 (double)r->len, (double)r->len / es->median);
	bench_plot_point(o->out.plot, panel, ratio, 2, (double)r->len,
			 res->ratio[SIDE_EVP]);
	if (!k)
		return;
	/* The kernel's own code, as kTLS calls it, and tlsx over it. */
	if (last_impl(o, r->alg, impl))
		bench_plot_point(o->out.plot, panel, "kernel", 1,
				 (double)r->len, (double)r->len / ks->median);
	snprintf(ratio, sizeof(ratio), "%s/kernel", in);
	bench_plot_point(o->out.plot, panel, ratio, 2, (double)r->len,
			 res->ratio[SIDE_KERNEL]);
}

static void print_row(const struct record *r, enum tlsx_aead_impl impl,
		      const struct result *res, struct crypto_opts *o)
{
	const struct bench_stats *ts = &res->st[SIDE_TLSX];
	const struct bench_stats *es = &res->st[SIDE_EVP];
	double tpn = bench_tsc_per_ns(), len = (double)r->len;
	const char *kp = r->kk ? kanchor_path_name(kanchor_key_path(r->kk)) :
				 "-";
	char a[40], b[40];

	const char *op = o->setkey ? "key" : r->seal ? "seal" : "open";

	out_row(r, impl, res, o, op);
	if (o->csv) {
		printf("%s,%s,%zu,%s,%.1f,%.1f,%.3f",
		       tlsx_aead_alg_name(r->alg), op,
		       r->len, tlsx_aead_impl_name(impl), ts->median,
		       es->median, res->ratio[SIDE_EVP]);
		if (o->kernel && !o->setkey) {
			printf(",%s", kp);
			for (int sd = SIDE_KERNEL; sd <= SIDE_PAGES; sd++)
				if (res->has[sd])
					printf(",%.1f,%.3f", res->st[sd].median,
					       res->ratio[sd]);
				else
					printf(",,");
		}
		printf("\n");
		return;
	}
	snprintf(a, sizeof(a), "%.0f [%.0f-%.0f]", ts->median, ts->min,
		 ts->max);
	snprintf(b, sizeof(b), "%.0f [%.0f-%.0f]", es->median, es->min,
		 es->max);
	if (o->setkey) {
		/* No bytes: the GB/s and cyc/B columns say "-". */
		printf("%-18s %-4s %6s %-7s %22s %6s %6s %22s %6s %6s %6.3f\n",
		       tlsx_aead_alg_name(r->alg), op, "-",
		       tlsx_aead_impl_name(impl), a, "-", "-", b, "-", "-",
		       res->ratio[SIDE_EVP]);
		fflush(stdout);
		return;
	}
	printf("%-18s %-4s %6zu %-7s %22s %6.2f %6.2f %22s %6.2f %6.2f %6.3f",
	       tlsx_aead_alg_name(r->alg), op, r->len,
	       tlsx_aead_impl_name(impl), a, len / ts->median,
	       ts->median * tpn / len, b, len / es->median,
	       es->median * tpn / len, res->ratio[SIDE_EVP]);
	if (o->kernel) {
		printf(" %-9s", kp);
		for (int sd = SIDE_KERNEL; sd <= SIDE_PAGES; sd++)
			if (res->has[sd])
				printf(" %9.0f %6.3f", res->st[sd].median,
				       res->ratio[sd]);
			else
				printf(" %9s %6s", "-", "-");
	}
	printf("\n");
	fflush(stdout);
}

void bench_crypto_usage(void)
{
	fprintf(stderr,
		"Usage: tlsx-bench crypto [--csv] [--rounds N] [--batch-ms MS]\n"
		"                         [--alg NAME] [--impl NAME] [--size N]\n"
		"                         [--cpu N] [--setkey] [--sweep] [--cold]\n"
		"                         [--pieces H,S,O[,D]]\n"
		"                         [--kernel PATH | --no-kernel]\n"
		"                         [--json FILE] [--plot FILE.svg]\n"
		"  --csv        rows alg,op,size,impl,ns,openssl_ns,ratio,\n"
		"               kpath,kernel_ns,kernel_ratio,kpg_ns,kpg_ratio\n"
		"               (ns: medians; ratio: median per-round ratio)\n"
		"  --rounds N   alternating rounds per configuration (15)\n"
		"  --batch-ms   length of one timed batch (2)\n"
		"  --alg        aes-128-gcm, aes-256-gcm, chacha20-poly1305 or\n"
		"               aes-128-ccm\n"
		"  --impl       generic, sse, avx2 or avx512 (default: all\n"
		"               this CPU has)\n"
		"  --size N     one record size (default 64, 1024, 16384)\n"
		"  --cpu N      pin to CPU N\n"
		"  --setkey     time the key setup (tlsx_aead_setkey against\n"
		"               EVP_EncryptInit_ex with the key) instead\n"
		"  --kernel P   the kernel anchor's path: avx10_512, avx10_256,\n"
		"               aesni_avx, aesni (GCM); avx512vl, avx2 (ChaCha);\n"
		"               default: what 6.12 picks on this CPU\n"
		"  --no-kernel  no kernel anchor (nor its check)\n"
		"  --sweep      record sizes 64, 256, 1024, 4096, 16384\n"
		"  --cold       every record on caches a server's other work\n"
		"               left: 48 KiB of other code run and 256 KiB of\n"
		"               other data read before it (each timed alone)\n"
		"  --pieces H,S,O[,D]  the input in pieces, as tlsx.ko gets\n"
		"               it: H bytes, then S-byte pieces each at offset\n"
		"               O of its own page (300,4096,0: a head and page-\n"
		"               cache pages; 0,1448,66: received TCP segments);\n"
		"               the output from offset D of a page (0)\n"
		"               tlsx and the kpg column (the kernel's walk)\n"
		"               take them, OpenSSL and the kernel column not\n"
		BENCH_OUT_USAGE);
}

/*
 * "H,S,O[,D]": a head of H bytes, S-byte pieces (1 to 65536), offset
 * O < 4096; the output at offset D < 4096 of a page (default 0).
 */
static int parse_pieces(const char *arg, struct crypto_opts *o)
{
	unsigned long h, sz, off, d = 0;
	char end;
	int n;

	n = sscanf(arg, "%lu,%lu,%lu,%lu%c", &h, &sz, &off, &d, &end);
	if ((n != 3 && n != 4) || h > (1u << 24) || !sz || sz > 65536 ||
	    off >= 4096 || d >= 4096)
		return -1;
	o->piece_head = h;
	o->piece_size = sz;
	o->piece_off = off;
	o->piece_out_off = d;
	return 0;
}

static int parse_opts(int argc, char **argv, struct crypto_opts *o)
{
	static const struct option lopts[] = {
		{ "csv", no_argument, NULL, 'c' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "batch-ms", required_argument, NULL, 'b' },
		{ "alg", required_argument, NULL, 'a' },
		{ "impl", required_argument, NULL, 'i' },
		{ "size", required_argument, NULL, 's' },
		{ "cpu", required_argument, NULL, 'p' },
		{ "setkey", no_argument, NULL, 'k' },
		{ "kernel", required_argument, NULL, 'K' },
		{ "no-kernel", no_argument, NULL, 'N' },
		{ "sweep", no_argument, NULL, BENCH_OPT_SWEEP },
		{ "cold", no_argument, NULL, 'C' },
		{ "pieces", required_argument, NULL, 'P' },
		{ "json", required_argument, NULL, BENCH_OPT_JSON },
		{ "plot", required_argument, NULL, BENCH_OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long ul;
	int c, a, ret;

	o->rounds = 15;
	o->batch_ms = 2;
	o->csv = false;
	o->alg = 0;
	o->impl = -1;
	o->size = 0;
	o->setkey = false;
	o->kernel = true;
	o->kpath = KANCHOR_NONE;
	o->sweep = false;
	o->cold = false;
	o->piece_head = o->piece_size = o->piece_off = 0;
	o->piece_out_off = 0;
	memset(&o->out, 0, sizeof(o->out));
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'c':
			o->csv = true;
			break;
		case 'k':
			o->setkey = true;
			break;
		case 'K':
			o->kpath = kanchor_path_parse(optarg);
			if (o->kpath == KANCHOR_NONE)
				goto bad;
			o->kernel = true;
			break;
		case 'N':
			o->kernel = false;
			break;
		case BENCH_OPT_SWEEP:
			o->sweep = true;
			break;
		case 'C':
			o->cold = true;
			break;
		case 'P':
			if (parse_pieces(optarg, o))
				goto bad;
			break;
		case 'r':
			if (bench_opt_int(optarg, 1, MAX_ROUNDS, &o->rounds))
				goto bad;
			break;
		case 'b':
			if (bench_opt_double(optarg, 0.001, 60000,
					     &o->batch_ms))
				goto bad;
			break;
		case 'a':
			for (a = TLSX_AEAD_AES_128_GCM;
			     a <= TLSX_AEAD_AES_128_CCM; a++)
				if (!strcmp(optarg, tlsx_aead_alg_name(a)))
					o->alg = a;
			if (!o->alg)
				goto bad;
			break;
		case 'i':
			o->impl = tlsx_aead_impl_parse(optarg);
			if (o->impl < TLSX_IMPL_GENERIC)
				goto bad;
			break;
		case 's':
			if (bench_opt_uint(optarg, 1, 1u << 24, &ul))
				goto bad;
			o->size = ul;
			break;
		case 'p':
			ret = bench_opt_pin_cpu(optarg);
			if (ret == -1)
				goto bad;
			if (ret)
				return -1;
			break;
		default:
			if (bench_out_opt(&o->out, c, optarg))
				break;
			return -1;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "tlsx-bench crypto: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	if ((o->sweep && (o->size || o->setkey))) {
		fprintf(stderr, "tlsx-bench crypto: --sweep takes no --size or --setkey\n");
		return -1;
	}
	if (o->piece_size && o->setkey) {
		fprintf(stderr, "tlsx-bench crypto: --pieces takes no --setkey\n");
		return -1;
	}
	return 0;
bad:
	bench_opt_bad("crypto", lopts, c, optarg);
	return -1;
}

/*
 * The record sizes of a run: --size, --sweep's, or 64 B, 1 KiB and
 * 16 KiB.
 */
static const size_t *op_sizes(const struct crypto_opts *o, size_t *n)
{
	static const size_t sizes[] = { 64, 1024, 16384 };

	if (o->size) {
		*n = 1;
		return &o->size;
	}
	if (o->sweep)
		return bench_sweep_sizes(n);
	*n = sizeof(sizes) / sizeof(*sizes);
	return sizes;
}

/* Implementation @impl of @alg is measured in this run. */
static bool impl_runs(const struct crypto_opts *o, enum tlsx_aead_alg alg,
		      int impl)
{
	return (o->impl < 0 || impl == o->impl) &&
	       tlsx_aead_impl_available(alg, impl);
}

/* The rows of the run, for the progress line. */
static unsigned long count_rows(const struct crypto_opts *o)
{
	unsigned long rows = 0;
	size_t nsizes;
	int alg, impl;

	op_sizes(o, &nsizes);
	for (alg = TLSX_AEAD_AES_128_GCM; alg <= TLSX_AEAD_AES_128_CCM; alg++)
		for (impl = TLSX_IMPL_GENERIC; impl < TLSX_IMPL_COUNT; impl++)
			if ((!o->alg || alg == o->alg) &&
			    impl_runs(o, alg, impl))
				rows += o->setkey ? 1 : 2 * nsizes;
	return rows;
}

/* Row @r of the progress line: "aes-128-gcm seal 1024 avx2". */
static void progress_row(struct crypto_opts *o, const char *op,
			 enum tlsx_aead_alg alg, int impl, size_t len)
{
	char label[64];

	snprintf(label, sizeof(label), "%s %s %zu %s",
		 tlsx_aead_alg_name(alg), op, len, tlsx_aead_impl_name(impl));
	bench_progress_row(&o->prog, o->out.rows, label);
}

/* Every size and implementation of one operation of @alg. */
static int bench_op(enum tlsx_aead_alg alg, bool seal,
		    struct crypto_opts *o)
{
	size_t s, nsizes;
	const size_t *sizes = op_sizes(o, &nsizes);
	struct result res;
	struct record r;
	int impl;

	for (s = 0; s < nsizes; s++) {
		size_t len = sizes[s];

		for (impl = TLSX_IMPL_GENERIC; impl < TLSX_IMPL_COUNT; impl++) {
			if (!impl_runs(o, alg, impl))
				continue;
			progress_row(o, seal ? "seal" : "open", alg, impl, len);
			if (record_setup(&r, alg, impl, seal, len, o) ||
			    measure(&r, o, &res)) {
				record_free(&r);
				return -1;
			}
			print_row(&r, impl, &res, o);
			record_free(&r);
		}
	}
	return 0;
}

/* The key setup of @alg with every implementation. */
static int bench_setkey(enum tlsx_aead_alg alg, struct crypto_opts *o)
{
	struct result res;
	struct record r;
	int impl;

	for (impl = TLSX_IMPL_GENERIC; impl < TLSX_IMPL_COUNT; impl++) {
		if (!impl_runs(o, alg, impl))
			continue;
		progress_row(o, "key", alg, impl, 64);
		/* A 64-byte record: both sides agree on the first key. */
		if (record_setup(&r, alg, impl, true, 64, o) ||
		    measure(&r, o, &res)) {
			record_free(&r);
			return -1;
		}
		print_row(&r, impl, &res, o);
		record_free(&r);
	}
	return 0;
}

int bench_crypto(int argc, char **argv)
{
	struct crypto_opts o;
	unsigned long checked = 0;
	int alg;

	if (parse_opts(argc, argv, &o)) {
		bench_crypto_usage();
		return 2;
	}
	if (bench_out_begin(&o.out, "crypto"))
		return 2;
	if (o.out.plot)
		bench_plot_labels(o.out.plot, "tlsx-bench crypto: AEAD throughput against record size",
				  "record size (bytes)", "GB/s",
				  "tlsx/OpenSSL time (<1: tlsx faster)",
				  2);
	bench_tsc_per_ns();
	if (o.cold)
		cold_prepare();
	bench_progress_begin(&o.prog, "crypto", count_rows(&o), o.rounds);
	if (o.kernel && !o.setkey && kanchor_check(&checked)) {
		fprintf(stderr,
			"tlsx-bench crypto: the kernel anchor is wrong: nothing timed\n");
		return 1;
	}
	if (o.csv) {
		printf("alg,op,size,impl,ns,openssl_ns,ratio%s\n",
		       o.kernel && !o.setkey ? KANCHOR_CSV_COLUMNS : "");
	} else {
		print_header(&o, checked);
	}

	for (alg = TLSX_AEAD_AES_128_GCM; alg <= TLSX_AEAD_AES_128_CCM;
	     alg++) {
		if (o.alg && alg != o.alg)
			continue;
		if (o.setkey) {
			if (bench_setkey(alg, &o))
				goto fail;
		} else if (bench_op(alg, true, &o) ||
			   bench_op(alg, false, &o)) {
			goto fail;
		}
	}
	bench_progress_end(&o.prog);
	return bench_out_end(&o.out) ? 1 : 0;
fail:
	bench_progress_end(&o.prog);
	bench_out_end(&o.out);
	return 1;
}
