"""Stage 1b: read a vendor's convert_config.yaml into an immutable model.

Every problem is reported as "<file>:<line>: <problem>" (ConfigError), with
the line taken from the YAML node that holds the bad entry.
"""
import dataclasses
import functools
import re

import diopi_header
import yaml


@functools.lru_cache(maxsize=None)
def dtypes():
    """dtype names a rule may use -> the C enumerator, read from diopiDtype_t
    ({"float32": "diopi_dtype_float32", ...})."""
    return {name: diopi_header.DTYPE_PREFIX + name for name in diopi_header.dtypes()}

# layout spelling in the config -> the runtime's Layout enumerator.
LAYOUTS = {"ND": "ND", "NCHW": "NCHW", "NCDHW": "NCDHW", "CONTIGUOUS": "Contiguous", "NHWC": "NHWC", "NDHWC": "NDHWC"}

FUNCTION_KEYS = ("dtype", "layout", "tensor_dtype")
COMMON_KEYS = ("dtype", "layout")
COMMON = "common_config"
TENSOR_KINDS = ("tensor_in", "tensor_out", "tensor_array_in", "tensor_array_out")


class ConfigError(Exception):
    """A malformed config; str() is "<file>:<line>: <problem>"."""


@dataclasses.dataclass(frozen=True)
class Rules:
    """Dtype rules ((from, to), ...) in config order; empty = convert nothing."""
    pairs: tuple = ()

    def __bool__(self):
        return bool(self.pairs)


@dataclasses.dataclass(frozen=True)
class FunctionConfig:
    name: str
    line: int
    dtype: object = None          # Rules, or None to inherit common_config's
    layout: object = None         # layout name, or None to inherit
    tensor_dtype: tuple = ()      # ((param, Rules), ...)


@dataclasses.dataclass(frozen=True)
class Config:
    path: str
    dtype: Rules = Rules()
    layout: str = "ND"
    functions: tuple = ()         # FunctionConfig, in file order

    def function(self, name):
        for f in self.functions:
            if f.name == name:
                return f
        return None

    def resolve(self, fn_name, param_name):
        """(Rules, layout) that apply to one tensor parameter."""
        fc = self.function(fn_name)
        rules, layout = self.dtype, self.layout
        if fc is not None:
            if fc.dtype is not None:
                rules = fc.dtype
            if fc.layout is not None:
                layout = fc.layout
            for pname, prules in fc.tensor_dtype:
                if pname == param_name:
                    rules = prules
        return rules, layout


_ITEM = re.compile(r"\s*\(([^()]*)\)\s*->\s*([A-Za-z0-9_]*)\s*")


def parse_rules(text):
    """'(int64)->int32, (float64, float16)->float32' -> Rules. Raises
    ValueError with a hint when the text is not a rule list."""
    if text is None or text.strip().lower() in ("", "none"):
        return Rules()
    pairs, pos, seen = [], 0, {}
    while True:
        m = _ITEM.match(text, pos)
        if not m:
            raise ValueError(f"bad dtype rule syntax at {text[pos:]!r} in {text!r}; "
                             "expected rules like '(int64)->int32, (float64)->float32'")
        froms = [s.strip() for s in m.group(1).split(",")]
        to = m.group(2)
        for name in froms + [to]:
            if not name:
                raise ValueError(f"empty dtype name in {m.group(0).strip()!r}")
            if name not in dtypes():
                raise ValueError(f"unknown dtype {name!r} (known: {', '.join(dtypes())})")
        for f in froms:
            if f in seen:
                raise ValueError(f"dtype {f!r} has two rules ({f}->{seen[f]} and {f}->{to})")
            seen[f] = to
            pairs.append((f, to))
        pos = m.end()
        if pos == len(text):
            return Rules(tuple(pairs))
        if text[pos] != ",":
            raise ValueError(f"bad dtype rule syntax at {text[pos:]!r}: rules are separated by commas")
        pos += 1


def _scalar_text(node, where):
    if not isinstance(node, yaml.ScalarNode):
        raise where(node, "expected a string, got a " + ("mapping" if isinstance(node, yaml.MappingNode) else "list"))
    if node.tag == "tag:yaml.org,2002:null":
        return None
    return node.value


def _mapping(node, where, what):
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null":
        return []
    if not isinstance(node, yaml.MappingNode):
        raise where(node, f"{what} must be a mapping of keys to values")
    seen = {}
    for k, _ in node.value:
        if not isinstance(k, yaml.ScalarNode):
            raise where(k, f"keys of {what} must be names")
        if k.value in seen:
            raise where(k, f"{k.value!r} appears twice in {what} (first at line {seen[k.value]})")
        seen[k.value] = k.start_mark.line + 1
    return node.value


def load(path, functions, text=None):
    """Parses and checks a config against the header model `functions`
    ({name: diopi_header.Function}). Returns Config or raises ConfigError."""
    if text is None:
        with open(path) as f:
            text = f.read()

    def where(node, problem):
        return ConfigError(f"{path}:{node.start_mark.line + 1}: {problem}")

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 1
        raise ConfigError(f"{path}:{line}: YAML syntax error: {e.problem or e.context}") from None
    if root is None:
        return Config(path)

    def rules_of(node):
        try:
            return parse_rules(_scalar_text(node, where))
        except ValueError as e:
            raise where(node, str(e)) from None

    def layout_of(node):
        v = _scalar_text(node, where)
        key = (v or "").strip().upper()
        if key not in LAYOUTS:
            raise where(node, f"unknown layout {v!r} (known: ND, NCHW, NCDHW, contiguous, NHWC, NDHWC)")
        return LAYOUTS[key]

    common_rules, common_layout, funcs = Rules(), "ND", []
    for knode, vnode in _mapping(root, where, "the config"):
        key = knode.value
        if key == COMMON:
            for k, v in _mapping(vnode, where, COMMON):
                if k.value == "dtype":
                    common_rules = rules_of(v)
                elif k.value == "layout":
                    common_layout = layout_of(v)
                else:
                    raise where(k, f"unknown key {k.value!r} in {COMMON} (known: {', '.join(COMMON_KEYS)})")
            continue
        fn = functions.get(key)
        if fn is None:
            close = [n for n in functions if n.lower() == key.lower() or n.lower() == ("diopi" + key).lower()]
            hint = f"; did you mean {close[0]}?" if close else "; top-level keys are common_config or diopiXxx function names"
            raise where(knode, f"unknown function {key!r}{hint}")
        dtype = layout = None
        tensor_dtype = []
        for k, v in _mapping(vnode, where, key):
            if k.value == "dtype":
                dtype = rules_of(v)
            elif k.value == "layout":
                layout = layout_of(v)
            elif k.value == "tensor_dtype":
                for pk, pv in _mapping(v, where, f"{key}.tensor_dtype"):
                    params = {p.name: p for p in fn.params}
                    p = params.get(pk.value)
                    tensors = [p.name for p in fn.params if p.kind in TENSOR_KINDS]
                    if p is None:
                        raise where(pk, f"{key} has no parameter {pk.value!r} (its tensors: {', '.join(tensors) or 'none'})")
                    if p.kind not in TENSOR_KINDS:
                        raise where(pk, f"parameter {pk.value!r} of {key} is not a tensor ({p.ctype}); "
                                        f"its tensors: {', '.join(tensors) or 'none'}")
                    tensor_dtype.append((pk.value, rules_of(pv)))
            else:
                raise where(k, f"unknown key {k.value!r} for {key} (known: {', '.join(FUNCTION_KEYS)})")
        funcs.append(FunctionConfig(key, knode.start_mark.line + 1, dtype, layout, tuple(tensor_dtype)))
    return Config(path, common_rules, common_layout, tuple(funcs))
