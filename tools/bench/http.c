// SPDX-License-Identifier: GPL-2.0
/*
 * http.c - "tlsx-bench http": tlsxd against nginx serving the same
 * static files over HTTPS (TLS 1.3, HTTP/1.1), driven by a third-party
 * load generator, h2load or wrk (http_load.c), for each row of rows[].
 * Issue #16's Benchmark section; the method is ../shared/notes/perf.md's.
 *
 * Both servers run for the whole benchmark, on two ports of 127.0.0.1,
 * with the same certificate, files, worker count and settings
 * (http_srv.c).  Every row measures them in --rounds rounds, one after the
 * other, who goes first alternating, so that the machine's drift touches
 * both alike; the ratio of a round is tlsxd's figure over nginx's (above
 * 1: tlsxd is better), and the median with its min and max is reported.
 *
 * - idle-conn-mem: the server's resident memory (RSS, /proc) per idle
 *   keep-alive connection: --idle-conns connections, each a full
 *   handshake and one GET of 1 KiB, held open (http_idle.c); measured
 *   once per server (a second round would reuse the first's freed
 *   memory), before the other rows.  Its ratio is nginx's over tlsxd's,
 *   so that above 1 is better there too;
 * - keepalive-1k, keepalive-64k: requests/s over --clients keep-alive
 *   connections for --duration seconds (h2load -D, after an untimed
 *   run of 1 s);
 * - new-conn-1k: connections/s, each a full handshake and one request:
 *   h2load -c K -n K (each client one connection, one request; h2load
 *   resumes a session only on a client's second connection, so none is
 *   resumed), repeated until --duration seconds of runs;
 * - bulk-64m: MB/s (10^6 bytes) of --bulk-requests GETs of a 64 MiB file
 *   on one connection, and the server's CPU time (utime + stime from
 *   /proc) per GB served (10^9 bytes).  The CSV gives GB per CPU second
 *   (row bulk-64m-gb-per-cpu-s) so that there too above 1 is better.
 *
 * For every load row also the server's CPU time (utime + stime of its
 * processes, /proc) over the run: its share of a CPU (is it the
 * bottleneck?) and requests per CPU second (bulk: GB), in the CSV as
 * ROW-req-per-cpu-s.  On a machine shared with other work a server gets
 * what the scheduler gives it; its CPU time per request is what it
 * costs, and drifts less.
 *
 * Every run is checked: no failed or errored request, every response
 * 2xx, and the bytes received match the file sizes; a run that fails
 * its checks is reported and not counted.
 *
 * The servers and the load generator share the machine's CPUs.  A
 * requests/s figure measures the server only when the server, not the
 * generator, is the bottleneck: so every load row also reports the
 * generator's CPU share and cost per request (wait4's rusage), and says
 * which side used a whole CPU.  --pin S:L runs the servers on CPUs S and
 * the generator on CPUs L, so that neither can take the other's CPU
 * (not the default: on the shared machine it lowered both shares, as a
 * pinned process cannot move off a CPU another tenant is using).  Where
 * the generator costs more per request than the server, no placement
 * makes the rate the server's: the row says so (docs/perf-http.md).
 * --server-cpu F caps each server at F CPUs (http_cap.c) and
 * --load-threads N gives the generator N threads: with F well below N,
 * the same cap for both servers, a row's rate is the capped server's.
 */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "http.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_ROUNDS	101

enum row_kind { ROW_IDLE, ROW_KEEPALIVE, ROW_NEWCONN, ROW_BULK };

struct hb_row {
	const char *name;
	enum row_kind kind;
	size_t file;		/* index in hb_files[] */
	enum hb_cert cert;	/* both servers' */
	const char *unit;
	double target;		/* issue #16's ratio, 0: none */
	bool h2;		/* HTTP/2 (issue #31): h2load without --h1 */
	unsigned int streams;	/* h2: h2load -m, streams per connection */
};

/*
 * The targets: memory per idle connection below nginx's; 1.5x
 * nginx's requests/s and new connections/s; bulk throughput at least
 * 1.0x with less CPU per GB.  The memory row comes first, while neither
 * server's allocator holds memory freed by the load of other rows.
 */
static const struct hb_row rows[] = {
	{ "idle-conn-mem", ROW_IDLE, 0, HB_CERT_P256, "B/conn", 1.0, false, 0 },
	{ "keepalive-1k", ROW_KEEPALIVE, 0, HB_CERT_P256, "req/s", 1.5, false, 0 },
	{ "keepalive-64k", ROW_KEEPALIVE, 1, HB_CERT_P256, "req/s", 1.5, false, 0 },
	{ "new-conn-1k", ROW_NEWCONN, 0, HB_CERT_P256, "conn/s", 1.5, false, 0 },
	{ "bulk-64m", ROW_BULK, 2, HB_CERT_P256, "MB/s", 1.0, false, 0 },
	/*
	 * Issue #31: the same over HTTP/2 against nginx's (its defaults),
	 * 1 KiB with 10 and 100 concurrent streams per connection.
	 */
	{ "h2-keepalive-1k-m10", ROW_KEEPALIVE, 0, HB_CERT_P256, "req/s", 1.5,
	  true, 10 },
	{ "h2-keepalive-1k-m100", ROW_KEEPALIVE, 0, HB_CERT_P256, "req/s",
	  1.5, true, 100 },
	{ "h2-keepalive-64k", ROW_KEEPALIVE, 1, HB_CERT_P256, "req/s", 1.5,
	  true, 10 },
	{ "h2-new-conn-1k", ROW_NEWCONN, 0, HB_CERT_P256, "conn/s", 1.5, true,
	  1 },
	{ "h2-bulk-64m", ROW_BULK, 2, HB_CERT_P256, "MB/s", 1.5, true, 1 },
	/*
	 * Not in the list: new connections with an RSA-2048
	 * certificate, where the server's half of a handshake (an RSA
	 * signature) costs more than the client's (an RSA verification),
	 * the reverse of P-256 (ECDSA: verifying costs 3x signing).  Last,
	 * as both servers restart with the other certificate.
	 */
	/*
	 * Issue #30: h2load (OpenSSL 3.0) cannot offer X25519MLKEM768, so
	 * these two use the libtlsx generator (http_tlsx_load.c): X25519
	 * against both servers, then tlsxd with X25519MLKEM768 against
	 * tlsxd with X25519 (nginx with OpenSSL 3.0 has no ML-KEM), so the
	 * hybrid's cost is a ratio of one run, alternating.
	 */
	{ "new-conn-1k-tlsx-x25519", ROW_NEWCONN, 0, HB_CERT_P256, "conn/s",
	  0, false, 0 },
	{ "new-conn-1k-x25519mlkem768", ROW_NEWCONN, 0, HB_CERT_P256,
	  "conn/s", 0, false, 0 },
	{ "new-conn-1k-rsa", ROW_NEWCONN, 0, HB_CERT_RSA2048, "conn/s", 1.5, false, 0 },
};

/*
 * The rows whose new connections come from http_tlsx_load.c offering
 * @groups (libtlsx names), not from h2load; with @twin the second side
 * is tlsxd again with the generator offering @twin, not nginx.
 */
static const struct {
	const char *row, *groups, *twin;
} tlsx_load_rows[] = {
	{ "new-conn-1k-tlsx-x25519", "x25519", NULL },
	{ "new-conn-1k-x25519mlkem768", "X25519MLKEM768", "x25519" },
};

static const char *row_groups(const struct hb_row *row, bool twin)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tlsx_load_rows); i++)
		if (!strcmp(row->name, tlsx_load_rows[i].row))
			return twin ? tlsx_load_rows[i].twin :
				      tlsx_load_rows[i].groups;
	return NULL;
}

/* One server's samples of one row. */
struct side {
	struct hb_server *srv;
	const char *label;		/* the server's name, or with groups */
	const char *groups;		/* http_tlsx_load.c's; NULL: h2load */
	double p50[MAX_ROUNDS], p99[MAX_ROUNDS];	/* its latencies, us */
	struct bench_stats l50, l99;
	size_t nd;
	double rate[MAX_ROUNDS];
	/* Requests (bulk: GB) per second of the server's CPU time. */
	double per_cpu[MAX_ROUNDS];
	double busy[MAX_ROUNDS];	/* server CPU s per second */
	double lbusy[MAX_ROUNDS];	/* load generator CPU s per second */
	double lcost[MAX_ROUNDS];	/* its CPU s per request (bulk: GB) */
	double thr[MAX_ROUNDS];		/* --server-cpu: periods throttled */
	double units;			/* the last run's requests or GB */
	double lcpu;			/* the last run's generator CPU s */
	struct bench_stats r, g, b, lb, lc, th;
	char why[HB_WHY_LEN];	/* the last failed run */
};

/* --json, --plot (out.c) and the progress line: one run per process. */
static struct bench_out http_out;
static struct bench_progress http_prog;

static char url_buf[2][512];

static const char *url(const struct hb_server *s, const struct hb_row *row)
{
	char *u = url_buf[s->kind];

	snprintf(u, sizeof(url_buf[0]), "https://127.0.0.1:%d/%s", s->port,
		 hb_files[row->file].name);
	return u;
}

static int check_run(const struct hb_load *l, unsigned long want,
		     unsigned long long lo, unsigned long long hi, char *why)
{
	/*
	 * In a timed run (@want 0), h2load's status and success counts may
	 * differ by the responses cut off at either end.
	 */
	if (l->failed || l->errored || l->timeout || !l->ok || l->non2xx ||
	    (want && (l->ok != want || l->status2xx != want))) {
		snprintf(why, HB_WHY_LEN,
			 "%lu done, %lu ok, %lu 2xx, %lu 3xx, %lu 4xx, %lu 5xx, %lu failed, %lu errored, %lu timeout",
			 l->done, l->ok, l->status2xx, l->status3xx,
			 l->status4xx, l->status5xx, l->failed, l->errored,
			 l->timeout);
		return -1;
	}
	if (l->data < lo || l->data > hi) {
		snprintf(why, HB_WHY_LEN,
			 "%llu body bytes for %lu responses (%llu-%llu expected)",
			 l->data, l->ok, lo, hi);
		return -1;
	}
	return 0;
}

static int run_keepalive(const struct hb_opts *o, const struct hb_row *row,
			 struct side *sd, double secs, bool keep)
{
	char d[32], m[16];
	const char *h2args[6] = { "-D", d, "-m", m, url(sd->srv, row), NULL };
	const char *wrkargs[4] = { "-d", d, url(sd->srv, row), NULL };
	unsigned long long size = hb_files[row->file].size;
	struct hb_load l;
	int bad;

	snprintf(m, sizeof(m), "%u", row->h2 ? row->streams : o->pipeline);
	if (o->ka_wrk && !row->h2) {
		/* wrk takes whole seconds (parse_opts rounds --duration). */
		snprintf(d, sizeof(d), "%.0fs", secs);
		bad = hb_wrk(o, o->clients, wrkargs, secs * 3 + 30, &l,
			     sd->why);
	} else {
		snprintf(d, sizeof(d), "%.0fms", secs * 1e3);
		bad = hb_h2load(o, o->clients, h2args, secs * 3 + 30, &l,
				sd->why);
	}
	if (bad)
		return -1;
	/*
	 * No warm-up (the run after the untimed one is warm): the server's
	 * CPU time then covers the requests counted.  Responses in flight
	 * when the run stops count their bytes but not themselves: only a
	 * lower bound holds.
	 */
	if (check_run(&l, 0, l.ok > o->clients ? (l.ok - o->clients) * size : 0,
		      ~0ull, sd->why))
		return -1;
	sd->units = (double)l.ok;
	sd->lcpu = l.cpu;
	if (keep)
		sd->rate[sd->nd++] = (double)l.ok / l.secs;
	return 0;
}

static int run_newconn(const struct hb_opts *o, const struct hb_row *row,
		       struct side *sd, double secs, bool keep)
{
	char c[16];
	const char *args[4] = { "-n", c, url(sd->srv, row), NULL };
	unsigned long long size = hb_files[row->file].size;
	unsigned long ok = 0;
	double t = 0, cpu = 0, p50 = 0, p99 = 0;
	int i;

	snprintf(c, sizeof(c), "%u", o->conn_batch);
	for (i = 0; i < 1000 && t < secs; i++) {
		struct hb_load l;
		struct hb_lat lat;

		if (sd->groups) {
			if (hb_tlsx_newconn(o, sd->srv->port,
					    hb_files[row->file].name, size,
					    sd->groups, o->conn_batch, &l,
					    &lat, sd->why))
				return -1;
			p50 += lat.p50_us;
			p99 += lat.p99_us;
		} else if (hb_h2load(o, o->conn_batch, args, 60, &l,
				     sd->why)) {
			return -1;
		}
		if (check_run(&l, o->conn_batch, o->conn_batch * size,
			      o->conn_batch * size, sd->why))
			return -1;
		ok += l.ok;
		t += l.secs;
		cpu += l.cpu;
	}
	sd->units = (double)ok;
	sd->lcpu = cpu;
	if (keep && sd->groups) {
		/* The mean over the runs of each run's percentile. */
		sd->p50[sd->nd] = p50 / i;
		sd->p99[sd->nd] = p99 / i;
	}
	if (keep)
		sd->rate[sd->nd++] = (double)ok / t;
	return 0;
}

static int run_bulk(const struct hb_opts *o, const struct hb_row *row,
		    struct side *sd, unsigned int nreq, bool keep)
{
	char n[16];
	const char *args[4] = { "-n", n, url(sd->srv, row), NULL };
	unsigned long long want = (unsigned long long)nreq *
				  hb_files[row->file].size;
	struct hb_load l;

	snprintf(n, sizeof(n), "%u", nreq);
	if (hb_h2load(o, 1, args, 600, &l, sd->why) ||
	    check_run(&l, nreq, want, want, sd->why))
		return -1;
	sd->units = (double)l.data / 1e9;
	sd->lcpu = l.cpu;
	if (keep)
		sd->rate[sd->nd++] = (double)l.data / l.secs / 1e6;
	return 0;
}

static void sleep_ms(unsigned int ms)
{
	usleep(ms * 1000);
}

/* Bytes of RSS per idle connection, after a few opened and closed. */
static int run_idle(const struct hb_opts *o, const struct hb_row *row,
		    struct side *sd)
{
	const struct hb_file *f = &hb_files[row->file];
	struct hb_idle id;
	long r0, r1;
	int bad;

	if (!sd->srv->ok)
		return -1;
	bad = hb_idle_open(&id, sd->srv->port, f->name, f->size, 16,
			   sd->why);
	hb_idle_close(&id);
	if (bad)
		return -1;
	sleep_ms(200);
	r0 = hb_server_rss(sd->srv);
	bad = hb_idle_open(&id, sd->srv->port, f->name, f->size,
			   o->idle_conns, sd->why);
	sleep_ms(200);
	r1 = hb_server_rss(sd->srv);
	hb_idle_close(&id);
	sleep_ms(200);
	if (bad)
		return -1;
	if (r0 < 0 || r1 < 0) {
		snprintf(sd->why, HB_WHY_LEN, "the server's /proc/PID/status");
		return -1;
	}
	sd->rate[sd->nd++] = (double)(r1 - r0) / (double)o->idle_conns;
	return 0;
}

static int run_one(const struct hb_opts *o, const struct hb_row *row,
		   struct side *sd, bool keep)
{
	unsigned long long p0 = 0, p1 = 0, th0 = 0, th1 = 0;
	struct hb_opts ro;
	size_t nd = sd->nd;
	double c0, c1;
	uint64_t t0;
	int r, capped;

	if (!sd->srv->ok)
		return -1;
	capped = !hb_cap_stat(sd->srv->kind, &p0, &th0);
	c0 = hb_server_cpu(sd->srv);
	t0 = bench_now_ns();
	ro = *o;
	ro.h2 = row->h2;
	switch (row->kind) {
	case ROW_KEEPALIVE:
		r = run_keepalive(&ro, row, sd, keep ? o->duration : 1, keep);
		break;
	case ROW_NEWCONN:
		r = run_newconn(&ro, row, sd, keep ? o->duration : 0.1, keep);
		break;
	default:
		r = run_bulk(&ro, row, sd, keep ? o->bulk_requests : 2, keep);
		break;
	}
	c1 = hb_server_cpu(sd->srv);
	if (capped && hb_cap_stat(sd->srv->kind, &p1, &th1))
		capped = 0;
	if (sd->nd > nd && (c0 < 0 || c1 < 0)) {
		sd->nd = nd;
		snprintf(sd->why, HB_WHY_LEN, "the server's /proc/PID/stat");
		return -1;
	}
	if (sd->nd > nd) {
		double wall = (double)(bench_now_ns() - t0) / 1e9;

		/*
		 * The server's share of a CPU while the load ran (the
		 * generator's start and exit included), and the
		 * generator's: near 100% per worker, the server was the
		 * bottleneck; below that with the generator near 100%,
		 * the generator was (see verdict()).
		 */
		sd->busy[nd] = (c1 - c0) / wall;
		sd->lbusy[nd] = sd->lcpu / wall;
		sd->lcost[nd] = sd->lcpu / sd->units;
		sd->thr[nd] = capped && p1 > p0 ?
			      (double)(th1 - th0) / (double)(p1 - p0) : 0;
		/* The CPU clock ticks at 100 Hz: below one, half a tick. */
		if (c1 - c0 <= 0)
			c1 = c0 + 0.5 / (double)sysconf(_SC_CLK_TCK);
		sd->per_cpu[nd] = sd->units / (c1 - c0);
	}
	if (!hb_server_alive(sd->srv)) {
		snprintf(sd->why, HB_WHY_LEN, "server %.240s", sd->srv->why);
		return -1;
	}
	return r;
}

static const char *gen_name(const struct hb_opts *o, const struct hb_row *row)
{
	if (row_groups(row, false))
		return "tlsx-load";
	return row->kind == ROW_KEEPALIVE && o->ka_wrk && !row->h2 ? "wrk" :
	       row->h2 ? "h2load (h2)" : "h2load";
}

/* The most CPU a server can use: its workers, or the --server-cpu cap. */
static double server_cpus(const struct hb_opts *o)
{
	if (o->server_cpu > 0 && o->server_cpu < o->workers)
		return o->server_cpu;
	return o->workers;
}

/*
 * Which side limited the rate: the server when it used 95% of its
 * workers' CPUs (or of its --server-cpu cap, or was throttled by the
 * cap in 90% of the periods); else the load generator
 * when it used 95% of its threads' CPUs; else neither (the machine's
 * other work took the CPUs), and then the costs per request say which
 * would limit it with a CPU each.
 */
static const char *verdict(const struct hb_opts *o, const struct side *sd)
{
	/* tlsx-load's threads block: at most a CPU each, the machine's. */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	double lt = sd->groups ? (o->tlsx_load_conns < ncpu ?
				  o->tlsx_load_conns : ncpu) :
		    o->load_threads;

	/*
	 * Under the cap, a server throttled in 90% of the periods wanted
	 * more CPU than it was given nearly all the time, whatever share
	 * the clock's ticks (or an emulated CPU's) give it.
	 */
	if (sd->b.median >= 0.95 * server_cpus(o) ||
	    (o->server_cpu > 0 && sd->th.median >= 0.9))
		return o->server_cpu > 0 ?
		       "the server was the bottleneck (at its CPU cap)" :
		       "the server was the bottleneck";
	if (sd->lb.median >= 0.95 * lt)
		return "the LOAD GENERATOR was the bottleneck, not the server";
	if (sd->lc.median * sd->g.median > 1)
		return "neither used 95% of a CPU; the generator costs more per request";
	return "neither used 95% of a CPU (the machine's other work?)";
}

static void print_side(const struct hb_opts *o, const struct hb_row *row,
		       const struct side *sd, bool alone)
{
	char a[64];

	if (!sd->nd) {
		printf("%-15s %-6s %s\n", row->name, sd->label,
		       *sd->why ? sd->why : sd->srv->why);
		return;
	}
	snprintf(a, sizeof(a), "%.0f [%.0f-%.0f]", sd->r.median, sd->r.min,
		 sd->r.max);
	printf("%-15s %-6s %26s %-6s", row->name, sd->label, a, row->unit);
	if (row->kind != ROW_IDLE)
		printf("  server CPU %3.0f%%", sd->b.median * 100);
	if (row->kind != ROW_IDLE && o->server_cpu > 0)
		printf(" (throttled %.0f%%)", sd->th.median * 100);
	if (row->kind == ROW_BULK)
		printf("  CPU %.0f ms/GB [%.0f-%.0f]", 1e3 / sd->g.median,
		       1e3 / sd->g.max, 1e3 / sd->g.min);
	else if (row->kind != ROW_IDLE)
		printf("  CPU %.1f us/req [%.1f-%.1f]", 1e6 / sd->g.median,
		       1e6 / sd->g.max, 1e6 / sd->g.min);
	if (alone)
		printf("  (measured alone)");
	if (*sd->why)
		printf("  then failed: %s", sd->why);
	putchar('\n');
	if (row->kind == ROW_IDLE)
		return;
	printf("%-15s %-6s %26s %-6s  %-6s CPU %3.0f%%", "", "", "", "",
	       gen_name(o, row), sd->lb.median * 100);
	if (row->kind == ROW_BULK)
		printf("  CPU %.0f ms/GB", sd->lc.median * 1e3);
	else
		printf("  CPU %.1f us/req", sd->lc.median * 1e6);
	if (sd->groups)
		printf("  latency p50 %.0f us, p99 %.0f us", sd->l50.median,
		       sd->l99.median);
	/* Its cost over the server's: above 1, it is the slower side. */
	printf(" (%.2fx the server's): %s\n", sd->lc.median * sd->g.median,
	       verdict(o, sd));
}

static void print_ratio(const char *what, const struct bench_stats *rs,
			double target, const char *goal)
{
	printf("%-15s %-6s %.3f [%.3f-%.3f]", "", what, rs->median, rs->min,
	       rs->max);
	if (target > 0)
		printf("  target %s %.2f %s", goal, target,
		       rs->median >= target ? "met" : "NOT MET");
	putchar('\n');
}

static void csv_line(FILE *f, const char *name, const struct side *t,
		     const struct side *n, double tv, double nv,
		     const struct bench_stats *rs, bool both)
{
	fprintf(f, "%s,", name);
	if (t->nd)
		fprintf(f, "%.3f", tv);
	fputc(',', f);
	if (n->nd)
		fprintf(f, "%.3f", nv);
	fputc(',', f);
	if (both)
		fprintf(f, "%.4f", rs->median);
	fputc('\n', f);
	fflush(f);
}

/*
 * The row's CSV lines: its rate, per CPU second, and (load rows) both
 * sides' shares of a CPU, the servers' and the load generator's (no
 * ratio: they say which side was the bottleneck).
 */
static void csv_row(FILE *csv, const struct hb_opts *o,
		    const struct hb_row *row, const struct side *t,
		    const struct side *n, const struct bench_stats *rs,
		    const struct bench_stats *gs, bool both)
{
	char name[64];

	csv_line(csv, row->name, t, n, t->r.median, n->r.median, rs, both);
	if (row->kind == ROW_IDLE)
		return;
	snprintf(name, sizeof(name), "%s-%s-per-cpu-s", row->name,
		 row->kind == ROW_BULK ? "gb" : "req");
	csv_line(csv, name, t, n, t->g.median, n->g.median, gs, both);
	snprintf(name, sizeof(name), "%s-server-cpu-share", row->name);
	csv_line(csv, name, t, n, t->b.median, n->b.median, gs, false);
	snprintf(name, sizeof(name), "%s-%s-cpu-share", row->name,
		 gen_name(o, row));
	csv_line(csv, name, t, n, t->lb.median, n->lb.median, gs, false);
}

/* The row in --json; in --plot a panel of two bars with their min-max. */
static void out_row(const struct hb_row *row, const struct side *t,
		    const struct side *n, const struct bench_stats *rs,
		    const struct bench_stats *gs, bool both)
{
	struct bench_field f[] = {
		BF_STR("row", row->name),
		BF_STR("unit", row->unit),
		BF_NUM("tlsxd", t->nd ? t->r.median : NAN),
		BF_NUM("tlsxd_min", t->nd ? t->r.min : NAN),
		BF_NUM("tlsxd_max", t->nd ? t->r.max : NAN),
		BF_NUM("nginx", n->nd ? n->r.median : NAN),
		BF_NUM("nginx_min", n->nd ? n->r.min : NAN),
		BF_NUM("nginx_max", n->nd ? n->r.max : NAN),
		BF_NUM("ratio", both ? rs->median : NAN),
		BF_NUM("ratio_min", both ? rs->min : NAN),
		BF_NUM("ratio_max", both ? rs->max : NAN),
		BF_NUM("per_cpu_ratio",
		       both && row->kind != ROW_IDLE ? gs->median : NAN),
		BF_NUM("tlsxd_server_cpu", t->nd ? t->b.median : NAN),
		BF_NUM("nginx_server_cpu", n->nd ? n->b.median : NAN),
		BF_NUM("rounds", (double)t->nd),
		/* "nginx", or tlsxd with the classical twin's groups. */
		BF_STR("second", n->label),
	};
	char panel[64];

	bench_out_row(&http_out, f, ARRAY_SIZE(f));
	if (!http_out.plot)
		return;
	snprintf(panel, sizeof(panel), "%s (%s)", row->name, row->unit);
	if (t->nd)
		bench_plot_bar(http_out.plot, panel, "tlsxd", t->r.median,
			       t->r.min, t->r.max);
	if (n->nd)
		bench_plot_bar(http_out.plot, panel, "nginx", n->r.median,
			       n->r.min, n->r.max);
}

static int run_row(const struct hb_row *row, const struct hb_opts *o,
		   struct hb_server *srv, FILE *csv)
{
	static struct side sides[2];
	struct side *t = &sides[0], *n = &sides[1];
	double ratio[MAX_ROUNDS], gratio[MAX_ROUNDS];
	struct bench_stats rs = { 0, 0, 0 }, gs = { 0, 0, 0 };
	size_t nr = 0;
	int i, k;
	bool both;

	static char labels[2][64];
	const char *twin = row_groups(row, true);

	memset(sides, 0, sizeof(sides));
	t->srv = &srv[HB_TLSXD];
	n->srv = &srv[twin ? HB_TLSXD : HB_NGINX];
	t->groups = row_groups(row, false);
	n->groups = twin ? twin : t->groups;
	for (k = 0; k < 2; k++) {
		struct side *sd = &sides[k];

		sd->label = sd->srv->name;
		if (!twin)
			continue;
		snprintf(labels[k], sizeof(labels[k]), "%s %s",
			 sd->srv->name, sd->groups);
		sd->label = labels[k];
	}
	if (row->kind == ROW_IDLE) {
		if (!o->idle_conns)
			return 0;
		for (k = 0; k < 2; k++)
			run_idle(o, row, &sides[k]);
		if (t->nd && n->nd && t->rate[0] > 0) {
			gratio[nr] = 0;
			ratio[nr++] = n->rate[0] / t->rate[0];
		}
	}
	/* A warm-up run each, not counted: caches, page cache, sessions. */
	for (k = 0; k < 2 && row->kind != ROW_IDLE; k++)
		run_one(o, row, &sides[k], false);
	for (i = 0; i < o->rounds && row->kind != ROW_IDLE; i++) {
		struct side *order[2] = { i % 2 ? n : t, i % 2 ? t : n };
		size_t before[2] = { t->nd, n->nd };

		for (k = 0; k < 2; k++)
			run_one(o, row, order[k], true);
		bench_progress_round(&http_prog, i);
		if (t->nd > before[0] && n->nd > before[1]) {
			ratio[nr] = t->rate[t->nd - 1] / n->rate[n->nd - 1];
			gratio[nr] = t->per_cpu[t->nd - 1] /
				     n->per_cpu[n->nd - 1];
			nr++;
		}
	}
	for (k = 0; k < 2; k++) {
		struct side *sd = &sides[k];

		if (!sd->nd)
			continue;
		sd->r = bench_summarize(sd->rate, sd->nd);
		sd->b = bench_summarize(sd->busy, sd->nd);
		if (row->kind == ROW_IDLE)
			continue;
		sd->g = bench_summarize(sd->per_cpu, sd->nd);
		sd->lb = bench_summarize(sd->lbusy, sd->nd);
		sd->lc = bench_summarize(sd->lcost, sd->nd);
		sd->th = bench_summarize(sd->thr, sd->nd);
		if (sd->groups) {
			sd->l50 = bench_summarize(sd->p50, sd->nd);
			sd->l99 = bench_summarize(sd->p99, sd->nd);
		}
	}
	both = nr > 0;
	if (both) {
		rs = bench_summarize(ratio, nr);
		gs = bench_summarize(gratio, nr);
	}
	print_side(o, row, t, !both && t->nd);
	print_side(o, row, n, !both && n->nd);
	if (twin)
		printf("%-15s %-6s not measured: its OpenSSL 3.0 has no ML-KEM\n",
		       "", srv[HB_NGINX].name);
	if (both) {
		print_ratio(row->kind == ROW_IDLE ? "nginx/tlsxd" :
			    twin ? "hybrid/classical" : "ratio",
			    &rs, row->target, ">=");
		if (row->kind != ROW_IDLE)
			print_ratio("per CPU", &gs, twin ? 0 : 1.0,
				    "(less CPU) >");
	}
	fflush(stdout);
	bench_progress_row_done(&http_prog);
	if (csv)
		csv_row(csv, o, row, t, n, &rs, &gs, both);
	out_row(row, t, n, &rs, &gs, both);
	return (t->nd || o->nginx_only) && n->nd ? 0 : -1;
}

static void print_machine(void)
{
	char line[256], name[128] = "?", fam[16] = "?", model[16] = "?";
	FILE *f = fopen("/proc/cpuinfo", "r");
	double l1 = 0, l5 = 0, l15 = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '\n')
			break;
		if (sscanf(line, "model name : %127[^\n]", name) == 1 ||
		    sscanf(line, "cpu family : %15s", fam) == 1 ||
		    sscanf(line, "model : %15s", model) == 1)
			continue;
	}
	if (f)
		fclose(f);
	f = fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf %lf %lf", &l1, &l5, &l15) != 3)
			l1 = l5 = l15 = 0;
		fclose(f);
	}
	printf("# %s, CPU family %s model %s, %ld CPUs online, load average %.2f %.2f %.2f\n",
	       name, fam, model, sysconf(_SC_NPROCESSORS_ONLN), l1, l5, l15);
}

static void print_cpus(const cpu_set_t *set)
{
	const char *sep = "";
	int c;

	for (c = 0; c < CPU_SETSIZE; c++) {
		if (CPU_ISSET(c, set)) {
			printf("%s%d", sep, c);
			sep = ",";
		}
	}
}

static void print_pin(const struct hb_opts *o)
{
	if (o->server_cpu > 0)
		printf("# each server capped at %.2f CPU (%s, 10 ms periods); load generator threads: %u\n",
		       o->server_cpu, hb_cap_kind(), o->load_threads);
	if (!o->pin) {
		puts("# nothing pinned: the servers and the load generator share the CPUs");
		return;
	}
	printf("# pinned: the servers on CPU ");
	print_cpus(&o->pin_srv);
	printf(", the load generator on CPU ");
	print_cpus(&o->pin_load);
	putchar('\n');
}

void bench_http_usage(void)
{
	size_t i;

	fprintf(stderr,
		"Usage: tlsx-bench http [OPTIONS]\n"
		"  --rounds N          alternating rounds per row (5)\n"
		"  --workers N         worker threads/processes of each server (1)\n"
		"  --duration S        seconds per timed run (5)\n"
		"  --clients N         keep-alive connections (64)\n"
		"  --pipeline N        keep-alive: N requests in flight per connection\n"
		"                      (h2load -m N: HTTP/1.1 pipelining; 1: none, the default)\n"
		"  --conn-batch N      clients of one new-connection run (200)\n"
		"  --bulk-requests N   64 MiB GETs per bulk run (16)\n"
		"  --idle-conns N      idle connections of the memory row (1000; 0: skip)\n"
		"  --port P            tlsxd's port; nginx's is P+1 (18443)\n"
		"  --dir DIR           generated files and logs (build/bench-http)\n"
		"  --tlsxd PATH        (build/bin/tlsxd)\n"
		"  --nginx PATH        (/usr/sbin/nginx)\n"
		"  --h2load PATH       (h2load)\n"
		"  --wrk               keep-alive rows with wrk -t 1, not h2load\n"
		"  --wrk-path PATH     (wrk)\n"
		"  --pin S:L           servers on CPUs S, the load generator on CPUs L\n"
		"                      (lists: 1, 0-1, 0,2; e.g. 1:0)\n"
		"  --no-pin            nothing pinned, the default: the scheduler places them all\n"
		"  --server-cpu F      cap each server at F CPUs (cgroup CPU bandwidth; root),\n"
		"                      so that a generator with more CPU keeps it busy\n"
		"  --load-threads N    the load generator's threads (-t N; 1)\n"
		"  --tlsx-load-conns N tlsx-load's threads, one connection at a time each (8)\n"
		"  --record-layer RL   passed to tlsxd (tlsx, tls, user)\n"
		"  --tlsxd-arg ARG     one more argument for tlsxd (repeatable)\n"
		"  --ktls              nginx with kTLS (ssl_conf_command Options KTLS)\n"
		"  --access-log        both servers write an access log (default: neither)\n"
		"  --nginx-only        nginx alone (no tlsxd)\n"
		"  --only ROW          rows whose name contains ROW\n"
		"  --csv FILE          also rows row,tlsxd_per_s,nginx_per_s,ratio\n"
		"  --json FILE         every row, with machine, kernel, commit, date,\n"
		"                      command line, as one JSON document\n"
		"  --plot FILE         FILE.svg or .png: a panel of bars (min-max) per row\n"
		"Rows:");
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		fprintf(stderr, " %s", rows[i].name);
	fputc('\n', stderr);
}

static int parse_uint(const char *s, unsigned int lo, unsigned int hi,
		      unsigned int *v)
{
	unsigned long x;

	if (bench_opt_uint(s, lo, hi, &x))
		return -1;
	*v = (unsigned int)x;
	return 0;
}

/* "1", "0-1", "0,2-3": CPUs that exist, into @set (not empty). */
static int parse_cpus(const char *s, const char *end, cpu_set_t *set)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(set);
	while (s < end) {
		char *e;
		long lo = strtol(s, &e, 10), hi = lo, c;

		if (e == s)
			return -1;
		if (*e == '-') {
			s = e + 1;
			hi = strtol(s, &e, 10);
			if (e == s)
				return -1;
		}
		if (lo < 0 || hi < lo || hi >= ncpu || hi >= CPU_SETSIZE)
			return -1;
		for (c = lo; c <= hi; c++)
			CPU_SET((int)c, set);
		s = e;
		if (s < end && *s++ != ',')
			return -1;
	}
	return CPU_COUNT(set) ? 0 : -1;
}

/* --pin S:L, the servers' CPUs and the load generator's. */
static int parse_pin(const char *arg, struct hb_opts *o)
{
	const char *colon = strchr(arg, ':');

	if (!colon || parse_cpus(arg, colon, &o->pin_srv) ||
	    parse_cpus(colon + 1, colon + strlen(colon), &o->pin_load))
		return -1;
	o->pin = true;
	return 0;
}

static int parse_opts(int argc, char **argv, struct hb_opts *o)
{
	static const struct option lopts[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "workers", required_argument, NULL, 'w' },
		{ "duration", required_argument, NULL, 'd' },
		{ "clients", required_argument, NULL, 'c' },
		{ "pipeline", required_argument, NULL, 'm' },
		{ "conn-batch", required_argument, NULL, 'b' },
		{ "bulk-requests", required_argument, NULL, 'B' },
		{ "idle-conns", required_argument, NULL, 'I' },
		{ "port", required_argument, NULL, 'p' },
		{ "dir", required_argument, NULL, 'D' },
		{ "tlsxd", required_argument, NULL, 'T' },
		{ "nginx", required_argument, NULL, 'N' },
		{ "h2load", required_argument, NULL, 'H' },
		{ "wrk", no_argument, NULL, 'W' },
		{ "wrk-path", required_argument, NULL, 'P' },
		{ "pin", required_argument, NULL, 'X' },
		{ "no-pin", no_argument, NULL, 'x' },
		{ "server-cpu", required_argument, NULL, 'S' },
		{ "load-threads", required_argument, NULL, 't' },
		{ "tlsx-load-conns", required_argument, NULL, 'G' },
		{ "record-layer", required_argument, NULL, 'R' },
		{ "tlsxd-arg", required_argument, NULL, 'A' },
		{ "ktls", no_argument, NULL, 'K' },
		{ "access-log", no_argument, NULL, 'L' },
		{ "nginx-only", no_argument, NULL, 'O' },
		{ "only", required_argument, NULL, 'o' },
		{ "csv", required_argument, NULL, 'C' },
		{ "json", required_argument, NULL, BENCH_OPT_JSON },
		{ "plot", required_argument, NULL, BENCH_OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int u = 0;
	int c, bad = 0;

	optind = 1;
	while ((c = getopt_long(argc, argv, "", lopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			bad |= parse_uint(optarg, 1, MAX_ROUNDS, &u);
			o->rounds = (int)u;
			break;
		case 'w':
			bad |= parse_uint(optarg, 1, 256, &o->workers);
			break;
		case 'd':
			bad |= bench_opt_double(optarg, 0.5, 600, &o->duration);
			break;
		case 'c':
			bad |= parse_uint(optarg, 1, 10000, &o->clients);
			break;
		case 'm':
			bad |= parse_uint(optarg, 1, 256, &o->pipeline);
			break;
		case 'b':
			bad |= parse_uint(optarg, 1, 10000, &o->conn_batch);
			break;
		case 'B':
			bad |= parse_uint(optarg, 1, 100000, &o->bulk_requests);
			break;
		case 'I':
			bad |= parse_uint(optarg, 0, 10000, &o->idle_conns);
			break;
		case 'p':
			bad |= parse_uint(optarg, 1, 65534, &u);
			o->port = (int)u;
			break;
		case 'D':
			o->dir = optarg;
			break;
		case 'T':
			o->tlsxd = optarg;
			break;
		case 'N':
			o->nginx = optarg;
			break;
		case 'H':
			o->h2load = optarg;
			break;
		case 'W':
			o->ka_wrk = true;
			break;
		case 'P':
			o->wrk = optarg;
			break;
		case 'X':
			bad |= parse_pin(optarg, o);
			break;
		case 'x':
			o->pin = false;
			break;
		case 'S':
			/* CFS takes a quota of 1 ms at least: 0.1 of 10 ms. */
			bad |= bench_opt_double(optarg, 0.1, 256,
						&o->server_cpu);
			break;
		case 't':
			bad |= parse_uint(optarg, 1, 64, &o->load_threads);
			break;
		case 'G':
			bad |= parse_uint(optarg, 1, 64, &o->tlsx_load_conns);
			break;
		case 'R':
			o->record_layer = optarg;
			break;
		case 'A':
			if (o->ntlsxd_xargs == HB_XARGS_MAX)
				bad = 1;
			else
				o->tlsxd_xargs[o->ntlsxd_xargs++] = optarg;
			break;
		case 'K':
			o->ktls = true;
			break;
		case 'L':
			o->access_log = true;
			break;
		case 'O':
			o->nginx_only = true;
			break;
		case 'o':
			o->only = optarg;
			break;
		case 'C':
			o->csv = optarg;
			break;
		default:
			if (bench_out_opt(&http_out, c, optarg))
				break;
			/* getopt_long() has said what it did not know. */
			return -1;
		}
		/* The first bad value ends the parse: bad is set only here. */
		if (bad) {
			bench_opt_bad("http", lopts, c, optarg);
			return -1;
		}
	}
	/* wrk -d takes whole seconds; it does not pipeline. */
	if (o->ka_wrk && (o->duration < 1 || o->pipeline > 1)) {
		fprintf(stderr, "tlsx-bench http: %s\n",
			"--wrk takes a --duration of 1 s or more and no --pipeline");
		return -1;
	}
	if (o->ka_wrk)
		o->duration = (double)(long)(o->duration + 0.5);
	if (optind != argc) {
		fprintf(stderr, "tlsx-bench http: unexpected argument '%s'\n",
			argv[optind]);
		return -1;
	}
	return 0;
}

/*
 * (Re)starts both servers with certificate @cert; -1 when neither
 * runs.  A row with a server that did not start reports it.
 */
static int start_servers(const struct hb_opts *o, struct hb_server *srv,
			 enum hb_cert cert)
{
	int k;

	for (k = 0; k < 2; k++) {
		hb_server_stop(&srv[k]);
		srv[k].cert = cert;
		if (k == HB_TLSXD && o->nginx_only) {
			snprintf(srv[k].why, HB_WHY_LEN,
				 "not run (--nginx-only)");
			continue;
		}
		if (hb_server_start(&srv[k], o))
			fprintf(stderr, "http: %s: %s\n", srv[k].name,
				srv[k].why);
	}
	printf("# servers (re)started with the %s certificate\n",
	       hb_cert_names[cert]);
	return srv[HB_TLSXD].ok || srv[HB_NGINX].ok ? 0 : -1;
}

int bench_http(int argc, char **argv)
{
	struct hb_opts o = {
		.rounds = 5, .workers = 1, .duration = 5, .clients = 64,
		.pipeline = 1,
		.conn_batch = 200, .bulk_requests = 16, .idle_conns = 1000, .port = 18443,
		.dir = "build/bench-http", .tlsxd = "build/bin/tlsxd",
		.nginx = "/usr/sbin/nginx", .h2load = "h2load", .wrk = "wrk",
		.load_threads = 1, .tlsx_load_conns = 8,
	};
	struct hb_server srv[2] = {
		[HB_TLSXD] = { .kind = HB_TLSXD, .name = "tlsxd" },
		[HB_NGINX] = { .kind = HB_NGINX, .name = "nginx" },
	};
	enum hb_cert cert = HB_CERT_P256;
	char why[HB_WHY_LEN];
	bool started = false;
	FILE *csv = NULL;
	int fails = 0, ran = 0, k;
	size_t i;

	if (parse_opts(argc, argv, &o)) {
		bench_http_usage();
		return 2;
	}
	if (bench_out_begin(&http_out, "http"))
		return 1;
	if (http_out.plot)
		bench_plot_labels(http_out.plot, "tlsx-bench http: tlsxd against nginx, median and min-max over rounds",
				  "", "median, unit in the title", "", 4);
	for (i = 0; i < ARRAY_SIZE(rows); i++)
		if (!o.only || strstr(rows[i].name, o.only))
			ran++;
	bench_progress_begin(&http_prog, "http", ran, o.rounds);
	ran = 0;
	srv[HB_TLSXD].port = o.port;
	srv[HB_NGINX].port = o.port + 1;
	if (hb_prepare(&o, why) || hb_cap_setup(&o, why)) {
		fprintf(stderr, "http: %s\n", why);
		return 1;
	}
	if (o.csv) {
		csv = fopen(o.csv, "w");
		if (!csv) {
			perror(o.csv);
			return 1;
		}
		fputs("row,tlsxd_per_s,nginx_per_s,ratio\n", csv);
	}
	printf("# tlsx-bench http: tlsxd vs nginx, %u worker(s) each, load: %s -t %u\n"
	       "# (new connections, bulk: h2load --h1), %d rounds alternating,\n"
	       "# %.1f s runs, %u keep-alive clients (%u request(s) in flight each),\n"
	       "# new connections in runs of %u clients x 1 request, bulk %u x 64 MiB\n"
	       "# on 1 connection; idle-conn-mem: server RSS per idle connection, %u\n"
	       "# connections, once each;\n"
	       "# nginx kTLS %s; access logs %s; figures: median [min-max] over rounds;\n"
	       "# ratio: median [min-max] of per-round tlsxd/nginx, above 1 = tlsxd better;\n"
	       "# CPU: a process's CPU time over the run's wall time (median), for the\n"
	       "# server and for the load generator\n",
	       o.workers, o.ka_wrk ? "wrk" : "h2load --h1", o.load_threads,
	       o.rounds,
	       o.duration, o.clients, o.pipeline, o.conn_batch,
	       o.bulk_requests, o.idle_conns, o.ktls ? "on" : "off",
	       o.access_log ? "on" : "off");
	print_pin(&o);
	print_machine();
	printf("%-15s %-6s %26s\n", "row", "server", "median [min-max]");
	for (i = 0; i < ARRAY_SIZE(rows); i++) {
		if (o.only && !strstr(rows[i].name, o.only))
			continue;
		ran++;
		if (!started || rows[i].cert != cert) {
			cert = rows[i].cert;
			started = true;
			if (start_servers(&o, srv, cert)) {
				fails++;
				break;
			}
		}
		bench_progress_row(&http_prog, ran - 1, rows[i].name);
		if (run_row(&rows[i], &o, srv, csv))
			fails++;
	}
	bench_progress_end(&http_prog);
	if (!ran)
		fprintf(stderr, "http: no row matches '%s'\n", o.only);
	for (k = 0; k < 2; k++)
		hb_server_stop(&srv[k]);
	hb_cap_remove();
	if (csv)
		fclose(csv);
	if (bench_out_end(&http_out))
		fails++;
	return fails || !ran ? 1 : 0;
}
