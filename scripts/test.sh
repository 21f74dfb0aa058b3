#!/usr/bin/env bash
# test.sh: set up, build everything, and run the whole test suite:
#   wasm    the browser build (app, widget, Embind API) that the native suite's browser tests load
#   native  the core, CLI, UI logic, desktop app screenshots, CUDA host logic, accuracy set, and
#           the browser build in headless Chromium (tests/browser/)
#   asan    the native suite under AddressSanitizer and UBSan
#   fuzz    every libFuzzer target for a bounded time (GPUSIZER_FUZZ_SECONDS, default 20 s each)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs="$(nproc)"

cmake --preset wasm
cmake --build --preset wasm -j"$jobs"
cmake --preset native
cmake --build --preset native -j"$jobs"
ctest --preset native -j"$jobs"

cmake --preset asan
cmake --build --preset asan -j"$jobs"
ctest --preset asan -j"$jobs"

cmake --preset fuzz -DGPUSIZER_FUZZ_SECONDS="${GPUSIZER_FUZZ_SECONDS:-20}"
cmake --build --preset fuzz -j"$jobs"
ctest --preset fuzz -j"$jobs"
