/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libtraceevent 1.7's known faults on damaged input, prevented before the
 * call rather than contained after it (the trial children of trial.c stay
 * as a second line in the product; the fuzz targets do without them):
 * - tep_parse_printk_formats() copies from one byte past the ':' of each
 *   line, past the end of its copy on a line without one, and looks 3 bytes
 *   back from the end of the format, before its start when it is shorter:
 *   ftlens's own definition below passes on only the lines it reads within
 *   (libtracecmd's header read calls it through the dynamic linker too);
 * - tep_parse_event() dereferences NULL when a print fmt's REC->NAME names
 *   no field while a __print_flags() or __print_symbolic() is pending, a
 *   state kept in the library's static variables from one format to the
 *   next: ftl_tep_format_checked() refuses any format naming a field it does
 *   not declare (found by tests/fuzz/fuzz-rawdir, regress/rawdir/
 *   libtraceevent-print-flags-null-deref), or that dereferences anything
 *   but REC (NAME->field: fuzz-tracedat, regress/tracedat/
 *   libtraceevent-print-flags-damaged-rec.dat). */
#include "config.h"

#include "parse/tep-check.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

gpointer ftl_tep_next(const char *name)
{
	gpointer f = dlsym(RTLD_NEXT, name);
	if (!f) {
		/* libtraceevent is linked in: it cannot be missing */
		g_printerr("ftlens: libtraceevent's %s cannot be found\n", name);
		abort();
	}
	return f;
}

/* ---- printk formats -------------------------------------------------------- */

/* The lines of a printk_formats text libtraceevent 1.7 reads within: "ADDR:"
 * then at least one byte, and a format (after one more byte and an optional
 * '"') of 3 bytes at least. The others hold no usable format. */
static char *tep_check_printk_lines(const char *text)
{
	GString *out = g_string_new(NULL);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	for (char **l = lines; *l; l++) {
		const char *colon = strchr(*l, ':');
		if (!colon || colon == *l || !colon[1])
			continue;
		const char *fmt = colon + 2;
		if (*fmt == '"')
			fmt++;
		if (strlen(fmt) < 3)
			continue;
		g_string_append(out, *l);
		g_string_append_c(out, '\n');
	}
	return g_string_free(out, FALSE);
}

int tep_parse_printk_formats(struct tep_handle *tep, const char *buf)
{
	static int (*next)(struct tep_handle *, const char *);
	if (!next)
		next = (int (*)(struct tep_handle *, const char *))ftl_tep_next(
			"tep_parse_printk_formats");
	if (!buf)
		return -1;
	g_autofree char *safe = tep_check_printk_lines(buf);
	/* VALIDATED: only the lines tep_check_printk_lines() kept */
	return next(tep, safe);
}

/* ---- event formats ----------------------------------------------------------- */

static gboolean tep_check_ident_char(char c)
{
	return g_ascii_isalnum(c) || c == '_';
}

/* The field a "field:" declaration [p, end) names, as libtraceevent reads
 * it: the last identifier outside brackets ("char comm[16]", "__data_loc
 * char[] name"); added to names. */
static void tep_check_field(const char *p, const char *end, GHashTable *names)
{
	const char *name = NULL, *name_end = NULL;
	int depth = 0;
	while (p < end) {
		if (*p == '[') {
			depth++;
			p++;
		} else if (*p == ']') {
			depth = MAX(depth - 1, 0);
			p++;
		} else if (tep_check_ident_char(*p)) {
			const char *s = p;
			while (p < end && tep_check_ident_char(*p))
				p++;
			if (!depth) {
				name = s;
				name_end = p;
			}
		} else {
			p++;
		}
	}
	if (name)
		g_hash_table_add(names, g_strndup(name, (gsize)(name_end - name)));
}

/* The end of the string or character literal at p (its quote), within end. */
static const char *tep_check_skip_literal(const char *p, const char *end)
{
	char q = *p++;
	while (p < end && *p != q)
		p += *p == '\\' && p + 1 < end ? 2 : 1;
	return p < end ? p + 1 : end;
}

gboolean ftl_tep_format_checked(const char *text, gsize len)
{
	/* the library reads up to len or the first NUL */
	const char *end = text + strnlen(text, len);
	const char *print = g_strstr_len(text, end - text, "print fmt:");
	if (!print)
		return TRUE;
	g_autoptr(GHashTable) names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (const char *p = text; p < print;) {
		const char *eol = memchr(p, '\n', (gsize)(print - p));
		if (!eol)
			eol = print;
		const char *f = g_strstr_len(p, eol - p, "field:");
		if (f) {
			f += strlen("field:");
			const char *semi = memchr(f, ';', (gsize)(eol - f));
			tep_check_field(f, semi ? semi : eol, names);
		}
		p = eol + 1;
	}
	for (const char *p = print + strlen("print fmt:"); p < end;) {
		if (*p == '"' || *p == '\'') {
			p = tep_check_skip_literal(p, end);
			continue;
		}
		if (!tep_check_ident_char(*p)) {
			p++;
			continue;
		}
		const char *s = p;
		while (p < end && tep_check_ident_char(*p))
			p++;
		const char *q = p;
		while (q < end && g_ascii_isspace(*q))
			q++;
		if (end - q < 2 || q[0] != '-' || q[1] != '>')
			continue;
		/* NAME->field with NAME not REC: a damaged REC, which the
		 * library takes for a field of nothing (found by fuzz-tracedat:
		 * "__print_flags(REC->" cut to "__printbprint: EC->") */
		if (p - s != 3 || memcmp(s, "REC", 3) != 0)
			return FALSE;
		q += 2;
		while (q < end && g_ascii_isspace(*q))
			q++;
		const char *n = q;
		while (q < end && tep_check_ident_char(*q))
			q++;
		g_autofree char *name = g_strndup(n, (gsize)(q - n));
		if (!g_hash_table_contains(names, name))
			return FALSE;
		p = q;
	}
	return TRUE;
}

char *ftl_tep_format_safe(const char *text, gsize len, gsize *out_len)
{
	if (ftl_tep_format_checked(text, len))
		return NULL;
	/* checked found a print fmt: everything before it is kept */
	const char *end = text + strnlen(text, len);
	const char *print = g_strstr_len(text, end - text, "print fmt:");
	GString *s = g_string_new_len(text, print - text);
	g_string_append(s, "print fmt: \"\"\n");
	*out_len = s->len;
	return g_string_free(s, FALSE);
}
