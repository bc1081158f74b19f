#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares, field by field, every event of `ftlens dump` with the same
events as `trace-cmd report -N -t` prints them (libtraceevent rendering the
kernel's print formats, no plugins, full nanosecond timestamps).

usage: payload_compare.py LABEL DUMP REPORT [STACK_REPORT]

STACK_REPORT is `trace-cmd report -t` of the same file (trace-cmd's own
kernel_stack handler, which -N does not load): -N renders kernel_stack
through its print format, which shows caller[0..7] only, so a deeper stack
would look cut. The stacks are taken from STACK_REPORT, matched per CPU by
index.

Events are matched per CPU in input order (both tools read each CPU's pages
in order; only their tie-breaks between CPUs differ). Per event the fields
are: timestamp, CPU, pid, comm, event name, then each payload field trace-cmd
prints (key=value pairs, a marker's caller and text, a stack's frames, a
payload that is not key=value as one field). Only the column layout is
normalised; a value must be equal byte for byte, or match one of ALLOWED
below, each with its reason.

Prints one line "FIGURES LABEL events=N fields=N equal=N allowed=N different=N
missing=N" and then the differences (at most 20), and the allowed ones by
rule."""
import re
import sys

# The remaining allowed differences: (rule, reason). A rule is checked by
# allowed() below; nothing else is forgiven.
ALLOWED = {
    "marker-newline": "a trace_marker write ends with the newline the writer "
    "put there; ftlens keeps the text without it (trace-cmd prints it, "
    "making an empty line)",
    "stack-address": "trace-cmd prints each kernel_stack frame as "
    "'=> name (address)'; ftlens keeps the name (the address when there is "
    "no name), the same frame",
}

REPORT_RE = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d+):\s+(\S+?):(.*)$")
# trace.dat's lost records, and raw pages' missed-events marks (no count
# when the page had no room for it)
LOST_RE = re.compile(r"^CPU:\s*(\d+) \[(?:LOST (\d+) EVENTS|(\d+)? ?EVENTS DROPPED)\]")
# function_graph's print fmts, as trace-cmd -N renders them
FGRAPH_ENTRY_RE = re.compile(r"^--> (\S+) \((\d+)\)$")
FGRAPH_EXIT_RE = re.compile(r"^<-- (\S+) \((\d+)\) \(start: ([0-9a-f]+)\s+end: ([0-9a-f]+)\) over: (\d+)$")
KINDS = ("event|entry|exit|func|marker|switch|wakeup|irq-entry|irq-exit|lost|stack|"
         "task-switch|buffer-start")
DUMP_RE = re.compile(r"^\s*(-?\d+)\.(\d+)\s+(\d+|-)\s+(\d+|-) (.*?)\s+(" + KINDS +
                     r")\s+(\S*?):(.*)$")
KV_RE = re.compile(r"(\w+)=(.*?)(?= \w+=| ==> |$)")


def ns(sec, frac):
    return int(sec) * 1000000000 + int(frac.ljust(9, "0")[:9])


def read_report(path):
    cpus, lost = {}, {}
    last = None
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        line = line.rstrip("\n")
        m = REPORT_RE.match(line)
        if m:
            comm, pid, cpu, s, f, name, payload = m.groups()
            last = {"ts": ns(s, f), "cpu": int(cpu), "pid": int(pid), "comm": comm,
                    "name": name, "payload": payload.strip(" ")}
            cpus.setdefault(int(cpu), []).append(last)
            continue
        m = LOST_RE.match(line)
        if m:
            lost[int(m.group(1))] = lost.get(int(m.group(1)), 0) + \
                int(m.group(2) or m.group(3) or 0)
            last = None
            continue
        if last is not None:  # a continuation: stack frames, a marker's newline
            last["payload"] += "\n" + line.rstrip(" ")
    return cpus, lost


def read_dump(path):
    cpus, lost = {}, {}
    for line in open(path, encoding="utf-8", errors="surrogateescape"):
        m = DUMP_RE.match(line.rstrip("\n"))
        if not m:
            raise SystemExit("dump line not understood: " + line)
        s, f, cpu, pid, comm, kind, name, rest = m.groups()
        if kind == "lost":
            c = int(cpu) if cpu != "-" else -1
            # "count=unknown": a mark without a count, as trace-cmd's
            # "[EVENTS DROPPED]" (0 on its side)
            n = re.search(r"count=(\d+)", rest)
            lost[c] = lost.get(c, 0) + (int(n.group(1)) if n else 0)
            continue
        ev = {"ts": ns(s, f), "cpu": int(cpu), "pid": int(pid) if pid != "-" else -1,
              "comm": comm, "kind": kind, "name": name, "payload": rest[1:]}
        cpus.setdefault(int(cpu), []).append(ev)
    return cpus, lost


def kv(text):
    return KV_RE.findall(text)


def fields_of(ours, theirs):
    """[(field, our value, their value)] for one event, in trace-cmd's order."""
    kind, p, q = ours["kind"], ours["payload"], theirs["payload"]
    if kind == "marker":
        d = dict(kv(p))
        caller, _, text = q.partition(": ")
        # text= runs to the end of the line: it may hold " key=" itself
        mine = p.split(" text=", 1)[1] if " text=" in p else None
        return [("caller", d.get("caller"), caller), ("text", mine, text)]
    if kind == "stack":
        frames = p.split(" ", 1)[1].split(" <- ") if " " in p else []
        theirs_f = [x.strip() for x in q.split("\n")[1:] if x.strip()]
        out = []
        for i in range(max(len(frames), len(theirs_f))):
            out.append(("frame%d" % i, frames[i] if i < len(frames) else None,
                        theirs_f[i] if i < len(theirs_f) else None))
        return out
    if kind in ("entry", "exit") and (FGRAPH_ENTRY_RE.match(q) or FGRAPH_EXIT_RE.match(q)):
        # the raw funcgraph events: func, depth and (exit) the call's
        # duration, rettime - calltime
        d = dict(kv(p))
        m = FGRAPH_ENTRY_RE.match(q) or FGRAPH_EXIT_RE.match(q)
        out = [("func", d.get("func"), m.group(1)), ("depth", d.get("depth"), m.group(2))]
        if kind == "exit":
            out.append(("duration_ns", d.get("duration_ns"),
                         str(int(m.group(4), 16) - int(m.group(3), 16))))
        return out
    if kind == "func":
        d = dict(kv(p))
        f, _, parent = q.partition(" <-- ")
        return [("func", d.get("func"), f), ("parent", d.get("parent"), parent)]
    their = kv(q)
    if their and "".join("%s=%s" % x for x in their) == re.sub(r" ==> | ", "", q) \
            .replace(" ", "") or (their and kind != "event"):
        mine = dict(kv(p))
        return [(k, mine.get(k), v) for k, v in their]
    return [("payload", p, q)]


def allowed(kind, field, a, b):
    if a is None or b is None:
        return None
    if kind == "marker" and field == "text" and b.rstrip("\n") == a and b != a:
        return "marker-newline"
    if kind == "stack":
        m = re.match(r"^=> (\S+) \((\w+)\)$", b)
        if m and (a == m.group(1) or a == "0x" + m.group(2).lstrip("0")):
            return "stack-address"
    return None


def main():
    label, dump, report = sys.argv[1:4]
    ours, our_lost = read_dump(dump)
    theirs, their_lost = read_report(report)
    if len(sys.argv) > 4:
        full, _ = read_report(sys.argv[4])
        for cpu, evs in theirs.items():
            for i, ev in enumerate(evs):
                if ev["name"] in ("kernel_stack", "user_stack") and i < len(full.get(cpu, [])):
                    ev["payload"] = full[cpu][i]["payload"]
    n = dict(events=0, fields=0, equal=0, allowed=0, different=0, missing=0)
    diffs, rules = [], {}

    def differ(what):
        n["different"] += 1
        if len(diffs) < 20:
            diffs.append(what)

    for cpu in sorted(set(ours) | set(theirs)):
        a, b = ours.get(cpu, []), theirs.get(cpu, [])
        if len(a) != len(b):
            n["missing"] += abs(len(a) - len(b))
            diffs.append("CPU %d: ftlens has %d events, trace-cmd %d" % (cpu, len(a), len(b)))
        for x, y in zip(a, b):
            n["events"] += 1
            pairs = [("ts", x["ts"], y["ts"]), ("cpu", x["cpu"], y["cpu"]),
                     ("pid", x["pid"], y["pid"]), ("comm", x["comm"], y["comm"]),
                     ("name", x["name"], y["name"])]
            pairs += fields_of(x, y)
            for field, u, v in pairs:
                n["fields"] += 1
                if u == v:
                    n["equal"] += 1
                    continue
                rule = allowed(x["kind"], field, u, v)
                if rule:
                    n["allowed"] += 1
                    rules[rule] = rules.get(rule, 0) + 1
                else:
                    differ("CPU %d ts %d %s %s: ftlens %r, trace-cmd %r" %
                           (cpu, y["ts"], y["name"], field, u, v))
    if our_lost != their_lost:
        diffs.append("lost events per CPU: ftlens %s, trace-cmd %s" % (our_lost, their_lost))
        n["missing"] += 1
    print("FIGURES %s events=%d fields=%d equal=%d allowed=%d different=%d missing=%d" %
          (label, n["events"], n["fields"], n["equal"], n["allowed"], n["different"],
           n["missing"]))
    for r, c in sorted(rules.items()):
        print("ALLOWED %s %d: %s" % (r, c, ALLOWED[r]))
    for d in diffs:
        print("DIFF " + d)


main()
