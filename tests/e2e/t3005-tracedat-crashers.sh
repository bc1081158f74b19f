#!/bin/sh
# Damaged binary inputs that crashed, hung or exhausted libtracecmd and
# libtraceevent (shared/data/crashers, README there) and damage found by
# hand: each gives one clear error naming the file, or correct output with
# the damage reported, never a signal (the sanitizer build aborts on memory
# errors, which the exit status shows). Fixed at the class of fault:
# - trace.dat sizes are checked against the file before libtracecmd reads
#   (and allocates by) them: slow-reject-*.dat, open-head-wild-write.dat.
. "$(dirname "$0")/lib.sh"
make_tmpdir
plan 6

# one_error NAME FILE: exit 1 and one stderr line naming FILE as damaged
# (the message in $T/NAME.err)
one_error() {
	"$FTLENS" info "$2" >/dev/null 2>"$T/$1.err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(wc -l <"$T/$1.err")" -eq 1 ] &&
		grep -q "'$2': not a valid trace.dat: " "$T/$1.err"
}

for i in 0 1 2 3 4; do
	f=$FTL_CRASHERS/slow-reject-$i.dat
	have_input "$f" || continue
	one_error sr$i "$f"
	one=$?
	check "slow-reject-$i.dat: refused before libtracecmd allocates ($(cut -c 1-200 "$T/sr$i.err"))" \
		'[ $one -eq 0 ] && grep -q "at offset [0-9]*: claims [0-9]* bytes" "$T/sr$i.err"'
done

f=$FTL_CRASHERS/open-head-wild-write.dat
if have_input "$f"; then
	check "open-head-wild-write.dat: one error naming the file" 'one_error wild "$f"'
fi
finish
