#!/usr/bin/env bash
# Everything CI checks: set up, build, replay the full conformance suite on
# impl/torch, then the unit and integration tests.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
t0=$(date +%s)
bash "$root/scripts/build_impl.sh" torch
t1=$(date +%s)
cd "$root/diopi_test/python"
python3 main.py --mode gen_data
t2=$(date +%s)
python3 main.py --mode run_test --jobs "$(nproc)"
t3=$(date +%s)
echo "timing: build $((t1 - t0)) s, gen_data $((t2 - t1)) s, run_test $((t3 - t2)) s"
cd "$root"
python3 -m pytest -q
