"""Thunk arguments: how a generated call thunk passes each parameter of an operator.

Two generators write call thunks from the header model: impl/cpu's graph
compiler (impl/cpu/graph/gen_thunks.py) and the compiled-graph runner of the
PyTorch device (bridge/torch/codegen/thunks.py). A thunk gets the parameters
after the context as an array of prepared slots, a struct with the members
`p` (pointer), `z` (diopiSize_t), `i` (int64_t), `d` (double) and possibly
`b` (bool); it reads the member that holds the parameter's kind and casts it
to the parameter's exact C type. That choice and that cast are made here,
once; each generator keeps only its output (C++ text, templates, tables).

    for t in diopi_header.thunks.thunks(kinds=..., members="pzid"):
        t.name, [(x.kind, x.member, x.cast) for x in t.args]
"""
import dataclasses

from . import load
from .model import CONTEXT, Function, Param  # noqa: F401  (Function, Param: the types of Thunk's fields)

# The headers whose functions are operators a graph node can call.
OPERATOR_HEADERS = ("functions.h", "functions_ext.h")

# Parameter kind (model.KINDS) -> the slot member that holds its prepared value.
# Every pointer travels in `p` and is cast back to its type; a kind absent here
# (communicators, out-strings, ...) has no slot, so its functions get no thunk.
SLOT_MEMBER = {
    "tensor_in": "p", "tensor_out": "p", "tensor_array_in": "p", "tensor_array_out": "p", "scalar": "p",
    "size_ptr": "p", "generator": "p", "string": "p", "int_ptr": "p", "double_ptr": "p", "bool_ptr": "p",
    "bool_out": "p", "double_out": "p", "int_out": "p", "pointer": "p",
    "size": "z", "int": "i", "float": "d", "bool": "b",
    "enum_round": "i", "enum_reduction": "i", "enum_memory_format": "i", "enum_dtype": "i",
}

# Members every slot struct has; `b` is optional (without it a bool is read from `i`).
_REQUIRED_MEMBERS = "pzid"


@dataclasses.dataclass(frozen=True)
class ThunkArg:
    param: Param
    member: str   # the slot member holding the value
    cast: str     # C++ expression reading it as the parameter's C type, e.g. "static_cast<double>(a[2].d)"

    @property
    def kind(self):
        return self.param.kind


@dataclasses.dataclass(frozen=True)
class Thunk:
    function: Function
    args: tuple   # ThunkArg, one per parameter after the context

    @property
    def name(self):
        return self.function.name


def _value_type(ctype):
    # "const int64_t" -> "int64_t": a cast to a const value type is legal but says nothing
    return ctype[len("const "):] if ctype.startswith("const ") and not ctype.endswith("*") else ctype


def _member(kind, members):
    m = SLOT_MEMBER[kind]
    return "i" if m == "b" and "b" not in members else m


def thunk_arg(param, index, members="pzidb", slots="a"):
    """The ThunkArg of `param`, the parameter read from `slots[index]`."""
    m = _member(param.kind, members)
    src = f"{slots}[{index}].{m}"
    if m == "z":
        cast = src   # already a diopiSize_t
    elif m == "p":
        cast = f"static_cast<{param.ctype}>({src})"
    else:
        cast = f"static_cast<{_value_type(param.ctype)}>({src})"
    return ThunkArg(param, m, cast)


def thunks(functions=None, kinds=None, members="pzidb", slots="a"):
    """The Thunk of every operator (a function of OPERATOR_HEADERS taking the
    context first) all of whose other parameters have a kind in `kinds`
    (default: every kind of SLOT_MEMBER), in header order.

    `members` are the members of the generator's slot struct, `slots` the
    name of the slot array in its thunks. `functions` defaults to
    diopi_header.load()."""
    if functions is None:
        functions = load()
    if not set(_REQUIRED_MEMBERS) <= set(members):
        raise ValueError(f"a slot struct needs the members {_REQUIRED_MEMBERS!r}, got {members!r}")
    kinds = set(SLOT_MEMBER) if kinds is None else set(kinds)
    unknown = kinds - set(SLOT_MEMBER)
    if unknown:
        raise ValueError(f"no slot member is known for the kinds {sorted(unknown)}")
    out = []
    for fn in functions.values():
        if fn.header not in OPERATOR_HEADERS or not fn.params or fn.params[0].kind != CONTEXT:
            continue
        params = fn.params[1:]
        if any(p.kind not in kinds for p in params):
            continue  # a parameter no slot can hold: the function is never called through a thunk
        out.append(Thunk(fn, tuple(thunk_arg(p, i, members, slots) for i, p in enumerate(params))))
    return out
