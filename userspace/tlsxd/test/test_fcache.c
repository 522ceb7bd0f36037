// SPDX-License-Identifier: GPL-2.0
/*
 * test_fcache.c - the open-file cache (fcache.c), alone and under
 * resp_plan() as a worker runs it (fcache_set_thread()), on a temporary
 * document root.  Each change a file can undergo between two requests is
 * made, and the second response must be what an uncached server would
 * send: new bytes and ETag after a write in place or a rename, 404 after
 * a delete, 403 (never the outside bytes) for a symlink out of the root,
 * even one to another hard link of the cached inode, 301 for a directory
 * swapped in.  Eviction at capacity with every entry in use must close
 * no fd under a user and leak none (/proc/self/fd counted).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/fcache.h"
#include "tlsxd/http_req.h"
#include "tlsxd/resp.h"
#include "tlsxd/stats.h"

#include "site_test.h"

#define NOW	1800000000
#define MTIME	1700000000

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			n++;
	closedir(d);
	return n - 1;	/* opendir's own */
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

FIXTURE(fc) {
	char root[SITE_DIR_MAX];
	char outside[SITE_DIR_MAX];
	struct mime_table *mime;
	struct site site;
	struct fcache *fc;
	char buf[RESP_BUF_MIN];
	struct resp r;
	int fds0;
};

FIXTURE_SETUP(fc)
{
	char p[256];

	self->fds0 = count_fds();
	site_dirs_make(_metadata, self->root, self->outside, "test_fcache");
	site_put(_metadata, self->outside, "secret.txt", "SECRET\n", MTIME);
	site_put(_metadata, self->root, "a.txt", "first\n", MTIME);
	site_put(_metadata, self->root, "b.txt", "bbb\n", MTIME);
	site_put(_metadata, self->root, "c.txt", "ccc\n", MTIME);
	site_put(_metadata, self->root, "d.txt", "ddd\n", MTIME);
	site_put(_metadata, self->root, "e.txt", "eee\n", MTIME);
	site_put(_metadata, self->root, "x.txt", "plain x\n", MTIME);
	site_put(_metadata, self->root, "x.txt.gz", "GZIPPED", MTIME);
	site_path(p, self->root, "dir");
	ASSERT_EQ(0, mkdir(p, 0755));
	site_put(_metadata, p, "index.html", "<p>index</p>\n", MTIME);

	site_open(_metadata, &self->site, &self->mime, self->root);
	self->site.precompressed = true;
	self->r.fd = -1;
	self->fc = fcache_new(4);
	ASSERT_NE(NULL, self->fc);
	fcache_set_thread(self->fc);
}

FIXTURE_TEARDOWN(fc)
{
	resp_release(&self->r);
	fcache_set_thread(NULL);
	fcache_free(self->fc);
	site_close(&self->site, self->mime);
	site_dirs_remove(_metadata, self->root, self->outside);
	/* Nothing the cache opened outlives it. */
	EXPECT_EQ(self->fds0, count_fds());
}

/* Plans a GET of @target into @r (released first). */
static int plan(struct _test_data_fc *self, const char *target, struct resp *r)
{
	struct http_req q;

	req_get(&q, target);
	resp_release(r);
	return resp_plan(&self->site, &q, NOW, 0, self->buf, sizeof(self->buf),
			 r);
}

/* The plan's whole-file body, read through its fd. */
static bool body_is(const struct resp *r, const char *want)
{
	char got[256];
	size_t len = strlen(want);

	if (r->fd < 0 || r->nseg != 1 || r->seg[0].mem ||
	    r->body_len != len || len > sizeof(got))
		return false;
	return pread(r->fd, got, len, 0) == (ssize_t)len &&
	       !memcmp(got, want, len);
}

/* The value of @name in the plan's head, into @out. */
static bool head_field(const struct resp *r, const char *name, char *out,
		       size_t cap)
{
	const char *end = r->head + r->head_len, *p, *eol;
	size_t n = strlen(name);

	for (p = r->head; p < end; p = eol + 2) {
		eol = memmem(p, end - p, "\r\n", 2);
		if (!eol)
			return false;
		if ((size_t)(eol - p) > n + 2 && !strncasecmp(p, name, n) &&
		    p[n] == ':' && (size_t)(eol - p - n - 2) < cap) {
			memcpy(out, p + n + 2, eol - p - n - 2);
			out[eol - p - n - 2] = '\0';
			return true;
		}
	}
	return false;
}

static struct fcache_stats stats(struct _test_data_fc *self)
{
	struct fcache_stats s;

	fcache_get_stats(self->fc, &s);
	return s;
}

TEST_F(fc, second_request_is_a_hit_on_the_same_fd)
{
	struct resp r2 = { .fd = -1 };
	int fd;

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_TRUE(body_is(&self->r, "first\n"));
	fd = self->r.fd;
	EXPECT_EQ(1, stats(self).misses);
	EXPECT_EQ(0, stats(self).hits);
	EXPECT_EQ(1, stats(self).entries);
	resp_release(&self->r);
	/* Cached: still open after the response let it go. */
	EXPECT_TRUE(fd_open(fd));

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(fd, self->r.fd);
	ASSERT_TRUE(body_is(&self->r, "first\n"));
	/* Two responses at once share it. */
	ASSERT_EQ(200, plan(self, "/a.txt", &r2));
	EXPECT_EQ(fd, r2.fd);
	EXPECT_EQ(2, stats(self).hits);
	EXPECT_EQ(1, stats(self).misses);
	resp_release(&r2);
	EXPECT_TRUE(body_is(&self->r, "first\n"));
}

TEST_F(fc, a_missing_file_is_404_and_not_cached)
{
	EXPECT_EQ(404, plan(self, "/nope.txt", &self->r));
	EXPECT_EQ(404, plan(self, "/nope.txt", &self->r));
	EXPECT_EQ(0, stats(self).entries);
	EXPECT_EQ(0, stats(self).hits);
}

TEST_F(fc, modified_in_place_gives_new_bytes_and_etag)
{
	char tag1[64], tag2[64], tag3[64], p[256];

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_TRUE(head_field(&self->r, "ETag", tag1, sizeof(tag1)));
	resp_release(&self->r);

	/* New size and mtime, same inode. */
	site_put(_metadata, self->root, "a.txt", "second, longer\n", MTIME + 10);
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_TRUE(body_is(&self->r, "second, longer\n"));
	ASSERT_TRUE(head_field(&self->r, "ETag", tag2, sizeof(tag2)));
	EXPECT_STRNE(tag1, tag2);
	EXPECT_EQ(1, stats(self).stale);
	/* The old entry was dropped, its fd closed (it was not in use). */
	EXPECT_EQ(1, stats(self).entries);
	EXPECT_EQ(self->fds0 + 1 + 1, count_fds());
	resp_release(&self->r);

	/* Same size, only the mtime differs: a new ETag all the same. */
	site_put(_metadata, self->root, "a.txt", "SECOND, LONGER\n", MTIME + 20);
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_TRUE(body_is(&self->r, "SECOND, LONGER\n"));
	ASSERT_TRUE(head_field(&self->r, "ETag", tag3, sizeof(tag3)));
	EXPECT_STRNE(tag2, tag3);
	EXPECT_EQ(2, stats(self).stale);

	/* A chmod alone changes ctime and mode: dropped too. */
	resp_release(&self->r);
	site_path(p, self->root, "a.txt");
	ASSERT_EQ(0, chmod(p, 0600));
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(3, stats(self).stale);
	EXPECT_EQ(1, stats(self).entries);
}

TEST_F(fc, replaced_by_rename_serves_the_new_file)
{
	char p[256], q[256], tag1[64], tag2[64];

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_TRUE(head_field(&self->r, "ETag", tag1, sizeof(tag1)));
	/* Held by a response while replaced: it keeps its old bytes. */
	site_put(_metadata, self->root, "a.new", "renamed\n", MTIME);
	site_path(p, self->root, "a.new");
	site_path(q, self->root, "a.txt");
	ASSERT_EQ(0, rename(p, q));
	{
		struct resp r2 = { .fd = -1 };
		int old = self->r.fd;

		ASSERT_EQ(200, plan(self, "/a.txt", &r2));
		ASSERT_TRUE(body_is(&r2, "renamed\n"));
		ASSERT_TRUE(head_field(&r2, "ETag", tag2, sizeof(tag2)));
		EXPECT_STRNE(tag1, tag2);
		EXPECT_NE(old, r2.fd);
		EXPECT_TRUE(body_is(&self->r, "first\n"));
		EXPECT_EQ(1, stats(self).orphans);
		resp_release(&self->r);
		/* Its last put closed the orphan. */
		EXPECT_FALSE(fd_open(old));
		EXPECT_EQ(0, stats(self).orphans);
		resp_release(&r2);
	}
}

TEST_F(fc, deleted_is_404)
{
	char p[256];

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	resp_release(&self->r);
	site_path(p, self->root, "a.txt");
	ASSERT_EQ(0, unlink(p));
	EXPECT_EQ(404, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(-1, self->r.fd);
	EXPECT_EQ(0, stats(self).entries);
}

TEST_F(fc, symlink_out_of_the_root_is_refused)
{
	char p[256], q[256];

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	resp_release(&self->r);
	site_path(p, self->root, "a.txt");
	site_path(q, self->outside, "secret.txt");
	ASSERT_EQ(0, unlink(p));
	ASSERT_EQ(0, symlink(q, p));
	/* statx follows it; the inode differs; openat2 refuses: 403. */
	EXPECT_EQ(403, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(-1, self->r.fd);
	EXPECT_EQ(NULL, memmem(self->r.head, self->r.head_len, "SECRET", 6));
	EXPECT_EQ(0, stats(self).entries);
}

TEST_F(fc, symlink_to_a_hard_link_of_the_cached_inode_is_refused)
{
	char p[256], q[256];

	/* outside/h.txt and root/a.txt: one inode, two names. */
	site_path(p, self->root, "a.txt");
	site_path(q, self->outside, "h.txt");
	ASSERT_EQ(0, link(p, q));
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	resp_release(&self->r);
	/* root/a.txt becomes a symlink out to the same inode. */
	ASSERT_EQ(0, unlink(p));
	ASSERT_EQ(0, symlink(q, p));
	/* nlink (and ctime) moved: not reused; openat2 says EXDEV. */
	EXPECT_EQ(403, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(1, stats(self).stale);
}

TEST_F(fc, directory_swapped_in_is_redirected)
{
	char p[256];

	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	resp_release(&self->r);
	site_path(p, self->root, "a.txt");
	ASSERT_EQ(0, unlink(p));
	ASSERT_EQ(0, mkdir(p, 0755));
	EXPECT_EQ(301, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(-1, self->r.fd);
	EXPECT_EQ(0, stats(self).entries);
	/* A directory itself is never cached: its index is. */
	EXPECT_EQ(200, plan(self, "/dir/", &self->r));
	EXPECT_TRUE(body_is(&self->r, "<p>index</p>\n"));
	EXPECT_EQ(200, plan(self, "/dir/", &self->r));
	EXPECT_EQ(1, stats(self).hits);
	EXPECT_EQ(1, stats(self).entries);
}

TEST_F(fc, sibling_cached_and_dropped_when_deleted)
{
	struct http_req q;
	char p[256];

	req_get(&q, "/x.txt");
	q.accept_gzip = true;
	resp_plan(&self->site, &q, NOW, 0, self->buf, sizeof(self->buf),
		  &self->r);
	ASSERT_EQ(200, self->r.status);
	ASSERT_STREQ("gzip", self->r.encoding);
	ASSERT_TRUE(body_is(&self->r, "GZIPPED"));
	/* x.txt and x.txt.gz, each its own entry. */
	EXPECT_EQ(2, stats(self).entries);
	resp_release(&self->r);
	site_path(p, self->root, "x.txt.gz");
	ASSERT_EQ(0, unlink(p));
	resp_plan(&self->site, &q, NOW, 0, self->buf, sizeof(self->buf),
		  &self->r);
	ASSERT_EQ(200, self->r.status);
	EXPECT_EQ(NULL, self->r.encoding);
	EXPECT_TRUE(body_is(&self->r, "plain x\n"));
	EXPECT_EQ(1, stats(self).entries);
}

/*
 * Until the directory @dir's last change is a whole second old (the
 * coarse clock file times come from): only then is an absence in it
 * remembered (fcache.c, NEG_SETTLE_S).
 */
static void wait_settled(const char *dir)
{
	struct timespec now;
	struct stat st;

	for (;;) {
		if (stat(dir, &st))
			return;
		clock_gettime(CLOCK_REALTIME_COARSE, &now);
		if (st.st_mtim.tv_sec + 1 <= now.tv_sec &&
		    st.st_ctim.tv_sec + 1 <= now.tv_sec)
			return;
		usleep(50 * 1000);
	}
}

/* GET @target accepting br and gzip: the status. */
static int plan_enc(struct _test_data_fc *self, const char *target)
{
	struct http_req q;

	req_get(&q, target);
	q.accept_gzip = true;
	q.accept_br = true;
	resp_release(&self->r);
	return resp_plan(&self->site, &q, NOW, 0, self->buf, sizeof(self->buf),
			 &self->r);
}

/*
 * No .br, no .gz: the first request tries both (two failing openat2,
 * counted as misses) and remembers it; the next ones open nothing that
 * fails (misses unchanged, neg_hits +2 each).  A .gz created later
 * changes the directory: the absence is dropped and the .gz served.
 */
TEST_F(fc, absent_siblings_remembered_until_one_appears)
{
	struct fcache_stats s0, s1;
	char p[256];
	int i;

	site_path(p, self->root, "sub");
	ASSERT_EQ(0, mkdir(p, 0755));
	site_put(_metadata, p, "page.txt", "the page\n", MTIME);
	wait_settled(p);

	ASSERT_EQ(200, plan_enc(self, "/sub/page.txt"));
	EXPECT_EQ(NULL, self->r.encoding);
	s0 = stats(self);
	EXPECT_EQ(3, s0.misses);	/* page.txt, .br, .gz */
	EXPECT_EQ(2, s0.neg_stored);
	EXPECT_EQ(0, s0.neg_hits);
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(200, plan_enc(self, "/sub/page.txt"));
		EXPECT_EQ(NULL, self->r.encoding);
		EXPECT_TRUE(body_is(&self->r, "the page\n"));
	}
	s1 = stats(self);
	EXPECT_EQ(s0.misses, s1.misses) TH_LOG("a sibling was opened again");
	EXPECT_EQ(6, s1.neg_hits);
	EXPECT_EQ(3, s1.hits);		/* page.txt itself */
	EXPECT_EQ(0, s1.neg_stale);

	site_path(p, self->root, "sub/page.txt.gz");
	site_put(_metadata, self->root, "sub/page.txt.gz", "GZ-PAGE", MTIME);
	ASSERT_EQ(200, plan_enc(self, "/sub/page.txt"));
	EXPECT_STREQ("gzip", self->r.encoding);
	EXPECT_TRUE(body_is(&self->r, "GZ-PAGE"));
	s1 = stats(self);
	EXPECT_EQ(1, s1.neg_stale);
}

/* The same at the top of the root (its directory is the root fd's). */
TEST_F(fc, absent_sibling_at_the_root_then_br_appears)
{
	wait_settled(self->root);
	ASSERT_EQ(200, plan_enc(self, "/a.txt"));
	EXPECT_EQ(2, stats(self).neg_stored);
	ASSERT_EQ(200, plan_enc(self, "/a.txt"));
	EXPECT_EQ(2, stats(self).neg_hits);
	site_put(_metadata, self->root, "a.txt.br", "BR-A", MTIME);
	ASSERT_EQ(200, plan_enc(self, "/a.txt"));
	EXPECT_STREQ("br", self->r.encoding);
	EXPECT_TRUE(body_is(&self->r, "BR-A"));
}

/* A directory changed a moment ago: nothing is remembered yet. */
TEST_F(fc, absence_in_a_fresh_directory_not_remembered)
{
	site_put(_metadata, self->root, "fresh.txt", "fresh\n", MTIME);
	ASSERT_EQ(200, plan_enc(self, "/fresh.txt"));
	ASSERT_EQ(200, plan_enc(self, "/fresh.txt"));
	EXPECT_EQ(0, stats(self).neg_stored);
	EXPECT_EQ(0, stats(self).neg_hits);
}

/* The counters mirrored into a worker's struct stats (stats.h). */
TEST_F(fc, counters_mirrored_into_the_worker_stats)
{
	struct stats w;
	struct fcache_stats s;

	memset(&w, 0, sizeof(w));
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	fcache_set_stats(self->fc, &w);
	/* The gauge starts at what is cached now. */
	EXPECT_EQ(1, w.v[STAT_FC_ENTRIES]);
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	EXPECT_EQ(404, plan(self, "/nope.txt", &self->r));
	ASSERT_EQ(200, plan(self, "/b.txt", &self->r));	/* held */
	s = stats(self);
	EXPECT_EQ(1, w.v[STAT_FC_HITS]);
	EXPECT_EQ(2, w.v[STAT_FC_MISSES]);	/* b.txt, nope.txt */
	EXPECT_EQ(s.entries, w.v[STAT_FC_ENTRIES]);
	EXPECT_EQ(2, w.v[STAT_FC_ENTRIES]);
	/* One in use when its entry is flushed: an orphan, then none. */
	fcache_flush(self->fc);
	EXPECT_EQ(0, w.v[STAT_FC_ENTRIES]);
	EXPECT_EQ(1, w.v[STAT_FC_ORPHANS]);
	EXPECT_TRUE(body_is(&self->r, "bbb\n"));
	resp_release(&self->r);
	EXPECT_EQ(0, w.v[STAT_FC_ORPHANS]);
	fcache_set_stats(self->fc, NULL);
}

TEST_F(fc, eviction_at_capacity_never_closes_an_fd_in_use)
{
	static const char *const names[] = {
		"/a.txt", "/b.txt", "/c.txt", "/d.txt", "/e.txt", "/x.txt",
	};
	static const char *const bodies[] = {
		"first\n", "bbb\n", "ccc\n", "ddd\n", "eee\n", "plain x\n",
	};
	struct resp r[6];
	unsigned int i;
	int fds;

	/* Six responses held at once in a cache of four. */
	for (i = 0; i < 6; i++) {
		r[i].fd = -1;
		ASSERT_EQ(200, plan(self, names[i], &r[i]));
	}
	EXPECT_EQ(4, stats(self).entries);
	EXPECT_EQ(2, stats(self).evictions);
	EXPECT_EQ(2, stats(self).orphans);
	/* Every fd still reads its own file. */
	for (i = 0; i < 6; i++)
		EXPECT_TRUE(body_is(&r[i], bodies[i]));
	fds = count_fds();
	EXPECT_EQ(self->fds0 + 1 + 6, fds);	/* the root fd, six files */
	for (i = 0; i < 6; i++)
		resp_release(&r[i]);
	/* The orphans closed at their last put, the four entries stay. */
	EXPECT_EQ(0, stats(self).orphans);
	EXPECT_EQ(self->fds0 + 1 + 4, count_fds());
	/* Many more files through it: bounded at four. */
	for (i = 0; i < 60; i++) {
		ASSERT_EQ(200, plan(self, names[i % 6], &self->r));
		ASSERT_TRUE(body_is(&self->r, bodies[i % 6]));
	}
	resp_release(&self->r);
	EXPECT_EQ(4, stats(self).entries);
	EXPECT_EQ(self->fds0 + 1 + 4, count_fds());
}

TEST_F(fc, refcounts_follow_gets_and_puts)
{
	struct stat st;
	int fd1, fd2, fd3;

	fd1 = fcache_get(self->fc, self->site.root_fd, "b.txt", &st);
	ASSERT_LE(0, fd1);
	EXPECT_EQ(4, st.st_size);
	fd2 = fcache_get(self->fc, self->site.root_fd, "b.txt", &st);
	EXPECT_EQ(fd1, fd2);
	fcache_put(self->fc, fd1);
	EXPECT_TRUE(fd_open(fd2));
	/* A put without a get never closes a cached fd. */
	fcache_put(self->fc, fd2);
	fcache_put(self->fc, fd2);
	EXPECT_TRUE(fd_open(fd2));
	/* An fd the cache does not hold (a directory) is closed by put. */
	fd3 = fcache_get(self->fc, self->site.root_fd, "dir", &st);
	ASSERT_LE(0, fd3);
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(1, stats(self).uncached);
	fcache_put(self->fc, fd3);
	EXPECT_FALSE(fd_open(fd3));
	/* The root ("") and paths over FCACHE_KEY_MAX are not cached. */
	fd3 = fcache_get(self->fc, self->site.root_fd, "", &st);
	ASSERT_LE(0, fd3);
	fcache_put(self->fc, fd3);
	EXPECT_EQ(2, stats(self).uncached);
	EXPECT_EQ(1, stats(self).entries);
}

TEST_F(fc, a_long_path_is_served_uncached)
{
	char p[512], target[512];
	size_t n;

	/* 40 segments of 9 bytes: a 399-byte relative path. */
	snprintf(p, sizeof(p), "%s", self->root);
	snprintf(target, sizeof(target), "%s", "");
	for (n = 0; n < 40; n++) {
		strcat(p, "/segment_");
		strcat(target, "/segment_");
		ASSERT_EQ(0, mkdir(p, 0755));
	}
	site_put(_metadata, p, "f.txt", "deep\n", MTIME);
	strcat(target, "/f.txt");
	ASSERT_LT(FCACHE_KEY_MAX, strlen(target) - 1);
	ASSERT_EQ(200, plan(self, target, &self->r));
	ASSERT_TRUE(body_is(&self->r, "deep\n"));
	EXPECT_EQ(0, stats(self).entries);
	resp_release(&self->r);
	/* Closed at once: nothing of it stays open. */
	EXPECT_EQ(self->fds0 + 1, count_fds());
}

TEST_F(fc, cache_off_opens_and_closes_each_time)
{
	int fd;

	fcache_set_thread(NULL);
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_TRUE(body_is(&self->r, "first\n"));
	fd = self->r.fd;
	resp_release(&self->r);
	EXPECT_FALSE(fd_open(fd));
	EXPECT_EQ(0, stats(self).misses);
	EXPECT_EQ(0, stats(self).entries);
	EXPECT_EQ(self->fds0 + 1, count_fds());
	/* fcache_get() with no cache is path_open_file(). */
	fd = fcache_get(NULL, self->site.root_fd, "a.txt", &(struct stat){});
	ASSERT_LE(0, fd);
	fcache_put(NULL, fd);
	EXPECT_FALSE(fd_open(fd));
	fcache_set_thread(self->fc);
}

TEST_F(fc, free_closes_everything)
{
	ASSERT_EQ(200, plan(self, "/a.txt", &self->r));
	ASSERT_EQ(200, plan(self, "/b.txt", &self->r));
	resp_release(&self->r);
	EXPECT_EQ(self->fds0 + 1 + 2, count_fds());
	fcache_set_thread(NULL);
	fcache_free(self->fc);
	EXPECT_EQ(self->fds0 + 1, count_fds());
	self->fc = fcache_new(1);
	ASSERT_NE(NULL, self->fc);
	EXPECT_EQ(NULL, fcache_new(0));
}

TEST_HARNESS_MAIN
