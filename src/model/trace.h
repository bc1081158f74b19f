/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlTrace: one opened trace (one or more sources) with its string pool, task
 * table and diagnostics. Open one with ftl_trace_open() (parse/open.h). */
#pragma once

#include <glib.h>

#include "model/diag.h"
#include "model/source.h"
#include "model/task.h"
#include "util/input.h"
#include "util/strpool.h"
#include "util/tracefs-text.h"

typedef enum {
	FTL_OPEN_NONE = 0,
	FTL_OPEN_STRICT = 1u << 0, /* the first unparsed line is an error */
	/* The command shows no marker's caller: a binary input may leave
	 * u.marker.caller empty rather than resolve its address (which costs
	 * a trace.dat's whole kallsyms). */
	FTL_OPEN_NO_CALLERS = 1u << 1,
	/* A view reads rows as they are asked for (the TUI's Events list): a
	 * text reader parses two chunks ahead, not its share of the pool's. */
	FTL_OPEN_BROWSE = 1u << 2,
} FtlOpenFlags;

FtlTrace *ftl_trace_new(const char *label, FtlOpenFlags flags);
void ftl_trace_free(FtlTrace *trace);
/* Takes ownership of src. */
void ftl_trace_add_source(FtlTrace *trace, FtlSource *src);
/* The operands a trace is read from (model/related.h): the sources added
 * after begin_operand(path) come from path. */
void ftl_trace_begin_operand(FtlTrace *trace, const char *path);
guint ftl_trace_n_operands(const FtlTrace *trace);
/* The iterator's note of every event of source src_index when the trace has
 * several operands: the times each CPU of each operand spans. */
void ftl_trace_note_event(FtlTrace *trace, guint src_index, const FtlEvent *ev);
/* FALSE with an FTL_ERROR_USAGE when two operands cannot be one capture
 * (different kernels, clocks or CPU counts; with read_done, times that
 * overlap on a CPU or lie far apart). */
gboolean ftl_trace_check_related(const FtlTrace *trace, gboolean read_done, GError **error);

/* All borrowed; they live as long as the trace. */
const char *ftl_trace_label(const FtlTrace *trace);
FtlOpenFlags ftl_trace_flags(const FtlTrace *trace);
/* How the trace's sources read their inputs (-j, --max-expand): the opener
 * sets it before it adds them (the defaults until then). */
const FtlReadOptions *ftl_trace_read_options(const FtlTrace *trace);
void ftl_trace_set_read_options(FtlTrace *trace, const FtlReadOptions *ro);
FtlStrPool *ftl_trace_pool(FtlTrace *trace);
FtlTasks *ftl_trace_tasks(FtlTrace *trace);
FtlDiags *ftl_trace_diags(FtlTrace *trace);
/* The sources' dialect, "mixed" when they differ, "none" without sources;
 * a static string. */
const char *ftl_trace_dialect(FtlTrace *trace);
guint ftl_trace_n_sources(const FtlTrace *trace);
FtlSource *ftl_trace_source(const FtlTrace *trace, guint i);
/* Before the trace is read: starts it at or before event number want when
 * it is one source that can seek (source.h's seek_event), *at the number
 * of the event it starts at; FTL_STATUS_EOF (*at 0, nothing changed) when
 * it cannot; FTL_STATUS_ERROR when the seek failed (free the trace). */
FtlStatus ftl_trace_seek_event(FtlTrace *trace, guint64 want, guint64 *at, GError **error);
/* Before the trace is read, or later (make a new FtlIter then): starts
 * every source (again) at its first event at ts or later (source.h's
 * seek_time), so that the trace gives the events from
 * the first at ts on, in the order a whole pass gives them when their
 * timestamps never go down and no two sources tie on (ts, cpu).
 * FTL_STATUS_EOF (nothing changed) when a source cannot seek so;
 * FTL_STATUS_ERROR when only some could (free the trace). */
FtlStatus ftl_trace_seek_time(FtlTrace *trace, gint64 ts, GError **error);
/* The tracer named by the first source that names one, else NULL. */
const char *ftl_trace_tracer(const FtlTrace *trace);
/* Facts about how the input was read that a user should see (info prints
 * them): "raw pages win over per_cpu text", a format that did not parse.
 * Repeated notes are kept once. */
void ftl_trace_add_note(FtlTrace *trace, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/* char*, borrowed; lives as long as the trace. */
GPtrArray *ftl_trace_notes(const FtlTrace *trace);
/* The trace clock the input names (trace_clock, trace.dat's option), or NULL. */
void ftl_trace_set_clock(FtlTrace *trace, const char *clock);
const char *ftl_trace_clock(const FtlTrace *trace);
/* The kernel release the input names (a saved `uname -a`), or NULL. */
void ftl_trace_set_kernel(FtlTrace *trace, const char *release);
/* The release from a saved uname ("Linux board 6.1.0-9-armmp #1 SMP ...
 * armv7l GNU/Linux": its third word; a raw directory's uname file, a
 * trace.dat's UNAME option); nothing when uname is NULL or shorter. */
void ftl_trace_set_kernel_uname(FtlTrace *trace, const char *uname);
const char *ftl_trace_kernel(const FtlTrace *trace);
/* The GNU build id of the kernel the input names (lowercase hex, as
 * /sys/kernel/notes holds it), or NULL. */
void ftl_trace_set_build_id(FtlTrace *trace, const char *build_id);
const char *ftl_trace_build_id(const FtlTrace *trace);
/* The ring buffers a binary input holds ("top" and instance names), whether
 * or not they were chosen with --buffer; char*, borrowed. */
void ftl_trace_add_buffer(FtlTrace *trace, const char *name);
GPtrArray *ftl_trace_buffers(const FtlTrace *trace);
/* The input's own ring-buffer statistics of one CPU (a raw directory's
 * per_cpu/cpuN/stats, a trace.dat's saved CPU stats), set by its source
 * when it opens; NULL when the input has none for cpu. Borrowed; lives as
 * long as the trace. */
void ftl_trace_set_cpustats(FtlTrace *trace, gint cpu, const FtlCpuStats *st);
const FtlCpuStats *ftl_trace_cpustats(const FtlTrace *trace, gint cpu);
/* trace may be NULL here (no statistics). */
/* The one rule for how many events a CPU lost, given the LOST marks read
 * for it (counted: the sum of the counts they give; uncounted: marks that
 * give none): what its statistics say when the input has them, else the
 * marks' sum when every mark gives a count, else FTL_LOST_UNKNOWN. A CPU
 * without marks and without statistics lost 0 as far as the input says. */
#define FTL_LOST_UNKNOWN ((gint64)-1)
gint64 ftl_trace_cpu_lost(const FtlTrace *trace, gint cpu, guint64 counted, guint64 uncounted);
/* a + b of two such figures: unknown when either is, saturating. */
gint64 ftl_lost_sum(gint64 a, gint64 b);
/* The header's entries-in-buffer and entries-written for the whole trace
 * (-1 each when no source's header gives them): a merged file's header is
 * its own buffer's; the kernel writes the whole buffer's totals, summed
 * over its CPUs, into every per_cpu/cpuN/trace header, so those count
 * once. */
void ftl_trace_header_entries(const FtlTrace *trace, gint64 *in_buffer, gint64 *written);
/* Sum of the sources' line accounting. */
FtlSourceStats ftl_trace_stats(const FtlTrace *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTrace, ftl_trace_free)
