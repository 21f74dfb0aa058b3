#!/usr/bin/env python3
"""strings_todo.py: the ImGui texts still written as bare literals in ui/*.cpp (the check of
tests/test_ui_strings.cpp, for working through a file): python3 scripts/strings_todo.py [FILES]"""
import re, sys, pathlib
root = pathlib.Path(__file__).resolve().parent.parent
call = re.compile(r'ImGui::(Text|TextUnformatted|TextDisabled|TextWrapped|TextColored|BulletText|SeparatorText|LabelText|SetTooltip|Button|SmallButton|Checkbox|RadioButton|MenuItem|BeginMenu|Selectable|CollapsingHeader|TreeNode|BeginTabItem|TabItemButton|SliderInt|SliderFloat|SliderDouble|InputText|InputTextWithHint|InputInt|InputDouble|InputFloat|Combo|BeginCombo|TableSetupColumn|BeginPopupModal)\((?:[^;"()]*(?:\([^()]*\))?[^;"()]*,\s*)?"((?:[^"\\]|\\.)*)"')
helper = re.compile(r'\b(row_label|help_marker|pick_selectable|wrapped_tooltip|same_line_fitting)\("((?:[^"\\]|\\.)*)"')
conv = re.compile(r'%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:ll|l|h|z)?[diouxXeEfgGcsp%]')
files = [pathlib.Path(f) for f in sys.argv[1:]] or sorted((root / 'ui').glob('*.cpp'))
total = 0
def code(t): return '\n'.join('' if l.lstrip().startswith('//') else l for l in t.split('\n'))
for f in files:
    text = code(f.read_text())
    hits = []
    for rx in (call, helper):
        for m in rx.finditer(text):
            lit = conv.sub('', m.group(2).split('##')[0])
            if re.search('[A-Za-z]', lit):
                hits.append((text.count('\n', 0, m.start()) + 1, m.group(0)))
    total += len(hits)
    for line, h in sorted(hits):
        print(f'{f.name}:{line}: {h}')
print(f'{total} bare', file=sys.stderr)

# The table's checks (tests/test_ui_strings.cpp is the gate; this is the quick look while working):
# every tr("...")/tr_label("...")/tr_later("...") in ui/*.cpp has an "app" row, rows have both
# languages with the same printf conversions, no row is unused.
import json
rows = json.loads((root / 'assets/strings.json').read_text())['strings']
by_en = {}
for r in rows:
    if r['en'] in by_en: print('duplicate row:', r['en'])
    by_en[r['en']] = r
    if conv.findall(r['en']) != conv.findall(r['pt-BR']): print('conversions differ:', r['en'])
def unescape(s): return s.encode('latin-1', 'backslashreplace').decode('unicode_escape').encode('latin-1').decode('utf-8')
marked = set()
for f in sorted((root / 'ui').glob('*.[ch]pp')) + sorted((root / 'native/app').glob('*.cpp')) + [root / f for f in ('web/main.cpp', 'web/platform_web.hpp', 'web/platform_web.cpp')]:
    t = code(f.read_text())
    for m in re.finditer(r'\btr(_label|_later)?\("((?:[^"\\]|\\.)*)"\)', t):
        s = unescape(m.group(2))
        if m.group(1) == '_label': s = s.split('##')[0]
        marked.add(s)
        if s not in by_en or 'app' not in by_en[s]['in']: print(f'{f.name}: no app row for: {s!r}')
for r in rows:
    if 'app' in r['in'] and r['en'] not in marked: print('app row used nowhere:', repr(r['en']))
