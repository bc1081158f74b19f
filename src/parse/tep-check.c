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
 *   next: ftl_tep_format_check() refuses any format naming a field it does
 *   not declare (found by tests/fuzz/fuzz-rawdir, regress/rawdir/
 *   libtraceevent-print-flags-null-deref), or that dereferences anything
 *   but REC (NAME->field: fuzz-tracedat, regress/tracedat/
 *   libtraceevent-print-flags-damaged-rec.dat). */
#include "config.h"

#include "parse/tep-check.h"

#include "parse/tracecmd-guard.h"

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

static GMutex tep_parse_mutex;

void ftl_tep_parse_lock(void)
{
	g_mutex_lock(&tep_parse_mutex);
}

void ftl_tep_parse_unlock(void)
{
	g_mutex_unlock(&tep_parse_mutex);
}

/* ---- printk formats -------------------------------------------------------- */

/* The lines of a printk_formats text libtraceevent 1.7 reads within: "ADDR:"
 * then at least one byte, and a format (after one more byte and an optional
 * '"') of 3 bytes at least. The others hold no usable format. */
char *ftl_tep_printk_safe(const char *text)
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
	g_autofree char *safe = ftl_tep_printk_safe(buf);
	/* VALIDATED: only the lines ftl_tep_printk_safe() kept */
	int r = next(tep, safe);
	ftl_tracecmd_guard_printk(safe);
	return r;
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

/* Whether c is a byte libtraceevent's tokenizer reads as part of a token
 * outside a literal (its get_type(): a space, or printable ASCII; anything
 * else is a token of no type whose text is NULL, which its parser passes to
 * strcmp: found by fuzz-tracedat, regress/tracedat/
 * libtraceevent-format-byte-not-ascii.dat). */
static gboolean tep_check_plain(char c)
{
	return g_ascii_isprint(c) || g_ascii_isspace(c);
}

/* The end of the string or character literal at p (one past its quote),
 * or NULL when the library would not read it whole. Its loop goes on past
 * a byte that is printable ASCII and not the quote, or a newline, or any
 * byte that follows a backslash (its "\\ cancels itself" never takes
 * effect: "a\\" does not end there); it stops at a byte of 0x80 or more (a
 * negative char), at the end, and (leaving the literal open, out of step
 * with this scan) at any other unprintable byte. */
static const char *tep_check_skip_literal(const char *p, const char *end)
{
	char q = *p;
	for (char last = *p++; p < end; last = *p++) {
		if ((signed char)*p <= 0)
			return NULL;
		if (last == '\\' || *p == '\n')
			continue;
		if (*p == q)
			return p + 1;
		if (!g_ascii_isprint(*p))
			return NULL;
	}
	return NULL;
}

/* Whether the declarations before the print fmt, [p, end), are made only of
 * bytes the tokenizer reads. (A quote there is read: the library stops at
 * the first line that is no field, and a file damaged so is read as it
 * was, regress's rawdir-calltree-span-sum-overflow among them.) */
static gboolean tep_check_fields_plain(const char *p, const char *end)
{
	for (; p < end; p++)
		if (!tep_check_plain(*p))
			return FALSE;
	return TRUE;
}

/* Whether what follows a '/' or '%' at p is a divisor the library cannot
 * divide by zero: a nonzero integer literal, bare or in parentheses, or a
 * sizeof(). It folds an operation of two constants when it parses the
 * format ("4 / (1 - 1)" raised SIGFPE: fuzz-tracedat, regress/tracedat/
 * libtraceevent-divide-by-zero.dat) and divides by a record's field when it
 * prints one; the kernel's formats divide by literals and sizeof() only. */
static gboolean tep_check_divisor(const char *p, const char *end)
{
	while (p < end && g_ascii_isspace(*p))
		p++;
	if (end - p >= 6 && memcmp(p, "sizeof", 6) == 0)
		return TRUE;
	gboolean paren = p < end && *p == '(';
	if (paren)
		p++;
	while (p < end && g_ascii_isspace(*p))
		p++;
	const char *num = p;
	while (p < end && tep_check_ident_char(*p))
		p++;
	if (num == p || !g_ascii_isdigit(*num))
		return FALSE;
	char buf[32];
	if ((gsize)(p - num) >= sizeof buf)
		return FALSE;
	memcpy(buf, num, (gsize)(p - num));
	buf[p - num] = 0;
	char *rest = NULL;
	/* as the library reads an atom: strtoull(..., 0), suffix ignored */
	guint64 v = g_ascii_strtoull(buf, &rest, 0);
	for (; *rest; rest++)
		if (!strchr("uUlL", *rest))
			return FALSE;
	if (!v)
		return FALSE;
	while (p < end && g_ascii_isspace(*p))
		p++;
	if (paren) {
		if (p >= end || *p != ')')
			return FALSE;
		p++;
		while (p < end && g_ascii_isspace(*p))
			p++;
	}
	/* not the start of a longer operand ("8[0]", "8 (x)") */
	return p >= end || (*p != '[' && *p != '(');
}

#define TEP_CHECK_MAX_NEST 256

/* One open bracket of a print fmt and, for a '{', the shape of the table
 * entry it opens: "{ VALUE, TEXT }" as __print_flags() and
 * __print_symbolic() take them (TEXT a string, or ((void *)0) at the end
 * of the kernel's gfp table). */
typedef struct {
	char open;
	guint commas; /* at this level */
	guint before; /* tokens before the first comma */
	guint after;  /* tokens after it */
} TepCheckLevel;

/* Whether an argument list [p, end) has the structure libtraceevent 1.7
 * reads without reaching a NULL token: brackets balanced and nested within
 * TEP_CHECK_MAX_NEST, literals whole, only plain bytes between them, and
 * every '{' an entry of a flag or symbol table (a value, one comma, then
 * one more value: "{ 0x000000 [999] }" made it dereference NULL, found by
 * fuzz-tracedat, regress/tracedat/libtraceevent-print-flags-bad-entry.dat). */
static gboolean tep_check_args_shape(const char *p, const char *end)
{
	TepCheckLevel stack[TEP_CHECK_MAX_NEST];
	gint depth = 0;
	while (p < end) {
		char c = *p;
		if (g_ascii_isspace(c)) {
			p++;
			continue;
		}
		if (!tep_check_plain(c))
			return FALSE;
		TepCheckLevel *top = depth ? &stack[depth - 1] : NULL;
		if (c == '"' || c == '\'') {
			p = tep_check_skip_literal(p, end);
			if (!p)
				return FALSE;
		} else if (tep_check_ident_char(c)) {
			while (p < end && tep_check_ident_char(*p))
				p++;
		} else {
			p++;
		}
		if ((c == '/' || c == '%') && !tep_check_divisor(p, end))
			return FALSE;
		if (c == '(' || c == '[' || c == '{') {
			if (depth == TEP_CHECK_MAX_NEST || (c == '{' && top && top->open == '{'))
				return FALSE;
			if (top && top->commas)
				top->after++;
			else if (top)
				top->before++;
			stack[depth++] = (TepCheckLevel){ .open = c };
			continue;
		}
		if (c == ')' || c == ']' || c == '}') {
			char want = c == ')' ? '(' : c == ']' ? '[' : '{';
			if (!top || top->open != want)
				return FALSE;
			if (c == '}' && (top->commas != 1 || !top->before || !top->after))
				return FALSE;
			depth--;
			continue;
		}
		if (!top)
			continue;
		if (c == ',')
			top->commas++;
		else if (!top->commas)
			top->before++;
		else
			top->after++;
	}
	return depth == 0;
}

/* Whether each NAME->field of the print fmt [p, end) is REC->field with a
 * field names declares. */
static gboolean tep_check_fields_named(const char *p, const char *end, GHashTable *names)
{
	while (p < end) {
		if (*p == '"' || *p == '\'') {
			/* whole: tep_check_args_shape() passed */
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
		 * "__print_flags(REC->" cut to "__printbprint: EC->");
 * - its tokenizer makes a token of no text (NULL, which its parser passes
 *   to strcmp) of any byte that is not printable ASCII or a space, and of
 *   a literal left open, and it reads a table entry "{ VALUE, "TEXT" }"
 *   without checking its shape: ftl_tep_format_check() refuses a format
 *   with such a byte before its print fmt, and takes the print fmt away
 *   from one whose arguments do not have the shape the library reads
 *   (fuzz-tracedat: regress/tracedat/libtraceevent-format-byte-not-ascii.dat
 *   and libtraceevent-print-flags-bad-entry.dat);
 * - it divides constants when it parses a print fmt and fields when it
 *   prints a record, by zero as well (SIGFPE): a print fmt that divides by
 *   anything but a nonzero literal or a sizeof() has it taken away. */
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

FtlTepFormatVerdict ftl_tep_format_check(const char *text, gsize len)
{
	/* the library reads up to len or the first NUL */
	const char *end = text + strnlen(text, len);
	const char *print = g_strstr_len(text, end - text, "print fmt:");
	if (!tep_check_fields_plain(text, print ? print : end))
		return FTL_TEP_FORMAT_REFUSED;
	if (!print)
		return FTL_TEP_FORMAT_OK;
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
	const char *args = print + strlen("print fmt:");
	if (!tep_check_args_shape(args, end) || !tep_check_fields_named(args, end, names))
		return FTL_TEP_FORMAT_NO_PRINT;
	return FTL_TEP_FORMAT_OK;
}

FtlTepFormatVerdict ftl_tep_format_safe(const char *text, gsize len, char **safe,
				       gsize *safe_len)
{
	*safe = NULL;
	*safe_len = 0;
	FtlTepFormatVerdict v = ftl_tep_format_check(text, len);
	if (v != FTL_TEP_FORMAT_NO_PRINT)
		return v;
	/* check found a print fmt: everything before it is kept */
	const char *end = text + strnlen(text, len);
	const char *print = g_strstr_len(text, end - text, "print fmt:");
	GString *s = g_string_new_len(text, print - text);
	g_string_append(s, "print fmt: \"\"\n");
	*safe_len = s->len;
	*safe = g_string_free(s, FALSE);
	return v;
}
