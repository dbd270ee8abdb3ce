"""Real model code on the `diopi` device, compared with eager CPU.

    python -m diopi_torch.suite [--impl_lib PATH] [--models bert,gpt2,...|hf:Class:k=v,...]
                                [--recipe fp32,bf16,...] [--json FILE] [--autocompare] [--time] [--bench] [--bench_tools]
                                [--compile] [--seq_sweep [8,12,...]]

Each model is built from a configuration with random weights (fixed seed,
nothing downloaded), then run under each recipe (diopi_torch.recipes: fp32,
bf16, fp16, bf16-cast, checkpoint, resume, loader, generate, device1) twice
from the same weights: on the CPU and on `diopi`. Forward (logits, loss),
backward (every parameter's gradient), the AdamW step (every updated
parameter) and generated tokens are compared with the vendor's tolerance for
the recipe's precision; the device's counters say how many ATen calls DIOPI
served and which fell back to the CPU.
With --compile the device side runs through torch.compile(model,
backend="diopi") (diopi_torch.graph) and each row also reports the compile
route's counters; --bench --compile times eager CPU, eager diopi, compiled
and compiled with fusion; --compile --seq_sweep trains each causal LM over
sequence lengths (suite/sweep.py) and prints compilations, fallback nodes and
the difference against eager CPU per length.
Exit status 1 when any model does not match under any recipe.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import json
import os
import sys
import time

from .. import _C
from ..runtime import load
from ..tools import op_timer
from ..tools import stats as device_stats
from . import dist as dist_suite
from .bench import bench, bench_calls, bench_compile, bench_tool_calls, bench_tools
from .compare import compare, compare_16bit, compare_step, vendor_tolerances
from .models import DEFAULT_LIB, ROOT, SUITE, ModelSpec as Model, build, inputs, parse_model
from .sweep import LENGTHS as SWEEP_LENGTHS


def root_cause(e: BaseException) -> str:
    """The innermost exception of e's chain, as `Type: first line of its message (file:line)`: what a
    wrapper's first line hides (torch.compile's BackendCompilerFailed says only "backend='diopi' raised:" and
    is raised `from None`, keeping the backend's error in inner_exception)."""
    import traceback
    seen = set()
    while id(e) not in seen:
        seen.add(id(e))
        nxt = getattr(e, "inner_exception", None) or e.__cause__ or (None if e.__suppress_context__ else e.__context__)
        if not isinstance(nxt, BaseException):
            break
        e = nxt
    lines = [ln.strip() for ln in str(e).splitlines() if ln.strip()]
    where = traceback.extract_tb(e.__traceback__)[-1:] if e.__traceback__ else []
    at = f" ({where[0].filename}:{where[0].lineno})" if where else ""
    return f"{type(e).__name__}: {lines[0] if lines else ''}{at}"


def run_model(model: Model, recipe, tols, autocompare=False, device_index=0, time_ops=False):
    """One model under one recipe, on the CPU and on the device; one result row."""
    import contextlib

    import torch

    from . import recipes
    if recipe.precision not in tols:
        raise RuntimeError(f"the library states no {recipe.precision} tolerance (MODEL_TOLERANCES in its device_configs.py)")
    tol, _ = tols[recipe.precision]
    base = build(model)
    device = torch.device(_C.BACKEND, recipe.device_index or device_index)
    batches = [inputs(model, base, seed=1 + i) for i in range(max(1, recipe.steps))]
    report = None
    t0 = time.perf_counter()
    truth = None
    if recipe.generate:
        ref = recipes.generate(base, batches[0], torch.device("cpu"))
    else:
        ref = recipes.train(recipe, base, batches, torch.device("cpu"))
        if recipe.precision != "fp32":
            truth = recipes.train(recipes.in_float32(recipe), base, batches, torch.device("cpu"))
    t_cpu = time.perf_counter() - t0
    if recipe.compile:
        import torch._dynamo
        torch._dynamo.reset()  # this model's graphs only, compiled afresh (the disk cache may still answer)
    device_stats.reset_stats()
    t0 = time.perf_counter()
    watch = contextlib.nullcontext()
    graph_compare = None
    if autocompare and recipe.compile:
        # Compiled graphs are checked node by node by the compile route itself (diopi_torch.graph.autocompare).
        from ..graph import autocompare as graph_compare
        graph_compare.enable(os.environ.get("DIOPI_AUTOCOMPARE_DIR", "autocompare"), model.name, tol)
    elif autocompare:
        from ..tools import autocompare as ac
        # Its module hooks go on `base`; the device side's deep copy keeps them.
        watch = ac.AutoCompare(base, model.name, tol)
    timer = contextlib.nullcontext()
    if time_ops:
        # The first call of each kernel pays for its set-up (in the library too): a run untimed first.
        if recipe.generate:
            recipes.generate(base, batches[0], device, compiled=recipe.compile)
        else:
            recipes.train(recipe, base, batches, device)
        device_stats.reset_stats()
        timer = op_timer()
        t0 = time.perf_counter()
    with watch as watcher, timer:
        if recipe.generate:
            dev = recipes.generate(base, batches[0], device, compiled=recipe.compile)
        else:
            dev = recipes.train(recipe, base, batches, device)
    compared = None
    if graph_compare is not None:
        report = graph_compare.first()
        compared = graph_compare.compared()
        graph_compare.disable()
    elif autocompare:
        report = watcher.first
    t_dev = time.perf_counter() - t0
    all_stats = device_stats.stats()
    graph = all_stats.pop(device_stats.GRAPH_KEY, None)
    st = device_stats.summary(all_stats)
    row = {"name": model.name, "recipe": recipe.name, "class": model.cls or "torch.nn.Sequential",
           "parameters": sum(p.numel() for p in base.parameters()), "tolerance": tol}
    if recipe.generate:
        a, b = dev["generate"]["tokens"], ref["generate"]["tokens"]
        same = a.shape == b.shape and torch.equal(a, b)
        where = "" if same else f"tokens differ: {a.tolist()} vs {b.tolist()}"
        row.update(forward_match=same, backward_match=True, step_match=True, max_abs_diff=0.0 if same else float("inf"),
                   worst={"forward": where, "backward": "", "step": ""})
    elif truth is not None:
        res = {g: compare_16bit(dev[g], ref[g], truth[g], tol, recipe.precision) for g in ("forward", "backward", "step")}
        row.update(forward_match=res["forward"][0], backward_match=res["backward"][0], step_match=res["step"][0],
                   max_abs_diff=max(r[1] for r in res.values()), worst={g: r[2] for g, r in res.items()},
                   error_vs_float32={g: {"device": r[3], "cpu": r[4]} for g, r in res.items()})
    else:
        fwd_ok, fwd_d, fwd_w = compare(dev["forward"], ref["forward"], tol)
        bwd_ok, bwd_d, bwd_w = compare(dev["backward"], ref["backward"], tol)
        stp_ok, stp_d, stp_w = compare_step(dev["step"], ref["step"], dev["backward"], ref["backward"], tol,
                                            max(1, recipe.steps))
        row.update(forward_match=fwd_ok, backward_match=bwd_ok, step_match=stp_ok, max_abs_diff=max(fwd_d, bwd_d, stp_d),
                   worst={"forward": fwd_w, "backward": bwd_w, "step": stp_w})
    row.update(aten_calls=st["aten_calls"], diopi_calls=st["diopi_calls"], fallback_calls=st["fallback_calls"],
               view_calls=st["view_calls"], copy_calls=st["copy_calls"], fallback_ops=st["fallback_ops"],
               fallback_reasons={op: v["reasons"] for op, v in all_stats.items() if v["fallback"]},
               seconds_cpu=t_cpu, seconds_diopi=t_dev)
    if recipe.compile:
        # (generation's decode graphs have no training step on the CPU to count breaks against)
        row["compile"] = compile_row(graph or {}, None if recipe.generate else cpu_graph_breaks(model, base, batches[0]))
    if report is not None:
        row["autocompare"] = report
    if time_ops:
        row["op_timer"] = timer.rows
        row["op_timer_table"] = timer.table(limit=TIMER_ROWS)
    if compared is not None:
        row["autocompare_nodes_compared"] = compared
    return row


TIMER_ROWS = 12  # rows of each model's op timer table printed by --time (the JSON has them all)


def compile_row(graph, breaks_cpu):
    """What the compile route did for one model (diopi_torch.graph.stats)."""
    keys = ("graphs", "graph_breaks", "partitions", "compiled_nodes", "view_nodes", "diopi_steps", "diopi_calls",
            "fallback_nodes", "fallback_reasons", "fallback_list", "host_nodes", "transfer_nodes", "replanned", "fused",
            "compile_seconds", "cache", "vendor_compiler", "vendor_graphs", "vendor_nodes", "vendor_declined_nodes",
            "vendor_unexpressed_nodes", "vendor_compile_failures", "vendor_failure_reasons", "vendor_left")
    row = {k: graph.get(k) for k in keys}
    row["graph_breaks_cpu"] = breaks_cpu
    return row


def cpu_graph_breaks(model: Model, base, batch):
    """Graph breaks TorchDynamo reports for the same step of the model on the CPU (backend "eager", the same
    counter and the same dropout handling as the device side)."""
    import torch
    import torch._dynamo
    from torch._dynamo.utils import counters

    from . import recipes
    m = copy.deepcopy(base).train()
    before = sum(counters["graph_break"].values())
    try:
        step = torch.compile(m, backend="eager")
        with recipes.NoDropoutPatched():
            if isinstance(m, torch.nn.Sequential):
                step(batch["pixel_values"])
            else:
                step(**batch)
        return sum(counters["graph_break"].values()) - before
    finally:
        torch._dynamo.reset()


def print_table(rows, info, tols):
    print(f"library: {info['library']} (vendor {info['vendor']}, {info['version']}; runtime {info.get('runtime', '?')})")
    print("tolerances: " + "; ".join(f"{k} {v[0]:g} ({v[1]})" for k, v in tols.items()))
    hdr = f"{'model':<10} {'recipe':<10} {'params':>8} {'fwd':>4} {'bwd':>4} {'step':>4} {'max diff':>9} {'aten':>6} " \
          f"{'diopi':>6} {'served':>7} {'views':>6}  top fallbacks"
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        share = r["diopi_calls"] / r["aten_calls"] if r["aten_calls"] else 0.0
        if not ok_row(r) and r.get("worst"):
            print(f"  {r['name']} / {r.get('recipe', '')}: largest differences in {r['worst']}")
        top = ", ".join(f"{k} {v}" for k, v in list(r["fallback_ops"].items())[:4]) or "-"
        ok = lambda b: "ok" if b else "NO"  # noqa: E731
        print(f"{r['name'][:10]:<10} {r.get('recipe', '')[:10]:<10} {r['parameters']:>8} {ok(r['forward_match']):>4} "
              f"{ok(r['backward_match']):>4} {ok(r['step_match']):>4} {r['max_abs_diff']:>9.2e} {r['aten_calls']:>6} "
              f"{r['diopi_calls']:>6} {share:>7.1%} {r['view_calls']:>6}  {top}")
    for r in rows:
        c = r.get("compile")
        if c:
            secs = c.get("compile_seconds") or {}
            print(f"  {r['name']} compiled: {c['graphs']} graphs, {c['graph_breaks']} breaks (CPU: {'-' if c['graph_breaks_cpu'] is None else c['graph_breaks_cpu']}), "
                  f"{c['partitions']} partitions, {c['compiled_nodes']} nodes -> {c['diopi_calls']} DIOPI calls, "
                  f"{c['fallback_nodes']} fallback nodes, fused {c.get('fused') or '-'}; compile "
                  + ", ".join(f"{k} {v:.1f} s" for k, v in secs.items()))
            if c.get("vendor_compiler"):
                print(f"    vendor graph compiler ({c['vendor_compiler']}): {c['vendor_graphs']} executables serve "
                      f"{c['vendor_nodes']} of {c['diopi_steps']} steps ({_share(c)}), {c['vendor_declined_nodes']} declined, "
                      f"{c['vendor_unexpressed_nodes']} not expressible, {c['vendor_compile_failures']} compile failures")
            for f in (c.get("fallback_list") or [])[:5]:
                print(f"    fallback {f['node']} ({f['aten']}): {f['reason']}; {f['source']}")
    compiled = [r["compile"] for r in rows if r.get("compile") and r["compile"].get("vendor_compiler")]
    if compiled:
        steps = sum(c["diopi_steps"] for c in compiled)
        nodes = sum(c["vendor_nodes"] for c in compiled)
        print(f"all models: the vendor graph compiler serves {nodes} of {steps} compiled steps "
              f"({nodes / steps if steps else 0.0:.1%})")
    total = sum(r["aten_calls"] for r in rows)
    served = sum(r["diopi_calls"] for r in rows)
    if total:
        print(f"all models: {served} of {total} ATen calls served by DIOPI ({served / total:.1%}); "
              f"{sum(1 for r in rows if ok_row(r))} of {len(rows)} match")


def _share(c):
    return f"{c['vendor_nodes'] / c['diopi_steps']:.1%}" if c["diopi_steps"] else "-"


def ok_row(r):
    return bool(r["forward_match"] and r["backward_match"] and r["step_match"])


# Recipes across ranks (torch.distributed on the diopi device's diccl backend): diopi_torch.suite.dist.
DISTRIBUTED = ("ddp", "fsdp")


def _seq_sweep(args):
    import torch
    from .. import graph as graph_mod
    from .sweep import print_sweep, seq_sweep
    if not args.compile:
        raise SystemExit("--seq_sweep measures the compile route: give --compile too")
    specs = [s for s in (args.models.split(";") if "hf:" in args.models else args.models.split(",")) if s]
    models = [m for m in (parse_model(s.strip()) for s in specs) if m.kind == "causal-lm"]
    if not models:
        raise SystemExit("--seq_sweep: none of the models is a causal LM")
    torch.set_num_threads(max(1, torch.get_num_threads()))
    info = load(args.impl_lib)
    tol = vendor_tolerances(info)["fp32"][0]
    graph_mod.register()
    lengths = [int(x) for x in args.seq_sweep.split(",") if x.strip()]
    results = []
    for model in models:
        try:
            v = seq_sweep(model, lengths, tol)
        except Exception as e:  # a length that crashes fails the sweep, reported
            v = {"model": model.name, "lengths": lengths, "ok": False, "error": f"{type(e).__name__}: {e}"}
            print(f"{model.name}: sweep failed: {v['error'].splitlines()[0]}", file=sys.stderr)
        else:
            print_sweep(v)
        results.append(v)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"library": info, "tolerance": tol, "seq_sweep": results}, f, indent=1, default=str)
    return 0 if all(v["ok"] for v in results) else 1


def _print_bench_calls():
    rows = bench_calls()
    print(f"\n{'per call':<15} {'cpu us':>7} {'diopi us':>9} {'ratio':>6}   (8x8 float32 from Python, one thread, "
          "best of 15 rounds of 1500, alternating)")
    for op, r in rows.items():
        print(f"{op:<15} {r['cpu_us']:>7.2f} {r['diopi_us']:>9.2f} {r['ratio']:>5.2f}x")
    return rows


def main(argv=None):
    from . import recipes
    p = argparse.ArgumentParser(prog="models.sh", description=__doc__.splitlines()[0])
    p.add_argument("--impl_lib", default=os.environ.get("DIOPI_IMPL_LIB", DEFAULT_LIB))
    p.add_argument("--models", default=",".join(SUITE), help="comma-separated suite names or hf:<Class>:k=v,...; "
                   "separate several hf: specs with ';'")
    p.add_argument("--recipe", default="fp32", help="comma-separated recipes (all: every single-process one): "
                   + ", ".join(recipes.RECIPES) + ", and across ranks " + ", ".join(DISTRIBUTED))
    p.add_argument("--world_size", type=int, default=2, help="ranks of the ddp and fsdp recipes")
    p.add_argument("--json", default=None, help="write the results here")
    p.add_argument("--autocompare", action="store_true", help="check every DIOPI call against eager CPU ATen")
    p.add_argument("--autocompare_dir", default=os.path.join(ROOT, "reports", "autocompare"),
                   help="where a differing call is saved as a replayable case")
    p.add_argument("--time", action="store_true", help="run each recipe on the device once more, timing every DIOPI call "
                   "(op_timer), and print each model's slowest operators")
    p.add_argument("--bench", action="store_true", help="time forward+backward on diopi vs eager CPU")
    p.add_argument("--bench_calls", action="store_true", help="only the host cost per call: microseconds per small "
                   "add, mul and view from Python, diopi vs eager CPU, one thread (also printed by --bench)")
    p.add_argument("--bench_tools", action="store_true", help="time forward+backward on diopi with no tool, under the op "
                   "timer and under the call log")
    p.add_argument("--compile", action="store_true",
                   help="run the device side through torch.compile(model, backend='diopi') (training recipes; generate: the decode step, static KV cache)")
    p.add_argument("--seq_sweep", nargs="?", const=",".join(map(str, SWEEP_LENGTHS)), default=None,
                   help="with --compile: train each causal LM one step per sequence length (default "
                   f"{','.join(map(str, SWEEP_LENGTHS))}), compiled vs eager CPU, and nothing else")
    p.add_argument("--capture_graphs", default=None, metavar="DIR",
                   help="with --compile: write each plan that is one diopi/graph.h graph, with its inputs and per-call "
                   "outputs, into DIR (DIOPI_GRAPH_CAPTURE; replay: diopi_test/python main.py --mode graph_replay)")
    args = p.parse_args(argv)
    if args.capture_graphs is not None:
        if not args.compile:
            p.error("--capture_graphs needs --compile (it captures the compile route's plans)")
        os.environ["DIOPI_GRAPH_CAPTURE"] = os.path.abspath(args.capture_graphs)
    if args.seq_sweep is not None:
        return _seq_sweep(args)
    if (args.bench or args.bench_tools or args.bench_calls) and os.environ.get("OMP_NUM_THREADS") != "1" and argv is None:
        # Timings run on one thread in every thread of the process. torch.set_num_threads(1) reaches
        # only the caller: the device's autograd thread (where a host vendor's backward runs) keeps
        # its own OpenMP team, and two teams contending for the cores slow both sides by up to 3x.
        # OpenMP reads its thread count once, when the process starts, so start again with it set.
        print("benchmark: restarting with OMP_NUM_THREADS=1 (one thread in the caller and the device's autograd "
              "thread alike)", flush=True)
        os.execve(sys.executable, [sys.executable, "-m", "diopi_torch.suite", *sys.argv[1:]],
                  dict(os.environ, OMP_NUM_THREADS="1"))
    specs = [s for s in (args.models.split(";") if "hf:" in args.models else args.models.split(",")) if s]
    models = [parse_model(s.strip()) for s in specs]
    chosen = []
    names = list(recipes.RECIPES) if args.recipe.strip() == "all" else [r.strip() for r in args.recipe.split(",") if r.strip()]
    distributed = [n for n in names if n in DISTRIBUTED]
    for name in names:
        if name in DISTRIBUTED:
            continue
        if name not in recipes.RECIPES:
            import difflib
            known = list(recipes.RECIPES) + list(DISTRIBUTED)
            close = difflib.get_close_matches(name, known, n=1)
            p.error(f"unknown recipe {name!r}" + (f"; did you mean {close[0]}?" if close else "")
                    + f" (known: {', '.join(known)})")
        r = recipes.RECIPES[name]
        chosen.append(recipes.compiled(r) if args.compile else r)
    if distributed:
        # Across ranks: diopi_torch.suite.dist launches the ranks and compares with one CPU process.
        if chosen:
            p.error("run the ddp and fsdp recipes apart from the single-process ones (they launch their own ranks)")
        argv2 = ["--impl_lib", args.impl_lib, "--recipes", ",".join(distributed), "--world_size", str(args.world_size)]
        if args.models != ",".join(SUITE):
            argv2 += ["--models", args.models]
        if args.json:
            argv2 += ["--json", args.json]
        return dist_suite.main(argv2)
    if any(r.device_index for r in chosen) and not os.environ.get("DIOPI_HOST_DEVICES"):
        # The host runtime exposes one device unless told otherwise (a vendor's runtime has its own count).
        os.environ["DIOPI_HOST_DEVICES"] = "2"
    import torch
    torch.set_num_threads(max(1, torch.get_num_threads()))
    info = load(args.impl_lib)
    tols = vendor_tolerances(info)
    if args.bench_calls:
        result = {"bench_calls": _print_bench_calls()}
        if args.json:
            os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
            with open(args.json, "w") as f:
                json.dump(result, f, indent=1)
        return 0
    if args.compile:
        from .. import graph as graph_mod
        graph_mod.register()  # also when this checkout is not installed (the entry point names it otherwise)
    if args.autocompare:
        os.environ["DIOPI_AUTOCOMPARE_DIR"] = args.autocompare_dir
    # A recipe on a device the library does not have: as a CUDA test suite on a one-GPU machine, a multi-device
    # recipe chosen by `all` is left out saying why; asked for by name, it is an error.
    count = torch.diopi.device_count()
    short = [r for r in chosen if r.device_index >= count]
    for r in short:
        why = (f"{r.name} needs diopi:{r.device_index}, and the library has {count} device(s)"
               + (" (impl/sim: DIOPI_SIM_DEVICES=2)" if "sim" in str(info.get("vendor", "")) else ""))
        if args.recipe.strip() != "all":
            p.error(why)
        print(f"{r.name}: left out: {why}", file=sys.stderr)
    chosen = [r for r in chosen if r not in short]
    rows = []
    for recipe in chosen:
        for model in models:
            if not recipes.applies(recipe, model):
                continue
            os.environ["DIOPI_GRAPH_CAPTURE_MODEL"] = model.name  # names the captured graphs (graph/capture.py)
            try:
                rows.append(run_model(model, recipe, tols, args.autocompare, time_ops=args.time))
            except Exception as e:  # a model that cannot run is a failed model, reported, not a crash
                rows.append({"name": model.name, "recipe": recipe.name, "class": model.cls, "parameters": 0,
                             "forward_match": False, "backward_match": False, "step_match": False,
                             "max_abs_diff": float("inf"),
                             "error": f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                             "aten_calls": 0, "diopi_calls": 0, "fallback_calls": 0, "view_calls": 0, "copy_calls": 0,
                             "fallback_ops": {}})
                print(f"{model.name} / {recipe.name}: {rows[-1]['error']}", file=sys.stderr)
                cause = root_cause(e)
                if cause and cause != rows[-1]["error"]:
                    print(f"{model.name} / {recipe.name}: caused by {cause}", file=sys.stderr)
    print_table(rows, info, tols)
    if os.environ.get("DIOPI_GRAPH_CAPTURE") and args.compile:
        from ..graph import capture
        print(capture.summary())
    for r in rows:
        if r.get("autocompare"):
            a = r["autocompare"]
            where = f" (graph node {a['node']}, mapping {a['mapping']})" if "node" in a else ""
            print(f"autocompare {r['name']}: first differing call {a['aten']} -> {a['diopi']} in {a['module']}{where} "
                  f"shapes {a['shapes']} dtypes {a['dtypes']}: max abs diff {a['max_abs_diff']:.3g}; "
                  f"saved {a.get('case_file', '-')}")
    for r in rows:
        if r.get("op_timer_table"):
            print(f"\n{r['name']} / {r['recipe']}: " + r.pop("op_timer_table"))
    result = {"library": info, "tolerances": tols, "recipes": [r.name for r in chosen], "models": rows}
    if args.bench and args.compile:
        import math
        rows_c = bench_compile(models)
        result["bench_compile"] = rows_c
        print(f"\n{'model':<10} {'cpu ms':>8} {'diopi ms':>9} {'compiled':>9} {'+fused':>8} {'inductor':>9} {'diopi/cpu':>9} "
              f"{'eager/comp':>10} {'comp/fused':>10} {'fused/ind':>9} {'compile s':>9} {'inductor s':>10}   (float32, "
              "forward+backward, one thread, median of 21, alternating; inductor: torch.compile of eager CPU)")
        for b in rows_c:
            print(f"{b['name'][:10]:<10} {b['cpu_ms']:>8.2f} {b['diopi_ms']:>9.2f} {b['compiled_ms']:>9.2f} "
                  f"{b['fused_ms']:>8.2f} {b['inductor_ms']:>9.2f} {b['diopi_ms'] / b['cpu_ms']:>8.2f}x "
                  f"{b['diopi_ms'] / b['compiled_ms']:>9.2f}x {b['compiled_ms'] / b['fused_ms']:>9.2f}x "
                  f"{b['fused_ms'] / b['inductor_ms']:>8.2f}x {b['compile_s_compiled']:>9.1f} {b['compile_s_inductor']:>10.1f}"
                  + (f"  (recompiled {b['recompiled_during_timing']} during timing)" if b["recompiled_during_timing"] else ""))

        def geo(key_a, key_b):
            return math.exp(sum(math.log(b[key_a] / b[key_b]) for b in rows_c) / len(rows_c))
        result["bench_compile_geomean"] = {"eager_over_compiled": geo("diopi_ms", "compiled_ms"),
                                           "compiled_over_cpu": geo("compiled_ms", "cpu_ms"),
                                           "compiled_over_fused": geo("compiled_ms", "fused_ms"),
                                           "fused_over_inductor": geo("fused_ms", "inductor_ms")}
        g = result["bench_compile_geomean"]
        print(f"geometric mean: eager diopi / compiled {g['eager_over_compiled']:.2f}x; compiled / eager CPU "
              f"{g['compiled_over_cpu']:.2f}x; compiled / compiled+fused {g['compiled_over_fused']:.2f}x; "
              f"compiled+fused / inductor {g['fused_over_inductor']:.2f}x")
    elif args.bench:
        import math
        # float32, and bfloat16 under autocast when the bf16 recipe was asked for
        variants = [("", None)] + ([("_bf16", torch.bfloat16)] if any(r.name == "bf16" for r in chosen) else [])
        for suffix, dtype in variants:
            rows_b = bench(models, autocast=dtype)
            result["bench" + suffix] = rows_b
            what = "bfloat16 autocast" if dtype else "float32"
            print(f"\n{'model':<10} {'cpu ms':>8} {'diopi ms':>9} {'ratio':>6}   ({what}, forward+backward, median of 21 "
                  "samples of 50 ms, alternating)")
            for b in rows_b:
                print(f"{b['name'][:10]:<10} {b['cpu_ms']:>8.2f} {b['diopi_ms']:>9.2f} {b['ratio']:>5.2f}x")
            g = math.exp(sum(math.log(b["ratio"]) for b in rows_b) / len(rows_b))
            result["bench_geomean" + suffix] = g
            print(f"geometric mean diopi/cpu ({what}): {g:.2f}x")
        result["bench_calls"] = _print_bench_calls()
    if args.bench_tools:
        import math
        rows_t = bench_tools(models)
        result["bench_tools"] = rows_t
        print(f"\n{'model':<10} {'no tool ms':>10} {'timer ms':>9} {'ratio':>6} {'log ms':>9} {'ratio':>6}   "
              "(diopi, forward+backward, median of 21, in turn)")
        for b in rows_t:
            print(f"{b['name'][:10]:<10} {b['none_ms']:>10.2f} {b['timer_ms']:>9.2f} {b['timer_ratio']:>5.2f}x "
                  f"{b['log_ms']:>9.2f} {b['log_ratio']:>5.2f}x")
        for k in ("timer", "log"):
            g = math.exp(sum(math.log(b[f"{k}_ratio"]) for b in rows_t) / len(rows_t))
            result[f"bench_tools_geomean_{k}"] = g
            print(f"geometric mean {k}/no tool: {g:.2f}x")
        per_call = bench_tool_calls()
        result["bench_tool_calls"] = per_call
        us = per_call["us_per_call"]
        print("\nper call (add, mul, relu of 64x64 float32 from Python; best of 15 rounds): "
              + ", ".join(f"{k} {v:.2f} us ({v / us['none']:.2f}x)" for k, v in us.items())
              + f"; call log {per_call['log_bytes_per_line']:.0f} bytes per line")
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1, default=str)
    return 0 if rows and all(ok_row(r) for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
