/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call-tree reconstruction and its repairs, fed by built event streams. */
#include "config.h"

#include "analysis/calltree.h"
#define FTL_CALLTREE_FEED_HELPERS
#include "evbuild.h"
#include "unit.h"

#define NONE FTL_TS_NONE

typedef struct {
	GPtrArray *calls; /* FtlCall copies in completion order */
} Seen;

static void seen_call(const FtlCall *call, gpointer data)
{
	Seen *s = data;
	g_ptr_array_add(s->calls, g_memdup2(call, sizeof *call));
}

static const FtlCallNode *child(const FtlCallNode *n, const char *func)
{
	for (const FtlCallNode *c = n->child; c; c = c->next)
		if (g_strcmp0(c->func, func) == 0)
			return c;
	return NULL;
}

static guint n_children(const FtlCallNode *n)
{
	guint k = 0;
	for (const FtlCallNode *c = n->child; c; c = c->next)
		k++;
	return k;
}

static void test_basic_tree(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	Seen seen = { g_ptr_array_new_with_free_func(g_free) };
	ftl_calltree_add_on_call(t, seen_call, &seen);
	feed(t, evb_entry(100, 0, 10, "A", 0));
	feed(t, evb_entry(110, 0, 10, "B", 1));
	feed_leaf(t, 120, 0, 10, "C", 2, 5);
	feed(t, evb_exit(140, 0, 10, NULL, 1, 30));
	feed(t, evb_exit(200, 0, 10, NULL, 0, 100));
	ftl_calltree_finish(t);
	const FtlCallNode *a = child(ftl_calltree_root(t), "A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->calls, 1);
	CU_ASSERT_EQUAL(a->total_ns, 100);
	CU_ASSERT_EQUAL(a->self_ns, 70);
	const FtlCallNode *b = child(a, "B");
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	CU_ASSERT_EQUAL(b->total_ns, 30);
	CU_ASSERT_EQUAL(b->self_ns, 25);
	const FtlCallNode *c = child(b, "C");
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_EQUAL(c->self_ns, 5);
	CU_ASSERT_EQUAL(seen.calls->len, 3);
	CU_ASSERT_STRING_EQUAL(((FtlCall *)seen.calls->pdata[0])->func, "C");
	CU_ASSERT_STRING_EQUAL(((FtlCall *)seen.calls->pdata[2])->func, "A");
	CU_ASSERT_EQUAL(((FtlCall *)seen.calls->pdata[2])->entry_ts, 100);
	CU_ASSERT_EQUAL(ftl_calltree_n_repaired(t), 0);
	CU_ASSERT(!ftl_diags_any(d));
	g_ptr_array_unref(seen.calls);
}

static void test_merge_by_path(void)
{
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	for (int i = 0; i < 3; i++) {
		feed(t, evb_entry(NONE, 0, 10, "A", 0));
		feed_leaf(t, NONE, 0, 10, "C", 1, 2 + i);
		feed(t, evb_exit(NONE, 0, 10, NULL, 0, 10));
	}
	feed(t, evb_entry(NONE, 1, 11, "B", 0));
	feed_leaf(t, NONE, 1, 11, "C", 1, 7);
	feed(t, evb_exit(NONE, 1, 11, NULL, 0, 9));
	ftl_calltree_finish(t);
	const FtlCallNode *root = ftl_calltree_root(t);
	CU_ASSERT_EQUAL(n_children(root), 2);
	/* sorted by total: A (30) before B (9) */
	CU_ASSERT_STRING_EQUAL(root->child->func, "A");
	const FtlCallNode *ac = child(child(root, "A"), "C");
	CU_ASSERT_EQUAL(ac->calls, 3);
	CU_ASSERT_EQUAL(ac->total_ns, 2 + 3 + 4);
	CU_ASSERT_EQUAL(ac->min_ns, 2);
	CU_ASSERT_EQUAL(ac->max_ns, 4);
	CU_ASSERT_EQUAL(child(root, "A")->self_ns, 30 - 9);
	CU_ASSERT_EQUAL(child(child(root, "B"), "C")->total_ns, 7);
	CU_ASSERT_EQUAL(root->total_ns, 39);
}

/* A child of n named func, read through the handle functions. */
static const FtlCallNode *node_child(const FtlCallTree *t, const FtlCallNode *n, const char *func)
{
	for (const FtlCallNode *c = ftl_calltree_node_child(t, n); c;
	     c = ftl_calltree_node_next(t, c))
		if (g_strcmp0(ftl_calltree_node_func(t, c), func) == 0)
			return c;
	return NULL;
}

static guint node_n_children(const FtlCallTree *t, const FtlCallNode *n)
{
	guint k = 0;
	for (const FtlCallNode *c = ftl_calltree_node_child(t, n); c;
	     c = ftl_calltree_node_next(t, c))
		k++;
	return k;
}

static gint64 node_span(const FtlCallTree *t, const FtlCallNode *n)
{
	guint64 calls;
	gint64 span;
	ftl_calltree_node_counts(t, n, &calls, &span);
	return span;
}

/* Walks a and b from their tops: the same functions below each node (each
 * once), with the same calls, spans and repairs. FALSE at the first
 * difference; *n_nodes, *n_open and *n_orphan count what b holds. */
static gboolean trees_same(const FtlCallTree *a, const FtlCallTree *b, guint *n_nodes,
			   guint64 *n_open, guint64 *n_orphan)
{
	g_autoptr(GPtrArray) todo = g_ptr_array_new();
	g_ptr_array_add(todo, (gpointer)ftl_calltree_top(a));
	g_ptr_array_add(todo, (gpointer)ftl_calltree_top(b));
	*n_nodes = 0;
	*n_open = *n_orphan = 0;
	while (todo->len) {
		const FtlCallNode *y = g_ptr_array_steal_index(todo, todo->len - 1);
		const FtlCallNode *x = g_ptr_array_steal_index(todo, todo->len - 1);
		guint64 xc, yc, xo, xr, yo, yr;
		gint64 xs, ys;
		ftl_calltree_node_counts(a, x, &xc, &xs);
		ftl_calltree_node_counts(b, y, &yc, &ys);
		ftl_calltree_node_repairs(a, x, &xo, &xr);
		ftl_calltree_node_repairs(b, y, &yo, &yr);
		if (xc != yc || xs != ys || xo != yo || xr != yr ||
		    node_n_children(a, x) != node_n_children(b, y))
			return FALSE;
		*n_open += yo;
		*n_orphan += yr;
		(*n_nodes)++;
		for (const FtlCallNode *c = ftl_calltree_node_child(a, x); c;
		     c = ftl_calltree_node_next(a, c)) {
			const FtlCallNode *d = node_child(b, y, ftl_calltree_node_func(a, c));
			if (!d)
				return FALSE;
			g_ptr_array_add(todo, (gpointer)c);
			g_ptr_array_add(todo, (gpointer)d);
		}
	}
	return TRUE;
}

/* A lean tree has the full tree's shape, calls and spans, in its own
 * compact nodes read through the handle functions. */
static void test_lean_same_shape(void)
{
	g_autoptr(FtlCallTree) full = ftl_calltree_new(FTL_CALLTREE_GROUP_TASK, NULL);
	g_autoptr(FtlCallTree) lean = ftl_calltree_new(FTL_CALLTREE_GROUP_TASK, NULL);
	ftl_calltree_set_lean(lean);
	FtlCallTree *both[2] = { full, lean };
	for (int k = 0; k < 2; k++) {
		FtlCallTree *t = both[k];
		for (int i = 0; i < 3; i++) {
			feed(t, evb_entry(NONE, 0, 10, "A", 0));
			feed_leaf(t, NONE, 0, 10, "C", 1, 2 + i);
			feed_leaf(t, NONE, 0, 10, "D", 1, 1);
			feed(t, evb_exit(NONE, 0, 10, NULL, 0, 10));
		}
		feed(t, evb_exit(NONE, 1, 11, "B", 0, 9)); /* an orphan exit */
		feed(t, evb_entry(NONE, 1, 11, "E", 0));   /* open at the end */
		feed_leaf(t, NONE, 1, 11, "C", 1, 7);
		ftl_calltree_finish(t);
	}
	guint seen;
	guint64 opens, orphans;
	CU_ASSERT_TRUE(trees_same(full, lean, &seen, &opens, &orphans));
	CU_ASSERT_EQUAL(seen, 1 + 2 + 3 + 3); /* root, tasks, A B E, A/C A/D E/C */
	CU_ASSERT_EQUAL(opens, 1);	      /* E */
	CU_ASSERT_EQUAL(orphans, 1);	      /* B */
	const FtlCallNode *top = ftl_calltree_top(lean);
	const FtlCallNode *ac = node_child(lean, node_child(lean, top, "<...>-10"), "A");
	CU_ASSERT_EQUAL(node_span(lean, node_child(lean, ac, "C")), 2 + 3 + 4);
	/* the root's copy holds its calls and span */
	CU_ASSERT_EQUAL(ftl_calltree_root(lean)->span_ns, ftl_calltree_root(full)->span_ns);
	CU_ASSERT_EQUAL(ftl_calltree_root(lean)->calls, ftl_calltree_root(full)->calls);
	CU_ASSERT_EQUAL(node_span(lean, top), ftl_calltree_root(full)->span_ns);
}

/* One random event for the trees below: well-formed calls mostly, with
 * every repair the tree makes (orphan exits, depth jumps, names that do
 * not match, open calls, lost events, interrupts), callers of more
 * functions than a scan serves, loops of more calls and spans longer than
 * a lean node packs, and nests deeper than FTL_CALLTREE_MAX_DEPTH. */
static void random_event(GRand *r, FtlCallTree *const *trees, guint n_trees, gint *depth,
			 const char *const *names, guint n_names, gboolean deep)
{
	gint32 cpu = g_rand_int_range(r, 0, 3);
	gint32 pid = g_rand_int_range(r, 0, 4); /* 0: the idle task, per CPU */
	gint *d = &depth[cpu * 4 + pid];
	const char *func = names[g_rand_int_range(r, 0, (gint32)n_names)];
	gint64 dur = g_rand_int_range(r, 0, 8) ? g_rand_int_range(r, 0, 5000)
		     : g_rand_boolean(r)       ? (gint64)g_rand_int(r) << g_rand_int_range(r, 0, 24)
					       : NONE;
	guint pick = (guint)g_rand_int_range(r, 0, 100);
	FtlEvent ev[2];
	guint n = 1;
	if (deep && pick < 40) {
		ev[0] = evb_entry(NONE, cpu, pid, func, (*d)++);
	} else if (pick < 30) {
		ev[0] = evb_entry(NONE, cpu, pid, func, (*d)++);
	} else if (pick < 60) {
		*d = MAX(*d - 1, 0);
		ev[0] = evb_exit(NONE, cpu, pid, g_rand_int_range(r, 0, 4) ? NULL : func, *d, dur);
	} else if (pick < 85) {
		evb_leaf(ev, NONE, cpu, pid, func, *d, dur);
		n = 2;
	} else if (pick < 90) {
		*d = g_rand_int_range(r, 0, deep ? 300 : 6); /* a jump, or an orphan exit */
		ev[0] = g_rand_boolean(r) ? evb_entry(NONE, cpu, pid, func, *d)
					  : evb_exit(NONE, cpu, pid, func, *d, dur);
	} else if (pick < 96) {
		ev[0] = evb_irq(NONE, cpu, pid, g_rand_boolean(r));
	} else if (pick < 98) {
		ev[0] = evb_lost(cpu, 1);
		for (guint i = 0; i < 4; i++)
			depth[cpu * 4 + i] = 0;
	} else {
		*d = 0;
		ev[0] = evb_exit(NONE, cpu, pid, NULL, 0, dur);
	}
	for (guint k = 0; k < n_trees; k++)
		for (guint i = 0; i < n; i++)
			ftl_calltree_feed(trees[k], &ev[i]);
}

/* Lean trees (16-byte nodes linked by indices, calls and spans packed until
 * they outgrow 32 bits, children in a map past FTL_PAIRMAP_SCAN, nodes
 * moved by repairs) hold what full trees hold, node for node, on random
 * event streams with every grouping, a focus or none, interrupts or none,
 * and a node budget or none. */
static void test_lean_random(void)
{
	static const char *const pool[] = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j",
					    "k", "l", "m", "n", "o", "p", "q", "r", "s", "t",
					    "u", "v", "w", "x", "y", "z", "A", "B", "C", "D" };
	const char *names[G_N_ELEMENTS(pool)];
	for (guint i = 0; i < G_N_ELEMENTS(pool); i++)
		names[i] = evb_intern(pool[i]);
	guint64 total_nodes = 0, total_open = 0, total_orphan = 0;
	for (guint32 seed = 1; seed <= 240; seed++) {
		GRand *r = g_rand_new_with_seed(seed);
		FtlCallTreeGroup group = (FtlCallTreeGroup)(seed % 3);
		/* deep streams (nests past FTL_CALLTREE_MAX_DEPTH, jumps and
		 * orphan exits that far down) on odd seeds: with a node budget
		 * (seed 13) a call below the last level once looped for ever */
		gboolean irq = seed % 5 < 3, deep = seed % 2 == 1;
		const char *focus = seed % 11 == 0 ? names[1] : NULL;
		/* few names (long sibling scans) or many (maps) */
		guint n_names = seed % 4 == 0 ? 3 : seed % 4 == 1 ? 12 : G_N_ELEMENTS(pool);
		FtlCallTree *trees[2];
		for (guint k = 0; k < 2; k++) {
			trees[k] = ftl_calltree_new(group, NULL);
			if (k)
				ftl_calltree_set_lean(trees[k]);
			if (irq)
				ftl_calltree_set_irq_frames(trees[k]);
			if (focus)
				ftl_calltree_set_focus(trees[k], focus);
			if (seed % 13 == 0)
				ftl_calltree_set_max_nodes(trees[k], 40);
		}
		gint depth[3 * 4] = { 0 };
		guint n_events = seed % 9 == 0 ? 30000 : 3000;
		for (guint i = 0; i < n_events; i++)
			random_event(r, trees, 2, depth, names, n_names, deep && i < 400);
		for (guint k = 0; k < 2; k++)
			ftl_calltree_finish(trees[k]);
		guint n_nodes;
		guint64 n_open, n_orphan;
		gboolean same = trees_same(trees[0], trees[1], &n_nodes, &n_open, &n_orphan);
		if (!same)
			g_printerr("seed %u: the lean tree differs\n", seed);
		CU_ASSERT_TRUE(same);
		CU_ASSERT_EQUAL(ftl_calltree_sound(trees[0]), ftl_calltree_sound(trees[1]));
		CU_ASSERT_EQUAL(ftl_calltree_root(trees[0])->span_ns,
				ftl_calltree_root(trees[1])->span_ns);
		total_nodes += n_nodes;
		total_open += n_open;
		total_orphan += n_orphan;
		for (guint k = 0; k < 2; k++)
			ftl_calltree_free(trees[k]);
		g_rand_free(r);
	}
	/* the streams made big trees and repairs */
	CU_ASSERT(total_nodes > 100000);
	CU_ASSERT(total_open > 1000);
	CU_ASSERT(total_orphan > 1000);
}

/* One path called more often and for longer than a lean node packs: its
 * calls and span move out of the node and stay exact, as do those of the
 * nodes around it; one nest deeper than the tree goes merges into
 * "(deeper)" as in a full tree. */
static void test_lean_big_and_deep(void)
{
	g_autoptr(FtlCallTree) full = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	g_autoptr(FtlCallTree) lean = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	ftl_calltree_set_lean(lean);
	FtlCallTree *both[2] = { full, lean };
	for (int k = 0; k < 2; k++) {
		FtlCallTree *t = both[k];
		feed(t, evb_entry(NONE, 0, 10, "A", 0));
		for (int i = 0; i < 1000; i++)
			feed_leaf(t, NONE, 0, 10, "B", 1, (gint64)1 << (i % 40));
		feed_leaf(t, NONE, 0, 10, "C", 1, 5);
		feed(t, evb_exit(NONE, 0, 10, NULL, 0, G_MAXINT64 / 2));
		for (int i = 0; i < 300; i++)
			feed(t, evb_entry(NONE, 0, 10, "D", i));
		for (int i = 300; i-- > 0;)
			feed(t, evb_exit(NONE, 0, 10, NULL, i, 1000 - i));
		ftl_calltree_finish(t);
	}
	guint n;
	guint64 o, r;
	CU_ASSERT_TRUE(trees_same(full, lean, &n, &o, &r));
	CU_ASSERT_EQUAL(n, 1 + 3 + FTL_CALLTREE_MAX_DEPTH);
	const FtlCallNode *b = node_child(lean, node_child(lean, ftl_calltree_top(lean), "A"), "B");
	guint64 calls;
	gint64 span;
	ftl_calltree_node_counts(lean, b, &calls, &span);
	CU_ASSERT_EQUAL(calls, 1000);
	gint64 want = 0;
	for (int i = 0; i < 1000; i++)
		want += (gint64)1 << (i % 40);
	CU_ASSERT_EQUAL(span, want);
	const FtlCallNode *d = ftl_calltree_top(lean);
	for (int i = 0; i < FTL_CALLTREE_MAX_DEPTH - 1; i++)
		d = node_child(lean, d, "D");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	d = node_child(lean, d, "(deeper)");
	CU_ASSERT_PTR_NOT_NULL_FATAL(d);
	ftl_calltree_node_counts(lean, d, &calls, &span);
	CU_ASSERT_EQUAL(calls, 300 - (FTL_CALLTREE_MAX_DEPTH - 1));
}

/* A caller of many functions (more than the tree scans before it looks
 * children up in its map), called in varying order: one node per callee. */
static void test_wide_callers_merge(void)
{
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	static const int order[] = { 1, 3, 7 }; /* prime to 40: each round calls all 40 */
	for (int round = 0; round < 3; round++) {
		feed(t, evb_entry(NONE, 0, 10, "A", 0));
		for (int i = 0; i < 40; i++) {
			char name[16];
			g_snprintf(name, sizeof name, "f%d", (i * order[round]) % 40);
			feed_leaf(t, NONE, 0, 10, name, 1, 1 + i);
		}
		feed(t, evb_exit(NONE, 0, 10, NULL, 0, 1000));
	}
	ftl_calltree_finish(t);
	const FtlCallNode *a = child(ftl_calltree_root(t), "A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(n_children(a), 40);
	guint64 calls = 0;
	for (const FtlCallNode *c = a->child; c; c = c->next)
		calls += c->calls;
	CU_ASSERT_EQUAL(calls, 120);
	CU_ASSERT_EQUAL(child(a, "f0")->calls, 3);
	CU_ASSERT_EQUAL(child(a, "f39")->calls, 3);
}

static void test_orphan_exits(void)
{
	/* The trace starts inside Y (depth 1) inside an unnamed depth-0 call:
	 * X, printed deeper, is Y's, and Y the unnamed call's. */
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	feed_leaf(t, NONE, 0, 10, "X", 2, 10);
	feed(t, evb_exit(NONE, 0, 10, "Y", 1, 50));
	feed(t, evb_exit(NONE, 0, 10, NULL, 0, 80));
	ftl_calltree_finish(t);
	const FtlCallNode *root = ftl_calltree_root(t);
	const FtlCallNode *u = child(root, ftl_calltree_unknown_name());
	CU_ASSERT_PTR_NOT_NULL_FATAL(u);
	const FtlCallNode *y = child(u, "Y");
	CU_ASSERT_PTR_NOT_NULL_FATAL(y);
	const FtlCallNode *x = child(y, "X");
	CU_ASSERT_PTR_NOT_NULL_FATAL(x);
	CU_ASSERT_EQUAL(n_children(root), 1);
	CU_ASSERT_EQUAL(x->total_ns, 10);
	CU_ASSERT_EQUAL(y->total_ns, 50);
	CU_ASSERT_EQUAL(y->self_ns, 40); /* X was its child */
	CU_ASSERT_EQUAL(u->self_ns, 30); /* Y was its child */
	CU_ASSERT_EQUAL(y->flagged, 1);
	CU_ASSERT_EQUAL(x->flagged, 0);
	CU_ASSERT_EQUAL(y->span_ns, 50);
	CU_ASSERT_EQUAL(u->span_ns, 80);
	guint64 n_open, n_orphan;
	ftl_calltree_node_repairs(t, y, &n_open, &n_orphan);
	CU_ASSERT_EQUAL(n_orphan, 1);
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_ORPHAN_EXIT)->count, 2);
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_OPEN_AT_END)->count, 0);
	CU_ASSERT_TRUE(ftl_calltree_sound(t));
}

static void seen_dissolve(const FtlCall *call, gpointer data)
{
	g_ptr_array_add(((Seen *)data)->calls,
			g_strdup_printf("dissolved@%d", call->level));
}

static void seen_str_call(const FtlCall *call, gpointer data)
{
	g_ptr_array_add(((Seen *)data)->calls, g_strdup_printf("%s@%d", call->func, call->level));
}

static void seen_enter(const FtlCall *call, gpointer data)
{
	g_ptr_array_add(((Seen *)data)->calls,
			g_strdup_printf("enter %s@%d%s", call->func, call->level,
					call->flags & FTL_CALL_F_ORPHAN ? " inferred" : ""));
}

/* An exit without entry closes the call inferred where the first event
 * inside it showed, with that event's calls below it; an inferred call
 * whose exit never comes is dissolved: its calls are its caller's, no
 * call of its own, and a second round of calls of the same path merges
 * with the first. */
static void test_inferred_calls(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	Seen seen = { g_ptr_array_new_with_free_func(g_free) };
	ftl_calltree_add_on_enter(t, seen_enter, &seen);
	ftl_calltree_add_on_call(t, seen_str_call, &seen);
	ftl_calltree_add_on_dissolve(t, seen_dissolve, &seen);
	feed(t, evb_entry(NONE, 0, 10, "A", 2)); /* inside two unseen calls */
	feed_leaf(t, NONE, 0, 10, "B", 3, 5);
	feed(t, evb_exit(NONE, 0, 10, "A", 2, 20));
	feed(t, evb_exit(NONE, 0, 10, "P", 1, 30)); /* names the depth-1 call */
	feed(t, evb_entry(NONE, 0, 10, "P", 1));	/* P again, a call of its own */
	feed_leaf(t, NONE, 0, 10, "A", 2, 7);
	feed(t, evb_exit(NONE, 0, 10, "P", 1, 9));
	ftl_calltree_finish(t); /* the depth-0 call never ends: dissolved */
	const FtlCallNode *root = ftl_calltree_root(t);
	CU_ASSERT_EQUAL(n_children(root), 1);
	const FtlCallNode *p = child(root, "P");
	CU_ASSERT_PTR_NOT_NULL_FATAL(p);
	CU_ASSERT_EQUAL(p->depth, 1);
	CU_ASSERT_EQUAL(p->calls, 2);
	CU_ASSERT_EQUAL(p->total_ns, 39);
	CU_ASSERT_EQUAL(p->self_ns, 10 + 2);
	const FtlCallNode *a = child(p, "A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->depth, 2);
	CU_ASSERT_EQUAL(a->calls, 2);
	CU_ASSERT_EQUAL(a->total_ns, 27);
	CU_ASSERT_EQUAL(child(a, "B")->depth, 3);
	CU_ASSERT_EQUAL(child(a, "B")->calls, 1);
	CU_ASSERT_EQUAL(ftl_calltree_n_calls(t), 5); /* A B A P P: no call for the unseen one */
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_ORPHAN_EXIT)->count, 1);
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_OPEN_AT_END)->count, 0);
	static const char *want[] = {
		"enter (unknown)@0 inferred", "enter (unknown)@1 inferred", "enter A@2", "enter B@3",
		"B@3", "A@2", "P@1", "enter P@1", "enter A@2", "A@2", "P@1", "dissolved@0",
	};
	CU_ASSERT_EQUAL_FATAL(seen.calls->len, G_N_ELEMENTS(want));
	for (guint i = 0; i < G_N_ELEMENTS(want); i++)
		CU_ASSERT_STRING_EQUAL(g_ptr_array_index(seen.calls, i), want[i]);
	g_ptr_array_unref(seen.calls);
}

static void test_open_at_end_no_time_invented(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	Seen seen = { g_ptr_array_new_with_free_func(g_free) };
	ftl_calltree_add_on_call(t, seen_call, &seen);
	feed(t, evb_entry(1000, 0, 10, "A", 0));
	feed(t, evb_entry(1010, 0, 10, "B", 1));
	feed_leaf(t, 1020, 0, 10, "C", 2, 5);
	ftl_calltree_finish(t);
	const FtlCallNode *a = child(ftl_calltree_root(t), "A");
	CU_ASSERT_EQUAL(a->calls, 1);
	CU_ASSERT_EQUAL(a->timed, 0);
	CU_ASSERT_EQUAL(a->total_ns, 0);
	CU_ASSERT_EQUAL(a->flagged, 1);
	CU_ASSERT_EQUAL(child(a, "B")->timed, 0);
	const FtlDiagEntry *e = ftl_diags_get(d, FTL_DIAG_OPEN_AT_END);
	CU_ASSERT_EQUAL(e->count, 1);
	CU_ASSERT_EQUAL(e->amount, 2);
	CU_ASSERT_EQUAL(seen.calls->len, 3);
	const FtlCall *last = seen.calls->pdata[2];
	CU_ASSERT(last->flags & FTL_CALL_F_OPEN);
	CU_ASSERT_EQUAL(last->duration, NONE);
	g_ptr_array_unref(seen.calls);
}

static void test_depth_jump(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	feed(t, evb_entry(NONE, 0, 10, "A", 0));
	feed(t, evb_entry(NONE, 0, 10, "B", 1));
	feed(t, evb_entry(NONE, 0, 10, "C", 2));
	/* the exits of C and B are missing */
	feed(t, evb_entry(NONE, 0, 10, "D", 1));
	feed(t, evb_exit(NONE, 0, 10, NULL, 1, 3));
	feed(t, evb_exit(NONE, 0, 10, NULL, 0, 50));
	ftl_calltree_finish(t);
	const FtlCallNode *a = child(ftl_calltree_root(t), "A");
	CU_ASSERT_EQUAL(a->total_ns, 50);
	CU_ASSERT_EQUAL(a->self_ns, 47);
	CU_ASSERT_EQUAL(child(a, "D")->total_ns, 3);
	CU_ASSERT_EQUAL(child(a, "B")->flagged, 1);
	CU_ASSERT_EQUAL(child(a, "B")->timed, 0);
	CU_ASSERT_EQUAL(child(child(a, "B"), "C")->flagged, 1);
	CU_ASSERT(ftl_diags_get(d, FTL_DIAG_DEPTH_JUMP)->count >= 1);
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_OPEN_AT_END)->count, 0);
}

static void test_exit_name_mismatch_unwinds(void)
{
	/* "} /" "* A *" "/" at depth 0 while B is still open at depth 1 */
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	feed(t, evb_entry(NONE, 0, 10, "A", 0));
	feed(t, evb_entry(NONE, 0, 10, "B", 1));
	feed(t, evb_exit(NONE, 0, 10, "A", 0, 40));
	ftl_calltree_finish(t);
	const FtlCallNode *a = child(ftl_calltree_root(t), "A");
	CU_ASSERT_EQUAL(a->total_ns, 40);
	CU_ASSERT_EQUAL(a->self_ns, 40); /* B's time is unknown: not subtracted */
	CU_ASSERT_EQUAL(child(a, "B")->flagged, 1);
}

static void test_per_task_stacks(void)
{
	/* Task 1 sleeps inside schedule() while task 2 runs on the same CPU. */
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	feed(t, evb_entry(100, 0, 1, "schedule", 0));
	feed(t, evb_task_switch(110, 0, "a", 1, "b", 2));
	feed(t, evb_entry(120, 0, 2, "foo", 0));
	feed_leaf(t, 121, 0, 2, "bar", 1, 4);
	feed(t, evb_exit(130, 0, 2, NULL, 0, 10));
	feed(t, evb_task_switch(140, 0, "b", 2, "a", 1));
	/* task 1 comes back on CPU 1 */
	feed(t, evb_exit(1100, 1, 1, NULL, 0, 1000));
	ftl_calltree_finish(t);
	const FtlCallNode *root = ftl_calltree_root(t);
	CU_ASSERT_EQUAL(child(root, "schedule")->total_ns, 1000);
	CU_ASSERT_EQUAL(child(root, "schedule")->self_ns, 1000);
	CU_ASSERT_PTR_NULL(child(child(root, "schedule"), "foo"));
	CU_ASSERT_EQUAL(child(root, "foo")->self_ns, 6);
	CU_ASSERT_EQUAL(ftl_calltree_n_repaired(t), 0);
}

static void test_idle_is_per_cpu(void)
{
	/* pid 0 is a different task on each CPU */
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	feed(t, evb_entry(NONE, 0, 0, "do_idle", 0));
	feed(t, evb_entry(NONE, 1, 0, "do_idle", 0));
	feed(t, evb_exit(NONE, 1, 0, NULL, 0, 20));
	feed(t, evb_exit(NONE, 0, 0, NULL, 0, 30));
	ftl_calltree_finish(t);
	const FtlCallNode *n = child(ftl_calltree_root(t), "do_idle");
	CU_ASSERT_EQUAL(n->calls, 2);
	CU_ASSERT_EQUAL(n->total_ns, 50);
	CU_ASSERT_EQUAL(ftl_calltree_n_repaired(t), 0);
}

static void test_lost_resets_stack(void)
{
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	feed(t, evb_entry(NONE, 0, 5, "A", 0));
	feed(t, evb_entry(NONE, 0, 5, "B", 1));
	feed(t, evb_lost(0, 100));
	feed(t, evb_exit(NONE, 0, 5, NULL, 0, 10));
	ftl_calltree_finish(t);
	const FtlCallNode *root = ftl_calltree_root(t);
	const FtlCallNode *a = child(root, "A");
	CU_ASSERT_EQUAL(a->timed, 0);
	CU_ASSERT_EQUAL(a->flagged, 1);
	/* after the reset the exit has no entry */
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_ORPHAN_EXIT)->count, 1);
	CU_ASSERT_EQUAL(child(root, ftl_calltree_unknown_name())->total_ns, 10);
}

static void test_irq_nests_in_the_interrupted_call(void)
{
	/* function_graph's irq arrows around a handler: the handler's frames sit
	 * on the interrupted task's stack, one level deeper */
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	feed(t, evb_entry(NONE, 1, 7, "do_work", 0));
	feed(t, evb_irq(NONE, 1, 7, TRUE));
	feed(t, evb_entry(NONE, 1, 7, "smp_apic_timer_interrupt", 1));
	feed_leaf(t, NONE, 1, 7, "irq_enter", 2, 1);
	feed(t, evb_exit(NONE, 1, 7, NULL, 1, 3));
	feed(t, evb_irq(NONE, 1, 7, FALSE));
	feed(t, evb_exit(NONE, 1, 7, NULL, 0, 10));
	ftl_calltree_finish(t);
	const FtlCallNode *w = child(ftl_calltree_root(t), "do_work");
	CU_ASSERT_EQUAL(w->self_ns, 7);
	CU_ASSERT_EQUAL(child(w, "smp_apic_timer_interrupt")->self_ns, 2);
	CU_ASSERT(!ftl_diags_any(d));
}

/* Sound while every call's children fit in it; a child that outlasts its
 * caller (durations printed, rounded apart) makes the tree unsound, and an
 * orphan exit or an untimed open call never does. */
static void test_sound(void)
{
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	ftl_calltree_set_lean(t);
	feed(t, evb_exit(NONE, 0, 5, "was_running", 0, 40));
	feed(t, evb_entry(NONE, 0, 5, "A", 0));
	feed_leaf(t, NONE, 0, 5, "B", 1, 30);
	feed(t, evb_exit(NONE, 0, 5, NULL, 0, 30));
	feed(t, evb_entry(NONE, 0, 5, "open", 0));
	feed_leaf(t, NONE, 0, 5, "C", 1, 10);
	ftl_calltree_finish(t);
	CU_ASSERT_TRUE(ftl_calltree_sound(t));
	g_autoptr(FtlCallTree) u = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	feed(u, evb_entry(NONE, 0, 5, "A", 0));
	feed_leaf(u, NONE, 0, 5, "B", 1, 31);
	feed(u, evb_exit(NONE, 0, 5, NULL, 0, 30));
	ftl_calltree_finish(u);
	CU_ASSERT_FALSE(ftl_calltree_sound(u));
	CU_ASSERT_EQUAL(child(ftl_calltree_root(u), "A")->span_ns, 30);
	CU_ASSERT_EQUAL(child(child(ftl_calltree_root(u), "A"), "B")->span_ns, 31);
}

static void test_duration_from_timestamps(void)
{
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	feed(t, evb_entry(1000, 0, 5, "A", 0));
	feed(t, evb_exit(1750, 0, 5, NULL, 0, NONE));
	ftl_calltree_finish(t);
	CU_ASSERT_EQUAL(child(ftl_calltree_root(t), "A")->total_ns, 750);
}

static void test_focus_and_groups(void)
{
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, NULL);
	ftl_calltree_set_focus(t, evb_intern("B"));
	for (int i = 0; i < 2; i++) {
		feed(t, evb_entry(NONE, 0, 10, i ? "A2" : "A", 0));
		feed(t, evb_entry(NONE, 0, 10, "B", 1));
		feed_leaf(t, NONE, 0, 10, "C", 2, 1);
		feed(t, evb_exit(NONE, 0, 10, NULL, 1, 4));
		feed(t, evb_exit(NONE, 0, 10, NULL, 0, 9));
	}
	ftl_calltree_finish(t);
	const FtlCallNode *root = ftl_calltree_root(t);
	CU_ASSERT_EQUAL(n_children(root), 1);
	CU_ASSERT_EQUAL(child(root, "B")->calls, 2);
	CU_ASSERT_EQUAL(child(root, "B")->total_ns, 8);
	CU_ASSERT_EQUAL(child(child(root, "B"), "C")->calls, 2);

	g_autoptr(FtlCallTree) g = ftl_calltree_new(FTL_CALLTREE_GROUP_CPU, NULL);
	feed_leaf(g, NONE, 0, 10, "X", 0, 1);
	feed_leaf(g, NONE, 1, 11, "X", 0, 2);
	ftl_calltree_finish(g);
	root = ftl_calltree_root(g);
	CU_ASSERT_EQUAL(n_children(root), 2);
	CU_ASSERT_EQUAL(child(child(root, "CPU 1"), "X")->total_ns, 2);
	CU_ASSERT_EQUAL(child(root, "CPU 1")->total_ns, 2);
}

static void test_node_budget(void)
{
	/* 4 nodes allowed: A, A;B, A;C, D; what comes later on a new path goes
	 * into its parent's [other] with all it calls, and totals stay exact */
	g_autoptr(FtlDiags) d = ftl_diags_new();
	g_autoptr(FtlCallTree) t = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, d);
	ftl_calltree_set_max_nodes(t, 4);
	feed(t, evb_entry(NONE, 0, 10, "A", 0));
	feed_leaf(t, NONE, 0, 10, "B", 1, 3);
	feed_leaf(t, NONE, 0, 10, "C", 1, 4);
	feed(t, evb_exit(NONE, 0, 10, NULL, 0, 20));
	feed_leaf(t, NONE, 0, 10, "D", 0, 5);
	/* over budget: E and F below A, G (calling H) at the top */
	feed(t, evb_entry(NONE, 0, 10, "A", 0));
	feed_leaf(t, NONE, 0, 10, "B", 1, 1); /* known path: still its node */
	feed_leaf(t, NONE, 0, 10, "E", 1, 6);
	feed(t, evb_entry(NONE, 0, 10, "F", 1));
	feed_leaf(t, NONE, 0, 10, "H", 2, 2);
	feed(t, evb_exit(NONE, 0, 10, NULL, 1, 7));
	feed(t, evb_exit(NONE, 0, 10, NULL, 0, 30));
	feed(t, evb_entry(NONE, 0, 10, "G", 0));
	feed_leaf(t, NONE, 0, 10, "H", 1, 8);
	feed(t, evb_exit(NONE, 0, 10, NULL, 0, 9));
	ftl_calltree_finish(t);
	const FtlCallNode *root = ftl_calltree_root(t);
	const FtlCallNode *a = child(root, "A");
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_EQUAL(a->total_ns, 50);
	CU_ASSERT_EQUAL(child(a, "B")->calls, 2);
	CU_ASSERT_EQUAL(child(a, "B")->total_ns, 4);
	const FtlCallNode *ao = child(a, "[other]");
	CU_ASSERT_PTR_NOT_NULL_FATAL(ao);
	CU_ASSERT_EQUAL(ao->total_ns, 6 + 7); /* E and F, H inside F not again */
	CU_ASSERT_EQUAL(ao->calls, 3);
	CU_ASSERT_PTR_NULL(ao->child);
	const FtlCallNode *top = child(root, "[other]");
	CU_ASSERT_PTR_NOT_NULL_FATAL(top);
	CU_ASSERT_EQUAL(top->total_ns, 9);
	CU_ASSERT_EQUAL(top->calls, 2);
	CU_ASSERT_EQUAL(root->total_ns, 50 + 5 + 9);
	CU_ASSERT_PTR_NULL(child(root, "G"));
	CU_ASSERT_EQUAL(ftl_diags_get(d, FTL_DIAG_NODE_BUDGET)->count, 3); /* E, F, G */
}

static const UnitTest tests[] = {
	{ "basic_tree", test_basic_tree },
	{ "merge_by_path", test_merge_by_path },
	{ "lean_same_shape", test_lean_same_shape },
	{ "lean_random", test_lean_random },
	{ "lean_big_and_deep", test_lean_big_and_deep },
	{ "wide_callers_merge", test_wide_callers_merge },
	{ "orphan_exits", test_orphan_exits },
	{ "inferred_calls", test_inferred_calls },
	{ "open_at_end_no_time_invented", test_open_at_end_no_time_invented },
	{ "depth_jump", test_depth_jump },
	{ "exit_name_mismatch_unwinds", test_exit_name_mismatch_unwinds },
	{ "per_task_stacks", test_per_task_stacks },
	{ "idle_is_per_cpu", test_idle_is_per_cpu },
	{ "lost_resets_stack", test_lost_resets_stack },
	{ "irq_nests_in_the_interrupted_call", test_irq_nests_in_the_interrupted_call },
	{ "sound", test_sound },
	{ "duration_from_timestamps", test_duration_from_timestamps },
	{ "focus_and_groups", test_focus_and_groups },
	{ "node_budget", test_node_budget },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("calltree", tests);
}
