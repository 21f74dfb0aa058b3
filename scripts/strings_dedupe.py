#!/usr/bin/env python3
"""strings_dedupe.py: after merging branches that added rows to assets/strings.json (merged by
lines), joins rows with the same English text (their "in" lists together; the first row's
Portuguese, and prints where two differ to choose by hand), keeping one row per line and the
last row without a comma."""
import json, pathlib
path = pathlib.Path(__file__).resolve().parent.parent / 'assets/strings.json'
lines = path.read_text().split('\n')
rows, first, last = [], None, None
for i, l in enumerate(lines):
    if l.strip().startswith('{"en"'):
        first = i if first is None else first
        last = i
        rows.append(json.loads(l.strip().rstrip(',')))
seen = {}
out = []
for r in rows:
    if r['en'] in seen:
        kept = seen[r['en']]
        if kept['pt-BR'] != r['pt-BR']:
            print(f"differ: {r['en']!r}: kept {kept['pt-BR']!r}, dropped {r['pt-BR']!r}")
        kept['in'] = sorted(set(kept['in']) | set(r['in']))
        continue
    seen[r['en']] = r
    out.append(r)
body = [('    ' + json.dumps(r, ensure_ascii=False) + ',') for r in out]
body[-1] = body[-1].rstrip(',')
lines[first:last + 1] = body
path.write_text('\n'.join(lines))
json.loads(path.read_text())
print(len(rows) - len(out), 'duplicates joined;', len(out), 'rows')
