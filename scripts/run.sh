#!/usr/bin/env bash
# run.sh: set up, build, and run gpusizer on a default configuration.
# Any arguments are passed to the CLI instead (e.g. scripts/run.sh fit --model llama-3-8b).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset native >/dev/null
cmake --build --preset native -j"$(nproc)" --target gpusizer >/dev/null
if [ $# -eq 0 ]; then
  set -- estimate --model llama-3-70b --weights q4_k_m --gpu rtx-4090 --gpus 2
fi
exec ./build/native/gpusizer "$@"
