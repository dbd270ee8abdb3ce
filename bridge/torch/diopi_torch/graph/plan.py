"""The plan of one graph partition: a table of DIOPI calls over tensor
references resolved before the first run.

    plan = Planner(gm, amap, functions, exported).build()
    plan.text          # what the runner (csrc/graph/runner.cpp) reads
    plan.steps         # Step: DIOPI function, prepared arguments, the node it serves

Each tensor a call sees is a reference: a base (graph input, arena buffer,
output buffer, constant), a byte offset, sizes, strides and dtype. Views are
resolved here (a view is a reference into its source's base); intermediate
results share one arena, each at an offset no other buffer live at the same
steps uses (liveness over steps, first fit); results the graph returns get
buffers of their own, allocated per run. DIOPI arguments are bound by the
mapping entry the lowering chose (mapping.Entry.bind, the code model capture
uses) and encoded once per plan.
"""
from __future__ import annotations

import dataclasses

import torch

from ..ops import mapping
from . import lower, plan_schema
from .plan_schema import ARG, BASE, EAGER_ARG, SCALAR

ALIGN = 64
# PyTorch's enum values of c10::Layout and c10::MemoryFormat, for the eager re-run of a step.
_LAYOUTS = {torch.strided: 0}
_MEMORY_FORMATS = {torch.contiguous_format: 0, torch.preserve_format: 1, torch.channels_last: 2, torch.channels_last_3d: 3}


class PlanError(Exception):
    """A node this planner cannot express: PlanError(message, node name). The
    compiler then leaves that node to the eager device."""


@dataclasses.dataclass(eq=False)
class Buffer:
    """Memory of one or more intermediate results: an arena slice or, when the graph returns it, its own allocation."""
    nbytes: int
    first: int | None = None
    last: int | None = None
    output: int | None = None     # index among output buffers
    offset: int | None = None     # arena offset

    def touch(self, step):
        self.first = step if self.first is None else min(self.first, step)
        self.last = step if self.last is None else max(self.last, step)


@dataclasses.dataclass
class Step:
    fn: str                    # DIOPI function
    args: list                 # encoded arguments, one per parameter after the context
    aten: str                  # ATen operator served
    where: str                 # mapping entry (file:line)
    node: str                  # FX node name
    eager: tuple               # (op, overload, inplace_only, eager args, result refs)
    module: str = ""           # the model's module that produced the node
    source: str = ""           # the user's source line
    values: tuple = ()         # TensorValues the step reads or writes (liveness)
    bookkeeping: bool = False  # the plan's own copy of an output the library allocated into its buffer


@dataclasses.dataclass
class Plan:
    text: str
    consts: list
    inputs: list               # FX placeholder nodes, in the order the runner takes them
    outputs: list              # per graph output: ("ref", i) into the runner's results, or ("value", python value)
    steps: list
    refs: list
    arena_bytes: int
    output_bytes: list
    nodes: int                 # call_function nodes planned (views included)
    lowered: dict              # FX node name -> Lowering
    out_refs: list = dataclasses.field(default_factory=list)  # per runner result: the ref it is (graph capture reads it)


def _dtype_codes():
    import diopi_header
    return diopi_header.dtypes()


def _dtype_code(dtype, codes):
    name = str(dtype).replace("torch.", "")
    if name not in codes:
        raise PlanError(f"dtype {name} has no DIOPI code")
    return codes[name]


def _copy_eager(dest, src):
    """The eager re-run of a copy step: aten::copy_(dest, src), writing its argument."""
    return ("copy_", "-", True, [(EAGER_ARG.Tensor, dest), (EAGER_ARG.Tensor, src), (EAGER_ARG.Bool, 0)], [])


def _hex(s):
    return s.encode().hex() if s else "-"


def _real(v):
    return float(v).hex()


class Planner:
    def __init__(self, gm: torch.fx.GraphModule, amap, functions, exported, lowerings=None):
        self.gm = gm
        self.amap = amap
        self.functions = functions
        self.exported = exported
        self.lowerings = lowerings or {}
        self.codes = _dtype_codes()
        self.values = {}
        self.buffers = []
        self.refs = {}
        self.ref_list = []
        self.steps = []
        self.consts = []
        self.const_ids = {}
        self.cells = 0
        self.inputs = []
        self.planned = 0

    # ------------------------------------------------------------ values

    def value(self, node):
        if node not in self.values:
            raise PlanError(f"{node.name} has no value in this partition")
        return self.values[node]

    def _new_buffer_value(self, t: torch.Tensor):
        byte_offset = int(t.storage_offset()) * t.element_size()
        tv = lower.TensorValue.of(t)
        buf = Buffer(max(byte_offset + tv.nbytes_span, 1))
        self.buffers.append(buf)
        return dataclasses.replace(tv, base=("b", buf), byte_offset=byte_offset)

    def ref(self, tv: lower.TensorValue):
        key = (id(tv.base[1]) if tv.base[0] == "b" else tv.base, tv.byte_offset, tv.sizes, tv.strides, tv.dtype)
        if key not in self.refs:
            self.refs[key] = len(self.ref_list)
            self.ref_list.append(tv)
        return self.refs[key]

    def device(self):
        """The device the graph runs on: its inputs' (the runner makes it current), not whichever is current
        while it compiles. A constant on another device is another device's memory to a chip."""
        for node in self.gm.graph.nodes:
            if node.op == "placeholder":
                v = node.meta.get("val", node.meta.get("example_value"))
                if isinstance(v, torch.Tensor) and v.device.type == "diopi":
                    return torch.device("diopi", v.device.index or 0)
        return torch.device("diopi", torch.diopi.current_device())

    def const(self, v, dtype=None):
        """A 0-dim device tensor holding a number (how the eager device passes a number as a tensor)."""
        from torch.utils._python_dispatch import _disable_current_modes
        if dtype is None:
            dtype = torch.bool if isinstance(v, bool) else torch.int64 if isinstance(v, int) else torch.float64
        key = (type(v), v, dtype)
        if key not in self.const_ids:
            with _disable_current_modes():
                t = torch.tensor(v, dtype=dtype, device=self.device())
            self.const_ids[key] = len(self.consts)
            self.consts.append(t)
        return lower.TensorValue.of(self.consts[self.const_ids[key]], base=("c", self.const_ids[key]))

    # ------------------------------------------------------------ nodes

    def build(self, name="graph") -> Plan:
        graph = self.gm.graph
        out_node = None
        for node in graph.nodes:
            if node.op == "placeholder":
                v = lower.fake(node)
                if isinstance(v, torch.Tensor):
                    # Offsets into an input count from its first element, whatever its storage offset at run time.
                    self.values[node] = lower.TensorValue.of(v, base=("i", len(self.inputs)), byte_offset=0)
                    self.inputs.append(node)
                else:
                    self.values[node] = v
            elif node.op == "get_attr":
                t = getattr(self.gm, node.target)
                if not isinstance(t, torch.Tensor):
                    raise PlanError(f"{node.name}: attribute {node.target} is not a tensor")
                if t.device.type != "diopi":
                    raise PlanError(f"{node.name}: constant {node.target} is on {t.device}")
                self.const_ids[("attr", node.target)] = len(self.consts)
                self.consts.append(t)
                self.values[node] = lower.TensorValue.of(t, base=("c", len(self.consts) - 1))
            elif node.op == "call_function":
                self.planned += 1
                try:
                    self._call(node)
                except PlanError as e:
                    raise PlanError(e.args[0], node.name) from None
            elif node.op == "output":
                out_node = node
            else:
                raise PlanError(f"{node.name}: {node.op} nodes are not planned")
        outputs = []
        out_refs = []
        returned = out_node.args[0] if out_node is not None else []
        for v in (returned if isinstance(returned, (list, tuple)) else [returned]):
            val = self.value(v) if isinstance(v, torch.fx.Node) else v
            if isinstance(val, lower.TensorValue):
                outputs.append(("ref", len(out_refs)))
                out_refs.append(self.ref(val))
                if val.base[0] == "b":
                    buf = val.base[1]
                    if buf.output is None:
                        buf.output = -1  # numbered below, in buffer order
            else:
                outputs.append(("value", val))
        arena, output_bytes = self._place()
        text = self._text(arena, output_bytes, out_refs)
        return Plan(text, self.consts, self.inputs, outputs, self.steps, self.ref_list, arena, output_bytes,
                    self.planned, self.lowerings, out_refs)

    def _lowering(self, node):
        low = self.lowerings.get(node.name)
        if low is None:
            low = lower.classify(node, self.amap, self.exported)
            self.lowerings[node.name] = low
        return low

    def _call(self, node):
        low = self._lowering(node)
        if low.kind == lower.ITEM:
            src = self.value(node.args[0])
            if not isinstance(src, list):
                raise PlanError(f"{node.name}: getitem of a single value")
            self.values[node] = src[node.args[1]]
        elif low.kind == lower.VIEW:
            self.values[node] = self._view(node)
        elif low.kind == lower.ALLOC:
            self.values[node] = self._new_buffer_value(lower.fake(node))
        elif low.kind == lower.CALL:
            self._lower_call(node, low)
        else:
            raise PlanError(f"{node.name} ({low.aten or node.target}) is not served: {low.reason}")

    def _view(self, node):
        src_node = lower.aliased_argument(node)
        src = self.value(src_node)
        s = lower.fake(src_node)
        # Where the source's (fake) storage starts in its base; the view is at its own storage offset from there.
        base_bytes = src.byte_offset - int(s.storage_offset()) * s.element_size()

        def one(o):
            return dataclasses.replace(lower.TensorValue.of(o), base=src.base,
                                       byte_offset=base_bytes + int(o.storage_offset()) * o.element_size())
        out = lower.fake(node)
        if isinstance(out, (list, tuple)):
            return [one(o) for o in out]
        return one(out)

    def _outputs_of(self, node, schema):
        """Result values of a call: new buffers, or for an operator writing its arguments, those arguments."""
        out = lower.fake(node)
        written = {}
        for i, r in enumerate(schema.returns):
            if r.alias_info is not None and r.alias_info.is_write:
                for a in schema.arguments:
                    if a.alias_info is not None and a.alias_info.before_set == r.alias_info.before_set:
                        written[i] = a.name
        env = lower.bind_arguments(schema, node.args, node.kwargs, self.value)

        def result(i, t):
            if i in written:
                return env[written[i]]
            if t is None:  # an output the call does not produce (convolution_backward's output_mask)
                return None
            if not isinstance(t, torch.Tensor):
                raise PlanError(f"{node.name}: result {i} is not a tensor")
            return self._new_buffer_value(t)
        if isinstance(out, (list, tuple)):
            return [result(i, t) for i, t in enumerate(out)], env
        return result(0, out), env

    def _lower_call(self, node, low):
        schema = node.target._schema
        result, env = self._outputs_of(node, schema)
        self.values[node] = result
        env[mapping.RESULT] = result
        e = low.entry
        fn = self.functions[e.diopi]
        meta = dict(aten=low.aten, where=lower.entry_where(e), node=node.name, module=lower.module_path(node),
                    source=lower.source_line(node))
        flat_results = result if isinstance(result, list) else [result]
        result_refs = [self.ref(r) if isinstance(r, lower.TensorValue) else -1 for r in flat_results]
        for dest, src in e.bind_init(env):
            self._copy_step(src, dest, meta)
        bound = e.bind(env)
        args, touched, allocated = [], [], None
        for p in fn.params:
            if p.kind == "context":
                continue
            v = bound[p.name]
            if p.kind == "tensor_array_out" and p.ctype == "diopiTensorHandle_t*" and isinstance(v, lower.TensorValue):
                # The library allocates this output (its shape may depend on the data): a cell, copied into the plan's buffer.
                # Copied into the result's buffer by the plan alone (the eager kernel returns the library's
                # tensor); into an out= argument, the eager kernel copies too.
                allocated = (self.cells, v, e.expression(p.name) == mapping.RESULT)
                args.append((ARG.Cell, self.cells))
                self.cells += 1
                continue
            args.append(self._encode(p, v, touched))
        eager = self._eager(node, schema, env, result_refs, touched)
        self.steps.append(Step(e.diopi, args, low.aten, meta["where"], node.name, eager, values=tuple(touched), **{
            k: meta[k] for k in ("module", "source")}))
        self._touch(touched)
        if allocated is not None:
            cell, dest, bookkeeping = allocated
            fn_copy = self.functions["diopiCopyInp"]
            args = [(ARG.CellRef, cell) if p.name == "src" else (ARG.Tensor, self.ref(dest)) for p in fn_copy.params
                    if p.kind != "context"]
            self.steps.append(Step("diopiCopyInp", args, low.aten, meta["where"], node.name,
                                   _copy_eager(self.ref(dest), self.ref(dest)),
                                   meta["module"], meta["source"], values=(dest,), bookkeeping=bookkeeping))
            self._touch([dest])

    def _copy_step(self, src, dest, meta):
        touched = [src, dest]
        fn = self.functions["diopiCopyInp"]
        args = [(ARG.Tensor, self.ref(src)) if p.name == "src" else (ARG.Tensor, self.ref(dest)) for p in fn.params
                if p.kind != "context"]
        eager = _copy_eager(self.ref(dest), self.ref(src))
        self.steps.append(Step("diopiCopyInp", args, meta["aten"], meta["where"], meta["node"], eager, meta["module"],
                               meta["source"], values=tuple(touched)))
        self._touch(touched)

    def _touch(self, values):
        k = len(self.steps) - 1
        for v in values:
            if isinstance(v, lower.TensorValue) and v.base[0] == "b":
                v.base[1].touch(k)

    # ------------------------------------------------------------ arguments

    def _encode(self, p, v, touched):
        """One DIOPI argument of parameter `p` (header model) from the bound value `v`."""
        kind = p.kind
        if kind in ("tensor_in", "tensor_out"):
            if v is None:
                return (ARG.Null,)
            if isinstance(v, (bool, int, float)):
                v = self.const(v)
            if not isinstance(v, lower.TensorValue):
                raise PlanError(f"{p.name}: a {type(v).__name__} where a tensor is expected")
            touched.append(v)
            return (ARG.Tensor, self.ref(v))
        if kind in ("tensor_array_in", "tensor_array_out"):
            if v is None:
                return (ARG.TensorArray, [])
            refs = []
            for x in v:
                if x is None:
                    refs.append(-1)
                else:
                    if not isinstance(x, lower.TensorValue):
                        raise PlanError(f"{p.name}: list item {type(x).__name__} is not a tensor")
                    touched.append(x)
                    refs.append(self.ref(x))
            return (ARG.TensorArray, refs)
        if kind == "scalar":
            if v is None:
                return (ARG.Null,)
            if isinstance(v, lower.TensorValue):
                raise PlanError(f"{p.name}: a scalar read from a device tensor (its value is known only at run time)")
            if isinstance(v, bool):
                return (ARG.Scalar, SCALAR.Bool, int(v))
            if isinstance(v, int):
                return (ARG.Scalar, SCALAR.Int, v)
            return (ARG.Scalar, SCALAR.Float, float(v))
        if kind == "size":
            return (ARG.Size, self._ints(v, p))
        if kind == "size_ptr":
            return (ARG.Null,) if v is None else (ARG.SizePtr, self._ints(v, p))
        if kind == "int" or kind.startswith("enum_") and kind != "enum_dtype":
            return (ARG.Int, 0 if v is None else int(v))
        if kind == "enum_dtype":
            return (ARG.Int, -1 if v is None else _dtype_code(v, self.codes))
        if kind == "float":
            return (ARG.Double, 0.0 if v is None else float(v))
        if kind == "bool":
            return (ARG.Bool, bool(v))
        if kind == "generator":
            if v is not None:
                raise PlanError(f"{p.name}: an explicit generator")
            return (ARG.Generator,)
        if kind == "string":
            return (ARG.Null,) if v is None else (ARG.String, str(v))
        if kind == "int_ptr":
            return (ARG.Null,) if v is None else (ARG.IntPtr, int(v))
        if kind == "double_ptr":
            return (ARG.Null,) if v is None else (ARG.DoublePtr, float(v))
        if kind == "bool_ptr":
            return (ARG.Null,) if v is None else (ARG.BoolPtr, bool(v))
        raise PlanError(f"{p.name}: parameters of kind {kind} are not planned")

    @staticmethod
    def _ints(v, p):
        if v is None:
            return []
        if isinstance(v, (int, bool)):
            return [int(v)]
        if not all(isinstance(x, (int, bool)) for x in v):
            raise PlanError(f"{p.name}: sizes that are not integers")
        return [int(x) for x in v]

    def _eager(self, node, schema, env, result_refs, touched):
        """The node's ATen call over the plan's references: what the runner re-runs on the eager device."""
        args = []
        for a in schema.arguments:
            args.append(self._eager_arg(env[a.name], a, touched))
        name = schema.name.split("::", 1)[1]
        return (name, schema.overload_name or "-", False, args, result_refs)

    def _eager_arg(self, v, a, touched):
        tensor_typed = "Tensor" in str(a.type)
        if isinstance(v, lower.TensorValue):
            touched.append(v)
            return (EAGER_ARG.Tensor, self.ref(v))
        if v is None:
            return (EAGER_ARG.Absent,)
        if isinstance(v, (list, tuple)):
            if any(isinstance(x, lower.TensorValue) for x in v) or tensor_typed:
                refs = []
                for x in v:
                    if x is None:
                        refs.append(-1)
                    else:
                        if not isinstance(x, lower.TensorValue):
                            x = self.const(x)
                        touched.append(x)
                        refs.append(self.ref(x))
                return (EAGER_ARG.OptTensorList if "?" in str(a.type) else EAGER_ARG.TensorList, refs)
            if all(isinstance(x, bool) for x in v) and v:
                return (EAGER_ARG.BoolList, [int(x) for x in v])
            if all(isinstance(x, int) for x in v):
                return (EAGER_ARG.IntList, [int(x) for x in v])
            return (EAGER_ARG.DoubleList, [float(x) for x in v])
        if tensor_typed and isinstance(v, (bool, int, float)):
            c = self.const(v)
            touched.append(c)
            return (EAGER_ARG.Tensor, self.ref(c))
        if isinstance(v, bool):
            return (EAGER_ARG.Bool, int(v))
        if isinstance(v, int):
            return (EAGER_ARG.Int, v)
        if isinstance(v, float):
            return (EAGER_ARG.Double, v)
        if isinstance(v, torch.dtype):
            return (EAGER_ARG.Dtype, _dtype_code(v, self.codes))
        if isinstance(v, torch.device):
            return (EAGER_ARG.Device, 1 if v.type == "diopi" else 0)
        if isinstance(v, torch.layout):
            return (EAGER_ARG.Layout, _LAYOUTS[v])
        if isinstance(v, torch.memory_format):
            return (EAGER_ARG.MemoryFormat, _MEMORY_FORMATS[v])
        if isinstance(v, str):
            return (EAGER_ARG.String, v)
        raise PlanError(f"argument {a.name}: {type(v).__name__} values are not planned")

    # ------------------------------------------------------------ memory

    def _place(self):
        """Output buffers numbered; every other buffer given an arena offset
        by first fit among the buffers live at the same steps."""
        outs = []
        for b in self.buffers:
            if b.output is not None:
                b.output = len(outs)
                outs.append(b.nbytes)
        live = []   # (offset, end, last step)
        arena = 0
        for b in sorted((b for b in self.buffers if b.output is None), key=lambda b: (b.first if b.first is not None else -1)):
            first = b.first if b.first is not None else -1
            last = b.last if b.last is not None else first
            live = [x for x in live if x[2] >= first]
            size = (b.nbytes + ALIGN - 1) // ALIGN * ALIGN
            offset = 0
            for start, end, _ in sorted(live):
                if start - offset >= size:
                    break
                offset = max(offset, end)
            b.offset = offset
            live.append((offset, offset + size, last))
            arena = max(arena, offset + size)
        return arena, outs

    # ------------------------------------------------------------ text

    def _ref_line(self, tv):
        kind, what = tv.base
        if kind == "i":
            base, index, off = BASE.Input, what, tv.byte_offset
        elif kind == "c":
            base, index, off = BASE.Const, what, tv.byte_offset
        elif what.output is not None:
            base, index, off = BASE.Output, what.output, tv.byte_offset
        else:
            base, index, off = BASE.Arena, 0, what.offset + tv.byte_offset
        sizes = " ".join(str(s) for s in tv.sizes)
        strides = " ".join(str(s) for s in tv.strides)
        return f"{base} {index} {off} {_dtype_code(tv.dtype, self.codes)} {len(tv.sizes)} {sizes} {len(tv.strides)} {strides}"

    def _text(self, arena, output_bytes, out_refs):
        lines = [f"{plan_schema.MAGIC} {plan_schema.VERSION}", _section("inputs", len(self.inputs)), _section("arena", arena),
                 _section("outbufs", *_payload("ints", output_bytes)), _section("consts", len(self.consts)),
                 _section("cells", self.cells), _section("refs", len(self.ref_list))]
        lines += [self._ref_line(tv) for tv in self.ref_list]
        lines.append(_section("steps", len(self.steps)))
        for s in self.steps:
            words = [_section("step"), s.fn, s.aten, _hex(s.where), _hex(s.node), str(len(s.args))]
            for a in s.args:
                words += _words(ARG, a)
            op, overload, inplace, eargs, results = s.eager
            words += [_section("eager"), op, overload, "1" if inplace else "0", str(len(eargs))]
            for a in eargs:
                words += _words(EAGER_ARG, a)
            words += _payload("ints", results)
            lines.append(" ".join(words))
        lines.append(_section("outputs", *_payload("ints", out_refs)))
        lines.append(_section("end"))
        return "\n".join(lines) + "\n"


def _section(name, *words):
    """A section line (plan_schema.SECTIONS) with its words."""
    if name not in plan_schema.SECTIONS:
        raise ValueError(f"{name!r} is not a section of the plan schema")
    return " ".join([name] + [str(w) for w in words])


def _payload(kind, v):
    """The words of one payload (plan_schema's docstring)."""
    if kind == "none":
        return []
    if kind == "int":
        return [str(int(v))]
    if kind == "flag":
        return ["1" if v else "0"]
    if kind == "real":
        return [_real(v)]
    if kind == "hex":
        return [_hex(v)]
    if kind == "ints":
        return [str(len(v))] + [str(int(x)) for x in v]
    if kind == "reals":
        return [str(len(v))] + [_real(x) for x in v]
    if kind == "scalar":
        stype, value = v
        return [stype] + _payload(SCALAR.payload(stype), value)
    raise ValueError(f"payload {kind!r}")


def _words(codes, a):
    """An encoded argument (code, value...) as the words of the plan text."""
    code = a[0]
    kind = codes.payload(code)
    return [code] + _payload(kind, a[1:] if kind == "scalar" else (a[1] if len(a) > 1 else None))
