#!/bin/sh
# The documents stay findable when one is split (docs/DEVELOPING.md; the
# 36th wave split docs/joint/speed_w29.md, loss_late.md and
# confidence_late.md along their sections):
#   - every file of docs/ and README.md is at most 1,500 lines;
#   - every relative Markdown link of them names a file that exists;
#   - every place that names a docs file and a section by its helper tag
#     (docs/joint/X.md "... (h285)" in the option table, a source's head, a
#     test's head, a docs bullet "([X.md](joint/X.md), h285)") names the
#     file that holds the tag's section: X.md has a heading or a bold item
#     carrying that tag.  A section moved to a new file without its
#     references fails here.
set -u
: "${PB_ROOT:?}"
cd "$PB_ROOT" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null 2>&1 || { echo "no python3"; exit 77; }
python3 - <<'EOF' || fail "doc references (above)"
import glob, os, re, subprocess, sys
bad = []
docs = sorted(glob.glob('docs/**/*.md', recursive=True)) + ['README.md']
for f in docs:
    n = sum(1 for _ in open(f, encoding='utf-8'))
    if n > 1500:
        bad.append(f'{f}: {n} lines (at most 1,500: split it along a section)')
    for m in re.finditer(r'\]\(([^)#\s:]+\.md)(#[^)]*)?\)', open(f, encoding='utf-8').read()):
        p = os.path.normpath(os.path.join(os.path.dirname(f), m.group(1)))
        if not os.path.exists(p):
            bad.append(f'{f}: link to {m.group(1)}, which does not exist')
# the helper tags each docs file's sections carry (headings, bold items)
tags = {}
for f in docs:
    t = set()
    for line in open(f, encoding='utf-8'):
        if line.startswith('#') or line.lstrip().startswith('- **'):
            t.update(re.findall(r'\bh(\d{2,3})\b', line))
    tags[f] = t
def norm(s, src):
    if src.endswith(('.c', '.h', '.inc')):
        s = s.replace('\\"', '"')
        s = re.sub(r'"\s*\n\s*"', '', s)       # C string pieces joined
        s = re.sub(r'\n\s*\*\s?', ' ', s)       # comment continuation
    else:
        s = re.sub(r'\n\s*#\s?', ' ', s)        # shell comment continuation
    return re.sub(r'\s+', ' ', s)
srcs = subprocess.run(['git', 'ls-files', 'algorithms', 'core', 'tools',
                       'tests/unit', 'tests/sh', 'experiments', 'docs/joint.md'],
                      capture_output=True, text=True).stdout.split()
# "docs/joint/X.md "Title ... (hNNN)"" or "docs/joint/X.md, "Title (hNNN)""
ref_q = re.compile(r'docs/((?:joint/)?[a-z0-9_]+\.md)\)?,? "([^"]{4,200}?)"')
# docs/joint.md's bullets: "([X.md](joint/X.md), hNNN)"
ref_b = re.compile(r'\]\((joint/[a-z0-9_]+\.md)\), h(\d{3})\)')
checked = 0
for src in srcs:
    if src.endswith('test_doc_refs.sh') or not os.path.isfile(src):
        continue
    s = norm(open(src, encoding='utf-8', errors='replace').read(), src)
    found = []
    for m in ref_q.finditer(s):
        h = re.findall(r'\(h(\d{3})\)\s*$', m.group(2))
        if h:
            found.append((m.group(1), h[0]))
    for m in ref_b.finditer(s):
        found.append((m.group(1), m.group(2)))
    for name, h in found:
        path = 'docs/' + name
        if path not in tags:
            bad.append(f'{src}: names {path}, which does not exist'); continue
        checked += 1
        if h not in tags[path]:
            where = [f for f in docs if h in tags[f]]
            bad.append(f'{src}: names {path} for h{h}, whose section is in {", ".join(where) or "no docs file"}')
if checked < 20:
    bad.append(f'only {checked} tagged references found: the patterns no longer match')
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
EOF
echo "ok: doc references"
