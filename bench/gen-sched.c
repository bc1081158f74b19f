/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark input (not part of ftlens): a scheduling trace as the kernel's
 * `trace` file prints it with the sched and irq events on (nop tracer).
 *
 * usage: gen-sched [-s SEED] [-c CPUS] [-n TASKS] SIZE OUT
 *   SIZE    target bytes, with an optional K, M or G suffix (powers of 1024)
 *   -s      seed (default 1); the same seed and options give the same bytes
 *   -c      CPUs (default 8)
 *   -n      tasks (default 40)
 *
 * A small simulation: tasks run for exponentially distributed slices
 * (mean 400 us), then sleep (S or D, mean 3 ms) or are preempted (R+) back
 * to one shared run queue (so they migrate); a sleeping task is woken
 * (sched_waking then sched_wakeup) from whatever a random CPU runs; a CPU
 * with nothing to run goes idle; interrupts (irq_handler_entry/exit, each
 * followed by a softirq) land on CPUs between switches. The CPU (or wakeup)
 * with the earliest clock always prints next, one line at a time, so lines
 * are in time order. */
#define _GNU_SOURCE 1
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static uint64_t rng_s[4];

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rng(void)
{
	uint64_t r = rotl(rng_s[1] * 5, 7) * 9, t = rng_s[1] << 17;
	rng_s[2] ^= rng_s[0];
	rng_s[3] ^= rng_s[1];
	rng_s[1] ^= rng_s[2];
	rng_s[0] ^= rng_s[3];
	rng_s[2] ^= t;
	rng_s[3] = rotl(rng_s[3], 45);
	return r;
}

static void seed(uint64_t s)
{
	for (int i = 0; i < 4; i++) {
		s += 0x9e3779b97f4a7c15ull;
		uint64_t z = s;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		rng_s[i] = z ^ (z >> 31);
	}
}

static double uni(void)
{
	return (double)(rng() >> 11) / 9007199254740992.0;
}

static uint64_t expo(double mean_ns)
{
	return 1 + (uint64_t)(-log(1.0 - uni()) * mean_ns);
}

enum { RUNNING, RUNNABLE, SLEEPING };

typedef struct {
	int pid, prio, state;
	uint64_t wake_at;
	char comm[16];
} Task;

typedef struct {
	int cur;   /* task index, -1 idle */
	int phase; /* 0: switch next; 1-3: in an irq / softirq; 4: switch, no irq first */
	uint64_t next;
} Cpu;

static FILE *out;
static uint64_t bytes;

static void line(uint64_t t, int cpu, const char *comm, int pid, const char *flags,
		 const char *event, const char *fmt, ...) __attribute__((format(printf, 7, 8)));

static void line(uint64_t t, int cpu, const char *comm, int pid, const char *flags,
		 const char *event, const char *fmt, ...)
{
	va_list ap;
	int n = fprintf(out, "%16s-%-7d [%03d] %s %6" PRIu64 ".%06" PRIu64 ": %s: ", comm, pid, cpu,
			flags, t / 1000000000, t / 1000 % 1000000, event);
	va_start(ap, fmt);
	n += vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
	bytes += (uint64_t)n + 1;
}

int main(int argc, char **argv)
{
	int cpus = 8, ntasks = 40, opt;
	uint64_t sd = 1;
	while ((opt = getopt(argc, argv, "s:c:n:")) != -1) {
		if (opt == 's')
			sd = strtoull(optarg, NULL, 10);
		else if (opt == 'c')
			cpus = atoi(optarg);
		else if (opt == 'n')
			ntasks = atoi(optarg);
		else
			return 2;
	}
	if (argc - optind != 2 || cpus < 1 || cpus > 256 || ntasks < 1) {
		fprintf(stderr, "usage: gen-sched [-s SEED] [-c CPUS] [-n TASKS] SIZE OUT\n");
		return 2;
	}
	char *end;
	uint64_t size = strtoull(argv[optind], &end, 10);
	size <<= *end == 'K' ? 10 : *end == 'M' ? 20 : *end == 'G' ? 30 : 0;
	out = fopen(argv[optind + 1], "w");
	if (!out)
		return 1;
	seed(sd);
	Task *task = calloc((size_t)ntasks, sizeof *task);
	int *rq = calloc((size_t)ntasks, sizeof *rq), rq_head = 0, rq_len = 0;
	Cpu *cpu = calloc((size_t)cpus, sizeof *cpu);
	static const char *const names[] = { "kworker", "make", "cc1", "sshd", "rcu_preempt",
					     "java", "python3", "Xorg", "ksoftirqd", "nginx" };
	for (int i = 0; i < ntasks; i++) {
		task[i].pid = 100 + i;
		task[i].prio = i % 17 == 0 ? 50 : 120;
		snprintf(task[i].comm, sizeof task[i].comm, "%s", names[i % 10]);
		task[i].state = SLEEPING;
		task[i].wake_at = 1000000000ull + expo(3e6);
	}
	fprintf(out, "# tracer: nop\n#\n#                                _-----=> irqs-off\n");
	for (int c = 0; c < cpus; c++) {
		cpu[c].cur = -1;
		cpu[c].next = 1000000000ull + expo(1e5);
	}
	while (bytes < size) {
		int c = 0, w = -1;
		for (int i = 1; i < cpus; i++)
			if (cpu[i].next < cpu[c].next)
				c = i;
		uint64_t t = cpu[c].next;
		for (int i = 0; i < ntasks; i++)
			if (task[i].state == SLEEPING && task[i].wake_at < t &&
			    (w < 0 || task[i].wake_at < task[w].wake_at))
				w = i;
		if (w >= 0) {
			/* the wakeup comes from whatever a random CPU runs */
			int wc = (int)(rng() % (uint64_t)cpus), cur = cpu[wc].cur;
			const char *comm = cur >= 0 ? task[cur].comm : "<idle>";
			int pid = cur >= 0 ? task[cur].pid : 0;
			uint64_t wt = task[w].wake_at;
			line(wt, wc, comm, pid, "d..2", "sched_waking",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", task[w].comm, task[w].pid,
			     task[w].prio, wc);
			line(wt, wc, comm, pid, "d..3", "sched_wakeup",
			     "comm=%s pid=%d prio=%d target_cpu=%03d", task[w].comm, task[w].pid,
			     task[w].prio, wc);
			task[w].state = RUNNABLE;
			rq[(rq_head + rq_len++) % ntasks] = w;
			continue;
		}
		int cur = cpu[c].cur;
		const char *comm = cur >= 0 ? task[cur].comm : "<idle>";
		int pid = cur >= 0 ? task[cur].pid : 0;
		/* one line per step, so that every CPU's clock stays in order */
		switch (cpu[c].phase) {
		case 1:
			line(t, c, comm, pid, "d.h1", "irq_handler_exit", "irq=%d ret=handled",
			     24 + c % 4);
			cpu[c].phase = 2;
			cpu[c].next = t + 1000;
			continue;
		case 2:
			line(t, c, comm, pid, "..s1", "softirq_entry", "vec=3 [action=NET_RX]");
			cpu[c].phase = 3;
			cpu[c].next = t + expo(8000);
			continue;
		case 3:
			line(t, c, comm, pid, "..s1", "softirq_exit", "vec=3 [action=NET_RX]");
			cpu[c].phase = 4; /* then switch */
			cpu[c].next = t + 20000;
			continue;
		}
		if (cpu[c].phase == 0 && uni() < 0.3) {
			line(t, c, comm, pid, "d.h1", "irq_handler_entry", "irq=%d name=eth%d",
			     24 + c % 4, c % 4);
			cpu[c].phase = 1;
			cpu[c].next = t + expo(5000);
			continue;
		}
		cpu[c].phase = 0;
		const char *state = "R";
		if (cur >= 0) {
			double u = uni();
			if (u < 0.55 || rq_len == 0) {
				state = u < 0.45 ? "S" : "D";
				task[cur].state = SLEEPING;
				task[cur].wake_at = t + expo(3e6);
			} else {
				state = "R+";
				task[cur].state = RUNNABLE;
				rq[(rq_head + rq_len++) % ntasks] = cur;
			}
		}
		int next = -1;
		if (rq_len) {
			next = rq[rq_head];
			rq_head = (rq_head + 1) % ntasks;
			rq_len--;
			task[next].state = RUNNING;
		}
		if (next != cur || cur >= 0)
			line(t, c, comm, pid, "d..2", "sched_switch",
			     "prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s ==> next_comm=%s "
			     "next_pid=%d next_prio=%d",
			     cur >= 0 ? task[cur].comm : "swapper", pid, cur >= 0 ? task[cur].prio : 120,
			     state, next >= 0 ? task[next].comm : "swapper",
			     next >= 0 ? task[next].pid : 0, next >= 0 ? task[next].prio : 120);
		cpu[c].cur = next;
		cpu[c].next = t + 2000 + (next >= 0 ? expo(4e5) : expo(1e5));
	}
	fclose(out);
	return 0;
}
