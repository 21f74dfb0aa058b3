#!/usr/bin/env bash
# Rewrites the key reference of docs/config.md from the configuration-key table
# (core/src/config_keys.cpp), through `gpusizer keys --markdown`. The test
# "docs/config.md's key reference is generated from the key table" fails until this is run.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${GPUSIZER:-build/native/gpusizer}
table=$("$cli" keys --markdown)
python3 - "$table" <<'PY'
import sys
begin = "<!-- keys:begin (generated: scripts/gen_config_docs.sh) -->\n"
end = "<!-- keys:end -->"
path = "docs/config.md"
doc = open(path).read()
a = doc.index(begin) + len(begin)
b = doc.index(end)
open(path, "w").write(doc[:a] + sys.argv[1] + "\n" + doc[b:])
PY
