#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""An oracle for `ftlens sched`, written apart from it: per-task run time and
switch counts (preempted ones apart), per-CPU busy and idle time, from the text of a trace (the
kernel's trace format or `trace-cmd report [-t]` output), under the
conventions ftlens-sched(1) states: a CPU's window runs from its first event
to the trace's last one; the task running at a CPU's first event is the pid it
names (prev_pid for sched_switch), and so is the task any later event names:
a change of pid without a sched_switch is a switch at that event.

  sched_oracle.py compare TRACE_TEXT FTLENS_JSON
      exit 1 and list the differences when `ftlens sched -F json` disagrees
  sched_oracle.py latency TRACE_CMD_W FTLENS_WAKEUPS_CSV
      every wakeup latency ftlens measured (sched --wakeups --wakeup-event
      sched_wakeup -F csv) equals the one `trace-cmd report -w -t` prints on
      the same switch
"""
import csv
import json
import re
import sys

LINE = re.compile(
    r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]*\)\s+)?\[(?P<cpu>\d+)\]\s+"
    r"(?:\S+\s+)?(?P<ts>\d+\.\d+):\s+(?P<rest>.*)$")
# the event name ends at ": " (syscall events print "sys_openat(dfd: ...")
NAME = re.compile(r"(?P<name>[\w:]+?):\s+(?P<payload>.*)$")
# "prev_comm=a prev_pid=1 ... prev_state=S ==> next_comm=b next_pid=2" (with
# or without "==>", as trace-cmd prints it without the print format)
SW_FIELDS = re.compile(r"prev_pid=(-?\d+).*?prev_state=(\S+).*next_pid=(-?\d+)")
# trace-cmd's sched plugin: "a:1 [120] S ==> b:2 [120]"
SW_PLUGIN = re.compile(r":(-?\d+) \[-?\d+\] (\S+) ==> .*:(-?\d+) \[-?\d+\]")
LOST = re.compile(r"^\s*CPU:\d+ \[(LOST|\d* ?EVENTS DROPPED)")


def ns(ts):
    sec, frac = ts.split(".")
    return int(sec) * 10**9 + int((frac + "000000000")[:9])


def events(path):
    with open(path, errors="replace") as f:
        for line in f:
            if LOST.match(line):
                raise SystemExit("%s: lost events: the oracle does not model them" % path)
            m = LINE.match(line)
            if not m:
                continue
            n = NAME.match(m["rest"])
            ev = (int(m["cpu"]), ns(m["ts"]), int(m["pid"]), n and n["name"], None)
            if n and n["name"] == "sched_switch":
                s = SW_FIELDS.search(n["payload"]) or SW_PLUGIN.search(n["payload"])
                if not s:
                    raise SystemExit("%s: unreadable sched_switch: %s" % (path, line))
                ev = ev[:4] + ((int(s.group(1)), int(s.group(3)), s.group(2)),)
            yield ev


def preempted(state):
    """R, R+; numerically 0 or a lone bit >= 1024 (TASK_STATE_MAX before 4.14)"""
    if state.startswith("R"):
        return True
    if state.isdigit():
        v = int(state)
        return v == 0 or (v >= 1024 and v & (v - 1) == 0)
    return False


def oracle(path):
    run, switches, busy, idle, pre = {}, {}, {}, {}, {}
    cur, since = {}, {}
    end = None

    def account(cpu, pid, t):
        d = t - since[cpu]
        if pid > 0:
            run[pid] = run.get(pid, 0) + d
            busy[cpu] = busy.get(cpu, 0) + d
        elif pid == 0:
            idle[cpu] = idle.get(cpu, 0) + d

    def switch(cpu, t, nxt):
        prev = cur[cpu]
        account(cpu, prev, t)
        if prev > 0:
            switches[prev] = switches.get(prev, 0) + 1
        cur[cpu], since[cpu] = nxt, t

    for cpu, t, pid, name, sw in sorted(events(path), key=lambda e: (e[1], e[0])):
        end = t if end is None else max(end, t)
        if cpu not in cur:
            cur[cpu], since[cpu] = (sw[0] if sw else pid), t
            busy.setdefault(cpu, 0)
            idle.setdefault(cpu, 0)
        # the pid an event names is the CPU's current task: a change without
        # a sched_switch is a switch there (none in the trace, or lost)
        now = sw[0] if sw else pid
        if now != cur[cpu]:
            switch(cpu, t, now)
        if sw:
            if cur[cpu] > 0 and preempted(sw[2]):
                pre[cur[cpu]] = pre.get(cur[cpu], 0) + 1
            switch(cpu, t, sw[1])
    for cpu in cur:
        account(cpu, cur[cpu], end)
    return run, switches, busy, idle, pre


def compare(trace, ftlens_json):
    run, switches, busy, idle, pre = oracle(trace)
    j = json.load(open(ftlens_json))
    got_tasks = {t["pid"]: t for t in j["tasks"]}
    got_cpus = {c["cpu"]: c for c in j["cpus"]}
    bad = []
    for pid in sorted(set(run) | set(switches)):
        t = got_tasks.get(pid, {"run_ns": 0, "switches": 0, "preempted": 0})
        want = (run.get(pid, 0), switches.get(pid, 0), pre.get(pid, 0))
        got = (t["run_ns"], t["switches"], t["preempted"])
        if got != want:
            bad.append("pid %d: run, switches, preempted %r, oracle %r" % (pid, got, want))
    for cpu in sorted(busy):
        c = got_cpus.get(cpu, {"busy_ns": 0, "idle_ns": 0})
        if (c["busy_ns"], c["idle_ns"]) != (busy[cpu], idle[cpu]):
            bad.append("cpu %d: busy, idle %r, oracle %r" % (cpu, (c["busy_ns"], c["idle_ns"]), (busy[cpu], idle[cpu])))
    extra = set(got_tasks) - set(run) - set(switches)
    if any(got_tasks[p]["run_ns"] or got_tasks[p]["switches"] for p in extra):
        bad.append("ftlens has run time for tasks the oracle never saw run: %r" % sorted(extra))
    for b in bad[:20]:
        print(b)
    print("%d tasks, %d CPUs, %d switches (%d preempted), run %d ns compared" %
          (len(run), len(busy), sum(switches.values()), sum(pre.values()), sum(run.values())))
    return 1 if bad else 0


def latency(report_w, wakeups_csv):
    # trace-cmd report -w -t: "... sched_switch: ... ==> next:PID [PRIO] Latency: 12.345 usecs"
    tc, switches = {}, set()
    for line in open(report_w, errors="replace"):
        m = LINE.match(line)
        n = m and NAME.match(m["rest"])
        if not n or n["name"] != "sched_switch":
            continue
        s = SW_PLUGIN.search(n["payload"]) or SW_FIELDS.search(n["payload"])
        key = (ns(m["ts"]), int(s.group(3)))
        switches.add(key)
        lat = re.search(r"Latency: (\d+)\.(\d{3}) usecs", line)
        if lat:
            tc[key] = int(lat.group(1)) * 1000 + int(lat.group(2))
    both = differ = only_ftlens = inferred = 0
    for row in csv.DictReader(open(wakeups_csv)):
        key = (int(row["ts_ns"]), int(row["pid"]))
        if key not in switches:
            inferred += 1  # a switch ftlens inferred: no sched_switch in the trace
        elif key not in tc:
            only_ftlens += 1
            print("no trace-cmd latency for the switch at %d to pid %d" % key)
        elif tc[key] != int(row["latency_ns"]):
            differ += 1
            print("switch at %d to pid %d: ftlens %s ns, trace-cmd %d ns" %
                  (key[0], key[1], row["latency_ns"], tc[key]))
        else:
            both += 1
    print("%d latencies equal, %d differ, %d only ftlens, %d only trace-cmd "
          "(wakeups of running tasks, which ftlens does not count), %d at switches "
          "ftlens inferred (not in the trace)" %
          (both, differ, only_ftlens, len(tc) - both - differ, inferred))
    return 0 if both and not differ and not only_ftlens else 1


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("compare", "latency"):
        raise SystemExit(__doc__)
    sys.exit((compare if sys.argv[1] == "compare" else latency)(sys.argv[2], sys.argv[3]))
