"""DIOPI dtypes and their numpy storage.

numpy has no bfloat16: such arrays are stored as uint16 bit patterns and
widened to float32 for comparison. Everything here is numpy-only.
"""
import numpy as np

# name -> (diopiDtype_t value, numpy storage dtype)
_TABLE = {
    "int8": (0, np.int8),
    "uint8": (1, np.uint8),
    "int16": (2, np.int16),
    "uint16": (3, np.uint16),
    "int32": (4, np.int32),
    "uint32": (5, np.uint32),
    "int64": (6, np.int64),
    "uint64": (7, np.uint64),
    "float16": (8, np.float16),
    "float32": (9, np.float32),
    "float64": (10, np.float64),
    "bool": (11, np.bool_),
    "bfloat16": (12, np.uint16),
    "complex64": (15, np.complex64),
    "complex128": (16, np.complex128),
}
NAMES = tuple(_TABLE)
FLOATING = ("float16", "bfloat16", "float32", "float64")
INTEGER = ("int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64")
COMPLEX = ("complex64", "complex128")
_BY_VALUE = {v[0]: k for k, v in _TABLE.items()}


def enum_value(name):
    return _TABLE[name][0]


def from_enum(value):
    return _BY_VALUE[value]


def storage(name):
    """numpy dtype holding the raw elements of a DIOPI dtype."""
    return np.dtype(_TABLE[name][1])


def itemsize(name):
    return storage(name).itemsize


def is_floating(name):
    return name in FLOATING


def bf16_to_f32(bits):
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16(values):
    """Round-to-nearest-even float32 -> bfloat16 bits (NaN kept quiet)."""
    x = np.asarray(values, dtype=np.float32)
    bits = x.view(np.uint32).astype(np.uint64)
    rounded = ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(x)
    if nan.any():
        rounded = np.where(nan, (bits >> 16).astype(np.uint16) | 0x0040, rounded)
    return rounded.astype(np.uint16)


def to_values(array, name):
    """Numeric view for comparison: bfloat16 bits become float32."""
    return bf16_to_f32(array) if name == "bfloat16" else np.asarray(array)


def from_values(values, name):
    """Cast numbers (any numpy array) to the storage of DIOPI dtype `name`."""
    if name == "bfloat16":
        return f32_to_bf16(np.asarray(values, dtype=np.float32))
    return np.asarray(values).astype(storage(name))
