// SPDX-License-Identifier: GPL-2.0
/*
 * mlkem_jobs.c - the portable job runner: each Keccak job of K-PKE
 * (mlkem_poly.h's struct mlkem_job) on its own sponge, in order.
 */
#include "hash/sha3.h"
#include "mlkem/mlkem_poly.h"

static void run_hash(const struct mlkem_job *job)
{
	struct tlsx_keccak k;

	if (job->kind == MLKEM_JOB_HASH_H)
		tlsx_sha3_256_init(&k);
	else
		tlsx_shake256_init(&k);
	tlsx_keccak_absorb(&k, job->msg[0], job->len[0]);
	tlsx_keccak_absorb(&k, job->msg[1], job->len[1]);
	if (job->kind == MLKEM_JOB_HASH_H)
		tlsx_sha3_final(&k, job->out, SHA3_256_DIGEST_SIZE);
	else
		tlsx_shake_squeeze(&k, job->out, MLKEM_SYM_BYTES);
	tlsx_keccak_wipe(&k);
}

void mlkem_run_jobs_scalar(const struct mlkem_engine *e,
			   struct mlkem_job *jobs, int n)
{
	int i;

	(void)e;
	for (i = 0; i < n; i++) {
		struct mlkem_job *job = &jobs[i];

		switch (job->kind) {
		case MLKEM_JOB_MATRIX:
			mlkem_sample_ntt(job->r, job->seed, job->a, job->b);
			break;
		case MLKEM_JOB_CBD2:
			mlkem_sample_cbd2(job->r, job->seed, job->a);
			break;
		case MLKEM_JOB_ABSORB:
			tlsx_keccak_absorb(job->k, job->msg[0], job->len[0]);
			break;
		default:
			run_hash(job);
			break;
		}
	}
}
