"""From an aot_autograd graph to one native call per partition.

    fn = compile_graph(gm, example_inputs, "forward")   # boxed: fn(list_of_args)

Every node is lowered (lower.classify). When all are served, the graph is
one plan and one call of the runner. Otherwise the graph is split
(torch.fx's CapabilityBasedPartitioner): each run of served nodes becomes a
plan, and the unserved nodes stay in the outer graph, where they run as
ordinary ATen calls on the `diopi` device (its kernel or its counted CPU
fallback). With DIOPI_FALLBACK=error an unserved node is an error naming it,
its reason and the source line it came from.
"""
from __future__ import annotations

import ctypes
import functools
import os
import time

import torch

from .. import _C
from ..ops import mapping
from . import lower, stats
from .plan import PlanError, Planner


@functools.lru_cache(maxsize=None)
def _mapping():
    return mapping.load()


@functools.lru_cache(maxsize=None)
def _functions():
    return mapping.header_functions()


@functools.lru_cache(maxsize=4)
def exported_functions(library):
    """DIOPI functions the loaded vendor library exports (as the eager device finds them: dlsym)."""
    lib = ctypes.CDLL(library)
    return frozenset(name for name in _functions() if hasattr(lib, name))


def context():
    info = _C.info()
    if not info.get("library"):
        raise _C.DiopiError("torch.compile(backend='diopi') needs a vendor library: diopi_torch.load(path)")
    return _mapping(), _functions(), exported_functions(info["library"])


def _native(plan, name, functions, exported):
    """The plan in the runner, its C library built (or found in the cache) as DIOPI_GRAPH_COMPILE says."""
    from . import cache, capture, vendor
    from .runtime import NativeGraph
    native = NativeGraph(plan, name)
    if capture.directory():  # written at its first run, from the per-call route (capturing never offers)
        capture.attach(native, functions)
    if not vendor.offer(native, functions):  # the steps the vendor's graph compiler does not serve run call by call
        cache.schedule(native, functions, _C.info()["library"], exported)
    return native


def _fallback_error():
    return os.environ.get("DIOPI_FALLBACK", "cpu") == "error"


class PlanModule(torch.nn.Module):
    """A partition of the split graph, run as one native call."""

    def __init__(self, native, plan, single):
        super().__init__()
        self.native = native
        self.plan = plan
        self.single = single

    def forward(self, *args):
        outs = _assemble(self.native.run(list(args)), self.plan.outputs)
        return outs[0] if self.single else tuple(outs)


def _assemble(results, outputs):
    return [results[i] if kind == "ref" else i for kind, i in outputs]


def compile_graph(gm: torch.fx.GraphModule, example_inputs, stage: str, name: str = "", options=None, bound=False):
    t0 = time.perf_counter()
    options = options or {}
    from . import dynamic
    if not bound and dynamic.is_symbolic(gm):  # one plan per binding of its sizes, made on first use
        fn = dynamic.SymbolicGraph(gm, lambda g, args: compile_graph(g, args, stage, name, options, bound=True))
        stats.record_symbolic(stage, time.perf_counter() - t0)
        return fn
    amap, functions, exported = context()
    if _same_device_casts(gm) + _number_divisors(gm):
        gm.recompile()  # the split graph runs the nodes left to the eager device as code
    lowerings = {}
    for node in gm.graph.nodes:
        if node.op == "call_function":
            lowerings[node.name] = lower.classify(node, amap, exported)
    forced = {}
    while True:
        for n, why in forced.items():
            lowerings[n] = lower.Lowering(lowerings[n].node, lower.UNSERVED, lowerings[n].aten, reason=why)
        unserved = [lw for lw in lowerings.values() if lw.kind == lower.UNSERVED]
        outside = [lw for lw in lowerings.values() if lw.kind in (lower.UNSERVED, lower.HOST, lower.TRANSFER)]
        if unserved and _fallback_error():
            lw = unserved[0]
            raise RuntimeError(f"diopi graph: node {lw.node.name} ({lw.aten or lw.node.target}) is not served: {lw.reason}; "
                               f"from {lower.source_line(lw.node)}; DIOPI_FALLBACK=error forbids running it on the "
                               "eager device")
        try:
            if not outside:
                fn, parts = _whole(gm, amap, functions, exported, lowerings, name or stage)
            else:
                fn, parts = _split(gm, amap, functions, exported, lowerings, name or stage)
            break
        except PlanError as e:
            if not e.args or len(e.args) < 2 or e.args[1] in forced:
                raise
            forced[e.args[1]] = f"not planned: {e.args[0]}"
    stats.record_compile(stage, lowerings, parts, time.perf_counter() - t0, bound=bound)
    return fn


def _same_device_casts(gm):
    """`x.to(device=x.device, dtype=...)` reaches the graph as a _to_copy naming the device it is already on
    (T5's attention mask in generation): only a cast, which is what the mapping serves, so the device and a
    strided layout are dropped. Returns how many nodes changed."""
    changed = 0
    for node in gm.graph.nodes:
        if node.op != "call_function" or node.target is not torch.ops.aten._to_copy.default:
            continue
        src, out = lower.fake(node.args[0]), lower.fake(node)
        if not isinstance(src, torch.Tensor) or not isinstance(out, torch.Tensor) or src.device != out.device:
            continue
        kwargs = dict(node.kwargs)
        if kwargs.get("device") is not None and torch.device(kwargs["device"]) == src.device:
            del kwargs["device"]
        if kwargs.get("layout") == torch.strided and src.layout == torch.strided:
            del kwargs["layout"]
        if kwargs != node.kwargs:
            node.kwargs = kwargs
            changed += 1
    return changed


def _number_divisors(gm):
    """`t // 2` reaches the graph as floor_divide(Tensor, Tensor) with a number for the divisor: it is the
    Scalar overload, which the mapping serves with a scalar argument. Returns how many nodes changed."""
    changed = 0
    for node in gm.graph.nodes:
        if (node.op == "call_function" and node.target is torch.ops.aten.floor_divide.default and len(node.args) == 2
                and isinstance(node.args[1], (int, float)) and not node.kwargs):
            node.target = torch.ops.aten.floor_divide.Scalar
            changed += 1
    return changed


def _plan(gm, amap, functions, exported, lowerings):
    return Planner(gm, amap, functions, exported, lowerings).build()


def _whole(gm, amap, functions, exported, lowerings, name):
    from . import autocompare
    checker = None
    if autocompare.enabled():  # every node's result kept and compared with eager CPU after each run
        gm, n_outputs, kept = autocompare.keep_everything(gm)
        lowerings = dict(lowerings)
    plan = _plan(gm, amap, functions, exported, lowerings)
    native = _native(plan, name, functions, exported)
    placeholders = [n for n in gm.graph.nodes if n.op == "placeholder"]
    position = {n: i for i, n in enumerate(placeholders)}
    take = [position[n] for n in plan.inputs]
    outputs = plan.outputs
    run = native.run
    if autocompare.enabled():
        checker = autocompare.Checker(gm, plan, n_outputs, kept)

    def compiled(args):
        results = run([args[i] for i in take])
        results = [results[i] if kind == "ref" else i for kind, i in outputs]
        if checker is not None:
            checker.check(list(args), results)
            results = results[:checker.n_outputs]
        args.clear()  # boxed calling convention: inputs are not kept alive longer than the call
        return results
    compiled._boxed_call = True
    compiled.natives = [native]
    return compiled, [native]


def _split(gm, amap, functions, exported, lowerings, name):
    from torch.fx.passes.infra.partitioner import CapabilityBasedPartitioner
    from torch.fx.passes.operator_support import OperatorSupportBase

    served = {lower.CALL, lower.VIEW, lower.ALLOC}

    class Support(OperatorSupportBase):
        def is_node_supported(self, submodules, node):
            if node.op != "call_function":
                return False
            lw = lowerings.get(node.name)
            if lw is None:
                return False
            if lw.kind == lower.ITEM:  # with the node whose result it picks
                src = lowerings.get(node.args[0].name)
                return src is not None and src.kind in served
            return lw.kind in served

    split = CapabilityBasedPartitioner(gm, Support(), allows_single_node_partition=True).partition_and_fuse()
    natives = []
    for node in list(split.graph.nodes):
        if node.op != "call_module":
            continue
        sub = getattr(split, node.target)
        if isinstance(sub, PlanModule):  # a partition called from two places
            continue
        for ph, arg in zip([n for n in sub.graph.nodes if n.op == "placeholder"], node.args):
            if "val" not in ph.meta and isinstance(arg, torch.fx.Node):
                ph.meta["val"] = arg.meta.get("val")
        out = next(n for n in sub.graph.nodes if n.op == "output")
        single = not isinstance(out.args[0], (list, tuple))
        if single:  # the planner reads a list of outputs
            out.args = ([out.args[0]],)
        sub_lowerings = {n.name: lowerings[n.name] for n in sub.graph.nodes if n.name in lowerings}
        for n in sub.graph.nodes:
            if n.op == "call_function" and n.name not in sub_lowerings:
                sub_lowerings[n.name] = lower.classify(n, amap, exported)
        plan = _plan(sub, amap, functions, exported, sub_lowerings)
        native = _native(plan, f"{name}.{node.target}", functions, exported)
        natives.append(native)
        setattr(split, node.target, PlanModule(native, plan, single))
    split.recompile()

    def compiled(args):
        out = split(*args)
        args.clear()
        return list(out) if isinstance(out, (list, tuple)) else [out]
    compiled._boxed_call = True
    compiled.natives = natives
    compiled.graph_module = split
    return compiled, natives
