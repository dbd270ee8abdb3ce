#!/usr/bin/env bash
# The main job: set up, build the reference implementation (impl/torch),
# generate baselines with PyTorch and replay them through the C ABI.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bash "$root/scripts/setup.sh"
bash "$root/scripts/build_impl.sh" torch
cd "$root/diopi_test/python"
python3 main.py --mode gen_data
python3 main.py --mode run_test --jobs "$(nproc)"
