#!/usr/bin/env bash
# Builds the PyTorch `diopi` device (bridge/torch) into build/bridge and
# installs its Python package (diopi_torch) in editable mode.
#   bash scripts/build_bridge.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIOPI_BRIDGE_BUILD_DIR:-$root/build/bridge}
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
if [ -f "$build/CMakeCache.txt" ]; then gen=(); fi
# Stages that run side by side may each ask for the device: one build (and one
# pip install) at a time, or pip removes the other's editable .pth mid-install.
mkdir -p "$build"
exec 9>"$build/.build.lock"
flock 9
cmake -S "$root/bridge/torch" -B "$build" "${gen[@]}" -DPython3_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build "$build" --parallel "${DIOPI_JOBS:-$(nproc)}"
# Installed editable from this checkout already: nothing for pip to do.
here=$(cd / && python3 -c "import os, diopi_torch; print(os.path.dirname(os.path.abspath(diopi_torch.__file__)))" 2>/dev/null || true)
if [ "$here" != "$root/bridge/torch/diopi_torch" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-build-isolation --no-deps \
    -e "$root/bridge/torch" >/dev/null
fi
echo "built: $build/libdiopi_torch.so"
