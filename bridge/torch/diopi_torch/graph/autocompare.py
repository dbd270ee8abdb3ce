"""Graph autocompare: every node of a compiled graph checked against eager CPU.

    enable(out_dir, model_name, tol)      # before torch.compile runs (models.sh --compile --autocompare)
    first()                               # the first divergence, or None

With autocompare on, a graph is planned with every node's result kept (each
in a buffer of its own, returned by the run besides the graph's outputs).
After each run of the native call the nodes are replayed in order on the CPU:
each ATen operator (or fused operator's PyTorch form) on CPU copies of the
inputs the compiled run gave it, and its results are compared with the
compiled ones. The first node that differs is reported with the model's
module path, the FX node, the DIOPI function and the mapping line that served
it, and saved as a case (diopi_torch.tools.autocompare.save_case: replayed by
`python -m diopi_torch.tools.replay`, and a harness case set).
"""
from __future__ import annotations

import operator

import torch
from torch.utils._pytree import tree_flatten, tree_map

from ..tools.autocompare import save_case
from . import lower

_state = {"on": False, "out_dir": "autocompare", "model": "model", "tol": 1e-3, "first": None, "compared": 0}


def enable(out_dir, model_name, tol):
    _state.update(on=True, out_dir=out_dir, model=model_name, tol=max(tol * 10, 1e-3), first=None, compared=0)


def disable():
    _state["on"] = False


def enabled():
    return _state["on"]


def first():
    return _state["first"]


def compared():
    """Nodes compared since enable()."""
    return _state["compared"]


def keep_everything(gm):
    """A copy of the graph returning, after its own outputs, every node's value."""
    g = torch.fx.Graph()
    env = {}
    kept = []
    out = None
    for node in gm.graph.nodes:
        if node.op == "output":
            out = node
            continue
        env[node] = g.node_copy(node, lambda n: env[n])
        if node.op == "call_function" and isinstance(node.meta.get("val"), torch.Tensor):
            kept.append(node)
    returned = out.args[0]
    returned = list(returned) if isinstance(returned, (list, tuple)) else [returned]
    g.output(tuple(torch.fx.map_arg(returned, lambda n: env[n])) + tuple(env[n] for n in kept))
    return torch.fx.GraphModule(gm, g), len(returned), [n.name for n in kept]


class Checker:
    """Compares the kept values of one run with eager CPU, node by node."""

    def __init__(self, gm, plan, n_outputs, kept):
        self.gm = gm
        self.plan = plan
        self.n_outputs = n_outputs
        self.kept = kept
        self.steps = {}
        for s in plan.steps:  # the step making the node's DIOPI call (not its copies)
            if not s.bookkeeping and (s.node not in self.steps or s.fn != "diopiCopyInp"):
                self.steps[s.node] = s

    def check(self, inputs, results):
        if _state["first"] is not None:
            return
        values = {}
        placeholders = [n for n in self.gm.graph.nodes if n.op == "placeholder"]
        for n, v in zip(placeholders, inputs):
            values[n.name] = v
        for name, v in zip(self.kept, results[self.n_outputs:]):
            values[name] = v
        for node in self.gm.graph.nodes:
            if node.op != "call_function" or node.target is operator.getitem:
                continue
            step = self.steps.get(node.name)
            if step is None or not isinstance(node.target, torch._ops.OpOverload):
                continue  # a view or an allocation: nothing of the library's to judge
            if torch.Tag.nondeterministic_seeded in node.target.tags:
                continue  # random numbers of the device's generator, not the CPU's
            args, kwargs = torch.fx.map_arg((node.args, node.kwargs), lambda n: _value(n, values, self.gm))
            cpu_args, cpu_kwargs = tree_map(_to_cpu, (args, kwargs))
            ref = node.target(*cpu_args, **cpu_kwargs)
            got = _outputs_of(node, values)
            _state["compared"] += 1
            for d, r in zip(tree_flatten(got)[0], tree_flatten(ref)[0]):
                if not isinstance(d, torch.Tensor) or not isinstance(r, torch.Tensor):
                    continue
                diff, rel = _difference(d.detach().cpu(), r.detach())
                if rel > _state["tol"]:
                    self._record(node, step, cpu_args, cpu_kwargs, ref, diff, rel)
                    return

    def _record(self, node, step, cpu_args, cpu_kwargs, ref, diff, rel):
        tensors = [x for x in tree_flatten((cpu_args, cpu_kwargs))[0] if isinstance(x, torch.Tensor)]
        found = {"model": _state["model"], "module": lower.module_path(node), "node": node.name,
                 "aten": step.aten, "diopi": step.fn, "mapping": step.where, "source": lower.source_line(node),
                 "shapes": [list(t.shape) for t in tensors],
                 "dtypes": sorted({str(t.dtype).replace("torch.", "") for t in tensors}),
                 "max_abs_diff": diff, "relative_diff": rel, "tolerance": _state["tol"]}
        _state["first"] = found
        if node.target.namespace == "aten":
            found["case_file"] = save_case(_state["out_dir"], _state["model"], node.target, step.aten, step.fn,
                                           cpu_args, cpu_kwargs, ref, found["module"],
                                           extra={"graph_node": node.name, "mapping": step.where})


def _value(node, values, gm):
    if node.name in values:
        return values[node.name]
    if node.op == "get_attr":
        return getattr(gm, node.target)
    if node.target is operator.getitem:
        return _value(node.args[0], values, gm)[node.args[1]]
    raise KeyError(node.name)


def _outputs_of(node, values):
    if node.name in values:
        return values[node.name]
    items = sorted(((u.args[1], u) for u in node.users if u.target is operator.getitem), key=lambda x: x[0])
    return [values.get(u.name) for _, u in items]


def _to_cpu(x):
    if isinstance(x, torch.Tensor) and x.device.type == "diopi":
        return x.detach().cpu().clone()
    if isinstance(x, torch.device) and x.type == "diopi":
        return torch.device("cpu")
    return x


def _difference(got, exp):
    got, exp = got.double(), exp.double()
    if got.shape != exp.shape:
        return float("inf"), float("inf")
    if not got.numel():
        return 0.0, 0.0
    diff = (got - exp).abs().nan_to_num(float("inf")).max().item()
    return diff, diff / max(exp.abs().max().item(), 1e-12)
