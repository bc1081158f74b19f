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
  sched_oracle.py tracecmd-w TRACE_TEXT FTLENS_WAKEUPS_CSV
      the same, with trace-cmd's rule computed here from the text (for text
      captures, which trace-cmd cannot read): a hash of the last wakeup
      (sched_wakeup, sched_wakeup_new) per pid, which the switch that runs
      the pid takes as the start of its latency
  sched_oracle.py wakeups TRACE_TEXT FTLENS_JSON
      the wakeup rules of ftlens-sched(1): per task the wakeups measured,
      the largest latency, voluntary/preempted/unknown switch-outs (inferred
      ones classified by what follows) and inferred ones; per window the
      restarted wakeups, those served by an inferred switch and those of a
      runnable task; per CPU recorded and inferred switches; the first row
      of the worst wakeups
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


WAKE_NAMES = ("sched_waking", "sched_wakeup", "sched_wakeup_new")
# "comm=a pid=1 prio=120 [success=1] target_cpu=000", or the plugin's "a:1 [120] CPU:000"
WAKE_PID = re.compile(r"(?:^|\s)pid=(\d+)")
WAKE_PLUGIN = re.compile(r":(\d+) \[(-?\d+)\]")


def wakeup_fields(name, payload):
    """(kind, pid) of a wakeup event; None for a failed one (success=0)"""
    if re.search(r"(?:^|\s)success=0(?:\s|$)", payload):
        return None
    m = WAKE_PID.search(payload) or WAKE_PLUGIN.search(payload)
    if not m or int(m.group(1)) <= 0:
        return None
    return ("waking" if name == "sched_waking" else "wakeup", int(m.group(1)))


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
            if n and n["name"] in WAKE_NAMES:
                w = wakeup_fields(n["name"], n["payload"])
                if w:
                    ev = ev[:4] + (w,)
                else:
                    ev = ev[:3] + (None, None)  # failed or unreadable: not a wakeup
            elif n and n["name"] == "sched_switch":
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

    for cpu, t, pid, name, x in sorted(events(path), key=lambda e: (e[1], e[0])):
        sw = x if name == "sched_switch" else None
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
    run, switches, busy, idle, _ = oracle(trace)
    # preempted: recorded R states and the switch-outs ftlens had to infer,
    # classified by the wakeup rules (a task seen running again unwoken)
    pre = {pid: t[3] for pid, t in wakeup_rules(trace)[0].items() if t[3]}
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


def wakeup_rules(path, wake_from_waking=True):
    """The state of every task under ftlens-sched(1)'s wakeup rules."""
    state, wake, by, out = {}, {}, {}, {}
    task = {}  # pid -> [wakeups, lat_max, voluntary, preempted, unknown, inferred]
    cnt = {"restarted": 0, "at_inferred": 0, "of_runnable": 0}
    rec, inf = {}, {}
    lats = []  # (latency, order, pid)
    cur = {}
    seen_wakeups = [0]

    def t_(pid):
        return task.setdefault(pid, [0, None, 0, 0, 0, 0])

    def classify(pid, how):
        if out.pop(pid, None) is not None:
            t_(pid)[{"voluntary": 2, "preempted": 3, "unknown": 4}[how]] += 1

    def seen_running(pid):
        classify(pid, "preempted" if seen_wakeups[0] else "unknown")

    def switch_out(pid, t, st, inferred):
        if pid <= 0:
            return
        classify(pid, "unknown")
        if inferred:
            t_(pid)[5] += 1
            out[pid] = t
            state[pid] = "unknown"
        elif preempted(st):
            t_(pid)[3] += 1
            state[pid] = "runnable"
        elif st:
            t_(pid)[2] += 1
            state[pid] = "sleeping"
        else:
            t_(pid)[4] += 1
            state[pid] = "unknown"
        if wake.pop(pid, None) is not None:
            cnt["of_runnable"] += 1

    def switch_in(pid, t, inferred):
        if pid <= 0:
            return
        seen_running(pid)
        by[pid] = set()
        w = wake.pop(pid, None)
        if w is not None and inferred:
            cnt["at_inferred"] += 1
        elif w is not None:
            lat = t - w
            lats.append((lat, len(lats), pid))
            x = t_(pid)
            x[0] += 1
            x[1] = lat if x[1] is None else max(x[1], lat)
        state[pid] = "running"

    def woken(pid, t, kind):
        seen_wakeups[0] += 1
        classify(pid, "voluntary")
        st, k = state.get(pid, "unknown"), by.get(pid, set())
        active = pid in wake or st in ("running", "runnable")
        if k and kind not in k and active:
            k.add(kind)  # the other event of the same wakeup
            return
        if pid not in wake and st in ("running", "runnable"):
            by[pid] = {kind}
            cnt["of_runnable"] += 1
            return
        if pid in wake:
            cnt["restarted"] += 1
        state[pid], wake[pid], by[pid] = "runnable", t, {kind}

    def switch(cpu, t, prev_state, nxt, inferred):
        (inf if inferred else rec)[cpu] = (inf if inferred else rec).get(cpu, 0) + 1
        switch_out(cur[cpu], t, prev_state, inferred)
        switch_in(nxt, t, inferred)
        cur[cpu] = nxt

    for cpu, t, pid, name, x in sorted(events(path), key=lambda e: (e[1], e[0])):
        sw = x if name == "sched_switch" else None
        now = sw[0] if sw else pid
        if cpu not in cur:
            cur[cpu] = now
            rec.setdefault(cpu, 0)
            if now > 0:
                seen_running(now)
                if state.get(now, "unknown") == "unknown":
                    state[now] = "running"
        if now != cur[cpu]:
            switch(cpu, t, "", now, True)
        if sw:
            switch(cpu, t, sw[2], sw[1], False)
        elif name in WAKE_NAMES and x and (wake_from_waking or x[0] == "wakeup"):
            woken(x[1], t, x[0])
    for pid in list(out):
        classify(pid, "unknown")
    lats.sort(key=lambda w: (-w[0], w[1]))
    return task, cnt, rec, inf, lats


def wakeups(trace, ftlens_json):
    task, cnt, rec, inf, lats = wakeup_rules(trace)
    j = json.load(open(ftlens_json))
    bad = []
    got = {t["pid"]: t for t in j["tasks"]}
    keys = ("wakeups", "lat_max_ns", "voluntary", "preempted", "switches_unknown",
            "switches_inferred")
    for pid, want in sorted(task.items()):
        g = got.get(pid)
        have = tuple(g.get(k) for k in keys) if g else None
        if have != tuple(want):
            bad.append("pid %d: %s %r, oracle %r" % (pid, "/".join(keys), have, tuple(want)))
    w = j["windows"][0]
    for k in cnt:
        if w["wakeups_" + k] != cnt[k]:
            bad.append("wakeups_%s %d, oracle %d" % (k, w["wakeups_" + k], cnt[k]))
    for c in j["cpus"]:
        want = (rec.get(c["cpu"], 0), inf.get(c["cpu"], 0))
        if (c["switches_recorded"], c["switches_inferred"]) != want:
            bad.append("cpu %d: recorded, inferred %r, oracle %r" %
                       (c["cpu"], (c["switches_recorded"], c["switches_inferred"]), want))
    worst = j.get("worst_wakeups", [])
    first = (worst[0]["latency_ns"], worst[0]["pid"]) if worst else None
    if first != (lats[0][:1] + lats[0][2:] if lats else None):
        bad.append("worst wakeup %r, oracle %r" % (first, lats[0] if lats else None))
    for b in bad[:20]:
        print(b)
    print("%d tasks, %d latencies (worst %s), %d restarted, %d at inferred switches, "
          "%d of runnable tasks, %d inferred switches compared" %
          (len(task), len(lats), "%d ns pid %d" % (lats[0][0], lats[0][2]) if lats else "-",
           cnt["restarted"], cnt["at_inferred"], cnt["of_runnable"], sum(inf.values())))
    return 1 if bad else 0


def tracecmd_w(trace, wakeups_csv):
    """trace-cmd report -w's rule over a text capture, written out as the
    `report -w -t` lines latency() reads"""
    start, lines = {}, []
    for cpu, t, pid, name, x in sorted(events(trace), key=lambda e: (e[1], e[0])):
        if name in ("sched_wakeup", "sched_wakeup_new") and x:
            start[x[1]] = t  # "Hmm, double wakeup?": the later one
        elif name == "sched_switch":
            lat = t - start.pop(x[1], t) if x[1] in start else None
            lines.append("x-1 [%03d] %d.%09d: sched_switch: a:1 [120] R ==> b:%d [120]%s" %
                         (cpu, t // 10**9, t % 10**9, x[1],
                          " Latency: %d.%03d usecs" % (lat // 1000, lat % 1000)
                          if lat is not None else ""))
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(lines) + "\n")
    return latency(f.name, wakeups_csv)


if __name__ == "__main__":
    cmds = {"compare": compare, "latency": latency, "tracecmd-w": tracecmd_w,
            "wakeups": wakeups}
    if len(sys.argv) != 4 or sys.argv[1] not in cmds:
        raise SystemExit(__doc__)
    sys.exit(cmds[sys.argv[1]](sys.argv[2], sys.argv[3]))
