/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Binary ftrace records into FtlEvents: fields read directly through their
 * format (never through libtraceevent's text printing, except for the views'
 * payload and bprint's text), shared by trace.dat and raw page inputs.
 *
 * Each libtraceevent call here says in a comment which of three it is
 * (as parse/tracedat.c does for libtracecmd): GUARDED, tried first in a
 * trial child (parse/trial.c), a crash there is a note here; VALIDATED,
 * made only after ftlens checked what it touches; NO FILE DATA, it reads
 * nothing that came from the input. A new call must be one of them. */
#include "config.h"

#include "parse/tep.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include <event-parse.h>
#include <event-utils.h>
#include <trace-seq.h>

#include "parse/kallsyms.h"
#include "parse/tep-printk.h"
#include "parse/tep-check.h"
#include "parse/tep-memo.h"
#include "parse/tep-print.h"
#include "parse/trial.h"
#include "util/arena.h"
#include "util/checked.h"
#include "util/timefmt.h"

/* ---- library messages ------------------------------------------------ */

/* libtraceevent and libtracecmd print through tep_vprint(), a weak symbol
 * meant to be overridden: while a trace.dat is opened the messages are kept
 * for the error (the library's reason is what the user needs), otherwise they
 * go to GLib's debug log, never straight to stderr. */
static GString *tep_captured;

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap)
{
	int saved = errno;
	g_autofree char *msg = g_strdup_vprintf(fmt, ap);
	g_strchomp(msg);
	if (tep_captured && level <= TEP_LOG_WARNING) {
		if (tep_captured->len)
			g_string_append(tep_captured, "; ");
		g_string_append(tep_captured, msg);
		if (print_err && saved && saved != ENOENT && !strstr(msg, g_strerror(saved)))
			g_string_append_printf(tep_captured, " (%s)", g_strerror(saved));
	} else {
		g_debug("%s: %s", name ? name : "libtraceevent", msg);
	}
	return 0;
}

void ftl_tep_capture_messages(GString *capture)
{
	tep_captured = capture;
}

/* ---- formats and kallsyms parsed on demand ------------------------------ */

typedef struct {
	char *sys;
	char *text; /* NUL-terminated copy, in the lazy's mem */
	gsize len;
	gint next; /* the next format with the same id, -1 for none */
} TepLazyFormat;

typedef struct {
	FtlTepLazyOpen open; /* how the child opens the file */
	gpointer open_ctx;
} TepLazyTrial;

/* The questions of the trial children: opening the file the formats come
 * from (the open's child), parsing a format (the process's child). */
#define TEP_LAZY_OPEN (-2)
#define TEP_LAZY_TRY  (-3)

struct _FtlTepLazy {
	GPtrArray *formats;	/* TepLazyFormat*, in the file's order */
	FtlArena mem;		/* their texts: megabytes in a capture (2 on a
				 * 6.x kernel's), on huge pages rather than a
				 * fault per 4 KiB */
	GHashTable *by_id;	/* id -> the index + 1 of its first format not yet parsed */
	FtlKallsyms *kallsyms;	/* the file's, NULL when it has none */
	gboolean resolving;	/* tep finds functions in it */
	FtlTepMemo *memo;	/* the file's, kept between its opens: whether
				 * its open passed, kallsyms, bprint texts */
	TepLazyTrial trial;	/* the open's child's context */
	FtlPrintkMap *printk;	/* the printk strings the library was given, or NULL */
	GHashTable *rejected;	/* ids whose formats were all left out */
};

static void tep_lazy_format_free(gpointer p)
{
	TepLazyFormat *f = p;
	g_free(f->sys);
	g_free(f);
}

FtlTepLazy *ftl_tep_lazy_new(const char *path)
{
	FtlTepLazy *lazy = g_new0(FtlTepLazy, 1);
	lazy->memo = ftl_tep_memo_get(path);
	lazy->formats = g_ptr_array_new_with_free_func(tep_lazy_format_free);
	ftl_arena_init_large(&lazy->mem);
	lazy->by_id = g_hash_table_new(NULL, NULL);
	lazy->rejected = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	return lazy;
}

void ftl_tep_lazy_free(FtlTepLazy *lazy)
{
	if (!lazy)
		return;
	g_ptr_array_unref(lazy->formats);
	ftl_arena_clear(&lazy->mem);
	g_hash_table_unref(lazy->by_id);
	g_hash_table_unref(lazy->rejected);
	ftl_kallsyms_unref(lazy->kallsyms);
	ftl_printk_map_unref(lazy->printk);
	ftl_tep_memo_unref(lazy->memo);
	g_free(lazy);
}

void ftl_tep_lazy_add_format(FtlTepLazy *lazy, const char *sys, const char *buf, gsize size)
{
	TepLazyFormat *f = g_new0(TepLazyFormat, 1);
	f->sys = g_strdup(sys ? sys : "");
	f->text = ftl_arena_strndup(&lazy->mem, buf, size);
	f->len = size;
	f->next = -1;
	g_ptr_array_add(lazy->formats, f);
}

void ftl_tep_lazy_set_kallsyms(FtlTepLazy *lazy, const char *text)
{
	ftl_kallsyms_unref(lazy->kallsyms);
	lazy->kallsyms = ftl_kallsyms_share(text);
	/* parsed once for the file, not at each open after its last close */
	ftl_tep_memo_keep_kallsyms(lazy->memo, lazy->kallsyms);
}

void ftl_tep_lazy_add_printk(FtlTepLazy *lazy, const char *safe)
{
	if (!lazy->printk)
		lazy->printk = ftl_printk_map_new();
	ftl_printk_map_add_text(lazy->printk, safe);
}

/* "SYS/NAME" of a format's text (its "name:" line), for diagnostics. */
static char *tep_format_label(const char *sys, const char *text)
{
	const char *p = strncmp(text, "name:", 5) == 0 ? text : strstr(text, "\nname:");
	if (!p)
		return g_strdup_printf("%s/?", sys && *sys ? sys : "?");
	p += *p == '\n' ? 6 : 5;
	while (*p == ' ' || *p == '\t')
		p++;
	gsize n = strcspn(p, "\n");
	return g_strdup_printf("%s/%.*s", sys && *sys ? sys : "?", (int)MIN(n, 64), p);
}

/* In the process's format child, the question TEP_LAZY_TRY: the format
 * in the payload (tep_lazy_key()) parsed into a handle of its own, set up
 * as the file's (what parsing reads of a handle: the long size), and
 * freed as the file's is at its close. */
static int tep_lazy_try_payload(void)
{
	gsize len;
	const char *p = ftl_trial_payload(&len);
	const char *nul = len > 2 ? memchr(p + 2, 0, len - 2) : NULL;
	struct tep_handle *tep = nul ? tep_alloc() : NULL;
	if (!tep)
		return -1;
	tep_set_long_size(tep, (guchar)p[0]);
	tep_set_file_bigendian(tep, p[1] ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	/* tests: the format named SYSTEM/NAME here crashes the child as one
	 * libtraceevent crashes on would (t3002) */
	const char *crash = g_getenv("FTLENS_TRIAL_CRASH_FORMAT");
	if (crash) {
		g_autofree char *label = tep_format_label(p + 2, nul + 1);
		if (!strcmp(label, crash))
			abort();
	}
	/* GUARDED: this is the trial child; libtraceevent's own, not ftlens's
	 * (which takes ftl_tep_parse_lock(), a mutex another thread may have
	 * held when the child was forked) */
	enum tep_errno (*parse)(struct tep_handle *, const char *, unsigned long, const char *) =
		(enum tep_errno(*)(struct tep_handle *, const char *, unsigned long,
				   const char *))ftl_tep_next("tep_parse_event");
	parse(tep, nul + 1, len - (gsize)(nul + 1 - p), p + 2);
	tep_free(tep);
	return 0;
}

static int tep_lazy_trial_step(gpointer ctx, int arg)
{
	TepLazyTrial *t = ctx;
	if (arg == TEP_LAZY_OPEN && t && t->open)
		return t->open(t->open_ctx) ? 0 : -1;
	if (arg == TEP_LAZY_TRY)
		return tep_lazy_try_payload();
	return -1;
}

/* What a verdict on a format is asked and kept by: the settings of the
 * handle it goes into, its system, its text. */
static char *tep_lazy_key(struct tep_handle *tep, const char *sys, const char *text, gsize len,
			  gsize *key_len)
{
	gsize sys_len = strlen(sys);
	*key_len = 2 + sys_len + 1 + len;
	char *key = g_malloc(*key_len);
	key[0] = (char)(guchar)CLAMP(tep_get_long_size(tep), 0, 255);
	key[1] = (char)(tep_is_file_bigendian(tep) ? 1 : 0);
	memcpy(key + 2, sys, sys_len + 1);
	memcpy(key + 2 + sys_len + 1, text, len);
	return key;
}

void ftl_tep_trials_ready(void)
{
	if (!ftl_tep_memo_trials_unfit())
		return;
	/* the only line against the print fmt faults tep-check.c does not
	 * know: libtraceevent's parser has more than a check of shapes can
	 * list (fuzz-tracedat found four in an hour) */
	FtlTrialServer *t = ftl_trial_server_new_only_line(tep_lazy_trial_step, NULL);
	/* no new child: a worn one still serves, a dead one answers no more */
	if (t || !ftl_trial_server_alive(ftl_tep_memo_trials()))
		ftl_tep_memo_set_trials(t);
}

FtlTrialResult ftl_tep_format_try(struct tep_handle *tep, const char *sys, const char *text,
				  gsize len)
{
	gsize key_len;
	g_autofree char *key = tep_lazy_key(tep, sys ? sys : "", text, len, &key_len);
	/* a child that a format before this one crashed is replaced first:
	 * else every later format of the file would be left out with it */
	ftl_tep_trials_ready();
	return ftl_tep_memo_try(TEP_LAZY_TRY, key, key_len);
}

static void tep_lazy_parse(struct tep_handle *tep, TepLazyFormat *f)
{
	/* VALIDATED: a format libtraceevent 1.7 is known to crash on goes with
	 * an empty print fmt (ftl_tep_format_safe, tep-check.c), here and in the
	 * child: its fields are read, its payload text is not; one whose
	 * declarations it cannot read safely is not given to it at all; and
	 * GUARDED for the unknown: the same text tried in the process's format
	 * child first (ftl_tep_format_try, forked by ftl_tep_trials_ready() at
	 * ftl_tep_lazy_start()), a format it crashes on is never parsed here. A
	 * format left out shows its events as unknown. */
	gsize safe_len = 0;
	g_autofree char *safe = NULL;
	if (ftl_tep_format_safe(f->text, f->len, &safe, &safe_len) == FTL_TEP_FORMAT_REFUSED)
		return;
	const char *text = safe ? safe : f->text;
	gsize len = safe ? safe_len : f->len;
	if (ftl_tep_format_try(tep, f->sys, text, len) == FTL_TRIAL_CRASHED)
		return;
	tep_parse_event(tep, text, len, f->sys);
}

/* The formats of id, parsed into tep the first time a record asks. */
static void tep_lazy_event(FtlTepLazy *lazy, struct tep_handle *tep, int id)
{
	gpointer first;
	if (!lazy || !g_hash_table_steal_extended(lazy->by_id, GINT_TO_POINTER(id), NULL, &first))
		return;
	for (gint i = GPOINTER_TO_INT(first) - 1; i >= 0;) {
		TepLazyFormat *f = g_ptr_array_index(lazy->formats, i);
		/* libtraceevent 1.7's tep_parse_event() dereferences NULL on
		 * some damaged print fmts (see rawdir.c): tried in the child
		 * first; one it crashes on stays unparsed, its events unknown
		 * (reported as such by the reader) */
		tep_lazy_parse(tep, f);
		i = f->next;
	}
	/* NO FILE DATA: a lookup by id */
	if (!tep_find_event(tep, id)) {
		const TepLazyFormat *f = g_ptr_array_index(lazy->formats, GPOINTER_TO_INT(first) - 1);
		g_hash_table_insert(lazy->rejected, GINT_TO_POINTER(id),
				    tep_format_label(f->sys, f->text));
	}
}

/* kallsyms, made tep's the first time a name is asked for: one table for
 * every trace of the process opened on the same text (kallsyms.h). */
static void tep_lazy_functions(FtlTepLazy *lazy, struct tep_handle *tep)
{
	if (lazy && lazy->kallsyms && !lazy->resolving) {
		ftl_kallsyms_attach(lazy->kallsyms, tep);
		lazy->resolving = TRUE;
	}
}

gint ftl_tep_format_id(const char *text)
{
	const char *p = text;
	if (strncmp(p, "ID:", 3) != 0) {
		p = strstr(p, "\nID:");
		if (!p)
			return -1;
		p++;
	}
	char *end;
	gint64 id = g_ascii_strtoll(p + 3, &end, 10);
	return end != p + 3 && id >= 0 && id <= G_MAXINT ? (gint)id : -1;
}

FtlTrialResult ftl_tep_lazy_fork(FtlTepLazy *lazy, FtlTepLazyOpen open, gpointer ctx,
				 gboolean *tried)
{
	/* the same file passed in this process */
	*tried = FALSE;
	if (ftl_tep_memo_opened(lazy->memo))
		return FTL_TRIAL_OK;
	lazy->trial = (TepLazyTrial){ open, ctx };
	FtlTrialServer *trials = ftl_trial_server_new(tep_lazy_trial_step, &lazy->trial);
	*tried = trials != NULL;
	if (!trials)
		return FTL_TRIAL_OK; /* no child: the caller takes the risk */
	FtlTrialResult r = ftl_trial_server_ask(trials, TEP_LAZY_OPEN);
	if (r == FTL_TRIAL_OK) {
		ftl_tep_memo_set_opened(lazy->memo);
		/* the process's format child, when it needs one: a fork saved */
		if (ftl_tep_memo_trials_unfit()) {
			ftl_tep_memo_set_trials(trials);
			return r;
		}
	}
	ftl_trial_server_free(trials);
	return r;
}

void ftl_tep_lazy_start(FtlTepLazy *lazy, struct tep_handle *tep)
{
	/* the process's child tries the formats; one forked now when it has
	 * none fit to, before the file's reader threads start (each try
	 * readies it too, for a child a format crashed later) */
	if (lazy->formats->len)
		ftl_tep_trials_ready();
	/* chained by id, the file's order kept within an id */
	for (guint i = lazy->formats->len; i-- > 0;) {
		TepLazyFormat *f = g_ptr_array_index(lazy->formats, i);
		gint id = ftl_tep_format_id(f->text);
		if (id < 0) {
			/* no id to wait for: now, tried first all the same */
			tep_lazy_parse(tep, f);
			continue;
		}
		gpointer first;
		if (g_hash_table_lookup_extended(lazy->by_id, GINT_TO_POINTER(id), NULL, &first))
			f->next = GPOINTER_TO_INT(first) - 1;
		g_hash_table_insert(lazy->by_id, GINT_TO_POINTER(id), GINT_TO_POINTER((gint)i + 1));
	}
	/* one format at least, for where the common fields lie */
	if (lazy->formats->len) {
		const TepLazyFormat *f0 = g_ptr_array_index(lazy->formats, 0);
		tep_lazy_event(lazy, tep, ftl_tep_format_id(f0->text));
	}
}

/* ---- decoding ------------------------------------------------------------ */

typedef struct {
	FtlEventKind kind;
	const char *name; /* interned */
	const char *system; /* interned; NULL when the format names none */
	FtlMarkerOrigin origin;
	gboolean is_print; /* ftrace:print: the text is the buf field */
	gint fixed;	   /* bytes the format's fixed fields need in a record */
	gint lib_end;	   /* bytes the library's printing may read: every field whole */
	gboolean dynamic;  /* a __data_loc/__rel_loc field: its data may lie further */
	/* a field the library's printing cannot be trusted with: the payload is
	 * left empty */
	const struct tep_format_field *lib_bad;
	struct tep_event *event; /* NULL: no format for the id */
	struct tep_format_field *f[8];
	FtlTepPrint *print; /* its payload's own rendering, NULL: the library's */
	guint8 print_state; /* 0: no record printed, 1: one, 2: print compiled */
	gint id;
} TepEventInfo;

/* What a page reader's worker renders by itself (ftl_tep_payload_ahead):
 * an id's compiled print format once the decoder's thread has compiled it,
 * published with the kallsyms its functions are looked up in. */
typedef struct {
	const FtlTepPrint *print;
	gint fixed;
	FtlKallsyms *ks; /* NULL: print names no function */
} TepAhead;

/* Field slots per kind. */
enum { F_IP = 0, F_PARENT = 1 };
enum { F_FUNC = 0, F_DEPTH = 1, F_CALLTIME = 2, F_RETTIME = 3 };
enum {
	F_PREV_COMM = 0,
	F_PREV_PID,
	F_PREV_PRIO,
	F_PREV_STATE,
	F_NEXT_COMM,
	F_NEXT_PID,
	F_NEXT_PRIO
};
enum { F_W_COMM = 0, F_W_PID, F_W_PRIO, F_W_TARGET };
enum { F_IRQ = 0, F_IRQ_NAME = 1, F_IRQ_RET = 2 };
enum { F_BUF = 0, F_PRINT_IP = 1 };
enum { F_BP_FMT = 0, F_BP_BUF = 1, F_BP_IP = 2 };
enum { F_STACK_SIZE = 0, F_STACK_CALLER = 1 };

/* The places (F_BP_*: offsets) and sizes of the first bprint format libtraceevent
 * rendered through a tep; refs: the decoders of the tep. */
typedef struct {
	gint refs;
	gboolean seen;
	gint at[3];
	gint ip_size, fmt_size;
} TepBprintPlace;

#define TEP_COMM_CACHE 1024
#define TEP_ID_TABLE   65536 /* common_type is 16 bits in every kernel */
#define TEP_FIELD_CACHE 64

typedef struct {
	guint64 value;
	const char *str;
} TepStateSym;

/* A common field as a format places it: any offset, size 1, 2, 4 or 8. */
typedef struct {
	gint off;
	guint size; /* 0: the format has no such field */
} TepCommonAt;

struct _FtlTepDecoder {
	struct tep_handle *tep;
	FtlStrPool *pool;
	GHashTable *events;	  /* event id -> TepEventInfo */
	struct trace_seq text;	  /* rendered text of the current event (markers, payload) */
	GArray *states;		  /* TepStateSym: sched_switch prev_state letters */
	guint64 state_report_max; /* the "preempted" bit of prev_state, 0 if unknown */
	gboolean states_done;
	GString *state_text; /* prev_state of the current sched_switch */
	GArray *frames;	     /* FtlSlice: kernel_stack frames of the current event */
	char number[32];     /* ftl_tep_field's text of a number */
	gboolean no_callers; /* FTL_OPEN_NO_CALLERS: markers' callers left empty */
	FtlDiags *diags;     /* the trace's: durations out of range */
	const char *path;    /* the records' file, for those diagnostics */
	gint short_need;     /* ftl_tep_short() of the record decoded last */
	/* Per-record lookups cached (millions of records, hundreds of ids
	 * interleaved, a few pids): the infos of ids below TEP_ID_TABLE by
	 * id (libtraceevent's tep_find_event() bisects its whole list of
	 * formats when the id differs from the last), and a direct-mapped
	 * pid -> comm (the cmdlines are fixed once the input is open). */
	TepEventInfo **by_id; /* TEP_ID_TABLE slots, NULL until an id is met */
	/* ftl_tep_decoder_render_ahead(): TEP_ID_TABLE slots, each set once
	 * (atomically) by the decoder's thread and read by the workers */
	TepAhead **ahead;
	/* FTLENS_PAYLOAD_CHECK: every payload rendered both ways and compared
	 * (tests); the counts are printed when the decoder is freed */
	gboolean check;
	guint64 n_fast, n_library, n_different;
	FtlTepLazy *lazy;     /* formats and kallsyms not parsed yet, or NULL */
	/* bprint records: where the first bprint format handed to the library
	 * has its fields (which it keeps for every later one; shared by the
	 * decoders of one tep), and the copy of a record it renders
	 * (tep_dec_bprint) */
	TepBprintPlace *bprint_place;
	GByteArray *bprint_copy;
	GByteArray *lib_copy; /* tep_dec_lib_record()'s */
	FtlPrintkMap *printk; /* ftl_tep_decoder_set_printk's, or NULL */
	GHashTable *rejected; /* ids ftl_tep_decoder_reject() named, or NULL */
	/* The common fields (type, flags, pid) read in place, without a
	 * library call each: where they lie, from the first record's format
	 * (or the first format parsed, when a reader asked before). */
	gboolean common_done; /* looked for */
	FtlTepCommon common;
	/* Where libtraceevent's tep_data_type(), _pid() and _flags() would
	 * read them (its first event's common fields, taken once), for a
	 * format whose fields lie elsewhere: read here only inside the
	 * record, since the library reads at any offset a format gives. */
	gboolean lib_done;
	TepCommonAt lib_type, lib_pid, lib_flags;
	struct {
		gint pid; /* -1: empty */
		const char *comm;
	} comms[TEP_COMM_CACHE];
	/* ftl_tep_field()'s fields found last, direct-mapped by id and key:
	 * comm recovery asks two of every scheduler event, and the library's
	 * lookups were a thousand instructions each */
	struct {
		gint id;
		struct tep_format_field *field; /* NULL: empty */
	} fields[TEP_FIELD_CACHE];
};

static struct tep_format_field *tep_dec_field(struct tep_event *event, const char *name)
{
	/* VALIDATED: a lookup in a format the GUARDED parse made; every use checks the
	 * field's offset and size against the record */
	return event ? tep_find_field(event, name) : NULL;
}

/* A field larger or further than any record: a page holds the record, and no
 * ring-buffer sub-buffer is larger than 1 MiB. */
#define TEP_LIB_FIELD_MAX (1 << 20)

/* The layout of event's format (common fields included), in one pass:
 * - info->fixed, where its fixed fields end: libtraceevent's printing
 *   trusts a record to hold them, and computes a 12-byte print record's
 *   text length as -4 (a 4 GiB memcpy). An array counts from its start
 *   only: the kernel sizes kernel_stack's caller[8] by the frames it holds,
 *   and print's buf[] has no size;
 * - info->lib_end, what the library's printing reads of a record: every
 *   field whole, arrays at their declared size (the print format may name
 *   each element), a trailing "char buf[]" from its offset; info->dynamic
 *   when a field is a __data_loc/__rel_loc;
 * - info->lib_bad, the first field of negative offset or size, or past any
 *   page: the library trusts them and reads anywhere (a char[] of size -1
 *   is a 4 GiB memcpy), so the event's payload is never given to it. */
static void tep_dec_layout(TepEventInfo *info, struct tep_event *event)
{
	struct tep_format_field *lists[2] = { event->format.common_fields, event->format.fields };
	for (guint i = 0; i < G_N_ELEMENTS(lists); i++)
		for (struct tep_format_field *f = lists[i]; f; f = f->next) {
			gint size = f->flags & TEP_FIELD_IS_ARRAY ? 0 : f->size;
			if (f->offset >= 0 && size >= 0 && f->offset <= G_MAXINT - size)
				info->fixed = MAX(info->fixed, f->offset + size);
			if (f->offset < 0 || f->size < 0 || f->offset > TEP_LIB_FIELD_MAX ||
			    f->size > TEP_LIB_FIELD_MAX) {
				if (!info->lib_bad)
					info->lib_bad = f;
				continue;
			}
			info->lib_end = MAX(info->lib_end, f->offset + f->size);
			if (f->flags & TEP_FIELD_IS_DYNAMIC)
				info->dynamic = TRUE;
		}
}

/* A record of an event whose format the library's printing cannot be
 * given (tep_dec_layout): counted where it is decoded, so every command
 * counts the same. */
static void tep_dec_lib_refused(FtlTepDecoder *ts, const struct tep_record *r,
				const TepEventInfo *info)
{
	const struct tep_format_field *f = info->lib_bad;
	g_autofree char *what = g_strdup_printf(
		"%s at CPU %d, file offset %llu: its format's field %s has offset %d and "
		"size %d, outside any record; its payload is left empty",
		info->name, r->cpu, (unsigned long long)r->offset, f->name ? f->name : "?",
		f->offset, f->size);
	ftl_diags_add(ts->diags, FTL_DIAG_BAD_FORMAT, &(FtlDiagLoc){ ts->path, 0, r->cpu }, what,
		      -1, 0);
}

static TepEventInfo *tep_dec_event_info(FtlTepDecoder *ts, struct tep_event *event, int id)
{
	TepEventInfo *info = g_hash_table_lookup(ts->events, GINT_TO_POINTER(id));
	if (info)
		return info;
	info = g_new0(TepEventInfo, 1);
	info->id = id;
	g_hash_table_insert(ts->events, GINT_TO_POINTER(id), info);
	info->kind = FTL_EVENT_GENERIC;
	info->event = event;
	if (!event) {
		char buf[32];
		g_snprintf(buf, sizeof buf, "unknown_event_%d", id);
		info->name = ftl_strpool_intern(ts->pool, buf);
		return info;
	}
	const char *n = event->name ? event->name : "?";
	info->name = ftl_strpool_intern(ts->pool, n);
	if (event->system)
		info->system = ftl_strpool_intern(ts->pool, event->system);
	tep_dec_layout(info, event);
	gboolean ftrace = g_strcmp0(event->system, "ftrace") == 0;
#define F(i, s) (info->f[i] = tep_dec_field(event, s))
	if (ftrace && strcmp(n, "function") == 0) {
		info->kind = FTL_EVENT_FUNC;
		F(F_IP, "ip");
		F(F_PARENT, "parent_ip");
	} else if (ftrace &&
		   (strcmp(n, "funcgraph_entry") == 0 || strcmp(n, "funcgraph_exit") == 0)) {
		info->kind =
			n[10] == 'e' && n[11] == 'n' ? FTL_EVENT_FUNC_ENTRY : FTL_EVENT_FUNC_EXIT;
		F(F_FUNC, "func");
		F(F_DEPTH, "depth");
		F(F_CALLTIME, "calltime");
		F(F_RETTIME, "rettime");
	} else if (ftrace && strcmp(n, "print") == 0) {
		info->kind = FTL_EVENT_MARKER;
		info->origin = FTL_MARKER_TRACE_MARKER;
		info->is_print = TRUE;
		F(F_BUF, "buf");
		F(F_PRINT_IP, "ip");
	} else if (ftrace && (strcmp(n, "bprint") == 0 || strcmp(n, "bputs") == 0)) {
		info->kind = FTL_EVENT_MARKER;
		info->origin = FTL_MARKER_PRINTK;
		F(F_BP_FMT, "fmt");
		F(F_BP_BUF, "buf");
		F(F_BP_IP, "ip");
	} else if (ftrace && strcmp(n, "kernel_stack") == 0) {
		info->kind = FTL_EVENT_STACK;
		F(F_STACK_SIZE, "size");
		F(F_STACK_CALLER, "caller");
	} else if (strcmp(n, "sched_switch") == 0) {
		info->kind = FTL_EVENT_SCHED_SWITCH;
		F(F_PREV_COMM, "prev_comm");
		F(F_PREV_PID, "prev_pid");
		F(F_PREV_PRIO, "prev_prio");
		F(F_PREV_STATE, "prev_state");
		F(F_NEXT_COMM, "next_comm");
		F(F_NEXT_PID, "next_pid");
		F(F_NEXT_PRIO, "next_prio");
	} else if (strcmp(n, "sched_wakeup") == 0 || strcmp(n, "sched_wakeup_new") == 0) {
		info->kind = FTL_EVENT_SCHED_WAKEUP;
		F(F_W_COMM, "comm");
		F(F_W_PID, "pid");
		F(F_W_PRIO, "prio");
		F(F_W_TARGET, "target_cpu");
	} else if (strcmp(n, "irq_handler_entry") == 0 || strcmp(n, "irq_handler_exit") == 0) {
		info->kind =
			n[12] == 'e' && n[13] == 'n' ? FTL_EVENT_IRQ_ENTRY : FTL_EVENT_IRQ_EXIT;
		F(F_IRQ, "irq");
		F(F_IRQ_NAME, "name");
		F(F_IRQ_RET, "ret");
	}
#undef F
	return info;
}

/* A number field, bounds-checked against the record: damaged data must not
 * make us read past it. */
static gboolean tep_dec_num(struct tep_record *r, struct tep_format_field *f, gint64 *out)
{
	unsigned long long v;
	if (!f || f->size <= 0 || f->size > 8 || f->offset < 0 || f->offset + f->size > r->size ||
	    /* VALIDATED: size 1-8 and offset + size within the record, checked on the line
	     * above */
	    tep_read_number_field(f, r->data, &v) != 0)
		return FALSE;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && f->size < 8) {
		guint64 sign = 1ull << (f->size * 8 - 1);
		v = (v ^ sign) - sign;
	}
	*out = (gint64)v;
	return TRUE;
}

static gint32 tep_dec_i32(struct tep_record *r, struct tep_format_field *f, gint32 dflt)
{
	gint64 v;
	return tep_dec_num(r, f, &v) && v >= G_MININT32 && v <= G_MAXINT32 ? (gint32)v : dflt;
}

/* Where a __data_loc/__rel_loc field f of r says its data is, as the
 * library reads it: the low 16 bits of the field the offset (from the
 * record's start, or from the field's end when relative), the next 16 the
 * length. FALSE when f is not a field of 1-8 bytes inside the record. The
 * data itself is not checked. */
static gboolean tep_dec_loc(const struct tep_record *r, struct tep_format_field *f, gint64 *start,
			    gint64 *len)
{
	unsigned long long loc;
	if (f->offset < 0 || f->size < 1 || f->size > 8 || f->offset + f->size > r->size ||
	    /* VALIDATED: size 1-8 within the record, checked on the line above */
	    tep_read_number_field(f, r->data, &loc) != 0)
		return FALSE;
	*start = (gint64)(loc & 0xffff);
	*len = (gint64)((loc >> 16) & 0xffff);
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		*start += f->offset + f->size;
	return TRUE;
}

/* A string field: fixed char[N], a trailing char[] or a __data_loc/__rel_loc
 * string. Returns its bytes within the record and their length up to the NUL. */
static const char *tep_dec_str(struct tep_record *r, struct tep_format_field *f, gsize *len)
{
	if (!f || f->offset < 0 || f->offset > r->size)
		return NULL;
	gint64 start = f->offset, size = f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		/* the location is checked below */
		if (f->size != 4 || !tep_dec_loc(r, f, &start, &size))
			return NULL;
	} else if (size == 0) {
		size = r->size - start; /* "char buf[]" runs to the end of the record */
	}
	if (start < 0 || size < 0 || start + size > r->size)
		return NULL;
	const char *p = (const char *)r->data + start;
	*len = strnlen(p, (gsize)size);
	return p;
}

static const char *tep_dec_intern_str(FtlTepDecoder *ts, struct tep_record *r,
				      struct tep_format_field *f)
{
	gsize len;
	const char *p = tep_dec_str(r, f, &len);
	return p ? ftl_strpool_intern_len(ts->pool, p, len) : NULL;
}

static const char *tep_dec_func_name(FtlTepDecoder *ts, gint64 addr)
{
	tep_lazy_functions(ts->lazy, ts->tep);
	/* VALIDATED: a lookup in ftlens's own kallsyms table (kallsyms.c resolver) or the
	 * GUARDED open's; any address is a key */
	const char *fn = tep_find_function(ts->tep, (unsigned long long)addr);
	if (fn)
		return ftl_strpool_intern(ts->pool, fn);
	char buf[32];
	g_snprintf(buf, sizeof buf, "0x%llx", (unsigned long long)addr);
	return ftl_strpool_intern(ts->pool, buf);
}

/* The print fmt of sched_switch decodes prev_state with __print_flags(); its
 * table is in the file, so the letters follow the kernel that wrote it. */
static gboolean tep_dec_find_flags(struct tep_print_arg *arg, FtlTepDecoder *ts, int depth)
{
	for (; arg && depth < 16; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_FLAGS:
			for (struct tep_print_flag_sym *s = arg->flags.flags; s; s = s->next) {
				TepStateSym sym = { g_ascii_strtoull(s->value, NULL, 0), s->str };
				g_array_append_val(ts->states, sym);
			}
			return TRUE;
		case TEP_PRINT_OP:
			if (tep_dec_find_flags(arg->op.left, ts, depth + 1) ||
			    tep_dec_find_flags(arg->op.right, ts, depth + 1))
				return TRUE;
			break;
		case TEP_PRINT_TYPE:
			if (tep_dec_find_flags(arg->typecast.item, ts, depth + 1))
				return TRUE;
			break;
		default:
			break;
		}
	}
	return FALSE;
}

/* A constant expression of a print fmt ("512", "((0x0000 | 0x0001 | ...) +
 * 1) << 1"), as the kernel's macros left it. FALSE when it reads a field or
 * uses an operator a constant of this kind does not. */
static gboolean tep_dec_const(struct tep_print_arg *a, guint64 *out, int depth)
{
	guint64 l, r;
	if (!a || depth > 32)
		return FALSE;
	if (a->type == TEP_PRINT_ATOM) {
		char *end;
		*out = g_ascii_strtoull(a->atom.atom, &end, 0);
		return end != a->atom.atom && *end == 0;
	}
	if (a->type == TEP_PRINT_TYPE)
		return tep_dec_const(a->typecast.item, out, depth + 1);
	if (a->type != TEP_PRINT_OP || !tep_dec_const(a->op.right, &r, depth + 1))
		return FALSE;
	const char *op = a->op.op;
	if (!a->op.left && strcmp(op, "~") == 0) {
		*out = ~r;
		return TRUE;
	}
	if (!tep_dec_const(a->op.left, &l, depth + 1))
		return FALSE;
	if (strcmp(op, "|") == 0)
		*out = l | r;
	else if (strcmp(op, "&") == 0)
		*out = l & r;
	else if (strcmp(op, "+") == 0)
		*out = l + r;
	else if (strcmp(op, "-") == 0)
		*out = l - r;
	else if (strcmp(op, "<<") == 0 && r < 64)
		*out = l << r;
	else if (strcmp(op, ">>") == 0 && r < 64)
		*out = l >> r;
	else
		return FALSE;
	return TRUE;
}

/* A quoted string of a print fmt: libtraceevent keeps most as atoms. */
static gboolean tep_dec_is_string(struct tep_print_arg *a, const char *s)
{
	return a && ((a->type == TEP_PRINT_ATOM && g_strcmp0(a->atom.atom, s) == 0) ||
		     (a->type == TEP_PRINT_STRING && g_strcmp0(a->string.string, s) == 0));
}

/* The "preempted" bit: the print fmt ends prev_state with
 * "REC->prev_state & X ? \"+\" : \"\"", where X is TASK_STATE_MAX (512 on
 * 3.4, 1024 .. 4096 later) or TASK_REPORT_MAX spelt out as an expression
 * (4.14 and later). Read from the format, never guessed from the flag
 * table: a table may stop below the bit (3.4) or a bit short of it. Kernels
 * before 3.x print no "+": 0. */
static guint64 tep_dec_find_preempt(struct tep_print_arg *arg, int depth)
{
	guint64 x;
	for (; arg && depth < 16; arg = arg->next) {
		if (arg->type == TEP_PRINT_TYPE) {
			if ((x = tep_dec_find_preempt(arg->typecast.item, depth + 1)))
				return x;
			continue;
		}
		if (arg->type != TEP_PRINT_OP)
			continue;
		struct tep_print_arg *c = arg->op.left, *alt = arg->op.right;
		if (strcmp(arg->op.op, "?") == 0 && c && c->type == TEP_PRINT_OP &&
		    strcmp(c->op.op, "&") == 0 && c->op.left && c->op.left->type == TEP_PRINT_FIELD &&
		    g_strcmp0(c->op.left->field.name, "prev_state") == 0 && alt &&
		    alt->type == TEP_PRINT_OP && strcmp(alt->op.op, ":") == 0 &&
		    tep_dec_is_string(alt->op.left, "+") && tep_dec_const(c->op.right, &x, 0) &&
		    x && (x & (x - 1)) == 0)
			return x;
		if ((x = tep_dec_find_preempt(arg->op.left, depth + 1)) ||
		    (x = tep_dec_find_preempt(arg->op.right, depth + 1)))
			return x;
	}
	return 0;
}

static void tep_dec_load_states(FtlTepDecoder *ts, struct tep_event *event)
{
	ts->states_done = TRUE;
	if (!event)
		return;
	tep_dec_find_flags(event->print_fmt.args, ts, 0);
	ts->state_report_max = tep_dec_find_preempt(event->print_fmt.args, 0);
}

/* prev_state as the kernel prints it: "S", "D|K", "R", "R+". */
static FtlSlice tep_dec_state(FtlTepDecoder *ts, struct tep_event *event, gint64 v, GString *buf)
{
	if (!ts->states_done)
		tep_dec_load_states(ts, event);
	g_string_truncate(buf, 0);
	guint64 rest = ts->state_report_max ? (guint64)v & (ts->state_report_max - 1) : (guint64)v;
	for (guint i = 0; i < ts->states->len && rest; i++) {
		const TepStateSym *s = &g_array_index(ts->states, TepStateSym, i);
		if (s->value && (rest & s->value) == s->value) {
			if (buf->len)
				g_string_append_c(buf, '|');
			g_string_append(buf, s->str);
			rest &= ~s->value;
		}
	}
	if (rest)
		g_string_append_printf(buf, "%s0x%" G_GINT64_MODIFIER "x", buf->len ? "|" : "",
				       rest);
	if (!buf->len)
		g_string_append_c(buf, 'R');
	if (ts->state_report_max && ((guint64)v & ts->state_report_max))
		g_string_append_c(buf, '+');
	return (FtlSlice){ buf->str, (guint32)buf->len };
}

/* The latency letters ("dNh") of the five low bits of common_flags:
 * d irqs off (X: not supported), N need-resched, h hardirq, s softirq,
 * H both. */
static const char tep_lat[32][4] = {
	"...", "d..", "X..", "d..", ".N.", "dN.", "XN.", "dN.", "..h", "d.h", "X.h",
	"d.h", ".Nh", "dNh", "XNh", "dNh", "..s", "d.s", "X.s", "d.s", ".Ns", "dNs",
	"XNs", "dNs", "..H", "d.H", "X.H", "d.H", ".NH", "dNH", "XNH", "dNH",
};

static inline void tep_dec_lat(int fl, FtlEvent *ev)
{
	/* Cheap to read: common_flags printed like the kernel's latency
	 * columns ("dNh"), looked up rather than tested bit by bit. */
	if (fl < 0)
		return;
	memcpy(ev->lat, tep_lat[fl & 0x1f], 4);
}

/* Whether event's print format may name a kernel address (%ps, %pS, %pf,
 * %pF, %pB): only those need kallsyms. A "%%p" counts too (harmless). */
static gboolean tep_dec_needs_symbols(const struct tep_event *event)
{
	const char *f = event ? event->print_fmt.format : NULL;
	if (!f)
		return TRUE;
	for (const char *p = strstr(f, "%p"); p; p = strstr(p + 2, "%p"))
		if (p[2] && strchr("sSfFB", p[2]))
			return TRUE;
	return FALSE;
}

/* Zeros after a bprint record's copy: the library reads up to 11 bytes past
 * its last place in buf (a 4-byte alignment, then 8), and a %s up to a NUL. */
#define TEP_BPRINT_PAD 16

/* Whether f is a number field after the common fields, which
 * libtraceevent reads whole from r (by its size: 4 on a 32-bit kernel). */
static gboolean tep_dec_bprint_num(const struct tep_format_field *f, const struct tep_record *r)
{
	return f && !(f->flags & TEP_FIELD_IS_ARRAY) && f->size >= 1 && f->size <= 8 &&
	       f->offset >= 8 && f->offset <= r->size - f->size;
}

/* A bprint record (TEP_EVENT_FL_ISBPRINT) as libtraceevent 1.7 may be given
 * it, or NULL. Its rendering trusts the format and the record:
 * - a format without its fmt, buf or ip field has it carry a NULL format on
 *   (a read at address 5: fuzz-tracedat, regress/tracedat/
 *   libtraceevent-bprint-render-null-read.dat);
 * - it reads fmt and ip at their offsets whatever the record's size;
 * - it walks buf by the printk format, reading numbers at places up to the
 *   record's last byte and a %s up to a NUL wherever that is;
 * - it keeps the fields of the first bprint format it renders and reads
 *   every later bprint record by them.
 * So it is given a copy: the record's ip, fmt and buf (numbers of 1-8
 * bytes, then buf after them, all within the record) moved to the places
 * of the first bprint format it was given (through any decoder of the tep:
 * ftl_tep_decoder_share), buf at its own alignment (the library aligns
 * buf's numbers by address), followed by TEP_BPRINT_PAD zeros. A record's
 * text then depends on that record alone, whichever format came first,
 * unless its ip or fmt has another size than that format's: refused (only
 * a file with two bprint formats can have that). */
static struct tep_record *tep_dec_bprint(FtlTepDecoder *ts, const TepEventInfo *info,
					 const struct tep_record *r, struct tep_record *copy)
{
	struct tep_format_field *const *f = info->f;
	const struct tep_format_field *ip = f[F_BP_IP], *fmt = f[F_BP_FMT], *buf = f[F_BP_BUF];
	if (!tep_dec_bprint_num(ip, r) || !tep_dec_bprint_num(fmt, r) || !buf ||
	    (ip->offset < fmt->offset + fmt->size && fmt->offset < ip->offset + ip->size) ||
	    buf->offset < ip->offset + ip->size || buf->offset < fmt->offset + fmt->size ||
	    buf->offset > r->size)
		return NULL;
	TepBprintPlace *place = ts->bprint_place;
	if (!place->seen) {
		place->at[F_BP_IP] = ip->offset;
		place->at[F_BP_FMT] = fmt->offset;
		place->at[F_BP_BUF] = buf->offset;
		place->ip_size = ip->size;
		place->fmt_size = fmt->size;
		place->seen = TRUE;
	}
	if (ip->size != place->ip_size || fmt->size != place->fmt_size)
		return NULL;
	const gint *at = place->at;
	gsize tail = (gsize)(r->size - buf->offset);
	gsize size = (gsize)at[F_BP_BUF] + tail;
	if (size > G_MAXINT)
		return NULL;
	const guint8 *data = r->data;
	gsize align = ((guintptr)(data + buf->offset) - (gsize)at[F_BP_BUF]) & 7;
	if (!ts->bprint_copy)
		ts->bprint_copy = g_byte_array_new();
	g_byte_array_set_size(ts->bprint_copy, (guint)(8 + size + TEP_BPRINT_PAD));
	guint8 *c = ts->bprint_copy->data;
	c += (align - ((guintptr)c & 7)) & 7;
	memset(c, 0, size + TEP_BPRINT_PAD);
	/* the record as it is (the common fields the event is found by), then its
	 * fields at the first format's places: the same bytes when they agree */
	memcpy(c, data, MIN((gsize)r->size, size));
	memcpy(c + at[F_BP_IP], data + ip->offset, (gsize)ip->size);
	memcpy(c + at[F_BP_FMT], data + fmt->offset, (gsize)fmt->size);
	memcpy(c + at[F_BP_BUF], data + buf->offset, tail);
	*copy = *r;
	copy->data = c;
	copy->size = (int)size;
	return copy;
}

/* How far the library's printing of r may read: its format's fields whole
 * (tep_dec_layout) and the data each __data_loc/__rel_loc field of r
 * points to, wherever the record says (16-bit offset and length). */
static gint tep_dec_lib_reach(const TepEventInfo *info, const struct tep_record *r)
{
	gint end = info->lib_end;
	if (!info->dynamic)
		return end;
	for (struct tep_format_field *f = info->event->format.fields; f; f = f->next) {
		gint64 start, len;
		if ((f->flags & TEP_FIELD_IS_DYNAMIC) && tep_dec_loc(r, f, &start, &len))
			end = MAX(end, (gint)(start + len));
	}
	return end;
}

/* r as the library's printing may be given it: r itself when it holds all
 * the library may read (tep_dec_lib_reach), else a copy of it followed by
 * zeros up to there. The library trusts a record to hold its format's
 * arrays (kernel_stack's caller[8] holds as many frames as were taken) and
 * the data its locations point to. */
static struct tep_record *tep_dec_lib_record(FtlTepDecoder *ts, const TepEventInfo *info,
					     struct tep_record *r, struct tep_record *copy)
{
	gint reach = tep_dec_lib_reach(info, r);
	if (reach <= r->size)
		return r;
	if (!ts->lib_copy)
		ts->lib_copy = g_byte_array_new();
	g_byte_array_set_size(ts->lib_copy, (guint)reach + TEP_BPRINT_PAD);
	memset(ts->lib_copy->data, 0, ts->lib_copy->len);
	memcpy(ts->lib_copy->data, r->data, (gsize)r->size);
	*copy = *r;
	copy->data = ts->lib_copy->data;
	copy->size = reach;
	return copy;
}

/* Renders the INFO part of r, of info's event (what trace-cmd report prints
 * after the name), into ts->text. Returns the text, NUL-terminated; "" for a
 * bprint record the library may not be given (refused, when not NULL, set). */
static const char *tep_dec_render(FtlTepDecoder *ts, const TepEventInfo *info,
				  struct tep_record *r, gboolean *refused)
{
	struct tep_record copy;
	if (info->lib_bad)
		return ""; /* counted where it was decoded (tep_dec_lib_refused) */
	if (info->event && (info->event->flags & TEP_EVENT_FL_ISBPRINT)) {
		if (!(r = tep_dec_bprint(ts, info, r, &copy))) {
			if (refused)
				*refused = TRUE;
			return "";
		}
	} else {
		r = tep_dec_lib_record(ts, info, r, &copy);
	}
	/* %pS, function events: kallsyms (MBs, a third of a second to parse)
	 * only once an event that names addresses is rendered */
	if (ts->lazy && ts->lazy->kallsyms && !ts->lazy->resolving &&
	    tep_dec_needs_symbols(info->event))
		tep_lazy_functions(ts->lazy, ts->tep);
	trace_seq_reset(&ts->text);
	/* VALIDATED: every caller has checked that r covers its event's fixed fields
	 * (tep_dec_whole, ftl_tep_decode_read's short_need), the short-print crash; a
	 * bprint record, its fields and buf's reads (tep_dec_bprint); any other, a
	 * format of sane offsets and sizes (lib_bad) and a record holding all the
	 * library may read of it, arrays and locations included (tep_dec_lib_record) */
	tep_print_event(ts->tep, &ts->text, r, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&ts->text);
	return ts->text.buffer ? ts->text.buffer : "";
}

static void tep_dec_marker_text(FtlEvent *ev, const char *p, gsize len, gboolean strip_site)
{
	if (strip_site) {
		/* "0xc044504c: text" / "func: text": the printing site is not the text */
		const char *c = p, *e = p + len;
		while (c < e && *c != ' ' && *c != ':')
			c++;
		if (c + 1 < e && c[0] == ':' && c[1] == ' ' && c > p) {
			ev->u.marker.caller = (FtlSlice){ p, (guint32)(c - p) };
			len -= (gsize)(c + 2 - p);
			p = c + 2;
		}
	}
	while (len && (p[len - 1] == '\n' || p[len - 1] == ' '))
		len--;
	ev->u.marker.text = (FtlSlice){ p, (guint32)len };
}

/* kernel_stack: "size" callers (older kernels end the array with ULONG_MAX
 * instead), as many as the record really holds. */
static void tep_dec_stack(FtlTepDecoder *ts, struct tep_record *r, const TepEventInfo *info,
			  FtlEvent *ev)
{
	g_array_set_size(ts->frames, 0);
	struct tep_format_field *f = info->f[F_STACK_CALLER];
	int lsize = tep_get_long_size(ts->tep);
	gint64 n;
	if (!f || f->offset < 0 || f->offset > r->size || (lsize != 4 && lsize != 8))
		return;
	guint64 room = (guint64)(r->size - f->offset) / (guint64)lsize;
	if (!tep_dec_num(r, info->f[F_STACK_SIZE], &n) || n < 0 || (guint64)n > room)
		n = (gint64)room;
	guint64 end = lsize == 8 ? G_MAXUINT64 : G_MAXUINT32;
	for (gint64 i = 0; i < n; i++) {
		/* VALIDATED: i < n <= room, the longs that fit between the field's offset
		 * and the record's end */
		guint64 a = tep_read_number(ts->tep, (const char *)r->data + f->offset + i * lsize,
					    lsize);
		if (a == 0 || a == end)
			break;
		const char *name = tep_dec_func_name(ts, (gint64)a);
		FtlSlice s = { name, (guint32)strlen(name) };
		g_array_append_val(ts->frames, s);
	}
	ev->u.stack.frames = (const FtlSlice *)(void *)ts->frames->data;
	ev->u.stack.n_frames = ts->frames->len;
}

static void tep_dec_func(FtlTepDecoder *ts, struct tep_record *r, const TepEventInfo *info,
			 FtlEvent *ev)
{
	gint64 v;
	ev->u.fn.last_ts = FTL_TS_NONE;
	if (tep_dec_num(r, info->f[F_IP], &v))
		ev->u.fn.func = tep_dec_func_name(ts, v);
	if (tep_dec_num(r, info->f[F_PARENT], &v))
		ev->u.fn.parent = tep_dec_func_name(ts, v);
}

/* funcgraph_entry and funcgraph_exit; an exit's duration from its times. */
static void tep_dec_graph(FtlTepDecoder *ts, struct tep_record *r, const TepEventInfo *info,
			  FtlEvent *ev)
{
	gint64 v, ct, rt;
	ev->u.graph.duration = FTL_TS_NONE;
	ev->u.graph.mark = ' ';
	if (tep_dec_num(r, info->f[F_FUNC], &v))
		ev->u.graph.func = tep_dec_func_name(ts, v);
	ev->u.graph.depth = tep_dec_i32(r, info->f[F_DEPTH], 0);
	if (info->kind != FTL_EVENT_FUNC_EXIT || !tep_dec_num(r, info->f[F_CALLTIME], &ct) ||
	    !tep_dec_num(r, info->f[F_RETTIME], &rt) || rt < ct)
		return;
	/* The call cannot have begun before the clock's zero: a longer one
	 * is damage (summed, it would wrap every total above it). */
	gint64 d;
	if (ftl_checked_sub_i64(rt, ct, &d) && r->ts <= (guint64)G_MAXINT64 &&
	    d <= (gint64)r->ts) {
		ev->u.graph.duration = d;
		return;
	}
	g_autofree char *what = g_strdup_printf("funcgraph_exit at CPU %d: rettime %" G_GINT64_FORMAT
						" - calltime %" G_GINT64_FORMAT
						" is longer than the time since the clock's zero",
						r->cpu, rt, ct);
	ftl_diags_add(ts->diags, FTL_DIAG_BAD_DURATION, &(FtlDiagLoc){ ts->path, ev->line, r->cpu },
		      what, -1, 0);
}

/* A bprint record tep_dec_bprint() refused: its text is left empty. */
static void tep_dec_bprint_refused(FtlTepDecoder *ts, const struct tep_record *r,
				   const FtlEvent *ev)
{
	g_autofree char *what = g_strdup_printf(
		"bprint at CPU %d, file offset %llu: its format's ip, fmt or buf field is missing, "
		"overlapping, outside the record or of another size than the first bprint "
		"format's; its text is left empty",
		r->cpu, (unsigned long long)r->offset);
	ftl_diags_add(ts->diags, FTL_DIAG_BAD_FORMAT, &(FtlDiagLoc){ ts->path, ev->line, r->cpu },
		      what, -1, 0);
}

static void tep_dec_marker(FtlTepDecoder *ts, struct tep_record *r, const TepEventInfo *info,
			   FtlEvent *ev)
{
	ev->u.marker.origin = info->origin;
	gsize len;
	const char *p;
	if (info->is_print && (p = tep_dec_str(r, info->f[F_BUF], &len))) {
		tep_dec_marker_text(ev, p, len, FALSE);
		gint64 ip;
		if (!ts->no_callers && tep_dec_num(r, info->f[F_PRINT_IP], &ip)) {
			const char *fn = tep_dec_func_name(ts, ip);
			ev->u.marker.caller = (FtlSlice){ fn, (guint32)strlen(fn) };
		}
	} else {
		/* bprint's text exists only once its format is applied:
		 * rendered once per file and process (tep-memo.h) */
		p = ts->lazy ? ftl_tep_memo_text(ts->lazy->memo, r->data, (gsize)r->size) : NULL;
		if (!p) {
			gboolean refused = FALSE;
			p = tep_dec_render(ts, info, r, &refused);
			/* a refused one is not kept: each open counts it again */
			const char *kept = ts->lazy && !refused
						   ? ftl_tep_memo_add_text(ts->lazy->memo, r->data,
									   (gsize)r->size, p)
						   : NULL;
			if (refused)
				tep_dec_bprint_refused(ts, r, ev);
			p = kept ? kept : p;
		}
		tep_dec_marker_text(ev, p, strlen(p), TRUE);
	}
}

static void tep_dec_switch(FtlTepDecoder *ts, struct tep_record *r, struct tep_event *event,
			   const TepEventInfo *info, FtlEvent *ev)
{
	gint64 v;
	ev->u.sw.prev_comm = tep_dec_intern_str(ts, r, info->f[F_PREV_COMM]);
	ev->u.sw.prev_pid = tep_dec_i32(r, info->f[F_PREV_PID], -1);
	ev->u.sw.prev_prio = tep_dec_i32(r, info->f[F_PREV_PRIO], -1);
	if (tep_dec_num(r, info->f[F_PREV_STATE], &v))
		ev->u.sw.prev_state = tep_dec_state(ts, event, v, ts->state_text);
	ev->u.sw.next_comm = tep_dec_intern_str(ts, r, info->f[F_NEXT_COMM]);
	ev->u.sw.next_pid = tep_dec_i32(r, info->f[F_NEXT_PID], -1);
	ev->u.sw.next_prio = tep_dec_i32(r, info->f[F_NEXT_PRIO], -1);
}

static void tep_dec_wakeup(FtlTepDecoder *ts, struct tep_record *r, const TepEventInfo *info,
			   FtlEvent *ev)
{
	ev->u.wake.comm = tep_dec_intern_str(ts, r, info->f[F_W_COMM]);
	ev->u.wake.pid = tep_dec_i32(r, info->f[F_W_PID], -1);
	ev->u.wake.prio = tep_dec_i32(r, info->f[F_W_PRIO], -1);
	ev->u.wake.target_cpu = tep_dec_i32(r, info->f[F_W_TARGET], -1);
}

static void tep_dec_irq(struct tep_record *r, const TepEventInfo *info, FtlEvent *ev)
{
	ev->u.irq.irq = tep_dec_i32(r, info->f[F_IRQ], -1);
	gsize len;
	const char *p = tep_dec_str(r, info->f[F_IRQ_NAME], &len);
	if (p)
		ev->u.irq.name = (FtlSlice){ p, (guint32)len };
	ev->u.irq.ret = tep_dec_i32(r, info->f[F_IRQ_RET], 0);
}

/* tep_dec_comm() for a pid not in its cache. */
G_GNUC_NO_INLINE static const char *tep_dec_comm_slow(FtlTepDecoder *ts, gint pid)
{
	guint slot = (guint)pid % TEP_COMM_CACHE;
	/* VALIDATED: a lookup in the cmdlines the GUARDED open (or rawdir's saved_cmdlines)
	 * parsed; any pid is a key */
	const char *comm = tep_data_comm_from_pid(ts->tep, pid);
	comm = comm && strcmp(comm, "<...>") != 0 ? ftl_strpool_intern(ts->pool, comm) : NULL;
	ts->comms[slot].pid = pid;
	ts->comms[slot].comm = comm;
	return comm;
}

/* The interned name of pid from the file's cmdlines, NULL when unknown. */
static inline const char *tep_dec_comm(FtlTepDecoder *ts, gint pid)
{
	guint slot = (guint)pid % TEP_COMM_CACHE;
	if (G_LIKELY(ts->comms[slot].pid == pid))
		return ts->comms[slot].comm;
	return tep_dec_comm_slow(ts, pid);
}

/* tep_dec_info_of() for an id met the first time or beyond the table. */
G_GNUC_NO_INLINE static TepEventInfo *tep_dec_info_new(FtlTepDecoder *ts, int id)
{
	if (id < 0 || id >= TEP_ID_TABLE) {
		tep_lazy_event(ts->lazy, ts->tep, id);
		return tep_dec_event_info(ts, tep_find_event(ts->tep, id), id);
	}
	if (!ts->by_id)
		ts->by_id = g_new0(TepEventInfo *, TEP_ID_TABLE);
	TepEventInfo *info = ts->by_id[id];
	if (!info) {
		tep_lazy_event(ts->lazy, ts->tep, id);
		info = ts->by_id[id] = tep_dec_event_info(ts, tep_find_event(ts->tep, id), id);
	}
	return info;
}

static inline TepEventInfo *tep_dec_info_of(FtlTepDecoder *ts, int id)
{
	TepEventInfo *info =
		G_LIKELY(ts->by_id && id >= 0 && id < TEP_ID_TABLE) ? ts->by_id[id] : NULL;
	return G_LIKELY(info != NULL) ? info : tep_dec_info_new(ts, id);
}

static void tep_dec_common_at(struct tep_event *event, const char *name, TepCommonAt *at)
{
	/* VALIDATED: a lookup; the offset and size are checked against each record */
	struct tep_format_field *f = event ? tep_find_common_field(event, name) : NULL;
	at->off = f ? f->offset : -1;
	gboolean sized = f && (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8);
	at->size = sized && f->offset >= 0 ? (guint)f->size : 0;
}

static gboolean tep_dec_common_field(struct tep_event *event, const char *name, guint8 *off,
				     guint8 *size)
{
	TepCommonAt at;
	tep_dec_common_at(event, name, &at);
	if (!at.size || at.size == 8 || at.off + (gint)at.size > 8)
		return FALSE;
	*off = (guint8)at.off;
	*size = (guint8)at.size;
	return TRUE;
}

/* Where the common fields lie, from event's format; the library's readers
 * stay in use when a format has them elsewhere or of other sizes. */
static void tep_dec_common_from(FtlTepDecoder *ts, struct tep_event *event)
{
	FtlTepCommon *c = &ts->common;
	guint8 flags_size = 0, pid_size = 0;
	ts->common_done = TRUE;
	/* NO FILE DATA: getters of the handle's byte order */
	c->swap = tep_is_file_bigendian(ts->tep) != tep_is_local_bigendian(ts->tep);
	c->ok = tep_dec_common_field(event, "common_type", &c->type_off, &c->type_size) &&
		tep_dec_common_field(event, "common_pid", &c->pid_off, &pid_size) &&
		tep_dec_common_field(event, "common_flags", &c->flags_off, &flags_size) &&
		flags_size == 1 && pid_size == 4;
}


/* A common field of r where the library would read it, or absent when
 * the format has none or puts it past the record's end. */
static gint tep_dec_common_lib(const FtlTepDecoder *ts, const TepCommonAt *at,
			       const struct tep_record *r, gint absent)
{
	if (!at->size || r->size < 0 || (gint64)at->off + at->size > (gint64)r->size)
		return absent;
	return (gint)ftl_tep_read_uint((const guchar *)r->data + at->off, at->size,
				       ts->common.swap);
}

/* common_type, common_pid and common_flags of r as tep_data_type(),
 * tep_data_pid() and tep_data_flags() read them (the layout of the first
 * event the handle has), but never outside r: -1, -1 and 0 there. */
static void tep_dec_common_any(FtlTepDecoder *ts, const struct tep_record *r, int *id, int *pid,
			       int *flags)
{
	if (!ts->lib_done) {
		/* VALIDATED: a getter of what the GUARDED parse made */
		struct tep_event *first = tep_get_first_event(ts->tep);
		tep_dec_common_at(first, "common_type", &ts->lib_type);
		tep_dec_common_at(first, "common_pid", &ts->lib_pid);
		tep_dec_common_at(first, "common_flags", &ts->lib_flags);
		/* NO FILE DATA: getters of the handle's byte order */
		ts->common.swap = tep_is_file_bigendian(ts->tep) != tep_is_local_bigendian(ts->tep);
		ts->lib_done = first != NULL; /* none parsed yet: asked again */
	}
	*id = tep_dec_common_lib(ts, &ts->lib_type, r, -1);
	*pid = tep_dec_common_lib(ts, &ts->lib_pid, r, -1);
	*flags = tep_dec_common_lib(ts, &ts->lib_flags, r, 0);
}

/* The layout from the format of r (which has 8 bytes at least). */
static void tep_dec_common_init(FtlTepDecoder *ts, struct tep_record *r)
{
	int id, pid, flags;
	tep_dec_common_any(ts, r, &id, &pid, &flags);
	tep_lazy_event(ts->lazy, ts->tep, id);
	struct tep_event *event = tep_find_event(ts->tep, id);
	if (event)
		tep_dec_common_from(ts, event);
	/* else tried again with the next record */
}

void ftl_tep_common_layout(FtlTepDecoder *ts, FtlTepCommon *out)
{
	if (!ts->common_done) {
		/* VALIDATED: a getter of what the GUARDED parse made */
		struct tep_event *event = tep_get_first_event(ts->tep);
		if (event)
			tep_dec_common_from(ts, event);
	}
	*out = ts->common;
}

/* common_type, common_pid and common_flags of r (8 bytes at least), as
 * tep_data_type(), tep_data_pid() and tep_data_flags() read them, within
 * r. */
static void tep_dec_common(FtlTepDecoder *ts, struct tep_record *r, int *id, int *pid, int *flags)
{
	if (!ts->common_done)
		tep_dec_common_init(ts, r);
	if (!ts->common.ok) {
		tep_dec_common_any(ts, r, id, pid, flags);
		return;
	}
	ftl_tep_common_read(&ts->common, r->data, id, pid, flags);
}

/* Starts ev over for r: every field but the union written, and the union
 * zeroed only when the event decoded last in ev had one. */
static inline void tep_dec_reset(FtlEvent *ev, const struct tep_record *r)
{
	if (ev->kind != FTL_EVENT_GENERIC)
		memset(&ev->u, 0, sizeof ev->u);
	ev->ts = (gint64)r->ts;
	ev->seq = 0;
	ev->line = 0;
	ev->src = NULL;
	ev->cpu = r->cpu;
	ev->pid = -1;
	ev->tgid = -1;
	ev->flags = 0;
	ev->kind = FTL_EVENT_GENERIC;
	memset(ev->lat, 0, sizeof ev->lat);
	ev->name = ev->system = ev->comm = NULL;
	ev->payload = (FtlSlice){ NULL, 0 };
	ev->raw = (FtlSlice){ NULL, 0 };
}

/* The fields of r's event by its kind into ev, whose common part is set;
 * out of line, so that the generic events' path saves no registers for it. */
G_GNUC_NO_INLINE static void tep_dec_kind(FtlTepDecoder *ts, struct tep_record *r,
					  const TepEventInfo *info, FtlEvent *ev)
{
	switch (info->kind) {
	case FTL_EVENT_FUNC:
		tep_dec_func(ts, r, info, ev);
		break;
	case FTL_EVENT_FUNC_ENTRY:
	case FTL_EVENT_FUNC_EXIT:
		tep_dec_graph(ts, r, info, ev);
		break;
	case FTL_EVENT_MARKER:
		tep_dec_marker(ts, r, info, ev);
		break;
	case FTL_EVENT_SCHED_SWITCH:
		tep_dec_switch(ts, r, info->event, info, ev);
		break;
	case FTL_EVENT_SCHED_WAKEUP:
		tep_dec_wakeup(ts, r, info, ev);
		break;
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		tep_dec_irq(r, info, ev);
		break;
	case FTL_EVENT_STACK:
		tep_dec_stack(ts, r, info, ev);
		break;
	default:
		break;
	}
}

gboolean ftl_tep_decode_read(FtlTepDecoder *ts, struct tep_record *r, gint id, gint pid, gint flags,
			     FtlEvent *ev)
{
	tep_dec_reset(ev, r);
	ts->short_need = 0;
	ev->pid = pid;
	if (pid >= 0)
		ev->comm = tep_dec_comm(ts, pid);
	tep_dec_lat(flags, ev);
	TepEventInfo *info = tep_dec_info_of(ts, id);
	ev->name = info->name;
	ev->system = info->system;
	if (G_UNLIKELY(info->lib_bad))
		tep_dec_lib_refused(ts, r, info);
	if (r->size < info->fixed) {
		/* a short record: its fields are not decoded */
		ts->short_need = info->fixed;
		return info->event != NULL;
	}
	ev->kind = info->kind;
	if (info->kind != FTL_EVENT_GENERIC)
		tep_dec_kind(ts, r, info, ev);
	return info->event != NULL;
}

gboolean ftl_tep_decode(FtlTepDecoder *ts, struct tep_record *r, FtlEvent *ev, gint *idp)
{
	*idp = -1;
	if (r->size < 8) {
		/* not even the common fields */
		tep_dec_reset(ev, r);
		ts->short_need = 0;
		ev->name = ftl_strpool_intern(ts->pool, "unknown_event");
		return FALSE;
	}
	int id, pid, flags;
	tep_dec_common(ts, r, &id, &pid, &flags);
	*idp = id;
	return ftl_tep_decode_read(ts, r, id, pid, flags, ev);
}

gboolean ftl_tep_field(FtlTepDecoder *ts, struct tep_record *r, const char *key, FtlSlice *value)
{
	if (r->size < 8)
		return FALSE;
	int id, pid, flags;
	tep_dec_common(ts, r, &id, &pid, &flags);
	guint slot = ((guint)id * 31u + (guint)((guintptr)key >> 3)) % TEP_FIELD_CACHE;
	struct tep_format_field *f = ts->fields[slot].field;
	/* the key's text decides: a caller may reuse its buffer */
	if (!f || ts->fields[slot].id != id || strcmp(f->name, key) != 0) {
		/* VALIDATED: r->size >= 8 checked above; tep_find_event/_any_field are
		 * lookups, the field checked by tep_dec_str/tep_dec_num */
		tep_lazy_event(ts->lazy, ts->tep, id);
		struct tep_event *event = tep_find_event(ts->tep, id);
		f = event ? tep_find_any_field(event, key) : NULL;
		if (!f)
			return FALSE;
		ts->fields[slot].id = id;
		ts->fields[slot].field = f;
	}
	gboolean text = (f->flags & (TEP_FIELD_IS_STRING | TEP_FIELD_IS_DYNAMIC)) ||
			((f->flags & TEP_FIELD_IS_ARRAY) && f->type && strstr(f->type, "char"));
	if (text) {
		gsize len;
		const char *p = tep_dec_str(r, f, &len);
		if (!p)
			return FALSE;
		*value = (FtlSlice){ p, (guint32)len };
		return TRUE;
	}
	gint64 v;
	if ((f->flags & TEP_FIELD_IS_ARRAY) || !tep_dec_num(r, f, &v))
		return FALSE;
	/* printf's text, without printf's cost (comm recovery reads pids) */
	gint n = (f->flags & TEP_FIELD_IS_SIGNED) || v >= 0
			 ? (gint)strlen(ftl_int_format(v, ts->number, sizeof ts->number))
			 : g_snprintf(ts->number, sizeof ts->number, "%" G_GUINT64_FORMAT,
				      (guint64)v);
	*value = (FtlSlice){ ts->number, (guint32)n };
	return TRUE;
}

/* Whether a record of size bytes holds the common fields and the fixed
 * fields (fixed bytes) of its event: what a payload needs, on the
 * reader's thread and on the workers alike. */
static inline gboolean tep_dec_fits(gint size, gint fixed)
{
	return size >= 8 && size >= fixed;
}

/* The info of r's event when r holds its fixed fields, else NULL. */
static TepEventInfo *tep_dec_whole(FtlTepDecoder *ts, struct tep_record *r)
{
	if (!tep_dec_fits(r->size, 0))
		return NULL;
	int id, pid, flags;
	tep_dec_common(ts, r, &id, &pid, &flags);
	TepEventInfo *info = tep_dec_info_of(ts, id);
	return tep_dec_fits(r->size, info->fixed) ? info : NULL;
}

gint ftl_tep_short(const FtlTepDecoder *ts)
{
	return ts->short_need;
}

/* len less the newlines and spaces p ends with. */
static gsize tep_dec_trim(const char *p, gsize len)
{
	while (len && (p[len - 1] == '\n' || p[len - 1] == ' '))
		len--;
	return len;
}

/* The payload of a record (size bytes at data) by a compiled print format,
 * trimmed as the library's text is; FALSE, out unchanged, when the library
 * must render it. The reader's thread and the page readers' workers
 * (ftl_tep_payload_ahead) both render through here. */
static gboolean tep_dec_print(const FtlTepPrint *print, struct tep_handle *tep, FtlKallsyms *ks,
			      const guchar *data, gint size, GString *out)
{
	gsize at = out->len;
	if (!ftl_tep_print_run(print, tep, ks, data, size, out))
		return FALSE;
	g_string_truncate(out, at + tep_dec_trim(out->str + at, out->len - at));
	return TRUE;
}

/* r's payload by the event's compiled print format; FALSE, out unchanged,
 * when the library must render it. The library renders an event's first
 * record: names in its print fmt (vmemmap_base) are looked up in kallsyms
 * then and become numbers the compiled format can take. */
static gboolean tep_dec_payload_fast(FtlTepDecoder *ts, TepEventInfo *info, struct tep_record *r,
				     GString *out)
{
	if (info->print_state == 0) {
		info->print_state = 1;
		return FALSE;
	}
	if (info->print_state == 1) {
		info->print_state = 2;
		info->print = ftl_tep_print_compile(info->event, ts->tep,
						    ts->lazy ? ts->lazy->printk : ts->printk);
		if (!info->print)
			g_debug("payload of %s: libtraceevent's printing", info->name);
	}
	if (!info->print)
		return FALSE;
	gboolean functions = ftl_tep_print_wants_functions(info->print);
	if (functions)
		tep_lazy_functions(ts->lazy, ts->tep);
	/* the table tep's resolver reads, when it is ftlens's */
	FtlKallsyms *ks = functions && ts->lazy && ts->lazy->resolving ? ts->lazy->kallsyms : NULL;
	if (!tep_dec_print(info->print, ts->tep, ks, r->data, r->size, out))
		return FALSE;
	if (ts->ahead && info->id >= 0 && info->id < TEP_ID_TABLE && !ts->ahead[info->id] &&
	    (!functions || ks)) {
		TepAhead *a = g_new(TepAhead, 1);
		*a = (TepAhead){ info->print, info->fixed, ks };
		g_atomic_pointer_set(&ts->ahead[info->id], a);
	}
	return TRUE;
}

gboolean ftl_tep_decoder_render_ahead(FtlTepDecoder *ts)
{
	if (!ts->check && !ts->ahead)
		ts->ahead = g_new0(TepAhead *, TEP_ID_TABLE);
	return ts->ahead != NULL;
}

gboolean ftl_tep_payload_ahead(FtlTepDecoder *ts, gint id, const guchar *data, gint size,
			       GString *out)
{
	if (!ts->ahead || id < 0 || id >= TEP_ID_TABLE)
		return FALSE;
	const TepAhead *a = g_atomic_pointer_get(&ts->ahead[id]);
	if (!a || !tep_dec_fits(size, a->fixed))
		return FALSE;
	return tep_dec_print(a->print, ts->tep, a->ks, data, size, out);
}

/* FTLENS_PAYLOAD_CHECK: the fast text (after at in out) against the
 * library's, each difference on stderr. */
static void tep_dec_payload_check(FtlTepDecoder *ts, TepEventInfo *info, struct tep_record *r,
				  GString *out, gsize at)
{
	const char *p = tep_dec_render(ts, info, r, NULL);
	gsize len = tep_dec_trim(p, strlen(p));
	ts->n_fast++;
	if (len == out->len - at && memcmp(p, out->str + at, len) == 0)
		return;
	ts->n_different++;
	g_autofree char *lib = g_strescape(p, NULL);
	g_autofree char *own = g_strescape(out->str + at, NULL);
	g_printerr("ftlens: payload check: %s: library \"%s\", own \"%s\"\n",
		   info->name, lib, own);
}

void ftl_tep_payload(FtlTepDecoder *ts, struct tep_record *r, GString *out)
{
	TepEventInfo *info = tep_dec_whole(ts, r);
	if (!info || info->lib_bad)
		return; /* too short for its fields, or a format with a field outside any
			 * record (counted where decoded): nothing to print */
	gsize at = out->len;
	if (info->event && tep_dec_payload_fast(ts, info, r, out)) {
		if (ts->check)
			tep_dec_payload_check(ts, info, r, out, at);
		return;
	}
	ts->n_library++;
	const char *p = tep_dec_render(ts, info, r, NULL);
	g_string_append_len(out, p, (gssize)tep_dec_trim(p, strlen(p)));
}

static void tep_dec_info_free(gpointer p)
{
	TepEventInfo *info = p;
	ftl_tep_print_free(info->print);
	g_free(info);
}

FtlTepDecoder *ftl_tep_decoder_new(struct tep_handle *tep, FtlTrace *trace, const char *path)
{
	FtlTepDecoder *d = g_new0(FtlTepDecoder, 1);
	d->tep = tep;
	d->pool = ftl_trace_pool(trace);
	d->no_callers = (ftl_trace_flags(trace) & FTL_OPEN_NO_CALLERS) != 0;
	d->diags = ftl_trace_diags(trace);
	d->path = path;
	d->events = g_hash_table_new_full(NULL, NULL, NULL, tep_dec_info_free);
	d->check = g_getenv("FTLENS_PAYLOAD_CHECK") != NULL;
	d->states = g_array_new(FALSE, FALSE, sizeof(TepStateSym));
	d->state_text = g_string_new(NULL);
	d->frames = g_array_new(FALSE, FALSE, sizeof(FtlSlice));
	d->bprint_place = g_new0(TepBprintPlace, 1);
	d->bprint_place->refs = 1;
	/* NO FILE DATA */
	trace_seq_init(&d->text);
	for (guint i = 0; i < TEP_COMM_CACHE; i++)
		d->comms[i].pid = -1;
	return d;
}

void ftl_tep_decoder_share(FtlTepDecoder *d, FtlTepDecoder *with)
{
	g_return_if_fail(d->tep == with->tep && !d->bprint_place->seen);
	if (--d->bprint_place->refs == 0)
		g_free(d->bprint_place);
	d->bprint_place = with->bprint_place;
	d->bprint_place->refs++;
}

void ftl_tep_decoder_set_printk(FtlTepDecoder *d, FtlPrintkMap *printk)
{
	ftl_printk_map_unref(d->printk);
	d->printk = printk ? ftl_printk_map_ref(printk) : NULL;
}

void ftl_tep_decoder_set_lazy(FtlTepDecoder *d, FtlTepLazy *lazy)
{
	d->lazy = lazy;
}

void ftl_tep_decoder_reject(FtlTepDecoder *d, gint id, const char *sys, const char *text)
{
	if (!d->rejected)
		d->rejected = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	g_hash_table_insert(d->rejected, GINT_TO_POINTER(id), tep_format_label(sys, text));
}

const char *ftl_tep_decoder_rejected(FtlTepDecoder *d, gint id)
{
	gpointer key = GINT_TO_POINTER(id);
	const char *label = d->rejected ? g_hash_table_lookup(d->rejected, key) : NULL;
	if (!label && d->lazy)
		label = g_hash_table_lookup(d->lazy->rejected, key);
	return label;
}

void ftl_tep_decoder_free(FtlTepDecoder *d)
{
	if (!d)
		return;
	if (d->check)
		g_printerr("ftlens: payload check: %" G_GUINT64_FORMAT " own, %" G_GUINT64_FORMAT
			   " library, %" G_GUINT64_FORMAT " different\n",
			   d->n_fast, d->n_library, d->n_different);
	g_hash_table_unref(d->events);
	if (d->rejected)
		g_hash_table_unref(d->rejected);
	g_free(d->by_id);
	for (guint i = 0; d->ahead && i < TEP_ID_TABLE; i++)
		g_free(d->ahead[i]);
	g_free(d->ahead);
	g_array_unref(d->states);
	g_string_free(d->state_text, TRUE);
	g_array_unref(d->frames);
	if (d->bprint_copy)
		g_byte_array_unref(d->bprint_copy);
	if (d->lib_copy)
		g_byte_array_unref(d->lib_copy);
	if (--d->bprint_place->refs == 0)
		g_free(d->bprint_place);
	ftl_printk_map_unref(d->printk);
	/* NO FILE DATA */
	trace_seq_destroy(&d->text);
	g_free(d);
}
