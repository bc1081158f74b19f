/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The TUI's filter stack: parsing what the prompt was given, matching events. */
#include "config.h"

#include "views/tui/filter.h"

#include <string.h>

#include "model/event-filter.h"
#include "util/error.h"

struct _FtlTuiFilterItem {
	FtlTuiFilterKind kind;
	char *text;
	FtlFilter match;     /* CPU and PID: the list, as the command line's */
	GPtrArray *patterns; /* EVENT: GPatternSpec* */
	GRegex *re;	     /* FUNC */
	FtlEventFilter *expr; /* EXPR and COMM: the command line's evaluator */
};

static void filter_item_clear(gpointer p)
{
	FtlTuiFilterItem *it = p;
	g_free(it->text);
	ftl_filter_clear(&it->match);
	if (it->patterns)
		g_ptr_array_unref(it->patterns);
	if (it->re)
		g_regex_unref(it->re);
	ftl_event_filter_free(it->expr);
}

FtlTuiFilterItem *ftl_tui_filter_item_ref(FtlTuiFilterItem *it)
{
	return g_atomic_rc_box_acquire(it);
}

void ftl_tui_filter_item_unref(FtlTuiFilterItem *it)
{
	if (it)
		g_atomic_rc_box_release_full(it, filter_item_clear);
}

FtlTuiFilterKind ftl_tui_filter_item_kind(const FtlTuiFilterItem *it)
{
	return it->kind;
}

const char *ftl_tui_filter_item_text(const FtlTuiFilterItem *it)
{
	return it->text;
}

static const struct {
	const char *word, *abbrev;
	FtlTuiFilterKind kind;
} filter_words[] = {
	{ "cpu", "c", FTL_TUI_FILTER_CPU },
	{ "pid", "p", FTL_TUI_FILTER_PID },
	{ "event", "e", FTL_TUI_FILTER_EVENT },
	{ "func", "f", FTL_TUI_FILTER_FUNC },
	{ "comm", "comm", FTL_TUI_FILTER_COMM },
};

/* The first line of the expression parser's message (the lines after it
 * draw a caret under the column, which the one status line cannot show;
 * the first says the column). */
static void filter_expr_error(GError **error, const char *text, const GError *local)
{
	g_autofree char *first = g_strndup(local->message, strcspn(local->message, "\n"));
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "filter: '%s': %s", text, first);
}

static gboolean filter_item_arg(FtlTuiFilterItem *it, const char *arg, GError **error)
{
	switch (it->kind) {
	case FTL_TUI_FILTER_CPU:
		return ftl_filter_parse_list(arg, &it->match.cpus, error);
	case FTL_TUI_FILTER_PID:
		return ftl_filter_parse_list(arg, &it->match.pids, error);
	case FTL_TUI_FILTER_EVENT: {
		it->patterns = g_ptr_array_new_with_free_func((GDestroyNotify)g_pattern_spec_free);
		g_auto(GStrv) names = g_strsplit(arg, ",", -1);
		for (guint i = 0; names[i]; i++)
			if (*g_strstrip(names[i]))
				g_ptr_array_add(it->patterns, g_pattern_spec_new(names[i]));
		return TRUE;
	}
	case FTL_TUI_FILTER_FUNC:
		it->re = g_regex_new(arg, G_REGEX_OPTIMIZE, 0, error);
		return it->re != NULL;
	case FTL_TUI_FILTER_COMM: {
		/* the task's name (COMM: never an event's own comm field), as
		 * --filter '.*: COMM ~ "GLOB"' takes it */
		GString *e = g_string_new(".*: COMM ~ \"");
		for (const char *q = arg; *q; q++) {
			if (*q == '"' || *q == '\\')
				g_string_append_c(e, '\\');
			g_string_append_c(e, *q);
		}
		g_string_append_c(e, '"');
		g_autofree char *text = g_string_free(e, FALSE);
		it->expr = ftl_event_filter_new();
		return ftl_event_filter_add_expr(it->expr, text, FALSE, error);
	}
	case FTL_TUI_FILTER_EXPR:
		it->expr = ftl_event_filter_new();
		return ftl_event_filter_add_expr(it->expr, arg, FALSE, error);
	}
	return FALSE;
}

/* Not a kind word: the whole text is an expression of --filter's grammar. */
static FtlTuiFilterItem *filter_expr_parse(const char *text, GError **error)
{
	g_autofree char *arg = g_strstrip(g_strdup(text));
	FtlTuiFilterItem *it = g_atomic_rc_box_new0(FtlTuiFilterItem);
	it->kind = FTL_TUI_FILTER_EXPR;
	ftl_filter_init(&it->match);
	it->text = g_strdup(arg);
	g_autoptr(GError) local = NULL;
	if (!filter_item_arg(it, arg, &local)) {
		filter_expr_error(error, arg, local);
		ftl_tui_filter_item_unref(it);
		return NULL;
	}
	return it;
}

FtlTuiFilterItem *ftl_tui_filter_item_parse(const char *text, GError **error)
{
	g_autofree char *copy = g_strstrip(g_strdup(text));
	char *arg = copy + strcspn(copy, " \t");
	if (*arg)
		*arg++ = 0;
	arg = g_strstrip(arg);
	int k = -1;
	for (guint i = 0; i < G_N_ELEMENTS(filter_words); i++)
		if (!strcmp(copy, filter_words[i].word) || !strcmp(copy, filter_words[i].abbrev))
			k = (int)i;
	if (k < 0)
		return filter_expr_parse(text, error);
	if (!*arg) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "filter: '%s': expected cpu LIST, pid LIST, event NAMES, func REGEX, "
			    "comm GLOB or an expression (EVENTS: FIELD == VALUE)",
			    text);
		return NULL;
	}
	FtlTuiFilterItem *it = g_atomic_rc_box_new0(FtlTuiFilterItem);
	it->kind = filter_words[k].kind;
	ftl_filter_init(&it->match);
	it->text = g_strdup_printf("%s %s", filter_words[k].word, arg);
	g_autoptr(GError) local = NULL;
	if (!filter_item_arg(it, arg, &local)) {
		if (it->kind == FTL_TUI_FILTER_COMM)
			filter_expr_error(error, arg, local);
		else
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "filter: %s", local->message);
		ftl_tui_filter_item_unref(it);
		return NULL;
	}
	return it;
}

FtlTuiFilterItem *ftl_tui_filter_item_func_exact(const char *function)
{
	g_autofree char *quoted = g_regex_escape_string(function, -1);
	g_autofree char *text = g_strdup_printf("func ^%s$", quoted);
	return ftl_tui_filter_item_parse(text, NULL);
}

FtlTuiFilter *ftl_tui_filter_new(const FtlFilter *global)
{
	FtlTuiFilter *f = g_new0(FtlTuiFilter, 1);
	f->global = global;
	f->items = g_ptr_array_new_with_free_func((GDestroyNotify)ftl_tui_filter_item_unref);
	return f;
}

void ftl_tui_filter_free(FtlTuiFilter *f)
{
	if (!f)
		return;
	g_ptr_array_unref(f->items);
	g_free(f);
}

FtlTuiFilter *ftl_tui_filter_push(const FtlTuiFilter *f, FtlTuiFilterItem *item)
{
	FtlTuiFilter *n = ftl_tui_filter_new(f->global);
	for (guint i = 0; i < f->items->len; i++)
		g_ptr_array_add(n->items, ftl_tui_filter_item_ref(g_ptr_array_index(f->items, i)));
	if (item)
		g_ptr_array_add(n->items, ftl_tui_filter_item_ref(item));
	return n;
}

FtlTuiFilter *ftl_tui_filter_pop(const FtlTuiFilter *f)
{
	FtlTuiFilter *n = ftl_tui_filter_push(f, NULL);
	if (n->items->len)
		g_ptr_array_remove_index(n->items, n->items->len - 1);
	return n;
}

guint ftl_tui_filter_depth(const FtlTuiFilter *f)
{
	return f->items->len;
}

gboolean ftl_tui_filter_has(const FtlTuiFilter *f, FtlTuiFilterKind kind)
{
	for (guint i = 0; i < f->items->len; i++)
		if (((FtlTuiFilterItem *)g_ptr_array_index(f->items, i))->kind == kind)
			return TRUE;
	return FALSE;
}

gboolean ftl_tui_filter_pass_model(const FtlTuiFilter *f, FtlSelector *sel, const FtlEvent *ev)
{
	if (!ftl_selector_pass(sel, ev))
		return FALSE;
	for (guint i = 0; i < f->items->len; i++) {
		const FtlTuiFilterItem *it = g_ptr_array_index(f->items, i);
		if (!ftl_filter_match_placed(&it->match, sel->last_ts, ev))
			return FALSE;
	}
	return TRUE;
}

gboolean ftl_tui_filter_pass_func(const FtlTuiFilter *f, const char *func)
{
	for (guint i = 0; i < f->items->len; i++) {
		const FtlTuiFilterItem *it = g_ptr_array_index(f->items, i);
		if (it->kind == FTL_TUI_FILTER_FUNC &&
		    (!func || !g_regex_match(it->re, func, 0, NULL)))
			return FALSE;
	}
	return TRUE;
}

gboolean ftl_tui_filter_pass_event(const FtlTuiFilter *f, const char *name)
{
	for (guint i = 0; i < f->items->len; i++) {
		const FtlTuiFilterItem *it = g_ptr_array_index(f->items, i);
		if (it->kind != FTL_TUI_FILTER_EVENT)
			continue;
		gboolean any = FALSE;
		for (guint k = 0; name && k < it->patterns->len && !any; k++)
			any = g_pattern_spec_match_string(g_ptr_array_index(it->patterns, k), name);
		if (!any)
			return FALSE;
	}
	return TRUE;
}

gboolean ftl_tui_filter_pass_names(const FtlTuiFilter *f, const FtlEvent *ev, const char *func)
{
	if (!ftl_tui_filter_pass_event(f, ev->name) || !ftl_tui_filter_pass_func(f, func))
		return FALSE;
	for (guint i = 0; i < f->items->len; i++) {
		FtlTuiFilterItem *it = g_ptr_array_index(f->items, i);
		if (it->expr && !ftl_event_filter_match(it->expr, ev))
			return FALSE;
	}
	return TRUE;
}

void ftl_tui_call_names_init(FtlTuiCallNames *n)
{
	n->cpus = g_ptr_array_new_with_free_func((GDestroyNotify)g_ptr_array_unref);
}

void ftl_tui_call_names_clear(FtlTuiCallNames *n)
{
	g_clear_pointer(&n->cpus, g_ptr_array_unref);
}

/* The open calls of ev's CPU, by depth; events without a CPU share slot 0. */
static GPtrArray *call_names_cpu(FtlTuiCallNames *n, gint32 cpu)
{
	guint i = cpu < 0 ? 0 : (guint)cpu + 1;
	if (i > 4096)
		i = 0; /* a CPU number no machine has: no table that large */
	while (n->cpus->len <= i)
		g_ptr_array_add(n->cpus, g_ptr_array_new());
	return g_ptr_array_index(n->cpus, i);
}

const char *ftl_tui_call_names_feed(FtlTuiCallNames *n, const FtlEvent *ev)
{
	gint32 depth = ev->u.graph.depth;
	switch (ev->kind) {
	case FTL_EVENT_FUNC_ENTRY:
		if (depth >= 0 && depth < 1024) {
			GPtrArray *open = call_names_cpu(n, ev->cpu);
			g_ptr_array_set_size(open, depth + 1);
			open->pdata[depth] = (gpointer)ev->u.graph.func;
		}
		return ev->u.graph.func;
	case FTL_EVENT_FUNC_EXIT:
		if (!ev->u.graph.func && depth >= 0) {
			GPtrArray *open = call_names_cpu(n, ev->cpu);
			return (guint)depth < open->len ? open->pdata[depth] : NULL;
		}
		return ev->u.graph.func;
	case FTL_EVENT_FUNC:
		return ev->u.fn.func;
	default:
		return NULL;
	}
}

/* ---- snapshots of the open calls ----------------------------------------- */

#define SNAP_NONE G_MAXUINT32

struct _FtlTuiCallSnaps {
	gint ref;	    /* atomic */
	GArray *words;	    /* guint32: per snapshot its slot count, then per
			     * slot its depth and a string id per depth */
	GPtrArray *strs;    /* char*, by id */
	GStringChunk *text; /* the strings */
	GHashTable *ids;    /* while adding: interned name -> id + 1 */
};

FtlTuiCallSnaps *ftl_tui_call_snaps_new(void)
{
	FtlTuiCallSnaps *s = g_new0(FtlTuiCallSnaps, 1);
	s->ref = 1;
	s->words = g_array_new(FALSE, FALSE, sizeof(guint32));
	s->strs = g_ptr_array_new();
	s->text = g_string_chunk_new(4096);
	/* the names are interned in one trace: their addresses tell them apart */
	s->ids = g_hash_table_new(g_direct_hash, g_direct_equal);
	return s;
}

FtlTuiCallSnaps *ftl_tui_call_snaps_ref(FtlTuiCallSnaps *s)
{
	g_atomic_int_inc(&s->ref);
	return s;
}

void ftl_tui_call_snaps_unref(FtlTuiCallSnaps *s)
{
	if (!s || !g_atomic_int_dec_and_test(&s->ref))
		return;
	g_array_unref(s->words);
	g_ptr_array_unref(s->strs);
	g_string_chunk_free(s->text);
	if (s->ids)
		g_hash_table_unref(s->ids);
	g_free(s);
}

static guint32 call_snaps_id(FtlTuiCallSnaps *s, const char *name)
{
	if (!name)
		return SNAP_NONE;
	gpointer v = g_hash_table_lookup(s->ids, name);
	if (v)
		return GPOINTER_TO_UINT(v) - 1;
	g_ptr_array_add(s->strs, g_string_chunk_insert(s->text, name));
	g_hash_table_insert(s->ids, (gpointer)name, GUINT_TO_POINTER(s->strs->len));
	return s->strs->len - 1;
}

guint32 ftl_tui_call_snaps_add(FtlTuiCallSnaps *s, const FtlTuiCallNames *n)
{
	g_return_val_if_fail(s->ids, 0);
	guint32 at = s->words->len;
	guint32 slots = n->cpus ? n->cpus->len : 0;
	g_array_append_val(s->words, slots);
	for (guint32 i = 0; i < slots; i++) {
		const GPtrArray *open = g_ptr_array_index(n->cpus, i);
		guint32 depth = open->len;
		g_array_append_val(s->words, depth);
		for (guint32 d = 0; d < depth; d++) {
			guint32 id = call_snaps_id(s, g_ptr_array_index(open, d));
			g_array_append_val(s->words, id);
		}
	}
	return at;
}

void ftl_tui_call_snaps_seal(FtlTuiCallSnaps *s)
{
	g_clear_pointer(&s->ids, g_hash_table_unref);
}

void ftl_tui_call_snaps_restore(const FtlTuiCallSnaps *s, guint32 at, FtlTuiCallNames *n)
{
	const guint32 *w = (const guint32 *)s->words->data;
	guint32 end = s->words->len;
	g_return_if_fail(at < end);
	guint32 slots = w[at++];
	g_ptr_array_set_size(n->cpus, 0);
	for (guint32 i = 0; i < slots && at < end; i++) {
		guint32 depth = w[at++];
		depth = MIN(depth, end - at);
		GPtrArray *open = g_ptr_array_new();
		g_ptr_array_set_size(open, depth);
		for (guint32 d = 0; d < depth; d++, at++)
			open->pdata[d] =
				w[at] < s->strs->len ? g_ptr_array_index(s->strs, w[at]) : NULL;
		g_ptr_array_add(n->cpus, open);
	}
}
