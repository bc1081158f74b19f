#!/bin/sh
# `ftlens oops` on the shapes of crash log that issue 29 found misread, each
# pinned on a public log (tests/data/README.md says where each comes from):
# a SLUB debug report read whole, end markers and the "Fatal exception"
# panic closing the report they end.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq PYTHON

pub=$FTL_TESTDATA/oops-public
real=$FTL_REAL_DATA/oops
make_tmpdir
plan 4

# reports_are LOG COND: COND, a Python expression over R (the log's reports
# as `ftlens oops --format json` gives them) and S(r) (a report's stacks as
# (label, frames) pairs), holds.
cat >"$T/cond.py" <<'PYEOF'
import json, sys
R = json.load(open(sys.argv[1]))['logs'][0]['reports']
def S(r):
    return [(s['label'] or '', len(s['frames'])) for s in r['stacks']]
ok = eval(sys.argv[2])
if not ok:
    for r in R:
        print('# %r lines %s-%s (%s) stacks %r' % (r['title'], r['first_line'], r['last_line'], r['lines'], S(r)))
sys.exit(0 if ok else 1)
PYEOF
reports_are() {
	"$FTLENS" oops --format json "$1" >"$T/out.json" 2>"$T/err" &&
		python3 "$T/cond.py" "$T/out.json" "$2"
}

check "SLUB Poison overwritten: one report, its allocation, free and call stacks apart" '
	reports_are "$pub/lkml_x86_slub_poison_overwritten_kmalloc_4096.log" \
		"len(R) == 1 and R[0][\"title\"] == \"BUG kmalloc-4096: Poison overwritten\" and [(l.split(\" in \")[0], n) for l, n in S(R[0])] == [(\"INFO: Allocated\", 9), (\"INFO: Freed\", 14), (\"Call Trace:\", 29)]"'
check "an end marker closes its report: the message printed after it is not the WARNING" '
	reports_are "$pub/lkml_ppc64_elfv1_warning_do_feature_fixups.log" \
		"len(R) == 1 and R[0][\"last_line\"] == 29"'
if have_input "$real/syzbot_report_633_x86_kmsan_uninit_value.log"; then
	check "a WARNING inside a KMSAN report ends at its marker and the KMSAN report goes on to its rule" '
		reports_are "$real/syzbot_report_633_x86_kmsan_uninit_value.log" \
			"[(r[\"first_line\"], r[\"last_line\"], r[\"lines\"]) for r in R] == [(1, 68, 21), (16, 62, 47)]"'
fi
if have_input "$real/syzbot_report_256_x86_null_deref_rip_null.log"; then
	check "after the end marker only the Fatal exception panic and its trailer join" '
		reports_are "$real/syzbot_report_256_x86_null_deref_rip_null.log" \
			"len(R) == 1 and R[0][\"panic\"] == \"Fatal exception\" and (R[0][\"last_line\"], R[0][\"lines\"]) == (117, 103)"'
fi
finish
