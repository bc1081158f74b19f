/* SPDX-License-Identifier: GPL-2.0-or-later */
/* FtlSource: one stream of events in input order (a file, or one CPU's data).
 * Parsers implement it; FtlIter merges several. */
#pragma once

#include <glib.h>

#include "model/event.h"

typedef struct _FtlTrace FtlTrace;

typedef enum {
	FTL_STATUS_OK,
	FTL_STATUS_EOF,
	FTL_STATUS_ERROR,
} FtlStatus;

/* Line accounting: total = header + event + special + blank + unparsed. */
typedef struct {
	guint64 total_lines;
	guint64 header_lines;  /* '#' lines and the old header lines without '#' */
	guint64 event_lines;   /* lines that produced an event */
	guint64 special_lines; /* LOST, buffer started, separators, stack frames, report preamble */
	guint64 blank_lines;
	guint64 unparsed_lines;
	guint64 events; /* events produced, synthesized ones included */
} FtlSourceStats;

typedef struct {
	const char *name;
	/* Produces the next event. *ev is borrowed and lives until the next call. */
	FtlStatus (*next)(FtlSource *src, const FtlEvent **ev, GError **error);
	void (*free)(FtlSource *src);
	/* A short name of what the source reads, e.g. "function_graph"; static. */
	const char *(*dialect)(FtlSource *src);
	/* Optional. Renders the event's payload text when ev->payload is empty
	 * (binary inputs keep fields, not text); only views call it, with the
	 * event the source returned last, before the next call to next(). */
	void (*payload)(FtlSource *src, const FtlEvent *ev, GString *out);
	/* Optional. A field of ev by name, for sources whose events keep fields,
	 * not text (binary inputs): numbers as decimal text, strings as they are.
	 * *value lives until the next call of next() or field(). Called only with
	 * the event the source returned last. */
	gboolean (*field)(FtlSource *src, const FtlEvent *ev, const char *key, FtlSlice *value);
	/* Optional. Before the first next(): starts the stream at a restart
	 * point at or before event number want (counted from 0 as next() gives
	 * them, synthesized events included) and sets *at to its number.
	 * FTL_STATUS_EOF when the source keeps no index to seek with (nothing
	 * changed); FTL_STATUS_ERROR when the input does not hold what the
	 * index promised (the source is then unusable: open it again). */
	FtlStatus (*seek_event)(FtlSource *src, guint64 want, guint64 *at, GError **error);
	/* Optional. Before the first next(), or later (the event next() gave
	 * last is gone): starts the stream (again) at its first event whose
	 * timestamp is ts or later, found without reading what comes before
	 * (a binary input's per-CPU pages). Exact only when the
	 * input's timestamps never go down: callers check that on a pass of
	 * their own. FTL_STATUS_EOF when the source cannot (nothing changed). */
	FtlStatus (*seek_time)(FtlSource *src, gint64 ts, GError **error);
} FtlSourceOps;

struct _FtlSource {
	const FtlSourceOps *ops;
	FtlTrace *trace; /* back-pointer, set by ftl_trace_add_source() */
	char *path;
	gint cpu_hint;   /* CPU implied by the file name (per_cpu/cpuN/trace), else -1 */
	FtlSourceStats stats;
	/* What the input's header says; NULL / -1 when it does not. */
	const char *tracer;   /* interned */
	gint64 entries_in_buffer;
	gint64 entries_written;
	gint header_cpus;     /* "#P:N" or "cpus=N" */
	gboolean has_header;
	gboolean time_relative; /* latency format: times are relative to the trace start */
	const char *buffer; /* interned ring-buffer (instance) name; NULL: the top buffer */
	gboolean end_checked; /* ftl_source_end() ran */
};

/* Initializes the common part; subclasses embed FtlSource first. */
void ftl_source_init(FtlSource *src, const FtlSourceOps *ops, const char *path);
void ftl_source_clear(FtlSource *src);
/* The source said EOF: checks what it read against what its header
 * promised (once; later EOFs of a reread are the same file). */
void ftl_source_end(FtlSource *src);
/* What every source notes of an event it hands out. A LOST event is a
 * diagnostic at the event's line and CPU, lost_text its text. Any other
 * puts its task in the task table (not a pid the parser inferred) and is
 * checked against *last_ts, the last timestamp of its CPU (NULL: none
 * kept; else updated), for time going backwards. Binary inputs, whose
 * records are not lines, pass record: each event counts as a line of
 * src->stats (a LOST one as special). */
void ftl_source_account(FtlSource *src, const FtlEvent *ev, gint64 *last_ts, FtlSlice lost_text,
			gboolean record);
const char *ftl_source_dialect(FtlSource *src);
/* Appends ev's payload text to out through the source's payload op; FALSE (and
 * nothing appended) when the source has none. ev must still be borrowed. */
gboolean ftl_source_payload(FtlSource *src, const FtlEvent *ev, GString *out);
