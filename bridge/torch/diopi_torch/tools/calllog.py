"""The call log: one line per DIOPI call (and per CPU fallback) of the device.

    DIOPI_LOG_CALLS=calls.log python train.py      # from load() to the end of the process
    with diopi_torch.log_calls("calls.log"):        # or around a block
        loss = model(**batch).loss

A line reads

    41 fwd aten::silu -> diopiSilu(out=float32[2,8,128]{1024,128,1}, input=float32[2,8,128]{1024,128,1}) = diopiSuccess 3.1 us
    57 bwd(MmBackward0) aten::mm -> diopiMm(out=..., input=..., mat2=...) = diopiSuccess 12.4 us
    60 fwd aten::gelu -> cpu(float32[2,8,128]{1024,128,1}, "none") = fallback (named) 25.0 us

the call's number, forward or backward (with the autograd node), the ATen
operator, the DIOPI function and its arguments by the header's parameter
names (tensors as dtype[shape]{strides in elements}, scalars, sizes, enum
values as numbers), the status, and the time of the vendor call. The
extension formats each line in the calling thread and keeps it in memory;
a background thread writes blocks of 1 MiB, and the rest is written when
the log stops (at the end of the block, or at exit for DIOPI_LOG_CALLS).
"""
from __future__ import annotations

import atexit
import contextlib
import os

from .. import _C

_env_path = None


def start(path):
    """Starts writing the call log to `path` (one log at a time)."""
    lib = _C.extension()
    if lib.diopi_torch_log_start(os.path.abspath(path).encode()) != 0:
        raise _C.DiopiError(lib.diopi_torch_error().decode())


def stop():
    """Stops the call log and writes what is left; the number of lines written."""
    return int(_C.extension().diopi_torch_log_stop())


@contextlib.contextmanager
def log_calls(path):
    start(path)
    try:
        yield path
    finally:
        stop()


def start_from_environment():
    """DIOPI_LOG_CALLS=FILE: the log runs from load() until the process exits."""
    global _env_path
    path = os.environ.get("DIOPI_LOG_CALLS")
    if not path or _env_path is not None:
        return
    start(path)
    _env_path = path
    atexit.register(stop)
