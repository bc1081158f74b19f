/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result tables rendered as aligned text, CSV or JSON from one declaration
 * of their columns. */
#include "views/table.h"

#include <math.h>
#include <string.h>

#include "util/error.h"
#include "util/color.h"
#include "util/escape.h"
#include "util/timefmt.h"

/* A long string column is never cut below this many columns. */
#define TABLE_MIN_CUT 12

typedef struct {
	char *key;
	char *title;
	FtlColType type;
	guint flags; /* FtlColFlags */
	gboolean omitted;
} TableCol;

typedef struct {
	gboolean set;
	gint64 i;
	double d;
	char *s;
} TableCell;

struct _FtlTable {
	char *name;
	GArray *cols;	 /* TableCol, by the caller's column id */
	GPtrArray *rows; /* TableCell[ncols] */
};

gboolean ftl_format_parse(const char *text, FtlFormat *out, GError **error)
{
	if (!g_strcmp0(text, "text"))
		*out = FTL_FORMAT_TEXT;
	else if (!g_strcmp0(text, "csv"))
		*out = FTL_FORMAT_CSV;
	else if (!g_strcmp0(text, "json"))
		*out = FTL_FORMAT_JSON;
	else {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "--format '%s': expected text, csv or json", text);
		return FALSE;
	}
	return TRUE;
}

FtlTable *ftl_table_new(const char *name, const FtlColumn *cols, guint n_cols)
{
	FtlTable *t = g_new0(FtlTable, 1);
	t->name = g_strdup(name);
	t->cols = g_array_sized_new(FALSE, FALSE, sizeof(TableCol), n_cols);
	t->rows = g_ptr_array_new();
	for (guint i = 0; i < n_cols; i++) {
		TableCol c = { g_strdup(cols[i].key), g_strdup(cols[i].title), cols[i].type,
			       cols[i].flags, FALSE };
		g_array_append_val(t->cols, c);
	}
	return t;
}

void ftl_table_free(FtlTable *t)
{
	if (!t)
		return;
	for (guint r = 0; r < t->rows->len; r++) {
		TableCell *row = g_ptr_array_index(t->rows, r);
		for (guint c = 0; c < t->cols->len; c++)
			g_free(row[c].s);
		g_free(row);
	}
	g_ptr_array_unref(t->rows);
	for (guint c = 0; c < t->cols->len; c++) {
		g_free(g_array_index(t->cols, TableCol, c).key);
		g_free(g_array_index(t->cols, TableCol, c).title);
	}
	g_array_unref(t->cols);
	g_free(t->name);
	g_free(t);
}

static TableCol *table_col(const FtlTable *t, guint col)
{
	g_return_val_if_fail(col < t->cols->len, NULL);
	return &g_array_index(t->cols, TableCol, col);
}

void ftl_table_omit(FtlTable *t, guint col)
{
	TableCol *c = table_col(t, col);
	if (c)
		c->omitted = TRUE;
}

void ftl_table_set_title(FtlTable *t, guint col, const char *title)
{
	TableCol *c = table_col(t, col);
	if (!c)
		return;
	g_free(c->title);
	c->title = g_strdup(title);
}

void ftl_table_begin_row(FtlTable *t)
{
	g_ptr_array_add(t->rows, g_new0(TableCell, t->cols->len));
}

static TableCell *table_cell(FtlTable *t, guint col)
{
	g_return_val_if_fail(t->rows->len > 0 && col < t->cols->len, NULL);
	TableCell *row = g_ptr_array_index(t->rows, t->rows->len - 1);
	return &row[col];
}

void ftl_table_set_str(FtlTable *t, guint col, const char *s)
{
	TableCell *c = table_cell(t, col);
	if (!c || !s)
		return;
	g_free(c->s);
	c->s = g_strdup(s);
	c->set = TRUE;
}

void ftl_table_set_int(FtlTable *t, guint col, gint64 v)
{
	TableCell *c = table_cell(t, col);
	if (!c)
		return;
	c->i = v;
	c->d = (double)v;
	c->set = TRUE;
}

void ftl_table_set_at(FtlTable *t, guint col, gint64 ts)
{
	char buf[48];
	if (ts != FTL_TS_NONE)
		ftl_table_set_str(t, col, ftl_time_format_ns(ts, buf, sizeof buf));
}

void ftl_table_set_double(FtlTable *t, guint col, double v)
{
	TableCell *c = table_cell(t, col);
	if (!c)
		return;
	c->d = v;
	/* a share of a damaged table can be past any gint64 (-2.2e19 %) */
	if (isnan(v))
		c->i = 0;
	else if (v >= 9223372036854775808.0)
		c->i = G_MAXINT64;
	else if (v <= -9223372036854775808.0)
		c->i = G_MININT64;
	else
		c->i = (gint64)v;
	c->set = TRUE;
}

guint ftl_table_n_rows(const FtlTable *t)
{
	return t->rows->len;
}

/* The text of one cell as the text view shows it. */
static char *table_cell_text(const TableCol *col, const TableCell *cell)
{
	char buf[64];
	if (!cell->set)
		return g_strdup("-");
	switch (col->type) {
	case FTL_COL_STR:
		return ftl_escape(cell->s, -1);
	case FTL_COL_INT:
		return g_strdup_printf("%" G_GINT64_FORMAT, cell->i);
	case FTL_COL_NS:
		return g_strdup(ftl_duration_format(cell->i, buf, sizeof buf));
	case FTL_COL_TS:
		return g_strdup(ftl_time_format_us(cell->i, buf, sizeof buf));
	case FTL_COL_PCT:
		return g_strdup_printf("%.1f%%", cell->d);
	case FTL_COL_FLOAT:
		return g_strdup_printf("%.3f", cell->d);
	}
	return g_strdup("?");
}

/* json-glib 1.6 (Debian 12) prints a double with g_ascii_dtostr() and
 * appends ".0" when the text holds no '.', after an exponent too
 * ("1e+17.0" is not JSON; found by fuzz-stack on a huge mean size). So a
 * value it would print with an exponent goes as the integer it rounds to
 * (from 1e15), as 0 when below 1e-4, as null when no integer holds it
 * (nor when it is not finite: "inf" is not JSON either). */
static void table_json_double(JsonBuilder *b, double d)
{
	double a = fabs(d);
	if (!isfinite(d) || a >= 9.2e18)
		json_builder_add_null_value(b);
	else if (a >= 1e15)
		json_builder_add_int_value(b, (gint64)llround(d));
	else if (a < 1e-4)
		json_builder_add_double_value(b, 0.0);
	else
		json_builder_add_double_value(b, d);
}

static gboolean table_in_text(const TableCol *col)
{
	return !col->omitted && !(col->flags & FTL_COL_HIDE_TEXT);
}

static gboolean table_cuttable(const TableCol *col)
{
	return col->type == FTL_COL_STR && !(col->flags & FTL_COL_NO_CUT);
}

/* Shrinks the widest cuttable column until a line fits width. */
static void table_fit(const FtlTable *t, guint *w, guint width)
{
	guint ncols = t->cols->len;
	for (;;) {
		guint total = 0, widest = G_MAXUINT;
		for (guint c = 0; c < ncols; c++) {
			const TableCol *col = &g_array_index(t->cols, TableCol, c);
			if (!table_in_text(col))
				continue;
			total += w[c] + (total ? 2 : 0);
			if (table_cuttable(col) && (widest == G_MAXUINT || w[c] > w[widest]))
				widest = c;
		}
		if (!width || total <= width || widest == G_MAXUINT || w[widest] <= TABLE_MIN_CUT)
			break;
		w[widest] -= MIN(w[widest] - TABLE_MIN_CUT, total - width);
	}
}

/* Appends s cut to w columns (it has more): its start and a '~' for a
 * KEEP_START column; else a '~' and its end, the distinctive part of a
 * long name, or, mid, its start, a '~' and its end (when names share
 * their end, as "alpha_do_work" and "bravo_do_work"). */
static void table_cut(GString *line, const TableCol *col, const char *s, guint w, gboolean mid)
{
	if (col->flags & FTL_COL_KEEP_START) {
		g_string_append_len(line, s, (gssize)ftl_escape_fit(s, w - 1));
		g_string_append_c(line, '~');
		return;
	}
	guint head = mid ? (w - 1) / 2 : 0;
	g_string_append_len(line, s, (gssize)ftl_escape_fit(s, head));
	/* not a width per dropped character: quadratic in a long cell */
	const char *tail = s + ftl_escape_tail(s, w - 1 - head);
	g_string_append_c(line, '~');
	g_string_append(line, tail);
}

/* Appends s (visible text of cols columns) in a field of w columns. */
static void table_put_field(GString *line, const TableCol *col, const char *s, guint cols, guint w,
			    gboolean mid, gboolean last)
{
	gboolean left = col->type == FTL_COL_STR;
	if (cols > w) {
		table_cut(line, col, s, w, mid);
		return;
	}
	if (!left)
		for (guint k = cols; k < w; k++)
			g_string_append_c(line, ' ');
	g_string_append(line, s);
	if (left && !last)
		for (guint k = cols; k < w; k++)
			g_string_append_c(line, ' ');
}

/* TRUE when cutting column c's cells to w columns prints two different
 * cells alike ("~_read" for two names ending so). */
static gboolean table_cut_ambiguous(const FtlTable *t, GPtrArray *texts, guint nrows, guint c,
				    guint w, gboolean mid)
{
	const TableCol *col = &g_array_index(t->cols, TableCol, c);
	guint ncols = t->cols->len;
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (guint r = 0; r < nrows; r++) {
		const char *s = g_ptr_array_index(texts, r * ncols + c);
		if (ftl_escape_width(s) <= w)
			continue;
		GString *cut = g_string_new(NULL);
		table_cut(cut, col, s, w, mid);
		const char *other = g_hash_table_lookup(seen, cut->str);
		if (other && strcmp(other, s) != 0) {
			g_string_free(cut, TRUE);
			return TRUE;
		}
		g_hash_table_insert(seen, g_string_free(cut, FALSE), (gpointer)s);
	}
	return FALSE;
}

/* A name is never ambiguous: a cut name column whose cells would print alike
 * is cut in the middle instead, and widened (past the line's width if it
 * must; never past its widest cell) until no two different cells do. */
static void table_unambiguous(const FtlTable *t, GPtrArray *texts, guint nrows, guint *w,
			      const guint *full, gboolean *mid)
{
	for (guint c = 0; c < t->cols->len; c++) {
		/* KEEP_START columns hold texts (markers), read whole elsewhere,
		 * not names: cut at the width */
		if (g_array_index(t->cols, TableCol, c).flags & FTL_COL_KEEP_START)
			continue;
		while (w[c] < full[c] && table_cut_ambiguous(t, texts, nrows, c, w[c], FALSE)) {
			if (!table_cut_ambiguous(t, texts, nrows, c, w[c], TRUE)) {
				mid[c] = TRUE;
				break;
			}
			w[c]++;
		}
	}
}

/* TRUE when one of row's FTL_COL_ALERT cells is nonzero. */
static gboolean table_alert(const FtlTable *t, const TableCell *row)
{
	for (guint c = 0; c < t->cols->len; c++) {
		const TableCol *col = &g_array_index(t->cols, TableCol, c);
		if ((col->flags & FTL_COL_ALERT) && !col->omitted && row[c].set && row[c].i)
			return TRUE;
	}
	return FALSE;
}

void ftl_table_print_text(const FtlTable *t, FILE *out, guint max_rows, const FtlTextStyle *style)
{
	guint width = style ? style->width : 0;
	gboolean on = style && style->color;
	guint ncols = t->cols->len;
	guint nrows = max_rows && max_rows < t->rows->len ? max_rows : t->rows->len;
	g_autofree guint *w = g_new0(guint, ncols);
	g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func(g_free);
	guint last = 0;
	for (guint c = 0; c < ncols; c++) {
		const TableCol *col = &g_array_index(t->cols, TableCol, c);
		if (table_in_text(col)) {
			w[c] = (guint)ftl_escape_width(col->title);
			last = c;
		}
	}
	for (guint r = 0; r < nrows; r++) {
		TableCell *row = g_ptr_array_index(t->rows, r);
		for (guint c = 0; c < ncols; c++) {
			const TableCol *col = &g_array_index(t->cols, TableCol, c);
			char *s = table_in_text(col) ? table_cell_text(col, &row[c]) : g_strdup("");
			if (table_in_text(col))
				w[c] = MAX(w[c], (guint)ftl_escape_width(s));
			g_ptr_array_add(texts, s);
		}
	}
	g_autofree guint *full = g_memdup2(w, ncols * sizeof *w);
	g_autofree gboolean *mid = g_new0(gboolean, ncols);
	table_fit(t, w, width);
	table_unambiguous(t, texts, nrows, w, full, mid);
	gboolean cut = FALSE;
	for (guint c = 0; c < ncols; c++)
		cut |= w[c] < full[c];
	GString *line = g_string_new(NULL);
	for (guint r = 0; r <= nrows; r++) {
		g_string_truncate(line, 0);
		gboolean first = TRUE;
		const TableCell *row = r ? g_ptr_array_index(t->rows, r - 1) : NULL;
		FtlColorRole line_role = r == 0		       ? FTL_COLOR_HEADER
					 : table_alert(t, row) ? FTL_COLOR_ALERT
								: FTL_COLOR_NONE;
		for (guint c = 0; c < ncols; c++) {
			const TableCol *col = &g_array_index(t->cols, TableCol, c);
			if (!table_in_text(col))
				continue;
			const char *s =
				r == 0 ? col->title : g_ptr_array_index(texts, (r - 1) * ncols + c);
			if (!first)
				g_string_append(line, "  ");
			first = FALSE;
			/* a duration's colour wraps its field: the cell is escaped
			 * text already, so the codes are ours alone */
			FtlColorRole role = row && !line_role && col->type == FTL_COL_NS &&
							    row[c].set
						    ? ftl_color_duration_role(row[c].i)
						    : FTL_COLOR_NONE;
			g_string_append(line, ftl_color_code(on, role));
			table_put_field(line, col, s, (guint)ftl_escape_width(s), w[c], mid[c] && r > 0,
					c == last);
			if (role)
				g_string_append(line, ftl_color_reset(on));
		}
		while (line->len && line->str[line->len - 1] == ' ')
			g_string_truncate(line, line->len - 1);
		fprintf(out, "%s%s%s\n", ftl_color_code(on, line_role), line->str,
			line_role ? ftl_color_reset(on) : "");
	}
	g_string_free(line, TRUE);
	if (nrows < t->rows->len)
		fprintf(out, "(%u more rows; --format csv or json lists all)\n",
			t->rows->len - nrows);
	if (cut && style->cuts && !(*style->cuts)++)
		fprintf(out, "(names cut to fit %u columns, '~' where: --width or a pipe shows them "
			     "whole)\n",
			width);
}

/* A CSV cell: the text made visible, quoted when it holds a separator or a
 * quote, and, when it starts like a formula (= + - @), quoted with a leading
 * apostrophe so that a spreadsheet shows it as text instead of running it. */
void ftl_csv_append(GString *out, const char *s, gssize len)
{
	g_autofree char *v = ftl_escape(s, len);
	gboolean formula = strchr("=+-@", v[0]) && v[0];
	if (!formula && !strpbrk(v, ",\"")) {
		g_string_append(out, v);
		return;
	}
	g_string_append_c(out, '"');
	if (formula)
		g_string_append_c(out, '\'');
	for (const char *p = v; *p; p++) {
		if (*p == '"')
			g_string_append_c(out, '"');
		g_string_append_c(out, *p);
	}
	g_string_append_c(out, '"');
}

static void table_csv_field(FILE *out, const char *s)
{
	g_autoptr(GString) cell = g_string_new(NULL);
	ftl_csv_append(cell, s, -1);
	fputs(cell->str, out);
}

void ftl_table_print_csv(const FtlTable *t, FILE *out)
{
	gboolean first = TRUE;
	for (guint c = 0; c < t->cols->len; c++) {
		const TableCol *col = &g_array_index(t->cols, TableCol, c);
		if (col->omitted)
			continue;
		if (!first)
			fputc(',', out);
		first = FALSE;
		table_csv_field(out, col->key);
	}
	fputc('\n', out);
	for (guint r = 0; r < t->rows->len; r++) {
		TableCell *row = g_ptr_array_index(t->rows, r);
		first = TRUE;
		for (guint c = 0; c < t->cols->len; c++) {
			const TableCol *col = &g_array_index(t->cols, TableCol, c);
			if (col->omitted)
				continue;
			if (!first)
				fputc(',', out);
			first = FALSE;
			if (!row[c].set)
				continue;
			if (col->type == FTL_COL_STR)
				table_csv_field(out, row[c].s);
			else if (col->type == FTL_COL_PCT || col->type == FTL_COL_FLOAT)
				fprintf(out, "%.6g", row[c].d);
			else
				fprintf(out, "%" G_GINT64_FORMAT, row[c].i);
		}
		fputc('\n', out);
	}
}

void ftl_table_print_csv_all(FILE *out, const FtlTable *const *tables, guint n)
{
	gboolean first = TRUE;
	for (guint i = 0; i < n; i++) {
		if (!tables[i])
			continue;
		if (!first)
			fputc('\n', out);
		first = FALSE;
		ftl_table_print_csv(tables[i], out);
	}
}

void ftl_table_add_json(const FtlTable *t, JsonBuilder *b)
{
	json_builder_set_member_name(b, t->name);
	json_builder_begin_array(b);
	for (guint r = 0; r < t->rows->len; r++) {
		TableCell *row = g_ptr_array_index(t->rows, r);
		json_builder_begin_object(b);
		for (guint c = 0; c < t->cols->len; c++) {
			const TableCol *col = &g_array_index(t->cols, TableCol, c);
			if (col->omitted)
				continue;
			json_builder_set_member_name(b, col->key);
			if (!row[c].set)
				json_builder_add_null_value(b);
			else if (col->type == FTL_COL_STR)
				ftl_json_add_text(b, row[c].s);
			else if (col->type == FTL_COL_PCT || col->type == FTL_COL_FLOAT)
				table_json_double(b, row[c].d);
			else
				json_builder_add_int_value(b, row[c].i);
		}
		json_builder_end_object(b);
	}
	json_builder_end_array(b);
}

void ftl_table_print(const FtlTable *t, FtlFormat format, FILE *out, guint max_rows,
		     const FtlTextStyle *style)
{
	if (format == FTL_FORMAT_CSV) {
		ftl_table_print_csv(t, out);
	} else if (format == FTL_FORMAT_JSON) {
		g_autoptr(JsonBuilder) b = json_builder_new();
		json_builder_begin_object(b);
		ftl_table_add_json(t, b);
		json_builder_end_object(b);
		g_autoptr(JsonNode) root = json_builder_get_root(b);
		ftl_json_print(root, out);
	} else {
		ftl_table_print_text(t, out, max_rows, style);
	}
}

void ftl_json_add_text(JsonBuilder *b, const char *s)
{
	if (!s) {
		json_builder_add_null_value(b);
		return;
	}
	if (g_utf8_validate(s, -1, NULL)) {
		json_builder_add_string_value(b, s);
		return;
	}
	g_autofree char *valid = g_utf8_make_valid(s, -1);
	json_builder_add_string_value(b, valid);
}

void ftl_json_member_text(JsonBuilder *b, const char *name, const char *s)
{
	json_builder_set_member_name(b, name);
	ftl_json_add_text(b, s);
}

void ftl_json_set_member_text(JsonBuilder *b, const char *name)
{
	if (g_utf8_validate(name, -1, NULL)) {
		json_builder_set_member_name(b, name);
		return;
	}
	g_autofree char *valid = g_utf8_make_valid(name, -1);
	json_builder_set_member_name(b, valid);
}

void ftl_json_member_int(JsonBuilder *b, const char *name, gint64 v)
{
	json_builder_set_member_name(b, name);
	json_builder_add_int_value(b, v);
}

void ftl_json_member_opt(JsonBuilder *b, const char *name, gint64 v, gint64 none)
{
	json_builder_set_member_name(b, name);
	if (v == none)
		json_builder_add_null_value(b);
	else
		json_builder_add_int_value(b, v);
}

/* text with the code points util/escape.h hides written as \uXXXX: JSON
 * strings allow that escape, and outside strings JSON is ASCII. */
static char *table_json_hide(const char *text)
{
	GString *s = g_string_sized_new(strlen(text) + 1);
	const char *p = text, *done = text;
	/* runs of printable ASCII skipped first (a fuzzing build ran its
	 * compare callbacks on every byte of every JSON output here) */
	while (*(p += ftl_escape_plain_len(p))) {
		guchar c = (guchar)*p;
		if ((c < 0x20 && c != '\n') || c == 0x7f) {
			/* json-glib 1.6 leaves 0x1f raw in strings (invalid JSON),
			 * and DEL is legal JSON but a terminal control: outside
			 * strings there is only '\n' and ' ', so this is safe */
			g_string_append_len(s, done, p - done);
			g_string_append_printf(s, "\\u%04x", c);
			done = ++p;
			continue;
		}
		if (c < 0x80) {
			p++;
			continue;
		}
		gunichar u = g_utf8_get_char(p);
		const char *next = g_utf8_next_char(p);
		if (ftl_escape_is_hidden(u)) {
			g_string_append_len(s, done, p - done);
			g_string_append_printf(s, "\\u%04x", u);
			done = next;
		}
		p = next;
	}
	g_string_append(s, done);
	return g_string_free(s, FALSE);
}

void ftl_json_print(JsonNode *root, FILE *out)
{
	g_autoptr(JsonGenerator) gen = json_generator_new();
	json_generator_set_pretty(gen, TRUE);
	json_generator_set_root(gen, root);
	g_autofree char *text = json_generator_to_data(gen, NULL);
	/* json-glib escapes most C0 controls; the rest, DEL, and C1 and bidi
	 * controls inside strings become \uXXXX too, so that `cat out.json`
	 * cannot drive a terminal (outside strings JSON is ASCII) */
	g_autofree char *shown = table_json_hide(text);
	fputs(shown, out);
	fputc('\n', out);
}

char *ftl_json_quote(const char *s, gssize len)
{
	g_autofree char *valid = g_utf8_make_valid(s ? s : "", s ? len : 0);
	g_autoptr(JsonNode) n = json_node_init_string(json_node_alloc(), valid);
	g_autofree char *text = json_to_string(n, FALSE);
	return table_json_hide(text);
}
