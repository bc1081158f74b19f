#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Independent oracle for the flame tests: per call path, the time a flame
# graph must draw, summed straight from function_graph text (no ftlens
# code involved), by the rules ftlens documents (doc/ftlens-flame.1):
#   - a call with a printed duration covers that duration;
#   - a call without exit covers its children's time only;
#   - an exit without entry is a call the trace began inside: what the
#     task showed deeper on an empty stack before it is inside it (an event
#     at depth d on an empty stack shows d calls open below it), and its
#     exit names it; one whose exit never comes is no call, what was shown
#     inside it is its caller's;
#   - stacks are per task (the proc column or the last task switch on the
#     CPU; before a CPU's first switch, the task that switch names as the
#     one switched out), per CPU for the idle task (pid 0) and, apart from
#     it, per CPU when no task is known; "==========>" opens an [irq]
#     frame on the interrupted stack;
#   - a frame is drawn at least as wide as its children together.
# usage: flame_oracle.py paths TRACE   -> JSON {"a;b;c": ns, ...}, "" = root
#        flame_oracle.py tasks TRACE   -> the same below a "comm-pid" frame
#                                         per task (flame --per task)
#        flame_oracle.py calls TRACE   -> {"comm-pid;a;b": calls, ...}
#        flame_oracle.py svg FILE.svg  -> the same from ftlens's SVG frames
#        flame_oracle.py fg FILE.svg   -> {"depth;name": [widths px]} of
#                                         flamegraph.pl's (or ftlens's) SVG
import json
import re
import sys
import xml.etree.ElementTree as ET

TASK_SWITCH = re.compile(r'^\s*(\d+)\)\s+(.+)-(\d+)\s+=>\s+(.+)-(\d+)\s*$')
DUR = re.compile(r'^\s*([+!#*@$])?\s*(\d+)(?:\.(\d+))?\s*us\s*$')
BLANK_DUR = re.compile(r'^\s*$')
CPU = re.compile(r'^\s*(?:\d+\.\d+\s*\|\s*)?(\d+)\)(.*)$')
ENTRY = re.compile(r'^([A-Za-z0-9_.$]+)\(\)\s*\{\s*$')
LEAF = re.compile(r'^([A-Za-z0-9_.$]+)\(\);')
EXIT = re.compile(r'^\}\s*(?:/\*\s*([A-Za-z0-9_.$]+)(?:\(\))?\s*(?:=.*)?\*/)?\s*$')


def strip_indent(lines):
    body = [l for l in lines if l.strip()]
    ind = min((len(l) - len(l.lstrip(' ')) for l in body), default=0)
    return [l[ind:] for l in lines]


def dur_ns(m):
    frac = (m.group(3) or '')[:3].ljust(3, '0')
    return int(m.group(2)) * 1000 + int(frac)


class Frame:
    def __init__(self, name, depth, parent, group, irq=False, inferred=False):
        self.name, self.depth, self.parent, self.group = name, depth, parent, group
        self.irq, self.inferred, self.dissolved = irq, inferred, False
        self.kids = 0

    def path(self):
        """Its path once the stack is known: dissolved frames are none."""
        names, f = [], self
        while f is not None:
            if not f.dissolved:
                names.append(f.name)
            f = f.parent
        return self.group + tuple(reversed(names))


class Ctx:
    def __init__(self):
        self.frames = []
        self.cpu = -1
        self.group = ()


MAX_DEPTH = 256


class Oracle:
    def __init__(self, per_task=False):
        self.done = []
        self.span = {}
        self.calls = {}
        self.ctxs = {}
        self.pid = {}
        self.comm = {}
        self.per_task = per_task

    def first_switches(self, lines):
        """Before a CPU's first switch line its task is the one switched out."""
        for raw in lines:
            m = TASK_SWITCH.match(raw)
            if m and int(m.group(1)) not in self.pid:
                self.pid[int(m.group(1))] = int(m.group(3))
                self.comm.setdefault(int(m.group(3)), m.group(2).strip())

    def give(self, c, v):
        if c.frames:
            c.frames[-1].kids += v

    def pop(self, c, dur):
        f = c.frames.pop()
        s = dur if dur is not None else f.kids
        self.done.append((f, s))
        self.give(c, s)

    def dissolve(self, c):
        f = c.frames.pop()
        f.dissolved = True
        self.give(c, f.kids)

    def drop(self, c):
        if c.frames[-1].inferred:
            self.dissolve(c)
        else:
            self.pop(c, None)

    def unwind(self, c, depth):
        while c.frames and c.frames[-1].depth > depth:
            self.drop(c)

    def push(self, c, name, depth, irq=False, inferred=False):
        top = c.frames[-1] if c.frames else None
        c.frames.append(Frame(name, depth, top, c.group, irq, inferred))

    def infer(self, c, lo, hi):
        """The trace began inside calls at depths lo..hi-1, never entered."""
        for d in range(lo, hi):
            self.push(c, '(unknown)', d, inferred=True)

    def infer_below(self, c, depth):
        if not c.frames and depth > 0:
            self.infer(c, max(0, depth - MAX_DEPTH), depth)

    def ctx(self, cpu, pid):
        key = pid if pid and pid > 0 else ('cpu', cpu) if pid == 0 else ('unknown', cpu)
        c = self.ctxs.get(key)
        if c is None:
            c = self.ctxs[key] = Ctx()
            if self.per_task:
                c.group = ('%s-%d' % (self.comm.get(pid, '<...>'), -1 if pid is None else pid),)
        c.cpu = cpu
        return c

    def entry(self, c, name, depth):
        if c.frames and not c.frames[-1].irq and depth <= c.frames[-1].depth:
            self.unwind(c, depth - 1)
        self.infer_below(c, depth)
        self.push(c, name, depth)

    def exit(self, c, name, depth, dur):
        match = -1
        for i in range(len(c.frames) - 1, -1, -1):
            f = c.frames[i]
            if f.irq:
                continue
            if f.depth == depth and (name is None or f.inferred or f.name == name):
                match = i
                break
            if f.depth < depth:
                break
        if match >= 0:
            while len(c.frames) - 1 > match:
                self.drop(c)
        else:
            # an exit without entry: the call is inferred, with what is
            # open below it on an empty stack, and closed here
            self.unwind(c, depth)
            if c.frames:
                self.infer(c, depth, depth + 1)
            else:
                self.infer_below(c, depth + 1)
            if not c.frames:
                return
        top = c.frames[-1]
        if top.inferred:
            top.name = name or '(unknown)'
            top.inferred = False
        self.pop(c, dur)

    def irq(self, c, enter):
        if enter:
            top = c.frames[-1] if c.frames else None
            self.push(c, '[irq]', top.depth if top else -1, irq=True)
            return
        idx = [i for i, f in enumerate(c.frames) if f.irq]
        if not idx:
            return
        while len(c.frames) - 1 > idx[-1]:
            self.drop(c)
        self.pop(c, None)

    def line(self, raw):
        m = TASK_SWITCH.match(raw)
        if m:
            self.pid[int(m.group(1))] = int(m.group(5))
            self.comm.setdefault(int(m.group(5)), m.group(4).strip())
            return
        m = CPU.match(raw)
        if not m:
            return
        cpu, rest = int(m.group(1)), m.group(2)
        parts = rest.split('|')
        pid = self.pid.get(cpu)
        if '==========>' in rest or '<==========' in rest:
            self.irq(self.ctx(cpu, pid), '==========>' in rest)
            return
        if len(parts) >= 2 and (DUR.match(parts[0]) or BLANK_DUR.match(parts[0])):
            dur, body = parts[0], '|'.join(parts[1:])
        elif len(parts) >= 3 and (DUR.match(parts[1]) or BLANK_DUR.match(parts[1])):
            pm = re.match(r'^\s*(.+)-(\d+)\s*$', parts[0])
            if pm:
                pid = int(pm.group(2))
            dur, body = parts[1], '|'.join(parts[2:])
        else:
            return
        dm = DUR.match(dur)
        d = dur_ns(dm) if dm else None
        sp = len(body) - len(body.lstrip(' '))
        depth = max((sp - 2) // 2, 0)
        text = body.strip()
        c = self.ctx(cpu, pid)
        if text.startswith('/*'):
            return
        m = ENTRY.match(text)
        if m:
            self.entry(c, m.group(1), depth)
            return
        m = LEAF.match(text)
        if m:
            self.entry(c, m.group(1), depth)
            self.exit(c, m.group(1), depth, d)
            return
        m = EXIT.match(text)
        if m:
            self.exit(c, m.group(1), depth, d)

    def finish(self):
        for c in self.ctxs.values():
            self.unwind(c, -2)
        for f, v in self.done:
            p = f.path()
            self.span[p] = self.span.get(p, 0) + v
            self.calls[p] = self.calls.get(p, 0) + 1


def widths(span):
    """A frame is at least as wide as its children: the drawing rule."""
    paths = set(span)
    for p in list(paths):
        for i in range(1, len(p)):
            paths.add(p[:i])
    kids = {}
    for p in paths:
        kids.setdefault(p[:-1], []).append(p)
    out = {}
    for p in sorted(paths, key=len, reverse=True):
        out[p] = max(span.get(p, 0), sum(out[k] for k in kids.get(p, [])))
    out[()] = sum(out[k] for k in kids.get((), []))
    return {';'.join(p): v for p, v in out.items() if v > 0 or p == ()}


def oracle(trace, per_task=False):
    o = Oracle(per_task)
    with open(trace, errors='replace') as f:
        lines = [raw.rstrip('\r') for raw in strip_indent(f.read().split('\n'))]
    o.first_switches(lines)
    for raw in lines:
        o.line(raw)
    o.finish()
    return o


def paths(trace, per_task=False):
    return widths(oracle(trace, per_task).span)


def calls(trace):
    """Calls per path below a comm-pid frame per task (irq frames left out)."""
    return {';'.join(p): n for p, n in oracle(trace, True).calls.items()}


def svg_frames(svg):
    """(level, path, n, title) of every frame of an ftlens flame SVG."""
    root = ET.parse(svg).getroot()
    ns = '{http://www.w3.org/2000/svg}'
    g = [e for e in root.iter(ns + 'g') if e.get('id') == 'frames'][0]
    stack, out = [], []
    for f in g.findall(ns + 'g'):
        lvl = int(f.get('l'))
        name = f.find(ns + 'title').text.split('\n')[0]
        del stack[lvl:]
        stack.append(name)
        out.append((lvl, ';'.join(stack[1:]), int(f.get('n')), f))
    return out


def svg_paths(svg):
    return {p: n for lvl, p, n, f in svg_frames(svg) if not p.split(';')[-1].startswith('[') or
            p.endswith('[irq]')}


def fg_widths(svg):
    """Frames of a flamegraph.pl (or ftlens) SVG: depth;name -> widths."""
    root = ET.parse(svg).getroot()
    ns = '{http://www.w3.org/2000/svg}'
    rows = []
    for g in root.iter(ns + 'g'):
        t, r = g.find(ns + 'title'), g.find(ns + 'rect')
        if t is None or r is None or g.get('id') == 'frames':
            continue
        name = re.sub(r' \([^()]*\)$', '', t.text.split('\n')[0])
        if name.startswith('[') and name.endswith('smaller calls]'):
            continue
        rows.append((float(r.get('y')), name, float(r.get('width'))))
    ys = sorted({y for y, _, _ in rows}, reverse=True)
    out = {}
    for y, name, w in rows:
        out.setdefault('%d;%s' % (ys.index(y), name), []).append(w)
    return {k: sorted(v) for k, v in out.items()}


def fg_compare(ref, ours):
    """Frames of two SVGs that differ: same depth and name, widths within
    1 px; a frame only one side drew must be under 1 px (rounding at the
    minimum width). Returns (frames compared, [differences])."""
    a, b = fg_widths(ref), fg_widths(ours)
    n, bad = 0, []
    for k in sorted(set(a) | set(b)):
        x, y = list(a.get(k, [])), list(b.get(k, []))
        for w in list(x):
            near = [v for v in y if abs(v - w) <= 1]
            if near:
                y.remove(min(near, key=lambda v: abs(v - w)))
                x.remove(w)
                n += 1
        left = [w for w in x + y if w >= 1]
        if left:
            bad.append((k, left))
    return n, bad


if __name__ == '__main__':
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == 'fgcompare':
        n, bad = fg_compare(arg, sys.argv[3])
        print('%d frames; %d differ: %s' % (n, len(bad), bad[:5]))
        sys.exit(1 if bad or n == 0 else 0)
    res = {'paths': paths, 'tasks': lambda t: paths(t, True), 'calls': calls,
           'svg': svg_paths, 'fg': fg_widths}[mode](arg)
    json.dump(res, sys.stdout, sort_keys=True)
