/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FTL_NO_COVERAGE: a function left out of a fuzzing build's coverage
 * instrumentation (clang's SanitizerCoverage: edge counters and the
 * compare callbacks libFuzzer steers by; the sanitizers still apply).
 * Only for a loop the fuzzer has nothing to learn from and that ran on
 * every byte or cell: a scan whose correctness is evident, or a test's
 * own reading of what was drawn. Empty for other compilers. */
#pragma once

#ifdef __clang__
#define FTL_NO_COVERAGE __attribute__((no_sanitize("coverage")))
#else
#define FTL_NO_COVERAGE
#endif
