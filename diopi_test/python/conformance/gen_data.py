"""Generate baselines: inputs from the seeded numpy generators, expected
outputs from the PyTorch references. The only module that imports torch."""
import difflib
import inspect
import os
import time

import diopi_header
import numpy as np
import torch

from . import compare, dtypes, lock, proof, regen, sampled, spec, store

_TORCH = {
    "int8": torch.int8, "uint8": torch.uint8, "int16": torch.int16, "uint16": torch.uint16,
    "int32": torch.int32, "uint32": torch.uint32, "int64": torch.int64, "uint64": torch.uint64,
    "float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32,
    "float64": torch.float64, "bool": torch.bool, "complex64": torch.complex64, "complex128": torch.complex128,
}
_NAME = {v: k for k, v in _TORCH.items()}


def to_torch(array, dtype, device):
    a = np.asarray(array, order="C")  # keeps 0-d arrays 0-d
    if dtype == "bfloat16":
        t = torch.from_numpy(a.view(np.int16).copy()).view(torch.bfloat16)
    else:
        t = torch.from_numpy(a.copy())
    return t.to(device)


def from_torch(t):
    t = t.detach().cpu().contiguous()
    name = _NAME.get(t.dtype)
    if name is None:
        raise TypeError(f"reference produced unsupported dtype {t.dtype}")
    if name == "bfloat16":
        return t.view(torch.int16).numpy().view(np.uint16), name
    return t.numpy(), name


def _encode_output(value, values=True, sample_seed=None):
    """An output as stored: values, a shape-only spec (values=False), or,
    with a sample_seed, a seeded sample + block sums when large
    (conformance/sampled.py; encoded straight from the tensor, never copied
    whole into bytes first)."""
    if value is None:
        return None
    if isinstance(value, compare.Defined):
        return _encode_partial(value, values)
    if isinstance(value, torch.Tensor):
        arr, dtype = from_torch(value)
        if not values:
            return store.encode_spec(arr, dtype)
        if sample_seed is not None:
            enc = sampled.encode(arr, dtype, sample_seed)
            if enc is not None:
                return enc
        return store.encode_array(arr, dtype)
    if isinstance(value, (list, tuple)):
        return [_encode_output(v, values, None if sample_seed is None else sample_seed + i) for i, v in enumerate(value)]
    if isinstance(value, (bool, int, float)):
        return value
    raise TypeError(f"reference returned {type(value).__name__}; expected tensors, numbers or None")


def _encode_partial(value, values):
    """An output defined only where value.mask is true: the expected array
    with the mask stored beside it (plain data; run_test compares there)."""
    v, mask = value.value, value.mask
    if not isinstance(v, torch.Tensor) or not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
        raise TypeError("compare.Defined needs a tensor value and a bool tensor mask")
    if tuple(mask.shape) != tuple(v.shape):
        raise ValueError(f"defined mask of shape {list(mask.shape)} for an output of shape {list(v.shape)}")
    if not values:
        raise ValueError("a defined mask needs stored values (not for random operators)")
    enc = _encode_output(v, values)
    enc["defined"] = store.encode_array(*from_torch(mask))
    return enc


def _call(fn, kwargs):
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):  # builtins such as torch.lt: pass everything by name
        return fn(**kwargs)
    if any(p.kind == p.VAR_KEYWORD for p in sig.parameters.values()):
        return fn(**kwargs)
    return fn(**{k: v for k, v in kwargs.items() if k in sig.parameters})


def build_inputs(case):
    """The generated numpy inputs of a case: name -> (array, dtype) or list."""
    rng = np.random.default_rng(case.seed)
    out = {}
    for name, t in case.op.tensors.items():
        dtype = t.dtype or case.dtype
        shape = case.shapes[name]
        if isinstance(t, spec.TList):
            out[name] = [(t.gen(rng, s, dtype), dtype) for s in shape]
        else:
            out[name] = (t.gen(rng, shape, dtype), dtype)
    return out


def run_case(case, device="cpu"):
    """Computes one case's record (inputs and expected outputs)."""
    fn = diopi_header.load()[case.func]
    c_names = {p.name for p in fn.params} - set(case.op.extra)
    generated = build_inputs(case)
    kwargs = dict(case.params)
    for name, v in generated.items():
        kwargs[name] = [to_torch(a, d, device) for a, d in v] if isinstance(v, list) else to_torch(*v, device)
    if case.op.prepare is not None:
        kwargs.update(_call(case.op.prepare, kwargs))
    # The reference may modify tensors in place: encode inputs first.
    inputs = {}
    for name, value in kwargs.items():
        if name not in c_names:
            continue
        if isinstance(value, torch.Tensor):
            inputs[name] = store.encode_array(*from_torch(value))
        elif isinstance(value, list) and value and all(isinstance(v, torch.Tensor) for v in value):
            inputs[name] = [store.encode_array(*from_torch(v)) for v in value]
        else:
            inputs[name] = value
    ref_kwargs = {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in kwargs.items()}
    t0 = time.perf_counter()
    result = _call(case.op.ref, ref_kwargs)
    ref_seconds = time.perf_counter() - t0  # scales the replay's timeout
    outs = fn.outputs
    if len(outs) == 1:
        result = (result,)
    if not isinstance(result, (tuple, list)) or len(result) != len(outs):
        raise ValueError(f"{case.func}: reference must return {len(outs)} values for outputs "
                         f"{[p.name for p in outs]}, got {type(result).__name__}")
    random = case.op.checks is not None
    sample_seed = case.seed if case.op.sample_outputs and not random else None
    outputs = {p.name: _encode_output(v, not random, sample_seed) for p, v in zip(outs, result)}
    record = {
        "name": case.name, "func": case.func, "family": case.family, "dtype": case.dtype,
        "seed": case.seed, "inputs": inputs, "outputs": outputs,
        "layouts": _layouts(case, inputs),
        "tol": {k: list(v) for k, v in case.op.tol.items()},
        "ref_seconds": round(ref_seconds, 6),
    }
    if random:
        record["checks"] = list(_call(case.op.checks, kwargs))
    if case.op.strides:
        record["captured_strides"] = {k: list(v) for k, v in case.op.strides.items()}
    if case.op.weight != 1:
        record["weight"] = case.op.weight
    if case.op.accumulation is not None:
        record["accumulation"] = _accumulation(_call(case.op.accumulation, kwargs))
    return regen.compact(record, case, generated)


def _accumulation(value):
    """A config's accumulation as stored: an int (terms), or for a composite a
    dict of positive ints {"terms": K, "steps": D} (tolerances.resolve)."""
    if isinstance(value, dict):
        if not value or set(value) - {"terms", "steps"}:
            raise ValueError(f"accumulation dict takes 'terms' and 'steps', got {sorted(value)}")
        out = {k: int(v) for k, v in value.items()}
        if any(v < 1 for v in out.values()):
            raise ValueError(f"accumulation counts must be positive, got {out}")
        return out
    return int(value)


def _layouts(case, inputs):
    def ranks(v):
        if store.is_encoded_array(v):
            return [len(v["shape"])]
        if isinstance(v, list):
            return [r for x in v for r in ranks(x)]
        return []
    has_nd = any(r in (4, 5) for v in inputs.values() for r in ranks(v))
    return [lay for lay in case.op.layouts if lay != "channels_last" or has_nd]


def _payload_bytes(record):
    """Bytes of array data in a record (scales the replay timeout)."""
    def size(v):
        if store.is_encoded_array(v):
            if v["data"] is None and "sha256" in v:  # regenerated on replay
                shape, dtype = store.array_meta(v)
                return int(np.prod(shape, dtype=np.int64)) * dtypes.storage(dtype).itemsize
            return len(v["data"]) if v["data"] is not None else 0
        if isinstance(v, list):
            return sum(size(x) for x in v)
        return 0
    return sum(size(v) for part in ("inputs", "outputs") for v in record[part].values())


def generate(cases, data_dir, device="cpu", base_seed=0, log=print, progress=None):
    """Writes the baselines of `cases`, grouped by function; returns a summary.
    `progress` (progress.Progress) is told "passed" or "failed" per case.
    Holds the data folder's lock throughout, and commits each function (its
    file and its manifest entry) as soon as its cases are done, so an
    interrupted run keeps every function it finished and lists no partial one."""
    torch.manual_seed(base_seed)
    t0 = time.time()
    by_func = {}
    for c in cases:
        by_func.setdefault(c.func, []).append(c)
    entries, failures = {}, []
    info = {"torch_version": torch.__version__, "numpy_version": np.__version__, "device": device, "seed": base_seed}
    with lock.writing(data_dir):
        store.sweep(data_dir)  # leftovers of an interrupted run
        batch = store.Batch(data_dir, info)
        try:
            _generate_all(by_func, data_dir, device, info, batch, entries, failures, progress)
        finally:  # what was written before an interruption stays usable
            batch.flush()
        tol = proof.write_summary(data_dir, store.read_manifest(data_dir)) if entries else None
    if tol is not None:
        # Over the whole folder (functions of earlier runs included); the list is in tolerance_proof.json.
        log(f"gen_data: {proof.summary_line(tol)}; see {os.path.join(data_dir, proof.FILE)}")
        for func, e in entries.items():
            for name, checks in e.get("tolerance", {}).get("failed", {}).items():
                failures.append((name, f"its tolerance accepts a wrong answer ({', '.join(checks)})"))
    return {"cases": sum(e["cases"] for e in entries.values()), "functions": len(entries),
            "failures": failures, "seconds": time.time() - t0, "bytes": store.total_size(data_dir), "tolerance": tol}


def _generate_all(by_func, data_dir, device, info, batch, entries, failures, progress):
    for func, fcases in by_func.items():
        records = []
        for c in fcases:
            try:
                records.append(run_case(c, device))
                ok = True
            except Exception as e:  # a broken config must not stop the others
                failures.append((c.name, f"{type(e).__name__}: {e}"))
                ok = False
            if progress is not None:
                progress.update("passed" if ok else "failed")
        if records:
            # The reference's time goes to the index only: baselines stay byte-identical for a seed.
            index = [[r["name"], r["dtype"], r["layouts"], _payload_bytes(r), r.pop("ref_seconds")] for r in records]
            # The proof that each case's tolerance rejects a wrong answer (conformance/proof.py), kept beside its index.
            entry = {"family": fcases[0].family, "index": index, "tolerance": proof.function_entry(records)}
            entries[func] = store.commit_function(data_dir, func, records, entry, info, batch)


def check_device(device):
    """A one-line reason when torch cannot compute on `device`, else None."""
    usable = ["cpu"] + [name for name in ("cuda", "mps", "xpu") if _available(name)]
    try:
        dev = torch.device(device)
    except (RuntimeError, TypeError, ValueError):
        close = difflib.get_close_matches(device.split(":")[0], ["cpu", "cuda", "mps", "xpu", "hip", "hpu", "npu"], n=1)
        hint = f"; did you mean {close[0]!r}?" if close else ""
        return f"--device {device!r} is not a torch device{hint} (usable here: {', '.join(usable)})"
    if dev.type == "meta":  # tensors without values: no reference output to store
        return f"--device {device}: meta tensors hold no values (usable here: {', '.join(usable)})"
    try:
        torch.empty(1, device=dev)
    except (AssertionError, RuntimeError, TypeError, ValueError) as e:  # "Torch not compiled with CUDA enabled" is an AssertionError
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        return f"--device {device}: torch {torch.__version__} cannot use it ({first}); usable here: {', '.join(usable)}"
    return None


def _available(name):
    mod = getattr(torch, name, None)
    try:
        return bool(mod is not None and mod.is_available())
    except Exception:  # a backend module without is_available, or one that fails to probe
        return False
