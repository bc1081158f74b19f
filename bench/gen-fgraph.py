#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Writes a synthetic but realistic function_graph trace for benchmarks.

usage: gen-fgraph.py SIZE_MB OUT

The output follows the kernel's own formatting (trace_functions_graph.c): the
default columns (CPU, overhead mark, DURATION, FUNCTION CALLS), a CPU column two
digits wide as on a machine with 16 or more CPUs, four CPUs whose lines are
interleaved as the merged 'trace' file shows them, nested entries and exits with
durations and the + ! # * @ $ marks, leaves, funcgraph-tail comments on part of
the exits, task-switch separator blocks, interrupts bracketed by ==========> and
<==========, and a few /* marker */ comments. A fixed seed makes the output the
same on every run, so a smaller file is a prefix of a bigger one.
"""

import os
import random
import sys

SEED = 20240601
CPUS = (0, 3, 10, 13)   # two-digit CPU numbers on purpose
CPU_WIDTH = 2           # as the kernel prints with nr_cpu_ids in 11..100
INDENT = 2              # TRACE_GRAPH_INDENT
MAX_DEPTH = 14

# A small call graph: function -> functions it may call. Anything not listed
# is a leaf.
CALLS = {
    "__x64_sys_read": ["ksys_read"],
    "ksys_read": ["__fdget_pos", "vfs_read", "fput"],
    "vfs_read": ["rw_verify_area", "new_sync_read", "fsnotify_access"],
    "rw_verify_area": ["security_file_permission"],
    "security_file_permission": ["apparmor_file_permission", "fsnotify_perm"],
    "new_sync_read": ["ext4_file_read_iter"],
    "ext4_file_read_iter": ["generic_file_read_iter"],
    "generic_file_read_iter": ["filemap_read"],
    "filemap_read": ["filemap_get_pages", "touch_atime", "copy_page_to_iter", "_cond_resched"],
    "filemap_get_pages": ["filemap_get_read_batch", "page_cache_sync_ra"],
    "touch_atime": ["atime_needs_update"],
    "__x64_sys_write": ["ksys_write"],
    "ksys_write": ["__fdget_pos", "vfs_write", "fput"],
    "vfs_write": ["rw_verify_area", "new_sync_write", "__fsnotify_parent"],
    "new_sync_write": ["pipe_write"],
    "pipe_write": ["mutex_lock", "copy_page_from_iter", "__wake_up_common_lock", "mutex_unlock"],
    "__wake_up_common_lock": ["_raw_spin_lock_irqsave", "__wake_up_common", "_raw_spin_unlock_irqrestore"],
    "__wake_up_common": ["autoremove_wake_function"],
    "autoremove_wake_function": ["default_wake_function"],
    "default_wake_function": ["try_to_wake_up"],
    "try_to_wake_up": ["_raw_spin_lock_irqsave", "select_task_rq_fair", "ttwu_queue_wakelist", "_raw_spin_unlock_irqrestore"],
    "__x64_sys_openat": ["do_sys_openat2"],
    "do_sys_openat2": ["getname", "get_unused_fd_flags", "do_filp_open", "fd_install", "putname"],
    "getname": ["getname_flags"],
    "getname_flags": ["kmem_cache_alloc", "strncpy_from_user"],
    "do_filp_open": ["path_openat"],
    "path_openat": ["alloc_empty_file", "path_init", "link_path_walk", "open_last_lookups", "do_open", "terminate_walk"],
    "alloc_empty_file": ["__alloc_file"],
    "__alloc_file": ["kmem_cache_alloc", "security_file_alloc"],
    "link_path_walk": ["inode_permission", "walk_component"],
    "walk_component": ["lookup_fast", "step_into"],
    "lookup_fast": ["__d_lookup_rcu"],
    "do_open": ["complete_walk", "may_open", "vfs_open"],
    "vfs_open": ["do_dentry_open"],
    "do_dentry_open": ["path_get", "security_file_open", "ext4_file_open"],
    "putname": ["kmem_cache_free"],
    "__x64_sys_futex": ["do_futex"],
    "do_futex": ["futex_wait", "futex_wake"],
    "futex_wait": ["futex_wait_setup", "futex_wait_queue"],
    "futex_wait_queue": ["schedule"],
    "schedule": ["__schedule"],
    "__schedule": ["rcu_note_context_switch", "_raw_spin_lock", "update_rq_clock", "pick_next_task_fair", "__switch_to_asm", "finish_task_switch"],
    "pick_next_task_fair": ["update_curr", "pick_next_entity", "set_next_entity"],
    "futex_wake": ["get_futex_key", "_raw_spin_lock", "wake_up_q"],
    "wake_up_q": ["try_to_wake_up"],
    "__x64_sys_mmap": ["ksys_mmap_pgoff"],
    "ksys_mmap_pgoff": ["vm_mmap_pgoff"],
    "vm_mmap_pgoff": ["security_mmap_file", "down_write_killable", "do_mmap", "up_write"],
    "do_mmap": ["get_unmapped_area", "mmap_region"],
    "mmap_region": ["may_expand_vm", "vma_merge", "vm_area_alloc", "vma_link"],
    "exc_page_fault": ["do_user_addr_fault"],
    "do_user_addr_fault": ["lock_mm_and_find_vma", "handle_mm_fault", "up_read"],
    "handle_mm_fault": ["__handle_mm_fault", "mem_cgroup_from_task"],
    "__handle_mm_fault": ["handle_pte_fault"],
    "handle_pte_fault": ["do_anonymous_page", "do_fault"],
    "do_anonymous_page": ["alloc_pages", "mem_cgroup_charge", "page_add_new_anon_rmap", "lru_cache_add_inactive_or_unevictable"],
    "alloc_pages": ["__alloc_pages"],
    "__alloc_pages": ["get_page_from_freelist"],
    "get_page_from_freelist": ["rmqueue", "clear_page_erms"],
    "do_fault": ["filemap_map_pages"],
}
SYSCALLS = ["__x64_sys_read", "__x64_sys_write", "__x64_sys_openat", "__x64_sys_futex",
            "__x64_sys_mmap", "exc_page_fault"]
SYSCALL_WEIGHTS = [30, 25, 10, 15, 5, 15]
IRQ_TREE = {
    "sysvec_apic_timer_interrupt": ["irq_enter_rcu", "__sysvec_apic_timer_interrupt", "irq_exit_rcu"],
    "__sysvec_apic_timer_interrupt": ["hrtimer_interrupt"],
    "hrtimer_interrupt": ["_raw_spin_lock_irqsave", "__hrtimer_run_queues", "hrtimer_update_next_event", "tick_program_event"],
    "__hrtimer_run_queues": ["tick_sched_timer"],
    "tick_sched_timer": ["tick_sched_do_timer", "tick_sched_handle"],
    "tick_sched_handle": ["update_process_times"],
    "update_process_times": ["account_process_tick", "run_local_timers", "scheduler_tick"],
    "scheduler_tick": ["_raw_spin_lock", "update_rq_clock", "task_tick_fair", "trigger_load_balance"],
    "irq_exit_rcu": ["__irq_exit_rcu"],
    "__irq_exit_rcu": ["__do_softirq"],
    "__do_softirq": ["run_timer_softirq", "rcu_core"],
}
CALLS.update(IRQ_TREE)
TASKS = ["bash-2381", "sshd-1022", "kworker/3:1-197", "firefox-4410", "Web Content-4471",
         "systemd-journal-301", "gnome-shell-1880", "cc1-9920", "make-9901", "ksoftirqd/10-73"]
MARKERS = ["tracing_mark_write: bench phase begin", "tracing_mark_write: frame 42 start",
           "tracing_mark_write: B|4410|draw", "tracing_mark_write: E|4410",
           "checkpoint reached", "tracing_mark_write: loop iteration"]

MARKS = ((1000000000, "$"), (100000000, "@"), (10000000, "*"), (1000000, "#"),
         (100000, "!"), (10000, "+"))


def mark(ns):
    for limit, sym in MARKS:
        if ns > limit:
            return sym
    return " "


def duration(ns):
    """The kernel's mark + duration column, 12 characters before '|'."""
    us, rem = divmod(ns, 1000)
    s = str(us)
    n = len(s)
    if n < 7:
        frac = "%03d" % rem
        frac = frac[:max(0, min(5, 8 - n) - 1)]
        s += "." + frac
        n += len(frac) + 1
    return mark(ns) + " " + s + " us " + " " * max(0, 8 - n)


NO_DURATION = "              "   # 14 blanks, FLAGS_FILL_FULL


def proc(task):
    """print_graph_proc: comm cut to 7 characters, centered in 14."""
    comm, pid = task.rsplit("-", 1)
    text = "%s-%s" % (comm[:7], pid)
    spaces = max(0, 14 - len(text))
    half = spaces // 2
    return " " * half + text + " " * (spaces - half)


class Cpu:
    def __init__(self, cpu, rnd):
        self.cpu = cpu
        self.rnd = rnd
        self.prefix = " %*d) " % (CPU_WIDTH, cpu)
        self.task = rnd.choice(TASKS)

    def line(self, dur, depth, text):
        return "%s%s|  %s%s\n" % (self.prefix, dur, " " * (depth * INDENT), text)

    def call(self, func, depth, graph):
        """Yields the lines of one call and returns its duration in ns."""
        rnd = self.rnd
        callees = graph.get(func)
        if callees and depth < MAX_DEPTH:
            callees = [c for c in callees if rnd.random() < 0.75]
        if not callees or depth >= MAX_DEPTH or rnd.random() < 0.08:
            # Nothing traced below it: the kernel prints one leaf line.
            # Mostly sub-microsecond, sometimes a slow one.
            ns = int(rnd.lognormvariate(5.8, 1.0)) + 40
            if rnd.random() < 0.002:
                ns += rnd.randrange(20000, 3000000)
            yield self.line(duration(ns), depth, func + "();")
            return ns
        yield self.line(NO_DURATION, depth, func + "() {")
        total = int(rnd.lognormvariate(5.0, 0.8))
        for callee in callees:
            for _ in range(1 + (rnd.random() < 0.15)):
                total += yield from self.call(callee, depth + 1, graph)
            if rnd.random() < 0.004:
                total += yield from self.irq(depth + 1)
            if rnd.random() < 0.0015:
                text = rnd.choice(MARKERS)
                # print_graph_comment indents (depth + 1) levels past depth 0.
                ind = (depth + 2) * INDENT
                yield "%s%s|  %s/* %s */\n" % (self.prefix, NO_DURATION, " " * ind, text)
        if func == "schedule":
            # Off the CPU: the exit shows the whole sleep, now and then a long
            # one that earns the @ and $ marks up the stack.
            r = rnd.random()
            if r < 0.5:
                total += int(rnd.expovariate(1 / 2e6))
            if r < 0.03:
                total += rnd.randrange(90000000, 1500000000)
        end = "}"
        if rnd.random() < 0.3:
            end += " /* %s */" % func   # funcgraph-tail
        yield self.line(duration(total), depth, end)
        return total

    def irq(self, depth):
        yield "%s  ==========> |\n" % self.prefix
        ns = yield from self.call("sysvec_apic_timer_interrupt", depth, CALLS)
        yield "%s  <========== |\n" % self.prefix
        return ns

    def lines(self):
        rnd = self.rnd
        while True:
            if rnd.random() < 0.05:
                nxt = rnd.choice(TASKS)
                if nxt != self.task:
                    yield " ------------------------------------------\n"
                    yield "%s%s => %s\n" % (self.prefix, proc(self.task), proc(nxt))
                    yield " ------------------------------------------\n"
                    yield "\n"
                    self.task = nxt
            root = rnd.choices(SYSCALLS, SYSCALL_WEIGHTS)[0]
            yield from self.call(root, 0, CALLS)


HEADER = ("# tracer: function_graph\n"
          "#\n"
          "# CPU  DURATION                  FUNCTION CALLS\n"
          "# |     |   |                     |   |   |   |\n")


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: gen-fgraph.py SIZE_MB OUT\n")
        return 2
    try:
        size = int(float(sys.argv[1]) * 1024 * 1024)
    except ValueError:
        sys.stderr.write("gen-fgraph.py: SIZE_MB must be a number\n")
        return 2
    out_path = sys.argv[2]
    rnd = random.Random(SEED)
    cpus = [Cpu(c, rnd) for c in CPUS]
    streams = [c.lines() for c in cpus]
    tmp = out_path + ".tmp"
    written = 0
    with open(tmp, "w", encoding="ascii", newline="\n") as f:
        f.write(HEADER)
        written += len(HEADER)
        buf = []
        while written < size:
            # The merged 'trace' file switches CPU every few lines.
            stream = streams[rnd.randrange(len(streams))]
            for _ in range(rnd.randint(1, 24)):
                line = next(stream)
                buf.append(line)
                written += len(line)
            if len(buf) > 20000:
                f.write("".join(buf))
                buf.clear()
        f.write("".join(buf))
    # Rename only a complete file, so run.sh never benchmarks half of one.
    os.replace(tmp, out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
