"""Checks of the library as a whole, run in each worker before its first case.

The runtime_info functions take no tensors, so they get no baselines: the
harness checks what the standard promises of them in every run instead.
"""
import time

import numpy as np

from .call import Tensor, read_handle
from .verdicts import FAILED, NO_MESSAGE, NOT_IMPLEMENTED, PASSED, is_no_implement

LIBRARY_CHECKS = {
    "diopiGetVendorName": "returns a non-empty printable name",
    "diopiGetImplVersion": "returns a non-empty printable version",
    "diopiGetLastErrorString": "returns a valid C string before any error",
    # Their results are vendor-defined, so they are checked by a property
    # instead of a baseline.
    "diopiGetNativeMemoryFormat": "reports a format code that diopiNativeMemoryFormatCast accepts and that keeps the values",
    "diopiTensorDestructionHook": "accepts the data address of a tensor being released",
}
_STRING_CHECKS = ("diopiGetVendorName", "diopiGetImplVersion", "diopiGetLastErrorString")


def _printable(text, limit=256):
    return 0 < len(text) <= limit and text.isprintable()


def run_all(lib):
    """[func, verdict, message, seconds] for each function of LIBRARY_CHECKS,
    run in the worker (a crash here ends that worker like any case would)."""
    out = []
    for func, what in LIBRARY_CHECKS.items():
        fn = lib.function(func)
        if fn is None:
            out.append([func, NOT_IMPLEMENTED, f"{func} is not exported by the library", 0.0])
            continue
        started = time.monotonic()
        verdict, message = _check(lib, func, fn, what)
        out.append([func, verdict, message, round(time.monotonic() - started, 6)])
    return out


def _check(lib, func, fn, what):
    """(verdict, message) of one library check."""
    if func not in _STRING_CHECKS:
        return _CONTEXT_CHECKS[func](lib, fn, what)
    ptr = fn()
    if ptr == lib.ffi.NULL:
        return FAILED, f"{func}() returned NULL; the standard asks that it {what}"
    text = lib.string(ptr)
    ok = _printable(text) if func != "diopiGetLastErrorString" else (text == "" or text.isprintable())
    return PASSED if ok else FAILED, f"{func}() -> {text[:80]!r}" + ("" if ok else f"; the standard asks that it {what}")


def _status(lib, func, rc, what):
    """(verdict, message) for a non-success return of a library check."""
    msg = lib.last_error()
    if is_no_implement(rc):
        return NOT_IMPLEMENTED, f"{func} returned diopiNoImplement: {msg}"
    if not msg.strip():
        return NO_MESSAGE, f"{func} returned error {rc} with an empty diopiGetLastErrorString()"
    return FAILED, f"{func} returned error {rc} ({msg}); the standard asks that it {what}"


def _check_native_format(lib, fn, what):
    """Query the native format of a 4-D tensor, cast the tensor to it and
    check the values survive and the input is untouched."""
    ffi = lib.ffi
    values = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    ctx = lib.rt.dt_context_create()
    t = Tensor.from_array(lib, values, "float32", "contiguous")
    try:
        fmt = ffi.new("int64_t*")
        rc = fn(ctx, t.handle, fmt)
        if rc != 0:
            return _status(lib, "diopiGetNativeMemoryFormat", rc, what)
        cast = lib.function("diopiNativeMemoryFormatCast")
        if cast is None:
            return PASSED, f"format {fmt[0]} (diopiNativeMemoryFormatCast not exported, round trip not checked)"
        out = ffi.new("diopiTensorHandle_t*")
        rc = cast(ctx, out, t.handle, fmt[0])
        lib.rt.dt_context_sync(ctx)
        if rc != 0:
            return _status(lib, "diopiNativeMemoryFormatCast", rc, what)
        if out[0] == ffi.NULL:
            return FAILED, f"diopiNativeMemoryFormatCast to format {fmt[0]} left out NULL"
        got, dtype = read_handle(lib, out[0])
        if dtype != "float32" or tuple(got.shape) != values.shape or not np.array_equal(got, values):
            return FAILED, f"casting to the reported native format {fmt[0]} changed the tensor ({dtype}, shape {tuple(got.shape)})"
        if not lib.rt.dt_tensor_guard_ok(t.handle) or t.storage_bytes() != t.initial:
            return FAILED, "diopiGetNativeMemoryFormat or the cast modified the input tensor"
        return PASSED, f"native format {fmt[0]} round-trips the values"
    finally:
        t.destroy()
        lib.rt.dt_context_destroy(ctx)


def _check_destruction_hook(lib, fn, what):
    ffi = lib.ffi
    ctx = lib.rt.dt_context_create()
    storage = ffi.new("char[]", 64)  # stands for storage about to be released
    try:
        rc = fn(ctx, ffi.cast("void*", storage))
        if rc != 0:
            return _status(lib, "diopiTensorDestructionHook", rc, what)
        return PASSED, "accepted a released storage address"
    finally:
        lib.rt.dt_context_destroy(ctx)


_CONTEXT_CHECKS = {
    "diopiGetNativeMemoryFormat": _check_native_format,
    "diopiTensorDestructionHook": _check_destruction_hook,
}
