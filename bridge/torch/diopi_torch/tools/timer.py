"""The op timer: where a step's time goes on the `diopi` device.

    with diopi_torch.op_timer() as t:          # or t = op_timer(); t.start(); ...; t.stop()
        loss = model(**batch).loss; loss.backward(); opt.step()
    print(t)                                   # rows sorted by time, slowest first
    t.to_json("timer.json"); t.to_csv("timer.csv")

One row per ATen operator, DIOPI function and phase (backward while
autograd evaluates a node, forward otherwise, an optimizer step included): calls, total, mean and largest time of
the DIOPI function itself, the time of the whole device kernel around it
(argument conversion, result allocation, the call), and the shapes of the
slowest call. Operators that ran on the CPU fallback are rows too, with
"cpu" for the function. The times are taken in the extension
(csrc/tools.cpp), around each call, with the steady clock.
"""
from __future__ import annotations

import csv
import io
import json

from .. import _C

FIELDS = ("aten", "diopi", "phase", "calls", "total_ms", "mean_us", "max_us", "kernel_ms", "share", "slowest")


class OpTimer:
    def __init__(self):
        self.rows = []
        self._running = False

    # -- start / stop
    def start(self):
        if _C.extension().diopi_torch_timer_start() != 0:
            raise RuntimeError("an op timer is already running; stop it first (one timer at a time)")
        self._running = True
        self.rows = []
        return self

    def stop(self):
        if not self._running:
            raise RuntimeError("this op timer is not running")
        lib = _C.extension()
        lib.diopi_torch_timer_stop()
        self._running = False
        self.rows = _rows(json.loads(lib.diopi_torch_timer_report().decode()))
        return self

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
        return False

    # -- results
    @property
    def total_ms(self):
        return sum(r["total_ms"] for r in self.rows)

    def table(self, limit=None):
        rows = self.rows[:limit] if limit else self.rows
        diopi = sum(r["total_ms"] for r in self.rows if r["diopi"] != "cpu")
        kernel = sum(r["kernel_ms"] for r in self.rows if r["diopi"] != "cpu")
        cpu = sum(r["total_ms"] for r in self.rows if r["diopi"] == "cpu")
        calls = sum(r["calls"] for r in self.rows)
        out = [f"op timer: {calls} calls; {diopi:.3f} ms in DIOPI functions ({kernel:.3f} ms in the device's kernels "
               f"around them), {cpu:.3f} ms in CPU fallbacks"]
        w = max([len(_op(r)) for r in rows] + [30])
        out.append(f"{'total ms':>9} {'share':>6} {'calls':>6} {'mean us':>9} {'max us':>9} {'kernel ms':>9} {'phase':<8} "
                   f"{'ATen operator -> DIOPI function':<{w}}  shapes of the slowest call")
        for r in rows:
            out.append(f"{r['total_ms']:>9.3f} {r['share']:>6.1%} {r['calls']:>6} {r['mean_us']:>9.1f} {r['max_us']:>9.1f} "
                       f"{r['kernel_ms']:>9.3f} {r['phase']:<8} {_op(r):<{w}}  {_clip(r['slowest'])}")
        if limit and len(self.rows) > limit:
            out.append(f"... {len(self.rows) - limit} more rows (to_csv() has them all)")
        return "\n".join(out)

    def __str__(self):
        if self._running:
            return "op timer: running (stop it to see the table)"
        return self.table()

    def to_json(self, path=None):
        text = json.dumps(self.rows, indent=1)
        if path:
            with open(path, "w") as f:
                f.write(text + "\n")
        return text

    def to_csv(self, path=None):
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=FIELDS, lineterminator="\n")
        w.writeheader()
        for r in self.rows:
            w.writerow({k: r[k] for k in FIELDS})
        if path:
            with open(path, "w", newline="") as f:
                f.write(buf.getvalue())
        return buf.getvalue()


def _clip(text, width=110):
    """Long argument lists (an optimizer step over every parameter) end in "..." in the table."""
    return text if len(text) <= width else text[:width - 3] + "..."


def _op(r):
    return f"aten::{r['aten']} -> {r['diopi']}"


def _rows(raw):
    """The extension's rows (one per mapping entry and phase) merged per
    ATen operator, function and phase, slowest first."""
    merged = {}
    for r in raw:
        key = (r["aten"], r["diopi"], r["phase"])
        m = merged.get(key)
        if m is None:
            merged[key] = dict(r)
            continue
        m["calls"] += r["calls"]
        m["ns"] += r["ns"]
        m["kernel_ns"] += r["kernel_ns"]
        if r["max_ns"] > m["max_ns"]:
            m["max_ns"], m["slowest"] = r["max_ns"], r["slowest"]
    total = sum(m["ns"] for m in merged.values()) or 1
    rows = []
    for m in merged.values():
        rows.append({"aten": m["aten"], "diopi": m["diopi"], "phase": m["phase"], "calls": m["calls"],
                     "total_ms": m["ns"] / 1e6, "mean_us": m["ns"] / max(m["calls"], 1) / 1e3, "max_us": m["max_ns"] / 1e3,
                     "kernel_ms": m["kernel_ns"] / 1e6, "share": m["ns"] / total, "slowest": m["slowest"]})
    rows.sort(key=lambda r: -r["total_ms"])
    return rows


def op_timer():
    """A new OpTimer: use it as a context manager, or call start() and stop()."""
    return OpTimer()
