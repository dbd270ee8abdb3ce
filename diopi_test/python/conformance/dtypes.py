"""DIOPI dtypes and their numpy storage.

The dtype names and their diopiDtype_t values come from the header
(diopi_header); this module only adds how numpy stores each one. numpy has
no bfloat16: such arrays are stored as uint16 bit patterns and widened to
float32 for comparison. Everything here is numpy-only.
"""
import functools

import diopi_header
import numpy as np

# DIOPI dtype name (diopiDtype_t without "diopi_dtype_") -> numpy storage dtype,
# for the dtypes the harness can hold (numpy has no tfloat32 or complex32).
_STORAGE = {
    "int8": np.int8,
    "uint8": np.uint8,
    "int16": np.int16,
    "uint16": np.uint16,
    "int32": np.int32,
    "uint32": np.uint32,
    "int64": np.int64,
    "uint64": np.uint64,
    "float16": np.float16,
    "float32": np.float32,
    "float64": np.float64,
    "bool": np.bool_,
    "bfloat16": np.uint16,
    "complex64": np.complex64,
    "complex128": np.complex128,
}
NAMES = tuple(_STORAGE)
FLOATING = ("float16", "bfloat16", "float32", "float64")
INTEGER = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
COMPLEX = ("complex64", "complex128")


@functools.lru_cache(maxsize=None)
def _values():
    """name -> diopiDtype_t value, from the header, for the names above."""
    header = diopi_header.dtypes()
    missing = sorted(set(_STORAGE) - set(header))
    if missing:
        raise RuntimeError(f"diopiDtype_t in {diopi_header.RUNTIME_HEADER} lacks {missing}")
    return {name: header[name] for name in _STORAGE}


@functools.lru_cache(maxsize=None)
def _names():
    return {v: k for k, v in _values().items()}


def enum_value(name):
    return _values()[name]


def from_enum(value):
    return _names()[value]


def storage(name):
    """numpy dtype holding the raw elements of a DIOPI dtype."""
    return np.dtype(_STORAGE[name])


def itemsize(name):
    return storage(name).itemsize


def is_floating(name):
    return name in FLOATING


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values):
    """Round-to-nearest-even float32 -> bfloat16 bits (NaN kept quiet).

    In uint32, in place: this runs over every element of a model's largest
    tensors (a 128256x4096 embedding). Only NaN bit patterns can wrap
    around, and those are replaced below."""
    x = np.asarray(values, dtype=np.float32)
    shape = x.shape
    x = x.reshape(-1)  # 0-d arithmetic would give numpy scalars, which nothing can be written into
    bits = x.view(np.uint32)
    r = bits >> 16
    r &= 1
    r += 0x7FFF
    r += bits
    r >>= 16
    rounded = r.astype(np.uint16)
    nan = np.isnan(x)
    if nan.any():
        rounded[nan] = (bits[nan] >> 16).astype(np.uint16) | 0x0040
    return rounded.reshape(shape)


def to_values(array, name):
    """Numeric view for comparison: bfloat16 bits become float32."""
    return bf16_to_f32(array) if name == "bfloat16" else np.asarray(array)


def from_values(values, name):
    """Cast numbers (any numpy array) to the storage of DIOPI dtype `name`."""
    if name == "bfloat16":
        return f32_to_bf16(np.asarray(values, dtype=np.float32))
    return np.asarray(values).astype(storage(name))
