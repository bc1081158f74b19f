/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flame trees: merged weighted paths from calls, stack samples, function
 * samples or folded stacks, and the difference of two of them. */
#include "analysis/flame.h"

#include <math.h>
#include <string.h>

#include "model/event.h"
#include "util/arena.h"
#include "util/pairmap.h"
#include "util/strpool.h"
#include "util/checked.h"

struct _FtlFlame {
	FtlFlameUnit unit;
	FtlFlameNode root;
	/* the nodes: a merged tree's are all made by ftl_flame_child(), under
	 * their parent, so the arena holds them parents first and finish sums
	 * them in one backward sweep over it */
	FtlArena arena;
	/* names of nodes made by ftl_flame_paths_add() while the paths come
	 * in name order, copied rather than interned until they last */
	FtlArena name_bytes;
	FtlPairMap kids; /* (parent, interned name) -> FtlFlameNode* */
	FtlStrPool *names;
	FtlPairMap copied; /* ftl_flame_add_calltree(): (call tree name, NULL) -> ours */
	guint64 n_nodes;
	gboolean chart, finished;
	gint64 t0, span;
};

FtlFlame *ftl_flame_new(FtlFlameUnit unit)
{
	FtlFlame *f = g_new0(FtlFlame, 1);
	f->unit = unit;
	ftl_arena_init(&f->arena);
	ftl_arena_init(&f->name_bytes);
	ftl_pairmap_init(&f->kids);
	ftl_pairmap_init(&f->copied);
	f->names = ftl_strpool_new_local();
	f->root.name = "all";
	f->root.name_len = 3;
	f->root.kind = FTL_FLAME_ROOT;
	f->root.sorted = TRUE;
	f->root.in_a = f->root.in_b = TRUE;
	return f;
}

void ftl_flame_free(FtlFlame *f)
{
	if (!f)
		return;
	ftl_arena_clear(&f->arena);
	ftl_arena_clear(&f->name_bytes);
	ftl_pairmap_clear(&f->kids);
	ftl_pairmap_clear(&f->copied);
	ftl_strpool_free(f->names);
	g_free(f);
}

FtlFlameUnit ftl_flame_unit(const FtlFlame *f)
{
	return f->unit;
}

FtlFlameNode *ftl_flame_root(FtlFlame *f)
{
	return &f->root;
}

guint64 ftl_flame_n_nodes(const FtlFlame *f)
{
	return f->n_nodes;
}

/* Nodes lie back to back in the arena at this stride; what the sweeps read
 * is in a node's first cache line. */
#define FLAME_NODE_SIZE ((sizeof(FtlFlameNode) + 15) & ~(gsize)15)
G_STATIC_ASSERT(G_STRUCT_OFFSET(FtlFlameNode, other) == 64 && FLAME_NODE_SIZE == 128);

static FtlFlameNode *flame_node_alloc(FtlFlame *f)
{
	f->n_nodes++;
	return ftl_arena_alloc0(&f->arena, FLAME_NODE_SIZE);
}

/* Names are interned in the tree, so that a pointer compares a name; a
 * name ends at a NUL byte. */
static const char *flame_intern(FtlFlame *f, const char *name, gssize len)
{
	return ftl_strpool_intern_len(f->names, name,
				      len < 0 ? strlen(name) : strnlen(name, (gsize)len));
}

/* Orders names a[0..la) and b[0..lb) (no NUL bytes) as sorted folded lines
 * order them: a name ends in ';'. */
static int flame_name_order(const char *a, gsize la, const char *b, gsize lb)
{
	gsize m = MIN(la, lb);
	int c = memcmp(a, b, m);
	if (c)
		return c < 0 ? -1 : 1;
	if (la == lb)
		return 0;
	unsigned char x = la > m ? (unsigned char)a[m] : ';';
	unsigned char y = lb > m ? (unsigned char)b[m] : ';';
	if (x != y)
		return x < y ? -1 : 1;
	return la > lb ? 1 : -1;
}

static int flame_name_cmp(gconstpointer pa, gconstpointer pb, gpointer unused)
{
	(void)unused;
	const FtlFlameNode *a = *(FtlFlameNode *const *)pa, *b = *(FtlFlameNode *const *)pb;
	return flame_name_order(a->name, a->name_len, b->name, b->name_len);
}

/* The child of parent named by the interned name, made when absent. New
 * children go last; while they come in name order (sorted folded lines,
 * pre-order copies) a name after the last child's is known to be new, with
 * no lookup, and finish need not sort them. */
static FtlFlameNode *flame_child_interned(FtlFlame *f, FtlFlameNode *parent, const char *name,
					  gsize len, FtlFlameKind kind)
{
	FtlFlameNode *n, *tail = parent->last;
	gboolean fresh = !tail;
	if (tail && parent->sorted) {
		int c = flame_name_order(tail->name, tail->name_len, name, len);
		if (c == 0)
			return parent->last_child = tail;
		fresh = c < 0;
	}
	if (fresh) {
		/* after every child there is */
	} else if (parent->n_kids <= FTL_PAIRMAP_SCAN) {
		for (n = parent->child; n; n = n->next)
			if (n->name == name)
				return parent->last_child = n;
	} else if ((n = ftl_pairmap_get(&f->kids, parent, name))) {
		return parent->last_child = n;
	}
	n = flame_node_alloc(f);
	n->name = name;
	n->name_len = (guint32)len;
	n->parent = parent;
	n->depth = parent->depth + 1;
	n->kind = (guint8)kind;
	n->sorted = TRUE;
	if (tail)
		tail->next = n;
	else
		parent->child = n;
	parent->last = n;
	parent->sorted = (guint8)fresh;
	if (++parent->n_kids == FTL_PAIRMAP_SCAN + 1) {
		/* wide from now on: all its children go in the map */
		for (FtlFlameNode *c = parent->child; c; c = c->next)
			ftl_pairmap_put(&f->kids, parent, c->name, c);
	} else if (parent->n_kids > FTL_PAIRMAP_SCAN) {
		ftl_pairmap_put(&f->kids, parent, name, n);
	}
	return parent->last_child = n;
}

FtlFlameNode *ftl_flame_child(FtlFlame *f, FtlFlameNode *parent, const char *name, gssize len,
			      FtlFlameKind kind)
{
	if (len < 0)
		len = (gssize)strlen(name);
	/* Paths repeat their prefixes (sorted folded lines, a caller's calls):
	 * the child found last is checked before the name is interned. */
	FtlFlameNode *last = parent->last_child;
	if (last && last->name_len == (gsize)len && memcmp(last->name, name, (gsize)len) == 0)
		return last;
	const char *interned = flame_intern(f, name, len);
	return flame_child_interned(f, parent, interned, strlen(interned), kind);
}

FtlFlameNode *ftl_flame_node_new(FtlFlame *f, const char *name, gssize len, FtlFlameKind kind)
{
	FtlFlameNode *n = flame_node_alloc(f);
	n->name = flame_intern(f, name, len);
	n->name_len = (guint32)strlen(n->name);
	n->kind = (guint8)kind;
	return n;
}

void ftl_flame_node_set_children(FtlFlameNode *parent, FtlFlameNode *const *v, guint n)
{
	parent->child = n ? v[0] : NULL;
	parent->last = n ? v[n - 1] : NULL;
	parent->sorted = n < 2;
	for (guint i = 0; i < n; i++) {
		v[i]->parent = parent;
		v[i]->next = i + 1 < n ? v[i + 1] : NULL;
	}
}

void ftl_flame_set_chart(FtlFlame *f)
{
	f->chart = TRUE;
	/* a node per call: as big as a call tree gets (merged trees stay small) */
	ftl_arena_set_prefault(&f->arena);
}

gboolean ftl_flame_is_chart(const FtlFlame *f)
{
	return f->chart;
}

void ftl_flame_set_span(FtlFlame *f, gint64 t0, gint64 span)
{
	f->t0 = t0;
	f->span = span;
}

gint64 ftl_flame_span(const FtlFlame *f, gint64 *t0)
{
	if (t0)
		*t0 = f->t0;
	return f->span;
}

void ftl_flame_add(FtlFlame *f, FtlFlameNode *node, gint64 weight, guint64 calls)
{
	(void)f;
	node->self += weight;
	node->calls += calls;
}

/* A call tree's names are interned in the trace: each is interned here
 * once, found again by its pointer. */
static FtlFlameNode *flame_copy_child(FtlFlame *f, FtlFlameNode *to, const char *func,
				      FtlFlameKind kind)
{
	const char *name = ftl_pairmap_get(&f->copied, func, NULL);
	if (!name) {
		name = ftl_strpool_intern(f->names, func);
		ftl_pairmap_put(&f->copied, func, NULL, (gpointer)name);
	}
	return flame_child_interned(f, to, name, strlen(name), kind);
}

/* The weight a call node's flame node gets: its span and, where a damaged
 * trace has children that outweigh their parent, what its children weigh
 * (a frame is as wide as its calls took, or its children together when
 * they are wider). Read only. */
static gint64 flame_calls_value(const FtlCallTree *t, const FtlCallNode *from)
{
	gint64 kid_values = 0, span;
	guint64 calls;
	for (const FtlCallNode *c = ftl_calltree_node_child(t, from); c;
	     c = ftl_calltree_node_next(t, c))
		kid_values += flame_calls_value(t, c);
	ftl_calltree_node_counts(t, from, &calls, &span);
	return MAX(span, kid_values);
}

/* Copies from's children under to. A child lighter than min (never drawn:
 * the layout merges it and never looks below it) is copied as a leaf whose
 * own weight is its subtree's: the nodes a drawing never reads are not
 * made. Call tree children are unique by name, so each flame node comes
 * from one call node and a leaf is never given children by another. In a
 * sound call tree (ftl_calltree_sound) a subtree weighs its root's span:
 * the leaves' subtrees, most of the tree, are never walked. */
static gint64 flame_copy_calls(FtlFlame *f, FtlFlameNode *to, const FtlCallTree *t,
			       const FtlCallNode *from, gboolean groups, gint64 min, gboolean sound)
{
	gint64 kids = 0; /* what from's children weigh, as flame_calls_value() */
	for (const FtlCallNode *c = ftl_calltree_node_child(t, from); c;
	     c = ftl_calltree_node_next(t, c)) {
		const char *func = ftl_calltree_node_func(t, c);
		FtlFlameKind kind = groups			 ? FTL_FLAME_GROUP
				    : strcmp(func, "[irq]") == 0 ? FTL_FLAME_IRQ
								 : FTL_FLAME_FRAME;
		FtlFlameNode *n = flame_copy_child(f, to, func, kind);
		guint64 calls;
		gint64 span;
		ftl_calltree_node_counts(t, c, &calls, &span);
		n->calls += calls;
		guint64 n_open, n_orphan;
		ftl_calltree_node_repairs(t, c, &n_open, &n_orphan);
		n->n_open += n_open;
		n->n_orphan += n_orphan;
		gint64 v;
		if (!groups && span < min && ftl_calltree_node_child(t, c) &&
		    (v = sound ? span : flame_calls_value(t, c)) < min)
			n->self += v;
		else
			v = flame_copy_calls(f, n, t, c, FALSE, min, sound);
		kids += v;
	}
	if (to->kind == FTL_FLAME_ROOT || to->kind == FTL_FLAME_GROUP)
		return kids;
	guint64 calls;
	gint64 span;
	ftl_calltree_node_counts(t, from, &calls, &span);
	to->self += MAX(span - kids, 0);
	return MAX(span, kids);
}

void ftl_flame_add_calltree(FtlFlame *f, const FtlCallTree *t, gboolean groups)
{
	flame_copy_calls(f, &f->root, t, ftl_calltree_top(t), groups, 0, FALSE);
}

/* Puts n's children in name order. g_qsort_with_data() is stable, but
 * siblings' names differ, so the order is the same whatever they came in. */
static void flame_sort(FtlFlameNode *n, GPtrArray *scratch)
{
	g_ptr_array_set_size(scratch, 0);
	for (FtlFlameNode *c = n->child; c; c = c->next)
		g_ptr_array_add(scratch, c);
	g_qsort_with_data(scratch->pdata, (gint)scratch->len, sizeof(gpointer), flame_name_cmp,
			  NULL);
	for (guint i = 0; i + 1 < scratch->len; i++)
		((FtlFlameNode *)scratch->pdata[i])->next = scratch->pdata[i + 1];
	FtlFlameNode *last = scratch->pdata[scratch->len - 1];
	last->next = NULL;
	n->child = scratch->pdata[0];
	n->last = last;
	n->sorted = TRUE;
}

/* Whether the root and group nodes, which have no calls of their own,
 * show their children's. */
static gboolean flame_sums_calls(const FtlFlameNode *n)
{
	return n->kind == FTL_FLAME_ROOT || n->kind == FTL_FLAME_GROUP;
}

/* A merged tree: every node was made under its parent, so the arena holds
 * parents before their children. One backward sweep over it visits every
 * node after its children have been added into it: it adds its own weight,
 * then adds itself into its parent. Only children that came out of name
 * order are sorted: no walk of the sibling lists, whose nodes lie far apart. */
static void flame_finish_merged(FtlFlame *f)
{
	g_autoptr(GPtrArray) scratch = g_ptr_array_new();
	/* the root and the groups (its children) show their children's calls */
	f->root.calls = 0;
	for (FtlFlameNode *g = f->root.child; g; g = g->next)
		if (flame_sums_calls(g))
			g->calls = 0;
	for (guint i = ftl_arena_n_chunks(&f->arena); i-- > 0;) {
		gsize used;
		char *chunk = ftl_arena_chunk(&f->arena, i, &used);
		for (gsize off = used; off >= FLAME_NODE_SIZE;) {
			off -= FLAME_NODE_SIZE;
			FtlFlameNode *n = (FtlFlameNode *)(void *)(chunk + off), *p = n->parent;
			if (!n->sorted)
				flame_sort(n, scratch);
			n->value += n->self;
			p->value += n->value;
			if (flame_sums_calls(p))
				p->calls += n->calls;
		}
	}
	if (!f->root.sorted)
		flame_sort(&f->root, scratch);
	f->root.value += f->root.self;
}

/* Charts link their nodes themselves: post-order without recursion, call
 * paths can be as deep as a damaged trace makes them. */
static void flame_finish_chart(FtlFlame *f)
{
	g_autoptr(GPtrArray) stack = g_ptr_array_new();
	g_ptr_array_add(stack, &f->root);
	g_autoptr(GPtrArray) order = g_ptr_array_new();
	while (stack->len) {
		FtlFlameNode *n = g_ptr_array_steal_index(stack, stack->len - 1);
		if (n->parent)
			n->depth = n->parent->depth + 1;
		g_ptr_array_add(order, n);
		for (FtlFlameNode *c = n->child; c; c = c->next)
			g_ptr_array_add(stack, c);
	}
	/* children before their parent: one pass sums values and, for the
	 * root and groups (no calls of their own), their children's calls */
	for (guint i = order->len; i-- > 0;) {
		FtlFlameNode *n = order->pdata[i];
		gint64 kids = 0;
		guint64 kid_calls = 0;
		for (FtlFlameNode *c = n->child; c; c = c->next) {
			kids += c->value;
			kid_calls += c->calls;
		}
		n->self = MAX(n->value - kids, 0);
		n->value = n->self + kids;
		if (flame_sums_calls(n))
			n->calls = kid_calls;
	}
}

void ftl_flame_finish(FtlFlame *f)
{
	if (f->finished)
		return;
	f->finished = TRUE;
	if (f->chart)
		flame_finish_chart(f);
	else
		flame_finish_merged(f);
}

/* ---- differential ---------------------------------------------------------- */

static void flame_diff_copy(FtlFlame *d, FtlFlameNode *to, const FtlFlameNode *from, gboolean is_a,
			    double scale)
{
	for (const FtlFlameNode *c = from->child; c; c = c->next) {
		FtlFlameNode *n = ftl_flame_child(d, to, c->name, -1, (FtlFlameKind)c->kind);
		if (is_a) {
			n->other += (gint64)((double)c->value * scale + 0.5);
			n->in_a = TRUE;
		} else {
			n->calls += c->calls;
			n->self += c->self;
			n->n_open += c->n_open;
			n->n_orphan += c->n_orphan;
			n->in_b = TRUE;
		}
		flame_diff_copy(d, n, c, is_a, scale);
	}
}

FtlFlame *ftl_flame_diff(const FtlFlame *a, const FtlFlame *b, gboolean normalize)
{
	FtlFlame *d = ftl_flame_new(b->unit);
	double scale = 1.0;
	if (normalize && a->root.value > 0)
		scale = (double)b->root.value / (double)a->root.value;
	flame_diff_copy(d, &d->root, &b->root, FALSE, scale);
	flame_diff_copy(d, &d->root, &a->root, TRUE, scale);
	d->root.other = (gint64)((double)a->root.value * scale + 0.5);
	ftl_flame_finish(d);
	return d;
}

/* ---- paths in tree order ---------------------------------------------------- */

/* The weight under which a frame is never drawn when the root weighs at
 * least total and frames narrower than fraction of the root are merged:
 * rounded down and one less, so that float rounding never makes it larger
 * than the drawing's threshold. 0: nothing is known to be too narrow. */
static gint64 flame_min_weight(gint64 total, double fraction)
{
	if (!(fraction > 0))
		return 0;
	double min = (double)total * fraction;
	return min >= 2 && min < 9e18 ? (gint64)floor(min) - 1 : 0;
}

/* One node of the last path and what is known of it while it is open. */
typedef struct {
	FtlFlameNode *node;
	gint64 sub;	   /* its subtree's weight so far */
	FtlArenaMark mark; /* the arena just after it was made: its subtree follows */
	FtlArenaMark name_mark; /* the same for the copied names */
	guint64 n_nodes;   /* the tree's node count then */
} FlamePathStep;

struct _FtlFlamePaths {
	FtlFlame *f;
	double min_fraction;
	gboolean fold;	  /* the paths came in tree order so far */
	gboolean copied;  /* the siblings came in name order so far: names are copied */
	gboolean broken;  /* a path came back to a folded subtree */
	guint64 n_folded; /* subtrees folded */
	gint64 total;	  /* the weight read so far */
	FlamePathStep *path; /* the last path */
	guint len, cap;
};

FtlFlamePaths *ftl_flame_paths_new(FtlFlame *f, double min_fraction)
{
	FtlFlamePaths *p = g_new0(FtlFlamePaths, 1);
	p->f = f;
	p->min_fraction = min_fraction;
	p->fold = p->copied = min_fraction > 0;
	return p;
}

guint64 ftl_flame_paths_n_folded(const FtlFlamePaths *p)
{
	return p->n_folded;
}

/* Closes the last path's nodes from the deepest up to (not including) keep:
 * their subtrees are complete. Each adds its subtree into its parent's; one
 * too light to draw loses its subtree, whose nodes (all made after it, as
 * the paths come in tree order) go back to the arena. */
static void flame_paths_close(FtlFlamePaths *p, guint keep)
{
	FtlFlame *f = p->f;
	gint64 min = flame_min_weight(p->total, p->min_fraction);
	for (guint i = p->len; i-- > keep;) {
		FlamePathStep *s = &p->path[i];
		FtlFlameNode *n = s->node;
		if (p->fold && n->child && s->sub < min) {
			ftl_arena_release(&f->arena, s->mark);
			ftl_arena_release(&f->name_bytes, s->name_mark);
			f->n_nodes = s->n_nodes;
			n->child = n->last = n->last_child = NULL;
			n->n_kids = 0;
			n->sorted = TRUE;
			n->self = s->sub;
			p->n_folded++;
		}
		if (i)
			p->path[i - 1].sub += s->sub;
	}
	p->len = MIN(keep, p->len);
}

/* While siblings come in name order, a child is new when its name sorts
 * after the last one's: it is made with its name copied next to the others,
 * which a fold gives back with the nodes, where interning it cost a hash
 * and a table probe for each of the many nodes that are folded away. NULL
 * when the name does not sort after the last child's. */
static FtlFlameNode *flame_paths_new_child(FtlFlame *f, FtlFlameNode *parent, FtlSlice s)
{
	gsize len = strnlen(s.p, s.len);
	FtlFlameNode *tail = parent->last;
	if (tail && (!parent->sorted ||
		     flame_name_order(tail->name, tail->name_len, s.p, len) >= 0))
		return NULL;
	char *name = ftl_arena_alloc0(&f->name_bytes, len + 1);
	memcpy(name, s.p, len);
	FtlFlameNode *n = flame_node_alloc(f);
	n->name = name;
	n->name_len = (guint32)len;
	n->parent = parent;
	n->depth = parent->depth + 1;
	n->kind = FTL_FLAME_FRAME;
	n->sorted = TRUE;
	if (tail)
		tail->next = n;
	else
		parent->child = n;
	parent->last = parent->last_child = n;
	parent->n_kids++;
	return n;
}

/* Interns the copied names and puts wide nodes' children in the lookup
 * map: from now on children are found as ftl_flame_child() finds them. */
static void flame_paths_intern(FtlFlamePaths *p)
{
	FtlFlame *f = p->f;
	p->copied = FALSE;
	if (f->root.n_kids > FTL_PAIRMAP_SCAN)
		for (FtlFlameNode *c = f->root.child; c; c = c->next)
			ftl_pairmap_put(&f->kids, &f->root, c->name, c);
	for (guint i = 0; i < ftl_arena_n_chunks(&f->arena); i++) {
		gsize used;
		char *chunk = ftl_arena_chunk(&f->arena, i, &used);
		for (gsize off = 0; off + FLAME_NODE_SIZE <= used; off += FLAME_NODE_SIZE) {
			FtlFlameNode *n = (FtlFlameNode *)(void *)(chunk + off);
			n->name = ftl_strpool_intern_len(f->names, n->name, n->name_len);
			if (n->parent->n_kids > FTL_PAIRMAP_SCAN)
				ftl_pairmap_put(&f->kids, n->parent, n->name, n);
		}
	}
}

void ftl_flame_paths_add(FtlFlamePaths *p, const FtlSlice *added, guint n_added, guint same,
			 gint64 weight)
{
	if (p->broken)
		return;
	FtlFlame *f = p->f;
	same = MIN(same, p->len);
	flame_paths_close(p, same);
	guint n = same + n_added;
	FtlFlameNode *node = same ? p->path[same - 1].node : &f->root;
	if (n > p->cap) {
		p->cap = MAX(n, 2 * p->cap);
		p->path = g_renew(FlamePathStep, p->path, p->cap);
	}
	for (guint i = same; i < n; i++) {
		guint64 before = f->n_nodes;
		const FtlSlice *fr = &added[i - same];
		FtlFlameNode *made = p->copied ? flame_paths_new_child(f, node, *fr) : NULL;
		if (!made && p->copied)
			flame_paths_intern(p);
		node = made ? made : ftl_flame_child(f, node, fr->p, fr->len, FTL_FLAME_FRAME);
		if (p->fold && f->n_nodes == before) {
			/* a subtree closed before is back: out of tree order */
			if (p->n_folded) {
				p->broken = TRUE;
				return;
			}
			p->fold = FALSE;
		}
		p->path[p->len++] = (FlamePathStep){ node, 0, ftl_arena_mark(&f->arena),
						     ftl_arena_mark(&f->name_bytes), f->n_nodes };
	}
	ftl_flame_add(f, node, weight, 1);
	if (n)
		p->path[n - 1].sub += weight;
	p->total = weight > G_MAXINT64 - p->total ? G_MAXINT64 : p->total + weight;
}

gboolean ftl_flame_paths_end(FtlFlamePaths *p)
{
	if (!p->broken)
		flame_paths_close(p, 0);
	if (p->copied)
		flame_paths_intern(p);
	/* every name is the pool's now */
	ftl_arena_clear(&p->f->name_bytes);
	ftl_arena_init(&p->f->name_bytes);
	gboolean ok = !p->broken;
	g_free(p->path);
	g_free(p);
	return ok;
}

/* ---- building from a trace ------------------------------------------------- */

static const char *const flame_from_names[] = { "auto", "calls", "stacks", "functions" };

gboolean ftl_flame_from_parse(const char *s, FtlFlameFrom *out)
{
	for (guint i = 0; i < G_N_ELEMENTS(flame_from_names); i++)
		if (strcmp(s, flame_from_names[i]) == 0) {
			*out = (FtlFlameFrom)i;
			return TRUE;
		}
	return FALSE;
}

const char *ftl_flame_from_name(FtlFlameFrom from)
{
	return (guint)from < G_N_ELEMENTS(flame_from_names) ? flame_from_names[from] : "?";
}

struct _FtlFlameBuild {
	FtlFlameBuildOptions opt;
	FtlCallTree *calls;
	FtlFlame *stacks;
	FtlFlame *functions;
	FtlFlame *from_calls; /* made at finish */
	FtlFlame *result;     /* borrowed: one of the three */
	FtlFlameFrom used;
	guint64 n_stacks, n_functions;
	guint64 lost, lost_lines;
	GString *scratch;
};

FtlFlameBuild *ftl_flame_build_new(const FtlFlameBuildOptions *opt)
{
	FtlFlameBuild *b = g_new0(FtlFlameBuild, 1);
	b->opt = *opt;
	if (opt->from == FTL_FLAME_FROM_AUTO || opt->from == FTL_FLAME_FROM_CALLS) {
		b->calls = ftl_calltree_new(opt->group, opt->diags);
		/* copied into a flame tree: only its shape, calls and spans count */
		ftl_calltree_set_lean(b->calls);
		ftl_calltree_set_irq_frames(b->calls);
		if (opt->function)
			ftl_calltree_set_focus(b->calls, opt->function);
	}
	b->stacks = ftl_flame_new(FTL_FLAME_UNIT_SAMPLES);
	b->functions = ftl_flame_new(FTL_FLAME_UNIT_SAMPLES);
	b->scratch = g_string_new(NULL);
	return b;
}

void ftl_flame_build_free(FtlFlameBuild *b)
{
	if (!b)
		return;
	ftl_calltree_free(b->calls);
	ftl_flame_free(b->stacks);
	ftl_flame_free(b->functions);
	ftl_flame_free(b->from_calls);
	g_string_free(b->scratch, TRUE);
	g_free(b);
}

/* The tower an event belongs to: its task or CPU (or the root). */
static FtlFlameNode *flame_group(FtlFlameBuild *b, FtlFlame *f, const FtlEvent *ev)
{
	FtlFlameNode *root = ftl_flame_root(f);
	if (b->opt.group == FTL_CALLTREE_GROUP_NONE)
		return root;
	g_string_truncate(b->scratch, 0);
	if (b->opt.group == FTL_CALLTREE_GROUP_CPU)
		g_string_printf(b->scratch, "CPU %d", ev->cpu);
	else
		g_string_printf(b->scratch, "%s-%d", ev->comm ? ev->comm : "<...>", ev->pid);
	return ftl_flame_child(f, root, b->scratch->str, (gssize)b->scratch->len, FTL_FLAME_GROUP);
}

/* A stack frame without "+0x1a/0x40": the same function merges. */
static guint32 flame_frame_len(FtlSlice s)
{
	for (guint32 i = 0; i + 2 < s.len; i++)
		if (s.p[i] == '+' && s.p[i + 1] == '0' && s.p[i + 2] == 'x')
			return i;
	return s.len;
}

static gboolean flame_is_focus(const FtlFlameBuild *b, const char *p, guint32 len)
{
	return strlen(b->opt.function) == len && memcmp(p, b->opt.function, len) == 0;
}

static void flame_add_stack(FtlFlameBuild *b, const FtlEvent *ev)
{
	guint n = ev->u.stack.n_frames;
	if (!n)
		return;
	/* frames come innermost first; a flame grows from the outermost */
	guint first = n;
	if (b->opt.function) {
		for (guint i = n; i-- > 0;)
			if (flame_is_focus(b, ev->u.stack.frames[i].p,
					   flame_frame_len(ev->u.stack.frames[i]))) {
				first = i + 1;
				break;
			}
		if (first == n)
			return;
	}
	FtlFlameNode *node = flame_group(b, b->stacks, ev);
	for (guint i = first; i-- > 0;) {
		FtlSlice s = ev->u.stack.frames[i];
		node = ftl_flame_child(b->stacks, node, s.p, flame_frame_len(s), FTL_FLAME_FRAME);
	}
	ftl_flame_add(b->stacks, node, 1, 1);
	b->n_stacks++;
}

static void flame_add_function(FtlFlameBuild *b, const FtlEvent *ev)
{
	const char *func = ev->u.fn.func, *parent = ev->u.fn.parent;
	if (!func)
		return;
	if (b->opt.function && func != b->opt.function && parent != b->opt.function)
		return;
	FtlFlameNode *node = flame_group(b, b->functions, ev);
	if (parent && !(b->opt.function && func == b->opt.function))
		node = ftl_flame_child(b->functions, node, parent, -1, FTL_FLAME_FRAME);
	node = ftl_flame_child(b->functions, node, func, -1, FTL_FLAME_FRAME);
	ftl_flame_add(b->functions, node, 1 + (gint64)ev->u.fn.repeats, 1 + ev->u.fn.repeats);
	b->n_functions++;
}

void ftl_flame_build_feed(FtlFlameBuild *b, const FtlEvent *ev)
{
	if (ev->kind == FTL_EVENT_LOST) {
		/* lost events are counted wherever they fall: they damage any window */
		b->lost = ftl_sat_add_u64(b->lost, ev->u.lost.count);
		b->lost_lines++;
	}
	if (b->opt.spans) {
		ftl_spans_feed(b->opt.spans, ev);
		if (!ftl_spans_n_open(b->opt.spans))
			return;
	}
	switch (ev->kind) {
	case FTL_EVENT_STACK:
		if (b->opt.from == FTL_FLAME_FROM_AUTO || b->opt.from == FTL_FLAME_FROM_STACKS)
			flame_add_stack(b, ev);
		break;
	case FTL_EVENT_FUNC:
		if (b->opt.from == FTL_FLAME_FROM_AUTO || b->opt.from == FTL_FLAME_FROM_FUNCTIONS)
			flame_add_function(b, ev);
		break;
	default:
		if (b->calls)
			ftl_calltree_feed(b->calls, ev);
		break;
	}
}

/* The weight under which a frame is never drawn, at most: the drawing's
 * threshold is its share of the root's weight, which is at least the call
 * tree's total span (more where children outweigh a parent); rounded down
 * and one less, so that float rounding never makes it larger. */
static gint64 flame_build_min(const FtlFlameBuild *b)
{
	return flame_min_weight(ftl_calltree_root(b->calls)->span_ns, b->opt.min_fraction);
}

void ftl_flame_build_finish(FtlFlameBuild *b)
{
	if (b->opt.spans)
		ftl_spans_finish(b->opt.spans);
	ftl_flame_finish(b->stacks);
	ftl_flame_finish(b->functions);
	FtlFlameFrom from = b->opt.from;
	if (b->calls) {
		ftl_calltree_finish(b->calls);
		if (from == FTL_FLAME_FROM_AUTO && ftl_calltree_n_calls(b->calls))
			from = FTL_FLAME_FROM_CALLS;
	}
	if (from == FTL_FLAME_FROM_AUTO)
		from = b->n_stacks	? FTL_FLAME_FROM_STACKS
		       : b->n_functions ? FTL_FLAME_FROM_FUNCTIONS
					: FTL_FLAME_FROM_CALLS;
	b->used = from;
	if (from == FTL_FLAME_FROM_STACKS) {
		b->result = b->stacks;
	} else if (from == FTL_FLAME_FROM_FUNCTIONS) {
		b->result = b->functions;
	} else {
		b->from_calls = ftl_flame_new(FTL_FLAME_UNIT_NS);
		if (b->calls)
			flame_copy_calls(b->from_calls, &b->from_calls->root, b->calls,
					 ftl_calltree_top(b->calls),
					 b->opt.group != FTL_CALLTREE_GROUP_NONE,
					 flame_build_min(b), ftl_calltree_sound(b->calls));
		ftl_flame_finish(b->from_calls);
		b->result = b->from_calls;
	}
}

FtlFlame *ftl_flame_build_tree(FtlFlameBuild *b)
{
	return b->result;
}

FtlFlameFrom ftl_flame_build_from(const FtlFlameBuild *b)
{
	return b->used;
}

guint64 ftl_flame_build_lost(const FtlFlameBuild *b, guint64 *lines)
{
	if (lines)
		*lines = b->lost_lines;
	return b->lost;
}

guint64 ftl_flame_build_repaired(const FtlFlameBuild *b)
{
	return b->calls ? ftl_calltree_n_repaired(b->calls) : 0;
}

FTL_CONSUMER_DEFINE(flame_build, FtlFlameBuild);
