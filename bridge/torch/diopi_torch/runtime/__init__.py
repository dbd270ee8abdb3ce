"""The device's runtime: loading a vendor library and registering the `diopi`
device with PyTorch (the `torch.diopi` module of device_module.py: devices,
streams, memory, random numbers; autocast is registered by the extension),
the fallback mode, and draining the device's autograd thread at exit."""
from __future__ import annotations

import atexit
import os
import sys

from .. import _C, distributed
from ..tools import calllog, named

_drain_registered = False


def _drain_autograd_at_exit():
    """Runs at interpreter exit, while Python is still whole: waits until the
    device's autograd thread has released its last graph task (and the Python
    objects in it), so that release never races the interpreter's teardown
    (see drainAutogradThread in csrc/device.cpp). ctypes releases the GIL
    for the call, which the autograd thread needs for those objects."""
    ext = _C.extension()
    if ext.diopi_torch_drain_autograd() != 0:
        print("diopi_torch: could not drain the device's autograd thread at exit: "
              + ext.diopi_torch_drain_error().decode(), file=sys.stderr)


def _register_backend():
    import torch  # here, not at the top: importing diopi_torch stays free of torch (codegen, precision)

    from . import device_module  # imports torch

    if torch._C._get_privateuse1_backend_name() != _C.BACKEND:
        torch.utils.rename_privateuse1_backend(_C.BACKEND)
        torch._register_device_module(_C.BACKEND, device_module)
        torch.utils.generate_methods_for_privateuse1_backend(for_tensor=True, for_module=True, for_storage=True)
    from . import dynamo_interface
    dynamo_interface.register()  # torch._dynamo's interface for the device, once Dynamo is imported


def load(impl_lib: str | None = None, hooks: str | None = None):
    """Load a vendor's libdiopi_impl.so (default: $DIOPI_IMPL_LIB) and
    register the `diopi` device. One process serves one library."""
    impl_lib = impl_lib or os.environ.get("DIOPI_IMPL_LIB")
    if not impl_lib:
        raise _C.DiopiError("no vendor library: pass diopi_torch.load(path) or set DIOPI_IMPL_LIB")
    impl_lib = os.path.abspath(impl_lib)
    if not os.path.exists(impl_lib):
        raise _C.DiopiError(f"no such library: {impl_lib}")
    _C.open_library(impl_lib, hooks)
    global _drain_registered
    if not _drain_registered:
        # Registered after torch's own handlers, so it runs before them (atexit is last-in, first-out).
        atexit.register(_drain_autograd_at_exit)
        _drain_registered = True
    _register_backend()
    distributed.register()  # torch.distributed backend "diccl" for diopi tensors
    set_fallback(os.environ.get("DIOPI_FALLBACK", "cpu"))
    if os.environ.get("DIOPI_FALLBACK_OPS"):
        try:
            named.set_named(os.environ["DIOPI_FALLBACK_OPS"].split(","))
        except ValueError as e:
            raise _C.DiopiError(f"DIOPI_FALLBACK_OPS: {e}") from None
    calllog.start_from_environment()
    return _C.info()


def set_fallback(mode: str, ops=None):
    """"cpu" (default): operators without a DIOPI kernel run on the CPU and are
    counted; "error": they raise a RuntimeError naming the operator.
    `ops` (ATen operators or DIOPI functions) also run on the CPU from now on,
    counted with reason "named" (an empty list clears them); see fallback()."""
    if mode not in ("cpu", "error"):
        raise ValueError(f"fallback mode must be 'cpu' or 'error', not {mode!r}")
    _C.extension().diopi_torch_set_fallback_error(1 if mode == "error" else 0)
    if ops is not None:
        named.set_named(ops)
