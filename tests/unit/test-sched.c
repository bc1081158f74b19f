/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scheduling analysis, its histogram and time bins, and the event rate, on
 * events built by hand. */
#include "analysis/histo.h"
#include "analysis/rate.h"
#include "analysis/sched.h"
#include "analysis/timebins.h"
#include "evbuild.h"
#include "unit.h"

static FtlEvent sw(gint64 ts, gint32 cpu, gint32 prev, const char *state, gint32 next)
{
	static const char *const names[] = { "swapper", "a", "b" };
	FtlEvent ev = evb_switch(ts, cpu, prev ? "t" : names[0], prev, next ? "t" : names[0], next);
	ev.u.sw.prev_state = (FtlSlice){ state, (guint32)strlen(state) };
	ev.u.sw.prev_comm = evb_intern(prev == 100 ? "a" : prev == 200 ? "b" : "swapper");
	ev.u.sw.next_comm = evb_intern(next == 100 ? "a" : next == 200 ? "b" : "swapper");
	return ev;
}

static void feed(FtlSched *s, FtlEvent ev)
{
	ftl_sched_feed(s, &ev);
}

static const FtlSchedTask *task(const FtlSchedScope *sc, gint32 pid)
{
	for (guint i = 0; i < sc->n_tasks; i++)
		if (sc->tasks[i].pid == pid)
			return &sc->tasks[i];
	return NULL;
}

static const FtlSchedCpu *cpu(const FtlSchedScope *sc, gint32 c)
{
	for (guint i = 0; i < sc->n_cpus; i++)
		if (sc->cpus[i].cpu == c)
			return &sc->cpus[i];
	return NULL;
}

/* Two CPUs, one wakeup, a preemption, a migration, an interrupt. */
static void feed_basic(FtlSched *s)
{
	feed(s, evb_wakeup(1000, 0, 0, "a", 100, 0));
	feed(s, sw(1500, 0, 0, "R", 100));
	feed(s, sw(2500, 0, 100, "S", 0));
	feed(s, sw(3000, 1, 200, "R+", 100));
	FtlEvent irq = evb_irq(3500, 1, 100, TRUE);
	irq.u.irq.irq = 5;
	irq.u.irq.name = (FtlSlice){ "eth0", 4 };
	feed(s, irq);
	irq = evb_irq(3600, 1, 100, FALSE);
	irq.u.irq.irq = 5;
	feed(s, irq);
	feed(s, sw(4000, 1, 100, "R+", 200));
	feed(s, evb_generic(5000, 0, 0, "swapper", "cpu_idle", "state=1"));
}

static void test_basic(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed_basic(s);
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	CU_ASSERT_EQUAL(sc->t0, 1000);
	CU_ASSERT_EQUAL(sc->t1, 5000);
	const FtlSchedCpu *c0 = cpu(sc, 0), *c1 = cpu(sc, 1);
	CU_ASSERT_FATAL(c0 && c1);
	CU_ASSERT_EQUAL(c0->busy_ns, 1000);
	CU_ASSERT_EQUAL(c0->idle_ns, 3000);
	CU_ASSERT_EQUAL(c0->busy_ns + c0->idle_ns + c0->unknown_ns, c0->t1 - c0->t0);
	CU_ASSERT_EQUAL(c1->t0, 3000);
	CU_ASSERT_EQUAL(c1->busy_ns, 2000);
	CU_ASSERT_EQUAL(c1->idle_ns, 0);
	CU_ASSERT_EQUAL(c1->hardirq_ns, 100);
	const FtlSchedTask *a = task(sc, 100), *b = task(sc, 200);
	CU_ASSERT_FATAL(a && b);
	CU_ASSERT_STRING_EQUAL(a->comm, "a");
	CU_ASSERT_EQUAL(a->run_ns, 2000);
	CU_ASSERT_EQUAL(a->wait_ns, 500 + 1000);
	CU_ASSERT_EQUAL(a->switches, 2);
	CU_ASSERT_EQUAL(a->voluntary, 1);
	CU_ASSERT_EQUAL(a->preempted, 1);
	CU_ASSERT_EQUAL(a->migrations, 1);
	CU_ASSERT_EQUAL(a->wakeups, 1);
	CU_ASSERT_EQUAL(a->lat_max, 500);
	CU_ASSERT_EQUAL(a->lat_max_ts, 1500);
	CU_ASSERT_EQUAL(b->run_ns, 1000);
	CU_ASSERT_EQUAL(b->wait_ns, 1000);
	CU_ASSERT_EQUAL(b->preempted, 1);
	CU_ASSERT_EQUAL(task(sc, 0), NULL);
	/* the second run of a followed a sleep without a wakeup in the trace */
	CU_ASSERT_EQUAL(sc->switches_unwoken, 1);
	CU_ASSERT_EQUAL(ftl_histo_count(sc->lat[FTL_SCHED_LAT_ALL].histo), 1);
	CU_ASSERT_EQUAL(ftl_histo_count(sc->lat[FTL_SCHED_LAT_NORMAL].histo), 1);
	CU_ASSERT_EQUAL(ftl_histo_count(sc->lat[FTL_SCHED_LAT_RT].histo), 0);
	CU_ASSERT_EQUAL(sc->n_worst, 1);
	CU_ASSERT_EQUAL(sc->worst[0].latency, 500);
	CU_ASSERT_EQUAL(sc->worst[0].wake_ts, 1000);
	CU_ASSERT_EQUAL(sc->n_irqs, 1);
	CU_ASSERT_EQUAL(sc->irqs[0].id, 5);
	CU_ASSERT_STRING_EQUAL(sc->irqs[0].name, "eth0");
	CU_ASSERT_EQUAL(sc->irqs[0].max_ns, 100);
	CU_ASSERT_EQUAL(sc->switches_inferred, 0);
}

static void test_window(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	ftl_sched_add_window(s, "w", 1500, 3000);
	feed_basic(s);
	ftl_sched_finish(s);
	CU_ASSERT_EQUAL_FATAL(ftl_sched_n_scopes(s), 2);
	const FtlSchedScope *sc = ftl_sched_scope(s, 1);
	CU_ASSERT_STRING_EQUAL(sc->label, "w");
	CU_ASSERT_EQUAL(sc->t0, 1500);
	CU_ASSERT_EQUAL(sc->t1, 3000);
	const FtlSchedCpu *c0 = cpu(sc, 0);
	CU_ASSERT_FATAL(c0 != NULL);
	CU_ASSERT_EQUAL(c0->busy_ns, 1000);
	CU_ASSERT_EQUAL(c0->idle_ns, 500);
	CU_ASSERT_EQUAL(task(sc, 100)->run_ns, 1000);
	CU_ASSERT_EQUAL(task(sc, 100)->sleep_ns, 0);
	CU_ASSERT_EQUAL(ftl_histo_count(sc->lat[FTL_SCHED_LAT_ALL].histo), 1);
	CU_ASSERT_EQUAL(sc->n_irqs, 0);
}

static FtlEvent waking(gint64 ts, gint32 cpu, const char *payload)
{
	return evb_generic(ts, cpu, 0, "swapper", "sched_waking", payload);
}

/* A trace where task 100 ("a") went to sleep at 100, measuring from
 * sched_waking (from 0) or sched_wakeup (1). */
static FtlSched *sched_asleep(int from)
{
	FtlSchedOptions o = { .wake_from = from ? FTL_SCHED_WAKE_WAKEUP : FTL_SCHED_WAKE_FIRST,
			      .worst = 3 };
	FtlSched *s = ftl_sched_new(&o);
	feed(s, sw(100, 0, 100, "S", 0));
	return s;
}

static void test_waking(void)
{
	for (int from = 0; from < 2; from++) {
		g_autoptr(FtlSched) s = sched_asleep(from);
		feed(s, waking(1000, 0, "comm=a pid=100 prio=10 target_cpu=000"));
		FtlEvent w = evb_wakeup(1200, 0, 0, "a", 100, 0);
		w.u.wake.prio = 10;
		feed(s, w);
		FtlEvent ev = sw(2000, 0, 0, "R", 100);
		ev.u.sw.next_prio = 10;
		feed(s, ev);
		ftl_sched_finish(s);
		const FtlSchedScope *sc = ftl_sched_scope(s, 0);
		CU_ASSERT_EQUAL(sc->worst[0].latency, from ? 800 : 1000);
		CU_ASSERT_EQUAL(ftl_histo_count(sc->lat[FTL_SCHED_LAT_RT].histo), 1);
		CU_ASSERT_EQUAL(sc->wakeups_of_runnable, 0);
		CU_ASSERT_EQUAL(task(sc, 100)->sleep_ns, from ? 1100 : 900);
	}
}

/* A task still on its CPU when it is woken (it had not switched out
 * yet; at the trace's start its state is unknown) is not waiting for a
 * switch: once it switches out, that wakeup measures nothing, and a later
 * wakeup while it waits preempted does not either. (The wakeup was kept,
 * and its next switch in showed a latency from it; trace-cmd report -w
 * differed on a live capture.) */
static void test_woken_while_running(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, evb_wakeup(1000, 0, 0, "a", 100, 0));
	feed(s, sw(1100, 1, 100, "R+", 0));
	feed(s, evb_wakeup(5000, 0, 0, "a", 100, 0));
	feed(s, sw(5005, 1, 0, "R", 100));
	feed(s, sw(6000, 1, 100, "S", 0));
	feed(s, evb_wakeup(7000, 0, 0, "a", 100, 0));
	feed(s, sw(7010, 1, 0, "R", 100));
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	CU_ASSERT_EQUAL(task(sc, 100)->wakeups, 1);
	CU_ASSERT_EQUAL(sc->worst[0].latency, 10);
	CU_ASSERT_EQUAL(sc->wakeups_of_runnable, 2); /* at 1000 and 5000 */
}

/* A task woken twice before it runs: its switch-in and sleep in between
 * were not recorded (the kernel wakes only a task that is not running).
 * The latency restarts at the later wakeup, as trace-cmd report -w does,
 * and is counted; the waking and the wakeup of one wakeup, in either
 * order, are one wakeup, not a restart. */
static void test_restart(void)
{
	for (int from = 0; from < 2; from++) {
		g_autoptr(FtlSched) s = sched_asleep(from);
		feed(s, waking(1000, 1, "comm=a pid=100 prio=120 target_cpu=001"));
		feed(s, evb_wakeup(1004, 1, 0, "a", 100, 1));
		/* its run on CPU 2 is not in the trace: woken again 94 ms on */
		feed(s, evb_wakeup(94001000, 1, 0, "a", 100, 0)); /* before its waking */
		feed(s, waking(94001002, 1, "comm=a pid=100 prio=120 target_cpu=000"));
		feed(s, sw(94001060, 0, 0, "R", 100));
		ftl_sched_finish(s);
		const FtlSchedScope *sc = ftl_sched_scope(s, 0);
		CU_ASSERT_EQUAL(sc->wakeups_restarted, 1);
		CU_ASSERT_EQUAL(sc->wakeups_of_runnable, 0);
		CU_ASSERT_EQUAL_FATAL(sc->n_worst, 1);
		CU_ASSERT_EQUAL(sc->worst[0].latency, 60);
		CU_ASSERT_EQUAL(sc->worst[0].wake_ts, 94001000);
		CU_ASSERT_TRUE(sc->worst[0].restarted);
		CU_ASSERT_EQUAL(task(sc, 100)->wakeups, 1);
		/* the time between the wakeups is neither wait nor sleep */
		CU_ASSERT_EQUAL(task(sc, 100)->wait_ns, 60);
		CU_ASSERT_EQUAL(task(sc, 100)->sleep_ns, from ? 904 : 900);
	}
}

/* A clean wakeup is not restarted; the wakeup tracers' "+" line and the
 * sched_wakeup event of one wakeup are one; a waking and a wakeup of a
 * running task count once as a wakeup of a runnable one. */
static void test_one_wakeup(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, sw(100, 0, 100, "S", 0));
	FtlEvent plus = evb_wakeup(1000, 0, 0, "a", 100, 0);
	plus.payload = (FtlSlice){ "     0:120:R   + [000]   100:120:S a", 36 };
	feed(s, plus);
	feed(s, evb_wakeup(1001, 0, 0, "a", 100, 0));
	feed(s, sw(1006, 0, 0, "R", 100));
	feed(s, waking(2000, 1, "comm=a pid=100 prio=120 target_cpu=000"));
	feed(s, evb_wakeup(2001, 1, 0, "a", 100, 0));
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	CU_ASSERT_EQUAL(sc->wakeups_restarted, 0);
	CU_ASSERT_EQUAL(sc->worst[0].latency, 6);
	CU_ASSERT_FALSE(sc->worst[0].restarted);
	CU_ASSERT_EQUAL(sc->wakeups_of_runnable, 1);
}

/* Switch-outs the trace did not record, classified by what follows:
 * woken before it runs again, voluntary; running again without a wakeup,
 * preempted (the trace records wakeups); nothing more, unknown. A wakeup
 * served by an inferred switch measures nothing. The CPU counts recorded
 * and inferred switches apart. */
static void test_inferred_out(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, sw(100, 0, 0, "R", 100));
	feed(s, evb_wakeup(150, 1, 0, "x", 300, 1));
	feed(s, evb_generic(200, 0, 200, "b", "x", "")); /* 100 out, 200 in */
	feed(s, evb_wakeup(300, 1, 0, "a", 100, 0));	  /* 100 slept */
	feed(s, sw(400, 0, 200, "R+", 100));
	feed(s, evb_generic(500, 0, 300, "c", "x", "")); /* 100 out, 300 in */
	feed(s, evb_generic(600, 0, 100, "a", "x", "")); /* 300 out, 100 in */
	feed(s, evb_generic(700, 0, 200, "b", "x", "")); /* 100 out, 200 in */
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	const FtlSchedTask *a = task(sc, 100), *c = task(sc, 300);
	CU_ASSERT_FATAL(a && c);
	CU_ASSERT_EQUAL(a->switches, 3);
	CU_ASSERT_EQUAL(a->inferred, 3);
	CU_ASSERT_EQUAL(a->voluntary, 1);
	CU_ASSERT_EQUAL(a->preempted, 1);
	CU_ASSERT_EQUAL(a->unknown, 1);
	CU_ASSERT_EQUAL(a->voluntary + a->preempted + a->unknown, a->switches);
	CU_ASSERT_EQUAL(c->switches, 1);
	CU_ASSERT_EQUAL(c->unknown, 1);
	CU_ASSERT_EQUAL(task(sc, 200)->preempted, 1); /* the recorded R+ */
	CU_ASSERT_EQUAL(sc->wakeups_at_inferred, 1);  /* 300 woken at 150, seen at 500 */
	CU_ASSERT_EQUAL(sc->n_worst, 1);	      /* 100: 300 -> 400 */
	CU_ASSERT_EQUAL(sc->worst[0].latency, 100);
	CU_ASSERT_EQUAL(cpu(sc, 0)->switches, 6);
	CU_ASSERT_EQUAL(cpu(sc, 0)->switches_inferred, 4);
	CU_ASSERT_EQUAL(sc->switches_inferred, 4);
}

static void test_unpaired(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, sw(100, 0, 100, "S", 0));
	feed(s, evb_wakeup(200, 0, 0, "a", 100, 0)); /* never runs again */
	feed(s, evb_wakeup(300, 0, 0, "b", 0, 0));   /* idle: not a task */
	FtlEvent ev = evb_wakeup(400, 0, 0, "a", 100, 0);
	ev.payload = (FtlSlice){ "success=0", 9 }; /* a failed wakeup of old kernels */
	feed(s, ev);
	feed(s, evb_irq(500, 0, 0, FALSE)); /* exit without entry */
	feed(s, evb_irq(600, 0, 0, TRUE));  /* entry left open */
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	CU_ASSERT_EQUAL(sc->wakeups_unserved, 1);
	CU_ASSERT_EQUAL(sc->wakeups_of_runnable, 0);
	CU_ASSERT_EQUAL(sc->irq_unpaired, 2);
	CU_ASSERT_EQUAL(task(sc, 100)->sleep_ns, 100);
	CU_ASSERT_EQUAL(task(sc, 100)->wait_ns, 400);
}

static void test_lost(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, sw(1000, 0, 0, "R", 100));
	feed(s, evb_generic(2000, 0, 100, "a", "x", ""));
	feed(s, evb_lost(0, 42));
	feed(s, evb_generic(5000, 0, 200, "b", "x", ""));
	feed(s, sw(6000, 0, 200, "S", 0));
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	const FtlSchedCpu *c = cpu(sc, 0);
	CU_ASSERT_EQUAL(c->unknown_ns, 3000);
	CU_ASSERT_EQUAL(c->busy_ns, 2000);
	CU_ASSERT_EQUAL(c->idle_ns, 0);
	CU_ASSERT_EQUAL(c->lost_events, 42);
	CU_ASSERT_EQUAL(c->lost_lines, 1);
	CU_ASSERT_EQUAL(task(sc, 100)->run_ns, 1000);
	CU_ASSERT_EQUAL(task(sc, 200)->run_ns, 1000);
}

static void test_inferred(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, evb_entry(100, 0, 10, "f", 0));
	feed(s, evb_exit(200, 0, 10, "f", 0, 100));
	feed(s, evb_task_switch(FTL_TS_NONE, 0, "p", 10, "swapper", 0));
	feed(s, evb_entry(300, 0, 0, "idle", 0));
	feed(s, evb_irq(320, 0, 0, TRUE));
	feed(s, evb_irq(330, 0, 0, FALSE));
	feed(s, evb_entry(400, 0, 20, "g", 0));
	feed(s, evb_exit(500, 0, 20, "g", 0, 100));
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	CU_ASSERT_EQUAL(sc->switches_inferred, 2);
	CU_ASSERT_EQUAL(task(sc, 10)->run_ns, 200);
	CU_ASSERT_EQUAL(task(sc, 10)->switches, 1);
	CU_ASSERT_EQUAL(task(sc, 10)->voluntary + task(sc, 10)->preempted, 0);
	CU_ASSERT_EQUAL(task(sc, 20)->run_ns, 100);
	CU_ASSERT_EQUAL(cpu(sc, 0)->idle_ns, 100);
	CU_ASSERT_EQUAL(sc->n_irqs, 1);
	CU_ASSERT_EQUAL(sc->irqs[0].id, -1);
	CU_ASSERT_EQUAL(sc->irqs[0].total_ns, 10);
}

static void test_softirq(void)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, evb_generic(100, 1, 5, "t", "softirq_entry", "vec=1 [action=TIMER]"));
	feed(s, evb_generic(130, 1, 5, "t", "softirq_exit", "vec=1 [action=TIMER]"));
	feed(s, evb_generic(140, 1, 5, "t", "softirq_entry", "vec=9 [action=RCU]"));
	feed(s, evb_generic(150, 1, 5, "t", "softirq_exit", "vec=9 [action=RCU]"));
	feed(s, evb_generic(160, 1, 5, "t", "softirq_entry", "vec=1 [action=TIMER]"));
	feed(s, evb_generic(170, 1, 5, "t", "softirq_exit", "vec=1 [action=TIMER]"));
	ftl_sched_finish(s);
	const FtlSchedScope *sc = ftl_sched_scope(s, 0);
	CU_ASSERT_EQUAL_FATAL(sc->n_irqs, 2);
	CU_ASSERT_EQUAL(sc->irqs[0].kind, FTL_SCHED_SOFTIRQ);
	CU_ASSERT_STRING_EQUAL(sc->irqs[0].name, "TIMER");
	CU_ASSERT_EQUAL(sc->irqs[0].count, 2);
	CU_ASSERT_EQUAL(sc->irqs[0].min_ns, 10);
	CU_ASSERT_EQUAL(sc->irqs[0].max_ns, 30);
	CU_ASSERT_EQUAL(sc->irqs[0].max_ts, 130);
	CU_ASSERT_STRING_EQUAL(sc->irqs[1].name, "RCU");
	CU_ASSERT_EQUAL(cpu(sc, 1)->softirq_ns, 50);
}

static void test_states(void)
{
	static const struct {
		const char *s;
		gboolean runnable;
	} cases[] = { { "R", TRUE },	{ "R+", TRUE }, { "0", TRUE },	{ "4096", TRUE },
		      { "1024", TRUE }, { "S", FALSE }, { "D", FALSE }, { "64", FALSE },
		      { "D|K", FALSE }, { "", FALSE },	{ "1", FALSE }, { "4097", FALSE },
		      { "512", FALSE }, { "256", TRUE }, { "0x100", TRUE }, { "0x800", TRUE } };
	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		FtlSlice st = { cases[i].s, (guint32)strlen(cases[i].s) };
		if (ftl_sched_state_runnable(st) != cases[i].runnable)
			CU_FAIL(cases[i].s);
	}
}

/* Numeric states: 64 is a death ("x") on a kernel whose preemptions say
 * it is older than 4.14, a parked task ("P", asleep) on a later one; 16
 * and 32 are deaths on every kernel. A dead task does not sleep until the
 * trace ends. */
static gint64 sleep_after(const char *preempt, const char *last)
{
	g_autoptr(FtlSched) s = ftl_sched_new(NULL);
	feed(s, sw(1000, 0, 0, "0", 100));
	feed(s, sw(2000, 0, 100, preempt, 200));
	feed(s, sw(3000, 0, 200, "0", 100));
	feed(s, sw(4000, 0, 100, last, 0));
	feed(s, sw(9000, 0, 0, "0", 200));
	ftl_sched_finish(s);
	const FtlSchedTask *a = task(ftl_sched_scope(s, 0), 100);
	CU_ASSERT_FATAL(a != NULL);
	CU_ASSERT_EQUAL(a->preempted, 1);
	CU_ASSERT_EQUAL(a->voluntary, 1);
	return a->sleep_ns;
}

static void test_numeric_dead(void)
{
	CU_ASSERT_EQUAL(sleep_after("2048", "64"), 0);	/* 4.x: x, dead */
	CU_ASSERT_EQUAL(sleep_after("0x800", "0x40"), 0); /* the same, as ftlens prints it */
	CU_ASSERT_EQUAL(sleep_after("256", "64"), 5000); /* 4.14+: P, parked */
	CU_ASSERT_EQUAL(sleep_after("2048", "16"), 0);
	CU_ASSERT_EQUAL(sleep_after("256", "32"), 0);
	CU_ASSERT_EQUAL(sleep_after("2048", "1"), 5000);
	CU_ASSERT_EQUAL(sleep_after("R+", "x"), 0);
}

static void test_histo(void)
{
	g_autoptr(FtlHisto) h = ftl_histo_new();
	CU_ASSERT_EQUAL(ftl_histo_percentile(h, 50), FTL_TS_NONE);
	for (gint64 v = 1; v <= 200; v++)
		ftl_histo_add(h, v);
	CU_ASSERT_EQUAL(ftl_histo_percentile(h, 50), 100);
	CU_ASSERT_EQUAL(ftl_histo_percentile(h, 99), 198);
	CU_ASSERT_EQUAL(ftl_histo_percentile(h, 100), 200);
	g_autoptr(FtlHisto) g = ftl_histo_new();
	for (gint64 v = 1; v <= 1000000; v += 7)
		ftl_histo_add(g, v * 1000);
	guint64 n = ftl_histo_count(g);
	for (guint p = 1; p <= 100; p++) {
		guint64 rank = (n * p + 99) / 100;
		gint64 exact = (gint64)(1 + 7 * (rank - 1)) * 1000;
		gint64 got = ftl_histo_percentile(g, p);
		if (ABS(got - exact) > exact / 64 + 1)
			CU_FAIL("percentile off by more than 1/64");
	}
	guint pos = 0;
	gint64 lo, hi, prev_hi = 0;
	guint64 c, total = 0;
	while (ftl_histo_next_bucket(g, &pos, &lo, &hi, &c)) {
		CU_ASSERT_TRUE(lo >= prev_hi && hi > lo);
		CU_ASSERT_TRUE(hi - lo <= MAX(lo / 32, 1));
		prev_hi = hi;
		total += c;
	}
	CU_ASSERT_EQUAL(total, n);
	ftl_histo_add(g, G_MAXINT64);
	CU_ASSERT_EQUAL(ftl_histo_max(g), G_MAXINT64);
	CU_ASSERT_EQUAL(ftl_histo_percentile(g, 100), G_MAXINT64);
	ftl_histo_merge(h, g);
	CU_ASSERT_EQUAL(ftl_histo_count(h), n + 201);
	CU_ASSERT_EQUAL(ftl_histo_min(h), 1);
}

static void add_ns(gpointer bin, gint64 ns, gpointer data)
{
	(void)data;
	*(gint64 *)bin += ns;
}

static void merge_ns(gpointer dst, gconstpointer src)
{
	*(gint64 *)dst += *(const gint64 *)src;
}

static void test_timebins(void)
{
	g_autoptr(FtlTimeBins) tb = ftl_timebins_new(100, sizeof(gint64), merge_ns);
	ftl_timebins_set_origin(tb, 1000);
	gint64 total = 0;
	for (gint64 t = 1000; t < 1000000; t += 997) {
		ftl_timebins_spread(tb, 2, t, t + 500, add_ns, NULL);
		total += 500;
	}
	CU_ASSERT_FALSE(ftl_timebins_has_lane(tb, 0));
	CU_ASSERT_TRUE(ftl_timebins_has_lane(tb, 2));
	gint64 w = ftl_timebins_width(tb);
	CU_ASSERT_EQUAL(w & (w - 1), 0);
	guint used = ftl_timebins_n_used(tb);
	CU_ASSERT_TRUE(used <= 100 && used > 50);
	gint64 sum = 0;
	for (guint i = 0; i < 100; i++) {
		gint64 v = *(gint64 *)ftl_timebins_get(tb, 2, i);
		CU_ASSERT_TRUE(v <= w);
		sum += v;
	}
	CU_ASSERT_EQUAL(sum, total);
	CU_ASSERT_EQUAL(ftl_timebins_index(tb, 1000 + w), 1);
}

/* Round bins: read five times finer, then merged into the smallest round
 * width that holds the span in the bins asked for; each bin holds exactly
 * the times that fall in it at that width. */
static void test_timebins_round(void)
{
	static const struct {
		gint64 span, width;
	} cases[] = { { 999000, 10000 }, { 1234567, 20000 }, { 4000000, 50000 }, { 99, 1 } };
	for (guint c = 0; c < G_N_ELEMENTS(cases); c++) {
		g_autoptr(FtlTimeBins) tb = ftl_timebins_new(500, sizeof(gint64), merge_ns);
		ftl_timebins_set_round(tb);
		ftl_timebins_set_origin(tb, 1000);
		g_autofree gint64 *want = g_new0(gint64, 101);
		for (gint64 t = 1000, k = 0; t <= 1000 + cases[c].span; t += 7 + k++ % 13) {
			ftl_timebins_cover(tb, t);
			(*(gint64 *)ftl_timebins_get(tb, 0, ftl_timebins_index(tb, t)))++;
			want[(t - 1000) / cases[c].width]++;
		}
		ftl_timebins_cover(tb, 1000 + cases[c].span);
		ftl_timebins_fit(tb, 100);
		CU_ASSERT_EQUAL(ftl_timebins_width(tb), cases[c].width);
		guint used = ftl_timebins_n_used(tb);
		CU_ASSERT_TRUE(used <= 100 && used >= 40 * (cases[c].span > 1000));
		for (guint i = 0; i < used; i++)
			CU_ASSERT_EQUAL(*(gint64 *)ftl_timebins_get(tb, 0, i), want[i]);
	}
}

/* Events per lane and bin; the parser's leaf exits, lost-event notes and
 * untimed events are not counted. */
static void test_rate(void)
{
	for (int by = 0; by < 2; by++) {
		g_autoptr(FtlRate) r = ftl_rate_new(by ? FTL_RATE_BY_EVENT : FTL_RATE_BY_CPU, 10);
		FtlEvent leaf[2];
		evb_leaf(leaf, 5000, 1, 7, "f", 0, 100);
		leaf[1].flags |= FTL_EVENT_F_SYNTH;
		FtlEvent evs[] = {
			evb_switch(1000, 2, "a", 1, "b", 2), evb_marker(1500, 0, 3, "m"),
			evb_switch(2000, 0, "b", 2, "a", 1), evb_switch(9000, 0, "a", 1, "b", 2),
			leaf[0], leaf[1], evb_marker(FTL_TS_NONE, 0, 3, "untimed"),
			evb_base(FTL_EVENT_LOST, "lost", 3000, 1, -1),
		};
		for (guint i = 0; i < G_N_ELEMENTS(evs); i++)
			ftl_rate_feed(r, &evs[i]);
		ftl_rate_finish(r);
		CU_ASSERT_EQUAL(ftl_rate_origin(r), 1000);
		CU_ASSERT_EQUAL(ftl_rate_last_ts(r), 9000);
		gint64 w = ftl_rate_width(r);
		guint nb = ftl_rate_n_bins(r);
		CU_ASSERT_TRUE(nb >= 5 && nb <= 10 && (nb - 1) * w <= 8000 && nb * w > 8000);
		CU_ASSERT_EQUAL(w, 1000); /* round: 8000 ns in at most 10 bins */
		/* by CPU: 0, 1, 2 in order; by event: switches (3), then the
		 * two of one event each by name */
		static const char *const cpus[] = { "CPU 0", "CPU 1", "CPU 2" };
		static const char *const names[] = { "sched_switch", "funcgraph_entry",
						     "tracing_mark_write" };
		static const guint64 totals[2][3] = { { 3, 1, 1 }, { 3, 1, 1 } };
		CU_ASSERT_EQUAL_FATAL(ftl_rate_n_lanes(r), 3);
		for (guint l = 0; l < 3; l++) {
			CU_ASSERT_STRING_EQUAL(ftl_rate_lane_name(r, l), by ? names[l] : cpus[l]);
			CU_ASSERT_EQUAL(ftl_rate_lane_total(r, l), totals[by][l]);
			guint64 sum = 0;
			for (guint b = 0; b < nb; b++)
				sum += ftl_rate_count(r, l, b);
			CU_ASSERT_EQUAL(sum, totals[by][l]);
		}
		/* lane 0 (CPU 0, sched_switch) has the last switch in the last bin */
		CU_ASSERT_EQUAL(ftl_rate_count(r, 0, nb - 1), 1);
	}
}

int main(void)
{
	static const UnitTest tests[] = {
		{ "basic: CPU and task times, latency, irq", test_basic },
		{ "a window clips every figure", test_window },
		{ "latency from sched_waking, or sched_wakeup", test_waking },
		{ "a wakeup while the task still ran measures nothing", test_woken_while_running },
		{ "a second wakeup before the switch restarts the latency", test_restart },
		{ "waking, wakeup and the tracer's + line are one wakeup", test_one_wakeup },
		{ "inferred switch-outs: voluntary, preempted, unknown", test_inferred_out },
		{ "what cannot be paired is counted", test_unpaired },
		{ "lost events make time unknown", test_lost },
		{ "without sched_switch the pids switch CPUs", test_inferred },
		{ "softirq events by vector", test_softirq },
		{ "prev_state: preempted or not", test_states },
		{ "numeric prev_state: dead, parked or asleep", test_numeric_dead },
		{ "histogram: exact small, 1/64 large", test_histo },
		{ "time bins conserve what is spread", test_timebins },
		{ "round time bins merge exactly into the width asked", test_timebins_round },
		{ "event rate per CPU and per event name", test_rate },
		{ NULL, NULL },
	};
	return unit_run("sched", tests);
}
