/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The operands of one trace and what tells two captures apart (related.h). */
#include "model/related.h"

#include <string.h>

#include "util/error.h"
#include "util/timefmt.h"

/* A second, and ten times the longer span: see related.h. */
#define RELATED_MIN_GAP_NS G_GINT64_CONSTANT(1000000000)
#define RELATED_GAP_FACTOR 10
/* CPUs above this are not tracked (a damaged CPU field) */
#define RELATED_MAX_CPU 4096

typedef struct {
	gint64 t0, t1; /* FTL_TS_NONE until an event */
} RelSpan;

typedef struct {
	char *path;
	const char *kernel, *clock; /* interned by the trace, NULL unnamed */
	RelSpan all;
	GArray *cpus; /* RelSpan by CPU */
} RelOperand;

struct _FtlRelated {
	GPtrArray *operands; /* RelOperand* */
	GArray *src_operand; /* guint by source index */
};

static void related_operand_free(gpointer p)
{
	RelOperand *o = p;
	g_free(o->path);
	g_array_unref(o->cpus);
	g_free(o);
}

FtlRelated *ftl_related_new(void)
{
	FtlRelated *r = g_new0(FtlRelated, 1);
	r->operands = g_ptr_array_new_with_free_func(related_operand_free);
	r->src_operand = g_array_new(FALSE, TRUE, sizeof(guint));
	return r;
}

void ftl_related_free(FtlRelated *r)
{
	if (!r)
		return;
	g_ptr_array_unref(r->operands);
	g_array_unref(r->src_operand);
	g_free(r);
}

void ftl_related_begin_operand(FtlRelated *r, const char *path)
{
	RelOperand *o = g_new0(RelOperand, 1);
	o->path = g_strdup(path);
	o->all = (RelSpan){ FTL_TS_NONE, FTL_TS_NONE };
	o->cpus = g_array_new(FALSE, FALSE, sizeof(RelSpan));
	g_ptr_array_add(r->operands, o);
}

guint ftl_related_n_operands(const FtlRelated *r)
{
	return r->operands->len;
}

static RelOperand *related_last(FtlRelated *r)
{
	return r->operands->len ? g_ptr_array_index(r->operands, r->operands->len - 1) : NULL;
}

void ftl_related_add_source(FtlRelated *r, guint src_index)
{
	guint op = r->operands->len ? r->operands->len - 1 : 0;
	if (src_index >= r->src_operand->len)
		g_array_set_size(r->src_operand, src_index + 1);
	g_array_index(r->src_operand, guint, src_index) = op;
}

void ftl_related_note_kernel(FtlRelated *r, const char *release)
{
	RelOperand *o = related_last(r);
	if (o && release)
		o->kernel = release;
}

void ftl_related_note_clock(FtlRelated *r, const char *clock)
{
	RelOperand *o = related_last(r);
	if (o && clock)
		o->clock = clock;
}

static void related_span_add(RelSpan *s, gint64 ts)
{
	if (s->t0 == FTL_TS_NONE || ts < s->t0)
		s->t0 = ts;
	if (s->t1 == FTL_TS_NONE || ts > s->t1)
		s->t1 = ts;
}

void ftl_related_note_event(FtlRelated *r, guint src_index, const FtlEvent *ev)
{
	if (ev->ts == FTL_TS_NONE || src_index >= r->src_operand->len)
		return;
	RelOperand *o = g_ptr_array_index(r->operands,
					  g_array_index(r->src_operand, guint, src_index));
	related_span_add(&o->all, ev->ts);
	if (ev->cpu < 0 || ev->cpu > RELATED_MAX_CPU)
		return;
	guint cpu = (guint)ev->cpu;
	if (cpu >= o->cpus->len) {
		guint old = o->cpus->len;
		g_array_set_size(o->cpus, cpu + 1);
		for (guint i = old; i <= cpu; i++)
			g_array_index(o->cpus, RelSpan, i) = (RelSpan){ FTL_TS_NONE, FTL_TS_NONE };
	}
	related_span_add(&g_array_index(o->cpus, RelSpan, cpu), ev->ts);
}

static const char *related_secs(gint64 ns, char *buf, gsize size)
{
	return ftl_time_format_ns(ns, buf, size);
}

static gboolean related_times(const RelOperand *a, const RelOperand *b, GError **error)
{
	if (a->all.t0 == FTL_TS_NONE || b->all.t0 == FTL_TS_NONE)
		return TRUE;
	char x[48], y[48], z[48];
	guint n = MIN(a->cpus->len, b->cpus->len);
	for (guint cpu = 0; cpu < n; cpu++) {
		const RelSpan *s = &g_array_index(a->cpus, RelSpan, cpu);
		const RelSpan *t = &g_array_index(b->cpus, RelSpan, cpu);
		if (s->t0 == FTL_TS_NONE || t->t0 == FTL_TS_NONE || s->t1 < t->t0 || t->t1 < s->t0)
			continue;
		/* split parts may share the one timestamp at the cut */
		if (s->t1 == t->t0 || t->t1 == s->t0)
			continue;
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s' and '%s' both hold events of CPU %u from %s to %s: a capture "
			    "records a CPU once, so they are two captures",
			    a->path, b->path, cpu, related_secs(MAX(s->t0, t->t0), x, sizeof x),
			    related_secs(MIN(s->t1, t->t1), y, sizeof y));
		return FALSE;
	}
	const RelOperand *first = a->all.t0 <= b->all.t0 ? a : b, *second = first == a ? b : a;
	gint64 gap = second->all.t0 - first->all.t1;
	gint64 span = MAX(a->all.t1 - a->all.t0, b->all.t1 - b->all.t0);
	if (gap <= RELATED_MIN_GAP_NS || gap / RELATED_GAP_FACTOR <= span)
		return TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
		    "'%s' ends at %s s and '%s' starts at %s s: %s apart, more than ten times "
		    "the longer one's span, so they are two runs, not one trace",
		    first->path, related_secs(first->all.t1, x, sizeof x), second->path,
		    related_secs(second->all.t0, y, sizeof y),
		    ftl_duration_format(gap, z, sizeof z));
	return FALSE;
}

static gboolean related_pair(const RelOperand *a, gint a_cpus, const RelOperand *b, gint b_cpus,
			     gboolean read_done, GError **error)
{
	if (a->kernel && b->kernel && strcmp(a->kernel, b->kernel)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s' was recorded on kernel %s and '%s' on kernel %s", a->path,
			    a->kernel, b->path, b->kernel);
		return FALSE;
	}
	if (a->clock && b->clock && strcmp(a->clock, b->clock)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s' uses trace clock %s and '%s' clock %s: their times do not compare",
			    a->path, a->clock, b->path, b->clock);
		return FALSE;
	}
	if (a_cpus > 0 && b_cpus > 0 && a_cpus != b_cpus) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s' comes from a machine with %d CPUs and '%s' from one with %d",
			    a->path, a_cpus, b->path, b_cpus);
		return FALSE;
	}
	return !read_done || related_times(a, b, error);
}

gboolean ftl_related_check(const FtlRelated *r, const gint *src_cpus, guint n_src,
			   gboolean read_done, GError **error)
{
	guint n = r->operands->len;
	if (n < 2)
		return TRUE;
	/* an operand's CPU count is the first its sources' headers give */
	g_autofree gint *cpus = g_new(gint, n);
	for (guint i = 0; i < n; i++)
		cpus[i] = -1;
	for (guint s = 0; s < n_src && s < r->src_operand->len; s++) {
		guint op = g_array_index(r->src_operand, guint, s);
		if (cpus[op] <= 0)
			cpus[op] = src_cpus[s];
	}
	for (guint i = 0; i < n; i++)
		for (guint k = i + 1; k < n; k++)
			if (!related_pair(g_ptr_array_index(r->operands, i), cpus[i],
					  g_ptr_array_index(r->operands, k), cpus[k], read_done,
					  error)) {
				return FALSE;
			}
	return TRUE;
}
