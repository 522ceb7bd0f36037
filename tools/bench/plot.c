// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - --plot FILE.svg (or FILE.png): the run's figure, drawn by
 * gnuplot from a script written beside it (FILE.gp) that holds its data
 * inline, so the figure can be drawn again, or changed, from that one
 * file (`cd DIR && gnuplot FILE.gp`; its output is named relative to
 * its own directory).
 *
 * Two kinds of panel, in a grid of a given number of columns:
 *   lines: a sweep, x the record size (log2 axis), one line per
 *          implementation on the left axis (the anchor, OpenSSL or the
 *          kernel's tls, black), the ratios dashed on the right one (log
 *          scale: a generic fallback is 50 times slower);
 *   bars:  one bar per implementation with its min-max.
 * A subcommand adds points as it measures them and bench_plot_write()
 * draws them at the end.  Where there is no gnuplot (the VM's busybox
 * root), the script is kept and the figure left for the host to draw.
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"

#define PLOT_PANELS	64
#define PLOT_SERIES	16
#define PLOT_POINTS	24
#define PLOT_NAME	64

struct plot_point {
	double x, y, lo, hi;
};

struct plot_series {
	char name[PLOT_NAME];
	int axis;			/* 1: left, 2: right (ratios) */
	int n;
	struct plot_point pt[PLOT_POINTS];
};

struct plot_panel {
	char title[PLOT_NAME];
	bool bars;
	int n;
	struct plot_series s[PLOT_SERIES];
};

struct bench_plot {
	char *path;
	char title[160];
	char xlabel[PLOT_NAME], ylabel[PLOT_NAME], y2label[PLOT_NAME];
	int cols;
	int n;
	bool full;			/* a point did not fit: said once */
	struct plot_panel p[PLOT_PANELS];
};

struct bench_plot *bench_plot_new(const char *path)
{
	const char *dot = strrchr(path, '.');
	struct bench_plot *p;

	if (!dot || (strcmp(dot, ".svg") && strcmp(dot, ".png"))) {
		fprintf(stderr, "tlsx-bench: --plot %s: the name must end in .svg or .png\n",
			path);
		return NULL;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->path = strdup(path);
	p->cols = 1;
	if (!p->path) {
		free(p);
		return NULL;
	}
	return p;
}

void bench_plot_free(struct bench_plot *p)
{
	if (!p)
		return;
	free(p->path);
	free(p);
}

void bench_plot_labels(struct bench_plot *p, const char *title,
		       const char *xlabel, const char *ylabel,
		       const char *y2label, int cols)
{
	snprintf(p->title, sizeof(p->title), "%s", title);
	snprintf(p->xlabel, sizeof(p->xlabel), "%s", xlabel);
	snprintf(p->ylabel, sizeof(p->ylabel), "%s", ylabel);
	snprintf(p->y2label, sizeof(p->y2label), "%s", y2label);
	p->cols = cols > 0 ? cols : 1;
}

static struct plot_series *series_get(struct bench_plot *p,
				      const char *panel, bool bars,
				      const char *series, int axis)
{
	struct plot_panel *pa = NULL;
	struct plot_series *s;
	int i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->p[i].title, panel))
			pa = &p->p[i];
	if (!pa) {
		if (p->n == PLOT_PANELS)
			return NULL;
		pa = &p->p[p->n++];
		snprintf(pa->title, sizeof(pa->title), "%s", panel);
		pa->bars = bars;
	}
	for (i = 0; i < pa->n; i++)
		if (!strcmp(pa->s[i].name, series))
			return &pa->s[i];
	if (pa->n == PLOT_SERIES)
		return NULL;
	s = &pa->s[pa->n++];
	snprintf(s->name, sizeof(s->name), "%s", series);
	s->axis = axis;
	return s;
}

static void add(struct bench_plot *p, const char *panel, bool bars,
		const char *series, int axis, struct plot_point pt)
{
	struct plot_series *s;

	if (!p)
		return;
	s = series_get(p, panel, bars, series, axis);
	/* An anchor measured beside each implementation: its first. */
	if (s && axis == BENCH_PLOT_ANCHOR && s->n &&
	    s->pt[s->n - 1].x == pt.x)
		return;
	if (!s || s->n == PLOT_POINTS) {
		if (!p->full)
			fprintf(stderr, "tlsx-bench: the plot holds %d panels of %d lines of %d points: '%s' '%s' left out\n",
				PLOT_PANELS, PLOT_SERIES, PLOT_POINTS, panel,
				series);
		p->full = true;
		return;
	}
	s->pt[s->n++] = pt;
}

void bench_plot_point(struct bench_plot *p, const char *panel,
		      const char *series, int axis, double x, double y)
{
	add(p, panel, false, series, axis,
	    (struct plot_point){ x, y, y, y });
}

void bench_plot_bar(struct bench_plot *p, const char *panel,
		    const char *series, double y, double lo, double hi)
{
	add(p, panel, true, series, 1, (struct plot_point){ 0, y, lo, hi });
}

/* A gnuplot string: single quotes, a quote doubled. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* "64", "1K", "16K": the sizes the sweep measured, as x tics. */
static void gp_xtics(FILE *f, const struct plot_panel *pa)
{
	double seen[PLOT_POINTS * PLOT_SERIES];
	int ns = 0, i, j, k;

	for (i = 0; i < pa->n; i++)
		for (j = 0; j < pa->s[i].n; j++) {
			double x = pa->s[i].pt[j].x;

			for (k = 0; k < ns && seen[k] != x; k++)
				;
			if (k == ns)
				seen[ns++] = x;
		}
	fputs("set xtics (", f);
	for (k = 0; k < ns; k++) {
		double x = seen[k];

		if (x >= 1024 && (unsigned long)x % 1024 == 0)
			fprintf(f, "%s\"%luK\" %g", k ? ", " : "",
				(unsigned long)x / 1024, x);
		else
			fprintf(f, "%s\"%g\" %g", k ? ", " : "", x, x);
	}
	fputs(")\n", f);
}

static void gp_data(FILE *f, const struct bench_plot *p)
{
	int i, j, k;

	for (i = 0; i < p->n; i++) {
		const struct plot_panel *pa = &p->p[i];

		if (pa->bars) {
			fprintf(f, "$p%d << EOD\n", i);
			for (j = 0; j < pa->n; j++)
				fprintf(f, "\"%s\" %g %g %g\n", pa->s[j].name,
					pa->s[j].pt[0].y, pa->s[j].pt[0].lo,
					pa->s[j].pt[0].hi);
			fputs("EOD\n", f);
			continue;
		}
		for (j = 0; j < pa->n; j++) {
			fprintf(f, "$p%ds%d << EOD\n", i, j);
			for (k = 0; k < pa->s[j].n; k++)
				fprintf(f, "%g %g\n", pa->s[j].pt[k].x,
					pa->s[j].pt[k].y);
			fputs("EOD\n", f);
		}
	}
}

/*
 * The colour of series @j: the left axis's lines count up; a ratio
 * "NAME/..." takes the colour of line NAME, dashed.
 */
static int series_color(const struct plot_panel *pa, int j)
{
	const char *name = pa->s[j].name;
	size_t len = strcspn(name, "/");
	int k, c = 0;

	if (pa->s[j].axis == BENCH_PLOT_ANCHOR)
		return -1;	/* black */
	for (k = 0; k < pa->n; k++) {
		if (pa->s[k].axis != 1)
			continue;
		c++;
		if (pa->s[j].axis == 1 ? k == j :
		    strlen(pa->s[k].name) == len &&
		    !strncmp(pa->s[k].name, name, len))
			return c;
	}
	return pa->n + j + 1;
}

/* The x range of a sweep panel and the range of its ratios. */
static void panel_range(const struct plot_panel *pa, double *xlo,
			double *xhi, double *rlo, double *rhi)
{
	int j, k;

	*xlo = *rlo = 1e300;
	*xhi = *rhi = 0;
	for (j = 0; j < pa->n; j++)
		for (k = 0; k < pa->s[j].n; k++) {
			const struct plot_point *pt = &pa->s[j].pt[k];

			*xlo = pt->x < *xlo ? pt->x : *xlo;
			*xhi = pt->x > *xhi ? pt->x : *xhi;
			if (pa->s[j].axis != 2 || !(pt->y > 0))
				continue;
			*rlo = pt->y < *rlo ? pt->y : *rlo;
			*rhi = pt->y > *rhi ? pt->y : *rhi;
		}
	if (!(*xlo > 0))
		*xlo = 1;
	if (*xhi < *xlo)
		*xhi = *xlo;
}

static void gp_panel(FILE *f, const struct bench_plot *p, int i)
{
	const struct plot_panel *pa = &p->p[i];
	double xlo, xhi, rlo, rhi;
	bool y2 = false;
	int j;

	fputs("set title ", f);
	gp_string(f, pa->title);
	fputc('\n', f);
	if (pa->bars) {
		fputs("unset logscale x\nunset logscale y2\nunset y2tics\nunset y2label\n"
		      "set xtics ()\nset ylabel ", f);
		gp_string(f, p->ylabel);
		fprintf(f, "\nunset xlabel\nset xrange [-0.6:%f]\n"
			"set yrange [0:*]\nset boxwidth 0.6\n"
			"set style fill solid 0.4\n", pa->n - 0.4);
		fprintf(f, "plot $p%d using 0:2:xtic(1) with boxes lc 1 notitle, \\\n"
			"     $p%d using 0:2:3:4 with yerrorbars lc 0 pt 0 notitle\n",
			i, i);
		return;
	}
	for (j = 0; j < pa->n; j++)
		y2 |= pa->s[j].axis == 2;
	panel_range(pa, &xlo, &xhi, &rlo, &rhi);
	/* A panel of one size (sendfile's) still gets an x axis. */
	fprintf(f, "set logscale x 2\nset xrange [%g:%g]\nset yrange [0:*]\n",
		xlo / 1.4, xhi * 1.4);
	gp_xtics(f, pa);
	fputs("set xlabel ", f);
	gp_string(f, p->xlabel);
	fputs("\nset ylabel ", f);
	gp_string(f, p->ylabel);
	fputc('\n', f);
	if (y2) {
		/*
		 * Ratios from 0.3 to 50 (a generic fallback) on one axis,
		 * at least 0.5 to 2: noise should not look like a trend.
		 */
		fprintf(f, "set ytics nomirror\n"
			"set y2tics (0.1, 0.25, 0.5, 1, 2, 4, 10, 25, 50, 100)\n"
			"set my2tics 1\nset logscale y2\nset y2range [%g:%g]\nset y2label ",
			rlo < 0.5 ? rlo / 1.2 : 0.5, rhi > 2 ? rhi * 1.2 : 2);
		gp_string(f, p->y2label);
		fputc('\n', f);
	} else {
		fputs("set ytics mirror\nunset logscale y2\nunset y2tics\nunset y2label\n", f);
	}
	fputs("plot ", f);
	for (j = 0; j < pa->n; j++) {
		const struct plot_series *s = &pa->s[j];

		/* A mark only where a line is one point (small SVGs). */
		fprintf(f, "%s$p%ds%d using 1:2 axes x1y%d with %s lc %d dt %d lw %d title ",
			j ? ", \\\n     " : "", i, j, s->axis == 2 ? 2 : 1,
			s->n == 1 ? "points pt 7 ps 0.5" : "lines",
			series_color(pa, j), s->axis == 2 ? 2 : 1,
			s->axis == BENCH_PLOT_ANCHOR ? 2 : 1);
		gp_string(f, s->name);
	}
	fputc('\n', f);
}

/* Run gnuplot on @script in @dir: 0, 1 if there is no gnuplot, -1. */
static int run_gnuplot(const char *dir, const char *script)
{
	pid_t pid;
	int st;

	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (chdir(dir))
			_exit(126);
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	if (WEXITSTATUS(st) == 127)
		return 1;
	return WEXITSTATUS(st) ? -1 : 0;
}

int bench_plot_write(struct bench_plot *p, const char *made_by)
{
	char *dir = strdup(p->path), *gp = malloc(strlen(p->path) + 4);
	const char *out = base_name(p->path);
	bool svg = !strcmp(strrchr(p->path, '.'), ".svg");
	int cols = p->cols < p->n ? p->cols : p->n;
	int rows = p->n ? (p->n + cols - 1) / cols : 0, i, ret = -1;
	char *slash;
	FILE *f;

	if (!dir || !gp)
		goto out;
	if (!p->n) {
		fprintf(stderr, "tlsx-bench: --plot %s: nothing was measured to draw\n",
			p->path);
		goto out;
	}
	/* FILE.svg -> FILE.gp; its directory, where gnuplot runs. */
	snprintf(gp, strlen(p->path) + 4, "%.*s.gp",
		 (int)(strrchr(p->path, '.') - p->path), p->path);
	slash = strrchr(dir, '/');
	if (slash)
		slash[slash == dir] = 0;
	else
		snprintf(dir, strlen(p->path) + 1, ".");
	f = fopen(gp, "w");
	if (!f) {
		perror(gp);
		goto out;
	}
	fputs("# gnuplot script written by tlsx-bench --plot;\n"
	      "# draw again with: gnuplot ", f);
	fprintf(f, "%s (in this directory)\n", base_name(gp));
	fprintf(f, "# %s\n", made_by);
	if (svg)
		fprintf(f, "set terminal svg size %d,%d font 'sans,9' linewidth 1\n",
			cols * 330, rows * 230 + 30);
	else
		fprintf(f, "set terminal png size %d,%d font 'sans,9'\n",
			cols * 330, rows * 230 + 30);
	fputs("set output ", f);
	gp_string(f, out);
	fputc('\n', f);
	gp_data(f, p);
	fputs("set key top left font ',7' samplen 2 spacing 0.8\n", f);
	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	gp_string(f, p->title);
	fputc('\n', f);
	for (i = 0; i < p->n; i++)
		gp_panel(f, p, i);
	fputs("unset multiplot\n", f);
	if (fclose(f)) {
		perror(gp);
		goto out;
	}
	ret = run_gnuplot(dir, base_name(gp));
	if (ret > 0) {
		fprintf(stderr, "tlsx-bench: no gnuplot here: %s kept, draw with `gnuplot %s` in its directory\n",
			gp, base_name(gp));
		ret = 0;
	} else if (ret < 0) {
		fprintf(stderr, "tlsx-bench: gnuplot %s failed\n", gp);
	}
out:
	free(dir);
	free(gp);
	return ret;
}
