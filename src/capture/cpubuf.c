/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Per-CPU ring-buffer readers: whole pages are spliced out while tracing runs
 * (libtracefs's tracefs_cpu), the partial ones read at the end. */
#include "config.h"

#include "capture/cpubuf.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <tracefs.h>

#include "capture/tracefs.h"
#include "util/error.h"
#include "util/fdio.h"
#include "util/tracefs-text.h"
#include "util/scan.h"

typedef struct {
	char *in_path;
	char *out_path;
	int in_fd;
	int out_fd;
	struct tracefs_cpu *tcpu;
	guint64 bytes;
} CpuReader;

struct _FtlCpuBuf {
	CpuReader *cpus;
	guint n;
	guint page_size;
};


guint ftl_cpubuf_page_size(const char *tracefs_dir, GError **error)
{
	g_autofree char *path = g_build_filename(tracefs_dir, "events", "header_page", NULL);
	g_autofree char *text = ftl_tracefs_read(path, error);
	if (!text)
		return 0;
	FtlHeaderPage hp;
	if (!ftl_header_page_parse(text, &hp)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': no 'data' and 'commit' fields: not a ring-buffer page header",
			    path);
		return 0;
	}
	return ftl_header_page_size(&hp);
}

guint ftl_cpubuf_count_cpus(const char *buffer_dir, GError **error)
{
	g_autofree char *dir = g_build_filename(buffer_dir, "per_cpu", NULL);
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	if (!d) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': cannot list the per-CPU buffers",
			    dir);
		return 0;
	}
	guint n = 0;
	for (const char *name; (name = g_dir_read_name(d));) {
		guint64 cpu;
		if (strncmp(name, "cpu", 3) != 0 || !g_ascii_isdigit(name[3]) ||
		    !ftl_scan_u64_str(name + 3, 10, &cpu))
			continue;
		if (cpu < 65536 && cpu + 1 > n)
			n = (guint)cpu + 1;
	}
	if (!n)
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': no cpuN directories", dir);
	return n;
}

static void cpu_reader_close(CpuReader *r)
{
	if (r->tcpu) {
		tracefs_cpu_free_fd(r->tcpu);
		r->tcpu = NULL;
	}
	if (r->in_fd >= 0) {
		close(r->in_fd);
		r->in_fd = -1;
	}
}

void ftl_cpubuf_free(FtlCpuBuf *b)
{
	if (!b)
		return;
	for (guint i = 0; i < b->n; i++) {
		CpuReader *r = &b->cpus[i];
		cpu_reader_close(r);
		if (r->out_fd >= 0)
			close(r->out_fd);
		g_free(r->in_path);
		g_free(r->out_path);
	}
	g_free(b->cpus);
	g_free(b);
}

FtlCpuBuf *ftl_cpubuf_open(const char *buffer_dir, const char *out_dir, guint page_size,
			   GError **error)
{
	guint n = ftl_cpubuf_count_cpus(buffer_dir, error);
	if (!n)
		return NULL;
	g_autoptr(FtlCpuBuf) b = g_new0(FtlCpuBuf, 1);
	b->cpus = g_new0(CpuReader, n);
	b->n = n;
	b->page_size = page_size;
	for (guint i = 0; i < n; i++) {
		b->cpus[i].in_fd = -1;
		b->cpus[i].out_fd = -1;
	}
	for (guint i = 0; i < n; i++) {
		CpuReader *r = &b->cpus[i];
		g_autofree char *cpu = g_strdup_printf("cpu%u", i);
		r->in_path = g_build_filename(buffer_dir, "per_cpu", cpu, "trace_pipe_raw", NULL);
		g_autofree char *odir = g_build_filename(out_dir, "per_cpu", cpu, NULL);
		r->out_path = g_build_filename(odir, "trace_pipe_raw", NULL);
		if (g_mkdir_with_parents(odir, 0755) != 0) {
			int e = errno;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", odir,
				    g_strerror(e));
			return NULL;
		}
		r->out_fd = open(r->out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (r->out_fd < 0) {
			int e = errno;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", r->out_path,
				    g_strerror(e));
			return NULL;
		}
		r->in_fd = open(r->in_path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (r->in_fd < 0 && errno == ENODEV)
			continue; /* a possible but offline CPU: no pages */
		if (r->in_fd < 0) {
			int e = errno;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", r->in_path,
				    g_strerror(e));
			return NULL;
		}
		r->tcpu = tracefs_cpu_alloc_fd(r->in_fd, (int)page_size, true);
		if (!r->tcpu) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': cannot set up a reader",
				    r->in_path);
			return NULL;
		}
	}
	return g_steal_pointer(&b);
}

/* Splices whole pages out until none is left; partial pages stay in the
 * ring buffer until the end (ftl_cpubuf_drain). Returns bytes or -1. */
static gint64 cpu_reader_splice(CpuReader *r, GError **error)
{
	gint64 total = 0;
	while (r->tcpu) {
		int n = tracefs_cpu_write(r->tcpu, r->out_fd, true);
		if (n < 0 && (errno == EAGAIN || errno == EINTR || errno == ENODEV))
			break;
		if (n < 0) {
			int e = errno;
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s' to '%s': %s", r->in_path,
				    r->out_path, g_strerror(e));
			return -1;
		}
		if (n == 0)
			break;
		total += n;
	}
	r->bytes += (guint64)total;
	return total;
}

gboolean ftl_cpubuf_poll(FtlCpuBuf *b, int timeout_ms, GError **error)
{
	g_autofree struct pollfd *p = g_new0(struct pollfd, b->n);
	for (guint i = 0; i < b->n; i++) {
		p[i].fd = b->cpus[i].in_fd;
		p[i].events = POLLIN;
	}
	int rc = poll(p, b->n, timeout_ms);
	if (rc < 0 && errno != EINTR) {
		int e = errno;
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "poll on trace_pipe_raw: %s",
			    g_strerror(e));
		return FALSE;
	}
	/* Every CPU, not only those poll() named: a wakeup can come late (or,
	 * on older kernels, only when the whole buffer is full), and a splice
	 * with less than a page buffered costs one syscall. */
	gint64 got = 0;
	for (guint i = 0; i < b->n; i++) {
		gint64 n = cpu_reader_splice(&b->cpus[i], error);
		if (n < 0)
			return FALSE;
		got += n;
	}
	/* Kernels that wake readers on any data, not at the watermark, would
	 * make this loop spin while less than a page is buffered. */
	if (rc > 0 && got == 0 && timeout_ms > 0)
		g_usleep((gulong)MIN(timeout_ms, 50) * 1000);
	return TRUE;
}

gboolean ftl_cpubuf_drain(FtlCpuBuf *b, GError **error)
{
	for (guint i = 0; i < b->n; i++) {
		CpuReader *r = &b->cpus[i];
		if (!r->tcpu)
			continue;
		if (cpu_reader_splice(r, error) < 0)
			return FALSE;
		/* The rest, the page the writer was on included, one read each;
		 * written here rather than by tracefs_cpu_flush_write(), which
		 * takes a short write for a whole one and loses the rest of
		 * the page. */
		g_autofree char *page = g_malloc(b->page_size);
		for (;;) {
			int n = tracefs_cpu_flush(r->tcpu, page);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && errno == ENODEV)
				break; /* the CPU went offline: nothing more to read */
			int e = n < 0 ? errno : ftl_fd_write_all(r->out_fd, page, (gsize)n, -1);
			if (e) {
				g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s' to '%s': %s",
					    r->in_path, r->out_path, g_strerror(e));
				return FALSE;
			}
			if (n == 0)
				break;
			r->bytes += (guint64)n;
		}
	}
	return TRUE;
}

gboolean ftl_cpubuf_close(FtlCpuBuf *b, GError **error)
{
	gboolean ok = TRUE;
	for (guint i = 0; i < b->n; i++) {
		CpuReader *r = &b->cpus[i];
		cpu_reader_close(r);
		if (r->out_fd >= 0) {
			if (close(r->out_fd) != 0 && ok) {
				int e = errno;
				g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", r->out_path,
					    g_strerror(e));
				ok = FALSE;
			}
			r->out_fd = -1;
		}
	}
	return ok;
}

guint ftl_cpubuf_n_cpus(const FtlCpuBuf *b)
{
	return b->n;
}

guint64 ftl_cpubuf_bytes(const FtlCpuBuf *b, guint cpu)
{
	return cpu < b->n ? b->cpus[cpu].bytes : 0;
}
