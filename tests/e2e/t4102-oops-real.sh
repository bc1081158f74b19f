#!/bin/sh
# `ftlens oops` over every public console log in $FTL_REAL_DATA/oops: each is
# read without error, each that holds a report yields one, the titles match
# the ones syzkaller's own test data expects (PROVENANCE.md) for at least 90%
# of the syzbot logs, the arm64/ppc64/riscv logs name where the CPU was, and
# the 2.6.35 documentation sample's hw-branch dump is read back whole.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON

dir=$FTL_REAL_DATA/oops
prov=$FTL_REAL_DATA/PROVENANCE.md
need_input "$dir" "$prov"
make_tmpdir

plan 8

# 1-2: every file reads, every file with a report header gives a report
bad="" missing="" n=0
for f in "$dir"/*; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	b=${f##*/}
	if ! "$FTLENS" oops --format json "$f" >"$T/$b.json" 2>"$T/$b.err"; then
		bad="$bad $b"
		continue
	fi
	# the oracle: a line with a header the kernel prints at a report's start
	if grep -a -q -E '(BUG: |WARNING: |INFO: task |INFO: rcu_|Kernel panic - not syncing|general protection fault|kernel BUG at|Unable to handle kernel|Internal error:|Unhandled fault:|divide_?error:|^Booting the kernel)' "$f"; then
		reports=$(json_get "$T/$b.json" "len(j['logs'][0]['reports'])")
		[ "$reports" -ge 1 ] || missing="$missing $b"
	fi
done
check "all $n logs read (exit 0, JSON)${bad:+: failed:$bad}" '[ -z "$bad" ]'
check "every log with a report header yields a report${missing:+: none in$missing}" '[ -z "$missing" ]'

# 3: titles against syzkaller's expected parse, measured
cat >"$T/titles.py" <<'EOF'
import json, os, re, sys
prov, tmp = sys.argv[1], sys.argv[2]
want = {}
for line in open(prov, encoding='utf-8'):
    m = re.match(r'\| oops/(\S+) \|', line)
    t = re.search(r'syzkaller expected parse: \[TITLE: (.*?)(?: (?:ALT|TYPE|CORRUPTED|PANICKED|EXECUTOR): .*)?\]', line)
    if m and t:
        want[m.group(1)] = t.group(1)
good = 0
for name, title in sorted(want.items()):
    try:
        reports = json.load(open(os.path.join(tmp, name + '.json')))['logs'][0]['reports']
        got = reports[0]['title'] if reports else None
    except (OSError, ValueError):
        got = None
    if got == title:
        good += 1
    else:
        print('# %s: got %r, syzkaller %r' % (name, got, title))
share = 100.0 * good / len(want) if want else 0.0
print('# titles: %d of %d syzbot logs titled as syzkaller expects (%.1f%%)' % (good, len(want), share))
print('%d %d %.1f' % (good, len(want), share))
EOF
python3 "$T/titles.py" "$prov" "$T" >"$T/titles.out"
grep '^#' "$T/titles.out"
set -- $(grep -v '^#' "$T/titles.out")
good=$1 total=$2 share=$3
check "titles: $good of $total as syzkaller expects ($share%, at least 90%)" \
	'test "$total" -gt 0 -a $((good * 100)) -ge $((total * 90))'

# 4-5: other architectures: where the CPU was, and whom the title blames
nofault="" noblame="" arch=0
for f in "$dir"/*arm64* "$dir"/*ppc64* "$dir"/*riscv*; do
	[ -f "$f" ] || continue
	arch=$((arch + 1))
	b=${f##*/}
	# the oracle: the log prints a kernel PC with a symbol (pc :, NIP [, epc :)
	if grep -a -q -E '(^|\] )(pc : [a-z_]|NIP \[|epc : [a-z_]|PC is at )' "$f"; then
		fn=$(json_get "$T/$b.json" "[r['fault']['function'] for r in j['logs'][0]['reports'] if r['fault']]")
		[ "$fn" != "[]" ] || nofault="$nofault $b"
	fi
	bl=$(json_get "$T/$b.json" "j['logs'][0]['reports'][0]['blamed']")
	[ "$bl" != None ] || noblame="$noblame $b"
done
check "$arch arm64/ppc64/riscv logs: the faulting function is found${nofault:+, not in$nofault}" \
	'test "$arch" -gt 0 -a -z "$nofault"'
check "... and the title blames a function${noblame:+, not in$noblame}" '[ -z "$noblame" ]'

# 6-8: the hw-branch dump of the 2.6.35 documentation sample
k=$dir/kdoc2.6.35_oops_null_deref_with_ftrace_dump_hw_branch.txt
if have_input "$k" 3; then
	# the oracle: timestamped "CPU  to <- from" lines between the two rules
	lines=$(sed -n '/Dumping ftrace buffer:/,$p' "$k" | grep -c '^\[[ 0-9.]*\]  *[0-9]  *[a-z_].*<-')
	kj=$T/${k##*/}.json
	check "kdoc 2.6.35: the dump holds the $lines hw-branch lines, none misread" \
		'[ "$(json_get "$kj" "[(d['\''trace_lines'\''], d['\''closed'\''], d['\''unparsed_lines'\''], [c['\''event_lines'\''] for c in d['\''cpus'\'']]) for d in j['\''logs'\''][0]['\''dumps'\'']]")" = \
		"[($lines, True, 0, [$lines])]" ]'
	check "kdoc 2.6.35: the '[...]' lines of the documentation are left out of it" \
		'[ "$(json_get "$kj" "j['\''logs'\''][0]['\''dumps'\''][0]['\''interleaved_lines'\'']")" = "$(awk '\''/^\[[^]]*\] -+$/ { r++; next } r == 1 && /^\[\.\.\.\]/ { n++ } END { print n + 0 }'\'' "$k")" ]'
	"$FTLENS" oops --extract-trace "$T/hwb.txt" "$k" >/dev/null
	check "kdoc 2.6.35: the extracted dump reads as a hw-branch trace" \
		'[ "$("$FTLENS" info --format json "$T/hwb.txt" | python3 -c '\''import json,sys; j=json.load(sys.stdin); print(j["event_lines"], j["unparsed_lines"])'\'')" = "$lines 0" ]'
fi
finish
