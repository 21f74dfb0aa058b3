#!/usr/bin/env bash
# Rewrites the generated references of docs/config.md: the configuration keys from the key table
# (core/src/config_keys.cpp, `gpusizer keys --markdown`) and a custom GPU's fields from their table
# (core/src/custom_gpu.cpp, `gpusizer keys --gpu --markdown`). The tests "docs/config.md's key
# reference is generated from the key table" and "... custom GPU field reference ..." fail until
# this is run.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=${GPUSIZER:-build/native/gpusizer}
keys=$("$cli" keys --markdown)
fields=$("$cli" keys --gpu --markdown)
python3 - "$keys" "$fields" <<'PY'
import sys
path = "docs/config.md"
doc = open(path).read()
for name, table in (("keys", sys.argv[1]), ("gpu-fields", sys.argv[2])):
    begin = "<!-- %s:begin (generated: scripts/gen_config_docs.sh) -->\n" % name
    end = "<!-- %s:end -->" % name
    a = doc.index(begin) + len(begin)
    b = doc.index(end)
    doc = doc[:a] + table + "\n" + doc[b:]
open(path, "w").write(doc)
PY
