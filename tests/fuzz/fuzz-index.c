/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Fuzz target: the sparse-index cache reader (parse/index.c) and a --time
 * window read through the cache (parse/text-index.c, the text source's
 * seek and stop checks), against a full scan of the same window.
 *
 * The input: two bytes choosing the window, then an index file. Unless the
 * first byte's top bit is set, the file's header is made to match the
 * trace (magic, version, key, payload length, CRC), so that the mutations
 * reach the contents rather than stop at the checksum. The trace is made
 * once per process: 400 events on 4 CPUs, CPU 3's a little late (so that
 * a point's max_before is not the line before it), in a directory of its
 * own that is also $XDG_CACHE_HOME.
 *
 * The oracle: the window's events (timestamp, CPU, pid, name) through the
 * cache are the full scan's, or the read fails with an error (a cache
 * caught lying mid-window), or the cache is refused. One lie is out of
 * its reach by design: a restart point's bounds (max_before, min_from)
 * are facts about the whole file, checked only for agreement with the
 * points' own timestamps (index.c's index_check()); a point whose bounds
 * are narrower than the file's truth may steer a window past events, and
 * such an input is run without the comparison. */
#include "config.h"

#include "fuzz.h"

#include <glib/gstdio.h>
#include <string.h>
#include <zlib.h>

#include "model/iter.h"
#include "parse/index.h"
#include "parse/open.h"
#include "parse/text-index.h"

#define IDX_EVENTS 400
#define IDX_HEADER 96 /* index.c's IndexHeader */

static char *idx_dir, *idx_trace;
static FtlIndexKey idx_key;
static guint64 idx_off[IDX_EVENTS];
static gint64 idx_ts[IDX_EVENTS];

static void idx_make_trace(void)
{
	GString *s = g_string_new("# tracer: nop\n#\n");
	for (guint i = 0; i < IDX_EVENTS; i++) {
		guint cpu = i % 4;
		/* 1 us apart, CPU 3 written 2.5 us late */
		gint64 ts = 5000000000000 + (gint64)i * 1000 - (cpu == 3 ? 2500 : 0);
		idx_off[i] = s->len;
		idx_ts[i] = ts;
		g_string_append_printf(s,
				       "          task-%u  [%03u] d... %" G_GINT64_FORMAT
				       ".%06" G_GINT64_FORMAT ": block_rq_issue: 8,0 W 0 () %u + 8 "
				       "[task]\n",
				       100 + cpu, cpu, ts / 1000000000, ts % 1000000000 / 1000, i);
		idx_ts[i] = ts / 1000 * 1000;
	}
	g_autofree char *cache = g_build_filename(idx_dir, "cache", NULL);
	g_setenv("XDG_CACHE_HOME", cache, TRUE);
	idx_trace = g_build_filename(idx_dir, "trace.txt", NULL);
	if (!g_file_set_contents(idx_trace, s->str, (gssize)s->len, NULL) ||
	    !ftl_index_key_of(idx_trace, &idx_key))
		abort();
	g_string_free(s, TRUE);
}

/* FTL_FUZZ_INDEX_SEEDS=DIR: the trace's true index (a point every 16
 * events) written there behind a few window choices, as seeds. */
static void idx_write_seeds(const char *dir)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open_with(idx_trace, FTL_OPEN_NONE, &fuzz_read, &error);
	if (!trace || ftl_text_index_attach(trace, FTL_TS_NONE, FTL_TS_NONE, FTL_INDEX_USE_BUILD,
					    16, NULL) != FTL_INDEX_BUILDING)
		abort();
	g_autoptr(FtlIter) it = ftl_iter_new(trace, NULL);
	const FtlEvent *ev;
	while (ftl_iter_next(it, &ev, &error) == FTL_STATUS_OK)
		;
	g_autofree char *cache = ftl_index_cache_path(idx_trace);
	g_autofree char *bytes = NULL;
	gsize len;
	if (!g_file_get_contents(cache, &bytes, &len, NULL))
		abort();
	static const guint8 windows[][2] = { { 10, 20 }, { 1, 9 }, { 9, 60 }, { 101, 102 } };
	for (guint i = 0; i < G_N_ELEMENTS(windows); i++) {
		g_autofree char *path = g_strdup_printf("%s/index-window-%u", dir, i);
		g_autoptr(GByteArray) a = g_byte_array_new();
		g_byte_array_append(a, windows[i], 2);
		g_byte_array_append(a, (const guint8 *)bytes, (guint)len);
		if (!g_file_set_contents(path, (const char *)a->data, a->len, NULL))
			abort();
	}
	g_unlink(cache);
}

static void idx_init(void)
{
	if (idx_dir)
		return;
	fuzz_init();
	const char *base = g_file_test("/dev/shm", G_FILE_TEST_IS_DIR) ? "/dev/shm" : NULL;
	g_autofree char *tmpl = g_build_filename(base ? base : g_get_tmp_dir(),
						 "ftlens-fuzz-index-XXXXXX", NULL);
	idx_dir = g_mkdtemp(g_steal_pointer(&tmpl));
	if (!idx_dir)
		abort();
	idx_make_trace();
	if (g_getenv("FTL_FUZZ_INDEX_SEEDS"))
		idx_write_seeds(g_getenv("FTL_FUZZ_INDEX_SEEDS"));
}

/* The header made to fit the trace, the CRC made again (index.c's
 * index_digest()). */
static void idx_fit_header(guint8 *b, gsize len)
{
	memcpy(b, "FTLIDX\n", 8);
	guint32 version = FTL_INDEX_VERSION, bom = 0x01020304u;
	memcpy(b + 8, &version, 4);
	memcpy(b + 12, &bom, 4);
	memcpy(b + 16, &idx_key.size, 8);
	memcpy(b + 24, &idx_key.ino, 8);
	memcpy(b + 32, &idx_key.dev, 8);
	memcpy(b + 40, &idx_key.mtime_ns, 8);
	guint64 payload = len - IDX_HEADER;
	memcpy(b + 56, &payload, 8);
	memset(b + 64, 0, 32);
	guint32 crc = (guint32)crc32(crc32(0, NULL, 0), b, (uInt)len);
	crc = GUINT32_TO_LE(crc);
	memcpy(b + 64, &crc, 4);
}

/* Whether a point of idx claims narrower bounds than the file has. */
static gboolean idx_bounds_lie(const FtlIndex *idx)
{
	for (guint i = 0; i < ftl_index_n_points(idx); i++) {
		const FtlIndexPoint *p = ftl_index_point(idx, i);
		gint64 max_before = FTL_TS_NONE, min_from = G_MAXINT64;
		for (guint k = 0; k < IDX_EVENTS; k++) {
			if (idx_off[k] < p->offset)
				max_before = MAX(max_before, idx_ts[k]);
			else
				min_from = MIN(min_from, idx_ts[k]);
		}
		if (p->max_before < max_before || p->min_from > min_from)
			return TRUE;
	}
	return FALSE;
}

/* The window's events, one line each; NULL when the read failed. */
static GString *idx_window(gint64 t0, gint64 t1, FtlIndexUse use, FtlIndexState *state)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlTrace) trace = ftl_trace_open_with(idx_trace, FTL_OPEN_NONE, &fuzz_read, &error);
	if (!trace)
		abort(); /* the trace is ours: it opens */
	*state = ftl_text_index_attach(trace, t0, t1, use, 0, NULL);
	if (*state == FTL_INDEX_REFUSED)
		return NULL;
	FtlFilter f;
	ftl_filter_init(&f);
	f.t_start = t0;
	f.t_end = t1;
	g_autoptr(FtlIter) it = ftl_iter_new(trace, &f);
	GString *out = g_string_new(NULL);
	const FtlEvent *ev;
	FtlStatus st;
	while ((st = ftl_iter_next(it, &ev, &error)) == FTL_STATUS_OK)
		g_string_append_printf(out, "%" G_GINT64_FORMAT " %d %d %s\n", ev->ts, ev->cpu,
				       ev->pid, ev->name ? ev->name : "-");
	ftl_filter_clear(&f);
	if (st == FTL_STATUS_ERROR) {
		g_assert(error && error->message);
		g_string_free(out, TRUE);
		return NULL;
	}
	return out;
}

/* The full scan of a window depends on the window alone (the trace is
 * the process's own and never changes): made once per window and kept,
 * up to IDX_SCANS_MAX bytes of them, rather than at every input (it was
 * half of an execution). */
#define IDX_SCANS_MAX ((gsize)64 << 20)

static GHashTable *idx_scans; /* "t0 t1" -> the scan's text */
static gsize idx_scans_bytes;

static char *idx_full_scan(gint64 t0, gint64 t1)
{
	if (!idx_scans)
		idx_scans = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
	g_autofree char *key = g_strdup_printf("%" G_GINT64_FORMAT " %" G_GINT64_FORMAT, t0, t1);
	const char *known = g_hash_table_lookup(idx_scans, key);
	if (known)
		return g_strdup(known);
	FtlIndexState st;
	GString *want = idx_window(t0, t1, FTL_INDEX_USE_OFF, &st);
	g_assert(want);
	if (idx_scans_bytes + want->len <= IDX_SCANS_MAX) {
		idx_scans_bytes += want->len;
		g_hash_table_insert(idx_scans, g_steal_pointer(&key), g_strdup(want->str));
	}
	return g_string_free(want, FALSE);
}

static gint64 idx_pick(guint8 b)
{
	if (b % 9 == 0)
		return FTL_TS_NONE;
	return idx_ts[(b * 37u) % IDX_EVENTS] + (b & 1 ? 0 : (b & 2 ? 1 : -1));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	idx_init();
	if (size < 2)
		return 0;
	gint64 t0 = idx_pick(data[0]), t1 = idx_pick(data[1]);
	if (t0 != FTL_TS_NONE && t1 != FTL_TS_NONE && t1 < t0) {
		gint64 t = t0;
		t0 = t1;
		t1 = t;
	}
	gsize len = size - 2;
	g_autofree guint8 *b = g_memdup2(data + 2, len);
	if (!(data[0] & 0x80) && len >= IDX_HEADER)
		idx_fit_header(b, len);

	/* the reader alone, and what a window asks of what it accepts */
	g_autoptr(GError) error = NULL;
	g_autoptr(FtlIndex) idx = ftl_index_parse(b, len, &idx_key, &error);
	g_assert(idx || (error && error->message));
	gboolean lie = FALSE;
	if (idx) {
		gint start, stop;
		ftl_index_window(idx, t0, t1, &start, &stop);
		guint n = ftl_index_n_points(idx);
		g_assert(start < (gint)n && stop < (gint)n && (stop < 0 || stop > start));
		g_assert(ftl_index_find_event(idx, (guint64)t0) < (gint)n);
		for (guint i = 0; i < n; i++)
			(void)ftl_index_cpus(idx, ftl_index_point(idx, i));
		lie = idx_bounds_lie(idx);
	}

	/* the window through the cache against the full scan */
	g_autofree char *cache = ftl_index_cache_path(idx_trace);
	g_autoptr(GError) werr = NULL;
	if (!ftl_cache_write(cache, b, len, idx_trace, &werr))
		abort();
	FtlIndexState st;
	g_autofree char *want = idx_full_scan(t0, t1);
	GString *got = idx_window(t0, t1, FTL_INDEX_USE_AUTO, &st);
	g_unlink(cache);
	if (got && !lie && strcmp(want, got->str) != 0) {
		fprintf(stderr, "fuzz-index: the window through the cache (state %d) differs:\n"
				"--- full scan\n%s--- through the cache\n%s",
			(int)st, want, got->str);
		abort();
	}
	if (got)
		g_string_free(got, TRUE);
	return 0;
}
