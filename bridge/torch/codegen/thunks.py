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
import os
import sys

import jinja2
from diopi_header import thunks as header_thunks

# Run as `python -m codegen.thunks` from bridge/torch (the build system does).
from codegen.generate import write_if_changed
from diopi_torch.ops import mapping as mapping_mod

HERE = os.path.dirname(os.path.abspath(__file__))
BRIDGE = os.path.dirname(HERE)

TEMPLATE = "graph_thunks.cpp.j2"

# The members of graph::Arg (csrc/graph/graph.hpp). A thunk is made for every
# parameter kind the header model gives a slot member (no `kinds` filter); the
# member and cast of each argument come from diopi_header.thunks.
ARG_MEMBERS = "pzidb"


def thunks(functions):
    return header_thunks.thunks(functions, members=ARG_MEMBERS)


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
