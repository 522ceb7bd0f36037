# tools/debug-kernel/debug-6.1.kconfig.sed: run on the unpacked 6.1 source's
# lib/Kconfig.debug (tools/debug-kernel/build, before configuring): the
# only change made to Debian's 6.1 source for the debug kernel.
#
# 6.1's FAULT_INJECTION_STACKTRACE_FILTER "depends on !X86_64" (the
# Kconfig gives no reason); by 6.12 the line is gone and the filter
# does the same check: fail_stacktrace() in lib/fault-inject.c walks
# the stack with stack_trace_save(), which on x86_64 with
# UNWINDER_FRAME_POINTER (debug.config) is the unwinder every WARN and
# lockdep trace of this kernel uses.  With the filter, failslab can be
# aimed at tlsx's code on 6.1 as on 6.12 (tools/debug-kernel/run).
/^config FAULT_INJECTION_STACKTRACE_FILTER$/,/^config /{
	/^	depends on !X86_64$/d
}
