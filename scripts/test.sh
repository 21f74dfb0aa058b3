#!/usr/bin/env bash
# test.sh: set up, build everything, and run the whole test suite:
#   wasm    the browser build (app, widget, Embind API) that the native suite's browser tests load
#   native  the core, CLI, MCP server, Python package, UI logic, desktop app screenshots, CUDA host
#           logic, accuracy set, and the browser build in headless Chromium (tests/browser/)
#   asan    the native suite under AddressSanitizer and UBSan
#   fuzz    every libFuzzer target for a bounded time (GPUSIZER_FUZZ_SECONDS, default 20 s each)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs="$(nproc)"

# Each stage's wall time, printed as it ends and again at the end (issue 29: the suite's time is a
# budget of its own, under 40 minutes on a fresh 2-core machine).
times=()
stage() {
  local name="$1"; shift
  local t0=$SECONDS
  echo "=== test.sh: $name" >&2
  "$@"
  local dt=$((SECONDS - t0))
  times+=("$(printf '%-14s %4d min %02d s' "$name" $((dt / 60)) $((dt % 60)))")
  echo "=== test.sh: $name took $((dt / 60)) min $((dt % 60)) s" >&2
}

# A failed test's own lines again at the very end, where a log's tail keeps them: what a sanitizer
# or libFuzzer said, and a fuzzer's crashing input (gzip + base64: `base64 -d | gunzip` gives it
# back for `fuzz_<target> FILE`). ctest --output-on-failure printed them once already, mid-log.
failure_summary() {
  local dir log crash
  for dir in build/native build/asan build/fuzz; do
    [ -s "$dir/Testing/Temporary/LastTestsFailed.log" ] || continue
    log="$dir/Testing/Temporary/LastTest.log"
    echo "=== test.sh: failed in $dir: $(cut -d: -f2 "$dir/Testing/Temporary/LastTestsFailed.log" | tr '\n' ' ')" >&2
    grep -E '==ERROR|SUMMARY:|runtime error|Test unit written|Base64:|FAILED:|REQUIRE|CHECK\(|#[0-9]+ 0x[0-9a-f]+ in ' "$log" | head -40 >&2 || true
    for crash in "$dir"/fuzz/crash-* "$dir"/fuzz/timeout-* "$dir"/fuzz/oom-* "$dir"/fuzz/leak-*; do
      [ -f "$crash" ] || continue
      echo "=== test.sh: $crash ($(stat -c %s "$crash") bytes), gzip | base64:" >&2
      gzip -9c "$crash" | base64 -w 100 | head -60 >&2 || true
    done
  done
}
trap 'failure_summary; echo "=== test.sh: stage times" >&2; for t in "${times[@]}"; do echo "    $t" >&2; done; echo "    total          $((SECONDS / 60)) min $((SECONDS % 60)) s" >&2' EXIT

stage setup bash scripts/setup.sh
stage "wasm build" bash -c "cmake --preset wasm && cmake --build --preset wasm -j$jobs"
stage "native build" bash -c "cmake --preset native && cmake --build --preset native -j$jobs"
stage "native tests" ctest --preset native -j"$jobs"

stage "asan build" bash -c "cmake --preset asan && cmake --build --preset asan -j$jobs"
stage "asan tests" ctest --preset asan -j"$jobs"

stage "fuzz build" bash -c "cmake --preset fuzz -DGPUSIZER_FUZZ_SECONDS=${GPUSIZER_FUZZ_SECONDS:-20} && cmake --build --preset fuzz -j$jobs"
stage "fuzz" ctest --preset fuzz -j"$jobs"
