"""Offline precision analysis: a capture from one library replayed on another.

    python -m diopi_torch.tools.precision CAPTURE_DIR --impl_lib OTHER.so [--against captured|reference] [--json FILE]

Autocompare needs both computations in one process; when the library that
misbehaves runs on one machine and the one to compare with on another,
capture the suspect calls there (op_capture), copy the folder, and replay
it here. Each captured call is made on --impl_lib through the C ABI,
exactly as `main.py --mode run_test` makes it (the harness's argument
description, the "captured" layout), and every output is compared with the
outputs the capturing library produced (`--against captured`, the default)
or with eager CPU ATen's (`--against reference`). The table lists per call
the largest absolute difference, that difference relative to the largest
value of the output, the largest elementwise relative difference, how many
elements differ and the first of them, sorted by the relative difference.

Needs numpy and cffi, not torch. The library runs in a worker process
(conformance/runner.py): a crash is reported, not fatal. Exit status 0
after a complete analysis, 2 for bad options, 3 for a refused capture.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from .. import _C
from . import harness

ROOT = _C.CHECKOUT




def difference(actual, expected):
    """{max_abs, scaled, max_rel, differing, total, first_index, got, expected} of
    two (array, dtype) pairs; numpy only."""
    import numpy as np

    from conformance import dtypes

    (a, adt), (e, edt) = actual, expected
    if tuple(a.shape) != tuple(e.shape):
        return {"max_abs": float("inf"), "scaled": float("inf"), "max_rel": float("inf"), "differing": -1,
                "total": int(np.prod(e.shape)), "first_index": [], "note": f"shape {list(a.shape)} != {list(e.shape)}"}
    av = dtypes.to_values(a, adt).astype(np.complex128 if np.iscomplexobj(e) else np.float64)
    ev = dtypes.to_values(e, edt).astype(av.dtype)
    total = int(av.size)
    if not total:
        return {"max_abs": 0.0, "scaled": 0.0, "max_rel": 0.0, "differing": 0, "total": 0, "first_index": []}
    with np.errstate(invalid="ignore", over="ignore"):
        same = (av == ev) | (np.isnan(av) & np.isnan(ev))
        diff = np.where(same, 0.0, np.abs(av - ev))
        diff = np.where(np.isnan(diff), np.inf, diff)
        mag = np.abs(ev)
        rel = np.where(same, 0.0, diff / np.where(mag > 0, mag, 1.0))
    finite = np.abs(ev[np.isfinite(ev)])
    scale = float(finite.max()) if finite.size else 0.0
    bad = ~same
    out = {"max_abs": float(diff.max()), "max_rel": float(rel.max()), "differing": int(bad.sum()), "total": total,
           "first_index": []}
    out["scaled"] = out["max_abs"] / scale if scale > 0 else (0.0 if out["max_abs"] == 0 else float("inf"))
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0]) if av.ndim else ()
        out["first_index"] = list(idx)
        out["got"], out["expected"] = _item(av[idx]), _item(ev[idx])
    return out


def _item(v):
    v = v.item()
    return str(v) if isinstance(v, complex) else v


def replay(impl, runtime, data_dir, against):
    """Runs in the worker: every captured case on `impl`; one row per output."""
    import diopi_header

    from conformance import binding, execute, store

    lib = binding.Library(impl, runtime)
    manifest = store.read_manifest(data_dir)
    model = diopi_header.load()
    rows = []
    for func in sorted(manifest["files"]):
        cases = store.load_function(data_dir, func, manifest)
        cfn = lib.function(func)
        for rec in cases:
            base = {"case": rec["name"], "func": func, **{k: rec.get("captured", {}).get(k, "") for k in ("aten", "module", "phase")}}
            if cfn is None:
                rows.append(dict(base, output="", status="not exported by the library"))
                continue
            reference = rec.get("device_outputs") if against == "captured" else rec["outputs"]
            if reference is None:
                rows.append(dict(base, output="", status="the capture holds no outputs of its library"))
                continue
            call = execute.Call(lib, model[func], rec, "captured")
            try:
                rc = cfn(*call.args)
                lib.rt.dt_context_sync(call.ctx)
                if rc != 0:
                    rows.append(dict(base, output="", status=f"returned {int(rc)}: {lib.last_error()[:200]}"))
                    continue
                for arg, get in call.outputs:
                    exp = reference.get(arg.name)
                    if exp is None:
                        continue
                    got = get()
                    pairs = list(zip(got, exp)) if isinstance(exp, list) else [(got, exp)]
                    for i, (g, e) in enumerate(pairs):
                        if not store.is_encoded_array(e):
                            continue
                        label = arg.name if not isinstance(exp, list) else f"{arg.name}[{i}]"
                        rows.append(dict(base, output=label, status="compared", dtype=e["__nd__"],
                                         **difference(g, store.decode_array(e))))
            finally:
                call.close()
    return {"library": lib.info(), "rows": rows}


def _sort_key(r):
    return (r["status"] == "compared", r.get("scaled", 0.0), r.get("max_abs", 0.0))


def print_table(result, stream, against, data_dir, impl):
    rows = sorted(result["rows"], key=_sort_key, reverse=True)
    lib = result["library"]
    compared = [r for r in rows if r["status"] == "compared"]
    differ = [r for r in compared if r["differing"]]
    print(f"precision: {len(compared)} outputs of the capture in {data_dir} replayed on {lib.get('vendor')} "
          f"{lib.get('version')} ({impl}), against the {'capturing library' if against == 'captured' else 'eager CPU reference'}"
          f"; {len(differ)} differ", file=stream)
    w = max([len(f"{r['case']} {r['output']}") for r in rows] + [20])
    other = "captured" if against == "captured" else "reference"
    print(f"{'case output':<{w}} {'max abs':>10} {'of scale':>10} {'max rel':>10} {'differing':>14}  first index: this library / "
          f"{other}   (aten, module)", file=stream)
    for r in rows:
        label = f"{r['case']} {r['output']}".strip()
        where = f"(aten::{r['aten']}, {r['module'] or r['phase']})"
        if r["status"] != "compared":
            print(f"{label:<{w}} {r['status']}   {where}", file=stream)
            continue
        first = f"{r['first_index']}: {r.get('got')} / {r.get('expected')}" if r["differing"] else "-"
        if r.get("note"):
            first = r["note"]
        print(f"{label:<{w}} {r['max_abs']:>10.3g} {r['scaled']:>10.3g} {r['max_rel']:>10.3g} "
              f"{str(r['differing']) + '/' + str(r['total']):>14}  {first}   {where}", file=stream)


class _Parser(argparse.ArgumentParser):
    """Usage errors as one `error: ...` line (exit 2), with a did-you-mean for a mistyped option or choice."""

    def error(self, message):
        import difflib
        import re
        hint = ""
        m = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
        if m:
            close = difflib.get_close_matches(m.group(1), re.findall(r"'([^']*)'", m.group(2)), n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
        m = re.search(r"unrecognized arguments: (\S+)", message)
        if m and m.group(1).startswith("-"):
            close = difflib.get_close_matches(m.group(1).split("=")[0], list(self._option_string_actions), n=1)
            hint = f"; did you mean {close[0]}?" if close else ""
        print(f"error: {message}{hint} (--help lists the options)", file=sys.stderr)
        sys.exit(2)


def main(argv=None):
    p = _Parser(prog="python -m diopi_torch.tools.precision", description=__doc__.splitlines()[0])
    p.add_argument("capture", help="a folder op_capture wrote")
    p.add_argument("--impl_lib", required=True, help="the libdiopi_impl.so to replay the capture on")
    p.add_argument("--runtime_lib", default=None, help="test runtime (default: libdiopirt.so beside --impl_lib, else build/torch/lib)")
    p.add_argument("--against", choices=["captured", "reference"], default="captured",
                   help="compare with the capturing library's outputs (default) or eager CPU's")
    p.add_argument("--json", default=None, help="also write the rows here")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds the replay may take")
    args = p.parse_args(argv)
    harness.conformance()
    from conformance import runner, store

    impl = os.path.abspath(args.impl_lib)
    if not os.path.exists(impl):
        print(f"error: no such library: {args.impl_lib}", file=sys.stderr)
        return 2
    runtime = args.runtime_lib or os.path.join(os.path.dirname(impl), "libdiopirt.so")
    if not os.path.exists(runtime):
        runtime = os.path.join(ROOT, "build", "torch", "lib", "libdiopirt.so")
    if not os.path.exists(os.path.join(args.capture, store.MANIFEST)):
        print(f"error: {args.capture} holds no capture (no {store.MANIFEST}); diopi_torch.op_capture(dir) writes one",
              file=sys.stderr)
        return 3
    try:
        store.read_manifest(args.capture)
    except store.BaselineError as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 3
    try:
        result = runner.isolated(replay, (impl, runtime, args.capture, args.against), timeout=args.timeout, what="precision replay")
    except runner.WorkerFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print_table(result, sys.stdout, args.against, args.capture, impl)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(result, rows=sorted(result["rows"], key=_sort_key, reverse=True)), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
