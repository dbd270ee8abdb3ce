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

import functools
import json

from .. import _C

BACKEND_NAME = "diccl"
DEVICE = _C.BACKEND

_registered = False


DistributedUnavailable = _C.DistributedUnavailable
_module = _C.distributed_module  # the C++ backend (the _distributed extension built beside libdiopi_torch.so)


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
