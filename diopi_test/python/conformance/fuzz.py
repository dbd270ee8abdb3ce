"""Malformed-argument calls (the C-ABI contract test).

From one valid baseline case per function, derive calls with: a NULL for
each tensor argument, a mismatched shape, an unsupported dtype, zero-size
tensors, a stride-0 (broadcast) input, negative dims, and an output that
overlaps an input. The library may return an error code with a message or
a result; it must never crash, hang, write out of bounds, change metadata
or modify a read-only input. Values are not compared.
"""
import copy

import numpy as np

from . import dtypes, store


def _arr(enc):
    return store.is_encoded_array(enc) and not store.is_spec(enc)


def _reencode(enc, shape=None, dtype=None):
    arr, old = store.decode_array(enc)
    dtype = dtype or old
    shape = tuple(arr.shape if shape is None else shape)
    st = dtypes.storage(dtype)
    return store.encode_array(np.zeros(shape, dtype=st), dtype)


def pick_base(records):
    """The case to mutate: the first small float32 one, else the first."""
    for i, r in enumerate(records):
        if r["dtype"] == "float32" and all(
                not _arr(v) or len(v["data"]) <= 1 << 16 for v in r["inputs"].values()):
            return i
    return 0


def mutations(fn, record):
    """[(label, mutated record)] for one function and base case."""
    out = []
    ins, outs = record["inputs"], record["outputs"]

    def variant(label, **changes):
        r = copy.deepcopy(record)
        r["fuzz"] = label
        for key, fix in changes.items():
            fix(r)
        out.append((label, r))

    tensor_inputs = [p for p in fn.params if p.kind in ("tensor_in", "tensor_out") and _arr(ins.get(p.name))]
    # NULL for every tensor the case passes (inputs, in-place tensors, outputs)
    for p in fn.params:
        if p.kind in ("tensor_in", "tensor_out", "tensor_array_in", "tensor_array_out", "scalar") and \
                (ins.get(p.name) is not None or outs.get(p.name) is not None):
            def null(r, name=p.name, kind=p.kind):
                if kind in ("tensor_array_in", "tensor_array_out"):
                    _pin_lengths(fn, r)
                r["inputs"][name] = None
                if name in r["outputs"]:
                    r["outputs"][name] = None
            variant(f"null:{p.name}", a=null)
    for p in tensor_inputs:
        shape = list(store.array_meta(ins[p.name])[0])
        if shape:
            variant(f"shape:{p.name}", a=lambda r, n=p.name, s=shape: r["inputs"].__setitem__(n, _reencode(r["inputs"][n], s[:-1] + [s[-1] + 3])))
            variant(f"rank:{p.name}", a=lambda r, n=p.name, s=shape: r["inputs"].__setitem__(n, _reencode(r["inputs"][n], s + [2])))
            variant(f"zero_size:{p.name}", a=lambda r, n=p.name, s=shape: r["inputs"].__setitem__(n, _reencode(r["inputs"][n], [0] + s[1:])))
            if shape[0] > 1:
                variant(f"stride0:{p.name}", a=lambda r, n=p.name: r.setdefault("fuzz_layouts", {}).__setitem__(n, "stride0"))
        for dtype in ("complex128", "uint64", "bool"):
            variant(f"dtype_{dtype}:{p.name}", a=lambda r, n=p.name, d=dtype: r["inputs"].__setitem__(n, _reencode(r["inputs"][n], dtype=d)))
    for p in fn.params:
        if p.kind == "int" and "dim" in p.name.lower() and isinstance(ins.get(p.name), int):
            variant(f"negative:{p.name}", a=lambda r, n=p.name: r["inputs"].__setitem__(n, -99))
        if p.kind == "size" and "dim" in p.name.lower() and ins.get(p.name):
            variant(f"negative:{p.name}", a=lambda r, n=p.name: r["inputs"].__setitem__(n, [-99]))
    out_params = [p for p in fn.params if p.kind == "tensor_out" and ins.get(p.name) is None and _arr(outs.get(p.name))]
    in_params = [p for p in fn.params if p.kind == "tensor_in" and _arr(ins.get(p.name))]
    if out_params and in_params:
        variant(f"overlap:{out_params[0].name}={in_params[0].name}",
                a=lambda r, o=out_params[0].name, i=in_params[0].name: r.__setitem__("fuzz_alias", [o, i]))
    return out


def _pin_lengths(fn, r):
    """Counts next to arrays keep their value when the array becomes NULL."""
    params = fn.params
    for i, p in enumerate(params):
        if p.kind in ("int",) and p.name not in r["inputs"]:
            for j in (i - 1, i + 1):
                if 0 <= j < len(params) and params[j].kind in ("tensor_array_in", "tensor_array_out"):
                    v = r["inputs"].get(params[j].name) or r["outputs"].get(params[j].name)
                    if isinstance(v, list):
                        r["inputs"][p.name] = len(v)
