"""The replay's rendering of an argument description (conformance/arguments.py):
runtime tensors made through the test runtime, and the cffi arguments of
one call, with what the checks need after it."""
import numpy as np

from . import arguments as A
from . import dtypes
from .arguments import CaseError


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
        return cls(lib, array.shape, dtype, *A.input_storage(array, dtype, layout))

    @classmethod
    def described(cls, lib, ta):
        """The tensor an arguments.TensorArg describes."""
        return cls(lib, ta.shape, ta.dtype, ta.strides, ta.storage())

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
        self.described = A.describe(fn, record, layout, sentinel_variant)
        self.ffi = lib.ffi
        self.ctx = lib.rt.dt_context_create()
        self.tensors = []        # every harness tensor, for guard checks and cleanup
        self.read_only = []      # (label, Tensor) that must come back unmodified
        self.outputs = []        # (Arg, getter) giving the produced value
        self.generators = []
        self.keep = []           # cffi objects that must outlive the call
        self.by_name = {}        # param -> Tensor
        self.args = [self._arg(a) for a in self.described.args]
        if self.described.alias:  # pass an input's tensor as an output too (overlapping in/out)
            out_name, in_name = self.described.alias
            names = [p.name for p in fn.params]
            self.args[names.index(out_name)] = self.by_name[in_name].handle
            self.read_only = [(n, t) for n, t in self.read_only if n != in_name]
        self.meta = [(t, metadata(lib, t.handle)) for t in self.tensors]

    def _tensor(self, ta):
        t = Tensor.described(self.lib, ta)
        t.label = ta.label
        self.tensors.append(t)
        if ta.role == A.INPUT:
            self.read_only.append((ta.label, t))
        return t

    def _arg(self, a):
        ffi, form = self.ffi, a.form
        if form == A.CONTEXT:
            return self.ctx
        if form == A.NULL:
            return ffi.NULL
        if form == A.TENSOR:
            t = self.by_name[a.name] = self._tensor(a.tensors[0])
            if a.produces:
                self.outputs.append((a, t.read))
            return t.handle
        if form == A.TENSOR_LIST:
            ts = [self._tensor(ta) for ta in a.tensors]
            if a.produces:
                self.outputs.append((a, lambda ts=ts: [t.read() for t in ts]))
            arr = ffi.new(f"{a.ctype}[]", [t.handle for t in ts] or [ffi.NULL])
            self.keep.append(arr)
            return arr
        if form == A.ALLOCATED:
            slot = ffi.new("diopiTensorHandle_t*")
            self.keep.append(slot)

            def produced(slot=slot):
                if slot[0] == ffi.NULL:
                    raise CaseError(f"{a.name}: the library did not allocate the output")
                return read_handle(self.lib, slot[0])
            self.outputs.append((a, produced))
            return slot
        if form == A.SCALAR:
            s = ffi.new("diopiScalar_t*")
            s.stype = dtypes.enum_value(a.ctype)
            member, value = a.scalar_field
            setattr(s, member, value)
            self.keep.append(s)
            return s
        if form in (A.SIZE, A.SIZE_PTR):
            if a.value is None:
                return ffi.new("diopiSize_t*", {"data": ffi.NULL, "len": 0})[0]
            data = ffi.new("int64_t[]", a.value or [0])
            s = ffi.new("diopiSize_t*", {"data": data, "len": len(a.value)})
            self.keep += [data, s]
            return s if form == A.SIZE_PTR else s[0]
        if form == A.VALUE_PTR:
            ptr = ffi.new(f"{a.ctype}*", a.value)
            self.keep.append(ptr)
            return ptr
        if form == A.NUMBER_OUT:
            ptr = ffi.new(f"{a.ctype}*")
            self.keep.append(ptr)
            self.outputs.append((a, lambda ptr=ptr: ptr[0]))
            return ptr
        if form == A.GENERATOR:
            g = self.lib.rt.dt_generator_create(a.value)
            self.generators.append(g)
            return g
        if form == A.STRING:
            if a.value is None:
                return ffi.NULL
            s = ffi.new("char[]", str(a.value).encode())
            self.keep.append(s)
            return s
        if form in (A.ENUM, A.NUMBER):
            return a.value
        raise AssertionError(f"argument form {form!r} has no cffi rendering")

    def close(self):
        for t in self.tensors:
            t.destroy()
        for g in self.generators:
            self.lib.rt.dt_generator_destroy(g)
        self.lib.rt.dt_context_destroy(self.ctx)
