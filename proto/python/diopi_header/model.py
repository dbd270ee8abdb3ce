"""The immutable records of the header model.

Nothing here parses; `diopi_header.parse` builds these from the headers.
"""
import dataclasses
import re

# Parameter roles, from the doc block's direction ("@param[in]", "[out]",
# "[in,out]") or, for an undocumented parameter, from its C type.
CONTEXT = "context"  # the diopiContextHandle_t every operator takes first
INPUT = "input"      # read only
OUTPUT = "output"    # written by the call (a non-const handle: the caller may also pass an input to run in place)
INOUT = "inout"      # read, then written in place ("@param[in,out]")
ROLES = (CONTEXT, INPUT, OUTPUT, INOUT)

# Parameter kinds: the role a C type plays when a caller builds the argument.
OUTPUT_KINDS = frozenset({"tensor_out", "tensor_array_out", "bool_out", "double_out", "int_out",
                          "comm_out", "unique_id_out", "string_out"})
KINDS = {
    "diopiContextHandle_t": "context",
    "diopiTensorHandle_t": "tensor_out",          # output, or in-place when the caller gives it a value
    "diopiConstTensorHandle_t": "tensor_in",
    "const diopiConstTensorHandle_t": "tensor_in",
    "diopiConstTensorHandle_t*": "tensor_array_in",
    "diopiTensorHandle_t*": "tensor_array_out",   # caller array of outputs, or one callee-allocated output
    "const diopiScalar_t*": "scalar",
    "diopiScalar_t*": "scalar",
    "diopiSize_t": "size",
    "const diopiSize_t": "size",
    "diopiSize_t*": "size_ptr",
    "const int64_t*": "int_ptr",
    "const bool*": "bool_ptr",
    "const double*": "double_ptr",
    "bool*": "bool_out",
    "double*": "double_out",
    "int64_t*": "int_out",
    "diopiGeneratorHandle_t": "generator",
    "diopiRoundMode_t": "enum_round",
    "diopiReduction_t": "enum_reduction",
    "diopiMemoryFormat_t": "enum_memory_format",
    "diopiDtype_t": "enum_dtype",
    "const char*": "string",
    "void*": "pointer",
    # collective.h
    "diopiCommHandle_t": "comm",
    "diopiCommHandle_t*": "comm_out",                 # receives a new communicator
    "const diopiCommUniqueId_t*": "unique_id",
    "diopiCommUniqueId_t*": "unique_id_out",
    "diopiReduceOp_t": "enum_reduce_op",
    "const char**": "string_out",                    # receives a string the callee owns
}
for _t in ("int64_t", "int32_t", "int", "const int64_t", "const int32_t"):
    KINDS[_t] = "int"
for _t in ("double", "float", "const double", "const float"):
    KINDS[_t] = "float"
for _t in ("bool", "const bool"):
    KINDS[_t] = "bool"
del _t


def kind_of(ctype):
    return KINDS.get(ctype, "unknown")


@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    ctype: str             # normalised C type, e.g. "const diopiScalar_t*"
    kind: str              # see KINDS ("unknown" for a type no caller knows how to build)
    role: str = ""         # one of ROLES
    optional: bool = False  # the doc says the argument may be NULL
    dtypes: tuple = ()     # documented dtypes ("Dtypes: ..."), in doc order
    doc: str = ""          # the parameter's doc text, on one line
    direction: str = ""    # as documented: "in", "out", "inout", or "" when undocumented

    @property
    def is_output(self):
        return self.kind in OUTPUT_KINDS


@dataclasses.dataclass(frozen=True)
class Function:
    name: str
    header: str            # file name, e.g. "functions.h"
    returns: str
    params: tuple          # Param, in declaration order
    family: str = ""       # from the header's "Family: <name>" section comments
    brief: str = ""        # the doc block's @brief, on one line

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.name} has no parameter {name!r}")

    @property
    def outputs(self):
        return [p for p in self.params if p.is_output]

    @property
    def inputs(self):
        return [p for p in self.params if p.role in (INPUT, INOUT)]

    @property
    def signature(self):
        """Types only, as a linker sees it: "diopiError_t(diopiContextHandle_t, ...)"."""
        return f"{self.returns}({', '.join(p.ctype for p in self.params)})"


@dataclasses.dataclass(frozen=True)
class Enumerator:
    name: str
    value: int
    doc: str = ""


@dataclasses.dataclass(frozen=True)
class Enum:
    name: str              # the typedef, e.g. "diopiDtype_t"
    enumerators: tuple     # Enumerator, in declaration order
    doc: str = ""
    header: str = ""       # file name of the header declaring it, e.g. "diopirt.h"

    def as_dict(self):
        """enumerator name -> value."""
        return {e.name: e.value for e in self.enumerators}

    def value_of(self, enumerator):
        for e in self.enumerators:
            if e.name == enumerator:
                return e.value
        raise KeyError(f"{self.name} has no enumerator {enumerator!r}")

    def enumerator_of(self, value):
        for e in self.enumerators:
            if e.value == value:
                return e.name
        raise KeyError(f"{self.name} has no enumerator with value {value}")


@dataclasses.dataclass(frozen=True)
class Field:
    ctype: str
    name: str


@dataclasses.dataclass(frozen=True)
class Struct:
    name: str
    fields: tuple          # Field; an anonymous union is one Field named "(anonymous)"
    header: str = ""       # file name of the header declaring it


@dataclasses.dataclass(frozen=True)
class Version:
    major: int
    minor: int
    patch: int
    number: int            # DIOPI_VERSION: MAJOR*1000 + MINOR*100 + PATCH

    def __str__(self):
        return f"{self.major}.{self.minor}.{self.patch}"


@dataclasses.dataclass(frozen=True)
class Standard:
    """Everything the headers of one include directory declare."""
    headers: tuple         # paths, the runtime header (diopirt.h) first
    functions: dict        # name -> Function (operators; runtime functions excluded), header order
    runtime: dict          # name -> Function (diopirt.h's runtime functions)
    enums: dict            # typedef name -> Enum (of every header; Enum.header says which)
    structs: dict          # typedef name -> Struct (of every header)
    typedefs: dict         # other typedefs of every header: name -> C type (handles, index types)
    macros: dict           # object-like integer macros of every header: name -> int
    version: Version       # the standard's: diopirt.h's DIOPI_VER_* macros
    # Interfaces versioned apart from the operators: header file name ->
    # Version from its own DIOPI_<NAME>_VER_* macros (collective.h: DIOPI_COMM_VER_*).
    header_versions: dict = dataclasses.field(default_factory=dict)

    def families(self):
        """Family -> function names, in header order."""
        out = {}
        for fn in self.functions.values():
            out.setdefault(fn.family, []).append(fn.name)
        return out


def snake(name):
    """diopiAddInpScalar -> add_inp_scalar (the names --fname matches)."""
    base = name[5:] if name.startswith("diopi") else name
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", base).lower()
