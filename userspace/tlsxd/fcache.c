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
 * Layout: entries are malloc()ed, each on two hash chains (by key, and
 * by fd for fcache_put()) and in one slot of the clock.  A dropped entry
 * still in use ("orphan") leaves the key chain and the clock but stays
 * on the fd chain until its last put closes it.  Orphans are bounded by
 * the responses in flight, live entries by @cap.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "tlsxd/fcache.h"
#include "tlsxd/path.h"

#define SLOT_ORPHAN	UINT32_MAX
/* Entries closed to make room when openat2 hits the fd limit. */
#define SHRINK_MAX	32

struct fc_ent {
	struct fc_ent *key_next;
	struct fc_ent *fd_next;
	struct stat st;
	int fd;
	int root_fd;
	uint32_t hash;
	uint32_t slot;		/* in fc->slot[], or SLOT_ORPHAN */
	unsigned int users;	/* responses holding fd */
	bool hot;		/* used since the clock hand last passed */
	uint16_t len;
	char key[];		/* @len bytes and a NUL */
};

struct fcache {
	struct fc_ent **slot;	/* the live entries, [0, n) */
	unsigned int cap, n, hand;
	struct fc_ent **by_key, **by_fd;
	uint32_t mask;		/* of both bucket arrays */
	struct fcache_stats st;
};

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
	unlink_fd(fc, e);
	close(e->fd);
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
	if (fc->hand >= fc->n)
		fc->hand = 0;
	e->slot = SLOT_ORPHAN;
	if (e->users) {
		fc->st.orphans++;
		return;
	}
	destroy(fc, e);
}

static struct fc_ent *lookup(struct fcache *fc, uint32_t h, const char *rel,
			     size_t len, int root_fd)
{
	struct fc_ent *e;

	for (e = fc->by_key[h & fc->mask]; e; e = e->key_next)
		if (e->hash == h && e->len == len && e->root_fd == root_fd &&
		    !memcmp(e->key, rel, len))
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
	fc->st.evictions++;
	drop(fc, fc->slot[fc->hand]);
}

/* Out of descriptors: close some unused entries.  How many were. */
static unsigned int shrink(struct fcache *fc)
{
	unsigned int i = 0, done = 0;

	while (i < fc->n && done < SHRINK_MAX) {
		struct fc_ent *e = fc->slot[i];

		if (e->users) {
			i++;
			continue;
		}
		/* drop() moves the last entry into slot i: look again. */
		drop(fc, e);
		fc->st.evictions++;
		done++;
	}
	return done;
}

static void insert(struct fcache *fc, uint32_t h, const char *rel,
		   size_t len, int root_fd, int fd, const struct stat *st)
{
	struct fc_ent *e;
	uint32_t b;

	e = malloc(sizeof(*e) + len + 1);
	if (!e)
		return;		/* served uncached: put closes it */
	if (fc->n == fc->cap)
		evict_one(fc);
	memcpy(e->key, rel, len + 1);
	e->len = len;
	e->hash = h;
	e->root_fd = root_fd;
	e->fd = fd;
	e->st = *st;
	e->users = 1;
	e->hot = false;
	e->slot = fc->n;
	fc->slot[fc->n++] = e;
	e->key_next = fc->by_key[h & fc->mask];
	fc->by_key[h & fc->mask] = e;
	b = fd_bucket(fc, fd);
	e->fd_next = fc->by_fd[b];
	fc->by_fd[b] = e;
}

int fcache_get(struct fcache *fc, int root_fd, const char *rel,
	       struct stat *st)
{
	size_t len = strlen(rel);
	struct fc_ent *e;
	uint32_t h;
	int fd;

	if (!fc)
		return path_open_file(root_fd, rel, st);
	/* "" is the root: a directory, never cached. */
	if (!len || len > FCACHE_KEY_MAX) {
		fc->st.uncached++;
		return path_open_file(root_fd, rel, st);
	}
	h = key_hash(rel, len, root_fd);
	e = lookup(fc, h, rel, len, root_fd);
	if (e && still_valid(e, root_fd, rel)) {
		fc->st.hits++;
		e->users++;
		e->hot = true;
		*st = e->st;
		return e->fd;
	}
	if (e) {
		fc->st.stale++;
		drop(fc, e);
	} else {
		fc->st.misses++;
	}
	fd = path_open_file(root_fd, rel, st);
	if ((fd == -EMFILE || fd == -ENFILE) && shrink(fc))
		fd = path_open_file(root_fd, rel, st);
	if (fd < 0)
		return fd;
	if (!S_ISREG(st->st_mode)) {
		fc->st.uncached++;
		return fd;
	}
	insert(fc, h, rel, len, root_fd, fd, st);
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
