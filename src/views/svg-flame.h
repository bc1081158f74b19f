/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Interactive flame graphs, icicles, flame charts and differential flame
 * graphs as one SVG file, written through libxml2's xmlTextWriter with the
 * script and style of data/flame.js and data/flame.css inlined. */
#pragma once

#include <glib.h>
#include <stdio.h>

#include "analysis/flame.h"
#include "views/source.h"

typedef enum {
	FTL_FLAME_COLORS_HOT = 0, /* FlameGraph's default: reds and yellows */
	FTL_FLAME_COLORS_KERNEL,  /* oranges; interrupts red, tasks grey */
	FTL_FLAME_COLORS_MONO,	  /* greys */
	FTL_FLAME_COLORS_MEM,	  /* greens */
	FTL_FLAME_COLORS_IO,	  /* blues */
	FTL_FLAME_COLORS_AQUA,
	FTL_FLAME_COLORS_PURPLE,
	FTL_FLAME_COLORS_YELLOW,
} FtlFlameColors;

/* "hot", "kernel", "mono", "mem", "io", "aqua", "purple", "yellow". */
gboolean ftl_flame_colors_parse(const char *s, FtlFlameColors *out);

/* --minwidth: pixels, or a share of the total in percent. */
typedef struct {
	double px;
	double pct;
} FtlSvgMinWidth;

/* "0.5" or "0.5px" (pixels), "0.1%" (of the total). */
gboolean ftl_svg_minwidth_parse(const char *s, FtlSvgMinWidth *out);

/* A vertical line in a chart: a marker or lost events. */
typedef struct {
	gint64 ts;	  /* on the trace clock */
	const char *text; /* any bytes */
	gboolean lost;
} FtlFlameMark;

typedef struct {
	guint width;	     /* image width in px (0: 1200) */
	double minwidth_px;  /* frames narrower than this merge (< 0: 0.1; 0: none merge) */
	double minwidth_pct; /* > 0: the minimum is this share of the total, in % */
	const char *title;   /* NULL: a default */
	const char *subtitle; /* may be NULL */
	FtlFlameColors colors;
	GRegex *highlight; /* may be NULL: frames whose name matches stand out */
	gboolean inverted; /* icicle: the root on top */
	gboolean diff;	   /* the tree comes from ftl_flame_diff() */
	guint max_frames;  /* the most frames drawn (0: 12000); the minimum width grows to fit */
	gint64 origin;	   /* charts: time 0 of the axis (FTL_TS_NONE: the chart's start) */
	const FtlFlameMark *marks; /* charts: may be NULL */
	guint n_marks;
	const char *input_label; /* shown at the bottom; may be NULL */
	/* --color-by dir|file: a frame's colour is its function's group's (a
	 * stable colour per group name), with a legend of the groups drawn
	 * under the title; NULL: by name (colors). Not with diff. */
	FtlSourceMap *color_by;
} FtlFlameSvgOptions;

typedef struct {
	guint64 frames;	      /* frames drawn, merged boxes included */
	guint64 merged;	      /* "[N smaller calls]" boxes */
	guint64 merged_nodes; /* frames they stand for */
	guint64 vanished;     /* --diff: paths only in A */
	double minwidth_px;   /* the minimum width used */
	guint64 bytes;	      /* size of the document */
} FtlFlameSvgStats;

/* Writes the tree (finished; a chart when ftl_flame_is_chart()) to out.
 * FALSE with error when the data files cannot be read or writing fails. */
gboolean ftl_flame_svg_write(FtlFlame *f, const FtlFlameSvgOptions *opt, FILE *out,
			     FtlFlameSvgStats *stats, GError **error);
