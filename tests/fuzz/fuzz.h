/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the fuzz targets share: inputs put where ftlens's readers look for
 * them (memory files), the whole parse -> model -> analyses -> views path run
 * on a trace, and the checks every output must pass.
 *
 * Every target defines LLVMFuzzerTestOneInput(). Built with --enable-fuzzing
 * (clang) libFuzzer or AFL++'s driver calls it; otherwise tests/fuzz/replay.c
 * does, once per corpus or crash file, so that `make check` replays them under
 * the sanitizers. A violated check aborts: to a fuzzer that is a crash. */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/pass.h"
#include "model/trace.h"
#include "views/table.h"

/* Text as a terminal of 100 columns gets it, cut (without colour: the
 * capture check refuses every control character, ours too). */
static const FtlTextStyle fuzz_text_style = { 100, FALSE, NULL };
/* Executions cheap (bench/fuzz-results.md): no parse threads unless
 * FTL_FUZZ_THREADS says how many (fuzz-run.c fills it). */
extern FtlReadOptions fuzz_read;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* Once per process: quiet GLib's logging, make the scratch directory. */
void fuzz_init(void);

/* This target's trial children (parse/trial.c) refused by default, as
 * FTL_FUZZ_INPROCESS=1 does for every target; FTL_FUZZ_INPROCESS=0 puts
 * them back. Call before the first input. */
void fuzz_trials_off(void);

/* A memory file (memfd) holding data; the path (/proc/self/fd/N) lives until
 * the next call with the same slot (0..3). */
const char *fuzz_memfile(guint slot, const guint8 *data, size_t size);

/* The process's scratch directory, emptied: inputs made of several files
 * (per-CPU sets, raw page directories) are written below it. */
const char *fuzz_scratch_reset(void);
/* Writes data to scratch/relpath, making its directories. */
void fuzz_scratch_write(const char *relpath, const guint8 *data, size_t size);

/* Splits data into the sections of a multi-file input: each section starts
 * at a line "@@ NAME" (the first one may have no such line: its name is
 * default_name). Calls fn(name, bytes, n, user) per section, at most
 * max_sections times. Names are trimmed to [A-Za-z0-9_./-] without "..". */
typedef void (*FuzzSectionFunc)(const char *name, const guint8 *data, size_t n, gpointer user);
void fuzz_sections(const guint8 *data, size_t size, const char *default_name, guint max_sections,
		   FuzzSectionFunc fn, gpointer user);
/* The scratch directory holding the sections of data (fuzz_sections())
 * as files named by them, as fuzz_scratch_reset() and a
 * fuzz_scratch_write() per section in order would leave it, written
 * again only from the first section that differs from the last input's
 * when the names are the same (fuzz_scratch_write() and
 * fuzz_scratch_reset() forget that input). */
const char *fuzz_scratch_sections(const guint8 *data, size_t size, const char *default_name,
				  guint max_sections);

/* One pass over trace feeding every analysis a command prints (counts,
 * quality, comm recovery, markers and spans, the call tree with its
 * listeners, function statistics, longest calls, a dump of every event),
 * then one view (report, graph, info, markers, diff, dump) in one format (text,
 * CSV, JSON) into memory, checked: sel (fuzz_selector()) picks which. */
void fuzz_run_trace(FtlTrace *trace, guint sel);
/* The input's last byte: the view and format fuzz_run_trace() shows. */
static inline guint fuzz_selector(const uint8_t *data, size_t size)
{
	return size ? data[size - 1] : 0;
}
/* The same with one more consumer on the pass (finished with the others);
 * FALSE when the trace could not be read (extra is then not finished). */
gboolean fuzz_run_trace_with(FtlTrace *trace, guint sel, const FtlConsumerClass *extra,
			     gpointer self);

/* Output checks (abort on failure). Text and CSV: valid UTF-8 with no
 * control character but LF (and TAB where allow_tab), no C1 or bidi control
 * (util/escape.h's policy). JSON: the same for its bytes, and it is JSON
 * text by RFC 8259 (and, in a replay build, json-glib parses it). s[n] is
 * a NUL (a GString's, open_memstream's). */
void fuzz_check_text(const char *what, const char *s, size_t n, gboolean allow_tab);
void fuzz_check_json(const char *what, const char *s, size_t n);

/* A FILE in memory for a view to print to; fuzz_capture_check() closes it
 * and checks what was printed as format (FtlFormat). */
typedef struct {
	FILE *f;
	char *buf;
	size_t len;
} FuzzCapture;
FILE *fuzz_capture_open(FuzzCapture *c);
void fuzz_capture_check(FuzzCapture *c, const char *what, int format);
