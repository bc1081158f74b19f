/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Comm recovery: names for pids whose lines show "<...>", learned from the
 * payloads of scheduler and task events that name them. */
#include "analysis/comm.h"

#include <string.h>

/* The kernel keeps a comm in TASK_COMM_LEN (16) bytes with the NUL. */
#define COMM_MAX 15

/* What an event of a name tells of comms. */
typedef enum {
	COMM_NOTHING,
	COMM_EXEC,	  /* sched_process_exec: pid=, filename= */
	COMM_FORK,	  /* sched_process_fork: comm= pid=, child_comm= child_pid= */
	COMM_SWITCH,	  /* sched_switch: prev_comm= prev_pid=, next_comm= next_pid= */
	COMM_COMM_PID,	  /* the other sched_ events: comm= pid= */
	COMM_NEWCOMM_PID, /* task_rename: newcomm= pid= */
} CommAction;

/* Names seen last, by their interned pointer, and their action: the string
 * tests cost more than learning, on millions of events of other names. */
#define COMM_RECENT_BITS 10

struct _FtlCommRecovery {
	FtlTasks *tasks;
	FtlStrPool *pool;
	/* pid -> the last name the payloads gave it (interned). The last one
	 * wins: a name shown in a line prefix is the task's latest comm too. */
	GHashTable *names;
	guint recovered;
	gboolean finished;
	struct {
		const char *name;
		CommAction action;
	} recent[1u << COMM_RECENT_BITS];
};

FtlCommRecovery *ftl_comm_new(FtlTasks *tasks, FtlStrPool *pool)
{
	FtlCommRecovery *c = g_new0(FtlCommRecovery, 1);
	c->tasks = tasks;
	c->pool = pool;
	c->names = g_hash_table_new(g_direct_hash, g_direct_equal);
	return c;
}

void ftl_comm_free(FtlCommRecovery *c)
{
	if (!c)
		return;
	g_hash_table_destroy(c->names);
	g_free(c);
}

G_GNUC_NO_INLINE static void comm_learn(FtlCommRecovery *c, gint32 pid, const char *comm)
{
	/* pid 0 is the idle task of every CPU (swapper/N): no one name fits. */
	if (pid <= 0 || !comm || !*comm || strcmp(comm, "<...>") == 0)
		return;
	g_hash_table_insert(c->names, GINT_TO_POINTER(pid), (gpointer)comm);
}

static gboolean comm_field_pid(const FtlEvent *ev, const char *key, gint32 *pid)
{
	FtlSlice v;
	gint64 n;
	if (!ftl_event_field(ev, key, &v) || !ftl_slice_to_i64(v, &n) || n < 0 || n > G_MAXINT32)
		return FALSE;
	*pid = (gint32)n;
	return TRUE;
}

static const char *comm_field_name(FtlCommRecovery *c, const FtlEvent *ev, const char *key)
{
	FtlSlice v;
	if (!ftl_event_field(ev, key, &v))
		return NULL;
	if (v.len >= 2 && v.p[0] == '"' && v.p[v.len - 1] == '"') {
		v.p++;
		v.len -= 2;
	}
	if (v.len == 0)
		return NULL;
	return ftl_strpool_intern_len(c->pool, v.p, MIN(v.len, COMM_MAX));
}

/* payload key of the comm, payload key of its pid */
static void comm_learn_fields(FtlCommRecovery *c, const FtlEvent *ev, const char *comm_key,
			      const char *pid_key)
{
	gint32 pid;
	if (!comm_field_pid(ev, pid_key, &pid))
		return;
	comm_learn(c, pid, comm_field_name(c, ev, comm_key));
}

/* sched_process_exec: the new comm is the basename of the file executed,
 * cut like the kernel's __set_task_comm() does. */
static void comm_learn_exec(FtlCommRecovery *c, const FtlEvent *ev)
{
	FtlSlice v;
	gint32 pid;
	if (!comm_field_pid(ev, "pid", &pid) || !ftl_event_field(ev, "filename", &v))
		return;
	if (v.len >= 2 && v.p[0] == '"' && v.p[v.len - 1] == '"') {
		v.p++;
		v.len -= 2;
	}
	guint32 s = v.len;
	while (s > 0 && v.p[s - 1] != '/')
		s--;
	if (s == v.len)
		return;
	comm_learn(c, pid, ftl_strpool_intern_len(c->pool, v.p + s, MIN(v.len - s, COMM_MAX)));
}

static CommAction comm_classify(const char *n)
{
	if (n[0] == 's' && g_str_has_prefix(n, "sched_")) {
		if (strcmp(n, "sched_process_exec") == 0)
			return COMM_EXEC;
		if (strcmp(n, "sched_process_fork") == 0)
			return COMM_FORK;
		if (strcmp(n, "sched_switch") == 0)
			return COMM_SWITCH;
		/* sched_waking, sched_wakeup(_new), sched_process_exit/free/wait,
		 * sched_migrate_task, sched_stat_*: all print comm= pid=. */
		return COMM_COMM_PID;
	}
	if (strcmp(n, "task_newtask") == 0)
		return COMM_COMM_PID;
	if (strcmp(n, "task_rename") == 0)
		return COMM_NEWCOMM_PID;
	return COMM_NOTHING;
}

/* What an event of a name not among the recent tells. */
G_GNUC_NO_INLINE static CommAction comm_recent_set(FtlCommRecovery *c, guint slot, const char *n)
{
	c->recent[slot].name = n;
	c->recent[slot].action = comm_classify(n);
	return c->recent[slot].action;
}

/* What an event of action tells, learnt. */
G_GNUC_NO_INLINE static void comm_learn_generic(FtlCommRecovery *c, const FtlEvent *ev,
						CommAction action)
{
	switch (action) {
	case COMM_EXEC:
		comm_learn_exec(c, ev);
		break;
	case COMM_FORK:
		comm_learn_fields(c, ev, "comm", "pid");
		comm_learn_fields(c, ev, "child_comm", "child_pid");
		break;
	case COMM_SWITCH:
		comm_learn_fields(c, ev, "prev_comm", "prev_pid");
		comm_learn_fields(c, ev, "next_comm", "next_pid");
		break;
	case COMM_COMM_PID:
		comm_learn_fields(c, ev, "comm", "pid");
		break;
	case COMM_NEWCOMM_PID:
		comm_learn_fields(c, ev, "newcomm", "pid");
		break;
	case COMM_NOTHING:
		break;
	}
}

/* A generic event: most tell nothing, which the recent names answer
 * without a call. */
static inline void comm_feed_generic(FtlCommRecovery *c, const FtlEvent *ev)
{
	const char *n = ev->name;
	if (!n)
		return;
	guint slot = ftl_strpool_slot(n, COMM_RECENT_BITS);
	CommAction action = G_LIKELY(c->recent[slot].name == n) ? c->recent[slot].action
								: comm_recent_set(c, slot, n);
	if (action != COMM_NOTHING)
		comm_learn_generic(c, ev, action);
}

void ftl_comm_feed(FtlCommRecovery *c, const FtlEvent *ev)
{
	switch (ev->kind) {
	case FTL_EVENT_SCHED_SWITCH:
	case FTL_EVENT_TASK_SWITCH:
		comm_learn(c, ev->u.sw.prev_pid, ev->u.sw.prev_comm);
		comm_learn(c, ev->u.sw.next_pid, ev->u.sw.next_comm);
		break;
	case FTL_EVENT_SCHED_WAKEUP:
		comm_learn(c, ev->u.wake.pid, ev->u.wake.comm);
		break;
	case FTL_EVENT_GENERIC:
		comm_feed_generic(c, ev);
		break;
	default:
		break;
	}
}

void ftl_comm_finish(FtlCommRecovery *c)
{
	if (c->finished)
		return;
	c->finished = TRUE;
	/* Only pids some line showed as "<...>" get a name: the table lists
	 * the tasks of the trace, not every pid a payload mentions. */
	GHashTableIter it;
	gpointer k, v;
	g_hash_table_iter_init(&it, c->names);
	while (g_hash_table_iter_next(&it, &k, &v)) {
		gint32 pid = GPOINTER_TO_INT(k);
		const FtlTask *t = ftl_tasks_lookup(c->tasks, pid);
		if (!t || t->comm)
			continue;
		ftl_tasks_note(c->tasks, pid, -1, v, TRUE);
		c->recovered++;
	}
}

guint ftl_comm_recovered(const FtlCommRecovery *c)
{
	return c->recovered;
}

const char *ftl_comm_label(const FtlTasks *tasks, gint32 pid, char *buf, gsize size)
{
	if (pid < 0) {
		g_strlcpy(buf, "-", size);
		return buf;
	}
	const FtlTask *t = ftl_tasks_lookup(tasks, pid);
	if (!t || !t->comm)
		g_strlcpy(buf, "<...>", size);
	else if (t->recovered)
		g_snprintf(buf, size, "%s*", t->comm);
	else
		g_strlcpy(buf, t->comm, size);
	return buf;
}

/* ftl_comm_feed()'s kinds */
FTL_CONSUMER_DEFINE_KINDS(comm, FtlCommRecovery,
			  FTL_PASS_KIND(FTL_EVENT_SCHED_SWITCH) |
				  FTL_PASS_KIND(FTL_EVENT_TASK_SWITCH) |
				  FTL_PASS_KIND(FTL_EVENT_SCHED_WAKEUP) |
				  FTL_PASS_KIND(FTL_EVENT_GENERIC));
