/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renders kernel reports and their ftrace dumps: text that fits 100 columns
 * with the call trace as the kernel printed it, or JSON with every field. */
#include "views/oops.h"

#include <string.h>

#include "util/timefmt.h"
#include "views/info.h"
#include "views/table.h"
#include "util/escape.h"
#include "util/checked.h"

#define OOPS_WIDTH 100

/* ---- shared -------------------------------------------------------------- */

static guint64 oops_lineno(const FtlOopsView *v, guint idx)
{
	return ftl_console_line(v->con, idx)->lineno;
}

static void oops_frame_text(GString *s, const FtlOopsFrame *f)
{
	if (f->func) {
		g_string_append(s, f->func);
		if (f->offset || f->size) {
			g_string_append_printf(s, "+0x%" G_GINT64_MODIFIER "x", f->offset);
			if (f->size)
				g_string_append_printf(s, "/0x%" G_GINT64_MODIFIER "x", f->size);
		}
	} else {
		g_string_append_printf(s, "0x%s", f->address ? f->address : "0");
	}
	if (f->module)
		g_string_append_printf(s, " [%s]", f->module);
	if (f->source)
		g_string_append_printf(s, " %s", f->source);
	if (f->inlined)
		g_string_append(s, " [inline]");
}

/* Text that reaches a terminal: printable, and cut to width with '~'. */
static char *oops_fit(const char *text, guint width)
{
	g_autofree char *untabbed = g_strdup(text);
	g_strdelimit(untabbed, "\t", ' ');
	GString *s = g_string_new(NULL);
	ftl_escape_append(s, untabbed, -1);
	if (width > 1 && ftl_escape_width(s->str) > width) {
		g_string_truncate(s, ftl_escape_fit(s->str, width - 1));
		g_string_append_c(s, '~');
	}
	return g_string_free(s, FALSE);
}

static void oops_kv(FILE *out, const char *key, const char *value)
{
	if (!value || !*value)
		return;
	g_autofree char *vis = oops_fit(value, OOPS_WIDTH - 13);
	fprintf(out, "  %-10s %s\n", key, vis);
}

static guint oops_report_of_dump(const FtlOopsView *v, guint d)
{
	for (guint i = 0; i < ftl_oops_count(v->oops); i++) {
		const FtlOopsReport *r = ftl_oops_get(v->oops, i);
		for (guint k = 0; k < r->dumps->len; k++)
			if (g_array_index(r->dumps, guint, k) == d)
				return i + 1;
	}
	return 0;
}

/* ---- text ------------------------------------------------------------------ */

static void oops_text_stack(FILE *out, const FtlOopsView *v, const FtlOopsStack *st)
{
	g_autofree char *label = oops_fit(st->label ? st->label : "Stack", OOPS_WIDTH - 40);
	gsize n = strlen(label);
	if (n && label[n - 1] == ':')
		label[n - 1] = 0;
	fprintf(out, "  %s (line %" G_GUINT64_FORMAT ", %u frames%s):\n", label,
		oops_lineno(v, st->line), st->frames->len,
		st->interleaved ? ", mixed with another CPU's output" : "");
	const char *section = NULL;
	g_autoptr(GString) s = g_string_new(NULL);
	for (guint i = 0; i < st->frames->len; i++) {
		const FtlOopsFrame *f = &g_array_index(st->frames, FtlOopsFrame, i);
		if (g_strcmp0(section, f->section)) {
			if (f->section)
				fprintf(out, "     <%s>\n", f->section);
			section = f->section;
		}
		g_string_truncate(s, 0);
		oops_frame_text(s, f);
		g_autofree char *vis = oops_fit(s->str, OOPS_WIDTH - 9);
		fprintf(out, "   %s %s%s\n", f->reliable ? " " : "?", section ? "  " : "", vis);
	}
}

static void oops_text_regs(FILE *out, const FtlOopsReport *r)
{
	if (!r->regs->len)
		return;
	fprintf(out, "  Registers:\n");
	GString *line = g_string_new("   ");
	for (guint i = 0; i < r->regs->len; i++) {
		const FtlOopsReg *g = &g_array_index(r->regs, FtlOopsReg, i);
		g_autofree char *item = g_strdup_printf(" %s=%s", g->name, g->value);
		if (line->len + strlen(item) > OOPS_WIDTH - 2 && line->len > 3) {
			g_autofree char *vis = oops_fit(line->str, OOPS_WIDTH);
			fprintf(out, "%s\n", vis);
			g_string_assign(line, "   ");
		}
		g_string_append(line, item);
	}
	if (line->len > 3) {
		g_autofree char *vis = oops_fit(line->str, OOPS_WIDTH);
		fprintf(out, "%s\n", vis);
	}
	g_string_free(line, TRUE);
}

static void oops_text_report(FILE *out, const FtlOopsView *v, guint i)
{
	const FtlOopsReport *r = ftl_oops_get(v->oops, i);
	g_autofree char *title = oops_fit(r->title, OOPS_WIDTH - 24);
	fprintf(out, "Report %u of %u: %s\n", i + 1, ftl_oops_count(v->oops), title);
	char buf[128], tb[64];
	g_snprintf(buf, sizeof buf, "%s%s%s", ftl_oops_kind_name(r->kind),
		   r->corrupted ? " (damaged: title is a best guess)" : "",
		   r->cut ? " (the log ends inside it)" : "");
	oops_kv(out, "kind", buf);
	g_snprintf(buf, sizeof buf, "%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "%s%s",
		   oops_lineno(v, r->first), oops_lineno(v, r->last),
		   r->ts != FTL_TS_NONE ? ", time " : "",
		   r->ts != FTL_TS_NONE ? ftl_time_format_us(r->ts, tb, sizeof tb) : "");
	oops_kv(out, "lines", buf);
	oops_kv(out, "header", r->header);
	GString *task = g_string_new(NULL);
	if (r->cpu >= 0)
		g_string_append_printf(task, "CPU %d", r->cpu);
	if (r->pid >= 0)
		g_string_append_printf(task, "%sPID %d", task->len ? ", " : "", r->pid);
	if (r->comm)
		g_string_append_printf(task, "%scomm %s", task->len ? ", " : "", r->comm);
	oops_kv(out, "task", task->str);
	g_string_free(task, TRUE);
	if (r->release || r->taint) {
		g_autofree char *k = g_strdup_printf(
			"%s%s%s%s%s", r->release ? r->release : "", r->build ? " " : "",
			r->build ? r->build : "", r->release || r->build ? ", " : "",
			r->taint ? (r->tainted ? "tainted: " : "") : "taint not printed");
		g_autofree char *k2 = g_strconcat(k, r->taint ? r->taint : "", NULL);
		oops_kv(out, "kernel", k2);
	}
	oops_kv(out, "hardware", r->hardware);
	oops_kv(out, "arch", r->arch);
	if (r->has_fault) {
		GString *s = g_string_new(NULL);
		g_string_append_printf(s, "%s ", r->fault_reg);
		oops_frame_text(s, &r->fault);
		oops_kv(out, "fault", s->str);
		g_string_free(s, TRUE);
	}
	oops_kv(out, "blamed", r->blamed);
	oops_kv(out, "at", r->location);
	oops_kv(out, "oops", r->oops);
	oops_kv(out, "panic", r->panic);
	if (r->modules->len || r->last_unloaded) {
		GString *s = g_string_new(NULL);
		for (guint k = 0; k < r->modules->len; k++)
			g_string_append_printf(s, "%s%s", k ? " " : "",
					       (const char *)g_ptr_array_index(r->modules, k));
		if (!r->modules->len)
			g_string_append(s, "(none)");
		if (r->last_unloaded)
			g_string_append_printf(s, " [last unloaded: %s]", r->last_unloaded);
		oops_kv(out, "modules", s->str);
		g_string_free(s, TRUE);
	}
	oops_kv(out, "end", r->end_marker);
	const FtlOopsStack *main = ftl_oops_report_trace(r);
	if (main)
		oops_text_stack(out, v, main);
	oops_text_regs(out, r);
	gboolean others = FALSE;
	for (guint k = 0; k < r->stacks->len; k++) {
		const FtlOopsStack *st = g_ptr_array_index(r->stacks, k);
		if (st == main)
			continue;
		if (!others)
			fprintf(out, "  Other stacks:\n");
		others = TRUE;
		const FtlOopsFrame *top =
			st->frames->len ? &g_array_index(st->frames, FtlOopsFrame, 0) : NULL;
		g_autofree char *lab = oops_fit(st->label ? st->label : "Stack", 48);
		fprintf(out, "    line %-7" G_GUINT64_FORMAT " %-48s %3u frames%s%s\n",
			oops_lineno(v, st->line), lab, st->frames->len, top ? ", top " : "",
			top && top->func ? top->func : "");
	}
}

static void oops_text_dump_cpus(FILE *out, const FtlOopsTrail *t)
{
	enum { CPU_CPU, CPU_EVENTS, CPU_EVENT_LINES, CPU_LOST };
	static const FtlColumn cpus_cols[] = {
		[CPU_CPU] = { "cpu", "cpu", FTL_COL_INT },
		[CPU_EVENTS] = { "events", "events", FTL_COL_INT },
		[CPU_EVENT_LINES] = { "event_lines", "lines", FTL_COL_INT },
		[CPU_LOST] = { "lost", "lost", FTL_COL_INT, FTL_COL_ALERT },
	};
	g_autoptr(FtlTable) cpus = ftl_table_new("cpus", cpus_cols, G_N_ELEMENTS(cpus_cols));
	for (guint i = 0; i < ftl_oops_trail_n_cpus(t); i++) {
		const FtlOopsCpu *c = ftl_oops_trail_cpu(t, i);
		ftl_table_begin_row(cpus);
		ftl_table_set_int(cpus, CPU_CPU, c->cpu);
		ftl_table_set_int(cpus, CPU_EVENTS, (gint64)c->events);
		ftl_table_set_int(cpus, CPU_EVENT_LINES, (gint64)c->event_lines);
		ftl_table_set_int(cpus, CPU_LOST, ftl_sat_count_i64(c->lost));
	}
	ftl_table_print_text(cpus, out, 0, OOPS_WIDTH);
}

/* The calls still open when the dump ended, the markers in it and the last
 * events of every CPU, each with the console line it came from. */
static void oops_text_trail(FILE *out, const FtlOopsView *v, guint d, const FtlOopsTrail *t)
{
	guint n_open;
	gint open_cpu;
	const FtlOopsOpenCall *path = ftl_oops_trail_open(t, &n_open, &open_cpu);
	if (n_open)
		fprintf(out, "  Calls still open on CPU %d at the end of the dump:\n", open_cpu);
	for (guint i = 0; i < n_open; i++) {
		g_autofree char *vis = oops_fit(path[i].func, OOPS_WIDTH - 18 - 2 * MIN(i, 20));
		fprintf(out, "    line %-7" G_GUINT64_FORMAT " %*s%s\n",
			ftl_console_dump_input_line(v->con, d, path[i].line), 2 * (gint)MIN(i, 20), "",
			vis);
	}
	const FtlMarkers *m = ftl_oops_trail_markers(t);
	if (ftl_markers_count(m))
		fprintf(out, "  Markers:\n");
	for (guint i = 0; i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		char tb[64];
		g_autofree char *vis = oops_fit(mk->text, OOPS_WIDTH - 40);
		fprintf(out, "    line %-7" G_GUINT64_FORMAT " cpu %-3d ",
			ftl_console_dump_input_line(v->con, d, mk->line), mk->cpu);
		if (mk->ts != FTL_TS_NONE)
			fprintf(out, "%-16s ", ftl_time_format_us(mk->ts, tb, sizeof tb));
		fprintf(out, "%s\n", vis);
	}
	for (guint i = 0; i < ftl_oops_trail_n_cpus(t); i++) {
		const FtlOopsCpu *c = ftl_oops_trail_cpu(t, i);
		if (c->n_last)
			fprintf(out, "  Last %u events on CPU %d:\n", c->n_last, c->cpu);
		for (guint k = 0; k < c->n_last; k++) {
			g_autofree char *vis = oops_fit(c->last[k].text, OOPS_WIDTH - 18);
			fprintf(out, "    line %-7" G_GUINT64_FORMAT " %s\n",
				ftl_console_dump_input_line(v->con, d, c->last[k].line), vis);
		}
	}
}

static void oops_text_dump(FILE *out, const FtlOopsView *v, guint d)
{
	const FtlConsoleDump *dump = g_ptr_array_index(v->con->dumps, d);
	const FtlOopsDumpView *dv = &v->dumps[d];
	guint rep = oops_report_of_dump(v, d);
	g_autofree char *instance = dump->instance ? oops_fit(dump->instance, 40) : NULL;
	fprintf(out, "ftrace dump %u%s%s (lines %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT, d + 1,
		instance ? " of instance " : "", instance ? instance : "",
		oops_lineno(v, dump->header), oops_lineno(v, dump->end));
	if (rep)
		fprintf(out, ", printed with report %u", rep);
	fprintf(out, "): ");
	if (dump->empty) {
		fprintf(out, "the buffer was empty\n");
		return;
	}
	fprintf(out, "%u trace lines%s", dump->content->len,
		dump->closed ? "" : ", no end line (cut short)");
	if (dump->skipped)
		fprintf(out, ", %u lines of other messages left out", dump->skipped);
	if (dv->dialect)
		fprintf(out, ", %s", dv->dialect);
	fputc('\n', out);
	if (dv->diags)
		ftl_diags_print_text(out, dv->diags);
	if (!dv->trail)
		return;
	if (dv->stats.unparsed_lines)
		fprintf(out, "  %" G_GUINT64_FORMAT " lines not understood as trace lines\n",
			dv->stats.unparsed_lines);
	oops_text_dump_cpus(out, dv->trail);
	oops_text_trail(out, v, d, dv->trail);
}

void ftl_oops_print_text(FILE *out, const FtlOopsView *v)
{
	guint n = ftl_oops_count(v->oops);
	g_autofree char *path = ftl_escape(v->con->path, -1);
	fprintf(out, "%s: %" G_GUINT64_FORMAT " lines, ", path, v->con->n_input);
	if (n)
		fprintf(out, "%u kernel report%s", n, n == 1 ? "" : "s");
	else
		fprintf(out, "no kernel report found");
	fprintf(out, ", %u ftrace dump%s\n", v->con->dumps->len,
		v->con->dumps->len == 1 ? "" : "s");
	for (guint i = 0; i < n; i++) {
		fputc('\n', out);
		oops_text_report(out, v, i);
	}
	for (guint d = 0; d < v->con->dumps->len; d++) {
		fputc('\n', out);
		oops_text_dump(out, v, d);
	}
	if (ftl_diags_any(v->con->diags))
		fputc('\n', out);
	ftl_diags_print_text(out, v->con->diags);
}

void ftl_oops_print_extracted(FILE *out, const FtlConsole *con, guint d, const char *out_path)
{
	const FtlConsoleDump *dump = g_ptr_array_index(con->dumps, d);
	g_autofree char *vis_out = ftl_escape(out_path, -1);
	g_autofree char *vis_in = ftl_escape(con->path, -1);
	fprintf(out,
		"%s: ftrace dump %u of '%s' (lines %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
		"), %u trace lines%s\n",
		vis_out, d + 1, vis_in, ftl_console_line(con, dump->header)->lineno,
		ftl_console_line(con, dump->end)->lineno, dump->content->len,
		dump->closed ? "" : ", cut short");
}

/* ---- JSON --------------------------------------------------------------------- */

static void oops_json_str(JsonBuilder *b, const char *name, const char *value)
{
	ftl_json_member_text(b, name, value);
}

static void oops_json_bool(JsonBuilder *b, const char *name, gboolean value)
{
	json_builder_set_member_name(b, name);
	json_builder_add_boolean_value(b, value);
}

static void oops_json_frame(JsonBuilder *b, const FtlOopsView *v, const FtlOopsFrame *f,
			    gboolean with_line)
{
	json_builder_begin_object(b);
	oops_json_str(b, "function", f->func);
	ftl_json_member_opt(b, "offset", (gint64)f->offset, f->func ? -1 : 0);
	ftl_json_member_opt(b, "size", (gint64)f->size, 0);
	oops_json_str(b, "module", f->module);
	oops_json_str(b, "address", f->address);
	oops_json_str(b, "source", f->source);
	oops_json_bool(b, "inline", f->inlined);
	oops_json_bool(b, "reliable", f->reliable);
	oops_json_str(b, "section", f->section);
	if (with_line)
		ftl_json_member_int(b, "line", (gint64)oops_lineno(v, f->line));
	json_builder_end_object(b);
}

static void oops_json_stack(JsonBuilder *b, const FtlOopsView *v, const FtlOopsStack *st)
{
	json_builder_begin_object(b);
	oops_json_str(b, "label", st->label);
	ftl_json_member_int(b, "line", (gint64)oops_lineno(v, st->line));
	oops_json_bool(b, "interleaved", st->interleaved);
	json_builder_set_member_name(b, "frames");
	json_builder_begin_array(b);
	for (guint i = 0; i < st->frames->len; i++)
		oops_json_frame(b, v, &g_array_index(st->frames, FtlOopsFrame, i), TRUE);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void oops_json_report(JsonBuilder *b, const FtlOopsView *v, guint i)
{
	const FtlOopsReport *r = ftl_oops_get(v->oops, i);
	json_builder_begin_object(b);
	ftl_json_member_int(b, "index", i + 1);
	oops_json_str(b, "kind", ftl_oops_kind_name(r->kind));
	oops_json_str(b, "title", r->title);
	oops_json_str(b, "blamed", r->blamed);
	oops_json_bool(b, "corrupted", r->corrupted);
	oops_json_bool(b, "cut", r->cut);
	oops_json_str(b, "header", r->header);
	ftl_json_member_int(b, "first_line", (gint64)oops_lineno(v, r->first));
	ftl_json_member_int(b, "header_line", (gint64)oops_lineno(v, r->header_line));
	ftl_json_member_int(b, "last_line", (gint64)oops_lineno(v, r->last));
	ftl_json_member_int(b, "lines", r->n_lines);
	ftl_json_member_opt(b, "ts_ns", r->ts, FTL_TS_NONE);
	if (r->caller_kind) {
		g_autofree char *c = g_strdup_printf("%c%d", r->caller_kind, r->caller);
		oops_json_str(b, "caller", c);
	} else {
		oops_json_str(b, "caller", NULL);
	}
	oops_json_str(b, "arch", r->arch);
	ftl_json_member_opt(b, "cpu", r->cpu, -1);
	ftl_json_member_opt(b, "pid", r->pid, -1);
	oops_json_str(b, "comm", r->comm);
	oops_json_str(b, "taint", r->taint);
	oops_json_bool(b, "tainted", r->tainted);
	oops_json_str(b, "release", r->release);
	oops_json_str(b, "build", r->build);
	oops_json_str(b, "hardware", r->hardware);
	json_builder_set_member_name(b, "fault");
	if (r->has_fault)
		oops_json_frame(b, v, &r->fault, FALSE);
	else
		json_builder_add_null_value(b);
	oops_json_str(b, "fault_register", r->fault_reg);
	oops_json_str(b, "location", r->location);
	oops_json_str(b, "oops", r->oops);
	oops_json_str(b, "panic", r->panic);
	oops_json_str(b, "end_marker", r->end_marker);
	json_builder_set_member_name(b, "modules");
	json_builder_begin_array(b);
	for (guint k = 0; k < r->modules->len; k++)
		ftl_json_add_text(b, g_ptr_array_index(r->modules, k));
	json_builder_end_array(b);
	oops_json_str(b, "last_unloaded", r->last_unloaded);
	json_builder_set_member_name(b, "registers");
	json_builder_begin_array(b);
	for (guint k = 0; k < r->regs->len; k++) {
		const FtlOopsReg *g = &g_array_index(r->regs, FtlOopsReg, k);
		json_builder_begin_object(b);
		oops_json_str(b, "name", g->name);
		oops_json_str(b, "value", g->value);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	const FtlOopsStack *main = ftl_oops_report_trace(r);
	json_builder_set_member_name(b, "call_trace");
	if (main)
		oops_json_stack(b, v, main);
	else
		json_builder_add_null_value(b);
	json_builder_set_member_name(b, "stacks");
	json_builder_begin_array(b);
	for (guint k = 0; k < r->stacks->len; k++)
		oops_json_stack(b, v, g_ptr_array_index(r->stacks, k));
	json_builder_end_array(b);
	json_builder_set_member_name(b, "dumps");
	json_builder_begin_array(b);
	for (guint k = 0; k < r->dumps->len; k++)
		json_builder_add_int_value(b, g_array_index(r->dumps, guint, k) + 1);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

static void oops_json_dump(JsonBuilder *b, const FtlOopsView *v, guint d)
{
	const FtlConsoleDump *dump = g_ptr_array_index(v->con->dumps, d);
	const FtlOopsDumpView *dv = &v->dumps[d];
	json_builder_begin_object(b);
	ftl_json_member_int(b, "index", d + 1);
	oops_json_str(b, "instance", dump->instance);
	ftl_json_member_int(b, "first_line", (gint64)oops_lineno(v, dump->header));
	ftl_json_member_int(b, "last_line", (gint64)oops_lineno(v, dump->end));
	ftl_json_member_int(b, "trace_lines", dump->content->len);
	oops_json_bool(b, "empty", dump->empty);
	oops_json_bool(b, "closed", dump->closed);
	ftl_json_member_int(b, "interleaved_lines", dump->skipped);
	ftl_json_member_opt(b, "report", oops_report_of_dump(v, d), 0);
	oops_json_str(b, "dialect", dv->dialect);
	ftl_json_member_int(b, "unparsed_lines", (gint64)dv->stats.unparsed_lines);
	if (dv->diags)
		ftl_diags_add_json(b, dv->diags);
	const FtlOopsTrail *t = dv->trail;
	json_builder_set_member_name(b, "cpus");
	json_builder_begin_array(b);
	for (guint i = 0; t && i < ftl_oops_trail_n_cpus(t); i++) {
		const FtlOopsCpu *c = ftl_oops_trail_cpu(t, i);
		json_builder_begin_object(b);
		ftl_json_member_opt(b, "cpu", c->cpu, -1);
		ftl_json_member_int(b, "events", (gint64)c->events);
		ftl_json_member_int(b, "event_lines", (gint64)c->event_lines);
		ftl_json_member_int(b, "lost", ftl_sat_count_i64(c->lost));
		json_builder_set_member_name(b, "last");
		json_builder_begin_array(b);
		for (guint k = 0; k < c->n_last; k++) {
			const FtlOopsEvent *e = &c->last[k];
			json_builder_begin_object(b);
			ftl_json_member_int(
				b, "line", (gint64)ftl_console_dump_input_line(v->con, d, e->line));
			ftl_json_member_int(b, "trace_line", (gint64)e->line);
			ftl_json_member_opt(b, "ts_ns", e->ts, FTL_TS_NONE);
			ftl_json_member_opt(b, "pid", e->pid, -1);
			oops_json_str(b, "kind", ftl_event_kind_name(e->kind));
			oops_json_str(b, "text", e->text);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	guint n_open = 0;
	gint open_cpu = -1;
	const FtlOopsOpenCall *path = t ? ftl_oops_trail_open(t, &n_open, &open_cpu) : NULL;
	ftl_json_member_opt(b, "open_cpu", open_cpu, -1);
	json_builder_set_member_name(b, "open_path");
	json_builder_begin_array(b);
	for (guint i = 0; i < n_open; i++) {
		json_builder_begin_object(b);
		oops_json_str(b, "function", path[i].func);
		ftl_json_member_int(b, "depth", path[i].depth);
		ftl_json_member_int(b, "line",
				    (gint64)ftl_console_dump_input_line(v->con, d, path[i].line));
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_set_member_name(b, "markers");
	json_builder_begin_array(b);
	const FtlMarkers *m = t ? ftl_oops_trail_markers(t) : NULL;
	for (guint i = 0; m && i < ftl_markers_count(m); i++) {
		const FtlMarker *mk = ftl_markers_get(m, i);
		json_builder_begin_object(b);
		oops_json_str(b, "text", mk->text);
		ftl_json_member_opt(b, "cpu", mk->cpu, -1);
		ftl_json_member_opt(b, "pid", mk->pid, -1);
		ftl_json_member_opt(b, "ts_ns", mk->ts, FTL_TS_NONE);
		ftl_json_member_int(b, "line",
				    (gint64)ftl_console_dump_input_line(v->con, d, mk->line));
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
	json_builder_end_object(b);
}

void ftl_oops_add_json(JsonBuilder *b, const FtlOopsView *v)
{
	json_builder_begin_object(b);
	oops_json_str(b, "input", v->con->path);
	ftl_json_member_int(b, "lines", (gint64)v->con->n_input);
	oops_json_bool(b, "timestamps", v->con->has_ts);
	oops_json_bool(b, "caller_ids", v->con->has_caller);
	json_builder_set_member_name(b, "reports");
	json_builder_begin_array(b);
	for (guint i = 0; i < ftl_oops_count(v->oops); i++)
		oops_json_report(b, v, i);
	json_builder_end_array(b);
	json_builder_set_member_name(b, "dumps");
	json_builder_begin_array(b);
	for (guint d = 0; d < v->con->dumps->len; d++)
		oops_json_dump(b, v, d);
	json_builder_end_array(b);
	ftl_diags_add_json(b, v->con->diags);
	json_builder_end_object(b);
}

struct _FtlOopsPrinter {
	FILE *out;
	FtlFormat format;
	guint n;
	JsonBuilder *b;
	FtlTable *csv; /* CSV: one row per report of every log */
};

/* CSV: the reports as a table, one row each, for a spreadsheet over many
 * logs; the stacks, registers and dumps are JSON's (and text's). */
enum {
	R_LOG,
	R_INDEX,
	R_KIND,
	R_TITLE,
	R_ARCH,
	R_CPU,
	R_PID,
	R_COMM,
	R_RELEASE,
	R_TAINT,
	R_FAULT,
	R_FRAMES,
	R_FIRST,
	R_LAST,
	R_TS,
};
static const FtlColumn oops_report_cols[] = {
	[R_LOG] = { "log", "log", FTL_COL_STR },
	[R_INDEX] = { "index", "#", FTL_COL_INT },
	[R_KIND] = { "kind", "kind", FTL_COL_STR },
	[R_TITLE] = { "title", "title", FTL_COL_STR },
	[R_ARCH] = { "arch", "arch", FTL_COL_STR },
	[R_CPU] = { "cpu", "cpu", FTL_COL_INT },
	[R_PID] = { "pid", "pid", FTL_COL_INT },
	[R_COMM] = { "comm", "comm", FTL_COL_STR },
	[R_RELEASE] = { "release", "release", FTL_COL_STR },
	[R_TAINT] = { "taint", "taint", FTL_COL_STR },
	[R_FAULT] = { "fault", "fault", FTL_COL_STR },
	[R_FRAMES] = { "call_trace_frames", "frames", FTL_COL_INT },
	[R_FIRST] = { "first_line", "first line", FTL_COL_INT },
	[R_LAST] = { "last_line", "last line", FTL_COL_INT },
	[R_TS] = { "ts_ns", "time", FTL_COL_TS },
};

static void oops_csv_rows(FtlTable *t, const FtlOopsView *v)
{
	for (guint i = 0; i < ftl_oops_count(v->oops); i++) {
		const FtlOopsReport *r = ftl_oops_get(v->oops, i);
		const FtlOopsStack *main = ftl_oops_report_trace(r);
		ftl_table_begin_row(t);
		ftl_table_set_str(t, R_LOG, v->con->path);
		ftl_table_set_int(t, R_INDEX, i + 1);
		ftl_table_set_str(t, R_KIND, ftl_oops_kind_name(r->kind));
		ftl_table_set_str(t, R_TITLE, r->title);
		ftl_table_set_str(t, R_ARCH, r->arch);
		if (r->cpu >= 0)
			ftl_table_set_int(t, R_CPU, r->cpu);
		if (r->pid >= 0)
			ftl_table_set_int(t, R_PID, r->pid);
		ftl_table_set_str(t, R_COMM, r->comm);
		ftl_table_set_str(t, R_RELEASE, r->release);
		ftl_table_set_str(t, R_TAINT, r->taint);
		if (r->has_fault) {
			g_autoptr(GString) f = g_string_new(NULL);
			oops_frame_text(f, &r->fault);
			ftl_table_set_str(t, R_FAULT, f->str);
		}
		ftl_table_set_int(t, R_FRAMES, main ? (gint64)main->frames->len : 0);
		ftl_table_set_int(t, R_FIRST, (gint64)oops_lineno(v, r->first));
		ftl_table_set_int(t, R_LAST, (gint64)oops_lineno(v, r->last));
		if (r->ts != FTL_TS_NONE)
			ftl_table_set_int(t, R_TS, r->ts);
	}
}

FtlOopsPrinter *ftl_oops_printer_new(FILE *out, FtlFormat format)
{
	FtlOopsPrinter *p = g_new0(FtlOopsPrinter, 1);
	p->out = out;
	p->format = format;
	if (format == FTL_FORMAT_JSON) {
		p->b = json_builder_new();
		json_builder_begin_object(p->b);
		json_builder_set_member_name(p->b, "logs");
		json_builder_begin_array(p->b);
	} else if (format == FTL_FORMAT_CSV) {
		p->csv = ftl_table_new("reports", oops_report_cols,
				       G_N_ELEMENTS(oops_report_cols));
	}
	return p;
}

void ftl_oops_printer_add(FtlOopsPrinter *p, const FtlOopsView *v)
{
	if (p->b) {
		ftl_oops_add_json(p->b, v);
	} else if (p->csv) {
		oops_csv_rows(p->csv, v);
	} else {
		if (p->n)
			fputc('\n', p->out);
		ftl_oops_print_text(p->out, v);
	}
	p->n++;
}

void ftl_oops_printer_finish(FtlOopsPrinter *p)
{
	if (p->csv)
		ftl_table_print_csv(p->csv, p->out);
	if (!p->b)
		return;
	json_builder_end_array(p->b);
	json_builder_end_object(p->b);
	g_autoptr(JsonNode) root = json_builder_get_root(p->b);
	ftl_json_print(root, p->out);
}

void ftl_oops_printer_free(FtlOopsPrinter *p)
{
	if (!p)
		return;
	g_clear_object(&p->b);
	g_clear_pointer(&p->csv, ftl_table_free);
	g_free(p);
}
