/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reads the stack tracer's stack_trace tables, stack_max_size values and
 * ftlens stack series, and checks each table's arithmetic. */
#include "config.h"

#include "parse/stacktrace.h"

#include <string.h>

#include "util/error.h"
#include "util/input.h"
#include "util/scan.h"

#define SNIFF_BYTES  4096
#define SERIES_MAGIC "# ftlens-stack-series"

/* A line walker that hands out lines without "\n" or "\r\n" and can give
 * back the last line, so a table ends at the first line that is not its own. */
typedef struct {
	FtlStackSet *set;
	const char *name;
	const char *p, *end;
	guint64 lineno;
	const char *line, *le; /* the current line, trimmed of blanks both sides */
	gboolean unterminated; /* the current line is the last and has no newline */
	gboolean pushed;
	gboolean series;
} StReader;

typedef enum {
	ST_ITEM_TABLE,
	ST_ITEM_VALUE,
} StItemKind;

typedef struct {
	StItemKind kind;
	gpointer item; /* FtlStackTable* or FtlStackMaxSize* */
} StItem;

static void st_trim(const char **p, const char **e)
{
	while (*p < *e && (**p == ' ' || **p == '\t'))
		(*p)++;
	while (*e > *p && ((*e)[-1] == ' ' || (*e)[-1] == '\t'))
		(*e)--;
}

/* The next blank-separated word of p..e: *ws..*we; FALSE at the end. */
static gboolean st_word(const char **p, const char *e, const char **ws, const char **we)
{
	const char *q = *p;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	if (q == e)
		return FALSE;
	*ws = q;
	while (q < e && *q != ' ' && *q != '\t')
		q++;
	*we = q;
	*p = q;
	return TRUE;
}

static gboolean st_word_is(const char *ws, const char *we, const char *s)
{
	gsize n = strlen(s);
	return (gsize)(we - ws) == n && memcmp(ws, s, n) == 0;
}

static gboolean st_has_prefix(const char *p, const char *e, const char *s)
{
	gsize n = strlen(s);
	return (gsize)(e - p) >= n && memcmp(p, s, n) == 0;
}

/* Decimal digits, at most 18 of them, with an optional '-'; returns the end. */
static const char *st_number(const char *p, const char *e, gboolean neg_ok, gint64 *out)
{
	gboolean neg = neg_ok && p < e && *p == '-';
	p += neg;
	guint64 v;
	const char *q = ftl_scan_u64(p, e, &v);
	if (!q || q - p > 18)
		return NULL;
	*out = neg ? -(gint64)v : (gint64)v;
	return q;
}

/* The whole of p..e is one number. */
static gboolean st_is_value(const char *p, const char *e, gint64 *v)
{
	return p < e && st_number(p, e, FALSE, v) == e;
}

/* "# cat stack_trace", "$ sudo cat /sys/kernel/tracing/stack_max_size",
 * "/sys/kernel/debug/tracing # cat stack_trace": the command a doc sample
 * or a terminal capture shows before the file's content. */
static gboolean st_is_command(const char *p, const char *e)
{
	const char *ws, *we, *last = NULL, *last_e = NULL;
	gboolean cat = FALSE;
	while (st_word(&p, e, &ws, &we)) {
		cat |= st_word_is(ws, we, "cat");
		last = ws;
		last_e = we;
	}
	if (!cat || !last)
		return FALSE;
	const char *slash = g_strrstr_len(last, last_e - last, "/");
	const char *base = slash ? slash + 1 : last;
	return st_word_is(base, last_e, "stack_trace") ||
	       st_word_is(base, last_e, "stack_max_size");
}

/* "Depth    Size   Location    (N entries)"; *entries is -1 without the count. */
static gboolean st_is_header(const char *p, const char *e, gint64 *entries)
{
	const char *ws, *we;
	static const char *const words[] = { "Depth", "Size", "Location" };
	for (guint i = 0; i < G_N_ELEMENTS(words); i++)
		if (!st_word(&p, e, &ws, &we) || !st_word_is(ws, we, words[i]))
			return FALSE;
	*entries = -1;
	const char *q;
	gint64 n;
	if (st_word(&p, e, &ws, &we) && *ws == '(' && (q = st_number(ws + 1, we, TRUE, &n)) &&
	    q == we && st_word(&p, e, &ws, &we) && st_word_is(ws, we, "entries)"))
		*entries = n;
	return TRUE;
}

/* "-----    ----   --------" */
static gboolean st_is_rule(const char *p, const char *e)
{
	guint dashes = 0;
	for (; p < e; p++) {
		if (*p == '-')
			dashes++;
		else if (*p != ' ' && *p != '\t')
			return FALSE;
	}
	return dashes >= 3;
}

/* "  3)     3056     232   find_busiest_group+0x41/0x370" */
static gboolean st_parse_frame(const char *p, const char *e, gint64 *index, gint64 *depth,
			       gint64 *size, const char **loc, const char **loc_e)
{
	const char *q = st_number(p, e, FALSE, index);
	if (!q || q >= e || *q != ')')
		return FALSE;
	const char *ws, *we;
	q++;
	if (!st_word(&q, e, &ws, &we) || st_number(ws, we, TRUE, depth) != we)
		return FALSE;
	if (!st_word(&q, e, &ws, &we) || st_number(ws, we, TRUE, size) != we)
		return FALSE;
	while (q < e && (*q == ' ' || *q == '\t'))
		q++;
	if (q == e || *index > G_MAXUINT)
		return FALSE;
	*loc = q;
	*loc_e = e;
	return TRUE;
}

/* Line text for a message, at most 60 bytes as read (main.c makes
 * messages visible). */
static char *st_excerpt(const char *p, const char *e)
{
	return g_strndup(p, MIN((gsize)(e - p), 60));
}

/* FALSE with an error at the first byte of p..e no text file holds; line
 * is the line p starts on. Line ends are allowed when lines is TRUE. */
static gboolean st_text_bytes(const char *name, const char *p, const char *e, guint64 line,
			      gboolean lines, GError **error)
{
	for (; p < e; p++) {
		guchar c = (guchar)*p;
		if (lines && c == '\n')
			line++;
		else if ((c < 0x20 && c != '\t' && !(lines && c == '\r')) || c == 0x7f) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': line %" G_GUINT64_FORMAT
				    ": binary data (byte 0x%02x), not a stack tracer file",
				    name, line, c);
			return FALSE;
		}
	}
	return TRUE;
}

/* 1: a line; 0: no more lines; -1: error. */
static int st_next(StReader *r, GError **error)
{
	if (r->pushed) {
		r->pushed = FALSE;
		return 1;
	}
	if (r->p >= r->end)
		return 0;
	const char *nl = memchr(r->p, '\n', (gsize)(r->end - r->p));
	const char *start = r->p, *le = nl ? nl : r->end;
	r->lineno++;
	r->unterminated = !nl;
	r->p = nl ? nl + 1 : r->end;
	if (le > start && le[-1] == '\r')
		le--;
	if (!st_text_bytes(r->name, start, le, r->lineno, FALSE, error))
		return -1;
	r->line = start;
	r->le = le;
	st_trim(&r->line, &r->le);
	return 1;
}

static void st_push_back(StReader *r)
{
	r->pushed = TRUE;
}

static gboolean st_error(StReader *r, GError **error, FtlErrorCode code, const char *what)
{
	g_autofree char *text = st_excerpt(r->line, r->le);
	g_set_error(error, FTL_ERROR, code, "'%s': line %" G_GUINT64_FORMAT ": %s: '%s'", r->name,
		    r->lineno, what, text);
	return FALSE;
}

/* The arithmetic the kernel's table obeys: a frame's Size is its Depth
 * minus the next frame's, the last frame's Size is its Depth, and the
 * header counts the frames. */
static void st_check(StReader *r, const FtlStackTable *t)
{
	guint n = t->frames->len;
	gboolean index_told = FALSE;
	for (guint i = 0; i < n; i++) {
		const FtlStackFrame *f = ftl_stack_table_frame(t, i);
		if (f->index != i && !index_told) {
			ftl_stack_set_add_diag(r->set, FTL_STACK_DIAG_INDEX, r->name, f->line,
					       "frame numbered %u where %u was expected", f->index,
					       i);
			index_told = TRUE;
		}
		if (i + 1 < n) {
			const FtlStackFrame *next = ftl_stack_table_frame(t, i + 1);
			gint64 want = f->depth - next->depth;
			if (f->size != want)
				ftl_stack_set_add_diag(
					r->set, FTL_STACK_DIAG_SIZE, r->name, f->line,
					"frame %u (%s): Size %" G_GINT64_FORMAT
					", but Depth %" G_GINT64_FORMAT
					" - next Depth %" G_GINT64_FORMAT " = %" G_GINT64_FORMAT,
					f->index, f->func, f->size, f->depth, next->depth, want);
		} else if (f->size != f->depth) {
			ftl_stack_set_add_diag(r->set, FTL_STACK_DIAG_SIZE, r->name, f->line,
					       "last frame %u (%s): Size %" G_GINT64_FORMAT
					       ", but its Depth is %" G_GINT64_FORMAT,
					       f->index, f->func, f->size, f->depth);
		}
	}
	if (t->entries >= 0 && t->entries != (gint64)n)
		ftl_stack_set_add_diag(r->set, FTL_STACK_DIAG_ENTRIES, r->name, t->line,
				       "the header says %" G_GINT64_FORMAT
				       " entries, %u frame%s follow",
				       t->entries, n, n == 1 ? "" : "s");
}

/* A blank line inside a table ends it, unless frames follow it. Returns
 * st_next()'s status for the line after the blanks (pushed back), or -1
 * with error set when a frame follows. */
static int st_table_blank(StReader *r, GError **error)
{
	const char *loc, *loc_e;
	gint64 index, depth, size;
	int st;
	while ((st = st_next(r, error)) > 0 && r->line == r->le)
		;
	if (st > 0 && st_parse_frame(r->line, r->le, &index, &depth, &size, &loc, &loc_e)) {
		st_error(r, error, FTL_ERROR_PARSE,
			 "a frame line after a blank line inside the table");
		return -1;
	}
	if (st > 0)
		st_push_back(r);
	return st;
}

/* A complete table ends with the bottom frame, whose Size is its Depth;
 * fewer frames than announced and no bottom frame is a cut file. FALSE
 * with error set then. last_line: the table's last line. */
static gboolean st_table_whole(StReader *r, const FtlStackTable *t, guint64 last_line,
			       GError **error)
{
	guint n = t->frames->len;
	const FtlStackFrame *last = n ? ftl_stack_table_frame(t, n - 1) : NULL;
	if (t->entries > (gint64)n && (!last || last->size != last->depth)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT
			    ": the table is cut: its header (line %" G_GUINT64_FORMAT
			    ") says %" G_GINT64_FORMAT " entries, %u frame%s follow%s",
			    r->name, last_line, t->line, t->entries, n, n == 1 ? "" : "s",
			    last ? " and the last is not the bottom of the stack" : "");
		return FALSE;
	}
	return TRUE;
}

/* Reads the table whose header is the current line. */
static FtlStackTable *st_read_table(StReader *r, gint64 entries, GError **error)
{
	FtlStackTable *t = ftl_stack_set_add_table(r->set, r->name, r->lineno);
	t->entries = entries;
	int st = st_next(r, error);
	if (st < 0)
		return NULL;
	if (st == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
			    "'%s': line %" G_GUINT64_FORMAT ": the table is cut after its header",
			    r->name, t->line);
		return NULL;
	}
	if (!st_is_rule(r->line, r->le)) {
		st_error(r, error, FTL_ERROR_PARSE,
			 "expected the '-----    ----   --------' rule under the table header");
		return NULL;
	}
	guint64 last_line = r->lineno;
	while ((st = st_next(r, error)) > 0) {
		const char *p = r->line, *e = r->le, *loc, *loc_e;
		gint64 index, depth, size, v, ent;
		if (p == e) {
			st = st_table_blank(r, error);
			break;
		}
		if (r->series && st_has_prefix(p, e, "# snapshot")) {
			st_push_back(r);
			break;
		}
		if (!r->series && (st_is_command(p, e) || st_is_header(p, e, &ent) ||
				   (t->frames->len && st_is_value(p, e, &v)))) {
			st_push_back(r);
			break;
		}
		if (*p == '#' && t->frames->len == 0) {
			/* the kernel's "Stack tracer disabled" note under the header */
			if (g_strstr_len(p, e - p, "Stack tracer disabled"))
				t->disabled = TRUE;
			last_line = r->lineno;
			continue;
		}
		if (st_parse_frame(p, e, &index, &depth, &size, &loc, &loc_e)) {
			ftl_stack_table_add_frame(r->set, t, (guint)index, depth, size, loc,
						  (gsize)(loc_e - loc), r->lineno);
			last_line = r->lineno;
			continue;
		}
		st_error(r, error, FTL_ERROR_PARSE,
			 r->unterminated ? "the table is cut in the middle of a line"
					 : "not a stack_trace frame line");
		return NULL;
	}
	if (st < 0 || !st_table_whole(r, t, last_line, error))
		return NULL;
	st_check(r, t);
	return t;
}

/* Pairs each value with the table right after it in the same file, else
 * with the one right before it. */
static void st_pair_in_file(GArray *items)
{
	for (guint i = 0; i < items->len; i++) {
		StItem *it = &g_array_index(items, StItem, i);
		if (it->kind != ST_ITEM_VALUE)
			continue;
		FtlStackMaxSize *m = it->item;
		for (gint k = (gint)i + 1; k >= (gint)i - 1 && !m->table; k -= 2) {
			if (k < 0 || k >= (gint)items->len)
				continue;
			StItem *o = &g_array_index(items, StItem, k);
			FtlStackTable *t = o->item;
			if (o->kind == ST_ITEM_TABLE && !t->max_file) {
				t->max_size = m->value;
				t->max_file = m->file;
				t->max_line = m->line;
				m->table = t;
			}
		}
	}
}

static gboolean st_key(const char *ws, const char *we, const char *key, const char **v)
{
	if (!st_has_prefix(ws, we, key))
		return FALSE;
	*v = ws + strlen(key);
	return TRUE;
}

/* "12.345678" (seconds, any number of fraction digits up to 9) in ns. */
static gboolean st_seconds(const char *p, const char *e, gint64 *ns)
{
	gint64 sec, t = 0;
	const char *q = st_number(p, e, FALSE, &sec);
	if (!q || sec > 9000000000)
		return FALSE;
	if (q < e && *q == '.')
		q = ftl_scan_sec(p, e, &t);
	else
		t = sec * 1000000000;
	if (q != e)
		return FALSE;
	*ns = t;
	return TRUE;
}

/* The series' first line: "# ftlens stack series v1 kernel=RELEASE".
 * *kernel gets the release (pooled), or stays NULL. */
static gboolean st_series_header(StReader *r, const char **kernel, GError **error)
{
	const char *p = r->line + strlen(SERIES_MAGIC), *e = r->le, *ws, *we, *v;
	gboolean has_version = st_word(&p, e, &ws, &we);
	if (!has_version || !st_word_is(ws, we, "v1")) {
		g_autofree char *ver = has_version ? st_excerpt(ws, we) : g_strdup("");
		g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
			    "'%s': line %" G_GUINT64_FORMAT
			    ": ftlens stack series version '%s'; this ftlens reads v1",
			    r->name, r->lineno, ver);
		return FALSE;
	}
	while (st_word(&p, e, &ws, &we))
		if (st_key(ws, we, "kernel=", &v) && v < we)
			*kernel = ftl_strpool_intern_len(ftl_stack_set_pool(r->set), v,
							 (gsize)(we - v));
	return TRUE;
}

/* "# snapshot N time=SECONDS max_size=BYTES", the current line; time and
 * max_size may be missing (*time_ns FTL_TS_NONE, *max_size -1). */
static gboolean st_snapshot_line(StReader *r, gint64 *n, gint64 *time_ns, gint64 *max_size,
				 GError **error)
{
	const char *p = r->line, *e = r->le, *ws, *we, *v;
	*time_ns = FTL_TS_NONE;
	*max_size = -1;
	if (!st_word(&p, e, &ws, &we) || !st_word_is(ws, we, "#") || !st_word(&p, e, &ws, &we) ||
	    !st_word_is(ws, we, "snapshot") || !st_word(&p, e, &ws, &we) ||
	    st_number(ws, we, FALSE, n) != we)
		return st_error(r, error, FTL_ERROR_PARSE,
				"expected '# snapshot N time=SECONDS max_size=BYTES'");
	while (st_word(&p, e, &ws, &we)) {
		if (st_key(ws, we, "time=", &v)) {
			if (!st_seconds(v, we, time_ns))
				return st_error(r, error, FTL_ERROR_PARSE,
						"bad time= in the snapshot line");
		} else if (st_key(ws, we, "max_size=", &v)) {
			if (st_number(v, we, FALSE, max_size) != we)
				return st_error(r, error, FTL_ERROR_PARSE,
						"bad max_size= in the snapshot line");
		}
	}
	return TRUE;
}

/* Snapshots count up and go forward in time: diagnostics when one does not.
 * *prev_n and *prev_time carry the snapshot before. */
static void st_snapshot_order(StReader *r, guint64 line, gint64 n, gint64 time_ns, gint64 *prev_n,
			      gint64 *prev_time)
{
	if (*prev_n >= 0 && n <= *prev_n)
		ftl_stack_set_add_diag(r->set, FTL_STACK_DIAG_SERIES, r->name, line,
				       "snapshot %" G_GINT64_FORMAT
				       " comes after snapshot %" G_GINT64_FORMAT,
				       n, *prev_n);
	if (*prev_time != FTL_TS_NONE && time_ns != FTL_TS_NONE && time_ns < *prev_time)
		ftl_stack_set_add_diag(r->set, FTL_STACK_DIAG_SERIES, r->name, line,
				       "snapshot %" G_GINT64_FORMAT
				       ": time goes back %" G_GINT64_FORMAT
				       " ns from the snapshot before",
				       n, *prev_time - time_ns);
	*prev_n = n;
	if (time_ns != FTL_TS_NONE)
		*prev_time = time_ns;
}

static gboolean st_read_series(StReader *r, GError **error)
{
	const char *kernel = NULL;
	if (!st_series_header(r, &kernel, error))
		return FALSE;
	r->series = TRUE;
	gint64 prev_n = -1, prev_time = FTL_TS_NONE;
	int st;
	while ((st = st_next(r, error)) > 0) {
		if (r->line == r->le)
			continue;
		gint64 n, time_ns, max_size;
		if (!st_snapshot_line(r, &n, &time_ns, &max_size, error))
			return FALSE;
		guint64 snap_line = r->lineno;
		st_snapshot_order(r, snap_line, n, time_ns, &prev_n, &prev_time);
		while ((st = st_next(r, error)) > 0 && r->line == r->le)
			;
		if (st < 0)
			return FALSE;
		gint64 entries;
		if (st == 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "'%s': line %" G_GUINT64_FORMAT ": snapshot %" G_GINT64_FORMAT
				    " has no table (the file is cut)",
				    r->name, snap_line, n);
			return FALSE;
		}
		if (!st_is_header(r->line, r->le, &entries))
			return st_error(r, error, FTL_ERROR_PARSE,
					"expected the 'Depth Size Location' header of a "
					"stack_trace table");
		FtlStackTable *t = st_read_table(r, entries, error);
		if (!t)
			return FALSE;
		t->snapshot = n;
		t->time_ns = time_ns;
		t->kernel = kernel;
		if (max_size >= 0) {
			t->max_size = max_size;
			t->max_file = t->file;
			t->max_line = snap_line;
		}
	}
	return st >= 0;
}

gboolean ftl_stacktrace_read_data(FtlStackSet *set, const char *name, const char *data, gsize size,
				  GError **error)
{
	StReader r = { set, name, data, data + size, 0, NULL, NULL, FALSE, FALSE, FALSE };
	g_autoptr(GArray) items = g_array_new(FALSE, FALSE, sizeof(StItem));
	if (size == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY, "'%s': empty file, no stack table",
			    name);
		return FALSE;
	}
	/* noise is told as such even when its first line looks like text */
	if (!st_text_bytes(name, data, data + MIN(size, SNIFF_BYTES), 1, TRUE, error))
		return FALSE;
	int st;
	while ((st = st_next(&r, error)) > 0) {
		const char *p = r.line, *e = r.le;
		gint64 entries, v, d;
		const char *l1, *l2;
		if (p == e || st_is_command(p, e))
			continue;
		if (items->len == 0 && st_has_prefix(p, e, SERIES_MAGIC))
			return st_read_series(&r, error);
		StItem it;
		if (st_is_header(p, e, &entries)) {
			it.kind = ST_ITEM_TABLE;
			if (!(it.item = st_read_table(&r, entries, error)))
				return FALSE;
		} else if (st_is_value(p, e, &v)) {
			it.kind = ST_ITEM_VALUE;
			it.item = ftl_stack_set_add_max_size(set, name, r.lineno, v);
		} else if (st_parse_frame(p, e, &v, &d, &d, &l1, &l2)) {
			return st_error(&r, error, FTL_ERROR_PARSE,
					"a frame line outside a table (a blank line or other "
					"text ended the table above it)");
		} else {
			return st_error(&r, error, FTL_ERROR_FORMAT,
					items->len ? "not part of a stack table"
						   : "not a stack_trace table, stack_max_size "
						     "value or ftlens stack series");
		}
		g_array_append_val(items, it);
	}
	if (st < 0)
		return FALSE;
	if (items->len == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_EMPTY,
			    "'%s': no stack table or stack_max_size value in it", name);
		return FALSE;
	}
	st_pair_in_file(items);
	return TRUE;
}

gboolean ftl_stacktrace_read(FtlStackSet *set, const char *path, const FtlReadOptions *ro,
			     GError **error)
{
	if (g_strcmp0(path, "-") != 0 && g_file_test(path, G_FILE_TEST_IS_DIR)) {
		g_autofree char *table = g_build_filename(path, "stack_trace", NULL);
		g_autofree char *max = g_build_filename(path, "stack_max_size", NULL);
		if (!g_file_test(table, G_FILE_TEST_EXISTS)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': directory holds no stack_trace", path);
			return FALSE;
		}
		if (!ftl_stacktrace_read(set, table, ro, error))
			return FALSE;
		return !g_file_test(max, G_FILE_TEST_EXISTS) ||
		       ftl_stacktrace_read(set, max, ro, error);
	}
	g_autoptr(FtlInput) in = ftl_input_open(path, ro, error);
	if (!in)
		return FALSE;
	return ftl_stacktrace_read_data(set, path, in->data, in->size, error);
}

/* The table a lone stack_max_size value goes with: the table read from the
 * same directory whose name is the value's with stack_trace in place of
 * stack_max_size (plus anything after), else the only table read. */
static FtlStackTable *st_pair_table(FtlStackSet *set, const FtlStackMaxSize *m)
{
	g_autofree char *dir = g_path_get_dirname(m->file);
	g_autofree char *base = g_path_get_basename(m->file);
	char *at = strstr(base, "stack_max_size");
	FtlStackTable *named = NULL, *only = NULL;
	guint n_named = 0, n_plain = 0;
	for (guint i = 0; i < ftl_stack_set_n_tables(set); i++) {
		FtlStackTable *t = ftl_stack_set_table(set, i);
		if (t->snapshot >= 0)
			continue;
		n_plain++;
		only = t;
		if (!at || t->max_file)
			continue;
		g_autofree char *tdir = g_path_get_dirname(t->file);
		g_autofree char *tbase = g_path_get_basename(t->file);
		if (strcmp(dir, tdir) == 0 && strncmp(tbase, base, (gsize)(at - base)) == 0 &&
		    g_str_has_prefix(tbase + (at - base), "stack_trace")) {
			named = t;
			n_named++;
		}
	}
	if (n_named == 1)
		return named;
	return n_plain == 1 && !only->max_file ? only : NULL;
}

void ftl_stacktrace_finish(FtlStackSet *set)
{
	for (guint i = 0; i < ftl_stack_set_n_max_sizes(set); i++) {
		FtlStackMaxSize *m = ftl_stack_set_max_size(set, i);
		FtlStackTable *t = m->table ? NULL : st_pair_table(set, m);
		if (!t)
			continue;
		t->max_size = m->value;
		t->max_file = m->file;
		t->max_line = m->line;
		m->table = t;
	}
	for (guint i = 0; i < ftl_stack_set_n_tables(set); i++) {
		const FtlStackTable *t = ftl_stack_set_table(set, i);
		gint64 depth = ftl_stack_table_depth(t);
		if (t->max_size < 0 || !t->frames->len || t->max_size == depth)
			continue;
		ftl_stack_set_add_diag(set, FTL_STACK_DIAG_MAX_SIZE, t->max_file, t->max_line,
				       "stack_max_size %" G_GINT64_FORMAT
				       ", but the top frame's Depth is %" G_GINT64_FORMAT
				       " (table at %s:%" G_GUINT64_FORMAT ")",
				       t->max_size, depth, t->file, t->line);
	}
}

FtlStackInput ftl_stacktrace_sniff(const char *data, gsize size, guint64 *line)
{
	StReader r = { NULL,  "",    data, data + MIN(size, SNIFF_BYTES), 0, NULL, NULL,
		       FALSE, FALSE, FALSE };
	FtlStackInput kind = FTL_STACK_INPUT_NONE;
	guint64 at = 0;
	int st;
	while ((st = st_next(&r, NULL)) > 0) {
		const char *p = r.line, *e = r.le;
		gint64 v;
		if (p == e || st_is_command(p, e))
			continue;
		if (kind == FTL_STACK_INPUT_MAX_SIZE)
			return FTL_STACK_INPUT_NONE; /* a number and more: not the value file */
		at = r.lineno;
		if (st_has_prefix(p, e, SERIES_MAGIC))
			kind = FTL_STACK_INPUT_SERIES;
		else if (st_is_header(p, e, &v))
			kind = FTL_STACK_INPUT_TABLE;
		else if (st_is_value(p, e, &v) && size <= SNIFF_BYTES)
			kind = FTL_STACK_INPUT_MAX_SIZE;
		if (kind != FTL_STACK_INPUT_MAX_SIZE)
			break;
	}
	if (line)
		*line = at;
	return st < 0 ? FTL_STACK_INPUT_NONE : kind;
}

const char *ftl_stacktrace_input_name(FtlStackInput kind)
{
	switch (kind) {
	case FTL_STACK_INPUT_TABLE:
		return "a stack_trace table";
	case FTL_STACK_INPUT_MAX_SIZE:
		return "a stack_max_size value";
	case FTL_STACK_INPUT_SERIES:
		return "an ftlens stack series";
	case FTL_STACK_INPUT_NONE:
		break;
	}
	return "not a stack tracer file";
}
