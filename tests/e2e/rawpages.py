# SPDX-License-Identifier: GPL-2.0-or-later
# An independent reader of ring-buffer pages, the oracle of t3002: walks
# the event headers of every page the way the kernel writes them
# (kernel/trace/ring_buffer.c: type_len:5 time_delta:27; 29 padding,
# 30 time extend, 31 absolute time stamp, 0 = length in array[0]) and
# prints JSON: per-CPU event counts by name, first and last timestamps,
# missed-event marks.
#
# usage: rawpages.py FORMATS_ROOT CPU:PAGEFILE...
#        rawpages.py --to-big-endian FORMATS_ROOT IN OUT
#   rewrites little-endian pages as a big-endian kernel would have written
#   them: page header, event headers (type_len in the top bits there) and
#   every numeric field of each event by its format.
import json, os, re, struct, sys

to_be = len(sys.argv) > 1 and sys.argv[1] == "--to-big-endian"
if to_be:
    del sys.argv[1]

root = sys.argv[1]
hp = open(os.path.join(root, "header_page")).read()
geo = {}
for m in re.finditer(r"field:[^;]*?(\w+)(?:\[\d*\])?;\s*offset:(\d+);\s*size:(\d+);", hp):
    geo[m.group(1)] = (int(m.group(2)), int(m.group(3)))
data_off, data_size = geo["data"]
commit_off, commit_size = geo["commit"]
page = data_off + data_size

ids, fields = {}, {}
for sysname in os.listdir(root):
    d = os.path.join(root, sysname)
    if not os.path.isdir(d):
        continue
    for ev in os.listdir(d):
        f = os.path.join(d, ev, "format")
        if os.path.isfile(f):
            text = open(f).read()
            m = re.search(r"^ID: (\d+)", text, re.M)
            if m:
                ids[int(m.group(1))] = ev
                fields[int(m.group(1))] = [
                    (int(o), int(z), "[" in decl or "char" in decl)
                    for decl, o, z in re.findall(r"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);", text)]

def swap(buf, off, size):
    if size in (2, 4, 8):
        buf[off:off + size] = buf[off:off + size][::-1]

if to_be:
    src, dst = sys.argv[2], sys.argv[3]
    blob = bytearray(open(src, "rb").read())
    for off in range(0, len(blob) - page + 1, page):
        p = memoryview(blob)[off:off + page]
        commit = struct.unpack_from("<Q" if commit_size == 8 else "<I", p, commit_off)[0]
        size = commit & ((1 << 27) - 1)
        swap(p, 0, 8)
        swap(p, commit_off, commit_size)
        i, end = data_off, data_off + size
        while i < end:
            hdr = struct.unpack_from("<I", p, i)[0]
            tl, delta = hdr & 31, hdr >> 5
            struct.pack_into(">I", p, i, (tl << 27) | delta)
            if tl == 29:
                if delta == 0:
                    break
                n = struct.unpack_from("<I", p, i + 4)[0]
                swap(p, i + 4, 4)
                i += 4 + n
                continue
            if tl in (30, 31):
                swap(p, i + 4, 4)
                i += 8
                continue
            if tl == 0:
                length = struct.unpack_from("<I", p, i + 4)[0]
                swap(p, i + 4, 4)
                data, nxt = i + 8, i + 4 + length
            else:
                data, nxt = i + 4, i + 4 + tl * 4
            etype = struct.unpack_from("<H", p, data)[0]
            for o, z, is_array in fields.get(etype, []):
                if not is_array:
                    swap(p, data + o, z)
            i = nxt
    open(dst, "wb").write(blob)
    sys.exit(0)

out = {"cpus": {}}
for arg in sys.argv[2:]:
    cpu, path = arg.split(":", 1)
    blob = open(path, "rb").read()
    counts, first, last, missed, pages = {}, None, None, 0, 0
    for off in range(0, len(blob) - page + 1, page):
        p = blob[off:off + page]
        ts = struct.unpack_from("<Q", p, 0)[0]
        commit = struct.unpack_from("<Q" if commit_size == 8 else "<I", p, commit_off)[0]
        size = commit & ((1 << 27) - 1)
        if size == 0:
            continue
        pages += 1
        if commit & (1 << 31):
            missed += 1
        i, end = data_off, data_off + size
        while i < end:
            hdr = struct.unpack_from("<I", p, i)[0]
            tl, delta = hdr & 31, hdr >> 5
            if tl == 29:  # padding: length in array[0], or the rest of the page
                if delta == 0:
                    break
                i += 4 + struct.unpack_from("<I", p, i + 4)[0]
                continue
            if tl == 30:  # time extend
                ts += delta | (struct.unpack_from("<I", p, i + 4)[0] << 27)
                i += 8
                continue
            if tl == 31:  # absolute time stamp (5.x and later)
                ts = (ts & ~((1 << 59) - 1)) | delta | (struct.unpack_from("<I", p, i + 4)[0] << 27)
                i += 8
                continue
            ts += delta
            if tl == 0:
                length = struct.unpack_from("<I", p, i + 4)[0]
                data = i + 8
                nxt = i + 4 + length
            else:
                data = i + 4
                nxt = i + 4 + tl * 4
            etype = struct.unpack_from("<H", p, data)[0]
            name = ids.get(etype, "unknown_event_%d" % etype)
            counts[name] = counts.get(name, 0) + 1
            first = ts if first is None else first
            last = ts
            i = nxt
    out["cpus"][cpu] = {"counts": counts, "first_ts_ns": first, "last_ts_ns": last,
                        "pages": pages, "missed_marks": missed}
json.dump(out, sys.stdout, sort_keys=True)
