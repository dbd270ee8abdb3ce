"""A plan held by the runner of the `diopi` extension (csrc/graph_runner.cpp).

    native = NativeGraph(plan, "forward")
    outputs = native.run(inputs)     # one call: every DIOPI call of the plan

The runner is reached through the operators it registers (torch.ops.diopi_graph):
one dispatcher call per graph run, none per DIOPI call.
"""
from __future__ import annotations

import functools
import threading
import weakref

import torch

from .. import _C

_lock = threading.Lock()
_live = weakref.WeakSet()       # NativeGraph objects alive, for the counters
_retired = {}                   # counts of destroyed plans: (aten, fn) -> calls


def _ops():
    _C.extension()  # registers torch.ops.diopi_graph
    return torch.ops.diopi_graph


def _destroy(plan_id, steps, ops):
    try:
        counts = ops.counts(plan_id)
        _fold(steps, counts)
        ops.destroy(plan_id)
    except Exception:  # interpreter shutdown: nothing left to count
        pass


def _fold(steps, counts):
    runs = counts[0]
    with _lock:
        for s, eager in zip(steps, counts[2:]):
            key = (s.aten, s.fn)
            _retired[key] = _retired.get(key, 0) + runs - eager


class NativeGraph:
    def __init__(self, plan, name):
        self.plan = plan
        self.name = name
        ops = _ops()
        self.id = ops.create(plan.text, plan.consts)
        self.run = functools.partial(ops.run, self.id)
        self.compiled_library = ""
        self.vendor_steps = 0       # steps the vendor's graph compiler serves (graph/vendor.py)
        self.compile_error = ""
        _live.add(self)
        self._finalizer = weakref.finalize(self, _destroy, self.id, plan.steps, ops)

    def counts(self):
        """(runs, runs through the compiled library, eager re-runs per step)."""
        c = _ops().counts(self.id)
        return c[0], c[1], c[2:]

    def reset_counts(self):
        _ops().reset_counts(self.id)

    def attach(self, path, key):
        """Use the compiled library at `path` from the next run on; "" or why it cannot be used."""
        why = _ops().attach(self.id, path, key)
        if not why:
            self.compiled_library = path
        return why

    def vendor_runs(self):
        """Runs of the executables of the vendor's graph compiler (one per executable per run of the plan)."""
        return _ops().vendor_runs(self.id)

    def vendor_segments(self):
        """The step ranges [(start, stop)] the vendor's executables serve."""
        s = _ops().vendor_segments(self.id)
        return list(zip(s[0::2], s[1::2]))

    def set_eager(self, step, on=True):
        _ops().set_eager(self.id, step, on)


def op_counts():
    """DIOPI calls made by compiled graphs: (aten, DIOPI function) -> calls, and step re-runs on the eager device."""
    out = dict(_retired)
    replanned = {}
    for g in list(_live):
        runs, _, eager = g.counts()
        for s, e in zip(g.plan.steps, eager):
            key = (s.aten, s.fn)
            out[key] = out.get(key, 0) + runs - e
            if e:
                replanned[(g.name, s.node, s.aten, s.fn)] = e
    return out, replanned


def reset_counts():
    with _lock:
        _retired.clear()
    for g in list(_live):
        g.reset_counts()


def live():
    return list(_live)
