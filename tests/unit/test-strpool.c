/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The string pool: one pointer per distinct text, stable across table growth,
 * from any number of threads while the table grows under them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "unit.h"
#include "util/strpool.h"

static void test_same_text_same_pointer(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	/* Two separate buffers, so equal pointers can only come from interning. */
	char a[] = "sched_switch";
	char b[] = "sched_switch";
	const char *pa = ftl_strpool_intern(pool, a);
	const char *pb = ftl_strpool_intern(pool, b);
	CU_ASSERT_PTR_EQUAL(pa, pb);
	CU_ASSERT_PTR_NOT_EQUAL(pa, a);
	CU_ASSERT_PTR_NOT_EQUAL(pa, b);
	CU_ASSERT_STRING_EQUAL(pa, "sched_switch");
	CU_ASSERT_EQUAL(ftl_strpool_size(pool), 1);
}

static void test_slices_not_nul_terminated(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	/* Names as a parser sees them: slices of a line, followed by more text. */
	const char *line1 = "vfs_read() {";
	const char *line2 = "  vfs_readv <-do_syscall";
	const char *p1 = ftl_strpool_intern_len(pool, line1, 8);
	const char *p2 = ftl_strpool_intern_len(pool, line2 + 2, 8);
	CU_ASSERT_PTR_EQUAL(p1, p2);
	CU_ASSERT_STRING_EQUAL(p1, "vfs_read");
	CU_ASSERT_EQUAL(strlen(p1), 8);
	/* A NUL-terminated lookup of the same text meets the same entry. */
	CU_ASSERT_PTR_EQUAL(ftl_strpool_intern(pool, "vfs_read"), p1);
	/* A longer slice of the same bytes is a different string. */
	const char *p3 = ftl_strpool_intern_len(pool, line2 + 2, 9);
	CU_ASSERT_PTR_NOT_EQUAL(p3, p1);
	CU_ASSERT_STRING_EQUAL(p3, "vfs_readv");
	CU_ASSERT_EQUAL(ftl_strpool_size(pool), 2);
}

static void test_different_text_different_pointer(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	const char *a = ftl_strpool_intern(pool, "schedule");
	const char *b = ftl_strpool_intern(pool, "schedulE");
	const char *c = ftl_strpool_intern(pool, "schedule_timeout");
	const char *d = ftl_strpool_intern(pool, "sched");
	CU_ASSERT_PTR_NOT_EQUAL(a, b);
	CU_ASSERT_PTR_NOT_EQUAL(a, c);
	CU_ASSERT_PTR_NOT_EQUAL(a, d);
	CU_ASSERT_PTR_NOT_EQUAL(c, d);
	CU_ASSERT_STRING_EQUAL(a, "schedule");
	CU_ASSERT_STRING_EQUAL(b, "schedulE");
	CU_ASSERT_STRING_EQUAL(c, "schedule_timeout");
	CU_ASSERT_STRING_EQUAL(d, "sched");
	CU_ASSERT_EQUAL(ftl_strpool_size(pool), 4);
}

static void test_embedded_nul_in_slice(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	/* The key is (bytes, length): text that differs after a NUL is distinct. */
	const char buf1[] = { 'a', '\0', 'b' };
	const char buf2[] = { 'a', '\0', 'c' };
	const char *p1 = ftl_strpool_intern_len(pool, buf1, 3);
	const char *p2 = ftl_strpool_intern_len(pool, buf2, 3);
	CU_ASSERT_PTR_NOT_EQUAL(p1, p2);
	CU_ASSERT_EQUAL(memcmp(p1, buf1, 3), 0);
	CU_ASSERT_EQUAL(p1[3], '\0');
}

static void test_empty_string(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	const char *e1 = ftl_strpool_intern(pool, "");
	const char *e2 = ftl_strpool_intern_len(pool, "xyz", 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(e1);
	CU_ASSERT_PTR_EQUAL(e1, e2);
	CU_ASSERT_STRING_EQUAL(e1, "");
	CU_ASSERT_PTR_NOT_EQUAL(ftl_strpool_intern(pool, "x"), e1);
	CU_ASSERT_EQUAL(ftl_strpool_size(pool), 2);
}

static void test_growth_keeps_pointers(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	/* Far more than the initial table (1024 slots), so it rehashes several times
	 * and the string storage spans many chunks. */
	enum { N = 50000 };
	const char **first = g_new0(const char *, N);
	for (guint i = 0; i < N; i++) {
		char name[32];
		g_snprintf(name, sizeof name, "func_%u", i);
		first[i] = ftl_strpool_intern(pool, name);
		/* Interning again right away hits the new slot. */
		CU_ASSERT_PTR_EQUAL(ftl_strpool_intern(pool, name), first[i]);
	}
	CU_ASSERT_EQUAL(ftl_strpool_size(pool), N);
	/* After all the growth, the old pointers are still the interned ones and
	 * still hold their text. */
	guint bad = 0;
	for (guint i = 0; i < N; i++) {
		char name[32];
		g_snprintf(name, sizeof name, "func_%u", i);
		/* A non-NUL-terminated copy: the slice ends before the '!'. */
		g_autofree char *slice = g_strdup_printf("%s!", name);
		const char *again = ftl_strpool_intern_len(pool, slice, strlen(name));
		if (again != first[i] || strcmp(first[i], name) != 0)
			bad++;
	}
	CU_ASSERT_EQUAL(bad, 0);
	CU_ASSERT_EQUAL(ftl_strpool_size(pool), N);
	g_free(first);
}

static void test_long_string(void)
{
	g_autoptr(FtlStrPool) pool = ftl_strpool_new();
	/* Longer than the pool's 64 KiB chunk size. */
	gsize n = 100 * 1024;
	g_autofree char *big = g_malloc(n + 1);
	memset(big, 'q', n);
	big[n] = '\0';
	const char *p = ftl_strpool_intern_len(pool, big, n);
	CU_ASSERT_EQUAL(strlen(p), n);
	CU_ASSERT_PTR_EQUAL(ftl_strpool_intern(pool, big), p);
}

/* A hit once read its slot after the unlock, when another thread growing
 * the table could have freed it (ASan saw it in a parallel parse). */
#define POOL_THREADS 4
#define POOL_ROUNDS 40 /* fresh pools: each grows from its first size */
#define POOL_NEW 3000	/* distinct texts a thread adds to a pool */
#define POOL_SHARED 64	/* texts every thread looks up between its inserts */

typedef struct {
	FtlStrPool *pool;
	guint id;
	const char *shared[POOL_SHARED]; /* what this thread got for each */
	gboolean ok;
} PoolWorker;

static gpointer pool_work(gpointer data)
{
	PoolWorker *w = data;
	char buf[64];
	for (guint i = 0; i < POOL_NEW; i++) {
		int n = snprintf(buf, sizeof buf, "thread_%u_function_%u", w->id, i);
		const char *s = ftl_strpool_intern_len(w->pool, buf, (gsize)n);
		if (strcmp(s, buf) != 0)
			w->ok = FALSE;
		for (guint k = 0; k < 8; k++) {
			guint j = (i * 8 + k) % POOL_SHARED;
			n = snprintf(buf, sizeof buf, "shared_%u", j);
			s = ftl_strpool_intern_len(w->pool, buf, (gsize)n);
			if (strcmp(s, buf) != 0 || (w->shared[j] && w->shared[j] != s))
				w->ok = FALSE;
			w->shared[j] = s;
		}
	}
	return NULL;
}

static void test_threads_while_growing(void)
{
	for (guint round = 0; round < POOL_ROUNDS; round++) {
		FtlStrPool *pool = ftl_strpool_new();
		PoolWorker w[POOL_THREADS] = { 0 };
		GThread *t[POOL_THREADS];
		for (guint i = 0; i < POOL_THREADS; i++) {
			w[i] = (PoolWorker){ .pool = pool, .id = i, .ok = TRUE };
			t[i] = g_thread_new("intern", pool_work, &w[i]);
		}
		gboolean ok = TRUE;
		for (guint i = 0; i < POOL_THREADS; i++) {
			g_thread_join(t[i]);
			ok = ok && w[i].ok;
		}
		/* every thread got the one pointer of each shared text */
		for (guint j = 0; j < POOL_SHARED; j++)
			for (guint i = 1; i < POOL_THREADS; i++)
				ok = ok && w[i].shared[j] == w[0].shared[j];
		ok = ok && ftl_strpool_size(pool) == POOL_THREADS * POOL_NEW + POOL_SHARED;
		ftl_strpool_free(pool);
		if (!ok) {
			CU_FAIL("threads saw different pointers or texts");
			return;
		}
	}
	CU_PASS("every round agreed");
}

static const UnitTest tests[] = {
	{ "same text, same pointer", test_same_text_same_pointer },
	{ "slices not NUL-terminated", test_slices_not_nul_terminated },
	{ "different text, different pointer", test_different_text_different_pointer },
	{ "embedded NUL in a slice", test_embedded_nul_in_slice },
	{ "empty string", test_empty_string },
	{ "growth keeps pointers", test_growth_keeps_pointers },
	{ "string longer than a chunk", test_long_string },
	{ "threads intern while the table grows: one pointer each", test_threads_while_growing },
	{ NULL, NULL },
};

int main(void)
{
	return unit_run("strpool", tests);
}
