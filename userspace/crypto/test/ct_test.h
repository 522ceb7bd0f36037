/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ct_test.h - what the constant-time checks (ct_*.c, run under valgrind
 * memcheck by tools/ctgrind) share: marking bytes secret or public, and
 * counting the reports a piece of code causes in a child process, with
 * which each program shows that its check can fail.  Include after
 * kselftest_harness.h.
 *
 * Memcheck treats undefined bytes as secrets: a branch or a memory index
 * that depends on one is reported as use of uninitialised data.
 */
#ifndef TLSX_CT_TEST_H
#define TLSX_CT_TEST_H

#include <sys/wait.h>
#include <unistd.h>
#include <valgrind/memcheck.h>

#ifndef SECRET
#define SECRET(p, n)	VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n)	VALGRIND_MAKE_MEM_DEFINED((p), (n))
#endif

/*
 * Runs @fn(@arg) in a child process and returns the number of memcheck
 * reports it caused, or -1 when @fn failed (returned non-zero) or the
 * child could not report.  A child of its own because memcheck makes a
 * process with errors exit with --error-exitcode; the count comes back
 * through a pipe.
 */
static inline long ct_count_reports(int (*fn)(void *arg), void *arg)
{
	unsigned long n = 0;
	int fd[2], status = 0;
	ssize_t got;
	pid_t pid;

	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		unsigned long before = VALGRIND_COUNT_ERRORS;

		if (fn(arg))
			_exit(2);
		n = VALGRIND_COUNT_ERRORS - before;
		if (write(fd[1], &n, sizeof(n)) != sizeof(n))
			_exit(2);
		_exit(0);
	}
	close(fd[1]);
	got = read(fd[0], &n, sizeof(n));
	close(fd[0]);
	/* Its exit status is memcheck's --error-exitcode when it erred. */
	waitpid(pid, &status, 0);
	if (got != sizeof(n))
		return -1;
	return (long)n;
}

/* A branch on a secret byte: what every check must be able to see. */
static inline int ct_branch_on_secret(void *arg)
{
	unsigned char secret = (unsigned char)getpid() | 1;

	(void)arg;
	SECRET(&secret, 1);	/* an asm with &secret: a real reload */
	if (secret)		/* a call: the compiler cannot make it a cmov */
		getppid();
	return 0;
}

TEST(detects_a_secret_branch)
{
	if (!RUNNING_ON_VALGRIND)
		SKIP(return, "not under valgrind: nothing to check");
	TH_LOG("the memcheck report above, if any, is this test's own");
	EXPECT_EQ(1, ct_count_reports(ct_branch_on_secret, NULL));
}

#endif /* TLSX_CT_TEST_H */
