"""One rank of `--mode collective`: runs in a worker process (numpy + cffi), builds its tensors through the test
runtime, calls the library's collectives and reports what came back. The harness (conformance/collective.py)
compares; nothing here judges values.

A rank's answer to a case is a dict: status (the first non-success status, or 0), message (the library's last
error string then), outputs {name: (array, dtype)}, problems [(verdict, message)] found on this rank (an input
changed, a guard zone or a gap between elements written, an output written that the rank must not write), the
seconds the calls took, and `missing` when the library does not export a function the case needs.
"""
import os
import time

import numpy as np

from . import arguments, collective_cases as cc, dtypes
from .call import Tensor
from .verdicts import FAILED, GAP_WRITE, INPUT_MODIFIED, OOB_WRITE


class Missing(Exception):
    """The library does not export a function the case calls."""


class Rank:
    def __init__(self, lib, rank, world_size):
        self.lib, self.rank, self.world_size = lib, rank, world_size
        self.ffi = lib.ffi
        self.comms = {}  # key -> diopiCommHandle_t

    # ------------------------------------------------------------ communicators
    def fn(self, name):
        f = self.lib.function(name)
        if f is None:
            raise Missing(name)
        return f

    def unique_id(self):
        uid = self.ffi.new("diopiCommUniqueId_t*")
        rc = self.fn("diopiCommGetUniqueId")(uid)
        return int(rc), self.lib.last_error() if rc else "", bytes(self.ffi.buffer(uid))

    def init(self, key, uid_bytes, world_size, rank, timeout_ms):
        uid = self.ffi.new("diopiCommUniqueId_t*")
        self.ffi.memmove(uid, uid_bytes, len(uid_bytes))
        slot = self.ffi.new("diopiCommHandle_t*")
        rc = self.fn("diopiCommInitRank")(slot, world_size, uid, rank, timeout_ms)
        if rc == 0:
            self.comms[key] = slot[0]
        return int(rc), self.lib.last_error() if rc else ""

    def describe(self, key):
        """(rank, size, name, version) as the library reports them for a communicator."""
        comm = self.comms[key]
        r, s = self.ffi.new("int64_t*"), self.ffi.new("int64_t*")
        name, version = self.ffi.new("const char**"), self.ffi.new("int64_t*")
        rcs = [self.fn("diopiCommGetRank")(comm, r), self.fn("diopiCommGetSize")(comm, s),
               self.fn("diopiCommGetName")(comm, name), self.fn("diopiCommGetVersion")(version)]
        if any(rcs):
            return {"status": int(next(rc for rc in rcs if rc)), "message": self.lib.last_error()}
        return {"status": 0, "rank": int(r[0]), "size": int(s[0]),
                "name": self.lib.string(name[0]) if name[0] != self.ffi.NULL else None, "version": int(version[0])}

    def destroy(self, key, abort=False):
        comm = self.comms.pop(key, None)
        if comm is None:
            return 0, ""
        rc = self.fn("diopiCommAbort" if abort else "diopiCommDestroy")(comm)
        return int(rc), self.lib.last_error() if rc else ""

    # ------------------------------------------------------------ one case
    def run(self, case):
        out = {"status": 0, "message": "", "outputs": {}, "problems": [], "seconds": 0.0}
        made = []
        ctx = self.lib.rt.dt_context_create()
        try:
            t0 = time.perf_counter()
            getattr(self, "_" + case["kind"])(case, ctx, made, out)
            out["seconds"] = time.perf_counter() - t0
        except Missing as e:
            out["missing"] = str(e)
        finally:
            self._check(made, out)
            for t, _, _ in made:
                t.destroy()
            self.lib.rt.dt_context_destroy(ctx)
        return out

    def _status(self, out, rc):
        if rc and not out["status"]:
            out["status"], out["message"] = int(rc), self.lib.last_error()

    def _tensor(self, made, dtype, shape, layout, values=None, role="input"):
        """A runtime tensor: an input holding `values`, or an output filled with the sentinel."""
        shape = tuple(shape)
        strides = cc.layout_strides(shape, layout)
        if values is None:
            storage = np.repeat(arguments.sentinel_value(dtype), arguments.storage_elements(shape, strides))
        else:
            _, storage = arguments.input_storage(np.asarray(values).reshape(shape), dtype, layout)
        t = Tensor(self.lib, shape, dtype, strides, storage)
        made.append((t, role, dtype))
        return t

    def _output(self, out, name, t):
        out["outputs"][name] = t.read()

    def _check(self, made, out):
        """Guards, untouched inputs, gaps between the elements of outputs."""
        for t, role, dtype in made:
            label = getattr(t, "label", role)
            if self.lib.rt.dt_tensor_guard_ok(t.handle) != 1:
                out["problems"].append((OOB_WRITE, f"rank {self.rank}: wrote outside the storage of {label} (guard bytes changed)"))
                continue
            now = t.storage_bytes()
            if role == "input" and now != t.initial:
                out["problems"].append((INPUT_MODIFIED, f"rank {self.rank}: changed its read-only {label}"))
            elif role in ("output", "untouched") and now != t.initial:
                item = dtypes.itemsize(dtype)
                n = len(now) // item if item else 0
                covered = np.zeros(n, dtype=bool)
                if n and all(d > 0 for d in t.shape):
                    np.lib.stride_tricks.as_strided(covered, t.shape, list(t.strides))[...] = True
                before = np.frombuffer(t.initial, np.uint8).reshape(n, item)
                after = np.frombuffer(now, np.uint8).reshape(n, item)
                changed = (before != after).any(1)
                if role == "untouched":
                    out["problems"].append((FAILED, f"rank {self.rank}: wrote {label}, which this call must leave alone "
                                                    "(a refused call, or an output of another rank)"))
                elif (changed & ~covered).any():
                    out["problems"].append((GAP_WRITE, f"rank {self.rank}: wrote {int((changed & ~covered).sum())} storage elements "
                                                       f"of {label} between its elements"))

    def _op(self, case):
        return cc.reduce_ops()[case["op"]]

    def _io(self, case, made, rank_inputs, in_place=False):
        sh = cc.shapes(case, self.rank)
        inp = self._tensor(made, case["dtype"], sh["input"], case["layout"], rank_inputs["input"], "inplace" if in_place else "input")
        inp.label = "input"
        if in_place:
            return inp, inp
        o = self._tensor(made, case["dtype"], sh["out"], case["layout"], role="output")
        o.label = "out"
        return inp, o

    # ------------------------------------------------------------ the kinds
    def _all_reduce(self, case, ctx, made, out):
        f = self.fn("diopiCommAllReduce")
        inp, o = self._io(case, made, cc.inputs(case, self.rank), case.get("in_place", False))
        self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle, self._op(case)))
        self._output(out, "out", o)

    def _broadcast(self, case, ctx, made, out):
        f = self.fn("diopiCommBroadcast")
        root, vals = case["root"], cc.inputs(case, self.rank)
        if self.rank == root:
            inp, o = self._io(case, made, vals, case.get("in_place", False))
            ih = inp.handle
        else:
            o = self._tensor(made, case["dtype"], case["shape"], case["layout"], role="output")
            o.label, ih = "out", self.ffi.NULL
        self._status(out, f(ctx, self.comms["world"], o.handle, ih, root))
        self._output(out, "out", o)

    def _reduce(self, case, ctx, made, out):
        f = self.fn("diopiCommReduce")
        root = case["root"]
        vals = cc.inputs(case, self.rank)
        if self.rank == root:
            inp, o = self._io(case, made, vals, case.get("in_place", False))
        else:
            inp = self._tensor(made, case["dtype"], case["shape"], case["layout"], vals["input"])
            inp.label = "input"
            o = self._tensor(made, case["dtype"], case["shape"], case["layout"], role="untouched")
            o.label = "out"
        self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle, self._op(case), root))
        if self.rank == root:
            self._output(out, "out", o)

    def _all_gather(self, case, ctx, made, out):
        f = self.fn("diopiCommAllGather")
        inp, o = self._io(case, made, cc.inputs(case, self.rank))
        self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle))
        self._output(out, "out", o)

    def _reduce_scatter(self, case, ctx, made, out):
        f = self.fn("diopiCommReduceScatter")
        inp, o = self._io(case, made, cc.inputs(case, self.rank))
        self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle, self._op(case)))
        self._output(out, "out", o)

    def _size(self, values, keep):
        data = self.ffi.new("int64_t[]", list(values) or [0])
        keep.append(data)
        return self.ffi.new("diopiSize_t*", {"data": data if values else self.ffi.NULL, "len": len(values)})[0]

    def _all_to_all(self, case, ctx, made, out):
        f = self.fn("diopiCommAllToAll")
        inp, o = self._io(case, made, cc.inputs(case, self.rank))
        outs, ins = cc.split_sizes(case, self.rank)
        keep = []
        self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle, self._size(outs, keep), self._size(ins, keep)))
        self._output(out, "out", o)

    def _send_recv(self, case, ctx, made, out):
        send, recv = self.fn("diopiCommSend"), self.fn("diopiCommRecv")
        ws, r, comm = self.world_size, self.rank, self.comms["world"]
        vals = cc.inputs(case, r)
        d, shape, layout = case["dtype"], case["shape"], case["layout"]
        if case["pattern"] == "pair":
            if r == 0:
                t = self._tensor(made, d, shape, layout, vals["input"])
                t.label = "input"
                self._status(out, send(ctx, comm, t.handle, ws - 1))
            elif r == ws - 1:
                o = self._tensor(made, d, shape, layout, role="output")
                o.label = "out"
                self._status(out, recv(ctx, comm, o.handle, 0))
                self._output(out, "out", o)
            return
        start, end = self.fn("diopiCommGroupStart"), self.fn("diopiCommGroupEnd")
        t = self._tensor(made, d, shape, layout, vals["input"])
        t.label = "input"
        o = self._tensor(made, d, shape, layout, role="output")
        o.label = "out"
        self._status(out, start())
        self._status(out, send(ctx, comm, t.handle, (r + 1) % ws))
        self._status(out, recv(ctx, comm, o.handle, (r - 1) % ws))
        self._status(out, end())
        self._output(out, "out", o)

    def _barrier(self, case, ctx, made, out):
        self._status(out, self.fn("diopiCommBarrier")(ctx, self.comms["world"]))

    def _sum_into(self, case, made, vals, i):
        inp = self._tensor(made, case["dtype"], case["shape"], case["layout"], vals[f"input{i}"])
        inp.label = f"input{i}"
        o = self._tensor(made, case["dtype"], case["shape"], case["layout"], role="output")
        o.label = f"out{i}"
        return inp, o

    def _back_to_back(self, case, ctx, made, out):
        f = self.fn("diopiCommAllReduce")
        vals = cc.inputs(case, self.rank)
        pairs = [self._sum_into(case, made, vals, i) for i in range(case["calls"])]
        for inp, o in pairs:
            self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle, cc.reduce_ops()["sum"]))
        for i, (_, o) in enumerate(pairs):
            self._output(out, f"out{i}", o)

    def _group(self, case, ctx, made, out):
        f, start, end = self.fn("diopiCommAllReduce"), self.fn("diopiCommGroupStart"), self.fn("diopiCommGroupEnd")
        vals = cc.inputs(case, self.rank)
        pairs = [self._sum_into(case, made, vals, i) for i in range(case["calls"])]
        self._status(out, start())
        for inp, o in pairs:
            self._status(out, f(ctx, self.comms["world"], o.handle, inp.handle, cc.reduce_ops()["sum"]))
        self._status(out, end())
        for i, (_, o) in enumerate(pairs):
            self._output(out, f"out{i}", o)

    def _many_comms(self, case, ctx, made, out):
        f = self.fn("diopiCommAllReduce")
        vals, s = cc.inputs(case, self.rank), cc.reduce_ops()["sum"]
        pairs = [self._sum_into(case, made, vals, i) for i in range(case["comms"] + 1)]
        for i in range(case["comms"]):  # interleaved: one call on each communicator in turn
            inp, o = pairs[i]
            self._status(out, f(ctx, self.comms[f"c{i}"], o.handle, inp.handle, s))
        if case["halves"]:
            inp, o = pairs[case["comms"]]
            self._status(out, f(ctx, self.comms["half"], o.handle, inp.handle, s))
            self._output(out, "out_half", o)
        for i in range(case["comms"]):
            self._output(out, f"out{i}", pairs[i][1])

    def _matmul_all_reduce(self, case, ctx, made, out):
        f = self.fn("diopiMatmulAllReduce")
        name = self.ffi.new("const char**")
        self._status(out, self.fn("diopiCommGetName")(self.comms["world"], name))
        if out["status"]:
            return
        vals, d = cc.inputs(case, self.rank), case["dtype"]
        x1 = self._tensor(made, d, vals["x1"].shape, "contiguous", vals["x1"])
        x2 = self._tensor(made, d, vals["x2"].shape, "contiguous", vals["x2"])
        bias = self._tensor(made, d, vals["bias"].shape, "contiguous", vals["bias"]) if "bias" in vals else None
        o = self._tensor(made, d, tuple(vals["x1"].shape[:-1]) + (case["n"],), "contiguous", role="output")
        o.label = "out"
        group = self.ffi.new("char[]", self.ffi.string(name[0]))
        self._status(out, f(ctx, o.handle, x1.handle, x2.handle, bias.handle if bias else self.ffi.NULL, group,
                            self.ffi.new("char[]", b"sum"), 0, 0))
        self._output(out, "out", o)

    def _invalid(self, case, ctx, made, out):
        what, comm, d, m = case["what"], self.comms["world"], case["dtype"], case["shape"]
        vals = cc.inputs(case, self.rank)
        inp = self._tensor(made, d, m, "contiguous", vals["input"])
        inp.label = "input"
        if what == "root_out_of_range":
            o = self._tensor(made, d, m, "contiguous", role="output")
            self._status(out, self.fn("diopiCommBroadcast")(ctx, comm, o.handle, inp.handle, self.world_size))
        elif what == "all_gather_out_too_small":
            o = self._tensor(made, d, (self.world_size * int(np.prod(m)) - 1,), "contiguous", role="output")
            self._status(out, self.fn("diopiCommAllGather")(ctx, comm, o.handle, inp.handle))
        elif what == "split_sizes_do_not_sum":
            o = self._tensor(made, d, m, "contiguous", role="output")
            keep = []
            sizes = [m[0] + 1] + [0] * (self.world_size - 1)
            self._status(out, self.fn("diopiCommAllToAll")(ctx, comm, o.handle, inp.handle, self._size(sizes, keep), self._size(sizes, keep)))
        else:
            o = self._tensor(made, d, (m[0] + 1,) + tuple(m[1:]), "contiguous", role="output")
            self._status(out, self.fn("diopiCommAllReduce")(ctx, comm, o.handle, inp.handle, cc.reduce_ops()["sum"]))
        o.label = "out"
        made[-1] = (o, "untouched", d)  # a refused call writes nothing

    def _peer_death(self, case, ctx, made, out):
        f = self.fn("diopiCommAllReduce")
        if self.rank == self.world_size - 1:
            os._exit(0)  # this rank dies before the all-reduce: the case is about the others
        vals = cc.inputs(case, self.rank)
        inp, o = self._io(case, made, vals)
        t0 = time.perf_counter()
        self._status(out, f(ctx, self.comms["short"], o.handle, inp.handle, cc.reduce_ops()["sum"]))
        out["waited"] = time.perf_counter() - t0
        t1 = time.perf_counter()
        rc, msg = self.destroy("short", abort=True)
        out["abort"] = (rc, msg, time.perf_counter() - t1)
        made[-1] = (o, "scratch", case["dtype"])  # what an aborted all-reduce leaves in out is not specified

