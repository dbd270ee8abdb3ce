#!/usr/bin/env python3
"""Figures of the model case sets: per model, gen_data time and baseline size,
run_test time on impl/torch, and the call-weighted pass share on impl/torch
and impl/cpu. A benchmark that prints, never a timed test.

    python3 scripts/bench_model_cases.py [MODEL ...] [--json FILE] [--update] [--keep_data]
    python3 scripts/bench_model_cases.py --markdown FILE     # the README table from that JSON

Each model's baselines go to data/models/<model> and are removed afterwards
unless --keep_data is given.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HARNESS = os.path.join(ROOT, "diopi_test", "python")
SHARE = re.compile(r"this library runs >?([\d.]+)% of")
SIZE = re.compile(r"baselines in .*: ([\d.]+) MiB")
TOTALS = re.compile(r"run_test: (\d+) passed, (\d+) failed, (\d+) skipped")


def main_py(*args, env=None):
    t0 = time.time()
    proc = subprocess.run([sys.executable, "main.py", *args], cwd=HARNESS, capture_output=True, text=True, env=env)
    return proc, time.time() - t0


def bench(model, jobs, keep, data_root=None):
    sys.path.insert(0, HARNESS)
    from conformance import model_cases

    data = model_cases.load(model)
    s = data["summary"]
    row = {"model": model, "class": data["provenance"]["class"], "dtype": data["provenance"]["dtype"],
           "modes": data["provenance"]["modes"], "cases": s["cases"], "functions": len(s["functions"]),
           "aten_calls": s["aten_calls"], "mapped_share": s["mapped_calls"] / s["aten_calls"] if s["aten_calls"] else 0,
           "unmapped": s.get("unmapped", {})}
    data_dir = os.path.join(data_root or os.path.join(ROOT, "data", "models"), model)
    shutil.rmtree(data_dir, ignore_errors=True)
    proc, secs = main_py("--mode", "gen_data", "--model_name", model, "--data_dir", data_dir)
    m = SIZE.search(proc.stdout)
    row["gen_data_seconds"] = round(secs, 1)
    row["baseline_mib"] = float(m.group(1)) if m else None
    row["not_replayed"] = len(re.findall(r"not replayed", proc.stderr))
    for vendor in ("torch", "cpu"):
        lib = os.path.join(ROOT, "build", vendor, "lib", "libdiopi_impl.so")
        if not os.path.exists(lib):
            continue
        reports = os.path.join(ROOT, "reports", "models", model, vendor)
        proc, secs = main_py("--mode", "run_test", "--model_name", model, "--impl_lib", lib, "--jobs", str(jobs),
                             "--report_dir", reports, "--data_dir", data_dir)
        share = SHARE.search(proc.stdout)
        totals = TOTALS.search(proc.stdout)
        row[f"{vendor}_seconds"] = round(secs, 1)
        row[f"{vendor}_share"] = float(share.group(1)) / 100 if share else None
        row[f"{vendor}_cases"] = [int(x) for x in totals.groups()] if totals else None
        row[f"{vendor}_line"] = share.group(0) if share else proc.stdout[-300:] + proc.stderr[-300:]
    if not keep:
        shutil.rmtree(data_dir, ignore_errors=True)
    return row


def markdown(rows):
    """The README's model case set table from bench() rows."""
    def share(v):
        return "-" if v is None else (f"{v:.1%}" if v < 1 else "100%")

    def gaps(row):
        return ", ".join(f"`{k}` ({v})" for k, v in row["unmapped"].items()) or "none"

    def verdicts(row, vendor):
        c = row.get(f"{vendor}_cases")
        return share(row.get(f"{vendor}_share")) + (f" ({c[1]} failed)" if c and c[1] else "")

    lines = ["| model | class, dtype, modes | cases | functions | calls mapped to DIOPI | ATen operators with no "
             "DIOPI function | impl/torch passes | impl/cpu passes | gen_data s | baselines MiB | run_test impl/torch s |",
             "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in rows:
        lines.append(f"| {r['model']} | {r['class']}, {r['dtype']}, {'+'.join(r['modes'])} | {r['cases']} | "
                     f"{r['functions']} | {share(r['mapped_share'])} of {r['aten_calls']} | {gaps(r)} | "
                     f"{verdicts(r, 'torch')} | {verdicts(r, 'cpu')} | {r['gen_data_seconds']:.0f} | "
                     f"{r['baseline_mib'] or 0:.0f} | {r.get('torch_seconds', 0):.0f} |")
    return "\n".join(lines)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("models", nargs="*")
    p.add_argument("--json", default=os.path.join(ROOT, "reports", "model_cases_bench.json"))
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--keep_data", action="store_true")
    p.add_argument("--data_root", default=None, help="where each model's baselines go (default: data/models)")
    p.add_argument("--update", action="store_true", help="keep the rows of other models already in --json")
    p.add_argument("--markdown", metavar="JSON", help="print the README's table from a JSON this script wrote, "
                   "then exit (figures are never typed in by hand)")
    args = p.parse_args()
    if args.markdown:
        with open(args.markdown) as f:
            print(markdown(json.load(f)))
        return 0
    sys.path.insert(0, HARNESS)
    from conformance import model_cases
    models = args.models or model_cases.names()
    rows = []
    kept = {}
    if args.update and os.path.exists(args.json):
        with open(args.json) as f:
            kept = {r["model"]: r for r in json.load(f) if r["model"] not in models}
    print(f"{'model':<16} {'cases':>5} {'funcs':>5} {'mapped':>7} {'gen s':>6} {'MiB':>6} {'torch s':>7} "
          f"{'torch':>7} {'cpu':>7}", flush=True)
    for model in models:
        r = bench(model, args.jobs, args.keep_data, args.data_root)
        rows.append(r)
        fmt = lambda v: f"{v:.1%}" if isinstance(v, float) else "-"  # noqa: E731
        print(f"{model:<16} {r['cases']:>5} {r['functions']:>5} {r['mapped_share']:>7.1%} {r['gen_data_seconds']:>6} "
              f"{r['baseline_mib'] or 0:>6.0f} {r.get('torch_seconds', '-'):>7} {fmt(r.get('torch_share')):>7} "
              f"{fmt(r.get('cpu_share')):>7}", flush=True)
        os.makedirs(os.path.dirname(args.json), exist_ok=True)
        order = {m: i for i, m in enumerate(model_cases.names())}
        with open(args.json, "w") as f:
            json.dump(sorted(rows + list(kept.values()), key=lambda r: order.get(r["model"], len(order))), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
