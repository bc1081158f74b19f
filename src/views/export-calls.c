/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Turning the call tree's entries and exits into a per-task clocked
 * stream for the timeline exports. */
#include "config.h"

#include "views/export-calls.h"

typedef struct {
	FtlExportTask pub;
	gint64 cursor; /* the latest time shown for the task */
	GArray *starts; /* gint64 per stack level */
} ExportTask;

struct _FtlCallExport {
	const FtlExportSink *sink;
	gpointer self;
	FtlCallTree *calls;
	GHashTable *by_key; /* gint64 -> task index + 1 */
	GPtrArray *tasks;   /* ExportTask* */
	gint64 origin;
	gint64 last_key;
	guint last_task;
	guint64 n_open, n_orphan;
};

static void export_task_free(gpointer p)
{
	ExportTask *t = p;
	g_array_unref(t->starts);
	g_free(t);
}

static void export_on_enter(const FtlCall *call, gpointer data);
static void export_on_call(const FtlCall *call, gpointer data);
static void export_on_dissolve(const FtlCall *call, gpointer data);

FtlCallExport *ftl_call_export_new(const FtlExportSink *sink, gpointer self, FtlDiags *diags)
{
	FtlCallExport *x = g_new0(FtlCallExport, 1);
	x->sink = sink;
	x->self = self;
	x->calls = ftl_calltree_new(FTL_CALLTREE_GROUP_NONE, diags);
	ftl_calltree_set_no_tree(x->calls);
	ftl_calltree_set_irq_frames(x->calls);
	ftl_calltree_add_on_enter(x->calls, export_on_enter, x);
	ftl_calltree_add_on_call(x->calls, export_on_call, x);
	ftl_calltree_add_on_dissolve(x->calls, export_on_dissolve, x);
	x->by_key = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	x->tasks = g_ptr_array_new_with_free_func(export_task_free);
	x->origin = FTL_TS_NONE;
	x->last_key = G_MININT64;
	return x;
}

void ftl_call_export_free(FtlCallExport *x)
{
	if (!x)
		return;
	ftl_calltree_free(x->calls);
	g_hash_table_destroy(x->by_key);
	g_ptr_array_unref(x->tasks);
	g_free(x);
}

/* The call tree's contexts: a task, or a CPU for pid 0 and unknown pids. */
static guint export_task(FtlCallExport *x, gint32 pid, gint32 cpu)
{
	gint64 key = ftl_calltree_task_key(pid, cpu);
	if (key == x->last_key)
		return x->last_task;
	guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(x->by_key, &key));
	if (!idx) {
		ExportTask *t = g_new0(ExportTask, 1);
		t->pub = (FtlExportTask){ pid, cpu, -1, NULL, FTL_TS_NONE, FTL_TS_NONE };
		t->starts = g_array_new(FALSE, TRUE, sizeof(gint64));
		g_ptr_array_add(x->tasks, t);
		idx = x->tasks->len;
		gint64 *k = g_new(gint64, 1);
		*k = key;
		g_hash_table_insert(x->by_key, k, GUINT_TO_POINTER(idx));
	}
	x->last_key = key;
	x->last_task = idx - 1;
	return idx - 1;
}

static ExportTask *export_get(FtlCallExport *x, guint i)
{
	return g_ptr_array_index(x->tasks, i);
}

/* A time on the task's clock: never before what it already showed. */
static gint64 export_at(FtlCallExport *x, ExportTask *t, gint64 ts)
{
	gint64 at = ts != FTL_TS_NONE && x->origin != FTL_TS_NONE ? ts - x->origin : t->cursor;
	return MAX(at, t->cursor);
}

static void export_on_enter(const FtlCall *call, gpointer data)
{
	FtlCallExport *x = data;
	guint i = export_task(x, call->pid, call->cpu);
	ExportTask *t = export_get(x, i);
	gint64 at = export_at(x, t, call->entry_ts);
	if ((guint)call->level >= t->starts->len)
		g_array_set_size(t->starts, (guint)call->level + 1);
	g_array_index(t->starts, gint64, call->level) = at;
	t->cursor = at;
	x->sink->open(x->self, i, at, call);
}

static void export_on_call(const FtlCall *call, gpointer data)
{
	FtlCallExport *x = data;
	guint i = export_task(x, call->pid, call->cpu);
	ExportTask *t = export_get(x, i);
	gint64 dur = call->duration != FTL_TS_NONE ? call->duration : MAX(call->span, 0);
	gint64 start = (guint)call->level < t->starts->len
			       ? g_array_index(t->starts, gint64, call->level)
			       : t->cursor;
	gint64 end;
	if (call->flags & FTL_CALL_F_ORPHAN) {
		/* inferred when the first call in it showed, it began at exit -
		 * duration when the exit says */
		x->n_orphan++;
		if (call->entry_ts != FTL_TS_NONE && x->origin != FTL_TS_NONE)
			start = MIN(start, call->entry_ts - x->origin);
	}
	if (call->flags & FTL_CALL_F_OPEN) {
		/* no exit: it lasted at least until the task's last event */
		x->n_open++;
		gint64 last = t->pub.last != FTL_TS_NONE ? t->pub.last : t->cursor;
		end = MAX(t->cursor, last);
	} else if (call->entry_ts != FTL_TS_NONE && x->origin != FTL_TS_NONE &&
		   call->duration != FTL_TS_NONE) {
		end = call->entry_ts - x->origin + call->duration;
	} else {
		end = start + dur;
	}
	end = MAX(end, t->cursor);
	t->cursor = end;
	x->sink->close(x->self, i, start, end, call);
}

static void export_on_dissolve(const FtlCall *call, gpointer data)
{
	FtlCallExport *x = data;
	x->sink->dissolve(x->self, export_task(x, call->pid, call->cpu), call);
}

void ftl_call_export_feed(FtlCallExport *x, const FtlEvent *ev)
{
	if (ev->ts != FTL_TS_NONE && x->origin == FTL_TS_NONE)
		x->origin = ev->ts;
	gboolean tasked = ev->kind != FTL_EVENT_LOST && (ev->pid >= 0 || ev->cpu >= 0);
	if (tasked) {
		ExportTask *t = export_get(x, export_task(x, ev->pid, ev->cpu));
		if (ev->comm && ev->pid > 0)
			t->pub.comm = ev->comm;
		if (ev->tgid > 0)
			t->pub.tgid = ev->tgid;
		t->pub.cpu = ev->cpu;
		if (ev->ts != FTL_TS_NONE && x->origin != FTL_TS_NONE) {
			t->pub.last = MAX(t->pub.last, ev->ts - x->origin);
			if (t->pub.first == FTL_TS_NONE)
				t->pub.first = ev->ts - x->origin;
		}
	}
	if (ev->kind == FTL_EVENT_MARKER && tasked) {
		guint i = export_task(x, ev->pid, ev->cpu);
		ExportTask *t = export_get(x, i);
		gint64 at = export_at(x, t, ev->ts);
		t->cursor = at;
		x->sink->marker(x->self, i, at, ev);
		return;
	}
	switch (ev->kind) {
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
	case FTL_EVENT_LOST:
		ftl_calltree_feed(x->calls, ev);
		break;
	default:
		break;
	}
	if (ev->kind != FTL_EVENT_FUNC_ENTRY && ev->kind != FTL_EVENT_FUNC_EXIT)
		x->sink->event(x->self,
			       ev->ts != FTL_TS_NONE && x->origin != FTL_TS_NONE ? ev->ts - x->origin
										  : FTL_TS_NONE,
			       ev);
}

void ftl_call_export_finish(FtlCallExport *x)
{
	ftl_calltree_finish(x->calls);
	for (guint i = 0; i < x->tasks->len; i++) {
		ExportTask *t = export_get(x, i);
		if (t->pub.first == FTL_TS_NONE)
			t->pub.first = 0;
		t->pub.last = MAX(t->pub.last, t->cursor);
	}
}

guint ftl_call_export_n_tasks(const FtlCallExport *x)
{
	return x->tasks->len;
}

const FtlExportTask *ftl_call_export_task(const FtlCallExport *x, guint i)
{
	return &((ExportTask *)g_ptr_array_index(x->tasks, i))->pub;
}

gint64 ftl_call_export_origin(const FtlCallExport *x)
{
	return x->origin;
}

guint64 ftl_call_export_n_open(const FtlCallExport *x)
{
	return x->n_open;
}

guint64 ftl_call_export_n_orphan(const FtlCallExport *x)
{
	return x->n_orphan;
}


FTL_CONSUMER_DEFINE(call_export, FtlCallExport);
