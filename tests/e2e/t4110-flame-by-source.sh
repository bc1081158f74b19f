#!/bin/sh
# `ftlens flame --color-by dir|file` on the rig's function_graph capture
# (kernel 6.1.0-57-cloud-amd64): every function's frame is filled with the
# legend's colour of the directory or file defining it, as placed without
# ftlens's symbols (source_oracle.py: binutils' addr2line at the function's
# System.map address, or eu-addr2line where the two differ); the legend
# names the groups drawn (24 at most, then "and N more"), each once, in a
# colour of its own, with its own time's share as the oracle's self times
# give it; a group past the legend has one colour, none of the legend's.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON RIG_DEBUGINFO
fg=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
[ -r "$fg" ] || skip_all "no $fg"
make_tmpdir
plan 4

"$FTLENS" report --format csv "$fg" >"$T/plain.csv"
for by in dir file; do
	python3 "$top_srcdir/tests/e2e/source_oracle.py" "$vml" "$map" "$T/plain.csv" $by \
		"$T/$by.oracle" "$T/$by.places" >/dev/null
	"$FTLENS" flame --color-by $by --vmlinux "$vml" --minwidth 0 -o "$T/$by.svg" "$fg" 2>"$T/err"
	rc=$?
	python3 - "$T/$by.svg" "$T/$by.places" "$T/$by.oracle" >"$T/$by.cmp" 2>&1 <<'PY'
import csv, re, sys
import xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
svg = ET.parse(sys.argv[1]).getroot()
places = {r["function"]: r["source"] for r in csv.DictReader(open(sys.argv[2]))}
oracle = {r["source"]: int(r["self_ns"]) for r in csv.DictReader(open(sys.argv[3]))}
legend, share, more, bad = {}, {}, 0, []
for g in svg.iter(ns + "g"):
    if g.get("id") != "legend":
        continue
    for e in g.iter(ns + "g"):
        if e.get("class") != "group":
            continue
        if e.find(ns + "title") is None:  # the last entry: "and N more"
            more = int(re.match(r"^and (\d+) more$", e.find(ns + "text").text).group(1))
            continue
        m = re.match(r"^(.*): .* of its own \(([0-9.]+)%\)$", e.find(ns + "title").text)
        if m.group(1) in legend:
            bad.append("legend names %s twice" % m.group(1))
        legend[m.group(1)] = e.find(ns + "rect").get("fill")
        share[m.group(1)] = float(m.group(2))
frames = equal = 0
fills = {}
for g in svg.iter(ns + "g"):
    if g.get("class") != "f":
        continue
    name = g.find(ns + "title").text.split("\n")[0]
    if name not in places:  # all, tasks, CPUs, [irq]: not functions
        continue
    frames += 1
    want, fill = places[name], g.find(ns + "rect").get("fill")
    fills.setdefault(want, set()).add(fill)
    if want in legend and fill == legend[want]:
        equal += 1
    elif want in legend and len(bad) < 5:
        bad.append("%s: fill %s, the legend's %s is %s" % (name, fill, want, legend[want]))
beyond = [w for w in fills if w not in legend]
# a group past the legend's 24: one colour for all its frames, none of the
# legend's
one = [w for w in beyond if len(fills[w]) == 1 and not fills[w] & set(legend.values())]
all_self = sum(oracle.values())
off = [g for g in legend if abs(share[g] - 100.0 * oracle.get(g, 0) / all_self) > 0.006]
if bad:
    print("\n".join(bad))
print("%d of %d function frames in their group's legend colour, %d in %d groups past the legend "
      "in one colour each (%d of them); %d groups drawn, %d named in the legend and %d more; "
      "%d shares differ from the oracle's %s" % (
          equal, frames, frames - equal, len(beyond), len(one), len(fills), len(legend), more,
          len(off), " ".join(off)))
ok = (frames > 100 and not bad and set(legend) <= set(fills) and len(legend) + more == len(fills)
      and len(legend) == min(24, len(fills)) and len(one) == len(beyond)
      and equal + sum(1 for g in svg.iter(ns + "g") if g.get("class") == "f"
                      and places.get(g.find(ns + "title").text.split("\n")[0]) in beyond) == frames
      and len(set(legend.values())) == len(legend) and not off)
sys.exit(0 if ok else 1)
PY
	cmprc=$?
	diag "$(cat "$T/$by.cmp")"
	check "--color-by $by: $(tail -n 1 "$T/$by.cmp") (exit $rc)" \
		'[ "$rc" -eq 0 ] && [ ! -s "$T/err" ] && [ "$cmprc" -eq 0 ]'
done
check "directories: fs/ and mm/ named in the legend" \
	'grep -q "<title>fs/: " "$T/dir.svg" && grep -q "<title>mm/: " "$T/dir.svg"'

"$FTLENS" flame --color-by dir -o "$T/none.svg" "$fg" >"$T/out" 2>"$T/err"
rc=$?
check "no release and no --vmlinux: one error (exit $rc), no SVG" \
	'[ "$rc" -eq 1 ] && [ ! -e "$T/none.svg" ] && [ "$(wc -l <"$T/err")" -eq 1 ]'
finish
