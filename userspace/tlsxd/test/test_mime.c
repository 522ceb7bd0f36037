// SPDX-License-Identifier: GPL-2.0
/*
 * test_mime.c - media types (mime.c): Debian's /etc/mime.types (the
 * media-types package) loaded and looked up; a missing file gives the
 * built-in table alone, with a warning; a file of our own wins over the
 * built-in types, its first line for an extension wins, its malformed
 * lines are skipped; charset=utf-8 on text types only; names without an
 * extension, hidden names, paths and case.
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

TEST(system_file)
{
	const char *warn = "unset";
	struct mime_table *t;

	if (access("/etc/mime.types", R_OK))
		SKIP(return, "no /etc/mime.types (Debian's media-types)");
	t = mime_load(NULL, &warn);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(NULL, warn);
	/* media-types lists some 2000 extensions. */
	ASSERT_LT(1000, mime_count(t));
	check_web(_metadata, t);
	/* Only the file knows these. */
	EXPECT_STREQ("application/vnd.oasis.opendocument.text",
		     mime_lookup(t, "letter.odt"));
	EXPECT_STREQ("text/x-csrc; charset=utf-8", mime_lookup(t, "main.c"));
	/* Case-insensitive, the last dot, the last path segment. */
	EXPECT_STREQ("text/html; charset=utf-8", mime_lookup(t, "INDEX.HTML"));
	EXPECT_STREQ("application/gzip", mime_lookup(t, "x.tar.gz"));
	EXPECT_STREQ("image/png", mime_lookup(t, "dir.d/sub/p.PnG"));
	EXPECT_STREQ("application/octet-stream",
		     mime_lookup(t, "dir.html/README"));
	mime_free(t);
}

TEST(missing_file_builtin_only)
{
	const char *warn = NULL;
	struct mime_table *t;

	t = mime_load("/nonexistent/mime.types", &warn);
	ASSERT_NE(NULL, t);
	ASSERT_NE(NULL, warn);
	ASSERT_NE(NULL, strstr(warn, "built-in"));
	ASSERT_LT(ARRAY_SIZE(web) - 1, mime_count(t));
	ASSERT_GT(100, mime_count(t));
	check_web(_metadata, t);
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "letter.odt"));
	mime_free(t);
	/* A directory cannot be read: the same, and no crash. */
	t = mime_load("/", &warn);
	ASSERT_NE(NULL, t);
	check_web(_metadata, t);
	mime_free(t);
	/* No warn pointer is fine. */
	t = mime_load("/nonexistent/mime.types", NULL);
	ASSERT_NE(NULL, t);
	mime_free(t);
}

TEST(no_extension_default)
{
	struct mime_table *t = mime_load("/nonexistent", NULL);

	ASSERT_NE(NULL, t);
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "Makefile"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "a."));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, ".html"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "a/.css"));
	EXPECT_STREQ("text/css; charset=utf-8", mime_lookup(t, ".x.css"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, ""));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "a.unknown"));
	EXPECT_STREQ("application/octet-stream",
		     mime_lookup(t, "a.htmlhtmlhtmlhtmlhtmlhtmlhtmlhtmlhtml"));
	mime_free(t);
}

TEST(own_file_wins_and_malformed_skipped)
{
	char path[64], big[70000];
	struct mime_table *t;
	const char *warn;
	size_t i;

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	write_file(_metadata, path,
		   "# comment html\n"
		   "\n"
		   "application/x-test  HTML  foo # bar\n"
		   "text/x-second foo baz\n"
		   "notatype qqq\n"
		   "/x rrr\n"
		   "x/ sss\n"
		   "a/b/c ttt\n"
		   "a/b;c=d uuu\n"
		   "text/x-nolf vvv\tWWW");
	t = mime_load(path, &warn);
	ASSERT_NE(NULL, t);
	ASSERT_EQ(NULL, warn);
	/* The file wins over the built-in html; its first line wins. */
	EXPECT_STREQ("application/x-test", mime_lookup(t, "i.html"));
	EXPECT_STREQ("application/x-test", mime_lookup(t, "i.foo"));
	EXPECT_STREQ("text/x-second; charset=utf-8", mime_lookup(t, "i.baz"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "i.bar"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "i.qqq"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "i.rrr"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "i.sss"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "i.ttt"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "i.uuu"));
	EXPECT_STREQ("text/x-nolf; charset=utf-8", mime_lookup(t, "i.www"));
	/* The built-in table fills in the rest. */
	EXPECT_STREQ("image/png", mime_lookup(t, "i.png"));
	mime_free(t);
	unlink(path);

	/* A 70 KB line, and thousands of extensions (the table grows). */
	{
		FILE *f;

		snprintf(path, 64, "/tmp/test_mime.XXXXXX");
		ASSERT_LE(0, close(mkstemp(path)));
		f = fopen(path, "w");
		ASSERT_NE(NULL, f);
		fprintf(f, "text/x-big %s\n", big);
		for (i = 0; i < 5000; i++)
			fprintf(f, "application/x-n%zu e%zu\n", i, i);
		fclose(f);
	}
	t = mime_load(path, NULL);
	ASSERT_NE(NULL, t);
	ASSERT_LT(5000, mime_count(t));
	for (i = 0; i < 5000; i += 7) {
		char name[32], want[32];

		snprintf(name, sizeof(name), "f.E%zu", i);
		snprintf(want, sizeof(want), "application/x-n%zu", i);
		ASSERT_STREQ(want, mime_lookup(t, name));
	}
	mime_free(t);
	unlink(path);
}

TEST(charset_only_for_text)
{
	char path[64];
	struct mime_table *t;

	write_file(_metadata, path,
		   "text/foo a1\n"
		   "application/ld+json a2\n"
		   "application/atom+xml a3\n"
		   "application/javascript a4\n"
		   "application/octet-stream a5\n"
		   "image/jpeg a6\n"
		   "application/jsonx a7\n"
		   "textual/plain a8\n");
	t = mime_load(path, NULL);
	ASSERT_NE(NULL, t);
	EXPECT_STREQ("text/foo; charset=utf-8", mime_lookup(t, "x.a1"));
	EXPECT_STREQ("application/ld+json; charset=utf-8",
		     mime_lookup(t, "x.a2"));
	EXPECT_STREQ("application/atom+xml; charset=utf-8",
		     mime_lookup(t, "x.a3"));
	EXPECT_STREQ("application/javascript; charset=utf-8",
		     mime_lookup(t, "x.a4"));
	EXPECT_STREQ("application/octet-stream", mime_lookup(t, "x.a5"));
	EXPECT_STREQ("image/jpeg", mime_lookup(t, "x.a6"));
	EXPECT_STREQ("application/jsonx", mime_lookup(t, "x.a7"));
	EXPECT_STREQ("textual/plain", mime_lookup(t, "x.a8"));
	mime_free(t);
	unlink(path);
}

TEST_HARNESS_MAIN
