/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call trees rebuilt from function_graph entry/exit events, per task (per CPU
 * for pid 0 and unknown pids), merged by call path. Damaged input is repaired
 * and every repair is counted; time is never invented. */
#pragma once

#include "analysis/pass.h"
#include <glib.h>

#include "model/diag.h"
#include "model/event.h"

typedef enum {
	/* exit without its entry (trace started mid-call): placed at its depth
	 * on its task's stack, its calls before the exit below it */
	FTL_CALL_F_ORPHAN = 1u << 0,
	FTL_CALL_F_OPEN = 1u << 1,     /* entry without its exit (end of trace, LOST, depth jump) */
	FTL_CALL_F_REPAIRED = 1u << 2, /* closed by a depth/name mismatch repair */
	FTL_CALL_F_RECURSIVE = 1u << 3, /* the function was already on the stack */
	FTL_CALL_F_IRQ = 1u << 4,	/* the "[irq]" frame of an interrupt (irq frames on) */
} FtlCallFlags;

typedef struct _FtlCallNode FtlCallNode;

/* One finished (or abandoned) call, handed to the on_call callback. */
typedef struct {
	const char *func; /* interned; "(unknown)" when the input did not name it */
	gint32 cpu;	  /* CPU of the exit (or of the last event seen for an open call) */
	gint32 pid;
	gint depth;	 /* as printed by the kernel */
	gint64 entry_ts; /* FTL_TS_NONE when unknown */
	gint64 duration; /* ns: printed by the kernel, else exit ts - entry ts; FTL_TS_NONE if
			    neither */
	gint64 self;   /* duration minus the known durations of its children; FTL_TS_NONE with it */
	guint32 flags; /* FtlCallFlags */
	guint64 line;  /* input line of the exit (of the entry for an open call) */
	/* its merged path (a handle in a lean tree); NULL without the tree or
	 * outside the focus */
	const FtlCallNode *node;
	gint level; /* frames below it on its task's stack (0: outermost known) */
	gint64 span; /* time it covers in the tree: duration; for a call without one the
		      * span of its children (FTL_TS_NONE on entry) */
} FtlCall;

/* The merged tree is at most this deep (the root is at 0): calls nested
 * deeper (no kernel nests near that many; a damaged or hostile trace can) are
 * merged into one node "(deeper)" below the last level and counted in the
 * diagnostic deep_calls, so that every walk over the tree stays bounded. */
#define FTL_CALLTREE_MAX_DEPTH 256

/* The first 64 bytes are what building the tree reads and writes of every
 * node (one cache line: a big trace's tree does not fit in any cache, and
 * a node over two lines costs two misses). A lean tree's nodes are not
 * these: see ftl_calltree_set_lean(). How many of its calls were open or
 * orphan is rare: see ftl_calltree_node_repairs(). */
struct _FtlCallNode {
	const char *func; /* interned; group nodes carry "CPU 1" / "bash-123" */
	FtlCallNode *parent;
	FtlCallNode *child; /* first child */
	FtlCallNode *next;  /* next sibling */
	FtlCallNode *last_child; /* the tree's lookup cache: the child found last */
	guint64 calls;	    /* every call, open and orphan ones included */
	/* What a flame graph draws: the sum of FtlCall.span, so that children
	 * never exceed their parent and no time is counted twice. */
	gint64 span_ns;
	gint depth;   /* distance from the root */
	guint n_kids; /* children made by the tree */
	guint64 timed;	 /* calls with a known duration */
	guint64 flagged; /* calls with any FtlCallFlags repair flag (not RECURSIVE) */
	gint64 total_ns; /* sum of known durations */
	gint64 self_ns;	 /* sum of known self times */
	gint64 min_ns;	 /* FTL_TS_NONE until a timed call */
	gint64 max_ns;
};

/* what building reads and writes: one cache line */
G_STATIC_ASSERT(G_STRUCT_OFFSET(FtlCallNode, timed) <= 64);

typedef enum {
	FTL_CALLTREE_GROUP_NONE,
	FTL_CALLTREE_GROUP_CPU,
	FTL_CALLTREE_GROUP_TASK,
} FtlCallTreeGroup;

typedef void (*FtlCallFunc)(const FtlCall *call, gpointer user_data);

typedef struct _FtlCallTree FtlCallTree;

/* diags (borrowed, may be NULL) receives repair counts: orphan_exit,
 * open_at_end, depth_jump. */
FtlCallTree *ftl_calltree_new(FtlCallTreeGroup group, FtlDiags *diags);
void ftl_calltree_free(FtlCallTree *t);
/* func is called for every finished call, in completion order; listeners
 * (function statistics, longest calls, ...) are called in the order added.
 * Listeners are added before the first event: a tree without any skips
 * what only they read (FTL_CALL_F_RECURSIVE). */
void ftl_calltree_add_on_call(FtlCallTree *t, FtlCallFunc func, gpointer user_data);
/* func is called for every call when it is entered (duration, self and span
 * FTL_TS_NONE). A call the trace began inside is entered, inferred, when
 * the first event inside it shows it (FTL_CALL_F_ORPHAN, func "(unknown)",
 * entry_ts that event's time): an event at depth d on a task's empty stack
 * shows d calls open below it, each with its own frame. Its exit names
 * it (FtlCall.func, entry_ts exit time - duration); without one it is
 * dissolved (ftl_calltree_add_on_dissolve). */
void ftl_calltree_add_on_enter(FtlCallTree *t, FtlCallFunc func, gpointer user_data);
/* func is called for an inferred call that ends without an exit (end of
 * trace, lost events, a call entered at its depth): it was none, and the
 * calls made in it (already finished, at call->level + 1) belong to its
 * caller (at call->level). Never an on_call: statistics never see it. */
void ftl_calltree_add_on_dissolve(FtlCallTree *t, FtlCallFunc func, gpointer user_data);
/* Interrupts (function_graph's "==========>" and irq_handler_entry events)
 * open an "[irq]" frame (FTL_CALL_F_IRQ) on the interrupted stack, closed
 * by the matching exit arrow or irq_handler_exit; exits never match it. */
void ftl_calltree_set_irq_frames(FtlCallTree *t);
/* Rebuild calls for the listeners only, without the merged path tree: its
 * memory grows with the number of distinct call paths. */
void ftl_calltree_set_no_tree(FtlCallTree *t);
/* Bound the merged tree: once it holds max_nodes nodes (0: no bound), a call
 * on a path not seen yet is merged into its parent's "[other]" node with
 * everything it calls, so totals stay exact and the tree stays under twice
 * max_nodes; counted in the diagnostic node_budget. */
#define FTL_CALLTREE_DEFAULT_MAX_NODES 100000
void ftl_calltree_set_max_nodes(FtlCallTree *t, guint max_nodes);
/* For users of the tree's shape, calls and spans only (flame graphs): a
 * node is 16 bytes linked by 32-bit indices rather than an FtlCallNode (a
 * big trace's tree holds millions), so its nodes are handles read only
 * through ftl_calltree_top() and the ftl_calltree_node_*() functions below;
 * ftl_calltree_root() is then a copy of the root's calls and span, with no
 * children. finish leaves children in the order made. Call before the
 * first event. */
void ftl_calltree_set_lean(FtlCallTree *t);
/* Merge only calls below the outermost call of function (an interned name);
 * the tree's top level then holds that function. NULL: everything. */
void ftl_calltree_set_focus(FtlCallTree *t, const char *function);
void ftl_calltree_feed(FtlCallTree *t, const FtlEvent *ev);
/* Closes what is still open (flagged, no time invented). */
void ftl_calltree_finish(FtlCallTree *t);
/* The calltree analysis as a pass consumer (analysis/pass.h). */
extern const FtlConsumerClass ftl_calltree_consumer;

/* The root (func "(root)"); nodes live as long as t. Children are sorted by
 * total time (descending) then name after finish (unless lean). */
const FtlCallNode *ftl_calltree_root(const FtlCallTree *t);
/* The root as a handle, for every tree, lean or not; with the functions
 * below a reader walks either kind (NULL: no child, no next sibling). */
const FtlCallNode *ftl_calltree_top(const FtlCallTree *t);
const FtlCallNode *ftl_calltree_node_child(const FtlCallTree *t, const FtlCallNode *n);
const FtlCallNode *ftl_calltree_node_next(const FtlCallTree *t, const FtlCallNode *n);
const char *ftl_calltree_node_func(const FtlCallTree *t, const FtlCallNode *n);
void ftl_calltree_node_counts(const FtlCallTree *t, const FtlCallNode *n, guint64 *calls,
			      gint64 *span_ns);
guint64 ftl_calltree_n_calls(const FtlCallTree *t);
guint64 ftl_calltree_n_repaired(const FtlCallTree *t);
/* After finish: TRUE when no node's children's spans add up to more than
 * its own span, anywhere in the tree (FALSE where durations rounded apart
 * or repairs made a call's children outweigh it). */
gboolean ftl_calltree_sound(const FtlCallTree *t);
/* Of node's calls, how many were open (no exit: no time of their own) and
 * how many orphan (an exit without its entry); 0 for the root. */
void ftl_calltree_node_repairs(const FtlCallTree *t, const FtlCallNode *node, guint64 *n_open,
			       guint64 *n_orphan);
/* The stack a call of pid on cpu belongs to, for every view that sorts calls
 * by task as the tree does: one per task; pid 0 (each CPU's idle task) and
 * unknown pids one per CPU, apart, so the idle loop never nests in the calls
 * of a task the text did not name, nor those in it. */
gint64 ftl_calltree_task_key(gint32 pid, gint32 cpu);
/* Human label for a task group node, e.g. "bash-123"; used by views. */
const char *ftl_calltree_unknown_name(void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlCallTree, ftl_calltree_free)
