/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling analysis: per-CPU and per-task time, wakeup latency and
 * interrupt durations from one pass (conventions in sched.h). */
#include "analysis/sched.h"

#include <string.h>

#include "util/slots.h"
#include "util/timefmt.h"
#include "util/checked.h"

/* Parsers keep CPU numbers below this; a larger one is damage. */
#define SCHED_MAX_CPU 4096

typedef enum {
	TASK_UNKNOWN,
	TASK_RUNNING,
	TASK_RUNNABLE,
	TASK_SLEEPING,
	TASK_DEAD,
} TaskState;

typedef enum {
	OUT_UNKNOWN,
	OUT_PREEMPTED,
	OUT_SLEEP,
	OUT_DEAD,
} SwitchOut;

/* The events one wakeup is made of (a bit set): the wakeup tracers'
 * "+" line comes with the sched_wakeup event of the same wakeup. */
enum { WAKE_BY_WAKING = 1, WAKE_BY_WAKEUP = 2, WAKE_BY_TRACER = 4 };

/* What the pass knows of a task now. */
typedef struct {
	gint32 pid;
	TaskState state;
	gint64 since; /* when it entered state */
	const char *since_event; /* the event that made it so (interned), or NULL */
	gint32 since_cpu;	  /* where that event was */
	gint32 cpu;   /* running on, or preempted from */
	gint32 last_cpu;
	const char *comm;
	gint32 prio;
	gint64 wake_ts; /* a wakeup waiting for its switch, FTL_TS_NONE */
	gint32 waker_pid, waker_cpu;
	const char *waker_comm, *wake_event;
	guint wake_by;	    /* WAKE_BY_*: the events of its last wakeup since it ran */
	gboolean restarted; /* the pending wakeup followed another one */
	gint64 out_ts;	    /* an inferred switch-out not classified yet, FTL_TS_NONE */
	gboolean out_64;    /* switched out with the numeric state 64: dead or parked */
} SchedTask;

/* What the pass knows of a CPU now. */
typedef struct {
	gboolean seen;
	gboolean lost; /* events were lost; who runs is unknown until the next one */
	gint32 cur;
	gint64 since;
	gint64 first_ts, last_ts, lost_from;
	guint hard_depth;
	gint64 hard_start;
	gint32 hard_irq;
	const char *hard_name;
	gboolean soft_on;
	gint64 soft_start;
	gint32 soft_vec;
	const char *comm; /* the last event's task name and pid, noted already */
	gint32 comm_pid;
} SchedCpu;

/* One window's figures as they accumulate. */
typedef struct {
	FtlSchedScope pub;
	char *label;
	gint64 w0, w1;	    /* as asked: G_MININT64 / G_MAXINT64 for the whole trace */
	GHashTable *tasks;  /* pid -> FtlSchedTask* */
	GArray *cpus;	    /* FtlSchedCpu by cpu */
	GHashTable *irqs;   /* FtlSchedIrq* (key: kind, id, name) */
	GArray *worst;	    /* FtlSchedWakeup, largest first */
	FtlSchedTask *last; /* the task asked for last */
} SchedAcc;

typedef struct {
	gpointer fn;
	gpointer data;
} SchedListener;

enum { GEN_OTHER, GEN_WAKING, GEN_SOFT_ENTRY, GEN_SOFT_EXIT };

struct _FtlSched {
	FtlSchedOptions opt;
	GArray *cpus;	     /* SchedCpu by cpu */
	GHashTable *tasks;   /* pid -> SchedTask* */
	GPtrArray *accs;     /* SchedAcc*; 0 is the whole trace */
	GHashTable *generic; /* interned event name -> GEN_* + 1 */
	GHashTable *names;   /* interrupt handler names, owned */
	GArray *on_iv, *on_wake;
	gint64 first_ts, last_ts;
	guint64 wakeups_seen; /* wakeup events so far: the trace records them */
	gboolean old_states;  /* numeric states of a kernel before 4.14 seen */
	SchedTask *last; /* the task asked for last */
	const FtlEvent *ev; /* the event fed now, NULL at the end */
	/* the input, known from the events' source: its CPU statistics give
	 * the whole trace's lost events (ftl_trace_cpu_lost) */
	const FtlTrace *trace;
};

static const char *const softirq_names[] = { "HI",	 "TIMER",   "NET_TX", "NET_RX",	 "BLOCK",
					     "IRQ_POLL", "TASKLET", "SCHED",  "HRTIMER", "RCU" };

const char *ftl_sched_softirq_name(gint32 vec)
{
	return vec >= 0 && vec < (gint32)G_N_ELEMENTS(softirq_names) ? softirq_names[vec] : NULL;
}

/* A numeric state (trace-cmd without the print format) as a number. */
static gboolean sched_state_num(FtlSlice state, gint64 *v)
{
	return state.len && g_ascii_isdigit(state.p[0]) && ftl_slice_to_i64(state, v);
}

/* Before 4.14 a preemption was reported as TASK_STATE_MAX, one bit above
 * every real state (1024 .. 4096 depending on the version). */
static gboolean sched_state_max_bit(gint64 v)
{
	return v >= 1024 && (v & (v - 1)) == 0;
}

gboolean ftl_sched_state_runnable(FtlSlice state)
{
	if (!state.len)
		return FALSE;
	if (state.p[0] == 'R')
		return TRUE;
	/* Numeric states: 0 is running; a preemption is TASK_STATE_MAX
	 * before 4.14, TASK_REPORT_MAX (256) since (before 4.14 the waking
	 * state, which no task is switched out in). */
	gint64 v;
	return sched_state_num(state, &v) && (v == 0 || v == 256 || sched_state_max_bit(v));
}

/* A numeric state is a kernel of before 4.14 when it is a preemption
 * reported as TASK_STATE_MAX. */
static gboolean sched_state_old_preempt(FtlSlice state)
{
	gint64 v;
	return sched_state_num(state, &v) && sched_state_max_bit(v);
}

static SwitchOut sched_out_state(FtlSlice state, gboolean *numeric_64)
{
	*numeric_64 = FALSE;
	if (!state.len)
		return OUT_UNKNOWN;
	if (ftl_sched_state_runnable(state))
		return OUT_PREEMPTED;
	if (state.p[0] == 'X' || state.p[0] == 'x' || state.p[0] == 'Z')
		return OUT_DEAD;
	/* Numeric states: 16 and 32 are EXIT_DEAD and EXIT_ZOMBIE (or the
	 * other way round, 2.6) on every kernel; 64 is TASK_DEAD ("x") before
	 * 4.14 and TASK_PARKED ("P", a sleep) since, which the trace's own
	 * preemptions tell apart (sched_finish) */
	gint64 v;
	if (sched_state_num(state, &v)) {
		if (v == 16 || v == 32)
			return OUT_DEAD;
		*numeric_64 = v == 64;
	}
	return OUT_SLEEP;
}

/* ---- windows -------------------------------------------------------------- */

static guint irq_hash(gconstpointer p)
{
	const FtlSchedIrq *q = p;
	return g_direct_hash(q->name) ^ ((guint)q->id * 31u) ^ (guint)q->kind;
}

static gboolean irq_equal(gconstpointer a, gconstpointer b)
{
	const FtlSchedIrq *x = a, *y = b;
	return x->kind == y->kind && x->id == y->id && x->name == y->name;
}

static SchedAcc *sched_acc_new(const char *label, gint64 w0, gint64 w1)
{
	SchedAcc *a = g_new0(SchedAcc, 1);
	a->label = g_strdup(label);
	a->pub.label = a->label;
	a->w0 = w0;
	a->w1 = w1;
	a->tasks = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	a->cpus = g_array_new(FALSE, TRUE, sizeof(FtlSchedCpu));
	a->irqs = g_hash_table_new_full(irq_hash, irq_equal, g_free, NULL);
	a->worst = g_array_new(FALSE, FALSE, sizeof(FtlSchedWakeup));
	for (guint i = 0; i < FTL_SCHED_LAT_N; i++) {
		a->pub.lat[i].histo = ftl_histo_new();
		a->pub.lat[i].max_ts = FTL_TS_NONE;
	}
	return a;
}

static void sched_acc_free(gpointer p)
{
	SchedAcc *a = p;
	g_hash_table_unref(a->tasks);
	g_array_unref(a->cpus);
	g_hash_table_unref(a->irqs);
	g_array_unref(a->worst);
	for (guint i = 0; i < FTL_SCHED_LAT_N; i++)
		ftl_histo_free(a->pub.lat[i].histo);
	g_free(a->pub.tasks);
	g_free(a->pub.cpus);
	g_free(a->pub.irqs);
	g_free(a->label);
	g_free(a);
}

static gboolean acc_has(const SchedAcc *a, gint64 t)
{
	return t >= a->w0 && t <= a->w1;
}

/* Clips [*t0, *t1) to the window; FALSE when nothing is left. */
static gboolean acc_clip(const SchedAcc *a, gint64 *t0, gint64 *t1)
{
	*t0 = MAX(*t0, a->w0);
	*t1 = MIN(*t1, a->w1);
	return *t1 > *t0;
}

static FtlSchedTask *acc_task(SchedAcc *a, gint32 pid)
{
	/* a switch asks for the same task several times in a row */
	if (a->last && a->last->pid == pid)
		return a->last;
	FtlSchedTask *t = g_hash_table_lookup(a->tasks, GINT_TO_POINTER(pid));
	if (!t) {
		t = g_new0(FtlSchedTask, 1);
		t->pid = pid;
		t->prio = -1;
		t->lat_max = t->lat_max_ts = FTL_TS_NONE;
		g_hash_table_insert(a->tasks, GINT_TO_POINTER(pid), t);
	}
	return a->last = t;
}

static void acc_cpu_init(gpointer slot, guint idx)
{
	FtlSchedCpu *c = slot;
	c->cpu = (gint32)idx;
	c->t0 = c->t1 = FTL_TS_NONE;
}

static FtlSchedCpu *acc_cpu(SchedAcc *a, gint32 cpu)
{
	if ((guint)cpu < a->cpus->len)
		return &g_array_index(a->cpus, FtlSchedCpu, cpu);
	return ftl_slots_grow(a->cpus, (guint)cpu, acc_cpu_init);
}

#define ACC(s, i) ((SchedAcc *)g_ptr_array_index((s)->accs, (i)))

/* Counts one at t in every window that holds t: field is a guint64 of
 * FtlSchedScope, by offset. */
static void acc_count(FtlSched *s, gint64 t, gsize field)
{
	for (guint i = 0; i < s->accs->len; i++)
		if (acc_has(ACC(s, i), t))
			G_STRUCT_MEMBER(guint64, &ACC(s, i)->pub, field)++;
}

/* ---- state ---------------------------------------------------------------- */

static void sched_cpu_init(gpointer slot, guint idx)
{
	SchedCpu *c = slot;
	(void)idx;
	c->cur = c->comm_pid = -1;
	c->first_ts = c->last_ts = c->since = FTL_TS_NONE;
}

static SchedCpu *sched_cpu(FtlSched *s, gint32 cpu)
{
	if ((guint)cpu < s->cpus->len)
		return &g_array_index(s->cpus, SchedCpu, cpu);
	return ftl_slots_grow(s->cpus, (guint)cpu, sched_cpu_init);
}

static SchedTask *sched_task(FtlSched *s, gint32 pid)
{
	if (s->last && s->last->pid == pid)
		return s->last;
	SchedTask *t = g_hash_table_lookup(s->tasks, GINT_TO_POINTER(pid));
	if (!t) {
		t = g_new0(SchedTask, 1);
		t->pid = pid;
		t->cpu = t->last_cpu = t->since_cpu = -1;
		t->prio = -1;
		t->since = t->wake_ts = t->out_ts = FTL_TS_NONE;
		g_hash_table_insert(s->tasks, GINT_TO_POINTER(pid), t);
	}
	return s->last = t;
}

static void sched_task_note(FtlSched *s, gint32 pid, const char *comm, gint32 prio)
{
	if (pid <= 0)
		return;
	SchedTask *t = sched_task(s, pid);
	if (comm)
		t->comm = comm;
	if (prio >= 0)
		t->prio = prio;
}

static const char *sched_comm(FtlSched *s, gint32 pid)
{
	if (pid <= 0)
		return NULL;
	SchedTask *t = g_hash_table_lookup(s->tasks, GINT_TO_POINTER(pid));
	return t ? t->comm : NULL;
}

static void sched_notify(FtlSched *s, const FtlSchedInterval *iv)
{
	for (guint i = 0; i < s->on_iv->len; i++) {
		SchedListener *l = &g_array_index(s->on_iv, SchedListener, i);
		((FtlSchedIntervalFunc)l->fn)(iv, l->data);
	}
}

/* ---- intervals ------------------------------------------------------------ */

static void emit_run(FtlSched *s, gint32 cpu, gint32 pid, gint64 t0, gint64 t1)
{
	if (t1 <= t0)
		return;
	if (s->on_iv->len) {
		FtlSchedInterval iv = { .kind = FTL_SCHED_IV_RUN,
					.cpu = cpu,
					.pid = pid,
					.comm = sched_comm(s, pid),
					.id = -1,
					.t0 = t0,
					.t1 = t1,
					.event_cpu = -1,
					.run_cpu = -1 };
		sched_notify(s, &iv);
	}
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		gint64 a0 = t0, a1 = t1;
		if (!acc_clip(a, &a0, &a1))
			continue;
		FtlSchedCpu *c = acc_cpu(a, cpu);
		if (pid > 0) {
			c->busy_ns += a1 - a0;
			acc_task(a, pid)->run_ns += a1 - a0;
		} else if (pid == 0) {
			c->idle_ns += a1 - a0;
		} else {
			c->unknown_ns += a1 - a0;
		}
	}
}

/* A task's wait (runnable) or sleep, ended at t1 by a switch on run_cpu
 * (-1: by something else). */
static void emit_task(FtlSched *s, FtlSchedIvKind kind, const SchedTask *t, gint64 t1,
		      gint32 run_cpu)
{
	if (t->since == FTL_TS_NONE || t1 <= t->since)
		return;
	FtlSchedInterval iv = { .kind = kind,
				.cpu = kind == FTL_SCHED_IV_WAIT ? t->cpu : -1,
				.pid = t->pid,
				.comm = t->comm,
				.id = -1,
				.t0 = t->since,
				.t1 = t1,
				.event = t->since_event,
				.event_cpu = t->since_cpu,
				.run_cpu = run_cpu };
	sched_notify(s, &iv);
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		gint64 a0 = t->since, a1 = t1;
		if (!acc_clip(a, &a0, &a1))
			continue;
		FtlSchedTask *at = acc_task(a, t->pid);
		if (kind == FTL_SCHED_IV_WAIT)
			at->wait_ns += a1 - a0;
		else
			at->sleep_ns += a1 - a0;
	}
}

static void emit_irq(FtlSched *s, FtlSchedIrqKind kind, gint32 cpu, gint32 id, const char *name,
		     gint64 t0, gint64 t1)
{
	FtlSchedInterval iv = { .kind = kind == FTL_SCHED_HARDIRQ ? FTL_SCHED_IV_HARDIRQ
								 : FTL_SCHED_IV_SOFTIRQ,
				.cpu = cpu,
				.pid = -1,
				.id = id,
				.t0 = t0,
				.t1 = t1,
				.event_cpu = -1,
				.run_cpu = -1 };
	sched_notify(s, &iv);
	gint64 d = MAX(t1 - t0, 0);
	FtlSchedIrq key = { .kind = kind, .id = id, .name = name };
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		if (!acc_has(a, t1))
			continue;
		FtlSchedIrq *q = g_hash_table_lookup(a->irqs, &key);
		if (!q) {
			q = g_memdup2(&key, sizeof key);
			q->min_ns = q->max_ns = q->max_ts = FTL_TS_NONE;
			g_hash_table_add(a->irqs, q);
		}
		q->count++;
		q->total_ns += d;
		if (q->min_ns == FTL_TS_NONE || d < q->min_ns)
			q->min_ns = d;
		if (q->max_ns == FTL_TS_NONE || d > q->max_ns) {
			q->max_ns = d;
			q->max_ts = t1;
		}
		FtlSchedCpu *c = acc_cpu(a, cpu);
		if (kind == FTL_SCHED_HARDIRQ)
			c->hardirq_ns += d;
		else
			c->softirq_ns += d;
	}
}

static void acc_irq_unpaired(FtlSched *s, gint64 t)
{
	acc_count(s, t, G_STRUCT_OFFSET(FtlSchedScope, irq_unpaired));
}

/* ---- wakeups -------------------------------------------------------------- */

static void acc_add_worst(SchedAcc *a, guint cap, const FtlSchedWakeup *w)
{
	guint n = a->worst->len;
	if (!cap ||
	    (n == cap && g_array_index(a->worst, FtlSchedWakeup, n - 1).latency >= w->latency))
		return;
	guint i = n;
	/* ties keep trace order: the earlier stays ahead */
	while (i > 0 && g_array_index(a->worst, FtlSchedWakeup, i - 1).latency < w->latency)
		i--;
	g_array_insert_val(a->worst, i, *w);
	if (a->worst->len > cap)
		g_array_set_size(a->worst, cap);
}

static void acc_add_latency(SchedAcc *a, guint cap, const FtlSchedWakeup *w)
{
	FtlSchedLatClass cls =
		w->prio >= 0 && w->prio < 100 ? FTL_SCHED_LAT_RT : FTL_SCHED_LAT_NORMAL;
	FtlSchedLatClass both[2] = { FTL_SCHED_LAT_ALL, cls };
	for (guint i = 0; i < 2; i++) {
		FtlSchedLatency *l = &a->pub.lat[both[i]];
		if (!ftl_histo_count(l->histo) || w->latency > ftl_histo_max(l->histo))
			l->max_ts = w->ts;
		ftl_histo_add(l->histo, w->latency);
	}
	FtlSchedTask *t = acc_task(a, w->pid);
	t->wakeups++;
	t->lat_sum += w->latency;
	if (t->lat_max == FTL_TS_NONE || w->latency > t->lat_max) {
		t->lat_max = w->latency;
		t->lat_max_ts = w->ts;
	}
	acc_add_worst(a, cap, w);
}

/* The switch at t on cpu ran task n, woken before. */
static void sched_served(FtlSched *s, SchedTask *n, gint32 cpu, gint64 t, gint32 prio)
{
	FtlSchedWakeup w = { t,	      n->wake_ts,  t - n->wake_ts, cpu,		  n->pid,
			     n->comm, prio,	   n->waker_pid,   n->waker_comm, n->waker_cpu,
			     n->restarted, n->wake_event };
	for (guint i = 0; i < s->on_wake->len; i++) {
		SchedListener *l = &g_array_index(s->on_wake, SchedListener, i);
		((FtlSchedWakeupFunc)l->fn)(&w, l->data);
	}
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		if (acc_has(a, t))
			acc_add_latency(a, s->opt.worst, &w);
		else if (acc_has(a, n->wake_ts))
			a->pub.wakeups_unserved++;
	}
	n->wake_ts = FTL_TS_NONE;
}

/* An inferred switch-out of t, classified now: counted in the windows
 * that hold the switch. */
static void sched_classify_out(FtlSched *s, SchedTask *t, SwitchOut out)
{
	if (t->out_ts == FTL_TS_NONE)
		return;
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		if (!acc_has(a, t->out_ts))
			continue;
		FtlSchedTask *at = acc_task(a, t->pid);
		if (out == OUT_PREEMPTED)
			at->preempted++;
		else if (out == OUT_SLEEP)
			at->voluntary++;
		else
			at->unknown++;
	}
	t->out_ts = FTL_TS_NONE;
}

/* A wakeup of pid (by: WAKE_BY_*) at ev. */
static void sched_wakeup(FtlSched *s, const FtlEvent *ev, gint32 pid, gint32 prio, guint by)
{
	if (pid <= 0)
		return;
	SchedTask *t = sched_task(s, pid);
	if (prio >= 0)
		t->prio = prio;
	acc_count(s, ev->ts, G_STRUCT_OFFSET(FtlSchedScope, n_wakeup_events));
	s->wakeups_seen++;
	/* woken: a switch-out not recorded was a sleep */
	sched_classify_out(s, t, OUT_SLEEP);
	/* sched_waking and sched_wakeup of one wakeup, in either order */
	if (t->wake_by && !(t->wake_by & by) &&
	    (t->wake_ts != FTL_TS_NONE || t->state == TASK_RUNNING || t->state == TASK_RUNNABLE)) {
		t->wake_by |= by;
		return;
	}
	if (t->wake_ts == FTL_TS_NONE &&
	    (t->state == TASK_RUNNING || t->state == TASK_RUNNABLE)) {
		/* a task that had not gone to sleep yet, or a preempted one: no
		 * latency to measure */
		t->wake_by = by;
		acc_count(s, ev->ts, G_STRUCT_OFFSET(FtlSchedScope, wakeups_of_runnable));
		return;
	}
	t->restarted = t->wake_ts != FTL_TS_NONE;
	if (t->restarted) {
		/* woken again before it ran: the kernel wakes a task that is
		 * not running, so it ran and slept in between without a
		 * record; the latency runs from this wakeup (trace-cmd report
		 * -w's rule) */
		acc_count(s, ev->ts, G_STRUCT_OFFSET(FtlSchedScope, wakeups_restarted));
	} else if (t->state == TASK_SLEEPING) {
		emit_task(s, FTL_SCHED_IV_SLEEP, t, ev->ts, -1);
	}
	t->state = TASK_RUNNABLE;
	t->since = ev->ts;
	t->since_event = ev->name;
	t->since_cpu = ev->cpu;
	t->cpu = -1;
	t->wake_ts = ev->ts;
	t->wake_by = by;
	t->waker_pid = ev->pid;
	t->waker_comm = ev->comm ? ev->comm : sched_comm(s, ev->pid);
	t->waker_cpu = ev->cpu;
	t->wake_event = ev->name;
}

/* ---- switches ------------------------------------------------------------- */

static void sched_switch_out(FtlSched *s, gint32 cpu, gint64 t, gint32 prev, SwitchOut out,
			     gboolean inferred)
{
	if (prev <= 0)
		return;
	SchedTask *p = sched_task(s, prev);
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		if (!acc_has(a, t))
			continue;
		FtlSchedTask *at = acc_task(a, prev);
		at->switches++;
		if (inferred)
			at->inferred++; /* classified by what follows */
		else if (out == OUT_PREEMPTED)
			at->preempted++;
		else if (out == OUT_SLEEP || out == OUT_DEAD)
			at->voluntary++;
		else
			at->unknown++;
	}
	/* one not classified yet stays unknown */
	sched_classify_out(s, p, OUT_UNKNOWN);
	if (inferred)
		p->out_ts = t;
	static const TaskState next_state[] = {
		[OUT_UNKNOWN] = TASK_UNKNOWN,
		[OUT_PREEMPTED] = TASK_RUNNABLE,
		[OUT_SLEEP] = TASK_SLEEPING,
		[OUT_DEAD] = TASK_DEAD,
	};
	p->state = next_state[out];
	p->since = t;
	p->since_event = inferred || !s->ev ? NULL : s->ev->name;
	p->since_cpu = cpu;
	p->cpu = cpu;
	/* a wakeup seen while it still ran (its state unknown, as at the
	 * trace's start) was no wait for a switch: it ran, and a switch in
	 * measured from that wakeup would count the time since as latency */
	if (p->wake_ts != FTL_TS_NONE)
		acc_count(s, p->wake_ts, G_STRUCT_OFFSET(FtlSchedScope, wakeups_of_runnable));
	p->wake_ts = FTL_TS_NONE;
}

static void sched_switch_in(FtlSched *s, gint32 cpu, gint64 t, gint32 next, gint32 prio,
			    gboolean inferred)
{
	if (next <= 0)
		return;
	SchedTask *n = sched_task(s, next);
	/* running again without a wakeup: a switch-out not recorded was a
	 * preemption, if the trace records wakeups at all */
	sched_classify_out(s, n, s->wakeups_seen ? OUT_PREEMPTED : OUT_UNKNOWN);
	n->wake_by = 0;
	if (n->state == TASK_RUNNABLE)
		emit_task(s, FTL_SCHED_IV_WAIT, n, t, cpu);
	if (n->wake_ts != FTL_TS_NONE && inferred) {
		/* the switch that ran it was not recorded: it ran at this
		 * event or before, a latency would be an upper bound only */
		acc_count(s, t, G_STRUCT_OFFSET(FtlSchedScope, wakeups_at_inferred));
		n->wake_ts = FTL_TS_NONE;
	} else if (n->wake_ts != FTL_TS_NONE) {
		sched_served(s, n, cpu, t, prio >= 0 ? prio : n->prio);
	} else if (n->state == TASK_SLEEPING) {
		acc_count(s, t, G_STRUCT_OFFSET(FtlSchedScope, switches_unwoken));
	}
	for (guint i = 0; n->last_cpu >= 0 && n->last_cpu != cpu && i < s->accs->len; i++)
		if (acc_has(ACC(s, i), t))
			acc_task(ACC(s, i), next)->migrations++;
	n->state = TASK_RUNNING;
	n->since = t;
	n->cpu = n->last_cpu = cpu;
}

/* inferred: no sched_switch says so (the task an event names changed) */
static void sched_switch(FtlSched *s, gint32 cpu, gint64 t, gint32 prev, SwitchOut out, gint32 next,
			 gint32 next_prio, gboolean inferred)
{
	SchedCpu *c = sched_cpu(s, cpu);
	/* the CPU's own idea of who ran wins: prev_pid only fills a gap */
	emit_run(s, cpu, c->cur >= 0 ? c->cur : prev, c->since, t);
	sched_switch_out(s, cpu, t, c->cur >= 0 ? c->cur : prev, out, inferred);
	sched_switch_in(s, cpu, t, next, next_prio, inferred);
	c = sched_cpu(s, cpu);
	c->cur = next;
	c->since = t;
	for (guint i = 0; i < s->accs->len; i++) {
		if (!acc_has(ACC(s, i), t))
			continue;
		FtlSchedCpu *ac = acc_cpu(ACC(s, i), cpu);
		ac->switches++;
		if (inferred)
			ac->switches_inferred++;
	}
}

/* ---- lost events ---------------------------------------------------------- */

static void sched_task_running(FtlSched *s, gint32 pid, gint32 cpu, gint64 t)
{
	if (pid <= 0)
		return;
	SchedTask *n = sched_task(s, pid);
	sched_classify_out(s, n, s->wakeups_seen ? OUT_PREEMPTED : OUT_UNKNOWN);
	if (n->state != TASK_UNKNOWN)
		return;
	n->state = TASK_RUNNING;
	n->since = t;
	n->cpu = n->last_cpu = cpu;
}

static void sched_lost(FtlSched *s, const FtlEvent *ev)
{
	if (ev->cpu < 0 || ev->cpu >= SCHED_MAX_CPU)
		return;
	SchedCpu *c = sched_cpu(s, ev->cpu);
	gint64 at = ev->ts != FTL_TS_NONE ? ev->ts : c->last_ts;
	for (guint i = 0; i < s->accs->len; i++) {
		SchedAcc *a = ACC(s, i);
		if (at != FTL_TS_NONE ? !acc_has(a, at) : a->w0 != G_MININT64)
			continue;
		FtlSchedCpu *ac = acc_cpu(a, ev->cpu);
		if (ev->kind != FTL_EVENT_LOST)
			continue;
		ac->lost_lines++;
		if (ev->u.lost.count)
			ac->lost_events = ftl_sat_add_i64(ac->lost_events,
							  ftl_sat_count_i64(ev->u.lost.count));
		else
			ac->lost_uncounted++;
	}
	if (!c->seen || c->lost)
		return;
	emit_run(s, ev->cpu, c->cur, c->since, c->last_ts);
	if (c->cur > 0) {
		SchedTask *t = sched_task(s, c->cur);
		if (t->state == TASK_RUNNING)
			t->state = TASK_UNKNOWN;
	}
	if (c->hard_depth || c->soft_on)
		acc_irq_unpaired(s, c->last_ts);
	c = sched_cpu(s, ev->cpu);
	c->lost = TRUE;
	c->lost_from = c->last_ts;
	c->hard_depth = 0;
	c->soft_on = FALSE;
}

/* The first event after lost ones: the gap is unknown, then pid runs. */
static void sched_resume(FtlSched *s, gint32 cpu, gint32 pid, gint64 t)
{
	SchedCpu *c = sched_cpu(s, cpu);
	gint64 from = c->lost_from;
	FtlSchedInterval iv = { .kind = FTL_SCHED_IV_LOST,
				.cpu = cpu,
				.pid = -1,
				.id = -1,
				.t0 = from,
				.t1 = t,
				.event_cpu = -1,
				.run_cpu = -1 };
	sched_notify(s, &iv);
	emit_run(s, cpu, -1, from, t);
	sched_task_running(s, pid, cpu, t);
	c = sched_cpu(s, cpu);
	c->lost = FALSE;
	c->cur = pid;
	c->since = t;
}

/* ---- interrupts ----------------------------------------------------------- */

static const char *sched_name(FtlSched *s, FtlSlice name)
{
	g_autofree char *k = g_strndup(name.p ? name.p : "", name.len);
	char *v = g_hash_table_lookup(s->names, k);
	if (!v) {
		v = g_steal_pointer(&k);
		g_hash_table_add(s->names, v);
	}
	return v;
}

static void sched_hardirq(FtlSched *s, SchedCpu *c, const FtlEvent *ev)
{
	if (ev->kind == FTL_EVENT_IRQ_ENTRY) {
		if (c->hard_depth++ == 0) {
			c->hard_start = ev->ts;
			c->hard_irq = ev->u.irq.irq;
			/* the name is borrowed from the record: keep a copy */
			if (!c->hard_name || strlen(c->hard_name) != ev->u.irq.name.len ||
			    (ev->u.irq.name.len && /* an arrow's empty name has no pointer */
			     memcmp(c->hard_name, ev->u.irq.name.p, ev->u.irq.name.len) != 0))
				c->hard_name = sched_name(s, ev->u.irq.name);
		}
		return;
	}
	if (!c->hard_depth) {
		acc_irq_unpaired(s, ev->ts);
		return;
	}
	if (--c->hard_depth == 0)
		emit_irq(s, FTL_SCHED_HARDIRQ, ev->cpu, c->hard_irq, c->hard_name, c->hard_start,
			 ev->ts);
}

static void sched_softirq(FtlSched *s, SchedCpu *c, const FtlEvent *ev, gboolean entry)
{
	gint64 vec = -1;
	if (!ftl_event_field_int(ev, "vec", &vec) || vec < 0 || vec > G_MAXINT32)
		vec = -1;
	if (entry) {
		if (c->soft_on)
			acc_irq_unpaired(s, ev->ts);
		c->soft_on = TRUE;
		c->soft_start = ev->ts;
		c->soft_vec = (gint32)vec;
		return;
	}
	if (!c->soft_on) {
		acc_irq_unpaired(s, ev->ts);
		return;
	}
	c->soft_on = FALSE;
	const char *name = ftl_sched_softirq_name(c->soft_vec);
	emit_irq(s, FTL_SCHED_SOFTIRQ, ev->cpu, c->soft_vec, name ? name : "", c->soft_start,
		 ev->ts);
}

/* ---- the pass ------------------------------------------------------------- */

FtlSched *ftl_sched_new(const FtlSchedOptions *opt)
{
	FtlSched *s = g_new0(FtlSched, 1);
	s->opt.worst = 10;
	if (opt)
		s->opt = *opt;
	s->cpus = g_array_new(FALSE, TRUE, sizeof(SchedCpu));
	s->tasks = g_hash_table_new_full(NULL, NULL, NULL, g_free);
	s->accs = g_ptr_array_new_with_free_func(sched_acc_free);
	s->generic = g_hash_table_new(NULL, NULL);
	s->names = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	s->on_iv = g_array_new(FALSE, FALSE, sizeof(SchedListener));
	s->on_wake = g_array_new(FALSE, FALSE, sizeof(SchedListener));
	s->first_ts = s->last_ts = FTL_TS_NONE;
	g_ptr_array_add(s->accs, sched_acc_new(NULL, G_MININT64, G_MAXINT64));
	return s;
}

void ftl_sched_free(FtlSched *s)
{
	if (!s)
		return;
	g_array_unref(s->cpus);
	g_hash_table_unref(s->tasks);
	g_ptr_array_unref(s->accs);
	g_hash_table_unref(s->generic);
	g_hash_table_unref(s->names);
	g_array_unref(s->on_iv);
	g_array_unref(s->on_wake);
	g_free(s);
}

void ftl_sched_add_window(FtlSched *s, const char *label, gint64 t0, gint64 t1)
{
	g_ptr_array_add(s->accs, sched_acc_new(label ? label : "", t0, t1));
}

void ftl_sched_add_on_interval(FtlSched *s, FtlSchedIntervalFunc fn, gpointer data)
{
	SchedListener l = { (gpointer)fn, data };
	g_array_append_val(s->on_iv, l);
}

void ftl_sched_add_on_wakeup(FtlSched *s, FtlSchedWakeupFunc fn, gpointer data)
{
	SchedListener l = { (gpointer)fn, data };
	g_array_append_val(s->on_wake, l);
}

static int sched_generic_kind(FtlSched *s, const char *name)
{
	if (!name)
		return GEN_OTHER;
	gpointer v = g_hash_table_lookup(s->generic, name);
	if (v)
		return GPOINTER_TO_INT(v) - 1;
	int k = GEN_OTHER;
	if (strcmp(name, "sched_waking") == 0)
		k = GEN_WAKING;
	else if (strcmp(name, "softirq_entry") == 0)
		k = GEN_SOFT_ENTRY;
	else if (strcmp(name, "softirq_exit") == 0)
		k = GEN_SOFT_EXIT;
	/* names are interned: the pointer is the key */
	g_hash_table_insert(s->generic, (gpointer)name, GINT_TO_POINTER(k + 1));
	return k;
}

static void sched_feed_switch(FtlSched *s, const FtlEvent *ev)
{
	sched_task_note(s, ev->u.sw.prev_pid, ev->u.sw.prev_comm, ev->u.sw.prev_prio);
	sched_task_note(s, ev->u.sw.next_pid, ev->u.sw.next_comm, ev->u.sw.next_prio);
	acc_count(s, ev->ts, G_STRUCT_OFFSET(FtlSchedScope, n_switch_events));
	gboolean numeric_64;
	SwitchOut out = sched_out_state(ev->u.sw.prev_state, &numeric_64);
	s->old_states |= sched_state_old_preempt(ev->u.sw.prev_state);
	sched_switch(s, ev->cpu, ev->ts, ev->u.sw.prev_pid, out, ev->u.sw.next_pid,
		     ev->u.sw.next_prio, FALSE);
	if (ev->u.sw.prev_pid > 0)
		sched_task(s, ev->u.sw.prev_pid)->out_64 = numeric_64;
}

/* Old kernels trace failed wakeups too, with success=0. Most payloads have
 * no success field at all: a substring search is cheaper than asking for the
 * field, which walks every key. */
static gboolean sched_wakeup_failed(const FtlEvent *ev)
{
	gint64 ok;
	if (ev->payload.len)
		return g_strstr_len(ev->payload.p, ev->payload.len, "success=0") != NULL &&
		       ftl_event_field_int(ev, "success", &ok) && ok == 0;
	return ftl_event_field_int(ev, "success", &ok) && ok == 0;
}

/* The wakeup tracers' own line ("  0:120:R   + [002]  5882: 94:R sleep"),
 * which the parser gives as a sched_wakeup. */
static guint sched_wakeup_by(const FtlEvent *ev)
{
	FtlSlice p = ev->payload;
	while (p.len && p.p[0] == ' ')
		p = (FtlSlice){ p.p + 1, p.len - 1 };
	return p.len && g_ascii_isdigit(p.p[0]) && g_strstr_len(p.p, p.len, " + [") ?
		       WAKE_BY_TRACER :
		       WAKE_BY_WAKEUP;
}

/* sched_waking's pid and prio, in one walk over a text payload. */
static gboolean sched_waking_fields(const FtlEvent *ev, gint32 *pid, gint32 *prio)
{
	gint64 p = -1, q = -1;
	if (ev->payload.len) {
		guint32 pos = 0;
		FtlSlice k, v;
		while (ftl_payload_next_field(ev->payload, &pos, &k, &v) && (p < 0 || q < 0)) {
			if (ftl_slice_eq(k, "pid") && !ftl_slice_to_i64(v, &p))
				p = -1;
			else if (ftl_slice_eq(k, "prio") && !ftl_slice_to_i64(v, &q))
				q = -1;
		}
	} else if (!ftl_event_field_int(ev, "pid", &p) || !ftl_event_field_int(ev, "prio", &q)) {
		q = -1;
	}
	*pid = p > 0 && p <= G_MAXINT32 ? (gint32)p : -1;
	*prio = q >= 0 && q <= G_MAXINT32 ? (gint32)q : -1;
	return *pid > 0;
}

static void sched_feed_kind(FtlSched *s, SchedCpu *c, const FtlEvent *ev)
{
	gint32 pid, prio;
	switch (ev->kind) {
	case FTL_EVENT_SCHED_SWITCH:
		sched_feed_switch(s, ev);
		break;
	case FTL_EVENT_SCHED_WAKEUP:
		sched_task_note(s, ev->u.wake.pid, ev->u.wake.comm, ev->u.wake.prio);
		if (!sched_wakeup_failed(ev))
			sched_wakeup(s, ev, ev->u.wake.pid, ev->u.wake.prio, sched_wakeup_by(ev));
		break;
	case FTL_EVENT_IRQ_ENTRY:
	case FTL_EVENT_IRQ_EXIT:
		acc_count(s, ev->ts, G_STRUCT_OFFSET(FtlSchedScope, n_irq_events));
		sched_hardirq(s, c, ev);
		break;
	case FTL_EVENT_GENERIC:
		switch (sched_generic_kind(s, ev->name)) {
		case GEN_WAKING:
			if (s->opt.wake_from == FTL_SCHED_WAKE_FIRST &&
			    sched_waking_fields(ev, &pid, &prio))
				sched_wakeup(s, ev, pid, prio, WAKE_BY_WAKING);
			break;
		case GEN_SOFT_ENTRY:
		case GEN_SOFT_EXIT:
			sched_softirq(s, c, ev, sched_generic_kind(s, ev->name) == GEN_SOFT_ENTRY);
			break;
		default:
			break;
		}
		break;
	default:
		break;
	}
}

void ftl_sched_feed(FtlSched *s, const FtlEvent *ev)
{
	s->ev = ev; /* borrowed until the next one: finish forgets it */
	if (!s->trace && ev->src)
		s->trace = ev->src->trace;
	if (ev->kind == FTL_EVENT_LOST || ev->kind == FTL_EVENT_BUFFER_START) {
		sched_lost(s, ev);
		return;
	}
	if (ev->ts == FTL_TS_NONE || ev->cpu < 0 || ev->cpu >= SCHED_MAX_CPU)
		return;
	if (s->first_ts == FTL_TS_NONE)
		s->first_ts = ev->ts;
	s->last_ts = MAX(s->last_ts, ev->ts);
	gint32 now = ev->kind == FTL_EVENT_SCHED_SWITCH ? ev->u.sw.prev_pid : ev->pid;
	SchedCpu *c = sched_cpu(s, ev->cpu);
	/* most events name the task the last one on this CPU named */
	if (ev->comm != c->comm || ev->pid != c->comm_pid) {
		sched_task_note(s, ev->pid, ev->comm, -1);
		c->comm = ev->comm;
		c->comm_pid = ev->pid;
	}
	if (!c->seen) {
		c->seen = TRUE;
		c->first_ts = c->since = ev->ts;
		c->cur = now;
		sched_task_running(s, now, ev->cpu, ev->ts);
	} else if (c->lost) {
		sched_resume(s, ev->cpu, now, ev->ts);
	}
	c = sched_cpu(s, ev->cpu);
	c->last_ts = ev->ts;
	/* The task an event names is the one running (an event's pid is the
	 * CPU's current task): without sched_switch, that is how a CPU switches
	 * (function_graph's separators and proc column); with it, a change
	 * means a switch that is not in the trace. */
	if (now >= 0 && now != c->cur) {
		acc_count(s, ev->ts, G_STRUCT_OFFSET(FtlSchedScope, switches_inferred));
		sched_switch(s, ev->cpu, ev->ts, c->cur, OUT_UNKNOWN, now, -1, TRUE);
	}
	sched_feed_kind(s, sched_cpu(s, ev->cpu), ev);
}

/* ---- results -------------------------------------------------------------- */

static gint sched_cmp_pid(gconstpointer a, gconstpointer b)
{
	gint32 x = GPOINTER_TO_INT(*(gconstpointer *)a), y = GPOINTER_TO_INT(*(gconstpointer *)b);
	return (x > y) - (x < y);
}

static gint sched_cmp_irq(gconstpointer a, gconstpointer b)
{
	const FtlSchedIrq *x = a, *y = b;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The keys of a pid-keyed table, in pid order. */
static GPtrArray *sched_sorted_pids(GHashTable *h)
{
	GPtrArray *keys = g_ptr_array_sized_new(g_hash_table_size(h));
	GHashTableIter it;
	gpointer k;
	g_hash_table_iter_init(&it, h);
	while (g_hash_table_iter_next(&it, &k, NULL))
		g_ptr_array_add(keys, k);
	g_ptr_array_sort(keys, sched_cmp_pid);
	return keys;
}

/* Closes what is still open at the trace's end, in pid order so that
 * listeners see the same sequence every run. */
static void sched_close(FtlSched *s)
{
	gint64 end = s->last_ts;
	for (guint i = 0; i < s->cpus->len; i++) {
		SchedCpu *c = sched_cpu(s, (gint32)i);
		if (!c->seen)
			continue;
		if (c->lost) {
			sched_resume(s, (gint32)i, -1, end);
			continue;
		}
		emit_run(s, (gint32)i, c->cur, c->since, end);
		if (c->hard_depth || c->soft_on)
			acc_irq_unpaired(s, end);
	}
	g_autoptr(GPtrArray) pids = sched_sorted_pids(s->tasks);
	for (guint i = 0; i < pids->len; i++) {
		SchedTask *t = g_hash_table_lookup(s->tasks, g_ptr_array_index(pids, i));
		/* a task switched out with 64 that never ran again died, on a
		 * kernel whose states say it is older than 4.14 */
		if (t->state == TASK_RUNNABLE)
			emit_task(s, FTL_SCHED_IV_WAIT, t, end, -1);
		else if (t->state == TASK_SLEEPING && !(t->out_64 && s->old_states))
			emit_task(s, FTL_SCHED_IV_SLEEP, t, end, -1);
		if (t->wake_ts != FTL_TS_NONE)
			acc_count(s, t->wake_ts, G_STRUCT_OFFSET(FtlSchedScope, wakeups_unserved));
		sched_classify_out(s, t, OUT_UNKNOWN);
	}
}

static void sched_acc_cpus(FtlSched *s, SchedAcc *a, gint64 w0, gint64 w1)
{
	GArray *out = g_array_new(FALSE, FALSE, sizeof(FtlSchedCpu));
	for (guint i = 0; i < s->cpus->len; i++) {
		SchedCpu *c = &g_array_index(s->cpus, SchedCpu, i);
		if (!c->seen)
			continue;
		FtlSchedCpu *ac = acc_cpu(a, (gint32)i);
		/* the marks in a window; the whole trace by the one rule */
		if (a->w0 == G_MININT64 && a->w1 == G_MAXINT64)
			ac->lost_events = ftl_trace_cpu_lost(s->trace, (gint)i,
							     (guint64)ac->lost_events,
							     ac->lost_uncounted);
		else if (ac->lost_uncounted)
			ac->lost_events = FTL_LOST_UNKNOWN;
		ac->t0 = MAX(c->first_ts, w0);
		ac->t1 = MAX(ac->t0, w1);
		if (ac->t1 > ac->t0 || ac->switches || ac->busy_ns || ac->lost_lines)
			g_array_append_val(out, *ac);
	}
	a->pub.n_cpus = out->len;
	a->pub.cpus = (FtlSchedCpu *)g_array_free(out, FALSE);
}

static void sched_acc_finish(FtlSched *s, SchedAcc *a)
{
	gint64 w0 = MAX(a->w0, s->first_ts), w1 = MIN(a->w1, s->last_ts);
	gboolean any = s->first_ts != FTL_TS_NONE && w0 <= w1;
	a->pub.t0 = any ? w0 : FTL_TS_NONE;
	a->pub.t1 = any ? w1 : FTL_TS_NONE;
	if (any)
		sched_acc_cpus(s, a, w0, w1);
	g_autoptr(GPtrArray) pids = sched_sorted_pids(a->tasks);
	a->pub.tasks = g_new0(FtlSchedTask, pids->len);
	for (guint i = 0; i < pids->len; i++) {
		FtlSchedTask *t = g_hash_table_lookup(a->tasks, g_ptr_array_index(pids, i));
		SchedTask *st = g_hash_table_lookup(s->tasks, g_ptr_array_index(pids, i));
		if (st) {
			t->comm = st->comm;
			t->prio = st->prio;
		}
		a->pub.tasks[a->pub.n_tasks++] = *t;
	}
	a->pub.irqs = g_new0(FtlSchedIrq, g_hash_table_size(a->irqs));
	GHashTableIter it;
	gpointer k;
	g_hash_table_iter_init(&it, a->irqs);
	while (g_hash_table_iter_next(&it, &k, NULL))
		a->pub.irqs[a->pub.n_irqs++] = *(FtlSchedIrq *)k;
	if (a->pub.n_irqs)
		qsort(a->pub.irqs, a->pub.n_irqs, sizeof(FtlSchedIrq), sched_cmp_irq);
	a->pub.worst = (FtlSchedWakeup *)a->worst->data;
	a->pub.n_worst = a->worst->len;
}

void ftl_sched_finish(FtlSched *s)
{
	s->ev = NULL;
	if (s->first_ts != FTL_TS_NONE)
		sched_close(s);
	for (guint i = 0; i < s->accs->len; i++)
		sched_acc_finish(s, ACC(s, i));
}

FTL_CONSUMER_DEFINE(sched, FtlSched);

guint ftl_sched_n_scopes(const FtlSched *s)
{
	return s->accs->len;
}

const FtlSchedScope *ftl_sched_scope(const FtlSched *s, guint i)
{
	return &((SchedAcc *)g_ptr_array_index(s->accs, i))->pub;
}
