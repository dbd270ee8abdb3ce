"""No import circles between the modules of the harness, the header model
and the adaptor's codegen: each package's modules form layers (a module
imported only inside a function counts as well: it is a circle all the same
when it runs)."""
import ast
import graphlib
import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
PACKAGES = {"conformance": "diopi_test/python/conformance", "diopi_header": "proto/python/diopi_header",
            "codegen": "adaptor/codegen"}


def _graph(package, folder):
    """module -> modules of the same package it imports (anywhere in its body)."""
    names = {f[:-3] for f in os.listdir(folder) if f.endswith(".py")}
    graph = {}
    for name in names:
        with open(os.path.join(folder, name + ".py")) as f:
            tree = ast.parse(f.read())
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level == 1 or (node.level == 0 and (node.module or "").split(".")[0] == package):
                    parts = (node.module or "").split(".")
                    target = parts[0] if node.level == 1 else (parts[1] if len(parts) > 1 else "")
                    if target:
                        deps.add(target)
                    else:
                        deps |= {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                deps |= {a.name.split(".")[1] for a in node.names if a.name.startswith(package + ".")}
        graph[name] = (deps & names) - {"__init__", name}
    return graph


@pytest.mark.parametrize("package", sorted(PACKAGES))
def test_no_import_circle(package):
    graph = _graph(package, os.path.join(ROOT, PACKAGES[package]))
    assert len(graph) > 3 and any(graph.values())  # the modules were found and their imports read
    try:
        tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as e:
        pytest.fail(f"{package}: import circle {' -> '.join(e.args[1])}")
