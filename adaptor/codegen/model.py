"""Stage 2: the wrappers to generate, as plain immutable data.

Joins the header model, the config and the vendor's kernel list, and decides
for every parameter of every implemented function how it is handled:

  pass      scalars, sizes, callee-allocated outputs, tensors with no rule
  input     const tensor           -> Call::input
  output    non-const tensor       -> Call::output (filled unless a pure `out`)
  in_array  const tensor array     -> Call::inputArray (with its count)
  out_array non-const tensor array -> Call::outputArray
"""
import dataclasses
import re

import diopi_header

from .config import dtypes

# Functions whose wrapper is special-cased in the template.
LAST_ERROR = "diopiGetLastErrorString"
COPY_KERNEL = "diopiCopyInp"


class ModelError(Exception):
    pass


@dataclasses.dataclass(frozen=True)
class Spec:
    """One distinct conversion spec (dtype rules + layout), shared by params."""
    name: str        # C++ identifier of the constant
    rules: tuple     # ((from enumerator, to enumerator), ...)
    layout: str      # Layout enumerator


@dataclasses.dataclass(frozen=True)
class Conversion:
    action: str      # input | output | in_array | out_array
    param: str
    spec: str        # Spec.name
    count: str = ""  # array length parameter
    fill: bool = True
    reads: bool = True  # the header says the kernel reads its values (input or inout), so a narrowing checks their range


@dataclasses.dataclass(frozen=True)
class Wrapper:
    name: str
    family: str
    returns: str
    params: str             # "diopiContextHandle_t ctx, ..." for the definition
    kernel_params: str      # the kernel declaration's parameter list (header types)
    args: str               # "ctx, out, input"
    ctx: str                # name of the context parameter ("" if none)
    conversions: tuple      # Conversion, in parameter order

    @property
    def passthrough(self):
        return not self.conversions

    @property
    def last_error(self):
        return self.name == LAST_ERROR


@dataclasses.dataclass(frozen=True)
class Family:
    name: str
    file: str
    wrappers: tuple
    specs: tuple            # Spec used by this family's wrappers


def family_file(family):
    slug = re.sub(r"\W+", "_", family or "other").strip("_") or "other"
    return f"wrappers_{slug}.cpp"


def output_files(functions):
    """Every generated file name, known from the headers alone (so the build
    system can list them at configure time)."""
    fams = sorted({family_file(fn.family) for fn in functions.values()})
    return ["adaptor_glue.cpp"] + fams


def array_count(fn, index):
    """The int64 count of the tensor array at params[index], or None (a
    `diopiTensorHandle_t*` without one is a single callee-allocated output).
    Arrays sharing one count are listed together before it (FusedAdamW)."""
    params = fn.params
    j = index + 1
    while j < len(params) and params[j].kind in ("tensor_array_in", "tensor_array_out"):
        j += 1
    if j < len(params) and params[j].ctype in ("int64_t", "const int64_t"):
        return params[j].name
    return None


def is_pure_output(name):
    """A parameter the kernel only writes: no need to fill its temporary."""
    return name in ("out", "outs") or name.startswith("out_")


def _param_decl(p):
    ctype = p.ctype
    # Top-level const is not part of the function type; dropping it lets the
    # wrapper swap the handle for a converted one.
    if p.kind == "tensor_in" and ctype.startswith("const ") and not ctype.endswith("*"):
        ctype = ctype[len("const "):]
    return f"{ctype} {p.name}"


def build(functions, config, implemented):
    """Families with their wrappers. `implemented`: names with a kernel."""
    implemented = set(implemented)
    spec_names = {}
    by_family = {}
    for name, fn in functions.items():
        if name not in implemented:
            continue
        conversions = []
        if fn.returns == "diopiError_t":
            for i, p in enumerate(fn.params):
                action, count = None, ""
                if p.kind == "tensor_in":
                    action = "input"
                elif p.kind == "tensor_out":
                    action = "output"
                elif p.kind == "tensor_array_in":
                    action, count = "in_array", array_count(fn, i)
                    if count is None:
                        raise ModelError(f"{name}: cannot find the length parameter of the array {p.name}")
                elif p.kind == "tensor_array_out":
                    count = array_count(fn, i)
                    action = "out_array" if count else None  # callee-allocated: passed through
                if action is None:
                    continue
                rules, layout = config.resolve(name, p.name)
                if not rules and layout == "ND":
                    continue
                key = (tuple((dtypes()[a], dtypes()[b]) for a, b in rules.pairs), layout)
                if key not in spec_names:
                    spec_names[key] = Spec(f"kSpec{len(spec_names)}", key[0], key[1])
                conversions.append(Conversion(action, p.name, spec_names[key].name, count or "",
                                              fill=not is_pure_output(p.name), reads=p.role != diopi_header.OUTPUT))
        ctx = next((p.name for p in fn.params if p.kind == "context"), "")
        if conversions and not ctx:
            raise ModelError(f"{name}: conversions need a context parameter")
        w = Wrapper(name, fn.family, fn.returns,
                    ", ".join(_param_decl(p) for p in fn.params) or "void",
                    ", ".join(f"{p.ctype} {p.name}" for p in fn.params) or "",
                    ", ".join(p.name for p in fn.params), ctx, tuple(conversions))
        by_family.setdefault(family_file(fn.family), (fn.family, []))[1].append(w)
    families = []
    for file, (fam, wrappers) in sorted(by_family.items()):
        used = {c.spec for w in wrappers for c in w.conversions}
        specs = tuple(s for s in spec_names.values() if s.name in used)
        families.append(Family(fam, file, tuple(wrappers), specs))
    return families


def needs_copy_kernel(families):
    return any(w.conversions for f in families for w in f.wrappers)
