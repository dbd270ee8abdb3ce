"""The device's counters: per ATen operator, DIOPI calls, fallbacks (with
their reasons), views and copies; once the compile route is in use, its
graphs' calls and its own counters (diopi_torch.graph.stats) too."""
from __future__ import annotations

import json
import sys

from .. import _C

GRAPH_KEY = "graph"
_GRAPH = __name__.rsplit(".", 2)[0] + ".graph"


def _graph_in_use() -> bool:
    # The compile route is counted only once something imported it: importing it here would pull in torch
    # (and torch._dynamo's world) for every eager user of stats().
    return _GRAPH in sys.modules


def stats() -> dict:
    """Per ATen operator: {"diopi": n, "fallback": n, "view": n, "copy": n,
    "functions": {DIOPI function: n}, "reasons": {fallback reason: n}}.
    Once torch.compile(backend="diopi") has been used, the DIOPI calls of
    compiled graphs are counted under their ATen operators too, and the key
    "graph" holds the compile route's own counters (diopi_torch.graph.stats)."""
    st = json.loads(_C.extension().diopi_torch_stats().decode())
    if _graph_in_use():
        from ..graph import runtime, stats as graph_stats  # see _graph_in_use
        calls, _ = runtime.op_counts()
        for (aten, fn), n in calls.items():
            if not n:
                continue
            c = st.setdefault(aten, {"diopi": 0, "fallback": 0, "view": 0, "copy": 0, "functions": {}, "reasons": {}})
            c["diopi"] += n
            c["functions"][fn] = c["functions"].get(fn, 0) + n
        st[GRAPH_KEY] = graph_stats.snapshot()
    return st


def reset_stats():
    _C.extension().diopi_torch_reset_stats()
    if _graph_in_use():
        from ..graph import runtime, stats as graph_stats  # see _graph_in_use
        runtime.reset_counts()
        graph_stats.reset()


def summary(st: dict | None = None) -> dict:
    """Totals of stats(): aten_calls (= diopi_calls + fallback_calls), view_calls,
    copy_calls and the fallback operators with their counts."""
    st = stats() if st is None else st
    st = {k: v for k, v in st.items() if k != GRAPH_KEY}
    d = sum(v["diopi"] for v in st.values())
    f = sum(v["fallback"] for v in st.values())
    return {"aten_calls": d + f, "diopi_calls": d, "fallback_calls": f,
            "view_calls": sum(v["view"] for v in st.values()), "copy_calls": sum(v["copy"] for v in st.values()),
            "fallback_ops": {k: v["fallback"] for k, v in sorted(st.items(), key=lambda kv: -kv[1]["fallback"])
                             if v["fallback"]}}
