/* SPDX-License-Identifier: GPL-2.0 */
/*
 * mlkem_vectors.h - reading the C2SP CCTV ML-KEM vectors at test time
 * from ../shared/third_party/mlkem-vectors (TLSX_MLKEM_VECTORS
 * overrides; a worktree one level deeper finds ../../shared).  A missing
 * folder fails the test: nothing checked is not a pass.
 */
#ifndef TLSX_MLKEM_VECTORS_H
#define TLSX_MLKEM_VECTORS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char *mlkem_vector_dir(void)
{
	static const char *const tries[] = {
		"../shared/third_party/mlkem-vectors",
		"../../shared/third_party/mlkem-vectors",
	};
	const char *env = getenv("TLSX_MLKEM_VECTORS");
	unsigned int i;

	if (env)
		return env;
	for (i = 0; i < ARRAY_SIZE(tries); i++)
		if (!access(tries[i], R_OK))
			return tries[i];
	return NULL;
}

/* fopen() of @rel under the folder; "gz" files through zcat. */
static inline FILE *mlkem_vector_open(const char *rel, bool *is_pipe)
{
	const char *dir = mlkem_vector_dir();
	char path[4096];
	size_t n;

	*is_pipe = false;
	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	n = strlen(path);
	if (n > 3 && !strcmp(path + n - 3, ".gz")) {
		char cmd[4200];

		if (access(path, R_OK))
			return NULL;
		snprintf(cmd, sizeof(cmd), "zcat '%s'", path);
		*is_pipe = true;
		return popen(cmd, "r");
	}
	return fopen(path, "r");
}

/* Hex @hex (its length even) into @out, at most @cap bytes: how many. */
static inline size_t mlkem_unhex(u8 *out, size_t cap, const char *hex)
{
	size_t i, n = strspn(hex, "0123456789abcdefABCDEF") / 2;

	if (n > cap)
		return 0;
	for (i = 0; i < n; i++)
		if (sscanf(hex + 2 * i, "%2hhx", &out[i]) != 1)
			return 0;
	return n;
}

#endif /* TLSX_MLKEM_VECTORS_H */
