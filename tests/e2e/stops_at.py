# SPDX-License-Identifier: GPL-2.0-or-later
# stops_at.py REPORT REGEX [N]: exit 0 when, on some CPU, the last
# `trace-cmd report` line matching REGEX is also the last event of that CPU (or has at most N after
# it there: an application that stops tracing itself may be preempted
# between its marker and its write to tracing_on). That is what a
# flight-recorder hit stopped by that event looks like: tracing goes off on
# the spot on the CPU that hit the trigger, while another CPU may still
# commit an event it had begun (under TCG a vCPU can be paused mid-write).
# Events after it of the very task that hit the trigger (up to 16) are
# allowed too: an interrupt taken between the event's commit and the
# trigger's tracing_off runs in that task's context and traces its own
# events (irq, softirq_raise, softirq_entry ...) before tracing stops.
import re
import sys

path, pattern = sys.argv[1], re.compile(sys.argv[2])
slack = int(sys.argv[3]) if len(sys.argv) > 3 else 0
line_re = re.compile(r"^\s*(?:\S+: )?.*?-(\d+)\s+\[(\d+)\]\s+\d+\.\d+:\s+\S+:")
events = []
pids = []
for line in open(path, errors="replace"):
    m = line_re.match(line)
    if m:
        events.append((int(m.group(2)), line.rstrip("\n")))
        pids.append(int(m.group(1)))
hits = [i for i, (_, l) in enumerate(events) if pattern.search(l)]
if not hits:
    sys.exit("no event matches %r" % sys.argv[2])
# The last matching event of each CPU: two CPUs may both be inside a
# matching event when one of them fires the trigger, and the one that did
# need not be the last in time; the hit ends at whichever fired it.
last_of_cpu = {}
for i in hits:
    last_of_cpu[events[i][0]] = i
why = []
for cpu, i in sorted(last_of_cpu.items()):
    later = [j for j in range(i + 1, len(events)) if events[j][0] == cpu]
    if len(later) <= slack:
        sys.exit(0)
    if len(later) <= 16 and all(pids[j] == pids[i] for j in later):
        sys.exit(0)
    later = [events[j][1] for j in later]
    why.append("after it on CPU %d: %s" % (cpu, later[0]))
sys.exit("; ".join(why))
