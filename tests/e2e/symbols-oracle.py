#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compares ftlens's symbolized frames with binutils' addr2line -f -i.

usage: symbols-oracle.py VMLINUX SYSTEM_MAP MODULES_DIR FRAMES.json

FRAMES.json is a list of {"function", "offset", "size", "module",
"symbolized": [{"function", "path", "line", "discriminator"}...]} (what
ftlens printed). The address of each frame is found without ftlens: the
kernel's from System.map (among symbols of one name, the one whose span to
the next symbol is the printed size, as kallsyms counts it), a module's
from its debug file's symbol table (readelf -sW: section and value, given
to addr2line -j SECTION). Prints one line per frame that differs, then
"compared N equal M skipped K"."""
import json
import os
import subprocess
import sys


def a2l_format(chain):
    out = []
    for f in chain:
        line = f.get("line")
        loc = "%s:" % (f.get("path") or "??")
        if not line:
            loc += "?"
        elif f.get("discriminator"):
            loc += "%d (discriminator %d)" % (line, f["discriminator"])
        else:
            loc += "%d" % line
        out += [f["function"], loc]
    return out or ["??", "??:0"]


SENTINEL = ["??", "??:0"]


def addr2line(elf, addrs, section=None, tool="addr2line"):
    """One run for many addresses: a list of line lists. -i prints a
    varying number of frames, so an address nothing holds (answered "??"
    "??:0"; not 0, where a vmlinux has its per-CPU symbols) goes between
    them."""
    if not addrs:
        return []
    args = [tool, "-f", "-i", "-e", elf]
    if section:
        args += ["-j", section]
    for a in addrs:
        args += ["0x%x" % a]
        if tool == "addr2line":
            args += ["0xfffffffffffffff0"]
    lines = subprocess.run(args, check=True, capture_output=True,
                           text=True).stdout.rstrip("\n").split("\n")
    if tool == "eu-addr2line":  # it adds the column: file:line:col
        lines = [l if i % 2 == 0 else ":".join(l.split(":")[:2]) for i, l in enumerate(lines)]
    pairs = [lines[i:i + 2] for i in range(0, len(lines), 2)]
    if tool != "addr2line":  # one address
        return [lines]
    res, k = [], 0
    for _a in addrs:
        one = []
        while k < len(pairs) and pairs[k] != SENTINEL:
            one += pairs[k]
            k += 1
        if not one:  # the answer was "??" "??:0" itself
            one = list(SENTINEL)
            k += 1
        k += 1  # the sentinel
        res.append(one)
    return res


def system_map(path):
    syms = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 3:
                syms.append((int(p[0], 16), p[1], p[2]))
    syms.sort()
    spans = {}
    for i, (addr, _t, name) in enumerate(syms):
        nxt = next((s[0] for s in syms[i + 1:i + 50] if s[0] > addr), None)
        spans.setdefault(name, []).append((addr, (nxt - addr) if nxt else 0))
    return spans


def module_symbols(path):
    """name -> (section name, value) of the FUNC symbols of a .ko"""
    secs = {}
    out = subprocess.run(["readelf", "-SW", path], check=True, capture_output=True,
                         text=True).stdout
    for line in out.split("\n"):
        line = line.strip()
        if line.startswith("[") and "]" in line:
            idx = line[1:line.index("]")].strip()
            rest = line[line.index("]") + 1:].split()
            if idx.isdigit() and rest:
                secs[idx] = rest[0]
    syms = {}
    out = subprocess.run(["readelf", "-sW", path], check=True, capture_output=True,
                         text=True).stdout
    for line in out.split("\n"):
        p = line.split()
        if len(p) >= 8 and p[3] == "FUNC" and p[6].isdigit():
            syms.setdefault(p[7], (secs.get(p[6]), int(p[1], 16)))
    return syms


def main():
    vmlinux, smap, moddir, frames_path = sys.argv[1:5]
    frames = json.load(open(frames_path))
    spans = system_map(smap)
    mods = {}
    for root, _dirs, files in os.walk(moddir):
        for f in files:
            if f.endswith(".ko"):
                mods.setdefault(f[:-3].replace("-", "_"), os.path.join(root, f))
    jobs = {}  # (elf, section) -> [(frame index, address)]
    skipped = 0
    for i, fr in enumerate(frames):
        name, off, size, mod = fr["function"], fr.get("offset") or 0, fr.get("size") or 0, fr.get("module")
        if not name:
            skipped += 1
            continue
        if mod:
            ko = mods.get(mod.replace("-", "_"))
            sym = module_symbols(ko).get(name) if ko else None
            if not sym:
                skipped += 1
                continue
            jobs.setdefault((ko, sym[0]), []).append((i, sym[1] + off))
        else:
            cands = spans.get(name, [])
            pick = [a for a, s in cands if s == size] or [a for a, _s in cands[:1]]
            if not pick:
                skipped += 1
                continue
            jobs.setdefault((vmlinux, None), []).append((i, pick[0] + off))
    compared = equal = elfutils = 0
    for (elf, sec), items in jobs.items():
        answers = addr2line(elf, [a for _i, a in items], sec)
        for (i, a), theirs in zip(items, answers):
            ours = a2l_format(frames[i].get("symbolized") or [])
            compared += 1
            if ours == theirs:
                equal += 1
                continue
            # binutils and the line table disagree at times (DWARF 5 file
            # numbers): then elfutils' own eu-addr2line must say what we say
            eu = addr2line(elf, [a], sec, "eu-addr2line")[0]
            verdict = "eu-addr2line agrees with ftlens" if eu == ours else "eu-addr2line %r" % eu
            elfutils += eu == ours
            print("differs: %s+0x%x [%s] at 0x%x: ours %r, addr2line %r; %s" % (
                frames[i]["function"], frames[i].get("offset") or 0,
                frames[i].get("module") or "vmlinux", a, ours, theirs, verdict))
    print("compared %d equal %d elfutils %d skipped %d" % (compared, equal, elfutils, skipped))


main()
