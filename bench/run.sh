#!/usr/bin/env bash
# bench/run.sh: builds what the benchmarks need (native release and browser builds) and runs
# every speed and size budget in one go (bench/run.mjs): estimate and sweep natively and in
# WebAssembly under Node.js, the download sizes, the app page's first frame and a slider drag
# in headless Chromium. Each figure is printed beside its budget; the ones over it are listed
# at the end, and the exit code is 1 when there is one.
#   bash bench/run.sh [--repetitions N] [--json FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh >&2
jobs="$(nproc)"
{
  cmake --preset native
  cmake --build --preset native -j"$jobs" --target bench_estimate bench_portable bench_readers bench_plan
  cmake --preset wasm
  cmake --build --preset wasm -j"$jobs"
} >&2
exec node bench/run.mjs "$@"
