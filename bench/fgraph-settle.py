#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""How much of item 3's call matching a parse thread could do alone: per
chunk of a function_graph text trace (CHUNK bytes, then to the end of the
line, as ftlens's reader cuts them), the calls whose entry and exit both
fall in the chunk on the same CPU with no task switch on that CPU between
them. The rest (entries still open at a chunk's end, exits whose entry is
in an earlier chunk or before a task switch) is what the consumer would
stitch. Leaf calls ("f();") always settle. Only the column layout without
the task column (a task switch is its own "=>" line).

usage: bench/fgraph-settle.py TRACE [CHUNK]   (CHUNK default 262144)"""
import sys


def main():
    path = sys.argv[1]
    chunk = int(sys.argv[2]) if len(sys.argv) > 2 else 256 << 10
    settled = total = leaves = 0
    with open(path, "rb") as f:
        while True:
            buf = f.read(chunk)
            if not buf:
                break
            buf += f.readline()
            open_calls = {}  # CPU -> entries open in this chunk's segment
            for line in buf.split(b"\n"):
                p = line.find(b")")
                if p < 0 or p > 8 or line.startswith(b"#"):
                    continue
                try:
                    cpu = int(line[:p])
                except ValueError:
                    continue
                bar = line.find(b"|", p)
                if bar < 0:
                    if b"=>" in line:
                        open_calls[cpu] = 0  # a task switch starts a segment
                    continue
                call = line[bar + 1:].strip()
                if call.endswith(b");"):
                    total += 1
                    leaves += 1
                    settled += 1
                elif call.endswith(b"{"):
                    total += 1
                    open_calls[cpu] = open_calls.get(cpu, 0) + 1
                elif call.startswith(b"}") and open_calls.get(cpu, 0) > 0:
                    open_calls[cpu] -= 1
                    settled += 1
    print(f"calls {total}, leaves {leaves}, "
          f"settled in their chunk {settled} ({100 * settled / max(total, 1):.2f}%)")


if __name__ == "__main__":
    main()
