"""The conformance harness, for the bring-up tools that write or replay its
baselines (opcapture.py, precision.py): the installed package
(`pip install .` at the repository root), else this checkout's
diopi_test/python/conformance, loaded as that one package. Asked for only
when a tool needs it, so the device never imports the harness otherwise."""
from __future__ import annotations

import importlib.util
import os
import sys

from .. import _C

CHECKOUT_HARNESS = os.path.join(_C.CHECKOUT, "diopi_test", "python", "conformance")


def conformance():
    """The `conformance` package; its submodules import as usual afterwards (from conformance import store)."""
    if "conformance" in sys.modules:
        return sys.modules["conformance"]
    if importlib.util.find_spec("conformance") is not None:
        import conformance as installed
        return installed
    init = os.path.join(CHECKOUT_HARNESS, "__init__.py")
    if not os.path.exists(init):
        raise ImportError("the conformance harness is not installed (pip install . at the repository root) and this "
                          f"package is not inside a checkout ({CHECKOUT_HARNESS} is missing)")
    spec = importlib.util.spec_from_file_location("conformance", init, submodule_search_locations=[CHECKOUT_HARNESS])
    module = importlib.util.module_from_spec(spec)
    sys.modules["conformance"] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules["conformance"]
        raise
    return module
