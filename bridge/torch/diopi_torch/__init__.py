"""PyTorch device `diopi`: ATen operators served by any DIOPI operator library.

    import torch, diopi_torch
    diopi_torch.load("build/torch/lib/libdiopi_impl.so")   # or diopi_torch.load() with DIOPI_IMPL_LIB set
    # with DIOPI_IMPL_LIB set, `import torch` alone loads the device (PyTorch's autoloading of
    # out-of-tree backends: the `torch.backends` entry point, runtime/autoload.py)
    x = torch.randn(3, device="diopi")
    model.to("diopi")
    diopi_torch.stats()       # per ATen operator: DIOPI calls, fallbacks, views, copies

Operators that the mapping (aten_to_diopi.yaml) sends to DIOPI run in the
vendor library; the others, and those the library refuses with
diopiNoImplement / diopiDtypeNotSupported, run on the CPU and are counted as
fallbacks. DIOPI_FALLBACK=error (or set_fallback("error")) turns a fallback
into a RuntimeError naming the operator.

The tools of bringing a model up (diopi_torch/tools/): op_timer(),
fallback(ops=[...]) and DIOPI_FALLBACK_OPS, log_calls(path) and
DIOPI_LOG_CALLS, op_capture(dir, ops=[...]); every DIOPI call is also a
torch.profiler event under its ATen operator.

This file is the façade; the rooms (bridge/torch/README.md) are _C (the
loader), runtime/, ops/, graph/, distributed/, tools/ and suite/. Importing
the package (or ops/, runtime/, tools/, distributed/) loads nothing and imports
no torch: loading happens in load(), and diopi_torch.ops serves the code
generator with no extension built.
"""
from ._C import BACKEND, DiopiError, call_seq, info, last_call
from .runtime import load, set_fallback
from .tools import fallback, log_calls, op_capture, op_timer
from .tools.stats import GRAPH_KEY, reset_stats, stats, summary

__all__ = ["BACKEND", "DiopiError", "GRAPH_KEY", "call_seq", "fallback", "info", "last_call", "load", "log_calls",
           "op_capture", "op_timer", "reset_stats", "set_fallback", "stats", "summary"]
