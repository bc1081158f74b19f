/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kallsyms parsed once per process into a sorted table of addresses and
 * one block of names, answering libtraceevent's function lookups: a
 * capture's 5 MB of kallsyms cost tep_parse_kallsyms() a third of a second
 * and 10-13 MiB (a malloc'd name and list node per symbol) in each trace
 * that opened it; here about 4.5 MiB, once. */
#include "config.h"

#include "parse/kallsyms.h"

#include <string.h>

#include <event-parse.h>

#include "util/arena.h"
#include "util/strpool.h"
#include "util/strput.h"

struct _FtlKallsyms {
	gint refs; /* under kallsyms_lock */
	guint64 hash;
	gsize len;
	GMutex lock; /* guards the building below */
	char *text;  /* until built: in text_mem */
	FtlArena text_mem; /* huge pages: 5 MB copied at 4 KiB a fault costs
			    * 1,300 page faults, most of a trace.dat's open */
	gint built;  /* atomic: the table below is complete */
	guint n;
	guint64 *addrs; /* sorted as libtraceevent's map is */
	guint32 *names; /* offsets into blob */
	char *blob;	/* the names, NUL-terminated */
};

/* The tables of the texts open now. */
static GMutex kallsyms_lock;
static GSList *kallsyms_open;

FtlKallsyms *ftl_kallsyms_share(const char *text)
{
	gsize len = strlen(text);
	guint64 hash = ftl_strpool_hash(text, len); /* two traces of one file share it */
	g_mutex_lock(&kallsyms_lock);
	FtlKallsyms *k = NULL;
	for (GSList *l = kallsyms_open; l && !k; l = l->next) {
		FtlKallsyms *o = l->data;
		if (o->hash == hash && o->len == len)
			k = o;
	}
	if (!k) {
		k = g_new0(FtlKallsyms, 1);
		k->hash = hash;
		k->len = len;
		ftl_arena_init(&k->text_mem);
		k->text = ftl_arena_strndup(&k->text_mem, text, len);
		g_mutex_init(&k->lock);
		kallsyms_open = g_slist_prepend(kallsyms_open, k);
	}
	k->refs++;
	g_mutex_unlock(&kallsyms_lock);
	return k;
}

FtlKallsyms *ftl_kallsyms_ref(FtlKallsyms *k)
{
	g_mutex_lock(&kallsyms_lock);
	k->refs++;
	g_mutex_unlock(&kallsyms_lock);
	return k;
}

void ftl_kallsyms_unref(FtlKallsyms *k)
{
	if (!k)
		return;
	g_mutex_lock(&kallsyms_lock);
	gboolean last = --k->refs == 0;
	if (last)
		kallsyms_open = g_slist_remove(kallsyms_open, k);
	g_mutex_unlock(&kallsyms_lock);
	if (!last)
		return;
	ftl_arena_clear(&k->text_mem);
	g_free(k->addrs);
	g_free(k->names);
	g_free(k->blob);
	g_mutex_clear(&k->lock);
	g_free(k);
}

/* ---- parsing, as libtraceevent 1.7's tep_parse_kallsyms() ---------------- */

/* isspace() of the C locale, which is what sscanf's %s stops at for the
 * ASCII text kallsyms is */
static gboolean ks_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* g_ascii_xdigit_value() without a call per digit (megabytes of them) */
static inline gint ks_xdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* sscanf's "%16llx": leading blanks, a sign, a 0x, at most 16 characters
 * in all; FALSE when no number is there. */
static gboolean ks_hex(const char **pp, guint64 *out)
{
	const char *p = *pp;
	while (ks_space(*p))
		p++;
	int width = 16;
	gboolean neg = FALSE, digits = FALSE;
	if (*p == '+' || *p == '-') {
		neg = *p++ == '-';
		width--;
	}
	guint64 v = 0;
	if (width && *p == '0') {
		p++, width--, digits = TRUE;
		if (width && (*p == 'x' || *p == 'X'))
			p++, width--;
	}
	for (gint x; width && (x = ks_xdigit(*p)) >= 0; p++, width--, digits = TRUE)
		v = v * 16 + (guint64)x;
	*out = neg ? (guint64)0 - v : v;
	*pp = p;
	return digits;
}

typedef struct {
	guint64 addr;
	guint32 name;
	guint32 order; /* keeps the sort stable whatever the sort */
} KsEntry;

/* One line of kallsyms (NUL-terminated, no newline): FALSE when
 * libtraceevent stops parsing at it; *keep when it registers a function,
 * its name then [*name, *name_end). */
static gboolean ks_line(const char *line, guint64 *addr, gboolean *keep, const char **name,
			const char **name_end)
{
	const char *p = line;
	*keep = FALSE;
	if (!ks_hex(&p, addr))
		return FALSE;
	while (ks_space(*p))
		p++;
	char type = *p;
	if (!type)
		return FALSE;
	for (p++; ks_space(*p); p++)
		;
	const char *f = p;
	while (*p && !ks_space(*p))
		p++;
	if (p == f)
		return FALSE;
	/* arm's '$a' mapping symbols, x86-64's absolute per-CPU offsets */
	*keep = *f != '$' && type != 'A' && type != 'a';
	*name = f;
	*name_end = p;
	return TRUE;
}

static gint ks_entry_cmp(gconstpointer a, gconstpointer b)
{
	const KsEntry *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* The entries of text in libtraceevent's order: it prepends each function
 * to a list, then sorts the list by address with glibc's (stable) qsort,
 * so equal addresses stay last-registered first. */
static GArray *ks_parse(char *text, GString *blob)
{
	GArray *e = g_array_sized_new(FALSE, FALSE, sizeof(KsEntry), 4096);
	/* the lines strtok_r(text, "\n") gives, empty ones skipped, without
	 * its call per line (a kernel lists a hundred thousand) */
	for (char *line = text, *nl; *line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = 0;
		else
			nl = line + strlen(line);
		if (!*line)
			continue;
		guint64 addr;
		gboolean keep;
		const char *name, *end;
		if (!ks_line(line, &addr, &keep, &name, &end)) {
			g_debug("kallsyms: parsing stops at '%.40s' as libtraceevent's does", line);
			break;
		}
		if (!keep)
			continue;
		KsEntry en = { addr, (guint32)blob->len, 0 };
		ftl_string_put(blob, name, (gsize)(end - name) + 1); /* with a byte after */
		blob->str[blob->len - 1] = 0;
		g_array_append_val(e, en);
	}
	/* a kernel lists its symbols by address, but for modules: then the
	 * sort is only the reversal of each run of one address */
	KsEntry *all = (KsEntry *)(void *)e->data;
	gboolean sorted = TRUE;
	for (guint i = 1; i < e->len && sorted; i++)
		sorted = all[i - 1].addr <= all[i].addr;
	if (sorted) {
		for (guint i = 0, j; i < e->len; i = j) {
			for (j = i + 1; j < e->len && all[j].addr == all[i].addr; j++)
				;
			for (guint a = i, b = j - 1; a < b; a++, b--) {
				KsEntry t = all[a];
				all[a] = all[b];
				all[b] = t;
			}
		}
		return e;
	}
	for (guint i = 0; i < e->len; i++)
		all[i].order = e->len - 1 - i;
	g_array_sort(e, ks_entry_cmp);
	return e;
}

static void kallsyms_build(FtlKallsyms *k)
{
	g_mutex_lock(&k->lock);
	if (!g_atomic_int_get(&k->built)) {
		GString *blob = g_string_sized_new(k->len / 2);
		g_autoptr(GArray) e = ks_parse(k->text, blob);
		k->n = e->len;
		k->addrs = g_new(guint64, MAX(k->n, 1));
		k->names = g_new(guint32, MAX(k->n, 1));
		for (guint i = 0; i < k->n; i++) {
			k->addrs[i] = g_array_index(e, KsEntry, i).addr;
			k->names[i] = g_array_index(e, KsEntry, i).name;
		}
		gsize blob_len = blob->len;
		k->blob = g_realloc(g_string_free(blob, FALSE), MAX(blob_len, 1));
		ftl_arena_clear(&k->text_mem);
		k->text = NULL;
		g_atomic_int_set(&k->built, TRUE);
	}
	g_mutex_unlock(&k->lock);
}

/* ---- lookups --------------------------------------------------------- */

const char *ftl_kallsyms_find(FtlKallsyms *k, guint64 addr, guint64 *start)
{
	if (!g_atomic_int_get(&k->built))
		kallsyms_build(k);
	/* glibc's bsearch() with libtraceevent's func_bcmp(): a hit is an
	 * equal address, or one below the next entry's (the entry after the
	 * last one has address 0: nothing lies beyond the last symbol) */
	gsize l = 0, u = k->n;
	while (l < u) {
		gsize i = (l + u) / 2;
		guint64 a = k->addrs[i], next = i + 1 < k->n ? k->addrs[i + 1] : 0;
		if (addr == a || (addr > a && addr < next)) {
			*start = a;
			return k->blob + k->names[i];
		}
		if (addr < a)
			u = i;
		else
			l = i + 1;
	}
	return NULL;
}

static char *kallsyms_resolve(void *priv, unsigned long long *addrp, char **modp)
{
	guint64 start = 0;
	const char *name = ftl_kallsyms_find(priv, *addrp, &start);
	if (name)
		*addrp = start;
	*modp = NULL; /* nothing ftlens prints names a module */
	return (char *)name;
}

void ftl_kallsyms_attach(FtlKallsyms *k, struct tep_handle *tep)
{
	kallsyms_build(k);
	/* VALIDATED: hands libtraceevent ftlens's own kallsyms table (parsed here, bounded),
	 * not file bytes */
	tep_set_function_resolver(tep, kallsyms_resolve, k);
}

guint ftl_kallsyms_count(FtlKallsyms *k)
{
	kallsyms_build(k);
	return k->n;
}
