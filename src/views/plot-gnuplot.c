/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plots through gnuplot: data and script written whole, gnuplot run by argv. */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <libxml/parser.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "analysis/histo.h"
#include "util/datadir.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/output.h"
#include "views/plot-gnuplot.h"

enum {
	PLOT_CDF_POINTS = 2000,
	PLOT_DECADE_BINS = 10,
	PLOT_RATE_LANES = 12,	 /* lanes drawn; the others are summed into one */
	PLOT_MARKERS = 200,	 /* markers drawn; the others are counted */
	PLOT_LABELS = 40,	 /* labels at most across the plot */
	PLOT_LABEL_COLS = 40,	 /* columns of a marker's label */
	PLOT_CPU_LINES = 4,	 /* CPUs drawn as lines; more: a heat strip */
};

typedef struct {
	char *func;
	FtlHisto *durations; /* timed calls */
	guint64 untimed;     /* calls without a duration (open or orphan) */
} PlotFunc;

typedef struct {
	gint32 cpu;
	gint64 t0, t1;
} PlotRun;

struct _FtlPlot {
	FtlPlotOptions opt;
	char *term;   /* gnuplot terminal line */
	char *base;   /* output without its extension */
	GArray *runs;	/* PlotRun */
	GPtrArray *funcs;   /* PlotFunc, in the order asked */
	GHashTable *by_func; /* name -> PlotFunc */
};

static void plot_func_free(gpointer data)
{
	PlotFunc *f = data;
	g_free(f->func);
	ftl_histo_free(f->durations);
	g_free(f);
}

gboolean ftl_plot_parse_kind(const char *s, FtlPlotKind *kind)
{
	if (!strcmp(s, "latency"))
		*kind = FTL_PLOT_LATENCY;
	else if (!strcmp(s, "cpu"))
		*kind = FTL_PLOT_CPU;
	else if (!strcmp(s, "durations"))
		*kind = FTL_PLOT_DURATIONS;
	else if (!strcmp(s, "rate"))
		*kind = FTL_PLOT_RATE;
	else if (!strcmp(s, "stack"))
		*kind = FTL_PLOT_STACK;
	else
		return FALSE;
	return TRUE;
}

FtlPlot *ftl_plot_new(const FtlPlotOptions *opt, GError **error)
{
	const char *dot = strrchr(opt->output, '.');
	const char *slash = strrchr(opt->output, '/');
	if (!dot || (slash && dot < slash) || dot == opt->output ||
	    (strcmp(dot, ".png") && strcmp(dot, ".svg") && strcmp(dot, ".pdf"))) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "plot: -o '%s': expected a name ending in .png, .svg or .pdf", opt->output);
		return NULL;
	}
	FtlPlot *p = g_new0(FtlPlot, 1);
	p->opt = *opt;
	p->base = g_strndup(opt->output, (gsize)(dot - opt->output));
	if (!strcmp(dot, ".png"))
		p->term = g_strdup_printf("pngcairo size %u,%u", opt->width, opt->height);
	else if (!strcmp(dot, ".svg"))
		p->term = g_strdup_printf("svg size %u,%u", opt->width, opt->height);
	else
		p->term = g_strdup_printf("pdfcairo size %.2fin,%.2fin", opt->width / 100.0,
					  opt->height / 100.0);
	p->runs = g_array_new(FALSE, FALSE, sizeof(PlotRun));
	p->funcs = g_ptr_array_new_with_free_func(plot_func_free);
	p->by_func = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; opt->functions && opt->functions[i]; i++) {
		if (g_hash_table_contains(p->by_func, opt->functions[i]))
			continue;
		PlotFunc *f = g_new0(PlotFunc, 1);
		f->func = g_strdup(opt->functions[i]);
		f->durations = ftl_histo_new();
		g_ptr_array_add(p->funcs, f);
		g_hash_table_insert(p->by_func, f->func, f);
	}
	p->opt.functions = NULL; /* the names live in funcs */
	return p;
}

void ftl_plot_free(FtlPlot *p)
{
	if (!p)
		return;
	g_array_unref(p->runs);
	g_hash_table_unref(p->by_func);
	g_ptr_array_unref(p->funcs);
	g_free(p->term);
	g_free(p->base);
	g_free(p);
}

void ftl_plot_add_interval(const FtlSchedInterval *iv, gpointer data)
{
	FtlPlot *p = data;
	if (iv->kind != FTL_SCHED_IV_RUN || iv->pid <= 0)
		return;
	PlotRun r = { iv->cpu, iv->t0, iv->t1 };
	g_array_append_val(p->runs, r);
}

void ftl_plot_add_call(const FtlCall *call, gpointer data)
{
	FtlPlot *p = data;
	PlotFunc *f = g_hash_table_lookup(p->by_func, call->func);
	if (!f)
		return;
	if (call->duration == FTL_TS_NONE)
		f->untimed++;
	else
		ftl_histo_add(f->durations, call->duration);
}

/* A string for a gnuplot single-quoted literal: made visible, at most cols
 * columns of it (then "..."), '' for '. Every text that reaches a plot
 * (titles, key entries, labels) comes through here. gnuplot's svg terminal
 * escapes '<' and '&' in text but not '>', so "]]>", which XML forbids in
 * text, would pass through into the picture: it is written "]] >". The
 * escaper has already made control bytes and invalid UTF-8 visible, the
 * rest of what XML refuses. */
static char *plot_quote_cut(const char *s, gsize cols)
{
	g_autofree char *vis = ftl_escape(s, -1);
	gsize cut = ftl_escape_fit(vis, cols);
	if (vis[cut]) {
		char *shorter = g_strdup_printf("%.*s...", (int)cut, vis);
		g_free(vis);
		vis = shorter;
	}
	g_auto(GStrv) cdata = g_strsplit(vis, "]]>", -1);
	g_autofree char *safe = g_strjoinv("]] >", cdata);
	g_auto(GStrv) parts = g_strsplit(safe, "'", -1);
	return g_strjoinv("''", parts);
}

static char *plot_quote(const char *s)
{
	return plot_quote_cut(s, G_MAXSIZE);
}

enum { PLOT_BIN_MIN = FTL_HISTO_DECADE_MIN };

/* h in the log bins (analysis/histo.h: ten a decade of us, each value in
 * the bin that holds it), from the first used to the last, as centre,
 * count, width (us). */
static void plot_decades_print(GString *d, const FtlHisto *h)
{
	guint first;
	g_autoptr(GArray) bins = ftl_histo_decades(h, &first);
	for (guint i = 0; i < bins->len; i++) {
		double l, r;
		ftl_histo_decade_bounds(first + i, &l, &r);
		g_string_append_printf(d, "%.6g %" G_GUINT64_FORMAT " %.6g\n", sqrt(l * r),
				       g_array_index(bins, guint64, i), r - l);
	}
}

/* A class's latency histogram, as the share (%) of its wakeups in each
 * log bin (counted as `plot durations` counts them, so the TUI's
 * histogram of the class shows the same bins), its box the part'th
 * of parts side by side in the bin (equal on the log axis): the classes
 * drawn together neither hide one another nor vanish beside a class of a
 * hundred times more wakeups. */
static void plot_histo(GString *d, const FtlHisto *lat, guint part, guint parts)
{
	guint first;
	g_autoptr(GArray) bins = ftl_histo_decades(lat, &first);
	guint64 n = MAX(ftl_histo_count(lat), 1);
	for (guint i = 0; i < bins->len; i++) {
		double l = (double)((gint)(first + i) + PLOT_BIN_MIN) / PLOT_DECADE_BINS;
		double x0 = pow(10, l + (double)part / parts / PLOT_DECADE_BINS),
		       x1 = pow(10, l + (double)(part + 1) / parts / PLOT_DECADE_BINS);
		g_string_append_printf(d, "%.6g %.6g %.6g\n", (x0 + x1) / 2,
				       100.0 * (double)g_array_index(bins, guint64, i) / (double)n,
				       x1 - x0);
	}
}

/* The CDF of h as steps at each value as the percentiles read them
 * (analysis/pctl.h: every value up to 256 of them, then the value each
 * bucket stands for), so the curve crosses 50% at the p50 the key names. */
static void plot_histo_cdf(GString *d, const FtlHisto *h)
{
	guint64 n = ftl_histo_count(h), seen = 0, count;
	gint64 v;
	for (guint pos = 0; ftl_histo_next_value(h, &pos, &v, &count);) {
		/* the curve starts at 0 at the least value: a function called
		 * once still draws its step */
		if (!seen)
			g_string_append_printf(d, "%.3f 0.000000\n", MAX(v, 1) / 1000.0);
		seen += count;
		g_string_append_printf(d, "%.3f %.6f\n", MAX(v, 1) / 1000.0, (double)seen / n);
	}
}

/* The latency data (histograms normal then RT, then their CDFs, for the
 * classes that have wakeups) and the plot clauses: sched's histograms of
 * the whole trace (analysis/sched.h), the figures `sched` prints. */
static gboolean plot_latency(const FtlSched *s, GString *d, GHashTable *subst, const char *dat,
			     GError **error)
{
	static const struct {
		FtlSchedLatClass cls;
		const char *name;
	} cls[] = { { FTL_SCHED_LAT_NORMAL, "normal" }, { FTL_SCHED_LAT_RT, "RT" } };
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	const FtlHisto *lat[2] = { sc->lat[cls[0].cls].histo, sc->lat[cls[1].cls].histo };
	if (!ftl_histo_count(lat[0]) && !ftl_histo_count(lat[1])) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "plot latency: the trace has no wakeup followed by its switch");
		return FALSE;
	}
	g_autoptr(GString) hist = g_string_new(NULL), cdf = g_string_new(NULL);
	/* a class without wakeups has no block: gnuplot does not count an
	 * empty one, so the index numbers are the blocks written */
	int block = 0;
	guint parts = (ftl_histo_count(lat[0]) > 0) + (ftl_histo_count(lat[1]) > 0);
	for (int c = 0; c < 2; c++) {
		if (!ftl_histo_count(lat[c]))
			continue;
		g_string_append_printf(d, "%s# index %d: %s histogram: box centre (us), %% of the "
				       "class's wakeups in the bin, box width (us)\n",
				       block ? "\n\n" : "", block, cls[c].name);
		plot_histo(d, lat[c], (guint)block, parts);
		g_string_append_printf(hist,
				       "%s'%s' index %d using 1:2:3 with boxes title '%s (%" G_GUINT64_FORMAT
				       ")'",
				       hist->len ? ", " : "", dat, block++, cls[c].name,
				       ftl_histo_count(lat[c]));
	}
	for (int c = 0; c < 2; c++) {
		if (!ftl_histo_count(lat[c]))
			continue;
		g_string_append_printf(d, "\n\n# index %d: %s CDF: latency (us), fraction at or below\n",
				       block, cls[c].name);
		plot_histo_cdf(d, lat[c]);
		g_string_append_printf(cdf, "%s'%s' index %d using 1:2 with steps lw 2 title '%s'",
				       cdf->len ? ", " : "", dat, block++, cls[c].name);
	}
	g_hash_table_insert(subst, "HIST", g_string_free(g_steal_pointer(&hist), FALSE));
	g_hash_table_insert(subst, "CDF", g_string_free(g_steal_pointer(&cdf), FALSE));
	return TRUE;
}

/* A round bin width for a span: 1, 2 or 5 times a power of ten ns, the
 * smallest that gives at most max_bins bins (so between 2/5 of them and
 * all of them). */
static gint64 plot_round_width(gint64 span, guint max_bins)
{
	double raw = MAX((double)span / max_bins, 1.0), p = pow(10.0, floor(log10(raw)));
	for (;; p *= 10)
		for (guint m = 1; m <= 5; m += m == 1 ? 1 : 3)
			if (m * p >= raw * (1 - 1e-12))
				return (gint64)(m * p);
}

/* The time axis's unit for a span: s from 2 s on, else ms, else us. */
static void plot_time_unit(GHashTable *subst, gint64 span, double *scale)
{
	const char *unit = span >= 2000000000 ? "s" : span >= 2000000 ? "ms" : "us";
	*scale = span >= 2000000000 ? 1e9 : span >= 2000000 ? 1e6 : 1e3;
	g_hash_table_insert(subst, "TUNIT", g_strdup(unit));
}

/* @BIN@: a round bin width in its unit, "20 ms", "500 us". */
static void plot_bin_label(GHashTable *subst, gint64 wi)
{
	static const struct {
		gint64 ns;
		const char *unit;
	} units[] = { { 1000000000, "s" }, { 1000000, "ms" }, { 1000, "us" }, { 1, "ns" } };
	guint u = 0;
	while (u < 3 && wi < units[u].ns)
		u++;
	g_hash_table_insert(subst, "BIN", g_strdup_printf("%g %s", (double)wi / units[u].ns,
							  units[u].unit));
}

/* The middle of bin k of width w, the last one cut at the span's end. */
static double plot_bin_mid(guint k, double w, double span)
{
	return (k * w + MIN((k + 1) * w, span)) / 2;
}

/* The heat strip's blocks (the strip's cells all w wide, as an image's
 * are; gnuplot cuts the last at the x range): each CPU's busy % per bin (time, cpu, busy, a
 * row of CPUs per bin as `with image` reads it), then per bin the mean,
 * least and most over the CPUs. */
static void plot_cpu_heat(GString *d, const double *busy, guint nb, guint nc, double w,
			  double span, double scale)
{
	g_string_append(d, "\n\n# index 1: heat: time, cpu, busy % of the bin\n");
	for (guint k = 0; k < nb; k++) {
		for (guint c = 0; c < nc; c++)
			g_string_append_printf(d, "%.9g %u %.2f\n", (k + 0.5) * w / scale, c,
					       100.0 * busy[(gsize)k * nc + c] / w);
		g_string_append_c(d, '\n');
	}
	g_string_append(d, "\n# index 2: over the CPUs: time, mean, least, most busy %\n");
	for (guint k = 0; k < nb; k++) {
		double sum = 0, lo = G_MAXDOUBLE, hi = 0;
		for (guint c = 0; c < nc; c++) {
			double v = 100.0 * busy[(gsize)k * nc + c] / w;
			sum += v;
			lo = MIN(lo, v);
			hi = MAX(hi, v);
		}
		g_string_append_printf(d, "%.9g %.2f %.2f %.2f\n", plot_bin_mid(k, w, span) / scale,
				       sum / nc, lo, hi);
	}
}

/* Per-CPU busy % in bins of a round width over the whole trace's window
 * (at most opt.bins); a line per CPU, and with more than
 * PLOT_CPU_LINES CPUs a heat strip of them and their mean instead. */
static gboolean plot_cpu(FtlPlot *p, const FtlSched *s, GString *d, GHashTable *subst,
			 GError **error)
{
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	if (sc->t0 == FTL_TS_NONE || sc->t1 <= sc->t0 || !sc->n_cpus) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "plot cpu: the trace has no timed events");
		return FALSE;
	}
	gint64 span = sc->t1 - sc->t0, wi = plot_round_width(span, p->opt.bins);
	guint nb = (guint)((span + wi - 1) / wi), nc = sc->n_cpus;
	double w = (double)wi, scale;
	plot_time_unit(subst, span, &scale);
	g_autofree double *busy = g_new0(double, (gsize)nb * nc);
	for (guint i = 0; i < p->runs->len; i++) {
		const PlotRun *r = &g_array_index(p->runs, PlotRun, i);
		if (r->cpu < 0 || (guint)r->cpu >= nc)
			continue;
		double a = (double)(r->t0 - sc->t0), b = (double)(r->t1 - sc->t0);
		for (guint k = (guint)MAX(0.0, floor(a / w)); k < nb && k * w < b; k++)
			busy[(gsize)k * nc + (guint)r->cpu] += MIN(b, (k + 1) * w) - MAX(a, k * w);
	}
	/* the last bin may run past the window: its share of the window */
	double last = (double)span - (nb - 1) * w;
	g_string_append_printf(d, "# bins of %" G_GINT64_FORMAT " ns; time in %s\ntime", wi,
			       (char *)g_hash_table_lookup(subst, "TUNIT"));
	for (guint c = 0; c < nc; c++)
		g_string_append_printf(d, " CPU%u", c);
	g_string_append_c(d, '\n');
	for (guint k = 0; k < nb; k++) {
		double bw = k + 1 < nb ? w : last;
		g_string_append_printf(d, "%.9g", plot_bin_mid(k, w, (double)span) / scale);
		for (guint c = 0; c < nc; c++) {
			busy[(gsize)k * nc + c] *= w / bw;
			g_string_append_printf(d, " %.2f", 100.0 * busy[(gsize)k * nc + c] / w);
		}
		g_string_append_c(d, '\n');
	}
	if (nc > PLOT_CPU_LINES) {
		plot_cpu_heat(d, busy, nb, nc, w, (double)span, scale);
		g_hash_table_insert(subst, "TEMPLATE", g_strdup("cpu-heat"));
	}
	plot_bin_label(subst, wi);
	g_hash_table_insert(subst, "NCOL", g_strdup_printf("%u", nc + 1));
	g_hash_table_insert(subst, "NCPU", g_strdup_printf("%u", nc));
	g_hash_table_insert(subst, "CPUMAX", g_strdup_printf("%.1f", nc - 0.5));
	g_hash_table_insert(subst, "XMAX", g_strdup_printf("%.9g", (double)span / scale));
	return TRUE;
}

/* Per function asked for with timed calls: its histogram (10 bins a decade,
 * a bucket of the log-linear histogram counted in the bin of the value it
 * stands for) then its CDF. A function without timed calls is named on stderr;
 * none at all is an error. */
static gboolean plot_durations(FtlPlot *p, GString *d, GHashTable *subst, const char *dat,
			       GError **error)
{
	g_autoptr(GString) hist = g_string_new(NULL), cdf = g_string_new(NULL),
			   missing = g_string_new(NULL);
	int block = 0;
	/* side by side in each bin and dashed apart, so that functions with
	 * the same durations do not hide one another */
	guint shown = 0, k = 0;
	for (guint i = 0; i < p->funcs->len; i++)
		shown += ftl_histo_count(((const PlotFunc *)g_ptr_array_index(p->funcs, i))->durations) > 0;
	for (guint i = 0; i < p->funcs->len; i++) {
		const PlotFunc *f = g_ptr_array_index(p->funcs, i);
		g_autofree char *name = ftl_escape(f->func, -1);
		guint64 n = ftl_histo_count(f->durations);
		if (!n) {
			g_string_append_printf(missing, "%s'%s' (%s)", missing->len ? ", " : "", name,
					       f->untimed ? "its calls have no duration"
							  : "never called in the trace");
			continue;
		}
		g_autofree char *q = plot_quote(f->func);
		gint64 pv[3] = { ftl_histo_percentile(f->durations, 50),
				 ftl_histo_percentile(f->durations, 95),
				 ftl_histo_percentile(f->durations, 99) };
		char pt[3][32];
		for (int j = 0; j < 3; j++)
			ftl_duration_format(pv[j], pt[j], sizeof pt[j]);
		g_string_append_printf(d, "%s# %s p50_ns p95_ns p99_ns: %" G_GINT64_FORMAT
				       " %" G_GINT64_FORMAT " %" G_GINT64_FORMAT "\n",
				       block ? "\n\n" : "", name, pv[0], pv[1], pv[2]);
		g_string_append_printf(d, "# index %d: %s histogram: bin centre (us), calls, "
				       "bin width (us)\n", block, name);
		plot_decades_print(d, f->durations);
		g_string_append_printf(hist, "%s'%s' index %d using (($1-$3/2+$3*%g)*1e-6):2:"
				       "($3*%g*1e-6) with boxes title '%s (%" G_GUINT64_FORMAT
				       "; p50 %s, p95 %s, p99 %s)'",
				       hist->len ? ", " : "", dat, block++, (k + 0.5) / shown,
				       1.0 / shown, q, n, pt[0], pt[1], pt[2]);
		g_string_append_printf(d, "\n\n# index %d: %s CDF: duration (us), fraction at or "
				       "below\n", block, name);
		plot_histo_cdf(d, f->durations);
		g_string_append_printf(cdf, "%s'%s' index %d using ($1*1e-6):2 with steps lw %u "
				       "dt %u title '%s'", cdf->len ? ", " : "", dat, block++,
				       2 + 2 * (shown - 1 - k), k + 1, q);
		k++;
	}
	if (!hist->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "plot durations: nothing to plot: %s; durations come from "
			    "function_graph entries and exits", missing->str);
		return FALSE;
	}
	if (missing->len)
		fprintf(stderr, "ftlens: plot durations: left out %s\n", missing->str);
	g_hash_table_insert(subst, "HIST", g_string_free(g_steal_pointer(&hist), FALSE));
	g_hash_table_insert(subst, "CDF", g_string_free(g_steal_pointer(&cdf), FALSE));
	return TRUE;
}

/* A marker's label: its text made visible, blanks run together. */
static char *plot_marker_label(const char *text)
{
	g_auto(GStrv) words = g_strsplit_set(text ? text : "", " \t\n\r", -1);
	g_autoptr(GString) one = g_string_new(NULL);
	for (guint i = 0; words[i]; i++)
		if (*words[i])
			g_string_append_printf(one, "%s%s", one->len ? " " : "", words[i]);
	return plot_quote_cut(one->str, PLOT_LABEL_COLS);
}

/* The markers inside the rate plot's window as dashed lines, x in units
 * of scale ns: all of them up to PLOT_MARKERS, else the first of each
 * bin of width w (so that they stand where the markers are, over the
 * whole span); labelled where a label does not cover the one before.
 * The text is made visible, cut and single-quoted, so that nothing in it
 * is gnuplot's (a single-quoted string has no escapes, backquotes or
 * macros) and the labels are noenhanced. */
static void plot_markers(const FtlMarkers *m, gint64 t0, gint64 t1, gint64 w, double scale,
			 GString *gp)
{
	guint n = m ? ftl_markers_count(m) : 0, drawn = 0, inside = 0, labelled = 0;
	double gap = (t1 - t0) / scale / PLOT_LABELS, last = -G_MAXDOUBLE;
	for (guint i = 0; i < n; i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		inside += mk->ts != FTL_TS_NONE && mk->ts >= t0 && mk->ts <= t1;
	}
	gint64 last_bin = -1;
	for (guint i = 0; i < n && drawn < PLOT_MARKERS; i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		if (mk->ts == FTL_TS_NONE || mk->ts < t0 || mk->ts > t1)
			continue;
		gint64 bin = (mk->ts - t0) / MAX(w, 1);
		if (inside > PLOT_MARKERS && bin == last_bin)
			continue;
		last_bin = bin;
		double x = (mk->ts - t0) / scale;
		g_string_append_printf(gp, "set arrow from %.9f, graph 0 to %.9f, graph 1 nohead "
				       "back dt 2 lc rgb 'gray40'\n", x, x);
		drawn++;
		if (x - last < gap)
			continue;
		g_autofree char *q = plot_marker_label(mk->text);
		g_string_append_printf(gp, "set label '%s' at %.9f, graph 0.98 right rotate by 90 "
				       "offset character 1, 0 font ',8' tc rgb 'gray30' front noenhanced\n",
				       q, x);
		last = x;
		labelled++;
	}
	/* the labels (40 columns) stand in the top half: the data stays under them */
	if (labelled)
		g_string_append(gp, "set offsets 0, 0, graph 0.8, graph 0.03\n");
	if (inside > drawn)
		g_string_append_printf(gp, "set label '%u markers: the first of each bin drawn (%u), "
				       "%u labelled' at graph 0, graph 1.02 font ',8' noenhanced\n",
				       inside, drawn, labelled);
	else if (inside > labelled)
		g_string_append_printf(gp, "set label '%u markers: %u labelled' at graph 0, "
				       "graph 1.02 font ',8' noenhanced\n", inside, labelled);
}

static gint plot_lane_cmp(gconstpointer a, gconstpointer b, gpointer r)
{
	guint64 x = ftl_rate_lane_total(r, *(const guint *)a),
		y = ftl_rate_lane_total(r, *(const guint *)b);
	if (x != y)
		return x > y ? -1 : 1;
	return *(const guint *)a < *(const guint *)b ? -1 : 1;
}

/* Events per second in each time bin, per lane: the busiest
 * PLOT_RATE_LANES lanes by events and one for all the others. */
static gboolean plot_rate(const FtlRate *r, const FtlMarkers *m, GString *d,
			  GHashTable *subst, const char *dat, GError **error)
{
	guint nb = ftl_rate_n_bins(r), nl = ftl_rate_n_lanes(r);
	if (!nb || !nl) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "plot rate: the trace has no timed events");
		return FALSE;
	}
	/* the busiest lanes, kept in the lanes' order (CPUs by number), then
	 * the others */
	g_autofree guint *busy = g_new(guint, nl), *order = g_new(guint, nl);
	g_autofree gboolean *keep = g_new0(gboolean, nl);
	for (guint i = 0; i < nl; i++)
		busy[i] = i;
	g_qsort_with_data(busy, (gint)nl, sizeof(guint), plot_lane_cmp, (gpointer)r);
	guint shown = MIN(nl, PLOT_RATE_LANES), k = 0;
	for (guint i = 0; i < shown; i++)
		keep[busy[i]] = TRUE;
	for (guint pass = 0; pass < 2; pass++)
		for (guint i = 0; i < nl; i++)
			if (keep[i] == !pass)
				order[k++] = i;
	gint64 w = ftl_rate_width(r), t0 = ftl_rate_origin(r), span = ftl_rate_last_ts(r) - t0;
	double scale;
	plot_time_unit(subst, MAX(span, 1), &scale);
	g_autoptr(GString) plot = g_string_new(NULL);
	g_string_append_printf(d, "# bins of %" G_GINT64_FORMAT " ns; events per second in each; "
			       "column 1: bin centre (%s since the first event)", w,
			       (char *)g_hash_table_lookup(subst, "TUNIT"));
	for (guint i = 0; i < shown; i++) {
		g_autofree char *name = ftl_escape(ftl_rate_lane_name(r, order[i]), -1);
		g_autofree char *q = plot_quote(ftl_rate_lane_name(r, order[i]));
		g_string_append_printf(d, "\n# column %u: %s (%" G_GUINT64_FORMAT " events)", i + 2,
				       name, ftl_rate_lane_total(r, order[i]));
		g_string_append_printf(plot, "%s'%s' using 1:%u with lines title '%s'",
				       i ? ", " : "", dat, i + 2, q);
	}
	if (nl > shown) {
		g_string_append_printf(d, "\n# column %u: the %u others", shown + 2, nl - shown);
		g_string_append_printf(plot, ", '%s' using 1:%u with lines dt 3 title 'the %u others'",
				       dat, shown + 2, nl - shown);
	}
	g_string_append_c(d, '\n');
	for (guint b = 0; b < nb; b++) {
		g_string_append_printf(d, "%.9g", (b + 0.5) * w / scale);
		guint64 other = 0;
		for (guint i = shown; i < nl; i++)
			other += ftl_rate_count(r, order[i], b);
		for (guint i = 0; i < shown + (nl > shown); i++) {
			guint64 c = i < shown ? ftl_rate_count(r, order[i], b) : other;
			g_string_append_printf(d, " %.6g", c * 1e9 / w);
		}
		g_string_append_c(d, '\n');
	}
	g_autoptr(GString) marks = g_string_new(NULL);
	plot_markers(m, t0, ftl_rate_last_ts(r), w, scale, marks);
	g_hash_table_insert(subst, "MARKERS", g_string_free(g_steal_pointer(&marks), FALSE));
	g_hash_table_insert(subst, "PLOT", g_string_free(g_steal_pointer(&plot), FALSE));
	plot_bin_label(subst, w);
	g_hash_table_insert(subst, "XMAX", g_strdup_printf("%.9g", (double)nb * w / scale));
	return TRUE;
}

/* stack_max_size (else the top frame's Depth) per snapshot, over the
 * snapshots' times when all have one, else their order; the deepest
 * labelled with its top function. */
static gboolean plot_stack(const FtlStackSet *set, GString *d, GHashTable *subst,
			   GError **error)
{
	guint n = set ? ftl_stack_set_n_tables(set) : 0, used = 0;
	gboolean timed = TRUE;
	gint64 t0 = FTL_TS_NONE;
	for (guint i = 0; i < n; i++) {
		const FtlStackTable *t = ftl_stack_set_table(set, i);
		if (t->disabled || (t->max_size < 0 && !t->frames->len))
			continue;
		used++;
		timed = timed && t->time_ns != FTL_TS_NONE;
		if (t->time_ns != FTL_TS_NONE && (t0 == FTL_TS_NONE || t->time_ns < t0))
			t0 = t->time_ns;
	}
	if (!used) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "plot stack: no stack_trace table or stack_max_size value to plot");
		return FALSE;
	}
	const char *xlabel = timed ? "time since the first snapshot (s)"
				   : "table, in the order given (not timed)";
	g_string_append_printf(d, "# %s, stack_max_size (bytes), snapshot number, top function\n",
			       xlabel);
	double best_x = 0, lo = G_MAXDOUBLE, hi = -G_MAXDOUBLE;
	gint64 best = -1;
	const char *best_func = NULL;
	for (guint i = 0, k = 0; i < n; i++) {
		const FtlStackTable *t = ftl_stack_set_table(set, i);
		if (t->disabled || (t->max_size < 0 && !t->frames->len))
			continue;
		gint64 size = t->max_size >= 0 ? t->max_size : ftl_stack_table_depth(t);
		double x = timed ? (t->time_ns - t0) / 1e9 : (double)++k;
		const char *func = t->frames->len ? ftl_stack_table_frame(t, 0)->func : NULL;
		g_autofree char *vis = ftl_escape(func ? func : "-", -1);
		g_string_append_printf(d, "%.6f %" G_GINT64_FORMAT " %" G_GINT64_FORMAT " # %s\n", x,
				       size, t->snapshot, vis);
		if (size > best) {
			best = size, best_x = x, best_func = func;
		}
		lo = MIN(lo, x);
		hi = MAX(hi, x);
	}
	/* one snapshot, or all at one time: a range around it, which gnuplot
	 * would otherwise widen itself with a warning */
	g_autofree char *xrange = hi > lo ? g_strdup("set autoscale x")
					  : g_strdup_printf("set xrange [%.6f:%.6f]", lo - 1, lo + 1);
	g_hash_table_insert(subst, "XRANGE", g_strdup_printf("%s%s", xrange,
							     !timed && used <= 20 ? "\nset xtics 1" : ""));
	g_autofree char *label = g_strdup_printf("deepest: %" G_GINT64_FORMAT " bytes%s%s", best,
						 best_func ? ", top " : "", best_func ? best_func : "");
	g_autofree char *q = plot_quote(label);
	g_hash_table_insert(subst, "DEEPEST",
			    g_strdup_printf("set label '%s' at %.6f, %" G_GINT64_FORMAT
					    " %s offset 0, 1 front noenhanced", q, best_x, best,
					    /* kept inside the frame at either end */
					    hi > lo && best_x >= hi ? "right"
					    : hi > lo && best_x <= lo ? "left" : "center"));
	g_hash_table_insert(subst, "XLABEL", g_strdup(xlabel));
	return TRUE;
}

/* The template with every @NAME@ replaced. */
static char *plot_fill(const char *tmpl, GHashTable *subst)
{
	GString *out = g_string_new(NULL);
	for (const char *p = tmpl; *p;) {
		const char *at = strchr(p, '@'), *end = at ? strchr(at + 1, '@') : NULL;
		if (!end) {
			g_string_append(out, p);
			break;
		}
		g_autofree char *key = g_strndup(at + 1, (gsize)(end - at - 1));
		const char *v = g_hash_table_lookup(subst, key);
		g_string_append_len(out, p, at - p);
		if (v) {
			g_string_append(out, v);
			p = end + 1;
		} else {
			g_string_append_c(out, '@');
			p = at + 1;
		}
	}
	return g_string_free(out, FALSE);
}

enum { PLOT_MAX_PICTURE = 1 << 30 }; /* larger is no plot of ours */

/* Whether pic[0..len) is a whole picture of the terminal term: gnuplot
 * exits 0 when a write of its fails (a full disk), leaving a PNG without
 * its IEND chunk, an SVG cut anywhere or empty, a PDF without its end. */
static const char *plot_picture_fault(const char *term, const guchar *pic, gsize len)
{
	static const guchar png_sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	/* an empty IEND chunk: length 0, type, its CRC */
	static const guchar png_end[12] = { 0, 0, 0, 0, 'I', 'E', 'N', 'D', 0xae, 0x42, 0x60, 0x82 };
	if (len == 0)
		return "it is empty";
	if (g_str_has_prefix(term, "png")) {
		if (len < sizeof png_sig + sizeof png_end || memcmp(pic, png_sig, sizeof png_sig) != 0)
			return "it is no PNG";
		if (memcmp(pic + len - sizeof png_end, png_end, sizeof png_end) != 0)
			return "the PNG does not end with its IEND chunk (cut short)";
		return NULL;
	}
	if (g_str_has_prefix(term, "svg")) {
		xmlInitParser();
		xmlDocPtr doc = xmlReadMemory((const char *)pic, (int)len, "plot.svg", NULL,
					      XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
		xmlNodePtr root = doc ? xmlDocGetRootElement(doc) : NULL;
		gboolean svg = root && root->name && strcmp((const char *)root->name, "svg") == 0;
		if (doc)
			xmlFreeDoc(doc);
		return svg ? NULL : "the SVG does not parse as XML (cut short, or broken by a label)";
	}
	if (g_str_has_prefix(term, "pdf")) {
		gsize tail = MIN(len, 1024);
		if (len < 5 || memcmp(pic, "%PDF-", 5) != 0 ||
		    !g_strstr_len((const char *)pic + len - tail, (gssize)tail, "%%EOF"))
			return "the PDF does not end with %%EOF (cut short)";
	}
	return NULL;
}

/* The picture gnuplot wrote on fd (OUT's temp file, from its start) is
 * whole, checked before it is committed. */
static gboolean plot_check_picture(FtlPlot *p, int fd, GError **error)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		return TRUE; /* standard output, a pipe: nothing to read back */
	const char *fault = NULL;
	g_autofree guchar *pic = NULL;
	gsize len = (gsize)st.st_size, got = 0;
	if (st.st_size > PLOT_MAX_PICTURE) {
		fault = "it is larger than any plot";
	} else {
		pic = g_malloc(MAX(len, 1));
		while (got < len) {
			ssize_t n = pread(fd, pic + got, len - got, (off_t)got);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				break;
			got += (gsize)n;
		}
		fault = got < len ? "it cannot be read back"
				  : plot_picture_fault(p->term, pic, len);
	}
	if (!fault)
		return TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
		    "plot: '%s': gnuplot's picture is not whole: %s (a full disk?); nothing written",
		    p->opt.output, fault);
	return FALSE;
}

/* gnuplot OUT.gp with its standard output on OUT's temp file (so that
 * OUT appears whole or not at all); what it says on stderr is shown. The
 * picture is checked before it is committed. */
static gboolean plot_run(FtlPlot *p, const char *gp, const char *const *inputs, GError **error)
{
	g_autofree char *gnuplot = g_find_program_in_path("gnuplot");
	if (!gnuplot) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "plot: gnuplot is not installed (apt-get install gnuplot-nox): "
			    "left %s and %s.dat; run gnuplot %s",
			    gp, p->base, gp);
		return FALSE;
	}
	g_autoptr(FtlOutput) out = ftl_output_open(p->opt.output, inputs, error);
	if (!out)
		return FALSE;
	g_autofree char *err_path = NULL;
	int err_fd = g_file_open_tmp("ftlens-gnuplot-XXXXXX", &err_path, error);
	if (err_fd < 0)
		return FALSE;
	const char *argv[] = { gnuplot, "-e", "out='/dev/stdout'", gp, NULL };
	GPid pid;
	int status = 0;
	gboolean ok = g_spawn_async_with_fds(NULL, (char **)argv, NULL,
					     G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_STDIN_FROM_DEV_NULL,
					     NULL, NULL, &pid, -1, fileno(ftl_output_stream(out)),
					     err_fd, error);
	close(err_fd);
	if (ok) {
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		g_spawn_close_pid(pid);
	}
	g_autofree char *said = NULL;
	g_file_get_contents(err_path, &said, NULL, NULL);
	g_unlink(err_path);
	if (!ok)
		return FALSE;
	g_auto(GStrv) lines = g_strsplit(said ? g_strchomp(said) : "", "\n", -1);
	for (guint i = 0; lines[i]; i++)
		if (*lines[i]) {
			fputs("ftlens: plot: gnuplot says: ", stderr);
			ftl_escape_fputs(lines[i], stderr);
			fputc('\n', stderr);
		}
	if (!g_spawn_check_wait_status(status, NULL)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "plot: gnuplot failed on %s (left it and %s.dat)", gp, p->base);
		return FALSE;
	}
	if (!plot_check_picture(p, fileno(ftl_output_stream(out)), error))
		return FALSE;
	return ftl_output_commit(out, error);
}

static const struct {
	const char *name, *title;
} plot_kinds[] = {
	[FTL_PLOT_LATENCY] = { "latency", "Wakeup latency" },
	[FTL_PLOT_CPU] = { "cpu", "CPU busy over time" },
	[FTL_PLOT_DURATIONS] = { "durations", "Call durations" },
	[FTL_PLOT_RATE] = { "rate", "Events per second" },
	[FTL_PLOT_STACK] = { "stack", "Stack tracer: stack_max_size over the snapshots" },
};

static gboolean plot_data(FtlPlot *p, const FtlPlotData *in, GString *d, GHashTable *subst,
			  const char *dat, GError **error)
{
	g_autofree char *input = ftl_escape(p->opt.input ? p->opt.input : "", -1);
	g_string_append_printf(d, "# ftlens plot %s: %s\n", plot_kinds[p->opt.kind].name, input);
	switch (p->opt.kind) {
	case FTL_PLOT_LATENCY:
		return plot_latency(in->sched, d, subst, dat, error);
	case FTL_PLOT_CPU:
		return plot_cpu(p, in->sched, d, subst, error);
	case FTL_PLOT_DURATIONS:
		return plot_durations(p, d, subst, dat, error);
	case FTL_PLOT_RATE:
		return plot_rate(in->rate, in->markers, d, subst, dat, error);
	case FTL_PLOT_STACK:
		return plot_stack(in->stack, d, subst, error);
	}
	g_return_val_if_reached(FALSE);
}

gboolean ftl_plot_write(FtlPlot *p, const FtlPlotData *in, const char *const *inputs,
			GError **error)
{
	g_autofree char *dat = g_strconcat(p->base, ".dat", NULL);
	g_autofree char *gp = g_strconcat(p->base, ".gp", NULL);
	g_autoptr(GHashTable) subst = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	g_autofree char *qdat = plot_quote(dat);
	g_autoptr(GString) d = g_string_new(NULL);
	if (!plot_data(p, in, d, subst, qdat, error))
		return FALSE;
	/* a kind may pick a variant of its template (cpu: the heat strip) */
	const char *variant = g_hash_table_lookup(subst, "TEMPLATE");
	g_autofree char *tmpl_name =
		g_strdup_printf("plot-%s.gp", variant ? variant : plot_kinds[p->opt.kind].name);
	g_autofree char *tmpl = ftl_datadir_read(tmpl_name, NULL, error);
	if (!tmpl)
		return FALSE;
	g_autofree char *input = g_path_get_basename(p->opt.input ? p->opt.input : "-");
	g_autofree char *title = g_strdup_printf("%s: %s", plot_kinds[p->opt.kind].title, input);
	g_hash_table_insert(subst, "TITLE", plot_quote(title));
	g_hash_table_insert(subst, "DAT", g_strdup(qdat));
	g_hash_table_insert(subst, "GP", plot_quote(gp));
	g_hash_table_insert(subst, "TERM", g_strdup(p->term));
	/* "out" set on gnuplot's command line wins over the file's own name */
	g_autofree char *qout = plot_quote(p->opt.output);
	g_hash_table_insert(subst, "OUT", g_strdup_printf("' . (exists(\"out\") ? out : '%s') . '", qout));
	g_autofree char *script = plot_fill(tmpl, subst);
	if (!ftl_output_write_all(dat, inputs, d->str, d->len, error) ||
	    !ftl_output_write_all(gp, inputs, script, strlen(script), error))
		return FALSE;
	if (p->opt.script_only)
		return TRUE;
	return plot_run(p, gp, inputs, error);
}
