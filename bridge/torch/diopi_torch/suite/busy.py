"""How busy a chip is kept: on impl/sim, with every kernel lasting at least
DIOPI_SIM_KERNEL_US (a real chip's small-kernel time), the share of a
training step (forward + backward, the loss read back) during which the
simulated device runs work, eager against compiled, per model of the suite.

    python -m diopi_torch.suite.busy --impl_lib build/sim/lib/libdiopi_impl.so [--kernel_us 10,50] [--models bert,gpt2]
                                     [--steps 10] [--json FILE]

Busy time is the simulator's own count (diopiSimBusyNs: time its worker
spends running kernels, copies and memsets); the share is busy time over
wall time across `--steps` steps after warm-up (and after compilation).
A share well below 1 means the host cannot issue work as fast as the chip
runs it. One process per kernel time (the simulator reads its knobs when it
starts), one thread in the host's operators. A benchmark: it prints
figures and asserts nothing about them.
"""
from __future__ import annotations

import argparse
import ctypes
import json
import os
import subprocess
import sys
import time

from .models import SUITE, build, inputs, parse_model

DEFAULT_MODELS = "bert,gpt2,llama,qwen2,mixtral,resnet"


def _measure(model, lib, compiled, steps):
    import torch

    from .. import graph as graph_mod
    from ..graph import cache
    torch._dynamo.reset()
    m = build(model).to("diopi")
    b = {k: v.to("diopi") for k, v in inputs(model, build(model)).items()}
    fwd = torch.compile(m, backend=graph_mod.NAME) if compiled else m

    def once():
        if isinstance(getattr(fwd, "_orig_mod", fwd), torch.nn.Sequential):
            loss = torch.nn.functional.cross_entropy(fwd(b["pixel_values"]).float(), b["labels"])
        else:
            loss = fwd(**b).loss
        loss.backward()
        return loss.item()

    once()  # compiles (cold)
    if compiled:
        cache.wait()
    for _ in range(3):  # warm up: allocator, result-shape cache, compiled libraries attached, every signature seen
        once()
    torch.diopi.synchronize()
    busy0, t0 = lib.diopiSimBusyNs(0), time.perf_counter()
    for _ in range(steps):
        once()
    torch.diopi.synchronize()
    busy1, t1 = lib.diopiSimBusyNs(0), time.perf_counter()
    wall = t1 - t0
    return {"step_ms": wall / steps * 1e3, "busy_ms": (busy1 - busy0) / 1e6 / steps, "share": (busy1 - busy0) / 1e9 / wall}


def _child(args):
    import torch

    from .. import graph as graph_mod
    from ..runtime import load
    torch.set_num_threads(1)
    info = load(args.impl_lib)
    graph_mod.register()
    lib = ctypes.CDLL(info.get("library", args.impl_lib))
    if not hasattr(lib, "diopiSimBusyNs"):
        raise SystemExit(f"{args.impl_lib} is not impl/sim (no diopiSimBusyNs)")
    lib.diopiSimBusyNs.restype = ctypes.c_int64
    lib.diopiSimBusyNs.argtypes = [ctypes.c_int32]
    rows = []
    for name in [s for s in args.models.split(",") if s]:
        model = parse_model(name.strip())
        row = {"name": model.name, "kernel_us": int(os.environ.get("DIOPI_SIM_KERNEL_US", "0"))}
        for label, compiled in (("eager", False), ("compiled", True)):
            try:
                row[label] = _measure(model, lib, compiled, args.steps)
            except Exception as e:  # a model that cannot run is reported in its row, not a crash of the table
                row[label] = {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
        rows.append(row)
    print("BUSY_ROWS " + json.dumps(rows), flush=True)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m diopi_torch.suite.busy", description=__doc__.splitlines()[0])
    p.add_argument("--impl_lib", required=True, help="impl/sim's libdiopi_impl.so")
    p.add_argument("--kernel_us", default="10,50", help="comma-separated DIOPI_SIM_KERNEL_US values (µs)")
    p.add_argument("--models", default=DEFAULT_MODELS, help=f"comma-separated suite models (known: {', '.join(SUITE)})")
    p.add_argument("--steps", type=int, default=10, help="timed training steps per model and route")
    p.add_argument("--json", default=None, help="write the rows here")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return _child(args)
    rows = []
    for us in [int(x) for x in args.kernel_us.split(",") if x.strip()]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DIOPI_SIM_")}
        env.update(DIOPI_SIM_KERNEL_US=str(us), OMP_NUM_THREADS="1")
        cmd = [sys.executable, "-m", "diopi_torch.suite.busy", "--child", "--impl_lib", args.impl_lib, "--models", args.models,
               "--steps", str(args.steps)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        line = next((ln for ln in proc.stdout.splitlines() if ln.startswith("BUSY_ROWS ")), None)
        if proc.returncode != 0 or line is None:
            sys.stderr.write(proc.stdout[-2000:] + proc.stderr[-4000:])
            raise SystemExit(f"busy benchmark: the run with DIOPI_SIM_KERNEL_US={us} failed (status {proc.returncode})")
        rows += json.loads(line[len("BUSY_ROWS "):])

    def cell(r):
        if "error" in r:
            return f"{'error':>22}"
        return f"{r['share'] * 100:6.1f}% {r['step_ms']:8.1f} ms"

    print(f"\nbusy share of a training step on impl/sim (forward+backward, loss read back; "
          f"{args.steps} steps after warm-up, one host thread)")
    print(f"{'model':<10} {'kernel µs':>9} {'eager busy   step':>22} {'compiled busy   step':>22}")
    for r in rows:
        print(f"{r['name']:<10} {r['kernel_us']:>9} {cell(r['eager']):>22} {cell(r['compiled']):>22}")
        for label in ("eager", "compiled"):
            if "error" in r[label]:
                print(f"  {label}: {r[label]['error']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
