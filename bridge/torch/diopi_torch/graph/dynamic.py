"""Graphs with symbolic sizes: one compilation serves every binding of the symbols.

When Dynamo marks a size dynamic (a second sequence length, by default), aot_autograd hands the
backend graphs whose sizes are expressions of the graph's symbols (SymInt placeholders, tensors of
size s0). The route compiles such a graph once into a SymbolicGraph; each call binds the symbols
from its arguments (tensor sizes and strides, SymInt inputs), and the plan for that binding -- the
graph with every size concrete, its sizes, strides and arena offsets evaluated for those values,
planned as a static graph -- is made on the binding's first call and kept. A new length costs a
plan (a fake-tensor pass and the planner), never a Dynamo or aot_autograd recompilation, and no
node is left to the eager device for being symbolic.
"""
from __future__ import annotations

import math
import operator
import threading

import torch

# Scalar arithmetic on the symbols: folded into constants once the symbols are bound.
_SYM_OPS = {getattr(operator, n) for n in ("add", "sub", "mul", "floordiv", "truediv", "mod", "neg", "pow", "eq",
                                           "ne", "lt", "le", "gt", "ge", "and_", "or_", "not_")}
_SYM_OPS |= {math.ceil, math.floor, math.sqrt, torch.sym_int, torch.sym_float, torch.sym_max, torch.sym_min,
             torch.sym_not, torch.sym_sqrt, torch.sym_ite}
_SYM_ATEN = {"sym_size", "sym_stride", "sym_numel", "sym_storage_offset"}


def _symbolic_value(v):
    if isinstance(v, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return True
    if isinstance(v, torch.Tensor):
        return any(isinstance(s, torch.SymInt) for s in (*v.shape, *v.stride()))
    if isinstance(v, (list, tuple)):
        return any(_symbolic_value(x) for x in v)
    return False


def is_symbolic(gm: torch.fx.GraphModule) -> bool:
    """Sizes that are expressions of the inputs' sizes only. A data-dependent size (an unbacked symbol, as
    nonzero makes) cannot be bound from the arguments: such a graph stays on the static route, where its
    symbolic nodes are counted fallbacks."""
    from torch.fx.experimental.symbolic_shapes import free_unbacked_symbols
    vals = [n.meta.get("val") for n in gm.graph.nodes]
    if not any(_symbolic_value(v) for v in vals):
        return False
    return not any(free_unbacked_symbols(v) for v in vals if v is not None)


def _is_sym_op(node):
    t = node.target
    if t in _SYM_OPS:
        return True
    return isinstance(t, torch._ops.OpOverload) and t.namespace == "aten" and t._schema.name.split("::")[-1] in _SYM_ATEN


def binding_key(args):
    """What a concrete plan depends on: each tensor's sizes, strides and dtype, each number's value."""
    key = []
    for a in args:
        if isinstance(a, torch.Tensor):
            key.append((tuple(a.shape), tuple(a.stride()), a.dtype))
        elif isinstance(a, (int, float, bool)):
            key.append(a)
        else:
            key.append(type(a).__name__)
    return tuple(key)


def concretize(gm: torch.fx.GraphModule, args) -> torch.fx.GraphModule:
    """A copy of `gm` with every size concrete for `args`: values re-derived by a fake-tensor pass on
    inputs of the arguments' sizes, and the scalar arithmetic on the symbols folded into constants."""
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.passes.fake_tensor_prop import FakeTensorProp
    g = torch.fx.Graph()
    mapping = {}
    out = g.graph_copy(gm.graph, mapping)
    g.output(out)
    new = torch.fx.GraphModule(gm, g)
    mode = FakeTensorMode(allow_non_fake_inputs=True)
    placeholders = [n for n in new.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(args):
        raise RuntimeError(f"diopi graph: {len(args)} arguments for {len(placeholders)} inputs")
    fakes = [mode.from_tensor(a, static_shapes=True) if isinstance(a, torch.Tensor) else a for a in args]
    with mode:
        FakeTensorProp(new, mode).propagate_dont_convert_inputs(*fakes)
    for ph, a in zip(placeholders, args):
        if not isinstance(a, torch.Tensor):
            ph.meta["val"] = a
    for node in list(new.graph.nodes):
        v = node.meta.get("val")
        if _symbolic_value(v):
            raise RuntimeError(f"diopi graph: {node.name} is still symbolic ({v}) once the inputs are bound "
                               "(a data-dependent size)")
        if node.op == "placeholder" and not isinstance(v, torch.Tensor):
            _replace_uses(node, v)
        elif node.op == "call_function" and _is_sym_op(node) and isinstance(v, (int, float, bool)):
            _replace_uses(node, v)
            new.graph.erase_node(node)
    new.graph.lint()
    new.recompile()
    return new


def _replace_uses(node, value):
    for user in list(node.users):
        user.args = torch.fx.node.map_arg(user.args, lambda n: value if n is node else n)
        user.kwargs = torch.fx.node.map_arg(user.kwargs, lambda n: value if n is node else n)


class SymbolicGraph:
    """A symbolic graph as the backend's compiled function (boxed calling convention): one concrete
    plan per binding of its symbols, made on first use by `compile_concrete(gm, args)`."""

    def __init__(self, gm, compile_concrete):
        self.gm = gm
        self.compile_concrete = compile_concrete
        self.plans = {}
        self._lock = threading.Lock()
        self._boxed_call = True

    @property
    def natives(self):
        return [n for fn in self.plans.values() for n in getattr(fn, "natives", [])]

    def __call__(self, args):
        key = binding_key(args)
        fn = self.plans.get(key)
        if fn is None:
            with self._lock:
                fn = self.plans.get(key)
                if fn is None:
                    from . import stats
                    fn = self.compile_concrete(concretize(self.gm, args), list(args))
                    self.plans[key] = fn
        return fn(args)
