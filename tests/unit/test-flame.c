/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Flame trees built from paths in tree order: folding subtrees too narrow to
 * draw keeps every weight exact and the drawing byte for byte the same. */
#include "config.h"

#include <libxml/parser.h>
#include <libxml/tree.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/flame.h"
#include "evbuild.h"
#include "unit.h"
#include "views/svg-flame.h"

#define NONE FTL_TS_NONE

/* What cmd-flame folds with at the default 0.1 px of a 1200 px image. */
#define FOLD_FRACTION (0.1 / (1200 - 20))

typedef struct {
	GPtrArray *paths; /* GStrv each, outermost frame first */
	GArray *weights;  /* gint64 */
	gint64 total;
} Paths;

static void paths_clear(Paths *p)
{
	g_ptr_array_unref(p->paths);
	g_array_unref(p->weights);
}

static void paths_push(Paths *p, GPtrArray *stack, gint64 w)
{
	GStrv v = g_new0(char *, stack->len + 1);
	for (guint i = 0; i < stack->len; i++)
		v[i] = g_strdup(stack->pdata[i]);
	g_ptr_array_add(p->paths, v);
	g_array_append_val(p->weights, w);
	p->total += w;
}

/* Weights from 1 to about 10^9, spread evenly in their logarithm: most
 * subtrees are far too narrow to draw, some are most of the image. */
static gint64 random_weight(GRand *r)
{
	return (gint64)pow(10, g_rand_double_range(r, 0, 9)) + 1;
}

static gint name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A random subtree under the frames on stack, its paths in pre-order and
 * its children in name order (as sorted folded lines have them) or, unless
 * sorted, in a random order. */
static void random_subtree(Paths *p, GRand *r, GPtrArray *stack, guint depth, gboolean sorted)
{
	if (stack->len && g_rand_int_range(r, 0, 3) > 0)
		paths_push(p, stack, random_weight(r));
	guint kids = depth >= 7 ? 0 : (guint)g_rand_int_range(r, 0, depth < 2 ? 14 : 5);
	gboolean used[40] = { FALSE };
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);
	for (guint k = 0; k < kids; k++) {
		guint name = (guint)g_rand_int_range(r, 0, 40);
		if (!used[name]) /* siblings have distinct names */
			g_ptr_array_add(names, g_strdup_printf("fn_%u", name));
		used[name] = TRUE;
	}
	if (sorted)
		g_ptr_array_sort(names, name_cmp);
	for (guint k = 0; k < names->len; k++) {
		g_ptr_array_add(stack, g_strdup(names->pdata[k]));
		random_subtree(p, r, stack, depth + 1, sorted);
		g_free(g_ptr_array_steal_index(stack, stack->len - 1));
	}
	if (!stack->len && !p->paths->len)
		paths_push(p, stack, 1);
}

/* Feeds the paths as the folded reader does: frames as slices, with how
 * many the previous path shares. */
static gboolean paths_build(const Paths *p, FtlFlame *f, double fraction, guint64 *n_folded)
{
	FtlFlamePaths *fp = ftl_flame_paths_new(f, fraction);
	GStrv prev = NULL;
	for (guint i = 0; i < p->paths->len; i++) {
		GStrv v = p->paths->pdata[i];
		guint n = g_strv_length(v), same = 0;
		while (prev && same < n && prev[same] && !strcmp(prev[same], v[same]))
			same++;
		FtlSlice *s = g_new(FtlSlice, n + 1);
		for (guint j = 0; j < n; j++)
			s[j] = (FtlSlice){ v[j], (guint32)strlen(v[j]) };
		ftl_flame_paths_add(fp, s + same, n - same, same,
				    g_array_index(p->weights, gint64, i));
		g_free(s);
		prev = v;
	}
	if (n_folded)
		*n_folded = ftl_flame_paths_n_folded(fp);
	gboolean ok = ftl_flame_paths_end(fp);
	ftl_flame_finish(f);
	return ok;
}

/* b is a (unfolded) with narrow subtrees folded: the same nodes with the
 * same weights, except that a folded node has no children, weighs under
 * min and has its subtree's weight as its own. Counts the folded nodes. */
static gboolean same_but_folded(const FtlFlameNode *a, const FtlFlameNode *b, gint64 min,
				guint *folded)
{
	if (strcmp(a->name, b->name) || a->value != b->value || a->calls != b->calls)
		return FALSE;
	if (a->child && !b->child) {
		(*folded)++;
		return a->value < min && b->self == a->value;
	}
	if (a->self != b->self)
		return FALSE;
	const FtlFlameNode *x = a->child, *y = b->child;
	for (; x && y; x = x->next, y = y->next)
		if (!same_but_folded(x, y, min, folded))
			return FALSE;
	return !x && !y;
}

static char *svg_text(FtlFlame *f, double minwidth_px, double minwidth_pct)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	FtlFlameSvgOptions o = { .minwidth_px = minwidth_px,
				 .minwidth_pct = minwidth_pct,
				 .title = "t",
				 .input_label = "paths" };
	g_autoptr(GError) error = NULL;
	gboolean ok = ftl_flame_svg_write(f, &o, out, NULL, &error);
	fclose(out);
	if (!ok) {
		fprintf(stderr, "svg: %s\n", error ? error->message : "?");
		g_clear_pointer(&buf, free);
	}
	return buf;
}

/* Random trees: folded while read, each has exactly the unfolded tree's
 * weights where it can be drawn, and draws the same SVG; half of them with
 * siblings in name order (names copied until the end), half not (names
 * interned from the first sibling out of order). */
static void test_fold_random(void)
{
	guint trees = 0, folded_total = 0;
	for (guint32 seed = 1; seed <= 40; seed++) {
		GRand *r = g_rand_new_with_seed(seed);
		Paths p = { g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev),
			    g_array_new(FALSE, FALSE, sizeof(gint64)), 0 };
		GPtrArray *stack = g_ptr_array_new_with_free_func(g_free);
		random_subtree(&p, r, stack, 0, seed % 2 == 0);
		g_ptr_array_unref(stack);
		g_rand_free(r);
		g_autoptr(FtlFlame) full = ftl_flame_new(FTL_FLAME_UNIT_NS);
		g_autoptr(FtlFlame) fold = ftl_flame_new(FTL_FLAME_UNIT_NS);
		guint64 n_folded = 0;
		CU_ASSERT_TRUE(paths_build(&p, full, 0, NULL));
		CU_ASSERT_TRUE(paths_build(&p, fold, FOLD_FRACTION, &n_folded));
		CU_ASSERT_EQUAL(ftl_flame_root(full)->value, p.total);
		CU_ASSERT_EQUAL(ftl_flame_root(fold)->value, p.total);
		gint64 min = (gint64)ceil((double)p.total * FOLD_FRACTION);
		guint folded = 0;
		CU_ASSERT_TRUE(same_but_folded(ftl_flame_root(full), ftl_flame_root(fold), min,
					       &folded));
		/* a folded subtree may have had subtrees folded first */
		CU_ASSERT_TRUE(folded <= n_folded && (folded > 0) == (n_folded > 0));
		CU_ASSERT_TRUE(!folded || ftl_flame_n_nodes(fold) < ftl_flame_n_nodes(full));
		folded_total += folded;
		/* at the folding minimum and at wider ones, by pixels and by share */
		double px[] = { -1, 0.1, 2, 0 }, pct[] = { 0, 0, 0, 0.5 };
		for (guint i = 0; i < G_N_ELEMENTS(px); i++) {
			g_autofree char *want = svg_text(full, px[i], pct[i]);
			g_autofree char *got = svg_text(fold, px[i], pct[i]);
			CU_ASSERT_PTR_NOT_NULL(want);
			CU_ASSERT_TRUE(want && got && strcmp(want, got) == 0);
		}
		paths_clear(&p);
		trees++;
	}
	CU_ASSERT_EQUAL(trees, 40);
	CU_ASSERT_TRUE(folded_total > 100); /* the test folds, many times */
}

static void add_line(FtlFlamePaths *fp, const char *line, gint64 w, guint same)
{
	g_auto(GStrv) v = g_strsplit(line, ";", -1);
	guint n = g_strv_length(v);
	FtlSlice s[16];
	for (guint i = 0; i < n; i++)
		s[i] = (FtlSlice){ v[i], (guint32)strlen(v[i]) };
	ftl_flame_paths_add(fp, s + same, n - same, same, w);
}

/* Paths out of tree order: coming back to a folded subtree makes the
 * build fail (the caller reads again without folding); coming back before
 * anything was folded only stops the folding. */
static void test_fold_out_of_order(void)
{
	g_autoptr(FtlFlame) f = ftl_flame_new(FTL_FLAME_UNIT_NS);
	FtlFlamePaths *fp = ftl_flame_paths_new(f, 0.01);
	add_line(fp, "a", 1000000000, 0);
	add_line(fp, "b;c;d", 1, 0);
	add_line(fp, "e", 1000000000, 0);
	CU_ASSERT_EQUAL(ftl_flame_paths_n_folded(fp), 2); /* c, then b */
	add_line(fp, "b;c;e", 1, 0);
	CU_ASSERT_FALSE(ftl_flame_paths_end(fp));

	g_autoptr(FtlFlame) g = ftl_flame_new(FTL_FLAME_UNIT_NS);
	fp = ftl_flame_paths_new(g, 0.01);
	add_line(fp, "a;b", 1000000, 0);
	add_line(fp, "c", 1000000, 0);
	add_line(fp, "a;d;e", 5, 0);
	add_line(fp, "f", 1000000, 0);
	CU_ASSERT_EQUAL(ftl_flame_paths_n_folded(fp), 0);
	CU_ASSERT_TRUE(ftl_flame_paths_end(fp));
	ftl_flame_finish(g);
	FtlFlameNode *a = ftl_flame_root(g)->child;
	CU_ASSERT_STRING_EQUAL(a->name, "a");
	CU_ASSERT_EQUAL(a->value, 1000005);
	CU_ASSERT_STRING_EQUAL(a->child->next->name, "d");
	CU_ASSERT_PTR_NOT_NULL(a->child->next->child); /* d keeps e */
	CU_ASSERT_EQUAL(ftl_flame_root(g)->value, 3000005);

	/* a wide node's children in name order, then one out of it: the
	 * children made so far are found again, none is made twice */
	g_autoptr(FtlFlame) h = ftl_flame_new(FTL_FLAME_UNIT_NS);
	fp = ftl_flame_paths_new(h, 0.001);
	for (char c = 'a'; c <= 'm'; c++)
		add_line(fp, (char[]){ c, 0 }, 1000, 0);
	add_line(fp, "0", 1000, 0);
	add_line(fp, "c;x", 7, 0);
	add_line(fp, "k", 5, 0);
	CU_ASSERT_TRUE(ftl_flame_paths_end(fp));
	ftl_flame_finish(h);
	guint kids = 0;
	for (FtlFlameNode *c = ftl_flame_root(h)->child; c; c = c->next, kids++) {
		if (!strcmp(c->name, "c")) {
			CU_ASSERT_TRUE(c->value == 1007 && c->child && !strcmp(c->child->name, "x"));
		} else if (!strcmp(c->name, "k")) {
			CU_ASSERT_EQUAL(c->value, 1005);
		}
	}
	CU_ASSERT_EQUAL(kids, 14);
	CU_ASSERT_EQUAL(ftl_flame_root(h)->value, 14012);
}

/* Appends the first line of each frame's title, in document order. */
static void frame_titles(xmlNode *n, GString *out, guint *count)
{
	for (; n; n = n->next) {
		if (n->type != XML_ELEMENT_NODE)
			continue;
		if (!strcmp((const char *)n->name, "title") && n->parent &&
		    !strcmp((const char *)n->parent->name, "g")) {
			g_autofree char *t = (char *)xmlNodeGetContent(n);
			char *nl = strchr(t, '\n');
			g_string_append_len(out, t, nl ? nl - t : (gssize)strlen(t));
			g_string_append_c(out, ' ');
			(*count)++;
		}
		frame_titles(n->children, out, count);
	}
}

/* A flame graph of calls: a wide call and narrow ones, one of whose child
 * outlasts it (durations rounded apart). Drawn with narrow subtrees made
 * leaves, each narrow call weighs what the whole tree gives it: its span
 * when its children fit, its children's weight when they outweigh it. */
static gint64 calls_weight(gboolean fold, gint64 kid, const char **leaf)
{
	FtlFlameBuildOptions o = { .from = FTL_FLAME_FROM_CALLS,
				   .min_fraction = fold ? FOLD_FRACTION : 0 };
	g_autoptr(FtlFlameBuild) b = ftl_flame_build_new(&o);
	FtlEvent ev[2];
	ev[0] = evb_entry(NONE, 0, 5, "wide", 0);
	ftl_flame_build_feed(b, &ev[0]);
	evb_leaf(ev, NONE, 0, 5, "inner", 1, 1000000000);
	ftl_flame_build_feed(b, &ev[0]);
	ftl_flame_build_feed(b, &ev[1]);
	ev[0] = evb_exit(NONE, 0, 5, NULL, 0, 1000000000);
	ftl_flame_build_feed(b, &ev[0]);
	ev[0] = evb_entry(NONE, 0, 5, "narrow", 0);
	ftl_flame_build_feed(b, &ev[0]);
	evb_leaf(ev, NONE, 0, 5, "kid", 1, kid);
	ftl_flame_build_feed(b, &ev[0]);
	ftl_flame_build_feed(b, &ev[1]);
	ev[0] = evb_exit(NONE, 0, 5, NULL, 0, 100);
	ftl_flame_build_feed(b, &ev[0]);
	ftl_flame_build_finish(b);
	FtlFlameNode *root = ftl_flame_root(ftl_flame_build_tree(b));
	for (FtlFlameNode *n = root->child; n; n = n->next)
		if (!strcmp(n->name, "narrow")) {
			*leaf = n->child ? "has children" : "leaf";
			return n->value;
		}
	*leaf = "absent";
	return -1;
}

static void test_calls_narrow_weight(void)
{
	const char *leaf;
	CU_ASSERT_EQUAL(calls_weight(FALSE, 60, &leaf), 100);
	CU_ASSERT_STRING_EQUAL(leaf, "has children");
	CU_ASSERT_EQUAL(calls_weight(TRUE, 60, &leaf), 100);
	CU_ASSERT_STRING_EQUAL(leaf, "leaf");
	CU_ASSERT_EQUAL(calls_weight(FALSE, 300, &leaf), 300);
	CU_ASSERT_EQUAL(calls_weight(TRUE, 300, &leaf), 300);
	CU_ASSERT_STRING_EQUAL(leaf, "leaf");
}

/* Thousands of frames (written by two writers, the second half by a
 * thread): one well-formed document, every frame once, in layout order
 * (a parent, then its children by name). */
static void test_many_frames(void)
{
	g_autoptr(FtlFlame) f = ftl_flame_new(FTL_FLAME_UNIT_NS);
	g_autoptr(GString) want = g_string_new("all ");
	for (guint i = 0; i < 80; i++) {
		char a[16];
		g_snprintf(a, sizeof a, "a%03u", i);
		FtlFlameNode *top = ftl_flame_child(f, ftl_flame_root(f), a, -1, FTL_FLAME_FRAME);
		g_string_append_printf(want, "%s ", a);
		for (guint k = 0; k < 60; k++) {
			char b[16];
			g_snprintf(b, sizeof b, "b%02u", k);
			ftl_flame_add(f, ftl_flame_child(f, top, b, -1, FTL_FLAME_FRAME), 1000, 1);
			g_string_append_printf(want, "%s ", b);
		}
	}
	ftl_flame_finish(f);
	g_autofree char *svg = svg_text(f, 0, 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(svg);
	xmlDoc *doc = xmlReadMemory(svg, (int)strlen(svg), "many.svg", NULL, XML_PARSE_NONET);
	CU_ASSERT_PTR_NOT_NULL_FATAL(doc);
	g_autoptr(GString) got = g_string_new(NULL);
	guint count = 0;
	frame_titles(xmlDocGetRootElement(doc), got, &count);
	xmlFreeDoc(doc);
	CU_ASSERT_EQUAL(count, 1 + 80 + 80 * 60);
	CU_ASSERT_STRING_EQUAL(got->str, want->str);
}

static const UnitTest tests[] = {
	{ "folding narrow subtrees keeps weights and drawing", test_fold_random },
	{ "paths out of tree order", test_fold_out_of_order },
	{ "thousands of frames: one document, in order", test_many_frames },
	{ "calls: a narrow call weighs its whole subtree", test_calls_narrow_weight },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("flame", tests);
}
