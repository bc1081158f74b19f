/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Stack charts: each stack tracer table a column of frames on one byte
 * axis, drawn through the shared SVG writer. */
#include "config.h"

#include "views/svg-stack.h"

#include <string.h>

#include "analysis/stackhog.h"
#include "util/error.h"
#include "views/svg-writer.h"

#define STK_TOP	   70.0
#define STK_BOTTOM 40.0
#define STK_LEFT   70.0
#define STK_RIGHT  20.0
#define STK_PLOT   640.0 /* px for the byte axis */
#define STK_HOGS   6	 /* functions coloured */

static const char *const stack_hog_fill[STK_HOGS] = {
	"rgb(220,40,40)",  "rgb(240,110,30)", "rgb(240,170,30)",
	"rgb(200,60,140)", "rgb(150,80,200)", "rgb(60,120,220)",
};

typedef struct {
	const FtlStackSvgOptions *opt;
	xmlTextWriterPtr w;
	double width, height, col_w;
	gint64 top; /* bytes at the top of the axis */
	const FtlStackHogs *hogs;
} StackDraw;

static double stack_y(const StackDraw *d, gint64 bytes)
{
	return STK_TOP + STK_PLOT - (double)bytes * STK_PLOT / (double)d->top;
}

static const char *stack_fill(const StackDraw *d, const FtlStackFrame *f)
{
	guint n = MIN(ftl_stackhog_n_funcs(d->hogs), STK_HOGS);
	for (guint i = 0; i < n; i++)
		if (strcmp(ftl_stackhog_func(d->hogs, i)->func, f->func) == 0)
			return stack_hog_fill[i];
	return "rgb(200,210,225)";
}

static void stack_frame(StackDraw *d, const FtlStackTable *t, const FtlStackFrame *f, double x)
{
	xmlTextWriterPtr w = d->w;
	double y0 = stack_y(d, f->depth), y1 = stack_y(d, MAX(f->depth - f->size, 0));
	FTL_SVG_START(w, "g");
	FTL_SVG_STR(w, "class", "sf");
	FTL_SVG_FMT(w, "size", "%" G_GINT64_FORMAT, f->size);
	FTL_SVG_START(w, "title");
	g_autofree char *tip = g_strdup_printf(
		"%s\n%" G_GINT64_FORMAT " bytes; depth %" G_GINT64_FORMAT " of %" G_GINT64_FORMAT
		"; %s:%" G_GUINT64_FORMAT,
		f->location, f->size, f->depth, ftl_stack_table_depth(t), t->file, f->line);
	ftl_svg_text(w, tip);
	FTL_SVG_END(w);
	FTL_SVG_START(w, "rect");
	FTL_SVG_FMT(w, "x", "%.1f", x);
	FTL_SVG_FMT(w, "y", "%.1f", y0);
	FTL_SVG_FMT(w, "width", "%.1f", d->col_w - 8);
	FTL_SVG_FMT(w, "height", "%.1f", MAX(y1 - y0 - 0.5, 0.5));
	FTL_SVG_STR(w, "fill", stack_fill(d, f));
	FTL_SVG_END(w);
	if (y1 - y0 >= 11) {
		g_autofree char *label = g_strdup_printf("%s %" G_GINT64_FORMAT, f->func, f->size);
		glong fit = (glong)((d->col_w - 12) / 6.5);
		FTL_SVG_START(w, "text");
		FTL_SVG_FMT(w, "x", "%.1f", x + 3);
		FTL_SVG_FMT(w, "y", "%.1f", (y0 + y1) / 2 + 4);
		if (g_utf8_validate(label, -1, NULL) && g_utf8_strlen(label, -1) > fit && fit > 3) {
			g_autofree char *cut = g_utf8_substring(label, 0, fit - 2);
			g_autofree char *dots = g_strconcat(cut, "..", NULL);
			ftl_svg_text(w, dots);
		} else {
			ftl_svg_text(w, label);
		}
		FTL_SVG_END(w);
	}
	FTL_SVG_END(w);
}

static void stack_column(StackDraw *d, const FtlStackTable *t, guint col)
{
	xmlTextWriterPtr w = d->w;
	double x = STK_LEFT + col * d->col_w + 4;
	FTL_SVG_START(w, "g");
	FTL_SVG_STR(w, "class", "col");
	FTL_SVG_START(w, "text");
	FTL_SVG_STR(w, "class", "colhead");
	FTL_SVG_FMT(w, "x", "%.1f", x);
	FTL_SVG_FMT(w, "y", "%.1f", stack_y(d, ftl_stack_table_depth(t)) - 6);
	g_autofree char *base = g_path_get_basename(t->file);
	g_autofree char *head =
		t->snapshot >= 0
			? g_strdup_printf("#%" G_GINT64_FORMAT ": %" G_GINT64_FORMAT " B",
					  t->snapshot, ftl_stack_table_depth(t))
			: g_strdup_printf("%s: %" G_GINT64_FORMAT " B", base, ftl_stack_table_depth(t));
	ftl_svg_text(w, head);
	FTL_SVG_END(w);
	for (guint i = 0; i < ftl_stack_table_n_frames(t); i++)
		stack_frame(d, t, ftl_stack_table_frame(t, i), x);
	FTL_SVG_END(w);
}

static void stack_axis(StackDraw *d)
{
	xmlTextWriterPtr w = d->w;
	gint64 step = 256;
	while (d->top / step > 12)
		step *= 2;
	FTL_SVG_START(w, "g");
	FTL_SVG_STR(w, "id", "axis");
	for (gint64 b = 0; b <= d->top; b += step) {
		double y = stack_y(d, b);
		ftl_svg_line(w, STK_LEFT - 4, y, d->width - STK_RIGHT, y);
		g_autofree char *label = g_strdup_printf("%" G_GINT64_FORMAT " B", b);
		ftl_svg_label(w, NULL, NULL, 8.0, y + 4, label);
	}
	FTL_SVG_END(w);
	if (d->opt->limit > 0) {
		double y = stack_y(d, d->opt->limit);
		FTL_SVG_START(w, "g");
		FTL_SVG_STR(w, "id", "limit");
		ftl_svg_line(w, STK_LEFT - 4, y, d->width - STK_RIGHT, y);
		g_autofree char *label =
			g_strdup_printf("stack limit %" G_GINT64_FORMAT " B", d->opt->limit);
		ftl_svg_label(w, NULL, NULL, d->width - STK_RIGHT - 4, y - 4, label);
		FTL_SVG_END(w);
	}
}

static void stack_head(StackDraw *d, guint drawn, guint n)
{
	xmlTextWriterPtr w = d->w;
	FTL_SVG_START(w, "svg");
	FTL_SVG_STR(w, "version", "1.1");
	FTL_SVG_STR(w, "xmlns", "http://www.w3.org/2000/svg");
	FTL_SVG_FMT(w, "width", "%.0f", d->width);
	FTL_SVG_FMT(w, "height", "%.0f", d->height);
	FTL_SVG_FMT(w, "viewBox", "0 0 %.0f %.0f", d->width, d->height);
	FTL_SVG_STR(w, "class", "stackchart");
	FTL_SVG_START(w, "rect");
	FTL_SVG_STR(w, "width", "100%");
	FTL_SVG_STR(w, "height", "100%");
	FTL_SVG_STR(w, "fill", "rgb(250,250,245)");
	FTL_SVG_END(w);
	ftl_svg_label(w, "title", NULL, d->width / 2, 24,
		      d->opt->title ? d->opt->title : "Stack Chart");
	g_autofree char *sub = g_strdup_printf(
		"%s%sdeepest stack %" G_GINT64_FORMAT " bytes; %u of %u tables drawn (the deepest); "
		"the %d biggest frames' functions coloured",
		d->opt->subtitle ? d->opt->subtitle : "", d->opt->subtitle ? "; " : "",
		ftl_stack_table_depth(ftl_stackhog_deepest(d->hogs)), drawn, n, STK_HOGS);
	ftl_svg_label(w, "subtitle", NULL, d->width / 2, 42, sub);
}

static gint stack_cmp_depth(gconstpointer a, gconstpointer b)
{
	gint64 x = ftl_stack_table_depth(*(const FtlStackTable *const *)a);
	gint64 y = ftl_stack_table_depth(*(const FtlStackTable *const *)b);
	return (x < y) - (x > y);
}

static gint stack_cmp_pos(gconstpointer a, gconstpointer b, gpointer order)
{
	guint x = GPOINTER_TO_UINT(g_hash_table_lookup(order, *(gconstpointer *)a));
	guint y = GPOINTER_TO_UINT(g_hash_table_lookup(order, *(gconstpointer *)b));
	return (x > y) - (x < y);
}

/* The deepest max_columns tables with frames, in their input order. */
static GPtrArray *stack_pick(FtlStackSet *set, guint max_columns)
{
	GPtrArray *v = g_ptr_array_new();
	g_autoptr(GHashTable) order = g_hash_table_new(g_direct_hash, g_direct_equal);
	for (guint i = 0; i < ftl_stack_set_n_tables(set); i++) {
		FtlStackTable *t = ftl_stack_set_table(set, i);
		if (ftl_stack_table_n_frames(t)) {
			g_hash_table_insert(order, t, GUINT_TO_POINTER(i + 1));
			g_ptr_array_add(v, t);
		}
	}
	if (v->len > max_columns) {
		g_ptr_array_sort(v, stack_cmp_depth);
		g_ptr_array_set_size(v, max_columns);
	}
	g_ptr_array_sort_with_data(v, stack_cmp_pos, order);
	return v;
}

gboolean ftl_stack_svg_write(FtlStackSet *set, const FtlStackSvgOptions *opt, FILE *out,
			     guint64 *bytes, GError **error)
{
	g_autoptr(GPtrArray) cols = stack_pick(set, opt->max_columns ? opt->max_columns : 48);
	if (!cols->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "flame --stack: no stack tracer table with frames in the input");
		return FALSE;
	}
	g_autoptr(FtlStackHogs) hogs = ftl_stackhog_new((const FtlStackTable *const *)cols->pdata,
							cols->len);
	StackDraw d = { .opt = opt, .hogs = hogs };
	d.width = opt->width ? opt->width : 1200;
	/* the columns share the width given, however few they are */
	d.col_w = (d.width - STK_LEFT - STK_RIGHT) / cols->len;
	d.height = STK_TOP + STK_PLOT + STK_BOTTOM;
	d.top = MAX(ftl_stack_table_depth(ftl_stackhog_deepest(hogs)), opt->limit);
	d.top = MAX(d.top + d.top / 20, 1);
	g_autoptr(FtlSvgWriter) sw = ftl_svg_writer_new(out, error);
	if (!sw)
		return FALSE;
	d.w = sw->w;
	stack_head(&d, cols->len, ftl_stack_set_n_tables(set));
	if (!ftl_svg_write_assets(d.w, FALSE, error))
		return FALSE;
	stack_axis(&d);
	for (guint i = 0; i < cols->len; i++)
		stack_column(&d, cols->pdata[i], i);
	FTL_SVG_END(d.w);
	gboolean ok = ftl_svg_writer_end(sw, error);
	if (bytes)
		*bytes = sw->bytes;
	return ok;
}
