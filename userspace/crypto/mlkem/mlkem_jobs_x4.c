// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_jobs_x4.c - the AVX2 engine's job runner: K-PKE's Keccak jobs
 * (mlkem_poly.h) on the four lanes of hash/sha3_x4_avx2.c's four-way
 * permutation, each lane taking the next job as soon as its own is
 * done.  A four-way permutation costs about 1.4 single ones here (777
 * against 567 TSC cycles on Zen 5), so what matters is that no lane
 * idles: Encaps runs H(ek) (9 permutations) beside the 9 matrix
 * samples (3 each), Decaps J(z || c) beside them; 9 four-way
 * permutations for 36 single ones.  KeyGen samples a row of the matrix
 * at a time and absorbs the rows of ek made so far into H beside it.
 * Callers list the long jobs first.
 *
 * Which lane runs what and for how long depends only on public data:
 * the jobs' kinds and lengths, and SampleNTT's rejections of the
 * public matrix seed.  The lanes of secret jobs (noise, J) are never
 * read but into their own outputs, and the state is wiped at the end.
 */
#include "hash/sha3.h"
#include "mlkem/mlkem_poly.h"

#define DS_SHAKE	0x1f	/* FIPS 202 B.2: SHAKE's 1111 and pad's 1 */
#define DS_SHA3		0x06

struct mlkem_lane {
	struct mlkem_job *job;
	size_t off;		/* HASH_*: message bytes absorbed */
	bool last;		/* HASH_*: the padded block is in */
	int n;			/* MATRIX: coefficients so far */
};

static unsigned int job_rate(const struct mlkem_job *job)
{
	if (job->kind == MLKEM_JOB_ABSORB)
		return job->k->rate;
	return job->kind == MLKEM_JOB_MATRIX ? SHAKE128_RATE : SHAKE256_RATE;
}

static void lane_xor(u64 s[25][4], int lane, const u8 *blk, unsigned int rate)
{
	unsigned int i;

	for (i = 0; i < rate / 8; i++)
		s[i][lane] ^= get_unaligned_le64(blk + 8 * i);
}

static void lane_read(u64 s[25][4], int lane, u8 *out, unsigned int len)
{
	unsigned int i;

	for (i = 0; i < len / 8; i++)
		put_unaligned_le64(s[i][lane], out + 8 * i);
}

/*
 * The hash job's next block into @blk: whole message bytes (from either
 * part or both), or the tail padded (pad10*1 after the domain bits);
 * true for that last one.
 */
static bool hash_block(const struct mlkem_job *job, size_t off, u8 *blk)
{
	size_t total = job->len[0] + job->len[1], n, n0 = 0;

	n = total - off < SHAKE256_RATE ? total - off : SHAKE256_RATE;
	if (off < job->len[0]) {
		n0 = job->len[0] - off < n ? job->len[0] - off : n;
		memcpy(blk, job->msg[0] + off, n0);
	}
	if (n > n0)
		memcpy(blk + n0, job->msg[1] + off + n0 - job->len[0], n - n0);
	if (n == SHAKE256_RATE)
		return false;
	memset(blk + n, 0, SHAKE256_RATE - n);
	blk[n] = job->kind == MLKEM_JOB_HASH_H ? DS_SHA3 : DS_SHAKE;
	blk[SHAKE256_RATE - 1] |= 0x80;
	return true;
}

/* Lane @lane begins @job: a zero state and the first padded block. */
static void lane_start(u64 s[25][4], struct mlkem_lane *ln, int lane,
		       struct mlkem_job *job)
{
	unsigned int rate = job_rate(job), i;
	u8 blk[SHAKE256_RATE];

	ln->job = job;
	for (i = 0; i < 25; i++)
		s[i][lane] = 0;
	switch (job->kind) {
	case MLKEM_JOB_MATRIX:
	case MLKEM_JOB_CBD2:
		/* seed || a (|| b), SHAKE's bits and pad10*1: one block */
		for (i = 0; i < MLKEM_SYM_BYTES / 8; i++)
			s[i][lane] = get_unaligned_le64(job->seed + 8 * i);
		if (job->kind == MLKEM_JOB_MATRIX)
			s[4][lane] = job->a | (u64)job->b << 8 |
				     (u64)DS_SHAKE << 16;
		else
			s[4][lane] = job->a | (u64)DS_SHAKE << 8;
		s[rate / 8 - 1][lane] |= 0x80ULL << 56;
		ln->n = 0;
		break;
	case MLKEM_JOB_ABSORB:
		/* the sponge so far, then its next block */
		for (i = 0; i < 25; i++)
			s[i][lane] = job->k->s[i];
		lane_xor(s, lane, job->msg[0], rate);
		ln->off = rate;
		break;
	default:
		ln->last = hash_block(job, 0, blk);
		ln->off = rate;
		lane_xor(s, lane, blk, rate);
		memzero_explicit(blk, sizeof(blk));
		break;
	}
}

/*
 * After a permutation: true when the lane's job is done.  Only the
 * secret jobs' buffers are wiped (the matrix is public).
 */
static bool lane_step(const struct mlkem_engine *e, u64 s[25][4],
		      struct mlkem_lane *ln, int lane)
{
	struct mlkem_job *job = ln->job;
	u8 buf[SHAKE256_RATE];
	int i;

	switch (job->kind) {
	case MLKEM_JOB_MATRIX:
		/* sampled already, all lanes at once (mlkem_run_jobs_x4()) */
		return ln->n == MLKEM_N;
	case MLKEM_JOB_CBD2:
		lane_read(s, lane, buf, 64 * MLKEM_ETA1);
		e->cbd2(job->r, buf);
		memzero_explicit(buf, 64 * MLKEM_ETA1);
		return true;
	case MLKEM_JOB_ABSORB:
		if (ln->off < job->len[0]) {
			lane_xor(s, lane, job->msg[0] + ln->off, job->k->rate);
			ln->off += job->k->rate;
			return false;
		}
		for (i = 0; i < 25; i++)
			job->k->s[i] = s[i][lane];
		return true;
	default:
		if (ln->last) {
			lane_read(s, lane, job->out, MLKEM_SYM_BYTES);
			return true;
		}
		ln->last = hash_block(job, ln->off, buf);
		ln->off += SHAKE256_RATE;
		lane_xor(s, lane, buf, SHAKE256_RATE);
		memzero_explicit(buf, SHAKE256_RATE);
		return false;
	}
}

/* The index of the next job from @next on with work in it, or @n. */
static int next_job(const struct mlkem_job *jobs, int next, int n)
{
	/* absorbing nothing is done before it starts */
	while (next < n && jobs[next].kind == MLKEM_JOB_ABSORB &&
	       !jobs[next].len[0])
		next++;
	return next;
}

void mlkem_run_jobs_x4(const struct mlkem_engine *e, struct mlkem_job *jobs,
		       int n)
{
	u64 s[25][4] __aligned(32);
	struct mlkem_lane ln[4];
	int next = next_job(jobs, 0, n), lane, active = 0;

	memset(s, 0, sizeof(s));
	for (lane = 0; lane < 4; lane++) {
		ln[lane].job = NULL;
		if (next < n) {
			lane_start(s, &ln[lane], lane, &jobs[next]);
			next = next_job(jobs, next + 1, n);
			active++;
		}
	}
	while (active) {
		int16_t *r[4];
		int n4[4];
		unsigned int mask = 0;

		tlsx_keccak_f1600_x4(s);
		/*
		 * SampleNTT reads the squeezed blocks one after another:
		 * the matrix lanes' blocks are sampled together, straight
		 * from the state (this runner is the AVX2 engine's).
		 */
		for (lane = 0; lane < 4; lane++) {
			r[lane] = NULL;
			n4[lane] = 0;
			if (ln[lane].job &&
			    ln[lane].job->kind == MLKEM_JOB_MATRIX) {
				r[lane] = ln[lane].job->r->c;
				n4[lane] = ln[lane].n;
				mask |= 1u << lane;
			}
		}
		if (mask) {
			mlkem_rej_take_lanes_avx2(r, n4, (const u64 (*)[4])s,
						  mask);
			for (lane = 0; lane < 4; lane++)
				if (mask & (1u << lane))
					ln[lane].n = n4[lane];
		}
		for (lane = 0; lane < 4; lane++) {
			if (!ln[lane].job || !lane_step(e, s, &ln[lane], lane))
				continue;
			ln[lane].job = NULL;
			if (next < n) {
				lane_start(s, &ln[lane], lane, &jobs[next]);
				next = next_job(jobs, next + 1, n);
			} else {
				active--;
			}
		}
	}
	memzero_explicit(s, sizeof(s));
}
