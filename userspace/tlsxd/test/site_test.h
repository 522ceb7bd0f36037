/* SPDX-License-Identifier: GPL-2.0 */
/*
 * site_test.h - a document root on disk for the tests that plan
 * responses on it (test_resp.c, test_fcache.c): a temporary root and a
 * directory outside it (what a symlink must never reach), files written
 * into them with a set mtime, the struct site over the root, and a GET
 * made by hand.  Include after kselftest_harness.h.  Test-only.
 */
#ifndef TLSXD_TEST_SITE_TEST_H
#define TLSXD_TEST_SITE_TEST_H

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tlsxd/http_req.h"
#include "tlsxd/mime.h"
#include "tlsxd/resp.h"

/* The size of a directory's name, of a path site_path() makes. */
#define SITE_DIR_MAX	64
#define SITE_PATH_MAX	256

/*
 * @dir/@name into @out (SITE_PATH_MAX bytes); aborts rather than cut
 * it short, which would make a test act on some other file.
 */
static inline void site_path(char *out, const char *dir, const char *name)
{
	if (snprintf(out, SITE_PATH_MAX, "%s/%s", dir, name) >= SITE_PATH_MAX)
		abort();
}

/*
 * @len bytes of @data as @dir/@name, its atime and mtime @mtime.  An
 * existing file is truncated and rewritten in place: the same inode,
 * as an editor that does not rename would leave it.
 */
static inline void site_put_len(struct __test_metadata *_metadata,
				const char *dir, const char *name,
				const void *data, size_t len, time_t mtime)
{
	struct timespec ts[2] = { { mtime, 0 }, { mtime, 0 } };
	char path[PATH_MAX];	/* a test may nest deep (test_fcache) */
	int n = snprintf(path, sizeof(path), "%s/%s", dir, name), fd;

	ASSERT_GT(sizeof(path), (size_t)n);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ((ssize_t)len, write(fd, data, len));
	ASSERT_EQ(0, futimens(fd, ts));
	close(fd);
}

/* site_put_len() of the string @text. */
static inline void site_put(struct __test_metadata *_metadata,
			    const char *dir, const char *name,
			    const char *text, time_t mtime)
{
	site_put_len(_metadata, dir, name, text, strlen(text), mtime);
}

/*
 * Two new empty directories, /tmp/@tag.XXXXXX as @root and
 * /tmp/@tag_out.XXXXXX as @outside (SITE_DIR_MAX bytes each).
 */
static inline void site_dirs_make(struct __test_metadata *_metadata,
				  char *root, char *outside, const char *tag)
{
	snprintf(root, SITE_DIR_MAX, "/tmp/%s.XXXXXX", tag);
	ASSERT_NE(NULL, mkdtemp(root));
	snprintf(outside, SITE_DIR_MAX, "/tmp/%s_out.XXXXXX", tag);
	ASSERT_NE(NULL, mkdtemp(outside));
}

/* @root and @outside removed with all they hold (logged if not). */
static inline void site_dirs_remove(struct __test_metadata *_metadata,
				    const char *root, const char *outside)
{
	char cmd[2 * SITE_DIR_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", root, outside);
	if (system(cmd))
		TH_LOG("could not remove %s or %s", root, outside);
}

/*
 * @site over @root as a worker has it: the root as an O_PATH fd, the
 * built-in MIME table in *@mime (the caller frees both: site_close()),
 * index.html, "tlsxd/0.1", four ranges at most, hidden files and
 * precompressed siblings off (a test turns them on).
 */
static inline void site_open(struct __test_metadata *_metadata,
			     struct site *site, struct mime_table **mime,
			     const char *root)
{
	memset(site, 0, sizeof(*site));
	*mime = mime_load(NULL, NULL);
	ASSERT_NE(NULL, *mime);
	site->root_fd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	ASSERT_LE(0, site->root_fd);
	site->mime = *mime;
	site->index = "index.html";
	site->server = "tlsxd/0.1";
	site->ranges_max = 4;
}

static inline void site_close(struct site *site, struct mime_table *mime)
{
	close(site->root_fd);
	site->root_fd = -1;
	mime_free(mime);
}

/* @s as an http_str (NULL: the empty one). */
static inline struct http_str S(const char *s)
{
	struct http_str h = { s, s ? (uint32_t)strlen(s) : 0 };

	return h;
}

/* A GET of @target over HTTP/1.1, keep-alive, nothing else. */
static inline void req_get(struct http_req *q, const char *target)
{
	memset(q, 0, sizeof(*q));
	q->method = HTTP_M_GET;
	q->method_str = S("GET");
	q->target = S(target);
	q->version_minor = 1;
	q->keep_alive = true;
	q->host = S("localhost");
}

#endif /* TLSXD_TEST_SITE_TEST_H */
