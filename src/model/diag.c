/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Diagnostics table: a count and the first location per anomaly kind. */
#include "model/diag.h"

#include "util/escape.h"
#include "util/checked.h"

#include <string.h>

struct _FtlDiags {
	FtlDiagEntry e[FTL_DIAG_N_KINDS];
	GHashTable *rank; /* input path -> its place + 1 */
};

static const struct {
	const char *name;
	const char *summary;
} diag_info[FTL_DIAG_N_KINDS] = {
	[FTL_DIAG_UNPARSED_LINE] = { "unparsed_line", "lines not recognized" },
	[FTL_DIAG_TRUNCATED_LINE] = { "truncated_line", "truncated last line" },
	[FTL_DIAG_LOST_EVENTS] = { "lost_events", "events lost by the kernel" },
	[FTL_DIAG_TIME_BACKWARDS] = { "time_backwards", "timestamps going backwards on a CPU" },
	[FTL_DIAG_BAD_DURATION] = { "bad_duration", "durations that did not parse" },
	[FTL_DIAG_UNKNOWN_CPU] = { "unknown_cpu", "events without a CPU" },
	[FTL_DIAG_ORPHAN_EXIT] = { "orphan_exit", "function exits without an entry" },
	[FTL_DIAG_OPEN_AT_END] = { "open_at_end", "calls still open at the end" },
	[FTL_DIAG_DEPTH_JUMP] = { "depth_jump", "call depth jumps" },
	[FTL_DIAG_UNKNOWN_EVENT] = { "unknown_event", "events whose id has no format" },
	[FTL_DIAG_BAD_PAGE] = { "bad_page", "ring-buffer pages skipped as damaged" },
	[FTL_DIAG_BINARY_BYTES] = { "binary_bytes", "lines with control or NUL bytes" },
	[FTL_DIAG_CUT_LINE] = { "cut_line", "console lines cut by another message" },
	[FTL_DIAG_DUMP_UNENDED] = { "dump_unended", "ftrace dumps without their end line" },
	[FTL_DIAG_DUMP_INTERLEAVED] = { "dump_interleaved", "other lines inside ftrace dumps" },
	[FTL_DIAG_REPORT_CUT] = { "report_cut", "kernel reports the log ends inside" },
	[FTL_DIAG_DEEP_CALLS] = { "deep_calls",
				  "calls nested too deep for the call tree, merged into (deeper)" },
	[FTL_DIAG_ENTRIES_SHORT] = { "entries_short",
				     "entries the header counts and the file does not hold" },
	[FTL_DIAG_NODE_BUDGET] = { "node_budget",
				   "calls on paths past the call tree's node budget, merged into "
				   "[other]" },
	[FTL_DIAG_BAD_FORMAT] = { "bad_format", "events whose format could not be used" },
};

FtlDiags *ftl_diags_new(void)
{
	return g_new0(FtlDiags, 1);
}

void ftl_diags_free(FtlDiags *d)
{
	if (!d)
		return;
	for (int i = 0; i < FTL_DIAG_N_KINDS; i++) {
		g_free(d->e[i].first_file);
		g_free(d->e[i].first_text);
	}
	if (d->rank)
		g_hash_table_destroy(d->rank);
	g_free(d);
}

void ftl_diags_rank_file(FtlDiags *d, const char *file)
{
	if (!file)
		return;
	if (!d->rank)
		d->rank = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (!g_hash_table_contains(d->rank, file))
		g_hash_table_insert(d->rank, g_strdup(file),
				    GUINT_TO_POINTER(g_hash_table_size(d->rank) + 1));
}

/* file's place among the inputs; G_MAXUINT for one never ranked. */
static guint diags_rank(const FtlDiags *d, const char *file)
{
	gpointer v = d->rank && file ? g_hash_table_lookup(d->rank, file) : NULL;
	return v ? GPOINTER_TO_UINT(v) - 1 : G_MAXUINT;
}

void ftl_diags_add(FtlDiags *d, FtlDiagKind kind, const FtlDiagLoc *at, const char *text,
		   gssize text_len, guint64 amount)
{
	FtlDiagEntry *e = &d->e[kind];
	guint rank = diags_rank(d, at ? at->file : NULL);
	gboolean earlier = e->count && rank < e->first_rank;
	if (earlier) {
		g_clear_pointer(&e->first_file, g_free);
		g_clear_pointer(&e->first_text, g_free);
	}
	if (e->count++ == 0 || earlier) {
		e->first_rank = rank;
		e->first_file = g_strdup(at && at->file ? at->file : "");
		e->first_line = at ? at->line : 0;
		e->first_cpu = at ? at->cpu : -1;
		if (text) {
			/* visible already (the text may hold NUL bytes), shortened */
			gsize len = text_len < 0 ? strlen(text) : (gsize)text_len;
			e->first_text = ftl_escape(text, (gssize)MIN(len, 160));
		}
	}
	e->amount = ftl_sat_add_u64(e->amount, amount);
}

void ftl_diags_set(FtlDiags *d, FtlDiagKind kind, const FtlDiagEntry *from)
{
	FtlDiagEntry *e = &d->e[kind];
	g_free(e->first_file);
	g_free(e->first_text);
	*e = *from;
	e->first_file = from->count ? g_strdup(from->first_file ? from->first_file : "") : NULL;
	e->first_text = g_strdup(from->first_text);
	e->first_rank = diags_rank(d, e->first_file);
}

const FtlDiagEntry *ftl_diags_get(const FtlDiags *d, FtlDiagKind kind)
{
	return &d->e[kind];
}

const char *ftl_diag_kind_name(FtlDiagKind kind)
{
	return diag_info[kind].name;
}

const char *ftl_diag_kind_summary(FtlDiagKind kind)
{
	return diag_info[kind].summary;
}

gboolean ftl_diags_any(const FtlDiags *d)
{
	for (int i = 0; i < FTL_DIAG_N_KINDS; i++)
		if (d->e[i].count)
			return TRUE;
	return FALSE;
}
