"""The device's interface for TorchDynamo (torch._dynamo.device_interface),
as CUDA has one: compiled code that makes streams and events of the device,
asks for its current device or stream, or synchronizes it is traced the way
CUDA's is, whatever backend compiles it.

Registered when torch._dynamo.device_interface is first imported (importing
Dynamo only for this would cost seconds on every load), or at once when it
already is."""
from __future__ import annotations

import importlib.abc
import importlib.util
import sys

MODULE = "torch._dynamo.device_interface"


def _interface():
    import torch
    from torch._dynamo.device_interface import DeviceInterface, caching_worker_current_devices, caching_worker_device_properties

    from .. import _C
    from . import device_module as dm

    name = _C.BACKEND

    class DiopiInterface(DeviceInterface):
        device = dm.device
        # The device's streams and events are PyTorch's own types (torch.diopi.Stream() makes a torch.Stream).
        Event = torch.Event
        Stream = torch.Stream

        class Worker:
            """What compile workers (other processes) may ask without touching the device."""

            @staticmethod
            def set_device(device: int) -> None:
                caching_worker_current_devices[name] = device

            @staticmethod
            def current_device() -> int:
                return caching_worker_current_devices.get(name, dm.current_device())

            @staticmethod
            def get_device_properties(device=None):
                index = DiopiInterface.Worker.current_device() if device is None else dm._index(device)
                if name not in caching_worker_device_properties:
                    caching_worker_device_properties[name] = [dm.get_device_properties(i) for i in range(dm.device_count())]
                return caching_worker_device_properties[name][index]

        current_device = staticmethod(dm.current_device)
        set_device = staticmethod(dm.set_device)
        device_count = staticmethod(dm.device_count)
        stream = staticmethod(dm.stream)
        current_stream = staticmethod(dm.current_stream)
        set_stream = staticmethod(dm.set_stream)
        synchronize = staticmethod(dm.synchronize)
        get_device_properties = staticmethod(dm.get_device_properties)
        memory_allocated = staticmethod(dm.memory_allocated)
        is_bf16_supported = staticmethod(dm.is_bf16_supported)

        @staticmethod
        def is_available() -> bool:
            return dm.is_available()

        @staticmethod
        def exchange_device(device: int) -> int:
            prev = dm.current_device()
            if device >= 0 and device != prev:
                dm.set_device(device)
            return prev

        maybe_exchange_device = exchange_device

        @staticmethod
        def _set_stream_by_id(stream_id: int, device_index: int, device_type: int) -> None:
            dm.set_stream(torch.Stream(stream_id=stream_id, device_index=device_index, device_type=device_type))

        @staticmethod
        def get_raw_stream(device_idx: int) -> int:
            return dm.current_stream(device_idx).native_handle

        @staticmethod
        def get_compute_capability(device=None):
            # No compute capability in the CUDA sense: the vendor's runtime names its device instead.
            return dm.get_device_name(device)

        @staticmethod
        def is_triton_capable(device=None) -> bool:
            return False

    return DiopiInterface


def _register():
    from torch._dynamo.device_interface import register_interface_for_device

    from . import device_module as dm

    interface = _interface()
    register_interface_for_device(dm.BACKEND, interface)
    for i in range(dm.device_count()):
        register_interface_for_device(f"{dm.BACKEND}:{i}", interface)


class _WhenImported(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Lets torch._dynamo.device_interface load as usual, then registers the device's interface in it."""

    def find_spec(self, fullname, path, target=None):
        if fullname != MODULE:
            return None
        sys.meta_path.remove(self)  # find the real module's spec once, without this finder
        try:
            spec = importlib.util.find_spec(fullname)
        finally:
            sys.meta_path.insert(0, self)
        if spec is None:
            return None
        self._loader = spec.loader
        spec.loader = self
        return spec

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        _register()


def register():
    if MODULE in sys.modules:
        _register()
    elif not any(isinstance(f, _WhenImported) for f in sys.meta_path):
        sys.meta_path.insert(0, _WhenImported())
