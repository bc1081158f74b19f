/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Call-tree reconstruction: a stack per task context, repairs for what the
 * kernel's text lost (orphan exits, open entries, depth jumps, LOST events),
 * and a merged tree keyed by (parent node, function). */
#include "config.h"

#include "analysis/calltree.h"

#include <string.h>
#include <sys/mman.h>

#include "model/source.h"
#include "util/arena.h"
#include "util/checked.h"
#include "util/pairmap.h"

#define CALLTREE_UNKNOWN "(unknown)"
#define CALLTREE_IRQ	 "[irq]"
/* Deeper than this a stack is searched through a count per function rather
 * than scanned: real kernels nest a few dozen calls, a hostile trace can
 * nest a hundred thousand (a scan per entry would be quadratic). */
#define CALLTREE_SCAN_MAX 64

/* The node every call deeper than FTL_CALLTREE_MAX_DEPTH is merged into. */
static const char calltree_deeper[] = "(deeper)";
/* The node a call on a new path is merged into once the tree holds its node
 * budget: one per parent, so the tree stays under twice the budget. */
static const char calltree_other[] = "[other]";

typedef struct {
	const char *func;
	FtlCallNode *node; /* NULL when outside the focus function */
	gint depth;
	gint64 entry_ts;
	gint64 child_ns; /* known durations of finished children */
	gint64 span_ns;	 /* spans of finished children (FtlCall.span) */
	guint64 line;
	gboolean recursive;
	gboolean irq; /* an "[irq]" frame: exits never match it */
	/* a call the trace began inside (its entry never seen), inferred from
	 * the depth of what it shows first: the exit at its depth names and
	 * closes it (an orphan exit); without one it is dissolved, its
	 * calls given to its caller */
	gboolean inferred;
} CallFrame;

/* A task's open calls, innermost last: pushed and popped once per call,
 * so pushing is a store where GArray's append was a call and a copy. */
typedef struct {
	CallFrame *v;
	guint len, cap;
} CallStack;

typedef struct {
	FtlCallFunc func;
	gpointer data;
} CallListener;

/* A node's open and orphan calls: few nodes have any. */
typedef struct {
	guint64 n_open, n_orphan;
} CallRepairs;

typedef struct {
	CallStack frames;
	/* func -> count of its frames, kept while the stack is deeper than
	 * CALLTREE_SCAN_MAX (NULL otherwise) */
	GHashTable *on_stack;
	FtlCallNode *group;
	gint focus_level; /* frame index of the focus call, -1 outside */
	gint32 cpu;	  /* CPU of the last event */
	gint32 pid;
} CallCtx;

#define CALLTREE_CTX_CACHE 64

typedef struct {
	gint64 key;
	CallCtx *ctx; /* NULL: empty */
} CallCtxSlot;

/* A lean tree's node: 16 bytes and a byte of depth (LeanTree.depth),
 * linked by 32-bit indices into one array (0: none; the root is 1). What
 * the tree hands around for one (frames, groups, ftl_calltree_top()) is
 * its index cast to a pointer. */
typedef struct {
	guint32 func;  /* index into LeanTree.funcs, | LEAN_MAPPED, | LEAN_DEEP */
	guint32 child; /* first child */
	guint32 next;  /* next sibling */
	/* calls << LEAN_SPAN_BITS | span while both fit, else
	 * LEAN_BIG | index into LeanTree.big */
	guint32 val;
} LeanNode;

/* in LeanNode.func: the node has more than FTL_PAIRMAP_SCAN children,
 * which are looked up in the tree's map rather than scanned */
#define LEAN_MAPPED (1u << 31)
/* in LeanNode.func: the node's depth is FTL_CALLTREE_MAX_DEPTH - 1 or more
 * (what calltree_child() asks of every parent, in the node it reads) */
#define LEAN_DEEP      (1u << 30)
#define LEAN_FUNC_MASK (LEAN_DEEP - 1)
#define LEAN_BIG       (1u << 31)
#define LEAN_SPAN_BITS 24
#define LEAN_SPAN_LIM  ((guint32)1 << LEAN_SPAN_BITS)
#define LEAN_CALLS_LIM ((guint32)1 << (31 - LEAN_SPAN_BITS))
/* in LeanTree.depth: the depth is in LeanTree.far */
#define LEAN_DEPTH_FAR 0xffu
/* arrays up to this size come from the heap, larger ones are mapped and
 * grow by mremap(2), which moves pages rather than copying them */
#define LEAN_HEAP_MAX	(1u << 20)
#define LEAN_FUNC_CACHE 256

/* The calls and span of a node that outgrew LeanNode.val: few nodes (the
 * heavy ones near the root) ever do. */
typedef struct {
	gint64 span;
	guint64 calls;
} LeanBig;

typedef struct {
	LeanNode *v;
	guint8 *depth;	     /* a byte: nodes deeper are few */
	guint n, cap;	     /* v[0] is unused */
	GArray *big;	     /* LeanBig */
	GHashTable *far;     /* index -> depth from LEAN_DEPTH_FAR on */
	GPtrArray *funcs;    /* index -> interned name */
	FtlPairMap func_ids; /* (name, NULL) -> index + 1 */
	struct {
		const char *name;
		guint32 id;
	} cache[LEAN_FUNC_CACHE];
} LeanTree;

struct _FtlCallTree {
	FtlCallTreeGroup group;
	FtlDiags *diags;
	GArray *on_call;  /* CallListener */
	GArray *on_enter; /* CallListener */
	GArray *on_dissolve; /* CallListener */
	gboolean no_tree;
	gboolean lean; /* compact nodes (LeanTree), children unsorted */
	gboolean irq_frames;
	const char *focus;
	GHashTable *ctxs;  /* gint64 key -> CallCtx* */
	FtlPairMap nodes;  /* (parent, func) -> FtlCallNode* */
	GHashTable *repairs; /* FtlCallNode* -> CallRepairs*, made at the first */
	FtlArena arena;	   /* the nodes, freed with the tree */
	guint n_nodes, max_nodes; /* max_nodes 0: no budget */
	GStringChunk *names;
	FtlCallNode root;
	FtlCallNode *top;    /* the root's handle: &root, or lean's index 1 */
	LeanTree *lean_tree; /* a lean tree's nodes (NULL until the first) */
	guint64 n_calls, n_repaired;
	gboolean unsound; /* some call's children outweigh it */
	/* direct-mapped cache of contexts by key: the CPUs' events interleave,
	 * so a one-entry cache missed about every other event */
	CallCtxSlot ctx_cache[CALLTREE_CTX_CACHE];
};

/* ---- lean trees ------------------------------------------------------------ */

static inline guint32 lean_ix(const FtlCallNode *n)
{
	return (guint32)GPOINTER_TO_UINT(n);
}

static inline FtlCallNode *lean_ref(guint32 i)
{
	return (FtlCallNode *)GUINT_TO_POINTER(i);
}

/* Grows an array of old bytes to size bytes (its contents kept). */
static gpointer lean_array_grow(gpointer p, gsize old, gsize size)
{
	if (size <= LEAN_HEAP_MAX)
		return g_realloc(p, size);
	gpointer q;
	if (old > LEAN_HEAP_MAX) {
		q = mremap(p, old, size, MREMAP_MAYMOVE);
	} else {
		q = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (q != MAP_FAILED) {
			memcpy(q, p, old);
			g_free(p);
		}
	}
	if (q == MAP_FAILED)
		g_error("out of memory: %" G_GSIZE_FORMAT " bytes for tree nodes", size);
	return q;
}

static void lean_array_free(gpointer p, gsize size)
{
	if (size > LEAN_HEAP_MAX)
		munmap(p, size);
	else
		g_free(p);
}

static guint32 lean_func_id(LeanTree *L, const char *func)
{
	guint slot = (guint)(((guintptr)func >> 4) ^ ((guintptr)func >> 12)) % LEAN_FUNC_CACHE;
	if (L->cache[slot].name == func)
		return L->cache[slot].id;
	guint32 id = GPOINTER_TO_UINT(ftl_pairmap_get(&L->func_ids, func, NULL));
	if (id) {
		id--;
	} else {
		id = L->funcs->len;
		if (id > LEAN_FUNC_MASK)
			g_error("out of memory: too many function names");
		g_ptr_array_add(L->funcs, (gpointer)func);
		ftl_pairmap_put(&L->func_ids, func, NULL, GUINT_TO_POINTER(id + 1));
	}
	L->cache[slot].name = func;
	L->cache[slot].id = id;
	return id;
}

static inline const char *lean_func(const LeanTree *L, guint32 i)
{
	return g_ptr_array_index(L->funcs, L->v[i].func & LEAN_FUNC_MASK);
}

static gint lean_depth(const LeanTree *L, guint32 i)
{
	if (L->depth[i] != LEAN_DEPTH_FAR)
		return L->depth[i];
	return GPOINTER_TO_INT(g_hash_table_lookup(L->far, GUINT_TO_POINTER(i)));
}

static void lean_set_depth(LeanTree *L, guint32 i, gint depth)
{
	if (depth >= FTL_CALLTREE_MAX_DEPTH - 1)
		L->v[i].func |= LEAN_DEEP;
	else
		L->v[i].func &= ~LEAN_DEEP;
	if (depth >= 0 && depth < (gint)LEAN_DEPTH_FAR) {
		L->depth[i] = (guint8)depth;
		if (L->far)
			g_hash_table_remove(L->far, GUINT_TO_POINTER(i));
		return;
	}
	if (!L->far)
		L->far = g_hash_table_new(g_direct_hash, g_direct_equal);
	L->depth[i] = LEAN_DEPTH_FAR;
	g_hash_table_insert(L->far, GUINT_TO_POINTER(i), GINT_TO_POINTER(depth));
}

static void lean_get(const LeanTree *L, guint32 i, gint64 *span, guint64 *calls)
{
	guint32 v = L->v[i].val;
	if (v & LEAN_BIG) {
		const LeanBig *b = &g_array_index(L->big, LeanBig, v & ~LEAN_BIG);
		*span = b->span;
		*calls = b->calls;
	} else {
		*span = v & (LEAN_SPAN_LIM - 1);
		*calls = v >> LEAN_SPAN_BITS;
	}
}

static void lean_set(LeanTree *L, guint32 i, gint64 span, guint64 calls)
{
	guint32 *v = &L->v[i].val;
	if (*v & LEAN_BIG) {
		LeanBig *b = &g_array_index(L->big, LeanBig, *v & ~LEAN_BIG);
		b->span = span;
		b->calls = calls;
	} else if (span >= 0 && span < LEAN_SPAN_LIM && calls < LEAN_CALLS_LIM) {
		*v = (guint32)calls << LEAN_SPAN_BITS | (guint32)span;
	} else {
		LeanBig b = { span, calls };
		g_array_append_val(L->big, b);
		*v = LEAN_BIG | (L->big->len - 1);
	}
}

/* One more call of node i, span more ns: in the node while both fit. */
static inline void lean_account(LeanTree *L, guint32 i, gint64 span)
{
	guint32 *v = &L->v[i].val;
	if (!(*v & LEAN_BIG) && span >= 0 && span < LEAN_SPAN_LIM &&
	    (*v & (LEAN_SPAN_LIM - 1)) + (guint32)span < LEAN_SPAN_LIM &&
	    (*v >> LEAN_SPAN_BITS) + 1 < LEAN_CALLS_LIM) {
		*v += ((guint32)1 << LEAN_SPAN_BITS) + (guint32)span; /* no carry out of the span */
		return;
	}
	gint64 had;
	guint64 calls;
	lean_get(L, i, &had, &calls);
	lean_set(L, i, ftl_sat_add_i64(had, span), calls + 1);
}

/* A node named func at depth, linked nowhere yet. */
static guint32 lean_node_new(LeanTree *L, const char *func, gint depth)
{
	if (L->n >= L->cap) {
		guint cap = MAX(1024, 2 * L->cap);
		if (cap <= L->cap || cap > G_MAXINT32)
			g_error("out of memory: too many tree nodes");
		L->v = lean_array_grow(L->v, L->cap * sizeof *L->v, cap * sizeof *L->v);
		L->depth = lean_array_grow(L->depth, L->cap * sizeof *L->depth,
					   cap * sizeof *L->depth);
		L->cap = cap;
	}
	guint32 i = L->n++;
	L->v[i] = (LeanNode){ lean_func_id(L, func), 0, 0, 0 };
	lean_set_depth(L, i, depth);
	return i;
}

static LeanTree *lean_new_tree(const char *root)
{
	LeanTree *L = g_new0(LeanTree, 1);
	L->big = g_array_new(FALSE, FALSE, sizeof(LeanBig));
	L->funcs = g_ptr_array_new();
	ftl_pairmap_init(&L->func_ids);
	L->n = 1; /* index 0 is "none" */
	lean_node_new(L, root, 0);
	return L;
}

static void lean_free(LeanTree *L)
{
	if (!L)
		return;
	lean_array_free(L->v, L->cap * sizeof *L->v);
	lean_array_free(L->depth, L->cap * sizeof *L->depth);
	g_array_unref(L->big);
	g_clear_pointer(&L->far, g_hash_table_destroy);
	g_ptr_array_unref(L->funcs);
	ftl_pairmap_clear(&L->func_ids);
	g_free(L);
}

/* parent's child for func, or 0 (as calltree_find(), without its cache of
 * the child found last: a lean node has no room for it, and the children
 * of most nodes are few) */
static guint32 lean_find(FtlCallTree *t, guint32 parent, const char *func)
{
	const LeanTree *L = t->lean_tree;
	const LeanNode *v = L->v;
	if (v[parent].func & LEAN_MAPPED)
		return GPOINTER_TO_UINT(ftl_pairmap_get(&t->nodes, lean_ref(parent), func));
	const char *const *names = (const char *const *)L->funcs->pdata;
	for (guint32 k = v[parent].child; k; k = v[k].next)
		if (names[v[k].func & LEAN_FUNC_MASK] == func)
			return k;
	return 0;
}

/* Hangs n below parent as calltree_link() does: last while parent has at
 * most FTL_PAIRMAP_SCAN children, then first and in the map. */
static void lean_link(FtlCallTree *t, guint32 parent, guint32 n)
{
	LeanTree *L = t->lean_tree;
	LeanNode *v = L->v;
	v[n].next = 0;
	if (v[parent].func & LEAN_MAPPED) {
		v[n].next = v[parent].child;
		v[parent].child = n;
		ftl_pairmap_put(&t->nodes, lean_ref(parent), lean_func(L, n), lean_ref(n));
		return;
	}
	guint k = 0;
	guint32 *at = &v[parent].child;
	for (; *at; at = &v[*at].next)
		k++;
	*at = n;
	if (k + 1 == FTL_PAIRMAP_SCAN + 1) {
		v[parent].func |= LEAN_MAPPED;
		for (guint32 c = v[parent].child; c; c = v[c].next)
			ftl_pairmap_put(&t->nodes, lean_ref(parent), lean_func(L, c), lean_ref(c));
	}
}

const char *ftl_calltree_unknown_name(void)
{
	return CALLTREE_UNKNOWN;
}

static void calltree_ctx_free(gpointer p)
{
	CallCtx *c = p;
	g_free(c->frames.v);
	g_clear_pointer(&c->on_stack, g_hash_table_destroy);
	g_free(c);
}

FtlCallTree *ftl_calltree_new(FtlCallTreeGroup group, FtlDiags *diags)
{
	FtlCallTree *t = g_new0(FtlCallTree, 1);
	t->group = group;
	t->diags = diags;
	t->ctxs = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, calltree_ctx_free);
	ftl_pairmap_init(&t->nodes);
	ftl_arena_init(&t->arena);
	ftl_arena_set_prefault(&t->arena); /* a big trace's tree is most of its time */
	t->names = g_string_chunk_new(4096);
	t->root.func = "(root)";
	t->root.min_ns = t->root.max_ns = FTL_TS_NONE;
	t->top = &t->root;
	t->on_call = g_array_new(FALSE, FALSE, sizeof(CallListener));
	t->on_enter = g_array_new(FALSE, FALSE, sizeof(CallListener));
	t->on_dissolve = g_array_new(FALSE, FALSE, sizeof(CallListener));
	return t;
}

void ftl_calltree_free(FtlCallTree *t)
{
	if (!t)
		return;
	g_hash_table_destroy(t->ctxs);
	ftl_pairmap_clear(&t->nodes);
	g_clear_pointer(&t->repairs, g_hash_table_destroy);
	ftl_arena_clear(&t->arena);
	lean_free(t->lean_tree);
	g_string_chunk_free(t->names);
	g_array_unref(t->on_call);
	g_array_unref(t->on_enter);
	g_array_unref(t->on_dissolve);
	g_free(t);
}

void ftl_calltree_add_on_call(FtlCallTree *t, FtlCallFunc func, gpointer user_data)
{
	CallListener l = { func, user_data };
	g_array_append_val(t->on_call, l);
}

void ftl_calltree_add_on_enter(FtlCallTree *t, FtlCallFunc func, gpointer user_data)
{
	CallListener l = { func, user_data };
	g_array_append_val(t->on_enter, l);
}

void ftl_calltree_add_on_dissolve(FtlCallTree *t, FtlCallFunc func, gpointer user_data)
{
	CallListener l = { func, user_data };
	g_array_append_val(t->on_dissolve, l);
}

void ftl_calltree_set_irq_frames(FtlCallTree *t)
{
	t->irq_frames = TRUE;
}

void ftl_calltree_set_no_tree(FtlCallTree *t)
{
	t->no_tree = TRUE;
}

void ftl_calltree_set_lean(FtlCallTree *t)
{
	if (t->lean)
		return;
	t->lean = TRUE;
	t->lean_tree = lean_new_tree(t->root.func);
	t->top = lean_ref(1);
}

void ftl_calltree_set_max_nodes(FtlCallTree *t, guint max_nodes)
{
	t->max_nodes = max_nodes;
}

void ftl_calltree_set_focus(FtlCallTree *t, const char *function)
{
	t->focus = function;
}

/* parent's child for func, or NULL: no node is made */
static FtlCallNode *calltree_find(FtlCallTree *t, FtlCallNode *parent, const char *func)
{
	if (t->lean)
		return lean_ref(lean_find(t, lean_ix(parent), func));
	/* a caller tends to call what it called last (loops, repeated paths) */
	FtlCallNode *n = parent->last_child;
	if (n && n->func == func)
		return n;
	if (parent->n_kids <= FTL_PAIRMAP_SCAN) {
		for (n = parent->child; n; n = n->next)
			if (n->func == func)
				return parent->last_child = n;
	} else if ((n = ftl_pairmap_get(&t->nodes, parent, func))) {
		return parent->last_child = n;
	}
	return NULL;
}

/* Hangs n (its depth already parent's + 1) below parent: after the
 * children it has while it has few (they came first, so they are the ones
 * called most, and a scan meets them before the newcomers), first once it
 * is wide (looked up in the map, not scanned). */
static void calltree_link(FtlCallTree *t, FtlCallNode *parent, FtlCallNode *n)
{
	if (t->lean) {
		lean_link(t, lean_ix(parent), lean_ix(n));
		return;
	}
	n->parent = parent;
	n->next = NULL;
	if (parent->n_kids <= FTL_PAIRMAP_SCAN) {
		FtlCallNode **at = &parent->child;
		while (*at)
			at = &(*at)->next;
		*at = n;
	} else {
		n->next = parent->child;
		parent->child = n;
	}
	if (++parent->n_kids == FTL_PAIRMAP_SCAN + 1) {
		/* wide from now on: all its children go in the map */
		for (FtlCallNode *c = parent->child; c; c = c->next)
			ftl_pairmap_put(&t->nodes, parent, c->func, c);
	} else if (parent->n_kids > FTL_PAIRMAP_SCAN) {
		ftl_pairmap_put(&t->nodes, parent, n->func, n);
	}
	parent->last_child = n;
}

/* A node's name and depth, for a lean tree's node too. */
static inline const char *calltree_func(const FtlCallTree *t, const FtlCallNode *n)
{
	return t->lean ? lean_func(t->lean_tree, lean_ix(n)) : n->func;
}

static inline gint calltree_node_depth(const FtlCallTree *t, const FtlCallNode *n)
{
	return t->lean ? lean_depth(t->lean_tree, lean_ix(n)) : n->depth;
}

/* Whether what n calls is merged into "(deeper)". */
static inline gboolean calltree_deep(const FtlCallTree *t, const FtlCallNode *n)
{
	return t->lean ? (t->lean_tree->v[lean_ix(n)].func & LEAN_DEEP) != 0
		       : n->depth >= FTL_CALLTREE_MAX_DEPTH - 1;
}

static FtlCallNode *calltree_node_new(FtlCallTree *t, FtlCallNode *parent, const char *func)
{
	if (t->lean)
		return lean_ref(
			lean_node_new(t->lean_tree, func, calltree_node_depth(t, parent) + 1));
	FtlCallNode *n = ftl_arena_alloc0(&t->arena, sizeof *n);
	n->func = func;
	n->parent = parent;
	n->depth = parent->depth + 1;
	n->min_ns = n->max_ns = FTL_TS_NONE;
	return n;
}

static FtlCallNode *calltree_child(FtlCallTree *t, FtlCallNode *parent, const char *func)
{
	if (t->no_tree)
		return NULL; /* calls without nodes: every user copes with NULL */
	const char *parent_func = calltree_func(t, parent);
	if (parent_func == calltree_other)
		return parent; /* what a folded call calls is inside its time */
	if (calltree_deep(t, parent)) {
		/* Every view walks the tree: its depth stays bounded whatever
		 * the input nests. What is deeper is counted in one node. */
		if (t->diags)
			ftl_diags_add(t->diags, FTL_DIAG_DEEP_CALLS, NULL, NULL, 0, 0);
		if (parent_func == calltree_deeper)
			return parent;
		func = calltree_deeper;
	}
	FtlCallNode *n = calltree_find(t, parent, func);
	if (n)
		return n;
	if (t->max_nodes && t->n_nodes >= t->max_nodes && func != calltree_other &&
	    func != calltree_deeper) {
		/* over budget: the paths seen first keep their nodes, a new one
		 * is counted (exactly) in its parent's "[other]". Not "(deeper)":
		 * below the last level "[other]" would be made "(deeper)" again,
		 * for ever; there is at most one per node of the last level, so
		 * the budget is passed by at most its own size. */
		if (t->diags)
			ftl_diags_add(t->diags, FTL_DIAG_NODE_BUDGET, NULL, NULL, 0, t->max_nodes);
		return calltree_child(t, parent, calltree_other);
	}
	t->n_nodes++;
	n = calltree_node_new(t, parent, func);
	calltree_link(t, parent, n);
	return n;
}

gint64 ftl_calltree_task_key(gint32 pid, gint32 cpu)
{
	if (pid > 0)
		return (gint64)pid;
	return pid == 0 ? -(gint64)cpu - 2 : -(gint64)cpu - 2 - ((gint64)1 << 32);
}

static gint64 calltree_key(const FtlEvent *ev)
{
	return ftl_calltree_task_key(ev->pid, ev->cpu);
}

static CallCtx *calltree_ctx(FtlCallTree *t, const FtlEvent *ev)
{
	gint64 key = calltree_key(ev);
	CallCtx *c;
	CallCtxSlot *slot = &t->ctx_cache[(guint64)key % CALLTREE_CTX_CACHE];
	if (slot->ctx && slot->key == key) {
		c = slot->ctx;
	} else {
		c = g_hash_table_lookup(t->ctxs, &key);
		if (!c) {
			c = g_new0(CallCtx, 1);
			c->focus_level = -1;
			c->pid = ev->pid;
			gint64 *k = g_new(gint64, 1);
			*k = key;
			g_hash_table_insert(t->ctxs, k, c);
		}
		slot->key = key;
		slot->ctx = c;
	}
	if (!c->group) {
		char label[64];
		if (t->group == FTL_CALLTREE_GROUP_CPU && ev->cpu >= 0)
			g_snprintf(label, sizeof label, "CPU %d", ev->cpu);
		else if (t->group == FTL_CALLTREE_GROUP_TASK)
			g_snprintf(label, sizeof label, "%s-%d", ev->comm ? ev->comm : "<...>",
				   ev->pid);
		else
			label[0] = 0;
		c->group = label[0] ? calltree_child(t, t->top,
						     g_string_chunk_insert_const(t->names, label))
				    : t->top;
	}
	/* per-CPU grouping follows the CPU a task runs on now */
	if (t->group == FTL_CALLTREE_GROUP_CPU && ev->cpu >= 0 && ev->cpu != c->cpu &&
	    c->frames.len == 0) {
		char label[32];
		g_snprintf(label, sizeof label, "CPU %d", ev->cpu);
		c->group = calltree_child(t, t->top, g_string_chunk_insert_const(t->names, label));
	}
	c->cpu = ev->cpu;
	return c;
}

static void calltree_diag(FtlCallTree *t, FtlDiagKind kind, const FtlEvent *ev, const char *what)
{
	if (t->diags)
		ftl_diags_add(t->diags, kind,
			      &(FtlDiagLoc){ ev && ev->src ? ev->src->path : "", ev ? ev->line : 0,
					     ev ? ev->cpu : -1 },
			      what, -1, 0);
}

/* The time from entry_ts to ev, or FTL_TS_NONE with a diagnostic when the
 * difference does not fit a duration (timestamps from a damaged trace). */
static gint64 calltree_elapsed(FtlCallTree *t, const FtlEvent *ev, gint64 entry_ts)
{
	gint64 d;
	if (ftl_checked_sub_i64(ev->ts, entry_ts, &d))
		return d;
	calltree_diag(t, FTL_DIAG_BAD_DURATION, ev, "duration out of range");
	return FTL_TS_NONE;
}

static void calltree_count_frame(CallCtx *c, const char *func, gint by)
{
	gint n = GPOINTER_TO_INT(g_hash_table_lookup(c->on_stack, func)) + by;
	if (n > 0)
		g_hash_table_insert(c->on_stack, (gpointer)func, GINT_TO_POINTER(n));
	else
		g_hash_table_remove(c->on_stack, func);
}

/* Whether func has a frame on c's stack. */
static gboolean calltree_on_stack(CallCtx *c, const char *func)
{
	if (c->on_stack)
		return g_hash_table_contains(c->on_stack, func);
	for (guint i = 0; i < c->frames.len; i++)
		if (c->frames.v[i].func == func)
			return TRUE;
	return FALSE;
}

/* The node a call made now hangs from: the innermost open call's, or at
 * the top of a stack its task's (or CPU's) group. */
static FtlCallNode *calltree_caller(const CallCtx *c)
{
	return c->frames.len ? c->frames.v[c->frames.len - 1].node : c->group;
}

static CallFrame calltree_pop_frame(CallCtx *c)
{
	CallFrame f = c->frames.v[c->frames.len - 1];
	c->frames.len--; /* not zero-terminated: shrinking is the length alone */
	if (c->on_stack && c->frames.len < CALLTREE_SCAN_MAX / 2)
		g_clear_pointer(&c->on_stack, g_hash_table_destroy);
	else if (c->on_stack)
		calltree_count_frame(c, f.func, -1);
	return f;
}

/* Hands a finished call's span and known duration (FTL_TS_NONE: none) to
 * the call it was made from (nothing at the top of a stack). */
static void calltree_give(CallCtx *c, gint64 span, gint64 duration)
{
	if (!c->frames.len)
		return;
	CallFrame *caller = &c->frames.v[c->frames.len - 1];
	caller->span_ns = ftl_sat_add_i64(caller->span_ns, span);
	if (duration != FTL_TS_NONE)
		caller->child_ns = ftl_sat_add_i64(caller->child_ns, duration);
}

static void calltree_notify(GArray *listeners, const FtlCall *call)
{
	for (guint i = 0; i < listeners->len; i++) {
		const CallListener *l = &g_array_index(listeners, CallListener, i);
		l->func(call, l->data);
	}
}

/* The statistics of a finished call in its (not lean) node. */
static void calltree_stats(FtlCallNode *node, const FtlCallNode *caller, const FtlCall *call)
{
	if (call->flags & (FTL_CALL_F_ORPHAN | FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED))
		node->flagged++;
	if (call->duration != FTL_TS_NONE) {
		node->timed++;
		if (node != caller)
			node->total_ns = ftl_sat_add_i64(node->total_ns, call->duration);
		node->self_ns = ftl_sat_add_i64(node->self_ns, call->self);
		if (node->min_ns == FTL_TS_NONE || call->duration < node->min_ns)
			node->min_ns = call->duration;
		if (node->max_ns == FTL_TS_NONE || call->duration > node->max_ns)
			node->max_ns = call->duration;
	}
}

static void calltree_count_repair(FtlCallTree *t, const FtlCallNode *node, guint32 flags)
{
	if (!t->repairs)
		t->repairs = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	CallRepairs *r = g_hash_table_lookup(t->repairs, node);
	if (!r) {
		r = g_new0(CallRepairs, 1);
		g_hash_table_insert(t->repairs, (gpointer)node, r);
	}
	r->n_open += (flags & FTL_CALL_F_OPEN) != 0;
	r->n_orphan += (flags & FTL_CALL_F_ORPHAN) != 0;
}

void ftl_calltree_node_repairs(const FtlCallTree *t, const FtlCallNode *node, guint64 *n_open,
			       guint64 *n_orphan)
{
	const CallRepairs *r = t->repairs ? g_hash_table_lookup(t->repairs, node) : NULL;
	*n_open = r ? r->n_open : 0;
	*n_orphan = r ? r->n_orphan : 0;
}

/* Accounts a finished call in its node and hands it to the callback.
 * caller is the node of the call it was made from: the same node only for
 * calls merged into "(deeper)", whose time and span the outer merged call
 * already holds (adding them again would count nested time once per level). */
static void calltree_account(FtlCallTree *t, FtlCallNode *node, const FtlCallNode *caller,
			     const FtlCall *call)
{
	t->n_calls++;
	if (call->flags & (FTL_CALL_F_ORPHAN | FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED))
		t->n_repaired++;
	if (node && t->lean) {
		lean_account(t->lean_tree, lean_ix(node), node != caller ? call->span : 0);
	} else if (node) {
		node->calls++;
		if (node != caller)
			node->span_ns = ftl_sat_add_i64(node->span_ns, call->span);
		calltree_stats(node, caller, call);
	}
	if (node && call->flags & (FTL_CALL_F_OPEN | FTL_CALL_F_ORPHAN))
		calltree_count_repair(t, node, call->flags);
	calltree_notify(t->on_call, call);
}

/* Pops the top frame. duration FTL_TS_NONE leaves the call untimed. */
static void calltree_pop(FtlCallTree *t, CallCtx *c, gint64 duration, guint32 flags,
			 const FtlEvent *ev)
{
	CallFrame f = calltree_pop_frame(c);
	FtlCall call = {
		.func = f.func,
		.cpu = ev ? ev->cpu : c->cpu,
		.pid = c->pid,
		.depth = f.depth,
		.entry_ts = f.entry_ts,
		.duration = duration,
		.self = duration == FTL_TS_NONE ? FTL_TS_NONE : MAX(ftl_sat_sub_i64(duration, f.child_ns), 0),
		.flags = flags | (f.recursive ? FTL_CALL_F_RECURSIVE : 0) |
			 (f.irq ? FTL_CALL_F_IRQ : 0),
		.line = ev && !(flags & FTL_CALL_F_OPEN) ? ev->line : f.line,
		.node = f.node,
		.level = (gint)c->frames.len,
		.span = duration != FTL_TS_NONE ? duration : f.span_ns,
	};
	calltree_account(t, f.node, calltree_caller(c), &call);
	calltree_give(c, call.span, duration);
	t->unsound |= f.node && duration != FTL_TS_NONE && f.span_ns > duration;
	if (c->focus_level >= 0 && (gint)c->frames.len <= c->focus_level)
		c->focus_level = -1;
}

/* Adds what node src counted to node dst (their children aside). */
static void calltree_add_node(FtlCallTree *t, FtlCallNode *dst, const FtlCallNode *src)
{
	if (t->lean) {
		gint64 ds, ss;
		guint64 dc, sc;
		lean_get(t->lean_tree, lean_ix(dst), &ds, &dc);
		lean_get(t->lean_tree, lean_ix(src), &ss, &sc);
		lean_set(t->lean_tree, lean_ix(dst), ftl_sat_add_i64(ds, ss), dc + sc);
	} else {
		dst->calls += src->calls;
		dst->span_ns = ftl_sat_add_i64(dst->span_ns, src->span_ns);
		dst->timed += src->timed;
		dst->flagged += src->flagged;
		dst->total_ns = ftl_sat_add_i64(dst->total_ns, src->total_ns);
		dst->self_ns = ftl_sat_add_i64(dst->self_ns, src->self_ns);
		if (src->min_ns != FTL_TS_NONE &&
		    (dst->min_ns == FTL_TS_NONE || src->min_ns < dst->min_ns))
			dst->min_ns = src->min_ns;
		if (src->max_ns != FTL_TS_NONE &&
		    (dst->max_ns == FTL_TS_NONE || src->max_ns > dst->max_ns))
			dst->max_ns = src->max_ns;
	}
	const CallRepairs *r = t->repairs ? g_hash_table_lookup(t->repairs, src) : NULL;
	if (r && (r->n_open || r->n_orphan)) {
		guint64 n_open = r->n_open, n_orphan = r->n_orphan;
		calltree_count_repair(t, dst, 0);
		CallRepairs *d = g_hash_table_lookup(t->repairs, dst);
		d->n_open += n_open;
		d->n_orphan += n_orphan;
	}
}

/* Moves what hangs below src (an inferred call's node, never linked into
 * the tree) below dst, each child merged into dst's child of the same
 * function: the calls of a call named (or dissolved) only at its end join
 * the paths they belong to. Without recursion: the depth is the input's. */
static void lean_graft(FtlCallTree *t, guint32 dst, guint32 src)
{
	LeanTree *L = t->lean_tree;
	g_autoptr(GArray) todo = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_autoptr(GArray) walk = g_array_new(FALSE, FALSE, sizeof(guint32));
	g_array_append_val(todo, dst);
	g_array_append_val(todo, src);
	while (todo->len) {
		guint32 s = g_array_index(todo, guint32, todo->len - 1);
		guint32 d = g_array_index(todo, guint32, todo->len - 2);
		g_array_set_size(todo, todo->len - 2);
		guint32 kid = L->v[s].child;
		L->v[s].child = 0;
		L->v[s].func &= ~LEAN_MAPPED;
		while (kid) {
			guint32 next = L->v[kid].next;
			guint32 m = lean_func(L, d) == calltree_other
					    ? d
					    : lean_find(t, d, lean_func(L, kid));
			if (m) {
				if (m != d)
					calltree_add_node(t, lean_ref(m), lean_ref(kid));
				g_array_append_val(todo, m);
				g_array_append_val(todo, kid);
			} else {
				lean_link(t, d, kid);
				/* a dissolved call's subtree moves up a level */
				gint shift = lean_depth(L, d) + 1 - lean_depth(L, kid);
				if (shift)
					g_array_append_val(walk, kid);
				while (walk->len) {
					guint32 n = g_array_index(walk, guint32, walk->len - 1);
					g_array_set_size(walk, walk->len - 1);
					lean_set_depth(L, n, lean_depth(L, n) + shift);
					for (guint32 c = L->v[n].child; c; c = L->v[c].next)
						g_array_append_val(walk, c);
				}
			}
			kid = next;
		}
	}
}

static void calltree_graft(FtlCallTree *t, FtlCallNode *dst, FtlCallNode *src)
{
	if (t->lean) {
		lean_graft(t, lean_ix(dst), lean_ix(src));
		return;
	}
	g_autoptr(GPtrArray) todo = g_ptr_array_new();
	g_ptr_array_add(todo, dst);
	g_ptr_array_add(todo, src);
	while (todo->len) {
		FtlCallNode *s = g_ptr_array_steal_index(todo, todo->len - 1);
		FtlCallNode *d = g_ptr_array_steal_index(todo, todo->len - 1);
		FtlCallNode *kid = s->child;
		s->child = s->last_child = NULL;
		s->n_kids = 0;
		while (kid) {
			FtlCallNode *next = kid->next;
			FtlCallNode *m = d->func == calltree_other ? d : calltree_find(t, d, kid->func);
			if (m) {
				if (m != d)
					calltree_add_node(t, m, kid);
				g_ptr_array_add(todo, m);
				g_ptr_array_add(todo, kid);
			} else {
				calltree_link(t, d, kid);
				/* a dissolved call's subtree moves up a level */
				gint shift = d->depth + 1 - kid->depth;
				for (FtlCallNode *n = kid; shift && n;) {
					n->depth += shift;
					if (n->child) {
						n = n->child;
						continue;
					}
					while (n != kid && !n->next)
						n = n->parent;
					n = n == kid ? NULL : n->next;
				}
			}
			kid = next;
		}
	}
}

static void calltree_dissolve(FtlCallTree *t, CallCtx *c, const FtlEvent *ev);

/* Abandons frames above depth (their exits never came): flagged, untimed;
 * inferred ones are dissolved. */
static void calltree_unwind(FtlCallTree *t, CallCtx *c, gint depth, guint32 flags,
			    const FtlEvent *ev)
{
	while (c->frames.len && c->frames.v[c->frames.len - 1].depth > depth) {
		if (c->frames.v[c->frames.len - 1].inferred)
			calltree_dissolve(t, c, ev);
		else
			calltree_pop(t, c, FTL_TS_NONE, flags, ev);
	}
}

/* Whether anyone reads FtlCallFlags' RECURSIVE: only listeners see a
 * call's flags, so a tree without them (flame graphs) skips the stack
 * search it costs on every entry. */
static gboolean calltree_wants_recursion(const FtlCallTree *t)
{
	return t->on_call->len || t->on_enter->len;
}

static void calltree_push(FtlCallTree *t, CallCtx *c, const CallFrame *f, const FtlEvent *ev)
{
	if (c->frames.len == c->frames.cap) {
		c->frames.cap = MAX(16, 2 * c->frames.cap);
		c->frames.v = g_renew(CallFrame, c->frames.v, c->frames.cap);
	}
	c->frames.v[c->frames.len++] = *f;
	if (!calltree_wants_recursion(t)) {
		/* no listener: nothing reads the count of frames per function */
	} else if (!c->on_stack && c->frames.len > CALLTREE_SCAN_MAX) {
		c->on_stack = g_hash_table_new(g_direct_hash, g_direct_equal);
		for (guint i = 0; i < c->frames.len; i++)
			calltree_count_frame(c, c->frames.v[i].func, 1);
	} else if (c->on_stack) {
		calltree_count_frame(c, f->func, 1);
	}
	if (!t->on_enter->len)
		return;
	FtlCall call = {
		.func = f->func,
		.cpu = ev->cpu,
		.pid = c->pid,
		.depth = f->depth,
		.entry_ts = f->entry_ts,
		.duration = FTL_TS_NONE,
		.self = FTL_TS_NONE,
		.flags = (f->recursive ? FTL_CALL_F_RECURSIVE : 0) | (f->irq ? FTL_CALL_F_IRQ : 0) |
			 (f->inferred ? FTL_CALL_F_ORPHAN : 0),
		.line = f->line,
		.node = f->node,
		.level = (gint)c->frames.len - 1,
		.span = FTL_TS_NONE,
	};
	/* an inferred call began before what it was inferred from: before
	 * that exit's call began, or that entry */
	if (f->inferred && ev->kind == FTL_EVENT_FUNC_EXIT && ev->u.graph.duration != FTL_TS_NONE &&
	    ev->ts != FTL_TS_NONE)
		call.entry_ts = ftl_sat_sub_i64(ev->ts, ev->u.graph.duration);
	else if (f->inferred)
		call.entry_ts = ev->ts;
	calltree_notify(t->on_enter, &call);
}

/* The trace began inside calls of this task it never saw enter: ev shows
 * depths from..to-1 open below it. Each becomes an inferred frame whose
 * node hangs nowhere until its exit names it. */
static void calltree_infer(FtlCallTree *t, CallCtx *c, gint from, gint to, const FtlEvent *ev)
{
	for (gint depth = from; depth < to; depth++) {
		FtlCallNode *parent = calltree_caller(c);
		CallFrame f = {
			.func = CALLTREE_UNKNOWN,
			.depth = depth,
			.entry_ts = FTL_TS_NONE,
			.line = ev->line,
			.inferred = TRUE,
		};
		/* under a focus the calls of an unnamed one are outside it */
		if (parent && !t->focus && !t->no_tree)
			f.node = calltree_node_new(t, parent, CALLTREE_UNKNOWN);
		calltree_push(t, c, &f, ev);
	}
}

/* Infers the calls an event at depth shows open on an empty stack, at most
 * FTL_CALLTREE_MAX_DEPTH of them: the depth is a number from the input. */
static void calltree_infer_below(FtlCallTree *t, CallCtx *c, gint depth, const FtlEvent *ev)
{
	if (!c->frames.len && depth > 0)
		calltree_infer(t, c, MAX(0, depth - FTL_CALLTREE_MAX_DEPTH), depth, ev);
}

/* The inferred call on top ends without its exit (end of trace, lost
 * events, a call at its depth entered): it was no call the trace showed,
 * so what it called is given to its caller, in the tree and in time. */
static void calltree_dissolve(FtlCallTree *t, CallCtx *c, const FtlEvent *ev)
{
	CallFrame f = calltree_pop_frame(c);
	FtlCallNode *caller = calltree_caller(c);
	if (f.node && caller)
		calltree_graft(t, caller, f.node);
	calltree_give(c, f.span_ns, f.child_ns);
	if (!t->on_dissolve->len)
		return;
	FtlCall call = {
		.func = f.func,
		.cpu = ev ? ev->cpu : c->cpu,
		.pid = c->pid,
		.depth = f.depth,
		.entry_ts = FTL_TS_NONE,
		.duration = FTL_TS_NONE,
		.self = FTL_TS_NONE,
		.flags = FTL_CALL_F_ORPHAN | FTL_CALL_F_OPEN,
		.line = f.line,
		.level = (gint)c->frames.len,
		.span = f.span_ns,
	};
	calltree_notify(t->on_dissolve, &call);
}

/* An exit closes the inferred call on top: it names it, and its node,
 * with the calls below it, joins the tree at the path it names. */
static void calltree_close_inferred(FtlCallTree *t, CallCtx *c, const FtlEvent *ev)
{
	CallFrame *f = &c->frames.v[c->frames.len - 1];
	const char *name = ev->u.graph.func;
	const char *func = name ? name : CALLTREE_UNKNOWN;
	calltree_diag(t, FTL_DIAG_ORPHAN_EXIT, ev, name ? name : "}");
	FtlCallNode *caller =
		c->frames.len > 1 ? c->frames.v[c->frames.len - 2].node : c->group;
	FtlCallNode *node = NULL;
	if (!t->focus || c->focus_level >= 0)
		node = caller ? calltree_child(t, caller, func) : NULL;
	else if (func == t->focus)
		node = calltree_child(t, c->group, func);
	if (node && f->node && node != f->node)
		calltree_graft(t, node, f->node);
	if (c->on_stack) {
		calltree_count_frame(c, f->func, -1);
		calltree_count_frame(c, func, 1);
	}
	f->func = func;
	f->node = node;
	gint64 dur = ev->u.graph.duration;
	if (dur != FTL_TS_NONE && ev->ts != FTL_TS_NONE)
		f->entry_ts = ftl_sat_sub_i64(ev->ts, dur);
	calltree_pop(t, c, dur, FTL_CALL_F_ORPHAN, ev);
}

/* The depth of a function_graph event, as the tree reads it: a number
 * from the input (a trace.dat's field holds any int), held within
 * +-2^30 so that the depth one below or above it is one too; no kernel
 * nests calls anywhere near that deep, and the tree merges everything
 * past FTL_CALLTREE_MAX_DEPTH anyway. */
static inline gint calltree_depth(const FtlEvent *ev)
{
	return CLAMP(ev->u.graph.depth, -(1 << 30), 1 << 30);
}

static void calltree_entry(FtlCallTree *t, CallCtx *c, const FtlEvent *ev)
{
	gint depth = calltree_depth(ev);
	/* an interrupt's calls may be numbered from 0 again: no jump across "[irq]" */
	if (c->frames.len && !c->frames.v[c->frames.len - 1].irq) {
		const CallFrame *top = &c->frames.v[c->frames.len - 1];
		if (depth <= top->depth && top->inferred) {
			/* what was inferred below ended unseen: no call is lost */
			calltree_unwind(t, c, depth - 1, 0, ev);
		} else if (depth <= top->depth) {
			/* exits missing: the calls at or below this depth never returned */
			calltree_diag(t, FTL_DIAG_DEPTH_JUMP, ev,
				      "entry at or above an open call's depth");
			calltree_unwind(t, c, depth - 1, FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED, ev);
		} else if (depth > top->depth + 1) {
			calltree_diag(t, FTL_DIAG_DEPTH_JUMP, ev,
				      "entry deeper than its caller + 1");
		}
	}
	calltree_infer_below(t, c, depth, ev);
	const char *func = ev->u.graph.func ? ev->u.graph.func : CALLTREE_UNKNOWN;
	CallFrame f = {
		.func = func,
		.depth = depth,
		.entry_ts = ev->ts,
		.line = ev->line,
	};
	f.recursive = calltree_wants_recursion(t) && calltree_on_stack(c, func);
	FtlCallNode *parent = calltree_caller(c);
	if (!t->focus) {
		f.node = calltree_child(t, parent, func);
	} else if (c->focus_level >= 0) {
		f.node = parent ? calltree_child(t, parent, func) : NULL;
	} else if (func == t->focus) {
		c->focus_level = (gint)c->frames.len;
		f.node = calltree_child(t, c->group, func);
	}
	calltree_push(t, c, &f, ev);
}

/* An interrupt: an "[irq]" frame on top of what it interrupted. */
static void calltree_irq_enter(FtlCallTree *t, CallCtx *c, const FtlEvent *ev)
{
	const CallFrame *top = c->frames.len ? &c->frames.v[c->frames.len - 1] : NULL;
	CallFrame f = {
		.func = CALLTREE_IRQ,
		.depth = top ? top->depth : -1,
		.entry_ts = ev->ts,
		.line = ev->line,
		.irq = TRUE,
	};
	FtlCallNode *parent = top ? top->node : c->group;
	if (parent && (!t->focus || c->focus_level >= 0))
		f.node = calltree_child(t, parent, CALLTREE_IRQ);
	calltree_push(t, c, &f, ev);
}

/* The interrupt returns: what it left open never returned. */
static void calltree_irq_exit(FtlCallTree *t, CallCtx *c, const FtlEvent *ev)
{
	gint i = (gint)c->frames.len - 1;
	while (i >= 0 && !c->frames.v[i].irq)
		i--;
	if (i < 0)
		return; /* the interrupt began before the trace */
	while ((gint)c->frames.len - 1 > i)
		calltree_pop(t, c, FTL_TS_NONE, FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED, ev);
	const CallFrame *f = &c->frames.v[i];
	gint64 dur = FTL_TS_NONE;
	if (f->entry_ts != FTL_TS_NONE && ev->ts != FTL_TS_NONE && ev->ts >= f->entry_ts &&
	    !(ev->flags & FTL_EVENT_F_TS_COUNTER))
		dur = calltree_elapsed(t, ev, f->entry_ts);
	calltree_pop(t, c, dur, 0, ev);
}

static void calltree_exit(FtlCallTree *t, CallCtx *c, const FtlEvent *ev)
{
	gint depth = calltree_depth(ev);
	const char *name = ev->u.graph.func;
	/* Find the frame this exit closes: same depth (and name, when printed
	 * and known). */
	gint match = -1;
	for (gint i = (gint)c->frames.len - 1; i >= 0; i--) {
		const CallFrame *f = &c->frames.v[i];
		if (f->irq)
			continue;
		if (f->depth == depth && (!name || f->inferred || f->func == name)) {
			match = i;
			break;
		}
		if (f->depth < depth)
			break;
	}
	if (match < 0) {
		/* No frame: the trace began inside this call (or its entry was
		 * lost). It is inferred, with what is open below it on an empty
		 * stack, and closed by this exit. */
		calltree_unwind(t, c, depth, FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED, ev);
		if (c->frames.len)
			calltree_infer(t, c, depth, depth + 1, ev);
		else
			calltree_infer_below(t, c, depth + 1, ev);
		if (!c->frames.len) /* a negative depth: nothing to close */
			return;
	} else if (match != (gint)c->frames.len - 1) {
		calltree_diag(t, FTL_DIAG_DEPTH_JUMP, ev, "exit skips open calls");
		calltree_unwind(t, c, depth, FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED, ev);
	}
	CallFrame *f = &c->frames.v[c->frames.len - 1];
	if (f->inferred) {
		calltree_close_inferred(t, c, ev);
		return;
	}
	gint64 dur = ev->u.graph.duration;
	if (dur == FTL_TS_NONE && f->entry_ts != FTL_TS_NONE && ev->ts != FTL_TS_NONE &&
	    ev->ts >= f->entry_ts && !(ev->flags & FTL_EVENT_F_TS_COUNTER))
		dur = calltree_elapsed(t, ev, f->entry_ts);
	calltree_pop(t, c, dur, 0, ev);
}

void ftl_calltree_feed(FtlCallTree *t, const FtlEvent *ev)
{
	switch (ev->kind) {
	case FTL_EVENT_FUNC_ENTRY:
		calltree_entry(t, calltree_ctx(t, ev), ev);
		break;
	case FTL_EVENT_FUNC_EXIT:
		calltree_exit(t, calltree_ctx(t, ev), ev);
		break;
	case FTL_EVENT_IRQ_ENTRY:
		if (t->irq_frames)
			calltree_irq_enter(t, calltree_ctx(t, ev), ev);
		break;
	case FTL_EVENT_IRQ_EXIT:
		if (t->irq_frames)
			calltree_irq_exit(t, calltree_ctx(t, ev), ev);
		break;
	case FTL_EVENT_LOST: {
		/* The stacks of whatever ran on that CPU can no longer be trusted. */
		GHashTableIter it;
		gpointer v;
		g_hash_table_iter_init(&it, t->ctxs);
		while (g_hash_table_iter_next(&it, NULL, &v)) {
			CallCtx *c = v;
			if (c->cpu == ev->cpu && c->frames.len) {
				calltree_unwind(t, c, -1, FTL_CALL_F_OPEN | FTL_CALL_F_REPAIRED,
						ev);
				calltree_diag(t, FTL_DIAG_DEPTH_JUMP, ev,
					      "stack reset by lost events");
			}
		}
		break;
	}
	default:
		break;
	}
}

static gint calltree_node_cmp(gconstpointer pa, gconstpointer pb, gpointer unused)
{
	(void)unused;
	const FtlCallNode *a = *(FtlCallNode *const *)pa, *b = *(FtlCallNode *const *)pb;
	if (a->total_ns != b->total_ns)
		return a->total_ns > b->total_ns ? -1 : 1;
	if (a->calls != b->calls)
		return a->calls > b->calls ? -1 : 1;
	return strcmp(a->func, b->func);
}

/* Sorts every sibling list, without recursion. g_qsort_with_data() is a
 * stable merge sort: the order an insertion sort gave, in n log n for the
 * wide nodes a hostile trace makes. */
static void calltree_sort(FtlCallNode *root)
{
	g_autoptr(GPtrArray) stack = g_ptr_array_new();
	g_autoptr(GPtrArray) kids = g_ptr_array_new();
	g_ptr_array_add(stack, root);
	while (stack->len) {
		FtlCallNode *n = g_ptr_array_steal_index(stack, stack->len - 1);
		g_ptr_array_set_size(kids, 0);
		for (FtlCallNode *c = n->child; c; c = c->next)
			g_ptr_array_add(kids, c);
		if (kids->len > 1) {
			g_qsort_with_data(kids->pdata, (gint)kids->len, sizeof(gpointer),
					  calltree_node_cmp, NULL);
			for (guint i = 0; i < kids->len; i++)
				((FtlCallNode *)kids->pdata[i])->next =
					i + 1 < kids->len ? kids->pdata[i + 1] : NULL;
			n->child = kids->pdata[0];
		}
		for (FtlCallNode *c = n->child; c; c = c->next)
			g_ptr_array_add(stack, c);
	}
}

static void calltree_sum_groups(FtlCallNode *n, gboolean lean)
{
	/* group nodes (and the root) have no calls of their own: show their children's sum */
	for (FtlCallNode *c = n->child; c; c = c->next) {
		if (c->calls == 0 && c->child)
			calltree_sum_groups(c, lean);
		n->span_ns = ftl_sat_add_i64(n->span_ns, c->span_ns);
		n->calls += c->calls;
		if (!lean) {
			n->total_ns = ftl_sat_add_i64(n->total_ns, c->total_ns);
			n->timed += c->timed;
		}
	}
}

/* calltree_sum_groups() for a lean tree */
static void lean_sum_groups(LeanTree *L, guint32 n)
{
	gint64 span, cspan;
	guint64 calls, ccalls;
	lean_get(L, n, &span, &calls);
	for (guint32 c = L->v[n].child; c; c = L->v[c].next) {
		lean_get(L, c, &cspan, &ccalls);
		if (ccalls == 0 && L->v[c].child) {
			lean_sum_groups(L, c);
			lean_get(L, c, &cspan, &ccalls);
		}
		span = ftl_sat_add_i64(span, cspan);
		calls += ccalls;
	}
	lean_set(L, n, span, calls);
}

void ftl_calltree_finish(FtlCallTree *t)
{
	GHashTableIter it;
	gpointer v;
	g_autoptr(GPtrArray) ctxs = g_ptr_array_new();
	g_hash_table_iter_init(&it, t->ctxs);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(ctxs, v);
	for (guint i = 0; i < ctxs->len; i++) {
		CallCtx *c = g_ptr_array_index(ctxs, i);
		guint n_open = 0;
		for (guint k = 0; k < c->frames.len; k++)
			n_open += !c->frames.v[k].inferred;
		if (n_open && t->diags)
			ftl_diags_add(t->diags, FTL_DIAG_OPEN_AT_END, &(FtlDiagLoc){ NULL, 0, c->cpu },
				      NULL, 0, n_open);
		calltree_unwind(t, c, -1, FTL_CALL_F_OPEN, NULL);
	}
	if (t->lean) {
		lean_sum_groups(t->lean_tree, 1);
		lean_get(t->lean_tree, 1, &t->root.span_ns, &t->root.calls);
		return;
	}
	calltree_sum_groups(&t->root, t->lean);
	calltree_sort(&t->root);
}

const FtlCallNode *ftl_calltree_root(const FtlCallTree *t)
{
	return &t->root;
}

const FtlCallNode *ftl_calltree_top(const FtlCallTree *t)
{
	return t->top;
}

const FtlCallNode *ftl_calltree_node_child(const FtlCallTree *t, const FtlCallNode *n)
{
	return t->lean ? lean_ref(t->lean_tree->v[lean_ix(n)].child) : n->child;
}

const FtlCallNode *ftl_calltree_node_next(const FtlCallTree *t, const FtlCallNode *n)
{
	return t->lean ? lean_ref(t->lean_tree->v[lean_ix(n)].next) : n->next;
}

const char *ftl_calltree_node_func(const FtlCallTree *t, const FtlCallNode *n)
{
	return calltree_func(t, n);
}

void ftl_calltree_node_counts(const FtlCallTree *t, const FtlCallNode *n, guint64 *calls,
			      gint64 *span_ns)
{
	if (t->lean) {
		lean_get(t->lean_tree, lean_ix(n), span_ns, calls);
	} else {
		*calls = n->calls;
		*span_ns = n->span_ns;
	}
}

guint64 ftl_calltree_n_calls(const FtlCallTree *t)
{
	return t->n_calls;
}

guint64 ftl_calltree_n_repaired(const FtlCallTree *t)
{
	return t->n_repaired;
}

/* A node's span is what its calls took; its children's spans are what their
 * calls took, each given to the call it was made from (calls merged into
 * "(deeper)" bring no children of their own; a dissolved inferred call
 * gives its children to its caller, whose span is then theirs or more). So
 * when no call's children outweigh it, no node's children do. */
gboolean ftl_calltree_sound(const FtlCallTree *t)
{
	return !t->unsound;
}

/* ftl_calltree_feed()'s kinds */
FTL_CONSUMER_DEFINE_KINDS(calltree, FtlCallTree,
			  FTL_PASS_KIND(FTL_EVENT_FUNC_ENTRY) | FTL_PASS_KIND(FTL_EVENT_FUNC_EXIT) |
				  FTL_PASS_KIND(FTL_EVENT_IRQ_ENTRY) |
				  FTL_PASS_KIND(FTL_EVENT_IRQ_EXIT) |
				  FTL_PASS_KIND(FTL_EVENT_LOST));
