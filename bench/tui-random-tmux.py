#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
# The TUI's random-key test in a real terminal (issue 30): tmux runs
# `ftlens tui FILE` as its pane's own command, in a scratch directory, and a
# seeded generator types keys (every letter and digit, named keys, prompts
# with good and bad text, q now and then), resizes the window (too small
# included) and reads the screen back every few steps. The pane must stay
# alive unless q ended it with status 0 (then it starts again: loading is
# hit again); any other end is a failure, with the last screen printed.
# The pane runs ftlens under sh, which writes its exit status to a file:
# tmux 3.3a leaves #{pane_dead_status} empty when ftlens itself is the
# pane's command, whatever its status.
# Usage: bench/tui-random-tmux.py FTLENS STEPS SEED KIND=FILE...
import os, random, subprocess, sys, tempfile, time

ftlens, steps, seed = os.path.abspath(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
kinds = [a.split("=", 1) for a in sys.argv[4:]]
sock = "ftl-random-%d" % os.getpid()
scratch = tempfile.mkdtemp(prefix="ftl-tmux-random-")
conf = os.path.join(scratch, "tmux.conf")
open(conf, "w").write("set -g remain-on-exit on\nset -g default-terminal screen-256color\n")

sent = []  # the last keys typed, for a failure's report

def tm(*args, check=True):
    if args[0] in ("send-keys", "resize-window"):
        sent.append(" ".join(args[3:]))
        del sent[:-12]
    r = subprocess.run(["tmux", "-L", sock, "-f", conf] + list(args),
                       capture_output=True, text=True)
    if check and r.returncode:
        raise RuntimeError("tmux %s: %s" % (args[0], r.stderr.strip()))
    return r.stdout

named = ["Up", "Down", "Left", "Right", "PPage", "NPage", "Home", "End", "Enter",
         "Escape", "Tab", "BTab", "BSpace", "DC", "F1", "C-l", "C-u"]
texts = ["sched", "mutex", "(", "[a-", "^do_sys", ".*", "idle", "cpu 0", "cpu 1,3-5",
         "pid 1", "func ^_", "event sched_switch", "cpu 99999999999", "pid -1", "bogus",
         "12.5", "+1ms", "-20us", "^0", "+99999s", "x", "\u6f22\u5b57"]
letters = [chr(c) for c in range(0x21, 0x7f) if chr(c) not in "q;"]

status = os.path.join(scratch, "status")

def dead():
    if tm("display", "-p", "-t", "r", "#{pane_dead}").strip() != "1":
        return ["0", ""]
    for _ in range(50):
        if os.path.exists(status) and open(status).read().strip():
            return ["1", open(status).read().strip()]
        time.sleep(0.1)
    return ["1", "none written"]

def quit():
    """q (after Esc, out of a prompt): the pane's state once it ended, or
    still alive after a minute (ASan's leak check at exit takes its time)"""
    tm("send-keys", "-t", "r", "Escape", "Escape", "q")
    for _ in range(1200):
        state = dead()
        if state[0] == "1":
            break
        time.sleep(0.05)
    return state

rc = 0
for n, (kind, path) in enumerate(kinds):
    rnd = random.Random(seed + n)
    tm("kill-server", check=False)
    if os.path.exists(status):
        os.unlink(status)
    cmd = "%s tui %s; echo $? > %s" % (ftlens, path, status)
    tm("new-session", "-d", "-s", "r", "-x", "100", "-y", "30", "-c", scratch, cmd)
    t0 = time.time()
    restarts = resizes = prompts = screens = 0
    fail = None
    for step in range(steps):
        r = rnd.random()
        if r < 0.02:
            w, h = rnd.choice([(rnd.randint(30, 200), rnd.randint(6, 60)),
                               (rnd.randint(1, 40), rnd.randint(1, 8))])
            tm("resize-window", "-t", "r", "-x", str(w), "-y", str(h))
            resizes += 1
        elif r < 0.04:
            tm("send-keys", "-t", "r", rnd.choice("/?ft"))
            tm("send-keys", "-t", "r", "-l", "--", rnd.choice(texts))
            tm("send-keys", "-t", "r", rnd.choice(["Enter"] * 4 + ["Escape"]))
            prompts += 1
        elif r < 0.045:
            # a user who quits and runs it again: q must end it with 0
            state = quit()
            if state[0] == "1" and state[1] == "0":
                os.unlink(status)
                tm("respawn-pane", "-t", "r", "-k", cmd)
                restarts += 1
                continue
            # still alive: q was taken by a prompt's text or help; go on
        elif r < 0.3:
            tm("send-keys", "-t", "r", rnd.choice(named))
        else:
            tm("send-keys", "-t", "r", "-l", "--", rnd.choice(letters))
        if step % 25 == 24:
            time.sleep(0.02)
            state = dead()
            screens += 1
            if state[0] == "1":
                fail = "step %d: the pane ended with status %s" % (step, state[1])
                break
            screen = tm("capture-pane", "-p", "-t", "r")
            if any(ord(c) < 0x20 and c != "\n" for c in screen):
                fail = "step %d: a control character on the screen" % step
                break
    state = quit()
    if not fail and (state[0] != "1" or state[1] != "0"):
        fail = "q at the end: pane dead %s status %s" % tuple(state)
    if fail:
        rc = 1
        print("%s: FAIL: %s; the last keys: %s\n%s" % (kind, fail, " | ".join(sent),
              tm("capture-pane", "-p", "-t", "r", check=False)))
    print("%s: seed %d, %d steps in %.1f s (%d restarts, %d resizes, %d prompts, %d screens read)%s"
          % (kind, seed + n, step + 1, time.time() - t0, restarts, resizes, prompts, screens,
             "" if fail else ": passed"))
    sys.stdout.flush()
tm("kill-server", check=False)
sys.exit(rc)
