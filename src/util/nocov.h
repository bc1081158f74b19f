/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FTL_NO_COVERAGE: a function left out of a fuzzing build's coverage
 * instrumentation (clang's SanitizerCoverage: edge counters and the
 * compare callbacks libFuzzer steers by; the sanitizers still apply).
 * Only for a loop the fuzzer has nothing to learn from and that ran on
 * every byte or cell: a scan whose correctness is evident, or a test's
 * own reading of what was drawn. Never inlined: the instrumentation runs
 * after inlining, and a function inlined into an instrumented caller is
 * instrumented there (the JSON validator's loops were, in
 * fuzz_check_json: 5% of fuzz-console's time in compare callbacks).
 * Empty for other compilers. */
#pragma once

#ifdef __clang__
#define FTL_NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define FTL_NO_COVERAGE
#endif
