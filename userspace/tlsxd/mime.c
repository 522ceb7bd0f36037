// SPDX-License-Identifier: GPL-2.0
/*
 * mime.c - extension -> media type.  /etc/mime.types (Debian's
 * media-types: "type extension..." lines, '#' comments) is read once at
 * start into an open-addressing hash table; then a built-in table fills
 * in the common web types the file lacks (all of them when it is
 * missing).  The file wins where both know an extension, and within the
 * file the first line naming an extension wins.
 *
 * Strings live in one arena and the table holds offsets into it, so the
 * arena can grow while loading; nothing changes after mime_load().
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mime.h"

#define MIME_EXT_MAX	31	/* longer "extensions" are not looked up */
#define MIME_TYPE_MAX	127	/* RFC 6838 4.2: 127 each side; enough */
#define MIME_DEFAULT	"application/octet-stream"
#define MIME_CHARSET	"; charset=utf-8"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct mime_slot {
	uint32_t ext;		/* arena offset of the extension; 0: empty */
	uint32_t type;		/* arena offset of the full type */
};

struct mime_table {
	struct mime_slot *slot;
	size_t mask;		/* slots - 1, a power of two less one */
	size_t n;
	char *arena;
	size_t arena_len, arena_cap;
};

/* What a browser needs right when /etc/mime.types is missing. */
static const char *const builtin[][2] = {
	{ "html", "text/html" }, { "htm", "text/html" },
	{ "css", "text/css" }, { "js", "text/javascript" },
	{ "mjs", "text/javascript" }, { "json", "application/json" },
	{ "map", "application/json" }, { "txt", "text/plain" },
	{ "md", "text/markdown" }, { "csv", "text/csv" },
	{ "xml", "application/xml" }, { "xhtml", "application/xhtml+xml" },
	{ "svg", "image/svg+xml" }, { "png", "image/png" },
	{ "jpg", "image/jpeg" }, { "jpeg", "image/jpeg" },
	{ "gif", "image/gif" }, { "webp", "image/webp" },
	{ "avif", "image/avif" }, { "ico", "image/vnd.microsoft.icon" },
	{ "bmp", "image/bmp" }, { "woff", "font/woff" },
	{ "woff2", "font/woff2" }, { "ttf", "font/ttf" },
	{ "otf", "font/otf" }, { "pdf", "application/pdf" },
	{ "wasm", "application/wasm" }, { "mp4", "video/mp4" },
	{ "webm", "video/webm" }, { "ogv", "video/ogg" },
	{ "mp3", "audio/mpeg" }, { "ogg", "audio/ogg" },
	{ "oga", "audio/ogg" }, { "opus", "audio/ogg" },
	{ "wav", "audio/wav" }, { "flac", "audio/flac" },
	{ "zip", "application/zip" }, { "gz", "application/gzip" },
	{ "tar", "application/x-tar" }, { "xz", "application/x-xz" },
	{ "zst", "application/zstd" }, { "bz2", "application/x-bzip2" },
};

/*
 * Types whose bodies are text get "charset=utf-8": every text/ type, and
 * the application types that are text by another name (JavaScript,
 * JSON, XML, and the +xml / +json structured suffixes of RFC 6839).
 */
static bool is_text(const char *type)
{
	static const char *const app[] = {
		"application/javascript", "application/ecmascript",
		"application/json", "application/xml",
	};
	size_t len = strlen(type), i;

	if (!strncmp(type, "text/", 5))
		return true;
	for (i = 0; i < ARRAY_SIZE(app); i++)
		if (!strcmp(type, app[i]))
			return true;
	return len > 4 && (!strcmp(type + len - 4, "+xml") ||
			   (len > 5 && !strcmp(type + len - 5, "+json")));
}

static uint64_t hash(const char *s, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h;
}

/* Appends @len bytes and a NUL; the offset, or 0 when out of memory. */
static uint32_t arena_add(struct mime_table *t, const char *s, size_t len,
			  const char *suffix)
{
	size_t slen = suffix ? strlen(suffix) : 0, need, off;

	need = t->arena_len + len + slen + 1;
	if (need > UINT32_MAX)
		return 0;
	if (need > t->arena_cap) {
		size_t cap = t->arena_cap ? t->arena_cap : 4096;
		char *a;

		while (cap < need)
			cap *= 2;
		a = realloc(t->arena, cap);
		if (!a)
			return 0;
		t->arena = a;
		t->arena_cap = cap;
	}
	off = t->arena_len;
	memcpy(t->arena + off, s, len);
	memcpy(t->arena + off + len, suffix ? suffix : "", slen);
	t->arena[off + len + slen] = '\0';
	t->arena_len = need;
	return off;
}

static struct mime_slot *find(const struct mime_table *t, const char *ext,
			      size_t len)
{
	size_t i = hash(ext, len) & t->mask;

	for (;; i = (i + 1) & t->mask) {
		struct mime_slot *s = &t->slot[i];

		if (!s->ext || (!strncmp(t->arena + s->ext, ext, len) &&
				t->arena[s->ext + len] == '\0'))
			return s;
	}
}

static bool grow(struct mime_table *t)
{
	size_t cap = (t->mask + 1) * 2, i;
	struct mime_slot *old = t->slot, *s;
	size_t old_cap = t->mask + 1;

	t->slot = calloc(cap, sizeof(*t->slot));
	if (!t->slot) {
		t->slot = old;
		return false;
	}
	t->mask = cap - 1;
	for (i = 0; i < old_cap; i++) {
		if (!old[i].ext)
			continue;
		s = find(t, t->arena + old[i].ext, strlen(t->arena + old[i].ext));
		*s = old[i];
	}
	free(old);
	return true;
}

/* @ext lowercased already.  -1 out of memory, 0 already known, 1 added. */
static int insert(struct mime_table *t, const char *ext, size_t len,
		  uint32_t type)
{
	struct mime_slot *s;
	uint32_t off;

	if ((t->n + 1) * 2 > t->mask + 1 && !grow(t))
		return -1;
	s = find(t, ext, len);
	if (s->ext)
		return 0;
	/* The arena may move: find the slot again after adding. */
	off = arena_add(t, ext, len, NULL);
	if (!off)
		return -1;
	s = find(t, t->arena + off, len);
	s->ext = off;
	s->type = type;
	t->n++;
	return 1;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f';
}

/* A token of @p: its start in *@tok, its length returned (0: none). */
static size_t token(char **p, char **tok)
{
	char *s = *p;
	size_t len = 0;

	while (*s && is_space(*s))
		s++;
	*tok = s;
	while (s[len] && !is_space(s[len]))
		len++;
	*p = s + len;
	return len;
}

/* type "/" subtype of visible ASCII: it goes into a header as it is. */
static bool valid_type(const char *s, size_t len)
{
	size_t i, slash = 0;

	if (!len || len > MIME_TYPE_MAX)
		return false;
	for (i = 0; i < len; i++) {
		if (s[i] <= 0x20 || s[i] >= 0x7f || s[i] == ';' ||
		    s[i] == ',' || s[i] == '"')
			return false;
		if (s[i] == '/') {
			if (slash || i == 0 || i == len - 1)
				return false;
			slash = i;
		}
	}
	return slash;
}

static uint32_t add_type(struct mime_table *t, const char *type, size_t len)
{
	char buf[MIME_TYPE_MAX + 1];

	memcpy(buf, type, len);
	buf[len] = '\0';
	return arena_add(t, type, len, is_text(buf) ? MIME_CHARSET : NULL);
}

/* One line of mime.types; false only when out of memory. */
static bool load_line(struct mime_table *t, char *line)
{
	char *p = line, *tok, *type_tok, *comment = strchr(line, '#');
	char ext[MIME_EXT_MAX];
	size_t len, type_len, i;
	uint32_t type = 0;

	if (comment)
		*comment = '\0';
	type_len = token(&p, &type_tok);
	if (!valid_type(type_tok, type_len))
		return true;	/* not a media type: the line is skipped */
	while ((len = token(&p, &tok)) != 0) {
		if (len > MIME_EXT_MAX)
			continue;
		for (i = 0; i < len; i++)
			ext[i] = tok[i] >= 'A' && tok[i] <= 'Z' ?
				 tok[i] - 'A' + 'a' : tok[i];
		if (!type) {
			type = add_type(t, type_tok, type_len);
			if (!type)
				return false;
		}
		if (insert(t, ext, len, type) < 0)
			return false;
	}
	return true;
}

/* false when out of memory; a missing file only sets *@warn. */
static bool load_file(struct mime_table *t, const char *path,
		      const char **warn)
{
	char *line = NULL;
	size_t cap = 0;
	bool ok = true;
	FILE *f;

	f = fopen(path, "re");
	if (!f) {
		if (warn)
			*warn = errno == ENOENT ?
				"mime types file missing: built-in types only" :
				"mime types file unreadable: built-in types only";
		return true;
	}
	while (ok && getline(&line, &cap, f) >= 0)
		ok = load_line(t, line);
	if (ok && ferror(f) && warn)
		*warn = "mime types file: read error: built-in types filled in";
	free(line);
	fclose(f);
	return ok;
}

struct mime_table *mime_load(const char *path, const char **warn)
{
	struct mime_table *t = calloc(1, sizeof(*t));
	size_t i;

	if (warn)
		*warn = NULL;
	if (!t)
		return NULL;
	t->mask = 255;
	t->slot = calloc(t->mask + 1, sizeof(*t->slot));
	/* Offset 0 is "empty slot": the arena starts with a spare NUL. */
	if (!t->slot || arena_add(t, "", 0, NULL) != 0 || !t->arena)
		goto oom;
	if (!load_file(t, path ? path : "/etc/mime.types", warn))
		goto oom;
	for (i = 0; i < ARRAY_SIZE(builtin); i++) {
		const char *ext = builtin[i][0];
		uint32_t type;

		if (find(t, ext, strlen(ext))->ext)
			continue;
		type = add_type(t, builtin[i][1], strlen(builtin[i][1]));
		if (!type || insert(t, ext, strlen(ext), type) < 0)
			goto oom;
	}
	return t;
oom:
	mime_free(t);
	return NULL;
}

void mime_free(struct mime_table *t)
{
	if (!t)
		return;
	free(t->slot);
	free(t->arena);
	free(t);
}

const char *mime_lookup(const struct mime_table *t, const char *name)
{
	const char *base = strrchr(name, '/'), *dot;
	char ext[MIME_EXT_MAX];
	struct mime_slot *s;
	size_t len, i;

	base = base ? base + 1 : name;
	dot = strrchr(base, '.');
	/* No dot, a trailing one, or only a leading one (".profile"). */
	if (!dot || dot == base || !dot[1])
		return MIME_DEFAULT;
	len = strlen(dot + 1);
	if (len > MIME_EXT_MAX)
		return MIME_DEFAULT;
	for (i = 0; i < len; i++)
		ext[i] = dot[1 + i] >= 'A' && dot[1 + i] <= 'Z' ?
			 dot[1 + i] - 'A' + 'a' : dot[1 + i];
	s = find(t, ext, len);
	return s->ext ? t->arena + s->type : MIME_DEFAULT;
}

size_t mime_count(const struct mime_table *t)
{
	return t->n;
}
