"""PyTorch device `diopi`: ATen operators served by any DIOPI operator library.

    import torch, diopi_torch
    diopi_torch.load("build/torch/lib/libdiopi_impl.so")   # or set DIOPI_IMPL_LIB
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

Importing this package does not load anything; `mapping` and `schemas` are
usable without the C++ extension.
"""
from __future__ import annotations

import atexit
import ctypes
import json
import os
import sys
import types

from .tools import calllog as tools_calllog
from .tools import named as tools_named

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(_HERE)))
DEFAULT_EXTENSION = os.path.join(_ROOT, "build", "bridge", "libdiopi_torch.so")
BACKEND = "diopi"

_ext = None
_drain_registered = False


class DiopiError(RuntimeError):
    pass


def _extension_path():
    return os.environ.get("DIOPI_TORCH_EXT", DEFAULT_EXTENSION)


def _open_extension():
    global _ext
    if _ext is not None:
        return _ext
    import torch  # noqa: F401  (libtorch must be loaded before the extension)

    path = _extension_path()
    if not os.path.exists(path):
        raise DiopiError(f"the diopi device is not built: {path} is missing; run bash scripts/build_bridge.sh")
    # RTLD_GLOBAL: the vendor library resolves the runtime functions of
    # diopirt.h (diopiGetTensorData, ...) against this extension.
    ext = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    ext.diopi_torch_load.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    ext.diopi_torch_load.restype = ctypes.c_int
    for name in ("diopi_torch_error", "diopi_torch_info", "diopi_torch_stats", "diopi_torch_last_call"):
        getattr(ext, name).restype = ctypes.c_char_p
    ext.diopi_torch_call_seq.restype = ctypes.c_uint64
    ext.diopi_torch_initial_seed.restype = ctypes.c_uint64
    ext.diopi_torch_initial_seed.argtypes = [ctypes.c_int]
    ext.diopi_torch_manual_seed.argtypes = [ctypes.c_int, ctypes.c_uint64]
    ext.diopi_torch_seed.argtypes = [ctypes.c_int]
    ext.diopi_torch_rng_state.restype = ctypes.c_int64
    ext.diopi_torch_rng_state.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int64]
    ext.diopi_torch_set_rng_state.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int64]
    ext.diopi_torch_set_fallback_error.argtypes = [ctypes.c_int]
    ext.diopi_torch_drain_error.restype = ctypes.c_char_p
    _ext = ext
    return ext


def _drain_autograd_at_exit():
    """Runs at interpreter exit, while Python is still whole: waits until the
    device's autograd thread has released its last graph task (and the Python
    objects in it), so that release never races the interpreter's teardown
    (see drainAutogradThread in csrc/device.cpp). ctypes releases the GIL
    for the call, which the autograd thread needs for those objects."""
    if _ext is not None and _ext.diopi_torch_drain_autograd() != 0:
        print("diopi_torch: could not drain the device's autograd thread at exit: "
              + _ext.diopi_torch_drain_error().decode(), file=sys.stderr)


def _register_backend():
    import torch

    from .runtime import device_module

    device_module._ext = _open_extension()
    if torch._C._get_privateuse1_backend_name() != BACKEND:
        torch.utils.rename_privateuse1_backend(BACKEND)
        torch._register_device_module(BACKEND, device_module)
        torch.utils.generate_methods_for_privateuse1_backend(for_tensor=True, for_module=True, for_storage=True)


def load(impl_lib: str | None = None, hooks: str | None = None):
    """Load a vendor's libdiopi_impl.so (default: $DIOPI_IMPL_LIB) and
    register the `diopi` device. One process serves one library."""
    impl_lib = impl_lib or os.environ.get("DIOPI_IMPL_LIB")
    if not impl_lib:
        raise DiopiError("no vendor library: pass diopi_torch.load(path) or set DIOPI_IMPL_LIB")
    impl_lib = os.path.abspath(impl_lib)
    if not os.path.exists(impl_lib):
        raise DiopiError(f"no such library: {impl_lib}")
    ext = _open_extension()
    if ext.diopi_torch_load(impl_lib.encode(), (hooks or "").encode()) != 0:
        raise DiopiError(ext.diopi_torch_error().decode())
    global _drain_registered
    if not _drain_registered:
        # Registered after torch's own handlers, so it runs before them (atexit is last-in, first-out).
        atexit.register(_drain_autograd_at_exit)
        _drain_registered = True
    _register_backend()
    from . import distributed; distributed.register()  # torch.distributed backend "diccl" for diopi tensors
    set_fallback(os.environ.get("DIOPI_FALLBACK", "cpu"))
    if os.environ.get("DIOPI_FALLBACK_OPS"):
        try:
            tools_named.set_named(os.environ["DIOPI_FALLBACK_OPS"].split(","))
        except ValueError as e:
            raise DiopiError(f"DIOPI_FALLBACK_OPS: {e}") from None
    tools_calllog.start_from_environment()
    return info()


def info() -> dict:
    """The loaded library: path, vendor name and version, memory hooks."""
    return json.loads(_open_extension().diopi_torch_info().decode())


def set_fallback(mode: str, ops=None):
    """"cpu" (default): operators without a DIOPI kernel run on the CPU and are
    counted; "error": they raise a RuntimeError naming the operator.
    `ops` (ATen operators or DIOPI functions) also run on the CPU from now on,
    counted with reason "named" (an empty list clears them); see fallback()."""
    if mode not in ("cpu", "error"):
        raise ValueError(f"fallback mode must be 'cpu' or 'error', not {mode!r}")
    _open_extension().diopi_torch_set_fallback_error(1 if mode == "error" else 0)
    if ops is not None:
        tools_named.set_named(ops)


def fallback(ops):
    """`with diopi_torch.fallback(ops=["gelu", "diopiSoftmax"]):` the named
    operators run on the CPU inside the block (diopi_torch/tools/named.py)."""
    return tools_named.fallback(ops)


def op_timer():
    """Per ATen operator and DIOPI function: calls, times, forward and
    backward apart (diopi_torch/tools/timer.py)."""
    from .tools import timer
    return timer.op_timer()


def log_calls(path):
    """`with diopi_torch.log_calls("calls.log"):` one line per DIOPI call
    (diopi_torch/tools/calllog.py)."""
    return tools_calllog.log_calls(path)


def op_capture(out_dir, ops=None, max_calls=100, model=None):
    """`with diopi_torch.op_capture(dir, ops=[...]):` the real inputs and
    outputs of chosen calls as harness baselines (diopi_torch/tools/opcapture.py)."""
    from .tools import opcapture
    return opcapture.op_capture(out_dir, ops=ops, max_calls=max_calls, model=model)


def stats() -> dict:
    """Per ATen operator: {"diopi": n, "fallback": n, "view": n, "copy": n,
    "functions": {DIOPI function: n}, "reasons": {fallback reason: n}}.
    Once torch.compile(backend="diopi") has been used, the DIOPI calls of
    compiled graphs are counted under their ATen operators too, and the key
    "graph" holds the compile route's own counters (diopi_torch.graph.stats)."""
    st = json.loads(_open_extension().diopi_torch_stats().decode())
    graph = sys.modules.get(__name__ + ".graph")
    if graph is not None:
        from .graph import runtime
        calls, _ = runtime.op_counts()
        for (aten, fn), n in calls.items():
            if not n:
                continue
            c = st.setdefault(aten, {"diopi": 0, "fallback": 0, "view": 0, "copy": 0, "functions": {}, "reasons": {}})
            c["diopi"] += n
            c["functions"][fn] = c["functions"].get(fn, 0) + n
        from .graph import stats as graph_stats
        st[GRAPH_KEY] = graph_stats.snapshot()
    return st


GRAPH_KEY = "graph"


def reset_stats():
    _open_extension().diopi_torch_reset_stats()
    graph = sys.modules.get(__name__ + ".graph")
    if graph is not None:
        from .graph import runtime, stats as graph_stats
        runtime.reset_counts()
        graph_stats.reset()


def summary(st: dict | None = None) -> dict:
    """Totals of stats(): aten_calls (= diopi_calls + fallback_calls), view_calls,
    copy_calls and the fallback operators with their counts."""
    st = stats() if st is None else st
    st = {k: v for k, v in st.items() if k != GRAPH_KEY}
    d = sum(v["diopi"] for v in st.values())
    f = sum(v["fallback"] for v in st.values())
    return {"aten_calls": d + f, "diopi_calls": d, "fallback_calls": f,
            "view_calls": sum(v["view"] for v in st.values()), "copy_calls": sum(v["copy"] for v in st.values()),
            "fallback_ops": {k: v["fallback"] for k, v in sorted(st.items(), key=lambda kv: -kv[1]["fallback"])
                             if v["fallback"]}}


def call_seq() -> int:
    """Number of DIOPI calls made so far (autocompare uses it)."""
    return int(_open_extension().diopi_torch_call_seq())


def last_call() -> tuple:
    """(ATen operator, DIOPI function) of the latest DIOPI call."""
    s = _open_extension().diopi_torch_last_call().decode()
    return tuple(s.split("|", 1)) if s else ("", "")


if os.environ.get("DIOPI_IMPL_LIB"):
    load()
