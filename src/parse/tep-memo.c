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
	GMutex trial_lock; /* one question at a time to the child */
	FtlTrialServer *trials;
	GArray *verdicts; /* gint8 per format: 0 not asked, else FtlTrialResult + 2 */
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
	ftl_trial_server_free(m->trials);
	g_array_unref(m->verdicts);
	ftl_kallsyms_unref(m->kallsyms);
	g_hash_table_unref(m->texts);
	g_mutex_clear(&m->trial_lock);
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
		g_mutex_init(&m->trial_lock);
		g_mutex_init(&m->text_lock);
		m->verdicts = g_array_new(FALSE, TRUE, sizeof(gint8));
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

FtlTrialServer *ftl_tep_memo_trials(FtlTepMemo *m)
{
	g_mutex_lock(&m->trial_lock);
	FtlTrialServer *s = m->trials;
	g_mutex_unlock(&m->trial_lock);
	return s;
}

void ftl_tep_memo_set_trials(FtlTepMemo *m, FtlTrialServer *trials)
{
	g_mutex_lock(&m->trial_lock);
	gboolean keep = !m->trials;
	if (keep)
		m->trials = trials;
	g_mutex_unlock(&m->trial_lock);
	if (!keep)
		ftl_trial_server_free(trials);
}

FtlTrialResult ftl_tep_memo_try(FtlTepMemo *m, int i)
{
	if (i < 0)
		return FTL_TRIAL_CRASHED;
	g_mutex_lock(&m->trial_lock);
	FtlTrialResult r = FTL_TRIAL_OK;
	if ((guint)i < m->verdicts->len && g_array_index(m->verdicts, gint8, i))
		r = (FtlTrialResult)(g_array_index(m->verdicts, gint8, i) - 2);
	else if (m->trials) {
		r = ftl_trial_server_ask(m->trials, i);
		if ((guint)i >= m->verdicts->len)
			g_array_set_size(m->verdicts, (guint)i + 1);
		g_array_index(m->verdicts, gint8, i) = (gint8)(r + 2);
	}
	g_mutex_unlock(&m->trial_lock);
	return r;
}

void ftl_tep_memo_keep_kallsyms(FtlTepMemo *m, FtlKallsyms *k)
{
	g_mutex_lock(&m->trial_lock);
	if (!m->kallsyms && k)
		m->kallsyms = ftl_kallsyms_ref(k);
	g_mutex_unlock(&m->trial_lock);
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
