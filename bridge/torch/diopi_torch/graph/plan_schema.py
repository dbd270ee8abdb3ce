"""The plan format, defined once: the text a plan is handed to the runner in.

graph/plan.py writes plans with these codes; codegen/plan_schema.py turns
the same tables into the C++ header the runner (csrc/graph/runner.cpp)
parses with, generated into the build tree. Change a code here and both
sides follow; a code the runner does not handle fails its build.

The tables are plain literals (the generator reads them without importing
the package): every entry is (code, C++ name, payload, meaning). A payload
says which words follow the code:

    none    nothing
    int     one integer
    flag    0 or 1
    real    one float ("%a" hexadecimal, inf and nan included)
    hex     a string as hexadecimal bytes ("-" for the empty string)
    ints    a count, then that many integers
    reals   a count, then that many floats
    scalar  a scalar kind (SCALARS), then its value (real for floats, int otherwise)

A plan reads: MAGIC VERSION, then one line per section of SECTIONS in order
(refs and steps followed by their entries; each step has its arguments
(ARGS) after "step" and its eager re-run (EAGER) after "eager"), then "end".
"""

MAGIC = "diopi-plan"
VERSION = 1

# Keywords that open the parts of a plan, in the order they appear.
SECTIONS = ["inputs", "arena", "outbufs", "consts", "cells", "refs", "steps", "step", "eager", "outputs", "end"]

# Where a tensor reference points: (code, C++ name, payload, meaning); the payload is the index.
BASES = [
    ("i", "Input", "int", "a graph input; the byte offset counts from its first element"),
    ("a", "Arena", "int", "the arena every intermediate result shares (index 0)"),
    ("o", "Output", "int", "an output buffer, allocated per run"),
    ("c", "Const", "int", "a constant the plan holds"),
]

# One argument of a DIOPI call, after the context.
ARGS = [
    ("t", "Tensor", "int", "a tensor handle: a reference id"),
    ("n", "Null", "none", "NULL: an absent optional"),
    ("ta", "TensorArray", "ints", "an array of tensor handles (-1: NULL); empty is NULL"),
    ("sc", "Scalar", "scalar", "a diopiScalar_t"),
    ("z", "Size", "ints", "a diopiSize_t"),
    ("zp", "SizePtr", "ints", "a pointer to a diopiSize_t"),
    ("i", "Int", "int", "an integer or an enum"),
    ("d", "Double", "real", "a double or a float"),
    ("b", "Bool", "flag", "a bool"),
    ("s", "String", "hex", "a string"),
    ("g", "Generator", "none", "the current device's generator at each run"),
    ("ip", "IntPtr", "int", "a pointer to an int64_t"),
    ("dp", "DoublePtr", "real", "a pointer to a double"),
    ("bp", "BoolPtr", "flag", "a pointer to a bool"),
    ("cell", "Cell", "int", "an output the library allocates: a cell, reset before the call"),
    ("cellref", "CellRef", "int", "a handle the library allocated in an earlier step (its cell)"),
]

# The kind of a scalar argument ("sc").
SCALARS = [
    ("f", "Float", "real", "float64"),
    ("i", "Int", "int", "int64"),
    ("b", "Bool", "int", "bool"),
]

# One argument of the ATen operator a step re-runs on the eager device.
EAGER = [
    ("T", "Tensor", "int", "a tensor: a reference id"),
    ("N", "Absent", "none", "None"),
    ("I", "Int", "int", "an int"),
    ("D", "Double", "real", "a float"),
    ("B", "Bool", "flag", "a bool"),
    ("IL", "IntList", "ints", "an int list"),
    ("TL", "TensorList", "ints", "a tensor list: reference ids"),
    ("OTL", "OptTensorList", "ints", "a list of optional tensors: reference ids, -1 for None"),
    ("DL", "DoubleList", "reals", "a float list"),
    ("BL", "BoolList", "ints", "a bool list (0/1)"),
    ("DT", "Dtype", "int", "a dtype: its diopiDtype_t value"),
    ("DEV", "Device", "int", "a device: 1 the diopi device of the run, 0 the CPU"),
    ("LAY", "Layout", "int", "a layout: c10::Layout's value"),
    ("MF", "MemoryFormat", "int", "a memory format: c10::MemoryFormat's value"),
    ("S", "String", "hex", "a string"),
]


class Codes:
    """Codes of one table by C++ name: ARG.Tensor == "t"; payload(code) says what follows it."""

    def __init__(self, table):
        self._payload = {}
        for code, name, payload, _ in table:
            setattr(self, name, code)
            self._payload[code] = payload

    def payload(self, code):
        try:
            return self._payload[code]
        except KeyError:
            raise ValueError(f"{code!r} is not a code of the plan schema") from None


BASE = Codes(BASES)
ARG = Codes(ARGS)
SCALAR = Codes(SCALARS)
EAGER_ARG = Codes(EAGER)
