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
cmake -S "$root/bridge/torch" -B "$build" "${gen[@]}" -DPython3_EXECUTABLE="$(command -v python3)" >/dev/null
cmake --build "$build" --parallel "${DIOPI_JOBS:-$(nproc)}"
python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-build-isolation --no-deps \
  -e "$root/bridge/torch" >/dev/null
echo "built: $build/libdiopi_torch.so"
