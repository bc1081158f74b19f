/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Trials in a child process: a library call that may crash on a damaged
 * file is made in a fork first, and the child says on a pipe how it ended
 * and, for a list of calls, which one it had reached. */
#include "config.h"

#include "parse/trial.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util/fdio.h"
#include "util/forkgate.h"

/* A child shares the parent's open files, file offsets included: the
 * offsets of every seekable descriptor are saved before the child runs and
 * put back after, so that the parent's handles read on where they were. */
static GArray *trial_save_offsets(void)
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

static void trial_restore_offsets(GArray *saved)
{
	for (guint i = 0; i + 1 < saved->len; i += 2)
		lseek((int)g_array_index(saved, gint64, i),
		      (off_t)g_array_index(saved, gint64, i + 1), SEEK_SET);
	g_array_unref(saved);
}

/* How long one step may take. A libtracecmd header read takes about a
 * second at worst (5 MB of kallsyms under a sanitizer); one that has not
 * answered in a minute is stuck: in a loop of the library on a damaged file,
 * or on a lock another thread held at the fork (sanitizer runtimes do not
 * take their allocator's locks around fork(), and fuzz-tracedat's trial
 * children hung so). The bound is wall time, so it is generous: 10 s failed
 * a live capture's headers on a machine at load 15. */
#define TRIAL_STEP_MS 60000

/* The child's end of the pipe, in the child only. */
static int trial_fd = -1;

void ftl_trial_progress(guint32 k)
{
	char rec[5] = { 'p' };
	memcpy(rec + 1, &k, sizeof k);
	if (trial_fd >= 0)
		ftl_fd_write_all(trial_fd, rec, sizeof rec, -1);
}

/* Reads n bytes, each within TRIAL_STEP_MS: n when read, 0 at the end of
 * the pipe (the child is gone), -1 when the child is stuck. */
static ssize_t trial_read(int fd, char *buf, size_t n)
{
	size_t got = 0;
	gint64 deadline = g_get_monotonic_time() + TRIAL_STEP_MS * (gint64)1000;
	while (got < n) {
		gint64 left = (deadline - g_get_monotonic_time()) / 1000;
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = left > 0 ? poll(&p, 1, (int)left) : 0;
		if (rc < 0 && errno == EINTR)
			continue;
		if (rc <= 0)
			return -1;
		gssize r = ftl_fd_read(fd, buf + got, n - got);
		if (r <= 0)
			return 0;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* The parent's side: the child's records until its answer. 'o' or 'f' for
 * an answer, 0 when the child ended without one, -1 when it is stuck. */
static int trial_listen(int fd, gint64 *progress)
{
	for (;;) {
		char tag;
		ssize_t r = trial_read(fd, &tag, 1);
		if (r <= 0)
			return (int)r;
		if (tag != 'p')
			return tag;
		guint32 k;
		r = trial_read(fd, (char *)&k, sizeof k);
		if (r <= 0)
			return (int)r;
		*progress = k;
	}
}

/* In a child: its answers go to fd, its stdout and stderr nowhere. */
static void trial_child_setup(int fd)
{
	trial_fd = fd;
	int null = open("/dev/null", O_WRONLY);
	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
	}
}

static G_GNUC_NORETURN void trial_child(int fd, FtlTrialStep step, gpointer ctx, int arg)
{
	trial_child_setup(fd);
	char answer = step(ctx, arg) == 0 ? 'o' : 'f';
	/* _exit: no atexit handlers (leak checks) in the child */
	_exit(ftl_fd_write_all(trial_fd, &answer, 1, -1) ? 1 : 0);
}

/* One trial: 'o', 'f', 0 (crashed) or -1 (stuck: the child is killed).
 *
 * The child's exit status is not trusted: under AddressSanitizer a wild
 * write ends the child with exit 1, as a clean failure would. No answer on
 * the pipe is a crash, whatever the exit status. */
static int trial_once(FtlTrialStep step, gpointer ctx, int arg, gint64 *progress)
{
	int fds[2];
	if (pipe(fds) < 0)
		return 'o'; /* no way to try: take the risk */
	fflush(stdout);
	fflush(stderr);
	GArray *offsets = trial_save_offsets();
	pid_t pid = ftl_fork_gated();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		g_array_unref(offsets);
		return 'o';
	}
	if (pid == 0) {
		close(fds[0]);
		trial_child(fds[1], step, ctx, arg);
	}
	close(fds[1]);
	int answer = trial_listen(fds[0], progress);
	close(fds[0]);
	if (answer < 0)
		kill(pid, SIGKILL);
	int status;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	trial_restore_offsets(offsets);
	return answer;
}

FtlTrialResult ftl_trial_run(FtlTrialStep step, gpointer ctx, int arg, gint64 *progress)
{
	gint64 at = -1;
	int answer = trial_once(step, ctx, arg, &at);
	/* a hang caused by a lock held at the fork does not come back on a
	 * second try; a step that loops hangs again */
	if (answer < 0) {
		at = -1;
		answer = trial_once(step, ctx, arg, &at);
	}
	if (progress)
		*progress = at;
	if (answer == 'o')
		return FTL_TRIAL_OK;
	if (answer == 'f')
		return FTL_TRIAL_FAILED;
	return FTL_TRIAL_CRASHED;
}

static __thread gboolean trial_in_only_line;

FtlTrialResult ftl_trial_run_only_line(FtlTrialStep step, gpointer ctx, int arg)
{
	trial_in_only_line = TRUE;
	FtlTrialResult r = ftl_trial_run(step, ctx, arg, NULL);
	trial_in_only_line = FALSE;
	return r;
}

gboolean ftl_trial_only_line(void)
{
	return trial_in_only_line;
}

/* ---- a child serving many trials ---------------------------------------- */

struct _FtlTrialServer {
	int fd; /* the parent's end of the socket; -1 once the child is gone */
	pid_t pid;
};

/* What the question being served came with (in the child). */
static char *trial_payload;
static gsize trial_payload_len;

const char *ftl_trial_payload(gsize *len)
{
	*len = trial_payload ? trial_payload_len : 0;
	return trial_payload ? trial_payload : "";
}

/* The child: an argument and its payload in, an answer out, until the
 * parent hangs up. */
static G_GNUC_NORETURN void trial_serve(int fd, FtlTrialStep step, gpointer ctx)
{
	trial_child_setup(fd);
	gsize room = 0;
	for (;;) {
		gint32 q[2]; /* the argument, the payload's length */
		if (ftl_fd_read_all(fd, q, sizeof q) != 0 || q[1] < 0)
			_exit(0);
		if ((gsize)q[1] + 1 > room) {
			room = (gsize)q[1] + 1;
			trial_payload = g_realloc(trial_payload, room);
		}
		if (q[1] && ftl_fd_read_all(fd, trial_payload, (gsize)q[1]) != 0)
			_exit(0);
		trial_payload[q[1]] = 0;
		trial_payload_len = (gsize)q[1];
		char answer = step(ctx, q[0]) == 0 ? 'o' : 'f';
		if (ftl_fd_write_all(trial_fd, &answer, 1, -1) != 0)
			_exit(1);
	}
}

FtlTrialServer *ftl_trial_server_new(FtlTrialStep step, gpointer ctx)
{
	/* a socket, not pipes: a question to a child that died must not
	 * raise SIGPIPE in the parent (send()'s MSG_NOSIGNAL) */
	int fds[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) < 0)
		return NULL;
	fflush(stdout);
	fflush(stderr);
	/* the steps work on memory: the shared file offsets are not touched */
	pid_t pid = ftl_fork_gated();
	if (pid == 0) {
		close(fds[0]);
		trial_serve(fds[1], step, ctx);
	}
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return NULL;
	}
	FtlTrialServer *server = g_new0(FtlTrialServer, 1);
	server->fd = fds[0];
	server->pid = pid;
	return server;
}

FtlTrialServer *ftl_trial_server_new_only_line(FtlTrialStep step, gpointer ctx)
{
	trial_in_only_line = TRUE;
	FtlTrialServer *server = ftl_trial_server_new(step, ctx);
	trial_in_only_line = FALSE;
	return server;
}

/* The child is gone, or made to go: reaped, its socket closed. */
static void trial_server_end(FtlTrialServer *server, gboolean kill_it)
{
	if (server->fd < 0)
		return;
	if (kill_it)
		kill(server->pid, SIGKILL);
	/* the hang-up the child waits for: a child forked later (another
	 * trace.dat opened meanwhile, in another thread) holds a copy of this
	 * end, so closing ours alone would leave it reading, and us waiting */
	shutdown(server->fd, SHUT_RDWR);
	close(server->fd);
	server->fd = -1;
	int status;
	while (waitpid(server->pid, &status, 0) < 0 && errno == EINTR)
		;
}

FtlTrialResult ftl_trial_server_ask(FtlTrialServer *server, int arg)
{
	return ftl_trial_server_ask_with(server, arg, NULL, 0);
}

gboolean ftl_trial_server_alive(const FtlTrialServer *server)
{
	return server && server->fd >= 0;
}

FtlTrialResult ftl_trial_server_ask_with(FtlTrialServer *server, int arg, const void *data,
					 guint32 len)
{
	if (server->fd < 0)
		return FTL_TRIAL_CRASHED;
	gint32 q[2] = { arg, (gint32)MIN(len, (guint32)G_MAXINT32) };
	if (ftl_fd_send_all(server->fd, q, sizeof q) != 0 ||
	    (q[1] && ftl_fd_send_all(server->fd, data, (gsize)q[1]) != 0)) {
		trial_server_end(server, TRUE);
		return FTL_TRIAL_CRASHED;
	}
	gint64 at = -1;
	int answer = trial_listen(server->fd, &at);
	if (answer == 'o')
		return FTL_TRIAL_OK;
	if (answer == 'f')
		return FTL_TRIAL_FAILED;
	trial_server_end(server, TRUE); /* no answer: crashed, or stuck */
	return FTL_TRIAL_CRASHED;
}

void ftl_trial_server_free(FtlTrialServer *server)
{
	if (!server)
		return;
	trial_server_end(server, FALSE); /* it reads the end of the socket and leaves */
	g_free(server);
}
