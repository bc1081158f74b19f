/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `ftlens arm-oops`: set up the top-level instance and ftrace_dump_on_oops so
 * that an oops prints the trace on the console, and restore it afterwards. */
#include "config.h"

#include "capture/oops-arm.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "capture/tracefs.h"
#include "util/error.h"
#include "util/tracefs-text.h"

#define OOPS_SYSCTL "/proc/sys/kernel/ftrace_dump_on_oops"
#define OOPS_GROUP  "arm-oops"

typedef enum {
	OOPS_FILE,   /* one value in one file */
	OOPS_BUFFER, /* buffer_size_kb: one value, or one per CPU */
	OOPS_EVENTS, /* set_event: a list, one event a line */
} OopsKind;

typedef struct {
	const char *name;
	OopsKind kind;
	char *path;
	char *before;
	char *want;
	gboolean applied;
} OopsSetting;

static void oops_setting_free(gpointer p)
{
	OopsSetting *s = p;
	g_free(s->path);
	g_free(s->before);
	g_free(s->want);
	g_free(s);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC(OopsSetting, oops_setting_free)

static void oops_change_free(gpointer p)
{
	FtlOopsArmChange *c = p;
	g_free(c->name);
	g_free(c->before);
	g_free(c->after);
	g_free(c);
}

static void oops_add_change(GPtrArray *out, const char *name, const char *before, const char *after)
{
	FtlOopsArmChange *c = g_new0(FtlOopsArmChange, 1);
	c->name = g_strdup(name);
	c->before = g_strdup(before);
	c->after = g_strdup(after);
	g_ptr_array_add(out, c);
}

char *ftl_oops_arm_state_path(void)
{
	const char *dir = g_getenv("FTLENS_STATE_DIR");
	return g_build_filename(dir && *dir ? dir : "/run/ftlens", "arm-oops.state", NULL);
}

const char *ftl_oops_arm_tracing_dir(GError **error)
{
	return ftl_tracefs_dir(error);
}

static const char *oops_hint(int err)
{
	return err == EACCES ? " (arm-oops needs root)" : "";
}

/* The file's text without trailing blanks; NULL and error when unreadable. */
static char *oops_read(const char *path, GError **error)
{
	char *text = ftl_tracefs_read(path, error);
	return text ? g_strchomp(text) : NULL;
}

/* buffer_size_kb reads "N", "N (expanded: M)" before first use (M is the
 * size the buffer takes when used), or "X" when CPUs differ: then each
 * CPU's size, as "cpu0=N,cpu1=M". */
static char *oops_read_buffer(const char *tracing_dir, GError **error)
{
	g_autofree char *path = g_build_filename(tracing_dir, "buffer_size_kb", NULL);
	g_autofree char *text = oops_read(path, error);
	if (!text)
		return NULL;
	if (strstr(text, "(expanded:"))
		return g_strdup_printf("%" G_GUINT64_FORMAT, ftl_buffer_size_kb_parse(text));
	if (text[0] != 'X')
		return g_steal_pointer(&text);
	g_autofree char *per_cpu = g_build_filename(tracing_dir, "per_cpu", NULL);
	g_autoptr(GDir) dir = g_dir_open(per_cpu, 0, NULL);
	g_autoptr(GPtrArray) cpus = g_ptr_array_new_with_free_func(g_free);
	const char *name;
	while (dir && (name = g_dir_read_name(dir))) {
		if (!g_str_has_prefix(name, "cpu"))
			continue;
		g_autofree char *p = g_build_filename(per_cpu, name, "buffer_size_kb", NULL);
		g_autofree char *v = oops_read(p, error);
		if (!v)
			return NULL;
		g_ptr_array_add(cpus, g_strdup_printf("%s=%s", name, v));
	}
	if (cpus->len == 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s: 'X' but no per_cpu sizes", path);
		return NULL;
	}
	g_ptr_array_sort(cpus, (GCompareFunc)g_strcmp0);
	g_ptr_array_add(cpus, NULL);
	return g_strjoinv(",", (char **)cpus->pdata);
}

/* Each line of value is one write, the first truncating (which empties
 * set_event), the others appending: a scalar is one write, an event list one
 * write per event. The errno of a refusal is returned in *err. */
static gboolean oops_write(const char *path, const char *value, int *err, GError **error)
{
	if (!*value) { /* g_strsplit() makes no line of "" */
		*err = ftl_tracefs_write_errno(path, "", FALSE);
		if (*err)
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s: cannot empty it: %s%s",
				    path, g_strerror(*err), oops_hint(*err));
		return *err == 0;
	}
	g_auto(GStrv) lines = g_strsplit(value, "\n", -1);
	gboolean first = TRUE;
	for (guint i = 0; lines[i]; i++) {
		if (!*lines[i])
			continue;
		g_autofree char *line = g_strconcat(lines[i], "\n", NULL);
		*err = ftl_tracefs_write_errno(path, line, !first);
		first = FALSE;
		if (*err) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s: cannot write '%s': %s%s",
				    path, lines[i], g_strerror(*err), oops_hint(*err));
			return FALSE;
		}
	}
	return TRUE;
}

static gboolean oops_write_buffer(const char *path, const char *value, int *err, GError **error)
{
	if (!strchr(value, '='))
		return oops_write(path, value, err, error);
	g_autofree char *dir = g_path_get_dirname(path);
	g_auto(GStrv) cpus = g_strsplit(value, ",", -1);
	for (guint i = 0; cpus[i]; i++) {
		g_auto(GStrv) kv = g_strsplit(cpus[i], "=", 2);
		if (!kv[0] || !kv[1] || !g_str_has_prefix(kv[0], "cpu") || strchr(kv[0], '/')) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "buffer_size_kb: bad per-CPU value '%s'", cpus[i]);
			return FALSE;
		}
		g_autofree char *p =
			g_build_filename(dir, "per_cpu", kv[0], "buffer_size_kb", NULL);
		if (!oops_write(p, kv[1], err, error))
			return FALSE;
	}
	return TRUE;
}

static gboolean oops_setting_write(OopsSetting *s, const char *value, int *err, GError **error)
{
	*err = 0;
	if (s->kind == OOPS_BUFFER)
		return oops_write_buffer(s->path, value, err, error);
	return oops_write(s->path, value, err, error);
}

static char *oops_setting_read(const OopsSetting *s, GError **error)
{
	if (s->kind == OOPS_BUFFER) {
		g_autofree char *dir = g_path_get_dirname(s->path);
		return oops_read_buffer(dir, error);
	}
	return oops_read(s->path, error);
}

/* FTLENS_DUMP_ON_OOPS_FILE replaces the sysctl for tests, on machines
 * (containers, this project's CI) that refuse to let it be set. */
static char *oops_sysctl_path(void)
{
	const char *p = g_getenv("FTLENS_DUMP_ON_OOPS_FILE");
	return g_strdup(p && *p ? p : OOPS_SYSCTL);
}

static OopsSetting *oops_setting_new(const char *name, OopsKind kind, const char *dir,
				     const char *want)
{
	OopsSetting *s = g_new0(OopsSetting, 1);
	s->name = name;
	s->kind = kind;
	s->path = dir ? g_build_filename(dir, name, NULL) : oops_sysctl_path();
	s->want = g_strdup(want);
	return s;
}

/* The settings arm-oops knows; a state file naming others is refused, and
 * paths are never taken from it, so that a planted state file cannot make
 * root write elsewhere. */
static OopsSetting *oops_setting_known(const char *name, const char *tracing_dir)
{
	if (!strcmp(name, "ftrace_dump_on_oops"))
		return oops_setting_new("ftrace_dump_on_oops", OOPS_FILE, NULL, "");
	if (!strcmp(name, "set_event"))
		return oops_setting_new("set_event", OOPS_EVENTS, tracing_dir, "");
	if (!strcmp(name, "buffer_size_kb"))
		return oops_setting_new("buffer_size_kb", OOPS_BUFFER, tracing_dir, "");
	if (!strcmp(name, "current_tracer"))
		return oops_setting_new("current_tracer", OOPS_FILE, tracing_dir, "");
	if (!strcmp(name, "tracing_on"))
		return oops_setting_new("tracing_on", OOPS_FILE, tracing_dir, "");
	return NULL;
}

/* -e sched means every event of that system, as in trace-cmd; set_event
 * itself would read a bare word as an event name. */
static char *oops_events_list(const char *tracing_dir, const char *const *events)
{
	GString *list = g_string_new(NULL);
	for (guint i = 0; events[i]; i++) {
		g_autofree char *sys = g_build_filename(tracing_dir, "events", events[i], NULL);
		if (!strchr(events[i], ':') && g_file_test(sys, G_FILE_TEST_IS_DIR))
			g_string_append_printf(list, "%s:*\n", events[i]);
		else
			g_string_append_printf(list, "%s\n", events[i]);
	}
	return g_string_free(list, FALSE);
}

static char *oops_boot_id(void)
{
	char *id = NULL;
	if (!g_file_get_contents("/proc/sys/kernel/random/boot_id", &id, NULL, NULL))
		return g_strdup("unknown");
	return g_strstrip(id);
}

/* Loads the state file; NULL with error when it cannot be read. */
static GKeyFile *oops_state_load(const char *state_path, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autoptr(GError) local = NULL;
	if (!g_key_file_load_from_file(kf, state_path, G_KEY_FILE_NONE, &local)) {
		if (g_error_matches(local, G_FILE_ERROR, G_FILE_ERROR_NOENT))
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "not armed: no state file %s",
				    state_path);
		else
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE, "%s: %s", state_path,
				    local->message);
		return NULL;
	}
	return g_steal_pointer(&kf);
}

static gboolean oops_state_same_boot(GKeyFile *kf)
{
	g_autofree char *id = g_key_file_get_string(kf, OOPS_GROUP, "boot_id", NULL);
	g_autofree char *now = oops_boot_id();
	return id && !strcmp(id, now);
}

static gboolean oops_state_save(const char *state_path, const char *tracing_dir,
				GPtrArray *settings, GError **error)
{
	g_autoptr(GKeyFile) kf = g_key_file_new();
	g_autofree char *boot = oops_boot_id();
	g_key_file_set_string(kf, OOPS_GROUP, "boot_id", boot);
	g_key_file_set_string(kf, OOPS_GROUP, "tracing_dir", tracing_dir);
	g_autoptr(GPtrArray) names = g_ptr_array_new();
	for (guint i = 0; i < settings->len; i++) {
		const OopsSetting *s = settings->pdata[i];
		g_ptr_array_add(names, (gpointer)s->name);
		g_key_file_set_string(kf, s->name, "before", s->before);
		g_key_file_set_string(kf, s->name, "armed", s->want);
	}
	g_key_file_set_string_list(kf, OOPS_GROUP, "settings", (const char *const *)names->pdata,
				   names->len);
	g_autofree char *dir = g_path_get_dirname(state_path);
	if (g_mkdir_with_parents(dir, 0700) != 0) {
		int err = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s: %s", dir, g_strerror(err));
		return FALSE;
	}
	g_autoptr(GError) local = NULL;
	if (!g_key_file_save_to_file(kf, state_path, &local)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s", local->message);
		return FALSE;
	}
	return TRUE;
}

/* The message for a refused write, naming the tracer or event at fault. */
static void oops_explain(const OopsSetting *s, const char *tracing_dir, int err, GError **error)
{
	if (!strcmp(s->name, "current_tracer") && err == EPERM) {
		g_clear_error(error);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "the kernel refused tracer '%s' (%s); trace events still work: "
			    "arm with -e EVENT and without -p",
			    s->want, g_strerror(err));
	} else if (!strcmp(s->name, "current_tracer") && err == EINVAL) {
		g_autofree char *p = g_build_filename(tracing_dir, "available_tracers", NULL);
		g_autofree char *avail = oops_read(p, NULL);
		g_clear_error(error);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "tracer '%s' is not available in this kernel (available: %s)", s->want,
			    avail ? avail : "unknown");
	} else if (!strcmp(s->name, "ftrace_dump_on_oops") && (err == EPERM || err == EROFS)) {
		g_clear_error(error);
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "%s: the kernel refused '%s' (%s): this machine does not let "
			    "ftrace_dump_on_oops be set at run time; boot with "
			    "'ftrace_dump_on_oops' on the kernel command line instead",
			    s->path, s->want, g_strerror(err));
	} else if (!strcmp(s->name, "set_event") && err == EINVAL) {
		g_prefix_error(error, "no such event (see %s/available_events): ", tracing_dir);
	}
}

/* The settings a plan changes, each with its file. What kernels most often
 * refuse goes first (the tracer, then the sysctl), so that usually nothing
 * has changed yet when one is refused. */
static GPtrArray *oops_arm_settings(const char *tracing_dir, const FtlOopsArmPlan *plan)
{
	GPtrArray *settings = g_ptr_array_new_with_free_func(oops_setting_free);
	if (plan->tracer)
		g_ptr_array_add(settings, oops_setting_new("current_tracer", OOPS_FILE, tracing_dir,
							   plan->tracer));
	g_ptr_array_add(settings, oops_setting_new("ftrace_dump_on_oops", OOPS_FILE, NULL, "1"));
	if (plan->events) {
		g_autofree char *list = oops_events_list(tracing_dir, plan->events);
		g_ptr_array_add(settings,
				oops_setting_new("set_event", OOPS_EVENTS, tracing_dir, list));
	}
	if (plan->buffer_kb) {
		g_autofree char *kb = g_strdup_printf("%u", plan->buffer_kb);
		g_ptr_array_add(settings,
				oops_setting_new("buffer_size_kb", OOPS_BUFFER, tracing_dir, kb));
	}
	g_ptr_array_add(settings, oops_setting_new("tracing_on", OOPS_FILE, tracing_dir, "1"));
	return settings;
}

/* Writes the settings that differ, in order, until one is refused: that
 * one's error, or NULL. */
static GError *oops_arm_apply(GPtrArray *settings, const char *tracing_dir)
{
	GError *fail = NULL;
	for (guint i = 0; i < settings->len && !fail; i++) {
		OopsSetting *s = settings->pdata[i];
		/* set_event is always written: "sched:*" never reads back as such */
		if (s->kind != OOPS_EVENTS && !strcmp(s->before, s->want))
			continue;
		int err = 0;
		s->applied = TRUE;
		if (!oops_setting_write(s, s->want, &err, &fail))
			oops_explain(s, tracing_dir, err, &fail);
	}
	return fail;
}

/* After a refused write (fail, taken): puts back what was applied, in
 * reverse order, and sets error. The state file goes when all is back. */
static void oops_arm_undo(GPtrArray *settings, const char *state_path, GError *fail, GError **error)
{
	g_autoptr(GString) undo = g_string_new(NULL);
	for (guint i = settings->len; i-- > 0;) {
		OopsSetting *s = settings->pdata[i];
		g_autoptr(GError) e = NULL;
		int err;
		if (!s->applied)
			continue;
		/* a refused write usually changed nothing: leave that alone */
		g_autofree char *now = oops_setting_read(s, NULL);
		if (now && !strcmp(now, s->before))
			continue;
		if (!oops_setting_write(s, s->before, &err, &e))
			g_string_append_printf(undo, "; %s", e->message);
	}
	if (undo->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "%s; restoring failed too%s; 'ftlens arm-oops --disarm' "
			    "retries from %s",
			    fail->message, undo->str, state_path);
		g_error_free(fail);
		return;
	}
	g_unlink(state_path);
	g_propagate_prefixed_error(error, fail, "nothing was changed: ");
}

GPtrArray *ftl_oops_arm(const char *tracing_dir, const FtlOopsArmPlan *plan, const char *state_path,
			GError **error)
{
	if (g_file_test(state_path, G_FILE_TEST_EXISTS)) {
		g_autoptr(GKeyFile) kf = oops_state_load(state_path, error);
		if (!kf)
			return NULL;
		if (oops_state_same_boot(kf)) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "already armed (state in %s); run 'ftlens arm-oops --disarm' "
				    "first",
				    state_path);
			return NULL;
		}
		/* from an earlier boot: those settings died with it */
	}
	g_autoptr(GPtrArray) settings = oops_arm_settings(tracing_dir, plan);
	for (guint i = 0; i < settings->len; i++) {
		OopsSetting *s = settings->pdata[i];
		s->before = oops_setting_read(s, error);
		if (!s->before)
			return NULL;
	}
	if (!oops_state_save(state_path, tracing_dir, settings, error))
		return NULL;
	GError *fail = oops_arm_apply(settings, tracing_dir);
	if (fail) {
		oops_arm_undo(settings, state_path, fail, error);
		return NULL;
	}
	GPtrArray *out = g_ptr_array_new_with_free_func(oops_change_free);
	for (guint i = 0; i < settings->len; i++) {
		OopsSetting *s = settings->pdata[i];
		g_autoptr(GError) e = NULL;
		g_autofree char *now = oops_setting_read(s, &e);
		oops_add_change(out, s->name, s->before, now ? now : "?");
	}
	return out;
}

GPtrArray *ftl_oops_disarm(const char *tracing_dir, const char *state_path, gboolean *stale,
			   GError **error)
{
	*stale = FALSE;
	g_autoptr(GKeyFile) kf = oops_state_load(state_path, error);
	if (!kf)
		return NULL;
	if (!oops_state_same_boot(kf)) {
		*stale = TRUE;
		g_unlink(state_path);
		return g_ptr_array_new_with_free_func(oops_change_free);
	}
	gsize n = 0;
	g_auto(GStrv) names = g_key_file_get_string_list(kf, OOPS_GROUP, "settings", &n, NULL);
	g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func(oops_change_free);
	g_autoptr(GString) failed = g_string_new(NULL);
	/* reverse order: tracing_on and the sysctl go back first */
	for (gsize i = n; i-- > 0;) {
		g_autoptr(OopsSetting) s = oops_setting_known(names[i], tracing_dir);
		g_autofree char *before = g_key_file_get_string(kf, names[i], "before", NULL);
		if (!s || !before) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_PARSE,
				    "%s: '%s': not a setting arm-oops saved", state_path, names[i]);
			return NULL;
		}
		g_autoptr(GError) e = NULL;
		g_autofree char *now = oops_setting_read(s, &e);
		int err;
		if (now && !strcmp(now, before))
			continue;
		if (!oops_setting_write(s, before, &err, &e)) {
			g_string_append_printf(failed, "; %s", e->message);
			continue;
		}
		g_autoptr(GError) e2 = NULL;
		g_autofree char *after = oops_setting_read(s, &e2);
		oops_add_change(out, names[i], now ? now : "?", after ? after : "?");
	}
	if (failed->len) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "restoring from %s failed%s",
			    state_path, failed->str);
		return NULL;
	}
	if (g_unlink(state_path) != 0) {
		int err = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "%s: %s", state_path, g_strerror(err));
		return NULL;
	}
	return g_steal_pointer(&out);
}
