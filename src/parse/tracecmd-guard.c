/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Where libtracecmd's known crashes on damaged trace.dat files are kept out
 * of ftlens: calls tried in a child process first, stdout and stderr lent
 * while the library prints, handles parked that cannot be closed, and, in
 * sanitizer builds only, what LeakSanitizer is told about the library.
 *
 * Needed up to libtracecmd 1.3.x (FTL_TRACECMD_GUARDED_UP_TO), the version
 * Debian 12 ships (1.3.1), which on damaged files
 * - crashes in tracecmd_open_head() when an option string lacks its NUL;
 * - lets kbuffer read past a page whose header lies in
 *   tracecmd_init_data(), and prints some of its reasons (a truncated file)
 *   with plain printf rather than through tep_vprint();
 * - crashes in tracecmd_close() of a handle whose tracecmd_init_data()
 *   failed (and so in tracecmd_open(), which closes it that way);
 * - frees its parent's memory in tracecmd_buffer_instance_handle() when an
 *   instance is damaged.
 * Built against a newer library (FTL_TRACECMD_GUARDS 0) every call goes
 * straight to it. */
#include "config.h"

#include "parse/tracecmd-guard.h"

#include "parse/trial.h"

#include <stdio.h>
#include <unistd.h>

#if FTL_TRACECMD_GUARDS

static int guard_step_open(gpointer path, int unused)
{
	(void)unused;
	return tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS) ? 0 : -1;
}

static int guard_step_instance(gpointer handle, int i)
{
	return tracecmd_buffer_instance_handle(handle, i) ? 0 : -1;
}

static int guard_step_init(gpointer handle, int unused)
{
	(void)unused;
	return tracecmd_init_data(handle) < 0 ? -1 : 0;
}

/* tracecmd_init_data() with stdout and stderr lent to a temporary file for
 * the call; what landed there joins msgs. */
static int guard_init_data(struct tracecmd_input *handle, GString *msgs)
{
	FILE *tmp = tmpfile();
	fflush(stdout);
	fflush(stderr);
	int out = tmp ? dup(STDOUT_FILENO) : -1;
	int err = tmp ? dup(STDERR_FILENO) : -1;
	if (out < 0 || err < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0 ||
	    dup2(fileno(tmp), STDERR_FILENO) < 0) {
		if (out >= 0) {
			dup2(out, STDOUT_FILENO);
			close(out);
		}
		if (err >= 0) {
			dup2(err, STDERR_FILENO);
			close(err);
		}
		if (tmp)
			fclose(tmp);
		return tracecmd_init_data(handle);
	}
	int r = tracecmd_init_data(handle);
	fflush(stdout);
	fflush(stderr);
	dup2(out, STDOUT_FILENO);
	dup2(err, STDERR_FILENO);
	close(out);
	close(err);
	char buf[512];
	rewind(tmp);
	gsize n = fread(buf, 1, sizeof buf - 1, tmp);
	fclose(tmp);
	buf[n] = 0;
	g_strstrip(buf);
	/* one line; main.c makes the message visible */
	g_strdelimit(buf, "\n\r\t", ' ');
	if (*buf) {
		if (msgs->len)
			g_string_append(msgs, "; ");
		g_string_append(msgs, buf);
	}
	return r;
}

/* Handles that tracecmd_close() would crash on, reachable for the rest of
 * the process (so that leak checkers do not count them). */
static GPtrArray *guard_parked;

struct tracecmd_input *ftl_tracecmd_open_head(const char *path, FtlTracecmdResult *result)
{
	if (ftl_trial_run(guard_step_open, (gpointer)path, 0, NULL) < 0) {
		*result = FTL_TRACECMD_CRASHED;
		return NULL;
	}
	struct tracecmd_input *handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	*result = handle ? FTL_TRACECMD_OK : FTL_TRACECMD_FAILED;
	return handle;
}

FtlTracecmdResult ftl_tracecmd_init_data(struct tracecmd_input *handle, GString *msgs)
{
	if (ftl_trial_run(guard_step_init, handle, 0, NULL) < 0)
		return FTL_TRACECMD_CRASHED;
	return guard_init_data(handle, msgs) < 0 ? FTL_TRACECMD_FAILED : FTL_TRACECMD_OK;
}

void ftl_tracecmd_discard(struct tracecmd_input *handle)
{
	if (!guard_parked)
		guard_parked = g_ptr_array_new();
	g_ptr_array_add(guard_parked, handle);
}

struct tracecmd_input *ftl_tracecmd_instance(struct tracecmd_input *handle, int i)
{
	/* a clean failure in the child may still have freed the parent's
	 * memory there: only an instance that opens there is opened here */
	if (ftl_trial_run(guard_step_instance, handle, i, NULL) != 0)
		return NULL;
	return tracecmd_buffer_instance_handle(handle, i);
}

#else /* !FTL_TRACECMD_GUARDS */

struct tracecmd_input *ftl_tracecmd_open_head(const char *path, FtlTracecmdResult *result)
{
	struct tracecmd_input *handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	*result = handle ? FTL_TRACECMD_OK : FTL_TRACECMD_FAILED;
	return handle;
}

FtlTracecmdResult ftl_tracecmd_init_data(struct tracecmd_input *handle, GString *msgs)
{
	(void)msgs;
	return tracecmd_init_data(handle) < 0 ? FTL_TRACECMD_FAILED : FTL_TRACECMD_OK;
}

void ftl_tracecmd_discard(struct tracecmd_input *handle)
{
	tracecmd_close(handle);
}

struct tracecmd_input *ftl_tracecmd_instance(struct tracecmd_input *handle, int i)
{
	return tracecmd_buffer_instance_handle(handle, i);
}

#endif /* FTL_TRACECMD_GUARDS */

#ifdef FTL_SANITIZERS
/* Library leaks LeakSanitizer is told about, or sanitizer builds would
 * fail on them; configure defines FTL_SANITIZERS only for those builds, so
 * that the production binary carries no sanitizer settings:
 * - libtraceevent 1.7 leaks a few bytes while parsing some event formats
 *   (tep_parse_event); on damaged formats the leak is inside its static
 *   parser functions, which have no names for the fast unwinder, so the
 *   library itself is named as well (found by tests/fuzz/fuzz-rawdir);
 * - its tep_parse_saved_cmdlines() leaks the name its sscanf("%ms")
 *   allocated when a damaged cmdlines line does not parse (with the fast
 *   unwinder the report ends at libc's __vfscanf_internal; ftlens itself
 *   never calls sscanf);
 * - libtracecmd 1.3's tracecmd_open_head() leaks what it had read when the
 *   headers of a damaged file fail; the fast unwinder stops inside the
 *   library there, so the library itself is named. */
const char *__lsan_default_suppressions(void);
__attribute__((used)) const char *__lsan_default_suppressions(void)
{
	return "leak:tep_parse_event\nleak:tep_parse_saved_cmdlines\nleak:__vfscanf_internal\n"
	       "leak:libtracecmd.so\nleak:libtraceevent.so\n";
}

/* ... and keeps quiet about having used the suppression, so stderr still
 * holds only ftlens's own message. */
const char *__lsan_default_options(void);
__attribute__((used)) const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif
