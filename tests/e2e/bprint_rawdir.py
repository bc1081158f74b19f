#!/usr/bin/env python3
"""Writes a raw ring-buffer directory holding bprint records (trace_printk),
for the checks of libtraceevent's bprint rendering in t3005.

usage: bprint_rawdir.py OUT CASE HEADER_PAGE
CASE:
  ok     two records: "hellohel" (a %s without its NUL, running to the
         record's end, with printable bytes after it) and "world"
  nofmt  the same, the format's fmt field renamed
  two    ok, and a second bprint format (id 7) with ip and fmt swapped and
         one record of it: "third"
"""
import os
import struct
import sys

out, case, header_page = sys.argv[1], sys.argv[2], sys.argv[3]
IP, FMT = 0xffffffff81000000, 0xffffffff82000000


def fmt_text(ident, ip_at, fmt_at, fmt_name):
    return ("name: bprint\nID: %d\nformat:\n"
            "\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
            "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
            "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
            "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
            "\tfield:unsigned long ip;\toffset:%d;\tsize:8;\tsigned:0;\n"
            "\tfield:const char * %s;\toffset:%d;\tsize:8;\tsigned:0;\n"
            "\tfield:u32 buf[];\toffset:24;\tsize:0;\tsigned:0;\n\n"
            'print fmt: "%%ps: %%s", (void *)REC->ip, REC->fmt\n'
            % (ident, ip_at, fmt_name, fmt_at))


def write(rel, data):
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)


with open(header_page) as f:
    write("events/header_page", f.read())
write("events/ftrace/bprint/format",
      fmt_text(6, 8, 16, "rfachmt" if case == "nofmt" else "fmt"))
write("printk_formats", '0x%x : "%%s"\n' % FMT)

# an event header: length in 4-byte words (type_len 8: 32 bytes), delta 0
r1 = struct.pack("<HBBiQQ", 6, 0, 0, 1, IP, FMT) + b"hellohel"
r2 = struct.pack("<HBBiQQ", 6, 0, 0, 1, IP, FMT) + b"world\0\0\0"
# r2's header "Hi!!" is type_len 8 as well: printable bytes a %s running
# past r1 would take for its text
data = struct.pack("<I", 8) + r1 + b"Hi!!" + r2
if case == "two":
    write("events/ftrace/bprint_b/format", fmt_text(7, 16, 8, "fmt"))
    data += struct.pack("<I", 8) + struct.pack("<HBBiQQ", 7, 0, 0, 1, FMT, IP) + b"third\0\0\0"
page = struct.pack("<QQ", 1000000000, len(data)) + data
write("per_cpu/cpu0/trace_pipe_raw", page + b"\0" * (4096 - len(page)))
