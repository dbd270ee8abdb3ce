"""Lowering: which FX node of an ATen graph becomes what in a plan.

Every `call_function` node of an aot_autograd graph is one of:

  call      a mapping entry of aten_to_diopi.yaml applies and the vendor
            exports its DIOPI function: one DIOPI call (plus the copies an
            entry's `init:` asks for)
  view      its result shares the storage of an argument (view, permute,
            slice, expand, split, _unsafe_view, ...): resolved when the plan
            is made, no call
  alloc     an empty tensor: a buffer, no call
  item      `getitem` of a node with several results
  unserved  none of these: the node stays on the eager device (the graph is
            split around it), with the reason
  host      only CPU tensors (a constant the model makes on the host): runs there
  transfer  a copy between the host and the device: the device runtime's copy

Entries are chosen exactly as the eager device's generated kernels choose
them: in file order, the first whose function the library exports and whose
`when:` conditions hold (mapping.Entry.applies, the code model capture uses
too), evaluated on the node's arguments, tensors described by TensorValue.
"""
from __future__ import annotations

import dataclasses
import operator

import torch

from ..ops import mapping, schemas

CALL, VIEW, ALLOC, ITEM, UNSERVED = "call", "view", "alloc", "item", "unserved"
# Nodes a plan leaves to the eager device that are not fallbacks: work on host tensors only (a constant
# made on the CPU), and copies between the host and the device.
HOST, TRANSFER = "host", "transfer"
_COPIES = {"_to_copy", "copy_", "copy", "_copy_from", "lift_fresh_copy"}
# Operators that only allocate: their result is a buffer of the plan.
ALLOC_OPS = {"empty.memory_format", "empty_strided", "new_empty", "new_empty_strided", "empty_like"}


@dataclasses.dataclass(frozen=True)
class TensorValue:
    """A tensor as mapping expressions see it, and where a plan finds it:
    `base` (an input, a buffer, a constant; None while classifying), the byte
    offset in it, sizes, strides and dtype."""
    sizes: tuple
    strides: tuple
    dtype: torch.dtype
    device: torch.device
    base: object = None
    byte_offset: int = 0

    @classmethod
    def of(cls, t: torch.Tensor, base=None, byte_offset=0):
        return cls(tuple(int(s) for s in t.shape), tuple(int(s) for s in t.stride()), t.dtype, t.device, base, byte_offset)

    # The tensor methods mapping expressions may call (mapping.METHODS).
    def dim(self):
        return len(self.sizes)

    def numel(self):
        n = 1
        for s in self.sizes:
            n *= s
        return n

    def is_contiguous(self):
        expected = 1
        for size, stride in zip(reversed(self.sizes), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True

    def unsqueeze(self, d):
        d = d + self.dim() + 1 if d < 0 else d
        inner = self.strides[d] * self.sizes[d] if d < self.dim() else 1
        return dataclasses.replace(self, sizes=self.sizes[:d] + (1,) + self.sizes[d:],
                                   strides=self.strides[:d] + (inner,) + self.strides[d:])

    @property
    def shape(self):
        return self.sizes

    @property
    def itemsize(self):
        return torch.empty((), dtype=self.dtype).element_size()

    @property
    def nbytes_span(self):
        """Bytes from the first element to one past the last one reached."""
        if any(s == 0 for s in self.sizes):
            return 0
        return (1 + sum((s - 1) * st for s, st in zip(self.sizes, self.strides))) * self.itemsize


@dataclasses.dataclass
class Lowering:
    node: torch.fx.Node
    kind: str
    aten: str = ""
    entry: mapping.Entry | None = None
    reason: str = ""


def aten_name(node):
    """"add.Tensor" for a node calling aten.add.Tensor, else ""."""
    t = node.target
    if isinstance(t, torch._ops.OpOverload) and t.namespace == "aten":
        return schemas.overload_name(t)
    if isinstance(t, torch._ops.OpOverload) and t.namespace == "diopi":  # the fused operators (fused.py)
        return "diopi::" + schemas.overload_name(t)
    return ""


def fake(x):
    """The example value FX recorded for a node (a FakeTensor, a list of them, a number)."""
    return x.meta.get("val") if isinstance(x, torch.fx.Node) else x


def bind_arguments(schema, args, kwargs, value_of):
    """ATen argument name -> value (positional, keyword or default), each
    graph value turned into what `value_of(node)` gives."""
    env = {}

    def conv(v):
        if isinstance(v, torch.fx.Node):
            return value_of(v)
        if isinstance(v, (list, tuple)):
            return [conv(x) for x in v]
        return v
    for i, a in enumerate(schema.arguments):
        if i < len(args) and not a.kwarg_only:
            env[a.name] = conv(args[i])
        elif a.name in kwargs:
            env[a.name] = conv(kwargs[a.name])
        else:
            env[a.name] = a.default_value if a.has_default_value() else None
    return env


def _meta_value(node):
    v = fake(node)
    if isinstance(v, torch.Tensor):
        return TensorValue.of(v)
    if isinstance(v, (list, tuple)):
        return [TensorValue.of(x) if isinstance(x, torch.Tensor) else x for x in v]
    return v


def result_value(node, value_of=_meta_value):
    v = fake(node)
    if isinstance(v, (list, tuple)):
        items = {u.args[1]: u for u in node.users if u.target is operator.getitem}
        return [value_of(items[i]) if i in items else (TensorValue.of(x) if isinstance(x, torch.Tensor) else x)
                for i, x in enumerate(v)]
    return value_of(node)


def _storage(t):
    from torch.multiprocessing.reductions import StorageWeakRef
    return StorageWeakRef(t.untyped_storage())


def aliased_argument(node):
    """The tensor argument whose storage the node's result shares, or None."""
    out = fake(node)
    outs = [out] if isinstance(out, torch.Tensor) else [x for x in (out or []) if isinstance(x, torch.Tensor)]
    if not outs:
        return None
    try:
        stores = {_storage(o) for o in outs}
    except Exception:  # a tensor without storage: not a view we can resolve
        return None
    for a in node.all_input_nodes:
        v = fake(a)
        if isinstance(v, torch.Tensor) and _storage(v) in stores:
            return a
    return None


def classify(node, amap: mapping.AtenMapping, exported) -> Lowering:
    """How one call_function node is lowered (see the module's docstring)."""
    if node.target is operator.getitem:
        return Lowering(node, ITEM)
    name = aten_name(node)
    if not name:
        return Lowering(node, UNSERVED, reason=f"{node.target} is not an ATen operator")
    vals = [fake(a) for a in node.all_input_nodes] + [fake(node)]
    flat = [x for v in vals for x in (v if isinstance(v, (list, tuple)) else [v])]
    if any(isinstance(x, (torch.SymInt, torch.SymFloat, torch.SymBool)) for x in flat) or \
            any(isinstance(x, torch.Tensor) and any(isinstance(s, torch.SymInt) for s in x.shape) for x in flat):
        return Lowering(node, UNSERVED, name, reason="symbolic sizes (the plan is made for static shapes)")
    devices = {x.device.type for x in flat if isinstance(x, torch.Tensor)}
    if devices == {"cpu"}:
        return Lowering(node, HOST, name, reason="host tensors only")
    if devices - {"diopi"}:
        if name.split(".")[0] in _COPIES and devices == {"cpu", "diopi"}:
            return Lowering(node, TRANSFER, name, reason="a copy between the host and the device")
        return Lowering(node, UNSERVED, name, reason="a tensor on another device")
    entries = amap.for_op(name)
    tried = []
    if entries:
        env = bind_arguments(node.target._schema, node.args, node.kwargs, _meta_value)
        env[mapping.RESULT] = result_value(node)
        for e in entries:
            if e.diopi not in exported:
                tried.append(f"{e.diopi} ({entry_where(e)}) not exported by the library")
                continue
            try:
                ok = e.applies(env)
            except Exception as ex:  # a condition these arguments cannot answer: the entry does not apply
                ok = False
                tried.append(f"{entry_where(e)}: {type(ex).__name__}")
            if ok:
                return Lowering(node, CALL, name, e)
            tried.append(f"{e.diopi} ({entry_where(e)}) conditions not met")
    if name in ALLOC_OPS:
        return Lowering(node, ALLOC, name)
    if aliased_argument(node) is not None:
        return Lowering(node, VIEW, name)
    if tried:
        return Lowering(node, UNSERVED, name, reason="; ".join(tried))
    return Lowering(node, UNSERVED, name, reason=f"no mapping entry for {name}")


def source_line(node):
    """The user's source line that produced a node ("file", line N, in f: code), from FX's stack
    trace: its innermost frame outside PyTorch and this package (a TorchFunctionMode of the
    package may stand between the model and the operator)."""
    import os
    skip = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))), os.path.dirname(os.path.abspath(torch.__file__)))
    trace = node.meta.get("stack_trace") or ""
    lines = [ln.strip() for ln in trace.strip().splitlines() if ln.strip()]
    frames = []
    for i, ln in enumerate(lines):
        if ln.startswith("File "):
            code = lines[i + 1] if i + 1 < len(lines) and not lines[i + 1].startswith("File ") else ""
            frames.append((ln[len("File "):], code))
    for where, code in reversed(frames):
        path = where.split('"')[1] if where.count('"') >= 2 else where
        if not os.path.abspath(path).startswith(skip):
            return where + (f": {code}" if code else "")
    if frames:
        return frames[-1][0] + (f": {frames[-1][1]}" if frames[-1][1] else "")
    return "(no source line recorded)"


def entry_where(entry):
    """file:line of a mapping entry, relative to the repository (stable whatever the working directory)."""
    import os
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))))
    return f"{os.path.relpath(os.path.abspath(entry.file), root)}:{entry.line}"


def module_path(node):
    """The module that produced a node (dynamo's nn_module_stack), e.g. model.layers.0.mlp.act_fn."""
    stack = node.meta.get("nn_module_stack") or {}
    if stack:
        path = list(stack.values())[-1][0]
        return path.replace("L['self'].", "model.").replace("L['self']", "model")
    fwd = node.meta.get("fwd_nn_module_stack") or {}
    if fwd:
        return "backward of " + list(fwd.values())[-1][0].replace("L['self'].", "model.")
    return ""
