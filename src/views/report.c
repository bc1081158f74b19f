/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The batch report. Text fits 100 columns; CSV prints each table after a
 * "# name" line; JSON carries every row with times in ns (`*_ns` keys). */
#include "views/report.h"

#include <string.h>

#include "analysis/comm.h"
#include "util/checked.h"
#include "util/color.h"
#include "util/escape.h"
#include "util/timefmt.h"
#include "views/info.h"
#include "views/merge.h"
#include "views/quality.h"
#include "views/sched.h"


static gint64 report_ts(const FtlReportData *r, gint64 ts)
{
	return ts == FTL_TS_NONE || r->origin == FTL_TS_NONE ? ts : ts - r->origin;
}

static const char *report_comm(const FtlReportData *r, gint32 pid, char *buf, gsize size)
{
	return ftl_comm_label(ftl_trace_tasks(r->trace), pid, buf, size);
}

/* A function's statistics cross incomplete data when some of its calls lie
 * outside the window in which every CPU's data is complete. */
static gboolean report_crosses(const FtlReportData *r, const FtlFuncStat *st)
{
	if (st->first_ts == FTL_TS_NONE)
		return FALSE;
	return !ftl_quality_covers(r->quality, st->first_ts, st->last_ts);
}

enum {
	FC_FUNCTION,
	FC_CPU,
	FC_PID,
	FC_COMM,
	FC_CALLS,
	FC_TIMED,
	FC_TOTAL,
	FC_SELF,
	FC_AVG,
	FC_MIN,
	FC_MAX,
	FC_P50,
	FC_P95,
	FC_P99,
	FC_REPAIRED,
	FC_INCOMPLETE,
};

static const FtlColumn report_func_cols[] = {
	[FC_FUNCTION] = { "function", "function", FTL_COL_STR },
	[FC_CPU] = { "cpu", "cpu", FTL_COL_INT },
	[FC_PID] = { "pid", "pid", FTL_COL_INT },
	[FC_COMM] = { "comm", "comm", FTL_COL_STR },
	[FC_CALLS] = { "calls", "calls", FTL_COL_INT },
	[FC_TIMED] = { "timed_calls", "timed", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	[FC_TOTAL] = { "total_ns", "total", FTL_COL_NS },
	[FC_SELF] = { "self_ns", "self", FTL_COL_NS },
	[FC_AVG] = { "avg_ns", "avg", FTL_COL_NS },
	[FC_MIN] = { "min_ns", "min", FTL_COL_NS, FTL_COL_HIDE_TEXT },
	[FC_MAX] = { "max_ns", "max", FTL_COL_NS },
	[FC_P50] = { "p50_ns", "p50", FTL_COL_NS, FTL_COL_HIDE_TEXT },
	[FC_P95] = { "p95_ns", "p95", FTL_COL_NS },
	[FC_P99] = { "p99_ns", "p99", FTL_COL_NS },
	[FC_REPAIRED] = { "repaired", "rep", FTL_COL_INT, FTL_COL_ALERT },
	[FC_INCOMPLETE] = { "incomplete_data", "!", FTL_COL_STR },
};

FtlTable *ftl_report_func_table(const FtlReportData *r, FtlFuncStatsSort sort, guint max_rows)
{
	FtlTable *t = ftl_table_new("functions", report_func_cols, G_N_ELEMENTS(report_func_cols));
	gboolean by_cpu = FALSE, by_task = FALSE;
	GPtrArray *rows = ftl_funcstats_sorted(r->funcs, sort);
	for (guint i = 0; i < rows->len; i++) {
		const FtlFuncStat *st = rows->pdata[i];
		by_cpu |= st->cpu >= 0;
		by_task |= st->pid >= 0;
	}
	if (!by_cpu)
		ftl_table_omit(t, FC_CPU);
	if (!by_task) {
		ftl_table_omit(t, FC_PID);
		ftl_table_omit(t, FC_COMM);
	}
	for (guint i = 0; i < rows->len; i++) {
		const FtlFuncStat *st = rows->pdata[i];
		if (r->threshold > 0 && st->total_ns < r->threshold)
			continue;
		if (max_rows && ftl_table_n_rows(t) >= max_rows)
			break;
		ftl_table_begin_row(t);
		ftl_table_set_str(t, FC_FUNCTION, st->func);
		if (by_cpu)
			ftl_table_set_int(t, FC_CPU, st->cpu);
		if (by_task) {
			char buf[64];
			ftl_table_set_int(t, FC_PID, st->pid);
			ftl_table_set_str(t, FC_COMM, report_comm(r, st->pid, buf, sizeof buf));
		}
		ftl_table_set_int(t, FC_CALLS, (gint64)st->calls);
		ftl_table_set_int(t, FC_TIMED, (gint64)st->timed);
		if (st->timed) {
			ftl_table_set_int(t, FC_TOTAL, st->total_ns);
			ftl_table_set_int(t, FC_SELF, st->self_ns);
			ftl_table_set_int(t, FC_AVG, st->avg_ns);
			ftl_table_set_int(t, FC_MIN, st->min_ns);
			ftl_table_set_int(t, FC_MAX, st->max_ns);
			ftl_table_set_int(t, FC_P50, st->p50_ns);
			ftl_table_set_int(t, FC_P95, st->p95_ns);
			ftl_table_set_int(t, FC_P99, st->p99_ns);
		}
		ftl_table_set_int(t, FC_REPAIRED, (gint64)st->flagged);
		ftl_table_set_str(t, FC_INCOMPLETE, report_crosses(r, st) ? "*" : "");
	}
	return t;
}

static FtlTable *report_cpu_table(const FtlReportData *r)
{
	enum { C_CPU, C_LINES, C_EVENTS, C_FIRST, C_LAST, C_SPAN, C_LOST };
	static const FtlColumn cols[] = {
		[C_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[C_LINES] = { "event_lines", "event lines", FTL_COL_INT },
		[C_EVENTS] = { "events", "events", FTL_COL_INT },
		[C_FIRST] = { "first_ts_ns", "first", FTL_COL_TS },
		[C_LAST] = { "last_ts_ns", "last", FTL_COL_TS },
		[C_SPAN] = { "span_ns", "span", FTL_COL_NS },
		[C_LOST] = { "lost_events", "lost", FTL_COL_INT, FTL_COL_ALERT },
	};
	FtlTable *t = ftl_table_new("cpus", cols, G_N_ELEMENTS(cols));
	for (guint i = 0; i < ftl_quality_n_cpus(r->quality); i++) {
		const FtlCpuQuality *cc = ftl_quality_cpu(r->quality, i);
		ftl_table_begin_row(t);
		if (cc->cpu >= 0)
			ftl_table_set_int(t, C_CPU, cc->cpu);
		ftl_table_set_int(t, C_LINES, (gint64)cc->event_lines);
		ftl_table_set_int(t, C_EVENTS, (gint64)cc->events);
		if (cc->first_ts != FTL_TS_NONE) {
			ftl_table_set_int(t, C_FIRST, report_ts(r, cc->first_ts));
			ftl_table_set_int(t, C_LAST, report_ts(r, cc->last_ts));
			ftl_table_set_int(t, C_SPAN, cc->last_ts - cc->first_ts);
		}
		if (cc->lost_events != FTL_LOST_UNKNOWN) /* unknown: an empty cell */
			ftl_table_set_int(t, C_LOST, cc->lost_events);
	}
	return t;
}

static FtlTable *report_marker_table(const FtlReportData *r)
{
	enum { C_TS, C_CPU, C_PID, C_LINE, C_TEXT };
	static const FtlColumn cols[] = {
		[C_TS] = { "ts_ns", "time", FTL_COL_TS },
		[C_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[C_PID] = { "pid", "pid", FTL_COL_INT },
		[C_LINE] = { "line", "line", FTL_COL_INT },
		/* marker text: cut at the width, keeping its start, never
		 * widened past it as names are */
		[C_TEXT] = { "text", "text", FTL_COL_STR, FTL_COL_KEEP_START },
	};
	FtlTable *t = ftl_table_new("markers", cols, G_N_ELEMENTS(cols));
	for (guint i = 0; i < ftl_markers_count(r->markers); i++) {
		const FtlMarker *m = ftl_markers_get(r->markers, i);
		ftl_table_begin_row(t);
		if (m->ts != FTL_TS_NONE)
			ftl_table_set_int(t, C_TS, report_ts(r, m->ts));
		ftl_table_set_int(t, C_CPU, m->cpu);
		if (m->pid >= 0)
			ftl_table_set_int(t, C_PID, m->pid);
		ftl_table_set_int(t, C_LINE, (gint64)m->line);
		ftl_table_set_str(t, C_TEXT, m->text);
	}
	return t;
}

/* Where `tui --at` finds a call: its entry; for an orphan, whose entry
 * the trace does not hold (it began inside the call: entry_ts is the exit's
 * time less the duration, maybe long before the first event), its exit. */
static gint64 report_call_at(const FtlCall *c)
{
	if (!(c->flags & FTL_CALL_F_ORPHAN) || c->entry_ts == FTL_TS_NONE ||
	    c->duration == FTL_TS_NONE)
		return c->entry_ts;
	return ftl_sat_add_i64(c->entry_ts, c->duration);
}

static FtlTable *report_longest_table(const FtlReportData *r)
{
	enum { C_DURATION, C_FUNCTION, C_CPU, C_PID, C_COMM, C_ENTRY, C_LINE, C_AT };
	static const FtlColumn cols[] = {
		[C_DURATION] = { "duration_ns", "duration", FTL_COL_NS },
		[C_FUNCTION] = { "function", "function", FTL_COL_STR },
		[C_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[C_PID] = { "pid", "pid", FTL_COL_INT },
		[C_COMM] = { "comm", "comm", FTL_COL_STR },
		[C_ENTRY] = { "entry_ts_ns", "entered", FTL_COL_TS },
		[C_LINE] = { "line", "line", FTL_COL_INT },
		[C_AT] = FTL_COLUMN_AT,
	};
	FtlTable *t = ftl_table_new("longest_calls", cols, G_N_ELEMENTS(cols));
	/* an input without times has nothing to open the TUI at */
	gboolean timed = FALSE;
	for (guint i = 0; i < ftl_longest_count(r->longest); i++)
		timed |= ftl_longest_get(r->longest, i)->entry_ts != FTL_TS_NONE;
	if (!timed)
		ftl_table_omit(t, C_AT);
	for (guint i = 0; i < ftl_longest_count(r->longest); i++) {
		const FtlCall *c = ftl_longest_get(r->longest, i);
		char buf[64];
		ftl_table_begin_row(t);
		ftl_table_set_int(t, C_DURATION, c->duration);
		ftl_table_set_str(t, C_FUNCTION, c->func);
		ftl_table_set_int(t, C_CPU, c->cpu);
		if (c->pid >= 0)
			ftl_table_set_int(t, C_PID, c->pid);
		ftl_table_set_str(t, C_COMM, report_comm(r, c->pid, buf, sizeof buf));
		if (c->entry_ts != FTL_TS_NONE)
			ftl_table_set_int(t, C_ENTRY, report_ts(r, c->entry_ts));
		ftl_table_set_int(t, C_LINE, (gint64)c->line);
		ftl_table_set_at(t, C_AT, report_call_at(c));
	}
	return t;
}

static void report_header_text(const FtlReportData *r, FILE *out)
{
	char b1[48], b2[48], b3[48];
	const FtlCounts *c = r->counts;
	const FtlCpuQuality *all = ftl_quality_total(r->quality);
	/* the tracer is the input's word (a "# tracer:" line): made visible */
	g_autofree char *tracer = ftl_escape(ftl_counts_tracer(c, r->trace), -1);
	fputs("ftlens report: ", out);
	ftl_escape_fputs(ftl_trace_label(r->trace), out);
	fputc('\n', out);
	fprintf(out,
		"Tracer: %s   Dialect: %s   CPUs: %u   Events: %" G_GUINT64_FORMAT
		" from %" G_GUINT64_FORMAT " lines\n",
		tracer, ftl_trace_dialect(r->trace), ftl_quality_n_cpus(r->quality), all->events,
		all->event_lines);
	gint64 t0 = all->first_ts, t1 = all->last_ts;
	if (t0 != FTL_TS_NONE)
		fprintf(out, "Span: %s .. %s (%s)\n",
			ftl_time_format_us(report_ts(r, t0), b1, sizeof b1),
			ftl_time_format_us(report_ts(r, t1), b2, sizeof b2),
			ftl_duration_format(t1 - t0, b3, sizeof b3));
	else
		fprintf(out, "Span: unknown (the input has no timestamps)\n");
	fprintf(out,
		"Calls: %" G_GUINT64_FORMAT " rebuilt, %" G_GUINT64_FORMAT
		" repaired (orphan exits, calls open at the end or cut by lost events)\n",
		ftl_calltree_n_calls(r->calls), ftl_calltree_n_repaired(r->calls));
	fputc('\n', out);
	ftl_quality_print_text(r->quality, out, r->style);
}

/* why: what an empty section says besides "(none)"; NULL for nothing */
static void report_section(const FtlReportData *r, FILE *out, const char *title, const FtlTable *t,
			   guint top, const char *why)
{
	gboolean on = r->style && r->style->color;
	fprintf(out, "\n%s%s%s\n", ftl_color_code(on, FTL_COLOR_HEADER), title, ftl_color_reset(on));
	if (ftl_table_n_rows(t) == 0) {
		g_autofree char *vis = why ? ftl_escape(why, -1) : NULL; /* names the trace */
		fprintf(out, "  (none%s%s)\n", vis ? ": " : "", vis ? vis : "");
		return;
	}
	ftl_table_print_text(t, out, top, r->style);
}

static void report_print_json(const FtlReportData *r, const FtlTable *const *tables, guint n,
			      FILE *out)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	ftl_merge_add_schema(b, FTL_SCHEMA_REPORT);
	json_builder_set_member_name(b, "input");
	ftl_json_add_text(b, ftl_trace_label(r->trace));
	json_builder_set_member_name(b, "tracer");
	ftl_json_add_text(b, ftl_trace_tracer(r->trace));
	json_builder_set_member_name(b, "dialect");
	ftl_json_add_text(b, ftl_trace_dialect(r->trace));
	const FtlCpuQuality *all = ftl_quality_total(r->quality);
	ftl_json_member_int(b, "events", (gint64)all->events);
	ftl_json_member_int(b, "event_lines", (gint64)all->event_lines);
	ftl_json_member_opt(b, "lost_events", all->lost_events, FTL_LOST_UNKNOWN);
	ftl_json_member_int(b, "lost_lines", (gint64)all->lost_lines);
	ftl_json_member_opt(b, "first_ts_ns", report_ts(r, all->first_ts), FTL_TS_NONE);
	ftl_json_member_opt(b, "last_ts_ns", report_ts(r, all->last_ts), FTL_TS_NONE);
	json_builder_set_member_name(b, "calls");
	json_builder_add_int_value(b, (gint64)ftl_calltree_n_calls(r->calls));
	json_builder_set_member_name(b, "repaired_calls");
	json_builder_add_int_value(b, (gint64)ftl_calltree_n_repaired(r->calls));
	json_builder_set_member_name(b, "empty_why");
	if (r->empty_why)
		ftl_json_add_text(b, r->empty_why);
	else
		json_builder_add_null_value(b);
	ftl_quality_add_json(r->quality, b);
	for (guint i = 0; i < n; i++)
		if (tables[i])
			ftl_table_add_json(tables[i], b);
	if (r->sources)
		ftl_json_member_text(b, "sources_by", ftl_source_by_name(ftl_source_map_by(r->sources)));
	ftl_merge_add_funcstats(b, r->funcs);
	if (r->sched)
		ftl_merge_add_histo(b, "wakeup_latency_histogram",
				    ftl_sched_scope(r->sched, 0)->lat[FTL_SCHED_LAT_ALL].histo);
	ftl_diags_add_json(b, ftl_trace_diags(r->trace));
	json_builder_end_object(b);
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	ftl_json_print(root, out);
}

/* report --sched: the scheduling CPU and task tables (views/sched.c). */
static void report_sched_csv(const FtlReportData *r, FILE *out)
{
	g_autoptr(FtlTable) cpus = ftl_sched_cpu_table(r->sched, "sched_cpus", r->origin);
	g_autoptr(FtlTable) tasks =
		ftl_sched_task_table(r->sched, "sched_tasks", FTL_SCHED_SORT_RUN);
	fputs("\n# sched_cpus\n", out);
	ftl_table_print_csv(cpus, out);
	fputs("\n# sched_tasks\n", out);
	ftl_table_print_csv(tasks, out);
}

void ftl_report_print(const FtlReportData *r, FtlFormat format, FILE *out)
{
	/* text prints the top rows only: a table of every function would cost
	 * hundreds of bytes a row on a trace of a million distinct names */
	guint text_rows = format == FTL_FORMAT_TEXT ? r->top : 0;
	g_autoptr(FtlTable) by_self = ftl_report_func_table(r, r->sort, text_rows);
	g_autoptr(FtlTable) cpus = report_cpu_table(r);
	g_autoptr(FtlTable) markers = report_marker_table(r);
	g_autoptr(FtlTable) longest = report_longest_table(r);
	/* every function, whatever --threshold hides from the tables above */
	g_autoptr(FtlTable) sources = r->sources ? ftl_source_table(r->sources, r->funcs, "sources")
						 : NULL;
	if (format == FTL_FORMAT_JSON) {
		g_autoptr(FtlTable) s_cpus =
			r->sched ? ftl_sched_cpu_table(r->sched, "sched_cpus", r->origin) : NULL;
		g_autoptr(FtlTable) s_tasks =
			r->sched ? ftl_sched_task_table(r->sched, "sched_tasks", FTL_SCHED_SORT_RUN)
				 : NULL;
		const FtlTable *tables[] = { by_self, cpus, markers, longest, sources, s_cpus, s_tasks };
		report_print_json(r, tables, G_N_ELEMENTS(tables), out);
		return;
	}
	if (format == FTL_FORMAT_CSV) {
		const FtlTable *tables[] = { by_self, cpus, markers, longest };
		const char *names[] = { "functions", "cpus", "markers", "longest_calls" };
		for (guint i = 0; i < G_N_ELEMENTS(tables); i++) {
			fprintf(out, "%s# %s\n", i ? "\n" : "", names[i]);
			ftl_table_print_csv(tables[i], out);
		}
		if (sources) {
			fputs("\n# sources\n", out);
			ftl_table_print_csv(sources, out);
		}
		if (r->sched)
			report_sched_csv(r, out);
		return;
	}
	g_autoptr(FtlTable) by_total = ftl_report_func_table(r, FTL_FUNCSTATS_SORT_TOTAL, text_rows);
	report_header_text(r, out);
	gboolean timed = FALSE;
	GPtrArray *rows = ftl_funcstats_sorted(r->funcs, FTL_FUNCSTATS_SORT_SELF);
	for (guint i = 0; i < rows->len && !timed; i++)
		timed = ((const FtlFuncStat *)rows->pdata[i])->timed > 0;
	if (r->sort_given) {
		char head[64];
		g_snprintf(head, sizeof head, "Functions by %s", ftl_funcstats_sort_name(r->sort));
		report_section(r, out, head, by_self, r->top, r->empty_why);
	} else if (timed) {
		report_section(r, out,
			"Top functions by self time (! = some calls outside the complete window)",
			by_self, r->top, r->empty_why);
		report_section(r, out, "Top functions by total time", by_total, r->top, r->empty_why);
	} else {
		g_autoptr(FtlTable) by_calls = ftl_report_func_table(r, FTL_FUNCSTATS_SORT_CALLS, text_rows);
		report_section(r, out, "Top functions by calls (no durations in this input)", by_calls,
			       r->top, r->empty_why);
	}
	if (sources) {
		char head[96];
		g_snprintf(head, sizeof head, "Functions by source %s (where each is defined)",
			   ftl_source_by_name(ftl_source_map_by(r->sources)));
		report_section(r, out, head, sources, r->top, r->empty_why);
	}
	report_section(r, out, "Per CPU", cpus, 0, r->empty_why);
	char title[64];
	g_snprintf(title, sizeof title, "Markers (%u)", ftl_markers_count(r->markers));
	report_section(r, out, title, markers, r->top, NULL);
	report_section(r, out, "Longest calls", longest, r->top, r->empty_why);
	if (r->sched)
		ftl_sched_print_summary_text(r->sched, r->top, out, r->style);
	const FtlDiags *d = ftl_trace_diags(r->trace);
	if (ftl_diags_any(d)) {
		fputc('\n', out);
		ftl_diags_print_text(out, d);
	}
}
