"""torch.distributed on the `diopi` device: the process-group backend "diccl".

    import torch, torch.distributed as dist, diopi_torch
    diopi_torch.load()                       # registers the backend too
    dist.init_process_group()                # picks "diccl" for diopi tensors (or "diccl", or "cpu:gloo,diopi:diccl")
    dist.all_reduce(torch.ones(4, device="diopi"))
    diopi_torch.distributed.stats()          # per collective: vendor calls, staged calls (with why), bytes staged

A collective on diopi tensors calls the vendor library's collective interface (diopi/collective.h) when the library
exports the function; otherwise (impl/cpu, or DIOPI_DIST_STAGED=1) the tensors are staged through host memory and
reduced by Gloo, and each such call is counted with its reason. CPU tensors given to "diccl" go to Gloo directly.
Point-to-point calls start when they are waited for (or at the next collective), together with the other ones made
before, so that ranks sending to each other do not wait on each other. The C++ side is csrc/distributed.cpp.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.machinery
import importlib.util
import json
import os
import sysconfig
import types

BACKEND_NAME = "diccl"
DEVICE = "diopi"

_registered = False


class DistributedUnavailable(RuntimeError):
    pass


@functools.lru_cache(maxsize=None)
def _module():
    """The C++ backend (the _distributed extension built beside libdiopi_torch.so)."""
    from .. import _extension_path, _open_extension

    _open_extension()  # libdiopi_torch.so first: the module resolves the loaded vendor library through it
    path = os.path.join(os.path.dirname(_extension_path()), "_distributed" + sysconfig.get_config_var("EXT_SUFFIX"))
    if not os.path.exists(path):
        raise DistributedUnavailable(f"the diopi device's distributed backend is not built: {path} is missing")
    loader = importlib.machinery.ExtensionFileLoader("diopi_torch._distributed", path)
    spec = importlib.util.spec_from_file_location("diopi_torch._distributed", path, loader=loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def _create(backend_opts, pg_options):
    """torch.distributed's creator (extended API): one backend per process group."""
    import torch.distributed as dist

    store, rank, size = backend_opts.store, backend_opts.group_rank, backend_opts.group_size
    # Gloo beside it stages what the vendor cannot serve; its own keys stay apart from ours in the store.
    gloo = dist.ProcessGroupGloo(dist.PrefixStore("diccl_staged/", store), rank, size, backend_opts.timeout)
    return _module().create(store, rank, size, int(backend_opts.timeout.total_seconds() * 1000), gloo)


def register() -> bool:
    """Registers "diccl" with torch.distributed as the backend of device type `diopi` (and able to serve CPU
    tensors too, through Gloo). Called by diopi_torch.load(); False when torch has no distributed support."""
    global _registered
    import torch.distributed as dist

    if not dist.is_available():
        return False
    if not _registered:
        dist.Backend.register_backend(BACKEND_NAME, _create, extended_api=True, devices=[DEVICE, "cpu"])
        _mark_default_backend()
        _add_stream_api()
        _registered = True
    return True


def _mark_default_backend():
    """A group made without a backend name gets the accelerator's backend (diccl for diopi), but torch 2.13 then
    records Gloo as the group's default backend type, which is not there: DistributedDataParallel, which asks for
    the default backend, fails with "Could not find backend type 1". Such a group is given the type of the backend
    it has."""
    import torch
    from torch.distributed import distributed_c10d as c10d

    make = c10d._new_process_group_helper

    @functools.wraps(make)
    def helper(*args, **kwargs):
        pg, store = make(*args, **kwargs)
        backend = kwargs.get("backend", args[3] if len(args) > 3 else None)
        if str(backend) == c10d.Backend.UNDEFINED and isinstance(pg, c10d.ProcessGroup):
            try:
                if pg._get_backend(torch.device(DEVICE)).name() == BACKEND_NAME:
                    pg._set_default_backend(c10d.ProcessGroup.BackendType.CUSTOM)
            except RuntimeError:  # the group has no diopi backend (another accelerator, or CPU only)
                pass
        return pg, store

    c10d._new_process_group_helper = helper


def uses_vendor(group=None) -> bool:
    """Whether the group's diopi backend runs on the vendor library's communicator (False: staged over Gloo)."""
    import torch
    import torch.distributed as dist

    pg = group or dist.distributed_c10d._get_default_group()
    return bool(_module().uses_vendor(pg._get_backend(torch.device(DEVICE))))


def stats() -> dict:
    """Per collective (allreduce, broadcast, _allgather_base, send, ...): {"vendor": calls served by the vendor's
    collective interface, "staged": calls staged through host memory over Gloo, "cpu": calls on CPU tensors,
    "staged_bytes": bytes staged, "reasons": {why staged: calls}}."""
    return json.loads(_module().stats_json())


def reset_stats():
    _module().reset_stats()


def summary(st: dict | None = None) -> dict:
    """Totals of stats(): vendor_calls, staged_calls, staged_bytes, and the staged collectives with their reasons."""
    st = stats() if st is None else st
    return {"vendor_calls": sum(v["vendor"] for v in st.values()), "staged_calls": sum(v["staged"] for v in st.values()),
            "staged_bytes": sum(v["staged_bytes"] for v in st.values()),
            "staged": {k: v["reasons"] for k, v in st.items() if v["staged"]}}


# ---------------------------------------------------------------- streams for FSDP
class _Stream:
    """The device's one queue: its work runs in order and completes before the call returns, so waiting on a
    stream or an event has nothing left to wait for."""

    def __init__(self, device=None, priority=0, **_):
        import torch
        self.device = torch.device(DEVICE, 0)
        self.priority = priority

    def wait_stream(self, stream):
        pass

    def wait_event(self, event):
        pass

    def record_event(self, event=None):
        event = event or _Event()
        event.record(self)
        return event

    def synchronize(self):
        pass

    def query(self):
        return True

    def __eq__(self, other):
        return isinstance(other, _Stream)

    def __hash__(self):
        return hash(DEVICE)


class _Event:
    def __init__(self, enable_timing=False, blocking=False, interprocess=False):
        pass

    def record(self, stream=None):
        return self

    def wait(self, stream=None):
        pass

    def synchronize(self):
        pass

    def query(self):
        return True


_DEFAULT_STREAM = None


def _add_stream_api():
    """FSDP2 asks the device module for streams and events (Stream, Event, current_stream, stream(...)). Where the
    device module does not provide them, these stand-ins say what is true of this device: work is ordered and done
    when its call returns."""
    import torch

    mod = getattr(torch, DEVICE, None)
    if not isinstance(mod, types.ModuleType):
        return

    def current_stream(device=None):
        global _DEFAULT_STREAM
        _DEFAULT_STREAM = _DEFAULT_STREAM or _Stream()
        return _DEFAULT_STREAM

    for name, value in (("Stream", _Stream), ("Event", _Event), ("current_stream", current_stream),
                        ("default_stream", current_stream), ("stream", lambda s=None: contextlib.nullcontext()),
                        ("set_stream", lambda s: None)):
        if not hasattr(mod, name):
            setattr(mod, name, value)
