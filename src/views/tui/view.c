/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Saved views: the key file, its one table of keys, the checks of a file
 * read back (see view.h). */
#include "config.h"

#include "views/tui/view.h"

#include <errno.h>
#include <string.h>

#include "util/error.h"
#include "util/fdio.h"
#include "util/output.h"
#include "util/timefmt.h"
#include "views/tui/filter.h"
#include "views/tui/tui.h"

#define VIEW_VERSION 1

typedef enum {
	VIEW_INT,
	VIEW_BOOL,
	VIEW_NAME,
	VIEW_NAMES,
	VIEW_INTS,
	VIEW_PATHS,
} ViewType;

typedef enum {
	VIEW_CHECK_NONE,
	VIEW_CHECK_PANEL,  /* a panel's name */
	VIEW_CHECK_FILTER, /* each name a filter the prompt takes */
} ViewCheck;

/* max: for lists, also the most elements */
typedef struct {
	const char *group, *key; /* a key ending in '*' stands for key + a..z */
	ViewType type;
	gint64 min, max;
	guint max_n;
	ViewCheck check;
} ViewKey;

#define TS_MIN	 (G_MININT64 + 1) /* anything but FTL_TS_NONE */
#define ROWS_MAX ((gint64)1 << 48)

#define INT(g, k, lo, hi)    { g, k, VIEW_INT, lo, hi, 0, VIEW_CHECK_NONE }
#define BOOL(g, k)	     { g, k, VIEW_BOOL, 0, 0, 0, VIEW_CHECK_NONE }
#define NAME(g, k, check)    { g, k, VIEW_NAME, 0, 0, 0, check }
#define LIST(g, k, t, n, ch) { g, k, t, 0, 0, n, ch }

static const ViewKey view_keys[] = {
	INT("ftlens-view", "version", VIEW_VERSION, VIEW_VERSION),
	/* what it was saved for */
	LIST("trace", "paths", VIEW_NAMES, 64, VIEW_CHECK_NONE),
	{ "trace", "sizes", VIEW_INTS, 0, G_MAXINT64, 64, VIEW_CHECK_NONE },
	INT("trace", "first", TS_MIN, G_MAXINT64),
	INT("trace", "events", 0, G_MAXINT64),
	/* the app's */
	NAME("view", "panel", VIEW_CHECK_PANEL),
	INT("view", "time_mode", 0, 2),
	LIST("view", "filters", VIEW_NAMES, 64, VIEW_CHECK_FILTER),
	INT("view", "mark_a", TS_MIN, G_MAXINT64),
	INT("view", "mark_b", TS_MIN, G_MAXINT64),
	INT("view", "follow", TS_MIN, G_MAXINT64), /* where Events goes when shown */
	INT("view", "bookmark_*", TS_MIN, G_MAXINT64),
	INT("view", "bookmark_row_*", -1, ROWS_MAX),
	/* the panels' */
	INT("events", "row", 0, ROWS_MAX),
	INT("events", "top", 0, ROWS_MAX),
	INT("events", "page", 0, 100000),
	INT("events", "ts", TS_MIN, G_MAXINT64),
	INT("events", "cpu", -1, G_MAXINT32),
	NAME("events", "event", VIEW_CHECK_NONE),
	INT("timeline", "t0", TS_MIN, G_MAXINT64),
	INT("timeline", "span", 1, G_MAXINT64),
	INT("timeline", "cursor", TS_MIN, G_MAXINT64),
	INT("timeline", "lane", 0, G_MAXINT32),
	INT("timeline", "top", 0, G_MAXINT32),
	INT("graph", "group", 0, 2),
	BOOL("graph", "all_open"),
	LIST("graph", "toggled", VIEW_PATHS, 10000, VIEW_CHECK_NONE),
	LIST("graph", "cursor", VIEW_PATHS, 1, VIEW_CHECK_NONE),
	LIST("graph", "top", VIEW_PATHS, 1, VIEW_CHECK_NONE),
	INT("graph", "page", 0, 100000),
	INT("functions", "sort", 0, FTL_TUI_VIEW_FUNCS_SORTS - 1),
	BOOL("functions", "reverse"),
	NAME("functions", "cursor", VIEW_CHECK_NONE),
	INT("functions", "top", 0, ROWS_MAX),
	INT("sched", "sort", 0, FTL_TUI_VIEW_SCHED_SORTS - 1),
	INT("sched", "scope", 0, 100000),
	INT("sched", "cursor", 0, ROWS_MAX),
	INT("sched", "top", 0, ROWS_MAX),
};

/* a name or a path's element, decoded */
#define VIEW_NAME_MAX  4096
#define VIEW_DEPTH_MAX 1024

struct _FtlTuiView {
	GKeyFile *kf;
	char *path;
};

static const ViewKey *view_key(const char *group, const char *key)
{
	for (guint i = 0; i < G_N_ELEMENTS(view_keys); i++) {
		const ViewKey *k = &view_keys[i];
		if (strcmp(k->group, group))
			continue;
		gsize n = strlen(k->key);
		if (k->key[n - 1] == '*') {
			if (!strncmp(k->key, key, n - 1) && key[n - 1] >= 'a' && key[n - 1] <= 'z' &&
			    !key[n])
				return k;
		} else if (!strcmp(k->key, key)) {
			return k;
		}
	}
	return NULL;
}

FtlTuiView *ftl_tui_view_new(void)
{
	FtlTuiView *v = g_new0(FtlTuiView, 1);
	v->kf = g_key_file_new();
	g_key_file_set_value(v->kf, "ftlens-view", "version", G_STRINGIFY(VIEW_VERSION));
	return v;
}

void ftl_tui_view_free(FtlTuiView *v)
{
	if (!v)
		return;
	g_key_file_free(v->kf);
	g_free(v->path);
	g_free(v);
}

const char *ftl_tui_view_path(const FtlTuiView *v)
{
	return v->path;
}

/* ---- quoting ---------------------------------------------------------------- */

/* '/' is quoted in a call path's names only (it parts them); a path read
 * was parted first, so the reader takes it raw anywhere. */
static gboolean view_raw_ok(guchar c)
{
	return c >= 0x20 && c < 0x7f && c != '%' && c != ';' && c != '\\';
}

static void view_quote(GString *out, const char *s, gboolean in_path)
{
	gsize n = strlen(s);
	for (gsize i = 0; i < n; i++) {
		guchar c = (guchar)s[i];
		/* the key file drops blanks at either end of a value */
		gboolean edge = c == ' ' && (i == 0 || i == n - 1);
		if (view_raw_ok(c) && !edge && !(in_path && c == '/'))
			g_string_append_c(out, (char)c);
		else
			g_string_append_printf(out, "%%%02X", c);
	}
}

/* A quoted name back, or NULL: a raw byte the writer quotes, a '%' not
 * followed by two hex digits, a NUL, too long. */
static char *view_unquote(const char *s, gsize len)
{
	GString *out = g_string_sized_new(len);
	for (gsize i = 0; i < len; i++) {
		guchar c = (guchar)s[i];
		if (c == '%' && i + 2 < len && g_ascii_isxdigit(s[i + 1]) &&
		    g_ascii_isxdigit(s[i + 2])) {
			c = (guchar)(g_ascii_xdigit_value(s[i + 1]) * 16 +
				     g_ascii_xdigit_value(s[i + 2]));
			i += 2;
			if (!c)
				goto bad;
		} else if (!view_raw_ok(c)) {
			goto bad;
		}
		g_string_append_c(out, (char)c);
		if (out->len > VIEW_NAME_MAX)
			goto bad;
	}
	return g_string_free(out, FALSE);
bad:
	g_string_free(out, TRUE);
	return NULL;
}

/* ---- setting ---------------------------------------------------------------- */

static const ViewKey *view_key_for(const char *group, const char *key, ViewType type)
{
	const ViewKey *k = view_key(group, key);
	g_assert(k && (k->type == type || (type == VIEW_PATHS && k->type == VIEW_PATHS)));
	return k;
}

void ftl_tui_view_set_int(FtlTuiView *v, const char *group, const char *key, gint64 value)
{
	const ViewKey *k = view_key_for(group, key, VIEW_INT);
	g_return_if_fail(value >= k->min && value <= k->max);
	char buf[32];
	g_snprintf(buf, sizeof buf, "%" G_GINT64_FORMAT, value);
	g_key_file_set_value(v->kf, group, key, buf);
}

void ftl_tui_view_set_bool(FtlTuiView *v, const char *group, const char *key, gboolean value)
{
	view_key_for(group, key, VIEW_BOOL);
	g_key_file_set_value(v->kf, group, key, value ? "true" : "false");
}

void ftl_tui_view_set_name(FtlTuiView *v, const char *group, const char *key, const char *name)
{
	view_key_for(group, key, VIEW_NAME);
	g_autoptr(GString) s = g_string_new(NULL);
	view_quote(s, name, FALSE);
	g_key_file_set_value(v->kf, group, key, s->str);
}

void ftl_tui_view_set_names(FtlTuiView *v, const char *group, const char *key,
			    const char *const *names, guint n)
{
	const ViewKey *k = view_key_for(group, key, VIEW_NAMES);
	g_return_if_fail(n <= k->max_n);
	g_autoptr(GString) s = g_string_new(NULL);
	for (guint i = 0; i < n; i++) {
		view_quote(s, names[i], FALSE);
		g_string_append_c(s, ';');
	}
	g_key_file_set_value(v->kf, group, key, s->str);
}

void ftl_tui_view_set_ints(FtlTuiView *v, const char *group, const char *key,
			   const gint64 *values, guint n)
{
	const ViewKey *k = view_key_for(group, key, VIEW_INTS);
	g_return_if_fail(n <= k->max_n);
	g_autoptr(GString) s = g_string_new(NULL);
	for (guint i = 0; i < n; i++) {
		g_return_if_fail(values[i] >= k->min && values[i] <= k->max);
		g_string_append_printf(s, "%" G_GINT64_FORMAT ";", values[i]);
	}
	g_key_file_set_value(v->kf, group, key, s->str);
}

void ftl_tui_view_add_path(FtlTuiView *v, const char *group, const char *key,
			   const char *const *names, guint n)
{
	const ViewKey *k = view_key_for(group, key, VIEW_PATHS);
	g_autofree char *old = g_key_file_get_value(v->kf, group, key, NULL);
	g_autoptr(GString) s = g_string_new(old);
	guint have = 0;
	for (const char *c = s->str; *c; c++)
		have += *c == ';';
	if (have >= k->max_n || n > VIEW_DEPTH_MAX)
		return; /* more than a reader takes: the rest stays as it opens */
	for (guint i = 0; i < n; i++) {
		if (i)
			g_string_append_c(s, '/');
		view_quote(s, names[i], TRUE);
	}
	g_string_append_c(s, ';');
	g_key_file_set_value(v->kf, group, key, s->str);
}

/* ---- getting (values checked when read) ------------------------------------- */

static char *view_value(const FtlTuiView *v, const char *group, const char *key)
{
	return g_key_file_get_value(v->kf, group, key, NULL);
}

static gboolean view_int(const char *s, gint64 min, gint64 max, gint64 *out)
{
	return s && g_ascii_string_to_signed(s, 10, min, max, out, NULL);
}

gboolean ftl_tui_view_get_int(const FtlTuiView *v, const char *group, const char *key,
			      gint64 *out)
{
	g_autofree char *s = view_value(v, group, key);
	const ViewKey *k = view_key(group, key);
	return s && k && view_int(s, k->min, k->max, out);
}

gboolean ftl_tui_view_get_bool(const FtlTuiView *v, const char *group, const char *key,
			       gboolean *out)
{
	g_autofree char *s = view_value(v, group, key);
	if (!s || (strcmp(s, "true") && strcmp(s, "false")))
		return FALSE;
	*out = !strcmp(s, "true");
	return TRUE;
}

char *ftl_tui_view_get_name(const FtlTuiView *v, const char *group, const char *key)
{
	g_autofree char *s = view_value(v, group, key);
	return s ? view_unquote(s, strlen(s)) : NULL;
}

/* The elements of a list value: split at ';', the last one ended by it. */
static char **view_split(const char *s)
{
	char **parts = g_strsplit(s, ";", -1);
	guint n = g_strv_length(parts);
	if (n && !*parts[n - 1]) {
		g_free(parts[n - 1]);
		parts[n - 1] = NULL;
	}
	return parts;
}

char **ftl_tui_view_get_names(const FtlTuiView *v, const char *group, const char *key)
{
	g_autofree char *s = view_value(v, group, key);
	if (!s)
		return NULL;
	g_auto(GStrv) parts = view_split(s);
	GPtrArray *out = g_ptr_array_new();
	for (guint i = 0; parts[i]; i++) {
		char *n = view_unquote(parts[i], strlen(parts[i]));
		if (n)
			g_ptr_array_add(out, n);
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

gint64 *ftl_tui_view_get_ints(const FtlTuiView *v, const char *group, const char *key, guint *n)
{
	g_autofree char *s = view_value(v, group, key);
	const ViewKey *k = view_key(group, key);
	*n = 0;
	if (!s || !k)
		return NULL;
	g_auto(GStrv) parts = view_split(s);
	gint64 *out = g_new0(gint64, g_strv_length(parts) + 1);
	for (guint i = 0; parts[i]; i++)
		if (view_int(parts[i], k->min, k->max, &out[*n]))
			(*n)++;
	return out;
}

static char **view_path(const char *s)
{
	g_auto(GStrv) parts = g_strsplit(s, "/", VIEW_DEPTH_MAX + 1);
	if (g_strv_length(parts) > VIEW_DEPTH_MAX)
		return NULL;
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; parts[i]; i++) {
		char *n = view_unquote(parts[i], strlen(parts[i]));
		if (!n || !*n) {
			g_free(n);
			g_ptr_array_free(out, TRUE);
			return NULL;
		}
		g_ptr_array_add(out, n);
	}
	g_ptr_array_add(out, NULL);
	return (char **)g_ptr_array_free(out, FALSE);
}

GPtrArray *ftl_tui_view_get_paths(const FtlTuiView *v, const char *group, const char *key)
{
	g_autofree char *s = view_value(v, group, key);
	if (!s)
		return NULL;
	g_auto(GStrv) parts = view_split(s);
	GPtrArray *out = g_ptr_array_new_with_free_func((GDestroyNotify)g_strfreev);
	for (guint i = 0; parts[i]; i++) {
		char **p = view_path(parts[i]);
		if (p)
			g_ptr_array_add(out, p);
	}
	return out;
}

/* ---- the file --------------------------------------------------------------- */

char *ftl_tui_view_to_data(const FtlTuiView *v, gsize *len)
{
	return g_key_file_to_data(v->kf, len, NULL);
}

/* The line (from 1) of key in group, 0 when not found. */
static guint view_line_of(const char *data, gsize len, const char *group, const char *key)
{
	g_autofree char *text = g_strndup(data, len);
	g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
	const char *cur = NULL;
	g_autofree char *in = NULL;
	for (guint i = 0; lines[i]; i++) {
		char *l = g_strstrip(lines[i]);
		if (*l == '[') {
			g_free(in);
			in = g_strndup(l + 1, strcspn(l + 1, "]"));
			cur = in;
			continue;
		}
		gsize k = strcspn(l, "=");
		while (k && l[k - 1] == ' ')
			k--;
		if (cur && !strcmp(cur, group) && strlen(key) == k && !strncmp(l, key, k))
			return i + 1;
	}
	return 0;
}

static gboolean view_bad(GError **error, const char *path, guint line, const char *fmt, ...)
	G_GNUC_PRINTF(4, 5);

static gboolean view_bad(GError **error, const char *path, guint line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (line)
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE, "'%s': line %u: %s", path, line,
			    msg);
	else
		g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE, "'%s': %s", path, msg);
	return FALSE;
}

/* The lines as the writer makes them: blank, a comment, [group] or
 * key=value of printable ASCII; a key given once per group. */
static gboolean view_check_lines(const char *data, gsize len, const char *path, GError **error)
{
	g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	g_autofree char *group = NULL;
	guint line = 1;
	for (gsize i = 0; i < len; line++) {
		gsize end = i;
		while (end < len && data[end] != '\n')
			end++;
		g_autofree char *l = g_strndup(data + i, end - i);
		for (gsize j = 0; j < end - i; j++)
			if (((guchar)data[i + j] < 0x20 && data[i + j] != '\t' &&
			     data[i + j] != '\r') ||
			    (guchar)data[i + j] >= 0x7f)
				return view_bad(error, path, line,
						"byte 0x%02x: not the text a view holds",
						(guchar)data[i + j]);
		i = end + 1;
		g_strstrip(l);
		if (!*l || *l == '#')
			continue;
		if (*l == '[') {
			gsize n = strlen(l);
			if (n < 3 || l[n - 1] != ']')
				return view_bad(error, path, line, "expected [group]");
			g_free(group);
			group = g_strndup(l + 1, n - 2);
			continue;
		}
		gsize k = strcspn(l, "=");
		if (!l[k] || !k || !group)
			return view_bad(error, path, line, "expected key=value%s",
					group ? "" : " under a [group]");
		while (k && l[k - 1] == ' ')
			k--;
		g_autofree char *key = g_strdup_printf("%s\n%.*s", group, (int)k, l);
		if (!g_hash_table_add(seen, g_steal_pointer(&key)))
			return view_bad(error, path, line, "'%.*s' given twice", (int)k, l);
	}
	return TRUE;
}

static gboolean view_check_value(const FtlTuiView *v, const ViewKey *k, const char *group,
				 const char *key, const char *path, guint line, GError **error)
{
	g_autofree char *s = view_value(v, group, key);
	gint64 x;
	switch (k->type) {
	case VIEW_INT:
		if (!view_int(s, k->min, k->max, &x))
			return view_bad(error, path, line,
					"%s: '%s': expected a whole number from %" G_GINT64_FORMAT
					" to %" G_GINT64_FORMAT,
					key, s, k->min, k->max);
		return TRUE;
	case VIEW_BOOL:
		if (strcmp(s, "true") && strcmp(s, "false"))
			return view_bad(error, path, line, "%s: expected true or false", key);
		return TRUE;
	case VIEW_NAME: {
		g_autofree char *n = view_unquote(s, strlen(s));
		if (!n || !*n)
			return view_bad(error, path, line, "%s: not a quoted name", key);
		gint id;
		if (k->check == VIEW_CHECK_PANEL && !ftl_tui_panel_lookup(n, &id, NULL))
			return view_bad(error, path, line, "%s: no panel named '%s'", key, s);
		return TRUE;
	}
	case VIEW_NAMES:
	case VIEW_INTS:
	case VIEW_PATHS: {
		g_auto(GStrv) parts = view_split(s);
		if (g_strv_length(parts) > k->max_n)
			return view_bad(error, path, line, "%s: more than %u values", key,
					k->max_n);
		for (guint i = 0; parts[i]; i++) {
			if (k->type == VIEW_INTS) {
				if (!view_int(parts[i], k->min, k->max, &x))
					return view_bad(error, path, line,
							"%s: value %u: expected a whole number "
							"from %" G_GINT64_FORMAT
							" to %" G_GINT64_FORMAT,
							key, i + 1, k->min, k->max);
				continue;
			}
			if (k->type == VIEW_PATHS) {
				g_auto(GStrv) p = view_path(parts[i]);
				if (!p || !p[0])
					return view_bad(error, path, line,
							"%s: value %u: not a call path", key, i + 1);
				continue;
			}
			g_autofree char *n = view_unquote(parts[i], strlen(parts[i]));
			if (!n || !*n)
				return view_bad(error, path, line,
						"%s: value %u: not a quoted name", key, i + 1);
			g_autoptr(GError) local = NULL;
			g_autoptr(FtlTuiFilterItem) it =
				k->check == VIEW_CHECK_FILTER
					? ftl_tui_filter_item_parse(n, &local)
					: NULL;
			if (local)
				return view_bad(error, path, line, "%s: value %u: %s", key, i + 1,
						local->message);
		}
		return TRUE;
	}
	}
	return TRUE;
}

FtlTuiView *ftl_tui_view_parse(const char *data, gsize len, const char *path, GError **error)
{
	if (!view_check_lines(data, len, path, error))
		return NULL;
	g_autoptr(FtlTuiView) v = g_new0(FtlTuiView, 1);
	v->kf = g_key_file_new();
	v->path = g_strdup(path);
	g_autoptr(GError) local = NULL;
	if (!g_key_file_load_from_data(v->kf, data, len, G_KEY_FILE_NONE, &local)) {
		view_bad(error, path, 0, "%s", local->message);
		return NULL;
	}
	gint64 version;
	if (!ftl_tui_view_get_int(v, "ftlens-view", "version", &version)) {
		view_bad(error, path, view_line_of(data, len, "ftlens-view", "version"),
			 "not a saved view of this ftlens ([ftlens-view] version=%d)",
			 VIEW_VERSION);
		return NULL;
	}
	/* every key known is checked; others (a later version's) are left */
	g_auto(GStrv) groups = g_key_file_get_groups(v->kf, NULL);
	for (guint g = 0; groups[g]; g++) {
		g_auto(GStrv) keys = g_key_file_get_keys(v->kf, groups[g], NULL, NULL);
		for (guint i = 0; keys && keys[i]; i++) {
			const ViewKey *k = view_key(groups[g], keys[i]);
			if (k && !view_check_value(v, k, groups[g], keys[i], path,
						   view_line_of(data, len, groups[g], keys[i]),
						   error))
				return NULL;
		}
	}
	guint n_sizes;
	g_auto(GStrv) paths = ftl_tui_view_get_names(v, "trace", "paths");
	g_autofree gint64 *sizes = ftl_tui_view_get_ints(v, "trace", "sizes", &n_sizes);
	if ((paths ? g_strv_length(paths) : 0) != n_sizes) {
		view_bad(error, path, view_line_of(data, len, "trace", "sizes"),
			 "sizes: one size for each of the paths");
		return NULL;
	}
	return g_steal_pointer(&v);
}

FtlTuiView *ftl_tui_view_load(const char *path, GError **error)
{
	gsize len;
	g_autofree char *data = ftl_file_read_own(path, FTL_TUI_VIEW_MAX_BYTES, &len, error);
	if (!data)
		return NULL;
	return ftl_tui_view_parse(data, len, path, error);
}

gboolean ftl_tui_view_save(const FtlTuiView *v, const char *path, GError **error)
{
	g_autofree char *dir = g_path_get_dirname(path);
	if (g_mkdir_with_parents(dir, 0700) < 0) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", dir, g_strerror(e));
		return FALSE;
	}
	gsize len;
	g_autofree char *data = ftl_tui_view_to_data(v, &len);
	return ftl_output_write_all(path, NULL, data, len, error);
}

/* ---- names ------------------------------------------------------------------ */

char *ftl_tui_view_dir(void)
{
	return g_build_filename(g_get_user_config_dir(), "ftlens", "views", NULL);
}

gboolean ftl_tui_view_name_ok(const char *name, GError **error)
{
	gsize n = strlen(name);
	gboolean ok = n && n <= 64 && name[0] != '.';
	for (gsize i = 0; ok && i < n; i++)
		ok = g_ascii_isalnum(name[i]) || strchr("._-", name[i]);
	if (!ok)
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "view name '%s': letters, digits, '.', '_' and '-' (at most 64), "
			    "or a file with a '/' in its path",
			    name);
	return ok;
}

char *ftl_tui_view_resolve(const char *name_or_file, GError **error)
{
	if (strchr(name_or_file, '/'))
		return g_strdup(name_or_file);
	if (!ftl_tui_view_name_ok(name_or_file, error))
		return NULL;
	g_autofree char *dir = ftl_tui_view_dir();
	g_autofree char *file = g_strconcat(name_or_file, ".view", NULL);
	return g_build_filename(dir, file, NULL);
}

char *ftl_tui_view_default_name(const char *trace_path)
{
	g_autofree char *base = g_path_get_basename(trace_path ? trace_path : "view");
	GString *s = g_string_new(NULL);
	for (const char *c = base; *c && s->len < 64; c++)
		g_string_append_c(s, g_ascii_isalnum(*c) || strchr("._-", *c) ? *c : '_');
	if (!s->len || s->str[0] == '.')
		g_string_prepend_c(s, 'v');
	g_string_truncate(s, 64);
	return g_string_free(s, FALSE);
}

static gint view_name_cmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

GPtrArray *ftl_tui_view_list(void)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autofree char *dir = ftl_tui_view_dir();
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *e;
	while (d && (e = g_dir_read_name(d)) && out->len < 1000) {
		if (!g_str_has_suffix(e, ".view"))
			continue;
		g_autofree char *name = g_strndup(e, strlen(e) - strlen(".view"));
		if (ftl_tui_view_name_ok(name, NULL))
			g_ptr_array_add(out, g_steal_pointer(&name));
	}
	g_ptr_array_sort(out, view_name_cmp);
	return out;
}
