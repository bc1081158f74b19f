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

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#if FTL_TRACECMD_GUARDS

/* A child shares the parent's open files, file offsets included: the
 * offsets of every seekable descriptor are saved before the child runs and
 * put back after, so that the parent's handle reads on where it was. */
static GArray *guard_save_offsets(void)
{
	GArray *saved = g_array_new(FALSE, FALSE, sizeof(gint64));
	g_autoptr(GDir) d = g_dir_open("/proc/self/fd", 0, NULL);
	const char *name;
	while (d && (name = g_dir_read_name(d))) {
		gint64 fd = g_ascii_strtoll(name, NULL, 10);
		off_t off = fd > 2 ? lseek((int)fd, 0, SEEK_CUR) : -1;
		if (off >= 0) {
			gint64 pair[2] = { fd, (gint64)off };
			g_array_append_vals(saved, pair, 2);
		}
	}
	return saved;
}

static void guard_restore_offsets(GArray *saved)
{
	for (guint i = 0; i + 1 < saved->len; i += 2)
		lseek((int)g_array_index(saved, gint64, i),
		      (off_t)g_array_index(saved, gint64, i + 1), SEEK_SET);
	g_array_unref(saved);
}

/* How long a trial may take. The child reads headers only, in about a
 * second at worst (5 MB of kallsyms under a sanitizer); one that has not
 * answered in a minute is stuck: in a loop of the library on a damaged file,
 * or on a lock another thread held at the fork (sanitizer runtimes do not
 * take their allocator's locks around fork(), and fuzz-tracedat's trial
 * children hung so). The bound is wall time, so it is generous: 10 s failed
 * a live capture's headers on a machine at load 15. */
#define GUARD_TRIAL_MS 60000

/* Waits for the child's one-byte answer; -1 with no answer in time. */
static ssize_t guard_answer(int fd, char *answer)
{
	gint64 deadline = g_get_monotonic_time() + GUARD_TRIAL_MS * (gint64)1000;
	for (;;) {
		gint64 left = (deadline - g_get_monotonic_time()) / 1000;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return -1;
		ssize_t n = read(fd, answer, 1);
		if (n < 0 && errno == EINTR)
			continue;
		return n;
	}
}

/* One trial: 0 when step returned 0 in the child, 1 when it failed
 * cleanly, -1 when it crashed, -2 when it did not answer in time (the
 * child is killed).
 *
 * The child says how the step ended on a pipe; its exit status is not
 * trusted: under AddressSanitizer a wild write ends the child with exit 1,
 * as a clean failure would. No answer on the pipe is a crash, whatever the
 * exit status. */
static int guard_try_once(int (*step)(gpointer, int), gpointer ctx, int arg)
{
	int fds[2];
	if (pipe(fds) < 0)
		return 0; /* no way to try: take the risk */
	fflush(stdout);
	fflush(stderr);
	GArray *offsets = guard_save_offsets();
	pid_t pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		g_array_unref(offsets);
		return 0;
	}
	if (pid == 0) {
		close(fds[0]);
		int null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
		}
		char answer = step(ctx, arg) == 0 ? 'o' : 'f';
		ssize_t w = write(fds[1], &answer, 1);
		/* _exit: no atexit handlers (leak checks) in the child */
		_exit(w == 1 ? 0 : 1);
	}
	close(fds[1]);
	char answer = 0;
	ssize_t n = guard_answer(fds[0], &answer);
	close(fds[0]);
	gboolean stuck = n < 0;
	if (stuck)
		kill(pid, SIGKILL);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	guard_restore_offsets(offsets);
	if (stuck)
		return -2;
	if (n != 1)
		return -1;
	return answer == 'o' ? 0 : 1;
}

/* Runs step(ctx, arg) in a child process first (copy-on-write, cheap): 0
 * when it returned 0 there, 1 when it failed cleanly, -1 when it crashed
 * or hung twice (a hang caused by a lock held at the fork does not come
 * back on a second try). Only what survives in the child is done in the
 * parent. */
static int guard_try(int (*step)(gpointer, int), gpointer ctx, int arg)
{
	int r = guard_try_once(step, ctx, arg);
	if (r == -2)
		r = guard_try_once(step, ctx, arg);
	return r == -2 ? -1 : r;
}

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
	if (guard_try(guard_step_open, (gpointer)path, 0) < 0) {
		*result = FTL_TRACECMD_CRASHED;
		return NULL;
	}
	struct tracecmd_input *handle = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	*result = handle ? FTL_TRACECMD_OK : FTL_TRACECMD_FAILED;
	return handle;
}

FtlTracecmdResult ftl_tracecmd_init_data(struct tracecmd_input *handle, GString *msgs)
{
	if (guard_try(guard_step_init, handle, 0) < 0)
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
	if (guard_try(guard_step_instance, handle, i) != 0)
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
