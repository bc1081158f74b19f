/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Console captures: takes printk's prefixes (times, caller ids, levels,
 * syslog and dmesg decorations) off every line, splits lines that another
 * message cut into, and finds the ftrace dumps ftrace_dump() printed. */
#include "config.h"

#include "parse/console.h"

#include <string.h>

#include "parse/text.h"
#include "parse/tracedat.h"
#include "util/error.h"
#include "util/input.h"
#include "util/scan.h"

/* ftrace_dump() opens and closes its output with exactly this rule. */
#define CONSOLE_DUMP_RULE "---------------------------------"
/* Lines between "Dumping ftrace buffer:" and its opening rule before we
 * decide the dump never started. */
#define CONSOLE_DUMP_MAX_PREAMBLE 4
/* Bytes sniffed to tell a binary file from a text log. */
#define CONSOLE_SNIFF 65536

/* ---- prefixes --------------------------------------------------------- */

static const char *console_digits(const char *p, const char *e)
{
	while (p < e && g_ascii_isdigit(*p))
		p++;
	return p;
}

static gboolean console_lit(const char *p, const char *e, const char *lit)
{
	gsize n = strlen(lit);
	return (gsize)(e - p) >= n && memcmp(p, lit, n) == 0;
}

/* "** 3764 printk messages dropped ** " */
static const char *console_dropped(const char *p, const char *e)
{
	if (!console_lit(p, e, "** "))
		return p;
	const char *q = console_digits(p + 3, e);
	if (q == p + 3 || !console_lit(q, e, " printk messages dropped ** "))
		return p;
	return q + strlen(" printk messages dropped ** ");
}

/* "[   12.345678]" -> ns. Returns the end or NULL. */
static const char *console_time(const char *p, const char *e, gint64 *ns)
{
	if (p >= e || *p != '[')
		return NULL;
	const char *q = p + 1;
	while (q < e && *q == ' ')
		q++;
	const char *d = console_digits(q, e);
	gint64 t;
	const char *f = d - q <= 10 ? ftl_scan_sec(q, e, &t) : NULL;
	if (!f || f >= e || *f != ']')
		return NULL;
	*ns = t;
	return f + 1;
}

/* "[ T123]" / "[    C1]" (CONFIG_PRINTK_CALLER) */
static const char *console_caller(const char *p, const char *e, char *kind, gint32 *id)
{
	if (p >= e || *p != '[')
		return NULL;
	const char *q = p + 1;
	while (q < e && *q == ' ')
		q++;
	if (q >= e || (*q != 'T' && *q != 'C'))
		return NULL;
	const char *d = console_digits(q + 1, e);
	if (d == q + 1 || d - q > 11 || d >= e || *d != ']')
		return NULL;
	*kind = *q;
	*id = (gint32)g_ascii_strtoll(q + 1, NULL, 10);
	return d + 1;
}

/* "[Tue Dec  3 11:03:12 2024] " (dmesg -T) */
static const char *console_human_time(const char *p, const char *e)
{
	/* [Www Mmm dd hh:mm:ss yyyy] is 26 bytes */
	if (e - p < 26 || p[0] != '[' || p[25] != ']' || p[4] != ' ' || p[8] != ' ' ||
	    p[14] != ':' || p[17] != ':' || !g_ascii_isupper(p[1]) || !g_ascii_isupper(p[5]))
		return NULL;
	return p + 26;
}

/* Syslog and journal lines: "Dec  3 11:03:12 host kernel: ", ISO 8601
 * "2024-12-03T11:03:12.123456+00:00 host kernel: ". */
static const char *console_syslog(const char *p, const char *e)
{
	const char *q = NULL;
	if (e - p >= 16 && g_ascii_isupper(p[0]) && g_ascii_islower(p[1]) &&
	    g_ascii_islower(p[2]) && p[3] == ' ' && (p[4] == ' ' || g_ascii_isdigit(p[4])) &&
	    g_ascii_isdigit(p[5]) && p[6] == ' ' && p[9] == ':' && p[12] == ':' && p[15] == ' ')
		q = p + 16;
	else if (e - p >= 20 && g_ascii_isdigit(p[0]) && p[4] == '-' && p[7] == '-' &&
		 (p[10] == 'T' || p[10] == ' ') && p[13] == ':' && p[16] == ':') {
		q = p + 19;
		while (q < e && *q != ' ')
			q++;
		while (q < e && *q == ' ')
			q++;
	}
	if (!q)
		return NULL;
	/* the host name, then "kernel:" */
	const char *h = q;
	while (q < e && *q != ' ')
		q++;
	if (q == h || q >= e)
		return NULL;
	q++;
	if (!console_lit(q, e, "kernel:"))
		return NULL;
	q += 7;
	if (q < e && *q == ' ')
		q++;
	return q;
}

/* dmesg -x: "kern  :warn  : " */
static const char *console_dmesg_x(const char *p, const char *e)
{
	static const char *const fac[] = { "kern", "user", "mail", "daemon", "auth", "syslog" };
	for (guint i = 0; i < G_N_ELEMENTS(fac); i++) {
		if (!console_lit(p, e, fac[i]))
			continue;
		const char *q = p + strlen(fac[i]);
		while (q < e && *q == ' ')
			q++;
		if (q >= e || *q != ':')
			return NULL;
		q++;
		const char *w = q;
		while (q < e && g_ascii_isalpha(*q))
			q++;
		if (q == w)
			return NULL;
		while (q < e && *q == ' ')
			q++;
		if (q >= e || *q != ':')
			return NULL;
		q++;
		if (q < e && *q == ' ')
			q++;
		return q;
	}
	return NULL;
}

/* /dev/kmsg records: "6,1234,5678901,-;text" */
static const char *console_kmsg(const char *p, const char *e, gint *level, gint64 *ns)
{
	const char *a = console_digits(p, e);
	if (a == p || a >= e || *a != ',')
		return NULL;
	const char *b = console_digits(a + 1, e);
	if (b == a + 1 || b >= e || *b != ',')
		return NULL;
	const char *c = console_digits(b + 1, e);
	if (c == b + 1 || c >= e || *c != ',')
		return NULL;
	const char *s = memchr(c, ';', (gsize)(e - c));
	if (!s || s - c > 8)
		return NULL;
	/* microseconds: a count beyond what nanoseconds hold is no record's */
	guint64 us;
	if (!ftl_scan_u64(b + 1, c, &us) || us > (guint64)(G_MAXINT64 / 1000))
		return NULL;
	*level = (gint)(g_ascii_strtoll(p, NULL, 10) & 7);
	*ns = (gint64)us * 1000;
	return s + 1;
}

/* A serial capture tool's wall clock (minicom, tio, picocom, ts):
 * "[11:23:07] ", "[11:23:07.123] ". */
static const char *console_capture_clock(const char *p, const char *e)
{
	if (e - p < 11 || p[0] != '[' || p[3] != ':' || p[6] != ':')
		return NULL;
	for (guint i = 1; i < 9; i++)
		if (i != 3 && i != 6 && !g_ascii_isdigit(p[i]))
			return NULL;
	const char *q = p + 9;
	if (q < e && *q == '.')
		q = console_digits(q + 1, e);
	if (q + 1 >= e || q[0] != ']' || q[1] != ' ')
		return NULL;
	return q + 2;
}

/* Takes every prefix off [p, e) into l; returns where the message starts. */
static const char *console_prefixes(const char *p, const char *e, FtlConsoleLine *l)
{
	const char *q;
	p = console_dropped(p, e);
	if ((q = console_capture_clock(p, e)))
		p = q;
	if ((q = console_syslog(p, e)) || (q = console_dmesg_x(p, e)))
		p = q;
	if (e - p >= 3 && p[0] == '<' && g_ascii_isdigit(p[1])) {
		q = console_digits(p + 1, e);
		if (q < e && *q == '>' && q - p <= 4) {
			l->level = (gint8)(g_ascii_strtoll(p + 1, NULL, 10) & 7);
			p = q + 1;
		}
	}
	gint level;
	gint64 ns;
	if ((q = console_kmsg(p, e, &level, &ns))) {
		l->level = (gint8)level;
		l->ts = ns;
		return q;
	}
	if ((q = console_time(p, e, &ns))) {
		l->ts = ns;
		p = q;
		char kind;
		gint32 id;
		if ((q = console_caller(p, e, &kind, &id))) {
			l->caller_kind = kind;
			l->caller = id;
			p = q;
		}
		if (p < e && *p == ' ')
			p++;
	} else if ((q = console_human_time(p, e))) {
		p = q;
		if (p < e && *p == ' ')
			p++;
	}
	return p;
}

/* Where, after the start, another message's "[  123.456789]" begins on the
 * same line (printk's time always has six decimals), or NULL. */
static const char *console_embedded_time(const char *p, const char *e)
{
	for (const char *b = p + 1; b < e; b++) {
		b = memchr(b, '[', (gsize)(e - b));
		if (!b)
			return NULL;
		gint64 ns;
		const char *q = console_time(b, e, &ns);
		if (q && q - b >= 9 && q[-8] == '.')
			return b;
	}
	return NULL;
}

/* ---- lines -------------------------------------------------------------- */

/* Copies [p, e) into out without CRs and terminal escapes; other control
 * bytes become '?'. This is input normalization, not display: console lines
 * are C strings (a NUL from a zero-filled block would cut them) and a '?'
 * marks a byte that was no text; views still show every line through
 * util/escape.h. Returns TRUE if there were such bytes. */
static gboolean console_clean(const char *p, const char *e, GString *out)
{
	gboolean binary = FALSE;
	g_string_truncate(out, 0);
	while (p < e) {
		guchar c = (guchar)*p;
		if (c == '\r') {
			p++;
		} else if (c == 0x1b) {
			/* CSI "ESC [ params final" or a two-byte escape: a serial
			 * console shows firmware and getty screen control */
			p++;
			if (p < e && *p == '[') {
				p++;
				while (p < e && ((guchar)*p < 0x40 || (guchar)*p > 0x7e))
					p++;
			}
			if (p < e)
				p++;
		} else if ((c < 0x20 && c != '\t') || c == 0x7f) {
			g_string_append_c(out, '?');
			binary = TRUE;
			p++;
		} else {
			g_string_append_c(out, (char)c);
			p++;
		}
	}
	return binary;
}

static void console_add(FtlConsole *con, const char *p, const char *e, guint64 lineno,
			guint32 flags)
{
	FtlConsoleLine proto = { .ts = FTL_TS_NONE, .caller = -1, .level = -1 };
	for (;;) {
		const char *m = console_prefixes(p, e, &proto);
		const char *next = console_embedded_time(m, e);
		const char *end = next ? next : e;
		/* trailing blanks before a cut are the kernel's, not the text's */
		const char *te = end;
		if (next)
			while (te > m && te[-1] == ' ')
				te--;
		FtlConsoleLine *l = ftl_console_append(con, m, (gsize)(te - m));
		l->flags = flags | (next ? FTL_CONSOLE_LINE_CUT : 0);
		l->lineno = lineno;
		l->ts = proto.ts;
		l->caller = proto.caller;
		l->caller_kind = proto.caller_kind;
		l->level = proto.level;
		if (l->ts != FTL_TS_NONE)
			con->has_ts = TRUE;
		if (l->caller_kind)
			con->has_caller = TRUE;
		if (next && te > m)
			ftl_diags_add(con->diags, FTL_DIAG_CUT_LINE,
				      &(FtlDiagLoc){ con->path, lineno, -1 }, p, (gsize)(e - p), 0);
		if (!next)
			return;
		/* the rest is a message of its own */
		p = next;
		flags = (flags & FTL_CONSOLE_LINE_BINARY) | FTL_CONSOLE_LINE_SPLIT;
		proto = (FtlConsoleLine){ .ts = FTL_TS_NONE, .caller = -1, .level = -1 };
	}
}

/* ---- ftrace dumps --------------------------------------------------------- */

static const char *console_trim(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static gboolean console_is_rule(const char *s)
{
	s = console_trim(s);
	gsize n = strspn(s, "-");
	return n == strlen(CONSOLE_DUMP_RULE) && *console_trim(s + n) == 0;
}

/* "Dumping ftrace buffer:" / "Dumping ftrace instance NAME buffer:" */
static gboolean console_dump_header(const char *s, char **instance)
{
	s = console_trim(s);
	if (g_str_has_prefix(s, "Dumping ftrace buffer:")) {
		*instance = NULL;
		return TRUE;
	}
	if (!g_str_has_prefix(s, "Dumping ftrace instance "))
		return FALSE;
	const char *n = s + strlen("Dumping ftrace instance ");
	const char *b = strstr(n, " buffer:");
	if (!b || b == n)
		return FALSE;
	*instance = g_strndup(n, (gsize)(b - n));
	return TRUE;
}

/* A line that ends a dump whose closing rule never came: the machine went
 * on (or rebooted) without finishing it. */
static gboolean console_dump_stop(const FtlConsoleLine *l, const FtlConsoleLine *head)
{
	const char *s = console_trim(l->text);
	char *inst = NULL;
	if (console_dump_header(s, &inst)) {
		g_free(inst);
		return TRUE;
	}
	if (g_str_has_prefix(s, "---[ end ") || g_str_has_prefix(s, "Kernel Offset:") ||
	    g_str_has_prefix(s, "Rebooting in ") || g_str_has_prefix(s, "Linux version "))
		return TRUE;
	/* time going back by more than a second: a new boot */
	return l->ts != FTL_TS_NONE && head->ts != FTL_TS_NONE && l->ts + 1000000000 < head->ts;
}

static guint console_find_dump(FtlConsole *con, guint start)
{
	const FtlConsoleLine *head = ftl_console_line(con, start);
	char *instance = NULL;
	if (!console_dump_header(head->text, &instance))
		return start + 1;
	FtlConsoleDump *d = ftl_console_dump_new();
	d->instance = instance;
	d->header = d->end = start;
	g_ptr_array_add(con->dumps, d);
	gboolean started = FALSE;
	guint preamble = 0, i;
	for (i = start + 1; i < con->lines->len; i++) {
		FtlConsoleLine *l = &g_array_index(con->lines, FtlConsoleLine, i);
		if (!ftl_console_same_context(l, head)) {
			if (started)
				d->skipped++;
			continue;
		}
		if (console_dump_stop(l, head))
			break;
		const char *s = console_trim(l->text);
		if (!started) {
			if (!strcmp(s, "(ftrace buffer empty)")) {
				d->empty = d->closed = TRUE;
				d->end = i;
				return i + 1;
			}
			if (console_is_rule(s)) {
				started = TRUE;
				d->end = i;
				continue;
			}
			/* "# WARNING: FUNCTION TRACING IS CORRUPTED" and its second line */
			if (*s == '#') {
				l->flags |= FTL_CONSOLE_LINE_DUMP;
				g_array_append_val(d->content, i);
				d->end = i;
				continue;
			}
			if (++preamble > CONSOLE_DUMP_MAX_PREAMBLE)
				break;
			continue;
		}
		if (console_is_rule(s)) {
			d->closed = TRUE;
			d->end = i;
			break;
		}
		l->flags |= FTL_CONSOLE_LINE_DUMP;
		g_array_append_val(d->content, i);
		d->end = i;
	}
	if (!d->closed) {
		const FtlConsoleLine *h = ftl_console_line(con, start);
		ftl_diags_add(con->diags, FTL_DIAG_DUMP_UNENDED,
			      &(FtlDiagLoc){ con->path, h->lineno, -1 }, h->text, h->len, 0);
	}
	if (d->skipped) {
		const FtlConsoleLine *h = ftl_console_line(con, start);
		ftl_diags_add(con->diags, FTL_DIAG_DUMP_INTERLEAVED,
			      &(FtlDiagLoc){ con->path, h->lineno, -1 }, h->text, h->len,
			      d->skipped);
	}
	return MAX(d->end + 1, start + 1);
}

/* ---- reading ------------------------------------------------------------ */

FtlConsole *ftl_console_parse(const char *label, const char *data, gsize size)
{
	g_autoptr(FtlConsole) con = ftl_console_new(label);
	g_autoptr(GString) clean = g_string_new(NULL);
	const char *p = data, *end = data + size;
	guint64 lineno = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *le = nl ? nl : end;
		lineno++;
		gboolean binary = console_clean(p, le, clean);
		guint32 flags = binary ? FTL_CONSOLE_LINE_BINARY : 0;
		if (binary)
			ftl_diags_add(con->diags, FTL_DIAG_BINARY_BYTES,
				      &(FtlDiagLoc){ label, lineno, -1 }, p, (gsize)(le - p), 0);
		console_add(con, clean->str, clean->str + clean->len, lineno, flags);
		if (!nl && clean->len) {
			/* the capture stopped in the middle of this message */
			FtlConsoleLine *last =
				&g_array_index(con->lines, FtlConsoleLine, con->lines->len - 1);
			last->flags |= FTL_CONSOLE_LINE_CUT;
			ftl_diags_add(con->diags, FTL_DIAG_CUT_LINE,
				      &(FtlDiagLoc){ label, lineno, -1 }, p, (gsize)(le - p), 0);
		}
		p = nl ? nl + 1 : end;
	}
	con->n_input = lineno;
	for (guint i = 0; i < con->lines->len;) {
		const FtlConsoleLine *l = ftl_console_line(con, i);
		const char *s = console_trim(l->text);
		i = s[0] == 'D' ? console_find_dump(con, i) : i + 1;
	}
	return g_steal_pointer(&con);
}

/* A log is text: a few stray control bytes are noise on the line, a file
 * where one byte in twenty is one is something else. */
static gboolean console_check_text(const FtlInput *in, GError **error)
{
	if (in->size == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "'%s': empty file, no log to read",
			    in->path);
		return FALSE;
	}
	if (ftl_tracedat_sniff(in->data, in->size)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': a trace.dat (binary trace data), not a console log; read it "
			    "with 'ftlens report' or 'ftlens dump'",
			    in->path);
		return FALSE;
	}
	gsize n = MIN(in->size, CONSOLE_SNIFF), bad = 0;
	for (gsize i = 0; i < n;) {
		guchar c = (guchar)in->data[i];
		if (c == 0 || (c < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != 0x1b))
			bad++;
		if (c < 0x80) {
			i++;
			continue;
		}
		/* bytes that make no UTF-8 character are as telling (the sample's
		 * last character may be cut: not counted) */
		gunichar u = g_utf8_get_char_validated(in->data + i, (gssize)(n - i));
		if (u == (gunichar)-1)
			bad++;
		i += u < (gunichar)-2 ? (gsize)g_unichar_to_utf8(u, NULL) : 1;
	}
	if (bad * 20 > n) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': binary data (%zu of the first %zu bytes are control bytes or no "
			    "UTF-8), "
			    "not a console log",
			    in->path, bad, n);
		return FALSE;
	}
	return TRUE;
}

gboolean ftl_console_sniff(const char *data, gsize size)
{
	const char *p = data, *end = data + MIN(size, (gsize)CONSOLE_SNIFF);
	guint stamped = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', (gsize)(end - p));
		const char *le = nl ? nl : end;
		FtlConsoleLine l = { .ts = FTL_TS_NONE, .caller = -1, .level = -1 };
		const char *m = console_prefixes(p, le, &l);
		if (l.ts != FTL_TS_NONE)
			stamped++;
		if (console_lit(m, le, "Dumping ftrace ") || stamped >= 2)
			return TRUE;
		p = nl ? nl + 1 : end;
	}
	return FALSE;
}

FtlConsole *ftl_console_read(const char *path, const FtlReadOptions *ro, GError **error)
{
	g_autoptr(FtlInput) in = ftl_input_open(path, ro, error);
	if (!in)
		return NULL;
	if (!console_check_text(in, error))
		return NULL;
	return ftl_console_parse(path, in->data, in->size);
}

/* ---- dumps as traces ------------------------------------------------------ */

char *ftl_console_dump_text(const FtlConsole *c, guint i, gsize *len)
{
	const FtlConsoleDump *d = g_ptr_array_index(c->dumps, i);
	GString *s = g_string_new(NULL);
	const FtlConsoleLine *h = ftl_console_line(c, d->header);
	const FtlConsoleLine *last = ftl_console_line(c, d->end);
	g_string_append_printf(
		s,
		"# ftrace dump%s%s recovered by ftlens from %s lines %" G_GUINT64_FORMAT
		"-%" G_GUINT64_FORMAT "\n",
		d->instance ? " of instance " : "", d->instance ? d->instance : "", c->path,
		h->lineno, last->lineno);
	for (guint k = 0; k < d->content->len; k++) {
		const FtlConsoleLine *l = ftl_console_line(c, g_array_index(d->content, guint, k));
		g_string_append_len(s, l->text, l->len);
		g_string_append_c(s, '\n');
	}
	if (len)
		*len = s->len;
	return g_string_free(s, FALSE);
}

FtlTrace *ftl_console_dump_open(const FtlConsole *c, guint i, FtlOpenFlags flags,
				const FtlReadOptions *ro, GError **error)
{
	if (i >= c->dumps->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "'%s': no ftrace dump %u (it has %u)", c->path, i + 1, c->dumps->len);
		return NULL;
	}
	gsize len;
	char *text = ftl_console_dump_text(c, i, &len);
	g_autofree char *label = g_strdup_printf("%s (ftrace dump %u)", c->path, i + 1);
	FtlTrace *trace = ftl_trace_new(label, flags);
	ftl_trace_set_read_options(trace, ro);
	FtlInput *in = ftl_input_new_from_memory(label, text, len);
	ftl_trace_add_source(trace, ftl_text_source_new(trace, in, -1));
	return trace;
}
