/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fcache.h - a worker's open-file cache: the regular files it served
 * recently, kept open, so that a request costs one statx(2) instead of
 * openat2 + fstat + close.
 *
 * Key: the normalised relative path (path_normalize()) and the root fd.
 * Value: an fd opened by path_open_file() (openat2 RESOLVE_BENEATH: the
 * only way an fd enters the cache), its struct stat, and a count of the
 * responses using it.  Every hit is revalidated by one statx() of the
 * path: the fd is reused only when the path still names the very inode
 * it holds, unchanged (fcache.c says why that is as safe as openat2).
 *
 * Bounded: at most @cap entries (a clock evicts the coldest), paths
 * longer than FCACHE_KEY_MAX are never cached.  An entry evicted or
 * found stale while responses use it is closed at its last put, never
 * under a user.  One cache per worker thread, never shared.
 */
#ifndef TLSXD_FCACHE_H
#define TLSXD_FCACHE_H

#include <stdint.h>
#include <sys/stat.h>

#define FCACHE_KEY_MAX		255
#define FCACHE_DEFAULT		1024

struct fcache;

struct fcache_stats {
	uint64_t hits;		/* revalidated and reused */
	uint64_t misses;	/* not cached: opened */
	uint64_t stale;		/* cached, but the path changed: reopened */
	uint64_t evictions;	/* dropped for room */
	uint64_t uncached;	/* not cacheable: a directory, a long path */
	uint64_t neg_hits;	/* a variant known absent: no openat2 */
	uint64_t neg_stored;	/* an absence remembered */
	uint64_t neg_stale;	/* its directory changed (or aged): dropped */
	unsigned int entries;	/* cached now */
	unsigned int orphans;	/* dropped, still in use */
};

/* A cache of at most @cap entries (>= 1); NULL when out of memory. */
struct fcache *fcache_new(unsigned int cap);

/*
 * Closes every fd of the cache and frees it.  Every fd fcache_get()
 * returned must have been put before.
 */
void fcache_free(struct fcache *fc);

/*
 * @rel (a path_normalize() result) beneath @root_fd, as
 * path_open_file() gives it: a regular file or a directory, *@st
 * filled.  A regular file comes from the cache (revalidated) or enters
 * it; a directory or a path over FCACHE_KEY_MAX is opened and returned
 * uncached.  @fc NULL: no cache, path_open_file() itself.  Returns the
 * fd, to be given back by fcache_put() (never close()d by the caller),
 * or path_open_file()'s -errno.  @root_fd must name the same directory
 * for as long as the cache is used with it.
 */
int fcache_get(struct fcache *fc, int root_fd, const char *rel,
	       struct stat *st);

/*
 * Gives back @fd from fcache_get(): one user fewer; closed when it was
 * not cached, or was dropped and this was its last user.  @fd < 0 is
 * ignored.  With @fc NULL, close(@fd).
 */
void fcache_put(struct fcache *fc, int fd);

void fcache_get_stats(const struct fcache *fc, struct fcache_stats *out);

/*
 * Mirrors the counters above into @sink (a worker's struct stats, the
 * STAT_FC_* counters; entries and orphans as gauges) from now on, so
 * that SIGUSR1 and the exit dump show them; NULL stops.  fcache_free()
 * takes the gauges back out.
 */
struct stats;
void fcache_set_stats(struct fcache *fc, struct stats *sink);

/*
 * A variant of @rel: @rel + @suffix (".br", ".gz": resp.c's
 * precompressed siblings), opened as fcache_get() opens a file, except
 * that an absence (-ENOENT) is remembered in a negative entry for @rel,
 * bit @idx (< 8), so that asking again costs no failing openat2.  The
 * entry is revalidated by one statx(2) of @rel's directory per
 * fcache_get() before it (the siblings of one request share it): its
 * inode, mtime and ctime must be unchanged, which any creation or rename
 * in the directory changes; and it is dropped after at most 60 s anyway.
 * An absence is only remembered once the directory has not changed for
 * a second (fcache.c says why).  Returns what fcache_get() returns.
 */
int fcache_get_variant(struct fcache *fc, int root_fd, const char *rel,
		       const char *suffix, unsigned int idx, struct stat *st);

/*
 * Drops every entry (SIGHUP with a new document root): those in use are
 * closed at their last put.
 */
void fcache_flush(struct fcache *fc);

/*
 * The calling thread's cache (NULL: none, the default): a worker sets
 * its own at start, and NULL before freeing it.  resp.c opens files
 * through it, so that resp.h's signatures need not change.
 */
void fcache_set_thread(struct fcache *fc);
struct fcache *fcache_thread(void);

#endif
