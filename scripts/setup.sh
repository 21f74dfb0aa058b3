#!/usr/bin/env bash
# setup.sh: installs what gpusizer needs, once, from Debian's packages and npm only. Safe to
# re-run: each step is skipped when what it makes is already there. Used by run.sh and test.sh.
#   core, CLI, tests, benchmarks: cmake g++ make nlohmann-json3-dev catch2 libbenchmark-dev
#   Python package (python/):     pybind11-dev python3-dev (pybind11's CMake files; the headers of Debian's
#                                 Python: an interpreter of its own, pyenv or a venv, brings its own)
#   desktop app:                  libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core
#   app screenshot tests:         xvfb xauth
#   fuzzing (libFuzzer):          clang libclang-rt-14-dev
#   browser build (web/):         emscripten, fonttools (pyftsubset: the app's font subset),
#                                 Dear ImGui's sources (Debian's source package `imgui`,
#                                 through a deb-src entry) in build/deps/imgui-1.86
#   browser tests:                chromium, Node.js with npm, playwright-core (package.json,
#                                 installed with `npm ci` into node_modules/)
# `setup.sh --native` stops after the desktop's packages (no browser build).
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake g++ make pkg-config nlohmann-json3-dev catch2 libbenchmark-dev pybind11-dev python3-dev
          libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core xvfb xauth
          clang libclang-rt-14-dev)
web=1
if [ "${1:-}" = "--native" ]; then web=0; fi
if [ "$web" = 1 ]; then
  packages+=(emscripten fonttools chromium)
  # Node.js (with npm) may come from Debian or from NodeSource; only ask Debian when absent.
  command -v node >/dev/null || packages+=(nodejs)
  command -v npm >/dev/null || packages+=(npm)
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
need_root() {
  if [ -n "$SUDO" ] && ! command -v sudo >/dev/null; then
    echo "setup: run as root, or install: $*" >&2
    exit 1
  fi
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  need_root "${missing[*]}"
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
[ "$web" = 1 ] || exit 0

# Dear ImGui 1.86's sources (the version of libimgui-dev) for the WebAssembly build, from
# Debian's source package. apt needs a deb-src entry: the same archive as the deb entries,
# written as its own file.
imgui_dir=build/deps/imgui-1.86
if [ ! -f "$imgui_dir/imgui.cpp" ]; then
  srcfile=/etc/apt/sources.list.d/gpusizer-deb-src.sources
  if ! grep -rqs '^Types:.*deb-src\|^deb-src ' /etc/apt/sources.list /etc/apt/sources.list.d/; then
    need_root "a deb-src entry in $srcfile"
    if [ -f /etc/apt/sources.list.d/debian.sources ]; then
      sed 's/^Types: deb$/Types: deb-src/' /etc/apt/sources.list.d/debian.sources | $SUDO tee "$srcfile" >/dev/null
    else
      grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $SUDO tee "${srcfile%.sources}.list" >/dev/null
    fi
    $SUDO apt-get update -qq
  fi
  mkdir -p build/deps
  (cd build/deps && rm -f imgui_*.tar.xz imgui_*.dsc
   apt-get source -qq --download-only imgui 2>&1 | grep -v 'unsandboxed' >&2 || true;
   tar xf imgui_1.86+ds.orig.tar.xz)
  [ -f "$imgui_dir/imgui.cpp" ] || { echo "setup: could not unpack Dear ImGui's sources into $imgui_dir" >&2; exit 1; }
fi

# playwright-core for the browser tests (it drives /usr/bin/chromium; it downloads no browser).
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error >/dev/null
fi
