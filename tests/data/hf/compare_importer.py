#!/usr/bin/env python3
"""Runs every fixture through the CLI (build/native/gpusizer estimate --hf-config FILE --context 32768 --json)
and prints its parameter count and KV cache beside the hand derivation in expected.json. Run from the
repository root after building the gpusizer target."""
import json, subprocess, glob, os
exp = json.load(open("tests/data/hf/expected.json"))["models"]
T = 32768
rows = []
for f, e in sorted(exp.items()):
    p = subprocess.run(["./build/native/gpusizer", "estimate", "--hf-config", "tests/data/hf/" + f, "--context", str(T), "--json"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        rows.append((f, "ERR " + (p.stderr.strip().splitlines() or ["?"])[-1][:90])); continue
    d = json.loads(p.stdout)
    c = e["cache"]
    kv_exp = 2 * (c["growing_values_per_token"] * T + sum(x["values_per_token"] * min(T, x["window"] or T) for x in c["capped"]))
    st = c["fixed_state_elements_per_sequence"]
    kv_got = d["memory"]["per_gpu"]["kv_cache"]
    der = e["derived"]["text_params"]
    rows.append((f, f'params {d["params"]/1e9:8.3f} (derived {der/1e9:8.3f}, {d["params"]/der-1:+.3%})  active {d.get("active_params",0)/1e9:6.2f} (derived {e["derived"]["text_active_params"]/1e9:6.2f})  kv@32k {kv_got/2**30:7.3f} GiB (exp KV {kv_exp/2**30:7.3f} + state {st} el)  kv_bytes/token {d["kv_bytes_per_token"]} (growing {2*c["growing_values_per_token"]})'))
for r in rows: print(r[0][:44].ljust(44), r[1])
