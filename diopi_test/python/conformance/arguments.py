"""What one case passes to its C function: the argument description.

`describe(fn, record, layout)` reads a case record against the header's
model of the function and returns, per parameter in declaration order, one
`Arg`: its form (a tensor, a list of tensors, a scalar, a size, an enum
value, NULL, ...), the value, and for tensors the dtype, shape, strides and
the storage they start with. Two renderers turn the description into a
call: conformance/call.py into cffi objects for the replay in a worker,
conformance/repro.py into C source for a standalone reproducer. Neither
reads a record's inputs any other way, so both pass the same thing.

Tensors are laid out the way the case's layout asks (row-major, strided
with gaps, channels-last, the strides a model produced, a fuzz mutation's
stride-0 view). The gaps of an input's storage hold the sentinel, so a
kernel that reads them gets visibly wrong values; outputs start filled
with it, so elements a kernel skips stay visible. numpy only (no cffi).
"""
import dataclasses

import numpy as np

from . import dtypes, enums, store


class CaseError(Exception):
    """The case record cannot be turned into a call (a config or baseline bug)."""


# ---------------------------------------------------------------- layouts
def contiguous_strides(shape):
    strides, acc = [], 1
    for d in reversed(shape):
        strides.append(acc)
        acc *= max(d, 1)
    return list(reversed(strides))


def layout_strides(shape, layout):
    """Element strides of a tensor of `shape` laid out as `layout`:
    contiguous (row-major); noncontig (column-major with a gap after every
    element, so both 'last dim is dense' and 'storage is dense' assumptions
    break); channels_last (NHWC / NDHWC order for 4-D / 5-D tensors)."""
    n = int(np.prod(shape)) if len(shape) else 1
    if isinstance(layout, (list, tuple)):  # explicit strides (a model's own layout)
        return [int(s) for s in layout]
    if layout == "captured":  # a tensor the model produced contiguous
        return contiguous_strides(shape)
    if layout == "noncontig" and len(shape) >= 1 and n > 1:
        strides, acc = [0] * len(shape), 2
        for i in range(len(shape)):
            strides[i] = acc
            acc *= max(shape[i], 1)
        return strides
    if layout == "stride0" and len(shape) >= 1:
        st = contiguous_strides(shape)
        return [0] + st[1:]  # every index of dim 0 aliases the same row (an expanded view)
    if layout == "channels_last" and len(shape) in (4, 5):
        order = [1] + list(range(len(shape) - 1, 1, -1)) + [0]   # fastest first: C, W, H, (D), N
        strides, acc = [0] * len(shape), 1
        for i in order:
            strides[i] = acc
            acc *= max(shape[i], 1)
        return strides
    return contiguous_strides(shape)


def storage_elements(shape, strides):
    """Elements of storage a tensor of `shape` and `strides` spans."""
    if any(d == 0 for d in shape):
        return 0
    return sum((d - 1) * s for d, s in zip(shape, strides)) + 1


# ---------------------------------------------------------------- sentinel and storage
def sentinel_value(dtype, variant=0):
    """One element of the output pre-fill: NaN for floats (a second, finite
    pattern for the re-run), a byte pattern for integers and bools."""
    st = dtypes.storage(dtype)
    if dtype in dtypes.FLOATING:
        v = np.array([np.nan if variant == 0 else -12345.0], dtype=np.float32)
        return dtypes.from_values(v, dtype)
    byte = b"\x5a" if variant == 0 else b"\xa7"
    return np.frombuffer(byte * st.itemsize, dtype=st).copy()


def _strided_storage(array, dtype, strides):
    storage = np.repeat(sentinel_value(dtype), storage_elements(array.shape, strides))
    if storage.size:
        itemsize = dtypes.storage(dtype).itemsize
        np.lib.stride_tricks.as_strided(storage, array.shape, [s * itemsize for s in strides])[...] = array
    return storage


def input_storage(array, dtype, layout):
    """(strides, storage) of an input holding `array`, laid out as `layout`."""
    strides = layout_strides(array.shape, layout)
    return strides, _strided_storage(array, dtype, strides)


# ---------------------------------------------------------------- the description
INPUT = "input"      # read only: must come back byte for byte
INPLACE = "inplace"  # starts with the case's values, written by the call
OUTPUT = "output"    # starts filled with the sentinel


@dataclasses.dataclass(frozen=True, eq=False)
class TensorArg:
    """One tensor the harness makes (element strides, storage offset 0)."""
    label: str          # the parameter's name, or "name[i]" inside a list
    role: str           # INPUT, INPLACE or OUTPUT
    dtype: str
    shape: tuple
    strides: tuple
    array: object = None   # the values of an INPUT or INPLACE tensor
    fill: int = None       # sentinel variant an OUTPUT starts filled with

    def storage(self):
        """The storage the tensor starts with, made when a renderer asks for
        it (a model's inputs can be large)."""
        if self.role == OUTPUT:
            return np.repeat(sentinel_value(self.dtype, self.fill), storage_elements(self.shape, self.strides))
        return _strided_storage(self.array, self.dtype, self.strides)


# How an argument is passed (Arg.form).
CONTEXT = "context"
NULL = "null"                # a NULL pointer: an absent optional argument or output
TENSOR = "tensor"            # one handle (tensors[0])
TENSOR_LIST = "tensor_list"  # an array of handles of type `ctype`
ALLOCATED = "allocated"      # a handle slot the library fills with a tensor it allocates
SCALAR = "scalar"            # a diopiScalar_t* holding `value`, of dtype `ctype`
SIZE = "size"                # a diopiSize_t holding the tuple `value` (None: {NULL, 0})
SIZE_PTR = "size_ptr"        # a pointer to a diopiSize_t holding the tuple `value`
VALUE_PTR = "value_ptr"      # a pointer to one `ctype` holding `value`
NUMBER_OUT = "number_out"    # a pointer to one zeroed `ctype` the library writes
GENERATOR = "generator"      # a generator seeded with `value`
ENUM = "enum"                # the enumerator `value`, which the config spelt `spelling`
STRING = "string"            # a C string
NUMBER = "number"            # an integer, floating or bool `value`, by value

_POINTEES = {"int_ptr": "int64_t", "bool_ptr": "bool", "double_ptr": "double",
             "bool_out": "bool", "double_out": "double", "int_out": "int64_t"}
_SCALAR_DTYPES = {bool: "bool", int: "int64", float: "float64"}  # Python type -> the dtype a diopiScalar_t carries


@dataclasses.dataclass(frozen=True)
class Arg:
    param: object            # the header's Param (name, ctype, kind)
    form: str
    value: object = None
    tensors: tuple = ()      # TensorArg, for TENSOR and TENSOR_LIST
    ctype: str = ""          # element, pointee or scalar type (see the forms)
    expected: object = None  # the record's reference for an output parameter
    spelling: object = None  # ENUM: the value as the config wrote it

    @property
    def name(self):
        return self.param.name

    @property
    def produces(self):
        """Whether the call writes a value that is read back after it."""
        return self.form != NULL and self.param.is_output

    @property
    def prefilled(self):
        """A lone output tensor that started as the sentinel: elements still
        holding it were never written. (Lists are compared element by
        element without that distinction.)"""
        return self.form == TENSOR and self.tensors[0].role == OUTPUT

    @property
    def scalar_field(self):
        """(member of diopiScalar_t, value) of a SCALAR."""
        return ("fval", self.value) if isinstance(self.value, float) else ("ival", int(self.value))


@dataclasses.dataclass(frozen=True)
class Arguments:
    args: tuple              # Arg per parameter, in declaration order
    alias: tuple = None      # fuzz: (output, input) parameters passed the same tensor


def scalar_stype(value):
    """diopiDtype_t value of a scalar argument's stype (from diopirt.h)."""
    return dtypes.enum_value(_SCALAR_DTYPES[type(value)])


def enum_argument(p, value):
    """Value of an enum parameter from its config spelling (enums.py); CaseError if unknown."""
    table = enums.config_values(p.kind)
    if value not in table:
        raise CaseError(f"{p.name}: {value!r} is not one of {sorted(map(str, table))}")
    return table[value]


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


def decoded_inputs(record):
    """The record's inputs by name, arrays as (array, dtype) (for the
    property checks of random operators)."""
    return {k: store.decode_array(v) if store.is_encoded_array(v) else v for k, v in record["inputs"].items()}


def describe(fn, record, layout="contiguous", sentinel_variant=0):
    """The Arguments of one case replayed with `layout`; outputs start
    filled with the sentinel of `sentinel_variant`. Raises CaseError (or
    store.BaselineError) when the record cannot become a call."""
    return _Reader(fn, record, layout, sentinel_variant).arguments()


class _Reader:
    def __init__(self, fn, record, layout, variant):
        self.fn, self.record, self.layout, self.variant = fn, record, layout, variant

    def arguments(self):
        args = tuple(self._arg(p) for p in self.fn.params)
        alias = self.record.get("fuzz_alias")
        return Arguments(args, tuple(alias) if alias else None)

    # -- tensors
    def _layout_of(self, name):
        """A fuzz mutation may give one tensor its own layout; a model case
        replays each tensor with the strides the model produced."""
        layout = self.record.get("fuzz_layouts", {}).get(name, self.layout)
        if layout == "captured":
            return self.record.get("captured_strides", {}).get(name, layout)
        return layout

    def _input(self, label, enc, role, layout):
        array, dtype = store.decode_array(enc)
        strides = layout_strides(array.shape, layout)
        return TensorArg(label, role, dtype, tuple(int(d) for d in array.shape), tuple(int(s) for s in strides), array=array)

    def _output(self, label, enc, layout):
        shape, dtype = store.array_meta(enc)
        strides = layout_strides(shape, layout)
        return TensorArg(label, OUTPUT, dtype, shape, tuple(int(s) for s in strides), fill=self.variant)

    # -- one parameter
    def _arg(self, p):
        inputs, outputs = self.record["inputs"], self.record["outputs"]
        value, k = inputs.get(p.name), p.kind
        if k == "context":
            return Arg(p, CONTEXT)
        if k == "tensor_in":
            if value is None:
                return Arg(p, NULL)
            return Arg(p, TENSOR, tensors=(self._input(p.name, value, INPUT, self._layout_of(p.name)),))
        if k == "tensor_out":
            exp = outputs.get(p.name)
            if value is not None:  # in-place: the input's value, checked as an output
                return Arg(p, TENSOR, tensors=(self._input(p.name, value, INPLACE, self._layout_of(p.name)),), expected=exp)
            if exp is None:
                return Arg(p, NULL)
            return Arg(p, TENSOR, tensors=(self._output(p.name, exp, self._layout_of(p.name)),), expected=exp)
        if k == "tensor_array_in":
            if value is None:
                return Arg(p, NULL)
            ts = tuple(self._input(f"{p.name}[{i}]", v, INPUT, self.layout) for i, v in enumerate(value))
            return Arg(p, TENSOR_LIST, tensors=ts, ctype="diopiConstTensorHandle_t")
        if k == "tensor_array_out":
            return self._tensor_array_out(p, value, outputs.get(p.name))
        if k == "scalar":
            if value is None:
                return Arg(p, NULL)
            return Arg(p, SCALAR, value, ctype=_SCALAR_DTYPES[type(value)])
        if k in ("size", "size_ptr"):
            if value is None:
                return Arg(p, NULL if k == "size_ptr" else SIZE)
            return Arg(p, SIZE_PTR if k == "size_ptr" else SIZE, tuple(int(v) for v in value))
        if k in ("int_ptr", "bool_ptr", "double_ptr"):
            if value is None:
                return Arg(p, NULL)
            return Arg(p, VALUE_PTR, value, ctype=_POINTEES[k])
        if k in ("bool_out", "double_out", "int_out"):
            return Arg(p, NUMBER_OUT, ctype=_POINTEES[k], expected=outputs.get(p.name))
        if k == "generator":
            return Arg(p, GENERATOR, self.record["seed"])
        if enums.is_enum_kind(k):
            return Arg(p, ENUM, enum_argument(p, value), spelling=value)
        if k == "string":
            return Arg(p, STRING, value)
        if k in ("int", "float", "bool"):
            if p.name not in inputs:
                n = adjacent_length(self.fn, self.record, p)
                if n is None:
                    raise CaseError(f"the case gives no value for {p.name}")
                return Arg(p, NUMBER, n)
            return Arg(p, NUMBER, value)
        if k == "pointer":
            return Arg(p, NULL)
        raise CaseError(f"parameter {p.name} of unsupported C type {p.ctype}")

    def _tensor_array_out(self, p, value, exp):
        if value is not None:  # in-place list of tensors
            ts = tuple(self._input(f"{p.name}[{i}]", v, INPLACE, self.layout) for i, v in enumerate(value))
            return Arg(p, TENSOR_LIST, tensors=ts, ctype="diopiTensorHandle_t", expected=exp)
        if exp is None:
            return Arg(p, NULL)
        if isinstance(exp, list):  # caller-allocated list of outputs
            ts = tuple(self._output(f"{p.name}[{i}]", e, self.layout) for i, e in enumerate(exp))
            return Arg(p, TENSOR_LIST, tensors=ts, ctype="diopiTensorHandle_t", expected=exp)
        return Arg(p, ALLOCATED, expected=exp)  # one output the library allocates with diopiRequireTensor
