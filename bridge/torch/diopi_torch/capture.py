"""Model capture: the DIOPI calls of real model code, at real sizes, on `meta`.

    python -m diopi_torch.capture --model llama2_7b [--out DIR]
    python -m diopi_torch.capture --all

Builds a model of the registry on PyTorch's meta device (no memory, no compute),
runs one training step (forward, loss, backward, fused AdamW) and/or one
inference forward, and records every ATen call with a TorchDispatchMode.
Each call is classified the way the `diopi` device would serve it, through
the same mapping file (aten_to_diopi.yaml):

  mapped     an entry applies: a DIOPI case (function, arguments as the model
             produced them: shapes, strides, dtypes, values)
  view       metadata only (the schema returns an alias): no kernel
  copy       autograd bookkeeping (detach, lift_fresh, alias) and transfers
             between the device and the host (_local_scalar_dense, a copy
             across devices): no kernel of the operator library
  alloc      empty tensors: memory, no kernel
  composite  no entry applies but ATen decomposes the operator itself: its
             parts are recorded instead (as the device dispatches them)
  unmapped   no DIOPI function serves it: a gap, counted

Control flow that depends on data (a mixture of experts' routing) cannot run
on meta; a spec with `routing` declares what capture assumes instead
(MetaOracle: uniform routing, every expert receives its share of tokens).

Identical calls are merged with their counts, so a 32-layer model costs the
cases of one layer. The case set is written as YAML into
diopi_test/python/configs/model_config/<model>.yaml, with its provenance.
"""
from __future__ import annotations

import argparse
import collections
import os
import sys
import time

import torch
import yaml
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_flatten

from .ops import mapping, schemas
from .suite import models as registry

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
DEFAULT_OUT = os.path.join(ROOT, "diopi_test", "python", "configs", "model_config")
ALLOC = {"empty.memory_format", "empty_strided"}
# Autograd bookkeeping: no data moves.
COPY_OPS = {"detach", "lift_fresh", "alias"}
# Reads a device value on the host (.item(), bool(tensor)): a transfer.
SYNC_OPS = {"_local_scalar_dense"}
CROSS_DEVICE = {"_to_copy", "copy_", "to.device", "_copy_from", "_copy_from_and_resize"}


def _dtype(t):
    return str(t.dtype).replace("torch.", "")


class Flow(dict):
    """A tensor description, written on one line."""


yaml.SafeDumper.add_representer(Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v, flow_style=True))


def describe(v):
    """A value as plain data: tensors by shape, strides, dtype (and storage offset when not 0)."""
    if isinstance(v, torch.Tensor):
        d = Flow(tensor=list(v.shape), stride=list(v.stride()), dtype=_dtype(v))
        if v.storage_offset():
            d["offset"] = v.storage_offset()
        layout = _layout(d["tensor"], d["stride"])
        if layout:
            d["layout"] = layout  # readable; the strides say it already
        return d
    if isinstance(v, (list, tuple)):
        return [describe(x) for x in v]
    if isinstance(v, torch.dtype):
        return {"dtype_value": _dtype_name(v)}
    if isinstance(v, (torch.device, torch.layout, torch.memory_format)):
        return str(v)
    if isinstance(v, float) and v in (float("inf"), float("-inf")):
        return {"float": str(v)}
    return v


def _layout(shape, stride):
    """"expanded" (a stride 0 over a size > 1: broadcast), "strided" (any other
    non-contiguous layout: transposed, sliced), or "" when contiguous."""
    if any(st == 0 and n > 1 for n, st in zip(shape, stride)):
        return "expanded"
    acc = 1
    for n, st in zip(reversed(shape), reversed(stride)):
        if n != 1 and st != acc:
            return "strided"
        acc *= n
    return ""


def _dtype_name(d):
    return str(d).replace("torch.", "")


def _key(v):
    """Hashable form of a description, for merging identical calls."""
    if isinstance(v, dict):
        return tuple(sorted((k, _key(x)) for k, x in v.items()))
    if isinstance(v, list):
        return tuple(_key(x) for x in v)
    return v


class MetaOracle:
    """Answers the data-dependent operators a model's control flow needs on
    meta, as declared by its spec's `routing`:

      uniform-topk  a mixture of experts' routing (top-k of E experts per
                    token) is uniform: every expert is hit (nonzero over the
                    E+1 expert-hit flags gives E rows) and receives
                    tokens*top_k/E tokens (nonzero over one expert's
                    (top_k, tokens) mask gives numel/E rows); values read on
                    the host (.item(), bool(t)) are 0, so expert 0's weights
                    stand for every expert's (same shapes) and no
                    `expert == E` padding branch is taken.
    """

    def __init__(self, routing, config):
        if routing != "uniform-topk":
            raise ValueError(f"unknown routing assumption {routing!r}")
        self.experts = int(config.num_local_experts)
        self.top_k = int(config.num_experts_per_tok)

    def describe(self):
        return (f"uniform-topk: every one of {self.experts} experts receives tokens*{self.top_k}/{self.experts} "
                f"tokens; host reads of device values give 0")

    def __call__(self, name, args, kwargs):
        """The result of a data-dependent call, or NotImplemented."""
        if name == "nonzero":
            x = args[0]
            if x.device.type != "meta":
                return NotImplemented
            if x.dim() == 1:
                rows = self.experts if x.numel() == self.experts + 1 else x.numel()
            else:
                rows = max(1, x.numel() // self.experts)
            return torch.empty((rows, x.dim()), dtype=torch.long, device=x.device)
        if name in SYNC_OPS:
            x = args[0]
            if x.device.type != "meta":
                return NotImplemented
            return False if x.dtype == torch.bool else (0.0 if x.is_floating_point() else 0)
        return NotImplemented


def _crosses_devices(args, kwargs):
    """A copy whose source and destination are on different devices."""
    devices = {a.device.type for a in list(args) + list(kwargs.values()) if isinstance(a, torch.Tensor)}
    target = kwargs.get("device")
    if target is not None:
        devices.add(torch.device(target).type)
    return len(devices) > 1


class Recorder(TorchDispatchMode):
    def __init__(self, amap: mapping.AtenMapping, mode: str, oracle=None):
        super().__init__()
        self.map = amap
        self.mode = mode
        self.oracle = oracle
        self.mapped_ops = set(amap.aten_ops)
        self.cases = collections.OrderedDict()   # merge key -> case dict
        self.counts = collections.Counter()      # class -> calls
        self.unmapped = collections.Counter()    # ATen op -> calls
        self.views = collections.Counter()
        self.copies = collections.Counter()
        self.functions = mapping.header_functions()

    def _run(self, name, func, args, kwargs):
        if self.oracle is not None:
            out = self.oracle(name, args, kwargs)
            if out is not NotImplemented:
                return out
        return func(*args, **kwargs)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = schemas.overload_name(func)
        if name in COPY_OPS or name in SYNC_OPS or (name in CROSS_DEVICE and _crosses_devices(args, kwargs)):
            self.counts["copy"] += 1
            self.copies[name] += 1
            return self._run(name, func, args, kwargs)
        env = self._bind(func, args, kwargs)
        entry = None
        if name in self.mapped_ops:
            try:
                entry = self.map.select(name, env)
            except Exception:  # a condition the captured values cannot answer: not served
                entry = None
        if entry is not None:
            out = self._run(name, func, args, kwargs)
            env[mapping.RESULT] = out
            self._record(name, func, entry, env, out)
            return out
        if any(r.alias_info is not None and not r.alias_info.is_write for r in func._schema.returns):
            self.counts["view"] += 1
            self.views[name] += 1
            return func(*args, **kwargs)
        if name in ALLOC:
            self.counts["alloc"] += 1
            return func(*args, **kwargs)
        if torch._C._dispatch_has_kernel_for_dispatch_key(func.name(), "CompositeImplicitAutograd"):
            self.counts["composite"] += 1
            with self:
                return func.decompose(*args, **kwargs)
        for key in ("CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"):
            if torch._C._dispatch_has_kernel_for_dispatch_key(func.name(), key):
                saved = self._snapshot()
                try:
                    with self:  # see the parts, as the device dispatches them
                        out = func.redispatch(torch._C.DispatchKeySet(getattr(torch._C.DispatchKey, key)), *args, **kwargs)
                    self.counts["composite"] += 1
                    return out
                except NotImplementedError:  # a decomposition the meta device cannot run: counted as not served
                    self._restore(saved)  # whatever the failed attempt recorded
                    break
        self.counts["unmapped"] += 1
        self.unmapped[name] += 1
        return self._run(name, func, args, kwargs)

    def _snapshot(self):
        return (collections.Counter(self.counts), collections.Counter(self.unmapped), collections.Counter(self.views),
                collections.Counter(self.copies), {k: c["count"] for k, c in self.cases.items()})

    def _restore(self, saved):
        self.counts, self.unmapped, self.views, self.copies, counts = saved
        for k in list(self.cases):
            if k not in counts:
                del self.cases[k]
            else:
                self.cases[k]["count"] = counts[k]

    @staticmethod
    def _bind(func, args, kwargs):
        env = {}
        for i, a in enumerate(func._schema.arguments):
            if i < len(args) and not a.kwarg_only:
                env[a.name] = args[i]
            elif a.name in kwargs:
                env[a.name] = kwargs[a.name]
            else:
                env[a.name] = a.default_value if a.has_default_value() else None
        return env

    def _record(self, name, func, entry, env, out):
        self.counts["mapped"] += 1
        self.record_case(name, func, entry, env, out)

    def record_case(self, name, func, entry, env, out):
        """Adds (or counts again) the DIOPI call `entry` makes of this ATen call."""
        bound = entry.bind(env)
        aten_args = {a.name: describe(env[a.name]) for a in func._schema.arguments}
        # Where each DIOPI argument comes from: an ATen argument, the result, or a value.
        results = tree_flatten(out)[0] if not isinstance(out, torch.Tensor) else [out]
        sources = {}
        fn = self.functions[entry.diopi]
        for param, value in bound.items():
            sources[param] = self._source(value, env, func, out, results, fn.param(param).is_output)
        case = {"diopi": entry.diopi, "aten": name, "entry": _where(entry), "modes": [self.mode],
                "aten_args": aten_args, "diopi_args": {p: describe(v) for p, v in bound.items()},
                "sources": {p: Flow(s) for p, s in sources.items()}}
        key = merge_key(case)
        if key in self.cases:
            self.cases[key]["count"] += 1
        else:
            case["count"] = 1
            self.cases[key] = case

    @staticmethod
    def _source(value, env, func, out, results, written):
        if isinstance(value, torch.Tensor):
            # A DIOPI output comes from the argument the operator writes (out=, in-place), an
            # input from one it reads: the two may be one tensor (where(c, x, y, out=y)).
            def writes(a):
                return a.alias_info is not None and a.alias_info.is_write
            args = sorted(func._schema.arguments, key=lambda a: writes(a) != written)
            for a in args:
                if env.get(a.name) is value:
                    return {"aten": a.name}
            if out is value:
                return {"result": None}
            for i, r in enumerate(results):
                if r is value:
                    return {"result": i}
            return {"unknown": True}
        if isinstance(value, (list, tuple)) and value and all(isinstance(v, torch.Tensor) for v in value):
            for a in func._schema.arguments:
                if isinstance(env.get(a.name), (list, tuple)) and len(env[a.name]) == len(value) and \
                        all(x is y for x, y in zip(env[a.name], value)):
                    return {"aten": a.name}
            # A list the mapping gathers from single tensor arguments (indices: "[index]").
            items = [next((a.name for a in func._schema.arguments if env.get(a.name) is v), None) for v in value]
            if all(items):
                return {"aten_items": items}
            return {"unknown": True}
        return {"value": describe(value)}


def merge_key(case):
    """Calls are the same case when function, ATen operator and every argument agree."""
    return _key({k: case[k] for k in ("diopi", "aten", "aten_args", "diopi_args")})


def merge(recorders):
    """The cases of several recorders (training step, inference), identical
    calls merged: counts add up, `modes` lists where the call was made."""
    merged = collections.OrderedDict()
    for r in recorders:
        for c in r.cases.values():
            k = merge_key(c)
            if k in merged:
                merged[k]["count"] += c["count"]
                merged[k]["modes"] = sorted(set(merged[k]["modes"]) | set(c["modes"]), key=["train", "infer"].index)
            else:
                merged[k] = dict(c, modes=list(c["modes"]))
    return list(merged.values())


def _where(entry):
    """file:line of a mapping entry, relative to the repository (stable whatever the working directory)."""
    return f"{os.path.relpath(os.path.abspath(entry.file), ROOT)}:{entry.line}"


def _loss(model, inputs, spec):
    return registry.loss(model(**inputs), inputs)


def _adamw_step(model):
    """The first step of torch.optim.AdamW(fused=True), as the optimizer makes it:
    its state created, then one _fused_adamw_ over every parameter. (The
    optimizer object itself refuses meta tensors.)"""
    params = [p for p in model.parameters() if p.grad is not None]
    grads = [p.grad for p in params]
    exp_avgs = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in params]
    exp_avg_sqs = [torch.zeros_like(p, memory_format=torch.preserve_format) for p in params]
    steps = [torch.zeros((), dtype=torch.float32, device=p.device) for p in params]
    torch._foreach_add_(steps, 1)
    torch._fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, [], steps, lr=1e-4, beta1=0.9, beta2=0.999,
                        weight_decay=0.01, eps=1e-8, amsgrad=False, maximize=False)


def capture(name, modes=None, amap=None, overrides=None, small=False, label=None):
    """The case set of one registry model or hf: spec (a dict ready to be written
    as YAML); `overrides` replaces configuration values and input sizes,
    `small` starts from the spec's tiny version (tests capture those)."""
    import transformers

    amap = amap or mapping.load()
    spec = registry.spec_of(name)
    modes = tuple(modes or spec.modes)
    label = label or (name if name in registry.MODELS else _label(name))
    t0 = time.time()
    recorders = []
    oracle_text = ""
    for mode in modes:
        model, inputs, spec = registry.build_with_inputs(name, overrides=overrides, device="meta", small=small)
        oracle = MetaOracle(spec.routing, model.config) if spec.routing else None
        oracle_text = oracle.describe() if oracle else ""
        rec = Recorder(amap, mode, oracle)
        if mode == "train":
            model.train()
            with rec:
                loss = _loss(model, inputs, spec)
                loss.backward()
                _adamw_step(model)
        else:
            model.eval()
            feed = {k: v for k, v in inputs.items() if k != "labels"}
            with torch.no_grad(), rec:
                model(**feed)
        recorders.append(rec)
    cases = merge(recorders)
    counts, unmapped, views, copies = (collections.Counter() for _ in range(4))
    for r in recorders:
        counts.update(r.counts)
        unmapped.update(r.unmapped)
        views.update(r.views)
        copies.update(r.copies)
    kernel_calls = counts["mapped"] + counts["unmapped"]
    for i, c in enumerate(cases):
        c["name"] = f"{label}.{i:03d}"
    sizes = spec.input_sizes(small)
    sizes.update({k: v for k, v in (overrides or {}).items() if k in registry.INPUT_KEYS})
    return {
        "model": label,
        "provenance": {
            "transformers": transformers.__version__, "torch": torch.__version__.split("+")[0],
            "class": spec.cls or f"torch.nn ({spec.builder})", "config": registry.config_values(spec, overrides, small),
            "batch": sizes["batch"], "seq_len": sizes["seq_len"], "image_size": sizes["image_size"],
            "dtype": spec.dtype, "modes": list(modes), "kind": spec.kind, "note": spec.note,
            "runtime": dict(spec.runtime), "assumed": oracle_text,
            "optimizer": "AdamW(fused=True): lr 1e-4, betas (0.9, 0.999), eps 1e-8, weight_decay 0.01" if "train" in modes else "",
            "captured_by": "python -m diopi_torch.capture --model " + name + (" --small" if small else "")
                           + (f" --name {label}" if label != name + ("_small" if small else "") else ""),
        },
        "summary": {
            "aten_calls": kernel_calls, "mapped_calls": counts["mapped"], "unmapped_calls": counts["unmapped"],
            "view_calls": counts["view"], "copy_calls": counts["copy"], "alloc_calls": counts["alloc"],
            "decomposed_calls": counts["composite"],
            "cases": len(cases), "functions": sorted({c["diopi"] for c in cases}),
            "unmapped": dict(unmapped.most_common()), "views": dict(views.most_common()),
            "copies": dict(copies.most_common()), "capture_seconds": round(time.time() - t0, 1),
        },
        "cases": cases,
    }


def _label(name):
    """A file name for an hf: spec: hf_<Class>."""
    return "hf_" + name.split(":")[1]


def single_call_set(model, func, args, kwargs, out, amap=None, note=""):
    """A case set of one ATen call (autocompare saves the call it caught this way),
    replayable with DIOPI_MODEL_CASES=<folder> python main.py --model_name <model>."""
    amap = amap or mapping.load()
    name = schemas.overload_name(func)
    rec = Recorder(amap, "train")
    env = rec._bind(func, args, kwargs)
    entry = amap.select(name, env)
    if entry is None:
        raise ValueError(f"no mapping entry serves {name} for these arguments")
    env[mapping.RESULT] = out
    rec.record_case(name, func, entry, env, out)
    (case,) = rec.cases.values()
    case["name"] = f"{model}.000"
    return {"model": model,
            "provenance": {"transformers": "", "torch": torch.__version__.split("+")[0], "class": "", "config": {},
                           "batch": 0, "seq_len": 0, "image_size": 0, "dtype": "", "modes": ["train"], "note": note,
                           "captured_by": "diopi_torch.autocompare"},
            "summary": {"aten_calls": 1, "mapped_calls": 1, "unmapped_calls": 0, "view_calls": 0, "copy_calls": 0,
                        "alloc_calls": 0, "decomposed_calls": 0, "cases": 1, "functions": [entry.diopi], "unmapped": {},
                        "views": {}, "copies": {}},
            "cases": [case]}


def write(caseset, out_dir=DEFAULT_OUT):
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"{caseset['model']}.yaml")
    header = (f"# Model case set captured from real model code: {caseset['provenance']['class']} at its published size.\n"
              f"# Regenerate with: {caseset['provenance']['captured_by']}   (do not edit by hand)\n")
    with open(path, "w") as f:
        f.write(header)
        yaml.safe_dump(caseset, f, sort_keys=False, width=120, default_flow_style=None)
    return path


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m diopi_torch.capture", description=__doc__.splitlines()[0])
    p.add_argument("--model", nargs="+", default=[],
                   help=f"registry models ({', '.join(registry.PUBLISHED)}, or the suite's) or hf:<ModelClass>:key=value,...")
    p.add_argument("--all", action="store_true", help="every published model")
    p.add_argument("--small", action="store_true", help="capture the tiny version of each model (spec.small)")
    p.add_argument("--name", default=None, help="case-set name (one model only; default: the model name)")
    p.add_argument("--out", default=DEFAULT_OUT, help="folder of the case sets (default: %(default)s)")
    args = p.parse_args(argv)
    names = list(registry.PUBLISHED) if args.all else args.model
    if not names:
        p.error("give --model NAME or --all")
    if args.name and len(names) != 1:
        p.error("--name needs exactly one --model")
    for n in names:
        try:
            registry.spec_of(n)
        except KeyError as e:
            p.error(str(e.args[0]))
    amap = mapping.load()
    for n in names:
        cs = capture(n, amap=amap, small=args.small, label=args.name or ((n if n in registry.MODELS else _label(n))
                                                                         + ("_small" if args.small else "")))
        path = write(cs, args.out)
        s = cs["summary"]
        share = s["mapped_calls"] / s["aten_calls"] if s["aten_calls"] else 0.0
        print(f"{cs['model']}: {s['cases']} cases of {len(s['functions'])} functions; {s['mapped_calls']} of "
              f"{s['aten_calls']} ATen calls map to DIOPI ({share:.1%}); unmapped: {s['unmapped'] or '-'}; "
              f"{s['view_calls']} views, {s['copy_calls']} copies; {s['capture_seconds']} s -> {path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
