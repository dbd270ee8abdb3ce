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

from . import calllog, named, opcapture, timer


def fallback(ops):
    """`with diopi_torch.fallback(ops=["gelu", "diopiSoftmax"]):` the named
    operators run on the CPU inside the block (named.py)."""
    return named.fallback(ops)


def op_timer():
    """Per ATen operator and DIOPI function: calls, times, forward and
    backward apart (timer.py)."""
    return timer.op_timer()


def log_calls(path):
    """`with diopi_torch.log_calls("calls.log"):` one line per DIOPI call (calllog.py)."""
    return calllog.log_calls(path)


def op_capture(out_dir, ops=None, max_calls=100, model=None):
    """`with diopi_torch.op_capture(dir, ops=[...]):` the real inputs and
    outputs of chosen calls as harness baselines (opcapture.py)."""
    return opcapture.op_capture(out_dir, ops=ops, max_calls=max_calls, model=model)
