"""Training across ranks on the `diopi` device, compared with one eager-CPU process.

    python -m diopi_torch.suite.dist [--impl_lib PATH] [--recipes ddp,fsdp] [--world_size 2] [--models bert,llama,...]
                                     [--steps 3] [--json FILE]

For each model of the suite (diopi_torch/suite/models.py: configurations with random weights, fixed seeds) and each recipe,
N rank processes train it for a few steps on `diopi` (rank r on diopi:r when the runtime has as many devices; the
host runtime is given them through DIOPI_HOST_DEVICES): `ddp` wraps it in
DistributedDataParallel, `fsdp` shards it with FSDP2's fully_shard (each block of its layer list, then the whole
model). Each rank trains on its 1/N of a global batch. One eager-CPU process trains the same model from the same
weights on the whole global batch, and every parameter after the last step is compared with the float32 tolerance
of the model suite (suite.vendor_tolerances). Collectives go through the "diccl" backend (diopi_torch.distributed):
the vendor's collective interface where the library has one, else staged over Gloo; the report says which.

Models with batch normalization are left out of the default list: their statistics are per rank under DDP, so the
result is not the single-process one unless the model is converted to SyncBatchNorm.
Exit status 1 when any model and recipe does not match.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

from .. import distributed
from ..runtime import load
from ..tools import stats as device_stats
from . import models as suite
from .compare import compare, vendor_tolerances
from .recipes import NoDropout, optimizer

RECIPES = ("ddp", "fsdp")
# The suite's models without batch normalization (see above).
DEFAULT_MODELS = ("bert", "gpt2", "llama", "qwen2", "mixtral", "t5", "vit", "convnext")
PER_RANK_BATCH = 2


def global_batch(model: suite.ModelSpec, m, step: int, world_size: int):
    """The step's batch for all ranks together: PER_RANK_BATCH samples per rank, drawn from a seed per step."""
    return suite.inputs(model, m, seed=100 + step, batch=PER_RANK_BATCH * world_size)


def _loss(m, batch):
    import torch

    # Dropout draws from each side's own generator: off on both sides, as in the single-process recipes.
    with NoDropout():
        if isinstance(m, torch.nn.Sequential) or isinstance(getattr(m, "module", None), torch.nn.Sequential):
            return torch.nn.functional.cross_entropy(m(batch["pixel_values"]), batch["labels"])
        return m(**batch).loss


def reference(model: suite.ModelSpec, steps: int, world_size: int):
    """Parameters after `steps` steps of eager CPU training on the global batches."""
    m = suite.build(model)
    m.train()
    opt = optimizer(m.parameters())
    for s in range(steps):
        opt.zero_grad()
        _loss(m, global_batch(model, m, s, world_size)).backward()
        opt.step()
    return {n: p.detach().clone() for n, p in m.named_parameters()}


# ---------------------------------------------------------------- one rank
def _shard(m):
    """FSDP2: each block of the model's layer lists, innermost lists first (a block that holds a list of its own
    is sharded after that list's blocks), then the root."""
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard

    mesh = init_device_mesh("diopi", (dist.get_world_size(),))
    for sub in reversed(list(m.modules())):
        if isinstance(sub, torch.nn.ModuleList):
            for block in sub:
                fully_shard(block, mesh=mesh)
    fully_shard(m, mesh=mesh)
    return m


def train_rank(model: suite.ModelSpec, recipe: str, steps: int):
    """This rank's part; returns the full parameters (on every rank) and the counters."""
    import torch
    import torch.distributed as dist

    rank, world = dist.get_rank(), dist.get_world_size()
    m = suite.build(model).to("diopi")  # a plain move keeps tied parameters tied, as on CUDA
    m.train()
    if recipe == "ddp":
        from torch.nn.parallel import DistributedDataParallel
        wrapped = DistributedDataParallel(m)
        named = lambda: wrapped.module.named_parameters()  # noqa: E731
    else:
        wrapped = _shard(m)
        named = lambda: wrapped.named_parameters()  # noqa: E731
    opt = optimizer(wrapped.parameters(), fused=True)
    device_stats.reset_stats()
    distributed.reset_stats()
    cpu_model = None
    for s in range(steps):
        if cpu_model is None:
            cpu_model = suite.build(model)  # only for the batch's vocabulary and labels
        full = global_batch(model, cpu_model, s, world)
        lo = rank * PER_RANK_BATCH
        local = {k: v[lo:lo + PER_RANK_BATCH].to("diopi") for k, v in full.items()}
        opt.zero_grad()
        _loss(wrapped, local).backward()
        opt.step()
    params = {}
    for n, p in named():
        t = p.detach()
        if hasattr(t, "full_tensor"):  # a DTensor shard (FSDP2): every rank takes part in gathering it
            t = t.full_tensor()
        params[n] = t.cpu().clone()
    return params, {"device": device_stats.summary(), "collectives": distributed.stats(),
                    "uses_vendor": distributed.uses_vendor()}


def worker(args):
    """A rank (RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT in the environment): every model of the recipe."""
    import torch
    import torch.distributed as dist

    load(args.impl_lib)
    local = int(os.environ.get("LOCAL_RANK", "0"))
    if torch.diopi.device_count() > local:
        torch.diopi.set_device(local)  # each rank its own device, as with one GPU per rank
    dist.init_process_group("cpu:gloo,diopi:diccl")
    rank = dist.get_rank()
    for spec in args.models.split(","):
        model = suite.parse_model(spec)
        out = os.path.join(args.out, f"{args.recipe}-{model.name}.pt")
        try:
            params, counters = train_rank(model, args.recipe, args.steps)
            result = {"params": params, **counters}
        except Exception as e:  # a model that cannot run is a failed model, reported by the launcher
            result = {"error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"}
            print(f"rank {rank}: {args.recipe} {model.name}: {result['error']}", file=sys.stderr, flush=True)
        if rank == 0:
            torch.save(result, out)
        dist.barrier()
    dist.destroy_process_group()
    return 0


# ---------------------------------------------------------------- the launcher
def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def launch(recipe, models, args, out_dir):
    """Runs the recipe's ranks to the end; returns (exit codes, their output)."""
    port = str(_free_port())
    cmd = [sys.executable, "-m", "diopi_torch.suite.dist", "--worker", "--recipe", recipe, "--models", ",".join(models),
           "--steps", str(args.steps), "--impl_lib", args.impl_lib, "--out", out_dir]
    procs = []
    for r in range(args.world_size):
        env = dict(os.environ, RANK=str(r), LOCAL_RANK=str(r), WORLD_SIZE=str(args.world_size), MASTER_ADDR="127.0.0.1",
                   MASTER_PORT=port)
        env.setdefault("DIOPI_HOST_DEVICES", str(args.world_size))  # the host runtime's devices, one per rank
        procs.append(subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True))
    outs, codes = [], []
    deadline = time.monotonic() + args.timeout
    for p in procs:
        try:
            outs.append(p.communicate(timeout=max(1.0, deadline - time.monotonic()))[0])
        except subprocess.TimeoutExpired:
            for q in procs:
                q.kill()
            outs.append(p.communicate()[0] + f"\n(stopped after {args.timeout:.0f} s)")
        codes.append(p.returncode)
    return codes, outs


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m diopi_torch.suite.dist", description=__doc__.splitlines()[0])
    p.add_argument("--impl_lib", default=os.environ.get("DIOPI_IMPL_LIB", suite.DEFAULT_LIB))
    p.add_argument("--recipes", default=",".join(RECIPES), help="comma-separated: ddp, fsdp")
    p.add_argument("--models", default=",".join(DEFAULT_MODELS), help="comma-separated suite model names")
    p.add_argument("--world_size", type=int, default=2)
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--timeout", type=float, default=900.0, help="seconds the ranks of one recipe may take")
    p.add_argument("--json", default=None, help="write the results here")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--recipe", default=None, help=argparse.SUPPRESS)
    p.add_argument("--out", default=None, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    args.impl_lib = os.path.abspath(args.impl_lib)
    if args.worker:
        return worker(args)
    recipes = [r for r in args.recipes.split(",") if r]
    for r in recipes:
        if r not in RECIPES:
            raise SystemExit(f"unknown recipe {r!r} (known: {', '.join(RECIPES)})")
    models = [suite.parse_model(s).name for s in args.models.split(",") if s]
    if args.world_size < 2:
        raise SystemExit("--world_size must be at least 2")
    import torch
    info = load(args.impl_lib)  # this process only reads the vendor's name; the ranks train
    tol, reason = vendor_tolerances(info)["fp32"]
    refs = {name: reference(suite.parse_model(name), args.steps, args.world_size) for name in models}
    rows = []
    with tempfile.TemporaryDirectory(prefix="diopi-dist-") as out_dir:
        for recipe in recipes:
            t0 = time.perf_counter()
            codes, outs = launch(recipe, models, args, out_dir)
            seconds = time.perf_counter() - t0
            for name in models:
                path = os.path.join(out_dir, f"{recipe}-{name}.pt")
                row = {"recipe": recipe, "model": name, "world_size": args.world_size, "seconds": seconds}
                res = torch.load(path, weights_only=False) if os.path.exists(path) else None
                if res is None or "error" in res:
                    why = res["error"] if res else f"no result (rank exit codes {codes}): {outs[0][-800:]}"
                    row.update(match=False, error=why)
                else:
                    ok, worst_abs, where = compare(res["params"], refs[name], tol)
                    staged = sum(v["staged"] for v in res["collectives"].values())
                    vendor = sum(v["vendor"] for v in res["collectives"].values())
                    row.update(match=ok, max_abs_diff=worst_abs, worst=where, collectives_vendor=vendor, collectives_staged=staged,
                               uses_vendor=res["uses_vendor"], fallback_calls=res["device"]["fallback_calls"],
                               diopi_calls=res["device"]["diopi_calls"], fallback_ops=res["device"]["fallback_ops"])
                rows.append(row)
    print(f"library: {info['library']} (vendor {info['vendor']}); {args.world_size} ranks, {args.steps} steps, "
          f"global batch {PER_RANK_BATCH * args.world_size}; float32 tolerance {tol:g} ({reason})")
    print(f"{'recipe':<6} {'model':<10} {'match':>5} {'max diff':>9} {'collectives':>22} {'diopi':>6} {'fallback':>8}")
    for r in rows:
        if "error" in r:
            print(f"{r['recipe']:<6} {r['model']:<10} {'NO':>5}  {r['error'][:200]}")
            continue
        path = f"{r['collectives_vendor']} vendor/{r['collectives_staged']} staged"
        print(f"{r['recipe']:<6} {r['model']:<10} {'ok' if r['match'] else 'NO':>5} {r['max_abs_diff']:>9.2e} {path:>22} "
              f"{r['diopi_calls']:>6} {r['fallback_calls']:>8}" + ("" if r["match"] else f"   worst: {r['worst']}"))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"library": info, "tolerance": tol, "rows": rows}, f, indent=1, default=str)
    print(f"dist_suite: {sum(r['match'] for r in rows)} passed, {sum(not r['match'] for r in rows)} failed")
    return 0 if all(r["match"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
