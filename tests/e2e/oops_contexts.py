# Summary of `ftlens oops --json` for tests/e2e/t4106-oops-contexts.sh: one
# line per stack ("stack LINE cpu=N caller=C frames=N mixed=B: f1 f2 ...")
# and per register dump ("regs LINE CONTEXT cpu=N: NAME=VALUE"), for the
# report given (1-based), and the report's own task fields.
import json
import sys

doc = json.load(open(sys.argv[1]))
r = doc['logs'][0]['reports'][int(sys.argv[2]) - 1]
print('report cpu=%s pid=%s comm=%s fault=%s regs=%d' % (
    r['cpu'], r['pid'], r['comm'],
    r['fault']['function'] if r['fault'] else None, len(r['registers'])))
for s in r['stacks']:
    print('stack %d cpu=%s caller=%s frames=%d mixed=%s: %s' % (
        s['line'], s['cpu'], s['caller'], len(s['frames']), s['interleaved'],
        ' '.join(f['function'] or '-' for f in s['frames'] if f['reliable'])))
for d in r['register_dumps']:
    first = d['registers'][0] if d['registers'] else {'name': '-', 'value': '-'}
    print('regs %d %s cpu=%s n=%d: %s=%s' % (
        d['line'], d['context'], d['cpu'], len(d['registers']), first['name'], first['value']))
