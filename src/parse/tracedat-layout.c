/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A trace.dat's skeleton read by ftlens itself (trace-cmd.dat(5), versions 6
 * and 7): where each buffer's per-CPU pages lie, how they are compressed,
 * and the options ftlens needs; every size checked against the file before
 * libtracecmd is trusted with it. */
#include "config.h"

#include "parse/tracedat-layout.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "util/error.h"
#include "util/fdio.h"

/* Bounds on what a sound file holds, so that a damaged count or size is
 * refused before anything is allocated by it. */
#define DAT_MAX_CPUS	     65536u
#define DAT_MAX_SECTION	     (256u << 20) /* an options or header section, uncompressed */
#define DAT_MAX_STRING	     4096u
#define DAT_MAX_OPT_SECTIONS 1024u
#define DAT_MAX_BUFFERS	     4096u

/* Option and section ids (trace-cmd.dat.v7(5)). */
enum {
	DAT_OPT_DONE = 0,
	DAT_OPT_DATE = 1,
	DAT_OPT_CPUSTAT = 2,
	DAT_OPT_BUFFER = 3,
	DAT_OPT_TRACECLOCK = 4,
	DAT_OPT_UNAME = 5,
	DAT_OPT_HOOK = 6,
	DAT_OPT_OFFSET = 7,
	DAT_OPT_CPUCOUNT = 8,
	DAT_OPT_TIME_SHIFT = 12,
	DAT_OPT_TSC2NSEC = 14,
	DAT_OPT_HEADER_INFO = 16,
	DAT_OPT_CMDLINES = 21,
	DAT_OPT_BUFFER_TEXT = 22,
};
#define DAT_SEC_COMPRESSED 1u

/* The file's bytes last read, shared by a reader and its copies: a
 * capture's headers are thousands of small fields (2,300 formats' sizes),
 * a pread each without it. */
#define DAT_WINDOW (64u * 1024)
typedef struct {
	guint64 at;
	gsize len;
	guchar buf[DAT_WINDOW];
} DatWindow;

/* A reader over the file (mem NULL) or over a section held in memory,
 * that refuses to go past end and says where it stopped. */
typedef struct {
	DatWindow *win; /* the file's: reads of up to DAT_WINDOW bytes */
	int fd;
	const char *path;
	const guchar *mem;
	guint64 pos, end;
	guint64 mem_at; /* the file offset of the section in memory, for messages */
	gboolean big;
	const char *part; /* what is being read, for messages */
	GError **error;
	gboolean failed;
} DatCur;

static gboolean cur_fail(DatCur *c, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
static gboolean cur_fail(DatCur *c, const char *fmt, ...)
{
	if (c->failed)
		return FALSE;
	c->failed = TRUE;
	va_list ap;
	va_start(ap, fmt);
	g_autofree char *why = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	if (c->mem)
		g_set_error(c->error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': not a valid trace.dat: %s (in the section at offset %" G_GUINT64_FORMAT
			    ", byte %" G_GUINT64_FORMAT "): %s",
			    c->path, c->part, c->mem_at, c->pos, why);
	else
		g_set_error(c->error, FTL_ERROR, FTL_ERROR_FORMAT,
			    "'%s': not a valid trace.dat: %s at offset %" G_GUINT64_FORMAT ": %s",
			    c->path, c->part, c->pos, why);
	return FALSE;
}

/* n bytes of the file at the reader's place, through its window; 0 or
 * an errno. */
static int cur_pread(DatCur *c, void *buf, guint64 n)
{
	DatWindow *w = c->win;
	if (!w || n > DAT_WINDOW)
		return ftl_fd_pread_all(c->fd, buf, (gsize)n, (gint64)c->pos);
	if (c->pos < w->at || c->pos + n > w->at + w->len) {
		gsize len = (gsize)MIN((guint64)DAT_WINDOW, c->end - c->pos);
		w->len = 0;
		int e = ftl_fd_pread_all(c->fd, w->buf, len, (gint64)c->pos);
		if (e)
			return e;
		w->at = c->pos;
		w->len = len;
	}
	memcpy(buf, w->buf + (c->pos - w->at), (gsize)n);
	return 0;
}

static gboolean cur_read(DatCur *c, void *buf, guint64 n)
{
	if (c->failed)
		return FALSE;
	if (n > c->end - c->pos)
		return cur_fail(c, "%" G_GUINT64_FORMAT " bytes needed, %" G_GUINT64_FORMAT
				   " left (truncated or damaged)",
				n, c->end - c->pos);
	if (c->mem) {
		memcpy(buf, c->mem + c->pos, n);
	} else {
		int e = cur_pread(c, buf, n);
		if (e)
			return cur_fail(c, "read failed: %s", g_strerror(e));
	}
	c->pos += n;
	return TRUE;
}

static gboolean cur_skip(DatCur *c, guint64 n)
{
	if (c->failed)
		return FALSE;
	if (n > c->end - c->pos)
		return cur_fail(c, "claims %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
				   " are left in the file",
				n, c->end - c->pos);
	c->pos += n;
	return TRUE;
}

static guint64 cur_num(DatCur *c, guint n)
{
	guchar b[8];
	if (!cur_read(c, b, n))
		return 0;
	guint64 v = 0;
	for (guint i = 0; i < n; i++)
		v = (v << 8) | b[c->big ? i : n - 1 - i];
	return v;
}

/* A NUL-terminated string of at most DAT_MAX_STRING bytes. */
static char *cur_string(DatCur *c)
{
	GString *s = g_string_new(NULL);
	guchar buf[256];
	while (!c->failed) {
		guint64 n = MIN((guint64)sizeof buf, c->end - c->pos);
		if (n == 0) {
			cur_fail(c, "a string runs to the end of the file");
			break;
		}
		guint64 at = c->pos;
		if (!cur_read(c, buf, n))
			break;
		guchar *nul = memchr(buf, 0, n);
		gsize take = nul ? (gsize)(nul - buf) : n;
		g_string_append_len(s, (const char *)buf, (gssize)take);
		if (s->len > DAT_MAX_STRING) {
			c->pos = at;
			cur_fail(c, "a string longer than %u bytes", DAT_MAX_STRING);
			break;
		}
		if (nul) {
			c->pos = at + take + 1;
			return g_string_free(s, FALSE);
		}
	}
	g_string_free(s, TRUE);
	return NULL;
}

static gboolean cur_expect(DatCur *c, const char *lit, gsize n)
{
	char buf[16];
	guint64 at = c->pos;
	if (!cur_read(c, buf, n))
		return FALSE;
	if (memcmp(buf, lit, n) != 0) {
		c->pos = at;
		return cur_fail(c, "'%s' expected", lit);
	}
	return TRUE;
}

/* A block of data sized by an n-byte number: skipped, the size checked. */
static gboolean cur_skip_sized(DatCur *c, guint n, const char *part)
{
	c->part = part;
	guint64 size = cur_num(c, n);
	return cur_skip(c, size);
}

/* ---- layout ------------------------------------------------------------ */

static void dat_buffer_free(gpointer p)
{
	FtlDatBuffer *b = p;
	g_free(b->name);
	g_free(b->clock);
	g_array_unref(b->cpus);
	g_free(b);
}

void ftl_dat_layout_free(FtlDatLayout *l)
{
	if (!l)
		return;
	g_free(l->compress_name);
	g_ptr_array_unref(l->buffers);
	g_free(l->trace_clock);
	g_free(l->uname);
	g_string_free(l->cpustats, TRUE);
	g_free(l);
}

static FtlDatBuffer *dat_buffer_add(FtlDatLayout *l, char *name, gboolean top_first)
{
	FtlDatBuffer *b = g_new0(FtlDatBuffer, 1);
	b->name = name;
	b->page_size = l->page_size;
	b->cpus = g_array_new(FALSE, FALSE, sizeof(FtlDatCpu));
	if (top_first && !*name)
		g_ptr_array_insert(l->buffers, 0, b);
	else
		g_ptr_array_add(l->buffers, b);
	return b;
}

/* One CPU's extent: within the file. */
static gboolean dat_cpu_add(DatCur *c, const FtlDatLayout *l, FtlDatBuffer *b, guint32 cpu,
			    guint64 offset, guint64 size)
{
	if (cpu >= DAT_MAX_CPUS)
		return cur_fail(c, "CPU %u", cpu);
	if (offset > l->file_size || size > l->file_size - offset)
		return cur_fail(c,
				"CPU %u's data (%" G_GUINT64_FORMAT " bytes at offset %" G_GUINT64_FORMAT
				") lies past the end of the file (%" G_GUINT64_FORMAT " bytes)",
				cpu, size, offset, l->file_size);
	FtlDatCpu d = { cpu, offset, size };
	g_array_append_val(b->cpus, d);
	return TRUE;
}

/* The options ftlens reads itself; the rest is libtracecmd's. */
static void dat_note_option(FtlDatLayout *l, guint id, const guchar *data, guint32 size)
{
	switch (id) {
	case DAT_OPT_CPUSTAT:
		/* joined as libtracecmd joins them: the NUL becomes a newline */
		if (size) {
			g_string_append_len(l->cpustats, (const char *)data, size - 1);
			g_string_append_c(l->cpustats, '\n');
		}
		break;
	case DAT_OPT_TRACECLOCK:
		if (size) {
			g_free(l->trace_clock);
			l->trace_clock = g_strndup((const char *)data, size);
		} else if (!l->trace_clock) {
			l->trace_clock = g_strdup(""); /* version 6: the text follows the CPU table */
		}
		break;
	case DAT_OPT_UNAME:
		/* the recording machine's "sysname nodename release ...": its
		 * text ends inside the option (dat_option_text_ends) */
		g_free(l->uname);
		l->uname = g_strndup((const char *)data, size);
		break;
	case DAT_OPT_CPUCOUNT:
		if (size == 4) {
			guint32 v;
			memcpy(&v, data, 4);
			l->cpu_count = l->big_endian ? GUINT32_FROM_BE(v) : GUINT32_FROM_LE(v);
		}
		break;
	case DAT_OPT_DATE:
		l->ts_option = l->ts_option ? l->ts_option : "DATE";
		break;
	case DAT_OPT_OFFSET:
		l->ts_option = l->ts_option ? l->ts_option : "OFFSET";
		break;
	case DAT_OPT_TIME_SHIFT:
		l->ts_option = l->ts_option ? l->ts_option : "TIME_SHIFT";
		break;
	case DAT_OPT_TSC2NSEC:
		l->ts_option = l->ts_option ? l->ts_option : "TSC2NSEC";
		break;
	default:
		break;
	}
}

/* Options libtracecmd copies with strdup(): their text must end inside
 * them, or the copy reads on past the option (UNAME 5, HOOK 6, VERSION 9,
 * GUEST 13; a BUFFER's name after its 8-byte offset). */
static gboolean dat_option_text_ends(guint id, const guchar *data, guint32 size)
{
	guint32 from = id == DAT_OPT_BUFFER ? 8 : 0;
	if (id != DAT_OPT_BUFFER && id != DAT_OPT_UNAME && id != DAT_OPT_HOOK && id != 9 &&
	    id != 13)
		return TRUE;
	return size > from && memchr(data + from, 0, size - from) != NULL;
}

/* strtok_r(NULL, delim) on s: the next token, NULL when none is left. */
static char *dat_hook_tok(char **save, const char *delim)
{
	return strtok_r(NULL, delim, save);
}

gboolean ftl_dat_hook_parses(const char *arg)
{
	/* libtracecmd 1.3's tracecmd_create_event_hook() takes
	 * "[SYS:]EVENT,MATCH[,PID]/[SYS:]EVENT,MATCH[,FLAGS]" by strtok() and
	 * returns NULL when a token is missing, which handle_options()
	 * dereferences (fuzz-tracedat: a 1-byte HOOK option, SIGSEGV in
	 * tracecmd_open_head(), and in trace-cmd report). The same steps,
	 * where it looks back into arg included (at the length of a token
	 * taken as its place, for the first one). */
	g_autofree char *str = g_strdup(arg);
	char *save = NULL;
	char *tok = strtok_r(str, ":,", &save);
	if (!tok)
		return FALSE;
	if (arg[strlen(tok)] == ':' && !(tok = dat_hook_tok(&save, ",")))
		return FALSE;
	if (!(tok = dat_hook_tok(&save, ",/")))
		return FALSE;
	if (arg[strlen(tok) + (gsize)(tok - str)] == ',' && !dat_hook_tok(&save, "/"))
		return FALSE;
	if (!(tok = dat_hook_tok(&save, ":,")))
		return FALSE;
	if (arg[strlen(tok) + (gsize)(tok - str)] == ':' && !(tok = dat_hook_tok(&save, ",")))
		return FALSE;
	if (!(tok = dat_hook_tok(&save, ",")))
		return FALSE;
	return arg[strlen(tok) + (gsize)(tok - str)] != ',' || dat_hook_tok(&save, "") != NULL;
}

/* What keeps libtracecmd from reading option id safely, or NULL. */
static const char *dat_option_fault(guint id, const guchar *data, guint32 size)
{
	if (!dat_option_text_ends(id, data, size))
		return "its text does not end in a NUL";
	if (id == DAT_OPT_HOOK && !ftl_dat_hook_parses((const char *)data))
		return "a HOOK libtracecmd cannot read (it crashes on one)";
	return NULL;
}

/* ---- version 6 ----------------------------------------------------------- */

/* A version 6 CPU table: "flyrecord" and an offset and size per CPU, or
 * "latency" (text). */
static gboolean dat6_cpu_table(DatCur *c, FtlDatLayout *l, FtlDatBuffer *b, guint32 cpus)
{
	char kind[10];
	c->part = "the CPU data table";
	if (!cur_read(c, kind, sizeof kind))
		return FALSE;
	if (memcmp(kind, "latency  ", 10) == 0) {
		b->latency = TRUE;
		return TRUE;
	}
	if (memcmp(kind, "flyrecord", 10) != 0) {
		c->pos -= sizeof kind;
		return cur_fail(c, "'flyrecord' or 'latency' expected");
	}
	if ((guint64)cpus * 16 > c->end - c->pos)
		return cur_fail(c, "%u CPUs do not fit in the file", cpus);
	for (guint32 i = 0; i < cpus; i++) {
		guint64 off = cur_num(c, 8), size = cur_num(c, 8);
		if (!dat_cpu_add(c, l, b, i, off, size))
			return FALSE;
	}
	return !c->failed;
}

/* Version 6 options: id, size, data, up to id 0. BUFFER options are kept
 * in *instances (offset, name) for after the top buffer's table. */
static gboolean dat6_options(DatCur *c, FtlDatLayout *l, GArray *inst_offsets,
			     GPtrArray *inst_names)
{
	c->part = "the options";
	for (guint n = 0;; n++) {
		guint id = (guint)cur_num(c, 2);
		if (c->failed)
			return FALSE;
		if (id == DAT_OPT_DONE)
			return TRUE;
		guint32 size = (guint32)cur_num(c, 4);
		if (c->failed || size > c->end - c->pos)
			return cur_fail(c, "option %u claims %u bytes", id, size);
		g_autofree guchar *data = g_malloc(size + 1);
		if (!cur_read(c, data, size))
			return FALSE;
		data[size] = 0;
		const char *fault = dat_option_fault(id, data, size);
		if (fault)
			return cur_fail(c, "option %u: %s", id, fault);
		if (id == DAT_OPT_BUFFER) {
			if (size < 9 || inst_names->len >= DAT_MAX_BUFFERS)
				return cur_fail(c, "a damaged BUFFER option");
			guint64 off = 0;
			for (guint i = 0; i < 8; i++)
				off = (off << 8) | data[l->big_endian ? i : 7 - i];
			g_array_append_val(inst_offsets, off);
			g_ptr_array_add(inst_names, g_strndup((const char *)data + 8, size - 8));
		} else {
			dat_note_option(l, id, data, size);
		}
	}
}

static gboolean dat6_headers(DatCur *c)
{
	c->part = "the header_page";
	if (!cur_expect(c, "header_page", 12) || !cur_skip_sized(c, 8, "the header_page"))
		return FALSE;
	c->part = "the header_event";
	if (!cur_expect(c, "header_event", 13) || !cur_skip_sized(c, 8, "the header_event"))
		return FALSE;
	c->part = "the ftrace event formats";
	guint32 n = (guint32)cur_num(c, 4);
	if ((guint64)n * 8 > c->end - c->pos)
		return cur_fail(c, "%u formats do not fit in the file", n);
	for (guint32 i = 0; i < n && !c->failed; i++)
		cur_skip_sized(c, 8, "an ftrace event format");
	c->part = "the event systems";
	guint32 systems = (guint32)cur_num(c, 4);
	if ((guint64)systems * 5 > c->end - c->pos)
		return cur_fail(c, "%u event systems do not fit in the file", systems);
	for (guint32 s = 0; s < systems && !c->failed; s++) {
		c->part = "an event system";
		g_free(cur_string(c));
		guint32 events = (guint32)cur_num(c, 4);
		if ((guint64)events * 8 > c->end - c->pos)
			return cur_fail(c, "%u event formats do not fit in the file", events);
		for (guint32 i = 0; i < events && !c->failed; i++)
			cur_skip_sized(c, 8, "an event format");
	}
	cur_skip_sized(c, 4, "the kallsyms");
	cur_skip_sized(c, 4, "the printk formats");
	cur_skip_sized(c, 8, "the saved cmdlines");
	return !c->failed;
}

static gboolean dat6_read(DatCur *c, FtlDatLayout *l)
{
	if (!dat6_headers(c))
		return FALSE;
	c->part = "the CPU count";
	guint32 cpus = (guint32)cur_num(c, 4);
	if (c->failed)
		return FALSE;
	if (cpus > DAT_MAX_CPUS)
		return cur_fail(c, "%u CPUs", cpus);
	l->cpu_count = cpus;
	g_autoptr(GArray) inst_offsets = g_array_new(FALSE, FALSE, sizeof(guint64));
	g_autoptr(GPtrArray) inst_names = g_ptr_array_new_with_free_func(g_free);
	char tag[10];
	guint64 at = c->pos;
	if (!cur_read(c, tag, sizeof tag))
		return FALSE;
	if (memcmp(tag, "options  ", 10) == 0) {
		if (!dat6_options(c, l, inst_offsets, inst_names))
			return FALSE;
	} else {
		c->pos = at; /* no options: the CPU table follows */
	}
	FtlDatBuffer *top = dat_buffer_add(l, g_strdup(""), FALSE);
	if (!dat6_cpu_table(c, l, top, cpus))
		return FALSE;
	if (l->trace_clock && !*l->trace_clock) {
		/* the clock's text follows the table; a file without it is read
		 * without a clock, as libtracecmd reads it */
		g_clear_pointer(&l->trace_clock, g_free);
		g_autoptr(GError) local = NULL;
		DatCur k = *c;
		k.error = &local;
		guint64 size = cur_num(&k, 8);
		if (!k.failed && size > 0 && size <= DAT_MAX_STRING && size <= k.end - k.pos) {
			char *clock = g_malloc0(size + 1);
			if (cur_read(&k, clock, size))
				l->trace_clock = clock;
			else
				g_free(clock);
		}
	}
	for (guint i = 0; i < inst_offsets->len; i++) {
		FtlDatBuffer *b = dat_buffer_add(l, g_strdup(g_ptr_array_index(inst_names, i)), FALSE);
		c->pos = g_array_index(inst_offsets, guint64, i);
		if (c->pos > c->end)
			return cur_fail(c, "buffer '%s' starts past the end of the file", b->name);
		if (!dat6_cpu_table(c, l, b, cpus))
			return FALSE;
	}
	return TRUE;
}

/* ---- version 7 ----------------------------------------------------------- */

gboolean ftl_dat_uncompress(FtlDatCompress how, const guchar *in, gsize in_len, guchar *out,
			    gsize out_len)
{
	if (how == FTL_DAT_COMPRESS_ZSTD) {
		size_t r = ZSTD_decompress(out, out_len, in, in_len);
		return !ZSTD_isError(r) && r == out_len;
	}
	if (how == FTL_DAT_COMPRESS_ZLIB) {
		uLongf n = (uLongf)out_len;
		return uncompress(out, &n, in, (uLong)in_len) == Z_OK && n == out_len;
	}
	return FALSE;
}

/* A section's header at the cursor: id, flags, string id, size; the size
 * checked against the file, and for a compressed section its compression
 * header too (the uncompressed size a reader will allocate). *csize and
 * *usize get the compressed and uncompressed sizes (equal when stored). */
static gboolean dat7_section(DatCur *c, const FtlDatLayout *l, guint want_id, guint *flags,
			     guint64 *csize, guint64 *usize)
{
	guint id = (guint)cur_num(c, 2);
	*flags = (guint)cur_num(c, 2);
	cur_num(c, 4); /* the description's string id */
	guint64 size = cur_num(c, 8);
	if (c->failed)
		return FALSE;
	if (id != want_id) {
		c->pos -= 16;
		return cur_fail(c, "section %u expected, found %u", want_id, id);
	}
	if (size > c->end - c->pos) {
		c->pos -= 8;
		return cur_fail(c, "claims %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT
				   " are left in the file",
				size, c->end - c->pos - 8);
	}
	*csize = *usize = size;
	if (!(*flags & DAT_SEC_COMPRESSED) || id == DAT_OPT_BUFFER || id == DAT_OPT_BUFFER_TEXT)
		return TRUE;
	if (l->compress == FTL_DAT_COMPRESS_NONE)
		return cur_fail(c, "a compressed section in a file that names no compression");
	guint64 cz = cur_num(c, 4), uz = cur_num(c, 4);
	if (c->failed)
		return FALSE;
	if (cz + 8 > size)
		return cur_fail(c, "%" G_GUINT64_FORMAT " compressed bytes in a section of %" G_GUINT64_FORMAT,
				cz, size);
	/* zstd and zlib do not inflate text by more than this */
	if (uz > DAT_MAX_SECTION || uz > cz * 1032 + 4096)
		return cur_fail(c, "%" G_GUINT64_FORMAT " compressed bytes claim to expand to %" G_GUINT64_FORMAT,
				cz, uz);
	*csize = cz;
	*usize = uz;
	return TRUE;
}

/* The section an option points at (HEADER_INFO .. CMDLINES): checked,
 * not read. */
static gboolean dat7_check_section(const DatCur *c, FtlDatLayout *l, guint id, guint64 offset)
{
	DatCur s = *c;
	s.mem = NULL;
	s.pos = offset;
	s.end = l->file_size;
	s.part = id == DAT_OPT_HEADER_INFO ? "the header section"
		 : id == DAT_OPT_CMDLINES  ? "the cmdlines section"
					   : "a format, kallsyms or printk section";
	if (offset > l->file_size)
		return cur_fail(&s, "offset past the end of the file");
	guint flags;
	guint64 cz, uz;
	return dat7_section(&s, l, id, &flags, &cz, &uz);
}

static gboolean dat7_buffer(DatCur *c, FtlDatLayout *l, guint id)
{
	guint64 off = cur_num(c, 8);
	char *name = cur_string(c);
	if (!name)
		return FALSE;
	if (l->buffers->len >= DAT_MAX_BUFFERS) {
		g_free(name);
		return cur_fail(c, "more than %u buffers", DAT_MAX_BUFFERS);
	}
	FtlDatBuffer *b = dat_buffer_add(l, name, TRUE);
	b->clock = cur_string(c);
	if (!b->clock)
		return FALSE;
	if (id == DAT_OPT_BUFFER_TEXT) {
		b->latency = TRUE;
		return TRUE;
	}
	guint32 psize = (guint32)cur_num(c, 4);
	guint32 cpus = (guint32)cur_num(c, 4);
	if (c->failed)
		return FALSE;
	if (psize < 1024 || psize > (1u << 24) || (psize & (psize - 1)))
		return cur_fail(c, "buffer '%s': page size %u", name, psize);
	b->page_size = psize;
	if (cpus > DAT_MAX_CPUS || (guint64)cpus * 20 > c->end - c->pos)
		return cur_fail(c, "buffer '%s': %u CPUs", name, cpus);
	for (guint32 i = 0; i < cpus; i++) {
		guint32 cpu = (guint32)cur_num(c, 4);
		guint64 o = cur_num(c, 8), size = cur_num(c, 8);
		if (c->failed || !dat_cpu_add(c, l, b, cpu, o, size))
			return FALSE;
	}
	/* the section holding the data: its header before the first CPU's */
	if (off > l->file_size)
		return cur_fail(c, "buffer '%s' lies past the end of the file", name);
	return TRUE;
}

/* The options of one section in memory. *next gets the DONE option's
 * offset of the next options section (0: none). */
static gboolean dat7_options(DatCur *c, FtlDatLayout *l, guint64 *next)
{
	*next = 0;
	while (c->pos < c->end && !c->failed) {
		guint id = (guint)cur_num(c, 2);
		guint32 size = (guint32)cur_num(c, 4);
		if (c->failed)
			return FALSE;
		if (size > c->end - c->pos)
			return cur_fail(c, "option %u claims %u bytes", id, size);
		guint64 start = c->pos;
		DatCur o = *c;
		o.end = start + size;
		switch (id) {
		case DAT_OPT_DONE:
			*next = cur_num(&o, 8);
			return !o.failed;
		case DAT_OPT_BUFFER:
		case DAT_OPT_BUFFER_TEXT:
			if (!dat7_buffer(&o, l, id))
				return FALSE;
			break;
		case DAT_OPT_HEADER_INFO:
		case DAT_OPT_HEADER_INFO + 1:
		case DAT_OPT_HEADER_INFO + 2:
		case DAT_OPT_HEADER_INFO + 3:
		case DAT_OPT_HEADER_INFO + 4:
		case DAT_OPT_CMDLINES:
			if (!dat7_check_section(c, l, id, cur_num(&o, 8)))
				return FALSE;
			break;
		default: {
			const char *fault = dat_option_fault(id, c->mem + start, size);
			if (fault)
				return cur_fail(c, "option %u: %s", id, fault);
			dat_note_option(l, id, c->mem + start, size);
			break;
		}
		}
		c->pos = start + size;
	}
	return !c->failed;
}

static gboolean dat7_read(DatCur *c, FtlDatLayout *l)
{
	c->part = "the compression header";
	l->compress_name = cur_string(c);
	g_autofree char *cversion = cur_string(c);
	if (!l->compress_name || !cversion)
		return FALSE;
	if (strcmp(l->compress_name, "none") == 0)
		g_clear_pointer(&l->compress_name, g_free);
	else
		l->compress = strcmp(l->compress_name, "zstd") == 0   ? FTL_DAT_COMPRESS_ZSTD
			      : strcmp(l->compress_name, "zlib") == 0 ? FTL_DAT_COMPRESS_ZLIB
								      : FTL_DAT_COMPRESS_OTHER;
	c->part = "the first options offset";
	guint64 next = cur_num(c, 8);
	for (guint n = 0; next && !c->failed; n++) {
		if (n >= DAT_MAX_OPT_SECTIONS)
			return cur_fail(c, "more than %u options sections (a loop?)", n);
		c->part = "an options section";
		if (next > l->file_size)
			return cur_fail(c, "the next options section lies past the end of the file");
		c->pos = next;
		guint flags;
		guint64 cz, uz;
		if (!dat7_section(c, l, DAT_OPT_DONE, &flags, &cz, &uz))
			return FALSE;
		if (uz > DAT_MAX_SECTION)
			return cur_fail(c, "an options section of %" G_GUINT64_FORMAT " bytes", uz);
		g_autofree guchar *data = g_malloc(MAX(uz, 1));
		g_autofree guchar *packed = NULL;
		guint64 at = c->pos;
		if (flags & DAT_SEC_COMPRESSED) {
			packed = g_malloc(MAX(cz, 1));
			if (!cur_read(c, packed, cz))
				return FALSE;
			if (!ftl_dat_uncompress(l->compress, packed, cz, data, uz))
				return cur_fail(c, "the options section does not decompress");
		} else if (!cur_read(c, data, uz)) {
			return FALSE;
		}
		DatCur m = *c;
		m.mem = data;
		m.mem_at = at;
		m.pos = 0;
		m.end = uz;
		m.part = "an option";
		if (!dat7_options(&m, l, &next)) {
			c->failed = TRUE;
			return FALSE;
		}
	}
	return !c->failed;
}

/* ---- the file ------------------------------------------------------------ */

FtlDatLayout *ftl_dat_layout_read(const char *path, GError **error)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, g_strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) < 0) {
		g_set_error(error, FTL_ERROR, FTL_ERROR_IO, "'%s': %s", path, g_strerror(errno));
		close(fd);
		return NULL;
	}
	g_autoptr(FtlDatLayout) l = g_new0(FtlDatLayout, 1);
	l->file_size = (guint64)st.st_size;
	l->buffers = g_ptr_array_new_with_free_func(dat_buffer_free);
	l->cpustats = g_string_new(NULL);
	g_autofree DatWindow *win = g_new(DatWindow, 1);
	win->at = 0;
	win->len = 0;
	DatCur c = { .win = win, .fd = fd, .path = path, .end = l->file_size, .error = error };
	c.part = "the file header";
	gboolean ok = cur_skip(&c, 10);
	g_autofree char *version = ok ? cur_string(&c) : NULL;
	guchar hdr[6];
	ok = version && cur_read(&c, hdr, sizeof hdr);
	if (ok) {
		l->version = (guint)g_ascii_strtoull(version, NULL, 10);
		l->big_endian = hdr[0] != 0;
		l->long_size = hdr[1];
		c.big = l->big_endian;
		c.pos -= 4;
		l->page_size = (guint32)cur_num(&c, 4);
		if (l->page_size < 1024 || l->page_size > (1u << 24) ||
		    (l->page_size & (l->page_size - 1)))
			ok = cur_fail(&c, "page size %u", l->page_size);
	}
	/* libtracecmd 1.3 reads every version below 7 as a 6 (and refuses
	 * those above 7 before reading on): so are they checked here (a
	 * "tracing2" header went unchecked, found by fuzz-tracedat) */
	if (ok && l->version < 7)
		ok = dat6_read(&c, l);
	else if (ok && l->version == 7)
		ok = dat7_read(&c, l);
	close(fd);
	if (!ok)
		return NULL;
	return g_steal_pointer(&l);
}
