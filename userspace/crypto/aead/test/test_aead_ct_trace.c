// SPDX-License-Identifier: GPL-2.0
/*
 * test_aead_ct_trace.c - constant-time control flow, checked by tracing.
 *
 * valgrind (ct_aead) cannot run VAES, VPCLMULQDQ or AVX-512, so the wide
 * engines escape it.  This test covers every SIMD implementation
 * natively: a child process runs seal + open twice with the same public
 * inputs (lengths, nonce, AD) and different secrets (key and plaintext),
 * and the parent single-steps it with ptrace, recording the address of
 * every instruction executed.  The two traces must be identical: a branch
 * on a secret makes them differ whenever the two secrets take different
 * paths (with random secrets, almost always).  What it does not see are
 * secret-dependent memory addresses with the same instruction sequence (a
 * table lookup); valgrind checks those on the paths it can run, and code
 * review on the others (docs/ct-aead.md).
 *
 * Single-stepping costs tens of microseconds per instruction on a
 * virtual machine, so the traces are kept short: the generic engines,
 * which valgrind covers fully, are not traced, nor is the generic
 * setkey's portable AES key expansion; the setkey of the AES-NI
 * implementations (key expansion, H and the powers of H, all with SIMD
 * instructions) is.  The
 * ASan build skips (its checks are not the code under test).  If ptrace
 * is not permitted (a sandbox), the tests skip.
 */
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "aead/test/aead_test.h"

#define MAX_STEPS	(4u << 20)

struct trace {
	unsigned long *rip;
	size_t n;
	bool overflow;
};

/*
 * Text lengths traced: the empty text, partial blocks, a whole 64-byte
 * update, 100, 300 and 480 bytes (the one-call records of the AVX-512
 * ChaCha20-Poly1305 engine: one and two chains of rows, and its
 * eight-block pass, each with an IFMA run or not), 500 bytes (the
 * AVX-512 AES-GCM loop of 4-vector steps, gcm_loop()), and 1037 bytes (main
 * loops of every engine, up to 16 blocks of 64, then a tail).  Crossing the 4 KiB SIMD chunk is the dispatcher's
 * portable code, which valgrind checks.  Then, for the engines valgrind
 * cannot run, 1037 bytes in pieces (trace_cut_in/out).
 */
static const size_t trace_lens[] = { 0, 1, 17, 64, 100, 300, 480, 500,
				     1037 };
/* The same, shorter, where valgrind already checks the engine itself. */
static const size_t smoke_lens[] = { 0, 100 };

/*
 * A record of 1037 bytes in pieces, for the engines valgrind cannot run:
 * a short head, then pieces that hold a vector (so the wide AES-GCM
 * engine walks them itself, vectors across two pieces in halves), the
 * output cut elsewhere.
 */
static const size_t trace_cut_in[] = { 7, 100, 300, 600, 30 };
static const size_t trace_cut_out[] = { 64, 500, 473 };

static unsigned int trace_segs(struct tlsx_aead_seg *seg, u8 *buf,
			       const size_t *cut, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		seg[i].data = buf;
		seg[i].len = cut[i];
		buf += cut[i];
	}
	return n;
}

/* Does ct_aead (valgrind) run this engine?  See its comment. */
static bool valgrind_runs(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	if (alg == TLSX_AEAD_CHACHA20_POLY1305)
		return impl <= TLSX_IMPL_AVX2;
	return impl <= TLSX_IMPL_SSE;
}

static size_t nlens(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	return valgrind_runs(alg, impl) ? ARRAY_SIZE(smoke_lens) :
	       ARRAY_SIZE(trace_lens);
}

static size_t len_at(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl,
		     size_t i)
{
	return valgrind_runs(alg, impl) ? smoke_lens[i] : trace_lens[i];
}

/* Is the setkey of @alg/@impl SIMD code (AES-NI), traced on its own? */
static bool simd_setkey(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	return alg != TLSX_AEAD_CHACHA20_POLY1305 && impl != TLSX_IMPL_GENERIC;
}

/*
 * In the traced child.  Each traced window lies between two SIGSTOPs the
 * child sends itself; its inputs are prepared outside it.  Windows come
 * in pairs (same public inputs, different secrets): first, for the AES
 * algorithms on an AES-NI implementation, setkey from a random key (AES-NI
 * key expansion, H and for AES-GCM the powers of H); then seal + open at
 * each of trace_lens.
 */
static void child_run(enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	size_t kl = tlsx_aead_key_len(alg), i, maxlen = 1037;
	u8 key[32], nonce[12] = { 9 }, ad[13] = { 7 }, tag[16];
	u8 *pt = malloc(maxlen), *ct = malloc(maxlen), *back = malloc(maxlen);
	struct tlsx_aead_seg sin[5], sout[3], sback[5];
	unsigned int nin, nout;
	struct tlsx_aead_key k;
	u64 rng = 42;
	int run, ret = 0;

	if (!pt || !ct || !back)
		_exit(3);
	nin = trace_segs(sin, pt, trace_cut_in, ARRAY_SIZE(trace_cut_in));
	nout = trace_segs(sout, ct, trace_cut_out, ARRAY_SIZE(trace_cut_out));
	trace_segs(sback, back, trace_cut_in, ARRAY_SIZE(trace_cut_in));
	/*
	 * One untraced pass first, so that the traced runs do not differ by
	 * first-time work: lazy binding of library calls, CPU detection.
	 */
	for (i = 0; i < nlens(alg, impl); i++) {
		ret |= tlsx_aead_setkey(&k, alg, impl, key, kl);
		ret |= tlsx_aead_seal(&k, nonce, ad, sizeof(ad), pt, ct,
				      len_at(alg, impl, i), tag);
		ret |= tlsx_aead_open(&k, nonce, ad, sizeof(ad), ct, back,
				      len_at(alg, impl, i), tag);
	}
	ret |= tlsx_aead_seal_sg(&k, nonce, ad, sizeof(ad), sin, nin, sout,
				 nout, maxlen, tag);
	ret |= tlsx_aead_open_sg(&k, nonce, ad, sizeof(ad), sout, nout, sback,
				 nin, maxlen, tag);
	if (simd_setkey(alg, impl)) {
		for (run = 0; run < 2; run++) {
			rng_fill(&rng, key, sizeof(key));
			raise(SIGSTOP);
			ret |= tlsx_aead_setkey(&k, alg, impl, key, kl);
			raise(SIGSTOP);
		}
	}
	for (i = 0; i < nlens(alg, impl); i++) {
		size_t len = len_at(alg, impl, i);

		for (run = 0; run < 2; run++) {
			rng_fill(&rng, key, sizeof(key));
			rng_fill(&rng, pt, len);
			ret |= tlsx_aead_setkey(&k, alg, impl, key, kl);
			raise(SIGSTOP);
			ret |= tlsx_aead_seal(&k, nonce, ad, sizeof(ad), pt,
					      ct, len, tag);
			ret |= tlsx_aead_open(&k, nonce, ad, sizeof(ad), ct,
					      back, len, tag);
			raise(SIGSTOP);
		}
	}
	for (run = 0; !valgrind_runs(alg, impl) && run < 2; run++) {
		rng_fill(&rng, key, sizeof(key));
		rng_fill(&rng, pt, maxlen);
		ret |= tlsx_aead_setkey(&k, alg, impl, key, kl);
		raise(SIGSTOP);
		ret |= tlsx_aead_seal_sg(&k, nonce, ad, sizeof(ad), sin, nin,
					 sout, nout, maxlen, tag);
		ret |= tlsx_aead_open_sg(&k, nonce, ad, sizeof(ad), sout,
					 nout, sback, nin, maxlen, tag);
		raise(SIGSTOP);
	}
	_exit(ret ? 4 : 0);
}

/* Single-step @pid from one SIGSTOP to the next into @t. */
static int trace_window(pid_t pid, struct trace *t)
{
	struct user_regs_struct regs;
	int status;

	t->n = 0;
	t->overflow = false;
	/* Resume from the opening stop without delivering it. */
	if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL))
		return -1;
	for (;;) {
		if (waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			return -1;
		if (WSTOPSIG(status) == SIGSTOP)
			return 0;	/* the closing stop */
		if (WSTOPSIG(status) != SIGTRAP)
			return -1;
		if (ptrace(PTRACE_GETREGS, pid, NULL, &regs))
			return -1;
		if (t->n < MAX_STEPS)
			t->rip[t->n++] = regs.rip;
		else
			t->overflow = true;
		if (ptrace(PTRACE_SINGLESTEP, pid, NULL, NULL))
			return -1;
	}
}

/* Wait for the child's next SIGSTOP (the opening of a window). */
static int wait_stop(pid_t pid)
{
	int status;

	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFSTOPPED(status) && WSTOPSIG(status) == SIGSTOP ? 0 : -1;
}

/* Index of the first difference, or -1. */
static long first_diff(const struct trace *a, const struct trace *b)
{
	size_t i, n = a->n < b->n ? a->n : b->n;

	for (i = 0; i < n; i++)
		if (a->rip[i] != b->rip[i])
			return (long)i;
	return a->n == b->n ? -1 : (long)n;
}

/* Trace one window pair and compare.  0 same, 1 differ, -1 error. */
static int trace_pair(struct __test_metadata *_metadata, pid_t pid,
		      struct trace *t, const char *what)
{
	long d;

	if (wait_stop(pid) || trace_window(pid, &t[0]) ||
	    ptrace(PTRACE_CONT, pid, NULL, NULL) || wait_stop(pid) ||
	    trace_window(pid, &t[1]) || ptrace(PTRACE_CONT, pid, NULL, NULL))
		return -1;
	if (t[0].overflow || t[1].overflow) {
		TH_LOG("%s: trace longer than %u steps", what, MAX_STEPS);
		return 1;
	}
	if (getenv("TLSX_TRACE_VERBOSE"))
		TH_LOG("%s: %zu steps", what, t[0].n);
	d = first_diff(&t[0], &t[1]);
	if (d < 0)
		return 0;
	TH_LOG("%s: traces differ at step %ld of %zu/%zu (rip %#lx vs %#lx)",
	       what, d, t[0].n, t[1].n,
	       (size_t)d < t[0].n ? t[0].rip[d] : 0,
	       (size_t)d < t[1].n ? t[1].rip[d] : 0);
	return 1;
}

/*
 * Trace every window pair of child_run().  0: all identical; 1: a
 * difference (logged); -1: tracing not possible here.
 */
static int trace_impl(struct __test_metadata *_metadata,
		      enum tlsx_aead_alg alg, enum tlsx_aead_impl impl)
{
	struct trace t[2];
	char what[80];
	int status, ret = 0;
	size_t i;
	pid_t pid;

	t[0].rip = malloc(MAX_STEPS * sizeof(*t[0].rip));
	t[1].rip = malloc(MAX_STEPS * sizeof(*t[1].rip));
	if (!t[0].rip || !t[1].rip)
		abort();
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		abort();
	if (!pid) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(5);
		child_run(alg, impl);
	}
	if (simd_setkey(alg, impl))
		ret = trace_pair(_metadata, pid, t, "setkey");
	for (i = 0; i < nlens(alg, impl) && !ret; i++) {
		snprintf(what, sizeof(what), "%s %s seal+open %zu",
			 tlsx_aead_alg_name(alg), tlsx_aead_impl_name(impl),
			 len_at(alg, impl, i));
		ret = trace_pair(_metadata, pid, t, what);
	}
	if (!ret && !valgrind_runs(alg, impl)) {
		snprintf(what, sizeof(what), "%s %s seal_sg+open_sg 1037",
			 tlsx_aead_alg_name(alg), tlsx_aead_impl_name(impl));
		ret = trace_pair(_metadata, pid, t, what);
	}
	if (ret)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	if (!ret && (!WIFEXITED(status) || WEXITSTATUS(status)))
		ret = WIFEXITED(status) && WEXITSTATUS(status) == 5 ? -1 : 1;
	free(t[0].rip);
	free(t[1].rip);
	return ret;
}

FIXTURE(aead) {
	int unused;
};

FIXTURE_VARIANT(aead) {
	enum tlsx_aead_alg alg;
	enum tlsx_aead_impl impl;
};

#include "aead/test/aead_variants.h"

FIXTURE_SETUP(aead)
{
#ifdef __SANITIZE_ADDRESS__
	SKIP(return, "the sanitizers' own checks would be traced");
#endif
	if (variant->impl == TLSX_IMPL_GENERIC)
		SKIP(return, "generic: checked fully by ct_aead (valgrind)");
	if (!tlsx_aead_impl_available(variant->alg, variant->impl))
		SKIP(return, "%s has no %s implementation on this CPU",
		     tlsx_aead_alg_name(variant->alg),
		     tlsx_aead_impl_name(variant->impl));
}

FIXTURE_TEARDOWN(aead)
{
}

/* Single-stepping on a busy VM is slow: a generous timeout. */
TEST_F_TIMEOUT(aead, same_control_flow, 120)
{
	int r = trace_impl(_metadata, variant->alg, variant->impl);

	if (r < 0)
		SKIP(return, "cannot trace a child here (ptrace)");
	ASSERT_EQ(0, r);
}

TEST_HARNESS_MAIN
