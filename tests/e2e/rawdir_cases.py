#!/usr/bin/env python3
"""Writes small raw ring-buffer directories (per_cpu/cpu0/trace_pipe_raw and
the formats) of records made to test one rendering rule each.

usage: rawdir_cases.py OUT CASE HEADER_PAGE
CASE (t3005, libtraceevent's bprint rendering):
  ok     two records: "hellohel" (a %s without its NUL, running to the
         record's end, with printable bytes after it) and "world"
  nofmt  the same, the format's fmt field renamed
  two    ok, and a second bprint format (id 7) with ip and fmt swapped and
         one record of it: "third"
  twocpu two, with "third" on CPU 1 and before the others: the first
         rendered, by another reader of the same directory
CASE (t3007, print fmts rendered by ftlens's own formats and by
libtraceevent):
  printfmt  an event printing four fields with %hd %hu %hhx %hhd %Lu %Zu
         %lld %hx, over values past each length; an event whose
         __print_flags and __print_symbolic tables name their values (one
         the library knows, others it takes for -1), over values matching
         and missing them; an event printing a pointer-sized field with %s
         (a printk string: known, twice the same, two that differ, unknown)
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


def page(data, cpu=0, ts=1000000000):
    p = struct.pack("<QQ", ts, len(data)) + data
    assert len(p) <= 4096
    write("per_cpu/cpu%d/trace_pipe_raw" % cpu, p + b"\0" * (4096 - len(p)))


def header(length):
    """An event header: the length in 4-byte words, time delta 0."""
    assert length % 4 == 0 and length // 4 <= 28
    return struct.pack("<I", length // 4)


COMMON = ("\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          "\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          "\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          "\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")

if case == "printfmt":
    write("events/test/lengths/format",
          "name: lengths\nID: 9\nformat:\n" + COMMON +
          "\tfield:u64 a;\toffset:8;\tsize:8;\tsigned:0;\n"
          "\tfield:s64 b;\toffset:16;\tsize:8;\tsigned:1;\n"
          "\tfield:u32 c;\toffset:24;\tsize:4;\tsigned:0;\n"
          "\tfield:int d;\toffset:28;\tsize:4;\tsigned:1;\n\n"
          'print fmt: "a=%hd/%hu b=%hhx/%hhd c=%Lu/%Zu d=%lld/%#hx/%5hd/%-4hhu|",'
          " REC->a, REC->a, REC->b, REC->b, REC->c, REC->c, REC->d, REC->d, REC->d, REC->d\n")
    data = b""
    # the first record is rendered by the library alone (tep.c): once more at the end
    for a, b, c, d in ((0x12345678fffe, -1, 0xffffffff, -2), (0x7fff, 0x80, 7, 0x18081),
                       (0x8000, -129, 0, -32768), (0, 0x7f, 1 << 31, 255),
                       (0x12345678fffe, -1, 0xffffffff, -2)):
        data += header(32) + struct.pack("<HBBiQqIi", 9, 0, 0, 1, a, b, c, d)
    write("events/test/names/format",
          "name: names\nID: 10\nformat:\n" + COMMON +
          "\tfield:unsigned long f;\toffset:8;\tsize:8;\tsigned:0;\n"
          "\tfield:unsigned long y;\toffset:16;\tsize:8;\tsigned:0;\n\n"
          'print fmt: "f=%s y=%s", __print_flags(REC->f, "|", { I_ZERO, "ZERO" },'
          ' { TIMER_SOFTIRQ, "TIMER" }, { 0x4, "FOUR" }, { I_OTHER, "OTHER" },'
          ' { HI_SOFTIRQ, "HI" }), __print_symbolic(REC->y, { RCU_SOFTIRQ, "rcu" },'
          ' { I_UNKNOWN, "unknown" }, { 2, "two" })\n')
    for f, y in ((0, 9), (1, (1 << 64) - 1), (5, 2), (0x13, 7), (0, 9)):
        data += header(24) + struct.pack("<HBBiQQ", 10, 0, 0, 1, f, y)
    # %s of a pointer-sized field: the printk string at its value, as
    # rcu_utilization prints (a width not applied), or the value in hex
    write("events/test/strings/format",
          "name: strings\nID: 11\nformat:\n" + COMMON +
          "\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n\n"
          'print fmt: "[%-12s]", REC->s\n')
    write("printk_formats",
          '0xffffffff81000010 : "Start context switch\\n"\n'
          "0xffffffff81000020 : plain, no quotes\n"
          '0xffffffff81000030 : "twice"\n'
          '0xffffffff81000030 : "twice"\n'
          '0xffffffff81000040 : "one"\n'
          '0xffffffff81000040 : "another"\n')
    for s_ in (0xffffffff81000010, 0xffffffff81000010, 0xffffffff81000020,
               0xffffffff81000030, 0xffffffff81000040, 0xffffffff81000050):
        data += header(16) + struct.pack("<HBBiQ", 11, 0, 0, 1, s_)
    page(data)
    sys.exit(0)

write("events/ftrace/bprint/format",
      fmt_text(6, 8, 16, "rfachmt" if case == "nofmt" else "fmt"))
write("printk_formats", '0x%x : "%%s"\n' % FMT)

r1 = struct.pack("<HBBiQQ", 6, 0, 0, 1, IP, FMT) + b"hellohel"
r2 = struct.pack("<HBBiQQ", 6, 0, 0, 1, IP, FMT) + b"world\0\0\0"
# r2's header "Hi!!" is type_len 8 as well: printable bytes a %s running
# past r1 would take for its text
data = header(32) + r1 + b"Hi!!" + r2
if case in ("two", "twocpu"):
    write("events/ftrace/bprint_b/format", fmt_text(7, 16, 8, "fmt"))
    r3 = header(32) + struct.pack("<HBBiQQ", 7, 0, 0, 1, FMT, IP) + b"third\0\0\0"
    if case == "two":
        data += r3
    else:
        page(r3, 1, 900000000)
page(data)
