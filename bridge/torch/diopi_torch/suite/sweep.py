"""A sequence-length sweep of a compiled causal LM (models.sh --compile --seq_sweep 8,12,16,...).

The same weights train one AdamW step per length, in turn, on eager CPU and through
torch.compile(model, backend="diopi") on the device. Per length: the route's compilations so far
(aot_autograd graphs lowered, by stage), the plans made for new size bindings, the nodes left to
the eager device, and the largest difference against eager CPU (logits and loss, gradients,
updated parameters), judged with the vendor's float32 tolerance. A variable-length training loop
uses the route when each graph compiles at most twice (static on the first length, symbolic on the
second) and no node falls back.
"""
from __future__ import annotations

import copy

LENGTHS = (8, 12, 16, 24, 32, 48, 64)


def _batch(m, length, seed):
    import torch
    from .models import TEXT_SMALL_INPUTS
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(1, m.config.vocab_size, (TEXT_SMALL_INPUTS["batch"], length), generator=g)
    return {"input_ids": ids, "labels": ids.clone()}


def seq_sweep(model, lengths=LENGTHS, tol=1e-4):
    """One row per length (see the module's docstring) and a verdict."""
    import torch
    import torch._dynamo

    from .. import _C
    from ..graph import stats as graph_stats
    from . import recipes
    from .compare import compare
    from .models import build
    if model.kind != "causal-lm":
        raise ValueError(f"--seq_sweep trains causal LMs; {model.name} is a {model.kind} model")
    torch._dynamo.reset()
    graph_stats.reset()
    base = build(model)
    cpu, dev = copy.deepcopy(base), copy.deepcopy(base).to(torch.device(_C.BACKEND))
    cpu.train()
    dev.train()
    opt_cpu, opt_dev = recipes.optimizer(cpu.parameters()), recipes.optimizer(dev.parameters(), fused=True)
    step = torch.compile(dev, backend="diopi")
    rows, first_compiles = [], None
    for i, length in enumerate(lengths):
        batch = _batch(base, length, seed=100 + i)
        sides = {}
        for name, m, s, opt, device in (("cpu", cpu, cpu, opt_cpu, torch.device("cpu")),
                                        ("dev", dev, step, opt_dev, torch.device(_C.BACKEND))):
            opt.zero_grad(set_to_none=True)
            with (recipes.NoDropoutPatched() if name == "dev" else recipes.NoDropout()):
                logits, loss = recipes._loss(s, {k: v.to(device) for k, v in batch.items()})
                loss.backward()
            grads = {n: p.grad.detach().float().cpu().clone() for n, p in m.named_parameters() if p.grad is not None}
            opt.step()
            sides[name] = {"forward": {"logits": logits.detach().float().cpu(), "loss": loss.detach().float().cpu()},
                           "backward": grads,
                           "step": {n: p.detach().float().cpu().clone() for n, p in m.named_parameters()}}
        st = graph_stats.snapshot()
        compiles = dict(st["compiled_graphs"])
        if first_compiles is None:
            first_compiles = compiles
        row = {"length": length, "compiled_graphs": compiles, "symbolic_graphs": dict(st["symbolic_graphs"]),
               "shape_bindings": st["shape_bindings"], "fallback_nodes": st["fallback_nodes"],
               "graph_breaks": st["graph_breaks"], "match": True, "max_abs_diff": 0.0, "worst": ""}
        for part in ("forward", "backward", "step"):
            ok, d, where = compare(sides["dev"][part], sides["cpu"][part], tol)
            row["match"] = row["match"] and ok
            if d > row["max_abs_diff"]:
                row["max_abs_diff"], row["worst"] = d, f"{part}: {where}"
        rows.append(row)
    last = rows[-1]["compiled_graphs"] if rows else {}
    most = max((last.get(k, 0) / max(first_compiles.get(k, 0), 1) for k in last), default=0.0)
    verdict = {"model": model.name, "lengths": list(lengths), "rows": rows,
               "compiles_per_graph": most,
               "fallback_nodes": rows[-1]["fallback_nodes"] if rows else 0,
               "all_match": all(r["match"] for r in rows)}
    verdict["ok"] = verdict["all_match"] and verdict["fallback_nodes"] == 0 and most <= 2
    return verdict


def print_sweep(v):
    print(f"\n{v['model']}: sequence-length sweep, compiled (backend='diopi') vs eager CPU, one AdamW step per length")
    print(f"{'length':>6} {'compiled graphs':>22} {'symbolic':>9} {'bindings':>8} {'fallback':>8} {'breaks':>6} "
          f"{'max diff':>10}  match")
    for r in v["rows"]:
        comp = ",".join(f"{k[0]}{n}" for k, n in sorted(r["compiled_graphs"].items()))
        sym = sum(r["symbolic_graphs"].values())
        print(f"{r['length']:>6} {comp:>22} {sym:>9} {r['shape_bindings']:>8} {r['fallback_nodes']:>8} "
              f"{r['graph_breaks']:>6} {r['max_abs_diff']:>10.3g}  {'yes' if r['match'] else 'NO ' + r['worst']}")
    print(f"compilations per graph: {v['compiles_per_graph']:.1f} (at most 2), fallback nodes: {v['fallback_nodes']}, "
          f"all match: {v['all_match']} -> {'OK' if v['ok'] else 'FAILED'}")
