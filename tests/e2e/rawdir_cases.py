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
CASE (t3007, payloads rendered by the trace.dat page readers' workers):
  ahead  two CPUs of 160 pages each (more blocks than the readers fill
         before the first payload is rendered), random records of five
         events: lengths and names as in printfmt, %ps/%pS of kallsyms
         addresses (and of addresses it lacks), a __get_str() string
         (controls, backslashes and UTF-8 among its bytes; now and then
         one without its NUL, which the library renders), a %s of a
         printk string; now and then an id without a format and a record
         too short for its fields
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


def event_format(name, ident, fields, print_fmt):
    """An event's format file: the common fields, then fields as (declaration,
    offset, size, signed)."""
    return ("name: %s\nID: %d\nformat:\n" % (name, ident) + COMMON +
            "".join("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;\n" % f for f in fields) +
            "\nprint fmt: " + print_fmt + "\n")


LENGTHS = (("u64 a", 8, 8, 0), ("s64 b", 16, 8, 1), ("u32 c", 24, 4, 0), ("int d", 28, 4, 1))
TWO_LONGS = (("unsigned long f", 8, 8, 0), ("unsigned long y", 16, 8, 0))
STRINGS = event_format("strings", 11, (("const char * s", 8, 8, 0),), '"[%-12s]", REC->s')

if case == "printfmt":
    write("events/test/lengths/format", event_format(
        "lengths", 9, LENGTHS,
        '"a=%hd/%hu b=%hhx/%hhd c=%Lu/%Zu d=%lld/%#hx/%5hd/%-4hhu|",'
        " REC->a, REC->a, REC->b, REC->b, REC->c, REC->c, REC->d, REC->d, REC->d, REC->d"))
    data = b""
    # the first record is rendered by the library alone (tep.c): once more at the end
    for a, b, c, d in ((0x12345678fffe, -1, 0xffffffff, -2), (0x7fff, 0x80, 7, 0x18081),
                       (0x8000, -129, 0, -32768), (0, 0x7f, 1 << 31, 255),
                       (0x12345678fffe, -1, 0xffffffff, -2)):
        data += header(32) + struct.pack("<HBBiQqIi", 9, 0, 0, 1, a, b, c, d)
    write("events/test/names/format", event_format(
        "names", 10, TWO_LONGS,
        '"f=%s y=%s", __print_flags(REC->f, "|", { I_ZERO, "ZERO" },'
        ' { TIMER_SOFTIRQ, "TIMER" }, { 0x4, "FOUR" }, { I_OTHER, "OTHER" },'
        ' { HI_SOFTIRQ, "HI" }), __print_symbolic(REC->y, { RCU_SOFTIRQ, "rcu" },'
        ' { I_UNKNOWN, "unknown" }, { 2, "two" })'))
    for f, y in ((0, 9), (1, (1 << 64) - 1), (5, 2), (0x13, 7), (0, 9)):
        data += header(24) + struct.pack("<HBBiQQ", 10, 0, 0, 1, f, y)
    # %s of a pointer-sized field: the printk string at its value, as
    # rcu_utilization prints (a width not applied), or the value in hex
    write("events/test/strings/format", STRINGS)
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

if case == "ahead":
    import random
    rnd = random.Random(32)
    write("events/test/lengths/format", event_format(
        "lengths", 9, LENGTHS,
        '"a=%hd/%hu b=%hhx/%lld c=%Lu/%08x d=%5d/%-4hhu|",'
        " REC->a, REC->a, REC->b, REC->b, REC->c, REC->c, REC->d, REC->d"))
    write("events/test/names/format", event_format(
        "names", 10, TWO_LONGS,
        '"f=%s y=%s", __print_flags(REC->f, "|", { 0x1, "ONE" }, { 0x2, "TWO" },'
        ' { 0x4, "FOUR" }), __print_symbolic(REC->y, { 0, "zero" }, { 1, "one" }, { 2, "two" })'))
    write("events/test/funcs/format", event_format(
        "funcs", 12, (("unsigned long ip", 8, 8, 0), ("unsigned long parent", 16, 8, 0)),
        '"%ps <- %pS", (void *)REC->ip, (void *)REC->parent'))
    write("events/test/dyn/format", event_format(
        "dyn", 13, (("__data_loc char[] name", 8, 4, 0), ("int n", 12, 4, 1)),
        '"name=%s n=%d", __get_str(name), REC->n'))
    write("events/test/strings/format", STRINGS)
    write("printk_formats",
          '0xffffffff81000010 : "Start context switch\\n"\n'
          '0xffffffff81000030 : "twice"\n')
    funcs = [0xffffffff81100000 + 0x40 * i for i in range(300)]
    write("kallsyms", "".join("%x T func_%d\n" % (a, i) for i, a in enumerate(funcs)))
    alphabet = [bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyz_0123456789 "]
    alphabet += [b"\\", b"\x1b[31m", b"\xc3\xa9", b"\x7f", b"\t"] * 4

    def record():
        k = rnd.randrange(100)
        if k < 25:
            return struct.pack("<HBBiQqIi", 9, 0, 0, 1 + k, rnd.getrandbits(64),
                               rnd.getrandbits(63) - (1 << 62), rnd.getrandbits(32),
                               rnd.getrandbits(31) - (1 << 30))
        if k < 40:
            return struct.pack("<HBBiQQ", 10, 0, 0, 2, rnd.getrandbits(4), rnd.randrange(4))
        if k < 65:
            ip = rnd.choice(funcs) + rnd.randrange(0x40)
            parent = rnd.choice(funcs) + rnd.randrange(0x40) if k < 60 else 0x1234
            return struct.pack("<HBBiQQ", 12, 0, 0, 3, ip, parent)
        if k < 90:
            text = b"".join(rnd.choice(alphabet) for _ in range(rnd.randrange(1, 18)))
            body = text + (b"" if k == 89 else b"\0")
            rec = struct.pack("<HBBiIi", 13, 0, 0, 4, len(body) << 16 | 16, k) + body
            rec += b"\0" * (-len(rec) % 4)
            assert len(rec) <= 112  # the length in the event header's type_len
            return rec
        if k < 97:
            return struct.pack("<HBBiQ", 11, 0, 0, 5,
                               rnd.choice((0xffffffff81000010, 0xffffffff81000030, 7)))
        if k < 98:
            return struct.pack("<HBBiQ", 99, 0, 0, 6, 0)  # no format
        return struct.pack("<HBBi", 9, 0, 0, 7)  # too short for lengths

    for cpu in (0, 1):
        pages = b""
        ts = 1000000000 + cpu * 333
        for _ in range(160):
            data = b""
            while True:
                rec = record()
                ev = struct.pack("<I", 250 << 5 | len(rec) // 4) + rec
                if 16 + len(data) + len(ev) > 4096:
                    break
                data += ev
            pages += struct.pack("<QQ", ts, len(data)) + data
            pages += b"\0" * (-len(pages) % 4096)
            ts += 1000000
        write("per_cpu/cpu%d/trace_pipe_raw" % cpu, pages)
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
