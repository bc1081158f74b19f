/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where the Events panel's rows come from: a window onto the event list,
 * read in a thread of its own so that the screen never waits for it.
 *
 * The panel asks for rows by number; rows not read yet come back NULL and
 * are read in the background (the panel shows them when they arrive).
 * Searches and jumps (the exit of a call, a time, an input line) run there
 * too, with progress, and can be cancelled.
 *
 * Random access rests on one seam, FtlTuiSeeker: "a stream of the input's
 * events that starts at or before event N". The one here opens the input
 * again and, when its source keeps a sparse index (a large text file, the
 * ingest work's parse/index.h), starts at the index point at or before N
 * (ftl_trace_seek_event()), so a jump anywhere costs one index interval;
 * a binary input whose timestamps never go down (a trace.dat) starts at
 * the checkpoint's time instead (ftl_trace_seek_time(): a binary search
 * of each CPU's pages); otherwise it starts at the beginning. The
 * checkpoints the model
 * leaves (model.h) say which unfiltered event number each list position
 * has and which calls are open there, so list positions turn into the
 * stream numbers a seeker takes and a bare "}" after a seek is named.
 */
#pragma once

#include <glib.h>

#include "model/iter.h"
#include "views/tui/filter.h"
#include "views/tui/model.h"

typedef struct {
	gint64 ts;
	guint64 line;
	gint32 cpu, pid;
	FtlEventKind kind;
	guint32 flags;
	char lat[8];
	const char *comm; /* copies the row owns; NULL when unknown */
	const char *name;
	const char *func; /* the function a function event is about */
	gint32 depth;
	gint64 duration;  /* function_graph: as printed; FTL_TS_NONE */
	gboolean leaf;	  /* a function_graph "f();" line: entry and exit at once */
	const char *info; /* the rest of the event as text, raw (escaped when drawn) */
} FtlTuiRow;

/* A stream of the input's events, unfiltered, from event number at on. */
typedef struct {
	FtlTrace *trace;
	FtlIter *iter;
	guint64 at;
	FtlTuiCallNames names; /* calls open at `at`, for naming bare exits */
	gboolean seekable;     /* its trace could start anywhere (an index) */
	FtlSelector sel;       /* the command line's selection from `at` on */
} FtlTuiStream;

void ftl_tui_stream_clear(FtlTuiStream *s);

typedef struct {
	/* Opens a stream at an event number <= at->raw (out->at), near it when
	 * out->seekable: at an index point before it, or, when at->ts is not
	 * FTL_TS_NONE (the model found the input's times in order), at the
	 * first event of time at->ts, at->ties events before it. Called in the
	 * reader thread. */
	gboolean (*open)(gpointer self, const FtlTuiCheckpoint *at, FtlTuiStream *out,
			 GError **error);
	/* Optional. Moves stream s (one open() gave) to the first event of
	 * time at->ts, at->ties events before at->raw, without opening the
	 * input again. FALSE when it cannot (s unchanged, or s to be
	 * replaced when it was left unusable: broken for good). */
	gboolean (*reseek)(gpointer self, const FtlTuiCheckpoint *at, FtlTuiStream *s);
	void (*free)(gpointer self);
} FtlTuiSeekerOps;

typedef struct {
	const FtlTuiSeekerOps *ops;
	gpointer self;
} FtlTuiSeeker;

/* The seeker that opens the input again with opt->open (first, taken, is
 * used for the first stream) and seeks in it when it can. */
FtlTuiSeeker ftl_tui_seeker_new(const FtlTuiOptions *opt, FtlTuiIo *io, FtlTrace *first);

typedef enum {
	FTL_TUI_FIND_REGEX, /* the next row from `from` in direction dir whose text matches */
	FTL_TUI_FIND_EXIT,  /* the exit of the call entered at row `from` */
	FTL_TUI_FIND_ENTRY, /* the entry of the call that exits at row `from` */
	FTL_TUI_FIND_TIME,  /* the first row at or after ts */
	FTL_TUI_FIND_LINE,  /* the first row read from input line `line` */
	/* the row of event `name` at ts on cpu (the Timeline's Enter); when
	 * the list has none (filtered out), the first row at or after ts */
	FTL_TUI_FIND_EVENT,
} FtlTuiFindKind;

typedef struct {
	FtlTuiFindKind kind;
	guint64 from;
	int dir; /* +1 forward, -1 backward */
	GRegex *re;
	gint64 ts;
	guint64 line;
	gint32 cpu, depth; /* of the row at `from` */
	char name[48];	   /* FIND_EVENT: the event's name (a copy: the model may go) */
} FtlTuiFind;

typedef struct _FtlTuiEvents FtlTuiEvents;

/* Starts the reader thread over seeker (taken) with the list filter
 * (taken). Free with ftl_tui_events_free(). */
FtlTuiEvents *ftl_tui_events_new(FtlTuiSeeker seeker, FtlTuiIo *io, FtlTuiFilter *filter);
void ftl_tui_events_free(FtlTuiEvents *ev);
/* The model built with the same filter: its count and checkpoints. */
void ftl_tui_events_set_model(FtlTuiEvents *ev, const FtlTuiModel *m);
/* Rows known to exist; *exact when that is all of them. */
guint64 ftl_tui_events_count(FtlTuiEvents *ev, gboolean *exact);
/* Row i, borrowed until the next call on the UI thread; NULL when it is not
 * read yet (it is asked for) or does not exist. */
const FtlTuiRow *ftl_tui_events_row(FtlTuiEvents *ev, guint64 i);
/* Starts a search or jump, cancelling the one before. */
void ftl_tui_events_find(FtlTuiEvents *ev, const FtlTuiFind *find);
/* TRUE once the last find ended: *index is the row, -1 when there is
 * none, -2 when it was cancelled (or reading failed). */
gboolean ftl_tui_events_found(FtlTuiEvents *ev, gint64 *index);
/* TRUE while a find runs; *done gets the rows it went through. */
gboolean ftl_tui_events_finding(FtlTuiEvents *ev, guint64 *done);
void ftl_tui_events_cancel(FtlTuiEvents *ev);
/* TRUE once when rows arrived or a find ended since the last call. */
gboolean ftl_tui_events_changed(FtlTuiEvents *ev);
/* The reader's error, once (reading the input failed). */
gboolean ftl_tui_events_failed(FtlTuiEvents *ev, GError **error);
/* TRUE while the reader reads rows asked for or runs a find. */
gboolean ftl_tui_events_busy(FtlTuiEvents *ev);
/* Waits until nothing is asked of the reader (tests). */
void ftl_tui_events_wait(FtlTuiEvents *ev);
/* Events the reader took from its streams so far, read after
 * ftl_tui_events_wait() (tests: a jump reads a window, not the file). */
guint64 ftl_tui_events_n_read(FtlTuiEvents *ev);
/* This list's ftl_tui_gen_next number (0 for NULL): a panel that keeps
 * state for one list compares this, not the list's address. */
guint64 ftl_tui_events_gen(const FtlTuiEvents *ev);
/* The text a search looks at: task, event, function and info. g_free(). */
char *ftl_tui_row_text(const FtlTuiRow *row);
