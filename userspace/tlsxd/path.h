/* SPDX-License-Identifier: GPL-2.0 */
/*
 * path.h - a request-target made into a path beneath the document root,
 * and the file opened there.  Two independent fences: the normaliser
 * refuses every escape it can see, and openat2(RESOLVE_BENEATH) refuses
 * in the kernel whatever a symlink or a normaliser bug would reach.
 */
#ifndef TLSXD_PATH_H
#define TLSXD_PATH_H

#include <stdbool.h>
#include <stddef.h>

#define PATH_MAX_OUT	4096

struct path_result {
	size_t len;		/* of the NUL-terminated path in @out */
	bool trailing_slash;	/* the decoded path ended in '/' */
	bool hidden;		/* a segment starts with '.' */
};

/*
 * @target (@len bytes, the raw request-target) -> @out: a relative path,
 * "" for the root itself, else segments joined by single '/', no leading
 * or trailing '/', no "." or ".." or empty segment, NUL-terminated.
 * Rules, in this order:
 *  - absolute-form ("http://host/p" or "https://..."; RFC 9112 3.2.2):
 *    the path part; origin-form must start with '/'; anything else 400;
 *  - the query ('?') is dropped; a '#' is 400 (clients never send one);
 *  - percent-decoding exactly once (RFC 3986 2.1): a bad escape, %00 (or
 *    a raw NUL), %2F/%2f (an encoded '/': it would change the segments)
 *    and '\' (raw or %5C) are 400;
 *  - the decoded bytes must be valid UTF-8 (RFC 3629): overlong forms,
 *    surrogates and code points over U+10FFFF are 400; control
 *    characters (< 0x20, 0x7f) are 400;
 *  - dot-segments removed (RFC 3986 5.2.4) and empty segments ("//")
 *    collapsed; a ".." above the root is 400 (not clamped: a client that
 *    tries is not served);
 *  - the result longer than @cap - 1 is 414 (a @cap above PATH_MAX_OUT
 *    counts as PATH_MAX_OUT; a segment a later ".." removes need not
 *    fit).
 * Raw whitespace, control characters and NUL anywhere in @target (the
 * query too) are 400 (RFC 9112 3.2).
 * @res->trailing_slash is read after RFC 3986 5.2.4: "/", "/a/", "/a/."
 * and "/a/b/.." end in '/', "/a" does not.
 * Returns 0 or minus the status (400, 414).
 */
int path_normalize(const char *target, size_t len, char *out, size_t cap,
		   struct path_result *res);

/*
 * Opens @rel (a path_normalize() result; "" means the root itself)
 * beneath @root_fd with openat2(2) RESOLVE_BENEATH |
 * RESOLVE_NO_MAGICLINKS, O_RDONLY | O_CLOEXEC | O_NOFOLLOW-free (symlinks
 * inside the root are followed; leaving it is refused by the kernel),
 * plus @flags (O_DIRECTORY, O_PATH, O_NONBLOCK).  Returns the fd or
 * -errno (-ENOENT, -EXDEV for an escape, -ELOOP, -EACCES, -ENOSYS when
 * the kernel lacks openat2: then the caller refuses to start).
 */
int path_open_beneath(int root_fd, const char *rel, int flags);

/*
 * What a file server wants from path_open_beneath(): @rel opened (never
 * blocking: a FIFO opened without O_NONBLOCK would wait for a writer),
 * @st filled, and only a regular file (O_NONBLOCK cleared again, since
 * io_uring may honour it on the file) or a directory returned.  Returns
 * the fd, or path_open_beneath()'s -errno, or -EACCES for anything else
 * (FIFO, device, socket).
 */
struct stat;
int path_open_file(int root_fd, const char *rel, struct stat *st);

#endif
