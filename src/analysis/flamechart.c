/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flame charts from the call tree's finished calls: children gathered per
 * task and stack level until their caller returns, narrow calls summed into
 * runs on the fly. */
#include "analysis/flamechart.h"

#include <string.h>

#include "model/event.h"
#include "util/checked.h"

typedef struct {
	GPtrArray *levels; /* GPtrArray* of FtlFlameNode* per stack level: finished children */
	gint focus_level;  /* level of the focus call running now, -1 outside */
} ChartCtx;

typedef struct {
	FtlFlameNode *lane; /* group node */
	GPtrArray *items;   /* FtlFlameNode* top-level calls, in order */
} ChartLane;

struct _FtlFlameChart {
	FtlFlameChartOptions opt;
	FtlCallTree *calls;
	FtlFlame *tree;
	GHashTable *ctxs;  /* gint64 key -> ChartCtx* */
	GHashTable *lanes; /* gint64 key -> ChartLane* */
	GPtrArray *lane_order;
	GHashTable *comms; /* pid -> interned comm (borrowed from the trace) */
	GArray *marks;	   /* FtlFlameChartMark */
	guint64 marks_dropped, lost, lost_lines, n_calls;
	gint64 tmin, tmax;
	gint64 thr; /* narrower than this is summed now: it will be at the end */
	gboolean untimed;
	GString *scratch;
};

static void chart_ctx_free(gpointer p)
{
	ChartCtx *c = p;
	g_ptr_array_unref(c->levels);
	g_free(c);
}

static void chart_lane_free(gpointer p)
{
	ChartLane *l = p;
	g_ptr_array_unref(l->items);
	g_free(l);
}

static void chart_on_enter(const FtlCall *call, gpointer data);
static void chart_on_call(const FtlCall *call, gpointer data);
static void chart_on_dissolve(const FtlCall *call, gpointer data);

FtlFlameChart *ftl_flamechart_new(const FtlFlameChartOptions *opt)
{
	FtlFlameChart *c = g_new0(FtlFlameChart, 1);
	c->opt = *opt;
	if (!c->opt.max_marks)
		c->opt.max_marks = 2000;
	c->calls = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, opt->diags);
	ftl_calltree_set_no_tree(c->calls);
	ftl_calltree_set_irq_frames(c->calls);
	ftl_calltree_add_on_enter(c->calls, chart_on_enter, c);
	ftl_calltree_add_on_call(c->calls, chart_on_call, c);
	ftl_calltree_add_on_dissolve(c->calls, chart_on_dissolve, c);
	c->tree = ftl_flame_new(FTL_FLAME_UNIT_NS);
	ftl_flame_set_chart(c->tree);
	c->ctxs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, chart_ctx_free);
	c->lanes = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, chart_lane_free);
	c->lane_order = g_ptr_array_new();
	c->comms = g_hash_table_new(g_direct_hash, g_direct_equal);
	c->marks = g_array_new(FALSE, FALSE, sizeof(FtlFlameChartMark));
	c->tmin = G_MAXINT64;
	c->tmax = G_MININT64;
	c->scratch = g_string_new(NULL);
	return c;
}

void ftl_flamechart_free(FtlFlameChart *c)
{
	if (!c)
		return;
	ftl_calltree_free(c->calls);
	ftl_flame_free(c->tree);
	g_hash_table_destroy(c->ctxs);
	g_hash_table_destroy(c->lanes);
	g_ptr_array_unref(c->lane_order);
	g_hash_table_destroy(c->comms);
	for (guint i = 0; i < c->marks->len; i++)
		g_free(g_array_index(c->marks, FtlFlameChartMark, i).text);
	g_array_unref(c->marks);
	g_string_free(c->scratch, TRUE);
	g_free(c);
}

/* The call tree's own key: a task, or a CPU for pid 0 and unknown pids. */
static ChartCtx *chart_ctx(FtlFlameChart *c, const FtlCall *call)
{
	gint64 key = ftl_calltree_task_key(call->pid, call->cpu);
	ChartCtx *x = g_hash_table_lookup(c->ctxs, &key);
	if (!x) {
		x = g_new0(ChartCtx, 1);
		x->levels = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
		x->focus_level = -1;
		gint64 *k = g_new(gint64, 1);
		*k = key;
		g_hash_table_insert(c->ctxs, k, x);
	}
	return x;
}

static GPtrArray *chart_level(ChartCtx *x, gint level)
{
	while ((gint)x->levels->len <= level)
		g_ptr_array_add(x->levels, g_ptr_array_new());
	return g_ptr_array_index(x->levels, level);
}

static ChartLane *chart_lane(FtlFlameChart *c, const FtlCall *call)
{
	gboolean per_cpu = c->opt.lanes == FTL_CALLTREE_GROUP_CPU;
	gint64 key = per_cpu ? call->cpu : ftl_calltree_task_key(call->pid, call->cpu);
	ChartLane *l = g_hash_table_lookup(c->lanes, &key);
	if (l)
		return l;
	g_string_truncate(c->scratch, 0);
	if (per_cpu) {
		g_string_printf(c->scratch, "CPU %d", call->cpu);
	} else if (call->pid > 0) {
		const char *comm = g_hash_table_lookup(c->comms, GINT_TO_POINTER(call->pid));
		g_string_printf(c->scratch, "%s-%d", comm ? comm : "<...>", call->pid);
	} else {
		g_string_printf(c->scratch, "%s (CPU %d)", call->pid == 0 ? "<idle>-0" : "<...>",
				call->cpu);
	}
	l = g_new0(ChartLane, 1);
	l->lane = ftl_flame_node_new(c->tree, c->scratch->str, (gssize)c->scratch->len,
				     FTL_FLAME_GROUP);
	l->items = g_ptr_array_new();
	gint64 *k = g_new(gint64, 1);
	*k = key;
	g_hash_table_insert(c->lanes, k, l);
	g_ptr_array_add(c->lane_order, l);
	return l;
}

static void chart_on_enter(const FtlCall *call, gpointer data)
{
	FtlFlameChart *c = data;
	if (!c->opt.function || call->func != c->opt.function)
		return;
	ChartCtx *x = chart_ctx(c, call);
	if (x->focus_level < 0)
		x->focus_level = call->level;
}

/* Adds a narrow call to the run at the end of list (or starts one). */
static void chart_run(FtlFlameChart *c, GPtrArray *list, gint64 start, gint64 span, gint depth)
{
	FtlFlameNode *last = list->len ? g_ptr_array_index(list, list->len - 1) : NULL;
	if (last && last->kind == FTL_FLAME_MERGED) {
		last->value += span;
		last->calls++;
		return;
	}
	FtlFlameNode *n = ftl_flame_node_new(c->tree, "[smaller calls]", -1, FTL_FLAME_MERGED);
	n->start = start;
	n->value = span;
	n->calls = 1;
	n->depth = (guint)MAX(depth, 0);
	g_ptr_array_add(list, n);
}

/* The level of call in the chart (0: a lane's top), -1 outside the focus. */
static gint chart_call_level(FtlFlameChart *c, ChartCtx *x, const FtlCall *call)
{
	gint level = call->level;
	if (!c->opt.function)
		return level;
	if (x->focus_level < 0 || level < x->focus_level)
		return -1;
	level -= x->focus_level;
	if (level == 0)
		x->focus_level = -1;
	return level;
}

/* A call the tree inferred ended without exit: what it called is its
 * caller's. */
static void chart_on_dissolve(const FtlCall *call, gpointer data)
{
	FtlFlameChart *c = data;
	ChartCtx *x = chart_ctx(c, call);
	gint level = chart_call_level(c, x, call);
	if (level < 0)
		return;
	GPtrArray *below = chart_level(x, level + 1);
	GPtrArray *list = level == 0 ? chart_lane(c, call)->items : chart_level(x, level);
	for (guint i = 0; i < below->len; i++)
		g_ptr_array_add(list, g_ptr_array_index(below, i));
	g_ptr_array_set_size(below, 0);
}

/* long: one finished call placed, with the repairs it may need */
static void chart_on_call(const FtlCall *call, gpointer data)
{
	FtlFlameChart *c = data;
	ChartCtx *x = chart_ctx(c, call);
	gint level = chart_call_level(c, x, call);
	if (level < 0)
		return;
	c->n_calls++;
	gint64 span = MAX(call->span, 0);
	gint64 start = call->entry_ts;
	if (start == FTL_TS_NONE)
		c->untimed = TRUE;
	else {
		c->tmin = MIN(c->tmin, start);
		c->tmax = MAX(c->tmax, ftl_sat_add_i64(start, span));
		c->thr = (gint64)((double)ftl_sat_sub_i64(c->tmax, c->tmin) *
				  c->opt.min_fraction);
	}
	g_autoptr(GPtrArray) kids = g_ptr_array_new();
	GPtrArray *below = chart_level(x, level + 1);
	for (guint i = 0; i < below->len; i++)
		g_ptr_array_add(kids, g_ptr_array_index(below, i));
	g_ptr_array_set_size(below, 0);
	GPtrArray *list = level == 0 ? chart_lane(c, call)->items : chart_level(x, level);
	gboolean wide = FALSE;
	for (guint i = 0; i < kids->len && !wide; i++)
		wide = ((FtlFlameNode *)g_ptr_array_index(kids, i))->kind != FTL_FLAME_MERGED;
	if (span < c->thr && !wide && !(call->flags & FTL_CALL_F_OPEN)) {
		chart_run(c, list, start, span, call->depth);
		return;
	}
	FtlFlameNode *n = ftl_flame_node_new(
		c->tree, call->func, -1, call->flags & FTL_CALL_F_IRQ ? FTL_FLAME_IRQ : FTL_FLAME_FRAME);
	n->start = start;
	n->value = span;
	n->calls = 1;
	n->n_open = (call->flags & FTL_CALL_F_OPEN) != 0;
	n->n_orphan = (call->flags & FTL_CALL_F_ORPHAN) != 0;
	n->depth = (guint)MAX(call->depth, 0); /* the printed depth until finish */
	ftl_flame_node_set_children(n, (FtlFlameNode *const *)kids->pdata, kids->len);
	if (!c->untimed && call->flags & FTL_CALL_F_OPEN && kids->len) {
		/* a call without exit lasts at least until its last child ended */
		FtlFlameNode *last = g_ptr_array_index(kids, kids->len - 1);
		if (n->start != FTL_TS_NONE && last->start != FTL_TS_NONE)
			n->value = MAX(n->value,
					       ftl_sat_sub_i64(ftl_sat_add_i64(last->start, last->value),
							       n->start));
	}
	g_ptr_array_add(list, n);
}

static void chart_mark(FtlFlameChart *c, gint64 ts, const char *text, gsize len, gboolean lost)
{
	if (c->marks->len >= c->opt.max_marks) {
		c->marks_dropped++;
		return;
	}
	FtlFlameChartMark m = { ts, g_strndup(text, len), lost };
	g_array_append_val(c->marks, m);
}

void ftl_flamechart_feed(FtlFlameChart *c, const FtlEvent *ev)
{
	if (ev->kind == FTL_EVENT_LOST) {
		c->lost = ftl_sat_add_u64(c->lost, ev->u.lost.count);
		c->lost_lines++;
		char buf[96];
		g_snprintf(buf, sizeof buf, "CPU %d: LOST %" G_GUINT64_FORMAT " events", ev->cpu,
			   ev->u.lost.count);
		chart_mark(c, ev->ts, buf, strlen(buf), TRUE);
	}
	if (c->opt.spans) {
		ftl_spans_feed(c->opt.spans, ev);
		if (!ftl_spans_n_open(c->opt.spans) && ev->kind != FTL_EVENT_MARKER)
			return;
	}
	if (ev->kind == FTL_EVENT_MARKER)
		chart_mark(c, ev->ts, ev->u.marker.text.p ? ev->u.marker.text.p : "",
			   ev->u.marker.text.len, FALSE);
	else if ((ev->kind == FTL_EVENT_FUNC_ENTRY || ev->kind == FTL_EVENT_FUNC_EXIT) &&
		 ev->pid > 0 && ev->comm)
		g_hash_table_insert(c->comms, GINT_TO_POINTER(ev->pid), (gpointer)ev->comm);
	if (c->opt.spans && !ftl_spans_n_open(c->opt.spans))
		return;
	ftl_calltree_feed(c->calls, ev);
}

/* Calls without timestamps are laid end to end from their caller's start:
 * top is placed at at (when it has no start), each child after the end of
 * its elder sibling; returns where top's subtree ends. A walk over the
 * parent links, not a recursion: the depth is the input's. */
static gint64 chart_place(FtlFlameNode *top, gint64 at)
{
	FtlFlameNode *n = top;
	gint64 cur = at;
	for (;;) {
		if (n->start == FTL_TS_NONE)
			n->start = cur;
		if (n->child) {
			cur = n->start;
			n = n->child;
			continue;
		}
		/* n's subtree is placed: climb until a sibling is left */
		gint64 end = MAX(ftl_sat_add_i64(n->start, n->value), n->start);
		for (;;) {
			if (n == top)
				return end;
			if (n->next) {
				n = n->next;
				cur = end;
				break;
			}
			n = n->parent;
			end = MAX(ftl_sat_add_i64(n->start, n->value), end);
		}
	}
}

void ftl_flamechart_finish(FtlFlameChart *c)
{
	ftl_calltree_finish(c->calls);
	if (c->opt.spans)
		ftl_spans_finish(c->opt.spans);
	FtlFlameNode *root = ftl_flame_root(c->tree);
	g_autoptr(GPtrArray) lanes = g_ptr_array_new();
	gint64 t0 = c->untimed ? 0 : c->tmin, t1 = c->untimed ? 0 : c->tmax;
	for (guint i = 0; i < c->lane_order->len; i++) {
		ChartLane *l = g_ptr_array_index(c->lane_order, i);
		gint64 cur = t0;
		for (guint k = 0; k < l->items->len; k++)
			cur = chart_place(g_ptr_array_index(l->items, k), cur);
		t1 = MAX(t1, cur);
		ftl_flame_node_set_children(l->lane, (FtlFlameNode *const *)l->items->pdata,
					    l->items->len);
		l->lane->start = t0;
		g_ptr_array_add(lanes, l->lane);
	}
	if (t0 > t1)
		t0 = t1 = 0;
	ftl_flame_node_set_children(root, (FtlFlameNode *const *)lanes->pdata, lanes->len);
	ftl_flame_finish(c->tree);
	ftl_flame_set_span(c->tree, t0, ftl_sat_sub_i64(t1, t0));
}

FtlFlame *ftl_flamechart_tree(FtlFlameChart *c)
{
	return c->tree;
}

gboolean ftl_flamechart_timed(const FtlFlameChart *c)
{
	return !c->untimed;
}

guint ftl_flamechart_n_marks(const FtlFlameChart *c)
{
	return c->marks->len;
}

const FtlFlameChartMark *ftl_flamechart_mark(const FtlFlameChart *c, guint i)
{
	return &g_array_index(c->marks, FtlFlameChartMark, i);
}

guint64 ftl_flamechart_marks_dropped(const FtlFlameChart *c)
{
	return c->marks_dropped;
}

guint64 ftl_flamechart_lost(const FtlFlameChart *c, guint64 *lines)
{
	if (lines)
		*lines = c->lost_lines;
	return c->lost;
}

guint64 ftl_flamechart_n_calls(const FtlFlameChart *c)
{
	return c->n_calls;
}

FTL_CONSUMER_DEFINE(flamechart, FtlFlameChart);
