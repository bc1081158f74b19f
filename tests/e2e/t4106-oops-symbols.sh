#!/bin/sh
# `ftlens oops` with the rig kernel's debug info (linux-image-6.1.0-57-
# cloud-amd64-dbg; the README's test command installs it): every frame of
# the rig's two panics (tests/data/vm/oops: sysrq from /proc; vm/oops-module:
# sysrq typed on a /dev/uhid keyboard, so hid and uhid frames) gets the file,
# line and inline chain that binutils' addr2line -f -i gives at the same
# address, the address found without ftlens (symbols-oracle.py: System.map,
# the module's symbol table). Where addr2line contradicts the DWARF line
# table, elfutils' eu-addr2line must agree with ftlens instead.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON RIG_DEBUGINFO
logs="$FTL_TESTDATA/vm/oops/console.log $FTL_TESTDATA/vm/oops-module/console.log"
nlog=$FTL_TESTDATA/vm/nmi-backtrace/console.log
for l in $logs $nlog; do [ -r "$l" ] || skip_all "no $l"; done
make_tmpdir
plan 22

# shellcheck disable=SC2086
"$FTLENS" oops --json $logs >"$T/oops.json" 2>"$T/err"
rc=$?
check "oops --json finds the debug info by the logs' release (exit $rc)" \
	'test "$rc" -eq 0 -a ! -s "$T/err" && grep -q "\"vmlinux\" *: *\"$vml\"" "$T/oops.json"'

# every frame of every stack and every fault, as a flat list
python3 - "$T/oops.json" "$T/frames.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
frames = []
for log in j["logs"]:
    for r in log["reports"]:
        if r["fault"]:
            frames.append(r["fault"])
        if r["link"]:
            frames.append(r["link"])
        for st in r["stacks"]:
            frames += st["frames"]
json.dump(frames, open(sys.argv[2], "w"))
PY
python3 "$top_srcdir/tests/e2e/symbols-oracle.py" "$vml" "$map" "$mods" "$T/frames.json" >"$T/oracle" 2>&1
last=$(tail -n 1 "$T/oracle")
set -- $last
compared=$2 equal=$4 elfutils=$6 skipped=$8
diag "$(cat "$T/oracle")"
check "$compared frames compared, $equal equal to addr2line -f -i, $elfutils where addr2line contradicts the line table and eu-addr2line agrees" \
	'[ "${compared:-0}" -ge 50 ] && [ $((equal + elfutils)) -eq "$compared" ] && ! grep -q "eu-addr2line \[" "$T/oracle"'
check "most frames are equal to addr2line itself ($equal of $compared)" '[ $((equal * 10)) -ge $((compared * 9)) ]'
check "skipped only frames without a symbol ($skipped: raw addresses)" \
	'[ "$skipped" -eq "$(json_get "$T/frames.json" "sum(1 for f in j if not f[\"function\"])")" ]'

# module frames: the module's own debug file
j() { json_get "$T/oops.json" "$1"; }
got=$(j "[(f['function'], f['symbolized'][-1]['file']) for f in j['logs'][1]['reports'][0]['call_trace']['frames'] if f['module']]")
check "module frames resolve in their modules' files ($got)" \
	'echo "$got" | grep -q "('\''uhid_char_write'\'', '\''drivers/hid/uhid.c'\'')" &&
	echo "$got" | grep -q "('\''hid_report_raw_event'\'', '\''drivers/hid/hid-core.c'\'')"'
n_mod=$(j "sum(1 for f in j['logs'][1]['reports'][0]['call_trace']['frames'] if f['module'] and f['symbolized'])")
check "all 4 module frames of the uhid panic symbolized ($n_mod)" '[ "$n_mod" -eq 4 ]'

# text: the inline chain above the frame, syzkaller's way
# shellcheck disable=SC2086
"$FTLENS" oops $logs >"$T/oops.txt"
check "text: inlined functions above their frame, marked [inline]" '
	grep -A1 "rcu_read_unlock include/linux/rcupdate.h:823 \[inline\]" "$T/oops.txt" |
		grep -q "__handle_sysrq.cold+0x44/0x11c drivers/tty/sysrq.c:626"'
check "text: the module frame with its file:line" \
	'grep -q "uhid_char_write+0x121/0x540 \[uhid\] drivers/hid/uhid.c:[0-9]" "$T/oops.txt"'
"$FTLENS" oops -F csv "$FTL_TESTDATA/vm/oops/console.log" >"$T/oops.csv"
check "CSV: a fault_source column" 'head -n 1 "$T/oops.csv" | grep -q ",fault,fault_source,"'
# CSV's frames table: every level of every frame, as JSON's "symbolized"
# (which the points above compare with addr2line), for both logs
# shellcheck disable=SC2086
"$FTLENS" oops -F csv $logs >"$T/both.csv"
python3 - "$T/oops.json" "$T/both.csv" >"$T/csvcmp" 2>&1 <<'PY'
import csv, io, json, sys
j = json.load(open(sys.argv[1]))
want = []
for log in j["logs"]:
    for i, r in enumerate(log["reports"], 1):
        stacks = ([("fault", [r["fault"]])] if r["fault"] else []) + \
                 [(s["label"], s["frames"]) for s in r["stacks"]]
        for label, frames in stacks:
            for n, f in enumerate(frames, 1):
                levels = f["symbolized"] or [None]
                for k, s in enumerate(levels):
                    want.append((log["log"] if "log" in log else None, i, label, n, f["function"],
                                 None if s is None else (k, s["function"], s["file"], s["line"],
                                                         s["discriminator"], s["inline"])))
text = open(sys.argv[2]).read()
rows = list(csv.DictReader(io.StringIO(text.split("\n# frames\n", 1)[1])))
num = lambda v: int(v) if v != "" else None
got = [(None, int(r["report"]), r["stack"], int(r["frame"]), r["function"] or None,
        None if r["level"] == "" else (int(r["level"]), r["src_function"], r["file"],
                                       num(r["line"]), num(r["discriminator"]), r["inline"] == "1"))
       for r in rows]
want = [(None,) + w[1:] for w in want]
print("%d frame rows, %d levels with a source, %d equal to JSON" % (
    len(got), sum(1 for g in got if g[5]), sum(1 for a, b in zip(want, got) if a == b)))
for a, b in zip(want, got):
    if a != b:
        print("first difference: json %s csv %s" % (a, b))
        break
sys.exit(0 if want == got and len(got) > 50 else 1)
PY
csvrc=$?
diag "$(cat "$T/csvcmp")"
check "CSV: a frames table, every level of every frame as JSON's symbolized ($(head -n 1 "$T/csvcmp"))" \
	'[ "$csvrc" -eq 0 ] && head -n 1 "$T/both.csv" | grep -q "^log,index,"'

"$FTLENS" oops "$FTL_TESTDATA/vm/oops/console.log" >"$T/one.txt"
check "a log without a build id: the sources line says none was compared" \
	'grep -q "^  sources .*vmlinux-$rel (the log names no build id to compare)" "$T/one.txt" &&
	 [ "$(json_get "$T/oops.json" "j[\"logs\"][0][\"debuginfo\"][\"build_id_compared\"]")" = False ]'

# a vmlinux of another release is refused, naming both; --force uses it
sed 's/6\.1\.0-57-cloud-amd64/6.1.0-99-cloud-amd64/g' "$FTL_TESTDATA/vm/oops/console.log" >"$T/other.log"
"$FTLENS" oops --vmlinux "$vml" "$T/other.log" >"$T/o.out" 2>"$T/o.err"
rc=$?
check "another release's vmlinux: one refusal naming both (exit $rc)" '
	[ "$rc" -eq 1 ] && [ "$(wc -l <"$T/o.err")" -eq 1 ] && [ ! -s "$T/o.out" ] &&
	grep -q "6.1.0-99-cloud-amd64" "$T/o.err" && grep -q "$vml.*6.1.0-57-cloud-amd64" "$T/o.err" &&
	grep -q -- "--force-debuginfo" "$T/o.err"'
"$FTLENS" oops --json --vmlinux "$vml" --force-debuginfo "$T/other.log" >"$T/f.json" 2>/dev/null
check "--force-debuginfo uses it" \
	'[ "$(json_get "$T/f.json" "j[\"logs\"][0][\"reports\"][0][\"call_trace\"][\"frames\"][1][\"symbolized\"][0][\"file\"]")" = lib/dump_stack.c ]'

# absent debug info: said in the report, frames as printed
"$FTLENS" oops --debuginfo "$T/none" "$FTL_TESTDATA/vm/oops/console.log" >"$T/n.txt" 2>"$T/n.err"
"$FTLENS" oops --json --debuginfo "$T/none" "$FTL_TESTDATA/vm/oops/console.log" >"$T/n.json"
check "without the -dbg files the report says which file and package, and shows no lines" '
	[ ! -s "$T/n.err" ] && grep -q "^  sources    no $T/none/boot/vmlinux-" "$T/n.txt" &&
	[ "$(json_get "$T/n.json" "j[\"logs\"][0][\"debuginfo\"][\"note\"]")" = \
	  "no $T/none/boot/vmlinux-$rel (apt-get install linux-image-$rel-dbg, or --vmlinux)" ] &&
	! grep -q "\.c:[0-9]" "$T/n.txt"'

# the panicking CPU of a sysrq panic prints no kernel RIP (no oops; the
# real one below is the other CPU's, in vm/nmi-backtrace): the
# uhid-free one with a RIP and an arm64-style lr line put in front of its
# call trace, at two of its frames; both against addr2line as above
tr -d '\r' <"$FTL_TESTDATA/vm/oops/console.log" | sed '/\] Call Trace:$/{
h
s/Call Trace:$/RIP: 0010:sysrq_handle_crash+0x16\/0x20/p
g
s/Call Trace:$/lr : __handle_sysrq.cold+0x44\/0x11c/p
g
}' >"$T/regs.log"
"$FTLENS" oops --json "$T/regs.log" >"$T/regs.json"
json_get "$T/regs.json" "json.dumps([j['logs'][0]['reports'][0][k] for k in ('fault', 'link')])" \
	>"$T/regs-frames.json"
python3 "$top_srcdir/tests/e2e/symbols-oracle.py" "$vml" "$map" "$mods" "$T/regs-frames.json" >"$T/regs.oracle" 2>&1
set -- $(tail -n 1 "$T/regs.oracle")
r_cmp=$2 r_eq=$4 r_eu=$6
diag "$(cat "$T/regs.oracle")"
"$FTLENS" oops "$T/regs.log" >"$T/regs.txt"
check "RIP and lr lines: $r_cmp frames compared, $r_eq equal to addr2line -f -i, $r_eu where eu-addr2line agrees; in text" \
	'[ "$r_cmp" -eq 2 ] && [ $((r_eq + r_eu)) -eq 2 ] && ! grep -q "eu-addr2line \[" "$T/regs.oracle" &&
	 grep -q "^  fault      RIP sysrq_handle_crash+0x16/0x20 drivers/tty/sysrq.c:[0-9]" "$T/regs.txt" &&
	 grep -q "^  link       lr __handle_sysrq.cold+0x44/0x11c include/linux/rcupdate.h:[0-9]" "$T/regs.txt"'

# a real kernel-mode RIP from the rig: every "RIP: 0010:" line of
# vm/nmi-backtrace (read here from the log's text, not from ftlens) must be
# the symbolized pc of a register dump of its report; those and every frame
# of every stack of the log (module frames among them) against addr2line
# -f -i. That RIP is CPU 1's (its NMI backtrace, printed with CPU 0's sysrq
# panic): it is not the report's fault, which CPU 0 never printed
tr -d '\r' <"$nlog" | sed -n 's/^\[[ 0-9.]*\] RIP: 0010:\([^ ]*+0x[0-9a-f]*\/0x[0-9a-f]*\)\( \[[a-z0-9_]*\]\)\{0,1\}$/\1/p' \
	>"$T/nmi-rips.txt"
"$FTLENS" oops --json "$nlog" >"$T/nmi.json"
python3 - "$T/nmi.json" "$T/nmi-rips.txt" "$T/nmi-rip-frames.json" "$T/nmi-frames.json" >"$T/nmi-rips.say" 2>&1 <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
want = [l.strip() for l in open(sys.argv[2]) if l.strip()]
faults, frames, other = [], [], []
for log in j["logs"]:
    for r in log["reports"]:
        if r["fault"]:
            other.append(r["fault"]["function"])
        for d in r["register_dumps"]:
            if d["pc"] and d["pc_register"] == "RIP":
                faults.append(d["pc"])
        for st in r["stacks"]:
            frames += st["frames"]
got = ["%s+0x%x/0x%x" % (f["function"], f["offset"], f["size"]) for f in faults]
# every RIP line is a dump's pc, each pc one of the lines, and no report
# takes another CPU's RIP for its fault
rips = [f for f, g in zip(faults, got) if g in want]
print("RIP lines %d: %s; symbolized dump pcs %d: %s; report faults: %s" %
      (len(want), " ".join(want), len(got), " ".join(got), " ".join(other) or "none"))
if other:
    rips = []
json.dump(rips if sorted(got) == sorted(want) else [], open(sys.argv[3], "w"))
json.dump(rips + frames, open(sys.argv[4], "w"))
PY
diag "$(cat "$T/nmi-rips.say")"
# oracle FRAMES NAME: symbols-oracle.py's answer in $T/NAME.oracle (shown),
# its counts in o_cmp, o_eq (equal), o_eu (eu-addr2line agrees), o_skip
oracle() {
	python3 "$top_srcdir/tests/e2e/symbols-oracle.py" "$vml" "$map" "$mods" "$1" >"$T/$2.oracle" 2>&1
	read -r _ o_cmp _ o_eq _ o_eu _ o_skip <<EOF
$(tail -n 1 "$T/$2.oracle")
EOF
	diag "$(cat "$T/$2.oracle")"
}
oracle "$T/nmi-rip-frames.json" nmi-rip
n_rips=$(wc -l <"$T/nmi-rips.txt")
"$FTLENS" oops "$nlog" >"$T/nmi.txt"
n_txt=0
while read -r rip; do
	! grep -qF "    at       RIP $rip " "$T/nmi.txt" ||
		! grep -F "    at       RIP $rip " "$T/nmi.txt" | grep -q " [a-z][^ ]*\.[chS]:[0-9]" ||
		n_txt=$((n_txt + 1))
done <"$T/nmi-rips.txt"
check "real kernel RIP lines of the rig ($n_rips), another CPU's, not the fault: $o_cmp compared, $o_eq equal to addr2line -f -i, $o_eu where eu-addr2line agrees; $n_txt with file:line in text" \
	'[ "$n_rips" -ge 1 ] && [ "$o_cmp" -eq "$n_rips" ] && [ $((o_eq + o_eu)) -eq "$o_cmp" ] &&
	 ! grep -q "eu-addr2line \[" "$T/nmi-rip.oracle" && [ "$n_txt" -eq "$n_rips" ] &&
	 ! grep -q "^  fault " "$T/nmi.txt"'
oracle "$T/nmi-frames.json" nmi-all
a_mod=$(json_get "$T/nmi-frames.json" "sum(1 for f in j if f['module'] and f['symbolized'])")
check "vm/nmi-backtrace, RIP and every stack frame: $o_cmp compared, $o_eq equal to addr2line -f -i, $o_eu where eu-addr2line agrees, $o_skip without a symbol; $a_mod module frames" \
	'[ "$o_cmp" -ge 60 ] && [ $((o_eq + o_eu)) -eq "$o_cmp" ] && [ "$a_mod" -ge 8 ] &&
	 ! grep -q "eu-addr2line \[" "$T/nmi-all.oracle" &&
	 [ "$o_skip" -eq "$(json_get "$T/nmi-frames.json" "sum(1 for f in j if not f[\"function\"])")" ]'
# a register dump's RIP in a module ("RIP: 0010:f+0x1/0x2 [mod]"): its pc
# keeps the module and has the source the same frame has in the call
# trace (compared with addr2line above), and is still not the fault
sed 's/RIP: 0010:[^ ]*$/RIP: 0010:uhid_char_write+0x121\/0x540 [uhid]/' "$nlog" >"$T/modrip.log"
"$FTLENS" oops --json "$T/modrip.log" >"$T/modrip.json"
check "a dump's RIP in a module: its pc in uhid's debug file, as the call trace's frame; not the fault" '
	python3 - "$T/modrip.json" <<-"PY"
	import json, sys
	r = json.load(open(sys.argv[1]))["logs"][0]["reports"][0]
	pcs = [d["pc"] for d in r["register_dumps"] if d["pc"]]
	fr = [f for st in r["stacks"] for f in st["frames"]
	      if f["function"] == "uhid_char_write" and f["offset"] == 0x121]
	print("pcs:", [(p["function"], p["module"], p["symbolized"][:1]) for p in pcs])
	assert r["fault"] is None, r["fault"]
	assert len(pcs) == 1 and pcs[0]["module"] == "uhid" and fr, (pcs, len(fr))
	assert pcs[0]["symbolized"] and pcs[0]["symbolized"] == fr[0]["symbolized"]
	PY'

# the comparison can fail: the RIP frames with their innermost line one off
# (a wrong line from ftlens) are all told apart from addr2line
json_get "$T/nmi-rip-frames.json" "json.dumps([dict(f, symbolized=[dict(s, line=s['line'] + 1) if k == 0 else s for k, s in enumerate(f['symbolized'])]) for f in j])" \
	>"$T/nmi-wrong.json"
oracle "$T/nmi-wrong.json" nmi-wrong
check "a RIP line one off is caught: $o_cmp compared, $o_eq equal, $o_eu by eu-addr2line" \
	'[ "$o_cmp" -eq "$n_rips" ] && [ "$o_eq" -eq 0 ] && [ "$o_eu" -eq 0 ]'

# --vmlinux and --modules given, the layout's root elsewhere: module frames
# come from that directory alone (uhid's debug file there, hid's not)
mkdir -p "$T/mods"
cp "$(find "$mods" -name 'uhid.ko*' | head -n 1)" "$T/mods/"
"$FTLENS" oops --debuginfo "$T/none" --vmlinux "$vml" --modules "$T/mods" \
	"$FTL_TESTDATA/vm/oops-module/console.log" >"$T/m.txt" 2>"$T/m.err"
rc=$?
check "--modules DIR: uhid's frame from the file there, hid's left as printed (exit $rc)" '
	[ "$rc" -eq 0 ] && [ ! -s "$T/m.err" ] &&
	grep -q "uhid_char_write+0x121/0x540 \[uhid\] drivers/hid/uhid.c:[0-9]" "$T/m.txt" &&
	grep -q "hid_report_raw_event+0x[0-9a-f]*/0x[0-9a-f]* \[hid\]$" "$T/m.txt" &&
	grep -q "lib/dump_stack.c:[0-9]" "$T/m.txt"'

# Code: bytes, decoded from the <trapping> byte on as objdump itself says
mlog=$FTL_TESTDATA/vm/oops-module/console.log
want=$(tr -d '\r' <"$mlog" | python3 -c '
import subprocess, sys, tempfile
line = [l for l in sys.stdin if "Code: " in l][0].split("Code: ")[1].split()
trap = [i for i, w in enumerate(line) if w.startswith("<")][0]
data = bytes(int(w.strip("<>"), 16) for w in line)
with tempfile.NamedTemporaryFile(suffix=".bin") as f:
    f.write(data); f.flush()
    out = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                          "--start-address=%d" % trap, f.name], capture_output=True, text=True).stdout
ins = [l for l in out.split("\n") if l.strip().split(":")[0].strip() == "%x" % trap][0]
print(" ".join(ins.split("\t")[-1].split()))')
got=$("$FTLENS" oops "$mlog" | grep -A1 "^  Code (objdump, from the faulting instruction" | tail -n 1)
check "Code: the trapping instruction as objdump decodes it ($want)" '
	[ -n "$want" ] && echo "$got" | tr -s " " | grep -qF "$want <-- trapping instruction"'
PATH=/nonexistent "$FTLENS" oops "$mlog" >"$T/nocode.txt"
check "Code: without objdump, a note" 'grep -q "^  code       not decoded: no objdump (binutils)" "$T/nocode.txt"'
finish
