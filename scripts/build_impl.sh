#!/usr/bin/env bash
# Builds libdiopi_impl.so for one vendor and the test runtime into build/<vendor>/lib.
#   bash scripts/build_impl.sh torch        # reference implementation on ATen
#   bash scripts/build_impl.sh cpu          # standalone CPU vendor
#   bash scripts/build_impl.sh sim          # the simulated chip on impl/cpu's kernels
# Extra arguments go to cmake's configure step (e.g. -DDIOPI_SANITIZE=ON).
# sim reuses the kernels of build/cpu (brought up to date first) when that
# build exists (DIOPI_SIM_CPU_BUILD names another), else compiles them itself.
set -euo pipefail
vendor=${1:-torch}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build=${DIOPI_BUILD_DIR:-$root/build/$vendor}
gen=()
command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
if [ -f "$build/CMakeCache.txt" ]; then gen=(); fi
reuse=()
if [ "$vendor" = sim ]; then
  cpu_build=${DIOPI_SIM_CPU_BUILD:-$root/build/cpu}
  if [ -f "$cpu_build/CMakeCache.txt" ]; then
    cmake --build "$cpu_build" --target diopi_impl_kernels --parallel "${DIOPI_JOBS:-$(nproc)}"
    reuse=(-DDIOPI_SIM_KERNELS="$cpu_build/impl/cpu/libdiopi_impl_kernels.a")
  fi
fi
cmake -S "$root" -B "$build" "${gen[@]}" -DIMPL_OPT="$vendor" -DPython3_EXECUTABLE="$(command -v python3)" "${reuse[@]}" "$@" >/dev/null
cmake --build "$build" --parallel "${DIOPI_JOBS:-$(nproc)}"
echo "built: $build/lib/libdiopi_impl.so $build/lib/libdiopirt.so"
