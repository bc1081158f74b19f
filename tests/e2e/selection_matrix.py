#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One selection, one answer: every command that selects events, run on
every sample with the same flag sets, must select the events `ftlens dump`
selects (their count, first and last timestamp, as --verbose says) or fail
with the same message when the selection matches nothing.

usage: selection_matrix.py FTLENS TMPDIR [--full] SAMPLE...

Prints TAP-like lines "ok/not ok - ..." and a summary; exits 1 on any
mismatch. The commands come from `ftlens help --commands`: one that selects
events and has no entry in COMMANDS below fails the run, so a command added
later cannot stay out of this test. Without --full, each sample runs every
flag set through dump (the reference) and the commands in rotation, so that
every command meets every sample and every flag set (the whole matrix is
commands x samples x flag sets; --full runs all of it). The TUI runs on
a pseudo-terminal and is told q once its model is read; what it printed
after the screen was given back is its stderr."""

import collections
import csv
import fcntl
import io
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time

# How each event command is run: extra arguments before the flags ({t} is
# a scratch directory), and "two" for a command that reads A and B. A
# command that selects events but reads no window of them (index) must
# refuse every selection flag: "refuses".
COMMANDS = {
    "info": [],
    "dump": [],
    "report": [],
    "graph": [],
    "markers": [],
    "sched": [],
    "split": ["--per-cpu", "-f", "-o", "{t}/split"],
    "diff": "two",
    "flame": ["-o", "{t}/f.svg"],
    "export": ["--to", "chrome", "-o", "{t}/e.json"],
    "timeline": ["-o", "{t}/t.svg"],
    "plot": ["rate", "--script-only", "-o", "{t}/p.svg"],
    "tui": "tui",
    "index": "refuses",
}

SEL = re.compile(r"^ftlens: ([a-z-]+): selected (\d+) of (\d+) events, first (\S+), last (\S+)$")


def run(argv, timeout=120):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, env=dict(os.environ, LC_ALL="C", TZ="UTC"))
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


ESCAPES = re.compile(rb"\x1b(\[[0-9;?]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78])")


def run_tui(argv, settle):
    """The TUI on a pseudo-terminal of 80x24 (stdin, stdout and stderr, as
    from a shell): once its output has been quiet for `settle` seconds
    (the model read; an empty selection ends it by itself), q. Returns
    its exit status and what it printed after the screen was given back."""
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        os.environ.update(LC_ALL="C", TZ="UTC", TERM="xterm")
        os.execvp(argv[0], argv)
    data, sent, quiet = b"", 0, time.monotonic()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # EIO: the TUI is gone
                chunk = b""
            if not chunk:
                break
            data += chunk
            quiet = time.monotonic()
        elif time.monotonic() - quiet > settle and time.monotonic() - sent > 2:
            os.write(fd, b"q")
            sent = time.monotonic()
    else:
        os.kill(pid, signal.SIGKILL)
    _, st = os.waitpid(pid, 0)
    os.close(fd)
    code = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
    after = data.rsplit(b"\x1b[?1049l", 1)[-1]
    text = ESCAPES.sub(b"", after).replace(b"\r", b"").decode("utf-8", "replace")
    return code, text


def run_command(argv, how):
    """(exit status, stderr) of one command; the TUI waits longer for its
    model on each try when it quit before the model said what it selected."""
    if how != "tui":
        code, _, err = run(argv)
        return code, err
    for settle in (0.3, 1.5, 5):
        code, err = run_tui(argv, settle)
        if code != 0 or any(SEL.match(l) for l in err.splitlines()):
            break
    return code, err


def selections(err):
    """The selection lines of a run's stderr, and its error lines."""
    sel, rest = [], []
    for line in err.splitlines():
        m = SEL.match(line)
        if m:
            sel.append(m.groups()[1:])
        elif "no index" not in line and "index" not in line.split(":")[0]:
            rest.append(line)
    return sel, rest


def error_text(rest, cmd):
    """The error ftlens printed, without the command's name."""
    text = "\n".join(l for l in rest if l.startswith(("ftlens:", "--", "-e", "-v")))
    return text.replace("ftlens: %s: " % cmd, "ftlens: CMD: ")


def flag_sets(ftlens, sample):
    """Flag sets that select something real in sample, from its dump."""
    code, out, _ = run([ftlens, "dump", "--format", "csv", "--no-pager", sample])
    if code not in (0, 1) or not out:
        return None
    rows = list(csv.DictReader(io.StringIO(out.decode("utf-8", "replace"))))
    if not rows:
        return None
    sets = [("none", [])]
    cpus = collections.Counter(r["cpu"] for r in rows if r["cpu"] not in ("", "-"))
    pids = collections.Counter(r["pid"] for r in rows if r["pid"] not in ("", "-", "0"))
    names = collections.Counter(r["name"] for r in rows if r["name"] not in ("", "-"))
    stamps = sorted(int(r["ts_ns"]) for r in rows if r["ts_ns"] not in ("", "-"))
    if cpus:
        sets.append(("--cpu", ["--cpu", cpus.most_common()[-1][0]]))
    if pids:
        sets.append(("--pid", ["--pid", pids.most_common(1)[0][0]]))
    if names:
        common = names.most_common()
        name = common[1][0] if len(common) > 1 else common[0][0]
        sets.append(("-e", ["-e", name]))
        sets.append(("-v -e", ["-v", "-e", common[0][0]]))
        if cpus:
            sets.append(("--filter", ["--filter", "%s: cpu == %s" % (name, cpus.most_common(1)[0][0])]))
    markers = [r for r in rows if r["kind"] == "marker" and r["ts_ns"] not in ("", "-")]
    if markers and stamps:
        # a marker text word as a literal pattern, then the window after it
        text = re.sub(r"^.*?text=", "", markers[0]["fields"])
        word = re.escape(text.split()[0]) if text.split() else None
        if word:
            origin = int(markers[0]["ts_ns"])
            span = max(stamps[-1] - origin, 2)
            sets.append(("--relative-to + --time",
                         ["--relative-to", word, "--time", "0,%.9f" % (span / 2e9)]))
    elif len(stamps) > 2:
        lo, hi = stamps[len(stamps) // 4], stamps[3 * len(stamps) // 4]
        sets.append(("--time", ["--time", "%.9f,%.9f" % (lo / 1e9, hi / 1e9)]))
    return sets


def command_argv(ftlens, cmd, how, tmp, sample, flags):
    if how == "two":
        return [ftlens, cmd, "--verbose"] + flags + [sample, sample]
    extra = [a.format(t=tmp) for a in how] if how != "tui" else []
    return [ftlens, cmd] + extra + ["--verbose"] + flags + [sample]


def main():
    ftlens, tmp = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    full = "--full" in args
    samples = [a for a in args if a != "--full"]
    code, out, _ = run([ftlens, "help", "--commands"])
    listed = [l.split("\t") for l in out.decode().splitlines()]
    selecting = [c[0] for c in listed if len(c) > 2 and c[2] == "selects"]
    failures, checks, runs = [], 0, 0
    pairs = collections.Counter()
    for c in selecting:
        checks += 1
        if c not in COMMANDS:
            failures.append("command %s selects events and has no entry in this test" % c)
            print("not ok - " + failures[-1], flush=True)
    commands = [c for c in selecting if c in COMMANDS]
    used = []
    for si, sample in enumerate(samples):
        sets = flag_sets(ftlens, sample)
        if sets is None:
            continue
        used.append(sample)
        for fi, (fname, flags) in enumerate(sets):
            code, _, err = run([ftlens, "dump", "--verbose"] + flags + [sample])
            runs += 1
            ref, rest = selections(err)
            ref_err = error_text(rest, "dump") if code else ""
            for ci, cmd in enumerate(commands):
                how = COMMANDS[cmd]
                # the TUI, on a terminal, is the slow one: one flag set per
                # sample, in rotation, unless --full
                if not full and how == "tui" and fi != si % len(sets):
                    continue
                if not full and how != "tui" and (si + fi + ci) % 4 != 0:
                    continue
                if cmd == "dump":
                    continue
                argv = command_argv(ftlens, cmd, how if how != "refuses" else [], tmp,
                                    sample, flags)
                c2, e2 = run_command(argv, how)
                runs += 1
                checks += 1
                pairs[(cmd, fname)] += 1
                what = "%s %s on %s" % (cmd, fname, os.path.basename(sample))
                if how == "refuses":
                    ok = (c2 == 2) if flags else True
                    if not ok:
                        failures.append("%s: exit %d, expected 2 (refuses selection)\n%s" %
                                        (what, c2, e2))
                        print("not ok - " + failures[-1].replace("\n", "\n#   "), flush=True)
                    continue
                got, rest2 = selections(e2)
                want = ref * (2 if how == "two" else 1)
                if ref and got[:len(want)] == want and got:
                    continue
                if not ref and not got and code and c2 == code and \
                        error_text(rest2, cmd) == ref_err:
                    continue
                # dump selected events; the command failed before its pass
                # for a reason of its own (it names the input kind)
                failures.append("%s: selected %s (exit %d), dump %s (exit %d)\n  %s\n  dump: %s" %
                                (what, got, c2, ref, code, "\n  ".join(rest2[:3]),
                                 ref_err[:300]))
                print("not ok - " + failures[-1].replace("\n", "\n#   "), flush=True)
    cover = sorted(set(c for c, _ in pairs))
    print("# %d samples with events, %d runs, %d checks, commands %s, flag sets per command %s" %
          (len(used), runs, checks, ",".join(cover),
           ",".join("%s:%d" % (c, len(set(f for cc, f in pairs if cc == c))) for c in cover)))
    print("%d passed, %d failed" % (checks - len(failures), len(failures)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
