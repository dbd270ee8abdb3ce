"""All-reduce bus bandwidth on the `diopi` device: the vendor path, the staged path and Gloo on CPU tensors.

    python -m diopi_torch.suite.dist_bench [--impl_lib PATH] [--world_size 2] [--sizes 4K,...,64M] [--rounds 5]

Starts N rank processes on this machine. For each size of float32 tensor, every rank times dist.all_reduce on
  vendor  a diopi tensor through "diccl" on the library's collective interface (diopi/collective.h),
  staged  a diopi tensor through "diccl" staged through host memory over Gloo (DIOPI_DIST_STAGED=1 for the call),
  gloo    a CPU tensor through Gloo itself,
alternately, in `rounds` rounds of enough calls to last about 0.2 s; a round's time is the slowest rank's, and the
best round is kept. Bus bandwidth = bytes * 2 (N-1) / N / time, as NCCL's tests define it. It prints figures; it
asserts nothing (a library without the collective interface has no vendor column).
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time

from .. import _C, distributed
from ..runtime import load
from . import models as suite

SIZES = "4K,16K,64K,256K,1M,4M,16M,64M"
PATHS = ("vendor", "staged", "gloo")


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().rstrip("B").rstrip("I")
    return int(float(text[:-1]) * units[text[-1]]) if text[-1] in units else int(text)


def human(n):
    for unit, size in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size:
            return f"{n / size:g} {unit}"
    return f"{n} B"


def rank_main(args):
    import torch
    import torch.distributed as dist

    load(args.impl_lib)
    dist.init_process_group("cpu:gloo,diopi:diccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    cpu_group = dist.new_group(backend="gloo")  # the slowest rank's time, exchanged apart from what is timed
    vendor = distributed.uses_vendor()
    rows = []
    for nbytes in [parse_size(s) for s in args.sizes.split(",")]:
        n = max(1, nbytes // 4)
        tensors = {"vendor": torch.ones(n, device="diopi"), "staged": torch.ones(n, device="diopi"), "gloo": torch.ones(n)}
        paths = [p for p in PATHS if p != "vendor" or vendor]

        def run(path, iters):
            if path == "staged":
                os.environ["DIOPI_DIST_STAGED"] = "1"
            try:
                t = tensors[path]
                dist.barrier(group=cpu_group)
                t0 = time.perf_counter()
                for _ in range(iters):
                    dist.all_reduce(t)
                elapsed = torch.tensor([time.perf_counter() - t0], dtype=torch.float64)
            finally:
                os.environ.pop("DIOPI_DIST_STAGED", None)
            dist.all_reduce(elapsed, dist.ReduceOp.MAX, group=cpu_group)
            return elapsed.item()

        iters = {}
        for p in paths:  # warm up, and size the rounds to about 0.2 s
            run(p, 2)
            one = run(p, 3) / 3
            t = torch.tensor([max(3, min(2000, int(0.2 / max(one, 1e-6))))], dtype=torch.int64)
            dist.all_reduce(t, dist.ReduceOp.MIN, group=cpu_group)
            iters[p] = int(t.item())
        best = {p: float("inf") for p in paths}
        for _ in range(args.rounds):
            for p in paths:
                best[p] = min(best[p], run(p, iters[p]) / iters[p])
        rows.append((n * 4, best))
    if rank == 0:
        factor = 2 * (world - 1) / world
        print(f"all-reduce of float32 on {world} ranks ({_C.info()['vendor']}: "
              f"{'vendor collectives' if vendor else 'no collective interface'}); best of {args.rounds} alternating rounds")
        head = f"{'size':>9} " + " ".join(f"{p + ' us':>11} {p + ' GB/s':>11}" for p in PATHS) + f" {'vendor/gloo':>11} {'staged/gloo':>11}"
        print(head)
        for nbytes, best in rows:
            cells = []
            for p in PATHS:
                if p in best:
                    cells += [f"{best[p] * 1e6:>11.1f}", f"{nbytes * factor / best[p] / 1e9:>11.3f}"]
                else:
                    cells += [f"{'-':>11}", f"{'-':>11}"]
            ratio = lambda p: f"{best[p] / best['gloo']:>10.2f}x" if p in best else f"{'-':>11}"  # noqa: E731
            print(f"{human(nbytes):>9} " + " ".join(cells) + f" {ratio('vendor')} {ratio('staged')}", flush=True)
    dist.barrier(group=cpu_group)
    dist.destroy_process_group()
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m diopi_torch.suite.dist_bench", description=__doc__.splitlines()[0])
    p.add_argument("--impl_lib", default=os.environ.get("DIOPI_IMPL_LIB", suite.DEFAULT_LIB))
    p.add_argument("--world_size", type=int, default=2)
    p.add_argument("--sizes", default=SIZES, help=f"comma-separated byte sizes (default {SIZES})")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--rank", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.impl_lib = os.path.abspath(args.impl_lib)
    if args.rank:
        return rank_main(args)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = str(s.getsockname()[1])
    cmd = [sys.executable, "-m", "diopi_torch.suite.dist_bench", "--rank", "--impl_lib", args.impl_lib, "--sizes", args.sizes,
           "--rounds", str(args.rounds)]
    procs = [subprocess.Popen(cmd, env=dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(args.world_size),
                                            MASTER_ADDR="127.0.0.1", MASTER_PORT=port)) for r in range(args.world_size)]
    codes = [q.wait() for q in procs]
    return 0 if not any(codes) else 1


if __name__ == "__main__":
    sys.exit(main())
