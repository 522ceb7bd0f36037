// SPDX-License-Identifier: GPL-2.0
/*
 * cond.c - the entity tag and the conditional request fields (RFC 9110
 * 8.8, 13.1, 13.2).  tlsxd serves a file as it is, so its only validators
 * are a strong entity tag and the modification time; a field that does
 * not parse is ignored, as if the client had not sent it (13.1.3, 13.1.4
 * for dates; a list of entity tags that does not parse likewise).
 */
#include <stdio.h>
#include <string.h>

#include "cond.h"
#include "httpdate.h"

void etag_make(const struct stat *st, char *out)
{
	unsigned long long mt;

	/* Nanoseconds make two writes within a second two tags. */
	mt = (unsigned long long)st->st_mtim.tv_sec * 1000000000ULL +
	     (unsigned long long)st->st_mtim.tv_nsec;
	snprintf(out, ETAG_MAX, "\"%llx-%llx-%llx\"",
		 (unsigned long long)st->st_ino,
		 (unsigned long long)st->st_size, mt);
}

/*
 * entity-tag = [ "W/" ] DQUOTE *etagc DQUOTE, etagc = %x21 / %x23-7E /
 * obs-text (8.8.3; "W/" is case-sensitive).  Sets *@weak and the
 * opaque-tag (quotes included) in *@opaque.
 */
static bool parse_etag(struct http_str s, bool *weak, struct http_str *opaque)
{
	uint32_t i;

	*weak = s.len >= 2 && s.p[0] == 'W' && s.p[1] == '/';
	if (*weak) {
		s.p += 2;
		s.len -= 2;
	}
	if (s.len < 2 || s.p[0] != '"' || s.p[s.len - 1] != '"')
		return false;
	for (i = 1; i < s.len - 1; i++) {
		unsigned char c = s.p[i];

		if (c <= 0x20 || c == '"' || c == 0x7f)
			return false;
	}
	*opaque = s;
	return true;
}

enum list_match {
	LIST_ABSENT,	/* no field, or one that does not parse */
	LIST_NO_MATCH,
	LIST_MATCH,
};

/*
 * Does any member of @l ("*" or entity tags, in every occurrence of the
 * field) match our strong tag @etag?  Strong comparison (8.8.3.2) needs
 * both tags strong; weak comparison only equal opaque-tags.  "*" matches
 * any current representation, and one exists (13.1.1, 13.1.2).
 */
static enum list_match list_match(const struct http_list *l, const char *etag,
				  bool strong)
{
	struct http_str e, opaque;
	size_t etag_len = strlen(etag);
	bool match = false, any = false, weak;
	unsigned int i;

	for (i = 0; i < l->n; i++) {
		size_t pos = 0;

		while (http_list_next(l->v[i], &pos, &e)) {
			any = true;
			if (e.len == 1 && e.p[0] == '*') {
				match = true;
				continue;
			}
			if (!parse_etag(e, &weak, &opaque))
				return LIST_ABSENT;
			if (strong && weak)
				continue;
			if (opaque.len == etag_len &&
			    !memcmp(opaque.p, etag, etag_len))
				match = true;
		}
	}
	if (!any)	/* 1#entity-tag: at least one member */
		return LIST_ABSENT;
	return match ? LIST_MATCH : LIST_NO_MATCH;
}

static bool field_date(struct http_str f, time_t *t)
{
	return f.p && httpdate_parse(f.p, f.len, t);
}

enum cond_result cond_evaluate(const struct http_req *req, const char *etag,
			       time_t mtime, time_t now)
{
	bool get_head = req->method == HTTP_M_GET ||
			req->method == HTTP_M_HEAD;
	enum list_match m;
	time_t date;

	/* 13.2.2 step 1: If-Match, strong comparison (13.1.1). */
	m = list_match(&req->if_match, etag, true);
	if (m == LIST_NO_MATCH)
		return COND_PRECONDITION_FAILED;
	/* Step 2: If-Unmodified-Since only without If-Match (13.1.4). */
	if (m == LIST_ABSENT && field_date(req->if_unmodified_since, &date) &&
	    mtime > date)
		return COND_PRECONDITION_FAILED;
	/*
	 * Step 3: If-None-Match, weak comparison (13.1.2): a match is 304
	 * for GET and HEAD, 412 for any other method.
	 */
	m = list_match(&req->if_none_match, etag, false);
	if (m == LIST_MATCH)
		return get_head ? COND_NOT_MODIFIED : COND_PRECONDITION_FAILED;
	/*
	 * Step 4: If-Modified-Since only without If-None-Match, for GET and
	 * HEAD, and a date later than ours is not a valid one (13.1.3).
	 */
	if (m == LIST_ABSENT && get_head &&
	    field_date(req->if_modified_since, &date) && date <= now &&
	    mtime <= date)
		return COND_NOT_MODIFIED;
	return COND_PROCEED;
}

bool cond_if_range(const struct http_req *req, const char *etag, time_t mtime,
		   time_t now)
{
	struct http_str v = req->if_range, opaque;
	time_t date;
	bool weak;

	if (!v.p)
		return true;
	/*
	 * 13.1.5: an entity tag starts with DQUOTE or "W/"; it must match
	 * strongly, so a weak one never does.  Anything that is neither a
	 * tag nor a date is a validator that does not match: the Range is
	 * ignored and the whole representation sent.
	 */
	if (v.len && (v.p[0] == '"' || v.p[0] == 'W')) {
		if (!parse_etag(v, &weak, &opaque) || weak)
			return false;
		return opaque.len == strlen(etag) &&
		       !memcmp(opaque.p, etag, opaque.len);
	}
	/*
	 * A date: only an exact match, and only when Last-Modified is a
	 * strong validator, at least a second older than Date (8.8.2.2).
	 */
	if (!httpdate_parse(v.p, v.len, &date))
		return false;
	return date == mtime && mtime < now;
}
