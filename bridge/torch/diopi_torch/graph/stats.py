"""Counters of the compile route, read by diopi_torch.stats()["graph"] and
`models.sh --compile --json`.

    graphs            graphs dynamo handed to the backend
    graph_breaks      graph breaks dynamo reported (its own counter)
    compiled_graphs   aot_autograd graphs lowered, by stage (forward, backward, inference)
    symbolic_graphs   compiled graphs with symbolic sizes, by stage (each also counted in compiled_graphs)
    shape_bindings    concrete plans made for a binding of a symbolic graph's sizes (graph/dynamic.py); their
                      nodes count below like a static graph's
    partitions        native plans made (one per graph when nothing is split off)
    compiled_nodes    nodes lowered to DIOPI calls; view_nodes: views resolved in plans
    diopi_steps       DIOPI calls in the plans (one run of each)
    fallback_nodes    nodes left to the eager device, with their reasons (not counted: host_nodes, work on
                      CPU tensors only, and transfer_nodes, copies between host and device)
    replanned         plan steps re-run on the eager device after the library refused them
    compile_seconds   by stage: backend (dynamo and aot_autograd tracing), lower (lowering and planning), cc (C compiler),
                      vendor (offering plans to the vendor's graph compiler; a part of lower)
    vendor_compiler   the loaded library's graph compiler (diopi/graph.h), "" when it has none or DIOPI_GRAPH_COMPILER=0
    vendor_graphs     executables of that compiler serving plan steps (graph/vendor.py)
    vendor_nodes      plan steps (DIOPI calls) they serve; the rest of diopi_steps run call by call
    vendor_declined_nodes   steps the compiler declined (they run call by call)
    vendor_unexpressed_nodes  steps the graph form cannot hold (outputs the library allocates), never offered
    vendor_compile_failures plans the compiler failed on (run call by call), with vendor_failure_reasons
    vendor_left       DIOPI functions of the declined and unexpressed steps, with their counts
    cache             compiled libraries: hits, misses (built), rebuilt (corrupt or stale entries), compiler invocations
"""
from __future__ import annotations

import collections
import threading

from . import lower, runtime

_lock = threading.Lock()


def _fresh():
    return {"graphs": 0, "graph_breaks": 0, "compiled_graphs": collections.Counter(), "partitions": 0,
            "compiled_nodes": 0, "view_nodes": 0, "diopi_steps": 0, "fused": collections.Counter(),
            "fallback_nodes": 0, "fallback_reasons": collections.Counter(), "fallback_list": [],
            "host_nodes": 0, "transfer_nodes": 0, "symbolic_graphs": collections.Counter(), "shape_bindings": 0,
            "compile_seconds": collections.Counter(), "vendor_compiler": "", "vendor_graphs": 0, "vendor_nodes": 0,
            "vendor_declined_nodes": 0, "vendor_unexpressed_nodes": 0, "vendor_compile_failures": 0,
            "vendor_failure_reasons": collections.Counter(), "vendor_left": collections.Counter(),
            "cache": collections.Counter()}


_stats = _fresh()
_breaks_at_reset = 0


def _dynamo_breaks():
    from torch._dynamo.utils import counters
    return sum(counters["graph_break"].values())


def record_backend(seconds_outside_lowering):
    with _lock:
        _stats["graphs"] += 1
        _stats["compile_seconds"]["backend"] += seconds_outside_lowering


def snapshot_seconds():
    """Seconds spent lowering and compiling so far (the backend's own time is measured around them)."""
    with _lock:
        return _stats["compile_seconds"]["lower"] + _stats["compile_seconds"]["cc"]


def record_symbolic(stage, seconds):
    with _lock:
        _stats["compiled_graphs"][stage] += 1
        _stats["symbolic_graphs"][stage] += 1
        _stats["compile_seconds"]["lower"] += seconds


def record_compile(stage, lowerings, natives, seconds, bound=False):
    with _lock:
        if bound:
            _stats["shape_bindings"] += 1
        else:
            _stats["compiled_graphs"][stage] += 1
        _stats["partitions"] += len(natives)
        _stats["compile_seconds"]["lower"] += seconds
        for lw in lowerings.values():
            if lw.kind == lower.CALL:
                _stats["compiled_nodes"] += 1
            elif lw.kind == lower.VIEW:
                _stats["view_nodes"] += 1
            elif lw.kind == lower.HOST:
                _stats["host_nodes"] += 1
            elif lw.kind == lower.TRANSFER:
                _stats["transfer_nodes"] += 1
            elif lw.kind == lower.UNSERVED:
                _stats["fallback_nodes"] += 1
                _stats["fallback_reasons"][f"{lw.aten or lw.node.target}: {lw.reason}"] += 1
                _stats["fallback_list"].append({"stage": stage, "node": lw.node.name, "aten": lw.aten,
                                                "reason": lw.reason, "source": lower.source_line(lw.node)})
        for n in natives:
            _stats["diopi_steps"] += len(n.plan.steps)


def record_vendor(name, graphs, nodes, declined, unexpressed, failure, seconds, left=()):
    with _lock:
        _stats["vendor_left"].update(left)
        _stats["vendor_compiler"] = name
        _stats["vendor_graphs"] += graphs
        _stats["vendor_nodes"] += nodes
        _stats["vendor_declined_nodes"] += declined
        _stats["vendor_unexpressed_nodes"] += unexpressed
        _stats["compile_seconds"]["vendor"] += seconds
        if failure is not None:
            _stats["vendor_compile_failures"] += 1
            _stats["vendor_failure_reasons"][failure[:300]] += 1


def record_fused(pattern, n=1):
    with _lock:
        _stats["fused"][pattern] += n


def record_cc(seconds):
    with _lock:
        _stats["compile_seconds"]["cc"] += seconds


def record_cache(event, n=1):
    with _lock:
        _stats["cache"][event] += n


def reset():
    global _stats, _breaks_at_reset
    with _lock:
        _stats = _fresh()
        _breaks_at_reset = _dynamo_breaks()


def snapshot():
    """The counters as plain data (with the graph breaks dynamo counted and the calls made so far)."""
    with _lock:
        s = {k: (dict(v) if isinstance(v, collections.Counter) else (list(v) if isinstance(v, list) else v))
             for k, v in _stats.items()}
    s["graph_breaks"] = _dynamo_breaks() - _breaks_at_reset  # dynamo's own counter, since the last reset
    calls, replanned = runtime.op_counts()
    s["diopi_calls"] = sum(calls.values())
    s["replanned"] = [{"graph": g, "node": n, "aten": a, "diopi": f, "runs": r} for (g, n, a, f), r in replanned.items()]
    return s
