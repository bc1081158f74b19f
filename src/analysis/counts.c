/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Counts: per-event-name and per-kind tallies, the first markers. */
#include "analysis/counts.h"

#include "util/strpool.h"

#define COUNTS_RECENT_BITS 10

struct _FtlCounts {
	GHashTable *names; /* interned name -> FtlNameCount* */
	GPtrArray *sorted_names;
	GPtrArray *markers;  /* FtlMarkerSample* */
	guint64 kinds[FTL_EVENT_N_KINDS];
	guint64 events;
	/* The counts of the names seen last, by their interned pointer: a
	 * trace.dat interleaves hundreds of event names, and the hash lookup
	 * was most of feeding one. */
	FtlNameCount *recent[1u << COUNTS_RECENT_BITS];
};

static void counts_marker_free(gpointer p)
{
	FtlMarkerSample *m = p;
	g_free(m->text);
	g_free(m);
}

FtlCounts *ftl_counts_new(void)
{
	FtlCounts *c = g_new0(FtlCounts, 1);
	c->names = g_hash_table_new_full(g_direct_hash, g_direct_equal, NULL, g_free);
	c->markers = g_ptr_array_new_with_free_func(counts_marker_free);
	return c;
}

void ftl_counts_free(FtlCounts *c)
{
	if (!c)
		return;
	g_hash_table_destroy(c->names);
	if (c->sorted_names)
		g_ptr_array_unref(c->sorted_names);
	g_ptr_array_unref(c->markers);
	g_free(c);
}

/* The count of name not among the recent (feed's slow path, out of line
 * so that the path of every event saves no registers for it). */
G_GNUC_NO_INLINE static FtlNameCount *counts_name(FtlCounts *c, FtlNameCount **slot,
						  const char *name)
{
	FtlNameCount *nc = g_hash_table_lookup(c->names, name);
	if (!nc) {
		nc = g_new0(FtlNameCount, 1);
		nc->name = name;
		g_hash_table_insert(c->names, (gpointer)name, nc);
	}
	*slot = nc;
	return nc;
}

G_GNUC_NO_INLINE static void counts_marker(FtlCounts *c, const FtlEvent *ev)
{
	FtlMarkerSample *m = g_new0(FtlMarkerSample, 1);
	m->ts = ev->ts;
	m->cpu = ev->cpu;
	m->pid = ev->pid;
	m->line = ev->line;
	m->text = g_strndup(ev->u.marker.text.p, ev->u.marker.text.len);
	g_ptr_array_add(c->markers, m);
}

void ftl_counts_feed(FtlCounts *c, const FtlEvent *ev)
{
	c->events++;
	c->kinds[ev->kind]++;
	if (ev->flags & FTL_EVENT_F_SYNTH || ev->kind == FTL_EVENT_LOST ||
	    ev->kind == FTL_EVENT_BUFFER_START)
		return;
	if (ev->name) {
		FtlNameCount **slot = &c->recent[ftl_strpool_slot(ev->name, COUNTS_RECENT_BITS)];
		FtlNameCount *nc = *slot;
		if (G_UNLIKELY(!nc || nc->name != ev->name))
			nc = counts_name(c, slot, ev->name);
		nc->count++;
	}
	if (G_UNLIKELY(ev->kind == FTL_EVENT_MARKER) && c->markers->len < FTL_COUNTS_MARKER_SAMPLES)
		counts_marker(c, ev);
}

static gint counts_name_cmp(gconstpointer a, gconstpointer b)
{
	const FtlNameCount *x = *(const FtlNameCount *const *)a;
	const FtlNameCount *y = *(const FtlNameCount *const *)b;
	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return g_strcmp0(x->name, y->name);
}

void ftl_counts_finish(FtlCounts *c)
{
	c->sorted_names = g_ptr_array_new();
	GHashTableIter it;
	gpointer v;
	g_hash_table_iter_init(&it, c->names);
	while (g_hash_table_iter_next(&it, NULL, &v))
		g_ptr_array_add(c->sorted_names, v);
	g_ptr_array_sort(c->sorted_names, counts_name_cmp);
}

GPtrArray *ftl_counts_names(const FtlCounts *c)
{
	return c->sorted_names;
}

guint64 ftl_counts_kind(const FtlCounts *c, FtlEventKind kind)
{
	return c->kinds[kind];
}

guint64 ftl_counts_events(const FtlCounts *c)
{
	return c->events;
}

GPtrArray *ftl_counts_marker_samples(const FtlCounts *c)
{
	return c->markers;
}

const char *ftl_counts_tracer(const FtlCounts *c, const FtlTrace *trace)
{
	const char *t = ftl_trace_tracer(trace);
	if (t)
		return t;
	/* No header: say what the events show. */
	if (ftl_counts_kind(c, FTL_EVENT_FUNC_ENTRY) || ftl_counts_kind(c, FTL_EVENT_FUNC_EXIT))
		return "function_graph (inferred)";
	if (ftl_counts_kind(c, FTL_EVENT_FUNC))
		return "function (inferred)";
	return "unknown";
}

FTL_CONSUMER_DEFINE(counts, FtlCounts);
