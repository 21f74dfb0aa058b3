#!/usr/bin/env bash
# run.sh: set up, build the browser app, and serve it on 127.0.0.1 (the address is printed).
#   bash scripts/run.sh [LINK] [--port N]     the browser app (build/wasm/site), default port 8080
#   bash scripts/run.sh --desktop [ARGS]      the desktop app (gpusizer-app) instead; ARGS go to it
# A share link opens in either: scripts/run.sh '#v=1&m=llama-3-8b&g=l4'.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--desktop" ]; then
  shift
  bash scripts/setup.sh --native
  cmake --preset native >/dev/null
  cmake --build --preset native -j"$(nproc)" --target gpusizer gpusizer-app >/dev/null
  if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec ./build/native/gpusizer-app "$@"
  fi
  cat >&2 <<'MSG'
No display here (DISPLAY is not set), so the desktop app cannot open a window. Run it:
  - on a desktop session:      build/native/gpusizer-app
  - headless, as a picture:    xvfb-run -a build/native/gpusizer-app --screenshot app.png --size 1280x800
  - in the browser:            bash scripts/run.sh
  - in a terminal instead:     build/native/gpusizer estimate --model llama-3-70b --weights q4_k_m --gpu rtx-4090 --gpus 2
Meanwhile, the command-line answer for the app's default configuration:

MSG
  exec ./build/native/gpusizer estimate --model llama-3-70b --weights q4_k_m --gpu rtx-4090 --gpus 2
fi

port=8080
link=""
while [ $# -gt 0 ]; do
  case "$1" in
    --port) port="${2:?--port needs a number}"; shift 2 ;;
    --port=*) port="${1#--port=}"; shift ;;
    -h|--help) sed -n '2,5p' "$0"; exit 0 ;;
    *) link="$1"; shift ;;
  esac
done
bash scripts/setup.sh
cmake --preset wasm >/dev/null
cmake --build --preset wasm -j"$(nproc)" >/dev/null
address="http://127.0.0.1:${port}/"
fragment=""
if [ -n "$link" ]; then fragment="#${link#*#}"; fi
cat <<MSG
gpusizer in the browser:
  the app:     ${address}${fragment}
  the widget:  ${address}embed.html${fragment}
  the JS API:  ${address}gpusizer.js  (import createGpuSizer from '${address}gpusizer.js')
MSG
exec node scripts/serve.mjs build/wasm/site --port "$port"
