#!/bin/sh
# ftlens record --raw-dir on live tracefs (needs root and tracefs; skips
# otherwise) saves the running kernel's uname and GNU build id beside the
# pages, as read here from /sys/kernel/notes by a parser of this test's
# own; report --by reads them back and refuses a vmlinux of another build
# naming both build ids (the rig kernel's debug info stands in for the
# running kernel's, its release written into the capture so that only the
# build id differs), unless --force-debuginfo.
# shellcheck source=tests/e2e/lib.sh
. "$(dirname "$0")/lib.sh"
prereq TRACEFS PYTHON
make_tmpdir
tracefs_top_lock
plan 4

want=$(python3 -c '
import struct
d = open("/sys/kernel/notes", "rb").read()
i = 0
while i + 12 <= len(d):
    n, s, t = struct.unpack_from("<III", d, i)
    i += 12
    name = d[i:i + n]
    i += (n + 3) & ~3
    if t == 3 and name == b"GNU\0":
        print(d[i:i + s].hex())
        break
    i += (s + 3) & ~3
')
"$FTLENS" record -e sched:sched_switch -e sched:sched_waking --raw-dir "$T/raw" -- \
	sleep 0.1 2>"$T/rec.err"
rc=$?
check "record --raw-dir exits 0 and saves build_id $want and the release $(uname -r)" \
	'[ "$rc" -eq 0 ] && [ -n "$want" ] && [ "$(cat "$T/raw/build_id")" = "$want" ] &&
	 [ "$(cut -d " " -f 3 "$T/raw/uname")" = "$(uname -r)" ]'

"$FTLENS" report --by dir --debuginfo "$T/none" "$T/raw" >"$T/out" 2>"$T/err"
rc=$?
check "without its debug info the capture names its release: no $T/none/boot/vmlinux-$(uname -r) (exit $rc)" \
	'[ "$rc" -eq 1 ] && [ ! -s "$T/out" ] && grep -q "$T/none/boot/vmlinux-$(uname -r) (apt-get install linux-image-$(uname -r)-dbg" "$T/err"'

if have_prereq RIG_DEBUGINFO; then
	id=$(readelf -n "$vml" | sed -n 's/.*Build ID: *//p')
	sed "s/ $(uname -r) / $rel /" "$T/raw/uname" >"$T/uname" && cp "$T/uname" "$T/raw/uname"
	"$FTLENS" report --by dir --format csv --vmlinux "$vml" "$T/raw" >"$T/bad.csv" 2>"$T/bad.err"
	rc=$?
	check "a vmlinux of another build refused naming both (exit $rc)" \
		'[ "$rc" -eq 1 ] && [ ! -s "$T/bad.csv" ] && [ "$(wc -l <"$T/bad.err")" -eq 1 ] &&
		 grep -q "build id $want but .$vml. has build id $id (--force-debuginfo" "$T/bad.err"'
	"$FTLENS" report --by dir --format csv --force-debuginfo --vmlinux "$vml" "$T/raw" \
		>"$T/force.csv" 2>/dev/null
	rc=$?
	check "--force-debuginfo uses it (exit $rc)" \
		'[ "$rc" -eq 0 ] && grep -q "^# sources$" "$T/force.csv"'
else
	skip "no rig debug info: $prereq_why"
	skip "no rig debug info: $prereq_why"
fi
finish
