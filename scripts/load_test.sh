#!/usr/bin/env bash
# Load test: run_test of the heaviest families (attention forward/backward and var-len attention,
# convolution incl. backward, normalization incl. RMS norm) while 2x the cores' worth of busy
# processes run beside it, on each library given; prints each run's verdict counts and wall time.
# A benchmark, not a timed test: it asserts nothing about speed. What it shows is whether machine
# load turns into verdicts (time limits follow the machine: conformance/pace.py); every count other
# than `passed` (and not_implemented/skipped, which are not failures) is a false red.
#
#   bash scripts/load_test.sh [--impl torch,cpu] [--busy N] [--jobs N] [--data_dir DIR] [--lib_root DIR]
#
#   --impl      libraries to test, by vendor: build/<vendor>/lib/libdiopi_impl.so (default: torch,cpu;
#               a vendor whose library is not built is left out, and said so)
#   --busy      busy processes beside the run (default: 2 x nproc)
#   --jobs      run_test worker processes (default: nproc)
#   --data_dir  baselines (default: the harness's, diopi_test/python/data)
#   --lib_root  where build/<vendor>/lib lives (default: this checkout)
# Reports go to reports/load-<vendor>/.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
impls=torch,cpu
busy=$((2 * $(nproc)))
jobs=$(nproc)
data_dir=
lib_root=$root
while [ $# -gt 0 ]; do
  case $1 in
    --impl) impls=$2; shift 2 ;;
    --busy) busy=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --data_dir) data_dir=$(cd "$2" && pwd); shift 2 ;;
    --lib_root) lib_root=$(cd "$2" && pwd); shift 2 ;;
    *) echo "error: unknown option $1 (see the top of $0)" >&2; exit 2 ;;
  esac
done
harness="$root/diopi_test/python"
data_opt=()
[ -n "$data_dir" ] && data_opt=(--data_dir "$data_dir")
manifest=${data_dir:-$harness/data}/manifest.json
[ -f "$manifest" ] || { echo "error: no baselines at ${data_dir:-$harness/data} (run scripts/demo.sh or --mode gen_data first)" >&2; exit 2; }
# The functions of the heavy families, from the baselines' manifest.
mapfile -t funcs < <(python3 - "$manifest" <<'PY'
import json, sys
families = {"llm_attention", "convolution", "normalization", "llm_norm"}
files = json.load(open(sys.argv[1]))["files"]
print("\n".join(sorted(f for f, r in files.items() if r.get("family") in families)))
PY
)
[ ${#funcs[@]} -gt 0 ] || { echo "error: the baselines hold none of the heavy families" >&2; exit 2; }

pids=()
stop_busy() {
  local p
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  pids=()
}
trap stop_busy EXIT
for _ in $(seq "$busy"); do
  (while :; do :; done) &
  pids+=($!)
done
echo "load test: ${#funcs[@]} functions (attention, convolution, normalization), $busy busy processes on $(nproc) cores, --jobs $jobs"

mkdir -p "$root/reports"
results=()
status=0
for vendor in ${impls//,/ }; do
  lib="$lib_root/build/$vendor/lib/libdiopi_impl.so"
  if [ ! -f "$lib" ]; then
    echo "== $vendor: left out, $lib is not built (scripts/build_impl.sh $vendor)"
    continue
  fi
  reports="$root/reports/load-$vendor"
  t0=$(date +%s)
  rc=0
  (cd "$harness" && python3 main.py --mode run_test --impl_lib "$lib" "${data_opt[@]}" --fname "${funcs[@]}" --jobs "$jobs" \
     --report_dir "$reports" --log-level warning) > "$reports.log" 2>&1 || rc=$?
  t1=$(date +%s)
  counts=$(python3 - "$reports/summary.json" <<'PY'
import collections, json, sys
s = json.load(open(sys.argv[1]))
c = collections.Counter(case["result"]["verdict"] for case in s["cases"])
print(", ".join(f"{n} {v}" for v, n in c.most_common()))
PY
)
  results+=("$(printf '%-6s %5d s  rc %d  %s' "$vendor" $((t1 - t0)) "$rc" "$counts")")
  echo "== $vendor: $((t1 - t0)) s, rc $rc: $counts (log: $reports.log, report: $reports)"
  [ "$rc" = 0 ] || status=1
done
stop_busy
echo "load test under $busy busy processes:"
printf '  %s\n' "${results[@]}"
exit $status
