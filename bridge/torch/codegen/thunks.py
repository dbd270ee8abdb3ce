"""Generates the call thunks of the compiled-graph interpreter from the header.

    python -m codegen.thunks --out BUILD_DIR

A compiled graph (diopi_torch/graph) is a table of DIOPI calls whose
arguments are prepared once, when the plan is made. The interpreter walks
that table without a C compiler at run time: for each function of the
header it has one thunk that unpacks the prepared arguments into the
function's exact C parameter types and calls it. Output:
BUILD_DIR/graph_thunks.cpp (rewritten only when its content changed).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys

import jinja2

# Run as `python -m codegen.thunks` from bridge/torch (the build system does).
from codegen.generate import write_if_changed
from diopi_torch.ops import mapping as mapping_mod

HERE = os.path.dirname(os.path.abspath(__file__))
BRIDGE = os.path.dirname(HERE)

TEMPLATE = "graph_thunks.cpp.j2"

# Parameter kind (header model) -> the member of graph::Arg that holds it.
_MEMBER = {
    "tensor_in": "p", "tensor_out": "p", "tensor_array_in": "p", "tensor_array_out": "p", "scalar": "p",
    "size_ptr": "p", "generator": "p", "string": "p", "int_ptr": "p", "double_ptr": "p", "bool_ptr": "p",
    "bool_out": "p", "double_out": "p", "int_out": "p", "pointer": "p",
    "size": "z", "int": "i", "float": "d", "bool": "b",
    "enum_round": "i", "enum_reduction": "i", "enum_memory_format": "i", "enum_dtype": "i",
}


@dataclasses.dataclass(frozen=True)
class Thunk:
    name: str
    args: tuple   # C++ expressions over `a`, one per parameter after the context


def _value_type(ctype):
    return ctype[len("const "):] if ctype.startswith("const ") and not ctype.endswith("*") else ctype


def thunks(functions):
    out = []
    for fn in functions.values():
        params = [p for p in fn.params if p.kind != "context"]
        if not fn.params or fn.params[0].kind != "context" or any(p.kind not in _MEMBER for p in params):
            continue  # not an operator of the usual form: never lowered, so no thunk
        args = []
        for i, p in enumerate(params):
            member = _MEMBER[p.kind]
            if member == "p":
                args.append(f"static_cast<{p.ctype}>(a[{i}].p)")
            elif member == "z":
                args.append(f"a[{i}].z")
            else:
                args.append(f"static_cast<{_value_type(p.ctype)}>(a[{i}].{member})")
        out.append(Thunk(fn.name, tuple(args)))
    return out


def render(items):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(BRIDGE, "templates")),
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True,
                             undefined=jinja2.StrictUndefined)
    return env.get_template(TEMPLATE).render(thunks=items, generator="bridge/torch/codegen/thunks.py",
                                             template=f"bridge/torch/templates/{TEMPLATE}")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="build directory for the generated file")
    args = p.parse_args(argv)
    items = thunks(mapping_mod.header_functions())
    os.makedirs(args.out, exist_ok=True)
    changed = write_if_changed(os.path.join(args.out, "graph_thunks.cpp"), render(items))
    print(f"diopi graph thunks: {len(items)} functions ({'rewritten' if changed else 'unchanged'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
