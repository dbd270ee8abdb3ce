"""The ATen -> DIOPI mapping: one declarative file, read by everything that
needs to know which DIOPI function serves which ATen operator.

Two tools read it: the `diopi` device's code generator (it renders one
registered kernel per entry) and model capture (it turns the ATen calls of a
real model into DIOPI cases). Both go through this module, so they cannot
disagree about an entry.

An entry names one ATen overload, the DIOPI function that serves it, how
each DIOPI parameter is computed from the ATen arguments, and when the entry
applies::

    - aten: convolution_backward
      diopi: diopiConvolution2dBackward
      args: {grad_input: "result[0] if output_mask[0] else None", ...}
      when: "not transposed and input.dim() == 4"

Argument expressions and conditions are small Python expressions over the
ATen argument names and `result` (the operator's return value, `result[i]`
for tuples); they are parsed with `ast` and only a small subset is admitted
(names, constants, indexing, comparisons, `and`/`or`/`not`, `x if c else y`,
`len()`, `is_number()`, `.dim()`, `.numel()`, `.is_contiguous()`, `.unsqueeze(d)`, `.dtype`,
and `+` of a literal list and an integer list: `[1] + stride`). Parameters not
listed in `args` are mapped implicitly: by the same name, `input` from
`self`, and `out` from `result`.

`init: {"result[3]": running_mean}` serves a functional operator by a DIOPI
function that updates a tensor in place: the named result starts as a copy of
the argument, and the call updates it.

Items of the form `- decompose: slice_backward` are not entries: they name the
ATen overloads a compiled graph (torch.compile(backend="diopi")) breaks into
parts through PyTorch's own decompositions (or the compile route's, graph/decompose.py,
where PyTorch has none) before lowering; the eager device
does not read them (ATen decomposes such operators itself).

Everything here is plain Python plus PyYAML and the header model; the ATen
schemas come from a lookup the caller passes in (torch is not imported).
"""
from __future__ import annotations

import ast
import dataclasses
import keyword
import os
import re
from typing import Callable, Mapping

import yaml

from . import schemas
from .schemas import AtenArg, AtenSchema  # noqa: F401  (the mapping's terms, used by its readers)

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_PATH = os.path.join(HERE, "aten_to_diopi.yaml")

# DIOPI dtype names usable in conditions (`self.dtype in (float16, bfloat16)`).
DTYPE_NAMES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
               "complex64", "complex128")
# Tensor methods an expression may call, with their argument counts. unsqueeze
# serves an N-d operator by the (N+1)-d DIOPI function on a view (conv1d by
# diopiConvolution2d); the view shares storage, so writing it writes the result.
METHODS = {"dim": 0, "numel": 0, "is_contiguous": 0, "unsqueeze": 1}
ATTRIBUTES = ("dtype", "device")
# is_number(x): the argument is a Python number (not complex) where the schema takes a tensor, as in `x * 0.5`.
# ATen passes it as a host 0-dim "wrapped number" that promotes as a number; Python (capture, FX graphs) sees the
# number itself. An entry with it serves the call by the DIOPI function taking a scalar, not a device copy of it.
FUNCTIONS = {"len": 1, "is_number": 1}
RESULT = "result"
_ENTRY_KEYS = {"aten", "diopi", "args", "when", "note", "init"}
_DECOMPOSE_KEYS = {"decompose", "note"}


class MappingError(Exception):
    """A bad entry: the message starts with `file:line:`."""


@dataclasses.dataclass(frozen=True)
class Entry:
    aten: str                 # ATen overload name, "add.Tensor"
    diopi: str                # DIOPI function name
    args: tuple               # ((diopi param, expression text, implicit?), ...) in DIOPI parameter order
    when: tuple               # condition texts; all must hold
    file: str
    line: int
    note: str = ""
    init: tuple = ()          # ((result expression, argument expression), ...): copies made before the call

    @property
    def where(self):
        return f"{self.file}:{self.line}"

    @property
    def op_name(self):
        """Base ATen name without the overload: "add"."""
        return self.aten.split(".")[0]

    @property
    def overload(self):
        return self.aten.split(".", 1)[1] if "." in self.aten else ""

    @property
    def uses_result(self):
        return any(_names(e) & {RESULT} for _, e, _ in self.args)

    def expression(self, param):
        for p, e, _ in self.args:
            if p == param:
                return e
        raise KeyError(param)

    def applies(self, env):
        """Whether every `when` condition holds for the ATen arguments in `env`."""
        return all(evaluate(c, env) for c in self.when)

    def bind(self, env):
        """DIOPI parameter -> value, evaluated on ATen argument values (and
        `result`) in `env`. Used by capture; the device renders C++ instead."""
        return {p: evaluate(e, env) for p, e, _ in self.args}

    def bind_init(self, env):
        """[(result value, argument value)] to copy before the call (`init:`)."""
        return [(evaluate(t, env), evaluate(s, env)) for t, s in self.init]


@dataclasses.dataclass(frozen=True)
class Decomposition:
    """`- decompose: name.overload`: a compiled graph breaks this operator into parts."""
    aten: str
    file: str
    line: int
    note: str = ""

    @property
    def where(self):
        return f"{self.file}:{self.line}"


@dataclasses.dataclass(frozen=True)
class AtenMapping:
    entries: tuple
    path: str
    decompositions: tuple = ()   # Decomposition, in file order

    def for_op(self, aten):
        """Entries for one ATen overload, in file order (the first that applies wins)."""
        return [e for e in self.entries if e.aten == aten]

    @property
    def aten_ops(self):
        seen = []
        for e in self.entries:
            if e.aten not in seen:
                seen.append(e.aten)
        return seen

    def select(self, aten, env):
        for e in self.for_op(aten):
            if e.applies(env):
                return e
        return None


# ----------------------------------------------------------------------------
# Expressions


def parse_expression(text, where="<expr>"):
    """Parse and check one argument expression or condition."""
    if isinstance(text, bool):
        text = "True" if text else "False"
    elif text is None:
        text = "None"
    elif isinstance(text, (int, float)):
        text = repr(text)
    if not isinstance(text, str):
        raise MappingError(f"{where}: expected an expression, got {type(text).__name__} {text!r}")
    # ATen and DIOPI parameters named after a Python keyword (random_'s `from`)
    # are written as such in the mapping and read as `from_` by the parser.
    text = _KEYWORD.sub(lambda m: m.group(0) + "_", text)
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as e:
        raise MappingError(f"{where}: cannot parse {text!r}: {e.msg}") from None
    _check(tree.body, text, where)
    return tree.body


_KEYWORD = re.compile(r"\b(?:" + "|".join(k for k in keyword.kwlist if k not in ("True", "False", "None", "and", "or",
                                                                              "not", "if", "else", "in", "is")) + r")\b")


def unescape(name):
    """The argument name behind an escaped keyword (`from_` -> `from`)."""
    return name[:-1] if name.endswith("_") and keyword.iskeyword(name[:-1]) else name


def _check(node, text, where):
    ok = (ast.Name, ast.Constant, ast.Subscript, ast.Compare, ast.BoolOp, ast.UnaryOp, ast.IfExp, ast.Tuple,
          ast.List, ast.Call, ast.Attribute, ast.BinOp, ast.Load, ast.And, ast.Or, ast.Not, ast.USub, ast.Eq,
          ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn, ast.Is, ast.IsNot, ast.Add, ast.Sub,
          ast.Mult)
    for sub in ast.walk(node):
        if not isinstance(sub, ok):
            raise MappingError(f"{where}: {type(sub).__name__} is not allowed in mapping expressions ({text!r})")
        if isinstance(sub, ast.Call):
            f = sub.func
            if isinstance(f, ast.Name):
                if f.id not in FUNCTIONS or len(sub.args) != FUNCTIONS[f.id]:
                    raise MappingError(f"{where}: unknown function {f.id}() in {text!r}; allowed: "
                                       f"{', '.join(FUNCTIONS)}")
            elif isinstance(f, ast.Attribute):
                if f.attr not in METHODS or len(sub.args) != METHODS[f.attr]:
                    raise MappingError(f"{where}: unknown method .{f.attr}() in {text!r}; allowed: "
                                       f"{', '.join(METHODS)}")
            else:
                raise MappingError(f"{where}: only {', '.join(f + '()' for f in FUNCTIONS)} and tensor methods may be called ({text!r})")
            if sub.keywords:
                raise MappingError(f"{where}: keyword arguments are not allowed ({text!r})")
        if isinstance(sub, ast.Attribute) and sub.attr not in METHODS and sub.attr not in ATTRIBUTES:
            raise MappingError(f"{where}: unknown attribute .{sub.attr} in {text!r}")
        if isinstance(sub, ast.Subscript) and not _is_index(sub.slice):
            raise MappingError(f"{where}: only constant integer indices are allowed ({text!r})")


def _is_index(node):
    if isinstance(node, ast.Constant):
        return isinstance(node.value, int)
    return isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and _is_index(node.operand)


def _names(text):
    tree = parse_expression(text)
    out = set()
    for sub in ast.walk(tree):
        if isinstance(sub, ast.Name) and sub.id not in FUNCTIONS and sub.id not in DTYPE_NAMES:
            out.add(unescape(sub.id))
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name):
            pass
    return out


def names_in(text):
    """ATen argument names (and `result`) an expression reads."""
    return _names(text)


def evaluate(text, env: Mapping):
    """Evaluate an expression on Python values: tensors (anything with
    .dim()/.dtype), lists, numbers, None. Dtype names evaluate to themselves
    and compare with a tensor's `.dtype` by name."""
    return _eval(parse_expression(text), env)


def _dtype_name(value):
    s = str(value)
    return s[len("torch."):] if s.startswith("torch.") else s


def _eval(node, env):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        if unescape(node.id) in env:
            v = env[unescape(node.id)]
            return _dtype_name(v) if type(v).__name__ == "dtype" else v  # torch.bfloat16 -> "bfloat16"
        if node.id in DTYPE_NAMES:
            return node.id
        if node.id in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[node.id]
        raise KeyError(node.id)
    if isinstance(node, ast.Subscript):
        idx = _eval(node.slice, env)
        return _eval(node.value, env)[idx]
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, env)
        return (not v) if isinstance(node.op, ast.Not) else -v
    if isinstance(node, ast.BoolOp):
        if isinstance(node.op, ast.And):
            return all(_eval(v, env) for v in node.values)
        return any(_eval(v, env) for v in node.values)
    if isinstance(node, ast.IfExp):
        return _eval(node.body, env) if _eval(node.test, env) else _eval(node.orelse, env)
    if isinstance(node, (ast.Tuple, ast.List)):
        return [_eval(e, env) for e in node.elts]
    if isinstance(node, ast.BinOp):
        a, b = _eval(node.left, env), _eval(node.right, env)
        if isinstance(node.op, ast.Add) and isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return list(a) + list(b)
        return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b}[type(node.op)]()
    if isinstance(node, ast.Attribute):  # .dtype, .device: compared by name
        return _dtype_name(getattr(_eval(node.value, env), node.attr))
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name):
            v = _eval(node.args[0], env)
            return isinstance(v, (bool, int, float)) if node.func.id == "is_number" else len(v)
        obj = _eval(node.func.value, env)
        return getattr(obj, node.func.attr)(*[_eval(a, env) for a in node.args])
    if isinstance(node, ast.Compare):
        left = _eval(node.left, env)
        for op, right_node in zip(node.ops, node.comparators):
            right = _eval(right_node, env)
            if isinstance(op, (ast.In, ast.NotIn)):
                ok = left in right
                ok = ok if isinstance(op, ast.In) else not ok
            elif isinstance(op, ast.Is):
                ok = left is right
            elif isinstance(op, ast.IsNot):
                ok = left is not right
            else:
                ok = {ast.Eq: lambda: left == right, ast.NotEq: lambda: left != right, ast.Lt: lambda: left < right,
                      ast.LtE: lambda: left <= right, ast.Gt: lambda: left > right,
                      ast.GtE: lambda: left >= right}[type(op)]()
            if not ok:
                return False
            left = right
        return True
    raise TypeError(type(node).__name__)


# ----------------------------------------------------------------------------
# Loading and checking


def _implicit(param, schema: AtenSchema | None):
    if schema is None:
        return None
    if schema.arg(param):
        return param
    if param == "input" and schema.arg("self"):
        return "self"
    if param == "out" and len(schema.returns) == 1 and not schema.inplace and not schema.out_variant:
        return RESULT
    return None


def header_functions():
    """The header model (name -> Function) from the diopi_header package."""
    import diopi_header  # installed by scripts/setup.sh (pip install -e proto/python); imported when asked for

    return diopi_header.load()


def _node_line(node):
    return node.start_mark.line + 1


def load(path: str = DEFAULT_PATH, functions: Mapping | None = None,
         schema_of: Callable[[str], AtenSchema | None] | None = None) -> AtenMapping:
    """Read and check the mapping file.

    `functions` is the header model (name -> Function); when omitted it is
    loaded from `diopi_header`. `schema_of(name)` returns the AtenSchema of an
    overload or None when torch has no such overload; when omitted, ATen
    schemas are not checked (only the header side is).
    Raises MappingError("file:line: message") on the first bad entry.
    """
    if functions is None:
        functions = header_functions()
    if schema_of is None:
        try:
            import torch  # noqa: F401  (the schemas come from torch; without it only the header side is checked)
            schema_of = schemas.schema_of
        except ImportError:
            schema_of = None
    rel = os.path.relpath(path)
    with open(path) as f:
        text = f.read()
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise MappingError(f"{rel}:{line}: not valid YAML: {getattr(e, 'problem', e)}") from None
    if root is None:
        return AtenMapping((), path)
    if not isinstance(root, yaml.SequenceNode):
        raise MappingError(f"{rel}:{_node_line(root)}: the mapping is a list of entries (`- aten: ...`)")
    entries, decompositions = [], []
    for node in root.value:
        if isinstance(node, yaml.MappingNode) and any(k.value == "decompose" for k, _ in node.value):
            decompositions.append(_decomposition(node, rel, schema_of))
        else:
            entries.append(_entry(node, rel, functions, schema_of))
    mapped = {e.aten: e for e in entries}
    for d in decompositions:
        if d.aten in mapped:
            raise MappingError(f"{d.where}: {d.aten} has a mapping entry ({mapped[d.aten].where}); an operator is "
                               "either served by a DIOPI function or decomposed, not both")
    return AtenMapping(tuple(entries), path, tuple(decompositions))


def _decomposition(node, rel, schema_of):
    where = f"{rel}:{_node_line(node)}"
    raw = {}
    for k, v in node.value:
        if k.value not in _DECOMPOSE_KEYS:
            raise MappingError(f"{rel}:{_node_line(k)}: unknown key {k.value!r} in a decomposition; allowed: "
                               f"{', '.join(sorted(_DECOMPOSE_KEYS))}")
        raw[k.value] = v
    aten = _scalar(raw["decompose"], where, "decompose")
    if schema_of is not None and schema_of(aten) is None:
        raise MappingError(f"{where}: ATen has no operator overload {aten!r} to decompose")
    note = _scalar(raw["note"], where, "note") if "note" in raw else ""
    return Decomposition(aten, rel, _node_line(node), note)


def _scalar(node, where, what):
    if not isinstance(node, yaml.ScalarNode):
        raise MappingError(f"{where}: {what} must be a plain value")
    return yaml.safe_load(yaml.serialize(node)) if node.tag != "tag:yaml.org,2002:str" else node.value


def _entry(node, rel, functions, schema_of):
    line = _node_line(node)
    where = f"{rel}:{line}"
    if not isinstance(node, yaml.MappingNode):
        raise MappingError(f"{where}: an entry is a mapping with keys aten, diopi, args, when")
    raw = {}
    lines = {}
    for k, v in node.value:
        key = k.value
        if key not in _ENTRY_KEYS:
            raise MappingError(f"{rel}:{_node_line(k)}: unknown key {key!r}; allowed: {', '.join(sorted(_ENTRY_KEYS))}")
        raw[key] = v
        lines[key] = _node_line(k)
    for key in ("aten", "diopi"):
        if key not in raw:
            raise MappingError(f"{where}: entry without `{key}:`")
    aten = _scalar(raw["aten"], where, "aten")
    diopi = _scalar(raw["diopi"], where, "diopi")
    if diopi not in functions:
        close = _close(diopi, functions)
        raise MappingError(f"{rel}:{lines['diopi']}: {diopi} is not declared in the header"
                           + (f"; did you mean {close}?" if close else ""))
    fn = functions[diopi]
    schema = None
    if schema_of is not None:
        schema = schema_of(aten)
        if schema is None:
            raise MappingError(f"{rel}:{lines['aten']}: ATen has no operator overload {aten!r} "
                               "(write name.overload, e.g. add.Tensor; no overload suffix for the default)")
    given = {}
    for k, v, pwhere in _mapping_items(raw, "args", rel, lines, "DIOPI parameter -> expression"):
        pname = k.value
        try:
            fn.param(pname)
        except KeyError:
            raise MappingError(f"{pwhere}: {diopi} has no parameter {pname!r}; its parameters: "
                               + ", ".join(p.name for p in fn.params if p.kind != "context")) from None
        expr = _scalar(v, pwhere, f"args.{pname}")
        parse_expression(expr, pwhere)
        given[pname] = (str(expr) if not isinstance(expr, str) else expr, pwhere)
    args = []
    for p in fn.params:
        if p.kind == "context":
            continue
        if p.name in given:
            expr, pwhere = given[p.name]
            args.append((p.name, _normalise(expr), False))
            _check_names(expr, schema, pwhere, diopi, p.name)
            continue
        imp = _implicit(p.name, schema)
        if imp is None:
            raise MappingError(f"{where}: {diopi} parameter {p.name!r} ({p.ctype}) is not mapped; add "
                               f"`{p.name}: <expression>` under args (None passes NULL/empty)")
        args.append((p.name, imp, True))
    whens = []
    if "when" in raw:
        wnode = raw["when"]
        items = wnode.value if isinstance(wnode, yaml.SequenceNode) else [wnode]
        for w in items:
            wwhere = f"{rel}:{_node_line(w)}"
            cond = _scalar(w, wwhere, "when")
            parse_expression(cond, wwhere)
            _check_names(cond, schema, wwhere, diopi, "when")
            whens.append(_normalise(cond))
    note = _scalar(raw["note"], where, "note") if "note" in raw else ""
    inits = []
    for k, v, iwhere in _mapping_items(raw, "init", rel, lines, "result expression -> argument expression"):
        target, source = _scalar(k, iwhere, "init target"), _scalar(v, iwhere, "init source")
        parse_expression(target, iwhere)
        parse_expression(source, iwhere)
        if names_in(_normalise(target)) != {RESULT}:
            raise MappingError(f"{iwhere}: an init target is a result (`result[i]`), not {target!r}")
        _check_names(source, schema, iwhere, diopi, "init")
        inits.append((_normalise(target), _normalise(source)))
    return Entry(aten, diopi, tuple(args), tuple(whens), rel, line, note, tuple(inits))


def _mapping_items(raw, field, rel, lines, what):
    """(key node, value node, "file:line" of the key) of an entry's mapping-valued field; none when the field
    is absent. `lines` holds the line of each field, `what` says what maps to what."""
    if field not in raw:
        return []
    node = raw[field]
    if not isinstance(node, yaml.MappingNode):
        raise MappingError(f"{rel}:{lines[field]}: {field} is a mapping {what}")
    return [(k, v, f"{rel}:{_node_line(k)}") for k, v in node.value]


def _normalise(expr):
    if isinstance(expr, bool):
        return "True" if expr else "False"
    return str(expr)


def _check_names(expr, schema, where, diopi, param):
    if schema is None:
        return
    for n in names_in(_normalise(expr)):
        if n == RESULT:
            if not schema.returns:
                raise MappingError(f"{where}: {schema.name} returns nothing, so `result` is undefined")
            continue
        if schema.arg(n) is None:
            close = _close(n, {a.name: 0 for a in schema.args})
            raise MappingError(f"{where}: {param} of {diopi} reads {n!r}, which {schema.name} does not have"
                               + (f"; did you mean {close}?" if close else "")
                               + f" (arguments: {', '.join(a.name for a in schema.args)})")


def _close(name, names):
    import difflib
    m = difflib.get_close_matches(name, list(names), n=1)
    return m[0] if m else ""
