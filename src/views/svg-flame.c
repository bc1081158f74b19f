/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The SVG flame views: a layout of boxes (frames wide enough to see, the
 * rest summed per parent), then one document streamed by xmlTextWriter. */
#include "config.h"

#include "views/svg-flame.h"

#include <math.h>
#include <string.h>

#include "util/checked.h"
#include "util/error.h"
#include "util/escape.h"
#include "util/timefmt.h"
#include "views/svg-writer.h"

#define SVG_XPAD     10.0
#define SVG_FH	     16.0 /* frame height */
#define SVG_FONT     12.0
#define SVG_FONTW    0.59 /* average glyph width / font size (Verdana) */
#define SVG_INPUT_FONT 10.0 /* flame.css's #input */
#define SVG_TOP	     (SVG_FONT * 5) /* with a subtitle of one line */
#define SVG_SUB_LINE (SVG_FONT + 4)
#define SVG_SUB_MAX  4 /* subtitle lines at most */
#define SVG_BOTTOM   (SVG_FONT * 2 + 10)
#define SVG_MAX_LVL  2000 /* deeper frames are not drawn (damaged input) */
#define SVG_DEFAULTW 1200

static const char *const flame_color_names[] = { "hot",	 "kernel", "mono",   "mem",
						 "io",	 "aqua",   "purple", "yellow" };

gboolean ftl_flame_colors_parse(const char *s, FtlFlameColors *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(flame_color_names); i++)
		if (strcmp(s, flame_color_names[i]) == 0) {
			*out = (FtlFlameColors)i;
			return TRUE;
		}
	return FALSE;
}

gboolean ftl_svg_minwidth_parse(const char *s, FtlSvgMinWidth *out)
{
	char *end = NULL;
	double v = g_ascii_strtod(s, &end);
	if (end == s || !(v >= 0 && v <= 1e6))
		return FALSE;
	out->px = out->pct = 0;
	if (strcmp(end, "%") == 0 && v <= 100)
		out->pct = v;
	else if (*end == 0 || strcmp(end, "px") == 0)
		out->px = v;
	else
		return FALSE;
	return TRUE;
}

typedef enum {
	BOX_VANISHED = 1u << 0, /* diff: a path only in A */
	BOX_HAS_W = 1u << 1,	/* layout width differs from the value */
} BoxFlags;

/* One frame to draw. */
typedef struct {
	const FtlFlameNode *node; /* NULL for a merged box */
	const FtlFlameNode *parent;
	gint64 o, n, w, a; /* offset, value, layout width (ns or samples), A's value */
	guint64 calls, count;
	guint level, lane;
	guint8 kind;
	guint8 flags;
} SvgBox;

typedef struct {
	const FtlFlameSvgOptions *opt;
	FtlFlame *f;
	gboolean chart;
	gint64 thr;   /* narrower than this: merged */
	gint64 total; /* the root's width in layout units */
	gint64 t0;    /* charts: the chart's start on the trace clock */
	GArray *boxes;
	guint max_frames;
	guint max_level;
	GArray *lane_levels; /* charts: deepest level per lane */
	FtlFlameSvgStats st;
	double scale; /* px per unit */
	double height;
	double top;	/* where the frames (or a chart's axis) begin */
	GPtrArray *sub; /* the subtitle's lines, escaped, each fitting the width */
	gboolean sub_cut; /* a line was cut: all of it on hover */
	GRegex *hl;
	/* --color-by: each box's group (NULL for boxes of no function), and
	 * the legend's groups (SvgGroup) by weight, the most drawn first */
	const char **box_group;
	GArray *legend;
	double legend_y; /* where the legend's first row is */
} SvgLayout;

/* One group of the legend: its name, what its frames weigh of their own
 * (self), its colour and where the legend puts it. */
typedef struct {
	const char *name;
	gint64 self;
	char fill[32];
	double x, y;
} SvgGroup;

static gboolean svg_box(SvgLayout *L, const FtlFlameNode *node, const FtlFlameNode *parent,
			gint64 o, gint64 n, gint64 w, guint level, guint lane, FtlFlameKind kind)
{
	if (L->boxes->len >= L->max_frames)
		return FALSE;
	SvgBox b = { .node = node,
		     .parent = parent,
		     .o = o,
		     .n = n,
		     .w = w,
		     .a = node ? node->other : 0,
		     .calls = node ? node->calls : 0,
		     .level = level,
		     .lane = lane,
		     .kind = (guint8)kind };
	if (w != n)
		b.flags |= BOX_HAS_W;
	g_array_append_val(L->boxes, b);
	L->max_level = MAX(L->max_level, level);
	if (L->chart) {
		if (lane >= L->lane_levels->len)
			g_array_set_size(L->lane_levels, lane + 1);
		guint *lv = &g_array_index(L->lane_levels, guint, lane);
		*lv = MAX(*lv, level);
	}
	return TRUE;
}

static SvgBox *svg_last(SvgLayout *L)
{
	return &g_array_index(L->boxes, SvgBox, L->boxes->len - 1);
}

/* A box for what was too narrow: its width is the exact sum. */
static gboolean svg_merged(SvgLayout *L, const FtlFlameNode *parent, gint64 o, gint64 sum,
			   gint64 a, guint64 calls, guint64 count, guint level, guint lane)
{
	if (!svg_box(L, NULL, parent, o, sum, sum, level, lane, FTL_FLAME_MERGED))
		return FALSE;
	SvgBox *b = svg_last(L);
	b->a = a;
	b->calls = calls;
	b->count = count;
	L->st.merged++;
	L->st.merged_nodes += count;
	return TRUE;
}

/* Vanished paths of a diff take what is left of their parent's width, at
 * least the minimum, so that they show without changing B's widths. */
static gboolean svg_vanished(SvgLayout *L, const FtlFlameNode *node, gint64 x, gint64 end,
			     guint level)
{
	guint nv = 0;
	for (const FtlFlameNode *c = node->child; c; c = c->next)
		nv += !c->in_b;
	if (!nv)
		return TRUE;
	gint64 room = MAX(end - x, 0) / nv;
	for (const FtlFlameNode *c = node->child; c; c = c->next) {
		if (c->in_b)
			continue;
		gint64 w = MAX(MIN(c->other, room), L->thr);
		if (!svg_box(L, c, node, x, 0, w, level, 0, (FtlFlameKind)c->kind))
			return FALSE;
		svg_last(L)->flags |= BOX_VANISHED | BOX_HAS_W;
		L->st.vanished++;
		x += w;
	}
	return TRUE;
}

/* Lays out node at offset o and its children after it, left to right. */
static gboolean svg_layout_flame(SvgLayout *L, const FtlFlameNode *node, gint64 o, guint level)
{
	if (!svg_box(L, node, node->parent, o, node->value, node->value, level, 0,
		     (FtlFlameKind)node->kind))
		return FALSE;
	if (level >= SVG_MAX_LVL)
		return TRUE;
	gint64 x = o, small = 0, small_a = 0;
	guint64 small_calls = 0, small_n = 0;
	for (const FtlFlameNode *c = node->child; c; c = c->next) {
		if (L->opt->diff && !c->in_b)
			continue;
		if (c->value >= L->thr && c->value > 0) {
			if (!svg_layout_flame(L, c, x, level + 1))
				return FALSE;
			x += c->value;
		} else {
			small += c->value;
			small_a += c->other;
			small_calls += c->calls;
			small_n++;
		}
	}
	if (small_n && small > 0) {
		if (!svg_merged(L, node, x, small, small_a, small_calls, small_n, level + 1, 0))
			return FALSE;
		x += small;
	}
	if (L->opt->diff && !svg_vanished(L, node, x, o + node->value, level + 1))
		return FALSE;
	return TRUE;
}

/* Charts: children keep their place in time; runs of narrow neighbours
 * become one box at the run's start, as wide as their summed time. */
static gboolean svg_layout_chart(SvgLayout *L, const FtlFlameNode *node, guint level, guint lane)
{
	gint64 o = node->start - L->t0;
	if (!svg_box(L, node, node->parent, o, node->value, node->value, level, lane,
		     (FtlFlameKind)node->kind))
		return FALSE;
	if (level >= SVG_MAX_LVL)
		return TRUE;
	gint64 run_o = 0, run = 0;
	guint64 run_calls = 0, run_n = 0;
	for (const FtlFlameNode *c = node->child;; c = c->next) {
		gboolean small = c && (c->value < L->thr || c->kind == FTL_FLAME_MERGED);
		if (c && small) {
			if (!run_n)
				run_o = c->start - L->t0;
			run += c->value;
			run_calls += c->kind == FTL_FLAME_MERGED ? c->calls : 1;
			run_n += c->kind == FTL_FLAME_MERGED ? c->calls : 1;
			continue;
		}
		if (run_n &&
		    !svg_merged(L, node, run_o, run, 0, run_calls, run_n, level + 1, lane))
			return FALSE;
		run = 0;
		run_n = run_calls = 0;
		if (!c)
			break;
		if (!svg_layout_chart(L, c, level + 1, lane))
			return FALSE;
	}
	return TRUE;
}

/* Lanes (tasks or CPUs) span the whole chart; their value is their busy time. */
static gboolean svg_layout_lanes(SvgLayout *L, const FtlFlameNode *root)
{
	guint lane = 0;
	for (const FtlFlameNode *g = root->child; g; g = g->next, lane++) {
		if (!svg_box(L, g, root, 0, g->value, L->total, 0, lane, FTL_FLAME_GROUP))
			return FALSE;
		svg_last(L)->flags |= BOX_HAS_W;
		gint64 run_o = 0, run = 0;
		guint64 run_n = 0;
		for (const FtlFlameNode *c = g->child;; c = c->next) {
			if (c && (c->value < L->thr || c->kind == FTL_FLAME_MERGED)) {
				if (!run_n)
					run_o = c->start - L->t0;
				run += c->value;
				run_n += c->kind == FTL_FLAME_MERGED ? c->calls : 1;
				continue;
			}
			if (run_n && !svg_merged(L, g, run_o, run, 0, run_n, run_n, 1, lane))
				return FALSE;
			run = 0;
			run_n = 0;
			if (!c)
				break;
			if (!svg_layout_chart(L, c, 1, lane))
				return FALSE;
		}
	}
	return TRUE;
}

/* Lays out with the smallest minimum width (at least the asked one) that
 * keeps the frame count within the budget. */
static void svg_layout(SvgLayout *L, gint64 thr)
{
	FtlFlameNode *root = ftl_flame_root(L->f);
	L->thr = MAX(thr, 1);
	for (;;) {
		g_array_set_size(L->boxes, 0);
		if (L->lane_levels)
			g_array_set_size(L->lane_levels, 0);
		L->max_level = 0;
		L->st.merged = L->st.merged_nodes = L->st.vanished = 0;
		gboolean fits = L->chart ? svg_layout_lanes(L, root) : svg_layout_flame(L, root, 0, 0);
		if (fits || L->thr >= L->total)
			break;
		L->thr = L->thr > G_MAXINT64 / 2 ? G_MAXINT64 : L->thr * 2;
	}
}

/* ---- colours ---------------------------------------------------------------- */

static void svg_name_hash(const char *name, double v[3])
{
	guint32 h = 2166136261u;
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	v[0] = (double)(h & 0x3ff) / 1023.0;
	v[1] = (double)((h >> 10) & 0x3ff) / 1023.0;
	v[2] = (double)((h >> 20) & 0x3ff) / 1023.0;
}

/* "rgb(R,G,B)" */
static void svg_rgb(int r, int g, int b, char *buf, gsize size)
{
	char v[3][24];
	ftl_int_format(r, v[0], sizeof v[0]);
	ftl_int_format(g, v[1], sizeof v[1]);
	ftl_int_format(b, v[2], sizeof v[2]);
	g_strlcpy(buf, "rgb(", size);
	for (guint i = 0; i < 3; i++) {
		g_strlcat(buf, v[i], size);
		g_strlcat(buf, i < 2 ? "," : ")", size);
	}
}

static void svg_palette(FtlFlameColors c, const char *name, char *buf, gsize size)
{
	double v[3];
	svg_name_hash(name, v);
	int r, g, b;
	switch (c) {
	case FTL_FLAME_COLORS_KERNEL:
		r = 230 + (int)(25 * v[2]), g = 120 + (int)(80 * v[0]), b = (int)(50 * v[1]);
		break;
	case FTL_FLAME_COLORS_MONO:
		r = g = b = 150 + (int)(80 * v[0]);
		break;
	case FTL_FLAME_COLORS_MEM:
		r = 0, g = 190 + (int)(50 * v[1]), b = (int)(210 * v[0]);
		break;
	case FTL_FLAME_COLORS_IO:
		r = 80 + (int)(60 * v[0]), g = r, b = 190 + (int)(55 * v[1]);
		break;
	case FTL_FLAME_COLORS_AQUA:
		r = 50 + (int)(60 * v[0]), g = 165 + (int)(55 * v[0]), b = 165 + (int)(55 * v[0]);
		break;
	case FTL_FLAME_COLORS_PURPLE:
		r = 190 + (int)(65 * v[0]), g = 80 + (int)(60 * v[0]), b = 190 + (int)(65 * v[0]);
		break;
	case FTL_FLAME_COLORS_YELLOW:
		r = 175 + (int)(55 * v[0]), g = r, b = 50 + (int)(20 * v[0]);
		break;
	case FTL_FLAME_COLORS_HOT:
	default:
		r = 205 + (int)(50 * v[2]), g = (int)(230 * v[0]), b = (int)(55 * v[1]);
		break;
	}
	svg_rgb(r, g, b, buf, size);
}

/* A group's colour: a hue, saturation and lightness from its name's hash,
 * so that a directory keeps its colour from one graph to the next and
 * neighbours differ more than one palette's shades would. */
static void svg_group_color(const char *group, char *buf, gsize size)
{
	if (!strcmp(group, FTL_SOURCE_UNKNOWN)) {
		g_strlcpy(buf, "rgb(205,205,215)", size);
		return;
	}
	double v[3];
	svg_name_hash(group, v);
	double hue = v[0] * 360, sat = 0.50 + 0.25 * v[1], light = 0.58 + 0.14 * v[2];
	double c = (1 - fabs(2 * light - 1)) * sat, hp = hue / 60;
	double x = c * (1 - fabs(fmod(hp, 2) - 1)), m = light - c / 2;
	/* HSL to RGB: the sextant of the hue says which channel gets c and
	 * which x (red, yellow, green, cyan, blue, magenta) */
	static const int first[6] = { 0, 1, 1, 2, 2, 0 };
	static const int second[6] = { 1, 0, 2, 1, 0, 2 };
	double rgb[3] = { 0, 0, 0 };
	int k = (int)hp % 6;
	rgb[first[k]] = c;
	rgb[second[k]] = x;
	svg_rgb((int)((rgb[0] + m) * 255 + 0.5), (int)((rgb[1] + m) * 255 + 0.5),
		(int)((rgb[2] + m) * 255 + 0.5), buf, size);
}

/* --diff: red for growth, blue for shrinkage, by the change on the path. */
static void svg_diff_color(gint64 delta, gint64 max_abs, char *buf, gsize size)
{
	double r = max_abs > 0 ? (double)(delta < 0 ? -delta : delta) / (double)max_abs : 0;
	int c = 255 - (int)(210 * r);
	if (delta > 0)
		g_snprintf(buf, size, "rgb(255,%d,%d)", c, c);
	else if (delta < 0)
		g_snprintf(buf, size, "rgb(%d,%d,255)", c, c);
	else
		g_snprintf(buf, size, "rgb(250,250,250)");
}

static void svg_fill(const SvgLayout *L, const SvgBox *b, const char *name, gint64 max_abs,
		     char *buf, gsize size)
{
	if (b->flags & BOX_VANISHED)
		g_strlcpy(buf, "url(#ftl-hatch)", size);
	else if (b->kind == FTL_FLAME_MERGED)
		g_strlcpy(buf, "rgb(190,190,190)", size);
	else if (b->kind == FTL_FLAME_ROOT || b->kind == FTL_FLAME_GROUP)
		g_strlcpy(buf, "rgb(215,215,215)", size);
	else if (L->opt->diff)
		svg_diff_color(b->n - b->a, max_abs, buf, size);
	else if (L->hl && g_regex_match(L->hl, name, 0, NULL))
		g_strlcpy(buf, "rgb(60,150,255)", size);
	else if (b->kind == FTL_FLAME_IRQ)
		g_strlcpy(buf, "rgb(235,80,80)", size);
	else if (L->box_group && L->box_group[b - (const SvgBox *)(gpointer)L->boxes->data])
		svg_group_color(L->box_group[b - (const SvgBox *)(gpointer)L->boxes->data], buf,
				size);
	else
		svg_palette(L->opt->colors, name, buf, size);
}

/* ---- the document -------------------------------------------------------------- */

#define W_STR FTL_SVG_STR
#define W_FMT FTL_SVG_FMT
#define W_START FTL_SVG_START
#define W_END FTL_SVG_END
#define svg_text ftl_svg_text

static void svg_amount(const SvgLayout *L, gint64 v, char *buf, gsize size)
{
	if (ftl_flame_unit(L->f) == FTL_FLAME_UNIT_SAMPLES)
		g_snprintf(buf, size, "%" G_GINT64_FORMAT " sample%s", v, v == 1 ? "" : "s");
	else
		ftl_duration_format(v, buf, size);
}

static double svg_pct(gint64 part, gint64 whole)
{
	return whole > 0 ? 100.0 * (double)part / (double)whole : 0.0;
}

/* The hover text after the name: time, shares, calls, repairs. */
static void svg_details(const SvgLayout *L, const SvgBox *b, gint64 all, GString *s)
{
	char v[64], a[64], d[64];
	gint64 parent = b->parent ? b->parent->value : b->n;
	if (b->flags & BOX_VANISHED) {
		svg_amount(L, b->a, a, sizeof a);
		g_string_append_printf(s, "only in A: %s; gone in B", a);
		return;
	}
	svg_amount(L, b->n, v, sizeof v);
	char p1[64], p2[64];
	ftl_fixed_format(svg_pct(b->n, all), 2, p1, sizeof p1);
	ftl_fixed_format(svg_pct(b->n, parent), 2, p2, sizeof p2);
	g_string_append(s, v);
	g_string_append(s, ", ");
	g_string_append(s, p1);
	g_string_append(s, "% of all, ");
	g_string_append(s, p2);
	g_string_append(s, "% of parent");
	if (b->kind == FTL_FLAME_MERGED)
		g_string_append_printf(s, "; %" G_GUINT64_FORMAT " frames too narrow to draw",
				       b->count);
	else if (b->calls && ftl_flame_unit(L->f) == FTL_FLAME_UNIT_NS) {
		g_string_append(s, ", ");
		g_string_append(s, ftl_int_format((gint64)b->calls, p1, sizeof p1));
		g_string_append(s, b->calls == 1 ? " call" : " calls");
	}
	if (L->chart && b->node && b->kind != FTL_FLAME_GROUP) {
		gint64 origin = L->opt->origin != FTL_TS_NONE ? L->opt->origin : L->t0;
		gint64 at = b->node->start - origin;
		ftl_duration_format(at < 0 ? -at : at, d, sizeof d);
		g_string_append_printf(s, ", at %s%s", at < 0 ? "-" : "+", d);
	}
	if (L->opt->diff && b->kind != FTL_FLAME_ROOT) {
		svg_amount(L, b->a, a, sizeof a);
		gint64 delta = b->n - b->a;
		svg_amount(L, delta < 0 ? -delta : delta, d, sizeof d);
		g_string_append_printf(s, "; A %s, B %s, change %s%s", a, v,
				       delta < 0 ? "-" : "+", d);
		if (b->a > 0)
			g_string_append_printf(s, " (%+.2f%%)", svg_pct(delta, b->a));
		else if (b->node && !b->node->in_a)
			g_string_append(s, " (new in B)");
	}
	if (b->node && b->node->n_open)
		g_string_append_printf(s, "; %" G_GUINT64_FORMAT
				       " open at the end: no exit, only its children's time",
				       b->node->n_open);
	if (b->node && b->node->n_orphan)
		g_string_append_printf(s, "; %" G_GUINT64_FORMAT
				       " exit without entry: its time less its children drawn apart",
				       b->node->n_orphan);
}

static double svg_lane_y(const SvgLayout *L, guint lane)
{
	double y = L->top + SVG_FH * 1.5; /* the time axis */
	for (guint i = 0; i < lane && i < L->lane_levels->len; i++)
		y += (g_array_index(L->lane_levels, guint, i) + 1) * SVG_FH + SVG_FH / 2;
	return y;
}

static double svg_box_y(const SvgLayout *L, const SvgBox *b)
{
	if (L->chart)
		return svg_lane_y(L, b->lane) + b->level * SVG_FH;
	if (L->opt->inverted)
		return L->top + b->level * SVG_FH;
	return L->height - SVG_BOTTOM - (b->level + 1) * SVG_FH;
}

static void svg_frame(xmlTextWriterPtr w, const SvgLayout *L, const SvgBox *b, gint64 all,
		      gint64 max_abs, GString *scratch)
{
	char label[64], fill[48];
	const char *name = b->node ? b->node->name : label;
	if (!b->node)
		g_snprintf(label, sizeof label, "[%" G_GUINT64_FORMAT " smaller %s]", b->count,
			   ftl_flame_unit(L->f) == FTL_FLAME_UNIT_NS ? "calls" : "frames");
	W_START(w, "g");
	const char *cls = "f";
	if (b->node && b->node->n_open && b->node->n_open == b->node->calls)
		cls = "f open";
	else if (b->node && b->node->n_orphan && b->node->n_orphan == b->node->calls)
		cls = "f orphan";
	else if (b->flags & BOX_VANISHED)
		cls = "f gone";
	W_STR(w, "class", cls);
	ftl_svg_attr_int(w, "o", b->o);
	ftl_svg_attr_int(w, "n", b->n);
	if (b->flags & BOX_HAS_W)
		ftl_svg_attr_int(w, "w", b->w);
	if (L->opt->diff)
		ftl_svg_attr_int(w, "a", b->a);
	ftl_svg_attr_int(w, "c", (gint64)b->calls);
	ftl_svg_attr_int(w, "l", b->level);
	W_START(w, "title");
	g_autofree char *vis = ftl_escape_markup(name, -1);
	g_string_assign(scratch, vis);
	g_string_append_c(scratch, '\n');
	svg_details(L, b, all, scratch);
	xmlTextWriterWriteString(w, BAD_CAST scratch->str);
	W_END(w);
	double x = SVG_XPAD + (double)b->o * L->scale;
	double wd = (double)b->w * L->scale;
	double y = svg_box_y(L, b);
	svg_fill(L, b, name, max_abs, fill, sizeof fill);
	W_START(w, "rect");
	ftl_svg_attr_num(w, "x", x, 1);
	ftl_svg_attr_num(w, "y", y, 1);
	ftl_svg_attr_num(w, "width", wd, 1);
	ftl_svg_attr_num(w, "height", SVG_FH - 1, 1);
	W_STR(w, "fill", fill);
	W_END(w);
	W_START(w, "text");
	ftl_svg_attr_num(w, "x", x + 3, 1);
	ftl_svg_attr_num(w, "y", y + SVG_FH - 5, 1);
	/* as much of the name as fits, as the script does after a zoom */
	glong chars = (glong)(wd / (SVG_FONT * SVG_FONTW));
	if (chars >= 3) {
		glong len = g_utf8_strlen(vis, -1);
		if (len > chars) {
			g_autofree char *cut = g_utf8_substring(vis, 0, chars - 2);
			g_autofree char *dots = g_strconcat(cut, "..", NULL);
			xmlTextWriterWriteString(w, BAD_CAST dots);
		} else {
			xmlTextWriterWriteString(w, BAD_CAST vis);
		}
	}
	W_END(w);
	W_END(w);
}

/* Round steps (1, 2, 5 x 10^k ns) for the chart's time axis. */
static gint64 svg_tick_step(gint64 span)
{
	gint64 step = 1;
	while (step < G_MAXINT64 / 10 && span / step > 10) {
		if (span / (step * 2) <= 10)
			return step * 2;
		if (span / (step * 5) <= 10)
			return step * 5;
		step *= 10;
	}
	return step;
}

static void svg_axis(xmlTextWriterPtr w, SvgLayout *L)
{
	gint64 origin = L->opt->origin != FTL_TS_NONE ? L->opt->origin : L->t0;
	gint64 step = svg_tick_step(L->total);
	double y = L->top + SVG_FH;
	W_START(w, "g");
	W_STR(w, "id", "axis");
	/* for flame.js, which draws the ticks again for a zoom */
	W_FMT(w, "t0", "%" G_GINT64_FORMAT, L->t0 - origin);
	W_FMT(w, "y", "%.1f", y);
	W_FMT(w, "y2", "%.1f", L->height - SVG_BOTTOM);
	/* ticks at round times of the axis's own clock (relative to origin) */
	gint64 first = L->t0 - origin;
	gint64 t = first >= 0 ? ((first + step - 1) / step) * step : -((-first) / step) * step;
	for (; t + origin - L->t0 <= L->total; t += step) {
		double x = SVG_XPAD + (double)(t + origin - L->t0) * L->scale;
		char d[64];
		ftl_duration_format(t < 0 ? -t : t, d, sizeof d);
		ftl_svg_line(w, x, y - 4, x, L->height - SVG_BOTTOM);
		g_autofree char *label = g_strdup_printf("%s%s", t < 0 ? "-" : t > 0 ? "+" : "", d);
		ftl_svg_label(w, NULL, NULL, x + 2, y - 6, label);
	}
	W_END(w);
}

static void svg_marks(xmlTextWriterPtr w, SvgLayout *L)
{
	W_START(w, "g");
	W_STR(w, "id", "marks");
	for (guint i = 0; i < L->opt->n_marks; i++) {
		const FtlFlameMark *m = &L->opt->marks[i];
		if (m->ts == FTL_TS_NONE || m->ts < L->t0 || m->ts - L->t0 > L->total)
			continue;
		double x = SVG_XPAD + (double)(m->ts - L->t0) * L->scale;
		W_START(w, "g");
		W_STR(w, "class", m->lost ? "mk lost" : "mk");
		W_FMT(w, "o", "%" G_GINT64_FORMAT, m->ts - L->t0);
		W_START(w, "title");
		svg_text(w, m->text);
		W_END(w);
		ftl_svg_line(w, x, L->top + SVG_FH, x, L->height - SVG_BOTTOM);
		/* its label, cut, beside the line's foot (all of it on hover) */
		g_autofree char *vis = ftl_escape(m->text ? m->text : "", -1);
		g_autofree char *cut = g_utf8_substring(vis, 0, MIN(g_utf8_strlen(vis, -1), 24));
		W_START(w, "text");
		W_STR(w, "class", "mkl");
		ftl_svg_attr_num(w, "x", x + 2, 1);
		ftl_svg_attr_num(w, "y", L->height - SVG_BOTTOM - 2 - (i % 3) * 11, 1);
		xmlTextWriterWriteString(w, BAD_CAST cut);
		W_END(w);
		W_END(w);
	}
	W_END(w);
}

static void svg_defs(xmlTextWriterPtr w)
{
	W_START(w, "defs");
	W_START(w, "linearGradient");
	W_STR(w, "id", "ftl-bg");
	W_STR(w, "y1", "0");
	W_STR(w, "y2", "1");
	W_STR(w, "x1", "0");
	W_STR(w, "x2", "0");
	W_START(w, "stop");
	W_STR(w, "stop-color", "#eeeeee");
	W_STR(w, "offset", "5%");
	W_END(w);
	W_START(w, "stop");
	W_STR(w, "stop-color", "#eeeeb0");
	W_STR(w, "offset", "95%");
	W_END(w);
	W_END(w);
	W_START(w, "pattern");
	W_STR(w, "id", "ftl-hatch");
	W_STR(w, "patternUnits", "userSpaceOnUse");
	W_STR(w, "width", "4");
	W_STR(w, "height", "4");
	W_STR(w, "patternTransform", "rotate(45)");
	W_START(w, "rect");
	W_STR(w, "width", "4");
	W_STR(w, "height", "4");
	W_STR(w, "fill", "rgb(245,245,245)");
	W_END(w);
	W_START(w, "path");
	W_STR(w, "d", "M0,0 V4");
	W_STR(w, "stroke", "rgb(110,110,110)");
	W_STR(w, "stroke-width", "2");
	W_END(w);
	W_END(w);
	W_END(w);
}

/* text (escaped) with its middle cut to fit chars characters: the ends
 * of a path and its note are what tell two inputs apart. */
static char *svg_cut_middle(const char *text, glong fit)
{
	glong len = g_utf8_strlen(text, -1);
	if (len <= fit)
		return g_strdup(text);
	glong head = (fit - 1) / 2, tail = fit - 1 - head;
	g_autofree char *a = g_utf8_substring(text, 0, head);
	g_autofree char *b = g_utf8_substring(text, len - tail, len);
	return g_strconcat(a, "\u2026", b, NULL);
}

/* The subtitle in lines that fit avail px: split where it lists its parts
 * ("; ": the differential graph's inputs, notes), a part still too long
 * cut in its middle, SVG_SUB_MAX lines at most; L->top makes room for
 * them. One long line ran past the picture's edges. */
static void svg_subtitle_layout(SvgLayout *L, const char *text, double avail)
{
	L->sub = g_ptr_array_new_with_free_func(g_free);
	L->top = SVG_TOP;
	if (!text || !*text)
		return;
	g_autofree char *safe = ftl_escape_markup(text, -1);
	glong fit = MAX((glong)(avail / (SVG_FONT * SVG_FONTW)), 8);
	g_auto(GStrv) parts = g_strsplit(safe, "; ", -1);
	g_autoptr(GString) line = g_string_new(NULL);
	for (char **p = parts; *p; p++) {
		gboolean last = L->sub->len == SVG_SUB_MAX - 1;
		if (line->len &&
		    (last || g_utf8_strlen(line->str, -1) + 2 + g_utf8_strlen(*p, -1) <= fit)) {
			g_string_append(line, "; ");
			g_string_append(line, *p);
			continue;
		}
		if (line->len)
			g_ptr_array_add(L->sub, g_strdup(line->str));
		g_string_assign(line, *p);
	}
	g_ptr_array_add(L->sub, g_strdup(line->str));
	for (guint i = 0; i < L->sub->len; i++) {
		char *cut = svg_cut_middle(g_ptr_array_index(L->sub, i), fit);
		L->sub_cut |= strcmp(cut, g_ptr_array_index(L->sub, i)) != 0;
		g_free(g_ptr_array_index(L->sub, i));
		g_ptr_array_index(L->sub, i) = cut;
	}
	L->top += (L->sub->len - 1) * SVG_SUB_LINE;
}

static void svg_subtitle(xmlTextWriterPtr w, const SvgLayout *L, double width)
{
	W_START(w, "text");
	W_STR(w, "id", "subtitle");
	ftl_svg_attr_num(w, "x", width / 2, 1);
	ftl_svg_attr_num(w, "y", 24 + SVG_FONT + 6, 1);
	if (L->sub->len == 1) {
		/* one line: the element's own text, as it always was */
		xmlTextWriterWriteString(w, BAD_CAST g_ptr_array_index(L->sub, 0));
	} else {
		for (guint i = 0; i < L->sub->len; i++) {
			W_START(w, "tspan");
			ftl_svg_attr_num(w, "x", width / 2, 1);
			if (i)
				ftl_svg_attr_num(w, "dy", SVG_SUB_LINE, 1);
			xmlTextWriterWriteString(w, BAD_CAST g_ptr_array_index(L->sub, i));
			W_END(w);
		}
	}
	if (L->sub_cut) {
		W_START(w, "title");
		ftl_svg_text(w, L->opt->subtitle);
		W_END(w);
	}
	W_END(w);
}

/* The inputs' names in the bottom right corner (10 px, right-aligned):
 * cut in the middle to the picture's width, whole on hover. Two long paths
 * of a differential graph ran off its left edge. */
static void svg_input_label(xmlTextWriterPtr w, const char *text, double width, double y)
{
	g_autofree char *safe = ftl_escape_markup(text, -1);
	glong fit = MAX((glong)((width - 2 * SVG_XPAD) / (SVG_INPUT_FONT * SVG_FONTW)), 8);
	g_autofree char *cut = svg_cut_middle(safe, fit);
	W_START(w, "text");
	W_STR(w, "id", "input");
	ftl_svg_attr_num(w, "x", width - SVG_XPAD, 1);
	ftl_svg_attr_num(w, "y", y, 1);
	xmlTextWriterWriteString(w, BAD_CAST cut);
	if (strcmp(cut, safe) != 0) {
		W_START(w, "title");
		ftl_svg_text(w, text);
		W_END(w);
	}
	W_END(w);
}

static gboolean svg_head(xmlTextWriterPtr w, SvgLayout *L, double width, GError **error)
{
	const FtlFlameSvgOptions *opt = L->opt;
	W_START(w, "svg");
	W_STR(w, "version", "1.1");
	W_STR(w, "xmlns", "http://www.w3.org/2000/svg");
	W_FMT(w, "width", "%.0f", width);
	W_FMT(w, "height", "%.0f", L->height);
	W_FMT(w, "viewBox", "0 0 %.0f %.0f", width, L->height);
	W_STR(w, "onload", "ftlInit(evt)");
	svg_defs(w);
	if (!ftl_svg_write_assets(w, TRUE, error))
		return FALSE;
	W_START(w, "rect");
	W_STR(w, "x", "0");
	W_STR(w, "y", "0");
	W_STR(w, "width", "100%");
	W_STR(w, "height", "100%");
	W_STR(w, "fill", "url(#ftl-bg)");
	W_END(w);
	ftl_svg_label(w, "title", NULL, width / 2, 24,
		  opt->title ? opt->title
		  : opt->diff ? "Differential Flame Graph"
		  : L->chart ? "Flame Chart"
		  : opt->inverted ? "Icicle Graph"
				  : "Flame Graph");
	svg_subtitle(w, L, width);
	ftl_svg_label(w, "details", NULL, SVG_XPAD, L->height - 17, " ");
	ftl_svg_label(w, "unzoom", "hide", SVG_XPAD, 24, "Reset Zoom");
	ftl_svg_label(w, "search", NULL, width - SVG_XPAD - 100, 24, "Search");
	ftl_svg_label(w, "ignorecase", NULL, width - SVG_XPAD - 16, 24, "ic");
	ftl_svg_label(w, "matched", NULL, width - SVG_XPAD - 140, L->height - 17, " ");
	if (opt->input_label)
		svg_input_label(w, opt->input_label, width, L->height - 3);
	return TRUE;
}

/* ---- --color-by: the groups and their legend ------------------------------ */

#define SVG_LEGEND_MAX 24 /* groups named in the legend; the rest counted */

static gint svg_group_cmp(gconstpointer pa, gconstpointer pb)
{
	const SvgGroup *a = pa, *b = pb;
	if (a->self != b->self)
		return a->self > b->self ? -1 : 1;
	return strcmp(a->name, b->name);
}

static void svg_legend_text(const SvgGroup *g, gint64 all, char *buf, gsize size)
{
	g_autofree char *vis = ftl_escape_markup(g->name, -1);
	g_snprintf(buf, size, "%s %.1f%%", vis, svg_pct(g->self, all));
}

/* Each box's group, looked up here, before the frames are written (by two
 * threads: the map is not theirs to share); the legend's groups by their
 * frames' own weight, laid out in rows under the title. */
static void svg_groups(SvgLayout *L, double width)
{
	L->box_group = g_new0(const char *, L->boxes->len + 1);
	L->legend = g_array_new(FALSE, TRUE, sizeof(SvgGroup));
	g_autoptr(GHashTable) at = g_hash_table_new(g_str_hash, g_str_equal);
	for (guint i = 0; i < L->boxes->len; i++) {
		const SvgBox *b = &g_array_index(L->boxes, SvgBox, i);
		if (!b->node || b->kind != FTL_FLAME_FRAME || (b->flags & BOX_VANISHED))
			continue;
		const char *g = ftl_source_map_group(L->opt->color_by, b->node->name);
		L->box_group[i] = g;
		gpointer k = g_hash_table_lookup(at, g);
		if (!k) {
			SvgGroup ng = { .name = g };
			svg_group_color(g, ng.fill, sizeof ng.fill);
			g_array_append_val(L->legend, ng);
			k = GUINT_TO_POINTER(L->legend->len);
			g_hash_table_insert(at, (gpointer)g, k);
		}
		SvgGroup *sg = &g_array_index(L->legend, SvgGroup, GPOINTER_TO_UINT(k) - 1);
		sg->self = ftl_sat_add_i64(sg->self, MAX(b->node->self, 0));
	}
	g_array_sort(L->legend, svg_group_cmp);
	double x = SVG_XPAD, y = L->top + SVG_SUB_LINE / 2;
	L->legend_y = y;
	char text[160];
	for (guint i = 0; i < L->legend->len && i <= SVG_LEGEND_MAX; i++) {
		SvgGroup *g = &g_array_index(L->legend, SvgGroup, i);
		if (i == SVG_LEGEND_MAX)
			g_snprintf(text, sizeof text, "and %u more", L->legend->len - i);
		else
			svg_legend_text(g, L->f ? ftl_flame_root(L->f)->value : 0, text, sizeof text);
		double w = 18 + (double)g_utf8_strlen(text, -1) * SVG_INPUT_FONT * SVG_FONTW + 12;
		if (x > SVG_XPAD && x + w > width - SVG_XPAD) {
			x = SVG_XPAD;
			y += SVG_SUB_LINE;
		}
		g->x = x;
		g->y = y;
		x += w;
	}
	if (L->legend->len)
		L->top = y + SVG_SUB_LINE + 4;
}

static void svg_legend(xmlTextWriterPtr w, const SvgLayout *L, gint64 all)
{
	if (!L->legend || !L->legend->len)
		return;
	W_START(w, "g");
	W_STR(w, "id", "legend");
	char text[160], amount[48];
	for (guint i = 0; i < L->legend->len && i <= SVG_LEGEND_MAX; i++) {
		const SvgGroup *g = &g_array_index(L->legend, SvgGroup, i);
		W_START(w, "g");
		W_STR(w, "class", "group");
		if (i == SVG_LEGEND_MAX) {
			g_snprintf(text, sizeof text, "and %u more", L->legend->len - i);
		} else {
			svg_legend_text(g, all, text, sizeof text);
			W_START(w, "title");
			g_autofree char *vis = ftl_escape_markup(g->name, -1);
			svg_amount(L, g->self, amount, sizeof amount);
			g_autofree char *tip = g_strdup_printf("%s: %s of its own (%.2f%%)", vis,
							       amount, svg_pct(g->self, all));
			xmlTextWriterWriteString(w, BAD_CAST tip);
			W_END(w);
			W_START(w, "rect");
			ftl_svg_attr_num(w, "x", g->x, 1);
			ftl_svg_attr_num(w, "y", g->y, 1);
			ftl_svg_attr_num(w, "width", 12, 0);
			ftl_svg_attr_num(w, "height", 12, 0);
			W_STR(w, "fill", g->fill);
			W_STR(w, "stroke", "rgb(120,120,120)");
			W_STR(w, "stroke-width", "0.5");
			W_END(w);
		}
		W_START(w, "text");
		ftl_svg_attr_num(w, "x", g->x + (i == SVG_LEGEND_MAX ? 0 : 16), 1);
		ftl_svg_attr_num(w, "y", g->y + 10, 1);
		W_STR(w, "font-size", "10");
		xmlTextWriterWriteString(w, BAD_CAST text);
		W_END(w);
		W_END(w);
	}
	W_END(w);
}

/* Frames are written by two writers when there are many: the second half
 * by a thread into memory, as a fragment the document's writer then copies
 * in. libxml2's writer spends some 15 us a frame (14 attributes, a title);
 * the frames are independent and the two halves equal. */
#define SVG_SPLIT_FRAMES 2048

typedef struct {
	const SvgLayout *L;
	guint from, to;
	gint64 all, max_abs;
	xmlBufferPtr buf; /* the fragment; NULL when its writer failed */
} SvgPart;

static void svg_frames(xmlTextWriterPtr w, const SvgLayout *L, guint from, guint to, gint64 all,
		       gint64 max_abs)
{
	g_autoptr(GString) scratch = g_string_new(NULL);
	for (guint i = from; i < to; i++)
		svg_frame(w, L, &g_array_index(L->boxes, SvgBox, i), all, max_abs, scratch);
}

static gpointer svg_part_thread(gpointer data)
{
	SvgPart *part = data;
	xmlBufferPtr buf = xmlBufferCreate();
	xmlTextWriterPtr w = buf ? xmlNewTextWriterMemory(buf, 0) : NULL;
	if (!w) {
		if (buf)
			xmlBufferFree(buf);
		return NULL;
	}
	svg_frames(w, part->L, part->from, part->to, part->all, part->max_abs);
	int rc = xmlTextWriterFlush(w);
	xmlFreeTextWriter(w);
	if (rc < 0)
		xmlBufferFree(buf);
	else
		part->buf = buf;
	return NULL;
}

/* Every box, in order; FALSE when a writer failed. */
static gboolean svg_all_frames(xmlTextWriterPtr w, const SvgLayout *L, gint64 all, gint64 max_abs)
{
	guint n = L->boxes->len;
	if (n < SVG_SPLIT_FRAMES) {
		svg_frames(w, L, 0, n, all, max_abs);
		return TRUE;
	}
	SvgPart part = { L, n / 2, n, all, max_abs, NULL };
	GThread *t = g_thread_new("ftlens-svg", svg_part_thread, &part);
	svg_frames(w, L, 0, n / 2, all, max_abs);
	g_thread_join(t);
	if (!part.buf)
		return FALSE;
	int rc = xmlTextWriterWriteRawLen(w, xmlBufferContent(part.buf), xmlBufferLength(part.buf));
	xmlBufferFree(part.buf);
	return rc >= 0;
}

static void svg_layout_clear(SvgLayout *L)
{
	g_array_unref(L->boxes);
	g_array_unref(L->lane_levels);
	g_ptr_array_unref(L->sub);
	g_free(L->box_group);
	if (L->legend)
		g_array_unref(L->legend);
}

/* long: one document, head to tail, in the order the format wants it */
gboolean ftl_flame_svg_write(FtlFlame *f, const FtlFlameSvgOptions *opt, FILE *out,
			     FtlFlameSvgStats *stats, GError **error)
{
	FtlFlameNode *root = ftl_flame_root(f);
	double width = opt->width ? opt->width : SVG_DEFAULTW;
	SvgLayout L = { .opt = opt, .f = f, .chart = ftl_flame_is_chart(f) };
	L.hl = opt->highlight;
	L.boxes = g_array_new(FALSE, FALSE, sizeof(SvgBox));
	L.lane_levels = g_array_new(FALSE, TRUE, sizeof(guint));
	L.max_frames = opt->max_frames ? opt->max_frames : 12000;
	/* a chart's width is its time span; a flame graph's the root's weight */
	gint64 span = ftl_flame_span(f, &L.t0);
	L.total = MAX(L.chart ? span : root->value, 1);
	double minpx = opt->minwidth_px >= 0 ? opt->minwidth_px : 0.1;
	double avail = width - 2 * SVG_XPAD;
	svg_subtitle_layout(&L, opt->subtitle, avail);
	gint64 thr = opt->minwidth_pct > 0 ? (gint64)ceil((double)L.total * opt->minwidth_pct / 100)
					   : (gint64)ceil((double)L.total * minpx / avail);
	if (!L.chart)
		thr = MAX(thr, 1); /* a frame of no weight is never drawn */
	svg_layout(&L, thr);
	if (opt->color_by && !opt->diff)
		svg_groups(&L, width);
	L.scale = avail / (double)L.total;
	L.st.minwidth_px = (double)L.thr * L.scale;
	if (L.chart) {
		L.height = svg_lane_y(&L, L.lane_levels->len) + SVG_BOTTOM;
	} else {
		L.height = (L.max_level + 1) * SVG_FH + L.top + SVG_BOTTOM;
	}
	gint64 all = root->value;
	gint64 max_abs = 0;
	for (guint i = 0; opt->diff && i < L.boxes->len; i++) {
		const SvgBox *b = &g_array_index(L.boxes, SvgBox, i);
		if (b->kind != FTL_FLAME_ROOT && !(b->flags & BOX_VANISHED))
			max_abs = MAX(max_abs, ABS(b->n - b->a));
	}
	g_autoptr(FtlSvgWriter) sw = ftl_svg_writer_new(out, error);
	if (!sw || !svg_head(sw->w, &L, width, error)) {
		svg_layout_clear(&L);
		return FALSE;
	}
	xmlTextWriterPtr w = sw->w;
	svg_legend(w, &L, all);
	if (L.chart) {
		svg_axis(w, &L);
		svg_marks(w, &L);
	}
	W_START(w, "g");
	W_STR(w, "id", "frames");
	W_FMT(w, "total", "%" G_GINT64_FORMAT, all);
	W_FMT(w, "span", "%" G_GINT64_FORMAT, L.total);
	W_FMT(w, "xpad", "%.0f", SVG_XPAD);
	W_FMT(w, "minpx", "%.2f", minpx);
	W_STR(w, "unit", ftl_flame_unit(f) == FTL_FLAME_UNIT_NS ? "ns" : "samples");
	W_STR(w, "mode", L.chart ? "chart" : opt->diff ? "diff" : opt->inverted ? "icicle" : "flame");
	gboolean framed = svg_all_frames(w, &L, all, max_abs);
	W_END(w);
	W_END(w);
	gboolean ok = ftl_svg_writer_end(sw, error);
	if (ok && !framed) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "writing the SVG failed");
		ok = FALSE;
	}
	L.st.frames = L.boxes->len;
	L.st.bytes = sw->bytes;
	if (stats)
		*stats = L.st;
	svg_layout_clear(&L);
	return ok;
}
