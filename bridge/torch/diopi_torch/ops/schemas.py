"""ATen operator schemas from the installed torch, in the mapping's terms.

Both the device's code generator and model capture check mapping entries
against the schemas torch itself registers, so an entry that names a
missing overload or argument fails where it is written.
"""
from __future__ import annotations

import dataclasses
import functools


@dataclasses.dataclass(frozen=True)
class AtenArg:
    """One argument of an ATen schema, as the mapping needs it."""
    name: str
    type: str            # schema type text: "Tensor", "Tensor?", "int[]", "SymInt[]", "Scalar", ...
    mutable: bool = False  # annotated (a!): written by the operator
    kwarg_only: bool = False


@dataclasses.dataclass(frozen=True)
class AtenSchema:
    name: str            # "add.Tensor" (overload "default" is written without a suffix)
    args: tuple          # AtenArg
    returns: tuple       # return type texts, e.g. ("Tensor",) or ("Tensor", "Tensor", "Tensor")
    text: str = ""       # the full schema, for generated comments and messages

    def arg(self, name):
        for a in self.args:
            if a.name == name:
                return a
        return None

    @property
    def inplace(self):
        base = self.name.split(".")[0]
        return base.endswith("_") and not (base.startswith("__") and base.endswith("__"))

    @property
    def out_variant(self):
        return any(a.mutable and a.kwarg_only for a in self.args)


def overload_name(op_overload):
    """`torch.ops.aten.add.Tensor` -> "add.Tensor"; default overloads have no suffix."""
    name = op_overload._schema.name.split("::", 1)[1]
    ov = op_overload._schema.overload_name
    return f"{name}.{ov}" if ov else name


@functools.lru_cache(maxsize=None)
def schema_of(aten: str) -> AtenSchema | None:
    import torch

    base, _, ov = aten.partition(".")
    namespace = torch.ops.aten
    if "::" in base:  # an operator of another library: the fused operators of compiled graphs (diopi::rms_norm)
        ns, base = base.split("::", 1)
        if ns == "diopi":
            from . import fused  # noqa: F401  (registers them; imports torch, which the mapping alone does not need)
        namespace = getattr(torch.ops, ns)
    packet = getattr(namespace, base, None)
    if packet is None:
        return None
    try:
        op = getattr(packet, ov or "default")
    except AttributeError:
        return None
    return from_torch(op._schema, aten)


def from_torch(schema, aten=None) -> AtenSchema:
    args = []
    for a in schema.arguments:
        mutable = bool(a.alias_info is not None and a.alias_info.is_write)
        args.append(AtenArg(a.name, _type_text(a), mutable, a.kwarg_only))
    returns = tuple(_type_text(r) for r in schema.returns)
    text = str(schema)
    if text.startswith("aten::"):
        text = text[len("aten::"):]
    if aten is None:
        name = schema.name.split("::", 1)[1]
        aten = f"{name}.{schema.overload_name}" if schema.overload_name else name
    return AtenSchema(aten, tuple(args), returns, text)


def _type_text(arg):
    # str(torch type) gives "Tensor", "Optional[Tensor]", "List[int]", ...; the
    # schema string form is the one the mapping's readers know.
    t = arg.type
    s = str(t)
    s = s.replace("Optional[", "?[")
    return _schema_type(t)


def _schema_type(t):
    import torch

    kind = t.kind()
    if kind == "OptionalType":
        return _schema_type(t.getElementType()) + "?"
    if kind == "ListType":
        return _schema_type(t.getElementType()) + "[]"
    return {"TensorType": "Tensor", "IntType": "int", "SymIntType": "SymInt", "FloatType": "float",
            "BoolType": "bool", "NumberType": "Scalar", "StringType": "str", "ScalarTypeType": "ScalarType",
            "GeneratorType": "Generator", "DeviceObjType": "Device", "LayoutType": "Layout",
            "MemoryFormatType": "MemoryFormat", "ComplexType": "complex"}.get(kind, str(t))
