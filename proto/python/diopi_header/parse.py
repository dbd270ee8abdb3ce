"""Reads the standard's C headers into a `model.Standard`.

The declarations go through pycparser (the C parser cffi ships). Only
object-like macros and include guards appear around them, so a tiny line
filter is enough to turn a header into plain C. The doc blocks (Doxygen
comments) are read with regular expressions: a parameter's direction, its
"Dtypes: ..." list and whether it "may be NULL".
"""
import os
import re

from pycparser import c_ast, c_generator, c_parser

from . import model

RUNTIME_HEADER = "diopirt.h"

# Types pycparser has to know; cffi knows them natively.
PRELUDE = """
typedef signed char int8_t; typedef short int16_t; typedef int int32_t; typedef long int64_t;
typedef unsigned char uint8_t; typedef unsigned short uint16_t; typedef unsigned int uint32_t;
typedef unsigned long uint64_t; typedef unsigned long size_t; typedef _Bool bool;
"""
_PRELUDE_NAMES = frozenset(re.findall(r"(\w+);", PRELUDE))
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


def parse_c(text, filename="<header>"):
    """pycparser AST of a header's text (preprocessed, with the prelude)."""
    return c_parser.CParser().parse(PRELUDE + preprocess(text), filename=filename)


def type_string(decl_type):
    """Normalised C type of a declarator without its name: "const diopiScalar_t*"."""
    gen = c_generator.CGenerator()
    s = gen.visit(c_ast.Typename(name=None, quals=[], align=None, type=decl_type))
    s = re.sub(r"\s*\*", "*", s).strip()
    return re.sub(r"\s+", " ", s)


def strip_name(node):
    n = node
    while not isinstance(n, c_ast.TypeDecl):
        n = n.type
    n.declname = None


# ---------------------------------------------------------------- doc blocks
_DOC_BEFORE_DECL = re.compile(r"/\*\*(?P<doc>(?:(?!\*/).)*?)\*/\s*DIOPI(?:_RT)?_API\b[^;(]*?\b(?P<name>diopi\w+)\s*\(", re.S)
_PARAM = re.compile(r"@param(?:\[(?P<dir>[^\]]*)\])?\s+(?P<name>\w+)\s*(?P<text>.*)", re.S)
_DTYPES = re.compile(r"Dtypes:\s*(?P<list>[\w\s,*]+?)\s*(?:\.(?:\s|$)|;|$)")
# "may be NULL", "NULL means ...", "if not NULL", ...; not "NULL entries" of an array.
_OPTIONAL = re.compile(r"\bNULL\b(?!\s+entr)")
_NULL_ENTRY = re.compile(r"\ba NULL entry\b")
_DIRECTIONS = {"in": "in", "out": "out", "in,out": "inout", "in, out": "inout", "inout": "inout", "": ""}


class Doc:
    """A parsed doc block: brief, and per parameter (direction, text)."""

    def __init__(self, brief="", params=None):
        self.brief = brief
        self.params = params or {}


def _doc_lines(raw):
    lines = []
    for line in raw.splitlines():
        line = re.sub(r"^\s*\*?\s?", "", line).rstrip()
        lines.append(line)
    return lines


def parse_doc(raw):
    """Doc block text (between /** and */) -> Doc."""
    items, cur = [], None
    for line in _doc_lines(raw):
        s = line.strip()
        if s.startswith("@"):
            cur = [s]
            items.append(cur)
        elif cur is not None:
            if not s:
                cur = None if cur[0].startswith("@param") else cur
                continue
            cur.append(s)
    brief, params = "", {}
    for item in items:
        text = " ".join(item)
        if text.startswith("@brief"):
            brief = text[len("@brief"):].strip()
            continue
        m = _PARAM.match(text)
        if m:
            params[m.group("name")] = (_DIRECTIONS.get((m.group("dir") or "").replace(" ", ""), ""),
                                       m.group("text").strip())
    return Doc(brief, params)


def documented_dtypes(text):
    """("float32", "float16", ...) from a parameter's "Dtypes: ..." text."""
    m = _DTYPES.search(text)
    if not m:
        return ()
    out = []
    for d in m.group("list").split(","):
        d = re.sub(r"\s+", "", d.strip())
        d = d.lstrip("*")  # "* float16" in DIOPI 1.0's text: an artefact of a wrapped comment line
        if d and d not in out:
            out.append(d)
    return tuple(out)


def is_optional(text):
    return bool(_OPTIONAL.search(text)) and not _NULL_ENTRY.search(text)


def doc_blocks(text):
    """Function name -> Doc for every documented declaration of a header."""
    return {m.group("name"): parse_doc(m.group("doc")) for m in _DOC_BEFORE_DECL.finditer(text)}


def families(text):
    """Function name -> family, from the section comments ("Family: <name>") of a header."""
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


# ---------------------------------------------------------------- functions
def _role(kind, direction):
    if kind == "context":
        return model.CONTEXT
    if direction == "inout":
        return model.INOUT
    if direction == "out":
        return model.OUTPUT
    if direction == "in":
        return model.INPUT
    return model.OUTPUT if kind in model.OUTPUT_KINDS else model.INPUT


def functions_of(ast, header_name, docs=None, family_of=None):
    """Function declarations of an AST, attributed to `header_name`."""
    docs, family_of = docs or {}, family_of or {}
    funcs = []
    for ext in ast.ext:
        if not (isinstance(ext, c_ast.Decl) and isinstance(ext.type, c_ast.FuncDecl)):
            continue
        fd = ext.type
        doc = docs.get(ext.name, Doc())
        params = []
        for p in (fd.args.params if fd.args else []):
            if isinstance(p, c_ast.Typename) and type_string(p.type) == "void":
                continue
            name = p.name or f"arg{len(params)}"
            strip_name(p.type)
            ctype = type_string(p.type)
            kind = model.kind_of(ctype)
            direction, text = doc.params.get(name, ("", ""))
            params.append(model.Param(name, ctype, kind, _role(kind, direction), is_optional(text),
                                      documented_dtypes(text), text, direction))
        strip_name(fd.type)
        funcs.append(model.Function(ext.name, header_name, type_string(fd.type), tuple(params),
                                    family_of.get(ext.name, ""), doc.brief))
    return funcs


def parse_functions(text, header_name):
    """Functions declared in one header's text (the runtime header's types
    must be part of `text` or of the prelude)."""
    return functions_of(parse_c(text, header_name), header_name, doc_blocks(text), families(text))


# ---------------------------------------------------------------- runtime types
def _int_value(node):
    if isinstance(node, c_ast.Constant):
        return int(node.value.rstrip("uUlL"), 0)
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        return -_int_value(node.expr)
    raise ValueError(f"enumerator value is not an integer constant: {node}")


_ENUMERATOR_DOC = re.compile(r"^\s*(\w+)\s*(?:=\s*[^,/]+)?,?\s*/\*\*<\s*(.*?)\s*\*/", re.M)
_TYPEDEF_DOC = re.compile(r"/\*\*((?:(?!\*/).)*?)\*/\s*typedef\s+(?:enum|struct)\s*\{.*?\}\s*(\w+)\s*;", re.S)


def enums_of(ast, text, header=""):
    edocs = dict(_ENUMERATOR_DOC.findall(text))
    tdocs = {name: " ".join(s for s in _doc_lines(raw) if s) for raw, name in _TYPEDEF_DOC.findall(text)}
    out = {}
    for node in ast.ext:
        if isinstance(node, c_ast.Typedef) and isinstance(node.type.type, c_ast.Enum):
            values, nxt = [], 0
            for e in node.type.type.values.enumerators:
                nxt = _int_value(e.value) if e.value is not None else nxt
                values.append(model.Enumerator(e.name, nxt, edocs.get(e.name, "")))
                nxt += 1
            out[node.name] = model.Enum(node.name, tuple(values), tdocs.get(node.name, ""), header)
    return out


def _field(decl):
    if decl.name is None and isinstance(decl.type, (c_ast.Union, c_ast.Struct)):
        tag = "union" if isinstance(decl.type, c_ast.Union) else "struct"
        inner = " ".join(f"{f.ctype} {f.name};" for f in map(_field, decl.type.decls))
        return model.Field(f"{tag}{{{inner}}}", "(anonymous)")
    strip_name(decl.type)
    return model.Field(type_string(decl.type), decl.name)


def structs_of(ast, header=""):
    out = {}
    for node in ast.ext:
        if isinstance(node, c_ast.Typedef) and isinstance(node.type.type, c_ast.Struct) and node.type.type.decls:
            out[node.name] = model.Struct(node.name, tuple(_field(d) for d in node.type.type.decls), header)
    return out


def typedefs_of(ast):
    """Typedefs that are neither enums nor structs nor the prelude's: handle types."""
    out = {}
    for node in ast.ext:
        if not isinstance(node, c_ast.Typedef) or node.name in _PRELUDE_NAMES:
            continue
        t = node.type
        if isinstance(t, c_ast.TypeDecl) and isinstance(t.type, (c_ast.Enum, c_ast.Struct)) and \
                (isinstance(t.type, c_ast.Enum) or t.type.decls):
            continue
        strip_name(t)
        out[node.name] = type_string(t)
    return out


_MACRO = re.compile(r"^\s*#\s*define\s+(\w+)\s+(-?\d+)\s*$", re.M)


def macros_of(text):
    return {name: int(v) for name, v in _MACRO.findall(text)}


def version_of(macros, prefix="DIOPI"):
    """Version from <prefix>_VER_MAJOR/MINOR/PATCH and <prefix>_VERSION."""
    major, minor, patch = (macros.get(f"{prefix}_VER_{k}", 0) for k in ("MAJOR", "MINOR", "PATCH"))
    return model.Version(major, minor, patch, macros.get(f"{prefix}_VERSION", major * 1000 + minor * 100 + patch))


_INTERFACE_VERSION = re.compile(r"^(DIOPI_\w+)_VER_MAJOR$")


def header_version(macros):
    """The Version an interface header declares with its own DIOPI_<NAME>_VER_*
    macros (collective.h: DIOPI_COMM_VER_*), or None."""
    for name in macros:
        m = _INTERFACE_VERSION.match(name)
        if m and m.group(1) != "DIOPI":
            return version_of(macros, m.group(1))
    return None


# ---------------------------------------------------------------- the whole standard
def headers_in(include_dir):
    """The standard's headers in `include_dir` (see diopi_header.headers_in)."""
    from . import headers_in as listing
    return listing(include_dir)


def standard(headers):
    """model.Standard of a tuple of header paths; the one named diopirt.h
    declares the runtime (types and runtime functions)."""
    headers = tuple(headers)
    rt_path = next((h for h in headers if os.path.basename(h) == RUNTIME_HEADER), None)
    if rt_path is None:
        raise ValueError(f"no {RUNTIME_HEADER} among {headers}")
    with open(rt_path) as f:
        rt_text = f.read()
    rt_ast = parse_c(rt_text, RUNTIME_HEADER)
    runtime = {f.name: f for f in functions_of(rt_ast, RUNTIME_HEADER, doc_blocks(rt_text))}
    enums, structs, typedefs = enums_of(rt_ast, rt_text, RUNTIME_HEADER), structs_of(rt_ast, RUNTIME_HEADER), typedefs_of(rt_ast)
    macros = macros_of(rt_text)
    functions, header_versions = {}, {}
    for path in headers:
        name = os.path.basename(path)
        if path == rt_path:
            continue
        with open(path) as f:
            text = f.read()
        ast = parse_c(rt_text + "\n" + text, name)
        for fn in functions_of(ast, name, doc_blocks(text), families(text)):
            if fn.name not in runtime:
                functions[fn.name] = fn
        # Types a header adds beside the runtime's (collective.h: its handle, id struct and reduction enum).
        for table, found in ((enums, enums_of(ast, text, name)), (structs, structs_of(ast, name)), (typedefs, typedefs_of(ast))):
            for key, value in found.items():
                table.setdefault(key, value)
        own = macros_of(text)
        for key, value in own.items():
            macros.setdefault(key, value)
        v = header_version(own)
        if v is not None:
            header_versions[name] = v
    return model.Standard(headers=headers, functions=functions, runtime=runtime, enums=enums, structs=structs,
                          typedefs=typedefs, macros=macros, version=version_of(macros), header_versions=header_versions)


def cdef_source(headers, extra_headers=()):
    """C declarations for cffi: the standard's headers plus extras."""
    parts = []
    for path in list(headers) + list(extra_headers):
        with open(path) as f:
            parts.append(preprocess(f.read()))
    return "\n".join(parts)
