#!/usr/bin/env bash
# Builds libdiopi_impl.so for one vendor and the test runtime into build/<vendor>/lib.
#   bash scripts/build_impl.sh torch        # reference implementation on ATen
#   bash scripts/build_impl.sh cpu          # standalone CPU vendor
# Extra arguments go to cmake's configure step (e.g. -DDIOPI_SANITIZE=ON).
set -euo pipefail
vendor=${1:-torch}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIOPI_BUILD_DIR:-$root/build/$vendor}
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
if [ -f "$build/CMakeCache.txt" ]; then gen=(); fi
cmake -S "$root" -B "$build" "${gen[@]}" -DIMPL_OPT="$vendor" -DPython3_EXECUTABLE="$(command -v python3)" "$@" >/dev/null
cmake --build "$build" --parallel "${DIOPI_JOBS:-$(nproc)}"
echo "built: $build/lib/libdiopi_impl.so $build/lib/libdiopirt.so"
