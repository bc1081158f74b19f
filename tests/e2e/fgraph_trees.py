#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The call tree each view of ftlens shows, read back from its output, as
# {"comm-pid;f;g": calls}: one tree per task, "[irq]" frames left out (the
# graph shows an interrupt's calls where they ran), the idle task of every
# CPU as one "<idle>-0". tests/e2e/t2105-fgraph-tasks.sh compares them with
# each other and with flame_oracle.py's, which reads the trace text itself.
# usage: fgraph_trees.py oracle TRACE | graph CSV | flame SVG | chart SVG |
#        speedscope JSON | chrome JSON | folded FILE (widths, no tasks)
#        | oracle-widths TRACE (the same widths from the text)
import json
import re
import sys
import xml.etree.ElementTree as ET

import flame_oracle

NS = '{http://www.w3.org/2000/svg}'


def task(label):
    """One name per task whatever the view calls it."""
    label = re.sub(r' \(CPU \d+\)$', '', label)
    if re.match(r'^CPU \d+ \(idle\)$', label):
        return '<idle>-0'
    if re.match(r'^CPU \d+ \(unknown task\)$', label) or label == '<...>':
        return '<...>--1'
    return label


def add(tree, frames, n=1):
    frames = [f for f in frames if f != '[irq]']
    if len(frames) < 2:
        return
    frames[0] = task(frames[0])
    k = ';'.join(frames)
    tree[k] = tree.get(k, 0) + n


def oracle(path):
    tree = {}
    for p, n in flame_oracle.calls(path).items():
        if p.split(';')[-1] != '[irq]':
            add(tree, p.split(';'), n)
    return tree


def graph(path):
    import csv
    tree = {}
    for row in csv.DictReader(open(path)):
        add(tree, row['path'].split(';'), int(row['calls']))
    return tree


def svg_rows(path):
    """(level, frames, title) of every frame of an ftlens flame SVG."""
    root = ET.parse(path).getroot()
    g = [e for e in root.iter(NS + 'g') if e.get('id') == 'frames'][0]
    stack = []
    for f in g.findall(NS + 'g'):
        lvl = int(f.get('l'))
        title = f.find(NS + 'title').text
        del stack[lvl:]
        stack.append(title.split('\n')[0])
        yield lvl, list(stack), title


def flame(path):
    tree = {}
    for lvl, frames, title in svg_rows(path):
        m = re.search(r', (\d+) calls?\b', title)
        if lvl >= 2 and frames[-1] != '[irq]':
            add(tree, frames[1:], int(m.group(1)))
    return tree


def chart(path):
    tree = {}
    for lvl, frames, title in svg_rows(path):
        if lvl >= 1 and frames[-1] != '[irq]':
            add(tree, frames)
    return tree


def speedscope(path):
    doc = json.load(open(path))
    names = [f['name'] for f in doc['shared']['frames']]
    tree = {}
    for prof in doc['profiles']:
        stack = [prof['name']]
        for ev in prof['events']:
            if ev['type'] == 'O':
                stack.append(names[ev['frame']])
                # trace_marker writes are frames of their own, not calls
                if stack[-1] != '[irq]' and not stack[-1].startswith('marker: '):
                    add(tree, list(stack))
            else:
                stack.pop()
    return tree


def chrome(path):
    doc = json.load(open(path))
    evs = doc['traceEvents']
    names = {e['tid']: e['args']['name'] for e in evs if e.get('name') == 'thread_name'}
    calls = {}
    for i, e in enumerate(evs):
        if e.get('cat') != 'function':
            continue
        ts = round(e['ts'] * 1000)
        end = ts + round(e['dur'] * 1000) if e['ph'] == 'X' else float('inf')
        # a parent is written after its children: on a tie it comes first
        calls.setdefault(e['tid'], []).append((ts, -end, -i, e['name'], end))
    tree = {}
    for tid, cs in calls.items():
        stack = []
        for ts, _, _, name, end in sorted(cs):
            while stack and not (ts >= stack[-1][0] and end <= stack[-1][1]):
                stack.pop()
            stack.append((ts, end, name))
            if name != '[irq]':
                add(tree, [names[tid]] + [s[2] for s in stack])
    return tree


def widths(weights):
    out = {}
    for p, w in weights.items():
        fr = p.split(';')
        for i in range(1, len(fr) + 1):
            k = ';'.join(fr[:i])
            out[k] = out.get(k, 0) + w
    return {k: v for k, v in out.items() if v}


def folded(path):
    w = {}
    for line in open(path):
        p, n = line.rstrip('\n').rsplit(' ', 1)
        w[p] = w.get(p, 0) + int(n)
    return widths(w)


def oracle_widths(path):
    return {k: v for k, v in flame_oracle.paths(path).items() if k and v}


if __name__ == '__main__':
    views = {'oracle': oracle, 'graph': graph, 'flame': flame, 'chart': chart,
             'speedscope': speedscope, 'chrome': chrome, 'folded': folded,
             'oracle-widths': oracle_widths}
    json.dump(views[sys.argv[1]](sys.argv[2]), sys.stdout, sort_keys=True, indent=0)
    print()
