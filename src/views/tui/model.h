/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's model: analysis results built in a background thread while the
 * screen is already up, then handed to the panels, read-only. A filter
 * change builds a new one the same way. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"
#include "analysis/counters.h"
#include "analysis/funcstats.h"
#include "analysis/markers.h"
#include "analysis/oops.h"
#include "analysis/quality.h"
#include "analysis/sched.h"
#include "model/console.h"
#include "model/stack.h"
#include "model/trace.h"
#include "views/tui/filter.h"

/* Opens the event input again: a trace can be read once, and the TUI reads
 * it several times (the model, the Events list, a rebuild). flags: more
 * FtlOpenFlags (FTL_OPEN_BROWSE for the Events list's). */
/* Where functions are defined, for Functions and Graph (source-line.h). */
typedef struct _FtlTuiSources FtlTuiSources;

typedef FtlTrace *(*FtlTuiOpenFunc)(gpointer data, FtlOpenFlags flags, GError **error);

/* Where the TUI opens (`tui --at --marker --func --panel`); all zero: the
 * Events list at its first row. */
typedef struct {
	gboolean at_set;
	gint64 at;	    /* the cursor on the first event at or after it */
	const char *marker; /* a regex: the cursor on the first marker it matches */
	const char *func;   /* Graph (or Functions, by panel) on this function */
	const char *panel;  /* a panel's name (ftl_tui_panel_lookup) */
} FtlTuiStart;

/* What `ftlens tui` was given; everything borrowed for the TUI's life. */
typedef struct _FtlTuiOptions {
	const char *label;   /* the input named in the title */
	FtlTuiOpenFunc open; /* NULL when no input holds events */
	gpointer open_data;
	FtlTrace *first;	 /* the trace already opened, taken by the TUI; may be NULL */
	const FtlFilter *filter; /* --cpu/--pid/--time, may be NULL */
	const char *span_start;	 /* --span START END, or NULL */
	const char *span_end;
	char *const *counters;	 /* --counter specs (NULL-terminated, checked), or NULL */
	FtlStackSet *stacks;	   /* stack tables, or NULL */
	const FtlConsole *console; /* a console log, or NULL */
	const FtlOops *oops;	   /* its reports */
	gint oops_cpu;		   /* the CPU of the report the dump goes with, -1 */
	gboolean utf8, color, mouse;
	/* --relative-to: every time shown and typed is from this one
	 * (FTL_TS_NONE: none), as in every other command's output */
	gint64 origin;
	/* Called once, on the screen's thread, when the first model read
	 * with no filter of the TUI's own is complete, with its trace: the
	 * command's check of its selection (a term that matched nothing, no
	 * event selected). An error ends the TUI with it. May be NULL. */
	gboolean (*selected)(gpointer data, FtlTrace *trace, GError **error);
	gpointer selected_data;
	FtlTuiStart start;
	/* where functions are defined (--vmlinux, --debuginfo, the Debian
	 * files of the trace's release), used on the screen's thread only;
	 * NULL without debug info: no source line is drawn */
	FtlTuiSources *sources;
	/* the inputs as given (NULL-terminated, may be NULL): a saved view
	 * records them */
	const char *const *paths;
	/* --view: applied once the model under its filters is read; NULL */
	const struct _FtlTuiView *view;
	/* --compare: the other trace's options (open, open_data and label are
	 * its own; its compare points back here), or NULL. Every model is then
	 * read with the other's beside it (FtlTuiModel.compare). */
	const struct _FtlTuiOptions *compare;
} FtlTuiOptions;

/* Threads that open and read inputs share this: opening takes it
 * exclusively (libtracecmd's guard forks and lends stdout while it opens),
 * reading shares it. */
typedef struct {
	GRWLock lock;
} FtlTuiIo;

typedef struct {
	gint64 t0, t1;
	gint32 pid;
	gint32 cpu;	   /* where the event at t0 was: a wakeup may come from another CPU */
	const char *comm;  /* interned in the model's trace, NULL when unknown */
	const char *event; /* the event at t0 that began it (sched_switch, a wakeup, the
			    * task's first event there), interned as comm; NULL unknown */
	const char *end;   /* the event at t1 that ended it (on the lane's CPU); NULL when
			    * events were lost there or the trace ended */
} FtlTuiRun;

typedef struct {
	gint64 t0, t1;
} FtlTuiSpan;

/* What one CPU did: until the scheduling analysis (issue 16) lands, read
 * from sched_switch events and the task each event names. */
typedef struct {
	gint32 cpu;
	GArray *runs; /* FtlTuiRun by time; idle (pid 0) and unknown left out */
	GArray *irqs; /* FtlTuiSpan: interrupt context */
	GArray *lost; /* FtlTuiSpan: from the CPU's last event before a LOST line to it */
	/* FtlTuiRun by end: a task runnable (woken, or preempted) until it
	 * ran here, or preempted here until the trace ended; cpu and event
	 * are where it became runnable. From the scheduling analysis. */
	GArray *waits;
	/* while reading */
	gint32 pid;
	const char *comm, *event; /* the running task's and the event it ran from */
	gint64 since, last_ts, irq_t0;
	gint irq_depth;
} FtlTuiLane;

typedef struct {
	gint64 ts;
	gint32 cpu;
	guint64 count; /* 0 when the input does not say */
	guint64 line;
} FtlTuiLost;

/* Every FTL_TUI_CHECKPOINT-th event of the Events list: where it is in the
 * unfiltered stream and when, and the calls open there. Seeks by time or
 * row start from here. */
#define FTL_TUI_CHECKPOINT 1024
typedef struct {
	guint64 index; /* in the list */
	guint64 raw;   /* in the unfiltered stream */
	gint64 ts;
	guint64 line;  /* the event's input line */
	guint32 names; /* the open calls: a snapshot in the model's call_snaps */
	/* unfiltered events just before it with its timestamp: a stream
	 * started at ts (ftl_trace_seek_time) starts at raw - ties */
	guint32 ties;
	/* the time of the last timed event of the unfiltered stream before
	 * it (FTL_TS_NONE: none): where an untimed event after it stands in a
	 * --time window (FtlSelector) */
	gint64 place;
} FtlTuiCheckpoint;

typedef struct _FtlTuiModel {
	FtlTrace *trace; /* owns what the analyses borrow; NULL without events */
	FtlTuiFilter *filter;
	/* by FtlCallTreeGroup: all, per CPU, per task. Only the first is built
	 * with the model: the others, each as big, when a panel asks for one
	 * (ftl_tui_loader_start_tree) */
	FtlCallTree *trees[3];
	FtlTrace *tree_traces[3]; /* own what a tree built later borrows */
	FtlFuncStats *funcs;
	FtlMarkers *markers;
	FtlSpans *spans; /* NULL without --span */
	FtlQuality *quality;
	FtlSched *sched;     /* the whole trace's scheduling (scope 0) */
	/* a side model's durations of one function's timed calls (and the
	 * count of untimed ones), or NULL */
	FtlHisto *durations;
	char *durations_of;
	guint64 untimed;
	/* a side model's wakeups of one task (FtlSchedWakeup, as sched pairs
	 * them: the switch that ran it, the waker), in the order they were
	 * served, at most FTL_TUI_WAKEUPS (the others counted), or NULL */
	GArray *wakeups;
	gint32 wakeups_of;
	guint64 wakeups_more;
	FtlOopsTrail *trail; /* a console log's dump, else NULL */
	GPtrArray *lanes;    /* FtlTuiLane*, sorted by CPU */
	GArray *lost;	     /* FtlTuiLost */
	FtlCounters *counters;		/* frequency, idle, thermal tracks (analysis/counters.h) */
	FtlCounterSteps *counter_steps; /* their steps, for the Timeline */
	guint64 n_events;    /* events the analyses saw */
	guint64 n_list;	     /* events the Events list shows */
	GArray *checkpoints; /* FtlTuiCheckpoint */
	/* the list's input lines never go down (one text file): a row is
	 * found by its line from the checkpoint before it */
	gboolean lines_sorted;
	/* the unfiltered stream's timestamps never go down and no two
	 * sources tie on (ts, cpu): a checkpoint is found by its time */
	gboolean ts_sorted;
	FtlTuiCallSnaps *call_snaps;
	gint64 first_ts, last_ts;
	gboolean has_graph; /* function_graph or function events */
	/* read with no filter of the TUI's own: the command line's filter's
	 * seen record counts this model's selection */
	gboolean counted;
	const FtlTuiOptions *opt;
	/* unique among the models and event lists of this process: what a
	 * panel's cache is keyed on, never an address, which the next model
	 * may be allocated at once this one is freed */
	guint64 gen;
	/* --compare: B's model, read by the same loader after this one (A's)
	 * under a copy of its filter, so the two always agree on the filters
	 * (owned; its own compare is NULL); NULL without --compare */
	struct _FtlTuiModel *compare;
} FtlTuiModel;

/* A number never handed out before (1, 2, ...): FtlTuiModel.gen and the
 * event lists' ftl_tui_events_gen. */
guint64 ftl_tui_gen_next(void);

void ftl_tui_model_free(FtlTuiModel *m);
/* The last checkpoint at or before index / at or before time ts; NULL when
 * none. */
const FtlTuiCheckpoint *ftl_tui_model_checkpoint_index(const FtlTuiModel *m, guint64 index);
const FtlTuiCheckpoint *ftl_tui_model_checkpoint_time(const FtlTuiModel *m, gint64 ts);

/* The thread that builds a model. */
typedef struct _FtlTuiLoader FtlTuiLoader;
/* Starts building with filter (taken). first (taken, may be NULL) is read
 * instead of opening the input again. */
FtlTuiLoader *ftl_tui_loader_start(const FtlTuiOptions *opt, FtlTuiIo *io, FtlTuiFilter *filter,
				   FtlTrace *first);
/* Starts building the call tree of group alone, under filter (taken), in
 * a model of its own (ftl_tui_model_take_tree moves it into the shown one). */
FtlTuiLoader *ftl_tui_loader_start_tree(const FtlTuiOptions *opt, FtlTuiIo *io,
					FtlTuiFilter *filter, FtlCallTreeGroup group);
/* Starts the scheduling analysis alone, under filter (taken), with the
 * windows (FtlTuiSpan, taken) as scopes 1..n: the model's sched. */
FtlTuiLoader *ftl_tui_loader_start_sched(const FtlTuiOptions *opt, FtlTuiIo *io,
					 FtlTuiFilter *filter, GArray *windows);
/* Starts reading the durations of func's calls alone, under filter
 * (taken): the model's durations. */
FtlTuiLoader *ftl_tui_loader_start_durations(const FtlTuiOptions *opt, FtlTuiIo *io,
					     FtlTuiFilter *filter, const char *func);
/* Starts reading the wakeups of task pid alone, under filter (taken): the
 * model's wakeups. */
#define FTL_TUI_WAKEUPS 100000
FtlTuiLoader *ftl_tui_loader_start_wakeups(const FtlTuiOptions *opt, FtlTuiIo *io,
					   FtlTuiFilter *filter, gint32 pid);
/* Moves from's tree of group, and the trace it borrows from, into to. */
void ftl_tui_model_take_tree(FtlTuiModel *to, FtlTuiModel *from, FtlCallTreeGroup group);
/* Progress, from any thread: events read so far and the time of the last. */
guint64 ftl_tui_loader_events(FtlTuiLoader *l);
gint64 ftl_tui_loader_time(FtlTuiLoader *l);
gboolean ftl_tui_loader_done(FtlTuiLoader *l);
/* Blocks until the loader is done (ftl_tui_app_settle(): tests). */
void ftl_tui_loader_wait(FtlTuiLoader *l);
/* Waits for the thread; the model, or NULL with error (reading failed, or
 * cancelled: FTL_ERROR_CANCELLED is not used, error stays NULL then). Frees l. */
FtlTuiModel *ftl_tui_loader_finish(FtlTuiLoader *l, GError **error);
/* Asks the thread to stop at its next check (a few thousand events). */
void ftl_tui_loader_cancel(FtlTuiLoader *l);

/* Gives the pages of freed memory back to the system. A reader's parsed
 * chunks and the analyses' scratch are MiBs freed together, which glibc
 * keeps resident in the thread's heap until its top is free: after a
 * model is read they were tens of MiB, more than the
 * 5% of the input the TUI may hold beside the call tree. */
void ftl_tui_trim(void);

/* Lanes (model-lanes.c): fed every event the analyses see. */
void ftl_tui_lanes_feed(GPtrArray *lanes, const FtlEvent *ev);
void ftl_tui_lanes_finish(GPtrArray *lanes, gint64 end);
/* The scheduling analysis's interval listener (ftl_sched_add_on_interval,
 * data: the lanes): the waits. */
void ftl_tui_lanes_add_interval(const FtlSchedInterval *iv, gpointer lanes);
FtlTuiLane *ftl_tui_lanes_get(GPtrArray *lanes, gint32 cpu);
/* Queries of a lane's sorted intervals (runs, waits: FtlTuiRun; irqs,
 * lost: FtlTuiSpan; t0 and t1 first in each, elt bytes each): the first
 * ending after a; whether a span meets [a, b); the run of pid (any, pid
 * < 0) that covers most of [a, b), its time in *cover, or NULL. */
guint ftl_tui_lane_first(GArray *arr, gsize elt, gint64 a);
gboolean ftl_tui_lane_any(GArray *spans, gint64 a, gint64 b);
const FtlTuiRun *ftl_tui_lane_run(const FtlTuiLane *lane, gint64 a, gint64 b, gint32 pid,
				  gint64 *cover);
void ftl_tui_lane_free(FtlTuiLane *lane);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTuiModel, ftl_tui_model_free)
