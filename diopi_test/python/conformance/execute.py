"""Replay one baseline case against the operator library (runs in a worker).

Builds every C argument from the case record and the header's parameter
kinds, calls the function, then checks: the return code, each output
against the reference, that read-only inputs kept every byte, and that no
storage's guard zone was overwritten.
"""
import diopi_header
import numpy as np

from . import compare, dtypes, enums, random_checks, sampled, store, tolerances

# Verdicts, each counted on its own in reports.
PASSED = "passed"
FAILED = "failed"                  # wrong values, shape or dtype
ERROR = "error"                    # returned an error code for a valid case
NO_MESSAGE = "no_message"          # returned an error code and an empty diopiGetLastErrorString()
CRASHED = "crashed"                # the worker died (signal)
TIMEOUT = "timeout"                # no answer before the deadline
OOB_WRITE = "oob_write"            # wrote into the guard zone around a storage
INPUT_MODIFIED = "input_modified"  # changed a read-only input
UNWRITTEN = "unwritten"            # left output elements as the sentinel it was given
METADATA = "metadata_changed"      # changed shape/stride/dtype/offset of a tensor it does not own
NOT_IMPLEMENTED = "not_implemented"
SKIPPED = "skipped"
VERDICTS = (PASSED, FAILED, ERROR, NO_MESSAGE, CRASHED, TIMEOUT, OOB_WRITE, INPUT_MODIFIED, UNWRITTEN, METADATA,
            NOT_IMPLEMENTED, SKIPPED)
# Verdicts that fail a run (not_implemented and skipped do not).
FAILING = (FAILED, ERROR, NO_MESSAGE, CRASHED, TIMEOUT, OOB_WRITE, INPUT_MODIFIED, UNWRITTEN, METADATA)

# Python type of a scalar argument -> the dtype its diopiScalar_t carries.
_SCALAR_DTYPES = {bool: "bool", int: "int64", float: "float64"}


def scalar_stype(value):
    """diopiDtype_t value of a scalar argument's stype (from diopirt.h)."""
    return dtypes.enum_value(_SCALAR_DTYPES[type(value)])


def enum_argument(p, value):
    """Value of an enum parameter from its config spelling (enums.py); CaseError if unknown."""
    table = enums.config_values(p.kind)
    if value not in table:
        raise CaseError(f"{p.name}: {value!r} is not one of {sorted(map(str, table))}")
    return table[value]


def _is_no_implement(rc):
    return rc == enums.error_code("diopiNoImplement")


class CaseError(Exception):
    """The case record cannot be turned into a call (a config or baseline bug)."""


def _contiguous_strides(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return list(reversed(strides))


def _layout_strides(shape, layout):
    """Element strides of a tensor of `shape` laid out as `layout`:
    contiguous (row-major); noncontig (column-major with a gap after every
    element, so both 'last dim is dense' and 'storage is dense' assumptions
    break); channels_last (NHWC / NDHWC order for 4-D / 5-D tensors)."""
    n = int(np.prod(shape)) if len(shape) else 1
    if isinstance(layout, (list, tuple)):  # explicit strides (a model's own layout)
        return [int(s) for s in layout]
    if layout == "captured":  # a tensor the model produced contiguous
        return _contiguous_strides(shape)
    if layout == "noncontig" and len(shape) >= 1 and n > 1:
        strides, acc = [0] * len(shape), 2
        for i in range(len(shape)):
            strides[i] = acc
            acc *= max(shape[i], 1)
        return strides
    if layout == "stride0" and len(shape) >= 1:
        st = _contiguous_strides(shape)
        return [0] + st[1:]  # every index of dim 0 aliases the same row (an expanded view)
    if layout == "channels_last" and len(shape) in (4, 5):
        order = [1] + list(range(len(shape) - 1, 1, -1)) + [0]   # fastest first: C, W, H, (D), N
        strides, acc = [0] * len(shape), 1
        for i in order:
            strides[i] = acc
            acc *= max(shape[i], 1)
        return strides
    return _contiguous_strides(shape)


def _needed(shape, strides):
    if any(d == 0 for d in shape):
        return 0
    return sum((d - 1) * s for d, s in zip(shape, strides)) + 1


class Tensor:
    """A runtime tensor made by the harness, with a copy of its initial bytes."""

    def __init__(self, lib, shape, dtype, strides, storage):
        self.lib, self.shape, self.dtype, self.strides = lib, tuple(shape), dtype, list(strides)
        ffi = lib.ffi
        self.handle = lib.rt.dt_tensor_create(ffi.new("int64_t[]", list(shape) or [0]), ffi.new("int64_t[]", self.strides or [0]),
                                              len(shape), dtypes.enum_value(dtype), 0, storage.size, 1)
        if self.handle == ffi.NULL:
            raise CaseError("test runtime could not create a tensor: " + lib.string(lib.rt.dt_last_error()))
        self.initial = storage.tobytes()
        if storage.size:
            lib.rt.dt_tensor_write_storage(self.handle, ffi.from_buffer(storage), storage.nbytes)

    @classmethod
    def from_array(cls, lib, array, dtype, layout):
        return cls(lib, array.shape, dtype, *input_storage(array, dtype, layout))

    @classmethod
    def sentinel(cls, lib, shape, dtype, variant=0, layout="contiguous"):
        """An output pre-filled so that elements the kernel skips are visible."""
        t = cls(lib, shape, dtype, *sentinel_storage(shape, dtype, variant, layout))
        t.sentinel_variant = variant
        return t

    def storage_bytes(self):
        n = self.lib.rt.dt_tensor_storage_nbytes(self.handle)
        buf = bytearray(n)
        if n:
            self.lib.rt.dt_tensor_read_storage(self.handle, self.lib.ffi.from_buffer(buf), n)
        return bytes(buf)

    def read(self):
        return read_handle(self.lib, self.handle)

    def destroy(self):
        self.lib.rt.dt_tensor_destroy(self.handle)


def input_storage(array, dtype, layout):
    """(strides, storage) of an input laid out as `layout`. Gaps between
    elements hold the sentinel: a kernel that reads them produces visibly
    wrong results. (Shared with the C reproducers of conformance/repro.py.)"""
    strides = _layout_strides(array.shape, layout)
    st = dtypes.storage(dtype)
    storage = np.repeat(sentinel_value(dtype), _needed(array.shape, strides))
    if storage.size:
        np.lib.stride_tricks.as_strided(storage, array.shape, [s * st.itemsize for s in strides])[...] = array
    return strides, storage


def sentinel_storage(shape, dtype, variant=0, layout="contiguous"):
    """(strides, storage) of an output pre-filled with the sentinel."""
    strides = _layout_strides(shape, layout)
    return strides, np.repeat(sentinel_value(dtype, variant), _needed(shape, strides))


def sentinel_value(dtype, variant=0):
    """One element of the output pre-fill: NaN for floats (a second, finite
    pattern for the re-run), a byte pattern for integers and bools."""
    st = dtypes.storage(dtype)
    if dtype in dtypes.FLOATING:
        v = np.array([np.nan if variant == 0 else -12345.0], dtype=np.float32)
        return dtypes.from_values(v, dtype)
    byte = b"\x5a" if variant == 0 else b"\xa7"
    return np.frombuffer(byte * st.itemsize, dtype=st).copy()


def metadata(lib, handle):
    rt = lib.rt
    nd = rt.dt_tensor_ndim(handle)
    return (tuple(rt.dt_tensor_dim_size(handle, i) for i in range(nd)), tuple(rt.dt_tensor_dim_stride(handle, i) for i in range(nd)),
            rt.dt_tensor_dtype(handle), rt.dt_tensor_storage_offset(handle))


def read_handle(lib, handle):
    """(array, dtype) of any runtime tensor, following its strides and offset."""
    rt = lib.rt
    ndim = rt.dt_tensor_ndim(handle)
    shape = [rt.dt_tensor_dim_size(handle, i) for i in range(ndim)]
    strides = [rt.dt_tensor_dim_stride(handle, i) for i in range(ndim)]
    dtype = dtypes.from_enum(rt.dt_tensor_dtype(handle))
    st = dtypes.storage(dtype)
    n = rt.dt_tensor_storage_nbytes(handle)
    buf = bytearray(n)
    if n:
        rt.dt_tensor_read_storage(handle, lib.ffi.from_buffer(buf), n)
    storage = np.frombuffer(bytes(buf), dtype=st)
    if any(d == 0 for d in shape):
        return np.zeros(shape, dtype=st), dtype
    off = rt.dt_tensor_storage_offset(handle)
    view = np.lib.stride_tricks.as_strided(storage[off:], shape, [s * st.itemsize for s in strides])
    return np.array(view), dtype


class Call:
    """The C arguments of one case, and everything needed to check it after."""

    def __init__(self, lib, fn, record, layout, sentinel_variant=0):
        self.lib, self.fn, self.record, self.layout = lib, fn, record, layout
        self.sentinel_variant = sentinel_variant
        self.ffi = lib.ffi
        self.ctx = lib.rt.dt_context_create()
        self.tensors = []        # every harness tensor, for guard checks and cleanup
        self.read_only = []      # (param, Tensor) that must come back unmodified
        self.outputs = []        # (param, getter) giving the produced value
        self.generators = []
        self.keep = []           # cffi objects that must outlive the call
        self.sentinels = []      # (name, Tensor) outputs pre-filled with a sentinel
        self.by_name = {}        # param -> Tensor
        self.args = [self._arg(p) for p in fn.params]
        alias = record.get("fuzz_alias")
        if alias:  # pass an input's tensor as an output too (overlapping in/out)
            out_name, in_name = alias
            names = [p.name for p in fn.params]
            self.args[names.index(out_name)] = self.by_name[in_name].handle
            self.read_only = [(n, t) for n, t in self.read_only if n != in_name]
        self.meta = [(t, metadata(lib, t.handle)) for t in self.tensors]

    # -- argument construction
    def _layout_of(self, name, layout):
        """A model case replays each tensor with the strides the model produced."""
        if layout == "captured" and name:
            return self.record.get("captured_strides", {}).get(name, layout)
        return layout

    def _new_tensor(self, enc, layout, name=None):
        array, dtype = store.decode_array(enc)
        layout = self._layout_of(name, self.record.get("fuzz_layouts", {}).get(name, layout))
        t = Tensor.from_array(self.lib, array, dtype, layout)
        self.tensors.append(t)
        if name:
            self.by_name[name] = t
        return t

    def _expected(self, name):
        return self.record["outputs"].get(name)

    def _arg(self, p):
        ffi, inputs = self.ffi, self.record["inputs"]
        given = p.name in inputs
        value = inputs.get(p.name)
        k = p.kind
        if k == "context":
            return self.ctx
        if k == "tensor_in":
            if value is None:
                return ffi.NULL
            t = self._new_tensor(value, self.layout, p.name)
            self.read_only.append((p.name, t))
            return t.handle
        if k == "tensor_out":
            if given and value is not None:  # in-place: input value, checked as output
                t = self._new_tensor(value, self.layout, p.name)
            else:
                exp = self._expected(p.name)
                if exp is None:
                    return ffi.NULL
                shape, dtype = store.array_meta(exp)
                t = Tensor.sentinel(self.lib, shape, dtype, self.sentinel_variant, self._layout_of(p.name, self.layout))
                self.tensors.append(t)
                self.by_name[p.name] = t
                self.sentinels.append((p.name, t))
            self.outputs.append((p.name, t.read))
            return t.handle
        if k == "tensor_array_in":
            if value is None:
                return ffi.NULL
            ts = [self._new_tensor(v, self.layout) for v in value]
            self.read_only += [(f"{p.name}[{i}]", t) for i, t in enumerate(ts)]
            arr = ffi.new("diopiConstTensorHandle_t[]", [t.handle for t in ts] or [ffi.NULL])
            self.keep.append(arr)
            return arr
        if k == "tensor_array_out":
            return self._tensor_array_out(p, given, value)
        if k == "scalar":
            if value is None:
                return ffi.NULL
            s = ffi.new("diopiScalar_t*")
            s.stype = scalar_stype(value)
            if isinstance(value, float):
                s.fval = value
            else:
                s.ival = int(value)
            self.keep.append(s)
            return s
        if k in ("size", "size_ptr"):
            if value is None:
                return ffi.NULL if k == "size_ptr" else ffi.new("diopiSize_t*", {"data": ffi.NULL, "len": 0})[0]
            data = ffi.new("int64_t[]", [int(v) for v in value] or [0])
            s = ffi.new("diopiSize_t*", {"data": data, "len": len(value)})
            self.keep += [data, s]
            return s if k == "size_ptr" else s[0]
        if k in ("int_ptr", "bool_ptr", "double_ptr"):
            if value is None:
                return ffi.NULL
            ptr = ffi.new({"int_ptr": "int64_t*", "bool_ptr": "bool*", "double_ptr": "double*"}[k], value)
            self.keep.append(ptr)
            return ptr
        if k in ("bool_out", "double_out", "int_out"):
            ptr = ffi.new({"bool_out": "bool*", "double_out": "double*", "int_out": "int64_t*"}[k])
            self.keep.append(ptr)
            self.outputs.append((p.name, lambda ptr=ptr: ptr[0]))
            return ptr
        if k == "generator":
            g = self.lib.rt.dt_generator_create(self.record["seed"])
            self.generators.append(g)
            return g
        if enums.is_enum_kind(k):
            return enum_argument(p, value)
        if k == "string":
            if value is None:
                return ffi.NULL
            s = ffi.new("char[]", str(value).encode())
            self.keep.append(s)
            return s
        if k in ("int", "float", "bool"):
            if not given:
                n = self._adjacent_length(p)
                if n is None:
                    raise CaseError(f"the case gives no value for {p.name}")
                return n
            return value
        if k == "pointer":
            return ffi.NULL
        raise CaseError(f"parameter {p.name} of unsupported C type {p.ctype}")

    def _tensor_array_out(self, p, given, value):
        ffi = self.ffi
        if given and value is not None:  # in-place list of tensors
            ts = [self._new_tensor(v, self.layout) for v in value]
            self.outputs.append((p.name, lambda ts=ts: [t.read() for t in ts]))
            arr = ffi.new("diopiTensorHandle_t[]", [t.handle for t in ts] or [ffi.NULL])
            self.keep.append(arr)
            return arr
        exp = self._expected(p.name)
        if exp is None:
            return ffi.NULL
        if isinstance(exp, list):  # caller-allocated list of outputs
            ts = []
            for e in exp:
                shape, dtype = store.array_meta(e)
                t = Tensor.sentinel(self.lib, shape, dtype, self.sentinel_variant, self.layout)
                self.tensors.append(t)
                self.sentinels.append((f"{p.name}[{len(ts)}]", t))
                ts.append(t)
            self.outputs.append((p.name, lambda ts=ts: [t.read() for t in ts]))
            arr = ffi.new("diopiTensorHandle_t[]", [t.handle for t in ts] or [ffi.NULL])
            self.keep.append(arr)
            return arr
        # One output the library allocates with diopiRequireTensor.
        slot = ffi.new("diopiTensorHandle_t*")
        self.keep.append(slot)

        def produced(slot=slot):
            if slot[0] == ffi.NULL:
                raise CaseError(f"{p.name}: the library did not allocate the output")
            return read_handle(self.lib, slot[0])
        self.outputs.append((p.name, produced))
        return slot

    def _adjacent_length(self, p):
        return adjacent_length(self.fn, self.record, p)

    def close(self):
        for t in self.tensors:
            t.destroy()
        for g in self.generators:
            self.lib.rt.dt_generator_destroy(g)
        self.lib.rt.dt_context_destroy(self.ctx)


def adjacent_length(fn, record, p):
    """Counts like num_inputs take the length of the neighbouring array."""
    params = fn.params
    i = params.index(p)
    for j in (i - 1, i + 1):
        if 0 <= j < len(params) and params[j].kind in ("tensor_array_in", "tensor_array_out"):
            v = record["inputs"].get(params[j].name)
            if v is None:
                v = record["outputs"].get(params[j].name)
            if isinstance(v, list):
                return len(v)
    return None


def _result(verdict, message="", **extra):
    r = {"verdict": verdict, "message": message}
    r.update(extra)
    return r


def _check_output(name, produced, expected, tol_over, accumulation=None):
    """A failure message for one output, or None."""
    if expected is None:
        return None, None
    if isinstance(expected, list):
        if not isinstance(produced, list) or len(produced) != len(expected):
            return f"{name}: expected {len(expected)} tensors", None
        for i, (pv, ev) in enumerate(zip(produced, expected)):
            msg, mm = _check_output(f"{name}[{i}]", pv, ev, tol_over, accumulation)
            if msg:
                return msg, mm
        return None, None
    if sampled.is_sampled(expected):  # a large reference kept as a sample + block sums
        arr, adtype = produced
        if adtype != expected["__nd__"]:
            return f"{name}: dtype {adtype}, expected {expected['__nd__']}", None
        mm = sampled.check(arr, adtype, expected, tolerances.resolve(adtype, tol_over, accumulation))
        return (f"{name}: {mm.describe()}", mm) if mm else (None, None)
    if store.is_encoded_array(expected):
        exp, edtype = store.decode_array(expected)
        arr, adtype = produced
        if adtype != edtype:
            return f"{name}: dtype {adtype}, expected {edtype}", None
        mm = compare.compare(arr, exp, edtype, tolerances.resolve(edtype, tol_over, accumulation))
        return (f"{name}: {mm.describe()}", mm) if mm else (None, None)
    # plain numbers (bool*/double* outputs)
    if isinstance(expected, float):
        atol, rtol = tolerances.DEFAULT["float64"] if not tol_over else next(iter(tol_over.values()))
        ok = abs(float(produced) - expected) <= atol + rtol * abs(expected) or (produced != produced and expected != expected)
    else:
        ok = produced == expected
    return (None, None) if ok else (f"{name}: got {produced!r}, expected {expected!r}", None)


def _expected_has_sentinel(record, variant):
    """Whether some expected output element equals the sentinel (then an
    unwritten element could pass unseen, and the case runs again)."""
    for enc in record["outputs"].values():
        for e in (enc if isinstance(enc, list) else [enc]):
            if store.is_encoded_array(e) and not store.is_spec(e):
                arr, dtype = store.decode_array(e)
                if arr.size and _is_sentinel(arr, dtype, variant).any():
                    return True
    return False


def _is_sentinel(arr, dtype, variant):
    """Elementwise: does `arr` hold the sentinel of `variant`?"""
    s = sentinel_value(dtype, variant)
    if dtype in dtypes.FLOATING and variant == 0:
        return np.isnan(dtypes.to_values(arr, dtype))
    raw = np.ascontiguousarray(arr).view(np.uint8).reshape(arr.shape + (arr.dtype.itemsize,))
    return (raw == s.view(np.uint8)).all(axis=-1)


def _unwritten(call, name, produced, expected):
    """True when an output element still holds its sentinel where the
    reference holds something else."""
    for sname, t in call.sentinels:
        if sname != name or not isinstance(produced, tuple) or not store.is_encoded_array(expected) or \
                store.is_spec(expected):
            continue
        arr, dtype = produced
        exp, _ = store.decode_array(expected)
        if arr.shape != exp.shape or not arr.size:
            return False
        return bool((_is_sentinel(arr, dtype, t.sentinel_variant) & ~_is_sentinel(exp, dtype, t.sentinel_variant)).any())
    return False


def run_case(lib, record, layout="contiguous"):
    """Replays one case; returns a result dict with a verdict."""
    fn_model = diopi_header.load().get(record["func"])
    if fn_model is None:
        return _result(SKIPPED, f"{record['func']} is not declared in this version of the headers")
    cfn = lib.function(record["func"])
    if cfn is None:
        return _result(NOT_IMPLEMENTED, f"{record['func']} is not exported by the library")
    if record.get("checks") is not None:
        return _run_random(lib, fn_model, cfn, record, layout)
    result, _ = _run_once(lib, fn_model, cfn, record, layout, 0)
    if result["verdict"] == PASSED and _expected_has_sentinel(record, 0):
        result, _ = _run_once(lib, fn_model, cfn, record, layout, 1)
        result["sentinel_variant"] = 1  # a reproducer must pre-fill outputs the same way
    return result


def _decoded_inputs(record):
    out = {}
    for k, v in record["inputs"].items():
        out[k] = store.decode_array(v) if store.is_encoded_array(v) else v
    return out


def _run_random(lib, fn_model, cfn, record, layout):
    """Property checks, then a second run with the same seed that must
    reproduce the first bit for bit."""
    first, produced = _run_once(lib, fn_model, cfn, record, layout, 0)
    if first["verdict"] != PASSED:
        return first
    problems = random_checks.run(record["checks"], produced, _decoded_inputs(record))
    if problems:
        return _result(FAILED, "; ".join(problems))
    second, again = _run_once(lib, fn_model, cfn, record, layout, 0)
    if second["verdict"] != PASSED:
        return second
    for name, value in produced.items():
        a = value if isinstance(value, list) else [value]
        b = again.get(name)
        b = b if isinstance(b, list) else [b]
        if any(x is None or y is None or x[0].tobytes() != y[0].tobytes() for x, y in zip(a, b)):
            return _result(FAILED, f"{name}: the same seed gave different numbers on a second run")
    return _result(PASSED)


def _run_once(lib, fn_model, cfn, record, layout, variant):
    """One call; returns (result, produced outputs by name)."""
    produced = {}
    try:
        call = Call(lib, fn_model, record, layout, variant)
    except (CaseError, store.BaselineError) as e:
        return _result(FAILED, f"case error: {e}"), produced
    try:
        rc = cfn(*call.args)
        lib.rt.dt_context_sync(call.ctx)
        conversions = lib.conversions()
        if rc != 0:
            msg = lib.last_error()
            if _is_no_implement(rc):
                return _result(NOT_IMPLEMENTED, f"returned diopiNoImplement: {msg}"), produced
            if not msg.strip():
                return _result(NO_MESSAGE, f"returned error {rc} with an empty diopiGetLastErrorString()", code=int(rc)), produced
            return _result(ERROR, f"returned error {rc}: {msg}", code=int(rc)), produced
        for t in call.tensors:
            if lib.rt.dt_tensor_guard_ok(t.handle) != 1:
                return _result(OOB_WRITE, "wrote outside a tensor's storage (guard bytes overwritten)"), produced
        for t, meta in call.meta:
            if metadata(lib, t.handle) != meta:
                return _result(METADATA, f"changed tensor metadata: {meta} -> {metadata(lib, t.handle)}"), produced
        modified = [name for name, t in call.read_only if t.storage_bytes() != t.initial]
        if modified:
            return _result(INPUT_MODIFIED, "modified read-only input " + ", ".join(modified)), produced
        problems, worst, unwritten = [], None, []
        for name, get in call.outputs:
            try:
                value = get()
            except CaseError as e:
                problems.append(str(e))
                continue
            produced[name] = value
            if record.get("checks") is not None:
                continue  # random outputs: property checks by the caller
            msg, mm = _check_output(name, value, record["outputs"].get(name), record.get("tol"), record.get("accumulation"))
            if msg:
                if _unwritten(call, name, value, record["outputs"].get(name)):
                    unwritten.append(name)
                problems.append(msg)
                if mm and worst is None:
                    worst = mm
        if problems:
            extra = {}
            if worst is not None:
                extra = {"max_abs": worst.max_abs, "max_rel": worst.max_rel, "mismatches": worst.count,
                         "first_index": list(worst.first_index)}
            verdict = UNWRITTEN if unwritten else FAILED
            prefix = f"left elements of {', '.join(unwritten)} unwritten; " if unwritten else ""
            return _result(verdict, prefix + "; ".join(problems), **extra), produced
        return (_result(PASSED, conversions=conversions) if conversions else _result(PASSED)), produced
    finally:
        call.close()


def run_fuzz(lib, record):
    """One malformed call: passes when the library returns a result or an
    error with a message, and stayed inside its tensors."""
    fn_model = diopi_header.load().get(record["func"])
    cfn = lib.function(record["func"]) if fn_model else None
    if cfn is None:
        return _result(NOT_IMPLEMENTED, f"{record['func']} is not exported by the library")
    try:
        call = Call(lib, fn_model, record, "contiguous")
    except (CaseError, store.BaselineError, KeyError) as e:
        return _result(SKIPPED, f"mutation not applicable: {e}")
    try:
        rc = cfn(*call.args)
        lib.rt.dt_context_sync(call.ctx)
        if rc != 0 and not lib.last_error().strip():
            return _result(NO_MESSAGE, f"{record['fuzz']}: returned error {rc} with an empty diopiGetLastErrorString()")
        for t in call.tensors:
            if lib.rt.dt_tensor_guard_ok(t.handle) != 1:
                return _result(OOB_WRITE, f"{record['fuzz']}: wrote outside a tensor's storage")
        for t, meta in call.meta:
            if metadata(lib, t.handle) != meta:
                return _result(METADATA, f"{record['fuzz']}: changed tensor metadata")
        modified = [name for name, t in call.read_only if t.storage_bytes() != t.initial]
        if modified:
            return _result(INPUT_MODIFIED, f"{record['fuzz']}: modified read-only input " + ", ".join(modified))
        return _result(PASSED, f"{record['fuzz']}: " + ("error: " + lib.last_error()[:200] if rc else "returned success"))
    finally:
        call.close()


# ---------------------------------------------------------------- library checks
# The runtime_info functions take no tensors, so they get no baselines: the
# harness checks what the standard promises of them in every run instead.
LIBRARY_CHECKS = {
    "diopiGetVendorName": "returns a non-empty printable name",
    "diopiGetImplVersion": "returns a non-empty printable version",
    "diopiGetLastErrorString": "returns a valid C string before any error",
    # Their results are vendor-defined, so they are checked by a property
    # instead of a baseline.
    "diopiGetNativeMemoryFormat": "reports a format code that diopiNativeMemoryFormatCast accepts and that keeps the values",
    "diopiTensorDestructionHook": "accepts the data address of a tensor being released",
}
_STRING_CHECKS = ("diopiGetVendorName", "diopiGetImplVersion", "diopiGetLastErrorString")


def _printable(text, limit=256):
    return 0 < len(text) <= limit and text.isprintable()


def library_checks(lib):
    """[func, verdict, message] for each function of LIBRARY_CHECKS, run in
    the worker (a crash here ends that worker like any case would)."""
    out = []
    for func, what in LIBRARY_CHECKS.items():
        fn = lib.function(func)
        if fn is None:
            out.append([func, NOT_IMPLEMENTED, f"{func} is not exported by the library"])
            continue
        if func not in _STRING_CHECKS:
            out.append([func, *_CONTEXT_CHECKS[func](lib, fn, what)])
            continue
        ptr = fn()
        if ptr == lib.ffi.NULL:
            out.append([func, FAILED, f"{func}() returned NULL; the standard asks that it {what}"])
            continue
        text = lib.string(ptr)
        ok = _printable(text) if func != "diopiGetLastErrorString" else (text == "" or text.isprintable())
        out.append([func, PASSED if ok else FAILED, f"{func}() -> {text[:80]!r}" + ("" if ok else f"; the standard asks that it {what}")])
    return out


def _status(lib, func, rc, what):
    """(verdict, message) for a non-success return of a library check."""
    msg = lib.last_error()
    if _is_no_implement(rc):
        return NOT_IMPLEMENTED, f"{func} returned diopiNoImplement: {msg}"
    if not msg.strip():
        return NO_MESSAGE, f"{func} returned error {rc} with an empty diopiGetLastErrorString()"
    return FAILED, f"{func} returned error {rc} ({msg}); the standard asks that it {what}"


def _check_native_format(lib, fn, what):
    """Query the native format of a 4-D tensor, cast the tensor to it and
    check the values survive and the input is untouched."""
    ffi = lib.ffi
    values = np.arange(2 * 3 * 4 * 5, dtype=np.float32).reshape(2, 3, 4, 5)
    ctx = lib.rt.dt_context_create()
    t = Tensor.from_array(lib, values, "float32", "contiguous")
    try:
        fmt = ffi.new("int64_t*")
        rc = fn(ctx, t.handle, fmt)
        if rc != 0:
            return _status(lib, "diopiGetNativeMemoryFormat", rc, what)
        cast = lib.function("diopiNativeMemoryFormatCast")
        if cast is None:
            return PASSED, f"format {fmt[0]} (diopiNativeMemoryFormatCast not exported, round trip not checked)"
        out = ffi.new("diopiTensorHandle_t*")
        rc = cast(ctx, out, t.handle, fmt[0])
        lib.rt.dt_context_sync(ctx)
        if rc != 0:
            return _status(lib, "diopiNativeMemoryFormatCast", rc, what)
        if out[0] == ffi.NULL:
            return FAILED, f"diopiNativeMemoryFormatCast to format {fmt[0]} left out NULL"
        got, dtype = read_handle(lib, out[0])
        if dtype != "float32" or tuple(got.shape) != values.shape or not np.array_equal(got, values):
            return FAILED, f"casting to the reported native format {fmt[0]} changed the tensor ({dtype}, shape {tuple(got.shape)})"
        if not lib.rt.dt_tensor_guard_ok(t.handle) or t.storage_bytes() != t.initial:
            return FAILED, "diopiGetNativeMemoryFormat or the cast modified the input tensor"
        return PASSED, f"native format {fmt[0]} round-trips the values"
    finally:
        t.destroy()
        lib.rt.dt_context_destroy(ctx)


def _check_destruction_hook(lib, fn, what):
    ffi = lib.ffi
    ctx = lib.rt.dt_context_create()
    storage = ffi.new("char[]", 64)  # stands for storage about to be released
    try:
        rc = fn(ctx, ffi.cast("void*", storage))
        if rc != 0:
            return _status(lib, "diopiTensorDestructionHook", rc, what)
        return PASSED, "accepted a released storage address"
    finally:
        lib.rt.dt_context_destroy(ctx)


_CONTEXT_CHECKS = {
    "diopiGetNativeMemoryFormat": _check_native_format,
    "diopiTensorDestructionHook": _check_destruction_hook,
}
