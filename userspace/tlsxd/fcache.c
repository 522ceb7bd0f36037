// SPDX-License-Identifier: GPL-2.0
/*
 * fcache.c - the open-file cache (fcache.h).
 *
 * Why a hit may skip openat2(RESOLVE_BENEATH):
 *  - an fd enters the cache only from path_open_file(), so every cached
 *    fd names an inode that was beneath the root when it was opened;
 *  - a hit needs statx(root_fd, rel) to name the same st_dev and st_ino
 *    now.  statx follows symlinks anywhere, but it only decides whether
 *    to reuse: a path that resolves elsewhere names another inode and
 *    goes back through openat2, which refuses it.  While we hold the fd
 *    the inode cannot be freed, so its number cannot be given to another
 *    file of that file system meanwhile;
 *  - the path could still reach the same inode by a way openat2 would
 *    refuse (a symlink out of the root to another hard link of it): that
 *    takes a link, an unlink or a rename of the inode, and nlink and
 *    ctime are compared.  Even then the bytes are those of a file that
 *    was beneath the root;
 *  - mode, uid and gid are compared (a chmod that openat2 would refuse
 *    with EACCES), and a directory on the path made unsearchable fails
 *    the statx itself;
 *  - size, mtime and ctime (nanoseconds) are compared, so the stat the
 *    response is planned from (Content-Length, ETag, Last-Modified) is
 *    the file's as of this request, as an fstat would give it.
 * So a hit serves what a miss would, for one statx instead of openat2,
 * fstat and close.
 *
 * Negative entries (fcache_get_variant(), resp.c's .br/.gz siblings):
 * "NAME has no NAME.gz" is kept with the stamps of NAME's directory
 * (device, inode, mtime and ctime, nanoseconds), taken by one statx()
 * *before* the openat2 that failed.  A name can only appear in a
 * directory by a link, a rename or a creation in it, and each of those
 * sets the directory's mtime and ctime to the current time (POSIX:
 * "shall mark for update the last data modification and last file
 * status change timestamps of the parent directory"), so a later
 * request's statx of the directory sees them differ and the sibling is
 * looked for again.  Two ways the stamps could fail to differ, and what
 * covers them:
 *  - the creation falls in the same timestamp tick as the directory's
 *    previous change (a coarse clock, or a file system keeping seconds
 *    only): an absence is only stored when both stamps are over
 *    NEG_SETTLE_S old, so any later change gets a later stamp;
 *  - a file system that does not keep directory times, or a clock set
 *    back: every negative entry is dropped NEG_TTL_S after it was made
 *    whatever its stamps say.  A stale absence lasts at most that.
 * A directory swapped (renamed over, a symlink on the path re-pointed)
 * has another inode, and a directory made unsearchable fails the statx:
 * both drop the entry.  Only -ENOENT is remembered.  The directory's
 * statx is made once per request for both siblings (fc->epoch).
 *
 * Layout: entries are malloc()ed, each on two hash chains (by key, and
 * by fd for fcache_put()) and in one slot of the clock.  A dropped entry
 * still in use ("orphan") leaves the key chain and the clock but stays
 * on the fd chain until its last put closes it.  Orphans are bounded by
 * the responses in flight, live entries (negative ones too) by @cap.
 * Negative entries have no fd and are on no fd chain.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "tlsxd/fcache.h"
#include "tlsxd/path.h"
#include "tlsxd/stats.h"

#define SLOT_ORPHAN	UINT32_MAX
/* Entries closed to make room when openat2 hits the fd limit. */
#define SHRINK_MAX	32
/* A directory changed this recently may change again in the same tick. */
#define NEG_SETTLE_S	1
/* A negative entry is never trusted longer than this (seconds). */
#define NEG_TTL_S	60

/* What a negative entry is checked against: the directory's stamps. */
struct dir_stamp {
	uint64_t ino;
	uint32_t dev_major, dev_minor;
	struct statx_timestamp mtime, ctime;
};

struct fc_ent {
	struct fc_ent *key_next;
	struct fc_ent *fd_next;
	union {
		struct stat st;			/* a file */
		struct {			/* neg: absent variants */
			struct dir_stamp dir;
			uint64_t checked;	/* fc->epoch of the last statx */
			time_t born;		/* CLOCK_MONOTONIC_COARSE s */
			uint8_t absent;		/* bit i: variant i absent */
		} n;
	};
	int fd;			/* -1 for a negative entry */
	int root_fd;
	uint32_t hash;
	uint32_t slot;		/* in fc->slot[], or SLOT_ORPHAN */
	unsigned int users;	/* responses holding fd */
	bool hot;		/* used since the clock hand last passed */
	bool neg;		/* a negative entry: key is the base name */
	uint16_t len;
	char key[];		/* @len bytes and a NUL */
};

struct fcache {
	struct fc_ent **slot;	/* the live entries, [0, n) */
	unsigned int cap, n, hand;
	struct fc_ent **by_key, **by_fd;
	uint32_t mask;		/* of both bucket arrays */
	uint64_t epoch;		/* fcache_get() calls: one per file asked */
	struct stats *sink;	/* the worker's counters, or NULL */
	struct fcache_stats st;
};

/* A counter of fc->st, mirrored into the worker's (stats.h) if set. */
#define COUNT(fc, field, id, delta)					\
	do {								\
		(fc)->st.field += (delta);				\
		if ((fc)->sink)						\
			stats_add((fc)->sink, (id), (delta));		\
	} while (0)

static void gauge_entries(struct fcache *fc, int delta)
{
	if (fc->sink)
		stats_add(fc->sink, STAT_FC_ENTRIES, delta);
}

void fcache_set_stats(struct fcache *fc, struct stats *sink)
{
	if (!fc)
		return;
	if (fc->sink) {
		stats_add(fc->sink, STAT_FC_ENTRIES, -(int64_t)fc->n);
		stats_add(fc->sink, STAT_FC_ORPHANS,
			  -(int64_t)fc->st.orphans);
	}
	fc->sink = sink;
	if (sink) {
		stats_add(sink, STAT_FC_ENTRIES, fc->n);
		stats_add(sink, STAT_FC_ORPHANS, fc->st.orphans);
	}
}

static __thread struct fcache *thread_fc;

void fcache_set_thread(struct fcache *fc)
{
	thread_fc = fc;
}

struct fcache *fcache_thread(void)
{
	return thread_fc;
}

/* FNV-1a over the path, the root fd mixed in. */
static uint32_t key_hash(const char *p, size_t len, int root_fd)
{
	uint32_t h = 2166136261u ^ (uint32_t)root_fd;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= (unsigned char)p[i];
		h *= 16777619u;
	}
	return h;
}

static uint32_t fd_bucket(const struct fcache *fc, int fd)
{
	return ((uint32_t)fd * 2654435761u >> 7) & fc->mask;
}

struct fcache *fcache_new(unsigned int cap)
{
	struct fcache *fc;
	uint32_t nb = 16;

	if (!cap || cap > (1u << 24))
		return NULL;
	while (nb < cap)
		nb <<= 1;
	fc = calloc(1, sizeof(*fc));
	if (!fc)
		return NULL;
	fc->cap = cap;
	fc->mask = nb - 1;
	fc->slot = calloc(cap, sizeof(*fc->slot));
	fc->by_key = calloc(nb, sizeof(*fc->by_key));
	fc->by_fd = calloc(nb, sizeof(*fc->by_fd));
	if (!fc->slot || !fc->by_key || !fc->by_fd) {
		fcache_free(fc);
		return NULL;
	}
	return fc;
}

void fcache_free(struct fcache *fc)
{
	struct fc_ent *e, *next;
	uint32_t b;

	if (!fc)
		return;
	fcache_set_stats(fc, NULL);
	/* Negative entries are on no fd chain: free them from the clock. */
	if (fc->slot) {
		unsigned int i;

		for (i = 0; i < fc->n; i++)
			if (fc->slot[i]->neg)
				free(fc->slot[i]);
	}
	/* Orphans are on the fd chains only: walk those. */
	if (fc->by_fd) {
		for (b = 0; b <= fc->mask; b++) {
			for (e = fc->by_fd[b]; e; e = next) {
				next = e->fd_next;
				close(e->fd);
				free(e);
			}
		}
	}
	free(fc->slot);
	free(fc->by_key);
	free(fc->by_fd);
	free(fc);
}

static void unlink_key(struct fcache *fc, struct fc_ent *e)
{
	struct fc_ent **pp = &fc->by_key[e->hash & fc->mask];

	while (*pp != e)
		pp = &(*pp)->key_next;
	*pp = e->key_next;
}

static void unlink_fd(struct fcache *fc, struct fc_ent *e)
{
	struct fc_ent **pp = &fc->by_fd[fd_bucket(fc, e->fd)];

	while (*pp != e)
		pp = &(*pp)->fd_next;
	*pp = e->fd_next;
}

static void destroy(struct fcache *fc, struct fc_ent *e)
{
	if (!e->neg) {
		unlink_fd(fc, e);
		close(e->fd);
	}
	free(e);
}

/* Out of the key chain and the clock; closed now or at its last put. */
static void drop(struct fcache *fc, struct fc_ent *e)
{
	struct fc_ent *last = fc->slot[fc->n - 1];

	unlink_key(fc, e);
	fc->slot[e->slot] = last;
	last->slot = e->slot;
	fc->n--;
	gauge_entries(fc, -1);
	if (fc->hand >= fc->n)
		fc->hand = 0;
	e->slot = SLOT_ORPHAN;
	if (e->users) {
		fc->st.orphans++;
		if (fc->sink)
			stats_add(fc->sink, STAT_FC_ORPHANS, 1);
		return;
	}
	destroy(fc, e);
}

static struct fc_ent *lookup(struct fcache *fc, uint32_t h, const char *rel,
			     size_t len, int root_fd, bool neg)
{
	struct fc_ent *e;

	for (e = fc->by_key[h & fc->mask]; e; e = e->key_next)
		if (e->hash == h && e->len == len && e->root_fd == root_fd &&
		    e->neg == neg && !memcmp(e->key, rel, len))
			return e;
	return NULL;
}

static bool same_time(const struct statx_timestamp *a,
		      const struct timespec *b)
{
	return a->tv_sec == b->tv_sec && a->tv_nsec == b->tv_nsec;
}

/* Does @rel still name @e's inode, unchanged?  The comment on top. */
static bool still_valid(const struct fc_ent *e, int root_fd, const char *rel)
{
	const unsigned int need = STATX_TYPE | STATX_MODE | STATX_NLINK |
				  STATX_UID | STATX_GID | STATX_MTIME |
				  STATX_CTIME | STATX_INO | STATX_SIZE;
	const struct stat *st = &e->st;
	struct statx sx;

	if (statx(root_fd, rel, 0, STATX_BASIC_STATS, &sx))
		return false;
	return (sx.stx_mask & need) == need &&
	       sx.stx_ino == st->st_ino &&
	       makedev(sx.stx_dev_major, sx.stx_dev_minor) == st->st_dev &&
	       sx.stx_size == (uint64_t)st->st_size &&
	       same_time(&sx.stx_mtime, &st->st_mtim) &&
	       same_time(&sx.stx_ctime, &st->st_ctim) &&
	       sx.stx_mode == st->st_mode && sx.stx_nlink == st->st_nlink &&
	       sx.stx_uid == st->st_uid && sx.stx_gid == st->st_gid;
}

/*
 * The clock: the first entry not used since the hand last passed; one
 * in use is passed over too while the hand has not gone round twice.
 */
static void evict_one(struct fcache *fc)
{
	unsigned int steps;
	struct fc_ent *e;

	for (steps = 0; steps < 2 * fc->n; steps++) {
		e = fc->slot[fc->hand];
		if (e->hot)
			e->hot = false;
		else if (!e->users)
			break;
		if (++fc->hand == fc->n)
			fc->hand = 0;
	}
	COUNT(fc, evictions, STAT_FC_EVICTIONS, 1);
	drop(fc, fc->slot[fc->hand]);
}

/* Out of descriptors: close some unused entries.  How many were. */
static unsigned int shrink(struct fcache *fc)
{
	unsigned int i = 0, done = 0;

	while (i < fc->n && done < SHRINK_MAX) {
		struct fc_ent *e = fc->slot[i];

		if (e->users || e->neg) {
			i++;
			continue;
		}
		/* drop() moves the last entry into slot i: look again. */
		drop(fc, e);
		COUNT(fc, evictions, STAT_FC_EVICTIONS, 1);
		done++;
	}
	return done;
}

/* A new entry in the key chain and the clock; NULL when out of memory. */
static struct fc_ent *insert(struct fcache *fc, uint32_t h, const char *rel,
			     size_t len, int root_fd)
{
	struct fc_ent *e;

	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return NULL;
	if (fc->n == fc->cap)
		evict_one(fc);
	memset(e, 0, sizeof(*e));
	memcpy(e->key, rel, len + 1);
	e->len = len;
	e->hash = h;
	e->root_fd = root_fd;
	e->fd = -1;
	e->slot = fc->n;
	fc->slot[fc->n++] = e;
	gauge_entries(fc, 1);
	e->key_next = fc->by_key[h & fc->mask];
	fc->by_key[h & fc->mask] = e;
	return e;
}

static void insert_file(struct fcache *fc, uint32_t h, const char *rel,
			size_t len, int root_fd, int fd, const struct stat *st)
{
	struct fc_ent *e = insert(fc, h, rel, len, root_fd);
	uint32_t b;

	if (!e)
		return;		/* served uncached: put closes it */
	e->fd = fd;
	e->st = *st;
	e->users = 1;
	b = fd_bucket(fc, fd);
	e->fd_next = fc->by_fd[b];
	fc->by_fd[b] = e;
}

/* fcache_get() without counting a file asked for (fc->epoch). */
static int get(struct fcache *fc, int root_fd, const char *rel,
	       struct stat *st)
{
	size_t len = strlen(rel);
	struct fc_ent *e;
	uint32_t h;
	int fd;

	/* "" is the root: a directory, never cached. */
	if (!len || len > FCACHE_KEY_MAX) {
		COUNT(fc, uncached, STAT_FC_UNCACHED, 1);
		return path_open_file(root_fd, rel, st);
	}
	h = key_hash(rel, len, root_fd);
	e = lookup(fc, h, rel, len, root_fd, false);
	if (e && still_valid(e, root_fd, rel)) {
		COUNT(fc, hits, STAT_FC_HITS, 1);
		e->users++;
		e->hot = true;
		*st = e->st;
		return e->fd;
	}
	if (e) {
		COUNT(fc, stale, STAT_FC_STALE, 1);
		drop(fc, e);
	} else {
		COUNT(fc, misses, STAT_FC_MISSES, 1);
	}
	fd = path_open_file(root_fd, rel, st);
	if ((fd == -EMFILE || fd == -ENFILE) && shrink(fc))
		fd = path_open_file(root_fd, rel, st);
	if (fd < 0)
		return fd;
	if (!S_ISREG(st->st_mode)) {
		COUNT(fc, uncached, STAT_FC_UNCACHED, 1);
		return fd;
	}
	insert_file(fc, h, rel, len, root_fd, fd, st);
	return fd;
}

int fcache_get(struct fcache *fc, int root_fd, const char *rel,
	       struct stat *st)
{
	if (!fc)
		return path_open_file(root_fd, rel, st);
	fc->epoch++;
	return get(fc, root_fd, rel, st);
}

/* The stamps of @rel's directory ("" for the root itself): 0 or -1. */
static int dir_stamp(int root_fd, const char *rel, size_t len,
		     struct dir_stamp *ds)
{
	const unsigned int need = STATX_INO | STATX_MTIME | STATX_CTIME;
	char dir[FCACHE_KEY_MAX + 1];
	const char *slash = memrchr(rel, '/', len);
	struct statx sx;
	int r;

	if (slash) {
		memcpy(dir, rel, (size_t)(slash - rel));
		dir[slash - rel] = '\0';
		r = statx(root_fd, dir, 0, need, &sx);
	} else {
		r = statx(root_fd, "", AT_EMPTY_PATH, need, &sx);
	}
	if (r || (sx.stx_mask & need) != need)
		return -1;
	ds->ino = sx.stx_ino;
	ds->dev_major = sx.stx_dev_major;
	ds->dev_minor = sx.stx_dev_minor;
	ds->mtime = sx.stx_mtime;
	ds->ctime = sx.stx_ctime;
	return 0;
}

static bool same_stamp(const struct dir_stamp *a, const struct dir_stamp *b)
{
	return a->ino == b->ino && a->dev_major == b->dev_major &&
	       a->dev_minor == b->dev_minor &&
	       a->mtime.tv_sec == b->mtime.tv_sec &&
	       a->mtime.tv_nsec == b->mtime.tv_nsec &&
	       a->ctime.tv_sec == b->ctime.tv_sec &&
	       a->ctime.tv_nsec == b->ctime.tv_nsec;
}

static time_t mono_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return ts.tv_sec;
}

/* Both stamps NEG_SETTLE_S old: a later change cannot share them. */
static bool settled(const struct dir_stamp *ds)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME_COARSE, &now);
	/*
	 * File times come from this coarse clock: a stamp of second S was
	 * made before S + 1, so a change from now on gets a later one even
	 * on a file system that keeps seconds only.
	 */
	return ds->mtime.tv_sec + NEG_SETTLE_S <= now.tv_sec &&
	       ds->ctime.tv_sec + NEG_SETTLE_S <= now.tv_sec;
}

int fcache_get_variant(struct fcache *fc, int root_fd, const char *rel,
		       const char *suffix, unsigned int idx, struct stat *st)
{
	char name[FCACHE_KEY_MAX + 1];
	size_t len = strlen(rel), slen = strlen(suffix);
	struct dir_stamp ds;
	struct fc_ent *e;
	bool have_ds = false;
	uint32_t h;
	int fd;

	if (len + slen > FCACHE_KEY_MAX || !len || idx >= 8) {
		char *p = malloc(len + slen + 1);

		if (!p)
			return -ENOMEM;
		memcpy(p, rel, len);
		memcpy(p + len, suffix, slen + 1);
		fd = fc ? get(fc, root_fd, p, st) :
			  path_open_file(root_fd, p, st);
		free(p);
		return fd;
	}
	memcpy(name, rel, len);
	memcpy(name + len, suffix, slen + 1);
	if (!fc)
		return path_open_file(root_fd, name, st);

	h = key_hash(rel, len, root_fd);
	e = lookup(fc, h, rel, len, root_fd, true);
	if (e && e->n.checked != fc->epoch) {
		/* Once per file asked for: the directory's statx. */
		bool ok = mono_s() - e->n.born <= NEG_TTL_S;

		if (ok) {
			/* Fresh stamps, taken before any open below. */
			have_ds = !dir_stamp(root_fd, rel, len, &ds);
			ok = have_ds && same_stamp(&ds, &e->n.dir);
		}
		if (!ok) {
			COUNT(fc, neg_stale, STAT_FC_NEG_STALE, 1);
			drop(fc, e);
			e = NULL;
		} else {
			e->n.checked = fc->epoch;
		}
	}
	if (e && (e->n.absent & (1u << idx))) {
		COUNT(fc, neg_hits, STAT_FC_NEG_HITS, 1);
		e->hot = true;
		return -ENOENT;
	}
	if (e) {
		ds = e->n.dir;		/* checked in this epoch */
		have_ds = true;
	} else if (!have_ds) {
		have_ds = !dir_stamp(root_fd, rel, len, &ds);
	}
	fd = get(fc, root_fd, name, st);
	if (fd != -ENOENT || !have_ds || !settled(&ds))
		return fd;
	if (!e) {
		e = insert(fc, h, rel, len, root_fd);
		if (!e)
			return fd;
		e->neg = true;
		e->n.dir = ds;
		e->n.checked = fc->epoch;
		e->n.born = mono_s();
	}
	e->n.absent |= 1u << idx;
	COUNT(fc, neg_stored, STAT_FC_NEG_STORED, 1);
	return fd;
}

void fcache_put(struct fcache *fc, int fd)
{
	struct fc_ent *e;

	if (fd < 0)
		return;
	if (fc) {
		for (e = fc->by_fd[fd_bucket(fc, fd)]; e; e = e->fd_next)
			if (e->fd == fd)
				break;
		if (e) {
			/* A put without its get: a bug, but never a close. */
			if (!e->users)
				return;
			if (--e->users == 0 && e->slot == SLOT_ORPHAN) {
				fc->st.orphans--;
				if (fc->sink)
					stats_add(fc->sink, STAT_FC_ORPHANS,
						  -1);
				destroy(fc, e);
			}
			return;
		}
	}
	close(fd);
}

void fcache_get_stats(const struct fcache *fc, struct fcache_stats *out)
{
	memset(out, 0, sizeof(*out));
	if (!fc)
		return;
	*out = fc->st;
	out->entries = fc->n;
}

void fcache_flush(struct fcache *fc)
{
	if (!fc)
		return;
	while (fc->n)
		drop(fc, fc->slot[fc->n - 1]);
}
