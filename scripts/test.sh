#!/usr/bin/env bash
# Everything CI checks, from a fresh clone:
#   1. the README's main job (scripts/demo.sh: impl/torch build, gen_data, run_test), then fuzz the C ABI
#      and check the collective interface on 2 ranks;
#   2. build the PyTorch `diopi` device, impl/cpu (through the adaptor) and the simulated chip impl/sim on its
#      kernels side by side; run the model suite on impl/torch, eager and compiled; replay two captured model
#      case sets (llama2_7b, resnet50) on impl/torch;
#   3. the headers' HTML reference (Doxygen);
#   4. two lanes side by side: (a) the model suite on impl/cpu (eager and compiled; its compiled graphs captured and replayed on impl/cpu's graph compiler), ddp/fsdp, fuzz, every case
#      replayed on impl/sim with jitter from a virtual environment without torch, the diopi device on impl/sim
#      (recipes, compiled, ddp), then the unit and integration tests (headers, harness, adaptor, device);
#      (b) the baselines replayed on impl/cpu built with AddressSanitizer + UndefinedBehaviorSanitizer.
# Prints a timing line per stage; stops at the first failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
py=python3
jobs=$(nproc)

# CPU seconds (user + system) of every child this shell has waited for so far, into $cpu (`times` runs in this
# shell: a subshell would count only its own children). A stage's share of it beside its wall time shows how many
# cores it kept busy, which says which stages could run side by side.
# One scratch file per shell process: stages in lanes (below) measure themselves from background subshells.
# Every stage's timing line also goes to one file, so stages that ran inside a lane are listed at the end too.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cpu_now() {
  local f=$scratch/times.$BASHPID  # taken here: inside $(...) BASHPID is the substitution's own process
  times >"$f"
  cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, a, "m"); n += a[1] * 60 + a[2] } printf "%d", n }' "$f")
}

timed() {  # timed <label> <t0> <cpu0>: records and prints a stage's wall and CPU time
  local t1
  t1=$(date +%s)
  cpu_now
  printf '%-34s %5d s  cpu %5d s\n' "$1" $((t1 - $2)) $((cpu - $3)) >>"$scratch/timings"
  echo "== $1: $((t1 - $2)) s (cpu $((cpu - $3)) s)"
}

stage() {  # stage <label> <command...>
  local label=$1 t0 c0
  shift
  echo "== $label"
  t0=$(date +%s)
  cpu_now
  c0=$cpu
  "$@"
  timed "$label" "$t0" "$c0"
}

harness() { (cd "$root/diopi_test/python" && "$@"); }

# together <label> -- <stage label> <command...> -- <stage label> <command...> ...
# Runs independent stages (or lanes: functions that run stages one after another) at the same time, each with
# its own log, printed whole in order once all have ended; fails if any failed. For work that mostly keeps one
# core busy (a model suite in one Python process: tiny models, dispatch-bound; a replay whose workers wait on
# the simulated device), so that two of them share the 2 cores instead of taking turns.
together() {
  local label=$1 t0 c0 dir i=0 rc=0 failed=()
  shift
  dir=$(mktemp -d)
  local -a labels=() pids=()
  t0=$(date +%s)
  cpu_now
  c0=$cpu
  while [ $# -gt 0 ]; do
    [ "$1" = -- ] && shift
    local -a cmd=()
    local name=$1
    shift
    while [ $# -gt 0 ] && [ "$1" != -- ]; do cmd+=("$1"); shift; done
    echo "== $name (beside the others of: $label)"
    # One intra-op thread each: the stages share the cores between them, not inside each.
    OMP_NUM_THREADS=1 "${cmd[@]}" >"$dir/$i.log" 2>&1 &
    pids+=($!)
    labels+=("$name")
    i=$((i + 1))
  done
  for i in "${!pids[@]}"; do
    if ! wait "${pids[$i]}"; then failed+=("${labels[$i]}"); rc=1; fi
  done
  timed "$label" "$t0" "$c0"
  for i in "${!labels[@]}"; do
    echo "== ${labels[$i]}: output"
    cat "$dir/$i.log"
  done
  rm -rf "$dir"
  if [ $rc -ne 0 ]; then
    echo "== failed: ${failed[*]}" >&2
    return 1
  fi
}

# The README's main job (set-up, build impl/torch, gen_data, run_test) runs
# exactly as a new user would run it; the stages below reuse its build and
# baselines.
# .ci/run runs demo.sh itself first (as the README's first command) and says
# so with DIOPI_DEMO_DONE=1, so the main job is not run twice.
if [ "${DIOPI_DEMO_DONE:-0}" = 1 ]; then
  echo "== main job: scripts/demo.sh already ran (DIOPI_DEMO_DONE=1)"
else
  stage "main job: scripts/demo.sh" bash "$root/scripts/demo.sh"
fi
stage "fuzz impl/torch" harness $py main.py --mode fuzz --jobs "$jobs" --report_dir "$root/reports/fuzz-torch"
# The collective interface (diopi/collective.h) on 2 rank processes at once; no baselines needed.
stage "collective conformance impl/torch" harness $py main.py --mode collective --world_size 2 \
  --report_dir "$root/reports/collective-torch"
# The device and the two vendors build side by side: each build ends on a few long files that leave a core
# idle (impl/cpu's reduction and loss kernels, the device's distributed glue); together they keep both busy.
# Each build is told the job count: inside `together`, OMP_NUM_THREADS=1 makes `nproc` (the builds' default) say 1,
# which left a core idle while impl/sim built alone at the end.
vendor_builds() {
  stage "build impl/cpu" env DIOPI_JOBS="$jobs" bash "$root/scripts/build_impl.sh" cpu
  # The simulated chip (impl/sim: device memory the host cannot read, work queued on streams) on impl/cpu's
  # kernels, reused from build/cpu.
  stage "build impl/sim" env DIOPI_JOBS="$jobs" bash "$root/scripts/build_impl.sh" sim
}
together "builds: the device, impl/cpu, impl/sim" \
  -- "build diopi device" stage "build diopi device" env DIOPI_JOBS="$jobs" bash "$root/scripts/build_bridge.sh" \
  -- "build impl/cpu, then impl/sim" vendor_builds
# Captured model case sets (an LLM, a vision model): replay exactly their calls on impl/torch.
model_cases() {
  local m
  for m in "$@"; do
    harness $py main.py --mode gen_data --model_name "$m"
    harness $py main.py --mode run_test --model_name "$m" --jobs "$jobs" --report_dir "$root/reports/models/$m"
  done
}
# Every recipe (fp32, bf16, fp16, bf16-cast, checkpoint, resume, loader, generate, device1) on every suite model,
# and beside it the compile route: every suite model's step through torch.compile(backend="diopi"), fused where
# the library allows.
together "models + case sets on impl/torch" \
  -- "models on diopi/impl/torch" bash "$root/scripts/models.sh" --recipe all --json "$root/reports/models-torch.json" \
  -- "compiled models on impl/torch" bash "$root/scripts/models.sh" --compile --json "$root/reports/models-compile-torch.json" \
  -- "model case sets on impl/torch" model_cases llama2_7b resnet50

# The headers' HTML reference (-> build/doxygen-html); any Doxygen warning fails it.
if command -v doxygen >/dev/null 2>&1; then
  stage "HTML reference (doxygen)" bash -c "cd '$root/docs' && doxygen"
else
  echo "== HTML reference: skipped, doxygen is not installed (scripts/setup.sh installs it as root with apt-get)"
fi

cpu_lib=$root/build/cpu/lib/libdiopi_impl.so
# Lane 1: the model suite on impl/cpu (every recipe, then the compile route), DDP and FSDP2 on 2 ranks (impl/cpu has
# no collective interface, so the diccl backend stages over Gloo), fuzzing; then the simulated chip: every case
# replayed with random delays before queued work starts, and the diopi device on it.
vendor_lane() {
  stage "models on diopi/impl/cpu" bash "$root/scripts/models.sh" --impl_lib "$cpu_lib" --recipe all \
    --json "$root/reports/models-cpu.json"
  stage "compiled models on impl/cpu" bash "$root/scripts/models.sh" --compile --impl_lib "$cpu_lib" \
    --json "$root/reports/models-compile-cpu.json"
  # The compile route's graphs captured (the per-call route's values: capturing offers nothing to the vendor's
  # compiler, hence a run of its own beside the one above, which the compiler serves), then replayed on
  # impl/cpu's graph compiler, each output against its per-call value (about 1 min together). Captured on
  # impl/cpu, not impl/torch: mixtral's router sorts with ties and no `stable`, where the two libraries' orders
  # differ, both valid.
  stage "compiled models on impl/cpu, graphs captured" bash -c "rm -rf '$root/reports/graphs' && \
    bash '$root/scripts/models.sh' --compile --impl_lib '$cpu_lib' --capture_graphs '$root/reports/graphs' \
    --json '$root/reports/models-capture-cpu.json'"
  stage "graph replay on impl/cpu" harness $py main.py --mode graph_replay --graphs "$root/reports/graphs" \
    --impl_lib "$cpu_lib" --report_dir "$root/reports/graph-replay-cpu"
  # The same graphs on the simulated chip, whose graph compiler is impl/cpu's with each run queued on the device
  # (random delays before queued work: a run read before it finished would fail here).
  stage "graph replay on impl/sim (jitter)" harness env DIOPI_SIM_JITTER=1 $py main.py --mode graph_replay \
    --graphs "$root/reports/graphs" --impl_lib "$root/build/sim/lib/libdiopi_impl.so" --report_dir "$root/reports/graph-replay-sim"
  stage "ddp/fsdp on diopi/impl/cpu" bash "$root/scripts/models.sh" --impl_lib "$cpu_lib" \
    --recipe ddp,fsdp --world_size 2 --json "$root/reports/models-dist-cpu.json"
  stage "fuzz impl/cpu" harness $py main.py --mode fuzz --jobs "$jobs" --impl_lib "$cpu_lib" \
    --report_dir "$root/reports/fuzz-cpu"
  # Replayed as a vendor's test machine would: the harness installed as a package into a virtual environment
  # without torch. impl/cpu's own kernels run here (wrapped by the simulator) and, unwrapped, under the
  # sanitizers in the other lane. Twice as many workers as cores: a worker on the simulator spends much of each
  # case waiting for the device thread (and, under jitter, for the delays before queued work).
  stage "run_test impl/sim (jitter, no torch)" env DIOPI_SIM_JITTER=1 bash "$root/scripts/replay_without_torch.sh" sim \
    --jobs $((2 * jobs))
  # The diopi device on the simulated chip (two devices, jitter): recipes, the compile route and ddp against eager CPU.
  stage "diopi device on impl/sim" bash "$root/scripts/sim_stack.sh"
  # The unit and integration tests need only the builds, so they end this lane, beside the sanitizer replay
  # (which runs longer than the stages above: side by side they left a core idle for some 14 minutes under load).
  # One test file per process, one process more than cores: most tests wait on a subprocess (a model compiled
  # in a fresh interpreter, a built test library, a run that must time out). The tests run with the
  # environment a developer's shell gives them: intra-op threads are not limited to one as in the lanes. The
  # 25 slowest tests are listed at the end: where the next minutes of CI time are.
  stage "unit and integration tests" env -u OMP_NUM_THREADS $py -m pytest -q -p no:cacheprovider -n $((jobs + 1)) \
    --dist loadfile --durations=25
}
# Lane 2 beside it: impl/cpu built with AddressSanitizer and UndefinedBehaviorSanitizer, every case replayed on it
# and the compiled suite run on it. Most stages of both lanes keep about one core busy (measured: the sanitizer
# stage used 1.2 cores, the simulator's replay 1.06, a model suite one), so side by side they fill the two cores.
# The sanitizer build and replay are told the job count (as the builds above): with one worker, the replay
# left a core idle whenever the other lane ended first.
together "impl/cpu and impl/sim, two lanes" \
  -- "lane: models, fuzz, simulator" vendor_lane \
  -- "lane: sanitizers impl/cpu" stage "sanitizers impl/cpu" env DIOPI_JOBS="$jobs" bash "$root/scripts/sanitize.sh" cpu
echo "timing (a lane's stages are listed before the lane's own line):"
sed 's/^/  /' "$scratch/timings"
