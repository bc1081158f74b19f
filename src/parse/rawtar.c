/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Raw captures in tar archives: each member is matched against the tracefs
 * layout of a raw directory (per_cpu/cpuN/trace_pipe_raw and stats,
 * events/header_page, events/SYS/EVENT/format, kallsyms, ...) and read
 * straight from libarchive into the parts rawdir.c decodes. No member name
 * ever becomes a path on this machine: page files go to unlinked temporary
 * files, the rest to memory, each within a bound. */
#include "config.h"

#include "parse/rawtar.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <archive.h>
#include <archive_entry.h>

#include "parse/rawdir.h"
#include "util/error.h"
#include "util/input.h"

/* Bounds for what is held in memory: a format, a header page, a stats
 * file, a clock or a uname is small; kallsyms and the like are lists. */
#define TAR_SMALL_MAX ((gsize)1 << 20)
#define TAR_LIST_MAX  ((gsize)256 << 20)
#define TAR_MAX_FORMATS 200000
#define TAR_MAX_CPU	8191

typedef enum {
	TAR_NONE,
	TAR_PAGES,
	TAR_STATS,
	TAR_HEADER_PAGE,
	TAR_HEADER_EVENT,
	TAR_FORMAT,
	TAR_EXTRA,
} TarKind;

/* What a member is, from its name. */
typedef struct {
	TarKind kind;
	char *prefix; /* the directory the capture is in ("" at the top) */
	char *rel;    /* the name below it */
	gint cpu;
	char *sys;
	FtlRawExtra extra;
} TarMember;

static void tar_member_clear(TarMember *m)
{
	g_free(m->prefix);
	g_free(m->rel);
	g_free(m->sys);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(TarMember, tar_member_clear)

/* A system or event name: what tracefs names its directories with. */
static gboolean tar_name_ok(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0 || strlen(s) > 255)
		return FALSE;
	for (const char *p = s; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("_-.:", *p))
			return FALSE;
	return TRUE;
}

static char *tar_join(char **parts, guint from, guint to)
{
	GString *s = g_string_new(NULL);
	for (guint i = from; i < to; i++)
		g_string_append_printf(s, "%s%s", parts[i], i + 1 < to ? "/" : "");
	return g_string_free(s, FALSE);
}

/* Sorts a member by its name; TAR_NONE for anything else, and for names
 * that are absolute or climb with "..". */
static void tar_classify(const char *name, TarMember *m)
{
	memset(m, 0, sizeof *m);
	while (g_str_has_prefix(name, "./"))
		name += 2;
	if (*name == '/' || !*name)
		return;
	g_auto(GStrv) raw = g_strsplit(name, "/", -1);
	g_autoptr(GPtrArray) comps = g_ptr_array_new();
	for (guint i = 0; raw[i]; i++) {
		if (!*raw[i] || strcmp(raw[i], ".") == 0)
			continue;
		if (strcmp(raw[i], "..") == 0)
			return;
		g_ptr_array_add(comps, raw[i]);
	}
	guint n = comps->len;
	if (n == 0)
		return;
	char **c = (char **)comps->pdata;
	guint start = n; /* the first component of the capture's part */
	if (n >= 3 && strcmp(c[n - 3], "per_cpu") == 0 &&
	    (m->cpu = ftl_raw_cpu_number(c[n - 2], "")) >= 0 && m->cpu <= TAR_MAX_CPU) {
		if (strcmp(c[n - 1], "trace_pipe_raw") == 0)
			m->kind = TAR_PAGES, start = n - 3;
		else if (strcmp(c[n - 1], "stats") == 0)
			m->kind = TAR_STATS, start = n - 3;
	} else if (n >= 2 && strcmp(c[n - 2], "events") == 0 &&
		   strcmp(c[n - 1], "header_page") == 0) {
		m->kind = TAR_HEADER_PAGE, start = n - 2;
	} else if (n >= 2 && strcmp(c[n - 2], "events") == 0 &&
		   strcmp(c[n - 1], "header_event") == 0) {
		m->kind = TAR_HEADER_EVENT, start = n - 2;
	} else if (n >= 4 && strcmp(c[n - 4], "events") == 0 &&
		   strcmp(c[n - 1], "format") == 0 && tar_name_ok(c[n - 3]) &&
		   tar_name_ok(c[n - 2])) {
		m->kind = TAR_FORMAT, start = n - 4;
		m->sys = g_strdup(c[n - 3]);
	} else {
		for (guint i = 0; i < FTL_RAW_N_EXTRA; i++)
			if (strcmp(c[n - 1], ftl_raw_extra_name(i)) == 0) {
				m->kind = TAR_EXTRA, start = n - 1;
				m->extra = i;
			}
	}
	if (m->kind == TAR_NONE)
		return;
	m->prefix = tar_join(c, 0, start);
	m->rel = tar_join(c, start, n);
}

typedef struct {
	struct archive *a;
	const char *path;
	guint64 total; /* bytes of page files so far */
	char *member;  /* label of the member being read */
	const FtlReadOptions *ro; /* the trace's: --max-expand */
} TarReader;

static gboolean tar_fail(TarReader *r, GError **error)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT, "'%s': %s%s%s", r->path,
		    r->member ? r->member : "", r->member ? ": " : "",
		    archive_error_string(r->a) ? archive_error_string(r->a) : "unreadable");
	return FALSE;
}

static gssize tar_read_pages(gpointer data, void *buf, gsize len, GError **error)
{
	TarReader *r = data;
	la_ssize_t n = archive_read_data(r->a, buf, len);
	if (n < 0) {
		tar_fail(r, error);
		return -1;
	}
	r->total += (guint64)n;
	guint64 max_expand = ftl_read_max_expand(r->ro);
	if (r->total > max_expand) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': its page files expand past --max-expand (%" G_GUINT64_FORMAT
			    " MiB) on disk; give a larger --max-expand",
			    r->path, max_expand >> 20);
		return -1;
	}
	return (gssize)n;
}

/* A member into memory, NUL-terminated, at most max bytes. */
static char *tar_read_small(TarReader *r, gsize max, gsize *len, GError **error)
{
	g_autoptr(GByteArray) b = g_byte_array_new();
	guint8 buf[65536];
	for (;;) {
		la_ssize_t n = archive_read_data(r->a, buf, sizeof buf);
		if (n < 0) {
			tar_fail(r, error);
			return NULL;
		}
		if (n == 0)
			break;
		if (b->len + (gsize)n > max) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': %s: larger than %zu MiB, more than such a file holds",
				    r->path, r->member, max >> 20);
			return NULL;
		}
		g_byte_array_append(b, buf, (guint)n);
	}
	*len = b->len;
	g_byte_array_append(b, (const guint8 *)"", 1);
	return (char *)g_byte_array_free(g_steal_pointer(&b), FALSE);
}

typedef struct {
	FtlRawParts *parts; /* once a member of the capture came */
	char *prefix;	    /* of the capture, once a member named it */
	GHashTable *pages;  /* cpu + 1 -> FtlInput* */
	GHashTable *stats;  /* cpu + 1 -> its stats text */
	guint n_formats;
} TarCapture;

/* Reads one member m into the capture. */
static gboolean tar_take(TarReader *r, TarCapture *cap, TarMember *m, GError **error)
{
	gsize len;
	char *text;
	gboolean small;
	switch (m->kind) {
	case TAR_PAGES: {
		if (g_hash_table_contains(cap->pages, GINT_TO_POINTER(m->cpu + 1))) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': a second page file for CPU %d", r->member, m->cpu);
			return FALSE;
		}
		FtlInput *in = ftl_input_new_from_reader(r->member, tar_read_pages, r, r->ro, error);
		if (!in)
			return FALSE;
		g_hash_table_insert(cap->pages, GINT_TO_POINTER(m->cpu + 1), in);
		return TRUE;
	}
	case TAR_STATS:
		if (!(text = tar_read_small(r, TAR_SMALL_MAX, &len, error)))
			return FALSE;
		g_hash_table_replace(cap->stats, GINT_TO_POINTER(m->cpu + 1), text);
		return TRUE;
	case TAR_HEADER_PAGE:
		if (!(text = tar_read_small(r, TAR_SMALL_MAX, &len, error)))
			return FALSE;
		ftl_raw_parts_set_header_page(cap->parts, r->member, text, len);
		return TRUE;
	case TAR_FORMAT:
		if (++cap->n_formats > TAR_MAX_FORMATS) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': more than %d event formats", r->path, TAR_MAX_FORMATS);
			return FALSE;
		}
		if (!(text = tar_read_small(r, TAR_SMALL_MAX, &len, error)))
			return FALSE;
		ftl_raw_parts_add_format(cap->parts, r->member, m->sys, text, len);
		return TRUE;
	case TAR_EXTRA:
		small = m->extra == FTL_RAW_TRACE_CLOCK || m->extra == FTL_RAW_UNAME ||
			m->extra == FTL_RAW_BUILD_ID;
		if (!(text = tar_read_small(r, small ? TAR_SMALL_MAX : TAR_LIST_MAX, &len, error)))
			return FALSE;
		ftl_raw_parts_set_extra(cap->parts, m->extra, text);
		return TRUE;
	case TAR_HEADER_EVENT:
	case TAR_NONE:
		break;
	}
	return TRUE;
}

/* The pages of each CPU go to the parts with their stats, whichever of
 * the two came first. */
static void tar_pages_to_parts(TarCapture *cap)
{
	GHashTableIter it;
	gpointer key, in;
	g_hash_table_iter_init(&it, cap->pages);
	while (g_hash_table_iter_next(&it, &key, &in)) {
		char *stats = NULL;
		g_hash_table_steal_extended(cap->stats, key, NULL, (gpointer *)&stats);
		ftl_raw_parts_add_pages(cap->parts, GPOINTER_TO_INT(key) - 1, in, stats);
		g_hash_table_iter_steal(&it);
	}
}

static gboolean tar_read(TarReader *r, TarCapture *cap, GError **error)
{
	struct archive_entry *e;
	for (;;) {
		int st = archive_read_next_header(r->a, &e);
		if (st == ARCHIVE_EOF)
			return TRUE;
		if (st != ARCHIVE_OK && st != ARCHIVE_WARN)
			return tar_fail(r, error);
		if (archive_entry_filetype(e) != AE_IFREG || archive_entry_hardlink(e))
			continue;
		const char *name = archive_entry_pathname(e);
		if (!name)
			continue;
		g_auto(TarMember) m = { 0 };
		tar_classify(name, &m);
		if (m.kind == TAR_NONE)
			continue;
		if (!cap->prefix) {
			cap->prefix = g_strdup(m.prefix);
			g_autofree char *root =
				g_strdup_printf("%s:%s%sevents", r->path, m.prefix, *m.prefix ? "/" : "");
			cap->parts = ftl_raw_parts_new(r->path, "per_cpu/cpuN/trace_pipe_raw in a tar",
						       root);
		} else if (strcmp(cap->prefix, m.prefix) != 0) {
			g_autofree char *a = g_strescape(cap->prefix, NULL);
			g_autofree char *b = g_strescape(m.prefix, NULL);
			g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
				    "'%s': holds more than one capture ('%s/' and '%s/', the hits "
				    "of a flight recorder?): extract it (tar xf) and give ftlens "
				    "one of the directories",
				    r->path, *a ? a : ".", *b ? b : ".");
			return FALSE;
		}
		g_free(r->member);
		r->member = g_strdup_printf("%s:%s%s%s", r->path, m.prefix, *m.prefix ? "/" : "",
					    m.rel);
		if (!tar_take(r, cap, &m, error))
			return FALSE;
	}
}

static gboolean tar_open_archive(struct archive *a, const char *path, GError **error)
{
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	int st;
	if (strcmp(path, "-") == 0) {
		if (lseek(STDIN_FILENO, 0, SEEK_SET) != 0) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_UNSUPPORTED,
				    "'-': a tar archive on a pipe; save it to a file first");
			return FALSE;
		}
		st = archive_read_open_fd(a, STDIN_FILENO, 65536);
	} else {
		st = archive_read_open_filename(a, path, 65536);
	}
	if (st != ARCHIVE_OK) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path,
			    archive_error_string(a) ? archive_error_string(a) : g_strerror(errno));
		return FALSE;
	}
	return TRUE;
}

gboolean ftl_rawtar_sniff(const char *head, gsize n)
{
	/* "ustar\0" (POSIX) or "ustar " (GNU, busybox) at offset 257 */
	return n >= 263 && memcmp(head + 257, "ustar", 5) == 0 &&
	       (head[262] == 0 || head[262] == ' ');
}

gboolean ftl_rawtar_open(FtlTrace *trace, const char *path, GError **error)
{
	struct archive *a = archive_read_new();
	if (!a) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': out of memory", path);
		return FALSE;
	}
	TarReader r = { a, path, 0, NULL, ftl_trace_read_options(trace) };
	TarCapture cap = { 0 };
	cap.pages = g_hash_table_new_full(NULL, NULL, NULL, (GDestroyNotify)ftl_input_free);
	cap.stats = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	gboolean ok = tar_open_archive(a, path, error) && tar_read(&r, &cap, error);
	archive_read_free(a);
	if (ok && !cap.parts) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': a tar archive without a raw capture in it (looked for "
			    "per_cpu/cpuN/trace_pipe_raw and events/header_page)",
			    path);
		ok = FALSE;
	}
	if (ok) {
		tar_pages_to_parts(&cap);
		ok = ftl_rawdir_open_parts(trace, cap.parts, error);
	}
	ftl_raw_parts_free(cap.parts);
	g_free(cap.prefix);
	g_hash_table_unref(cap.pages);
	g_hash_table_unref(cap.stats);
	g_free(r.member);
	return ok;
}
