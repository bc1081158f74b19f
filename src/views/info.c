/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The `info` view: dialect, tracer, CPUs, spans, line and event counts. */
#include "views/info.h"

#include "util/escape.h"
#include "views/quality.h"
#include "util/timefmt.h"
#include "util/checked.h"

/* The header's CPU count: the largest a source's header gives, else -1. */
static gint info_header_cpus(FtlTrace *trace)
{
	gint hcpus = -1;
	for (guint i = 0; i < ftl_trace_n_sources(trace); i++)
		hcpus = MAX(hcpus, ftl_trace_source(trace, i)->header_cpus);
	return hcpus;
}

void ftl_diags_print_text(FILE *out, const FtlDiags *diags)
{
	if (!ftl_diags_any(diags))
		return;
	fprintf(out, "Data anomalies:\n");
	for (int k = 0; k < FTL_DIAG_N_KINDS; k++) {
		const FtlDiagEntry *e = ftl_diags_get(diags, k);
		if (!e->count)
			continue;
		fprintf(out, "  %-40s %10" G_GUINT64_FORMAT, ftl_diag_kind_summary(k), e->count);
		if (e->amount)
			fprintf(out, " (%" G_GUINT64_FORMAT " in all)", e->amount);
		fputs("   first: ", out);
		ftl_escape_fputs(e->first_file, out);
		fprintf(out, ":%" G_GUINT64_FORMAT, e->first_line);
		if (e->first_text)
			fprintf(out, ": %s", e->first_text);
		fputc('\n', out);
	}
}

void ftl_diags_add_json(JsonBuilder *b, const FtlDiags *diags)
{
	json_builder_set_member_name(b, "diagnostics");
	json_builder_begin_object(b);
	for (int k = 0; k < FTL_DIAG_N_KINDS; k++) {
		const FtlDiagEntry *e = ftl_diags_get(diags, k);
		if (!e->count)
			continue;
		json_builder_set_member_name(b, ftl_diag_kind_name(k));
		json_builder_begin_object(b);
		json_builder_set_member_name(b, "count");
		json_builder_add_int_value(b, (gint64)e->count);
		json_builder_set_member_name(b, "amount");
		json_builder_add_int_value(b, ftl_sat_count_i64(e->amount));
		json_builder_set_member_name(b, "first_file");
		ftl_json_add_text(b, e->first_file);
		json_builder_set_member_name(b, "first_line");
		json_builder_add_int_value(b, (gint64)e->first_line);
		json_builder_set_member_name(b, "first_text");
		ftl_json_add_text(b, e->first_text ? e->first_text : "");
		json_builder_end_object(b);
	}
	json_builder_end_object(b);
}

/* t1 - t0 as a duration; "?" when damaged input makes it overflow. */
static const char *info_span(gint64 t0, gint64 t1, char *buf, gsize size)
{
	gint64 d;
	if (__builtin_sub_overflow(t1, t0, &d)) {
		g_strlcpy(buf, "?", size);
		return buf;
	}
	return ftl_duration_format(d, buf, size);
}

/* "Label:    value\n" with a value from the input made visible. */
static void info_line(FILE *out, const char *label, const char *value)
{
	fprintf(out, "%-10s", label);
	ftl_escape_fputs(value, out);
	fputc('\n', out);
}

/* Input, dialect, tracer, clock, buffers, CPUs and span. */
static void info_text_where(FILE *out, FtlTrace *trace, const FtlCounts *c,
			    const FtlQuality *q)
{
	char b1[64], b2[64], b3[64];
	info_line(out, "Input:", ftl_trace_label(trace));
	if (ftl_trace_n_sources(trace) > 1)
		for (guint i = 0; i < ftl_trace_n_sources(trace); i++) {
			const FtlSource *src = ftl_trace_source(trace, i);
			g_autofree char *one = src->buffer ? g_strdup_printf("%s (buffer %s)", src->path,
									 src->buffer)
							   : g_strdup(src->path);
			info_line(out, "", one);
		}
	info_line(out, "Dialect:", ftl_trace_dialect(trace));
	info_line(out, "Tracer:", ftl_counts_tracer(c, trace));
	if (ftl_trace_clock(trace))
		info_line(out, "Clock:", ftl_trace_clock(trace));
	if (ftl_trace_kernel(trace))
		info_line(out, "Kernel:", ftl_trace_kernel(trace));
	GPtrArray *bufs = ftl_trace_buffers(trace);
	if (bufs->len) {
		g_ptr_array_add(bufs, NULL);
		g_autofree char *list = g_strjoinv(", ", (char **)bufs->pdata);
		g_ptr_array_set_size(bufs, bufs->len - 1);
		fprintf(out, "Buffers:  ");
		ftl_escape_fputs(list, out);
		fputc('\n', out);
	}
	gint hcpus = info_header_cpus(trace);
	fprintf(out, "CPUs:     %u with events", ftl_quality_n_cpus(q));
	if (hcpus >= 0)
		fprintf(out, " (header says %d)", hcpus);
	fputc('\n', out);
	gint64 t0 = ftl_quality_total(q)->first_ts, t1 = ftl_quality_total(q)->last_ts;
	if (t0 != FTL_TS_NONE)
		fprintf(out, "Span:     %s .. %s (%s)\n", ftl_time_format_us(t0, b1, sizeof b1),
			ftl_time_format_us(t1, b2, sizeof b2),
			info_span(t0, t1, b3, sizeof b3));
	else
		fprintf(out, "Span:     no timestamps in the input\n");
}

/* Lines, events, the header's counts, lost events, markers. */
static void info_text_counts(FILE *out, FtlTrace *trace, const FtlCounts *c,
			     const FtlQuality *q)
{
	char b1[32];
	FtlSourceStats st = ftl_trace_stats(trace);
	const FtlCpuQuality *all = ftl_quality_total(q);
	gint64 in_buf, written;
	ftl_trace_header_entries(trace, &in_buf, &written);
	fprintf(out,
		"Lines:    %" G_GUINT64_FORMAT " total: %" G_GUINT64_FORMAT
		" event, %" G_GUINT64_FORMAT " header, %" G_GUINT64_FORMAT
		" special, %" G_GUINT64_FORMAT " blank, %" G_GUINT64_FORMAT " unparsed\n",
		st.total_lines, st.event_lines, st.header_lines, st.special_lines, st.blank_lines,
		st.unparsed_lines);
	fprintf(out, "Events:   %" G_GUINT64_FORMAT " (from %" G_GUINT64_FORMAT " lines)\n",
		all->events, all->event_lines);
	if (in_buf >= 0)
		fprintf(out,
			"Header:   entries-in-buffer %" G_GINT64_FORMAT
			", entries-written %" G_GINT64_FORMAT " (%" G_GINT64_FORMAT
			" overwritten)\n",
			in_buf, written, MAX(ftl_sat_sub_i64(written, in_buf), 0));
	fprintf(out, "Lost:     %s events in %" G_GUINT64_FORMAT " LOST lines%s\n",
		ftl_lost_format(all->lost_events, b1, sizeof b1), all->lost_lines,
		all->overrun >= 0 ? " (events: the CPU statistics)" : "");
	fprintf(out, "Markers:  %" G_GUINT64_FORMAT "\n", ftl_counts_kind(c, FTL_EVENT_MARKER));
}

static void info_text_cpus(FILE *out, const FtlQuality *q)
{
	char b1[64], b2[64], b3[64];
	fprintf(out, "\n%5s %12s %12s %-17s %-17s %s\n", "CPU", "event lines", "events", "first",
		"last", "span");
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *cc = ftl_quality_cpu(q, i);
		char cpu[16];
		if (cc->cpu < 0)
			g_strlcpy(cpu, "?", sizeof cpu);
		else
			g_snprintf(cpu, sizeof cpu, "%d", cc->cpu);
		fprintf(out, "%5s %12" G_GUINT64_FORMAT " %12" G_GUINT64_FORMAT " %-17s %-17s %s",
			cpu, cc->event_lines, cc->events,
			ftl_time_format_us(cc->first_ts, b1, sizeof b1),
			ftl_time_format_us(cc->last_ts, b2, sizeof b2),
			cc->first_ts == FTL_TS_NONE
				? "-"
				: info_span(cc->first_ts, cc->last_ts, b3, sizeof b3));
		if (cc->lost_events || cc->lost_lines)
			fprintf(out, "  lost %s", ftl_lost_format(cc->lost_events, b1, sizeof b1));
		fputc('\n', out);
	}
}

/* Event names, the first markers, the input's notes. */
static void info_text_lists(FILE *out, FtlTrace *trace, const FtlCounts *c)
{
	char b1[64];
	GPtrArray *names = ftl_counts_names(c);
	fprintf(out, "\n%12s  %s\n", "lines", "event");
	for (guint i = 0; i < names->len; i++) {
		const FtlNameCount *nc = g_ptr_array_index(names, i);
		fprintf(out, "%12" G_GUINT64_FORMAT "  ", nc->count);
		ftl_escape_fputs(nc->name, out);
		fputc('\n', out);
	}
	GPtrArray *ms = ftl_counts_marker_samples(c);
	if (ms->len) {
		fprintf(out, "\nMarkers (first %u):\n", ms->len);
		for (guint i = 0; i < ms->len; i++) {
			const FtlMarkerSample *m = g_ptr_array_index(ms, i);
			g_autofree char *text = ftl_escape(m->text, -1);
			fprintf(out, "  %17s cpu %-3d line %-8" G_GUINT64_FORMAT " %s\n",
				ftl_time_format_us(m->ts, b1, sizeof b1), m->cpu, m->line, text);
		}
	}
	GPtrArray *notes = ftl_trace_notes(trace);
	if (notes->len) {
		fprintf(out, "\nNotes:\n");
		for (guint i = 0; i < notes->len; i++) {
			fputs("  ", out);
			ftl_escape_fputs(g_ptr_array_index(notes, i), out);
			fputc('\n', out);
		}
	}
}

void ftl_info_print_text(FILE *out, FtlTrace *trace, const FtlCounts *c, const FtlQuality *q,
			 const FtlTextStyle *style)
{
	info_text_where(out, trace, c, q);
	info_text_counts(out, trace, c, q);
	info_text_cpus(out, q);
	info_text_lists(out, trace, c);
	const FtlDiags *d = ftl_trace_diags(trace);
	if (ftl_diags_any(d)) {
		fputc('\n', out);
		ftl_diags_print_text(out, d);
	}
	fputc('\n', out);
	ftl_quality_print_text(q, out, style);
}

void ftl_info_print_csv(FILE *out, FtlTrace *trace, const FtlCounts *c, const FtlQuality *q)
{
	enum { CPU_CPU, CPU_EVENT_LINES, CPU_EVENTS, CPU_FIRST_TS, CPU_LAST_TS, CPU_LOST_EVENTS };
	static const FtlColumn cpus_cols[] = {
		[CPU_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[CPU_EVENT_LINES] = { "event_lines", "event lines", FTL_COL_INT },
		[CPU_EVENTS] = { "events", "events", FTL_COL_INT },
		[CPU_FIRST_TS] = { "first_ts_ns", "first", FTL_COL_TS },
		[CPU_LAST_TS] = { "last_ts_ns", "last", FTL_COL_TS },
		[CPU_LOST_EVENTS] = { "lost_events", "lost", FTL_COL_INT, FTL_COL_ALERT },
	};
	g_autoptr(FtlTable) cpus = ftl_table_new("cpus", cpus_cols, G_N_ELEMENTS(cpus_cols));
	(void)trace;
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *cc = ftl_quality_cpu(q, i);
		ftl_table_begin_row(cpus);
		ftl_table_set_int(cpus, CPU_CPU, cc->cpu);
		ftl_table_set_int(cpus, CPU_EVENT_LINES, (gint64)cc->event_lines);
		ftl_table_set_int(cpus, CPU_EVENTS, (gint64)cc->events);
		if (cc->first_ts != FTL_TS_NONE) {
			ftl_table_set_int(cpus, CPU_FIRST_TS, cc->first_ts);
			ftl_table_set_int(cpus, CPU_LAST_TS, cc->last_ts);
		}
		if (cc->lost_events != FTL_LOST_UNKNOWN) /* unknown: an empty cell */
			ftl_table_set_int(cpus, CPU_LOST_EVENTS, cc->lost_events);
	}
	enum { NAM_EVENT, NAM_LINES };
	static const FtlColumn names_cols[] = {
		[NAM_EVENT] = { "event", "event", FTL_COL_STR },
		[NAM_LINES] = { "lines", "lines", FTL_COL_INT },
	};
	g_autoptr(FtlTable) names =
		ftl_table_new("event_names", names_cols, G_N_ELEMENTS(names_cols));
	GPtrArray *nl = ftl_counts_names(c);
	for (guint i = 0; i < nl->len; i++) {
		const FtlNameCount *nc = g_ptr_array_index(nl, i);
		ftl_table_begin_row(names);
		ftl_table_set_str(names, NAM_EVENT, nc->name);
		ftl_table_set_int(names, NAM_LINES, (gint64)nc->count);
	}
	fprintf(out, "# cpus\n");
	ftl_table_print_csv(cpus, out);
	fprintf(out, "\n# event_names\n");
	ftl_table_print_csv(names, out);
}

static void info_json_text_array(JsonBuilder *b, const char *name, GPtrArray *texts)
{
	json_builder_set_member_name(b, name);
	json_builder_begin_array(b);
	for (guint i = 0; i < texts->len; i++)
		ftl_json_add_text(b, g_ptr_array_index(texts, i));
	json_builder_end_array(b);
}

/* input, files, dialect, tracer, clock, buffers, notes */
static void info_json_where(JsonBuilder *b, FtlTrace *trace, const FtlCounts *c)
{
	ftl_json_member_text(b, "input", ftl_trace_label(trace));
	json_builder_set_member_name(b, "files");
	json_builder_begin_array(b);
	for (guint i = 0; i < ftl_trace_n_sources(trace); i++)
		ftl_json_add_text(b, ftl_trace_source(trace, i)->path);
	json_builder_end_array(b);
	ftl_json_member_text(b, "dialect", ftl_trace_dialect(trace));
	ftl_json_member_text(b, "tracer", ftl_counts_tracer(c, trace));
	ftl_json_member_text(b, "clock", ftl_trace_clock(trace));
	ftl_json_member_text(b, "kernel", ftl_trace_kernel(trace));
	info_json_text_array(b, "buffers", ftl_trace_buffers(trace));
	info_json_text_array(b, "notes", ftl_trace_notes(trace));
}

static void info_json_cpus(JsonBuilder *b, const FtlQuality *q)
{
	json_builder_set_member_name(b, "cpus");
	json_builder_begin_object(b);
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *cc = ftl_quality_cpu(q, i);
		char key[16];
		g_snprintf(key, sizeof key, "%d", cc->cpu);
		ftl_json_member_int(b, key, (gint64)cc->event_lines);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "cpu_details");
	json_builder_begin_array(b);
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *cc = ftl_quality_cpu(q, i);
		json_builder_begin_object(b);
		ftl_json_member_int(b, "cpu", cc->cpu);
		ftl_cpu_summary_add_json(b, cc);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void info_json_counts(JsonBuilder *b, FtlTrace *trace, const FtlCounts *c,
			     const FtlQuality *q)
{
	FtlSourceStats st = ftl_trace_stats(trace);
	const FtlCpuQuality *all = ftl_quality_total(q);
	gint64 in_buf, written;
	ftl_trace_header_entries(trace, &in_buf, &written);
	ftl_json_member_int(b, "header_cpus", info_header_cpus(trace));
	ftl_json_member_int(b, "total_lines", (gint64)st.total_lines);
	ftl_json_member_int(b, "event_lines", (gint64)st.event_lines);
	ftl_json_member_int(b, "header_lines", (gint64)st.header_lines);
	ftl_json_member_int(b, "special_lines", (gint64)st.special_lines);
	ftl_json_member_int(b, "blank_lines", (gint64)st.blank_lines);
	ftl_json_member_int(b, "unparsed_lines", (gint64)st.unparsed_lines);
	ftl_json_member_int(b, "events", (gint64)all->events);
	ftl_json_member_int(b, "markers", (gint64)ftl_counts_kind(c, FTL_EVENT_MARKER));
	ftl_json_member_opt(b, "lost_events", all->lost_events, FTL_LOST_UNKNOWN);
	ftl_json_member_int(b, "lost_lines", (gint64)all->lost_lines);
	ftl_json_member_int(b, "entries_in_buffer", in_buf);
	ftl_json_member_int(b, "entries_written", written);
	ftl_json_member_opt(b, "first_ts_ns", all->first_ts, FTL_TS_NONE);
	ftl_json_member_opt(b, "last_ts_ns", all->last_ts, FTL_TS_NONE);
}

/* event names, kinds, the first markers */
static void info_json_lists(JsonBuilder *b, const FtlCounts *c)
{
	json_builder_set_member_name(b, "event_names");
	json_builder_begin_object(b);
	GPtrArray *names = ftl_counts_names(c);
	for (guint i = 0; i < names->len; i++) {
		const FtlNameCount *nc = g_ptr_array_index(names, i);
		ftl_json_set_member_text(b, nc->name);
		json_builder_add_int_value(b, (gint64)nc->count);
	}
	json_builder_end_object(b);
	json_builder_set_member_name(b, "kinds");
	json_builder_begin_object(b);
	for (int k = 0; k < FTL_EVENT_N_KINDS; k++)
		if (ftl_counts_kind(c, k))
			ftl_json_member_int(b, ftl_event_kind_name(k),
					    (gint64)ftl_counts_kind(c, k));
	json_builder_end_object(b);
	json_builder_set_member_name(b, "marker_samples");
	json_builder_begin_array(b);
	GPtrArray *ms = ftl_counts_marker_samples(c);
	for (guint i = 0; i < ms->len; i++) {
		const FtlMarkerSample *m = g_ptr_array_index(ms, i);
		json_builder_begin_object(b);
		ftl_json_member_opt(b, "ts_ns", m->ts, FTL_TS_NONE);
		ftl_json_member_int(b, "cpu", m->cpu);
		ftl_json_member_int(b, "line", (gint64)m->line);
		ftl_json_member_text(b, "text", m->text);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

JsonNode *ftl_info_to_json(FtlTrace *trace, const FtlCounts *c, const FtlQuality *q)
{
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	info_json_where(b, trace, c);
	info_json_cpus(b, q);
	info_json_counts(b, trace, c, q);
	info_json_lists(b, c);
	ftl_diags_add_json(b, ftl_trace_diags(trace));
	ftl_quality_add_json(q, b);
	json_builder_end_object(b);
	return json_builder_get_root(b);
}
