/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Benchmark input (not part of ftlens): a function_graph trace as the
 * kernel's `trace` file prints it, with its truth (per-function calls, total
 * and self ns) worked out while it is written.
 *
 * usage: gen-fgraph [-s SEED] [-c CPUS] [-f FUNCS] [-n NAMES] [-p] [-l] [-v]
 *                   [-t TRUTH] [-x NAME:FACTOR] SIZE OUT
 *   SIZE    target bytes, with an optional K, M or G suffix (powers of 1024);
 *           the file ends a little past it, once every open call has returned
 *   -s      seed (default 1); the same seed and options give the same bytes
 *   -c      CPUs (default 8)
 *   -f      distinct functions in the static call graph (default 5000)
 *   -n      take the ranked functions' names from the file NAMES (one a
 *           line, e.g. a kernel's text symbols from System.map), drawn at
 *           random by the seed, instead of making kernel-like ones up; made
 *           up again when NAMES runs out. With it a trace names functions a
 *           vmlinux holds (bench/symbols.sh); the random draws differ from
 *           a run without -n, so the same seed gives another trace
 *   -p      funcgraph-proc: the TASK/PID column
 *   -l      funcgraph-tail: every exit names its function
 *   -t      write the truth: "# key value" summary lines, then the CSV
 *           function,calls,total_ns,self_ns sorted by name (C locale)
 *   -v      print a summary on stderr
 *   -x      a regression planted in NAME: its own time (a leaf's duration, a
 *           caller's self time) is FACTOR times as long, as on a kernel
 *           where it got slower; everything else is drawn as usual
 *
 * The shape follows kernel/trace/trace_functions_graph.c: the CPU column
 * (as wide as the highest CPU number), durations cut to at most 7 digits with
 * the + ! # * @ $ overhead marks, nested entries "f() {", leaves "f();",
 * exits "}" (named when the CPU's last entry at that depth was another
 * function, as after a task switch), irq entry functions between
 * ==========> and <========== lines, task-switch separator blocks, and
 * trace_marker comments indented by the CPU's last depth.
 *
 * What happens is a small simulation: a static call graph of kernel-like
 * names with Zipf popularity (helpers such as _raw_spin_lock are called from
 * everywhere, most names rarely), tasks that run syscall-like call trees,
 * sleep in __schedule (their stacks stay open, so the exits after a switch
 * print where the task resumes, often on another CPU), per-CPU idle tasks,
 * interrupts nested anywhere, and markers. The CPU with the earliest clock
 * always prints next, so the lines are in time order as the merged `trace`
 * file has them. Durations are exact: each call ends at a time its printed
 * duration can show, so the truth is what a correct reader must find, by the
 * rule ftlens documents: total counts a recursive call (one whose function
 * is already open on the same task's stack) once, self is duration minus
 * children. Every call returns before the end: nothing is left open. */
#define _GNU_SOURCE 1
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_CPUS    256
#define MAX_STACK   96
#define MAX_LEVEL   21
#define MAX_CALLEES 12
#define PROC_WIDTH  14 /* TRACE_GRAPH_PROCINFO_LENGTH */
#define N_TASKS	    48

/* ---- random numbers: xoshiro256** seeded through splitmix64 ------------- */

static uint64_t rng_s[4];

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static uint64_t rnd_u64(void)
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

static double rnd_unit(void) /* [0, 1) */
{
	return (double)(rnd_u64() >> 11) * 0x1.0p-53;
}

static uint32_t rnd_below(uint32_t n)
{
	return (uint32_t)(((rnd_u64() >> 32) * n) >> 32);
}

static int rnd_chance(double p)
{
	return rnd_unit() < p;
}

static double rnd_exp(double mean)
{
	return -mean * log(1.0 - rnd_unit());
}

/* lognormal with the given median: a Box-Muller normal, one of the pair */
static double rnd_lognorm(double median, double sigma)
{
	double u1 = 1.0 - rnd_unit(), u2 = rnd_unit();
	return median * exp(sigma * sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2));
}

/* ---- words for kernel-like names ------------------------------------------ */

/* clang-format off */
static const char *const SUBSYS[] = {
	"ext4", "xfs", "btrfs", "nfs", "fuse", "proc", "kernfs", "tcp", "udp", "ip", "ipv6",
	"inet", "sock", "skb", "netif", "napi", "dev", "nf", "br", "vfs", "filemap", "folio",
	"page", "mm", "vma", "slab", "rcu", "sched", "irq", "hrtimer", "timer", "tick", "blk_mq",
	"blk", "bio", "nvme", "scsi", "ata", "usb", "pci", "drm", "i915", "kvm", "x86", "apic",
	"cpuidle", "futex", "pipe", "ep", "eventfd", "signal", "audit", "security", "selinux",
	"apparmor", "fsnotify", "inotify", "d", "path", "mnt", "cgroup", "mem_cgroup", "wq",
	"kthread", "tty", "n_tty", "crypto", "lru", "swap", "shmem", "perf", "bpf", "ring_buffer",
	"jbd2", "iomap", "xa", "idr", "kobject", "device", "acpi", "virtio", "vring", "e1000e",
	"mlx5e", "sk", "neigh", "fib", "xdp", "io_uring", "aio", "posix", "task", "pid", "cred",
	"module", "kprobe", "ftrace", "watchdog", "pm", "clk", "regmap", "i2c", "spi", "gpio",
};

static const char *const QUAL[] = {
	"da", "mb", "es", "ext", "ind", "fast", "slow", "lazy", "async", "sync", "raw", "try",
	"do", "pending", "bulk", "batch", "local", "remote", "percpu", "global", "rt", "fair",
	"dl", "idle", "xmit", "rcv", "tx", "rx", "hw", "soft", "user", "kernel", "direct",
	"buffered", "dio", "inline", "delayed", "deferred", "cached", "shared",
};

static const char *const OBJ[] = {
	"inode", "page", "buffer", "bh", "bio", "request", "queue", "rq", "sock", "skb", "dentry",
	"file", "vma", "mm", "task", "timer", "lock", "entry", "cache", "map", "extent", "block",
	"journal", "transaction", "handle", "node", "tree", "list", "work", "event", "fd", "iter",
	"css", "counter", "stat", "ctx", "state", "range", "region", "chunk", "slot", "ring",
	"desc", "tag", "key", "hash", "table", "header", "data", "msg", "frame", "packet", "route",
	"conn", "port", "group", "policy", "quota", "xattr", "acl", "name", "path", "fs", "super",
	"sb", "cpu", "numa", "zone", "pgdat", "pte", "pmd", "pud", "tlb", "vm", "wait", "waitq",
	"mutex", "sem", "rwsem", "seq", "flags", "attr", "ops", "pool", "slab", "obj", "ref",
	"irq", "vector",
};

static const char *const VERB[] = {
	"alloc", "free", "get", "put", "init", "exit", "lookup", "find", "insert", "remove", "add",
	"del", "update", "read", "write", "begin", "end", "start", "stop", "commit", "flush",
	"submit", "complete", "wake", "wait", "lock", "unlock", "release", "acquire", "map",
	"unmap", "copy", "move", "clear", "set", "check", "validate", "prepare", "finish", "queue",
	"dequeue", "enqueue", "dispatch", "handle", "process", "run", "poll", "account", "charge",
	"uncharge", "evict", "reclaim", "scan", "merge", "split", "mark", "sync", "open", "close",
	"create", "destroy", "attach", "detach", "register", "notify", "fill", "grab", "drop",
	"reserve", "restore", "save", "resize", "walk", "fetch", "store", "send", "recv", "build",
	"parse", "select",
};

static const char *const SUFFIX[] = { ".isra.0", ".part.0", ".constprop.0", ".part.0.constprop.0" };

/* Hot helpers every kernel trace is full of: the most popular names. */
static const char *const HELPERS[] = {
	"_raw_spin_lock", "_raw_spin_unlock", "_raw_spin_lock_irqsave",
	"_raw_spin_unlock_irqrestore", "mutex_lock", "mutex_unlock", "__cond_resched",
	"kmem_cache_alloc", "kmem_cache_free", "rcu_read_unlock_strict", "__kmalloc", "kfree",
	"down_read", "up_read", "preempt_count_add", "preempt_count_sub", "__check_object_size",
	"_copy_to_user", "_copy_from_user", "fput", "dput", "__fget_light",
	"security_file_permission", "fsnotify_perm", "__fsnotify_parent", "ktime_get",
	"native_sched_clock", "sched_clock_cpu", "update_curr", "update_load_avg",
	"__rcu_read_lock", "__rcu_read_unlock", "down_write", "up_write", "memcpy_erms",
	"memset_erms", "clear_page_erms", "get_page_from_freelist", "__wake_up_common_lock",
	"try_to_wake_up", "select_task_rq_fair", "ttwu_queue_wakelist", "find_vma", "xas_load",
	"rb_insert_color", "rb_erase", "rb_next", "percpu_counter_add_batch",
	"__mod_lruvec_page_state", "mod_memcg_lruvec_state", "inode_permission",
	"generic_permission", "capable", "ns_capable", "security_capable", "cap_capable",
	"current_time", "strncpy_from_user", "__virt_addr_valid", "check_stack_object",
	"is_vmalloc_addr", "radix_tree_lookup", "idr_find", "folio_mark_accessed",
	"page_counter_try_charge", "__count_memcg_events", "lockref_get_not_dead",
	"lockref_put_return", "__d_lookup_rcu", "_raw_read_lock", "_raw_read_unlock",
	"_raw_spin_lock_irq", "_raw_spin_unlock_irq", "__mutex_lock_slowpath",
	"atime_needs_update", "touch_atime", "rw_verify_area", "apparmor_file_permission",
	"kmalloc_trace", "__kmem_cache_alloc_node", "refill_obj_stock", "obj_cgroup_charge",
	"should_failslab", "memcg_slab_post_alloc_hook",
};

static const char *const SYSCALLS[] = {
	"read", "write", "openat", "close", "futex", "mmap", "munmap", "mprotect", "brk", "ioctl",
	"epoll_wait", "epoll_ctl", "poll", "ppoll", "pselect6", "recvmsg", "sendmsg", "recvfrom",
	"sendto", "connect", "accept4", "clone", "clone3", "execve", "exit_group", "wait4",
	"newfstatat", "fstat", "statx", "getdents64", "lseek", "pread64", "pwrite64", "readv",
	"writev", "fsync", "fdatasync", "nanosleep", "clock_nanosleep", "clock_gettime", "getpid",
	"gettid", "rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "kill", "tgkill", "pipe2",
	"dup2", "dup3", "fcntl", "access", "faccessat2", "readlinkat", "unlinkat", "renameat2",
	"mkdirat", "socket", "bind", "listen", "getsockopt", "setsockopt", "shutdown", "madvise",
	"sched_yield", "sched_getaffinity", "prctl", "getrandom", "memfd_create", "io_uring_enter",
	"eventfd2", "timerfd_settime", "inotify_add_watch", "splice", "sendfile64",
	"copy_file_range", "fallocate", "ftruncate", "chdir", "getcwd", "umask", "uname",
	"sysinfo", "times", "getrusage", "prlimit64", "set_robust_list", "rseq", "membarrier",
	"epoll_pwait",
};

static const char *const KTHREAD_ROOTS[] = {
	"process_one_work", "do_user_addr_fault", "run_ksoftirqd", "kthread_worker_fn",
	"rcu_gp_kthread", "kswapd_shrink_node",
};

/* irq entry functions (the __irqentry_text of a 4.x x86 kernel) and their
 * share of the interrupts, cumulated */
static const char *const IRQ_ROOTS[] = { "smp_apic_timer_interrupt", "do_IRQ",
					 "smp_call_function_single_interrupt",
					 "smp_reschedule_interrupt" };
static const double IRQ_CDF[] = { 0.6, 0.85, 0.95, 1.0 };

static const char *const COMMS[] = {
	"bash", "sshd", "kworker/3:1", "firefox", "Web Content", "systemd-journal", "gnome-shell",
	"cc1", "make", "ksoftirqd/5", "rcu_preempt", "Xorg", "pulseaudio", "chrome", "java",
	"postgres", "nginx", "python3", "node", "dockerd", "containerd", "kswapd0", "jbd2/sda1-8",
	"kworker/u16:2", "systemd", "dbus-daemon", "NetworkManager", "cron", "rsyslogd", "git",
	"ld", "as", "sh", "grep", "sort", "cat", "irqbalance", "snapd", "Isolated Web Co", "gvfsd",
	"tracker-miner", "redis-server", "mysqld", "php-fpm", "ssh-agent", "tmux: server", "vim",
	"less",
};
/* clang-format on */

/* ---- the static call graph --------------------------------------------------- */

enum {
	FN_SCRIPTED = 1,  /* callees always called, in order, once */
	FN_IRQENTRY = 2,  /* printed between ==========> and <========== */
	FN_SWITCH = 4,	  /* __schedule: the task switch happens after its callees */
	FN_IDLE_WAIT = 8, /* intel_idle: a leaf lasting until the next wake-up */
	FN_LEAF = 16	  /* never calls anything (the helpers, the scheduler's steps) */
};

typedef struct {
	char *name;
	uint32_t len;
	uint8_t level;
	uint8_t flags;
	uint8_t n_callees;
	uint32_t callees[MAX_CALLEES];
	double weight;
	/* the truth */
	uint64_t calls, total, self;
} Func;

static Func *funcs;
static uint32_t n_funcs, cap_funcs;
static double *zipf_cdf; /* over the ranked non-root functions */
static uint32_t *zipf_func, n_zipf;
static uint32_t n_roots; /* functions 0..n_roots-1 */
static double *root_cdf;
static uint32_t irq_roots[4];
static uint32_t f_schedule, f___schedule, f_schedule_idle, f_finish_switch, f_cpuidle,
	f_preempt_root;

/* a small open-addressing set of names */
static char **name_set;
static uint32_t name_set_cap;

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static int name_add(char *s)
{
	uint32_t i = name_hash(s) & (name_set_cap - 1);
	while (name_set[i]) {
		if (!strcmp(name_set[i], s))
			return 0;
		i = (i + 1) & (name_set_cap - 1);
	}
	name_set[i] = s;
	return 1;
}

static void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen-fgraph: out of memory\n");
		exit(1);
	}
	return p;
}

/* Adds a function, or returns UINT32_MAX when the name exists already. */
static uint32_t func_add(const char *name, int level, int flags)
{
	char *s = strdup(name);
	if (!s || !name_add(s)) {
		free(s);
		return UINT32_MAX;
	}
	if (n_funcs == cap_funcs) {
		cap_funcs = cap_funcs ? cap_funcs * 2 : 1024;
		funcs = realloc(funcs, cap_funcs * sizeof *funcs);
		if (!funcs) {
			fprintf(stderr, "gen-fgraph: out of memory\n");
			exit(1);
		}
	}
	Func *f = &funcs[n_funcs];
	memset(f, 0, sizeof *f);
	f->name = s;
	f->len = (uint32_t)strlen(s);
	f->level = (uint8_t)level;
	f->flags = (uint8_t)flags;
	return n_funcs++;
}

static uint32_t func_must(const char *name, int level, int flags)
{
	uint32_t f = func_add(name, level, flags);
	if (f == UINT32_MAX) {
		fprintf(stderr, "gen-fgraph: duplicate built-in name %s\n", name);
		exit(1);
	}
	return f;
}

static void callee_add(uint32_t caller, uint32_t callee)
{
	Func *f = &funcs[caller];
	if (f->n_callees < MAX_CALLEES)
		f->callees[f->n_callees++] = callee;
}

#define PICK(a) (a[rnd_below((uint32_t)(sizeof a / sizeof a[0]))])

/* -n NAMES: the names not drawn yet, at [0, n_pool) */
static char **pool;
static uint32_t n_pool;

static void pool_read(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "gen-fgraph: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	char line[256];
	uint32_t cap = 0;
	while (fgets(line, sizeof line, f)) {
		size_t l = strcspn(line, " \t\r\n");
		if (!l || l > 100)
			continue;
		line[l] = '\0';
		if (n_pool == cap) {
			cap = cap ? 2 * cap : 4096;
			char **p = realloc(pool, cap * sizeof *pool);
			if (!p) {
				fprintf(stderr, "gen-fgraph: out of memory\n");
				exit(1);
			}
			pool = p;
		}
		if (!(pool[n_pool++] = strdup(line))) {
			fprintf(stderr, "gen-fgraph: out of memory\n");
			exit(1);
		}
	}
	if (ferror(f) || fclose(f)) {
		fprintf(stderr, "gen-fgraph: %s: read error\n", path);
		exit(1);
	}
}

/* A name from the pool, each at most once, or 0 when it is empty. */
static int pool_name(char *buf, size_t n)
{
	if (!n_pool)
		return 0;
	uint32_t i = rnd_below(n_pool);
	snprintf(buf, n, "%s", pool[i]);
	free(pool[i]);
	pool[i] = pool[--n_pool];
	return 1;
}

static void made_up_name(char *buf, size_t n)
{
	double u = rnd_unit();
	const char *pre = "";
	double d = rnd_unit();
	if (d < 0.12)
		pre = "__";
	else if (d < 0.15)
		pre = "_";
	else if (d < 0.19)
		pre = "do_";
	if (u < 0.30)
		snprintf(buf, n, "%s%s_%s_%s", pre, PICK(SUBSYS), PICK(VERB), PICK(OBJ));
	else if (u < 0.60)
		snprintf(buf, n, "%s%s_%s_%s", pre, PICK(SUBSYS), PICK(OBJ), PICK(VERB));
	else if (u < 0.78)
		snprintf(buf, n, "%s%s_%s_%s_%s", pre, PICK(SUBSYS), PICK(QUAL), PICK(OBJ),
			 PICK(VERB));
	else if (u < 0.90)
		snprintf(buf, n, "%s%s_%s", pre, PICK(SUBSYS), PICK(VERB));
	else
		snprintf(buf, n, "%s%s_%s_%s", pre, PICK(SUBSYS), PICK(QUAL), PICK(VERB));
	if (rnd_chance(0.05)) {
		size_t l = strlen(buf);
		snprintf(buf + l, n - l, "%s", PICK(SUFFIX));
	}
}

/* An index drawn from a cumulative distribution of n entries ending at 1. */
static uint32_t cdf_pick(const double *cdf, uint32_t n)
{
	double u = rnd_unit();
	uint32_t a = 0, b = n - 1;
	while (a < b) {
		uint32_t m = (a + b) / 2;
		if (cdf[m] < u)
			a = m + 1;
		else
			b = m;
	}
	return a;
}

/* A Zipf-popular function whose level is in [lo, hi], or UINT32_MAX. */
static uint32_t zipf_pick(int lo, int hi)
{
	for (int tries = 0; tries < 400; tries++) {
		uint32_t f = zipf_func[cdf_pick(zipf_cdf, n_zipf)];
		if (funcs[f].level >= lo && funcs[f].level <= hi)
			return f;
	}
	return UINT32_MAX;
}

static int has_callee(uint32_t caller, uint32_t callee)
{
	for (int i = 0; i < funcs[caller].n_callees; i++)
		if (funcs[caller].callees[i] == callee)
			return 1;
	return 0;
}

static void graph_build(uint32_t want)
{
	name_set_cap = 1;
	while (name_set_cap < 4 * (want + 1024))
		name_set_cap <<= 1;
	name_set = xmalloc(name_set_cap * sizeof *name_set);

	/* Roots first: syscalls, kernel-thread work, the irq entries. */
	char buf[128];
	for (size_t i = 0; i < sizeof SYSCALLS / sizeof SYSCALLS[0]; i++) {
		snprintf(buf, sizeof buf, "__x64_sys_%s", SYSCALLS[i]);
		func_must(buf, 0, 0);
	}
	for (size_t i = 0; i < sizeof KTHREAD_ROOTS / sizeof KTHREAD_ROOTS[0]; i++)
		func_must(KTHREAD_ROOTS[i], 0, 0);
	n_roots = n_funcs;
	for (int i = 0; i < 4; i++)
		irq_roots[i] = func_must(IRQ_ROOTS[i], 0, FN_IRQENTRY);

	/* The scheduler and idle paths, scripted. */
	f_schedule = func_must("schedule", 15, FN_SCRIPTED);
	f_schedule_idle = func_must("schedule_idle", 1, FN_SCRIPTED);
	f___schedule = func_must("__schedule", 16, FN_SCRIPTED | FN_SWITCH);
	f_finish_switch = func_must("finish_task_switch.isra.0", 17, FN_LEAF);
	uint32_t pick_next = func_must("pick_next_task_fair", 17, FN_SCRIPTED);
	callee_add(f___schedule, func_must("rcu_note_context_switch", 17, FN_LEAF));
	callee_add(f___schedule, func_must("_raw_spin_lock_nested", 17, FN_LEAF));
	callee_add(f___schedule, func_must("update_rq_clock", 17, FN_LEAF));
	callee_add(f___schedule, func_must("dequeue_task_fair", 17, FN_LEAF));
	callee_add(f___schedule, pick_next);
	callee_add(f___schedule, func_must("psi_task_switch", 17, FN_LEAF));
	callee_add(pick_next, func_must("pick_next_entity", 18, FN_LEAF));
	callee_add(pick_next, func_must("set_next_entity", 18, FN_LEAF));
	callee_add(f_schedule, f___schedule);
	callee_add(f_schedule_idle, f___schedule);

	f_cpuidle = func_must("cpuidle_enter", 1, FN_SCRIPTED);
	uint32_t state = func_must("cpuidle_enter_state", 2, FN_SCRIPTED);
	uint32_t set_state = func_must("sched_idle_set_state", 3, FN_LEAF);
	callee_add(f_cpuidle, state);
	callee_add(state, set_state);
	callee_add(state, func_must("intel_idle", 3, FN_IDLE_WAIT | FN_LEAF));
	callee_add(state, set_state);

	f_preempt_root = func_must("irqentry_exit_to_user_mode", 0, FN_SCRIPTED);
	uint32_t loop = func_must("exit_to_user_mode_loop", 1, FN_SCRIPTED);
	callee_add(f_preempt_root, func_must("exit_to_user_mode_prepare", 1, FN_LEAF));
	callee_add(f_preempt_root, loop);
	callee_add(loop, f_schedule);
	uint32_t first_ranked = n_funcs;

	/* Ranked functions: the helpers lead (deep, mostly leaves), then made-up
	 * names at levels 1..18, ranked in random order. */
	for (size_t i = 0; i < sizeof HELPERS / sizeof HELPERS[0]; i++)
		func_must(HELPERS[i], 16 + (int)rnd_below(MAX_LEVEL - 16 + 1), FN_LEAF);
	while (n_funcs < want) {
		if (!pool_name(buf, sizeof buf))
			made_up_name(buf, sizeof buf);
		int level = 1 + (int)rnd_below(18);
		func_add(buf, level, 0);
	}
	n_zipf = n_funcs - first_ranked;
	zipf_func = xmalloc(n_zipf * sizeof *zipf_func);
	zipf_cdf = xmalloc(n_zipf * sizeof *zipf_cdf);
	uint32_t n_help = (uint32_t)(sizeof HELPERS / sizeof HELPERS[0]);
	for (uint32_t i = 0; i < n_zipf; i++)
		zipf_func[i] = first_ranked + i;
	for (uint32_t i = n_zipf - 1; i > n_help; i--) { /* shuffle the made-up ones */
		uint32_t j = n_help + rnd_below(i - n_help + 1), t = zipf_func[i];
		zipf_func[i] = zipf_func[j];
		zipf_func[j] = t;
	}
	double sum = 0;
	for (uint32_t i = 0; i < n_zipf; i++) {
		funcs[zipf_func[i]].weight = 1.0 / (i + 1.0);
		sum += funcs[zipf_func[i]].weight;
		zipf_cdf[i] = sum;
	}
	for (uint32_t i = 0; i < n_zipf; i++)
		zipf_cdf[i] /= sum;

	/* Root popularity: Zipf over the roots in their listed order (read,
	 * write, openat... first), kthread work a little behind. */
	root_cdf = xmalloc(n_roots * sizeof *root_cdf);
	sum = 0;
	for (uint32_t i = 0; i < n_roots; i++) {
		sum += 1.0 / pow(i + 1.0, 0.9);
		root_cdf[i] = sum;
	}
	for (uint32_t i = 0; i < n_roots; i++)
		root_cdf[i] /= sum;

	/* Callee lists: mostly the next few levels down, some popular helper
	 * from anywhere deeper; a few functions may sleep in schedule(). */
	for (uint32_t f = 0; f < n_funcs; f++) {
		Func *fn = &funcs[f];
		if (fn->flags & (FN_SCRIPTED | FN_LEAF))
			continue;
		int l = fn->level, k;
		if (l == 0)
			k = 3 + (int)rnd_below(6);
		else if (l <= 6)
			k = 1 + (int)rnd_below(6);
		else if (l <= 12)
			k = (int)rnd_below(6);
		else if (l < 18)
			k = (int)rnd_below(4);
		else
			k = 0;
		for (int i = 0; i < k; i++) {
			uint32_t c = rnd_chance(0.7) ? zipf_pick(l + 1, l + 3)
						     : zipf_pick(l + 1, MAX_LEVEL);
			if (c != UINT32_MAX && !has_callee(f, c))
				callee_add(f, c);
		}
		if (l >= 2 && l <= 13 && rnd_chance(0.03))
			callee_add(f, f_schedule);
	}
	/* Every made-up name gets at least one caller, so it can show up. */
	uint32_t *by_level[MAX_LEVEL + 1] = { 0 };
	uint32_t n_level[MAX_LEVEL + 1] = { 0 };
	for (uint32_t f = 0; f < n_funcs; f++)
		if (!(funcs[f].flags & (FN_SCRIPTED | FN_LEAF)) && funcs[f].level < 18)
			n_level[funcs[f].level]++;
	for (int l = 0; l <= MAX_LEVEL; l++) {
		by_level[l] = xmalloc((n_level[l] + 1) * sizeof(uint32_t));
		n_level[l] = 0;
	}
	for (uint32_t f = 0; f < n_funcs; f++)
		if (!(funcs[f].flags & (FN_SCRIPTED | FN_LEAF)) && funcs[f].level < 18)
			by_level[funcs[f].level][n_level[funcs[f].level]++] = f;
	uint8_t *called = xmalloc(n_funcs);
	for (uint32_t f = 0; f < n_funcs; f++)
		for (int i = 0; i < funcs[f].n_callees; i++)
			called[funcs[f].callees[i]] = 1;
	for (uint32_t f = first_ranked + n_help; f < n_funcs; f++) {
		if (called[f])
			continue;
		int l = funcs[f].level;
		for (int tries = 0; tries < 50; tries++) {
			int pl = l - 1 - (int)rnd_below(l < 3 ? (uint32_t)l : 3u);
			if (pl < 0 || !n_level[pl])
				continue;
			uint32_t p = by_level[pl][rnd_below(n_level[pl])];
			if (funcs[p].n_callees < MAX_CALLEES) {
				callee_add(p, f);
				called[f] = 1;
				break;
			}
		}
	}
	free(called);
	for (int l = 0; l <= MAX_LEVEL; l++)
		free(by_level[l]);
	/* irq entries call a little of everything */
	for (int i = 0; i < 4; i++)
		if (funcs[irq_roots[i]].n_callees == 0)
			callee_add(irq_roots[i], zipf_pick(1, 4));
}

/* ---- output ----------------------------------------------------------------- */

static FILE *out;
static char *obuf;
static size_t olen;
#define OBUF_SIZE (4u << 20)
static uint64_t bytes_out, n_lines, n_event_lines, n_events, n_markers, n_switches, n_irqs,
	n_recursive;
static int max_depth_seen;

static void out_flush(void)
{
	if (olen && fwrite(obuf, 1, olen, out) != olen) {
		fprintf(stderr, "gen-fgraph: write failed: %s\n", strerror(errno));
		exit(1);
	}
	olen = 0;
}

static inline void put_mem(const char *s, size_t n)
{
	memcpy(obuf + olen, s, n);
	olen += n;
}

static inline void put_str(const char *s)
{
	put_mem(s, strlen(s));
}

static inline void put_ch(char c)
{
	obuf[olen++] = c;
}

static inline void put_spaces(int n)
{
	for (; n > 0; n--)
		obuf[olen++] = ' ';
}

static int fmt_u64(char *b, uint64_t v)
{
	char t[24];
	int n = 0;
	do {
		t[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (int i = 0; i < n; i++)
		b[i] = t[n - 1 - i];
	return n;
}

static void line_end(void)
{
	put_ch('\n');
	n_lines++;
	if (olen > OBUF_SIZE - 4096) {
		bytes_out += olen;
		out_flush();
	}
}

static int opt_proc, opt_tail, n_cpus, cpu_width;

/* print_graph_proc: comm cut to 7 characters, "comm-pid" centred in 14 */
static void put_proc(const char *comm, int pid)
{
	char b[40];
	int n = 0;
	for (; n < 7 && comm[n]; n++)
		b[n] = comm[n];
	b[n++] = '-';
	n += fmt_u64(b + n, (uint64_t)pid);
	int spaces = n < PROC_WIDTH ? PROC_WIDTH - n : 0;
	put_spaces(spaces / 2);
	put_mem(b, (size_t)n);
	put_spaces(spaces - spaces / 2);
}

static void put_cpu(int cpu)
{
	char b[8];
	int n = fmt_u64(b, (uint64_t)cpu);
	put_ch(' ');
	put_spaces(cpu_width - n);
	put_mem(b, (size_t)n);
	put_str(") ");
}

/* trace_find_mark */
static char dur_mark(uint64_t ns)
{
	return ns > 1000000000ull  ? '$'
	       : ns > 100000000ull ? '@'
	       : ns > 10000000ull  ? '*'
	       : ns > 1000000ull   ? '#'
	       : ns > 100000ull	   ? '!'
	       : ns > 10000ull	   ? '+'
				   : ' ';
}

/* print_graph_duration + trace_print_graph_duration: 7 digits at most */
static void put_duration(uint64_t ns)
{
	char b[40];
	put_ch(dur_mark(ns));
	put_ch(' ');
	int len = fmt_u64(b, ns / 1000);
	put_mem(b, (size_t)len);
	if (len < 7) {
		int k = 8 - len - 1; /* snprintf of "%03lu" into min(5, 8 - len) */
		if (k > 3)
			k = 3;
		unsigned rem = (unsigned)(ns % 1000);
		char f[3] = { (char)('0' + rem / 100), (char)('0' + rem / 10 % 10),
			      (char)('0' + rem % 10) };
		put_ch('.');
		put_mem(f, (size_t)k);
		len += k + 1;
	}
	put_str(" us ");
	put_spaces(8 - len);
	put_str("|  ");
}

/* The smallest duration >= ns that the column shows exactly. */
static uint64_t dur_exact(uint64_t ns)
{
	for (;;) {
		uint64_t us = ns / 1000, step;
		int len = 1;
		while (us >= 10) {
			us /= 10;
			len++;
		}
		step = len <= 4 ? 1 : len == 5 ? 10 : len == 6 ? 100 : 1000;
		if (ns % step == 0)
			return ns;
		ns += step - ns % step;
	}
}

/* ---- the simulation --------------------------------------------------------- */

enum { SCHED_RUNNING = 0, SCHED_SWITCHED, SCHED_RESUMED };

typedef struct {
	uint32_t func;
	uint8_t next;	   /* next callee to consider */
	uint8_t reps;	   /* more calls of the callee just made */
	uint8_t forced;	   /* next is certain: the entry was printed as nested */
	uint8_t irq;	   /* an irq entry: <========== after its exit */
	uint8_t recursive; /* the function was already open below */
	uint8_t sched;	   /* __schedule: SCHED_* */
	uint64_t entry, child;
} Frame;

typedef struct {
	int pid;
	const char *comm;
	int idle_cpu; /* -1 unless this is a CPU's idle task */
	int in_pool;
	int irq_level;
	uint64_t wake;
	int depth;
	Frame stack[MAX_STACK];
	uint8_t *open; /* per function: open frames on this stack */
} Task;

typedef struct {
	uint64_t clock;
	Task *cur;
	Task *idle;
	int done;
	int last_depth;			 /* cpu_data->depth, for comment indentation */
	uint32_t enter_funcs[MAX_STACK]; /* cpu_data->enter_funcs */
} Cpu;

static Cpu cpus[MAX_CPUS];
static Task *tasks; /* N_TASKS workers, then one idle task per CPU */
static int n_tasks;
static int drain;

static void put_prologue(int c, const Task *t)
{
	put_cpu(c);
	if (opt_proc) {
		put_proc(t->comm, t->pid);
		put_str(" | ");
	}
}

static void put_irq_arrow(int c, const Task *t, int in)
{
	put_prologue(c, t);
	put_str(in ? "  ==========> |" : "  <========== |");
	line_end();
	n_event_lines++;
	n_events++;
}

static double call_prob(int depth)
{
	static const double p[] = { 0.9,  0.8,	0.68, 0.58, 0.5,  0.43, 0.37, 0.33,
				    0.30, 0.27, 0.24, 0.22, 0.20, 0.18, 0.16, 0.15 };
	return depth < 16 ? p[depth] : 0.14;
}

static void account(uint32_t f, uint64_t dur, uint64_t child, int recursive)
{
	Func *fn = &funcs[f];
	fn->calls++;
	if (!recursive)
		fn->total += dur;
	else
		n_recursive++;
	fn->self += dur - child;
}

static uint64_t gap_ns(void)
{
	return 20 + (uint64_t)rnd_lognorm(70, 0.8);
}

static uint64_t leaf_ns(void)
{
	double d = rnd_lognorm(250, 0.9);
	if (rnd_chance(0.003))
		d += rnd_exp(40000);
	if (rnd_chance(0.0002))
		d += rnd_exp(2500000);
	return 30 + (uint64_t)d;
}

static uint64_t idle_wait_ns(int c)
{
	/* sleep until the next task wakes, as the menu governor would */
	uint64_t now = cpus[c].clock, next = UINT64_MAX;
	for (int i = 0; i < N_TASKS; i++)
		if (tasks[i].in_pool && tasks[i].wake < next)
			next = tasks[i].wake;
	uint64_t d = next == UINT64_MAX ? (uint64_t)rnd_exp(300000) : next > now ? next - now : 0;
	d += 200 + (uint64_t)rnd_exp(1500);
	return d;
}

/* Which callee, if any, the frame calls next. */
static uint32_t next_callee(Frame *f, int depth)
{
	const Func *fn = &funcs[f->func];
	if (f->reps) {
		f->reps--;
		return fn->callees[f->next - 1];
	}
	while (f->next < fn->n_callees) {
		uint32_t c = fn->callees[f->next++];
		int call;
		if (f->forced) {
			f->forced = 0;
			call = 1;
		} else if (drain) {
			call = 0;
		} else if (fn->flags & FN_SCRIPTED) {
			call = 1;
		} else if (c == f_schedule) {
			call = rnd_chance(0.3);
		} else {
			call = rnd_chance(call_prob(depth));
		}
		if (!call)
			continue;
		if (!(fn->flags & FN_SCRIPTED) && rnd_chance(0.08))
			f->reps = (uint8_t)(1 + rnd_below(3));
		return c;
	}
	return UINT32_MAX;
}

/* The index of the first callee a new frame will call, or -1: a leaf. */
static int first_callee(uint32_t func, int depth)
{
	const Func *fn = &funcs[func];
	if (depth + 1 >= MAX_STACK - 2)
		return -1;
	for (int i = 0; i < fn->n_callees; i++) {
		uint32_t c = fn->callees[i];
		if (fn->flags & FN_SCRIPTED)
			return i;
		if (drain)
			return -1;
		if (c == f_schedule ? rnd_chance(0.3) : rnd_chance(call_prob(depth + 1)))
			return i;
	}
	return -1;
}

static void emit_leaf(int c, Task *t, uint32_t f, uint64_t dur)
{
	Cpu *cpu = &cpus[c];
	int d = t->depth;
	put_prologue(c, t);
	put_duration(dur);
	put_spaces(2 * d);
	put_mem(funcs[f].name, funcs[f].len);
	put_str("();");
	line_end();
	cpu->last_depth = d - 1;
	cpu->enter_funcs[d] = 0;
	n_event_lines++;
	n_events += 2; /* the entry and the exit the reader makes up */
}

/* A call of f by t at t's current depth: a leaf line, or a nested entry. */
static const char *slow_name;
static double slow_factor = 1.0;

/* The extra time -x adds to own time ns of function f. */
static uint64_t slow_extra(uint32_t f, uint64_t ns)
{
	if (!slow_name || strcmp(funcs[f].name, slow_name) != 0)
		return 0;
	return (uint64_t)((double)ns * (slow_factor - 1.0));
}

static void call_func(int c, Task *t, uint32_t f, int irq)
{
	Cpu *cpu = &cpus[c];
	int d = t->depth;
	int recursive = t->open[f] > 0;
	cpu->clock += gap_ns();
	if (d > max_depth_seen)
		max_depth_seen = d;
	if (irq) {
		put_irq_arrow(c, t, 1);
		n_irqs++;
	}
	int first = first_callee(f, d);
	if (first < 0) {
		uint64_t dur = funcs[f].flags & FN_IDLE_WAIT ? idle_wait_ns(c) : leaf_ns();
		dur = dur_exact(dur + slow_extra(f, dur));
		emit_leaf(c, t, f, dur);
		cpu->clock += dur;
		account(f, dur, 0, recursive);
		if (d > 0)
			t->stack[d - 1].child += dur;
		if (irq)
			put_irq_arrow(c, t, 0);
		return;
	}
	Frame *fr = &t->stack[d];
	memset(fr, 0, sizeof *fr);
	fr->func = f;
	fr->next = (uint8_t)first;
	fr->forced = 1;
	fr->irq = (uint8_t)irq;
	fr->recursive = (uint8_t)recursive;
	fr->entry = cpu->clock;
	t->depth++;
	t->open[f]++;
	if (irq)
		t->irq_level++;
	put_prologue(c, t);
	put_str("              |  ");
	put_spaces(2 * d);
	put_mem(funcs[f].name, funcs[f].len);
	put_str("() {");
	line_end();
	cpu->last_depth = d;
	cpu->enter_funcs[d] = f;
	n_event_lines++;
	n_events++;
}

static void exit_frame(int c, Task *t)
{
	Cpu *cpu = &cpus[c];
	int d = --t->depth;
	Frame *fr = &t->stack[d];
	uint32_t f = fr->func;
	cpu->clock += gap_ns();
	cpu->clock += slow_extra(f, cpu->clock - fr->entry - fr->child);
	uint64_t dur = dur_exact(cpu->clock - fr->entry);
	cpu->clock = fr->entry + dur;
	t->open[f]--;
	account(f, dur, fr->child, fr->recursive);
	if (d > 0)
		t->stack[d - 1].child += dur;
	put_prologue(c, t);
	put_duration(dur);
	put_spaces(2 * d);
	if (opt_tail || cpu->enter_funcs[d] != f) {
		put_str("} /* ");
		put_mem(funcs[f].name, funcs[f].len);
		put_str(" */");
	} else {
		put_ch('}');
	}
	line_end();
	cpu->last_depth = d - 1;
	cpu->enter_funcs[d] = 0;
	n_event_lines++;
	n_events++;
	if (fr->irq) {
		t->irq_level--;
		put_irq_arrow(c, t, 0);
	}
}

static void emit_marker(int c, Task *t)
{
	static const char *const what[] = { "frame", "request", "batch", "phase", "iteration" };
	char b[96];
	uint32_t n = rnd_below(100000);
	switch (rnd_below(6)) {
	case 0:
		snprintf(b, sizeof b, "B|%d|%s %u", t->pid, PICK(what), n);
		break;
	case 1:
		snprintf(b, sizeof b, "E|%d", t->pid);
		break;
	case 2:
		snprintf(b, sizeof b, "C|%d|queue_depth|%u", t->pid, n % 64);
		break;
	case 3:
		snprintf(b, sizeof b, "%s %u begin", PICK(what), n);
		break;
	case 4:
		snprintf(b, sizeof b, "%s %u end", PICK(what), n);
		break;
	default:
		snprintf(b, sizeof b, "checkpoint %u reached (seed run)", n);
		break;
	}
	Cpu *cpu = &cpus[c];
	cpu->clock += gap_ns();
	put_prologue(c, t);
	put_str("              |  ");
	/* print_graph_comment: (depth + 1) levels in, none at depth 0 */
	if (cpu->last_depth > 0)
		put_spaces(2 * (cpu->last_depth + 1));
	put_str("/* ");
	put_str(b);
	put_str(" */");
	line_end();
	n_event_lines++;
	n_events++;
	n_markers++;
}

static uint64_t sleep_ns(void)
{
	double u = rnd_unit();
	if (u < 0.45)
		return 1000 + (uint64_t)rnd_exp(15000);
	if (u < 0.85)
		return 5000 + (uint64_t)rnd_exp(300000);
	if (u < 0.985)
		return (uint64_t)rnd_exp(4000000);
	if (u < 0.999)
		return 20000000 + rnd_below(180000000);
	return 1000000000ull + rnd_below(1500000000u);
}

/* The runnable task that has waited longest, or NULL; with any_stack, any
 * pooled task still inside a call, however far its wake-up lies ahead. */
static Task *pool_pick(uint64_t now, int any_stack)
{
	Task *best = NULL;
	for (int i = 0; i < N_TASKS; i++) {
		Task *t = &tasks[i];
		if (!t->in_pool)
			continue;
		if (any_stack ? t->depth == 0 : t->wake > now)
			continue;
		if (!best || t->wake < best->wake)
			best = t;
	}
	return best;
}

/* verif_pid's separator block, then next runs on c. */
static void switch_to(int c, Task *next)
{
	Cpu *cpu = &cpus[c];
	Task *prev = cpu->cur;
	put_str(" ------------------------------------------");
	line_end();
	put_cpu(c);
	put_proc(prev->comm, prev->pid);
	put_str(" => ");
	put_proc(next->comm, next->pid);
	line_end();
	put_str(" ------------------------------------------");
	line_end();
	line_end();
	n_event_lines++;
	n_events++;
	n_switches++;
	next->in_pool = 0;
	cpu->cur = next;
}

/* __schedule has run its callees: the task sleeps, the CPU takes another. */
static void do_switch(int c, Task *t, Frame *fr)
{
	Cpu *cpu = &cpus[c];
	Task *next = pool_pick(cpu->clock, 0);
	if (!next && t->idle_cpu < 0)
		next = cpu->idle;
	if (!next) {
		/* the idle task picked itself: no switch */
		fr->sched = SCHED_RESUMED;
		return;
	}
	fr->sched = SCHED_SWITCHED;
	if (t->idle_cpu < 0) {
		t->wake = cpu->clock + sleep_ns();
		t->in_pool = 1;
	}
	switch_to(c, next);
}

static void start_root(int c, Task *t)
{
	uint32_t r;
	if (t->idle_cpu >= 0) {
		r = pool_pick(cpus[c].clock, 0) ? f_schedule_idle : f_cpuidle;
	} else if (rnd_chance(0.04)) {
		r = f_preempt_root;
	} else {
		r = cdf_pick(root_cdf, n_roots);
	}
	call_func(c, t, r, 0);
}

static void drain_step(int c)
{
	Cpu *cpu = &cpus[c];
	Task *next = pool_pick(0, 1);
	if (next) {
		if (next->wake > cpu->clock)
			cpu->clock = next->wake;
		switch_to(c, next);
	} else if (cpu->cur != cpu->idle && cpu->idle->depth > 0) {
		switch_to(c, cpu->idle);
	} else {
		cpu->done = 1;
	}
}

static void step(int c)
{
	Cpu *cpu = &cpus[c];
	Task *t = cpu->cur;
	if (t->depth == 0) {
		if (drain)
			drain_step(c);
		else
			start_root(c, t);
		return;
	}
	Frame *fr = &t->stack[t->depth - 1];
	if (fr->sched == SCHED_SWITCHED) {
		/* back from the switch: the rest of __schedule */
		fr->sched = SCHED_RESUMED;
		call_func(c, t, f_finish_switch, 0);
		return;
	}
	if (!drain && t->irq_level == 0 && t->depth < 14 && rnd_chance(0.0025)) {
		call_func(c, t, irq_roots[cdf_pick(IRQ_CDF, 4)], 1);
		return;
	}
	if (!drain && rnd_chance(0.0006)) {
		emit_marker(c, t);
		return;
	}
	uint32_t callee = next_callee(fr, t->depth);
	if (callee != UINT32_MAX) {
		call_func(c, t, callee, 0);
		return;
	}
	if ((funcs[fr->func].flags & FN_SWITCH) && fr->sched == SCHED_RUNNING && !drain) {
		do_switch(c, t, fr);
		return;
	}
	exit_frame(c, t);
}

/* ---- main -------------------------------------------------------------------- */

static int cmp_name(const void *a, const void *b)
{
	return strcmp(funcs[*(const uint32_t *)a].name, funcs[*(const uint32_t *)b].name);
}

static void usage(void)
{
	fprintf(stderr, "usage: gen-fgraph [-s SEED] [-c CPUS] [-f FUNCS] [-n NAMES] [-p] [-l] "
			"[-v] [-t TRUTH] [-x NAME:FACTOR] SIZE OUT\n");
	exit(2);
}

static int parse_u64(const char *s, uint64_t *v, int suffix)
{
	char *e;
	errno = 0;
	unsigned long long x = strtoull(s, &e, 10);
	if (errno || e == s || *s == '-')
		return 0;
	if (suffix && *e) {
		int sh = *e == 'K' || *e == 'k'	  ? 10
			 : *e == 'M' || *e == 'm' ? 20
			 : *e == 'G' || *e == 'g' ? 30
						  : -1;
		if (sh < 0 || e[1] || x > (UINT64_MAX >> sh))
			return 0;
		x <<= sh;
		e++;
	}
	if (*e)
		return 0;
	*v = x;
	return 1;
}

static FILE *open_tmp(const char *path, char **tmp)
{
	size_t n = strlen(path) + 16;
	*tmp = xmalloc(n);
	snprintf(*tmp, n, "%s.tmp%ld", path, (long)getpid());
	FILE *f = fopen(*tmp, "w");
	if (!f) {
		fprintf(stderr, "gen-fgraph: %s: %s\n", *tmp, strerror(errno));
		exit(1);
	}
	return f;
}

static void close_rename(FILE *f, const char *tmp, const char *path)
{
	if (fflush(f) || ferror(f) || fclose(f) || rename(tmp, path)) {
		fprintf(stderr, "gen-fgraph: %s: %s\n", path, strerror(errno));
		unlink(tmp);
		exit(1);
	}
}

int main(int argc, char **argv)
{
	uint64_t seed = 1, want_funcs = 5000, ncpu = 8, size;
	const char *truth_path = NULL;
	int verbose = 0, opt;
	while ((opt = getopt(argc, argv, "s:c:f:n:plt:vx:")) != -1) {
		switch (opt) {
		case 's':
			if (!parse_u64(optarg, &seed, 0))
				usage();
			break;
		case 'c':
			if (!parse_u64(optarg, &ncpu, 0) || ncpu < 1 || ncpu > MAX_CPUS)
				usage();
			break;
		case 'f':
			if (!parse_u64(optarg, &want_funcs, 0) || want_funcs > 1000000)
				usage();
			break;
		case 'n':
			pool_read(optarg);
			break;
		case 'p':
			opt_proc = 1;
			break;
		case 'l':
			opt_tail = 1;
			break;
		case 't':
			truth_path = optarg;
			break;
		case 'v':
			verbose = 1;
			break;
		case 'x': {
			char *colon = strrchr(optarg, ':'), *end;
			if (!colon || colon == optarg)
				usage();
			*colon = '\0';
			slow_name = optarg;
			slow_factor = strtod(colon + 1, &end);
			if (*end || !(slow_factor >= 1.0 && slow_factor <= 1000.0))
				usage();
			break;
		}
		default:
			usage();
		}
	}
	if (argc - optind != 2 || !parse_u64(argv[optind], &size, 1))
		usage();
	const char *out_path = argv[optind + 1];

	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		rng_s[i] = splitmix64(&x);
	graph_build((uint32_t)want_funcs);

	n_cpus = (int)ncpu;
	cpu_width = 1;
	for (int v = n_cpus - 1; v >= 10; v /= 10)
		cpu_width++;
	n_tasks = N_TASKS + n_cpus;
	tasks = xmalloc((size_t)n_tasks * sizeof *tasks);
	for (int i = 0; i < n_tasks; i++) {
		Task *t = &tasks[i];
		t->open = xmalloc(n_funcs);
		if (i < N_TASKS) {
			t->comm = COMMS[i % (sizeof COMMS / sizeof COMMS[0])];
			t->pid = 1000 + 600 * i + (int)rnd_below(600); /* distinct */
			t->idle_cpu = -1;
			t->in_pool = 1;
			t->wake = 1000 + rnd_below(200000);
		} else {
			t->comm = "<idle>";
			t->pid = 0;
			t->idle_cpu = i - N_TASKS;
			cpus[t->idle_cpu].idle = cpus[t->idle_cpu].cur = t;
		}
	}
	for (int c = 0; c < n_cpus; c++)
		cpus[c].clock = 5000 + rnd_below(5000);

	char *tmp;
	out = open_tmp(out_path, &tmp);
	obuf = xmalloc(OBUF_SIZE);
	put_str("# tracer: function_graph\n#\n");
	if (opt_proc)
		put_str("# CPU  TASK/PID         DURATION                  FUNCTION CALLS\n"
			"# |     |    |           |   |                     |   |   |   |\n");
	else
		put_str("# CPU  DURATION                  FUNCTION CALLS\n"
			"# |     |   |                     |   |   |   |\n");
	n_lines += 4;

	for (;;) {
		int best = -1;
		for (int c = 0; c < n_cpus; c++)
			if (!cpus[c].done && (best < 0 || cpus[c].clock < cpus[best].clock))
				best = c;
		if (best < 0)
			break;
		step(best);
		if (!drain && bytes_out + olen >= size)
			drain = 1;
	}
	bytes_out += olen;
	out_flush();
	close_rename(out, tmp, out_path);
	free(tmp);

	uint32_t *order = xmalloc(n_funcs * sizeof *order), n_called = 0;
	for (uint32_t f = 0; f < n_funcs; f++)
		if (funcs[f].calls)
			order[n_called++] = f;
	qsort(order, n_called, sizeof *order, cmp_name);
	uint64_t calls = 0;
	for (uint32_t i = 0; i < n_called; i++)
		calls += funcs[order[i]].calls;
	if (truth_path) {
		FILE *tf = open_tmp(truth_path, &tmp);
		fprintf(tf,
			"# bytes %" PRIu64 "\n# lines %" PRIu64 "\n# event_lines %" PRIu64
			"\n# events %" PRIu64 "\n# calls %" PRIu64 "\n# functions %u\n"
			"# markers %" PRIu64 "\n# task_switches %" PRIu64 "\n# irqs %" PRIu64
			"\n# recursive_calls %" PRIu64 "\n# max_depth %d\n",
			bytes_out, n_lines, n_event_lines, n_events, calls, n_called, n_markers,
			n_switches, n_irqs, n_recursive, max_depth_seen);
		fprintf(tf, "function,calls,total_ns,self_ns\n");
		for (uint32_t i = 0; i < n_called; i++) {
			const Func *fn = &funcs[order[i]];
			fprintf(tf, "%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", fn->name, fn->calls,
				fn->total, fn->self);
		}
		close_rename(tf, tmp, truth_path);
		free(tmp);
	}
	if (verbose)
		fprintf(stderr,
			"gen-fgraph: %" PRIu64 " bytes, %" PRIu64 " lines, %" PRIu64
			" calls of %u functions (%u in the graph), %" PRIu64 " switches, %" PRIu64
			" irqs, %" PRIu64 " markers, max depth %d, %.3f s traced\n",
			bytes_out, n_lines, calls, n_called, n_funcs, n_switches, n_irqs, n_markers,
			max_depth_seen, cpus[0].clock / 1e9);
	return 0;
}
