/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Binary ftrace records (libtraceevent's tep_record) into FtlEvents: shared by
 * the trace.dat reader and the raw page reader. Private to parse/. */
#pragma once

#include <glib.h>
#include <string.h>

#include "model/event.h"
#include "model/trace.h"
#include "parse/trial.h"

struct tep_handle;
struct tep_record;

typedef struct _FtlTepDecoder FtlTepDecoder;
typedef struct _FtlPrintkMap FtlPrintkMap;

/* tep, trace and path (the file its records come from, named by the
 * diagnostics it adds to the trace's) are borrowed and must outlive the
 * decoder. Strings go to the trace's pool. Free with ftl_tep_decoder_free(). */
FtlTepDecoder *ftl_tep_decoder_new(struct tep_handle *tep, FtlTrace *trace, const char *path);
void ftl_tep_decoder_free(FtlTepDecoder *d);
/* d renders through the same tep as with (both on one thread): what
 * libtraceevent keeps per tep from the first record it rendered is
 * tracked once for both. Before d's first record. */
void ftl_tep_decoder_share(FtlTepDecoder *d, FtlTepDecoder *with);
/* The printk strings its tep was given (a reference is taken), for %s of a
 * pointer-sized field in compiled formats; a decoder with a lazy takes its
 * lazy's. */
void ftl_tep_decoder_set_printk(FtlTepDecoder *d, FtlPrintkMap *printk);

/* Fills ev from r: everything but src, seq and line. Slices point into r's
 * data or the decoder and live until the next call or until r is freed.
 * Returns FALSE when r's event id has no format (ev is then a GENERIC
 * "unknown_event_N"); *id gets the id in both cases. ev is zeroed before
 * the first call, then holds the event decoded last: only what that one
 * set is cleared (its union, when its kind has one). */
gboolean ftl_tep_decode(FtlTepDecoder *d, struct tep_record *r, FtlEvent *ev, gint *id);

/* Where a record's common fields (type, pid, flags) lie, for readers that
 * take them out of records on other threads than the decoder's. */
typedef struct {
	gboolean ok;   /* FALSE: unknown, or not where ftl_tep_common_read() looks */
	gboolean swap; /* the file's byte order is not ours */
	guint8 type_off, type_size, pid_off, flags_off;
} FtlTepCommon;

/* The layout of d's common fields, from the first format its tep has
 * parsed (ftl_tep_lazy_start() parses one); out->ok FALSE when there is
 * none or the fields lie elsewhere. */
void ftl_tep_common_layout(FtlTepDecoder *d, FtlTepCommon *out);

/* An unsigned number of size bytes (1, 2, 4 or 8; anything else reads 8)
 * at p, byte-swapped when swap: how the decoder, the page
 * readers and the compiled print formats read a record's fields. */
static inline guint64 ftl_tep_read_uint(const guchar *p, guint size, gboolean swap)
{
	switch (size) {
	case 1:
		return p[0];
	case 2: {
		guint16 v;
		memcpy(&v, p, 2);
		return swap ? GUINT16_SWAP_LE_BE(v) : v;
	}
	case 4: {
		guint32 v;
		memcpy(&v, p, 4);
		return swap ? GUINT32_SWAP_LE_BE(v) : v;
	}
	default: {
		guint64 v;
		memcpy(&v, p, 8);
		return swap ? GUINT64_SWAP_LE_BE(v) : v;
	}
	}
}

/* The common fields of a record of 8 bytes or more at data, read as
 * layout c says (c->ok). Thread-safe: it reads the record only. */
static inline void ftl_tep_common_read(const FtlTepCommon *c, const guchar *data, gint *id,
				       gint *pid, gint *flags)
{
	*id = (gint)ftl_tep_read_uint(data + c->type_off, c->type_size, c->swap);
	*pid = (gint)(guint32)ftl_tep_read_uint(data + c->pid_off, 4, c->swap);
	*flags = data[c->flags_off];
}

/* ftl_tep_decode() of a record whose common fields were read already by
 * ftl_tep_common_read() with d's layout (r->size >= 8). */
gboolean ftl_tep_decode_read(FtlTepDecoder *d, struct tep_record *r, gint id, gint pid, gint flags,
			     FtlEvent *ev);

/* A field of r by name (the event's own fields, then the common ones):
 * numbers as decimal text in the decoder's scratch, strings pointing into r.
 * *value lives until the next call or until r is freed. */
gboolean ftl_tep_field(FtlTepDecoder *d, struct tep_record *r, const char *key,
		       FtlSlice *value);

/* The bytes the event format of the record ftl_tep_decode() read last
 * needs (its fixed fields) when that record was shorter, else 0 (and 0 for
 * a record without the 8 bytes of common fields). A short record is decoded
 * as a GENERIC event of its name only, and has no payload text: the caller
 * reports it as damaged. */
gint ftl_tep_short(const FtlTepDecoder *d);

/* Appends r's text as `trace-cmd report` prints it after the event name
 * (libtraceevent's print format): only views ask for it. */
void ftl_tep_payload(FtlTepDecoder *d, struct tep_record *r, GString *out);
/* Lets ftl_tep_payload_ahead() render, on other threads, the records of the
 * ids whose payloads d rendered with a compiled format. FALSE under
 * FTLENS_PAYLOAD_CHECK, which compares every record on d's thread. */
gboolean ftl_tep_decoder_render_ahead(FtlTepDecoder *d);
/* Thread-safe, after ftl_tep_decoder_render_ahead(): appends the payload of
 * a record of event id (size bytes at data) exactly as ftl_tep_payload()
 * would, when d has compiled its id's format; FALSE, out unchanged, when
 * d's thread must render it. */
gboolean ftl_tep_payload_ahead(FtlTepDecoder *d, gint id, const guchar *data, gint size,
			       GString *out);

/* Event formats and kallsyms kept aside when a file is opened, parsed into
 * the tep only when a record needs them: a capture has thousands of
 * formats and megabytes of kallsyms, of which a trace uses a few hundred
 * and maybe no name at all. */
typedef struct _FtlTepLazy FtlTepLazy;

/* path: the file, whose memo (tep-memo.h) the lazy shares; NULL for none. */
FtlTepLazy *ftl_tep_lazy_new(const char *path);
void ftl_tep_lazy_free(FtlTepLazy *lazy);
/* Keeps a copy of a format of system sys (size bytes of buf) or of the
 * kallsyms text. */
void ftl_tep_lazy_add_format(FtlTepLazy *lazy, const char *sys, const char *buf, gsize size);
void ftl_tep_lazy_set_kallsyms(FtlTepLazy *lazy, const char *text);
/* The printk strings the library was given for the file (safe: the lines
 * passed on), for the decoders' compiled formats. */
void ftl_tep_lazy_add_printk(FtlTepLazy *lazy, const char *safe);
/* Forks the child that tries this file's open before ftlens makes it:
 * open(ctx) there (which fills the child's copy of lazy and returns its
 * tep, NULL on a clean failure). Returns how the open ended in the child;
 * a child that opened the file stays as the process's format child
 * (ftl_tep_trials_ready()) when there is none. *tried is FALSE when no
 * child could be made (FTL_TRIAL_OK then: the caller takes the risk). */
typedef struct tep_handle *(*FtlTepLazyOpen)(gpointer ctx);
FtlTrialResult ftl_tep_lazy_fork(FtlTepLazy *lazy, FtlTepLazyOpen open, gpointer ctx,
				 gboolean *tried);
/* Readies the lookup by id for tep, and parses the first format, so that
 * the common fields are known. Before the reader's threads start: each
 * format is parsed in the process's format child first (libtraceevent
 * 1.7 crashes on some damaged print fmts; ftl_tep_trials_ready()). A
 * format it crashes on is never parsed: its events are unknown. */
void ftl_tep_lazy_start(FtlTepLazy *lazy, struct tep_handle *tep);
/* One child for the whole process tries libtraceevent's format parser
 * on each format before ftlens parses it, with the format's text as the
 * question (and the verdict kept by it: parse/tep-memo.h). Forks it when
 * there is none fit to serve: call where a fork may be made, before a
 * reader's threads start (parse/trial.h). */
void ftl_tep_trials_ready(void);
/* How parsing text (len bytes, system sys) into a handle set up as tep
 * ends in that child: FTL_TRIAL_CRASHED means never parse it. */
FtlTrialResult ftl_tep_format_try(struct tep_handle *tep, const char *sys, const char *text,
				  gsize len);
/* The decoders of tep fetch formats and names from lazy (borrowed; it
 * must outlive the decoder). */
void ftl_tep_decoder_set_lazy(FtlTepDecoder *d, FtlTepLazy *lazy);
/* id's format is in the input but was left out: refused by tep-check, a
 * crash in the trial child, or libtraceevent did not parse it. Its events
 * decode as unknown_event_ID, and a reader counts them as FTL_DIAG_BAD_FORMAT
 * rather than FTL_DIAG_UNKNOWN_EVENT. Readers that parse formats themselves
 * (rawdir.c) mark them with ftl_tep_decoder_reject(); the lazy formats of a
 * trace.dat are marked when first asked for. */
void ftl_tep_decoder_reject(FtlTepDecoder *d, gint id, const char *sys, const char *text);
/* NULL when id's format was not left out, else its "SYSTEM/NAME" as the
 * file gives them (hostile text: escape before showing) */
const char *ftl_tep_decoder_rejected(FtlTepDecoder *d, gint id);
/* The id on a format text's "ID:" line, -1 when it has none. */
gint ftl_tep_format_id(const char *text);

/* Routes libtraceevent's messages: while capture is set they are appended to
 * it (the reason a file is refused), otherwise they go to GLib's debug log. */
void ftl_tep_capture_messages(GString *capture);

G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTepDecoder, ftl_tep_decoder_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC(FtlTepLazy, ftl_tep_lazy_free)
