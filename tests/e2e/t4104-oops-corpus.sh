#!/bin/sh
# `ftlens oops` over a corpus of public crash logs from many architectures:
# the 40 of $FTL_REAL_DATA/oops (titles from syzkaller's own test data, per
# PROVENANCE.md) and the 20 of tests/data/oops-public (TITLES there). It
# measures the crash-title score, checks the architecture each report names,
# and that the stacks of one report stay apart: SLUB/KFENCE/KASAN allocation
# and free stacks as stacks of their one report, another CPU's frames never
# in a report's trace (with printk caller ids; without them, the frames
# printed before the report's own trace), ppc64 ELFv1 and s390 frames.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON

pub=$FTL_TESTDATA/oops-public
real=$FTL_REAL_DATA/oops
make_tmpdir
plan 9

for f in "$pub"/*.log "$real"/*; do
	[ -f "$f" ] || continue
	"$FTLENS" oops --format json "$f" >"$T/${f##*/}.json" 2>"$T/${f##*/}.err" ||
		echo "${f##*/}" >>"$T/failed"
done
check "every log reads (exit 0, JSON)" '[ ! -s "$T/failed" ]'

cat >"$T/corpus.py" <<'PYEOF'
import json, os, re, sys
pub, real, tmp = sys.argv[1:4]
want = {}  # file -> (arch, basis, title)
for line in open(os.path.join(pub, 'TITLES'), encoding='utf-8'):
    if line.startswith('#') or not line.strip():
        continue
    f, arch, basis, title = line.rstrip('\n').split('\t')
    want[f] = (None if arch == '-' else arch, basis, title)
prov = os.path.join(real, '..', 'PROVENANCE.md')
arch_of = [('_x86_', 'x86_64'), ('kdoc2.6.35', 'x86_64'), ('_arm32_', 'arm'), ('_arm64_', 'arm64'),
           ('_ppc64_', 'ppc64'), ('_riscv_', 'riscv64')]
if os.path.isdir(real):
    titles = {}
    for line in open(prov, encoding='utf-8'):
        m = re.match(r'\| oops/(\S+) \|', line)
        t = re.search(r'syzkaller expected parse: \[TITLE: (.*?)(?: (?:ALT|TYPE|CORRUPTED|PANICKED|EXECUTOR): .*)?\]', line)
        if m:
            titles[m.group(1)] = t.group(1) if t else None
    for f, title in titles.items():
        arch = next((a for k, a in arch_of if k in f), None)
        want[f] = (arch, 'syzkaller' if title else None, title)
good = total = 0
archs, bad_arch, n = set(), [], 0
for f, (arch, basis, title) in sorted(want.items()):
    try:
        reports = json.load(open(os.path.join(tmp, f + '.json')))['logs'][0]['reports']
    except (OSError, ValueError):
        reports = None
    n += 1
    if arch:
        archs.add(arch)
    if reports is None:
        print('# %s: no JSON' % f)
        continue
    if title:
        total += 1
        got = reports[0]['title'] if reports else None
        if got == title:
            good += 1
        else:
            print('# %s: got %r, want %r (%s)' % (f, got, title, basis))
    got_arch = {r.get('arch') for r in reports}
    if reports and got_arch != {arch}:
        bad_arch.append('%s: %s, want %s' % (f, sorted(map(str, got_arch)), arch))
print('# corpus: %d logs, %d architectures (%s)' % (n, len(archs), ' '.join(sorted(archs))))
print('# crash titles: %d of %d as expected (%.1f%%)' % (good, total, 100.0 * good / max(total, 1)))
for b in bad_arch:
    print('# arch: ' + b)
print(n, len(archs), good, total, len(bad_arch))
PYEOF
python3 "$T/corpus.py" "$pub" "$real" "$T" >"$T/corpus.out"
grep '^#' "$T/corpus.out"
set -- $(grep -v '^#' "$T/corpus.out")
logs=$1 archs=$2 good=$3 total=$4 badarch=$5
check REAL_DATA "corpus: $logs logs from $archs architectures (at least 60 from 6)" \
	'[ "$logs" -ge 60 ] && [ "$archs" -ge 6 ]'
check "crash titles: $good of $total as expected (all)" '[ "$good" -eq "$total" ]'
check "every report names the architecture its log shows${badarch:+ ($badarch wrong)}" \
	'[ "$badarch" -eq 0 ]'

# stacks: each check is a condition on the first report of a log
cat >"$T/stacks.py" <<'PYEOF'
import json, sys
tmp, log, cond = sys.argv[1:4]
reports = json.load(open('%s/%s.json' % (tmp, log)))['logs'][0]['reports']
r = reports[0]
stacks = [(s['label'] or '', [f['function'] for f in s['frames']]) for s in r['stacks']]
ok = eval(cond)
if not ok:
    print('# %s: %r' % (log, stacks))
sys.exit(0 if ok else 1)
PYEOF
stack_is() { python3 "$T/stacks.py" "$T" "$1" "$2"; }
check "SLUB, KFENCE, KASAN: allocation and free stacks are stacks of the one report" '
	stack_is lkml_x86_slub_poison_overwritten_kmalloc_64.log \
		"len(reports) == 1 and [l.split()[:2] for l, f in stacks] == [[\"Allocated\", \"in\"], [\"Freed\", \"in\"]] and [len(f) for l, f in stacks] == [8, 7]" &&
	stack_is kdoc_kfence_x86_invalid_free_double_free.log \
		"[len(f) for l, f in stacks] == [5, 6, 5] and stacks[2][0] == \"freed by task 507:\"" &&
	stack_is syzkaller_740_x86_kasan_slab_uaf_chrdev_open.log \
		"[l[:9] for l, f in stacks][:4] == [\"Call Trac\", \"Allocated\", \"Freed by \", \"Last pote\"]"'
check "printk caller ids: each of three interleaved reports holds its own frames only" '
	stack_is syzkaller_760_x86_interleaved_cpu_contexts.log \
		"[sorted({f[:7] for s in q[\"stacks\"] for fr in s[\"frames\"] for f in [fr[\"function\"]]}) for q in reports] == [[\"report0\"], [\"report1\"], [\"report2\"]]"'
g198=syzbot_report_198_x86_gpf_ip6t_do_table_interleaved.log
if have_input "$real/$g198"; then
	# the oracle: lines 16-51 are CPU 1's vmalloc warning, printed between the
	# GPF's header (line 15) and its own "Call Trace:" (line 52)
	check "no caller ids: frames of another CPU before the report's trace stay out, the trace says it is mixed" '
		stack_is "$g198" "[(s[\"line\"] >= 52, s[\"interleaved\"]) for s in r[\"stacks\"]] == [(True, True)]"'
fi
check "ppc64 ELFv1 frames lose their dot, s390 names its PSW and keeps the frame in parentheses as unreliable" '
	stack_is lkml_ppc64_elfv1_null_deref_pwq_unbound_release_workfn.log \
		"stacks[0][1][1:3] == [\"kfree\", \"blk_mq_sched_free_tags\"] and r[\"fault\"][\"function\"] == \"pwq_unbound_release_workfn\"" &&
	stack_is lkml_s390_kernel_bug_symbol_put.log \
		"r[\"fault\"][\"function\"] == \"__symbol_put\" and [(f[\"function\"], f[\"reliable\"]) for f in r[\"stacks\"][0][\"frames\"]][:2] == [(\"__symbol_put\", True), (\"__symbol_put\", False)]"'
# the link register beside the faulting line: each report's "link" is the
# first lr/LR line of its log naming a function there (arm64 "lr : f+o/s",
# arm "LR is at f+o/s", an address alone or "(null)", ppc "LR [addr] f+o/s",
# syzkaller's "[inline]" levels passed over), and a log with such a line
# has a link in some report
python3 - "$pub" "$real" "$T" >"$T/links" 2>&1 <<'PY'
import json, os, re, sys
pub, real, tmp = sys.argv[1:4]
pat = re.compile(r"^(?:\[[^]]*\] ?)*\s*(?:lr : |LR is at |LR \[[0-9a-f]+\] )(\S+?)\+0x[0-9a-f]+/0x[0-9a-f]+")
addr = re.compile(r"^(?:\[[^]]*\] ?)*\s*(?:lr : |LR is at )(?:0x[0-9a-f]+|\s*\(null\))\s*$")
logs = links = bad = 0
for d in (pub, real):
    if not os.path.isdir(d):
        continue
    for f in sorted(os.listdir(d)):
        j = os.path.join(tmp, f + ".json")
        if not os.path.exists(j):
            continue
        lines = open(os.path.join(d, f), encoding="utf-8", errors="replace").read().split("\n")
        # ppc64 ELFv1 names lose their dot as in frames
        named = {m.group(1).lstrip(".") for m in (pat.match(l.replace("\r", "")) for l in lines) if m}
        # "LR is at 0x82c00000": an address alone, the link has no function
        named |= {None for l in lines if addr.match(l.replace("\r", ""))}
        got = [r["link"]["function"] for lg in json.load(open(j))["logs"] for r in lg["reports"]
               if r.get("link")]
        if not named and not got:
            continue
        logs += 1
        links += len(got)
        if not got or any(g not in named for g in got):
            bad += 1
            print("%s: links %s, lr lines name %s" % (f, got, sorted(named)))
print("%d logs with link lines, %d links, %d wrong" % (logs, links, bad))
sys.exit(1 if bad or not logs else 0)
PY
lrc=$?
diag "$(cat "$T/links")"
check "link register lines: $(tail -n 1 "$T/links")" '[ "$lrc" -eq 0 ]'
finish
