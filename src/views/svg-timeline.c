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

enum { TL_LEFT = 110, TL_TOP = 78, TL_LANE = 18, TL_GAP = 4, TL_LEGEND = 12 };
/* A rectangle's bytes as written, with its hover attributes: the budget
 * that decides how wide a bin is. */
enum { TL_RECT_BYTES = 80, TL_MARKERS = 500 };

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
	return tl;
}

void ftl_timeline_free(FtlTimeline *tl)
{
	if (!tl)
		return;
	g_array_unref(tl->ivs);
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
 * are, thinner ones summed into one rectangle per bin. */
typedef struct {
	xmlTextWriterPtr w;
	gint64 t0;    /* the window's start */
	double nspp;  /* ns per px */
	double bin;   /* px */
	const char *cls;
	guint64 rects; /* counted (w NULL: count only, write nothing) */
	/* the open bin */
	gint64 b_idx, b_ns, b_start, b_top_ns;
	guint b_n;
	gint32 b_top_pid;
} TlLane;

static void tl_rect(TlLane *l, const char *cls, gint32 key, double x, double wpx, gint64 s,
		    gint64 d)
{
	xmlTextWriterPtr w = l->w;
	l->rects++;
	if (!w)
		return;
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
	g_autofree char *cls = g_strdup_printf("%s bin", l->cls);
	tl_rect(l, !strcmp(l->cls, "run") ? "bin" : cls, tl_key(tl, l->b_top_pid),
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
	double x0 = (double)(iv->t0 - l->t0) / l->nspp, x1 = (double)(iv->t1 - l->t0) / l->nspp;
	gint64 d = iv->t1 - iv->t0;
	if (x1 - x0 >= l->bin) {
		tl_rect(l, l->cls, iv->pid >= 0 ? tl_key(tl, iv->pid) : -1, x0, x1 - x0,
			iv->t0 - l->t0, d);
		if (l->w)
			xmlTextWriterEndElement(l->w);
		return;
	}
	gint64 idx = (gint64)floor(x0 / l->bin);
	if (l->b_n && idx != l->b_idx)
		tl_bin_flush(tl, l);
	if (!l->b_n) {
		l->b_idx = idx;
		l->b_start = iv->t0 - l->t0;
	}
	l->b_n++;
	l->b_ns += d;
	if (d > l->b_top_ns) {
		l->b_top_ns = d;
		l->b_top_pid = iv->pid;
	}
}

static int tl_iv_cmp(gconstpointer a, gconstpointer b)
{
	const TlIv *x = a, *y = b;
	return x->t0 < y->t0 ? -1 : x->t0 > y->t0;
}

/* One lane's group: every interval that passes the filter, in time order. */
static void tl_lane(FtlTimeline *tl, TlLane *l, GArray *ivs, double y, const char *label,
		    const char *cls, gboolean (*pick)(const TlIv *, gint32), gint32 arg)
{
	xmlTextWriterPtr w = l->w;
	if (w) {
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
		if (l->b_n && strcmp(l->cls, names[iv->kind]))
			tl_bin_flush(tl, l); /* a bin holds one kind */
		l->cls = names[iv->kind];
		tl_lane_put(tl, l, iv);
	}
	tl_bin_flush(tl, l);
	if (w)
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

/* A task's colour comes from its name, so that it is the same in every
 * picture of the same workload. */
static guint tl_hue(const char *comm, gint32 pid)
{
	return comm ? g_str_hash(comm) % 360 : (guint)pid * 47u % 360;
}

static void tl_style(xmlTextWriterPtr w, GPtrArray *ranked, const char *css)
{
	g_autoptr(GString) s = g_string_new(css);
	for (guint i = 0; i < ranked->len; i++) {
		const FtlSchedTask *t = ranked->pdata[i];
		guint h = tl_hue(t->comm, t->pid);
		g_string_append_printf(s, "rect[k=\"%u\"]{fill:hsl(%u,%u%%,%u%%)}\n", i, h,
				       55 + (guint)(t->pid % 3) * 15, 45 + (guint)(t->pid % 2) * 12);
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
	"line.marker{stroke:#00c;stroke-width:1;vector-effect:non-scaling-stroke}\n"
	"line{pointer-events:none}line.tick{stroke:#bbb;vector-effect:non-scaling-stroke}\n"
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
		"event; hatched: interrupts; intervals under %.0f px merged per bin",
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

/* Time ticks along the top, relative to the window's start. */
static void tl_ticks(xmlTextWriterPtr w, const FtlSchedScope *sc, double pw, double plot_h)
{
	for (int i = 0; i <= 10; i++) {
		double x = TL_LEFT + pw * i / 10.0;
		char buf[40];
		tl_line(w, "tick", x, TL_TOP - 4, x, TL_TOP + plot_h);
		tl_text(w, "small", x + 2, TL_TOP - 6,
			ftl_duration_format((sc->t1 - sc->t0) * i / 10, buf, sizeof buf));
	}
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
 * a label left out where it would overlap the one before it on its row. */
static void tl_marker_labels(xmlTextWriterPtr w, const FtlMarkers *m, gint64 t0, double nspp,
			     double plot_h)
{
	guint n = m ? ftl_markers_count(m) : 0, drawn = 0;
	double end[3] = { 0, 0, 0 };
	for (guint i = 0; i < n && drawn < TL_MARKERS; i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		if (mk->ts == FTL_TS_NONE)
			continue;
		drawn++;
		double x = TL_LEFT + (double)(mk->ts - t0) / nspp + 2;
		guint row = 0;
		while (row < 3 && end[row] > x)
			row++;
		if (row == 3)
			continue;
		g_autofree char *vis = ftl_escape(mk->text, -1);
		g_autofree char *cut = g_utf8_substring(vis, 0, MIN(g_utf8_strlen(vis, -1), 40));
		/* ~6 px per character at 11 px sans */
		end[row] = x + 6.0 * (double)g_utf8_strlen(cut, -1) + 6;
		xmlTextWriterStartElement(w, BAD_CAST "text");
		xmlTextWriterWriteAttribute(w, BAD_CAST "class", BAD_CAST "marker small");
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "x", "%.1f", x);
		xmlTextWriterWriteFormatAttribute(w, BAD_CAST "y", "%.1f", TL_TOP + plot_h + 12 + row * 11);
		xmlTextWriterWriteString(w, BAD_CAST cut);
		xmlTextWriterEndElement(w);
	}
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

static void tl_lane_label(xmlTextWriterPtr w, double y, const char *label)
{
	tl_text(w, NULL, 6, y + TL_LANE - 5, label);
}

static void tl_lanes(FtlTimeline *tl, TlLane *l, const FtlSchedScope *sc, GArray *pids)
{
	for (guint c = 0; c < sc->n_cpus; c++) {
		char label[32];
		double y = TL_TOP + c * (TL_LANE + TL_GAP);
		g_snprintf(label, sizeof label, "CPU %u", c);
		tl_lane(tl, l, tl->ivs, y, label, "cpu", pick_cpu_run, (gint32)c);
		tl_lane(tl, l, tl->ivs, y, label, "cpuirq", pick_cpu_irq, (gint32)c);
		tl_lane(tl, l, tl->ivs, y, label, "cpulost", pick_cpu_lost, (gint32)c);
	}
	for (guint i = 0; i < pids->len; i++) {
		gint32 pid = g_array_index(pids, gint32, i);
		char label[32];
		g_snprintf(label, sizeof label, "task %d", pid);
		tl_lane(tl, l, tl->ivs, TL_TOP + (sc->n_cpus + i) * (TL_LANE + TL_GAP) + TL_GAP,
			label, "task", pick_task, pid);
	}
}

/* The plot: per-CPU lanes, then task lanes; inside the zoomed group. */
static void tl_plot(FtlTimeline *tl, TlLane *l, const FtlSchedScope *sc, GArray *pids,
		    const FtlMarkers *m, double plot_h)
{
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
	for (guint c = 0; c < sc->n_cpus; c++) {
		const FtlSchedCpu *cpu = &sc->cpus[c];
		double y = TL_TOP + c * (TL_LANE + TL_GAP);
		/* the data-quality window: before the CPU's first event, unknown */
		if (cpu->t1 > cpu->t0 && cpu->t0 > sc->t0) {
			xmlTextWriterStartElement(w, BAD_CAST "g");
			xmlTextWriterWriteFormatAttribute(w, BAD_CAST "transform", "translate(0,%.0f)", y);
			tl_rect(l, "nodata", -1, 0, (double)(cpu->t0 - sc->t0) / l->nspp, 0,
				cpu->t0 - sc->t0);
			xmlTextWriterEndElement(w);
			xmlTextWriterEndElement(w);
		}
	}
	tl_lanes(tl, l, sc, pids);
	tl_markers(w, m, sc->t0, l->nspp, plot_h);
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

/* The bin width in px: 1, doubled until the rectangles, counted in a dry
 * run, fit the size bound with room for the rest of the picture. */
static double tl_bin_px(FtlTimeline *tl, TlLane *l, const FtlSchedScope *sc, GArray *pids)
{
	double budget = (double)tl->opt.max_bytes * 0.85 - 200.0 * (sc->n_tasks + TL_MARKERS);
	for (l->bin = 1;; l->bin *= 2) {
		TlLane dry = *l;
		dry.w = NULL;
		dry.rects = 0;
		tl_lanes(tl, &dry, sc, pids);
		if ((double)dry.rects * TL_RECT_BYTES <= budget || l->bin >= tl->opt.width)
			return l->bin;
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
	g_autoptr(GPtrArray) ranked = tl_rank(tl, sc);
	g_autoptr(GArray) pids = tl_task_lanes(tl, ranked);
	guint lanes = sc->n_cpus + pids->len;
	double plot_h = lanes * (TL_LANE + TL_GAP) + (pids->len ? TL_GAP : 0);
	double height = TL_TOP + plot_h + 60 + ((MIN(ranked->len, TL_LEGEND) + 3) / 4) * 16 + 10;
	TlLane l = { 0 };
	l.t0 = sc->t0;
	l.nspp = (double)(sc->t1 - sc->t0) / tl->opt.width;
	tl_bin_px(tl, &l, sc, pids);

	xmlOutputBufferPtr ob = xmlOutputBufferCreateFile(out, NULL);
	xmlTextWriterPtr w = ob ? xmlNewTextWriter(ob) : NULL;
	if (!w) {
		if (ob)
			xmlOutputBufferClose(ob);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "timeline: cannot start the SVG writer");
		return FALSE;
	}
	l.w = w;
	xmlTextWriterStartDocument(w, NULL, "UTF-8", NULL);
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
	tl_ticks(w, sc, tl->opt.width, plot_h);
	for (guint c = 0; c < lanes; c++) {
		char label[32];
		double y = TL_TOP + c * (TL_LANE + TL_GAP) + (c >= sc->n_cpus ? TL_GAP : 0);
		if (c < sc->n_cpus)
			g_snprintf(label, sizeof label, "CPU %u", c);
		else
			g_snprintf(label, sizeof label, "task %d",
				   g_array_index(pids, gint32, c - sc->n_cpus));
		tl_lane_label(w, y, label);
	}
	tl_plot(tl, &l, sc, pids, m, plot_h);
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
	int rc = xmlTextWriterEndDocument(w);
	xmlFreeTextWriter(w);
	if (ok && rc < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "timeline: writing the SVG failed");
		ok = FALSE;
	}
	return ok;
}
