/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Plots through gnuplot: data and script written whole, gnuplot run by argv. */
#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/datadir.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/output.h"
#include "views/plot-gnuplot.h"

enum { PLOT_CDF_POINTS = 2000, PLOT_DECADE_BINS = 10 };

typedef struct {
	gint32 cpu;
	gint64 t0, t1;
} PlotRun;

struct _FtlPlot {
	FtlPlotOptions opt;
	char *term;   /* gnuplot terminal line */
	char *base;   /* output without its extension */
	GArray *lat[2]; /* gint64 latencies: normal, RT */
	GArray *runs;	/* PlotRun */
};

gboolean ftl_plot_parse_kind(const char *s, FtlPlotKind *kind)
{
	if (!strcmp(s, "latency"))
		*kind = FTL_PLOT_LATENCY;
	else if (!strcmp(s, "cpu"))
		*kind = FTL_PLOT_CPU;
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
	for (int i = 0; i < 2; i++)
		p->lat[i] = g_array_new(FALSE, FALSE, sizeof(gint64));
	p->runs = g_array_new(FALSE, FALSE, sizeof(PlotRun));
	return p;
}

void ftl_plot_free(FtlPlot *p)
{
	if (!p)
		return;
	for (int i = 0; i < 2; i++)
		g_array_unref(p->lat[i]);
	g_array_unref(p->runs);
	g_free(p->term);
	g_free(p->base);
	g_free(p);
}

void ftl_plot_add_wakeup(const FtlSchedWakeup *w, gpointer data)
{
	FtlPlot *p = data;
	gboolean rt = w->prio >= 0 && w->prio < 100;
	g_array_append_val(p->lat[rt], w->latency);
}

void ftl_plot_add_interval(const FtlSchedInterval *iv, gpointer data)
{
	FtlPlot *p = data;
	if (iv->kind != FTL_SCHED_IV_RUN || iv->pid <= 0)
		return;
	PlotRun r = { iv->cpu, iv->t0, iv->t1 };
	g_array_append_val(p->runs, r);
}

static int i64_cmp(gconstpointer a, gconstpointer b)
{
	gint64 x = *(const gint64 *)a, y = *(const gint64 *)b;
	return x < y ? -1 : x > y;
}

/* A string for a gnuplot single-quoted literal: visible, '' for '. */
static char *plot_quote(const char *s)
{
	g_autofree char *vis = ftl_escape(s, -1);
	g_auto(GStrv) parts = g_strsplit(vis, "'", -1);
	return g_strjoinv("''", parts);
}

/* Histogram: 10 log bins per decade of us, as centre, count, width. */
static void plot_histo(GString *d, GArray *lat)
{
	g_autoptr(GHashTable) bins = g_hash_table_new(NULL, NULL);
	gint lo = G_MAXINT, hi = G_MININT;
	for (guint i = 0; i < lat->len; i++) {
		double us = MAX(g_array_index(lat, gint64, i), 1) / 1000.0;
		gint b = (gint)floor(log10(us) * PLOT_DECADE_BINS);
		g_hash_table_insert(bins, GINT_TO_POINTER(b),
				    GUINT_TO_POINTER(GPOINTER_TO_UINT(g_hash_table_lookup(
							     bins, GINT_TO_POINTER(b))) +
						     1));
		lo = MIN(lo, b);
		hi = MAX(hi, b);
	}
	for (gint b = lo; lat->len && b <= hi; b++) {
		double l = pow(10, (double)b / PLOT_DECADE_BINS),
		       h = pow(10, (double)(b + 1) / PLOT_DECADE_BINS);
		g_string_append_printf(d, "%.6g %u %.6g\n", sqrt(l * h),
				       GPOINTER_TO_UINT(g_hash_table_lookup(bins, GINT_TO_POINTER(b))),
				       h - l);
	}
}

/* CDF: at most PLOT_CDF_POINTS steps, the largest always kept. */
static void plot_cdf(GString *d, GArray *lat)
{
	guint n = lat->len, step = MAX(1u, n / PLOT_CDF_POINTS);
	for (guint i = 0; i < n; i++)
		if ((i + 1) % step == 0 || i + 1 == n)
			/* log x: a 0 ns latency (same-tick timestamps) shows at 1 ns */
			g_string_append_printf(d, "%.3f %.6f\n",
					       MAX(g_array_index(lat, gint64, i), 1) / 1000.0,
					       (double)(i + 1) / n);
}

/* The latency data (histograms normal then RT, then their CDFs, for the
 * classes that have wakeups) and the plot clauses. */
static gboolean plot_latency(FtlPlot *p, GString *d, GHashTable *subst, const char *dat,
			     GError **error)
{
	static const char *const cls[] = { "normal", "RT" };
	if (!p->lat[0]->len && !p->lat[1]->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "plot latency: the trace has no wakeup followed by its switch");
		return FALSE;
	}
	g_autoptr(GString) hist = g_string_new(NULL), cdf = g_string_new(NULL);
	/* a class without wakeups has no block: gnuplot does not count an
	 * empty one, so the index numbers are the blocks written */
	int block = 0;
	for (int c = 0; c < 2; c++) {
		g_array_sort(p->lat[c], i64_cmp);
		if (!p->lat[c]->len)
			continue;
		g_string_append_printf(d, "%s# index %d: %s histogram: bin centre (us), wakeups, "
				       "bin width (us)\n", block ? "\n\n" : "", block, cls[c]);
		plot_histo(d, p->lat[c]);
		g_string_append_printf(hist, "%s'%s' index %d using 1:2:3 with boxes title '%s (%u)'",
				       hist->len ? ", " : "", dat, block++, cls[c], p->lat[c]->len);
	}
	for (int c = 0; c < 2; c++) {
		if (!p->lat[c]->len)
			continue;
		g_string_append_printf(d, "\n\n# index %d: %s CDF: latency (us), fraction at or below\n",
				       block, cls[c]);
		plot_cdf(d, p->lat[c]);
		g_string_append_printf(cdf, "%s'%s' index %d using 1:2 with steps lw 2 title '%s'",
				       cdf->len ? ", " : "", dat, block++, cls[c]);
	}
	g_hash_table_insert(subst, "HIST", g_string_free(g_steal_pointer(&hist), FALSE));
	g_hash_table_insert(subst, "CDF", g_string_free(g_steal_pointer(&cdf), FALSE));
	return TRUE;
}

/* Per-CPU busy % in opt.bins bins over the whole trace's window. */
static gboolean plot_cpu(FtlPlot *p, const FtlSched *s, GString *d, GHashTable *subst,
			 GError **error)
{
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	if (sc->t0 == FTL_TS_NONE || sc->t1 <= sc->t0 || !sc->n_cpus) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "plot cpu: the trace has no timed events");
		return FALSE;
	}
	guint nb = p->opt.bins, nc = sc->n_cpus;
	double w = (double)(sc->t1 - sc->t0) / nb;
	g_autofree double *busy = g_new0(double, (gsize)nb * nc);
	for (guint i = 0; i < p->runs->len; i++) {
		const PlotRun *r = &g_array_index(p->runs, PlotRun, i);
		if (r->cpu < 0 || (guint)r->cpu >= nc)
			continue;
		double a = (double)(r->t0 - sc->t0), b = (double)(r->t1 - sc->t0);
		for (guint k = (guint)MAX(0.0, floor(a / w)); k < nb && k * w < b; k++)
			busy[(gsize)k * nc + (guint)r->cpu] += MIN(b, (k + 1) * w) - MAX(a, k * w);
	}
	g_string_append(d, "time_s");
	for (guint c = 0; c < nc; c++)
		g_string_append_printf(d, " CPU%u", c);
	g_string_append_c(d, '\n');
	for (guint k = 0; k < nb; k++) {
		g_string_append_printf(d, "%.6f", (k + 0.5) * w / 1e9);
		for (guint c = 0; c < nc; c++)
			g_string_append_printf(d, " %.2f", 100.0 * busy[(gsize)k * nc + c] / w);
		g_string_append_c(d, '\n');
	}
	g_hash_table_insert(subst, "NCOL", g_strdup_printf("%u", nc + 1));
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

/* gnuplot OUT.gp with its standard output on OUT's temp file (so that
 * OUT appears whole or not at all); what it says on stderr is shown. */
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
	return ftl_output_commit(out, error);
}

static gboolean plot_data(FtlPlot *p, const FtlSched *s, GString *d, GHashTable *subst,
			  const char *dat, GError **error)
{
	g_autofree char *input = ftl_escape(p->opt.input ? p->opt.input : "", -1);
	g_string_append_printf(d, "# ftlens plot %s: %s\n",
			       p->opt.kind == FTL_PLOT_LATENCY ? "latency" : "cpu", input);
	if (p->opt.kind == FTL_PLOT_LATENCY)
		return plot_latency(p, d, subst, dat, error);
	return plot_cpu(p, s, d, subst, error);
}

gboolean ftl_plot_write(FtlPlot *p, const FtlSched *s, const char *const *inputs,
			GError **error)
{
	static const char *const titles[] = { "Wakeup latency", "CPU busy over time" };
	static const char *const tmpl_name[] = { "plot-latency.gp", "plot-cpu.gp" };
	g_autofree char *dat = g_strconcat(p->base, ".dat", NULL);
	g_autofree char *gp = g_strconcat(p->base, ".gp", NULL);
	g_autoptr(GHashTable) subst = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, g_free);
	g_autofree char *qdat = plot_quote(dat);
	g_autoptr(GString) d = g_string_new(NULL);
	if (!plot_data(p, s, d, subst, qdat, error))
		return FALSE;
	g_autofree char *tmpl = ftl_datadir_read(tmpl_name[p->opt.kind], NULL, error);
	if (!tmpl)
		return FALSE;
	g_autofree char *input = g_path_get_basename(p->opt.input ? p->opt.input : "-");
	g_autofree char *title = g_strdup_printf("%s: %s", titles[p->opt.kind], input);
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
