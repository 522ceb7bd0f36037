// SPDX-License-Identifier: GPL-2.0
/*
 * kmod.c - "tlsx-bench kmod": bulk throughput of tlsx.ko against the
 * kernel's tls, and the memory each adds to a socket.  Run inside the
 * test VM (make bench-vm), where both modules are loaded.
 *
 * For each cipher and each mode (send() of 16 KiB, sendfile() of a
 * --mib MiB file, recv() of records), every round measures tlsx and tls
 * one after the other, alternating who goes first, on a fresh loopback
 * pair each time.  Reported per row: the median MB/s over the rounds with
 * its min-max, the ratio of the medians tlsx/tls (above 1: tlsx is
 * faster), and the median with min-max of the per-round ratios: the two
 * transfers of a round ran back to back under the same load, so on a
 * shared machine that ratio drifts less than the MB/s do.  Then the
 * AEAD driver the kernel's tls got for each cipher (/proc/crypto) and
 * the same rows with tlsx forced to that driver's instruction class
 * ("cipher=class", kmod_class.c): the ratio of the record paths alone.
 * Then per-socket memory with TX and RX keys set, for both.
 *
 * --sweep repeats the rows over the record sizes of bench_sweep_sizes()
 * (64 B to 16 KiB): send() of that many bytes per call (one record each)
 * and recv() of records of that size.  sendfile() fills 16 KiB records
 * whatever the size, so it sweeps only where the sender can cap its
 * records with TLS_TX_MAX_PAYLOAD_LEN (kmod_have_tx_limit(): tlsx.ko
 * takes it on 6.1 and 6.12, tls from 6.19 on; where a ULP refuses it
 * the row shows the error); without it, sendfile's 16 KiB row alone.
 * --list prints the rows a run would measure and measures nothing.
 * --json FILE and --plot FILE.svg (a panel per cipher and mode, MB/s of
 * both ULPs and the per-round ratio against the record size) as in
 * out.c; progress on stderr (progress.c).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <getopt.h>
#include <linux/tls.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "kmod.h"

#define MAX_ROUNDS	101
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct kmod_cipher kmod_ciphers[] = {
	{ "aes128gcm", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_128, 0, 0 },
	{ "aes256gcm", TLS_1_3_VERSION, TLS_CIPHER_AES_GCM_256, 0, 0 },
	{ "chacha20poly1305", TLS_1_3_VERSION, TLS_CIPHER_CHACHA20_POLY1305, 0, 0 },
	{ "aes128ccm", TLS_1_3_VERSION, TLS_CIPHER_AES_CCM_128, 0, 0 },
};

static const char *const mode_names[KMOD_MODES] = {
	[KMOD_SEND] = "send",
	[KMOD_SENDFILE] = "sendfile",
	[KMOD_RECV] = "recv",
};

static const char *const ulps[2] = { "tlsx", "tls" };

struct kmod_opts {
	int rounds;
	size_t mib;
	size_t chunk;		/* bytes per send(), plaintext per record */
	int pairs;
	int tls12;
	int tcpstat;		/* print the TcpExt counters per ULP */
	int rx_no_pad;		/* receivers set TLS_RX_EXPECT_NO_PAD */
	int same_class;		/* the like-for-like rows (default on) */
	const char *cipher;	/* NULL: all */
	const char *mode;	/* NULL: all */
	const char *file;
	bool sweep;
	bool list;
	struct bench_out out;
	struct bench_progress prog;
};

/* One row of the run: a cipher, a mode, a record size. */
struct kmod_row {
	const struct kmod_cipher *c;
	enum kmod_mode mode;
	size_t size;
	size_t tx_limit;	/* 0: TLS_TX_MAX_PAYLOAD_LEN not set */
	const char *label;	/* NULL: the cipher's name */
};

void bench_kmod_usage(void)
{
	static const char *const lines[] = {
		"Usage: tlsx-bench kmod [OPTIONS]",
		"  --rounds N    rounds per row, each measuring tlsx and tls (default 3)",
		"  --mib N       MiB per transfer (default 64)",
		"  --chunk N     bytes per send() and per received record, 1-16384",
		"                (default 16384)",
		"  --cipher NAME aes128gcm, aes256gcm, chacha20poly1305 or aes128ccm",
		"                (default: all)",
		"  --mode NAME   send, sendfile or recv (default: all)",
		"  --tls12       TLS 1.2 instead of 1.3",
		"  --pairs N     socket pairs for the memory figures (default 200; 0: skip)",
		"  --file PATH   the sendfile source (default /tmp/tlsx-bench-kmod.dat)",
		"  --tcpstat     after each row, the TcpExt counters each ULP moved",
		"  --rx-no-pad   receivers set TLS_RX_EXPECT_NO_PAD (TLS 1.3)",
		"  --no-same-class  skip the rows with tlsx forced to the AEAD class",
		"                of the driver tls got (/proc/crypto)",
		"  --sweep       every record size from 64 B to 16 KiB (instead of --chunk)",
		"  --list        print the rows a run would measure, measure nothing",
		"  --json FILE   every row, with machine, kernel, commit, date, command",
		"  --plot FILE   FILE.svg or .png: MB/s and ratio per record size (gnuplot)",
		"Both ULPs must be loaded (tls and tlsx); root for /proc/slabinfo.",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lines); i++)
		fprintf(stderr, "%s\n", lines[i]);
}

static int parse(int argc, char **argv, struct kmod_opts *o)
{
	static const struct option lo[] = {
		{ "rounds", required_argument, NULL, 'r' },
		{ "mib", required_argument, NULL, 'm' },
		{ "chunk", required_argument, NULL, 'k' },
		{ "cipher", required_argument, NULL, 'c' },
		{ "mode", required_argument, NULL, 'o' },
		{ "tls12", no_argument, NULL, '2' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "file", required_argument, NULL, 'f' },
		{ "tcpstat", no_argument, NULL, 't' },
		{ "rx-no-pad", no_argument, NULL, 'n' },
		{ "no-same-class", no_argument, NULL, 's' },
		{ "sweep", no_argument, NULL, BENCH_OPT_SWEEP },
		{ "list", no_argument, NULL, 'l' },
		{ "json", required_argument, NULL, BENCH_OPT_JSON },
		{ "plot", required_argument, NULL, BENCH_OPT_PLOT },
		{ NULL, 0, NULL, 0 },
	};
	unsigned long ul;
	int opt, mode;

	*o = (struct kmod_opts){ .rounds = 3, .mib = 64, .chunk = 16384,
				 .pairs = 200, .same_class = 1,
				 .file = "/tmp/tlsx-bench-kmod.dat" };
	while ((opt = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (opt) {
		case 'r':
			if (bench_opt_int(optarg, 1, MAX_ROUNDS, &o->rounds))
				goto bad;
			break;
		case 'm':
			if (bench_opt_uint(optarg, 1, 4096, &ul))
				goto bad;
			o->mib = ul;
			break;
		case 'k':
			if (bench_opt_uint(optarg, 1, 16384, &ul))
				goto bad;
			o->chunk = ul;
			break;
		case 'c':
			o->cipher = optarg;
			break;
		case 'o':
			o->mode = optarg;
			break;
		case '2':
			o->tls12 = 1;
			break;
		case 'p':
			if (bench_opt_int(optarg, 0, 1000000, &o->pairs))
				goto bad;
			break;
		case 'f':
			o->file = optarg;
			break;
		case 't':
			o->tcpstat = 1;
			break;
		case 'n':
			o->rx_no_pad = 1;
			break;
		case 's':
			o->same_class = 0;
			break;
		case BENCH_OPT_SWEEP:
			o->sweep = true;
			break;
		case 'l':
			o->list = true;
			break;
		default:
			if (bench_out_opt(&o->out, opt, optarg))
				break;
			bench_kmod_usage();
			return -EINVAL;
		}
	}
	for (mode = 0; o->mode && mode < KMOD_MODES; mode++)
		if (!strcmp(o->mode, mode_names[mode]))
			break;
	if (mode == KMOD_MODES) {
		fprintf(stderr, "tlsx-bench kmod: no mode '%s'\n", o->mode);
		return -EINVAL;
	}
	if (optind != argc) {
		fprintf(stderr, "tlsx-bench kmod: unexpected argument '%s'\n",
			argv[optind]);
		bench_kmod_usage();
		return -EINVAL;
	}
	return 0;
bad:
	bench_opt_bad("kmod", lo, opt, optarg);
	return -EINVAL;
}

/* The sendfile source: @bytes of a pattern, in the page cache. */
static int make_file(const char *path, size_t bytes)
{
	char buf[65536];
	size_t off, i;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);

	if (fd < 0)
		return -errno;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (char)(i * 7);
	for (off = 0; off < bytes; off += sizeof(buf))
		if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf)) {
			close(fd);
			return -EIO;
		}
	return fd;
}

/* The row in --json, its points in --plot. */
static void out_row(struct kmod_opts *o, const struct kmod_row *w,
		    const int err[2], const struct bench_stats st[2],
		    const struct bench_stats *rs)
{
	char panel[64];
	struct bench_field f[] = {
		BF_STR("row", "throughput"),
		BF_STR("cipher", w->c->name),
		BF_STR("label", w->label ? w->label : w->c->name),
		BF_NUM("tls_version", w->c->version == TLS_1_2_VERSION ? 1.2 : 1.3),
		BF_STR("mode", mode_names[w->mode]),
		BF_NUM("size", (double)w->size),
		BF_NUM("tx_limit", (double)w->tx_limit),
		BF_NUM("mib", (double)o->mib),
		BF_NUM("rounds", o->rounds),
		BF_NUM("tlsx_mbs", err[0] ? NAN : st[0].median),
		BF_NUM("tlsx_mbs_min", err[0] ? NAN : st[0].min),
		BF_NUM("tlsx_mbs_max", err[0] ? NAN : st[0].max),
		BF_NUM("tls_mbs", err[1] ? NAN : st[1].median),
		BF_NUM("tls_mbs_min", err[1] ? NAN : st[1].min),
		BF_NUM("tls_mbs_max", err[1] ? NAN : st[1].max),
		BF_NUM("ratio", err[0] || err[1] ? NAN :
				st[0].median / st[1].median),
		BF_NUM("round_ratio", err[0] || err[1] ? NAN : rs->median),
		BF_NUM("round_ratio_min", err[0] || err[1] ? NAN : rs->min),
		BF_NUM("round_ratio_max", err[0] || err[1] ? NAN : rs->max),
		BF_STR("tlsx_error", err[0] ? strerror(-err[0]) : ""),
		BF_STR("tls_error", err[1] ? strerror(-err[1]) : ""),
	};

	bench_out_row(&o->out, f, ARRAY_SIZE(f));
	if (!o->out.plot)
		return;
	snprintf(panel, sizeof(panel), "%s %s",
		 w->label ? w->label : w->c->name, mode_names[w->mode]);
	if (!err[0])
		bench_plot_point(o->out.plot, panel, "tlsx", 1,
				 (double)w->size, st[0].median);
	if (!err[1])
		bench_plot_point(o->out.plot, panel, "tls", BENCH_PLOT_ANCHOR,
				 (double)w->size, st[1].median);
	if (!err[0] && !err[1])
		bench_plot_point(o->out.plot, panel, "tlsx/tls (per round)", 2,
				 (double)w->size, rs->median);
}

static void row(struct kmod_opts *o, const struct kmod_row *w, int file,
		const struct kmod_records *r)
{
	static struct kmod_tcpstat ts;
	double mbs[2][MAX_ROUNDS], ratio[MAX_ROUNDS];
	struct bench_stats st[2] = { { 0 } }, rs = { 0 };
	struct kmod_cipher c = *w->c;
	int round, k, u, err[2] = { 0 };
	bool tcpstat = o->tcpstat;

	c.tx_limit = w->tx_limit;
	memset(&ts, 0, sizeof(ts));
	for (round = 0; round < o->rounds; round++) {
		for (k = 0; k < 2; k++) {
			/* Alternate who goes first. */
			u = (round + k) % 2;
			if (tcpstat && kmod_tcpstat_begin(&ts))
				tcpstat = false;
			mbs[u][round] = kmod_xfer(ulps[u], &c, w->mode,
						  o->mib << 20, w->size,
						  file, r);
			if (tcpstat)
				kmod_tcpstat_end(&ts, u);
			if (mbs[u][round] < 0)
				err[u] = (int)mbs[u][round];
		}
		bench_progress_round(&o->prog, round);
	}
	bench_progress_row_done(&o->prog);
	for (round = 0; round < o->rounds; round++)
		ratio[round] = mbs[0][round] / mbs[1][round];
	rs = bench_summarize(ratio, o->rounds);
	printf("%-22s %-9s", w->label ? w->label : w->c->name,
	       mode_names[w->mode]);
	if (o->sweep)
		printf(" %6zu", w->size);
	for (u = 0; u < 2; u++) {
		if (err[u]) {
			printf(" %27s", strerror(-err[u]));
			continue;
		}
		st[u] = bench_summarize(mbs[u], o->rounds);
		printf(" %9.1f (%7.1f-%7.1f)", st[u].median, st[u].min,
		       st[u].max);
	}
	if (!err[0] && !err[1])
		printf(" %8.2f %6.2f (%4.2f-%4.2f)", st[0].median / st[1].median,
		       rs.median, rs.min, rs.max);
	printf("\n");
	out_row(o, w, err, st, &rs);
	if (tcpstat)
		kmod_tcpstat_print(&ts, ulps);
	fflush(stdout);
}

/*
 * What tls got (its drivers are listed once the rows above used them),
 * then each cipher's rows again with tlsx on that class: the record
 * paths compared with the same kind of AEAD code under both.
 */
static void same_class_rows(struct kmod_opts *o,
			    const struct kmod_cipher *ciphers, size_t n,
			    int file)
{
	const char *cls[ARRAY_SIZE(kmod_ciphers)];
	char drv[128], impl[32], label[40];
	struct kmod_records rec;
	int prio, mode, err;
	size_t i;

	printf("\nthe AEAD each ULP runs\n");
	kmod_class_print_cpu();
	if (kmod_class_impl_get(impl, sizeof(impl)))
		snprintf(impl, sizeof(impl), "?");
	printf("tlsx: aead_impl=%s\n", impl);
	for (i = 0; i < n; i++) {
		const char *alg = kmod_class_alg(ciphers[i].type);

		cls[i] = NULL;
		err = alg ? kmod_class_driver(alg, drv, sizeof(drv), &prio) :
			    -ENOENT;
		if (err) {
			printf("tls: %-16s %s: no driver in /proc/crypto\n",
			       ciphers[i].name, alg ? alg : "?");
			continue;
		}
		cls[i] = kmod_class_of(drv);
		printf("tls: %-16s %s -> %s (priority %d): class %s\n",
		       ciphers[i].name, alg, drv, prio,
		       cls[i] ? cls[i] : "unknown");
	}
	printf("\nlike for like: tlsx forced to the class of tls's driver\n");
	for (i = 0; i < n; i++) {
		if (!cls[i])
			continue;
		if (kmod_class_impl_set(cls[i])) {
			printf("%s: cannot set aead_impl=%s\n",
			       ciphers[i].name, cls[i]);
			continue;
		}
		snprintf(label, sizeof(label), "%s=%s", ciphers[i].name,
			 cls[i]);
		err = kmod_records_build(&ciphers[i], o->mib << 20, o->chunk,
					 &rec);
		if (err) {
			printf("%s: records: %s\n", label, strerror(-err));
			continue;
		}
		for (mode = 0; mode < KMOD_MODES; mode++) {
			struct kmod_row w = { &ciphers[i], mode, o->chunk, 0,
					      label };

			if (!o->mode || !strcmp(o->mode, mode_names[mode]))
				row(o, &w, file, &rec);
		}
		kmod_records_free(&rec);
	}
	kmod_class_impl_set(impl[0] == '?' ? "auto" : impl);
}

/*
 * The rows of one cipher, in the order they run: per record size, send,
 * sendfile and recv (--mode: that one).  Returns how many were stored in
 * @rows (at most @max).
 */
static size_t plan_rows(const struct kmod_opts *o, const struct kmod_cipher *c,
			struct kmod_row *rows, size_t max)
{
	size_t nsizes, s, n = 0;
	const size_t *sizes = o->sweep ? bench_sweep_sizes(&nsizes) : NULL;
	bool limit = kmod_have_tx_limit();
	int mode;

	if (!o->sweep) {
		sizes = &o->chunk;
		nsizes = 1;
	}
	for (s = 0; s < nsizes; s++)
		for (mode = 0; mode < KMOD_MODES; mode++) {
			struct kmod_row w = { c, mode, sizes[s], 0, NULL };

			if (o->mode && strcmp(o->mode, mode_names[mode]))
				continue;
			/*
			 * Without a cap sendfile()'s records are 16 KiB: its
			 * sweep has that row alone.
			 */
			if (o->sweep && mode == KMOD_SENDFILE && !limit &&
			    sizes[s] != 16384)
				continue;
			if (o->sweep && limit && mode == KMOD_SENDFILE &&
			    sizes[s] < 16384)
				w.tx_limit = sizes[s];
			if (n < max)
				rows[n] = w;
			n++;
		}
	return n < max ? n : max;
}

#define KMOD_MAX_ROWS	(KMOD_MODES * 16)

int bench_kmod(int argc, char **argv)
{
	struct kmod_cipher ciphers[ARRAY_SIZE(kmod_ciphers)];
	struct kmod_records rec = { 0 };
	struct kmod_opts o;
	struct kmod_row rows[KMOD_MAX_ROWS];
	struct kmod_mem m;
	size_t i, j, nr, n = 0;
	unsigned long total = 0;
	int file, u, err, ret = 0;

	if (parse(argc, argv, &o))
		return 2;
	for (i = 0; i < ARRAY_SIZE(kmod_ciphers); i++) {
		if (o.cipher && strcmp(o.cipher, kmod_ciphers[i].name))
			continue;
		ciphers[n] = kmod_ciphers[i];
		if (o.tls12)
			ciphers[n].version = TLS_1_2_VERSION;
		ciphers[n].rx_no_pad = o.rx_no_pad;
		n++;
	}
	if (!n) {
		fprintf(stderr, "tlsx-bench kmod: no cipher '%s'\n", o.cipher);
		return 2;
	}
	for (i = 0; i < n; i++)
		total += plan_rows(&o, &ciphers[i], rows, KMOD_MAX_ROWS);
	if (o.list) {
		printf("cipher,mode,size,tx_limit\n");
		for (i = 0; i < n; i++) {
			nr = plan_rows(&o, &ciphers[i], rows, KMOD_MAX_ROWS);
			for (j = 0; j < nr; j++)
				printf("%s,%s,%zu,%zu\n", rows[j].c->name,
				       mode_names[rows[j].mode], rows[j].size,
				       rows[j].tx_limit);
		}
		return 0;
	}
	if (bench_out_begin(&o.out, "kmod"))
		return 2;
	if (o.out.plot)
		bench_plot_labels(o.out.plot, "tlsx-bench kmod: tlsx.ko against the kernel's tls",
				  "record size (bytes)", "MB/s",
				  "tlsx/tls (>1: tlsx faster)", 3);
	file = make_file(o.file, o.mib << 20);
	if (file < 0) {
		fprintf(stderr, "tlsx-bench kmod: %s: %s\n", o.file,
			strerror(-file));
		return 1;
	}
	printf("tlsx-bench kmod: TLS 1.%d, %zu MiB per transfer, %d rounds,%s\n",
	       o.tls12 ? 2 : 3, o.mib, o.rounds,
	       o.rx_no_pad ? " TLS_RX_EXPECT_NO_PAD," : "");
	if (o.sweep)
		printf("record sizes: send() and received records of that many bytes;\n"
		       "sendfile(): %s\n", kmod_have_tx_limit() ?
		       "TLS_TX_MAX_PAYLOAD_LEN set to it" :
		       "16 KiB records (no TLS_TX_MAX_PAYLOAD_LEN here)");
	else
		printf("send() and received records of %zu bytes\n", o.chunk);
	printf("median MB/s (min-max) per ULP; tlsx/tls: ratio of medians;\n");
	printf("per round: median (min-max) of the per-round ratios\n");
	printf("%-22s %-9s%s %27s %27s %8s %18s\n", "cipher", "mode",
	       o.sweep ? "   size" : "", "tlsx", "tls", "tlsx/tls",
	       "per round");
	bench_progress_begin(&o.prog, "kmod", total, o.rounds);
	for (i = 0; i < n && !ret; i++) {
		nr = plan_rows(&o, &ciphers[i], rows, KMOD_MAX_ROWS);
		for (j = 0; j < nr; j++) {
			char label[64];

			/* recv's records, sealed here for each size. */
			if (rows[j].mode == KMOD_RECV) {
				err = kmod_records_build(&ciphers[i],
							 o.mib << 20,
							 rows[j].size, &rec);
				if (err) {
					fprintf(stderr, "tlsx-bench kmod: records: %s\n",
						strerror(-err));
					ret = 1;
					break;
				}
			}
			snprintf(label, sizeof(label), "%s %s %zu",
				 ciphers[i].name, mode_names[rows[j].mode],
				 rows[j].size);
			bench_progress_row(&o.prog, o.out.rows, label);
			row(&o, &rows[j], file, &rec);
			if (rows[j].mode == KMOD_RECV)
				kmod_records_free(&rec);
		}
	}
	bench_progress_end(&o.prog);
	if (o.same_class && !ret)
		same_class_rows(&o, ciphers, n, file);
	close(file);
	unlink(o.file);

	if (!o.pairs || ret)
		return bench_out_end(&o.out) || ret ? 1 : 0;
	printf("\nper-socket memory over plain TCP, TX and RX keys set\n");
	printf("(%s, %d pairs)\n", ciphers[0].name, o.pairs);
	printf("%-5s %10s %10s  %s\n", "ulp", "slab B", "total B",
	       "largest slab growth per socket (B)");
	for (u = 0; u < 2; u++) {
		err = kmod_mem_measure(ulps[u], &ciphers[0], o.pairs, &m);
		if (err) {
			printf("%-5s %s\n", ulps[u], strerror(-err));
			continue;
		}
		printf("%-5s %10.0f %10.0f  %s\n", ulps[u], m.slab, m.total,
		       m.top);
		{
			struct bench_field f[] = {
				BF_STR("row", "memory"),
				BF_STR("ulp", ulps[u]),
				BF_STR("cipher", ciphers[0].name),
				BF_NUM("pairs", o.pairs),
				BF_NUM("slab_bytes_per_socket", m.slab),
				BF_NUM("total_bytes_per_socket", m.total),
				BF_STR("largest_slabs", m.top),
			};

			bench_out_row(&o.out, f, ARRAY_SIZE(f));
		}
	}
	return bench_out_end(&o.out) ? 1 : 0;
}
