"""Parse the standard's C headers into an immutable model of its functions.

The headers are the single source of truth: parameter names, C types and
the role of every parameter (context, output tensor, scalar, ...) are read
from them. Only object-like macros and include guards appear around the
declarations, so a tiny line filter is enough to feed them to pycparser.
"""
import dataclasses
import functools
import re

from pycparser import c_ast, c_generator, c_parser

from . import paths

# Types pycparser has to know; cffi knows them natively.
_PRELUDE = """
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef unsigned long size_t; typedef _Bool bool;
"""
_DROP_TOKENS = re.compile(r"\b(DIOPI_API|DIOPI_RT_API|DIOPI_ATTR_WEAK)\b")


def preprocess(text):
    """Strip comments, preprocessor lines and conditional blocks (except
    include guards) and the export macros; what is left is plain C."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    out, depth_drop, stack = [], 0, []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            directive = s[1:].strip()
            if directive.startswith(("if", "ifdef", "ifndef")):
                guard = directive.startswith("ifndef") and directive.split()[-1].endswith("_H_")
                stack.append(not guard)
                if not guard:
                    depth_drop += 1
            elif directive.startswith("endif"):
                if stack and stack.pop():
                    depth_drop -= 1
            continue
        if depth_drop == 0:
            out.append(line)
    return _DROP_TOKENS.sub("", "\n".join(out))


@dataclasses.dataclass(frozen=True)
class Param:
    name: str
    ctype: str  # normalised C type, e.g. "const diopiScalar_t*"
    kind: str   # see _KINDS

    @property
    def is_output(self):
        return self.kind in ("tensor_out", "tensor_array_out", "bool_out", "double_out", "int_out")


@dataclasses.dataclass(frozen=True)
class Function:
    name: str
    header: str
    returns: str
    params: tuple
    family: str = ""  # from the header's "Family: <name>" section comments

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.name} has no parameter {name!r}")

    @property
    def outputs(self):
        return [p for p in self.params if p.is_output]


# C type -> the role a parameter plays for the harness.
_KINDS = {
    "diopiContextHandle_t": "context",
    "diopiTensorHandle_t": "tensor_out",          # output, or in-place when the case gives it a value
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
}
for _t in ("int64_t", "int32_t", "int", "const int64_t", "const int32_t"):
    _KINDS[_t] = "int"
for _t in ("double", "float", "const double", "const float"):
    _KINDS[_t] = "float"
for _t in ("bool", "const bool"):
    _KINDS[_t] = "bool"


def _type_string(decl_type):
    gen = c_generator.CGenerator()
    # Render "TYPE name" without the name, then normalise pointer spacing.
    s = gen.visit(c_ast.Typename(name=None, quals=[], align=None, type=decl_type))
    s = re.sub(r"\s*\*", "*", s).strip()
    return re.sub(r"\s+", " ", s)


def _strip_name(node):
    n = node
    while not isinstance(n, c_ast.TypeDecl):
        n = n.type
    n.declname = None


def parse_functions(text, header_name):
    ast = c_parser.CParser().parse(_PRELUDE + preprocess(text), filename=header_name)
    funcs = []
    for ext in ast.ext:
        if not (isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl)):
            continue
        fd = ext.type
        params = []
        for p in (fd.args.params if fd.args else []):
            if isinstance(p, c_ast.Typename) and _type_string(p.type) == "void":
                continue
            name = p.name or f"arg{len(params)}"
            _strip_name(p.type)
            ctype = _type_string(p.type)
            params.append(Param(name, ctype, _KINDS.get(ctype, "unknown")))
        _strip_name(fd.type)
        funcs.append(Function(ext.name, header_name, _type_string(fd.type), tuple(params)))
    return funcs


@functools.lru_cache(maxsize=None)
def load(headers=tuple(paths.HEADERS)):
    """All functions declared by the operator headers, keyed by name (runtime
    functions of diopirt.h excluded)."""
    result = {}
    import os
    for path in headers:
        name = os.path.basename(path)
        if name == "diopirt.h":
            continue
        with open(path) as f:
            text = f.read()
        families = _families(text)
        for fn in parse_functions(_runtime_text() + "\n" + text, name):
            if fn.header == name and fn.name not in _runtime_names():
                result[fn.name] = dataclasses.replace(fn, family=families.get(fn.name, ""))
    return result


def _families(text):
    """Function name -> family, from the section comments of a header."""
    out, family = {}, ""
    for line in text.splitlines():
        m = re.match(r"\s*\*\s*Family:\s*(\w+)", line)
        if m:
            family = m.group(1)
            continue
        m = re.match(r"\s*DIOPI_API\s+[\w\s\*]+?\b(diopi\w+)\s*\(", line)
        if m:
            out[m.group(1)] = family
    return out


def families():
    """Family -> function names, in header order."""
    out = {}
    for fn in load().values():
        out.setdefault(fn.family, []).append(fn.name)
    return out


@functools.lru_cache(maxsize=None)
def _runtime_text():
    with open(paths.HEADERS[0]) as f:
        return f.read()


@functools.lru_cache(maxsize=None)
def _runtime_names():
    return frozenset(f.name for f in parse_functions(_runtime_text(), "diopirt.h"))


def runtime_functions():
    return {f.name: f for f in parse_functions(_runtime_text(), "diopirt.h")}


def cdef_source(extra_headers=()):
    """C declarations for cffi: the standard's headers plus extras (testrt.h)."""
    parts = []
    for path in list(paths.HEADERS) + list(extra_headers):
        with open(path) as f:
            parts.append(preprocess(f.read()))
    return "\n".join(parts)


def snake(name):
    """diopiAddInpScalar -> add_inp_scalar (the names --fname matches)."""
    base = name[5:] if name.startswith("diopi") else name
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", base).lower()
