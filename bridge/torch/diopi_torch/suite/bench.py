"""The suite's benchmarks (`--bench`, `--bench_tools`, `--compile --bench`):
forward+backward on the device against eager CPU, under each bring-up tool,
and compiled against eager. Run by runner.main with OMP_NUM_THREADS=1."""
from __future__ import annotations

import contextlib
import copy
import os
import time

from .. import _C
from ..tools import log_calls, op_timer
from ..tools import stats as device_stats
from .models import build, inputs


def bench(models, repeats=21, autocast=None, sample_s=0.05):
    """Forward+backward time per model, diopi device vs eager CPU (the bridge's overhead), in
    float32 or under autocast to `autocast` on both sides.
    The two run alternately, `repeats` samples each, and the medians are compared: on a shared
    2-core machine a best-of-few of one side taken minutes apart from the other's varied by 2x.
    A sample is the mean of as many steps as fill about `sample_s` seconds on eager CPU (the same
    count on both): single steps of a few milliseconds moved a model's ratio by 30% between runs
    of one build on the development machine, a virtual machine whose host deschedules it."""
    import math
    import statistics

    import torch
    rows = []
    for model in models:
        m = build(model)
        batch = inputs(model, m)
        steps = {}
        for device in ("cpu", "diopi"):
            mm = copy.deepcopy(m).to(device)
            b = {k: v.to(device) for k, v in batch.items()}

            def once(mm=mm, b=b, device=device):
                with torch.autocast(device, dtype=autocast, enabled=autocast is not None):
                    if isinstance(mm, torch.nn.Sequential):
                        loss = torch.nn.functional.cross_entropy(mm(b["pixel_values"]).float(), b["labels"])
                    else:
                        loss = mm(**b).loss
                loss.backward()
                loss.item()
            for _ in range(5):  # warm up: allocator, result-shape cache
                once()
            steps[device] = once
        t0 = time.perf_counter()
        steps["cpu"]()
        per_sample = max(1, math.ceil(sample_s / (time.perf_counter() - t0)))
        times = {"cpu": [], "diopi": []}
        for _ in range(repeats):
            for device in ("cpu", "diopi"):
                t0 = time.perf_counter()
                for _ in range(per_sample):
                    steps[device]()
                times[device].append((time.perf_counter() - t0) / per_sample)
        med = {d: statistics.median(ts) for d, ts in times.items()}
        rows.append({"name": model.name, "cpu_ms": med["cpu"] * 1e3, "diopi_ms": med["diopi"] * 1e3,
                     "ratio": med["diopi"] / med["cpu"]})
    return rows


def bench_tools(models, repeats=21, log_dir=None):
    """The cost of the op timer and of the call log: forward+backward per model
    on the device with no tool, under op_timer() and under log_calls(), run
    in turn `repeats` times each and compared by their medians."""
    import statistics
    import tempfile

    import torch
    log_dir = log_dir or tempfile.mkdtemp(prefix="diopi-bench-log-")
    rows = []
    for model in models:
        m = build(model).to(_C.BACKEND)
        b = {k: v.to(_C.BACKEND) for k, v in inputs(model, build(model)).items()}

        def once(m=m, b=b):
            if isinstance(m, torch.nn.Sequential):
                loss = torch.nn.functional.cross_entropy(m(b["pixel_values"]), b["labels"])
            else:
                loss = m(**b).loss
            loss.backward()
            loss.item()
        for _ in range(3):
            once()
        log = os.path.join(log_dir, f"{model.name}.log")
        variants = {"none": contextlib.nullcontext, "timer": op_timer, "log": lambda: log_calls(log)}
        times = {k: [] for k in variants}
        for _ in range(repeats):
            for k, ctx in variants.items():
                with ctx():
                    t0 = time.perf_counter()
                    once()
                    times[k].append(time.perf_counter() - t0)
        med = {k: statistics.median(v) for k, v in times.items()}
        rows.append({"name": model.name, "none_ms": med["none"] * 1e3, "timer_ms": med["timer"] * 1e3, "log_ms": med["log"] * 1e3,
                     "timer_ratio": med["timer"] / med["none"], "log_ratio": med["log"] / med["none"]})
    return rows


def bench_tool_calls(rounds=15, n=1500):
    """Microseconds per call of small operators (add, mul, relu of 64x64 float32 from Python) on the
    device with no tool, under the op timer, the call log, the profiler (CPU events) and the profiler
    with the device's activity: the best of `rounds` rounds of `n` calls each, the variants in turn."""
    import tempfile

    import torch
    x = torch.randn(64, 64, device=_C.BACKEND)
    y = torch.randn(64, 64, device=_C.BACKEND)

    def calls(k):
        t0 = time.perf_counter()
        for _ in range(k):
            torch.relu((x + y) * y)
        return (time.perf_counter() - t0) / (3 * k) * 1e6
    log = os.path.join(tempfile.mkdtemp(prefix="diopi-bench-log-"), "calls.log")
    act = torch.profiler.ProfilerActivity
    variants = {"none": contextlib.nullcontext, "timer": op_timer, "log": lambda: log_calls(log),
                "profiler": lambda: torch.profiler.profile(activities=[act.CPU]),
                "profiler+device": lambda: torch.profiler.profile(activities=[act.CPU, act.PrivateUse1])}
    calls(500)
    best = {k: float("inf") for k in variants}
    for _ in range(rounds):
        for k, ctx in variants.items():
            with ctx():  # the profiler keeps every event: fewer calls per round under it
                best[k] = min(best[k], calls(n // 3 if k.startswith("profiler") else n))
    with open(log) as f:
        lines = sum(1 for _ in f)
    return {"us_per_call": best, "log_bytes_per_line": os.path.getsize(log) / max(lines, 1)}


def bench_calls(rounds=15, n=1500, shape=(8, 8)):
    """Host cost per call: microseconds per call of small operators from Python (`add`, `mul`, `view`
    of 8x8 float32, each alone, and the three in turn) on the device and on eager CPU, one thread.
    At this size the arithmetic is a few nanoseconds, so the figures are the dispatch, the device's
    kernel and the library call around it. Each figure is the best of `rounds` rounds of `n` calls,
    the two devices alternating round by round."""
    import torch
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        loops = {}
        for device in ("cpu", _C.BACKEND):
            x = torch.randn(*shape, device=device)
            y = torch.randn(*shape, device=device)
            flat = (shape[0] * shape[1],)

            def add(k, x=x, y=y):
                for _ in range(k):
                    x + y
                return k

            def mul(k, x=x, y=y):
                for _ in range(k):
                    x * y
                return k

            def view(k, x=x):
                for _ in range(k):
                    x.view(flat)
                return k

            def mixed(k, x=x, y=y):
                for _ in range(k):
                    ((x + y) * y).view(flat)
                return 3 * k
            loops[device] = {"add": add, "mul": mul, "view": view, "add, mul, view": mixed}
        best = {op: {d: float("inf") for d in loops} for op in loops["cpu"]}
        def done(d):  # a round ends when its queued work has: nothing spills into the next one's time
            if d != "cpu":
                torch.diopi.synchronize()

        for d in loops:  # warm up: allocator, result-shape cache, the first call's imports
            for f in loops[d].values():
                f(200)
            done(d)
        for _ in range(rounds):
            for op in best:
                for d in loops:
                    t0 = time.perf_counter()
                    calls = loops[d][op](n)
                    done(d)
                    best[op][d] = min(best[op][d], (time.perf_counter() - t0) / calls * 1e6)
        return {op: {"cpu_us": v["cpu"], "diopi_us": v[_C.BACKEND], "ratio": v[_C.BACKEND] / v["cpu"]}
                for op, v in best.items()}
    finally:
        torch.set_num_threads(threads)


def bench_compile(models, repeats=21):
    """Forward+backward time per model: eager CPU, eager diopi, compiled (torch.compile(backend="diopi")
    without fusion), compiled with fusion, and PyTorch's own compiler on the CPU
    (torch.compile(backend="inductor") of the eager CPU model, the same step); one thread, the five
    variants alternating, medians. Timing starts after compilation, once the compiled libraries are
    attached; a recompilation during timing is reported."""
    import statistics

    import torch
    import torch._dynamo
    from torch._dynamo.utils import counters

    from .. import graph as graph_mod
    from ..graph import cache
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    rows = []
    try:
        for model in models:
            torch._dynamo.reset()
            device_stats.reset_stats()
            m = build(model)
            batch = inputs(model, m)
            variants = {"cpu": ("cpu", None, None), "diopi": ("diopi", None, None),
                        "compiled": ("diopi", graph_mod.NAME, {"fusion": False}),
                        "fused": ("diopi", graph_mod.NAME, {"fusion": True}), "inductor": ("cpu", "inductor", None)}
            steps, t_compile = {}, {}
            for name, (device, backend, options) in variants.items():
                mm = copy.deepcopy(m).to(device)
                b = {k: v.to(device) for k, v in batch.items()}
                fwd = torch.compile(mm, backend=backend, options=options) if backend is not None else mm

                def once(fwd=fwd, b=b):
                    if isinstance(getattr(fwd, "_orig_mod", fwd), torch.nn.Sequential):
                        loss = torch.nn.functional.cross_entropy(fwd(b["pixel_values"]).float(), b["labels"])
                    else:
                        loss = fwd(**b).loss
                    loss.backward()
                    loss.item()
                t0 = time.perf_counter()
                once()  # compiles (cold)
                cache.wait()
                t_compile[name] = time.perf_counter() - t0
                for _ in range(3):  # warm up: allocator, result-shape cache, compiled libraries attached
                    once()
                steps[name] = once
            frames = counters["stats"]["unique_graphs"]
            times = {k: [] for k in steps}
            for _ in range(repeats):
                for k, f in steps.items():
                    t0 = time.perf_counter()
                    f()
                    times[k].append(time.perf_counter() - t0)
            med = {k: statistics.median(ts) * 1e3 for k, ts in times.items()}
            g = device_stats.stats().get(device_stats.GRAPH_KEY, {})
            rows.append({"name": model.name, "cpu_ms": med["cpu"], "diopi_ms": med["diopi"], "compiled_ms": med["compiled"],
                         "fused_ms": med["fused"], "inductor_ms": med["inductor"], "compile_s_compiled": t_compile["compiled"],
                         "compile_s_fused": t_compile["fused"], "compile_s_inductor": t_compile["inductor"], "recompiled_during_timing":
                         counters["stats"]["unique_graphs"] - frames, "fused_patterns": g.get("fused", {}),
                         "cache": g.get("cache", {})})
    finally:
        torch.set_num_threads(threads)
    return rows
