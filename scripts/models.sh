#!/usr/bin/env bash
# Real transformers models (and a torch.nn CNN) on the PyTorch `diopi` device,
# compared with eager CPU under recipes (fp32 by default; bf16, fp16,
# bf16-cast, checkpoint, resume, loader, generate, device1, or all); with
# --compile the device side runs through torch.compile(model, backend="diopi").
#   bash scripts/models.sh [--impl_lib PATH] [--models A,B,...] [--recipe R,...|all] [--json FILE] [--autocompare] [--time]
#                          [--bench] [--bench_calls] [--bench_tools] [--compile [--capture_graphs DIR]]
# The exit status is the suite's own (1 when a model does not match); exec
# keeps it, abort included, for the caller.
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
# A non-editable install (pip install bridge/torch) carries its own build in diopi_torch/_lib and is run as
# installed; otherwise this checkout's device is built (incrementally) and installed editable.
pkg=$(cd / && python3 -c "import os, diopi_torch; print(os.path.dirname(diopi_torch.__file__))" 2>/dev/null || true)
if [ -z "$pkg" ] || [ ! -f "$pkg/_lib/libdiopi_torch.so" ]; then
  bash "$root/scripts/build_bridge.sh" >/dev/null
fi
exec python3 -m diopi_torch.suite "$@"
