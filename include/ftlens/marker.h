/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libftlens-marker: trace markers, tracing on/off and a wall-clock anchor
 * from an application into the Linux ftrace ring buffer (see ftlens-marker(3)).
 *
 * Every call is a cheap no-op when tracefs is missing or not writable: the
 * handle remembers why, and each call returns that reason at once without a
 * system call. Calls never change errno. Errors are returned as negative
 * errno values. */
#ifndef FTLENS_MARKER_H
#define FTLENS_MARKER_H

#include <stdarg.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The longest marker written, in bytes with its newline: longer text is cut
 * (never split into two writes). A kernel may keep less: 1 KiB before Linux
 * 6.8, a ring-buffer page minus headers since (4054 bytes on 6.18). */
#define FTLENS_MARKER_MAX 4095

/* The wall-clock anchor, followed by CLOCK_REALTIME as seconds "." nine
 * digits of nanoseconds; `ftlens markers` maps trace time to wall time
 * with it. */
#define FTLENS_MARKER_WALLCLOCK_PREFIX "ftlens-wallclock: "

typedef struct ftlens_marker ftlens_marker;

#if defined(__GNUC__)
#define FTLENS_MARKER_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define FTLENS_MARKER_PRINTF(f, a)
#endif

/* Finds the trace_marker to write to, in this order, and opens it together
 * with the tracing_on file beside it:
 *   1. $FTLENS_TRACE_MARKER, a path to a trace_marker (`ftlens record` sets it
 *      for the program it traces); set but empty turns markers off;
 *   2. $FTLENS_TRACEFS/trace_marker (a tracefs mount or an instance dir);
 *   3. every tracefs mount in /proc/mounts;
 *   4. every debugfs mount in /proc/mounts, plus "/tracing";
 *   5. /sys/kernel/tracing, then /sys/kernel/debug/tracing.
 * When 1 or 2 is set it is the only place tried. Nothing is ever mounted.
 * Returns a handle even when no trace_marker could be opened (every call on
 * it is then a no-op; ftlens_marker_status() says why), or NULL when memory
 * runs out (every call accepts NULL as a no-op too). Free with
 * ftlens_marker_close(). Not async-signal-safe. */
ftlens_marker *ftlens_marker_open(void);

/* Like ftlens_marker_open() for one given trace_marker path; tracing_on is
 * the file of that name in the same directory. */
ftlens_marker *ftlens_marker_open_path(const char *trace_marker);

/* Closes the files and frees m (NULL is fine). No other thread may be using
 * m at the time. Not async-signal-safe. */
void ftlens_marker_close(ftlens_marker *m);

/* 0 when markers reach a trace_marker, otherwise why not as a negative errno
 * (-ENOENT: no tracefs found, -EACCES: not allowed, -EINVAL: m is NULL).
 * Async-signal-safe. */
int ftlens_marker_status(const ftlens_marker *m);

/* The trace_marker path in use, or NULL; valid until ftlens_marker_close().
 * Async-signal-safe. */
const char *ftlens_marker_path(const ftlens_marker *m);

/* Writes len bytes as one marker with a single write(): cut to
 * FTLENS_MARKER_MAX - 1 bytes, and a newline added when the text lacks one
 * (the kernel would add it; a regular file given as trace_marker then reads
 * as lines). Returns the number of bytes the kernel took (it may cut long
 * text further) or a negative errno. Thread-safe and async-signal-safe. */
int ftlens_marker_write(ftlens_marker *m, const char *buf, size_t len);

/* ftlens_marker_write() of a NUL-terminated string. Thread-safe and
 * async-signal-safe. */
int ftlens_marker_print(ftlens_marker *m, const char *text);

/* A printf-style marker, formatted on the stack and cut at
 * FTLENS_MARKER_MAX. Thread-safe; not async-signal-safe (vsnprintf). */
int ftlens_marker_printf(ftlens_marker *m, const char *fmt, ...) FTLENS_MARKER_PRINTF(2, 3);
int ftlens_marker_vprintf(ftlens_marker *m, const char *fmt, va_list ap) FTLENS_MARKER_PRINTF(2, 0);

/* Writes "ftlens-wallclock: SEC.NNNNNNNNN" with CLOCK_REALTIME read just
 * before the write. Returns like ftlens_marker_write(). Thread-safe and
 * async-signal-safe. */
int ftlens_marker_wallclock(ftlens_marker *m);

/* Writes 1 or 0 to the tracing_on beside the trace_marker in use (an
 * instance's own when the marker is an instance's). tracing_off keeps the
 * ring buffer as it was when the fault was seen. Return 0 or a negative
 * errno. Thread-safe and async-signal-safe. */
int ftlens_marker_tracing_on(ftlens_marker *m);
int ftlens_marker_tracing_off(ftlens_marker *m);

#ifdef __cplusplus
}
#endif

#endif /* FTLENS_MARKER_H */
