/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printk strings by address, as libtraceevent 1.7 keeps them (tep-printk.h). */
#include "config.h"

#include "parse/tep-printk.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
	char *str;
	gboolean differs; /* another string has the same address */
} PrintkEntry;

struct _FtlPrintkMap {
	gint refs; /* atomic */
	GHashTable *by_addr; /* guint64* -> PrintkEntry* */
};

static void printk_entry_free(gpointer p)
{
	PrintkEntry *e = p;
	g_free(e->str);
	g_free(e);
}

FtlPrintkMap *ftl_printk_map_new(void)
{
	FtlPrintkMap *m = g_new0(FtlPrintkMap, 1);
	m->refs = 1;
	m->by_addr = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, printk_entry_free);
	return m;
}

FtlPrintkMap *ftl_printk_map_ref(FtlPrintkMap *m)
{
	g_atomic_int_inc(&m->refs);
	return m;
}

void ftl_printk_map_unref(FtlPrintkMap *m)
{
	if (m && g_atomic_int_dec_and_test(&m->refs)) {
		g_hash_table_unref(m->by_addr);
		g_free(m);
	}
}

/* One registration, as tep_register_print_string() keeps fmt: without a
 * leading '"', and without a closing '"' and then a "\n" before it. */
static void printk_add(FtlPrintkMap *m, guint64 addr, const char *fmt)
{
	if (fmt[0] == '"')
		fmt++;
	char *s = g_strdup(fmt);
	gsize n = strlen(s);
	/* the library's pointer steps, on a string that tep-check's filter
	 * made 3 bytes long at least */
	if (n >= 3) {
		char *p = s + n - 1;
		if (*p == '"')
			*p = 0;
		p -= 2;
		if (strcmp(p, "\\n") == 0)
			*p = 0;
	}
	PrintkEntry *e = g_hash_table_lookup(m->by_addr, &addr);
	if (e) {
		e->differs |= strcmp(e->str, s) != 0;
		g_free(s);
		return;
	}
	e = g_new0(PrintkEntry, 1);
	e->str = s;
	gint64 *key = g_new(gint64, 1);
	*key = (gint64)addr;
	g_hash_table_insert(m->by_addr, key, e);
}

void ftl_printk_map_add_text(FtlPrintkMap *m, const char *text)
{
	/* tep_parse_printk_formats(): lines split at every '\n' (empty ones
	 * skipped), the address before the first ':' read as hex by
	 * strtoull(), the string one byte past that ':' */
	g_autofree char *copy = g_strdup(text);
	char *next = NULL;
	for (char *line = strtok_r(copy, "\n", &next); line; line = strtok_r(NULL, "\n", &next)) {
		char *fmt = NULL;
		char *addr = strtok_r(line, ":", &fmt);
		if (!addr)
			break;
		if (!fmt || !*fmt)
			continue; /* the library would copy from past the line's end:
				   * tep-check's filter keeps no such line */
		printk_add(m, strtoull(addr, NULL, 16), fmt + 1);
	}
}

gint ftl_printk_map_find(const FtlPrintkMap *m, guint64 addr, const char **str)
{
	const PrintkEntry *e = g_hash_table_lookup(m->by_addr, &addr);
	if (!e)
		return 0;
	if (e->differs)
		return -1;
	*str = e->str;
	return 1;
}
