/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Renders kernel reports and their ftrace dumps: text that fits 100 columns
 * with the call trace as the kernel printed it, or JSON with every field. */
#include "views/oops.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "util/timefmt.h"
#include "views/info.h"
#include "views/merge.h"
#include "views/table.h"
#include "util/escape.h"
#include "util/fdio.h"
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

/* ---- source lines ---------------------------------------------------------- */

/* f's frames from the debug info (FtlSrcFrame, innermost first) into out;
 * how many, 0 without debug info or when it does not know f. */
static guint oops_symbolize(const FtlOopsView *v, const FtlOopsFrame *f, GArray *out)
{
	g_array_set_size(out, 0);
	if (!v->dbg || !f->func)
		return 0;
	return ftl_debuginfo_frame(v->dbg, f->func, f->offset, f->size, f->module, out);
}

/* "drivers/tty/sysrq.c:155", the build directory cut */
static void oops_src_text(GString *s, const FtlOopsView *v, const FtlSrcFrame *sf)
{
	const char *file = ftl_debuginfo_short_path(v->dbg, sf->file);
	g_string_append(s, file ? file : "??");
	if (sf->line)
		g_string_append_printf(s, ":%u", sf->line);
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

/* ---- the "Code:" bytes ------------------------------------------------------ */

/* The x86 "Code: .. <xx> .." line of r: its bytes and the index of the
 * one in <>; FALSE when the report has none (or another architecture's). */
static gboolean oops_code_bytes(const FtlOopsView *v, const FtlOopsReport *r, GByteArray *bytes,
				guint *trap)
{
	if (g_strcmp0(r->arch, "x86_64") && g_strcmp0(r->arch, "x86"))
		return FALSE;
	for (guint i = r->first; i <= r->last && i < v->con->lines->len; i++) {
		const char *t = ftl_console_line(v->con, i)->text;
		while (*t == ' ')
			t++;
		if (!g_str_has_prefix(t, "Code: "))
			continue;
		gboolean marked = FALSE;
		g_auto(GStrv) words = g_strsplit(t + 6, " ", -1);
		for (char **w = words; *w; w++) {
			const char *h = *w;
			gsize n = strlen(h);
			if (!n)
				continue;
			gboolean mark = n == 4 && h[0] == '<' && h[3] == '>';
			if (mark) {
				h++;
				*trap = bytes->len;
				marked = TRUE;
			} else if (n != 2) {
				return FALSE; /* "Unable to access opcode bytes..." */
			}
			if (!g_ascii_isxdigit(h[0]) || !g_ascii_isxdigit(h[1]))
				return FALSE;
			guint8 b = (guint8)(g_ascii_xdigit_value(h[0]) << 4 | g_ascii_xdigit_value(h[1]));
			g_byte_array_append(bytes, &b, 1);
		}
		return marked && bytes->len;
	}
	return FALSE;
}

/* The instructions from the faulting one on, as the kernel's
 * scripts/decodecode shows them: objdump -D of the bytes as x86-64 code.
 * NULL with *why set when objdump is missing or fails. Free with
 * g_strfreev(). */
static char **oops_code_decode(const GByteArray *bytes, guint trap, const char **why)
{
	g_autofree char *objdump = g_find_program_in_path("objdump");
	if (!objdump) {
		*why = "not decoded: no objdump (binutils)";
		return NULL;
	}
	g_autofree char *path = NULL;
	int fd = g_file_open_tmp("ftlens-code-XXXXXX", &path, NULL);
	if (fd < 0) {
		*why = "not decoded: no temporary file";
		return NULL;
	}
	gboolean written = ftl_fd_write_all(fd, bytes->data, bytes->len, -1) == 0;
	close(fd);
	g_autofree char *start = g_strdup_printf("--start-address=%u", trap);
	char *argv[] = { objdump, "-D", "-b", "binary", "-m", "i386:x86-64", start, path, NULL };
	g_autofree char *out = NULL;
	gint status = 1;
	gboolean ran = written && g_spawn_sync(NULL, argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL,
					       NULL, &out, NULL, &status, NULL);
	g_unlink(path);
	if (!ran || !g_spawn_check_wait_status(status, NULL)) {
		*why = "not decoded: objdump failed";
		return NULL;
	}
	/* the instruction lines: "   2a:\t48 3d 00 f0 ff ff \tcmp ..." */
	GPtrArray *lines = g_ptr_array_new();
	g_auto(GStrv) all = g_strsplit(out, "\n", -1);
	for (char **l = all; *l; l++) {
		const char *p = *l;
		while (*p == ' ')
			p++;
		const char *colon = p;
		while (g_ascii_isxdigit(*colon))
			colon++;
		if (colon > p && colon[0] == ':' && colon[1] == '\t')
			g_ptr_array_add(lines, g_strdup(p));
	}
	g_ptr_array_add(lines, NULL);
	return (char **)g_ptr_array_free(lines, FALSE);
}

static void oops_text_code(FILE *out, const FtlOopsView *v, const FtlOopsReport *r)
{
	g_autoptr(GByteArray) bytes = g_byte_array_new();
	guint trap = 0;
	if (!v->decode_code || !oops_code_bytes(v, r, bytes, &trap))
		return;
	const char *why = NULL;
	g_auto(GStrv) lines = oops_code_decode(bytes, trap, &why);
	if (!lines) {
		oops_kv(out, "code", why);
		return;
	}
	fprintf(out, "  Code (objdump, from the faulting instruction at byte %u of %u):\n", trap,
		bytes->len);
	for (guint i = 0; lines[i]; i++) {
		g_autofree char *vis = oops_fit(lines[i], OOPS_WIDTH - 22);
		fprintf(out, "    %s%s\n", vis, i ? "" : "   <-- trapping instruction");
	}
}

/* ---- text ------------------------------------------------------------------ */

static void oops_text_stack(FILE *out, const FtlOopsView *v, const FtlOopsStack *st)
{
	g_autofree char *label = oops_fit(st->label ? st->label : "Stack", OOPS_WIDTH - 40);
	gsize n = strlen(label);
	if (n && label[n - 1] == ':')
		label[n - 1] = 0;
	char cpu[24] = "";
	if (st->cpu >= 0)
		g_snprintf(cpu, sizeof cpu, ", cpu %d", st->cpu);
	fprintf(out, "  %s (line %" G_GUINT64_FORMAT "%s, %u frames%s):\n", label,
		oops_lineno(v, st->line), cpu, st->frames->len,
		st->interleaved ? ", mixed with another CPU's output" : "");
	const char *section = NULL;
	g_autoptr(GString) s = g_string_new(NULL);
	g_autoptr(GArray) src = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	for (guint i = 0; i < st->frames->len; i++) {
		const FtlOopsFrame *f = &g_array_index(st->frames, FtlOopsFrame, i);
		if (g_strcmp0(section, f->section)) {
			if (f->section)
				fprintf(out, "     <%s>\n", f->section);
			section = f->section;
		}
		const char *mark = f->reliable ? " " : "?";
		/* what the kernel inlined there, innermost first, as syzkaller
		 * prints it: "func file:line [inline]" above the frame */
		guint n_src = f->source ? 0 : oops_symbolize(v, f, src);
		for (guint k = 0; k + 1 < n_src; k++) {
			const FtlSrcFrame *sf = &g_array_index(src, FtlSrcFrame, k);
			g_string_printf(s, "%s ", sf->func);
			oops_src_text(s, v, sf);
			g_string_append(s, " [inline]");
			g_autofree char *vis = oops_fit(s->str, OOPS_WIDTH - 9);
			fprintf(out, "   %s %s%s\n", mark, section ? "  " : "", vis);
		}
		g_string_truncate(s, 0);
		oops_frame_text(s, f);
		if (n_src) {
			g_string_append_c(s, ' ');
			oops_src_text(s, v, &g_array_index(src, FtlSrcFrame, n_src - 1));
		}
		g_autofree char *vis = oops_fit(s->str, OOPS_WIDTH - 9);
		fprintf(out, "   %s %s%s\n", mark, section ? "  " : "", vis);
	}
}

/* A register dump under its heading; values wrapped to the width. */
static void oops_text_regs(FILE *out, const char *heading, const GArray *regs)
{
	if (!regs->len)
		return;
	fprintf(out, "  %s:\n", heading);
	GString *line = g_string_new("   ");
	for (guint i = 0; i < regs->len; i++) {
		const FtlOopsReg *g = &g_array_index(regs, FtlOopsReg, i);
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

/* The faulting address (key "fault") or the link register's ("link") with
 * its source, and the functions it was inlined in, inner to outer. */
static void oops_text_fault(FILE *out, const FtlOopsView *v, const char *key, const char *reg,
			    const FtlOopsFrame *f)
{
	g_autoptr(GString) s = g_string_new(NULL);
	g_autoptr(GArray) src = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	g_string_append_printf(s, "%s ", reg);
	oops_frame_text(s, f);
	guint n = f->source ? 0 : oops_symbolize(v, f, src);
	if (n) {
		g_string_append_c(s, ' ');
		oops_src_text(s, v, &g_array_index(src, FtlSrcFrame, 0));
	}
	oops_kv(out, key, s->str);
	g_string_truncate(s, 0);
	for (guint k = 1; k < n; k++) {
		const FtlSrcFrame *sf = &g_array_index(src, FtlSrcFrame, k);
		g_string_append_printf(s, "%s%s ", k > 1 ? ", " : "", sf->func);
		oops_src_text(s, v, sf);
	}
	oops_kv(out, "inlined in", s->str);
}

/* The report's registers, then the other register dumps, each with the
 * context it belongs to. */
static void oops_text_reg_blocks(FILE *out, const FtlOopsView *v, const FtlOopsReport *r)
{
	oops_text_regs(out, "Registers", r->regs);
	for (guint k = 0; k < r->reg_blocks->len; k++) {
		const FtlOopsRegs *rb = g_ptr_array_index(r->reg_blocks, k);
		if (!strcmp(rb->context, "report"))
			continue;
		char cpu[24] = "";
		if (rb->cpu >= 0)
			g_snprintf(cpu, sizeof cpu, ", cpu %d", rb->cpu);
		g_autofree char *heading =
			g_strdup_printf("Registers, %s (line %" G_GUINT64_FORMAT "%s)", rb->context,
					oops_lineno(v, rb->line), cpu);
		oops_text_regs(out, heading, rb->regs);
		/* where that CPU was, with its source as the fault's */
		if (rb->has_pc)
			oops_text_fault(out, v, "  at", rb->pc_reg, &rb->pc);
	}
}

/* One line per stack besides the main one. */
static void oops_text_other_stacks(FILE *out, const FtlOopsView *v, const FtlOopsReport *r,
				   const FtlOopsStack *main)
{
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
		g_autofree char *lab = oops_fit(st->label ? st->label : "Stack", 40);
		char cpu[16] = "";
		if (st->cpu >= 0)
			g_snprintf(cpu, sizeof cpu, "cpu %d", st->cpu);
		fprintf(out, "    line %-7" G_GUINT64_FORMAT " %-40s %-7s %3u frames%s%s%s\n",
			oops_lineno(v, st->line), lab, cpu, st->frames->len,
			st->interleaved ? " (mixed)" : "", top ? ", top " : "",
			top && top->func ? top->func : "");
	}
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
	if (v->dbg) {
		/* a log seldom prints the build id: only the release and
		 * build words were compared */
		g_autofree char *src = g_strdup_printf(
			"%s%s", ftl_symfile_path(ftl_debuginfo_vmlinux(v->dbg)),
			ftl_debuginfo_build_id_compared(v->dbg)
				? ""
				: " (the log names no build id to compare)");
		oops_kv(out, "sources", src);
	}
	else
		oops_kv(out, "sources", v->dbg_note);
	if (r->has_fault)
		oops_text_fault(out, v, "fault", r->fault_reg, &r->fault);
	if (r->has_link)
		oops_text_fault(out, v, "link", r->link_reg, &r->link);
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
	oops_text_reg_blocks(out, v, r);
	oops_text_code(out, v, r);
	oops_text_other_stacks(out, v, r, main);
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
	ftl_table_print_text(cpus, out, 0, NULL); /* numbers: nothing to cut */
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
	/* the debug info's frames, innermost first; null without debug info */
	json_builder_set_member_name(b, "symbolized");
	if (v->dbg) {
		g_autoptr(GArray) src = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
		guint n = oops_symbolize(v, f, src);
		json_builder_begin_array(b);
		for (guint k = 0; k < n; k++) {
			const FtlSrcFrame *sf = &g_array_index(src, FtlSrcFrame, k);
			json_builder_begin_object(b);
			oops_json_str(b, "function", sf->func);
			oops_json_str(b, "file", ftl_debuginfo_short_path(v->dbg, sf->file));
			oops_json_str(b, "path", sf->file);
			ftl_json_member_opt(b, "line", sf->line, 0);
			ftl_json_member_opt(b, "discriminator", sf->discriminator, 0);
			oops_json_bool(b, "inline", k + 1 < n);
			json_builder_end_object(b);
		}
		json_builder_end_array(b);
	} else {
		json_builder_add_null_value(b);
	}
	if (with_line)
		ftl_json_member_int(b, "line", (gint64)oops_lineno(v, f->line));
	json_builder_end_object(b);
}

/* "caller": "C1", or null without a printk caller id */
static void oops_json_caller(JsonBuilder *b, char kind, gint32 caller)
{
	g_autofree char *c = kind ? g_strdup_printf("%c%d", kind, caller) : NULL;
	oops_json_str(b, "caller", c);
}

/* [{"name": ..., "value": ...}] */
static void oops_json_regs(JsonBuilder *b, const GArray *regs)
{
	json_builder_begin_array(b);
	for (guint k = 0; k < regs->len; k++) {
		const FtlOopsReg *g = &g_array_index(regs, FtlOopsReg, k);
		json_builder_begin_object(b);
		oops_json_str(b, "name", g->name);
		oops_json_str(b, "value", g->value);
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

static void oops_json_stack(JsonBuilder *b, const FtlOopsView *v, const FtlOopsStack *st)
{
	json_builder_begin_object(b);
	oops_json_str(b, "label", st->label);
	ftl_json_member_int(b, "line", (gint64)oops_lineno(v, st->line));
	oops_json_bool(b, "interleaved", st->interleaved);
	ftl_json_member_opt(b, "cpu", st->cpu, -1);
	oops_json_caller(b, st->caller_kind, st->caller);
	json_builder_set_member_name(b, "frames");
	json_builder_begin_array(b);
	for (guint i = 0; i < st->frames->len; i++)
		oops_json_frame(b, v, &g_array_index(st->frames, FtlOopsFrame, i), TRUE);
	json_builder_end_array(b);
	json_builder_end_object(b);
}

/* A register's frame as member name (null when not printed) and the
 * register as name_register. */
static void oops_json_reg(JsonBuilder *b, const FtlOopsView *v, const char *name,
			  const FtlOopsFrame *f, const char *reg)
{
	json_builder_set_member_name(b, name);
	if (f)
		oops_json_frame(b, v, f, FALSE);
	else
		json_builder_add_null_value(b);
	g_autofree char *key = g_strconcat(name, "_register", NULL);
	oops_json_str(b, key, reg);
}

static void oops_json_report(JsonBuilder *b, const FtlOopsView *v, guint i)
{
	const FtlOopsReport *r = ftl_oops_get(v->oops, i);
	json_builder_begin_object(b);
	ftl_json_member_int(b, "index", i + 1);
	oops_json_str(b, "kind", ftl_oops_kind_name(r->kind));
	oops_json_str(b, "title", r->title);
	oops_json_str(b, "signature", r->signature);
	oops_json_str(b, "signature_id", r->signature_id);
	oops_json_str(b, "blamed", r->blamed);
	oops_json_bool(b, "corrupted", r->corrupted);
	oops_json_bool(b, "cut", r->cut);
	oops_json_str(b, "header", r->header);
	ftl_json_member_int(b, "first_line", (gint64)oops_lineno(v, r->first));
	ftl_json_member_int(b, "header_line", (gint64)oops_lineno(v, r->header_line));
	ftl_json_member_int(b, "last_line", (gint64)oops_lineno(v, r->last));
	ftl_json_member_int(b, "lines", r->n_lines);
	ftl_json_member_opt(b, "ts_ns", r->ts, FTL_TS_NONE);
	oops_json_caller(b, r->caller_kind, r->caller);
	oops_json_str(b, "arch", r->arch);
	ftl_json_member_opt(b, "cpu", r->cpu, -1);
	ftl_json_member_opt(b, "pid", r->pid, -1);
	oops_json_str(b, "comm", r->comm);
	oops_json_str(b, "taint", r->taint);
	oops_json_bool(b, "tainted", r->tainted);
	oops_json_str(b, "release", r->release);
	oops_json_str(b, "build", r->build);
	oops_json_str(b, "hardware", r->hardware);
	oops_json_reg(b, v, "fault", r->has_fault ? &r->fault : NULL, r->fault_reg);
	oops_json_reg(b, v, "link", r->has_link ? &r->link : NULL, r->link_reg);
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
	oops_json_regs(b, r->regs);
	json_builder_set_member_name(b, "register_dumps");
	json_builder_begin_array(b);
	for (guint k = 0; k < r->reg_blocks->len; k++) {
		const FtlOopsRegs *rb = g_ptr_array_index(r->reg_blocks, k);
		json_builder_begin_object(b);
		oops_json_str(b, "context", rb->context);
		ftl_json_member_opt(b, "cpu", rb->cpu, -1);
		ftl_json_member_int(b, "line", (gint64)oops_lineno(v, rb->line));
		json_builder_set_member_name(b, "registers");
		oops_json_regs(b, rb->regs);
		oops_json_reg(b, v, "pc", rb->has_pc ? &rb->pc : NULL, rb->pc_reg);
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
	json_builder_set_member_name(b, "debuginfo");
	json_builder_begin_object(b);
	if (v->dbg) {
		FtlSymFile *vm = ftl_debuginfo_vmlinux(v->dbg);
		oops_json_str(b, "vmlinux", ftl_symfile_path(vm));
		oops_json_str(b, "release", ftl_debuginfo_release(v->dbg));
		oops_json_str(b, "build_id", ftl_symfile_build_id(vm));
		oops_json_bool(b, "build_id_compared", ftl_debuginfo_build_id_compared(v->dbg));
	}
	oops_json_str(b, "note", v->dbg ? NULL : v->dbg_note);
	json_builder_end_object(b);
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
	FtlTable *csv;	  /* CSV: one row per report of every log */
	FtlTable *frames; /* CSV: one row per source level of every frame */
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
	R_FAULT_SOURCE,
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
	[R_FAULT_SOURCE] = { "fault_source", "fault source", FTL_COL_STR },
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
			/* file:line innermost first, " < " between inlined levels */
			g_autoptr(GArray) src = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
			guint n = oops_symbolize(v, &r->fault, src);
			g_string_truncate(f, 0);
			for (guint k = 0; k < n; k++) {
				if (k)
					g_string_append(f, " < ");
				oops_src_text(f, v, &g_array_index(src, FtlSrcFrame, k));
			}
			if (n)
				ftl_table_set_str(t, R_FAULT_SOURCE, f->str);
		}
		ftl_table_set_int(t, R_FRAMES, main ? (gint64)main->frames->len : 0);
		ftl_table_set_int(t, R_FIRST, (gint64)oops_lineno(v, r->first));
		ftl_table_set_int(t, R_LAST, (gint64)oops_lineno(v, r->last));
		if (r->ts != FTL_TS_NONE)
			ftl_table_set_int(t, R_TS, r->ts);
	}
}

/* CSV's second table: every frame of every report (the faulting one as
 * stack "fault", then each stack's), one row per level of its inline
 * chain as JSON's "symbolized" gives it (level 0 the innermost, inline
 * true above the function the code belongs to), or one row without
 * source when the debug info does not know the frame. */
enum {
	F_LOG,
	F_REPORT,
	F_STACK,
	F_FRAME,
	F_FUNCTION,
	F_OFFSET,
	F_SIZE,
	F_MODULE,
	F_ADDRESS,
	F_RELIABLE,
	F_LEVEL,
	F_SRC_FUNCTION,
	F_FILE,
	F_LINE,
	F_DISCRIMINATOR,
	F_INLINE,
};
static const FtlColumn oops_frame_cols[] = {
	[F_LOG] = { "log", "log", FTL_COL_STR },
	[F_REPORT] = { "report", "#", FTL_COL_INT },
	[F_STACK] = { "stack", "stack", FTL_COL_STR },
	[F_FRAME] = { "frame", "frame", FTL_COL_INT },
	[F_FUNCTION] = { "function", "function", FTL_COL_STR },
	[F_OFFSET] = { "offset", "offset", FTL_COL_INT },
	[F_SIZE] = { "size", "size", FTL_COL_INT },
	[F_MODULE] = { "module", "module", FTL_COL_STR },
	[F_ADDRESS] = { "address", "address", FTL_COL_STR },
	[F_RELIABLE] = { "reliable", "reliable", FTL_COL_INT },
	[F_LEVEL] = { "level", "level", FTL_COL_INT },
	[F_SRC_FUNCTION] = { "src_function", "source function", FTL_COL_STR },
	[F_FILE] = { "file", "file", FTL_COL_STR },
	[F_LINE] = { "line", "line", FTL_COL_INT },
	[F_DISCRIMINATOR] = { "discriminator", "discriminator", FTL_COL_INT },
	[F_INLINE] = { "inline", "inline", FTL_COL_INT },
};

static void oops_csv_frame(FtlTable *t, const FtlOopsView *v, guint report, const char *stack,
			   guint index, const FtlOopsFrame *f, GArray *src)
{
	guint n = oops_symbolize(v, f, src);
	for (guint k = 0; k < MAX(n, 1); k++) {
		ftl_table_begin_row(t);
		ftl_table_set_str(t, F_LOG, v->con->path);
		ftl_table_set_int(t, F_REPORT, report);
		ftl_table_set_str(t, F_STACK, stack);
		ftl_table_set_int(t, F_FRAME, index);
		ftl_table_set_str(t, F_FUNCTION, f->func);
		if (f->func)
			ftl_table_set_int(t, F_OFFSET, (gint64)f->offset);
		if (f->size)
			ftl_table_set_int(t, F_SIZE, (gint64)f->size);
		ftl_table_set_str(t, F_MODULE, f->module);
		ftl_table_set_str(t, F_ADDRESS, f->address);
		ftl_table_set_int(t, F_RELIABLE, f->reliable);
		if (!n)
			continue;
		const FtlSrcFrame *sf = &g_array_index(src, FtlSrcFrame, k);
		ftl_table_set_int(t, F_LEVEL, k);
		ftl_table_set_str(t, F_SRC_FUNCTION, sf->func);
		ftl_table_set_str(t, F_FILE, ftl_debuginfo_short_path(v->dbg, sf->file));
		if (sf->line)
			ftl_table_set_int(t, F_LINE, sf->line);
		if (sf->discriminator)
			ftl_table_set_int(t, F_DISCRIMINATOR, sf->discriminator);
		ftl_table_set_int(t, F_INLINE, k + 1 < n);
	}
}

static void oops_csv_frames(FtlTable *t, const FtlOopsView *v)
{
	g_autoptr(GArray) src = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	for (guint i = 0; i < ftl_oops_count(v->oops); i++) {
		const FtlOopsReport *r = ftl_oops_get(v->oops, i);
		if (r->has_fault)
			oops_csv_frame(t, v, i + 1, "fault", 1, &r->fault, src);
		if (r->has_link)
			oops_csv_frame(t, v, i + 1, "link", 1, &r->link, src);
		/* each register dump's pc, numbered as the dumps are */
		for (guint k = 0; k < r->reg_blocks->len; k++) {
			const FtlOopsRegs *rb = g_ptr_array_index(r->reg_blocks, k);
			if (rb->has_pc)
				oops_csv_frame(t, v, i + 1, "registers", k + 1, &rb->pc, src);
		}
		for (guint k = 0; k < r->stacks->len; k++) {
			const FtlOopsStack *st = g_ptr_array_index(r->stacks, k);
			for (guint j = 0; j < st->frames->len; j++)
				oops_csv_frame(t, v, i + 1, st->label, j + 1,
					       &g_array_index(st->frames, FtlOopsFrame, j), src);
		}
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
		ftl_merge_add_schema(p->b, FTL_SCHEMA_OOPS);
		json_builder_set_member_name(p->b, "logs");
		json_builder_begin_array(p->b);
	} else if (format == FTL_FORMAT_CSV) {
		p->csv = ftl_table_new("reports", oops_report_cols,
				       G_N_ELEMENTS(oops_report_cols));
		p->frames =
			ftl_table_new("frames", oops_frame_cols, G_N_ELEMENTS(oops_frame_cols));
	}
	return p;
}

void ftl_oops_printer_add(FtlOopsPrinter *p, const FtlOopsView *v)
{
	if (p->b) {
		ftl_oops_add_json(p->b, v);
	} else if (p->csv) {
		oops_csv_rows(p->csv, v);
		oops_csv_frames(p->frames, v);
	} else {
		if (p->n)
			fputc('\n', p->out);
		ftl_oops_print_text(p->out, v);
	}
	p->n++;
}

void ftl_oops_printer_finish(FtlOopsPrinter *p)
{
	if (p->csv) {
		/* the reports first (a spreadsheet's first table, as before),
		 * then "# frames" as report's CSV names its further tables */
		ftl_table_print_csv(p->csv, p->out);
		fputs("\n# frames\n", p->out);
		ftl_table_print_csv(p->frames, p->out);
	}
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
	g_clear_pointer(&p->frames, ftl_table_free);
	g_free(p);
}
