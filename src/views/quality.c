/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The "Data quality" view: what ftl_quality found, as text or JSON. */
#include "views/quality.h"
#include "views/table.h"

#include <string.h>

#include "util/checked.h"
#include "util/color.h"
#include "util/timefmt.h"


/* Caveats are sentences of any length: wrap them at word boundaries so the
 * block stays inside the width reports promise. */
static void quality_print_wrapped(FILE *out, const char *text, const char *first, const char *cont,
				  guint width)
{
	const char *indent = first;
	const char *p = text;
	while (*p) {
		guint avail = width > strlen(indent) + 10 ? width - (guint)strlen(indent) : 10;
		gsize len = strlen(p);
		gsize take = len;
		if (len > avail) {
			take = avail;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0) /* one long word: cut it */
				take = avail;
		}
		fprintf(out, "%s%.*s\n", indent, (int)take, p);
		p += take;
		while (*p == ' ')
			p++;
		indent = cont;
	}
}

static const char *quality_opt_int(gint64 v, char *buf, gsize size)
{
	if (v < 0)
		return "-";
	g_snprintf(buf, size, "%" G_GINT64_FORMAT, v);
	return buf;
}

const char *ftl_lost_format(gint64 lost, char *buf, gsize size)
{
	if (lost == FTL_LOST_UNKNOWN)
		return "unknown";
	g_snprintf(buf, size, "%" G_GINT64_FORMAT, lost);
	return buf;
}

void ftl_quality_print_text(const FtlQuality *q, FILE *out, const FtlTextStyle *style)
{
	char b1[64], b2[64], b3[64], b4[64];
	gboolean on = style && style->color;
	/* prose is wrapped, never cut: to the terminal, else 100 columns */
	guint width = style && style->width ? style->width : 100;
	fprintf(out, "Data quality:\n");
	fprintf(out, "  %s%4s %11s %-17s %-17s %10s %5s %7s %10s%s\n",
		ftl_color_code(on, FTL_COLOR_HEADER), "CPU", "event lines", "first", "last", "lost",
		"LOST", "started", "overrun", ftl_color_reset(on));
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *c = ftl_quality_cpu(q, i);
		char cpu[16];
		if (c->cpu < 0)
			g_strlcpy(cpu, "?", sizeof cpu);
		else
			g_snprintf(cpu, sizeof cpu, "%d", c->cpu);
		/* a CPU that lost events or lines in the alert colour */
		FtlColorRole role =
			c->lost_events || c->lost_lines ? FTL_COLOR_ALERT : FTL_COLOR_NONE;
		fprintf(out,
			"  %s%4s %11" G_GUINT64_FORMAT " %-17s %-17s %10s %5" G_GUINT64_FORMAT
			" %7" G_GUINT64_FORMAT " %10s%s\n",
			ftl_color_code(on, role), cpu, c->event_lines,
			ftl_time_format_us(c->first_ts, b1, sizeof b1),
			ftl_time_format_us(c->last_ts, b2, sizeof b2),
			ftl_lost_format(c->lost_events, b3, sizeof b3), c->lost_lines,
			c->buffer_started, quality_opt_int(c->overrun, b4, sizeof b4),
			role ? ftl_color_reset(on) : "");
	}
	gint64 ws = ftl_quality_window_start(q), we = ftl_quality_window_end(q);
	if (ws != FTL_TS_NONE)
		fprintf(out, "  Complete window: %s .. %s (%s)\n",
			ftl_time_format_us(ws, b1, sizeof b1),
			ftl_time_format_us(we, b2, sizeof b2),
			ftl_duration_format(ftl_sat_sub_i64(we, ws), b3, sizeof b3));
	else
		fprintf(out, "  Complete window: none\n");
	gint64 ev = ftl_quality_evicted(q);
	if (ev >= 0)
		fprintf(out, "  Overwritten:     %" G_GINT64_FORMAT " events (from the %s)\n", ev,
			ftl_quality_total(q)->overrun >= 0 ? "CPU statistics" : "header");
	else
		fprintf(out, "  Overwritten:     unknown (no entries-written in the header, no CPU "
			     "statistics)\n");
	GPtrArray *cav = ftl_quality_caveats(q);
	if (cav->len) {
		fprintf(out, "  Caveats:\n");
		for (guint i = 0; i < cav->len; i++)
			quality_print_wrapped(out, g_ptr_array_index(cav, i), "    - ", "      ",
					      width);
	}
}

void ftl_cpu_summary_add_json(JsonBuilder *b, const FtlCpuQuality *c)
{
	ftl_json_member_int(b, "events", (gint64)c->events);
	ftl_json_member_int(b, "event_lines", (gint64)c->event_lines);
	ftl_json_member_opt(b, "first_ts_ns", c->first_ts, FTL_TS_NONE);
	ftl_json_member_opt(b, "last_ts_ns", c->last_ts, FTL_TS_NONE);
	ftl_json_member_int(b, "lost_lines", (gint64)c->lost_lines);
	ftl_json_member_opt(b, "lost_events", c->lost_events, FTL_LOST_UNKNOWN);
	ftl_json_member_opt(b, "overrun", c->overrun, -1);
	ftl_json_member_int(b, "buffer_started", (gint64)c->buffer_started);
}

/* FTL_TS_NONE, unknown lost events and the -1 of unknown counts become
 * null. */
void ftl_quality_add_json(const FtlQuality *q, JsonBuilder *b)
{
	json_builder_set_member_name(b, "quality");
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "cpus");
	json_builder_begin_array(b);
	for (guint i = 0; i < ftl_quality_n_cpus(q); i++) {
		const FtlCpuQuality *c = ftl_quality_cpu(q, i);
		json_builder_begin_object(b);
		ftl_json_member_int(b, "cpu", c->cpu);
		ftl_cpu_summary_add_json(b, c);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	ftl_json_member_opt(b, "window_start_ns", ftl_quality_window_start(q), FTL_TS_NONE);
	ftl_json_member_opt(b, "window_end_ns", ftl_quality_window_end(q), FTL_TS_NONE);
	ftl_json_member_opt(b, "evicted", ftl_quality_evicted(q), -1);
	json_builder_set_member_name(b, "caveats");
	json_builder_begin_array(b);
	GPtrArray *cav = ftl_quality_caveats(q);
	for (guint i = 0; i < cav->len; i++)
		ftl_json_add_text(b, g_ptr_array_index(cav, i));
	json_builder_end_array(b);
	json_builder_end_object(b);
}
