"""The package's rooms stay a layering: no import circle among the modules of
diopi_torch, counting imports made inside functions (a circle all the same
when they run); nothing imports the package root back (it is the façade);
the loader (_C) imports nothing of the package; and importing the mapping,
as the code generator does, loads nothing, even with DIOPI_IMPL_LIB set."""
import ast
import graphlib
import os
import subprocess
import sys

import pytest

from device_paths import BRIDGE

PACKAGE = "diopi_torch"


def modules(pkg_dir):
    """module name -> file, for every .py file of the package."""
    out = {}
    for folder, _, files in os.walk(pkg_dir):
        for f in files:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(folder, f), os.path.dirname(pkg_dir))[:-3].replace(os.sep, ".")
                out[rel[:-len(".__init__")] if rel.endswith(".__init__") else rel] = os.path.join(folder, f)
    return out


def import_graph(pkg_dir):
    """module -> the package's modules it imports anywhere in its body. `from X import n` depends on X.n when
    that is a module, else on X; a package's own __init__ running before its submodules is not counted."""
    mods = modules(pkg_dir)
    graph = {}
    for name, path in mods.items():
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        here = name if path.endswith("__init__.py") else name.rpartition(".")[0]
        deps = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in mods}
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here
                    for _ in range(node.level - 1):
                        base = base.rpartition(".")[0]
                    target = base + ("." + node.module if node.module else "")
                else:
                    target = node.module or ""
                if target not in mods:
                    continue
                for a in node.names:
                    deps.add(f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target)
        graph[name] = deps - {name}
    return graph


@pytest.fixture(scope="module")
def graph():
    g = import_graph(os.path.join(BRIDGE, PACKAGE))
    assert len(g) > 20 and sum(map(len, g.values())) > 20  # the modules were found and their imports read
    return g


def test_no_import_circle(graph):
    try:
        order = tuple(graphlib.TopologicalSorter(graph).static_order())
    except graphlib.CycleError as e:
        pytest.fail(f"import circle: {' -> '.join(e.args[1])}")
    assert set(order) == set(graph)


def test_nothing_imports_the_package_root(graph):
    back = sorted(m for m, deps in graph.items() if PACKAGE in deps)
    assert not back, f"these modules import the façade {PACKAGE}/__init__.py instead of the room they need: {back}"


def test_the_loader_is_a_leaf(graph):
    assert graph[f"{PACKAGE}._C"] == set()


def test_importing_the_mapping_loads_nothing():
    """What codegen/generate.py does at build time, with a vendor library named in the environment (which
    `import torch` would load: generate.py turns PyTorch's backend autoloading off for its process)."""
    code = ("import sys, codegen.generate, diopi_torch.ops.mapping as m, diopi_torch._C as c\n"
            "assert not c.loaded() and c._ext is None, 'the extension was opened'\n"
            "assert 'torch' not in sys.modules, 'torch was imported'\n"
            "assert m.load().entries\n"
            "assert not c.loaded() and c._ext is None, 'the mapping loaded the device'\n"
            "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=BRIDGE, timeout=300,
                          env={**os.environ, "DIOPI_IMPL_LIB": "/nonexistent/libdiopi_impl.so"})
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stdout + proc.stderr
