#!/usr/bin/env bash
# run.sh: set up, build, and start the desktop app (gpusizer-app). Without a display it says
# how to run the app headless and shows the command-line tool's answer instead.
# Arguments go to the app: a share link or a configuration file (scripts/run.sh '#v=1&m=llama-3-8b&g=l4').
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake --preset native >/dev/null
cmake --build --preset native -j"$(nproc)" --target gpusizer gpusizer-app >/dev/null
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/native/gpusizer-app "$@"
fi
cat >&2 <<'MSG'
No display here (DISPLAY is not set), so the desktop app cannot open a window. Run it:
  - on a desktop session:      build/native/gpusizer-app
  - headless, as a picture:    xvfb-run -a build/native/gpusizer-app --screenshot app.png --size 1280x800
  - in a terminal instead:     build/native/gpusizer estimate --model llama-3-70b --weights q4_k_m --gpu rtx-4090 --gpus 2
Meanwhile, the command-line answer for the app's default configuration:

MSG
exec ./build/native/gpusizer estimate --model llama-3-70b --weights q4_k_m --gpu rtx-4090 --gpus 2
