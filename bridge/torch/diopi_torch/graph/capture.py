"""Captured graphs: the plans of the compile route written as diopi/graph.h graphs, for the harness to replay.

    DIOPI_GRAPH_CAPTURE=DIR python -m diopi_torch.suite --compile --models bert   # or models.sh --capture_graphs DIR
    python main.py --mode graph_replay --graphs DIR --impl_lib LIB                 # diopi_test/python

With DIOPI_GRAPH_CAPTURE=DIR set, every plan the compile route makes that the
graph form can hold as ONE graph (every step expressible, no cut, by the rules
of graph/vendor.py) is written at its first run as

    DIR/<model>-<plan name>-<n>.json   the graph (the format below)
    DIR/<model>-<plan name>-<n>.npz    its input values, and the output values the per-call route computed

A plan that cannot be one graph is not written; it is counted with its reason
in DIR/not_captured.jsonl (one JSON object a line: model, plan, steps, reason)
and in summary(). Capturing never offers plans to the vendor's graph compiler
(vendor.enabled() is false while DIOPI_GRAPH_CAPTURE is set), so the recorded
outputs are always those of the per-call route of the capturing library
(impl/torch or impl/cpu, the reference of the replay). DIOPI_GRAPH_CAPTURE_MODEL
names the model in the file names (the suite sets it; default "model").

The JSON (one object; the runner's describe() writes the graph part from the
same structs offer() hands the vendor, csrc/graph/runner.cpp):

    format        "diopi-graph"
    version       DIOPI_GRAPH_VERSION of the header the bridge was built with (1000)
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
                  Non-finite floats are written NaN, Infinity, -Infinity (as Python's json reads them).
    capture       {model, plan, library, values}: where it came from; `values` the npz file's name

The npz holds `input<i>` (graph input i), `output<i>` (graph output i after the
per-call run) and `initial<i>` (graph output i before the run, for outputs whose
memory existed before the run: an input the graph writes, which a node may read
before writing it). Arrays are contiguous, of the tensor's dtype; bfloat16 is
kept as its uint16 bit patterns.
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
_counts = {"captured": 0, "not_captured": 0}
_reasons = {}   # reason -> plans


def directory():
    return os.environ.get("DIOPI_GRAPH_CAPTURE", "")


def summary():
    """One line: plans captured, plans not captured and why."""
    with _lock:
        why = "; ".join(f"{n} {r}" for r, n in sorted(_reasons.items(), key=lambda x: -x[1]))
        return (f"graph capture: {_counts['captured']} plans captured, {_counts['not_captured']} not"
                + (f" ({why})" if why else "") + f" -> {directory()}")


def _skip(model, name, steps, reason):
    with _lock:
        _counts["not_captured"] += 1
        _reasons[reason.split(":")[0]] = _reasons.get(reason.split(":")[0], 0) + 1
    os.makedirs(directory(), exist_ok=True)
    with open(os.path.join(directory(), "not_captured.jsonl"), "a") as f:
        f.write(json.dumps({"model": model, "plan": name, "steps": steps, "reason": reason}) + "\n")


def _one_graph(plan, functions):
    """(graph, accesses) of the whole plan as one graph, or (None, why)."""
    acc = vendor._accesses(plan, functions)
    for k, a in enumerate(acc):
        if a is None:
            return None, f"not expressible: step {k} ({plan.steps[k].fn}) has an output the library allocates or an unknown signature"
        if not vendor._alone(a, plan.refs):
            return None, f"not expressible: step {k} ({plan.steps[k].fn}) writes a memory it also reaches another way"
    segs = vendor._segments(plan, acc, set(), set())
    if len(segs) != 1:
        k = segs[1].start if len(segs) > 1 else 0
        return None, f"cut: step {k} ({plan.steps[k].fn}) reaches a memory written in the graph through a second reference"
    k = vendor._overlap_cut(segs[0], acc, plan.refs)
    if k is not None:
        return None, f"cut: step {k} ({plan.steps[k].fn}) uses arena bytes another caller's memory of the graph used"
    return segs[0], acc


def attach(native, functions):
    """Captures the plan of `native` at its first run (DIOPI_GRAPH_CAPTURE set)."""
    from .plan import _dtype_codes
    from .runtime import _ops
    plan = native.plan
    model = os.environ.get("DIOPI_GRAPH_CAPTURE_MODEL", "model")
    if not plan.steps:
        return
    g, acc = _one_graph(plan, functions)
    if g is None:
        _skip(model, native.name, len(plan.steps), acc)
        return
    text = vendor._tensors(g, acc, plan.refs, _dtype_codes())
    refs = [int(line.split()[-1]) for line in text.splitlines()[1:]]  # graph tensor -> plan reference
    try:
        described = _ops().describe(native.id, 0, len(plan.steps), text, native.name)
        graph = json.loads(described)
    except Exception as e:  # a form describe() refuses is a plan not captured, not a failed compile
        _skip(model, native.name, len(plan.steps), f"not described: {e}")
        return
    original = native.run
    state = {"done": False}

    def first_run(inputs):
        if state["done"]:
            return original(inputs)
        state["done"] = True
        native.run = original
        try:
            before = {t["role"] + str(t["index"]): _host(_value(plan, plan.refs[r], inputs, None))
                      for t, r in zip(graph["tensors"], refs) if t["role"] == "input" or
                      (t["role"] == "output" and plan.refs[r].base[0] in ("i", "c"))}
        except _NotTaken as e:
            _skip(model, native.name, len(plan.steps), f"values not taken: {e}")
            return original(inputs)
        results = original(inputs)
        try:
            after = {f"output{t['index']}": _host(_value(plan, plan.refs[r], inputs, results))
                     for t, r in zip(graph["tensors"], refs) if t["role"] == "output"}
        except _NotTaken as e:
            _skip(model, native.name, len(plan.steps), f"values not taken: {e}")
            return results
        arrays = {k.replace("output", "initial") if k.startswith("output") else k: v for k, v in before.items()}
        arrays.update(after)
        _write(model, native.name, described, arrays)
        return results

    native.run = first_run


class _NotTaken(Exception):
    pass


def _value(plan, tv, inputs, results):
    """The tensor a plan reference is in this run (inputs; output buffers once `results` are there)."""
    import torch
    kind, what = tv.base
    size = torch.empty(0, dtype=tv.dtype).element_size()
    if kind in ("i", "c"):
        base = inputs[what] if kind == "i" else plan.consts[what]
        start = base.storage_offset() * base.element_size()
    else:
        if results is None or what.output is None:
            raise _NotTaken("an output buffer read before the run")
        for j, r in enumerate(plan.out_refs):
            rb = plan.refs[r].base
            if rb[0] == "b" and rb[1] is what:
                base = results[j]
                start = base.storage_offset() * base.element_size() - plan.refs[r].byte_offset
                break
        else:
            raise _NotTaken("an output buffer the plan does not return")
    if base.dtype != tv.dtype:
        raise _NotTaken(f"{base.dtype} memory read as {tv.dtype}")
    return torch.as_strided(base, tv.sizes, tv.strides, (start + tv.byte_offset) // size)


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


def _write(model, name, described, arrays):
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
