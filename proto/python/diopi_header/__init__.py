"""The one parsed model of the DIOPI standard's headers (proto/include/diopi).

Every tool of the project (conformance harness, adaptor codegen, the
PyTorch device's codegen, coverage, the ABI checks) reads the headers
through this package, so none of them keeps its own list of signatures,
enum values or dtypes.

    import diopi_header
    fn = diopi_header.load()["diopiAdd"]          # name -> Function
    fn.param("alpha").kind, fn.param("out").role   # "scalar", "output"
    diopi_header.dtypes()["float32"]               # 9, from diopiDtype_t
    diopi_header.enums()["diopiError_t"].value_of("diopiNoImplement")
    diopi_header.version()                         # Version(1, 0, 0, 1000)

Parsing happens on first use and is cached; importing does no work. The
headers are found in `INCLUDE_DIR`: the repository's proto/include, next to
this package, or the copy an installed wheel carries in diopi_header/include;
the environment variable DIOPI_INCLUDE_DIR overrides both.

Command line: `python -m diopi_header abi-diff OLD_DIR NEW_DIR` and
`python -m diopi_header check-v1 FACTS.json`.
"""
import functools
import os

from .model import (CONTEXT, INOUT, INPUT, KINDS, OUTPUT, OUTPUT_KINDS, ROLES, Enum, Enumerator, Field, Function,  # noqa: F401
                    Param, Standard, Struct, Version, snake)

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
# An installed wheel carries the headers as package data (include/ beside this
# file); in the source tree they are the repository's proto/include.
_PACKAGED_INCLUDE = os.path.join(PACKAGE_DIR, "include")
INCLUDE_DIR = os.environ.get("DIOPI_INCLUDE_DIR") or (
    _PACKAGED_INCLUDE if os.path.isdir(os.path.join(_PACKAGED_INCLUDE, "diopi"))
    else os.path.normpath(os.path.join(PACKAGE_DIR, "..", "..", "include")))

def headers_in(include_dir):
    """The standard's headers in `include_dir` (or in its diopi/ folder):
    diopirt.h first, then the operators (functions.h, functions_ext.h), then
    the other headers by name. (Listing only: importing this package must
    not load the parser.)"""
    d = os.path.join(include_dir, "diopi") if os.path.isdir(os.path.join(include_dir, "diopi")) else include_dir
    names = sorted(n for n in os.listdir(d) if n.endswith(".h"))
    if "diopirt.h" not in names:
        raise FileNotFoundError(f"{d}: no diopirt.h")
    order = ["diopirt.h"] + [n for n in ("functions.h", "functions_ext.h") if n in names]
    order += [n for n in names if n not in order]
    return tuple(os.path.join(d, n) for n in order)


# Every header of the standard (diopirt.h first, the operator headers, then the
# others by name): a new header is part of the model, the bindings and the reference as
# soon as it is in proto/include/diopi.
HEADERS = headers_in(INCLUDE_DIR)
HEADER_NAMES = tuple(os.path.basename(h) for h in HEADERS)
RUNTIME_HEADER = HEADERS[0]
# The DIOPI 1.0 interface facts (names, parameter types, enum values, ...) the headers must keep:
# package data of a wheel (interface/ beside this file), the repository's proto/interface in the tree.
_PACKAGED_V1 = os.path.join(PACKAGE_DIR, "interface", "diopi_v1_interface.json")
V1_INTERFACE = _PACKAGED_V1 if os.path.isfile(_PACKAGED_V1) else os.path.normpath(
    os.path.join(PACKAGE_DIR, "..", "..", "interface", "diopi_v1_interface.json"))

# Prefix of diopiDtype_t's enumerators; dtypes() strips it.
DTYPE_PREFIX = "diopi_dtype_"
_NOT_A_DTYPE = ("unsupported",)


@functools.lru_cache(maxsize=None)
def standard(headers=HEADERS):
    """The whole model (model.Standard) of a tuple of header paths."""
    from . import parse
    return parse.standard(headers)


@functools.lru_cache(maxsize=None)
def standard_in(include_dir):
    """The model of the headers found in another include directory (abi-diff)."""
    from . import parse
    return standard(parse.headers_in(include_dir))


def load(headers=HEADERS):
    """All functions a library exports (operators, and the collectives of
    collective.h), keyed by name, in header order (runtime functions of
    diopirt.h excluded). The dict is shared: do not modify it."""
    return standard(tuple(headers)).functions


def families():
    """Family -> function names, in header order."""
    return standard().families()


def runtime_functions():
    """The runtime functions of diopirt.h (those the caller provides), by name."""
    return dict(standard().runtime)


def enums():
    """Enum typedef name -> Enum (diopiDtype_t, diopiError_t, ..., diopiReduceOp_t); Enum.header says where."""
    return dict(standard().enums)


def enum(name):
    return standard().enums[name]


def structs():
    return dict(standard().structs)


def version():
    """Version(major, minor, patch, number) from diopirt.h's version macros."""
    return standard().version


def macros():
    """Object-like integer macros of the headers (version macros, sizes)."""
    return dict(standard().macros)


def header_versions():
    """Interfaces versioned apart from the operators: header file name ->
    Version ({"collective.h": Version(1, 0, 0, 1000)})."""
    return dict(standard().header_versions)


def dtypes():
    """Dtype name -> diopiDtype_t value, e.g. {"int8": 0, ..., "complex128": 16}
    (names are the enumerators without "diopi_dtype_"; the "unsupported"
    marker is not a dtype)."""
    out = {}
    for e in standard().enums["diopiDtype_t"].enumerators:
        short = e.name[len(DTYPE_PREFIX):] if e.name.startswith(DTYPE_PREFIX) else e.name
        if short not in _NOT_A_DTYPE:
            out[short] = e.value
    return out


def error_codes():
    """diopiError_t enumerator name -> value."""
    return standard().enums["diopiError_t"].as_dict()


def cdef_source(extra_headers=()):
    """C declarations for cffi: the standard's headers plus extras (testrt.h)."""
    from . import parse
    return parse.cdef_source(HEADERS, extra_headers)
