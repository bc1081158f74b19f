/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens plot`'s pictures through gnuplot: the data as OUT.dat, a script
 * from a template in data/ as OUT.gp, then gnuplot run by argv (no shell)
 * to make OUT.png, OUT.svg or OUT.pdf. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"
#include "analysis/markers.h"
#include "analysis/rate.h"
#include "analysis/sched.h"
#include "model/stack.h"

typedef enum {
	FTL_PLOT_LATENCY,   /* wakeup latency histogram and CDF, RT and normal */
	FTL_PLOT_CPU,	    /* per-CPU busy % over time */
	FTL_PLOT_DURATIONS, /* call duration histogram and CDF per function */
	FTL_PLOT_RATE,	    /* events per second over time, with markers */
	FTL_PLOT_STACK,	    /* stack_max_size over the snapshots of a series */
} FtlPlotKind;

typedef struct {
	FtlPlotKind kind;
	const char *output;   /* OUT.png, OUT.svg or OUT.pdf */
	const char *input;    /* the input's name, for the title */
	guint width, height;  /* pixels (PDF: 100 px an inch) */
	guint bins;	      /* cpu, rate: time bins (default 200) */
	const char *const *functions; /* durations: the functions, NULL-terminated */
	gboolean script_only; /* leave OUT.dat and OUT.gp, run nothing */
} FtlPlotOptions;

typedef struct _FtlPlot FtlPlot;

/* "latency", "cpu", "durations", "rate" or "stack"; FALSE for anything else. */
gboolean ftl_plot_parse_kind(const char *s, FtlPlotKind *kind);
/* FALSE with a usage error when output has no .png, .svg or .pdf. */
FtlPlot *ftl_plot_new(const FtlPlotOptions *opt, GError **error);
void ftl_plot_free(FtlPlot *p);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlPlot, ftl_plot_free)

/* Listener for the scheduling pass (ftl_sched_add_on_interval); latency
 * reads the histograms of the sched analysis given to ftl_plot_write. */
void ftl_plot_add_interval(const FtlSchedInterval *iv, gpointer p);
/* Listener for the call tree (ftl_calltree_add_on_call): the durations of
 * the functions asked for, in an FtlHisto (analysis/histo.h), so that
 * memory does not grow with the number of calls. */
void ftl_plot_add_call(const FtlCall *call, gpointer p);

/* What the kinds plot, read after the pass: sched for latency and cpu, rate
 * and markers for rate, stack for stack; the others may be NULL. */
typedef struct {
	const FtlSched *sched;
	const FtlRate *rate;
	const FtlMarkers *markers;
	const FtlStackSet *stack;
} FtlPlotData;

/* Writes OUT.dat and OUT.gp, then (unless script_only) runs gnuplot and
 * writes OUT. inputs (NULL-terminated) are never overwritten. Without
 * gnuplot, FALSE with an error that says the script was left. */
gboolean ftl_plot_write(FtlPlot *p, const FtlPlotData *data, const char *const *inputs,
			GError **error);
