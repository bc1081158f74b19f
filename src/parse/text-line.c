/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The line parsers' work space and the per-thread cache of interned names in
 * front of the trace's (locked) string pool. */
#include "config.h"

#include "parse/text-line.h"

#include <string.h>

#include "util/slots.h"

/* Names kept per thread: a trace has thousands of distinct function names,
 * a few hundred hot ones. */
#define CACHE_BITS 14

typedef struct {
	const char *s; /* interned; NULL: empty */
	guint32 len;
} CacheEntry;

struct _TextNameCache {
	guint64 pool_id; /* entries point into this pool */
	CacheEntry e[1u << CACHE_BITS];
};

static GPrivate text_cache_key = G_PRIVATE_INIT(g_free);

void ftl_text_names_init(TextNames *n, FtlStrPool *pool)
{
	n->funcgraph_entry = ftl_strpool_intern(pool, "funcgraph_entry");
	n->funcgraph_exit = ftl_strpool_intern(pool, "funcgraph_exit");
	n->function = ftl_strpool_intern(pool, "function");
	n->marker = ftl_strpool_intern(pool, "print");
	n->printk = ftl_strpool_intern(pool, "bprint");
	n->comment = ftl_strpool_intern(pool, "comment");
	n->sched_switch = ftl_strpool_intern(pool, "sched_switch");
	n->sched_wakeup = ftl_strpool_intern(pool, "sched_wakeup");
	n->irq_entry = ftl_strpool_intern(pool, "irq_handler_entry");
	n->irq_exit = ftl_strpool_intern(pool, "irq_handler_exit");
	n->lost = ftl_strpool_intern(pool, "lost");
	n->kernel_stack = ftl_strpool_intern(pool, "kernel_stack");
	n->user_stack = ftl_strpool_intern(pool, "user_stack");
	n->task_switch = ftl_strpool_intern(pool, "task_switch");
	n->buffer_start = ftl_strpool_intern(pool, "buffer_started");
	n->irq_graph = ftl_strpool_intern(pool, "irq");
	n->raw = ftl_strpool_intern(pool, "raw");
	n->hw_branch = ftl_strpool_intern(pool, "hw_branch");
}

static void text_cpu_task_init(gpointer slot, guint idx)
{
	((TextCpuTask *)slot)->pid = -1;
}

TextCpuTask *ftl_text_cpu_task(GArray *cpu_task, gint32 cpu)
{
	if (cpu < 0 || cpu >= 4096)
		return NULL;
	return ftl_slots_get(cpu_task, (guint)cpu, sizeof(TextCpuTask), text_cpu_task_init);
}

void ftl_text_line_bind(TextLine *tl, FtlStrPool *pool)
{
	TextNameCache *c = g_private_get(&text_cache_key);
	if (!c) {
		c = g_new0(TextNameCache, 1);
		g_private_set(&text_cache_key, c);
	}
	if (c->pool_id != ftl_strpool_id(pool)) {
		memset(c->e, 0, sizeof c->e);
		c->pool_id = ftl_strpool_id(pool);
	}
	tl->pool = pool;
	tl->cache = c;
}

/* 16 and 8 bytes of an event, stored at once. */
typedef guint64 TextEventPart __attribute__((vector_size(16), may_alias, aligned(8)));
typedef guint64 TextEventWord __attribute__((may_alias));

void ftl_text_line_reset(TextLine *tl, guint64 line, guint64 seq)
{
	FtlEvent *ev = tl->ev;
	/* zeroed 16 bytes at a time: GCC makes memset() of an event's 168 bytes
	 * a `rep stos` on x86-64, whose start-up costs more than the stores */
	G_STATIC_ASSERT(sizeof *ev % 8 == 0);
	TextEventPart *part = (TextEventPart *)ev;
#pragma GCC unroll 16
	for (gsize i = 0; i < sizeof *ev / 16; i++) {
		part[i] = (TextEventPart){ 0, 0 };
		__asm__("" : : "r"(part) : "memory"); /* not a memset() again */
	}
	if (sizeof *ev % 16)
		*(TextEventWord *)(void *)((char *)ev + sizeof *ev - 8) = 0;
	ev->ts = FTL_TS_NONE;
	ev->src = tl->src;
	ev->line = line;
	ev->seq = seq;
	ev->cpu = tl->cpu_hint;
	ev->pid = -1;
	ev->tgid = -1;
	tl->fix = 0;
}

static inline guint64 text_load8(const char *p, gsize len)
{
	guint64 v = 0;
	memcpy(&v, p, MIN(len, 8));
	return v;
}

/* The slot of a name: its first and last eight bytes and its length, mixed;
 * a collision costs a miss, never a wrong answer. */
static inline guint text_cache_slot(const char *p, gsize len)
{
	guint64 a = text_load8(p, len);
	guint64 b = len > 8 ? text_load8(p + len - 8, 8) : 0;
	guint64 h = (a * 0x9e3779b97f4a7c15ull) ^ (b * 0xc2b2ae3d27d4eb4full) ^ len;
	return (guint)(h >> (64 - CACHE_BITS));
}

void ftl_text_leaf_exit(FtlEvent *entry, FtlEvent *exit, const TextNames *n)
{
	*exit = *entry;
	exit->kind = FTL_EVENT_FUNC_EXIT;
	exit->name = n->funcgraph_exit;
	exit->flags |= FTL_EVENT_F_SYNTH;
	exit->seq = entry->seq + 1;
	if (entry->ts != FTL_TS_NONE && entry->u.graph.duration != FTL_TS_NONE)
		exit->ts = entry->ts + entry->u.graph.duration;
	entry->u.graph.has_retval = FALSE;
}

const char *ftl_text_intern(TextLine *tl, const char *p, const char *e)
{
	gsize len = (gsize)(e - p);
	CacheEntry *c = &tl->cache->e[text_cache_slot(p, len)];
	if (c->s && c->len == len && memcmp(c->s, p, len) == 0)
		return c->s;
	const char *s = ftl_strpool_intern_len(tl->pool, p, len);
	if (len <= G_MAXUINT32) {
		c->s = s;
		c->len = (guint32)len;
	}
	return s;
}
