#!/bin/sh
# `ftlens stack --vmlinux` on the rig's stack tracer table (tests/data/vm/
# stack, kernel 6.1.0-57-cloud-amd64): every entry's inline chain is what
# binutils' addr2line -f -i gives at func+off, the address found from
# System.map without ftlens (symbols-oracle.py); each hog's "defined at" is
# the DW_AT_decl_file/line readelf shows for its function; and every
# function of the rig's function_graph capture, at its entry, likewise.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON RIG_DEBUGINFO
table=$FTL_TESTDATA/vm/stack/stack_trace
[ -r "$table" ] || skip_all "no $table"
make_tmpdir
plan 6

"$FTLENS" stack --json --vmlinux "$vml" "$table" >"$T/stack.json" 2>"$T/err"
rc=$?
check "stack --json --vmlinux (exit $rc)" 'test "$rc" -eq 0 -a ! -s "$T/err"'

# the entries as the oracle's frames: "func path:line (discriminator N); ..."
to_frames() {
python3 - "$1" "$2" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
frames = []
for f in j["max_stack"]:
    m = re.match(r"^(.*)\+0x([0-9a-f]+)/0x([0-9a-f]+)", f["location"])
    chain = []
    for level in (f.get("inline_chain") or "").split("; "):
        if not level:
            continue
        lm = re.match(r"^(\S+) (.*):(\d+|\?)(?: \(discriminator (\d+)\))?$", level)
        chain.append({"function": lm.group(1), "path": lm.group(2),
                      "line": int(lm.group(3)) if lm.group(3) != "?" else None,
                      "discriminator": int(lm.group(4)) if lm.group(4) else None})
    frames.append({"function": m.group(1) if m else None,
                   "offset": int(m.group(2), 16) if m else 0,
                   "size": int(m.group(3), 16) if m else 0,
                   "module": f["module"], "symbolized": chain})
json.dump(frames, open(sys.argv[2], "w"))
PY
}
to_frames "$T/stack.json" "$T/frames.json"
python3 "$top_srcdir/tests/e2e/symbols-oracle.py" "$vml" "$map" "$mods" "$T/frames.json" >"$T/oracle" 2>&1
set -- $(tail -n 1 "$T/oracle")
compared=$2 equal=$4 elfutils=$6 skipped=$8
diag "$(cat "$T/oracle")"
entries=$(grep -c '^ *[0-9]*)' "$table")
check "$compared of $entries entries compared, $equal equal to addr2line -f -i, $elfutils where eu-addr2line agrees instead" \
	'[ "$compared" -eq "$entries" ] && [ $((equal + elfutils)) -eq "$compared" ] && ! grep -q "eu-addr2line \[" "$T/oracle"'
check "the source column is the outermost level, from the top of the tree" \
	'[ "$(json_get "$T/stack.json" "[f[\"source\"] for f in j[\"max_stack\"] if f[\"function\"] == \"do_syscall_64\"][0]")" = arch/x86/entry/common.c:76 ]'

# hogs: where each function is defined, against readelf's DIE of it
fn=do_syscall_64
def=$(json_get "$T/stack.json" "[f[\"source\"] for f in j[\"functions\"] if f[\"function\"] == \"$fn\"][0]")
# its DW_TAG_subprogram with a decl_line (arch/x86/entry/common.c, an early unit)
want=$(readelf --debug-dump=info --dwarf-depth=2 "$vml" 2>/dev/null |
	awk -v fn="$fn" '/DW_TAG_/ { sub_ = ($0 ~ /DW_TAG_subprogram/); named = 0; next }
	sub_ && /DW_AT_name/ && $0 ~ ": " fn "$" { named = 1; next }
	sub_ && named && /DW_AT_decl_line/ { print $NF; exit }')
check "$fn defined at $def, readelf's decl_line $want" '[ -n "$want" ] && [ "$def" = "arch/x86/entry/common.c:$want" ]'

"$FTLENS" stack "$table" >"$T/plain.txt"
check "without debug info no source column" '! grep -q "defined at\|kernel/sched/fair.c" "$T/plain.txt"'

# a function_graph capture's functions (tests/data/vm/fgraph-basic), each
# at its entry: a table of func+0x0/0x0 made from report's function list
fg=$FTL_TESTDATA/vm/fgraph-basic/trace.txt
"$FTLENS" report --json "$fg" | python3 -c '
import json, sys
names = sorted(set(f["function"] for f in json.load(sys.stdin)["functions"]))
print("        Depth    Size   Location    (%d entries)" % len(names))
print("        -----    ----   --------")
for i, n in enumerate(names):
    print("%4d) %8d %7d   %s+0x0/0x0" % (i, len(names) - i, 1, n))' >"$T/fg.stack"
"$FTLENS" stack --json --vmlinux "$vml" "$T/fg.stack" >"$T/fg.json"
to_frames "$T/fg.json" "$T/fg-frames.json"
python3 "$top_srcdir/tests/e2e/symbols-oracle.py" "$vml" "$map" "$mods" "$T/fg-frames.json" >"$T/fg.oracle" 2>&1
set -- $(tail -n 1 "$T/fg.oracle")
fc=$2 fe=$4 fu=$6 fs=$8
diag "$(cat "$T/fg.oracle")"
n_fg=$(($(wc -l <"$T/fg.stack") - 2))
check "function_graph capture: $fc of $n_fg functions compared at their entry, $fe equal to addr2line, $fu where eu-addr2line agrees instead" \
	'[ "$fc" -eq $((n_fg - fs)) ] && [ "$fc" -gt 100 ] && [ $((fe + fu)) -eq "$fc" ] && ! grep -q "eu-addr2line \[" "$T/fg.oracle"'
finish
