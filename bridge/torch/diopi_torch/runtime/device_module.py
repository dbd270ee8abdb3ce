"""`torch.diopi`: the device module PyTorch looks up for the `diopi` device,
shaped like `torch.cuda` so that code written for CUDA (autocast,
checkpointing, fork_rng, serialization, memory statistics, streams) finds
what it asks for.

Devices, streams and memory statistics go through PyTorch's generic
accelerator API, which reaches the device's guard and allocator
(csrc/device_runtime.cpp, csrc/allocator.cpp); random-number state goes
through the extension (csrc/device.cpp).
"""
from __future__ import annotations

import contextlib
import ctypes
import types

import torch

from .. import _C

BACKEND = _C.BACKEND


def _x():
    if not _C.loaded():
        raise RuntimeError("the diopi device is not loaded; call diopi_torch.load(path)")
    return _C.extension()


def _index(device=None, optional=True) -> int:
    """Device index of `device` (int, "diopi:1", torch.device; None: the current device)."""
    if device is None:
        return current_device()
    if isinstance(device, int):
        return device
    if isinstance(device, str):
        device = torch.device(device)
    if isinstance(device, torch.device):
        if device.type != BACKEND:
            raise ValueError(f"expected a {BACKEND} device, got {device}")
        return current_device() if device.index is None else device.index
    raise TypeError(f"cannot read a device index from {device!r}")


# ---------------------------------------------------------------- devices

def is_available() -> bool:
    return True


_initialized = False


def is_initialized() -> bool:
    return _C.loaded() and not _is_in_bad_fork()


def init():
    _lazy_init()


def _lazy_init():
    """PyTorch calls it before the first tensor of the device is made (and
    again in a forked child): the device is initialised from then on, and a
    child forked after that may not use it, as with CUDA."""
    global _initialized
    if _initialized and not _is_in_bad_fork():
        return
    if _is_in_bad_fork():
        raise RuntimeError(f"Cannot re-initialize {BACKEND} in forked subprocess. To use {BACKEND} with "
                           "multiprocessing, you must use the 'spawn' start method")
    ext = _x()
    ext.diopi_torch_poison_fork()  # from now on a forked child is in a bad fork (csrc/runtime/fork.cpp)
    _initialized = True


def _is_in_bad_fork() -> bool:
    return _C.loaded() and bool(_C.extension().diopi_torch_in_bad_fork())


def device_count() -> int:
    return int(_x().diopi_torch_device_count())


def current_device() -> int:
    return torch.accelerator.current_device_index()


def set_device(device) -> None:
    torch.accelerator.set_device_index(_index(device))


class device:
    """Context manager that makes a device current: `with torch.diopi.device(1): ...`."""

    def __init__(self, device):
        self.idx = _index(device) if device is not None else -1
        self.prev = -1

    def __enter__(self):
        self.prev = current_device()
        if self.idx >= 0:
            set_device(self.idx)

    def __exit__(self, *exc):
        if self.idx >= 0:
            set_device(self.prev)
        return False


class device_of(device):
    """Makes the device of a tensor current (nothing for a host tensor)."""

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.device.type == BACKEND else None)


def synchronize(device=None) -> None:
    torch.accelerator.synchronize(_index(device))


def get_device_name(device=None) -> str:
    import json
    return f"diopi ({json.loads(_x().diopi_torch_info().decode())['runtime']})"


class _DiopiDeviceProperties:
    """What the vendor's runtime (device.h) says of one device, under the
    names torch.cuda's device properties use. The runtime has no compute
    capability, multiprocessor count or cache sizes to report, so those
    attributes are absent, not invented."""

    def __init__(self, index: int):
        self.index = index
        self.type = BACKEND
        self.name = get_device_name(index)
        self.total_memory = int(mem_get_info(index)[1])

    def __repr__(self):
        return f"_DiopiDeviceProperties(name='{self.name}', total_memory={self.total_memory // (1 << 20)}MB, index={self.index})"


def get_device_properties(device=None) -> _DiopiDeviceProperties:
    index = _index(device)
    if not 0 <= index < device_count():
        raise AssertionError("Invalid device id")  # torch.cuda.get_device_properties' own words
    return _DiopiDeviceProperties(index)


# ---------------------------------------------------------------- streams and events

# torch.diopi.Stream / Event make plain torch.Stream / torch.Event objects of
# the device: PyTorch's C++ side accepts only its own types (an Event
# subclass is refused by elapsed_time), so these are constructors, not classes.
class Stream:
    """A stream of a diopi device: `torch.diopi.Stream(device=None, priority=0)` -> torch.Stream."""

    def __new__(cls, device=None, priority=0):
        with globals()["device"](device):
            return torch.Stream(device=torch.device(BACKEND, current_device()), priority=priority)


class Event:
    """An event of the current diopi device: `torch.diopi.Event(enable_timing=False)` -> torch.Event."""

    def __new__(cls, enable_timing=False, blocking=False, interprocess=False):
        return torch.Event(device=torch.device(BACKEND, current_device()), enable_timing=enable_timing,
                           blocking=blocking, interprocess=interprocess)


def current_stream(device=None) -> torch.Stream:
    return torch.accelerator.current_stream(_index(device))


def default_stream(device=None) -> torch.Stream:
    idx = _index(device)
    kind = torch.accelerator.current_stream(idx).device_type  # PyTorch's number for PrivateUse1
    return torch.Stream(stream_id=0, device_index=idx, device_type=kind)


def set_stream(stream) -> None:
    if stream is not None:
        torch.accelerator.set_stream(stream)


@contextlib.contextmanager
def stream(s):
    """Makes `s` the current stream of its device inside the block."""
    if s is None:
        yield
        return
    prev_device = current_device()
    prev = current_stream(s.device_index)
    set_device(s.device_index)
    set_stream(s)
    try:
        yield s
    finally:
        set_stream(prev)
        set_device(prev_device)


StreamContext = stream

# ---------------------------------------------------------------- random numbers


def get_rng_state(device="diopi") -> torch.Tensor:
    idx = _index(device)
    ext = _x()
    n = ext.diopi_torch_rng_state(idx, None, 0)
    if n < 0:
        raise RuntimeError(ext.diopi_torch_error().decode())
    buf = (ctypes.c_uint8 * n)()
    ext.diopi_torch_rng_state(idx, buf, n)
    return torch.tensor(bytearray(buf), dtype=torch.uint8)


def set_rng_state(new_state: torch.Tensor, device="diopi") -> None:
    data = bytes(new_state.to(torch.uint8).contiguous().cpu().numpy().tobytes())
    ext = _x()
    if ext.diopi_torch_set_rng_state(_index(device), data, len(data)) != 0:
        raise RuntimeError(ext.diopi_torch_error().decode())


def get_rng_state_all() -> list:
    return [get_rng_state(i) for i in range(device_count())]


def set_rng_state_all(states) -> None:
    for i, s in enumerate(states):
        set_rng_state(s, i)


def manual_seed(seed) -> None:
    _x().diopi_torch_manual_seed(current_device(), ctypes.c_uint64(int(seed) & 0xFFFFFFFFFFFFFFFF))


def manual_seed_all(seed) -> None:
    for i in range(device_count()):
        _x().diopi_torch_manual_seed(i, ctypes.c_uint64(int(seed) & 0xFFFFFFFFFFFFFFFF))


def seed() -> None:
    _x().diopi_torch_seed(current_device())


def seed_all() -> None:
    for i in range(device_count()):
        _x().diopi_torch_seed(i)


def initial_seed() -> int:
    return int(_x().diopi_torch_initial_seed(current_device()))


# ---------------------------------------------------------------- mixed precision

def get_amp_supported_dtype() -> list:
    """Dtypes torch.autocast("diopi", dtype=...) accepts: the 16-bit floats the standard documents."""
    return [torch.float16, torch.bfloat16]


def is_bf16_supported(including_emulation: bool = True) -> bool:
    return True


def _is_autocast_enabled() -> bool:
    return torch.is_autocast_enabled(BACKEND)


def _get_autocast_dtype():
    return torch.get_autocast_dtype(BACKEND)


# ---------------------------------------------------------------- memory

def memory_stats(device=None) -> dict:
    return dict(torch.accelerator.memory_stats(_index(device)))


def memory_allocated(device=None) -> int:
    return torch.accelerator.memory_allocated(_index(device))


def max_memory_allocated(device=None) -> int:
    return torch.accelerator.max_memory_allocated(_index(device))


def memory_reserved(device=None) -> int:
    return torch.accelerator.memory_reserved(_index(device))


def max_memory_reserved(device=None) -> int:
    return torch.accelerator.max_memory_reserved(_index(device))


def reset_peak_memory_stats(device=None) -> None:
    torch.accelerator.reset_peak_memory_stats(_index(device))


def reset_accumulated_memory_stats(device=None) -> None:
    torch.accelerator.reset_accumulated_memory_stats(_index(device))


def empty_cache() -> None:
    torch.accelerator.empty_cache()


def mem_get_info(device=None) -> tuple:
    """(free, total) bytes of the device, as its runtime reports them."""
    return tuple(torch.accelerator.get_memory_info(_index(device)))


def memory_summary(device=None) -> str:
    s = memory_stats(device)
    mib = 1 << 20
    return (f"diopi:{_index(device)}: allocated {s.get('allocated_bytes.all.current', 0) / mib:.1f} MiB "
            f"(peak {s.get('allocated_bytes.all.peak', 0) / mib:.1f} MiB), reserved "
            f"{s.get('reserved_bytes.all.current', 0) / mib:.1f} MiB (peak {s.get('reserved_bytes.all.peak', 0) / mib:.1f} MiB), "
            f"{s.get('num_alloc_retries', 0)} retries, {s.get('num_ooms', 0)} out-of-memory errors")


# torch.serialization and torch._utils look for torch.<device>._utils._get_device_index.
_utils = types.SimpleNamespace(_get_device_index=lambda device, optional=False, allow_cpu=False: _index(device))
