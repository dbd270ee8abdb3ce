"""Model case sets: the DIOPI calls of real models, captured by the `diopi`
device's capture tool (python -m diopi_torch.capture) and kept as data in
configs/model_config/<model>.yaml.

Each captured call becomes one harness case: its DIOPI function, tensors of
the shapes, strides and dtypes the model produced (replayed in the
"captured" layout), its other arguments as the model passed them, and how
often the model makes the call. The reference is the ATen operator the call
came from, run by gen_data on the drawn inputs; which DIOPI argument is
which ATen argument or result is recorded in the case set, so this module
needs neither the device nor its mapping. Reading a case set (run_test,
--get_model_list) needs only PyYAML.
"""
import math
import os

import yaml

from . import enums, paths
from .arguments import contiguous_strides

# DIOPI_MODEL_CASES names another folder of case sets (autocompare writes
# the call it caught as a one-case set there).
MODEL_DIR = os.environ.get("DIOPI_MODEL_CASES") or os.path.join(paths.CONFIG_DIR, "model_config")
CAPTURED = "captured"
# A case whose stored outputs exceed this (inputs are drawn again from
# recipes; outputs of 4 MiB and more are stored as a sample + block sums,
# conformance/sampled.py) is listed and counted but not replayed: its
# baseline would not fit the budget of one model's case set. The reason
# names the size.
MAX_STORED_BYTES = 48 << 20
# A case whose tensors take more than this is not replayed: the test machine
# holds every one of them (a fused AdamW step over all of a 7B model's
# parameters, a Mixtral expert-weight gradient).
MAX_CASE_BYTES = 3 << 29
# And one model's baselines stay within this: past it, the cases that store
# the most are left out (listed, counted as not replayed).
MAX_MODEL_BYTES = 450 << 20
_ITEMSIZE = {"bool": 1, "uint8": 1, "int8": 1, "int16": 2, "int32": 4, "int64": 8, "float16": 2, "bfloat16": 2,
             "float32": 4, "float64": 8, "complex64": 8, "complex128": 16}


# libyaml's loader when PyYAML was built with it: a 7B model's case set takes
# 3 s to parse in pure Python, 10x less in C. Both build only plain data.
_YAML_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class CaseSetError(ValueError):
    pass


def names():
    if not os.path.isdir(MODEL_DIR):
        return []
    return sorted(f[:-5] for f in os.listdir(MODEL_DIR) if f.endswith(".yaml"))


def load(name):
    """The case set of one model, checked for the keys this module reads."""
    path = os.path.join(MODEL_DIR, f"{name}.yaml")
    if name not in names():
        import difflib
        close = difflib.get_close_matches(name, names(), n=1)
        raise CaseSetError(f"unknown model {name!r}" + (f"; did you mean {close[0]}?" if close else "")
                           + f" (known: {', '.join(names())})")
    with open(path) as f:
        data = yaml.load(f, Loader=_YAML_LOADER)
    if not isinstance(data, dict) or not {"model", "provenance", "summary", "cases"} <= set(data):
        raise CaseSetError(f"{path}: not a model case set (needs model, provenance, summary, cases)")
    for i, c in enumerate(data["cases"]):
        missing = {"name", "diopi", "aten", "aten_args", "diopi_args", "sources", "count"} - set(c)
        if missing:
            raise CaseSetError(f"{path}: case {i} lacks {', '.join(sorted(missing))}")
    return data


def _is_tensor(d):
    return isinstance(d, dict) and "tensor" in d


def _nbytes(d):
    if _is_tensor(d):
        return math.prod(d["tensor"]) * _ITEMSIZE.get(d["dtype"], 8)
    if isinstance(d, list):
        return sum(_nbytes(x) for x in d)
    return 0



def _value(d):
    """A captured non-tensor value back as Python."""
    if isinstance(d, dict) and "float" in d:
        return float(d["float"])
    if isinstance(d, dict) and "dtype_value" in d:
        return d["dtype_value"]
    if isinstance(d, list):
        return tuple(_value(x) for x in d)
    return d


def weight_by_stem(data):
    return {c["name"]: int(c["count"]) for c in data["cases"]}


def stored_bytes(case, fn):
    """Bytes gen_data would store: outputs, large ones as a sample + block
    sums (conformance/sampled.py); inputs are drawn again from recipes."""
    total = 0
    for p in _output_params(fn):
        total += _stored(case["diopi_args"].get(p.name))
    return total


def _output_params(fn):
    return [p for p in fn.params if p.is_output or p.kind in ("tensor_out", "tensor_array_out")]


def _stored(d):
    """Bytes one output description costs in a baseline (see stored_bytes)."""
    from . import sampled

    if isinstance(d, list):
        return sum(_stored(x) for x in d)
    n = _nbytes(d)
    if n < sampled.MIN_BYTES:
        return n
    return min(n, sampled.SAMPLES * _ITEMSIZE.get(d["dtype"], 8) + sampled.BLOCKS * 16)


def memory_bytes(case):
    """Bytes of every tensor of the call: what a replay holds in memory."""
    return sum(_nbytes(d) for d in case["diopi_args"].values())


def skip_reason(case, fn):
    n = memory_bytes(case)
    if n > MAX_CASE_BYTES:
        return (f"its tensors take {n / 2**30:.1f} GiB, above the {MAX_CASE_BYTES / 2**30:.1f} GiB a replay may hold "
                f"in memory")
    n = stored_bytes(case, fn)
    if n > MAX_STORED_BYTES:
        return f"its outputs take {n / 2**20:.0f} MiB, above the {MAX_STORED_BYTES >> 20} MiB a replayed case may store"
    return ""


def summary_line(name):
    """One line per model for --get_model_list."""
    data = load(name)
    s = data["summary"]
    prov = data["provenance"]
    share = s["mapped_calls"] / s["aten_calls"] if s["aten_calls"] else 0.0
    size = f"seq {prov['seq_len']}" if prov.get("seq_len") else f"image {prov.get('image_size')}"
    gaps = ", ".join(f"{k} ({v})" for k, v in s.get("unmapped", {}).items()) or "none"
    return (f"{name}: {prov['class']} {prov['dtype']} batch {prov['batch']} {size} ({'+'.join(prov['modes'])}); "
            f"{s['cases']} cases, {len(s['functions'])} functions; {s['mapped_calls']} of {s['aten_calls']} ATen calls "
            f"map to DIOPI ({share:.1%}); {s.get('view_calls', 0)} views and {s.get('copy_calls', 0)} copies need no "
            f"kernel; ATen operators with no DIOPI function: {gaps}")


def ops(name):
    """(family, spec.Op, skip reason) per captured case; needs torch (gen_data)."""
    from . import gen, spec
    from diopi_header import load as load_header

    data = load(name)
    funcs = load_header()
    out = []
    for case in data["cases"]:
        fn = funcs.get(case["diopi"])
        if fn is None:
            raise CaseSetError(f"{name}: case {case['name']} calls {case['diopi']}, which the header does not declare")
        why = skip_reason(case, fn)
        if why:
            part = partial_case(case, fn=fn)
            if part is not None and not skip_reason(part, fn):
                import sys
                print(f"gen_data: {case['name']} ({case['diopi']}) replays {part['partial']}", file=sys.stderr)
                case, why = part, ""
        out.append([fn.family, _op(case, fn, spec, gen), why, stored_bytes(case, fn)])
    total = 0
    for item in sorted((i for i in out if not i[2]), key=lambda i: i[3]):
        total += item[3]
        if total > MAX_MODEL_BYTES:
            item[2] = f"the model's replayed cases already store {MAX_MODEL_BYTES >> 20} MiB (this one: {item[3] / 2**20:.0f} MiB)"
    return [(fam, op, why) for fam, op, why, _ in out]


def partial_case(case, budget=None, fn=None):
    """A call over tensor lists (a fused optimizer step over every parameter
    of a 7B model: 50 GiB) replayed on part of its lists: each distinct
    (shape, strides, dtype) of the first list once, in the model's order,
    while the tensors fit `budget` in memory and, when the header function
    `fn` is given, its outputs fit MAX_STORED_BYTES in the baseline. The
    kernel treats list entries independently, so this tests every layout
    the model gives it. Returns the reduced case (with a `partial` note) or
    None."""
    budget = budget or MAX_CASE_BYTES // 2
    args = case["diopi_args"]
    outputs = {p.name for p in _output_params(fn)} if fn is not None else set()
    lists = [k for k, v in args.items() if isinstance(v, list) and v and all(_is_tensor(x) for x in v)]
    if not lists or len({len(args[k]) for k in lists}) != 1:
        return None
    n = len(args[lists[0]])
    keep, seen, used, stored = [], set(), 0, 0
    for i, d in enumerate(args[lists[0]]):
        key = (tuple(d["tensor"]), tuple(d["stride"]), d["dtype"])
        size = sum(_nbytes(args[k][i]) for k in lists)
        kept = sum(_stored(args[k][i]) for k in lists if k in outputs)
        if key in seen or used + size > budget or stored + kept > MAX_STORED_BYTES:
            continue
        seen.add(key)
        keep.append(i)
        used += size
        stored += kept
    if not keep:
        return None
    sliced = {k: [args[k][i] for i in keep] for k in lists}
    aten_lists = {case["sources"].get(k, {}).get("aten") for k in lists} - {None}
    new = dict(case, diopi_args=dict(args, **sliced), sources=dict(case["sources"]),
               aten_args={k: ([v[i] for i in keep] if k in aten_lists and isinstance(v, list) and len(v) == n else v)
                          for k, v in case["aten_args"].items()})
    for k, v in args.items():  # list lengths passed as numbers (nums)
        if isinstance(v, int) and not isinstance(v, bool) and v == n and "value" in case["sources"].get(k, {}):
            new["diopi_args"][k] = len(keep)
            new["sources"][k] = {"value": len(keep)}
    new["partial"] = (f"on {len(keep)} of {n} list entries (each distinct shape once, {used / 2**20:.0f} MiB of "
                      f"{memory_bytes(case) / 2**30:.1f} GiB)")
    return new


def _dim_extent(args, tensor, dim_param="dim"):
    shp = args[tensor]["tensor"]
    return shp[int(args[dim_param]) % len(shp)] if shp else 1


# Integer inputs a kernel may legitimately see, as rules: (DIOPI functions
# (a trailing * matches a prefix), parameter, bound from the captured arguments, generator). Values
# are drawn in [0, bound); other integer inputs in [0, 8); bools are masks;
# floating inputs are normal.
INT_RULES = [
    (("diopiEmbedding",), "indices", lambda a: a["weight"]["tensor"][0], "randint"),      # rows of the table
    (("diopiEmbeddingBackward",), "indices", lambda a: a["num_weights"], "randint"),
    (("diopiNLLLoss*", "diopiCrossEntropyLoss*"), "target",                                # class labels
     lambda a: a["input"]["tensor"][1] if len(a["input"]["tensor"]) > 1 else a["input"]["tensor"][0], "randint"),
    (("diopiIndexSelect", "diopiGather"), "index", lambda a: _dim_extent(a, "input"), "randint"),
    (("diopiScatter",), "index", lambda a: _dim_extent(a, "input"), "distinct"),           # no repeated target
    (("diopiMaxPool*",), "indices", lambda a: math.prod(a["input"]["tensor"][2:]), "randint"),  # window positions
    (("diopiScatterScalar", "diopiScatterInpScalar"), "index", lambda a: _dim_extent(a, "input"), "randint"),
    # Advanced indexing: each index tensor selects along one leading dimension
    # (bounded by the smallest of them); an overwriting index_put needs
    # distinct positions, whose order would otherwise decide the result.
    (("diopiIndex", "diopiIndexBackward"), "indices", lambda a: _leading_extent(a), "randint"),
    (("diopiIndexPut", "diopiIndexPutInp"), "indices", lambda a: _leading_extent(a), "distinct unless accumulate"),
]


def _leading_extent(args):
    shape = args["input"]["tensor"] if _is_tensor(args.get("input")) else args["zeros_like_input"]["tensor"]
    n = len(args["indices"]) if isinstance(args.get("indices"), list) else 1
    return min(shape[:n] or [1])


# Floating inputs that must be consistent with the operator: the `output` a
# softmax backward reads is a softmax output (a row of probabilities), so
# that the kernel sums what a model would give it.
FLOAT_RULES = [
    (("diopiSoftmaxBackward",), "output", lambda a, gen: gen.softmax_out(int(a["dim"]), 0)),
    (("diopiLogSoftmaxBackward",), "output", lambda a, gen: gen.softmax_out(int(a["dim"]), 1)),
    # An optimizer step counts from 1 (bias correction divides by 1 - beta^step)
    # and its second moments are squares: negative ones would make both sides NaN.
    (("diopiFusedAdamW", "diopiAdamW", "diopiAdam"), "state_steps", lambda a, gen: gen.randint(1, 1000)),
    (("diopiFusedAdamW", "diopiAdamW", "diopiAdam"), "exp_avg_sqs", lambda a, gen: gen.uniform(0.0, 0.01)),
    (("diopiAdamW", "diopiAdam"), "exp_avg_sq", lambda a, gen: gen.uniform(0.0, 0.01)),
    (("diopiAdamW", "diopiAdam"), "step", lambda a, gen: gen.randint(1, 1000)),
]


def _gen_for(case, fn, param, desc, gen):
    """The generator of one input (see INT_RULES and FLOAT_RULES)."""
    dtype = desc["dtype"]
    args = case["diopi_args"]
    if dtype == "bool":
        return gen.mask()
    for names, name, make in FLOAT_RULES:
        if param == name and case["diopi"] in names:
            return make(args, gen)
    if dtype.startswith(("int", "uint")):
        f = case["diopi"]
        for prefixes, name, bound, kind in INT_RULES:
            if param == name and any(f == x or (x.endswith("*") and f.startswith(x[:-1])) for x in prefixes):
                hi = max(int(bound(args)), 1)
                if kind == "distinct" or (kind == "distinct unless accumulate" and not args.get("accumulate")):
                    return gen.distinct(hi, int(args.get("dim", -1)))
                return gen.randint(0, hi)
        return gen.randint(0, 8)
    return gen.randn()


def _op(case, fn, spec, gen):
    import torch

    args, sources = case["diopi_args"], case["sources"]
    tensors, params, shapes, strides, extra = {}, {}, {}, {}, []
    aten_out_args = set()
    for p in fn.params:
        if p.kind == "context":
            continue
        d, src = args.get(p.name), sources.get(p.name, {})
        writes = p.kind in ("tensor_out", "tensor_array_out")
        from_aten = "aten" in src
        if _is_tensor(d) or (isinstance(d, list) and d and all(_is_tensor(x) for x in d)):
            listed = isinstance(d, list)
            descs = d if listed else [d]
            # A written argument the ATen call also reads (in-place) gets an
            # input value; an out= argument or a result is output only.
            aten_arg = case["aten_args"].get(src.get("aten")) if from_aten else None
            is_inplace = writes and from_aten and not _is_out_arg(case, src["aten"])
            if not writes or is_inplace:
                g = _gen_for(case, fn, p.name, descs[0], gen)
                tensors[p.name] = (spec.TList if listed else spec.T)(gen=g, dtype=descs[0]["dtype"])
                shapes[p.name] = [tuple(x["tensor"]) for x in descs] if listed else tuple(d["tensor"])
            elif from_aten and aten_arg is not None:
                aten_out_args.add(src["aten"])
            if not listed and d["stride"] != contiguous_strides(d["tensor"]):
                strides[p.name] = list(d["stride"])
        elif p.kind == "tensor_in" and isinstance(d, (int, float)) and not isinstance(d, bool):
            # A Python number the model passed where ATen takes a tensor: a 0-dim tensor holding it.
            dt = "float32" if isinstance(d, float) else "int64"
            tensors[p.name] = spec.T(gen=gen.uniform(float(d), float(d)), dtype=dt)
            shapes[p.name] = ()
        elif d is None or (d == [] and p.kind.startswith("tensor_array")):
            params[p.name] = None  # an empty tensor list is passed as NULL, as the diopi device does
        else:
            v = _value(d)
            if p.kind in ("enum_reduction", "enum_round") and isinstance(v, int):
                v = enums.config_names(p.kind)[v]
            params[p.name] = v
    # ATen tensor arguments the DIOPI call does not see still feed the reference.
    mapped = {s["aten"] for s in sources.values() if "aten" in s}
    mapped |= {n for s in sources.values() for n in s.get("aten_items", ())}
    for a, d in case["aten_args"].items():
        if a in mapped or not _is_tensor(d) or _is_out_arg(case, a):
            continue
        key = f"aten__{a}"
        tensors[key] = spec.T(gen=gen.randn(), dtype=d["dtype"])
        shapes[key] = tuple(d["tensor"])
        extra.append(key)
    dtype = next((t.dtype for t in tensors.values() if t.dtype in ("bfloat16", "float16", "float32", "float64")),
                 next((t.dtype for t in tensors.values()), "float32"))
    ref = _reference(case, fn, torch)
    terms = accumulation(case)
    return spec.Op(accumulation=(lambda **_: terms) if terms > 1 else None, func=fn.name, ref=ref, tensors=tensors,
                   cases=((shapes, params),), dtypes=(dtype,), extra=tuple(extra), large_dtypes=(dtype,),
                   layouts=(CAPTURED,), layout_reason="replays the strides the model produced",
                   name=case["name"], strides=strides, weight=int(case["count"]), sample_outputs=True)


# Terms summed into one output element, per function, from the captured shapes:
# tolerances grow with it (conformance/tolerances.py).
def accumulation(case):
    a = {k: v for k, v in case["diopi_args"].items()}

    def shape(name):
        d = a.get(name)
        return d["tensor"] if _is_tensor(d) else None

    def numel(name):
        s = shape(name)
        return math.prod(s) if s is not None else 0

    f = case["diopi"]
    if f.startswith(("diopiSoftmax", "diopiLogSoftmax")) and isinstance(a.get("dim"), int):
        s = shape("input") or shape("grad_output") or shape("output")
        if s:  # the normalizing sum runs along dim
            return s[a["dim"] % len(s)]
    if f in ("diopiMm", "diopiBmm", "diopiMatmul", "diopiLinear") and shape("input"):
        return shape("input")[-1]
    if f in ("diopiAddmm",) and shape("mat1"):
        return shape("mat1")[-1]
    if f in ("diopiBaddbmm",) and shape("batch1"):
        return shape("batch1")[-1]
    if f.startswith(("diopiConvolution", "diopiConvTranspose")):
        if f.endswith("Backward") and shape("grad_output"):
            # grad_weight sums over N*H_out*W_out, grad_input over C_out*kH*kW.
            go, w = shape("grad_output"), shape("weight") or [1]
            return max(math.prod(go) // max(go[1], 1), math.prod(w[1:]), w[0] * math.prod(w[2:]))
        return math.prod(shape("weight")[1:]) if shape("weight") else 1
    # Reductions and normalizations: the largest input over the smallest output.
    ins = [numel(k) for k, d in a.items() if _is_tensor(d)]
    outs = [numel(k) for k in a if _is_tensor(a[k]) and "result" in case["sources"].get(k, {})]
    if ins and outs and min(outs) > 0:
        return max(1, max(ins) // min(outs))
    return 1


def _is_out_arg(case, aten_name):
    """Whether an ATen argument is an out= argument (keyword-only and
    written: out, or values/indices of topk.values), from the schema when
    torch is at hand (gen_data), else by name."""
    try:
        import torch
        base, _, overload = case["aten"].partition(".")
        schema = getattr(getattr(torch.ops.aten, base), overload or "default")._schema
    except (ImportError, AttributeError):
        return aten_name == "out"
    for a in schema.arguments:
        if a.name == aten_name:
            return a.kwarg_only and a.alias_info is not None and a.alias_info.is_write
    return False


def _reference(case, fn, torch):
    """The ATen operator the call came from, on the drawn inputs as the kernel sees them."""
    base, _, overload = case["aten"].partition(".")
    sources = case["sources"]
    aten_args = case["aten_args"]

    def ref(**kw):
        from .arguments import input_storage
        from .gen_data import from_torch

        op = getattr(getattr(torch.ops.aten, base), overload or "default")
        by_aten = {}
        for param, src in sources.items():
            if "aten" in src and param in kw:
                by_aten[src["aten"]] = _as_kernel_sees(kw[param], case["diopi_args"].get(param), torch, input_storage,
                                                       from_torch)
            elif "aten_items" in src and param in kw:  # a list gathered from single arguments ("[index]")
                by_aten.update(zip(src["aten_items"], kw[param]))
        call_args, call_kwargs = [], {}
        for a in op._schema.arguments:
            if a.name in by_aten:
                v = by_aten[a.name]
            elif f"aten__{a.name}" in kw:
                v = kw[f"aten__{a.name}"]
            elif a.name in aten_args:
                d = aten_args[a.name]
                if _is_tensor(d):  # an out= argument: allocated like the capture saw it
                    v = torch.empty_strided(d["tensor"], d["stride"], dtype=getattr(torch, d["dtype"]))
                    by_aten[a.name] = v
                else:
                    v = _torch_value(d, a, torch)
            else:
                continue
            if a.kwarg_only:
                call_kwargs[a.name] = v
            else:
                call_args.append(v)
        low = _low_precision(base, [*call_args, *call_kwargs.values()], torch)
        if low is not None and not any(_is_out_arg(case, a) for a in by_aten):
            result = op(*[_widen(v, torch) for v in call_args], **{k: _widen(v, torch) for k, v in call_kwargs.items()})
            result = result.to(low) if isinstance(result, torch.Tensor) else type(result)(r.to(low) for r in result)
        else:
            result = op(*call_args, **call_kwargs)
        outs = []
        for p in fn.outputs:
            src = sources.get(p.name, {})
            if case["diopi_args"].get(p.name) in (None, []):  # not passed (amsgrad off: no max_exp_avg_sqs)
                outs.append(None)
            elif "result" in src:
                outs.append(result if src["result"] is None else result[src["result"]])
            elif "aten" in src:
                outs.append(by_aten[src["aten"]])
            else:
                raise ValueError(f"{case['name']}: cannot tell where output {p.name} comes from")
        return outs[0] if len(outs) == 1 else tuple(outs)

    return ref


# Products whose float16/bfloat16 reference is computed in float32 and rounded
# once. ATen's CPU GEMM for those dtypes accumulates in float32 too, but
# without AVX512-BF16/FP16 it takes a scalar loop for two of the four operand
# layouts (80 s for one of Llama 2 7B's 256x4096 by 4096x11008 products,
# against 0.4 s in float32); the answers agree to an ulp of the output.
WIDE_REFERENCE = {"mm", "addmm", "bmm", "baddbmm", "matmul", "linear"}


def _low_precision(base, args, torch):
    """The 16-bit float dtype all tensor arguments of a WIDE_REFERENCE call
    share, else None (mixed dtypes are left to ATen's own checks)."""
    if base not in WIDE_REFERENCE:
        return None
    kinds = {a.dtype for a in args if isinstance(a, torch.Tensor)}
    return kinds.pop() if len(kinds) == 1 and kinds <= {torch.float16, torch.bfloat16} else None


def _widen(v, torch):
    return v.float() if isinstance(v, torch.Tensor) else v


def _as_kernel_sees(t, desc, torch, input_storage, from_torch):
    """The drawn input laid out with the captured strides, exactly as the
    replay builds it (overlapping strides of expanded tensors included)."""
    if isinstance(t, list) or not isinstance(t, torch.Tensor) or not _is_tensor(desc):
        return t
    if desc["stride"] == contiguous_strides(desc["tensor"]):
        return t
    array, dtype = from_torch(t)
    strides, storage = input_storage(array, dtype, desc["stride"])
    from .gen_data import to_torch
    flat = to_torch(storage, dtype, "cpu")
    return flat.as_strided(desc["tensor"], strides)


def _torch_value(d, arg, torch):
    v = _value(d)
    if v == "meta":
        return torch.device("cpu")
    if isinstance(v, str) and hasattr(torch, v) and isinstance(getattr(torch, v), torch.dtype):
        return getattr(torch, v)
    if isinstance(v, str) and v.startswith("torch.") and hasattr(torch, v[6:]):  # memory formats, layouts
        return getattr(torch, v[6:])
    if isinstance(v, tuple):
        return list(v)
    return v


def pass_share(name, rows):
    """The closing line of run_test --model_name: the share of the model's
    kernel calls, weighted by how often the model makes each, whose case
    passed in every layout. Calls with no DIOPI function, and cases not
    replayed, count as not passed."""
    data = load(name)
    weights = weight_by_stem(data)
    verdict = {}
    for item, r in rows:
        stem = item.name.split("::")[0]
        if stem in weights:
            ok = r["verdict"] == "passed"
            verdict[stem] = verdict.get(stem, True) and ok
    total = data["summary"]["aten_calls"]
    passed = sum(weights[s] for s, ok in verdict.items() if ok)
    failing = {}
    for c in data["cases"]:
        if not verdict.get(c["name"], False):
            failing[c["diopi"]] = failing.get(c["diopi"], 0) + int(c["count"])
    for op, n in data["summary"].get("unmapped", {}).items():
        failing[f"aten::{op} (no DIOPI function)"] = n
    worst = ", ".join(f"{k} ({v} calls)" for k, v in sorted(failing.items(), key=lambda kv: -kv[1])[:6]) or "nothing"
    modes = " and ".join({"train": "training step", "infer": "inference"}[m] for m in data["provenance"]["modes"])
    share = passed / total if total else 0.0
    return f"this library runs {_percent(passed, total)} of {name}'s {modes} ({passed} of {total} calls); failing or not replayed: {worst}"


def _percent(part, total):
    """A share that reads 100% only when it is: 7892 of 7893 is ">99.9%"."""
    if not total:
        return "0.0%"
    if part < total and part / total >= 0.9995:
        return ">99.9%"
    return f"{part / total:.1%}"


def run_capture(model, out_dir=None):
    """Captures a model case set by running the bridge's capture tool in its
    own process (python -m diopi_torch.capture): the harness never imports
    the bridge. Returns its exit status."""
    import subprocess
    import sys

    bridge = os.path.join(paths.REPO_ROOT, "bridge", "torch")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (bridge, os.environ.get("PYTHONPATH")) if p))
    cmd = [sys.executable, "-m", "diopi_torch.capture", "--model", model, "--out", out_dir or MODEL_DIR]
    return subprocess.call(cmd, env=env)
