/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading ahead for each CPU's first task-switch line: the lines with "=>"
 * and no '|' are found with memchr and parsed as every line is (the chunk
 * parser), so the look costs a scan, not a second parse of the input. */
#include "config.h"

#include "parse/text-prior.h"

#include <string.h>

/* The text is read in pieces of up to this size: more than the longest
 * line. The first is PRIOR_FIRST_PIECE, each next one twice the last: a
 * small input (a memory trace, every fuzzing input) does not pay for a
 * 2 MiB buffer, which malloc maps and unmaps whole. */
#define PRIOR_PIECE	  ((gsize)FTL_TEXT_MAX_LINE * 2)
#define PRIOR_FIRST_PIECE ((gsize)64 << 10)

typedef struct {
	guint64 off; /* of the switch line; G_MAXUINT64: none found */
	gint32 pid;
	const char *comm;
} PriorSwitch;

typedef struct {
	gsize at;    /* where the line starts in the candidates' text */
	guint64 off; /* and in the input */
} PriorLine;

struct _TextPrior {
	const TextChunkCtx *ctx;
	TextPriorRead read;
	gpointer data;
	gboolean looked;
	gboolean blind;	  /* the input cannot be read again (a pipe): no look */
	guint64 from, to; /* the part of the input looked at */
	GArray *first;	  /* PriorSwitch per CPU: the first switch line at or after from */
	TextChunk *chunk;
};

TextPrior *ftl_text_prior_new(const TextChunkCtx *ctx, TextPriorRead read, gpointer data)
{
	TextPrior *p = g_new0(TextPrior, 1);
	p->ctx = ctx;
	p->read = read;
	p->data = data;
	p->first = g_array_new(FALSE, FALSE, sizeof(PriorSwitch));
	return p;
}

void ftl_text_prior_free(TextPrior *p)
{
	if (!p)
		return;
	g_array_unref(p->first);
	ftl_text_chunk_free(p->chunk);
	g_free(p);
}

/* The first "=>" in [p, e), or NULL. memchr for the '=' (rare in a
 * function_graph trace: irq arrows, return values) then a look at the next
 * byte: glibc's memmem walks a two-byte needle a byte at a time, and the
 * look ahead scans up to FTL_TEXT_PRIOR_AHEAD bytes, a fifth of `info`'s
 * instructions on a trace whose CPUs begin before their first switch. */
static const char *prior_arrow(const char *p, const char *e)
{
	while (e - p >= 2) {
		const char *q = memchr(p, '=', (gsize)(e - p - 1));
		if (!q)
			return NULL;
		if (q[1] == '>')
			return q;
		p = q + 1;
	}
	return NULL;
}

/* Appends to text the lines of [buf, buf + n) that may be task-switch lines
 * (every other function_graph line has a '|'), with their input offsets. */
static void prior_candidates(const char *buf, gsize n, guint64 base, GString *text, GArray *lines)
{
	const char *p = buf, *e = buf + n;
	const char *hit;
	while (p < e && (hit = prior_arrow(p, e))) {
		const char *ls = hit;
		while (ls > p && ls[-1] != '\n')
			ls--;
		const char *le = memchr(hit, '\n', (gsize)(e - hit));
		le = le ? le : e;
		if (!memchr(ls, '|', (gsize)(le - ls))) {
			PriorLine l = { text->len, base + (guint64)(ls - buf) };
			g_array_append_val(lines, l);
			g_string_append_len(text, ls, le - ls);
			g_string_append_c(text, '\n');
		}
		p = le < e ? le + 1 : e;
	}
}

/* Looks at the input from off on for the first switch line of every CPU. */
static void prior_look(TextPrior *p, guint64 off)
{
	g_autoptr(GString) text = g_string_new(NULL);
	g_autoptr(GArray) lines = g_array_new(FALSE, FALSE, sizeof(PriorLine));
	gsize cap = PRIOR_FIRST_PIECE;
	g_autofree char *buf = g_malloc(cap);
	guint64 pos = off, end = off + FTL_TEXT_PRIOR_AHEAD;
	while (pos < end) {
		gsize want = (gsize)MIN((guint64)cap, end - pos);
		gsize n = p->read(p->data, pos, buf, want);
		if (!n) {
			/* not even the line of the event that asked */
			p->blind |= pos == off;
			break;
		}
		gsize use = n;
		if (n == want) {
			/* whole lines: the rest is read again with the next piece */
			while (use > 0 && buf[use - 1] != '\n')
				use--;
			if (use == 0 && want == cap && cap < PRIOR_PIECE) {
				/* a line longer than the piece: read it again whole */
				cap = MIN(cap * 2, PRIOR_PIECE);
				buf = g_realloc(buf, cap);
				continue;
			}
			if (use == 0)
				use = n; /* no line end in a piece: not a trace line */
		}
		prior_candidates(buf, use, pos, text, lines);
		pos += use;
		if (n < want)
			break;
		if (cap < PRIOR_PIECE) {
			cap = MIN(cap * 2, PRIOR_PIECE);
			g_free(buf);
			buf = g_malloc(cap);
		}
	}
	p->looked = TRUE;
	p->from = off;
	p->to = MAX(pos, off + 1);
	g_array_set_size(p->first, 0);
	if (!text->len)
		return;
	if (!p->chunk)
		p->chunk = ftl_text_chunk_new();
	ftl_text_chunk_parse(p->chunk, p->ctx, text->str, text->len);
	guint li = 0;
	for (guint i = 0; i < p->chunk->events->len; i++) {
		const FtlEvent *ev = &g_array_index(p->chunk->events, FtlEvent, i);
		if (ev->kind != FTL_EVENT_TASK_SWITCH || ev->cpu < 0 || ev->cpu >= 4096)
			continue;
		gsize at = (gsize)(ev->raw.p - text->str);
		while (li + 1 < lines->len && g_array_index(lines, PriorLine, li + 1).at <= at)
			li++;
		guint cpu = (guint)ev->cpu;
		if (cpu >= p->first->len) {
			guint old = p->first->len;
			g_array_set_size(p->first, cpu + 1);
			for (guint c = old; c <= cpu; c++)
				g_array_index(p->first, PriorSwitch, c).off = G_MAXUINT64;
		}
		PriorSwitch *s = &g_array_index(p->first, PriorSwitch, cpu);
		if (s->off == G_MAXUINT64)
			*s = (PriorSwitch){ g_array_index(lines, PriorLine, li).off, ev->u.sw.prev_pid,
					    ev->u.sw.prev_comm };
	}
}

gboolean ftl_text_prior_task(TextPrior *p, guint64 off, gint32 cpu, gint32 *pid,
			     const char **comm)
{
	if (cpu < 0 || p->blind)
		return FALSE;
	if (!p->looked || off < p->from || off >= p->to)
		prior_look(p, off);
	if ((guint)cpu >= p->first->len)
		return FALSE;
	const PriorSwitch *s = &g_array_index(p->first, PriorSwitch, cpu);
	/* a switch line before off: the source saw it (or a seek skipped it) */
	if (s->off == G_MAXUINT64 || s->off < off || s->pid < 0)
		return FALSE;
	*pid = s->pid;
	*comm = s->comm;
	return TRUE;
}
