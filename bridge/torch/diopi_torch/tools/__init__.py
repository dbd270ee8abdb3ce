"""The tools of bringing a model up on a new library, on the `diopi` device.

    op_timer()        time per ATen operator and DIOPI function (timer.py)
    fallback(ops=)    run named operators on the CPU (named.py)
    log_calls(path)   one line per DIOPI call (calllog.py)
    op_capture(dir)   save real inputs/outputs of chosen calls as harness baselines (capture.py)
    precision         replay a capture on another library, differences sorted (precision.py; no torch)

Profiler events need no tool: every DIOPI call is a `torch.profiler` event
under its ATen operator (csrc/tools.cpp).

Nothing here imports torch at import time, so `python -m
diopi_torch.tools.precision` runs where only numpy and cffi are installed.
"""
from __future__ import annotations

import ctypes

_configured = None


def ext():
    """The device's extension with the tools' C functions declared."""
    global _configured
    import diopi_torch

    lib = diopi_torch._open_extension()
    if _configured is not lib:
        lib.diopi_torch_timer_start.restype = ctypes.c_int
        lib.diopi_torch_timer_report.restype = ctypes.c_char_p
        lib.diopi_torch_log_start.argtypes = [ctypes.c_char_p]
        lib.diopi_torch_log_start.restype = ctypes.c_int
        lib.diopi_torch_log_stop.restype = ctypes.c_uint64
        lib.diopi_torch_set_named_fallback.argtypes = [ctypes.c_char_p]
        _configured = lib
    return lib
