/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The per-CPU timeline as SVG, streamed through libxml2's xmlTextWriter. */
#include "config.h"

#include <libxml/xmlwriter.h>
#include <math.h>
#include <string.h>

#include "util/datadir.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/timefmt.h"
#include "views/quality.h"
#include "views/svg-timeline.h"
#include "views/svg-writer.h"

enum { TL_LEFT = 110, TL_TOP = 78, TL_LANE = 18, TL_GAP = 4, TL_LEGEND = 12 };
/* A rectangle's bytes as written, with its hover attributes: the budget
 * that decides how wide a bin is. A tile is a finer copy of a quarter of
 * its parent's time range, TL_LEVELS levels at most (zoom 4^10). */
enum { TL_RECT_BYTES = 120, TL_MARKERS = 500, TL_TILE_BYTES = 200, TL_LEVELS = 10 };
/* Tiles of level 1 and finer are TL_SPLIT to the plot's width at their
 * zoom: small enough that one fits where the whole width would not. */
enum { TL_SPLIT = 8 };
/* Wakeup arrows kept (the longest latencies): about 150 bytes each. */
enum { TL_WAKEUPS = 4000 };

typedef enum { TL_RUN, TL_WAIT, TL_IRQ, TL_LOST } TlKind;

typedef struct {
	gint64 t0, t1;
	gint32 pid; /* RUN / WAIT: the task; -1 otherwise */
	gint32 cpu;
	guint8 kind;
} TlIv;

struct _FtlTimeline {
	FtlTimelineOptions opt;
	GArray *ivs;	   /* TlIv, in the order they ended */
	GHashTable *keys;  /* pid -> colour key + 1 */
	GArray *wakeups; /* FtlSchedWakeup with a waker CPU, at most 2 * TL_WAKEUPS */
	FtlCounterSteps *steps;
	const FtlCounters *counters; /* NULL: no counter lanes */
};

FtlTimeline *ftl_timeline_new(const FtlTimelineOptions *opt)
{
	FtlTimeline *tl = g_new0(FtlTimeline, 1);
	tl->opt = *opt;
	if (!tl->opt.width)
		tl->opt.width = 1200;
	if (!tl->opt.max_bytes)
		tl->opt.max_bytes = 5000000;
	tl->ivs = g_array_new(FALSE, FALSE, sizeof(TlIv));
	tl->keys = g_hash_table_new(NULL, NULL);
	tl->steps = ftl_counter_steps_new();
	tl->wakeups = g_array_new(FALSE, FALSE, sizeof(FtlSchedWakeup));
	return tl;
}

static int tl_wakeup_cmp(gconstpointer a, gconstpointer b)
{
	const FtlSchedWakeup *x = a, *y = b;
	if (x->latency != y->latency)
		return x->latency > y->latency ? -1 : 1;
	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

void ftl_timeline_add_wakeup(const FtlSchedWakeup *w, gpointer data)
{
	FtlTimeline *tl = data;
	if (w->waker_cpu < 0 || w->cpu < 0)
		return; /* no place to start the arrow, or to end it */
	g_array_append_val(tl->wakeups, *w);
	if (tl->wakeups->len >= 2 * TL_WAKEUPS) {
		g_array_sort(tl->wakeups, tl_wakeup_cmp);
		g_array_set_size(tl->wakeups, TL_WAKEUPS);
	}
}


void ftl_timeline_add_counter(const FtlCounterStep *st, gpointer data)
{
	FtlTimeline *tl = data;
	ftl_counter_steps_add(st, tl->steps);
}

void ftl_timeline_set_counters(FtlTimeline *tl, const FtlCounters *c)
{
	tl->counters = c;
}

static guint tl_n_counters(const FtlTimeline *tl)
{
	return tl->counters ? ftl_counters_n_tracks(tl->counters) : 0;
}


void ftl_timeline_free(FtlTimeline *tl)
{
	if (!tl)
		return;
	g_array_unref(tl->ivs);
	g_array_unref(tl->wakeups);
	ftl_counter_steps_free(tl->steps);
	g_hash_table_unref(tl->keys);
	g_free(tl);
}

void ftl_timeline_add(const FtlSchedInterval *iv, gpointer data)
{
	FtlTimeline *tl = data;
	TlIv t = { iv->t0, iv->t1, -1, iv->cpu, TL_RUN };
	switch (iv->kind) {
	case FTL_SCHED_IV_RUN:
		if (iv->pid == 0)
			return; /* idle stays empty */
		if (iv->pid < 0) {
			t.kind = TL_LOST; /* who ran after lost events is unknown */
		} else {
			t.pid = iv->pid;
		}
		break;
	case FTL_SCHED_IV_WAIT:
		t.kind = TL_WAIT;
		t.pid = iv->pid;
		break;
	case FTL_SCHED_IV_HARDIRQ:
	case FTL_SCHED_IV_SOFTIRQ:
		t.kind = TL_IRQ;
		break;
	case FTL_SCHED_IV_LOST:
		t.kind = TL_LOST;
		break;
	default:
		return; /* sleep is not drawn */
	}
	g_array_append_val(tl->ivs, t);
}

/* One lane as it is drawn: rectangles of at least the bin width as they
 * are, thinner ones summed into one rectangle per bin. Intervals are cut
 * to [lo, hi]; x counts from t0 (a tile's start), s from the window's
 * start. */
typedef struct {
	xmlTextWriterPtr w;
	gint64 origin; /* the window's start */
	gint64 t0;     /* x = 0 */
	gint64 lo, hi;
	double nspp;  /* ns per px */
	double bin;   /* px */
	const char *cls;
	guint64 rects;	/* counted (w NULL: count only, write nothing) */
	guint64 merged; /* of which bins */
	/* in a tile, the lane's group is opened at its first rectangle */
	gboolean tile, open;
	double y;
	/* the open bin */
	gint64 b_idx, b_ns, b_start, b_top_ns;
	guint b_n;
	gint32 b_top_pid;
	const char *b_cls; /* the kind of the longest interval in it */
} TlLane;

static void tl_rect(TlLane *l, const char *cls, gint32 key, double x, double wpx, gint64 s,
		    gint64 d)
{
	xmlTextWriterPtr w = l->w;
	l->rects++;
	if (!w)
		return;
	if (l->tile && !l->open) {
		xmlTextWriterStartElement(w, BAD_CAST "g");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(0,%.0f)", l->y);
		l->open = TRUE;
	}
	xmlTextWriterStartElement(w, BAD_CAST "rect");
	xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls);
	if (key >= 0)
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "k", "%d", key);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.3f", x);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.3f", wpx);
	/* interrupts: a hatched strip along the bottom of the lane */
	if (!strncmp(cls, "irq", 3))
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", TL_LANE - TL_LANE / 3);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%d",
					  !strncmp(cls, "irq", 3) ? TL_LANE / 3 : TL_LANE);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "s", "%" G_GINT64_FORMAT, s);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "d", "%" G_GINT64_FORMAT, d);
}

static gint32 tl_key(FtlTimeline *tl, gint32 pid)
{
	gpointer k = g_hash_table_lookup(tl->keys, GINT_TO_POINTER(pid));
	return k ? GPOINTER_TO_INT(k) - 1 : -1;
}

static void tl_bin_flush(FtlTimeline *tl, TlLane *l)
{
	if (!l->b_n)
		return;
	g_autofree char *cls = g_strdup_printf("%s bin", l->b_cls);
	l->merged++;
	tl_rect(l, !strcmp(l->b_cls, "run") ? "bin" : cls, tl_key(tl, l->b_top_pid),
		(double)l->b_idx * l->bin, l->bin, l->b_start, l->b_ns);
	/* how much of the bin the merged intervals fill */
	if (l->w)
		xmlTextWriterWriteFormatAttribute(l->w, BAD_CAST "fill-opacity", "%.3f",
					  MIN(1.0, (double)l->b_ns / (l->nspp * l->bin)));
	if (l->w) {
		xmlTextWriterWriteFormatAttribute(l->w, BAD_CAST "n", "%u", l->b_n);
		xmlTextWriterEndElement(l->w);
	}
	l->b_n = 0;
	l->b_ns = l->b_top_ns = 0;
}

static void tl_lane_put(FtlTimeline *tl, TlLane *l, const TlIv *iv)
{
	gint64 a = MAX(iv->t0, l->lo), b = MIN(iv->t1, l->hi);
	if (b < a)
		return;
	double x0 = (double)(a - l->t0) / l->nspp, x1 = (double)(b - l->t0) / l->nspp;
	if (x1 - x0 >= l->bin) {
		tl_rect(l, l->cls, iv->pid >= 0 ? tl_key(tl, iv->pid) : -1, x0, x1 - x0,
			iv->t0 - l->origin, iv->t1 - iv->t0);
		if (l->w)
			xmlTextWriterEndElement(l->w);
		return;
	}
	gint64 idx = (gint64)floor(x0 / l->bin);
	if (l->b_n && idx != l->b_idx)
		tl_bin_flush(tl, l);
	if (!l->b_n) {
		l->b_idx = idx;
		l->b_start = iv->t0 - l->origin;
		l->b_cls = l->cls;
	}
	l->b_n++;
	l->b_ns += b - a;
	if (b - a > l->b_top_ns) {
		l->b_top_ns = b - a;
		l->b_top_pid = iv->pid;
		l->b_cls = l->cls;
	}
}

static int tl_iv_cmp(gconstpointer a, gconstpointer b)
{
	const TlIv *x = a, *y = b;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* One lane's group: every interval that passes the filter, in time order.
 * In the picture at its coarsest the group is named (class and lane); in
 * a tile it is a bare group, left out when the lane is empty there. */
static void tl_lane(FtlTimeline *tl, TlLane *l, GArray *ivs, double y, const char *label,
		    const char *cls, gboolean (*pick)(const TlIv *, gint32), gint32 arg)
{
	xmlTextWriterPtr w = l->w;
	l->y = y;
	l->open = FALSE;
	if (w && !l->tile) {
		xmlTextWriterStartElement(w, BAD_CAST "g");
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls);
		xmlTextWriterWriteAttribute(w, BAD_CAST "lane", BAD_CAST label);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(0,%.0f)", y);
	}
	static const char *const names[] = { "run", "wait", "irq", "lost" };
	l->b_n = 0;
	for (guint i = 0; i < ivs->len; i++) {
		const TlIv *iv = &g_array_index(ivs, TlIv, i);
		if (!pick(iv, arg))
			continue;
		/* a task's bin holds running and runnable time, shown as the
		 * kind of its longest interval */
		l->cls = names[iv->kind];
		tl_lane_put(tl, l, iv);
	}
	tl_bin_flush(tl, l);
	if (w && (!l->tile || l->open))
		xmlTextWriterEndElement(w);
}

static gboolean pick_cpu_run(const TlIv *iv, gint32 cpu)
{
	return iv->cpu == cpu && iv->kind == TL_RUN;
}

static gboolean pick_cpu_irq(const TlIv *iv, gint32 cpu)
{
	return iv->cpu == cpu && iv->kind == TL_IRQ;
}

static gboolean pick_cpu_lost(const TlIv *iv, gint32 cpu)
{
	return iv->cpu == cpu && iv->kind == TL_LOST;
}

static gboolean pick_task(const TlIv *iv, gint32 pid)
{
	return iv->pid == pid && (iv->kind == TL_RUN || iv->kind == TL_WAIT);
}

/* Text from the trace: made visible (controls, bad UTF-8), then escaped as
 * markup by the writer. */
static void tl_text(xmlTextWriterPtr w, const char *cls, double x, double y, const char *s)
{
	g_autofree char *vis = ftl_escape(s ? s : "", -1);
	xmlTextWriterStartElement(w, BAD_CAST "text");
	if (cls)
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", y);
	xmlTextWriterWriteString(w, BAD_CAST vis);
	xmlTextWriterEndElement(w);
}

static void tl_line(xmlTextWriterPtr w, const char *cls, double x1, double y1, double x2,
		    double y2)
{
	xmlTextWriterStartElement(w, BAD_CAST "line");
	if (cls)
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST cls);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x1", "%.3f", x1);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y1", "%.1f", y1);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x2", "%.3f", x2);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y2", "%.1f", y2);
	xmlTextWriterEndElement(w);
}

static int task_run_cmp(gconstpointer a, gconstpointer b)
{
	const FtlSchedTask *x = *(FtlSchedTask *const *)a, *y = *(FtlSchedTask *const *)b;
	if (x->run_ns != y->run_ns)
		return x->run_ns > y->run_ns ? -1 : 1;
	return x->pid - y->pid;
}

/* Tasks by run time, longest first; colour keys in that order, so the
 * busiest get the first (most distinct) colours. */
static GPtrArray *tl_rank(FtlTimeline *tl, const FtlSchedScope *sc)
{
	GPtrArray *by = g_ptr_array_new();
	for (guint i = 0; i < sc->n_tasks; i++)
		g_ptr_array_add(by, &sc->tasks[i]);
	g_ptr_array_sort(by, task_run_cmp);
	for (guint i = 0; i < by->len; i++)
		g_hash_table_insert(tl->keys,
				    GINT_TO_POINTER(((FtlSchedTask *)by->pdata[i])->pid),
				    GINT_TO_POINTER(i + 1));
	return by;
}

/* Colours by rank: hues a golden angle apart, so that the busiest tasks,
 * threads of one program included, are the most distinct, and lightness
 * in three steps, so that hues that come round again still differ. */
static void tl_style(xmlTextWriterPtr w, GPtrArray *ranked, const char *css)
{
	g_autoptr(GString) s = g_string_new(css);
	for (guint i = 0; i < ranked->len; i++) {
		guint h = (guint)fmod(i * 137.508, 360.0);
		guint sat = 70 - (i / 3 % 3) * 12, light = 48 + (i % 3) * 11;
		g_string_append_printf(s, "rect[k=\"%u\"]{fill:hsl(%u,%u%%,%u%%)}\n", i, h, sat, light);
		g_string_append_printf(s, "rect.wait[k=\"%u\"]{fill:none;stroke:hsl(%u,60%%,40%%)}\n",
				       i, h);
	}
	xmlTextWriterStartElement(w, BAD_CAST "style");
	xmlTextWriterWriteCDATA(w, BAD_CAST s->str);
	xmlTextWriterEndElement(w);
}

static const char tl_css[] =
	"text{font:11px sans-serif;user-select:none}.title{font-size:15px}.small{fill:#555}\n"
	"rect.run,rect.bin{stroke:none}rect.wait{stroke-width:1;vector-effect:non-scaling-stroke}\n"
	"rect.irq{fill:url(#hatch)}rect.lost{fill:#f88;fill-opacity:.45}\n"
	"rect.nodata{fill:#ccc;fill-opacity:.6}rect.lanebg{fill:#f4f4f4}\n"
	"rect.tilebg{fill:#fff}\n"
	"rect.ctr{stroke:none}rect.freq{fill:#3a7}rect.idle{fill:#79c}rect.thermal{fill:#d63}\n"
	"rect.power{fill:#a6c}rect.user{fill:#777}\n"
	"line.wake{stroke:#c00;stroke-width:1.5;vector-effect:non-scaling-stroke;"
	"marker-end:url(#arrow)}\n"
	"line.marker{stroke:#00c;stroke-width:1;vector-effect:non-scaling-stroke}\n"
	"line{pointer-events:none}line.tick{stroke:#999;stroke-opacity:.5}\n"
	"#cursor{stroke:#888}\n";

static void tl_defs(xmlTextWriterPtr w, double plot_h)
{
	xmlTextWriterStartElement(w, BAD_CAST "defs");
	xmlTextWriterStartElement(w, BAD_CAST "pattern");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "hatch");
	xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "4");
	xmlTextWriterWriteAttribute(w, BAD_CAST "height", BAD_CAST "4");
	xmlTextWriterWriteAttribute(w, BAD_CAST "patternUnits", BAD_CAST "userSpaceOnUse");
	xmlTextWriterStartElement(w, BAD_CAST "path");
	xmlTextWriterWriteAttribute(w, BAD_CAST "d", BAD_CAST "M0,4 L4,0");
	xmlTextWriterWriteAttribute(w, BAD_CAST "stroke", BAD_CAST "#000");
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
	/* the wakeup arrows' head */
	xmlTextWriterStartElement(w, BAD_CAST "marker");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "arrow");
	xmlTextWriterWriteAttribute(w, BAD_CAST "viewBox", BAD_CAST "0 0 10 10");
	xmlTextWriterWriteAttribute(w, BAD_CAST "refX", BAD_CAST "10");
	xmlTextWriterWriteAttribute(w, BAD_CAST "refY", BAD_CAST "5");
	xmlTextWriterWriteAttribute(w, BAD_CAST "markerWidth", BAD_CAST "6");
	xmlTextWriterWriteAttribute(w, BAD_CAST "markerHeight", BAD_CAST "6");
	xmlTextWriterWriteAttribute(w, BAD_CAST "orient", BAD_CAST "auto");
	xmlTextWriterStartElement(w, BAD_CAST "path");
	xmlTextWriterWriteAttribute(w, BAD_CAST "d", BAD_CAST "M0,0 L10,5 L0,10 z");
	xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "#c00");
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
	xmlTextWriterStartElement(w, BAD_CAST "clipPath");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "clip");
	xmlTextWriterStartElement(w, BAD_CAST "rect");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%d", TL_LEFT);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", TL_TOP - 14);
	xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "100%");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.0f", plot_h + 14);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
}

/* The title lines: input, window, what is shaded and why. */
static void tl_heading(xmlTextWriterPtr w, const FtlTimelineOptions *o, const FtlSchedScope *sc,
		       double bin)
{
	char a[40], b[40], n[32];
	g_autofree char *title = g_strdup_printf("ftlens timeline: %s", o->input ? o->input : "");
	tl_text(w, "title", 10, 20, title);
	gint64 lost = 0;
	for (guint i = 0; i < sc->n_cpus; i++)
		lost = ftl_lost_sum(lost, sc->cpus[i].lost_events);
	g_autofree char *line = g_strdup_printf(
		"window %s .. %s (%s), %u CPUs; %s events lost (red); grey: before a CPU's first "
		"event; hatched: interrupts; intervals under %.0f px merged per bin (zoom in for "
		"finer ones)",
		ftl_time_format_ns(sc->t0, a, sizeof a), ftl_time_format_ns(sc->t1, b, sizeof b),
		ftl_duration_format(sc->t1 - sc->t0, (char[40]){ 0 }, 40), sc->n_cpus,
		ftl_lost_format(lost, n, sizeof n), bin);
	tl_text(w, "small", 10, 36, line);
	xmlTextWriterStartElement(w, BAD_CAST "text");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "details");
	xmlTextWriterWriteAttribute(w, BAD_CAST "x", BAD_CAST "10");
	xmlTextWriterWriteAttribute(w, BAD_CAST "y", BAD_CAST "52");
	xmlTextWriterWriteString(w, BAD_CAST " ");
	xmlTextWriterEndElement(w);
}

/* A round tick step for a span: 1, 2 or 5 times a power of ten ns, about
 * ten ticks across. */
static double tl_tick_step(double span_ns)
{
	double raw = MAX(span_ns / 10.0, 1.0), p = pow(10.0, floor(log10(raw)));
	double m = raw / p;
	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* A tick value in the largest unit not above the range's end (top), with
 * the decimals the step needs: "10 ms", "2.5 us", "6.7792 s" (timeline.js
 * labels the same way). */
static char *tl_tick_label(double v, double step, double top)
{
	static const struct {
		double ns;
		const char *unit;
	} units[] = { { 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" } };
	guint u = 0;
	while (u < 3 && top < units[u].ns)
		u++;
	int dec = (int)MAX(0.0, ceil(-log10(step / units[u].ns) - 1e-9));
	return g_strdup_printf("%.*f %s", dec, v / units[u].ns, units[u].unit);
}

/* Time ticks along the top at round values from the window's start, in a
 * group that timeline.js redraws for the range in view. */
static void tl_ticks(xmlTextWriterPtr w, const FtlSchedScope *sc, double pw, double plot_h)
{
	double span = (double)(sc->t1 - sc->t0), step = tl_tick_step(span);
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "axis");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "h", "%.0f", plot_h);
	for (double v = 0; v <= span + step * 1e-9; v += step) {
		double x = TL_LEFT + pw * v / span;
		g_autofree char *label = tl_tick_label(v, step, span);
		tl_line(w, "tick", x, TL_TOP - 4, x, TL_TOP + plot_h);
		tl_text(w, "small", x + 2, TL_TOP - 6, label);
	}
	xmlTextWriterEndElement(w);
}

static void tl_markers(xmlTextWriterPtr w, const FtlMarkers *m, gint64 t0, double nspp,
		       double plot_h)
{
	guint n = m ? ftl_markers_count(m) : 0, drawn = 0;
	for (guint i = 0; i < n && drawn < TL_MARKERS; i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		if (mk->ts == FTL_TS_NONE)
			continue;
		double x = (double)(mk->ts - t0) / nspp;
		tl_line(w, "marker", x, TL_TOP, x, TL_TOP + plot_h);
		drawn++;
	}
}

/* Marker labels stay outside the zoomed group, so that text is not
 * stretched: the first TL_MARKERS at their unzoomed place, on three rows,
 * a label hidden where it would overlap the one before it on its row.
 * Each carries its time (t, ns from the window's start) for timeline.js
 * to lay them out again for the range in view. */
static void tl_marker_labels(xmlTextWriterPtr w, const FtlMarkers *m, gint64 t0, double nspp,
			     double plot_h)
{
	guint n = m ? ftl_markers_count(m) : 0, drawn = 0;
	double end[3] = { 0, 0, 0 };
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "mlabels");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", TL_TOP + plot_h + 12);
	for (guint i = 0; i < n && drawn < TL_MARKERS; i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		if (mk->ts == FTL_TS_NONE)
			continue;
		drawn++;
		double x = TL_LEFT + (double)(mk->ts - t0) / nspp + 2;
		guint row = 0;
		while (row < 3 && end[row] > x)
			row++;
		g_autofree char *vis = ftl_escape(mk->text, -1);
		g_autofree char *cut = g_utf8_substring(vis, 0, MIN(g_utf8_strlen(vis, -1), 40));
		/* ~6 px per character at 11 px sans */
		if (row < 3)
			end[row] = x + 6.0 * (double)g_utf8_strlen(cut, -1) + 6;
		xmlTextWriterStartElement(w, BAD_CAST "text");
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "marker small");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "t", "%" G_GINT64_FORMAT, mk->ts - t0);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f",
						  TL_TOP + plot_h + 12 + MIN(row, 2) * 11);
		if (row == 3)
			xmlTextWriterWriteAttribute(w, BAD_CAST "display", BAD_CAST "none");
		xmlTextWriterWriteString(w, BAD_CAST cut);
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
	if (n > TL_MARKERS)
		tl_text(w, "small", TL_LEFT, TL_TOP + plot_h + 48,
			"(more markers than shown: the first 500 are drawn)");
}

static void tl_legend(xmlTextWriterPtr w, GPtrArray *ranked, double y)
{
	tl_text(w, NULL, 10, y, "busiest:");
	for (guint i = 0; i < ranked->len && i < TL_LEGEND; i++) {
		const FtlSchedTask *t = ranked->pdata[i];
		double x = 70 + (i % 4) * 260, yy = y + (i / 4) * 16;
		char dur[40];
		xmlTextWriterStartElement(w, BAD_CAST "rect");
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "run");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "k", "%u", i);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.0f", x);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.0f", yy - 10);
		xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "12");
		xmlTextWriterWriteAttribute(w, BAD_CAST "height", BAD_CAST "12");
		xmlTextWriterEndElement(w);
		g_autofree char *label = g_strdup_printf(
			"%s-%d %s", t->comm ? t->comm : "?", t->pid,
			ftl_duration_format(t->run_ns, dur, sizeof dur));
		tl_text(w, NULL, x + 16, yy, label);
	}
}

/* The task names the script shows on hover, by colour key. */
static void tl_task_names(xmlTextWriterPtr w, GPtrArray *ranked)
{
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "tasks");
	xmlTextWriterWriteAttribute(w, BAD_CAST "display", BAD_CAST "none");
	for (guint i = 0; i < ranked->len; i++) {
		const FtlSchedTask *t = ranked->pdata[i];
		g_autofree char *vis = ftl_escape(t->comm ? t->comm : "?", -1);
		g_autofree char *name = g_strdup_printf("%s-%d", vis, t->pid);
		xmlTextWriterStartElement(w, BAD_CAST "text");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "k", "%u", i);
		xmlTextWriterWriteString(w, BAD_CAST name);
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

/* The task lanes asked for: by pid, or the top N by run time. */
static GArray *tl_task_lanes(const FtlTimeline *tl, GPtrArray *ranked)
{
	GArray *pids = g_array_new(FALSE, FALSE, sizeof(gint32));
	if (tl->opt.pids)
		g_array_append_vals(pids, tl->opt.pids->data, tl->opt.pids->len);
	for (guint i = 0; i < ranked->len && i < tl->opt.top; i++)
		g_array_append_val(pids, ((FtlSchedTask *)ranked->pdata[i])->pid);
	return pids;
}

/* A lane's name at its left: "CPU n", or a task as comm-pid, cut to the
 * margin (the whole name on hover). */
static void tl_lane_label(xmlTextWriterPtr w, double y, const char *label)
{
	g_autofree char *vis = ftl_escape(label, -1);
	glong len = g_utf8_strlen(vis, -1);
	g_autofree char *cut = len > 16 ? g_utf8_substring(vis, 0, 15) : g_strdup(vis);
	xmlTextWriterStartElement(w, BAD_CAST "text");
	xmlTextWriterWriteAttribute(w, BAD_CAST "x", BAD_CAST "6");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", (int)y + TL_LANE - 5);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "class", "lanename");
	xmlTextWriterWriteString(w, BAD_CAST cut);
	if (len > 16)
		xmlTextWriterWriteString(w, BAD_CAST "\xe2\x80\xa6");
	xmlTextWriterStartElement(w, BAD_CAST "title");
	xmlTextWriterWriteString(w, BAD_CAST vis);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
}

/* A task lane's name: comm-pid (the comm last seen), or "task pid". */
static char *tl_task_name(const FtlSchedScope *sc, gint32 pid)
{
	for (guint i = 0; i < sc->n_tasks; i++)
		if (sc->tasks[i].pid == pid && sc->tasks[i].comm)
			return g_strdup_printf("%s-%d", sc->tasks[i].comm, pid);
	return g_strdup_printf("task %d", pid);
}

static double tl_lane_y(const FtlSchedScope *sc, guint lane)
{
	return TL_TOP + lane * (TL_LANE + TL_GAP) + (lane >= sc->n_cpus ? TL_GAP : 0);
}

/* A counter's bar height in the lane: its value from 0 (the track's
 * least when negative, cpu_idle's -1: out of idle has none) to the
 * track's greatest. */
static double tl_counter_h(const FtlCounterTrack *tr, gint64 v)
{
	if (tr->kind == FTL_COUNTER_IDLE && v < 0)
		return 0;
	gint64 lo = tr->kind == FTL_COUNTER_IDLE ? -1 : MIN(tr->min, 0);
	if (tr->max <= lo)
		return TL_LANE;
	return 2 + (double)(TL_LANE - 2) * (double)(v - lo) / (double)(tr->max - lo);
}

static void tl_counter_rect(TlLane *l, const FtlCounterTrack *tr, double x, double wpx, gint64 t0,
			    gint64 d, gint64 v, guint n)
{
	double h = tl_counter_h(tr, v);
	l->rects++;
	if (!l->w || h <= 0)
		return;
	xmlTextWriterPtr w = l->w;
	if (l->tile && !l->open) {
		xmlTextWriterStartElement(w, BAD_CAST "g");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(0,%.0f)", l->y);
		l->open = TRUE;
	}
	xmlTextWriterStartElement(w, BAD_CAST "rect");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "class", "ctr %s",
					  ftl_counter_kind_name(tr->kind));
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.3f", x);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.3f", wpx);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.2f", TL_LANE - h);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.2f", h);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "s", "%" G_GINT64_FORMAT, t0 - l->origin);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "d", "%" G_GINT64_FORMAT, d);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "v", "%" G_GINT64_FORMAT, v);
	if (n > 1)
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "n", "%u", n);
	xmlTextWriterEndElement(w);
}

/* One counter track's lane: its steps cut to [lo, hi]; steps thinner than
 * the bin are drawn as one bar per bin at the highest value in it. */
static void tl_counter_lane(FtlTimeline *tl, TlLane *l, const FtlCounterTrack *tr, double y)
{
	xmlTextWriterPtr w = l->w;
	l->y = y;
	l->open = FALSE;
	if (w && !l->tile) {
		xmlTextWriterStartElement(w, BAD_CAST "g");
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "counter");
		xmlTextWriterWriteAttribute(w, BAD_CAST "lane", BAD_CAST tr->event);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(0,%.0f)", y);
	}
	gint64 b_idx = -1, b_t0 = 0, b_t1 = 0, b_v = 0;
	guint b_n = 0;
	guint n;
	const FtlCounterStep *steps = ftl_counter_steps_from(tl->steps, tr->index, l->lo, &n);
	for (guint i = 0; i < n && steps[i].t0 <= l->hi; i++) {
		const FtlCounterStep *st = &steps[i];
		gint64 a = MAX(st->t0, l->lo), b = MIN(st->t1, l->hi);
		if (b < a)
			continue;
		double x0 = (double)(a - l->t0) / l->nspp, x1 = (double)(b - l->t0) / l->nspp;
		if (x1 - x0 >= l->bin) {
			tl_counter_rect(l, tr, x0, x1 - x0, st->t0, st->t1 - st->t0, st->value, 1);
			continue;
		}
		gint64 idx = (gint64)floor(x0 / l->bin);
		if (b_n && idx != b_idx) {
			tl_counter_rect(l, tr, (double)b_idx * l->bin, l->bin, b_t0, b_t1 - b_t0, b_v,
					b_n);
			b_n = 0;
		}
		if (!b_n) {
			b_idx = idx;
			b_t0 = st->t0;
			b_v = st->value;
		}
		b_n++;
		b_t1 = st->t1;
		b_v = MAX(b_v, st->value);
	}
	if (b_n)
		tl_counter_rect(l, tr, (double)b_idx * l->bin, l->bin, b_t0, b_t1 - b_t0, b_v, b_n);
	if (w && (!l->tile || l->open))
		xmlTextWriterEndElement(w);
}

/* Every lane from ivs (sorted by start). */
static void tl_lanes(FtlTimeline *tl, TlLane *l, const FtlSchedScope *sc, GArray *pids,
		     GArray *ivs)
{
	for (guint c = 0; c < sc->n_cpus; c++) {
		char label[32];
		double y = tl_lane_y(sc, c);
		g_snprintf(label, sizeof label, "CPU %u", c);
		tl_lane(tl, l, ivs, y, label, "cpu", pick_cpu_run, (gint32)c);
		tl_lane(tl, l, ivs, y, label, "cpuirq", pick_cpu_irq, (gint32)c);
		tl_lane(tl, l, ivs, y, label, "cpulost", pick_cpu_lost, (gint32)c);
	}
	for (guint i = 0; i < pids->len; i++) {
		gint32 pid = g_array_index(pids, gint32, i);
		char label[32];
		g_snprintf(label, sizeof label, "task %d", pid);
		tl_lane(tl, l, ivs, tl_lane_y(sc, sc->n_cpus + i), label, "task", pick_task, pid);
	}
	/* counters in the coarsest picture only: their steps are drawn as they
	 * are, not merged, so a zoom of it shows them (tiles leave them be) */
	for (guint k = 0; !l->tile && k < tl_n_counters(tl); k++)
		tl_counter_lane(tl, l, ftl_counters_track(tl->counters, k),
				tl_lane_y(sc, sc->n_cpus + pids->len + k) + TL_GAP);
}

/* A tile: level 0 is the window; level 1 splits it into 4 * TL_SPLIT
 * tiles; every finer tile is a quarter of its parent's time range. A tile
 * of level L has bins of one px at a zoom of 4^L. Tiles are written, a
 * level at a time, where the coarser picture merged intervals and while
 * the size bound allows; timeline.js shows the finest that the zoom
 * needs. */
typedef struct {
	guint level;
	gint64 idx;	  /* 0 .. TL_SPLIT * 4^level - 1 from the window's start */
	GArray *ivs;	  /* TlIv that overlap it, by start */
	guint64 rects, merged;
} TlTile;

typedef struct {
	FtlTimeline *tl;
	const FtlSchedScope *sc;
	GArray *pids;
	FtlSvgWriter *sw;
	guint64 limit; /* bytes the tiles may reach */
	double plot_h; /* the lanes that tiles cover: CPUs and tasks, not counters */
} TlTiling;

/* How many tiles of a level span the window. */
static double tl_tile_n(guint level)
{
	return level ? TL_SPLIT * ldexp(1.0, 2 * (int)level) : 1;
}

static void tl_tile_lane(TlTiling *t, const TlTile *tile, TlLane *l, xmlTextWriterPtr w)
{
	double window = (double)(t->sc->t1 - t->sc->t0), span = window / tl_tile_n(tile->level);
	*l = (TlLane){ 0 };
	l->w = w;
	l->tile = TRUE;
	l->origin = t->sc->t0;
	l->t0 = t->sc->t0 + (gint64)floor(span * (double)tile->idx);
	l->lo = l->t0;
	l->hi = t->sc->t0 + (gint64)ceil(span * (double)(tile->idx + 1));
	l->nspp = window / ldexp(1.0, 2 * (int)tile->level) / t->tl->opt.width;
	l->bin = 1;
}

static void tl_tile_count(TlTiling *t, TlTile *tile)
{
	TlLane l;
	tl_tile_lane(t, tile, &l, NULL);
	tl_lanes(t->tl, &l, t->sc, t->pids, tile->ivs);
	tile->rects = l.rects;
	tile->merged = l.merged;
}

static void tl_tile_write(TlTiling *t, const TlTile *tile)
{
	xmlTextWriterPtr w = t->sw->w;
	double z = ldexp(1.0, 2 * (int)tile->level), pw = t->tl->opt.width;
	TlLane l;
	tl_tile_lane(t, tile, &l, w);
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "tile");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "l", "%u", tile->level);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "i", "%" G_GINT64_FORMAT, tile->idx);
	xmlTextWriterWriteAttribute(w, BAD_CAST "display", BAD_CAST "none");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(%.9g,0) scale(%.9g,1)",
					  pw * (double)tile->idx / tl_tile_n(tile->level), 1.0 / z);
	xmlTextWriterStartElement(w, BAD_CAST "rect");
	xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "tilebg");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%d", TL_TOP);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%.3f", pw / TL_SPLIT);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.0f", t->plot_h);
	xmlTextWriterEndElement(w);
	tl_lanes(t->tl, &l, t->sc, t->pids, tile->ivs);
	xmlTextWriterEndElement(w);
}

static gint64 tl_tile_first(const TlTile *c, guint n, gint64 idx)
{
	guint lo = 0, hi = n;
	while (lo < hi) {
		guint mid = (lo + hi) / 2;
		if (c[mid].idx < idx)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The children of parents (sorted by idx), each with the intervals that
 * overlap it: one walk over the intervals. */
static GArray *tl_tile_children(TlTiling *t, GArray *parents, guint level)
{
	GArray *kids = g_array_new(FALSE, TRUE, sizeof(TlTile));
	gint64 per = level == 1 ? 4 * TL_SPLIT : 4;
	for (guint p = 0; p < parents->len; p++)
		for (gint64 q = 0; q < per; q++) {
			TlTile c = { level, g_array_index(parents, TlTile, p).idx * per + q,
				     g_array_new(FALSE, FALSE, sizeof(TlIv)), 0, 0 };
			g_array_append_val(kids, c);
		}
	double span = (double)(t->sc->t1 - t->sc->t0) / tl_tile_n(level);
	gint64 last_tile = (gint64)tl_tile_n(level) - 1;
	TlTile *c = (TlTile *)(void *)kids->data;
	for (guint i = 0; i < t->tl->ivs->len; i++) {
		const TlIv *iv = &g_array_index(t->tl->ivs, TlIv, i);
		gint64 a = CLAMP((gint64)floor((double)(iv->t0 - t->sc->t0) / span), 0, last_tile);
		gint64 b = CLAMP((gint64)floor((double)(iv->t1 - t->sc->t0) / span), 0, last_tile);
		for (guint k = (guint)tl_tile_first(c, kids->len, a); k < kids->len && c[k].idx <= b;
		     k++)
			g_array_append_val(c[k].ivs, *iv);
	}
	for (guint k = 0; k < kids->len; k++)
		tl_tile_count(t, &c[k]);
	return kids;
}

static int tl_tile_merged_cmp(gconstpointer a, gconstpointer b)
{
	const TlTile *x = a, *y = b;
	if (x->merged != y->merged)
		return x->merged > y->merged ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int tl_tile_idx_cmp(gconstpointer a, gconstpointer b)
{
	const TlTile *x = a, *y = b;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Of the children, those that fit, most merged first, written; the
 * written ones that still merge become the next level's parents. A tile
 * paints its range white first: where a child was written it covers its
 * parent, elsewhere the parent shows. */
static GArray *tl_tile_level(TlTiling *t, GArray *kids)
{
	g_array_sort(kids, tl_tile_merged_cmp);
	GArray *next = g_array_new(FALSE, TRUE, sizeof(TlTile));
	for (guint k = 0; k < kids->len; k++) {
		const TlTile *c = &g_array_index(kids, TlTile, k);
		guint64 cost = c->rects * TL_RECT_BYTES + TL_TILE_BYTES;
		xmlTextWriterFlush(t->sw->w);
		if (t->sw->bytes + cost > t->limit)
			continue;
		tl_tile_write(t, c);
		if (c->merged) {
			TlTile keep = { c->level, c->idx, NULL, 0, c->merged };
			g_array_append_val(next, keep);
		}
	}
	g_array_sort(next, tl_tile_idx_cmp);
	return next;
}

/* Levels 1 .. TL_LEVELS below the coarsest picture while tiles fit and a
 * px is still at least a ns. */
static void tl_tiles(TlTiling *t, guint64 merged0)
{
	g_autoptr(GArray) parents = g_array_new(FALSE, TRUE, sizeof(TlTile));
	TlTile root = { 0, 0, NULL, 0, merged0 };
	if (merged0)
		g_array_append_val(parents, root);
	for (guint level = 1; level <= TL_LEVELS && parents->len; level++) {
		double span = (double)(t->sc->t1 - t->sc->t0) / ldexp(1.0, 2 * (int)level);
		if (span / t->tl->opt.width < 1.0) /* less than a ns per px */
			break;
		g_autoptr(GArray) kids = tl_tile_children(t, parents, level);
		GArray *next = tl_tile_level(t, kids);
		for (guint k = 0; k < kids->len; k++)
			g_array_unref(g_array_index(kids, TlTile, k).ivs);
		g_array_unref(parents);
		parents = next;
	}
}

/* The wakeup arrows, hidden: timeline.js shows the one that ends where a
 * clicked running interval starts (its CPU lane and time). */
static void tl_wakeups(FtlTimeline *tl, xmlTextWriterPtr w, const FtlSchedScope *sc, double nspp)
{
	g_array_sort(tl->wakeups, tl_wakeup_cmp);
	if (tl->wakeups->len > TL_WAKEUPS)
		g_array_set_size(tl->wakeups, TL_WAKEUPS);
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "wakeups");
	for (guint i = 0; i < tl->wakeups->len; i++) {
		const FtlSchedWakeup *wk = &g_array_index(tl->wakeups, FtlSchedWakeup, i);
		if ((guint)wk->cpu >= sc->n_cpus || (guint)wk->waker_cpu >= sc->n_cpus)
			continue;
		xmlTextWriterStartElement(w, BAD_CAST "line");
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "wake");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x1", "%.3f",
						  (double)(wk->wake_ts - sc->t0) / nspp);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y1", "%.0f",
						  tl_lane_y(sc, (guint)wk->waker_cpu) + TL_LANE / 2);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x2", "%.3f",
						  (double)(wk->ts - sc->t0) / nspp);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y2", "%.0f",
						  tl_lane_y(sc, (guint)wk->cpu) + TL_LANE / 2);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "c", "%d", wk->cpu);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "s", "%" G_GINT64_FORMAT,
						  wk->ts - sc->t0);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "ws", "%" G_GINT64_FORMAT,
						  wk->wake_ts - sc->t0);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "wp", "%d", wk->waker_pid);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "p", "%d", wk->pid);
		xmlTextWriterWriteAttribute(w, BAD_CAST "display", BAD_CAST "none");
		xmlTextWriterEndElement(w);
	}
	xmlTextWriterEndElement(w);
}

/* The plot: per-CPU lanes, then task lanes, the coarsest picture (tile
 * 0 of level 0) and the finer tiles; inside the zoomed group. */
static void tl_plot(FtlTimeline *tl, TlLane *l, TlTiling *t, const FtlMarkers *m, double plot_h)
{
	const FtlSchedScope *sc = t->sc;
	xmlTextWriterPtr w = l->w;
	double pw = tl->opt.width;
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "clip-path", BAD_CAST "url(#clip)");
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "plot");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(%d,0)", TL_LEFT);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x0", "%d", TL_LEFT);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "pw", "%.0f", pw);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "t0", "%" G_GINT64_FORMAT, sc->t0);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "nspp", "%.6f", l->nspp);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "split", "%d", TL_SPLIT);
	xmlTextWriterStartElement(w, BAD_CAST "g");
	xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "tile");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "base");
	xmlTextWriterWriteAttribute(w, BAD_CAST "l", BAD_CAST "0");
	xmlTextWriterWriteAttribute(w, BAD_CAST "i", BAD_CAST "0");
	l->merged = 0;
	tl_lanes(tl, l, sc, t->pids, tl->ivs);
	xmlTextWriterEndElement(w);
	tl_tiles(t, l->merged);
	for (guint c = 0; c < sc->n_cpus; c++) {
		const FtlSchedCpu *cpu = &sc->cpus[c];
		/* the data-quality window: before the CPU's first event, unknown */
		if (cpu->t1 > cpu->t0 && cpu->t0 > sc->t0) {
			xmlTextWriterStartElement(w, BAD_CAST "g");
			xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(0,%.0f)",
							  tl_lane_y(sc, c));
			tl_rect(l, "nodata", -1, 0, (double)(cpu->t0 - sc->t0) / l->nspp, 0,
				cpu->t0 - sc->t0);
			xmlTextWriterEndElement(w);
			xmlTextWriterEndElement(w);
		}
	}
	tl_markers(w, m, sc->t0, l->nspp, plot_h);
	tl_wakeups(tl, w, sc, l->nspp);
	xmlTextWriterEndElement(w);
	xmlTextWriterEndElement(w);
}

static gboolean tl_script(xmlTextWriterPtr w, GError **error)
{
	g_autofree char *js = ftl_datadir_read("timeline.js", NULL, error);
	if (!js)
		return FALSE;
	xmlTextWriterStartElement(w, BAD_CAST "script");
	xmlTextWriterWriteAttribute(w, BAD_CAST "type", BAD_CAST "text/ecmascript");
	/* CDATA: timeline.js holds no "]]>" */
	xmlTextWriterWriteCDATA(w, BAD_CAST js);
	xmlTextWriterEndElement(w);
	return TRUE;
}

/* The bytes the rectangles may take: the size bound less room for the
 * rest of the picture. */
static double tl_budget(const FtlTimeline *tl, const FtlSchedScope *sc)
{
	return (double)tl->opt.max_bytes * 0.85 - 200.0 * (sc->n_tasks + TL_MARKERS);
}

/* The bin width in px of the coarsest picture: 1, doubled until its
 * rectangles, counted in a dry run, fit half the budget (the other half
 * is for the tiles). */
static double tl_bin_px(FtlTimeline *tl, TlLane *l, const FtlSchedScope *sc, GArray *pids)
{
	double budget = tl_budget(tl, sc) / 2;
	for (l->bin = 1;; l->bin *= 2) {
		TlLane dry = *l;
		dry.w = NULL;
		dry.rects = 0;
		tl_lanes(tl, &dry, sc, pids, tl->ivs);
		if ((double)dry.rects * TL_RECT_BYTES <= budget || l->bin >= tl->opt.width)
			return l->bin;
	}
}

/* The lane names at the left. */
static void tl_lane_names(const FtlTimeline *tl, xmlTextWriterPtr w, const FtlSchedScope *sc,
			  GArray *pids)
{
	for (guint c = 0; c < sc->n_cpus + pids->len; c++) {
		g_autofree char *label =
			c < sc->n_cpus ? g_strdup_printf("CPU %u", c)
				       : tl_task_name(sc, g_array_index(pids, gint32, c - sc->n_cpus));
		tl_lane_label(w, tl_lane_y(sc, c), label);
	}
	/* "freq cpu 0", "thermal exynos-therm": the key is text from the trace */
	for (guint k = 0; k < tl_n_counters(tl); k++) {
		const FtlCounterTrack *tr = ftl_counters_track(tl->counters, k);
		g_autofree char *label =
			g_strdup_printf("%s %s", ftl_counter_kind_name(tr->kind), tr->key);
		tl_lane_label(w, tl_lane_y(sc, sc->n_cpus + pids->len + k) + TL_GAP, label);
	}
}

gboolean ftl_timeline_write(FtlTimeline *tl, const FtlSched *s, const FtlMarkers *m, FILE *out,
			    GError **error)
{
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	if (sc->t0 == FTL_TS_NONE || sc->t1 <= sc->t0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "timeline: the trace has no timed events to draw");
		return FALSE;
	}
	g_array_sort(tl->ivs, tl_iv_cmp);
	if (tl->counters)
		ftl_counter_steps_seal(tl->steps, tl->counters);
	g_autoptr(GPtrArray) ranked = tl_rank(tl, sc);
	g_autoptr(GArray) pids = tl_task_lanes(tl, ranked);
	guint lanes = sc->n_cpus + pids->len + tl_n_counters(tl);
	double plot_h = lanes * (TL_LANE + TL_GAP) + (pids->len ? TL_GAP : 0) +
			(tl_n_counters(tl) ? TL_GAP : 0);
	double height = TL_TOP + plot_h + 60 + ((MIN(ranked->len, TL_LEGEND) + 3) / 4) * 16 + 10;
	TlLane l = { 0 };
	l.origin = l.t0 = l.lo = sc->t0;
	l.hi = sc->t1;
	l.nspp = (double)(sc->t1 - sc->t0) / tl->opt.width;
	tl_bin_px(tl, &l, sc, pids);

	g_autoptr(FtlSvgWriter) sw = ftl_svg_writer_new(out, error);
	if (!sw) {
		g_prefix_error(error, "timeline: ");
		return FALSE;
	}
	xmlTextWriterPtr w = l.w = sw->w;
	xmlTextWriterStartElement(w, BAD_CAST "svg");
	xmlTextWriterWriteAttribute(w, BAD_CAST "xmlns", BAD_CAST "http://www.w3.org/2000/svg");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "width", "%u", tl->opt.width + TL_LEFT + 60);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "height", "%.0f", height);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "viewBox", "0 0 %u %.0f", tl->opt.width + TL_LEFT + 60,
					  height);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "lane-height", "%d", TL_LANE);
	tl_style(w, ranked, tl_css);
	tl_defs(w, plot_h);
	xmlTextWriterStartElement(w, BAD_CAST "rect");
	xmlTextWriterWriteAttribute(w, BAD_CAST "width", BAD_CAST "100%");
	xmlTextWriterWriteAttribute(w, BAD_CAST "height", BAD_CAST "100%");
	xmlTextWriterWriteAttribute(w, BAD_CAST "fill", BAD_CAST "#fff");
	xmlTextWriterEndElement(w);
	tl_heading(w, &tl->opt, sc, l.bin);
	tl_lane_names(tl, w, sc, pids);
	xmlTextWriterFlush(w);
	double tiles_h = plot_h - tl_n_counters(tl) * (TL_LANE + TL_GAP) - (tl_n_counters(tl) ? TL_GAP : 0);
	TlTiling t = { tl, sc, pids, sw, sw->bytes + (guint64)MAX(0.0, tl_budget(tl, sc)), tiles_h };
	tl_plot(tl, &l, &t, m, plot_h);
	tl_ticks(w, sc, tl->opt.width, plot_h); /* the grid over the tiles' white */
	tl_marker_labels(w, m, sc->t0, l.nspp, plot_h);
	xmlTextWriterStartElement(w, BAD_CAST "line");
	xmlTextWriterWriteAttribute(w, BAD_CAST "id", BAD_CAST "cursor");
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y1", "%d", TL_TOP);
	xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y2", "%.0f", TL_TOP + plot_h);
	xmlTextWriterEndElement(w);
	tl_legend(w, ranked, TL_TOP + plot_h + 60);
	tl_task_names(w, ranked);
	gboolean ok = tl_script(w, error);
	xmlTextWriterEndElement(w);
	if (!ftl_svg_writer_end(sw, ok ? error : NULL) && ok) {
		g_prefix_error(error, "timeline: ");
		ok = FALSE;
	}
	return ok;
}
