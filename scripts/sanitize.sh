#!/usr/bin/env bash
# Builds a vendor library and the test runtime with AddressSanitizer and
# UndefinedBehaviorSanitizer, replays the conformance suite on it (and, for
# impl/cpu, runs the compiled model suite of the diopi device on it) and fails
# if a sanitizer reported anything (a report also ends its case as
# `crashed`, since recovery is off).
#   bash scripts/sanitize.sh cpu [extra run_test arguments]
set -euo pipefail
vendor=${1:-cpu}
shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build/$vendor-sanitize
# -O0 with line tables: optimising instrumented template-heavy kernels costs
# several minutes per file on 2 cores, while the suite still runs in minutes
# (even -O1 is no cheaper: loss.cpp took 116 s of CPU against 33 s at -O0).
DIOPI_BUILD_DIR=$build bash "$root/scripts/build_impl.sh" "$vendor" -DDIOPI_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG=-g1 -DCMAKE_C_FLAGS_DEBUG=-g1
logs=$root/reports/$vendor-sanitize/logs
rm -rf "$logs" && mkdir -p "$logs"
# Python itself is not instrumented: the ASan runtime has to come first.
asan=$(${CXX:-g++} -print-file-name=libasan.so)
export LD_PRELOAD=$asan
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:log_path=$logs/asan
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$logs/ubsan
rc=0
# DIOPI_JOBS as for the build: inside scripts/test.sh's lanes OMP_NUM_THREADS=1 makes `nproc` say 1.
(cd "$root/diopi_test/python" && python3 main.py --mode run_test --jobs "${DIOPI_JOBS:-$(nproc)}" --timeout 60 \
  --impl_lib "$build/lib/libdiopi_impl.so" --report_dir "$root/reports/$vendor-sanitize" "$@") || rc=$?
# The compile route on the instrumented library: every suite model's compiled step, its generated C
# built before the first run. (libstdc++ preloaded too: Python does not link it, and ASan's
# interceptor of C++ throws must find it when PyTorch raises.)
if [ "$vendor" = cpu ] && python3 -c "import torch, transformers" 2>/dev/null; then
  LD_PRELOAD="$asan $(${CXX:-g++} -print-file-name=libstdc++.so)" DIOPI_GRAPH_COMPILE=sync \
    python3 -m diopi_torch.suite --compile --impl_lib "$build/lib/libdiopi_impl.so" \
    --json "$root/reports/$vendor-sanitize/models-compile.json" || rc=$?
fi
unset LD_PRELOAD
if compgen -G "$logs/*" >/dev/null; then
  echo "sanitizer reports in $logs:" >&2
  head -n 40 "$logs"/* >&2
  exit 1
fi
echo "sanitizers: no reports"
exit $rc
