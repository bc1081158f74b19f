/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sparse index module: the binary form round trip, staleness by each part
 * of the key, corruption and hostile contents refused without a crash, the
 * window and event searches, and the cache file under $XDG_CACHE_HOME. */
#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "parse/index.h"
#include "unit.h"
#include "util/timefmt.h"

static char *cache_root; /* $XDG_CACHE_HOME for the test */

static const FtlIndexKey key = { .size = 100000, .ino = 77, .dev = 5, .mtime_ns = 1234567890 };

/* Points at offsets 0, 1000, 2000, ...; timestamps 10, 20, ... with one
 * late event in each segment (so min_from and max_before differ). */
static FtlIndex *some_index(guint n)
{
	FtlIndex *idx = ftl_index_new(&key, 8);
	gint64 max = FTL_TS_NONE;
	for (guint i = 0; i < n; i++) {
		if (i)
			((FtlIndexPoint *)ftl_index_point(idx, i - 1))->min_from = (gint64)i * 10 - 12;
		FtlIndexPoint *p = ftl_index_add_point(idx);
		p->offset = (guint64)i * 1000;
		p->event_no = (guint64)i * 8;
		p->ts = (gint64)i * 10 + 10;
		p->max_before = max;
		p->line = (guint64)i * 9 + 5;
		p->seq = (guint64)i * 9 + 4;
		p->tracer = ftl_index_string(idx, "nop");
		FtlIndexCpu c0 = { 100 + (gint32)i, ftl_index_string(idx, "task"), p->ts - 1 };
		FtlIndexCpu c1 = { -1, FTL_INDEX_NO_STR, FTL_TS_NONE };
		ftl_index_add_cpu(idx, &c0);
		ftl_index_add_cpu(idx, &c1);
		max = (gint64)i * 10 + 17;
	}
	ftl_index_add_task(idx, 100, -1, "task");
	ftl_index_add_task(idx, 7, 7, NULL);
	FtlIndexEnd end = { .stats = { .total_lines = 1000, .events = 800 },
			    .entries_in_buffer = 800,
			    .entries_written = 900,
			    .header_cpus = 2,
			    .flags = FTL_INDEX_END_TIMED | FTL_INDEX_END_HEADER,
			    .tracer = ftl_index_string(idx, "nop") };
	for (guint i = 0; i < FTL_INDEX_N_DIAGS; i++)
		end.diags[i].first_text = FTL_INDEX_NO_STR;
	end.diags[0] = (FtlIndexDiag){ 3, 0, 42, 1, ftl_index_string(idx, "bad line") };
	ftl_index_finish(idx, &end, (gint64)n * 10 - 12);
	return idx;
}

static FtlIndex *parse_bytes(GBytes *b, const FtlIndexKey *k, GError **error)
{
	gsize len;
	const guchar *data = g_bytes_get_data(b, &len);
	return ftl_index_parse(data, len, k, error);
}

static void test_round_trip(void)
{
	g_autoptr(FtlIndex) idx = some_index(5);
	g_autoptr(GBytes) b = ftl_index_serialize(idx);
	g_autoptr(GError) err = NULL;
	g_autoptr(FtlIndex) back = parse_bytes(b, &key, &err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(back);
	CU_ASSERT_EQUAL(ftl_index_n_points(back), 5);
	CU_ASSERT_EQUAL(ftl_index_stride(back), 8);
	for (guint i = 0; i < 5; i++) {
		const FtlIndexPoint *p = ftl_index_point(idx, i), *q = ftl_index_point(back, i);
		CU_ASSERT_EQUAL(memcmp(p, q, sizeof *p), 0);
		const FtlIndexCpu *c = ftl_index_cpus(back, q);
		CU_ASSERT_EQUAL(q->n_cpus, 2);
		CU_ASSERT_EQUAL(c[0].pid, 100 + (gint32)i);
		CU_ASSERT_STRING_EQUAL(ftl_index_str(back, c[0].comm), "task");
		CU_ASSERT_PTR_NULL(ftl_index_str(back, c[1].comm));
	}
	/* min_from: the smallest timestamp from the point on */
	CU_ASSERT_EQUAL(ftl_index_point(back, 0)->min_from, -2);
	CU_ASSERT_EQUAL(ftl_index_point(back, 3)->min_from, 28);
	CU_ASSERT_EQUAL(ftl_index_point(back, 4)->min_from, 38);
	const FtlIndexEnd *e = ftl_index_end(back);
	CU_ASSERT_EQUAL(e->stats.events, 800);
	CU_ASSERT_EQUAL(e->entries_written, 900);
	CU_ASSERT_STRING_EQUAL(ftl_index_str(back, e->tracer), "nop");
	CU_ASSERT_EQUAL(e->diags[0].count, 3);
	CU_ASSERT_STRING_EQUAL(ftl_index_str(back, e->diags[0].first_text), "bad line");
	CU_ASSERT_EQUAL(ftl_index_n_tasks(back), 2);
	CU_ASSERT_EQUAL(ftl_index_task(back, 1)->tgid, 7);
	CU_ASSERT_PTR_NULL(ftl_index_str(back, ftl_index_task(back, 1)->comm));
}

static void test_stale(void)
{
	g_autoptr(FtlIndex) idx = some_index(3);
	g_autoptr(GBytes) b = ftl_index_serialize(idx);
	FtlIndexKey keys[4] = { key, key, key, key };
	keys[0].size++;
	keys[1].mtime_ns++;
	keys[2].ino++;
	keys[3].dev++;
	for (guint i = 0; i < 4; i++) {
		g_autoptr(GError) err = NULL;
		g_autoptr(FtlIndex) back = parse_bytes(b, &keys[i], &err);
		CU_ASSERT_PTR_NULL(back);
		CU_ASSERT(err && strstr(err->message, "stale"));
	}
}

/* Every cut and every flipped byte is refused, none crashes. */
static void test_corrupt(void)
{
	g_autoptr(FtlIndex) idx = some_index(4);
	g_autoptr(GBytes) b = ftl_index_serialize(idx);
	gsize len;
	const guchar *data = g_bytes_get_data(b, &len);
	g_autofree guchar *copy = g_memdup2(data, len);
	for (gsize cut = 0; cut < len; cut++) {
		g_autoptr(FtlIndex) back = ftl_index_parse(copy, cut, &key, NULL);
		CU_ASSERT_PTR_NULL(back);
	}
	for (gsize i = 0; i < len; i++) {
		copy[i] ^= 0x40;
		g_autoptr(GError) err = NULL;
		g_autoptr(FtlIndex) back = ftl_index_parse(copy, len, &key, &err);
		CU_ASSERT_PTR_NULL(back);
		CU_ASSERT_PTR_NOT_NULL(err);
		copy[i] ^= 0x40;
	}
	g_autoptr(FtlIndex) ok = ftl_index_parse(copy, len, &key, NULL);
	CU_ASSERT_PTR_NOT_NULL(ok);
}

/* Checksums made right over contents that lie: refused all the same. */
static void test_hostile(void)
{
	for (guint how = 0; how < 5; how++) {
		g_autoptr(FtlIndex) idx = some_index(4);
		FtlIndexPoint *p = (FtlIndexPoint *)ftl_index_point(idx, 2);
		switch (how) {
		case 0:
			p->offset = key.size; /* past the end */
			break;
		case 1:
			p->offset = 500; /* before the point ahead of it */
			break;
		case 2:
			p->tracer = 99; /* no such string */
			break;
		case 3:
			p->cpu_first = 7; /* slots past the array */
			break;
		case 4:
			p->n_cpus = G_MAXUINT32;
			break;
		}
		g_autoptr(GBytes) b = ftl_index_serialize(idx);
		g_autoptr(GError) err = NULL;
		g_autoptr(FtlIndex) back = parse_bytes(b, &key, &err);
		CU_ASSERT_PTR_NULL(back);
		CU_ASSERT(err && strstr(err->message, "corrupt (contents)"));
	}
}

static void test_window(void)
{
	/* points at ts 10..100; max_before(i) = 10i+7 (i > 0), min_from(i) = 10i-2 */
	g_autoptr(FtlIndex) idx = some_index(10);
	gint start, stop;
	ftl_index_window(idx, FTL_TS_NONE, FTL_TS_NONE, &start, &stop);
	CU_ASSERT(start == -1 && stop == -1);
	/* from 45: point 3 (37 before it); point 4 has a late 47 before it */
	ftl_index_window(idx, 45, 55, &start, &stop);
	CU_ASSERT_EQUAL(start, 3);
	/* stop at the first point whose events are all after 55: min_from 58 */
	CU_ASSERT_EQUAL(stop, 6);
	ftl_index_window(idx, 5, 12, &start, &stop);
	CU_ASSERT_EQUAL(start, -1);
	CU_ASSERT_EQUAL(stop, 2);
	ftl_index_window(idx, 500, FTL_TS_NONE, &start, &stop);
	CU_ASSERT_EQUAL(start, 9);
	CU_ASSERT_EQUAL(stop, -1);
	/* a window before everything: read nothing of the middle */
	ftl_index_window(idx, -100, -50, &start, &stop);
	CU_ASSERT_EQUAL(start, -1);
	CU_ASSERT_EQUAL(stop, 1);
	CU_ASSERT_EQUAL(ftl_index_find_event(idx, 0), 0);
	CU_ASSERT_EQUAL(ftl_index_find_event(idx, 17), 2);
	CU_ASSERT_EQUAL(ftl_index_find_event(idx, 1000), 9);
}

static void test_untimed(void)
{
	g_autoptr(FtlIndex) idx = some_index(6);
	FtlIndexEnd end = *ftl_index_end(idx);
	end.flags &= ~FTL_INDEX_END_TIMED;
	ftl_index_finish(idx, &end, 0);
	gint start, stop;
	ftl_index_window(idx, 30, 40, &start, &stop);
	CU_ASSERT(start == -1 && stop == -1);
}

static void test_cache_file(void)
{
	g_autofree char *dir = g_dir_make_tmp("ftl-index-XXXXXX", NULL);
	g_autofree char *input = g_build_filename(dir, "trace.txt", NULL);
	CU_ASSERT_FATAL(g_file_set_contents(input, "x\n", 2, NULL));
	g_autofree char *path = ftl_index_cache_path(input);
	g_autofree char *want = g_build_filename(cache_root, "ftlens", NULL);
	CU_ASSERT(g_str_has_prefix(path, want));
	CU_ASSERT(g_str_has_suffix(path, ".idx"));
	g_autoptr(FtlIndex) idx = some_index(3);
	g_autoptr(GError) err = NULL;
	CU_ASSERT(ftl_index_save(idx, input, &err));
	g_autoptr(FtlIndex) back = ftl_index_load(input, &key, &err);
	CU_ASSERT_PTR_NOT_NULL(back);
	/* nothing beside the input */
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;
	while (g_dir_read_name(d))
		n++;
	CU_ASSERT_EQUAL(n, 1);
	g_autofree char *cmd = g_strdup_printf("rm -rf '%s' '%s'", dir, cache_root);
	CU_ASSERT(system(cmd) == 0);
}

int main(void)
{
	/* before GLib reads it: the cache goes to a directory the test makes */
	cache_root = g_dir_make_tmp("ftl-index-cache-XXXXXX", NULL);
	g_setenv("XDG_CACHE_HOME", cache_root, TRUE);
	static const UnitTest tests[] = {
		{ "round trip", test_round_trip },
		{ "stale by size, mtime, inode, device", test_stale },
		{ "cut or flipped bytes refused", test_corrupt },
		{ "hostile contents with a right checksum refused", test_hostile },
		{ "window and event searches", test_window },
		{ "untimed traces do not seek", test_untimed },
		{ "cache file under XDG_CACHE_HOME", test_cache_file },
		{ NULL, NULL },
	};
	int rc = unit_run("index", tests);
	g_free(cache_root);
	return rc;
}
