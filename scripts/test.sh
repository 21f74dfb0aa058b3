#!/usr/bin/env bash
# test.sh: set up, build everything (the browser build, then the native one), and run the whole
# test suite: Catch2, the CLI, the desktop app under Xvfb, the browser build in Chromium, and
# the browser's size and speed budgets.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset wasm
cmake --build --preset wasm -j"$(nproc)"
cmake --preset native
cmake --build --preset native -j"$(nproc)"
ctest --preset native -j"$(nproc)"
