/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the process keeps of a trace.dat between opens of it: a reopen in
 * the TUI cost a fork for the trial child, kallsyms parsed again once the
 * last trace holding it had closed, and every bprint marker rendered
 * again through tep_print_event(), whose %s arguments each take a 4 KiB
 * trace_seq (a fresh page each under ASan: 1.7 s of CPU for a capture's
 * 6,256 markers). None of it changes while the file does not. */
#include "config.h"

#include "parse/tep-memo.h"

#include <string.h>

#include "parse/index.h"
#include "util/strpool.h"

/* Rendered text kept per file, records and texts together: enough for
 * the markers of a capture many times over, bounded whatever the file. */
#define MEMO_TEXT_MAX ((gsize)32 << 20)

typedef struct {
	guint64 hash;
	gsize len;
	const guchar *data; /* the record's bytes: the key */
	const char *text;
} MemoText;

struct _FtlTepMemo {
	gint refs; /* under memo_lock */
	gboolean keyed; /* key names its file: shared */
	FtlIndexKey key;
	gint opened; /* atomic */
	GMutex kallsyms_lock;
	FtlKallsyms *kallsyms;
	GMutex text_lock;
	GHashTable *texts; /* MemoText* -> itself */
	gsize text_bytes;
};

static GMutex memo_lock;
static GSList *memo_open; /* the memos of the files with a trace open */
static FtlTepMemo *memo_kept; /* the last file closed */

static guint memo_text_hash(gconstpointer p)
{
	return (guint)((const MemoText *)p)->hash;
}

static gboolean memo_text_equal(gconstpointer a, gconstpointer b)
{
	const MemoText *x = a, *y = b;
	return x->hash == y->hash && x->len == y->len && memcmp(x->data, y->data, x->len) == 0;
}

static gboolean memo_key_equal(const FtlIndexKey *a, const FtlIndexKey *b)
{
	return a->size == b->size && a->ino == b->ino && a->dev == b->dev &&
	       a->mtime_ns == b->mtime_ns;
}

static void memo_free(FtlTepMemo *m)
{
	if (!m)
		return;
	ftl_kallsyms_unref(m->kallsyms);
	g_hash_table_unref(m->texts);
	g_mutex_clear(&m->kallsyms_lock);
	g_mutex_clear(&m->text_lock);
	g_free(m);
}

FtlTepMemo *ftl_tep_memo_get(const char *path)
{
	FtlIndexKey key;
	gboolean keyed = path && ftl_index_key_of(path, &key);
	g_mutex_lock(&memo_lock);
	FtlTepMemo *m = NULL;
	if (keyed && memo_kept && memo_key_equal(&memo_kept->key, &key)) {
		m = g_steal_pointer(&memo_kept);
		memo_open = g_slist_prepend(memo_open, m);
	}
	for (GSList *l = memo_open; keyed && l && !m; l = l->next) {
		FtlTepMemo *o = l->data;
		if (memo_key_equal(&o->key, &key))
			m = o;
	}
	if (!m) {
		m = g_new0(FtlTepMemo, 1);
		m->keyed = keyed;
		if (keyed) {
			m->key = key;
			memo_open = g_slist_prepend(memo_open, m);
		}
		g_mutex_init(&m->kallsyms_lock);
		g_mutex_init(&m->text_lock);
		/* the texts are freed with the memo, in one go */
		m->texts = g_hash_table_new_full(memo_text_hash, memo_text_equal, g_free, NULL);
	}
	m->refs++;
	g_mutex_unlock(&memo_lock);
	return m;
}

void ftl_tep_memo_unref(FtlTepMemo *m)
{
	if (!m)
		return;
	FtlTepMemo *drop = NULL;
	g_mutex_lock(&memo_lock);
	if (--m->refs == 0) {
		drop = m;
		if (m->keyed) {
			memo_open = g_slist_remove(memo_open, m);
			drop = memo_kept;
			memo_kept = m;
		}
	}
	g_mutex_unlock(&memo_lock);
	memo_free(drop);
}

gboolean ftl_tep_memo_opened(FtlTepMemo *m)
{
	return g_atomic_int_get(&m->opened) != 0;
}

void ftl_tep_memo_set_opened(FtlTepMemo *m)
{
	g_atomic_int_set(&m->opened, 1);
}

/* ---- the process's format child --------------------------------------- */

/* Verdicts kept, keys and all: a fuzzer's hours of damaged formats stay
 * bounded (all dropped at once past it; asked again, they are answered
 * again). A capture's formats are 2 MB. */
#define MEMO_VERDICT_MAX ((gsize)16 << 20)
/* Questions one child answers before the next file's start replaces it:
 * libtraceevent leaks on some damaged formats, and the child lives as
 * long as the process. */
#define MEMO_TRIALS_WORN 4096

typedef struct {
	guint64 hash;
	gsize len;
	gint8 verdict; /* FtlTrialResult */
	char key[];
} MemoVerdict;

static GMutex trials_lock; /* one question at a time to the child */
static FtlTrialServer *trials;
static guint trials_asked;
static GHashTable *verdicts; /* MemoVerdict* -> itself */
static gsize verdict_bytes;

static guint memo_verdict_hash(gconstpointer p)
{
	return (guint)((const MemoVerdict *)p)->hash;
}

static gboolean memo_verdict_equal(gconstpointer a, gconstpointer b)
{
	const MemoVerdict *x = a, *y = b;
	return x->hash == y->hash && x->len == y->len && memcmp(x->key, y->key, x->len) == 0;
}

FtlTrialServer *ftl_tep_memo_trials(void)
{
	g_mutex_lock(&trials_lock);
	FtlTrialServer *s = trials;
	g_mutex_unlock(&trials_lock);
	return s;
}

gboolean ftl_tep_memo_trials_unfit(void)
{
	g_mutex_lock(&trials_lock);
	gboolean unfit = !ftl_trial_server_alive(trials) || trials_asked >= MEMO_TRIALS_WORN;
	g_mutex_unlock(&trials_lock);
	return unfit;
}

void ftl_tep_memo_set_trials(FtlTrialServer *t)
{
	g_mutex_lock(&trials_lock);
	FtlTrialServer *old = trials;
	trials = t;
	trials_asked = 0;
	g_mutex_unlock(&trials_lock);
	ftl_trial_server_free(old);
}

FtlTrialResult ftl_tep_memo_try(int arg, const char *key, gsize len)
{
	MemoVerdict *probe = g_malloc(sizeof *probe + len);
	probe->hash = ftl_strpool_hash(key, len);
	probe->len = len;
	memcpy(probe->key, key, len);
	g_mutex_lock(&trials_lock);
	if (!verdicts)
		verdicts =
			g_hash_table_new_full(memo_verdict_hash, memo_verdict_equal, g_free, NULL);
	FtlTrialResult r = FTL_TRIAL_OK;
	const MemoVerdict *known = g_hash_table_lookup(verdicts, probe);
	if (known) {
		r = (FtlTrialResult)known->verdict;
	} else if (trials && !ftl_trial_server_alive(trials)) {
		r = FTL_TRIAL_CRASHED; /* gone: not a verdict on this one */
	} else if (trials) {
		/* the answer, or the child's end on this very question */
		r = ftl_trial_server_ask_with(trials, arg, key, (guint32)MIN(len, G_MAXINT32));
		trials_asked++;
		if (verdict_bytes + sizeof *probe + len > MEMO_VERDICT_MAX) {
			g_hash_table_remove_all(verdicts);
			verdict_bytes = 0;
		}
		probe->verdict = (gint8)r;
		g_hash_table_add(verdicts, g_steal_pointer(&probe));
		verdict_bytes += sizeof *probe + len;
	}
	g_mutex_unlock(&trials_lock);
	g_free(probe);
	return r;
}

void ftl_tep_memo_keep_kallsyms(FtlTepMemo *m, FtlKallsyms *k)
{
	g_mutex_lock(&m->kallsyms_lock);
	if (!m->kallsyms && k)
		m->kallsyms = ftl_kallsyms_ref(k);
	g_mutex_unlock(&m->kallsyms_lock);
}

const char *ftl_tep_memo_text(FtlTepMemo *m, const void *data, gsize len)
{
	MemoText probe = { ftl_strpool_hash(data, len), len, data, NULL };
	g_mutex_lock(&m->text_lock);
	const MemoText *t = g_hash_table_lookup(m->texts, &probe);
	g_mutex_unlock(&m->text_lock);
	return t ? t->text : NULL;
}

const char *ftl_tep_memo_add_text(FtlTepMemo *m, const void *data, gsize len, const char *text)
{
	gsize tlen = strlen(text) + 1, size = sizeof(MemoText) + len + tlen;
	MemoText probe = { ftl_strpool_hash(data, len), len, data, NULL };
	g_mutex_lock(&m->text_lock);
	const MemoText *t = g_hash_table_lookup(m->texts, &probe);
	if (!t && m->text_bytes + size <= MEMO_TEXT_MAX) {
		MemoText *n = g_malloc(size);
		guchar *p = (guchar *)(n + 1);
		memcpy(p, data, len);
		memcpy(p + len, text, tlen);
		*n = (MemoText){ probe.hash, len, p, (const char *)p + len };
		g_hash_table_add(m->texts, n);
		m->text_bytes += size;
		t = n;
	}
	g_mutex_unlock(&m->text_lock);
	return t ? t->text : NULL;
}
