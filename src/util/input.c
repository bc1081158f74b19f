/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Maps an input file for random access: plain files directly, behind a SIGBUS
 * guard; anything else is expanded into an unlinked temporary file first,
 * within --max-expand and the free space. */
#include "config.h"

#include "util/input.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "util/error.h"
#include "util/fdio.h"
#include "util/scan.h"

#define INPUT_CHUNK (1u << 20)
/* The expanded copy checks the free space each time it grows by this much,
 * and leaves at least INPUT_RESERVE free. */
#define INPUT_SPACE_STEP ((guint64)64 << 20)
#define INPUT_RESERVE	 ((guint64)256 << 20)

guint ftl_read_threads(const FtlReadOptions *ro)
{
	return ro && ro->threads ? ro->threads : (guint)MAX(1, g_get_num_processors());
}

guint64 ftl_read_max_expand(const FtlReadOptions *ro)
{
	return ro && ro->max_expand ? ro->max_expand : FTL_INPUT_MAX_EXPAND_DEFAULT;
}

gboolean ftl_input_parse_size(const char *text, guint64 *bytes)
{
	guint64 v;
	const char *p = ftl_scan_u64(text, text + strlen(text), &v);
	if (!p)
		return FALSE;
	guint shift = 0;
	switch (g_ascii_toupper(*p)) {
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	case 'T':
		shift = 40;
		break;
	case 0:
		break;
	default:
		return FALSE;
	}
	if (*p && p[1] && !(g_ascii_toupper(p[1]) == 'B' && !p[2]) &&
	    !(g_ascii_toupper(p[1]) == 'I' && g_ascii_toupper(p[2]) == 'B' && !p[3]))
		return FALSE;
	if (shift && v > (G_MAXUINT64 >> shift))
		return FALSE;
	*bytes = v << shift;
	return TRUE;
}

/* ---- the SIGBUS guard ------------------------------------------------------
 * A mapped file that another process truncates raises SIGBUS on the next
 * touch of a page past the new end. The handler maps a zero page there, so
 * the reader goes on over zeros, and flags the mapping; ftl_input_check()
 * turns the flag into an error naming the file. */

#define GUARD_SLOTS 256

typedef struct {
	uintptr_t start, end; /* 0, 0: free */
	volatile sig_atomic_t hit;
} GuardSlot;

static GuardSlot guard_slots[GUARD_SLOTS];
static GMutex guard_lock;
static struct sigaction guard_old;
static uintptr_t guard_page_size;

static void input_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	for (guint i = 0; i < GUARD_SLOTS; i++) {
		GuardSlot *g = &guard_slots[i];
		uintptr_t start = __atomic_load_n(&g->start, __ATOMIC_ACQUIRE);
		if (start && a >= start && a < g->end) {
			uintptr_t page = a & ~(guard_page_size - 1);
			if (mmap((void *)page, (size_t)guard_page_size, PROT_READ,
				 MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS, -1, 0) != MAP_FAILED) {
				g->hit = 1;
				return;
			}
		}
	}
	/* not ours: die as we would have */
	sigaction(SIGBUS, &guard_old, NULL);
	(void)sig;
	(void)uc;
}

static gint input_guard_add(const void *p, gsize len)
{
	static gboolean installed;
	g_mutex_lock(&guard_lock);
	if (!installed) {
		struct sigaction sa = { 0 };
		sa.sa_sigaction = input_sigbus;
		sa.sa_flags = SA_SIGINFO;
		guard_page_size = (uintptr_t)sysconf(_SC_PAGESIZE);
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, &guard_old);
		installed = TRUE;
	}
	gint slot = -1;
	for (guint i = 0; i < GUARD_SLOTS && slot < 0; i++)
		if (!guard_slots[i].start) {
			guard_slots[i].hit = 0;
			guard_slots[i].end = (uintptr_t)p + len;
			__atomic_store_n(&guard_slots[i].start, (uintptr_t)p, __ATOMIC_RELEASE);
			slot = (gint)i;
		}
	g_mutex_unlock(&guard_lock);
	return slot;
}

static void input_guard_remove(gint slot)
{
	if (slot < 0)
		return;
	g_mutex_lock(&guard_lock);
	__atomic_store_n(&guard_slots[slot].start, 0, __ATOMIC_RELEASE);
	guard_slots[slot].end = 0;
	g_mutex_unlock(&guard_lock);
}

gboolean ftl_input_check(const FtlInput *in, GError **error)
{
	if (in->guard >= 0 && guard_slots[in->guard].hit) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': the file shrank while being read (it had %zu bytes)", in->path,
			    in->map_size);
		return FALSE;
	}
	return TRUE;
}

/* ---- expanded copies ------------------------------------------------------ */

static int input_tmpfile(const char *path, GError **error)
{
	const char *dir = g_get_tmp_dir();
	int fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	if (fd < 0) {
		/* Filesystems without O_TMPFILE: create and unlink at once. */
		g_autofree char *tmpl = g_build_filename(dir, "ftlens-XXXXXX", NULL);
		fd = g_mkstemp(tmpl);
		if (fd >= 0)
			unlink(tmpl);
	}
	if (fd < 0)
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
			    "'%s': cannot create a temporary file in %s: %s", path, dir,
			    g_strerror(errno));
	return fd;
}



static gboolean input_space_ok(int fd, const char *path, guint64 written, GError **error)
{
	struct statvfs vfs;
	if (fstatvfs(fd, &vfs) != 0)
		return TRUE; /* no figure to check against: the writes will say */
	guint64 avail = (guint64)vfs.f_bavail * vfs.f_frsize;
	if (avail >= INPUT_SPACE_STEP + INPUT_RESERVE)
		return TRUE;
	g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
		    "'%s': the expanded copy needs more space than %s has free (%" G_GUINT64_FORMAT
		    " MiB free, %" G_GUINT64_FORMAT " MiB written); free some or set TMPDIR",
		    path, g_get_tmp_dir(), avail >> 20, written >> 20);
	return FALSE;
}

/* Copies what read gives into out_fd, within --max-expand and the free
 * space; path and what ("gzip", "the stream") name it in messages. */
static gboolean input_expand_from(FtlInputReadFunc read, gpointer data, const char *path,
				  const char *what, int out_fd, const FtlReadOptions *ro,
				  GError **error)
{
	guint64 max_expand = ftl_read_max_expand(ro);
	g_autofree char *buf = g_malloc(INPUT_CHUNK);
	guint64 written = 0, next_check = 0;
	for (;;) {
		gssize n = read(data, buf, INPUT_CHUNK, error);
		if (n < 0)
			return FALSE;
		if (n == 0)
			return TRUE;
		if (written + (guint64)n > max_expand) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "'%s': %s expands past --max-expand (%" G_GUINT64_FORMAT
				    " MiB) on disk; give a larger --max-expand, or the file "
				    "decompressed",
				    path, what, max_expand >> 20);
			return FALSE;
		}
		if (written >= next_check) {
			if (!input_space_ok(out_fd, path, written, error))
				return FALSE;
			next_check = written + INPUT_SPACE_STEP;
		}
		int e = ftl_fd_write_all(out_fd, buf, (gsize)n, -1);
		if (e) {
			g_set_error(error, FTL_ERROR, FTL_ERROR_IO,
				    "'%s': writing the expanded copy failed: %s", path, g_strerror(e));
			return FALSE;
		}
		written += (guint64)n;
	}
}

static gssize input_stream_read(gpointer data, void *buf, gsize len, GError **error)
{
	return ftl_stream_read(data, buf, len, error);
}

static gboolean input_expand(FtlStream *s, int out_fd, const FtlReadOptions *ro, GError **error)
{
	const char *what = ftl_stream_compression(s) != FTL_COMPRESSION_NONE
				   ? ftl_compression_name(ftl_stream_compression(s))
				   : "the stream";
	return input_expand_from(input_stream_read, s, ftl_stream_path(s), what, out_fd, ro, error);
}

static gboolean input_map(FtlInput *in, int fd, GError **error)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", in->path,
			    g_strerror(errno));
		return FALSE;
	}
	in->size = (gsize)st.st_size;
	if (in->size == 0)
		return TRUE;
	void *p = mmap(NULL, in->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': cannot map %zu bytes: %s",
			    in->path, in->size, g_strerror(errno));
		in->size = 0;
		return FALSE;
	}
	madvise(p, in->size, MADV_SEQUENTIAL);
	in->data = p;
	in->map_size = in->size;
	in->guard = input_guard_add(p, in->size);
	return TRUE;
}

FtlInput *ftl_input_open(const char *path, const FtlReadOptions *ro, GError **error)
{
	g_autoptr(FtlInput) in = g_new0(FtlInput, 1);
	in->path = g_strdup(path);
	in->guard = -1;
	g_autoptr(FtlStream) s = ftl_stream_open(path, error);
	if (!s)
		return NULL;
	in->compression = ftl_stream_compression(s);
	gboolean ok;
	if (ftl_stream_is_seekable(s)) {
		ok = input_map(in, ftl_stream_fd(s), error);
		return ok ? g_steal_pointer(&in) : NULL;
	}
	int tmp = input_tmpfile(path, error);
	if (tmp < 0)
		return NULL;
	ok = input_expand(s, tmp, ro, error) && input_map(in, tmp, error);
	close(tmp);
	return ok ? g_steal_pointer(&in) : NULL;
}

FtlInput *ftl_input_new_from_reader(const char *label, FtlInputReadFunc read, gpointer data,
				    const FtlReadOptions *ro, GError **error)
{
	g_autoptr(FtlInput) in = g_new0(FtlInput, 1);
	in->path = g_strdup(label);
	in->guard = -1;
	int tmp = input_tmpfile(label, error);
	if (tmp < 0)
		return NULL;
	gboolean ok = input_expand_from(read, data, label, "the member", tmp, ro, error) &&
		      input_map(in, tmp, error);
	close(tmp);
	return ok ? g_steal_pointer(&in) : NULL;
}

gboolean ftl_input_spool_stdin(const FtlReadOptions *ro, GError **error)
{
	struct stat st;
	if (fstat(STDIN_FILENO, &st) == 0 && S_ISREG(st.st_mode))
		return TRUE;
	g_autoptr(FtlStream) s = ftl_stream_open("-", error);
	if (!s)
		return FALSE;
	int tmp = input_tmpfile("-", error);
	if (tmp < 0)
		return FALSE;
	gboolean ok = input_expand(s, tmp, ro, error);
	if (ok && (lseek(tmp, 0, SEEK_SET) < 0 || dup2(tmp, STDIN_FILENO) < 0)) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'-': cannot keep a copy of standard input: %s",
			    g_strerror(errno));
		ok = FALSE;
	}
	close(tmp);
	return ok;
}

void ftl_input_release(FtlInput *in, gsize offset)
{
	gsize page = (gsize)sysconf(_SC_PAGESIZE);
	offset = MIN(offset, in->map_size) / page * page;
	if (!in->data || offset <= in->released)
		return;
	madvise((char *)in->data + in->released, offset - in->released, MADV_DONTNEED);
	in->released = offset;
}

void ftl_input_free(FtlInput *in)
{
	if (!in)
		return;
	input_guard_remove(in->guard);
	if (in->data && in->map_size)
		munmap((void *)in->data, in->map_size);
	g_free(in->owned);
	g_free(in->path);
	g_free(in);
}

FtlInput *ftl_input_new_from_memory(const char *label, char *data, gsize size)
{
	FtlInput *in = g_new0(FtlInput, 1);
	in->path = g_strdup(label);
	in->owned = data;
	in->data = size ? data : NULL;
	in->size = size;
	in->guard = -1;
	return in;
}
