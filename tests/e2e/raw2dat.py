#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Packs a raw ring-buffer dump (pages + format files) into a trace.dat v6,
written here from trace-cmd's file-format description and not by ftlens's
writer, so that trace-cmd report can decode the very pages ftlens reads from
the directory: an independent oracle for raw page directories.

usage: raw2dat.py [--uname TEXT] FORMATS_DIR OUT.dat CPU:PAGEFILE...

FORMATS_DIR holds header_page, optionally header_event, and SYSTEM/EVENT/format
files; kallsyms, printk_formats and saved_cmdlines are packed when they are
beside FORMATS_DIR (the tracefs layout) or in it. Only little-endian pages
are packed (what the corpus holds). --uname writes TEXT as the UNAME option
(what trace-cmd record saves: "Linux host RELEASE ...")."""
import os
import re
import struct
import sys

# What a kernel without a header_event file (SchedViz's dumps) would say: the
# compressed entry header every kernel since 2.6.30 uses.
HEADER_EVENT = b"""# compressed entry header
\ttype_len    :    5 bits
\ttime_delta  :   27 bits
\tarray       :   32 bits

\tpadding     : type == 29
\ttime_extend : type == 30
\ttime_stamp : type == 31
\tdata max type_len  == 28
"""


def extra(fmt_dir, name):
    for d in (os.path.dirname(os.path.abspath(fmt_dir)), fmt_dir):
        p = os.path.join(d, name)
        if os.path.isfile(p):
            return open(p, "rb").read()
    return b""


def main():
    args = sys.argv[1:]
    uname = None
    if args[:1] == ["--uname"]:
        uname, args = args[1], args[2:]
    fmt_dir, out = args[0], args[1]
    cpus = {}
    for a in args[2:]:
        c, path = a.split(":", 1)
        cpus[int(c)] = path
    header_page = open(os.path.join(fmt_dir, "header_page"), "rb").read()
    m = re.search(rb"field: local_t commit;\s*offset:\d+;\s*size:(\d+);", header_page)
    long_size = int(m.group(1)) if m else 8
    he = os.path.join(fmt_dir, "header_event")
    header_event = open(he, "rb").read() if os.path.exists(he) else HEADER_EVENT
    systems = {}
    for system in sorted(os.listdir(fmt_dir)):
        sd = os.path.join(fmt_dir, system)
        if not os.path.isdir(sd):
            continue
        for ev in sorted(os.listdir(sd)):
            f = os.path.join(sd, ev, "format")
            if os.path.isfile(f):
                systems.setdefault(system, []).append(open(f, "rb").read())
    page = 4096
    b = bytearray()
    b += b"\x17\x08\x44tracing" + b"6\0" + bytes([0, long_size]) + struct.pack("<I", page)
    b += b"header_page\0" + struct.pack("<Q", len(header_page)) + header_page
    b += b"header_event\0" + struct.pack("<Q", len(header_event)) + header_event
    ftrace = systems.pop("ftrace", [])
    b += struct.pack("<I", len(ftrace))
    for f in ftrace:
        b += struct.pack("<Q", len(f)) + f
    b += struct.pack("<I", len(systems))
    for name, fs in systems.items():
        b += name.encode() + b"\0" + struct.pack("<I", len(fs))
        for f in fs:
            b += struct.pack("<Q", len(f)) + f
    for name, size in (("kallsyms", "<I"), ("printk_formats", "<I"), ("saved_cmdlines", "<Q")):
        data = extra(fmt_dir, name)
        b += struct.pack(size, len(data)) + data
    n_cpus = max(cpus) + 1
    b += struct.pack("<I", n_cpus)
    b += b"options  \0"
    if uname is not None:  # TRACECMD_OPTION_UNAME, its text NUL-terminated
        text = uname.encode() + b"\0"
        b += struct.pack("<HI", 5, len(text)) + text
    b += struct.pack("<H", 0)
    b += b"flyrecord\0"
    data = [open(cpus[c], "rb").read() if c in cpus else b"" for c in range(n_cpus)]
    at = len(b) + 16 * n_cpus
    at = (at + page - 1) // page * page
    offsets = []
    for d in data:
        offsets.append(at)
        b += struct.pack("<QQ", at, len(d))
        at = (at + len(d) + page - 1) // page * page
    for off, d in zip(offsets, data):
        b += b"\0" * (off - len(b))
        b += d
    with open(out, "wb") as f:
        f.write(b)


main()
