"""ATen operator schemas from the installed torch, in the mapping's terms.

Both the device's code generator and model capture check mapping entries
against the schemas torch itself registers, so an entry that names a
missing overload or argument fails where it is written.
"""
from __future__ import annotations

import functools

from .mapping import AtenArg, AtenSchema


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
