#!/usr/bin/env python3
# Independent oracle for the e2e tests: per-function timed calls and total
# time summed straight from function_graph text lines that name the function
# (leaf "f();" lines and "} /* f */" exit lines), no call tree involved.
# Prints JSON {function: [timed_calls, total_ns]}.
import json
import re
import sys

dur_re = re.compile(r'(?:^|\||\))\s*[+!#*@$]?\s*(\d+)(?:\.(\d+))?\s+us\s*\|')
leaf_re = re.compile(r'\|\s+([A-Za-z0-9_.$]+)\(\);')
exit_re = re.compile(r'\|\s+\}\s*/\*\s*([A-Za-z0-9_.$]+)(?:\s*=.*)?\s*\*/')
stats = {}
for line in open(sys.argv[1], errors='replace'):
    m = dur_re.search(line)
    if not m:
        continue
    frac = (m.group(2) or '')[:3].ljust(3, '0')
    ns = int(m.group(1)) * 1000 + int(frac)
    rest = line[m.end() - 1:]
    f = leaf_re.match(rest) or exit_re.match(rest)
    if not f:
        continue
    s = stats.setdefault(f.group(1), [0, 0])
    s[0] += 1
    s[1] += ns
json.dump(stats, sys.stdout)
