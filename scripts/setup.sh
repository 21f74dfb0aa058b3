#!/usr/bin/env bash
# setup.sh: installs what gpusizer needs from Debian's packages, once. Safe to re-run: it only
# calls apt-get when a package is missing. Used by run.sh and test.sh.
#   core, CLI, tests, benchmarks: cmake g++ make nlohmann-json3-dev catch2 libbenchmark-dev
#   desktop app:                  libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core
#   app screenshot tests:         xvfb xauth
#   fuzzing (libFuzzer):          clang libclang-rt-14-dev
set -euo pipefail

packages=(cmake g++ make pkg-config nlohmann-json3-dev catch2 libbenchmark-dev
          libglfw3-dev libimgui-dev libstb-dev fonts-dejavu-core xvfb xauth
          clang libclang-rt-14-dev)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "setup: run as root or install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
