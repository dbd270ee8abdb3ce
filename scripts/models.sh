#!/usr/bin/env bash
# Real transformers models (and a torch.nn CNN) on the PyTorch `diopi` device,
# compared with eager CPU: forward, loss, backward and one AdamW step.
#   bash scripts/models.sh [--impl_lib PATH] [--models A,B,...] [--json FILE] [--autocompare] [--bench]
# Builds the device (and impl/torch, the default library) when missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
impl=""
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = "--impl_lib" ]; then impl=${args[$((i + 1))]:-}; fi
done
if [ -z "$impl" ] && [ ! -f "$root/build/torch/lib/libdiopi_impl.so" ]; then
  bash "$root/scripts/build_impl.sh" torch
fi
bash "$root/scripts/build_bridge.sh" >/dev/null
exec python3 -m diopi_torch.suite "$@"
