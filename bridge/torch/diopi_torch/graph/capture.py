"""Captured graphs: the plans of the compile route written as diopi/graph.h graphs, for the harness to replay.

    DIOPI_GRAPH_CAPTURE=DIR python -m diopi_torch.suite --compile --models bert   # or models.sh --capture_graphs DIR
    python main.py --mode graph_replay --graphs DIR --impl_lib LIB                 # diopi_test/python

With DIOPI_GRAPH_CAPTURE=DIR set, the compile route splits each plan into the
graphs it would offer a vendor's graph compiler (graph/vendor.py: every step the
graph form can hold, in maximal runs under its rules; a plan without a cut is
one graph) and, at the plan's first run, writes each as

    DIR/<model>-<plan name>[_<start>_<stop>]-<n>.json   the graph (the format below)
    DIR/<model>-<plan name>[_<start>_<stop>]-<n>.npz    its values (below)

The first run is the runner's run_snapshots(): the per-call route, with the
run's memory copied before each graph's first step and after its last, so a
graph in the middle of a plan gets the values its inputs and outputs had there.
Steps the graph form cannot hold are not captured; each is counted with its
reason in DIR/not_captured.jsonl (one JSON object a line: model, plan, step,
function, reason) and in summary(). Capturing never offers plans to the
vendor's graph compiler (vendor.enabled() is false while DIOPI_GRAPH_CAPTURE is
set), so the recorded outputs are always those of the per-call route of the
capturing library (impl/torch: the reference; a vendor: its own per-call route). DIOPI_GRAPH_CAPTURE_MODEL names
the model in the file names (the suite sets it; default "model").

The JSON (one object; the runner's describe() writes the graph part from the
same structs offer() hands the vendor, csrc/graph/runner.cpp):

    format        "diopi-graph"
    version       DIOPI_GRAPH_VERSION of the header the bridge was built with (1100)
    name          the graph's name
    num_inputs, num_outputs, num_symbols    as in diopiGraph_t
    tensors       [{role, index, dtype, shape, stride, view_of, offset, first_use, last_use}], in graph order:
                  role is "input" | "output" | "intermediate" | "constant" | "view" (diopiGraphTensorRole_t),
                  dtype a diopiDtype_t name without its prefix ("float32"), stride a list or null (contiguous);
                  the other fields as in diopiGraphTensor_t (constants are never captured: their data stays inputs)
    nodes         [{function, args: [{kind, ...}]}]: kind is a diopiGraphArgKind_t name without its prefix:
                  "none", "generator" (no value); "tensor", "int" (value: integer); "float" (value: number);
                  "tensor_list", "int_array" (value: list of integers); "string" (value: string);
                  "scalar" (dtype: "float64" | "int64" | "bool", value: number)
                  ("symbolic_int_array" and "symbolic_int" exist in the form since 1.1; the route's graphs have
                  concrete sizes and never hold them)
                  Non-finite floats are written NaN, Infinity, -Infinity (as Python's json reads them).
    capture       {model, plan, library, values}: where it came from; `values` the npz file's name

The npz holds `input<i>` (graph input i), `output<i>` (graph output i after the
graph's steps ran call by call) and `initial<i>` (graph output i before them: a
node may read an output before writing it -- in-place functions, running
statistics -- so a replay starts every output from these contents). Arrays are
contiguous, of the tensor's dtype; bfloat16 is kept as its uint16 bit patterns.
"""
from __future__ import annotations

import json
import os
import re
import threading

import numpy as np

from . import vendor

FORMAT = "diopi-graph"
_lock = threading.Lock()
_counts = {"captured": 0, "steps": 0, "plans": 0, "whole": 0, "not_captured": 0}
_reasons = {}   # "function (reason)" -> steps (or graphs) not captured


def directory():
    return os.environ.get("DIOPI_GRAPH_CAPTURE", "")


def summary():
    """One line: graphs captured (from how many plans, how many whole), steps not captured and why."""
    with _lock:
        c = _counts
        why = ", ".join(f"{n} {r}" for r, n in sorted(_reasons.items(), key=lambda x: -x[1]))
        return (f"graph capture: {c['captured']} graphs ({c['steps']} steps) from {c['plans']} plans, {c['whole']} of "
                f"them one graph whole; {c['not_captured']} steps not captured" + (f": {why}" if why else "")
                + f" -> {directory()}")


def _skip(model, name, step, fn, reason):
    with _lock:
        _counts["not_captured"] += 1
        key = f"{fn} ({reason.split(':')[0]})"
        _reasons[key] = _reasons.get(key, 0) + 1
    os.makedirs(directory(), exist_ok=True)
    with open(os.path.join(directory(), "not_captured.jsonl"), "a") as f:
        f.write(json.dumps({"model": model, "plan": name, "step": step, "function": fn, "reason": reason}) + "\n")


def attach(native, functions):
    """Captures the graphs of the plan of `native` at its first run (DIOPI_GRAPH_CAPTURE set)."""
    from .runtime import _ops
    plan = native.plan
    model = os.environ.get("DIOPI_GRAPH_CAPTURE_MODEL", "model")
    if not plan.steps:
        return
    acc = vendor.expressible(plan, functions)
    for k, a in enumerate(acc):
        if a is None:
            _skip(model, native.name, k, plan.steps[k].fn, "not expressible: an output the library allocates, an "
                  "unknown signature, or a memory the step also reaches another way")
    graphs = []
    for g in vendor.graphs_of(plan, acc, set(), set()):
        text = vendor.tensors(g, acc, plan.refs)
        refs = [int(line.split()[-1]) for line in text.splitlines()[1:]]  # graph tensor -> plan reference
        name = native.name if (g.start, g.stop) == (0, len(plan.steps)) else f"{native.name}[{g.start}:{g.stop}]"
        try:
            described = _ops().describe(native.id, g.start, g.stop, text, name)
            graphs.append((g, refs, name, described, json.loads(described)))
        except Exception as e:  # a form describe() refuses is a graph not captured, not a failed compile
            _skip(model, native.name, g.start, plan.steps[g.start].fn, f"not described: {e}")
    if not graphs:
        return
    with _lock:
        _counts["plans"] += 1
        _counts["whole"] += len(graphs) == 1 and (graphs[0][0].start, graphs[0][0].stop) == (0, len(plan.steps))
    original = native.run
    at = sorted({k for g, *_ in graphs for k in (g.start, g.stop)})
    done = []

    def first_run(inputs):
        # One capture per plan, at its first run (callers may hold this function itself, not native.run).
        native.run = original
        if done:
            return original(inputs)
        done.append(True)
        results, snaps = _ops().run_snapshots(native.id, inputs, at)
        per = 1 + len(plan.output_bytes) + len(inputs)
        memory = {k: _Memory([s.cpu() for s in snaps[i * per:(i + 1) * per]], len(plan.output_bytes), inputs)
                  for i, k in enumerate(at)}
        for g, refs, name, described, form in graphs:
            try:
                arrays = {}
                for t, r in zip(form["tensors"], refs):
                    tv = plan.refs[r]
                    if t["role"] == "input":
                        arrays[f"input{t['index']}"] = _host(memory[g.start].value(plan, tv))
                    elif t["role"] == "output":
                        arrays[f"initial{t['index']}"] = _host(memory[g.start].value(plan, tv))
                        arrays[f"output{t['index']}"] = _host(memory[g.stop].value(plan, tv))
            except _NotTaken as e:
                _skip(model, name, g.start, plan.steps[g.start].fn, f"values not taken: {e}")
                continue
            _write(model, name, described, arrays, g.stop - g.start)
        return results

    native.run = first_run


class _NotTaken(Exception):
    pass


class _Memory:
    """A run's memory before one step, as run_snapshots() copied it: the arena, output buffers, inputs' storages."""

    def __init__(self, snaps, n_outs, inputs):
        self.arena, self.outs, self.inputs = snaps[0], snaps[1:1 + n_outs], snaps[1 + n_outs:]
        self.input_offsets = [t.storage_offset() * t.element_size() for t in inputs]

    def value(self, plan, tv):
        """The tensor a plan reference is at that point, on the host."""
        import torch
        kind, what = tv.base
        if kind == "c":
            c = plan.consts[what]
            data, start = _bytes_of(c), c.storage_offset() * c.element_size()
        elif kind == "i":
            data, start = self.inputs[what], self.input_offsets[what]
        elif what.output is not None:
            data, start = self.outs[what.output], 0
        else:
            data, start = self.arena, what.offset
        start += tv.byte_offset
        size = torch.empty(0, dtype=tv.dtype).element_size()
        span = 0 if any(s == 0 for s in tv.sizes) else 1 + sum((s - 1) * st for s, st in zip(tv.sizes, tv.strides))
        if start < 0 or start + span * size > data.numel():
            raise _NotTaken("a reference outside its memory")
        flat = data[start:start + span * size].clone().view(tv.dtype) if span else torch.empty(0, dtype=tv.dtype)
        return torch.as_strided(flat, tv.sizes, tv.strides, 0) if span else torch.empty(tv.sizes, dtype=tv.dtype)


def _bytes_of(t):
    """The bytes of a tensor's whole storage, on the host."""
    import torch
    s = t.untyped_storage().cpu()
    return torch.empty(0, dtype=torch.uint8).set_(s, 0, (s.nbytes(),), (1,))


def _host(t):
    """A contiguous numpy copy (host copy: capture is a tool run on the host side, after the device finishes)."""
    import torch
    t = t.detach().cpu().contiguous()
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(np.uint16).copy()
    if t.is_complex() and t.dtype == torch.complex32:
        raise _NotTaken("complex32 has no numpy dtype")
    return t.numpy().copy()


def _safe(s):
    return re.sub(r"[^A-Za-z0-9_.]+", "_", s).strip("_") or "graph"


def _write(model, name, described, arrays, steps):
    d = directory()
    os.makedirs(d, exist_ok=True)
    stem = f"{_safe(model)}-{_safe(name)}"
    n = 0
    while True:  # the first free number: several processes may capture into one folder
        path = os.path.join(d, f"{stem}-{n}.json")
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            break
        except FileExistsError:
            n += 1
    from .. import _C
    npz = f"{stem}-{n}.npz"
    np.savez(os.path.join(d, npz), **arrays)
    where = {"model": model, "plan": name, "library": _C.info().get("library", ""), "values": npz}
    body = described.rstrip()
    assert body.endswith("}")
    with os.fdopen(fd, "w") as f:  # describe()'s text as written (one tensor, one node a line), and where it came from
        f.write(body[:-1].rstrip() + ',\n"capture": ' + json.dumps(where) + "\n}\n")
    with _lock:
        _counts["captured"] += 1
        _counts["steps"] += steps
