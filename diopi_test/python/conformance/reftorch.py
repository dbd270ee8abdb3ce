"""`torch` for config references, imported on first use.

Configs are imported by run_test's tools too (coverage, listing), where
torch may be absent; references only run under gen_data.
"""
import importlib


class _LazyModule:
    def __init__(self, name):
        self._name = name
        self._mod = None

    def __getattr__(self, attr):
        if self._mod is None:
            self._mod = importlib.import_module(self._name)
        return getattr(self._mod, attr)


torch = _LazyModule("torch")
F = _LazyModule("torch.nn.functional")
