#!/bin/sh
# The progress line (bytes, MB/s, time left) is drawn on stderr only when
# stderr is a terminal, and erased at the end; in a pipe or a file, stderr
# stays empty. FTLENS_PROGRESS_DELAY_MS=0 makes even a short read show it
# (the default waits a second). The terminal is a pty made by python3.
. "$(dirname "$0")/lib.sh"
need_python
make_tmpdir
plan 5
trace=$top_srcdir/data/sample-fgraph.txt

# on_pty OUT ERR CMD...: CMD with stdout to OUT and stderr on a pty, whose
# bytes go to ERR
on_pty() {
	python3 - "$@" <<'PY'
import os, pty, subprocess, sys
out, err, cmd = sys.argv[1], sys.argv[2], sys.argv[3:]
master, slave = pty.openpty()
with open(out, "wb") as o:
    p = subprocess.Popen(cmd, stdout=o, stderr=slave, stdin=subprocess.DEVNULL)
os.close(slave)
data = b""
while True:
    try:
        chunk = os.read(master, 65536)
    except OSError:
        break
    if not chunk:
        break
    data += chunk
rc = p.wait()
open(err, "wb").write(data)
sys.exit(rc)
PY
}

FTLENS_PROGRESS_DELAY_MS=0 on_pty "$T/out" "$T/tty-err" "$FTLENS" report "$trace"
rc=$?
"$FTLENS" report "$trace" >"$T/ref" 2>/dev/null
check "on a terminal: report succeeds, stdout unchanged" '[ $rc = 0 ] && cmp -s "$T/out" "$T/ref"'
check "on a terminal: the progress line (MB, MB/s) is drawn on stderr" \
	'grep -q "ftlens: .* MB.* MB/s" "$T/tty-err"'
check "on a terminal: the line is erased at the end (ends with a carriage return)" \
	'[ "$(tail -c 1 "$T/tty-err" | od -An -c | tr -d " ")" = "\r" ]'
FTLENS_PROGRESS_DELAY_MS=0 "$FTLENS" report "$trace" >/dev/null 2>"$T/file-err"
check "stderr to a file: nothing on it" '[ ! -s "$T/file-err" ]'
FTLENS_PROGRESS_DELAY_MS=0 "$FTLENS" dump "$trace" 2>&1 >/dev/null | cat >"$T/pipe-err"
check "stderr to a pipe: nothing on it" '[ ! -s "$T/pipe-err" ]'
finish
