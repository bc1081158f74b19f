/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flame trees: weighted call paths for flame graphs and folded stacks.
 *
 * A tree is made from function_graph calls (weight = exact ns, from the
 * call tree's spans), from <stack trace> / kernel_stack events or from the
 * function tracer's "func <-parent" pairs (weight = samples), or path by
 * path from folded stacks. Children are sorted by name, as FlameGraph does,
 * and every node weighs at least the sum of its children. */
#pragma once

#include <glib.h>

#include "analysis/calltree.h"
#include "analysis/markers.h"
#include "analysis/pass.h"

typedef enum {
	FTL_FLAME_FRAME = 0, /* a function or stack frame */
	FTL_FLAME_ROOT,	     /* "all" */
	FTL_FLAME_GROUP,     /* the tower of one task ("comm-pid") or CPU ("CPU 1") */
	FTL_FLAME_IRQ,	     /* "[irq]": an interrupt on top of what it interrupted */
	FTL_FLAME_MERGED,    /* "[N smaller calls]": calls too narrow to draw, summed */
} FtlFlameKind;

typedef enum {
	FTL_FLAME_UNIT_NS,	/* weights are nanoseconds */
	FTL_FLAME_UNIT_SAMPLES, /* weights are counts */
} FtlFlameUnit;

typedef struct _FtlFlameNode FtlFlameNode;
struct _FtlFlameNode {
	/* the first 64 bytes: what finish's sweep and the layout read of every
	 * node, one cache line (nodes are 128-byte aligned in the arena) */
	const char *name; /* owned by the tree; any bytes a trace had */
	FtlFlameNode *parent;
	FtlFlameNode *child; /* first child; siblings sorted by name after finish */
	FtlFlameNode *next;
	gint64 value;	 /* inclusive weight (>= the sum of the children's) */
	gint64 self;	 /* weight of its own: value less the children's */
	guint64 calls;	 /* calls or samples */
	guint depth;	 /* the root is 0 */
	guint8 kind;	 /* FtlFlameKind */
	guint8 sorted;	 /* the children are in name order (made so, or sorted) */
	guint8 in_a, in_b; /* ftl_flame_diff() only: where the path exists (booleans) */
	/* the rest */
	gint64 other;	 /* ftl_flame_diff(): A's value on this path (scaled), else 0 */
	gint64 start;	 /* charts: where it begins, ns on the trace clock; else 0 */
	guint64 n_open;	 /* calls open at the end of the trace (no time of their own) */
	guint64 n_orphan; /* exits without their entry */
	FtlFlameNode *last_child; /* the tree's lookup cache: the child found last */
	FtlFlameNode *last;	  /* the child made last: ftl_flame_child() appends */
	guint32 name_len;
	guint n_kids; /* children made by ftl_flame_child() */
};

typedef struct _FtlFlame FtlFlame;

FtlFlame *ftl_flame_new(FtlFlameUnit unit);
void ftl_flame_free(FtlFlame *f);
FtlFlameUnit ftl_flame_unit(const FtlFlame *f);
/* The root; nodes live as long as f. */
FtlFlameNode *ftl_flame_root(FtlFlame *f);
/* The child of parent named name[0..len) (len < 0: NUL-terminated), made
 * when absent. */
FtlFlameNode *ftl_flame_child(FtlFlame *f, FtlFlameNode *parent, const char *name, gssize len,
			      FtlFlameKind kind);
/* Adds weight to node's own weight and calls to its count. */
void ftl_flame_add(FtlFlame *f, FtlFlameNode *node, gint64 weight, guint64 calls);
/* Copies a finished call tree: weight = FtlCallNode.span_ns. Group nodes
 * become FTL_FLAME_GROUP, "[irq]" nodes FTL_FLAME_IRQ. */
void ftl_flame_add_calltree(FtlFlame *f, const FtlCallTree *t, gboolean groups);
/* A node with no parent yet (charts link children themselves). */
FtlFlameNode *ftl_flame_node_new(FtlFlame *f, const char *name, gssize len, FtlFlameKind kind);
/* Makes v[0..n) the children of parent, in that order. */
void ftl_flame_node_set_children(FtlFlameNode *parent, FtlFlameNode *const *v, guint n);
/* A chart: calls are not merged, children keep their order in time, a
 * node's value is set by its maker (finish raises it to its children's sum). */
void ftl_flame_set_chart(FtlFlame *f);
gboolean ftl_flame_is_chart(const FtlFlame *f);
/* A chart's time range: it starts at t0 (trace clock) and lasts span ns. */
void ftl_flame_set_span(FtlFlame *f, gint64 t0, gint64 span);
gint64 ftl_flame_span(const FtlFlame *f, gint64 *t0);
/* Computes inclusive weights and sorts; call once after adding. */
void ftl_flame_finish(FtlFlame *f);
guint64 ftl_flame_n_nodes(const FtlFlame *f);

/* A tree whose weights are b's and whose .other is a's on the same path,
 * a's scaled by b's total / a's total when normalize. Paths only in a are
 * kept with value 0 (in_b FALSE). a and b must be finished and have the
 * same unit; the result is finished. Free with ftl_flame_free(). */
FtlFlame *ftl_flame_diff(const FtlFlame *a, const FtlFlame *b, gboolean normalize);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlFlame, ftl_flame_free)

/* ---- paths in tree order ---------------------------------------------------- */

/* Builds a tree from weighted paths (folded lines), each given with how many
 * of its first frames are the previous path's. When the paths come in tree
 * order (every subtree's paths together, as ftlens's own folded output and
 * sorted folded files have them) and min_fraction > 0, a subtree lighter
 * than that share of the weight read so far is folded once complete: its
 * root becomes a leaf whose own weight is the subtree's and its nodes are
 * given back, so the tree never holds nodes a drawing with that minimum
 * cannot show. Weights stay exact. */
typedef struct _FtlFlamePaths FtlFlamePaths;

FtlFlamePaths *ftl_flame_paths_new(FtlFlame *f, double min_fraction);
/* The path: the previous path's first same frames (at most its length),
 * then added[0..n_added). */
void ftl_flame_paths_add(FtlFlamePaths *p, const FtlSlice *added, guint n_added, guint same,
			 gint64 weight);
/* Completes the tree (not finished: call ftl_flame_finish()) and frees p.
 * FALSE: a path came back to a subtree already folded, the tree is not
 * exact: build it again with min_fraction 0. */
gboolean ftl_flame_paths_end(FtlFlamePaths *p);
/* Subtrees folded so far (one inside another counts too). */
guint64 ftl_flame_paths_n_folded(const FtlFlamePaths *p);

/* ---- building from a trace ------------------------------------------------ */

typedef enum {
	FTL_FLAME_FROM_AUTO = 0,  /* calls if any, else stacks, else functions */
	FTL_FLAME_FROM_CALLS,	  /* function_graph entries and exits */
	FTL_FLAME_FROM_STACKS,	  /* <stack trace> and kernel_stack events */
	FTL_FLAME_FROM_FUNCTIONS, /* the function tracer's func <-parent pairs */
} FtlFlameFrom;

/* "calls", "stacks", "functions" (and "auto"); FALSE when unknown. */
gboolean ftl_flame_from_parse(const char *s, FtlFlameFrom *out);
const char *ftl_flame_from_name(FtlFlameFrom from);

typedef struct {
	FtlFlameFrom from;
	FtlCallTreeGroup group;
	const char *function; /* interned in the trace's pool: only its subtrees; NULL: all */
	FtlSpans *spans;      /* borrowed, may be NULL: only events inside a span */
	FtlDiags *diags;      /* borrowed, may be NULL: call repairs */
	/* > 0: the tree is only drawn, with frames narrower than this share of
	 * the total merged: a call node lighter than that becomes a leaf (its
	 * own weight the whole subtree's), whose subtree is never copied. 0:
	 * the whole tree (exports, differences). */
	double min_fraction;
} FtlFlameBuildOptions;

typedef struct _FtlFlameBuild FtlFlameBuild;

FtlFlameBuild *ftl_flame_build_new(const FtlFlameBuildOptions *opt);
void ftl_flame_build_free(FtlFlameBuild *b);
void ftl_flame_build_feed(FtlFlameBuild *b, const FtlEvent *ev);
void ftl_flame_build_finish(FtlFlameBuild *b);
extern const FtlConsumerClass ftl_flame_build_consumer;
/* After finish: the tree of the source used (borrowed, lives as long as b),
 * which source that was (CALLS when nothing was found), the events lost
 * ("CPU:N [LOST N EVENTS]": their sum, and how many such lines), and the
 * number of calls that were repaired. */
FtlFlame *ftl_flame_build_tree(FtlFlameBuild *b);
FtlFlameFrom ftl_flame_build_from(const FtlFlameBuild *b);
guint64 ftl_flame_build_lost(const FtlFlameBuild *b, guint64 *lines);
guint64 ftl_flame_build_repaired(const FtlFlameBuild *b);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlFlameBuild, ftl_flame_build_free)
