"""Performance from the same case descriptions as correctness.

For each selected function, the benchmark takes the largest contiguous
case of the chosen dtype from the baselines (a function without one: its
most common floating dtype, named in the table), builds its arguments once
per library exactly as run_test does, and times repeated calls of each
library through the C ABI in one process (one test runtime, the libraries
loaded side by side), in rounds that alternate between the libraries; a
library's time is the smallest of its rounds' medians. A call whose result
fails correctness is not timed: the first call of each library is checked
like a run_test case (random functions by their properties).

The ratio is time(baseline library) / time(candidate library): above 1 the
candidate is faster. Functions are grouped as compute-bound (GEMM and
convolution families: work grows faster than data) or memory-bound (the
rest), and each group gets a geometric mean.
"""
import math
import statistics
import time

import diopi_header

from . import binding, execute, store

COMPUTE_BOUND_FAMILIES = ("linalg_matmul", "convolution")
ROUNDS = 5  # alternating timing rounds per library
SLOW = 0.5  # the summary names every function whose ratio is below this


def _pick_case(cases, dtype):
    """Index and input bytes of the largest case of `dtype` (random
    functions' cases, checked by their properties, included)."""
    best, best_bytes = None, -1
    for i, rec in enumerate(cases):
        if rec.get("dtype") != dtype:
            continue
        size = sum(len(v["data"]) for v in rec["inputs"].values()
                   if store.is_encoded_array(v) and isinstance(v.get("data"), bytes))
        if size > best_bytes:
            best, best_bytes = i, size
    return best, best_bytes


def _fallback_dtype(cases):
    """A function with no case of the asked dtype is timed in its most common
    floating dtype (flash attention has only 16-bit cases), else its most
    common dtype (randperm: int64); None without cases."""
    counts = {}
    for rec in cases:
        d = rec.get("dtype")
        if d:
            counts[d] = counts.get(d, 0) + 1
    floating = {d: n for d, n in counts.items() if d in ("float32", "float16", "bfloat16", "float64")}
    pool = floating or counts
    return max(pool, key=pool.get) if pool else None


def _sample(lib, call, cfn, seconds, max_iters):
    """Median seconds per call over one round of repeated calls."""
    samples, spent = [], 0.0
    while not samples or (spent < seconds and len(samples) < max_iters):
        t0 = time.perf_counter()
        cfn(*call.args)
        lib.rt.dt_context_sync(call.ctx)
        dt = time.perf_counter() - t0
        samples.append(dt)
        spent += dt
    return statistics.median(samples)


def _time_pair(libs, fn_model, record, min_seconds, max_iters, rounds=ROUNDS):
    """Seconds per call of each library, timed in alternating rounds; each
    figure is the smallest of its rounds' medians, so a stall of the machine
    during one round (another process, a page-cache flush) does not decide
    the ratio, and slow drift hits both libraries alike. Returns (times,
    error or "")."""
    calls = []
    try:
        for lib, cfn in libs:
            call = execute.Call(lib, fn_model, record, "contiguous")
            calls.append(call)
            rc = cfn(*call.args)  # warm-up (caches, thread pools, lazy init)
            lib.rt.dt_context_sync(call.ctx)
            if rc != 0:
                return None, f"returned error {rc}: {lib.last_error()}"
        best = [math.inf] * len(libs)
        for _ in range(rounds):
            for k, ((lib, cfn), call) in enumerate(zip(libs, calls)):
                best[k] = min(best[k], _sample(lib, call, cfn, min_seconds / rounds, max(1, max_iters // rounds)))
        return best, ""
    finally:
        for call in calls:
            call.close()


def run(base_path, cand_path, runtime_path, data_dir, funcs, dtype="float32", min_seconds=0.2, max_iters=200, log=print):
    """Rows: dict(func, family, case, dtype, bytes, base_s, cand_s, ratio, note)."""
    base = binding.Library(base_path, runtime_path)
    cand = binding.Library(cand_path, runtime_path)
    model = diopi_header.load()
    manifest = store.read_manifest(data_dir)
    rows = []
    for func in funcs:
        if func not in manifest["files"]:
            continue
        fn_model = model[func]
        row = {"func": func, "family": fn_model.family, "case": "", "dtype": dtype, "bytes": 0, "base_s": None, "cand_s": None,
               "ratio": None, "note": ""}
        rows.append(row)
        cb, cc = base.function(func), cand.function(func)
        if cb is None or cc is None:
            row["note"] = "not exported by " + ("both" if cb is None and cc is None else "baseline" if cb is None else "candidate")
            continue
        cases = store.load_function(data_dir, func, manifest)
        index, nbytes = _pick_case(cases, dtype)
        if index is None:
            row["dtype"] = _fallback_dtype(cases)
            if row["dtype"] is None:
                row["note"] = "no case to time"
                continue
            index, nbytes = _pick_case(cases, row["dtype"])
        record = cases[index]
        row["case"], row["bytes"] = record["name"], nbytes
        for key, lib in (("base", base), ("cand", cand)):
            verdict = execute.run_case(lib, record, "contiguous")["verdict"]
            if verdict != execute.PASSED:
                row["note"] = f"{key} library: {verdict}, not timed"
                break
        else:
            times, err = _time_pair(((base, cb), (cand, cc)), fn_model, record, min_seconds, max_iters)
            if times is None:
                row["note"] = err
            else:
                row["base_s"], row["cand_s"] = times
                row["ratio"] = row["base_s"] / row["cand_s"]
        log(f"[bench] {func}: " + (f"{row['ratio']:.2f}x" if row["ratio"] else row["note"]))
    return rows


def group(row):
    return "compute-bound" if row["family"] in COMPUTE_BOUND_FAMILIES else "memory-bound"


def geomean(values):
    values = [v for v in values if v and v > 0]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def print_table(rows, base_name, cand_name, stream):
    timed = [r for r in rows if r["ratio"]]
    w = max([len(r["func"]) for r in rows] + [8])
    print(f"{'function':<{w}} {'group':<13} {'dtype':<8} {'bytes':>10} {base_name + ' us':>12} {cand_name + ' us':>12} {'ratio':>7}",
          file=stream)
    for r in sorted(rows, key=lambda r: (group(r), r["func"])):
        if r["ratio"]:
            print(f"{r['func']:<{w}} {group(r):<13} {r['dtype']:<8} {r['bytes']:>10} {r['base_s'] * 1e6:>12.1f} "
                  f"{r['cand_s'] * 1e6:>12.1f} {r['ratio']:>6.2f}x", file=stream)
        else:
            print(f"{r['func']:<{w}} {group(r):<13} {r.get('dtype') or '':<8} {'':>10} {'':>12} {'':>12} {'-':>7}  {r['note']}",
                  file=stream)
    print(file=stream)
    for g in ("memory-bound", "compute-bound"):
        vals = [r["ratio"] for r in timed if group(r) == g]
        gm = geomean(vals)
        print(f"geometric mean ({g}, {len(vals)} functions): " + (f"{gm:.2f}x" if gm else "-"), file=stream)
    slow = sorted((r for r in timed if r["ratio"] < SLOW), key=lambda r: r["ratio"])
    print(f"functions below {SLOW}x: {len(slow)}" + (": " + ", ".join(f"{r['func']} {r['ratio']:.2f}x" for r in slow) if slow else ""),
          file=stream)
    print(f"ratio = time({base_name}) / time({cand_name}); above 1 means {cand_name} is faster", file=stream)
