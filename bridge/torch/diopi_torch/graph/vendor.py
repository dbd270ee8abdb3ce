"""Plans offered to the vendor's own graph compiler (diopi/graph.h).

    served = offer(native, functions)   # after NativeGraph(plan, name); True when every step is served

Where the loaded library exports diopiGetGraphCompiler, each plan is offered
to it first: its steps become the nodes of a graph.h graph (the runner builds
the C structs from the plan it parsed, csrc/graph/runner.cpp) and this module
says what each tensor is. What the compiler declines runs call by call as
before; the steps around it are offered again as smaller graphs. When the
compiler fails, the whole plan runs call by call and the failure is counted.
DIOPI_GRAPH_COMPILER=0 never offers, nor does a run capturing graphs
(DIOPI_GRAPH_CAPTURE, graph/capture.py): its recorded outputs are the per-call route's.

The graph form has no way to say that two tensors share memory except views,
so the graphs offered never need one:
  - a memory (an input, a constant, an output buffer, an intermediate buffer)
    that a graph writes is reached in it through one reference only; a step
    reaching it through another starts a new graph (the runner runs them one
    after the other on the stream);
  - a memory only read may be reached through several references: each is an
    input of its own;
  - intermediates packed into the same arena bytes at different times must not
    both be the caller's memory of one graph when one is written (a graph
    would see an input and an output it cannot know overlap): a graph is cut
    where the second one starts.
Memory the graph alone uses is an intermediate (the vendor's business);
memory used before or after it is an input (only read) or an output
(written, holding its earlier contents for the steps that read them first).
"""
from __future__ import annotations

import os
import time

from . import stats
from .plan import _dtype_code, _dtype_codes
from .plan_schema import ARG

INPUT, OUTPUT, INTERMEDIATE = 0, 1, 2  # diopiGraphTensorRole_t
_WRITES = {"tensor_out", "tensor_array_out"}


def enabled():
    return os.environ.get("DIOPI_GRAPH_COMPILER", "1") != "0" and not os.environ.get("DIOPI_GRAPH_CAPTURE")


def _ops():
    from .runtime import _ops
    return _ops()


def compiler_name():
    """The loaded library's graph compiler, "" when it has none (or DIOPI_GRAPH_COMPILER=0)."""
    return _ops().vendor_compiler() if enabled() else ""


def _accesses(plan, functions):
    """Per step: [(ref, writes)] of its tensor arguments, or None when the graph form cannot express the step."""
    out = []
    for s in plan.steps:
        fn = functions.get(s.fn)
        params = [p for p in fn.params if p.kind != "context"] if fn is not None else None
        if params is None or len(params) != len(s.args):
            out.append(None)
            continue
        acc = []
        for p, a in zip(params, s.args):
            if a[0] in (ARG.Cell, ARG.CellRef):  # an output the library allocates: no graph.h argument holds it
                acc = None
                break
            w = p.kind in _WRITES
            if a[0] == ARG.Tensor:
                acc.append((a[1], w))
            elif a[0] == ARG.TensorArray:
                acc += [(r, w) for r in a[1] if r >= 0]
        out.append(acc)
    return out


def _root(tv):
    kind, what = tv.base
    return (kind, what) if kind in ("i", "c") else ("b", id(what))


class _Graph:
    def __init__(self, start):
        self.start = start
        self.stop = start
        self.roots = {}   # root -> [refs (ordered), written]

    def admits(self, acc, refs):
        for ref, w in acc:
            entry = self.roots.get(_root(refs[ref]))
            if entry is None:
                continue
            if (w or entry[1]) and any(r != ref for r in entry[0]):
                return False
        return True

    def add(self, k, acc, refs):
        for ref, w in acc:
            entry = self.roots.setdefault(_root(refs[ref]), [[], False])
            if ref not in entry[0]:
                entry[0].append(ref)
            entry[1] = entry[1] or w
        self.stop = k + 1


def _alone(acc, refs):
    """A step that writes a memory it also reaches through another reference cannot be a graph of its own."""
    g = _Graph(0)
    for ref, w in acc:
        if not g.admits([(ref, w)], refs):
            return False
        g.add(0, [(ref, w)], refs)
    return True


def _segments(plan, acc, skip, cuts):
    """Maximal runs of offerable steps under the rules of the module's docstring."""
    refs = plan.refs
    graphs, cur = [], None
    for k, a in enumerate(acc):
        if k in skip or a is None:
            cur = None
            continue
        if cur is None or k in cuts or not cur.admits(a, refs):
            cur = _Graph(k)
            graphs.append(cur)
        cur.add(k, a, refs)
    return graphs


def _external(tv, g):
    kind, what = tv.base
    if kind != "b" or what.output is not None:
        return True
    first = what.first if what.first is not None else -1
    last = what.last if what.last is not None else first
    return first < g.start or last >= g.stop


def _overlap_cut(g, acc, refs):
    """A step where a graph must be cut: arena bytes that are two of its caller's memories, one written. None if none."""
    touched = {}  # buffer -> first step of the graph touching it
    for k in range(g.start, g.stop):
        for ref, _ in acc[k]:
            tv = refs[ref]
            if tv.base[0] == "b" and tv.base[1].output is None and _external(tv, g):
                touched.setdefault(tv.base[1], k)
    bufs = sorted(touched, key=lambda b: touched[b])
    for i, a in enumerate(bufs):
        for b in bufs[i + 1:]:
            written = g.roots[("b", id(a))][1] or g.roots[("b", id(b))][1]
            if written and a.offset < b.offset + b.nbytes and b.offset < a.offset + a.nbytes:
                return touched[b]
    return None


def expressible(plan, functions):
    """Per step: its accesses, or None when the graph form cannot hold it (alone, as the rules say)."""
    return [a if a is not None and _alone(a, plan.refs) else None for a in _accesses(plan, functions)]


def graphs_of(plan, acc, skip, cuts):
    """The graphs the plan's steps (but `skip`) are offered as: maximal runs under the rules of the module's
    docstring, cut where arena bytes would overlap (`cuts` grows with those cuts)."""
    while True:
        graphs = _segments(plan, acc, skip, cuts)
        for g in graphs:
            k = _overlap_cut(g, acc, plan.refs)
            if k is not None:
                cuts.add(k)
                break
        else:
            return graphs


def tensors(g, acc, refs):
    """The tensors of graph `g` as the runner's offer() and describe() read them (see _tensors)."""
    return _tensors(g, acc, refs, _dtype_codes())


def _tensors(g, acc, refs, codes):
    """The tensors of a graph as the runner's offer() reads them; also the number of inputs and outputs."""
    uses = {}
    for k in range(g.start, g.stop):
        for ref, _ in acc[k]:
            f, l_ = uses.get(ref, (k, k))
            uses[ref] = (min(f, k), max(l_, k))
    lines, nin, nout = [], 0, 0
    for root, (rs, written) in g.roots.items():
        for ref in rs:
            tv = refs[ref]
            if not _external(tv, g):
                role, index = INTERMEDIATE, -1
            elif written:
                role, index, nout = OUTPUT, nout, nout + 1
            else:
                role, index, nin = INPUT, nin, nin + 1
            f, l_ = uses[ref]
            words = [role, index, _dtype_code(tv.dtype, codes), len(tv.sizes), *tv.sizes, len(tv.strides), *tv.strides,
                     f - g.start, l_ - g.start, ref]
            lines.append(" ".join(str(int(w)) for w in words))
    return f"{len(lines)}\n" + "\n".join(lines) + "\n"


def offer(native, functions):
    """Offers the plan of `native` to the vendor's graph compiler; True when its executables serve every step."""
    name = compiler_name()
    plan = native.plan
    if not name or not plan.steps:
        return False
    t0 = time.perf_counter()
    ops = _ops()
    codes = _dtype_codes()
    acc = expressible(plan, functions)
    unexpressed = sum(1 for a in acc if a is None)
    served, declined, cuts = set(), set(), set()
    graphs = steps = 0
    failure = None
    while failure is None:
        todo = graphs_of(plan, acc, served | declined, cuts)
        if not todo:
            break
        for g in todo:
            status, rejected, why = ops.offer(native.id, g.start, g.stop, _tensors(g, acc, plan.refs, codes),
                                              f"{native.name}[{g.start}:{g.stop}]")
            if status == 0:
                served.update(range(g.start, g.stop))
                graphs += 1
                steps += g.stop - g.start
            elif status == 1:
                declined.update(rejected)
            else:
                failure = why
                break
    if failure is not None:  # the plan runs call by call, as without a graph compiler
        ops.withdraw(native.id)
        graphs = steps = 0
    native.vendor_steps = steps
    left = [plan.steps[k].fn for k in sorted(declined)] + [plan.steps[k].fn for k, a in enumerate(acc) if a is None]
    stats.record_vendor(name, graphs, steps, len(declined), unexpressed, failure, time.perf_counter() - t0, left)
    return steps == len(plan.steps)
