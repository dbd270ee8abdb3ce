"""The entry point PyTorch calls on `import torch` (group `torch.backends` in
pyproject.toml), the way out-of-tree backends become available without an
import of their own: with $DIOPI_IMPL_LIB set, the `diopi` device is loaded
and registered then; without it nothing happens (diopi_torch.load(path)
works as before). TORCH_DEVICE_BACKEND_AUTOLOAD=0 turns autoloading off, as
for every backend."""
from __future__ import annotations

import os


def autoload():
    if not os.environ.get("DIOPI_IMPL_LIB"):
        return
    from . import load  # here: this module is imported while torch itself is still importing
    load()
