/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The stack report and the stack comparison as text, CSV and JSON. */
#include "views/stack.h"

#include <string.h>

#include "util/timefmt.h"
#include "util/escape.h"

/* Inconsistencies listed in text; CSV and JSON list all. */
#define STACK_TEXT_DIAGS 20

char *ftl_stack_view_bar(gint64 size, gint64 max)
{
	gint64 n = 0;
	if (size > 0 && max > 0) {
		if (size <= (G_MAXINT64 - max / 2) / FTL_STACK_BAR_WIDTH) {
			n = (size * FTL_STACK_BAR_WIDTH + max / 2) / max;
		} else {
			/* a size past 3 * 10^17 bytes (a damaged table): the
			 * ratio in doubles, whose error is far below a column */
			double r = (double)size * FTL_STACK_BAR_WIDTH / (double)max + 0.5;
			n = (gint64)MIN(r, (double)FTL_STACK_BAR_WIDTH);
		}
		n = CLAMP(n, 1, FTL_STACK_BAR_WIDTH);
	}
	char *bar = g_malloc((gsize)n + 1);
	memset(bar, '#', (gsize)n);
	bar[n] = 0;
	return bar;
}

static char *stack_where(const char *file, guint64 line)
{
	return g_strdup_printf("%s:%" G_GUINT64_FORMAT, file, line);
}

static double stack_pct(gint64 part, gint64 whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0;
}

/* f's frames from the debug info, innermost first, into src: the
 * location "func+0xOFF/0xSIZE" is split here. How many, 0 when unknown. */
static guint stack_symbolize(FtlDebugInfo *dbg, const FtlStackFrame *f, GArray *src)
{
	g_array_set_size(src, 0);
	const char *plus = strrchr(f->location, '+');
	guint64 off = 0, size = 0;
	if (!dbg || f->raw || !plus)
		return 0;
	char *end;
	off = g_ascii_strtoull(plus + 1, &end, 16);
	if (*end == '/')
		size = g_ascii_strtoull(end + 1, NULL, 16);
	return ftl_debuginfo_frame(dbg, f->func, off, size, f->module, src);
}

/* "file:line" of sf, the build directory cut */
static char *stack_src_text(FtlDebugInfo *dbg, const FtlSrcFrame *sf)
{
	const char *file = ftl_debuginfo_short_path(dbg, sf->file);
	return sf->line ? g_strdup_printf("%s:%u", file ? file : "??", sf->line)
			: g_strdup(file ? file : "??");
}

/* The chain as addr2line -f -i prints it, one level per "; ":
 * "func path:line (discriminator N)", the path as the debug info has it. */
static char *stack_chain_text(const GArray *src)
{
	GString *s = g_string_new(NULL);
	for (guint k = 0; k < src->len; k++) {
		const FtlSrcFrame *sf = &g_array_index(src, FtlSrcFrame, k);
		g_string_append_printf(s, "%s%s %s:", k ? "; " : "", sf->func,
				       sf->file ? sf->file : "??");
		if (!sf->line)
			g_string_append_c(s, '?');
		else
			g_string_append_printf(s, "%u", sf->line);
		if (sf->line && sf->discriminator)
			g_string_append_printf(s, " (discriminator %u)", sf->discriminator);
	}
	return g_string_free(s, FALSE);
}

/* The frames of t, top first; the bar only in text; with debug info each
 * frame's file:line (its function's own, outermost) and inline chain. */
static FtlTable *stack_frames_table(const FtlStackTable *t, gboolean text, FtlDebugInfo *dbg)
{
	enum {
		c_frame,
		c_depth,
		c_size,
		c_share,
		c_bar,
		c_loc,
		c_src,
		c_func,
		c_mod,
		c_raw,
		c_line,
		c_chain
	};
	static const FtlColumn cols[] = {
		[c_frame] = { "frame", "#", FTL_COL_INT },
		[c_depth] = { "depth", "depth", FTL_COL_INT },
		[c_size] = { "size", "size", FTL_COL_INT },
		[c_share] = { "share_pct", "share", FTL_COL_PCT },
		[c_bar] = { "bar", "bar", FTL_COL_STR, FTL_COL_NO_CUT },
		[c_loc] = { "location", "location", FTL_COL_STR },
		[c_src] = { "source", "source", FTL_COL_STR },
		[c_func] = { "function", "function", FTL_COL_STR, FTL_COL_HIDE_TEXT },
		[c_mod] = { "module", "module", FTL_COL_STR, FTL_COL_HIDE_TEXT },
		[c_raw] = { "raw", "raw", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[c_line] = { "line", "line", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[c_chain] = { "inline_chain", "inline chain", FTL_COL_STR, FTL_COL_HIDE_TEXT },
	};
	FtlTable *tb = ftl_table_new("max_stack", cols, G_N_ELEMENTS(cols));
	if (!text)
		ftl_table_omit(tb, c_bar);
	if (!dbg) {
		ftl_table_omit(tb, c_src);
		ftl_table_omit(tb, c_chain);
	}
	g_autoptr(GArray) src = g_array_new(FALSE, FALSE, sizeof(FtlSrcFrame));
	gint64 depth = ftl_stack_table_depth(t), biggest = 0;
	for (guint i = 0; i < ftl_stack_table_n_frames(t); i++)
		biggest = MAX(biggest, ftl_stack_table_frame(t, i)->size);
	for (guint i = 0; i < ftl_stack_table_n_frames(t); i++) {
		const FtlStackFrame *f = ftl_stack_table_frame(t, i);
		ftl_table_begin_row(tb);
		ftl_table_set_int(tb, c_frame, f->index);
		ftl_table_set_int(tb, c_depth, f->depth);
		ftl_table_set_int(tb, c_size, f->size);
		ftl_table_set_double(tb, c_share, stack_pct(f->size, depth));
		if (text) {
			g_autofree char *bar = ftl_stack_view_bar(f->size, biggest);
			ftl_table_set_str(tb, c_bar, bar);
		}
		ftl_table_set_str(tb, c_loc, f->location);
		ftl_table_set_str(tb, c_func, f->func);
		ftl_table_set_str(tb, c_mod, f->module);
		ftl_table_set_int(tb, c_raw, f->raw);
		ftl_table_set_int(tb, c_line, (gint64)f->line);
		guint n = stack_symbolize(dbg, f, src);
		if (n) {
			g_autofree char *where =
				stack_src_text(dbg, &g_array_index(src, FtlSrcFrame, n - 1));
			g_autofree char *chain = stack_chain_text(src);
			ftl_table_set_str(tb, c_src, where);
			ftl_table_set_str(tb, c_chain, chain);
		}
	}
	return tb;
}

/* Every function with its statistics, ranked as the hogs are; its text view
 * (the aggregate over many tables) leaves out what the hogs show. */
/* Where func is defined, "mm/memory.c:1234"; NULL when unknown. */
static char *stack_definition(FtlDebugInfo *dbg, const char *func, gboolean raw)
{
	const char *file;
	guint line;
	if (!dbg || raw || !ftl_debuginfo_definition(dbg, func, &file, &line))
		return NULL;
	FtlSrcFrame sf = { func, file, line, 0 };
	return stack_src_text(dbg, &sf);
}

static FtlTable *stack_funcs_table(const FtlStackHogs *h, FtlDebugInfo *dbg)
{
	enum {
		C_RANK,
		C_FUNC,
		C_RAW,
		C_MAX,
		C_MEAN,
		C_FRAMES,
		C_TABLES,
		C_TSHARE,
		C_DBYTES,
		C_DSHARE,
		C_MFILE,
		C_MLINE,
		C_SOURCE
	};
	static const FtlColumn cols[] = {
		[C_RANK] = { "rank", "rank", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[C_FUNC] = { "function", "function", FTL_COL_STR },
		[C_RAW] = { "raw", "raw", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[C_MAX] = { "max_size", "max", FTL_COL_INT },
		[C_MEAN] = { "mean_size", "mean", FTL_COL_FLOAT },
		[C_FRAMES] = { "frames", "frames", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[C_TABLES] = { "tables", "tables", FTL_COL_INT },
		[C_TSHARE] = { "table_share_pct", "of tables", FTL_COL_PCT },
		[C_DBYTES] = { "deepest_bytes", "in deepest", FTL_COL_INT },
		[C_DSHARE] = { "deepest_share_pct", "of deepest", FTL_COL_PCT },
		[C_MFILE] = { "max_file", "max file", FTL_COL_STR, FTL_COL_HIDE_TEXT },
		[C_MLINE] = { "max_line", "max line", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[C_SOURCE] = { "source", "defined at", FTL_COL_STR },
	};
	FtlTable *tb = ftl_table_new("functions", cols, G_N_ELEMENTS(cols));
	if (!dbg)
		ftl_table_omit(tb, C_SOURCE);
	for (guint i = 0; i < ftl_stackhog_n_funcs(h); i++) {
		const FtlStackFunc *f = ftl_stackhog_func(h, i);
		ftl_table_begin_row(tb);
		ftl_table_set_int(tb, C_RANK, i + 1);
		ftl_table_set_str(tb, C_FUNC, f->func);
		ftl_table_set_int(tb, C_RAW, f->raw);
		ftl_table_set_int(tb, C_MAX, f->max_size);
		ftl_table_set_double(tb, C_MEAN, f->mean_size);
		ftl_table_set_int(tb, C_FRAMES, f->frames);
		ftl_table_set_int(tb, C_TABLES, f->tables);
		ftl_table_set_double(tb, C_TSHARE, 100.0 * f->table_share);
		ftl_table_set_int(tb, C_DBYTES, f->deepest_bytes);
		ftl_table_set_double(tb, C_DSHARE, 100.0 * f->deepest_share);
		ftl_table_set_str(tb, C_MFILE, f->max_table->file);
		ftl_table_set_int(tb, C_MLINE, (gint64)f->max_frame->line);
		g_autofree char *def = stack_definition(dbg, f->func, f->raw);
		ftl_table_set_str(tb, C_SOURCE, def);
	}
	return tb;
}

/* TRUE when every table comes from one file. */
static gboolean stack_one_file(const FtlStackSet *set)
{
	for (guint i = 1; i < ftl_stack_set_n_tables(set); i++)
		if (ftl_stack_set_table(set, i)->file != ftl_stack_set_table(set, 0)->file)
			return FALSE;
	return TRUE;
}

/* Where a frame is, as short as tells it apart: the snapshot of a series,
 * the line when all tables come from one file, else file and line. */
static char *stack_frame_where(const FtlStackTable *t, const FtlStackFrame *f, gboolean one_file)
{
	if (t->snapshot >= 0 && one_file)
		return g_strdup_printf("snapshot %" G_GINT64_FORMAT ", line %" G_GUINT64_FORMAT,
				       t->snapshot, f->line);
	if (one_file)
		return g_strdup_printf("line %" G_GUINT64_FORMAT, f->line);
	return stack_where(t->file, f->line);
}

/* Text: the hogs, largest frame first, with where that frame is. */
static FtlTable *stack_hogs_text(const FtlStackSet *set, const FtlStackHogs *h, FtlDebugInfo *dbg)
{
	gboolean one_file = stack_one_file(set);
	enum { TB_RANK, TB_SIZE, TB_DEEPEST_SHARE_PCT, TB_FUNCTION, TB_SOURCE, TB_WHERE };
	static const FtlColumn tb_cols[] = {
		[TB_RANK] = { "rank", "rank", FTL_COL_INT },
		[TB_SIZE] = { "size", "size", FTL_COL_INT },
		[TB_DEEPEST_SHARE_PCT] = { "deepest_share_pct", "of deepest", FTL_COL_PCT },
		[TB_FUNCTION] = { "function", "function", FTL_COL_STR },
		[TB_SOURCE] = { "source", "defined at", FTL_COL_STR },
		[TB_WHERE] = { "where", "largest frame at", FTL_COL_STR },
	};
	FtlTable *tb = ftl_table_new("hogs", tb_cols, G_N_ELEMENTS(tb_cols));
	if (!dbg)
		ftl_table_omit(tb, TB_SOURCE);
	for (guint i = 0; i < ftl_stackhog_n_funcs(h); i++) {
		const FtlStackFunc *f = ftl_stackhog_func(h, i);
		g_autofree char *where = stack_frame_where(f->max_table, f->max_frame, one_file);
		ftl_table_begin_row(tb);
		ftl_table_set_int(tb, TB_RANK, i + 1);
		ftl_table_set_int(tb, TB_SIZE, f->max_size);
		ftl_table_set_double(tb, TB_DEEPEST_SHARE_PCT, 100.0 * f->deepest_share);
		ftl_table_set_str(tb, TB_FUNCTION, f->func);
		g_autofree char *def = stack_definition(dbg, f->func, f->raw);
		ftl_table_set_str(tb, TB_SOURCE, def);
		ftl_table_set_str(tb, TB_WHERE, where);
	}
	return tb;
}

static FtlTable *stack_tables_table(const FtlStackSet *set, gboolean text)
{
	enum {
		c_file,
		c_line,
		c_snap,
		c_time,
		c_kernel,
		c_entries,
		c_frames,
		c_depth,
		c_max,
		c_mfile,
		c_mline,
		c_dis
	};
	static const FtlColumn cols[] = {
		[c_file] = { "file", "file", FTL_COL_STR },
		[c_line] = { "line", "line", FTL_COL_INT },
		[c_snap] = { "snapshot", "snapshot", FTL_COL_INT },
		[c_time] = { "time_ns", "time", FTL_COL_TS },
		[c_kernel] = { "kernel", "kernel", FTL_COL_STR, FTL_COL_HIDE_TEXT },
		[c_entries] = { "entries", "entries", FTL_COL_INT },
		[c_frames] = { "frames", "frames", FTL_COL_INT },
		[c_depth] = { "depth", "depth", FTL_COL_INT },
		[c_max] = { "max_size", "max_size", FTL_COL_INT },
		[c_mfile] = { "max_size_file", "max_size file", FTL_COL_STR, FTL_COL_HIDE_TEXT },
		[c_mline] = { "max_size_line", "max_size line", FTL_COL_INT, FTL_COL_HIDE_TEXT },
		[c_dis] = { "disabled", "disabled", FTL_COL_INT, FTL_COL_HIDE_TEXT },
	};
	FtlTable *tb = ftl_table_new("tables", cols, G_N_ELEMENTS(cols));
	for (guint i = 0; i < ftl_stack_set_n_tables(set); i++) {
		const FtlStackTable *t = ftl_stack_set_table(set, i);
		ftl_table_begin_row(tb);
		ftl_table_set_str(tb, c_file, t->file);
		ftl_table_set_int(tb, c_line, (gint64)t->line);
		if (t->snapshot >= 0)
			ftl_table_set_int(tb, c_snap, t->snapshot);
		if (t->time_ns != FTL_TS_NONE)
			ftl_table_set_int(tb, c_time, t->time_ns);
		if (!text)
			ftl_table_set_str(tb, c_kernel, t->kernel);
		if (t->entries >= 0)
			ftl_table_set_int(tb, c_entries, t->entries);
		ftl_table_set_int(tb, c_frames, ftl_stack_table_n_frames(t));
		ftl_table_set_int(tb, c_depth, ftl_stack_table_depth(t));
		if (t->max_size >= 0)
			ftl_table_set_int(tb, c_max, t->max_size);
		if (!text) {
			ftl_table_set_str(tb, c_mfile, t->max_file);
			if (t->max_file)
				ftl_table_set_int(tb, c_mline, (gint64)t->max_line);
			ftl_table_set_int(tb, c_dis, t->disabled);
		}
	}
	return tb;
}

static FtlTable *stack_max_sizes_table(const FtlStackSet *set)
{
	enum { TB_FILE, TB_LINE, TB_VALUE, TB_TABLE_FILE, TB_TABLE_LINE };
	static const FtlColumn tb_cols[] = {
		[TB_FILE] = { "file", "file", FTL_COL_STR },
		[TB_LINE] = { "line", "line", FTL_COL_INT },
		[TB_VALUE] = { "value", "value", FTL_COL_INT },
		[TB_TABLE_FILE] = { "table_file", "table file", FTL_COL_STR },
		[TB_TABLE_LINE] = { "table_line", "table line", FTL_COL_INT },
	};
	FtlTable *tb = ftl_table_new("max_sizes", tb_cols, G_N_ELEMENTS(tb_cols));
	for (guint i = 0; i < ftl_stack_set_n_max_sizes(set); i++) {
		const FtlStackMaxSize *m = ftl_stack_set_max_size(set, i);
		ftl_table_begin_row(tb);
		ftl_table_set_str(tb, TB_FILE, m->file);
		ftl_table_set_int(tb, TB_LINE, (gint64)m->line);
		ftl_table_set_int(tb, TB_VALUE, m->value);
		if (m->table) {
			ftl_table_set_str(tb, TB_TABLE_FILE, m->table->file);
			ftl_table_set_int(tb, TB_TABLE_LINE, (gint64)m->table->line);
		}
	}
	return tb;
}

static FtlTable *stack_diags_table(const FtlStackSet *set)
{
	enum { TB_FILE, TB_LINE, TB_KIND, TB_MESSAGE };
	static const FtlColumn tb_cols[] = {
		[TB_FILE] = { "file", "file", FTL_COL_STR },
		[TB_LINE] = { "line", "line", FTL_COL_INT },
		[TB_KIND] = { "kind", "kind", FTL_COL_STR },
		[TB_MESSAGE] = { "message", "message", FTL_COL_STR },
	};
	FtlTable *tb = ftl_table_new("diagnostics", tb_cols, G_N_ELEMENTS(tb_cols));
	for (guint i = 0; i < ftl_stack_set_n_diags(set); i++) {
		const FtlStackDiag *d = ftl_stack_set_diag(set, i);
		ftl_table_begin_row(tb);
		ftl_table_set_str(tb, TB_FILE, d->file);
		ftl_table_set_int(tb, TB_LINE, (gint64)d->line);
		ftl_table_set_str(tb, TB_KIND, ftl_stack_diag_kind_name(d->kind));
		ftl_table_set_str(tb, TB_MESSAGE, d->message);
	}
	return tb;
}

/* File names and messages may hold any byte: shown the way tables show them. */
static void stack_puts_visible(FILE *out, const char *s)
{
	ftl_escape_fputs(s, out);
	fputc('\n', out);
}

static void stack_print_diags_text(const FtlStackSet *set, FILE *out)
{
	guint n = ftl_stack_set_n_diags(set);
	if (!n) {
		fprintf(out, "\nTable checks: no inconsistencies\n");
		return;
	}
	fprintf(out, "\nTable checks: %u inconsisten%s\n", n, n == 1 ? "cy" : "cies");
	for (guint i = 0; i < MIN(n, STACK_TEXT_DIAGS); i++) {
		const FtlStackDiag *d = ftl_stack_set_diag(set, i);
		g_autofree char *line = g_strdup_printf("  %s:%" G_GUINT64_FORMAT ": %s", d->file,
							d->line, d->message);
		stack_puts_visible(out, line);
	}
	if (n > STACK_TEXT_DIAGS)
		fprintf(out, "  (%u more; --format csv or json lists all)\n", n - STACK_TEXT_DIAGS);
}

static void stack_json_table_info(JsonBuilder *b, const char *name, const FtlStackTable *t)
{
	json_builder_set_member_name(b, name);
	if (!t) {
		json_builder_add_null_value(b);
		return;
	}
	json_builder_begin_object(b);
	json_builder_set_member_name(b, "file");
	ftl_json_add_text(b, t->file);
	ftl_json_member_int(b, "line", (gint64)t->line);
	ftl_json_member_opt(b, "snapshot", t->snapshot, -1);
	ftl_json_member_opt(b, "time_ns", t->time_ns, FTL_TS_NONE);
	ftl_json_member_int(b, "depth", ftl_stack_table_depth(t));
	ftl_json_member_int(b, "frames", ftl_stack_table_n_frames(t));
	ftl_json_member_opt(b, "entries", t->entries, -1);
	ftl_json_member_opt(b, "max_size", t->max_size, -1);
	json_builder_end_object(b);
}

/* "FILE:LINE", with the snapshot and time of a series table. */
static char *stack_table_label(const FtlStackTable *t)
{
	GString *s = g_string_new(NULL);
	g_string_append_printf(s, "%s:%" G_GUINT64_FORMAT, t->file, t->line);
	if (t->snapshot >= 0)
		g_string_append_printf(s, " (snapshot %" G_GINT64_FORMAT, t->snapshot);
	if (t->snapshot >= 0 && t->time_ns != FTL_TS_NONE) {
		char buf[48];
		g_string_append_printf(s, " at %s s",
				       ftl_time_format_us(t->time_ns, buf, sizeof buf));
	}
	if (t->snapshot >= 0)
		g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

static void stack_print_text(const FtlStackSet *set, const FtlStackHogs *h, guint top,
			     FtlDebugInfo *dbg, const FtlTextStyle *style, FILE *out)
{
	const FtlStackTable *deep = ftl_stackhog_deepest(h);
	guint n = ftl_stackhog_n_tables(h), empty = ftl_stackhog_n_empty(h);
	for (guint i = 0; i < ftl_stack_set_n_max_sizes(set); i++) {
		const FtlStackMaxSize *m = ftl_stack_set_max_size(set, i);
		if (m->table)
			continue;
		g_autofree char *line = g_strdup_printf("stack_max_size: %" G_GINT64_FORMAT
							" bytes (%s:%" G_GUINT64_FORMAT
							"), not paired with a table",
							m->value, m->file, m->line);
		stack_puts_visible(out, line);
	}
	if (!deep) {
		fprintf(out, "No stack frames: %s\n",
			empty ? "the tables are empty (the stack tracer recorded nothing)"
			      : "no stack_trace table was given");
		stack_print_diags_text(set, out);
		return;
	}
	g_autofree char *label = stack_table_label(deep);
	g_autofree char *of = n > 1 ? g_strdup_printf(" (the deepest of %u tables)", n) : NULL;
	fprintf(out, "Max stack: %" G_GINT64_FORMAT " bytes in %u frames%s\n",
		ftl_stack_table_depth(deep), ftl_stack_table_n_frames(deep), of ? of : "");
	g_autofree char *head = g_strdup_printf("table: %s", label);
	stack_puts_visible(out, head);
	if (deep->max_size >= 0) {
		g_autofree char *ms = g_strdup_printf(
			"stack_max_size: %" G_GINT64_FORMAT " (%s:%" G_GUINT64_FORMAT ")",
			deep->max_size, deep->max_file, deep->max_line);
		stack_puts_visible(out, ms);
	}
	if (deep->kernel) {
		g_autofree char *k = g_strdup_printf("kernel: %s", deep->kernel);
		stack_puts_visible(out, k);
	}
	g_autoptr(FtlTable) frames = stack_frames_table(deep, TRUE, dbg);
	ftl_table_print_text(frames, out, 0, style);

	fprintf(out, "\nStack hogs, largest frame first%s:\n", n > 1 ? " (over every table)" : "");
	g_autoptr(FtlTable) hogs = stack_hogs_text(set, h, dbg);
	ftl_table_print_text(hogs, out, top, style);

	if (n > 1) {
		fprintf(out,
			"\nPer function over %u tables (top Depth %" G_GINT64_FORMAT
			" to %" G_GINT64_FORMAT ", mean %.1f):\n",
			n, ftl_stackhog_min_depth(h), ftl_stack_table_depth(deep),
			ftl_stackhog_mean_depth(h));
		g_autoptr(FtlTable) agg = stack_funcs_table(h, dbg);
		ftl_table_print_text(agg, out, top, style);
		fprintf(out, "\nTables:\n");
		g_autoptr(FtlTable) tables = stack_tables_table(set, TRUE);
		ftl_table_print_text(tables, out, top, style);
	}
	if (empty)
		fprintf(out,
			"\n%u table%s without frames (the stack tracer had recorded nothing)\n",
			empty, empty == 1 ? "" : "s");
	stack_print_diags_text(set, out);
}

void ftl_stack_view_print(const FtlStackSet *set, const FtlStackHogs *h, FtlFormat format,
			  guint top, FtlDebugInfo *dbg, const FtlTextStyle *style, FILE *out)
{
	if (format == FTL_FORMAT_TEXT) {
		stack_print_text(set, h, top, dbg, style, out);
		return;
	}
	const FtlStackTable *deep = ftl_stackhog_deepest(h);
	g_autoptr(FtlTable) tables = stack_tables_table(set, FALSE);
	g_autoptr(FtlTable) frames = NULL;
	if (deep)
		frames = stack_frames_table(deep, FALSE, dbg);
	g_autoptr(FtlTable) funcs = stack_funcs_table(h, dbg);
	g_autoptr(FtlTable) maxes = stack_max_sizes_table(set);
	g_autoptr(FtlTable) diags = stack_diags_table(set);
	if (format == FTL_FORMAT_CSV) {
		const FtlTable *sections[] = { tables, frames, funcs, maxes, diags };
		ftl_table_print_csv_all(out, sections, G_N_ELEMENTS(sections));
		return;
	}
	g_autoptr(JsonBuilder) b = json_builder_new();
	json_builder_begin_object(b);
	ftl_table_add_json(tables, b);
	ftl_json_member_int(b, "tables_with_frames", ftl_stackhog_n_tables(h));
	ftl_json_member_int(b, "empty_tables", ftl_stackhog_n_empty(h));
	stack_json_table_info(b, "deepest", deep);
	if (frames) {
		ftl_table_add_json(frames, b);
	} else {
		json_builder_set_member_name(b, "max_stack");
		json_builder_begin_array(b);
		json_builder_end_array(b);
	}
	ftl_table_add_json(funcs, b);
	ftl_table_add_json(maxes, b);
	ftl_table_add_json(diags, b);
	json_builder_end_object(b);
	g_autoptr(JsonNode) root = json_builder_get_root(b);
	ftl_json_print(root, out);
}

/* ---- two stacks compared ------------------------------------------------ */

static FtlTable *stack_diff_table(const FtlStackDiff *d, gboolean text)
{
	enum {
		C_FUNC,
		C_RAW,
		C_SIZE_A,
		C_SIZE_B,
		C_SIZE_CHANGE,
		C_DEPTH_A,
		C_DEPTH_B,
		C_DEPTH_CHANGE,
		C_SIDE
	};
	static const FtlColumn cols[] = {
		[C_FUNC] = { "function", "function", FTL_COL_STR },
		[C_RAW] = { "raw", "raw", FTL_COL_INT },
		[C_SIZE_A] = { "size_a", "size A", FTL_COL_INT },
		[C_SIZE_B] = { "size_b", "size B", FTL_COL_INT },
		[C_SIZE_CHANGE] = { "size_change", "change", FTL_COL_INT },
		[C_DEPTH_A] = { "depth_a", "depth A", FTL_COL_INT },
		[C_DEPTH_B] = { "depth_b", "depth B", FTL_COL_INT },
		[C_DEPTH_CHANGE] = { "depth_change", "change", FTL_COL_INT },
		[C_SIDE] = { "side", "in", FTL_COL_STR },
	};
	FtlTable *tb = ftl_table_new("functions", cols, G_N_ELEMENTS(cols));
	if (text)
		ftl_table_omit(tb, C_RAW);
	for (guint i = 0; i < ftl_stackdiff_n_rows(d); i++) {
		const FtlStackDiffRow *r = ftl_stackdiff_row(d, i);
		ftl_table_begin_row(tb);
		ftl_table_set_str(tb, C_FUNC, r->func);
		ftl_table_set_int(tb, C_RAW, r->raw);
		if (r->size_a >= 0)
			ftl_table_set_int(tb, C_SIZE_A, r->size_a);
		if (r->size_b >= 0)
			ftl_table_set_int(tb, C_SIZE_B, r->size_b);
		ftl_table_set_int(tb, C_SIZE_CHANGE, MAX(r->size_b, 0) - MAX(r->size_a, 0));
		if (r->depth_a >= 0)
			ftl_table_set_int(tb, C_DEPTH_A, r->depth_a);
		if (r->depth_b >= 0)
			ftl_table_set_int(tb, C_DEPTH_B, r->depth_b);
		if (r->depth_a >= 0 && r->depth_b >= 0)
			ftl_table_set_int(tb, C_DEPTH_CHANGE, r->depth_b - r->depth_a);
		ftl_table_set_str(tb, C_SIDE,
				  r->size_b < 0	  ? "A only"
				  : r->size_a < 0 ? "B only"
						  : "both");
	}
	return tb;
}

static void stack_diff_side_text(FILE *out, const char *name, const FtlStackTable *t, guint n)
{
	g_autofree char *label = stack_table_label(t);
	g_autofree char *line =
		g_strdup_printf("%s: %s: %" G_GINT64_FORMAT " bytes in %u frames%s", name, label,
				ftl_stack_table_depth(t), ftl_stack_table_n_frames(t),
				n > 1 ? " (the deepest of the input's tables)" : "");
	stack_puts_visible(out, line);
}

void ftl_stack_view_print_diff(const FtlStackSet *set, const FtlStackTable *a, guint n_a,
			       const FtlStackTable *b, guint n_b, const FtlStackDiff *d,
			       FtlFormat format, guint top, const FtlTextStyle *style, FILE *out)
{
	gint64 da = ftl_stack_table_depth(a), db = ftl_stack_table_depth(b);
	g_autoptr(FtlTable) rows = stack_diff_table(d, format == FTL_FORMAT_TEXT);
	if (format == FTL_FORMAT_TEXT) {
		stack_diff_side_text(out, "A", a, n_a);
		stack_diff_side_text(out, "B", b, n_b);
		fprintf(out,
			"Depth change: %+" G_GINT64_FORMAT " bytes (%+.1f%%); %u function%s "
			"changed size, %u only in A, %u only in B\n",
			db - da, stack_pct(db - da, da), ftl_stackdiff_n_changed(d),
			ftl_stackdiff_n_changed(d) == 1 ? "" : "s", ftl_stackdiff_n_only_a(d),
			ftl_stackdiff_n_only_b(d));
		fprintf(out, "sorted by the absolute change of the function's bytes\n\n");
		ftl_table_print_text(rows, out, top, style);
		stack_print_diags_text(set, out);
		return;
	}
	g_autoptr(FtlTable) diags = stack_diags_table(set);
	if (format == FTL_FORMAT_CSV) {
		const FtlTable *sections[] = { rows, diags };
		ftl_table_print_csv_all(out, sections, G_N_ELEMENTS(sections));
		return;
	}
	g_autoptr(JsonBuilder) jb = json_builder_new();
	json_builder_begin_object(jb);
	stack_json_table_info(jb, "a", a);
	stack_json_table_info(jb, "b", b);
	ftl_json_member_int(jb, "depth_change", db - da);
	ftl_json_member_int(jb, "changed", ftl_stackdiff_n_changed(d));
	ftl_json_member_int(jb, "only_a", ftl_stackdiff_n_only_a(d));
	ftl_json_member_int(jb, "only_b", ftl_stackdiff_n_only_b(d));
	ftl_table_add_json(rows, jb);
	ftl_table_add_json(diags, jb);
	json_builder_end_object(jb);
	g_autoptr(JsonNode) root = json_builder_get_root(jb);
	ftl_json_print(root, out);
}
