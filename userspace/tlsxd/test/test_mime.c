// SPDX-License-Identifier: GPL-2.0
/*
 * test_mime.c - media types (mime.c): Debian's /etc/mime.types (the
 * media-types package) loaded and looked up; a missing file gives the
 * built-in table alone, with a warning; a file of our own wins over the
 * built-in types, its first line for an extension wins, its malformed
 * lines are skipped; charset=utf-8 on text types only; names without an
 * extension, hidden names, paths and case.  A case is a line of a
 * table (a FIXTURE_VARIANT): the file loaded and the lookups it gives.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "tlsxd/mime.h"

static const char *const web[][2] = {
	{ "a.html", "text/html; charset=utf-8" },
	{ "a.css", "text/css; charset=utf-8" },
	{ "a.js", "text/javascript; charset=utf-8" },
	{ "a.mjs", "text/javascript; charset=utf-8" },
	{ "a.json", "application/json; charset=utf-8" },
	{ "a.txt", "text/plain; charset=utf-8" },
	{ "a.md", "text/markdown; charset=utf-8" },
	{ "a.xml", "application/xml; charset=utf-8" },
	{ "a.svg", "image/svg+xml; charset=utf-8" },
	{ "a.png", "image/png" }, { "a.jpg", "image/jpeg" },
	{ "a.jpeg", "image/jpeg" }, { "a.gif", "image/gif" },
	{ "a.webp", "image/webp" }, { "a.avif", "image/avif" },
	{ "a.ico", "image/vnd.microsoft.icon" }, { "a.woff", "font/woff" },
	{ "a.woff2", "font/woff2" }, { "a.ttf", "font/ttf" },
	{ "a.otf", "font/otf" }, { "a.pdf", "application/pdf" },
	{ "a.wasm", "application/wasm" }, { "a.mp4", "video/mp4" },
	{ "a.webm", "video/webm" }, { "a.mp3", "audio/mpeg" },
	{ "a.ogg", "audio/ogg" }, { "a.zip", "application/zip" },
	{ "a.gz", "application/gzip" }, { "a.tar", "application/x-tar" },
};

static void check_web(struct __test_metadata *_metadata,
		      const struct mime_table *t)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(web); i++) {
		const char *name = web[i][0], *want = web[i][1];

		EXPECT_STREQ(want, mime_lookup(t, name)) TH_LOG("%s", name);
	}
}

/* A file of @text in a temporary directory; its path in @path. */
static void write_file(struct __test_metadata *_metadata, char *path,
		       const char *text)
{
	FILE *f;

	snprintf(path, 64, "/tmp/test_mime.XXXXXX");
	ASSERT_LE(0, close(mkstemp(path)));
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs(text, f);
	fclose(f);
}

/* A 70 KB line, and thousands of extensions (the table grows). */
TEST(long_line_and_many_extensions)
{
	static char big[70000];
	struct mime_table *t;
	char path[64];
	size_t i;
	FILE *f;

	memset(big, 'x', sizeof(big) - 1);
	snprintf(path, sizeof(path), "/tmp/test_mime.XXXXXX");
	ASSERT_LE(0, close(mkstemp(path)));
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "text/x-big %s\n", big);
	for (i = 0; i < 5000; i++)
		fprintf(f, "application/x-n%zu e%zu\n", i, i);
	fclose(f);
	t = mime_load(path, NULL);
	unlink(path);
	ASSERT_NE(NULL, t);
	ASSERT_LT(5000, mime_count(t));
	for (i = 0; i < 5000; i += 7) {
		char name[32], want[32];

		snprintf(name, sizeof(name), "f.E%zu", i);
		snprintf(want, sizeof(want), "application/x-n%zu", i);
		ASSERT_STREQ(want, mime_lookup(t, name));
	}
	mime_free(t);
}

#define LOOKUPS_MAX	12
#define OCTET		"application/octet-stream"

FIXTURE(mime) {
	struct mime_table *t;
	char path[64];
};

FIXTURE_VARIANT(mime) {
	const char *file;	/* mime_load()'s path; NULL: the system's */
	const char *text;	/* else a temporary file of this text */
	bool no_warn_ptr;	/* mime_load() with warn NULL */
	bool warns;		/* of the built-in table filling in */
	bool web;		/* the web types above resolve */
	size_t more_than, fewer_than;	/* mime_count(); 0: no bound */
	const char *lookups[LOOKUPS_MAX][2];	/* name, type; to a NULL */
};

/* Debian's /etc/mime.types (media-types): some 2000 extensions. */
FIXTURE_VARIANT_ADD(mime, system_file) {
	.web = true, .more_than = 1000,
	.lookups = {
		/* Only the file knows these. */
		{ "letter.odt", "application/vnd.oasis.opendocument.text" },
		{ "main.c", "text/x-csrc; charset=utf-8" },
		/* Case-insensitive, the last dot, the last path segment. */
		{ "INDEX.HTML", "text/html; charset=utf-8" },
		{ "x.tar.gz", "application/gzip" },
		{ "dir.d/sub/p.PnG", "image/png" },
		{ "dir.html/README", OCTET },
	},
};

/* No file: the built-in table alone, with a warning. */
FIXTURE_VARIANT_ADD(mime, missing_file_builtin_only) {
	.file = "/nonexistent/mime.types", .warns = true, .web = true,
	.more_than = ARRAY_SIZE(web) - 1, .fewer_than = 100,
	.lookups = { { "letter.odt", OCTET } },
};

/* A directory cannot be read: the same, and no crash. */
FIXTURE_VARIANT_ADD(mime, directory_builtin_only) {
	.file = "/", .warns = true, .web = true,
	.more_than = ARRAY_SIZE(web) - 1, .fewer_than = 100,
};

/* Names without an extension, hidden names; no warn pointer is fine. */
FIXTURE_VARIANT_ADD(mime, no_extension_default) {
	.file = "/nonexistent", .no_warn_ptr = true,
	.lookups = {
		{ "Makefile", OCTET }, { "a.", OCTET }, { ".html", OCTET },
		{ "a/.css", OCTET }, { ".x.css", "text/css; charset=utf-8" },
		{ "", OCTET }, { "a.unknown", OCTET },
		{ "a.htmlhtmlhtmlhtmlhtmlhtmlhtmlhtmlhtml", OCTET },
	},
};

/*
 * The file wins over the built-in html; its first line for an
 * extension wins; malformed lines are skipped; the built-in table fills
 * in the rest.
 */
FIXTURE_VARIANT_ADD(mime, own_file_wins_and_malformed_skipped) {
	.text = "# comment html\n"
		"\n"
		"application/x-test  HTML  foo # bar\n"
		"text/x-second foo baz\n"
		"notatype qqq\n"
		"/x rrr\n"
		"x/ sss\n"
		"a/b/c ttt\n"
		"a/b;c=d uuu\n"
		"text/x-nolf vvv\tWWW",
	.lookups = {
		{ "i.html", "application/x-test" },
		{ "i.foo", "application/x-test" },
		{ "i.baz", "text/x-second; charset=utf-8" },
		{ "i.bar", OCTET }, { "i.qqq", OCTET }, { "i.rrr", OCTET },
		{ "i.sss", OCTET }, { "i.ttt", OCTET }, { "i.uuu", OCTET },
		{ "i.www", "text/x-nolf; charset=utf-8" },
		{ "i.png", "image/png" },
	},
};

/* charset=utf-8 on text types only (text/, +json, +xml, javascript). */
FIXTURE_VARIANT_ADD(mime, charset_only_for_text) {
	.text = "text/foo a1\n"
		"application/ld+json a2\n"
		"application/atom+xml a3\n"
		"application/javascript a4\n"
		"application/octet-stream a5\n"
		"image/jpeg a6\n"
		"application/jsonx a7\n"
		"textual/plain a8\n",
	.lookups = {
		{ "x.a1", "text/foo; charset=utf-8" },
		{ "x.a2", "application/ld+json; charset=utf-8" },
		{ "x.a3", "application/atom+xml; charset=utf-8" },
		{ "x.a4", "application/javascript; charset=utf-8" },
		{ "x.a5", OCTET }, { "x.a6", "image/jpeg" },
		{ "x.a7", "application/jsonx" },
		{ "x.a8", "textual/plain" },
	},
};

FIXTURE_SETUP(mime)
{
	self->t = NULL;
	self->path[0] = '\0';
	if (variant->text)
		write_file(_metadata, self->path, variant->text);
}

FIXTURE_TEARDOWN(mime)
{
	mime_free(self->t);
	if (self->path[0])
		unlink(self->path);
}

TEST_F(mime, lookups)
{
	const char *file = variant->text ? self->path : variant->file;
	const char *warn = "unset";
	unsigned int i;

	if (!variant->text && !file && access("/etc/mime.types", R_OK))
		SKIP(return, "no /etc/mime.types (Debian's media-types)");
	self->t = mime_load(file, variant->no_warn_ptr ? NULL : &warn);
	ASSERT_NE(NULL, self->t);
	if (!variant->no_warn_ptr && variant->warns) {
		ASSERT_NE(NULL, warn);
		ASSERT_NE(NULL, strstr(warn, "built-in"));
	} else if (!variant->no_warn_ptr) {
		ASSERT_EQ(NULL, warn);
	}
	if (variant->more_than)
		ASSERT_LT(variant->more_than, mime_count(self->t));
	if (variant->fewer_than)
		ASSERT_GT(variant->fewer_than, mime_count(self->t));
	if (variant->web)
		check_web(_metadata, self->t);
	for (i = 0; i < LOOKUPS_MAX && variant->lookups[i][0]; i++) {
		const char *name = variant->lookups[i][0];

		EXPECT_STREQ(variant->lookups[i][1],
			     mime_lookup(self->t, name)) TH_LOG("%s", name);
	}
}

TEST_HARNESS_MAIN
