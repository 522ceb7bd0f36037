// SPDX-License-Identifier: GPL-2.0
/*
 * progress.c - a run's sign of life on stderr: row, round, elapsed and
 * the time left, estimated from the rounds done so far.  On a terminal
 * one line is redrawn in place (at most a few times a second); otherwise
 * (a log, the VM's console) plain lines, at most one per PLAIN_EVERY_NS
 * (and the last row's).  Nothing shows for a run shorter
 * than QUIET_NS, and nothing ever goes to stdout, where the table or the
 * CSV is.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#define QUIET_NS	(2 * 1000000000ull)
#define REDRAW_NS	(200 * 1000000ull)
#define PLAIN_EVERY_NS	(5 * 1000000000ull)

/* "1h02m", "3m05s" or "12s" */
static void fmt_duration(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 ? (unsigned long)(s + 0.5) : 0;

	if (t >= 3600)
		snprintf(buf, len, "%luh%02lum", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, len, "%lum%02lus", t / 60, t % 60);
	else
		snprintf(buf, len, "%lus", t);
}

void bench_progress_begin(struct bench_progress *p, const char *what,
			  unsigned long rows, unsigned long rounds)
{
	memset(p, 0, sizeof(*p));
	p->what = what;
	p->rows = rows ? rows : 1;
	p->rounds = rounds ? rounds : 1;
	p->tty = isatty(STDERR_FILENO);
	p->t0 = bench_now_ns();
	p->last = p->t0;
}

/*
 * The line: "crypto: row 3/40 aes-128-gcm seal 1024, round 5/15,
 * 0m12s elapsed, ~2m40s left".  The estimate assumes every round of
 * every row takes as long as the mean round so far.
 */
static void progress_line(const struct bench_progress *p, char *buf,
			  size_t len, uint64_t now)
{
	double el = (double)(now - p->t0) / 1e9;
	double done = (double)p->done_rounds;
	double total = (double)p->rows * (double)p->rounds;
	char e[24], l[24];

	fmt_duration(e, sizeof(e), el);
	if (done > 0)
		fmt_duration(l, sizeof(l), total > done ?
			     el / done * (total - done) : 0);
	else
		snprintf(l, sizeof(l), "?");
	snprintf(buf, len, "%s: row %lu/%lu %s, round %lu/%lu, %s elapsed, ~%s left",
		 p->what, p->row + 1, p->rows, p->label, p->round + 1,
		 p->rounds, e, l);
}

static void progress_show(struct bench_progress *p, bool row_done)
{
	uint64_t now = bench_now_ns();
	char line[256];

	if (now - p->t0 < QUIET_NS)
		return;
	if (p->tty) {
		if (!row_done && now - p->last < REDRAW_NS)
			return;
		progress_line(p, line, sizeof(line), now);
		/* Cut to the terminal's usual width: one line, redrawn. */
		fprintf(stderr, "\r\033[K%.*s", 100, line);
		p->shown = true;
	} else {
		/* A line a row, but not more than one in PLAIN_EVERY_NS. */
		if (now - p->last < PLAIN_EVERY_NS &&
		    !(row_done && p->row + 1 == p->rows))
			return;
		/* The last round's line said it already. */
		if (p->done_rounds == p->printed)
			return;
		progress_line(p, line, sizeof(line), now);
		fprintf(stderr, "%s\n", line);
		p->printed = p->done_rounds;
	}
	fflush(stderr);
	p->last = now;
}

void bench_progress_row(struct bench_progress *p, unsigned long row,
			const char *label)
{
	p->row = row < p->rows ? row : p->rows - 1;
	p->round = 0;
	snprintf(p->label, sizeof(p->label), "%s", label ? label : "");
	if (p->tty)
		progress_show(p, false);
}

void bench_progress_round(struct bench_progress *p, unsigned long round)
{
	p->round = round < p->rounds ? round : p->rounds - 1;
	p->done_rounds++;
	progress_show(p, false);
}

void bench_progress_row_done(struct bench_progress *p)
{
	progress_show(p, true);
}

void bench_progress_end(struct bench_progress *p)
{
	char e[24];

	if (!p->tty || !p->shown)
		return;
	fmt_duration(e, sizeof(e), (double)(bench_now_ns() - p->t0) / 1e9);
	fprintf(stderr, "\r\033[K%s: %lu rows in %s\n", p->what, p->rows, e);
	fflush(stderr);
}
