#!/usr/bin/env python3
# pty_run.py [--send TRIGGER KEYS] OUT -- ARGV...: runs ARGV with stdin,
# stdout and stderr on a new pseudo-terminal (80x24), as a user's shell
# would, keeps all it prints in OUT, and, once the output holds TRIGGER,
# types KEYS (e.g. "q" to quit a pager). Exits with ARGV's status (128+N
# for a signal), or 124 when it runs past 60 s (it is then killed).
import os, pty, select, signal, struct, sys, fcntl, termios, time

args = sys.argv[1:]
trigger = keys = None
if args[0] == "--send":
    trigger, keys = args[1].encode(), args[2].encode()
    args = args[3:]
out, argv = args[0], args[2:]
pid, fd = pty.fork()
if pid == 0:
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    os.execvp(argv[0], argv)
data = b""
sent = False
deadline = time.monotonic() + 60
status = None
while True:
    if time.monotonic() > deadline:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        status = 124
        break
    r, _, _ = select.select([fd], [], [], 0.2)
    if r:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: every holder of the terminal closed it
            chunk = b""
        if not chunk:
            break
        data += chunk
        if trigger is not None and not sent and trigger in data:
            time.sleep(0.2)
            os.write(fd, keys)
            sent = True
if status is None:
    _, st = os.waitpid(pid, 0)
    status = os.WEXITSTATUS(st) if os.WIFEXITED(st) else 128 + os.WTERMSIG(st)
with open(out, "wb") as f:
    f.write(data)
sys.exit(status)
