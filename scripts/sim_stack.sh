#!/usr/bin/env bash
# The `diopi` device on the simulated chip (impl/sim: device memory the host
# cannot read, work queued on streams and started after random delays), on
# two simulated devices, compared with eager CPU:
#   recipes fp32, loader, device1  host<->device copies, pinned memory and non-blocking copies
#                                  (events keep pinned blocks alive), the caching allocator, diopi:1
#   --compile fp32, device1        the compile route's plans, arenas and constants (on the graph's device)
#   ddp on 2 ranks                 the diccl process group (each rank on its own device)
# A small cut of the full runs (models.sh --recipe all / --compile / --recipe ddp,fsdp on impl/sim),
# chosen to keep every layer covered in a few minutes. Prints its time.
#   bash scripts/sim_stack.sh [--impl_lib build/sim/lib/libdiopi_impl.so] [--models gpt2,resnet]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
sim=$root/build/sim/lib/libdiopi_impl.so
models=gpt2,resnet
while [ $# -gt 0 ]; do
  case $1 in
    --impl_lib) sim=$2; shift 2 ;;
    --models) models=$2; shift 2 ;;
    *) echo "sim_stack.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -f "$sim" ] || bash "$root/scripts/build_impl.sh" sim
start=$SECONDS
export DIOPI_SIM_JITTER=1 DIOPI_SIM_DEVICES=2
status=0
step() {
  local t=$SECONDS
  echo "== sim stack: $*"
  bash "$root/scripts/models.sh" --impl_lib "$sim" "$@" || status=1
  echo "== ($((SECONDS - t)) s)"
}
step --models "$models" --recipe fp32,loader,device1
step --models "${models%%,*}" --recipe fp32,device1 --compile
step --models "${models%%,*}" --recipe ddp --world_size 2
echo "sim stack: $((SECONDS - start)) s in all (impl/sim, DIOPI_SIM_JITTER=1, DIOPI_SIM_DEVICES=2); status $status"
exit $status
