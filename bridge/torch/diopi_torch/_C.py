"""The loader: opens the device's extension (libdiopi_torch.so) and, through
it, the vendor library, and declares every foreign signature the package
calls. A leaf: it imports nothing of diopi_torch, and every room reaches the
native side through it.

Where the extension is found, first match wins:
  $DIOPI_TORCH_EXT                      a build of your choosing
  diopi_torch/_lib/libdiopi_torch.so    an installed (non-editable) package: setup.py copies the build in
  <checkout>/build/bridge/              an editable install or a source tree (scripts/build_bridge.sh)
The distributed backend (_distributed<EXT_SUFFIX>) sits beside the extension.
"""
from __future__ import annotations

import ctypes
import functools
import importlib.machinery
import importlib.util
import json
import os
import sysconfig

BACKEND = "diopi"
EXTENSION = "libdiopi_torch.so"
PACKAGED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_lib")
# The checkout this file sits in (bridge/torch/diopi_torch/_C.py), when it does: its build/ and impl/ folders.
CHECKOUT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CHECKOUT_BUILD = os.path.join(CHECKOUT, "build", "bridge")

_ext = None
_library = None  # the vendor library loaded into this process (one per process)


class DiopiError(RuntimeError):
    pass


class DistributedUnavailable(RuntimeError):
    pass


def extension_path() -> str:
    if os.environ.get("DIOPI_TORCH_EXT"):
        return os.environ["DIOPI_TORCH_EXT"]
    packaged = os.path.join(PACKAGED, EXTENSION)
    return packaged if os.path.exists(packaged) else os.path.join(CHECKOUT_BUILD, EXTENSION)


def _declare(ext):
    c_char_p, c_int, c_int64, c_uint64, c_void_p = ctypes.c_char_p, ctypes.c_int, ctypes.c_int64, ctypes.c_uint64, ctypes.c_void_p
    ext.diopi_torch_load.argtypes = [c_char_p, c_char_p]
    ext.diopi_torch_load.restype = c_int
    for name in ("diopi_torch_error", "diopi_torch_info", "diopi_torch_stats", "diopi_torch_last_call",
                 "diopi_torch_drain_error", "diopi_torch_timer_report"):
        getattr(ext, name).restype = c_char_p
    ext.diopi_torch_call_seq.restype = c_uint64
    # the device module: random-number state per device
    ext.diopi_torch_initial_seed.restype = c_uint64
    ext.diopi_torch_initial_seed.argtypes = [c_int]
    ext.diopi_torch_manual_seed.argtypes = [c_int, c_uint64]
    ext.diopi_torch_seed.argtypes = [c_int]
    ext.diopi_torch_rng_state.restype = c_int64
    ext.diopi_torch_rng_state.argtypes = [c_int, c_void_p, c_int64]
    ext.diopi_torch_set_rng_state.argtypes = [c_int, c_char_p, c_int64]
    ext.diopi_torch_set_fallback_error.argtypes = [c_int]
    # the tools: op timer, call log, named fallbacks
    ext.diopi_torch_timer_start.restype = c_int
    ext.diopi_torch_log_start.argtypes = [c_char_p]
    ext.diopi_torch_log_start.restype = c_int
    ext.diopi_torch_log_stop.restype = c_uint64
    ext.diopi_torch_set_named_fallback.argtypes = [c_char_p]


def extension():
    """The extension, opened once (it registers the device's operators and torch.ops.diopi_graph)."""
    global _ext
    if _ext is not None:
        return _ext
    import torch  # noqa: F401  (libtorch must be loaded before the extension)

    path = extension_path()
    if not os.path.exists(path):
        raise DiopiError(f"the diopi device is not built: {path} is missing; run bash scripts/build_bridge.sh")
    # RTLD_GLOBAL: the vendor library resolves the runtime functions of
    # diopirt.h (diopiGetTensorData, ...) against this extension.
    ext = ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)
    _declare(ext)
    _ext = ext
    return ext


def open_library(impl_lib: str, hooks: str | None = None):
    """Loads the vendor's libdiopi_impl.so into the extension (one library per process)."""
    global _library
    ext = extension()
    if ext.diopi_torch_load(impl_lib.encode(), (hooks or "").encode()) != 0:
        raise DiopiError(ext.diopi_torch_error().decode())
    _library = impl_lib


def loaded() -> bool:
    """Whether a vendor library is loaded (the device is usable)."""
    return _library is not None


def last_error() -> str:
    return extension().diopi_torch_error().decode()


def info() -> dict:
    """The loaded library: path, vendor name and version, memory hooks."""
    return json.loads(extension().diopi_torch_info().decode())


def call_seq() -> int:
    """Number of DIOPI calls made so far (autocompare uses it)."""
    return int(extension().diopi_torch_call_seq())


def last_call() -> tuple:
    """(ATen operator, DIOPI function) of the latest DIOPI call."""
    s = extension().diopi_torch_last_call().decode()
    return tuple(s.split("|", 1)) if s else ("", "")


@functools.lru_cache(maxsize=None)
def distributed_module():
    """The C++ process-group backend, a Python extension module beside libdiopi_torch.so."""
    extension()  # libdiopi_torch.so first: the module resolves the loaded vendor library through it
    path = os.path.join(os.path.dirname(extension_path()), "_distributed" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not os.path.exists(path):
        raise DistributedUnavailable(f"the diopi device's distributed backend is not built: {path} is missing")
    loader = importlib.machinery.ExtensionFileLoader("diopi_torch._distributed", path)
    spec = importlib.util.spec_from_file_location("diopi_torch._distributed", path, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod
