"""Expand config `Op`s into named, seeded cases."""
import dataclasses
import difflib
import fnmatch
import importlib
import os
import pkgutil
import re
import zlib

import diopi_header

from . import paths, spec



@dataclasses.dataclass(frozen=True)
class Case:
    name: str      # unique and readable: add::float32::2x3_2x3::alpha=0.5
    op: spec.Op
    family: str
    dtype: str
    shapes: dict   # tensor param -> shape (tuple) or list of shapes
    params: dict   # non-tensor param -> value
    seed: int

    @property
    def func(self):
        return self.op.func


def _shape_tag(shape):
    if isinstance(shape, list):
        return "[" + ",".join(_shape_tag(s) for s in shape) + "]"
    return "x".join(str(d) for d in shape) if len(shape) else "0d"


def _value_tag(v):
    if isinstance(v, (tuple, list)):
        return "(" + ",".join(_value_tag(x) for x in v) + ")"
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _elements(shapes):
    total = 0
    for s in shapes.values():
        for shape in (s if isinstance(s, list) else [s]):
            n = 1
            for d in shape:
                n *= d
            total += n
    return total


def case_name(stem, dtype, shapes, params):
    parts = [stem, dtype, "_".join(_shape_tag(s) for s in shapes.values()) or "noshape"]
    if params:
        parts.append(",".join(f"{k}={_value_tag(v)}" for k, v in params.items()))
    return "::".join(parts)


def case_seed(name, base_seed):
    return (zlib.crc32(name.encode()) ^ base_seed) & 0x7FFFFFFF


def config_modules():
    """Config modules in `configs/`, by family name (module name)."""
    pkg_dir = paths.CONFIG_DIR
    mods = {}
    for info in sorted(pkgutil.iter_modules([pkg_dir]), key=lambda i: i.name):
        if info.name.startswith("_") or info.ispkg:
            continue
        mods[info.name] = importlib.import_module(f"{paths.CONFIG_PACKAGE}.{info.name}")
    return mods


def load_ops():
    """(family, Op) pairs in config order; refuses Ops whose keys are not
    parameters of the header's function."""
    funcs = diopi_header.load()
    ops = []
    for family, mod in config_modules().items():
        for attr, obj in vars(mod).items():
            group = obj if isinstance(obj, (list, tuple)) else [obj]
            for value in group:
                if isinstance(value, spec.Op):
                    ops.append((family, _checked(family, attr, value, funcs)))
    return ops


def _checked(family, attr, op, funcs):
    """Refuses an Op whose keys are not parameters of its C function."""
    fn = funcs.get(op.func)
    if fn is None:
        raise ValueError(f"configs/{family}.py: {attr}: {op.func} is not declared in the headers")
    names = {p.name for p in fn.params} | set(op.extra)
    keys = list(op.tensors) + [k for p in op.params for k in p] + [k for _, p in op.cases for k in p]
    for key in keys:
        if key not in names:
            raise ValueError(f"configs/{family}.py: {attr}: {op.func} has no parameter {key!r} "
                             f"(parameters: {', '.join(sorted(names))}; list helper names in extra=)")
    return op


def matches(func, patterns):
    """--fname matching: 'add' selects add, add_inp, add_scalar, ...;
    a C name or a glob selects exactly."""
    if not patterns:
        return True
    s = diopi_header.snake(func)
    for p in patterns:
        if p == func or p == s or s.startswith(p + "_") or fnmatch.fnmatch(func, p) or fnmatch.fnmatch(s, p):
            return True
    return False


class SelectionError(ValueError):
    """An --fname or --filter_dtype that selects nothing anyone declared."""


# Short forms of words in function names, as PyTorch spells them; applied in
# both directions at word starts (conv2d <-> convolution2d).
_ABBREVIATIONS = {"conv": "convolution", "bn": "batch_norm", "attn": "attention"}
# PyTorch's other names of dtypes (torch.half, torch.long, ...) and its
# short forms (fp16, bf16): the only dtype aliases.
_DTYPE_ALIASES = {"half": "float16", "float": "float32", "double": "float64", "long": "int64", "int": "int32",
                  "short": "int16", "cfloat": "complex64", "cdouble": "complex128", "fp16": "float16",
                  "bf16": "bfloat16", "fp32": "float32", "fp64": "float64"}
_GLOB = set("*?[")


def _spellings(pattern):
    """Other ways to write a function name: the last part of a dotted path
    (torch.nn.functional.conv2d), the snake form of a C or CamelCase name, a
    trailing "_" for in-place (add_ -> add_inp), and each abbreviation of
    _ABBREVIATIONS expanded or shortened."""
    base = pattern.rsplit(".", 1)[-1]
    forms = [base, diopi_header.snake(base)]
    forms += [f[:-1] + "_inp" for f in forms if f.endswith("_") and not f.endswith("__")]
    out = []
    for f in forms:
        out.append(f)
        for short, long in _ABBREVIATIONS.items():
            for a, b in ((short, long), (long, short)):
                g = re.sub(rf"(?:(?<=^)|(?<=_)){a}(?=$|_|\d)", b, f)
                if g != f:
                    out.append(g)
    return list(dict.fromkeys(out))


def resolve_fname(pattern, funcs):
    """The --fname pattern as written when it selects a declared function,
    else the first other spelling (see _spellings) that does, else the
    declared snake name equal to it once underscores are dropped
    (batchnorm -> batch_norm); None when nothing fits."""
    if any(matches(f, [pattern]) for f in funcs):
        return pattern
    if _GLOB & set(pattern):
        return None
    spellings = _spellings(pattern)
    for s in spellings:
        if any(matches(f, [s]) for f in funcs):
            return s
    squashed = {diopi_header.snake(f).replace("_", ""): diopi_header.snake(f) for f in funcs}
    for s in spellings:
        if s.replace("_", "") in squashed:
            return squashed[s.replace("_", "")]
    return None


def resolve_dtype(name):
    if name in dtypes_mod().NAMES:
        return name
    return _DTYPE_ALIASES.get(name.lower(), name.lower() if name.lower() in dtypes_mod().NAMES else None)


def dtypes_mod():
    from . import dtypes  # `dtypes` is a parameter name of expand()
    return dtypes


def check_selection(fnames, dtype_names):
    """(fnames, dtypes) with every name resolved to what the harness calls
    it, and a list of (written, taken as) for the ones that changed; raises
    SelectionError, with "did you mean", for a name that selects no declared
    function or names no dtype."""
    funcs = list(diopi_header.load())
    out_f, out_d, renamed = [], [], []
    for p in fnames:
        r = resolve_fname(p, funcs)
        if r is None:
            if _GLOB & set(p):
                raise SelectionError(f"--fname {p!r} matches no function declared in the headers")
            names = sorted({diopi_header.snake(f) for f in funcs} | set(funcs))
            close = difflib.get_close_matches(p, names, n=3, cutoff=0.6)
            close = close or difflib.get_close_matches(_spellings(p)[-1], names, n=3, cutoff=0.6)
            hint = f"; did you mean {' or '.join(close)}?" if close else " (a snake name such as add, a C name such as diopiAdd, or a glob)"
            raise SelectionError(f"--fname {p!r} is no function declared in the headers{hint}")
        if r != p:
            renamed.append((p, r))
        out_f.append(r)
    names = dtypes_mod().NAMES
    for d in dtype_names:
        r = resolve_dtype(d)
        if r is None:
            close = difflib.get_close_matches(d.lower(), list(names) + list(_DTYPE_ALIASES), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]}?" if close else f" (dtypes: {', '.join(names)})"
            raise SelectionError(f"--filter_dtype {d!r} is no dtype{hint}")
        if r != d:
            renamed.append((d, r))
        out_d.append(r)
    return out_f, out_d, renamed


def expand(ops, base_seed=0, fnames=(), dtypes=()):
    cases = []
    seen = set()
    for family, op in ops:
        if not matches(op.func, fnames):
            continue
        stem = op.name or diopi_header.snake(op.func)
        names = list(op.tensors)
        combos = op.cases or [(s, p) for s in op.shapes for p in op.params]
        for shapes, params in combos:
            if not isinstance(shapes, dict):
                if len(shapes) != len(names):
                    raise ValueError(f"{op.func}: shape entry {shapes!r} does not give one shape per tensor {names}")
                shapes = dict(zip(names, shapes))
            shapes = {k: (list(map(tuple, v)) if isinstance(op.tensors[k], spec.TList) else tuple(v)) for k, v in shapes.items()}
            large = _elements(shapes) > spec.LARGE_ELEMENTS
            large_dtypes = [d for d in op.dtypes if d in op.large_dtypes] or list(op.dtypes[:1])
            for dtype in op.dtypes:
                if dtypes and dtype not in dtypes:
                    continue
                if large and dtype not in large_dtypes:
                    continue
                name = case_name(stem, dtype, shapes, params)
                base, k = name, 1
                while name in seen:
                    k += 1
                    name = f"{base}#{k}"
                seen.add(name)
                cases.append(Case(name, op, family, dtype, shapes, dict(params), case_seed(name, base_seed)))
    return cases
