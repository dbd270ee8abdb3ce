"""Real-data capture: the real inputs and outputs of chosen DIOPI calls of a
step on the device, saved as baselines of the conformance harness.

    with diopi_torch.op_capture("cap", ops=["silu", "diopiMm"], max_calls=20, model=model):
        loss = model(**batch).loss; loss.backward()
    cd diopi_test/python
    python main.py --mode run_test --data_dir ../../cap --impl_lib <any libdiopi_impl.so>   # no torch needed
    python main.py --mode bench --data_dir ../../cap --impl_lib <lib>                        # times each captured function
    python -m diopi_torch.tools.precision cap --impl_lib <another lib>                       # differences, sorted

Each captured call is one case of the DIOPI function the device called, in
the harness's baseline format (`manifest.json` + `cases/*.pkl`, read by
conformance/store.py): its inputs as the model produced them (values, and
the strides the device passed, replayed in the "captured" layout), the
expected outputs computed by eager CPU ATen from the same inputs, and
beside them the outputs the library produced on the device
(`device_outputs`, what the precision analysis compares another library
against). Provenance per case (`captured`): module path (with `model=`),
forward or backward, ATen operator, DIOPI function, mapping entry, library.
`ops` takes the names fallback(ops=) takes; None captures every DIOPI call
up to `max_calls`. The parts of operators the device runs through ATen's
composite kernels (`_safe_softmax` -> `_softmax`, ...) are watched as
the device dispatches them. Calls the harness cannot replay as captured
(random operators, dtype arguments) are listed in the manifest, not
saved; the device's own copies (`_copy_from`) are not watched.

The capture watches the step through a TorchDispatchMode and copies the
chosen calls' tensors to the host, so a step under it is slow; calls of
other operators pass through untouched.
"""
from __future__ import annotations

import json
import os
import time

from .. import _C
from ..ops import mapping, schemas
from . import harness, named

ROOT = _C.CHECKOUT


def conformance_modules():
    """The harness's store, enums, lock and model_cases (installed, or from this checkout)."""
    harness.conformance()
    from conformance import enums, lock, model_cases, store
    return store, enums, lock, model_cases


def _dtype_name(t):
    return str(t.dtype).replace("torch.", "")


class OpCapture:
    def __init__(self, out_dir, ops=None, max_calls=100, model=None):
        import torch
        from torch.utils._python_dispatch import TorchDispatchMode



        if max_calls is not None and max_calls < 1:
            raise ValueError(f"max_calls must be at least 1, got {max_calls}")
        self.out_dir = os.path.abspath(out_dir)
        if os.path.exists(os.path.join(self.out_dir, "manifest.json")):
            raise FileExistsError(f"{out_dir} already holds baselines (manifest.json); capture into a new folder")
        self.max_calls = max_calls
        self.amap = mapping.load()
        self.functions = mapping.header_functions()
        self.schemas = schemas
        self.torch = torch
        self.watch_all = ops is None
        resolved = named.resolve(ops) if ops is not None else frozenset()
        overloads, functions, served = named._known()
        self.mapped = set(overloads)
        self.diopi_names = {n for n in resolved if n in functions}
        self.explicit_aten = set(resolved - self.diopi_names)
        self.watched = set(self.explicit_aten)
        for f in self.diopi_names:  # a DIOPI name watches every ATen operator it may serve
            self.watched |= served.get(f, set())
        self.library = _C.info()
        self.cases = []      # (func, record)
        self.skipped = []    # {aten, diopi, why}
        self.seen = 0
        self._stack, self._hooks = [], []
        if model is not None:
            for name, mod in model.named_modules():
                path = f"model.{name}" if name else "model"
                self._hooks.append(mod.register_forward_pre_hook(self._enter(path)))
                self._hooks.append(mod.register_forward_hook(self._leave))
        capture = self

        class _Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                return capture._dispatch(func, args, kwargs or {})

        self._mode = _Mode()

    # -- module path
    def _enter(self, path):
        def hook(module, args):
            self._stack.append(path)
        return hook

    def _leave(self, module, args, output):
        if self._stack:
            self._stack.pop()

    def _where(self):
        node = self.torch._C._current_autograd_node()
        if node is not None:
            return "backward", f"backward ({node.name()})"
        return "forward", (self._stack[-1] if self._stack else "")

    # -- the context
    def __enter__(self):
        self._mode.__enter__()
        return self

    def __exit__(self, *exc):
        self._mode.__exit__(*exc)
        for h in self._hooks:
            h.remove()
        self.write()
        return False

    def _full(self):
        return self.max_calls is not None and len(self.cases) >= self.max_calls

    def _dispatch(self, func, args, kwargs):
        from torch.utils._pytree import tree_flatten, tree_map

        torch = self.torch
        name = self.schemas.overload_name(func)
        on_device = lambda x: isinstance(x, torch.Tensor) and x.device.type == _C.BACKEND  # noqa: E731
        device_arg = lambda x: on_device(x) or (isinstance(x, torch.device) and x.type == _C.BACKEND)  # noqa: E731
        if self._full() or not any(device_arg(x) for x in tree_flatten((args, kwargs))[0]):
            return func(*args, **kwargs)
        if name not in self.mapped:
            key = _composite_key(torch, func)
            if key is None:
                return func(*args, **kwargs)
            # The device runs ATen's composite kernel of this operator: its parts are dispatched
            # again, and watched, as the device sees them (_safe_softmax -> _softmax, zeros -> zero_, ...).
            with self._mode:
                if key == "CompositeImplicitAutograd":
                    return func.decompose(*args, **kwargs)
                return func.redispatch(torch._C.DispatchKeySet(getattr(torch._C.DispatchKey, key)), *args, **kwargs)
        if not (self.watch_all or name in self.watched):
            return func(*args, **kwargs)
        to_host = lambda x: x.detach().cpu().clone() if on_device(x) else (  # noqa: E731
            torch.device("cpu") if isinstance(x, torch.device) and x.type == _C.BACKEND else x)
        before = tree_map(to_host, (args, kwargs))
        seq = _C.call_seq()
        out = func(*args, **kwargs)
        if _C.call_seq() != seq + 1:
            return out  # served by a view, a copy, the CPU fallback, or more than one DIOPI call
        aten, diopi = _C.last_call()
        if not (self.watch_all or name in self.explicit_aten or diopi in self.diopi_names):
            return out  # watched for a named DIOPI function, served by another entry
        phase, module = self._where()
        try:
            self._record(func, name, diopi, args, kwargs, before, out, phase, module)
        except Exception as e:  # a call the capture cannot describe is listed, never a reason to stop the step
            self.skipped.append({"aten": name, "diopi": diopi, "module": module, "why": f"{type(e).__name__}: {e}"})
        return out

    # -- one call as a harness case
    def _record(self, func, name, diopi, args, kwargs, before, out, phase, module):
        from torch.utils._pytree import tree_flatten, tree_map

        from .. import capture as model_capture  # imports torch (this package stays free of it until used)

        torch = self.torch
        store, enums, _, model_cases = conformance_modules()
        host_args, host_kwargs = before
        ref_args, ref_kwargs = tree_map(lambda x: x.clone() if isinstance(x, torch.Tensor) else x, (host_args, host_kwargs))
        t0 = time.perf_counter()
        ref = func(*ref_args, **ref_kwargs)
        ref_seconds = time.perf_counter() - t0

        bind = model_capture.Recorder._bind
        env_dev = bind(func, args, kwargs)
        entry = self.amap.select(name, env_dev)
        if entry is None or entry.diopi != diopi:
            raise ValueError(f"the mapping's entry for these arguments calls {entry.diopi if entry else 'nothing'}, "
                             f"the device called {diopi}")
        env_dev[mapping.RESULT] = out
        env_in = bind(func, host_args, host_kwargs)
        env_in[mapping.RESULT] = ref
        env_ref = bind(func, ref_args, ref_kwargs)
        env_ref[mapping.RESULT] = ref
        b_dev, b_in, b_ref = entry.bind(env_dev), entry.bind(env_in), entry.bind(env_ref)
        fn = self.functions[diopi]

        # Outputs that are only written: results that alias no argument, and out= arguments (keyword-only, written).
        results = out if isinstance(out, (tuple, list)) and len(func._schema.returns) > 1 else (out,)
        written_only = []
        for r, value in zip(func._schema.returns, results):
            if r.alias_info is None:
                written_only += [t for t in tree_flatten(value)[0] if isinstance(t, torch.Tensor)]
        for a in func._schema.arguments:
            if a.alias_info is not None and a.alias_info.is_write and a.kwarg_only:
                written_only += [t for t in tree_flatten(env_dev.get(a.name))[0] if isinstance(t, torch.Tensor)]
        only_out = {t.untyped_storage().data_ptr() for t in written_only if t.numel()}

        inputs, outputs, device_outputs, strides = {}, {}, {}, {}
        for p in fn.params:
            k = p.kind
            if k == "context":
                continue
            v_dev, v_in, v_ref = b_dev.get(p.name), b_in.get(p.name), b_ref.get(p.name)
            if k == "tensor_in":
                if isinstance(v_in, torch.Tensor):
                    inputs[p.name] = _encode(store, v_in)
                    _strides(strides, p.name, v_dev)
                elif isinstance(v_in, (bool, int, float)):  # a number passed where the header takes a tensor (Call::in)
                    dt = torch.bool if isinstance(v_in, bool) else torch.int64 if isinstance(v_in, int) else torch.float64
                    inputs[p.name] = _encode(store, torch.tensor(v_in, dtype=dt))
                elif v_in is not None:
                    raise ValueError(f"{p.name}: cannot store {type(v_in).__name__}")
            elif k == "tensor_out":
                if not isinstance(v_dev, torch.Tensor):
                    continue
                pure = v_dev.numel() and v_dev.untyped_storage().data_ptr() in only_out
                if not pure:  # written in place: its value before the call is an input
                    inputs[p.name] = _encode(store, v_in)
                outputs[p.name] = _encode(store, v_ref)
                device_outputs[p.name] = _encode(store, v_dev)
                _strides(strides, p.name, v_dev)
            elif k == "tensor_array_in":
                if v_in is not None and len(v_in):
                    inputs[p.name] = [_encode(store, t) for t in v_in]
            elif k == "tensor_array_out":
                if isinstance(v_dev, torch.Tensor):  # one output the library allocates
                    outputs[p.name] = _encode(store, v_ref)
                    device_outputs[p.name] = _encode(store, v_dev)
                elif v_dev is not None and len(v_dev):  # a list written in place (an optimizer's state)
                    inputs[p.name] = [_encode(store, t) for t in v_in]
                    outputs[p.name] = [_encode(store, t) for t in v_ref]
                    device_outputs[p.name] = [_encode(store, t) for t in v_dev]
            elif k == "scalar":
                if v_in is not None:
                    inputs[p.name] = _number(v_in)
            elif k in ("size", "size_ptr"):
                inputs[p.name] = None if v_in is None else [int(x) for x in (v_in if isinstance(v_in, (list, tuple)) else [v_in])]
            elif k in ("int", "float", "bool"):
                # As the device converts them (toInt/toDouble: an absent optional is 0).
                v = _number(v_in) if v_in is not None else 0
                inputs[p.name] = int(v) if k == "int" else float(v) if k == "float" else bool(v)
            elif k in ("int_ptr", "double_ptr", "bool_ptr", "string"):
                inputs[p.name] = None if v_in is None else (_number(v_in) if k != "string" else str(v_in))
            elif enums.is_enum_kind(k):
                v = _number(v_in) if v_in is not None else 0
                inputs[p.name] = enums.config_names(k)[int(v)] if isinstance(v, int) else v
            else:  # generator, dtype, ...: nothing the harness replays as the device passed it
                raise ValueError(f"{diopi} parameter {p.name} ({p.ctype}) is not replayable from a capture")

        tensors = [v for v in list(inputs.values()) + list(outputs.values()) if store.is_encoded_array(v)]
        tensors += [x for v in list(inputs.values()) + list(outputs.values()) if isinstance(v, list) for x in v
                    if store.is_encoded_array(x)]
        floating = [t["__nd__"] for t in tensors if t["__nd__"] in ("float16", "bfloat16", "float32", "float64")]
        dtype = floating[0] if floating else (tensors[0]["__nd__"] if tensors else "float32")
        number = len(self.cases)
        case_name = f"{_snake(diopi)}::{dtype}::call{number:03d}"
        # Tolerances grow with the terms summed into an output element, as for a model case set.
        rec_case = model_capture.Recorder(self.amap, phase)
        rec_case.record_case(name, func, entry, dict(env_dev), out)
        (described,) = rec_case.cases.values()
        terms = model_cases.accumulation(described)
        info = self.library
        record = {
            "name": case_name, "func": diopi, "family": fn.family, "dtype": dtype, "seed": 0,
            "inputs": inputs, "outputs": outputs, "layouts": ["captured"], "tol": {},
            "captured_strides": strides, "device_outputs": device_outputs,
            "captured": {"module": module, "phase": phase, "aten": name, "diopi": diopi,
                         "entry": f"{os.path.relpath(os.path.abspath(entry.file), ROOT)}:{entry.line}",
                         "library": info.get("library", ""), "vendor": info.get("vendor", "")},
            "ref_seconds": round(ref_seconds, 6),
        }
        if terms > 1:
            record["accumulation"] = terms
        self.cases.append((diopi, record))

    # -- writing
    def write(self):
        """The captured cases as baselines (one file per DIOPI function) and the manifest."""
        import torch

        store, _, lock, _ = conformance_modules()
        os.makedirs(self.out_dir, exist_ok=True)
        by_func = {}
        for func, rec in self.cases:
            by_func.setdefault(func, []).append(rec)
        lib = _C.info()
        info = {"torch_version": torch.__version__, "device": f"diopi ({lib.get('vendor', '')})", "seed": 0,
                "capture": {"library": lib, "captured": len(self.cases), "skipped": self.skipped,
                            "calls": [{"case": r["name"], **r["captured"]} for _, r in self.cases]}}
        with lock.writing(self.out_dir):
            entries = {}
            for func, records in by_func.items():
                index = [[r["name"], r["dtype"], r["layouts"], _payload_bytes(store, r), r.pop("ref_seconds")] for r in records]
                rel, digest, size = store.write_function(self.out_dir, func, records)
                entries[func] = {"family": records[0]["family"], "index": index, "path": rel, "sha256": digest, "bytes": size,
                                 "cases": len(records)}
            store.update_manifest(self.out_dir, entries, info)
        return self.out_dir

    def summary(self):
        return {"captured": len(self.cases), "skipped": len(self.skipped), "dir": self.out_dir,
                "cases": [{"case": r["name"], **r["captured"]} for _, r in self.cases]}

    def __str__(self):
        lines = [f"op capture: {len(self.cases)} calls saved in {self.out_dir}" +
                 (f", {len(self.skipped)} not replayable" if self.skipped else "")]
        for _, r in self.cases:
            c = r["captured"]
            lines.append(f"  {r['name']}: aten::{c['aten']} -> {c['diopi']} ({c['phase']}{', ' + c['module'] if c['module'] else ''})")
        for s in self.skipped:
            lines.append(f"  not saved: aten::{s['aten']} -> {s['diopi']}: {s['why']}")
        return "\n".join(lines)


def _composite_key(torch, func):
    """The composite kernel the device runs for an operator it has no kernel of its own for, else None
    (views, copies and allocations: no DIOPI call of an operator inside)."""
    from .. import capture as model_capture  # imports torch

    name = func.name()
    overload = schemas.overload_name(func)
    if overload in model_capture.COPY_OPS | model_capture.SYNC_OPS | model_capture.CROSS_DEVICE | model_capture.ALLOC or \
            any(r.alias_info is not None for r in func._schema.returns):
        return None
    if torch._C._dispatch_has_kernel_for_dispatch_key(name, "PrivateUse1"):
        return None
    for key in ("CompositeImplicitAutograd", "CompositeExplicitAutogradNonFunctional", "CompositeExplicitAutograd"):
        if torch._C._dispatch_has_kernel_for_dispatch_key(name, key):
            return key
    return None


def _snake(diopi):
    try:
        import diopi_header
        return diopi_header.snake(diopi)
    except (ImportError, AttributeError):
        return diopi


def _number(v):
    if hasattr(v, "item"):  # a 0-dim tensor read as a number (Call::scalar)
        v = v.item()
    if isinstance(v, (bool, int, float)):
        return v
    raise ValueError(f"not a number: {v!r}")


def _encode(store, t):
    import torch
    from conformance.gen_data import from_torch
    if not isinstance(t, torch.Tensor):
        raise ValueError(f"a harness case holds tensors here, not {type(t).__name__} (an absent tensor in a list?)")
    return store.encode_array(*from_torch(t))


def _strides(strides, name, t):
    """The element strides the device passed, when not row-major (the "captured" layout replays them)."""
    if t is None or not hasattr(t, "stride"):
        return
    st = list(t.stride())
    contiguous, acc = [], 1
    for d in reversed(list(t.shape)):
        contiguous.append(acc)
        acc *= max(d, 1)
    if st != list(reversed(contiguous)):
        strides[name] = st


def _payload_bytes(store, record):
    def size(v):
        if store.is_encoded_array(v):
            return len(v["data"]) if v["data"] is not None else 0
        if isinstance(v, list):
            return sum(size(x) for x in v)
        return 0
    return sum(size(v) for part in ("inputs", "outputs") for v in record[part].values())


def op_capture(out_dir, ops=None, max_calls=100, model=None):
    """A context manager saving the real inputs and outputs of the chosen DIOPI calls (see the module's doc)."""
    return OpCapture(out_dir, ops=ops, max_calls=max_calls, model=model)


def load_capture(out_dir):
    """The capture's own part of the manifest (library, calls, skipped)."""
    with open(os.path.join(out_dir, "manifest.json")) as f:
        return json.load(f).get("capture", {})
