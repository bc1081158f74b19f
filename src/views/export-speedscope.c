/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The speedscope export: evented profiles written task by task from a
 * spool of open/close records. */
#include "config.h"

#include "views/export-speedscope.h"

#include <string.h>

#include "util/error.h"
#include "util/spool.h"
#include "views/table.h"

#define SS_MAX_MARKER_FRAMES 10000
/* A record's frame with this bit is an inferred call's slot in named: its
 * name comes with its exit, after its open was spooled. */
#define SS_INFERRED  0x80000000u
#define SS_DISSOLVED G_MAXUINT32

typedef struct {
	gint64 at;
	guint32 frame;
	guint32 open; /* 1: "O", 0: "C" */
} SsRecord;

struct _FtlSpeedscopeExport {
	FILE *out;
	char *name;
	FtlSpool *spool;
	FtlCallExport *calls;
	GHashTable *frame_of; /* interned name or marker text -> index + 1 */
	GPtrArray *frames;    /* char* names (owned) */
	guint n_marker_frames;
	GArray *named; /* guint32 frame per inferred call, SS_DISSOLVED for none */
	GHashTable *inferred; /* (task << 32 | level) -> its slot in named, open now */
	GError *error; /* the first spool error */
	guint64 events;
};

static void ss_open(gpointer self, guint task, gint64 at, const FtlCall *call);
static void ss_close(gpointer self, guint task, gint64 start, gint64 end, const FtlCall *call);
static void ss_dissolve(gpointer self, guint task, const FtlCall *call);
static void ss_marker(gpointer self, guint task, gint64 at, const FtlEvent *ev);
static void ss_event(gpointer self, gint64 at, const FtlEvent *ev)
{
	(void)self, (void)at, (void)ev;
}

static const FtlExportSink ss_sink = { ss_open, ss_close, ss_dissolve, ss_marker, ss_event };

FtlSpeedscopeExport *ftl_speedscope_export_new(FILE *out, const char *name, FtlDiags *diags,
					       GError **error)
{
	FtlSpool *spool = ftl_spool_new(sizeof(SsRecord), error);
	if (!spool)
		return NULL;
	FtlSpeedscopeExport *s = g_new0(FtlSpeedscopeExport, 1);
	s->out = out;
	s->name = g_strdup(name);
	s->spool = spool;
	s->calls = ftl_call_export_new(&ss_sink, s, diags);
	s->frame_of = g_hash_table_new_full(g_str_hash, g_str_equal, NULL, NULL);
	s->frames = g_ptr_array_new_with_free_func(g_free);
	s->named = g_array_new(FALSE, FALSE, sizeof(guint32));
	s->inferred = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
	return s;
}

void ftl_speedscope_export_free(FtlSpeedscopeExport *s)
{
	if (!s)
		return;
	ftl_spool_free(s->spool);
	ftl_call_export_free(s->calls);
	g_hash_table_destroy(s->frame_of);
	g_ptr_array_unref(s->frames);
	g_array_unref(s->named);
	g_hash_table_destroy(s->inferred);
	g_clear_error(&s->error);
	g_free(s->name);
	g_free(s);
}

FtlCallExport *ftl_speedscope_export_calls(FtlSpeedscopeExport *s)
{
	return s->calls;
}

/* Frames are keyed by their text: the hash keeps the frame's own copy. */
static guint32 ss_frame(FtlSpeedscopeExport *s, const char *name)
{
	guint idx = GPOINTER_TO_UINT(g_hash_table_lookup(s->frame_of, name));
	if (idx)
		return idx - 1;
	char *copy = g_strdup(name);
	g_ptr_array_add(s->frames, copy);
	g_hash_table_insert(s->frame_of, copy, GUINT_TO_POINTER(s->frames->len));
	return s->frames->len - 1;
}

static void ss_record(FtlSpeedscopeExport *s, guint task, gint64 at, guint32 frame, gboolean open)
{
	SsRecord r = { at, frame, open ? 1 : 0 };
	if (!s->error)
		ftl_spool_add(s->spool, task, &r, &s->error);
	s->events++;
}

/* The slot of the inferred call open at level on task; taken (forgotten)
 * when take. */
static guint32 ss_inferred(FtlSpeedscopeExport *s, guint task, gint level, gboolean take)
{
	gint64 key = ((gint64)task << 32) | (guint32)level;
	gpointer slot = g_hash_table_lookup(s->inferred, &key);
	if (take)
		g_hash_table_remove(s->inferred, &key);
	return GPOINTER_TO_UINT(slot) - 1;
}

static void ss_open(gpointer self, guint task, gint64 at, const FtlCall *call)
{
	FtlSpeedscopeExport *s = self;
	if (!(call->flags & FTL_CALL_F_ORPHAN)) {
		ss_record(s, task, at, ss_frame(s, call->func), TRUE);
		return;
	}
	/* an inferred call: its frame is named when it ends */
	guint32 slot = s->named->len, none = SS_DISSOLVED;
	g_array_append_val(s->named, none);
	gint64 *key = g_new(gint64, 1);
	*key = ((gint64)task << 32) | (guint32)call->level;
	g_hash_table_insert(s->inferred, key, GUINT_TO_POINTER(slot + 1));
	ss_record(s, task, at, SS_INFERRED | slot, TRUE);
}

static void ss_close(gpointer self, guint task, gint64 start, gint64 end, const FtlCall *call)
{
	FtlSpeedscopeExport *s = self;
	(void)start;
	guint32 f = ss_frame(s, call->func);
	if (call->flags & FTL_CALL_F_ORPHAN) {
		guint32 slot = ss_inferred(s, task, call->level, TRUE);
		if (slot < s->named->len)
			g_array_index(s->named, guint32, slot) = f;
	}
	ss_record(s, task, end, f, FALSE);
}

/* Its open record is left out when written: its calls are its caller's. */
static void ss_dissolve(gpointer self, guint task, const FtlCall *call)
{
	ss_inferred(self, task, call->level, TRUE);
}

static void ss_marker(gpointer self, guint task, gint64 at, const FtlEvent *ev)
{
	FtlSpeedscopeExport *s = self;
	g_autofree char *text = g_strdup_printf(
		"marker: %.*s", (int)MIN(ev->u.marker.text.len, 200),
		ev->u.marker.text.p ? ev->u.marker.text.p : "");
	guint32 f;
	if (g_hash_table_contains(s->frame_of, text) || s->n_marker_frames < SS_MAX_MARKER_FRAMES) {
		s->n_marker_frames += !g_hash_table_contains(s->frame_of, text);
		f = ss_frame(s, text);
	} else {
		f = ss_frame(s, "marker");
	}
	ss_record(s, task, at, f, TRUE);
	ss_record(s, task, at, f, FALSE);
}

typedef struct {
	FILE *out;
	GArray *named;
	gboolean first;
} SsWrite;

static gboolean ss_write_event(const void *rec, gpointer data)
{
	const SsRecord *r = rec;
	SsWrite *w = data;
	guint32 frame = r->frame;
	if (frame & SS_INFERRED) {
		frame = g_array_index(w->named, guint32, frame & ~SS_INFERRED);
		if (frame == SS_DISSOLVED)
			return TRUE;
	}
	fprintf(w->out, "%s{\"type\":\"%s\",\"frame\":%u,\"at\":%" G_GINT64_FORMAT "}",
		w->first ? "" : ",", r->open ? "O" : "C", frame, r->at);
	w->first = FALSE;
	return TRUE;
}

static char *ss_task_name(const FtlExportTask *t)
{
	if (t->pid > 0)
		return g_strdup_printf("%s-%d", t->comm ? t->comm : "<...>", t->pid);
	return g_strdup_printf("%s (CPU %d)", t->pid == 0 ? "<idle>-0" : "<...>", t->cpu);
}

static gboolean ss_write_profiles(FtlSpeedscopeExport *s, GError **error)
{
	gboolean first = TRUE;
	for (guint i = 0; i < ftl_call_export_n_tasks(s->calls); i++) {
		if (!ftl_spool_count(s->spool, i))
			continue;
		const FtlExportTask *t = ftl_call_export_task(s->calls, i);
		g_autofree char *name = ss_task_name(t);
		g_autofree char *q = ftl_json_quote(name, -1);
		fprintf(s->out,
			"%s\n{\"type\":\"evented\",\"name\":%s,\"unit\":\"nanoseconds\","
			"\"startValue\":0,\"endValue\":%" G_GINT64_FORMAT ",\"events\":[",
			first ? "" : ",", q, MAX(t->last, 0));
		SsWrite w = { s->out, s->named, TRUE };
		if (!ftl_spool_read(s->spool, i, ss_write_event, &w, error))
			return FALSE;
		fputs("]}", s->out);
		first = FALSE;
	}
	return TRUE;
}

gboolean ftl_speedscope_export_write(FtlSpeedscopeExport *s, GError **error)
{
	if (s->error) {
		g_propagate_error(error, g_steal_pointer(&s->error));
		return FALSE;
	}
	g_autofree char *name = ftl_json_quote(s->name, -1);
	fprintf(s->out,
		"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
		"\"exporter\":\"ftlens %s\",\"name\":%s,\"activeProfileIndex\":0,\"profiles\":[",
		PACKAGE_VERSION, name);
	if (!ss_write_profiles(s, error))
		return FALSE;
	fputs("],\n\"shared\":{\"frames\":[", s->out);
	for (guint i = 0; i < s->frames->len; i++) {
		g_autofree char *q = ftl_json_quote(g_ptr_array_index(s->frames, i), -1);
		fprintf(s->out, "%s\n{\"name\":%s}", i ? "," : "", q);
	}
	fputs("]}}\n", s->out);
	return TRUE;
}

void ftl_speedscope_export_stats(const FtlSpeedscopeExport *s, guint64 *profiles,
				 guint64 *events, guint64 *open, guint64 *orphans)
{
	*profiles = 0;
	for (guint i = 0; i < ftl_call_export_n_tasks(s->calls); i++)
		*profiles += ftl_spool_count(s->spool, i) > 0;
	*events = s->events;
	*open = ftl_call_export_n_open(s->calls);
	*orphans = ftl_call_export_n_orphan(s->calls);
}
