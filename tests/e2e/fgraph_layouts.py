#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""function_graph traces in every layout the kernel's options give, for the
fast path's test (t1012): one file per combination of funcgraph-proc,
funcgraph-abstime, funcgraph-cpu, funcgraph-duration, funcgraph-overhead,
funcgraph-irqs, funcgraph-tail and latency-format, each with and without
markers and events (comments), printed as kernel/trace/trace_functions_graph.c
prints them (print_graph_prologue, print_graph_duration, print_graph_proc,
print_graph_irq, the context-switch separator).

usage: fgraph_layouts.py OUTDIR [SEED]     writes OUTDIR/L<bits>.txt, prints
the number of files."""

import os
import random
import sys

OPTS = ["proc", "abstime", "cpu", "duration", "overhead", "irqs", "tail", "latency", "comments"]
FUNCS = ["vfs_read", "rw_verify_area", "security_file_permission", "__fsnotify_parent",
         "_raw_spin_lock", "ext4_file_read_iter", "do_syscall_64", "x86.get_pmu",
         "kmem_cache_alloc", "__x64_sys_read", "down_read", "up_read", "a",
         "really_a_very_long_function_name_for_the_column_width"]
TASKS = [("bash", 4802), ("<idle>", 0), ("kworker/0:1", 17), ("Web Content", 31337)]


def mark(ns):
    for lim, m in ((1000000000, "$"), (100000000, "@"), (10000000, "*"),
                   (1000000, "#"), (100000, "!"), (10000, "+")):
        if ns > lim:
            return m
    return " "


def duration(ns, o):
    """print_graph_duration + trace_print_graph_duration."""
    if not o["duration"]:
        return ""
    s = (mark(ns) if o["overhead"] else " ") + " "
    usecs, rem = divmod(ns, 1000)
    u = str(usecs)
    n = len(u)
    if n < 7:
        frac = ("%03d" % rem)[: 7 - n]
        u += "." + frac
        n += len(frac) + 1
    return s + u + " us " + " " * max(0, 8 - n) + "|  "


def fill(o):
    return "              |  " if o["duration"] else ""


def proc(task):
    comm, pid = task
    t = "%s-%d" % (comm, pid)
    sp = max(0, 14 - len(t))
    return " " * (sp // 2) + t + " " * (sp - sp // 2)


class Gen:
    def __init__(self, o, rnd, ncpu):
        self.o, self.rnd, self.ncpu = o, rnd, ncpu
        self.ts = [1000 + rnd.randrange(1000000) * 1000 for _ in range(ncpu)]
        self.out = []

    def prologue(self, cpu, task):
        o = self.o
        s = ""
        if o["abstime"]:
            sec, ns = divmod(self.ts[cpu], 1000000000)
            s += "%5d.%06d |  " % (sec, ns // 1000)
        if o["cpu"]:
            s += " %*d) " % (len(str(self.ncpu - 1)), cpu)
        if o["proc"]:
            s += proc(task) + " | "
        if o["latency"]:
            s += self.rnd.choice(["d..1", "dN.2", "...1", "d.h3", "d..1."]) + " | "
        return s

    def line(self, cpu, task, rest):
        self.out.append(self.prologue(cpu, task) + rest)

    def call(self, cpu, task, depth, left):
        o, rnd = self.o, self.rnd
        f = rnd.choice(FUNCS)
        ind = "  " * depth
        if depth > 6 or left[0] <= 0 or rnd.random() < 0.45:
            d = rnd.choice([87, 551, 9999, 10001, 123456, 1500000, 12345678, 1234567890])
            left[0] -= 1
            self.line(cpu, task, duration(d, o) + ind + f + "();")
            self.ts[cpu] += d
            return d
        self.line(cpu, task, fill(o) + ind + f + "() {")
        total = 0
        for _ in range(rnd.randrange(1, 4)):
            if o["comments"] and rnd.random() < 0.15:
                text = rnd.choice(["hello | world", "sched_switch: prev_comm=bash prev_pid=4802"
                                   " prev_prio=120 prev_state=S ==> next_comm=swapper/0"
                                   " next_pid=0 next_prio=120", "tracing_mark_write: x-1 | y",
                                   "B|22469|frame 35238"])
                self.line(cpu, task, fill(o) + ind + "  /* " + text + " */")
            if o["irqs"] and rnd.random() < 0.1:
                pre = "  " if o["duration"] else ""
                post = " |" if o["duration"] else ""
                self.line(cpu, task, pre + "==========>" + post)
                total += self.call(cpu, task, depth + 1, left)
                self.line(cpu, task, pre + "<==========" + post)
            total += self.call(cpu, task, depth + 1, left)
        d = total + rnd.randrange(50, 5000)
        tail = " /* %s */" % f if o["tail"] else ""
        self.line(cpu, task, duration(d, o) + ind + "}" + tail)
        self.ts[cpu] += d
        return d

    def switch(self, cpu, a, b):
        self.out.append(" ------------------------------------------")
        self.out.append(" %*d) %s => %s" % (len(str(self.ncpu - 1)), cpu, proc(a), proc(b)))
        self.out.append(" ------------------------------------------")
        self.out.append("")


def main():
    outdir = sys.argv[1]
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for bits in range(1 << len(OPTS)):
        o = {k: bool(bits >> i & 1) for i, k in enumerate(OPTS)}
        rnd = random.Random(seed * 1000003 + bits)
        g = Gen(o, rnd, rnd.choice([2, 4, 12]))
        g.out += ["# tracer: function_graph", "#",
                  "# CPU  DURATION                  FUNCTION CALLS",
                  "# |     |   |                     |   |   |   |"]
        task = rnd.choice(TASKS)
        for _ in range(6):
            cpu = rnd.randrange(g.ncpu)
            if rnd.random() < 0.3:
                nxt = rnd.choice(TASKS)
                g.switch(cpu, task, nxt)
                task = nxt
            g.call(cpu, task, 0, [rnd.randrange(3, 12)])
        with open(os.path.join(outdir, "L%03x.txt" % bits), "w") as fh:
            fh.write("\n".join(g.out) + "\n")
        n += 1
    print(n)


if __name__ == "__main__":
    main()
