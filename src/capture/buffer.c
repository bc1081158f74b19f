/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The recorded ring buffer: a private instance (created and removed through
 * libtracefs) or the top-level buffer with every change saved and put back. */
#include "config.h"

#include "capture/buffer.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "util/error.h"

struct _FtlBuffer {
	char *tracefs;
	char *dir;
	char *name;		       /* NULL: top level */
	struct tracefs_instance *inst; /* our instance; NULL for the top level */
	FtlTracefsSave *save;	       /* top level: what to put back */
	GPtrArray *events;	       /* char * "sys/event", NULL-terminated */
	GString *notes;
	gboolean released;
};

void ftl_event_spec_free(FtlEventSpec *e)
{
	if (!e)
		return;
	g_free(e->pattern);
	g_free(e->filter);
	g_free(e);
}

static FtlBuffer *buffer_alloc(const char *tracefs)
{
	FtlBuffer *b = g_new0(FtlBuffer, 1);
	b->tracefs = g_strdup(tracefs);
	b->events = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(b->events, NULL);
	b->notes = g_string_new(NULL);
	return b;
}

FtlBuffer *ftl_buffer_new_top(const char *tracefs)
{
	FtlBuffer *b = buffer_alloc(tracefs);
	b->dir = g_strdup(tracefs);
	b->save = ftl_tracefs_save_new();
	return b;
}

FtlBuffer *ftl_buffer_new_instance(const char *tracefs, const char *name, GError **error)
{
	g_autoptr(FtlBuffer) b = buffer_alloc(tracefs);
	for (guint i = 0; i < 100; i++) {
		g_autofree char *cand = name ? g_strdup(name)
					: i  ? g_strdup_printf("ftlens-%d-%u", (int)getpid(), i)
					     : g_strdup_printf("ftlens-%d", (int)getpid());
		errno = 0;
		struct tracefs_instance *inst = tracefs_instance_create(cand);
		if (!inst) {
			int e = errno ? errno : EIO;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "cannot create the tracefs instance '%s/instances/%s': %s",
				    tracefs, cand, g_strerror(e));
			return NULL;
		}
		if (!tracefs_instance_is_new(inst)) {
			/* Someone else's: never touch it. */
			tracefs_instance_free(inst);
			if (name) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
					    "--instance: '%s' exists already; ftlens records only "
					    "in an instance it creates and removes",
					    name);
				return NULL;
			}
			continue;
		}
		b->inst = inst;
		b->name = g_steal_pointer(&cand);
		char *dir = tracefs_instance_get_dir(inst);
		b->dir = g_strdup(dir);
		tracefs_put_tracing_file(dir);
		return g_steal_pointer(&b);
	}
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "no free instance name ftlens-%d-N under '%s'",
		    (int)getpid(), tracefs);
	return NULL;
}

/* The owner pid of an instance name ftlens gives (ftlens-PID or
 * ftlens-PID-N), or 0 for any other name. */
static pid_t buffer_owner(const char *name)
{
	if (!g_str_has_prefix(name, "ftlens-"))
		return 0;
	const char *p = name + strlen("ftlens-");
	char *end;
	guint64 pid = g_ascii_strtoull(p, &end, 10);
	if (end == p || pid == 0 || pid > G_MAXINT32)
		return 0;
	if (*end == '-') {
		const char *n = end + 1;
		g_ascii_strtoull(n, &end, 10);
		if (end == n)
			return 0;
	}
	return *end ? 0 : (pid_t)pid;
}

gboolean ftl_buffer_cleanup_stale(const char *tracefs, GString *notes, GError **error)
{
	g_autofree char *dir = g_build_filename(tracefs, "instances", NULL);
	g_autoptr(GDir) d = g_dir_open(dir, 0, error);
	if (!d)
		return FALSE;
	const char *name;
	while ((name = g_dir_read_name(d))) {
		pid_t pid = buffer_owner(name);
		/* a live pid keeps its instance even when it is not ftlens (the
		 * pid was reused): only a certainly dead owner is cleaned up */
		if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
			continue;
		g_autofree char *path = g_build_filename(dir, name, NULL);
		g_autofree char *on = g_build_filename(path, "tracing_on", NULL);
		g_file_set_contents(on, "0", 1, NULL);
		if (rmdir(path) == 0)
			g_string_append_printf(notes, "removed the instance %s left by pid %d\n",
					       name, (int)pid);
		else
			g_string_append_printf(notes, "cannot remove the stale instance %s: %s\n",
					       path, g_strerror(errno));
	}
	return TRUE;
}

void ftl_buffer_free(FtlBuffer *b)
{
	if (!b)
		return;
	ftl_buffer_release(b, NULL);
	if (b->inst)
		tracefs_instance_free(b->inst);
	ftl_tracefs_save_free(b->save);
	g_ptr_array_unref(b->events);
	g_string_free(b->notes, TRUE);
	g_free(b->tracefs);
	g_free(b->dir);
	g_free(b->name);
	g_free(b);
}

const char *ftl_buffer_dir(const FtlBuffer *b)
{
	return b->dir;
}

const char *ftl_buffer_tracefs(const FtlBuffer *b)
{
	return b->tracefs;
}

const char *ftl_buffer_name(const FtlBuffer *b)
{
	return b->name;
}

const char *const *ftl_buffer_events(const FtlBuffer *b)
{
	return (const char *const *)b->events->pdata;
}

/* ---- writing settings ------------------------------------------------ */

/* Writes (or appends) value to dir/rel, saving the old content first on the
 * top level. Returns 0 or errno; a failed save is EIO. */
static int buffer_write(FtlBuffer *b, const char *rel, const char *value, gboolean append,
			FtlSaveKind kind)
{
	g_autofree char *path = g_build_filename(b->dir, rel, NULL);
	if (b->save) {
		g_autoptr(GError) local = NULL;
		if (!ftl_tracefs_save_file(b->save, path, kind, &local))
			return errno ? errno : EIO;
	}
	return ftl_tracefs_write_errno(path, value, append);
}

static gboolean buffer_write_error(FtlBuffer *b, const char *rel, const char *value,
				   gboolean append, FtlSaveKind kind, GError **error)
{
	int e = buffer_write(b, rel, value, append, kind);
	if (e) {
		g_autofree char *path = g_build_filename(b->dir, rel, NULL);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': writing '%s': %s", path, value,
			    g_strerror(e));
		return FALSE;
	}
	return TRUE;
}

gboolean ftl_buffer_set(FtlBuffer *b, const char *rel, const char *value, FtlSaveKind kind,
			GError **error)
{
	return buffer_write_error(b, rel, value, FALSE, kind, error);
}

gboolean ftl_buffer_append(FtlBuffer *b, const char *rel, const char *value, FtlSaveKind kind,
			   GError **error)
{
	return buffer_write_error(b, rel, value, TRUE, kind, error);
}

void ftl_buffer_add_undo(FtlBuffer *b, const char *rel, const char *undo)
{
	if (!b->save)
		return; /* the instance goes away with everything in it */
	g_autofree char *path = g_build_filename(b->dir, rel, NULL);
	ftl_tracefs_save_undo(b->save, path, undo);
}

gboolean ftl_buffer_tracing_on(FtlBuffer *b, gboolean on, GError **error)
{
	return ftl_buffer_set(b, "tracing_on", on ? "1" : "0", FTL_SAVE_VALUE, error);
}

int ftl_buffer_is_on(const FtlBuffer *b)
{
	g_autofree char *path = g_build_filename(b->dir, "tracing_on", NULL);
	g_autofree char *v = ftl_tracefs_read(path, NULL);
	return v ? (v[0] == '1' ? 1 : 0) : -1;
}

gboolean ftl_buffer_clear(FtlBuffer *b, GError **error)
{
	g_autofree char *path = g_build_filename(b->dir, "trace", NULL);
	return ftl_tracefs_write(path, "", FALSE, error);
}

/* ---- what the buffer offers ---------------------------------------- */

static gboolean buffer_has_word(const char *dir, const char *rel, const char *word)
{
	g_autofree char *path = g_build_filename(dir, rel, NULL);
	g_autofree char *text = ftl_tracefs_read(path, NULL);
	if (!text)
		return FALSE;
	g_auto(GStrv) words = g_strsplit_set(g_strstrip(text), " \n[]", -1);
	for (char **w = words; *w; w++)
		if (strcmp(*w, word) == 0)
			return TRUE;
	return FALSE;
}

static gboolean buffer_has_file(const FtlBuffer *b, const char *rel)
{
	g_autofree char *path = g_build_filename(b->dir, rel, NULL);
	return access(path, F_OK) == 0;
}

gboolean ftl_buffer_supports(const FtlBuffer *b, const FtlBufferConfig *cfg, char **why)
{
	const char *where = b->name ? "this kernel's instances" : "this kernel";
	if (cfg->tracer && strcmp(cfg->tracer, "nop") != 0 &&
	    !buffer_has_word(b->dir, "available_tracers", cfg->tracer)) {
		*why = g_strdup_printf("%s have no tracer '%s'", where, cfg->tracer);
		return FALSE;
	}
	const struct {
		gboolean wanted;
		const char *file;
		const char *opt;
	} files[] = {
		{ cfg->ftrace_filter != NULL, "set_ftrace_filter", "-l" },
		{ cfg->ftrace_notrace != NULL, "set_ftrace_notrace", "-n" },
		{ cfg->graph_funcs != NULL, "set_graph_function", "-g" },
		{ cfg->max_graph_depth >= 0, "max_graph_depth", "--max-graph-depth" },
	};
	for (guint i = 0; i < G_N_ELEMENTS(files); i++) {
		if (files[i].wanted && !buffer_has_file(b, files[i].file)) {
			*why = g_strdup_printf("%s have no %s (%s)", where, files[i].file,
					       files[i].opt);
			return FALSE;
		}
	}
	return TRUE;
}

/* ---- configuring ------------------------------------------------------ */

/* EPERM on a tracer or a function filter: this kernel forbids function
 * tracing (a locked-down or sandboxed machine), events are unaffected. */
static void buffer_refused(GError **error, const char *what, const char *path, int e)
{
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
		    "%s refused by the kernel ('%s': %s): function tracing is not allowed on "
		    "this machine; trace events (-e) still work",
		    what, path, g_strerror(e));
}

/* The kernel's own explanation from error_log, when it wrote one. */
static char *buffer_kernel_reason(const FtlBuffer *b)
{
	char *all = tracefs_error_last(b->inst);
	if (!all)
		return NULL;
	g_auto(GStrv) lines = g_strsplit(all, "\n", -1);
	free(all);
	for (char **l = lines; *l; l++) {
		const char *e = strstr(*l, "error: ");
		if (e)
			return g_strstrip(g_strdup(e + 7));
	}
	return NULL;
}

/* Writes a list (-l, -n, -g) to a function filter file. */
static gboolean buffer_func_list(FtlBuffer *b, const char *rel, const char *opt, char **funcs,
				 GError **error)
{
	for (guint i = 0; funcs && funcs[i]; i++) {
		int e = buffer_write(b, rel, funcs[i], i > 0, FTL_SAVE_LINES);
		g_autofree char *path = g_build_filename(b->dir, rel, NULL);
		if (e == EPERM || e == EACCES) {
			g_autofree char *what = g_strdup_printf("%s (%s)", opt, rel);
			buffer_refused(error, what, path, e);
			return FALSE;
		}
		if (e == EINVAL || e == ENOENT || e == ENODEV) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "%s '%s': no traceable function matches (see %s/"
				    "available_filter_functions)",
				    opt, funcs[i], b->tracefs);
			return FALSE;
		}
		if (e) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': writing '%s': %s", path,
				    funcs[i], g_strerror(e));
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean buffer_tracer(FtlBuffer *b, const char *tracer, GError **error)
{
	int e = buffer_write(b, "current_tracer", tracer, FALSE, FTL_SAVE_VALUE);
	if (!e)
		return TRUE;
	g_autofree char *path = g_build_filename(b->dir, "current_tracer", NULL);
	g_autofree char *what = g_strdup_printf("tracer '%s'", tracer);
	if (e == EPERM || e == EACCES) {
		buffer_refused(error, what, path, e);
	} else if (e == EINVAL) {
		g_autofree char *avail_path = g_build_filename(b->dir, "available_tracers", NULL);
		g_autofree char *avail = ftl_tracefs_read(avail_path, NULL);
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "%s is not available here (%s: %s)",
			    what, avail_path, avail ? g_strstrip(avail) : "?");
	} else {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s: '%s': %s", what, path,
			    g_strerror(e));
	}
	return FALSE;
}

static gboolean buffer_option(FtlBuffer *b, const char *opt, GError **error)
{
	const char *name = opt;
	const char *value = "1";
	g_autofree char *rel = g_build_filename("options", name, NULL);
	if (!buffer_has_file(b, rel)) {
		/* trace-cmd's "noNAME", or "no-NAME", turns NAME off. */
		if (g_str_has_prefix(opt, "no-"))
			name = opt + 3;
		else if (g_str_has_prefix(opt, "no"))
			name = opt + 2;
		value = "0";
		g_free(rel);
		rel = g_build_filename("options", name, NULL);
		if (name == opt || !buffer_has_file(b, rel)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
				    "-O '%s': no such option in '%s/options' (tracer-specific "
				    "options appear with their tracer: -p)",
				    opt, b->dir);
			return FALSE;
		}
	}
	return ftl_buffer_set(b, rel, value, FTL_SAVE_VALUE, error);
}

static gboolean buffer_clock(FtlBuffer *b, const char *clock, GError **error)
{
	if (!buffer_has_word(b->dir, "trace_clock", clock)) {
		g_autofree char *path = g_build_filename(b->dir, "trace_clock", NULL);
		g_autofree char *avail = ftl_tracefs_read(path, NULL);
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE, "-C '%s': no such clock (%s: %s)",
			    clock, path, avail ? g_strstrip(avail) : "?");
		return FALSE;
	}
	return ftl_buffer_set(b, "trace_clock", clock, FTL_SAVE_CLOCK, error);
}

static gint buffer_strcmp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sorted names of the subdirectories of dir that match glob. */
static GPtrArray *buffer_list_dirs(const char *dir, const char *glob, const char *need_file)
{
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (!d)
		return out;
	for (const char *name; (name = g_dir_read_name(d));) {
		if (!g_pattern_match_simple(glob, name))
			continue;
		g_autofree char *sub = g_build_filename(dir, name, need_file, NULL);
		if (need_file ? access(sub, F_OK) != 0 : !g_file_test(sub, G_FILE_TEST_IS_DIR))
			continue;
		g_ptr_array_add(out, g_strdup(name));
	}
	g_ptr_array_sort(out, buffer_strcmp);
	return out;
}

/* The "sys/event" names an -e pattern means, in the buffer's events/. */
static GPtrArray *buffer_resolve(const FtlBuffer *b, const char *pattern, GError **error)
{
	g_autofree char *events = g_build_filename(b->dir, "events", NULL);
	g_autofree char *sys = NULL, *ev = NULL;
	const char *sep = strpbrk(pattern, ":/");
	if (strcmp(pattern, "all") == 0) {
		sys = g_strdup("*");
		ev = g_strdup("*");
	} else if (sep) {
		sys = g_strndup(pattern, (gsize)(sep - pattern));
		ev = g_strdup(*(sep + 1) ? sep + 1 : "*");
	} else {
		g_autofree char *as_sys = g_build_filename(events, pattern, NULL);
		gboolean is_sys = g_file_test(as_sys, G_FILE_TEST_IS_DIR);
		sys = g_strdup(is_sys ? pattern : "*");
		ev = g_strdup(is_sys ? "*" : pattern);
	}
	GPtrArray *out = g_ptr_array_new_with_free_func(g_free);
	g_autoptr(GPtrArray) systems = buffer_list_dirs(events, sys, NULL);
	for (guint i = 0; i < systems->len; i++) {
		g_autofree char *sdir = g_build_filename(events, systems->pdata[i], NULL);
		/* Only events that can be enabled: ftrace's cannot. */
		g_autoptr(GPtrArray) evs = buffer_list_dirs(sdir, ev, "enable");
		for (guint j = 0; j < evs->len; j++)
			g_ptr_array_add(out, g_strdup_printf("%s/%s", (char *)systems->pdata[i],
							     (char *)evs->pdata[j]));
	}
	if (!out->len) {
		g_ptr_array_unref(out);
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "-e '%s': no such event (see %s/available_events)", pattern,
			    b->tracefs);
		return NULL;
	}
	return out;
}

static gboolean buffer_has_event(const FtlBuffer *b, const char *name)
{
	for (guint i = 0; i + 1 < b->events->len; i++)
		if (strcmp(b->events->pdata[i], name) == 0)
			return TRUE;
	return FALSE;
}

static gboolean buffer_events(FtlBuffer *b, const FtlEventSpec *spec, GError **error)
{
	g_autoptr(GPtrArray) names = buffer_resolve(b, spec->pattern, error);
	if (!names)
		return FALSE;
	g_autoptr(GPtrArray) refused = g_ptr_array_new();
	g_autofree char *first_reason = NULL;
	for (guint i = 0; i < names->len; i++) {
		const char *name = names->pdata[i];
		if (spec->filter) {
			g_autofree char *rel = g_build_filename("events", name, "filter", NULL);
			int e = buffer_write(b, rel, spec->filter, FALSE, FTL_SAVE_FILTER);
			if (e) {
				/* A filter names fields; in a system some events lack them. */
				if (!first_reason) {
					g_autofree char *why = buffer_kernel_reason(b);
					first_reason =
						g_strdup_printf("%s: %s%s%s", name, g_strerror(e),
								why ? ": " : "", why ? why : "");
				}
				g_ptr_array_add(refused, (gpointer)name);
				continue;
			}
		}
		g_autofree char *rel = g_build_filename("events", name, "enable", NULL);
		if (!ftl_buffer_set(b, rel, "1", FTL_SAVE_VALUE, error))
			return FALSE;
		if (!buffer_has_event(b, name))
			g_ptr_array_insert(b->events, (gint)b->events->len - 1, g_strdup(name));
	}
	if (refused->len == names->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_USAGE,
			    "-e '%s' -f '%s': the kernel refused the filter (%s)", spec->pattern,
			    spec->filter, first_reason ? first_reason : "?");
		return FALSE;
	}
	if (refused->len) {
		g_string_append_printf(b->notes,
				       "-f '%s' does not apply to %u events of '%s', left off:",
				       spec->filter, refused->len, spec->pattern);
		for (guint i = 0; i < refused->len && i < 5; i++)
			g_string_append_printf(b->notes, " %s", (char *)refused->pdata[i]);
		g_string_append(b->notes, refused->len > 5 ? " ...\n" : "\n");
	}
	return TRUE;
}

gboolean ftl_buffer_configure(FtlBuffer *b, const FtlBufferConfig *cfg, GError **error)
{
	if (!ftl_buffer_tracing_on(b, FALSE, error))
		return FALSE;
	if (b->save) {
		/* The top level records only what was asked for: whatever was
		 * enabled there comes back at the end. */
		if (!ftl_buffer_set(b, "set_event", "", FTL_SAVE_LINES, error))
			return FALSE;
		if (!cfg->tracer && !buffer_tracer(b, "nop", error))
			return FALSE;
	}
	if (cfg->buffer_kb) {
		g_autofree char *kb = g_strdup_printf("%u", cfg->buffer_kb);
		if (!ftl_buffer_set(b, "buffer_size_kb", kb, FTL_SAVE_SIZE, error)) {
			g_prefix_error(error, "-b %u: ", cfg->buffer_kb);
			return FALSE;
		}
	}
	if (cfg->clock && !buffer_clock(b, cfg->clock, error))
		return FALSE;
	/* Function filters before the tracer: switching to a function tracer
	 * with no filter patches every function in the kernel. */
	if (!buffer_func_list(b, "set_ftrace_filter", "-l", cfg->ftrace_filter, error) ||
	    !buffer_func_list(b, "set_ftrace_notrace", "-n", cfg->ftrace_notrace, error) ||
	    !buffer_func_list(b, "set_graph_function", "-g", cfg->graph_funcs, error))
		return FALSE;
	if (cfg->max_graph_depth >= 0) {
		g_autofree char *v = g_strdup_printf("%d", cfg->max_graph_depth);
		if (!ftl_buffer_set(b, "max_graph_depth", v, FTL_SAVE_VALUE, error))
			return FALSE;
	}
	if (cfg->tracer && !buffer_tracer(b, cfg->tracer, error))
		return FALSE;
	/* After the tracer: its own options (funcgraph-*) appear with it. */
	for (guint i = 0; cfg->options && cfg->options[i]; i++)
		if (!buffer_option(b, cfg->options[i], error))
			return FALSE;
	if (cfg->overwrite >= 0 &&
	    !ftl_buffer_set(b, "options/overwrite", cfg->overwrite ? "1" : "0", FTL_SAVE_VALUE,
			    error))
		return FALSE;
	for (guint i = 0; cfg->events && i < cfg->events->len; i++)
		if (!buffer_events(b, cfg->events->pdata[i], error))
			return FALSE;
	return TRUE;
}

/* ---- the end ------------------------------------------------------------ */

gboolean ftl_buffer_release(FtlBuffer *b, GError **error)
{
	if (b->released)
		return TRUE;
	b->released = TRUE;
	if (b->save)
		return ftl_tracefs_save_restore(b->save, error);
	/* Tracing off and the tracer back to nop first: the kernel refuses to
	 * remove an instance that is in use. */
	g_autofree char *on = g_build_filename(b->dir, "tracing_on", NULL);
	ftl_tracefs_write_errno(on, "0", FALSE);
	g_autofree char *tracer = g_build_filename(b->dir, "current_tracer", NULL);
	g_autofree char *cur = ftl_tracefs_read(tracer, NULL);
	if (cur && strcmp(g_strstrip(cur), "nop") != 0)
		ftl_tracefs_write_errno(tracer, "nop", FALSE);
	int e = 0;
	for (guint i = 0; i < 50; i++) {
		errno = 0;
		if (tracefs_instance_destroy(b->inst) == 0 || access(b->dir, F_OK) != 0)
			return TRUE;
		e = errno ? errno : EIO;
		if (e != EBUSY)
			break;
		/* A process that still holds trace_marker open, for instance. */
		g_usleep(100000);
	}
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
		    "cannot remove the instance '%s': %s%s; remove it with: rmdir %s", b->dir,
		    g_strerror(e), e == EBUSY ? " (a process still has one of its files open)" : "",
		    b->dir);
	return FALSE;
}

gboolean ftl_buffer_finish(FtlBuffer *b, gboolean ok, GString *notes, GError **error)
{
	g_string_append(notes, b->notes->str);
	g_string_truncate(b->notes, 0);
	g_autoptr(GError) rel = NULL;
	if (ftl_buffer_release(b, &rel))
		return ok;
	if (ok)
		g_propagate_error(error, g_steal_pointer(&rel));
	else
		g_string_append_printf(notes, "%s\n", rel->message);
	return FALSE;
}
