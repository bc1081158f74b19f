/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libftlens-marker: applications write trace markers, switch tracing on and
 * off and anchor trace time to the wall clock; plain C, libc only. */
#include "config.h"

#include <ftlens/marker.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Immutable after open, so that writes from any thread or a signal handler
 * need no lock: each is one write() on an fd that stays open. */
struct ftlens_marker {
	int marker_fd; /* -1: markers are off */
	int on_fd;     /* -1: tracing_on is not writable */
	int status;    /* 0, or -errno: why marker_fd is -1 */
	int on_status; /* 0, or -errno: why on_fd is -1 */
	char path[PATH_MAX];
};

/* Opens a tracefs file for writing. O_NONBLOCK only guards against a FIFO
 * given by mistake (an open that would wait for a reader); a regular file,
 * as tests use in place of trace_marker, is appended to. */
static int marker_open_file(const char *path, int *fd_out)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	struct stat st;
	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0) {
		fl &= ~O_NONBLOCK;
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
			fl |= O_APPEND;
		(void)fcntl(fd, F_SETFL, fl);
	}
	*fd_out = fd;
	return 0;
}

/* The reason worth reporting when no candidate worked: "not allowed" says
 * more than "not there". */
static void marker_keep_reason(int *reason, int err)
{
	if (*reason == -ENOENT && err != -ENOENT && err != -ENOTDIR)
		*reason = err;
}

/* Tries dir/suffix/trace_marker; 0 and m->path set on success. */
static int marker_try_dir(struct ftlens_marker *m, const char *dir, const char *suffix)
{
	int n = snprintf(m->path, sizeof m->path, "%s%s/trace_marker", dir, suffix);
	if (n < 0 || (size_t)n >= sizeof m->path)
		return -ENAMETOOLONG;
	return marker_open_file(m->path, &m->marker_fd);
}

/* Tries every mount of type fstype in the mount table. */
static int marker_try_mounts(struct ftlens_marker *m, const char *fstype, const char *suffix,
			     int *reason)
{
	FILE *f = setmntent("/proc/mounts", "re");
	if (!f)
		return -ENOENT;
	struct mntent ent;
	char buf[4096];
	int rc = -ENOENT;
	while (getmntent_r(f, &ent, buf, sizeof buf)) {
		if (strcmp(ent.mnt_type, fstype) != 0)
			continue;
		rc = marker_try_dir(m, ent.mnt_dir, suffix);
		if (rc == 0)
			break;
		marker_keep_reason(reason, rc);
	}
	endmntent(f);
	return rc;
}

static int marker_find(struct ftlens_marker *m)
{
	const char *env = getenv("FTLENS_TRACE_MARKER");
	if (env) {
		if (!*env)
			return -ENOENT;
		if (strlen(env) >= sizeof m->path)
			return -ENAMETOOLONG;
		strcpy(m->path, env);
		return marker_open_file(m->path, &m->marker_fd);
	}
	env = getenv("FTLENS_TRACEFS");
	if (env && *env)
		return marker_try_dir(m, env, "");
	int reason = -ENOENT;
	if (marker_try_mounts(m, "tracefs", "", &reason) == 0 ||
	    marker_try_mounts(m, "debugfs", "/tracing", &reason) == 0)
		return 0;
	static const char *const fixed[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
		int rc = marker_try_dir(m, fixed[i], "");
		if (rc == 0)
			return 0;
		marker_keep_reason(&reason, rc);
	}
	return reason;
}

/* tracing_on lives next to the trace_marker in use. */
static int marker_open_tracing_on(struct ftlens_marker *m)
{
	char on[PATH_MAX];
	const char *slash = strrchr(m->path, '/');
	size_t dir_len = slash ? (size_t)(slash - m->path) + 1 : 0;
	if (dir_len + sizeof "tracing_on" > sizeof on)
		return -ENAMETOOLONG;
	memcpy(on, m->path, dir_len);
	memcpy(on + dir_len, "tracing_on", sizeof "tracing_on");
	return marker_open_file(on, &m->on_fd);
}

static ftlens_marker *marker_new(const char *path)
{
	int saved = errno;
	struct ftlens_marker *m = calloc(1, sizeof *m);
	if (!m) {
		errno = saved;
		return NULL;
	}
	m->marker_fd = -1;
	m->on_fd = -1;
	if (path) {
		if (strlen(path) >= sizeof m->path) {
			m->status = -ENAMETOOLONG;
		} else {
			strcpy(m->path, path);
			m->status = marker_open_file(m->path, &m->marker_fd);
		}
	} else {
		m->status = marker_find(m);
	}
	if (m->status == 0)
		m->on_status = marker_open_tracing_on(m);
	else
		m->on_status = m->status;
	if (m->status != 0)
		m->path[0] = '\0';
	errno = saved;
	return m;
}

ftlens_marker *ftlens_marker_open(void)
{
	return marker_new(NULL);
}

ftlens_marker *ftlens_marker_open_path(const char *trace_marker)
{
	return marker_new(trace_marker ? trace_marker : "");
}

void ftlens_marker_close(ftlens_marker *m)
{
	if (!m)
		return;
	int saved = errno;
	if (m->marker_fd >= 0)
		close(m->marker_fd);
	if (m->on_fd >= 0)
		close(m->on_fd);
	free(m);
	errno = saved;
}

int ftlens_marker_status(const ftlens_marker *m)
{
	return m ? m->status : -EINVAL;
}

const char *ftlens_marker_path(const ftlens_marker *m)
{
	return m && m->status == 0 ? m->path : NULL;
}

/* One write(), retried only when a signal came before anything was written. */
static int marker_write_fd(int fd, const char *buf, size_t len)
{
	int saved = errno;
	ssize_t r;
	do {
		r = write(fd, buf, len);
	} while (r < 0 && errno == EINTR);
	int rc = r < 0 ? -errno : (int)r;
	errno = saved;
	return rc;
}

/* 0 when m writes markers and arg is there, else what the call returns:
 * the no-op path costs these two tests. */
static int marker_usable(const ftlens_marker *m, const void *arg)
{
	if (!m)
		return -EINVAL;
	if (m->marker_fd < 0)
		return m->status;
	return arg ? 0 : -EINVAL;
}

/* One marker of text[0..len) in scratch (FTLENS_MARKER_MAX + 1 bytes, which
 * may hold the text already): cut to fit and ended with a newline, as the
 * kernel stores it anyway, so that a regular file standing in for
 * trace_marker reads as lines. */
static int marker_emit(const ftlens_marker *m, char *scratch, const char *text, size_t len)
{
	if (len >= FTLENS_MARKER_MAX)
		len = FTLENS_MARKER_MAX - 1;
	else if (len > 0 && text[len - 1] == '\n')
		len--;
	if (text != scratch)
		memcpy(scratch, text, len);
	scratch[len++] = '\n';
	return marker_write_fd(m->marker_fd, scratch, len);
}

int ftlens_marker_write(ftlens_marker *m, const char *buf, size_t len)
{
	int rc = marker_usable(m, buf);
	if (rc)
		return rc;
	char scratch[FTLENS_MARKER_MAX + 1];
	return marker_emit(m, scratch, buf, len);
}

int ftlens_marker_print(ftlens_marker *m, const char *text)
{
	int rc = marker_usable(m, text);
	if (rc)
		return rc;
	return ftlens_marker_write(m, text, strlen(text));
}

int ftlens_marker_vprintf(ftlens_marker *m, const char *fmt, va_list ap)
{
	int rc = marker_usable(m, fmt);
	if (rc)
		return rc;
	int saved = errno;
	char buf[FTLENS_MARKER_MAX + 1];
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	if (n < 0) {
		rc = errno ? -errno : -EINVAL;
		errno = saved;
		return rc;
	}
	errno = saved;
	return marker_emit(m, buf, buf, (size_t)n);
}

int ftlens_marker_printf(ftlens_marker *m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int rc = ftlens_marker_vprintf(m, fmt, ap);
	va_end(ap);
	return rc;
}

/* Decimal digits of v at the end of buf (no libc formatting: this runs in
 * signal handlers). Returns where they start. */
static char *marker_utoa(char *end, unsigned long long v, int min_digits)
{
	char *p = end;
	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
		min_digits--;
	} while (v || min_digits > 0);
	return p;
}

int ftlens_marker_wallclock(ftlens_marker *m)
{
	int rc = marker_usable(m, m);
	if (rc)
		return rc;
	int saved = errno;
	struct timespec ts;
	if (clock_gettime(CLOCK_REALTIME, &ts) != 0) {
		rc = -errno;
		errno = saved;
		return rc;
	}
	if (ts.tv_sec < 0) /* before 1970: not a time the format can hold */
		return -ERANGE;
	char num[32];
	char *end = num + sizeof num;
	char *p = marker_utoa(end, (unsigned long long)ts.tv_nsec, 9);
	*--p = '.';
	p = marker_utoa(p, (unsigned long long)ts.tv_sec, 1);
	char buf[sizeof FTLENS_MARKER_WALLCLOCK_PREFIX + sizeof num + 1];
	size_t pre = sizeof FTLENS_MARKER_WALLCLOCK_PREFIX - 1;
	memcpy(buf, FTLENS_MARKER_WALLCLOCK_PREFIX, pre);
	memcpy(buf + pre, p, (size_t)(end - p));
	buf[pre + (size_t)(end - p)] = '\n';
	return marker_write_fd(m->marker_fd, buf, pre + (size_t)(end - p) + 1);
}

static int marker_set_tracing(ftlens_marker *m, const char *value)
{
	if (!m)
		return -EINVAL;
	if (m->on_fd < 0)
		return m->on_status;
	int rc = marker_write_fd(m->on_fd, value, 2);
	return rc < 0 ? rc : 0;
}

int ftlens_marker_tracing_on(ftlens_marker *m)
{
	return marker_set_tracing(m, "1\n");
}

int ftlens_marker_tracing_off(ftlens_marker *m)
{
	return marker_set_tracing(m, "0\n");
}
